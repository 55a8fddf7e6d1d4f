//! Per-pixel terrain: which kind of landscape each pixel of a tile shows, from a colour model
//! that the start tile can calibrate for this edition and this light.

use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

use crate::geometry::{LabelMap, TileShape};
use crate::rules::{catalogue, FeatureKind, Rotation};

/// What a pixel of a tile shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Grass.
    Field,
    /// Road surface.
    Road,
    /// City.
    City,
    /// A building in the centre (cloister, junction house).
    Building,
    /// A pennant's shield.
    Shield,
}

impl Terrain {
    /// All terrains, in index order.
    pub const ALL: [Terrain; 5] = [
        Terrain::Field,
        Terrain::Road,
        Terrain::City,
        Terrain::Building,
        Terrain::Shield,
    ];

    /// Index into [`Terrain::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The terrain a feature kind is painted in.
    pub fn of(kind: FeatureKind) -> Terrain {
        match kind {
            FeatureKind::Field => Terrain::Field,
            FeatureKind::Road => Terrain::Road,
            FeatureKind::City => Terrain::City,
            FeatureKind::Cloister => Terrain::Building,
        }
    }
}

/// Mean colour (blue, green, red) and spread of each terrain.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourModel {
    means: [[f32; 3]; 5],
    spread: [f32; 5],
}

impl Default for ColourModel {
    /// Colours typical of printed tiles: green fields, pale roads, brown–ochre cities, red roofs,
    /// blue shields.
    fn default() -> ColourModel {
        ColourModel {
            means: [
                [70.0, 155.0, 115.0],
                [200.0, 212.0, 218.0],
                [78.0, 125.0, 175.0],
                [60.0, 70.0, 170.0],
                [165.0, 85.0, 35.0],
            ],
            spread: [45.0, 45.0, 45.0, 60.0, 50.0],
        }
    }
}

impl ColourModel {
    /// The most likely terrain of a pixel (nearest mean, scaled by spread).
    pub fn classify(&self, bgr: [u8; 3]) -> Terrain {
        let mut best = (f32::MAX, Terrain::Field);
        for t in Terrain::ALL {
            let m = self.means[t.index()];
            let d: f32 = (0..3)
                .map(|c| (f32::from(bgr[c]) - m[c]).powi(2))
                .sum::<f32>()
                / self.spread[t.index()].powi(2);
            if d < best.0 {
                best = (d, t);
            }
        }
        best.1
    }

    /// The default model with these terrain colours (blue, green, red per terrain, in
    /// [`Terrain::ALL`] order).
    pub fn with_means(means: [[f32; 3]; 5]) -> ColourModel {
        ColourModel {
            means,
            ..ColourModel::default()
        }
    }

    /// The terrain colours (blue, green, red), in [`Terrain::ALL`] order.
    pub fn means(&self) -> &[[f32; 3]; 5] {
        &self.means
    }

    /// Squared colour distance from a pixel to the nearest terrain mean.
    pub fn nearest_distance2(&self, bgr: [u8; 3]) -> f32 {
        self.means
            .iter()
            .map(|m| {
                (0..3)
                    .map(|c| (f32::from(bgr[c]) - m[c]).powi(2))
                    .sum::<f32>()
            })
            .fold(f32::MAX, f32::min)
    }

    /// Learns the colours from a rectified patch of a tile whose type and rotation are known
    /// (the start tile): every pixel is labelled by the tile's geometry. Terrains the tile does
    /// not show keep their previous colours.
    pub fn calibrate(&mut self, patch: &Mat, tile_name: &str, rot: Rotation) -> opencv::Result<()> {
        let cat = catalogue();
        let Some(id) = cat.tile_id(tile_name) else {
            return Ok(());
        };
        let shape = TileShape::of(id);
        let ty = cat.tile(id);
        let (w, h) = (patch.cols(), patch.rows());
        let mut labelled: Vec<(Terrain, [u8; 3])> = Vec::new();
        // Stay clear of the borders between features: only cells whose neighbours agree.
        for y in 2..h - 2 {
            for x in 2..w - 2 {
                let u = [(x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32];
                let here = label_at(&shape.labels, u, rot);
                let Some(f) = ty.features.get(usize::from(here)) else {
                    continue;
                };
                // Roads are narrow: only their middle line is sure to be road.
                let r = if f.kind == FeatureKind::Road {
                    0.02
                } else {
                    0.06
                };
                let steady = [[-r, 0.0], [r, 0.0], [0.0, -r], [0.0, r]]
                    .iter()
                    .all(|d| label_at(&shape.labels, [u[0] + d[0], u[1] + d[1]], rot) == here);
                if !steady {
                    continue;
                }
                let v = patch.at_2d::<Vec3b>(y, x)?;
                labelled.push((Terrain::of(f.kind), [v[0], v[1], v[2]]));
            }
        }
        // Print differs from the catalogue's outlines (thinner roads, smaller cities, houses in
        // fields): each pass keeps only the pixels that look like the terrain they are labelled.
        for pass in 0..CALIBRATION_PASSES {
            let mut sum = [[0.0f64; 3]; 5];
            let mut n = [0usize; 5];
            for &(t, v) in &labelled {
                if pass > 0 && self.classify(v) != t {
                    continue;
                }
                for c in 0..3 {
                    sum[t.index()][c] += f64::from(v[c]);
                }
                n[t.index()] += 1;
            }
            for t in 0..5 {
                if n[t] > 20 {
                    self.means[t] = sum[t].map(|s| (s / n[t] as f64) as f32);
                }
            }
        }
        Ok(())
    }
}

/// The label of the catalogue-orientation tile at board-frame point `u` of a tile lying with `rot`.
pub fn label_at(labels: &LabelMap, u: [f32; 2], rot: Rotation) -> u8 {
    let canonical = crate::geometry::rotate(
        [u[0].clamp(0.0, 0.999), u[1].clamp(0.0, 0.999)],
        rot.inverse(),
    );
    labels.at(canonical)
}

/// Passes of [`ColourModel::calibrate`]: the first learns from every labelled pixel, the later
/// ones only from pixels that already look like their label.
const CALIBRATION_PASSES: usize = 3;

/// Side of the terrain grid a tile is reduced to for matching.
pub const GRID: usize = 16;

/// Share of each terrain in each cell of a [`GRID`]×[`GRID`] grid over the patch.
pub type TerrainGrid = Vec<[f32; 5]>;

/// Classifies every pixel of a patch (which shows exactly one tile, north up) and pools the
/// result into a grid of terrain shares. Pixels under `ignore` (255) do not count: a cell's shares
/// sum to the part of it that was seen.
pub fn terrain_grid(
    patch: &Mat,
    model: &ColourModel,
    ignore: Option<&Mat>,
) -> opencv::Result<TerrainGrid> {
    let map = ClassMap::new(patch, model, ignore)?;
    Ok(map.grid(0, 0, map.width().min(map.height())))
}

/// Per-pixel terrain of a patch as running sums, so that the terrain grid of any square window
/// costs the same small amount.
pub struct ClassMap {
    w: usize,
    h: usize,
    /// `sums[k][(y * (w + 1)) + x]`: pixels of terrain `k` above and left of (x, y); `k = 5`
    /// counts all pixels.
    sums: Vec<Vec<u32>>,
}

impl ClassMap {
    /// Classifies every pixel of `patch`, leaving out those under `ignore` (255).
    pub fn new(patch: &Mat, model: &ColourModel, ignore: Option<&Mat>) -> opencv::Result<ClassMap> {
        let patch = patch.try_clone()?;
        let (w, h) = (patch.cols().max(0) as usize, patch.rows().max(0) as usize);
        let bytes = patch.data_bytes()?;
        let skip = match ignore {
            Some(m) => Some(m.try_clone()?),
            None => None,
        };
        let skip = match &skip {
            Some(m) => Some(m.data_bytes()?),
            None => None,
        };
        let stride = w + 1;
        let mut sums = vec![vec![0u32; stride * (h + 1)]; 6];
        for y in 0..h {
            let mut row = [0u32; 6];
            for x in 0..w {
                row[5] += 1;
                if skip.is_none_or(|s| s[y * w + x] == 0) {
                    let i = (y * w + x) * 3;
                    row[model
                        .classify([bytes[i], bytes[i + 1], bytes[i + 2]])
                        .index()] += 1;
                }
                for (k, sum) in sums.iter_mut().enumerate() {
                    sum[(y + 1) * stride + x + 1] = sum[y * stride + x + 1] + row[k];
                }
            }
        }
        Ok(ClassMap { w, h, sums })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.h
    }

    fn count(&self, k: usize, x0: usize, y0: usize, x1: usize, y1: usize) -> u32 {
        let s = &self.sums[k];
        let st = self.w + 1;
        s[y1 * st + x1] + s[y0 * st + x0] - s[y0 * st + x1] - s[y1 * st + x0]
    }

    /// The terrain grid of the `side`-pixel square window at (x, y).
    pub fn grid(&self, x: usize, y: usize, side: usize) -> TerrainGrid {
        let mut grid = vec![[0.0f32; 5]; GRID * GRID];
        if side == 0 || x + side > self.w || y + side > self.h {
            return grid;
        }
        for gy in 0..GRID {
            let (y0, y1) = (y + gy * side / GRID, y + (gy + 1) * side / GRID);
            for gx in 0..GRID {
                let (x0, x1) = (x + gx * side / GRID, x + (gx + 1) * side / GRID);
                let all = self.count(5, x0, y0, x1, y1).max(1) as f32;
                for (k, share) in grid[gy * GRID + gx].iter_mut().enumerate() {
                    *share = self.count(k, x0, y0, x1, y1) as f32 / all;
                }
            }
        }
        grid
    }
}

/// What a point of a tile (board frame, tile units) shows, as terrain shares: the feature's
/// terrain, with the cloister's and junction's buildings partly walls, and shields on pennants.
fn expected_at(tile: crate::rules::TileId, rot: Rotation, u: [f32; 2]) -> [f32; 5] {
    let shape = TileShape::of(tile);
    let ty = catalogue().tile(tile);
    let mut share = [0.0f32; 5];
    for &p in &shape.pennants {
        let c = crate::geometry::rotate(p, rot);
        if (u[0] - c[0]).abs() < 0.05 && (u[1] - c[1]).abs() < 0.055 {
            share[Terrain::Shield.index()] = 0.7;
            share[Terrain::Road.index()] = 0.3;
            return share;
        }
    }
    let centre = (u[0] - 0.5).abs().max((u[1] - 0.5).abs());
    if shape.junction && centre < 0.09 {
        share[Terrain::Building.index()] = 0.5;
        share[Terrain::Road.index()] = 0.5;
        return share;
    }
    let label = label_at(&shape.labels, u, rot);
    match ty.features.get(usize::from(label)).map(|f| f.kind) {
        Some(FeatureKind::Cloister) => {
            share[Terrain::Building.index()] = 0.45;
            share[Terrain::Road.index()] = 0.35;
            share[Terrain::Field.index()] = 0.2;
        }
        Some(kind) => share[Terrain::of(kind).index()] = 1.0,
        None => share[Terrain::Field.index()] = 1.0,
    }
    share
}

/// The terrain grid a tile type shows when lying with `rot`, from its geometry.
pub fn expected_grid(tile: crate::rules::TileId, rot: Rotation) -> TerrainGrid {
    let sub = 4;
    let n = (GRID * sub) as f32;
    let mut grid = vec![[0.0f32; 5]; GRID * GRID];
    for gy in 0..GRID {
        for gx in 0..GRID {
            let cell = &mut grid[gy * GRID + gx];
            for sy in 0..sub {
                for sx in 0..sub {
                    let u = [
                        ((gx * sub + sx) as f32 + 0.5) / n,
                        ((gy * sub + sy) as f32 + 0.5) / n,
                    ];
                    for (c, v) in cell.iter_mut().zip(expected_at(tile, rot, u)) {
                        *c += v / (sub * sub) as f32;
                    }
                }
            }
        }
    }
    grid
}

/// Whether the rules cannot tell `tile` at rotation `a` from `tile` at rotation `b`: the same
/// features, with the same ports and print, lie in the same places (e.g. any two rotations of
/// the crossroads).
pub fn same_for_the_rules(tile: crate::rules::TileId, a: Rotation, b: Rotation) -> bool {
    let ty = catalogue().tile(tile);
    let turned = |rot: Rotation| -> Vec<(FeatureKind, u16, Vec<crate::rules::Attr>)> {
        let mut v: Vec<_> = ty
            .features
            .iter()
            .map(|f| {
                let mut attrs = f.attrs.clone();
                attrs.sort_by_key(|a| format!("{a:?}"));
                (f.kind, port_bits(f.ports.rotated(rot)), attrs)
            })
            .collect();
        v.sort_by_key(|(k, p, _)| (*k as u8, *p));
        v
    };
    turned(a) == turned(b)
}

fn port_bits(ports: crate::rules::PortSet) -> u16 {
    ports.iter().map(|p| 1u16 << p.index()).sum()
}

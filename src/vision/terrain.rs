//! Per-pixel terrain: which kind of landscape each pixel of a tile shows, from a colour model
//! that the start tile can calibrate for this edition and this light ([`ColourModel`]), pooled
//! into a coarse grid, and the grid each catalogue tile shows.

use opencv::core::Mat;
use opencv::prelude::*;

use super::colours::ColourModel;
use super::rectify::INSET;
use crate::geometry::{LabelMap, TileShape};
use crate::rules::{catalogue, FeatureKind, Rotation};
use crate::sim::effects::{grow_mask, mask_where, shrink_mask};

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

/// The label of the catalogue-orientation tile at board-frame point `u` of a tile lying with `rot`.
pub fn label_at(labels: &LabelMap, u: [f32; 2], rot: Rotation) -> u8 {
    let canonical = crate::geometry::rotate(
        [u[0].clamp(0.0, 0.999), u[1].clamp(0.0, 0.999)],
        rot.inverse(),
    );
    labels.at(canonical)
}

/// Running sums of each terrain (and, as terrain 5, of every pixel) over per-pixel `classes`
/// (`None`: not seen), row by row from the top left.
fn running_sums(classes: &[Option<usize>], w: usize, h: usize) -> Vec<[u32; 6]> {
    let stride = w + 1;
    let mut sums = vec![[0u32; 6]; stride * (h + 1)];
    for y in 0..h {
        let mut row = [0u32; 6];
        for x in 0..w {
            row[5] += 1;
            if let Some(c) = classes[y * w + x] {
                row[c] += 1;
            }
            let above = sums[y * stride + x + 1];
            sums[(y + 1) * stride + x + 1] = std::array::from_fn(|k| above[k] + row[k]);
        }
    }
    sums
}

/// Road-classed pixels near figures (`near`, nonzero) in lines thinner than three pixels, left
/// out: a figure's blurred rim blends its colour with the print's into something road-like,
/// while a road is wider.
fn without_thin_road(
    mut classes: Vec<Option<usize>>,
    near: &[u8],
    w: usize,
    h: usize,
) -> opencv::Result<Vec<Option<usize>>> {
    let road = Terrain::Road.index();
    let mask = mask_where(w, h, classes.iter().map(|c| *c == Some(road)))?;
    let opened = grow_mask(&shrink_mask(&mask, 1)?, 1)?;
    for ((c, &o), &n) in classes.iter_mut().zip(opened.data_bytes()?).zip(near) {
        if *c == Some(road) && o == 0 && n != 0 {
            *c = None;
        }
    }
    Ok(classes)
}

/// How far (patch pixels) beyond a figure's mask its blurred rim may reach.
const RIM_REACH: i32 = 3;

/// How far (patch pixels) from a figure its shadow may fall.
const SHADOW_REACH: i32 = 10;

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
    /// `sums[(y * (w + 1)) + x][k]`: pixels of terrain `k` above and left of (x, y); `k = 5`
    /// counts all pixels.
    sums: Vec<[u32; 6]>,
}

impl ClassMap {
    /// Classifies every pixel of `patch`, leaving out those under `ignore` (255) and, near
    /// them, those in shade ([`ColourModel::is_dim`]: a figure's shadow is no print) and
    /// road-like lines too thin for a road (a figure's blurred rim).
    pub fn new(patch: &Mat, model: &ColourModel, ignore: Option<&Mat>) -> opencv::Result<ClassMap> {
        let patch = patch.try_clone()?;
        let (w, h) = (patch.cols().max(0) as usize, patch.rows().max(0) as usize);
        let bytes = patch.data_bytes()?;
        let masks = match ignore {
            Some(m) => Some((m.try_clone()?, grow_mask(m, SHADOW_REACH)?)),
            None => None,
        };
        let masks = match &masks {
            Some((m, near)) => Some((m.data_bytes()?, near.data_bytes()?)),
            None => None,
        };
        let classes: Vec<Option<usize>> = (0..w * h)
            .map(|k| {
                let bgr = [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
                let hidden =
                    masks.is_some_and(|(m, near)| m[k] != 0 || (near[k] != 0 && model.is_dim(bgr)));
                (!hidden).then(|| model.classify(bgr).index())
            })
            .collect();
        let classes = match ignore {
            Some(m) => without_thin_road(classes, grow_mask(m, RIM_REACH)?.data_bytes()?, w, h)?,
            None => classes,
        };
        let sums = running_sums(&classes, w, h);
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

    /// Pixels of terrain `k` (of [`Terrain::ALL`]; 5 counts every pixel, seen or not) in the
    /// rectangle from (x0, y0) up to (x1, y1), clipped to the map.
    pub fn count(&self, k: usize, x0: usize, y0: usize, x1: usize, y1: usize) -> u32 {
        self.counts(x0, y0, x1, y1)[k]
    }

    /// [`Self::count`] of every terrain and of every pixel (the last) at once.
    pub fn counts(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> [u32; 6] {
        let (x1, y1) = (x1.min(self.w), y1.min(self.h));
        let (x0, y0) = (x0.min(x1), y0.min(y1));
        let st = self.w + 1;
        let (a, b) = (&self.sums[y0 * st..], &self.sums[y1 * st..]);
        let (nw, ne, sw, se) = (a[x0], a[x1], b[x0], b[x1]);
        std::array::from_fn(|k| se[k] + nw[k] - ne[k] - sw[k])
    }

    /// The terrain grid of the `side`-pixel square window at (x, y).
    pub fn grid(&self, x: usize, y: usize, side: usize) -> TerrainGrid {
        let mut grid = vec![[0.0f32; 5]; GRID * GRID];
        if side == 0 || x + side > self.w || y + side > self.h {
            return grid;
        }
        let st = self.w + 1;
        let at = |g: usize, from: usize| from + g * side / GRID;
        for (gy, row) in grid.chunks_exact_mut(GRID).enumerate() {
            let (a, b) = (
                &self.sums[at(gy, y) * st..],
                &self.sums[at(gy + 1, y) * st..],
            );
            for (gx, cell) in row.iter_mut().enumerate() {
                let (x0, x1) = (at(gx, x), at(gx + 1, x));
                let (nw, ne, sw, se) = (a[x0], a[x1], b[x0], b[x1]);
                let n: [u32; 6] = std::array::from_fn(|k| se[k] + nw[k] - ne[k] - sw[k]);
                let all = n[5].max(1) as f32;
                *cell = std::array::from_fn(|k| n[k] as f32 / all);
            }
        }
        grid
    }
}

/// Half the side (tile units) of the square at a junction's centre read as partly building:
/// editions print anything from a small house to a village of houses there. `eval vision --art`
/// (2nd-edition art, seeds 4000 and 2200 looked at): with 0.09, the painted house's size, most
/// W (three roads) with a village read as A (a cloister with one road), 9 at seed 4000.
const JUNCTION_HALF: f32 = 0.13;

/// What a point of a tile (board frame, tile units) shows, as terrain shares: the feature's
/// terrain, with the cloister's and junction's buildings partly walls, and shields on pennants.
pub(super) fn expected_at(tile: crate::rules::TileId, rot: Rotation, u: [f32; 2]) -> [f32; 5] {
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
    if shape.junction && centre < JUNCTION_HALF {
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

/// The terrain grid a tile type shows when lying with `rot`, from its geometry, over the part of
/// the tile a patch shows (all but [`INSET`] on every side).
pub fn expected_grid(tile: crate::rules::TileId, rot: Rotation) -> TerrainGrid {
    let sub = 4;
    let n = (GRID * sub) as f32;
    let scale = 1.0 - 2.0 * INSET as f32;
    let mut grid = vec![[0.0f32; 5]; GRID * GRID];
    for gy in 0..GRID {
        for gx in 0..GRID {
            let cell = &mut grid[gy * GRID + gx];
            for sy in 0..sub {
                for sx in 0..sub {
                    let at = |k: usize| INSET as f32 + (k as f32 + 0.5) / n * scale;
                    let u = [at(gx * sub + sx), at(gy * sub + sy)];
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

/// Whether two readings (tile, rotation) tell the same tile but for its shields: the same
/// edges and as many features, a different number of pennants.
pub fn differ_by_shields(
    a: (crate::rules::TileId, Rotation),
    b: (crate::rules::TileId, Rotation),
) -> bool {
    let cat = catalogue();
    let (ta, tb) = (cat.tile(a.0), cat.tile(b.0));
    crate::rules::Dir::ALL
        .iter()
        .all(|&d| ta.edge(d, a.1) == tb.edge(d, b.1))
        && ta.features.len() == tb.features.len()
        && ta.count(crate::rules::Attr::Pennant) != tb.count(crate::rules::Attr::Pennant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::colours::tests::{painted_start, GRASS, ROAD};
    use opencv::core::Vec3b;

    #[test]
    fn a_light_rim_round_a_figure_is_no_road_but_a_road_beside_it_is() {
        let mut model = ColourModel::default();
        model
            .calibrate(&painted_start(), "D", Rotation::R0)
            .unwrap();
        // Grass with a figure (a disc, masked) in the middle, a one-pixel ring of road colour
        // just outside its mask (a lit, blurred rim), and a road 6 pixels wide from the figure
        // to the east side.
        let (side, c, r) = (64, 32.0f32, 10.0f32);
        let mut patch =
            Mat::new_rows_cols_with_default(side, side, opencv::core::CV_8UC3, 0.into()).unwrap();
        let mut mask =
            Mat::new_rows_cols_with_default(side, side, opencv::core::CV_8UC1, 0.into()).unwrap();
        for y in 0..side {
            for x in 0..side {
                let d = (x as f32 - c).hypot(y as f32 - c);
                let on_road = x as f32 > c && (29..35).contains(&y);
                let colour = if on_road || (r..r + 1.0).contains(&d) {
                    ROAD
                } else {
                    GRASS
                };
                *patch.at_2d_mut::<Vec3b>(y, x).unwrap() = Vec3b::from(colour);
                *mask.at_2d_mut::<u8>(y, x).unwrap() = if d < r { 255 } else { 0 };
            }
        }
        let road = Terrain::Road.index();
        let seen = ClassMap::new(&patch, &model, Some(&mask)).unwrap();
        let n = side as usize;
        assert_eq!(seen.count(road, 0, 0, n, 28), 0, "the rim above the road");
        assert_eq!(seen.count(road, 0, 35, n, n), 0, "the rim below the road");
        assert_eq!(
            seen.count(road, 0, 0, 32, n),
            0,
            "the rim west of the figure"
        );
        // East of the rim the road is whole: 6 rows from x = 43 to the side.
        assert_eq!(seen.count(road, 43, 29, n, 35), 6 * (n as u32 - 43));
        // Unmasked, the same ring reads as road.
        let plain = ClassMap::new(&patch, &model, None).unwrap();
        assert!(plain.count(road, 0, 0, 32, n) > 20);
    }
}

//! The colour model: which terrain each colour shows in this edition's print under this
//! light, as colour clusters learned from the start tile (whose layout is known), with what
//! each terrain of the catalogue reads as.

use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

use super::edges::{edge_kinds, EdgeEvidence, ROAD_FULL};
use super::palette::{distance2, k_means, Cluster};
use super::pennant::{faint_blue_print, ShieldMap};
use super::rectify::INSET;
use super::terrain::{expected_at, label_at, ClassMap, Terrain};
use crate::geometry::TileShape;
use crate::rules::{catalogue, EdgeKind, FeatureKind, Rotation, TileType};

/// The colours of each terrain, as clusters (a terrain may have several: a city's roofs, walls
/// and towers), with a lookup table from colour to terrain, and what the start tile showed of
/// this edition's print.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourModel {
    means: [[f32; 3]; 5],
    clusters: Vec<(Terrain, Cluster)>,
    lut: Vec<u8>,
    /// The smallest blue patch (pixels of a patch) that may be a pennant's shield.
    shield_blob: u32,
    /// The blue of the edition's roofs, where the start tile's city shows blue print.
    roof_blue: Option<[f32; 3]>,
    /// `mix[t][k]`: share of a catalogue terrain `t` that reads as terrain `k`.
    mix: [[f32; 5]; 5],
    /// Road share of a slice across a tile's side where a road fully shows.
    road_full: f32,
}

/// Each terrain reads as itself.
const IDENTITY: [[f32; 5]; 5] = [
    [1.0, 0.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 0.0, 1.0],
];

/// Colours typical of printed tiles: green fields, pale roads, brown–ochre cities, red roofs,
/// blue shields.
const DEFAULT_MEANS: [[f32; 3]; 5] = [
    [70.0, 155.0, 115.0],
    [200.0, 212.0, 218.0],
    [78.0, 125.0, 175.0],
    [60.0, 70.0, 170.0],
    [165.0, 85.0, 35.0],
];
/// Spread of each default colour.
const DEFAULT_SPREAD: [f32; 5] = [45.0, 45.0, 45.0, 60.0, 50.0];

impl Default for ColourModel {
    fn default() -> ColourModel {
        ColourModel::with_means(DEFAULT_MEANS)
    }
}

/// The darkest any channel of a road printed about white shows.
const WHITE_ROAD: f32 = 120.0;
/// The most a colour cast of the light changes one channel against the others.
const MOST_CAST: f32 = 1.25;

/// Bits per channel of the colour lookup table.
const LUT_BITS: u32 = 5;
/// Flag of a lookup-table entry much darker than its cluster ([`ColourModel::is_dim`]).
const DIM: u8 = 0x80;
/// A colour at most this share of its cluster's brightness is dim: a figure's shadow darkens
/// the print to about half.
const SHADE: f32 = 0.7;

/// Sum of the channels.
fn brightness(p: [f32; 3]) -> f32 {
    p[0] + p[1] + p[2]
}

fn lut_index(bgr: [u8; 3]) -> usize {
    let q = |v: u8| usize::from(v >> (8 - LUT_BITS));
    (q(bgr[0]) << (2 * LUT_BITS)) | (q(bgr[1]) << LUT_BITS) | q(bgr[2])
}

impl ColourModel {
    /// A model of one cluster per terrain with these colours (blue, green, red per terrain, in
    /// [`Terrain::ALL`] order) and the default spreads.
    pub fn with_means(means: [[f32; 3]; 5]) -> ColourModel {
        let clusters = Terrain::ALL
            .iter()
            .map(|&t| {
                let cluster = Cluster {
                    mean: means[t.index()],
                    spread: DEFAULT_SPREAD[t.index()],
                    weight: 1.0,
                };
                (t, cluster)
            })
            .collect();
        ColourModel::from_clusters(clusters)
    }

    /// A model of these clusters (each spread is the distance at which its pixels fade out).
    pub fn from_clusters(clusters: Vec<(Terrain, Cluster)>) -> ColourModel {
        let mut means = DEFAULT_MEANS;
        for t in Terrain::ALL {
            if let Some((_, c)) = clusters
                .iter()
                .filter(|(k, _)| *k == t)
                .max_by(|a, b| a.1.weight.total_cmp(&b.1.weight))
            {
                means[t.index()] = c.mean;
            }
        }
        let step = 1usize << (8 - LUT_BITS);
        let lut = (0..1usize << (3 * LUT_BITS))
            .map(|i| {
                let level =
                    |shift: u32| (((i >> shift) & ((1 << LUT_BITS) - 1)) * step + step / 2) as f32;
                let p = [level(2 * LUT_BITS), level(LUT_BITS), level(0)];
                clusters
                    .iter()
                    .map(|(t, c)| (cost(c, p), *t, c))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map_or(0, |(_, t, c)| {
                        let dim = brightness(p) < SHADE * brightness(c.mean);
                        t as u8 | if dim { DIM } else { 0 }
                    })
            })
            .collect();
        ColourModel {
            means,
            clusters,
            lut,
            shield_blob: 1,
            roof_blue: None,
            mix: IDENTITY,
            road_full: ROAD_FULL,
        }
    }

    /// The road share of a slice across a tile's side (see [`EdgeEvidence`]) where a road
    /// crosses it in full view: as much as the start tile's roads showed, less a margin.
    pub fn road_full(&self) -> f32 {
        self.road_full
    }

    /// This model with [`ColourModel::road_full`] set.
    pub fn with_road_full(mut self, share: f32) -> ColourModel {
        self.road_full = share;
        self
    }

    /// `mix[t][k]`: the share of catalogue terrain `t` (where the geometry puts it) that reads
    /// as terrain `k`, as the start tile showed it (printed roads are thinner and wavier than the
    /// catalogue's, cities have walls); each terrain reads as itself until calibrated. A
    /// building, which no start tile shows, reads wholly as any of three terrains once
    /// calibrated (its row sums to up to three): its typical colour's, the city's (roofs) and
    /// the road's (walls).
    pub fn mix(&self) -> &[[f32; 5]; 5] {
        &self.mix
    }

    /// The smallest blue patch (pixels of a patch) that may be a pennant's shield: 1 unless the
    /// start tile, which has no pennant, showed blue print in its city (roofs, towers); then
    /// clearly bigger than any such patch there.
    pub fn shield_blob(&self) -> u32 {
        self.shield_blob
    }

    /// The blue of this edition's roofs (balanced by [`ColourModel::light_balance`]), if the
    /// start tile's city showed blue print: blue patches of about that colour are no shields.
    pub fn roof_blue(&self) -> Option<[f32; 3]> {
        self.roof_blue
    }

    /// This model with [`ColourModel::roof_blue`] set.
    pub fn with_roof_blue(mut self, roof: Option<[f32; 3]>) -> ColourModel {
        self.roof_blue = roof;
        self
    }

    /// This model with [`ColourModel::mix`] set.
    pub fn with_mix(mut self, mix: [[f32; 5]; 5]) -> ColourModel {
        self.mix = mix;
        self
    }

    /// This model with [`ColourModel::shield_blob`] set.
    pub fn with_shield_blob(mut self, pixels: u32) -> ColourModel {
        self.shield_blob = pixels.max(1);
        self
    }

    /// Gains (blue, green, red) that turn this model's road colour grey: the light's cast,
    /// if roads are printed about white (light and little coloured); each within
    /// [`MOST_CAST`], and none where the road is not that light.
    pub fn light_balance(&self) -> [f32; 3] {
        let road = self.means[Terrain::Road.index()];
        let mean = (road[0] + road[1] + road[2]) / 3.0;
        if road.iter().any(|&c| c < WHITE_ROAD) {
            return [1.0; 3];
        }
        road.map(|c| (mean / c).clamp(1.0 / MOST_CAST, MOST_CAST))
    }

    /// The most likely terrain of a pixel (its likeliest cluster).
    pub fn classify(&self, bgr: [u8; 3]) -> Terrain {
        Terrain::ALL[usize::from(self.lut[lut_index(bgr)] & !DIM)]
    }

    /// Whether a pixel is much darker than its likeliest cluster: that print in shade (a
    /// figure's shadow) rather than in the table's light.
    pub fn is_dim(&self, bgr: [u8; 3]) -> bool {
        self.lut[lut_index(bgr)] & DIM != 0
    }

    /// The main colour (blue, green, red) of each terrain, in [`Terrain::ALL`] order.
    pub fn means(&self) -> &[[f32; 3]; 5] {
        &self.means
    }

    /// Every colour cluster with its terrain.
    pub fn clusters(&self) -> &[(Terrain, Cluster)] {
        &self.clusters
    }

    /// The index (in [`ColourModel::clusters`]) of a colour's likeliest cluster.
    pub fn likeliest_cluster(&self, p: [f32; 3]) -> Option<usize> {
        self.clusters
            .iter()
            .map(|(_, c)| cost(c, p))
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// This model with `learned` (colours of city print the start tile did not show, spreads as
    /// measured) added as city colours, their spreads widened as [`ColourModel::calibrate`]
    /// widens its own, and what each terrain reads as ([`ColourModel::mix`]) learned again from
    /// `start`, a patch of the start tile (D, unturned) cut as for [`ColourModel::calibrate`].
    pub fn with_city_colours(
        &self,
        learned: &[Cluster],
        start: &Mat,
    ) -> opencv::Result<ColourModel> {
        let mut clusters = self.clusters.clone();
        clusters.extend(learned.iter().map(|&c| (Terrain::City, widened(c))));
        let model = ColourModel::from_clusters(clusters)
            .with_shield_blob(self.shield_blob)
            .with_roof_blue(self.roof_blue)
            .with_road_full(self.road_full);
        let d = catalogue().tile_id("D").expect("the start tile type");
        let mix = read_as(start, &model, d, Rotation::R0)?;
        Ok(model.with_mix(mix))
    }

    /// Whether some cluster lies within squared colour distance `bound2` of a pixel: whether
    /// [`Self::nearest_distance2`] is `bound2` or less, looked for cluster by cluster.
    pub fn has_cluster_within2(&self, bgr: [u8; 3], bound2: f32) -> bool {
        self.clusters.iter().any(|(_, c)| {
            (0..3)
                .map(|k| (f32::from(bgr[k]) - c.mean[k]).powi(2))
                .sum::<f32>()
                <= bound2
        })
    }

    /// Squared colour distance from a pixel to the nearest cluster.
    pub fn nearest_distance2(&self, bgr: [u8; 3]) -> f32 {
        self.clusters
            .iter()
            .map(|(_, c)| {
                (0..3)
                    .map(|k| (f32::from(bgr[k]) - c.mean[k]).powi(2))
                    .sum::<f32>()
            })
            .fold(f32::MAX, f32::min)
    }

    /// Learns the colours from a rectified patch (cut with [`INSET`]) of a tile whose type and
    /// rotation are known (the start tile): the tile's geometry labels the pixels. Fields are
    /// learned from their inner parts, cities from theirs less what looks like field (and a
    /// minor colour of them like the road's), roads
    /// from a band around their centre lines less what looks like field (printed roads are
    /// thinner and wavier than the catalogue's). Terrains the tile does not show keep their
    /// colours unless a learned colour claims them. Then, under the new colours: what each
    /// catalogue terrain of the tile reads as ([`ColourModel::mix`]), how much of its sides its
    /// roads cover ([`ColourModel::road_full`]) and its largest blue patch
    /// ([`ColourModel::shield_blob`]).
    pub fn calibrate(&mut self, patch: &Mat, tile_name: &str, rot: Rotation) -> opencv::Result<()> {
        let cat = catalogue();
        let Some(id) = cat.tile_id(tile_name) else {
            return Ok(());
        };
        let shape = TileShape::of(id);
        let ty = cat.tile(id);
        let kind_at = |u: [f32; 2]| kind_at(shape, ty, rot, u);
        let (w, h) = (patch.cols(), patch.rows());
        let (mut field, mut city, mut band) = (Vec::new(), Vec::new(), Vec::new());
        for y in 0..h {
            for x in 0..w {
                let u = tile_point(x, y, w, h);
                let v = patch.at_2d::<Vec3b>(y, x)?;
                let p = [f32::from(v[0]), f32::from(v[1]), f32::from(v[2])];
                let here = kind_at(u);
                let inner = inner_kind(shape, ty, rot, u);
                match inner {
                    Some(FeatureKind::Field) => field.push(p),
                    Some(FeatureKind::City) => city.push(p),
                    _ => {}
                }
                let near_road = here == Some(FeatureKind::Road)
                    || [ROAD_BAND / 2.0, ROAD_BAND].iter().any(|&r| {
                        around(u, r)
                            .iter()
                            .any(|&v| kind_at(v) == Some(FeatureKind::Road))
                    });
                if near_road && inner != Some(FeatureKind::City) {
                    band.push(p);
                }
            }
        }
        let mut learned: Vec<(Terrain, Cluster)> = Vec::new();
        // A minor grass colour that explains much of the city is the city's own (a cut a
        // little off the tile, or farmhouses roofed like it): learned as grass, it would read
        // every tile all city as field (2nd-edition art, 4848 game 15: C read as a cloister).
        let found = k_means(&field, 4, 0.12);
        let main_weight = found.iter().map(|c| c.weight).fold(0.0, f32::max);
        let fields: Vec<Cluster> = found
            .into_iter()
            .filter(|c| {
                let claimed = city
                    .iter()
                    .filter(|&&p| explains(std::slice::from_ref(c), p))
                    .count();
                c.weight >= main_weight || (claimed as f32) < CITY_CLAIMED * city.len() as f32
            })
            .collect();
        let unlike_field = |px: Vec<[f32; 3]>| -> Vec<[f32; 3]> {
            px.into_iter().filter(|p| !explains(&fields, *p)).collect()
        };
        // Up to four colours of grass and of city; houses in a field are too few to count. A
        // road is one or two colours, most of what is left in its band.
        let roads = k_means(&unlike_field(band), 2, 0.3);
        // A minor city colour as pale as the road's main colour (a drawing on the city, or a
        // cut a little off the tile) would claim the roads of every tile read later; a city
        // printed that pale all over keeps its colour. Only the main road colour counts: the
        // band's other colour is often the road's edge blended with grass, broad enough to
        // explain the city's own browns and roofs (real art's pale walls are city too).
        let main_road = roads.iter().max_by(|a, b| a.weight.total_cmp(&b.weight));
        let cities: Vec<Cluster> = k_means(&unlike_field(city), 4, 0.1)
            .into_iter()
            .filter(|c| {
                c.weight >= MINOR_CITY_COLOUR
                    || !main_road.is_some_and(|r| explains(std::slice::from_ref(r), c.mean))
            })
            .collect();
        for (t, found) in [
            (Terrain::Field, fields),
            (Terrain::City, cities),
            (Terrain::Road, roads),
        ] {
            learned.extend(found.into_iter().map(|c| (t, widened(c))));
        }
        // What the tile did not show keeps its colours, unless a learned colour lies there.
        let mut clusters: Vec<(Terrain, Cluster)> = self
            .clusters
            .iter()
            .filter(|(t, c)| {
                !learned.iter().any(|(k, _)| k == t)
                    && !learned
                        .iter()
                        .any(|(_, l)| distance2(l.mean, c.mean) < (CLAIM * l.spread).powi(2))
            })
            .copied()
            .collect();
        clusters.extend(learned);
        let model = ColourModel::from_clusters(clusters);
        let (blue, roof) = if ty.count(crate::rules::Attr::Pennant) == 0 {
            // Only the city's own print: a figure on the tile is no roof.
            let in_city = |x: usize, y: usize| {
                let u = tile_point(x as i32, y as i32, w, h);
                kind_at(u) == Some(FeatureKind::City)
            };
            let shields = ShieldMap::new(patch, None, model.light_balance())?;
            let clear = (
                shields.largest_blob_where(in_city),
                shields.mean_blue_where(in_city),
            );
            if clear.0 >= MIN_ROOF_PX {
                clear
            } else {
                // A small or blurred start tile greys its roofs' blue: fainter blue tells then.
                let faint = faint_blue_print(patch, model.light_balance(), in_city)?;
                if faint.0 >= MIN_ROOF_PX {
                    faint
                } else {
                    clear
                }
            }
        } else {
            (0, None)
        };
        let model = model
            .with_shield_blob(SHIELD_OVER_START * blue + 1)
            .with_roof_blue(roof.filter(|_| blue >= MIN_ROOF_PX));
        let mix = read_as(patch, &model, id, rot)?;
        let road_full = road_full(patch, &model, id, rot)?;
        *self = model.with_mix(mix).with_road_full(road_full);
        Ok(())
    }
}

/// The tile point (tile sides, board frame) at the middle of pixel (x, y) of a `w` × `h` patch
/// that shows the tile but for [`INSET`] on every side.
fn tile_point(x: i32, y: i32, w: i32, h: i32) -> [f32; 2] {
    let scale = 1.0 - 2.0 * INSET as f32;
    [
        INSET as f32 + (x as f32 + 0.5) / w as f32 * scale,
        INSET as f32 + (y as f32 + 0.5) / h as f32 * scale,
    ]
}

/// A learned cluster with its spread widened for classifying other tiles in other light.
fn widened(c: Cluster) -> Cluster {
    let spread = (c.spread * SPREAD_GAIN).max(MIN_SPREAD);
    Cluster { spread, ..c }
}

/// The kind of the feature of `ty` (shaped `shape`, turned `rot`) at tile point `u`.
fn kind_at(shape: &TileShape, ty: &TileType, rot: Rotation, u: [f32; 2]) -> Option<FeatureKind> {
    ty.features
        .get(usize::from(label_at(&shape.labels, u, rot)))
        .map(|f| f.kind)
}

/// The four points `r` (tile sides) west, east, north and south of `u`.
fn around(u: [f32; 2], r: f32) -> [[f32; 2]; 4] {
    [[-r, 0.0], [r, 0.0], [0.0, -r], [0.0, r]].map(|d| [u[0] + d[0], u[1] + d[1]])
}

/// The kind of the feature at tile point `u` where it lies inside it (the points [`CORE`] around
/// it share its feature's kind): where a tile's print shows that kind's own colours.
pub fn inner_kind(
    shape: &TileShape,
    ty: &TileType,
    rot: Rotation,
    u: [f32; 2],
) -> Option<FeatureKind> {
    let here = kind_at(shape, ty, rot, u)?;
    around(u, CORE)
        .iter()
        .all(|&v| kind_at(shape, ty, rot, v) == Some(here))
        .then_some(here)
}

/// What each catalogue terrain of a known tile reads as under `model`: rows of the terrains it
/// shows over enough pixels; the others read as their typical colour does.
fn read_as(
    patch: &Mat,
    model: &ColourModel,
    tile: crate::rules::TileId,
    rot: Rotation,
) -> opencv::Result<[[f32; 5]; 5]> {
    let (w, h) = (patch.cols(), patch.rows());
    let mut counts = [[0.0f32; 5]; 5];
    for y in 0..h {
        for x in 0..w {
            let u = tile_point(x, y, w, h);
            let v = patch.at_2d::<Vec3b>(y, x)?;
            let seen = model.classify([v[0], v[1], v[2]]).index();
            for (row, share) in counts.iter_mut().zip(expected_at(tile, rot, u)) {
                row[seen] += share;
            }
        }
    }
    let mut mix = IDENTITY;
    for (t, (row, n)) in mix.iter_mut().zip(&counts).enumerate() {
        let total: f32 = n.iter().sum();
        if total >= MIN_MIX_PX {
            *row = n.map(|c| c / total);
        } else {
            // Not on the tile: it reads as its typical colour does; a building as well as a
            // city's colour and a road's (editions roof houses and churches as they roof their
            // cities, and build their walls as light as their roads).
            let typical = DEFAULT_MEANS[t].map(|c| c as u8);
            *row = IDENTITY[model.classify(typical).index()];
            if t == Terrain::Building.index() {
                row[Terrain::City.index()] = 1.0;
                row[Terrain::Road.index()] = 1.0;
            }
        }
    }
    Ok(mix)
}

/// How much of a slice across a side the roads of a known tile cover under `model`, less a
/// margin for other tiles and light ([`ROAD_FULL`] for a tile without roads), within
/// [`ROAD_FULL_RANGE`].
fn road_full(
    patch: &Mat,
    model: &ColourModel,
    tile: crate::rules::TileId,
    rot: Rotation,
) -> opencv::Result<f32> {
    let map = ClassMap::new(patch, model, None)?;
    let seen = EdgeEvidence::observe(&map, 0, 0, map.width().min(map.height())).road_shares();
    let shares: Vec<f32> = edge_kinds(tile, rot)
        .iter()
        .zip(seen)
        .filter(|(k, _)| **k == EdgeKind::Road)
        .map(|(_, s)| s)
        .collect();
    if shares.is_empty() {
        return Ok(ROAD_FULL);
    }
    let mean = shares.iter().sum::<f32>() / shares.len() as f32;
    Ok((ROAD_FULL_MARGIN * mean).clamp(ROAD_FULL_RANGE.0, ROAD_FULL_RANGE.1))
}

/// Share of the start tile's road cover that counts as a road fully seen elsewhere.
const ROAD_FULL_MARGIN: f32 = 0.8;
/// Bounds of [`ColourModel::road_full`].
const ROAD_FULL_RANGE: (f32, f32) = (0.15, ROAD_FULL);

/// Pixels of a terrain the start tile must show for its mix to be learned.
const MIN_MIX_PX: f32 = 40.0;

/// How unlikely a colour is under a cluster: its negative log-likelihood as a round Gaussian of
/// the cluster's spread in three channels, so that a broad cluster does not outreach a tight one.
fn cost(c: &Cluster, p: [f32; 3]) -> f32 {
    distance2(c.mean, p) / (2.0 * c.spread.powi(2)) + 3.0 * c.spread.ln()
}

/// Whether a pixel looks like one of `clusters`.
fn explains(clusters: &[Cluster], p: [f32; 3]) -> bool {
    clusters
        .iter()
        .any(|c| distance2(c.mean, p) < (EXPLAIN * c.spread.max(MIN_SPREAD)).powi(2))
}

/// Distance (tile sides) a pixel's neighbours must share its label for it to count as inside a
/// field or city.
const CORE: f32 = 0.06;
/// Half-width (tile sides) of the band around a road's centre line where its print is looked for.
const ROAD_BAND: f32 = 0.1;
/// Spreads within which a cluster explains a pixel.
const EXPLAIN: f32 = 2.0;
/// Spreads within which a learned colour claims a colour the tile did not show.
const CLAIM: f32 = 2.5;
/// The share of the start tile's city pixels below which a colour of them that looks like the
/// road's is not learned as city.
const MINOR_CITY_COLOUR: f32 = 0.35;
/// The share of the start tile's city pixels a minor grass colour may explain and still be
/// learned as grass.
const CITY_CLAIMED: f32 = 0.5;
/// Learned spreads are widened by this much for classifying (other tiles, other light).
const SPREAD_GAIN: f32 = 1.5;
/// The least pixels of the start tile's largest blue patch for its city's blue to count as
/// the edition's roofs (fewer are specks).
const MIN_ROOF_PX: u32 = 4;
/// How many times the largest blue patch of the start tile a shield must be. The 2nd edition's
/// keep (R) tops its white tower with a cone of a lighter blue than the roofs, some 2.5 times the
/// start tile's largest roof; its shields show 6 to 8 times that.
const SHIELD_OVER_START: u32 = 3;
/// The narrowest spread a learned cluster gets.
const MIN_SPREAD: f32 = 12.0;

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::vision) const GRASS: [u8; 3] = [60, 150, 80];
    pub(in crate::vision) const ROAD: [u8; 3] = [200, 205, 205];
    pub(in crate::vision) const CITY: [u8; 3] = [60, 120, 180];
    /// A pale drawing inside the city, of nearly the road's colour.
    pub(in crate::vision) const WALL: [u8; 3] = [186, 198, 203];

    /// The start tile (D, north up) as a patch cut like the tracker's, each pixel painted by
    /// `paint` from the feature kind under it, where it lies (tile sides) and whether a road
    /// passes within a twentieth of a tile.
    fn painted(paint: impl Fn(Option<FeatureKind>, [f32; 2], bool) -> [u8; 3]) -> Mat {
        let cat = catalogue();
        let id = cat.tile_id("D").unwrap();
        let shape = TileShape::of(id);
        let kind_at = |u: [f32; 2]| {
            let label = usize::from(label_at(&shape.labels, u, Rotation::R0));
            cat.tile(id).features.get(label).map(|f| f.kind)
        };
        let side = 96;
        let mut patch =
            Mat::new_rows_cols_with_default(side, side, opencv::core::CV_8UC3, 0.into()).unwrap();
        for y in 0..side {
            for x in 0..side {
                let u = tile_point(x, y, side, side);
                let near_road = [[0.0, -0.05], [0.0, 0.05]]
                    .iter()
                    .any(|d| kind_at([u[0] + d[0], u[1] + d[1]]) == Some(FeatureKind::Road));
                let colour = paint(kind_at(u), u, near_road);
                *patch.at_2d_mut::<Vec3b>(y, x).unwrap() = Vec3b::from(colour);
            }
        }
        patch
    }

    /// The start tile painted flat, with a pale stripe across the middle of its city.
    pub(in crate::vision) fn painted_start() -> Mat {
        painted(|kind, u, _| match kind {
            Some(FeatureKind::Road) => ROAD,
            Some(FeatureKind::City) if (0.08..0.13).contains(&u[1]) => WALL,
            Some(FeatureKind::City) => CITY,
            _ => GRASS,
        })
    }

    #[test]
    fn a_grass_colour_that_is_the_citys_own_does_not_make_cities_field() {
        // The field between the city and the road shows the city's colour (a cut a little off
        // the tile, or farmhouses roofed like the city): still, the city is city.
        let start = painted(|kind, u, _| match kind {
            Some(FeatureKind::Road) => ROAD,
            Some(FeatureKind::City) => CITY,
            _ if u[1] < 0.42 => CITY,
            _ => GRASS,
        });
        let mut model = ColourModel::default();
        model.calibrate(&start, "D", Rotation::R0).unwrap();
        assert_eq!(model.classify(CITY), Terrain::City);
        assert_eq!(model.classify(GRASS), Terrain::Field);
        assert_eq!(model.classify(ROAD), Terrain::Road);
    }

    #[test]
    fn a_pale_drawing_in_the_start_tiles_city_does_not_take_the_roads() {
        let mut model = ColourModel::default();
        model
            .calibrate(&painted_start(), "D", Rotation::R0)
            .unwrap();
        assert_eq!(model.classify(CITY), Terrain::City);
        assert_eq!(model.classify(GRASS), Terrain::Field);
        assert_eq!(model.classify(ROAD), Terrain::Road);
        // Another tile's road, printed a shade darker.
        assert_eq!(model.classify([190, 200, 204]), Terrain::Road);
    }

    #[test]
    fn a_city_of_several_colours_stays_city_beside_a_road_blended_into_its_grass() {
        // Colours measured on a published edition's start tile under the simulated camera: a
        // pale road whose edges blend into the grass (the road band's second colour, a broad
        // one), and a city of brown roofs, red roofs, blue roofs and pale stone walls, none of
        // them a third of it.
        const ROAD: [u8; 3] = [216, 240, 227];
        const GRASS: [u8; 3] = [40, 140, 70];
        const CITY: [[u8; 3]; 4] = [
            [89, 122, 168],
            [37, 56, 131],
            [121, 64, 74],
            [157, 207, 225],
        ];
        let blend = |t: f32| {
            [0, 1, 2].map(|k| (f32::from(ROAD[k]) * (1.0 - t) + f32::from(GRASS[k]) * t) as u8)
        };
        let start = painted(|kind, u, near_road| match kind {
            Some(FeatureKind::Road) => ROAD,
            Some(FeatureKind::City) => CITY[((u[0] * 24.0) as usize + (u[1] * 24.0) as usize) % 4],
            _ if near_road => blend(0.3 + 0.6 * (u[0] * 7.0).fract()),
            _ => GRASS,
        });
        let mut model = ColourModel::default();
        model.calibrate(&start, "D", Rotation::R0).unwrap();
        assert_eq!(model.classify(ROAD), Terrain::Road);
        for c in CITY {
            assert_eq!(model.classify(c), Terrain::City, "{c:?}");
        }
    }
}

//! Outlines of a tile's features, built from the ports the catalogue gives them.

use std::sync::OnceLock;

use super::label::{LabelMap, LABEL_RES};
use super::{port_point, rotate, Point};
use crate::rules::{catalogue, Attr, Dir, FeatureKind, Port, Rotation, TileId, TileType};

/// Width of a road in tile units.
pub const ROAD_WIDTH: f32 = 0.12;
/// Half the side of a cloister building.
const CLOISTER_HALF: f32 = 0.19;
const CENTRE: Point = [0.5, 0.5];

/// How a feature is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Outline {
    /// A filled polygon (cities, cloisters).
    Area(Vec<Point>),
    /// A strip along a centre line (roads).
    Strip {
        /// Points along the middle of the road.
        centreline: Vec<Point>,
        /// Width in tile units.
        width: f32,
    },
    /// Whatever the other features leave (fields): see the label map.
    Rest,
}

/// One feature's drawing and where a follower on it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureShape {
    /// The outline.
    pub outline: Outline,
    /// Where a follower on this feature stands (tile units).
    pub anchor: Point,
}

/// Everything drawable about one tile type, in catalogue orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct TileShape {
    /// One entry per feature of the tile type, in the same order.
    pub features: Vec<FeatureShape>,
    /// Which feature covers each cell.
    pub labels: LabelMap,
    /// Where pennant shields are printed.
    pub pennants: Vec<Point>,
    /// Whether roads meet at a junction house in the centre.
    pub junction: bool,
}

impl TileShape {
    /// The shape of a tile type of the built-in catalogue.
    pub fn of(tile: TileId) -> &'static TileShape {
        static SHAPES: OnceLock<Vec<TileShape>> = OnceLock::new();
        let shapes = SHAPES.get_or_init(|| {
            catalogue()
                .tiles()
                .iter()
                .map(|t| TileShape::build(t).expect("built-in tile shapes are checked by tests"))
                .collect()
        });
        &shapes[tile.index()]
    }

    /// Builds the shape of a tile type; an error if the drawing would not separate its fields
    /// the way the catalogue says.
    pub fn build(tile: &TileType) -> Result<TileShape, String> {
        let mut outlines: Vec<Outline> = tile
            .features
            .iter()
            .map(|f| match f.kind {
                FeatureKind::City => Outline::Area(city_polygon(dirs(f.ports.iter()))),
                FeatureKind::Road => Outline::Strip {
                    centreline: road_line(dirs(f.ports.iter())),
                    width: ROAD_WIDTH,
                },
                FeatureKind::Cloister => Outline::Area(square(CENTRE, CLOISTER_HALF)),
                FeatureKind::Field => Outline::Rest,
            })
            .collect();
        let mut labels = LabelMap::empty();
        // Cities first, roads over them (a road runs up to a city's gate), cloisters on top.
        for kind in [FeatureKind::City, FeatureKind::Road, FeatureKind::Cloister] {
            for (i, f) in tile.features.iter().enumerate() {
                if f.kind == kind {
                    labels.paint(i as u8, |p| covers(&outlines[i], p));
                }
            }
        }
        label_fields(tile, &mut labels)?;
        let mut anchors = Vec::new();
        for (i, f) in tile.features.iter().enumerate() {
            let anchor = match (&outlines[i], f.kind) {
                (_, FeatureKind::Cloister) => CENTRE,
                (Outline::Strip { centreline, .. }, _) => road_anchor(centreline),
                _ => labels
                    .deepest(i as u8)
                    .ok_or_else(|| format!("tile {}: feature {i} has no area", tile.name))?,
            };
            anchors.push(anchor);
        }
        let mut pennants = Vec::new();
        for (i, f) in tile.features.iter().enumerate() {
            for _ in 0..f.count(Attr::Pennant) {
                // The shield sits at the city's heart; the knight stands beside it.
                pennants.push(anchors[i]);
                anchors[i] = beside(&labels, i as u8, anchors[i]);
            }
        }
        let junction = tile
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Road && f.reaches_centre)
            .count()
            >= 3;
        let features = outlines
            .drain(..)
            .zip(anchors)
            .map(|(outline, anchor)| FeatureShape { outline, anchor })
            .collect();
        Ok(TileShape {
            features,
            labels,
            pennants,
            junction,
        })
    }
}

fn dirs(ports: impl Iterator<Item = Port>) -> Vec<Dir> {
    ports
        .filter_map(|p| p.is_edge_centre().then(|| p.side()).flatten())
        .collect()
}

/// Points along a quadratic Bézier curve, end points included.
fn bezier(a: Point, c: Point, b: Point, n: usize) -> Vec<Point> {
    (0..=n)
        .map(|k| {
            let t = k as f32 / n as f32;
            let u = 1.0 - t;
            [
                u * u * a[0] + 2.0 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2.0 * u * t * c[1] + t * t * b[1],
            ]
        })
        .collect()
}

fn square(c: Point, half: f32) -> Vec<Point> {
    vec![
        [c[0] - half, c[1] - half],
        [c[0] + half, c[1] - half],
        [c[0] + half, c[1] + half],
        [c[0] - half, c[1] + half],
    ]
}

fn turned(points: Vec<Point>, quarter_turns: usize) -> Vec<Point> {
    let rot = Rotation::from_quarter_turns(quarter_turns);
    points.into_iter().map(|p| rotate(p, rot)).collect()
}

/// A city covering the given sides, built from five patterns by rotation.
fn city_polygon(sides: Vec<Dir>) -> Vec<Point> {
    let has = |d: usize| sides.iter().any(|s| s.index() == d % 4);
    match sides.len() {
        1 => {
            // A cap on the north edge.
            let mut p = vec![[0.0, 0.0], [1.0, 0.0]];
            p.extend(bezier([1.0, 0.0], [0.5, 0.55], [0.0, 0.0], 16));
            turned(p, sides[0].index())
        }
        2 if has(sides[0].index() + 2) => {
            // A band from west to east.
            let mut p = bezier([0.0, 0.0], [0.5, 0.6], [1.0, 0.0], 16);
            p.extend(bezier([1.0, 1.0], [0.5, 0.4], [0.0, 1.0], 16));
            let r = if has(0) { 1 } else { 0 };
            turned(p, r)
        }
        2 => {
            // A corner holding the west and north edges.
            let first = (0..4).find(|&d| has(d) && has(d + 1)).unwrap_or(0);
            let mut p = vec![[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]];
            p.extend(bezier([1.0, 0.0], [0.45, 0.45], [0.0, 1.0], 16));
            turned(p, first + 1)
        }
        3 => {
            // Everything but a cap on the south edge.
            let missing = (0..4).find(|&d| !has(d)).unwrap_or(2);
            let mut p = vec![[0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0]];
            p.extend(bezier([1.0, 1.0], [0.5, 0.45], [0.0, 1.0], 16));
            turned(p, (missing + 2) % 4)
        }
        _ => square(CENTRE, 0.5),
    }
}

/// The middle line of a road: edge to edge through the centre's pull, or edge to centre.
fn road_line(sides: Vec<Dir>) -> Vec<Point> {
    let end = |d: Dir| port_point(d.port()).expect("edge centre");
    match sides.as_slice() {
        [a, b] => bezier(end(*a), CENTRE, end(*b), 16),
        [a] => bezier(
            end(*a),
            [(end(*a)[0] + 0.5) / 2.0, (end(*a)[1] + 0.5) / 2.0],
            CENTRE,
            8,
        ),
        _ => vec![CENTRE],
    }
}

/// A follower on a road stands a third of the way in from where the road leaves the tile
/// (for a road that ends in the centre) or at its middle.
fn road_anchor(line: &[Point]) -> Point {
    let ends_in_centre = line.last() == Some(&CENTRE);
    let k = if ends_in_centre {
        line.len() * 2 / 5
    } else {
        line.len() / 2
    };
    line[k.min(line.len() - 1)]
}

fn covers(outline: &Outline, p: Point) -> bool {
    match outline {
        Outline::Area(poly) => inside_polygon(poly, p),
        Outline::Strip { centreline, width } => distance_to_line(centreline, p) <= width / 2.0,
        Outline::Rest => false,
    }
}

/// Whether `p` lies inside the polygon (even–odd rule).
pub fn inside_polygon(poly: &[Point], p: Point) -> bool {
    let mut inside = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

fn distance_to_line(line: &[Point], p: Point) -> f32 {
    if line.len() == 1 {
        return ((p[0] - line[0][0]).powi(2) + (p[1] - line[0][1]).powi(2)).sqrt();
    }
    line.windows(2)
        .map(|w| {
            let (a, b) = (w[0], w[1]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (x, y) = (a[0] + t * dx, a[1] + t * dy);
            ((p[0] - x).powi(2) + (p[1] - y).powi(2)).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

/// Gives each field the unlabelled pockets its half-edges open onto; fails if one pocket
/// would belong to two fields (the drawing would merge fields the rules keep apart).
fn label_fields(tile: &TileType, labels: &mut LabelMap) -> Result<(), String> {
    let pockets = labels.pockets();
    let mut owner: Vec<Option<usize>> = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        if f.kind != FeatureKind::Field {
            continue;
        }
        for port in f.ports.iter() {
            let edge = port_point(port).expect("fields are named by half-edges");
            // Step half a cell inside the tile from the edge.
            let inward = [
                edge[0] + (0.5 - edge[0]) * 0.04,
                edge[1] + (0.5 - edge[1]) * 0.04,
            ];
            let (ci, cj) = LabelMap::cell_of(inward);
            let Some(pocket) = pockets[cj * LABEL_RES + ci] else {
                return Err(format!("tile {}: field port {port} is covered", tile.name));
            };
            if owner.len() <= pocket {
                owner.resize(pocket + 1, None);
            }
            match owner[pocket] {
                Some(other) if other != i => {
                    return Err(format!(
                        "tile {}: fields {other} and {i} are drawn as one",
                        tile.name
                    ))
                }
                _ => owner[pocket] = Some(i),
            }
        }
    }
    for j in 0..LABEL_RES {
        for i in 0..LABEL_RES {
            let owned = pockets[j * LABEL_RES + i].and_then(|p| owner.get(p).copied().flatten());
            if let Some(field) = owned {
                labels.set(i, j, field as u8);
            }
        }
    }
    Ok(())
}

/// A point of `label` near `p` but clear of it, for a second object on the same feature.
fn beside(labels: &LabelMap, label: u8, p: Point) -> Point {
    let candidates = [[0.16, 0.0], [-0.16, 0.0], [0.0, 0.16], [0.0, -0.16]];
    candidates
        .iter()
        .map(|d| [p[0] + d[0], p[1] + d[1]])
        .find(|&q| {
            (0.0..=1.0).contains(&q[0]) && (0.0..=1.0).contains(&q[1]) && labels.at(q) == label
        })
        .unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::NO_FEATURE;

    #[test]
    fn every_base_tile_is_drawn_with_the_catalogues_fields() {
        for tile in catalogue().tiles() {
            let shape = TileShape::build(tile).unwrap_or_else(|e| panic!("{e}"));
            for (i, f) in tile.features.iter().enumerate() {
                let at = shape.labels.at(shape.features[i].anchor);
                assert_eq!(
                    at, i as u8,
                    "tile {} feature {i} ({:?}) anchor",
                    tile.name, f.kind
                );
                assert!(shape.labels.area(i as u8) > 0);
            }
            let total = (LABEL_RES * LABEL_RES) as f32;
            assert!(
                (shape.labels.area(NO_FEATURE) as f32) < 0.02 * total,
                "tile {}",
                tile.name
            );
        }
    }

    #[test]
    fn ports_sit_on_their_features() {
        // Just inside each edge port, the label is the feature that owns that port.
        for tile in catalogue().tiles() {
            let shape = TileShape::build(tile).unwrap();
            for port in Port::all().take(12) {
                let Some(owner) = tile.feature_at(port) else {
                    continue;
                };
                let e = port_point(port).unwrap();
                let inward = [e[0] + (0.5 - e[0]) * 0.05, e[1] + (0.5 - e[1]) * 0.05];
                assert_eq!(
                    shape.labels.at(inward),
                    owner as u8,
                    "tile {} port {port}",
                    tile.name
                );
            }
        }
    }

    #[test]
    fn shapes_follow_the_pictures() {
        let shape = |n: &str| TileShape::of(catalogue().tile_id(n).unwrap());
        // A city cap: its knight stands near the north edge, fields fill the south.
        let e = shape("E");
        assert!(e.features[0].anchor[1] < 0.25);
        assert!(e.labels.area(1) > e.labels.area(0));
        // Junction houses on W, X and L, not on a cloister's road or a straight road.
        assert!(shape("W").junction && shape("X").junction && shape("L").junction);
        assert!(!shape("A").junction && !shape("U").junction && !shape("S").junction);
        // One shield per pennant, inside the city.
        for name in ["C", "F", "M", "O", "Q", "S"] {
            let s = shape(name);
            assert_eq!(s.pennants.len(), 1, "{name}");
            assert_eq!(s.labels.at(s.pennants[0]), 0, "{name}");
        }
    }
}

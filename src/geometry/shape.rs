//! Outlines of a tile's features and scenery, built from the ports the catalogue gives them.

use std::sync::OnceLock;

use super::label::{LabelMap, LABEL_RES, SCENERY};
use super::{port_point, rotate, Point};
use crate::rules::{catalogue, Attr, Dir, FeatureKind, Good, Port, Rotation, TileId, TileType};

/// Width of a road in tile units.
pub const ROAD_WIDTH: f32 = 0.12;
/// Width of the river in tile units.
pub const RIVER_WIDTH: f32 = 0.14;
/// Radius of the spring's or a lake's pond.
const LAKE_RADIUS: f32 = 0.16;
/// Width of a divider printed across a field.
const DIVIDER_WIDTH: f32 = 0.05;
/// Half the side of a cloister building.
const CLOISTER_HALF: f32 = 0.19;
const CENTRE: Point = [0.5, 0.5];
/// How far apart (tile units) two objects on one feature stand so that both show: a follower's
/// base is 16 mm across (a third of a 45 mm tile) and a shield a tenth of a tile, so a shield
/// beside the knight's spot lies clear of its base.
const CLEAR: f32 = 0.26;
/// How far apart two objects on one feature stand where no spot [`CLEAR`] from the others lies
/// [`INSIDE`] it.
const NEAR: f32 = 0.16;
/// How deep (label cells, a 64th of a tile) inside its feature an object beside the follower
/// lies at least: a shield reaches 0.07 of a tile from its middle.
const INSIDE: u32 = 6;

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

/// What a piece of scenery is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneryKind {
    /// A stretch of river.
    River,
    /// The pond of the spring or of a lake where the river ends.
    Lake,
    /// A short road to a city gate where no follower may stand.
    Stub,
    /// A line printed across a field that divides it.
    Divider,
}

/// Something drawn that is no feature: nothing stands on it, it only separates fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenery {
    /// What it is.
    pub kind: SceneryKind,
    /// Its outline.
    pub outline: Outline,
}

/// Everything drawable about one tile type, in catalogue orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct TileShape {
    /// One entry per feature of the tile type, in the same order.
    pub features: Vec<FeatureShape>,
    /// Which feature covers each cell ([`SCENERY`] under the scenery).
    pub labels: LabelMap,
    /// The river, its ponds, road stubs and field dividers, drawn beneath the features.
    pub scenery: Vec<Scenery>,
    /// Where pennant shields are printed.
    pub pennants: Vec<Point>,
    /// Where inns stand, by their lakes (Inns & Cathedrals).
    pub inns: Vec<Point>,
    /// Where cathedrals stand (Inns & Cathedrals).
    pub cathedrals: Vec<Point>,
    /// Where goods symbols are printed, and which (Traders & Builders).
    pub goods: Vec<(Point, Good)>,
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
                FeatureKind::City => {
                    let others = tile
                        .features
                        .iter()
                        .filter(|o| o.kind == FeatureKind::City && o.ports != f.ports)
                        .flat_map(|o| dirs(o.ports.iter()))
                        .collect();
                    Outline::Area(city_polygon(dirs(f.ports.iter()), others))
                }
                FeatureKind::Road => Outline::Strip {
                    centreline: road_line(dirs(f.ports.iter())),
                    width: ROAD_WIDTH,
                },
                FeatureKind::Cloister => Outline::Area(square(CENTRE, CLOISTER_HALF)),
                FeatureKind::Field => Outline::Rest,
            })
            .collect();
        end_roads_at_gates(tile, &mut outlines);
        let mut scenery = river(tile);
        scenery.extend(stubs(tile, &outlines));
        scenery.extend(dividers(tile, &outlines));
        let mut labels = LabelMap::empty();
        // Scenery beneath everything (roads and cities bridge the river), then cities, roads over
        // them (a road runs up to a city's gate), cloisters on top.
        for piece in &scenery {
            labels.paint(SCENERY, |p| covers(&piece.outline, p));
        }
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
                (Outline::Strip { centreline, .. }, _) => {
                    road_anchor(centreline, |p| labels.at(p) == i as u8)
                }
                _ => labels
                    .deepest(i as u8)
                    .ok_or_else(|| format!("tile {}: feature {i} has no area", tile.name))?,
            };
            anchors.push(anchor);
        }
        let (mut pennants, mut cathedrals, mut inns) = (Vec::new(), Vec::new(), Vec::new());
        let mut goods = Vec::new();
        for (i, f) in tile.features.iter().enumerate() {
            // The follower stands at the feature's heart, shield or none (where players put
            // it); shields, cathedrals and goods lie around it, clear of its base.
            let mut taken = vec![anchors[i]];
            let mut place = || {
                let p = beside(&labels, i as u8, &taken);
                taken.push(p);
                p
            };
            for (attr, spots) in [
                (Attr::Pennant, &mut pennants),
                (Attr::Cathedral, &mut cathedrals),
            ] {
                for _ in 0..f.count(attr) {
                    spots.push(place());
                }
            }
            for good in Good::ALL {
                for _ in 0..f.count(Attr::Goods(good)) {
                    goods.push((place(), good));
                }
            }
            // An inn stands in the field beside its road.
            if f.count(Attr::Inn) > 0 {
                inns.push(in_field_beside(tile, &labels, anchors[i]));
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
            scenery,
            pennants,
            inns,
            cathedrals,
            goods,
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

/// A city covering the given sides, built from six patterns by rotation; `others`: sides of the
/// tile's other cities.
fn city_polygon(sides: Vec<Dir>, others: Vec<Dir>) -> Vec<Point> {
    let has = |d: usize| sides.iter().any(|s| s.index() == d % 4);
    let beside = others.iter().find(|o| !has(o.index()));
    match sides.len() {
        1 => {
            // A cap on the north edge.
            let mut p = vec![[0.0, 0.0], [1.0, 0.0]];
            p.extend(bezier([1.0, 0.0], [0.5, 0.55], [0.0, 0.0], 16));
            turned(p, sides[0].index())
        }
        2 if has(sides[0].index() + 2) && beside.is_some() => {
            // A band from west to east bowed north, leaving room for a field and a city south
            // (Traders & Builders' CCc tiles).
            let mut p = bezier([0.0, 0.0], [0.5, 0.45], [1.0, 0.0], 16);
            p.extend(bezier([1.0, 1.0], [0.5, -0.1], [0.0, 1.0], 16));
            let south = beside.map_or(2, |d| d.index());
            turned(p, (south + 2) % 4)
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

fn strip(centreline: Vec<Point>, width: f32) -> Outline {
    Outline::Strip { centreline, width }
}

/// A regular polygon approximating a circle.
fn disc(c: Point, r: f32) -> Vec<Point> {
    (0..24)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 24.0;
            [c[0] + r * a.cos(), c[1] + r * a.sin()]
        })
        .collect()
}

/// The river: a stretch edge to edge, arms meeting in the centre at a fork, or one arm to the
/// pond of a spring or lake.
fn river(tile: &TileType) -> Vec<Scenery> {
    let Some(r) = tile.river else {
        return Vec::new();
    };
    let piece = |outline| Scenery {
        kind: SceneryKind::River,
        outline,
    };
    let sides = dirs(r.ports.iter());
    match sides.len() {
        2 => vec![piece(strip(road_line(sides), RIVER_WIDTH))],
        1 => vec![
            piece(strip(road_line(sides), RIVER_WIDTH)),
            Scenery {
                kind: SceneryKind::Lake,
                outline: Outline::Area(disc(CENTRE, LAKE_RADIUS)),
            },
        ],
        _ => sides
            .into_iter()
            .map(|d| piece(strip(road_line(vec![d]), RIVER_WIDTH)))
            .collect(),
    }
}

/// Walks from `from` towards `to` and returns the first point inside `poly` (or `to`).
fn reach(from: Point, to: Point, poly: &[Point]) -> Point {
    let steps = LABEL_RES * 2;
    (0..=steps)
        .map(|k| {
            let t = k as f32 / steps as f32;
            [
                from[0] + t * (to[0] - from[0]),
                from[1] + t * (to[1] - from[1]),
            ]
        })
        .find(|&p| inside_polygon(poly, p))
        .unwrap_or(to)
}

/// Cuts every road that ends inside a city (one holding the tile's centre) at the city's wall:
/// every edition prints such a road up to a gate, none under the houses.
fn end_roads_at_gates(tile: &TileType, outlines: &mut [Outline]) {
    let walls: Vec<Vec<Point>> = tile
        .features
        .iter()
        .zip(outlines.iter())
        .filter_map(|(f, o)| match o {
            Outline::Area(poly) if f.kind == FeatureKind::City => Some(poly.clone()),
            _ => None,
        })
        .collect();
    for (f, o) in tile.features.iter().zip(outlines.iter_mut()) {
        let Outline::Strip { centreline, .. } = o else {
            continue;
        };
        let Some(&end) = centreline.last().filter(|_| f.kind == FeatureKind::Road) else {
            continue;
        };
        let Some(wall) = walls.iter().find(|poly| inside_polygon(poly, end)) else {
            continue;
        };
        if let Some(first_in) = centreline.iter().position(|&p| inside_polygon(wall, p)) {
            if first_in > 0 {
                let gate = reach(centreline[first_in - 1], centreline[first_in], wall);
                centreline.truncate(first_in);
                centreline.push(gate);
            }
        }
    }
}

/// Where a city's edges are, on average: the direction its gate faces from the centre.
fn city_target(ports: crate::rules::PortSet) -> Point {
    let points: Vec<Point> = dirs(ports.iter())
        .into_iter()
        .filter_map(|d| port_point(d.port()))
        .collect();
    let n = points.len().max(1) as f32;
    [
        points.iter().map(|p| p[0]).sum::<f32>() / n,
        points.iter().map(|p| p[1]).sum::<f32>() / n,
    ]
}

/// Where the features meeting in the centre include a city whose walls stop short of it, a
/// stub runs from the centre to its gate: road-coloured if a road ends there, else water.
fn stubs(tile: &TileType, outlines: &[Outline]) -> Vec<Scenery> {
    let hub: Vec<usize> = (0..tile.features.len())
        .filter(|&i| {
            let f = &tile.features[i];
            f.reaches_centre || f.kind == FeatureKind::Cloister
        })
        .collect();
    let river_in_hub = tile.river.is_some_and(|r| r.reaches_centre);
    let is_city = |i: &usize| tile.features[*i].kind == FeatureKind::City;
    if !hub.iter().any(is_city) || !(river_in_hub || hub.iter().any(|i| !is_city(i))) {
        return Vec::new();
    }
    let road = hub
        .iter()
        .any(|&i| tile.features[i].kind == FeatureKind::Road);
    let (kind, width) = if road {
        (SceneryKind::Stub, ROAD_WIDTH)
    } else {
        (SceneryKind::River, RIVER_WIDTH)
    };
    hub.iter()
        .filter(|i| is_city(i))
        .filter_map(|&i| match &outlines[i] {
            Outline::Area(poly) if !inside_polygon(poly, CENTRE) => Some(Scenery {
                kind,
                outline: strip(
                    vec![
                        CENTRE,
                        reach(CENTRE, city_target(tile.features[i].ports), poly),
                    ],
                    width,
                ),
            }),
            _ => None,
        })
        .collect()
}

/// Lines printed across a field: wherever two neighbouring half-edges belong to different
/// fields with nothing between them, a divider runs from that corner (or bare edge centre)
/// towards the nearest city until it meets its walls.
fn dividers(tile: &TileType, outlines: &[Outline]) -> Vec<Scenery> {
    let port = |i: usize| Port::from_index(i % 12).expect("boundary position");
    let field = |i: usize| {
        tile.feature_at(port(i))
            .filter(|&f| tile.features[f].kind == FeatureKind::Field)
    };
    let bare = |i: usize| {
        tile.feature_at(port(i)).is_none() && !tile.river.is_some_and(|r| r.ports.contains(port(i)))
    };
    let mut out = Vec::new();
    for side in 0..4 {
        let corner = rotate([1.0, 0.0], Rotation::from_quarter_turns(side));
        let edge = port_point(port(3 * side + 1)).expect("edge centre");
        let pairs = [
            (3 * side + 2, 3 * side + 3, corner),
            (3 * side, 3 * side + 2, edge),
        ];
        for (a, b, start) in pairs {
            let across_bare_centre = b - a == 1 || bare(a + 1);
            let (Some(fa), Some(fb)) = (field(a), field(b)) else {
                continue;
            };
            if fa == fb || !across_bare_centre {
                continue;
            }
            let nearest = tile
                .features
                .iter()
                .zip(outlines)
                .filter_map(|(f, o)| match o {
                    Outline::Area(poly) if f.kind == FeatureKind::City => {
                        let t = city_target(f.ports);
                        let d = (t[0] - start[0]).powi(2) + (t[1] - start[1]).powi(2);
                        Some((d, t, poly))
                    }
                    _ => None,
                })
                .min_by(|x, y| x.0.total_cmp(&y.0));
            let end = match nearest {
                Some((_, t, poly)) => reach(start, t, poly),
                None => CENTRE,
            };
            out.push(Scenery {
                kind: SceneryKind::Divider,
                outline: strip(vec![start, end], DIVIDER_WIDTH),
            });
        }
    }
    out.extend(wall_to_wall(tile, outlines));
    out
}

/// Two fields that both lie between the same two cities, with no road or river to part them
/// (Hills & Sheep's HS7): a divider from one city's wall through the centre to the other's.
fn wall_to_wall(tile: &TileType, outlines: &[Outline]) -> Vec<Scenery> {
    let of = |kind| {
        (0..tile.features.len())
            .filter(move |&i| tile.features[i].kind == kind)
            .collect::<Vec<usize>>()
    };
    let (cities, fields) = (of(FeatureKind::City), of(FeatureKind::Field));
    let apart = fields.len() == 2 && fields.iter().all(|&f| tile.features[f].cities.len() == 2);
    if tile.river.is_some() || !of(FeatureKind::Road).is_empty() || cities.len() != 2 || !apart {
        return Vec::new();
    }
    cities
        .iter()
        .filter_map(|&c| match &outlines[c] {
            Outline::Area(poly) => Some(Scenery {
                kind: SceneryKind::Divider,
                outline: strip(
                    vec![
                        CENTRE,
                        reach(CENTRE, city_target(tile.features[c].ports), poly),
                    ],
                    DIVIDER_WIDTH,
                ),
            }),
            _ => None,
        })
        .collect()
}

/// A point in a field of `tile` near `p` (an inn beside its road).
fn in_field_beside(tile: &TileType, labels: &LabelMap, p: Point) -> Point {
    let r = 0.15f32;
    (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 8.0 + std::f32::consts::FRAC_PI_2;
            [p[0] + r * a.cos(), p[1] + r * a.sin()]
        })
        .find(|&q| {
            (0.05..=0.95).contains(&q[0])
                && (0.05..=0.95).contains(&q[1])
                && tile
                    .features
                    .get(usize::from(labels.at(q)))
                    .is_some_and(|f| f.kind == FeatureKind::Field)
        })
        .unwrap_or(p)
}

/// A follower on a road stands a third of the way in from where the road leaves the tile
/// (for a road that ends in the centre) or at its middle — or, where another road crosses over
/// it there (a bridge), at the nearest point of the line that is its own.
fn road_anchor(line: &[Point], own: impl Fn(Point) -> bool) -> Point {
    let ends_in_centre = line.last() == Some(&CENTRE);
    let k = if ends_in_centre {
        line.len() * 2 / 5
    } else {
        line.len() / 2
    };
    let k = k.min(line.len() - 1);
    (0..line.len())
        .flat_map(|d| [k.saturating_sub(d), (k + d).min(line.len() - 1)])
        .map(|j| line[j])
        .find(|&p| own(p))
        .unwrap_or(line[k])
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
            // Half a cell inside the tile from the edge; a field enclosed in the centre there.
            let inward = match port_point(port) {
                Some(edge) => [
                    edge[0] + (0.5 - edge[0]) * 0.04,
                    edge[1] + (0.5 - edge[1]) * 0.04,
                ],
                None => CENTRE,
            };
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

/// Where another object on the feature `label` lies, beside the points `taken` on it (the
/// follower's first): its deepest point at least [`CLEAR`] from them all where that lies
/// [`INSIDE`] the feature, else at least [`NEAR`] from them, else the follower's.
fn beside(labels: &LabelMap, label: u8, taken: &[Point]) -> Point {
    let deepest = |clear: f32| {
        labels.deepest_where(label, |q| {
            taken
                .iter()
                .all(|t| (q[0] - t[0]).hypot(q[1] - t[1]) >= clear)
        })
    };
    match (deepest(CLEAR), deepest(NEAR)) {
        (Some((p, depth)), _) if depth >= INSIDE => p,
        (_, Some((p, _))) => p,
        _ => taken[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{NO_FEATURE, SCENERY};

    #[test]
    fn every_tile_is_drawn_with_the_catalogues_fields() {
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
    fn a_knight_stands_clear_of_its_citys_shield_and_where_it_would_without_one() {
        // A follower's base is 16 mm across and a shield 5 mm, on a 45 mm tile: a knight on
        // its city's spot must stand more than (8 + 2.5) / 45 of a tile from each shield.
        let clear = (8.0 + 2.5) / 45.0;
        let cat = catalogue();
        let shape_of = |name: &str| TileShape::build(cat.tile(cat.tile_id(name).unwrap())).unwrap();
        // The base game's shield twins (with, without): the knight's spot gives nothing away.
        for (with, without) in [("F", "G"), ("M", "N"), ("O", "P"), ("Q", "R"), ("S", "T")] {
            let (with, without) = (shape_of(with), shape_of(without));
            assert_eq!(with.pennants.len(), 1);
            let city = |s: &TileShape| s.labels.at(with.pennants[0]);
            let (a, b) = (city(&with) as usize, city(&without) as usize);
            assert_eq!(with.features[a].anchor, without.features[b].anchor);
        }
        for tile in cat.tiles() {
            let shape = TileShape::build(tile).unwrap();
            for (i, f) in tile.features.iter().enumerate() {
                if f.count(Attr::Pennant) == 0 {
                    continue;
                }
                let knight = shape.features[i].anchor;
                for shield in shape
                    .pennants
                    .iter()
                    .filter(|&&p| shape.labels.at(p) == i as u8)
                {
                    let apart = (knight[0] - shield[0]).hypot(knight[1] - shield[1]);
                    assert!(
                        apart > clear,
                        "tile {}: knight {apart} from a shield",
                        tile.name
                    );
                }
            }
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
    fn rivers_and_scenery_are_drawn_where_the_catalogue_says() {
        for tile in catalogue().tiles() {
            let shape = TileShape::build(tile).unwrap();
            // Just inside each river port lies the river (or a bridge over it).
            for port in tile.river.iter().flat_map(|r| r.ports.iter()) {
                let e = port_point(port).unwrap();
                let inward = [e[0] + (0.5 - e[0]) * 0.05, e[1] + (0.5 - e[1]) * 0.05];
                assert_eq!(shape.labels.at(inward), SCENERY, "{} {port}", tile.name);
            }
            let lakes = shape
                .scenery
                .iter()
                .filter(|s| s.kind == SceneryKind::Lake)
                .count();
            let ends = tile.river.map_or(0, |r| r.ports.len());
            assert_eq!(lakes, usize::from(ends == 1), "{}", tile.name);
            for (attr, spots) in [
                (Attr::Inn, &shape.inns),
                (Attr::Cathedral, &shape.cathedrals),
            ] {
                assert_eq!(spots.len() as u32, tile.count(attr), "{}", tile.name);
            }
            for good in Good::ALL {
                let n = shape.goods.iter().filter(|(_, g)| *g == good).count();
                assert_eq!(n as u32, tile.count(Attr::Goods(good)), "{}", tile.name);
            }
            for &p in shape
                .cathedrals
                .iter()
                .chain(shape.goods.iter().map(|(p, _)| p))
            {
                let label = usize::from(shape.labels.at(p));
                assert_eq!(
                    tile.features[label].kind,
                    FeatureKind::City,
                    "{}",
                    tile.name
                );
            }
            for &p in &shape.inns {
                let label = usize::from(shape.labels.at(p));
                assert_eq!(
                    tile.features[label].kind,
                    FeatureKind::Field,
                    "{}",
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
        // Base tiles have no scenery; the road to a city gate across the river is a stub, the
        // field divider of IC7 is one line, and R13's city bridges the river in one piece.
        let cat = catalogue();
        for t in cat
            .tiles()
            .iter()
            .filter(|t| t.aliases[0].starts_with("BA/"))
        {
            assert!(
                TileShape::build(t).unwrap().scenery.is_empty(),
                "{}",
                t.name
            );
        }
        let kinds =
            |n: &str| -> Vec<SceneryKind> { shape(n).scenery.iter().map(|s| s.kind).collect() };
        use SceneryKind::*;
        assert_eq!(kinds("RV3"), [River, Stub]);
        assert_eq!(kinds("IC5"), [Stub, Stub]);
        assert_eq!(kinds("IC7"), [Divider]);
        assert_eq!(kinds("RV10"), [River, Lake, River]);
        assert_eq!(kinds("RV12"), [River, River, River]);
        let bridge = shape("RV13");
        assert_eq!(bridge.labels.at([0.5, 0.5]), 0);
        // One shield per pennant, inside the city.
        for name in ["C", "F", "M", "O", "Q", "S"] {
            let s = shape(name);
            assert_eq!(s.pennants.len(), 1, "{name}");
            assert_eq!(s.labels.at(s.pennants[0]), 0, "{name}");
        }
    }

    #[test]
    fn a_road_into_a_city_ends_at_its_gate() {
        // S and T: the city holds the centre, the road runs from the south edge to the wall.
        for name in ["S", "T"] {
            let s = TileShape::of(catalogue().tile_id(name).unwrap());
            let (city, road) = (0, 1);
            assert_eq!(s.labels.at([0.5, 0.97]), road, "{name} at the edge");
            assert_eq!(s.labels.at([0.5, 0.5]), city, "{name} in the centre");
            // The wall (the city's edge at x = 0.5) lies a quarter tile in from the south edge:
            // the road reaches it, and no further in than its rounded end.
            let wall = (0..=100)
                .map(|k| k as f32 / 100.0)
                .find(|&y| s.labels.at([0.35, y]) != city)
                .unwrap();
            assert!((0.65..0.8).contains(&wall), "{name}: wall at {wall}");
            assert_eq!(s.labels.at([0.5, wall + 0.02]), road, "{name} at the gate");
            assert_eq!(
                s.labels.at([0.5, wall - 0.08]),
                city,
                "{name} inside the gate"
            );
        }
    }
}

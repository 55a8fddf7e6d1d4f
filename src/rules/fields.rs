//! Derives a tile's fields from where its roads, cities, cloisters and river lie.
//!
//! Each non-field feature is an obstacle touching the boundary: a road or river at its edge
//! centres, a city along its whole edges (a city drawn as a bridge over the river is no
//! obstacle). Features that reach the tile centre join into one obstacle. The free half-edges
//! form the fields: two half-edges share a field unless some obstacle touches the boundary on both
//! sides between them. A field touches a city unless an obstacle other than that city walls them
//! apart. Tiles whose fields no obstacle explains (a divider printed in the field, a field enclosed
//! in the centre, roads that end at a city wall on either side of a field, a printed pig-herd)
//! list them in the data instead, with the cities each touches.

use super::port::{Port, PortSet};
use super::tile::{Attr, FeatureDef, FeatureKind, RiverDef};

const RING: usize = 12;

/// Boundary positions (0..12) a feature occupies.
fn contacts(f: &FeatureDef) -> Vec<usize> {
    ring_contacts(f.kind, f.ports)
}

fn ring_contacts(kind: FeatureKind, ports: PortSet) -> Vec<usize> {
    let mut out = Vec::new();
    for p in ports.iter().filter(|p| p.index() < RING) {
        let i = p.index();
        if kind == FeatureKind::City && p.is_edge_centre() {
            out.extend([i - 1, i, i + 1]);
        } else {
            out.push(i);
        }
    }
    out
}

/// Whether walking clockwise from `a` to `b` (exclusive) passes a position in `wall`.
fn passes(a: usize, b: usize, wall: &[bool; RING]) -> bool {
    let mut i = (a + 1) % RING;
    while i != b {
        if wall[i] {
            return true;
        }
        i = (i + 1) % RING;
    }
    false
}

/// Whether some obstacle walls `a` and `b` apart both ways round.
fn separated(a: usize, b: usize, obstacles: &[Obstacle]) -> bool {
    obstacles
        .iter()
        .any(|ob| passes(a, b, &ob.wall) && passes(b, a, &ob.wall))
}

/// A field as the data lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListedField {
    /// Its half-edges, or the centre for a field enclosed there.
    pub(crate) ports: PortSet,
    /// A port of each city it touches.
    pub(crate) touches: PortSet,
    /// Printed details (a pig-herd).
    pub(crate) attrs: Vec<Attr>,
}

/// Appends the fields to `features` (which must hold no fields yet): the `listed` ones if the
/// data gives any, else those derived from the obstacles.
pub(crate) fn add_fields(
    features: &mut Vec<FeatureDef>,
    river: Option<RiverDef>,
    listed: &[ListedField],
) {
    let fields: Vec<FeatureDef> = if listed.is_empty() {
        derive_groups(features, river)
            .into_iter()
            .map(|members| {
                let ports = members
                    .iter()
                    .filter_map(|&i| Port::from_index(i))
                    .collect();
                let touched = |c| touches(features, river, c, &members);
                field(features, ports, touched, Vec::new())
            })
            .collect()
    } else {
        listed
            .iter()
            .map(|l| {
                let touched = |c: usize| features[c].ports.intersects(l.touches);
                field(features, l.ports, touched, l.attrs.clone())
            })
            .collect()
    };
    features.extend(fields);
}

/// A field on `ports` touching the cities among `features` that `touched` accepts.
fn field(
    features: &[FeatureDef],
    ports: PortSet,
    touched: impl Fn(usize) -> bool,
    attrs: Vec<Attr>,
) -> FeatureDef {
    FeatureDef {
        kind: FeatureKind::Field,
        ports,
        attrs,
        reaches_centre: false,
        cities: (0..features.len())
            .filter(|&c| features[c].kind == FeatureKind::City && touched(c))
            .collect(),
        bridge: false,
    }
}

/// Groups the free half-edges into fields.
fn derive_groups(features: &[FeatureDef], river: Option<RiverDef>) -> Vec<Vec<usize>> {
    let obstacles = obstacles(features, river, None);
    let mut taken = [false; RING];
    for ob in &obstacles {
        for &i in &ob.positions {
            taken[i] = true;
        }
    }
    for f in features.iter().filter(|f| f.bridge) {
        for i in contacts(f) {
            taken[i] = true;
        }
    }
    // Edge centres with nothing on them are field too, but fields are named by half-edges.
    let free: Vec<usize> = (0..RING).filter(|&i| !taken[i] && i % 3 != 1).collect();
    let mut group: Vec<usize> = (0..free.len()).collect();
    for a in 0..free.len() {
        for b in 0..a {
            if !separated(free[a], free[b], &obstacles) {
                let (ga, gb) = (group[a], group[b]);
                for g in group.iter_mut() {
                    if *g == ga {
                        *g = gb;
                    }
                }
            }
        }
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for &g in &group {
        if !seen.contains(&g) {
            seen.push(g);
            out.push(
                (0..free.len())
                    .filter(|&k| group[k] == g)
                    .map(|k| free[k])
                    .collect(),
            );
        }
    }
    out
}

/// Whether the field made of boundary positions `members` touches city `c`.
fn touches(features: &[FeatureDef], river: Option<RiverDef>, c: usize, members: &[usize]) -> bool {
    let cc = contacts(&features[c]);
    let others = obstacles(features, river, Some(c));
    members
        .iter()
        .any(|&h| cc.iter().any(|&p| !separated(h, p, &others)))
}

struct Obstacle {
    positions: Vec<usize>,
    wall: [bool; RING],
}

/// The obstacles on the boundary, leaving out feature `skip`.
fn obstacles(
    features: &[FeatureDef],
    river: Option<RiverDef>,
    skip: Option<usize>,
) -> Vec<Obstacle> {
    let walls = features
        .iter()
        .enumerate()
        .filter(|&(i, f)| f.kind != FeatureKind::Field && !f.bridge && Some(i) != skip)
        .map(|(_, f)| {
            let joins_hub = f.reaches_centre || f.kind == FeatureKind::Cloister;
            (contacts(f), joins_hub)
        })
        .chain(river.map(|r| (ring_contacts(FeatureKind::Road, r.ports), r.reaches_centre)));
    let mut out: Vec<Obstacle> = Vec::new();
    let mut hub: Option<usize> = None;
    for (positions, joins_hub) in walls {
        match hub {
            Some(h) if joins_hub => out[h].positions.extend(positions),
            _ => {
                if joins_hub {
                    hub = Some(out.len());
                }
                out.push(Obstacle {
                    positions,
                    wall: [false; RING],
                });
            }
        }
    }
    for ob in &mut out {
        for &i in &ob.positions {
            ob.wall[i] = true;
        }
    }
    out
}

//! Derives a tile's fields from where its roads, cities and cloisters lie.
//!
//! Each non-field feature is an obstacle touching the boundary: a road at its edge centres, a
//! city along its whole edges. Features that reach the tile centre join into one obstacle. The
//! free half-edges form the fields: two half-edges share a field unless some obstacle touches the
//! boundary on both sides between them. A field touches a city when one of its half-edges lies
//! next to that city's edge.

use super::port::{Port, PortSet};
use super::tile::{FeatureDef, FeatureKind};

const RING: usize = 12;

/// Boundary positions (0..12) a feature occupies.
fn contacts(f: &FeatureDef) -> Vec<usize> {
    let mut out = Vec::new();
    for p in f.ports.iter().filter(|p| p.index() < RING) {
        let i = p.index();
        if f.kind == FeatureKind::City && p.is_edge_centre() {
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

/// Appends the derived fields to `features` (which must hold no fields yet).
pub(crate) fn add_fields(features: &mut Vec<FeatureDef>) {
    let obstacles = obstacles(features);
    let mut taken = [false; RING];
    for ob in &obstacles {
        for &i in &ob.positions {
            taken[i] = true;
        }
    }
    // Edge centres with nothing on them are field too, but fields are named by half-edges.
    let free: Vec<usize> = (0..RING).filter(|&i| !taken[i] && i % 3 != 1).collect();
    // Group free half-edges: same field unless an obstacle walls both ways round.
    let mut group: Vec<usize> = (0..free.len()).collect();
    for a in 0..free.len() {
        for b in 0..a {
            let separated = obstacles
                .iter()
                .any(|ob| passes(free[a], free[b], &ob.wall) && passes(free[b], free[a], &ob.wall));
            if !separated {
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
    for &g in &group {
        if seen.contains(&g) {
            continue;
        }
        seen.push(g);
        let members: Vec<usize> = (0..free.len())
            .filter(|&k| group[k] == g)
            .map(|k| free[k])
            .collect();
        let ports: PortSet = members
            .iter()
            .filter_map(|&i| Port::from_index(i))
            .collect();
        let mut cities = Vec::new();
        for (ci, city) in features.iter().enumerate() {
            if city.kind != FeatureKind::City {
                continue;
            }
            let cc = contacts(city);
            let touches = members
                .iter()
                .any(|&i| cc.contains(&((i + 1) % RING)) || cc.contains(&((i + RING - 1) % RING)));
            if touches {
                cities.push(ci);
            }
        }
        features.push(FeatureDef {
            kind: FeatureKind::Field,
            ports,
            attrs: Vec::new(),
            reaches_centre: false,
            cities,
        });
    }
}

struct Obstacle {
    positions: Vec<usize>,
    wall: [bool; RING],
}

fn obstacles(features: &[FeatureDef]) -> Vec<Obstacle> {
    let mut out: Vec<Obstacle> = Vec::new();
    let mut hub: Option<usize> = None;
    for f in features.iter().filter(|f| f.kind != FeatureKind::Field) {
        let positions = contacts(f);
        let joins_hub = f.reaches_centre || f.kind == FeatureKind::Cloister;
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

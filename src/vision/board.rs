//! Reading a whole board: per-cell tile readings made consistent with the rules — neighbouring
//! edges must match, and no type may appear more often than the box holds.

use std::collections::BTreeMap;

use super::locate::Located;
use super::tile::Candidate;
use crate::rules::{catalogue, Dir, Pos, TileSet};

/// Log-penalty for an edge that does not match its neighbour.
const MISMATCH: f64 = -9.0;
/// Log-penalty for a tile type used more often than the box holds.
const TOO_MANY: f64 = -6.0;
/// Candidates considered per cell.
const KEEP: usize = 8;

/// [`consistent_reading`] of a board read from its start tile ([`read_board`]: the start tile
/// first, known), for every tile found but the start tile.
///
/// [`read_board`]: super::locate::read_board
pub fn consistent_board(found: &[Located], tileset: &TileSet) -> Vec<(Pos, Candidate)> {
    let Some((start, rest)) = found.split_first() else {
        return Vec::new();
    };
    let readings: Vec<(Pos, Vec<Candidate>)> =
        rest.iter().map(|l| (l.pos, l.candidates.clone())).collect();
    match start.candidates.first() {
        Some(&known) => consistent_reading(&readings, &[(start.pos, known)], tileset),
        None => consistent_reading(&readings, &[], tileset),
    }
}

/// Picks one candidate per cell so that the readings and the rules agree best (iterated
/// conditional modes from the most likely readings, revisiting the least sure cells first).
/// `fixed` cells (the start tile) are known.
pub fn consistent_reading(
    cells: &[(Pos, Vec<Candidate>)],
    fixed: &[(Pos, Candidate)],
    tileset: &TileSet,
) -> Vec<(Pos, Candidate)> {
    let cat = catalogue();
    let mut chosen: BTreeMap<Pos, Candidate> = fixed.iter().copied().collect();
    for (pos, cands) in cells {
        if let Some(c) = cands.first() {
            chosen.entry(*pos).or_insert(*c);
        }
    }
    let allowed: BTreeMap<usize, usize> = tileset
        .counts
        .iter()
        .map(|&(id, n)| (id.index(), usize::from(n)))
        .collect();
    // The least sure cells first, so that where the readings break a rule it is they that
    // give way.
    let mut order: Vec<&(Pos, Vec<Candidate>)> = cells.iter().collect();
    order.sort_by(|a, b| {
        let top = |c: &[Candidate]| c.first().map_or(0.0, |c| c.probability);
        top(&a.1).total_cmp(&top(&b.1))
    });
    for _ in 0..10 {
        let mut changed = false;
        for (pos, cands) in order.iter().copied() {
            if fixed.iter().any(|(p, _)| p == pos) {
                continue;
            }
            let current = chosen[pos];
            let score = |c: &Candidate| {
                let ty = cat.tile(c.tile);
                let mut s = c.probability.max(1e-12).ln();
                for d in Dir::ALL {
                    if let Some(n) = chosen.get(&pos.step(d)) {
                        let theirs = cat.tile(n.tile).edge(d.opposite(), n.rot);
                        if ty.edge(d, c.rot) != theirs {
                            s += MISMATCH;
                        }
                    }
                }
                let used = chosen
                    .iter()
                    .filter(|(p, o)| *p != pos && o.tile == c.tile)
                    .count();
                if used + 1 > allowed.get(&c.tile.index()).copied().unwrap_or(0) {
                    s += TOO_MANY;
                }
                s
            };
            let best = cands
                .iter()
                .take(KEEP)
                .max_by(|a, b| score(a).total_cmp(&score(b)))
                .copied()
                .unwrap_or(current);
            if best.tile != current.tile || best.rot != current.rot {
                chosen.insert(*pos, best);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: Vec<(Pos, Candidate)> = cells
        .iter()
        .filter_map(|(p, _)| chosen.get(p).map(|c| (*p, *c)))
        .collect();
    out.sort_by_key(|(p, _)| *p);
    out
}

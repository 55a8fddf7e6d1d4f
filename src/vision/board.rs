//! Reading a whole board: per-cell tile readings made consistent with the rules — neighbouring
//! edges must match, and no type may appear more often than the box holds; the fewer copies of
//! a type the box has left beside those read, the less likely another.

use std::collections::BTreeMap;

use super::locate::Located;
use super::tile::Candidate;
use crate::rules::{catalogue, Dir, Pos, TileSet};

/// Log-penalty for an edge that does not match its neighbour. No tile can lie so: it outweighs a
/// reading 10⁵ times likelier than the next, as a cut lying a little off its tile can make of
/// print that passes for a road (a cloister's white tower, `eval vision` 18500 board 27, at −9).
const MISMATCH: f64 = -14.0;
/// Log-penalty for a tile type used more often than the box holds.
const TOO_MANY: f64 = -6.0;
/// Weight of what the box has left of a type beside the copies read ([`one_more`]). In full
/// it overrules readings it should not: `eval vision --dataset DIR` over 30 sets, whole boards
/// right 719 of 830 in full, 726 at this weight, 724 without.
const LEFT_IN_BOX: f64 = 0.5;
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

/// Picks one candidate per cell so that the readings and the rules agree best: iterated
/// conditional modes from the most likely readings, revisiting the least sure cells first, then
/// changes of two cells at once where no single change helps (two readings of a type the box
/// holds once: the one whose next reading costs less gives way). `fixed` cells (the start tile)
/// are known.
pub fn consistent_reading(
    cells: &[(Pos, Vec<Candidate>)],
    fixed: &[(Pos, Candidate)],
    tileset: &TileSet,
) -> Vec<(Pos, Candidate)> {
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
    let free: Vec<&(Pos, Vec<Candidate>)> = cells
        .iter()
        .filter(|(pos, cands)| !cands.is_empty() && !fixed.iter().any(|(p, _)| p == pos))
        .collect();
    for _ in 0..10 {
        if !single_changes(&mut chosen, &free, &allowed)
            && !pair_change(&mut chosen, &free, &allowed)
        {
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

/// Whether tile `a` and tile `b` lying beyond its `d` edge show different terrain there.
fn mismatched(a: &Candidate, d: Dir, b: &Candidate) -> bool {
    let cat = catalogue();
    cat.tile(a.tile).edge(d, a.rot) != cat.tile(b.tile).edge(d.opposite(), b.rot)
}

/// How many tiles of the type with index `t` the box holds.
fn held(allowed: &BTreeMap<usize, usize>, t: usize) -> usize {
    allowed.get(&t).copied().unwrap_or(0)
}

/// Log-factor for one more tile of a type on the board, `used` of the `held` in the box there
/// already. A reading's probability counts a type as likely as the box holds it; drawn from
/// the box, each copy on the board leaves fewer for the rest, and none once all are out
/// ([`TOO_MANY`] for each beyond).
fn one_more(used: usize, held: usize) -> f64 {
    if used < held {
        LEFT_IN_BOX * ((held - used) as f64 / held as f64).ln()
    } else {
        TOO_MANY
    }
}

/// [`one_more`] summed over `n` tiles of a type of which the box holds `held`.
fn drawn(n: usize, held: usize) -> f64 {
    (0..n).map(|used| one_more(used, held)).sum()
}

/// Log-probability of a candidate as read.
fn log_p(c: &Candidate) -> f64 {
    c.probability.max(1e-12).ln()
}

/// Changes each cell, the least sure first, to its best candidate given the others (iterated
/// conditional modes, until none changes or ten rounds); whether any changed.
fn single_changes(
    chosen: &mut BTreeMap<Pos, Candidate>,
    cells: &[&(Pos, Vec<Candidate>)],
    allowed: &BTreeMap<usize, usize>,
) -> bool {
    // The least sure cells first, so that where the readings break a rule it is they that
    // give way.
    let mut order = cells.to_vec();
    order.sort_by(|a, b| {
        let top = |c: &[Candidate]| c.first().map_or(0.0, |c| c.probability);
        top(&a.1).total_cmp(&top(&b.1))
    });
    let mut any = false;
    for _ in 0..10 {
        let mut changed = false;
        for (pos, cands) in order.iter().copied() {
            let Some(&current) = chosen.get(pos) else {
                continue;
            };
            let score = |c: &Candidate| {
                let mut s = log_p(c);
                for d in Dir::ALL {
                    if let Some(n) = chosen.get(&pos.step(d)) {
                        if mismatched(c, d, n) {
                            s += MISMATCH;
                        }
                    }
                }
                let used = chosen
                    .iter()
                    .filter(|(p, o)| *p != pos && o.tile == c.tile)
                    .count();
                s + one_more(used, held(allowed, c.tile.index()))
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
        any |= changed;
        if !changed {
            break;
        }
    }
    any
}

/// A cell given a new reading.
type Change = (Pos, Candidate);

/// Makes the change of two cells' readings at once that raises the reading's score most, if
/// any does; whether one did.
fn pair_change(
    chosen: &mut BTreeMap<Pos, Candidate>,
    cells: &[&(Pos, Vec<Candidate>)],
    allowed: &BTreeMap<usize, usize>,
) -> bool {
    let mut used: BTreeMap<usize, usize> = BTreeMap::new();
    for c in chosen.values() {
        *used.entry(c.tile.index()).or_default() += 1;
    }
    let gain = |p: Pos, c: &Candidate, q: Pos, d: &Candidate| {
        let (old_p, old_q) = (chosen[&p], chosen[&q]);
        let now = |at: Pos| match at {
            _ if at == p => Some(*c),
            _ if at == q => Some(*d),
            _ => chosen.get(&at).copied(),
        };
        let mut g = log_p(c) - log_p(&old_p) + log_p(d) - log_p(&old_q);
        for (at, old, new) in [(p, old_p, *c), (q, old_q, *d)] {
            for dir in Dir::ALL {
                let n = at.step(dir);
                if at == q && n == p {
                    continue;
                }
                let before = chosen.get(&n).is_some_and(|b| mismatched(&old, dir, b));
                let after = now(n).is_some_and(|b| mismatched(&new, dir, &b));
                g += MISMATCH * (f64::from(u8::from(after)) - f64::from(u8::from(before)));
            }
        }
        let mut types = [old_p.tile, c.tile, old_q.tile, d.tile].map(|t| t.index());
        types.sort_unstable();
        for (k, &t) in types.iter().enumerate() {
            if k > 0 && types[k - 1] == t {
                continue;
            }
            let n = used.get(&t).copied().unwrap_or(0);
            let m = n + usize::from(c.tile.index() == t) + usize::from(d.tile.index() == t)
                - usize::from(old_p.tile.index() == t)
                - usize::from(old_q.tile.index() == t);
            let held = held(allowed, t);
            g += drawn(m, held) - drawn(n, held);
        }
        g
    };
    let same = |a: &Candidate, b: &Candidate| a.tile == b.tile && a.rot == b.rot;
    let mut best: Option<(f64, Change, Change)> = None;
    for (p, p_cands) in cells.iter().map(|c| (c.0, &c.1)) {
        for c in p_cands.iter().take(KEEP).filter(|c| !same(c, &chosen[&p])) {
            // Its partner: a neighbour (their shared edge), or a cell holding the type `p`
            // would take (making room for it). A cell taking the type `p` gives up is the
            // partner's own turn.
            let partners = cells.iter().filter(|(q, _)| {
                *q != p
                    && (chosen[q].tile == c.tile || Dir::ALL.iter().any(|&dir| p.step(dir) == *q))
            });
            for (q, q_cands) in partners {
                for d in q_cands.iter().take(KEEP).filter(|d| !same(d, &chosen[q])) {
                    let g = gain(p, c, *q, d);
                    if g > 1e-9 && best.as_ref().is_none_or(|b| g > b.0) {
                        best = Some((g, (p, *c), (*q, *d)));
                    }
                }
            }
        }
    }
    let Some((_, (p, c), (q, d))) = best else {
        return false;
    };
    chosen.insert(p, c);
    chosen.insert(q, d);
    true
}

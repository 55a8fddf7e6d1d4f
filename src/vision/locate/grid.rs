//! Where the tiles found lie: each settled where its final neighbours predict it, the board's
//! grid fitted to the tiles that agree with it, and unsure tiles cut again a little off.

use std::collections::{BTreeMap, HashMap};

use opencv::core::{Mat, Point2f, Vector};
use opencv::prelude::*;

use super::{in_view, CellReader, Located, MIN_FIT};
use crate::rules::{EdgeKind, Pos, Rotation, TileId};
use crate::sim::camera::apply_homography;
use crate::vision::edges::edge_kinds;
use crate::vision::predict::predict_in_read;
use crate::vision::rectify::{homography_of, middle, side_px, Quad, MARGIN_PX, PATCH_PX};
use crate::vision::tile::{Candidate, Match};

/// Cuts each tile found again where all its final neighbours predict it, when that lies more
/// than [`SETTLE_OFF`] of a side from where it was found, and keeps the new reading if it
/// scores higher ([`Match::score`]; `scores` holds the first readings'). Tiles are settled in
/// the order they were found, each from its neighbours as settled so far: a tile found early
/// was predicted from one or two neighbours, and the tiles grown from it inherited its error.
pub(super) fn settle(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<()> {
    // Where each tile's neighbours predict it, read side by side: a tile settled elsewhere
    // moves the cuts of those after it beside it, and only those are read again.
    let cuts: Vec<(Pos, Quad)> = out[1..]
        .iter()
        .filter_map(|tile| Some((tile.pos, settle_cut(reader, located, tile)?)))
        .collect();
    reader.read_cells_ahead(&cuts)?;
    for k in 1..out.len() {
        let pos = out[k].pos;
        let Some(&first) = scores.get(&pos) else {
            continue;
        };
        if settle_cut(reader, located, &out[k]).is_none() {
            continue;
        }
        let mut others = located.clone();
        others.remove(&pos);
        if let Some((found_at, found)) = reader.read_cell(pos, MIN_FIT, &others, out)? {
            if found_at.score > first.score {
                located.insert(pos, found.quad);
                scores.insert(pos, found_at);
                out[k] = found;
            }
        }
    }
    Ok(())
}

/// Where the other tiles `located` predict `tile`'s cell, if that lies more than
/// [`SETTLE_OFF`] of a side from where it was found ([`settle`]).
fn settle_cut(reader: &CellReader, located: &BTreeMap<Pos, Quad>, tile: &Located) -> Option<Quad> {
    let mut others = located.clone();
    others.remove(&tile.pos);
    let predicted = predict_in_read(&others, tile.pos, reader.pose.as_ref())?;
    (sides_apart(&predicted, &tile.quad) >= SETTLE_OFF).then_some(predicted)
}

/// Cuts each tile found again where a grid fitted to the whole board puts its cell
/// ([`board_grid`]), when that lies more than [`REGRID_OFF`] of a side from where it was found,
/// and keeps the new reading if it fits its neighbours' edges, lies over none of them and
/// scores higher ([`Match::score`]) than the reading so far (`scores`) would have, cut at the
/// grid's cell ([`Match::score_if_cut_off`]), unless it walls the tile in ([`walled_in`]): the
/// grid, fitted to every tile, tells where a tile lies better than the cut its neighbours
/// predicted, from which the shift search charged the first reading. Settled from its
/// neighbours ([`settle`]), a tile can still lie off with them: on the 2nd-edition art the
/// shift search, aligning its print to the catalogue's drawn tiles, moves a tile cut at its
/// true corners by some 0.035 of a side, and a row of tiles found from each other can drift
/// together.
pub(super) fn regrid(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &HashMap<Pos, Match>,
) -> opencv::Result<()> {
    let Some(grid) = board_grid(located)? else {
        return Ok(());
    };
    // The cells each read once, where the grid puts them, side by side.
    let cells: Vec<(usize, Quad)> = (1..out.len())
        .filter_map(|k| {
            let cell = grid_cell(&grid, out[k].pos);
            (sides_apart(&cell, &out[k].quad) > REGRID_OFF && in_view(&cell, reader.frame))
                .then_some((k, cell))
        })
        .collect();
    let cuts: Vec<(Pos, Quad)> = cells.iter().map(|&(k, cell)| (out[k].pos, cell)).collect();
    reader.read_ahead(&cuts)?;
    for (k, cell) in cells {
        let pos = out[k].pos;
        let Some(cut) = reader.read(pos, &cell)? else {
            continue;
        };
        // The board's grid is where the tile is likeliest: the reading so far is scored as if
        // it had been cut there.
        let off = sides_apart(&cell, &out[k].quad) * f64::from(PATCH_PX);
        if cut.replaces(scores.get(&pos), off, out, located)
            && !walled_in(&out[k].candidates, &cut.tile.candidates)
        {
            located.insert(pos, cut.tile.quad);
            out[k] = cut.tile;
        }
    }
    Ok(())
}

/// Whether a tile read as `second` where the board's grid puts it turns all city on every
/// side where read as `first` it was not. Cut off its tile, a cell takes in the city of the
/// tile beside it or a wooden table that passes for city, which the all-city tile fits at any
/// rotation. Over the 35 `eval vision` data sets of session 66, the six tiles [`regrid`] turned
/// all city had each been read right (R and S at the edge of the board, city beside the
/// table); of the fourteen read all city it read otherwise, eleven it read right.
fn walled_in(first: &[Candidate], second: &[Candidate]) -> bool {
    let all_city = |read: &[Candidate]| {
        read.first()
            .is_some_and(|c| edge_kinds(c.tile, c.rot) == [EdgeKind::City; 4])
    };
    all_city(second) && !all_city(first)
}

/// Cuts again, where it was found, each tile the shift search found at least [`RECUT_OFF_PX`]
/// off its cut, and keeps the new reading if it scores higher ([`Match::score`]) than the first
/// would have, cut there ([`Match::score_if_cut_off`]): a search near the end of its margin
/// reads a cut with a strip of the neighbour's print in it and may stop short of the tile
/// (`eval vision` 11300 board 13: B read U at 8 pixels each way, B cut again).
pub(super) fn recut_where_found(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<()> {
    let far_off: Vec<usize> = (1..out.len())
        .filter(|&k| {
            scores
                .get(&out[k].pos)
                .is_some_and(|s| s.off_cut >= RECUT_OFF_PX)
                && in_view(&out[k].quad, reader.frame)
        })
        .collect();
    let cuts: Vec<(Pos, Quad)> = far_off.iter().map(|&k| (out[k].pos, out[k].quad)).collect();
    reader.read_ahead(&cuts)?;
    for (k, (pos, quad)) in far_off.into_iter().zip(cuts) {
        let Some(cut) = reader.read(pos, &quad)? else {
            continue;
        };
        if cut.replaces(scores.get(&pos), 0.0, out, located) {
            located.insert(pos, cut.tile.quad);
            scores.insert(pos, cut.found_at);
            out[k] = cut.tile;
        }
    }
    Ok(())
}

/// Reads each tile read unsurely ([`worth_polishing`]) again at cuts with one side moved a
/// little out or in, or turned a little ([`nudged`]), and takes the mean of its readings over
/// these cuts and its own: where a tile lies is known only to a few hundredths of a side, and
/// a small feature near its side (a road stub a figure stands on) may show in one cut and not
/// in the next (`eval vision` 11100 board 12: A cut 0.05 of a side short in the south read B
/// at 0.5; cut at its true corners, A).
pub(super) fn polish(reader: &CellReader, out: &mut [Located]) -> opencv::Result<()> {
    let unsure: Vec<usize> = (1..out.len())
        .filter(|&k| worth_polishing(&out[k].candidates))
        .collect();
    let cuts: Vec<(Pos, Quad)> = unsure
        .iter()
        .flat_map(|&k| nudged(&out[k].quad).into_iter().map(move |q| (k, q)))
        .filter(|(_, q)| in_view(q, reader.frame))
        .map(|(k, q)| (out[k].pos, q))
        .collect();
    reader.read_ahead(&cuts)?;
    for k in unsure {
        let pos = out[k].pos;
        let mut sum: HashMap<(TileId, Rotation), f64> = HashMap::new();
        let mut reads = 0usize;
        let mut add = |candidates: &[Candidate]| {
            for c in candidates {
                *sum.entry((c.tile, c.rot)).or_default() += c.probability;
            }
            reads += 1;
        };
        add(&out[k].candidates);
        for (_, quad) in cuts.iter().filter(|(p, _)| *p == pos) {
            if let Some(cut) = reader.read(pos, quad)? {
                add(&cut.tile.candidates);
            }
        }
        let mut mean: Vec<Candidate> = sum
            .into_iter()
            .map(|((tile, rot), p)| Candidate {
                tile,
                rot,
                probability: p / reads as f64,
            })
            .collect();
        mean.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        out[k].candidates = mean;
    }
    Ok(())
}

/// Whether [`polish`] cuts a tile read as `candidates` (most likely first) again: where its
/// likeliest reading is less sure than [`POLISH_BELOW`], or less sure than
/// [`POLISH_LAYOUT_BELOW`] and a reading at least [`RIVAL`] likely lays roads and cities along
/// its sides otherwise (a road stub a figure hides). Most tiles read between the two are
/// only in doubt about a pennant or which way round a symmetric tile lies; cutting all of them
/// again would take a 69-tile board's read past 300 ms (`cargo bench --bench vision -- board`).
fn worth_polishing(candidates: &[Candidate]) -> bool {
    let Some((top, rest)) = candidates.split_first() else {
        return false;
    };
    let layout = |c: &Candidate| edge_kinds(c.tile, c.rot);
    top.probability < POLISH_BELOW
        || (top.probability < POLISH_LAYOUT_BELOW
            && rest
                .iter()
                .take_while(|c| c.probability >= RIVAL)
                .any(|c| layout(c) != layout(top)))
}

/// The probability of a tile's likeliest reading below which [`polish`] cuts it again.
const POLISH_BELOW: f64 = 0.9;
/// [`POLISH_BELOW`] for a tile read with a rival layout of roads and cities.
const POLISH_LAYOUT_BELOW: f64 = 0.99;
/// How likely a reading must be for [`worth_polishing`] to weigh it.
const RIVAL: f64 = 0.005;
/// How far (share of a side) [`nudged`] moves a side.
const NUDGE: f64 = 0.02;
/// How far (degrees) [`nudged`] turns a cut.
const NUDGE_TURN_DEG: f64 = 1.5;

/// `quad` with each side in turn moved [`NUDGE`] of a side out and in, and turned
/// [`NUDGE_TURN_DEG`] either way about its middle.
fn nudged(quad: &Quad) -> Vec<Quad> {
    let mut cuts = Vec::new();
    for side in 0..4 {
        // The side's two corners, each moved along the tile's side that ends in it.
        let (a, b) = (side, (side + 1) % 4);
        let (from_a, from_b) = ((a + 3) % 4, (b + 1) % 4);
        for sign in [1.0, -1.0] {
            let mut q = *quad;
            for (c, from) in [(a, from_a), (b, from_b)] {
                for i in 0..2 {
                    q[c][i] += sign * NUDGE * (quad[c][i] - quad[from][i]);
                }
            }
            cuts.push(q);
        }
    }
    let m = middle(quad);
    for deg in [NUDGE_TURN_DEG, -NUDGE_TURN_DEG] {
        let (sin, cos) = deg.to_radians().sin_cos();
        cuts.push(quad.map(|p| {
            let d = [p[0] - m[0], p[1] - m[1]];
            [
                m[0] + cos * d[0] - sin * d[1],
                m[1] + sin * d[0] + cos * d[1],
            ]
        }));
    }
    cuts
}

/// How far (patch pixels) the shift search must have found a tile off its cut for
/// [`recut_where_found`] to cut it again: three quarters of the margin it searches.
pub(super) const RECUT_OFF_PX: f64 = 0.75 * MARGIN_PX as f64;

/// How far the middle of `quad` lies from that of the cut `cell`, in sides of the cut.
fn sides_apart(cell: &Quad, quad: &Quad) -> f64 {
    let (there, here) = (middle(cell), middle(quad));
    (there[0] - here[0]).hypot(there[1] - here[1]) / side_px(cell)
}

/// How far (share of a side) a tile may lie from where the board's grid puts its cell before
/// [`regrid`] cuts it again: nine in ten tiles lie nearer their cells (3 mm).
const REGRID_OFF: f64 = 0.07;

/// The homography from grid units (cell (x, y) spans x..x+1, y..y+1) to the picture that the
/// corners of the most tiles `found` agree with (RANSAC, a corner counting where it lies within
/// [`GRID_AGREE`] of a side of the fit); `None` for fewer than [`GRID_TILES`] tiles.
pub(super) fn board_grid(found: &BTreeMap<Pos, Quad>) -> opencv::Result<Option<[[f64; 3]; 3]>> {
    if found.len() < GRID_TILES {
        return Ok(None);
    }
    let mut grid = Vector::<Point2f>::new();
    let mut image = Vector::<Point2f>::new();
    for (pos, quad) in found {
        for (k, (dx, dy)) in [(0, 0), (1, 0), (1, 1), (0, 1)].iter().enumerate() {
            grid.push(Point2f::new((pos.x + dx) as f32, (pos.y + dy) as f32));
            image.push(Point2f::new(quad[k][0] as f32, quad[k][1] as f32));
        }
    }
    let side = found.values().map(side_px).sum::<f64>() / found.len() as f64;
    let m = opencv::calib3d::find_homography(
        &grid,
        &image,
        &mut Mat::default(),
        opencv::calib3d::RANSAC,
        GRID_AGREE * side,
    )?;
    if m.empty() {
        return Ok(None);
    }
    Ok(Some(homography_of(&m)?))
}

/// Cell `pos`'s corners (NW, NE, SE, SW) on a `grid` from [`board_grid`].
pub(super) fn grid_cell(grid: &[[f64; 3]; 3], pos: Pos) -> Quad {
    [(0, 0), (1, 0), (1, 1), (0, 1)]
        .map(|(dx, dy)| apply_homography(grid, [f64::from(pos.x + dx), f64::from(pos.y + dy)]))
}

/// Fewest tiles (the start tile included) [`board_grid`] fits a grid to.
const GRID_TILES: usize = 6;

/// How near (share of a side) a corner must lie to the board's grid to count for it: tiles lie
/// up to some 0.09 of a side off their cells.
const GRID_AGREE: f64 = 0.08;

/// How far (share of a side) a tile may lie from where its final neighbours predict it before
/// [`settle`] cuts it again: tiles lie a few millimetres off their cells, some 0.05 of a side.
const SETTLE_OFF: f64 = 0.05;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::catalogue;
    use crate::vision::rectify::tests::square;

    #[test]
    fn the_board_s_grid_follows_the_tiles_that_agree_and_not_one_found_far_off() {
        // Twelve tiles of 100 pixels on a grid seen from above; one found 30 pixels off.
        let mut found: BTreeMap<Pos, Quad> = (0..4)
            .flat_map(|x| (0..3).map(move |y| (x, y)))
            .map(|(x, y)| {
                let quad = square(f64::from(x) * 100.0 + 50.0, f64::from(y) * 100.0 + 20.0);
                (Pos::new(x, y), quad)
            })
            .collect();
        found.insert(Pos::new(2, 1), square(280.0, 120.0));
        let grid = board_grid(&found).unwrap().unwrap();
        for (x, y) in [(2, 1), (0, 0), (4, 3)] {
            let at = apply_homography(&grid, [f64::from(x), f64::from(y)]);
            let truth = [f64::from(x) * 100.0 + 50.0, f64::from(y) * 100.0 + 20.0];
            assert!(
                (at[0] - truth[0]).hypot(at[1] - truth[1]) < 0.5,
                "({x}, {y}) at {at:?}"
            );
        }
        // Too few tiles to tell the board's grid.
        let few: BTreeMap<Pos, Quad> = found.into_iter().take(GRID_TILES - 1).collect();
        assert_eq!(board_grid(&few).unwrap(), None);
    }

    #[test]
    fn the_grid_s_cell_may_not_wall_a_tile_in_but_may_set_a_walled_in_one_free() {
        let read = |name: &str, rot: Rotation| {
            vec![Candidate {
                tile: catalogue().tile_id(name).unwrap(),
                rot,
                probability: 0.9,
            }]
        };
        // City on three sides, then all city: the cut took in the table or a neighbour's city.
        assert!(walled_in(
            &read("R", Rotation::R180),
            &read("C", Rotation::R0)
        ));
        assert!(walled_in(
            &read("S", Rotation::R90),
            &read("C", Rotation::R270)
        ));
        // All city, then three sides: the first cut lay off its tile.
        assert!(!walled_in(
            &read("C", Rotation::R0),
            &read("R", Rotation::R0)
        ));
        // Neither all city, or both.
        assert!(!walled_in(
            &read("R", Rotation::R0),
            &read("T", Rotation::R0)
        ));
        assert!(!walled_in(
            &read("C", Rotation::R0),
            &read("C", Rotation::R90)
        ));
        assert!(!walled_in(&[], &[]));
    }

    #[test]
    fn a_tile_is_cut_again_where_unsure_or_a_little_unsure_of_its_roads_and_cities() {
        let reading = |cands: &[(&str, Rotation, f64)]| -> Vec<Candidate> {
            cands
                .iter()
                .map(|&(name, rot, probability)| Candidate {
                    tile: catalogue().tile_id(name).unwrap(),
                    rot,
                    probability,
                })
                .collect()
        };
        // City on three sides with or without a road on the fourth: a road stub a figure hides.
        assert!(worth_polishing(&reading(&[
            ("R", Rotation::R90, 0.95),
            ("T", Rotation::R90, 0.05)
        ])));
        // The same two readings, the likelier sure enough.
        assert!(!worth_polishing(&reading(&[
            ("R", Rotation::R90, 0.995),
            ("T", Rotation::R90, 0.005)
        ])));
        // A pennant, or which way round the city across the tile lies: the sides show the same,
        // so only a reading much less sure is cut again.
        assert!(!worth_polishing(&reading(&[
            ("M", Rotation::R90, 0.95),
            ("N", Rotation::R90, 0.05)
        ])));
        assert!(!worth_polishing(&reading(&[
            ("F", Rotation::R0, 0.95),
            ("F", Rotation::R180, 0.04),
            ("E", Rotation::R0, 0.001)
        ])));
        assert!(worth_polishing(&reading(&[
            ("M", Rotation::R90, 0.52),
            ("N", Rotation::R90, 0.48)
        ])));
        // A third reading counts where it is likely enough.
        assert!(worth_polishing(&reading(&[
            ("M", Rotation::R0, 0.93),
            ("N", Rotation::R0, 0.05),
            ("P", Rotation::R0, 0.02)
        ])));
    }

    #[test]
    fn a_cut_is_nudged_one_side_at_a_time_and_turned_about_its_middle() {
        let square: Quad = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
        let cuts = nudged(&square);
        assert_eq!(cuts.len(), 10);
        let (d, e) = (100.0 * NUDGE, 100.0 - 100.0 * NUDGE);
        let near =
            |a: &Quad, b: Quad| (0..4).all(|k| (0..2).all(|i| (a[k][i] - b[k][i]).abs() < 1e-9));
        // The north side out: its corners move north, the south ones stay.
        assert!(near(
            &cuts[0],
            [[0.0, -d], [100.0, -d], [100.0, 100.0], [0.0, 100.0]]
        ));
        // The east side in; the south side out; the west side in.
        assert!(near(
            &cuts[3],
            [[0.0, 0.0], [e, 0.0], [e, 100.0], [0.0, 100.0]]
        ));
        assert!(near(
            &cuts[4],
            [
                [0.0, 0.0],
                [100.0, 0.0],
                [100.0, 100.0 + d],
                [0.0, 100.0 + d]
            ]
        ));
        assert!(near(
            &cuts[7],
            [[d, 0.0], [100.0, 0.0], [100.0, 100.0], [d, 100.0]]
        ));
        for turned in &cuts[8..] {
            assert!((middle(turned)[0] - 50.0).abs() < 1e-9);
            assert!((side_px(turned) - 100.0).abs() < 1e-6);
            let tilt = (turned[1][1] - turned[0][1]).atan2(turned[1][0] - turned[0][0]);
            assert!((tilt.to_degrees().abs() - NUDGE_TURN_DEG).abs() < 1e-9);
        }
    }
}

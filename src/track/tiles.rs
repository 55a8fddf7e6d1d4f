//! New tiles: read on the frontier among the placements the rules allow, asked about when
//! unsure, and read again while their turn is open.

use opencv::core::Mat;
use opencv::prelude::*;

use super::change::{
    alignments, cell_middle, cell_middle_shifted, changed_share, changed_share_outside,
    texture_changed,
};
use super::doubts::ShieldDoubt;
use super::revise::KEPT;
use super::{Event, Tracker};
use crate::record::TurnEntry;
use crate::rules::{catalogue, Dir, EdgeKind, Placement, Pos, Rotation, TileId};
use crate::sim::camera::apply_homography;
use crate::vision::colours::ColourModel;
use crate::vision::figures::FIGURE_SHARE;
use crate::vision::locate::{in_view, MIN_FIT};
use crate::vision::predict::predict;
use crate::vision::prints::{LearnedPrints, Print};
use crate::vision::rectify::{
    middle, moved_like, out_of_view, quad_homography, quad_patch, shifted_quad, side_px, unseen,
    Quad, MARGIN_PX,
};
use crate::vision::snap::snap_to_edges;
use crate::vision::table::{looks_empty, table_like};
use crate::vision::terrain::{differ_by_shields, same_for_the_rules};
use crate::vision::tile::{Candidate, CutMasks};

/// Readings tried when the open tile is read again.
const RE_READ_CANDIDATES: usize = 3;
/// How much likelier than the committed reading a new one must be to replace it.
const RE_READ_MARGIN: f64 = 3.0;
/// How far (in tiles) a cell is cut again to each side when no tile fits where the grid
/// predicts one.
const GAP_SEARCH: f64 = 0.15;
/// How much likelier than the runner-up a tile's reading must be to be committed without
/// asking the players.
const SURE_MARGIN: f64 = 3.0;
/// Cuts of a cell (as predicted, snapped to edges) fitting this nearly as well as the best one
/// whose readings differ leave the reading in doubt: a snap drawn to a strong print line can
/// move the cut onto the next tile's likeness. (At 0.02, eval track seeds 6100, 7300, 900 and
/// 8100 asked 9 questions more, about tiles the better fit had read right each time.)
const NEARLY_AS_GOOD_FIT: f64 = 0.004;
/// A cut whose likeliest reading the rules allow is less likely than this may have missed the
/// tile: the cell is cut again around it.
const UNEXPLAINED: f64 = 1e-3;

/// The most share of a tile found in a cut that may look like the table before the cut is taken
/// to be off its tile (a tile laid a fifth of a tile off the grid, its cut reading the table
/// beside it as city): the cell is then cut again around it. Many editions print cities about
/// as dark as some tables, so a tile found where it lies may show more.
const TABLE_IN_TILE: f64 = 0.1;
/// How much a cut's fit counts for less per share of its tile that looks like the table: a cut
/// slid off its tile onto a dark table reads the table as city and may fit as well as the cut
/// on the tile (art 4848 game 2: R's cut at −0.141 with a third "table", a cut reading C at
/// −0.130 with three fifths).
const TABLE_WEIGHT: f64 = 0.1;
/// Samples across a tile (each way) where the table is looked for.
const TABLE_SAMPLES: i32 = 12;
/// How much better than the best cut so far a cut made again around a cell (its best cut off
/// its tile) must fit to win it.
const AGAIN_MARGIN: f64 = 0.03;
/// How many times a cell is cut again around a tile found at the edge of the shift search.
const FOLLOW_SHIFTS: usize = 2;
/// How many cuts whose tile was found at the edge of the shift search are followed.
const FOLLOWED_CUTS: usize = 2;
/// The least fit of a tile found by following the shift search: a tile laid with a gap fits
/// well once the cut is on it (−0.2 to −0.4); a cut that wandered onto a tile laid in the
/// next cell in the same pause fits it poorly (seed 4400 game 18: −0.68, read as C).
const FOLLOWED_MIN_FIT: f64 = -0.5;

/// The sides of a cut towards which `shift` (patch pixels) reaches the edge of the search.
fn search_edges(shift: [f64; 2]) -> impl Iterator<Item = Dir> {
    let reach = f64::from(MARGIN_PX) - 1.0;
    [
        (shift[1] <= -reach, Dir::N),
        (shift[0] >= reach, Dir::E),
        (shift[1] >= reach, Dir::S),
        (shift[0] <= -reach, Dir::W),
    ]
    .into_iter()
    .filter_map(|(edge, d)| edge.then_some(d))
}

/// How much larger or smaller than the start tile a cell seen from above may be predicted
/// before it is also cut as large as the start tile ([`as_large_as`]): a view tilted a little
/// makes cells a few % larger or smaller across the board.
const SIZE_DRIFT: f64 = 0.05;

/// How far apart (pixels, the most of any corner) two cuts of a cell must be to be read both.
const APART_PX: f64 = 2.0;

/// The most any corner of `a` lies from its counterpart in `b` (pixels).
pub(super) fn corner_distance(a: &Quad, b: &Quad) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]))
        .fold(0.0, f64::max)
}

/// Share of a frontier cell's middle that may change between quiet pictures with nothing new
/// there (a neighbour's figure rising into it, its shadow): a change between this and
/// [`super::NEW_TILE_CHANGE`] (a tile printed much like the table) is read.
const SLIGHT_CHANGE: f64 = 0.12;

/// Share of a cell's pixels outside its figures that may differ between a glimpse of it and
/// the still picture for the glimpse to have shown it unhidden (noise and light: a few %).
pub(super) const GLIMPSE_ALIKE: f64 = 0.1;

/// The least chance the reading of a tile under a figure must give what a glimpse of it bare
/// shows for the glimpse to be believed. The covered reading is often sure and wrong where a
/// figure stands on a road or a cloister (its base reads as a road's end: 1e-4 to 4e-3 for the
/// tile glimpsed), while a hand over the cell in a glimpse, read as a city, is ruled out far
/// more surely (below 2e-6: seeds 6100, 7300, 1100).
const BARE_NOT_RULED_OUT: f64 = 1e-5;

/// Whether `ranked` gives `reading` (or a turn of it the rules cannot tell apart) at least
/// [`BARE_NOT_RULED_OUT`].
fn not_ruled_out(ranked: &[Candidate], reading: &Candidate) -> bool {
    ranked.iter().any(|c| {
        c.tile == reading.tile
            && same_for_the_rules(c.tile, c.rot, reading.rot)
            && c.probability >= BARE_NOT_RULED_OUT
    })
}

/// How much likelier a reading of a tile under a figure must be than the same tile with (or
/// without) a shield for no question to be asked.
const HIDDEN_SHIELD_MARGIN: f64 = 8.0;

/// How far a figure's shadow reaches beyond it (patch pixels): left out.
const SHADOW_PX: i32 = 4;
/// How far a long shadow may reach beyond a figure (patch pixels, a third of a tile, from
/// a low light): there a pixel only darkened is no change.
const SHADE_REACH_PX: i32 = 20;

/// Share of a frontier cell's pixels that changed since it was seen empty above which it
/// surely holds something new (a hand is never in a still picture): its tile is then taken at
/// a looser fit, [`WHOLLY_CHANGED_MIN_FIT`] (a speckled print of a tile all city fits its
/// template less well than most).
const WHOLLY_CHANGED: f64 = 0.8;
/// The least fit of a tile in a wholly changed cell.
const WHOLLY_CHANGED_MIN_FIT: f64 = -0.9;

/// Share of a cell's pixels that changed between a glimpse of it (`before`) and its patch
/// `now` (both cut with [`MARGIN_PX`] around the cell), leaving out the figures of `now`'s
/// figure `mask` and their shadows, where the two line up best (the glimpse may have caught
/// the tile held a little above its cell): stops at the first alignment showing the cell
/// alike.
pub(super) fn changed_but_figures(before: &Mat, now: &Mat, mask: &Mat) -> opencv::Result<f64> {
    let hidden = cell_middle(&crate::sim::effects::grow_mask(mask, SHADOW_PX)?)?;
    let shaded = cell_middle(&crate::sim::effects::grow_mask(mask, SHADE_REACH_PX)?)?;
    let now = cell_middle(now)?;
    let mut least = f64::MAX;
    for shift in alignments() {
        let then = cell_middle_shifted(before, shift)?;
        let share = changed_share_outside(&then, &now, Some(&hidden), Some(&shaded))?;
        least = least.min(share);
        if least <= GLIMPSE_ALIKE {
            break;
        }
    }
    Ok(least)
}

/// A tile read in a cell.
pub(super) struct Reading {
    /// Candidates, likeliest first.
    pub(super) ranked: Vec<crate::vision::tile::Candidate>,
    /// Where in the patch it was found (pixels from the centred cut).
    shift: [f64; 2],
    /// How well the best candidate fits.
    pub(super) fit: f64,
    /// Picture to patch.
    to_patch: [[f64; 3]; 3],
    /// The likeliest legal reading of another cut of the cell that fits nearly as well and
    /// tells a different tile.
    rival: Option<Candidate>,
    /// The tile's print where it was found.
    print: Print,
}

/// A cell cut out of the picture for reading.
pub(super) struct Cut {
    /// The patch, with [`MARGIN_PX`] around the cell.
    patch: Mat,
    /// Picture to patch.
    to_patch: [[f64; 3]; 3],
    /// The figures in it (255).
    figures: Mat,
    /// The part of it outside the picture (255), if any.
    out_of_view: Option<Mat>,
}

impl Cut {
    /// Whether figures, or the picture's edge, hide some of the cell.
    pub(super) fn covered(&self) -> opencv::Result<bool> {
        Ok(self.out_of_view.is_some() || opencv::core::count_non_zero(&self.figures)? > 0)
    }

    /// The pixels not seen (255): under figures or outside the picture.
    fn unseen(&self) -> opencv::Result<Mat> {
        let both = unseen(Some(&self.figures), self.out_of_view.as_ref())?;
        both.map_or_else(|| self.figures.try_clone(), Ok)
    }
}

impl Reading {
    /// Where in the picture the tile was found.
    fn located(&self) -> Quad {
        shifted_quad(&self.to_patch, MARGIN_PX, self.shift)
    }
}

/// Whether `tile` is city up to all four edges.
fn all_city(tile: TileId) -> bool {
    let t = catalogue().tile(tile);
    Dir::ALL
        .iter()
        .all(|&d| t.edge(d, Rotation::R0) == EdgeKind::City)
}

/// Whether the likeliest reading of `r` is a tile all city (as a cut slid onto a city reads).
fn all_city_read(r: &Reading) -> bool {
    r.ranked.first().is_some_and(|c| all_city(c.tile))
}

/// A cell predicted at `quad`, in a view from above, grown or shrunk about its middle to the
/// size of the `start` tile, when the two differ by more than [`SIZE_DRIFT`]: seen from
/// above, cells are about as large everywhere, and a grid continued from a few tiles may
/// drift smaller or larger (a tenth, `eval track --art` seed 4848 game 5), so that its cut
/// misses a road's end at the tile's side.
fn as_large_as(quad: &Quad, start: &Quad) -> Option<Quad> {
    let factor = side_px(start) / side_px(quad).max(1.0);
    let middle = middle(quad);
    ((factor - 1.0).abs() > SIZE_DRIFT)
        .then(|| quad.map(|p| [0, 1].map(|k| middle[k] + (p[k] - middle[k]) * factor)))
}

/// `quad` moved by `offset` (in tiles, along its own sides).
fn offset_quad(quad: &Quad, offset: [f64; 2]) -> Quad {
    let along = |a: usize, b: usize, k: usize| (quad[b][k] - quad[a][k]) * 0.5;
    // Mean side vectors: east (0→1, 3→2) and south (0→3, 1→2).
    let east = [
        along(0, 1, 0) + along(3, 2, 0),
        along(0, 1, 1) + along(3, 2, 1),
    ];
    let south = [
        along(0, 3, 0) + along(1, 2, 0),
        along(0, 3, 1) + along(1, 2, 1),
    ];
    quad.map(|p| {
        [
            p[0] + offset[0] * east[0] + offset[1] * south[0],
            p[1] + offset[0] * east[1] + offset[1] * south[1],
        ]
    })
}

impl Tracker {
    pub(super) fn look_for_tile(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let Some(calib) = &self.calibration else {
            return Ok(Vec::new());
        };
        let (model, table) = (calib.colours.clone(), calib.table);
        let cat = catalogue();
        type Key = (std::cmp::Reverse<u64>, f64);
        // Another reading to ask about, and whether it differs only by a shield a figure hides.
        type Doubt = Option<(crate::rules::TileId, Rotation, bool)>;
        // The readings kept (the committed one first) and the tile's print.
        type Kept = (Vec<Candidate>, Print);
        let mut best: Option<(Key, Pos, Placement, Quad, Doubt, Kept)> = None;
        let mut revised = Vec::new();
        let frontier = self.game.board().frontier().to_vec();
        let mut grey = Mat::default();
        opencv::imgproc::cvt_color(frame, &mut grey, opencv::imgproc::COLOR_BGR2GRAY, 0)?;
        for pos in frontier {
            let Some(quad) = self.predicted(pos) else {
                continue;
            };
            if !in_view(&quad, frame) {
                continue;
            }
            let (patch, to_patch) = quad_patch(frame, &quad, MARGIN_PX)?;
            // A cell's look is kept until a tile is seen there: a tile noticed but not committed
            // yet stays new.
            let look = cell_middle(&patch)?;
            // A tile printed much like the table (a city on brown wood) changes the colours
            // little, but brings a texture of its own.
            let mut retextured = false;
            let mut min_fit = MIN_FIT;
            if let Some((before, now)) = self.kept_look_and_now(frame, pos, (&quad, &look))? {
                retextured = texture_changed(before, &now)?;
                let change = changed_share(before, &now)?;
                if change >= WHOLLY_CHANGED {
                    min_fit = WHOLLY_CHANGED_MIN_FIT;
                }
                // A slighter change is a new tile only if the cell no longer looks like the
                // table and a tile fits it (seed 900 game 1: C, all city, on brown wood).
                if change < SLIGHT_CHANGE && !retextured {
                    self.keep_empty_look(pos, quad, look);
                    self.first_changed.remove(&pos);
                    continue;
                }
            }
            let (figures, _) = self.enrolment.find(&patch, &model, FIGURE_SHARE)?;
            let cut = Cut {
                out_of_view: out_of_view(&to_patch, MARGIN_PX, [frame.cols(), frame.rows()])?,
                patch,
                to_patch,
                figures,
            };
            let unseen = cut.unseen()?;
            // Changed but like the table, with the table's texture: a shadow. The empty look is
            // kept (or taken, the first time).
            if !retextured
                && looks_empty(
                    &cut.patch,
                    &model,
                    &table,
                    Some(&cut.figures),
                    cut.out_of_view.as_ref(),
                )?
            {
                if !self.frontier_looks.contains_key(&pos) {
                    self.keep_empty_look(pos, quad, look);
                }
                self.first_changed.remove(&pos);
                continue;
            }
            // With no look kept (the cell opened in this very picture, or never looked empty),
            // a tile came only if the cell changed since the last still picture (a checked
            // cloth can read as a tile).
            if !self.frontier_looks.contains_key(&pos)
                && !self.first_changed.contains_key(&pos)
                && !self.changed_since_read(frame, &quad)?
            {
                continue;
            }
            let since = *self.first_changed.entry(pos).or_insert(self.settled);
            let covered = cut.covered()?;
            // What the tile glimpsed alone since the last still picture is compared with.
            let covered_look = if covered {
                Some(cut.patch.try_clone()?)
            } else {
                None
            };
            let Some(Reading {
                mut ranked,
                shift,
                fit,
                to_patch,
                mut rival,
                print,
            }) = self.read_cell(frame, pos, &quad, cut, (&model, &grey), min_fit)?
            else {
                // Table, shadow or the top of a figure on the next tile: not a tile. (A cell
                // with no look kept is read again only once it changes: seed 3131 game 6.)
                self.first_changed.remove(&pos);
                continue;
            };
            // A figure on it may hide what tells tiles apart (a road's end, a shield): the tile
            // glimpsed alone since the last still picture, while hands moved, reads better if
            // the glimpse shows the cell as now but for the figures, and the reading now does
            // not rule out what it shows (a hand over part of the cell then). Otherwise a
            // shield the figure hides may have been missed (under a hand, or by the reading of
            // the covered tile, which leans on the tiles left): a doubt about one stays unless
            // the reading is very sure.
            // The first glimpse the reading now does not rule out counts. When it rules out
            // every one (a hand over part of the cell then, or, more rarely, the figure
            // misleading the reading now: seed 5300 game 19, K's city), the players are asked.
            let (bare, first_seen) = match &covered_look {
                Some(now) => {
                    let located = shifted_quad(&to_patch, MARGIN_PX, shift);
                    self.bare_reading(pos, (now, &unseen), &located, |t| not_ruled_out(&ranked, t))?
                }
                None => (None, None),
            };
            let contradicted = first_seen.filter(|t| bare.is_none() && self.allows(t, pos));
            let mut shield_doubt = None;
            if covered && bare.is_none() {
                let legal: Vec<&Candidate> =
                    ranked.iter().filter(|c| self.allows(c, pos)).collect();
                if let [top, next, ..] = legal[..] {
                    if differ_by_shields((top.tile, top.rot), (next.tile, next.rot))
                        && top.probability < HIDDEN_SHIELD_MARGIN * next.probability
                    {
                        shield_doubt = Some((*top, *next));
                    }
                }
            }
            // Another cut of the still picture reading another tile nearly as well leaves no
            // doubt when the tile, glimpsed bare, rules that one out.
            if let Some(bare) = bare {
                rival = rival.filter(|r| not_ruled_out(&bare, r));
                ranked = bare;
            }
            // A clear reading the rules forbid because of one misread neighbour corrects it.
            if let Some(top) = ranked.first().filter(|top| !self.allows(top, pos)) {
                let allowed = ranked
                    .iter()
                    .find(|c| self.allows(c, pos))
                    .map_or(0.0, |c| c.probability);
                revised.extend(self.revise_neighbour(pos, top, allowed, frame)?);
            }
            // The likeliest reading the rules allow at this cell.
            let legal = ranked.iter().find(|c| self.allows(c, pos));
            let Some(c) = legal else {
                self.ask(format!(
                    "a tile at ({}, {}) fits no legal reading",
                    pos.x, pos.y
                ));
                continue;
            };
            // A much likelier reading the rules forbid here: the one they allow is a guess.
            let forbidden = ranked
                .first()
                .filter(|top| {
                    !self.allows(top, pos) && c.probability * SURE_MARGIN < top.probability
                })
                .copied();
            // The runner-up the rules can tell apart: when it is nearly as likely, the players
            // are asked (the likelier one is committed meanwhile, to be corrected if wrong).
            let runner_up = ranked.iter().find(|d| {
                (d.tile != c.tile || !same_for_the_rules(d.tile, d.rot, c.rot))
                    && self.allows(d, pos)
            });
            let hidden = shield_doubt.and_then(|(a, b)| {
                (c.tile == a.tile)
                    .then_some(b)
                    .or((c.tile == b.tile).then_some(a))
            });
            let doubt = rival
                .filter(|r| r.tile != c.tile || !same_for_the_rules(r.tile, r.rot, c.rot))
                .or(runner_up
                    .filter(|d| c.probability < SURE_MARGIN * d.probability)
                    .copied())
                .or(hidden)
                .or(contradicted.filter(|d| d.tile != c.tile))
                .or(forbidden)
                .map(|d| {
                    (
                        d.tile,
                        d.rot,
                        covered && differ_by_shields((c.tile, c.rot), (d.tile, d.rot)),
                    )
                });
            // The tile that appeared first was laid first; among those, the best fit.
            let key = (std::cmp::Reverse(since), fit);
            if best.as_ref().is_none_or(|b| key > b.0) {
                let quad = shifted_quad(&to_patch, MARGIN_PX, shift);
                let placement = Placement { pos, rot: c.rot };
                let mut kept = vec![*c];
                kept.extend(ranked.iter().filter(|r| *r != c).take(KEPT - 1));
                best = Some((key, pos, placement, quad, doubt, (kept, print)));
            }
        }
        let Some((_, pos, placement, quad, doubt, (kept, print))) = best else {
            return Ok(revised);
        };
        // A neighbour corrected while other cells were read may no longer fit this reading:
        // the cell is read again at the next still picture.
        if !self.allows(&kept[0], pos) {
            return Ok(revised);
        }
        let tile = kept[0].tile;
        let mut events = revised;
        // A doubt about a shield a figure hides waits for a picture that shows it.
        let (doubt, shield_doubt) = match doubt {
            Some((tile, rot, true)) => (
                None,
                Some(Candidate {
                    tile,
                    rot,
                    probability: 0.0,
                }),
            ),
            Some((tile, rot, false)) => (Some((tile, rot)), None),
            None => (None, None),
        };
        if let Some((other, other_rot)) = doubt {
            let q = format!(
                "is the tile at ({}, {}) {} turned {}° or {} turned {}°?",
                pos.x,
                pos.y,
                cat.tile(tile).name,
                placement.rot.degrees(),
                cat.tile(other).name,
                other_rot.degrees()
            );
            self.ask(q.clone());
            events.push(Event::Question(q));
        }
        self.first_changed.remove(&pos);
        self.close_turn()?;
        self.game.place(tile, placement)?;
        self.quads.insert(pos, quad);
        if let Some(other) = shield_doubt {
            self.shield_doubts.push(ShieldDoubt { pos, other });
        }
        self.open_look = Some((pos, quad_patch(frame, &quad, MARGIN_PX)?.0));
        self.readings.insert(pos, kept);
        self.learn_print(pos, print);
        self.bare.remove(&pos);
        // The cells this tile opens: remember how they look now, before anything lands there
        // (unless something already has: the next player's tile, laid before the table was
        // still, is read in this same picture).
        self.remember_empty_looks(frame, pos, false)?;
        let name = cat.tile(tile).name.clone();
        self.open = Some(TurnEntry {
            player: Some(
                self.players[self.game.current_player().index()]
                    .name
                    .clone(),
            ),
            tile: name.clone(),
            at: Some(pos),
            rot: Some(placement.rot.degrees()),
            follower: None,
            flock: Vec::new(),
            extra: None,
            discard: false,
            wheel: None,
        });
        events.insert(
            0,
            Event::Tile {
                pos,
                tile: name,
                rot: placement.rot.degrees(),
            },
        );
        Ok(events)
    }

    /// Remembers how the empty cells next to `pos` look in `frame`, so that a tile laid there
    /// later shows as a change. Unless `known_empty` (the setup picture, showing the start tile
    /// alone), only cells that look like the table count.
    pub(super) fn remember_empty_looks(
        &mut self,
        frame: &Mat,
        pos: Pos,
        known_empty: bool,
    ) -> anyhow::Result<()> {
        let Some(calib) = &self.calibration else {
            return Ok(());
        };
        let (model, table) = (calib.colours.clone(), calib.table);
        for d in Dir::ALL {
            let next = pos.step(d);
            if self.game.board().is_occupied(next) || self.frontier_looks.contains_key(&next) {
                continue;
            }
            let Some(q) = self.predicted(next).filter(|q| in_view(q, frame)) else {
                continue;
            };
            let (patch, _) = quad_patch(frame, &q, MARGIN_PX)?;
            let (mask, _) = self.enrolment.find(&patch, &model, FIGURE_SHARE)?;
            if known_empty || looks_empty(&patch, &model, &table, Some(&mask), None)? {
                self.keep_empty_look(next, q, cell_middle(&patch)?);
            }
        }
        Ok(())
    }

    /// Reads a new tile in cell `pos`, cut from `quad` as `cut` (patch, picture to patch,
    /// figure mask). The cell is also read where its corners snap onto the edges the picture
    /// shows (the predicted grid is often a fifth of a tile off far from the start tile), and
    /// where its laid neighbours alone put it; the best fit is kept (a checked cloth has
    /// straight edges too). A tile laid with a gap to
    /// its neighbours lies further off than the recogniser searches, so when nothing fits (or
    /// nothing the rules allow there: the one tile the cut fits is used up), the cell is cut
    /// again a little off towards each empty neighbour (never towards a laid tile:
    /// a figure standing there would read as a tile); and a tile found at the edge of the
    /// recogniser's search, away from laid tiles, is looked for again around where it was found.
    fn read_cell(
        &self,
        frame: &Mat,
        pos: Pos,
        quad: &Quad,
        cut: Cut,
        (model, grey): (&ColourModel, &Mat),
        min_fit: f64,
    ) -> anyhow::Result<Option<Reading>> {
        let mut best: Option<(Reading, f64)> = None;
        let mut tops: Vec<(f64, Candidate)> = Vec::new();
        let board = self.game.board();
        // In perspective the predicted cell has its size: the edges only move it (a strong
        // line inside the tile, a city's wall, can squeeze a cut onto the city alone).
        let snapped = snap_to_edges(grey, quad);
        let pose = self.pose();
        let snapped = if pose.is_some() {
            moved_like(quad, &snapped)
        } else {
            snapped
        };
        let away = Dir::ALL
            .into_iter()
            .filter(|&d| !board.is_occupied(pos.step(d)))
            .map(|d| match d {
                Dir::N => [0.0, -GAP_SEARCH],
                Dir::E => [GAP_SEARCH, 0.0],
                Dir::S => [0.0, GAP_SEARCH],
                Dir::W => [-GAP_SEARCH, 0.0],
            })
            .map(|offset| offset_quad(quad, offset));
        // Tiles laid against their neighbours carry the neighbours' drift off the grid: when
        // neither cut explains the cell, it is cut where its laid neighbours alone put it.
        let along = predict(&self.quads, pos).filter(|q| corner_distance(q, quad) > APART_PX);
        let resized = match pose {
            None => self
                .quads
                .get(&Pos::new(0, 0))
                .and_then(|s| as_large_as(quad, s)),
            Some(_) => None,
        };
        let first_tries = if snapped == *quad { 1 } else { 2 } + usize::from(resized.is_some());
        let tries = std::iter::once(*quad)
            .chain((snapped != *quad).then_some(snapped))
            .chain(resized)
            .chain(along)
            .chain(away);
        let mut cut = Some(cut);
        let mut at_edge = Vec::new();
        let mut off_its_tile = false;
        for (i, moved) in tries.enumerate() {
            let cut = match cut.take() {
                Some(first) => first,
                None if in_view(&moved, frame) => self.cut_cell(frame, &moved, model)?,
                None => continue,
            };
            let r = self.read_cut(cut, model)?;
            // The share of the found tile that looks like the table, worked out once per cut.
            let table = self.table_share(frame, &r.located())?;
            if off_its_tile {
                // Cut again only because the best cut seemed off its tile: a cut wins only if
                // it fits clearly better, shows no more of the table and does not read a city
                // where the best cut read more.
                let Some((b, best_table)) = &best else {
                    continue;
                };
                if r.fit > b.fit + AGAIN_MARGIN
                    && (all_city_read(b) || !all_city_read(&r))
                    && table <= *best_table
                {
                    tops.extend(self.likeliest_legal(&r, pos));
                    best = Some((r, table));
                }
                continue;
            }
            if self.further_off(pos, r.shift) && at_edge.len() < FOLLOWED_CUTS {
                at_edge.push(r.located());
            }
            tops.extend(self.likeliest_legal(&r, pos));
            let score = |r: &Reading, table: f64| r.fit - TABLE_WEIGHT * table;
            if best
                .as_ref()
                .is_none_or(|(b, best_table)| score(&r, table) > score(b, *best_table))
            {
                best = Some((r, table));
            }
            if i + 1 >= first_tries
                && best
                    .as_ref()
                    .is_some_and(|(b, _)| self.explains(b, pos, min_fit))
            {
                // A tile found at the edge of the shift search, or showing the table, may lie
                // further off than the search reaches (art 4848 game 12: I laid a fifth of a
                // tile west, read as E): the cell is cut along its neighbours and away from
                // them too.
                let Some((b, best_table)) = &best else { break };
                if search_edges(b.shift).next().is_none() && *best_table <= TABLE_IN_TILE {
                    break;
                }
                off_its_tile = true;
            }
        }
        let mut best = best.map(|(b, _)| b);
        // Found at the edge of the shift search, the tile may lie further off still (laid
        // with a gap): the cell is cut again around where it was found, while that fits better
        // (only away from laid tiles: a cut moved onto one reads it).
        for mut moved in at_edge {
            let mut last_fit = f64::MIN;
            for _ in 0..FOLLOW_SHIFTS {
                if !in_view(&moved, frame) {
                    break;
                }
                let r = self.read_cut(self.cut_cell(frame, &moved, model)?, model)?;
                if r.fit <= last_fit || r.fit < FOLLOWED_MIN_FIT {
                    break;
                }
                last_fit = r.fit;
                tops.extend(self.likeliest_legal(&r, pos));
                let further = self.further_off(pos, r.shift);
                moved = r.located();
                if best.as_ref().is_none_or(|b| r.fit > b.fit) {
                    best = Some(r);
                }
                if !further {
                    break;
                }
            }
        }
        let Some(mut best) = best.filter(|b| b.fit >= min_fit) else {
            return Ok(None);
        };
        if let Some(top) = best.ranked.iter().find(|c| self.allows(c, pos)) {
            best.rival = tops
                .iter()
                .find(|(fit, c)| {
                    best.fit - fit < NEARLY_AS_GOOD_FIT
                        && (c.tile != top.tile || !same_for_the_rules(c.tile, c.rot, top.rot))
                })
                .map(|(_, c)| *c);
        }
        Ok(Some(best))
    }

    /// The cell of `frame` cut at `quad` (with the shift search's margin).
    pub(super) fn cut_cell(
        &self,
        frame: &Mat,
        quad: &Quad,
        model: &ColourModel,
    ) -> anyhow::Result<Cut> {
        let (patch, to_patch) = quad_patch(frame, quad, MARGIN_PX)?;
        let (figures, _) = self.enrolment.find(&patch, model, FIGURE_SHARE)?;
        Ok(Cut {
            out_of_view: out_of_view(&to_patch, MARGIN_PX, [frame.cols(), frame.rows()])?,
            patch,
            to_patch,
            figures,
        })
    }

    /// The tile in a cut.
    pub(super) fn read_cut(&self, cut: Cut, model: &ColourModel) -> anyhow::Result<Reading> {
        let (mut ranked, shift, found_at) = self.recognizer.recognize_in_view(
            &cut.patch,
            MARGIN_PX as usize,
            model,
            CutMasks {
                figures: Some(&cut.figures),
                out_of_view: cut.out_of_view.as_ref(),
                ..CutMasks::default()
            },
            Some(side_px(&shifted_quad(&cut.to_patch, MARGIN_PX, [0.0, 0.0]))),
            None,
        )?;
        // A doubtful reading weighed by the prints of the tiles laid so far.
        let unseen = unseen(Some(&cut.figures), cut.out_of_view.as_ref())?;
        let print = Print::found_in(&cut.patch, MARGIN_PX as usize, shift, unseen.as_ref())?;
        self.learned.reweigh(&print, &mut ranked);
        let to_patch = cut.to_patch;
        Ok(Reading {
            ranked,
            shift,
            fit: found_at.fit,
            to_patch,
            rival: None,
            print,
        })
    }

    /// Keeps the `print` of the tile laid at `pos` (unless an earlier picture showed more of
    /// it), and learns again what each type's print looks like from the laid tiles read surely.
    fn learn_print(&mut self, pos: Pos, print: Print) {
        if self
            .prints
            .get(&pos)
            .is_none_or(|p| p.seen_share() <= print.seen_share())
        {
            self.prints.insert(pos, print);
        }
        let laid = self
            .readings
            .iter()
            .filter_map(|(p, ranked)| Some((self.prints.get(p)?, &ranked[..])));
        self.learned = LearnedPrints::learn(laid, []);
    }

    /// The likeliest reading of `r` the rules allow at `pos`, with how well the cut fits.
    fn likeliest_legal(&self, r: &Reading, pos: Pos) -> Option<(f64, Candidate)> {
        r.ranked
            .iter()
            .find(|c| self.allows(c, pos))
            .map(|c| (r.fit, *c))
    }

    /// Whether a tile found at `shift` in a cut of cell `pos` may lie further off than the
    /// shift search reaches: it reaches the edge, towards no laid tile.
    fn further_off(&self, pos: Pos, shift: [f64; 2]) -> bool {
        let mut towards = search_edges(shift).peekable();
        towards.peek().is_some() && towards.all(|d| !self.game.board().is_occupied(pos.step(d)))
    }

    /// The share of a tile found at `quad` (sampled inside its rim) that looks like the table
    /// the calibration saw: a cut off its tile reads the table beside it as terrain.
    fn table_share(&self, frame: &Mat, quad: &Quad) -> anyhow::Result<f64> {
        let Some(calib) = &self.calibration else {
            return Ok(0.0);
        };
        let h = quad_homography(quad)?;
        let (mut on, mut all) = (0usize, 0usize);
        for gy in 1..TABLE_SAMPLES {
            for gx in 1..TABLE_SAMPLES {
                let g = [gx, gy].map(|v| f64::from(v) / f64::from(TABLE_SAMPLES));
                let [x, y] = apply_homography(&h, g).map(|v| v.round() as i32);
                if x < 0 || y < 0 || x >= frame.cols() || y >= frame.rows() {
                    continue;
                }
                all += 1;
                let p = frame.at_2d::<opencv::core::Vec3b>(y, x)?.0;
                on += usize::from(table_like(p, &calib.table));
            }
        }
        Ok(on as f64 / all.max(1) as f64)
    }

    /// Whether reading `r` fits as a tile and some reading the rules allow at `pos` is not
    /// unlikely: otherwise the cut may have missed the tile.
    /// A reading of a tile all city never settles it: any cut that slid onto a city reads so
    /// (seed 6100 game 16: R cut a tenth of a tile south, its field left out, read as C).
    fn explains(&self, r: &Reading, pos: Pos, min_fit: f64) -> bool {
        r.fit >= min_fit
            && r.ranked
                .iter()
                .find(|c| self.allows(c, pos))
                .is_some_and(|c| c.probability >= UNEXPLAINED && !all_city(c.tile))
    }

    /// Reads the tile of the open turn again in a later still picture (a hand's shadow or a
    /// half-lifted arm can spoil the first read): if a different reading the rules allow is
    /// clearly likelier than the committed one, both pictures taken together, the turn is
    /// corrected.
    pub(super) fn reread_open_tile(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let (Some(open), Some(calib)) = (self.open.clone(), &self.calibration) else {
            return Ok(Vec::new());
        };
        let (Some(pos), Some(rot)) = (open.at, open.rot) else {
            return Ok(Vec::new());
        };
        let Some(quad) = self.quads.get(&pos).copied() else {
            return Ok(Vec::new());
        };
        let model = calib.colours.clone();
        let Reading {
            ranked,
            shift,
            fit,
            to_patch,
            print,
            ..
        } = self.read_cut(self.cut_cell(frame, &quad, &model)?, &model)?;
        if fit < MIN_FIT {
            return Ok(Vec::new());
        }
        let cat = catalogue();
        let same = |c: &crate::vision::tile::Candidate| {
            cat.tile(c.tile).name == open.tile && c.rot.degrees() == rot
        };
        // The earlier reading counts too: it may have seen what a figure now covers.
        let earlier = self.readings.get(&pos).cloned().unwrap_or_default();
        let floor = earlier.iter().map(|c| c.probability).fold(1.0, f64::min);
        let both = |c: &Candidate| {
            let before = earlier
                .iter()
                .find(|e| e.tile == c.tile && e.rot == c.rot)
                .map_or(floor, |e| e.probability);
            c.probability * before
        };
        let now = ranked.iter().find(|c| same(c)).map_or(0.0, both);
        let mut turns = self.turns();
        for c in ranked.iter().take(RE_READ_CANDIDATES) {
            if same(c) {
                break;
            }
            if both(c) < RE_READ_MARGIN * now {
                continue;
            }
            let mut entry = open.clone();
            entry.tile = cat.tile(c.tile).name.clone();
            entry.rot = Some(c.rot.degrees());
            entry.follower = None;
            let last = turns.len() - 1;
            turns[last] = entry.clone();
            if self.rebuild(turns.clone()).is_err() {
                continue;
            }
            self.quads
                .insert(pos, shifted_quad(&to_patch, MARGIN_PX, shift));
            let mut kept = vec![*c];
            kept.extend(ranked.iter().filter(|r| *r != c).take(KEPT - 1));
            self.readings.insert(pos, kept);
            self.learn_print(pos, print.clone());
            let mut events = vec![Event::Tile {
                pos,
                tile: entry.tile,
                rot: c.rot.degrees(),
            }];
            // The follower already down is placed again on the new reading.
            if let Some(before) = open.follower {
                events.extend(self.follower_again(frame, pos, before)?);
            }
            return Ok(events);
        }
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Rect, Scalar, CV_8UC1, CV_8UC3};
    use opencv::imgproc::{circle, rectangle, FILLED, LINE_8};

    /// An 80-pixel cell patch: green field with a grey road across.
    fn cell() -> Mat {
        cell_with_road_at(34)
    }

    /// An 80-pixel cell patch: green field with a grey road across, its top `y` pixels down.
    fn cell_with_road_at(y: i32) -> Mat {
        let mut patch =
            Mat::new_rows_cols_with_default(80, 80, CV_8UC3, Scalar::new(60.0, 150.0, 80.0, 0.0))
                .unwrap();
        let road = Rect::new(0, y, 80, 12);
        rectangle(&mut patch, road, Scalar::all(200.0), FILLED, LINE_8, 0).unwrap();
        patch
    }

    /// Draws a figure (a blue disc) on `patch` and marks it on `mask`.
    fn figure_on(patch: &mut Mat, mask: &mut Mat) {
        let (at, blue) = (Point::new(40, 40), Scalar::new(200.0, 60.0, 30.0, 0.0));
        circle(patch, at, 9, blue, FILLED, LINE_8, 0).unwrap();
        circle(mask, at, 9, Scalar::all(255.0), FILLED, LINE_8, 0).unwrap();
    }

    #[test]
    fn a_glimpse_differing_only_under_the_figure_shows_the_cell_alike() {
        let glimpse = cell();
        let mut now = cell();
        let mut mask = Mat::new_rows_cols_with_default(80, 80, CV_8UC1, Scalar::all(0.0)).unwrap();
        figure_on(&mut now, &mut mask);
        let change = changed_but_figures(&glimpse, &now, &mask).unwrap();
        assert!(change <= GLIMPSE_ALIKE, "{change}");
    }

    #[test]
    fn a_glimpse_of_the_tile_held_a_little_above_its_cell_shows_it_alike() {
        // Glimpsed held over the cell before it was dropped: the road 6 pixels higher.
        let glimpse = cell_with_road_at(28);
        let mut now = cell();
        let mut mask = Mat::new_rows_cols_with_default(80, 80, CV_8UC1, Scalar::all(0.0)).unwrap();
        figure_on(&mut now, &mut mask);
        let change = changed_but_figures(&glimpse, &now, &mask).unwrap();
        assert!(change <= GLIMPSE_ALIKE, "{change}");
    }

    #[test]
    fn a_glimpse_with_a_hand_over_part_of_the_cell_does_not_show_it_alike() {
        // A hand over the cell's north-western quarter when glimpsed.
        let mut glimpse = cell();
        let skin = Scalar::new(150.0, 180.0, 225.0, 0.0);
        rectangle(
            &mut glimpse,
            Rect::new(0, 0, 40, 40),
            skin,
            FILLED,
            LINE_8,
            0,
        )
        .unwrap();
        let mut now = cell();
        let mut mask = Mat::new_rows_cols_with_default(80, 80, CV_8UC1, Scalar::all(0.0)).unwrap();
        figure_on(&mut now, &mut mask);
        let change = changed_but_figures(&glimpse, &now, &mask).unwrap();
        assert!(change > GLIMPSE_ALIKE, "{change}");
    }

    #[test]
    fn a_cell_predicted_a_tenth_smaller_than_the_start_tile_is_also_cut_as_large() {
        let square = |x: f64, y: f64, side: f64| -> Quad {
            [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]
        };
        let start = square(500.0, 300.0, 72.0);
        // Predicted 66 pixels wide where the tiles are 72: cut again 72 wide, about the same
        // middle.
        let grown = as_large_as(&square(820.0, 400.0, 66.0), &start).expect("cut again");
        for (p, q) in grown.iter().zip(square(817.0, 397.0, 72.0)) {
            assert!(
                (p[0] - q[0]).abs() < 1e-9 && (p[1] - q[1]).abs() < 1e-9,
                "{grown:?}"
            );
        }
        // A few % off, as a slightly tilted view makes far cells: cut as predicted only.
        assert_eq!(as_large_as(&square(820.0, 400.0, 70.0), &start), None);
        assert_eq!(as_large_as(&square(820.0, 400.0, 74.0), &start), None);
    }
}

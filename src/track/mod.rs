//! The tracker: turns a stream of camera frames into rules-consistent game events.
//!
//! Each frame is compared with the previous one at low resolution; only after a few quiet frames
//! (no hand moving) is the picture read. The first quiet picture registers the table from the
//! start tile. After that, every quiet picture is checked for a new tile on the frontier — read
//! among the placements the rules allow there — and for the current player's follower on the tile
//! just laid. Nothing illegal is ever committed; what cannot be read is listed as a question.

pub mod eval;
mod grid;
pub mod session;

use std::collections::HashMap;

use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::record::{turn_of, FollowerEntry, PlayerEntry, Record, TurnEntry, FORMAT_VERSION};
use crate::rules::{
    catalogue, Dir, Figure, Game, Placement, Pos, Rotation, RuleOptions, Setup, Turn,
};
use crate::sim::figures::colour_bgr;
use crate::vision::calibration::Calibration;
use crate::vision::figures::Enrolment;
use crate::vision::locate::{
    find_start_tile, inside, looks_empty, predict, predict_fitted, table_colours_near, MIN_FIT,
};
use crate::vision::figures::Blob;
use crate::vision::meeples::{read_followers, FollowerRead};
use crate::vision::rectify::{quad_patch, shifted_quad, Quad, MARGIN_PX};
use crate::vision::terrain::{same_for_the_rules, ColourModel};
use crate::vision::tile::TileRecognizer;

/// Width of the picture motion is measured on.
const MOTION_WIDTH: i32 = 160;
/// Mean grey-level change per pixel above which a frame counts as moving.
const MOTION_LEVEL: f64 = 1.5;
/// Share of a cell's middle that must change between quiet pictures for a new tile there.
const NEW_TILE_CHANGE: f64 = 0.3;
/// Still frames before a picture is read.
const SETTLE_FRAMES: usize = 3;
/// Seconds the table must be still before a picture is read (with a clock).
pub const SETTLE_S: f64 = 0.5;
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
/// Most tiles committed from one quiet picture.
const MAX_TILES_AT_ONCE: usize = 3;

/// Something the tracker noticed.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The table was registered from the start tile.
    Registered,
    /// A tile was laid and committed.
    Tile {
        /// Its cell.
        pos: Pos,
        /// Its type's name.
        tile: String,
        /// Rotation in degrees.
        rot: u16,
    },
    /// The current player's follower was committed on the tile just laid.
    Follower {
        /// A port of its feature.
        port: String,
    },
    /// Something the tracker could not decide: a player must answer.
    Question(String),
}

/// Follows one game.
pub struct Tracker {
    game: Game,
    players: Vec<PlayerEntry>,
    enrolment: Enrolment,
    recognizer: TileRecognizer,
    calibration: Option<Calibration>,
    quads: HashMap<Pos, Quad>,
    previous: Option<Mat>,
    last_settled: Option<Mat>,
    /// Each frontier cell as it looked at the last quiet picture, to tell a new tile from
    /// a shadow or a figure leaning in from the next cell.
    frontier_looks: HashMap<Pos, Mat>,
    quiet: usize,
    /// When the picture last moved (with a clock).
    last_motion_s: Option<f64>,
    /// This still period has been read already.
    read_this_pause: bool,
    /// Tiles whose foreign follower the players were already asked about.
    asked_about: Vec<Pos>,
    /// Quiet pictures read so far (a clock for `first_changed`).
    settled: u64,
    /// When each frontier cell was first seen changed and not yet committed.
    first_changed: HashMap<Pos, u64>,
    turns: Vec<TurnEntry>,
    open: Option<TurnEntry>,
    /// New tiles with a figure on them glimpsed while hands moved, by cell.
    glimpsed: HashMap<Pos, Sighting>,
    questions: Vec<String>,
}

impl Tracker {
    /// A tracker for a base game between `players` (names and colours, in turn order).
    pub fn new(
        players: Vec<PlayerEntry>,
        calibration: Option<Calibration>,
    ) -> anyhow::Result<Tracker> {
        let setup = Setup::new("base", players.len())?;
        let game = Game::new(&setup)?;
        let enrolment = Enrolment::new(
            players
                .iter()
                .map(|p| colour_bgr(p.colour).map(|v| v as f32))
                .collect(),
            55.0,
        );
        let mut quads = HashMap::new();
        if let Some(c) = &calibration {
            quads.insert(Pos::new(0, 0), c.start);
        }
        // The players' colours are checked against the rules' setup here too.
        empty_record(&players).replay_open()?;
        Ok(Tracker {
            game,
            players,
            enrolment,
            recognizer: TileRecognizer::for_set(&setup.tileset),
            calibration,
            quads,
            previous: None,
            last_settled: None,
            frontier_looks: HashMap::new(),
            settled: 0,
            last_motion_s: None,
            read_this_pause: false,
            asked_about: Vec::new(),
            first_changed: HashMap::new(),
            quiet: 0,
            turns: Vec::new(),
            open: None,
            glimpsed: HashMap::new(),
            questions: Vec::new(),
        })
    }

    /// Looks at the next frame.
    /// Looks at the next frame of a source with no clock (one frame after another).
    pub fn feed(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        self.feed_at(frame, None)
    }

    /// Looks at the next frame, taken at `time_s` seconds: a picture is read once the table
    /// has been still for [`SETTLE_FRAMES`] frames and at least [`SETTLE_S`] seconds (so a
    /// hand pausing over the table at 30 frames/s is not read as a tile).
    pub fn feed_at(&mut self, frame: &Mat, time_s: Option<f64>) -> anyhow::Result<Vec<Event>> {
        let mut small = Mat::default();
        let h = (f64::from(frame.rows()) * f64::from(MOTION_WIDTH) / f64::from(frame.cols().max(1)))
            as i32;
        let mut grey = Mat::default();
        imgproc::cvt_color(frame, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
        imgproc::resize(
            &grey,
            &mut small,
            Size::new(MOTION_WIDTH, h.max(1)),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )?;
        let diff = match &self.previous {
            Some(prev) if prev.size()? == small.size()? => {
                let mut diff = Mat::default();
                opencv::core::absdiff(prev, &small, &mut diff)?;
                Some(diff)
            }
            _ => None,
        };
        self.previous = Some(small);
        let moving = match &diff {
            Some(d) => opencv::core::mean(d, &opencv::core::no_array())?[0] > MOTION_LEVEL,
            None => true,
        };
        if moving {
            self.quiet = 0;
            self.last_motion_s = time_s;
            self.read_this_pause = false;
            return match diff {
                Some(d) => self.glimpse(frame, &d),
                None => Ok(Vec::new()),
            };
        }
        self.quiet += 1;
        let long_enough = match (time_s, self.last_motion_s) {
            (Some(now), Some(moved)) => now - moved >= SETTLE_S,
            _ => true,
        };
        if self.read_this_pause || self.quiet < SETTLE_FRAMES || !long_enough {
            return Ok(Vec::new());
        }
        self.read_this_pause = true;
        self.read_settled(frame)
    }

    fn read_settled(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let mut events = Vec::new();
        if self.calibration.is_none() {
            let mut colours = ColourModel::default();
            if let Some(start) =
                find_start_tile(frame, &colours)?.filter(|q| plausible_tile(q, frame))
            {
                let (patch, _) = quad_patch(frame, &start, 0)?;
                colours.calibrate(&patch, "D", Rotation::R0)?;
                self.calibration = Some(Calibration {
                    size: [frame.cols(), frame.rows()],
                    start,
                    table: table_colours_near(frame, &start)?,
                    colours,
                });
                self.quads.insert(Pos::new(0, 0), start);
                events.push(Event::Registered);
            }
            return Ok(events);
        }
        self.follow_camera(frame)?;
        events.extend(self.reread_open_tile(frame)?);
        if let Some(e) = self.look_for_follower(frame)? {
            events.push(e);
        }
        // Several tiles may have appeared since the last quiet picture (one missed under a
        // hand): they are committed in the order they appeared, and the players are asked.
        let mut laid = 0;
        while laid < MAX_TILES_AT_ONCE {
            let found = self.look_for_tile(frame)?;
            if found.is_empty() {
                break;
            }
            laid += 1;
            events.extend(found);
            if let Some(e) = self.look_for_follower(frame)? {
                events.push(e);
            } else if let Some(e) = self.recall_glimpse()? {
                events.push(e);
            }
        }
        if laid > 1 {
            let last = self.turns.len() + usize::from(self.open.is_some());
            let q = format!(
                "{laid} new tiles at once: committed in the order they appeared; check turns {} to {last}",
                last + 1 - laid
            );
            self.ask(q.clone());
            events.push(Event::Question(q));
        }
        self.settled += 1;
        Ok(events)
    }

    /// A bumped camera shifts the whole picture: measure the shift against the last quiet
    /// picture (phase correlation) and move every known tile with it.
    fn follow_camera(&mut self, frame: &Mat) -> anyhow::Result<()> {
        let mut grey = Mat::default();
        imgproc::cvt_color(frame, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
        let mut now = Mat::default();
        grey.convert_to(&mut now, opencv::core::CV_32F, 1.0, 0.0)?;
        if let Some(before) = &self.last_settled {
            if before.size()? == now.size()? {
                let mut response = 0.0f64;
                let shift = imgproc::phase_correlate(
                    before,
                    &now,
                    &opencv::core::no_array(),
                    Some(&mut response),
                )?;
                if response > 0.2 && shift.x.hypot(shift.y) > 1.0 {
                    for quad in self.quads.values_mut() {
                        for p in quad.iter_mut() {
                            p[0] += shift.x;
                            p[1] += shift.y;
                        }
                    }
                }
            }
        }
        self.last_settled = Some(now);
        Ok(())
    }

    /// Where `pos` should lie, from a grid fitted to the tiles seen around it (so one tile
    /// read a little off does not push its neighbours off), or from its neighbours alone.
    fn predicted(&self, pos: Pos) -> Option<Quad> {
        predict_fitted(&self.quads, pos)
            .ok()
            .flatten()
            .or_else(|| predict(&self.quads, pos))
    }

    fn look_for_tile(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let Some(calib) = &self.calibration else {
            return Ok(Vec::new());
        };
        let (model, table) = (calib.colours.clone(), calib.table);
        let cat = catalogue();
        type Key = (std::cmp::Reverse<u64>, f64);
        type Doubt = Option<(crate::rules::TileId, Rotation)>;
        let mut best: Option<(Key, Pos, Placement, crate::rules::TileId, Quad, Doubt)> = None;
        let frontier = self.game.board().frontier().to_vec();
        for pos in frontier {
            let Some(quad) = self.predicted(pos) else {
                continue;
            };
            if !inside(&quad, frame) {
                continue;
            }
            let (patch, to_patch) = quad_patch(frame, &quad, MARGIN_PX)?;
            // A cell's look is kept until a tile is seen there: a tile noticed but not committed
            // yet stays new.
            let look = cell_middle(&patch)?;
            if let Some(before) = self.frontier_looks.get(&pos) {
                if changed_share(before, &look)? < NEW_TILE_CHANGE {
                    self.frontier_looks.insert(pos, look);
                    self.first_changed.remove(&pos);
                    continue;
                }
            }
            let (mask, _) = self.enrolment.find(&patch, &model, 0.03)?;
            if looks_empty(&patch, &model, &table, Some(&mask))? {
                self.frontier_looks.insert(pos, look);
                self.first_changed.remove(&pos);
                continue;
            }
            let since = *self.first_changed.entry(pos).or_insert(self.settled);
            let Some(Reading {
                ranked,
                shift,
                fit,
                to_patch,
            }) = self.read_cell(frame, &quad, (patch, to_patch, mask), &model)?
            else {
                // Table, shadow or the top of a figure on the next tile: not a tile.
                continue;
            };
            // The likeliest reading the rules allow at this cell.
            let legal = ranked.iter().find(|c| {
                let placement = Placement { pos, rot: c.rot };
                self.game.remaining(c.tile) > 0
                    && self.game.legal_placements(c.tile).contains(&placement)
            });
            let Some(c) = legal else {
                self.ask(format!(
                    "a tile at ({}, {}) fits no legal reading",
                    pos.x, pos.y
                ));
                continue;
            };
            // The runner-up the rules can tell apart: when it is nearly as likely, the players
            // are asked (the likelier one is committed meanwhile, to be corrected if wrong).
            let runner_up = ranked.iter().find(|d| {
                (d.tile != c.tile || !same_for_the_rules(d.tile, d.rot, c.rot))
                    && self.game.remaining(d.tile) > 0
                    && self
                        .game
                        .legal_placements(d.tile)
                        .contains(&Placement { pos, rot: d.rot })
            });
            let doubt = runner_up
                .filter(|d| c.probability < SURE_MARGIN * d.probability)
                .map(|d| (d.tile, d.rot));
            // The tile that appeared first was laid first; among those, the best fit.
            let key = (std::cmp::Reverse(since), fit);
            if best.as_ref().is_none_or(|b| key > b.0) {
                let quad = shifted_quad(&to_patch, MARGIN_PX, shift);
                let placement = Placement { pos, rot: c.rot };
                best = Some((key, pos, placement, c.tile, quad, doubt));
            }
        }
        let Some((_, pos, placement, tile, quad, doubt)) = best else {
            return Ok(Vec::new());
        };
        let mut events = Vec::new();
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
        // The cells this tile opens: remember how they look now, before anything lands there.
        for d in Dir::ALL {
            let next = pos.step(d);
            if self.game.board().is_occupied(next) || self.frontier_looks.contains_key(&next) {
                continue;
            }
            if let Some(q) = self.predicted(next) {
                if inside(&q, frame) {
                    let (patch, _) = quad_patch(frame, &q, MARGIN_PX)?;
                    self.frontier_looks.insert(next, cell_middle(&patch)?);
                }
            }
        }
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

    /// Reads a new tile in the cell cut from `quad` as `cut` (patch, picture to patch, figure
    /// mask). A tile laid with a gap to its
    /// neighbours lies further off than the recogniser searches, so when nothing fits where the
    /// grid predicts it, the cell is cut again a little off to each side.
    fn read_cell(
        &self,
        frame: &Mat,
        quad: &Quad,
        cut: (Mat, [[f64; 3]; 3], Mat),
        model: &ColourModel,
    ) -> anyhow::Result<Option<Reading>> {
        let mut best: Option<Reading> = None;
        let offsets = std::iter::once([0.0, 0.0]).chain(
            [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]].map(|d| d.map(|v| v * GAP_SEARCH)),
        );
        let mut cut = Some(cut);
        for offset in offsets {
            let (patch, to_patch, mask) = match cut.take() {
                Some(first) => first,
                None => {
                    let moved = offset_quad(quad, offset);
                    if !inside(&moved, frame) {
                        continue;
                    }
                    let (patch, to_patch) = quad_patch(frame, &moved, MARGIN_PX)?;
                    let (mask, _) = self.enrolment.find(&patch, model, 0.03)?;
                    (patch, to_patch, mask)
                }
            };
            let (ranked, shift, fit) = self.recognizer.recognize_located(
                &patch,
                MARGIN_PX as usize,
                model,
                Some(&mask),
            )?;
            if best.as_ref().is_none_or(|b| fit > b.fit) {
                best = Some(Reading {
                    ranked,
                    shift,
                    fit,
                    to_patch,
                });
            }
            if best.as_ref().is_some_and(|b| b.fit >= MIN_FIT) {
                break;
            }
        }
        Ok(best.filter(|b| b.fit >= MIN_FIT))
    }

    /// Reads the tile of the open turn again in a later still picture (a hand's shadow or a
    /// half-lifted arm can spoil the first read): if a different reading the rules allow is now
    /// clearly likelier than the committed one, the turn is corrected.
    fn reread_open_tile(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
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
        let (patch, to_patch) = quad_patch(frame, &quad, MARGIN_PX)?;
        let (mask, _) = self.enrolment.find(&patch, &model, 0.03)?;
        let (ranked, shift, fit) =
            self.recognizer
                .recognize_located(&patch, MARGIN_PX as usize, &model, Some(&mask))?;
        if fit < MIN_FIT {
            return Ok(Vec::new());
        }
        let cat = catalogue();
        let same = |c: &crate::vision::tile::Candidate| {
            cat.tile(c.tile).name == open.tile && c.rot.degrees() == rot
        };
        let now = ranked
            .iter()
            .find(|c| same(c))
            .map_or(0.0, |c| c.probability);
        let mut turns = self.turns();
        for c in ranked.iter().take(RE_READ_CANDIDATES) {
            if same(c) || c.probability < RE_READ_MARGIN * now {
                break;
            }
            let mut entry = open.clone();
            entry.tile = cat.tile(c.tile).name.clone();
            entry.rot = Some(c.rot.degrees());
            // A follower already down stays if its feature still exists on the new reading.
            let last = turns.len() - 1;
            turns[last] = entry.clone();
            if self.rebuild(turns.clone()).is_err() {
                turns[last].follower = None;
                entry.follower = None;
                if self.rebuild(turns.clone()).is_err() {
                    continue;
                }
            }
            self.quads
                .insert(pos, shifted_quad(&to_patch, MARGIN_PX, shift));
            return Ok(vec![Event::Tile {
                pos,
                tile: entry.tile,
                rot: c.rot.degrees(),
            }]);
        }
        Ok(Vec::new())
    }

    fn look_for_follower(&mut self, frame: &Mat) -> anyhow::Result<Option<Event>> {
        let Some((pos, quad)) = self.open_without_follower() else {
            return Ok(None);
        };
        let Some(calib) = &self.calibration else {
            return Ok(None);
        };
        let (patch, _) = quad_patch(frame, &quad, MARGIN_PX)?;
        let (_, blobs) = self.enrolment.find(&patch, &calib.colours, 0.03)?;
        let reads = self.followers_on(pos, &blobs)?;
        let seat = self.game.current_player().index();
        if let Some(e) = self.deploy_mine(&reads, false)? {
            return Ok(Some(e));
        }
        // Another player's figure on this turn's tile: a tile was probably missed or counted
        // twice, so the turn order is off. Ask, once per tile.
        let spots = self.game.follower_spots();
        let foreign = reads
            .iter()
            .find(|f| f.colour != seat && spots.iter().any(|s| s.ports.contains(f.port)));
        if let (Some(f), false) = (foreign, self.asked_about.contains(&pos)) {
            self.asked_about.push(pos);
            let owner = self.players.get(f.colour).map_or("?", |p| p.name.as_str());
            let whose = &self.players[seat].name;
            let q = format!(
                "{owner}'s follower stands on the tile at ({}, {}), laid in {whose}'s turn: was a tile missed?",
                pos.x, pos.y
            );
            self.ask(q.clone());
            return Ok(Some(Event::Question(q)));
        }
        Ok(None)
    }

    /// Looks at the cells that are still while hands move elsewhere on the table (`diff`: the
    /// change since the previous frame, small). A follower put on a feature its tile completes
    /// is scored and taken back at once, perhaps before the table is ever still: such a
    /// follower is committed from a glimpse on the open tile, or remembered from a glimpse of a
    /// tile not committed yet.
    fn glimpse(&mut self, frame: &Mat, diff: &Mat) -> anyhow::Result<Vec<Event>> {
        if self.calibration.is_none() {
            return Ok(Vec::new());
        }
        let scale = f64::from(diff.cols()) / f64::from(frame.cols().max(1));
        let still = |quad: &Quad| -> opencv::Result<bool> {
            let xs = quad.map(|p| p[0] * scale);
            let ys = quad.map(|p| p[1] * scale);
            let lo = |v: [f64; 4]| v.iter().copied().fold(f64::MAX, f64::min).floor() as i32;
            let hi = |v: [f64; 4]| v.iter().copied().fold(f64::MIN, f64::max).ceil() as i32;
            let (x0, y0) = (lo(xs).max(0), lo(ys).max(0));
            let (x1, y1) = (hi(xs).min(diff.cols()), hi(ys).min(diff.rows()));
            if x1 - x0 < 2 || y1 - y0 < 2 {
                return Ok(false);
            }
            let roi = Mat::roi(diff, opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0))?;
            Ok(opencv::core::mean(&roi, &opencv::core::no_array())?[0] <= MOTION_LEVEL)
        };
        let mut events = Vec::new();
        if let Some((pos, quad)) = self.open_without_follower() {
            if still(&quad)? {
                let reads = self.followers_seen(frame, pos, &quad)?;
                events.extend(self.deploy_mine(&reads, true)?);
            }
        }
        let frontier = self.game.board().frontier().to_vec();
        for pos in frontier {
            let Some(quad) = self.predicted(pos) else {
                continue;
            };
            if inside(&quad, frame) && still(&quad)? {
                if let Some(seen) = self.sighting(frame, pos, &quad)? {
                    self.glimpsed.insert(pos, seen);
                }
            }
        }
        Ok(events)
    }

    /// The followers on the open tile at `pos`, if the tile shows well (no hand over it).
    fn followers_seen(
        &self,
        frame: &Mat,
        pos: Pos,
        quad: &Quad,
    ) -> anyhow::Result<Vec<FollowerRead>> {
        let Some(calib) = &self.calibration else {
            return Ok(Vec::new());
        };
        let (patch, _) = quad_patch(frame, quad, MARGIN_PX)?;
        let (mask, blobs) = self.enrolment.find(&patch, &calib.colours, 0.03)?;
        if blobs.is_empty() {
            return Ok(Vec::new());
        }
        let (_, _, fit) = self.recognizer.recognize_located(
            &patch,
            MARGIN_PX as usize,
            &calib.colours,
            Some(&mask),
        )?;
        if fit < MIN_FIT {
            return Ok(Vec::new());
        }
        self.followers_on(pos, &blobs)
    }

    /// A new tile with a figure on it glimpsed on frontier cell `pos`: its likeliest legal
    /// reading and the followers on it.
    fn sighting(&self, frame: &Mat, pos: Pos, quad: &Quad) -> anyhow::Result<Option<Sighting>> {
        let Some(calib) = &self.calibration else {
            return Ok(None);
        };
        let (patch, _) = quad_patch(frame, quad, MARGIN_PX)?;
        if let Some(before) = self.frontier_looks.get(&pos) {
            if changed_share(before, &cell_middle(&patch)?)? < NEW_TILE_CHANGE {
                return Ok(None);
            }
        }
        let (mask, blobs) = self.enrolment.find(&patch, &calib.colours, 0.03)?;
        if blobs.is_empty() {
            return Ok(None);
        }
        let (ranked, shift, fit) = self.recognizer.recognize_located(
            &patch,
            MARGIN_PX as usize,
            &calib.colours,
            Some(&mask),
        )?;
        if fit < MIN_FIT {
            return Ok(None);
        }
        let Some(c) = ranked.iter().find(|c| {
            self.game.remaining(c.tile) > 0
                && self
                    .game
                    .legal_placements(c.tile)
                    .contains(&Placement { pos, rot: c.rot })
        }) else {
            return Ok(None);
        };
        Ok(Some(Sighting {
            tile: c.tile,
            rot: c.rot,
            followers: read_followers(&blobs, MARGIN_PX, shift, c.tile, c.rot),
            during: self.settled,
        }))
    }

    /// The follower glimpsed on the open tile before it was committed, if the tile was read the
    /// same then and the follower's feature is complete now (scored and taken back, so not on
    /// the still table).
    fn recall_glimpse(&mut self) -> anyhow::Result<Option<Event>> {
        let Some((pos, _)) = self.open_without_follower() else {
            return Ok(None);
        };
        let Some(seen) = self.glimpsed.remove(&pos) else {
            return Ok(None);
        };
        let placed = self.game.board().get(pos).copied();
        let same = placed.is_some_and(|p| p.tile == seen.tile && p.placement.rot == seen.rot);
        if !same || seen.during != self.settled {
            return Ok(None);
        }
        self.deploy_mine(&seen.followers, true)
    }

    /// The open turn's cell and where it lies, while its follower is still to come.
    fn open_without_follower(&self) -> Option<(Pos, Quad)> {
        let open = self.open.as_ref().filter(|o| o.follower.is_none())?;
        let pos = open.at?;
        Some((pos, *self.quads.get(&pos)?))
    }

    /// The followers figure blobs show on the tile at `pos`.
    fn followers_on(&self, pos: Pos, blobs: &[Blob]) -> anyhow::Result<Vec<FollowerRead>> {
        let placed = *self
            .game
            .board()
            .get(pos)
            .ok_or_else(|| anyhow::anyhow!("open tile missing"))?;
        Ok(read_followers(
            blobs,
            MARGIN_PX,
            [0.0, 0.0],
            placed.tile,
            placed.placement.rot,
        ))
    }

    /// Commits the current player's follower among `reads`, if one stands on a free feature
    /// (with `completed_only`, a feature the open tile completes).
    fn deploy_mine(
        &mut self,
        reads: &[FollowerRead],
        completed_only: bool,
    ) -> anyhow::Result<Option<Event>> {
        let Some(pos) = self.open.as_ref().and_then(|o| o.at) else {
            return Ok(None);
        };
        let seat = self.game.current_player().index();
        let spots = self.game.follower_spots();
        let completed = |port| {
            self.game
                .feature_at(pos, port)
                .is_some_and(|f| f.is_closed())
        };
        let mine = reads.iter().find(|f| {
            f.colour == seat
                && spots
                    .iter()
                    .any(|s| s.ports.contains(f.port) && s.figures.contains(Figure::Normal))
                && (!completed_only || completed(f.port))
        });
        let Some(f) = mine else {
            return Ok(None);
        };
        self.game.deploy(f.port, Figure::Normal)?;
        let port = f.port.name().to_string();
        if let Some(open) = &mut self.open {
            open.follower = Some(FollowerEntry {
                port: port.clone(),
                figure: Figure::Normal,
            });
        }
        Ok(Some(Event::Follower { port }))
    }

    fn close_turn(&mut self) -> anyhow::Result<()> {
        if let Some(turn) = self.open.take() {
            self.game.end_turn()?;
            self.turns.push(turn);
        }
        Ok(())
    }

    /// Puts a question to the players, once: the same question is not asked again.
    fn ask(&mut self, question: String) {
        if !self.questions.contains(&question) {
            self.questions.push(question);
        }
    }

    /// Questions that came up (each one a point where a player would have been asked).
    pub fn questions(&self) -> &[String] {
        &self.questions
    }

    /// The game as the tracker has committed it (the open turn included).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The players, in turn order.
    pub fn players(&self) -> &[PlayerEntry] {
        &self.players
    }

    /// The table registration, once the start tile has been seen (or loaded).
    pub fn calibration(&self) -> Option<&Calibration> {
        self.calibration.as_ref()
    }

    /// Every committed turn, the open one (tile laid, follower perhaps still to come) last.
    pub fn turns(&self) -> Vec<TurnEntry> {
        self.turns.iter().chain(&self.open).cloned().collect()
    }

    /// The game so far as a record.
    pub fn record(&self) -> Record {
        let mut record = empty_record(&self.players);
        record.turns = self.turns();
        record
    }

    /// Where cell `pos` lies in the picture: where its tile was seen, or else predicted from
    /// the tiles around it or the start tile's grid.
    pub fn cell_quad(&self, pos: Pos) -> Option<Quad> {
        if let Some(q) = self.quads.get(&pos) {
            return Some(*q);
        }
        self.predicted(pos)
            .or_else(|| grid::extrapolate(self.quads.get(&Pos::new(0, 0))?, pos))
    }

    /// Puts the game back to exactly `turns` (a correction, an undo, a resumed journal): the
    /// last turn stays open for its follower. Checked against the rules first; on error nothing
    /// changes.
    pub fn restore(&mut self, turns: Vec<TurnEntry>) -> anyhow::Result<()> {
        self.rebuild(turns)?;
        // Look at every frontier cell afresh.
        self.frontier_looks.clear();
        Ok(())
    }

    /// Rebuilds the game from `turns` (checked first; on error nothing changes), keeping what
    /// the frontier cells looked like.
    fn rebuild(&mut self, turns: Vec<TurnEntry>) -> anyhow::Result<()> {
        let mut record = empty_record(&self.players);
        record.turns = turns;
        record.replay_open()?;
        let mut game = Game::new(&crate::record::setup_of(&record)?)?;
        let mut turns = record.turns;
        let open = match turns.pop() {
            Some(last) => match turn_of(&last).map_err(anyhow::Error::msg)? {
                Turn::Place {
                    tile,
                    placement,
                    follower,
                    ..
                } => {
                    for t in &turns {
                        game.play(turn_of(t).map_err(anyhow::Error::msg)?)?;
                    }
                    game.place(tile, placement)?;
                    if let Some(d) = follower {
                        game.deploy(d.port, d.figure)?;
                    }
                    Some(last)
                }
                Turn::Discard { .. } => {
                    turns.push(last);
                    for t in &turns {
                        game.play(turn_of(t).map_err(anyhow::Error::msg)?)?;
                    }
                    None
                }
            },
            None => None,
        };
        self.game = game;
        self.turns = turns;
        self.open = open;
        let board = self.game.board();
        self.quads
            .retain(|&pos, _| pos == Pos::new(0, 0) || board.is_occupied(pos));
        // Tiles restored without a picture: place them on the start tile's grid.
        let missing: Vec<Pos> = self
            .turns()
            .iter()
            .filter_map(|t| t.at)
            .filter(|p| !self.quads.contains_key(p))
            .collect();
        for pos in missing {
            if let Some(q) = self.cell_quad(pos) {
                self.quads.insert(pos, q);
            }
        }
        Ok(())
    }

    /// Takes back the last turn (its tile, and its follower).
    pub fn undo(&mut self) -> anyhow::Result<Option<TurnEntry>> {
        let mut turns = self.turns();
        let last = turns.pop();
        if last.is_some() {
            self.restore(turns)?;
        }
        Ok(last)
    }

    /// Replaces turn `index` (0-based) with `entry`, keeping every later turn; refused if the
    /// game would break the rules.
    pub fn correct(&mut self, index: usize, entry: TurnEntry) -> anyhow::Result<()> {
        let mut turns = self.turns();
        let Some(slot) = turns.get_mut(index) else {
            anyhow::bail!("there is no turn {}", index + 1);
        };
        *slot = entry;
        self.restore(turns)
    }

    /// Ends the stream: the game as a record.
    pub fn into_record(mut self) -> anyhow::Result<Record> {
        self.close_turn()?;
        Ok(self.record())
    }
}

/// A new tile glimpsed with a figure on it while hands moved elsewhere.
struct Sighting {
    tile: crate::rules::TileId,
    rot: Rotation,
    followers: Vec<FollowerRead>,
    /// The still pictures read before it (it counts only until the next).
    during: u64,
}

/// A tile read in a cell.
struct Reading {
    /// Candidates, likeliest first.
    ranked: Vec<crate::vision::tile::Candidate>,
    /// Where in the patch it was found (pixels from the centred cut).
    shift: [f64; 2],
    /// How well the best candidate fits.
    fit: f64,
    /// Picture to patch.
    to_patch: [[f64; 3]; 3],
}

/// `quad` moved by `offset` (in tiles, along its own sides).
fn offset_quad(quad: &Quad, offset: [f64; 2]) -> Quad {
    let along = |a: usize, b: usize, k: usize| (quad[b][k] - quad[a][k]) * 0.5;
    // Mean side vectors: east (0→1, 3→2) and south (0→3, 1→2).
    let east = [along(0, 1, 0) + along(3, 2, 0), along(0, 1, 1) + along(3, 2, 1)];
    let south = [along(0, 3, 0) + along(1, 2, 0), along(0, 3, 1) + along(1, 2, 1)];
    quad.map(|p| {
        [
            p[0] + offset[0] * east[0] + offset[1] * south[0],
            p[1] + offset[0] * east[1] + offset[1] * south[1],
        ]
    })
}

/// A base game between `players` with no turns yet.
fn empty_record(players: &[PlayerEntry]) -> Record {
    Record {
        meeplecam: FORMAT_VERSION,
        tileset: "base".to_string(),
        expansions: Vec::new(),
        options: RuleOptions::default(),
        players: players.to_vec(),
        start: None,
        turns: Vec::new(),
    }
}

/// The middle of a cell patch (without its margin).
fn cell_middle(patch: &Mat) -> opencv::Result<Mat> {
    let side = patch.cols() - 2 * MARGIN_PX;
    Mat::roi(
        patch,
        opencv::core::Rect::new(MARGIN_PX, MARGIN_PX, side, side),
    )?
    .try_clone()
}

/// Share of pixels whose colour changed (summed over channels) by more than 45 between two
/// looks.
fn changed_share(before: &Mat, now: &Mat) -> opencv::Result<f64> {
    let mut diff = Mat::default();
    opencv::core::absdiff(before, now, &mut diff)?;
    let diff = diff.try_clone()?;
    let bytes = diff.data_bytes()?;
    let changed = bytes
        .chunks_exact(3)
        .filter(|p| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]) > 45)
        .count();
    Ok(changed as f64 / (bytes.len() / 3).max(1) as f64)
}

/// Whether a quad found as the start tile could be one: a convex four-sided shape, not tiny and
/// not most of the picture (a checked tablecloth's pattern can fool the search).
fn plausible_tile(q: &Quad, frame: &Mat) -> bool {
    let side = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let sides = [
        side(q[0], q[1]),
        side(q[1], q[2]),
        side(q[2], q[3]),
        side(q[3], q[0]),
    ];
    let (short, long) = sides
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    let limit = f64::from(frame.cols().min(frame.rows())) / 3.0;
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let turns: Vec<f64> = (0..4)
        .map(|i| cross(q[i], q[(i + 1) % 4], q[(i + 2) % 4]))
        .collect();
    let convex = turns.iter().all(|&t| t > 0.0) || turns.iter().all(|&t| t < 0.0);
    short >= 8.0 && long <= limit && long <= 3.0 * short && convex
}

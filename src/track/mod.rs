//! The tracker: turns a stream of camera frames into rules-consistent game events.
//!
//! Each frame is compared with the previous one at low resolution; only after a few quiet frames
//! (no hand moving) is the picture read. The first quiet picture registers the table from the
//! start tile. After that, every quiet picture is checked for a new tile on the frontier — read
//! among the placements the rules allow there — and for the current player's follower on the tile
//! just laid. Nothing illegal is ever committed; what cannot be read is listed as a question.

mod bump;
mod change;
mod doubts;
pub mod eval;
mod followers;
mod glimpse;
mod grid;
mod hand;
mod light;
mod motion;
mod revise;
pub mod session;
mod tiles;

use std::collections::BTreeMap;

use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

use crate::record::{turn_of, PlayerEntry, Record, TurnEntry, FORMAT_VERSION};
use crate::rules::{Game, Pos, RuleOptions, Setup, Turn};
use crate::sim::figures::colour_bgr;
use crate::vision::calibration::{clipped_share, Calibration, WASHED_OUT};
use crate::vision::colours::ColourModel;
use crate::vision::figures::Enrolment;
use crate::vision::predict::{near_neighbours, predict, predict_cell};
use crate::vision::rectify::{quad_patch, side_px, Quad, MARGIN_PX};
use crate::vision::start::find_start_tile;
use crate::vision::table::table_like;
use crate::vision::tile::TileRecognizer;
use crate::vision::viewpoint::{Pose, Viewpoint};
use change::{cell_changed, cell_middle};
use motion::{camera_moved, is_motion, moved_like, translated};

/// Width of the picture motion is measured on.
const MOTION_WIDTH: i32 = 160;

/// Share of a cell's middle that must change between quiet pictures for a new tile there.
const NEW_TILE_CHANGE: f64 = 0.3;
/// How far apart (pixels, at most per corner) two cuts of a cell may be and still count as
/// the same cut.
const SAME_CUT_PX: f64 = 0.5;
/// Grey-level change (small picture) that counts as something there that was not.
const ARM_LEVEL: f64 = 30.0;
/// Share of a change's pixels showing the table's colours over which it is the table itself
/// (out of line after a camera move), not an arm.
const TABLE_SHARE: f64 = 0.85;
/// Seconds of stillness after which a picture is read even with an arm in it.
const ARM_WAIT_S: f64 = 3.0;
/// The same in frames, for a source with no clock.
const ARM_WAIT_FRAMES: usize = 15;
/// Still frames before a picture is read.
const SETTLE_FRAMES: usize = 3;
/// Seconds the table must be still before a picture is read (with a clock).
pub const SETTLE_S: f64 = 0.5;
/// How far (BGR distance) a black or gray figure's pixel may be from its enrolled colour.
const FIGURE_TOLERANCE: f32 = 55.0;
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
    /// The drawn tile was seen off the board (or is gone from view).
    InHand {
        /// Its type's name.
        tile: Option<String>,
    },
}

/// How an empty frontier cell looked, and where it was cut: a neighbour laid since moves the
/// cell's prediction, and over a checked cloth a cut a few pixels off changes much (film 2900
/// game 5: a cell cut 0.145 changed, then read as a tile).
struct EmptyLook {
    quad: Quad,
    middle: Mat,
}

/// Follows one game.
pub struct Tracker {
    game: Game,
    players: Vec<PlayerEntry>,
    enrolment: Enrolment,
    recognizer: TileRecognizer,
    calibration: Option<Calibration>,
    /// The light when the colours were first learned, to follow it as it drifts.
    light: Option<light::LightReference>,
    quads: BTreeMap<Pos, Quad>,
    /// The likeliest readings of each laid tile, the committed one first (for correction by a
    /// later neighbour).
    readings: BTreeMap<Pos, Vec<crate::vision::tile::Candidate>>,
    /// Each laid tile's print as read when it was laid.
    prints: BTreeMap<Pos, crate::vision::prints::Print>,
    /// What each type's print looks like in this game, from the laid tiles read surely.
    learned: crate::vision::prints::LearnedPrints,
    previous: Option<Mat>,
    last_settled: Option<Mat>,
    /// The small grey picture last read (to tell an arm reaching in).
    read_small: Option<Mat>,
    /// The small grey picture (`CV_32F`) the cells' quads were last aligned with (to tell the
    /// camera moving while hands still do).
    aligned_small: Option<Mat>,
    /// Each frontier cell as it looked at the last quiet picture, to tell a new tile from
    /// a shadow or a figure leaning in from the next cell.
    frontier_looks: BTreeMap<Pos, EmptyLook>,
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
    first_changed: BTreeMap<Pos, u64>,
    turns: Vec<TurnEntry>,
    open: Option<TurnEntry>,
    /// The drawn tile, seen off the board.
    in_hand: Option<crate::rules::TileId>,
    /// New tiles with a figure on them glimpsed while hands moved, by cell, oldest first.
    glimpsed: BTreeMap<Pos, Vec<glimpse::Sighting>>,
    /// New tiles glimpsed with no figure on them while hands moved, by cell.
    bare: BTreeMap<Pos, Vec<glimpse::BareGlimpse>>,
    /// How the open tile's cell looked when the tile was read (before its follower came).
    open_look: Option<(Pos, Mat)>,
    questions: Vec<String>,
    /// Tiles whose shield a figure hid when they were laid.
    shield_doubts: Vec<doubts::ShieldDoubt>,
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
            FIGURE_TOLERANCE,
        );
        let mut quads = BTreeMap::new();
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
            light: None,
            quads,
            readings: BTreeMap::new(),
            prints: BTreeMap::new(),
            learned: Default::default(),
            previous: None,
            last_settled: None,
            read_small: None,
            aligned_small: None,
            frontier_looks: BTreeMap::new(),
            settled: 0,
            last_motion_s: None,
            read_this_pause: false,
            asked_about: Vec::new(),
            first_changed: BTreeMap::new(),
            quiet: 0,
            turns: Vec::new(),
            open: None,
            glimpsed: BTreeMap::new(),
            bare: BTreeMap::new(),
            open_look: None,
            in_hand: None,
            questions: Vec::new(),
            shield_doubts: Vec::new(),
        })
    }

    /// The same tracker looking for the figure colours the players enrolled (blue, green, red as
    /// the camera sees them, one per player in turn order) instead of their nominal colours.
    pub fn with_enrolment(mut self, colours: Vec<[f32; 3]>) -> anyhow::Result<Tracker> {
        anyhow::ensure!(
            colours.len() == self.players.len(),
            "{} figure colours enrolled for {} players",
            colours.len(),
            self.players.len()
        );
        self.enrolment = Enrolment::new(colours, FIGURE_TOLERANCE);
        Ok(self)
    }

    /// The figure colours the tracker looks for.
    pub fn enrolment(&self) -> &Enrolment {
        &self.enrolment
    }

    /// Looks at the next frame.
    /// Looks at the next frame of a source with no clock (one frame after another).
    pub fn feed(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        self.feed_at(frame, None)
    }

    /// Looks at the next frame, taken at `time_s` seconds: a picture is read once the table
    /// has been still for `SETTLE_FRAMES` frames and at least [`SETTLE_S`] seconds (so a
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
        let mut small32 = Mat::default();
        small.convert_to(&mut small32, opencv::core::CV_32F, 1.0, 0.0)?;
        self.previous = Some(small);
        let moving = match &diff {
            Some(d) => is_motion(d)?,
            None => true,
        };
        if moving {
            self.quiet = 0;
            self.last_motion_s = time_s;
            self.read_this_pause = false;
            // A camera bumped while hands still move: the cells move with the whole picture at
            // once, so that glimpses (a follower scored and taken back before the table is
            // still) look where the tiles now are.
            let scale = f64::from(MOTION_WIDTH) / f64::from(frame.cols().max(1));
            let board = board_box(&self.quads, scale);
            let most = self.quads.get(&Pos::new(0, 0)).map_or(0.0, side_px) * scale;
            if let Some(shift) = camera_moved(self.aligned_small.as_ref(), &small32, board, most)? {
                self.shift_view([shift.x / scale, shift.y / scale])?;
                self.aligned_small = Some(small32);
            }
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
        if self.read_this_pause {
            return Ok(Vec::new());
        }
        // A figure put down and taken back before the table settles may be seen only in the
        // quiet frames between the arms (the arm out of the picture).
        let glimpsed = |tracker: &mut Self| match &diff {
            Some(d) => tracker.glimpse(frame, d),
            None => Ok(Vec::new()),
        };
        if self.quiet < SETTLE_FRAMES || !long_enough {
            return glimpsed(self);
        }
        // An arm still reaching in (slow at the end of its move, so the picture looks still)
        // is waited out, up to a point: a sleeve may rest on the table's edge for good.
        let waited = match (time_s, self.last_motion_s) {
            (Some(now), Some(moved)) => now - moved >= ARM_WAIT_S,
            _ => self.quiet >= ARM_WAIT_FRAMES,
        };
        if !waited && self.arm_in_view(frame)? {
            return glimpsed(self);
        }
        self.read_this_pause = true;
        let events = self.read_settled(frame)?;
        self.read_small = self.previous.clone();
        self.aligned_small = Some(small32);
        Ok(events)
    }

    /// Whether the cell at `quad` changed between the last still picture read and `frame` (the
    /// picture being read); true when no picture was read before.
    pub(super) fn changed_since_read(&self, frame: &Mat, quad: &Quad) -> opencv::Result<bool> {
        match (&self.read_small, &self.previous) {
            (Some(then), Some(now)) => {
                cell_changed(&moved_like(then, now)?, now, quad, frame.cols())
            }
            _ => Ok(true),
        }
    }

    /// The empty look kept of frontier cell `pos`, with the middle of `frame` cut where that
    /// look was (`now`, the middle cut at `quad`, when it was cut there); `None` if no look
    /// is kept.
    pub(super) fn kept_look_and_now(
        &self,
        frame: &Mat,
        pos: Pos,
        (quad, now): (&Quad, &Mat),
    ) -> opencv::Result<Option<(&Mat, Mat)>> {
        let Some(kept) = self.frontier_looks.get(&pos) else {
            return Ok(None);
        };
        let now = if tiles::corner_distance(&kept.quad, quad) < SAME_CUT_PX {
            now.try_clone()?
        } else {
            cell_middle(&quad_patch(frame, &kept.quad, MARGIN_PX)?.0)?
        };
        Ok(Some((&kept.middle, now)))
    }

    /// Keeps `middle`, cut at `quad`, as how frontier cell `pos` looks empty.
    pub(super) fn keep_empty_look(&mut self, pos: Pos, quad: Quad, middle: Mat) {
        self.frontier_looks.insert(pos, EmptyLook { quad, middle });
    }

    /// Whether an arm reaches into the picture (`frame`): a change since the last picture read
    /// that touches the picture's border and is bigger than a tile (but not most of the
    /// picture, which is the light or the camera moving), and does not show the table now.
    pub(super) fn arm_in_view(&self, frame: &Mat) -> opencv::Result<bool> {
        Ok(self.arms(frame)?.is_some())
    }

    /// The arms reaching into the picture (`frame`), as [`Tracker::arm_in_view`] finds them;
    /// `None` if there is none.
    pub(super) fn arms(&self, frame: &Mat) -> opencv::Result<Option<Arms>> {
        let (Some(now), Some(before), Some(calib)) =
            (&self.previous, &self.read_small, &self.calibration)
        else {
            return Ok(None);
        };
        if now.size()? != before.size()? {
            return Ok(None);
        }
        let before = &moved_like(before, now)?;
        let mean = |m: &Mat| -> opencv::Result<f64> {
            Ok(opencv::core::mean(m, &opencv::core::no_array())?[0])
        };
        let gain = (mean(before)? / mean(now)?.max(1.0)).clamp(0.7, 1.4);
        let mut evened = Mat::default();
        now.convert_to(&mut evened, -1, gain, 0.0)?;
        let mut diff = Mat::default();
        opencv::core::absdiff(before, &evened, &mut diff)?;
        let mut changed = Mat::default();
        imgproc::threshold(
            &diff,
            &mut changed,
            ARM_LEVEL,
            255.0,
            imgproc::THRESH_BINARY,
        )?;
        // What is left of thin lines (a checked cloth's edges seen from a camera moved over a
        // tilted view, where the near part moves further than the far one) is no arm.
        let mut solid = Mat::default();
        imgproc::morphology_ex(
            &changed,
            &mut solid,
            imgproc::MORPH_OPEN,
            &imgproc::get_structuring_element(
                imgproc::MORPH_RECT,
                Size::new(3, 3),
                opencv::core::Point::new(-1, -1),
            )?,
            opencv::core::Point::new(-1, -1),
            1,
            opencv::core::BORDER_CONSTANT,
            imgproc::morphology_default_border_value()?,
        )?;
        let (mut labels, mut stats, mut centroids) =
            (Mat::default(), Mat::default(), Mat::default());
        let n = imgproc::connected_components_with_stats(
            &solid,
            &mut labels,
            &mut stats,
            &mut centroids,
            8,
            opencv::core::CV_32S,
        )?;
        let scale = f64::from(now.cols()) / f64::from(calib.size[0].max(1));
        let q = calib.start;
        let tile_area = 0.5
            * ((q[2][0] - q[0][0]) * (q[3][1] - q[1][1])
                - (q[3][0] - q[1][0]) * (q[2][1] - q[0][1]))
                .abs()
            * scale
            * scale;
        let (w, h) = (now.cols(), now.rows());
        let mut arm = vec![false; n.max(0) as usize];
        for i in 1..n {
            let at = |k| stats.at_2d::<i32>(i, k).copied();
            let (x, y) = (at(imgproc::CC_STAT_LEFT)?, at(imgproc::CC_STAT_TOP)?);
            let (cw, ch) = (at(imgproc::CC_STAT_WIDTH)?, at(imgproc::CC_STAT_HEIGHT)?);
            let area = f64::from(at(imgproc::CC_STAT_AREA)?);
            let border = x == 0 || y == 0 || x + cw == w || y + ch == h;
            arm[i as usize] = border
                && area > 1.5 * tile_area
                && area < 0.5 * f64::from(w * h)
                && !shows_table(frame, &labels, i, scale, &calib.table)?;
        }
        if !arm.contains(&true) {
            return Ok(None);
        }
        let mut mask = Mat::zeros(h, w, opencv::core::CV_8UC1)?.to_mat()?;
        for (m, &l) in mask
            .data_bytes_mut()?
            .iter_mut()
            .zip(labels.data_typed::<i32>()?)
        {
            if arm[l.max(0) as usize] {
                *m = 255;
            }
        }
        Ok(Some(Arms { mask, scale }))
    }

    fn read_settled(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let mut events = Vec::new();
        if self.calibration.is_none() {
            // A washed-out start tile tells neither its colours nor which way it lies.
            let start = find_start_tile(frame, &ColourModel::default())?
                .filter(|q| plausible_tile(q, frame));
            let usable = match &start {
                Some(q) => clipped_share(frame, q)? <= WASHED_OUT,
                None => false,
            };
            if let Some(start) = start.filter(|_| usable) {
                self.calibration = Some(Calibration::of_start_tile(frame, start)?);
                self.quads.insert(Pos::new(0, 0), start);
                self.remember_empty_looks(frame, Pos::new(0, 0), true)?;
                events.push(Event::Registered);
            }
            return Ok(events);
        }
        self.follow_camera(frame)?;
        self.refresh_colours(frame)?;
        events.extend(self.reread_open_tile(frame)?);
        events.extend(self.look_for_follower(frame)?);
        let open_before = self
            .open_without_follower()
            .map(|(pos, _)| (pos, self.game.current_player().index()));
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
        // Only in a picture with no new tile: the next player's figure, put down with its tile,
        // may rise into the open tile's cell before it is found in its colour.
        // Likewise another player's figure on a tile without a follower asks whether a tile was
        // missed only when no tile came with it, or when it stands well inside that tile.
        if laid == 0 {
            if let Some(open) = open_before {
                events.extend(self.foreign_follower(frame, open, false)?);
            }
            events.extend(self.unseen_follower(frame)?);
        } else if let Some(before) = open_before {
            events.extend(self.foreign_follower(frame, before, true)?);
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
        if laid > 0 && self.in_hand.take().is_some() {
            events.push(Event::InHand { tile: None });
        }
        events.extend(self.settle_doubts(frame)?);
        events.extend(self.look_for_tile_in_hand(frame)?);
        self.settled += 1;
        Ok(events)
    }

    /// A bumped camera moves the picture: every known tile is moved with its part of it
    /// (measured against the last quiet picture).
    fn follow_camera(&mut self, frame: &Mat) -> anyhow::Result<()> {
        let mut grey = Mat::default();
        imgproc::cvt_color(frame, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
        let mut now = Mat::default();
        grey.convert_to(&mut now, opencv::core::CV_32F, 1.0, 0.0)?;
        if let Some(before) = &self.last_settled {
            if before.size()? == now.size()? {
                bump::follow(before, &now, &mut self.quads)?;
            }
        }
        self.last_settled = Some(now);
        Ok(())
    }

    /// Moves every cell, and the last still picture they were measured on, by `shift` (frame
    /// pixels): the camera moved while hands did; the next still picture refines each tile.
    fn shift_view(&mut self, shift: [f64; 2]) -> anyhow::Result<()> {
        let kept = self.frontier_looks.values_mut().map(|look| &mut look.quad);
        for quad in self.quads.values_mut().chain(kept) {
            for p in quad.iter_mut() {
                p[0] += shift[0];
                p[1] += shift[1];
            }
        }
        if let Some(before) = &self.last_settled {
            self.last_settled = Some(translated(before, shift)?);
        }
        Ok(())
    }

    /// Where `pos` should lie: as the camera sees the table in perspective, moved with the
    /// tiles laid around it; in a view from nearly straight above, from a grid fitted to the
    /// tiles seen around it (so one tile read a little off does not push its neighbours off)
    /// unless that puts it well off its laid neighbours, or from its neighbours alone.
    fn predicted(&self, pos: Pos) -> Option<Quad> {
        let pose = self.pose();
        predict_cell(&self.quads, pos, pose.as_ref())
            .ok()
            .flatten()
            .map(|q| match pose {
                Some(_) => q,
                None => near_neighbours(&self.quads, pos, q),
            })
            .or_else(|| predict(&self.quads, pos))
    }

    /// The camera's pose as the start tile's cell shows it (a webcam's usual lens taken).
    pub(super) fn pose(&self) -> Option<Pose> {
        let calib = self.calibration.as_ref()?;
        let start = self.quads.get(&Pos::new(0, 0))?;
        Pose::of_oblique_start(start, calib.size).ok().flatten()
    }

    /// How far (tile sides) a standing figure's top shows beyond its base in cell `pos`, as
    /// the camera sees the cells located so far; none before the table is registered.
    fn rise(&self, pos: Pos) -> anyhow::Result<[f64; 2]> {
        let Some(calib) = &self.calibration else {
            return Ok([0.0, 0.0]);
        };
        let viewpoint = Viewpoint::from_cells(&self.quads, calib.size)?;
        Ok(viewpoint.map_or([0.0, 0.0], |v| v.rise_at_cell(pos)))
    }

    fn close_turn(&mut self) -> anyhow::Result<()> {
        if let Some(turn) = self.open.take() {
            self.game.end_turn()?;
            self.turns.push(turn);
        }
        Ok(())
    }

    /// Whether the rules allow reading `c` at cell `pos` now: a copy is left and it fits there.
    fn allows(&self, c: &crate::vision::tile::Candidate, pos: Pos) -> bool {
        self.game.remaining(c.tile) > 0
            && self
                .game
                .legal_placements(c.tile)
                .contains(&crate::rules::Placement { pos, rot: c.rot })
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

    /// The drawn tile, when the camera sees it off the board.
    pub fn tile_in_hand(&self) -> Option<crate::rules::TileId> {
        self.in_hand
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
        self.readings.retain(|&pos, _| board.is_occupied(pos));
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

/// The arms reaching into a picture: where they are in a reduced copy of it.
pub(super) struct Arms {
    /// 255 where an arm is, in the reduced picture.
    mask: Mat,
    /// The reduced picture's size over the frame's.
    scale: f64,
}

impl Arms {
    /// Whether an arm comes within `reach` pixels (of the frame) of the cell with corners
    /// `quad`.
    pub(super) fn near(&self, quad: &Quad, reach: f64) -> opencv::Result<bool> {
        let lo = |k: usize| quad.iter().map(|p| p[k]).fold(f64::MAX, f64::min) - reach;
        let hi = |k: usize| quad.iter().map(|p| p[k]).fold(f64::MIN, f64::max) + reach;
        let (w, h) = (self.mask.cols(), self.mask.rows());
        let x0 = ((lo(0) * self.scale).floor() as i32).clamp(0, w);
        let y0 = ((lo(1) * self.scale).floor() as i32).clamp(0, h);
        let x1 = ((hi(0) * self.scale).ceil() as i32).clamp(0, w);
        let y1 = ((hi(1) * self.scale).ceil() as i32).clamp(0, h);
        if x1 <= x0 || y1 <= y0 {
            return Ok(false);
        }
        let roi = Mat::roi(
            &self.mask,
            opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0),
        )?;
        Ok(opencv::core::count_non_zero(&roi)? > 0)
    }
}

/// Whether component `label` of `labels` (a reduced picture, `scale` of the frame's size)
/// shows the table (colours `table`) in `frame` for the most part: a checked cloth the camera's
/// move left out of line (near checks move further than far ones), not an arm.
fn shows_table(
    frame: &Mat,
    labels: &Mat,
    label: i32,
    scale: f64,
    table: &[[f32; 3]; 2],
) -> opencv::Result<bool> {
    let (mut on, mut all) = (0usize, 0usize);
    for y in 0..labels.rows() {
        for x in 0..labels.cols() {
            if *labels.at_2d::<i32>(y, x)? != label {
                continue;
            }
            let fx = ((f64::from(x) + 0.5) / scale) as i32;
            let fy = ((f64::from(y) + 0.5) / scale) as i32;
            if fx >= frame.cols() || fy >= frame.rows() {
                continue;
            }
            let p = frame.at_2d::<opencv::core::Vec3b>(fy, fx)?.0;
            all += 1;
            on += usize::from(table_like(p, table));
        }
    }
    Ok(on as f64 >= TABLE_SHARE * all.max(1) as f64)
}

/// The box around every located cell, in pixels of a picture `scale` times the frame's size.
fn board_box(quads: &BTreeMap<Pos, Quad>, scale: f64) -> Option<opencv::core::Rect> {
    let corners = quads.values().flatten();
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in corners {
        lo = [lo[0].min(p[0]), lo[1].min(p[1])];
        hi = [hi[0].max(p[0]), hi[1].max(p[1])];
    }
    (lo[0] <= hi[0]).then(|| {
        let (x0, y0) = (
            (lo[0] * scale).floor() as i32,
            (lo[1] * scale).floor() as i32,
        );
        let (x1, y1) = ((hi[0] * scale).ceil() as i32, (hi[1] * scale).ceil() as i32);
        opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0)
    })
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

/// A tracker for Ann and Bob (red, blue) after Ann laid `tile` at `pos` turned `rot` degrees,
/// her turn still open.
#[cfg(test)]
fn after_ann_lays(tile: &str, pos: Pos, rot: u16) -> Tracker {
    after_turns(vec![TurnEntry::laid(tile, pos, rot)])
}

/// A tracker for Ann and Bob (red, blue) after `turns`, taken in turn from Ann on, the last
/// still open.
#[cfg(test)]
fn after_turns(turns: Vec<TurnEntry>) -> Tracker {
    let players = ["Ann", "Bob"]
        .iter()
        .zip(crate::rules::Colour::ALL)
        .map(|(n, colour)| PlayerEntry {
            name: n.to_string(),
            colour,
        })
        .collect();
    let mut tracker = Tracker::new(players, None).unwrap();
    let turns = turns
        .into_iter()
        .zip(["Ann", "Bob"].iter().cycle())
        .map(|(t, &who)| TurnEntry {
            player: Some(who.into()),
            ..t
        })
        .collect();
    tracker.restore(turns).unwrap();
    tracker
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reduced grey picture (160 × 90), each pixel's value given by `value(x, y)`.
    fn reduced_picture(value: impl Fn(i32, i32) -> u8) -> Mat {
        let mut picture = Mat::zeros(90, 160, opencv::core::CV_8UC1)
            .unwrap()
            .to_mat()
            .unwrap();
        for y in 0..90 {
            for x in 0..160 {
                *picture.at_2d_mut::<u8>(y, x).unwrap() = value(x, y);
            }
        }
        picture
    }

    #[test]
    fn an_arm_is_near_a_cell_only_where_it_reaches_it() {
        // An arm in the bottom left corner of a picture reduced to a quarter.
        let mask = reduced_picture(|x, y| if x < 30 && y >= 70 { 255 } else { 0 });
        let arms = Arms { mask, scale: 0.25 };
        let cell = |x: f64, y: f64| [[x, y], [x + 60.0, y], [x + 60.0, y + 60.0], [x, y + 60.0]];
        assert!(arms.near(&cell(100.0, 230.0), 0.0).unwrap());
        assert!(!arms.near(&cell(600.0, 100.0), 30.0).unwrap());
        // Just beyond its reach, and within.
        assert!(!arms.near(&cell(140.0, 200.0), 0.0).unwrap());
        assert!(arms.near(&cell(140.0, 200.0), 30.0).unwrap());
    }

    #[test]
    fn a_cell_changed_only_where_its_middle_did() {
        // Reduced pictures (160 × 90) of a 1280 × 720 one: grey checks, then a tile laid on
        // the cell at (400, 320)–(480, 400) (reduced: 50–60, 40–50), then a figure on the next
        // cell's edge, reaching a pixel into this cell's margin.
        let checks = |x: i32, y: i32| if (x / 4 + y / 4) % 2 == 0 { 80 } else { 200 };
        let then = reduced_picture(checks);
        let paint = |(x0, x1): (i32, i32), (y0, y1): (i32, i32), v: u8| {
            reduced_picture(|x, y| {
                if (x0..x1).contains(&x) && (y0..y1).contains(&y) {
                    v
                } else {
                    checks(x, y)
                }
            })
        };
        let cell: Quad = [
            [400.0, 320.0],
            [480.0, 320.0],
            [480.0, 400.0],
            [400.0, 400.0],
        ];
        assert!(!cell_changed(&then, &then, &cell, 1280).unwrap());
        let laid = paint((50, 60), (40, 50), 120);
        assert!(cell_changed(&then, &laid, &cell, 1280).unwrap());
        let leaning = paint((59, 62), (40, 50), 30);
        assert!(!cell_changed(&then, &leaning, &cell, 1280).unwrap());
    }

    #[test]
    fn a_cell_is_compared_with_the_last_picture_read_moved_as_the_camera_moved() {
        // Irregular marks (a textured table) in a reduced picture, seen again after the camera
        // was bumped by two pixels and one (16 and 8 in the 1280-pixel picture): the cell is
        // as it was; with a tile laid on it too, it changed.
        let marks = |x: i32, y: i32| ((x * 37 + y * 91 + (x * y) % 13 * 17) % 160) as u8 + 40;
        let then = reduced_picture(marks);
        let cell: Quad = [
            [400.0, 320.0],
            [480.0, 320.0],
            [480.0, 400.0],
            [400.0, 400.0],
        ];
        let bumped = translated(&then, [2.0, -1.0]).unwrap();
        assert!(cell_changed(&then, &bumped, &cell, 1280).unwrap());
        let aligned = moved_like(&then, &bumped).unwrap();
        assert!(!cell_changed(&aligned, &bumped, &cell, 1280).unwrap());
        let mut laid = bumped.clone();
        Mat::roi_mut(&mut laid, opencv::core::Rect::new(50, 40, 10, 10))
            .unwrap()
            .set_to(&opencv::core::Scalar::all(120.0), &opencv::core::no_array())
            .unwrap();
        let aligned = moved_like(&then, &laid).unwrap();
        assert!(cell_changed(&aligned, &laid, &cell, 1280).unwrap());
    }

    #[test]
    fn a_camera_move_is_believed_only_within_a_tile_side() {
        // A board of irregular marks in the middle of the reduced picture, seen again with the
        // whole picture moved: a little (a bumped camera) and by more than a tile side.
        let marks = |x: i32, y: i32| ((x * 37 + y * 91 + (x * y) % 13 * 17) % 160) as u8 + 40;
        let mut before = Mat::default();
        reduced_picture(marks)
            .convert_to(&mut before, opencv::core::CV_32F, 1.0, 0.0)
            .unwrap();
        let board = Some(opencv::core::Rect::new(50, 25, 60, 40));
        let tile_side = 12.0;
        let bumped = translated(&before, [2.0, -1.0]).unwrap();
        let shift = camera_moved(Some(&before), &bumped, board, tile_side)
            .unwrap()
            .expect("a bump of two pixels is the camera's");
        assert!((shift.x - 2.0).abs() < 0.3 && (shift.y + 1.0).abs() < 0.3);
        let far = translated(&before, [15.0, 6.0]).unwrap();
        assert!(camera_moved(Some(&before), &far, board, tile_side)
            .unwrap()
            .is_none());
        assert!(camera_moved(Some(&before), &far, board, 20.0)
            .unwrap()
            .is_some());
    }
}

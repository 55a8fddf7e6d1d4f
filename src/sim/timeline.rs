//! A game record played out in front of the simulated camera, frame by frame: an arm brings
//! each tile and lays it, perhaps comes back with a follower, takes scored followers away; the
//! camera may be nudged once and the light drifts.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::camera::{apply_homography, invert_homography, Camera};
use super::effects::Lighting;
use super::hand::Arm;
use super::scene::{Held, MeepleOnTable, Scene, Sensor, TileOnTable, CELL_MM, TILE_MM};
use super::wheel;
use crate::record::{play_entry, Record, ReplayError};
use crate::rules::{Colour, Game, Meeple, Placement, Pos, Turn};

/// From where the camera looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Straight down.
    Overhead,
    /// From one side, about 35–45° off vertical.
    Oblique,
}

/// How to film a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filming {
    /// Camera position.
    pub view: View,
    /// Image size in pixels.
    pub size: [i32; 2],
    /// Frames per second.
    pub fps: f64,
    /// Seed for everything random: placement errors, light, arm, camera.
    pub seed: u64,
}

/// One frame to render: the scene, the sensor and what is happening.
#[derive(Clone, Debug)]
pub struct Shot {
    /// The table at that instant.
    pub scene: Scene,
    /// The camera's imperfections.
    pub sensor: Sensor,
    /// Turns completed.
    pub turn: u32,
    /// Seconds since the first frame.
    pub time_s: f64,
}

/// Lays out a record on the table: every tile as laid, with its placement error. The first
/// `board` tiles, when more than one, are the Wheel of Fortune's board: one piece of cardboard,
/// its cells abutting, one print, shifted and turned as a whole.
fn lay_out(
    game_tiles: &[(Placement, crate::rules::TileId)],
    board: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<TileOnTable> {
    let mut laid: Vec<TileOnTable> = game_tiles
        .iter()
        .map(|&(p, tile)| TileOnTable {
            tile,
            cell: p.pos,
            rot: p.rot,
            offset_mm: [rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)],
            angle_deg: rng.random_range(-2.0..2.0),
            lift_mm: 0.0,
            print: rng.random(),
            icons: 0,
        })
        .collect();
    if board > 1 {
        wheel::lay_board(&mut laid[..board]);
    }
    laid
}

/// A camera that keeps the whole final board in view.
fn frame_board(tiles: &[Pos], filming: &Filming, rng: &mut ChaCha8Rng) -> Camera {
    let (mut lo, mut hi) = ([i32::MAX; 2], [i32::MIN; 2]);
    for p in tiles {
        lo = [lo[0].min(p.x), lo[1].min(p.y)];
        hi = [hi[0].max(p.x), hi[1].max(p.y)];
    }
    let span = [
        f64::from(hi[0] - lo[0] + 2) * CELL_MM,
        f64::from(hi[1] - lo[1] + 2) * CELL_MM,
    ];
    let centre = [
        (f64::from(lo[0] + hi[0]) / 2.0 + 0.5) * CELL_MM,
        (f64::from(lo[1] + hi[1]) / 2.0 + 0.5) * CELL_MM,
    ];
    let hfov: f64 = rng.random_range(60.0..72.0);
    let aspect = f64::from(filming.size[1]) / f64::from(filming.size[0]);
    let half_w = (hfov.to_radians() / 2.0).tan();
    let height = (span[0] / 2.0 / half_w)
        .max(span[1] / 2.0 / (half_w * aspect))
        .max(350.0);
    let mut cam = match filming.view {
        View::Overhead => Camera::overhead(filming.size, hfov, centre, height),
        View::Oblique => {
            let tilt = rng.random_range(35.0..45.0);
            Camera::oblique(filming.size, hfov, centre, height, tilt)
        }
    };
    cam.distortion = [
        rng.random_range(-0.12..0.04),
        rng.random_range(-0.02..0.05),
        0.0,
        0.0,
        0.0,
    ];
    cam
}

/// Where the arm of the player in `seat` comes from: beyond the image border on their side.
fn entry_point(cam: &Camera, seat: usize) -> [f64; 2] {
    let [w, h] = cam.size.map(f64::from);
    match seat % 4 {
        0 => [w * 0.55, h * 1.25],
        1 => [-w * 0.15, h * 0.5],
        2 => [w * 0.45, -h * 0.25],
        _ => [w * 1.15, h * 0.55],
    }
}

const SKINS: [[f64; 3]; 4] = [
    [150.0, 180.0, 225.0],
    [120.0, 150.0, 200.0],
    [80.0, 110.0, 160.0],
    [60.0, 80.0, 120.0],
];

/// Everything needed to film a record.
pub struct Film {
    shots: Vec<Shot>,
}

impl Film {
    /// Plans every frame of a record's game.
    pub fn plan(record: &Record, filming: &Filming) -> Result<Film, ReplayError> {
        let mut rng = ChaCha8Rng::seed_from_u64(filming.seed);
        let final_game = record.replay_open()?.game;
        let placed: Vec<(Placement, crate::rules::TileId)> = final_game
            .board()
            .tiles()
            .iter()
            .map(|t| (t.placement, t.tile))
            .collect();
        let mut game = Game::new(&crate::record::setup_of(record)?)
            .map_err(|e| ReplayError::Setup(e.to_string()))?;
        let start = game.board().tiles().len();
        let laid = lay_out(&placed, start, &mut rng);
        let cells: Vec<Pos> = placed.iter().map(|(p, _)| p.pos).collect();
        let camera = frame_board(&cells, filming, &mut rng);
        let colours: Vec<Colour> = record.players.iter().map(|p| p.colour).collect();
        let names: Vec<String> = record.players.iter().map(|p| p.name.clone()).collect();
        let mut director = Director {
            rng,
            fps: filming.fps,
            camera: camera.clone(),
            light_from: Lighting::random(&mut ChaCha8Rng::seed_from_u64(filming.seed ^ 1)),
            light_to: Lighting::random(&mut ChaCha8Rng::seed_from_u64(filming.seed ^ 2)),
            tiles: laid[..start].to_vec(),
            meeples: Vec::new(),
            shots: Vec::new(),
            turn: 0,
            total_turns: record.turns.len().max(1),
        };
        let nudge_turn = if record.turns.len() > 4 {
            Some(
                director
                    .rng
                    .random_range(record.turns.len() / 5..record.turns.len() * 4 / 5),
            )
        } else {
            None
        };
        director.idle(1.0);
        let mut next_tile = start;
        for (i, entry) in record.turns.iter().enumerate() {
            let seat = game.current_player().index();
            let turn_err = |reason: String| ReplayError::Turn {
                turn: i + 1,
                reason,
            };
            let turn = crate::record::turn_of(entry).map_err(turn_err)?;
            let played = play_entry(&mut game, entry, &names).map_err(turn_err)?;
            // Pestilence takes followers away before the tile is laid.
            for gone in played.spin.iter().flat_map(|s| &s.returned) {
                director.take_meeple(gone, colours[gone.player.index()], seat);
            }
            if let Turn::Place { follower, .. } = turn {
                let mut tile = laid[next_tile];
                tile.icons = entry.wheel.as_ref().and_then(|w| w.icon).unwrap_or(0);
                next_tile += 1;
                director.bring_tile(tile, seat);
                if let Some(deploy) = follower {
                    if director.rng.random_bool(0.2) {
                        let late = director.rng.random_range(1.0..3.0);
                        director.idle(late);
                    }
                    let yaw = director.rng.random_range(-0.5..0.5);
                    let colour = colours[seat];
                    if let Some(m) =
                        MeepleOnTable::on(&tile, deploy.port, colour, deploy.figure, yaw)
                    {
                        director.bring_meeple(m, seat);
                    }
                }
            }
            director.turn = game.turn();
            for gone in &played.turn.returned {
                director.take_meeple(gone, colours[gone.player.index()], seat);
            }
            director.idle(0.8);
            if Some(i) == nudge_turn {
                director.nudge();
            }
        }
        director.idle(1.0);
        Ok(Film {
            shots: director.shots,
        })
    }

    /// The frames, in order.
    pub fn shots(&self) -> &[Shot] {
        &self.shots
    }
}

/// Builds the shot list turn by turn.
struct Director {
    rng: ChaCha8Rng,
    fps: f64,
    camera: Camera,
    light_from: Lighting,
    light_to: Lighting,
    tiles: Vec<TileOnTable>,
    meeples: Vec<MeepleOnTable>,
    shots: Vec<Shot>,
    turn: u32,
    total_turns: usize,
}

impl Director {
    fn frames(&self, seconds: f64) -> usize {
        (seconds * self.fps).round().max(1.0) as usize
    }

    fn shoot(&mut self, arm: Option<Arm>, held: Option<Held>, blur: Option<[f64; 2]>) {
        let progress = self.turn as f64 / self.total_turns as f64;
        let scene = Scene {
            tiles: self.tiles.clone(),
            meeples: self.meeples.clone(),
            arm,
            held,
            lighting: self.light_from.blend(&self.light_to, progress),
            camera: self.camera.clone(),
        };
        let time_s = self.shots.len() as f64 / self.fps;
        self.shots.push(Shot {
            scene,
            sensor: Sensor {
                noise: 2.5,
                jpeg_quality: Some(85),
                blur,
            },
            turn: self.turn,
            time_s,
        });
    }

    fn idle(&mut self, seconds: f64) {
        for _ in 0..self.frames(seconds) {
            self.shoot(None, None, None);
        }
    }

    fn arm_at(&self, palm: [f64; 2], seat: usize, width: f64) -> Arm {
        Arm {
            from: entry_point(&self.camera, seat),
            palm,
            width,
            skin: SKINS[seat % SKINS.len()],
            sleeve: [
                (seat * 70 % 200) as f64 + 30.0,
                (seat * 40 % 180) as f64 + 40.0,
                (seat * 90 % 220) as f64 + 20.0,
            ],
        }
    }

    /// Pixel width of an arm near `table` (about 1.4 tiles).
    fn arm_width(&self, table: [f64; 2]) -> f64 {
        let a = self.camera.project_ideal([table[0], table[1], -80.0]);
        let b = self
            .camera
            .project_ideal([table[0] + TILE_MM, table[1], -80.0]);
        match (a, b) {
            (Some(a), Some(b)) => (b[0] - a[0]).hypot(b[1] - a[1]) * 1.0,
            _ => 60.0,
        }
    }

    /// The arm moves its palm from the entry side to `target` (table mm at `lift` mm), carrying
    /// `held` (positioned by `place`), over `seconds`; `reverse` plays it outwards.
    fn reach(
        &mut self,
        seat: usize,
        target: [f64; 2],
        seconds: f64,
        reverse: bool,
        carry: &dyn Fn([f64; 2]) -> Option<Held>,
    ) {
        let n = self.frames(seconds);
        let entry = entry_point(&self.camera, seat);
        let aim = self
            .camera
            .project_ideal([target[0], target[1], -60.0])
            .unwrap_or(entry);
        let width = self.arm_width(target);
        let inv = invert_homography(&self.camera.homography());
        let mut last = None;
        for k in 0..n {
            let mut t = (k + 1) as f64 / n as f64;
            if reverse {
                t = 1.0 - (k as f64) / n as f64;
            }
            let ease = t * t * (3.0 - 2.0 * t);
            let palm = [
                entry[0] + (aim[0] - entry[0]) * ease,
                entry[1] + (aim[1] - entry[1]) * ease,
            ];
            // The carried thing lies under the palm (clamped for a palm far off the table).
            let under = apply_homography(&inv, palm);
            let (dx, dy) = (under[0] - target[0], under[1] - target[1]);
            let far = dx.hypot(dy);
            let along = if far.is_finite() && far < 600.0 {
                under
            } else {
                let f = if far.is_finite() { 600.0 / far } else { 0.0 };
                [target[0] + dx * f, target[1] + dy * f]
            };
            let blur = last.map(|p: [f64; 2]| [palm[0] - p[0], palm[1] - p[1]]);
            last = Some(palm);
            let arm = self.arm_at(palm, seat, width);
            let held = carry(along);
            self.shoot(
                Some(arm),
                held,
                blur.filter(|b| b[0].hypot(b[1]) > 6.0)
                    .map(|b| [b[0] / 3.0, b[1] / 3.0]),
            );
        }
    }

    fn bring_tile(&mut self, tile: TileOnTable, seat: usize) {
        let centre = tile.to_table([0.5, 0.5]);
        let carry = move |at: [f64; 2]| {
            let mut t = tile;
            t.lift_mm = 12.0;
            t.offset_mm = [
                tile.offset_mm[0] + at[0] - centre[0],
                tile.offset_mm[1] + at[1] - centre[1],
            ];
            Some(Held::Tile(t))
        };
        self.reach(seat, centre, 0.8, false, &carry);
        self.tiles.push(tile);
        self.reach(seat, centre, 0.6, true, &|_| None);
    }

    fn bring_meeple(&mut self, m: MeepleOnTable, seat: usize) {
        let carry = move |at: [f64; 2]| {
            let mut held = m;
            held.figure.base = at;
            Some(Held::Meeple(held))
        };
        self.reach(seat, m.figure.base, 0.7, false, &carry);
        self.meeples.push(m);
        self.reach(seat, m.figure.base, 0.5, true, &|_| None);
    }

    fn take_meeple(&mut self, gone: &Meeple, colour: Colour, seat: usize) {
        let Some(i) = self
            .meeples
            .iter()
            .position(|m| m.cell == gone.pos && m.colour == colour && m.figure.kind == gone.figure)
        else {
            return;
        };
        let m = self.meeples[i];
        self.reach(seat, m.figure.base, 0.6, false, &|_| None);
        self.meeples.remove(i);
        let carry = move |at: [f64; 2]| {
            let mut held = m;
            held.figure.base = at;
            Some(Held::Meeple(held))
        };
        self.reach(seat, m.figure.base, 0.5, true, &carry);
    }

    /// The camera is bumped: it shifts a little and stays there.
    fn nudge(&mut self) {
        let d = [
            self.rng.random_range(-12.0..12.0),
            self.rng.random_range(-12.0..12.0),
        ];
        self.camera.centre[0] += d[0];
        self.camera.centre[1] += d[1];
        self.shoot(None, None, Some([d[0], d[1]]));
    }
}

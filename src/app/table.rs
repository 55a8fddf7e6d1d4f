//! What the window shows of the game, computed from the tracker in the worker thread: scores and
//! their history, the tiles with their place in the picture, legal spots for the tile in hand.

use crate::geometry::{rotate, TileShape};
use crate::record::{PlayerEntry, Record, TurnEntry};
use crate::rules::feature::Feature;
use crate::rules::{catalogue, FeatureKind, Game, Pos, Rotation, TileId};
use crate::sim::camera::{apply_homography, invert_homography};
use crate::track::Tracker;
use crate::vision::rectify::quad_homography;
use crate::vision::rectify::Quad;
use crate::vision::terrain::label_at;

/// A laid tile and where it is in the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    /// Its cell.
    pub pos: Pos,
    /// Its type's name.
    pub tile: String,
    /// Rotation in degrees.
    pub rot: u16,
    /// Its corners in the camera picture (pixels), if known.
    pub quad: Option<Quad>,
}

/// A legal cell for the tile in hand.
#[derive(Clone, Debug, PartialEq)]
pub struct SpotView {
    /// The cell.
    pub pos: Pos,
    /// The rotations (degrees) that fit there.
    pub rots: Vec<u16>,
    /// The cell's corners in the picture, if known.
    pub quad: Option<Quad>,
}

/// Where the current player may put a follower on the tile just laid.
#[derive(Clone, Debug, PartialEq)]
pub struct FollowerSpotView {
    /// The feature's kind.
    pub kind: FeatureKind,
    /// The port that names it in records.
    pub port: String,
    /// Where a follower would stand, in picture pixels.
    pub at: Option<[f64; 2]>,
}

/// A feature followers hold, tinted in its owners' colours when the mouse is over it.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedFeature {
    /// Its kind.
    pub kind: FeatureKind,
    /// Seats with the most followers on it.
    pub owners: Vec<usize>,
    /// Its part on each tile it covers.
    pub parts: Vec<FeaturePart>,
    /// For a cloister, the laid tiles of the 3×3 cells around it (its own included): each one a
    /// point towards completing it.
    pub around: Vec<Pos>,
}

/// One tile's part of a feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeaturePart {
    /// The tile's cell.
    pub pos: Pos,
    /// The tile's type.
    pub tile: TileId,
    /// The tile's rotation.
    pub rot: Rotation,
    /// Index of the feature among the tile type's features.
    pub local: usize,
}

impl OwnedFeature {
    /// Whether it covers feature `local` of the tile at `pos`.
    pub fn covers(&self, pos: Pos, local: usize) -> bool {
        self.parts.iter().any(|p| p.pos == pos && p.local == local)
    }
}

/// One score line for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreLine {
    /// 1-based turn; `None` at the end of the game.
    pub turn: Option<u32>,
    /// Who scored.
    pub players: Vec<usize>,
    /// Points each.
    pub points: u32,
    /// What scored, in words.
    pub what: String,
}

/// Everything the window draws about the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableView {
    /// Players in turn order.
    pub players: Vec<PlayerEntry>,
    /// Committed turns, the open one last.
    pub turns: Vec<TurnEntry>,
    /// Points now.
    pub scores: Vec<u32>,
    /// Points after each turn (index 0: before the first).
    pub history: Vec<Vec<u32>>,
    /// Every score so far.
    pub score_lines: Vec<ScoreLine>,
    /// The final scores if the game ended now (farms, incomplete features).
    pub if_ended_now: Vec<u32>,
    /// End-of-game score lines (as if it ended now).
    pub final_lines: Vec<ScoreLine>,
    /// Whose turn it is (seat).
    pub current: usize,
    /// Tiles left in the box.
    pub remaining: usize,
    /// The tiles on the table.
    pub cells: Vec<CellView>,
    /// The tile in hand and its legal cells.
    pub hand: Option<(String, Vec<SpotView>)>,
    /// Every feature followers hold, with its parts.
    pub owned: Vec<OwnedFeature>,
    /// Follower spots on the open tile.
    pub follower_spots: Vec<FollowerSpotView>,
    /// Questions for the players.
    pub questions: Vec<String>,
    /// What the camera is not sure of yet and will look at again (asked if still open when
    /// the pictures end).
    pub doubts: Vec<String>,
    /// Whether the table has been registered from the start tile.
    pub registered: bool,
    /// The colour (blue, green, red) each player's figures are looked for in: enrolled, or
    /// nominal.
    pub figure_colours: Vec<[f32; 3]>,
}

impl TableView {
    /// Reads the tracker's game; `hand` is the tile a player holds, if known.
    pub fn of(tracker: &Tracker, hand: Option<TileId>) -> TableView {
        let cat = catalogue();
        let game = tracker.game();
        let record = tracker.record();
        let (history, score_lines) = history(&record);
        let (if_ended_now, final_lines) = match record.replay() {
            Ok(r) => {
                let lines = r
                    .events
                    .iter()
                    .filter(|e| e.turn.is_none())
                    .map(score_line)
                    .collect();
                (r.game.scores().to_vec(), lines)
            }
            Err(_) => (game.scores().to_vec(), Vec::new()),
        };
        let cells = game
            .board()
            .tiles()
            .iter()
            .map(|t| CellView {
                pos: t.placement.pos,
                tile: cat.tile(t.tile).name.clone(),
                rot: t.placement.rot.degrees(),
                quad: tracker.cell_quad(t.placement.pos),
            })
            .collect();
        let hand = hand.map(|tile| {
            let mut spots: Vec<SpotView> = Vec::new();
            for p in game.legal_placements(tile) {
                match spots.iter_mut().find(|s| s.pos == p.pos) {
                    Some(s) => s.rots.push(p.rot.degrees()),
                    None => spots.push(SpotView {
                        pos: p.pos,
                        rots: vec![p.rot.degrees()],
                        quad: tracker.cell_quad(p.pos),
                    }),
                }
            }
            (cat.tile(tile).name.clone(), spots)
        });
        TableView {
            players: tracker.players().to_vec(),
            turns: record.turns.clone(),
            scores: game.scores().to_vec(),
            history,
            score_lines,
            if_ended_now,
            final_lines,
            current: game.current_player().index(),
            remaining: game.remaining_total(),
            cells,
            hand,
            owned: owned_features(game),
            follower_spots: follower_spots(tracker),
            questions: tracker.questions().to_vec(),
            doubts: tracker.doubts(),
            registered: tracker.calibration().is_some(),
            figure_colours: tracker.enrolment().colours().to_vec(),
        }
    }
}

impl TableView {
    /// The laid tile under picture point `at` (pixels) and the index of its feature there
    /// (among its type's features; other values where no feature is).
    pub fn feature_under(&self, at: [f64; 2]) -> Option<(Pos, usize)> {
        self.cells.iter().find_map(|cell| {
            let quad = cell.quad?;
            let to_tile = invert_homography(&quad_homography(&quad).ok()?);
            let uv = apply_homography(&to_tile, at);
            if !(0.0..1.0).contains(&uv[0]) || !(0.0..1.0).contains(&uv[1]) {
                return None;
            }
            let tile = catalogue().tile_id(&cell.tile)?;
            let rot = Rotation::from_degrees(cell.rot).unwrap_or_default();
            let label = label_at(
                &TileShape::of(tile).labels,
                [uv[0] as f32, uv[1] as f32],
                rot,
            );
            Some((cell.pos, usize::from(label)))
        })
    }
}

/// Points after each turn, and every score line, from replaying the record turn by turn.
fn history(record: &Record) -> (Vec<Vec<u32>>, Vec<ScoreLine>) {
    let players = record.players.len();
    let mut now = vec![0u32; players];
    let mut history = vec![now.clone()];
    let mut lines = Vec::new();
    let Ok(replay) = record.replay_open() else {
        return (history, lines);
    };
    let mut events = replay.events.iter().peekable();
    for turn in 1..=record.turns.len() as u32 {
        while let Some(e) = events.next_if(|e| e.turn.is_some_and(|t| t <= turn)) {
            for p in &e.players {
                now[p.index()] += e.points;
            }
            lines.push(score_line(e));
        }
        history.push(now.clone());
    }
    (history, lines)
}

fn score_line(e: &crate::rules::ScoreEvent) -> ScoreLine {
    ScoreLine {
        turn: e.turn,
        players: e.players.iter().map(|p| p.index()).collect(),
        points: e.points,
        what: format!("{} ({} tiles)", e.feature.name(), e.tiles.len()),
    }
}

/// The features followers hold, each with its parts on every tile (a cloister's one part is
/// its tile; the laid tiles around it come with it).
fn owned_features(game: &Game) -> Vec<OwnedFeature> {
    let cat = catalogue();
    let players = game.scores().len();
    let mut found: Vec<(&Feature, OwnedFeature)> = Vec::new();
    for placed in game.board().tiles() {
        let (pos, rot) = (placed.placement.pos, placed.placement.rot);
        for (local, f) in cat.tile(placed.tile).features.iter().enumerate() {
            let Some(port) = f.ports.rotated(rot).iter().next() else {
                continue;
            };
            let Some(group) = game.feature_at(pos, port).filter(|g| g.is_occupied()) else {
                continue;
            };
            let part = FeaturePart {
                pos,
                tile: placed.tile,
                rot,
                local,
            };
            match found.iter_mut().find(|(g, _)| std::ptr::eq(*g, group)) {
                Some((_, owned)) => owned.parts.push(part),
                None => found.push((
                    group,
                    OwnedFeature {
                        kind: f.kind,
                        owners: group.majority(players).iter().map(|p| p.index()).collect(),
                        parts: vec![part],
                        around: around(game, f.kind, pos),
                    },
                )),
            }
        }
    }
    found.into_iter().map(|(_, owned)| owned).collect()
}

/// The laid tiles of the 3×3 cells around a cloister at `pos` (none for other kinds).
fn around(game: &Game, kind: FeatureKind, pos: Pos) -> Vec<Pos> {
    if kind != FeatureKind::Cloister {
        return Vec::new();
    }
    std::iter::once(pos)
        .chain(pos.ring())
        .filter(|&p| game.board().get(p).is_some())
        .collect()
}

/// The open tile's free features, with where a follower would stand in the picture.
fn follower_spots(tracker: &Tracker) -> Vec<FollowerSpotView> {
    let game = tracker.game();
    let turns = tracker.turns();
    let Some(open) = turns.last().filter(|t| t.follower.is_none()) else {
        return Vec::new();
    };
    let (Some(pos), true) = (open.at, game.tile_laid()) else {
        return Vec::new();
    };
    let Some(placed) = game.board().get(pos) else {
        return Vec::new();
    };
    let cat = catalogue();
    let quad = tracker.cell_quad(pos);
    game.follower_spots()
        .iter()
        .map(|spot| {
            let port = spot.port();
            let at = quad.and_then(|q| {
                let local = cat
                    .tile(placed.tile)
                    .feature_at_rotated(port, placed.placement.rot)?;
                let anchor = TileShape::of(placed.tile).features[local].anchor;
                Some(in_quad(&q, rotate(anchor, placed.placement.rot)))
            });
            FollowerSpotView {
                kind: spot.kind,
                port: port.name().to_string(),
                at,
            }
        })
        .collect()
}

/// A point of the unit tile (x east, y south) inside a cell's picture quad (bilinear).
pub fn in_quad(q: &Quad, p: [f32; 2]) -> [f64; 2] {
    let (u, v) = (f64::from(p[0]), f64::from(p[1]));
    let [nw, ne, se, sw] = *q;
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    lerp(lerp(nw, ne, u), lerp(sw, se, u), v)
}

//! End-to-end evaluation: simulated games filmed, tracked, and compared with the truth.

use std::time::Instant;

use super::Tracker;
use crate::camera::FrameSource;
use crate::rules::{catalogue, Rotation};
use crate::sim::game::{film_game, FilmedGame};

/// What tracking simulated games measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrackReport {
    /// Games filmed.
    pub games: usize,
    /// Games whose final scores came out exactly right.
    pub scores_right: usize,
    /// Games whose final scores came out wrong with no question raised: silent errors.
    pub wrong_silently: usize,
    /// Turns played in all games.
    pub turns: usize,
    /// Turns committed exactly right (tile, cell, rotation the rules can tell apart, follower).
    pub turns_right: usize,
    /// Questions the tracker would have asked.
    pub questions: usize,
    /// Frames processed per second of wall time (rendering excluded).
    pub frames_per_s: f64,
    /// Each game's result, in order.
    pub per_game: Vec<GameResult>,
}

/// How one filmed game was tracked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameResult {
    /// Players.
    pub players: usize,
    /// Turns played.
    pub turns: usize,
    /// Turns committed exactly right.
    pub turns_right: usize,
    /// Questions raised.
    pub questions: usize,
    /// Final scores, true and as tracked.
    pub scores: (Vec<u32>, Vec<u32>),
}

impl TrackReport {
    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| measure | value |\n|---|---|\n| games | {} |\n\
             | games with exactly the true final scores | {:.1} % |\n\
             | games wrong with no question raised | {} |\n\
             | turns committed exactly right | {:.2} % of {} |\n\
             | questions raised | {} |\n| tracker speed | {:.0} frames/s |\n",
            self.games,
            pct(self.scores_right, self.games),
            self.wrong_silently,
            pct(self.turns_right, self.turns),
            self.turns,
            self.questions,
            self.frames_per_s
        )
    }

    /// One row per game as a Markdown table.
    pub fn games_table(&self) -> String {
        let mut out = String::from(
            "| game | players | turns right | questions | final scores (true) | as tracked |\n|---|---|---|---|---|---|\n",
        );
        for (i, g) in self.per_game.iter().enumerate() {
            let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
            out.push_str(&format!(
                "| {i} | {} | {} of {} | {} | {} | {}{} |\n",
                g.players,
                g.turns_right,
                g.turns,
                g.questions,
                list(&g.scores.0),
                list(&g.scores.1),
                if g.scores.0 == g.scores.1 { " ✓" } else { "" }
            ));
        }
        out
    }
}

/// Films `games` random games of `turns` turns (overhead and oblique, 720p, every style and
/// table top), tracks each from its frames alone and compares the result with the truth.
pub fn evaluate_tracking(games: usize, turns: usize, seed: u64) -> anyhow::Result<TrackReport> {
    let cat = catalogue();
    let mut report = TrackReport::default();
    let (mut frames, mut busy) = (0usize, 0.0f64);
    for g in 0..games {
        let FilmedGame { record, mut source } =
            film_game(seed.wrapping_mul(7_919).wrapping_add(g as u64), turns, 5.0)?;
        let mut tracker = Tracker::new(record.players.clone(), None)?;
        while let Some(frame) = source.next_frame()? {
            let started = Instant::now();
            tracker.feed_at(&frame.image, Some(frame.time_s))?;
            busy += started.elapsed().as_secs_f64();
            frames += 1;
        }
        report.games += 1;
        let asked = tracker.questions().len();
        report.questions += asked;
        let tracked = tracker.into_record()?;
        report.turns += record.turns.len();
        let right_before = report.turns_right;
        for (truth, seen) in record.turns.iter().zip(&tracked.turns) {
            let same_tile = truth.tile == seen.tile && truth.at == seen.at;
            let id = cat.tile_id(&truth.tile);
            let rot = |r: Option<u16>| Rotation::from_degrees(r.unwrap_or(0)).unwrap_or_default();
            let same_rot = id.is_some_and(|id| {
                crate::vision::terrain::same_for_the_rules(id, rot(truth.rot), rot(seen.rot))
            });
            let feature = |entry: &crate::record::TurnEntry| {
                let id = cat.tile_id(&entry.tile)?;
                let port = entry.follower.as_ref()?.port.parse().ok()?;
                cat.tile(id).feature_at_rotated(port, rot(entry.rot))
            };
            if same_tile && same_rot && feature(truth) == feature(seen) {
                report.turns_right += 1;
            }
        }
        let true_scores = record.replay()?.game.scores().to_vec();
        let seen_scores = tracked
            .replay()
            .map(|r| r.game.scores().to_vec())
            .unwrap_or_default();
        if true_scores == seen_scores {
            report.scores_right += 1;
        } else if asked == 0 {
            report.wrong_silently += 1;
        }
        report.per_game.push(GameResult {
            players: record.players.len(),
            turns: record.turns.len(),
            turns_right: report.turns_right - right_before,
            questions: asked,
            scores: (true_scores, seen_scores),
        });
    }
    report.frames_per_s = frames as f64 / busy.max(1e-9);
    Ok(report)
}

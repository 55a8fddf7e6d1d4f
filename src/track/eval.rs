//! End-to-end evaluation: simulated games filmed, tracked, and compared with the truth.

use std::time::Instant;

use super::Tracker;
use crate::camera::{CameraFrame, FrameSource};
use crate::record::TurnEntry;
use crate::rules::{catalogue, Rotation};
use crate::sim::artwork::Artwork;
use crate::sim::game::{film_game_with_art, FilmedGame};
use crate::vision::terrain::same_for_the_rules;

/// Whether a tracked turn is the true one as far as the rules can tell: the same tile in the
/// same cell, turned alike for the rules, its follower (if any) on the same feature. Two
/// rotations the rules cannot tell apart number a symmetric tile's features differently, so the
/// feature is compared as it lies on the board.
pub fn same_turn(truth: &TurnEntry, seen: &TurnEntry) -> bool {
    let cat = catalogue();
    let rot = |r: Option<u16>| Rotation::from_degrees(r.unwrap_or(0)).unwrap_or_default();
    let Some(id) = cat.tile_id(&truth.tile) else {
        return false;
    };
    let feature = |entry: &TurnEntry| {
        let port = entry.follower.as_ref()?.port.parse().ok()?;
        let r = rot(entry.rot);
        let f = &cat.tile(id).features[cat.tile(id).feature_at_rotated(port, r)?];
        Some((f.kind, f.ports.rotated(r)))
    };
    truth.tile == seen.tile
        && truth.at == seen.at
        && same_for_the_rules(id, rot(truth.rot), rot(seen.rot))
        && feature(truth) == feature(seen)
}

/// What tracking simulated games measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrackReport {
    /// Games filmed.
    pub games: usize,
    /// Games whose final scores came out exactly right.
    pub scores_right: usize,
    /// Games whose final scores came out exactly right with no question asked (a question
    /// counts as an error).
    pub right_unasked: usize,
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
    /// Its number among the games of the seed.
    pub game: usize,
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
    /// Every turn, true and as tracked (`None` where the tracker committed fewer).
    pub turn_pairs: Vec<(TurnEntry, Option<TurnEntry>)>,
    /// The questions raised, in order.
    pub asked: Vec<String>,
}

impl TrackReport {
    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| measure | value |\n|---|---|\n| games | {} |\n\
             | games with exactly the true final scores | {:.1} % |\n\
             | … and no question asked | {:.1} % |\n\
             | games wrong with no question raised | {} |\n\
             | turns committed exactly right | {:.2} % of {} |\n\
             | questions raised | {} |\n| tracker speed | {:.0} frames/s |\n",
            self.games,
            pct(self.scores_right, self.games),
            pct(self.right_unasked, self.games),
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
        for g in &self.per_game {
            let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
            out.push_str(&format!(
                "| {} | {} | {} of {} | {} | {} | {}{} |\n",
                g.game,
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

    /// Every question raised, one line each, after its game's number.
    pub fn questions_list(&self) -> String {
        let mut out = String::new();
        for g in &self.per_game {
            for q in &g.asked {
                out.push_str(&format!("- game {}: {q}\n", g.game));
            }
        }
        if out.is_empty() {
            out.push_str("none\n");
        }
        out
    }
}

/// Films `games` random games of `turns` turns (overhead and oblique, 720p, every style and
/// table top; the tiles drawn from `artwork` where given), tracks each from its frames alone
/// and compares the result with the truth.
pub fn evaluate_tracking(
    games: usize,
    turns: usize,
    seed: u64,
    artwork: Option<&Artwork>,
) -> anyhow::Result<TrackReport> {
    evaluate_games(0..games, turns, seed, artwork, &mut |_, _, _| Ok(()))
}

/// Watches a game being tracked: each frame with its index and the events the tracker
/// reported on it.
pub type Watch<'a> = dyn FnMut(usize, &CameraFrame, &[super::Event]) -> anyhow::Result<()> + 'a;

/// [`evaluate_tracking`] for the games numbered `which` of `seed` only, with every frame handed
/// to `watch` with its index and the events the tracker reported on it (to follow one game).
pub fn evaluate_games(
    which: impl IntoIterator<Item = usize>,
    turns: usize,
    seed: u64,
    artwork: Option<&Artwork>,
    watch: &mut Watch,
) -> anyhow::Result<TrackReport> {
    let mut report = TrackReport::default();
    let (mut frames, mut busy) = (0usize, 0.0f64);
    for g in which {
        let game_seed = seed.wrapping_mul(7_919).wrapping_add(g as u64);
        let FilmedGame { record, mut source } = film_game_with_art(game_seed, turns, 5.0, artwork)?;
        let mut tracker = Tracker::new(record.players.clone(), None)?;
        let mut frame_index = 0;
        while let Some(frame) = source.next_frame()? {
            let started = Instant::now();
            let events = tracker.feed_at(&frame.image, Some(frame.time_s))?;
            busy += started.elapsed().as_secs_f64();
            watch(frame_index, &frame, &events)?;
            frames += 1;
            frame_index += 1;
        }
        report.games += 1;
        tracker.end_of_pictures();
        let asked = tracker.questions().to_vec();
        report.questions += asked.len();
        let tracked = tracker.into_record()?;
        report.turns += record.turns.len();
        let right_before = report.turns_right;
        report.turns_right += record
            .turns
            .iter()
            .zip(&tracked.turns)
            .filter(|(truth, seen)| same_turn(truth, seen))
            .count();
        let true_scores = record.replay()?.game.scores().to_vec();
        let seen_scores = tracked
            .replay()
            .map(|r| r.game.scores().to_vec())
            .unwrap_or_default();
        if true_scores == seen_scores {
            report.scores_right += 1;
            report.right_unasked += usize::from(asked.is_empty());
        } else if asked.is_empty() {
            report.wrong_silently += 1;
        }
        report.per_game.push(GameResult {
            game: g,
            players: record.players.len(),
            turns: record.turns.len(),
            turns_right: report.turns_right - right_before,
            questions: asked.len(),
            scores: (true_scores, seen_scores),
            turn_pairs: record
                .turns
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), tracked.turns.get(i).cloned()))
                .collect(),
            asked,
        });
    }
    report.frames_per_s = frames as f64 / busy.max(1e-9);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::FollowerEntry;

    fn turn(tile: &str, rot: u16, port: Option<&str>) -> TurnEntry {
        TurnEntry {
            follower: port.map(|p| FollowerEntry {
                port: p.to_string(),
                figure: crate::rules::Figure::Normal,
            }),
            ..TurnEntry::laid(tile, crate::rules::Pos::new(1, 0), rot)
        }
    }

    #[test]
    fn a_straight_road_turned_half_round_is_the_same_turn() {
        // U (a straight road, west–east at 0°) runs north–south at 90° and at 270° alike; a
        // farmer on the field west of it is on the same field either way.
        assert!(same_turn(
            &turn("U", 90, Some("NL")),
            &turn("U", 270, Some("NL"))
        ));
        assert!(same_turn(
            &turn("U", 90, Some("N")),
            &turn("U", 270, Some("S"))
        ));
        assert!(!same_turn(
            &turn("U", 90, Some("NL")),
            &turn("U", 270, Some("NR"))
        ));
        assert!(!same_turn(
            &turn("U", 90, Some("NL")),
            &turn("U", 270, Some("N"))
        ));
        assert!(!same_turn(
            &turn("U", 90, Some("NL")),
            &turn("U", 270, None)
        ));
        assert!(!same_turn(&turn("U", 90, None), &turn("U", 0, None)));
    }
}

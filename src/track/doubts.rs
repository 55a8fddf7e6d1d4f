//! Doubts the players need not settle at once. A figure standing on a tile may hide its shield,
//! so that it reads as either of two tiles that differ only by it (M or N, Q or R, …). The
//! likelier is committed and the tile looked at again in every still picture: once one shows it
//! plainly (the figure taken back when its city scored, say), the doubt is settled and the turn
//! corrected if need be, scores replayed. Doubts still open when the pictures end are asked.

use opencv::core::Mat;

use super::{Event, Tracker};
use crate::rules::{catalogue, Pos};
use crate::vision::locate::MIN_FIT;
use crate::vision::terrain::differ_by_shields;
use crate::vision::terrain::same_for_the_rules;
use crate::vision::tile::Candidate;

/// How much likelier than the other a later reading must make one tile of a doubt to settle it.
const SETTLED: f64 = 8.0;

/// What the players are asked when no picture registered the table.
const NEVER_REGISTERED: &str =
    "the start tile was never found: is it in view, alone on the table, before the first turn?";

/// A tile whose shield a figure hid when it was laid: it may be `other`.
#[derive(Clone, Debug)]
pub(super) struct ShieldDoubt {
    pub pos: Pos,
    pub other: Candidate,
}

impl Tracker {
    /// Reads every doubted tile again in `frame` once no figure stands on it: a clear reading
    /// of either tile settles its doubt, correcting the turn where it is the other one.
    pub(super) fn settle_doubts(&mut self, frame: &Mat) -> anyhow::Result<Vec<Event>> {
        let Some(model) = self.calibration.as_ref().map(|c| c.colours.clone()) else {
            return Ok(Vec::new());
        };
        let mut events = Vec::new();
        for doubt in std::mem::take(&mut self.shield_doubts) {
            // A tile taken back, or corrected since (read again while its turn was open), is
            // no longer in doubt.
            let Some(placed) = self.game.board().get(doubt.pos).copied() else {
                continue;
            };
            if !self.still_doubted(&doubt) {
                continue;
            }
            let Some(quad) = self.quads.get(&doubt.pos).copied() else {
                continue;
            };
            // Only a picture with the tile bare tells more than the one that raised the doubt
            // (the same figure over the same shield reads alike, however it is cut).
            let cut = self.cut_cell(frame, &quad, &model)?;
            if cut.covered()? {
                self.shield_doubts.push(doubt);
                continue;
            }
            let reading = self.read_cut(cut, &model)?;
            let chance = |tile, rot| {
                reading
                    .ranked
                    .iter()
                    .find(|c| c.tile == tile && same_for_the_rules(tile, c.rot, rot))
                    .map_or(0.0, |c| c.probability)
            };
            let committed = chance(placed.tile, placed.placement.rot);
            let other = chance(doubt.other.tile, doubt.other.rot);
            if reading.fit < MIN_FIT || (committed < SETTLED * other && other < SETTLED * committed)
            {
                self.shield_doubts.push(doubt);
            } else if other >= SETTLED * committed {
                match self.swap_tile(doubt.pos, doubt.other)? {
                    Some(e) => events.push(e),
                    None => self.shield_doubts.push(doubt),
                }
            }
        }
        Ok(events)
    }

    /// Replaces the tile at `pos` by `other` (same edges and features: its follower keeps its
    /// port), replaying the game; `None` if it does not replay.
    fn swap_tile(&mut self, pos: Pos, other: Candidate) -> anyhow::Result<Option<Event>> {
        let mut turns = self.turns();
        let Some(entry) = turns.iter_mut().find(|t| t.at == Some(pos)) else {
            return Ok(None);
        };
        let name = catalogue().tile(other.tile).name.clone();
        entry.tile = name.clone();
        entry.rot = Some(other.rot.degrees());
        if self.rebuild(turns).is_err() {
            return Ok(None);
        }
        Ok(Some(Event::Tile {
            pos,
            tile: name,
            rot: other.rot.degrees(),
        }))
    }

    /// Whether the tile at a doubt's cell still differs from its other reading by its shields
    /// only (not taken back, nor corrected since).
    fn still_doubted(&self, doubt: &ShieldDoubt) -> bool {
        self.game.board().get(doubt.pos).is_some_and(|placed| {
            differ_by_shields(
                (placed.tile, placed.placement.rot),
                (doubt.other.tile, doubt.other.rot),
            )
        })
    }

    /// The open doubts, in words.
    pub fn doubts(&self) -> Vec<String> {
        let cat = catalogue();
        self.shield_doubts
            .iter()
            .filter(|d| self.still_doubted(d))
            .filter_map(|d| {
                let placed = self.game.board().get(d.pos)?;
                Some(format!(
                    "is the tile at ({}, {}) {} turned {}° or {} turned {}°? A figure hides its shield",
                    d.pos.x,
                    d.pos.y,
                    cat.tile(placed.tile).name,
                    placed.placement.rot.degrees(),
                    cat.tile(d.other.tile).name,
                    d.other.rot.degrees()
                ))
            })
            .collect()
    }

    /// The pictures have ended: every open doubt becomes a question, and so does a table never
    /// registered (no picture showed the start tile alone), which would otherwise pass for a
    /// game with no tile laid.
    pub fn end_of_pictures(&mut self) -> Vec<Event> {
        let mut questions = self.doubts();
        if self.calibration.is_none() {
            questions.push(NEVER_REGISTERED.to_string());
        }
        self.shield_doubts.clear();
        questions
            .into_iter()
            .map(|q| {
                self.ask(q.clone());
                Event::Question(q)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_that_never_showed_the_start_tile_end_with_a_question() {
        let mut tracker = super::super::after_turns(Vec::new());
        assert_eq!(
            tracker.end_of_pictures(),
            vec![Event::Question(NEVER_REGISTERED.to_string())]
        );
        assert_eq!(tracker.questions(), [NEVER_REGISTERED.to_string()]);
    }
}

//! A tile read earlier, corrected by a later one: when a new tile reads clearly as something
//! the rules forbid only because of one neighbour, and that neighbour had a reading nearly as
//! likely that fits both, the neighbour was misread (a figure standing on a road's end, say).

use super::{Event, Tracker};
use crate::rules::{catalogue, Dir, Pos, TileId};
use crate::vision::tile::Candidate;

/// How likely a new tile's reading must be to correct a neighbour.
const SURE: f64 = 0.9;
/// How likely (when it was read) a neighbour's other reading must have been to be taken now
/// (the recogniser's probabilities are sharp: a true runner-up may score 1e-4).
const PLAUSIBLE: f64 = 1e-6;
/// Readings kept per tile for later correction.
pub(super) const KEPT: usize = 8;

impl Tracker {
    /// Corrects the one neighbour that keeps reading `c` out of cell `pos`, if a reading of it
    /// that was plausible when it was read fits `c` and all its other neighbours, and the game
    /// replays with it. Returns the corrected tile's event.
    pub(super) fn revise_neighbour(&mut self, pos: Pos, c: &Candidate) -> Option<Event> {
        if c.probability < SURE || self.game.remaining(c.tile) == 0 {
            return None;
        }
        let cat = catalogue();
        let board = self.game.board();
        let new = cat.tile(c.tile);
        let mut clashing = Dir::ALL.into_iter().filter(|&d| {
            board.get(pos.step(d)).is_some_and(|n| {
                cat.tile(n.tile).edge(d.opposite(), n.placement.rot) != new.edge(d, c.rot)
            })
        });
        let (Some(d), None) = (clashing.next(), clashing.next()) else {
            return None;
        };
        let at = pos.step(d);
        let placed = *board.get(at)?;
        let index = self.turns().iter().position(|t| t.at == Some(at))?;
        let fits = |alt: &Candidate| {
            (alt.tile == placed.tile || self.game.remaining(alt.tile) > 0)
                && Dir::ALL.into_iter().all(|e| {
                    let side = cat.tile(alt.tile).edge(e, alt.rot);
                    if at.step(e) == pos {
                        return side == new.edge(e.opposite(), c.rot);
                    }
                    board.get(at.step(e)).is_none_or(|n| {
                        cat.tile(n.tile).edge(e.opposite(), n.placement.rot) == side
                    })
                })
        };
        let alternative = self
            .readings
            .get(&at)?
            .iter()
            .filter(|a| a.probability >= PLAUSIBLE)
            .filter(|a| (a.tile, a.rot) != (placed.tile, placed.placement.rot))
            .find(|a| fits(a))
            .copied()?;
        self.rewrite(index, alternative.tile, alternative)
    }

    /// Replaces the tile of turn `index` by `tile` turned as `reading` says, keeping its
    /// follower (refused if the follower's feature is gone or the game does not replay).
    fn rewrite(&mut self, index: usize, tile: TileId, reading: Candidate) -> Option<Event> {
        let mut turns = self.turns();
        let entry = turns.get_mut(index)?;
        entry.tile = catalogue().tile(tile).name.clone();
        entry.rot = Some(reading.rot.degrees());
        let (at, name) = (entry.at?, entry.tile.clone());
        self.rebuild(turns).ok()?;
        Some(Event::Tile {
            pos: at,
            tile: name,
            rot: reading.rot.degrees(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rotation;

    fn tracker_with_l_above_start() -> Tracker {
        // Read as L (city south, roads west, north and east); really D (city south, road
        // west–east, field north): a figure stood on the field where L's north road would be.
        let mut tracker = super::super::after_ann_lays("L", Pos::new(0, -1), 180);
        let cat = catalogue();
        let reading = |name: &str, probability| Candidate {
            tile: cat.tile_id(name).unwrap(),
            rot: Rotation::R180,
            probability,
        };
        tracker.readings.insert(
            Pos::new(0, -1),
            vec![reading("L", 0.9998), reading("D", 2e-4)],
        );
        tracker
    }

    fn h_turned_90(probability: f64) -> Candidate {
        Candidate {
            tile: catalogue().tile_id("H").unwrap(),
            rot: Rotation::R90,
            probability,
        }
    }

    #[test]
    fn a_sure_reading_corrects_the_one_neighbour_in_its_way() {
        let mut tracker = tracker_with_l_above_start();
        let above = Pos::new(0, -2);
        // H turned 90°: cities west and east, field south — L's north road forbids it.
        assert!(!tracker.allows(&h_turned_90(1.0), above));
        let event = tracker.revise_neighbour(above, &h_turned_90(1.0));
        assert_eq!(
            event,
            Some(Event::Tile {
                pos: Pos::new(0, -1),
                tile: "D".into(),
                rot: 180
            })
        );
        let d = catalogue().tile_id("D").unwrap();
        assert_eq!(tracker.game().board().get(Pos::new(0, -1)).unwrap().tile, d);
        assert!(tracker.allows(&h_turned_90(1.0), above));
        assert_eq!(tracker.turns()[0].tile, "D");
    }

    #[test]
    fn an_unsure_reading_corrects_nothing() {
        let mut tracker = tracker_with_l_above_start();
        assert_eq!(
            tracker.revise_neighbour(Pos::new(0, -2), &h_turned_90(0.6)),
            None
        );
        assert_eq!(tracker.turns()[0].tile, "L");
    }

    #[test]
    fn no_correction_without_a_fitting_runner_up() {
        let mut tracker = tracker_with_l_above_start();
        tracker
            .readings
            .get_mut(&Pos::new(0, -1))
            .unwrap()
            .truncate(1);
        assert_eq!(
            tracker.revise_neighbour(Pos::new(0, -2), &h_turned_90(1.0)),
            None
        );
        assert_eq!(tracker.turns()[0].tile, "L");
    }
}

//! A tile read earlier, corrected by a later one: when a new tile reads clearly as something
//! the rules forbid only because of one neighbour, and that neighbour had a reading nearly as
//! likely that fits both, the neighbour was misread (a figure standing on a road's end, say).

use opencv::core::Mat;

use super::{Event, Tracker};
use crate::record::FollowerEntry;
use crate::rules::{catalogue, Dir, Port, Pos};
use crate::vision::tile::Candidate;

/// How likely a new tile's reading must be to correct a neighbour.
const SURE: f64 = 0.9;
/// How likely (when it was read) a neighbour's other reading must have been to be taken now
/// (the recogniser's probabilities are sharp: a true runner-up may score 1e-4).
const PLAUSIBLE: f64 = 1e-6;
/// How much likelier the neighbour's other reading beside the new tile's must be than the
/// neighbour as read beside the reading the rules allow, for the neighbour to be corrected:
/// closer, the new tile is committed as the rules allow and the players are asked (art 4848
/// game 1: V read turned 0° at 0.993, its true turn 8e-4; beside it A, read at 0.998 with a
/// follower on its road, corrected to B at 0.002, silently wrong).
const MARGIN: f64 = 3.0;
/// Readings kept per tile for later correction.
pub(super) const KEPT: usize = 8;

impl Tracker {
    /// Corrects the one neighbour that keeps reading `c` out of cell `pos`, if a reading of it
    /// that was plausible when it was read fits `c` and all its other neighbours, the two
    /// together are [`MARGIN`] times likelier than the neighbour as read beside the likeliest
    /// reading the rules allow at `pos` (probability `allowed`), and the game replays with it
    /// (its follower read again in `frame`, see [`Tracker::rewrite`]). Returns the corrected
    /// tile's events.
    pub(super) fn revise_neighbour(
        &mut self,
        pos: Pos,
        c: &Candidate,
        allowed: f64,
        frame: &Mat,
    ) -> anyhow::Result<Vec<Event>> {
        Ok(match self.correction(pos, c, allowed) {
            Some((index, alternative)) => self.rewrite(index, alternative, frame)?,
            None => Vec::new(),
        })
    }

    /// The turn whose tile keeps reading `c` out of cell `pos`, and what it should read.
    fn correction(&self, pos: Pos, c: &Candidate, allowed: f64) -> Option<(usize, Candidate)> {
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
        let readings = self.readings.get(&at)?;
        let as_placed = |a: &&Candidate| (a.tile, a.rot) == (placed.tile, placed.placement.rot);
        let alternative = readings
            .iter()
            .filter(|a| a.probability >= PLAUSIBLE)
            .filter(|a| !as_placed(a))
            .find(|a| fits(a))
            .copied()?;
        // Art 4848 game 4: B (0.986) next to a sure K, whose J (1e-5) fits it, where A (0.014,
        // the truth) fits K as it is.
        let placed_probability = readings
            .iter()
            .find(as_placed)
            .map_or(1.0, |a| a.probability);
        (c.probability * alternative.probability > MARGIN * allowed * placed_probability)
            .then_some((index, alternative))
    }

    /// Replaces the tile of turn `index` by `reading` (nothing changes if the game does not
    /// replay). Its follower stood where its figure stands, not on the feature the old reading
    /// had there: it is read again in `frame` on the new tile; where the picture no longer
    /// shows it, it keeps its port if the game replays so, and the players are asked.
    fn rewrite(
        &mut self,
        index: usize,
        reading: Candidate,
        frame: &Mat,
    ) -> anyhow::Result<Vec<Event>> {
        let mut turns = self.turns();
        let Some(entry) = turns.get_mut(index) else {
            return Ok(Vec::new());
        };
        entry.tile = catalogue().tile(reading.tile).name.clone();
        entry.rot = Some(reading.rot.degrees());
        let before = entry.follower.take();
        let seat = entry
            .player
            .as_deref()
            .and_then(|p| self.players.iter().position(|q| q.name == p));
        let (Some(at), name) = (entry.at, entry.tile.clone()) else {
            return Ok(Vec::new());
        };
        let undone = self.turns();
        if self.rebuild(turns.clone()).is_err() {
            return Ok(Vec::new());
        }
        let mut events = vec![Event::Tile {
            pos: at,
            tile: name,
            rot: reading.rot.degrees(),
        }];
        let Some(before) = before else {
            return Ok(events);
        };
        let mut with_port = |port: String| {
            turns[index].follower = Some(FollowerEntry {
                port,
                figure: before.figure,
            });
            turns.clone()
        };
        if let Some(port) = self.figure_seen(frame, at, seat)? {
            if self.rebuild(with_port(port.name().to_string())).is_ok() {
                events.push(Event::Follower {
                    port: port.name().to_string(),
                });
                return Ok(events);
            }
        }
        if self.rebuild(with_port(before.port.clone())).is_err() {
            // The follower fits the new tile nowhere it could be: the old reading stays.
            self.rebuild(undone)?;
            return Ok(Vec::new());
        }
        let owner = seat.map_or("?", |s| self.players[s].name.as_str());
        let q = format!(
            "the tile at ({}, {}) was read again: does {owner}'s follower there stand on {}?",
            at.x, at.y, before.port
        );
        self.ask(q.clone());
        events.push(Event::Question(q));
        Ok(events)
    }

    /// The port under the figure of the player in `seat` on the tile at `pos`, as `frame`
    /// shows it.
    fn figure_seen(
        &self,
        frame: &Mat,
        pos: Pos,
        seat: Option<usize>,
    ) -> anyhow::Result<Option<Port>> {
        let Some(seat) = seat else {
            return Ok(None);
        };
        Ok(self
            .followers_in(frame, pos)?
            .into_iter()
            .find(|f| f.colour == seat)
            .map(|f| f.port))
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
        let events = tracker
            .revise_neighbour(above, &h_turned_90(1.0), 0.0, &Mat::default())
            .unwrap();
        assert_eq!(
            events,
            vec![Event::Tile {
                pos: Pos::new(0, -1),
                tile: "D".into(),
                rot: 180
            }]
        );
        let d = catalogue().tile_id("D").unwrap();
        assert_eq!(tracker.game().board().get(Pos::new(0, -1)).unwrap().tile, d);
        assert!(tracker.allows(&h_turned_90(1.0), above));
        assert_eq!(tracker.turns()[0].tile, "D");
    }

    #[test]
    fn an_unsure_reading_corrects_nothing() {
        let mut tracker = tracker_with_l_above_start();
        let events = tracker
            .revise_neighbour(Pos::new(0, -2), &h_turned_90(0.6), 0.0, &Mat::default())
            .unwrap();
        assert!(events.is_empty());
        assert_eq!(tracker.turns()[0].tile, "L");
    }

    #[test]
    fn a_neighbour_s_runner_up_not_clearly_the_likelier_mistake_corrects_nothing() {
        // H turned 90° read surely beside L, whose fitting runner-up is D (2e-4).
        let revise = |tracker: &mut Tracker, allowed: f64| {
            let above = Pos::new(0, -2);
            let sure = h_turned_90(0.999);
            tracker
                .revise_neighbour(above, &sure, allowed, &Mat::default())
                .unwrap()
        };
        let mut tracker = tracker_with_l_above_start();
        // With a reading the rules allow at 1e-3, five times the runner-up: misreading the new
        // tile is likelier.
        assert!(revise(&mut tracker, 1e-3).is_empty());
        assert_eq!(tracker.turns()[0].tile, "L");
        // At half the runner-up's, the runner-up is only twice as likely a mistake: too close to
        // call (the players are asked about the new tile instead).
        assert!(revise(&mut tracker, 2e-4 / 2.0).is_empty());
        assert_eq!(tracker.turns()[0].tile, "L");
        // At a twentieth of the runner-up's, it is the far likelier mistake.
        assert!(!revise(&mut tracker, 2e-4 / 20.0).is_empty());
        assert_eq!(tracker.turns()[0].tile, "D");
    }

    #[test]
    fn no_correction_without_a_fitting_runner_up() {
        let mut tracker = tracker_with_l_above_start();
        tracker
            .readings
            .get_mut(&Pos::new(0, -1))
            .unwrap()
            .truncate(1);
        let events = tracker
            .revise_neighbour(Pos::new(0, -2), &h_turned_90(1.0), 0.0, &Mat::default())
            .unwrap();
        assert!(events.is_empty());
        assert_eq!(tracker.turns()[0].tile, "L");
    }

    #[test]
    fn a_corrected_tile_s_follower_not_seen_again_keeps_its_port_and_the_players_are_asked() {
        // Seed 900 game 14 of eval track: R read where F lay, its follower read on R's city
        // (E) where it stood on F's field. Here no picture shows the figure again.
        let mut tracker = tracker_with_l_above_start();
        let mut turns = tracker.turns();
        turns[0].follower = Some(FollowerEntry {
            port: "S".into(),
            figure: crate::rules::Figure::Normal,
        });
        tracker.rebuild(turns).unwrap();
        let events = tracker
            .revise_neighbour(Pos::new(0, -2), &h_turned_90(1.0), 0.0, &Mat::default())
            .unwrap();
        assert!(
            matches!(&events[..], [Event::Tile { .. }, Event::Question(q)] if q.contains("(0, -1)")),
            "{events:?}"
        );
        assert_eq!(tracker.turns()[0].tile, "D");
        assert_eq!(tracker.turns()[0].follower.as_ref().unwrap().port, "S");
        assert_eq!(tracker.questions().len(), 1);
    }
}

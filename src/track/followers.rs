//! Followers: the current player's figure on the tile just laid.

use opencv::core::Mat;
use opencv::prelude::*;

use super::change::{alignments, cell_middle, cell_middle_shifted, LIGHT_DRIFT};
use super::{Event, Tracker};
use crate::record::FollowerEntry;
use crate::rules::{Figure, Port, Pos};
use crate::vision::figures::{Blob, FIGURE_SHARE};
use crate::vision::meeples::{cells_below, read_followers, well_inside, FollowerRead};
use crate::vision::rectify::{quad_patch, Quad, MARGIN_PX};

/// Share of a tile's pixels that must have changed, figures aside, for something unread to
/// have come onto it ([`Tracker::unseen_follower`]).
const UNSEEN_FIGURE_CHANGE: f64 = 0.03;
/// Pixels around a figure where its shadow may fall.
const FIGURE_SHADOW_PX: i32 = 4;

/// How near (tile sides) an edge a figure of a player with a follower beyond it may be that
/// follower reaching over.
const NEAR_EDGE: f32 = 0.3;

impl Tracker {
    /// The current player's follower on the open tile, once it stands there.
    pub(super) fn look_for_follower(&mut self, frame: &Mat) -> anyhow::Result<Option<Event>> {
        if self.open_without_follower().is_none() {
            return Ok(None);
        }
        let Some(pos) = self.open.as_ref().and_then(|o| o.at) else {
            return Ok(None);
        };
        let reads = self.followers_in(frame, pos)?;
        self.deploy_mine(&reads, false)
    }

    /// Another player's figure on the tile at `pos`, laid by `seat` with no follower of
    /// theirs: a tile was probably missed or counted twice, so the turn order is off. The
    /// players are asked, once per tile. With `inside_only` (a tile was laid since, whose
    /// follower, put down with it, may rise into this cell), only a figure well inside the
    /// tile counts.
    pub(super) fn foreign_follower(
        &mut self,
        frame: &Mat,
        (pos, seat): (Pos, usize),
        inside_only: bool,
    ) -> anyhow::Result<Option<Event>> {
        if self.asked_about.contains(&pos) {
            return Ok(None);
        }
        let reads = self.followers_in(frame, pos)?;
        let spots = self.game.follower_spots();
        let open = self.open_without_follower().is_some_and(|(p, _)| p == pos);
        let foreign = reads.iter().find(|f| {
            f.colour != seat
                && !self.reaches_over(pos, f)
                && if inside_only {
                    well_inside(f.at)
                } else {
                    open && spots.iter().any(|s| s.ports.contains(f.port))
                }
        });
        let Some(f) = foreign else {
            return Ok(None);
        };
        self.asked_about.push(pos);
        let owner = self.players.get(f.colour).map_or("?", |p| p.name.as_str());
        let whose = &self.players[seat].name;
        let q = format!(
            "{owner}'s follower stands on the tile at ({}, {}), laid in {whose}'s turn: was a tile missed?",
            pos.x, pos.y
        );
        self.ask(q.clone());
        Ok(Some(Event::Question(q)))
    }

    /// Whether figure `f`, read on the tile at `pos`, lies near an edge beyond which its
    /// owner has a follower on the next tile: it may be that one, reaching over (seed 5151
    /// game 15: Red's farmer lying at the south edge of G, seen inside the N laid below).
    fn reaches_over(&self, pos: Pos, f: &FollowerRead) -> bool {
        let near = |v: f32, towards: i32| match towards {
            -1 => v < NEAR_EDGE,
            1 => v > 1.0 - NEAR_EDGE,
            _ => false,
        };
        self.game.meeples().iter().any(|m| {
            let (dx, dy) = (m.pos.x - pos.x, m.pos.y - pos.y);
            m.player.index() == f.colour
                && dx.abs() + dy.abs() == 1
                && (near(f.at[0], dx) || near(f.at[1], dy))
        })
    }

    /// The open tile at `pos` was read again, as something else: its follower (`before`, on
    /// the old reading) is read again on the new one; where the picture no longer shows it, it
    /// keeps its port if the new reading has one of that name, and otherwise the players are
    /// asked.
    pub(super) fn follower_again(
        &mut self,
        frame: &Mat,
        pos: Pos,
        before: FollowerEntry,
    ) -> anyhow::Result<Vec<Event>> {
        let reads = self.followers_in(frame, pos)?;
        if let Some(e) = self.deploy_mine(&reads, false)? {
            return Ok(vec![e]);
        }
        let mut turns = self.turns();
        if let Some(last) = turns.last_mut() {
            last.follower = Some(before.clone());
        }
        if self.rebuild(turns).is_ok() {
            return Ok(vec![Event::Follower { port: before.port }]);
        }
        let q = format!(
            "where does the follower on the tile at ({}, {}) stand?",
            pos.x, pos.y
        );
        self.ask(q.clone());
        Ok(vec![Event::Question(q)])
    }

    /// The open turn's cell and where it lies, while its follower is still to come.
    pub(super) fn open_without_follower(&self) -> Option<(Pos, Quad)> {
        let open = self.open.as_ref().filter(|o| o.follower.is_none())?;
        let pos = open.at?;
        Some((pos, *self.quads.get(&pos)?))
    }

    /// The followers `frame` shows on the tile at `pos` where it was found (none before the
    /// table is registered).
    pub(super) fn followers_in(&self, frame: &Mat, pos: Pos) -> anyhow::Result<Vec<FollowerRead>> {
        let (Some(quad), Some(calib)) = (self.quads.get(&pos), &self.calibration) else {
            return Ok(Vec::new());
        };
        let (patch, _) = quad_patch(frame, quad, MARGIN_PX)?;
        let found = self
            .enrolment
            .find_in_cell(frame, quad, &patch, &calib.colours)?;
        self.followers_on(pos, &found.blobs)
    }

    /// The followers figure blobs show on the tile at `pos`.
    pub(super) fn followers_on(
        &self,
        pos: Pos,
        blobs: &[Blob],
    ) -> anyhow::Result<Vec<FollowerRead>> {
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
            self.rise(pos)?,
            &|colour| self.figure_below(pos, colour),
        ))
    }

    /// Whether a figure of colour `colour` rising into the picture of cell `pos` from below may
    /// stand there ([`Tracker::figure_may_stand`] on one of its [`cells_below`]; seed 3131 game
    /// 17: a knight lying over the south edge of its city, scored at once, was taken for one of
    /// the tile below, where none of its colour stood).
    pub(super) fn figure_below(&self, pos: Pos, colour: usize) -> bool {
        cells_below(pos)
            .into_iter()
            .any(|cell| self.figure_may_stand(cell, colour))
    }

    /// Whether a figure of colour `colour` may stand on the tile at `cell`: a follower of that
    /// colour does, or it is the open tile and that colour's player may be putting one there.
    pub(super) fn figure_may_stand(&self, cell: Pos, colour: usize) -> bool {
        let open = self.open.as_ref().and_then(|o| o.at);
        self.game
            .meeples()
            .iter()
            .any(|m| m.pos == cell && m.player.index() == colour)
            || (open == Some(cell) && self.game.current_player().index() == colour)
    }

    /// While the open turn has no follower: if its tile now looks different from when it was
    /// read, other than where figures of the players' colours stand (and their shadows),
    /// something the size of a figure came that was not read as one (a follower in deep shade
    /// falls outside its colour), and the players are asked, once a turn.
    pub(super) fn unseen_follower(&mut self, frame: &Mat) -> anyhow::Result<Option<Event>> {
        let Some((pos, quad)) = self.open_without_follower() else {
            return Ok(None);
        };
        let (Some((at, before)), Some(calib)) = (&self.open_look, &self.calibration) else {
            return Ok(None);
        };
        if *at != pos {
            return Ok(None);
        }
        let (patch, _) = quad_patch(frame, &quad, MARGIN_PX)?;
        let (mask, _) = self.enrolment.find(&patch, &calib.colours, FIGURE_SHARE)?;
        let hidden = crate::sim::effects::grow_mask(&cell_middle(&mask)?, FIGURE_SHADOW_PX)?;
        let now = cell_middle(&patch)?;
        // The cell may have been cut a few pixels apart then and now: the two looks are
        // compared where they line up best.
        for shift in alignments() {
            let then = cell_middle_shifted(before, shift)?;
            if figure_sized_change(&then, &now, &hidden)? < UNSEEN_FIGURE_CHANGE {
                return Ok(None);
            }
        }
        self.open_look = None;
        let whose = &self.players[self.game.current_player().index()].name;
        let q = format!(
            "did {whose} put a follower on the tile at ({}, {})? The tile looks different, but \
             no follower was seen on it",
            pos.x, pos.y
        );
        self.ask(q.clone());
        Ok(Some(Event::Question(q)))
    }

    /// Commits the current player's follower among `reads`, if one stands on a free feature
    /// (with `completed_only`, a feature the open tile completes).
    pub(super) fn deploy_mine(
        &mut self,
        reads: &[FollowerRead],
        completed_only: bool,
    ) -> anyhow::Result<Option<Event>> {
        let Some(pos) = self.open.as_ref().and_then(|o| o.at) else {
            return Ok(None);
        };
        let seat = self.game.current_player().index();
        let spots = self.game.follower_spots();
        let completed = |port| self.game.is_complete_at(pos, port);
        let placeable = |p: Port| {
            spots
                .iter()
                .any(|s| s.ports.contains(p) && s.figures.contains(Figure::Normal))
                && (!completed_only || completed(p))
        };
        let free = |p: Port| spots.iter().any(|s| s.ports.contains(p));
        // A figure about as near two features, one of them taken, stands on the other (unless
        // it stands at the tile's edge: it may be a neighbour's, on the feature taken there).
        // One about as near a free feature the tile leaves open is not counted on the other
        // for being complete: it may stay where it is (seed 8642 game 10: a farmer beside a
        // road ending at a junction, glimpsed, was committed on the road).
        let mine = reads.iter().filter(|f| f.colour == seat).find_map(|f| {
            if placeable(f.port) {
                Some((f.port, f.kind, f.doubt.filter(|&p| free(p))))
            } else if free(f.port) {
                None
            } else {
                f.doubt
                    .filter(|&p| placeable(p) && well_inside(f.at))
                    .map(|p| (p, f.kind, None))
            }
        });
        let Some((at, kind, doubt)) = mine else {
            return Ok(None);
        };
        self.game.deploy(at, Figure::Normal)?;
        let port = at.name().to_string();
        if let Some(open) = &mut self.open {
            open.follower = Some(FollowerEntry {
                port: port.clone(),
                figure: Figure::Normal,
            });
        }
        // Standing about as near another free feature: committed where it is likelier, and
        // the players asked.
        if let Some(other) = doubt.and_then(|p| Some((p, self.game.feature_at(pos, p)?.kind))) {
            let q = format!(
                "is {}'s follower at ({}, {}) on the {} ({}) or the {} ({})?",
                self.players[seat].name,
                pos.x,
                pos.y,
                kind.name(),
                port,
                other.1.name(),
                other.0.name()
            );
            self.ask(q);
        }
        Ok(Some(Event::Follower { port }))
    }
}

/// Share of a cell's pixels (not marked in `hidden`) that changed between two looks of the same
/// size in patches of a figure's size or more: each pixel's colour changed (summed over
/// channels) by more than 45 once the light is evened out, and the thin lines where print edges
/// do not quite line up opened away.
fn figure_sized_change(before: &Mat, now: &Mat, hidden: &Mat) -> opencv::Result<f64> {
    let (a, b, h) = (before.try_clone()?, now.try_clone()?, hidden.try_clone()?);
    let (pa, pb, ph) = (a.data_bytes()?, b.data_bytes()?, h.data_bytes()?);
    let mean = |px: &[u8]| px.iter().map(|&v| f64::from(v)).sum::<f64>() / px.len().max(1) as f64;
    let gain = (mean(pa) / mean(pb).max(1.0)).clamp(1.0 / LIGHT_DRIFT, LIGHT_DRIFT);
    let mut changed = Mat::zeros(a.rows(), a.cols(), opencv::core::CV_8UC1)?.to_mat()?;
    let out = changed.data_bytes_mut()?;
    for (i, (p, q)) in pa.chunks_exact(3).zip(pb.chunks_exact(3)).enumerate() {
        let step: f64 = (0..3)
            .map(|c| (f64::from(p[c]) - f64::from(q[c]) * gain).abs())
            .sum();
        if ph[i] == 0 && step > 45.0 {
            out[i] = 255;
        }
    }
    let kernel = opencv::imgproc::get_structuring_element(
        opencv::imgproc::MORPH_ELLIPSE,
        opencv::core::Size::new(THIN_PX, THIN_PX),
        opencv::core::Point::new(-1, -1),
    )?;
    let mut opened = Mat::default();
    opencv::imgproc::morphology_ex(
        &changed,
        &mut opened,
        opencv::imgproc::MORPH_OPEN,
        &kernel,
        opencv::core::Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        opencv::imgproc::morphology_default_border_value()?,
    )?;
    Ok(f64::from(opencv::core::count_non_zero(&opened)?) / f64::from((a.rows() * a.cols()).max(1)))
}

/// Width (pixels of a cell patch) of changes too thin to be a figure.
const THIN_PX: i32 = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::TurnEntry;
    use crate::rules::FeatureKind;

    /// Ann's farmer lies in the field south of the start tile, on E (its city south); Bob laid
    /// a straight road east of the start tile; Ann has just laid E west of her farmer's tile,
    /// its city west and its field joined to her farmer's.
    fn ann_beside_her_farmer() -> Tracker {
        let farmer = TurnEntry {
            follower: Some(FollowerEntry {
                port: "NL".into(),
                figure: Figure::Normal,
            }),
            ..TurnEntry::laid("E", Pos::new(0, 1), 180)
        };
        super::super::after_turns(vec![
            farmer,
            TurnEntry::laid("U", Pos::new(1, 0), 0),
            TurnEntry::laid("E", Pos::new(-1, 1), 270),
        ])
    }

    /// Ann's figure read standing at `at` (tile sides) on the feature at `port`, about as near
    /// the one at `doubt`.
    fn ann_s(port: &str, kind: FeatureKind, doubt: Option<&str>, at: [f32; 2]) -> FollowerRead {
        FollowerRead {
            colour: 0,
            port: port.parse().unwrap(),
            kind,
            lying: kind == FeatureKind::Field,
            foot: [40.0, 40.0],
            at,
            doubt: doubt.map(|d| d.parse().unwrap()),
        }
    }

    #[test]
    fn a_figure_about_as_near_a_taken_field_as_a_free_city_stands_on_the_city() {
        let mut tracker = ann_beside_her_farmer();
        let read = ann_s("ER", FeatureKind::Field, Some("W"), [0.4, 0.5]);
        assert_eq!(
            tracker.deploy_mine(&[read], false).unwrap(),
            Some(Event::Follower { port: "W".into() })
        );
        // The rules leave only the city: nothing to ask.
        assert!(tracker.questions().is_empty(), "{:?}", tracker.questions());
        assert_eq!(tracker.turns()[2].follower.as_ref().unwrap().port, "W");
    }

    #[test]
    fn a_figure_at_the_edge_by_a_taken_field_may_be_a_neighbour_s_and_is_not_committed() {
        // Seed 5300 game 12: the player's own follower on the tile east, reaching over the
        // edge, read on the taken field there, about as near a free road.
        let mut tracker = ann_beside_her_farmer();
        let read = ann_s("ER", FeatureKind::Field, Some("W"), [0.97, 0.5]);
        assert_eq!(tracker.deploy_mine(&[read], false).unwrap(), None);
    }

    #[test]
    fn a_figure_glimpsed_about_as_near_an_open_field_as_a_completed_city_is_left_to_the_still_picture(
    ) {
        // Ann's E closes the start tile's city: a follower there is scored at once, and is
        // committed from a glimpse; one that may lie in the open field stays for the picture.
        let mut tracker = super::super::after_ann_lays("E", Pos::new(0, -1), 180);
        let farmer = ann_s("NL", FeatureKind::Field, Some("S"), [0.5, 0.6]);
        assert_eq!(tracker.deploy_mine(&[farmer], true).unwrap(), None);
        let knight = ann_s("S", FeatureKind::City, Some("NL"), [0.5, 0.8]);
        assert_eq!(
            tracker.deploy_mine(&[knight], true).unwrap(),
            Some(Event::Follower { port: "S".into() })
        );
    }

    #[test]
    fn a_figure_at_the_edge_beyond_which_its_owner_has_a_follower_may_be_that_one() {
        // Ann's farmer lies on the tile east of (-1, 1).
        let tracker = ann_beside_her_farmer();
        let at = Pos::new(-1, 1);
        let ann_at = |x: f32| ann_s("ER", FeatureKind::Field, None, [x, 0.5]);
        assert!(tracker.reaches_over(at, &ann_at(0.9)));
        assert!(!tracker.reaches_over(at, &ann_at(0.5)));
        assert!(!tracker.reaches_over(at, &ann_at(0.1)));
        // Bob has no follower there.
        let bob = FollowerRead {
            colour: 1,
            ..ann_at(0.9)
        };
        assert!(!tracker.reaches_over(at, &bob));
    }

    #[test]
    fn a_figure_on_a_taken_field_near_no_free_feature_is_not_committed() {
        let mut tracker = ann_beside_her_farmer();
        let read = ann_s("ER", FeatureKind::Field, None, [0.4, 0.5]);
        assert_eq!(tracker.deploy_mine(&[read], false).unwrap(), None);
    }
}

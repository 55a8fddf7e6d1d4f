//! Followers: the current player's figure on the tile just laid.

use opencv::core::Mat;

use super::{Event, Tracker};
use crate::record::FollowerEntry;
use crate::rules::{Figure, Pos};
use crate::vision::figures::Blob;
use crate::vision::meeples::{read_followers, FollowerRead};
use crate::vision::rectify::{quad_patch, Quad, MARGIN_PX};

impl Tracker {
    /// The current player's follower on the open tile, once it stands there (another player's
    /// follower there means the turn order is off: the players are asked).
    pub(super) fn look_for_follower(&mut self, frame: &Mat) -> anyhow::Result<Option<Event>> {
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
        let spots = self.game.follower_spots();
        let foreign = reads
            .iter()
            .find(|f| f.colour != seat && spots.iter().any(|s| s.ports.contains(f.port)));
        // Another player's figure on this turn's tile: a tile was probably missed or counted
        // twice, so the turn order is off. Ask, once per tile.
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
        if let (Some(quad), Some(calib)) = (self.quads.get(&pos), &self.calibration) {
            let (patch, _) = quad_patch(frame, quad, MARGIN_PX)?;
            let (_, blobs) = self.enrolment.find(&patch, &calib.colours, 0.03)?;
            let reads = self.followers_on(pos, &blobs)?;
            if let Some(e) = self.deploy_mine(&reads, false)? {
                return Ok(vec![e]);
            }
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
        ))
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
        let (kind, doubt) = (f.kind, f.doubt);
        let free = |p| spots.iter().any(|s| s.ports.contains(p));
        let doubt = doubt.filter(|&p| free(p));
        self.game.deploy(f.port, Figure::Normal)?;
        let port = f.port.name().to_string();
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

//! Shepherds during a turn (Hills & Sheep): the draw for a shepherd just placed, the flocks the
//! tile extended (grow or gather), flocks lost to a wolf, and, with JCloisterZone's option,
//! flocks gathered once their field is closed.

use super::super::expansions::sheep::{FlockAction, Token};
use super::super::feature::FeatureId;
use super::super::figure::Figure;
use super::super::options::ClosedFlocks;
use super::super::player::PlayerId;
use super::super::scoring::{Cause, Scored};
use super::super::tile::FeatureKind;
use super::{Game, IllegalMove, Meeple, Phase, TurnReport};

/// What the current player must still do with a flock before the turn can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlockDue {
    /// Draw a token for the shepherd placed this turn.
    Draw,
    /// The tile extended the field of the player's shepherd: grow the flock (draw) or gather it;
    /// `sheep` are in the field now.
    Tend {
        /// Sheep in the field now: the flock's and any printed there (River III).
        sheep: u32,
    },
}

impl Game {
    /// Tokens left in the sheep/wolf bag, by [`Token::index`].
    pub fn sheep_bag(&self) -> [u8; 5] {
        self.bag
    }

    /// The next flock action the current player owes this turn, if any.
    pub fn flock_due(&self) -> Option<FlockDue> {
        if self.flock_draw.is_some() {
            return Some(FlockDue::Draw);
        }
        let &node = self.flock_due.first()?;
        let sheep = self.graph.get(self.graph.root(node)).sheep();
        Some(FlockDue::Tend { sheep })
    }

    /// Carries out the next flock action due this turn (see [`Game::flock_due`]): the token
    /// drawn for a shepherd just placed, or growing (a draw) or gathering a flock the tile
    /// extended. Returns what scored and which figures went home.
    pub fn flock(&mut self, action: FlockAction) -> Result<TurnReport, IllegalMove> {
        if !matches!(self.phase, Phase::Deploy { .. }) {
            return Err(IllegalMove::OutOfOrder(
                "flocks are tended after the tile is laid",
            ));
        }
        let mut report = TurnReport::default();
        if let Some(node) = self.flock_draw {
            let FlockAction::Draw(token) = action else {
                return Err(IllegalMove::OutOfOrder(
                    "a shepherd just placed draws a token; it has no flock to gather yet",
                ));
            };
            self.take_token(token)?;
            self.flock_draw = None;
            self.add_token(node, token, &mut report);
            self.settle_closed_flocks(&mut report);
            return Ok(report);
        }
        let Some(&node) = self.flock_due.first() else {
            return Err(IllegalMove::NoFlock);
        };
        self.settle_closed_flocks(&mut report);
        match action {
            FlockAction::Draw(token) => {
                self.take_token(token)?;
                self.flock_due.remove(0);
                self.add_token(node, token, &mut report);
            }
            FlockAction::Gather => {
                self.flock_due.remove(0);
                let root = self.graph.find(node);
                self.gather(root, &mut report);
            }
        }
        self.settle_closed_flocks(&mut report);
        Ok(report)
    }

    /// The flocks of the current player's shepherds (placed before this turn) in the fields of
    /// the tile just laid (index `tile`): one shepherd's node per field, oldest shepherd first.
    pub(super) fn flocks_extended(&mut self, tile: u32) -> Vec<u32> {
        let placed = self.board.tiles()[tile as usize];
        let ty = self.cat.tile(placed.tile);
        let mut found: Vec<(u32, u32, FeatureId)> = Vec::new();
        for (i, f) in ty.features.iter().enumerate() {
            if f.kind != FeatureKind::Field {
                continue;
            }
            let root = self.graph.find(placed.first_node + i as u32);
            if found.iter().any(|&(_, _, r)| r == root) {
                continue;
            }
            let oldest = self
                .graph
                .get(root)
                .occupants
                .iter()
                .filter(|o| o.figure == Figure::Shepherd && o.player == self.current)
                .map(|o| (o.tile, o.node))
                .min();
            if let Some((t, node)) = oldest {
                found.push((t, node, root));
            }
        }
        found.sort_unstable();
        found.into_iter().map(|(_, node, _)| node).collect()
    }

    /// Whether the current player has a shepherd on the board.
    pub(super) fn has_shepherd_out(&self) -> bool {
        let i = Figure::Shepherd.index();
        self.supply[self.current.index()][i] < self.dealt[i]
    }

    /// Takes `token` out of the bag (a wolf goes straight back in), if the bag holds one.
    fn take_token(&mut self, token: Token) -> Result<(), IllegalMove> {
        let left = &mut self.bag[token.index()];
        if *left == 0 {
            return Err(IllegalMove::NotInBag(token));
        }
        if token != Token::Wolf {
            *left -= 1;
        }
        Ok(())
    }

    /// Puts a drawn token with the flock of the shepherd on `node`: sheep join it, a wolf
    /// chases the whole field's flock away and sends its shepherds home.
    fn add_token(&mut self, node: u32, token: Token, report: &mut TurnReport) {
        let root = self.graph.find(node);
        match token {
            Token::Sheep(n) => self.graph.get_mut(root).flock.push(n),
            Token::Wolf => self.clear_flock(root, report),
        }
    }

    /// Every shepherd in field `root` scores 1 per sheep there, printed ones included (each
    /// player once); then the tokens go back to the bag and the shepherds home.
    fn gather(&mut self, root: FeatureId, report: &mut TurnReport) {
        let f = self.graph.get(root);
        let sheep = f.sheep();
        let mut players: Vec<PlayerId> = f
            .occupants
            .iter()
            .filter(|o| o.figure == Figure::Shepherd)
            .map(|o| o.player)
            .collect();
        players.sort_unstable();
        players.dedup();
        let shares: Vec<(PlayerId, u32)> = players.into_iter().map(|p| (p, sheep)).collect();
        let tiles = self.cells(f);
        self.award(&shares, Scored::Flock, tiles, Cause::Gathered, report);
        self.clear_flock(root, report);
    }

    /// Sheep tokens of field `root` back to the bag (printed sheep stay), its shepherds home.
    fn clear_flock(&mut self, root: FeatureId, report: &mut TurnReport) {
        let f = self.graph.get(root);
        let home: Vec<Meeple> = f
            .occupants
            .iter()
            .filter(|o| o.figure == Figure::Shepherd)
            .map(|o| self.meeple(o))
            .collect();
        let f = self.graph.get_mut(root);
        for n in f.flock.drain(..) {
            self.bag[Token::Sheep(n).index()] += 1;
        }
        f.occupants.retain(|o| o.figure != Figure::Shepherd);
        for m in &home {
            self.supply[m.player.index()][Figure::Shepherd.index()] += 1;
        }
        report.returned.extend(home);
    }

    /// With [`ClosedFlocks::Gather`]: gathers every flock whose field is closed, except those
    /// the current player still has to tend this turn.
    pub(super) fn settle_closed_flocks(&mut self, report: &mut TurnReport) {
        if self.options.closed_flocks != ClosedFlocks::Gather
            || self.dealt[Figure::Shepherd.index()] == 0
        {
            return;
        }
        let due: Vec<FeatureId> = self.flock_due.iter().map(|&n| self.graph.root(n)).collect();
        let closed: Vec<FeatureId> = self
            .graph
            .groups()
            .filter(|(id, f)| {
                f.is_closed_field()
                    && !due.contains(id)
                    && f.occupants.iter().any(|o| o.figure == Figure::Shepherd)
            })
            .map(|(id, _)| id)
            .collect();
        for root in closed {
            self.gather(root, report);
        }
    }
}

//! A game in progress: the turn structure, figures and scoring (`deploy`: where figures may
//! stand; `flock`: the shepherd's flock during a turn; `finish`: end-of-game scoring; `wheel`: the
//! Wheel of Fortune's wheel and crowns).

mod deploy;
mod finish;
mod flock;
mod wheel;

pub use flock::FlockDue;
pub use wheel::{CrownFollower, Sector, Spin};

use super::board::{Board, Placement, PlacementError, Pos};
use super::catalogue::{catalogue, Catalogue, TileSet};
use super::expansions::river::{self, River};
use super::expansions::river_iii::{self, river_iii_data};
use super::expansions::sheep::{self, FlockActions, Token};
use super::expansions::wheel as wheel_rules;
use super::expansions::{compose, hills, inns, traders, Expansions};
use super::feature::{Feature, FeatureGraph, FeatureId, Occupant};
use super::figure::{Figure, Figures};
use super::options::RuleOptions;
use super::player::PlayerId;
use super::port::{Dir, Port, PortSet, Rotation};
use super::scoring::{cloister_value, completed_value, Cause, ScoreEvent, Scored};
use super::tile::{Attr, FeatureKind, Good, TileId, TileType};

/// What a game needs before the first turn.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The box of tiles in play, the expansions' tiles included.
    pub tileset: TileSet,
    /// The expansions in play.
    pub expansions: Expansions,
    /// Number of players: 2–8, or 1 for solo practice (as JCloisterZone's scenarios use).
    pub players: usize,
    /// Rule choices.
    pub options: RuleOptions,
    /// Where the start tile lies (rotation 0 at (0, 0) unless a record says otherwise).
    pub start: Placement,
}

impl Setup {
    /// A setup for the named tile set with default options and the start tile at the origin.
    pub fn new(tileset: &str, players: usize) -> Result<Setup, SetupError> {
        Setup::with_expansions(tileset, Expansions::NONE, players)
    }

    /// A setup for the named base box with expansions mixed in: their tiles join the box, and
    /// the river's spring replaces the start tile.
    pub fn with_expansions(
        tileset: &str,
        expansions: Expansions,
        players: usize,
    ) -> Result<Setup, SetupError> {
        let cat = catalogue();
        let base = cat
            .set(tileset)
            .ok_or_else(|| SetupError::UnknownTileSet(tileset.to_string()))?;
        Ok(Setup {
            tileset: compose(cat, base, expansions),
            expansions,
            players,
            options: RuleOptions::default(),
            start: Placement {
                pos: Pos::new(0, 0),
                rot: Rotation::R0,
            },
        })
    }
}

/// Why a game cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// No tile set of that name.
    #[error("unknown tile set {0:?}")]
    UnknownTileSet(String),
    /// No players, or more than 8.
    #[error("{0} players: the game takes 2 to 8 (or 1 for solo practice)")]
    PlayerCount(usize),
    /// With the river, the game starts from a river tile.
    #[error("with the river the game starts from the spring, not from tile {0}")]
    RiverStart(String),
    /// With the Wheel of Fortune, the game starts from its board.
    #[error("with the Wheel of Fortune the game starts from its board, not from tile {0}")]
    WheelStart(String),
}

/// A figure put on the tile just laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deploy {
    /// A port (board frame) of the feature it stands on.
    pub port: Port,
    /// Which figure.
    pub figure: Figure,
}

impl Deploy {
    /// A normal follower on the feature at `port`.
    pub fn normal(port: Port) -> Deploy {
        Deploy {
            port,
            figure: Figure::Normal,
        }
    }
}

/// One player's turn as the table saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The tile was laid, and perhaps a figure on one of its features.
    Place {
        /// The tile drawn.
        tile: TileId,
        /// Where and how it was laid.
        placement: Placement,
        /// The figure put on it, if any.
        follower: Option<Deploy>,
        /// Flock actions, in order: the draw for a shepherd placed this turn, then one for each
        /// flock of the player's the tile extended (Hills & Sheep).
        flock: FlockActions,
    },
    /// The tile fits nowhere and was put back in the box; the same player draws again.
    Discard {
        /// The tile drawn.
        tile: TileId,
    },
}

/// Why a move is not allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A tile was expected but a follower or end of turn came, or the reverse.
    #[error("{0}")]
    OutOfOrder(&'static str),
    /// All tiles of this type are already on the board or discarded.
    #[error("no tile {0} is left in the box")]
    NoneLeft(String),
    /// The tile cannot be drawn yet (the river's order).
    #[error("tile {0} cannot be drawn now: {1}")]
    NotYet(String, &'static str),
    /// The tile does not fit there.
    #[error("tile {tile} cannot go at {pos} rotation {rot}: {reason}")]
    Placement {
        /// The tile's name.
        tile: String,
        /// The cell.
        pos: Pos,
        /// Rotation in degrees.
        rot: u16,
        /// What is wrong.
        reason: PlacementError,
    },
    /// A discard of a tile that fits somewhere.
    #[error("tile {0} has a legal placement and may not be discarded")]
    CannotDiscard(String),
    /// The port names no feature of the tile just laid.
    #[error("no feature at port {0} of the tile just placed")]
    NoFeature(Port),
    /// Farmers are not in play.
    #[error("farmers are not in play")]
    NoFarmers,
    /// Another follower already stands somewhere on that feature.
    #[error("the {0} at port {1} is already occupied")]
    Occupied(FeatureKind, Port),
    /// The player has no figure of that kind in supply.
    #[error("player {seat} has no {noun} left", seat = .0, noun = .1.noun())]
    NoFigureLeft(u8, Figure),
    /// Builders stand on roads and cities, pigs on farms (Traders & Builders).
    #[error("a {noun} may not stand on a {kind}", noun = .0.noun(), kind = .1)]
    WrongFeature(Figure, FeatureKind),
    /// No tile was slid unseen under a hill tile this turn (Hills & Sheep).
    #[error("no tile lies unnamed under a hill tile laid this turn")]
    NothingUnder,
    /// A builder or pig joins only a feature that holds one of its owner's followers.
    #[error("a {noun} needs one of its owner's followers on the {kind} at port {port}", noun = .0.noun(), kind = .1, port = .2)]
    NoOwnFollower(Figure, FeatureKind, Port),
    /// Another shepherd already tends the field (Hills & Sheep).
    #[error("a shepherd already tends the field at port {0}")]
    Shepherded(Port),
    /// The sheep/wolf bag holds no such token any more (Hills & Sheep).
    #[error("the bag holds no {} any more", .0.noun())]
    NotInBag(Token),
    /// No flock action is due this turn (Hills & Sheep).
    #[error("no flock action is due: no shepherd placed, no flock of the player's left to tend")]
    NoFlock,
    /// A wheel turn, crown or Pestilence choice the Wheel of Fortune does not allow.
    #[error("{0}")]
    Wheel(String),
}

/// Where a figure may stand on the tile just placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowerSpot {
    /// The feature's kind.
    pub kind: FeatureKind,
    /// The feature's ports on this tile, in board frame.
    pub ports: PortSet,
    /// The figures in the player's supply that may stand there.
    pub figures: Figures,
}

impl FollowerSpot {
    /// The port that names this spot in records (the feature's first port).
    pub fn port(&self) -> Port {
        self.ports.iter().next().expect("features have ports")
    }
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    /// Its owner.
    pub player: PlayerId,
    /// Which figure.
    pub figure: Figure,
    /// The cell it stands on.
    pub pos: Pos,
    /// The feature it stands on.
    pub kind: FeatureKind,
    /// The ports (board frame) of that feature on its tile.
    pub ports: PortSet,
}

/// What happened at the end of a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// Features scored.
    pub events: Vec<ScoreEvent>,
    /// Figures that go back to their owners' supply (players take them off the table).
    pub returned: Vec<Meeple>,
    /// Goods tokens the player took for the cities they completed, by [`Good::index`].
    pub goods: [u32; 3],
    /// The same player lays another tile: the second part of a builder's double turn.
    pub extra_turn: bool,
    /// The wheel turned for the drawn tile (The Wheel of Fortune); followers leaving its crowns
    /// stood on no tile and are not in `returned`.
    pub spin: Option<Spin>,
    /// A follower went on a crown space of this sector instead of on the tile (The Wheel of
    /// Fortune).
    pub crown: Option<(Sector, Figure)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    PlaceTile,
    /// A tile was laid; `builder`: it extends a feature holding the player's builder, earning a
    /// second part of the turn.
    Deploy {
        tile: u32,
        deployed: bool,
        builder: bool,
    },
    Over,
}

/// A game of Carcassonne in progress.
///
/// The engine does not own the bag: each turn says which tile was drawn, as the camera or a
/// record reports it. It tracks how many of each tile remain so callers can draw or weigh guesses.
#[derive(Clone, Debug)]
pub struct Game {
    cat: &'static Catalogue,
    options: RuleOptions,
    expansions: Expansions,
    /// The river's draw order, while river tiles remain.
    river: Option<River>,
    board: Board,
    graph: FeatureGraph,
    remaining: Vec<u8>,
    /// Hill tiles with a tile slid under them (Hills & Sheep), in laying order: the cell and the
    /// tile, if anyone named it.
    under: Vec<(Pos, Option<TileId>)>,
    scores: Vec<u32>,
    /// Figures each player starts with, by [`Figure::index`].
    dealt: [u8; 5],
    /// Per player, figures in supply by [`Figure::index`].
    supply: Vec<[u8; 5]>,
    /// Tokens in the sheep/wolf bag, by [`Token::index`] (Hills & Sheep).
    bag: [u8; 5],
    /// The node of a shepherd placed this turn that has not drawn its token yet.
    flock_draw: Option<u32>,
    /// Nodes of the current player's shepherds whose flocks the tile extended and that still
    /// wait to grow or be gathered this turn.
    flock_due: Vec<u32>,
    /// Per player, goods tokens by [`Good::index`].
    goods: Vec<[u32; 3]>,
    /// The wheel, the pig and the crowns (The Wheel of Fortune).
    wheel: Option<wheel::WheelState>,
    current: PlayerId,
    /// Whether the current turn is the second part of a builder's double turn.
    extra_turn: bool,
    turn: u32,
    phase: Phase,
}

impl Game {
    /// Starts a game: the start tile is laid, the first player is to move.
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        if !(1..=8).contains(&setup.players) {
            return Err(SetupError::PlayerCount(setup.players));
        }
        let cat = catalogue();
        let mut remaining = vec![0u8; cat.tiles().len()];
        for &(id, n) in &setup.tileset.counts {
            remaining[id.index()] = remaining[id.index()].saturating_add(n);
        }
        let river = River::new(cat, setup.expansions);
        let start = setup.tileset.start;
        if river
            .as_ref()
            .is_some_and(|r| !r.spring_drawn && r.spring != start)
        {
            return Err(SetupError::RiverStart(cat.tile(start).name.clone()));
        }
        let wheel_data = wheel_rules::in_play(setup.expansions).then(wheel_rules::wheel_data);
        if wheel_data.is_some_and(|d| d.board[0] != start) {
            return Err(SetupError::WheelStart(cat.tile(start).name.clone()));
        }
        let [builders, pigs] = traders::special_figures(setup.expansions, &setup.options);
        let figures = [
            setup.options.followers,
            inns::large_followers(setup.expansions),
            builders,
            pigs,
            sheep::shepherds(setup.expansions, &setup.options),
        ];
        let mut game = Game {
            cat,
            options: setup.options,
            expansions: setup.expansions,
            river,
            board: Board::default(),
            graph: FeatureGraph::default(),
            remaining,
            under: Vec::new(),
            scores: vec![0; setup.players],
            dealt: figures,
            supply: vec![figures; setup.players],
            goods: vec![[0; 3]; setup.players],
            wheel: None,
            bag: sheep::BAG,
            flock_draw: None,
            flock_due: Vec::new(),
            current: PlayerId(0),
            extra_turn: false,
            turn: 0,
            phase: Phase::PlaceTile,
        };
        for (tile, at) in Game::start_tiles(wheel_data, start, setup.start) {
            game.remaining[tile.index()] = game.remaining[tile.index()].saturating_sub(1);
            game.lay(tile, at);
        }
        game.wheel = wheel_data.map(|d| wheel::WheelState::new(d, &game.remaining));
        game.phase = Phase::PlaceTile;
        Ok(game)
    }

    /// The catalogue the game's tiles come from.
    pub fn catalogue(&self) -> &'static Catalogue {
        self.cat
    }

    /// The rule options in force.
    pub fn options(&self) -> &RuleOptions {
        &self.options
    }

    /// The expansions in play.
    pub fn expansions(&self) -> Expansions {
        self.expansions
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.scores.len()
    }

    /// Each player's score, in seat order.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Normal followers in `player`'s supply.
    pub fn supply(&self, player: PlayerId) -> u8 {
        self.figures(player, Figure::Normal)
    }

    /// Figures of kind `figure` in `player`'s supply.
    pub fn figures(&self, player: PlayerId, figure: Figure) -> u8 {
        self.supply[player.index()][figure.index()]
    }

    /// Goods tokens `player` holds of kind `good` (Traders & Builders).
    pub fn goods(&self, player: PlayerId, good: Good) -> u32 {
        self.goods[player.index()][good.index()]
    }

    /// The figures the current player could deploy now (those left in supply).
    pub fn deployable_figures(&self) -> Vec<Figure> {
        Figure::ALL
            .into_iter()
            .filter(|&f| self.figures(self.current, f) > 0)
            .collect()
    }

    fn has_figure(&self) -> bool {
        self.supply[self.current.index()].iter().any(|&n| n > 0)
    }

    /// Whose turn it is.
    pub fn current_player(&self) -> PlayerId {
        self.current
    }

    /// Whether the current turn is the second part of a builder's double turn (Traders &
    /// Builders): the same player lays another tile, and extending the builder's feature again
    /// earns no third.
    pub fn is_extra_turn(&self) -> bool {
        self.extra_turn
    }

    /// Turns completed so far (tiles laid or discarded after the start tile).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether final scoring has been done.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether a tile has been laid this turn and the turn is not yet ended.
    pub fn tile_laid(&self) -> bool {
        matches!(self.phase, Phase::Deploy { .. })
    }

    /// Tiles of type `tile` not yet drawn: an upper bound while tiles nobody named lie under
    /// hills.
    pub fn remaining(&self, tile: TileId) -> u8 {
        self.remaining[tile.index()]
    }

    /// Tiles not yet drawn (tiles slid under hills are gone, named or not).
    pub fn remaining_total(&self) -> usize {
        let unnamed = self.under.iter().filter(|(_, t)| t.is_none()).count();
        let total: usize = self.remaining.iter().map(|&n| n as usize).sum();
        total.saturating_sub(unnamed)
    }

    /// What lies under the hill tile at `pos` (Hills & Sheep): `None` if no tile was slid under
    /// one there, `Some(None)` for a tile nobody named.
    pub fn tile_under(&self, pos: Pos) -> Option<Option<TileId>> {
        self.under.iter().find(|(p, _)| *p == pos).map(|&(_, t)| t)
    }

    /// Names the tile slid under the hill tile laid this turn (the camera or a record may know
    /// it; by default it stays unknown and only the bag's total shrinks).
    pub fn slide_under(&mut self, tile: TileId) -> Result<(), IllegalMove> {
        let Phase::Deploy { tile: laid, .. } = self.phase else {
            return Err(IllegalMove::NothingUnder);
        };
        let pos = self.board.tiles()[laid as usize].placement.pos;
        match self.under.last_mut() {
            Some((p, under @ None)) if *p == pos => {
                if self.remaining[tile.index()] == 0 {
                    return Err(IllegalMove::NoneLeft(self.cat.tile(tile).name.clone()));
                }
                self.remaining[tile.index()] -= 1;
                *under = Some(tile);
                Ok(())
            }
            _ => Err(IllegalMove::NothingUnder),
        }
    }

    /// Whether `tile` may be the tile drawn now: one is left in the box, and the draw order of
    /// the expansions (river tiles first) allows it.
    pub fn can_draw(&self, tile: TileId) -> Result<(), IllegalMove> {
        let name = &self.cat.tile(tile).name;
        if self.remaining[tile.index()] == 0 {
            return Err(IllegalMove::NoneLeft(name.clone()));
        }
        if let Some(river) = &self.river {
            river
                .drawable(&self.remaining, tile)
                .map_err(|why| IllegalMove::NotYet(name.clone(), why))?;
        }
        Ok(())
    }

    /// Every way to lay `tile` on the board now (none if it cannot be drawn now).
    pub fn legal_placements(&self, tile: TileId) -> Vec<Placement> {
        if self.river.is_some() && self.can_draw(tile).is_err() {
            return Vec::new();
        }
        let mut out = self.board.placements(self.cat, tile);
        if self.cat.tile(tile).river.is_some() {
            out.retain(|&p| self.check_river(tile, p).is_ok());
        }
        out
    }

    /// Whether `tile` may be laid at `placement` now, without laying it.
    pub fn check_placement(&self, tile: TileId, placement: Placement) -> Result<(), IllegalMove> {
        self.expect_place_phase()?;
        self.can_draw(tile)?;
        self.board
            .check(self.cat, tile, placement)
            .and_then(|()| self.check_river(tile, placement))
            .map_err(|reason| IllegalMove::Placement {
                tile: self.cat.tile(tile).name.clone(),
                pos: placement.pos,
                rot: placement.rot.degrees(),
                reason,
            })
    }

    /// The river's placement rule; with the Wheel of Fortune the spring, drawn first, flows away
    /// from the board.
    fn check_river(&self, tile: TileId, placement: Placement) -> Result<(), PlacementError> {
        match &self.river {
            Some(r) if r.spring_drawn && r.spring == tile => {
                wheel_rules::spring_flows_away(self.cat, &self.board, tile, placement)
            }
            _ => river::check(self.cat, &self.board, tile, placement),
        }
    }

    /// Lays the tile drawn this turn.
    pub fn place(&mut self, tile: TileId, placement: Placement) -> Result<(), IllegalMove> {
        self.check_placement(tile, placement)?;
        self.check_wheel_draw(tile)?;
        self.take(tile);
        self.wheel_tile_taken();
        let index = self.lay(tile, placement);
        let hill = self.cat.tile(tile).hill && hills::hills(&self.options, self.expansions);
        if hill && self.remaining_total() > 0 {
            self.under.push((placement.pos, None));
        }
        let builder = !self.extra_turn && self.extends_builder(index);
        self.flock_due = if self.has_shepherd_out() {
            self.flocks_extended(index)
        } else {
            Vec::new()
        };
        self.phase = Phase::Deploy {
            tile: index,
            deployed: false,
            builder,
        };
        Ok(())
    }

    /// Whether the tile just laid (index `tile`) extends a road or city holding the current
    /// player's builder.
    fn extends_builder(&self, tile: u32) -> bool {
        let builder = Figure::Builder.index();
        if self.supply[self.current.index()][builder] == self.dealt[builder] {
            return false;
        }
        let placed = self.board.tiles()[tile as usize];
        let count = self.cat.tile(placed.tile).features.len() as u32;
        (0..count).any(|i| {
            let f = self.graph.get(self.graph.root(placed.first_node + i));
            traders::extends_builder(f, self.current)
        })
    }

    /// Puts the drawn tile back in the box because it fits nowhere; the player draws again.
    pub fn discard(&mut self, tile: TileId) -> Result<(), IllegalMove> {
        self.expect_place_phase()?;
        self.can_draw(tile)?;
        if !self.legal_placements(tile).is_empty() {
            return Err(IllegalMove::CannotDiscard(self.cat.tile(tile).name.clone()));
        }
        self.check_wheel_draw(tile)?;
        self.take(tile);
        self.wheel_tile_taken();
        self.turn += 1;
        Ok(())
    }

    /// Takes a drawn tile out of the box; the river's order stops mattering once its tiles are
    /// all drawn.
    fn take(&mut self, tile: TileId) {
        self.remaining[tile.index()] -= 1;
        if self
            .river
            .as_ref()
            .is_some_and(|r| r.is_done(&self.remaining))
        {
            self.river = None;
        }
    }

    /// Ends the turn: scores what the new tile completed (the player who completed a city takes
    /// its goods) and passes to the next player, unless a builder earned the player a second
    /// part of the turn.
    pub fn end_turn(&mut self) -> Result<TurnReport, IllegalMove> {
        let Phase::Deploy { tile, builder, .. } = self.phase else {
            return Err(IllegalMove::OutOfOrder(
                "a turn ends after its tile is laid",
            ));
        };
        if self.flock_draw.is_some() {
            return Err(IllegalMove::OutOfOrder(
                "the shepherd placed this turn has not drawn its token",
            ));
        }
        if !self.flock_due.is_empty() {
            return Err(IllegalMove::OutOfOrder(
                "the tile extended the player's flock: grow or gather it first",
            ));
        }
        let mut report = TurnReport::default();
        self.settle_closed_flocks(&mut report);
        self.turn += 1;
        let placed = self.board.tiles()[tile as usize];
        let count = self.cat.tile(placed.tile).features.len() as u32;
        let mut roots: Vec<FeatureId> = (0..count)
            .map(|i| self.graph.find(placed.first_node + i))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        for root in roots {
            let f = self.graph.get(root);
            if f.is_closed() && !f.scored {
                let tiles = self.scored_tiles(f);
                let points = completed_value(f, tiles, &self.options, self.expansions);
                let goods = traders::goods_taken(f, self.expansions);
                for (held, taken) in self.goods[self.current.index()].iter_mut().zip(goods) {
                    *held += taken;
                }
                for (sum, taken) in report.goods.iter_mut().zip(goods) {
                    *sum += taken;
                }
                self.score(root, points, Cause::Completed, &mut report);
            }
        }
        for cell in std::iter::once(placed.placement.pos).chain(placed.placement.pos.ring()) {
            if self.board.block_count(cell) < 9 {
                continue;
            }
            let vineyards = cell
                .ring()
                .filter(|&p| self.board.get(p).is_some_and(|t| self.has_vineyard(t.tile)))
                .count();
            let points = cloister_value(9)
                + hills::vineyard_bonus(vineyards, &self.options, self.expansions);
            for root in self.cloisters_at(cell) {
                if !self.graph.get(root).scored {
                    self.score(root, points, Cause::Completed, &mut report);
                }
            }
        }
        report.extra_turn = builder;
        report.crown = self.take_crowned();
        self.extra_turn = builder;
        if !builder {
            self.current = PlayerId(((self.current.index() + 1) % self.players()) as u8);
        }
        self.phase = Phase::PlaceTile;
        Ok(report)
    }

    /// Whether a vineyard is printed on `tile`: a Hills & Sheep vineyard tile, or a River III tile
    /// with one when that print is in play.
    fn has_vineyard(&self, tile: TileId) -> bool {
        self.cat.tile(tile).vineyard
            || (river_iii::in_play(&self.options, self.expansions)
                && river_iii_data().vineyard(tile))
    }

    /// Plays a whole turn: lay, perhaps deploy, end (or discard).
    pub fn play(&mut self, turn: Turn) -> Result<TurnReport, IllegalMove> {
        match turn {
            Turn::Discard { tile } => self.discard(tile).map(|()| TurnReport::default()),
            Turn::Place {
                tile,
                placement,
                follower,
                flock,
            } => self.play_laid(tile, placement, follower, flock, None),
        }
    }

    /// Lays a tile (with `under` slid under its hill), perhaps deploys a figure, carries out the
    /// flock actions and ends the turn; a refused turn leaves the game as it was.
    fn play_laid(
        &mut self,
        tile: TileId,
        placement: Placement,
        follower: Option<Deploy>,
        flock: FlockActions,
        under: Option<TileId>,
    ) -> Result<TurnReport, IllegalMove> {
        self.expect_place_phase()?;
        if let Some(d) = follower {
            self.check_deploy_before_laying(tile, placement, d)?;
        }
        if flock.is_empty() && !self.has_shepherd_out() {
            if follower.is_some_and(|d| d.figure == Figure::Shepherd) {
                return Err(IllegalMove::OutOfOrder(
                    "a shepherd placed draws a token: the turn needs its flock action",
                ));
            }
            return self.lay_deploy_end(tile, placement, follower, flock, under);
        }
        // Flock actions may be refused after the tile is laid: play on a copy.
        let mut next = self.clone();
        let report = next.lay_deploy_end(tile, placement, follower, flock, under)?;
        *self = next;
        Ok(report)
    }

    fn lay_deploy_end(
        &mut self,
        tile: TileId,
        placement: Placement,
        follower: Option<Deploy>,
        flock: FlockActions,
        under: Option<TileId>,
    ) -> Result<TurnReport, IllegalMove> {
        self.place(tile, placement)?;
        if let Some(under) = under {
            self.slide_under(under)?;
        }
        if let Some(d) = follower {
            self.deploy(d.port, d.figure)?;
        }
        let mut report = TurnReport::default();
        for action in flock.iter() {
            let part = self.flock(action)?;
            report.events.extend(part.events);
            report.returned.extend(part.returned);
        }
        let end = self.end_turn()?;
        report.events.extend(end.events);
        report.returned.extend(end.returned);
        report.goods = end.goods;
        report.extra_turn = end.extra_turn;
        Ok(report)
    }

    /// Plays a hill tile's turn and names the tile slid under it (Hills & Sheep); a discard
    /// has nothing under it.
    pub fn play_over(&mut self, turn: Turn, under: TileId) -> Result<TurnReport, IllegalMove> {
        let Turn::Place {
            tile,
            placement,
            follower,
            flock,
        } = turn
        else {
            return Err(IllegalMove::NothingUnder);
        };
        self.expect_place_phase()?;
        if !self.cat.tile(tile).hill || !hills::hills(&self.options, self.expansions) {
            return Err(IllegalMove::NothingUnder);
        }
        if self.remaining[under.index()] < 1 + u8::from(under == tile) {
            return Err(IllegalMove::NoneLeft(self.cat.tile(under).name.clone()));
        }
        self.play_laid(tile, placement, follower, flock, Some(under))
    }

    /// The cells a feature covers, sorted.
    fn cells(&self, f: &Feature) -> Vec<Pos> {
        let mut tiles: Vec<Pos> = f
            .tiles()
            .iter()
            .map(|&t| self.board.tiles()[t as usize].placement.pos)
            .collect();
        tiles.sort_unstable();
        tiles
    }

    /// Every follower on the board.
    pub fn meeples(&self) -> Vec<Meeple> {
        let mut out: Vec<Meeple> = self
            .graph
            .groups()
            .flat_map(|(_, f)| f.occupants.iter().map(|o| self.meeple(o)))
            .collect();
        out.sort_by_key(|m| (m.pos, m.player));
        out
    }

    /// The feature group of the feature at `port` (board frame) of the tile at `pos`.
    pub fn feature_at(&self, pos: Pos, port: Port) -> Option<&Feature> {
        let placed = self.board.get(pos)?;
        let local = self
            .cat
            .tile(placed.tile)
            .feature_at_rotated(port, placed.placement.rot)?;
        Some(
            self.graph
                .get(self.graph.root(placed.first_node + local as u32)),
        )
    }

    /// Whether the feature at `port` (board frame) of the tile at `pos` is complete: a road or
    /// city with no open edge, or a cloister with tiles all around its own.
    pub fn is_complete_at(&self, pos: Pos, port: Port) -> bool {
        self.feature_at(pos, port).is_some_and(|f| {
            f.is_closed() || (f.kind == FeatureKind::Cloister && self.board.block_count(pos) == 9)
        })
    }

    fn meeple(&self, o: &Occupant) -> Meeple {
        let placed = self.board.tiles()[o.tile as usize];
        let f = &self.cat.tile(placed.tile).features[(o.node - placed.first_node) as usize];
        Meeple {
            player: o.player,
            figure: o.figure,
            pos: placed.placement.pos,
            kind: f.kind,
            ports: f.ports.rotated(placed.placement.rot),
        }
    }

    fn expect_place_phase(&self) -> Result<(), IllegalMove> {
        match self.phase {
            Phase::PlaceTile => Ok(()),
            Phase::Deploy { .. } => Err(IllegalMove::OutOfOrder(
                "a tile was already laid this turn; end the turn first",
            )),
            Phase::Over => Err(IllegalMove::GameOver),
        }
    }

    fn cloisters_at(&mut self, pos: Pos) -> Vec<FeatureId> {
        let Some(placed) = self.board.get(pos).copied() else {
            return Vec::new();
        };
        let ty = self.cat.tile(placed.tile);
        (0..ty.features.len())
            .filter(|&i| ty.features[i].kind == FeatureKind::Cloister)
            .map(|i| self.graph.find(placed.first_node + i as u32))
            .collect()
    }

    /// Scores a feature for its majority holders, marks it scored and returns its figures
    /// (farmers and pigs stay: farms are only scored at the end).
    fn score(&mut self, root: FeatureId, points: u32, cause: Cause, report: &mut TurnReport) {
        self.score_with(root, |_, _| points, cause, report);
    }

    /// As [`Game::score`], with the points of each majority holder given by `points`.
    fn score_with(
        &mut self,
        root: FeatureId,
        points: impl Fn(&Feature, PlayerId) -> u32,
        cause: Cause,
        report: &mut TurnReport,
    ) {
        let f = self.graph.get(root);
        let shares: Vec<(PlayerId, u32)> = self
            .majority(f)
            .into_iter()
            .map(|p| (p, points(f, p)))
            .collect();
        if !shares.is_empty() {
            let tiles = self.cells(f);
            self.award(&shares, Scored::Feature(f.kind), tiles, cause, report);
        }
        let f = self.graph.get(root);
        let returned: Vec<Meeple> = f.occupants.iter().map(|o| self.meeple(o)).collect();
        let f = self.graph.get_mut(root);
        f.scored = true;
        if f.kind != FeatureKind::Field {
            f.occupants.clear();
            for m in &returned {
                self.supply[m.player.index()][m.figure.index()] += 1;
            }
            report.returned.extend(returned);
        }
    }

    /// The players who hold the majority on `f`, hills breaking ties (Hills & Sheep).
    fn majority(&self, f: &Feature) -> Vec<PlayerId> {
        let tied = f.majority(self.players());
        if !hills::hills(&self.options, self.expansions) {
            return tied;
        }
        let on_hill = |t: u32| self.cat.tile(self.board.tiles()[t as usize].tile).hill;
        hills::break_tie(tied, &f.occupants, on_hill, self.options.hill_tiebreak)
    }

    /// Gives each player their share and records it: one event per distinct amount.
    fn award(
        &mut self,
        shares: &[(PlayerId, u32)],
        scored: Scored,
        tiles: Vec<Pos>,
        cause: Cause,
        report: &mut TurnReport,
    ) {
        for (i, &(_, points)) in shares.iter().enumerate() {
            if shares[..i].iter().any(|s| s.1 == points) {
                continue;
            }
            report.events.push(ScoreEvent {
                // Completed features score in `end_turn`, after the turn count went up; flocks
                // are gathered before it.
                turn: match cause {
                    Cause::Completed => Some(self.turn),
                    Cause::Gathered | Cause::Wheel => Some(self.turn + 1),
                    Cause::Final => None,
                },
                players: shares
                    .iter()
                    .filter(|s| s.1 == points)
                    .map(|s| s.0)
                    .collect(),
                points,
                feature: scored,
                tiles: tiles.clone(),
                cause,
            });
        }
        for &(p, points) in shares {
            self.scores[p.index()] += points;
        }
    }

    /// Lays a tile and links its features to its neighbours'; returns its index.
    fn lay(&mut self, tile: TileId, placement: Placement) -> u32 {
        let index = self.board.tiles().len() as u32;
        let ty = self.cat.tile(tile);
        let first = self.graph.len();
        let printed = river_iii::in_play(&self.options, self.expansions).then(river_iii_data);
        for (i, f) in ty.features.iter().enumerate() {
            let shared = ty.shared_edge.is_some_and(|(_, c)| c == i);
            let open = match f.kind {
                FeatureKind::Road | FeatureKind::City => {
                    f.ports.iter().filter(|p| p.is_edge_centre()).count() as u32 + u32::from(shared)
                }
                FeatureKind::Field => f.ports.iter().filter(|p| p.is_half_edge()).count() as u32,
                FeatureKind::Cloister => 0,
            };
            let mut feature = Feature::new(f.kind, index, open);
            feature.pennants = f.count(Attr::Pennant);
            feature.inns = f.count(Attr::Inn);
            feature.cathedrals = f.count(Attr::Cathedral);
            feature.goods = Good::ALL.map(|g| f.count(Attr::Goods(g)));
            feature.pig_herds = f.count(Attr::PigHerd);
            if f.kind == FeatureKind::Field {
                feature.printed_sheep = printed.map_or(0, |d| d.sheep_in(tile, f.ports));
            }
            feature.city_nodes = f.cities.iter().map(|&c| first + c as u32).collect();
            self.graph.add(feature);
        }
        for side in Dir::ALL {
            let Some(n) = self.board.get(placement.pos.step(side)).copied() else {
                continue;
            };
            let nty = self.cat.tile(n.tile);
            for port in side_ports(side) {
                let facing = port.facing().expect("boundary ports face a neighbour");
                for (a, b, closes) in links(ty, placement, nty, n.placement, port, facing) {
                    self.graph
                        .join(first + a as u32, n.first_node + b as u32, closes);
                }
            }
        }
        self.board.put(tile, placement, first);
        index
    }
}

/// The features that meet across `port` of a tile of type `ty` laid at `at` and `facing` of its
/// neighbour `nty` laid at `n`: (ours, theirs, boundary ports the link matches). A second
/// city reaching a shared edge (HS2) links to the city across it too, matching only its own
/// port, as does the city across from a neighbour's shared edge.
fn links(
    ty: &TileType,
    at: Placement,
    nty: &TileType,
    n: Placement,
    port: Port,
    facing: Port,
) -> impl Iterator<Item = (usize, usize, u32)> {
    let ours = ty.feature_at_rotated(port, at.rot);
    let theirs = nty.feature_at_rotated(facing, n.rot);
    let our_second = ty.also_at_rotated(port, at.rot);
    let their_second = nty.also_at_rotated(facing, n.rot);
    let pair = |a: Option<usize>, b: Option<usize>, closes| Some((a?, b?, closes));
    [
        pair(ours, theirs, 2),
        pair(our_second, theirs, 1),
        pair(ours, their_second, 1),
    ]
    .into_iter()
    .flatten()
}

/// The three boundary ports along one side: its two half-edges and its centre.
fn side_ports(side: Dir) -> [Port; 3] {
    let centre = side.port().index();
    [centre - 1, centre, centre + 1].map(|i| Port::from_index(i).expect("boundary port"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lays at `pos` the first tile left, turned the first way, that the rules allow there.
    fn lay_any(game: &mut Game, pos: Pos) {
        let cat = catalogue();
        let (tile, placement) = (0..cat.tiles().len())
            .map(|i| TileId(i as u16))
            .filter(|&t| game.remaining(t) > 0)
            .find_map(|t| {
                let p = game
                    .legal_placements(t)
                    .into_iter()
                    .find(|p| p.pos == pos)?;
                Some((t, p))
            })
            .expect("a tile that fits");
        game.place(tile, placement).unwrap();
        game.end_turn().unwrap();
    }

    #[test]
    fn a_cloister_is_complete_once_tiles_lie_all_around_it() {
        let mut game = Game::new(&Setup::new("base", 2).unwrap()).unwrap();
        let b = catalogue().tile_id("B").unwrap();
        let at = Pos::new(0, 1);
        game.place(
            b,
            Placement {
                pos: at,
                rot: Rotation::R0,
            },
        )
        .unwrap();
        game.end_turn().unwrap();
        let cloister: Port = "C".parse().unwrap();
        let ring = [(-1, 0), (1, 0), (-1, 1), (1, 1), (-1, 2), (1, 2), (0, 2)];
        for (x, y) in ring {
            assert!(!game.is_complete_at(at, cloister), "before ({x}, {y})");
            lay_any(&mut game, Pos::new(x, y));
        }
        assert!(game.is_complete_at(at, cloister));
        // Its fields are not complete for it (a farm never is before the end).
        assert!(!game.is_complete_at(at, "NL".parse().unwrap()));
    }
}

//! A game in progress: the turn structure, followers and scoring.

use super::board::{Board, Placement, PlacementError, Pos};
use super::catalogue::{catalogue, Catalogue, TileSet};
use super::expansions::river::{self, River};
use super::expansions::{compose, inns, Expansions};
use super::feature::{Feature, FeatureGraph, FeatureId, Occupant};
use super::figure::Figure;
use super::options::{FarmScoring, RuleOptions};
use super::player::PlayerId;
use super::port::{Dir, Port, PortSet, Rotation};
use super::scoring::{
    cloister_value, completed_value, incomplete_value, Cause, ScoreEvent, FARM_POINTS_PER_CITY,
    FIRST_EDITION_POINTS_PER_CITY,
};
use super::tile::{Attr, FeatureKind, TileId};

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
}

/// A follower put on the tile just laid.
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
    /// The tile was laid, and perhaps a follower on one of its features.
    Place {
        /// The tile drawn.
        tile: TileId,
        /// Where and how it was laid.
        placement: Placement,
        /// The follower put on it, if any.
        follower: Option<Deploy>,
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
    /// The player has no follower of that figure in supply.
    #[error("player {0} has no {1} follower left")]
    NoFollowerLeft(u8, Figure),
}

/// Where a follower may stand on the tile just placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowerSpot {
    /// The feature's kind.
    pub kind: FeatureKind,
    /// The feature's ports on this tile, in board frame.
    pub ports: PortSet,
}

impl FollowerSpot {
    /// The port that names this spot in records (the feature's first port).
    pub fn port(&self) -> Port {
        self.ports.iter().next().expect("features have ports")
    }
}

/// A follower on the board.
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
    /// Followers that go back to their owners' supply (players take them off the table).
    pub returned: Vec<Meeple>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    PlaceTile,
    Deploy { tile: u32, deployed: bool },
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
    scores: Vec<u32>,
    /// Per player, figures in supply by [`Figure::index`].
    supply: Vec<[u8; 2]>,
    current: PlayerId,
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
        if river.as_ref().is_some_and(|r| r.spring != start) {
            return Err(SetupError::RiverStart(cat.tile(start).name.clone()));
        }
        let figures = [
            setup.options.followers,
            inns::large_followers(setup.expansions),
        ];
        let mut game = Game {
            cat,
            options: setup.options,
            expansions: setup.expansions,
            river,
            board: Board::default(),
            graph: FeatureGraph::default(),
            remaining,
            scores: vec![0; setup.players],
            supply: vec![figures; setup.players],
            current: PlayerId(0),
            turn: 0,
            phase: Phase::PlaceTile,
        };
        game.remaining[setup.tileset.start.index()] -= 1;
        game.lay(setup.tileset.start, setup.start);
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

    /// Followers of kind `figure` in `player`'s supply.
    pub fn figures(&self, player: PlayerId, figure: Figure) -> u8 {
        self.supply[player.index()][figure.index()]
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

    /// Tiles of type `tile` not yet drawn.
    pub fn remaining(&self, tile: TileId) -> u8 {
        self.remaining[tile.index()]
    }

    /// Tiles not yet drawn.
    pub fn remaining_total(&self) -> usize {
        self.remaining.iter().map(|&n| n as usize).sum()
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
            out.retain(|&p| river::check(self.cat, &self.board, tile, p).is_ok());
        }
        out
    }

    /// Whether `tile` may be laid at `placement` now, without laying it.
    pub fn check_placement(&self, tile: TileId, placement: Placement) -> Result<(), IllegalMove> {
        self.expect_place_phase()?;
        self.can_draw(tile)?;
        self.board
            .check(self.cat, tile, placement)
            .and_then(|()| river::check(self.cat, &self.board, tile, placement))
            .map_err(|reason| IllegalMove::Placement {
                tile: self.cat.tile(tile).name.clone(),
                pos: placement.pos,
                rot: placement.rot.degrees(),
                reason,
            })
    }

    /// Lays the tile drawn this turn.
    pub fn place(&mut self, tile: TileId, placement: Placement) -> Result<(), IllegalMove> {
        self.check_placement(tile, placement)?;
        self.take(tile);
        let index = self.lay(tile, placement);
        self.phase = Phase::Deploy {
            tile: index,
            deployed: false,
        };
        Ok(())
    }

    /// Puts the drawn tile back in the box because it fits nowhere; the player draws again.
    pub fn discard(&mut self, tile: TileId) -> Result<(), IllegalMove> {
        self.expect_place_phase()?;
        self.can_draw(tile)?;
        if !self.legal_placements(tile).is_empty() {
            return Err(IllegalMove::CannotDiscard(self.cat.tile(tile).name.clone()));
        }
        self.take(tile);
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

    /// Where the current player may put a follower on the tile just laid.
    pub fn follower_spots(&self) -> Vec<FollowerSpot> {
        let Phase::Deploy {
            tile,
            deployed: false,
        } = self.phase
        else {
            return Vec::new();
        };
        if !self.has_figure() {
            return Vec::new();
        }
        let placed = self.board.tiles()[tile as usize];
        let ty = self.cat.tile(placed.tile);
        ty.features
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                (f.kind != FeatureKind::Field || self.options.farmers)
                    && self
                        .graph
                        .get(self.graph.root(placed.first_node + *i as u32))
                        .occupants
                        .is_empty()
            })
            .map(|(_, f)| FollowerSpot {
                kind: f.kind,
                ports: f.ports.rotated(placed.placement.rot),
            })
            .collect()
    }

    /// Puts one of the current player's followers of kind `figure` on the feature at `port`
    /// (board frame) of the tile just laid.
    pub fn deploy(&mut self, port: Port, figure: Figure) -> Result<(), IllegalMove> {
        let Phase::Deploy { tile, deployed } = self.phase else {
            return Err(IllegalMove::OutOfOrder("a follower comes after its tile"));
        };
        if deployed {
            return Err(IllegalMove::OutOfOrder("only one follower per turn"));
        }
        let placed = self.board.tiles()[tile as usize];
        let ty = self.cat.tile(placed.tile);
        let local = ty
            .feature_at_rotated(port, placed.placement.rot)
            .ok_or(IllegalMove::NoFeature(port))?;
        let kind = ty.features[local].kind;
        if kind == FeatureKind::Field && !self.options.farmers {
            return Err(IllegalMove::NoFarmers);
        }
        let node = placed.first_node + local as u32;
        let root = self.graph.find(node);
        if !self.graph.get(root).occupants.is_empty() {
            return Err(IllegalMove::Occupied(kind, port));
        }
        let player = self.current;
        if self.figures(player, figure) == 0 {
            return Err(IllegalMove::NoFollowerLeft(player.0, figure));
        }
        self.supply[player.index()][figure.index()] -= 1;
        self.graph.get_mut(root).occupants.push(Occupant {
            player,
            tile,
            node,
            figure,
        });
        self.phase = Phase::Deploy {
            tile,
            deployed: true,
        };
        Ok(())
    }

    /// Ends the turn: scores what the new tile completed and passes to the next player.
    pub fn end_turn(&mut self) -> Result<TurnReport, IllegalMove> {
        let Phase::Deploy { tile, .. } = self.phase else {
            return Err(IllegalMove::OutOfOrder(
                "a turn ends after its tile is laid",
            ));
        };
        self.turn += 1;
        let mut report = TurnReport::default();
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
                let tiles = f.tiles().len() as u32;
                let points = completed_value(f, tiles, &self.options, self.expansions);
                self.score(root, points, Cause::Completed, &mut report);
            }
        }
        for cell in std::iter::once(placed.placement.pos).chain(placed.placement.pos.ring()) {
            if self.board.block_count(cell) < 9 {
                continue;
            }
            for root in self.cloisters_at(cell) {
                if !self.graph.get(root).scored {
                    self.score(root, cloister_value(9), Cause::Completed, &mut report);
                }
            }
        }
        self.current = PlayerId(((self.current.index() + 1) % self.players()) as u8);
        self.phase = Phase::PlaceTile;
        Ok(report)
    }

    /// Plays a whole turn: lay, perhaps deploy, end (or discard).
    pub fn play(&mut self, turn: Turn) -> Result<TurnReport, IllegalMove> {
        match turn {
            Turn::Discard { tile } => self.discard(tile).map(|()| TurnReport::default()),
            Turn::Place {
                tile,
                placement,
                follower,
            } => {
                if let Some(deploy) = follower {
                    self.expect_place_phase()?;
                    self.check_deploy_before_laying(tile, placement, deploy)?;
                }
                self.place(tile, placement)?;
                if let Some(d) = follower {
                    self.deploy(d.port, d.figure)?;
                }
                self.end_turn()
            }
        }
    }

    /// End-of-game scoring: incomplete roads, cities and cloisters, then farms.
    pub fn finish(&mut self) -> Result<Vec<ScoreEvent>, IllegalMove> {
        match self.phase {
            Phase::Over => return Err(IllegalMove::GameOver),
            Phase::Deploy { .. } => {
                return Err(IllegalMove::OutOfOrder("end the turn before final scoring"))
            }
            Phase::PlaceTile => {}
        }
        let mut report = TurnReport::default();
        let open: Vec<FeatureId> = self
            .graph
            .groups()
            .filter(|(_, f)| !f.scored && !f.occupants.is_empty() && f.kind != FeatureKind::Field)
            .map(|(id, _)| id)
            .collect();
        for root in open {
            let f = self.graph.get(root);
            let points = match f.kind {
                FeatureKind::Cloister => {
                    let pos = self.board.tiles()[f.occupants[0].tile as usize]
                        .placement
                        .pos;
                    cloister_value(self.board.block_count(pos))
                }
                _ => incomplete_value(f, f.tiles().len() as u32, &self.options, self.expansions),
            };
            self.score(root, points, Cause::Final, &mut report);
        }
        let farms = self.farms_and_cities();
        match self.options.farm_scoring {
            FarmScoring::PerFarm => {
                for (farm, cities) in farms {
                    let points = FARM_POINTS_PER_CITY * cities.len() as u32;
                    self.score(farm, points, Cause::Final, &mut report);
                }
            }
            FarmScoring::PerCity => self.score_cities_for_farmers(&farms, &mut report),
        }
        self.phase = Phase::Over;
        Ok(report.events)
    }

    /// Every occupied farm with the completed cities it touches.
    fn farms_and_cities(&self) -> Vec<(FeatureId, Vec<FeatureId>)> {
        self.graph
            .groups()
            .filter(|(_, f)| f.kind == FeatureKind::Field && !f.occupants.is_empty())
            .map(|(id, f)| {
                let mut cities: Vec<FeatureId> = f
                    .city_nodes
                    .iter()
                    .map(|&n| self.graph.root(n))
                    .filter(|&c| self.graph.get(c).is_closed())
                    .collect();
                cities.sort_unstable();
                cities.dedup();
                (id, cities)
            })
            .collect()
    }

    /// First-edition farm scoring: each completed city once, for the farmers on all farms
    /// that touch it.
    fn score_cities_for_farmers(
        &mut self,
        farms: &[(FeatureId, Vec<FeatureId>)],
        report: &mut TurnReport,
    ) {
        let mut cities: Vec<FeatureId> = farms.iter().flat_map(|(_, c)| c.clone()).collect();
        cities.sort_unstable();
        cities.dedup();
        for city in cities {
            let mut supply = Feature::new(FeatureKind::Field, 0, 0);
            for (farm, touching) in farms {
                if touching.contains(&city) {
                    supply
                        .occupants
                        .extend_from_slice(&self.graph.get(*farm).occupants);
                }
            }
            let players = supply.majority(self.players());
            for p in &players {
                self.scores[p.index()] += FIRST_EDITION_POINTS_PER_CITY;
            }
            report.events.push(ScoreEvent {
                turn: None,
                players,
                points: FIRST_EDITION_POINTS_PER_CITY,
                feature: FeatureKind::Field,
                tiles: self.cells(self.graph.get(city)),
                cause: Cause::Final,
            });
        }
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

    /// Checks a follower on `port` of a tile about to be laid, so that [`Game::play`] never
    /// leaves a half-played turn behind.
    fn check_deploy_before_laying(
        &self,
        tile: TileId,
        placement: Placement,
        deploy: Deploy,
    ) -> Result<(), IllegalMove> {
        let port = deploy.port;
        let ty = self.cat.tile(tile);
        let rot = placement.rot;
        let local = ty
            .feature_at_rotated(port, rot)
            .ok_or(IllegalMove::NoFeature(port))?;
        let kind = ty.features[local].kind;
        if kind == FeatureKind::Field && !self.options.farmers {
            return Err(IllegalMove::NoFarmers);
        }
        if self.figures(self.current, deploy.figure) == 0 {
            return Err(IllegalMove::NoFollowerLeft(self.current.0, deploy.figure));
        }
        if self.would_join_occupied(tile, placement, local) {
            return Err(IllegalMove::Occupied(kind, port));
        }
        Ok(())
    }

    /// Whether feature `local` of `tile`, if laid at `placement`, would join a feature that
    /// already has a follower — directly, or through a neighbour's feature that links it to
    /// another feature of the same tile.
    fn would_join_occupied(&self, tile: TileId, placement: Placement, local: usize) -> bool {
        let ty = self.cat.tile(tile);
        let mut links: Vec<(usize, FeatureId)> = Vec::new();
        for side in Dir::ALL {
            let Some(n) = self.board.get(placement.pos.step(side)) else {
                continue;
            };
            let nty = self.cat.tile(n.tile);
            for p in side_ports(side) {
                let ours = ty.feature_at_rotated(p, placement.rot);
                let facing = p.facing().expect("boundary ports face a neighbour");
                let theirs = nty.feature_at_rotated(facing, n.placement.rot);
                if let (Some(a), Some(b)) = (ours, theirs) {
                    links.push((a, self.graph.root(n.first_node + b as u32)));
                }
            }
        }
        let mut locals = vec![local];
        let mut groups: Vec<FeatureId> = Vec::new();
        let mut grew = true;
        while grew {
            grew = false;
            for &(a, g) in &links {
                match (locals.contains(&a), groups.contains(&g)) {
                    (true, false) => groups.push(g),
                    (false, true) => locals.push(a),
                    _ => continue,
                }
                grew = true;
            }
        }
        groups
            .iter()
            .any(|&g| !self.graph.get(g).occupants.is_empty())
    }

    /// Where a follower could stand if `tile` were laid at `placement` now (a preview for
    /// showing the player; the placement itself is not checked).
    pub fn follower_spots_if(&self, tile: TileId, placement: Placement) -> Vec<FollowerSpot> {
        if self.phase != Phase::PlaceTile || !self.has_figure() {
            return Vec::new();
        }
        let ty = self.cat.tile(tile);
        ty.features
            .iter()
            .enumerate()
            .filter(|&(i, f)| {
                (f.kind != FeatureKind::Field || self.options.farmers)
                    && !self.would_join_occupied(tile, placement, i)
            })
            .map(|(_, f)| FollowerSpot {
                kind: f.kind,
                ports: f.ports.rotated(placement.rot),
            })
            .collect()
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

    /// Scores a feature for its majority holders, marks it scored and returns its followers
    /// (farmers stay: farms are only scored at the end).
    fn score(&mut self, root: FeatureId, points: u32, cause: Cause, report: &mut TurnReport) {
        let players = self.players();
        let f = self.graph.get(root);
        let winners = f.majority(players);
        if !winners.is_empty() {
            let tiles = self.cells(f);
            for w in &winners {
                self.scores[w.index()] += points;
            }
            report.events.push(ScoreEvent {
                turn: (cause == Cause::Completed).then_some(self.turn),
                players: winners,
                points,
                feature: f.kind,
                tiles,
                cause,
            });
        }
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

    /// Lays a tile and links its features to its neighbours'; returns its index.
    fn lay(&mut self, tile: TileId, placement: Placement) -> u32 {
        let index = self.board.tiles().len() as u32;
        let ty = self.cat.tile(tile);
        let first = self.graph.len();
        for f in &ty.features {
            let open = if matches!(f.kind, FeatureKind::Road | FeatureKind::City) {
                f.ports.iter().filter(|p| p.is_edge_centre()).count() as u32
            } else {
                0
            };
            let mut feature = Feature::new(f.kind, index, open);
            feature.pennants = f.count(Attr::Pennant);
            feature.inns = f.count(Attr::Inn);
            feature.cathedrals = f.count(Attr::Cathedral);
            feature.city_nodes = f.cities.iter().map(|&c| first + c as u32).collect();
            self.graph.add(feature);
        }
        for side in Dir::ALL {
            let Some(n) = self.board.get(placement.pos.step(side)).copied() else {
                continue;
            };
            let nty = self.cat.tile(n.tile);
            for port in side_ports(side) {
                let ours = ty.feature_at_rotated(port, placement.rot);
                let facing = port.facing().expect("boundary ports face a neighbour");
                let theirs = nty.feature_at_rotated(facing, n.placement.rot);
                if let (Some(a), Some(b)) = (ours, theirs) {
                    let closes = if port.is_edge_centre() { 2 } else { 0 };
                    self.graph
                        .join(first + a as u32, n.first_node + b as u32, closes);
                }
            }
        }
        self.board.put(tile, placement, first);
        index
    }
}

/// The three boundary ports along one side: its two half-edges and its centre.
fn side_ports(side: Dir) -> [Port; 3] {
    let centre = side.port().index();
    [centre - 1, centre, centre + 1].map(|i| Port::from_index(i).expect("boundary port"))
}

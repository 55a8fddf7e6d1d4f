//! The game of Carcassonne: tiles, board, features, followers and scoring.
//!
//! Pure logic — no I/O, no camera, no UI. Expansions plug in as tile data and as options of the
//! same turn structure: lay a tile, perhaps deploy a follower, score what the tile completed.

pub mod board;
pub mod catalogue;
pub mod expansions;
pub mod feature;
mod fields;
pub mod figure;
pub mod game;
pub mod odds;
pub mod options;
pub mod player;
pub mod port;
pub mod scoring;
pub mod selfplay;
pub mod tile;

pub use board::{Board, Placement, PlacementError, Pos};
pub use catalogue::{catalogue, Catalogue, ExpansionSet, TileSet};
pub use expansions::sheep::{FlockAction, FlockActions, Token};
pub use expansions::{Expansion, Expansions};
pub use figure::{Figure, Figures};
pub use game::{
    CrownFollower, Deploy, FollowerSpot, Game, IllegalMove, Meeple, Sector, Setup, SetupError,
    Spin, Turn, TurnReport,
};
pub use odds::FollowerOdds;
pub use options::{ClosedFlocks, FarmScoring, FinalInnsCathedrals, HillTiebreak, RuleOptions};
pub use player::{Colour, PlayerId};
pub use port::{Dir, Port, PortSet, Rotation};
pub use scoring::{Cause, ScoreEvent, Scored};
pub use tile::{Attr, EdgeKind, FeatureKind, Good, RiverDef, TileId, TileType};

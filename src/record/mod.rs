//! The game record ("our PGN"): a versioned JSON file that says who played, with which tiles,
//! and every turn; replaying it through the rules engine reproduces every score.
//!
//! ```
//! use meeplecam::record::Record;
//!
//! let record = Record::from_json(r#"{
//!   "meeplecam": 1,
//!   "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
//!   "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S"}}]
//! }"#)?;
//! let replay = record.replay()?;
//! assert_eq!(replay.game.scores(), &[4, 0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod jcz;
mod jcz_flock;
pub mod journal;
mod replay;
pub mod selfplay;

use serde::{Deserialize, Serialize};

use crate::rules::{Colour, Expansion, Figure, FlockAction, Pos, RuleOptions, Sector};

pub use replay::{play_entry, setup_of, turn_of, Played, Replay, ReplayError};

/// The record format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// A whole game, as written to disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Format version; must be [`FORMAT_VERSION`].
    pub meeplecam: u32,
    /// The base box (`base`, `bigbox`).
    #[serde(default = "default_tileset")]
    pub tileset: String,
    /// Expansions mixed in (`river`, `river_ii`, `inns_and_cathedrals`, `traders_and_builders`,
    /// `hills_and_sheep`, `wheel_of_fortune`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expansions: Vec<Expansion>,
    /// Rule options.
    #[serde(default)]
    pub options: RuleOptions,
    /// Players in turn order.
    pub players: Vec<PlayerEntry>,
    /// Where the start tile lies; the tile set's start tile at the origin if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartEntry>,
    /// The turns, in order.
    #[serde(default)]
    pub turns: Vec<TurnEntry>,
}

fn default_tileset() -> String {
    "base".to_string()
}

/// A player at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// Name shown in reports.
    pub name: String,
    /// Colour of their figures.
    pub colour: Colour,
}

/// The start tile's placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartEntry {
    /// Tile name.
    pub tile: String,
    /// Cell.
    #[serde(default = "origin")]
    pub at: Pos,
    /// Rotation in degrees clockwise.
    #[serde(default)]
    pub rot: u16,
}

fn origin() -> Pos {
    Pos::new(0, 0)
}

/// One turn: a tile laid (and perhaps a follower) or a tile discarded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnEntry {
    /// The player, checked against turn order when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Tile name (rulebook letter or JCloisterZone id); for a hill tile (Hills & Sheep),
    /// `"HILL over TILE"` names the tile slid under it when it is known.
    pub tile: String,
    /// Cell, for a laid tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Pos>,
    /// Rotation in degrees clockwise, for a laid tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rot: Option<u16>,
    /// The figure put on the tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follower: Option<FollowerEntry>,
    /// Flock actions (Hills & Sheep), in order: the token drawn for a shepherd placed this turn
    /// (`"draw 1"` … `"draw 4"`, `"draw wolf"`), then for each flock of the player's that the
    /// tile extended, oldest shepherd first, `"gather"` or the token drawn to grow it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flock: Vec<FlockAction>,
    /// Whether this is the second part of a builder's double turn (Traders & Builders), checked
    /// when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<bool>,
    /// The tile fitted nowhere and was put away.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discard: bool,
    /// The Wheel of Fortune's inputs: the drawn tile's icon, Pestilence choices, a crown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheel: Option<WheelEntry>,
}

/// A turn's Wheel of Fortune inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WheelEntry {
    /// The wheel icon (1–3) on the drawn tile: the wheel turns before the tile is laid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<u8>,
    /// When the pig stops on Pestilence: per player, from the one whose turn it is clockwise,
    /// the follower returned (`null` for a player with none on a land tile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pestilence: Vec<Option<RemovalEntry>>,
    /// A follower put on a vacant crown space instead of on the tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crown: Option<CrownEntry>,
}

/// A follower returned to Pestilence: the cell it stands on and a port of its feature there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovalEntry {
    /// Its owner, checked when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The cell.
    pub at: Pos,
    /// A port of its feature, in board frame.
    pub port: String,
}

/// A follower put on a crown space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrownEntry {
    /// The wheel's sector (`fortune`, `taxes`, `famine`, `storm`, `inquisition`, `pestilence`).
    pub sector: Sector,
    /// Which follower: `normal` (the default) or `large`.
    #[serde(default, skip_serializing_if = "is_normal")]
    pub figure: Figure,
}

impl TurnEntry {
    /// A tile laid at `at`, turned `rot` degrees clockwise, with no follower (yet).
    pub fn laid(tile: &str, at: Pos, rot: u16) -> TurnEntry {
        TurnEntry {
            player: None,
            tile: tile.to_string(),
            at: Some(at),
            rot: Some(rot),
            follower: None,
            flock: Vec::new(),
            extra: None,
            discard: false,
            wheel: None,
        }
    }
}

/// A figure deployed on the tile just laid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowerEntry {
    /// A port of the feature it stands on, in board frame (`N`, `SL`, `C`, …).
    pub port: String,
    /// Which figure: `normal` (the default), `large` (Inns & Cathedrals), `builder` or `pig`
    /// (Traders & Builders), `shepherd` (Hills & Sheep).
    #[serde(default, skip_serializing_if = "is_normal")]
    pub figure: Figure,
}

fn is_normal(figure: &Figure) -> bool {
    *figure == Figure::Normal
}

/// Why a record file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// Not JSON, or not a record's shape.
    #[error("not a valid game record: {0}")]
    Json(#[from] serde_json::Error),
    /// Written by a newer or unknown format.
    #[error("unsupported record version {0} (this build reads version {FORMAT_VERSION})")]
    Version(u32),
}

impl Record {
    /// Parses a record from JSON text.
    pub fn from_json(text: &str) -> Result<Record, ParseError> {
        let record: Record = serde_json::from_str(text)?;
        if record.meeplecam != FORMAT_VERSION {
            return Err(ParseError::Version(record.meeplecam));
        }
        Ok(record)
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records always serialise")
    }

    /// Replays every turn through the rules engine, then scores the end of the game.
    pub fn replay(&self) -> Result<Replay, ReplayError> {
        replay::replay(self, true)
    }

    /// Replays every turn but leaves the game open (no final scoring).
    pub fn replay_open(&self) -> Result<Replay, ReplayError> {
        replay::replay(self, false)
    }
}

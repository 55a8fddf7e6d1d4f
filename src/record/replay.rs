//! Replaying a record through the rules engine.

use crate::rules::{
    catalogue, Colour, Deploy, Expansions, FlockActions, Game, Placement, Port, Rotation,
    ScoreEvent, Setup, Spin, TileId, Turn, TurnReport,
};

use super::{Record, TurnEntry, WheelEntry};

/// A replayed record: the game after its last turn and everything that scored.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last turn (and final scoring, unless replayed open).
    pub game: Game,
    /// Every score event, in order.
    pub events: Vec<ScoreEvent>,
    /// Player names in seat order.
    pub names: Vec<String>,
    /// Player colours in seat order.
    pub colours: Vec<Colour>,
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The players, tile set or options are wrong.
    #[error("bad game setup: {0}")]
    Setup(String),
    /// A turn is malformed or breaks the rules.
    #[error("turn {turn}: {reason}")]
    Turn {
        /// 1-based turn number.
        turn: usize,
        /// What is wrong.
        reason: String,
    },
}

pub(super) fn replay(record: &Record, finish: bool) -> Result<Replay, ReplayError> {
    let setup = setup_of(record)?;
    let mut game = Game::new(&setup).map_err(|e| ReplayError::Setup(e.to_string()))?;
    let names: Vec<String> = record.players.iter().map(|p| p.name.clone()).collect();
    let mut events = Vec::new();
    for (i, entry) in record.turns.iter().enumerate() {
        let played = play_entry(&mut game, entry, &names).map_err(|reason| ReplayError::Turn {
            turn: i + 1,
            reason,
        })?;
        for report in played.spin.into_iter().chain([played.turn]) {
            events.extend(report.events);
        }
    }
    if finish {
        events.extend(
            game.finish()
                .map_err(|e| ReplayError::Setup(e.to_string()))?,
        );
    }
    Ok(Replay {
        game,
        events,
        names,
        colours: record.players.iter().map(|p| p.colour).collect(),
    })
}

/// What one record entry did to the game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The wheel's turn before the tile was laid (The Wheel of Fortune), if its icon turned it.
    pub spin: Option<TurnReport>,
    /// The turn itself.
    pub turn: TurnReport,
}

/// Plays one record entry on `game` (players named `names` in seat order): the wheel's turn, if
/// any, then the tile, its figure or crown and the hill's under-tile; the error says why not.
pub fn play_entry(game: &mut Game, entry: &TurnEntry, names: &[String]) -> Result<Played, String> {
    if let Some(name) = &entry.player {
        let expected = &names[game.current_player().index()];
        if name != expected {
            return Err(format!("it is {expected}'s turn, not {name}'s"));
        }
    }
    if entry.extra.is_some_and(|e| e != game.is_extra_turn()) {
        let why = if game.is_extra_turn() {
            "this is the second part of a builder's double turn"
        } else {
            "this is no builder's extra turn"
        };
        return Err(why.into());
    }
    let turn = turn_of(entry)?;
    let under = under_of(entry).map(tile_id).transpose()?;
    let wheel = entry.wheel.clone().unwrap_or_default();
    let spin = match spin_of(&wheel, names, game)? {
        Some(spin) => {
            let drawn = match turn {
                Turn::Place { tile, .. } | Turn::Discard { tile } => tile,
            };
            Some(game.spin(drawn, &spin).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let turn = match (turn, under, &wheel.crown) {
        (Turn::Discard { .. }, Some(_), _) => {
            return Err("a discarded tile has nothing under it".into())
        }
        (_, _, Some(crown)) => game.play_crowned(turn, crown.sector, crown.figure, under),
        (Turn::Place { .. }, Some(under), None) => game.play_over(turn, under),
        (_, None, None) => game.play(turn),
    }
    .map_err(|e| e.to_string())?;
    Ok(Played { spin, turn })
}

/// The engine setup a record asks for.
pub fn setup_of(record: &Record) -> Result<Setup, ReplayError> {
    let bad = |s: String| ReplayError::Setup(s);
    for (i, x) in record.expansions.iter().enumerate() {
        if record.expansions[..i].contains(x) {
            return Err(bad(format!("expansion {x} is listed twice")));
        }
    }
    let expansions: Expansions = record.expansions.iter().copied().collect();
    let mut setup = Setup::with_expansions(&record.tileset, expansions, record.players.len())
        .map_err(|e| bad(e.to_string()))?;
    setup.options = record.options;
    if record.options.followers == 0 {
        return Err(bad("players need at least one follower".into()));
    }
    for (i, p) in record.players.iter().enumerate() {
        if p.name.trim().is_empty() {
            return Err(bad(format!("player {} has no name", i + 1)));
        }
        if record.players[..i].iter().any(|q| q.name == p.name) {
            return Err(bad(format!("two players are called {:?}", p.name)));
        }
        if record.players[..i].iter().any(|q| q.colour == p.colour) {
            return Err(bad(format!("two players play {}", p.colour)));
        }
    }
    if let Some(start) = &record.start {
        setup.tileset.start = tile_id(&start.tile).map_err(bad)?;
        if !setup
            .tileset
            .counts
            .iter()
            .any(|&(id, n)| id == setup.tileset.start && n > 0)
        {
            return Err(bad(format!(
                "start tile {} is not in the {} set",
                start.tile, setup.tileset.name
            )));
        }
        setup.start = Placement {
            pos: start.at,
            rot: rotation(start.rot).map_err(bad)?,
        };
    }
    Ok(setup)
}

/// The wheel turn a record entry describes (none without an icon); Pestilence choices name
/// players from the one whose turn it is, clockwise.
fn spin_of(wheel: &WheelEntry, names: &[String], game: &Game) -> Result<Option<Spin>, String> {
    let Some(icon) = wheel.icon else {
        if !wheel.pestilence.is_empty() {
            return Err("Pestilence choices come with a wheel icon".into());
        }
        return Ok(None);
    };
    let mut pestilence = Vec::new();
    for (i, choice) in wheel.pestilence.iter().enumerate() {
        let Some(c) = choice else {
            pestilence.push(None);
            continue;
        };
        let seat = (game.current_player().index() + i) % names.len();
        if let Some(name) = c.player.as_ref().filter(|&n| *n != names[seat]) {
            return Err(format!(
                "Pestilence choice {} is {}'s, not {name}'s",
                i + 1,
                names[seat]
            ));
        }
        let port = c.port.parse::<Port>().map_err(|e| e.to_string())?;
        pestilence.push(Some((c.at, port)));
    }
    Ok(Some(Spin { icon, pestilence }))
}

/// The tile named under a hill tile in `"HILL over TILE"`.
fn under_of(entry: &TurnEntry) -> Option<&str> {
    entry
        .tile
        .split_once(" over ")
        .map(|(_, under)| under.trim())
}

fn tile_id(name: &str) -> Result<TileId, String> {
    catalogue()
        .tile_id(name)
        .ok_or_else(|| format!("unknown tile {name:?}"))
}

fn rotation(deg: u16) -> Result<Rotation, String> {
    Rotation::from_degrees(deg).ok_or_else(|| format!("rotation {deg} is not 0, 90, 180 or 270"))
}

/// The engine turn a record entry describes.
pub fn turn_of(entry: &TurnEntry) -> Result<Turn, String> {
    let name = entry
        .tile
        .split_once(" over ")
        .map_or(&*entry.tile, |(t, _)| t);
    let tile = tile_id(name.trim())?;
    if entry.discard {
        if entry.at.is_some() || entry.rot.is_some() || entry.follower.is_some() {
            return Err("a discarded tile has no position, rotation or follower".into());
        }
        if !entry.flock.is_empty() {
            return Err("a discarded tile extends no flock".into());
        }
        return Ok(Turn::Discard { tile });
    }
    let pos = entry.at.ok_or("a laid tile needs \"at\"")?;
    let rot = rotation(entry.rot.ok_or("a laid tile needs \"rot\"")?)?;
    let follower = match &entry.follower {
        Some(f) => Some(Deploy {
            port: f.port.parse::<Port>().map_err(|e| e.to_string())?,
            figure: f.figure,
        }),
        None => None,
    };
    Ok(Turn::Place {
        tile,
        placement: Placement { pos, rot },
        follower,
        flock: FlockActions::from_slice(&entry.flock)?,
    })
}

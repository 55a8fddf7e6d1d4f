//! Reading game files: our records and JCloisterZone `.jcz` files.

use std::path::Path;

use anyhow::Context;

use meeplecam::record::{jcz, Record, Replay};

use super::Failure;

/// A game file, replayed.
pub struct Loaded {
    /// The replayed game.
    pub replay: Replay,
    /// Whether end-of-game scoring ran.
    pub finished: bool,
}

/// Reads a record or `.jcz` file (told apart by content) as a [`Record`], with whether its game
/// is over (a `.jcz` whose draw order is not used up, or without one whose box is not empty, is
/// still running).
pub fn read_record(path: &Path) -> Result<(Record, bool), Failure> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let bad = |e: anyhow::Error| Failure::BadInput(e.context(path.display().to_string()));
    let looks_jcz = serde_json::from_str::<serde_json::Value>(&text)
        .map(|v| v.get("replay").is_some() && v.get("meeplecam").is_none())
        .unwrap_or(false);
    if looks_jcz {
        let game = jcz::parse(&text).map_err(|e| bad(e.into()))?;
        let over = game.is_over().unwrap_or_else(|| {
            game.record
                .replay_open()
                .is_ok_and(|r| r.game.remaining_total() == 0)
        });
        Ok((game.record, over))
    } else {
        let record = Record::from_json(&text).map_err(|e| bad(e.into()))?;
        Ok((record, true))
    }
}

/// Reads and replays a game file; end-of-game scoring runs if the game is over and `open` is
/// not asked for.
pub fn load(path: &Path, open: bool) -> Result<Loaded, Failure> {
    let (record, over) = read_record(path)?;
    let finish = over && !open;
    let replay = if finish {
        record.replay()
    } else {
        record.replay_open()
    }
    .map_err(|e| Failure::BadInput(anyhow::Error::new(e).context(path.display().to_string())))?;
    Ok(Loaded {
        replay,
        finished: finish,
    })
}

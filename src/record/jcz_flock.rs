//! JCloisterZone's sheep draws named: a `.jcz` file gives a random number for each draw, and
//! JCloisterZone takes the token at that fraction of its bag laid out in token order. Which
//! tokens the bag holds depends on the game so far, so the import replays it.

use crate::rules::expansions::sheep::token_at;
use crate::rules::{FlockAction, Game, Turn};

use super::jcz::JczError;
use super::{setup_of, turn_of, Record};

/// A flock action as a `.jcz` file gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum JczFlock {
    /// A token drawn with this random number.
    Draw(f64),
    /// The flock gathered.
    Gather,
}

/// Replays `record`, turning each laid turn's flock actions (`flocks`, in laying order) into
/// the tokens JCloisterZone drew, written into the record's turns.
pub(super) fn resolve(record: &mut Record, flocks: Vec<Vec<JczFlock>>) -> Result<(), JczError> {
    let bad = |turn: usize, why: String| JczError::Malformed(format!("turn {turn}: {why}"));
    let setup = setup_of(record).map_err(|e| JczError::Malformed(e.to_string()))?;
    let mut game = Game::new(&setup).map_err(|e| JczError::Malformed(e.to_string()))?;
    let mut flocks = flocks.into_iter();
    for (i, entry) in record.turns.iter_mut().enumerate() {
        let turn = turn_of(entry).map_err(|e| bad(i + 1, e))?;
        let illegal = |e: crate::rules::IllegalMove| bad(i + 1, e.to_string());
        let Turn::Place {
            tile,
            placement,
            follower,
            ..
        } = turn
        else {
            game.play(turn).map_err(illegal)?;
            continue;
        };
        game.place(tile, placement).map_err(illegal)?;
        if let Some(d) = follower {
            game.deploy(d.port, d.figure).map_err(illegal)?;
        }
        for action in flocks.next().unwrap_or_default() {
            let action = match action {
                JczFlock::Draw(r) => FlockAction::Draw(
                    token_at(&game.sheep_bag(), r)
                        .ok_or_else(|| bad(i + 1, format!("no token at {r} of the bag")))?,
                ),
                JczFlock::Gather => FlockAction::Gather,
            };
            game.flock(action).map_err(illegal)?;
            entry.flock.push(action);
        }
        game.end_turn().map_err(illegal)?;
    }
    Ok(())
}

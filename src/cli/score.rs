//! `meeplecam score`: every score event and the final table.

use std::path::Path;

use serde_json::json;

use meeplecam::record::Replay;
use meeplecam::rules::ScoreEvent;

use super::input::load;
use super::Failure;

pub fn run(path: &Path, as_json: bool, open: bool) -> Result<(), Failure> {
    let loaded = load(path, open)?;
    let replay = &loaded.replay;
    if as_json {
        println!("{:#}", to_json(replay));
        return Ok(());
    }
    for e in &replay.events {
        println!("{}", describe(replay, e));
    }
    if !loaded.finished {
        println!("(game still open: no end-of-game scoring)");
    }
    println!();
    let width = replay.names.iter().map(String::len).max().unwrap_or(0);
    for (i, name) in replay.names.iter().enumerate() {
        println!("{name:<width$}  {:>4}", replay.game.scores()[i]);
    }
    Ok(())
}

fn names(replay: &Replay, e: &ScoreEvent) -> Vec<String> {
    e.players
        .iter()
        .map(|p| replay.names[p.index()].clone())
        .collect()
}

fn describe(replay: &Replay, e: &ScoreEvent) -> String {
    let when = match e.turn {
        Some(t) => format!("turn {t:>3}"),
        None => "final   ".to_string(),
    };
    format!(
        "{when}  {:<20} +{:<3} {} of {} tile{} ({})",
        names(replay, e).join(", "),
        e.points,
        e.feature,
        e.tiles.len(),
        if e.tiles.len() == 1 { "" } else { "s" },
        e.cause.name()
    )
}

/// The machine-readable report other tools read.
pub fn to_json(replay: &Replay) -> serde_json::Value {
    let players: Vec<_> = replay
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({
                "name": name,
                "colour": replay.colours[i].name(),
                "score": replay.game.scores()[i],
            })
        })
        .collect();
    let events: Vec<_> = replay
        .events
        .iter()
        .map(|e| {
            json!({
                "turn": e.turn,
                "players": names(replay, e),
                "points": e.points,
                "feature": e.feature.name(),
                "tiles": e.tiles.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
                "cause": e.cause.name(),
            })
        })
        .collect();
    json!({ "players": players, "events": events })
}

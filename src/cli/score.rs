//! `meeplecam score`: every score event and the final table.

use std::path::Path;

use serde_json::json;

use meeplecam::record::Replay;
use meeplecam::rules::{Expansion, Good, PlayerId, ScoreEvent, Scored};

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
        let goods = goods_of(replay, i)
            .map(|g| {
                let list: Vec<String> = g.iter().map(|(good, n)| format!("{good} {n}")).collect();
                format!("   goods: {}", list.join(", "))
            })
            .unwrap_or_default();
        println!("{name:<width$}  {:>4}{goods}", replay.game.scores()[i]);
    }
    Ok(())
}

/// The goods tokens seat `i` holds, when Traders & Builders is in play.
fn goods_of(replay: &Replay, i: usize) -> Option<Vec<(Good, u32)>> {
    let game = &replay.game;
    game.expansions()
        .contains(Expansion::TradersAndBuilders)
        .then(|| {
            Good::ALL
                .into_iter()
                .map(|g| (g, game.goods(PlayerId(i as u8), g)))
                .collect()
        })
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
    let what = match e.feature {
        Scored::Feature(kind) => format!(
            "{kind} of {} tile{}",
            e.tiles.len(),
            if e.tiles.len() == 1 { "" } else { "s" }
        ),
        Scored::Goods(good) => format!("most {good}"),
        Scored::Flock => format!("flock on {} tiles", e.tiles.len()),
        Scored::Wheel(sector) => format!("wheel: {sector}"),
        Scored::Crown => "crown space".to_string(),
    };
    format!(
        "{when}  {:<20} +{:<3} {what} ({})",
        names(replay, e).join(", "),
        e.points,
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
            let mut player = json!({
                "name": name,
                "colour": replay.colours[i].name(),
                "score": replay.game.scores()[i],
            });
            if let Some(goods) = goods_of(replay, i) {
                player["goods"] = goods
                    .into_iter()
                    .map(|(g, n)| (g.name().to_string(), json!(n)))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
            }
            player
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

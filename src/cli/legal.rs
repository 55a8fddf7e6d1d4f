//! `meeplecam legal`: where the tile in hand may go, and where a figure may then stand.

use std::path::Path;

use anyhow::anyhow;
use serde_json::json;

use meeplecam::rules::{Figure, FollowerSpot, Placement};

use super::input::load;
use super::Failure;

pub fn run(path: &Path, tile: &str, as_json: bool) -> Result<(), Failure> {
    let loaded = load(path, true)?;
    let game = &loaded.replay.game;
    let player = &loaded.replay.names[game.current_player().index()];
    let cat = game.catalogue();
    let id = cat
        .tile_id(tile)
        .ok_or_else(|| Failure::BadInput(anyhow!("unknown tile {tile:?}")))?;
    game.can_draw(id)
        .map_err(|e| Failure::BadInput(anyhow!("{e}")))?;
    let figures: Vec<&str> = game
        .deployable_figures()
        .into_iter()
        .map(|f| f.name())
        .collect();
    let options: Vec<(Placement, Vec<FollowerSpot>)> = game
        .legal_placements(id)
        .into_iter()
        .map(|p| (p, game.follower_spots_if(id, p)))
        .collect();
    let wheel = game.pig().map(|pig| {
        let crowns: Vec<&str> = game.vacant_crowns().iter().map(|s| s.name()).collect();
        (pig, crowns, game.icons_left(id))
    });
    if as_json {
        let list: Vec<_> = options
            .iter()
            .map(|(p, spots)| {
                json!({
                    "at": [p.pos.x, p.pos.y],
                    "rot": p.rot.degrees(),
                    "followers": spots.iter().map(|s| json!({
                        "feature": s.kind.name(),
                        "port": s.port().name(),
                        "ports": s.ports.to_string(),
                        "figures": s.figures.iter().map(Figure::name).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut report = json!({
            "tile": cat.tile(id).name,
            "player": player,
            "extra_turn": game.is_extra_turn(),
            "figures": figures,
            "placements": list,
        });
        if let Some((pig, crowns, icons)) = &wheel {
            report["wheel"] = json!({
                "pig": pig.name(),
                "vacant_crowns": crowns,
                "icons_left": icons,
            });
        }
        println!("{report:#}");
        return Ok(());
    }
    if let Some((pig, crowns, [one, two, three])) = &wheel {
        println!(
            "wheel: pig on {pig}; vacant crowns: {}; tiles {} left with icon 1/2/3: {one}/{two}/{three}",
            if crowns.is_empty() { "none".to_string() } else { crowns.join(", ") },
            cat.tile(id).name
        );
    }
    if game.is_extra_turn() {
        println!("{player}'s extra turn (builder)");
    }
    if options.is_empty() {
        println!(
            "tile {} fits nowhere: discard it and draw again",
            cat.tile(id).name
        );
    }
    if figures.len() > 1 {
        println!("figures in supply: {}", figures.join(", "));
    }
    for (p, spots) in &options {
        let spots: Vec<String> = spots
            .iter()
            .map(|s| {
                let figures: Vec<&str> = s.figures.iter().map(Figure::name).collect();
                match figures.as_slice() {
                    ["normal"] => format!("{} {}", s.kind, s.port()),
                    _ => format!("{} {} ({})", s.kind, s.port(), figures.join(", ")),
                }
            })
            .collect();
        println!(
            "{:>4} {:>4}  rot {:>3}   followers: {}",
            p.pos.x,
            p.pos.y,
            p.rot.degrees(),
            if spots.is_empty() {
                "none".to_string()
            } else {
                spots.join(", ")
            }
        );
    }
    Ok(())
}

//! `meeplecam train`: what the board reader takes as known ahead of a game, learned from the
//! simulator alone (`models/README.md` has a card for each).

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;

use meeplecam::rules::FollowerOdds;

use super::Failure;

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// How often followers sit on each tile type over every turn of random legal games, two to
    /// five players (`models/follower-odds.json`): a figure hiding a tile's tell makes types that
    /// keep their followers longer likelier.
    FollowerOdds {
        /// How many games to play.
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// The first game's seed.
        #[arg(long, default_value_t = 11)]
        seed: u64,
        /// Tile set.
        #[arg(long, default_value = "base")]
        tileset: String,
        /// Write the table here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

pub fn run(command: TrainCommand) -> Result<(), Failure> {
    match command {
        TrainCommand::FollowerOdds {
            games,
            seed,
            tileset,
            out,
        } => {
            let odds = FollowerOdds::measure(&tileset, 2..=5, games, seed)
                .map_err(|e| Failure::BadInput(e.into()))?;
            let text = serde_json::to_string_pretty(&odds).context("cannot write the table")?;
            match out {
                Some(path) => std::fs::write(&path, text + "\n")
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => println!("{text}"),
            }
            Ok(())
        }
    }
}

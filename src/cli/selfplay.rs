//! `meeplecam selfplay`: a random legal game as a record.

use std::path::Path;

use anyhow::Context;

use meeplecam::record::selfplay::random_record;
use meeplecam::rules::RuleOptions;

use super::Failure;

pub fn run(players: usize, seed: u64, tileset: &str, out: Option<&Path>) -> Result<(), Failure> {
    let record = random_record(tileset, players, RuleOptions::default(), seed)
        .map_err(|e| Failure::BadInput(e.into()))?;
    let text = record.to_json();
    match out {
        Some(path) => std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => println!("{text}"),
    }
    Ok(())
}

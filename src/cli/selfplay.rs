//! `meeplecam selfplay`: a random legal game as a record.

use std::path::Path;

use anyhow::{anyhow, Context};

use meeplecam::record::selfplay::random_record_with;
use meeplecam::rules::{Expansion, Expansions, RuleOptions};

use super::Failure;

pub fn run(
    players: usize,
    seed: u64,
    tileset: &str,
    expansions: &[String],
    out: Option<&Path>,
) -> Result<(), Failure> {
    let expansions: Expansions = expansions
        .iter()
        .map(|name| {
            Expansion::from_name(name)
                .ok_or_else(|| Failure::BadInput(anyhow!("unknown expansion {name:?}")))
        })
        .collect::<Result<_, _>>()?;
    let record = random_record_with(tileset, expansions, players, RuleOptions::default(), seed)
        .map_err(|e| Failure::BadInput(e.into()))?;
    let text = record.to_json();
    match out {
        Some(path) => std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => println!("{text}"),
    }
    Ok(())
}

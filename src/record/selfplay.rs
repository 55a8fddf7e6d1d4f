//! Seeded random games written as records.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{selfplay, Colour, Expansions, Game, RuleOptions, Setup, SetupError, Turn};

use super::{FollowerEntry, PlayerEntry, Record, TurnEntry, FORMAT_VERSION};

/// Plays a random legal game of `players` players from a bag shuffled by `seed`.
pub fn random_record(
    tileset: &str,
    players: usize,
    options: RuleOptions,
    seed: u64,
) -> Result<Record, SetupError> {
    random_record_with(tileset, Expansions::NONE, players, options, seed)
}

/// Plays a random legal game with expansions mixed in.
pub fn random_record_with(
    tileset: &str,
    expansions: Expansions,
    players: usize,
    options: RuleOptions,
    seed: u64,
) -> Result<Record, SetupError> {
    let mut setup = Setup::with_expansions(tileset, expansions, players)?;
    setup.options = options;
    let mut game = Game::new(&setup)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cat = game.catalogue();
    let mut entries = Vec::new();
    loop {
        let extra = game.is_extra_turn().then_some(true);
        let Some((turn, _)) = selfplay::random_turn(&mut game, &mut rng, selfplay::DEPLOY_CHANCE)
        else {
            break;
        };
        entries.push(match turn {
            Turn::Discard { tile } => TurnEntry {
                player: None,
                tile: cat.tile(tile).name.clone(),
                at: None,
                rot: None,
                follower: None,
                extra,
                discard: true,
            },
            Turn::Place {
                tile,
                placement,
                follower,
            } => TurnEntry {
                player: None,
                tile: match game.tile_under(placement.pos) {
                    Some(Some(under)) => {
                        format!("{} over {}", cat.tile(tile).name, cat.tile(under).name)
                    }
                    _ => cat.tile(tile).name.clone(),
                },
                at: Some(placement.pos),
                rot: Some(placement.rot.degrees()),
                follower: follower.map(|d| FollowerEntry {
                    port: d.port.name().to_string(),
                    figure: d.figure,
                }),
                extra,
                discard: false,
            },
        });
    }
    Ok(Record {
        meeplecam: FORMAT_VERSION,
        tileset: tileset.to_string(),
        expansions: expansions.iter().collect(),
        options,
        players: Colour::ALL[..players]
            .iter()
            .map(|&c| PlayerEntry {
                name: capitalised(c.name()),
                colour: c,
            })
            .collect(),
        start: None,
        turns: entries,
    })
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

//! Seeded random games written as records.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::rules::{
    selfplay, Colour, Expansions, Game, RuleOptions, Setup, SetupError, Turn, TurnReport,
};

use super::{
    CrownEntry, FollowerEntry, PlayerEntry, Record, RemovalEntry, TurnEntry, WheelEntry,
    FORMAT_VERSION,
};

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
        let Some((turn, report)) =
            selfplay::random_turn(&mut game, &mut rng, selfplay::DEPLOY_CHANCE)
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
                flock: Vec::new(),
                extra,
                discard: true,
                wheel: wheel_entry(&report),
            },
            Turn::Place {
                tile,
                placement,
                follower,
                flock,
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
                flock: flock.iter().collect(),
                extra,
                discard: false,
                wheel: wheel_entry(&report),
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

/// The Wheel of Fortune inputs a turn's report shows: the icon, Pestilence choices, a crown.
fn wheel_entry(report: &TurnReport) -> Option<WheelEntry> {
    if report.spin.is_none() && report.crown.is_none() {
        return None;
    }
    Some(WheelEntry {
        icon: report.spin.as_ref().map(|s| s.icon),
        pestilence: report.spin.as_ref().map_or(Vec::new(), |s| {
            s.pestilence
                .iter()
                .map(|c| {
                    c.map(|(at, port)| RemovalEntry {
                        player: None,
                        at,
                        port: port.name().to_string(),
                    })
                })
                .collect()
        }),
        crown: report
            .crown
            .map(|(sector, figure)| CrownEntry { sector, figure }),
    })
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

//! How often followers sit on each tile type in random legal play ([`super::selfplay`]): a
//! prior for reading a board, where a figure stands on a tile whose tell it hides. A monk stays
//! on its cloister until the eight tiles around it are laid, a farmer in its field to the end,
//! while a thief leaves a short road soon: at a glance, a figure on a tile makes a cloister
//! likelier than a straight road, more than the count of features to stand on says.
//!
//! ```
//! use meeplecam::rules::{catalogue, FollowerOdds};
//!
//! let odds = FollowerOdds::measure("base", 2..=5, 200, 1).unwrap();
//! let tile = |name| catalogue().tile_id(name).unwrap();
//! // A cloister in a field (B) carries a monk more often than a straight road (U) a thief.
//! assert!(odds.elsewhere(tile("B")) > odds.elsewhere(tile("U")));
//! // No farmer lies on the tile all city (C): it has no field.
//! assert_eq!(odds.on_field(tile("C")), Some(0.0));
//! ```

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::catalogue::catalogue;
use super::game::{Game, Setup, SetupError};
use super::selfplay::{random_turn, DEPLOY_CHANCE};
use super::tile::{FeatureKind, TileId};

/// For each tile type, the share of its tiles on the board, over every turn of random games,
/// that carry a follower on one of their fields, and on one of their other features; with how
/// it was measured ([`FollowerOdds::measure`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FollowerOdds {
    /// The tile set played.
    pub tileset: String,
    /// How many games were played.
    pub games: u64,
    /// The fewest and the most players of a game.
    pub players: [usize; 2],
    /// The first game's seed (the next games' follow it).
    pub seed: u64,
    /// Tile-turns counted for each tile type laid, by its name.
    tiles: BTreeMap<String, Counts>,
}

/// Tile-turns of one tile type: on the board, with a follower on a field, with a follower on
/// another feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Counts {
    laid: u64,
    on_field: u64,
    elsewhere: u64,
}

impl FollowerOdds {
    /// Plays `games` random games of `tileset` (their players spread evenly over `players`,
    /// bags shuffled from `seed`) and counts, after every turn, the followers on each tile laid.
    pub fn measure(
        tileset: &str,
        players: RangeInclusive<usize>,
        games: u64,
        seed: u64,
    ) -> Result<FollowerOdds, SetupError> {
        let cat = catalogue();
        let mut counts = vec![Counts::default(); cat.tiles().len()];
        let bounds = [*players.start(), *players.end()];
        for (k, n) in (0..games).zip(players.clone().cycle()) {
            let mut game = Game::new(&Setup::new(tileset, n)?)?;
            let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(k));
            while random_turn(&mut game, &mut rng, DEPLOY_CHANCE).is_some() {
                count_board(&game, &mut counts);
            }
        }
        let tiles = counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| c.laid > 0)
            .map(|(i, c)| (cat.tile(TileId(i as u16)).name.clone(), c))
            .collect();
        Ok(FollowerOdds {
            tileset: tileset.to_string(),
            games,
            players: bounds,
            seed,
            tiles,
        })
    }

    fn counts(&self, tile: TileId) -> Option<&Counts> {
        self.tiles.get(&catalogue().tile(tile).name)
    }

    /// The share of tiles of type `tile` on the board with a follower in one of their fields;
    /// `None` for a type the games never laid.
    pub fn on_field(&self, tile: TileId) -> Option<f64> {
        self.counts(tile).and_then(|c| c.share(c.on_field))
    }

    /// The share of tiles of type `tile` on the board with a follower on a road, city or
    /// cloister of theirs; `None` for a type the games never laid.
    pub fn elsewhere(&self, tile: TileId) -> Option<f64> {
        self.counts(tile).and_then(|c| c.share(c.elsewhere))
    }

    /// [`Self::on_field`] and [`Self::elsewhere`] over all tiles laid, whatever their type.
    pub fn of_all(&self) -> (f64, f64) {
        let all = self.tiles.values().fold(Counts::default(), |a, c| Counts {
            laid: a.laid + c.laid,
            on_field: a.on_field + c.on_field,
            elsewhere: a.elsewhere + c.elsewhere,
        });
        (
            all.share(all.on_field).unwrap_or(0.0),
            all.share(all.elsewhere).unwrap_or(0.0),
        )
    }
}

impl Counts {
    /// `n` as a share of the tiles laid, if any were.
    fn share(&self, n: u64) -> Option<f64> {
        (self.laid > 0).then(|| n as f64 / self.laid as f64)
    }
}

/// Adds the board of `game` as it lies now to `counts`.
fn count_board(game: &Game, counts: &mut [Counts]) {
    let meeples = game.meeples();
    for placed in game.board().tiles() {
        let Some(c) = counts.get_mut(placed.tile.index()) else {
            continue;
        };
        c.laid += 1;
        let on = |field: bool| {
            meeples
                .iter()
                .any(|m| m.pos == placed.placement.pos && (m.kind == FeatureKind::Field) == field)
        };
        c.on_field += u64::from(on(true));
        c.elsewhere += u64::from(on(false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::catalogue;

    fn tile(name: &str) -> TileId {
        catalogue().tile_id(name).unwrap()
    }

    #[test]
    fn a_tile_carries_followers_only_on_the_features_it_has() {
        let odds = FollowerOdds::measure("base", 2..=5, 20, 7).unwrap();
        // C is city all over, no field; B a cloister in a field.
        assert_eq!(odds.on_field(tile("C")), Some(0.0));
        assert!(odds.elsewhere(tile("C")) > Some(0.0));
        assert!(odds.on_field(tile("B")) > Some(0.0));
        let (on_field, elsewhere) = odds.of_all();
        assert!(on_field > 0.0 && elsewhere > 0.0 && on_field + elsewhere < 1.0);
        // Only the base set's types are laid.
        let river = catalogue().tile_id("RV1").expect("a river tile");
        assert_eq!(odds.on_field(river), None);
    }

    #[test]
    fn a_monk_outstays_a_thief() {
        // A follower set on a tile goes on one of its free features, each as likely: B's
        // cloister is one of its two, U's road one of its three. A monk then stays until all
        // eight tiles around its cloister lie, a thief only until both ends of its road are
        // closed, which on a straight road comes soon.
        let odds = FollowerOdds::measure("base", 2..=5, 200, 3).unwrap();
        let (b, u) = (odds.elsewhere(tile("B")), odds.elsewhere(tile("U")));
        assert!(b > u.map(|u| 1.5 * u), "B {b:?}, U {u:?}");
    }

    #[test]
    fn an_unknown_tile_set_is_an_error() {
        assert!(FollowerOdds::measure("no such set", 2..=2, 1, 1).is_err());
    }
}

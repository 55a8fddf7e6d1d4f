//! Expansions: which are in play, the box their tiles make with a base box, and their rules as
//! hooks into the same turn structure (`river` for placement and draw order, `inns` for scoring
//! and the large follower, `traders` for goods, the builder's double turn and the pig, `hills`
//! for hill tie-breaks, the tile under a hill and vineyards, `sheep` for the shepherd and the
//! sheep/wolf bag), `river_iii` for the sheep and vineyards printed on the Big Box's river
//! tiles, `wheel` for the Wheel of Fortune's board, wheel, icons and crowns).

pub mod hills;
pub mod inns;
pub mod river;
pub mod river_iii;
pub mod sheep;
pub mod traders;
pub mod wheel;

use std::fmt;

use serde::{Deserialize, Serialize};

use super::catalogue::{Catalogue, ExpansionSet, TileSet};
use super::tile::TileId;

/// An expansion the engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expansion {
    /// The River (I): twelve river tiles laid first, from the spring to the lake.
    River,
    /// The River II: twelve river tiles with a fork, laid first.
    RiverIi,
    /// Inns & Cathedrals: eighteen tiles, inns, cathedrals and the large follower.
    InnsAndCathedrals,
    /// Traders & Builders: twenty-four tiles, goods, the builder and the pig.
    TradersAndBuilders,
    /// Hills & Sheep: eighteen tiles, hills (tie-breaks), vineyards (cloister bonus) and the
    /// shepherd with the sheep/wolf bag.
    HillsAndSheep,
    /// The Wheel of Fortune: a 4×4 board laid as the start, twelve tiles, the pig turned by the
    /// wheel icons on tiles, six actions and crown spaces.
    WheelOfFortune,
}

impl Expansion {
    /// All known expansions.
    pub const ALL: [Expansion; 6] = [
        Expansion::River,
        Expansion::RiverIi,
        Expansion::InnsAndCathedrals,
        Expansion::TradersAndBuilders,
        Expansion::HillsAndSheep,
        Expansion::WheelOfFortune,
    ];

    /// The name used in records and in the catalogue data.
    pub fn name(self) -> &'static str {
        match self {
            Expansion::River => "river",
            Expansion::RiverIi => "river_ii",
            Expansion::InnsAndCathedrals => "inns_and_cathedrals",
            Expansion::TradersAndBuilders => "traders_and_builders",
            Expansion::HillsAndSheep => "hills_and_sheep",
            Expansion::WheelOfFortune => "wheel_of_fortune",
        }
    }

    /// The expansion with the given name.
    pub fn from_name(name: &str) -> Option<Expansion> {
        Expansion::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl fmt::Display for Expansion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of expansions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansions(u8);

impl Expansions {
    /// No expansion: the base game.
    pub const NONE: Expansions = Expansions(0);

    /// The set with `e` added.
    pub const fn with(self, e: Expansion) -> Expansions {
        Expansions(self.0 | 1 << e as u8)
    }

    /// Whether `e` is in the set.
    pub const fn contains(self, e: Expansion) -> bool {
        self.0 & 1 << e as u8 != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The expansions in the set, in [`Expansion::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Expansion> {
        Expansion::ALL
            .into_iter()
            .filter(move |&e| self.contains(e))
    }
}

impl FromIterator<Expansion> for Expansions {
    fn from_iter<I: IntoIterator<Item = Expansion>>(iter: I) -> Expansions {
        iter.into_iter().fold(Expansions::NONE, Expansions::with)
    }
}

/// The data of each expansion in play.
pub(crate) fn sets(cat: &Catalogue, expansions: Expansions) -> Vec<&ExpansionSet> {
    expansions
        .iter()
        .map(|e| {
            cat.expansion(e.name())
                .expect("every expansion has its tiles in the catalogue data")
        })
        .collect()
}

/// The box a base box makes with the expansions' tiles: an expansion's start tile (the spring)
/// replaces the base start tile, which is then not used (seed 000: "the Start tile of the base
/// game is not needed"), and is laid once however many expansions bring one; tiles an expansion
/// replaces stay in the box. The Wheel of Fortune's board is the start whatever else is in play;
/// a spring then joins the tiles to draw (it is laid first, beside the board: seed 000).
pub fn compose(cat: &Catalogue, base: &TileSet, expansions: Expansions) -> TileSet {
    let sets = sets(cat, expansions);
    let replaced: Vec<TileId> = sets.iter().flat_map(|s| s.replaces.clone()).collect();
    let mut starts: Vec<TileId> = sets.iter().filter_map(|s| s.start).collect();
    if wheel::in_play(expansions) {
        starts.rotate_right(1);
    }
    starts.dedup();
    let start = starts.first().copied();
    let mut counts = base.counts.clone();
    let mut add = |id: TileId, n: i32| match counts.iter_mut().find(|(t, _)| *t == id) {
        Some((_, c)) => *c = (i32::from(*c) + n).clamp(0, 255) as u8,
        None => counts.push((id, n.clamp(0, 255) as u8)),
    };
    if let Some(spring) = start {
        add(base.start, -1);
        add(spring, 1);
    }
    for &drawn in starts.iter().skip(1) {
        add(drawn, 1);
    }
    for set in &sets {
        for &(id, n) in &set.counts {
            if !replaced.contains(&id) && Some(id) != set.start {
                add(id, i32::from(n));
            }
        }
    }
    counts.retain(|&(_, n)| n > 0);
    TileSet {
        name: base.name.clone(),
        start: start.unwrap_or(base.start),
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::catalogue;

    #[test]
    fn names_round_trip() {
        for e in Expansion::ALL {
            assert_eq!(Expansion::from_name(e.name()), Some(e));
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.name()));
        }
        assert_eq!(Expansion::from_name("dragons"), None);
    }

    #[test]
    fn boxes_have_the_rulebook_counts() {
        let cat = catalogue();
        let base = cat.set("base").unwrap();
        let bigbox = cat.set("bigbox").unwrap();
        let only = |e| Expansions::NONE.with(e);
        let total = |set: &TileSet| set.total();
        // Seed 000's tile list: River 12 tiles, Inns & Cathedrals 18; the River replaces the
        // Big Box's separate start tile.
        let river = compose(cat, bigbox, only(Expansion::River));
        assert_eq!(total(&river), 72 + 12);
        assert_eq!(cat.tile(river.start).name, "RV0");
        let inns = compose(cat, bigbox, only(Expansion::InnsAndCathedrals));
        assert_eq!(total(&inns), 73 + 18);
        assert_eq!(cat.tile(inns.start).name, "D");
        // Traders & Builders: 24 tiles (seed 000's tile list, seed 004's distribution).
        let traders = compose(cat, bigbox, only(Expansion::TradersAndBuilders));
        assert_eq!(total(&traders), 73 + 24);
        // Hills & Sheep: 18 new land tiles (seed 000).
        let hills = compose(cat, bigbox, only(Expansion::HillsAndSheep));
        assert_eq!(total(&hills), 73 + 18);
        // The Wheel of Fortune: all tiles but the start tile, the 12 Wheel tiles and the board's
        // 16 cells as the start (seed 000, lines 989-992); with the River the spring is drawn.
        let wheel = compose(cat, bigbox, only(Expansion::WheelOfFortune));
        assert_eq!(total(&wheel), 72 + 12 + 16);
        assert_eq!(cat.tile(wheel.start).name, "WB0");
        let with_river = [Expansion::River, Expansion::WheelOfFortune];
        let river_wheel = compose(cat, bigbox, with_river.into_iter().collect());
        assert_eq!(total(&river_wheel), 72 + 12 + 12 + 16);
        assert_eq!(cat.tile(river_wheel.start).name, "WB0");
        // Seed 004: River II has 12 tiles; both rivers together keep one spring and one lake of
        // River I's two ends (footnote 10).
        let ii = compose(cat, base, only(Expansion::RiverIi));
        assert_eq!(total(&ii), 71 + 12);
        let both = compose(
            cat,
            base,
            [Expansion::River, Expansion::RiverIi].into_iter().collect(),
        );
        assert_eq!(total(&both), 71 + 12 + 12 - 2);
        let count = |set: &TileSet, name: &str| {
            let id = cat.tile_id(name).unwrap();
            set.counts
                .iter()
                .find(|(t, _)| *t == id)
                .map_or(0, |&(_, n)| n)
        };
        assert_eq!(count(&both, "RV0"), 1);
        assert_eq!(count(&both, "RV1"), 0);
        assert_eq!(count(&both, "D"), 3);
    }
}

//! Rule options: edition differences and house rules that players choose before the game.

use serde::{Deserialize, Serialize};

/// Choices that change the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleOptions {
    /// Followers may be laid in fields as farmers (the current rules; off for a farmer-free game).
    pub farmers: bool,
    /// Old-edition rule: a completed city of only two tiles scores 1 point per tile and pennant
    /// instead of 2.
    pub tiny_city: bool,
    /// How farms are scored at the end.
    pub farm_scoring: FarmScoring,
    /// Followers each player has in supply.
    pub followers: u8,
    /// Inns & Cathedrals: whether printed inns change a road's score (JCloisterZone can leave
    /// them out while using the tiles).
    pub inns: bool,
    /// Inns & Cathedrals: whether printed cathedrals change a city's score.
    pub cathedrals: bool,
    /// Inns & Cathedrals: what an incomplete road with an inn or city with a cathedral scores at
    /// the end of the game.
    pub final_inns_cathedrals: FinalInnsCathedrals,
    /// Builders each player has; by default one with Traders & Builders, none without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builders: Option<u8>,
    /// Pigs each player has; by default one with Traders & Builders, none without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pigs: Option<u8>,
    /// Hills & Sheep: whether followers on hill tiles break ties (JCloisterZone can leave hills
    /// out while using the tiles).
    pub hills: bool,
    /// Hills & Sheep: how hills break a tie.
    pub hill_tiebreak: HillTiebreak,
    /// Hills & Sheep: whether vineyards add to completed cloisters.
    pub vineyards: bool,
    /// Shepherds each player has; by default one with Hills & Sheep, none without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shepherds: Option<u8>,
    /// Hills & Sheep: what becomes of a flock whose field is closed on every side.
    pub closed_flocks: ClosedFlocks,
    /// The River: the tiles are the Big Box's River III print, whose printed sheep and vineyards
    /// count with Hills & Sheep (`data/river_iii.data`); by default River I's, which has none.
    pub river_iii: bool,
    /// The Wheel of Fortune: the rule before Big Box 5, where Famine scores only the players
    /// with the most farmers in a farm, 1 per completed city (seed 004, footnote 8); by default
    /// every farmer scores (seed 000).
    pub famine_majority: bool,
    /// The Wheel of Fortune: whether a board cell counts as one of the tiles of a road or city
    /// that reaches it ("the road ends at the rim of the wheel", seed 004 footnote 11, read as
    /// the wheel's circle); `false` reads the rim as the board's edge: the board adds no tile.
    pub wheel_board_cells: bool,
}

/// What becomes of a flock whose field is closed on every side (Hills & Sheep).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClosedFlocks {
    /// The Big Box: nothing; no tile can extend the field again, so the flock stays until the
    /// end and scores nothing.
    #[default]
    Stay,
    /// JCloisterZone's variant: the flock is gathered at once (after a draw due on it).
    Gather,
}

/// How followers on hills break a tie for a majority (Hills & Sheep).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HillTiebreak {
    /// The Big Box: of the tied players, those with a follower on a hill tile win.
    #[default]
    AnyOnHill,
    /// JCloisterZone's variant: of the tied players, those with the most followers on hill
    /// tiles win.
    MostOnHills,
}

/// End-of-game scoring of an incomplete road with an inn or city with a cathedral.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalInnsCathedrals {
    /// The rulebooks: nothing.
    #[default]
    Zero,
    /// JCloisterZone's variant: as if the inn or cathedral were not there.
    Ignore,
}

/// The farm-scoring rule: the notorious difference between the first edition and later ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FarmScoring {
    /// Current rules: each farm scores 3 points per completed city it touches for the players
    /// with the most farmers in it; a city can be scored by several farms.
    #[default]
    PerFarm,
    /// First edition: each completed city is scored once, 4 points for the players with the
    /// most farmers on all the farms that touch it.
    PerCity,
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            farmers: true,
            tiny_city: false,
            farm_scoring: FarmScoring::PerFarm,
            followers: 7,
            inns: true,
            cathedrals: true,
            final_inns_cathedrals: FinalInnsCathedrals::Zero,
            builders: None,
            pigs: None,
            hills: true,
            hill_tiebreak: HillTiebreak::AnyOnHill,
            vineyards: true,
            shepherds: None,
            closed_flocks: ClosedFlocks::Stay,
            river_iii: false,
            famine_majority: false,
            wheel_board_cells: true,
        }
    }
}

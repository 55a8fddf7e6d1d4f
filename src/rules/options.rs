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
    /// Followers each player has in supply.
    pub followers: u8,
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions {
            farmers: true,
            tiny_city: false,
            followers: 7,
        }
    }
}

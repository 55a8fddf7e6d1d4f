//! The figures a player deploys: the normal follower and the large one of Inns & Cathedrals.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A kind of follower.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Figure {
    /// The ordinary follower.
    #[default]
    Normal,
    /// The large follower (Inns & Cathedrals): one figure that counts as two in a majority.
    Large,
}

impl Figure {
    /// All figures, in supply order.
    pub const ALL: [Figure; 2] = [Figure::Normal, Figure::Large];

    /// Index into per-figure tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many followers it counts as when a majority is decided.
    pub const fn strength(self) -> u32 {
        match self {
            Figure::Normal => 1,
            Figure::Large => 2,
        }
    }

    /// The lower-case name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Figure::Normal => "normal",
            Figure::Large => "large",
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

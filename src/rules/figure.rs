//! The figures a player deploys: followers (the normal one and the large one of Inns &
//! Cathedrals) and the special figures of Traders & Builders (the builder and the pig) and Hills &
//! Sheep (the shepherd), which are no followers: they never count in a majority; builders and
//! pigs only join a feature that holds one of their owner's followers.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A kind of figure.
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
    /// The builder (Traders & Builders): on a road or city of its owner's, it earns a double
    /// turn when its owner extends that feature.
    Builder,
    /// The pig (Traders & Builders): on a farm of its owner's, +1 point per city when the owner
    /// scores that farm.
    Pig,
    /// The shepherd (Hills & Sheep): on a field, it tends a flock of sheep tokens.
    Shepherd,
}

impl Figure {
    /// All figures, in supply order.
    pub const ALL: [Figure; 5] = [
        Figure::Normal,
        Figure::Large,
        Figure::Builder,
        Figure::Pig,
        Figure::Shepherd,
    ];

    /// Index into per-figure tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether it is a follower (a thief, knight, monk or farmer), as opposed to a special figure.
    pub const fn is_follower(self) -> bool {
        matches!(self, Figure::Normal | Figure::Large)
    }

    /// How many followers it counts as when a majority is decided.
    pub const fn strength(self) -> u32 {
        match self {
            Figure::Normal => 1,
            Figure::Large => 2,
            Figure::Builder | Figure::Pig | Figure::Shepherd => 0,
        }
    }

    /// What players call it: "normal follower", "large follower", "builder", "pig", "shepherd".
    pub fn noun(self) -> &'static str {
        match self {
            Figure::Normal => "normal follower",
            Figure::Large => "large follower",
            Figure::Builder => "builder",
            Figure::Pig => "pig",
            Figure::Shepherd => "shepherd",
        }
    }

    /// The lower-case name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Figure::Normal => "normal",
            Figure::Large => "large",
            Figure::Builder => "builder",
            Figure::Pig => "pig",
            Figure::Shepherd => "shepherd",
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of figures (those that may stand on a spot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Figures(u8);

impl Figures {
    /// No figure.
    pub const EMPTY: Figures = Figures(0);

    /// The set with `f` added.
    pub const fn with(self, f: Figure) -> Figures {
        Figures(self.0 | 1 << f as u8)
    }

    /// Whether `f` is in the set.
    pub const fn contains(self, f: Figure) -> bool {
        self.0 & 1 << f as u8 != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The figures in the set, in [`Figure::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Figure> {
        Figure::ALL.into_iter().filter(move |&f| self.contains(f))
    }
}

impl FromIterator<Figure> for Figures {
    fn from_iter<I: IntoIterator<Item = Figure>>(iter: I) -> Figures {
        iter.into_iter().fold(Figures::EMPTY, Figures::with)
    }
}

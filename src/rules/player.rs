//! Players and their colours.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A player's seat, in turn order from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// The seat as an index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The colour of a player's figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Black.
    Black,
    /// Red.
    Red,
    /// Green.
    Green,
    /// Blue.
    Blue,
    /// Yellow.
    Yellow,
    /// Gray.
    Gray,
    /// Pink.
    Pink,
    /// Purple.
    Purple,
}

impl Colour {
    /// All colours, in the order seats get them by default.
    pub const ALL: [Colour; 8] = [
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Yellow,
        Colour::Black,
        Colour::Gray,
        Colour::Pink,
        Colour::Purple,
    ];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Gray => "gray",
            Colour::Pink => "pink",
            Colour::Purple => "purple",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = String;

    fn from_str(s: &str) -> Result<Colour, String> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown colour {s:?}"))
    }
}

//! The Wheel of Fortune: the wheel's sectors and crown spaces, the board laid as the start, the
//! wheel icons printed on tiles (all read from `data/wheel.data`, which a player with the box can
//! correct), the points of its actions and the spring's placement beside the board.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::super::board::{Board, Placement, PlacementError, Pos};
use super::super::catalogue::{catalogue, Catalogue};
use super::super::port::Rotation;
use super::super::tile::TileId;
use super::{Expansion, Expansions};

/// A sector of the wheel, named after its action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sector {
    /// The active player scores 3.
    Fortune,
    /// Every knight scores 1 per pennant and 1 per knight of its owner's in its city.
    Taxes,
    /// Every farmer scores 1 per completed city in its farm (no majority needed, Big Box).
    Famine,
    /// Every player scores 1 per follower in supply.
    Storm,
    /// Every monk scores 2.
    Inquisition,
    /// Every player returns one follower from a land tile, the active player first.
    Pestilence,
}

impl Sector {
    /// All sectors, in the rulebooks' order.
    pub const ALL: [Sector; 6] = [
        Sector::Fortune,
        Sector::Taxes,
        Sector::Famine,
        Sector::Storm,
        Sector::Inquisition,
        Sector::Pestilence,
    ];

    /// The lower-case name used in records, reports and the data.
    pub fn name(self) -> &'static str {
        match self {
            Sector::Fortune => "fortune",
            Sector::Taxes => "taxes",
            Sector::Famine => "famine",
            Sector::Storm => "storm",
            Sector::Inquisition => "inquisition",
            Sector::Pestilence => "pestilence",
        }
    }

    /// The sector with the given name.
    pub fn from_name(name: &str) -> Option<Sector> {
        Sector::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Fortune: the active player's points (000:1012-1014).
pub const FORTUNE_POINTS: u32 = 3;
/// Inquisition: points per monk (000:1032-1034).
pub const INQUISITION_POINTS: u32 = 2;

/// Taxes for one player's `knights` in a city with `pennants`: each knight scores 1 per pennant
/// plus 1 per knight of its owner's there (000:1016-1020).
pub const fn taxes(knights: u32, pennants: u32) -> u32 {
    knights * (knights + pennants)
}

/// What one follower on a crown scores when the pig stops on its sector of `spaces` crown spaces
/// holding `followers`: 3 alone on one space, 6 alone on two, 3 each when two share (000:1047-1052).
pub const fn crown_points(spaces: u8, followers: usize) -> u32 {
    if spaces == 2 && followers == 1 {
        6
    } else {
        3
    }
}

/// The wheel, the board and the icons, as the data file gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WheelData {
    /// The sectors clockwise from the pig's start, each with its number of crown spaces.
    pub sectors: Vec<(Sector, u8)>,
    /// The board's cells, row by row from the north-west.
    pub board: [TileId; 16],
    /// Copies of a tile type that carry a wheel icon of value 1, 2 and 3.
    pub icons: Vec<(TileId, [u8; 3])>,
}

/// An error in the wheel data, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("wheel data line {line}: {message}")]
pub struct WheelDataError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The built-in wheel data (`data/wheel.data`).
pub fn wheel_data() -> &'static WheelData {
    static DATA: OnceLock<WheelData> = OnceLock::new();
    DATA.get_or_init(|| {
        WheelData::parse(catalogue(), include_str!("../data/wheel.data"))
            .expect("built-in wheel data is checked by the test suite")
    })
}

impl WheelData {
    /// Parses wheel data (see `data/wheel.data` for the format) against the catalogue's tiles.
    pub fn parse(cat: &Catalogue, text: &str) -> Result<WheelData, WheelDataError> {
        let mut sectors: Vec<(Sector, u8)> = Vec::new();
        let mut board = None;
        let mut icons: Vec<(TileId, [u8; 3])> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let err = |message: String| WheelDataError {
                line: n + 1,
                message,
            };
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let tile = |name: &str| cat.tile_id(name).ok_or(format!("unknown tile {name}"));
            match words.as_slice() {
                [] => {}
                ["sector", name, crowns] => {
                    let sector = Sector::from_name(name)
                        .ok_or_else(|| err(format!("unknown sector {name}")))?;
                    let crowns = match *crowns {
                        "1" => 1,
                        "2" => 2,
                        _ => return Err(err(format!("a sector has 1 or 2 crowns, not {crowns}"))),
                    };
                    if sectors.iter().any(|&(s, _)| s == sector) {
                        return Err(err(format!("sector {name} listed twice")));
                    }
                    sectors.push((sector, crowns));
                }
                ["board", cells @ ..] => {
                    let ids: Vec<TileId> = cells
                        .iter()
                        .map(|c| tile(c))
                        .collect::<Result<_, _>>()
                        .map_err(err)?;
                    let cells: [TileId; 16] = ids
                        .try_into()
                        .map_err(|_| err("the board has 16 cells".into()))?;
                    if board.replace(cells).is_some() {
                        return Err(err("two board lines".into()));
                    }
                }
                ["icon", name, values @ ..] => {
                    let id = tile(name).map_err(err)?;
                    let mut counts = [0u8; 3];
                    for v in values {
                        let (value, count) = v
                            .split_once('=')
                            .and_then(|(v, c)| Some((v.parse::<usize>().ok()?, c.parse().ok()?)))
                            .filter(|&(v, _)| (1..=3).contains(&v))
                            .ok_or_else(|| err(format!("expected VALUE=COUNT, VALUE 1-3: {v}")))?;
                        counts[value - 1] = count;
                    }
                    if icons.iter().any(|&(t, _)| t == id) {
                        return Err(err(format!("tile {name} listed twice")));
                    }
                    icons.push((id, counts));
                }
                _ => return Err(err(format!("expected sector, board or icon: {raw:?}"))),
            }
        }
        let whole = |message: &str| WheelDataError {
            line: 0,
            message: message.into(),
        };
        if sectors.len() != 6 {
            return Err(whole("the wheel has six sectors"));
        }
        let board = board.ok_or_else(|| whole("no board line"))?;
        Ok(WheelData {
            sectors,
            board,
            icons,
        })
    }

    /// Crown spaces of `sector`.
    pub fn crowns(&self, sector: Sector) -> u8 {
        self.sectors
            .iter()
            .find(|&&(s, _)| s == sector)
            .map_or(0, |&(_, n)| n)
    }

    /// Copies of `tile` with each icon value.
    pub fn icons(&self, tile: TileId) -> [u8; 3] {
        self.icons
            .iter()
            .find(|&&(t, _)| t == tile)
            .map_or([0; 3], |&(_, n)| n)
    }

    /// The board's cells and where they lie when its north-west cell (before turning) is laid at
    /// `anchor`: the board turns as a whole about its centre.
    pub fn cells(&self, anchor: Placement) -> Vec<(TileId, Placement)> {
        self.board
            .iter()
            .enumerate()
            .map(|(i, &tile)| {
                let (x, y) = ((i % 4) as i32, (i / 4) as i32);
                let (dx, dy) = match anchor.rot {
                    Rotation::R0 => (x, y),
                    Rotation::R90 => (3 - y, x),
                    Rotation::R180 => (3 - x, 3 - y),
                    Rotation::R270 => (y, 3 - x),
                };
                let pos = Pos::new(anchor.pos.x.wrapping_add(dx), anchor.pos.y.wrapping_add(dy));
                (
                    tile,
                    Placement {
                        pos,
                        rot: anchor.rot,
                    },
                )
            })
            .collect()
    }
}

/// Whether the Wheel of Fortune is in play.
pub(crate) fn in_play(expansions: Expansions) -> bool {
    expansions.contains(Expansion::WheelOfFortune)
}

/// With the Wheel, the spring is the first tile drawn and goes beside the board so that the river
/// flows away from it (000:1104-1111): no tile may lie beyond its river's edge.
pub(crate) fn spring_flows_away(
    cat: &Catalogue,
    board: &Board,
    tile: TileId,
    p: Placement,
) -> Result<(), PlacementError> {
    if cat
        .tile(tile)
        .river_sides(p.rot)
        .any(|d| board.is_occupied(p.pos.step(d)))
    {
        return Err(PlacementError::RiverTowardsWheel);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_data_reads() {
        let data = wheel_data();
        let order: Vec<Sector> = data.sectors.iter().map(|&(s, _)| s).collect();
        assert_eq!(order, Sector::ALL.to_vec());
        // Nine crown spaces in all (Wikipedia), one or two per sector (000:1047-1051).
        assert_eq!(
            data.sectors.iter().map(|&(_, n)| u32::from(n)).sum::<u32>(),
            9
        );
        // Sixteen base tiles carry icons (000:1252-1254), three Wheel tiles (004:2869-2873).
        let cat = catalogue();
        let count = |wheel: bool| -> u32 {
            data.icons
                .iter()
                .filter(|(t, _)| cat.tile(*t).name.starts_with("WF") == wheel)
                .map(|(_, n)| n.iter().map(|&c| u32::from(c)).sum::<u32>())
                .sum()
        };
        assert_eq!((count(false), count(true)), (16, 3));
    }

    #[test]
    fn bad_data_is_refused_with_its_line() {
        let cat = catalogue();
        for (text, line) in [
            ("sector fortune 3", 1),
            ("sector luck 1", 1),
            ("\nboard WB0", 2),
            ("icon U 4=1", 1),
            ("icon Z 1=1", 1),
            ("wheel", 1),
            ("sector fortune 1", 0),
        ] {
            assert_eq!(
                WheelData::parse(cat, text).unwrap_err().line,
                line,
                "{text}"
            );
        }
    }

    #[test]
    fn the_board_turns_about_its_centre() {
        let data = wheel_data();
        let at = |rot| Placement {
            pos: Pos::new(10, 20),
            rot,
        };
        let nw = |rot| data.cells(at(rot))[0].1.pos;
        assert_eq!(nw(Rotation::R0), Pos::new(10, 20));
        assert_eq!(nw(Rotation::R90), Pos::new(13, 20));
        assert_eq!(nw(Rotation::R180), Pos::new(13, 23));
        assert_eq!(nw(Rotation::R270), Pos::new(10, 23));
        for rot in Rotation::ALL {
            let mut cells: Vec<Pos> = data.cells(at(rot)).iter().map(|c| c.1.pos).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), 16);
            assert!(cells
                .iter()
                .all(|p| (10..14).contains(&p.x) && (20..24).contains(&p.y)));
        }
    }

    #[test]
    fn crowns_and_taxes_score_as_the_rulebook_says() {
        // 000:1047-1052: 3 alone on one space, 6 alone on two, 3 each when two share.
        assert_eq!(
            [crown_points(1, 1), crown_points(2, 1), crown_points(2, 2)],
            [3, 6, 3]
        );
        // 000:1062-1075: two knights and two pennants: 4 each, 8; one knight: 1 + 2 = 3.
        assert_eq!((taxes(2, 2), taxes(1, 2)), (8, 3));
    }
}

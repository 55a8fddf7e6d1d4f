//! The grid of placed tiles and where the next tile may go.

use std::fmt;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::port::{Dir, Rotation};
use super::tile::{EdgeKind, TileId};

/// A cell of the board; x grows east, y grows south, the start tile is at (0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Pos {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Pos {
    /// The cell at `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring cell in direction `dir`.
    pub const fn step(self, dir: Dir) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x.wrapping_add(dx), self.y.wrapping_add(dy))
    }

    /// The eight cells around this one.
    pub fn ring(self) -> impl Iterator<Item = Pos> {
        (-1..=1)
            .flat_map(move |dy| {
                (-1..=1).map(move |dx| Pos::new(self.x.wrapping_add(dx), self.y.wrapping_add(dy)))
            })
            .filter(move |&p| p != self)
    }
}

impl From<[i32; 2]> for Pos {
    fn from([x, y]: [i32; 2]) -> Pos {
        Pos::new(x, y)
    }
}

impl From<Pos> for [i32; 2] {
    fn from(p: Pos) -> [i32; 2] {
        [p.x, p.y]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Where and how a tile is laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The cell.
    pub pos: Pos,
    /// The clockwise rotation from the catalogue orientation.
    pub rot: Rotation,
}

/// A tile lying on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// Its type.
    pub tile: TileId,
    /// Where and how it lies.
    pub placement: Placement,
    /// Index of its first feature in the game's feature graph.
    pub(crate) first_node: u32,
}

/// Why a tile cannot go where asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// The cell already holds a tile.
    #[error("cell {0} is already occupied")]
    Occupied(Pos),
    /// No placed tile shares a side with the cell.
    #[error("cell {0} does not touch the board along a side")]
    NotAdjacent(Pos),
    /// An edge disagrees with a neighbour.
    #[error("the {side:?} edge shows {ours:?} but the neighbour shows {theirs:?}")]
    EdgeMismatch {
        /// The side of the new tile.
        side: Dir,
        /// What the new tile shows there.
        ours: EdgeKind,
        /// What the neighbour shows.
        theirs: EdgeKind,
    },
    /// A river tile that does not continue the river from an open end.
    #[error("a river tile must continue the river from one of its open ends")]
    RiverNotContinued,
    /// A river tile that would join two stretches of river.
    #[error("the river may not be joined to another stretch of river")]
    RiverJoined,
    /// A river tile that would turn the river back on itself.
    #[error("the river may not make an immediate U-turn")]
    RiverUTurn,
    /// The spring laid beside the Wheel of Fortune's board with its river towards the board.
    #[error("the river must flow away from the Wheel of Fortune's board")]
    RiverTowardsWheel,
}

/// The placed tiles and the empty cells beside them.
#[derive(Clone, Debug, Default)]
pub struct Board {
    tiles: Vec<PlacedTile>,
    cells: FxHashMap<Pos, u32>,
    frontier: Vec<Pos>,
}

impl Board {
    /// All placed tiles, in the order they were laid.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    /// The tile at `pos`, if any.
    pub fn get(&self, pos: Pos) -> Option<&PlacedTile> {
        self.cells.get(&pos).map(|&i| &self.tiles[i as usize])
    }

    /// Whether a tile lies at `pos`.
    pub fn is_occupied(&self, pos: Pos) -> bool {
        self.cells.contains_key(&pos)
    }

    /// Empty cells that share a side with a placed tile, in the order they appeared.
    pub fn frontier(&self) -> &[Pos] {
        &self.frontier
    }

    /// Checks that `tile` fits at `placement`.
    pub fn check(
        &self,
        cat: &Catalogue,
        tile: TileId,
        placement: Placement,
    ) -> Result<(), PlacementError> {
        let pos = placement.pos;
        if self.is_occupied(pos) {
            return Err(PlacementError::Occupied(pos));
        }
        if !self.tiles.is_empty() && !Dir::ALL.iter().any(|&d| self.is_occupied(pos.step(d))) {
            return Err(PlacementError::NotAdjacent(pos));
        }
        let ty = cat.tile(tile);
        for side in Dir::ALL {
            if let Some(n) = self.get(pos.step(side)) {
                let theirs = cat.tile(n.tile).edge(side.opposite(), n.placement.rot);
                let ours = ty.edge(side, placement.rot);
                if ours != theirs {
                    return Err(PlacementError::EdgeMismatch { side, ours, theirs });
                }
            }
        }
        Ok(())
    }

    /// Every placement of `tile` that fits, frontier cell by cell, rotations in order.
    pub fn placements(&self, cat: &Catalogue, tile: TileId) -> Vec<Placement> {
        let ty = cat.tile(tile);
        let mut out = Vec::new();
        for &pos in &self.frontier {
            let mut wanted: [Option<EdgeKind>; 4] = [None; 4];
            for side in Dir::ALL {
                if let Some(n) = self.get(pos.step(side)) {
                    wanted[side.index()] =
                        Some(cat.tile(n.tile).edge(side.opposite(), n.placement.rot));
                }
            }
            for rot in Rotation::ALL {
                let fits = Dir::ALL
                    .iter()
                    .all(|&d| wanted[d.index()].is_none_or(|w| ty.edge(d, rot) == w));
                if fits {
                    out.push(Placement { pos, rot });
                }
            }
        }
        out
    }

    /// Lays a tile without checking it; the caller has called [`Board::check`].
    pub(crate) fn put(&mut self, tile: TileId, placement: Placement, first_node: u32) {
        let pos = placement.pos;
        let index = self.tiles.len() as u32;
        self.tiles.push(PlacedTile {
            tile,
            placement,
            first_node,
        });
        self.cells.insert(pos, index);
        if let Some(i) = self.frontier.iter().position(|&p| p == pos) {
            self.frontier.swap_remove(i);
        }
        for d in Dir::ALL {
            let n = pos.step(d);
            if !self.is_occupied(n) && !self.frontier.contains(&n) {
                self.frontier.push(n);
            }
        }
    }

    /// Number of tiles in the 3×3 block centred on `pos`, `pos` included.
    pub fn block_count(&self, pos: Pos) -> usize {
        usize::from(self.is_occupied(pos)) + pos.ring().filter(|&p| self.is_occupied(p)).count()
    }
}

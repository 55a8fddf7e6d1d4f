//! The River: river tiles are drawn first and each must continue the river.
//!
//! Rules (seed 000, "The River"; seed 004, River I/II with its official clarifications):
//! - the spring replaces the start tile; River II's fork is laid in the first turn, the lake
//!   (River II: the volcano lake) after every other river tile, then the land tiles follow;
//! - a river tile continues the river from one open end: exactly one of its river edges touches
//!   the board (so two stretches of river are never joined), and edges match as usual;
//! - no immediate U-turn (footnote 17: only immediate ones are forbidden): the river may not
//!   leave the new tile in the direction opposite to the one it entered the tile before;
//! - nothing stands on the river and it scores nothing; it divides the fields it crosses
//!   (footnote 10), except around the spring and the lakes, where the field wraps round.
//!
//! A river tile that fits nowhere is put aside like any other tile, so the river may stay
//! unfinished (seed 004, "Other expansions").
//!
//! With the Wheel of Fortune the board is the start and the spring is the first tile drawn, laid
//! beside the board with the river flowing away from it (seed 000, "The River" with the Wheel).

use super::super::board::{Board, PlacedTile, Placement, PlacementError};
use super::super::catalogue::Catalogue;
use super::super::port::Dir;
use super::super::tile::TileId;
use super::{sets, Expansions};

/// The river's draw order for the expansions in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct River {
    /// Laid before the first turn, instead of the start tile.
    pub(crate) spring: TileId,
    /// The spring is drawn first instead (the Wheel of Fortune's board is the start).
    pub(crate) spring_drawn: bool,
    /// Laid in the first turn (the fork).
    first: Vec<TileId>,
    /// The other river tiles but the last.
    middle: Vec<TileId>,
    /// Laid after every other river tile (the lakes).
    last: Vec<TileId>,
}

// Why a tile cannot be drawn now.
const RIVER_FIRST: &str = "river tiles are laid before land tiles";
const FORK_FIRST: &str = "the river fork is laid first";
const LAKE_LAST: &str = "the lake is laid after the other river tiles";
const SPRING_FIRST: &str = "the spring is laid first, beside the Wheel of Fortune";

impl River {
    /// The river's plan, if a river is in play.
    pub(crate) fn new(cat: &Catalogue, expansions: Expansions) -> Option<River> {
        let sets = sets(cat, expansions);
        let replaced: Vec<TileId> = sets.iter().flat_map(|s| s.replaces.clone()).collect();
        let kept = |t: &TileId| !replaced.contains(t);
        let first: Vec<TileId> = sets.iter().filter_map(|s| s.first).filter(kept).collect();
        let last: Vec<TileId> = sets.iter().filter_map(|s| s.last).filter(kept).collect();
        let mut middle: Vec<TileId> = sets
            .iter()
            .flat_map(|s| s.counts.iter().map(|&(t, _)| t))
            .filter(|t| kept(t) && cat.tile(*t).river.is_some())
            .filter(|t| !first.contains(t) && !last.contains(t))
            .collect();
        middle.sort_unstable();
        middle.dedup();
        let spring = sets
            .iter()
            .filter_map(|s| s.start)
            .find(|&t| cat.tile(t).river.is_some())?;
        Some(River {
            spring,
            spring_drawn: super::wheel::in_play(expansions),
            first,
            middle,
            last,
        })
    }

    /// Whether every river tile has been drawn (the spring included, laid at the start).
    pub(crate) fn is_done(&self, remaining: &[u8]) -> bool {
        [&self.first, &self.middle, &self.last]
            .into_iter()
            .flatten()
            .all(|t| remaining[t.index()] == 0)
    }

    /// Whether `tile` may be drawn now, given how many of each tile remain; the reason if not.
    pub(crate) fn drawable(&self, remaining: &[u8], tile: TileId) -> Result<(), &'static str> {
        let left = |ids: &[TileId]| ids.iter().any(|t| remaining[t.index()] > 0);
        let spring = [self.spring];
        let (stage, why): (&[TileId], _) = if self.spring_drawn && left(&spring) {
            (&spring, SPRING_FIRST)
        } else if left(&self.first) {
            (&self.first, FORK_FIRST)
        } else if left(&self.middle) {
            let why = if self.last.contains(&tile) {
                LAKE_LAST
            } else {
                RIVER_FIRST
            };
            (&self.middle, why)
        } else if left(&self.last) {
            (&self.last, RIVER_FIRST)
        } else {
            return Ok(());
        };
        if stage.contains(&tile) {
            Ok(())
        } else {
            Err(why)
        }
    }
}

/// Checks the river rules for `tile` at `p` (edges are checked by the board); land tiles pass.
pub(crate) fn check(
    cat: &Catalogue,
    board: &Board,
    tile: TileId,
    p: Placement,
) -> Result<(), PlacementError> {
    let ty = cat.tile(tile);
    if ty.river.is_none() {
        return Ok(());
    }
    let mut joined = None;
    for side in ty.river_sides(p.rot) {
        if board.is_occupied(p.pos.step(side)) && joined.replace(side).is_some() {
            return Err(PlacementError::RiverJoined);
        }
    }
    let up = joined.ok_or(PlacementError::RiverNotContinued)?;
    let upstream = board
        .get(p.pos.step(up))
        .expect("the joined side touches a tile");
    if let Some(flow) = inflow(cat, board, upstream) {
        if ty
            .river_sides(p.rot)
            .any(|d| d != up && d == flow.opposite())
        {
            return Err(PlacementError::RiverUTurn);
        }
    }
    Ok(())
}

/// The direction the river flows in as it enters a placed river tile (from the neighbour laid
/// before it); `None` at the spring.
fn inflow(cat: &Catalogue, board: &Board, t: &PlacedTile) -> Option<Dir> {
    cat.tile(t.tile)
        .river_sides(t.placement.rot)
        .find(|&d| {
            board
                .get(t.placement.pos.step(d))
                .is_some_and(|n| n.first_node < t.first_node)
        })
        .map(Dir::opposite)
}

#[cfg(test)]
mod tests {
    use crate::rules::{
        catalogue, Expansion, Expansions, Figure, Game, IllegalMove, Placement, Pos, Rotation,
        Setup, SetupError,
    };

    fn river_ii() -> Game {
        let only = Expansions::NONE.with(Expansion::RiverIi);
        Game::new(&Setup::with_expansions("base", only, 2).unwrap()).unwrap()
    }

    fn id(name: &str) -> crate::rules::TileId {
        catalogue().tile_id(name).unwrap()
    }

    #[test]
    fn the_spring_replaces_the_start_tile() {
        let only = Expansions::NONE.with(Expansion::River);
        let mut setup = Setup::with_expansions("base", only, 2).unwrap();
        assert_eq!(setup.tileset.start, id("RV0"));
        let game = Game::new(&setup).unwrap();
        assert_eq!(game.board().tiles()[0].tile, id("RV0"));
        for other in ["D", "RV6"] {
            setup.tileset.start = id(other);
            assert_eq!(
                Game::new(&setup).unwrap_err(),
                SetupError::RiverStart(other.into())
            );
        }
    }

    #[test]
    fn river_ii_lays_the_fork_first_and_the_volcano_lake_last() {
        let mut game = river_ii();
        assert!(game.can_draw(id("RV12")).is_ok());
        for other in ["RV13", "RV11", "D"] {
            assert!(matches!(
                game.can_draw(id(other)),
                Err(IllegalMove::NotYet(..))
            ));
            assert!(game.legal_placements(id(other)).is_empty());
        }
        let fork = Placement {
            pos: Pos::new(1, 0),
            rot: Rotation::R0,
        };
        // East of the spring, any turn that gives the fork a west arm.
        let turns: Vec<Rotation> = game
            .legal_placements(id("RV12"))
            .iter()
            .map(|p| p.rot)
            .collect();
        assert_eq!(turns, [Rotation::R0, Rotation::R180, Rotation::R270]);
        game.place(id("RV12"), fork).unwrap();
        game.end_turn().unwrap();
        assert!(game.can_draw(id("RV13")).is_ok());
        assert!(
            game.can_draw(id("RV10")).is_ok(),
            "the city lake is shuffled in"
        );
        assert!(
            game.can_draw(id("RV11")).is_err(),
            "the volcano lake comes last"
        );
        assert!(game.can_draw(id("E")).is_err());
        // Nobody has a large follower without Inns & Cathedrals.
        assert_eq!(game.figures(game.current_player(), Figure::Large), 0);
    }
}

//! Hills & Sheep (seed 000, "Hills & Sheep"), hills and vineyards:
//! - whoever lays a hill tile slides another tile from the bag under it, unseen: the bag loses a
//!   tile that is never played;
//! - when players tie for a majority (during the game or at its end), those with a follower on a
//!   hill tile win it alone (JCloisterZone's variant: those with the most followers on hills);
//!   without a tie the hill gives nothing;
//! - a completed cloister scores 3 more points for each vineyard on the eight tiles around it; an
//!   incomplete one at the end gets nothing from them.
//!
//! Options `hills` and `vineyards` switch either rule off while the tiles stay in the box.

use super::super::feature::Occupant;
use super::super::options::{HillTiebreak, RuleOptions};
use super::super::player::PlayerId;
use super::{Expansion, Expansions};

/// Points a vineyard adds to each completed cloister beside it.
pub const VINEYARD_POINTS: u32 = 3;

/// Whether hills are in play: a tile slides under each hill tile, and hills break ties.
pub(crate) fn hills(options: &RuleOptions, expansions: Expansions) -> bool {
    expansions.contains(Expansion::HillsAndSheep) && options.hills
}

/// Extra points for a completed cloister with `vineyards` vineyard tiles around it.
pub(crate) fn vineyard_bonus(
    vineyards: usize,
    options: &RuleOptions,
    expansions: Expansions,
) -> u32 {
    if expansions.contains(Expansion::HillsAndSheep) && options.vineyards {
        VINEYARD_POINTS * vineyards as u32
    } else {
        0
    }
}

/// The winners of a majority `tied` (in seat order) once hills break the tie: `on_hill` says
/// whether a tile (by laying index) is a hill tile. Unchanged without a tie, or when no tied
/// player has a follower on a hill.
pub(crate) fn break_tie(
    tied: Vec<PlayerId>,
    occupants: &[Occupant],
    on_hill: impl Fn(u32) -> bool,
    rule: HillTiebreak,
) -> Vec<PlayerId> {
    if tied.len() < 2 {
        return tied;
    }
    let on_hills = |p: PlayerId| {
        occupants
            .iter()
            .filter(|o| o.player == p && o.figure.is_follower() && on_hill(o.tile))
            .count()
    };
    let counts: Vec<usize> = tied.iter().map(|&p| on_hills(p)).collect();
    let best = match rule {
        HillTiebreak::AnyOnHill => counts.iter().map(|&n| n.min(1)).max(),
        HillTiebreak::MostOnHills => counts.iter().copied().max(),
    }
    .unwrap_or(0);
    if best == 0 {
        return tied;
    }
    tied.into_iter()
        .zip(counts)
        .filter(|&(_, n)| n >= best)
        .map(|(p, _)| p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{catalogue, Figure, Game, IllegalMove, Placement, Pos, Rotation, Setup};

    #[test]
    fn a_hill_tile_takes_a_second_tile_from_the_bag() {
        // Seed 000: "she immediately draws another tile ... and places it underneath".
        let cat = catalogue();
        let id = |n: &str| cat.tile_id(n).unwrap();
        let only = Expansions::NONE.with(Expansion::HillsAndSheep);
        let mut game = Game::new(&Setup::with_expansions("base", only, 2).unwrap()).unwrap();
        let before = game.remaining_total();
        let at = |x, y, rot| Placement {
            pos: Pos::new(x, y),
            rot,
        };
        game.place(id("HS3"), at(0, -1, Rotation::R180)).unwrap();
        assert_eq!(game.remaining_total(), before - 2);
        assert_eq!(game.tile_under(Pos::new(0, -1)), Some(None));
        let e = game.remaining(id("E"));
        game.slide_under(id("E")).unwrap();
        assert_eq!(game.remaining(id("E")), e - 1);
        assert_eq!(game.remaining_total(), before - 2);
        assert_eq!(game.tile_under(Pos::new(0, -1)), Some(Some(id("E"))));
        assert_eq!(game.slide_under(id("E")), Err(IllegalMove::NothingUnder));
        game.end_turn().unwrap();
        // A tile without a hill has nothing under it.
        game.place(id("U"), at(1, 0, Rotation::R0)).unwrap();
        assert_eq!(game.slide_under(id("E")), Err(IllegalMove::NothingUnder));
        assert_eq!(game.remaining_total(), before - 3);
    }

    fn at(player: u8, tile: u32, figure: Figure) -> Occupant {
        Occupant {
            player: PlayerId(player),
            tile,
            node: 0,
            figure,
        }
    }

    #[test]
    fn a_follower_on_a_hill_breaks_a_tie() {
        // Seed 000's example: Red and Blue tie with one knight each, Red's on a hill: Red alone.
        let hill = |t: u32| t == 1;
        let occ = [at(0, 1, Figure::Normal), at(1, 2, Figure::Normal)];
        let tied = vec![PlayerId(0), PlayerId(1)];
        for rule in [HillTiebreak::AnyOnHill, HillTiebreak::MostOnHills] {
            assert_eq!(break_tie(tied.clone(), &occ, hill, rule), [PlayerId(0)]);
        }
        // No follower on a hill, or no tie: unchanged.
        let none = [at(0, 3, Figure::Normal), at(1, 2, Figure::Normal)];
        assert_eq!(
            break_tie(tied.clone(), &none, hill, HillTiebreak::AnyOnHill),
            tied
        );
        assert_eq!(
            break_tie(vec![PlayerId(1)], &occ, hill, HillTiebreak::AnyOnHill),
            [PlayerId(1)]
        );
    }

    #[test]
    fn the_rules_differ_when_both_have_hill_followers() {
        // Two followers each; player 0 has two on hills, player 1 one.
        let hill = |t: u32| t < 3;
        let occ = [
            at(0, 0, Figure::Normal),
            at(0, 1, Figure::Normal),
            at(1, 2, Figure::Normal),
            at(1, 5, Figure::Normal),
        ];
        let tied = vec![PlayerId(0), PlayerId(1)];
        assert_eq!(
            break_tie(tied.clone(), &occ, hill, HillTiebreak::AnyOnHill),
            tied
        );
        assert_eq!(
            break_tie(tied, &occ, hill, HillTiebreak::MostOnHills),
            [PlayerId(0)]
        );
    }

    #[test]
    fn a_builder_on_a_hill_breaks_no_tie() {
        let hill = |t: u32| t == 1;
        let occ = [
            at(0, 2, Figure::Normal),
            at(0, 1, Figure::Builder),
            at(1, 3, Figure::Normal),
        ];
        let tied = vec![PlayerId(0), PlayerId(1)];
        assert_eq!(
            break_tie(tied.clone(), &occ, hill, HillTiebreak::AnyOnHill),
            tied
        );
    }
}

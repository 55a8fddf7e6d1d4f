//! Traders & Builders (seed 000, "Traders & Builders"; seed 004 with its clarifications):
//! - goods: whoever lays the tile that completes a city takes one token per goods symbol in it,
//!   with or without a knight there (footnote 17); at the end each kind scores 10 for the player
//!   with the most tokens, every tied player scoring in full;
//! - the builder: stands only on a road or city that holds one of its owner's followers; when its
//!   owner lays a tile that extends that feature, the turn has a second part with another tile
//!   (never a third: at most one extra tile per turn), even if the first part completed the
//!   feature and sent the builder home (footnote 9);
//! - the pig: stands only on a farm that holds one of its owner's farmers; the owner, if among
//!   the farm's majority, scores 1 more per city there; several pigs do not add up;
//! - builders and pigs are no followers (footnotes 12, 15): they never count in a majority and
//!   go home with their owner's last follower on the feature. No rule in play removes a follower
//!   without scoring its feature, so they always leave together with it.
//!
//! River II's pig-herd counts only with this expansion: 1 more per city for every majority
//! holder of its farm, on top of a pig (footnotes 20–21 of River II); two do not add up
//! (footnote 24).

use super::super::feature::Feature;
use super::super::figure::Figure;
use super::super::options::RuleOptions;
use super::super::player::PlayerId;
use super::super::tile::{FeatureKind, Good};
use super::{sheep, Expansion, Expansions};

/// Points for the majority of one kind of goods at the end of the game.
pub const GOODS_MAJORITY_POINTS: u32 = 10;

fn in_play(expansions: Expansions) -> bool {
    expansions.contains(Expansion::TradersAndBuilders)
}

/// Builders and pigs each player gets.
pub(crate) fn special_figures(expansions: Expansions, options: &RuleOptions) -> [u8; 2] {
    let each = u8::from(in_play(expansions));
    [
        options.builders.unwrap_or(each),
        options.pigs.unwrap_or(each),
    ]
}

/// The goods a player takes for completing city `f`.
pub(crate) fn goods_taken(f: &Feature, expansions: Expansions) -> [u32; 3] {
    if in_play(expansions) && f.kind == FeatureKind::City {
        f.goods
    } else {
        [0; 3]
    }
}

/// Whether `figure` of `player` may join feature `f` of the tile just laid (after laying it);
/// the reason if not. Followers need an unoccupied feature, builders and pigs one of their
/// owner's followers.
pub(crate) fn may_join(figure: Figure, player: PlayerId, f: &Feature) -> Result<(), Refusal> {
    if figure == Figure::Shepherd {
        return sheep::may_stand(f);
    }
    let fits = match figure {
        Figure::Normal | Figure::Large => true,
        Figure::Builder => matches!(f.kind, FeatureKind::Road | FeatureKind::City),
        Figure::Pig | Figure::Shepherd => f.kind == FeatureKind::Field,
    };
    if !fits {
        Err(Refusal::WrongFeature)
    } else if figure.is_follower() && f.is_occupied() {
        Err(Refusal::Occupied)
    } else if !figure.is_follower() && !f.has_follower_of(player) {
        Err(Refusal::NoOwnFollower)
    } else {
        Ok(())
    }
}

/// Why a figure may not join a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Builders go on roads and cities, pigs on farms.
    WrongFeature,
    /// A follower stands there already.
    Occupied,
    /// A builder or pig needs one of its owner's followers there.
    NoOwnFollower,
    /// A shepherd already tends that field (Hills & Sheep).
    Shepherded,
}

/// Whether a tile laid by `player` extends a feature that holds their builder: one of the
/// tile's roads or cities belongs to `f`.
pub(crate) fn extends_builder(f: &Feature, player: PlayerId) -> bool {
    matches!(f.kind, FeatureKind::Road | FeatureKind::City) && f.has(player, Figure::Builder)
}

/// Points per completed city for `player`, one of farm `f`'s majority holders, who would score
/// `base` without this expansion.
pub(crate) fn farm_points_per_city(
    base: u32,
    f: &Feature,
    player: PlayerId,
    expansions: Expansions,
) -> u32 {
    let pig = u32::from(f.has(player, Figure::Pig));
    let herd = u32::from(in_play(expansions) && f.pig_herds > 0);
    base + pig + herd
}

/// For each kind of goods held at all, the players with the most tokens.
pub(crate) fn goods_majorities(goods: &[[u32; 3]]) -> Vec<(Good, Vec<PlayerId>)> {
    Good::ALL
        .into_iter()
        .filter_map(|g| {
            let most = goods.iter().map(|h| h[g.index()]).max().unwrap_or(0);
            (most > 0).then(|| {
                let holders = (0..goods.len())
                    .filter(|&p| goods[p][g.index()] == most)
                    .map(|p| PlayerId(p as u8))
                    .collect();
                (g, holders)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::feature::Occupant;

    fn feature(kind: FeatureKind, occupants: &[(u8, Figure)]) -> Feature {
        let mut f = Feature::new(kind, 0, 0);
        f.occupants = occupants
            .iter()
            .map(|&(p, figure)| Occupant {
                player: PlayerId(p),
                tile: 0,
                node: 0,
                figure,
            })
            .collect();
        f
    }

    #[test]
    fn builders_and_pigs_join_their_owners_followers() {
        let (red, blue) = (PlayerId(0), PlayerId(1));
        let road = feature(
            FeatureKind::Road,
            &[(0, Figure::Normal), (1, Figure::Builder)],
        );
        // Seed 000: a builder only where its owner has a follower, other players' figures or not.
        assert_eq!(may_join(Figure::Builder, red, &road), Ok(()));
        assert_eq!(
            may_join(Figure::Builder, blue, &road),
            Err(Refusal::NoOwnFollower)
        );
        assert_eq!(
            may_join(Figure::Normal, blue, &road),
            Err(Refusal::Occupied)
        );
        // A builder is no follower: it does not occupy a feature on its own.
        let only_builder = feature(FeatureKind::City, &[(1, Figure::Builder)]);
        assert!(!only_builder.is_occupied());
        assert_eq!(only_builder.majority(2), Vec::<PlayerId>::new());
        // Never a builder in a field, never a pig outside one.
        let farm = feature(FeatureKind::Field, &[(0, Figure::Large)]);
        assert_eq!(
            may_join(Figure::Builder, red, &farm),
            Err(Refusal::WrongFeature)
        );
        assert_eq!(may_join(Figure::Pig, red, &farm), Ok(()));
        assert_eq!(
            may_join(Figure::Pig, blue, &farm),
            Err(Refusal::NoOwnFollower)
        );
        assert_eq!(
            may_join(Figure::Pig, red, &road),
            Err(Refusal::WrongFeature)
        );
        let cloister = feature(FeatureKind::Cloister, &[(0, Figure::Normal)]);
        assert_eq!(
            may_join(Figure::Builder, red, &cloister),
            Err(Refusal::WrongFeature)
        );
        assert!(extends_builder(&road, blue) && !extends_builder(&road, red));
    }

    #[test]
    fn pigs_and_pig_herds_add_one_per_city_each_without_stacking() {
        let tb = Expansions::NONE.with(Expansion::TradersAndBuilders);
        let mut farm = feature(
            FeatureKind::Field,
            &[
                (0, Figure::Normal),
                (0, Figure::Pig),
                (0, Figure::Pig),
                (1, Figure::Normal),
            ],
        );
        // Seed 000: 4 instead of 3 with a pig; two pigs do not make 5.
        assert_eq!(farm_points_per_city(3, &farm, PlayerId(0), tb), 4);
        assert_eq!(farm_points_per_city(3, &farm, PlayerId(1), tb), 3);
        // Seed 004, River II: a pig-herd adds 1 for every majority holder, 2 with a pig.
        farm.pig_herds = 2;
        assert_eq!(farm_points_per_city(3, &farm, PlayerId(0), tb), 5);
        assert_eq!(farm_points_per_city(3, &farm, PlayerId(1), tb), 4);
        assert_eq!(
            farm_points_per_city(3, &farm, PlayerId(1), Expansions::NONE),
            3
        );
    }

    #[test]
    fn goods_majorities_score_every_tied_player() {
        let goods = [[2, 1, 0], [2, 0, 0], [1, 0, 0]];
        let got = goods_majorities(&goods);
        assert_eq!(
            got,
            [
                (Good::Wine, vec![PlayerId(0), PlayerId(1)]),
                (Good::Wheat, vec![PlayerId(0)]),
            ]
        );
        let tb = Expansions::NONE.with(Expansion::TradersAndBuilders);
        assert_eq!(special_figures(tb, &RuleOptions::default()), [1, 1]);
        let two_pigs = RuleOptions {
            pigs: Some(2),
            ..RuleOptions::default()
        };
        assert_eq!(special_figures(Expansions::NONE, &two_pigs), [0, 2]);
    }
}

//! Inns & Cathedrals (seed 000, "Inns & Cathedrals"; seed 004 with its clarifications):
//! - a completed road with at least one inn scores 2 points per tile, a completed city with at
//!   least one cathedral 3 per tile and per pennant; several inns or cathedrals do not add up;
//! - at the end of the game such a road or city, still incomplete, scores nothing (JCloisterZone's
//!   `ignore` variant scores it as if it had no inn or cathedral);
//! - each player has one large follower, deployed instead of a normal one, which counts as two
//!   followers in a majority but never doubles the points.
//!
//! River II's inn counts only when Inns & Cathedrals is in play (seed 004, River II notes).

use super::super::feature::Feature;
use super::super::options::{FinalInnsCathedrals, RuleOptions};
use super::super::tile::FeatureKind;
use super::{Expansion, Expansions};

/// Large followers each player gets.
pub(crate) fn large_followers(expansions: Expansions) -> u8 {
    u8::from(expansions.contains(Expansion::InnsAndCathedrals))
}

/// Whether the feature's inns (roads) or cathedrals (cities) count.
fn marked(f: &Feature, options: &RuleOptions, expansions: Expansions) -> bool {
    expansions.contains(Expansion::InnsAndCathedrals)
        && match f.kind {
            FeatureKind::Road => options.inns && f.inns > 0,
            FeatureKind::City => options.cathedrals && f.cathedrals > 0,
            FeatureKind::Cloister | FeatureKind::Field => false,
        }
}

/// Points for a completed feature that would score `plain` without inns and cathedrals.
pub(crate) fn completed(
    f: &Feature,
    tiles: u32,
    plain: u32,
    options: &RuleOptions,
    expansions: Expansions,
) -> u32 {
    if !marked(f, options, expansions) {
        return plain;
    }
    match f.kind {
        FeatureKind::Road => 2 * tiles,
        _ => 3 * (tiles + f.pennants),
    }
}

/// Points at the end of the game for an incomplete feature that would score `plain`.
pub(crate) fn incomplete(
    f: &Feature,
    plain: u32,
    options: &RuleOptions,
    expansions: Expansions,
) -> u32 {
    match options.final_inns_cathedrals {
        FinalInnsCathedrals::Zero if marked(f, options, expansions) => 0,
        _ => plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scoring::{completed_value, incomplete_value};

    fn feature(kind: FeatureKind, pennants: u32, inns: u32, cathedrals: u32) -> Feature {
        let mut f = Feature::new(kind, 0, 0);
        f.pennants = pennants;
        f.inns = inns;
        f.cathedrals = cathedrals;
        f
    }

    #[test]
    fn inns_and_cathedrals_score_as_the_rulebooks_say() {
        let ic = Expansions::NONE.with(Expansion::InnsAndCathedrals);
        let plain = RuleOptions::default();
        let road = feature(FeatureKind::Road, 0, 1, 0);
        let city = feature(FeatureKind::City, 1, 0, 1);
        // Seed 000: a 3-tile road with an inn, 6; 7 tiles and a pennant with a cathedral, 24.
        assert_eq!(completed_value(&road, 3, &plain, ic), 6);
        assert_eq!(completed_value(&city, 7, &plain, ic), 24);
        // Several inns or cathedrals do not add up.
        let two_inns = feature(FeatureKind::Road, 0, 2, 0);
        assert_eq!(completed_value(&two_inns, 5, &plain, ic), 10);
        // Incomplete at the end: nothing; JCloisterZone's `ignore` variant: as plain.
        assert_eq!(incomplete_value(&road, 3, &plain, ic), 0);
        assert_eq!(incomplete_value(&city, 7, &plain, ic), 0);
        let ignore = RuleOptions {
            final_inns_cathedrals: FinalInnsCathedrals::Ignore,
            ..plain
        };
        assert_eq!(incomplete_value(&road, 3, &ignore, ic), 3);
        assert_eq!(incomplete_value(&city, 7, &ignore, ic), 8);
        // Without the expansion (River II's inn) or with the rule switched off: plain scoring.
        assert_eq!(completed_value(&road, 3, &plain, Expansions::NONE), 3);
        assert_eq!(incomplete_value(&road, 3, &plain, Expansions::NONE), 3);
        let off = RuleOptions {
            inns: false,
            cathedrals: false,
            ..plain
        };
        assert_eq!(completed_value(&road, 3, &off, ic), 3);
        assert_eq!(completed_value(&city, 7, &off, ic), 16);
        assert_eq!(large_followers(ic), 1);
        assert_eq!(large_followers(Expansions::NONE), 0);
    }
}

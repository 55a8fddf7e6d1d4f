//! Where figures stand as evidence of the tile under them: a follower stands on its road, city
//! or cloister and a farmer lies in its field, so a figure whose foot is on a small feature of a
//! reading (a road stub it hides, say) makes that reading likelier than one that shows only a
//! wide field there. Where a figure's outline tells that it stands (or lies), only the features
//! it can stand (lie) on count. Players set figures mostly where a feature is widest, so where
//! on its feature a figure stands tells too: a farmer over T's hidden road stub lies where T's
//! small field beside it is widest, not where R's one field is. And some tiles carry figures
//! more often than others: a monk stays on its cloister for most of a game, a thief on a
//! straight road for a few turns ([`FollowerOdds`]), so a figure standing where a cloister's
//! church would hide a road makes the cloister likelier.

use std::sync::OnceLock;

use opencv::core::Mat;
use opencv::imgproc;

use super::figures::{Blob, Parts};
use super::meeples::{lying_middle, pose, standing_foot};
use super::rectify::INSET;
use super::terrain::{label_at, same_for_the_rules};
use super::tile::FIGURE_WEIGHT;
use crate::geometry::{rotate, TileShape, LABEL_RES};
use crate::rules::{catalogue, FeatureKind, FollowerOdds, Rotation, TileId};

/// Radius (tile sides) around a figure's foot or middle within which its feature is looked for:
/// a foot is only roughly where the blob says.
const REACH: f32 = 0.06;
/// Steps of the sample grid across [`REACH`] (each way from the middle).
const STEPS: i32 = 2;
/// The smallest share of a tile a feature counts as covering, so that a sliver does not claim a
/// figure outright.
const MIN_AREA: f32 = 0.04;
/// Likelihood of a figure that no feature of a reading explains (a figure of a neighbour's
/// reaching in, a blob misread), against about 1 for a figure in a wide field.
const STRAY: f64 = 0.3;
/// [`STRAY`] for a figure whose outline told whether it stands or lies: a figure told standing
/// in the middle of a wide field is all but ruled out (a lying farmer is told standing about
/// once in 50). `eval vision --generate 30 --seed 9300`, tiles right: 98.76 % with [`STRAY`],
/// 98.89 % with 0.1 or 0.03 (two of three A read B mended).
const STRAY_TOLD: f64 = 0.1;
/// Where a standing figure's foot is, from the top of its blob down (as [`super::figures`]).
const FOOT: f64 = 0.85;
/// Share of figures set on their feature's natural spot (its anchor: where it is widest, a
/// road's middle, a cloister's building) rather than anywhere on it.
const AT_SPOT: f32 = 0.5;
/// Spread (tile sides) of where a figure set on its feature's natural spot is seen.
const SPOT_SPREAD: f32 = 0.06;

/// How often followers sit on each tile type in random play, learned by `meeplecam train
/// follower-odds` (`models/README.md`).
const FOLLOWER_ODDS: &str = include_str!("../../models/follower-odds.json");

/// How much likelier than on a tile at random a figure is on a tile of type `tile`, lying,
/// standing or of a pose not told ([`FollowerOdds`]: a monk outstays a thief, a farmer stays
/// to the end); 1 for a type the table does not hold. Raised to the power 1 /
/// [`FIGURE_WEIGHT`]: weighed with the rest of what figures tell, it counts once, as a prior
/// should (`eval vision --dataset DIR`, full read, fifty sets: whole boards 1383 of 1530
/// without it, 1382 weighed as heavily as where figures stand, 1386 once).
fn pose_odds(tile: TileId, lying: Option<bool>) -> f64 {
    static ODDS: OnceLock<Vec<[f64; 3]>> = OnceLock::new();
    let odds = ODDS.get_or_init(|| {
        serde_json::from_str::<FollowerOdds>(FOLLOWER_ODDS)
            .map(|odds| pose_ratios(&odds))
            .unwrap_or_default()
    });
    let pose = match lying {
        Some(true) => 0,
        Some(false) => 1,
        None => 2,
    };
    odds.get(tile.index()).map_or(1.0, |o| o[pose])
}

/// For each tile type of the catalogue (by index), [`pose_odds`] lying, standing and of a pose
/// not told: the share of its tiles with a follower in a field, elsewhere, or either, over the
/// share of all tiles (to the power 1 / [`FIGURE_WEIGHT`]).
fn pose_ratios(odds: &FollowerOdds) -> Vec<[f64; 3]> {
    let (field, elsewhere) = odds.of_all();
    let ratio = |share: Option<f64>, all: f64| share.map_or(1.0, |p| p / all.max(1e-9));
    (0..catalogue().tiles().len())
        .map(|i| {
            let tile = TileId(i as u16);
            let (f, e) = (odds.on_field(tile), odds.elsewhere(tile));
            [
                ratio(f, field),
                ratio(e, elsewhere),
                ratio(f.zip(e).map(|(f, e)| f + e), field + elsewhere),
            ]
            .map(|r| r.powf(FIGURE_WEIGHT.recip()))
        })
        .collect()
}

/// Density (per tile area) of a figure seen at `at` when set on the spot `spot`.
fn near_spot(at: [f32; 2], spot: [f32; 2]) -> f32 {
    let d2 = (at[0] - spot[0]).powi(2) + (at[1] - spot[1]).powi(2);
    let v = SPOT_SPREAD * SPOT_SPREAD;
    (-d2 / (2.0 * v)).exp() / (2.0 * std::f32::consts::PI * v)
}

/// A figure in a patch: its middle, its foot, where it lies if it is a farmer (patch pixels)
/// and whether it lies, if told.
struct Spot {
    centre: [f64; 2],
    foot: [f64; 2],
    lies_at: [f64; 2],
    lying: Option<bool>,
}

/// The figures in a patch.
pub struct Figures {
    spots: Vec<Spot>,
}

impl Figures {
    /// The figures of a figure mask (255 where a figure covers the patch): one per blob.
    pub fn from_mask(mask: &Mat) -> opencv::Result<Figures> {
        let parts = Parts::of(mask)?;
        let mut spots = Vec::new();
        for i in 1..parts.len() {
            let top = f64::from(parts.stat(i, imgproc::CC_STAT_TOP)?);
            let height = f64::from(parts.stat(i, imgproc::CC_STAT_HEIGHT)?);
            let centre = parts.middle(i);
            spots.push(Spot {
                centre,
                foot: [centre[0], top + FOOT * height],
                lies_at: centre,
                lying: None,
            });
        }
        Ok(Figures { spots })
    }

    /// The figures of the blobs found in a patch, where a standing figure's top shows `rise`
    /// tile sides beyond its foot ([`standing_foot`]), each standing or lying as its outline
    /// tells ([`pose`]).
    pub fn from_blobs(blobs: &[Blob], rise: [f64; 2]) -> Figures {
        let spots = blobs
            .iter()
            .map(|b| Spot {
                centre: b.centroid,
                foot: standing_foot(b, rise),
                lies_at: lying_middle(b, rise),
                lying: pose(b, rise),
            })
            .collect();
        Figures { spots }
    }

    /// The feet (patch pixels) of the figures that may stand: all but those told lying.
    pub fn standing_feet(&self) -> Vec<[f64; 2]> {
        self.spots
            .iter()
            .filter(|s| s.lying != Some(true))
            .map(|s| s.foot)
            .collect()
    }

    /// Log-likelihood of where the figures in the `side`-pixel window at (x, y) stand if the
    /// window holds `tile` lying with `rot`: each figure on the tile is on one of its features,
    /// each as likely, as often ([`AT_SPOT`]) near that feature's anchor as anywhere on it (a
    /// standing figure by its foot, a lying farmer by its middle), and that as often as random
    /// play leaves a figure so on such a tile ([`pose_odds`]). Figures whose middle or foot lies
    /// outside the window are not this tile's (one on the tile below rises into the picture of
    /// this one), unless told standing with the foot inside: its top shows beyond the side it
    /// stands by.
    pub fn log_likelihood(
        &self,
        tile: TileId,
        rot: Rotation,
        x: usize,
        y: usize,
        side: usize,
    ) -> f64 {
        if side == 0 {
            return 0.0;
        }
        let scale = (1.0 - 2.0 * INSET) / side as f64;
        let to_tile = |p: [f64; 2]| {
            [
                (INSET + (p[0] - x as f64) * scale) as f32,
                (INSET + (p[1] - y as f64) * scale) as f32,
            ]
        };
        let ty = catalogue().tile(tile);
        let shape = TileShape::of(tile);
        let cells = (LABEL_RES * LABEL_RES) as f32;
        // The turns the rules cannot tell from `rot` read as one (the city of G turned half
        // round is where it was): a figure on its feature's spot in any of them is as likely.
        let turns: Vec<Rotation> = Rotation::ALL
            .into_iter()
            .filter(|&turn| same_for_the_rules(tile, turn, rot))
            .collect();
        let mut total = 0.0;
        for spot in &self.spots {
            let (centre, foot, lies_at) = (
                to_tile(spot.centre),
                to_tile(spot.foot),
                to_tile(spot.lies_at),
            );
            let inside = |p: [f32; 2]| p.iter().all(|c| (0.0..=1.0).contains(c));
            // A figure told standing may show its top beyond the side it stands by.
            let centre_inside = inside(centre) || spot.lying == Some(false);
            if !centre_inside || !inside(foot) {
                continue;
            }
            let on = |at: [f32; 2], feature: usize, reach: f32| -> f32 {
                let mut hits = 0;
                for dy in -STEPS..=STEPS {
                    for dx in -STEPS..=STEPS {
                        let d = reach / STEPS as f32;
                        let p = [at[0] + dx as f32 * d, at[1] + dy as f32 * d];
                        hits += i32::from(usize::from(label_at(&shape.labels, p, rot)) == feature);
                    }
                }
                hits as f32 / ((2 * STEPS + 1) * (2 * STEPS + 1)) as f32
            };
            // A figure told standing is on no field, one told lying on nothing else.
            let may_be_on = |kind: FeatureKind| {
                spot.lying
                    .is_none_or(|lying| lying == (kind == FeatureKind::Field))
            };
            let possible = ty.features.iter().filter(|f| may_be_on(f.kind)).count();
            let likelihood: f32 = ty
                .features
                .iter()
                .enumerate()
                .filter(|(_, f)| may_be_on(f.kind))
                .map(|(i, f)| {
                    // A monk stands on the cloister's building, which the foot is seen near.
                    let (at, reach) = match f.kind {
                        FeatureKind::Field => (lies_at, REACH),
                        FeatureKind::Cloister => (foot, REACH / 2.0),
                        _ => (foot, REACH),
                    };
                    let area = (shape.labels.area(i as u8) as f32 / cells).max(MIN_AREA);
                    let anchor = shape.features[i].anchor;
                    let near = turns
                        .iter()
                        .map(|&turn| near_spot(at, rotate(anchor, turn)))
                        .sum::<f32>()
                        / turns.len() as f32;
                    (1.0 - AT_SPOT) * on(at, i, reach) / area + AT_SPOT * near
                })
                .sum::<f32>()
                / possible.max(1) as f32;
            let stray = if spot.lying.is_some() {
                STRAY_TOLD
            } else {
                STRAY
            };
            let odds = pose_odds(tile, spot.lying);
            total += (f64::from(likelihood) * odds + stray).ln();
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::super::figures::Spread;
    use super::*;

    /// A figure's blob, not told standing or lying, with its middle at tile point `at` of a
    /// cut with an 8-pixel margin ([`Figures::log_likelihood`]'s window 8, 8, 64).
    fn blob_at(at: [f64; 2]) -> Blob {
        let px = |v: f64| 8.0 + (v - INSET) * 64.0 / (1.0 - 2.0 * INSET);
        Blob {
            colour: 0,
            centroid: [px(at[0]), px(at[1])],
            cut_below: false,
            area: 300,
            spread: None,
        }
    }

    #[test]
    fn a_figure_told_standing_on_a_road_s_end_counts_though_its_top_shows_beyond_the_side() {
        // T turned 180°: city on three sides, its road running north from the gate. A thief on
        // the road by the north side, seen from the south (tops rise 0.45 tile north): its
        // outline's middle shows just beyond the side, its foot well inside (seed 11100
        // board 25).
        let t = catalogue().tile_id("T").unwrap();
        let r = catalogue().tile_id("R").unwrap();
        let rise = [0.0, -0.45];
        // Half again as long north-south as across (its pixels varying by 100 and 44 pixels
        // squared), its narrow head to the north.
        let standing = Spread {
            second: [44.0, 0.0, 100.0],
            third: [0.0, 0.0, 0.0, -0.15 * 100f64.powf(1.5)],
        };
        let blob = Blob {
            spread: Some(standing),
            ..blob_at([0.5, -0.01])
        };
        let figures = Figures::from_blobs(std::slice::from_ref(&blob), rise);
        let on_t = figures.log_likelihood(t, Rotation::R180, 8, 8, 64);
        let on_r = figures.log_likelihood(r, Rotation::R180, 8, 8, 64);
        assert!(on_t > on_r + 1.0, "T {on_t}, R {on_r}");
        // Untold, the figure could be a farmer lying on the tile north of it.
        let untold = Figures::from_blobs(&[blob_at([0.5, -0.01])], rise);
        assert_eq!(
            untold.log_likelihood(t, Rotation::R180, 8, 8, 64),
            untold.log_likelihood(r, Rotation::R180, 8, 8, 64)
        );
    }

    #[test]
    fn a_farmer_seen_at_an_angle_lies_in_the_field_its_blob_reaches_beyond() {
        // R turned north: city on three sides, a narrow field along the south edge. A farmer
        // lying there, seen from the south, shows reaching north into the city: its blob's
        // middle lies just inside the city.
        let r = catalogue().tile_id("R").unwrap();
        let blob = blob_at([0.5, 0.7]);
        let likelihood = |rise| {
            Figures::from_blobs(std::slice::from_ref(&blob), rise).log_likelihood(
                r,
                Rotation::R0,
                8,
                8,
                64,
            )
        };
        let from_above = likelihood([0.0, 0.0]);
        let at_an_angle = likelihood([0.0, -0.5]);
        assert!(
            at_an_angle > from_above + 0.5,
            "from the south {at_an_angle}, from above {from_above}"
        );
    }

    /// A figure told lying (`lying`) or standing, seen from straight above, with its middle
    /// and foot at tile point `at` of the window 8, 8, 64.
    fn told_at(at: [f64; 2], lying: bool) -> Figures {
        let p = blob_at(at).centroid;
        Figures {
            spots: vec![Spot {
                centre: p,
                foot: p,
                lies_at: p,
                lying: Some(lying),
            }],
        }
    }

    #[test]
    fn a_farmer_on_the_spot_of_a_field_beside_a_hidden_road_stub_tells_the_tile() {
        // T: city on three sides, a road stub from the south side to the gate between two
        // small fields; R: the same city above one field along the south side. Lying over
        // the stub, a farmer hides whether it is there; where it lies tells: where T's
        // south-west field is widest, or in the middle of R's field, where T's stub runs.
        let t = catalogue().tile_id("T").unwrap();
        let r = catalogue().tile_id("R").unwrap();
        let farmer = |tile, at| told_at(at, true).log_likelihood(tile, Rotation::R0, 8, 8, 64);
        let beside_the_stub = [0.3, 0.88];
        let (on_t, on_r) = (farmer(t, beside_the_stub), farmer(r, beside_the_stub));
        assert!(on_t > on_r + 1.0, "T {on_t}, R {on_r}");
        let on_the_stub = [0.5, 0.85];
        let (on_t, on_r) = (farmer(t, on_the_stub), farmer(r, on_the_stub));
        assert!(on_r > on_t + 1.0, "T {on_t}, R {on_r}");
    }

    #[test]
    fn a_knight_counts_alike_on_turns_of_a_tile_the_rules_cannot_tell_apart() {
        // G: a city across the middle from the west side to the east; F the same with a
        // shield. Turned half round either is the same tile for the rules (G is read as one
        // reading for both turns): a knight where the city is widest, on either half, is as
        // likely on either turn of G, and of F; and as likely on F as on G but for how often
        // random play leaves a knight on each, alike but for sampling ([`pose_odds`]).
        let f = catalogue().tile_id("F").unwrap();
        let g = catalogue().tile_id("G").unwrap();
        for at in [[0.26, 0.5], [0.74, 0.5]] {
            let knight = |tile, rot| told_at(at, false).log_likelihood(tile, rot, 8, 8, 64);
            for tile in [f, g] {
                let turned = knight(tile, Rotation::R180) - knight(tile, Rotation::R0);
                assert!(turned.abs() < 1e-9, "at {at:?}");
            }
            let (on_f, on_g) = (knight(f, Rotation::R0), knight(g, Rotation::R0));
            assert!((on_f - on_g).abs() < 0.02, "at {at:?}: F {on_f}, G {on_g}");
        }
    }

    #[test]
    fn a_figure_standing_is_likelier_on_a_cloister_than_on_a_straight_road() {
        // A figure standing in the middle of A (a cloister with a road from the south side)
        // is a monk, of U (a straight road north to south) a thief. Cloisters keep their monks
        // far longer than straight roads their thieves (gone as soon as both ends close).
        let tile = |name| catalogue().tile_id(name).unwrap();
        let (a, u) = (
            pose_odds(tile("A"), Some(false)),
            pose_odds(tile("U"), Some(false)),
        );
        assert!(a > 1.3 * u, "A {a}, U {u}");
        // A farmer is never seen on the tile all city, a knight on it more often than on most.
        assert_eq!(pose_odds(tile("C"), Some(true)), 0.0);
        assert!(pose_odds(tile("C"), Some(false)) > 1.0);
    }

    #[test]
    fn the_follower_odds_shipped_agree_with_random_play() {
        let shipped: FollowerOdds = serde_json::from_str(FOLLOWER_ODDS).unwrap();
        assert_eq!(shipped.tileset, "base");
        assert!(shipped.games >= 10_000);
        // Measured afresh from other seeds, over fewer games: every base type's shares lie
        // within sampling noise of the table's (X, one tile a game, varies most: ±0.02).
        let fresh = FollowerOdds::measure("base", 2..=5, 2000, 1_000_003).unwrap();
        let base = catalogue().tiles().iter().filter(|t| t.name.len() == 1);
        for tile in base.map(|t| catalogue().tile_id(&t.name).unwrap()) {
            for (of, name) in [
                (
                    FollowerOdds::on_field as fn(&FollowerOdds, TileId) -> Option<f64>,
                    "field",
                ),
                (FollowerOdds::elsewhere, "elsewhere"),
            ] {
                let (a, b) = (of(&shipped, tile), of(&fresh, tile));
                let close = a.zip(b).is_some_and(|(a, b)| (a - b).abs() < 0.04);
                assert!(
                    close,
                    "{} on {name}: {a:?} shipped, {b:?} afresh",
                    catalogue().tile(tile).name
                );
            }
        }
    }
}

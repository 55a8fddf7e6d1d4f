//! Reading followers: who stands on a tile and on which of its features.

use super::figures::{Blob, Spread};
use super::rectify::{patch_to_tile, INSET, PATCH_PX};
use super::terrain::{label_at, same_for_the_rules};
use crate::geometry::TileShape;
use crate::rules::{catalogue, Dir, FeatureKind, Port, PortSet, Pos, Rotation, TileId};

/// A follower read off a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowerRead {
    /// Index of the enrolled colour (the player).
    pub colour: usize,
    /// A port (board frame) of the feature it stands on.
    pub port: Port,
    /// That feature's kind.
    pub kind: FeatureKind,
    /// Lying (a farmer) rather than standing.
    pub lying: bool,
    /// Where its foot is in the patch (pixels).
    pub foot: [f64; 2],
    /// Where its foot is on the tile (tile sides east and south of its north-west corner).
    pub at: [f32; 2],
    /// A port of another feature the figure is almost as near: where it stands is unsure.
    pub doubt: Option<Port>,
}

/// A figure going on past the bottom of a patch whose middle is this near (in tile sides) the
/// tile's south edge rises from the tile below, if there is one and figures' tops show towards
/// the top of the picture there.
const FROM_BELOW: f32 = 0.15;

/// Where a standing figure's blob has its middle, as a share of the way from its base to where
/// its top shows: under half, a figure being broader at its feet than at its head (fitted with
/// `meeplecam eval vision` on seeds 77 and 2000).
const MIDDLE_OF_THROW: f64 = 0.4;

/// The farthest (tile sides) a figure lying on a field counts as being from the field's spot.
const FIELD_ANYWHERE: f32 = 0.25;

/// How much nearer (in tile sides) a figure must be to one feature's spot than to any other's
/// for its feature to be sure.
const SURE_NEARER: f64 = 0.05;
/// How far (tile sides) from its feature's spot a figure read standing may be a farmer lying in
/// a field instead.
const FAR_FROM_SPOT: f64 = 0.25;
/// How much farther (tile sides) a field's spot may be than the feature such a figure was read
/// on, for the players to be asked.
const FARMER_WITHIN: f64 = 0.2;

/// How far (tile sides) into a cell the foot of a figure standing on a neighbour may seem to
/// be (a figure on a road's end stands further in).
pub const NEIGHBOURS_REACH: f32 = 0.05;

/// Whether a point of a tile (tile sides from its north-west corner) lies beyond the reach of
/// the neighbours' figures.
pub fn well_inside(at: [f32; 2]) -> bool {
    at.iter()
        .all(|&v| (NEIGHBOURS_REACH..=1.0 - NEIGHBOURS_REACH).contains(&v))
}

/// Where (patch pixels) a figure standing where its blob `b` shows has its foot, given how far
/// (tile sides) a standing figure's top shows beyond its base there: a blob reaches from its
/// base to where its top shows, so its base lies some of that throw back from its middle.
pub fn standing_foot(b: &Blob, rise: [f64; 2]) -> [f64; 2] {
    back_from_middle(b, rise, MIDDLE_OF_THROW)
}

/// Where (patch pixels) a figure lying where its blob `b` shows has its middle on the tile,
/// given how far (tile sides) a standing figure's top shows beyond its base there: a lying
/// figure is some 0.45 as tall as a standing one, so its blob reaches that share of the throw
/// beyond where it lies.
pub fn lying_middle(b: &Blob, rise: [f64; 2]) -> [f64; 2] {
    back_from_middle(b, rise, LYING_THROW)
}

/// Blob `b`'s middle moved back, against the way tops rise, by `share` of a standing figure's
/// throw (`rise`, tile sides), in patch pixels.
fn back_from_middle(b: &Blob, rise: [f64; 2], share: f64) -> [f64; 2] {
    let cell = f64::from(PATCH_PX) / (1.0 - 2.0 * INSET);
    [
        b.centroid[0] - rise[0] * cell * share,
        b.centroid[1] - rise[1] * cell * share,
    ]
}

/// How far (share of a standing figure's throw) a lying figure's blob has its middle beyond
/// where it lies.
const LYING_THROW: f64 = 0.2;

/// The least (tile sides) a standing figure's top must show beyond its base for the view to
/// count as oblique ([`OBLIQUE`]) rather than slanted ([`SLANTED`]).
const POSE_RISE: f64 = 0.3;

/// The most (tile sides) a standing figure's top may show beyond its base for the view to count
/// as from straight above ([`OVERHEAD`]): there a standing figure shows only its top, a bar as
/// long as the figure is wide and as broad as it is thick, and a lying one its whole outline.
const OVERHEAD_RISE: f64 = 0.15;

/// Log odds that a figure lies rather than stands, from its outline: a weighted sum of its
/// pixels' skew the way tops rise (a standing figure's narrow head trails its broad base that
/// way), its [`Spread::elongation`], its share of a tile's patch, and the variances of its
/// pixels along the way tops rise and across it (shares of a patch's side squared), also
/// divided by how far tops rise, squared (a standing figure's outline stretches with its
/// throw, a lying one's with how it lies). Fitted (logistic regression, one fit per kind of
/// view) to the figures of `eval vision --generate 30 --seed` 9300, 9400, 9500 and 10200. Told
/// as `told_at` says, `eval vision --dataset` 11100, 11300, 12300 and 12500 (not fitted on):
/// figures told standing 944, 4 of them lying (the odds before these fits: 792, 5); told
/// lying 953, 7 of them standing (854, 6).
///
/// [`Spread::elongation`]: super::figures::Spread::elongation
struct PoseOdds {
    bias: f64,
    skew: f64,
    elongation: f64,
    area: f64,
    along: f64,
    across: f64,
    along_per_rise: f64,
    across_per_rise: f64,
    /// The least log odds at which a figure is told lying, and the least against at which it
    /// is told standing.
    told_at: [f64; 2],
}

impl PoseOdds {
    fn of(&self, spread: &Spread, area: usize, rise: [f64; 2]) -> f64 {
        let patch = f64::from(PATCH_PX * PATCH_PX);
        let [along, across] = spread.variances_along(rise).map(|v| v / patch);
        let rise2 = (rise[0] * rise[0] + rise[1] * rise[1]).max(OVERHEAD_RISE * OVERHEAD_RISE);
        self.bias
            + self.skew * spread.skew_along(rise)
            + self.elongation * spread.elongation()
            + self.area * area as f64 / patch
            + self.along * along
            + self.across * across
            + (self.along_per_rise * along + self.across_per_rise * across) / rise2
    }
}

/// [`PoseOdds`] where tops rise at least [`POSE_RISE`].
const OBLIQUE: PoseOdds = PoseOdds {
    bias: 0.26,
    skew: -44.4,
    elongation: -8.44,
    area: 37.7,
    along: -727.0,
    across: 2649.0,
    along_per_rise: -3.97,
    across_per_rise: -103.5,
    told_at: [POSE_ODDS, POSE_ODDS],
};

/// [`PoseOdds`] where tops rise between [`OVERHEAD_RISE`] and [`POSE_RISE`].
const SLANTED: PoseOdds = PoseOdds {
    bias: -4.50,
    skew: -24.6,
    elongation: -21.0,
    area: -1.23,
    along: 1353.0,
    across: 339.6,
    along_per_rise: 14.57,
    across_per_rise: 16.06,
    told_at: [TOLD_AT_A_SLANT, TOLD_AT_A_SLANT],
};

/// [`PoseOdds`] where tops rise less than [`OVERHEAD_RISE`]: which way they rise hardly shows,
/// so only the outline's elongation, area and whole spread count.
const OVERHEAD: PoseOdds = PoseOdds {
    bias: 43.34,
    skew: 0.0,
    elongation: -46.92,
    area: -86.54,
    along: 1274.0,
    across: 1274.0,
    along_per_rise: 0.0,
    across_per_rise: 0.0,
    told_at: [POSE_ODDS, POSE_ODDS],
};

/// The log odds at which [`PoseOdds`] tells a pose: 19 to 1.
const POSE_ODDS: f64 = 2.94;

/// The log odds at which [`SLANTED`] tells a pose, either way: 55 to 1. Seen at a slant a
/// figure shows little of itself. Told standing at 19 to 1, a farmer lying beside S's road
/// (`eval track --generate 10 --turns 30 --seed 4848 --art DIR`, game 0, odds 22 to 1) was
/// scored as a thief on the road without a question; told lying at 19 to 1, a thief standing
/// on W's road stub (`eval vision --generate 30 --seed 13300`, board 25, odds some 25 to 45 to
/// 1 in the cuts tried) made W's road count against W, read U.
const TOLD_AT_A_SLANT: f64 = 4.0;

/// Whether the figure of blob `b` lies (`Some(true)`), stands (`Some(false)`) or cannot be told
/// (a blob not wholly in the patch, an outline between the two), given how far tops rise there
/// ([`standing_foot`]), by its outline ([`PoseOdds`] of the kind of view).
pub fn pose(b: &Blob, rise: [f64; 2]) -> Option<bool> {
    let spread = b.spread?;
    let rising = rise[0].hypot(rise[1]);
    let kind = match rising {
        r if r < OVERHEAD_RISE => &OVERHEAD,
        r if r < POSE_RISE => &SLANTED,
        _ => &OBLIQUE,
    };
    let odds = kind.of(&spread, b.area, rise);
    if odds >= kind.told_at[0] {
        Some(true)
    } else if odds <= -kind.told_at[1] {
        Some(false)
    } else {
        None
    }
}

/// The cells a figure rising into the picture of cell `pos` from below may stand on: south,
/// south-west and south-east of it.
pub fn cells_below(pos: Pos) -> [Pos; 3] {
    let south = pos.step(Dir::S);
    [south, south.step(Dir::W), south.step(Dir::E)]
}

/// The followers the figure blobs of a cell show, given the tile read there (type, rotation),
/// where in the patch it was found (`margin`, `shift`, as cut and searched), how far, in
/// tile sides, a standing figure's top shows beyond its base there ([`Viewpoint::rise`]) and
/// whether a figure of colour `c` may stand on one of its [`cells_below`] (`from_below(c)`: a
/// figure can rise into the picture only from a tile, and only one of that colour).
///
/// [`Viewpoint::rise`]: super::viewpoint::Viewpoint::rise
pub fn read_followers(
    blobs: &[Blob],
    margin: i32,
    shift: [f64; 2],
    tile: TileId,
    rot: Rotation,
    rise: [f64; 2],
    from_below: &dyn Fn(usize) -> bool,
) -> Vec<FollowerRead> {
    let ty = catalogue().tile(tile);
    let labels = &TileShape::of(tile).labels;
    blobs
        .iter()
        .filter_map(|b| {
            // Figures standing on a neighbouring tile show in the margin, or rise into the
            // picture from the tile below (going on past the patch, their middle low on it):
            // not this tile's. Where tops show downwards (seen from above or behind), a figure
            // going on past the bottom stands on this tile's south edge.
            let centre = patch_to_tile(b.centroid, margin, shift);
            let rising = from_below(b.colour)
                && b.cut_below
                && centre[1] > 1.0 - FROM_BELOW
                && rise[1] <= 0.0;
            // The feature whose follower spot is nearest the figure's foot (players put figures
            // near the middle of a feature; a foot on a border is ambiguous by colour alone).
            // A farmer lies on its field, where its middle is but for its height; any other
            // figure stands, and rises from its foot towards the top of the picture.
            let foot_px = standing_foot(b, rise);
            let foot = patch_to_tile(foot_px, margin, shift);
            let lies_at = patch_to_tile(lying_middle(b, rise), margin, shift);
            // A figure neither lying nor standing on the tile (its middle and its foot beyond
            // it) is a neighbour's.
            let on_tile = |p: [f32; 2]| p.iter().all(|v| (0.0..=1.0).contains(v));
            if !(on_tile(centre) || on_tile(foot)) || rising {
                return None;
            }
            let shape = TileShape::of(tile);
            // A tile the rules cannot tell from itself turned (G, U, …) may lie either way:
            // each feature counts at the nearest of its spots.
            let mut scored: Vec<(f32, FeatureKind, PortSet)> = Vec::new();
            for turn in Rotation::ALL
                .into_iter()
                .filter(|&r| same_for_the_rules(tile, rot, r))
            {
                let on_foot = usize::from(label_at(labels, foot, turn));
                let on_field = usize::from(label_at(labels, lies_at, turn));
                for (i, (f, s)) in ty.features.iter().zip(&shape.features).enumerate() {
                    let lying = f.kind == FeatureKind::Field;
                    let (at, on) = if lying {
                        (lies_at, on_field)
                    } else {
                        (foot, on_foot)
                    };
                    let a = crate::geometry::rotate(s.anchor, turn);
                    let mut d = (a[0] - at[0]).hypot(a[1] - at[1]);
                    // A farmer lies anywhere on its field, not only near the field's spot.
                    if lying && i == on {
                        d = d.min(FIELD_ANYWHERE);
                    }
                    // Standing (or lying) on the feature's own area counts for a little.
                    let d = if i == on { d - 0.08 } else { d };
                    let ports = f.ports.rotated(turn);
                    match scored.iter_mut().find(|(_, _, p)| *p == ports) {
                        Some(seen) => seen.0 = seen.0.min(d),
                        None => scored.push((d, f.kind, ports)),
                    }
                }
            }
            scored.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (best, kind, ports) = *scored.first()?;
            let port = ports.iter().next()?;
            // About as near another feature's spot, or standing far from its own spot with a
            // field's about as near: where it stands is unsure (a farmer lying beside a road
            // can look like a figure standing on it).
            let lying_maybe = kind != FeatureKind::Field && f64::from(best) > FAR_FROM_SPOT;
            // Read on a field (a farmer lies anywhere on it) but told standing by its outline:
            // a figure standing at the edge of a short road beside that field is as likely.
            let told = pose(b, rise);
            let standing_maybe = kind == FeatureKind::Field && told == Some(false);
            let other = scored
                .get(1)
                .filter(|(d, _, _)| f64::from(*d - best) < SURE_NEARER)
                .or_else(|| {
                    scored.iter().find(|(d, k, _)| {
                        (lying_maybe && *k == FeatureKind::Field
                            || standing_maybe && *k != FeatureKind::Field)
                            && f64::from(*d - best) < FARMER_WITHIN
                    })
                })
                .and_then(|&(_, k, ports)| Some((ports.iter().next()?, k)));
            // Torn between a field and a feature one stands on, the figure's outline may tell
            // whether it lies or stands.
            let (port, kind, doubt) = match (other, told) {
                (Some(o), Some(lying))
                    if (kind == FeatureKind::Field) != (o.1 == FeatureKind::Field) =>
                {
                    if (kind == FeatureKind::Field) == lying {
                        (port, kind, None)
                    } else {
                        (o.0, o.1, None)
                    }
                }
                _ => (port, kind, other.map(|o| o.0)),
            };
            Some(FollowerRead {
                colour: b.colour,
                port,
                kind,
                lying: kind == FeatureKind::Field,
                foot: foot_px,
                at: foot,
                doubt,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A red figure lying across the south edge of K turned half round (its city there), seen
    /// almost straight down: its blob goes on past the bottom of the patch.
    fn over_the_south_edge() -> Blob {
        Blob {
            colour: 0,
            centroid: [47.4, 68.6],
            cut_below: true,
            area: 370,
            spread: None,
        }
    }

    #[test]
    fn a_figure_over_the_south_edge_stands_on_this_tile_when_no_tile_lies_below() {
        let k = catalogue().tile_id("K").unwrap();
        let read = read_followers(
            &[over_the_south_edge()],
            8,
            [0.0, 0.0],
            k,
            Rotation::R180,
            [-0.05, -0.05],
            &|_| false,
        );
        assert_eq!(read.len(), 1, "{read:?}");
        assert_eq!(read[0].kind, FeatureKind::City);
        // With a figure of its colour on a tile below, the same blob may be that figure rising
        // into the picture; with one of another colour only, it may not.
        let below = |figure_below: &dyn Fn(usize) -> bool| {
            read_followers(
                &[over_the_south_edge()],
                8,
                [0.0, 0.0],
                k,
                Rotation::R180,
                [-0.05, -0.05],
                figure_below,
            )
        };
        let read = below(&|c| c == over_the_south_edge().colour);
        assert!(read.is_empty(), "{read:?}");
        let read = below(&|c| c != over_the_south_edge().colour);
        assert_eq!(read.len(), 1, "{read:?}");
    }

    #[test]
    fn a_figure_whose_middle_lies_beyond_the_tile_stands_on_it_only_if_its_foot_does() {
        // E (its city along the north side), seen from the south: tops rise north. Figures
        // the patch clipped, their middles as a wider cut showed them whole.
        let e = catalogue().tile_id("E").unwrap();
        let scale = f64::from(PATCH_PX) / (1.0 - 2.0 * INSET);
        let margin = 8;
        let to_patch = |v: f64| f64::from(margin) + (v - INSET) * scale;
        let figure = |at: [f64; 2]| Blob {
            colour: 0,
            centroid: at.map(to_patch),
            cut_below: false,
            area: 300,
            spread: None,
        };
        let rise = [0.0, -0.3];
        let read =
            |b: Blob| read_followers(&[b], margin, [0.0, 0.0], e, Rotation::R0, rise, &|_| false);
        // A knight on the city by the north edge, its top beyond it: its foot is on the tile.
        let knight = read(figure([0.5, -0.04]));
        assert_eq!(knight.len(), 1, "{knight:?}");
        assert_eq!(knight[0].kind, FeatureKind::City);
        // A figure on the tile east, leaning over the edge: neither foot nor middle on this one.
        assert!(read(figure([1.08, 0.6])).is_empty());
    }

    #[test]
    fn a_figure_on_a_tile_the_rules_cannot_tell_from_itself_turned_stands_at_either_spot() {
        // G, a city running across the tile, read at 0° where it lies turned 180°: the same
        // tile for the rules, but its city's spot lies on the other side. A knight standing
        // there (seen from straight above) is on the city, beyond doubt.
        let g = catalogue().tile_id("G").unwrap();
        let city = catalogue()
            .tile(g)
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::City)
            .unwrap();
        let spot = crate::geometry::rotate(TileShape::of(g).features[city].anchor, Rotation::R180);
        let scale = f64::from(PATCH_PX) / (1.0 - 2.0 * INSET);
        let margin = 8;
        let to_patch = |v: f32| f64::from(margin) + (f64::from(v) - INSET) * scale;
        let knight = Blob {
            colour: 0,
            centroid: [to_patch(spot[0]), to_patch(spot[1])],
            cut_below: false,
            area: 300,
            spread: None,
        };
        for read_at in [Rotation::R0, Rotation::R180] {
            let read = read_followers(
                &[knight],
                margin,
                [0.0, 0.0],
                g,
                read_at,
                [0.0, 0.0],
                &|_| false,
            );
            assert_eq!(read.len(), 1, "{read:?}");
            assert_eq!(read[0].kind, FeatureKind::City, "{read_at:?}");
            assert_eq!(read[0].doubt, None, "{read_at:?}: {read:?}");
        }
    }

    /// The one follower read from a red figure of 500 pixels with its middle at `at` (tile
    /// units) in an 8-pixel-margin patch, its outline `spread` (if wholly in view), on `tile`
    /// lying with `rot`, where tops rise `rise`; no tile lies below.
    fn read_one(
        at: [f64; 2],
        spread: Option<Spread>,
        tile: TileId,
        rot: Rotation,
        rise: [f64; 2],
    ) -> FollowerRead {
        let margin = 8;
        let scale = f64::from(PATCH_PX) / (1.0 - 2.0 * INSET);
        let figure = Blob {
            colour: 0,
            centroid: at.map(|v| f64::from(margin) + (v - INSET) * scale),
            cut_below: false,
            area: 500,
            spread,
        };
        let read = read_followers(&[figure], margin, [0.0, 0.0], tile, rot, rise, &|_| false);
        assert_eq!(read.len(), 1, "{read:?}");
        read[0]
    }

    /// A spread whose pixels vary by `along` pixels squared along `dir` and `across` across
    /// it, skewed by `skew` along `dir` and by nothing across it.
    fn outline(dir: [f64; 2], along: f64, across: f64, skew: f64) -> Spread {
        let len = dir[0].hypot(dir[1]);
        let [x, y] = [dir[0] / len, dir[1] / len];
        Spread {
            second: [
                along * x * x + across * y * y,
                (along - across) * x * y,
                along * y * y + across * x * x,
            ],
            third: [x.powi(3), x * x * y, x * y * y, y.powi(3)].map(|v| v * skew * along.powf(1.5)),
        }
    }

    /// A standing figure seen at an angle: a narrow head trailing the way tops rise, the
    /// outline half again as long that way as across (its pixels vary by some 100 and 44
    /// pixels squared, as standing figures seen with tops rising 0.3 tile or more do).
    fn standing_seen_along(rise: [f64; 2]) -> Spread {
        outline(rise, 100.0, 44.0, 0.15)
    }

    /// A lying figure seen at an angle: its broad end the way tops rise, a rounder outline
    /// (some 86 by 49 pixels squared).
    fn lying_seen_along(rise: [f64; 2]) -> Spread {
        outline(rise, 86.0, 49.0, -0.15)
    }

    #[test]
    fn a_figure_between_a_road_s_end_and_a_field_stands_or_lies_as_its_outline_shows() {
        // S at 0°, its road running south from the city; a red farmer seen at a slant where
        // the road meets the field beside it (seed 8642 game 10): standing, its foot would be
        // about as near the road's spot as its middle, lying, is to the field's. Its outline
        // untold, its middle less the throw of a lying figure's height lies in the field.
        let s = catalogue().tile_id("S").unwrap();
        let rise = [0.098, -0.459];
        let read = |spread| read_one([0.7005, 0.7116], spread, s, Rotation::R0, rise);
        let untold = read(None);
        assert_eq!((untold.kind, untold.doubt), (FeatureKind::Field, None));
        // A narrow head trailing the way tops rise: standing, on the road.
        let standing = read(Some(standing_seen_along(rise)));
        assert_eq!((standing.kind, standing.doubt), (FeatureKind::Road, None));
        // The other way: lying, in the field.
        let lying = read(Some(lying_seen_along(rise)));
        assert_eq!((lying.kind, lying.doubt), (FeatureKind::Field, None));
        assert!(lying.lying);
        // Hardly skewed, between the two in length: as if untold.
        assert_eq!(read(Some(outline(rise, 93.0, 46.0, 0.03))), untold);
        // Seen from above, skew tells nothing, but a standing figure shows only its top, a
        // narrow bar, and a lying one its whole, rounder and wider outline.
        let above = [0.02, -0.1];
        let from_above = |spread| read_one([0.7005, 0.7116], spread, s, Rotation::R0, above);
        let bar = from_above(Some(outline([1.0, 0.0], 49.0, 16.0, 0.0)));
        assert_eq!((bar.kind, bar.doubt), (FeatureKind::Road, None));
        let round = from_above(Some(outline([1.0, 0.0], 45.0, 42.0, 0.0)));
        assert_eq!((round.kind, round.doubt), (FeatureKind::Field, None));
        let between = outline([1.0, 0.0], 50.0, 31.0, 0.0);
        assert_eq!(from_above(Some(between)), from_above(None));
    }

    #[test]
    fn a_figure_told_standing_beside_a_short_road_stands_on_it_not_in_the_field() {
        // T turned 90° (its road runs west from the city's gate, a quarter tile long); a knight
        // on the road seen at a slant (seed 4848 game 14): its middle over the field north of
        // the road, its foot at the road's edge, nearer the field than the road's spot.
        let t = catalogue().tile_id("T").unwrap();
        let rise = [-0.1, -0.35];
        let read = |spread| read_one([0.17, 0.28], spread, t, Rotation::R90, rise);
        // Untold, it reads as a farmer in the field its middle lies on.
        let untold = read(None);
        assert_eq!(untold.kind, FeatureKind::Field, "{untold:?}");
        assert!(untold.at[1] < 0.44, "foot off the road: {untold:?}");
        // Told standing by its outline (a narrow head trailing the way tops rise): on the road.
        let standing = read(Some(standing_seen_along(rise)));
        assert_eq!(
            (standing.kind, standing.port, standing.doubt),
            (FeatureKind::Road, "W".parse().unwrap(), None),
            "{standing:?}"
        );
        // Told lying: the farmer it looked like.
        let lying = read(Some(lying_seen_along(rise)));
        assert_eq!(
            (lying.kind, lying.doubt),
            (FeatureKind::Field, None),
            "{lying:?}"
        );
    }

    #[test]
    fn seen_at_a_slight_slant_a_figure_is_told_by_its_outline_where_it_shows_enough() {
        // Figures of `eval vision --generate 30 --seed 10200` board 25, seen with tops rising
        // some 0.23 tile: their blobs as the figure finder measured them.
        let figure = |area, second, third| Blob {
            colour: 0,
            centroid: [40.0, 40.0],
            cut_below: false,
            area,
            spread: Some(Spread { second, third }),
        };
        // Yellow's farmer lying at (0, 1).
        let farmer = figure(742, [54.47, 10.74, 72.61], [-60.31, -16.89, 74.88, 17.60]);
        assert_eq!(pose(&farmer, [-0.028, -0.229]), Some(true));
        // Green's figure standing at (-2, 1): a smaller, squatter outline.
        let standing = figure(471, [49.82, 14.40, 40.37], [27.66, 56.47, 7.32, -31.22]);
        assert_eq!(pose(&standing, [-0.083, -0.229]), Some(false));
        // Blue's farmer lying at (-2, 2), little bigger than a standing figure: not told.
        let small_farmer = figure(590, [41.30, -0.75, 60.83], [24.14, -72.28, -31.13, 85.72]);
        assert_eq!(pose(&small_farmer, [-0.083, -0.201]), None);
        // Blue's figure standing at (-1, 4) of seed 11100's board 16: its outline says standing
        // at about 40 to 1, short of the 55 to 1 a slant asks for ([`TOLD_AT_A_SLANT`]).
        let hardly_standing = figure(405, [43.57, 2.65, 52.80], [-33.45, 34.58, 39.45, -27.49]);
        assert_eq!(pose(&hardly_standing, [0.062, -0.218]), None);
        // Yellow's thief standing on W's west road stub (seed 13300's board 25, one of its
        // cuts): its outline says lying at about 33 to 1, short of the same 55 to 1.
        let hardly_lying = figure(617, [49.09, -2.76, 55.08], [44.88, 31.60, -53.46, 16.81]);
        assert_eq!(pose(&hardly_lying, [-0.056, -0.185]), None);
        // No outline (a blob not wholly in the patch): not told.
        let cut = Blob {
            spread: None,
            ..farmer
        };
        assert_eq!(pose(&cut, [-0.028, -0.229]), None);
    }

    #[test]
    fn figures_rise_from_below_only_from_the_three_cells_south() {
        let cells = cells_below(Pos::new(2, -1));
        assert_eq!(cells, [Pos::new(2, 0), Pos::new(1, 0), Pos::new(3, 0)]);
    }
}

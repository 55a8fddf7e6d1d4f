//! Edge evidence: what a tile shows along each side. Where a road or city meets a side is fixed
//! by the rules (neighbours must match), while the art between the sides is free (wavy roads,
//! houses, trees), so the sides tell types apart in any edition. In a strip just inside each
//! side: a road side shows a road crossing near its middle, a city side city along it, a field
//! side neither.

use super::rectify::INSET;
use super::terrain::{ClassMap, Terrain};
use crate::rules::{catalogue, Dir, EdgeKind, Rotation, TileId};

/// Depth of the strip along each side (tile sides, from the patch's edge inwards).
const DEPTH: f32 = 0.13;
/// Depth of the strip where a city is looked for: a city side is city right up to the side,
/// while an edition may print a city within a tenth of a tile of a field side (the 2nd
/// edition's F). Not thinner: a cut a few pixels off its tile then reads mostly the table (a
/// brown wood as city).
const CITY_DEPTH: f32 = 0.10;
/// Where along a side a city is looked for; the corners are left out since a city on the next
/// side may reach round them.
const CITY_SPAN: (f32, f32) = (0.12, 0.88);
/// Where along a side a road may cross it (print and placement stray from the exact middle),
/// looked at in slices as wide as a thin road.
const ROAD_SPAN: (f32, f32) = (0.26, 0.74);
/// Where along a side a road crosses once its tile is found where it lies: a road there hidden
/// (under a figure) may be missing from what [`ROAD_SPAN`] shows.
const ROAD_MIDDLE: (f32, f32) = (0.38, 0.62);
/// Least seen share of a slice away from [`ROAD_MIDDLE`] for its road share to count: a few
/// pixels beside a figure there (its pale rim) are no road, while a road's own crossing, in the
/// middle, may show in a few pixels beside the figure standing on it.
const SLICE_SEEN: f32 = 0.5;
/// How near (tile sides) the middle of a side a figure's foot must stand for a few pixels
/// beside it there to show a road's crossing ([`SLICE_SEEN`]): a figure standing farther in
/// hides the side only with its body, and its pale rim there is no road.
const FOOT_REACH: f32 = 0.3;
/// Width of a slice of [`ROAD_SPAN`] (tile sides); slices overlap by half.
const ROAD_SLICE: f32 = 0.08;
/// Road share of a slice that counts as a road fully seen, unless the start tile tells.
pub const ROAD_FULL: f32 = 0.5;
/// Least seen share of a strip for it to count (figures hide the rest).
const MIN_SEEN: f32 = 0.3;
/// Floor of a fit, so that one odd side cannot outweigh the rest.
const FLOOR: f64 = 0.05;

/// What the strips along the sides N, E, S, W show.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeEvidence {
    /// Best slice's road share, city share, seen share, and seen share where roads cross
    /// ([`ROAD_MIDDLE`]), of each side.
    sides: [[f32; 4]; 4],
    /// Road share of a slice that counts as a road fully seen.
    road_full: f32,
}

impl EdgeEvidence {
    /// The evidence in the `side`-pixel window at (x, y) of a class map (the window showing the
    /// tile less [`INSET`] on every side).
    pub fn observe(map: &ClassMap, x: usize, y: usize, side: usize) -> EdgeEvidence {
        Self::observe_beside(map, x, y, side, None)
    }

    /// [`Self::observe`], given where the figures that may stand in the picture have their feet
    /// (patch pixels), if known: a road's crossing counts as seen in a few pixels beside a
    /// figure only by the side that figure stands at ([`FOOT_REACH`]).
    pub fn observe_beside(
        map: &ClassMap,
        x: usize,
        y: usize,
        side: usize,
        feet: Option<&[[f64; 2]]>,
    ) -> EdgeEvidence {
        let px = |u: f32| -> usize {
            let t = (u - INSET as f32) / (1.0 - 2.0 * INSET as f32);
            (t.clamp(0.0, 1.0) * side as f32).round() as usize
        };
        // Terrain counts in the strip along `dir` from `a` to `b` along the side.
        let strip_to = |depth: f32, dir: Dir, a: f32, b: f32| -> [f32; 6] {
            let (near, far) = (INSET as f32, INSET as f32 + depth);
            let r = match dir {
                Dir::N => (a, near, b, far),
                Dir::S => (a, 1.0 - far, b, 1.0 - near),
                Dir::E => (1.0 - far, a, 1.0 - near, b),
                Dir::W => (near, a, far, b),
            };
            let (x0, y0, x1, y1) = (x + px(r.0), y + px(r.1), x + px(r.2), y + px(r.3));
            map.counts(x0, y0, x1, y1).map(|n| n as f32)
        };
        let strip = |dir: Dir, a: f32, b: f32| strip_to(DEPTH, dir, a, b);
        // Whether a figure's foot stands by the middle of the side `dir`, if feet are known.
        let foot_by = |dir: Dir| {
            let Some(feet) = feet else {
                return true;
            };
            let (mid, edge) = (0.5, INSET as f32);
            let at = match dir {
                Dir::N => [mid, edge],
                Dir::S => [mid, 1.0 - edge],
                Dir::E => [1.0 - edge, mid],
                Dir::W => [edge, mid],
            };
            let scale = (1.0 - 2.0 * INSET) / side.max(1) as f64;
            feet.iter().any(|p| {
                let u = (INSET + (p[0] - x as f64) * scale) as f32;
                let v = (INSET + (p[1] - y as f64) * scale) as f32;
                (u - at[0]).hypot(v - at[1]) <= FOOT_REACH
            })
        };
        let seen_of = |n: &[f32; 6]| n[..5].iter().sum::<f32>();
        let mut sides = [[0.0f32; 4]; 4];
        for (d, &dir) in Dir::ALL.iter().enumerate() {
            let beside_foot = foot_by(dir);
            let whole = strip(dir, CITY_SPAN.0, CITY_SPAN.1);
            let seen = seen_of(&whole);
            let outer = strip_to(CITY_DEPTH, dir, CITY_SPAN.0, CITY_SPAN.1);
            let city = (outer[Terrain::City.index()] + outer[Terrain::Shield.index()])
                / seen_of(&outer).max(1.0);
            let slices = ((ROAD_SPAN.1 - ROAD_SPAN.0 - ROAD_SLICE) / (ROAD_SLICE / 2.0)).round();
            let road = (0..=slices as usize)
                .map(|k| {
                    let a = ROAD_SPAN.0 + k as f32 * ROAD_SLICE / 2.0;
                    let n = strip(dir, a, a + ROAD_SLICE);
                    let seen = seen_of(&n);
                    let crossing_beside_figure =
                        beside_foot && a >= ROAD_MIDDLE.0 && a + ROAD_SLICE <= ROAD_MIDDLE.1;
                    if seen < SLICE_SEEN * n[5] && !crossing_beside_figure {
                        return 0.0;
                    }
                    n[Terrain::Road.index()] / seen.max(1.0)
                })
                .fold(0.0f32, f32::max);
            let middle = strip(dir, ROAD_MIDDLE.0, ROAD_MIDDLE.1);
            sides[d] = [
                road,
                city,
                seen / whole[5].max(1.0),
                seen_of(&middle) / middle[5].max(1.0),
            ];
        }
        EdgeEvidence {
            sides,
            road_full: ROAD_FULL,
        }
    }

    /// This evidence with a road counting as fully seen where it covers `share` of a slice (as
    /// thin as the start tile's roads are printed).
    pub fn with_road_full(mut self, share: f32) -> EdgeEvidence {
        self.road_full = share.clamp(0.05, 1.0);
        self
    }

    /// The road share of the best slice of each side, N, E, S, W.
    pub fn road_shares(&self) -> [f32; 4] {
        self.sides.map(|s| s[0])
    }

    /// Log-likelihood of this evidence if the tile's sides N, E, S, W are `edges` (0 for a
    /// perfect match): each seen side scores one minus how far its road and city presence lie
    /// from what the tile's edge there calls for.
    pub fn log_likelihood(&self, edges: &[EdgeKind; 4]) -> f64 {
        let mut total = 0.0;
        for (&kind, &[road, city, seen, span_seen]) in edges.iter().zip(&self.sides) {
            if kind == EdgeKind::River || seen < MIN_SEEN {
                continue;
            }
            // A road missing where a figure hides its crossing is no evidence against it.
            let fit = |have: f32, want: bool, visible: f32| {
                let miss = if want { (1.0 - have) * visible } else { have };
                (1.0 - f64::from(miss)).max(FLOOR).ln()
            };
            let road = (road / self.road_full).min(1.0);
            total += fit(road, kind == EdgeKind::Road, span_seen)
                + fit(city, kind == EdgeKind::City, 1.0);
        }
        total
    }
}

/// The sides N, E, S, W of `tile` lying with `rot`.
pub fn edge_kinds(tile: TileId, rot: Rotation) -> [EdgeKind; 4] {
    let ty = catalogue().tile(tile);
    Dir::ALL.map(|d| ty.edge(d, rot))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::colours::ColourModel;
    use opencv::core::{Mat, Scalar, CV_8UC1, CV_8UC3};
    use opencv::prelude::*;

    /// A 100-pixel field tile whose north side a figure covers (255 in the mask) from `figure`
    /// pixels along, a quarter of a tile deep, with a pale rim of road colour four pixels wide
    /// just west of it: the evidence of its sides.
    fn figure_with_a_pale_rim(figure: std::ops::Range<i32>) -> EdgeEvidence {
        let model = ColourModel::default();
        let colour = |t: Terrain| {
            let [b, g, r] = model.means()[t.index()].map(f64::from);
            Scalar::new(b, g, r, 0.0)
        };
        let mut patch =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC3, colour(Terrain::Field)).unwrap();
        let mut mask =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC1, Scalar::all(0.0)).unwrap();
        let road = model.means()[Terrain::Road.index()].map(|c| c as u8);
        for y in 0..25 {
            for x in figure.start - 4..figure.end {
                if x < figure.start {
                    *patch.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() = road.into();
                } else {
                    *mask.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let map = ClassMap::new(&patch, &model, Some(&mask)).unwrap();
        EdgeEvidence::observe(&map, 0, 0, 100)
    }

    #[test]
    fn a_pale_rim_beside_a_figure_away_from_the_middle_of_a_side_is_no_road() {
        let road_north = [
            EdgeKind::Road,
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Field,
        ];
        // The figure hides the middle of the side, its rim lies a quarter of the way along:
        // where no road crosses a side.
        let evidence = figure_with_a_pale_rim(28..70);
        assert_eq!(evidence.road_shares()[0], 0.0);
        assert!(
            evidence.log_likelihood(&[EdgeKind::Field; 4]) >= evidence.log_likelihood(&road_north)
        );
        // The same few pixels in the middle of the side, beside a figure standing on a road
        // there, show the road's crossing.
        let evidence = figure_with_a_pale_rim(41..76);
        assert!(
            evidence.road_shares()[0] > 0.5,
            "{:?}",
            evidence.road_shares()
        );
        assert!(
            evidence.log_likelihood(&road_north)
                > evidence.log_likelihood(&[EdgeKind::Field; 4]) + 1.0
        );
    }

    #[test]
    fn a_pale_rim_in_the_middle_of_a_side_is_a_road_only_beside_a_figure_standing_there() {
        // A 100-pixel field tile; a figure's body covers the middle of the north side from
        // 35 to 70 pixels along, 4 to 25 deep, and its pale rim, of road colour, shows in the
        // 4 pixels between it and the side (9500 board 27: a blue figure standing on a road
        // across the tile, its rim read as a road crossing the north side, U as W at 0.999).
        let model = ColourModel::default();
        let [b, g, r] = model.means()[Terrain::Field.index()].map(f64::from);
        let mut patch =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC3, Scalar::new(b, g, r, 0.0)).unwrap();
        let mut mask =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC1, Scalar::all(0.0)).unwrap();
        let road = model.means()[Terrain::Road.index()].map(|c| c as u8);
        for y in 0..25 {
            for x in 35..70 {
                if y < 4 {
                    *patch.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() = road.into();
                } else {
                    *mask.at_2d_mut::<u8>(y, x).unwrap() = 255;
                }
            }
        }
        let map = ClassMap::new(&patch, &model, Some(&mask)).unwrap();
        let evidence =
            |feet: Option<&[[f64; 2]]>| EdgeEvidence::observe_beside(&map, 0, 0, 100, feet);
        let road_north = [
            EdgeKind::Road,
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Field,
        ];
        let road_over_field = |e: &EdgeEvidence| {
            e.log_likelihood(&road_north) - e.log_likelihood(&[EdgeKind::Field; 4])
        };
        // A thief standing on the road where it crosses the side, its foot by the side, or
        // feet not known: the pixels beside it show the crossing.
        for feet in [Some(&[[52.0, 22.0]][..]), None] {
            let e = evidence(feet);
            assert!(e.road_shares()[0] > 0.5, "{feet:?}");
            assert!(road_over_field(&e) > 1.0, "{feet:?}");
        }
        // The figure stands in the middle of the tile, or lies: its rim is no road.
        for feet in [&[[52.0, 60.0]][..], &[]] {
            let e = evidence(Some(feet));
            assert!(e.road_shares()[0] < 0.2, "{feet:?}");
            assert!(road_over_field(&e) < 0.1, "{feet:?}");
        }
    }

    #[test]
    fn a_road_whose_crossing_a_figure_hides_is_no_evidence_against_a_road_side() {
        // A field tile, 100 pixels, whose west side a figure covers from 0.3 to 0.7 of the way
        // along and a quarter of a tile deep: the flanks of the side show field either side.
        let model = ColourModel::default();
        let [b, g, r] = model.means()[Terrain::Field.index()].map(f64::from);
        let patch =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC3, Scalar::new(b, g, r, 0.0)).unwrap();
        let mut figure =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC1, Scalar::all(0.0)).unwrap();
        for y in 30..70 {
            for x in 0..25 {
                *figure.at_2d_mut::<u8>(y, x).unwrap() = 255;
            }
        }
        let map = ClassMap::new(&patch, &model, Some(&figure)).unwrap();
        let evidence = EdgeEvidence::observe(&map, 0, 0, 100);
        let field = evidence.log_likelihood(&[EdgeKind::Field; 4]);
        let road_west = evidence.log_likelihood(&[
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Road,
        ]);
        assert!(road_west > field - 0.1, "road {road_west}, field {field}");
        // Uncovered, the same side shows that no road crosses it.
        let bare = ClassMap::new(&patch, &model, None).unwrap();
        let evidence = EdgeEvidence::observe(&bare, 0, 0, 100);
        let road_west = evidence.log_likelihood(&[
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Road,
        ]);
        assert!(road_west < evidence.log_likelihood(&[EdgeKind::Field; 4]) - 1.0);
    }
}

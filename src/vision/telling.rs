//! What tells a tile from the other types, and whether figures hide all of it. A single picture
//! cannot tell a tile from a look-alike it differs from only under a figure — a shield under a
//! knight, a road stub under a lying farmer — unless a neighbour's side tells. For evaluation:
//! the boards no reader could be sure to read wholly right.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use opencv::core::{Mat, Rect, Size};
use opencv::imgproc;
use opencv::prelude::*;

use super::rectify::INSET;
use super::terrain::{expected_grid, same_for_the_rules, TerrainGrid, GRID};
use crate::geometry::TileShape;
use crate::rules::{catalogue, Attr, Dir, Rotation, TileId, TileSet};

/// Share of the square around a shield's spot a figure must cover to hide the shield wholly.
const HIDDEN: f64 = 0.9;
/// Half the side of the square around a shield's spot (tile sides).
const SHIELD_HALF: f32 = 0.06;
/// The most terrain difference left in view (grid cells' worth, of [`GRID`]²) for two readings
/// to count as told apart by nothing.
const IN_VIEW: f32 = 1.0;

/// Whether the `figures` mask (255 where a figure covers it) of a cell patch cut with `margin`
/// covers a shield of `tile` lying with `rot` (at the catalogue's spot, where the rendered
/// boards print it) wholly.
pub fn shield_under_figure(
    figures: &Mat,
    margin: usize,
    tile: TileId,
    rot: Rotation,
) -> opencv::Result<bool> {
    let side = (figures.cols().min(figures.rows()) as usize).saturating_sub(2 * margin);
    let px = |u: f32| margin as f64 + (f64::from(u) - INSET) / (1.0 - 2.0 * INSET) * side as f64;
    for &spot in &TileShape::of(tile).pennants {
        let [u, v] = crate::geometry::rotate(spot, rot);
        let (x0, x1) = (
            px(u - SHIELD_HALF).round() as i32,
            px(u + SHIELD_HALF).round() as i32,
        );
        let (y0, y1) = (
            px(v - SHIELD_HALF).round() as i32,
            px(v + SHIELD_HALF).round() as i32,
        );
        let (mut all, mut covered) = (0usize, 0usize);
        for y in y0.max(0)..y1.min(figures.rows()) {
            for x in x0.max(0)..x1.min(figures.cols()) {
                all += 1;
                covered += usize::from(*figures.at_2d::<u8>(y, x)? > 0);
            }
        }
        if all > 0 && covered as f64 >= HIDDEN * all as f64 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The readings of `set` that `tile` lying with `rot` differs from only under `figures` (a
/// figure mask of a cell patch cut with `margin`): in terrain no more than [`IN_VIEW`] in view,
/// in shields only where a figure hides them wholly, and in no side where the board holds a
/// neighbour (`neighbours`: whether one lies north, east, south, west) whose side would tell.
pub fn look_alikes_under_figure(
    figures: &Mat,
    margin: usize,
    (tile, rot): (TileId, Rotation),
    set: &TileSet,
    neighbours: [bool; 4],
) -> opencv::Result<Vec<(TileId, Rotation)>> {
    let mut alike = Vec::new();
    if opencv::core::count_non_zero(figures)? == 0 {
        return Ok(alike);
    }
    let cover = coverage(figures, margin)?;
    let truth = grid(tile, rot);
    let cat = catalogue();
    let shields = |t: TileId| cat.tile(t).count(Attr::Pennant);
    for &(other, _) in &set.counts {
        for r in Rotation::ALL {
            if other == tile && same_for_the_rules(tile, r, rot) {
                continue;
            }
            let sides_tell = Dir::ALL.iter().zip(neighbours).any(|(&d, there)| {
                there && cat.tile(tile).edge(d, rot) != cat.tile(other).edge(d, r)
            });
            if sides_tell {
                continue;
            }
            let look = grid(other, r);
            let (mut apart, mut in_view) = (0.0f32, 0.0f32);
            for ((a, b), c) in truth.iter().zip(look.iter()).zip(&cover) {
                let d = a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() / 2.0;
                apart += d;
                in_view += d * (1.0 - c);
            }
            if in_view > IN_VIEW {
                continue;
            }
            // Alike in view; told apart at all (by terrain, or by a shield that is hidden)?
            let all_hidden = match shields(tile).cmp(&shields(other)) {
                std::cmp::Ordering::Equal => apart > 0.0,
                std::cmp::Ordering::Greater => shield_under_figure(figures, margin, tile, rot)?,
                std::cmp::Ordering::Less => shield_under_figure(figures, margin, other, r)?,
            };
            if all_hidden {
                alike.push((other, r));
            }
        }
    }
    Ok(alike)
}

/// Share of each cell of the [`GRID`]×[`GRID`] grid over the patch's middle (inside `margin`)
/// that `figures` covers.
fn coverage(figures: &Mat, margin: usize) -> opencv::Result<Vec<f32>> {
    let side = (figures.cols().min(figures.rows()) as usize).saturating_sub(2 * margin);
    if side < GRID {
        return Ok(vec![0.0; GRID * GRID]);
    }
    let window = Mat::roi(
        figures,
        Rect::new(margin as i32, margin as i32, side as i32, side as i32),
    )?;
    let mut small = Mat::default();
    imgproc::resize(
        &window,
        &mut small,
        Size::new(GRID as i32, GRID as i32),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )?;
    Ok(small
        .data_bytes()?
        .iter()
        .map(|&v| f32::from(v) / 255.0)
        .collect())
}

/// [`expected_grid`], made once per type and rotation.
fn grid(tile: TileId, rot: Rotation) -> Arc<TerrainGrid> {
    type Grids = Mutex<HashMap<(TileId, Rotation), Arc<TerrainGrid>>>;
    static GRIDS: OnceLock<Grids> = OnceLock::new();
    let grids = GRIDS.get_or_init(Default::default);
    let mut grids = grids.lock().unwrap_or_else(|e| e.into_inner());
    grids
        .entry((tile, rot))
        .or_insert_with(|| Arc::new(expected_grid(tile, rot)))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, CV_8UC1};

    const MARGIN: usize = 8;
    const SIDE: i32 = 64;

    /// A figure mask of a cell patch with the tile points from `a` to `b` (x, y) covered.
    fn mask_over(a: [f64; 2], b: [f64; 2]) -> Mat {
        let n = SIDE + 2 * MARGIN as i32;
        let mut m = Mat::new_rows_cols_with_default(n, n, CV_8UC1, Scalar::all(0.0)).unwrap();
        let px = |u: f64| (MARGIN as f64 + (u - INSET) / (1.0 - 2.0 * INSET) * SIDE as f64) as i32;
        imgproc::rectangle(
            &mut m,
            Rect::new(px(a[0]), px(a[1]), px(b[0]) - px(a[0]), px(b[1]) - px(a[1])),
            Scalar::all(255.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        m
    }

    fn id(name: &str) -> TileId {
        catalogue().tile_id(name).unwrap()
    }

    fn base() -> &'static TileSet {
        catalogue().set("base").unwrap()
    }

    #[test]
    fn a_road_stub_under_a_figure_hides_what_tells_t_from_r() {
        // T: city north, east and west, its road running from the gate to the south side. A
        // farmer lying over the road leaves it looking like R.
        let farmer = mask_over([0.3, 0.55], [0.7, 1.0]);
        let alike =
            look_alikes_under_figure(&farmer, MARGIN, (id("T"), Rotation::R0), base(), [false; 4])
                .unwrap();
        assert_eq!(alike, vec![(id("R"), Rotation::R0)]);
        // A neighbour south would show the road arriving: the rules tell.
        let told = look_alikes_under_figure(
            &farmer,
            MARGIN,
            (id("T"), Rotation::R0),
            base(),
            [false, false, true, false],
        )
        .unwrap();
        assert!(told.is_empty(), "{told:?}");
    }

    #[test]
    fn a_figure_off_everything_that_tells_hides_nothing() {
        // The same farmer over T's city instead: the road shows.
        let figure = mask_over([0.3, 0.0], [0.7, 0.3]);
        let alike =
            look_alikes_under_figure(&figure, MARGIN, (id("T"), Rotation::R0), base(), [false; 4])
                .unwrap();
        assert!(alike.is_empty(), "{alike:?}");
        let n = SIDE + 2 * MARGIN as i32;
        let bare = Mat::new_rows_cols_with_default(n, n, CV_8UC1, Scalar::all(0.0)).unwrap();
        assert_eq!(
            look_alikes_under_figure(&bare, MARGIN, (id("T"), Rotation::R0), base(), [false; 4])
                .unwrap(),
            vec![]
        );
    }

    #[test]
    fn a_shield_under_a_figure_hides_what_tells_o_from_p() {
        let o = id("O");
        let spot = TileShape::of(o).pennants[0];
        let (u, v) = (f64::from(spot[0]), f64::from(spot[1]));
        let knight = mask_over([u - 0.1, v - 0.1], [u + 0.1, v + 0.1]);
        let alike =
            look_alikes_under_figure(&knight, MARGIN, (o, Rotation::R0), base(), [false; 4])
                .unwrap();
        assert_eq!(alike, vec![(id("P"), Rotation::R0)]);
        // And the other way round: P's empty spot under the knight could hold O's shield.
        let alike =
            look_alikes_under_figure(&knight, MARGIN, (id("P"), Rotation::R0), base(), [false; 4])
                .unwrap();
        assert_eq!(alike, vec![(o, Rotation::R0)]);
    }

    #[test]
    fn a_shield_counts_as_hidden_only_where_a_figure_covers_its_spot() {
        use crate::vision::rectify::{MARGIN_PX, PATCH_PX};
        use opencv::core::{Rect, Scalar, CV_8UC1};
        let cat = catalogue();
        let (m, n) = (cat.tile_id("M").unwrap(), cat.tile_id("N").unwrap());
        let margin = MARGIN_PX as usize;
        let px = (PATCH_PX + 2 * MARGIN_PX) as usize;
        let blank =
            || Mat::new_rows_cols_with_default(px as i32, px as i32, CV_8UC1, Scalar::all(0.0));
        // A figure over M's shield, wherever the shield lies after turning.
        for rot in Rotation::ALL {
            let [u, v] = crate::geometry::rotate(TileShape::of(m).pennants[0], rot);
            let at = |w: f32| {
                (margin as f64 + (f64::from(w) - INSET) / (1.0 - 2.0 * INSET) * PATCH_PX as f64)
                    as i32
            };
            let mut covered = blank().unwrap();
            let figure = Rect::new(at(u) - 8, at(v) - 8, 16, 16);
            Mat::roi_mut(&mut covered, figure)
                .unwrap()
                .set_to(&Scalar::all(255.0), &opencv::core::no_array())
                .unwrap();
            assert!(
                shield_under_figure(&covered, margin, m, rot).unwrap(),
                "{rot:?}"
            );
            // N has no shield to hide; an empty mask hides none.
            assert!(!shield_under_figure(&covered, margin, n, rot).unwrap());
            assert!(!shield_under_figure(&blank().unwrap(), margin, m, rot).unwrap());
        }
        // A figure in the opposite corner from the shield does not hide it.
        let [u, v] = TileShape::of(m).pennants[0];
        let mut elsewhere = blank().unwrap();
        let far = |w: f32| {
            if w < 0.5 {
                px as i32 - margin as i32 - 20
            } else {
                margin as i32 + 4
            }
        };
        Mat::roi_mut(&mut elsewhere, Rect::new(far(u), far(v), 16, 16))
            .unwrap()
            .set_to(&Scalar::all(255.0), &opencv::core::no_array())
            .unwrap();
        assert!(!shield_under_figure(&elsewhere, margin, m, Rotation::R0).unwrap());
    }
}

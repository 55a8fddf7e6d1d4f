//! What changed in a cell between two looks: its middle, its colours (a shadow or the light
//! drifting is no change) and its texture.

use opencv::core::Mat;
use opencv::prelude::*;

use crate::vision::rectify::{side_px, Quad, MARGIN_PX};

/// How many times a cell's texture must grow or shrink for a tile as much like the table as
/// a city on brown wood (see [`texture_changed`]).
const TEXTURE_CHANGE: f64 = 2.0;
/// Share of a cell's side, all round, left out when its texture on a plain table is compared
/// (where off-grid neighbours reach in): the middle half is compared.
const RIM: f64 = 0.25;
/// The texture (mean grey gradient, [`texture_changed`]) of a cell's middle half below which
/// the table is plain: a wooden table shows about 10, a checked cloth 30 to 90 (seed 2900
/// game 5).
const PLAIN_TEXTURE: f64 = 20.0;
/// Most change of brightness between two looks of a cell put down to the light.
pub(super) const LIGHT_DRIFT: f64 = 1.15;
/// How much darker (each channel's share of what it was) a shadow leaves a pixel.
const SHADE: (f64, f64) = (0.25, 0.9);
/// How far apart the channels' shares may be in a shadow (it keeps the colour).
const SHADE_SPREAD: f64 = 0.2;
/// The least a channel must have been for its share to count (a dark channel's is noise).
const SHADE_FROM: u8 = 25;

/// The least mean change (grey levels, in the motion gating's reduced picture) over the middle
/// of a cell for something to have come there.
const CELL_CHANGED_LEVEL: f64 = 8.0;

/// Whether the middle half of the cell at `quad` (pixels of a picture `width` wide) differs
/// between two reduced grey pictures, `then` and `now`, by [`CELL_CHANGED_LEVEL`] on average.
pub(super) fn cell_changed(then: &Mat, now: &Mat, quad: &Quad, width: i32) -> opencv::Result<bool> {
    if then.size()? != now.size()? || now.cols() < 2 || now.rows() < 2 {
        return Ok(true);
    }
    let scale = f64::from(now.cols()) / f64::from(width.max(1));
    let centre = [0, 1].map(|k| quad.iter().map(|p| p[k]).sum::<f64>() / 4.0 * scale);
    let half = (side_px(quad) * scale / 4.0).max(1.0);
    let span = |c: f64, len: i32| {
        let lo = ((c - half).floor() as i32).clamp(0, len - 1);
        (lo, ((c + half).ceil() as i32).clamp(lo + 1, len) - lo)
    };
    let (x, w) = span(centre[0], now.cols());
    let (y, h) = span(centre[1], now.rows());
    let rect = opencv::core::Rect::new(x, y, w, h);
    let mut diff = Mat::default();
    opencv::core::absdiff(&Mat::roi(then, rect)?, &Mat::roi(now, rect)?, &mut diff)?;
    Ok(opencv::core::mean(&diff, &opencv::core::no_array())?[0] >= CELL_CHANGED_LEVEL)
}

/// The middle of a cell patch (without its margin).
pub(super) fn cell_middle(patch: &Mat) -> opencv::Result<Mat> {
    cell_middle_shifted(patch, (0, 0))
}

/// The ways a cell's middle may line up with another cut of the cell a few pixels off (a tile
/// held above its cell before it was dropped, a bumped camera followed to a pixel or two): as
/// cut first, then every shift (x, y) within [`MARGIN_PX`], two pixels apart.
pub(super) fn alignments() -> impl Iterator<Item = (i32, i32)> {
    let shifts = (-MARGIN_PX..=MARGIN_PX).step_by(2);
    std::iter::once((0, 0)).chain(
        shifts
            .clone()
            .flat_map(move |dy| shifts.clone().map(move |dx| (dx, dy))),
    )
}

/// The middle of a cell's patch (cut with [`MARGIN_PX`] around it), moved by `shift` pixels.
pub(super) fn cell_middle_shifted(patch: &Mat, (dx, dy): (i32, i32)) -> opencv::Result<Mat> {
    let side = patch.cols() - 2 * MARGIN_PX;
    let window = opencv::core::Rect::new(MARGIN_PX + dx, MARGIN_PX + dy, side, side);
    Mat::roi(patch, window)?.try_clone()
}

/// Share of pixels whose colour changed (summed over channels) by more than 45 between two
/// looks, once a little change of light is evened out (`now` scaled towards `before`'s mean
/// brightness by at most [`LIGHT_DRIFT`]: the room getting darker is not a new tile, a bright
/// tile on a dark cloth still is).
pub(super) fn changed_share(before: &Mat, now: &Mat) -> opencv::Result<f64> {
    changed_share_outside(before, now, None, None)
}

/// [`changed_share`] over the pixels not marked (non-zero) in `hidden`, if given (same size);
/// where `shaded` marks them (same size), a pixel only darker than it was, its colour kept, is
/// a shadow fallen on it, no change.
pub(super) fn changed_share_outside(
    before: &Mat,
    now: &Mat,
    hidden: Option<&Mat>,
    shaded: Option<&Mat>,
) -> opencv::Result<f64> {
    let (a, b) = (before.try_clone()?, now.try_clone()?);
    let (a, b) = (a.data_bytes()?, b.data_bytes()?);
    let marks = |m: Option<&Mat>| -> opencv::Result<Vec<u8>> {
        Ok(match m {
            Some(m) => m.try_clone()?.data_bytes()?.to_vec(),
            None => vec![0; a.len() / 3],
        })
    };
    let (hidden, shaded) = (marks(hidden)?, marks(shaded)?);
    let shown = |px: &[u8]| -> Vec<([u8; 3], bool)> {
        px.chunks_exact(3)
            .zip(hidden.iter().zip(&shaded))
            .filter(|(_, (&h, _))| h == 0)
            .map(|(p, (_, &s))| ([p[0], p[1], p[2]], s != 0))
            .collect()
    };
    let (a, b) = (shown(a), shown(b));
    let mean = |px: &[([u8; 3], bool)]| {
        px.iter()
            .flat_map(|(p, _)| p)
            .map(|&v| f64::from(v))
            .sum::<f64>()
            / (3 * px.len()).max(1) as f64
    };
    let gain = (mean(&a) / mean(&b).max(1.0)).clamp(1.0 / LIGHT_DRIFT, LIGHT_DRIFT);
    let changed = a
        .iter()
        .zip(&b)
        .filter(|((p, _), (q, shade))| {
            let q = q.map(|v| f64::from(v) * gain);
            (0..3).map(|c| (f64::from(p[c]) - q[c]).abs()).sum::<f64>() > 45.0
                && !(*shade && shadow_on(*p, q))
        })
        .count();
    Ok(changed as f64 / a.len().max(1) as f64)
}

/// Whether a pixel `now` (blue, green, red) is pixel `before` in a shadow: every channel
/// darker by about the same factor, [`SHADE`].
fn shadow_on(before: [u8; 3], now: [f64; 3]) -> bool {
    let ratios: Vec<f64> = (0..3)
        .filter(|&c| before[c] >= SHADE_FROM)
        .map(|c| now[c] / f64::from(before[c]))
        .collect();
    let lo = ratios.iter().copied().fold(f64::MAX, f64::min);
    let hi = ratios.iter().copied().fold(f64::MIN, f64::max);
    !ratios.is_empty() && SHADE.0 <= lo && hi <= SHADE.1 && hi - lo <= SHADE_SPREAD
}

/// Mean grey level and mean grey gradient of a cell's look.
fn grey_and_texture(look: &Mat) -> opencv::Result<(f64, f64)> {
    let mut grey = Mat::default();
    opencv::imgproc::cvt_color(look, &mut grey, opencv::imgproc::COLOR_BGR2GRAY, 0)?;
    let mut texture = 0.0;
    for (dx, dy) in [(1, 0), (0, 1)] {
        let (mut d, mut abs) = (Mat::default(), Mat::default());
        opencv::imgproc::sobel(
            &grey,
            &mut d,
            opencv::core::CV_16S,
            dx,
            dy,
            3,
            1.0,
            0.0,
            opencv::core::BORDER_REPLICATE,
        )?;
        opencv::core::convert_scale_abs(&d, &mut abs, 1.0, 0.0)?;
        texture += opencv::core::mean(&abs, &opencv::core::no_array())?[0];
    }
    let level = opencv::core::mean(&grey, &opencv::core::no_array())?[0];
    Ok((level, texture))
}

/// Whether the texture of a cell changed between two looks: its mean grey gradient, once the
/// light is evened out, grew or shrank [`TEXTURE_CHANGE`] times or more. A shadow or the light
/// scales a cell's texture with its brightness; a tile printed much like the table (a city on
/// brown wood) brings its own, all over the cell. On a plain table (its middle's texture below
/// [`PLAIN_TEXTURE`]) only the middle half of the cell is compared: a neighbour laid off its
/// own cell, or a cell predicted a little off, brings its print's texture into the rim, and that
/// alone can double a plain table's (`eval track --art` with the 2nd edition's art: empty cells
/// taken for new tiles, 1212 game 8 on a dark table, 4848 game 13 on wood). A patterned cloth
/// is compared whole: over half a cell, its checks vary too much.
pub(super) fn texture_changed(before: &Mat, now: &Mat) -> opencv::Result<bool> {
    let (mut level_a, mut texture_a) = grey_and_texture(&inner(before)?)?;
    let (mut level_b, mut texture_b) = grey_and_texture(&inner(now)?)?;
    if texture_a >= PLAIN_TEXTURE {
        (level_a, texture_a) = grey_and_texture(before)?;
        (level_b, texture_b) = grey_and_texture(now)?;
    }
    let gain = level_a.max(1.0) / level_b.max(1.0);
    let ratio = (texture_b * gain + 1.0) / (texture_a + 1.0);
    Ok(!(1.0 / TEXTURE_CHANGE..=TEXTURE_CHANGE).contains(&ratio))
}

/// The inner part of a cell's look ([`cell_middle`]): [`RIM`] of its side left out all round.
fn inner(look: &Mat) -> opencv::Result<Mat> {
    let rim = (f64::from(look.cols().min(look.rows())) * RIM).round() as i32;
    let window = opencv::core::Rect::new(
        rim,
        rim,
        (look.cols() - 2 * rim).max(1),
        (look.rows() - 2 * rim).max(1),
    );
    Mat::roi(look, window)?.try_clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-pixel look of dark table, grainy, with rows `0..reach` (from the top) of a
    /// neighbour's bright, striped print and, where `tile`, a striped print over the middle.
    fn dark_cell(reach: i32, tile: bool) -> Mat {
        let mut look = Mat::new_rows_cols_with_default(
            64,
            64,
            opencv::core::CV_8UC3,
            opencv::core::Scalar::all(28.0),
        )
        .unwrap();
        let mut rng = 7u32;
        for y in 0..64 {
            for x in 0..64 {
                rng = rng.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let grain = f64::from((rng >> 16) % 5);
                let striped = |bright: f64| {
                    if (x / 2) % 2 == 0 {
                        bright
                    } else {
                        bright / 2.0
                    }
                };
                let v = if y < reach {
                    striped(200.0)
                } else if tile && (8..56).contains(&x) && (8..56).contains(&y) {
                    striped(120.0)
                } else {
                    28.0 + grain
                };
                *look.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() =
                    opencv::core::Vec3b::from([v as u8; 3]);
            }
        }
        look
    }

    #[test]
    fn a_neighbour_reaching_into_a_cells_rim_brings_no_texture_of_its_own() {
        let empty = dark_cell(0, false);
        // A neighbour reaching a fifth of the way in (laid off its cell, or the cell predicted
        // a little off: 4848 game 13).
        assert!(!texture_changed(&empty, &dark_cell(12, false)).unwrap());
        // A tile laid on the cell does.
        assert!(texture_changed(&empty, &dark_cell(0, true)).unwrap());
    }

    #[test]
    fn a_pixel_only_darker_its_colour_kept_is_in_a_shadow() {
        let brown = [60, 110, 160];
        assert!(shadow_on(brown, [36.0, 66.0, 96.0]));
        // Lit as before, lighter, or another colour: no shadow.
        assert!(!shadow_on(brown, [60.0, 110.0, 160.0]));
        assert!(!shadow_on(brown, [80.0, 140.0, 200.0]));
        assert!(!shadow_on(brown, [40.0, 35.0, 150.0]));
        // A red figure's paint over the brown city is no shadow either.
        assert!(!shadow_on(brown, [40.0, 35.0, 200.0]));
    }

    #[test]
    fn a_shadow_next_to_a_figure_is_no_change_where_allowed() {
        let plain = |bgr: [f64; 3]| {
            Mat::new_rows_cols_with_default(
                4,
                4,
                opencv::core::CV_8UC3,
                opencv::core::Scalar::new(bgr[0], bgr[1], bgr[2], 0.0),
            )
            .unwrap()
        };
        let (lit, shaded) = (plain([60.0, 110.0, 160.0]), plain([36.0, 66.0, 96.0]));
        let everywhere = Mat::new_rows_cols_with_default(
            4,
            4,
            opencv::core::CV_8UC1,
            opencv::core::Scalar::all(255.0),
        )
        .unwrap();
        // A quarter of the cell darker, the rest as before.
        let mut quarter = lit.try_clone().unwrap();
        for y in 0..1 {
            for x in 0..4 {
                *quarter.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() =
                    *shaded.at_2d::<opencv::core::Vec3b>(y, x).unwrap();
            }
        }
        assert_eq!(
            changed_share_outside(&lit, &quarter, None, None).unwrap(),
            0.25
        );
        assert_eq!(
            changed_share_outside(&lit, &quarter, None, Some(&everywhere)).unwrap(),
            0.0
        );
    }
}

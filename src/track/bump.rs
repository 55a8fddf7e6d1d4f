//! A bumped camera: how far each known tile moved between two quiet pictures.
//!
//! A camera that shifts over a tilted view does not move the picture as one piece: near cells
//! move further than far ones (parallax). The whole picture's shift is measured first; then each
//! tile's own neighbourhood is compared again, already shifted, to find what is left over.

use std::collections::BTreeMap;

use opencv::core::{Mat, Point2d, Rect, Size, CV_32F};
use opencv::imgproc;
use opencv::prelude::*;

use crate::rules::Pos;
use crate::vision::rectify::Quad;

/// The least phase-correlation response for a shift to be believed.
const MIN_RESPONSE: f64 = 0.2;
/// The least shift (pixels) of the whole picture that counts as the camera moving.
const MIN_SHIFT_PX: f64 = 1.0;
/// How much table around a tile its own comparison looks at, in tile sides on every side.
const WINDOW_MARGIN: f64 = 0.35;
/// The most a tile's own shift may differ from the whole picture's, in tile sides.
const MOST_RESIDUAL: f64 = 0.3;

/// Moves every quad in `quads` as the picture moved from `before` to `now` (grey, `CV_32F`, the
/// same size). Returns whether the camera moved at all.
pub fn follow(before: &Mat, now: &Mat, quads: &mut BTreeMap<Pos, Quad>) -> opencv::Result<bool> {
    let mut response = 0.0f64;
    let global =
        imgproc::phase_correlate(before, now, &opencv::core::no_array(), Some(&mut response))?;
    if response <= MIN_RESPONSE || global.x.hypot(global.y) <= MIN_SHIFT_PX {
        return Ok(false);
    }
    let own: BTreeMap<Pos, [f64; 2]> = quads
        .iter()
        .filter_map(|(&pos, quad)| {
            own_shift(before, now, quad, global)
                .ok()
                .flatten()
                .map(|s| (pos, s))
        })
        .collect();
    for (pos, quad) in quads.iter_mut() {
        let shift = smoothed(&own, *pos).unwrap_or([global.x, global.y]);
        for p in quad.iter_mut() {
            p[0] += shift[0];
            p[1] += shift[1];
        }
    }
    Ok(true)
}

/// The median shift of the tiles measured in the 3×3 cells around `pos` (one tile's window may
/// hold a figure that moved, or a new tile beside it).
fn smoothed(own: &BTreeMap<Pos, [f64; 2]>, pos: Pos) -> Option<[f64; 2]> {
    let mut near: Vec<[f64; 2]> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| Pos::new(pos.x + dx, pos.y + dy)))
        .filter_map(|p| own.get(&p).copied())
        .collect();
    if near.is_empty() {
        return None;
    }
    let mid = near.len() / 2;
    let median = |v: &mut Vec<[f64; 2]>, k: usize| {
        v.sort_by(|a, b| a[k].total_cmp(&b[k]));
        v[mid][k]
    };
    Some([median(&mut near, 0), median(&mut near, 1)])
}

/// The shift of one tile's neighbourhood: the whole picture's `global` shift plus what a second
/// comparison of the tile's surroundings, already moved by it, finds; `None` when that
/// comparison is unsure or the window leaves the picture.
fn own_shift(
    before: &Mat,
    now: &Mat,
    quad: &Quad,
    global: Point2d,
) -> opencv::Result<Option<[f64; 2]>> {
    let (lo, hi) = quad
        .iter()
        .fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        });
    let side = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let m = side * WINDOW_MARGIN;
    let at = Rect::new(
        (lo[0] - m).floor() as i32,
        (lo[1] - m).floor() as i32,
        (hi[0] - lo[0] + 2.0 * m).ceil() as i32,
        (hi[1] - lo[1] + 2.0 * m).ceil() as i32,
    );
    let moved = Rect::new(
        at.x + global.x.round() as i32,
        at.y + global.y.round() as i32,
        at.width,
        at.height,
    );
    let frame = Rect::new(0, 0, before.cols(), before.rows());
    if at.width < 8 || at.height < 8 || (at & frame) != at || (moved & frame) != moved {
        return Ok(None);
    }
    let a = Mat::roi(before, at)?.try_clone()?;
    let b = Mat::roi(now, moved)?.try_clone()?;
    let mut window = Mat::default();
    imgproc::create_hanning_window(&mut window, Size::new(at.width, at.height), CV_32F)?;
    let mut response = 0.0f64;
    let rest = imgproc::phase_correlate(&a, &b, &window, Some(&mut response))?;
    if response <= MIN_RESPONSE || rest.x.hypot(rest.y) > side * MOST_RESIDUAL {
        return Ok(None);
    }
    Ok(Some([
        f64::from(moved.x - at.x) + rest.x,
        f64::from(moved.y - at.y) + rest.y,
    ]))
}

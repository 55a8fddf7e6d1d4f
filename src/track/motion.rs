//! Whether the picture moves, and whether the camera moved it: motion and whole-picture shifts
//! measured on a small grey copy of each frame.

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

/// Mean grey-level change per pixel above which a frame counts as moving.
pub(super) const MOTION_LEVEL: f64 = 1.5;
/// Grey-level change of one pixel (small picture) that is more than sensor noise.
const MOTION_PIXEL_LEVEL: f64 = 10.0;
/// Share of pixels changed by more than [`MOTION_PIXEL_LEVEL`] above which a frame counts as
/// moving: a dark sleeve over a dark table moves the mean little but changes a patch clearly.
const MOTION_SHARE: f64 = 0.002;
/// How far (pixels of the small motion picture) the whole picture must move to count as the
/// camera moving while hands move too.
const CAMERA_MOVE_PX: f64 = 1.0;
/// The most (tile sides) a bumped camera moves the picture: a larger shift is a hand or an arm
/// passing over a plain table (seed 6262 game 19: five tile sides, over the start tile alone).
const MOST_CAMERA_MOVE: f64 = 1.0;
/// The least share of the small picture a camera move changes.
const CAMERA_MOVE_CHANGE: f64 = 0.02;
/// How many times fewer pixels must differ once the picture is moved back by the measured
/// shift for the move to be the camera's.
const LINED_UP: f64 = 1.3;

/// Whether the picture moved as a whole since `aligned` (small grey pictures, `CV_32F`): the
/// camera, not a hand. The board (`board`, the box around its cells) must line up again once
/// moved back by the shift measured, and the shift be no more than [`MOST_CAMERA_MOVE`] times
/// `tile_side` (pixels of the small picture).
pub(super) fn camera_moved(
    aligned: Option<&Mat>,
    now: &Mat,
    board: Option<opencv::core::Rect>,
    tile_side: f64,
) -> opencv::Result<Option<opencv::core::Point2d>> {
    let (Some(aligned), Some(board)) =
        (aligned.filter(|a| a.size().ok() == now.size().ok()), board)
    else {
        return Ok(None);
    };
    let shift = whole_shift(aligned, now)?;
    let distance = shift.x.hypot(shift.y);
    if distance < CAMERA_MOVE_PX || distance > MOST_CAMERA_MOVE * tile_side {
        return Ok(None);
    }
    // The still part of the picture lines up again once moved back; a hand moving over a
    // still table would line up worse.
    let moved = translated(aligned, [shift.x, shift.y])?;
    let before = mismatched(aligned, now, board, shift)?;
    let after = mismatched(&moved, now, board, shift)?;
    Ok((before >= CAMERA_MOVE_CHANGE && after * LINED_UP < before).then_some(shift))
}

/// `before` (a reduced grey picture) moved as the whole picture moved between it and `now` (as
/// it is if their sizes differ): a camera bumped since moves every cell (film 6100 game 10: 17
/// pixels, and every cell of a striped wood table changed).
pub(super) fn moved_like(before: &Mat, now: &Mat) -> opencv::Result<Mat> {
    if before.size()? != now.size()? {
        return before.try_clone();
    }
    let as_f32 = |m: &Mat| -> opencv::Result<Mat> {
        let mut out = Mat::default();
        m.convert_to(&mut out, opencv::core::CV_32F, 1.0, 0.0)?;
        Ok(out)
    };
    let shift = whole_shift(&as_f32(before)?, &as_f32(now)?)?;
    translated(before, [shift.x, shift.y])
}

/// How far the whole picture moved from `a` to `b` (small grey pictures, `CV_32F`, the same
/// size), found by phase correlation of windowed copies (OpenCV's would window its inputs in
/// place).
fn whole_shift(a: &Mat, b: &Mat) -> opencv::Result<opencv::core::Point2d> {
    let mut window = Mat::default();
    imgproc::create_hanning_window(&mut window, a.size()?, opencv::core::CV_32F)?;
    let windowed = |m: &Mat| -> opencv::Result<Mat> {
        let mut out = Mat::default();
        opencv::core::multiply(m, &window, &mut out, 1.0, -1)?;
        Ok(out)
    };
    imgproc::phase_correlate(
        &windowed(a)?,
        &windowed(b)?,
        &opencv::core::no_array(),
        None,
    )
}

/// `picture` moved by `shift` pixels (edges repeated into the uncovered border).
pub(super) fn translated(picture: &Mat, shift: [f64; 2]) -> opencv::Result<Mat> {
    let to = Mat::from_slice_2d(&[[1.0f64, 0.0, shift[0]], [0.0, 1.0, shift[1]]])?;
    let mut moved = Mat::default();
    imgproc::warp_affine(
        picture,
        &mut moved,
        &to,
        picture.size()?,
        imgproc::INTER_LINEAR,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::default(),
    )?;
    Ok(moved)
}

/// The share of pixels that differ between two small grey pictures on the board (`board`),
/// away from the borders that a shift of the picture by `shift` uncovers.
fn mismatched(
    a: &Mat,
    b: &Mat,
    board: opencv::core::Rect,
    shift: opencv::core::Point2d,
) -> opencv::Result<f64> {
    let (mx, my) = (
        shift.x.abs().ceil() as i32 + 1,
        shift.y.abs().ceil() as i32 + 1,
    );
    let inner = board & opencv::core::Rect::new(mx, my, a.cols() - 2 * mx, a.rows() - 2 * my);
    let (w, h) = (inner.width, inner.height);
    if w < 4 || h < 4 {
        return Ok(0.0);
    }
    let mut diff = Mat::default();
    opencv::core::absdiff(&Mat::roi(a, inner)?, &Mat::roi(b, inner)?, &mut diff)?;
    let mut changed = Mat::default();
    imgproc::threshold(
        &diff,
        &mut changed,
        MOTION_PIXEL_LEVEL,
        255.0,
        imgproc::THRESH_BINARY,
    )?;
    let mut bytes = Mat::default();
    changed.convert_to(&mut bytes, opencv::core::CV_8U, 1.0, 0.0)?;
    Ok(f64::from(opencv::core::count_non_zero(&bytes)?) / f64::from(w * h))
}

/// Whether the change between two small grey pictures (`diff`, absolute) is something moving:
/// a large mean change, or a patch of pixels clearly changed.
pub(super) fn is_motion(diff: &Mat) -> opencv::Result<bool> {
    if opencv::core::mean(diff, &opencv::core::no_array())?[0] > MOTION_LEVEL {
        return Ok(true);
    }
    let mut changed = Mat::default();
    imgproc::threshold(
        diff,
        &mut changed,
        MOTION_PIXEL_LEVEL,
        255.0,
        imgproc::THRESH_BINARY,
    )?;
    let share = f64::from(opencv::core::count_non_zero(&changed)?) / diff.total().max(1) as f64;
    Ok(share > MOTION_SHARE)
}

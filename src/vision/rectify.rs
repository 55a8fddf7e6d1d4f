//! Cutting a grid cell out of a camera frame as a square, north-up patch.

use opencv::core::{Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;

use crate::rules::Pos;
use crate::sim::camera::Camera;
use crate::sim::scene::CELL_MM;

/// Side of a rectified cell patch in pixels.
pub const PATCH_PX: i32 = 64;
/// Extra pixels around a cell patch cut for the shift search (a tile laid up to about 6 mm off
/// its cell is still inside).
pub const MARGIN_PX: i32 = 8;

/// The cell at `cell` of the table grid (start tile's north-west corner at the table origin), as
/// the camera sees it, warped to a `PATCH_PX` square with north up. `None` if the cell is behind
/// the camera.
pub fn cell_patch(frame: &Mat, camera: &Camera, cell: Pos) -> opencv::Result<Option<Mat>> {
    cell_patch_margin(frame, camera, cell, 0)
}

/// Like [`cell_patch`], with `margin` more pixels of the surroundings on every side (at the
/// same scale).
pub fn cell_patch_margin(
    frame: &Mat,
    camera: &Camera,
    cell: Pos,
    margin: i32,
) -> opencv::Result<Option<Mat>> {
    let corner = |dx: f64, dy: f64| {
        camera.project([
            (f64::from(cell.x) + dx) * CELL_MM,
            (f64::from(cell.y) + dy) * CELL_MM,
            0.0,
        ])
    };
    // A small inset keeps the neighbours' edges out of the patch.
    let (a, b) = (0.04, 0.96);
    let Some(quad) = [corner(a, a), corner(b, a), corner(b, b), corner(a, b)]
        .into_iter()
        .collect::<Option<Vec<[f64; 2]>>>()
    else {
        return Ok(None);
    };
    let src: Vector<Point2f> = quad
        .iter()
        .map(|p| Point2f::new(p[0] as f32, p[1] as f32))
        .collect();
    let (lo, hi) = (margin as f32, (PATCH_PX + margin) as f32);
    let dst: Vector<Point2f> = Vector::from_iter([
        Point2f::new(lo, lo),
        Point2f::new(hi, lo),
        Point2f::new(hi, hi),
        Point2f::new(lo, hi),
    ]);
    let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
    let mut patch = Mat::default();
    imgproc::warp_perspective(
        frame,
        &mut patch,
        &m,
        Size::new(PATCH_PX + 2 * margin, PATCH_PX + 2 * margin),
        imgproc::INTER_AREA,
        opencv::core::BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(Some(patch))
}

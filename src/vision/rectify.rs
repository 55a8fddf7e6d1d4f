//! Cutting a grid cell out of a camera frame as a square, north-up patch.

use opencv::core::{Mat, Point2f, Scalar, Size, Vector};
use opencv::imgproc;

use opencv::prelude::*;

use crate::rules::Pos;
use crate::sim::camera::{apply_homography, invert_homography, Camera};
use crate::sim::scene::CELL_MM;

/// Side of a rectified cell patch in pixels.
pub const PATCH_PX: i32 = 64;
/// Extra pixels around a cell patch cut for the shift search (a tile laid up to about 6 mm off
/// its cell is still inside).
pub const MARGIN_PX: i32 = 8;

/// Corners NW, NE, SE, SW of a cell in image pixels.
pub type Quad = [[f64; 2]; 4];

/// Fraction of the cell trimmed on every side, to keep the neighbours' edges out of a patch.
pub const INSET: f64 = 0.04;

/// The cell at `cell` of the table grid (start tile's north-west corner at the table origin), as
/// the camera sees it, warped to a `PATCH_PX` square with north up. `None` if the cell is behind
/// the camera.
pub fn cell_patch(frame: &Mat, camera: &Camera, cell: Pos) -> opencv::Result<Option<Mat>> {
    cell_patch_margin(frame, camera, cell, 0)
}

/// Where the camera sees the corners of grid cell `cell`.
pub fn cell_quad(camera: &Camera, cell: Pos) -> Option<Quad> {
    let corner = |dx: f64, dy: f64| {
        camera.project([
            (f64::from(cell.x) + dx) * CELL_MM,
            (f64::from(cell.y) + dy) * CELL_MM,
            0.0,
        ])
    };
    Some([
        corner(0.0, 0.0)?,
        corner(1.0, 0.0)?,
        corner(1.0, 1.0)?,
        corner(0.0, 1.0)?,
    ])
}

/// Like [`cell_patch`], with `margin` more pixels of the surroundings on every side (at the
/// same scale).
pub fn cell_patch_margin(
    frame: &Mat,
    camera: &Camera,
    cell: Pos,
    margin: i32,
) -> opencv::Result<Option<Mat>> {
    match cell_quad(camera, cell) {
        Some(quad) => Ok(Some(quad_patch(frame, &quad, margin)?.0)),
        None => Ok(None),
    }
}

/// The cell with corners `quad` warped to a north-up square of `PATCH_PX` plus `margin` on every
/// side, and the homography from image to patch pixels.
pub fn quad_patch(frame: &Mat, quad: &Quad, margin: i32) -> opencv::Result<(Mat, [[f64; 3]; 3])> {
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    // The inset square inside the quad (bilinear, close enough for small insets).
    let at = |u: f64, v: f64| lerp(lerp(quad[0], quad[1], u), lerp(quad[3], quad[2], u), v);
    let (a, b) = (INSET, 1.0 - INSET);
    let inner = [at(a, a), at(b, a), at(b, b), at(a, b)];
    let src: Vector<Point2f> = inner
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
    Ok((patch, homography_of(&m)?))
}

/// The 3×3 homography OpenCV gives (a 64-bit float matrix) as rows.
pub fn homography_of(m: &Mat) -> opencv::Result<[[f64; 3]; 3]> {
    let mut h = [[0.0; 3]; 3];
    for (r, row) in h.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = *m.at_2d::<f64>(r as i32, c as i32)?;
        }
    }
    Ok(h)
}

/// Share of the cell with corners `quad` that lies inside a `size` (width, height) picture,
/// sampled on a 10 × 10 grid of points.
pub fn in_view_share(quad: &Quad, size: [i32; 2]) -> f64 {
    const STEPS: usize = 10;
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    let mut inside = 0;
    for j in 0..STEPS {
        for i in 0..STEPS {
            let (u, v) = (
                (i as f64 + 0.5) / STEPS as f64,
                (j as f64 + 0.5) / STEPS as f64,
            );
            let p = lerp(lerp(quad[0], quad[1], u), lerp(quad[3], quad[2], u), v);
            let within = |x: f64, n: i32| x >= 0.0 && x < f64::from(n);
            inside += usize::from(within(p[0], size[0]) && within(p[1], size[1]));
        }
    }
    inside as f64 / (STEPS * STEPS) as f64
}

/// The pixels (255) of a patch cut with `margin` by the picture → patch homography
/// `image_to_patch` that lie outside a `size` picture; `None` where all lie inside.
pub fn out_of_view(
    image_to_patch: &[[f64; 3]; 3],
    margin: i32,
    size: [i32; 2],
) -> opencv::Result<Option<Mat>> {
    let back = invert_homography(image_to_patch);
    let side = PATCH_PX + 2 * margin;
    let outside = |x: f64, y: f64| {
        let p = apply_homography(&back, [x, y]);
        !(p[0] >= 0.0 && p[1] >= 0.0 && p[0] < f64::from(size[0]) && p[1] < f64::from(size[1]))
    };
    // The patch is a convex quad in the picture: inside if its corners are (most cells).
    let far = f64::from(side);
    if ![(0.0, 0.0), (far, 0.0), (far, far), (0.0, far)]
        .iter()
        .any(|&(x, y)| outside(x, y))
    {
        return Ok(None);
    }
    let mut mask = Mat::zeros(side, side, opencv::core::CV_8UC1)?.to_mat()?;
    let mut any = false;
    let bytes = mask.data_bytes_mut()?;
    for y in 0..side {
        for x in 0..side {
            if outside(f64::from(x) + 0.5, f64::from(y) + 0.5) {
                bytes[(y * side + x) as usize] = 255;
                any = true;
            }
        }
    }
    Ok(any.then_some(mask))
}

/// `mask` grown once by `kernel` (nothing past its border counts as set).
pub fn dilated(mask: &Mat, kernel: &Mat) -> opencv::Result<Mat> {
    let mut grown = Mat::default();
    imgproc::dilate(
        mask,
        &mut grown,
        kernel,
        opencv::core::Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    Ok(grown)
}

/// The pixels of a patch not seen (255): under `figures` or `out_of_view`.
pub fn unseen(figures: Option<&Mat>, out_of_view: Option<&Mat>) -> opencv::Result<Option<Mat>> {
    match (figures, out_of_view) {
        (Some(f), Some(o)) => {
            let mut both = Mat::default();
            opencv::core::bitwise_or(f, o, &mut both, &opencv::core::no_array())?;
            Ok(Some(both))
        }
        (f, o) => f.or(o).map(Mat::try_clone).transpose(),
    }
}

/// Tile units (0–1, north up) of a point of a patch cut with `margin` whose tile was found at
/// `shift`.
pub fn patch_to_tile(p: [f64; 2], margin: i32, shift: [f64; 2]) -> [f32; 2] {
    let scale = (1.0 - 2.0 * INSET) / f64::from(PATCH_PX);
    let u = |v: f64, s: f64| (INSET + (v - f64::from(margin) - s) * scale) as f32;
    [u(p[0], shift[0]), u(p[1], shift[1])]
}

/// The quad of a cell whose tile was found `shift` patch pixels (x, y) off the cut, given the
/// image→patch homography the patch was cut with.
pub fn shifted_quad(image_to_patch: &[[f64; 3]; 3], margin: i32, shift: [f64; 2]) -> Quad {
    let back = invert_homography(image_to_patch);
    let cell = f64::from(PATCH_PX) / (1.0 - 2.0 * INSET);
    let lo = f64::from(margin) - INSET * cell;
    let corners = [
        [lo, lo],
        [lo + cell, lo],
        [lo + cell, lo + cell],
        [lo, lo + cell],
    ];
    corners.map(|c| apply_homography(&back, [c[0] + shift[0], c[1] + shift[1]]))
}

/// The side of a square as large as `quad` (pixels): how big a cell shows in the picture.
pub fn side_px(quad: &Quad) -> f64 {
    let twice_area: f64 = (0..4)
        .map(|i| {
            let (a, b) = (quad[i], quad[(i + 1) % 4]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    (twice_area.abs() / 2.0).sqrt()
}

/// Grid units (the quad's cell: corners (0, 0) … (1, 1)) → image pixels.
pub fn quad_homography(quad: &Quad) -> opencv::Result<[[f64; 3]; 3]> {
    let src: Vector<Point2f> = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        .iter()
        .map(|&(x, y)| Point2f::new(x, y))
        .collect();
    let dst: Vector<Point2f> = quad
        .iter()
        .map(|p| Point2f::new(p[0] as f32, p[1] as f32))
        .collect();
    let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
    homography_of(&m)
}

/// `quad` moved as far as the middle of `to` lies from its own.
pub fn moved_like(quad: &Quad, to: &Quad) -> Quad {
    let (from, to) = (middle(quad), middle(to));
    quad.map(|p| [p[0] + to[0] - from[0], p[1] + to[1] - from[1]])
}

/// The middle of a quad (mean of its corners).
pub fn middle(q: &Quad) -> [f64; 2] {
    [0, 1].map(|k| q.iter().map(|p| p[k]).sum::<f64>() / 4.0)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn a_cell_s_side_is_that_of_a_square_as_large() {
        let square = [[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]];
        assert!((side_px(&square) - 40.0).abs() < 1e-9);
        // Foreshortened in an oblique view: 60 wide, 30 deep.
        let oblique = [[0.0, 0.0], [60.0, 0.0], [60.0, 30.0], [0.0, 30.0]];
        assert!((side_px(&oblique) - 1800f64.sqrt()).abs() < 1e-9);
    }

    /// A 100-pixel cell, axis-aligned, with its north-west corner at (x, y).
    pub(in crate::vision) fn square(x: f64, y: f64) -> Quad {
        [
            [x, y],
            [x + 100.0, y],
            [x + 100.0, y + 100.0],
            [x, y + 100.0],
        ]
    }

    #[test]
    fn a_cell_half_past_the_right_edge_is_half_in_view() {
        let size = [640, 480];
        assert_eq!(in_view_share(&square(100.0, 100.0), size), 1.0);
        assert_eq!(in_view_share(&square(590.0, 100.0), size), 0.5);
        assert_eq!(in_view_share(&square(700.0, 100.0), size), 0.0);
    }

    #[test]
    fn the_part_of_a_patch_past_the_picture_s_edge_is_out_of_view() {
        let frame =
            Mat::new_rows_cols_with_default(480, 640, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap();
        let (_, inside) = quad_patch(&frame, &square(100.0, 100.0), MARGIN_PX).unwrap();
        assert!(out_of_view(&inside, MARGIN_PX, [640, 480])
            .unwrap()
            .is_none());

        // Half the cell lies past the bottom edge: the patch's lower half is out of view, its
        // upper half not.
        let (_, half) = quad_patch(&frame, &square(100.0, 430.0), MARGIN_PX).unwrap();
        let mask = out_of_view(&half, MARGIN_PX, [640, 480]).unwrap().unwrap();
        let side = PATCH_PX + 2 * MARGIN_PX;
        let at = |x: i32, y: i32| *mask.at_2d::<u8>(y, x).unwrap();
        assert_eq!(at(side / 2, MARGIN_PX + 2), 0);
        assert_eq!(at(side / 2, side - 2), 255);
        let out = opencv::core::count_non_zero(&mask).unwrap() as f64 / f64::from(side * side);
        assert!((0.35..0.65).contains(&out), "{out}");
    }
}

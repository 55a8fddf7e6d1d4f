//! A player's arm reaching over the table: skin, sleeve, and the exact mask it covers.

use opencv::core::{Mat, Point, Scalar, Size};
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;

/// An arm in image pixels: from where it enters the frame to the palm over the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arm {
    /// A point beyond the image border where the arm comes from.
    pub from: [f64; 2],
    /// The centre of the palm.
    pub palm: [f64; 2],
    /// Forearm width in pixels (the palm is a bit wider).
    pub width: f64,
    /// Skin colour (blue, green, red).
    pub skin: [f64; 3],
    /// Sleeve colour.
    pub sleeve: [f64; 3],
}

fn pt(p: [f64; 2]) -> Point {
    Point::new((p[0] * 16.0).round() as i32, (p[1] * 16.0).round() as i32)
}

fn lerp(a: [f64; 2], b: [f64; 2], t: f64) -> [f64; 2] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// The arm's parts as (start, end, width, is_sleeve) strokes, and the palm ellipse.
fn strokes(arm: &Arm) -> Vec<([f64; 2], [f64; 2], f64, bool)> {
    let (dx, dy) = (arm.palm[0] - arm.from[0], arm.palm[1] - arm.from[1]);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let dir = [dx / len, dy / len];
    let perp = [-dir[1], dir[0]];
    let w = arm.width;
    let wrist = lerp(arm.from, arm.palm, 1.0 - 0.9 * w / len);
    let cuff = lerp(arm.from, arm.palm, 1.0 - 3.2 * w / len);
    let mut out = vec![(arm.from, cuff, w * 1.25, true), (cuff, wrist, w, false)];
    // Four fingers and a thumb, spread forward from the palm.
    for (k, spread) in [-0.36, -0.12, 0.12, 0.36].iter().enumerate() {
        let base = [
            arm.palm[0] + perp[0] * spread * w,
            arm.palm[1] + perp[1] * spread * w,
        ];
        let reach = w * (0.75 + 0.15 * (k % 2) as f64);
        let tip = [base[0] + dir[0] * reach, base[1] + dir[1] * reach];
        out.push((base, tip, w * 0.2, false));
    }
    let thumb_base = [
        arm.palm[0] - perp[0] * 0.45 * w,
        arm.palm[1] - perp[1] * 0.45 * w,
    ];
    let thumb_tip = [
        thumb_base[0] - perp[0] * 0.35 * w + dir[0] * 0.3 * w,
        thumb_base[1] - perp[1] * 0.35 * w + dir[1] * 0.3 * w,
    ];
    out.push((thumb_base, thumb_tip, w * 0.22, false));
    out
}

fn paint(img: &mut Mat, arm: &Arm, skin: Scalar, sleeve: Scalar) -> opencv::Result<()> {
    for (a, b, w, is_sleeve) in strokes(arm) {
        let c = if is_sleeve { sleeve } else { skin };
        imgproc::line(img, pt(a), pt(b), c, w.round().max(1.0) as i32, LINE_AA, 4)?;
    }
    let angle = (arm.palm[1] - arm.from[1])
        .atan2(arm.palm[0] - arm.from[0])
        .to_degrees();
    let axes = Size::new(
        (arm.width * 0.75 * 16.0) as i32,
        (arm.width * 0.62 * 16.0) as i32,
    );
    imgproc::ellipse(
        img,
        pt(arm.palm),
        axes,
        angle,
        0.0,
        360.0,
        skin,
        -1,
        LINE_AA,
        4,
    )
}

/// Draws the arm and marks every pixel it covers in `mask` (255).
pub fn draw_arm(img: &mut Mat, mask: &mut Mat, arm: &Arm) -> opencv::Result<()> {
    let skin = Scalar::new(arm.skin[0], arm.skin[1], arm.skin[2], 0.0);
    let sleeve = Scalar::new(arm.sleeve[0], arm.sleeve[1], arm.sleeve[2], 0.0);
    paint(img, arm, skin, sleeve)?;
    // The same shapes, grown by a pixel so that the faintest anti-aliased fringe is covered too.
    let mut exact = Mat::zeros(mask.rows(), mask.cols(), mask.typ())?.to_mat()?;
    paint(&mut exact, arm, Scalar::all(255.0), Scalar::all(255.0))?;
    let grown = super::effects::grow_mask(&exact, 1)?;
    opencv::core::max(&*mask, &grown, &mut exact)?;
    exact.copy_to(mask)
}

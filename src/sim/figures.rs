//! Figures as the camera sees them: an extruded wooden shape of their kind ([`Body`]), standing
//! or lying, shaded and with a shadow on the table.

use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;

use super::bodies::Body;
use super::camera::{Camera, Vec3};
use crate::rules::Colour;

/// The paint colour of a player's figures (blue, green, red).
pub fn colour_bgr(c: Colour) -> [f64; 3] {
    match c {
        Colour::Black => [35.0, 35.0, 38.0],
        Colour::Red => [40.0, 35.0, 200.0],
        Colour::Green => [45.0, 140.0, 35.0],
        Colour::Blue => [185.0, 95.0, 25.0],
        Colour::Yellow => [30.0, 205.0, 235.0],
        Colour::Gray => [150.0, 150.0, 150.0],
        Colour::Pink => [190.0, 140.0, 245.0],
        Colour::Purple => [140.0, 45.0, 125.0],
    }
}

/// How a follower lies on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pose {
    /// Upright: thief, knight, monk, and every special figure.
    Standing,
    /// On its back: farmer.
    Lying,
}

/// A figure to draw: its kind, where its base centre is (table mm), which way it faces, its
/// colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// Which figure (follower, large follower, builder, pig, shepherd).
    pub kind: crate::rules::Figure,
    /// Base centre on the table (mm).
    pub base: [f64; 2],
    /// Direction the figure faces (radians, 0 = towards south).
    pub yaw: f64,
    /// Standing or lying.
    pub pose: Pose,
    /// Paint.
    pub colour: [f64; 3],
}

/// The figure's 3-D outline: front face points and back face points (table mm).
fn faces(fig: &Figure) -> (Vec<Vec3>, Vec<Vec3>) {
    let (s, c) = fig.yaw.sin_cos();
    let facing = [s, c, 0.0];
    let side = [c, -s, 0.0];
    let up = [0.0, 0.0, -1.0];
    let b = [fig.base[0], fig.base[1], 0.0];
    let body = Body::of(fig.kind);
    let (v_axis, n_axis, origin) = match fig.pose {
        Pose::Standing => (up, facing, b),
        Pose::Lying => {
            let o = [
                b[0] - facing[0] * body.height / 2.0,
                b[1] - facing[1] * body.height / 2.0,
                -body.depth / 2.0,
            ];
            (facing, up, o)
        }
    };
    let point = |uv: [f64; 2], n: f64| -> Vec3 {
        let u = uv[0] * body.width;
        let v = uv[1] * body.height;
        [
            origin[0] + side[0] * u + v_axis[0] * v + n_axis[0] * n,
            origin[1] + side[1] * u + v_axis[1] * v + n_axis[1] * n,
            origin[2] + side[2] * u + v_axis[2] * v + n_axis[2] * n,
        ]
    };
    let half = body.depth / 2.0;
    let front = body.outline.iter().map(|&uv| point(uv, half)).collect();
    let back = body.outline.iter().map(|&uv| point(uv, -half)).collect();
    (front, back)
}

fn to_px(cam: &Camera, pts: &[Vec3]) -> Option<Vector<Point>> {
    pts.iter()
        .map(|&p| {
            cam.project_ideal(p)
                .map(|q| Point::new((q[0] * 16.0).round() as i32, (q[1] * 16.0).round() as i32))
        })
        .collect()
}

fn fill(img: &mut Mat, poly: Vector<Point>, colour: [f64; 3]) -> opencv::Result<()> {
    let mut polys = Vector::<Vector<Point>>::new();
    polys.push(poly);
    let c = Scalar::new(colour[0], colour[1], colour[2], 0.0);
    imgproc::fill_poly(img, &polys, c, LINE_AA, 4, Point::new(0, 0))
}

fn shade(c: [f64; 3], f: f64) -> [f64; 3] {
    [
        (c[0] * f).min(255.0),
        (c[1] * f).min(255.0),
        (c[2] * f).min(255.0),
    ]
}

/// Darkens the table where the figure blocks a light shining along `light` (a direction with a
/// positive z: downwards).
pub fn draw_shadow(img: &mut Mat, cam: &Camera, fig: &Figure, light: Vec3) -> opencv::Result<()> {
    let (front, back) = faces(fig);
    let on_table: Vec<Vec3> = front
        .iter()
        .chain(&back)
        .map(|p| {
            let t = -p[2] / light[2];
            [p[0] + light[0] * t, p[1] + light[1] * t, 0.0]
        })
        .collect();
    let Some(pts) = to_px(cam, &on_table) else {
        return Ok(());
    };
    let mut hull = Vector::<Point>::new();
    imgproc::convex_hull(&pts, &mut hull, false, true)?;
    let mut polys = Vector::<Vector<Point>>::new();
    polys.push(hull);
    let mut bounds = imgproc::bounding_rect(&polys.get(0)?)?;
    bounds.x = bounds.x / 16 - 2;
    bounds.y = bounds.y / 16 - 2;
    bounds.width = bounds.width / 16 + 5;
    bounds.height = bounds.height / 16 + 5;
    let full = opencv::core::Rect::new(0, 0, img.cols(), img.rows());
    let r = bounds & full;
    if r.width <= 0 || r.height <= 0 {
        return Ok(());
    }
    // A mask the size of the shadow's bounds only.
    let mut mask = Mat::zeros(r.height, r.width, opencv::core::CV_8UC1)?.to_mat()?;
    let offset = Point::new(-r.x * 16, -r.y * 16);
    imgproc::fill_poly(&mut mask, &polys, Scalar::all(255.0), LINE_AA, 4, offset)?;
    let mut roi = Mat::roi_mut(img, r)?;
    let rows = roi.rows();
    let cols = roi.cols();
    for y in 0..rows {
        for x in 0..cols {
            let m = *mask.at_2d::<u8>(y, x)?;
            if m > 0 {
                let px = roi.at_2d_mut::<opencv::core::Vec3b>(y, x)?;
                let f = 1.0 - 0.45 * f64::from(m) / 255.0;
                for ch in 0..3 {
                    px[ch] = (f64::from(px[ch]) * f) as u8;
                }
            }
        }
    }
    Ok(())
}

/// Draws the figure: back face, sides, then front face, farthest from the camera first.
pub fn draw_figure(img: &mut Mat, cam: &Camera, fig: &Figure) -> opencv::Result<()> {
    let (front, back) = faces(fig);
    let depth =
        |pts: &[Vec3]| pts.iter().map(|&p| cam.to_camera(p)[2]).sum::<f64>() / pts.len() as f64;
    let mut quads: Vec<(f64, Vec<Vec3>, f64)> = Vec::new();
    let n = front.len();
    for i in 0..n {
        let j = (i + 1) % n;
        let quad = vec![front[i], front[j], back[j], back[i]];
        // Sides facing up catch the light; others are in shade.
        let up = -(front[i][2] + front[j][2] - back[i][2] - back[j][2]);
        let f = if up > 0.5 { 1.05 } else { 0.7 };
        quads.push((depth(&quad), quad, f));
    }
    quads.push((depth(&back), back, 0.6));
    quads.push((depth(&front), front, 1.0));
    quads.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, pts, f) in quads {
        if let Some(poly) = to_px(cam, &pts) {
            fill(img, poly, shade(fig.colour, f))?;
        }
    }
    Ok(())
}

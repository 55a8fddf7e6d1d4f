//! A lone tile's outline fitted to the picture: each side a straight line through the border
//! the tile shows against the table, found all along the side. Corners found from a colour
//! mask are cut short where the tile's print is much like the table (a pale road's end, a city
//! wall in the corner), and a grid continued from a start tile a few pixels short at one
//! corner shrinks cell by cell.

use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;

use super::rectify::Quad;
use super::snap::{bilinear, meet};

/// Points sampled along each side, between its trimmed ends.
const SAMPLES: usize = 32;
/// Share of each side's length left out at both ends (the corners are rounded, and a speck of
/// the table's pattern there may outweigh the border).
const END_TRIM: f64 = 0.1;
/// How far (in tile sides) each side's border is looked for outwards of where it is expected: a
/// mask of the tile's colours falls short of the tile where its print is like the table, and
/// seldom goes past it.
const REACH: f64 = 0.12;
/// How far (in tile sides, and at least [`INWARD_PX`]) each side's border is looked for inwards:
/// little, for a wall or a road's edge just inside a side is straight too.
const INWARD: f64 = 0.03;
/// Fewest pixels each side's border is looked for inwards.
const INWARD_PX: i32 = 2;
/// Pixels either side of a point between which its colour step is measured.
const STEP_HALF: f64 = 1.5;
/// Smallest colour step (summed over the three channels) that counts as a border.
const MIN_STEP: f64 = 45.0;
/// How far (pixels) a border point may lie off a side's line and still be on it.
const ON_LINE_PX: f64 = 1.5;
/// Smallest share of a side's samples on its fitted line for the line to be believed.
const MIN_SUPPORT: f64 = 0.4;

/// A straight line: a point on it and its direction.
type Line = ([f64; 2], [f64; 2]);

/// Colour at a real-valued pixel position (bilinear), `None` outside the picture.
fn colour_at(frame: &Mat, x: f64, y: f64) -> Option<[f64; 3]> {
    bilinear(frame, x, y, |px, py| {
        frame
            .at_2d::<Vec3b>(py, px)
            .ok()
            .map(|p| p.0.map(f64::from))
    })
}

/// What the picture shows across a side's direction at `p`, `d` pixels along `normal`: the
/// colour step, and the colours just inside and just outside.
fn across(frame: &Mat, p: [f64; 2], normal: [f64; 2], d: f64) -> Option<(f64, [f64; 3], [f64; 3])> {
    let at = |k: f64| colour_at(frame, p[0] + normal[0] * k, p[1] + normal[1] * k);
    let (out, inn) = (at(d + STEP_HALF)?, at(d - STEP_HALF)?);
    let step = out.iter().zip(inn).map(|(a, b)| (a - b).abs()).sum();
    Some((step, inn, out))
}

/// A line through `points` most of them lie on (within [`ON_LINE_PX`]): the pair of points
/// whose line most others lie on, refitted to those by least squares. `None` when too few do.
fn robust_line(points: &[[f64; 2]]) -> Option<Line> {
    let off = |p: [f64; 2], (q, v): Line| ((p[0] - q[0]) * v[1] - (p[1] - q[1]) * v[0]).abs();
    let mut best: Option<(usize, Line)> = None;
    for (i, &a) in points.iter().enumerate() {
        for &b in &points[i + 1..] {
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            if len < 1e-9 {
                continue;
            }
            let line = (a, [(b[0] - a[0]) / len, (b[1] - a[1]) / len]);
            let support = points
                .iter()
                .filter(|&&p| off(p, line) <= ON_LINE_PX)
                .count();
            if best.is_none_or(|(n, _)| support > n) {
                best = Some((support, line));
            }
        }
    }
    let (support, line) = best?;
    if (support as f64) < MIN_SUPPORT * SAMPLES as f64 {
        return None;
    }
    // Least squares (the principal direction) over the points on the line.
    let on: Vec<[f64; 2]> = points
        .iter()
        .copied()
        .filter(|&p| off(p, line) <= ON_LINE_PX)
        .collect();
    let n = on.len() as f64;
    let mean = [
        on.iter().map(|p| p[0]).sum::<f64>() / n,
        on.iter().map(|p| p[1]).sum::<f64>() / n,
    ];
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in &on {
        let (dx, dy) = (p[0] - mean[0], p[1] - mean[1]);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    Some((mean, [angle.cos(), angle.sin()]))
}

/// How far (whole pixels) [`fit_outline`] looks outwards of side `k` of `quad` for its border.
pub fn outline_reach(quad: &Quad, k: usize) -> i32 {
    let (a, b) = (quad[k], quad[(k + 1) % 4]);
    ((b[0] - a[0]).hypot(b[1] - a[1]) * REACH).round() as i32
}

/// `quad` with side `k` (from corner `k` to corner `k + 1`) moved `px` pixels outwards.
pub fn push_side(quad: &Quad, k: usize, px: f64) -> Quad {
    let normal = outward_normal(quad, k);
    let mut out = *quad;
    for i in [k, (k + 1) % 4] {
        out[i] = [quad[i][0] + normal[0] * px, quad[i][1] + normal[1] * px];
    }
    out
}

/// The unit normal of side `k` of `quad` pointing away from its middle.
fn outward_normal(quad: &Quad, k: usize) -> [f64; 2] {
    let centre = [
        quad.iter().map(|p| p[0]).sum::<f64>() / 4.0,
        quad.iter().map(|p| p[1]).sum::<f64>() / 4.0,
    ];
    let (a, b) = (quad[k], quad[(k + 1) % 4]);
    let len = (b[0] - a[0]).hypot(b[1] - a[1]).max(1e-9);
    let normal = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    if (mid[0] - centre[0]) * normal[0] + (mid[1] - centre[1]) * normal[1] < 0.0 {
        [-normal[0], -normal[1]]
    } else {
        normal
    }
}

/// The line of side `k` of `quad` (from corner `k` to corner `k + 1`) through the first border
/// from tile to table (colours `table_like` tells) outwards at each sample, or `None` where no
/// straight border shows.
fn side_line(
    frame: &Mat,
    quad: &Quad,
    k: usize,
    table_like: &dyn Fn([f64; 3]) -> bool,
) -> Option<Line> {
    let (a, b) = (quad[k], quad[(k + 1) % 4]);
    let len = (b[0] - a[0]).hypot(b[1] - a[1]).max(1e-9);
    let normal = outward_normal(quad, k);
    let reach = outline_reach(quad, k);
    let inward = ((len * INWARD).round() as i32).max(INWARD_PX);
    let mut points = Vec::with_capacity(SAMPLES);
    for i in 0..SAMPLES {
        let t = END_TRIM + (1.0 - 2.0 * END_TRIM) * (i as f64 + 0.5) / SAMPLES as f64;
        let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        // The first border from tile to table going outwards: the table beyond may have
        // stronger ones (a checked cloth's), the print inside too (a city's specks).
        let border = |d: i32| {
            across(frame, p, normal, f64::from(d))
                .filter(|&(step, inn, out)| step >= MIN_STEP && table_like(out) && !table_like(inn))
        };
        let Some(mut d) = (-inward..=reach).find(|&d| border(d).is_some()) else {
            continue;
        };
        while d < reach && border(d + 1).map(|b| b.0) > border(d).map(|b| b.0) {
            d += 1;
        }
        let d = f64::from(d);
        points.push([p[0] + normal[0] * d, p[1] + normal[1] * d]);
    }
    robust_line(&points)
}

/// `quad` (corners NW, NE, SE, SW of a tile lying alone on the table, at most [`REACH`] of a
/// tile side short of it) with each side moved onto the straight border the picture (BGR)
/// shows there between the tile and the table (colours `table_like` tells), and which sides
/// were. A side with no such border stays where it was.
pub fn fit_outline(
    frame: &Mat,
    quad: &Quad,
    table_like: &dyn Fn([f64; 3]) -> bool,
) -> (Quad, [bool; 4]) {
    let found: Vec<Option<Line>> = (0..4)
        .map(|k| side_line(frame, quad, k, table_like))
        .collect();
    let lines: Vec<Line> = found
        .iter()
        .enumerate()
        .map(|(k, line)| {
            line.unwrap_or_else(|| {
                let (a, b) = (quad[k], quad[(k + 1) % 4]);
                (a, [b[0] - a[0], b[1] - a[1]])
            })
        })
        .collect();
    let unmoved = (*quad, [false; 4]);
    let mut out = *quad;
    for (k, corner) in out.iter_mut().enumerate() {
        // Corner k lies where side k-1 (ending at it) meets side k (starting at it).
        let ((p, v), (q, w)) = (lines[(k + 3) % 4], lines[k]);
        match meet(p, v, q, w) {
            Some(c) => *corner = c,
            None => return unmoved,
        }
    }
    // Sides that met far from where the corners were looked for: something else was fitted.
    let side = (quad[1][0] - quad[0][0]).hypot(quad[1][1] - quad[0][1]);
    let strayed = out
        .iter()
        .zip(quad)
        .any(|(o, q)| (o[0] - q[0]).hypot(o[1] - q[1]) > 2.0 * REACH * side);
    if strayed {
        unmoved
    } else {
        (out, [0, 1, 2, 3].map(|k| found[k].is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Scalar, Vector, CV_8UC3};
    use opencv::imgproc;

    /// The beige table's colours, give or take a little.
    fn beige(c: [f64; 3]) -> bool {
        (c[0] - 190.0).abs() + (c[1] - 205.0).abs() + (c[2] - 215.0).abs() < 40.0
    }

    /// A green tile turned a little on a beige table, with a road of the table's own colour
    /// across it (west to east) and a pale wall in its north-east corner; its true corners.
    fn tile_on_table() -> (Mat, Quad) {
        let mut img = Mat::new_rows_cols_with_default(
            240,
            320,
            CV_8UC3,
            Scalar::new(190.0, 205.0, 215.0, 0.0),
        )
        .unwrap();
        let truth: Quad = [[104.0, 62.0], [196.0, 70.0], [188.0, 162.0], [96.0, 154.0]];
        let poly: Vector<Point> = truth
            .iter()
            .map(|c| Point::new(c[0] as i32, c[1] as i32))
            .collect();
        let polys = Vector::<Vector<Point>>::from_iter([poly]);
        imgproc::fill_poly(
            &mut img,
            &polys,
            Scalar::new(60.0, 150.0, 90.0, 0.0),
            imgproc::LINE_8,
            0,
            Point::new(0, 0),
        )
        .unwrap();
        let road: Vector<Point> = [[100, 102], [193, 110], [192, 122], [99, 114]]
            .iter()
            .map(|c| Point::new(c[0], c[1]))
            .collect();
        let polys = Vector::<Vector<Point>>::from_iter([road]);
        imgproc::fill_poly(
            &mut img,
            &polys,
            Scalar::new(190.0, 205.0, 215.0, 0.0),
            imgproc::LINE_8,
            0,
            Point::new(0, 0),
        )
        .unwrap();
        imgproc::circle(
            &mut img,
            Point::new(196, 70),
            18,
            Scalar::new(200.0, 215.0, 225.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        (img, truth)
    }

    #[test]
    fn a_corner_found_short_moves_onto_the_tile_s_borders() {
        let (img, truth) = tile_on_table();
        // The north-east corner found short, where the wall is as pale as the table.
        let found: Quad = [[106.0, 63.0], [186.0, 80.0], [187.0, 160.0], [97.0, 153.0]];
        let (fitted, sides) = fit_outline(&img, &found, &beige);
        assert_eq!(sides, [true; 4]);
        for (f, t) in fitted.iter().zip(&truth) {
            let err = (f[0] - t[0]).hypot(f[1] - t[1]);
            assert!(err < 1.5, "{f:?} vs {t:?}: {err:.2} px");
        }
    }

    #[test]
    fn on_a_bare_table_nothing_moves() {
        let img = Mat::new_rows_cols_with_default(
            240,
            320,
            CV_8UC3,
            Scalar::new(190.0, 205.0, 215.0, 0.0),
        )
        .unwrap();
        let quad: Quad = [[104.0, 62.0], [196.0, 70.0], [188.0, 162.0], [96.0, 154.0]];
        assert_eq!(fit_outline(&img, &quad, &beige), (quad, [false; 4]));
    }
}

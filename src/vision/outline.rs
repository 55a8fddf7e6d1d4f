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
/// How far (radians) two opposite sides of a tile may converge in the picture, per tile side
/// (pixels) over the picture's width: about tan(tilt) / (focal length / width) for a square
/// seen tilted; the simulator's oblique views reach 1.9, a 90° lens tilted 55° some 3.
const CONVERGENCE: f64 = 3.0;

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

/// A line through `points` most of them lie on (within [`ON_LINE_PX`]), and how many do: the
/// pair of points whose line most others lie on, refitted to those by least squares. With
/// `along` (a direction, and how many radians off it the line may turn), the line of that
/// direction through one of the points instead, refitted only within that turn. `None` when
/// too few points lie on it.
fn robust_line(points: &[[f64; 2]], along: Option<([f64; 2], f64)>) -> Option<(Line, usize)> {
    let off = |p: [f64; 2], (q, v): Line| ((p[0] - q[0]) * v[1] - (p[1] - q[1]) * v[0]).abs();
    let candidates: Vec<Line> = match along {
        Some((v, _)) => points.iter().map(|&a| (a, v)).collect(),
        None => points
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| points[i + 1..].iter().map(move |&b| (a, b)))
            .filter_map(|(a, b)| {
                let len = (b[0] - a[0]).hypot(b[1] - a[1]);
                (len >= 1e-9).then(|| (a, [(b[0] - a[0]) / len, (b[1] - a[1]) / len]))
            })
            .collect(),
    };
    let mut best: Option<(usize, Line)> = None;
    for line in candidates {
        let support = points
            .iter()
            .filter(|&&p| off(p, line) <= ON_LINE_PX)
            .count();
        if best.is_none_or(|(n, _)| support > n) {
            best = Some((support, line));
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
    let refitted = (mean, [angle.cos(), angle.sin()]);
    // Refitted past the turn allowed, the line found stands.
    if along.is_some_and(|(v, most)| angle_apart(v, refitted.1) > most) {
        return Some((line, support));
    }
    Some((refitted, support))
}

/// The angle (radians, 0 to π/2) between two lines of directions `a` and `b` (unit vectors).
fn angle_apart(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] * b[0] + a[1] * b[1]).abs().min(1.0).acos()
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

/// The first border from tile to table (colours `table_like` tells) outwards of side `k` of
/// `quad` (from corner `k` to corner `k + 1`) at each sample where one shows.
fn border_points(
    frame: &Mat,
    quad: &Quad,
    k: usize,
    table_like: &dyn Fn([f64; 3]) -> bool,
) -> Vec<[f64; 2]> {
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
    points
}

/// `quad` (corners NW, NE, SE, SW of a tile lying alone on the table, at most [`REACH`] of a
/// tile side short of it) with each side moved onto the straight border the picture (BGR)
/// shows there between the tile and the table (colours `table_like` tells), and which sides
/// were. A side with no such border stays where it was; of two opposite sides converging more
/// than any view shows ([`CONVERGENCE`]), one is refitted along the other.
pub fn fit_outline(
    frame: &Mat,
    quad: &Quad,
    table_like: &dyn Fn([f64; 3]) -> bool,
) -> (Quad, [bool; 4]) {
    let points: Vec<Vec<[f64; 2]>> = (0..4)
        .map(|k| border_points(frame, quad, k, table_like))
        .collect();
    let mut found: Vec<Option<(Line, usize)>> =
        points.iter().map(|p| robust_line(p, None)).collect();
    let side = (quad[1][0] - quad[0][0]).hypot(quad[1][1] - quad[0][1]);
    align_converging(
        &mut found,
        &points,
        CONVERGENCE * side / f64::from(frame.cols().max(1)),
    );
    let found: Vec<Option<Line>> = found.into_iter().map(|f| f.map(|(line, _)| line)).collect();
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

/// Sides `found` (each with how many of its border `points` lie on it) refitted where two
/// opposite ones converge more than `most` radians, which no view of a tile shows: one of them
/// ran along something else over part of the side (a city's roofs as brown as the wood, the
/// border between roofs and walls). Of the two refitted along the other, the one that leaves
/// more border points on the pair's lines is kept.
fn align_converging(found: &mut [Option<(Line, usize)>], points: &[Vec<[f64; 2]>], most: f64) {
    for k in 0..2 {
        let (Some(a), Some(b)) = (found[k], found[k + 2]) else {
            continue;
        };
        if angle_apart(a.0 .1, b.0 .1) <= most {
            continue;
        }
        let refit_a = robust_line(&points[k], Some((b.0 .1, most)));
        let refit_b = robust_line(&points[k + 2], Some((a.0 .1, most)));
        let with_b = refit_a.map_or(0, |r| r.1 + b.1);
        let with_a = refit_b.map_or(0, |r| r.1 + a.1);
        if with_b >= with_a {
            found[k] = refit_a;
        } else {
            found[k + 2] = refit_b;
        }
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

    /// `img` with the polygon `points` filled in `colour`.
    fn fill(img: &mut Mat, points: &[[i32; 2]], colour: Scalar) {
        let poly: Vector<Point> = points.iter().map(|c| Point::new(c[0], c[1])).collect();
        let polys = Vector::<Vector<Point>>::from_iter([poly]);
        imgproc::fill_poly(img, &polys, colour, imgproc::LINE_8, 0, Point::new(0, 0)).unwrap();
    }

    #[test]
    fn a_side_run_partly_along_print_like_the_table_is_fitted_along_the_opposite_side() {
        // A tile 50 pixels across in a 1280-pixel-wide picture (a far, slanted view), the
        // eastern half of its north border as pale as the table: a wedge of the table's
        // colour from the border's middle to 7 pixels deep at the north-east corner (roofs
        // as brown as the wood). The mask's north-east corner came out that far short, and
        // the border points there run along the wedge, a line 14° off the south side's.
        let beige_bgr = Scalar::new(190.0, 205.0, 215.0, 0.0);
        let mut img = Mat::new_rows_cols_with_default(720, 1280, CV_8UC3, beige_bgr).unwrap();
        let truth: Quad = [
            [600.0, 300.0],
            [650.0, 300.0],
            [649.0, 333.0],
            [598.0, 333.0],
        ];
        let green = Scalar::new(60.0, 150.0, 90.0, 0.0);
        fill(
            &mut img,
            &[[600, 300], [650, 300], [649, 333], [598, 333]],
            green,
        );
        fill(&mut img, &[[625, 300], [651, 299], [650, 307]], beige_bgr);
        let found: Quad = [
            [600.0, 300.0],
            [650.0, 307.0],
            [649.0, 333.0],
            [598.0, 333.0],
        ];
        let (fitted, _) = fit_outline(&img, &found, &beige);
        // Within a twentieth of the tile: the north side is found along the south side's
        // direction, then refitted within the turn a far tile's sides may show.
        for (f, t) in fitted.iter().zip(&truth) {
            let err = (f[0] - t[0]).hypot(f[1] - t[1]);
            assert!(err < 2.5, "{f:?} vs {t:?}: {err:.2} px");
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

//! A cell's corners moved onto the edges the picture shows: a tile's border against the table,
//! or the thin gap between two tiles, is a straight line of strong contrast along the whole
//! side, where a grid predicted from far away (lens distortion, a tilted view) is often a
//! fifth of a tile off.

use opencv::core::Mat;
use opencv::prelude::*;

use super::rectify::Quad;

/// How far (in tile sides) each side is looked for either way of where it is expected.
const REACH: f64 = 0.2;
/// Points sampled along the middle of each side.
const SAMPLES: usize = 24;
/// Share of each side's length left out at both ends (corners are where neighbours meet).
const END_TRIM: f64 = 0.15;
/// Largest grey step one point adds to a side's score (one strong feature must not decide).
const STEP_CAP: f64 = 60.0;
/// How much stronger than where they were expected two opposite edges must be to move there.
const MOVE_GAIN: f64 = 1.25;
/// Most the gap between opposite sides may change by snapping, as a share of a tile side.
const MOST_STRETCH: f64 = 0.15;

/// The `N` channels at a real-valued pixel position of `picture`, mixed bilinearly from the four
/// pixels around it (`pixel(x, y)` reads one); `None` outside the picture.
pub(super) fn bilinear<const N: usize>(
    picture: &Mat,
    x: f64,
    y: f64,
    pixel: impl Fn(i32, i32) -> Option<[f64; N]>,
) -> Option<[f64; N]> {
    let (x0, y0) = (x.floor(), y.floor());
    if x0 < 0.0
        || y0 < 0.0
        || x0 + 1.0 >= f64::from(picture.cols())
        || y0 + 1.0 >= f64::from(picture.rows())
    {
        return None;
    }
    let (fx, fy) = (x - x0, y - y0);
    let mut out = [0.0; N];
    for (dx, dy, w) in [
        (0, 0, (1.0 - fx) * (1.0 - fy)),
        (1, 0, fx * (1.0 - fy)),
        (0, 1, (1.0 - fx) * fy),
        (1, 1, fx * fy),
    ] {
        let p = pixel(x0 as i32 + dx, y0 as i32 + dy)?;
        for (o, v) in out.iter_mut().zip(p) {
            *o += w * v;
        }
    }
    Some(out)
}

/// An 8-bit grey picture's pixels, read without going through OpenCV for each one.
struct Grey<'a> {
    px: &'a [u8],
    cols: usize,
    rows: usize,
}

impl Grey<'_> {
    /// Grey level at a real-valued pixel position (bilinear), `None` outside the picture.
    fn at(&self, x: f64, y: f64) -> Option<f64> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        // Truncation is the floor here (no negative positions), and cheaper.
        let (x0, y0) = ((x as usize) as f64, (y as usize) as f64);
        if x0 + 1.0 >= self.cols as f64 || y0 + 1.0 >= self.rows as f64 {
            return None;
        }
        let (fx, fy) = (x - x0, y - y0);
        let i = y0 as usize * self.cols + x0 as usize;
        let v = |k: usize| f64::from(self.px[k]);
        let top = v(i) * (1.0 - fx) + v(i + 1) * fx;
        let bottom = v(i + self.cols) * (1.0 - fx) + v(i + self.cols + 1) * fx;
        Some(top * (1.0 - fy) + bottom * fy)
    }
}

/// Mean (capped) grey step across the line from `a` to `b` at each offset `-reach..=reach`
/// pixels along `normal`: the grey levels along the normal through each sample point are read
/// once, and each step is taken between the levels a pixel either side of its offset. An offset
/// where fewer than half the samples lie in the picture scores 0.
fn edge_strengths(grey: &Grey, a: [f64; 2], b: [f64; 2], normal: [f64; 2], reach: i32) -> Vec<f64> {
    let offsets = (2 * reach + 1).max(0) as usize;
    let mut sums = vec![0.0; offsets];
    let mut counts = vec![0usize; offsets];
    let mut levels: Vec<Option<f64>> = Vec::with_capacity(offsets + 2);
    for i in 0..SAMPLES {
        let t = END_TRIM + (1.0 - 2.0 * END_TRIM) * (i as f64 + 0.5) / SAMPLES as f64;
        let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        levels.clear();
        levels.extend((-reach - 1..=reach + 1).map(|k| {
            let k = f64::from(k);
            grey.at(p[0] + normal[0] * k, p[1] + normal[1] * k)
        }));
        for (j, (sum, n)) in sums.iter_mut().zip(&mut counts).enumerate() {
            // Offset j - reach lies between levels j (one pixel in) and j + 2 (one out).
            if let (Some(out), Some(inn)) = (levels[j + 2], levels[j]) {
                *sum += (out - inn).abs().min(STEP_CAP);
                *n += 1;
            }
        }
    }
    sums.iter()
        .zip(counts)
        .map(|(sum, n)| if n < SAMPLES / 2 { 0.0 } else { sum / n as f64 })
        .collect()
}

/// Where two lines meet: each through `p` with direction `v`.
pub(super) fn meet(p: [f64; 2], v: [f64; 2], q: [f64; 2], w: [f64; 2]) -> Option<[f64; 2]> {
    let det = v[0] * w[1] - v[1] * w[0];
    if det.abs() < 1e-9 {
        return None;
    }
    let t = ((q[0] - p[0]) * w[1] - (q[1] - p[1]) * w[0]) / det;
    Some([p[0] + v[0] * t, p[1] + v[1] * t])
}

/// One side of a quad: its line, outward normal, and how strong an edge lies at each offset
/// along the normal (index `i` is offset `i - reach` pixels).
struct Side {
    from: [f64; 2],
    along: [f64; 2],
    normal: [f64; 2],
    reach: i32,
    strength: Vec<f64>,
}

impl Side {
    fn measure(grey: &Grey, quad: &Quad, k: usize) -> Side {
        let centre = [
            quad.iter().map(|p| p[0]).sum::<f64>() / 4.0,
            quad.iter().map(|p| p[1]).sum::<f64>() / 4.0,
        ];
        let (a, b) = (quad[k], quad[(k + 1) % 4]);
        let along = [b[0] - a[0], b[1] - a[1]];
        let len = along[0].hypot(along[1]).max(1e-9);
        let mut normal = [-along[1] / len, along[0] / len];
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        if (mid[0] - centre[0]) * normal[0] + (mid[1] - centre[1]) * normal[1] < 0.0 {
            normal = [-normal[0], -normal[1]];
        }
        let reach = (len * REACH).round() as i32;
        let strength = edge_strengths(grey, a, b, normal, reach);
        Side {
            from: a,
            along,
            normal,
            reach,
            strength,
        }
    }

    fn at(&self, d: i32) -> f64 {
        self.strength[(d + self.reach) as usize]
    }

    /// The side's line moved `d` pixels outwards: a point on it and its direction.
    fn moved(&self, d: i32) -> ([f64; 2], [f64; 2]) {
        let d = f64::from(d);
        (
            [
                self.from[0] + self.normal[0] * d,
                self.from[1] + self.normal[1] * d,
            ],
            self.along,
        )
    }
}

/// The outward moves of two opposite sides that put both on strong edges at once, their gap
/// changed by at most [`MOST_STRETCH`] of `length`: (0, 0) unless clearly stronger than where
/// they are.
fn best_pair(a: &Side, b: &Side, length: f64) -> (i32, i32) {
    let most = (length * MOST_STRETCH).round() as i32;
    let here = a.at(0) + b.at(0);
    let mut best = ((0, 0), f64::MIN);
    for da in -a.reach..=a.reach {
        for db in -b.reach..=b.reach {
            if (da + db).abs() > most {
                continue;
            }
            let score = a.at(da) + b.at(db);
            if score > best.1 {
                best = ((da, db), score);
            }
        }
    }
    if best.1 > here * MOVE_GAIN {
        best.0
    } else {
        (0, 0)
    }
}

/// `quad` with its sides moved (each parallel to itself) onto straight edges of the picture:
/// opposite sides move together, a tile's width apart give or take `MOST_STRETCH`, so that
/// one line inside the tile (a road, a city wall) cannot pull one side alone. Each side moves
/// at most `REACH` of a tile side, and only to edges clearly stronger than where it was.
/// `grey` is the picture in grey levels (8 bits).
pub fn snap_to_edges(grey: &Mat, quad: &Quad) -> Quad {
    if grey.typ() != opencv::core::CV_8UC1 {
        return *quad;
    }
    let continuous;
    let grey = if grey.is_continuous() {
        grey
    } else {
        match grey.try_clone() {
            Ok(m) => {
                continuous = m;
                &continuous
            }
            Err(_) => return *quad,
        }
    };
    let Ok(px) = grey.data_bytes() else {
        return *quad;
    };
    let grey = Grey {
        px,
        cols: grey.cols().max(0) as usize,
        rows: grey.rows().max(0) as usize,
    };
    let sides: Vec<Side> = (0..4).map(|k| Side::measure(&grey, quad, k)).collect();
    let length = |k: usize| sides[k].along[0].hypot(sides[k].along[1]);
    // Sides 0 (north) and 2 (south) are the east side's length apart, and so on.
    let (dn, ds) = best_pair(&sides[0], &sides[2], (length(1) + length(3)) / 2.0);
    let (de, dw) = best_pair(&sides[1], &sides[3], (length(0) + length(2)) / 2.0);
    let lines = [
        sides[0].moved(dn),
        sides[1].moved(de),
        sides[2].moved(ds),
        sides[3].moved(dw),
    ];
    let mut out = *quad;
    for (k, corner) in out.iter_mut().enumerate() {
        // Corner k lies where side k-1 (ending at it) meets side k (starting at it).
        let (p, v) = lines[(k + 3) % 4];
        let (q, w) = lines[k];
        match meet(p, v, q, w) {
            Some(c) => *corner = c,
            None => return *quad,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Scalar, CV_8UC1};
    use opencv::imgproc;

    /// A light square (a tile) on a dark table.
    fn square_on_table(lo: i32, hi: i32) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(200, 200, CV_8UC1, Scalar::all(40.0)).unwrap();
        imgproc::rectangle(
            &mut m,
            opencv::core::Rect::new(lo, lo, hi - lo, hi - lo),
            Scalar::all(180.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        m
    }

    #[test]
    fn a_quad_predicted_off_moves_onto_the_tile() {
        let grey = square_on_table(60, 140);
        // Predicted 12 px too far right and 8 % too small.
        let guess = [[75.0, 63.0], [149.0, 63.0], [149.0, 137.0], [75.0, 137.0]];
        let snapped = snap_to_edges(&grey, &guess);
        let want = [[60.0, 60.0], [140.0, 60.0], [140.0, 140.0], [60.0, 140.0]];
        for (s, w) in snapped.iter().zip(want) {
            assert!(
                (s[0] - w[0]).abs() <= 1.5 && (s[1] - w[1]).abs() <= 1.5,
                "{snapped:?}"
            );
        }
    }

    #[test]
    fn with_no_edges_nothing_moves() {
        let grey = Mat::new_rows_cols_with_default(200, 200, CV_8UC1, Scalar::all(90.0)).unwrap();
        let guess = [[60.0, 60.0], [140.0, 60.0], [140.0, 140.0], [60.0, 140.0]];
        assert_eq!(snap_to_edges(&grey, &guess), guess);
    }
}

//! The table the tiles lie on: its colours, sampled away from the tiles, and whether a colour
//! passes for it (a plain table is one colour, a checked cloth or strong grain two).

use opencv::core::Mat;
use opencv::prelude::*;

use super::rectify::{quad_homography, Quad};
use crate::sim::camera::apply_homography;

/// The table's colours: two cluster centres of rings of pixels a little inside the frame's
/// border (one for a plain table, two for a checked cloth or strong grain). The border itself is
/// left out: a strip of floor or of the table's edge may show there.
pub fn table_colours(frame: &Mat) -> opencv::Result<[[f32; 3]; 2]> {
    let (w, h) = (frame.cols(), frame.rows());
    let mut px: Vec<[f32; 3]> = Vec::new();
    let mut push = |x: i32, y: i32| -> opencv::Result<()> {
        let v = frame.at_2d::<opencv::core::Vec3b>(y, x)?;
        px.push([f32::from(v[0]), f32::from(v[1]), f32::from(v[2])]);
        Ok(())
    };
    for inset in TABLE_RINGS {
        let (dx, dy) = (
            ((f64::from(w) * inset) as i32).min(w - 1),
            ((f64::from(h) * inset) as i32).min(h - 1),
        );
        for x in (0..w).step_by(3) {
            push(x, dy)?;
            push(x, h - 1 - dy)?;
        }
        for y in (0..h).step_by(3) {
            push(dx, y)?;
            push(w - 1 - dx, y)?;
        }
    }
    Ok(two_means(&px))
}

/// Where (shares of the frame's width and height in from each side) [`table_colours`] samples.
const TABLE_RINGS: [f64; 3] = [0.03, 0.06, 0.1];

/// The table's colours around the start tile (corners `start`) in a setup frame: two cluster
/// centres of the table one to four cells from it, where it is seen at the board's own scale
/// and light (a far checked cloth blurs into one colour at the frame's border).
pub fn table_colours_near(frame: &Mat, start: &Quad) -> opencv::Result<[[f32; 3]; 2]> {
    let h = quad_homography(start)?;
    let mut px: Vec<[f32; 3]> = Vec::new();
    for gy in -16..=20 {
        for gx in -16..=20 {
            let g = [f64::from(gx) / 4.0, f64::from(gy) / 4.0];
            if (-1.0..=2.0).contains(&g[0]) && (-1.0..=2.0).contains(&g[1]) {
                continue;
            }
            let p = apply_homography(&h, g);
            let (x, y) = (p[0].round() as i32, p[1].round() as i32);
            if x >= 0 && y >= 0 && x < frame.cols() && y < frame.rows() {
                let v = frame.at_2d::<opencv::core::Vec3b>(y, x)?;
                px.push([f32::from(v[0]), f32::from(v[1]), f32::from(v[2])]);
            }
        }
    }
    if px.len() < 32 {
        return table_colours(frame);
    }
    Ok(two_means(&px))
}

/// Two cluster centres of some colours, grown from the darkest and the lightest.
fn two_means(px: &[[f32; 3]]) -> [[f32; 3]; 2] {
    let luma = |p: &[f32; 3]| p[0] + p[1] + p[2];
    let mut centres = [
        *px.iter()
            .min_by(|a, b| luma(a).total_cmp(&luma(b)))
            .unwrap_or(&[0.0; 3]),
        *px.iter()
            .max_by(|a, b| luma(a).total_cmp(&luma(b)))
            .unwrap_or(&[0.0; 3]),
    ];
    for _ in 0..8 {
        let mut sum = [[0.0f32; 3]; 2];
        let mut n = [0usize; 2];
        for p in px {
            let k = usize::from(dist2(p, &centres[1]) < dist2(p, &centres[0]));
            for c in 0..3 {
                sum[k][c] += p[c];
            }
            n[k] += 1;
        }
        for k in 0..2 {
            if n[k] > 0 {
                centres[k] = sum[k].map(|s| s / n[k] as f32);
            }
        }
    }
    centres
}

fn dist2(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum()
}

/// Whether a pixel shows the table (colours `table`, a mix of them, a little lighter or darker).
pub fn table_like(p: [u8; 3], table: &[[f32; 3]; 2]) -> bool {
    blend_distance2(p, table) <= TABLE_LIKE * TABLE_LIKE
}

/// Squared distance from a pixel to the nearest mix of the two table colours, a little lighter
/// or darker (the edges of checks and grain, under uneven light).
pub(super) fn blend_distance2(p: [u8; 3], table: &[[f32; 3]; 2]) -> f32 {
    blend_distances2(p, table).fold(f32::MAX, f32::min)
}

/// Whether [`blend_distance2`] is less than `bound`: measured lightness by lightness, the
/// likeliest first, until one is near enough.
pub(super) fn blend_within(p: [u8; 3], table: &[[f32; 3]; 2], bound: f32) -> bool {
    blend_distances2(p, table).any(|d| d < bound)
}

/// Squared distances from a pixel to the nearest mix of the two table colours at each lightness
/// tried (the pixel divided by it), in the pixel's own levels.
fn blend_distances2(p: [u8; 3], table: &[[f32; 3]; 2]) -> impl Iterator<Item = f32> + '_ {
    let q = [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])];
    let d = [0, 1, 2].map(|c| table[1][c] - table[0][c]);
    let len2 = dist2(&table[0], &table[1]).max(1.0);
    [1.0f32, 0.9, 1.12, 0.8, 1.25].into_iter().map(move |s| {
        let r = q.map(|v| v / s);
        let t = ((0..3).map(|c| (r[c] - table[0][c]) * d[c]).sum::<f32>() / len2).clamp(0.0, 1.0);
        let on = [0, 1, 2].map(|c| table[0][c] + t * d[c]);
        dist2(&r, &on) * s * s
    })
}

/// The farthest a pixel of the table lies from the table's colours (or, for the start tile's
/// mask, from how the table looks around it).
pub(super) const TABLE_LIKE: f32 = 35.0;

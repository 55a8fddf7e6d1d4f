//! The table the tiles lie on: its colours, sampled away from the tiles, and whether a colour
//! passes for it (a plain table is one colour, a checked cloth or strong grain two).

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

use super::occlusion::keep_regions;
use super::rectify::{quad_homography, Quad};
use super::terrain::ColourModel;
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

/// How far (colour distance) each of the table's colours must lie from every terrain colour
/// for the table to show where a tile is not: a dark table or a cloth lies some 100 from any
/// terrain, a wooden one some 25 to 60 from the cities and roads printed on the tiles.
const TABLE_APART: f32 = 80.0;

/// How many times nearer (in squared colour distance) the table's colours than any terrain a
/// pixel must be to count as the table: twice as near.
const NEARER_TABLE: f32 = 4.0;

/// The least stretch (patch pixels, of the 64 a tile spans) of the table that counts: the gaps
/// between tiles, and print that shares the table's colour, are thinner.
const TABLE_STRETCH: i32 = 11;

/// A mask (255) of the table showing in a patch: stretches of [`TABLE_STRETCH`] or more,
/// reaching the patch's border (where the table beyond the board comes in), of pixels
/// [`NEARER_TABLE`] nearer the table's colours than any terrain of `model`. `None` where the
/// table's colours lie within [`TABLE_APART`] of a terrain's: there, the table is told from
/// print too poorly to count.
pub fn table_mask(
    patch: &Mat,
    table: &[[f32; 3]; 2],
    model: &ColourModel,
) -> opencv::Result<Option<Mat>> {
    let near_print = table.iter().any(|c| {
        let c = c.map(|v| v.round().clamp(0.0, 255.0) as u8);
        model.nearest_distance2(c) < TABLE_APART * TABLE_APART
    });
    if near_print {
        return Ok(None);
    }
    let patch = patch.try_clone()?;
    let (w, h) = (patch.cols(), patch.rows());
    let mut mask =
        Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8U, opencv::core::Scalar::all(0.0))?;
    for (m, p) in mask
        .data_bytes_mut()?
        .iter_mut()
        .zip(patch.data_bytes()?.chunks_exact(3))
    {
        let p = [p[0], p[1], p[2]];
        if !model.has_cluster_within2(p, NEARER_TABLE * blend_distance2(p, table)) {
            *m = 255;
        }
    }
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_RECT,
        opencv::core::Size::new(TABLE_STRETCH, TABLE_STRETCH),
        opencv::core::Point::new(-1, -1),
    )?;
    let mut stretches = Mat::default();
    imgproc::morphology_ex(
        &mask,
        &mut stretches,
        imgproc::MORPH_OPEN,
        &kernel,
        opencv::core::Point::new(-1, -1),
        1,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::all(0.0),
    )?;
    Ok(Some(keep_regions(&stretches, |reaches_border, _| {
        reaches_border
    })?))
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

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Rect, Scalar, CV_8UC3};

    const DARK: [[f32; 3]; 2] = [[30.0, 28.0, 25.0], [34.0, 31.0, 28.0]];

    /// An 80-pixel patch of grass (the default field colour) with `dark` rectangles of table.
    fn grass_with(dark: &[Rect]) -> Mat {
        let mut patch =
            Mat::new_rows_cols_with_default(80, 80, CV_8UC3, Scalar::new(70.0, 155.0, 115.0, 0.0))
                .unwrap();
        for &r in dark {
            imgproc::rectangle(&mut patch, r, Scalar::new(31.0, 29.0, 26.0, 0.0), -1, 8, 0)
                .unwrap();
        }
        patch
    }

    #[test]
    fn the_table_counts_where_it_comes_in_past_the_border_in_a_broad_stretch() {
        let band = Rect::new(0, 60, 80, 20);
        let gap = Rect::new(2, 0, 3, 60);
        let figure = Rect::new(30, 20, 20, 20);
        let mask = table_mask(
            &grass_with(&[band, gap, figure]),
            &DARK,
            &ColourModel::default(),
        )
        .unwrap()
        .expect("a dark table is told from print");
        let at = |x: i32, y: i32| *mask.at_2d::<u8>(y, x).unwrap();
        // The table beyond the board, a band along the bottom: counted.
        assert_eq!(at(40, 70), 255);
        assert_eq!(at(5, 78), 255);
        // A gap between tiles, thin; a black figure standing inside, clear of the border.
        assert_eq!(at(3, 30), 0);
        assert_eq!(at(40, 30), 0);
        assert_eq!(at(40, 50), 0);
    }

    #[test]
    fn a_table_coloured_like_the_print_tells_nothing() {
        // A wooden table as brown as the default city.
        let wood = [[80.0, 120.0, 170.0], [85.0, 130.0, 180.0]];
        let patch = grass_with(&[Rect::new(0, 60, 80, 20)]);
        assert!(table_mask(&patch, &wood, &ColourModel::default())
            .unwrap()
            .is_none());
    }
}

//! Followers on the tiles, found by the colours the players enrolled: the pixels they cover are
//! kept out of tile recognition.

use opencv::core::{Mat, Scalar, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

use super::terrain::ColourModel;
use crate::sim::effects::grow_mask;

/// The players' figure colours as the camera sees them under the table's light.
#[derive(Clone, Debug, PartialEq)]
pub struct Enrolment {
    colours: Vec<[f32; 3]>,
    tolerance: f32,
}

impl Enrolment {
    /// Figures of these colours (blue, green, red); a pixel within `tolerance` of one may be a
    /// figure.
    pub fn new(colours: Vec<[f32; 3]>, tolerance: f32) -> Enrolment {
        Enrolment { colours, tolerance }
    }

    /// How close pixel `p` is to enrolled colour `c`, or `None` if it is not that figure's paint.
    /// Coloured figures are matched by hue (their faces are lit and shaded differently) and must
    /// be nearer the figure's hue than any terrain's; black and gray ones by plain distance.
    fn closeness(&self, p: [f32; 3], c: [f32; 3], terrain: &[[f32; 3]]) -> Option<f32> {
        let sum = |v: [f32; 3]| (v[0] + v[1] + v[2]).max(1.0);
        let hue = |v: [f32; 3]| {
            let s = sum(v);
            [v[0] / s, v[1] / s, v[2] / s]
        };
        let d2 = |a: [f32; 3], b: [f32; 3]| (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>();
        let max = c.iter().copied().fold(0.0f32, f32::max).max(1.0);
        let min = c.iter().copied().fold(f32::MAX, f32::min);
        let saturated = (max - min) / max > 0.35;
        if saturated {
            let ratio = sum(p) / sum(c);
            if !(0.35..=1.6).contains(&ratio) {
                return None;
            }
            let d = d2(hue(p), hue(c));
            let nearer = terrain.iter().all(|t| d < d2(hue(p), hue(*t)));
            (d < 0.004 && nearer).then_some(d)
        } else {
            let d = d2(p, c);
            let nearer = terrain.iter().all(|t| d < d2(p, *t));
            (d < self.tolerance * self.tolerance && nearer).then_some(d / 1e4)
        }
    }

    /// The enrolled colours, in player order.
    pub fn colours(&self) -> &[[f32; 3]] {
        &self.colours
    }

    /// 255 where a figure covers the patch: blobs of pixels nearer an enrolled colour than any
    /// terrain of `model`, at least `min_share` of the patch (smaller blobs are print: a shield,
    /// a roof).
    pub fn figure_mask(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
    ) -> opencv::Result<Mat> {
        Ok(self.find(patch, model, min_share)?.0)
    }

    /// The figures in a patch: the covering mask (as [`Enrolment::figure_mask`]) and one blob per
    /// figure.
    pub fn find(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
    ) -> opencv::Result<(Mat, Vec<Blob>)> {
        let (w, h) = (patch.cols(), patch.rows());
        let patch = patch.try_clone()?;
        let bytes = patch.data_bytes()?;
        let mut nearest = vec![usize::MAX; (w * h) as usize];
        let terrain: Vec<[f32; 3]> = model.means()[..4].to_vec();
        for (k, px) in bytes.chunks_exact(3).enumerate() {
            let p = [f32::from(px[0]), f32::from(px[1]), f32::from(px[2])];
            let best = self
                .colours
                .iter()
                .enumerate()
                .filter_map(|(i, c)| self.closeness(p, *c, &terrain).map(|d| (i, d)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((i, _)) = best {
                nearest[k] = i;
            }
        }
        // Each colour's pixels apart: a figure beside a dark stretch that passes for black, or
        // beside a figure of another colour, stays itself.
        let min_area = (min_share * f64::from(w * h)) as i32;
        let mut blobs = Vec::new();
        let mut kept = vec![false; (w * h) as usize];
        for colour in 0..self.colours.len() {
            // Too few pixels of this colour for a figure: nothing to look for.
            let count = nearest.iter().filter(|&&i| i == colour).count();
            if count == 0 || (count as i32) < min_area {
                continue;
            }
            let mut own = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0))?;
            for (m, &i) in own.data_bytes_mut()?.iter_mut().zip(&nearest) {
                *m = if i == colour { 255 } else { 0 };
            }
            let (mut labels, mut stats, mut centroids) =
                (Mat::default(), Mat::default(), Mat::default());
            let n = imgproc::connected_components_with_stats(
                &own,
                &mut labels,
                &mut stats,
                &mut centroids,
                8,
                opencv::core::CV_32S,
            )?;
            let mut keep = vec![false; n.max(0) as usize];
            for i in 1..n {
                let area = *stats.at_2d::<i32>(i, imgproc::CC_STAT_AREA)?;
                if area < min_area {
                    continue;
                }
                keep[i as usize] = true;
                let top = *stats.at_2d::<i32>(i, imgproc::CC_STAT_TOP)?;
                let height = *stats.at_2d::<i32>(i, imgproc::CC_STAT_HEIGHT)?;
                blobs.push(Blob {
                    colour,
                    centroid: [
                        *centroids.at_2d::<f64>(i, 0)?,
                        *centroids.at_2d::<f64>(i, 1)?,
                    ],
                    cut_below: top + height >= h,
                    area: area as usize,
                });
            }
            for (k, &l) in kept.iter_mut().zip(labels.data_typed::<i32>()?) {
                *k |= keep[l.max(0) as usize];
            }
        }
        let mut mask = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0))?;
        for (m, &k) in mask.data_bytes_mut()?.iter_mut().zip(&kept) {
            *m = if k { 255 } else { 0 };
        }
        // Grow a little: figures have soft, shaded edges.
        Ok((grow_mask(&mask, 2)?, blobs))
    }
}

/// One figure seen in a patch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blob {
    /// Index of the enrolled colour it shows.
    pub colour: usize,
    /// Centre of its pixels (patch pixels).
    pub centroid: [f64; 2],
    /// It reaches the patch's bottom border: the figure goes on below the patch (it stands on
    /// the tile below, and rises into this one's picture).
    pub cut_below: bool,
    /// Pixels.
    pub area: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Rect, CV_8UC3};

    const RED: [f32; 3] = [40.0, 35.0, 200.0];
    const BLACK: [f32; 3] = [35.0, 35.0, 38.0];

    /// An 80-pixel patch of field with `parts` painted on it (rectangle, blue-green-red).
    fn field_with(parts: &[(Rect, [f64; 3])]) -> Mat {
        let mut patch =
            Mat::new_rows_cols_with_default(80, 80, CV_8UC3, Scalar::new(60.0, 150.0, 80.0, 0.0))
                .unwrap();
        for &(rect, [b, g, r]) in parts {
            let colour = Scalar::new(b, g, r, 0.0);
            imgproc::rectangle(
                &mut patch,
                rect,
                colour,
                imgproc::FILLED,
                imgproc::LINE_8,
                0,
            )
            .unwrap();
        }
        patch
    }

    #[test]
    fn a_figure_beside_a_dark_stretch_that_passes_for_black_keeps_its_colour() {
        // A red figure against a wide dark stretch (a shadow on a dark print) that is as near
        // the black player's colour as a figure's paint.
        let patch = field_with(&[
            (Rect::new(0, 20, 40, 40), [30.0, 30.0, 32.0]),
            (Rect::new(40, 30, 14, 16), [40.0, 35.0, 200.0]),
        ]);
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        let (_, blobs) = enrolment
            .find(&patch, &ColourModel::default(), 0.03)
            .unwrap();
        assert!(
            blobs
                .iter()
                .any(|b| b.colour == 0 && (b.centroid[0] - 46.5).abs() < 0.5),
            "{blobs:?}"
        );
    }
}

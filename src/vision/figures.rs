//! Followers on the tiles, found by the colours the players enrolled: the pixels they cover are
//! kept out of tile recognition.

use opencv::core::{Mat, Scalar, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

use super::terrain::ColourModel;

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

    /// 255 where a figure covers the patch: blobs of pixels nearer an enrolled colour than any
    /// terrain of `model`, at least `min_share` of the patch (smaller blobs are print: a shield,
    /// a roof).
    pub fn figure_mask(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
    ) -> opencv::Result<Mat> {
        let (w, h) = (patch.cols(), patch.rows());
        let mut mask = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0))?;
        let patch = patch.try_clone()?;
        let bytes = patch.data_bytes()?;
        let tol2 = self.tolerance * self.tolerance;
        {
            let out = mask.data_bytes_mut()?;
            for (k, px) in bytes.chunks_exact(3).enumerate() {
                let bgr = [px[0], px[1], px[2]];
                let terrain = model.nearest_distance2(bgr);
                let near = self.colours.iter().any(|c| {
                    let d = (0..3)
                        .map(|i| (f32::from(px[i]) - c[i]).powi(2))
                        .sum::<f32>();
                    d < tol2 && d < terrain
                });
                if near {
                    out[k] = 255;
                }
            }
        }
        let mut labels = Mat::default();
        let mut stats = Mat::default();
        let mut centroids = Mat::default();
        let n = imgproc::connected_components_with_stats(
            &mask,
            &mut labels,
            &mut stats,
            &mut centroids,
            8,
            opencv::core::CV_32S,
        )?;
        let min_area = (min_share * f64::from(w * h)) as i32;
        let big: Vec<bool> = (0..n)
            .map(|i| {
                i > 0
                    && stats
                        .at_2d::<i32>(i, imgproc::CC_STAT_AREA)
                        .map(|a| *a >= min_area)
                        .unwrap_or(false)
            })
            .collect();
        let out = mask.data_bytes_mut()?;
        let labels = labels.data_typed::<i32>()?;
        for (m, &l) in out.iter_mut().zip(labels) {
            *m = if big.get(l as usize).copied().unwrap_or(false) {
                255
            } else {
                0
            };
        }
        // Grow a little: figures have soft, shaded edges.
        let kernel = Mat::ones(3, 3, CV_8UC1)?.to_mat()?;
        let mut grown = Mat::default();
        imgproc::dilate(
            &mask,
            &mut grown,
            &kernel,
            opencv::core::Point::new(-1, -1),
            2,
            opencv::core::BORDER_CONSTANT,
            imgproc::morphology_default_border_value()?,
        )?;
        Ok(grown)
    }
}

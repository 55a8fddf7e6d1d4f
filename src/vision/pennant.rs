//! The pennant (shield) detector: whether a tile's city shows a coat of arms. Shields are small,
//! strongly blue and printed wherever an edition likes inside the city, so the detector counts
//! shield-blue pixels over the whole city of each candidate reading instead of matching a place.

use opencv::core::Mat;
use opencv::prelude::*;

use super::rectify::INSET;
use super::terrain::label_at;
use crate::geometry::TileShape;
use crate::rules::{catalogue, Attr, FeatureKind, Rotation, TileId};
use crate::sim::effects::grow_mask;

/// Shield-blue pixels (at [`super::rectify::PATCH_PX`] scale) that count as a shield seen.
const SEEN_PX: usize = 3;
/// How far blue must exceed green and red for a shield pixel.
const BLUE_MARGIN: i32 = 15;
/// Extra pixels around figures left out: their shaded rims may be shield-blue.
const FIGURE_RIM: i32 = 3;
/// Chance of seeing no shield-blue where there is no pennant.
const CLEAN: f64 = 0.97;
/// Chance of seeing a shield that lies in plain view.
const SEEN_IF_VISIBLE: f64 = 0.95;
/// Half the side of the square around a catalogue shield spot whose visibility is checked.
const SPOT_HALF: f32 = 0.06;
/// How near (pixels) a shield's blue lies to its white.
const WHITE_REACH: i32 = 2;

/// Which pixels of a patch are shield-blue and which were seen at all (not under a figure).
pub struct ShieldMap {
    w: usize,
    h: usize,
    blue: Vec<bool>,
    seen: Vec<bool>,
    /// Pixels in the blue patch each pixel belongs to (0 off blue).
    blob: Vec<u32>,
    /// The smallest blue patch that may be a shield.
    min_blob: u32,
}

/// Whether a pixel (blue, green, red) is the blue of a shield: blue above both other channels,
/// which no field, road, city or roof shows under white-ish light.
fn shield_blue(p: [u8; 3]) -> bool {
    let [b, g, r] = p.map(i32::from);
    let other = g.max(r);
    b - other > BLUE_MARGIN
}

/// Whether a pixel is the white of a shield's other half or rim: light and grey.
fn whitish(p: [u8; 3]) -> bool {
    let (lo, hi) = (
        p.iter().min().copied().unwrap_or(0),
        p.iter().max().copied().unwrap_or(0),
    );
    lo > 150 && hi - lo < 45
}

impl ShieldMap {
    /// Maps a patch; pixels under `figures` (255) are unseen.
    pub fn new(patch: &Mat, figures: Option<&Mat>) -> opencv::Result<ShieldMap> {
        let patch = patch.try_clone()?;
        let (w, h) = (patch.cols().max(0) as usize, patch.rows().max(0) as usize);
        let bytes = patch.data_bytes()?;
        let hidden: Option<Vec<u8>> = match figures {
            Some(m) => Some(grow_mask(m, FIGURE_RIM)?.data_bytes()?.to_vec()),
            None => None,
        };
        let seen: Vec<bool> = (0..w * h)
            .map(|k| hidden.as_ref().is_none_or(|m| m[k] == 0))
            .collect();
        // A shield is blue beside white: blue roofs and figures' shaded rims are not.
        let mut white = Mat::new_rows_cols_with_default(
            h as i32,
            w as i32,
            opencv::core::CV_8UC1,
            opencv::core::Scalar::all(0.0),
        )?;
        for (k, m) in white.data_bytes_mut()?.iter_mut().enumerate() {
            let p = [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
            *m = if whitish(p) { 255 } else { 0 };
        }
        let near_white = grow_mask(&white, WHITE_REACH)?;
        let near_white = near_white.data_bytes()?;
        let blue: Vec<bool> = (0..w * h)
            .map(|k| {
                seen[k]
                    && near_white[k] != 0
                    && shield_blue([bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]])
            })
            .collect();
        let blob = blob_sizes(&blue, w, h)?;
        Ok(ShieldMap {
            w,
            h,
            blue,
            seen,
            blob,
            min_blob: 1,
        })
    }

    /// This map counting only blue patches of at least `min_blob` pixels as shields (an
    /// edition whose cities show blue roofs without pennants, as its start tile tells).
    pub fn with_min_blob(mut self, min_blob: u32) -> ShieldMap {
        self.min_blob = min_blob.max(1);
        self
    }

    /// Pixels in the largest blue patch.
    pub fn largest_blob(&self) -> u32 {
        self.blob.iter().copied().max().unwrap_or(0)
    }

    /// Log-likelihood of what the `side`-pixel window at (x, y) shows, if it holds `tile` lying
    /// with `rot`: shields seen in its cities where it has pennants, none where it has none.
    /// Tiles without a city get 0.
    pub fn log_likelihood(
        &self,
        tile: TileId,
        rot: Rotation,
        x: usize,
        y: usize,
        side: usize,
    ) -> f64 {
        let ty = catalogue().tile(tile);
        if !ty.features.iter().any(|f| f.kind == FeatureKind::City) || side == 0 {
            return 0.0;
        }
        let shape = TileShape::of(tile);
        let spots: Vec<[f32; 2]> = shape
            .pennants
            .iter()
            .map(|&p| crate::geometry::rotate(p, rot))
            .collect();
        let scale = (1.0 - 2.0 * INSET as f32) / side as f32;
        let (mut blue, mut spot_all, mut spot_seen) = (0usize, 0usize, 0usize);
        for py in y..(y + side).min(self.h) {
            for px in x..(x + side).min(self.w) {
                let u = [
                    INSET as f32 + (px - x) as f32 * scale,
                    INSET as f32 + (py - y) as f32 * scale,
                ];
                let k = py * self.w + px;
                let label = usize::from(label_at(&shape.labels, u, rot));
                let in_city = ty
                    .features
                    .get(label)
                    .is_some_and(|f| f.kind == FeatureKind::City);
                if in_city && self.blue[k] && self.blob[k] >= self.min_blob {
                    blue += 1;
                }
                if spots
                    .iter()
                    .any(|s| (u[0] - s[0]).abs() < SPOT_HALF && (u[1] - s[1]).abs() < SPOT_HALF)
                {
                    spot_all += 1;
                    spot_seen += usize::from(self.seen[k]);
                }
            }
        }
        let shown = blue >= SEEN_PX;
        if ty.count(Attr::Pennant) == 0 {
            let p = if shown { 1.0 - CLEAN } else { CLEAN };
            return p.ln();
        }
        // A figure may hide the shield: where the catalogue prints it is as good a guess as any.
        let visible = spot_seen as f64 / spot_all.max(1) as f64;
        let p_seen = (SEEN_IF_VISIBLE * visible).max(1.0 - CLEAN);
        let p = if shown { p_seen } else { 1.0 - p_seen };
        p.ln()
    }
}

/// The size of the 8-connected patch of `on` pixels each pixel lies in (0 where off).
fn blob_sizes(on: &[bool], w: usize, h: usize) -> opencv::Result<Vec<u32>> {
    let mut mask = Mat::new_rows_cols_with_default(
        h as i32,
        w as i32,
        opencv::core::CV_8UC1,
        opencv::core::Scalar::all(0.0),
    )?;
    for (m, &b) in mask.data_bytes_mut()?.iter_mut().zip(on) {
        *m = if b { 255 } else { 0 };
    }
    let (mut labels, mut stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats(
        &mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    let area: Vec<u32> = (0..n.max(0))
        .map(|i| {
            stats
                .at_2d::<i32>(i, opencv::imgproc::CC_STAT_AREA)
                .map(|a| *a as u32)
        })
        .collect::<opencv::Result<_>>()?;
    let labels = labels.data_typed::<i32>()?;
    Ok(on
        .iter()
        .zip(labels)
        .map(|(&b, &l)| if b && l > 0 { area[l as usize] } else { 0 })
        .collect())
}

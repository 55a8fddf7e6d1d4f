//! What a cheap webcam does to a picture: uneven light, colour cast, vignetting, sensor noise,
//! motion blur and JPEG compression.

use opencv::core::{Mat, Point, Rect, Size, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The light over the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lighting {
    /// Direction the light travels (table frame, z down), for shadows.
    pub direction: [f64; 3],
    /// Per-channel gain (blue, green, red): colour temperature and exposure.
    pub gain: [f64; 3],
    /// Brightness change per image width along x and y (a lamp off to one side).
    pub gradient: [f64; 2],
    /// Darkening at the image corners (0 = none).
    pub vignette: f64,
}

impl Lighting {
    /// A random but plausible light.
    pub fn random<R: Rng>(rng: &mut R) -> Lighting {
        let warm = rng.random_range(-0.12..0.12);
        let exposure = rng.random_range(0.85..1.1);
        Lighting {
            direction: [
                rng.random_range(-0.6..0.6),
                rng.random_range(-0.6..0.6),
                1.0,
            ],
            gain: [exposure * (1.0 - warm), exposure, exposure * (1.0 + warm)],
            gradient: [rng.random_range(-0.15..0.15), rng.random_range(-0.15..0.15)],
            vignette: rng.random_range(0.0..0.35),
        }
    }

    /// Halfway-and-beyond blend towards `other` (`t` in 0..1), for a light that drifts.
    pub fn blend(&self, other: &Lighting, t: f64) -> Lighting {
        let mix = |a: f64, b: f64| a + (b - a) * t;
        Lighting {
            direction: [
                mix(self.direction[0], other.direction[0]),
                mix(self.direction[1], other.direction[1]),
                mix(self.direction[2], other.direction[2]),
            ],
            gain: [
                mix(self.gain[0], other.gain[0]),
                mix(self.gain[1], other.gain[1]),
                mix(self.gain[2], other.gain[2]),
            ],
            gradient: [
                mix(self.gradient[0], other.gradient[0]),
                mix(self.gradient[1], other.gradient[1]),
            ],
            vignette: mix(self.vignette, other.vignette),
        }
    }
}

/// The light's effect on every pixel and channel (gains, gradient, vignette), as 8.8 fixed point.
pub struct LightMap {
    light: Lighting,
    size: [i32; 2],
    gains: Vec<u16>,
}

impl LightMap {
    /// Computes the map for an image of `size` (width, height).
    pub fn new(light: &Lighting, size: [i32; 2]) -> LightMap {
        let (w, h) = (size[0].max(0) as usize, size[1].max(0) as usize);
        let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
        let k = light.vignette as f32 / (cx * cx + cy * cy).max(1.0);
        let (gx, gy) = (light.gradient[0] as f32, light.gradient[1] as f32);
        let mut gains = Vec::with_capacity(w * h * 3);
        for y in 0..h {
            let (vy, dy) = (k * (y as f32 - cy).powi(2), gy * (y as f32 - cy) / h as f32);
            for x in 0..w {
                let v = 1.0 - vy - k * (x as f32 - cx).powi(2);
                let g = v * (1.0 + dy + gx * (x as f32 - cx) / w as f32);
                for ch in 0..3 {
                    gains.push((g * light.gain[ch] as f32 * 256.0).clamp(0.0, 65535.0) as u16);
                }
            }
        }
        LightMap {
            light: *light,
            size,
            gains,
        }
    }

    /// Whether this map was made for `light` at `size`.
    pub fn is_for(&self, light: &Lighting, size: [i32; 2]) -> bool {
        self.light == *light && self.size == size
    }

    /// Lights the image (which must have the map's size).
    pub fn apply(&self, img: &mut Mat) -> opencv::Result<()> {
        let bytes = img.data_bytes_mut()?;
        for (b, &g) in bytes.iter_mut().zip(&self.gains) {
            *b = ((u32::from(*b) * u32::from(g)) >> 8).min(255) as u8;
        }
        Ok(())
    }
}

/// A long strip of Gaussian sensor noise; each frame reads it from its own offset.
pub struct NoiseBank {
    sigma: f64,
    values: Vec<i8>,
}

impl NoiseBank {
    /// Noise of standard deviation `sigma` grey levels, enough for `len` bytes per frame.
    pub fn new(sigma: f64, len: usize, seed: u64) -> NoiseBank {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // 256 evenly spaced quantiles of a normal distribution, picked by random bytes.
        let table: Vec<i8> = (0..256)
            .map(|i| {
                (normal_quantile((f64::from(i) + 0.5) / 256.0) * sigma)
                    .round()
                    .clamp(-127.0, 127.0) as i8
            })
            .collect();
        let values = (0..len * 2)
            .map(|_| table[rng.random::<u8>() as usize])
            .collect();
        NoiseBank { sigma, values }
    }

    /// Whether this bank has `sigma` and room for `len` bytes.
    pub fn fits(&self, sigma: f64, len: usize) -> bool {
        self.sigma == sigma && self.values.len() >= len * 2
    }

    /// Adds the noise for frame `frame` to the image.
    pub fn apply(&self, img: &mut Mat, frame: u64) -> opencv::Result<()> {
        let bytes = img.data_bytes_mut()?;
        let room = self.values.len() - bytes.len();
        let start = (frame.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize % room.max(1);
        for (b, &n) in bytes.iter_mut().zip(&self.values[start..]) {
            *b = (i16::from(*b) + i16::from(n)).clamp(0, 255) as u8;
        }
        Ok(())
    }
}

/// The standard normal quantile (Acklam's rational approximation, |error| < 1e-8).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// Smears the part of the image inside `area` along `(dx, dy)` pixels (a box average, cheap at
/// any length), as a moving hand or camera does.
pub fn motion_blur(img: &Mat, area: Rect, dx: f64, dy: f64) -> opencv::Result<Mat> {
    let full = Rect::new(0, 0, img.cols(), img.rows());
    let area = area & full;
    let mut out = img.try_clone()?;
    if area.width <= 0 || area.height <= 0 {
        return Ok(out);
    }
    let k = Size::new(dx.abs().round() as i32 + 1, dy.abs().round() as i32 + 1);
    let src = Mat::roi(img, area)?;
    let mut dst = Mat::roi_mut(&mut out, area)?;
    imgproc::blur(
        &src,
        &mut dst,
        k,
        Point::new(-1, -1),
        opencv::core::BORDER_REFLECT,
    )?;
    Ok(out)
}

/// A `w` × `h` mask, 255 where `on` (row by row) says so, else 0.
pub fn mask_where(w: usize, h: usize, on: impl IntoIterator<Item = bool>) -> opencv::Result<Mat> {
    let mut mask = Mat::zeros(h as i32, w as i32, opencv::core::CV_8UC1)?.to_mat()?;
    for (m, b) in mask.data_bytes_mut()?.iter_mut().zip(on) {
        *m = if b { 255 } else { 0 };
    }
    Ok(mask)
}

/// A mask grown by `steps` pixels in every direction.
pub fn grow_mask(mask: &Mat, steps: i32) -> opencv::Result<Mat> {
    step_mask(mask, steps, imgproc::MORPH_DILATE)
}

/// A mask shrunk by `steps` pixels from every side (the reverse of [`grow_mask`]).
pub fn shrink_mask(mask: &Mat, steps: i32) -> opencv::Result<Mat> {
    step_mask(mask, steps, imgproc::MORPH_ERODE)
}

/// A mask dilated or eroded (`op`) by `steps` one-pixel steps, the picture's border neutral.
fn step_mask(mask: &Mat, steps: i32, op: i32) -> opencv::Result<Mat> {
    let kernel = Mat::ones(3, 3, opencv::core::CV_8UC1)?.to_mat()?;
    let mut out = Mat::default();
    imgproc::morphology_ex(
        mask,
        &mut out,
        op,
        &kernel,
        Point::new(-1, -1),
        steps,
        opencv::core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    Ok(out)
}

/// Compresses and decompresses as JPEG at `quality` (0–100).
pub fn jpeg(img: &Mat, quality: i32) -> opencv::Result<Mat> {
    let mut buf = Vector::<u8>::new();
    let params = Vector::from_iter([imgcodecs::IMWRITE_JPEG_QUALITY, quality]);
    imgcodecs::imencode(".jpg", img, &mut buf, &params)?;
    imgcodecs::imdecode(&buf, imgcodecs::IMREAD_COLOR)
}

#[cfg(test)]
mod tests {
    use super::normal_quantile;

    #[test]
    fn quantiles_of_the_normal_distribution() {
        assert!(normal_quantile(0.5).abs() < 1e-9);
        assert!((normal_quantile(0.975) - 1.959964).abs() < 1e-5);
        assert!((normal_quantile(0.001) + 3.090232).abs() < 1e-5);
    }
}

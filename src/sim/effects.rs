//! What a cheap webcam does to a picture: uneven light, colour cast, vignetting, sensor noise,
//! motion blur and JPEG compression.

use opencv::core::{Mat, Point, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// The light over the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
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

/// Multiplies the image by the light's gains, gradient and vignette.
pub fn apply_lighting(img: &mut Mat, light: &Lighting) -> opencv::Result<()> {
    let (w, h) = (img.cols() as usize, img.rows() as usize);
    let (cx, cy) = (w as f64 / 2.0, h as f64 / 2.0);
    let r2max = cx * cx + cy * cy;
    let bytes = img.data_bytes_mut()?;
    for y in 0..h {
        let fy = (y as f64 - cy) / h as f64;
        let row = &mut bytes[y * w * 3..(y + 1) * w * 3];
        for x in 0..w {
            let fx = (x as f64 - cx) / w as f64;
            let (dx, dy) = (x as f64 - cx, y as f64 - cy);
            let v = 1.0 - light.vignette * (dx * dx + dy * dy) / r2max;
            let g = v * (1.0 + light.gradient[0] * fx + light.gradient[1] * fy);
            let px = &mut row[x * 3..x * 3 + 3];
            for ch in 0..3 {
                px[ch] = (f64::from(px[ch]) * g * light.gain[ch]).clamp(0.0, 255.0) as u8;
            }
        }
    }
    Ok(())
}

/// Adds sensor noise of standard deviation about `sigma` grey levels.
pub fn add_noise(img: &mut Mat, sigma: f64, seed: u64) -> opencv::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Sum of four uniforms: close enough to Gaussian, and cheap.
    let scale = sigma * (3.0f64).sqrt();
    let bytes = img.data_bytes_mut()?;
    let mut bits: u64 = 0;
    let mut left = 0;
    for b in bytes.iter_mut() {
        if left == 0 {
            bits = rng.random();
            left = 2;
        }
        let k = (bits & 0xffff_ffff) as u32;
        bits >>= 32;
        left -= 1;
        let s: f64 = (0..4)
            .map(|i| f64::from((k >> (i * 8)) & 0xff) / 255.0)
            .sum::<f64>()
            - 2.0;
        *b = (f64::from(*b) + s * scale).clamp(0.0, 255.0) as u8;
    }
    Ok(())
}

/// Smears the image along `(dx, dy)` pixels, as a moving hand or camera does.
pub fn motion_blur(img: &Mat, dx: f64, dy: f64) -> opencv::Result<Mat> {
    let len = dx.hypot(dy).round().max(1.0) as i32;
    let size = len * 2 + 1;
    let mut kernel = Mat::zeros(size, size, opencv::core::CV_32FC1)?.to_mat()?;
    let end = Point::new(
        len + (dx / 2.0).round() as i32,
        len + (dy / 2.0).round() as i32,
    );
    let start = Point::new(2 * len - end.x, 2 * len - end.y);
    imgproc::line(
        &mut kernel,
        start,
        end,
        opencv::core::Scalar::all(1.0),
        1,
        imgproc::LINE_8,
        0,
    )?;
    let sum = opencv::core::sum_elems(&kernel)?[0].max(1.0);
    let mut k = Mat::default();
    kernel.convert_to(&mut k, opencv::core::CV_32FC1, 1.0 / sum, 0.0)?;
    let mut out = Mat::default();
    imgproc::filter_2d(
        img,
        &mut out,
        -1,
        &k,
        Point::new(-1, -1),
        0.0,
        opencv::core::BORDER_REFLECT,
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

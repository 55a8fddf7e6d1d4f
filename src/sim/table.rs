//! Table tops under the tiles: wood, cloth, dark, light, patterned.

use opencv::core::{Mat, Scalar, Size, CV_32FC1, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Kinds of table top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Brown wood with grain.
    Wood,
    /// Felt cloth.
    Cloth,
    /// A dark table.
    Dark,
    /// A light table.
    Light,
    /// A checked tablecloth.
    Checked,
}

impl Surface {
    /// All kinds, for picking by seed.
    pub const ALL: [Surface; 5] = [
        Surface::Wood,
        Surface::Cloth,
        Surface::Dark,
        Surface::Light,
        Surface::Checked,
    ];
}

/// Paints a table top of `size` pixels at `px_per_mm` pixels per millimetre.
pub fn paint_surface(
    surface: Surface,
    size: Size,
    px_per_mm: f64,
    seed: u64,
) -> opencv::Result<Mat> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let base: [f64; 3] = match surface {
        Surface::Wood => [50.0, 95.0, 150.0],
        Surface::Cloth => [rng.random_range(60.0..120.0), 70.0, 40.0],
        Surface::Dark => [38.0, 36.0, 34.0],
        Surface::Light => [215.0, 220.0, 222.0],
        Surface::Checked => [230.0, 230.0, 235.0],
    };
    let mut img =
        Mat::new_size_with_default(size, CV_8UC3, Scalar::new(base[0], base[1], base[2], 0.0))?;
    // Smooth blotches for every surface; grain or checks on top.
    let cells = 12;
    let mut small = Mat::new_rows_cols_with_default(cells, cells, CV_32FC1, Scalar::all(0.0))?;
    for v in small.data_typed_mut::<f32>()? {
        *v = rng.random_range(-1.0..=1.0);
    }
    let mut blotch = Mat::default();
    imgproc::resize(&small, &mut blotch, size, 0.0, 0.0, imgproc::INTER_CUBIC)?;
    let blotch = blotch.data_typed::<f32>()?.to_vec();
    let width = size.width as usize;
    let grain_period = rng.random_range(3.0..6.0) * px_per_mm;
    let phase: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let check = (25.0 * px_per_mm).max(2.0) as usize;
    let bytes = img.data_bytes_mut()?;
    for (i, px) in bytes.chunks_exact_mut(3).enumerate() {
        let (x, y) = ((i % width) as f64, (i / width) as f64);
        let mut g = 1.0 + 0.06 * f64::from(blotch[i]);
        match surface {
            Surface::Wood => {
                let wave =
                    (y / grain_period + 0.8 * (x / (grain_period * 25.0) + phase).sin()).sin();
                g *= 1.0 + 0.12 * wave;
            }
            Surface::Checked => {
                let (cx, cy) = ((x as usize) / check, (y as usize) / check);
                if (cx + cy) % 2 == 0 {
                    px[0] = 60;
                    px[1] = 60;
                    px[2] = 170;
                }
            }
            _ => {}
        }
        for ch in px.iter_mut() {
            *ch = (f64::from(*ch) * g).clamp(0.0, 255.0) as u8;
        }
    }
    Ok(img)
}

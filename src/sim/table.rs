//! Table tops under the tiles: wood, cloth, dark, light, patterned.

use opencv::core::{Mat, Scalar, Size, CV_8UC3};
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

/// Side (mm) of the cells of the smooth blotches every table top has.
const BLOTCH_MM: f64 = 120.0;
/// Side (mm) of a checked cloth's squares.
const CHECK_MM: f64 = 25.0;

/// Paints the part of a table top from `origin` (table millimetres) on, `size` pixels at
/// `px_per_mm` pixels per millimetre. The pattern belongs to the table, not to the picture: two
/// parts painted for two camera positions agree where they overlap.
pub fn paint_surface(
    surface: Surface,
    origin: [f64; 2],
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
    let grain_period = rng.random_range(3.0..6.0);
    let phase: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let width = size.width.max(1) as usize;
    let bytes = img.data_bytes_mut()?;
    for (i, px) in bytes.chunks_exact_mut(3).enumerate() {
        let x = origin[0] + (i % width) as f64 / px_per_mm;
        let y = origin[1] + (i / width) as f64 / px_per_mm;
        // Smooth blotches for every surface; grain or checks on top.
        let mut g = 1.0 + 0.06 * blotch(seed, x / BLOTCH_MM, y / BLOTCH_MM);
        match surface {
            Surface::Wood => {
                let wave =
                    (y / grain_period + 0.8 * (x / (grain_period * 25.0) + phase).sin()).sin();
                g *= 1.0 + 0.12 * wave;
            }
            Surface::Checked => {
                let (cx, cy) = ((x / CHECK_MM).floor(), (y / CHECK_MM).floor());
                if (cx + cy).rem_euclid(2.0) == 0.0 {
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

/// Smooth noise in −1..1 at (`x`, `y`) blotch cells: a random value at every whole cell corner
/// (a hash of the corner and `seed`), blended smoothly in between.
fn blotch(seed: u64, x: f64, y: f64) -> f64 {
    let corner = |cx: i64, cy: i64| -> f64 {
        let mut h = seed ^ (cx as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= (cy as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        (h >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let (fx, fy) = (x.floor(), y.floor());
    let (cx, cy) = (fx as i64, fy as i64);
    let smooth = |t: f64| t * t * (3.0 - 2.0 * t);
    let (tx, ty) = (smooth(x - fx), smooth(y - fy));
    let top = corner(cx, cy) * (1.0 - tx) + corner(cx + 1, cy) * tx;
    let bottom = corner(cx, cy + 1) * (1.0 - tx) + corner(cx + 1, cy + 1) * tx;
    top * (1.0 - ty) + bottom * ty
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same stretch of table, painted from two origins a few millimetres apart (a bumped
    /// camera), looks the same.
    #[test]
    fn a_table_keeps_its_pattern_when_painted_from_elsewhere() {
        for surface in Surface::ALL {
            let size = Size::new(200, 150);
            let a = paint_surface(surface, [-300.0, -200.0], size, 1.0, 7).unwrap();
            let b = paint_surface(surface, [-293.0, -189.0], size, 1.0, 7).unwrap();
            // Pixel (x, y) of b is pixel (x + 7, y + 11) of a.
            let pa = *a.at_2d::<opencv::core::Vec3b>(41, 57).unwrap();
            let pb = *b.at_2d::<opencv::core::Vec3b>(30, 50).unwrap();
            assert_eq!(pa, pb, "{surface:?}");
        }
    }

    /// A checked cloth alternates its two colours every 25 mm.
    #[test]
    fn a_checked_cloth_alternates_every_square() {
        let top = paint_surface(Surface::Checked, [0.0, 0.0], Size::new(100, 10), 1.0, 3).unwrap();
        let red = |x: i32| {
            top.at_2d::<opencv::core::Vec3b>(5, x).unwrap()[2] > 150
                && top.at_2d::<opencv::core::Vec3b>(5, x).unwrap()[0] < 100
        };
        assert!(red(10) && !red(35) && red(60) && !red(85));
    }
}

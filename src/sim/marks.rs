//! Marks printed on the whole tile rather than on one feature: the hill a tile lies raised on
//! and the vineyard (Hills & Sheep), and the wheel icons (The Wheel of Fortune).

use opencv::core::Mat;
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;

use super::art::{darker, ellipse, fill, poly, px, scalar, ART_PX, SHIFT};
use super::style::{Bgr, Style};
use crate::geometry::{Point as TilePoint, TileShape, NO_FEATURE};
use crate::rules::{FeatureKind, TileType};

/// Centre of the hill's mound, tile units.
const HILL_CENTRE: TilePoint = [0.5, 0.5];
/// Spread of the mound (tile units): its height falls to 1/e this far from the centre.
const HILL_SPREAD: f32 = 0.3;
/// Gold of a wheel icon.
const GOLD: Bgr = [40.0, 175.0, 225.0];

/// The mound's height at `p`, 0–1.
fn hill_height(p: TilePoint) -> f32 {
    let (dx, dy) = (p[0] - HILL_CENTRE[0], p[1] - HILL_CENTRE[1]);
    (-(dx * dx + dy * dy) / (HILL_SPREAD * HILL_SPREAD)).exp()
}

/// The hill's contour lines, drawn on the grass before the features cover them.
pub fn hill_contours(img: &mut Mat, style: &Style) -> opencv::Result<()> {
    for (level, shade) in [(0.25f32, 0.7), (0.55, 0.75), (0.85, 0.8)] {
        let r = HILL_SPREAD * (-level.ln()).sqrt();
        let ring = ellipse(HILL_CENTRE, r, r * 0.9);
        imgproc::polylines(
            img,
            &poly(&ring),
            true,
            scalar(darker(style.field, shade)),
            2,
            LINE_AA,
            SHIFT,
        )?;
    }
    Ok(())
}

/// Light and shade of the mound over everything printed on a painted tile (`ART_PX` square): lit
/// from the north-west, in shadow to the south-east, flat at the tile's edges.
pub fn hill_shading(img: &mut Mat) -> opencv::Result<()> {
    let n = ART_PX as usize;
    let bytes = img.data_bytes_mut()?;
    for (i, pixel) in bytes.chunks_exact_mut(3).enumerate() {
        let p = [
            ((i % n) as f32 + 0.5) / n as f32,
            ((i / n) as f32 + 0.5) / n as f32,
        ];
        let h = hill_height(p);
        // The slope towards the light: the height's rise along (1, 1), in units of the spread.
        let d = (p[0] - HILL_CENTRE[0]) + (p[1] - HILL_CENTRE[1]);
        let lit = -2.0 * h * d / HILL_SPREAD;
        let gain = 1.0 + 0.05 * h + 0.2 * lit;
        for ch in pixel {
            *ch = (f32::from(*ch) * gain).clamp(0.0, 255.0) as u8;
        }
    }
    Ok(())
}

/// Whether the box of half-sizes `half` around `c` lies on fields only, clear of the printed
/// details (inns, junction house) that sit in fields.
fn clear_field(ty: &TileType, shape: &TileShape, c: TilePoint, half: [f32; 2]) -> bool {
    let steps = 6;
    let field = |p: TilePoint| {
        let label = shape.labels.at(p);
        label != NO_FEATURE
            && ty
                .features
                .get(usize::from(label))
                .is_some_and(|f| f.kind == FeatureKind::Field)
    };
    let inside = (0..=steps).all(|i| {
        (0..=steps).all(|j| {
            let p = [
                c[0] - half[0] + 2.0 * half[0] * i as f32 / steps as f32,
                c[1] - half[1] + 2.0 * half[1] * j as f32 / steps as f32,
            ];
            (0.03..0.97).contains(&p[0]) && (0.03..0.97).contains(&p[1]) && field(p)
        })
    });
    let far = |q: TilePoint, d: f32| (c[0] - q[0]).hypot(c[1] - q[1]) > d;
    inside && shape.inns.iter().all(|&q| far(q, 0.2)) && (!shape.junction || far([0.5, 0.5], 0.2))
}

/// The field spot nearest `prefer` with room for a box of half-sizes `half`, if any.
pub fn free_spot(
    ty: &TileType,
    shape: &TileShape,
    half: [f32; 2],
    prefer: TilePoint,
) -> Option<TilePoint> {
    let grid = (2..=18).map(|k| k as f32 * 0.05);
    let mut spots: Vec<TilePoint> = grid
        .clone()
        .flat_map(|x| grid.clone().map(move |y| [x, y]))
        .filter(|&c| clear_field(ty, shape, c, half))
        .collect();
    let d = |p: &TilePoint| (p[0] - prefer[0]).hypot(p[1] - prefer[1]);
    spots.sort_by(|a, b| d(a).total_cmp(&d(b)));
    spots.first().copied()
}

/// Half-sizes of the vineyard patch, tile units.
pub const VINEYARD_HALF: [f32; 2] = [0.17, 0.12];

/// A vineyard: rows of vines on brown soil, leaves and purple grapes along each row.
pub fn vineyard(img: &mut Mat, c: TilePoint) -> opencv::Result<()> {
    let [hx, hy] = VINEYARD_HALF;
    let soil = [
        [c[0] - hx, c[1] - hy],
        [c[0] + hx, c[1] - hy],
        [c[0] + hx, c[1] + hy],
        [c[0] - hx, c[1] + hy],
    ];
    fill(img, &soil, [70.0, 120.0, 160.0])?;
    let rows = 4;
    for r in 0..rows {
        let y = c[1] - hy + (r as f32 + 0.5) * 2.0 * hy / rows as f32;
        let (a, b) = ([c[0] - hx + 0.02, y], [c[0] + hx - 0.02, y]);
        imgproc::line(
            img,
            px(a),
            px(b),
            scalar([30.0, 95.0, 40.0]),
            3,
            LINE_AA,
            SHIFT,
        )?;
        for k in 0..6 {
            let x = a[0] + (b[0] - a[0]) * (k as f32 + 0.5) / 6.0;
            let grapes = if k % 2 == 0 {
                [120.0, 40.0, 100.0]
            } else {
                [40.0, 140.0, 60.0]
            };
            fill(img, &ellipse([x, y + 0.012], 0.014, 0.016), grapes)?;
        }
    }
    imgproc::polylines(
        img,
        &poly(&soil),
        true,
        scalar([40.0, 70.0, 100.0]),
        1,
        LINE_AA,
        SHIFT,
    )
}

/// Half-sizes of a row of `icons` wheel icons, tile units.
pub fn icons_half(icons: u8) -> [f32; 2] {
    [0.055 * f32::from(icons.max(1)), 0.06]
}

/// `icons` (1–3) small golden wheels in a row centred at `c`: the wheel icon and its value.
pub fn wheel_icons(img: &mut Mat, c: TilePoint, icons: u8) -> opencv::Result<()> {
    let n = f32::from(icons);
    for k in 0..icons {
        let centre = [c[0] + (f32::from(k) - (n - 1.0) / 2.0) * 0.11, c[1]];
        wheel_glyph(img, centre, 0.045)?;
    }
    Ok(())
}

/// One wheel: a gold disc with a dark rim, six spokes and a hub.
pub fn wheel_glyph(img: &mut Mat, c: TilePoint, r: f32) -> opencv::Result<()> {
    fill(img, &ellipse(c, r, r), GOLD)?;
    let dark = scalar([20.0, 50.0, 90.0]);
    imgproc::polylines(img, &poly(&ellipse(c, r, r)), true, dark, 2, LINE_AA, SHIFT)?;
    for k in 0..3 {
        let a = k as f32 * std::f32::consts::PI / 3.0;
        let (s, co) = a.sin_cos();
        let d = [co * r * 0.85, s * r * 0.85];
        imgproc::line(
            img,
            px([c[0] - d[0], c[1] - d[1]]),
            px([c[0] + d[0], c[1] + d[1]]),
            dark,
            1,
            LINE_AA,
            SHIFT,
        )?;
    }
    imgproc::circle(
        img,
        px(c),
        ((r * 0.3 * ART_PX as f32) * (1 << SHIFT) as f32) as i32,
        dark,
        -1,
        LINE_AA,
        SHIFT,
    )?;
    Ok(())
}

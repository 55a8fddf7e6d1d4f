//! Procedural tile art: paints a tile type from its geometry, no artwork needed.

use opencv::core::{Mat, Point, Scalar, Size, Vector, CV_32FC1, CV_8UC3};
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::marks;
use super::style::{Bgr, Style};
use super::wheel;
use crate::geometry::{inside_polygon, Outline, Point as TilePoint, SceneryKind, TileShape};
use crate::rules::{catalogue, FeatureKind, Good, TileId};

/// Side of a painted tile in pixels.
pub const ART_PX: i32 = 160;
/// Sub-pixel bits used for drawing.
pub(super) const SHIFT: i32 = 4;
/// River and lake water.
const WATER: Bgr = [190.0, 135.0, 60.0];

pub(super) fn scalar(c: Bgr) -> Scalar {
    Scalar::new(c[0], c[1], c[2], 0.0)
}

pub(super) fn darker(c: Bgr, f: f64) -> Bgr {
    [c[0] * f, c[1] * f, c[2] * f]
}

/// A tile-unit point as a fixed-point pixel position.
pub(super) fn px(p: TilePoint) -> Point {
    let s = f64::from(ART_PX) * f64::from(1 << SHIFT);
    Point::new(
        (f64::from(p[0]) * s).round() as i32,
        (f64::from(p[1]) * s).round() as i32,
    )
}

pub(super) fn poly(points: &[TilePoint]) -> Vector<Vector<Point>> {
    let mut out = Vector::new();
    out.push(points.iter().map(|&p| px(p)).collect());
    out
}

fn on_border(a: TilePoint, b: TilePoint) -> bool {
    let edge = |v: f32| v <= 1e-4 || v >= 1.0 - 1e-4;
    (edge(a[0]) && a[0] == b[0]) || (edge(a[1]) && a[1] == b[1])
}

/// Paints `tile` in catalogue orientation, a copy without a wheel icon. The same `seed` gives
/// the same pixels.
pub fn paint_tile(tile: TileId, style: &Style, seed: u64) -> opencv::Result<Mat> {
    paint_copy(tile, 0, style, seed)
}

/// Paints a copy of `tile` that shows `icons` wheel icons (0 for none), in catalogue
/// orientation, with the hill and vineyard its type has; a cell of the Wheel board shows its part
/// of the wheel. The same `seed` gives the same pixels.
pub fn paint_copy(tile: TileId, icons: u8, style: &Style, seed: u64) -> opencv::Result<Mat> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = TileShape::of(tile);
    let ty = catalogue().tile(tile);
    let mut img = Mat::new_rows_cols_with_default(ART_PX, ART_PX, CV_8UC3, scalar(style.field))?;
    grass(&mut img, style, &mut rng)?;
    if ty.hill {
        marks::hill_contours(&mut img, style)?;
    }
    for piece in &shape.scenery {
        match (piece.kind, &piece.outline) {
            (SceneryKind::River, Outline::Strip { centreline, width }) => {
                stroke(&mut img, centreline, f64::from(*width), WATER, 2.0)?;
            }
            (SceneryKind::Lake, Outline::Area(points)) => fill(&mut img, points, WATER)?,
            (SceneryKind::Stub, Outline::Strip { centreline, .. }) => {
                road(&mut img, centreline, style)?;
            }
            (SceneryKind::Divider, Outline::Strip { centreline, width }) => {
                stroke(
                    &mut img,
                    centreline,
                    f64::from(*width),
                    darker(style.field, 0.55),
                    0.0,
                )?;
            }
            _ => {}
        }
    }
    for (f, s) in ty.features.iter().zip(&shape.features) {
        if let (FeatureKind::City, Outline::Area(points)) = (f.kind, &s.outline) {
            city(&mut img, points, style, &mut rng)?;
        }
    }
    for (f, s) in ty.features.iter().zip(&shape.features) {
        if let (FeatureKind::Road, Outline::Strip { centreline, .. }) = (f.kind, &s.outline) {
            road(&mut img, centreline, style)?;
        }
    }
    if shape.junction {
        house(&mut img, [0.5, 0.5], 0.09, style)?;
    }
    if ty.features.iter().any(|f| f.kind == FeatureKind::Cloister) {
        cloister(&mut img, style)?;
    }
    for &p in &shape.pennants {
        shield(&mut img, p)?;
    }
    for &(p, good) in &shape.goods {
        goods_mark(&mut img, p, good)?;
    }
    for &p in &shape.cathedrals {
        // A large church with a tall tower.
        house(&mut img, [p[0], p[1] + 0.04], 0.12, style)?;
        house(&mut img, [p[0] + 0.1, p[1] - 0.06], 0.05, style)?;
    }
    for &p in &shape.inns {
        // The inn by its lake.
        fill(
            &mut img,
            &ellipse([p[0] - 0.04, p[1] + 0.03], 0.07, 0.045),
            WATER,
        )?;
        house(&mut img, [p[0] + 0.05, p[1] - 0.03], 0.045, style)?;
    }
    if ty.vineyard {
        let spot = marks::free_spot(ty, shape, marks::VINEYARD_HALF, [0.5, 0.72]);
        marks::vineyard(&mut img, spot.unwrap_or([0.5, 0.8]))?;
    }
    if icons > 0 {
        let spot = marks::free_spot(ty, shape, marks::icons_half(icons), [0.2, 0.85]);
        marks::wheel_icons(&mut img, spot.unwrap_or([0.2, 0.88]), icons)?;
    }
    let cell = wheel::board_cell(tile);
    if let Some(cell) = cell {
        wheel::paint_wheel_part(&mut img, cell)?;
    }
    if ty.hill {
        marks::hill_shading(&mut img)?;
    }
    texture(&mut img, style, &mut rng)?;
    // The cut edge of the cardboard: a board cell's only on the board's outer sides.
    let corners: [TilePoint; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let edge = scalar(darker(style.field, 0.6));
    match cell {
        None => imgproc::polylines(&mut img, &poly(&corners), true, edge, 2, LINE_AA, SHIFT)?,
        Some((col, row)) => {
            let last = wheel::BOARD_CELLS - 1;
            let cut = [row == 0, col == last, row == last, col == 0];
            for side in (0..4).filter(|&k| cut[k]) {
                let (a, b) = (corners[side], corners[(side + 1) % 4]);
                imgproc::line(&mut img, px(a), px(b), edge, 2, LINE_AA, SHIFT)?;
            }
        }
    }
    Ok(img)
}

/// A small goods symbol (Traders & Builders): a dark red bunch of grapes for wine, a yellow
/// sheaf for wheat, a blue bale for cloth.
fn goods_mark(img: &mut Mat, p: TilePoint, good: Good) -> opencv::Result<()> {
    let r = 0.045;
    match good {
        Good::Wine => fill(img, &ellipse(p, r * 0.8, r), [90.0, 30.0, 120.0]),
        Good::Wheat => fill(img, &ellipse(p, r * 0.6, r * 1.2), [40.0, 200.0, 230.0]),
        Good::Cloth => fill(
            img,
            &[
                [p[0] - r, p[1] - r * 0.7],
                [p[0] + r, p[1] - r * 0.7],
                [p[0] + r, p[1] + r * 0.7],
                [p[0] - r, p[1] + r * 0.7],
            ],
            [170.0, 90.0, 40.0],
        ),
    }
}

fn grass(img: &mut Mat, style: &Style, rng: &mut ChaCha8Rng) -> opencv::Result<()> {
    let dark = scalar(darker(style.field, 0.8));
    let light = scalar([
        (style.field[0] * 1.15).min(255.0),
        (style.field[1] * 1.15).min(255.0),
        (style.field[2] * 1.15).min(255.0),
    ]);
    for k in 0..90 {
        let x: f32 = rng.random();
        let y: f32 = rng.random();
        let len: f32 = rng.random_range(0.02..0.05);
        let colour = if k % 2 == 0 { dark } else { light };
        imgproc::line(
            img,
            px([x, y]),
            px([x + len * 0.3, y - len]),
            colour,
            1,
            LINE_AA,
            SHIFT,
        )?;
    }
    Ok(())
}

fn city(
    img: &mut Mat,
    points: &[TilePoint],
    style: &Style,
    rng: &mut ChaCha8Rng,
) -> opencv::Result<()> {
    imgproc::fill_poly(
        img,
        &poly(points),
        scalar(style.city),
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )?;
    // Houses: small darker and lighter roofs inside the walls.
    let (mut lo, mut hi) = ([1.0f32, 1.0], [0.0f32, 0.0]);
    for p in points {
        lo = [lo[0].min(p[0]), lo[1].min(p[1])];
        hi = [hi[0].max(p[0]), hi[1].max(p[1])];
    }
    let area = f64::from((hi[0] - lo[0]) * (hi[1] - lo[1]));
    for _ in 0..(area * 60.0) as usize {
        let c = [
            rng.random_range(lo[0]..=hi[0]),
            rng.random_range(lo[1]..=hi[1]),
        ];
        let s = rng.random_range(0.03f32..0.06);
        let corners = [
            c,
            [c[0] + s, c[1]],
            [c[0] + s, c[1] + s * 0.7],
            [c[0], c[1] + s * 0.7],
        ];
        if corners.iter().all(|&q| inside_polygon(points, q)) {
            let shade = if rng.random_bool(0.5) { 0.8 } else { 1.1 };
            let colour = [
                (style.city[0] * shade).min(255.0),
                (style.city[1] * shade).min(255.0),
                (style.city[2] * shade).min(255.0),
            ];
            imgproc::fill_poly(
                img,
                &poly(&corners),
                scalar(colour),
                LINE_AA,
                SHIFT,
                Point::new(0, 0),
            )?;
        }
    }
    // Walls along the edges that are not the tile's border.
    let width = (style.wall_width * f64::from(ART_PX)).round().max(1.0) as i32;
    for w in 0..points.len() {
        let (a, b) = (points[w], points[(w + 1) % points.len()]);
        if !on_border(a, b) {
            imgproc::line(img, px(a), px(b), scalar(style.wall), width, LINE_AA, SHIFT)?;
        }
    }
    Ok(())
}

fn road(img: &mut Mat, line: &[TilePoint], style: &Style) -> opencv::Result<()> {
    let pts = poly(line);
    let w = style.road_width * f64::from(ART_PX);
    let border = (w + 4.0).round() as i32;
    imgproc::polylines(
        img,
        &pts,
        false,
        scalar(style.road_edge),
        border,
        LINE_AA,
        SHIFT,
    )?;
    imgproc::polylines(
        img,
        &pts,
        false,
        scalar(style.road),
        w.round() as i32,
        LINE_AA,
        SHIFT,
    )?;
    Ok(())
}

pub(super) fn fill(img: &mut Mat, points: &[TilePoint], colour: Bgr) -> opencv::Result<()> {
    imgproc::fill_poly(
        img,
        &poly(points),
        scalar(colour),
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )
}

/// A band along `line`, `width` tile units wide, with a darker rim `rim` pixels wide.
fn stroke(
    img: &mut Mat,
    line: &[TilePoint],
    width: f64,
    colour: Bgr,
    rim: f64,
) -> opencv::Result<()> {
    let pts = poly(line);
    let w = width * f64::from(ART_PX);
    if rim > 0.0 {
        let outer = (w + 2.0 * rim).round() as i32;
        let edge = scalar(darker(colour, 0.7));
        imgproc::polylines(img, &pts, false, edge, outer, LINE_AA, SHIFT)?;
    }
    let inner = (w.round() as i32).max(1);
    imgproc::polylines(img, &pts, false, scalar(colour), inner, LINE_AA, SHIFT)
}

pub(super) fn ellipse(c: TilePoint, rx: f32, ry: f32) -> Vec<TilePoint> {
    (0..20)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 20.0;
            [c[0] + rx * a.cos(), c[1] + ry * a.sin()]
        })
        .collect()
}

fn house(img: &mut Mat, c: TilePoint, half: f32, style: &Style) -> opencv::Result<()> {
    let body = [
        [c[0] - half, c[1] - half],
        [c[0] + half, c[1] - half],
        [c[0] + half, c[1] + half],
        [c[0] - half, c[1] + half],
    ];
    imgproc::fill_poly(
        img,
        &poly(&body),
        scalar(style.building),
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )?;
    let roof = [
        [c[0] - half, c[1] - half * 0.2],
        [c[0], c[1] - half * 1.1],
        [c[0] + half, c[1] - half * 0.2],
        [c[0] + half, c[1] + half * 0.3],
        [c[0] - half, c[1] + half * 0.3],
    ];
    imgproc::fill_poly(
        img,
        &poly(&roof),
        scalar(style.roof),
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )?;
    imgproc::polylines(
        img,
        &poly(&body),
        true,
        scalar(darker(style.building, 0.5)),
        1,
        LINE_AA,
        SHIFT,
    )
}

fn cloister(img: &mut Mat, style: &Style) -> opencv::Result<()> {
    // A church: a long red roof with a ridge, a tower and a cross.
    house(img, [0.5, 0.52], 0.17, style)?;
    let ridge = [[0.33f32, 0.45f32], [0.67, 0.45]];
    imgproc::line(
        img,
        px(ridge[0]),
        px(ridge[1]),
        scalar(darker(style.roof, 0.6)),
        2,
        LINE_AA,
        SHIFT,
    )?;
    let tower = [[0.44f32, 0.22f32], [0.56, 0.22], [0.56, 0.38], [0.44, 0.38]];
    imgproc::fill_poly(
        img,
        &poly(&tower),
        scalar(style.building),
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )?;
    imgproc::line(
        img,
        px([0.5, 0.24]),
        px([0.5, 0.34]),
        scalar(darker(style.roof, 0.5)),
        2,
        LINE_AA,
        SHIFT,
    )?;
    imgproc::line(
        img,
        px([0.47, 0.28]),
        px([0.53, 0.28]),
        scalar(darker(style.roof, 0.5)),
        2,
        LINE_AA,
        SHIFT,
    )
}

fn shield(img: &mut Mat, c: TilePoint) -> opencv::Result<()> {
    let s = 0.055f32;
    let outline = [
        [c[0] - s, c[1] - s],
        [c[0] + s, c[1] - s],
        [c[0] + s, c[1] + s * 0.3],
        [c[0], c[1] + s * 1.2],
        [c[0] - s, c[1] + s * 0.3],
    ];
    let blue = Scalar::new(170.0, 80.0, 30.0, 0.0);
    let white = Scalar::new(245.0, 245.0, 245.0, 0.0);
    imgproc::fill_poly(img, &poly(&outline), blue, LINE_AA, SHIFT, Point::new(0, 0))?;
    imgproc::polylines(img, &poly(&outline), true, white, 2, LINE_AA, SHIFT)?;
    let left_half = [
        [c[0] - s, c[1] - s],
        [c[0], c[1] - s],
        [c[0], c[1] + s * 1.2],
        [c[0] - s, c[1] + s * 0.3],
    ];
    imgproc::fill_poly(
        img,
        &poly(&left_half),
        white,
        LINE_AA,
        SHIFT,
        Point::new(0, 0),
    )
}

/// Multiplies the tile by smooth noise: printing texture and wear.
fn texture(img: &mut Mat, style: &Style, rng: &mut ChaCha8Rng) -> opencv::Result<()> {
    let cells = (1.0 / style.texture_scale).round().max(2.0) as i32;
    let mut small = Mat::new_rows_cols_with_default(cells, cells, CV_32FC1, Scalar::all(0.0))?;
    for v in small.data_typed_mut::<f32>()? {
        *v = rng.random_range(-1.0..=1.0);
    }
    let mut field = Mat::default();
    imgproc::resize(
        &small,
        &mut field,
        Size::new(ART_PX, ART_PX),
        0.0,
        0.0,
        imgproc::INTER_CUBIC,
    )?;
    let gains = field.data_typed::<f32>()?;
    let strength = style.texture_strength as f32 * 0.25;
    let bytes = img.data_bytes_mut()?;
    for (i, px) in bytes.chunks_exact_mut(3).enumerate() {
        let g = 1.0 + gains[i] * strength;
        for ch in px {
            *ch = (f32::from(*ch) * g).clamp(0.0, 255.0) as u8;
        }
    }
    Ok(())
}

//! The Wheel of Fortune's board as printed: 4×4 tiles of landscape with the wheel in the middle
//! — a rim, six coloured sectors in the data's clockwise order (the first at the top) with their
//! crown spaces, and a hub. Each of the board's sixteen cells paints its part of the picture.

use opencv::core::Mat;
use opencv::imgproc::{self, LINE_AA};

use super::art::{darker, ellipse, fill, poly, px, scalar, SHIFT};
use super::marks::wheel_glyph;
use super::scene::{TileOnTable, CELL_MM, TILE_MM};
use super::style::Bgr;
use crate::geometry::Point as TilePoint;
use crate::rules::expansions::wheel::wheel_data;
use crate::rules::{Sector, TileId};

/// Cells per side of the board.
pub const BOARD_CELLS: i32 = 4;
/// Radius of the wheel's rim, in cells (the board's centre is 2 cells from each side).
const RIM_RADIUS: f32 = 1.45;
/// Radius of the coloured sectors, in cells.
const SECTOR_RADIUS: f32 = 1.34;
/// Radius of the hub, in cells.
const HUB_RADIUS: f32 = 0.42;
/// Radius at which the crown spaces sit, in cells.
const CROWN_RADIUS: f32 = 1.1;
/// Rim wood.
const RIM: Bgr = [35.0, 70.0, 110.0];

/// Where a tile type lies on the board (column, row before the board turns), if it is one of
/// the board's cells.
pub fn board_cell(tile: TileId) -> Option<(i32, i32)> {
    let i = wheel_data().board.iter().position(|&t| t == tile)? as i32;
    Some((i % BOARD_CELLS, i / BOARD_CELLS))
}

/// A sector's paint.
pub fn sector_colour(sector: Sector) -> Bgr {
    match sector {
        Sector::Fortune => [40.0, 190.0, 235.0],
        Sector::Taxes => [170.0, 95.0, 40.0],
        Sector::Famine => [70.0, 140.0, 185.0],
        Sector::Storm => [150.0, 130.0, 110.0],
        Sector::Inquisition => [125.0, 45.0, 115.0],
        Sector::Pestilence => [55.0, 100.0, 60.0],
    }
}

/// The angle (radians, clockwise from north as the image shows it) of sector `k`'s middle.
pub fn sector_angle(k: usize) -> f32 {
    let n = wheel_data().sectors.len() as f32;
    -std::f32::consts::FRAC_PI_2 + std::f32::consts::TAU * k as f32 / n
}

/// A point of the board at `radius` cells from its centre at `angle`.
fn polar(angle: f32, radius: f32) -> [f32; 2] {
    let (s, c) = angle.sin_cos();
    let centre = BOARD_CELLS as f32 / 2.0;
    [centre + c * radius, centre + s * radius]
}

/// Lays the board's cells (already placed with their own small errors) as one piece of
/// cardboard: the first cell's shift, turn and print for all, turned about the board's centre,
/// the cells abutting without the gaps between separate tiles.
pub fn lay_board(cells: &mut [TileOnTable]) {
    let Some(first) = cells.first().copied() else {
        return;
    };
    let lo = cells.iter().fold([i32::MAX; 2], |lo, t| {
        [lo[0].min(t.cell.x), lo[1].min(t.cell.y)]
    });
    let side = f64::from(BOARD_CELLS);
    let centre = [
        (f64::from(lo[0]) + side / 2.0) * CELL_MM,
        (f64::from(lo[1]) + side / 2.0) * CELL_MM,
    ];
    let (s, c) = first.angle_deg.to_radians().sin_cos();
    for t in cells {
        // The cell's centre from the board's centre, as printed.
        let u = (f64::from(t.cell.x - lo[0]) + 0.5 - side / 2.0) * TILE_MM;
        let v = (f64::from(t.cell.y - lo[1]) + 0.5 - side / 2.0) * TILE_MM;
        let nominal = [
            (f64::from(t.cell.x) + 0.5) * CELL_MM,
            (f64::from(t.cell.y) + 0.5) * CELL_MM,
        ];
        t.offset_mm = [
            centre[0] + first.offset_mm[0] + u * c - v * s - nominal[0],
            centre[1] + first.offset_mm[1] + u * s + v * c - nominal[1],
        ];
        t.angle_deg = first.angle_deg;
        t.print = first.print;
    }
}

/// Paints cell `(col, row)`'s part of the wheel onto its art (tile units of that cell).
pub fn paint_wheel_part(img: &mut Mat, (col, row): (i32, i32)) -> opencv::Result<()> {
    // Board cells → this cell's tile units.
    let local = |p: [f32; 2]| -> TilePoint { [p[0] - col as f32, p[1] - row as f32] };
    let centre = local(polar(0.0, 0.0));
    let disc = |r: f32| ellipse_fine(centre, r);
    fill(img, &disc(RIM_RADIUS), RIM)?;
    let data = wheel_data();
    let n = data.sectors.len();
    let half = std::f32::consts::PI / n as f32;
    for (k, &(sector, crowns)) in data.sectors.iter().enumerate() {
        let mid = sector_angle(k);
        let mut slice = vec![centre];
        slice.extend((0..=16).map(|j| {
            local(polar(
                mid - half + 2.0 * half * j as f32 / 16.0,
                SECTOR_RADIUS,
            ))
        }));
        let colour = sector_colour(sector);
        fill(img, &slice, colour)?;
        imgproc::polylines(
            img,
            &poly(&slice),
            true,
            scalar(darker(colour, 0.55)),
            2,
            LINE_AA,
            SHIFT,
        )?;
        // The crown spaces, side by side near the rim.
        let spread = 0.16;
        for c in 0..crowns {
            let a = mid + (f32::from(c) - f32::from(crowns - 1) / 2.0) * spread;
            crown(img, local(polar(a, CROWN_RADIUS)))?;
        }
        pictogram(img, local(polar(mid, 0.72)), sector)?;
    }
    fill(img, &disc(HUB_RADIUS), [200.0, 225.0, 235.0])?;
    wheel_glyph(img, centre, HUB_RADIUS * 0.6)
}

/// A circle fine enough for a radius of more than a cell.
fn ellipse_fine(c: TilePoint, r: f32) -> Vec<TilePoint> {
    (0..96)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 96.0;
            [c[0] + r * a.cos(), c[1] + r * a.sin()]
        })
        .collect()
}

/// A crown space: a pale disc with a gold three-pointed crown.
fn crown(img: &mut Mat, c: TilePoint) -> opencv::Result<()> {
    let r = 0.1;
    fill(img, &ellipse(c, r, r), [225.0, 235.0, 240.0])?;
    let (w, h) = (0.07f32, 0.05f32);
    let shape = [
        [c[0] - w, c[1] + h],
        [c[0] - w, c[1] - h],
        [c[0] - w / 2.0, c[1]],
        [c[0], c[1] - h * 1.3],
        [c[0] + w / 2.0, c[1]],
        [c[0] + w, c[1] - h],
        [c[0] + w, c[1] + h],
    ];
    fill(img, &shape, [20.0, 160.0, 215.0])?;
    imgproc::line(
        img,
        px([c[0] - w, c[1] + h]),
        px([c[0] + w, c[1] + h]),
        scalar([20.0, 60.0, 100.0]),
        1,
        LINE_AA,
        SHIFT,
    )
}

/// The action's white pictogram: a coin (Fortune), a chest (Taxes), a sheaf (Famine), a bolt
/// (Storm), a cross (Inquisition), a ring (Pestilence).
fn pictogram(img: &mut Mat, c: TilePoint, sector: Sector) -> opencv::Result<()> {
    let white = [235.0, 240.0, 240.0];
    let s = 0.11f32;
    let at = |pts: &[[f32; 2]]| -> Vec<TilePoint> {
        pts.iter()
            .map(|p| [c[0] + p[0] * s, c[1] + p[1] * s])
            .collect()
    };
    match sector {
        Sector::Fortune => fill(img, &ellipse(c, s, s), white),
        Sector::Taxes => fill(
            img,
            &at(&[[-1.0, -0.7], [1.0, -0.7], [1.0, 0.7], [-1.0, 0.7]]),
            white,
        ),
        Sector::Famine => fill(img, &at(&[[0.0, -1.0], [0.9, 0.9], [-0.9, 0.9]]), white),
        Sector::Storm => fill(
            img,
            &at(&[
                [0.2, -1.0],
                [0.7, -1.0],
                [0.2, -0.1],
                [0.6, -0.1],
                [-0.4, 1.0],
                [-0.1, 0.1],
                [-0.5, 0.1],
            ]),
            white,
        ),
        Sector::Inquisition => {
            fill(
                img,
                &at(&[[-0.25, -1.0], [0.25, -1.0], [0.25, 1.0], [-0.25, 1.0]]),
                white,
            )?;
            fill(
                img,
                &at(&[[-0.75, -0.5], [0.75, -0.5], [0.75, -0.05], [-0.75, -0.05]]),
                white,
            )
        }
        Sector::Pestilence => {
            fill(img, &ellipse(c, s, s), white)?;
            fill(
                img,
                &ellipse(c, s * 0.5, s * 0.5),
                darker(sector_colour(sector), 0.5),
            )
        }
    }
}

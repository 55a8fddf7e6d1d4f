//! A sheet of the expansions' drawings for eyes to check: the Wheel of Fortune's board, tiles on
//! hills, with vineyards and with one to three wheel icons, and every kind of figure, seen from
//! above and from the side.

use opencv::core::{Mat, Rect, Scalar, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

use super::camera::Camera;
use super::effects::Lighting;
use super::scene::{MeepleOnTable, Renderer, Scene, Sensor, TileOnTable, CELL_MM};
use super::style::Style;
use super::table::Surface;
use super::wheel;
use crate::rules::expansions::wheel::wheel_data;
use crate::rules::{catalogue, Colour, Figure, Placement, Port, Pos, Rotation};

/// Size of each of the sheet's two pictures.
const PANEL: [i32; 2] = [1280, 720];

/// Tiles right of the board, row by row: hills, vineyards, then copies with 1, 2, 3 and 1 wheel
/// icons.
const TILES: [[(&str, u8); 4]; 3] = [
    [("HS3", 0), ("HS6", 0), ("HS9", 0), ("HS13", 0)],
    [("HS1", 0), ("HS5", 0), ("HS7", 0), ("HS16", 0)],
    [("V", 1), ("U", 2), ("N", 3), ("WF1", 1)],
];

/// Figures on the last rows: the tile, the port and the figure.
const FIGURES: [(&str, &str, Figure); 7] = [
    ("E", "N", Figure::Normal),
    ("E", "N", Figure::Large),
    ("D", "W", Figure::Builder),
    ("E", "SL", Figure::Pig),
    ("E", "SL", Figure::Shepherd),
    ("E", "SL", Figure::Large),
    ("E", "SL", Figure::Normal),
];

/// The table of the sheet: the board at cells (0, 0)–(3, 3), the tiles and figures to its right.
fn showcase_scene(camera: Camera) -> Scene {
    let cat = catalogue();
    let tile = |name: &str, cell: Pos, rot: Rotation, icons: u8, print: u64| TileOnTable {
        tile: cat
            .tile_id(name)
            .expect("showcase tiles are in the catalogue"),
        cell,
        rot,
        offset_mm: [0.0, 0.0],
        angle_deg: 0.0,
        lift_mm: 0.0,
        print,
        icons,
    };
    let anchor = Placement {
        pos: Pos::new(0, 0),
        rot: Rotation::R0,
    };
    let mut tiles: Vec<TileOnTable> = wheel_data()
        .cells(anchor)
        .into_iter()
        .map(|(id, p)| tile(&cat.tile(id).name, p.pos, p.rot, 0, 1))
        .collect();
    wheel::lay_board(&mut tiles);
    for (y, row) in TILES.iter().enumerate() {
        for (x, &(name, icons)) in row.iter().enumerate() {
            let cell = Pos::new(5 + x as i32, y as i32);
            tiles.push(tile(name, cell, Rotation::R0, icons, 2 + x as u64));
        }
    }
    let mut meeples = Vec::new();
    for (k, &(name, port, kind)) in FIGURES.iter().enumerate() {
        let cell = Pos::new(5 + (k % 4) as i32, 3 + (k / 4) as i32);
        let t = tile(name, cell, Rotation::R0, 0, 9 + k as u64);
        let port: Port = port.parse().expect("showcase ports are valid");
        meeples.extend(MeepleOnTable::on(&t, port, Colour::Red, kind, 0.3));
        tiles.push(t);
    }
    Scene {
        tiles,
        meeples,
        arm: None,
        held: None,
        lighting: Lighting {
            direction: [0.4, 0.3, 1.0],
            gain: [1.0; 3],
            gradient: [0.0; 2],
            vignette: 0.0,
        },
        camera,
    }
}

/// The sheet: the showcase from overhead (top) and from the south at 40° (bottom), 1280×1440.
pub fn expansion_sheet(style: usize, seed: u64) -> opencv::Result<Mat> {
    let centre = [4.5 * CELL_MM, 2.5 * CELL_MM];
    let cameras = [
        Camera::overhead(PANEL, 60.0, centre, 380.0),
        Camera::oblique(PANEL, 60.0, centre, 420.0, 40.0),
    ];
    let mut sheet =
        Mat::new_rows_cols_with_default(PANEL[1] * 2, PANEL[0], CV_8UC3, Scalar::all(0.0))?;
    let clean = Sensor {
        noise: 0.0,
        jpeg_quality: None,
        blur: None,
    };
    for (k, cam) in cameras.into_iter().enumerate() {
        let mut renderer = Renderer::new(Style::preset(style), Surface::Wood, seed);
        let frame = renderer.render(&showcase_scene(cam), &clean, 0)?;
        let area = Rect::new(0, PANEL[1] * k as i32, PANEL[0], PANEL[1]);
        let mut roi = Mat::roi_mut(&mut sheet, area)?;
        frame.image.copy_to(&mut roi)?;
    }
    imgproc::line(
        &mut sheet,
        opencv::core::Point::new(0, PANEL[1]),
        opencv::core::Point::new(PANEL[0], PANEL[1]),
        Scalar::all(0.0),
        3,
        imgproc::LINE_8,
        0,
    )?;
    Ok(sheet)
}

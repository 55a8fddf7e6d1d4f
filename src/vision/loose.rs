//! A drawn tile lying (or held still) off the board: found so the players can be shown where it
//! may go before they lay it.

use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc;
use opencv::prelude::*;

use super::colours::ColourModel;
use super::rectify::Quad;
use super::start::find_lone_tile;
use super::table::table_colours;

/// How far around each laid tile (in tiles) the table is not searched: a tile there is being
/// laid, not shown.
const BOARD_REACH: f64 = 1.5;

/// The corners of the largest tile-like shape in `frame` at least a tile away from the tiles
/// `board` (where the camera sees them), of about their size; `None` if there is none.
pub fn find_loose_tile(
    frame: &Mat,
    model: &ColourModel,
    board: &[Quad],
) -> opencv::Result<Option<Quad>> {
    let Some(side) = mean_side(board) else {
        return Ok(None);
    };
    // The board and the cells around it painted over with the table's own colour.
    let table = table_colours(frame)?[0];
    let paint = Scalar::new(
        f64::from(table[0]),
        f64::from(table[1]),
        f64::from(table[2]),
        0.0,
    );
    let mut hidden = frame.try_clone()?;
    for q in board {
        let c = [
            q.iter().map(|p| p[0]).sum::<f64>() / 4.0,
            q.iter().map(|p| p[1]).sum::<f64>() / 4.0,
        ];
        let grow = 1.0 + 2.0 * BOARD_REACH;
        let around: Vector<Point> = q
            .iter()
            .map(|p| {
                Point::new(
                    (c[0] + (p[0] - c[0]) * grow).round() as i32,
                    (c[1] + (p[1] - c[1]) * grow).round() as i32,
                )
            })
            .collect();
        // One at a time: overlapping polygons filled together cancel out.
        imgproc::fill_convex_poly(&mut hidden, &around, paint, imgproc::LINE_8, 0)?;
    }
    let Some(found) = find_lone_tile(&hidden, model)? else {
        return Ok(None);
    };
    let size = mean_side(&[found]).unwrap_or(0.0);
    Ok((0.7 * side..=1.4 * side).contains(&size).then_some(found))
}

/// Mean side length of `quads` in pixels.
fn mean_side(quads: &[Quad]) -> Option<f64> {
    let sides: Vec<f64> = quads
        .iter()
        .flat_map(|q| {
            (0..4).map(move |i| (q[i][0] - q[(i + 1) % 4][0]).hypot(q[i][1] - q[(i + 1) % 4][1]))
        })
        .collect();
    (!sides.is_empty()).then(|| sides.iter().sum::<f64>() / sides.len() as f64)
}

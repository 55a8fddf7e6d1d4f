//! The start tile: found lying alone on the table in the setup frame (its outline against the
//! table, turned as its print fits best), and found again in later frames near where it was
//! calibrated, so that a camera bumped since setup is registered again.

use opencv::core::{Mat, Point, Vector, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

use super::colours::ColourModel;
use super::outline::{fit_outline, outline_reach, push_side};
use super::rectify::{dilated, quad_patch, shifted_quad, Quad, PATCH_PX};
use super::table::{blend_distance2, table_colours, table_like, TABLE_LIKE};
use super::terrain::{expected_grid, terrain_grid, ClassMap};
use crate::rules::{catalogue, Rotation};

/// Finds the start tile in a setup frame that shows only it (and perhaps hands): its corners NW,
/// NE, SE, SW with north where its city is (the start tile is D: city north, road west–east).
/// A side that shows no border against the table (a city about as dark as a checked cloth) is
/// moved out to where the start tile's print fits best: the mask falls short of the tile there.
/// `None` when no tile-like shape stands out from the table.
pub fn find_start_tile(frame: &Mat, model: &ColourModel) -> opencv::Result<Option<Quad>> {
    let Some((mut quad, unseen_sides)) = lone_tile(frame, model)? else {
        return Ok(None);
    };
    for side in unseen_sides {
        let mut best = (looks_like_start(frame, model, &quad)?, quad);
        for px in 1..=outline_reach(&quad, side) {
            let moved = push_side(&quad, side, f64::from(px));
            let score = looks_like_start(frame, model, &moved)?;
            if score > best.0 {
                best = (score, moved);
            }
        }
        quad = best.1;
    }
    Ok(Some(quad))
}

/// Finds a tile lying alone on the table, as [`find_start_tile`] does but with its sides where
/// the picture shows them: turned as the start tile's print fits it best.
pub fn find_lone_tile(frame: &Mat, model: &ColourModel) -> opencv::Result<Option<Quad>> {
    Ok(lone_tile(frame, model)?.map(|(quad, _)| quad))
}

/// How much the picture of `quad` looks like the start tile as printed: the terrain it shares
/// with it, summed over the terrain grid.
fn looks_like_start(frame: &Mat, model: &ColourModel, quad: &Quad) -> opencv::Result<f64> {
    let d = catalogue().tile_id("D").expect("the start tile type");
    let (patch, _) = quad_patch(frame, quad, 0)?;
    let grid = terrain_grid(&patch, model, None)?;
    Ok(grid
        .iter()
        .zip(&expected_grid(d, Rotation::R0))
        .map(|(o, t)| f64::from(o.iter().zip(t).map(|(a, b)| a.min(*b)).sum::<f32>()))
        .sum())
}

/// A lone tile's corners, turned as the start tile's print fits it best, and the sides (by
/// their first corner) that showed no border against the table.
fn lone_tile(frame: &Mat, model: &ColourModel) -> opencv::Result<Option<(Quad, Vec<usize>)>> {
    let table = table_colours(frame)?;
    let (w, h) = (frame.cols(), frame.rows());
    // The table as it would look without the tile: a wide median of a reduced frame (uneven
    // light and blotches stay, the tile goes).
    let mut small = Mat::default();
    imgproc::resize(
        frame,
        &mut small,
        opencv::core::Size::new((w / 8).max(1), (h / 8).max(1)),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )?;
    let mut smooth = Mat::default();
    imgproc::median_blur(&small, &mut smooth, 31)?;
    let mut background = Mat::default();
    imgproc::resize(
        &smooth,
        &mut background,
        opencv::core::Size::new(w, h),
        0.0,
        0.0,
        imgproc::INTER_LINEAR,
    )?;
    let mut mask = Mat::new_rows_cols_with_default(h, w, CV_8UC1, opencv::core::Scalar::all(0.0))?;
    {
        let frame = frame.try_clone()?;
        let bytes = frame.data_bytes()?;
        let bg = background.data_bytes()?;
        let out = mask.data_bytes_mut()?;
        for (k, m) in out.iter_mut().enumerate() {
            let p = [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
            let local: f32 = (0..3)
                .map(|c| (f32::from(p[c]) - f32::from(bg[3 * k + c])).powi(2))
                .sum();
            let far = local > TABLE_LIKE * TABLE_LIKE
                && blend_distance2(p, &table) > TABLE_LIKE * TABLE_LIKE;
            *m = if far { 255 } else { 0 };
        }
    }
    // Join the parts of the tile a table-coloured road may cut apart: grow the mask, take the
    // biggest blob, and keep the tile pixels (less specks) inside it.
    let reach = (w.max(h) / 100).max(3);
    let kernel = Mat::ones(reach, reach, CV_8UC1)?.to_mat()?;
    // Specks first go: far off, a fine checked cloth shimmers into colours of neither check,
    // and grown, its specks would join into blobs bigger than the tile.
    let mut solid = Mat::default();
    imgproc::morphology_ex(
        &mask,
        &mut solid,
        imgproc::MORPH_OPEN,
        &Mat::ones(3, 3, CV_8UC1)?.to_mat()?,
        Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    let grown = dilated(&solid, &kernel)?;
    let min_area = f64::from(w) * f64::from(h) * 0.0005;
    // Of the outlines grown from each of the biggest blobs, the one that looks most like the
    // start tile: the biggest blob may be a patch of cloth that stood out from the table.
    // Where the mask covers too little of it, the blobs of the mask as it is are tried: grown,
    // the tile joined whatever of the table stood out beside it (the near checks of a checked
    // cloth lit brighter than the far ones, which meet corner to corner).
    let mut best: Option<(f64, Quad, Vec<usize>)> = None;
    for mask in [&grown, &solid] {
        let mut contours = Vector::<Vector<Point>>::new();
        imgproc::find_contours(
            mask,
            &mut contours,
            imgproc::RETR_EXTERNAL,
            imgproc::CHAIN_APPROX_SIMPLE,
            Point::new(0, 0),
        )?;
        for (chosen, bounds) in tile_blobs(&contours, min_area)? {
            let Some(found) = outline(frame, model, &table, &solid, &chosen, bounds)? else {
                continue;
            };
            if best.as_ref().is_none_or(|b| found.0 > b.0) {
                best = Some(found);
            }
        }
        let covered = match &best {
            Some((_, quad, _)) => covered_share(&solid, quad)?,
            None => 0.0,
        };
        if covered >= TILE_COVERED {
            break;
        }
    }
    Ok(best.map(|(_, quad, unseen)| (quad, unseen)))
}

/// The outline of the blobs `chosen` (within `bounds`) of the tile mask `solid`, as corners
/// turned as the start tile's print fits them best, with how well it fits
/// ([`looks_like_start`]) and the sides (by their first corner) that showed no border against
/// the `table`. `None` where the blobs do not outline a quadrilateral.
fn outline(
    frame: &Mat,
    model: &ColourModel,
    table: &[[f32; 3]; 2],
    solid: &Mat,
    chosen: &Vector<Vector<Point>>,
    bounds: opencv::core::Rect,
) -> opencv::Result<Option<(f64, Quad, Vec<usize>)>> {
    let (w, h) = (frame.cols(), frame.rows());
    let mut region =
        Mat::new_rows_cols_with_default(h, w, CV_8UC1, opencv::core::Scalar::all(0.0))?;
    imgproc::fill_poly(
        &mut region,
        chosen,
        opencv::core::Scalar::all(255.0),
        imgproc::LINE_8,
        0,
        Point::new(0, 0),
    )?;
    let mut points = Vector::<Point>::new();
    for y in bounds.y..bounds.y + bounds.height {
        for x in bounds.x..bounds.x + bounds.width {
            if *solid.at_2d::<u8>(y, x)? != 0 && *region.at_2d::<u8>(y, x)? != 0 {
                points.push(Point::new(x, y));
            }
        }
    }
    if points.len() < 16 {
        return Ok(None);
    }
    let contour = points;
    let mut hull = Vector::<Point>::new();
    imgproc::convex_hull(&contour, &mut hull, false, true)?;
    let perimeter = imgproc::arc_length(&hull, true)?;
    // The outline as four corners: a speck of cloth at the tile's side, or a ragged city
    // wall, can add a fifth corner at the finest tolerance; a coarser one drops it.
    let mut poly = Vector::<Point>::new();
    for tolerance in OUTLINE_TOLERANCES {
        imgproc::approx_poly_dp(&hull, &mut poly, tolerance * perimeter, true)?;
        if poly.len() <= 4 {
            break;
        }
    }
    if poly.len() != 4 {
        return Ok(None);
    }
    let mut corners: Vec<[f64; 2]> = poly
        .iter()
        .map(|p| [f64::from(p.x), f64::from(p.y)])
        .collect();
    // Clockwise in the image, starting from the top-left-most corner.
    let cx = corners.iter().map(|c| c[0]).sum::<f64>() / 4.0;
    let cy = corners.iter().map(|c| c[1]).sum::<f64>() / 4.0;
    corners.sort_by(|a, b| {
        let ang = |p: &[f64; 2]| (p[1] - cy).atan2(p[0] - cx);
        ang(a).total_cmp(&ang(b))
    });
    let first = (0..4)
        .min_by(|&i, &j| {
            (corners[i][0] + corners[i][1]).total_cmp(&(corners[j][0] + corners[j][1]))
        })
        .unwrap_or(0);
    corners.rotate_left(first);
    // The mask's corners are cut short where the tile's print is like the table: its sides
    // are fitted to the borders the picture shows.
    let corners = [corners[0], corners[1], corners[2], corners[3]];
    let on_table = |c: [f64; 3]| table_like(c.map(|v| v.round().clamp(0.0, 255.0) as u8), table);
    let (corners, fitted) = fit_outline(frame, &corners, &on_table);
    if too_narrow(&corners) {
        return Ok(None);
    }
    // The turn whose picture looks most like the start tile as printed decides north.
    let turned = |r: usize| -> Quad { [0, 1, 2, 3].map(|i| corners[(i + r) % 4]) };
    let mut pick = (f64::MIN, 0);
    for r in 0..4 {
        let score = looks_like_start(frame, model, &turned(r))?;
        if score > pick.0 {
            pick = (score, r);
        }
    }
    let r = pick.1;
    let unseen = (0..4)
        .filter(|&k| !fitted[k])
        .map(|k| (k + 4 - r) % 4)
        .collect();
    Ok(Some((pick.0, turned(r), unseen)))
}

/// Whether corners NW, NE, SE, SW outline a shape no square tile seen from above a table
/// shows: one pair of opposite sides more than [`MOST_FORESHORTENED`] times the other (a strip
/// of the start tile the road and a checked cloth's white cut off, `eval vision` 24300 board 1:
/// 4.6 times).
fn too_narrow(corners: &Quad) -> bool {
    let side = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let [nw, ne, se, sw] = *corners;
    let across = side(nw, ne) + side(sw, se);
    let down = side(nw, sw) + side(ne, se);
    across.max(down) > MOST_FORESHORTENED * across.min(down)
}

/// How many times one pair of a tile's sides may show longer than the other: a camera tilted
/// 70° from looking straight down (the simulated ones 35° to 45°) shows the tile 2.9 times
/// wider than deep.
const MOST_FORESHORTENED: f64 = 3.0;

/// The least share of the start tile's outline its colour mask covers: its print's parts
/// like the table (a road, a city wall) leave out some. The setup frames of the 42 data sets
/// of `eval vision` (1190 boards) cover 0.5 and more but one, 18900 board-006's (0.28: the
/// outline three tiles wide).
const TILE_COVERED: f64 = 0.4;

/// The share of the pixels inside `quad` that `mask` covers.
fn covered_share(mask: &Mat, quad: &Quad) -> opencv::Result<f64> {
    let mut inside = Mat::new_rows_cols_with_default(
        mask.rows(),
        mask.cols(),
        CV_8UC1,
        opencv::core::Scalar::all(0.0),
    )?;
    let corners: Vector<Point> = quad
        .iter()
        .map(|c| Point::new(c[0].round() as i32, c[1].round() as i32))
        .collect();
    imgproc::fill_convex_poly(
        &mut inside,
        &corners,
        opencv::core::Scalar::all(255.0),
        imgproc::LINE_8,
        0,
    )?;
    let all = opencv::core::count_non_zero(&inside)?;
    let mut both = Mat::default();
    opencv::core::bitwise_and(mask, &inside, &mut both, &opencv::core::no_array())?;
    let covered = opencv::core::count_non_zero(&both)?;
    Ok(if all == 0 {
        0.0
    } else {
        f64::from(covered) / f64::from(all)
    })
}

/// How far (shares of its perimeter) the start tile's outline may stray from the quadrilateral
/// drawn for it, finest first.
const OUTLINE_TOLERANCES: [f64; 3] = [0.03, 0.045, 0.06];

/// The smallest share of the start tile's biggest part another part has (the field strip below
/// the start tile's road is about a third of it).
const PART_OF_TILE: f64 = 0.1;

/// How many of the biggest blobs [`tile_blobs`] grows a tile from.
const SEEDS: usize = 3;

/// The sets of blobs the start tile may be, with their bounds: each of the [`SEEDS`] biggest
/// blobs bigger than `min_area`, alone and then with one more blob at a time, nearest first,
/// of those of at least [`PART_OF_TILE`] of its area lying within a third of the set's size (a
/// road or wall of the table's own colour may cut the tile into parts wider apart than the
/// mask was grown; a patch of cloth beside it may be bigger).
fn tile_blobs(
    contours: &Vector<Vector<Point>>,
    min_area: f64,
) -> opencv::Result<Vec<(Vector<Vector<Point>>, opencv::core::Rect)>> {
    let mut blobs = Vec::new();
    for c in contours.iter() {
        let area = imgproc::contour_area(&c, false)?;
        if area > min_area / 4.0 {
            blobs.push((area, imgproc::bounding_rect(&c)?, c));
        }
    }
    blobs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let seeds = blobs.iter().take(SEEDS).take_while(|b| b.0 > min_area);
    let mut out = Vec::new();
    for (seed, (area, bounds, first)) in seeds.enumerate() {
        let mut union = *bounds;
        let mut chosen = Vector::<Vector<Point>>::new();
        chosen.push(first.clone());
        out.push((chosen.clone(), union));
        let mut taken = vec![false; blobs.len()];
        taken[seed] = true;
        loop {
            let reach = union.width.max(union.height) / 3;
            // Specks of the table's pattern, grown with the mask, are no part of it.
            let near = (0..blobs.len())
                .filter(|&i| !taken[i] && blobs[i].0 >= area * PART_OF_TILE)
                .map(|i| {
                    let r = blobs[i].1;
                    let gap_x = (r.x - (union.x + union.width)).max(union.x - (r.x + r.width));
                    let gap_y = (r.y - (union.y + union.height)).max(union.y - (r.y + r.height));
                    (gap_x.max(gap_y), i)
                })
                .filter(|&(gap, _)| gap <= reach)
                .min();
            let Some((_, i)) = near else { break };
            taken[i] = true;
            union |= blobs[i].1;
            chosen.push(blobs[i].2.clone());
            out.push((chosen.clone(), union));
        }
    }
    Ok(out)
}

/// How far (patch pixels, a patch side being [`PATCH_PX`]) [`relocate_start`] looks around the
/// calibrated start tile: about half a tile.
const RELOCATE_PX: i32 = 32;

/// The start tile where it lies in this frame: its calibrated corners moved by the shift (up to
/// half a tile) at which the frame looks most like it, so that a camera bumped since setup is
/// registered again.
pub fn relocate_start(frame: &Mat, start: &Quad, model: &ColourModel) -> opencv::Result<Quad> {
    let (patch, to_patch) = quad_patch(frame, start, RELOCATE_PX)?;
    let map = ClassMap::new(&patch, model, None)?;
    let d = catalogue().tile_id("D").expect("the start tile type");
    let template = expected_grid(d, Rotation::R0);
    let side = PATCH_PX as usize;
    let score = |x: usize, y: usize| -> f32 {
        map.grid(x, y, side)
            .iter()
            .zip(&template)
            .map(|(o, t)| o.iter().zip(t).map(|(a, b)| a.min(*b)).sum::<f32>())
            .sum()
    };
    let reach = 2 * RELOCATE_PX as usize;
    let centre = RELOCATE_PX as usize;
    let mut best = (score(centre, centre), centre, centre);
    for y in (0..=reach).step_by(2) {
        for x in (0..=reach).step_by(2) {
            let s = score(x, y);
            if s > best.0 {
                best = (s, x, y);
            }
        }
    }
    let (cx, cy) = (best.1, best.2);
    for y in cy.saturating_sub(1)..=(cy + 1).min(reach) {
        for x in cx.saturating_sub(1)..=(cx + 1).min(reach) {
            let s = score(x, y);
            if s > best.0 {
                best = (s, x, y);
            }
        }
    }
    let shift = [
        best.1 as f64 - f64::from(RELOCATE_PX),
        best.2 as f64 - f64::from(RELOCATE_PX),
    ];
    Ok(shifted_quad(&to_patch, RELOCATE_PX, shift))
}

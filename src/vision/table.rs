//! The table the tiles lie on: its colours, sampled away from the tiles, whether a colour
//! passes for it (a plain table is one colour, a checked cloth or strong grain two), and how
//! much of a cell's cut shows it ([`what_cell_shows`]).

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

use super::colours::ColourModel;
use super::occlusion::keep_regions;
use super::rectify::{quad_homography, Quad, MARGIN_PX};
use crate::sim::camera::apply_homography;

/// The table's colours: two cluster centres of rings of pixels a little inside the frame's
/// border (one for a plain table, two for a checked cloth or strong grain). The border itself is
/// left out: a strip of floor or of the table's edge may show there.
pub fn table_colours(frame: &Mat) -> opencv::Result<[[f32; 3]; 2]> {
    let (w, h) = (frame.cols(), frame.rows());
    let mut px: Vec<[f32; 3]> = Vec::new();
    let mut push = |x: i32, y: i32| -> opencv::Result<()> {
        let v = frame.at_2d::<opencv::core::Vec3b>(y, x)?;
        px.push([f32::from(v[0]), f32::from(v[1]), f32::from(v[2])]);
        Ok(())
    };
    for inset in TABLE_RINGS {
        let (dx, dy) = (
            ((f64::from(w) * inset) as i32).min(w - 1),
            ((f64::from(h) * inset) as i32).min(h - 1),
        );
        for x in (0..w).step_by(3) {
            push(x, dy)?;
            push(x, h - 1 - dy)?;
        }
        for y in (0..h).step_by(3) {
            push(dx, y)?;
            push(w - 1 - dx, y)?;
        }
    }
    Ok(two_means(&px))
}

/// Where (shares of the frame's width and height in from each side) [`table_colours`] samples.
const TABLE_RINGS: [f64; 3] = [0.03, 0.06, 0.1];

/// The table's colours around the start tile (corners `start`) in a setup frame: two cluster
/// centres of the table one to four cells from it, where it is seen at the board's own scale
/// and light (a far checked cloth blurs into one colour at the frame's border).
pub fn table_colours_near(frame: &Mat, start: &Quad) -> opencv::Result<[[f32; 3]; 2]> {
    let h = quad_homography(start)?;
    let mut px: Vec<[f32; 3]> = Vec::new();
    for gy in -16..=20 {
        for gx in -16..=20 {
            let g = [f64::from(gx) / 4.0, f64::from(gy) / 4.0];
            if (-1.0..=2.0).contains(&g[0]) && (-1.0..=2.0).contains(&g[1]) {
                continue;
            }
            let p = apply_homography(&h, g);
            let (x, y) = (p[0].round() as i32, p[1].round() as i32);
            if x >= 0 && y >= 0 && x < frame.cols() && y < frame.rows() {
                let v = frame.at_2d::<opencv::core::Vec3b>(y, x)?;
                px.push([f32::from(v[0]), f32::from(v[1]), f32::from(v[2])]);
            }
        }
    }
    if px.len() < 32 {
        return table_colours(frame);
    }
    Ok(two_means(&px))
}

/// Two cluster centres of some colours, grown from the darkest and the lightest; where one
/// holds less than [`LEAST_SHARE`] of them, it is something lying on the table (the start tile
/// across the rings [`table_colours`] samples), and the other stands for both.
fn two_means(px: &[[f32; 3]]) -> [[f32; 3]; 2] {
    let luma = |p: &[f32; 3]| p[0] + p[1] + p[2];
    let mut centres = [
        *px.iter()
            .min_by(|a, b| luma(a).total_cmp(&luma(b)))
            .unwrap_or(&[0.0; 3]),
        *px.iter()
            .max_by(|a, b| luma(a).total_cmp(&luma(b)))
            .unwrap_or(&[0.0; 3]),
    ];
    let mut n = [0usize; 2];
    for _ in 0..8 {
        let mut sum = [[0.0f32; 3]; 2];
        n = [0; 2];
        for p in px {
            let k = usize::from(dist2(p, &centres[1]) < dist2(p, &centres[0]));
            for c in 0..3 {
                sum[k][c] += p[c];
            }
            n[k] += 1;
        }
        for k in 0..2 {
            if n[k] > 0 {
                centres[k] = sum[k].map(|s| s / n[k] as f32);
            }
        }
    }
    let least = LEAST_SHARE * px.len() as f32;
    match n.map(|n| n as f32 >= least) {
        [true, false] => [centres[0]; 2],
        [false, true] => [centres[1]; 2],
        _ => centres,
    }
}

/// The least share of the sampled pixels a table colour holds: the start tile lying across
/// the rings of a 720p frame is about a hundredth of them; the lesser colour of a checked cloth
/// or of grain a third or more.
const LEAST_SHARE: f32 = 0.05;

fn dist2(a: &[f32; 3], b: &[f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum()
}

/// Whether a pixel shows the table (colours `table`, a mix of them, a little lighter or darker).
pub fn table_like(p: [u8; 3], table: &[[f32; 3]; 2]) -> bool {
    blend_distance2(p, table) <= TABLE_LIKE * TABLE_LIKE
}

/// How far (colour distance) each of the table's colours must lie from every terrain colour
/// for the table to show where a tile is not: a dark table or a cloth lies some 100 from any
/// terrain, a wooden one some 25 to 60 from the cities and roads printed on the tiles.
const TABLE_APART: f32 = 80.0;

/// How many times nearer (in squared colour distance) the table's colours than any terrain a
/// pixel must be to count as the table: twice as near.
const NEARER_TABLE: f32 = 4.0;

/// The least stretch (patch pixels, of the 64 a tile spans) of the table that counts: the gaps
/// between tiles, and print that shares the table's colour, are thinner.
const TABLE_STRETCH: i32 = 11;

/// A mask (255) of the table showing in a patch: stretches of [`TABLE_STRETCH`] or more,
/// reaching the patch's border (where the table beyond the board comes in), of pixels
/// [`NEARER_TABLE`] nearer the table's colours than any terrain of `model`. `None` where the
/// table's colours lie within [`TABLE_APART`] of a terrain's: there, the table is told from
/// print too poorly to count.
pub fn table_mask(
    patch: &Mat,
    table: &[[f32; 3]; 2],
    model: &ColourModel,
) -> opencv::Result<Option<Mat>> {
    let near_print = table.iter().any(|c| {
        let c = c.map(|v| v.round().clamp(0.0, 255.0) as u8);
        model.nearest_distance2(c) < TABLE_APART * TABLE_APART
    });
    if near_print {
        return Ok(None);
    }
    let patch = patch.try_clone()?;
    let (w, h) = (patch.cols(), patch.rows());
    let mut mask =
        Mat::new_rows_cols_with_default(h, w, opencv::core::CV_8U, opencv::core::Scalar::all(0.0))?;
    for (m, p) in mask
        .data_bytes_mut()?
        .iter_mut()
        .zip(patch.data_bytes()?.chunks_exact(3))
    {
        let p = [p[0], p[1], p[2]];
        if !model.has_cluster_within2(p, NEARER_TABLE * blend_distance2(p, table)) {
            *m = 255;
        }
    }
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_RECT,
        opencv::core::Size::new(TABLE_STRETCH, TABLE_STRETCH),
        opencv::core::Point::new(-1, -1),
    )?;
    let mut stretches = Mat::default();
    imgproc::morphology_ex(
        &mask,
        &mut stretches,
        imgproc::MORPH_OPEN,
        &kernel,
        opencv::core::Point::new(-1, -1),
        1,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::all(0.0),
    )?;
    Ok(Some(keep_regions(&stretches, |reaches_border, _| {
        reaches_border
    })?))
}

/// Squared distance from a pixel to the nearest mix of the two table colours, a little lighter
/// or darker (the edges of checks and grain, under uneven light).
pub(super) fn blend_distance2(p: [u8; 3], table: &[[f32; 3]; 2]) -> f32 {
    blend_distances2(p, table).fold(f32::MAX, f32::min)
}

/// Whether [`blend_distance2`] is less than `bound`: measured lightness by lightness, the
/// likeliest first, until one is near enough.
pub(super) fn blend_within(p: [u8; 3], table: &[[f32; 3]; 2], bound: f32) -> bool {
    blend_distances2(p, table).any(|d| d < bound)
}

/// Squared distances from a pixel to the nearest mix of the two table colours at each lightness
/// tried (the pixel divided by it), in the pixel's own levels.
fn blend_distances2(p: [u8; 3], table: &[[f32; 3]; 2]) -> impl Iterator<Item = f32> + '_ {
    let q = [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])];
    let d = [0, 1, 2].map(|c| table[1][c] - table[0][c]);
    let len2 = dist2(&table[0], &table[1]).max(1.0);
    [1.0f32, 0.9, 1.12, 0.8, 1.25].into_iter().map(move |s| {
        let r = q.map(|v| v / s);
        let t = ((0..3).map(|c| (r[c] - table[0][c]) * d[c]).sum::<f32>() / len2).clamp(0.0, 1.0);
        let on = [0, 1, 2].map(|c| table[0][c] + t * d[c]);
        dist2(&r, &on) * s * s
    })
}

/// The farthest a pixel of the table lies from the table's colours (or, for the start tile's
/// mask, from how the table looks around it).
pub(super) const TABLE_LIKE: f32 = 35.0;

/// What the middle of a cell patch shows, by its share of table pixels ([`what_cell_shows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShows {
    /// At most [`TABLE_IN_TILE`] of table.
    Tile,
    /// Up to [`TABLE_IN_CITY`] of table: the table, or a city whose print (red roofs, some
    /// editions' brown) passes for a wooden or red-checked table.
    TableColours,
    /// Up to [`TABLE_IN_ENCLOSED`] of table: the table, or a tile all city whose roofs pass
    /// for a wooden table, which only tiles on three sides or more (or a road it shows) can
    /// tell.
    MostlyTable,
    /// More table.
    Table,
}

/// The largest share of table pixels in a cell that surely shows a tile: well below what bare
/// table shows (some 0.95), above what a tile of green fields and roads shows.
const TABLE_IN_TILE: f64 = 0.7;

/// The largest share of table pixels in a cell that may still show a tile: city tiles of
/// 2nd-edition art (red roofs) on a wooden or red-checked table show 0.7–0.9 (`eval vision` art
/// data sets), bare table mostly over 0.95; let in above 0.8, cells of table beside the board
/// began to read as tiles.
const TABLE_IN_CITY: f64 = 0.8;

/// The largest share of table pixels in a cell tiles enclose on three sides or more that may
/// still show a tile: a tile all city (red roofs) on a wooden table shows up to some 0.89
/// (`eval vision` art data sets).
const TABLE_IN_ENCLOSED: f64 = 0.9;

/// What the middle of a cell patch (cut with `MARGIN_PX`) shows, by the share of its pixels
/// that show table (nearer the table's colours, or a mix of them as grain shades from one to
/// the other, than any terrain). Pixels `out_of_view` are left out, and so are those under
/// `figures`, unless these cover most of the middle: no figure covers most of a cell, but a
/// dark table passes for a black figure's paint.
pub fn what_cell_shows(
    patch: &Mat,
    model: &ColourModel,
    table: &[[f32; 3]; 2],
    figures: Option<&Mat>,
    out_of_view: Option<&Mat>,
) -> opencv::Result<CellShows> {
    let patch = patch.try_clone()?;
    let bytes = patch.data_bytes()?;
    let figures = flags(figures)?;
    let set = |m: &Option<Vec<u8>>, k: usize| m.as_ref().is_some_and(|m| m[k] != 0);
    let in_view = middle_in_view(&patch, out_of_view)?;
    let under_figures = in_view.iter().filter(|&&k| set(&figures, k)).count();
    let seen: Vec<usize> = if 2 * under_figures > in_view.len() {
        in_view
    } else {
        in_view.into_iter().filter(|&k| !set(&figures, k)).collect()
    };
    // Counted until the answer is settled.
    let all = seen.len();
    if all == 0 {
        return Ok(CellShows::Table);
    }
    let share = |px: usize| px as f64 / all as f64;
    let (mut table_px, mut other_px) = (0usize, 0usize);
    for k in seen {
        let p = [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
        if blend_within(p, table, model.nearest_distance2(p)) {
            table_px += 1;
            if share(table_px) > TABLE_IN_ENCLOSED {
                return Ok(CellShows::Table);
            }
        } else {
            other_px += 1;
            if share(all - other_px) <= TABLE_IN_TILE {
                return Ok(CellShows::Tile);
            }
        }
    }
    Ok(if share(table_px) > TABLE_IN_CITY {
        CellShows::MostlyTable
    } else {
        CellShows::TableColours
    })
}

/// The pixels (indices) of the middle of a cell patch (cut with `MARGIN_PX`) that are not
/// `out_of_view`.
fn middle_in_view(patch: &Mat, out_of_view: Option<&Mat>) -> opencv::Result<Vec<usize>> {
    let w = patch.cols().max(0) as usize;
    let out_of_view = flags(out_of_view)?;
    let m = MARGIN_PX as usize;
    let middle = (m + 4)..(w.saturating_sub(m + 4));
    Ok(middle
        .clone()
        .flat_map(|y| middle.clone().map(move |x| y * w + x))
        .filter(|&k| out_of_view.as_ref().is_none_or(|o| o[k] == 0))
        .collect())
}

/// A mask's bytes, if there is a mask.
fn flags(mask: Option<&Mat>) -> opencv::Result<Option<Vec<u8>>> {
    mask.map(|m| Ok(m.try_clone()?.data_bytes()?.to_vec()))
        .transpose()
}

/// Share of table pixels in the middle of a cell (figures not left out) above which
/// [`what_cell_shows`] finds [`CellShows::Table`] whatever figures cover: it leaves out at
/// most half the pixels, and with half of them gone, all of table colours, the share left
/// still exceeds [`TABLE_IN_ENCLOSED`].
const TABLE_UNDER_ANY_FIGURES: f64 = (1.0 + TABLE_IN_ENCLOSED) / 2.0;

/// Whether [`what_cell_shows`] finds [`CellShows::Table`] in a cell patch whatever figures
/// stand on it: so much of it shows table ([`TABLE_UNDER_ANY_FIGURES`]) that no figures need
/// looking for.
pub(super) fn table_whatever_figures(
    patch: &Mat,
    model: &ColourModel,
    table: &[[f32; 3]; 2],
    out_of_view: Option<&Mat>,
) -> opencv::Result<bool> {
    let patch = patch.try_clone()?;
    let bytes = patch.data_bytes()?;
    let in_view = middle_in_view(&patch, out_of_view)?;
    // Given up once too many pixels show something else.
    let most_other = ((1.0 - TABLE_UNDER_ANY_FIGURES) * in_view.len() as f64) as usize;
    let mut other_px = 0usize;
    for k in &in_view {
        let p = [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
        if !blend_within(p, table, model.nearest_distance2(p)) {
            other_px += 1;
            if other_px > most_other {
                return Ok(false);
            }
        }
    }
    let table_px = in_view.len() - other_px;
    Ok(in_view.is_empty() || table_px as f64 / in_view.len() as f64 > TABLE_UNDER_ANY_FIGURES)
}

/// Whether the middle of a cell patch shows more table than a tile surely does
/// ([`what_cell_shows`]).
pub fn looks_empty(
    patch: &Mat,
    model: &ColourModel,
    table: &[[f32; 3]; 2],
    figures: Option<&Mat>,
    out_of_view: Option<&Mat>,
) -> opencv::Result<bool> {
    Ok(what_cell_shows(patch, model, table, figures, out_of_view)? != CellShows::Tile)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::rectify::PATCH_PX;
    use opencv::core::{Rect, Scalar, CV_8UC3};

    const DARK: [[f32; 3]; 2] = [[30.0, 28.0, 25.0], [34.0, 31.0, 28.0]];

    /// An 80-pixel patch of grass (the default field colour) with `dark` rectangles of table.
    fn grass_with(dark: &[Rect]) -> Mat {
        let mut patch =
            Mat::new_rows_cols_with_default(80, 80, CV_8UC3, Scalar::new(70.0, 155.0, 115.0, 0.0))
                .unwrap();
        for &r in dark {
            imgproc::rectangle(&mut patch, r, Scalar::new(31.0, 29.0, 26.0, 0.0), -1, 8, 0)
                .unwrap();
        }
        patch
    }

    #[test]
    fn a_tile_lying_across_the_sampled_rings_is_no_table_colour() {
        // A plain dark cloth (720p) with a light tile 65 pixels wide, half field and half city,
        // lying across the rings 6 % and 10 % in from the top (`eval vision` 28300 board-019's
        // setup frame: its field passed for the table, and the start tile was found half as
        // deep as it is).
        let cloth = Scalar::new(60.0, 70.0, 40.0, 0.0);
        let mut frame = Mat::new_rows_cols_with_default(720, 1280, CV_8UC3, cloth).unwrap();
        let field = Scalar::new(60.0, 200.0, 130.0, 0.0);
        let city = Scalar::new(40.0, 110.0, 220.0, 0.0);
        imgproc::rectangle(&mut frame, Rect::new(616, 30, 65, 32), city, -1, 8, 0).unwrap();
        imgproc::rectangle(&mut frame, Rect::new(616, 62, 65, 33), field, -1, 8, 0).unwrap();
        let table = table_colours(&frame).unwrap();
        for colour in table {
            assert!(dist2(&colour, &[60.0, 70.0, 40.0]) < 1.0, "{table:?}");
        }
        assert!(!table_like([60, 200, 130], &table));
        // A checked cloth keeps both its colours.
        let light = Scalar::new(200.0, 200.0, 230.0, 0.0);
        for y in (0..720).step_by(80) {
            for x in (0..1280).step_by(80) {
                if (x / 80 + y / 80) % 2 == 0 {
                    imgproc::rectangle(&mut frame, Rect::new(x, y, 80, 80), light, -1, 8, 0)
                        .unwrap();
                }
            }
        }
        let [a, b] = table_colours(&frame).unwrap();
        assert!(dist2(&a, &b) > 100.0 * 100.0, "{a:?} {b:?}");
    }

    #[test]
    fn the_table_counts_where_it_comes_in_past_the_border_in_a_broad_stretch() {
        let band = Rect::new(0, 60, 80, 20);
        let gap = Rect::new(2, 0, 3, 60);
        let figure = Rect::new(30, 20, 20, 20);
        let mask = table_mask(
            &grass_with(&[band, gap, figure]),
            &DARK,
            &ColourModel::default(),
        )
        .unwrap()
        .expect("a dark table is told from print");
        let at = |x: i32, y: i32| *mask.at_2d::<u8>(y, x).unwrap();
        // The table beyond the board, a band along the bottom: counted.
        assert_eq!(at(40, 70), 255);
        assert_eq!(at(5, 78), 255);
        // A gap between tiles, thin; a black figure standing inside, clear of the border.
        assert_eq!(at(3, 30), 0);
        assert_eq!(at(40, 30), 0);
        assert_eq!(at(40, 50), 0);
    }

    #[test]
    fn a_table_coloured_like_the_print_tells_nothing() {
        // A wooden table as brown as the default city.
        let wood = [[80.0, 120.0, 170.0], [85.0, 130.0, 180.0]];
        let patch = grass_with(&[Rect::new(0, 60, 80, 20)]);
        assert!(table_mask(&patch, &wood, &ColourModel::default())
            .unwrap()
            .is_none());
    }

    #[test]
    fn an_empty_cell_of_a_dark_table_looks_empty_though_it_passes_for_black_paint() {
        use crate::rules::Colour;
        use crate::sim::figures::colour_bgr;
        use crate::vision::figures::{Enrolment, FIGURE_SHARE};
        let model = ColourModel::default();
        let dark = [30.0, 31.0, 33.0];
        let table = [dark, [36.0, 37.0, 40.0]];
        let field = model.means()[0];
        let black = Enrolment::new(vec![colour_bgr(Colour::Black).map(|v| v as f32)], 55.0);
        let px = PATCH_PX + 2 * MARGIN_PX;
        let paint = |patch: &mut Mat, r: Rect, c: [f32; 3]| {
            let colour = Scalar::new(c[0].into(), c[1].into(), c[2].into(), 0.0);
            Mat::roi_mut(patch, r)
                .unwrap()
                .set_to(&colour, &opencv::core::no_array())
                .unwrap();
        };
        let bare = |c: [f32; 3]| {
            let colour = Scalar::new(c[0].into(), c[1].into(), c[2].into(), 0.0);
            Mat::new_rows_cols_with_default(px, px, CV_8UC3, colour).unwrap()
        };
        // The table with a neighbour's print reaching a sixth of the way in from the east: as
        // dark as black paint, but reaching across the cell, so no figure.
        let mut cell = bare(dark);
        let print = Rect::new(px - MARGIN_PX - 16, 0, 16 + MARGIN_PX, px);
        paint(&mut cell, print, field);
        let (mask, blobs) = black.find(&cell, &model, FIGURE_SHARE).unwrap();
        assert!(blobs.is_empty(), "{blobs:?}");
        assert!(looks_empty(&cell, &model, &table, Some(&mask), None).unwrap());
        // Were all of it taken for a figure's paint, it would still look empty.
        let mut all_paint =
            Mat::new_rows_cols_with_default(px, px, opencv::core::CV_8U, Scalar::all(255.0))
                .unwrap();
        Mat::roi_mut(&mut all_paint, print)
            .unwrap()
            .set_to(&Scalar::all(0.0), &opencv::core::no_array())
            .unwrap();
        assert!(looks_empty(&cell, &model, &table, Some(&all_paint), None).unwrap());
        // A field with a black figure standing on it, as dark as the table.
        let mut tile = bare(field);
        paint(&mut tile, Rect::new(30, 26, 18, 26), dark);
        let (mask, _) = black.find(&tile, &model, FIGURE_SHARE).unwrap();
        assert!(opencv::core::count_non_zero(&mask).unwrap() > 0);
        assert!(!looks_empty(&tile, &model, &table, Some(&mask), None).unwrap());
    }

    /// A red and white checked cloth (BGR).
    const RED_CHECKS: [[f32; 3]; 2] = [[40.0, 40.0, 190.0], [225.0, 225.0, 230.0]];
    /// Where the cut's middle (what counts) begins and how long its side is: 4 pixels inside
    /// the margin.
    const MIDDLE: (i32, i32) = (MARGIN_PX + 4, PATCH_PX - 8);

    /// A cell cut from the red of [`RED_CHECKS`] everywhere, with a band of `model`'s field
    /// colour across the top `share` of the middle.
    fn red_cloth_with_field(model: &ColourModel, share: f64) -> Mat {
        let px = PATCH_PX + 2 * MARGIN_PX;
        let (top, middle) = MIDDLE;
        let colour = |c: [f32; 3]| Scalar::new(c[0].into(), c[1].into(), c[2].into(), 0.0);
        let mut patch =
            Mat::new_rows_cols_with_default(px, px, CV_8UC3, colour(RED_CHECKS[0])).unwrap();
        let rows = (f64::from(middle) * share).round() as i32;
        if rows > 0 {
            Mat::roi_mut(&mut patch, Rect::new(0, top, px, rows))
                .unwrap()
                .set_to(&colour(model.means()[0]), &opencv::core::no_array())
                .unwrap();
        }
        patch
    }

    #[test]
    fn a_cell_part_city_on_a_red_checked_table_shows_table_colours_and_bare_table_shows_table() {
        let model = ColourModel::default();
        let table = RED_CHECKS;
        let cell = |share| red_cloth_with_field(&model, share);
        let shows = |share| what_cell_shows(&cell(share), &model, &table, None, None).unwrap();
        assert_eq!(shows(0.0), CellShows::Table);
        assert_eq!(shows(0.05), CellShows::Table);
        // A tile all city, or bare table: only tiles around it can tell.
        assert_eq!(shows(0.15), CellShows::MostlyTable);
        // A city tile of red roofs, with a little field and wall showing: doubtful.
        assert_eq!(shows(0.25), CellShows::TableColours);
        assert_eq!(shows(0.5), CellShows::Tile);
        // The tracker, which reads a cell again each frame, takes the doubtful share for table.
        assert!(looks_empty(&cell(0.25), &model, &table, None, None).unwrap());
        assert!(!looks_empty(&cell(0.5), &model, &table, None, None).unwrap());
    }

    #[test]
    fn a_cell_is_table_whatever_figures_stand_on_it_only_where_half_of_it_hidden_could_not_tell() {
        use opencv::core::CV_8UC1;
        let model = ColourModel::default();
        let table = RED_CHECKS;
        let cell = |share| red_cloth_with_field(&model, share);
        let px = PATCH_PX + 2 * MARGIN_PX;
        let (top, middle) = MIDDLE;
        // A figure mask over the bottom half of the middle: all of it red cloth.
        let mut half = Mat::new_rows_cols_with_default(px, px, CV_8UC1, Scalar::all(0.0)).unwrap();
        Mat::roi_mut(
            &mut half,
            Rect::new(0, top + middle / 2, px, px - top - middle / 2),
        )
        .unwrap()
        .set_to(&Scalar::all(255.0), &opencv::core::no_array())
        .unwrap();
        let shows = |share, figures: Option<&Mat>| {
            what_cell_shows(&cell(share), &model, &table, figures, None).unwrap()
        };
        let sure = |share| table_whatever_figures(&cell(share), &model, &table, None).unwrap();
        for share in [0.0, 0.03] {
            assert!(sure(share), "{share}");
            assert_eq!(shows(share, Some(&half)), CellShows::Table, "{share}");
        }
        // Table without figures, but not with half the cloth hidden: figures must be looked for.
        assert_eq!(shows(0.08, None), CellShows::Table);
        assert_ne!(shows(0.08, Some(&half)), CellShows::Table);
        assert!(!sure(0.08));
        assert!(!sure(0.5));
    }
}

//! A contact sheet: sample frames of a filmed game in several looks, for eyes to check.

use opencv::core::{Mat, Point, Rect, Scalar, Size, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

use super::scene::Renderer;
use super::style::Style;
use super::table::Surface;
use super::timeline::{Film, Filming, View};
use crate::record::{Record, ReplayError};

/// Thumbnail size on the sheet.
const THUMB: Size = Size {
    width: 640,
    height: 360,
};

/// Six frames of `record`: overhead and oblique, four styles and table tops, arms with tiles and
/// followers, the final board, and one hand mask. Returns a 1920×720 image.
pub fn contact_sheet(record: &Record, seed: u64) -> Result<Mat, SheetError> {
    let looks = [
        (
            View::Overhead,
            0,
            Surface::Wood,
            0.35,
            "overhead, style 0, wood: laying a tile",
        ),
        (
            View::Oblique,
            1,
            Surface::Cloth,
            0.55,
            "oblique, style 1, cloth: a follower",
        ),
        (
            View::Overhead,
            2,
            Surface::Dark,
            0.75,
            "overhead, style 2, dark table",
        ),
        (
            View::Oblique,
            3,
            Surface::Checked,
            1.0,
            "oblique, style 3, tablecloth: final board",
        ),
        (
            View::Oblique,
            2,
            Surface::Light,
            0.45,
            "oblique, style 2, light table",
        ),
    ];
    let mut sheet = Mat::new_rows_cols_with_default(
        THUMB.height * 2,
        THUMB.width * 3,
        CV_8UC3,
        Scalar::all(0.0),
    )?;
    let mut mask_shown = false;
    for (k, (view, style, surface, when, label)) in looks.into_iter().enumerate() {
        let filming = Filming {
            view,
            size: [1280, 720],
            fps: 5.0,
            seed: seed + k as u64,
        };
        let film = Film::plan(record, &filming)?;
        let shots = film.shots();
        let at = ((shots.len() as f64 * when) as usize).min(shots.len() - 1);
        // Prefer a frame with an arm in it, except for the final board.
        let index = if when < 1.0 {
            // The last frame of the next reach: the hand right over its target.
            let start = (at..shots.len())
                .find(|&i| shots[i].scene.held.is_some())
                .unwrap_or(at);
            (start..shots.len())
                .take_while(|&i| shots[i].scene.held.is_some())
                .last()
                .unwrap_or(start)
        } else {
            shots.len() - 1
        };
        let shot = &shots[index];
        let mut renderer = Renderer::new(Style::preset(style), surface, seed + k as u64);
        let frame = renderer.render(&shot.scene, &shot.sensor, index as u64)?;
        place(&mut sheet, k, &frame.image, label)?;
        if !mask_shown && shot.scene.arm.is_some() {
            let mut colour = Mat::default();
            imgproc::cvt_color(&frame.hand_mask, &mut colour, imgproc::COLOR_GRAY2BGR, 0)?;
            place(&mut sheet, 5, &colour, "hand mask of the first picture")?;
            mask_shown = true;
        }
    }
    Ok(sheet)
}

fn place(sheet: &mut Mat, slot: usize, img: &Mat, label: &str) -> opencv::Result<()> {
    let mut small = Mat::default();
    imgproc::resize(img, &mut small, THUMB, 0.0, 0.0, imgproc::INTER_AREA)?;
    let origin = Point::new(
        (slot as i32 % 3) * THUMB.width,
        (slot as i32 / 3) * THUMB.height,
    );
    imgproc::rectangle(
        &mut small,
        Rect::new(0, 0, THUMB.width, 26),
        Scalar::all(0.0),
        -1,
        imgproc::LINE_8,
        0,
    )?;
    imgproc::put_text(
        &mut small,
        label,
        Point::new(8, 18),
        imgproc::FONT_HERSHEY_SIMPLEX,
        0.5,
        Scalar::all(255.0),
        1,
        imgproc::LINE_AA,
        false,
    )?;
    let mut roi = Mat::roi_mut(
        sheet,
        Rect::new(origin.x, origin.y, THUMB.width, THUMB.height),
    )?;
    small.copy_to(&mut roi)
}

/// Why a sheet could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// The record does not replay.
    #[error(transparent)]
    Record(#[from] ReplayError),
    /// OpenCV failed.
    #[error(transparent)]
    OpenCv(#[from] opencv::Error),
}

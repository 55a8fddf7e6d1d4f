//! The ChArUco board that calibrates the camera's lens: a printable page, the board's corners
//! found in photos of it, and the camera's [`Intrinsics`] fitted to them (OpenCV's contrib ArUco
//! module).

use anyhow::{bail, Context};
use opencv::aruco::{self, CharucoBoard, Dictionary, PREDEFINED_DICTIONARY_NAME};
use opencv::core::{Mat, Point, Point2f, Ptr, Rect, Scalar, Size, TermCriteria, Vector, CV_8UC1};
use opencv::prelude::*;
use opencv::{core, imgproc};

use super::intrinsics::Intrinsics;

/// Fewest views `calibrateCameraCharuco` gets: fewer pin the lens down badly.
pub const MIN_VIEWS: usize = 4;

/// Fewest board corners a view must show to count.
pub const MIN_CORNERS: usize = 8;

/// The marker dictionary (5×5 bits, 100 codes: enough for boards up to 14×14 squares).
const DICTIONARY: PREDEFINED_DICTIONARY_NAME = PREDEFINED_DICTIONARY_NAME::DICT_5X5_100;

/// The dictionary's name, for the page's caption.
const DICTIONARY_NAME: &str = "DICT_5X5_100";

/// A marker's side as a share of its square's.
const MARKER_SHARE: f32 = 0.75;

/// White margin around the board on the printed page, millimetres.
const MARGIN_MM: f64 = 10.0;

/// A ChArUco board: a chessboard whose white squares hold ArUco markers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardSpec {
    /// Squares across and down.
    pub squares: [i32; 2],
    /// A square's side in millimetres as printed.
    pub square_mm: f32,
}

impl Default for BoardSpec {
    /// 7×5 squares of 35 mm: 245 × 175 mm, on A4 landscape with its margins. (An odd number of
    /// rows draws the same pattern in every OpenCV version, old and new ArUco API alike.)
    fn default() -> BoardSpec {
        BoardSpec {
            squares: [7, 5],
            square_mm: 35.0,
        }
    }
}

impl BoardSpec {
    /// Checks the board can be drawn and found: 3–14 squares each way.
    pub fn new(squares: [i32; 2], square_mm: f32) -> anyhow::Result<BoardSpec> {
        if squares.iter().any(|s| !(3..=14).contains(s)) {
            bail!(
                "a ChArUco board needs 3 to 14 squares each way, not {}×{}",
                squares[0],
                squares[1]
            );
        }
        if !(square_mm.is_finite() && (2.0..=500.0).contains(&square_mm)) {
            bail!("a square of {square_mm} mm cannot be printed");
        }
        Ok(BoardSpec { squares, square_mm })
    }

    /// A marker's side in millimetres.
    pub fn marker_mm(&self) -> f32 {
        self.square_mm * MARKER_SHARE
    }

    /// The board's width and height in millimetres (without the page's margin).
    pub fn size_mm(&self) -> [f64; 2] {
        self.squares
            .map(|s| f64::from(s) * f64::from(self.square_mm))
    }

    /// One line that says what the board is, as printed under it.
    pub fn caption(&self) -> String {
        format!(
            "meeplecam ChArUco {}x{}, squares {:.2} mm, markers {:.2} mm, {DICTIONARY_NAME}",
            self.squares[0],
            self.squares[1],
            self.square_mm,
            self.marker_mm()
        )
    }

    /// The board and its dictionary, in OpenCV's terms (lengths in millimetres).
    pub fn board(&self) -> opencv::Result<Charuco> {
        let dictionary = aruco::get_predefined_dictionary(DICTIONARY)?;
        let board = CharucoBoard::create(
            self.squares[0],
            self.squares[1],
            self.square_mm,
            self.marker_mm(),
            &dictionary,
        )?;
        Ok(Charuco { board, dictionary })
    }

    /// The board as printed at `dpi` dots per inch: each square a whole number of dots (so
    /// that every square is drawn alike), its side as close to this one's as that allows.
    pub fn at_dpi(&self, dpi: f64) -> anyhow::Result<BoardSpec> {
        if !(dpi.is_finite() && (20.0..=2400.0).contains(&dpi)) {
            bail!("{dpi} dpi is not a printer's resolution");
        }
        let dots = (f64::from(self.square_mm) * dpi / 25.4).round().max(8.0);
        BoardSpec::new(self.squares, (dots * 25.4 / dpi) as f32)
    }

    /// The printable page at `dpi` dots per inch (8-bit grey) of the board [`BoardSpec::at_dpi`]
    /// gives: the board in a white margin, its caption in the margin below it.
    pub fn page(&self, dpi: f64) -> anyhow::Result<Mat> {
        let printed = self.at_dpi(dpi)?;
        let px = |mm: f64| (mm * dpi / 25.4).round() as i32;
        let square = px(f64::from(printed.square_mm));
        let [w, h] = printed.squares.map(|s| s * square);
        let margin = px(MARGIN_MM);
        let mut page = Mat::new_rows_cols_with_default(
            h + 2 * margin,
            w + 2 * margin,
            CV_8UC1,
            Scalar::all(255.0),
        )?;
        let mut drawn = Mat::default();
        printed
            .board()?
            .board
            .draw(Size::new(w, h), &mut drawn, 0, 1)?;
        let mut roi = Mat::roi_mut(&mut page, Rect::new(margin, margin, w, h))?;
        drawn.copy_to(&mut roi)?;
        caption(&mut page, &printed.caption(), margin, h + margin)?;
        Ok(page)
    }
}

/// Writes `text` in the bottom margin, which starts at `top` and is `margin` pixels high, as
/// large as fits.
fn caption(page: &mut Mat, text: &str, margin: i32, top: i32) -> opencv::Result<()> {
    let font = imgproc::FONT_HERSHEY_SIMPLEX;
    let mut baseline = 0;
    let unit = imgproc::get_text_size(text, font, 1.0, 1, &mut baseline)?;
    let width = f64::from(page.cols() - 2 * margin);
    let scale =
        (width / f64::from(unit.width)).min(0.4 * f64::from(margin) / f64::from(unit.height));
    let thickness = ((scale * 1.5).round() as i32).max(1);
    let height = (f64::from(unit.height) * scale) as i32;
    imgproc::put_text(
        page,
        text,
        Point::new(margin, top + (margin + height) / 2),
        font,
        scale,
        Scalar::all(0.0),
        thickness,
        imgproc::LINE_AA,
        false,
    )
}

/// A ChArUco board with the dictionary of its markers.
pub struct Charuco {
    /// The board (lengths in millimetres).
    pub board: Ptr<CharucoBoard>,
    /// Its markers' dictionary.
    pub dictionary: Ptr<Dictionary>,
}

/// The board's inner corners found in one photo: sub-pixel positions and their ids.
#[derive(Clone, Debug)]
pub struct View {
    /// Corner pixels.
    pub corners: Vector<Point2f>,
    /// The board's id of each corner.
    pub ids: Vector<i32>,
}

impl Charuco {
    /// The board's corners in a photo: markers first, then the chessboard corners between
    /// them, refined to sub-pixel. `None` when fewer than [`MIN_CORNERS`] are seen or all on
    /// one line (such a view pins nothing down).
    pub fn find(&self, image: &Mat) -> opencv::Result<Option<View>> {
        let grey = grey(image)?;
        let mut markers = Vector::<Vector<Point2f>>::new();
        let mut marker_ids = Vector::<i32>::new();
        aruco::detect_markers_def(&grey, &self.dictionary, &mut markers, &mut marker_ids)?;
        if marker_ids.len() < 2 {
            return Ok(None);
        }
        let mut corners = Vector::<Point2f>::new();
        let mut ids = Vector::<i32>::new();
        aruco::interpolate_corners_charuco_def(
            &markers,
            &marker_ids,
            &grey,
            &self.board,
            &mut corners,
            &mut ids,
        )?;
        if ids.len() < MIN_CORNERS || aruco::test_charuco_corners_collinear(&self.board, &ids)? {
            return Ok(None);
        }
        Ok(Some(View { corners, ids }))
    }

    /// Fits the camera's intrinsics to views of the board in images of `size` pixels
    /// (`calibrateCameraCharuco`, OpenCV's 5-coefficient lens model); an error with fewer than
    /// [`MIN_VIEWS`] views.
    pub fn calibrate(&self, views: &[View], size: [i32; 2]) -> anyhow::Result<Intrinsics> {
        if views.len() < MIN_VIEWS {
            bail!(
                "{} usable view{} of the board; calibration needs at least {MIN_VIEWS} \
                 (photograph the whole board from different angles, near the image's corners too)",
                views.len(),
                if views.len() == 1 { "" } else { "s" }
            );
        }
        let corners: Vector<Vector<Point2f>> = views.iter().map(|v| v.corners.clone()).collect();
        let ids: Vector<Vector<i32>> = views.iter().map(|v| v.ids.clone()).collect();
        let mut k = Mat::default();
        let mut d = Mat::default();
        let rms = aruco::calibrate_camera_charuco(
            &corners,
            &ids,
            &self.board,
            Size::new(size[0], size[1]),
            &mut k,
            &mut d,
            &mut core::no_array(),
            &mut core::no_array(),
            0,
            TermCriteria::new(
                core::TermCriteria_COUNT + core::TermCriteria_EPS,
                100,
                1e-12,
            )?,
        )
        .context("calibrateCameraCharuco")?;
        let at = |m: &Mat, r: i32, c: i32| m.at_2d::<f64>(r, c).copied();
        let mut distortion = [0.0; 5];
        for (i, slot) in distortion.iter_mut().enumerate() {
            *slot = *d.at::<f64>(i as i32)?;
        }
        let intrinsics = Intrinsics {
            size,
            focal: [at(&k, 0, 0)?, at(&k, 1, 1)?],
            principal: [at(&k, 0, 2)?, at(&k, 1, 2)?],
            distortion,
            rms_px: Some(rms),
            views: Some(views.len()),
        };
        if !rms.is_finite() || intrinsics.focal.iter().any(|f| !f.is_finite() || *f <= 0.0) {
            bail!("the calibration did not converge (RMS {rms} px)");
        }
        Ok(intrinsics)
    }
}

/// An 8-bit grey copy of a BGR or grey image.
fn grey(image: &Mat) -> opencv::Result<Mat> {
    if image.channels() == 1 {
        return image.try_clone();
    }
    let mut out = Mat::default();
    imgproc::cvt_color_def(image, &mut out, imgproc::COLOR_BGR2GRAY)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_the_board_at_the_printers_scale_with_its_margin() {
        let spec = BoardSpec::default();
        let page = spec.page(100.0).unwrap();
        let px = |mm: f64| (mm * 100.0 / 25.4).round() as i32;
        // 35 mm is 137.8 dots at 100 dpi: squares of 138 dots, 35.05 mm.
        assert_eq!(page.cols(), 7 * 138 + 2 * px(10.0));
        assert_eq!(page.rows(), 5 * 138 + 2 * px(10.0));
        let printed = spec.at_dpi(100.0).unwrap();
        assert!((printed.square_mm - 35.052).abs() < 1e-3, "{printed:?}");
        // Corner (0, 0) of the board is a black square; the margin is white but for the caption.
        let m = px(10.0);
        assert_eq!(*page.at_2d::<u8>(m + 3, m + 3).unwrap(), 0);
        assert_eq!(*page.at_2d::<u8>(2, 2).unwrap(), 255);
        let mut dark = 0;
        for y in px(185.0)..page.rows() {
            for x in 0..page.cols() {
                dark += i32::from(*page.at_2d::<u8>(y, x).unwrap() < 128);
            }
        }
        assert!(dark > 200, "no caption under the board");
    }

    #[test]
    fn the_flat_page_shows_every_inner_corner() {
        let spec = BoardSpec::default();
        let view = spec
            .board()
            .unwrap()
            .find(&spec.page(100.0).unwrap())
            .unwrap();
        assert_eq!(view.unwrap().ids.len(), 6 * 4);
    }

    #[test]
    fn bad_boards_and_too_few_views_are_errors() {
        assert!(BoardSpec::new([2, 5], 30.0).is_err());
        assert!(BoardSpec::new([7, 5], 0.0).is_err());
        assert!(BoardSpec::default().page(0.0).is_err());
        let board = BoardSpec::default().board().unwrap();
        let page = BoardSpec::default().page(100.0).unwrap();
        let view = board.find(&page).unwrap().unwrap();
        let e = board.calibrate(&[view.clone(), view.clone(), view], [1000, 800]);
        assert!(format!("{:#}", e.unwrap_err()).contains("at least 4"));
    }

    #[test]
    fn a_blank_image_shows_no_board() {
        let blank = Mat::new_rows_cols_with_default(300, 400, CV_8UC1, Scalar::all(255.0)).unwrap();
        let board = BoardSpec::default().board().unwrap();
        assert!(board.find(&blank).unwrap().is_none());
    }
}

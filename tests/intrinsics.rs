//! Camera intrinsics from the ChArUco board: the program's own printable board, laid on the
//! simulated table and photographed through a camera of known focal length and distortion from
//! several poses, must give that camera back; undistorting with it must straighten lines; bad
//! files and too few views are clear errors.

#![cfg(feature = "vision")]

use std::path::{Path, PathBuf};
use std::process::Command;

use opencv::core::{Mat, Scalar};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};

use meeplecam::sim::camera::Camera;
use meeplecam::sim::print::FlatPrint;
use meeplecam::vision::charuco::{BoardSpec, View};
use meeplecam::vision::intrinsics::{Intrinsics, Undistorter};

/// Image size of the simulated webcam.
const SIZE: [i32; 2] = [1280, 720];

/// The true lens: focal length and principal point in pixels, `k1 k2 p1 p2 k3`.
const FOCAL: [f64; 2] = [1010.0, 1004.0];
const PRINCIPAL: [f64; 2] = [652.0, 347.0];
const DISTORTION: [f64; 5] = [-0.17, 0.06, 0.0009, -0.0006, 0.0];

/// Resolution the board is printed at for the photos (about what the camera resolves).
const DPI: f64 = 150.0;

/// The camera at `centre` (table mm) looking at `target`, with the true lens.
fn camera(centre: [f64; 3], target: [f64; 2]) -> Camera {
    let mut cam = Camera::looking_at(SIZE, 60.0, centre, [target[0], target[1], 0.0]);
    cam.focal = FOCAL;
    cam.principal = PRINCIPAL;
    cam.distortion = DISTORTION;
    cam
}

/// Poses round the board (centred on the table's origin): overhead, tilted from each side,
/// diagonal, and near so that the board reaches the image's corners.
fn poses() -> Vec<Camera> {
    vec![
        camera([0.0, 0.0, -300.0], [0.0, 0.0]),
        camera([0.0, 190.0, -260.0], [0.0, 0.0]),
        camera([0.0, -190.0, -260.0], [0.0, 0.0]),
        camera([210.0, 0.0, -260.0], [0.0, 0.0]),
        camera([-210.0, 0.0, -260.0], [0.0, 0.0]),
        camera([140.0, 140.0, -280.0], [10.0, 5.0]),
        camera([-120.0, -110.0, -240.0], [-20.0, 15.0]),
        camera([30.0, 40.0, -220.0], [40.0, 30.0]),
        camera([0.0, 0.0, -330.0], [110.0, 70.0]),
        camera([0.0, 0.0, -330.0], [-110.0, 70.0]),
        camera([0.0, 0.0, -330.0], [110.0, -70.0]),
        camera([0.0, 0.0, -330.0], [-110.0, -70.0]),
    ]
}

/// The printable page and the board's spec.
fn page() -> (BoardSpec, Mat) {
    let spec = BoardSpec::default();
    let page = spec.page(DPI).unwrap();
    (spec, page)
}

/// The page lying centred on the table, photographed by `cam` (BGR, slightly soft as a
/// webcam's optics are).
fn photograph(page: &Mat, cam: &Camera) -> Mat {
    let mm_per_px = 25.4 / DPI;
    let w = f64::from(page.cols()) * mm_per_px;
    let h = f64::from(page.rows()) * mm_per_px;
    let flat = FlatPrint {
        image: page,
        mm_per_px,
        origin_mm: [-w / 2.0, -h / 2.0],
    };
    let grey = flat.photograph(cam, Scalar::all(90.0)).expect("photograph");
    let mut bgr = Mat::default();
    imgproc::cvt_color_def(&grey, &mut bgr, imgproc::COLOR_GRAY2BGR).unwrap();
    let mut soft = Mat::default();
    imgproc::gaussian_blur_def(&bgr, &mut soft, opencv::core::Size::new(3, 3), 0.6).unwrap();
    soft
}

/// The board's corners in each photo (all poses must show it).
fn views(spec: &BoardSpec, page: &Mat) -> Vec<View> {
    let board = spec.board().unwrap();
    poses()
        .iter()
        .enumerate()
        .map(|(i, cam)| {
            board
                .find(&photograph(page, cam))
                .unwrap()
                .unwrap_or_else(|| panic!("no board in view {i}"))
        })
        .collect()
}

#[test]
fn the_board_in_simulated_photos_gives_the_camera_back() {
    let (spec, page) = page();
    let views = views(&spec, &page);
    let found = spec.board().unwrap().calibrate(&views, SIZE).unwrap();
    println!("recovered {found:?}");
    let rms = found.rms_px.unwrap();
    assert!(rms < 1.0, "RMS reprojection error {rms} px");
    for axis in 0..2 {
        let focal_error = (found.focal[axis] - FOCAL[axis]).abs() / FOCAL[axis];
        assert!(focal_error < 0.02, "focal {axis}: {found:?}");
        let centre_error = (found.principal[axis] - PRINCIPAL[axis]).abs() / f64::from(SIZE[axis]);
        assert!(centre_error < 0.02, "principal point {axis}: {found:?}");
    }
    assert_eq!(found.views, Some(poses().len()));
}

/// Largest distance of the board's corners from the least-squares line through their row, over
/// all rows with at least four corners seen.
fn bow_px(view: &View, spec: &BoardSpec) -> f64 {
    let per_row = spec.squares[0] - 1;
    let mut worst: f64 = 0.0;
    for row in 0..spec.squares[1] - 1 {
        let points: Vec<[f64; 2]> = view
            .ids
            .iter()
            .zip(view.corners.iter())
            .filter(|(id, _)| id / per_row == row)
            .map(|(_, p)| [f64::from(p.x), f64::from(p.y)])
            .collect();
        if points.len() < 4 {
            continue;
        }
        worst = worst.max(line_residual(&points));
    }
    worst
}

/// Largest distance of `points` from their total-least-squares line.
fn line_residual(points: &[[f64; 2]]) -> f64 {
    let n = points.len() as f64;
    let mean = [0, 1].map(|k| points.iter().map(|p| p[k]).sum::<f64>() / n);
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for p in points {
        let (x, y) = (p[0] - mean[0], p[1] - mean[1]);
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    // The line's normal is the direction of least spread.
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy) + std::f64::consts::FRAC_PI_2;
    let normal = [angle.cos(), angle.sin()];
    points
        .iter()
        .map(|p| ((p[0] - mean[0]) * normal[0] + (p[1] - mean[1]) * normal[1]).abs())
        .fold(0.0, f64::max)
}

#[test]
fn undistorting_with_the_recovered_lens_straightens_the_boards_rows() {
    let (spec, page) = page();
    let board = spec.board().unwrap();
    let found = board.calibrate(&views(&spec, &page), SIZE).unwrap();
    // A view the calibration did not see: close, the board across the whole image (its rows
    // bow most).
    let photo = photograph(&page, &camera([0.0, 60.0, -215.0], [0.0, 10.0]));
    let undistorted = Undistorter::new(&found).unwrap().undistort(&photo).unwrap();
    let bent = bow_px(&board.find(&photo).unwrap().unwrap(), &spec);
    let straight = bow_px(&board.find(&undistorted).unwrap().unwrap(), &spec);
    println!("rows bow {bent:.2} px in the photo, {straight:.2} px undistorted");
    assert!(bent > 1.5, "the lens should bend the rows: {bent} px");
    assert!(straight < 0.2, "undistorted rows still bow {straight} px");
}

fn meeplecam(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_meeplecam"))
        .args(args)
        .output()
        .expect("run meeplecam")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "meeplecam-intrinsics-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The command line end to end: print the board, photograph the printed PNG, calibrate from
/// the folder, read the YAML back.
#[test]
fn the_command_line_prints_a_board_and_calibrates_from_its_photos() {
    let dir = temp_dir("cli");
    let board_png = dir.join("board.png");
    let out = meeplecam(&[
        "calibrate",
        "charuco-board",
        "--out",
        text(&board_png),
        "--dpi",
        "150",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("squares 35.05 mm"), "{said}");
    let page = imgcodecs::imread(text(&board_png), imgcodecs::IMREAD_GRAYSCALE).unwrap();
    let photos = dir.join("photos");
    std::fs::create_dir_all(&photos).unwrap();
    for (i, cam) in poses().iter().enumerate() {
        let path = photos.join(format!("view{i}.png"));
        imgcodecs::imwrite_def(text(&path), &photograph(&page, cam)).unwrap();
    }
    // A photo without the board is skipped, not fatal.
    let blank =
        Mat::new_rows_cols_with_default(SIZE[1], SIZE[0], opencv::core::CV_8UC3, Scalar::all(90.0))
            .unwrap();
    imgcodecs::imwrite_def(text(&photos.join("zz-blank.png")), &blank).unwrap();
    let yaml = dir.join("camera.yaml");
    let out = meeplecam(&[
        "calibrate",
        "intrinsics",
        text(&photos),
        "--out",
        text(&yaml),
    ]);
    let said = String::from_utf8_lossy(&out.stdout);
    println!("{said}");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let used = format!("{} of {}", poses().len(), poses().len() + 1);
    assert!(said.contains(&used), "{said}");
    assert!(said.contains("RMS"), "{said}");
    let found = Intrinsics::load(&yaml).unwrap();
    assert!(
        (found.focal[0] - FOCAL[0]).abs() / FOCAL[0] < 0.02,
        "{found:?}"
    );
    assert_eq!(found.size, SIZE);

    // Three photos are too few: a clear error, exit status 2.
    let few: Vec<String> = (0..3)
        .map(|i| text(&photos.join(format!("view{i}.png"))).to_string())
        .collect();
    let few_yaml = dir.join("few.yaml");
    let mut args = vec!["calibrate", "intrinsics"];
    args.extend(few.iter().map(String::as_str));
    args.extend(["--out", text(&few_yaml)]);
    let out = meeplecam(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at least 4"), "{err}");
    assert!(!few_yaml.exists());

    // An unreadable image is named.
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"not a png").unwrap();
    let out = meeplecam(&["calibrate", "intrinsics", text(&photos), text(&junk)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("junk.png"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// A corrupt intrinsics file given to `recognize` is an error naming it, not a panic.
#[test]
fn a_corrupt_camera_file_is_named_in_the_error() {
    let dir = temp_dir("corrupt");
    let yaml = dir.join("camera.yaml");
    std::fs::write(
        &yaml,
        "%YAML:1.0\n---\ncamera_matrix: !!opencv-matrix\n   rows: 3\n",
    )
    .unwrap();
    let photo = dir.join("photo.png");
    let img =
        Mat::new_rows_cols_with_default(SIZE[1], SIZE[0], opencv::core::CV_8UC3, Scalar::all(90.0))
            .unwrap();
    imgcodecs::imwrite_def(text(&photo), &img).unwrap();
    let out = meeplecam(&["recognize", text(&photo), "--camera", text(&yaml)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("camera.yaml"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

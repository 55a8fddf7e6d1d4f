//! The camera's own geometry (optional): focal lengths, principal point and lens distortion
//! from `meeplecam calibrate intrinsics`, saved as OpenCV FileStorage YAML under OpenCV's own
//! names, and frames undistorted with it before the vision stages see them.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{bail, Context};
use opencv::core::{
    FileStorage, FileStorage_Mode, Mat, Scalar, Size, ToInputArray, ToOutputArray, UMat, CV_16SC2,
};
use opencv::prelude::*;
use opencv::{calib3d, imgproc};

use super::accel::{download, upload};
use super::calibration::{open_yaml, read_matrix};

/// A camera's intrinsics in OpenCV's pinhole model with `k1 k2 p1 p2 k3` distortion.
#[derive(Clone, Debug, PartialEq)]
pub struct Intrinsics {
    /// Image width and height in pixels the camera was calibrated at.
    pub size: [i32; 2],
    /// Focal lengths `fx`, `fy` in pixels.
    pub focal: [f64; 2],
    /// Principal point `cx`, `cy` in pixels.
    pub principal: [f64; 2],
    /// Distortion `k1 k2 p1 p2 k3`.
    pub distortion: [f64; 5],
    /// RMS reprojection error of the calibration in pixels, when known.
    pub rms_px: Option<f64>,
    /// How many views the calibration used, when known.
    pub views: Option<usize>,
}

impl Intrinsics {
    /// The camera matrix `K`.
    pub fn camera_matrix(&self) -> opencv::Result<Mat> {
        Mat::from_slice_2d(&[
            [self.focal[0], 0.0, self.principal[0]],
            [0.0, self.focal[1], self.principal[1]],
            [0.0, 0.0, 1.0],
        ])
    }

    /// The distortion coefficients as a 5×1 matrix.
    pub fn distortion_coefficients(&self) -> opencv::Result<Mat> {
        Mat::from_slice_2d(&self.distortion.map(|d| [d]))
    }

    /// Writes the intrinsics as OpenCV FileStorage YAML (`camera_matrix`,
    /// `distortion_coefficients`, `image_width`, `image_height`, `avg_reprojection_error`,
    /// `nr_of_frames`: the names of OpenCV's calibration sample).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let name = path.to_str().context("path is not UTF-8")?;
        let mut fs = FileStorage::new(name, FileStorage_Mode::WRITE as i32, "")
            .with_context(|| format!("cannot write {}", path.display()))?;
        if !fs.is_opened()? {
            bail!("cannot write {}", path.display());
        }
        fs.write_i32("image_width", self.size[0])?;
        fs.write_i32("image_height", self.size[1])?;
        fs.write_mat("camera_matrix", &self.camera_matrix()?)?;
        fs.write_mat("distortion_coefficients", &self.distortion_coefficients()?)?;
        if let Some(rms) = self.rms_px {
            fs.write_f64("avg_reprojection_error", rms)?;
        }
        if let Some(views) = self.views {
            fs.write_i32("nr_of_frames", i32::try_from(views).unwrap_or(i32::MAX))?;
        }
        fs.release()?;
        Ok(())
    }

    /// Reads intrinsics written by [`Intrinsics::save`] or by OpenCV's own calibration tools;
    /// a clear error naming the file if it is missing, corrupt or incomplete.
    pub fn load(path: &Path) -> anyhow::Result<Intrinsics> {
        let read = || -> anyhow::Result<Intrinsics> {
            let fs = open_yaml(path)?;
            let k = read_matrix(&fs, "camera_matrix", 3, 3)?;
            let d = distortion(&fs)?;
            let size = [number(&fs, "image_width")?, number(&fs, "image_height")?];
            if size.iter().any(|&s| !(1.0..=100_000.0).contains(&s)) {
                bail!("image size {}×{} is impossible", size[0], size[1]);
            }
            let intrinsics = Intrinsics {
                size: size.map(|s| s as i32),
                focal: [k[0][0], k[1][1]],
                principal: [k[0][2], k[1][2]],
                distortion: d,
                rms_px: optional_number(&fs, "avg_reprojection_error")?,
                views: optional_number(&fs, "nr_of_frames")?.map(|v| v.max(0.0) as usize),
            };
            if intrinsics.focal.iter().any(|&f| f <= 0.0) {
                bail!("camera_matrix has a focal length ≤ 0");
            }
            Ok(intrinsics)
        };
        read().with_context(|| format!("camera intrinsics {}", path.display()))
    }
}

/// A number entry of the file.
fn number(fs: &FileStorage, name: &str) -> anyhow::Result<f64> {
    optional_number(fs, name)?.with_context(|| format!("missing entry {name:?}"))
}

/// A number entry of the file, `None` where there is none.
fn optional_number(fs: &FileStorage, name: &str) -> anyhow::Result<Option<f64>> {
    let node = fs.get(name)?;
    if node.empty()? {
        return Ok(None);
    }
    if !node.is_int()? && !node.is_real()? {
        bail!("entry {name:?} is not a number");
    }
    let v = node.real()?;
    if !v.is_finite() {
        bail!("entry {name:?} holds a non-number");
    }
    Ok(Some(v))
}

/// `distortion_coefficients` as `k1 k2 p1 p2 k3`: 4, 5 or more values in a row or a column
/// (OpenCV writes either); the coefficients beyond `k3` must be zero.
fn distortion(fs: &FileStorage) -> anyhow::Result<[f64; 5]> {
    let name = "distortion_coefficients";
    let node = fs.get(name)?;
    if node.empty()? {
        bail!("missing entry {name:?}");
    }
    let m = node.mat()?;
    let (rows, cols) = (m.rows().max(0) as usize, m.cols().max(0) as usize);
    let values: Vec<f64> = if rows == 1 {
        read_matrix(fs, name, 1, cols)?.concat()
    } else if cols == 1 {
        read_matrix(fs, name, rows, 1)?.concat()
    } else {
        bail!("entry {name:?} is {rows}×{cols}, expected one row or column");
    };
    if values.len() < 4 || values.iter().skip(5).any(|&v| v != 0.0) {
        bail!(
            "entry {name:?} holds {} values; only k1 k2 p1 p2 [k3] are supported",
            values.len()
        );
    }
    let mut d = [0.0; 5];
    for (slot, v) in d.iter_mut().zip(values) {
        *slot = v;
    }
    Ok(d)
}

/// Undistorts frames of one size: the remap tables are made once (`initUndistortRectifyMap`),
/// each frame is one `remap`. The undistorted image keeps the camera matrix, so the centre keeps
/// its scale; where the lens saw nothing (the edges, with a pincushion lens) the nearest pixel
/// it saw is repeated, not black, so that no dark frame looks like an object's outline.
pub struct Undistorter {
    size: [i32; 2],
    map1: Mat,
    map2: Mat,
    /// The tables in the OpenCL device's memory, made the first time a frame is undistorted
    /// there ([`super::accel`]).
    on_device: OnceLock<(UMat, UMat)>,
}

impl Undistorter {
    /// The remap tables for frames of the size the intrinsics were calibrated at.
    pub fn new(intrinsics: &Intrinsics) -> opencv::Result<Undistorter> {
        let k = intrinsics.camera_matrix()?;
        let d = intrinsics.distortion_coefficients()?;
        let (mut map1, mut map2) = (Mat::default(), Mat::default());
        calib3d::init_undistort_rectify_map(
            &k,
            &d,
            &opencv::core::no_array(),
            &k,
            Size::new(intrinsics.size[0], intrinsics.size[1]),
            CV_16SC2,
            &mut map1,
            &mut map2,
        )?;
        Ok(Undistorter {
            size: intrinsics.size,
            map1,
            map2,
            on_device: OnceLock::new(),
        })
    }

    /// The frame as an ideal pinhole camera would see it; an error if it is not of the
    /// calibrated size. Runs on the OpenCL device where OpenCV uses one.
    pub fn undistort(&self, frame: &Mat) -> anyhow::Result<Mat> {
        if [frame.cols(), frame.rows()] != self.size {
            bail!(
                "the camera intrinsics were calibrated at {}×{}, this frame is {}×{}",
                self.size[0],
                self.size[1],
                frame.cols(),
                frame.rows()
            );
        }
        if super::accel::in_use() {
            return Ok(self.undistort_on_device(frame)?);
        }
        let mut out = Mat::default();
        remap(frame, &mut out, &self.map1, &self.map2)?;
        Ok(out)
    }

    /// [`Self::undistort`] through the device's memory (the T-API's `UMat`).
    fn undistort_on_device(&self, frame: &Mat) -> opencv::Result<Mat> {
        let maps = match self.on_device.get() {
            Some(maps) => maps,
            None => {
                let maps = (upload(&self.map1)?, upload(&self.map2)?);
                self.on_device.get_or_init(|| maps)
            }
        };
        let mut out = UMat::new_def();
        remap(&upload(frame)?, &mut out, &maps.0, &maps.1)?;
        download(&out)
    }
}

/// One remap of `src` by the tables, linear, the nearest seen pixel repeated past the edges.
fn remap(
    src: &impl ToInputArray,
    dst: &mut impl ToOutputArray,
    map1: &impl ToInputArray,
    map2: &impl ToInputArray,
) -> opencv::Result<()> {
    imgproc::remap(
        src,
        dst,
        map1,
        map2,
        imgproc::INTER_LINEAR,
        opencv::core::BORDER_REPLICATE,
        Scalar::all(0.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Intrinsics {
        Intrinsics {
            size: [640, 480],
            focal: [510.5, 508.25],
            principal: [322.0, 238.5],
            distortion: [-0.21, 0.07, 0.001, -0.0005, 0.01],
            rms_px: Some(0.31),
            views: Some(9),
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("meeplecam-intr-{}-{name}", std::process::id()))
    }

    #[test]
    fn intrinsics_round_trip_through_yaml_under_opencv_names() {
        let path = temp("round.yaml");
        sample().save(&path).unwrap();
        assert_eq!(Intrinsics::load(&path).unwrap(), sample());
        let text = std::fs::read_to_string(&path).unwrap();
        for name in [
            "camera_matrix: !!opencv-matrix",
            "distortion_coefficients: !!opencv-matrix",
            "image_width: 640",
            "image_height: 480",
            "avg_reprojection_error:",
        ] {
            assert!(text.contains(name), "{name} missing in\n{text}");
        }
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn a_damaged_file_is_an_error_naming_it() {
        let path = temp("bad.yaml");
        let good = {
            sample().save(&path).unwrap();
            std::fs::read_to_string(&path).unwrap()
        };
        let damaged = [
            good.replace("camera_matrix", "camera_matrx"),
            good.replace("rows: 3", "rows: 2"),
            good[..good.len() / 2].to_string(),
            "%YAML:1.0\n---\nimage_width: [\n".to_string(),
            "not yaml at all".to_string(),
        ];
        for text in damaged {
            std::fs::write(&path, &text).unwrap();
            let e = Intrinsics::load(&path).expect_err(&text);
            assert!(format!("{e:#}").contains("bad.yaml"), "{e:#}");
        }
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn undistortion_needs_frames_of_the_calibrated_size() {
        let u = Undistorter::new(&sample()).unwrap();
        let frame =
            Mat::new_rows_cols_with_default(480, 640, opencv::core::CV_8UC3, Scalar::all(50.0))
                .unwrap();
        let out = u.undistort(&frame).unwrap();
        assert_eq!((out.cols(), out.rows()), (640, 480));
        // The centre keeps its value; the wrong size is an error.
        assert_eq!(
            *out.at_2d::<opencv::core::Vec3b>(240, 320).unwrap(),
            [50; 3].into()
        );
        let small =
            Mat::new_rows_cols_with_default(240, 320, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap();
        assert!(u.undistort(&small).is_err());
    }

    #[test]
    fn a_frame_undistorted_through_the_device_s_memory_is_the_frame_undistorted_here() {
        let u = Undistorter::new(&sample()).unwrap();
        let mut frame =
            Mat::new_rows_cols_with_default(480, 640, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap();
        for y in 0..480 {
            for x in 0..640 {
                let v = ((x * 7 + y * 3) % 256) as u8;
                *frame.at_2d_mut::<opencv::core::Vec3b>(y, x).unwrap() = [v, 255 - v, v / 2].into();
            }
        }
        let mut here = Mat::default();
        remap(&frame, &mut here, &u.map1, &u.map2).unwrap();
        let there = u.undistort_on_device(&frame).unwrap();
        // Twice, so that the tables kept on the device are used too; an OpenCL device may
        // round a level differently.
        for out in [there, u.undistort_on_device(&frame).unwrap()] {
            let diff = opencv::core::norm2(
                &here,
                &out,
                opencv::core::NORM_INF,
                &opencv::core::no_array(),
            )
            .unwrap();
            assert!(diff <= 1.0, "{diff}");
        }
    }
}

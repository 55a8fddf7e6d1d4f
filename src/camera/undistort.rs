//! A frame source seen through the camera's measured lens: every frame undistorted before the
//! vision stages see it.

use anyhow::Context;

use super::{CameraFrame, FrameSource};
use crate::vision::intrinsics::Undistorter;

/// Frames of `inner`, undistorted (one `remap` a frame with tables made once).
pub struct Undistorted {
    inner: Box<dyn FrameSource + Send>,
    undistorter: Undistorter,
}

impl Undistorted {
    /// Undistorts the frames of `inner` with `undistorter`.
    pub fn new(inner: Box<dyn FrameSource + Send>, undistorter: Undistorter) -> Undistorted {
        Undistorted { inner, undistorter }
    }
}

impl FrameSource for Undistorted {
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let Some(mut frame) = self.inner.next_frame()? else {
            return Ok(None);
        };
        frame.image = self
            .undistorter
            .undistort(&frame.image)
            .with_context(|| format!("frame {} of {}", frame.index, self.inner.describe()))?;
        Ok(Some(frame))
    }

    fn describe(&self) -> String {
        format!("{}, undistorted", self.inner.describe())
    }

    fn is_live(&self) -> bool {
        self.inner.is_live()
    }
}

#[cfg(test)]
mod tests {
    use opencv::core::{Mat, Scalar, Vec3b, CV_8UC3};
    use opencv::prelude::*;

    use super::*;
    use crate::vision::intrinsics::Intrinsics;

    /// Frames of the given sizes, each a white dot on black off the image's centre.
    struct Dots(Vec<[i32; 2]>);

    impl FrameSource for Dots {
        fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
            if self.0.is_empty() {
                return Ok(None);
            }
            let [w, h] = self.0.remove(0);
            let mut image = Mat::new_rows_cols_with_default(h, w, CV_8UC3, Scalar::all(0.0))?;
            *image.at_2d_mut::<Vec3b>(h / 10, w / 10)? = Vec3b::from([255; 3]);
            Ok(Some(CameraFrame {
                image,
                index: 0,
                time_s: 0.0,
            }))
        }

        fn describe(&self) -> String {
            "dots".to_string()
        }
    }

    #[test]
    fn frames_come_undistorted_and_a_wrong_size_is_an_error() {
        let lens = Intrinsics {
            size: [320, 240],
            focal: [300.0, 300.0],
            principal: [160.0, 120.0],
            distortion: [-0.3, 0.1, 0.0, 0.0, 0.0],
            rms_px: None,
            views: None,
        };
        let inner = Box::new(Dots(vec![[320, 240], [640, 480]]));
        let mut source = Undistorted::new(inner, Undistorter::new(&lens).unwrap());
        assert_eq!(source.describe(), "dots, undistorted");
        let frame = source.next_frame().unwrap().unwrap();
        // Barrel distortion pulled the dot towards the centre; undistorted, it lies further out.
        let mut grey = Mat::default();
        opencv::imgproc::cvt_color_def(&frame.image, &mut grey, opencv::imgproc::COLOR_BGR2GRAY)
            .unwrap();
        let mut brightest = opencv::core::Point::default();
        opencv::core::min_max_loc(
            &grey,
            None,
            None,
            None,
            Some(&mut brightest),
            &opencv::core::no_array(),
        )
        .unwrap();
        let from_centre = |x: i32, y: i32| f64::from(x - 160).hypot(f64::from(y - 120));
        assert!(
            from_centre(brightest.x, brightest.y) > from_centre(32, 24) + 5.0,
            "the dot is at {brightest:?}"
        );
        let Err(e) = source.next_frame() else {
            panic!("a 640×480 frame passed a 320×240 lens");
        };
        assert!(format!("{e:#}").contains("640×480"), "{e:#}");
    }
}

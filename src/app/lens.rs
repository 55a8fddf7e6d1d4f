//! The camera intrinsics file chosen on the setup screen: frames undistorted with it, and a file
//! that cannot be used explained while the game goes on with the frames as they come.

use std::path::Path;

use anyhow::Context;
use opencv::prelude::*;

use crate::camera::{CameraFrame, FrameSource};
use crate::vision::intrinsics::{Intrinsics, Undistorter};

/// Frames of `inner` undistorted with a measured lens; frames of another size than the lens was
/// measured at come as they are (unlike [`crate::camera::undistort::Undistorted`], which stops
/// at them), and the source's description says why.
struct Lens {
    inner: Box<dyn FrameSource + Send>,
    undistorter: Undistorter,
    size: [i32; 2],
    /// Why the last frame was not undistorted.
    unused: Option<String>,
}

impl FrameSource for Lens {
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let Some(mut frame) = self.inner.next_frame()? else {
            return Ok(None);
        };
        let [w, h] = [frame.image.cols(), frame.image.rows()];
        if [w, h] == self.size {
            frame.image = self.undistorter.undistort(&frame.image)?;
            self.unused = None;
        } else {
            self.unused = Some(format!(
                "camera intrinsics not used: they were measured at {}×{}, the camera gives {w}×{h}",
                self.size[0], self.size[1]
            ));
        }
        Ok(Some(frame))
    }

    fn describe(&self) -> String {
        match &self.unused {
            None => format!("{}, undistorted", self.inner.describe()),
            Some(why) => format!("{} ({why})", self.inner.describe()),
        }
    }

    fn is_live(&self) -> bool {
        self.inner.is_live()
    }
}

/// `source` seen through the lens measured in the intrinsics file at `path` (none if empty);
/// a file that cannot be used is explained and the frames come as they are.
pub fn through_lens(
    source: Box<dyn FrameSource + Send>,
    path: &str,
) -> (Box<dyn FrameSource + Send>, Option<String>) {
    if path.is_empty() {
        return (source, None);
    }
    let lens = Intrinsics::load(Path::new(path)).and_then(|lens| {
        let undistorter = Undistorter::new(&lens).context("cannot make the undistortion tables")?;
        Ok((undistorter, lens.size))
    });
    match lens {
        Ok((undistorter, size)) => (
            Box::new(Lens {
                inner: source,
                undistorter,
                size,
                unused: None,
            }),
            None,
        ),
        Err(e) => (
            source,
            Some(format!(
                "Camera intrinsics not used ({e:#}): the pictures are read as they come."
            )),
        ),
    }
}

//! OpenCV's transparent acceleration (T-API): where OpenCV finds an OpenCL device (a GPU), the
//! steps that work on whole frames (undistorting each frame) run on it; elsewhere, and when
//! turned off, they run on the CPU. The steps per cell work on 64-pixel patches, too small to
//! gain from a trip to a device, and stay on the CPU.

use std::sync::atomic::{AtomicBool, Ordering};

use opencv::core::{self, DeviceTraitConst, Mat, UMat, UMatTraitConst};
use opencv::prelude::*;

/// Whether whole-frame steps may use an OpenCL device (they do by default, where one is).
static ALLOWED: AtomicBool = AtomicBool::new(true);

/// Lets whole-frame steps use an OpenCL device where OpenCV finds one, or not.
pub fn allow_opencl(allowed: bool) {
    ALLOWED.store(allowed, Ordering::Relaxed);
}

/// Whether whole-frame steps run on an OpenCL device.
pub fn in_use() -> bool {
    ALLOWED.load(Ordering::Relaxed) && core::use_opencl().unwrap_or(false)
}

/// The name of the OpenCL device whole-frame steps run on, if any.
pub fn device() -> Option<String> {
    if !in_use() {
        return None;
    }
    let name = core::Device::get_default().and_then(|d| d.name()).ok()?;
    (!name.is_empty()).then_some(name)
}

/// Where whole-frame steps run, in words.
pub fn described() -> String {
    match device() {
        Some(name) => format!("OpenCL device {name}"),
        None => "CPU (no OpenCL device in use)".to_string(),
    }
}

/// `image` copied to the device's memory (the CPU's, where no device is in use).
pub fn upload(image: &Mat) -> opencv::Result<UMat> {
    let mut out = UMat::new_def();
    image.copy_to(&mut out)?;
    Ok(out)
}

/// `image` copied back from the device's memory.
pub fn download(image: &UMat) -> opencv::Result<Mat> {
    let mut out = Mat::default();
    image.copy_to(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turned_off_no_device_is_used_and_images_cross_unchanged() {
        allow_opencl(false);
        assert!(!in_use());
        assert_eq!(device(), None);
        assert!(described().starts_with("CPU"));
        allow_opencl(true);
        let image = Mat::from_slice_2d(&[[1u8, 2, 3], [4, 5, 250]]).unwrap();
        let back = download(&upload(&image).unwrap()).unwrap();
        assert_eq!(back.data_bytes().unwrap(), image.data_bytes().unwrap());
        assert_eq!((back.rows(), back.cols()), (2, 3));
    }
}

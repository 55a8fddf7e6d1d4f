//! Whole-frame speed: undistorting a 1080p webcam frame with a measured lens: making the remap
//! tables, one frame with the tables made once (what `--camera` does per frame) on the CPU and,
//! where OpenCV finds an OpenCL device (a GPU), through the device's memory (`vision::accel`),
//! against `cv::undistort`, which makes the tables again for every frame.
//!
//! It uses OpenCV's core, imgproc and calib3d alone, so that it runs on a GPU machine with just
//! those libraries beside it.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::vision::accel;
use meeplecam::vision::intrinsics::{Intrinsics, Undistorter};
use opencv::core::{Mat, Scalar, CV_8UC3, NORM_INF};

/// A 1080p webcam's lens with a moderate barrel distortion.
fn webcam_lens() -> Intrinsics {
    Intrinsics {
        size: [1920, 1080],
        focal: [1400.0, 1400.0],
        principal: [960.0, 540.0],
        distortion: [-0.12, 0.03, 0.0005, -0.0005, 0.0],
        rms_px: None,
        views: None,
    }
}

/// A frame of noise (the remap's cost does not depend on what the picture shows).
fn noisy_frame() -> Mat {
    let mut frame = Mat::new_rows_cols_with_default(1080, 1920, CV_8UC3, Scalar::all(0.0))
        .expect("a 1080p frame");
    opencv::core::randu(&mut frame, &Scalar::all(0.0), &Scalar::all(255.0)).expect("noise");
    frame
}

/// The frame undistorted on the CPU, or on the OpenCL device where `opencl` and there is one.
fn undistorted(frame: &Mat, opencl: bool) -> Mat {
    accel::allow_opencl(opencl);
    let undistorter = Undistorter::new(&webcam_lens()).expect("remap tables");
    undistorter.undistort(frame).expect("undistorted")
}

fn undistort_1080p(c: &mut Criterion) {
    let frame = noisy_frame();
    accel::allow_opencl(true);
    if accel::in_use() {
        let apart = opencv::core::norm2(
            &undistorted(&frame, false),
            &undistorted(&frame, true),
            NORM_INF,
            &opencv::core::no_array(),
        )
        .expect("compared");
        eprintln!(
            "{}: at most {apart} grey levels from the CPU's frame",
            accel::described()
        );
    } else {
        eprintln!("no OpenCL device: the cached remap is timed on the CPU only");
    }
    let lens = webcam_lens();
    let mut group = c.benchmark_group("undistort");
    group.sample_size(50);
    group.bench_function("tables once (initUndistortRectifyMap)", |b| {
        b.iter(|| black_box(Undistorter::new(&lens).expect("remap tables")))
    });
    for opencl in [false, true] {
        accel::allow_opencl(opencl);
        if opencl && !accel::in_use() {
            continue;
        }
        let undistorter = Undistorter::new(&lens).expect("remap tables");
        let place = if opencl { "OpenCL device" } else { "CPU" };
        group.bench_function(format!("1080p frame, cached remap, {place}"), |b| {
            b.iter(|| {
                undistorter
                    .undistort(black_box(&frame))
                    .expect("undistorted")
            })
        });
    }
    accel::allow_opencl(false);
    let (k, d) = (
        lens.camera_matrix().expect("camera matrix"),
        lens.distortion_coefficients().expect("distortion"),
    );
    group.bench_function("1080p frame, cv::undistort, CPU", |b| {
        b.iter(|| {
            let mut out = Mat::default();
            opencv::calib3d::undistort(&frame, &mut out, &k, &d, &k).expect("undistorted");
            black_box(out)
        })
    });
    group.finish();
}

criterion_group!(benches, undistort_1080p);
criterion_main!(benches);

//! Simulated-table speed: one 1080p frame of a mid-game table with an arm, all camera effects;
//! and undistorting such a frame with measured camera intrinsics.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::sim::scene::Sensor;
use meeplecam::vision::intrinsics::{Intrinsics, Undistorter};

mod common;

fn render_1080p(c: &mut Criterion) {
    let (film, mut renderer) = common::film_1080p();
    let shots = film.shots();
    let mid = shots.len() / 2;
    let shot = shots[mid..].iter().find(|s| s.scene.arm.is_some()).unwrap();
    renderer.render(&shot.scene, &shot.sensor, 0).unwrap();
    let mut group = c.benchmark_group("sim");
    group.sample_size(30);
    group.bench_function("1080p frame, mid-game, arm, noise + JPEG", |b| {
        b.iter(|| black_box(renderer.render(&shot.scene, &shot.sensor, 1).unwrap()))
    });
    let raw = Sensor {
        jpeg_quality: None,
        ..shot.sensor
    };
    group.bench_function("1080p frame, mid-game, arm, noise, no JPEG", |b| {
        b.iter(|| black_box(renderer.render(&shot.scene, &raw, 1).unwrap()))
    });
    group.finish();
}

/// Undistorting a 1080p webcam frame: the remap with tables made once (what `--camera` does
/// per frame), against `cv::undistort`, which makes the tables again for every frame.
fn undistort_1080p(c: &mut Criterion) {
    let (film, mut renderer) = common::film_1080p();
    let shot = &film.shots()[film.shots().len() / 2];
    let frame = renderer.render(&shot.scene, &shot.sensor, 0).unwrap().image;
    let intrinsics = Intrinsics {
        size: [1920, 1080],
        focal: [1400.0, 1400.0],
        principal: [960.0, 540.0],
        distortion: [-0.12, 0.03, 0.0005, -0.0005, 0.0],
        rms_px: None,
        views: None,
    };
    let mut group = c.benchmark_group("undistort");
    group.sample_size(50);
    group.bench_function("tables once (initUndistortRectifyMap)", |b| {
        b.iter(|| black_box(Undistorter::new(&intrinsics).unwrap()))
    });
    let undistorter = Undistorter::new(&intrinsics).unwrap();
    group.bench_function("1080p frame, cached remap", |b| {
        b.iter(|| black_box(undistorter.undistort(&frame).unwrap()))
    });
    let (k, d) = (
        intrinsics.camera_matrix().unwrap(),
        intrinsics.distortion_coefficients().unwrap(),
    );
    group.bench_function("1080p frame, cv::undistort", |b| {
        b.iter(|| {
            let mut out = opencv::core::Mat::default();
            opencv::calib3d::undistort(&frame, &mut out, &k, &d, &k).unwrap();
            black_box(out)
        })
    });
    group.finish();
}

criterion_group!(benches, render_1080p, undistort_1080p);
criterion_main!(benches);

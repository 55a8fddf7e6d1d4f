//! Simulated-table speed: one 1080p frame of a mid-game table with an arm, all camera effects
//! (undistorting frames is timed in `frames`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::sim::scene::Sensor;

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

criterion_group!(benches, render_1080p);
criterion_main!(benches);

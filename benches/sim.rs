//! Simulated-table speed: one 1080p frame of a mid-game table with an arm, all camera effects.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::record::selfplay::random_record;
use meeplecam::rules::RuleOptions;
use meeplecam::sim::scene::{Renderer, Sensor};
use meeplecam::sim::style::Style;
use meeplecam::sim::table::Surface;
use meeplecam::sim::timeline::{Film, Filming, View};

fn render_1080p(c: &mut Criterion) {
    let record = random_record("base", 4, RuleOptions::default(), 21).unwrap();
    let filming = Filming {
        view: View::Oblique,
        size: [1920, 1080],
        fps: 10.0,
        seed: 5,
    };
    let film = Film::plan(&record, &filming).unwrap();
    let shots = film.shots();
    let mid = shots.len() / 2;
    let shot = shots[mid..].iter().find(|s| s.scene.arm.is_some()).unwrap();
    let mut renderer = Renderer::new(Style::preset(1), Surface::Wood, 5);
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

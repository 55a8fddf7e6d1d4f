//! Vision speed: the hand/arm (occlusion) mask of a 1080p frame of a mid-game table with an arm
//! reaching in, against the last still picture before it.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::vision::occlusion::Occlusion;

mod common;

fn occlusion_1080p(c: &mut Criterion) {
    let (film, mut renderer) = common::film_1080p();
    let shots = film.shots();
    let mid = shots.len() / 2;
    // The still picture just before an arm reaches in, and a frame with the arm well in view.
    let reach = 1
        + mid
        + shots[mid..]
            .windows(2)
            .position(|w| w[0].scene.arm.is_none() && w[1].scene.arm.is_some())
            .unwrap();
    let arm = reach + 4;
    assert!(shots[arm].scene.arm.is_some());
    let mut render = |i: usize| {
        renderer
            .render(&shots[i].scene, &shots[i].sensor, i as u64)
            .unwrap()
            .image
    };
    let still = render(reach - 1);
    let frame = render(arm);
    let mut group = c.benchmark_group("occlusion");
    group.sample_size(50);
    group.bench_function("background set (1080p)", |b| {
        b.iter(|| black_box(Occlusion::new(&still).unwrap()))
    });
    let occlusion = Occlusion::new(&still).unwrap();
    group.bench_function("1080p frame, mid-game, arm in view", |b| {
        b.iter(|| black_box(occlusion.mask(&frame).unwrap()))
    });
    group.bench_function("1080p frame, no arm", |b| {
        b.iter(|| black_box(occlusion.mask(&still).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, occlusion_1080p);
criterion_main!(benches);

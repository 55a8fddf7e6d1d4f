//! Vision speed: the hand/arm (occlusion) mask of a 1080p frame of a mid-game table with an arm
//! reaching in, against the last still picture before it; and a whole board of the evaluation
//! data set (1080p, 30–70 tiles) read from its start tile, on every core and on one.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use meeplecam::rules::catalogue;
use meeplecam::vision::board::consistent_board;
use meeplecam::vision::calibration::{Calibration, SetupFrame};
use meeplecam::vision::dataset::render_board;
use meeplecam::vision::locate::read_board;
use meeplecam::vision::occlusion::Occlusion;
use meeplecam::vision::tile::TileRecognizer;
use opencv::prelude::*;

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

fn board_1080p(c: &mut Criterion) {
    // The first 1080p board of 50 tiles or more of the data set of seed 8300.
    let sample = (0..)
        .map(|i| render_board(8300, i, None).unwrap())
        .find(|s| s.image.rows() == 1080 && s.truth.tiles.len() >= 50)
        .unwrap();
    let set = catalogue().set("base").unwrap();
    let recognizer = TileRecognizer::for_set(set);
    let SetupFrame::Calibrated(setup) = Calibration::from_setup_frame(&sample.setup).unwrap()
    else {
        panic!("no setup in the setup frame");
    };
    let enrolment = sample.enrolment();
    let read = || {
        let found = read_board(
            &sample.image,
            &setup.start,
            &setup.colours,
            setup.table,
            Some(&enrolment),
            &recognizer,
        )
        .unwrap();
        (consistent_board(&found, set), found.len())
    };
    let found = read().1;
    assert!(
        found * 10 >= sample.truth.tiles.len() * 9,
        "{found} tiles read"
    );
    let mut group = c.benchmark_group("board");
    group.sample_size(20);
    let name = format!(
        "1080p board of {} tiles, read with rules priors",
        sample.truth.tiles.len()
    );
    group.bench_function(&name, |b| b.iter(|| black_box(read())));
    // The same on one core: what reading cuts side by side gains.
    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    group.bench_function(format!("{name}, one core"), |b| {
        b.iter(|| black_box(one_core.install(read)))
    });
    group.finish();
}

criterion_group!(benches, occlusion_1080p, board_1080p);
criterion_main!(benches);

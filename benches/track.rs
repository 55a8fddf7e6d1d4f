//! Tracker and vision speed at 1080p: the motion gate run on every frame while nobody moves, the
//! read of a settled frame with a new tile on it (plus the game view the window then draws), one
//! tile's recognition, and a whole-board read from the start tile outwards.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use opencv::core::Mat;

use meeplecam::app::table::TableView;
use meeplecam::camera::{FrameSource, Simulated};
use meeplecam::record::selfplay::random_record;
use meeplecam::record::TurnEntry;
use meeplecam::rules::{RuleOptions, Setup};
use meeplecam::sim::scene::Renderer;
use meeplecam::sim::style::Style;
use meeplecam::sim::table::Surface;
use meeplecam::sim::timeline::{Film, Filming, View};
use meeplecam::track::{Event, Tracker};
use meeplecam::vision::locate::read_board;
use meeplecam::vision::rectify::{quad_patch, MARGIN_PX};
use meeplecam::vision::tile::TileRecognizer;

/// A game filmed at 1080p, tracked until `turns` turns are committed; returns the tracker, its
/// turns before the frame on which it then commits the next tile, and that frame.
fn mid_game(turns: usize) -> (Tracker, Vec<TurnEntry>, Mat) {
    let record = random_record("base", 3, RuleOptions::default(), 8).unwrap();
    let filming = Filming {
        view: View::Oblique,
        size: [1920, 1080],
        fps: 5.0,
        seed: 3,
    };
    let film = Film::plan(&record, &filming).unwrap();
    let mut source = Simulated::new(film, Renderer::new(Style::preset(0), Surface::Cloth, 3));
    let mut tracker = Tracker::new(record.players.clone(), None).unwrap();
    while let Some(frame) = source.next_frame().unwrap() {
        let committed = tracker.turns();
        let events = tracker.feed(&frame.image).unwrap();
        if committed.len() >= turns && events.iter().any(|e| matches!(e, Event::Tile { .. })) {
            return (tracker, committed, frame.image);
        }
    }
    panic!("the tracker never got {turns} turns in");
}

fn tracking(c: &mut Criterion) {
    let (tracker, turns, frame) = mid_game(12);
    let calibration = tracker.calibration().cloned();
    let players = tracker.players().to_vec();
    let fresh = || {
        let mut t = Tracker::new(players.clone(), calibration.clone()).unwrap();
        t.restore(turns.clone()).unwrap();
        t
    };
    let mut group = c.benchmark_group("track");
    group.sample_size(20);

    let mut idle = fresh();
    for _ in 0..5 {
        idle.feed(&frame).unwrap();
    }
    group.bench_function("1080p idle frame (motion gate)", |b| {
        b.iter(|| black_box(idle.feed(&frame).unwrap()))
    });

    // The frame really holds a tile the tracker commits once the table is still.
    let mut check = fresh();
    let events: Vec<Event> = (0..4).flat_map(|_| check.feed(&frame).unwrap()).collect();
    assert!(
        events.iter().any(|e| matches!(e, Event::Tile { .. })),
        "{events:?}"
    );
    group.bench_function("1080p settled frame with a new tile -> events", |b| {
        b.iter_batched(
            || {
                // Three frames in: the next one is the still picture that is read.
                let mut t = fresh();
                for _ in 0..3 {
                    t.feed(&frame).unwrap();
                }
                t
            },
            |mut t| black_box(t.feed(&frame).unwrap()),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("game view for the window after a commit", |b| {
        b.iter(|| black_box(TableView::of(&check, None)))
    });
    group.finish();

    // Vision alone: one laid tile read in its cell, and the whole board read.
    let cal = calibration.expect("registered");
    let recognizer = TileRecognizer::for_set(&Setup::new("base", 3).unwrap().tileset);
    let last = turns.last().and_then(|t| t.at).expect("a laid tile");
    let quad = check.cell_quad(last).expect("its cell");
    let mut vision = c.benchmark_group("vision");
    vision.sample_size(20);
    vision.bench_function("1080p one tile: cut the cell, rank type x rotation", |b| {
        b.iter(|| {
            let (patch, _) = quad_patch(&frame, &quad, MARGIN_PX).unwrap();
            black_box(
                recognizer
                    .recognize_located(&patch, MARGIN_PX as usize, &cal.colours, None)
                    .unwrap(),
            )
        })
    });
    let read = |f: &Mat| read_board(f, &cal.start, &cal.colours, cal.table, None, &recognizer);
    let found = read(&frame).unwrap();
    assert!(found.len() > turns.len() / 2, "{} tiles read", found.len());
    vision.bench_function("1080p whole board read from the start tile", |b| {
        b.iter(|| black_box(read(&frame).unwrap()))
    });
    vision.finish();
}

criterion_group!(benches, tracking);
criterion_main!(benches);

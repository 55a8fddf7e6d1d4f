//! Rules-engine speed: legal placements on a grown board, and whole random games.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use meeplecam::rules::{catalogue, selfplay, Expansion, Game, Setup};

/// A board of about 70 tiles: a random 4-player game stopped with two tiles left.
fn grown_board() -> Game {
    let mut game = Game::new(&Setup::new("base", 4).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    while game.remaining_total() > 2 {
        selfplay::random_turn(&mut game, &mut rng, 0.5);
    }
    game
}

fn legal_placements(c: &mut Criterion) {
    let game = grown_board();
    let cat = catalogue();
    let tile = cat.tile_id("L").unwrap();
    c.bench_function("legal placements, L on a 70-tile board", |b| {
        b.iter(|| black_box(game.legal_placements(black_box(tile))))
    });
}

fn whole_game(c: &mut Criterion) {
    let setup = Setup::new("base", 4).unwrap();
    let mut seed = 0u64;
    c.bench_function("random 4-player 72-tile game with final scoring", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = Game::new(&setup).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            black_box(selfplay::play_out(&mut game, &mut rng))
        })
    });
}

fn whole_mixed_game(c: &mut Criterion) {
    let expansions = Expansion::ALL.into_iter().collect();
    let setup = Setup::with_expansions("base", expansions, 4).unwrap();
    let mut seed = 0u64;
    c.bench_function(
        "random 4-player game with River I+II, Inns & Cathedrals, Traders & Builders, Hills & Sheep, Wheel of Fortune (181 tiles with the board's 16 cells)",
        |b| {
            b.iter(|| {
                seed += 1;
                let mut game = Game::new(&setup).unwrap();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                black_box(selfplay::play_out(&mut game, &mut rng))
            })
        },
    );
}

criterion_group!(benches, legal_placements, whole_game, whole_mixed_game);
criterion_main!(benches);

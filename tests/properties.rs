//! Invariants over thousands of seeded random games.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use meeplecam::record::selfplay::random_record;
use meeplecam::rules::{
    selfplay, Dir, Game, Placement, PlayerId, Port, Rotation, RuleOptions, Setup, Turn,
};

/// Followers in supply plus followers on the board, per player.
fn followers_accounted(game: &Game) -> Vec<u32> {
    let mut n: Vec<u32> = (0..game.players())
        .map(|p| u32::from(game.supply(PlayerId(p as u8))))
        .collect();
    for m in game.meeples() {
        n[m.player.index()] += 1;
    }
    n
}

/// Checks one turn's worth of invariants before the turn is played.
fn check_listing(game: &Game, rng: &mut ChaCha8Rng) {
    let Some(tile) = selfplay::draw(game, rng) else {
        return;
    };
    let listed = game.legal_placements(tile);
    // Exactly the placements the board accepts: every frontier cell × rotation is tried.
    for &pos in game.board().frontier() {
        for rot in Rotation::ALL {
            let p = Placement { pos, rot };
            let accepted = game.board().check(game.catalogue(), tile, p).is_ok();
            assert_eq!(accepted, listed.contains(&p), "{p:?}");
        }
    }
    // Cells off the frontier are never accepted.
    if let Some(far) = game.board().tiles().first().map(|t| t.placement.pos) {
        let p = Placement {
            pos: far,
            rot: Rotation::R0,
        };
        assert!(game.board().check(game.catalogue(), tile, p).is_err());
    }
    if listed.is_empty() {
        return;
    }
    // Every listed placement and every follower spot of it is accepted, and a follower on any
    // other port is refused — whether the turn is played in one step or in three.
    let p = listed[rng.random_range(0..listed.len())];
    let mut laid = game.clone();
    laid.place(tile, p).expect("listed placement accepted");
    let spots = laid.follower_spots();
    assert_eq!(game.follower_spots_if(tile, p), spots, "preview differs");
    for port in Port::all() {
        let free = spots.iter().any(|s| s.ports.contains(port));
        let mut stepwise = laid.clone();
        assert_eq!(stepwise.deploy(port).is_ok(), free, "{port} on {p:?}");
        let mut whole = game.clone();
        let turn = Turn::Place {
            tile,
            placement: p,
            follower: Some(port),
        };
        let played = whole.play(turn);
        assert_eq!(played.is_ok(), free, "{port} on {p:?}");
        if played.is_err() {
            // A refused turn leaves the game untouched.
            assert_eq!(whole.turn(), game.turn());
            assert_eq!(whole.board().tiles().len(), game.board().tiles().len());
        }
    }
}

fn play_checked(seed: u64, players: usize) {
    let mut game = Game::new(&Setup::new("base", players).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut probe = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let followers = vec![7u32; players];
    let mut last = vec![0u32; players];
    loop {
        check_listing(&game, &mut probe);
        let Some((_, report)) = selfplay::random_turn(&mut game, &mut rng, 0.6) else {
            break;
        };
        assert_eq!(followers_accounted(&game), followers);
        for (before, now) in last.iter().zip(game.scores()) {
            assert!(now >= before, "a score went down");
        }
        last = game.scores().to_vec();
        for e in &report.events {
            assert!(e.points > 0 && !e.players.is_empty());
        }
        // No two tiles on one cell; every tile touches another along a side.
        let tiles = game.board().tiles();
        for t in tiles.iter().skip(1) {
            let pos = t.placement.pos;
            assert!(Dir::ALL
                .iter()
                .any(|&d| game.board().is_occupied(pos.step(d))));
        }
    }
    assert_eq!(game.remaining_total(), 0);
    game.finish().unwrap();
    for (before, now) in last.iter().zip(game.scores()) {
        assert!(now >= before);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn listed_moves_are_legal_and_followers_are_conserved(seed in any::<u64>(), players in 2usize..=8) {
        play_checked(seed, players);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn replaying_a_record_reproduces_its_game(seed in any::<u64>(), players in 2usize..=8) {
        let record = random_record("base", players, RuleOptions::default(), seed).unwrap();
        prop_assert_eq!(record.turns.len(), 71);
        let text = record.to_json();
        let parsed = meeplecam::record::Record::from_json(&text).unwrap();
        prop_assert_eq!(&parsed, &record);
        let a = record.replay().unwrap();
        let b = parsed.replay().unwrap();
        prop_assert_eq!(&a.events, &b.events);
        prop_assert_eq!(a.game.scores(), b.game.scores());
        // The same seed plays the same game, and the record's replay lands on the engine's own
        // result of that game.
        let mut game = Game::new(&Setup::new("base", players).unwrap()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (_, events) = selfplay::play_out(&mut game, &mut rng);
        prop_assert_eq!(game.scores(), a.game.scores());
        prop_assert_eq!(events.len(), a.events.len());
    }
}

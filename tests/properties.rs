//! Invariants over thousands of seeded random games, base game and with The River (I, II),
//! Inns & Cathedrals, Traders & Builders, Hills & Sheep and The Wheel of Fortune mixed in.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use meeplecam::record::selfplay::random_record_with;
use meeplecam::rules::expansions::river_iii::river_iii_data;
use meeplecam::rules::expansions::wheel::wheel_data;
use meeplecam::rules::feature::Feature;
use meeplecam::rules::game::FlockDue;
use meeplecam::rules::{
    selfplay, ClosedFlocks, Deploy, Dir, Expansion, Expansions, FeatureKind, Figure, FlockAction,
    FlockActions, Game, Placement, PlayerId, Port, Rotation, RuleOptions, Sector, Setup, Token,
    Turn,
};

/// The expansions whose bits are set in `mask` (bit k: `Expansion::ALL[k]`).
fn expansions(mask: u8) -> Expansions {
    Expansion::ALL
        .into_iter()
        .enumerate()
        .filter(|(k, _)| mask & 1 << k != 0)
        .map(|(_, e)| e)
        .collect()
}

fn setup(players: usize, mask: u8) -> Setup {
    Setup::with_expansions("base", expansions(mask), players).unwrap()
}

/// Figures in supply plus figures on the board, per player and figure.
fn figures_accounted(game: &Game) -> Vec<[u32; 5]> {
    let mut n: Vec<[u32; 5]> = (0..game.players())
        .map(|p| Figure::ALL.map(|f| u32::from(game.figures(PlayerId(p as u8), f))))
        .collect();
    for m in game.meeples() {
        n[m.player.index()][m.figure.index()] += 1;
    }
    for c in game.crown_followers() {
        n[c.player.index()][c.figure.index()] += 1;
    }
    n
}

/// Tiles laid before the first turn: the Wheel of Fortune's sixteen board cells, or the start
/// tile.
fn start_tiles(game: &Game) -> usize {
    if game.pig().is_some() {
        16
    } else {
        1
    }
}

/// The flock actions a turn owes once `figure` is deployed on `port` of the tile just laid in
/// `laid`: a wolf (always in the bag) for a shepherd placed, then gathering every flock the tile
/// extended.
fn flock_for(laid: &Game, port: Port, figure: Figure) -> FlockActions {
    let mut game = laid.clone();
    let mut actions = Vec::new();
    if game.deploy(port, figure).is_ok() {
        while let Some(due) = game.flock_due() {
            let action = match due {
                FlockDue::Draw => FlockAction::Draw(Token::Wolf),
                FlockDue::Tend { .. } => FlockAction::Gather,
            };
            game.flock(action).unwrap();
            actions.push(action);
        }
    }
    FlockActions::from_slice(&actions).unwrap()
}

/// Checks one turn's worth of invariants before the turn is played.
fn check_listing(game: &Game, rng: &mut ChaCha8Rng) {
    let Some(tile) = selfplay::draw(game, rng) else {
        return;
    };
    let listed = game.legal_placements(tile);
    // Exactly the placements the game accepts: every frontier cell × rotation is tried.
    for &pos in game.board().frontier() {
        for rot in Rotation::ALL {
            let p = Placement { pos, rot };
            let accepted = game.check_placement(tile, p).is_ok();
            assert_eq!(accepted, listed.contains(&p), "{p:?}");
        }
    }
    // Cells off the frontier are never accepted.
    if let Some(far) = game.board().tiles().first().map(|t| t.placement.pos) {
        let p = Placement {
            pos: far,
            rot: Rotation::R0,
        };
        assert!(game.check_placement(tile, p).is_err());
    }
    if listed.is_empty() {
        return;
    }
    // Every listed placement and every follower spot of it is accepted, with every figure in
    // supply, and a follower on any other port is refused — whether the turn is played in one
    // step or in three.
    let p = listed[rng.random_range(0..listed.len())];
    let mut laid = game.clone();
    laid.place(tile, p).expect("listed placement accepted");
    let spots = laid.follower_spots();
    assert_eq!(game.follower_spots_if(tile, p), spots, "preview differs");
    let seat = game.current_player();
    for port in Port::all() {
        for figure in Figure::ALL {
            let ok = spots
                .iter()
                .any(|s| s.ports.contains(port) && s.figures.contains(figure));
            assert!(!ok || game.figures(seat, figure) > 0);
            let mut stepwise = laid.clone();
            assert_eq!(stepwise.deploy(port, figure).is_ok(), ok, "{port} on {p:?}");
            let mut whole = game.clone();
            let turn = Turn::Place {
                tile,
                placement: p,
                follower: Some(Deploy { port, figure }),
                flock: flock_for(&laid, port, figure),
            };
            let played = whole.play(turn);
            assert_eq!(played.is_ok(), ok, "{port} {figure} on {p:?}");
            if played.is_err() {
                // A refused turn leaves the game untouched.
                assert_eq!(whole.turn(), game.turn());
                assert_eq!(whole.board().tiles().len(), game.board().tiles().len());
            }
        }
    }
}

/// The river's shape: land tiles only after the last river tile, and every river tile but the
/// spring continues exactly one river tile laid before it; with the Wheel of Fortune the spring
/// is the first tile drawn and its river flows away from the board.
fn check_river(game: &Game) {
    let cat = game.catalogue();
    let tiles = game.board().tiles();
    let is_river = |t: &meeplecam::rules::board::PlacedTile| cat.tile(t.tile).river.is_some();
    let wheel = game.pig().is_some();
    let drawn = if wheel { 16 } else { 1 };
    let first = if wheel { drawn } else { 0 };
    if let Some(first_land) = tiles[first..].iter().position(|t| !is_river(t)) {
        assert!(tiles[first + first_land..].iter().all(|t| !is_river(t)));
    }
    if wheel && tiles.get(16).is_some_and(is_river) {
        let spring = &tiles[16];
        for d in cat.tile(spring.tile).river_sides(spring.placement.rot) {
            let beyond = spring.placement.pos.step(d);
            assert!(tiles[..16].iter().all(|t| t.placement.pos != beyond));
        }
    }
    for (i, t) in tiles
        .iter()
        .enumerate()
        .skip(drawn + usize::from(wheel))
        .filter(|(_, t)| is_river(t))
    {
        let earlier = cat
            .tile(t.tile)
            .river_sides(t.placement.rot)
            .filter(|&d| {
                tiles[..i]
                    .iter()
                    .any(|u| u.placement.pos == t.placement.pos.step(d))
            })
            .count();
        assert_eq!(earlier, 1, "river tile {i} at {}", t.placement.pos);
    }
}

/// Builders and pigs stand only beside a follower of their owner's on the same feature;
/// shepherds stand in fields, each with sheep, and the bag plus the flocks on the board hold
/// every sheep token (Hills & Sheep).
fn check_special_figures(game: &Game) {
    let mut sheep = game.sheep_bag();
    let mut seen: Vec<&Feature> = Vec::new();
    for m in game.meeples().iter().filter(|m| !m.figure.is_follower()) {
        let port = m.ports.iter().next().unwrap();
        let f = game.feature_at(m.pos, port).unwrap();
        if m.figure == Figure::Shepherd {
            assert_eq!(f.kind, FeatureKind::Field, "{m:?}");
            assert!(!f.flock.is_empty(), "{m:?} without sheep");
            // Shepherds in one field share its flock: count each field once.
            if !seen.iter().any(|g| std::ptr::eq(*g, f)) {
                seen.push(f);
            }
            continue;
        }
        assert!(f.has_follower_of(m.player), "{m:?} alone");
        let kinds: &[FeatureKind] = match m.figure {
            Figure::Builder => &[FeatureKind::Road, FeatureKind::City],
            _ => &[FeatureKind::Field],
        };
        assert!(kinds.contains(&f.kind), "{m:?}");
    }
    for f in seen {
        for &n in &f.flock {
            sheep[Token::Sheep(n).index()] += 1;
        }
    }
    assert_eq!(sheep, meeplecam::rules::expansions::sheep::BAG);
}

/// Crown spaces hold followers only, at most as many as the sector has spaces; a follower goes
/// on a crown only on a turn with no figure on the tile; the pig's sector is emptied when it
/// stops there.
fn check_crowns(game: &Game, turn: &Turn, report: &meeplecam::rules::TurnReport) {
    let data = wheel_data();
    let crowns = game.crown_followers();
    assert!(crowns.iter().all(|c| c.figure.is_follower()));
    for sector in Sector::ALL {
        let on = crowns.iter().filter(|c| c.sector == sector).count();
        let spaces = usize::from(data.crowns(sector));
        assert!(on <= spaces, "{sector}");
        let vacant = game.pig().is_some() && on < spaces;
        assert_eq!(game.vacant_crowns().contains(&sector), vacant, "{sector}");
    }
    if let Turn::Place {
        follower: Some(_), ..
    } = turn
    {
        assert!(report.crown.is_none());
    }
    if let Some((sector, _)) = report.crown {
        assert!(crowns.iter().any(|c| c.sector == sector));
    }
    if report.spin.is_some() && report.crown.is_none() {
        let pig = game.pig().unwrap();
        assert!(crowns.iter().all(|c| c.sector != pig));
    }
}

fn play_checked(seed: u64, players: usize, mask: u8) {
    let mut game = Game::new(&setup(players, mask)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut probe = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let figures = figures_accounted(&game);
    let mut last = vec![0u32; players];
    let mut discarded = 0;
    loop {
        check_listing(&game, &mut probe);
        let (seat, was_extra) = (game.current_player(), game.is_extra_turn());
        let Some((turn, report)) = selfplay::random_turn(&mut game, &mut rng, 0.6) else {
            break;
        };
        // A builder earns one extra tile, never a third in a row; otherwise the turn passes
        // after a laid tile (a discarded one is drawn again).
        assert!(!(was_extra && report.extra_turn), "a third tile");
        let passes = matches!(turn, Turn::Place { .. }) && !report.extra_turn;
        discarded += usize::from(matches!(turn, Turn::Discard { .. }));
        let next = PlayerId(((seat.index() + 1) % players) as u8);
        assert_eq!(game.current_player(), if passes { next } else { seat });
        assert_eq!(
            game.is_extra_turn(),
            report.extra_turn || !passes && was_extra
        );
        check_special_figures(&game);
        check_crowns(&game, &turn, &report);
        assert_eq!(figures_accounted(&game), figures);
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
    check_river(&game);
    assert_eq!(game.remaining_total(), 0);
    // Every tile of the box was laid, discarded or slid under a hill tile (Hills & Sheep); a
    // hill tile laid while the bag held tiles has one under it.
    let cat = game.catalogue();
    let mut under = 0;
    for t in game.board().tiles().iter().skip(1) {
        let below = game.tile_under(t.placement.pos);
        assert!(below.is_none() || cat.tile(t.tile).hill);
        under += usize::from(below.is_some_and(|u| u.is_some()));
    }
    let total = setup(players, mask).tileset.total();
    assert_eq!(game.board().tiles().len() + discarded + under, total);
    game.finish().unwrap();
    for (before, now) in last.iter().zip(game.scores()) {
        assert!(now >= before);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn listed_moves_are_legal_and_followers_are_conserved(seed in any::<u64>(), players in 2usize..=8) {
        play_checked(seed, players, 0);
    }

    #[test]
    fn with_expansions_listed_moves_are_legal_and_figures_are_conserved(
        seed in any::<u64>(),
        players in 2usize..=8,
        mask in 1u8..64,
    ) {
        play_checked(seed, players, mask);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn replaying_a_record_reproduces_its_game(
        seed in any::<u64>(),
        players in 2usize..=8,
        mask in 0u8..64,
    ) {
        let setup = setup(players, mask);
        let record =
            random_record_with("base", setup.expansions, players, RuleOptions::default(), seed)
                .unwrap();
        let laid_or_discarded = setup.tileset.total() - start_tiles(&Game::new(&setup).unwrap());
        let under = record.turns.iter().filter(|t| t.tile.contains(" over ")).count();
        prop_assert_eq!(record.turns.len() + under, laid_or_discarded);
        let text = record.to_json();
        let parsed = meeplecam::record::Record::from_json(&text).unwrap();
        prop_assert_eq!(&parsed, &record);
        let a = record.replay().unwrap();
        let b = parsed.replay().unwrap();
        prop_assert_eq!(&a.events, &b.events);
        prop_assert_eq!(a.game.scores(), b.game.scores());
        // The same seed plays the same game, and the record's replay lands on the engine's own
        // result of that game.
        let mut game = Game::new(&setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (_, events) = selfplay::play_out(&mut game, &mut rng);
        prop_assert_eq!(game.scores(), a.game.scores());
        prop_assert_eq!(&events, &a.events);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Hills & Sheep under JCloisterZone's rules (two shepherds each, a closed field's flock
    /// gathered at once) mixed with every other expansion: figures and sheep tokens are
    /// conserved turn by turn, and the game's record replays to the same events.
    #[test]
    fn shepherds_under_jcloisterzone_rules_conserve_figures_and_replay(
        seed in any::<u64>(),
        players in 2usize..=6,
        mask in 0u8..64,
    ) {
        let options = RuleOptions {
            shepherds: Some(2),
            closed_flocks: ClosedFlocks::Gather,
            ..RuleOptions::default()
        };
        let hs = Expansion::ALL.iter().position(|&e| e == Expansion::HillsAndSheep).unwrap();
        let mut setup = setup(players, mask | 1 << hs);
        setup.options = options;
        let mut game = Game::new(&setup).unwrap();
        let figures = figures_accounted(&game);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut events = Vec::new();
        let chance = selfplay::DEPLOY_CHANCE;
        while let Some((_, report)) = selfplay::random_turn(&mut game, &mut rng, chance) {
            check_special_figures(&game);
            prop_assert_eq!(figures_accounted(&game), figures.clone());
            events.extend(report.events);
        }
        events.extend(game.finish().unwrap());
        let record =
            random_record_with("base", setup.expansions, players, options, seed).unwrap();
        let replay = record.replay().unwrap();
        prop_assert_eq!(&replay.events, &events);
        prop_assert_eq!(replay.game.scores(), game.scores());
    }
}

/// Each sheep printed on the River III tiles laid lies in one field, counted once however the
/// fields merged, and stays whatever became of the flocks.
fn check_printed_sheep(game: &Game) {
    let data = river_iii_data();
    let mut laid = 0;
    let mut fields: Vec<&Feature> = Vec::new();
    for placed in game.board().tiles() {
        for &(_, port) in data.sheep.iter().filter(|&&(t, _)| t == placed.tile) {
            laid += 1;
            let f = game
                .feature_at(placed.placement.pos, port.rotated(placed.placement.rot))
                .unwrap();
            assert_eq!(f.kind, FeatureKind::Field);
            if !fields.iter().any(|g| std::ptr::eq(*g, f)) {
                fields.push(f);
            }
        }
    }
    assert_eq!(fields.iter().map(|f| f.printed_sheep).sum::<u32>(), laid);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// River III's print with Hills & Sheep, mixed with every other expansion: printed sheep stay
    /// where they are printed, figures and sheep tokens are conserved, and the game's record
    /// replays to the same events.
    #[test]
    fn river_iii_printed_sheep_stay_and_games_replay(
        seed in any::<u64>(),
        players in 2usize..=6,
        mask in 0u8..64,
    ) {
        let options = RuleOptions { river_iii: true, ..RuleOptions::default() };
        let bit = |e| 1 << Expansion::ALL.iter().position(|&x| x == e).unwrap();
        let mut setup = setup(players, mask | bit(Expansion::River) | bit(Expansion::HillsAndSheep));
        setup.options = options;
        let mut game = Game::new(&setup).unwrap();
        let figures = figures_accounted(&game);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut events = Vec::new();
        let chance = selfplay::DEPLOY_CHANCE;
        while let Some((_, report)) = selfplay::random_turn(&mut game, &mut rng, chance) {
            check_special_figures(&game);
            check_printed_sheep(&game);
            prop_assert_eq!(figures_accounted(&game), figures.clone());
            events.extend(report.events);
        }
        events.extend(game.finish().unwrap());
        let record =
            random_record_with("base", setup.expansions, players, options, seed).unwrap();
        let replay = record.replay().unwrap();
        prop_assert_eq!(&replay.events, &events);
        prop_assert_eq!(replay.game.scores(), game.scores());
    }
}

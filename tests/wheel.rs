//! The Wheel of Fortune with the other Big Box expansions: the interactions the seeds state
//! (builder and pig going home with their owner's last follower, builder, pig and large
//! follower in Storm and Taxes, the pig in Famine), the board as the start, and the record's
//! wheel inputs. The board's rim and the wheel's crowns are the defaults of
//! `src/rules/data/wheel.*`.

use serde_json::{json, Value};

use meeplecam::record::Record;
use meeplecam::rules::{
    catalogue, Expansion, Expansions, Figure, Game, Placement, PlayerId, Pos, Rotation, Sector,
    Setup,
};

const RED: PlayerId = PlayerId(0);

/// Replays Red's and Blue's `turns` (left open: no final scoring) with the Wheel and `others`.
fn play(others: &[&str], turns: Value) -> Game {
    let mut expansions = vec!["wheel_of_fortune"];
    expansions.extend_from_slice(others);
    let record = json!({
        "meeplecam": 1,
        "tileset": "bigbox",
        "expansions": expansions,
        "players": [{"name": "Red", "colour": "red"}, {"name": "Blue", "colour": "blue"}],
        "turns": turns,
    });
    Record::from_json(&record.to_string())
        .unwrap()
        .replay_open()
        .unwrap_or_else(|e| panic!("{e}"))
        .game
}

/// Red's knight on a city (with 2 pennants once the second `F` is laid), then Red's builder
/// beside it on the second `F`; Blue lays a road tile between.
fn knight_and_builder() -> Vec<Value> {
    vec![
        json!({"tile": "F", "at": [2, -1], "rot": 90, "follower": {"port": "N"}}),
        json!({"tile": "U", "at": [4, 1], "rot": 0}),
        json!({"tile": "F", "at": [2, -2], "rot": 90, "follower": {"port": "N", "figure": "builder"}}),
    ]
}

#[test]
fn pestilence_sends_the_builder_home_with_its_owners_last_knight() {
    // Seed 000: a builder goes home when its owner's last follower leaves the feature (lines
    // 646-647); Pestilence returns one follower from a land tile (lines 1036-1040).
    let mut turns = knight_and_builder();
    turns.push(json!({"tile": "V", "at": [-1, 2], "rot": 180, "wheel": {"icon": 2}}));
    turns.push(
        json!({"tile": "U", "at": [2, 4], "rot": 90, "wheel": {"icon": 3,
        "pestilence": [{"at": [2, -1], "port": "N"}, null]}}),
    );
    let game = play(&["traders_and_builders"], json!(turns));
    assert_eq!(game.pig(), Some(Sector::Pestilence));
    assert!(game.meeples().is_empty());
    assert_eq!(game.figures(RED, Figure::Normal), 7);
    assert_eq!(game.figures(RED, Figure::Builder), 1);
    assert_eq!(game.scores(), &[0, 0]);
}

#[test]
fn pestilence_sends_the_pig_home_with_its_owners_last_farmer() {
    // Seed 000, lines 746-748: the pig leaves with its owner's last farmer.
    let turns = json!([
        {"tile": "B", "at": [0, -1], "rot": 0, "follower": {"port": "SL"}},
        {"tile": "U", "at": [4, 1], "rot": 0},
        {"tile": "B", "at": [4, 0], "rot": 0, "follower": {"port": "WL", "figure": "pig"}},
        {"tile": "V", "at": [-1, 2], "rot": 180, "wheel": {"icon": 2}},
        {"tile": "U", "at": [2, 4], "rot": 90, "wheel": {"icon": 3,
            "pestilence": [{"player": "Red", "at": [0, -1], "port": "SL"}, null]}},
    ]);
    let game = play(&["traders_and_builders"], turns);
    assert!(game.meeples().is_empty());
    assert_eq!(game.figures(RED, Figure::Pig), 1);
}

#[test]
fn taxes_count_knights_not_builders() {
    // Seed 000, lines 1016-1020: 1 per pennant plus 1 per own knight, for each knight; a
    // builder is no follower (lines 1138-1140), so no knight: Red's one knight, 2 pennants: 3.
    let mut turns = knight_and_builder();
    turns.push(json!({"tile": "U", "at": [2, 4], "rot": 90, "wheel": {"icon": 1}}));
    let game = play(&["traders_and_builders"], json!(turns));
    assert_eq!(game.pig(), Some(Sector::Taxes));
    assert_eq!(game.scores(), &[3, 0]);
}

#[test]
fn storm_counts_followers_in_supply_not_builders_or_pigs() {
    // Seed 000, lines 1028-1030: 1 per follower in supply. The large follower is a follower
    // (lines 599-602); builder and pig are not (lines 1138-1140). Red: 7 normal in supply, the
    // large on the board; Blue: 7 normal and the large.
    let turns = json!([
        {"tile": "F", "at": [2, -1], "rot": 90, "follower": {"port": "N", "figure": "large"}},
        {"tile": "U", "at": [4, 1], "rot": 0},
        {"tile": "F", "at": [2, -2], "rot": 90, "follower": {"port": "N", "figure": "builder"}},
        {"tile": "U", "at": [2, 4], "rot": 90, "wheel": {"icon": 3}},
    ]);
    let game = play(&["inns_and_cathedrals", "traders_and_builders"], turns);
    assert_eq!(game.pig(), Some(Sector::Storm));
    assert_eq!(game.scores(), &[7, 8]);
}

#[test]
fn famine_adds_the_pigs_point_per_city() {
    // Seed 004, footnote 7: the pig's bonus is given in Famine too; we give its usual +1 per
    // completed city (seed 000, lines 734-738) to its owner with a farmer there. Red: 1 farmer
    // and the pig in the board's farm beside 1 completed city: 1 + 1.
    let turns = json!([
        {"tile": "E", "at": [2, -1], "rot": 180},
        {"tile": "U", "at": [4, 1], "rot": 0},
        {"tile": "B", "at": [0, -1], "rot": 0, "follower": {"port": "SL"}},
        {"tile": "U", "at": [2, 4], "rot": 90},
        {"tile": "B", "at": [4, 0], "rot": 0, "follower": {"port": "WL", "figure": "pig"}},
        {"tile": "V", "at": [-1, 2], "rot": 180, "wheel": {"icon": 2}},
    ]);
    let game = play(&["traders_and_builders"], turns);
    assert_eq!(game.pig(), Some(Sector::Famine));
    assert_eq!(game.scores(), &[2, 0]);
}

#[test]
fn the_board_is_the_start_and_turns_as_a_whole() {
    // Seed 000, lines 995-997: the board serves as a larger start tile, in the middle.
    let cat = catalogue();
    let only = Expansions::NONE.with(Expansion::WheelOfFortune);
    let mut setup = Setup::with_expansions("bigbox", only, 2).unwrap();
    setup.start = Placement {
        pos: Pos::new(-2, -2),
        rot: Rotation::R180,
    };
    let game = Game::new(&setup).unwrap();
    let cells: Vec<Pos> = game
        .board()
        .tiles()
        .iter()
        .map(|t| t.placement.pos)
        .collect();
    assert_eq!(cells.len(), 16);
    assert!(cells
        .iter()
        .all(|p| (-2..2).contains(&p.x) && (-2..2).contains(&p.y)));
    // Turned 180°, the north-west cell lies in the south-east corner.
    assert_eq!(game.board().tiles()[0].placement.pos, Pos::new(1, 1));
    assert_eq!(game.pig(), Some(Sector::Fortune));
    assert_eq!(game.vacant_crowns().len(), 6);
    // A tile next to the board must match its rim: the road stub of the default rim now
    // points south from cell (0, 1), so a city cap may not face it.
    let e = cat.tile_id("E").unwrap();
    let below = Placement {
        pos: Pos::new(0, 2),
        rot: Rotation::R0,
    };
    assert!(game.check_placement(e, below).is_err());
    let u = cat.tile_id("U").unwrap();
    let road = Placement {
        pos: Pos::new(0, 2),
        rot: Rotation::R90,
    };
    assert!(game.check_placement(u, road).is_ok());
}

#[test]
fn the_wheel_turns_once_per_draw_and_binds_the_tile() {
    // Seed 000, lines 955-965: the drawn tile's icon turns the wheel, then that tile is laid.
    let only = Expansions::NONE.with(Expansion::WheelOfFortune);
    let mut game = Game::new(&Setup::with_expansions("bigbox", only, 2).unwrap()).unwrap();
    let cat = catalogue();
    let (u, v) = (cat.tile_id("U").unwrap(), cat.tile_id("V").unwrap());
    let spin = meeplecam::rules::Spin {
        icon: 1,
        pestilence: Vec::new(),
    };
    let report = game.spin(u, &spin).unwrap();
    assert!(report.events.is_empty());
    assert_eq!(game.pig(), Some(Sector::Taxes));
    assert_eq!(game.icons_left(u), [1, 3, 2]);
    assert!(game.spin(u, &spin).is_err());
    let at = Placement {
        pos: Pos::new(4, 1),
        rot: Rotation::R0,
    };
    assert!(game.place(v, at).is_err());
    game.place(u, at).unwrap();
    assert!(game.deploy_crown(Sector::Storm, Figure::Builder).is_err());
    game.deploy_crown(Sector::Storm, Figure::Normal).unwrap();
    assert!(game.deploy_crown(Sector::Storm, Figure::Normal).is_err());
    game.end_turn().unwrap();
    assert_eq!(game.crown_followers().len(), 1);
    assert_eq!(game.supply(RED), 6);
    // A crown follower is worth nothing at the end (seed 000, line 1055).
    assert!(game.finish().unwrap().is_empty());
    assert_eq!(game.scores(), &[0, 0]);
}

#[test]
fn a_large_follower_is_one_knight_in_taxes_and_may_take_a_crown() {
    // Seed 004, footnote 5: any follower in a city is a knight. The large follower is one
    // follower that counts as two only in majorities (seed 000, lines 599-602), so Red's large
    // knight in a city with 2 pennants scores 1 x (1 + 2) = 3. Nothing bars it from a crown.
    let turns = json!([
        {"tile": "F", "at": [2, -1], "rot": 90, "follower": {"port": "N", "figure": "large"}},
        {"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"crown": {"sector": "storm", "figure": "large"}}},
        {"tile": "F", "at": [2, -2], "rot": 90},
        {"tile": "U", "at": [2, 4], "rot": 90, "wheel": {"icon": 1}},
    ]);
    let game = play(&["inns_and_cathedrals"], turns);
    assert_eq!(game.scores(), &[3, 0]);
    let crowns = game.crown_followers();
    assert_eq!(crowns.len(), 1);
    assert_eq!(
        (crowns[0].sector, crowns[0].figure),
        (Sector::Storm, Figure::Large)
    );
}

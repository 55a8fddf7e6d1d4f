//! What the LEDs show for known game states: every lit pixel derived by hand from the layout
//! rules (README "LED display") and the palette.
#![cfg(feature = "led")]

use meeplecam::led::{self, Layout, Rgb, Scene, Seat, Terrain};
use meeplecam::record::Record;
use meeplecam::rules::{catalogue, Colour, Pos};

// The palette: player colours at full brightness, terrain of the tile laid last bright and of
// other tiles at a quarter.
const RED: Rgb = Rgb::new(255, 0, 0);
const BLUE: Rgb = Rgb::new(0, 0, 255);
const GREEN: Rgb = Rgb::new(0, 255, 0);
const QUARTER_RED: Rgb = Rgb::new(63, 0, 0);
const QUARTER_BLUE: Rgb = Rgb::new(0, 0, 63);
const QUARTER_GREEN: Rgb = Rgb::new(0, 63, 0);
const FIELD_BRIGHT: Rgb = Rgb::new(0, 192, 0);
const ROAD_DIM: Rgb = Rgb::new(40, 40, 40);

fn layout(text: &str) -> Layout {
    Layout::parse(text).unwrap()
}

/// A frame of `n` LEDs, black but for `lit`.
fn frame(n: usize, lit: &[(usize, Rgb)]) -> Vec<Rgb> {
    let mut f = vec![Rgb::BLACK; n];
    for &(i, c) in lit {
        f[i] = c;
    }
    f
}

/// Start tile D at (0, 0); Ann lays the city cap E above it, turned to close the city (4 points
/// for her knight). Bob is to play and holds another E.
fn two_tile_scene() -> Scene {
    let record = Record::from_json(
        r#"{"meeplecam":1,
            "players":[{"name":"Ann","colour":"red"},{"name":"Bob","colour":"blue"}],
            "turns":[{"tile":"E","at":[0,-1],"rot":180,"follower":{"port":"S"}}]}"#,
    )
    .unwrap();
    let replay = record.replay_open().unwrap();
    let e = catalogue().tile_id("E").unwrap();
    Scene::new(&replay.game, &replay.colours, Some(e))
}

#[test]
fn the_two_tile_scene_is_what_the_rules_say() {
    let scene = two_tile_scene();
    // D (city N, road W–E) mostly road; E (one city edge, three field edges) mostly field.
    assert_eq!(
        scene.tiles,
        [
            (Pos::new(0, 0), Terrain::Road),
            (Pos::new(0, -1), Terrain::Field)
        ]
    );
    assert_eq!(scene.last(), Some(Pos::new(0, -1)));
    // A city cap cannot touch D's road ends at (±1, 0); it fits everywhere else around.
    assert_eq!(
        scene.legal,
        [
            Pos::new(-1, -1),
            Pos::new(0, -2),
            Pos::new(0, 1),
            Pos::new(1, -1)
        ]
    );
    assert_eq!(scene.current, 1);
    assert_eq!(
        scene.seats,
        [
            Seat {
                colour: Colour::Red,
                score: 4
            },
            Seat {
                colour: Colour::Blue,
                score: 0
            }
        ]
    );
}

#[test]
fn matrix_shows_tiles_legal_cells_and_score_bars() {
    // 5 wide, 6 high, LED 0 top left, rows left to right. Two score rows at the bottom leave a
    // 5×4 board area. Tiles and frontier span x −1..1 (3 cells, centred: x0 = −2) and y −2..1
    // (4 cells: y0 = −2), so cell (x, y) is pixel (x + 2, y + 2), LED 5 (y + 2) + x + 2.
    let l = layout("brightness = 255\n[matrix]\nwidth = 5\nheight = 6\nwiring = \"progressive\"\n");
    let scene = two_tile_scene();
    let on = frame(
        30,
        &[
            (12, ROAD_DIM),    // D at (0, 0): pixel (2, 2)
            (7, FIELD_BRIGHT), // E at (0, −1), laid last: pixel (2, 1)
            (6, BLUE),         // legal (−1, −1): pixel (1, 1), Bob's colour
            (2, BLUE),         // legal (0, −2): pixel (2, 0)
            (17, BLUE),        // legal (0, 1): pixel (2, 3)
            (8, BLUE),         // legal (1, −1): pixel (3, 1)
            (20, RED),         // Ann's bar, row 4: 4 of 50 points → 1 + 4·4/50 = 1 LED
            (25, BLUE),        // Bob's bar, row 5: 0 points → 1 LED
        ],
    );
    assert_eq!(led::render(&scene, &l, 0), on);
    // Odd ticks: the legal cells are dark.
    let mut off = on.clone();
    for i in [6, 2, 17, 8] {
        off[i] = Rgb::BLACK;
    }
    assert_eq!(led::render(&scene, &l, 1), off);
}

#[test]
fn matrix_on_a_turned_capped_serpentine_panel() {
    // The same 5×6 picture on a 6-wide, 5-high panel turned a quarter clockwise, LED 0 in the
    // panel's bottom-right corner, rows zig-zagging. The panel's bottom row (LEDs 0–5, running
    // right to left) becomes the picture's left column read bottom to top, i.e. pixel (0, y) is
    // LED 5 − y; pixel column x is wired row x, which runs the same way on even rows
    // (LED 6x + 5 − y) and back on odd rows (LED 6x + y). Brightness 128 scales every channel
    // by 128/255, rounded down.
    let l = layout(
        "brightness = 128\n[matrix]\nwidth = 6\nheight = 5\nwiring = \"serpentine\"\n\
         origin = \"bottom-right\"\nrotation = 90\n",
    );
    let blue = Rgb::new(0, 0, 128);
    let want = frame(
        30,
        &[
            (15, Rgb::new(20, 20, 20)), // pixel (2, 2): 40 → 20
            (16, Rgb::new(0, 96, 0)),   // pixel (2, 1): 192 → 96
            (7, blue),                  // pixel (1, 1), odd row
            (17, blue),                 // pixel (2, 0)
            (14, blue),                 // pixel (2, 3)
            (19, blue),                 // pixel (3, 1), odd row
            (1, Rgb::new(128, 0, 0)),   // pixel (0, 4)
            (0, blue),                  // pixel (0, 5)
        ],
    );
    assert_eq!(led::render(&two_tile_scene(), &l, 0), want);
}

#[test]
fn score_bars_scale_to_the_leader_in_steps_of_50() {
    // Bars up the left edge: three columns, growing from the bottom of the 4-high view. The
    // leader has 75, so the scale is 100: 1 + 30·3/100 = 1, 1 + 75·3/100 = 3, 1 + 0 = 1 LEDs.
    // The lone start tile sits centred in the 3×4 area right of the bars: x0 = −1, y0 = −1,
    // pixel (3 + 1, 1).
    let l = layout(
        "brightness = 255\n[matrix]\nwidth = 6\nheight = 4\nwiring = \"progressive\"\n\
         scores = \"left\"\n",
    );
    let scene = Scene {
        tiles: vec![(Pos::new(0, 0), Terrain::Road)],
        frontier: vec![],
        legal: vec![],
        seats: vec![
            Seat {
                colour: Colour::Red,
                score: 30,
            },
            Seat {
                colour: Colour::Blue,
                score: 75,
            },
            Seat {
                colour: Colour::Green,
                score: 0,
            },
        ],
        current: 0,
    };
    let want = frame(
        24,
        &[
            (18, RED),          // (0, 3)
            (19, QUARTER_BLUE), // (1, 3)
            (13, QUARTER_BLUE), // (1, 2)
            (7, BLUE),          // (1, 1): the tip
            (20, GREEN),        // (2, 3)
            (10, ROAD_DIM),     // (4, 1): only tile, not marked as laid last
        ],
    );
    assert_eq!(led::render(&scene, &l, 0), want);

    // Along the top, left to right: leader 100 → scale 100 on 5 LEDs: 1 + 100·4/100 = 5 and
    // 1 + 49·4/100 = 2.
    let top = layout("brightness = 255\n[matrix]\nwidth = 5\nheight = 5\nwiring = \"progressive\"\nscores = \"top\"\n");
    let scene = Scene {
        tiles: vec![],
        seats: vec![
            Seat {
                colour: Colour::Red,
                score: 100,
            },
            Seat {
                colour: Colour::Blue,
                score: 49,
            },
        ],
        ..scene
    };
    let want = frame(
        25,
        &[
            (0, QUARTER_RED),
            (1, QUARTER_RED),
            (2, QUARTER_RED),
            (3, QUARTER_RED),
            (4, RED),
            (5, QUARTER_BLUE),
            (6, BLUE),
        ],
    );
    assert_eq!(led::render(&scene, &top, 0), want);
}

#[test]
fn a_board_wider_than_the_panel_is_windowed_on_the_legal_cells() {
    // Ten tiles in a row (x 0..9), frontier below them; a 4×3 board area. Along x the board does
    // not fit, so the window centres on the legal cell: x0 = focus − 2, kept within 0..=6.
    let l = layout(
        "brightness = 255\n[matrix]\nwidth = 4\nheight = 3\nwiring = \"progressive\"\nscores = \"none\"\n",
    );
    let scene = |legal: Vec<Pos>| Scene {
        tiles: (0..10).map(|x| (Pos::new(x, 0), Terrain::Road)).collect(),
        frontier: (0..10).map(|x| Pos::new(x, 1)).collect(),
        legal,
        seats: vec![Seat {
            colour: Colour::Green,
            score: 0,
        }],
        current: 0,
    };
    let road_bright = Rgb::new(160, 160, 160);
    // Legal at (9, 1): x0 = 7 → clamped to 6; y spans 0..1 (2 cells, centred in 3: y0 = 0).
    let want = frame(
        12,
        &[
            (0, ROAD_DIM),
            (1, ROAD_DIM),
            (2, ROAD_DIM),
            (3, road_bright), // (9, 0), laid last
            (7, GREEN),       // (9, 1)
        ],
    );
    assert_eq!(led::render(&scene(vec![Pos::new(9, 1)]), &l, 0), want);
    // Legal at (1, 1): x0 = 1 − 2 → clamped to 0.
    let want = frame(
        12,
        &[
            (0, ROAD_DIM),
            (1, ROAD_DIM),
            (2, ROAD_DIM),
            (3, ROAD_DIM),
            (5, GREEN),
        ],
    );
    assert_eq!(led::render(&scene(vec![Pos::new(1, 1)]), &l, 0), want);
    // Nothing in hand: centred on the tile laid last, (9, 0).
    let want = frame(
        12,
        &[
            (0, ROAD_DIM),
            (1, ROAD_DIM),
            (2, ROAD_DIM),
            (3, road_bright),
        ],
    );
    assert_eq!(led::render(&scene(vec![]), &l, 0), want);
}

#[test]
fn strip_shows_track_positions_laps_and_shared_spaces() {
    // 50 LEDs: LED = space. Ann 57 (space 7, lap 1: one trailing LED on 6), Bob 7 (space 7 too:
    // they take turns), Cid 112 (space 12, lap 2: trail on 11 and 10).
    let l = layout("brightness = 255\n[strip]\nleds = 50\n");
    let scene = Scene {
        tiles: vec![],
        frontier: vec![],
        legal: vec![],
        seats: vec![
            Seat {
                colour: Colour::Red,
                score: 57,
            },
            Seat {
                colour: Colour::Blue,
                score: 7,
            },
            Seat {
                colour: Colour::Green,
                score: 112,
            },
        ],
        current: 0,
    };
    let lit = |seven: Rgb| {
        frame(
            50,
            &[
                (6, QUARTER_RED),
                (7, seven),
                (12, GREEN),
                (11, QUARTER_GREEN),
                (10, QUARTER_GREEN),
            ],
        )
    };
    assert_eq!(led::render(&scene, &l, 0), lit(RED));
    assert_eq!(led::render(&scene, &l, 1), lit(BLUE));
    assert_eq!(led::render(&scene, &l, 2), lit(RED));

    // 100 LEDs: space s is LED 2s. A trail wraps from space 0 to space 49 (LED 98).
    let long = layout("brightness = 255\n[strip]\nleds = 100\n");
    let scene = Scene {
        seats: vec![Seat {
            colour: Colour::Yellow,
            score: 50,
        }],
        ..scene
    };
    let yellow = Rgb::new(255, 160, 0);
    assert_eq!(
        led::render(&scene, &long, 0),
        frame(100, &[(0, yellow), (98, Rgb::new(63, 40, 0))])
    );
}

#[test]
fn test_pattern_marks_corners_and_walks_the_rows() {
    let l = layout("brightness = 255\n[matrix]\nwidth = 4\nheight = 3\nwiring = \"progressive\"\n");
    let yellow = Rgb::new(255, 255, 0);
    let corners = [(0, RED), (3, GREEN), (8, BLUE), (11, Rgb::WHITE)];
    let mut want = frame(12, &corners);
    want[5] = yellow; // tick 5: pixel (1, 1)
    assert_eq!(led::test_pattern(&l, 5), want);
    let mut want = frame(12, &corners);
    want[1] = yellow; // tick 13 = 12 + 1: pixel (1, 0)
    assert_eq!(led::test_pattern(&l, 13), want);
}

#[test]
fn terrain_of_every_base_tile() {
    let cat = catalogue();
    let of = |name| Terrain::of(cat.tile(cat.tile_id(name).unwrap()));
    for name in ["A", "B"] {
        assert_eq!(of(name), Terrain::Cloister, "{name}");
    }
    // Most city edges, ties with field going to city (H, I: two city, two field edges).
    for name in [
        "C", "F", "G", "H", "I", "M", "N", "O", "P", "Q", "R", "S", "T",
    ] {
        assert_eq!(of(name), Terrain::City, "{name}");
    }
    // Road edges outnumber (D, J, K: two roads, one city) or tie with field (U, V).
    for name in ["D", "J", "K", "L", "U", "V", "W", "X"] {
        assert_eq!(of(name), Terrain::Road, "{name}");
    }
    assert_eq!(of("E"), Terrain::Field);
}

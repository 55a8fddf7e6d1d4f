//! The `meeplecam` binary: exit statuses, text and JSON reports.

use std::path::PathBuf;
use std::process::{Command, Output};

fn meeplecam(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeplecam"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeplecam-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

const TWO_PLAYERS: &str =
    r#""players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]"#;

#[test]
fn selfplay_then_score_json_adds_up() {
    let dir = std::env::temp_dir().join(format!("meeplecam-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let out = meeplecam(&[
        "selfplay",
        "--players",
        "4",
        "--seed",
        "3",
        "--out",
        record.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = meeplecam(&["score", record.to_str().unwrap(), "--json"]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let players = report["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    for (i, p) in players.iter().enumerate() {
        let name = p["name"].as_str().unwrap();
        assert!(p["colour"].is_string());
        let from_events: u64 = report["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["players"].as_array().unwrap().iter().any(|n| n == name))
            .map(|e| e["points"].as_u64().unwrap())
            .sum();
        assert_eq!(p["score"].as_u64().unwrap(), from_events, "player {i}");
    }
    for e in report["events"].as_array().unwrap() {
        for key in ["turn", "players", "points", "feature", "tiles", "cause"] {
            assert!(e.get(key).is_some(), "event lacks {key}: {e}");
        }
    }
    // The same seed writes the same game.
    let again = meeplecam(&["selfplay", "--players", "4", "--seed", "3"]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        std::fs::read_to_string(&record).unwrap().trim()
    );
}

#[test]
fn an_illegal_turn_exits_2_naming_turn_and_reason() {
    let path = temp(
        "illegal.json",
        &format!(
            r#"{{"meeplecam": 1, {TWO_PLAYERS}, "turns": [
            {{"tile": "E", "at": [0, -1], "rot": 180, "follower": {{"port": "S"}}}},
            {{"tile": "U", "at": [0, -2], "rot": 90}}]}}"#
        ),
    );
    let out = meeplecam(&["score", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("turn 2") && err.contains("edge"), "{err}");
}

#[test]
fn malformed_and_missing_files_are_clear_errors() {
    let path = temp("garbage.json", "{\"meeplecam\": 1, \"players\": [");
    let out = meeplecam(&["score", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("garbage.json") && !err.contains("panicked"),
        "{err}"
    );

    let out = meeplecam(&["score", "/nonexistent/game.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn score_prints_each_event_and_the_table() {
    let path = temp(
        "city.json",
        &format!(
            r#"{{"meeplecam": 1, {TWO_PLAYERS}, "turns": [
            {{"tile": "E", "at": [0, -1], "rot": 180, "follower": {{"port": "S"}}}}]}}"#
        ),
    );
    let out = meeplecam(&["score", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("turn   1  Ann") && text.contains("+4") && text.contains("city of 2 tiles"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("Ann") && l.trim_end().ends_with('4')),
        "{text}"
    );
}

#[test]
fn legal_lists_placements_with_follower_spots() {
    let path = temp(
        "start.json",
        &format!(r#"{{"meeplecam": 1, {TWO_PLAYERS}}}"#),
    );
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "E", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let placements = report["placements"].as_array().unwrap();
    // Around the start tile D (city N, road W–E), a city cap E fits: north turned to face
    // south (closing the city), and west/east/south with its city facing away from the road
    // or the field.
    let above = placements
        .iter()
        .find(|p| p["at"] == serde_json::json!([0, -1]))
        .expect("north of the start tile");
    assert_eq!(above["rot"], 180);
    let features: Vec<&str> = above["followers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["feature"].as_str().unwrap())
        .collect();
    assert_eq!(features, ["city", "field"]);
    for p in placements {
        assert_ne!(p["at"], serde_json::json!([0, 0]));
    }
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "nope"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_readme_example_record_replays() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("```json\n").expect("README has a JSON example") + 8;
    let end = start + readme[start..].find("```").unwrap();
    let path = temp("readme.json", &readme[start..end]);
    let out = meeplecam(&["score", path.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["players"][0]["score"], 4);
    assert_eq!(report["players"][1]["score"], 0);
}

#[cfg(feature = "vision")]
/// Writes a picture of one grey `level` and `size` (width, height) pixels to `path`.
fn plain_picture(path: &std::path::Path, size: [i32; 2], level: f64) -> PathBuf {
    let picture = opencv::core::Mat::new_rows_cols_with_default(
        size[1],
        size[0],
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(level),
    )
    .unwrap();
    opencv::imgcodecs::imwrite(
        path.to_str().unwrap(),
        &picture,
        &opencv::core::Vector::new(),
    )
    .unwrap();
    path.to_path_buf()
}

#[test]
fn recognize_tile_reads_a_rendered_tile_and_survives_junk() {
    let dir = std::env::temp_dir().join(format!("meeplecam-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A record whose final board is the start tile alone, filmed straight down: the still
    // shows tile D (north up) in the middle.
    let record = temp(
        "lone.json",
        &format!(r#"{{"meeplecam": 1, {TWO_PLAYERS}}}"#),
    );
    let still = dir.join("lone.png");
    let out = meeplecam(&[
        "render",
        "--record",
        record.to_str().unwrap(),
        "--out",
        still.to_str().unwrap(),
        "--still",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Crop the tile with the truth's corners.
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(still.with_extension("json")).unwrap())
            .unwrap();
    let corners = &truth["tiles"][0]["corners_px"];
    let xs: Vec<f64> = (0..4).map(|i| corners[i][0].as_f64().unwrap()).collect();
    let ys: Vec<f64> = (0..4).map(|i| corners[i][1].as_f64().unwrap()).collect();
    let (x0, x1) = (
        xs.iter().cloned().fold(f64::MAX, f64::min),
        xs.iter().cloned().fold(f64::MIN, f64::max),
    );
    let (y0, y1) = (
        ys.iter().cloned().fold(f64::MAX, f64::min),
        ys.iter().cloned().fold(f64::MIN, f64::max),
    );
    use opencv::prelude::*;
    let img = opencv::imgcodecs::imread(still.to_str().unwrap(), opencv::imgcodecs::IMREAD_COLOR)
        .unwrap();
    let rect = opencv::core::Rect::new(
        x0.ceil() as i32,
        y0.ceil() as i32,
        (x1 - x0) as i32 - 1,
        (y1 - y0) as i32 - 1,
    );
    let crop = opencv::core::Mat::roi(&img, rect)
        .unwrap()
        .try_clone()
        .unwrap();
    let tile_png = dir.join("tile.png");
    opencv::imgcodecs::imwrite(
        tile_png.to_str().unwrap(),
        &crop,
        &opencv::core::Vector::new(),
    )
    .unwrap();
    let out = meeplecam(&["recognize-tile", tile_png.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["candidates"][0]["tile"], "D", "{report}");
    assert_eq!(report["candidates"][0]["rot"], 0);

    // Junk: not an image, a tiny image, a flat grey picture.
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"not a png").unwrap();
    let out = meeplecam(&["recognize-tile", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let grey_png = plain_picture(&dir.join("grey.png"), [500, 300], 128.0);
    let out = meeplecam(&["recognize-tile", grey_png.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("panicked"));
    // A picture of a few pixels is an image, too small to show a tile: it says so.
    let dot_png = plain_picture(&dir.join("dot.png"), [2, 3], 90.0);
    let out = meeplecam(&["recognize-tile", dot_png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2×3 pixels: too small"), "{err}");
}

#[test]
fn selfplay_and_legal_with_expansions() {
    let out = meeplecam(&[
        "selfplay",
        "--players",
        "3",
        "--seed",
        "2",
        "--expansions",
        "river_ii,inns_and_cathedrals",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        record["expansions"],
        serde_json::json!(["river_ii", "inns_and_cathedrals"])
    );
    // River II's fork is laid first; 71 base tiles (the start tile is not used), 11 river tiles
    // after the spring and 18 of Inns & Cathedrals.
    assert_eq!(record["turns"][0]["tile"], "RV12");
    assert_eq!(record["turns"].as_array().unwrap().len(), 71 + 11 + 18);
    let path = temp("expansions.json", &record.to_string());
    assert!(meeplecam(&["score", path.to_str().unwrap()])
        .status
        .success());
    let out = meeplecam(&["selfplay", "--expansions", "dragons"]);
    assert_eq!(out.status.code(), Some(2));

    // Before any turn of a River I game: a land tile may not be drawn yet; a straight river
    // tile goes east of the spring, either way round, with farmers but nothing on the river.
    let path = temp(
        "river.json",
        &format!(
            r#"{{"meeplecam": 1, "expansions": ["river", "inns_and_cathedrals"], "start": {{"tile": "RV0"}}, {TWO_PLAYERS}}}"#
        ),
    );
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "E"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("river tiles are laid before"));
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "RV6", "--json"]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["figures"], serde_json::json!(["normal", "large"]));
    let placements = report["placements"].as_array().unwrap();
    let rots: Vec<i64> = placements
        .iter()
        .map(|p| p["rot"].as_i64().unwrap())
        .collect();
    assert_eq!(rots, [0, 180]);
    for p in placements {
        assert_eq!(p["at"], serde_json::json!([1, 0]));
        let kinds: Vec<&str> = p["followers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["feature"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["field", "field"]);
    }
}

#[cfg(feature = "vision")]
/// `meeplecam recognize IMAGE --calibration FILE --json`, which must succeed, as JSON.
fn recognize_json(image: &str, calibration: &str) -> serde_json::Value {
    let out = meeplecam(&["recognize", image, "--calibration", calibration, "--json"]);
    assert!(
        out.status.success(),
        "{image}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn calibrate_then_recognize_a_rendered_board() {
    let dir = std::env::temp_dir().join(format!("meeplecam-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let out = meeplecam(&[
        "selfplay",
        "--players",
        "2",
        "--seed",
        "21",
        "--out",
        &p("game.json"),
    ]);
    assert!(out.status.success());
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("game.json")).unwrap()).unwrap();
    record["turns"].as_array_mut().unwrap().truncate(8);
    std::fs::write(p("short.json"), record.to_string()).unwrap();
    for (turn, out_name) in [(Some("0"), "setup.png"), (None, "board.png")] {
        let mut args = vec!["render", "--record", &p("short.json")]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        args.extend(["--still", "--seed", "5", "--out"].map(String::from));
        args.push(p(out_name));
        if let Some(t) = turn {
            args.extend(["--turn".to_string(), t.to_string()]);
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = meeplecam(&a);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = meeplecam(&[
        "calibrate",
        "start-tile",
        &p("setup.png"),
        "--out",
        &p("table.yaml"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = recognize_json(&p("board.png"), &p("table.yaml"));
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("board.json")).unwrap()).unwrap();
    let tiles = read["tiles"].as_array().unwrap();
    assert_eq!(tiles[0]["cell"], serde_json::json!([0, 0]));
    assert_eq!(tiles[0]["tile"], "D");
    // Every tile read sits on a cell that holds a tile, and most tiles are found.
    let truth_cells: Vec<&serde_json::Value> = truth["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["cell"])
        .collect();
    for t in tiles {
        assert!(
            truth_cells.contains(&&t["cell"]),
            "phantom tile at {}",
            t["cell"]
        );
    }
    assert!(
        tiles.len() * 4 >= truth_cells.len() * 3,
        "{} of {} tiles found",
        tiles.len(),
        truth_cells.len()
    );
    // A corrupt calibration is a clear error, not a crash.
    std::fs::write(dir.join("bad.yaml"), "%YAML:1.0\n---\nnonsense: [").unwrap();
    let out = meeplecam(&[
        "recognize",
        &p("board.png"),
        "--calibration",
        &p("bad.yaml"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    // Pictures that show no board where the calibration saw it: a white one, and the board
    // washed out (three times too bright). Nothing is read, and the answer says so; nor is a
    // white picture a setup.
    use opencv::prelude::*;
    let board = opencv::imgcodecs::imread(p("board.png").as_str(), opencv::imgcodecs::IMREAD_COLOR)
        .unwrap();
    let white = opencv::core::Mat::new_rows_cols_with_default(
        board.rows(),
        board.cols(),
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(255.0),
    )
    .unwrap();
    let mut washed = opencv::core::Mat::default();
    board.convert_to(&mut washed, -1, 3.0, 0.0).unwrap();
    for (name, picture) in [("white.png", white), ("washed.png", washed)] {
        opencv::imgcodecs::imwrite(p(name).as_str(), &picture, &opencv::core::Vector::new())
            .unwrap();
        let read = recognize_json(&p(name), &p("table.yaml"));
        assert_eq!(read["tiles"], serde_json::json!([]), "{name}");
        assert!(
            read["nothing_found"]
                .as_str()
                .is_some_and(|s| s.contains("start tile")),
            "{name}: {read}"
        );
    }
    let out = meeplecam(&[
        "calibrate",
        "start-tile",
        &p("white.png"),
        "--out",
        &p("white.yaml"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no start tile found"));
    // Nor is a setup picture three times too bright, clipped to white: it says so.
    let setup = opencv::imgcodecs::imread(p("setup.png").as_str(), opencv::imgcodecs::IMREAD_COLOR)
        .unwrap();
    let mut washed = opencv::core::Mat::default();
    setup.convert_to(&mut washed, -1, 3.0, 0.0).unwrap();
    opencv::imgcodecs::imwrite(
        p("washed-setup.png").as_str(),
        &washed,
        &opencv::core::Vector::new(),
    )
    .unwrap();
    let out = meeplecam(&[
        "calibrate",
        "start-tile",
        &p("washed-setup.png"),
        "--out",
        &p("washed.yaml"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("washed out"), "{err}");
}

#[test]
fn traders_and_builders_in_score_and_legal() {
    let turns = |n: usize| {
        let all = [
            r#"{"tile": "U", "at": [1, 0], "rot": 0, "follower": {"port": "E"}}"#,
            r#"{"tile": "B", "at": [0, 1], "rot": 0}"#,
            r#"{"tile": "U", "at": [2, 0], "rot": 0, "follower": {"port": "E", "figure": "builder"}}"#,
            r#"{"tile": "B", "at": [1, 1], "rot": 0}"#,
            r#"{"tile": "U", "at": [3, 0], "rot": 0}"#,
        ];
        let players =
            r#""players": [{"name": "Red", "colour": "red"}, {"name": "Blue", "colour": "blue"}]"#;
        format!(
            r#"{{"meeplecam": 1, "expansions": ["traders_and_builders"], {players}, "turns": [{}]}}"#,
            all[..n].join(", ")
        )
    };
    // Red's thief holds the road: on the next stretch only her builder may stand on it.
    let path = temp("builder.json", &turns(2));
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "U", "--json"]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["player"], "Red");
    assert_eq!(report["extra_turn"], false);
    assert_eq!(
        report["figures"],
        serde_json::json!(["normal", "builder", "pig"])
    );
    let east = report["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["at"] == serde_json::json!([2, 0]) && p["rot"] == 0)
        .expect("the road continues east");
    let road = east["followers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"] == "road")
        .unwrap();
    assert_eq!(road["figures"], serde_json::json!(["builder"]));
    // Extending the builder's road: Red lays a second tile.
    let path = temp("double.json", &turns(5));
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "B", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["player"], "Red");
    assert_eq!(report["extra_turn"], true);
    let out = meeplecam(&["score", path.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let goods = &report["players"][0]["goods"];
    assert_eq!(
        goods,
        &serde_json::json!({"wine": 0, "wheat": 0, "cloth": 0})
    );
    // The goods example of the rulebook: Red's goods win two majorities at the end.
    let scenario = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios/s000_tb_goods_example.json"),
    )
    .unwrap();
    let record: serde_json::Value = serde_json::from_str(&scenario).unwrap();
    let path = temp("goods.json", &record["record"].to_string());
    let out = meeplecam(&["score", path.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let red = &report["players"][0];
    assert_eq!(
        red["goods"],
        serde_json::json!({"wine": 1, "wheat": 2, "cloth": 0})
    );
    assert_eq!(red["score"], 20);
    let kinds: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["feature"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["city", "wine", "wheat"]);
    let out = meeplecam(&["score", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("most wine"), "{text}");
}

#[test]
fn wheel_of_fortune_in_selfplay_score_and_legal() {
    let out = meeplecam(&[
        "selfplay",
        "--seed",
        "5",
        "--tileset",
        "bigbox",
        "--expansions",
        "wheel_of_fortune",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Big Box 5: the 72 base tiles but the start tile and the 12 Wheel tiles (seed 000, lines
    // 989-992); the board is laid before the first turn.
    assert_eq!(record["turns"].as_array().unwrap().len(), 72 + 12);
    let icons = record["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["wheel"]["icon"].is_u64())
        .count();
    assert!(icons > 0, "no tile turned the wheel");
    let path = temp("wheel.json", &record.to_string());
    assert!(meeplecam(&["score", path.to_str().unwrap()])
        .status
        .success());

    // Before the first turn: the pig stands on Fortune (seed 000, line 995) and every crown is
    // free.
    let path = temp(
        "wheel-start.json",
        &format!(
            r#"{{"meeplecam": 1, "tileset": "bigbox", "expansions": ["wheel_of_fortune"], {TWO_PLAYERS}}}"#
        ),
    );
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "U", "--json"]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["wheel"]["pig"], "fortune");
    assert_eq!(
        report["wheel"]["vacant_crowns"].as_array().unwrap().len(),
        6
    );
    let out = meeplecam(&["legal", path.to_str().unwrap(), "--tile", "U"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("wheel: pig on fortune"));
}

#[cfg(feature = "vision")]
#[test]
fn render_expansion_sheet_needs_no_record_but_a_film_does() {
    let dir = std::env::temp_dir().join(format!("meeplecam-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sheet = dir.join("expansions.png");
    let out = meeplecam(&[
        "render",
        "--expansion-sheet",
        "--out",
        sheet.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A PNG of two 1280×720 pictures, one above the other (IHDR: width, height at bytes 16–23).
    let png = std::fs::read(&sheet).unwrap();
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (1280, 1440));
    // Without the sheet a record is needed.
    let out = meeplecam(&["render", "--out", sheet.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let record = temp(
        "sheet.json",
        &format!(r#"{{"meeplecam": 1, {TWO_PLAYERS}}}"#),
    );
    let out = meeplecam(&[
        "render",
        "--expansion-sheet",
        "--record",
        record.to_str().unwrap(),
        "--out",
        sheet.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "the sheet takes no record");
}

#[cfg(feature = "vision")]
/// The value of a row of a Markdown table printed by `eval vision`.
fn table_value<'a>(text: &'a str, measure: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("| {measure} | ")))
        .unwrap_or_else(|| panic!("no row {measure:?} in\n{text}"))
        .trim_end_matches(" |")
}

#[cfg(feature = "vision")]
#[test]
fn eval_vision_writes_a_data_set_then_evaluates_it_from_disk() {
    let dir = std::env::temp_dir().join(format!("meeplecam-eval-set-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let set = dir.to_str().unwrap();
    let made = meeplecam(&[
        "eval",
        "vision",
        "--generate",
        "1",
        "--seed",
        "62",
        "--dataset",
        set,
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    for file in ["board-000.png", "board-000-setup.png", "board-000.json"] {
        assert!(dir.join(file).is_file(), "{file} not written");
    }
    let again = meeplecam(&["eval", "vision", "--dataset", set, "--wrong"]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let (made, again) = (
        String::from_utf8_lossy(&made.stdout),
        String::from_utf8_lossy(&again.stdout),
    );
    for measure in [
        "tiles read",
        "type + rotation right (start-tile calibrated colours)",
        "whole board right, with rules priors",
        "boards where a figure hides all that tells a tile from a look-alike",
        "tiles found in their cell",
        "whole board right, boards where no figure hides what tells a tile",
    ] {
        assert_eq!(table_value(&made, measure), table_value(&again, measure));
    }
    let right: f64 = table_value(
        &again,
        "type + rotation right (start-tile calibrated colours)",
    )
    .trim_end_matches(" %")
    .parse()
    .unwrap();
    assert!(right >= 90.0, "{again}");
    // `--wrong` lists the full read's misses and misreads, each by its board and cell, the
    // cells it read a tile in where there is none, then the followers the per-tile read did not
    // see in their colour, each with what it saw.
    let list = |heading: &str| -> Vec<&str> {
        let (_, after) = again
            .split_once(heading)
            .unwrap_or_else(|| panic!("no {heading:?} in\n{again}"));
        after.lines().take_while(|l| !l.is_empty()).collect()
    };
    for line in list("Tiles the full read missed or read wrong (rules priors):\n\n") {
        assert!(line.starts_with("board-000 ("), "{line}");
    }
    for line in list("Tiles the full read found where there is none:\n\n") {
        assert!(line.starts_with("board-000 ("), "{line}");
        assert!(line.contains(": no tile, "), "{line}");
    }
    for line in list("Followers the per-tile read did not see in their colour:\n\n") {
        assert!(line.starts_with("board-000 ("), "{line}");
        assert!(line.contains(", seen there: "), "{line}");
    }
    assert!(!made.contains("Tiles the full read missed"), "{made}");

    // Not a data set, or one for another evaluation: exit status 2 with the reason.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = meeplecam(&["eval", "vision", "--dataset", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no board-*.json"));
    let out = meeplecam(&["eval", "track", "--dataset", set]);
    assert_eq!(out.status.code(), Some(2));
    let out = meeplecam(&["eval", "track", "--wrong"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--wrong is for `eval vision`"));
}

#[cfg(feature = "vision")]
#[test]
fn eval_track_writes_the_frames_of_the_game_it_follows() {
    let dir = std::env::temp_dir().join(format!("meeplecam-eval-frames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.to_str().unwrap();
    let out = meeplecam(&[
        "eval", "track", "--turns", "2", "--seed", "5", "--game", "0", "--frames", frames,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Every event names the frame it came on, and that frame was written.
    let mut events = 0;
    for line in stdout.lines().filter(|l| l.starts_with("frame ")) {
        let index: usize = line["frame ".len()..]
            .split(':')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(
            dir.join(format!("frame-{index:05}.png")).is_file(),
            "{line}"
        );
        events += 1;
    }
    assert!(events >= 3, "registered and two tiles at least:\n{stdout}");
    let written = std::fs::read_dir(&dir).unwrap().count();
    let first_missing = (0..).find(|i| !dir.join(format!("frame-{i:05}.png")).is_file());
    assert_eq!(
        first_missing,
        Some(written),
        "frames numbered from 0 without gaps"
    );

    // Frames belong to one game.
    let out = meeplecam(&["eval", "track", "--turns", "2", "--frames", frames]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn eval_track_films_its_games_with_the_art_given() {
    use opencv::prelude::*;
    let dir = std::env::temp_dir().join(format!("meeplecam-eval-art-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // An "edition" whose start tile is all magenta, a colour no painted tile shows.
    let art = dir.join("art");
    std::fs::create_dir_all(&art).unwrap();
    let magenta = opencv::core::Mat::new_rows_cols_with_default(
        64,
        64,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::new(255.0, 0.0, 255.0, 0.0),
    )
    .unwrap();
    let picture = art.join("D.png");
    opencv::imgcodecs::imwrite(
        picture.to_str().unwrap(),
        &magenta,
        &opencv::core::Vector::new(),
    )
    .unwrap();
    std::fs::write(
        art.join("labels.json"),
        r#"{"labels": [{"file": "D.png", "type": "D", "rotation": 0}]}"#,
    )
    .unwrap();
    let magenta_in_first_frame = |with_art: bool| {
        let frames = dir.join(if with_art { "with" } else { "without" });
        let mut args = vec![
            "eval", "track", "--turns", "1", "--seed", "5", "--game", "0",
        ];
        args.extend(["--frames", frames.to_str().unwrap()]);
        if with_art {
            args.extend(["--art", art.to_str().unwrap()]);
        }
        let out = meeplecam(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let first = frames.join("frame-00000.png");
        let img =
            opencv::imgcodecs::imread(first.to_str().unwrap(), opencv::imgcodecs::IMREAD_COLOR)
                .unwrap();
        let bytes = img.data_bytes().unwrap();
        bytes
            .chunks(3)
            .filter(|p| p[0] > 150 && p[2] > 150 && p[1] < 90)
            .count()
    };
    assert!(magenta_in_first_frame(true) > 400);
    assert!(magenta_in_first_frame(false) < 40);

    // An art folder that cannot be read is an error, for tracking as for boards.
    let missing = dir.join("no-such-art");
    let out = meeplecam(&[
        "eval",
        "track",
        "--turns",
        "1",
        "--art",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("labels.json"));
}

#[test]
fn train_follower_odds_writes_a_table_of_every_base_type_or_exits_2_on_an_unknown_set() {
    let out = meeplecam(&["train", "follower-odds", "--games", "30", "--seed", "5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(table["games"], 30);
    let tiles = table["tiles"].as_object().unwrap();
    // The base game's 24 types, A to X, each laid and counted.
    assert_eq!(tiles.len(), 24, "{:?}", tiles.keys().collect::<Vec<_>>());
    for (name, counts) in tiles {
        let laid = counts["laid"].as_u64().unwrap();
        for kind in ["on_field", "elsewhere"] {
            assert!(counts[kind].as_u64().unwrap() <= laid, "{name} {kind}");
        }
    }
    let out = meeplecam(&["train", "follower-odds", "--tileset", "nonesuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nonesuch"));
}

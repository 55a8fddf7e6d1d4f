//! Malformed records and `.jcz` files: always an error, never a panic.

use proptest::prelude::*;
use serde_json::{json, Value};

use meeplecam::record::{jcz, selfplay::random_record_with, Record};
use meeplecam::rules::{Expansion, Figure, RuleOptions};

/// A small valid `.jcz` document in JCloisterZone's shape.
fn jcz_doc() -> Value {
    json!({
        "setup": {
            "sets": {"basic:1": 1},
            "elements": {"small-follower": 7, "farmers": true},
            "rules": {},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
        },
        "players": [{"name": "Ann", "slot": 0}, {"name": "Bob", "slot": 1}],
        "replay": [
            {"type": "PLACE_TILE", "payload": {"tileId": "BA/C", "rotation": "R180", "position": [0, -1]}},
            {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [0, -1], "feature": "City", "location": "S"}, "meepleId": "0.small.1"}},
            {"type": "COMMIT", "payload": {}}
        ],
        "gameAnnotations": {"drawOrder": ["BA/C", "BA/Rr"]}
    })
}

/// A `.jcz` document with The River and Inns & Cathedrals: the spring starts, a large follower.
fn jcz_doc_expansions() -> Value {
    json!({
        "setup": {
            "sets": {"basic:1": 1, "river/1:1": 1, "inns-and-cathedrals:1": 1},
            "elements": {"small-follower": 7, "farmers": true, "big-follower": 1, "inn": true, "cathedral": true},
            "rules": {"inn-and-cathedral-final-scoring": "zero"},
            "start": [{"tile": "RI/s", "x": 0, "y": 0, "rotation": 0}]
        },
        "players": [{"name": "Ann", "slot": 0}, {"name": "Bob", "slot": 1}],
        "replay": [
            {"type": "PLACE_TILE", "payload": {"tileId": "RI.1/CICI", "rotation": "R0", "position": [1, 0]}},
            {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [1, 0], "feature": "City", "location": "N"}, "meepleId": "0.big.1"}},
            {"type": "COMMIT", "payload": {}}
        ],
        "gameAnnotations": {"drawOrder": ["RI.1/CICI", "RI.1/IFI"]}
    })
}

/// A `.jcz` document with Traders & Builders: a farmer, then a pig beside it.
fn jcz_doc_traders() -> Value {
    json!({
        "setup": {
            "sets": {"basic:1": 1, "traders-and-builders:1": 1},
            "elements": {"small-follower": 7, "farmers": true, "builder": 1, "pig": 1, "traders": true, "pig-herd": true},
            "rules": {},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
        },
        "players": [{"name": "Ann", "slot": 0}],
        "replay": [
            {"type": "PLACE_TILE", "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [1, 0]}},
            {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [1, 0], "feature": "Field", "location": "NL.NR.EL.WR"}, "meepleId": "0.small.1"}},
            {"type": "COMMIT", "payload": {}},
            {"type": "PLACE_TILE", "payload": {"tileId": "TB/CR", "rotation": "R180", "position": [2, 0]}},
            {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [2, 0], "feature": "Field", "location": "NL.NR.EL.ER.WR"}, "meepleId": "0.pig.1"}},
            {"type": "COMMIT", "payload": {}}
        ],
        "gameAnnotations": {"drawOrder": ["BA/RFr", "TB/CR", "TB/Cc.w"]}
    })
}

/// A `.jcz` document with Hills & Sheep: a shepherd placed, then its flock grown.
fn jcz_doc_sheep() -> Value {
    json!({
        "setup": {
            "sets": {"basic:1": 1, "hills-and-sheep:1": 1},
            "elements": {"small-follower": 7, "farmers": true, "shepherd": 1, "hill": true, "vineyard": true},
            "rules": {},
            "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]
        },
        "players": [{"name": "Ann", "slot": 0}, {"name": "Bob", "slot": 1}],
        "replay": [
            {"type": "PLACE_TILE", "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [1, 0]}},
            {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [1, 0], "feature": "Field", "location": "ER.SL.SR.WL"}, "meepleId": "0.shepherd.1"}},
            {"type": "COMMIT", "payload": {"random": 0.3}},
            {"type": "PLACE_TILE", "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [-1, 0]}},
            {"type": "PASS", "payload": {}},
            {"type": "COMMIT", "payload": {"random": 0.5}},
            {"type": "PLACE_TILE", "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [2, 0]}},
            {"type": "PASS", "payload": {}},
            {"type": "FLOCK_EXPAND_OR_SCORE", "payload": {"value": "EXPAND", "random": 0.0}},
            {"type": "COMMIT", "payload": {"random": 0.1}}
        ],
        "gameAnnotations": {"drawOrder": ["BA/RFr", "BA/RFr", "BA/RFr", "BA/Rr"]}
    })
}

fn junk() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(true)),
        Just(json!(-1)),
        Just(json!(1e300)),
        Just(json!(i64::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!("")),
        Just(json!("ZZ")),
        Just(json!("R45")),
        Just(json!([])),
        Just(json!([2147483647, -2147483648])),
        Just(json!({})),
        any::<i32>().prop_map(|n| json!(n)),
        "[A-Za-z/+.0-9_]{0,6}".prop_map(Value::from),
    ]
}

/// Replaces the node reached by following `path` (indices taken modulo each container's size).
fn mutate(node: &mut Value, path: &[usize], replacement: Value) {
    let Some((&step, rest)) = path.split_first() else {
        *node = replacement;
        return;
    };
    match node {
        Value::Array(items) if !items.is_empty() => {
            let n = items.len();
            mutate(&mut items[step % n], rest, replacement);
        }
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(step % map.len()).cloned().unwrap();
            mutate(map.get_mut(&key).unwrap(), rest, replacement);
        }
        _ => *node = replacement,
    }
}

fn record_doc() -> Value {
    // Seed 13 deploys large followers, builders and pigs and has double turns.
    let expansions = [
        Expansion::River,
        Expansion::InnsAndCathedrals,
        Expansion::TradersAndBuilders,
    ]
    .into_iter()
    .collect();
    let record = random_record_with("base", expansions, 3, RuleOptions::default(), 13).unwrap();
    serde_json::from_str(&record.to_json()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn mutated_records_are_errors_or_games(
        edits in proptest::collection::vec((proptest::collection::vec(0usize..100, 0..5), junk()), 1..4)
    ) {
        let mut doc = record_doc();
        for (path, value) in edits {
            mutate(&mut doc, &path, value);
        }
        if let Ok(record) = Record::from_json(&doc.to_string()) {
            let _ = record.replay();
        }
    }

    #[test]
    fn mutated_jcz_files_are_errors_or_games(
        edits in proptest::collection::vec((proptest::collection::vec(0usize..100, 0..6), junk()), 1..4),
        kind in 0..4u8,
    ) {
        let mut doc = match kind {
            0 => jcz_doc(),
            1 => jcz_doc_expansions(),
            2 => jcz_doc_traders(),
            _ => jcz_doc_sheep(),
        };
        for (path, value) in edits {
            mutate(&mut doc, &path, value);
        }
        if let Ok(game) = jcz::parse(&doc.to_string()) {
            let _ = game.record.replay();
        }
    }

    #[test]
    fn arbitrary_text_is_an_error(text in "\\PC{0,200}") {
        prop_assert!(Record::from_json(&text).is_err() || text.contains("meeplecam"));
        let _ = jcz::parse(&text);
    }

    #[test]
    fn truncated_records_are_errors(cut in 0usize..4000) {
        let text = record_doc().to_string();
        let cut = cut.min(text.len().saturating_sub(1));
        prop_assert!(Record::from_json(&text[..cut]).is_err());
    }
}

#[test]
fn the_unmutated_documents_are_valid() {
    assert!(Record::from_json(&record_doc().to_string())
        .unwrap()
        .replay()
        .is_ok());
    let game = jcz::parse(&jcz_doc().to_string()).unwrap();
    let replay = game.record.replay_open().unwrap();
    assert_eq!(replay.game.scores(), &[4, 0]);
    let game = jcz::parse(&jcz_doc_expansions().to_string()).unwrap();
    let replay = game.record.replay_open().unwrap();
    assert_eq!(replay.game.meeples().len(), 1);
    let game = jcz::parse(&jcz_doc_traders().to_string()).unwrap();
    let replay = game.record.replay_open().unwrap();
    let figures: Vec<Figure> = replay.game.meeples().iter().map(|m| m.figure).collect();
    assert_eq!(figures, [Figure::Normal, Figure::Pig]);
    // JCloisterZone drew with 0.0 twice (no initial random, then the growth's own): two
    // 1-sheep tokens.
    let game = jcz::parse(&jcz_doc_sheep().to_string()).unwrap();
    let flocks: Vec<String> = game
        .record
        .turns
        .iter()
        .flat_map(|t| t.flock.iter().map(|a| a.to_string()))
        .collect();
    assert_eq!(flocks, ["draw 1", "draw 1"]);
    let replay = game.record.replay_open().unwrap();
    let shepherd = replay.game.meeples()[0];
    assert_eq!(shepherd.figure, Figure::Shepherd);
    let field = replay
        .game
        .feature_at(shepherd.pos, shepherd.ports.iter().next().unwrap());
    assert_eq!(field.unwrap().flock, [1, 1]);
}

#[test]
fn specific_bad_records_name_the_problem() {
    let base = json!({
        "meeplecam": 1,
        "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
        "turns": []
    });
    let cases = [
        (json!({"meeplecam": 2}), "version"),
        (json!({"players": []}), "0 players"),
        (
            json!({"players": [{"name": "Ann", "colour": "red"}, {"name": "Ann", "colour": "blue"}]}),
            "two players",
        ),
        (
            json!({"players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "red"}]}),
            "two players",
        ),
        (
            json!({"players": [{"name": "Ann", "colour": "teal"}]}),
            "teal",
        ),
        (json!({"tileset": "moon"}), "moon"),
        (json!({"expansions": ["dragons"]}), "dragons"),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 45}]}),
            "turn 1",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [5, 5], "rot": 0}]}),
            "turn 1",
        ),
        (json!({"turns": [{"tile": "E"}]}), "turn 1"),
        (
            json!({"turns": [{"tile": "Z9", "at": [0, 1], "rot": 0}]}),
            "turn 1",
        ),
        (
            json!({"turns": [{"tile": "C", "at": [0, -1], "rot": 0}, {"tile": "C", "at": [0, -2], "rot": 0}]}),
            "turn 2",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "NE"}}]}),
            "turn 1",
        ),
        (json!({"turns": [{"tile": "E", "discard": true}]}), "turn 1"),
        (
            json!({"turns": [{"player": "Bob", "tile": "E", "at": [0, -1], "rot": 180}]}),
            "turn 1",
        ),
        (json!({"bogus": 1}), "bogus"),
        (json!({"expansions": ["river", "river"]}), "twice"),
        (
            json!({"expansions": ["river"], "start": {"tile": "D"}}),
            "spring",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "large"}}]}),
            "no large follower",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "giant"}}]}),
            "giant",
        ),
        (
            json!({"expansions": ["river"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180}]}),
            "river tiles are laid before land tiles",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "builder"}}]}),
            "no builder left",
        ),
        (
            json!({"expansions": ["traders_and_builders"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "builder"}}]}),
            "needs one of its owner's followers",
        ),
        (
            json!({"expansions": ["traders_and_builders"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "pig"}}]}),
            "a pig may not stand on a city",
        ),
        (
            json!({"expansions": ["traders_and_builders"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "extra": true}]}),
            "no builder's extra turn",
        ),
        (json!({"options": {"pigs": 300}}), "300"),
        (
            json!({"expansions": ["hills_and_sheep"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "NL", "figure": "shepherd"}}]}),
            "draws a token",
        ),
        (
            json!({"expansions": ["hills_and_sheep"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "NL", "figure": "shepherd"}, "flock": ["draw 9"]}]}),
            "flock action",
        ),
        (
            json!({"expansions": ["hills_and_sheep"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "S", "figure": "shepherd"}, "flock": ["draw 1"]}]}),
            "a shepherd may not stand on a city",
        ),
        (
            json!({"expansions": ["hills_and_sheep"], "turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "NL", "figure": "shepherd"}, "flock": ["gather"]}]}),
            "no flock to gather",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [0, -1], "rot": 180, "follower": {"port": "NL", "figure": "shepherd"}, "flock": ["draw 1"]}]}),
            "no shepherd left",
        ),
        (
            json!({"expansions": ["hills_and_sheep"], "turns": [{"tile": "X", "discard": true, "flock": ["gather"]}]}),
            "extends no flock",
        ),
    ];
    for (patch, needle) in cases {
        let mut doc = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            doc[k] = v.clone();
        }
        let err = match Record::from_json(&doc.to_string()) {
            Err(e) => e.to_string(),
            Ok(r) => r
                .replay()
                .expect_err(&format!("{patch} should fail"))
                .to_string(),
        };
        assert!(err.contains(needle), "{patch}: {err}");
    }
}

/// A self-played Wheel of Fortune game (with the River and Traders & Builders) whose record
/// turns the wheel, puts followers on crowns and, with seed 3, makes Pestilence choices.
fn wheel_record_doc() -> Value {
    let expansions = [
        Expansion::River,
        Expansion::TradersAndBuilders,
        Expansion::WheelOfFortune,
    ]
    .into_iter()
    .collect();
    let record = random_record_with("bigbox", expansions, 4, RuleOptions::default(), 3).unwrap();
    serde_json::from_str(&record.to_json()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn mutated_wheel_records_are_errors_or_games(
        edits in proptest::collection::vec((proptest::collection::vec(0usize..100, 0..6), junk()), 1..4)
    ) {
        let mut doc = wheel_record_doc();
        for (path, value) in edits {
            mutate(&mut doc, &path, value);
        }
        if let Ok(record) = Record::from_json(&doc.to_string()) {
            let _ = record.replay();
        }
    }
}

#[test]
fn bad_wheel_records_name_the_problem() {
    let doc = wheel_record_doc();
    let turns = doc["turns"].as_array().unwrap();
    assert!(turns.iter().any(|t| t["wheel"]["icon"].is_u64()));
    assert!(turns.iter().any(|t| t["wheel"]["crown"].is_object()));
    assert!(turns.iter().any(|t| t["wheel"]["pestilence"].is_array()));
    assert!(Record::from_json(&doc.to_string())
        .unwrap()
        .replay()
        .is_ok());
    let base = json!({
        "meeplecam": 1,
        "tileset": "bigbox",
        "expansions": ["wheel_of_fortune"],
        "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}],
        "turns": []
    });
    let cases = [
        (json!({"start": {"tile": "D"}}), "board"),
        (
            json!({"turns": [{"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"icon": 4}}]}),
            "1, 2 or 3",
        ),
        (
            json!({"turns": [{"tile": "E", "at": [2, -1], "rot": 180, "wheel": {"icon": 1}}]}),
            "no tile E with wheel icon 1",
        ),
        (
            json!({"turns": [{"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"crown": {"sector": "luck"}}}]}),
            "luck",
        ),
        (
            json!({"turns": [{"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"pestilence": [null, null]}}]}),
            "wheel icon",
        ),
        (
            json!({"turns": [{"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"icon": 1, "pestilence": [null, null]}}]}),
            "no follower returns",
        ),
        (
            json!({"turns": [{"tile": "U", "at": [4, 1], "rot": 0, "wheel": {"crown": {"sector": "taxes", "figure": "builder"}}}]}),
            "builder",
        ),
    ];
    for (patch, needle) in cases {
        let mut doc = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            doc[k] = v.clone();
        }
        let err = match Record::from_json(&doc.to_string()) {
            Err(e) => e.to_string(),
            Ok(record) => record.replay().unwrap_err().to_string(),
        };
        assert!(err.contains(needle), "{needle}: {err}");
    }
}

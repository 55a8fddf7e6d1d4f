//! Runs every rulebook scenario in `tests/scenarios/*.json`.
//!
//! Each file holds a game record built to reproduce a worked example or an official
//! clarification from the rulebooks, and what the rulebook says must come of it: the complete
//! list of score events and every player's total — or, for a move the rules forbid, the turn
//! that must be refused.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use meeplecam::record::{Record, ReplayError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    source: String,
    description: String,
    record: serde_json::Value,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    events: Vec<Event>,
    #[serde(default, rename = "final")]
    totals: Option<serde_json::Map<String, serde_json::Value>>,
    /// For a forbidden move: the 1-based turn that must be refused.
    #[serde(default)]
    illegal_turn: Option<usize>,
}

#[derive(Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
struct Event {
    turn: Option<u32>,
    players: Vec<String>,
    points: u32,
    feature: String,
    cause: String,
}

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn run(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let sc: Scenario = serde_json::from_str(&text).map_err(|e| format!("bad scenario: {e}"))?;
    assert!(!sc.source.is_empty() && !sc.description.is_empty());
    let record = Record::from_json(&sc.record.to_string()).map_err(|e| e.to_string())?;
    let replay = record.replay();
    if let Some(turn) = sc.expect.illegal_turn {
        return match replay {
            Err(ReplayError::Turn { turn: t, .. }) if t == turn => Ok(()),
            Err(e) => Err(format!("expected turn {turn} refused, got: {e}")),
            Ok(_) => Err(format!(
                "expected turn {turn} refused, but the record replayed"
            )),
        };
    }
    let replay = replay.map_err(|e| e.to_string())?;
    let mut got: Vec<Event> = replay
        .events
        .iter()
        .map(|e| Event {
            turn: e.turn,
            players: e
                .players
                .iter()
                .map(|p| replay.names[p.index()].clone())
                .collect(),
            points: e.points,
            feature: e.feature.name().to_string(),
            cause: e.cause.name().to_string(),
        })
        .collect();
    let mut want = sc.expect.events.clone();
    got.sort();
    want.sort();
    if got != want {
        return Err(format!(
            "events differ\n  expected: {want:?}\n  got:      {got:?}"
        ));
    }
    let totals = sc.expect.totals.ok_or("scenario gives no final totals")?;
    for (name, points) in totals {
        let seat = replay
            .names
            .iter()
            .position(|n| *n == name)
            .ok_or(format!("no player {name}"))?;
        let got = u64::from(replay.game.scores()[seat]);
        if Some(got) != points.as_u64() {
            return Err(format!("{name}: expected {points}, got {got}"));
        }
    }
    Ok(())
}

#[test]
fn rulebook_scenarios() {
    let files = scenario_files();
    assert!(files.len() >= 10, "only {} scenario files", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| {
            run(p)
                .err()
                .map(|e| format!("{}: {e}", p.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

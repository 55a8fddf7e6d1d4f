//! `meeplecam track` with a journal: the process killed mid-game, a torn last line, and the
//! resumed run carrying on with every committed turn intact.
#![cfg(feature = "vision")]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use meeplecam::record::journal::Journal;
use meeplecam::record::{Record, TurnEntry};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeplecam-track-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn laid(turns: &[TurnEntry]) -> Vec<(String, Option<meeplecam::rules::Pos>, Option<u16>)> {
    turns
        .iter()
        .map(|t| (t.tile.clone(), t.at, t.rot))
        .collect()
}

#[test]
fn killing_the_tracker_mid_game_loses_no_committed_turn() {
    let dir = scratch("kill");
    let journal = dir.join("game.journal");
    let bin = env!("CARGO_BIN_EXE_meeplecam");
    let mut child = Command::new(bin)
        .args(["track", "--source", "sim:1", "--journal"])
        .arg(&journal)
        .arg("--record-out")
        .arg(dir.join("never.json"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until a few turns are committed, then kill it without warning.
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let lines = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 6 {
            break;
        }
        assert!(Instant::now() < deadline, "no turns committed in time");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the tracker ended early"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!dir.join("never.json").exists());

    // What the journal held at the moment of the kill.
    let text = std::fs::read_to_string(&journal).unwrap();
    let (_, at_kill) = Journal::resume(&journal).unwrap();
    let committed = at_kill.record.turns;
    assert!(committed.len() >= 4, "{} turns", committed.len());
    // Then the disk tears the journal's next line in half.
    std::fs::write(&journal, text + "{\"set\": 99, \"tur").unwrap();

    let out_path = dir.join("resumed.json");
    let out = Command::new(bin)
        .args(["track", "--source", "sim:1", "--resume"])
        .arg(&journal)
        .arg("--record-out")
        .arg(&out_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("damaged"),
        "the torn line is reported: {stderr}"
    );
    assert!(dir.join("game.journal.damaged").exists());
    let resumed = Record::from_json(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert!(
        resumed.turns.len() > committed.len() + 5,
        "the game went on"
    );
    // Every turn committed before the kill is there, unchanged (the open one may have gained
    // its follower since).
    let n = committed.len();
    assert_eq!(laid(&resumed.turns[..n]), laid(&committed));
    assert_eq!(resumed.turns[..n - 1], committed[..n - 1]);
    resumed
        .replay()
        .expect("the resumed game follows the rules");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unreadable_image_in_a_folder_is_passed_over_and_the_game_kept() {
    use meeplecam::camera::FrameSource;
    use meeplecam::sim::game::film_game;
    let dir = scratch("folder");
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    // A short filmed game written out as images (at the 10 frames/s an image folder plays),
    // one of them in the middle torn to junk.
    let film = film_game(4, 3, 10.0).unwrap();
    let mut source = film.source;
    let mut written = 0;
    while let Some(frame) = source.next_frame().unwrap() {
        let path = frames.join(format!("{:05}.png", frame.index));
        opencv::imgcodecs::imwrite(
            path.to_str().unwrap(),
            &frame.image,
            &opencv::core::Vector::new(),
        )
        .unwrap();
        written += 1;
    }
    let torn = frames.join(format!("{:05}.png", written / 2));
    std::fs::write(&torn, b"\x89PNG not really").unwrap();
    let players: Vec<String> = film
        .record
        .players
        .iter()
        .map(|p| format!("{}:{}", p.name, p.colour))
        .collect();

    let out_path = dir.join("game.json");
    let out = Command::new(env!("CARGO_BIN_EXE_meeplecam"))
        .args(["track", "--players", &players.join(","), "--source"])
        .arg(&frames)
        .arg("--record-out")
        .arg(&out_path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("{:05}.png", written / 2)),
        "the torn image is named: {stderr}"
    );
    let tracked = Record::from_json(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert_eq!(laid(&tracked.turns), laid(&film.record.turns));
    std::fs::remove_dir_all(dir).unwrap();
}

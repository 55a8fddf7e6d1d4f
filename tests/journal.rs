//! The journal: every committed change survives a crash; a damaged journal loses nothing that
//! was written before the damage and is kept aside.

use std::path::{Path, PathBuf};

use meeplecam::record::journal::{Journal, JournalError};
use meeplecam::record::selfplay::random_record;
use meeplecam::record::{FollowerEntry, Record, TurnEntry};
use meeplecam::rules::{Figure, Pos, RuleOptions};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeplecam-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A legal game of `turns` turns (random, seeded).
fn game(turns: usize) -> Record {
    let mut r = random_record("base", 3, RuleOptions::default(), 11).unwrap();
    r.turns.truncate(turns);
    r
}

fn setup_of(r: &Record) -> Record {
    let mut s = r.clone();
    s.turns.clear();
    s
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn every_change_is_on_disk_when_sync_returns() {
    let dir = scratch("changes");
    let path = dir.join("g.journal");
    let r = game(6);
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    // Turn by turn, as the tracker commits them.
    for n in 1..=4 {
        assert_eq!(j.sync(&r.turns[..n]).unwrap(), 1);
    }
    assert_eq!(
        j.sync(&r.turns[..4]).unwrap(),
        0,
        "nothing new, nothing written"
    );
    // The open turn gains its follower later: turn 4 is set again.
    let mut with_follower = r.turns[..4].to_vec();
    let mut open = with_follower[3].clone();
    open.follower = None;
    with_follower[3] = open.clone();
    j.sync(&with_follower).unwrap();
    // Undo twice, then a different turn 3.
    j.sync(&r.turns[..2]).unwrap();
    j.sync(&r.turns[..3]).unwrap();
    drop(j);
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert!(resumed.warnings.is_empty(), "{:?}", resumed.warnings);
    assert_eq!(resumed.record.turns, r.turns[..3].to_vec());
    assert_eq!(resumed.record.players, r.players);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_journal_is_never_overwritten() {
    let dir = scratch("exists");
    let path = dir.join("g.journal");
    let r = game(2);
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    j.sync(&r.turns).unwrap();
    drop(j);
    assert!(matches!(
        Journal::create(&path, &setup_of(&r)),
        Err(JournalError::Exists(_))
    ));
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.turns, r.turns);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_line_cut_short_by_a_power_cut_loses_only_itself() {
    let dir = scratch("cut");
    let path = dir.join("g.journal");
    let r = game(5);
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    for n in 1..=5 {
        j.sync(&r.turns[..n]).unwrap();
    }
    drop(j);
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = &text[..text.len() - 20]; // the last line half written
    std::fs::write(&path, cut).unwrap();
    let (mut j, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.turns, r.turns[..4].to_vec());
    assert!(
        resumed.warnings.iter().any(|w| w.contains("line 6")),
        "{:?}",
        resumed.warnings
    );
    // The damaged file is kept; the journal in its place is clean and goes on.
    assert_eq!(
        std::fs::read_to_string(dir.join("g.journal.damaged")).unwrap(),
        cut
    );
    j.sync(&r.turns).unwrap();
    drop(j);
    let (_, again) = Journal::resume(&path).unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert_eq!(again.record.turns, r.turns);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn garbage_in_the_middle_keeps_everything_before_it() {
    let dir = scratch("garbage");
    let path = dir.join("g.journal");
    let r = game(6);
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    for n in 1..=6 {
        j.sync(&r.turns[..n]).unwrap();
    }
    drop(j);
    let mut text: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    text[4] = "\u{0}\u{1}not json at all".to_string(); // turn 4's line
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.turns, r.turns[..3].to_vec());
    assert!(dir.join("g.journal.damaged").exists());
    assert_eq!(lines(&path), 4, "setup and three turns rewritten");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_turn_that_breaks_the_rules_ends_the_recovery_before_it() {
    let dir = scratch("illegal");
    let path = dir.join("g.journal");
    let r = game(3);
    let mut turns = r.turns.clone();
    // A city cap on top of the start tile's cell: occupied, illegal.
    turns.push(TurnEntry::laid("E", Pos::new(0, 0), 0));
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    j.sync(&turns).unwrap();
    drop(j);
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.turns, r.turns);
    assert!(
        resumed.warnings.iter().any(|w| w.contains("turn 4")),
        "{:?}",
        resumed.warnings
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_set_line_that_skips_turns_is_damage() {
    let dir = scratch("skip");
    let path = dir.join("g.journal");
    let r = game(2);
    let mut j = Journal::create(&path, &setup_of(&r)).unwrap();
    j.sync(&r.turns[..1]).unwrap();
    drop(j);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let turn = serde_json::to_string(&r.turns[1]).unwrap();
    text += &format!("{{\"set\":5,\"turn\":{turn}}}\n");
    std::fs::write(&path, text).unwrap();
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.turns, r.turns[..1].to_vec());
    assert!(!resumed.warnings.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn without_a_readable_setup_there_is_nothing_to_resume_and_nothing_is_touched() {
    let dir = scratch("nosetup");
    for (name, text) in [
        ("empty.journal", ""),
        ("garbage.journal", "PK\u{3}\u{4} zip file?\n"),
        ("version.journal", "{\"meeplecam_journal\": 99, \"setup\": {\"meeplecam\": 1, \"players\": []}}\n"),
        ("tileset.journal", "{\"meeplecam_journal\": 1, \"setup\": {\"meeplecam\": 1, \"tileset\": \"nope\", \"players\": [{\"name\": \"A\", \"colour\": \"red\"}]}}\n"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = Journal::resume(&path).unwrap_err();
        assert!(matches!(err, JournalError::NoSetup { .. }), "{name}: {err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{name} untouched");
    }
    assert!(matches!(
        Journal::resume(&dir.join("missing.journal")),
        Err(JournalError::Io { .. })
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_follower_added_to_the_open_turn_is_kept() {
    let dir = scratch("follower");
    let path = dir.join("g.journal");
    // The rulebook's first example: a city cap north of the start tile closes a two-tile city.
    let setup = Record::from_json(
        r#"{"meeplecam": 1, "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]}"#,
    )
    .unwrap();
    let mut cap = TurnEntry::laid("E", Pos::new(0, -1), 180);
    let mut j = Journal::create(&path, &setup).unwrap();
    j.sync(std::slice::from_ref(&cap)).unwrap();
    cap.follower = Some(FollowerEntry {
        port: "S".into(),
        figure: Figure::Normal,
    });
    j.sync(std::slice::from_ref(&cap)).unwrap();
    drop(j);
    let (_, resumed) = Journal::resume(&path).unwrap();
    assert_eq!(resumed.record.replay().unwrap().game.scores(), &[4, 0]);
    std::fs::remove_dir_all(dir).unwrap();
}

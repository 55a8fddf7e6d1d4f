//! The journal: a game written down turn by turn as it is committed, so that a crash or a power
//! cut never loses a committed turn.
//!
//! A journal is a text file of JSON lines. The first line holds the game's setup (a [`Record`]
//! with no turns); every later line either sets turn `n` (a new turn, a follower added to the
//! open turn, a correction) or truncates the game to its first `n` turns (undo). Each write is
//! flushed to the disk before [`Journal::sync`] returns. Reading a damaged journal keeps every
//! line before the damage, sets the damaged file aside and starts a clean one.
//!
//! ```
//! use meeplecam::record::journal::Journal;
//! use meeplecam::record::{Record, TurnEntry};
//!
//! let dir = std::env::temp_dir().join(format!("journal-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("game.journal");
//! let setup = Record::from_json(r#"{"meeplecam": 1, "players": [
//!     {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]}"#)?;
//! let mut journal = Journal::create(&path, &setup)?;
//! let cap = TurnEntry::laid("E", meeplecam::rules::Pos::new(0, -1), 180);
//! journal.sync(&[cap.clone()])?;
//! drop(journal); // the process dies here
//!
//! let (_journal, resumed) = Journal::resume(&path)?;
//! assert_eq!(resumed.record.turns, vec![cap]);
//! assert!(resumed.warnings.is_empty());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Record, TurnEntry};

/// The journal format version this build writes and reads.
pub const JOURNAL_VERSION: u32 = 1;

/// The first line: which game this is.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    meeplecam_journal: u32,
    setup: Record,
}

/// Every later line: one change to the list of turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Line {
    /// Turn `set` (0-based) is now `turn`; `set` is at most the number of turns so far.
    Set { set: usize, turn: TurnEntry },
    /// Only the first `truncate` turns remain.
    Truncate { truncate: usize },
}

/// Why a journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file system refused.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// Not even the first line (the game's setup) can be read: nothing to resume.
    #[error("journal {path} has no readable setup line: {reason}")]
    NoSetup {
        /// The journal.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A new journal would overwrite an existing one.
    #[error("journal {0} already exists: resume it, or choose another file")]
    Exists(PathBuf),
}

/// A game resumed from its journal.
#[derive(Clone, Debug)]
pub struct Resumed {
    /// The setup and every turn recovered.
    pub record: Record,
    /// What was damaged and left out (empty for a clean journal).
    pub warnings: Vec<String>,
}

/// An open journal, appending as turns are committed.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
    /// The turns as the file says them.
    written: Vec<TurnEntry>,
}

impl Journal {
    /// Starts a journal for a new game (`setup`'s turns are written too). Never overwrites.
    pub fn create(path: &Path, setup: &Record) -> Result<Journal, JournalError> {
        if path.exists() {
            return Err(JournalError::Exists(path.to_path_buf()));
        }
        Journal::write_fresh(path, setup)
    }

    /// Reopens a journal after a crash: every readable turn that the rules accept, in order.
    /// If anything is damaged, the file is renamed to `PATH.damaged` (kept, never deleted) and a
    /// clean journal with the recovered turns takes its place.
    pub fn resume(path: &Path) -> Result<(Journal, Resumed), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let text = std::fs::read(path).map_err(io)?;
        let text = String::from_utf8_lossy(&text);
        let mut lines = text.split_inclusive('\n');
        let no_setup = |reason: String| JournalError::NoSetup {
            path: path.to_path_buf(),
            reason,
        };
        let first = lines
            .next()
            .ok_or_else(|| no_setup("the file is empty".into()))?;
        let header: Header =
            serde_json::from_str(first.trim_end()).map_err(|e| no_setup(e.to_string()))?;
        if header.meeplecam_journal != JOURNAL_VERSION {
            return Err(no_setup(format!(
                "unsupported journal version {} (this build reads {JOURNAL_VERSION})",
                header.meeplecam_journal
            )));
        }
        let mut record = header.setup;
        let mut warnings = Vec::new();
        for (i, raw) in lines.enumerate() {
            let number = i + 2;
            match parse_line(raw, record.turns.len()) {
                Ok(Line::Set { set, turn }) => {
                    record.turns.truncate(set);
                    record.turns.push(turn);
                }
                Ok(Line::Truncate { truncate }) => record.turns.truncate(truncate),
                Err(reason) => {
                    warnings.push(format!(
                        "line {number} is damaged ({reason}); it and everything after it are left out"
                    ));
                    break;
                }
            }
        }
        if let Err(e) = record.replay_open() {
            let keep = match &e {
                super::ReplayError::Turn { turn, .. } => turn - 1,
                super::ReplayError::Setup(_) => return Err(no_setup(e.to_string())),
            };
            warnings.push(format!(
                "{e}; the game is resumed after turn {keep} and later turns are left out"
            ));
            record.turns.truncate(keep);
        }
        let journal = if warnings.is_empty() {
            let file = OpenOptions::new().append(true).open(path).map_err(io)?;
            Journal {
                path: path.to_path_buf(),
                file,
                written: record.turns.clone(),
            }
        } else {
            let damaged = damaged_name(path);
            std::fs::rename(path, &damaged).map_err(io)?;
            warnings.push(format!(
                "the damaged journal is kept as {}",
                damaged.display()
            ));
            Journal::write_fresh(path, &record)?
        };
        Ok((journal, Resumed { record, warnings }))
    }

    /// Where the journal lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes whatever changed since the last call so that the journal says exactly `turns`,
    /// and flushes it to the disk. Returns the number of lines written.
    pub fn sync(&mut self, turns: &[TurnEntry]) -> Result<usize, JournalError> {
        let same = self
            .written
            .iter()
            .zip(turns)
            .take_while(|(a, b)| a == b)
            .count();
        let mut lines = Vec::new();
        if same < self.written.len() && same == turns.len() {
            lines.push(Line::Truncate { truncate: same });
        }
        for (i, turn) in turns.iter().enumerate().skip(same) {
            lines.push(Line::Set {
                set: i,
                turn: turn.clone(),
            });
        }
        if lines.is_empty() {
            return Ok(0);
        }
        let mut text = String::new();
        for line in &lines {
            text += &serde_json::to_string(line).expect("journal lines always serialise");
            text.push('\n');
        }
        self.append(&text)?;
        self.written = turns.to_vec();
        Ok(lines.len())
    }

    fn append(&mut self, text: &str) -> Result<(), JournalError> {
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)
    }

    /// Writes `record` as a new journal through a temporary file renamed into place.
    fn write_fresh(path: &Path, record: &Record) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut setup = record.clone();
        setup.turns.clear();
        let header = Header {
            meeplecam_journal: JOURNAL_VERSION,
            setup,
        };
        let mut text = serde_json::to_string(&header).expect("headers always serialise") + "\n";
        for (i, turn) in record.turns.iter().enumerate() {
            let line = Line::Set {
                set: i,
                turn: turn.clone(),
            };
            text += &serde_json::to_string(&line).expect("journal lines always serialise");
            text.push('\n');
        }
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".new");
        let temporary = PathBuf::from(temporary);
        let mut file = File::create(&temporary).map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // Make the rename itself durable.
            File::open(dir).and_then(|d| d.sync_all()).map_err(io)?;
        }
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            written: record.turns.clone(),
        })
    }
}

/// One line after the header, checked against the number of turns so far.
fn parse_line(raw: &str, turns: usize) -> Result<Line, String> {
    if !raw.ends_with('\n') {
        return Err("cut short".into());
    }
    let line: Line = serde_json::from_str(raw.trim_end()).map_err(|e| e.to_string())?;
    match &line {
        Line::Set { set, .. } if *set > turns => Err(format!(
            "sets turn {} but only {turns} turns precede it",
            set + 1
        )),
        Line::Truncate { truncate } if *truncate > turns => {
            Err(format!("keeps {truncate} turns but only {turns} exist"))
        }
        _ => Ok(line),
    }
}

/// `PATH.damaged`, or `PATH.damaged-2`, … if that exists.
fn damaged_name(path: &Path) -> PathBuf {
    let with = |suffix: String| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let mut candidate = with(".damaged".into());
    let mut n = 2;
    while candidate.exists() {
        candidate = with(format!(".damaged-{n}"));
        n += 1;
    }
    candidate
}

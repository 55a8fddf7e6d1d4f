//! A tracked game that survives the process: the tracker, its journal (every committed change
//! flushed to disk as it happens) and the table calibration saved beside it.

use std::path::{Path, PathBuf};

use anyhow::Context;
use opencv::core::Mat;

use super::{Event, Tracker};
use crate::record::journal::Journal;
use crate::record::{PlayerEntry, TurnEntry};
use crate::vision::calibration::Calibration;

/// A game being followed, with its journal.
pub struct Session {
    tracker: Tracker,
    journal: Option<Journal>,
    /// Warnings from resuming a damaged journal, and anything else the players should read.
    pub notices: Vec<String>,
}

/// The calibration file kept beside a journal.
pub fn calibration_path(journal: &Path) -> PathBuf {
    let mut name = journal.as_os_str().to_owned();
    name.push(".calibration.yaml");
    PathBuf::from(name)
}

impl Session {
    /// A new game between `players`; with `journal`, every committed change is written there
    /// (the file must not exist yet).
    pub fn start(
        players: Vec<PlayerEntry>,
        calibration: Option<Calibration>,
        journal: Option<&Path>,
    ) -> anyhow::Result<Session> {
        let tracker = Tracker::new(players, calibration)?;
        let journal = match journal {
            Some(path) => {
                let journal = Journal::create(path, &tracker.record())?;
                if let Some(c) = tracker.calibration() {
                    c.save(&calibration_path(path))?;
                }
                Some(journal)
            }
            None => None,
        };
        Ok(Session {
            tracker,
            journal,
            notices: Vec::new(),
        })
    }

    /// Continues the game a journal holds, exactly where it stopped. The table calibration
    /// saved beside the journal is used unless `calibration` is given; without either, the
    /// start tile is looked for again.
    pub fn resume(journal: &Path, calibration: Option<Calibration>) -> anyhow::Result<Session> {
        let (file, resumed) = Journal::resume(journal)?;
        let mut notices = resumed.warnings;
        let saved = calibration_path(journal);
        let calibration = match calibration {
            Some(c) => Some(c),
            None if saved.exists() => match Calibration::load(&saved) {
                Ok(c) => Some(c),
                Err(e) => {
                    notices.push(format!("{e:#}; looking for the start tile again"));
                    None
                }
            },
            None => None,
        };
        let mut tracker = Tracker::new(resumed.record.players.clone(), calibration)?;
        tracker
            .restore(resumed.record.turns)
            .context("the journal's turns break the rules")?;
        Ok(Session {
            tracker,
            journal: Some(file),
            notices,
        })
    }

    /// The same session looking for the figure colours the players enrolled (see
    /// [`Tracker::with_enrolment`]).
    pub fn with_enrolment(self, colours: Vec<[f32; 3]>) -> anyhow::Result<Session> {
        Ok(Session {
            tracker: self.tracker.with_enrolment(colours)?,
            ..self
        })
    }

    /// The tracker, to read the game from.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The journal's file, if there is one.
    pub fn journal_path(&self) -> Option<&Path> {
        self.journal.as_ref().map(Journal::path)
    }

    /// Looks at the next frame (taken at `time_s`, if the source has a clock); whatever it
    /// commits is in the journal before this returns.
    pub fn feed(&mut self, frame: &Mat, time_s: Option<f64>) -> anyhow::Result<Vec<Event>> {
        let events = self.tracker.feed_at(frame, time_s)?;
        if events.contains(&Event::Registered) {
            if let (Some(j), Some(c)) = (&self.journal, self.tracker.calibration()) {
                c.save(&calibration_path(j.path()))?;
            }
        }
        self.write_down()?;
        Ok(events)
    }

    /// The pictures have ended: the tracker's open doubts become questions.
    pub fn end_of_pictures(&mut self) -> Vec<Event> {
        self.tracker.end_of_pictures()
    }

    /// Takes back the last turn.
    pub fn undo(&mut self) -> anyhow::Result<Option<TurnEntry>> {
        let undone = self.tracker.undo()?;
        self.write_down()?;
        Ok(undone)
    }

    /// Replaces turn `index` (0-based); refused, changing nothing, if it breaks the rules.
    pub fn correct(&mut self, index: usize, entry: TurnEntry) -> anyhow::Result<()> {
        self.tracker.correct(index, entry)?;
        self.write_down()
    }

    fn write_down(&mut self) -> anyhow::Result<()> {
        if let Some(j) = &mut self.journal {
            j.sync(&self.tracker.turns())?;
        }
        Ok(())
    }
}

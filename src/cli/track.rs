//! `meeplecam track`: frames in, game record out, with no window — and the same loop for the
//! app's terminal mode when there is no display.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context};
use serde_json::json;

use meeplecam::camera::undistort::Undistorted;
use meeplecam::camera::{self, FrameSource, Opened, SourceSpec};
use meeplecam::record::{PlayerEntry, Record};
use meeplecam::track::session::Session;
use meeplecam::track::Event;
use meeplecam::vision::calibration::Calibration;
use meeplecam::vision::intrinsics::{Intrinsics, Undistorter};

use super::Failure;

/// Follow a game from a video, an image folder, the simulated table or a webcam, and write the
/// record it saw.
#[derive(Debug, clap::Args)]
pub struct TrackArgs {
    /// A video file, a folder of images, `sim[:SEED]` (the simulated table) or `webcam[:NAME]`.
    #[arg(long)]
    source: SourceSpec,
    /// Players in turn order: NAME:COLOUR,NAME:COLOUR,… (the simulated table and a resumed
    /// journal bring their own).
    #[arg(long)]
    players: Option<String>,
    /// A table calibration; without one the first quiet frame must show the start tile alone.
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Camera intrinsics (from `meeplecam calibrate intrinsics`): every frame is undistorted
    /// first (make the table calibration with the same file).
    #[arg(long)]
    camera: Option<PathBuf>,
    /// Tile set (only `base` is tracked yet).
    #[arg(long, default_value = "base")]
    tile_set: String,
    /// Where to write the reconstructed record.
    #[arg(long)]
    record_out: PathBuf,
    /// Write every committed change to this journal as it happens (a new file).
    #[arg(long, conflicts_with = "resume")]
    journal: Option<PathBuf>,
    /// Continue the game in this journal (after a crash), appending to it.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Print the events and questions as JSON.
    #[arg(long)]
    json: bool,
}

/// Parses `NAME:COLOUR,NAME:COLOUR,…`.
pub fn parse_players(text: &str) -> anyhow::Result<Vec<PlayerEntry>> {
    text.split(',')
        .map(|p| {
            let (name, colour) = p
                .split_once(':')
                .ok_or_else(|| anyhow!("player {p:?} is not NAME:COLOUR"))?;
            let colour = colour.trim().parse().map_err(|e: String| anyhow!(e))?;
            if name.trim().is_empty() {
                bail!("a player has no name");
            }
            Ok(PlayerEntry {
                name: name.trim().to_string(),
                colour,
            })
        })
        .collect()
}

/// How the loop reports what it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// One line per event, as it happens.
    Lines,
    /// Nothing while running (the caller prints JSON at the end).
    Quiet,
}

/// What a followed stream produced.
pub struct Followed {
    /// Every event with its frame number.
    pub events: Vec<(u64, Event)>,
    /// The game as committed.
    pub record: Record,
    /// Questions the players would have been asked.
    pub questions: Vec<String>,
    /// Frames that could not be read or tracked, and why (each passed over).
    pub troubles: Vec<String>,
}

/// The most frames in a row a recorded source may fail to give before the run stops.
const MOST_BAD_FRAMES_IN_A_ROW: usize = 50;

/// Feeds every frame of `source` to `session` until the source ends or `stop` is set; a live
/// source's outages are reported and waited out. A recorded frame that cannot be read, or a
/// frame the tracker fails on, is reported and passed over (the game so far is kept); only a
/// long run of unreadable frames stops it.
pub fn follow(
    session: &mut Session,
    source: &mut dyn FrameSource,
    report: Report,
    stop: &AtomicBool,
) -> anyhow::Result<Followed> {
    let mut events = Vec::new();
    let mut troubles: Vec<String> = Vec::new();
    let mut trouble = |what: String| {
        if report == Report::Lines {
            eprintln!("{what}");
        }
        troubles.push(what);
    };
    let mut outage = false;
    let mut bad_in_a_row = 0;
    while !stop.load(Ordering::Relaxed) {
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) if source.is_live() => {
                if !outage && report == Report::Lines {
                    eprintln!("{e:#}");
                }
                outage = true;
                continue;
            }
            Err(e) if bad_in_a_row < MOST_BAD_FRAMES_IN_A_ROW => {
                bad_in_a_row += 1;
                trouble(format!("a frame was passed over: {e:#}"));
                continue;
            }
            Err(e) => return Err(e.context("reading frames")),
        };
        outage = false;
        bad_in_a_row = 0;
        let fed = match session.feed(&frame.image, Some(frame.time_s)) {
            Ok(fed) => fed,
            Err(e) => {
                trouble(format!("frame {} could not be tracked: {e:#}", frame.index));
                continue;
            }
        };
        for event in fed {
            if report == Report::Lines {
                println!("frame {:>5}: {}", frame.index, describe(session, &event));
            }
            events.push((frame.index, event));
        }
    }
    // Doubts a later picture could have settled are asked now.
    let last = events.last().map_or(0, |e: &(u64, Event)| e.0);
    for event in session.end_of_pictures() {
        if report == Report::Lines {
            println!("end of pictures: {}", describe(session, &event));
        }
        events.push((last, event));
    }
    Ok(Followed {
        events,
        record: session.tracker().record(),
        questions: session.tracker().questions().to_vec(),
        troubles,
    })
}

/// An event in words, with the player's name.
fn describe(session: &Session, event: &Event) -> String {
    let tracker = session.tracker();
    let turns = tracker.turns();
    let who = turns
        .last()
        .and_then(|t| t.player.clone())
        .unwrap_or_default();
    match event {
        Event::Registered => "table registered from the start tile".to_string(),
        Event::Tile { pos, tile, rot } => {
            format!("{who} laid {tile} at ({}, {}) turned {rot}°", pos.x, pos.y)
        }
        Event::Follower { port } => format!("{who} put a follower on {port}"),
        Event::Question(q) => format!("question: {q}"),
        Event::InHand { tile: Some(tile) } => format!("tile in hand: {tile}"),
        Event::InHand { tile: None } => "no tile in hand".to_string(),
    }
}

/// Stops the loop on Ctrl-C (the journal already holds every committed turn).
pub fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Another handler may already be installed (tests running several commands): then
    // Ctrl-C simply ends the process, which loses nothing either.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

/// Opens the session the arguments ask for: resumed, or new with the given players.
pub fn open_session(
    players: Option<Vec<PlayerEntry>>,
    truth: Option<&Record>,
    calibration: Option<Calibration>,
    journal: Option<&Path>,
    resume: Option<&Path>,
) -> Result<Session, Failure> {
    if let Some(path) = resume {
        let session = Session::resume(path, calibration).map_err(Failure::BadInput)?;
        for n in &session.notices {
            eprintln!("warning: {n}");
        }
        return Ok(session);
    }
    let players = match (players, truth) {
        (Some(p), _) => p,
        (None, Some(t)) => t.players.clone(),
        (None, None) => {
            return Err(Failure::BadInput(anyhow!(
                "say who plays: --players NAME:COLOUR,NAME:COLOUR"
            )))
        }
    };
    Session::start(players, calibration, journal).map_err(Failure::BadInput)
}

pub fn run(args: TrackArgs) -> Result<(), Failure> {
    if args.tile_set != "base" {
        return Err(Failure::BadInput(anyhow!(
            "only the base tile set is tracked yet"
        )));
    }
    let players = match &args.players {
        Some(p) => Some(parse_players(p).map_err(Failure::BadInput)?),
        None => None,
    };
    let calibration = match &args.calibration {
        Some(path) => Some(Calibration::load(path).map_err(Failure::BadInput)?),
        None => None,
    };
    let undistorter = match &args.camera {
        Some(path) => {
            let intrinsics = Intrinsics::load(path).map_err(Failure::BadInput)?;
            Some(Undistorter::new(&intrinsics).context("undistortion maps")?)
        }
        None => None,
    };
    let Opened { mut source, truth } = camera::open(&args.source)?;
    if let Some(u) = undistorter {
        source = Box::new(Undistorted::new(source, u));
    }
    let mut session = open_session(
        players,
        truth.as_ref(),
        calibration,
        args.journal.as_deref(),
        args.resume.as_deref(),
    )?;
    let stop = stop_on_ctrl_c();
    let report = if args.json {
        Report::Quiet
    } else {
        Report::Lines
    };
    let followed = follow(&mut session, source.as_mut(), report, &stop)?;
    let record = followed.record;
    std::fs::write(&args.record_out, record.to_json() + "\n")
        .with_context(|| format!("cannot write {}", args.record_out.display()))?;
    if args.json {
        let events: Vec<_> = followed
            .events
            .iter()
            .map(|(f, e)| json!({"frame": f, "event": format!("{e:?}")}))
            .collect();
        println!(
            "{:#}",
            json!({
                "events": events,
                "questions": followed.questions,
                "troubles": followed.troubles,
                "turns": record.turns.len()
            })
        );
    } else {
        for q in &followed.questions {
            println!("question: {q}");
        }
        println!(
            "{} turns written to {}",
            record.turns.len(),
            args.record_out.display()
        );
    }
    Ok(())
}

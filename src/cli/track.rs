//! `meeplecam track`: frames in, game record out, with no window.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use serde_json::json;

use meeplecam::camera::{FrameSource, ImageFolder, VideoFile};
use meeplecam::record::PlayerEntry;
use meeplecam::track::{Event, Tracker};
use meeplecam::vision::calibration::Calibration;

use super::Failure;

/// Follow a game from a video or an image folder and write the record it saw.
#[derive(Debug, clap::Args)]
pub struct TrackArgs {
    /// A video file or a folder of images (webcams come with the app).
    #[arg(long)]
    source: PathBuf,
    /// Players in turn order: NAME:COLOUR,NAME:COLOUR,…
    #[arg(long)]
    players: String,
    /// A table calibration; without one the first quiet frame must show the start tile alone.
    #[arg(long)]
    calibration: Option<PathBuf>,
    /// Tile set (only `base` is tracked yet).
    #[arg(long, default_value = "base")]
    tile_set: String,
    /// Where to write the reconstructed record.
    #[arg(long)]
    record_out: PathBuf,
    /// Print the events and questions as JSON.
    #[arg(long)]
    json: bool,
}

fn parse_players(text: &str) -> anyhow::Result<Vec<PlayerEntry>> {
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

pub fn run(args: TrackArgs) -> Result<(), Failure> {
    if args.tile_set != "base" {
        return Err(Failure::BadInput(anyhow!(
            "only the base tile set is tracked yet"
        )));
    }
    let players = parse_players(&args.players).map_err(Failure::BadInput)?;
    let calibration = match &args.calibration {
        Some(path) => Some(Calibration::load(path).map_err(Failure::BadInput)?),
        None => None,
    };
    let mut source: Box<dyn FrameSource> = if args.source.is_dir() {
        Box::new(ImageFolder::open(&args.source, 10.0)?)
    } else {
        Box::new(VideoFile::open(&args.source)?)
    };
    let mut tracker = Tracker::new(players, calibration).map_err(Failure::BadInput)?;
    let mut log = Vec::new();
    while let Some(frame) = source.next_frame().context("reading frames")? {
        for event in tracker.feed(&frame.image).context("tracking")? {
            if !args.json {
                println!("frame {:>5}: {event:?}", frame.index);
            }
            log.push(json!({"frame": frame.index, "event": format!("{event:?}")}));
            if let Event::Question(q) = event {
                eprintln!("question: {q}");
            }
        }
    }
    let questions = tracker.questions().to_vec();
    let record = tracker.into_record()?;
    std::fs::write(&args.record_out, record.to_json() + "\n")
        .with_context(|| format!("cannot write {}", args.record_out.display()))?;
    if args.json {
        println!(
            "{:#}",
            json!({"events": log, "questions": questions, "turns": record.turns.len()})
        );
    } else {
        for q in &questions {
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

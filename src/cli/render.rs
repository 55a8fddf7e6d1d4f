//! `meeplecam render`: a game record filmed by the simulated camera.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::ValueEnum;

use meeplecam::sim::output::{write_film, write_png, Sink};
use meeplecam::sim::scene::Renderer;
use meeplecam::sim::sheet::contact_sheet;
use meeplecam::sim::showcase::expansion_sheet;
use meeplecam::sim::style::Style;
use meeplecam::sim::table::Surface;
use meeplecam::sim::timeline::{Film, Filming, View};

use super::input::read_record;
use super::Failure;

/// Camera position.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ViewArg {
    /// Straight down.
    Overhead,
    /// From the side, 35–45° off vertical.
    Oblique,
}

/// Image size.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Resolution {
    /// 1280×720.
    #[value(name = "720p")]
    Hd,
    /// 1920×1080.
    #[value(name = "1080p")]
    FullHd,
}

/// Film a game record with the simulated camera (video, frame folder, or one still).
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The game record (or .jcz file).
    #[arg(long, required_unless_present = "expansion_sheet")]
    record: Option<PathBuf>,
    /// A video (.avi, .mkv: FFV1, pixel-exact), a folder of PNG frames, or with --still a PNG.
    #[arg(long)]
    out: PathBuf,
    /// Art style (0–3).
    #[arg(long, default_value_t = 0)]
    style: usize,
    /// Seed of placement errors, light, camera, arms and the table top.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Camera position.
    #[arg(long, value_enum, default_value = "overhead")]
    view: ViewArg,
    /// Frames per second.
    #[arg(long, default_value_t = 10.0)]
    fps: f64,
    /// Image size.
    #[arg(long, value_enum, default_value = "720p")]
    resolution: Resolution,
    /// Render only the final board as one image (plus its truth as JSON).
    #[arg(long)]
    still: bool,
    /// With --still: the board after this many turns instead (0: the start tile alone), seen by
    /// the same camera as the whole game.
    #[arg(long, requires = "still")]
    turn: Option<u32>,
    /// Compress the video as MJPG (like a webcam) instead of lossless FFV1.
    #[arg(long)]
    mjpg: bool,
    /// Write a contact sheet of sample frames in several looks (an image) instead.
    #[arg(long, conflicts_with = "still")]
    contact_sheet: bool,
    /// Write a picture of the expansions' drawings instead (the Wheel board, hills, vineyards,
    /// wheel icons, every kind of figure), from above and from the side; needs no record.
    #[arg(long, conflicts_with_all = ["still", "contact_sheet", "record"])]
    expansion_sheet: bool,
}

pub fn run(args: RenderArgs) -> Result<(), Failure> {
    let Some(path) = &args.record else {
        let sheet = expansion_sheet(args.style, args.seed).context("rendering")?;
        write_png(&args.out, &sheet)?;
        println!("wrote {}", args.out.display());
        return Ok(());
    };
    let (record, _) = read_record(path)?;
    if !(args.fps > 0.0 && args.fps <= 120.0) {
        return Err(Failure::BadInput(anyhow!("--fps must be in (0, 120]")));
    }
    let filming = Filming {
        view: match args.view {
            ViewArg::Overhead => View::Overhead,
            ViewArg::Oblique => View::Oblique,
        },
        size: match args.resolution {
            Resolution::Hd => [1280, 720],
            Resolution::FullHd => [1920, 1080],
        },
        fps: args.fps,
        seed: args.seed,
    };
    let film = Film::plan(&record, &filming).map_err(|e| {
        Failure::BadInput(anyhow::Error::new(e).context(path.display().to_string()))
    })?;
    let surface = Surface::ALL[(args.seed % Surface::ALL.len() as u64) as usize];
    let mut renderer = Renderer::new(Style::preset(args.style), surface, args.seed);
    if args.contact_sheet {
        let sheet = contact_sheet(&record, args.seed)
            .map_err(|e| Failure::BadInput(anyhow::Error::new(e)))?;
        write_png(&args.out, &sheet)?;
        println!("wrote {}", args.out.display());
        return Ok(());
    }
    if args.still {
        let shot = match args.turn {
            Some(t) => film
                .shots()
                .iter()
                .rev()
                .find(|s| s.turn == t && s.scene.arm.is_none())
                .ok_or_else(|| Failure::BadInput(anyhow!("the record has no turn {t}")))?,
            None => film.shots().last().context("empty film")?,
        };
        let frame = renderer
            .render(&shot.scene, &shot.sensor, 0)
            .context("rendering")?;
        write_png(&args.out, &frame.image)?;
        let truth = args.out.with_extension("json");
        std::fs::write(
            &truth,
            serde_json::to_string_pretty(&frame.truth).context("truth")?,
        )
        .with_context(|| format!("cannot write {}", truth.display()))?;
        println!("wrote {} and {}", args.out.display(), truth.display());
        return Ok(());
    }
    let sink = Sink::for_path(&args.out, args.mjpg);
    let started = std::time::Instant::now();
    let frames = write_film(&film, &mut renderer, &sink, args.fps)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "wrote {frames} frames ({:.0} s of play) to {} in {secs:.1} s ({:.1} frames/s); truth in {}",
        frames as f64 / args.fps,
        args.out.display(),
        frames as f64 / secs,
        sink.truth_path().display()
    );
    Ok(())
}

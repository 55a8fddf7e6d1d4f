//! `meeplecam app` (and `meeplecam` alone): the companion window; in a terminal with no
//! display, the same game followed and printed line by line.

use std::path::PathBuf;

use anyhow::anyhow;

use meeplecam::app::setup::{
    default_journal_dir, latest_journal, new_journal_path, SetupForm, SourceKind,
};
use meeplecam::app::{run_window, AppConfig};
use meeplecam::camera::{self, Opened, SourceSpec};

use super::track::{follow, open_session, parse_players, stop_on_ctrl_c, Report};
use super::Failure;

/// Open the companion window (the simulated table unless told otherwise).
#[derive(Debug, Default, clap::Args)]
pub struct AppArgs {
    /// Continue a game after a crash: the given journal, or the latest one.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    pub resume: Option<PathBuf>,
    /// Start at once with this source: a video file, an image folder, `sim[:SEED]` or
    /// `webcam[:NAME]` (otherwise the setup screen asks).
    #[arg(long)]
    pub source: Option<SourceSpec>,
    /// Players in turn order for `--source`: NAME:COLOUR,…
    #[arg(long)]
    pub players: Option<String>,
    /// Playback speed of videos and the simulated table (1 = real time).
    #[arg(long)]
    pub speed: Option<f64>,
    /// Where journals are kept.
    #[arg(long)]
    pub journal_dir: Option<PathBuf>,
    /// Follow the game in the terminal, without a window.
    #[arg(long)]
    pub headless: bool,
    /// Save a screenshot of the window (PNG) once `--screenshot-turns` turns are on the table,
    /// then close.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Turns to wait for before the screenshot.
    #[arg(long, default_value_t = 12)]
    pub screenshot_turns: usize,
    /// The tile in hand to start with (its legal spots are drawn), e.g. `D`.
    #[arg(long)]
    pub hand: Option<String>,
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

pub fn run(args: AppArgs) -> Result<(), Failure> {
    let journal_dir = args.journal_dir.clone().unwrap_or_else(default_journal_dir);
    let resume = match &args.resume {
        Some(p) if p.as_os_str().is_empty() => {
            Some(latest_journal(&journal_dir).ok_or_else(|| {
                Failure::BadInput(anyhow!("no journal to resume in {}", journal_dir.display()))
            })?)
        }
        other => other.clone(),
    };
    if args.headless || !has_display() {
        if !args.headless {
            eprintln!("No display: following the game in the terminal (--headless).");
        }
        return headless(&args, resume, &journal_dir);
    }
    let mut form = SetupForm::default();
    let mut form_given = false;
    if let Some(spec) = &args.source {
        form_given = true;
        match spec {
            SourceSpec::Simulated { seed } => form.seed = *seed,
            SourceSpec::Webcam { name } => {
                form.source = SourceKind::Webcam;
                form.camera = name.clone().unwrap_or_default();
            }
            SourceSpec::Path(p) => {
                form.source = SourceKind::File;
                form.file = p.display().to_string();
            }
        }
        if let Some(p) = &args.players {
            form.players = parse_players(p).map_err(Failure::BadInput)?;
        }
    }
    run_window(AppConfig {
        start_at_once: form_given || args.screenshot.is_some(),
        resume,
        journal_dir: Some(journal_dir),
        speed: args.speed,
        screenshot: args.screenshot.clone(),
        screenshot_turns: args.screenshot_turns,
        form: (form_given || args.screenshot.is_some()).then_some(form),
        hand: args.hand.clone(),
    })
    .map_err(Failure::Other)
}

/// The game followed in the terminal: each event as it is committed, the scores at the end.
fn headless(
    args: &AppArgs,
    resume: Option<PathBuf>,
    journal_dir: &std::path::Path,
) -> Result<(), Failure> {
    let spec = args
        .source
        .clone()
        .unwrap_or(SourceSpec::Simulated { seed: 1 });
    let players = match &args.players {
        Some(p) => Some(parse_players(p).map_err(Failure::BadInput)?),
        None => None,
    };
    let Opened { mut source, truth } = camera::open(&spec)?;
    std::fs::create_dir_all(journal_dir)
        .map_err(|e| Failure::Other(anyhow!("cannot create {}: {e}", journal_dir.display())))?;
    let journal = new_journal_path(journal_dir);
    let mut session = open_session(
        players,
        truth.as_ref(),
        None,
        resume.is_none().then_some(journal.as_path()),
        resume.as_deref(),
    )?;
    if let Some(j) = session.journal_path() {
        println!("Following {} (journal {}).", source.describe(), j.display());
    }
    let stop = stop_on_ctrl_c();
    let followed = follow(&mut session, source.as_mut(), Report::Lines, &stop)?;
    for q in &followed.questions {
        println!("question: {q}");
    }
    let seen = followed
        .record
        .replay()
        .map_err(|e| Failure::Other(anyhow!("the tracked game does not replay: {e}")))?;
    println!(
        "Final scores as tracked ({} turns):",
        followed.record.turns.len()
    );
    let true_scores = truth
        .as_ref()
        .and_then(|t| t.replay().ok())
        .map(|r| r.game.scores().to_vec());
    for (seat, name) in seen.names.iter().enumerate() {
        let tracked = seen.game.scores()[seat];
        match &true_scores {
            Some(t) => println!("  {name:<10} {tracked:>4}   (true game: {})", t[seat]),
            None => println!("  {name:<10} {tracked:>4}"),
        }
    }
    if let Some(t) = &true_scores {
        let exact = t.as_slice() == seen.game.scores();
        println!(
            "{}",
            if exact {
                "The tracked game ends with exactly the true scores."
            } else {
                "The tracked game differs from the true one (see the turns above)."
            }
        );
    }
    Ok(())
}

//! Subcommands of the `meeplecam` binary.

#[cfg(feature = "app")]
mod app;
mod input;
#[cfg(feature = "led")]
mod led;
mod legal;
#[cfg(feature = "vision")]
mod render;
mod score;
mod selfplay;
#[cfg(feature = "vision")]
mod track;
mod train;
#[cfg(feature = "vision")]
mod vision;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Watches a game of Carcassonne and keeps the score.
#[derive(Debug, Parser)]
#[command(version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Keep whole-frame steps (undistorting frames) on the CPU even where OpenCV finds an
    /// OpenCL device (a GPU) for them.
    #[cfg(feature = "vision")]
    #[arg(long, global = true)]
    no_opencl: bool,
    /// With no command: the window's options (`meeplecam --resume` continues the last game).
    #[cfg(feature = "app")]
    #[command(flatten)]
    app: app::AppArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay a game record (or a JCloisterZone .jcz file) and print every score.
    Score {
        /// The record file.
        record: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Leave the game open: skip end-of-game scoring.
        #[arg(long)]
        open: bool,
    },
    /// List every legal placement of a tile after a record, with the follower spots of each.
    Legal {
        /// The record file.
        record: PathBuf,
        /// The tile in hand (rulebook letter or JCloisterZone id).
        #[arg(long)]
        tile: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a random legal game from a seeded bag and write its record.
    Selfplay {
        /// Number of players (2–8).
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// Seed of the bag and the moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Tile set.
        #[arg(long, default_value = "base")]
        tileset: String,
        /// Expansions mixed in, comma-separated (river, river_ii, inns_and_cathedrals,
        /// traders_and_builders, hills_and_sheep, wheel_of_fortune).
        #[arg(long, value_delimiter = ',')]
        expansions: Vec<String>,
        /// Write the record here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Learn from the simulator what the board reader takes as known ahead of a game.
    #[command(subcommand)]
    Train(train::TrainCommand),
    /// Calibrate the table (the start tile alone in a setup photo) or, optionally, the camera's
    /// lens (photos of a printed ChArUco board).
    #[cfg(feature = "vision")]
    Calibrate(vision::CalibrateArgs),
    /// Read every tile of a board photo (grid from the calibration).
    #[cfg(feature = "vision")]
    Recognize(vision::RecognizeArgs),
    /// Read one tile that fills a photo (top = north): ranked type, rotation, probability.
    #[cfg(feature = "vision")]
    RecognizeTile(vision::RecognizeTileArgs),
    /// Measure the vision stages on rendered boards with ground truth.
    #[cfg(feature = "vision")]
    Eval(vision::EvalArgs),
    /// Follow a game from a video or image folder and write the record it saw (no window).
    #[cfg(feature = "vision")]
    Track(track::TrackArgs),
    /// Film a game record with the simulated camera.
    #[cfg(feature = "vision")]
    Render(render::RenderArgs),
    /// Open the companion window (the default command); terminal mode without a display.
    #[cfg(feature = "app")]
    App(app::AppArgs),
    /// Show legal spots and scores on an LED matrix or strip (Adalight or WLED over USB serial).
    #[cfg(feature = "led")]
    Led(led::LedArgs),
}

/// A command's failure, with the exit status it maps to.
#[derive(Debug)]
pub enum Failure {
    /// The input breaks the format or the rules (status 2).
    BadInput(anyhow::Error),
    /// Anything else: files, devices (status 1).
    Other(anyhow::Error),
}

impl Failure {
    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::BadInput(_) => 2,
            Failure::Other(_) => 1,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BadInput(e) | Failure::Other(e) => {
                if f.alternate() {
                    write!(f, "{e:#}")
                } else {
                    write!(f, "{e}")
                }
            }
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        Failure::Other(e)
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    #[cfg(feature = "vision")]
    meeplecam::vision::accel::allow_opencl(!cli.no_opencl);
    let Some(command) = cli.command else {
        #[cfg(feature = "app")]
        return app::run(cli.app);
        #[cfg(not(feature = "app"))]
        return Err(Failure::BadInput(anyhow::anyhow!(
            "name a command (this build has no window): see --help"
        )));
    };
    match command {
        #[cfg(feature = "app")]
        Command::App(args) => app::run(args),
        Command::Score { record, json, open } => score::run(&record, json, open),
        Command::Legal { record, tile, json } => legal::run(&record, &tile, json),
        Command::Selfplay {
            players,
            seed,
            tileset,
            expansions,
            out,
        } => selfplay::run(players, seed, &tileset, &expansions, out.as_deref()),
        Command::Train(command) => train::run(command),
        #[cfg(feature = "vision")]
        Command::Render(args) => render::run(args),
        #[cfg(feature = "vision")]
        Command::Track(args) => track::run(args),
        #[cfg(feature = "vision")]
        Command::Calibrate(args) => vision::calibrate(args),
        #[cfg(feature = "vision")]
        Command::Recognize(args) => vision::recognize(args),
        #[cfg(feature = "vision")]
        Command::RecognizeTile(args) => vision::recognize_tile(args),
        #[cfg(feature = "vision")]
        Command::Eval(args) => vision::eval(args),
        #[cfg(feature = "led")]
        Command::Led(args) => led::run(args),
    }
}

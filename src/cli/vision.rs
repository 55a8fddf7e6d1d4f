//! `meeplecam calibrate`, `recognize`, `recognize-tile` and `eval vision`.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use opencv::core::{Rect, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use serde_json::json;

use meeplecam::camera::CameraFrame;
use meeplecam::rules::{catalogue, Colour, Pos};
use meeplecam::sim::artwork::Artwork;
use meeplecam::sim::camera::{apply_homography, invert_homography};
use meeplecam::sim::figures::colour_bgr;
use meeplecam::sim::output::write_png;
use meeplecam::track::eval::same_turn;
use meeplecam::track::Event;
use meeplecam::vision::board::consistent_board;
use meeplecam::vision::calibration::{Calibration, SetupFrame};
use meeplecam::vision::charuco::BoardSpec;
use meeplecam::vision::colours::ColourModel;
use meeplecam::vision::dataset::{render_board, write_board, Dataset};
use meeplecam::vision::eval::evaluate;
use meeplecam::vision::figures::Enrolment;
use meeplecam::vision::intrinsics::{Intrinsics, Undistorter};
use meeplecam::vision::locate::read_board;
use meeplecam::vision::locate::Located;
use meeplecam::vision::meeples::{cells_below, read_followers};
use meeplecam::vision::rectify::quad_patch;
use meeplecam::vision::rectify::MARGIN_PX;
use meeplecam::vision::rectify::PATCH_PX;
use meeplecam::vision::tile::Candidate;
use meeplecam::vision::tile::TileRecognizer;
use meeplecam::vision::viewpoint::Viewpoint;
use opencv::core::Mat;

use super::Failure;

/// Read one tile that fills a photo (top of the image = north).
#[derive(Debug, clap::Args)]
pub struct RecognizeTileArgs {
    /// The image.
    image: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// How many candidates to list.
    #[arg(long, default_value_t = 5)]
    top: usize,
}

pub fn recognize_tile(args: RecognizeTileArgs) -> Result<(), Failure> {
    let img = read_image(&args.image)?;
    // The tile fills most of the frame: keep the central square.
    let side = img.cols().min(img.rows());
    let square = Rect::new((img.cols() - side) / 2, (img.rows() - side) / 2, side, side);
    let mut patch = opencv::core::Mat::default();
    imgproc::resize(
        &opencv::core::Mat::roi(&img, square).context("crop")?,
        &mut patch,
        Size::new(PATCH_PX, PATCH_PX),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )
    .context("resize")?;
    let base = catalogue().set("base").context("the base tile set")?;
    let ranked = TileRecognizer::for_set(base)
        .recognize(&patch, &ColourModel::default())
        .context("recognition")?;
    let cat = catalogue();
    let top: Vec<_> = ranked.iter().take(args.top.max(1)).collect();
    // Below this, the picture probably is not one tile seen from above.
    let confident = ranked.first().is_some_and(|c| c.probability >= 0.5);
    if args.json {
        let list: Vec<_> = top
            .iter()
            .map(|c| json!({"tile": cat.tile(c.tile).name, "rot": c.rot.degrees(), "probability": c.probability}))
            .collect();
        println!(
            "{:#}",
            json!({ "candidates": list, "confident": confident })
        );
    } else {
        if !confident {
            println!("low confidence: this may not be a single tile seen from above");
        }
        for c in top {
            println!(
                "{:>2} rot {:>3}  {:.3}",
                cat.tile(c.tile).name,
                c.rot.degrees(),
                c.probability
            );
        }
    }
    Ok(())
}

/// Evaluate the vision stages on rendered data.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// What to evaluate: the vision stages, tracking whole games end to end, or the hand/arm
    /// (occlusion) mask on filmed games.
    #[arg(value_parser = ["vision", "track", "occlusion"])]
    what: String,
    /// Turns per game when evaluating tracking or the occlusion mask.
    #[arg(long, default_value_t = 20)]
    turns: usize,
    /// Number of boards to render (games to film for `track` and `occlusion`); default 20. With
    /// `--dataset`, the boards are written there first.
    #[arg(long)]
    generate: Option<usize>,
    /// Seed of the rendered boards.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
    /// Draw the tiles from this folder of real artwork (`labels.json` and images) instead of
    /// painting them.
    #[arg(long)]
    art: Option<PathBuf>,
    /// `track` only: follow this one game of the seed (numbered as in the per-game table): its
    /// events as they happen, then its turns beside the true ones.
    #[arg(long)]
    game: Option<usize>,
    /// `track --game` only: also write the game's frames to this folder as PNG images
    /// (`frame-NNNNN.png`, numbered as in the events; `meeplecam track --source DIR` reads them).
    #[arg(long)]
    frames: Option<PathBuf>,
    /// `vision` only: a data set folder of rendered boards with their ground truth
    /// (`board-NNN.png`, `board-NNN-setup.png`, `board-NNN.json`). Evaluated as it is, or, with
    /// `--generate`, made there first (the folder is created; boards already there are replaced).
    #[arg(long)]
    dataset: Option<PathBuf>,
    /// `vision` only: also list every tile the full read missed or read wrong, and every
    /// follower the per-tile read did not see in its colour.
    #[arg(long)]
    wrong: bool,
}

/// Boards rendered when `--generate` is not given.
const DEFAULT_BOARDS: usize = 20;

pub fn eval(args: EvalArgs) -> Result<(), Failure> {
    if args.dataset.is_some() && args.what != "vision" {
        return Err(Failure::BadInput(anyhow!(
            "--dataset is for `eval vision` (tracking and the arm mask film their own games)"
        )));
    }
    let generate = args.generate.unwrap_or(DEFAULT_BOARDS);
    if args.art.is_some() && args.dataset.is_some() && args.generate.is_none() {
        return Err(Failure::BadInput(anyhow!(
            "--art draws the tiles of boards being rendered: give --generate N to make the \
             data set with it"
        )));
    }
    let artwork = match &args.art {
        Some(dir) => Some(Artwork::load(dir).map_err(Failure::BadInput)?),
        None => None,
    };
    let art = match (&args.art, &artwork) {
        (Some(dir), Some(a)) => format!(", {} tile types from {}", a.len(), dir.display()),
        _ => String::new(),
    };
    if args.wrong && args.what != "vision" {
        return Err(Failure::BadInput(anyhow!("--wrong is for `eval vision`")));
    }
    if args.game.is_some() && args.what != "track" {
        return Err(Failure::BadInput(anyhow!("--game is for `eval track`")));
    }
    if args.frames.is_some() && args.game.is_none() {
        return Err(Failure::BadInput(anyhow!(
            "--frames writes the frames of one game: give --game K with it"
        )));
    }
    if let (Some(game), "track") = (args.game, args.what.as_str()) {
        if let Some(dir) = &args.frames {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut watch = |index: usize, frame: &CameraFrame, events: &[Event]| {
            for e in events {
                println!("frame {index:5}: {e:?}");
            }
            match &args.frames {
                Some(dir) => write_png(&dir.join(format!("frame-{index:05}.png")), &frame.image),
                None => Ok(()),
            }
        };
        let report = meeplecam::track::eval::evaluate_games(
            [game],
            args.turns,
            args.seed,
            artwork.as_ref(),
            &mut watch,
        )?;
        for g in &report.per_game {
            println!("\nturn | true | as tracked\n---|---|---");
            for (i, (truth, seen)) in g.turn_pairs.iter().enumerate() {
                let show =
                    |t: &meeplecam::record::TurnEntry| serde_json::to_string(t).unwrap_or_default();
                let mark = if seen.as_ref().is_some_and(|s| same_turn(truth, s)) {
                    ""
                } else {
                    " ≠"
                };
                println!(
                    "{} | {} | {}{mark}",
                    i + 1,
                    show(truth),
                    seen.as_ref().map(show).unwrap_or_default()
                );
            }
            println!("\nquestions: {:?}", g.asked);
        }
        print!("\n{}", report.games_table());
        return Ok(());
    }
    if args.what == "track" {
        let report = meeplecam::track::eval::evaluate_tracking(
            generate,
            args.turns,
            args.seed,
            artwork.as_ref(),
        )?;
        println!(
            "Tracking {generate} filmed games of {} turns (seed {}{art}), from the frames alone:\n",
            args.turns, args.seed
        );
        print!("{}", report.table());
        print!("\nPer game:\n\n{}", report.games_table());
        print!("\nQuestions:\n\n{}", report.questions_list());
        return Ok(());
    }
    if args.what == "occlusion" {
        let report = meeplecam::vision::occlusion::evaluate(
            generate,
            args.turns,
            args.seed,
            artwork.as_ref(),
        )?;
        println!(
            "Hand/arm mask on {generate} filmed games of {} turns (seed {}{art}), each frame against \
             the last still picture before it (two frames in a row with no arm):\n",
            args.turns, args.seed
        );
        print!("{}", report.table());
        return Ok(());
    }
    let (tiles, boards, source) = match (&args.dataset, args.generate) {
        (Some(dir), None) => {
            let set = Dataset::open(dir).map_err(Failure::BadInput)?;
            let reports = evaluate((0..set.len()).map(|i| set.load(i)));
            let (tiles, boards) = reports.map_err(Failure::BadInput)?;
            (tiles, boards, format!("data set {}", dir.display()))
        }
        (Some(dir), Some(n)) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for i in 0..n {
                write_board(dir, &render_board(args.seed, i, artwork.as_ref())?)?;
            }
            eprintln!("wrote {n} boards to {}", dir.display());
            let set = Dataset::open(dir)?;
            let (tiles, boards) = evaluate((0..set.len()).map(|i| set.load(i)))?;
            let source = format!("data set {} (seed {}{art})", dir.display(), args.seed);
            (tiles, boards, source)
        }
        (None, _) => {
            let boards = (0..generate).map(|i| render_board(args.seed, i, artwork.as_ref()));
            let (tiles, boards) = evaluate(boards)?;
            (tiles, boards, format!("seed {}{art}", args.seed))
        }
    };
    println!(
        "Tile recognition on {} rendered boards ({source}), true grid registration:\n",
        tiles.images
    );
    println!("{}", tiles.table());
    println!(
        "Per-tile reads by condition:\n\n{}",
        tiles.breakdown.table()
    );
    println!(
        "How far the per-tile probabilities can be trusted:\n\n{}",
        tiles.reliability_table()
    );
    println!(
        "Full read of the same boards: grid registered from a setup frame of the start tile, \
         nothing taken from the truth:\n"
    );
    print!("{}", boards.table());
    if args.wrong {
        println!("\nTiles the full read missed or read wrong (rules priors):\n");
        for w in &boards.wrong {
            println!("{}", w.line());
        }
        println!("\nTiles the full read found where there is none:\n");
        for p in &boards.phantoms {
            println!("{}", p.line());
        }
        println!("\nFollowers the per-tile read did not see in their colour:\n");
        for m in &tiles.missed_followers {
            println!("{}", m.line());
        }
    }
    println!(
        "\nWhole-frame steps (undistorting frames, with a lens file) run on: {}.",
        meeplecam::vision::accel::described()
    );
    Ok(())
}

/// Calibrate the table (the start tile) or the camera's lens (a ChArUco board).
#[derive(Debug, clap::Args)]
pub struct CalibrateArgs {
    #[command(subcommand)]
    what: Calibrate,
}

#[derive(Debug, clap::Subcommand)]
enum Calibrate {
    /// Register the table from a setup photo showing the start tile alone.
    StartTile(StartTileArgs),
    /// Write a printable ChArUco board (PNG) for `calibrate intrinsics`.
    CharucoBoard(BoardArgs),
    /// Measure the camera's focal length, principal point and lens distortion from photos of
    /// the printed ChArUco board (optional: frames are then undistorted with `--camera`).
    Intrinsics(IntrinsicsArgs),
}

/// `calibrate start-tile`.
#[derive(Debug, clap::Args)]
struct StartTileArgs {
    /// The setup photo.
    image: PathBuf,
    /// Where to write the calibration (OpenCV YAML).
    #[arg(long, default_value = "calibration/table.yaml")]
    out: PathBuf,
    /// Camera intrinsics (from `calibrate intrinsics`): the photo is undistorted first. Pass the
    /// same file to `recognize` and `track`.
    #[arg(long)]
    camera: Option<PathBuf>,
}

/// `calibrate charuco-board`.
#[derive(Debug, clap::Args)]
struct BoardArgs {
    /// Where to write the page (PNG).
    #[arg(long)]
    out: PathBuf,
    /// Squares across and down, e.g. `7x5`.
    #[arg(long, default_value = "7x5", value_parser = parse_squares)]
    squares: [i32; 2],
    /// A square's side in millimetres as printed.
    #[arg(long, default_value_t = 35.0)]
    square_mm: f32,
    /// Printer resolution, dots per inch.
    #[arg(long, default_value_t = 300.0)]
    dpi: f64,
}

/// `calibrate intrinsics`.
#[derive(Debug, clap::Args)]
struct IntrinsicsArgs {
    /// Photos of the printed board, or folders of them (.png, .jpg, .jpeg, .bmp); at least 4
    /// must show it.
    #[arg(required = true)]
    images: Vec<PathBuf>,
    /// Where to write the intrinsics (OpenCV YAML).
    #[arg(long, default_value = "calibration/camera.yaml")]
    out: PathBuf,
    /// Squares across and down of the printed board.
    #[arg(long, default_value = "7x5", value_parser = parse_squares)]
    squares: [i32; 2],
}

/// Parses `WxH`.
fn parse_squares(text: &str) -> Result<[i32; 2], String> {
    let bad = || format!("{text:?} is not squares across x down, e.g. 7x5");
    let (w, h) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    Ok([
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ])
}

/// The fewest pixels a picture must have each way to be read.
const MIN_SIDE_PX: i32 = 16;

/// The colour image at `path`; a clear error if it is none, or too small to show a tile.
fn read_image(path: &std::path::Path) -> Result<opencv::core::Mat, Failure> {
    let name = path.to_str().context("image path is not UTF-8")?;
    let img = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR).context("reading the image")?;
    if img.empty() {
        return Err(Failure::BadInput(anyhow!(
            "cannot read {} as an image",
            path.display()
        )));
    }
    if img.cols() < MIN_SIDE_PX || img.rows() < MIN_SIDE_PX {
        return Err(Failure::BadInput(anyhow!(
            "{} is {}×{} pixels: too small to show a tile (at least {MIN_SIDE_PX} each way)",
            path.display(),
            img.cols(),
            img.rows()
        )));
    }
    Ok(img)
}

pub fn calibrate(args: CalibrateArgs) -> Result<(), Failure> {
    match args.what {
        Calibrate::StartTile(args) => calibrate_start_tile(args),
        Calibrate::CharucoBoard(args) => charuco_board(args),
        Calibrate::Intrinsics(args) => calibrate_intrinsics(args),
    }
}

/// The photo at `path`, undistorted when a camera intrinsics file is given.
fn read_photo(path: &Path, camera: Option<&Path>) -> Result<Mat, Failure> {
    let undistorter = match camera {
        Some(file) => {
            let intrinsics = Intrinsics::load(file).map_err(Failure::BadInput)?;
            Some(Undistorter::new(&intrinsics).context("undistortion maps")?)
        }
        None => None,
    };
    let img = read_image(path)?;
    match undistorter {
        Some(u) => u
            .undistort(&img)
            .with_context(|| path.display().to_string())
            .map_err(Failure::BadInput),
        None => Ok(img),
    }
}

fn calibrate_start_tile(args: StartTileArgs) -> Result<(), Failure> {
    let img = read_photo(&args.image, args.camera.as_deref())?;
    let calibration = match Calibration::from_setup_frame(&img)
        .context("looking for the start tile and learning its colours")?
    {
        SetupFrame::Calibrated(c) => *c,
        SetupFrame::NoStartTile => {
            return Err(Failure::BadInput(anyhow!(
                "no start tile found in {}: show it alone on the table",
                args.image.display()
            )))
        }
        SetupFrame::WashedOut { clipped } => {
            return Err(Failure::BadInput(anyhow!(
                "the start tile in {} is washed out ({:.0} % of it clipped to white): lower \
                 the camera's exposure or the light",
                args.image.display(),
                100.0 * clipped
            )))
        }
    };
    calibration.save(&args.out)?;
    println!(
        "start tile at {:?}; wrote {}",
        calibration.start.map(|p| [p[0].round(), p[1].round()]),
        args.out.display()
    );
    Ok(())
}

fn charuco_board(args: BoardArgs) -> Result<(), Failure> {
    let spec = BoardSpec::new(args.squares, args.square_mm)
        .and_then(|s| s.at_dpi(args.dpi))
        .map_err(Failure::BadInput)?;
    let page = spec.page(args.dpi).map_err(Failure::BadInput)?;
    let name = args.out.to_str().context("output path is not UTF-8")?;
    let written = imgcodecs::imwrite_def(name, &page)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    if !written {
        return Err(Failure::Other(anyhow!(
            "cannot write {} (use a .png name)",
            args.out.display()
        )));
    }
    let [w, h] = spec.size_mm();
    println!(
        "{}: {w:.0} × {h:.0} mm board on a {} × {} px page; print at 100 % ({} dpi), check that \
         a square measures {:.2} mm, and lay it flat; wrote {}",
        spec.caption(),
        page.cols(),
        page.rows(),
        args.dpi,
        spec.square_mm,
        args.out.display()
    );
    Ok(())
}

/// Image files named on the command line, folders expanded to their images in name order.
fn image_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let is_image = |p: &Path| {
        p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            matches!(
                e.to_ascii_lowercase().as_str(),
                "png" | "jpg" | "jpeg" | "bmp"
            )
        })
    };
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read folder {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_image(p))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn calibrate_intrinsics(args: IntrinsicsArgs) -> Result<(), Failure> {
    let spec =
        BoardSpec::new(args.squares, BoardSpec::default().square_mm).map_err(Failure::BadInput)?;
    let board = spec.board().context("the ChArUco board")?;
    let files = image_files(&args.images)?;
    let mut size = None;
    let mut views = Vec::new();
    for file in &files {
        let img = read_image(file)?;
        let this = [img.cols(), img.rows()];
        if *size.get_or_insert(this) != this {
            return Err(Failure::BadInput(anyhow!(
                "{} is {}×{}, the photos before it {}×{}: use one camera at one resolution",
                file.display(),
                this[0],
                this[1],
                size.unwrap_or(this)[0],
                size.unwrap_or(this)[1]
            )));
        }
        match board.find(&img).context("looking for the board")? {
            Some(view) => views.push(view),
            None => println!("{}: board not found, skipped", file.display()),
        }
    }
    let size =
        size.ok_or_else(|| Failure::BadInput(anyhow!("no images (.png, .jpg, .bmp) given")))?;
    let used = views.len();
    let intrinsics = board.calibrate(&views, size).map_err(|e| {
        Failure::BadInput(e.context(format!(
            "{used} of {} photos show the {}×{} board",
            files.len(),
            spec.squares[0],
            spec.squares[1]
        )))
    })?;
    intrinsics.save(&args.out)?;
    let rms = intrinsics.rms_px.unwrap_or(f64::NAN);
    let [k1, k2, p1, p2, k3] = intrinsics.distortion;
    println!(
        "RMS reprojection error {rms:.3} px over {used} of {} views ({}×{} px)\n\
         focal {:.1}, {:.1} px; principal point {:.1}, {:.1} px\n\
         distortion k1 {k1:.4} k2 {k2:.4} p1 {p1:.5} p2 {p2:.5} k3 {k3:.4}\n\
         wrote {}",
        files.len(),
        size[0],
        size[1],
        intrinsics.focal[0],
        intrinsics.focal[1],
        intrinsics.principal[0],
        intrinsics.principal[1],
        args.out.display()
    );
    if rms > 1.0 {
        println!("warning: an RMS error above 1 px means blurred or bent photos: retake them");
    }
    Ok(())
}

/// Read every tile of a board photo, registered by a calibration.
#[derive(Debug, clap::Args)]
pub struct RecognizeArgs {
    /// The photo.
    image: PathBuf,
    /// The table calibration (from `meeplecam calibrate start-tile`).
    #[arg(long, default_value = "calibration/table.yaml")]
    calibration: PathBuf,
    /// Camera intrinsics (from `meeplecam calibrate intrinsics`): the photo is undistorted
    /// first, as it was for `calibrate start-tile --camera`.
    #[arg(long)]
    camera: Option<PathBuf>,
    /// The players' follower colours, comma-separated (e.g. `red,blue`), to read their
    /// followers.
    #[arg(long, value_delimiter = ',')]
    players: Vec<Colour>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// A follower read off the board.
struct SeenFollower {
    colour: Colour,
    cell: Pos,
    port: meeplecam::rules::Port,
    lying: bool,
    pixel: [f64; 2],
}

/// The followers of `colours` on the tiles found, each on the feature under its foot (of the
/// tile's reading in `read`).
fn followers(
    img: &Mat,
    found: &[Located],
    read: &[(Pos, Candidate)],
    colours: &ColourModel,
    players: &[Colour],
    enrolment: &Enrolment,
) -> opencv::Result<Vec<SeenFollower>> {
    let mut out = Vec::new();
    let size = [img.cols(), img.rows()];
    let viewpoint = Viewpoint::from_cells(found.iter().map(|l| (&l.pos, &l.quad)), size)?;
    for l in found {
        let Some((_, c)) = read.iter().find(|(p, _)| *p == l.pos) else {
            continue;
        };
        let (patch, to_patch) = quad_patch(img, &l.quad, MARGIN_PX)?;
        let back = invert_homography(&to_patch);
        let blobs = enrolment.find_in_cell(img, &l.quad, &patch, colours)?.blobs;
        let rise = viewpoint.map_or([0.0, 0.0], |v| v.rise_at_cell(l.pos));
        let tile_below = cells_below(l.pos)
            .iter()
            .any(|b| found.iter().any(|f| f.pos == *b));
        for f in read_followers(&blobs, MARGIN_PX, [0.0, 0.0], c.tile, c.rot, rise, &|_| {
            tile_below
        }) {
            out.push(SeenFollower {
                colour: players[f.colour],
                cell: l.pos,
                port: f.port,
                lying: f.lying,
                pixel: apply_homography(&back, f.foot),
            });
        }
    }
    Ok(out)
}

pub fn recognize(args: RecognizeArgs) -> Result<(), Failure> {
    let img = read_photo(&args.image, args.camera.as_deref())?;
    let calibration = Calibration::load(&args.calibration).map_err(Failure::BadInput)?;
    if calibration.size != [img.cols(), img.rows()] {
        return Err(Failure::BadInput(anyhow!(
            "the calibration was made at {}×{}, the image is {}×{}",
            calibration.size[0],
            calibration.size[1],
            img.cols(),
            img.rows()
        )));
    }
    let cat = catalogue();
    let tileset = cat.set("base").context("the base tile set")?;
    let recognizer = TileRecognizer::for_set(tileset);
    // The players' figures as painted (their hue is what counts, whatever the light).
    let enrolment = (!args.players.is_empty()).then(|| {
        Enrolment::new(
            args.players
                .iter()
                .map(|&c| colour_bgr(c).map(|v| v as f32))
                .collect(),
            55.0,
        )
    });
    let found = read_board(
        &img,
        &calibration.start,
        &calibration.colours,
        calibration.table,
        enrolment.as_ref(),
        &recognizer,
    )
    .context("reading the board")?;
    let mut tiles: Vec<(meeplecam::rules::Pos, meeplecam::vision::tile::Candidate)> = found
        .first()
        .and_then(|s| Some((s.pos, *s.candidates.first()?)))
        .into_iter()
        .collect();
    tiles.extend(consistent_board(&found, tileset));
    // Nothing is read where the start tile does not show.
    let nothing = tiles.is_empty().then_some(
        "nothing found: the start tile does not show where the calibration saw it (another \
         table, a camera moved far, a blurred or washed-out picture)",
    );
    let homography =
        meeplecam::vision::rectify::quad_homography(&calibration.start).context("homography")?;
    let seen = match &enrolment {
        Some(e) => followers(&img, &found, &tiles, &calibration.colours, &args.players, e)
            .context("reading the followers")?,
        None => Vec::new(),
    };
    if args.json {
        let list: Vec<_> = tiles
            .iter()
            .map(|(p, c)| json!({"cell": [p.x, p.y], "tile": cat.tile(c.tile).name, "rot": c.rot.degrees(), "confidence": c.probability}))
            .collect();
        let meeples: Vec<_> = seen
            .iter()
            .map(|m| {
                json!({"colour": m.colour.name(), "cell": [m.cell.x, m.cell.y],
                       "port": m.port.name(), "pose": if m.lying { "lying" } else { "standing" },
                       "pixel": m.pixel})
            })
            .collect();
        let mut out =
            json!({"tiles": list, "meeples": meeples, "homography_grid_to_image": homography});
        if let Some(why) = nothing {
            out["nothing_found"] = json!(why);
        }
        println!("{out:#}");
    } else if let Some(why) = nothing {
        println!("{why}");
    } else {
        for (p, c) in &tiles {
            println!(
                "{:>4} {:>4}  {:>2} rot {:>3}  {:.2}",
                p.x,
                p.y,
                cat.tile(c.tile).name,
                c.rot.degrees(),
                c.probability
            );
        }
        for m in &seen {
            println!(
                "{:>4} {:>4}  {} follower on {} ({}) at pixel {:.0}, {:.0}",
                m.cell.x,
                m.cell.y,
                m.colour.name(),
                m.port.name(),
                if m.lying { "lying" } else { "standing" },
                m.pixel[0],
                m.pixel[1]
            );
        }
        println!("({} tiles, {} followers)", tiles.len(), seen.len());
    }
    Ok(())
}

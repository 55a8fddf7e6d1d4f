//! `meeplecam recognize-tile` and `meeplecam eval vision`.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use opencv::core::{Rect, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use serde_json::json;

use meeplecam::rules::{catalogue, Colour, Pos, Rotation};
use meeplecam::sim::artwork::Artwork;
use meeplecam::sim::camera::{apply_homography, invert_homography};
use meeplecam::sim::figures::colour_bgr;
use meeplecam::vision::board::consistent_reading;
use meeplecam::vision::calibration::Calibration;
use meeplecam::vision::eval::{evaluate_boards, evaluate_tiles};
use meeplecam::vision::figures::Enrolment;
use meeplecam::vision::locate::Located;
use meeplecam::vision::locate::{find_start_tile, read_board, table_colours_near};
use meeplecam::vision::meeples::read_followers;
use meeplecam::vision::rectify::quad_patch;
use meeplecam::vision::rectify::MARGIN_PX;
use meeplecam::vision::rectify::PATCH_PX;
use meeplecam::vision::terrain::ColourModel;
use meeplecam::vision::tile::Candidate;
use meeplecam::vision::tile::TileRecognizer;
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
    let name = args.image.to_str().context("image path is not UTF-8")?;
    let img = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR).context("reading the image")?;
    if img.empty() || img.cols() < 8 || img.rows() < 8 {
        return Err(Failure::BadInput(anyhow!(
            "cannot read {} as an image",
            args.image.display()
        )));
    }
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
    /// What to evaluate: the vision stages, or tracking whole games end to end.
    #[arg(value_parser = ["vision", "track"])]
    what: String,
    /// Turns per game when evaluating tracking.
    #[arg(long, default_value_t = 20)]
    turns: usize,
    /// Number of boards to render.
    #[arg(long, default_value_t = 20)]
    generate: usize,
    /// Seed of the rendered boards.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
    /// Draw the tiles from this folder of real artwork (`labels.json` and images) instead of
    /// painting them.
    #[arg(long)]
    art: Option<PathBuf>,
}

pub fn eval(args: EvalArgs) -> Result<(), Failure> {
    if args.what == "track" {
        let report =
            meeplecam::track::eval::evaluate_tracking(args.generate, args.turns, args.seed)?;
        println!(
            "Tracking {} filmed games of {} turns (seed {}), from the frames alone:\n",
            args.generate, args.turns, args.seed
        );
        print!("{}", report.table());
        print!("\nPer game:\n\n{}", report.games_table());
        return Ok(());
    }
    let artwork = match &args.art {
        Some(dir) => Some(Artwork::load(dir).map_err(Failure::BadInput)?),
        None => None,
    };
    let report = evaluate_tiles(args.generate, args.seed, artwork.as_ref())?;
    let art = match (&args.art, &artwork) {
        (Some(dir), Some(a)) => format!(", {} tile types from {}", a.len(), dir.display()),
        _ => String::new(),
    };
    println!(
        "Tile recognition on {} rendered boards (seed {}{art}), true grid registration:\n",
        args.generate, args.seed
    );
    println!("{}", report.table());
    println!(
        "Per-tile reads by condition:\n\n{}",
        report.breakdown.table()
    );
    let report = evaluate_boards(args.generate, args.seed, artwork.as_ref())?;
    println!(
        "Full read of the same boards: grid registered from a setup frame of the start tile, \
         nothing taken from the truth:\n"
    );
    print!("{}", report.table());
    Ok(())
}

/// Register the table from a setup photo showing the start tile alone.
#[derive(Debug, clap::Args)]
pub struct CalibrateArgs {
    /// What to calibrate.
    #[arg(value_parser = ["start-tile"])]
    what: String,
    /// The setup photo.
    image: PathBuf,
    /// Where to write the calibration (OpenCV YAML).
    #[arg(long, default_value = "calibration/table.yaml")]
    out: PathBuf,
}

fn read_image(path: &std::path::Path) -> Result<opencv::core::Mat, Failure> {
    let name = path.to_str().context("image path is not UTF-8")?;
    let img = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR).context("reading the image")?;
    if img.empty() || img.cols() < 16 || img.rows() < 16 {
        return Err(Failure::BadInput(anyhow!(
            "cannot read {} as an image",
            path.display()
        )));
    }
    Ok(img)
}

pub fn calibrate(args: CalibrateArgs) -> Result<(), Failure> {
    let img = read_image(&args.image)?;
    let mut colours = ColourModel::default();
    let start = find_start_tile(&img, &colours)
        .context("looking for the start tile")?
        .ok_or_else(|| {
            Failure::BadInput(anyhow!(
                "no start tile found in {}: show it alone on the table",
                args.image.display()
            ))
        })?;
    let (patch, _) = quad_patch(&img, &start, 0).context("cutting out the start tile")?;
    colours
        .calibrate(&patch, "D", Rotation::R0)
        .context("learning colours")?;
    let calibration = Calibration {
        size: [img.cols(), img.rows()],
        start,
        table: table_colours_near(&img, &start).context("table colours")?,
        colours,
    };
    calibration.save(&args.out)?;
    println!(
        "start tile at {:?}; wrote {}",
        start.map(|p| [p[0].round(), p[1].round()]),
        args.out.display()
    );
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
    for l in found {
        let Some((_, c)) = read.iter().find(|(p, _)| *p == l.pos) else {
            continue;
        };
        let (patch, to_patch) = quad_patch(img, &l.quad, MARGIN_PX)?;
        let back = invert_homography(&to_patch);
        let (_, blobs) = enrolment.find(&patch, colours, 0.03)?;
        for f in read_followers(&blobs, MARGIN_PX, [0.0, 0.0], c.tile, c.rot) {
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
    let img = read_image(&args.image)?;
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
    let readings: Vec<_> = found
        .iter()
        .skip(1)
        .map(|l| (l.pos, l.candidates.clone()))
        .collect();
    let fixed = [(found[0].pos, found[0].candidates[0])];
    let read = consistent_reading(&readings, &fixed, tileset);
    let mut tiles: Vec<(meeplecam::rules::Pos, meeplecam::vision::tile::Candidate)> =
        fixed.to_vec();
    tiles.extend(read);
    let homography =
        meeplecam::vision::locate::quad_homography(&calibration.start).context("homography")?;
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
        println!(
            "{:#}",
            json!({"tiles": list, "meeples": meeples, "homography_grid_to_image": homography})
        );
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

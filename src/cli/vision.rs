//! `meeplecam recognize-tile` and `meeplecam eval vision`.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use opencv::core::{Rect, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use serde_json::json;

use meeplecam::rules::catalogue;
use meeplecam::vision::eval::{evaluate_boards, evaluate_tiles};
use meeplecam::vision::rectify::PATCH_PX;
use meeplecam::vision::terrain::ColourModel;
use meeplecam::vision::tile::TileRecognizer;

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
    /// The stage set to evaluate.
    #[arg(value_parser = ["vision"])]
    what: String,
    /// Number of boards to render.
    #[arg(long, default_value_t = 20)]
    generate: usize,
    /// Seed of the rendered boards.
    #[arg(long, default_value_t = 1000)]
    seed: u64,
}

pub fn eval(args: EvalArgs) -> Result<(), Failure> {
    let report = evaluate_tiles(args.generate, args.seed)?;
    println!(
        "Tile recognition on {} rendered boards (seed {}), true grid registration:\n",
        args.generate, args.seed
    );
    println!("{}", report.table());
    let report = evaluate_boards(args.generate, args.seed)?;
    println!(
        "Full read of the same boards: grid registered from a setup frame of the start tile, \
         nothing taken from the truth:\n"
    );
    print!("{}", report.table());
    Ok(())
}

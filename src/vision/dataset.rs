//! The evaluation data set: rendered boards with their ground truth, in memory or on disk.
//!
//! A board is a mid-game picture (30–70 tiles, overhead or oblique, 720p or 1080p, a random
//! style, table top and light), the setup picture of its start tile alone from the same camera,
//! the players' colours and the frame's [`FrameTruth`]. On disk, board `k` of a folder is
//! `board-kkk.png`, `board-kkk-setup.png` (lossless) and `board-kkk.json`:
//!
//! ```json
//! { "meeplecam_vision": 1, "image": "board-000.png", "setup": "board-000-setup.png",
//!   "players": ["red", "blue"], "conditions": ["view: Overhead", …], "truth": { … } }
//! ```
//!
//! `truth` is the simulator's frame truth (see [`crate::sim::truth`]), whose camera and light
//! the evaluation also uses: cells are cut out with the true camera, and the players' figure
//! colours are "enrolled" under the true light.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use opencv::core::Mat;
use opencv::imgcodecs;
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::figures::Enrolment;
use crate::record::selfplay::random_record;
use crate::rules::{Colour, RuleOptions};
use crate::sim::artwork::Artwork;
use crate::sim::figures::colour_bgr;
use crate::sim::output::write_png;
use crate::sim::scene::Renderer;
use crate::sim::style::Style;
use crate::sim::table::Surface;
use crate::sim::timeline::{Film, Filming, View};
use crate::sim::truth::FrameTruth;

/// The format version of a board's JSON file.
const FORMAT: u32 = 1;

/// One board of the data set.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its name (`board-000`).
    pub name: String,
    /// The board as the camera saw it.
    pub image: Mat,
    /// The start tile alone, from the same camera (the setup frame calibrations are made on).
    pub setup: Mat,
    /// The players' colours in turn order.
    pub players: Vec<Colour>,
    /// The conditions it was rendered in, in words (`view: Oblique`, `table: Checked`, …).
    pub conditions: Vec<String>,
    /// The ground truth of `image`.
    pub truth: FrameTruth,
}

impl Sample {
    /// The players' figure colours as enrolled under the board's light.
    pub fn enrolment(&self) -> Enrolment {
        let gain = self.truth.lighting.gain;
        Enrolment::new(
            self.players
                .iter()
                .map(|&p| {
                    let c = colour_bgr(p);
                    [0, 1, 2].map(|i| (c[i] * gain[i]) as f32)
                })
                .collect(),
            55.0,
        )
    }
}

/// What a board's JSON file holds.
#[derive(Serialize, Deserialize)]
struct BoardFile {
    meeplecam_vision: u32,
    image: String,
    setup: String,
    players: Vec<Colour>,
    conditions: Vec<String>,
    truth: FrameTruth,
}

/// Board `i` of the data set made with `seed`: a random game of 2–5 players stopped after 29–69
/// turns, filmed in random conditions; tiles drawn from `artwork` where given.
pub fn render_board(seed: u64, i: usize, artwork: Option<&Artwork>) -> anyhow::Result<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
    let players = rng.random_range(2..=5);
    let mut record = random_record("base", players, RuleOptions::default(), rng.random())?;
    record.turns.truncate(rng.random_range(29..=69));
    let filming = Filming {
        view: if rng.random_bool(0.5) {
            View::Overhead
        } else {
            View::Oblique
        },
        size: if rng.random_bool(0.5) {
            [1280, 720]
        } else {
            [1920, 1080]
        },
        fps: 5.0,
        seed: rng.random(),
    };
    let film = Film::plan(&record, &filming)?;
    let shot = film
        .shots()
        .last()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("empty film"))?;
    let surface = Surface::ALL[rng.random_range(0..Surface::ALL.len())];
    let style = rng.random_range(0..Style::PRESETS);
    let mut renderer = Renderer::new(Style::preset(style), surface, rng.random());
    if let Some(a) = artwork {
        renderer = renderer.with_artwork(a.clone());
    }
    let mut setup = shot.scene.clone();
    setup.tiles.truncate(1);
    setup.meeples.clear();
    let setup = renderer.render(&setup, &shot.sensor, 1)?.image;
    let frame = renderer.render(&shot.scene, &shot.sensor, 0)?;
    Ok(Sample {
        name: format!("board-{i:03}"),
        image: frame.image,
        setup,
        players: record.players.iter().map(|p| p.colour).collect(),
        conditions: vec![
            format!("view: {:?}", filming.view),
            format!("table: {surface:?}"),
            format!("style: {style}"),
            format!("image: {}p", filming.size[1]),
        ],
        truth: frame.truth,
    })
}

/// Writes `sample` into `dir` (which must exist) as its three files.
pub fn write_board(dir: &Path, sample: &Sample) -> anyhow::Result<()> {
    let image = format!("{}.png", sample.name);
    let setup = format!("{}-setup.png", sample.name);
    write_png(&dir.join(&image), &sample.image)?;
    write_png(&dir.join(&setup), &sample.setup)?;
    let file = BoardFile {
        meeplecam_vision: FORMAT,
        image,
        setup,
        players: sample.players.clone(),
        conditions: sample.conditions.clone(),
        truth: sample.truth.clone(),
    };
    let path = dir.join(format!("{}.json", sample.name));
    std::fs::write(&path, serde_json::to_string_pretty(&file)?)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A data set folder: its boards' JSON files, in name order.
#[derive(Clone, Debug)]
pub struct Dataset {
    boards: Vec<PathBuf>,
}

impl Dataset {
    /// The boards in `dir`; an error when it cannot be read or holds none.
    pub fn open(dir: &Path) -> anyhow::Result<Dataset> {
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        let mut boards = Vec::new();
        for entry in entries {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with("board-") && name.ends_with(".json") {
                boards.push(path);
            }
        }
        if boards.is_empty() {
            bail!(
                "{} holds no board-*.json files: make a data set with \
                 `meeplecam eval vision --generate N --seed S --dataset DIR`",
                dir.display()
            );
        }
        boards.sort();
        Ok(Dataset { boards })
    }

    /// How many boards it holds.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Whether it holds none (never, once opened).
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// Board `i` with its pictures; a clear error naming the file when it is malformed.
    pub fn load(&self, i: usize) -> anyhow::Result<Sample> {
        let path = self.boards.get(i).context("no such board")?;
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let file: BoardFile = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a board of a vision data set", path.display()))?;
        if file.meeplecam_vision != FORMAT {
            bail!(
                "{}: data set format {} (this build reads {FORMAT})",
                path.display(),
                file.meeplecam_vision
            );
        }
        if file.truth.tiles.is_empty() {
            bail!(
                "{}: the truth lists no tiles (not even the start tile)",
                path.display()
            );
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let image = read_image(&dir.join(&file.image))?;
        let setup = read_image(&dir.join(&file.setup))?;
        let want = file.truth.camera.size;
        for (img, name) in [(&image, &file.image), (&setup, &file.setup)] {
            if [img.cols(), img.rows()] != want {
                bail!(
                    "{}: {name} is {}×{}, its truth's camera {}×{}",
                    path.display(),
                    img.cols(),
                    img.rows(),
                    want[0],
                    want[1]
                );
            }
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("board")
            .to_string();
        Ok(Sample {
            name,
            image,
            setup,
            players: file.players,
            conditions: file.conditions,
            truth: file.truth,
        })
    }
}

fn read_image(path: &Path) -> anyhow::Result<Mat> {
    let name = path.to_str().context("path is not UTF-8")?;
    let img = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if img.empty() {
        bail!("cannot read {} as an image", path.display());
    }
    Ok(img)
}

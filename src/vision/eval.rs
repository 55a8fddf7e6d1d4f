//! Evaluation of the vision stages on rendered boards with ground truth.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::consistent_reading;
use super::figures::Enrolment;
use super::rectify::{cell_patch, cell_patch_margin, MARGIN_PX};
use super::terrain::{same_for_the_rules, ColourModel};
use super::tile::{Candidate, TileRecognizer};
use crate::record::selfplay::random_record;
use crate::rules::{catalogue, Pos, Rotation, RuleOptions};
use crate::sim::figures::colour_bgr;
use crate::sim::scene::Renderer;
use crate::sim::style::Style;
use crate::sim::table::Surface;
use crate::sim::timeline::{Film, Filming, View};

/// What one evaluation run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileReport {
    /// Images rendered.
    pub images: usize,
    /// Tiles read (the start tile excluded: it calibrates).
    pub tiles: usize,
    /// Tiles whose type and rotation were right (rotations the rules cannot tell apart count as
    /// right).
    pub right: usize,
    /// Tiles whose type was right.
    pub type_right: usize,
    /// Tiles whose true reading was among the top three.
    pub top3: usize,
    /// Images with every tile right.
    pub boards_right: usize,
    /// Tiles right with the uncalibrated default colours and no figure masking.
    pub right_uncalibrated: usize,
    /// Tiles with no follower on them.
    pub bare: usize,
    /// Of those, tiles whose type and rotation were right.
    pub bare_right: usize,
    /// Tiles right after the board read with rules priors (edges, counts).
    pub right_with_rules: usize,
    /// Images with every tile right after the rules priors.
    pub boards_right_with_rules: usize,
    /// Milliseconds per tile recognition (rectify + classify + match), sorted.
    pub tile_ms: Vec<f64>,
    /// (true type, read type) of wrong reads, with counts, most frequent first.
    pub confusions: Vec<((String, String), usize)>,
}

impl TileReport {
    /// Median recognition time per tile, ms.
    pub fn median_ms(&self) -> f64 {
        self.tile_ms
            .get(self.tile_ms.len() / 2)
            .copied()
            .unwrap_or(0.0)
    }

    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| measure | value |\n|---|---|\n\
             | images | {} |\n| tiles read | {} |\n\
             | type + rotation right (start-tile calibrated colours) | {:.2} % |\n\
             | type + rotation right, board read with rules priors | {:.2} % |\n\
             | whole board right, with rules priors | {:.1} % |\n\
             | type + rotation right (default colours, figures not masked) | {:.2} % |\n\
             | type + rotation right, tiles with no follower on them | {:.2} % |\n\
             | type right | {:.2} % |\n| truth in top 3 | {:.2} % |\n\
             | whole board right | {:.1} % |\n| median time per tile | {:.3} ms |\n\n\
             most frequent confusions (true → read): {}\n",
            self.images,
            self.tiles,
            pct(self.right, self.tiles),
            pct(self.right_with_rules, self.tiles),
            pct(self.boards_right_with_rules, self.images),
            pct(self.right_uncalibrated, self.tiles),
            pct(self.bare_right, self.bare),
            pct(self.type_right, self.tiles),
            pct(self.top3, self.tiles),
            pct(self.boards_right, self.images),
            self.median_ms(),
            self.confusions
                .iter()
                .take(8)
                .map(|((t, r), n)| format!("{t}→{r} ×{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// Renders `images` random mid-game boards (30–70 tiles, overhead and oblique, 720p and 1080p,
/// every style and table top) and reads every tile with the true grid registration.
pub fn evaluate_tiles(images: usize, seed: u64) -> anyhow::Result<TileReport> {
    let cat = catalogue();
    let recognizer = TileRecognizer::for_set(cat.set("base").expect("the base set"));
    let mut report = TileReport::default();
    for i in 0..images {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
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
            .ok_or_else(|| anyhow::anyhow!("empty film"))?;
        let surface = Surface::ALL[rng.random_range(0..Surface::ALL.len())];
        let mut renderer = Renderer::new(
            Style::preset(rng.random_range(0..Style::PRESETS)),
            surface,
            rng.random(),
        );
        let frame = renderer.render(&shot.scene, &shot.sensor, 0)?;
        let cam = &frame.truth.camera;
        let mut model = ColourModel::default();
        if let Some(start) = cell_patch(&frame.image, cam, Pos::new(0, 0))? {
            model.calibrate(&start, "D", Rotation::R0)?;
        }
        let default_model = ColourModel::default();
        // The players enrolled their figures under this light.
        let gain = shot.scene.lighting.gain;
        let enrolment = Enrolment::new(
            record
                .players
                .iter()
                .map(|p| {
                    let c = colour_bgr(p.colour);
                    [0, 1, 2].map(|i| (c[i] * gain[i]) as f32)
                })
                .collect(),
            55.0,
        );
        let mut all_right = true;
        report.images += 1;
        let mut readings = Vec::new();
        let mut truths = Vec::new();
        for t in frame.truth.tiles.iter().skip(1) {
            let Some(id) = cat.tile_id(&t.tile) else {
                continue;
            };
            let rot = Rotation::from_degrees(t.rot).unwrap_or_default();
            let started = Instant::now();
            let cell = Pos::new(t.cell[0], t.cell[1]);
            let Some(patch) = cell_patch_margin(&frame.image, cam, cell, MARGIN_PX)? else {
                continue;
            };
            let figures = enrolment.figure_mask(&patch, &model, 0.03)?;
            let ranked =
                recognizer.recognize_shifted(&patch, MARGIN_PX as usize, &model, Some(&figures))?;
            report
                .tile_ms
                .push(started.elapsed().as_secs_f64() * 1000.0);
            readings.push((Pos::new(t.cell[0], t.cell[1]), ranked.clone()));
            truths.push((Pos::new(t.cell[0], t.cell[1]), (id, rot)));
            let same = |c: &Candidate| c.tile == id && same_for_the_rules(id, c.rot, rot);
            report.tiles += 1;
            let bare = !frame.truth.meeples.iter().any(|m| m.cell == t.cell);
            if bare {
                report.bare += 1;
                if ranked.first().is_some_and(same) {
                    report.bare_right += 1;
                }
            }
            if ranked.first().is_some_and(same) {
                report.right += 1;
            } else {
                all_right = false;
                let read = ranked
                    .first()
                    .map(|c| cat.tile(c.tile).name.clone())
                    .unwrap_or_default();
                let key = (t.tile.clone(), read);
                match report.confusions.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => report.confusions.push((key, 1)),
                }
            }
            if ranked.first().is_some_and(|c| c.tile == id) {
                report.type_right += 1;
            }
            if ranked.iter().take(3).any(same) {
                report.top3 += 1;
            }
            if recognizer
                .recognize(&patch, &default_model)?
                .first()
                .is_some_and(same)
            {
                report.right_uncalibrated += 1;
            }
        }
        if all_right {
            report.boards_right += 1;
        }
        let start = Candidate {
            tile: cat.tile_id("D").expect("the start tile"),
            rot: Rotation::R0,
            probability: 1.0,
        };
        let tileset = cat.set("base").expect("the base set");
        let read = consistent_reading(&readings, &[(Pos::new(0, 0), start)], tileset);
        let mut board_right = true;
        for (pos, c) in &read {
            let Some((_, (id, rot))) = truths.iter().find(|(p, _)| p == pos) else {
                continue;
            };
            if c.tile == *id && same_for_the_rules(*id, c.rot, *rot) {
                report.right_with_rules += 1;
            } else {
                board_right = false;
            }
        }
        if board_right {
            report.boards_right_with_rules += 1;
        }
    }
    report.tile_ms.sort_by(f64::total_cmp);
    report.confusions.sort_by_key(|c| std::cmp::Reverse(c.1));
    Ok(report)
}

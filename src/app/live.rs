//! The game screen: the camera picture with the overlay, the scoreboard, the event log with undo
//! and corrections.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use eframe::egui;

use super::correction::{self, Draft};
use super::enrol;
use super::lens::through_lens;
use super::setup::{new_journal_path, SetupForm, SourceKind};
use super::table::TableView;
use super::worker::{Command, Snapshot, Worker};
use super::{overlay, scoreboard};
use crate::camera::{self, Opened};
use crate::rules::catalogue;
use crate::track::session::Session;

/// A game on screen.
pub struct Live {
    worker: Worker,
    snapshot: Snapshot,
    texture: Option<egui::TextureHandle>,
    shown_seq: u64,
    hand: Option<String>,
    draft: Option<Draft>,
    journal: Option<PathBuf>,
    screenshot_asked: bool,
}

impl Live {
    /// Starts (or, with `resume`, continues) a game as the form says; its journal goes in `dir`.
    pub fn start(
        form: &SetupForm,
        resume: Option<PathBuf>,
        dir: &Path,
        speed: Option<f64>,
        ctx: &egui::Context,
    ) -> anyhow::Result<Live> {
        let Opened { source, truth } = camera::open(&form.source_spec())?;
        let (source, lens_trouble) = through_lens(source, form.intrinsics.trim());
        let mut session = match &resume {
            Some(path) => Session::resume(path, None)?,
            None => {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
                // The simulated table brings its own players.
                let players = truth.map_or_else(|| form.players.clone(), |t| t.players);
                Session::start(players, None, Some(&new_journal_path(dir)))?
            }
        };
        // The simulated table paints its figures in the usual colours.
        let meeples = match form.source {
            SourceKind::Simulated => &[][..],
            _ => &form.meeples[..],
        };
        let colours = enrol::figure_colours(session.tracker().players(), meeples);
        session = session.with_enrolment(colours)?;
        session.notices.extend(lens_trouble);
        let journal = session.journal_path().map(Path::to_path_buf);
        let pace = if source.is_live() {
            None
        } else {
            Some(speed.unwrap_or(1.0))
        };
        let repaint_ctx = ctx.clone();
        let worker = Worker::start(session, source, pace, move || repaint_ctx.request_repaint());
        Ok(Live {
            snapshot: worker.snapshot(),
            worker,
            texture: None,
            shown_seq: 0,
            hand: None,
            draft: None,
            journal,
            screenshot_asked: false,
        })
    }

    /// The game as last shown.
    pub fn table(&self) -> Arc<TableView> {
        Arc::clone(&self.snapshot.table)
    }

    /// Draws the game screen; true when the players leave the game.
    pub fn show(&mut self, ui: &mut egui::Ui, patterns: bool) -> bool {
        self.snapshot = self.worker.snapshot();
        self.update_texture(ui.ctx());
        let table = Arc::clone(&self.snapshot.table);
        let mut leave = false;
        egui::Panel::top("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Undo last turn").clicked() {
                    self.worker.send(Command::Undo);
                }
                if ui.button("Leave game").clicked() {
                    leave = true;
                }
                ui.separator();
                ui.label(&self.snapshot.status);
                ui.separator();
                ui.label(format!(
                    "{:.0} frames/s, last read {:.0} ms",
                    self.snapshot.fps, self.snapshot.read_ms
                ));
                if let Some(j) = &self.journal {
                    ui.separator();
                    ui.label(format!("journal: {}", j.display()));
                }
            });
            if let Some(r) = &self.snapshot.refusal {
                ui.colored_label(
                    egui::Color32::from_rgb(220, 60, 60),
                    format!("Refused: {r}"),
                );
            }
            for n in &self.snapshot.notices {
                ui.colored_label(egui::Color32::from_rgb(230, 160, 40), n);
            }
        });
        egui::Panel::right("score")
            .default_size(340.0)
            .show(ui, |ui| {
                scoreboard::show(ui, &table, patterns);
                ui.separator();
                self.hand_picker(ui);
            });
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(200.0)
            .show(ui, |ui| {
                if let Some(i) = scoreboard::log(ui, &table) {
                    self.draft = table.turns.get(i).map(|t| Draft::of(i, t));
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            overlay::show(ui, self.texture.as_ref(), &self.snapshot, &table, patterns);
        });
        if let Some(draft) = &mut self.draft {
            match correction::show(ui.ctx(), draft) {
                Some(Some(entry)) => {
                    let index = draft.index;
                    self.worker.send(Command::Correct { index, entry });
                    self.draft = None;
                }
                Some(None) => self.draft = None,
                None => {}
            }
        }
        leave
    }

    /// Says which tile the current player holds (by name; unknown names are ignored).
    pub fn hold(&mut self, tile: &str) {
        if let Some(id) = catalogue().tile_id(tile) {
            self.hand = Some(tile.to_string());
            self.worker.send(Command::Hand(Some(id)));
        }
    }

    fn hand_picker(&mut self, ui: &mut egui::Ui) {
        let cat = catalogue();
        let before = self.hand.clone();
        egui::ComboBox::from_label("Tile in hand")
            .selected_text(self.hand.as_deref().unwrap_or("no tile"))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.hand, None, "no tile");
                if let Some(set) = cat.set("base") {
                    for &(id, _) in &set.counts {
                        let name = cat.tile(id).name.clone();
                        ui.selectable_value(&mut self.hand, Some(name.clone()), name);
                    }
                }
            });
        if self.hand != before {
            let tile = self.hand.as_deref().and_then(|n| cat.tile_id(n));
            self.worker.send(Command::Hand(tile));
        }
    }

    fn update_texture(&mut self, ctx: &egui::Context) {
        let Some((picture, _)) = &self.snapshot.picture else {
            return;
        };
        if self.shown_seq == self.snapshot.picture_seq && self.texture.is_some() {
            return;
        }
        self.shown_seq = self.snapshot.picture_seq;
        let image = egui::ImageData::Color(Arc::clone(picture));
        match &mut self.texture {
            Some(t) => t.set(image, egui::TextureOptions::LINEAR),
            None => {
                self.texture = Some(ctx.load_texture("camera", image, egui::TextureOptions::LINEAR))
            }
        }
    }

    /// Once `turns` turns are on the table (or the source ended), saves a screenshot of the
    /// window to `path` as PNG and closes the window.
    pub fn screenshot_when_ready(&mut self, ctx: &egui::Context, path: &Path, turns: usize) {
        let ready = self.snapshot.table.turns.len() >= turns || self.snapshot.finished;
        if !ready || self.screenshot_asked || self.texture.is_none() {
            return;
        }
        self.screenshot_asked = true;
        let path = path.to_path_buf();
        let closer = ctx.clone();
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |image| {
                if let Err(e) = save_png(&image, &path) {
                    eprintln!("cannot save the screenshot: {e:#}");
                }
                closer.send_viewport_cmd(egui::ViewportCommand::Close);
                closer.request_repaint();
            }),
        ));
    }
}

fn save_png(image: &egui::ColorImage, path: &Path) -> anyhow::Result<()> {
    use opencv::core::{Mat, Vector};
    use opencv::prelude::*;
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|p| p.to_array()).collect();
    let flat = Mat::from_slice(&bytes)?;
    let rgba = flat.reshape(4, h as i32)?;
    let mut bgr = Mat::default();
    opencv::imgproc::cvt_color(&rgba, &mut bgr, opencv::imgproc::COLOR_RGBA2BGR, 0)?;
    anyhow::ensure!(bgr.cols() == w as i32, "the screenshot has the wrong size");
    let name = path.to_str().context("screenshot path is not UTF-8")?;
    anyhow::ensure!(
        opencv::imgcodecs::imwrite(name, &bgr, &Vector::new())?,
        "cannot write {}",
        path.display()
    );
    Ok(())
}

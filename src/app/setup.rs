//! The setup screen: players and their colours, where the pictures come from, and the games
//! that can be resumed.

use std::path::{Path, PathBuf};

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::enrol::{self, MeepleColour};
use crate::camera::SourceSpec;
use crate::record::PlayerEntry;
use crate::rules::Colour;

/// Where the pictures come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SourceKind {
    /// The simulated table playing a random game (no camera needed).
    Simulated,
    /// A webcam, by (part of) its name; the first one if empty.
    Webcam,
    /// A video file or a folder of images.
    File,
}

/// Everything the setup screen asks; remembered between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetupForm {
    /// Players in turn order.
    pub players: Vec<PlayerEntry>,
    /// Draw a shape per player beside each colour.
    pub patterns: bool,
    /// Where the pictures come from.
    pub source: SourceKind,
    /// Part of the webcam's name.
    pub camera: String,
    /// Video file or image folder.
    pub file: String,
    /// Seed of the simulated game.
    pub seed: u64,
    /// The figure colours players enrolled (the nominal colours for the others).
    pub meeples: Vec<MeepleColour>,
    /// Camera intrinsics file (`meeplecam calibrate intrinsics`); empty for none.
    pub intrinsics: String,
    /// Cameras found the last time the player asked.
    #[serde(skip)]
    pub cameras: Option<Result<Vec<String>, String>>,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm {
            players: ["Ann", "Bob"]
                .iter()
                .zip(Colour::ALL)
                .map(|(name, colour)| PlayerEntry {
                    name: name.to_string(),
                    colour,
                })
                .collect(),
            patterns: false,
            source: SourceKind::Simulated,
            camera: String::new(),
            file: String::new(),
            seed: 1,
            meeples: Vec::new(),
            intrinsics: String::new(),
            cameras: None,
        }
    }
}

impl SetupForm {
    /// The source the form names.
    pub fn source_spec(&self) -> SourceSpec {
        match self.source {
            SourceKind::Simulated => SourceSpec::Simulated { seed: self.seed },
            SourceKind::Webcam => SourceSpec::Webcam {
                name: Some(self.camera.trim().to_string()).filter(|n| !n.is_empty()),
            },
            SourceKind::File => SourceSpec::Path(PathBuf::from(self.file.trim())),
        }
    }

    /// Keeps `bgr` as the colour the camera sees figures of `colour` in.
    pub fn enrol(&mut self, colour: Colour, bgr: [f32; 3]) {
        self.meeples.retain(|m| m.colour != colour);
        self.meeples.push(MeepleColour { colour, bgr });
    }
}

/// What the player chose on the setup screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// Start a new game.
    Start,
    /// Continue the game in this journal.
    Resume(PathBuf),
    /// Enrol the players' meeple colours.
    Enrol,
}

/// Where journals go unless told otherwise: `$XDG_DATA_HOME/meeplecam/games` or
/// `~/.local/share/meeplecam/games`.
pub fn default_journal_dir() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    data.join("meeplecam").join("games")
}

/// The most recently written journal in `dir`.
pub fn latest_journal(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "journal"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
}

/// A fresh journal name in `dir`.
pub fn new_journal_path(dir: &Path) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut n = 0;
    loop {
        let name = if n == 0 {
            format!("game-{secs}.journal")
        } else {
            format!("game-{secs}-{n}.journal")
        };
        let path = dir.join(name);
        if !path.exists() {
            return path;
        }
        n += 1;
    }
}

/// Draws the setup screen; returns what the player chose, if anything.
pub fn show(
    ui: &mut egui::Ui,
    form: &mut SetupForm,
    journal_dir: &Path,
    message: Option<&str>,
) -> Option<Choice> {
    let mut choice = None;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.heading("New game");
        ui.add_space(8.0);
        players(ui, form);
        ui.checkbox(&mut form.patterns, "Colour-blind patterns");
        ui.add_space(8.0);
        source(ui, form);
        ui.add_space(8.0);
        if meeples(ui, form) {
            choice = Some(Choice::Enrol);
        }
        ui.add_space(8.0);
        lens(ui, form);
        ui.add_space(12.0);
        if ui.button("Start game").clicked() {
            choice = Some(Choice::Start);
        }
        if let Some(path) = latest_journal(journal_dir) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let label = format!("Resume last game ({})", name.unwrap_or_default());
            if ui.button(label).clicked() {
                choice = Some(Choice::Resume(path));
            }
        }
        if let Some(m) = message {
            ui.colored_label(egui::Color32::from_rgb(220, 60, 60), m);
        }
    });
    choice
}

fn players(ui: &mut egui::Ui, form: &mut SetupForm) {
    let simulated = form.source == SourceKind::Simulated;
    if simulated {
        ui.label("The simulated table brings its own players.");
        return;
    }
    let mut remove = None;
    let count = form.players.len();
    egui::Grid::new("players").num_columns(3).show(ui, |ui| {
        for (i, player) in form.players.iter_mut().enumerate() {
            let n = i + 1;
            let label = ui.label(format!("Player {n} name"));
            ui.text_edit_singleline(&mut player.name)
                .labelled_by(label.id);
            egui::ComboBox::from_label(format!("Player {n} colour"))
                .selected_text(player.colour.name())
                .show_ui(ui, |ui| {
                    for c in Colour::ALL {
                        ui.selectable_value(&mut player.colour, c, c.name());
                    }
                });
            if count > 2 && ui.button(format!("Remove player {n}")).clicked() {
                remove = Some(i);
            }
            ui.end_row();
        }
    });
    if let Some(i) = remove {
        form.players.remove(i);
    }
    if form.players.len() < 8 && ui.button("Add player").clicked() {
        let colour = Colour::ALL
            .into_iter()
            .find(|c| form.players.iter().all(|p| p.colour != *c))
            .unwrap_or(Colour::Red);
        let n = form.players.len() + 1;
        form.players.push(PlayerEntry {
            name: format!("Player {n}"),
            colour,
        });
    }
}

fn source(ui: &mut egui::Ui, form: &mut SetupForm) {
    ui.label("Pictures from");
    ui.radio_value(&mut form.source, SourceKind::Simulated, "Simulated table");
    ui.radio_value(&mut form.source, SourceKind::Webcam, "Webcam");
    ui.radio_value(
        &mut form.source,
        SourceKind::File,
        "Video file or image folder",
    );
    match form.source {
        SourceKind::Simulated => {
            ui.horizontal(|ui| {
                let label = ui.label("Simulation seed");
                ui.add(egui::DragValue::new(&mut form.seed))
                    .labelled_by(label.id);
            });
        }
        SourceKind::Webcam => {
            ui.horizontal(|ui| {
                let label = ui.label("Camera name (empty: the first)");
                ui.text_edit_singleline(&mut form.camera)
                    .labelled_by(label.id);
            });
            if ui.button("Find cameras").clicked() {
                form.cameras =
                    Some(crate::camera::webcam::list_cameras().map_err(|e| format!("{e:#}")));
            }
            match &form.cameras {
                Some(Ok(names)) if names.is_empty() => {
                    ui.label("No camera found; plug one in.");
                }
                Some(Ok(names)) => {
                    let mut picked = None;
                    for name in names {
                        if ui.button(format!("Use {name}")).clicked() {
                            picked = Some(name.clone());
                        }
                    }
                    if let Some(name) = picked {
                        form.camera = name;
                    }
                }
                Some(Err(e)) => {
                    ui.label(e.as_str());
                }
                None => {}
            }
        }
        SourceKind::File => {
            ui.horizontal(|ui| {
                let label = ui.label("Path of the video or folder");
                ui.text_edit_singleline(&mut form.file)
                    .labelled_by(label.id);
            });
        }
    }
}

/// The players' meeple colours (a swatch each, enrolled or nominal) and the warnings for
/// colours too alike; true when the players ask to enrol.
fn meeples(ui: &mut egui::Ui, form: &mut SetupForm) -> bool {
    if form.source == SourceKind::Simulated {
        return false;
    }
    ui.label("Meeple colours (optional: without them the camera looks for the usual colours)");
    let mut forget = None;
    for player in &form.players {
        let taken = enrol::enrolled(&form.meeples, player.colour);
        ui.horizontal(|ui| {
            let bgr = taken.unwrap_or_else(|| enrol::nominal(player.colour));
            enrol::swatch(ui, Some(enrol::to_color32(bgr)));
            match taken {
                Some([b, g, r]) => {
                    ui.label(format!(
                        "{}'s meeple: taken (red {r:.0}, green {g:.0}, blue {b:.0})",
                        player.name
                    ));
                    if ui
                        .button(format!("Forget {}'s colour", player.name))
                        .clicked()
                    {
                        forget = Some(player.colour);
                    }
                }
                None => {
                    ui.label(format!(
                        "{}'s meeple: usual {}",
                        player.name,
                        player.colour.name()
                    ));
                }
            }
        });
    }
    if let Some(colour) = forget {
        form.meeples.retain(|m| m.colour != colour);
    }
    for warning in enrol::warnings(form) {
        ui.colored_label(egui::Color32::from_rgb(230, 160, 40), warning);
    }
    ui.button("Enrol meeple colours").clicked()
}

/// The optional camera intrinsics file.
fn lens(ui: &mut egui::Ui, form: &mut SetupForm) {
    ui.horizontal(|ui| {
        let label = ui.label("Camera intrinsics file (optional)");
        ui.text_edit_singleline(&mut form.intrinsics)
            .labelled_by(label.id);
    });
}

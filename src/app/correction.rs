//! The correction window: set a turn's tile, cell, rotation and follower by hand.

use eframe::egui;

use crate::record::{FollowerEntry, TurnEntry};
use crate::rules::{catalogue, Figure, Port, Pos, Rotation};

/// A turn being corrected.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// Which turn (0-based).
    pub index: usize,
    player: Option<String>,
    tile: String,
    x: i32,
    y: i32,
    rot: u16,
    follower: Option<String>,
}

impl Draft {
    /// Starts from what the tracker committed.
    pub fn of(index: usize, turn: &TurnEntry) -> Draft {
        Draft {
            index,
            player: turn.player.clone(),
            tile: turn.tile.clone(),
            x: turn.at.map_or(0, |p| p.x),
            y: turn.at.map_or(0, |p| p.y),
            rot: turn.rot.unwrap_or(0),
            follower: turn.follower.as_ref().map(|f| f.port.clone()),
        }
    }

    fn entry(&self) -> TurnEntry {
        let mut entry = TurnEntry::laid(&self.tile, Pos::new(self.x, self.y), self.rot);
        entry.player = self.player.clone();
        entry.follower = self.follower.as_ref().map(|port| FollowerEntry {
            port: port.clone(),
            figure: Figure::Normal,
        });
        entry
    }
}

/// The features of `tile` turned `rot` degrees: (kind, a port naming it).
fn features(tile: &str, rot: u16) -> Vec<(String, String)> {
    let cat = catalogue();
    let (Some(id), Some(rot)) = (cat.tile_id(tile), Rotation::from_degrees(rot)) else {
        return Vec::new();
    };
    let ty = cat.tile(id);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for port in Port::all() {
        if let Some(f) = ty.feature_at_rotated(port, rot) {
            if !seen.contains(&f) {
                seen.push(f);
                out.push((ty.features[f].kind.to_string(), port.name().to_string()));
            }
        }
    }
    out
}

/// Draws the window; `Some(Some(entry))` when applied, `Some(None)` when cancelled.
pub fn show(ctx: &egui::Context, draft: &mut Draft) -> Option<Option<TurnEntry>> {
    let mut outcome = None;
    let cat = catalogue();
    egui::Window::new(format!("Fix turn {}", draft.index + 1))
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ComboBox::from_label("Tile type")
                .selected_text(&draft.tile)
                .show_ui(ui, |ui| {
                    if let Some(set) = cat.set("base") {
                        for &(id, _) in &set.counts {
                            let name = cat.tile(id).name.clone();
                            ui.selectable_value(&mut draft.tile, name.clone(), name);
                        }
                    }
                });
            ui.horizontal(|ui| {
                let label = ui.label("Column");
                ui.add(egui::DragValue::new(&mut draft.x))
                    .labelled_by(label.id);
                let label = ui.label("Row");
                ui.add(egui::DragValue::new(&mut draft.y))
                    .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                for r in [0u16, 90, 180, 270] {
                    ui.radio_value(&mut draft.rot, r, format!("{r}°"));
                }
            });
            let options = features(&draft.tile, draft.rot);
            egui::ComboBox::from_label("Follower")
                .selected_text(draft.follower.as_deref().unwrap_or("no follower"))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut draft.follower, None, "no follower");
                    for (kind, port) in options {
                        ui.selectable_value(
                            &mut draft.follower,
                            Some(port.clone()),
                            format!("{kind} ({port})"),
                        );
                    }
                });
            ui.horizontal(|ui| {
                if ui.button("Apply correction").clicked() {
                    outcome = Some(Some(draft.entry()));
                }
                if ui.button("Cancel").clicked() {
                    outcome = Some(None);
                }
            });
        });
    outcome
}

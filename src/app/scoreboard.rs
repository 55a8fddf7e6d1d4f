//! The scoreboard (with the laps of the 50-point track), the score graph and the event log.

use eframe::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::overlay::{player_colour, player_mark};
use super::table::TableView;

/// Draws the scores, what the end would add, and the score history.
pub fn show(ui: &mut egui::Ui, table: &TableView, patterns: bool) {
    ui.heading("Score");
    egui::Grid::new("scoreboard")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.label("player");
            ui.label("points");
            ui.label("track");
            ui.label("if it ended now");
            ui.end_row();
            for (seat, player) in table.players.iter().enumerate() {
                let score = table.scores.get(seat).copied().unwrap_or(0);
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
                player_mark(
                    ui.painter(),
                    rect.center(),
                    8.0,
                    seat,
                    player.colour,
                    patterns,
                );
                let name = if seat == table.current {
                    egui::RichText::new(format!("» {} (to play)", player.name)).strong()
                } else {
                    egui::RichText::new(&player.name)
                };
                ui.label(name);
                ui.label(score.to_string());
                // The track has 50 spaces: the figure shows score mod 50, the lap tile the rest.
                let laps = score / 50;
                let track = if laps > 0 {
                    format!(
                        "{} (+{} lap{})",
                        score % 50,
                        laps,
                        if laps > 1 { "s" } else { "" }
                    )
                } else {
                    (score % 50).to_string()
                };
                ui.label(track);
                let end = table.if_ended_now.get(seat).copied().unwrap_or(score);
                ui.label(end.to_string());
                ui.end_row();
            }
        });
    ui.label(format!(
        "{} turns, {} tiles left",
        table.turns.len(),
        table.remaining
    ));
    if !table.registered {
        ui.colored_label(
            egui::Color32::from_rgb(230, 160, 40),
            "Looking for the start tile: show it alone on the table.",
        );
    }
    for q in &table.questions {
        ui.colored_label(
            egui::Color32::from_rgb(220, 60, 60),
            format!("Question: {q}"),
        );
    }
    for d in &table.doubts {
        ui.colored_label(
            egui::Color32::from_rgb(230, 160, 40),
            format!("Not sure yet: {d}"),
        );
    }
    Plot::new("score history")
        .height(180.0)
        .legend(Legend::default())
        .allow_scroll(false)
        .show(ui, |plot| {
            for (seat, player) in table.players.iter().enumerate() {
                let points: PlotPoints = table
                    .history
                    .iter()
                    .enumerate()
                    .map(|(turn, scores)| [turn as f64, f64::from(scores[seat])])
                    .collect();
                plot.line(
                    Line::new(player.name.clone(), points).color(player_colour(player.colour)),
                );
            }
        });
    if !table.final_lines.is_empty() {
        ui.collapsing("End-of-game scoring (if it ended now)", |ui| {
            for line in &table.final_lines {
                ui.label(score_text(table, line));
            }
        });
    }
}

fn score_text(table: &TableView, line: &super::table::ScoreLine) -> String {
    let names: Vec<&str> = line
        .players
        .iter()
        .filter_map(|&p| table.players.get(p).map(|p| p.name.as_str()))
        .collect();
    format!("{}: {} +{}", line.what, names.join(" and "), line.points)
}

/// Draws the event log, newest first; returns the turn (0-based) the player wants to fix.
pub fn log(ui: &mut egui::Ui, table: &TableView) -> Option<usize> {
    let mut fix = None;
    ui.heading("Turns");
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (i, turn) in table.turns.iter().enumerate().rev() {
                ui.horizontal(|ui| {
                    if ui.button(format!("Fix turn {}", i + 1)).clicked() {
                        fix = Some(i);
                    }
                    let who = turn.player.as_deref().unwrap_or("?");
                    let place = match (turn.at, turn.rot) {
                        (Some(at), Some(rot)) => format!("at ({}, {}) turned {rot}°", at.x, at.y),
                        _ => "discarded".to_string(),
                    };
                    let follower = turn
                        .follower
                        .as_ref()
                        .map(|f| format!(", follower on {}", f.port))
                        .unwrap_or_default();
                    ui.label(format!(
                        "Turn {}: {who} laid {} {place}{follower}",
                        i + 1,
                        turn.tile
                    ));
                });
                for line in table
                    .score_lines
                    .iter()
                    .filter(|l| l.turn == Some(i as u32 + 1))
                {
                    ui.label(format!("      {}", score_text(table, line)));
                }
            }
        });
    fix
}

//! Meeple colour enrolment: each player holds a meeple in a box in the middle of the live
//! picture and the colour the camera sees it in is kept, so the tracker looks for the figures
//! as they really look under the table's light.
//!
//! The picture comes from a preview thread (the window never waits for the camera); the colour
//! is measured in the window from the box's few thousand pixels.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use eframe::egui::{self, Color32, Pos2, Stroke};
use opencv::core::{Mat, Rect, Size};
use opencv::imgproc;
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

use super::setup::SetupForm;
use super::worker::display_picture;
use crate::camera::{self, SourceSpec};
use crate::record::PlayerEntry;
use crate::rules::Colour;
use crate::sim::figures::colour_bgr;

/// A figure colour as the camera saw it when a player enrolled it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeepleColour {
    /// The player colour whose figures these are.
    pub colour: Colour,
    /// Blue, green, red as the camera sees them.
    pub bgr: [f32; 3],
}

/// Box side as a share of the picture's shorter side.
const BOX_SHARE: f32 = 0.2;
/// The box is sampled on a grid this many pixels wide (at most).
const BOX_SAMPLES: i32 = 64;
/// Levels per channel of the colour histogram.
const LEVELS: usize = 8;
/// Chromaticity distance at which a pixel counts half as much for a coloured figure.
const HUE_SPREAD: f32 = 0.12;
/// Colour distance at which a pixel counts half as much for a black or gray figure.
const GREY_SPREAD: f32 = 80.0;
/// Colours nearer than this (BGR distance) are confused by the figure detector.
const CONFUSED_DISTANCE: f32 = 55.0;
/// Coloured figures with chromaticities nearer than this are confused by the detector.
const CONFUSED_HUE: f32 = 0.06;

/// The box players hold their meeple in: a square in the middle of a `width`×`height` picture.
pub fn enrol_box(width: i32, height: i32) -> Rect {
    let side = ((width.min(height) as f32 * BOX_SHARE) as i32).max(1);
    Rect::new((width - side) / 2, (height - side) / 2, side, side)
}

/// The pixels inside the box, row by row, sampled on a square grid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoxPixels {
    /// Pixels per row (and rows).
    pub side: usize,
    /// Blue, green, red of each sample.
    pub pixels: Vec<[u8; 3]>,
}

impl BoxPixels {
    /// The box of a camera frame (8-bit BGR).
    pub fn of(frame: &Mat) -> opencv::Result<BoxPixels> {
        let rect = enrol_box(frame.cols(), frame.rows());
        let inside = Mat::roi(frame, rect)?;
        let side = rect.width.min(BOX_SAMPLES);
        let mut small = Mat::default();
        imgproc::resize(
            &inside,
            &mut small,
            Size::new(side, side),
            0.0,
            0.0,
            imgproc::INTER_NEAREST,
        )?;
        let small = small.try_clone()?;
        let pixels = small
            .data_bytes()?
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        Ok(BoxPixels {
            side: side as usize,
            pixels,
        })
    }
}

/// Whether a colour is coloured (matched by hue) rather than black, gray or white.
fn saturated(c: [f32; 3]) -> bool {
    let max = c.iter().copied().fold(0.0f32, f32::max).max(1.0);
    let min = c.iter().copied().fold(f32::MAX, f32::min);
    (max - min) / max > 0.35
}

/// Blue, green and red shares of a colour (its hue and saturation, without its brightness).
fn chromaticity(c: [f32; 3]) -> [f32; 3] {
    let sum = (c[0] + c[1] + c[2]).max(1.0);
    c.map(|v| v / sum)
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
}

/// How much pixel `p` looks like paint of a figure of nominal colour `nominal` (0 to 1): by
/// hue for coloured figures (dark pixels, whose hue is noise, count less), by plain distance
/// for black and gray ones.
fn affinity(p: [f32; 3], nominal: [f32; 3]) -> f32 {
    if saturated(nominal) {
        let d = distance(chromaticity(p), chromaticity(nominal)) / HUE_SPREAD;
        let light = ((p[0] + p[1] + p[2]) / 60.0).min(1.0);
        light / (1.0 + d * d)
    } else {
        let d = distance(p, nominal) / GREY_SPREAD;
        1.0 / (1.0 + d * d)
    }
}

fn bin(p: [u8; 3]) -> [usize; 3] {
    p.map(|v| usize::from(v) * LEVELS / 256)
}

fn bin_index(b: [usize; 3]) -> usize {
    (b[0] * LEVELS + b[1]) * LEVELS + b[2]
}

/// Whether two bins are neighbours (or the same) on every axis.
fn near(a: [usize; 3], b: [usize; 3]) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= 1)
}

/// The weight of bin `b` and its neighbours in `hist`.
fn neighbourhood(hist: &[f32], b: [usize; 3]) -> f32 {
    let span = |v: usize| v.saturating_sub(1)..=(v + 1).min(LEVELS - 1);
    let mut mass = 0.0;
    for x in span(b[0]) {
        for y in span(b[1]) {
            for z in span(b[2]) {
                mass += hist[bin_index([x, y, z])];
            }
        }
    }
    mass
}

/// The colour of the meeple held in the box, for a player whose figures are nominally
/// `nominal`: the densest colour cluster of the box, pixels counted more the nearer the box's
/// middle (the hand holding it and the table reach in from the edges) and the more they look
/// like the nominal colour (skin and wood are not red). `None` for an empty box.
pub fn measure(samples: &BoxPixels, nominal: [f32; 3]) -> Option<[f32; 3]> {
    let n = samples.side as f32;
    let middle = (n - 1.0) / 2.0;
    let weighted: Vec<([usize; 3], f32, [f32; 3])> = samples
        .pixels
        .iter()
        .enumerate()
        .filter_map(|(k, &px)| {
            let (i, j) = ((k % samples.side) as f32, (k / samples.side) as f32);
            let d2 = ((i - middle).powi(2) + (j - middle).powi(2)) / (n / 2.0).powi(2);
            let p = px.map(f32::from);
            let w = (1.0 - d2).max(0.0) * affinity(p, nominal);
            (w > 0.0).then_some((bin(px), w, p))
        })
        .collect();
    let mut hist = vec![0.0f32; LEVELS * LEVELS * LEVELS];
    for (b, w, _) in &weighted {
        hist[bin_index(*b)] += w;
    }
    let (peak, _) = weighted
        .iter()
        .map(|(b, _, _)| (*b, neighbourhood(&hist, *b)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mut sum = [0.0f32; 3];
    let mut total = 0.0f32;
    for (b, w, p) in &weighted {
        if near(peak, *b) {
            total += w;
            (0..3).for_each(|i| sum[i] += w * p[i]);
        }
    }
    Some(sum.map(|v| v / total))
}

/// Whether the figure detector would confuse figures of colours `a` and `b`: too near in colour
/// or, for two coloured figures of similar brightness, in hue.
pub fn too_close(a: [f32; 3], b: [f32; 3]) -> bool {
    if distance(a, b) < CONFUSED_DISTANCE {
        return true;
    }
    let brightness = |c: [f32; 3]| (c[0] + c[1] + c[2]).max(1.0);
    let ratio = brightness(a) / brightness(b);
    saturated(a)
        && saturated(b)
        && (0.6..=1.0 / 0.6).contains(&ratio)
        && distance(chromaticity(a), chromaticity(b)) < CONFUSED_HUE
}

/// The nominal colour the simulated table paints figures of `colour` in.
pub fn nominal(colour: Colour) -> [f32; 3] {
    colour_bgr(colour).map(|v| v as f32)
}

/// The colour each player's figures are looked for in: enrolled, or else nominal.
pub fn figure_colours(players: &[PlayerEntry], meeples: &[MeepleColour]) -> Vec<[f32; 3]> {
    players
        .iter()
        .map(|p| enrolled(meeples, p.colour).unwrap_or_else(|| nominal(p.colour)))
        .collect()
}

/// The enrolled colour of `colour`'s figures, if any.
pub fn enrolled(meeples: &[MeepleColour], colour: Colour) -> Option<[f32; 3]> {
    meeples.iter().find(|m| m.colour == colour).map(|m| m.bgr)
}

/// Warnings for players whose figures (with at least one enrolled colour) look alike.
pub fn warnings(form: &SetupForm) -> Vec<String> {
    let colours = figure_colours(&form.players, &form.meeples);
    let enrolled = |i: usize| enrolled(&form.meeples, form.players[i].colour).is_some();
    let mut found = Vec::new();
    for i in 0..colours.len() {
        for j in i + 1..colours.len() {
            if (enrolled(i) || enrolled(j)) && too_close(colours[i], colours[j]) {
                found.push(format!(
                    "{}'s and {}'s meeples look too alike to tell apart: take their colours \
                     again under the table's light, or choose other colours.",
                    form.players[i].name, form.players[j].name
                ));
            }
        }
    }
    found
}

/// A colour as egui draws it.
pub fn to_color32(bgr: [f32; 3]) -> Color32 {
    let [b, g, r] = bgr.map(|v| v.clamp(0.0, 255.0) as u8);
    Color32::from_rgb(r, g, b)
}

/// What the preview thread last saw.
#[derive(Clone, Default)]
struct Seen {
    picture: Option<Arc<egui::ColorImage>>,
    samples: Arc<BoxPixels>,
    seq: u64,
    status: String,
}

/// The chosen source's live picture, read in a thread of its own.
pub struct Preview {
    seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Preview {
    /// Opens `spec` and shows its frames as they come; `repaint` is called after each one.
    pub fn start(spec: SourceSpec, repaint: impl Fn() + Send + 'static) -> Preview {
        let seen = Arc::new(Mutex::new(Seen {
            status: "opening the camera…".to_string(),
            ..Seen::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, halt) = (Arc::clone(&seen), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("enrolment preview".into())
            .spawn(move || preview(&spec, &shared, &halt, &repaint))
            .ok();
        Preview { seen, stop, thread }
    }

    fn seen(&self) -> Seen {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Drop for Preview {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn preview(spec: &SourceSpec, seen: &Mutex<Seen>, stop: &AtomicBool, repaint: &dyn Fn()) {
    let publish = |f: &dyn Fn(&mut Seen)| {
        if let Ok(mut s) = seen.lock() {
            f(&mut s);
        }
        repaint();
    };
    let mut source = match camera::open(spec) {
        Ok(opened) => opened.source,
        Err(e) => return publish(&|s| s.status = format!("{e:#}")),
    };
    while !stop.load(Ordering::SeqCst) {
        match source.next_frame() {
            Ok(Some(frame)) => {
                let picture = display_picture(&frame.image).ok().map(|(p, _)| p);
                let samples = Arc::new(BoxPixels::of(&frame.image).unwrap_or_default());
                publish(&|s| {
                    s.picture = picture.clone();
                    s.samples = Arc::clone(&samples);
                    s.seq += 1;
                    s.status = source.describe();
                });
                if !source.is_live() {
                    std::thread::sleep(Duration::from_millis(40));
                }
            }
            // A recording ended: its last picture stays.
            Ok(None) => return,
            Err(e) if source.is_live() => publish(&|s| s.status = format!("{e:#}")),
            Err(e) => return publish(&|s| s.status = format!("{e:#}")),
        }
    }
}

/// The enrolment screen: one player after another holds a meeple in the box.
pub struct Wizard {
    preview: Preview,
    /// The player (seat) enrolling now.
    player: usize,
    texture: Option<egui::TextureHandle>,
    shown_seq: u64,
    /// The measurement for (picture, player) last shown.
    measured: Option<(u64, usize, Option<[f32; 3]>)>,
}

impl Wizard {
    /// Starts the preview of `spec` with the first player to enrol.
    pub fn start(spec: SourceSpec, ctx: &egui::Context) -> Wizard {
        let repaint = ctx.clone();
        Wizard {
            preview: Preview::start(spec, move || repaint.request_repaint()),
            player: 0,
            texture: None,
            shown_seq: 0,
            measured: None,
        }
    }

    /// The colour in the box now for the enrolling player (measured once per picture).
    fn measure(&mut self, seen: &Seen, nominal: [f32; 3]) -> Option<[f32; 3]> {
        match self.measured {
            Some((seq, player, colour)) if seq == seen.seq && player == self.player => colour,
            _ => {
                let colour = measure(&seen.samples, nominal);
                self.measured = Some((seen.seq, self.player, colour));
                colour
            }
        }
    }

    fn update_texture(&mut self, ctx: &egui::Context, seen: &Seen) {
        let Some(picture) = &seen.picture else { return };
        if self.shown_seq == seen.seq && self.texture.is_some() {
            return;
        }
        self.shown_seq = seen.seq;
        let image = egui::ImageData::Color(Arc::clone(picture));
        match &mut self.texture {
            Some(t) => t.set(image, egui::TextureOptions::LINEAR),
            None => {
                self.texture = Some(ctx.load_texture("enrol", image, egui::TextureOptions::LINEAR))
            }
        }
    }
}

/// Draws the enrolment screen; true when it is done (every player had a turn, or "Done").
pub fn show(ui: &mut egui::Ui, wizard: &mut Wizard, form: &mut SetupForm) -> bool {
    let Some(player) = form.players.get(wizard.player).cloned() else {
        return true;
    };
    let seen = wizard.preview.seen();
    wizard.update_texture(ui.ctx(), &seen);
    let colour = wizard.measure(&seen, nominal(player.colour));
    let mut done = false;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.heading("Meeple colours");
        ui.label(format!(
            "Player {} ({}, {}): hold your meeple in the box and press \"Take colour\".",
            wizard.player + 1,
            player.name,
            player.colour.name()
        ));
        ui.horizontal(|ui| {
            swatch(ui, colour.map(to_color32));
            let taken = ui.add_enabled(colour.is_some(), egui::Button::new("Take colour"));
            if let (true, Some(bgr)) = (taken.clicked(), colour) {
                form.enrol(player.colour, bgr);
                wizard.player += 1;
            }
            if ui.button("Skip player").clicked() {
                wizard.player += 1;
            }
            done = ui.button("Done").clicked();
        });
        ui.label(&seen.status);
        picture(ui, wizard.texture.as_ref());
    });
    done || wizard.player >= form.players.len()
}

/// A colour swatch (a gray frame when there is none yet).
pub fn swatch(ui: &mut egui::Ui, colour: Option<Color32>) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(22.0, 22.0), egui::Sense::hover());
    let painter = ui.painter();
    if let Some(c) = colour {
        painter.rect_filled(rect, 3.0, c);
    }
    painter.rect_stroke(
        rect,
        3.0,
        Stroke::new(1.0, Color32::GRAY),
        egui::StrokeKind::Inside,
    );
}

/// The live picture scaled into the space left, with the box drawn in its middle.
fn picture(ui: &mut egui::Ui, texture: Option<&egui::TextureHandle>) {
    let Some(texture) = texture else {
        ui.label("Waiting for the camera…");
        return;
    };
    let [w, h] = texture.size().map(|v| v as f32);
    let avail = ui.available_size();
    let scale = (avail.x / w).min(avail.y / h).max(0.01);
    let (response, painter) =
        ui.allocate_painter(egui::vec2(w * scale, h * scale), egui::Sense::hover());
    painter.image(
        texture.id(),
        response.rect,
        egui::Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        Color32::WHITE,
    );
    let b = enrol_box(w as i32, h as i32);
    let at = |x: i32, y: i32| response.rect.min + egui::vec2(x as f32, y as f32) * scale;
    painter.rect_stroke(
        egui::Rect::from_min_max(at(b.x, b.y), at(b.x + b.width, b.y + b.height)),
        0.0,
        Stroke::new(3.0, Color32::WHITE),
        egui::StrokeKind::Outside,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box of `side`² pixels: wood, a hand reaching in from below, a meeple in the middle.
    fn held(meeple: [u8; 3], side: usize) -> BoxPixels {
        let c = side as f32 / 2.0;
        let pixels = (0..side * side)
            .map(|k| {
                let (x, y) = ((k % side) as f32, (k / side) as f32);
                if (x - c).hypot(y - c) < side as f32 * 0.18 {
                    meeple
                } else if y > c + side as f32 * 0.1 && (x - c).abs() < side as f32 * 0.3 {
                    [120, 150, 220]
                } else {
                    [60, 100, 150]
                }
            })
            .collect();
        BoxPixels { side, pixels }
    }

    #[test]
    fn the_meeple_is_measured_not_the_hand_or_the_table() {
        for (colour, seen) in [
            (Colour::Red, [50, 45, 170]),
            (Colour::Blue, [160, 90, 40]),
            (Colour::Black, [25, 28, 30]),
            (Colour::Yellow, [40, 180, 200]),
        ] {
            let got = measure(&held(seen, 64), nominal(colour)).unwrap();
            let want = seen.map(f32::from);
            assert!(distance(got, want) < 8.0, "{colour:?}: {got:?}");
        }
        assert_eq!(measure(&BoxPixels::default(), nominal(Colour::Red)), None);
    }

    #[test]
    fn alike_colours_are_flagged_and_the_nominal_ones_are_not() {
        for a in Colour::ALL {
            for b in Colour::ALL.into_iter().filter(|&b| b != a) {
                assert!(!too_close(nominal(a), nominal(b)), "{a:?} {b:?}");
            }
        }
        assert!(too_close([40.0, 35.0, 200.0], [45.0, 40.0, 170.0]));
        assert!(too_close([40.0, 35.0, 200.0], [30.0, 28.0, 150.0]));
        assert!(!too_close([40.0, 35.0, 200.0], [190.0, 140.0, 245.0]));
    }
}

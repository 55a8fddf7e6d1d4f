//! The camera picture with the game drawn over it: the grid of laid tiles, the legal cells for
//! the tile in hand, where the current player may put a follower, and the held feature under the
//! mouse tinted in its owner's colour (a cloister's tile, and lightly the tiles around it).

use eframe::egui::{self, Color32, Pos2, Stroke};

use super::table::{in_quad, OwnedFeature, TableView};
use super::worker::Snapshot;
use crate::geometry::TileShape;
use crate::rules::Colour;
use crate::sim::figures::colour_bgr;
use crate::vision::rectify::Quad;
use crate::vision::terrain::label_at;

/// A player's colour on screen.
pub fn player_colour(c: Colour) -> Color32 {
    let [b, g, r] = colour_bgr(c).map(|v| v.clamp(0.0, 255.0) as u8);
    Color32::from_rgb(r, g, b)
}

/// A player's marker: a disc in their colour, or with colour-blind patterns a shape per seat
/// (circle, square, triangle, diamond, cross, plus, ring, bar).
pub fn player_mark(
    painter: &egui::Painter,
    at: Pos2,
    r: f32,
    seat: usize,
    colour: Colour,
    patterns: bool,
) {
    let fill = player_colour(colour);
    let edge = Stroke::new(1.5, Color32::WHITE);
    if !patterns {
        painter.circle(at, r, fill, edge);
        return;
    }
    let p = |x: f32, y: f32| Pos2::new(at.x + x * r, at.y + y * r);
    let thick = Stroke::new(r * 0.6, fill);
    match seat % 8 {
        0 => {
            painter.circle(at, r, fill, edge);
        }
        1 => {
            painter.rect(
                egui::Rect::from_center_size(at, egui::vec2(1.7 * r, 1.7 * r)),
                0.0,
                fill,
                edge,
                egui::StrokeKind::Middle,
            );
        }
        2 => {
            painter.add(egui::Shape::convex_polygon(
                vec![p(0.0, -1.0), p(0.95, 0.8), p(-0.95, 0.8)],
                fill,
                edge,
            ));
        }
        3 => {
            painter.add(egui::Shape::convex_polygon(
                vec![p(0.0, -1.0), p(1.0, 0.0), p(0.0, 1.0), p(-1.0, 0.0)],
                fill,
                edge,
            ));
        }
        4 => {
            painter.line_segment([p(-0.8, -0.8), p(0.8, 0.8)], thick);
            painter.line_segment([p(-0.8, 0.8), p(0.8, -0.8)], thick);
        }
        5 => {
            painter.line_segment([p(-1.0, 0.0), p(1.0, 0.0)], thick);
            painter.line_segment([p(0.0, -1.0), p(0.0, 1.0)], thick);
        }
        6 => {
            painter.circle_stroke(at, r * 0.75, Stroke::new(r * 0.5, fill));
        }
        _ => {
            painter.line_segment([p(-1.0, 0.0), p(1.0, 0.0)], Stroke::new(r, fill));
        }
    }
}

/// Draws the picture scaled into the available space, and the overlay on it.
pub fn show(
    ui: &mut egui::Ui,
    texture: Option<&egui::TextureHandle>,
    snapshot: &Snapshot,
    table: &TableView,
    patterns: bool,
) {
    let (Some(texture), Some((_, frame_px))) = (texture, &snapshot.picture) else {
        ui.centered_and_justified(|ui| ui.label("Waiting for the camera…"));
        return;
    };
    let avail = ui.available_size();
    let scale = (avail.x / frame_px[0]).min(avail.y / frame_px[1]).max(0.01);
    let size = egui::vec2(frame_px[0] * scale, frame_px[1] * scale);
    let (response, painter) = ui.allocate_painter(size, egui::Sense::hover());
    let origin = response.rect.min;
    painter.image(
        texture.id(),
        response.rect,
        egui::Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        Color32::WHITE,
    );
    let to_screen = |p: [f64; 2]| {
        Pos2::new(
            origin.x + p[0] as f32 * scale,
            origin.y + p[1] as f32 * scale,
        )
    };
    let outline = |q: &Quad| q.iter().map(|&p| to_screen(p)).collect::<Vec<_>>();
    let centre = |q: &Quad| {
        let pts = outline(q);
        let n = pts.len() as f32;
        Pos2::new(
            pts.iter().map(|p| p.x).sum::<f32>() / n,
            pts.iter().map(|p| p.y).sum::<f32>() / n,
        )
    };
    for cell in &table.cells {
        let Some(q) = &cell.quad else { continue };
        painter.add(egui::Shape::closed_line(
            outline(q),
            Stroke::new(1.0, Color32::from_white_alpha(160)),
        ));
        painter.text(
            centre(q),
            egui::Align2::CENTER_CENTER,
            format!("{} {}°", cell.tile, cell.rot),
            egui::FontId::proportional(11.0),
            Color32::from_white_alpha(200),
        );
    }
    if let Some((tile, spots)) = &table.hand {
        for spot in spots {
            let Some(q) = &spot.quad else { continue };
            painter.add(egui::Shape::convex_polygon(
                outline(q),
                Color32::from_rgba_unmultiplied(40, 220, 90, 70),
                Stroke::new(2.0, Color32::from_rgb(40, 220, 90)),
            ));
            let rots: Vec<String> = spot.rots.iter().map(|r| format!("{r}°")).collect();
            painter.text(
                centre(q),
                egui::Align2::CENTER_CENTER,
                format!("{tile}\n{}", rots.join(" ")),
                egui::FontId::proportional(12.0),
                Color32::WHITE,
            );
        }
    }
    let mut described = "Camera picture".to_string();
    if let Some(hover) = response.hover_pos() {
        let at = [
            f64::from((hover.x - origin.x) / scale),
            f64::from((hover.y - origin.y) / scale),
        ];
        if let Some(owned) = hovered(table, at) {
            tint(&painter, table, owned, &to_screen);
            let what = describe(table, owned);
            painter.text(
                hover + egui::vec2(14.0, 14.0),
                egui::Align2::LEFT_TOP,
                &what,
                egui::FontId::proportional(13.0),
                Color32::WHITE,
            );
            described = format!("{described}, under the mouse: {what}");
        }
    }
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, described.clone()));
    if let Some(player) = table.players.get(table.current) {
        for spot in &table.follower_spots {
            let Some(at) = spot.at else { continue };
            let at = to_screen(at);
            player_mark(&painter, at, 7.0, table.current, player.colour, patterns);
            painter.text(
                at + egui::vec2(9.0, -9.0),
                egui::Align2::LEFT_BOTTOM,
                spot.kind.to_string(),
                egui::FontId::proportional(11.0),
                Color32::WHITE,
            );
        }
    }
}

/// Squares per tile side the tint is drawn with.
const TINT_RES: usize = 16;

/// The held feature under picture point `at`, if any.
fn hovered(table: &TableView, at: [f64; 2]) -> Option<&OwnedFeature> {
    let (pos, local) = table.feature_under(at)?;
    table.owned.iter().find(|o| o.covers(pos, local))
}

/// The feature in words: "Ann's road (2 tiles)", "Ann's and Bob's city (3 tiles)".
fn describe(table: &TableView, owned: &OwnedFeature) -> String {
    let names: Vec<&str> = owned
        .owners
        .iter()
        .filter_map(|&seat| table.players.get(seat))
        .map(|p| p.name.as_str())
        .collect();
    let tiles = owned.parts.len();
    let plural = if tiles == 1 { "" } else { "s" };
    let whose = if names.is_empty() {
        "a held".to_string()
    } else {
        format!("{}'s", names.join("'s and "))
    };
    format!("{whose} {} ({tiles} tile{plural})", owned.kind)
}

/// Tints a held feature in its (first) owner's colour on every tile it covers, and lightly the
/// tiles around a cloister.
fn tint(
    painter: &egui::Painter,
    table: &TableView,
    owned: &OwnedFeature,
    to_screen: &dyn Fn([f64; 2]) -> Pos2,
) {
    let colour = owned
        .owners
        .first()
        .and_then(|&seat| table.players.get(seat))
        .map_or(Color32::WHITE, |p| player_colour(p.colour));
    let tint = Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 110);
    let light = Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 40);
    let quad_of = |pos| {
        table
            .cells
            .iter()
            .find(|c| c.pos == pos)
            .and_then(|c| c.quad)
    };
    for quad in owned.around.iter().filter_map(|&pos| quad_of(pos)) {
        let corners = quad.iter().map(|&p| to_screen(p)).collect();
        painter.add(egui::Shape::convex_polygon(corners, light, Stroke::NONE));
    }
    let step = 1.0 / TINT_RES as f32;
    let mut mesh = egui::Mesh::default();
    for part in &owned.parts {
        let Some(quad) = quad_of(part.pos) else {
            continue;
        };
        let labels = &TileShape::of(part.tile).labels;
        for j in 0..TINT_RES {
            for i in 0..TINT_RES {
                let (u, v) = (i as f32 * step, j as f32 * step);
                let middle = [u + step / 2.0, v + step / 2.0];
                if usize::from(label_at(labels, middle, part.rot)) != part.local {
                    continue;
                }
                let base = mesh.vertices.len() as u32;
                for c in [[u, v], [u + step, v], [u + step, v + step], [u, v + step]] {
                    mesh.colored_vertex(to_screen(in_quad(&quad, c)), tint);
                }
                mesh.add_triangle(base, base + 1, base + 2);
                mesh.add_triangle(base, base + 2, base + 3);
            }
        }
    }
    painter.add(egui::Shape::mesh(mesh));
}

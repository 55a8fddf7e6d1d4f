//! The picture on an LED matrix: a window of the board with one LED per cell, and a score bar
//! per player along one edge.
//!
//! - Placed tiles glow dimly in their terrain colour; the tile laid last brightly.
//! - Cells where the tile in hand fits blink in the current player's colour (lit on even ticks).
//! - Players get one line each along the score edge, in turn order from the top or left. A bar
//!   grows from the left (or bottom) and lights `1 + score × (length − 1) / scale` LEDs, where the
//!   scale is the leader's score rounded up to a multiple of 50 (at least 50): a quarter-bright
//!   body and a full-colour tip. Players that do not fit beside a one-line board are left out.
//! - The window shows every placed tile and frontier cell when they fit, centred. Along an axis
//!   where they do not, it centres on the cells where the tile in hand fits (or else the tile
//!   laid last) as far as the board's extent allows.

use super::canvas::Canvas;
use super::layout::Edge;
use super::rgb::{player_rgb, Rgb};
use super::scene::Scene;
use crate::rules::Pos;

/// Draws `scene` on a `width × height` view with the score bars along `scores`; `tick` counts
/// blink phases.
pub fn render(scene: &Scene, width: usize, height: usize, scores: Edge, tick: u64) -> Canvas {
    let mut canvas = Canvas::new(width, height);
    let players = scene.seats.len();
    let lines = match scores {
        Edge::Top | Edge::Bottom => players.min(height.saturating_sub(1)),
        Edge::Left | Edge::Right => players.min(width.saturating_sub(1)),
        Edge::None => 0,
    };
    // The board area: (x, y, w, h).
    let area = match scores {
        Edge::Top => (0, lines, width, height - lines),
        Edge::Bottom => (0, 0, width, height - lines),
        Edge::Left => (lines, 0, width - lines, height),
        Edge::Right => (0, 0, width - lines, height),
        Edge::None => (0, 0, width, height),
    };
    draw_board(&mut canvas, scene, area, tick);
    draw_scores(&mut canvas, scene, scores, lines);
    canvas
}

fn draw_board(canvas: &mut Canvas, scene: &Scene, area: (usize, usize, usize, usize), tick: u64) {
    let (ax, ay, aw, ah) = area;
    if aw == 0 || ah == 0 || scene.tiles.is_empty() {
        return;
    }
    let cells = || {
        scene
            .tiles
            .iter()
            .map(|t| t.0)
            .chain(scene.frontier.iter().copied())
    };
    let (min, max) = bounds(cells()).expect("there are tiles");
    let focus = match bounds(scene.legal.iter().copied()) {
        Some((lo, hi)) => Pos::new((lo.x + hi.x).div_euclid(2), (lo.y + hi.y).div_euclid(2)),
        None => scene.last().unwrap_or(scene.tiles[0].0),
    };
    let x0 = window_start(min.x, max.x, aw, focus.x);
    let y0 = window_start(min.y, max.y, ah, focus.y);
    let mut put = |pos: Pos, colour: Rgb| {
        let (dx, dy) = (i64::from(pos.x) - x0, i64::from(pos.y) - y0);
        if (0..aw as i64).contains(&dx) && (0..ah as i64).contains(&dy) {
            canvas.set(ax + dx as usize, ay + dy as usize, colour);
        }
    };
    for &(pos, terrain) in &scene.tiles {
        put(pos, terrain.dim());
    }
    if let Some(last) = scene.last() {
        let terrain = scene.tiles[scene.tiles.len() - 1].1;
        put(last, terrain.bright());
    }
    if tick % 2 == 0 {
        if let Some(seat) = scene.seats.get(scene.current) {
            for &pos in &scene.legal {
                put(pos, player_rgb(seat.colour));
            }
        }
    }
}

/// The smallest and largest x and y of `cells`.
fn bounds(cells: impl Iterator<Item = Pos>) -> Option<(Pos, Pos)> {
    cells.fold(None, |acc, p| {
        Some(match acc {
            None => (p, p),
            Some((lo, hi)) => (
                Pos::new(lo.x.min(p.x), lo.y.min(p.y)),
                Pos::new(hi.x.max(p.x), hi.y.max(p.y)),
            ),
        })
    })
}

/// The first board coordinate shown along one axis, for `size` LEDs and cells `min..=max`.
fn window_start(min: i32, max: i32, size: usize, focus: i32) -> i64 {
    let (min, max, focus, size) = (
        i64::from(min),
        i64::from(max),
        i64::from(focus),
        size as i64,
    );
    let extent = max - min + 1;
    if extent <= size {
        min - (size - extent) / 2
    } else {
        (focus - size / 2).clamp(min, max - size + 1)
    }
}

fn draw_scores(canvas: &mut Canvas, scene: &Scene, edge: Edge, lines: usize) {
    let (width, height) = (canvas.width(), canvas.height());
    let leader = scene.seats.iter().map(|s| s.score).max().unwrap_or(0);
    let scale = 50 * u64::from(leader.div_ceil(50).max(1));
    for (i, seat) in scene.seats.iter().take(lines).enumerate() {
        let len = match edge {
            Edge::Top | Edge::Bottom => width,
            _ => height,
        };
        let lit = 1 + (u64::from(seat.score).min(scale) * (len as u64 - 1) / scale) as usize;
        let full = player_rgb(seat.colour);
        for k in 0..lit {
            let colour = if k + 1 == lit {
                full
            } else {
                full.scaled(1, 4)
            };
            let (x, y) = match edge {
                Edge::Top => (k, i),
                Edge::Bottom => (k, height - lines + i),
                Edge::Left => (i, height - 1 - k),
                Edge::Right => (width - lines + i, height - 1 - k),
                Edge::None => return,
            };
            canvas.set(x, y, colour);
        }
    }
}

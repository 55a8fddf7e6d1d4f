//! A test pattern for checking a layout file against the real LEDs.
//!
//! The view's corners are red (top left), green (top right), blue (bottom left) and white
//! (bottom right); on a strip LED 0 is red and the last green. A yellow dot walks the view in
//! reading order, one pixel per tick: a wrong `wiring`, `origin` or `rotation` shows as corners in
//! the wrong places or a dot that jumps.

use super::canvas::Canvas;
use super::rgb::Rgb;

/// The pattern on a `width × height` view at `tick`.
pub fn render(width: usize, height: usize, tick: u64) -> Canvas {
    let mut canvas = Canvas::new(width, height);
    let (right, bottom) = (width.saturating_sub(1), height.saturating_sub(1));
    canvas.set(right, bottom, Rgb::WHITE);
    canvas.set(0, bottom, Rgb::new(0, 0, 255));
    canvas.set(right, 0, Rgb::new(0, 255, 0));
    canvas.set(0, 0, Rgb::new(255, 0, 0));
    let n = (width * height).max(1) as u64;
    let k = (tick % n) as usize;
    canvas.set(k % width.max(1), k / width.max(1), Rgb::new(255, 255, 0));
    canvas
}

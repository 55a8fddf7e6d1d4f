//! A picture as the players see it, before it is mapped onto the LEDs' wiring order.

use super::rgb::Rgb;

/// A `width × height` grid of colours in view coordinates: x grows to the right, y grows down.
/// A strip is a canvas one pixel high.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<Rgb>,
}

impl Canvas {
    /// An all-black canvas.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![Rgb::BLACK; width * height],
        }
    }

    /// Pixels per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The colour at `(x, y)`; black outside the canvas.
    pub fn get(&self, x: usize, y: usize) -> Rgb {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x]
        } else {
            Rgb::BLACK
        }
    }

    /// Paints `(x, y)`; drawing outside the canvas does nothing.
    pub fn set(&mut self, x: usize, y: usize, colour: Rgb) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = colour;
        }
    }

    /// How many pixels are lit.
    pub fn lit(&self) -> usize {
        self.pixels.iter().filter(|p| !p.is_black()).count()
    }
}

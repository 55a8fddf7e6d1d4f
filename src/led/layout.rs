//! The layout file: what the LEDs are (a matrix or a strip), how they are wired, and how bright
//! they may get.
//!
//! ```toml
//! brightness = 64          # cap on every colour channel, 0–255
//!
//! [matrix]
//! width = 16               # LEDs along one wired row
//! height = 16              # wired rows
//! wiring = "serpentine"    # or "progressive": every row starts on the same side
//! origin = "top-left"      # corner of the panel (as wired) holding LED 0
//! rotation = 0             # degrees clockwise the panel is turned as mounted
//! scores = "bottom"        # edge with one score bar per player: top, bottom, left, right, none
//! ```
//!
//! or, for the score track, `[strip]` with `leds = 50`.

use std::path::Path;

use serde::Deserialize;

use super::canvas::Canvas;
use super::rgb::Rgb;
use crate::rules::Rotation;

/// How the rows of a matrix are chained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wiring {
    /// Every row runs in the same direction.
    Progressive,
    /// Every other row runs back (zig-zag), as on most WS2812 panels.
    #[default]
    Serpentine,
}

/// A corner of a rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Corner {
    /// Top left.
    #[default]
    TopLeft,
    /// Top right.
    TopRight,
    /// Bottom left.
    BottomLeft,
    /// Bottom right.
    BottomRight,
}

/// An edge of the view, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    /// The top rows.
    Top,
    /// The bottom rows.
    #[default]
    Bottom,
    /// The left columns.
    Left,
    /// The right columns.
    Right,
    /// Nowhere.
    None,
}

/// A rectangular LED panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// LEDs along one wired row.
    pub width: usize,
    /// Wired rows.
    pub height: usize,
    /// How rows are chained.
    pub wiring: Wiring,
    /// The panel corner (as wired, before rotation) that holds LED 0.
    pub origin: Corner,
    /// How far the panel is turned clockwise as mounted, as seen by the players.
    pub rotation: Rotation,
    /// Where the score bars go.
    pub scores: Edge,
}

/// What the LEDs are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A panel.
    Matrix(Matrix),
    /// A strip of this many LEDs, LED 0 first.
    Strip(usize),
}

/// The LEDs, their wiring and the brightness cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The largest value any colour channel is sent with (colours are scaled by `brightness / 255`).
    pub brightness: u8,
    /// Matrix or strip.
    pub shape: Shape,
}

/// The most LEDs an Adalight header can announce.
pub const MAX_LEDS: usize = 1 << 16;

/// Why a layout file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// The file cannot be read.
    #[error("cannot read layout {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML for a layout.
    #[error("bad layout file: {0}")]
    Syntax(#[from] toml::de::Error),
    /// The values make no sense.
    #[error("bad layout: {0}")]
    Invalid(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutFile {
    #[serde(default = "default_brightness")]
    brightness: u8,
    matrix: Option<MatrixFile>,
    strip: Option<StripFile>,
}

fn default_brightness() -> u8 {
    64
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatrixFile {
    width: usize,
    height: usize,
    #[serde(default)]
    wiring: Wiring,
    #[serde(default)]
    origin: Corner,
    #[serde(default)]
    rotation: u16,
    #[serde(default)]
    scores: Edge,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StripFile {
    leds: usize,
}

impl Default for Layout {
    /// A 16 × 16 serpentine panel, LED 0 top left, brightness 64, score bars along the bottom.
    fn default() -> Layout {
        Layout {
            brightness: default_brightness(),
            shape: Shape::Matrix(Matrix {
                width: 16,
                height: 16,
                wiring: Wiring::Serpentine,
                origin: Corner::TopLeft,
                rotation: Rotation::R0,
                scores: Edge::Bottom,
            }),
        }
    }
}

impl Layout {
    /// Parses a layout file's text.
    pub fn parse(text: &str) -> Result<Layout, LayoutError> {
        let file: LayoutFile = toml::from_str(text)?;
        let invalid = |m: String| Err(LayoutError::Invalid(m));
        let shape = match (file.matrix, file.strip) {
            (Some(m), None) => {
                let Some(rotation) = Rotation::from_degrees(m.rotation) else {
                    return invalid(format!(
                        "rotation must be 0, 90, 180 or 270, not {}",
                        m.rotation
                    ));
                };
                if m.width == 0 || m.height == 0 {
                    return invalid("a matrix needs at least one row and one column".into());
                }
                Shape::Matrix(Matrix {
                    width: m.width,
                    height: m.height,
                    wiring: m.wiring,
                    origin: m.origin,
                    rotation,
                    scores: m.scores,
                })
            }
            (None, Some(s)) => {
                if s.leds == 0 {
                    return invalid("a strip needs at least one LED".into());
                }
                Shape::Strip(s.leds)
            }
            _ => return invalid("give exactly one of [matrix] and [strip]".into()),
        };
        let layout = Layout {
            brightness: file.brightness,
            shape,
        };
        if layout
            .view_size()
            .0
            .checked_mul(layout.view_size().1)
            .is_none_or(|n| n > MAX_LEDS)
        {
            return invalid(format!("more than {MAX_LEDS} LEDs"));
        }
        Ok(layout)
    }

    /// Reads and parses a layout file.
    pub fn load(path: &Path) -> Result<Layout, LayoutError> {
        let text = std::fs::read_to_string(path).map_err(|source| LayoutError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Layout::parse(&text)
    }

    /// The number of LEDs.
    pub fn len(&self) -> usize {
        let (w, h) = self.view_size();
        w * h
    }

    /// Whether there are no LEDs (never true for a parsed layout).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Width and height of the picture as the players see it (a matrix turned by 90° or 270°
    /// swaps its sides; a strip is one row).
    pub fn view_size(&self) -> (usize, usize) {
        match self.shape {
            Shape::Matrix(m) => match m.rotation {
                Rotation::R0 | Rotation::R180 => (m.width, m.height),
                Rotation::R90 | Rotation::R270 => (m.height, m.width),
            },
            Shape::Strip(n) => (n, 1),
        }
    }

    /// A black canvas of the view size.
    pub fn canvas(&self) -> Canvas {
        let (w, h) = self.view_size();
        Canvas::new(w, h)
    }

    /// The position in the LED chain of the pixel at `(x, y)` in view coordinates.
    ///
    /// # Panics
    /// If `(x, y)` lies outside the view.
    pub fn index(&self, x: usize, y: usize) -> usize {
        let (vw, vh) = self.view_size();
        assert!(
            x < vw && y < vh,
            "pixel ({x}, {y}) outside the {vw}×{vh} view"
        );
        let m = match self.shape {
            Shape::Strip(_) => return x,
            Shape::Matrix(m) => m,
        };
        let (w, h) = (m.width, m.height);
        // From the view back into the panel's own frame.
        let (px, py) = match m.rotation {
            Rotation::R0 => (x, y),
            Rotation::R90 => (y, h - 1 - x),
            Rotation::R180 => (w - 1 - x, h - 1 - y),
            Rotation::R270 => (w - 1 - y, x),
        };
        // Counted from the corner holding LED 0.
        let (cx, row) = match m.origin {
            Corner::TopLeft => (px, py),
            Corner::TopRight => (w - 1 - px, py),
            Corner::BottomLeft => (px, h - 1 - py),
            Corner::BottomRight => (w - 1 - px, h - 1 - py),
        };
        let col = if m.wiring == Wiring::Serpentine && row % 2 == 1 {
            w - 1 - cx
        } else {
            cx
        };
        row * w + col
    }

    /// The colours in LED chain order, capped at the layout's brightness. Parts of the canvas
    /// outside the view are cut off.
    pub fn frame(&self, canvas: &Canvas) -> Vec<Rgb> {
        let (vw, vh) = self.view_size();
        let mut out = vec![Rgb::BLACK; self.len()];
        for y in 0..vh.min(canvas.height()) {
            for x in 0..vw.min(canvas.width()) {
                out[self.index(x, y)] = canvas.get(x, y).scaled(self.brightness, 255);
            }
        }
        out
    }
}

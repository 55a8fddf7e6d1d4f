//! The LED display: legal spots and live scores on an LED matrix or strip over USB serial,
//! speaking what stock hobby firmware already speaks (Adalight, WLED's JSON API).
//!
//! Three layers, each usable alone:
//!
//! - content — [`Scene`] (a game as the LEDs show it), drawn by [`matrix`] or [`strip`] on a
//!   [`Canvas`], mapped to the wiring by a [`Layout`] (from a layout file): [`render`];
//! - protocols — pure encoders: [`adalight`], [`wled`];
//! - device I/O — [`discover`] finds ports and devices, [`probe`] tells what a device speaks,
//!   [`Display`] drives it from a worker thread and reconnects.
//!
//! ```no_run
//! use meeplecam::led::{self, discover, Config, Display, Layout, Scene};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let replay = meeplecam::record::Record::from_json(r#"{"meeplecam":1,"players":[{"name":"A","colour":"red"}]}"#)?.replay_open()?;
//! let layout = Layout::default(); // a 16×16 panel
//! let connector = discover::SerialConnector {
//!     target: discover::Target::resolve("/dev/ttyUSB0"),
//!     baud: 115_200,
//! };
//! let display = Display::start(
//!     Box::new(connector),
//!     Config { leds: layout.len(), protocol: Default::default(), timing: Default::default() },
//! );
//! let scene = Scene::new(&replay.game, &replay.colours, None);
//! display.show(led::render(&scene, &layout, 0));
//! # Ok(())
//! # }
//! ```

pub mod adalight;
mod canvas;
pub mod discover;
mod display;
#[cfg(unix)]
pub mod emulator;
pub mod layout;
pub mod matrix;
mod pattern;
pub mod probe;
mod rgb;
mod scene;
pub mod strip;
pub mod wled;

pub use canvas::Canvas;
pub use display::{Config, Display, LinkState, Stats, Timing};
pub use layout::{Layout, Shape};
pub use probe::{Protocol, ProtocolChoice};
pub use rgb::{player_rgb, Rgb};
pub use scene::{Scene, Seat, Terrain};

/// The frame (in LED order, brightness capped) showing `scene` on `layout`; `tick` counts blink
/// phases: legal cells are lit on even ticks.
pub fn render(scene: &Scene, layout: &Layout, tick: u64) -> Vec<Rgb> {
    let canvas = match layout.shape {
        Shape::Matrix(m) => {
            let (w, h) = layout.view_size();
            matrix::render(scene, w, h, m.scores, tick)
        }
        Shape::Strip(leds) => strip::render(scene, leds, tick),
    };
    layout.frame(&canvas)
}

/// The frame of the test pattern at `tick` (see `meeplecam led --test-pattern`): corners red,
/// green, blue and white clockwise from the top left, and a yellow dot walking the rows.
pub fn test_pattern(layout: &Layout, tick: u64) -> Vec<Rgb> {
    let (w, h) = layout.view_size();
    layout.frame(&pattern::render(w, h, tick))
}

//! The film the speed benchmarks render from: a 4-player base game, oblique, 1080p, 10 frames/s,
//! and the renderer (style, wooden table) it is shown with.

use meeplecam::record::selfplay::random_record;
use meeplecam::rules::RuleOptions;
use meeplecam::sim::scene::Renderer;
use meeplecam::sim::style::Style;
use meeplecam::sim::table::Surface;
use meeplecam::sim::timeline::{Film, Filming, View};

/// The film of a mid-sized game at 1080p and its renderer.
pub fn film_1080p() -> (Film, Renderer) {
    let record = random_record("base", 4, RuleOptions::default(), 21).unwrap();
    let filming = Filming {
        view: View::Oblique,
        size: [1920, 1080],
        fps: 10.0,
        seed: 5,
    };
    let film = Film::plan(&record, &filming).unwrap();
    (film, Renderer::new(Style::preset(1), Surface::Wood, 5))
}

//! A whole random game filmed by the simulated camera: the demo without a webcam, and the
//! tracker's evaluation data.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::camera::Simulated;
use crate::record::selfplay::random_record;
use crate::record::Record;
use crate::rules::RuleOptions;
use crate::sim::artwork::Artwork;
use crate::sim::scene::Renderer;
use crate::sim::style::Style;
use crate::sim::table::Surface;
use crate::sim::timeline::{Film, Filming, View};

/// A random game and the simulated camera filming it.
pub struct FilmedGame {
    /// What really happened.
    pub record: Record,
    /// The frames.
    pub source: Simulated,
}

/// Films one random base game of at most `turns` turns between 2–4 players (overhead or
/// oblique, 720p, any style and table top, all chosen by `seed`) at `fps` frames per second.
pub fn film_game(seed: u64, turns: usize, fps: f64) -> anyhow::Result<FilmedGame> {
    film_game_with_art(seed, turns, fps, None)
}

/// [`film_game`] with the tiles drawn from `artwork` where given (the same game, camera,
/// light and table as without).
pub fn film_game_with_art(
    seed: u64,
    turns: usize,
    fps: f64,
    artwork: Option<&Artwork>,
) -> anyhow::Result<FilmedGame> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = rng.random_range(2..=4);
    let mut record = random_record("base", players, RuleOptions::default(), rng.random())?;
    record.turns.truncate(turns);
    record.turns.retain(|t| !t.discard);
    let filming = Filming {
        view: if rng.random_bool(0.5) {
            View::Overhead
        } else {
            View::Oblique
        },
        size: [1280, 720],
        fps,
        seed: rng.random(),
    };
    let film = Film::plan(&record, &filming)?;
    let surface = Surface::ALL[rng.random_range(0..Surface::ALL.len())];
    let mut renderer = Renderer::new(
        Style::preset(rng.random_range(0..Style::PRESETS)),
        surface,
        rng.random(),
    );
    if let Some(artwork) = artwork {
        renderer = renderer.with_artwork(artwork.clone());
    }
    Ok(FilmedGame {
        record,
        source: Simulated::new(film, renderer),
    })
}

//! meeplecam watches a physical game of Carcassonne through a webcam and keeps the score.
//!
//! The rules engine is the foundation: lay the tile the camera saw, put a follower on it, and
//! read off what scored.
//!
//! ```
//! use meeplecam::rules::{catalogue, FeatureKind, Figure, Game, Placement, Pos, Rotation, Setup};
//!
//! let cat = catalogue();
//! let mut game = Game::new(&Setup::new("base", 2)?)?;
//!
//! // The start tile (D: city north, road west–east) lies at (0, 0). A city cap (E) fits
//! // north of it turned upside down, closing a two-tile city.
//! let cap = cat.tile_id("E").unwrap();
//! let above = Placement { pos: Pos::new(0, -1), rot: Rotation::R180 };
//! assert!(game.legal_placements(cap).contains(&above));
//!
//! game.place(cap, above)?;
//! assert!(game.follower_spots().iter().any(|spot| spot.kind == FeatureKind::City));
//! game.deploy("S".parse()?, Figure::Normal)?; // a knight in the city
//! let report = game.end_turn()?;
//!
//! assert_eq!(report.events[0].points, 4); // 2 tiles × 2 points
//! assert_eq!(game.scores(), &[4, 0]);
//! assert_eq!(game.supply(report.returned[0].player), 7); // the knight came back
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "app")]
pub mod app;
#[cfg(feature = "vision")]
pub mod camera;
pub mod geometry;
#[cfg(feature = "led")]
pub mod led;
pub mod record;
pub mod rules;
#[cfg(feature = "vision")]
pub mod sim;
#[cfg(feature = "vision")]
pub mod track;
#[cfg(feature = "vision")]
pub mod vision;

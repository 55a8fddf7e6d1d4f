//! The simulated table: what a webcam would see of a real game, with exact ground truth.
//!
//! Tiles are painted procedurally from the catalogue's geometry ([`art`]) in several styles
//! ([`style`]) or drawn from a folder of real artwork ([`artwork`], for evaluation), with the
//! expansions' hills, vineyards and wheel icons ([`marks`]) and the Wheel of Fortune's board
//! ([`wheel`]), laid slightly off the grid on a table top ([`table`]); figures are extruded
//! wooden shapes of their kind ([`bodies`]) with shadows ([`figures`]); arms reach in
//! ([`hand`]); a pinhole camera with lens distortion looks on ([`camera`]) through uneven light,
//! noise and compression ([`effects`]).
//! [`print`](mod@print) photographs a flat print on the table (a calibration board).
//! [`scene`] renders one instant; [`timeline`] turns a game record into frames over time;
//! [`game`] films a whole random game; [`sheet`] and [`showcase`] are pictures for eyes to
//! check.

pub mod art;
pub mod artwork;
pub mod bodies;
pub mod camera;
pub mod effects;
pub mod figures;
pub mod game;
pub mod hand;
pub mod marks;
pub mod output;
pub mod print;
pub mod scene;
pub mod sheet;
pub mod showcase;
pub mod style;
pub mod table;
pub mod timeline;
pub mod truth;
pub mod wheel;

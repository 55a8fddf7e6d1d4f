//! Ground truth written beside every simulated frame (JSON).
//!
//! One object per frame:
//! - `frame`, `time_s`, `turn` (turns completed when the frame was taken);
//! - `tile_mm` (tile side) and `camera` (size, focal, principal point, distortion `k1 k2 p1 p2 k3`,
//!   rotation rows and centre in table mm; table frame: x east, y south, z down, the start tile's
//!   north-west corner at the origin);
//! - `homography`: table mm (z = 0) → pixels of the undistorted image, row-major 3×3;
//! - `lighting`;
//! - `tiles`: type, grid `cell`, `rot`, wheel `icons` printed on the copy (0–3), placement error
//!   (`offset_mm`, `angle_deg`) and the four corners NW, NE, SE, SW in pixels of the delivered
//!   (distorted) image;
//! - `meeples`: `colour`, `figure` (`normal`, `large`, `builder`, `pig` or `shepherd`), `cell`,
//!   `port`, `feature`, `pose` (standing or lying) and `base_px`, the pixel under the centre of
//!   the figure's base;
//! - `hand`: whether an arm is in view (its exact mask is written separately);
//! - `held`: the tile or follower in that hand, if any.

use serde::{Deserialize, Serialize};

use super::camera::Camera;
use super::effects::Lighting;
use crate::rules::{Colour, Figure};

/// Ground truth of one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameTruth {
    /// Frame index from 0.
    pub frame: u64,
    /// Time since the first frame, seconds.
    pub time_s: f64,
    /// Turns completed.
    pub turn: u32,
    /// Side of a tile in mm.
    pub tile_mm: f64,
    /// The camera.
    pub camera: Camera,
    /// Table mm → undistorted pixels.
    pub homography: [[f64; 3]; 3],
    /// The light.
    pub lighting: Lighting,
    /// Tiles on the table.
    pub tiles: Vec<TileTruth>,
    /// Followers on the tiles.
    pub meeples: Vec<MeepleTruth>,
    /// Whether an arm is in view.
    pub hand: bool,
    /// What the hand holds.
    pub held: Option<HeldTruth>,
}

/// A tile's truth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileTruth {
    /// Tile type name.
    pub tile: String,
    /// Grid cell.
    pub cell: [i32; 2],
    /// Rotation in degrees.
    pub rot: u16,
    /// Wheel icons printed on this copy (The Wheel of Fortune), 0 for none.
    pub icons: u8,
    /// Offset of its centre from the cell centre, mm.
    pub offset_mm: [f64; 2],
    /// Turn off the grid, degrees clockwise.
    pub angle_deg: f64,
    /// Corners NW, NE, SE, SW in delivered-image pixels.
    pub corners_px: [[f64; 2]; 4],
}

/// A figure's truth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeepleTruth {
    /// Owner's colour.
    pub colour: Colour,
    /// Which figure.
    pub figure: Figure,
    /// Cell of the tile it stands on.
    pub cell: [i32; 2],
    /// A port of its feature.
    pub port: String,
    /// The feature kind.
    pub feature: String,
    /// `standing` or `lying`.
    pub pose: String,
    /// Pixel under the centre of its base.
    pub base_px: [f64; 2],
}

/// What a hand holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HeldTruth {
    /// A tile.
    Tile(TileTruth),
    /// A follower.
    Meeple(MeepleTruth),
}

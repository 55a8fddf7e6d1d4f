//! Reading the table from camera frames. One module per stage, each with its own evaluation:
//! [`calibration`] (the setup saved as OpenCV YAML), [`intrinsics`] (the camera's lens, optional,
//! measured on a [`charuco`] board, frames undistorted with it),
//! [`terrain`] (per-pixel landscape from a colour model calibrated on the start tile, its
//! colours [`palette`] clusters), [`edges`] (what each side of a tile shows),
//! [`table`] (the table's colours), [`start`] (the start tile found alone at setup, and again
//! in later frames; [`outline`] fits its sides to its borders), [`locate`] (tiles found outwards
//! from the start tile, each where [`predict`] puts it from those around it), [`rectify`] (grid
//! cells as north-up patches), [`snap`] (cell corners moved onto the tile edges seen),
//! [`tile`] (type + rotation as probabilities), [`pennant`] (the shield detector),
//! [`standing`] (where figures stand as evidence of the tile), [`figures`] and [`meeples`]
//! (followers), [`viewpoint`] (where the camera is: how far a standing figure's top shows
//! beyond its foot),
//! [`board`] (readings made consistent with the rules: matching edges, tile counts),
//! [`occlusion`] (which pixels a hand or arm covers, so nothing is read there),
//! [`eval`] (accuracy and timing tables on rendered data with ground truth, [`breakdown`] by
//! condition, [`telling`] which boards a figure hides what tells a tile on; the boards from
//! [`dataset`], rendered in memory or read from a folder);
//! [`accel`] (whole-frame steps on an OpenCL device where there is one).

pub mod accel;
pub mod board;
pub mod breakdown;
pub mod calibration;
pub mod charuco;
pub mod colours;
pub mod dataset;
pub mod edges;
pub mod eval;
pub mod figures;
pub mod intrinsics;
pub mod locate;
pub mod loose;
pub mod meeples;
pub mod occlusion;
pub mod outline;
pub mod palette;
pub mod pennant;
pub mod predict;
pub mod prints;
pub mod rectify;
pub mod relearn;
pub mod snap;
pub mod standing;
pub mod start;
pub mod table;
pub mod telling;
pub mod terrain;
pub mod tile;
pub mod viewpoint;

/// Steps (x, y) to the eight pixels or cells around one.
const AROUND: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

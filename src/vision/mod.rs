//! Reading the table from camera frames. One module per stage, each with its own evaluation:
//! [`calibration`] (the setup saved as OpenCV YAML),
//! [`terrain`] (per-pixel landscape from a colour model calibrated on the start tile, its
//! colours [`palette`] clusters), [`edges`] (what each side of a tile shows),
//! [`locate`] (the grid from the start tile, tiles found outwards from it), [`rectify`] (grid
//! cells as north-up patches), [`tile`] (type + rotation as probabilities), [`pennant`] (the
//! shield detector), [`figures`] and [`meeples`] (followers),
//! [`board`] (readings made consistent with the rules: matching edges, tile counts),
//! [`eval`] (accuracy and timing tables on rendered data with ground truth, [`breakdown`] by
//! condition).

pub mod board;
pub mod breakdown;
pub mod calibration;
pub mod edges;
pub mod eval;
pub mod figures;
pub mod locate;
pub mod loose;
pub mod meeples;
pub mod palette;
pub mod pennant;
pub mod rectify;
pub mod terrain;
pub mod tile;

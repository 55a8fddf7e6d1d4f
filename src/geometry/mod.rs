//! Where each feature lies on a tile: outlines, a label map and follower anchor points.
//!
//! Coordinates are in the unit square of a tile in catalogue orientation: x grows east, y grows
//! south, the tile is `[0, 1]²`. The same shapes draw the simulated tiles, tell where a follower
//! on a port stands, and will guide the overlay and the meeple detector. Pure: no OpenCV.

mod label;
mod shape;

pub use label::{LabelMap, LABEL_RES, NO_FEATURE, SCENERY};
pub use shape::{inside_polygon, FeatureShape, Outline, Scenery, SceneryKind, TileShape};

use crate::rules::Rotation;

/// A point in tile units.
pub type Point = [f32; 2];

/// Turns a tile-unit point clockwise about the tile centre.
pub fn rotate(p: Point, rot: Rotation) -> Point {
    let mut q = p;
    for _ in 0..rot.quarter_turns() {
        q = [1.0 - q[1], q[0]];
    }
    q
}

/// Where the boundary port lies on the tile edge (for half-edges: the middle of that half).
pub fn port_point(port: crate::rules::Port) -> Option<Point> {
    let i = port.index();
    if i >= 12 {
        return None;
    }
    // Along the north edge at rotation 0: NL, N, NR.
    let along = [0.25, 0.5, 0.75][i % 3];
    Some(rotate([along, 0.0], Rotation::from_quarter_turns(i / 3)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Port;

    #[test]
    fn ports_lie_on_their_edges() {
        let p = |s: &str| port_point(s.parse::<Port>().unwrap()).unwrap();
        assert_eq!(p("NL"), [0.25, 0.0]);
        assert_eq!(p("E"), [1.0, 0.5]);
        assert_eq!(p("ER"), [1.0, 0.75]);
        assert_eq!(p("SL"), [0.75, 1.0]);
        assert_eq!(p("WR"), [0.0, 0.25]);
        assert_eq!(port_point(Port::CENTRE), None);
    }

    #[test]
    fn rotation_is_clockwise() {
        assert_eq!(rotate([0.5, 0.0], Rotation::R90), [1.0, 0.5]);
        assert_eq!(rotate([0.0, 0.0], Rotation::R180), [1.0, 1.0]);
        assert_eq!(rotate([0.25, 0.0], Rotation::R270), [0.0, 0.75]);
    }
}

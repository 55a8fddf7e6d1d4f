//! The wooden figures' shapes: each kind is a flat outline sawn from a plank of some thickness,
//! so a detector can tell them apart by silhouette and size.

use crate::rules::Figure;

/// A figure's shape: its outline in the `u` (across, −½…½ of the width) and `v` (feet 0 to
/// top 1) plane, extruded `depth` millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Outline points, counter-clockwise as seen from the front.
    pub outline: &'static [[f64; 2]],
    /// Width across the outline, mm.
    pub width: f64,
    /// Height from feet to top, mm.
    pub height: f64,
    /// Thickness, mm.
    pub depth: f64,
}

/// The follower: arms out, legs apart, a round head.
const MEEPLE: [[f64; 2]; 18] = [
    [-0.50, 0.00],
    [-0.12, 0.00],
    [0.00, 0.22],
    [0.12, 0.00],
    [0.50, 0.00],
    [0.33, 0.40],
    [0.50, 0.55],
    [0.47, 0.64],
    [0.17, 0.62],
    [0.19, 0.78],
    [0.12, 0.93],
    [0.00, 1.00],
    [-0.12, 0.93],
    [-0.19, 0.78],
    [-0.17, 0.62],
    [-0.47, 0.64],
    [-0.50, 0.55],
    [-0.33, 0.40],
];

/// The builder: a tall, slim figure with a flat, broad-brimmed hat.
const BUILDER: [[f64; 2]; 23] = [
    [-0.45, 0.00],
    [-0.10, 0.00],
    [0.00, 0.18],
    [0.10, 0.00],
    [0.45, 0.00],
    [0.30, 0.45],
    [0.45, 0.55],
    [0.42, 0.62],
    [0.18, 0.60],
    [0.20, 0.72],
    [0.48, 0.76],
    [0.48, 0.81],
    [0.17, 0.83],
    [0.14, 1.00],
    [-0.14, 1.00],
    [-0.17, 0.83],
    [-0.48, 0.81],
    [-0.48, 0.76],
    [-0.20, 0.72],
    [-0.18, 0.60],
    [-0.42, 0.62],
    [-0.45, 0.55],
    [-0.30, 0.45],
];

/// The pig, seen from its side: four legs (two in profile), snout, ear and a curly tail.
const PIG: [[f64; 2]; 21] = [
    [-0.38, 0.00],
    [-0.26, 0.00],
    [-0.24, 0.28],
    [0.16, 0.28],
    [0.18, 0.00],
    [0.30, 0.00],
    [0.32, 0.30],
    [0.42, 0.38],
    [0.50, 0.40],
    [0.50, 0.62],
    [0.40, 0.70],
    [0.36, 0.92],
    [0.26, 0.78],
    [0.10, 0.86],
    [-0.20, 0.86],
    [-0.40, 0.76],
    [-0.50, 0.82],
    [-0.47, 0.66],
    [-0.44, 0.60],
    [-0.44, 0.40],
    [-0.40, 0.28],
];

/// The shepherd: a narrow follower holding a crook that rises above its head.
const SHEPHERD: [[f64; 2]; 28] = [
    [-0.40, 0.00],
    [-0.10, 0.00],
    [0.00, 0.20],
    [0.10, 0.00],
    [0.26, 0.00],
    [0.20, 0.40],
    [0.32, 0.45],
    [0.32, 0.00],
    [0.42, 0.00],
    [0.42, 0.92],
    [0.38, 0.99],
    [0.30, 1.00],
    [0.23, 0.95],
    [0.23, 0.86],
    [0.28, 0.86],
    [0.29, 0.93],
    [0.32, 0.92],
    [0.32, 0.62],
    [0.15, 0.60],
    [0.16, 0.72],
    [0.10, 0.84],
    [0.00, 0.88],
    [-0.10, 0.84],
    [-0.16, 0.72],
    [-0.15, 0.60],
    [-0.40, 0.62],
    [-0.42, 0.54],
    [-0.26, 0.40],
];

impl Body {
    /// The shape of a figure of `kind`: the large follower is the follower a third larger; the
    /// builder is taller and slimmer; the pig long and low; the shepherd carries a crook.
    pub fn of(kind: Figure) -> Body {
        match kind {
            Figure::Normal => Body {
                outline: &MEEPLE,
                width: 16.0,
                height: 18.0,
                depth: 8.0,
            },
            Figure::Large => Body {
                outline: &MEEPLE,
                width: 21.0,
                height: 24.0,
                depth: 10.0,
            },
            Figure::Builder => Body {
                outline: &BUILDER,
                width: 15.0,
                height: 26.0,
                depth: 8.0,
            },
            Figure::Pig => Body {
                outline: &PIG,
                width: 22.0,
                height: 14.0,
                depth: 9.0,
            },
            Figure::Shepherd => Body {
                outline: &SHEPHERD,
                width: 18.0,
                height: 24.0,
                depth: 8.0,
            },
        }
    }
}

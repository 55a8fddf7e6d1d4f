//! The light drifts over a game (a cloud, a lamp switched on, evening): the tile colours learned
//! at registration go stale, and tiles laid late read as other tiles, or the bare table as
//! tiles. The start tile's layout is known exactly, so its colours are learned again whenever
//! it shows bare, and the table's colours follow its brightness.

use opencv::core::Mat;
use opencv::prelude::*;

use super::{Tracker, FIGURE_TOLERANCE};
use crate::rules::{Pos, Rotation};
use crate::vision::colours::ColourModel;
use crate::vision::figures::{Enrolment, FIGURE_SHARE};
use crate::vision::rectify::quad_patch;

/// The share of the start tile's pixels a figure (or a hand) may cover for its colours to be
/// learned again.
const MOST_COVERED: f64 = 0.002;

/// The light as first measured: the start tile's mean colour, and the table's and the figures'
/// colours then.
pub(super) struct LightReference {
    start_mean: [f64; 3],
    table: [[f32; 3]; 2],
    figures: Vec<[f32; 3]>,
}

impl Tracker {
    /// Learns the tile colours again from the start tile in `frame` (a still picture) when no
    /// follower stands on it and nothing of a figure's colour shows over it; the table's and
    /// the figures' colours change by as much as the start tile's mean colour did (a warmer
    /// light turns a blue figure's hue towards the roads').
    pub(super) fn refresh_colours(&mut self, frame: &Mat) -> anyhow::Result<()> {
        let start = Pos::new(0, 0);
        let (Some(calib), Some(quad)) = (&self.calibration, self.quads.get(&start)) else {
            return Ok(());
        };
        if self.game.meeples().iter().any(|m| m.pos == start) {
            return Ok(());
        }
        let (patch, _) = quad_patch(frame, quad, 0)?;
        let (mask, _) = self.enrolment.find(&patch, &calib.colours, FIGURE_SHARE)?;
        let covered = f64::from(opencv::core::count_non_zero(&mask)?)
            / f64::from((patch.rows() * patch.cols()).max(1));
        if covered > MOST_COVERED {
            return Ok(());
        }
        let mut colours = ColourModel::default();
        colours.calibrate(&patch, "D", Rotation::R0)?;
        let mean = opencv::core::mean(&patch, &opencv::core::no_array())?;
        let mean = [mean[0], mean[1], mean[2]];
        let Some(calib) = &mut self.calibration else {
            return Ok(());
        };
        calib.colours = colours;
        let reference = self.light.get_or_insert(LightReference {
            start_mean: mean,
            table: calib.table,
            figures: self.enrolment.colours().to_vec(),
        });
        let gain: [f64; 3] = std::array::from_fn(|c| mean[c] / reference.start_mean[c].max(1.0));
        let lit = |then: &[f32; 3]| -> [f32; 3] {
            std::array::from_fn(|c| (f64::from(then[c]) * gain[c]).clamp(0.0, 255.0) as f32)
        };
        calib.table = reference.table.map(|then| lit(&then));
        let figures = reference.figures.iter().map(lit).collect();
        self.enrolment = Enrolment::new(figures, FIGURE_TOLERANCE);
        Ok(())
    }
}

//! Tile recognition: the type and rotation of a tile from its rectified picture, as a calibrated
//! probability over every catalogue type × rotation.

use opencv::core::Mat;

use super::terrain::{expected_grid, terrain_grid, ColourModel, TerrainGrid};
use crate::rules::{catalogue, Rotation, TileId};

/// One reading of a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Tile type.
    pub tile: TileId,
    /// Rotation.
    pub rot: Rotation,
    /// Probability (all candidates of a reading sum to 1).
    pub probability: f64,
}

/// Matches terrain grids against every tile type and rotation of the catalogue.
pub struct TileRecognizer {
    templates: Vec<(TileId, Rotation, TerrainGrid)>,
    /// How sharply scores turn into probabilities (fitted on simulated data).
    sharpness: f64,
}

impl Default for TileRecognizer {
    fn default() -> TileRecognizer {
        TileRecognizer::new()
    }
}

impl TileRecognizer {
    /// Templates for all tiles of the catalogue; rotations that look the same are kept once.
    pub fn new() -> TileRecognizer {
        let mut templates: Vec<(TileId, Rotation, TerrainGrid)> = Vec::new();
        for i in 0..catalogue().tiles().len() {
            let id = TileId(i as u16);
            for rot in Rotation::ALL {
                let grid = expected_grid(id, rot);
                let duplicate = templates.iter().any(|(t, _, g)| *t == id && g == &grid);
                if !duplicate {
                    templates.push((id, rot, grid));
                }
            }
        }
        TileRecognizer {
            templates,
            sharpness: 0.35,
        }
    }

    /// Every candidate for a patch showing one tile (north up), most likely first.
    pub fn recognize(&self, patch: &Mat, model: &ColourModel) -> opencv::Result<Vec<Candidate>> {
        Ok(self.rank(&terrain_grid(patch, model, None)?))
    }

    /// Like [`TileRecognizer::recognize`], not counting the pixels under `figures` (255).
    pub fn recognize_around(
        &self,
        patch: &Mat,
        model: &ColourModel,
        figures: &Mat,
    ) -> opencv::Result<Vec<Candidate>> {
        Ok(self.rank(&terrain_grid(patch, model, Some(figures))?))
    }

    /// Every candidate for an observed terrain grid, most likely first.
    pub fn rank(&self, observed: &TerrainGrid) -> Vec<Candidate> {
        let scores: Vec<f64> = self
            .templates
            .iter()
            .map(|(_, _, g)| similarity(observed, g))
            .collect();
        let best = scores.iter().copied().fold(f64::MIN, f64::max);
        let weights: Vec<f64> = scores
            .iter()
            .map(|s| ((s - best) * self.sharpness).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut out: Vec<Candidate> = self
            .templates
            .iter()
            .zip(weights)
            .map(|((tile, rot, _), w)| Candidate {
                tile: *tile,
                rot: *rot,
                probability: w / total,
            })
            .collect();
        out.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        out
    }
}

/// How well an observed grid fits a template: the log of the overlap of the two terrain
/// distributions, summed over the grid's cells (0 for a perfect match), each cell weighted by
/// how much of it was seen.
fn similarity(observed: &TerrainGrid, template: &TerrainGrid) -> f64 {
    observed
        .iter()
        .zip(template)
        .map(|(o, t)| {
            let seen: f32 = o.iter().sum();
            if seen < 0.2 {
                return 0.0;
            }
            let overlap: f32 = o.iter().zip(t).map(|(a, b)| (a / seen).min(*b)).sum();
            f64::from(seen) * f64::from(overlap).max(0.08).ln()
        })
        .sum()
}

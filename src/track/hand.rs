//! The tile in hand: a drawn tile shown off the board, read so the overlay can show where it
//! may go before it is laid.

use std::collections::BTreeMap;

use opencv::core::Mat;

use super::{Event, Tracker};
use crate::rules::{catalogue, TileId};
use crate::vision::locate::MIN_FIT;
use crate::vision::loose::find_loose_tile;
use crate::vision::rectify::{quad_patch, Quad, MARGIN_PX};

impl Tracker {
    /// Looks off the board for the drawn tile; an event when what is in hand changes.
    pub(super) fn look_for_tile_in_hand(&mut self, frame: &Mat) -> anyhow::Result<Option<Event>> {
        let Some(calib) = &self.calibration else {
            return Ok(None);
        };
        let board: Vec<Quad> = self.quads.values().copied().collect();
        let seen = match find_loose_tile(frame, &calib.colours, &board)? {
            Some(quad) => self.read_loose_tile(frame, &quad)?,
            None => None,
        };
        if seen == self.in_hand {
            return Ok(None);
        }
        self.in_hand = seen;
        Ok(Some(Event::InHand {
            tile: seen.map(|t| catalogue().tile(t).name.clone()),
        }))
    }

    /// The likeliest type still in the box for a tile seen at `quad` (its rotations' chances
    /// summed: any way up, it is the same tile in hand).
    fn read_loose_tile(&self, frame: &Mat, quad: &Quad) -> anyhow::Result<Option<TileId>> {
        let Some(calib) = &self.calibration else {
            return Ok(None);
        };
        let (patch, _) = quad_patch(frame, quad, MARGIN_PX)?;
        let (ranked, _, fit) =
            self.recognizer
                .recognize_located(&patch, MARGIN_PX as usize, &calib.colours, None)?;
        if fit < MIN_FIT {
            return Ok(None);
        }
        let mut by_type: BTreeMap<TileId, f64> = BTreeMap::new();
        for c in ranked.iter().filter(|c| self.game.remaining(c.tile) > 0) {
            *by_type.entry(c.tile).or_default() += c.probability;
        }
        Ok(by_type
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(tile, _)| tile))
    }
}

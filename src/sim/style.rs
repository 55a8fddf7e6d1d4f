//! Art styles: palettes and proportions, so detectors do not learn one look.

use rand::Rng;

/// A colour as blue, green, red (OpenCV's order), 0–255.
pub type Bgr = [f64; 3];

/// How tiles are painted.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Field base colour.
    pub field: Bgr,
    /// City base colour.
    pub city: Bgr,
    /// City wall colour.
    pub wall: Bgr,
    /// Road surface colour.
    pub road: Bgr,
    /// Road border colour.
    pub road_edge: Bgr,
    /// Cloister and house walls.
    pub building: Bgr,
    /// Roof colour.
    pub roof: Bgr,
    /// Road width as a fraction of the tile side.
    pub road_width: f64,
    /// City wall thickness as a fraction of the tile side.
    pub wall_width: f64,
    /// Size of the texture blotches as a fraction of the tile side.
    pub texture_scale: f64,
    /// Strength of the texture (0–1).
    pub texture_strength: f64,
}

impl Style {
    /// Number of built-in styles.
    pub const PRESETS: usize = 4;

    /// One of the built-in styles (taken modulo [`Style::PRESETS`]).
    pub fn preset(n: usize) -> Style {
        match n % Self::PRESETS {
            // Classic: saturated greens, brown cities, pale roads.
            0 => Style {
                field: [60.0, 150.0, 95.0],
                city: [70.0, 120.0, 170.0],
                wall: [170.0, 190.0, 200.0],
                road: [215.0, 225.0, 230.0],
                road_edge: [60.0, 70.0, 80.0],
                building: [180.0, 205.0, 220.0],
                roof: [40.0, 50.0, 170.0],
                road_width: 0.11,
                wall_width: 0.025,
                texture_scale: 0.12,
                texture_strength: 0.25,
            },
            // Modern: yellow-green fields, ochre cities, sandy roads.
            1 => Style {
                field: [70.0, 175.0, 140.0],
                city: [80.0, 150.0, 200.0],
                wall: [140.0, 160.0, 175.0],
                road: [170.0, 200.0, 215.0],
                road_edge: [80.0, 100.0, 120.0],
                building: [200.0, 215.0, 230.0],
                roof: [50.0, 70.0, 190.0],
                road_width: 0.09,
                wall_width: 0.018,
                texture_scale: 0.06,
                texture_strength: 0.35,
            },
            // Muted: olive fields, grey-brown cities, wide roads.
            2 => Style {
                field: [75.0, 130.0, 110.0],
                city: [95.0, 115.0, 140.0],
                wall: [190.0, 200.0, 205.0],
                road: [200.0, 210.0, 210.0],
                road_edge: [50.0, 55.0, 60.0],
                building: [170.0, 190.0, 200.0],
                roof: [60.0, 60.0, 150.0],
                road_width: 0.14,
                wall_width: 0.03,
                texture_scale: 0.2,
                texture_strength: 0.2,
            },
            // Bright: light greens, terracotta cities, white roads.
            _ => Style {
                field: [90.0, 190.0, 120.0],
                city: [60.0, 110.0, 200.0],
                wall: [210.0, 220.0, 225.0],
                road: [235.0, 240.0, 240.0],
                road_edge: [90.0, 90.0, 90.0],
                building: [210.0, 225.0, 235.0],
                roof: [30.0, 40.0, 200.0],
                road_width: 0.1,
                wall_width: 0.022,
                texture_scale: 0.09,
                texture_strength: 0.3,
            },
        }
    }

    /// This style with every colour nudged by up to `amount` (0–1) of its value, as printing
    /// batches and wear do from tile to tile.
    pub fn jittered<R: Rng>(&self, rng: &mut R, amount: f64) -> Style {
        let mut s = self.clone();
        for c in [
            &mut s.field,
            &mut s.city,
            &mut s.wall,
            &mut s.road,
            &mut s.road_edge,
            &mut s.building,
            &mut s.roof,
        ] {
            let gain = 1.0 + rng.random_range(-amount..=amount);
            for ch in c.iter_mut() {
                *ch = (*ch * gain + rng.random_range(-4.0..=4.0)).clamp(0.0, 255.0);
            }
        }
        s
    }
}

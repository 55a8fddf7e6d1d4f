//! Where the camera looks from: its foot on the table (the nadir) and its height, from how the
//! board's grid lies in the picture and a webcam's usual field of view. A standing figure's top
//! is seen beyond its base, away from the nadir, and more so the more slanted the view: this
//! says by how much, so that a figure's foot is found from its blob in any view.

use opencv::core::{Point2f, Vector, DECOMP_LU};
use opencv::prelude::*;

use super::rectify::Quad;
use crate::rules::Pos;

/// Horizontal field of view (degrees) taken for the camera when none was calibrated: webcams
/// see 60–78°, and an error of a tenth changes a figure's throw by about as much.
pub const NOMINAL_HFOV_DEG: f64 = 65.0;

/// A standing follower's height, in tile sides (about 18 mm on a 45 mm tile).
pub const FIGURE_HEIGHT: f64 = 0.4;

/// The camera over the table, in grid units (tile sides; cell (x, y) spans x..x+1, y..y+1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewpoint {
    /// The table point straight below the camera.
    pub nadir: [f64; 2],
    /// The camera's height over the table.
    pub height: f64,
}

impl Viewpoint {
    /// The camera of an image `size` pixels wide and high whose homography from grid units to
    /// pixels is `h`, for a lens of `hfov_deg` with its centre in the middle of the image.
    /// `None` for a degenerate homography.
    pub fn from_homography(h: &[[f64; 3]; 3], size: [i32; 2], hfov_deg: f64) -> Option<Viewpoint> {
        let f = f64::from(size[0]) / 2.0 / (hfov_deg.to_radians() / 2.0).tan();
        let (cx, cy) = (f64::from(size[0]) / 2.0, f64::from(size[1]) / 2.0);
        // K⁻¹ h: the columns are the grid's x and y axes and its origin, in camera coordinates.
        let column = |j: usize| {
            [
                (h[0][j] - cx * h[2][j]) / f,
                (h[1][j] - cy * h[2][j]) / f,
                h[2][j],
            ]
        };
        let (m1, m2, m3) = (column(0), column(1), column(2));
        let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let scale = (norm(m1) + norm(m2)) / 2.0;
        if !scale.is_finite() || scale < 1e-12 {
            return None;
        }
        let r1 = m1.map(|v| v / scale);
        let r2 = m2.map(|v| v / scale);
        let t = m3.map(|v| v / scale);
        let cross = [
            r1[1] * r2[2] - r1[2] * r2[1],
            r1[2] * r2[0] - r1[0] * r2[2],
            r1[0] * r2[1] - r1[1] * r2[0],
        ];
        let r3 = cross.map(|v| v / norm(cross).max(1e-12));
        let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        // The camera's centre in grid coordinates is −Rᵀt.
        let viewpoint = Viewpoint {
            nadir: [-dot(r1, t), -dot(r2, t)],
            height: dot(r3, t).abs(),
        };
        (viewpoint.nadir.iter().all(|v| v.is_finite())
            && viewpoint.height.is_finite()
            && viewpoint.height > FIGURE_HEIGHT * 2.0)
            .then_some(viewpoint)
    }

    /// The camera that sees the located cells `quads` (corners NW, NE, SE, SW in pixels) in an
    /// image of `size`: each cell's own square tells where the camera is (tiles lie a few
    /// millimetres and degrees off their cells, so a grid fitted across cells is no truer), and
    /// the median over the cells is taken. `None` with no cell.
    pub fn from_cells<'a>(
        quads: impl IntoIterator<Item = (&'a Pos, &'a Quad)>,
        size: [i32; 2],
    ) -> opencv::Result<Option<Viewpoint>> {
        let mut seen = Vec::new();
        for (pos, quad) in quads {
            let (x, y) = (pos.x as f32, pos.y as f32);
            let grid = Vector::<Point2f>::from_iter(
                [[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]]
                    .map(|c| Point2f::new(c[0], c[1])),
            );
            let image =
                Vector::<Point2f>::from_iter(quad.map(|c| Point2f::new(c[0] as f32, c[1] as f32)));
            let h = opencv::imgproc::get_perspective_transform(&grid, &image, DECOMP_LU)?;
            let mut m = [[0.0; 3]; 3];
            for (i, row) in m.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = *h.at_2d::<f64>(i as i32, j as i32)?;
                }
            }
            seen.extend(Viewpoint::from_homography(&m, size, NOMINAL_HFOV_DEG));
        }
        let median = |mut v: Vec<f64>| -> Option<f64> {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        };
        let (Some(x), Some(y), Some(height)) = (
            median(seen.iter().map(|v| v.nadir[0]).collect()),
            median(seen.iter().map(|v| v.nadir[1]).collect()),
            median(seen.iter().map(|v| v.height).collect()),
        ) else {
            return Ok(None);
        };
        Ok(Some(Viewpoint {
            nadir: [x, y],
            height,
        }))
    }

    /// Where a standing figure's top shows on the table, from its base at `base` (grid units):
    /// the offset, in grid units, away from the nadir.
    pub fn rise(&self, base: [f64; 2]) -> [f64; 2] {
        let k = FIGURE_HEIGHT / (self.height - FIGURE_HEIGHT);
        [(base[0] - self.nadir[0]) * k, (base[1] - self.nadir[1]) * k]
    }

    /// [`Viewpoint::rise`] for a figure in the middle of cell `pos`.
    pub fn rise_at_cell(&self, pos: Pos) -> [f64; 2] {
        self.rise([f64::from(pos.x) + 0.5, f64::from(pos.y) + 0.5])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::camera::Camera;

    /// The homography from grid units to pixels of a simulated camera (45.5 mm tiles, cell
    /// (0, 0) from 0 to 45.5 mm).
    fn grid_homography(cam: &Camera) -> [[f64; 3]; 3] {
        let corners = [[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]];
        let mut grid = Vector::<Point2f>::new();
        let mut image = Vector::<Point2f>::new();
        for c in corners {
            let px = cam
                .project_ideal([c[0] * 45.5, c[1] * 45.5, 0.0])
                .expect("in front");
            grid.push(Point2f::new(c[0] as f32, c[1] as f32));
            image.push(Point2f::new(px[0] as f32, px[1] as f32));
        }
        let h =
            opencv::calib3d::find_homography(&grid, &image, &mut Mat::default(), 0, 3.0).unwrap();
        let mut m = [[0.0; 3]; 3];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = *h.at_2d::<f64>(i as i32, j as i32).unwrap();
            }
        }
        m
    }

    #[test]
    fn an_overhead_camera_stands_over_what_it_looks_at() {
        // 455 mm (10 tiles) over the middle of cell (2, 3).
        let cam = Camera::overhead([1280, 720], 65.0, [2.5 * 45.5, 3.5 * 45.5], 455.0);
        let v = Viewpoint::from_homography(&grid_homography(&cam), [1280, 720], 65.0).unwrap();
        assert!((v.nadir[0] - 2.5).abs() < 0.05, "{v:?}");
        assert!((v.nadir[1] - 3.5).abs() < 0.05, "{v:?}");
        assert!((v.height - 10.0).abs() < 0.1, "{v:?}");
        // Straight below, a figure's top hides its base; four tiles east it shows east of it.
        let below = v.rise([2.5, 3.5]);
        assert!(below[0].abs() < 0.01 && below[1].abs() < 0.01);
        let east = v.rise([6.5, 3.5]);
        assert!((east[0] - 4.0 * 0.4 / 9.6).abs() < 0.01, "{east:?}");
    }

    #[test]
    fn a_slanted_camera_throws_figures_away_from_the_players() {
        // From the south, 40° from vertical, 600 mm from the middle of cell (0, 0).
        let cam = Camera::oblique([1280, 720], 65.0, [22.75, 22.75], 600.0, 40.0);
        let v = Viewpoint::from_homography(&grid_homography(&cam), [1280, 720], 65.0).unwrap();
        let (d, tilt) = (600.0 / 45.5, 40f64.to_radians());
        assert!((v.height - d * tilt.cos()).abs() < 0.2, "{v:?}");
        assert!((v.nadir[1] - (0.5 + d * tilt.sin())).abs() < 0.2, "{v:?}");
        assert!((v.nadir[0] - 0.5).abs() < 0.1, "{v:?}");
        // At the cell the camera looks at, the top shows north of the base, by tan 40° × 0.4.
        let r = v.rise([0.5, 0.5]);
        assert!(r[0].abs() < 0.02, "{r:?}");
        assert!((r[1] + 0.4 * tilt.tan()).abs() < 0.05, "{r:?}");
    }

    #[test]
    fn three_tiles_a_little_off_their_cells_place_the_camera() {
        // Each tile 1–2 mm and 1–3° off its cell, as players lay them.
        let cam = Camera::oblique([1280, 720], 65.0, [22.75, 22.75], 520.0, 40.0);
        let laid = [
            ((0, 0), [1.5, -1.0], 2.0f64),
            ((1, 0), [-2.0, 0.5], -3.0),
            ((0, -1), [0.5, 2.0], 1.0),
        ];
        let cells: Vec<(Pos, Quad)> = laid
            .iter()
            .map(|&((x, y), off, deg)| {
                let (s, c) = deg.to_radians().sin_cos();
                let middle = [
                    (f64::from(x) + 0.5) * 45.5 + off[0],
                    (f64::from(y) + 0.5) * 45.5 + off[1],
                ];
                let corner = |u: f64, v: f64| {
                    let (dx, dy) = (u * 22.75, v * 22.75);
                    let p = [
                        middle[0] + c * dx - s * dy,
                        middle[1] + s * dx + c * dy,
                        0.0,
                    ];
                    cam.project_ideal(p).expect("in front")
                };
                (
                    Pos::new(x, y),
                    [
                        corner(-1.0, -1.0),
                        corner(1.0, -1.0),
                        corner(1.0, 1.0),
                        corner(-1.0, 1.0),
                    ],
                )
            })
            .collect();
        let v = Viewpoint::from_cells(cells.iter().map(|(p, q)| (p, q)), [1280, 720])
            .unwrap()
            .unwrap();
        let truth = Viewpoint::from_homography(&grid_homography(&cam), [1280, 720], 65.0).unwrap();
        for (a, b) in v.rise([0.5, -0.5]).iter().zip(truth.rise([0.5, -0.5])) {
            assert!((a - b).abs() < 0.03, "{v:?} vs {truth:?}");
        }
    }

    #[test]
    fn a_degenerate_homography_gives_no_camera() {
        assert_eq!(
            Viewpoint::from_homography(&[[0.0; 3]; 3], [1280, 720], 65.0),
            None
        );
    }
}

//! Where the camera looks from: its foot on the table (the nadir) and its height, from how the
//! board's grid lies in the picture and a webcam's usual field of view. A standing figure's top
//! is seen beyond its base, away from the nadir, and more so the more slanted the view: this
//! says by how much, so that a figure's foot is found from its blob in any view.

use opencv::calib3d::{rodrigues, solve_pnp_generic, SolvePnPMethod};
use opencv::core::{no_array, Mat, Point2d, Point3d, Vector};
use opencv::prelude::*;

use super::rectify::{quad_homography, Quad};
use crate::rules::Pos;
use crate::sim::camera::{apply_homography, invert_homography};

/// Horizontal field of view (degrees) taken for the camera when none was calibrated: webcams
/// see 60–78°, and an error of a tenth changes a figure's throw by about as much.
pub const NOMINAL_HFOV_DEG: f64 = 65.0;

/// How far (degrees) the start tile must show the camera tilted for cells to be predicted in
/// perspective: a tile located a few pixels off shows a camera straight overhead tilted up to
/// some 25° (seed 7300 game 18), and a perspective that is not there shrinks far cells.
const PERSPECTIVE_MIN_TILT_DEG: f64 = 30.0;

/// How far (share of the picture's down) the table's up may point down the picture for a
/// camera still counted upright.
const UPRIGHT_SLACK: f64 = 0.05;
/// How much smaller one pose's reprojection error must be than the other's to decide alone.
const CLEARLY_BETTER: f64 = 0.5;
/// [`CLEARLY_BETTER`] for a camera held upside down against one held upright: a tile of
/// 50–60 pixels a pixel off fits the wrong one of the two twice or four times better now and
/// then (`eval vision --dataset` 12300, boards 14 and 22, start tiles found in their setup
/// frames), and cameras are held upright.
const OVERTURNED_BETTER: f64 = 0.1;

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

/// Where the camera stands and how it is turned, in grid units: a table point `p` (z = 0) is
/// seen at `K (R p + t)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// The lens: focal length (pixels) and the picture's centre.
    focal: f64,
    centre_px: [f64; 2],
    /// Grid to camera rotation.
    r: [[f64; 3]; 3],
    /// Grid origin in the camera's frame.
    t: [f64; 3],
}

impl Pose {
    /// The camera that sees cell `pos` at `quad` (corners NW, NE, SE, SW in pixels) in an image
    /// of `size`, for a lens of `hfov_deg` with its centre in the middle of the image. A small
    /// square seen from afar fits two poses about equally (tilted towards or away from the
    /// camera): the one that fits clearly better is taken (far better, if it would hold the
    /// camera upside down and the other not), otherwise the one of a camera held upright (the
    /// table's up is not the picture's down) and, of two such, the less slanted.
    /// `None` when no pose fits.
    pub fn from_quad(
        pos: Pos,
        quad: &Quad,
        size: [i32; 2],
        hfov_deg: f64,
    ) -> opencv::Result<Option<Pose>> {
        let focal = f64::from(size[0]) / 2.0 / (hfov_deg.to_radians() / 2.0).tan();
        let centre_px = [f64::from(size[0]) / 2.0, f64::from(size[1]) / 2.0];
        let k = Mat::from_slice_2d(&[
            [focal, 0.0, centre_px[0]],
            [0.0, focal, centre_px[1]],
            [0.0, 0.0, 1.0],
        ])?;
        let (x, y) = (f64::from(pos.x), f64::from(pos.y));
        let grid = Vector::<Point3d>::from_iter(
            [[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]]
                .map(|c| Point3d::new(c[0], c[1], 0.0)),
        );
        let image = Vector::<Point2d>::from_iter(quad.map(|c| Point2d::new(c[0], c[1])));
        let (mut rvecs, mut tvecs) = (Vector::<Mat>::new(), Vector::<Mat>::new());
        let mut errors = Mat::default();
        // A collapsed quad fits no pose (OpenCV refuses it).
        let Ok(n) = solve_pnp_generic(
            &grid,
            &image,
            &k,
            &no_array(),
            &mut rvecs,
            &mut tvecs,
            false,
            SolvePnPMethod::SOLVEPNP_IPPE,
            &no_array(),
            &no_array(),
            &mut errors,
        ) else {
            return Ok(None);
        };
        let mut poses = Vec::new();
        for i in 0..n.max(0) as usize {
            let mut rm = Mat::default();
            rodrigues(&rvecs.get(i)?, &mut rm, &mut no_array())?;
            let tm = tvecs.get(i)?;
            let mut r = [[0.0; 3]; 3];
            let mut t = [0.0; 3];
            for (i, (r_row, t_row)) in r.iter_mut().zip(t.iter_mut()).enumerate() {
                for (j, v) in r_row.iter_mut().enumerate() {
                    *v = *rm.at_2d::<f64>(i as i32, j as i32)?;
                }
                *t_row = *tm.at_2d::<f64>(i as i32, 0)?;
            }
            let pose = Pose {
                focal,
                centre_px,
                r,
                t,
            };
            // The table's up in the camera's frame is −R·z: its picture-down part.
            let up_down = -r[1][2];
            let error = *errors.at::<f64>(i as i32)?;
            let centre = pose.centre();
            if centre[2] < 0.0 && centre.iter().all(|v| v.is_finite()) {
                poses.push((pose, up_down, error));
            }
        }
        poses.sort_by(|a, b| a.2.total_cmp(&b.2));
        let upright = |p: &&(Pose, f64, f64)| p.1 <= UPRIGHT_SLACK;
        // How much better the best must fit than the next to decide alone.
        let decides = |best, next| {
            if upright(&best) || !upright(&next) {
                CLEARLY_BETTER
            } else {
                OVERTURNED_BETTER
            }
        };
        let chosen = match poses.as_slice() {
            [] => None,
            [only] => Some(only),
            [best, next, ..] if best.2 < decides(best, next) * next.2 => Some(best),
            [a, b, ..] => [a, b]
                .into_iter()
                .filter(upright)
                .min_by(|p, q| p.1.abs().total_cmp(&q.1.abs()))
                .or(Some(a)),
        };
        Ok(chosen.map(|(pose, _, _)| *pose))
    }

    /// [`Pose::from_quad`] from the cell's foreshortening alone: its opposite sides are made
    /// parallel and alike first (each the mean of the two). One tile's own taper says little of
    /// the perspective (a pixel off at a corner, or the lens's bending, tapers it as much as a
    /// far view does); how much shorter it looks one way than the other says much.
    pub fn from_foreshortening(
        pos: Pos,
        quad: &Quad,
        size: [i32; 2],
        hfov_deg: f64,
    ) -> opencv::Result<Option<Pose>> {
        Pose::from_quad(pos, &parallelogram(quad), size, hfov_deg)
    }

    /// The pose a start tile found at `start` in a `size` picture shows (a webcam's usual lens
    /// taken), where it shows the camera tilted at least [`PERSPECTIVE_MIN_TILT_DEG`]: enough
    /// for cells to be predicted in perspective.
    pub fn of_oblique_start(start: &Quad, size: [i32; 2]) -> opencv::Result<Option<Pose>> {
        Ok(
            Pose::from_foreshortening(Pos::new(0, 0), start, size, NOMINAL_HFOV_DEG)?
                .filter(|p| p.tilt_deg() >= PERSPECTIVE_MIN_TILT_DEG),
        )
    }

    /// How far (degrees) the camera looks away from straight down.
    pub fn tilt_deg(&self) -> f64 {
        self.r[2][2].clamp(-1.0, 1.0).acos().to_degrees()
    }

    /// The camera's centre in grid units (−Rᵀt; the grid's z points into the table).
    fn centre(&self) -> [f64; 3] {
        let mut centre = [0.0; 3];
        for (c, out) in centre.iter_mut().enumerate() {
            for row in 0..3 {
                *out -= self.r[row][c] * self.t[row];
            }
        }
        centre
    }

    /// Where table point `p` (grid units) shows in the picture; `None` behind the camera.
    pub fn project(&self, p: [f64; 2]) -> Option<[f64; 2]> {
        let cam: [f64; 3] =
            std::array::from_fn(|row| self.r[row][0] * p[0] + self.r[row][1] * p[1] + self.t[row]);
        (cam[2] > 1e-9).then(|| {
            [
                self.centre_px[0] + self.focal * cam[0] / cam[2],
                self.centre_px[1] + self.focal * cam[1] / cam[2],
            ]
        })
    }

    /// Cell `pos`'s corners (NW, NE, SE, SW) in the picture; `None` if any lies behind.
    pub fn cell(&self, pos: Pos) -> Option<Quad> {
        let (x, y) = (f64::from(pos.x), f64::from(pos.y));
        Some([
            self.project([x, y])?,
            self.project([x + 1.0, y])?,
            self.project([x + 1.0, y + 1.0])?,
            self.project([x, y + 1.0])?,
        ])
    }
}

impl Viewpoint {
    /// The camera that sees cell `pos` at `quad` (corners NW, NE, SE, SW in pixels) in an image
    /// of `size`, for a lens of `hfov_deg` with its centre in the middle of the image (see
    /// [`Pose::from_quad`]). `None` when no pose fits.
    pub fn from_quad(
        pos: Pos,
        quad: &Quad,
        size: [i32; 2],
        hfov_deg: f64,
    ) -> opencv::Result<Option<Viewpoint>> {
        Ok(Pose::from_quad(pos, quad, size, hfov_deg)?
            .map(|pose| {
                let centre = pose.centre();
                Viewpoint {
                    nadir: [centre[0], centre[1]],
                    height: -centre[2],
                }
            })
            .filter(|v| v.height > FIGURE_HEIGHT * 2.0))
    }

    /// The camera, looking straight down, that sees cell `pos` at `quad` (corners NW, NE, SE,
    /// SW in pixels) in an image of `size`, for a webcam's usual lens: its nadir under the
    /// picture's middle, its height as far as the cell's size in the picture says. `None` for
    /// a collapsed quad.
    fn looking_down(pos: Pos, quad: &Quad, size: [i32; 2]) -> opencv::Result<Option<Viewpoint>> {
        let focal = f64::from(size[0]) / 2.0 / (NOMINAL_HFOV_DEG.to_radians() / 2.0).tan();
        let side = (0..4)
            .map(|k| {
                let (a, b) = (quad[k], quad[(k + 1) % 4]);
                (b[0] - a[0]).hypot(b[1] - a[1])
            })
            .sum::<f64>()
            / 4.0;
        if side < 1.0 {
            return Ok(None);
        }
        let middle = [f64::from(size[0]) / 2.0, f64::from(size[1]) / 2.0];
        Ok(to_cell(quad, middle)?
            .map(|[x, y]| Viewpoint {
                nadir: [f64::from(pos.x) + x, f64::from(pos.y) + y],
                height: focal / side,
            })
            .filter(|v| v.height > FIGURE_HEIGHT * 2.0))
    }

    /// The camera that sees the located cells `quads` (corners NW, NE, SE, SW in pixels) in an
    /// image of `size`: each cell's own square tells where the camera is, and the median over
    /// the cells is taken (tiles lie a few millimetres and degrees off their cells, so a grid
    /// fitted across cells is no truer). Where the cells' foreshortening shows the camera
    /// tilted as much as a slanted view is (as [`Pose::of_oblique_start`] tells, the median
    /// over the cells), each square places it by its perspective ([`Viewpoint::from_quad`]);
    /// otherwise the camera is taken to look straight down, over the picture's middle: seen
    /// from above, a tile's slight taper tells little of where the camera is (corners a pixel
    /// off move it tiles away). `None` with no cell.
    pub fn from_cells<'a>(
        quads: impl IntoIterator<Item = (&'a Pos, &'a Quad)>,
        size: [i32; 2],
    ) -> opencv::Result<Option<Viewpoint>> {
        let cells: Vec<(Pos, Quad)> = quads.into_iter().map(|(p, q)| (*p, *q)).collect();
        let median = |mut v: Vec<f64>| -> Option<f64> {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        };
        let mut tilts = Vec::new();
        for (pos, quad) in &cells {
            if let Some(pose) = Pose::from_foreshortening(*pos, quad, size, NOMINAL_HFOV_DEG)? {
                tilts.push(pose.tilt_deg());
            }
        }
        let slanted = median(tilts).is_some_and(|t| t >= PERSPECTIVE_MIN_TILT_DEG);
        let mut seen = Vec::new();
        for (pos, quad) in &cells {
            seen.extend(if slanted {
                Viewpoint::from_quad(*pos, quad, size, NOMINAL_HFOV_DEG)?
            } else {
                Viewpoint::looking_down(*pos, quad, size)?
            });
        }
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

/// Where picture point `p` lies on the table, in grid units, by the homography that takes
/// `quad` (NW, NE, SE, SW) to cell (0, 0); `None` for a point on the horizon.
fn to_cell(quad: &Quad, p: [f64; 2]) -> opencv::Result<Option<[f64; 2]>> {
    let back = invert_homography(&quad_homography(quad)?);
    let q = apply_homography(&back, p);
    Ok(q.iter().all(|v| v.is_finite()).then_some(q))
}

/// `quad` (NW, NE, SE, SW) with its opposite sides made parallel and alike, each the mean of
/// the two, about the same middle.
fn parallelogram(quad: &Quad) -> Quad {
    let [nw, ne, se, sw] = *quad;
    let mid = [0, 1].map(|k| (nw[k] + ne[k] + se[k] + sw[k]) / 4.0);
    let east = [0, 1].map(|k| (ne[k] - nw[k] + se[k] - sw[k]) / 4.0);
    let south = [0, 1].map(|k| (sw[k] - nw[k] + se[k] - ne[k]) / 4.0);
    let at = |e: f64, s: f64| [0, 1].map(|k| mid[k] + e * east[k] + s * south[k]);
    [at(-1.0, -1.0), at(1.0, -1.0), at(1.0, 1.0), at(-1.0, 1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::camera::Camera;

    const SIZE: [i32; 2] = [1280, 720];

    /// Where a simulated camera (45.5 mm tiles, cell (0, 0) from 0 to 45.5 mm) truly is.
    fn truth(cam: &Camera) -> Viewpoint {
        Viewpoint {
            nadir: [cam.centre[0] / 45.5, cam.centre[1] / 45.5],
            height: -cam.centre[2] / 45.5,
        }
    }

    /// Cell (x, y) as `cam` sees it, each corner moved by `jitter` pixels.
    fn quad_of(cam: &Camera, x: i32, y: i32, jitter: [[f64; 2]; 4]) -> Quad {
        let corner = |k: usize, u: f64, v: f64| {
            let p = cam
                .project_ideal([(f64::from(x) + u) * 45.5, (f64::from(y) + v) * 45.5, 0.0])
                .expect("in front");
            [p[0] + jitter[k][0], p[1] + jitter[k][1]]
        };
        [
            corner(0, 0.0, 0.0),
            corner(1, 1.0, 0.0),
            corner(2, 1.0, 1.0),
            corner(3, 0.0, 1.0),
        ]
    }

    fn seen(cam: &Camera, cells: &[(i32, i32)], jitter: [[f64; 2]; 4]) -> Viewpoint {
        let quads: Vec<(Pos, Quad)> = cells
            .iter()
            .map(|&(x, y)| (Pos::new(x, y), quad_of(cam, x, y, jitter)))
            .collect();
        Viewpoint::from_cells(quads.iter().map(|(p, q)| (p, q)), SIZE)
            .unwrap()
            .expect("a camera")
    }

    #[test]
    fn an_overhead_camera_stands_over_what_it_looks_at() {
        // 455 mm (10 tiles) over the middle of cell (2, 3).
        let cam = Camera::overhead(SIZE, 65.0, [2.5 * 45.5, 3.5 * 45.5], 455.0);
        // The cell below, and cells up and down the picture, each seen alone.
        for cell in [(2, 3), (2, 0), (2, 6)] {
            let v = seen(&cam, &[cell], [[0.0; 2]; 4]);
            assert!((v.nadir[0] - 2.5).abs() < 0.05, "{cell:?}: {v:?}");
            assert!((v.nadir[1] - 3.5).abs() < 0.05, "{cell:?}: {v:?}");
            assert!((v.height - 10.0).abs() < 0.1, "{cell:?}: {v:?}");
        }
        let v = truth(&cam);
        // Straight below, a figure's top hides its base; four tiles east it shows east of it.
        let below = v.rise([2.5, 3.5]);
        assert!(below[0].abs() < 0.01 && below[1].abs() < 0.01);
        let east = v.rise([6.5, 3.5]);
        assert!((east[0] - 4.0 * 0.4 / 9.6).abs() < 0.01, "{east:?}");
    }

    #[test]
    fn a_slanted_camera_throws_figures_away_from_the_players() {
        // From the south, 40° from vertical, 600 mm from the middle of cell (0, 0).
        let cam = Camera::oblique(SIZE, 65.0, [22.75, 22.75], 600.0, 40.0);
        let v = seen(&cam, &[(0, 0)], [[0.0; 2]; 4]);
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
    fn a_small_tile_that_fits_an_upside_down_camera_better_is_still_seen_from_an_upright_one() {
        // The start tile as found in a 720p setup frame (`eval vision --generate 30 --seed
        // 12300`, board 14), 60 pixels wide, seen from the south: its corners a pixel off fit a
        // camera north of it, held upside down, twice as well as the true one.
        let quad = [
            [667.72, 343.96],
            [728.41, 345.02],
            [729.93, 387.02],
            [671.57, 388.10],
        ];
        let v = Viewpoint::from_quad(Pos::new(0, 0), &quad, SIZE, NOMINAL_HFOV_DEG)
            .unwrap()
            .expect("a camera");
        let r = v.rise_at_cell(Pos::new(0, 0));
        assert!(r[1] < -0.2, "tops rise north: {r:?}");
    }

    #[test]
    fn a_small_far_tile_a_pixel_or_two_off_still_places_the_camera() {
        // Tiles about 60 pixels wide seen from the south (eval track's seed 3300, game 17): the
        // start tile's corners found a pixel or two off made its own perspective say the camera
        // stood west of the board, and a monk standing on its cloister read as a farmer.
        let cam = Camera::oblique(SIZE, 65.0, [22.75, 22.75], 620.0, 50.0);
        let jitter = [[-2.0, -1.3], [1.0, 2.2], [-0.5, -0.5], [-0.8, -0.2]];
        let v = seen(&cam, &[(0, 0), (0, 1)], jitter);
        let (r, t) = (
            v.rise_at_cell(Pos::new(0, 1)),
            truth(&cam).rise_at_cell(Pos::new(0, 1)),
        );
        for (a, b) in r.iter().zip(t) {
            assert!((a - b).abs() < 0.08, "{r:?} vs {t:?}");
        }
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
        let truth = truth(&cam);
        for (a, b) in v.rise([0.5, -0.5]).iter().zip(truth.rise([0.5, -0.5])) {
            assert!((a - b).abs() < 0.03, "{v:?} vs {truth:?}");
        }
    }

    /// The most any corner of `a` lies from its counterpart in `b` (pixels).
    fn worst_corner(a: &Quad, b: &Quad) -> f64 {
        a.iter()
            .zip(b)
            .map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]))
            .fold(0.0, f64::max)
    }

    #[test]
    fn a_slanted_start_tile_foretells_the_far_cells_smaller() {
        // Seed 2900 game 5 of eval track: 40° from vertical, tiles about 58 pixels wide, the
        // start tile's corners a pixel or two off. Cells four rows north are a fifth smaller;
        // continuing the start tile's own shape put them half a tile off.
        let cam = Camera::oblique(SIZE, 66.0, [22.75, 22.75], 800.0, 40.0);
        let jitter = [[-1.5, 1.0], [1.0, -1.2], [0.5, 0.8], [-0.8, -0.6]];
        let start = quad_of(&cam, 0, 0, jitter);
        let pose = Pose::from_foreshortening(Pos::new(0, 0), &start, SIZE, NOMINAL_HFOV_DEG)
            .unwrap()
            .expect("a pose");
        assert!((pose.tilt_deg() - 40.0).abs() < 8.0, "{}", pose.tilt_deg());
        for cell in [(0, -4), (3, -3), (-2, 2)] {
            let pos = Pos::new(cell.0, cell.1);
            let want = quad_of(&cam, cell.0, cell.1, [[0.0; 2]; 4]);
            let side = (want[1][0] - want[0][0]).abs();
            let got = pose.cell(pos).expect("in front");
            assert!(
                worst_corner(&got, &want) < 0.12 * side,
                "{cell:?}: {got:?} vs {want:?}"
            );
        }
        let far = quad_of(&cam, 0, -4, [[0.0; 2]; 4]);
        let near = quad_of(&cam, 0, 1, [[0.0; 2]; 4]);
        assert!(far[2][1] - far[1][1] < 0.75 * (near[2][1] - near[1][1]));
    }

    #[test]
    fn a_start_tile_seen_from_above_a_pixel_off_shows_little_tilt() {
        // Seed 2900 game 19 of eval track, filmed straight from above through a bending lens:
        // the start tile found about 100 pixels wide, tapered by 2.5 %. Its taper said the
        // camera was 18° off vertical, and the cells three rows north a tenth smaller than
        // three rows south; its foreshortening alone says nearly straight down.
        let start = [
            [544.46, 467.00],
            [642.90, 466.00],
            [644.62, 565.09],
            [543.73, 566.41],
        ];
        let pose = Pose::from_foreshortening(Pos::new(0, 0), &start, SIZE, NOMINAL_HFOV_DEG)
            .unwrap()
            .expect("a pose");
        assert!(pose.tilt_deg() < 10.0, "{}", pose.tilt_deg());
        let width = |q: Quad| q[1][0] - q[0][0];
        let (north, south) = (
            pose.cell(Pos::new(0, -3)).expect("in front"),
            pose.cell(Pos::new(0, 3)).expect("in front"),
        );
        assert!(width(north) / width(south) > 0.97, "{north:?} {south:?}");
    }

    #[test]
    fn a_collapsed_quad_gives_no_camera() {
        let v = Viewpoint::from_quad(Pos::new(0, 0), &[[5.0, 5.0]; 4], SIZE, 65.0);
        assert!(matches!(v, Ok(None)), "{v:?}");
        let v = Viewpoint::from_cells([(&Pos::new(0, 0), &[[5.0, 5.0]; 4])], SIZE);
        assert!(matches!(v, Ok(None)), "{v:?}");
    }

    #[test]
    fn a_start_tile_seen_from_above_a_pixel_off_still_places_the_camera_over_the_middle() {
        // 12 tiles over the table, looking straight down at a point 2 tiles east and 3 south of
        // the start tile, which shows some 70 pixels wide; its corners found a pixel or so off.
        let cam = Camera::overhead(SIZE, 68.0, [2.5 * 45.5, 3.5 * 45.5], 12.0 * 45.5);
        let jitter = [[-1.2, 0.8], [0.9, -1.1], [1.0, 0.6], [-0.7, -1.0]];
        let start = quad_of(&cam, 0, 0, jitter);
        let v = Viewpoint::from_cells([(&Pos::new(0, 0), &start)], SIZE)
            .unwrap()
            .expect("a camera");
        let truth = truth(&cam);
        // A figure four tiles west of the start tile throws its top as the true camera shows it.
        let (r, t) = (
            v.rise_at_cell(Pos::new(-4, 0)),
            truth.rise_at_cell(Pos::new(-4, 0)),
        );
        assert!((r[0] - t[0]).hypot(r[1] - t[1]) < 0.025, "{r:?} vs {t:?}");
        // The tile's own taper places the camera tiles off, and the throw further off.
        let alone = Viewpoint::from_quad(Pos::new(0, 0), &start, SIZE, NOMINAL_HFOV_DEG)
            .unwrap()
            .expect("a camera");
        let a = alone.rise_at_cell(Pos::new(-4, 0));
        assert!((a[0] - t[0]).hypot(a[1] - t[1]) > 0.03, "{a:?} vs {t:?}");
    }

    #[test]
    fn a_start_tile_seen_at_a_slant_places_the_camera_by_its_foreshortening() {
        let cam = Camera::oblique(SIZE, 65.0, [22.75, 22.75], 600.0, 40.0);
        let start = quad_of(&cam, 0, 0, [[0.0; 2]; 4]);
        assert_eq!(
            Viewpoint::from_cells([(&Pos::new(0, 0), &start)], SIZE).unwrap(),
            Viewpoint::from_quad(Pos::new(0, 0), &start, SIZE, NOMINAL_HFOV_DEG).unwrap()
        );
    }
}

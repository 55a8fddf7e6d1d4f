//! A pinhole camera with lens distortion, looking at the table.
//!
//! Table frame: millimetres, x east, y south, z down into the table (right-handed), the table
//! surface at z = 0, the start tile's north-west corner at the origin. Camera frame: x right,
//! y down, z forward (OpenCV's convention).

use opencv::core::{Mat, Size, Vector, CV_32FC2};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

/// A 3-D point in table millimetres.
pub type Vec3 = [f64; 3];

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: Vec3) -> Vec3 {
    let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    [a[0] / n, a[1] / n, a[2] / n]
}

fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Intrinsics, distortion and pose of a camera over the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Image width and height in pixels.
    pub size: [i32; 2],
    /// Focal lengths in pixels.
    pub focal: [f64; 2],
    /// Principal point in pixels.
    pub principal: [f64; 2],
    /// Distortion `k1 k2 p1 p2 k3` (OpenCV's model).
    pub distortion: [f64; 5],
    /// Rows: the camera's x, y and z axes in table coordinates (table → camera rotation).
    pub rotation: [Vec3; 3],
    /// The camera's centre in table millimetres.
    pub centre: Vec3,
}

impl Camera {
    /// A camera of `size` pixels and horizontal field of view `hfov_deg`, at `centre` looking
    /// at `target`, with the image's downward direction towards the table's south.
    pub fn looking_at(size: [i32; 2], hfov_deg: f64, centre: Vec3, target: Vec3) -> Camera {
        let f = f64::from(size[0]) / 2.0 / (hfov_deg.to_radians() / 2.0).tan();
        let z = unit(sub(target, centre));
        let x = unit(cross([0.0, 1.0, 0.0], z));
        let y = cross(z, x);
        Camera {
            size,
            focal: [f, f],
            principal: [f64::from(size[0]) / 2.0, f64::from(size[1]) / 2.0],
            distortion: [0.0; 5],
            rotation: [x, y, z],
            centre,
        }
    }

    /// A camera straight over `target` (table mm, z = 0) at `height` mm.
    pub fn overhead(size: [i32; 2], hfov_deg: f64, target: [f64; 2], height: f64) -> Camera {
        let t = [target[0], target[1], 0.0];
        Camera::looking_at(size, hfov_deg, [t[0], t[1], -height], t)
    }

    /// A camera `distance` mm from `target`, tilted `tilt_deg` from vertical, on the south side.
    pub fn oblique(
        size: [i32; 2],
        hfov_deg: f64,
        target: [f64; 2],
        distance: f64,
        tilt_deg: f64,
    ) -> Camera {
        let t = [target[0], target[1], 0.0];
        let a = tilt_deg.to_radians();
        let centre = [t[0], t[1] + distance * a.sin(), -distance * a.cos()];
        Camera::looking_at(size, hfov_deg, centre, t)
    }

    /// A table point in camera coordinates.
    pub fn to_camera(&self, p: Vec3) -> Vec3 {
        let d = sub(p, self.centre);
        [
            dot(self.rotation[0], d),
            dot(self.rotation[1], d),
            dot(self.rotation[2], d),
        ]
    }

    /// Pixel of a table point in the ideal (undistorted) image; `None` behind the camera.
    pub fn project_ideal(&self, p: Vec3) -> Option<[f64; 2]> {
        let c = self.to_camera(p);
        (c[2] > 1e-6).then(|| {
            [
                self.focal[0] * c[0] / c[2] + self.principal[0],
                self.focal[1] * c[1] / c[2] + self.principal[1],
            ]
        })
    }

    /// Pixel of a table point in the real (distorted) image; `None` behind the camera.
    pub fn project(&self, p: Vec3) -> Option<[f64; 2]> {
        let c = self.to_camera(p);
        if c[2] <= 1e-6 {
            return None;
        }
        let (x, y) = (c[0] / c[2], c[1] / c[2]);
        let [k1, k2, p1, p2, k3] = self.distortion;
        let r2 = x * x + y * y;
        let radial = 1.0 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2;
        let xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x);
        let yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y;
        Some([
            self.focal[0] * xd + self.principal[0],
            self.focal[1] * yd + self.principal[1],
        ])
    }

    /// Homography from table millimetres (z = 0) to ideal pixels: `K [r1 r2 t]`.
    pub fn homography(&self) -> [[f64; 3]; 3] {
        let t = self.to_camera([0.0, 0.0, 0.0]);
        let r = &self.rotation;
        let col = |i: usize| [r[0][i], r[1][i], r[2][i]];
        let (r1, r2) = (col(0), col(1));
        let k = |v: Vec3| {
            [
                self.focal[0] * v[0] + self.principal[0] * v[2],
                self.focal[1] * v[1] + self.principal[1] * v[2],
                v[2],
            ]
        };
        let (a, b, c) = (k(r1), k(r2), k(t));
        [[a[0], b[0], c[0]], [a[1], b[1], c[1]], [a[2], b[2], c[2]]]
    }

    /// The camera matrix `K` as an OpenCV matrix.
    pub fn k_matrix(&self) -> opencv::Result<Mat> {
        let rows = [
            [self.focal[0], 0.0, self.principal[0]],
            [0.0, self.focal[1], self.principal[1]],
            [0.0, 0.0, 1.0],
        ];
        Mat::from_slice_2d(&rows)
    }

    /// The map that turns an ideal image into what this lens sees (for `remap`): for every
    /// pixel of the distorted image, where it lies in the ideal image.
    pub fn distortion_map(&self) -> opencv::Result<Mat> {
        let [w, h] = self.size;
        let mut grid = Vector::<opencv::core::Point2f>::with_capacity((w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                grid.push(opencv::core::Point2f::new(x as f32, y as f32));
            }
        }
        let k = self.k_matrix()?;
        let dist = Mat::from_slice(&self.distortion)?;
        let mut ideal = Mat::default();
        opencv::calib3d::undistort_points(
            &grid,
            &mut ideal,
            &k,
            &dist,
            &opencv::core::no_array(),
            &k,
        )?;
        let mut map = ideal.reshape(2, h)?.try_clone()?;
        if map.typ() != CV_32FC2 {
            let mut converted = Mat::default();
            map.convert_to(&mut converted, CV_32FC2, 1.0, 0.0)?;
            map = converted;
        }
        debug_assert_eq!(map.size()?, Size::new(w, h));
        Ok(map)
    }
}

/// Applies a homography to a point.
pub fn apply_homography(h: &[[f64; 3]; 3], p: [f64; 2]) -> [f64; 2] {
    let v = [
        h[0][0] * p[0] + h[0][1] * p[1] + h[0][2],
        h[1][0] * p[0] + h[1][1] * p[1] + h[1][2],
        h[2][0] * p[0] + h[2][1] * p[1] + h[2][2],
    ];
    [v[0] / v[2], v[1] / v[2]]
}

/// The inverse of a 3×3 matrix (a homography's inverse maps back).
pub fn invert_homography(m: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let [[a, b, c], [d, e, f], [g, h, i]] = *m;
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    let k = 1.0 / det;
    [
        [
            (e * i - f * h) * k,
            (c * h - b * i) * k,
            (b * f - c * e) * k,
        ],
        [
            (f * g - d * i) * k,
            (a * i - c * g) * k,
            (c * d - a * f) * k,
        ],
        [
            (d * h - e * g) * k,
            (b * g - a * h) * k,
            (a * e - b * d) * k,
        ],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overhead_camera_sees_the_target_at_the_image_centre_with_north_up() {
        let cam = Camera::overhead([1920, 1080], 70.0, [100.0, 50.0], 800.0);
        let c = cam.project_ideal([100.0, 50.0, 0.0]).unwrap();
        assert!((c[0] - 960.0).abs() < 1e-9 && (c[1] - 540.0).abs() < 1e-9);
        let east = cam.project_ideal([150.0, 50.0, 0.0]).unwrap();
        let south = cam.project_ideal([100.0, 100.0, 0.0]).unwrap();
        assert!(east[0] > c[0] && (east[1] - c[1]).abs() < 1e-9);
        assert!(south[1] > c[1] && (south[0] - c[0]).abs() < 1e-9);
    }

    #[test]
    fn the_homography_agrees_with_projection_on_the_table() {
        let cam = Camera::oblique([1280, 720], 65.0, [0.0, 0.0], 700.0, 40.0);
        let h = cam.homography();
        for p in [[0.0, 0.0], [90.0, -45.0], [-135.0, 180.0]] {
            let v = [
                h[0][0] * p[0] + h[0][1] * p[1] + h[0][2],
                h[1][0] * p[0] + h[1][1] * p[1] + h[1][2],
                h[2][0] * p[0] + h[2][1] * p[1] + h[2][2],
            ];
            let q = cam.project_ideal([p[0], p[1], 0.0]).unwrap();
            assert!((v[0] / v[2] - q[0]).abs() < 1e-6 && (v[1] / v[2] - q[1]).abs() < 1e-6);
        }
        // Tilted towards the north: the near (south) edge of the board looks wider.
        let near = cam.project_ideal([45.0, 100.0, 0.0]).unwrap()[0]
            - cam.project_ideal([-45.0, 100.0, 0.0]).unwrap()[0];
        let far = cam.project_ideal([45.0, -100.0, 0.0]).unwrap()[0]
            - cam.project_ideal([-45.0, -100.0, 0.0]).unwrap()[0];
        assert!(near > far);
    }

    #[test]
    fn the_distortion_map_inverts_projection() {
        let mut cam = Camera::overhead([320, 240], 70.0, [0.0, 0.0], 500.0);
        cam.distortion = [-0.12, 0.03, 0.001, -0.001, 0.0];
        let map = cam.distortion_map().unwrap();
        for p in [[0.0, 0.0, 0.0], [150.0, 90.0, 0.0], [-160.0, -100.0, 0.0]] {
            let real = cam.project(p).unwrap();
            let ideal = cam.project_ideal(p).unwrap();
            let (x, y) = (real[0].round() as i32, real[1].round() as i32);
            let m = map.at_2d::<opencv::core::Vec2f>(y, x).unwrap();
            // The map at the distorted pixel points back to the ideal pixel (within the
            // rounding of the distorted position).
            assert!(
                (f64::from(m[0]) - ideal[0]).abs() < 1.5,
                "{m:?} vs {ideal:?}"
            );
            assert!(
                (f64::from(m[1]) - ideal[1]).abs() < 1.5,
                "{m:?} vs {ideal:?}"
            );
        }
    }
}

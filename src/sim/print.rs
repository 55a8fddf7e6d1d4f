//! A flat print (a calibration board, say) lying on the table, photographed through a
//! [`Camera`] with its lens distortion.

use opencv::core::{Mat, Scalar, Size};
use opencv::imgproc;

use super::camera::Camera;

/// A picture printed at `mm_per_px` millimetres per pixel, lying flat on the table with its
/// top-left corner at `origin_mm` (table millimetres) and its rows along the table's x axis.
#[derive(Clone, Copy, Debug)]
pub struct FlatPrint<'a> {
    /// The picture (any type `warpPerspective` takes: 8-bit grey or BGR, say).
    pub image: &'a Mat,
    /// Millimetres per pixel of the picture as printed.
    pub mm_per_px: f64,
    /// Where the picture's top-left corner lies on the table, millimetres.
    pub origin_mm: [f64; 2],
}

impl FlatPrint<'_> {
    /// Homography from the picture's pixels to table millimetres (pixel centres at half
    /// pixels, as OpenCV counts).
    fn to_table(self) -> [[f64; 3]; 3] {
        let s = self.mm_per_px;
        let [x, y] = self.origin_mm;
        [
            [s, 0.0, x + 0.5 * s],
            [0.0, s, y + 0.5 * s],
            [0.0, 0.0, 1.0],
        ]
    }

    /// The print as `camera` sees it on a plain table of colour `table`: the ideal pinhole
    /// picture, then bent by the lens exactly as the renderer bends its frames.
    pub fn photograph(&self, camera: &Camera, table: Scalar) -> opencv::Result<Mat> {
        let h = mul(&camera.homography(), &self.to_table());
        let m = Mat::from_slice_2d(&h)?;
        let size = Size::new(camera.size[0], camera.size[1]);
        let mut ideal = Mat::default();
        imgproc::warp_perspective(
            self.image,
            &mut ideal,
            &m,
            size,
            imgproc::INTER_LINEAR,
            opencv::core::BORDER_CONSTANT,
            table,
        )?;
        if camera.distortion.iter().all(|&d| d == 0.0) {
            return Ok(ideal);
        }
        let mut bent = Mat::default();
        imgproc::remap(
            &ideal,
            &mut bent,
            &camera.distortion_map()?,
            &opencv::core::no_array(),
            imgproc::INTER_LINEAR,
            opencv::core::BORDER_CONSTANT,
            table,
        )?;
        Ok(bent)
    }
}

/// The product of two 3×3 matrices.
fn mul(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let mut out = [[0.0; 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Vec3b, CV_8UC3};
    use opencv::prelude::*;

    #[test]
    fn a_print_lands_where_the_camera_projects_it_through_the_lens() {
        // A white print with one red pixel block, photographed obliquely through a bent lens.
        let mut print =
            Mat::new_rows_cols_with_default(100, 200, CV_8UC3, Scalar::all(255.0)).unwrap();
        for y in 60..64 {
            for x in 150..154 {
                *print.at_2d_mut::<Vec3b>(y, x).unwrap() = Vec3b::from([0, 0, 255]);
            }
        }
        let mut cam = Camera::oblique([640, 480], 60.0, [0.0, 0.0], 500.0, 30.0);
        cam.distortion = [-0.2, 0.05, 0.0, 0.0, 0.0];
        let flat = FlatPrint {
            image: &print,
            mm_per_px: 1.0,
            origin_mm: [-100.0, -50.0],
        };
        let photo = flat.photograph(&cam, Scalar::all(0.0)).unwrap();
        // The block's centre (152, 62) px is at table (52, 12) mm.
        let p = cam.project([52.0, 12.0, 0.0]).unwrap();
        let px = photo
            .at_2d::<Vec3b>(p[1].round() as i32, p[0].round() as i32)
            .unwrap();
        assert!(px[2] > 200 && px[1] < 80, "{px:?} at {p:?}");
        // Off the print: the table's colour.
        let q = cam.project([-150.0, 0.0, 0.0]).unwrap();
        let px = photo
            .at_2d::<Vec3b>(q[1].round() as i32, q[0].round() as i32)
            .unwrap();
        assert_eq!(*px, Vec3b::from([0, 0, 0]));
    }
}

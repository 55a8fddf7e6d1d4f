//! The table's grid seen through the start tile: where any cell lies in the picture when none
//! of its neighbours has been seen.

use crate::rules::Pos;
use crate::vision::rectify::Quad;

/// The picture corners (NW, NE, SE, SW) of cell `pos`, continuing the grid that the start
/// tile's corners `start` (cell (0, 0)) span; `None` if the start quad is degenerate.
pub fn extrapolate(start: &Quad, pos: Pos) -> Option<Quad> {
    let h = square_to_quad(start)?;
    let (x, y) = (f64::from(pos.x), f64::from(pos.y));
    let corners = [[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]];
    let mut out = [[0.0; 2]; 4];
    for (o, c) in out.iter_mut().zip(corners) {
        let w = h[2][0] * c[0] + h[2][1] * c[1] + h[2][2];
        if w.abs() < 1e-9 {
            return None;
        }
        *o = [
            (h[0][0] * c[0] + h[0][1] * c[1] + h[0][2]) / w,
            (h[1][0] * c[0] + h[1][1] * c[1] + h[1][2]) / w,
        ];
    }
    Some(out)
}

/// The homography from the unit square (corners (0,0), (1,0), (1,1), (0,1)) to `q`
/// (Heckbert's closed form for a square-to-quad mapping).
fn square_to_quad(q: &Quad) -> Option<[[f64; 3]; 3]> {
    let [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = *q;
    let (sx, sy) = (x0 - x1 + x2 - x3, y0 - y1 + y2 - y3);
    let (dx1, dy1) = (x1 - x2, y1 - y2);
    let (dx2, dy2) = (x3 - x2, y3 - y2);
    let det = dx1 * dy2 - dx2 * dy1;
    if det.abs() < 1e-12 {
        return None;
    }
    let g = (sx * dy2 - dx2 * sy) / det;
    let h = (dx1 * sy - sx * dy1) / det;
    Some([
        [x1 - x0 + g * x1, x3 - x0 + h * x3, x0],
        [y1 - y0 + g * y1, y3 - y0 + h * y3, y0],
        [g, h, 1.0],
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_grid_continues_square() {
        let start = [[100.0, 50.0], [150.0, 50.0], [150.0, 100.0], [100.0, 100.0]];
        let q = extrapolate(&start, Pos::new(2, -1)).unwrap();
        let want = [[200.0, 0.0], [250.0, 0.0], [250.0, 50.0], [200.0, 50.0]];
        for (a, b) in q.iter().zip(want) {
            assert!(
                (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9,
                "{q:?}"
            );
        }
    }

    #[test]
    fn the_start_cell_maps_onto_itself_in_perspective() {
        // A trapezoid: the far edge (north) shorter, as an oblique camera sees it.
        let start = [[110.0, 40.0], [150.0, 40.0], [160.0, 90.0], [100.0, 90.0]];
        let q = extrapolate(&start, Pos::new(0, 0)).unwrap();
        for (a, b) in q.iter().zip(start) {
            assert!(
                (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9,
                "{q:?}"
            );
        }
        // Farther north, cells shrink; nearer (south), they grow.
        let north = extrapolate(&start, Pos::new(0, -1)).unwrap();
        let south = extrapolate(&start, Pos::new(0, 1)).unwrap();
        let top = |q: Quad| q[1][0] - q[0][0];
        let bottom = |q: Quad| q[2][0] - q[3][0];
        assert!(
            top(north) < 40.0 && bottom(south) > 60.0,
            "{north:?} {south:?}"
        );
    }

    #[test]
    fn a_collapsed_start_tile_gives_nothing() {
        let start = [[10.0, 10.0]; 4];
        assert!(extrapolate(&start, Pos::new(1, 0)).is_none());
    }
}

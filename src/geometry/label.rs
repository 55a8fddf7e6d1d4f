//! A coarse raster of a tile saying which feature covers each cell.

use super::Point;

/// Cells per side of a [`LabelMap`].
pub const LABEL_RES: usize = 64;

/// Label of a cell no feature covers (a pocket between features).
pub const NO_FEATURE: u8 = u8::MAX;

/// Label of a cell covered by something drawn that is no feature: the river, a lake, a road
/// stub to a city gate, a divider printed in a field.
pub const SCENERY: u8 = u8::MAX - 1;

/// Which feature (index into the tile type's features) covers each cell of the tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelMap {
    cells: Vec<u8>,
}

impl LabelMap {
    /// A map with every cell unlabelled.
    pub(super) fn empty() -> LabelMap {
        LabelMap {
            cells: vec![NO_FEATURE; LABEL_RES * LABEL_RES],
        }
    }

    /// The centre of cell `(i, j)` in tile units.
    pub fn cell_centre(i: usize, j: usize) -> Point {
        let s = LABEL_RES as f32;
        [(i as f32 + 0.5) / s, (j as f32 + 0.5) / s]
    }

    /// The cell containing `p` (clamped to the tile).
    pub fn cell_of(p: Point) -> (usize, usize) {
        let c = |v: f32| ((v * LABEL_RES as f32).floor().max(0.0) as usize).min(LABEL_RES - 1);
        (c(p[0]), c(p[1]))
    }

    /// The label at `p`.
    pub fn at(&self, p: Point) -> u8 {
        let (i, j) = Self::cell_of(p);
        self.get(i, j)
    }

    /// The label of cell `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> u8 {
        self.cells[j * LABEL_RES + i]
    }

    pub(super) fn set(&mut self, i: usize, j: usize, label: u8) {
        self.cells[j * LABEL_RES + i] = label;
    }

    /// Labels every cell whose centre `inside` accepts.
    pub(super) fn paint(&mut self, label: u8, inside: impl Fn(Point) -> bool) {
        for j in 0..LABEL_RES {
            for i in 0..LABEL_RES {
                if inside(Self::cell_centre(i, j)) {
                    self.set(i, j, label);
                }
            }
        }
    }

    /// Number of cells with `label`.
    pub fn area(&self, label: u8) -> usize {
        self.cells.iter().filter(|&&l| l == label).count()
    }

    /// The cell centre of `label` farthest (in cell steps) from any other label and from the
    /// tile's border, for a follower or a symbol to sit on.
    pub fn deepest(&self, label: u8) -> Option<Point> {
        self.deepest_where(label, |_| true).map(|(p, _)| p)
    }

    /// As [`LabelMap::deepest`], of the cells whose centres `allowed` holds for; with how deep
    /// it lies (cell steps, 1 at the edge).
    pub fn deepest_where(
        &self,
        label: u8,
        allowed: impl Fn(Point) -> bool,
    ) -> Option<(Point, u32)> {
        let n = LABEL_RES;
        let dist = self.depths(label);
        let best = (0..n * n)
            .filter(|&k| self.cells[k] == label && allowed(Self::cell_centre(k % n, k / n)))
            .max_by_key(|&k| (dist[k], std::cmp::Reverse(k)))?;
        Some((Self::cell_centre(best % n, best / n), dist[best]))
    }

    /// Each cell's distance (in cell steps) from any label other than `label` and from the
    /// tile's border: 0 off the label.
    fn depths(&self, label: u8) -> Vec<u32> {
        let n = LABEL_RES;
        let mut dist = vec![u32::MAX; n * n];
        let mut queue = std::collections::VecDeque::new();
        for j in 0..n {
            for i in 0..n {
                let border = i == 0 || j == 0 || i == n - 1 || j == n - 1;
                if self.get(i, j) != label {
                    dist[j * n + i] = 0;
                    queue.push_back((i, j));
                } else if border {
                    dist[j * n + i] = 1;
                    queue.push_back((i, j));
                }
            }
        }
        while let Some((i, j)) = queue.pop_front() {
            let d = dist[j * n + i];
            for (di, dj) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (a, b) = (i as i32 + di, j as i32 + dj);
                if a < 0 || b < 0 || a >= n as i32 || b >= n as i32 {
                    continue;
                }
                let k = b as usize * n + a as usize;
                if dist[k] > d + 1 {
                    dist[k] = d + 1;
                    queue.push_back((a as usize, b as usize));
                }
            }
        }
        dist
    }

    /// Connected groups (4-neighbourhood) of unlabelled cells, as a map from cell to group.
    pub(super) fn pockets(&self) -> Vec<Option<usize>> {
        let n = LABEL_RES;
        let mut group = vec![None; n * n];
        let mut next = 0;
        for start in 0..n * n {
            if self.cells[start] != NO_FEATURE || group[start].is_some() {
                continue;
            }
            group[start] = Some(next);
            let mut stack = vec![start];
            while let Some(k) = stack.pop() {
                let (i, j) = ((k % n) as i32, (k / n) as i32);
                for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let (a, b) = (i + di, j + dj);
                    if a < 0 || b < 0 || a >= n as i32 || b >= n as i32 {
                        continue;
                    }
                    let m = b as usize * n + a as usize;
                    if self.cells[m] == NO_FEATURE && group[m].is_none() {
                        group[m] = Some(next);
                        stack.push(m);
                    }
                }
            }
            next += 1;
        }
        group
    }
}

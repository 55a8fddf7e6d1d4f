//! Where a cell lies in the picture, predicted from the tiles found around it: from its
//! neighbours, from a grid fitted to the tiles near it, or in the camera's perspective.

use std::collections::BTreeMap;

use opencv::core::{Mat, Point2f, Vector};
use opencv::prelude::*;

use super::rectify::{homography_of, middle, moved_like, side_px, Quad};
use super::viewpoint::Pose;
use crate::rules::{Dir, Pos};
use crate::sim::camera::apply_homography;

/// What a cell is predicted to look like from a located neighbour in direction `d` of it.
fn predict_from(neighbour: &Quad, d: Dir) -> Quad {
    let add = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| [a[0] + b[0] - c[0], a[1] + b[1] - c[1]];
    let [nw, ne, se, sw] = *neighbour;
    match d {
        // The neighbour lies west: our west edge is its east edge.
        Dir::W => [ne, add(ne, ne, nw), add(se, se, sw), se],
        Dir::E => [add(nw, nw, ne), nw, sw, add(sw, sw, se)],
        Dir::N => [sw, se, add(se, se, ne), add(sw, sw, nw)],
        Dir::S => [add(nw, nw, sw), add(ne, ne, se), ne, nw],
    }
}

/// Where cell `pos` should lie, from the tiles already found around it (the mean of what each
/// neighbour predicts); `None` with no neighbour found.
pub fn predict(found: &BTreeMap<Pos, Quad>, pos: Pos) -> Option<Quad> {
    let predictions: Vec<Quad> = Dir::ALL
        .iter()
        .filter_map(|&d| found.get(&pos.step(d)).map(|q| predict_from(q, d)))
        .collect();
    if predictions.is_empty() {
        return None;
    }
    let n = predictions.len() as f64;
    Some([0, 1, 2, 3].map(|k| {
        [
            predictions.iter().map(|q| q[k][0]).sum::<f64>() / n,
            predictions.iter().map(|q| q[k][1]).sum::<f64>() / n,
        ]
    }))
}

/// Where cell `pos` should lie as the camera `pose` sees the table, moved as far as its laid
/// neighbours lie off their own cells: the cell's shape follows the perspective (far cells of
/// an oblique view are smaller; the neighbours' shapes are not), its place the neighbours (a
/// tile laid with a gap pushes the tiles laid against it off the grid). `None` with no
/// neighbour found.
pub fn predict_in_perspective(found: &BTreeMap<Pos, Quad>, pos: Pos, pose: &Pose) -> Option<Quad> {
    let mut offset = [0.0; 2];
    let mut n = 0.0;
    for d in Dir::ALL {
        let next = pos.step(d);
        let (Some(seen), Some(cell)) = (found.get(&next), pose.cell(next)) else {
            continue;
        };
        for (s, c) in seen.iter().zip(cell) {
            offset[0] += s[0] - c[0];
            offset[1] += s[1] - c[1];
            n += 1.0;
        }
    }
    if n == 0.0 {
        return None;
    }
    Some(
        pose.cell(pos)?
            .map(|c| [c[0] + offset[0] / n, c[1] + offset[1] / n]),
    )
}

/// Where cell `pos` should lie as the camera `pose` sees the table, bent as the tiles found
/// near it (within [`FIT_REACH`] cells) lie: the least-squares affine map taking their cells'
/// middles as the pose sees them to their tiles' middles (the neighbours weighing most, a
/// farther tile [`FARTHER_WEIGHT`]), held towards a plain shift ([`BEND_STIFFNESS`]). Taken
/// from the start tile's foreshortening alone and for a lens not the camera's, the pose can
/// show cells several tiles away a sixth of a side too short, and a lens bends the rows near
/// the picture's edges; the tiles' middles are what the board read measures (their shapes
/// are the cuts'). `None` with no neighbour found.
pub fn predict_in_bent_perspective(
    found: &BTreeMap<Pos, Quad>,
    pos: Pos,
    pose: &Pose,
) -> Option<Quad> {
    if !Dir::ALL.iter().any(|&d| found.contains_key(&pos.step(d))) {
        return None;
    }
    let target = pose.cell(pos)?;
    // Each tile near: its cell's middle as the pose sees it, where it was found, its weight.
    let near: Vec<([[f64; 2]; 2], f64)> = found
        .iter()
        .filter_map(|(p, seen)| {
            let (dx, dy) = ((p.x - pos.x).abs(), (p.y - pos.y).abs());
            if dx.max(dy) > FIT_REACH || dx + dy == 0 {
                return None;
            }
            let weight = if dx + dy == 1 { 1.0 } else { FARTHER_WEIGHT };
            Some(([middle(&pose.cell(*p)?), middle(seen)], weight))
        })
        .collect();
    let total: f64 = near.iter().map(|n| n.1).sum();
    let mean = |k: usize| [0, 1].map(|c| near.iter().map(|n| n.1 * n.0[k][c]).sum::<f64>() / total);
    let (from, to) = (mean(0), mean(1));
    // The bend b minimises Σ w |b d − e|² + k |b − 1|² (d, e: a middle less the mean, as the
    // pose sees it and as found): b = (Σ w e dᵀ + k) (Σ w d dᵀ + k)⁻¹.
    let stiffness = BEND_STIFFNESS * side_px(&target).powi(2);
    let mut dd = [[stiffness, 0.0], [0.0, stiffness]];
    let mut ed = dd;
    for ([seen_by_pose, seen], w) in &near {
        let d = [seen_by_pose[0] - from[0], seen_by_pose[1] - from[1]];
        let e = [seen[0] - to[0], seen[1] - to[1]];
        for i in 0..2 {
            for j in 0..2 {
                dd[i][j] += w * d[i] * d[j];
                ed[i][j] += w * e[i] * d[j];
            }
        }
    }
    let det = dd[0][0] * dd[1][1] - dd[0][1] * dd[1][0];
    if !det.is_normal() {
        return None;
    }
    let inverse = [
        [dd[1][1] / det, -dd[0][1] / det],
        [-dd[1][0] / det, dd[0][0] / det],
    ];
    let bend: [[f64; 2]; 2] = std::array::from_fn(|i| {
        std::array::from_fn(|j| ed[i][0] * inverse[0][j] + ed[i][1] * inverse[1][j])
    });
    Some(target.map(|c| {
        let d = [c[0] - from[0], c[1] - from[1]];
        [0, 1].map(|i| to[i] + bend[i][0] * d[0] + bend[i][1] * d[1])
    }))
}

/// What a tile farther than a neighbour weighs in [`predict_in_bent_perspective`]'s bend
/// against a neighbour.
const FARTHER_WEIGHT: f64 = 0.5;

/// How stiffly [`predict_in_bent_perspective`]'s bend keeps to a plain shift: as stiffly as a
/// quarter of a neighbour's weight (in cell sides squared) holds it.
const BEND_STIFFNESS: f64 = 0.25;

/// Where cell `pos` should lie: in the camera's perspective where a `pose` is known (a view
/// at an angle, [`Pose::of_oblique_start`]), else from a grid fitted to the tiles found around
/// it ([`predict_fitted`], seen from above).
pub fn predict_cell(
    found: &BTreeMap<Pos, Quad>,
    pos: Pos,
    pose: Option<&Pose>,
) -> opencv::Result<Option<Quad>> {
    match pose.and_then(|p| predict_in_perspective(found, pos, p)) {
        Some(quad) => Ok(Some(quad)),
        None => predict_fitted(found, pos),
    }
}

/// Cells around a target whose tiles a local grid fit uses (Chebyshev distance).
const FIT_REACH: i32 = 2;

/// Where cell `pos` should lie, from a grid fitted to every tile found within `FIT_REACH`
/// cells of it (a least-squares homography from grid corners to their image corners, so that
/// the few millimetres each tile lies off its cell average out); from the neighbours alone
/// ([`predict`]) when fewer than three tiles are that near. A grid that makes the cell
/// [`FIT_SIZE_DRIFT`] larger or smaller than those tiles gives way to their least-squares
/// affine grid (for a view from above: at an angle, [`predict_in_perspective`]).
pub fn predict_fitted(found: &BTreeMap<Pos, Quad>, pos: Pos) -> opencv::Result<Option<Quad>> {
    let near: Vec<(&Pos, &Quad)> = found
        .iter()
        .filter(|(p, _)| (p.x - pos.x).abs() <= FIT_REACH && (p.y - pos.y).abs() <= FIT_REACH)
        .collect();
    if near.len() < 3 {
        return Ok(predict(found, pos));
    }
    let corners = [(0, 0), (1, 0), (1, 1), (0, 1)];
    let mut grid = Vector::<Point2f>::new();
    let mut image = Vector::<Point2f>::new();
    for (p, q) in &near {
        for (k, (dx, dy)) in corners.iter().enumerate() {
            grid.push(Point2f::new(
                (p.x - pos.x + dx) as f32,
                (p.y - pos.y + dy) as f32,
            ));
            image.push(Point2f::new(q[k][0] as f32, q[k][1] as f32));
        }
    }
    let m = opencv::calib3d::find_homography(&grid, &image, &mut Mat::default(), 0, 3.0)?;
    if m.empty() {
        return Ok(predict(found, pos));
    }
    let h = homography_of(&m)?;
    let fitted = corners.map(|(x, y)| apply_homography(&h, [f64::from(x), f64::from(y)]));
    // Fitted to a few tiles each a little off its cell, the perspective may run away, the
    // cells it predicts ever smaller (or larger) down a column: then the tiles' mean shape
    // counts, without perspective.
    let mean_side = near.iter().map(|(_, q)| side_px(q)).sum::<f64>() / near.len() as f64;
    if (side_px(&fitted) / mean_side.max(1.0) - 1.0).abs() <= FIT_SIZE_DRIFT {
        return Ok(Some(fitted));
    }
    let pairs: Vec<([f64; 2], [f64; 2])> = grid
        .iter()
        .zip(image.iter())
        .map(|(g, i)| {
            (
                [f64::from(g.x), f64::from(g.y)],
                [f64::from(i.x), f64::from(i.y)],
            )
        })
        .collect();
    Ok(affine_fit(&pairs)
        .map(|[a, b]| {
            corners.map(|(x, y)| {
                let v = [f64::from(x), f64::from(y), 1.0];
                let dot = |r: [f64; 3]| r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
                [dot(a), dot(b)]
            })
        })
        .or(Some(fitted)))
}

/// Where cell `pos` of a board being read ([`super::locate::read_board`]) should lie: in the camera's
/// perspective where a `pose` is known, else on the square grid around it
/// ([`predict_on_square_grid`]).
pub(super) fn predict_in_read(
    found: &BTreeMap<Pos, Quad>,
    pos: Pos,
    pose: Option<&Pose>,
) -> Option<Quad> {
    pose.and_then(|p| predict_in_perspective(found, pos, p))
        .or_else(|| predict_on_square_grid(found, pos))
}

/// Where cell `pos` should lie, from the least-squares similarity (a turn, a scale and a shift)
/// taking grid corners to the image corners of every tile found within `FIT_REACH` cells of
/// it, so that the few millimetres each tile lies off its cell average out; from the
/// neighbours alone ([`predict`]) when fewer than three tiles are that near. Seen from above
/// (at an angle, [`predict_in_perspective`]), the tiles around a cell lie on a square grid. A
/// board read grows from tiles just found, some a little off: a homography (or affine map)
/// fitted to them reads their errors as perspective or shear and carries them on, to cells a
/// third of a side off (2nd-edition art, `eval vision` art seed 8000, board 36). The tracker,
/// predicting from tiles it has confirmed, keeps [`predict_fitted`].
fn predict_on_square_grid(found: &BTreeMap<Pos, Quad>, pos: Pos) -> Option<Quad> {
    let near: Vec<(&Pos, &Quad)> = found
        .iter()
        .filter(|(p, _)| (p.x - pos.x).abs() <= FIT_REACH && (p.y - pos.y).abs() <= FIT_REACH)
        .collect();
    if near.len() < 3 {
        return predict(found, pos);
    }
    let corners = [(0, 0), (1, 0), (1, 1), (0, 1)];
    let pairs: Vec<([f64; 2], [f64; 2])> = near
        .iter()
        .flat_map(|(p, q)| {
            corners.iter().zip(q.iter()).map(|((dx, dy), at)| {
                (
                    [f64::from(p.x - pos.x + dx), f64::from(p.y - pos.y + dy)],
                    *at,
                )
            })
        })
        .collect();
    let to_image = similarity_fit(&pairs)?;
    Some(corners.map(|(x, y)| to_image([f64::from(x), f64::from(y)])))
}

/// The least-squares similarity taking each pair's first point to its second (as complex
/// numbers, z ↦ a z + b); `None` if the first points all coincide.
fn similarity_fit(pairs: &[([f64; 2], [f64; 2])]) -> Option<impl Fn([f64; 2]) -> [f64; 2]> {
    let n = pairs.len() as f64;
    let mean = |k: usize, c: usize| {
        pairs
            .iter()
            .map(|p| if k == 0 { p.0[c] } else { p.1[c] })
            .sum::<f64>()
            / n
    };
    let (from, to) = ([mean(0, 0), mean(0, 1)], [mean(1, 0), mean(1, 1)]);
    let (mut re, mut im, mut norm) = (0.0, 0.0, 0.0);
    for (f, t) in pairs {
        let (x, y) = (f[0] - from[0], f[1] - from[1]);
        let (u, v) = (t[0] - to[0], t[1] - to[1]);
        re += u * x + v * y;
        im += v * x - u * y;
        norm += x * x + y * y;
    }
    if norm.is_nan() || norm <= 1e-9 {
        return None;
    }
    let (re, im) = (re / norm, im / norm);
    Some(move |p: [f64; 2]| {
        let (x, y) = (p[0] - from[0], p[1] - from[1]);
        [to[0] + re * x - im * y, to[1] + im * x + re * y]
    })
}

/// `quad`, a cell's prediction from a grid fitted to the tiles around it
/// ([`predict_fitted`]), moved to where its laid neighbours alone put it ([`predict`]) if it
/// lies further than [`FIT_OFF_NEIGHBOURS`] from there: continued sideways from a column of
/// tiles, such a grid may put the cell over its neighbour. Only the middles count: a tile's
/// found outline may be skewed.
pub fn near_neighbours(found: &BTreeMap<Pos, Quad>, pos: Pos, quad: Quad) -> Quad {
    let Some(beside) = predict(found, pos) else {
        return quad;
    };
    let (from, to) = (middle(&quad), middle(&beside));
    if (to[0] - from[0]).hypot(to[1] - from[1]) > FIT_OFF_NEIGHBOURS * side_px(&beside) {
        moved_like(&quad, &beside)
    } else {
        quad
    }
}

/// How far (share of a side, middle to middle) a cell predicted by [`predict_fitted`]'s grid
/// may lie from where its laid neighbours alone put it ([`near_neighbours`]): tiles lie a few
/// millimetres off their cells, a twentieth of a side or so; a grid fitted to a column of
/// tiles and continued sideways put the cell beside them 0.17 of a side over the start tile
/// (`eval track --art` seed 1212 game 13).
const FIT_OFF_NEIGHBOURS: f64 = 0.12;

/// How much a cell predicted by [`predict_fitted`]'s grid may differ in size from the tiles it
/// was fitted to (share of their mean side) before the grid counts as run away: in a view
/// tilted less than 30° (else the camera's pose predicts), cells within two of each other
/// differ by a few %; a homography fitted to a column of tiles a few pixels off shrank the
/// cells below by 11 % and then 14 % (`eval track` seed 8642, game 14, a checked cloth).
const FIT_SIZE_DRIFT: f64 = 0.1;

/// The least-squares affine map taking each pair's first point to its second, as the rows
/// giving x and y from (x, y, 1); `None` if the points do not fix it.
fn affine_fit(pairs: &[([f64; 2], [f64; 2])]) -> Option<[[f64; 3]; 2]> {
    let mut normal = [[0.0; 3]; 3];
    let mut rhs = [[0.0; 3]; 2];
    for (from, to) in pairs {
        let v = [from[0], from[1], 1.0];
        for r in 0..3 {
            for c in 0..3 {
                normal[r][c] += v[r] * v[c];
            }
            rhs[0][r] += v[r] * to[0];
            rhs[1][r] += v[r] * to[1];
        }
    }
    Some([solve3(&normal, rhs[0])?, solve3(&normal, rhs[1])?])
}

/// The solution of the 3×3 system `m` x = `b` (Cramer's rule); `None` if `m` is singular.
fn solve3(m: &[[f64; 3]; 3], b: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(m);
    if d.abs() < 1e-9 {
        return None;
    }
    Some([0, 1, 2].map(|k| {
        let mut mk = *m;
        for r in 0..3 {
            mk[r][k] = b[r];
        }
        det(&mk) / d
    }))
}

/// How many tiles found lie near enough `pos` to predict it ([`predict_fitted`]).
pub(super) fn support(found: &BTreeMap<Pos, Quad>, pos: Pos) -> usize {
    found
        .keys()
        .filter(|p| (p.x - pos.x).abs() <= FIT_REACH && (p.y - pos.y).abs() <= FIT_REACH)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::rectify::tests::square;

    #[test]
    fn a_cell_fitted_over_its_laid_neighbour_is_moved_beside_it() {
        // A column of 100-pixel tiles at x = 0 and the grid fitted to them: the cell west of
        // the middle one predicted 17 pixels too far east (over the tile), a little smaller.
        let found: BTreeMap<Pos, Quad> = (-1..=1)
            .map(|y| (Pos::new(0, y), square(0.0, f64::from(y) * 100.0)))
            .collect();
        let over = [[-83.0, 2.0], [12.0, 2.0], [12.0, 97.0], [-83.0, 97.0]];
        let moved = near_neighbours(&found, Pos::new(-1, 0), over);
        // Beside it (middle at x = -50), its own size kept.
        let mid = middle(&moved);
        assert!(
            (mid[0] + 50.0).abs() < 1e-9 && (mid[1] - 50.0).abs() < 1e-9,
            "{moved:?}"
        );
        assert!((side_px(&moved) - 95.0).abs() < 1e-9, "{moved:?}");
        // A cell a few pixels off (as tiles lie off their cells) stays where the grid put it.
        let near = [[-104.0, 3.0], [-4.0, 3.0], [-4.0, 103.0], [-104.0, 103.0]];
        assert_eq!(near_neighbours(&found, Pos::new(-1, 0), near), near);
    }

    #[test]
    fn a_grid_fitted_to_a_few_tiles_does_not_run_away() {
        // Two columns of tiles seen from almost straight above, each a few pixels off, so that
        // they come out ever shorter and narrower down the picture (by 12 % a cell, as on a
        // checked cloth in a filmed game): a homography through them reads that as
        // perspective and shrinks the cell below by as much again.
        let shrunk = |x: f64, y: f64| [65.0 * x / (1.0 + 0.13 * y), 65.0 * y / (1.0 + 0.13 * y)];
        let cell = |x: i32, y: i32| {
            let (x, y) = (f64::from(x), f64::from(y));
            [
                shrunk(x, y),
                shrunk(x + 1.0, y),
                shrunk(x + 1.0, y + 1.0),
                shrunk(x, y + 1.0),
            ]
        };
        let found: BTreeMap<Pos, Quad> = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
            .into_iter()
            .map(|(x, y)| (Pos::new(x, y), cell(x, y)))
            .collect();
        let below = predict_fitted(&found, Pos::new(0, 3)).unwrap().unwrap();
        let mean = found.values().map(side_px).sum::<f64>() / 6.0;
        assert!(side_px(&cell(0, 3)) < 0.85 * mean);
        assert!((side_px(&below) / mean - 1.0).abs() <= 0.1, "{below:?}");
        // It still lies below the tiles found.
        assert!((below[0][1] - cell(0, 2)[3][1]).abs() < 4.0, "{below:?}");
        // A grid of square tiles, 100 pixels each: the cell beyond is predicted exactly.
        let found: BTreeMap<Pos, Quad> = [(0, 0), (1, 0), (0, 1), (1, 1)]
            .into_iter()
            .map(|(x, y)| {
                (
                    Pos::new(x, y),
                    square(f64::from(x) * 100.0, f64::from(y) * 100.0),
                )
            })
            .collect();
        let next = predict_fitted(&found, Pos::new(2, 1)).unwrap().unwrap();
        for (p, q) in next.iter().zip(square(200.0, 100.0)) {
            assert!((p[0] - q[0]).hypot(p[1] - q[1]) < 1e-3, "{next:?}");
        }
    }

    #[test]
    fn a_row_of_tiles_each_a_little_off_predicts_a_square_cell_beside_it() {
        // Three 100-pixel tiles in a row, the first 4 pixels high, the last 4 low, the middle
        // one found a little skewed (its south side 5 pixels east): seen from above, the cell
        // below the middle one is still a square, about where the row puts it.
        let mut found: BTreeMap<Pos, Quad> = BTreeMap::new();
        found.insert(Pos::new(0, 0), square(0.0, -4.0));
        found.insert(Pos::new(2, 0), square(200.0, 4.0));
        let mut skewed = square(100.0, 0.0);
        skewed[2][0] += 5.0;
        skewed[3][0] += 5.0;
        found.insert(Pos::new(1, 0), skewed);
        let below = predict_on_square_grid(&found, Pos::new(1, 1)).unwrap();
        let side = |k: usize| {
            let (a, b) = (below[k], below[(k + 1) % 4]);
            [b[0] - a[0], b[1] - a[1]]
        };
        for k in 0..4 {
            let (s, t) = (side(k), side((k + 1) % 4));
            assert!(
                (s[0].hypot(s[1]) - t[0].hypot(t[1])).abs() < 1e-6,
                "{below:?}"
            );
            assert!((s[0] * t[0] + s[1] * t[1]).abs() < 1e-6, "{below:?}");
        }
        let mid = middle(&below);
        assert!((mid[0] - 150.0).hypot(mid[1] - 150.0) < 5.0, "{below:?}");
        assert!((side_px(&below) - 100.0).abs() < 2.0, "{below:?}");
    }

    #[test]
    fn a_cell_in_perspective_moves_with_its_laid_neighbours() {
        let (cam, pose) = oblique_camera(65.0, 40.0, 65.0);
        let ideal = |x: i32, y: i32| seen_cell(&cam, x, y);
        let moved = |q: Quad, by: [f64; 2]| q.map(|c| [c[0] + by[0], c[1] + by[1]]);
        // Tiles laid with gaps: the start tile where the camera sees its cell, the one north of
        // it 4 pixels further north, the one east of that 2 pixels east.
        let found: BTreeMap<Pos, Quad> = [
            (Pos::new(0, 0), ideal(0, 0)),
            (Pos::new(0, -1), moved(ideal(0, -1), [0.0, -4.0])),
            (Pos::new(1, -1), moved(ideal(1, -1), [2.0, -4.0])),
        ]
        .into();
        let near = |a: Quad, b: Quad| {
            a.iter()
                .zip(b)
                .all(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]) < 0.5)
        };
        // North of the column: as far off as the tile it is laid against.
        let north = predict_in_perspective(&found, Pos::new(0, -2), &pose).expect("a neighbour");
        assert!(near(north, moved(ideal(0, -2), [0.0, -4.0])), "{north:?}");
        // Between two: the mean of their drifts.
        let between = predict_in_perspective(&found, Pos::new(1, 0), &pose).expect("neighbours");
        assert!(
            near(between, moved(ideal(1, 0), [1.0, -2.0])),
            "{between:?}"
        );
        assert_eq!(predict_in_perspective(&found, Pos::new(5, 5), &pose), None);
    }

    #[test]
    fn a_far_cell_follows_the_tiles_near_it_where_the_start_tile_misjudges_the_lens() {
        // A camera of 60° looking 45° down; the pose taken from the start tile's
        // foreshortening for a lens of 72°. Nine tiles found where they lie, up the picture.
        let (cam, pose) = oblique_camera(60.0, 45.0, 72.0);
        let ideal = |x: i32, y: i32| seen_cell(&cam, x, y);
        let found: BTreeMap<Pos, Quad> = (-4..=-2)
            .flat_map(|x| (-5..=-3).map(move |y| Pos::new(x, y)))
            .map(|p| (p, ideal(p.x, p.y)))
            .collect();
        // West of the block and north of it: cells the pose shifted with their neighbours puts
        // a tenth of a side off and more; bent, half as far off at most.
        for target in [Pos::new(-5, -4), Pos::new(-3, -6)] {
            let truth = ideal(target.x, target.y);
            let plain = predict_in_perspective(&found, target, &pose).expect("a neighbour");
            let bent = predict_in_bent_perspective(&found, target, &pose).expect("a neighbour");
            let (plain_off, bent_off) = (corners_off(&truth, &plain), corners_off(&truth, &bent));
            assert!(plain_off > 0.09, "{plain:?}");
            assert!(bent_off < 0.5 * plain_off, "{bent:?} vs {plain:?}");
        }
        // With no neighbour found, nothing is predicted.
        assert_eq!(
            predict_in_bent_perspective(&found, Pos::new(5, 5), &pose),
            None
        );
    }

    /// A 720p camera of `hfov_deg` looking `tilt_deg` from straight down at the start tile,
    /// and the pose its start tile's foreshortening shows for a lens of `pose_hfov_deg`.
    fn oblique_camera(
        hfov_deg: f64,
        tilt_deg: f64,
        pose_hfov_deg: f64,
    ) -> (crate::sim::camera::Camera, Pose) {
        let cam = crate::sim::camera::Camera::oblique(
            [1280, 720],
            hfov_deg,
            [22.75, 22.75],
            700.0,
            tilt_deg,
        );
        let start = seen_cell(&cam, 0, 0);
        let pose = Pose::from_foreshortening(Pos::new(0, 0), &start, [1280, 720], pose_hfov_deg)
            .unwrap()
            .expect("a pose");
        (cam, pose)
    }

    /// Cell (x, y)'s corners as `cam` sees the table (tiles of 45.5 mm, no lens bending).
    fn seen_cell(cam: &crate::sim::camera::Camera, x: i32, y: i32) -> Quad {
        let p = |u: f64, v: f64| {
            cam.project_ideal([(f64::from(x) + u) * 45.5, (f64::from(y) + v) * 45.5, 0.0])
                .expect("in front")
        };
        [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]
    }

    /// How far (in sides of `truth`) the corner of `quad` farthest from its own lies.
    fn corners_off(truth: &Quad, quad: &Quad) -> f64 {
        truth
            .iter()
            .zip(quad)
            .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
            .fold(0.0, f64::max)
            / side_px(truth)
    }
}

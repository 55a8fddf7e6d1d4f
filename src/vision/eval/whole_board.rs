//! The full read's evaluation: each board read with nothing from the truth, its tiles, its
//! corners and its followers scored against the truth.

use std::time::Instant;

use opencv::prelude::*;

use super::{Hiding, HALF};
use crate::rules::{catalogue, Colour, Pos, Rotation, TileId};
use crate::sim::truth::TileTruth;
use crate::vision::board::consistent_board;
use crate::vision::calibration::{Calibration, SetupFrame};
use crate::vision::colours::ColourModel;
use crate::vision::dataset::Sample;
use crate::vision::figures::Enrolment;
use crate::vision::locate::{read_at, read_board};
use crate::vision::rectify::{in_view_share, middle, side_px, Quad};
use crate::vision::terrain::same_for_the_rules;
use crate::vision::tile::{Candidate, TileRecognizer};

/// What a full read (no ground truth used) measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardReport {
    /// Images rendered.
    pub images: usize,
    /// Setup frames where the start tile was found.
    pub start_found: usize,
    /// Start-tile corner errors, in tile sides.
    pub start_error: Vec<f64>,
    /// Tiles on the boards (start tile excluded) at least half in the picture.
    pub tiles: usize,
    /// Tiles less than half in the picture: not counted.
    pub out_of_picture: usize,
    /// Of those counted, found in their cell.
    pub found: usize,
    /// Cells read as tiles where there is none.
    pub phantom: usize,
    /// Found tiles whose type and rotation were right after the rules priors.
    pub right: usize,
    /// Corner errors of found tiles, in tile sides, sorted.
    pub corner_error: Vec<f64>,
    /// How far found tiles' middles lay from the true ones, in tile sides, sorted: the corner
    /// error less what a found outline turned or skewed adds.
    pub centre_error: Vec<f64>,
    /// Found tiles, and of those the ones read right, by how far off they were found (corner
    /// error up to [`ERROR_BANDS`], then beyond).
    pub right_by_error: [(usize, usize); 3],
    /// Boards read exactly right (every tile found, none extra, all right).
    pub boards_right: usize,
    /// Boards with a shield wholly under a figure ([`super::TileReport::boards_hiding_shields`]).
    pub boards_hiding_shields: usize,
    /// Boards where a figure hides all that tells a tile from a look-alike
    /// ([`super::TileReport::boards_hiding_tells`]).
    pub boards_hiding_tells: usize,
    /// Boards with no shield wholly under a figure read exactly right.
    pub clear_boards_right: usize,
    /// Boards where no figure hides what tells a tile read exactly right.
    pub told_boards_right: usize,
    /// Tiles read where the board read reads a cut, but cut at their true corners
    /// ([`read_at`]), and of those the ones right after the rules priors: the reading alone,
    /// without the placing.
    pub at_truth: (usize, usize),
    /// How far the read's shift search moved those tiles' middles from the true ones, in tile
    /// sides, sorted.
    pub at_truth_drift: Vec<f64>,
    /// Milliseconds per board read, sorted.
    pub board_ms: Vec<f64>,
    /// Every tile the full read missed or read wrong, board by board.
    pub wrong: Vec<WrongRead>,
    /// Every tile the full read found where there is none, board by board.
    pub phantoms: Vec<PhantomTile>,
}

/// A tile the full read found in a cell where the truth has none.
#[derive(Clone, Debug, PartialEq)]
pub struct PhantomTile {
    /// The board's name (`board-007`).
    pub board: String,
    /// The cell.
    pub cell: Pos,
    /// What it was read as, with the probability its own reading gave that.
    pub read: Option<Candidate>,
}

impl PhantomTile {
    /// One line: board, cell, reading.
    pub fn line(&self) -> String {
        let read = self.read.map_or("with no reading".to_string(), |c| {
            format!(
                "read {} {:>3} ({:.3})",
                catalogue().tile(c.tile).name,
                c.rot.degrees(),
                c.probability
            )
        });
        format!(
            "{} ({:>3}, {:>3}): no tile, {read}",
            self.board, self.cell.x, self.cell.y
        )
    }
}

/// A follower the per-tile read did not see in its colour on its tile.
#[derive(Clone, Debug, PartialEq)]
pub struct MissedFollower {
    /// The board's name (`board-007`).
    pub board: String,
    /// The cell of the tile it stands or lies on.
    pub cell: Pos,
    /// Its colour.
    pub colour: Colour,
    /// Whether it lies (a farmer).
    pub lying: bool,
    /// The colours of the figures read on that tile.
    pub seen: Vec<Colour>,
}

impl MissedFollower {
    /// One line: board, cell, the follower, what was seen there.
    pub fn line(&self) -> String {
        let seen: Vec<String> = self.seen.iter().map(|c| format!("{c:?}")).collect();
        format!(
            "{} ({:>3}, {:>3}): {:?} {}, seen there: {}",
            self.board,
            self.cell.x,
            self.cell.y,
            self.colour,
            if self.lying { "lying" } else { "standing" },
            if seen.is_empty() {
                "nothing".to_string()
            } else {
                seen.join(", ")
            }
        )
    }
}

/// A tile the full read missed or read wrong (after the rules priors).
#[derive(Clone, Debug, PartialEq)]
pub struct WrongRead {
    /// The board's name (`board-007`).
    pub board: String,
    /// The tile's cell.
    pub cell: Pos,
    /// Its true type and rotation.
    pub truth: (TileId, Rotation),
    /// What it was read as, if it was found.
    pub read: Option<Misread>,
    /// Whether a follower stands or lies on it.
    pub follower: bool,
    /// A type and rotation a figure on it hides all that tells it from, if any
    /// ([`crate::vision::telling::look_alikes_under_figure`]): the one it was read as where that is one.
    pub look_alike: Option<(TileId, Rotation)>,
}

/// What a tile found was read as.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Misread {
    /// The type chosen.
    pub tile: TileId,
    /// Its rotation.
    pub rot: Rotation,
    /// The probability the tile's own reading gave that.
    pub probability: f64,
    /// How far off the tile was found: its largest corner error, in tile sides.
    pub corner_error: f64,
}

impl WrongRead {
    /// One line: board, cell, truth, reading.
    pub fn line(&self) -> String {
        let cat = catalogue();
        let tile =
            |id: TileId, rot: Rotation| format!("{} {:>3}", cat.tile(id).name, rot.degrees());
        let read = match self.read {
            Some(m) => format!(
                "read {} ({:.3}), found {:.3} tile off",
                tile(m.tile, m.rot),
                m.probability,
                m.corner_error
            ),
            None => "not found".to_string(),
        };
        let hidden = self.look_alike.map_or(String::new(), |(t, r)| {
            format!(", a figure hides what tells it from {}", tile(t, r))
        });
        format!(
            "{} ({:>3}, {:>3}): {} {read}{}{hidden}",
            self.board,
            self.cell.x,
            self.cell.y,
            tile(self.truth.0, self.truth.1),
            if self.follower {
                ", follower on it"
            } else {
                ""
            }
        )
    }
}

impl BoardReport {
    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        let median = |v: &[f64]| v.get(v.len() / 2).copied().unwrap_or(f64::NAN);
        let p95 = |v: &[f64]| v.get(v.len() * 95 / 100).copied().unwrap_or(f64::NAN);
        let mut start = self.start_error.clone();
        start.sort_by(f64::total_cmp);
        format!(
            "| measure | value |\n|---|---|\n\
             | images | {} |\n| start tile found in the setup frame | {:.1} % |\n\
             | start tile corner error, median | {:.3} tile |\n\
             | tiles less than half in the picture (not counted) | {} |\n\
             | tiles found in their cell | {:.2} % |\n| phantom tiles per board | {:.2} |\n\
             | type + rotation right (found tiles, rules priors) | {:.2} % |\n\
             | type + rotation right (all tiles, one not found counts wrong) | {:.2} % |\n\
             | tile corner error, median / 95th percentile | {:.3} / {:.3} tile |\n\
             | tile centre error, median / 95th percentile | {:.3} / {:.3} tile |\n\
             | whole board right | {:.1} % |\n\
             | whole board right, boards hiding no shield | {:.1} % |\n\
             | whole board right, boards where no figure hides what tells a tile | {:.1} % |\n\
             | median time per board | {:.0} ms |\n\
             | type + rotation right, tiles cut at their true corners (rules priors) | {:.2} % |\n\
             | tile centre moved by the read from the true corners, median / 95th percentile \
             | {:.3} / {:.3} tile |\n\n\
             | found with a corner error of | tiles | right |\n|---|---|---|\n{}",
            self.images,
            pct(self.start_found, self.images),
            median(&start),
            self.out_of_picture,
            pct(self.found, self.tiles),
            self.phantom as f64 / self.images.max(1) as f64,
            pct(self.right, self.found),
            pct(self.right, self.tiles),
            median(&self.corner_error),
            p95(&self.corner_error),
            median(&self.centre_error),
            p95(&self.centre_error),
            pct(self.boards_right, self.images),
            pct(
                self.clear_boards_right,
                self.images - self.boards_hiding_shields
            ),
            pct(
                self.told_boards_right,
                self.images - self.boards_hiding_tells
            ),
            median(&self.board_ms),
            pct(self.at_truth.1, self.at_truth.0),
            median(&self.at_truth_drift),
            p95(&self.at_truth_drift),
            self.error_band_rows(),
        )
    }

    /// One row per corner-error band: its found tiles and the share read right.
    fn error_band_rows(&self) -> String {
        let names = [
            format!("up to {} tile", ERROR_BANDS[0]),
            format!("{} – {} tile", ERROR_BANDS[0], ERROR_BANDS[1]),
            format!("over {} tile", ERROR_BANDS[1]),
        ];
        names
            .iter()
            .zip(self.right_by_error)
            .map(|(name, (found, right))| {
                format!(
                    "| {name} | {found} | {:.2} % |\n",
                    100.0 * right as f64 / found.max(1) as f64
                )
            })
            .collect()
    }
}

/// Corner errors (tile sides) bounding the bands of [`BoardReport::right_by_error`]: the
/// acceptance asks for under a tenth of a side.
const ERROR_BANDS: [f64; 2] = [0.05, 0.1];

/// Which band of [`BoardReport::right_by_error`] a corner error (tile sides) falls in.
fn error_band(corner_error: f64) -> usize {
    ERROR_BANDS.iter().filter(|&&b| corner_error > b).count()
}

/// Registers the grid from `sample`'s setup frame (the start tile alone) and reads the board with
/// nothing from the ground truth.
pub(super) fn read_whole_board(
    sample: &Sample,
    hiding: &Hiding,
    recognizer: &TileRecognizer,
    report: &mut BoardReport,
) -> anyhow::Result<()> {
    let cat = catalogue();
    let tileset = cat.set("base").expect("the base set");
    report.images += 1;
    report.boards_hiding_shields += usize::from(hiding.shield);
    report.boards_hiding_tells += usize::from(!hiding.look_alikes.is_empty());
    let truth = &sample.truth;
    let tile_px = |c: &[[f64; 2]; 4]| (c[1][0] - c[0][0]).hypot(c[1][1] - c[0][1]);
    let started = Instant::now();
    // A tile less than half in the picture is not asked for (nor read at its true corners).
    let size = [sample.image.cols(), sample.image.rows()];
    let (asked, out_of_picture): (Vec<&TileTruth>, Vec<&TileTruth>) = truth
        .tiles
        .iter()
        .skip(1)
        .partition(|t| in_view_share(&t.corners_px, size) >= HALF);
    report.out_of_picture += out_of_picture.len();
    let SetupFrame::Calibrated(setup) = Calibration::from_setup_frame(&sample.setup)? else {
        report.tiles += asked.len();
        return Ok(());
    };
    let start = setup.start;
    report.start_found += 1;
    let true_start = truth.tiles[0].corners_px;
    let side = tile_px(&true_start);
    let err = start
        .iter()
        .zip(&true_start)
        .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
        .fold(0.0, f64::max);
    report.start_error.push(err / side);
    let enrolment = sample.enrolment();
    let found = read_board(
        &sample.image,
        &start,
        &setup.colours,
        setup.table,
        Some(&enrolment),
        recognizer,
    )?;
    let read = consistent_board(&found, tileset);
    report
        .board_ms
        .push(started.elapsed().as_secs_f64() * 1000.0);
    let mut exact = true;
    for t in asked {
        report.tiles += 1;
        let pos = Pos::new(t.cell[0], t.cell[1]);
        let id = cat.tile_id(&t.tile).expect("truth names catalogue tiles");
        let rot = Rotation::from_degrees(t.rot).unwrap_or_default();
        let wrong = |read| WrongRead {
            board: sample.name.clone(),
            cell: pos,
            truth: (id, rot),
            read,
            follower: truth.meeples.iter().any(|m| m.cell == t.cell),
            look_alike: hiding.look_alikes.iter().find(|(p, _)| *p == pos).and_then(
                |(_, alike)| {
                    let read_so = |&&(t, r): &&(TileId, Rotation)| {
                        read.is_some_and(|m: Misread| {
                            m.tile == t && same_for_the_rules(t, r, m.rot)
                        })
                    };
                    alike.iter().find(read_so).or(alike.first()).copied()
                },
            ),
        };
        let Some(l) = found.iter().find(|l| l.pos == pos) else {
            exact = false;
            report.wrong.push(wrong(None));
            continue;
        };
        report.found += 1;
        let err = l
            .quad
            .iter()
            .zip(&t.corners_px)
            .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
            .fold(0.0, f64::max);
        let err = err / tile_px(&t.corners_px);
        report.corner_error.push(err);
        let (found_at, true_at) = (middle(&l.quad), middle(&t.corners_px));
        report.centre_error.push(
            (found_at[0] - true_at[0]).hypot(found_at[1] - true_at[1]) / tile_px(&t.corners_px),
        );
        let band = error_band(err);
        let chosen = read.iter().find(|(p, _)| *p == pos).map(|(_, c)| *c);
        let right = chosen.is_some_and(|c| c.tile == id && same_for_the_rules(id, c.rot, rot));
        report.right_by_error[band].0 += 1;
        if right {
            report.right += 1;
            report.right_by_error[band].1 += 1;
        } else {
            exact = false;
            let probability = |c: Candidate| {
                l.candidates
                    .iter()
                    .find(|k| k.tile == c.tile && k.rot == c.rot)
                    .map_or(0.0, |k| k.probability)
            };
            report.wrong.push(wrong(chosen.map(|c| Misread {
                tile: c.tile,
                rot: c.rot,
                probability: probability(c),
                corner_error: err,
            })));
        }
    }
    let phantoms: Vec<PhantomTile> = found
        .iter()
        .filter(|l| !truth.tiles.iter().any(|t| t.cell == [l.pos.x, l.pos.y]))
        .map(|l| PhantomTile {
            board: sample.name.clone(),
            cell: l.pos,
            read: read
                .iter()
                .find(|(p, _)| *p == l.pos)
                .map(|(_, c)| *c)
                .or_else(|| l.candidates.first().copied()),
        })
        .collect();
    let clear = phantoms.is_empty();
    report.phantom += phantoms.len();
    report.phantoms.extend(phantoms);
    if exact && clear {
        report.boards_right += 1;
        report.clear_boards_right += usize::from(!hiding.shield);
        report.told_boards_right += usize::from(hiding.look_alikes.is_empty());
    }
    read_at_truth(
        sample,
        &setup.colours,
        setup.table,
        &enrolment,
        recognizer,
        report,
    )
}

/// Reads every tile of `sample` cut at its true corners the way a board read reads a cut
/// ([`read_at`]) and counts those read right after the rules priors, and how far the read moved
/// them.
fn read_at_truth(
    sample: &Sample,
    colours: &ColourModel,
    table: [[f32; 3]; 2],
    enrolment: &Enrolment,
    recognizer: &TileRecognizer,
    report: &mut BoardReport,
) -> anyhow::Result<()> {
    let cat = catalogue();
    let truth = &sample.truth;
    let cells: Vec<(Pos, Quad)> = truth
        .tiles
        .iter()
        .skip(1)
        .map(|t| (Pos::new(t.cell[0], t.cell[1]), t.corners_px))
        .collect();
    let read = read_at(
        &sample.image,
        &truth.tiles[0].corners_px,
        &cells,
        colours,
        table,
        Some(enrolment),
        recognizer,
    )?;
    let chosen = consistent_board(&read, cat.set("base").expect("the base set"));
    for l in read.iter().skip(1) {
        let Some(t) = truth.tiles.iter().find(|t| t.cell == [l.pos.x, l.pos.y]) else {
            continue;
        };
        let (id, rot) = (
            cat.tile_id(&t.tile).expect("truth names catalogue tiles"),
            Rotation::from_degrees(t.rot).unwrap_or_default(),
        );
        report.at_truth.0 += 1;
        report.at_truth.1 += usize::from(
            chosen
                .iter()
                .find(|(p, _)| *p == l.pos)
                .is_some_and(|(_, c)| c.tile == id && same_for_the_rules(id, c.rot, rot)),
        );
        let (found_at, true_at) = (middle(&l.quad), middle(&t.corners_px));
        report.at_truth_drift.push(
            (found_at[0] - true_at[0]).hypot(found_at[1] - true_at[1]) / side_px(&t.corners_px),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_found_off_by_up_to_a_band_bound_counts_in_that_band() {
        assert_eq!(error_band(0.0), 0);
        assert_eq!(error_band(0.05), 0);
        assert_eq!(error_band(0.07), 1);
        assert_eq!(error_band(0.1), 1);
        assert_eq!(error_band(0.4), 2);
        let report = BoardReport {
            right_by_error: [(10, 9), (4, 4), (0, 0)],
            ..BoardReport::default()
        };
        let table = report.table();
        assert!(
            table.contains("| up to 0.05 tile | 10 | 90.00 % |"),
            "{table}"
        );
        assert!(
            table.contains("| 0.05 – 0.1 tile | 4 | 100.00 % |"),
            "{table}"
        );
        assert!(table.contains("| over 0.1 tile | 0 | 0.00 % |"), "{table}");
    }

    #[test]
    fn a_wrong_read_names_its_board_cell_truth_and_reading() {
        let cat = catalogue();
        let (m, n) = (cat.tile_id("M").unwrap(), cat.tile_id("N").unwrap());
        let wrong = WrongRead {
            board: "board-007".into(),
            cell: Pos::new(-2, 3),
            truth: (m, Rotation::R90),
            read: Some(Misread {
                tile: n,
                rot: Rotation::R90,
                probability: 0.61,
                corner_error: 0.0712,
            }),
            follower: true,
            look_alike: None,
        };
        assert_eq!(
            wrong.line(),
            "board-007 ( -2,   3): M  90 read N  90 (0.610), found 0.071 tile off, follower on it"
        );
        let hidden = WrongRead {
            look_alike: Some((n, Rotation::R90)),
            ..wrong.clone()
        };
        assert_eq!(
            hidden.line(),
            "board-007 ( -2,   3): M  90 read N  90 (0.610), found 0.071 tile off, follower on it, \
             a figure hides what tells it from N  90"
        );
        let missed = WrongRead {
            read: None,
            follower: false,
            ..wrong
        };
        assert_eq!(missed.line(), "board-007 ( -2,   3): M  90 not found");
    }

    #[test]
    fn a_phantom_tile_names_its_board_cell_and_reading() {
        let cat = catalogue();
        let phantom = PhantomTile {
            board: "board-014".into(),
            cell: Pos::new(4, -1),
            read: Some(Candidate {
                tile: cat.tile_id("E").unwrap(),
                rot: Rotation::R270,
                probability: 0.4321,
            }),
        };
        assert_eq!(
            phantom.line(),
            "board-014 (  4,  -1): no tile, read E 270 (0.432)"
        );
        let unread = PhantomTile {
            read: None,
            ..phantom
        };
        assert_eq!(
            unread.line(),
            "board-014 (  4,  -1): no tile, with no reading"
        );
    }

    #[test]
    fn a_missed_follower_names_its_board_cell_colour_pose_and_what_was_seen_instead() {
        let missed = MissedFollower {
            board: "board-011".into(),
            cell: Pos::new(0, -1),
            colour: Colour::Green,
            lying: false,
            seen: vec![],
        };
        assert_eq!(
            missed.line(),
            "board-011 (  0,  -1): Green standing, seen there: nothing"
        );
        let mistaken = MissedFollower {
            lying: true,
            seen: vec![Colour::Black, Colour::Blue],
            ..missed
        };
        assert_eq!(
            mistaken.line(),
            "board-011 (  0,  -1): Green lying, seen there: Black, Blue"
        );
    }

    #[test]
    fn whole_boards_are_also_counted_among_the_boards_hiding_nothing_that_tells() {
        let report = BoardReport {
            images: 10,
            boards_right: 6,
            boards_hiding_shields: 3,
            clear_boards_right: 6,
            boards_hiding_tells: 5,
            told_boards_right: 5,
            ..BoardReport::default()
        };
        let table = report.table();
        assert!(table.contains("| whole board right | 60.0 % |"), "{table}");
        // 6 of the 7 boards hiding no shield.
        assert!(
            table.contains("| whole board right, boards hiding no shield | 85.7 % |"),
            "{table}"
        );
        // All 5 boards where no figure hides what tells a tile.
        assert!(
            table.contains(
                "| whole board right, boards where no figure hides what tells a tile | 100.0 % |"
            ),
            "{table}"
        );
    }
}

//! One cell's cut read, and whether it counts as a tile: it must fit the tiles beside it (more
//! of them where it shows the table's colours) and lie over none of the tiles found.

use std::collections::BTreeMap;

use opencv::core::Mat;
use opencv::prelude::*;

use super::grid::RECUT_OFF_PX;
use super::{Located, MIN_FIT, SURE_FIT};
use crate::rules::{catalogue, Dir, EdgeKind, Pos, Rotation};
use crate::vision::colours::ColourModel;
use crate::vision::figures::Enrolment;
use crate::vision::prints::Print;
use crate::vision::rectify::{middle, quad_patch, shifted_quad, Quad, MARGIN_PX};
use crate::vision::standing::Figures;
use crate::vision::table::{table_whatever_figures, what_cell_shows, CellShows};
use crate::vision::terrain::same_for_the_rules;
use crate::vision::tile::{Candidate, CutMasks, Match, TileRecognizer};

/// A cell's cut read ([`read_cut`]).
#[derive(Clone)]
pub(super) struct CutRead {
    /// How well its best readings match.
    pub(super) found_at: Match,
    /// The tile as found (at a quad shifted to where the print lies).
    pub(super) tile: Located,
}

/// The cell at `pos` cut at `quad` read; `None` where the cut shows table.
pub(super) fn read_cut(
    frame: &Mat,
    pos: Pos,
    quad: &Quad,
    model: &ColourModel,
    table: &[[f32; 3]; 2],
    figures: Option<(&Enrolment, [f64; 2])>,
    recognizer: &TileRecognizer,
) -> opencv::Result<Option<CutRead>> {
    let (patch, to_patch) = quad_patch(frame, quad, MARGIN_PX)?;
    let out_of_view =
        crate::vision::rectify::out_of_view(&to_patch, MARGIN_PX, [frame.cols(), frame.rows()])?;
    // Figures are looked for only where they might matter.
    if table_whatever_figures(&patch, model, table, out_of_view.as_ref())? {
        return Ok(None);
    }
    let (mask, with_ends, standing) = match figures {
        Some((e, rise)) => {
            let found = e.find_in_cell(frame, quad, &patch, model)?;
            let standing = Figures::from_blobs(&found.blobs, rise);
            (Some(found.mask), found.with_ends, Some(standing))
        }
        None => (None, None, None),
    };
    let shows = what_cell_shows(&patch, model, table, mask.as_ref(), out_of_view.as_ref())?;
    if shows == CellShows::Table {
        return Ok(None);
    }
    let unseen = crate::vision::rectify::unseen(mask.as_ref(), out_of_view.as_ref())?;
    // Where the table shows inside a cut, the cut lies off its tile.
    let on_table = crate::vision::table::table_mask(&patch, table, model)?;
    let (candidates, shift, found_at) = recognizer.recognize_in_view(
        &patch,
        MARGIN_PX as usize,
        model,
        CutMasks {
            figures: mask.as_ref(),
            out_of_view: out_of_view.as_ref(),
            table: on_table.as_ref(),
            with_ends: with_ends.as_ref(),
        },
        Some(crate::vision::rectify::side_px(quad)),
        standing.as_ref(),
    )?;
    let print = Print::found_in(&patch, MARGIN_PX as usize, shift, unseen.as_ref())?;
    Ok(Some(CutRead {
        found_at,
        tile: Located {
            pos,
            quad: shifted_quad(&to_patch, MARGIN_PX, shift),
            candidates,
            print,
            shows,
        },
    }))
}

/// Whether a tile found at `quad` would lie over a tile already found: their middles nearer
/// than `apart` of a tile side ([`APART`]), measured along either tile's own sides
/// (neighbours' middles are a side apart, give or take how far each lies off its cell; seen
/// at a slant, a tile shows much shorter one way than the other, and a cut squashed between
/// two tiles shorter still). Busy print far from the start tile can fit a cut half a tile off.
pub(super) fn overlaps(quad: &Quad, found: &BTreeMap<Pos, Quad>, apart: f64) -> bool {
    let m = middle(quad);
    found.values().any(|q| {
        let n = middle(q);
        tiles_apart(quad, m, n).min(tiles_apart(q, m, n)) < apart
    })
}

/// How far apart (tile sides) two points of the picture lie, measured along the sides of
/// `quad`; none at all for a quad with no area (it lies over anything).
fn tiles_apart(quad: &Quad, a: [f64; 2], b: [f64; 2]) -> f64 {
    let [nw, ne, se, sw] = *quad;
    // The quad's sides as axes: one tile along each.
    let across = [
        (ne[0] - nw[0] + se[0] - sw[0]) / 2.0,
        (ne[1] - nw[1] + se[1] - sw[1]) / 2.0,
    ];
    let down = [
        (sw[0] - nw[0] + se[0] - ne[0]) / 2.0,
        (sw[1] - nw[1] + se[1] - ne[1]) / 2.0,
    ];
    let det = across[0] * down[1] - across[1] * down[0];
    if det.abs() < f64::EPSILON {
        return 0.0;
    }
    let d = [b[0] - a[0], b[1] - a[1]];
    let along = (d[0] * down[1] - d[1] * down[0]) / det;
    let beside = (across[0] * d[1] - across[1] * d[0]) / det;
    along.hypot(beside)
}

/// How near (in tile sides) two tiles' middles may lie ([`overlaps`]).
pub(super) const APART: f64 = 0.7;

/// How near (in tile sides) a tile found where its cut shows the table's colours may lie to a
/// tile found ([`CutRead::lies_over`]): a patch of wooden table between three city sides, cut
/// a quarter of a side into the tile below it, fitted a city on three sides with that tile's
/// field as its own (`eval vision` 14700 board 25). Tiles lie some 0.9 of a side apart and
/// more; asked of every cut, 0.8 cost seven of the eight 2nd-edition art sets 0.1 to 0.7
/// points a tile (its busy print fits tiles a quarter of a side off before the board's grid
/// sets them right).
pub(super) const APART_SHOWING_TABLE: f64 = 0.8;

/// The least probability a reading needs to vouch for a tile in [`fits_neighbours`].
const PLAUSIBLE: f64 = 1e-3;

/// Whether some plausible reading of the cell at `pos` matches the edges of the tiles already
/// found beside it, in some plausible reading of theirs: of every one, or of all but one where
/// it has two or more. A patch of table or clutter that only looks like a tile, or a cut half a
/// tile off, rarely matches two; a neighbour read wrong with confidence (on busy art a city
/// corner taken for a full side) must not shut the cells beyond it off the board: the rules
/// priors settle which of the two is wrong ([`crate::vision::board::consistent_board`]).
fn fits_neighbours(candidates: &[Candidate], pos: Pos, found: &[Located]) -> bool {
    let (neighbours, disagreeing) = disagreeing_neighbours(candidates, pos, found);
    disagreeing <= usize::from(neighbours >= 2)
}

/// How many tiles `found` lie beside the cell at `pos`, and how few of them the edges of a
/// plausible reading of it can disagree with (each neighbour in its plausible readings);
/// `usize::MAX` for no plausible reading.
fn disagreeing_neighbours(candidates: &[Candidate], pos: Pos, found: &[Located]) -> (usize, usize) {
    let neighbours = neighbours_of(pos, found);
    let fewest = plausible(candidates)
        .map(|c| disagreeing(c, &neighbours))
        .min()
        .unwrap_or(usize::MAX);
    (neighbours.len(), fewest)
}

/// The readings of `candidates` (likeliest first) at least [`PLAUSIBLE`].
fn plausible(candidates: &[Candidate]) -> impl Iterator<Item = &Candidate> {
    candidates.iter().take_while(|c| c.probability >= PLAUSIBLE)
}

/// The readings of the tiles `found` beside the cell at `pos`, each with the side it lies on.
fn neighbours_of(pos: Pos, found: &[Located]) -> Vec<(Dir, &[Candidate])> {
    Dir::ALL
        .iter()
        .filter_map(|&d| {
            let n = found.iter().find(|l| l.pos == pos.step(d))?;
            Some((d, &n.candidates[..]))
        })
        .collect()
}

/// How many of `neighbours` no plausible reading of matches the edges of reading `c`.
fn disagreeing(c: &Candidate, neighbours: &[(Dir, &[Candidate])]) -> usize {
    let cat = catalogue();
    neighbours
        .iter()
        .filter(|(d, n)| {
            !plausible(n).any(|n| {
                cat.tile(c.tile).edge(*d, c.rot) == cat.tile(n.tile).edge(d.opposite(), n.rot)
            })
        })
        .count()
}

/// The plausible readings of the cell at `pos` that match every tile `found` beside it, the
/// likeliest first.
fn plausible_fitting<'a>(
    candidates: &'a [Candidate],
    pos: Pos,
    found: &[Located],
) -> Vec<&'a Candidate> {
    let neighbours = neighbours_of(pos, found);
    plausible(candidates)
        .filter(|c| disagreeing(c, &neighbours) == 0)
        .collect()
}

/// Whether a reading has a road leaving one of its sides.
fn has_road(reading: &Candidate) -> bool {
    let tile = catalogue().tile(reading.tile);
    Dir::ALL
        .iter()
        .any(|&d| tile.edge(d, reading.rot) == EdgeKind::Road)
}

/// Whether a reading has a road or a field leaving one of its sides.
fn leaves_city(reading: &Candidate) -> bool {
    let tile = catalogue().tile(reading.tile);
    Dir::ALL
        .iter()
        .any(|&d| tile.edge(d, reading.rot) != EdgeKind::City)
}

/// The share the likeliest of the plausible readings of the cell at `pos` that match every
/// tile `found` beside it holds of those readings' probability; 0 where none does. Its twins
/// for the rules (the same tile at rotations the rules cannot tell apart) count with it where
/// its print tells its rotation, it holding more than [`TOLD_ROTATION`] of theirs: the tile
/// all city reads alike at every rotation but for its shield, which, in view, tells one
/// rotation, while a patch of table read as a city shows none and splits evenly over them.
fn share_of_likeliest_fitting(candidates: &[Candidate], pos: Pos, found: &[Located]) -> f64 {
    let fitting = plausible_fitting(candidates, pos, found);
    let total: f64 = fitting.iter().map(|c| c.probability).sum();
    fitting.first().map_or(0.0, |best| {
        let with_twins = with_twins(best, &fitting);
        if best.probability > TOLD_ROTATION * with_twins {
            with_twins / total
        } else {
            best.probability / total
        }
    })
}

/// The probability `readings` give `best` and its twins for the rules together.
fn with_twins(best: &Candidate, readings: &[&Candidate]) -> f64 {
    readings
        .iter()
        .filter(|c| c.tile == best.tile && same_for_the_rules(c.tile, c.rot, best.rot))
        .map(|c| c.probability)
        .sum()
}

/// Whether the likeliest of `readings` is a tile with twins for the rules (other rotations
/// the rules cannot tell apart) whose print tells its rotation, holding more than
/// [`TOLD_ROTATION`] of their probability: the tile all city shows its shield; a patch of table
/// shows nothing that could.
fn print_tells_rotation(readings: &[&Candidate]) -> bool {
    readings.first().is_some_and(|best| {
        let twins = Rotation::ALL
            .iter()
            .any(|&r| r != best.rot && same_for_the_rules(best.tile, r, best.rot));
        twins && best.probability > TOLD_ROTATION * with_twins(best, readings)
    })
}

/// The least share of its twins' probability (the same tile, rotations the rules cannot tell
/// apart) a reading must hold for its print to tell its rotation: C with its shield in view
/// reads 0.82 at one rotation (`eval vision` 15500 board 6), a patch of table read as C 0.25
/// at each.
const TOLD_ROTATION: f64 = 0.5;

impl CutRead {
    /// Whether its tile can lie beside the tiles `found` ([`fits_neighbours`]). A cut showing
    /// mostly the table's colours must match every one, of two or more (one will do for a cut
    /// read surely, [`CutRead::is_sure`]; three or more where it showed hardly anything else,
    /// [`CellShows::MostlyTable`], and then only where it fits surely, [`SURE_FIT`], unless it
    /// is read surely as a tile with a road, or whose print tells its rotation, which no patch
    /// of table shows: `eval vision` 15900 board 4, a city tile on three sides on a red-checked
    /// cloth, beside one tile; 17900 board 2, the tile all city on wood, its shield in view),
    /// one of which does not show them: a patch of table, read as a city, matches any city side
    /// beside it, and a row of such patches each other (a wooden table's stripes beside the brown
    /// cities of a simulated style; a red-checked table between three city sides, `eval vision`
    /// 12500 board 8, read C with a poor fit); unless it is [`CellShows::TableColours`] read
    /// surely as a tile with a field or road leaving a side (`eval vision` 17700 board 25, an R
    /// at the end of a row of brown city tiles on a wooden table; asked of
    /// [`CellShows::MostlyTable`] too, R tiles were found on the table beside boards). A city
    /// tile not read surely beside its only neighbour is found once the board leaps over it
    /// ([`super::leap`]).
    pub(super) fn fits_neighbours(&self, found: &[Located]) -> bool {
        let (candidates, pos) = (&self.tile.candidates, self.tile.pos);
        let least = match self.tile.shows {
            CellShows::Tile => return fits_neighbours(candidates, pos, found),
            CellShows::TableColours if self.is_sure(found) => 1,
            CellShows::TableColours => 2,
            CellShows::MostlyTable | CellShows::Table if self.found_at.fit < SURE_FIT => {
                return false
            }
            CellShows::MostlyTable
                if self.is_sure(found) && {
                    let fitting = plausible_fitting(candidates, pos, found);
                    fitting.first().is_some_and(|c| has_road(c)) || print_tells_rotation(&fitting)
                } =>
            {
                1
            }
            CellShows::MostlyTable | CellShows::Table => ENCLOSED,
        };
        let unlike_the_table = self.tile.shows == CellShows::TableColours
            && self.is_sure(found)
            && plausible_fitting(candidates, pos, found)
                .first()
                .is_some_and(|c| leaves_city(c))
            || found.iter().any(|l| {
                l.shows == CellShows::Tile && Dir::ALL.iter().any(|&d| l.pos == pos.step(d))
            });
        let (neighbours, disagreeing) = disagreeing_neighbours(candidates, pos, found);
        unlike_the_table && neighbours >= least && disagreeing == 0
    }

    /// Whether its tile would lie over one of the tiles `located` ([`overlaps`]): nearer than
    /// [`APART`] to one, or [`APART_SHOWING_TABLE`] where the cut shows the table's colours.
    pub(super) fn lies_over(&self, located: &BTreeMap<Pos, Quad>) -> bool {
        let apart = match self.tile.shows {
            CellShows::Tile => APART,
            _ => APART_SHOWING_TABLE,
        };
        overlaps(&self.tile.quad, located, apart)
    }

    /// Whether the tile fits surely ([`SURE_FIT`]) close to where it was cut (less than
    /// [`RECUT_OFF_PX`] off) and one of its readings that match the tiles `found` beside it
    /// stands out among those ([`SURE_READING`]). A patch of table read as a city fits the
    /// all-city tile's rotations alike, or lies well off its cut. A figure lying in a city
    /// tile's field can look like a road there; the neighbour's side tells.
    fn is_sure(&self, found: &[Located]) -> bool {
        self.found_at.fit >= SURE_FIT
            && self.found_at.off_cut < RECUT_OFF_PX
            && share_of_likeliest_fitting(&self.tile.candidates, self.tile.pos, found)
                >= SURE_READING
    }

    /// Whether this cut's reading replaces the tile read so far at its cell (`first`, found
    /// `off` patch pixels from where this cut lies): it fits well enough, scores higher than
    /// the first would have had it been cut here ([`Match::score_if_cut_off`]), fits its
    /// neighbours and lies over none of the other tiles `located`.
    pub(super) fn replaces(
        &self,
        first: Option<&Match>,
        off: f64,
        found: &[Located],
        located: &BTreeMap<Pos, Quad>,
    ) -> bool {
        let pos = self.tile.pos;
        let mut others = located.clone();
        others.remove(&pos);
        self.found_at.fit >= MIN_FIT
            && first.is_some_and(|s| self.found_at.score > s.score_if_cut_off(off))
            && self.fits_neighbours(found)
            && !self.lies_over(&others)
    }
}

/// The least share of a cut's best reading that fits its neighbours, among those that do, for it
/// to stand out ([`CutRead::is_sure`]): city tiles beside their only neighbour on a red-checked
/// or wooden table read 0.98 and more, patches of table 0.94 and less (`eval vision` data sets).
const SURE_READING: f64 = 0.95;

/// The fewest tiles beside a cell showing [`CellShows::MostlyTable`] for it to be read: bare
/// table beside a corner of the board shows as much, between three tiles seldom.
const ENCLOSED: usize = 3;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::Rotation;
    use crate::vision::rectify::tests::square;

    #[test]
    fn a_cut_showing_the_table_s_colours_must_match_two_neighbours_or_more_one_unlike_the_table() {
        let at = read_surely;
        let city = |table_coloured: bool| CutRead {
            found_at: fitting_surely(),
            tile: Located {
                shows: if table_coloured {
                    CellShows::TableColours
                } else {
                    CellShows::Tile
                },
                ..at(0, 0, "C")
            },
        };
        // C is city on every side, B (a cloister) field on every side.
        let one_of_two_wrong = [at(-1, 0, "B"), at(0, -1, "C")];
        assert!(city(false).fits_neighbours(&one_of_two_wrong));
        assert!(!city(true).fits_neighbours(&one_of_two_wrong));
        let both_city = [at(-1, 0, "C"), at(0, -1, "C")];
        assert!(city(true).fits_neighbours(&both_city));
        // Beside one city side, as a patch of table beside the board: it shows no shield, so
        // every rotation of C reads alike.
        let mut patch_of_table = city(true);
        patch_of_table.tile.candidates = Rotation::ALL
            .map(|rot| Candidate {
                rot,
                probability: 0.25,
                ..patch_of_table.tile.candidates[0]
            })
            .to_vec();
        assert!(city(false).fits_neighbours(&both_city[..1]));
        assert!(!patch_of_table.fits_neighbours(&both_city[..1]));
        // Where its shield shows, one rotation stands out, and the tile all city read surely
        // may lie beside its only neighbour (at the board's edge on a wooden table).
        let mut shield_in_view = patch_of_table.clone();
        for (k, c) in shield_in_view.tile.candidates.iter_mut().enumerate() {
            c.probability = if k == 1 { 0.82 } else { 0.06 };
        }
        shield_in_view.tile.candidates.swap(0, 1);
        assert!(shield_in_view.fits_neighbours(&both_city[..1]));
        // So too where the cut shows hardly anything but the table's colours (brown cities on a
        // wooden table); a patch of table does not, nor a tile whose print tells nothing more
        // than a city's colours could (R: no twins for the rules, no road).
        let mostly_table = |read: &CutRead| {
            let mut read = read.clone();
            read.tile.shows = CellShows::MostlyTable;
            read
        };
        assert!(mostly_table(&shield_in_view).fits_neighbours(&both_city[..1]));
        assert!(!mostly_table(&patch_of_table).fits_neighbours(&both_city[..1]));
        let mut three_city_sides = mostly_table(&city(true));
        three_city_sides.tile.candidates = read_surely(0, 0, "R").candidates;
        assert!(!three_city_sides.fits_neighbours(&both_city[1..]));
        // A tile read surely, found where it was cut, may lie beside its only neighbour (a
        // city tile beside the board's edge on a red-checked table); found far off its cut, it
        // may not.
        assert!(city(true).fits_neighbours(&both_city[..1]));
        let mut far_off = city(true);
        far_off.found_at.off_cut = RECUT_OFF_PX;
        assert!(!far_off.fits_neighbours(&both_city[..1]));
        // Beside cuts that showed the table's colours alone, as a row of patches of table.
        let like_the_table = |x, y| Located {
            shows: CellShows::TableColours,
            ..at(x, y, "C")
        };
        let beside_two = [like_the_table(-1, 0), like_the_table(0, -1)];
        assert!(city(false).fits_neighbours(&beside_two));
        assert!(!city(true).fits_neighbours(&beside_two));
        assert!(city(true).fits_neighbours(&[like_the_table(-1, 0), at(0, -1, "C")]));
        // Read surely as a tile with a field (R: city on three sides, field to the south), it
        // shows what no table shows: beside one neighbour of the table's colours, as at the
        // end of a row of brown city tiles on a wooden table.
        let mut with_a_field = city(true);
        with_a_field.tile.candidates = read_surely(0, 0, "R").candidates;
        assert!(with_a_field.fits_neighbours(&[like_the_table(0, -1)]));
        // A figure lying in the field of a city tile on three sides (R) looks like a road
        // there (T): R at 180 (field north) read 0.6, T at 180 (a road north) 0.4.
        let reading = |name: &str, probability| Candidate {
            tile: catalogue().tile_id(name).unwrap(),
            rot: Rotation::R180,
            probability,
        };
        let mut three_sided = city(true);
        three_sided.tile.candidates = vec![reading("R", 0.6), reading("T", 0.4)];
        // Below a cloister (field on every side) only R fits, and it stands out among what
        // fits; beside a city side both fit, and neither stands out.
        assert!(three_sided.fits_neighbours(&[at(0, -1, "B")]));
        assert!(!three_sided.fits_neighbours(&[at(1, 0, "C")]));
    }

    #[test]
    fn a_cut_showing_hardly_anything_but_the_table_s_colours_must_match_three_neighbours() {
        let at = read_surely;
        // Read as the tile all city, its shield not in view (as a patch of table reads): alike
        // at every rotation.
        let c = at(0, 0, "C").candidates[0];
        let all_city = CutRead {
            found_at: fitting_surely(),
            tile: Located {
                shows: CellShows::MostlyTable,
                candidates: Rotation::ALL
                    .map(|rot| Candidate {
                        rot,
                        probability: 0.25,
                        ..c
                    })
                    .to_vec(),
                ..at(0, 0, "C")
            },
        };
        // Beside a corner of the board, as bare table is.
        assert!(!all_city.fits_neighbours(&[at(-1, 0, "C"), at(0, -1, "C")]));
        // Between three city sides.
        let three = [at(-1, 0, "C"), at(0, -1, "C"), at(1, 0, "C")];
        assert!(all_city.fits_neighbours(&three));
        // Unless one of them disagrees (B, a cloister, is field on every side).
        let one_wrong = [at(-1, 0, "C"), at(0, -1, "B"), at(1, 0, "C")];
        assert!(!all_city.fits_neighbours(&one_wrong));
        // Or it fits its reading poorly, as a patch of table does.
        let poor = CutRead {
            found_at: Match {
                fit: SURE_FIT - 0.1,
                ..all_city.found_at
            },
            ..all_city.clone()
        };
        assert!(!poor.fits_neighbours(&three));
        // Read surely as a tile with a road (S, city on three sides), one neighbour will do;
        // read surely as the same tile without it (R), it will not.
        for (name, beside_one) in [("S", true), ("R", false)] {
            let read = CutRead {
                tile: Located {
                    shows: CellShows::MostlyTable,
                    ..at(0, 0, name)
                },
                ..all_city.clone()
            };
            let tile = catalogue().tile(catalogue().tile_id(name).unwrap());
            let city_side = *Dir::ALL
                .iter()
                .find(|&&d| tile.edge(d, Rotation::R0) == EdgeKind::City)
                .unwrap();
            let step = Pos::new(0, 0).step(city_side);
            let neighbour = [at(step.x, step.y, "C")];
            assert_eq!(read.fits_neighbours(&neighbour), beside_one, "{name}");
        }
    }

    #[test]
    fn a_cell_may_disagree_with_one_of_several_neighbours_but_not_with_its_only_one() {
        let at = read_surely;
        let sure = |name: &str| read_surely(0, 0, name).candidates;
        // C is city on every side, B (a cloister) field on every side.
        let city = sure("C");
        let origin = Pos::new(0, 0);
        assert!(!fits_neighbours(&city, origin, &[at(-1, 0, "B")]));
        assert!(fits_neighbours(
            &city,
            origin,
            &[at(-1, 0, "B"), at(0, -1, "C")]
        ));
        assert!(!fits_neighbours(
            &city,
            origin,
            &[at(-1, 0, "B"), at(1, 0, "B"), at(0, -1, "C")]
        ));
        // A neighbour's less likely reading that fits is enough, an implausible one is not.
        let mut doubtful = at(-1, 0, "B");
        doubtful.candidates.push(Candidate {
            probability: PLAUSIBLE,
            ..sure("C")[0]
        });
        assert!(fits_neighbours(&city, origin, &[doubtful.clone()]));
        doubtful.candidates[1].probability = PLAUSIBLE / 2.0;
        assert!(!fits_neighbours(&city, origin, &[doubtful]));
    }

    /// How a cut read surely, where it was cut, matched.
    fn fitting_surely() -> Match {
        Match {
            fit: -0.2,
            score: -20.0,
            off_cut: 0.0,
            on_table: 0.0,
        }
    }

    /// Tile `name` read surely (at rotation 0) in cell (x, y), 100 pixels a side.
    pub(in crate::vision::locate) fn read_surely(x: i32, y: i32, name: &str) -> Located {
        let blank = Mat::new_rows_cols_with_default(
            16,
            16,
            opencv::core::CV_8UC3,
            opencv::core::Scalar::all(0.0),
        )
        .unwrap();
        Located {
            pos: Pos::new(x, y),
            quad: square(f64::from(x) * 100.0, f64::from(y) * 100.0),
            candidates: vec![Candidate {
                tile: catalogue().tile_id(name).unwrap(),
                rot: Rotation::R0,
                probability: 1.0,
            }],
            print: Print::cut(&blank, (0, 0), 16, None).unwrap(),
            shows: CellShows::Tile,
        }
    }

    #[test]
    fn a_tile_half_a_tile_off_one_found_lies_over_it_and_its_neighbour_does_not() {
        let found: BTreeMap<Pos, Quad> = [(Pos::new(0, 0), square(0.0, 0.0))].into();
        assert!(overlaps(&square(0.0, 50.0), &found, APART));
        assert!(overlaps(&square(40.0, 40.0), &found, APART));
        // Neighbours, one laid a few millimetres off its cell (a tenth of a tile).
        assert!(!overlaps(&square(100.0, 0.0), &found, APART));
        assert!(!overlaps(&square(-8.0, 92.0), &found, APART));
    }

    #[test]
    fn a_cut_showing_the_table_s_colours_may_not_reach_a_quarter_side_into_a_tile_found() {
        // A cell above the tile found at (0, 0), its tile found a quarter of a side into it.
        let found: BTreeMap<Pos, Quad> = [(Pos::new(0, 0), square(0.0, 0.0))].into();
        let cut = |shows| CutRead {
            found_at: fitting_surely(),
            tile: Located {
                quad: square(0.0, -75.0),
                shows,
                ..read_surely(0, -1, "R")
            },
        };
        assert!(!cut(CellShows::Tile).lies_over(&found));
        assert!(cut(CellShows::TableColours).lies_over(&found));
        // A tenth of a side into it, as tiles laid a few millimetres off their cells lie.
        let mut near = cut(CellShows::TableColours);
        near.tile.quad = square(0.0, -90.0);
        assert!(!near.lies_over(&found));
    }

    #[test]
    fn tiles_seen_at_a_slant_lie_a_short_side_apart_and_do_not_overlap() {
        // Far off in an oblique view: tiles 44 pixels wide and 27 high, a column of them; the
        // one found below lies a tenth of a tile (3 pixels) nearer its neighbour than its cell.
        let slanted = |x: f64, y: f64| [[x, y], [x + 44.0, y], [x + 44.0, y + 27.0], [x, y + 27.0]];
        let found: BTreeMap<Pos, Quad> = [(Pos::new(0, 0), slanted(0.0, 0.0))].into();
        assert!(!overlaps(&slanted(0.0, 24.0), &found, APART));
        // Half a tile down it lies over the tile found.
        assert!(overlaps(&slanted(0.0, 13.5), &found, APART));
        // A cut squashed to 25 pixels high, its middle 18 below the tile found: over it, by
        // that tile's sides (not by its own).
        let squashed = [[0.0, 19.0], [44.0, 19.0], [44.0, 44.0], [0.0, 44.0]];
        assert!(overlaps(&squashed, &found, APART));
    }
}

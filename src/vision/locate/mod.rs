//! Board localisation: a board read outwards from the start tile ([`super::start`]), each tile
//! cut where the tiles around it predict it ([`super::predict`]) and refined by its own picture,
//! and each cell told to show a tile or the table ([`super::table::what_cell_shows`]).

mod cut;
mod grid;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Mutex;

use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;
use rayon::prelude::*;

use super::colours::ColourModel;
use super::figures::Enrolment;
use super::predict::{predict_in_bent_perspective, predict_in_read, support};
use super::prints::{LearnedPrints, Print};
use super::rectify::{side_px, Quad};
use super::relearn::city_colours;
use super::snap::snap_to_edges;
use super::start::relocate_start;
use super::table::CellShows;
use super::terrain::same_for_the_rules;
use super::tile::{Candidate, Match, TileRecognizer};
use super::viewpoint::{Pose, Viewpoint};
use crate::rules::{catalogue, Dir, Pos, Rotation, TileId};
use cut::{overlaps, read_cut, CutRead, APART, APART_SHOWING_TABLE};
use grid::{board_grid, grid_cell, polish, recut_where_found, regrid, settle};

/// The least mean log-overlap per seen grid cell for a patch to count as a tile at all.
pub const MIN_FIT: f64 = -0.7;
/// Among how many of its likeliest readings the start tile's cell must count the start tile
/// for a board read to go on ([`read_board`]; a figure on it may hide part of it).
const START_AMONG: usize = 3;
/// The least fit of a cell read in the first round of a board read ([`read_board`]).
const SURE_FIT: f64 = -0.35;

/// The most cells a read visits (a base game has 72 tiles; their frontier stays well below this).
const MAX_CELLS: usize = 400;

/// A tile found on the board.
#[derive(Clone, Debug)]
pub struct Located {
    /// Its grid cell.
    pub pos: Pos,
    /// Its corners NW, NE, SE, SW in the image.
    pub quad: Quad,
    /// Its readings, most likely first.
    pub candidates: Vec<Candidate>,
    /// Its print as found.
    pub print: Print,
    /// What the middle of its cut showed: a tile, or mostly the table's colours.
    pub shows: CellShows,
}

/// Whether all four corners lie inside the frame.
pub fn inside(quad: &Quad, frame: &Mat) -> bool {
    quad.iter().all(|p| {
        p[0] >= 0.0
            && p[1] >= 0.0
            && p[0] < f64::from(frame.cols())
            && p[1] < f64::from(frame.rows())
    })
}

/// Share of a cell that must lie inside the picture for it to be read; the rest counts as
/// unseen, like the pixels under a figure.
pub const MIN_IN_VIEW: f64 = 0.7;

/// Whether enough of the cell with corners `quad` lies inside `frame` to be read.
pub fn in_view(quad: &Quad, frame: &Mat) -> bool {
    super::rectify::in_view_share(quad, [frame.cols(), frame.rows()]) >= MIN_IN_VIEW
}

/// Reads every tile connected to the start tile (calibrated at `start`, found again near it,
/// or where calibrated if only there it reads as the start tile: D at rotation 0).
/// `table` are the table's colours; `figures` the players' enrolment if known.
///
/// Cells are visited outwards from the start tile. Each is cut where the tiles found around it
/// predict it ([`super::predict`]); unless that cut shows a tile surely, also where its corners
/// snap onto the edges the picture shows ([`snap_to_edges`]: far from the start tile, in a
/// tilted view, the prediction drifts), and the better scoring cut is kept. A cell that showed
/// no tile is tried again (up to [`TRIES`] times in all) once more tiles around it predict it
/// better. The board first grows through cells read with a sure fit, then through the rest
/// (down to [`MIN_FIT`]); it then leaps over the cells beside it that showed no tile to the
/// cells beyond ([`leap`]) and grows on from what it finds there. Then every tile is cut again
/// where all its neighbours put it ([`settle`]), and where a grid fitted to the whole board
/// puts it ([`regrid`]); a tile still read unsurely is read again at cuts nudged a little and
/// its readings averaged ([`polish`]); where that changed a reading, the board grows once more.
/// Nothing is read (an empty list) where the start tile's cell does not read as the start tile
/// among its [`START_AMONG`] likeliest readings with at least that fit. Where the tiles read
/// surely show a grass colour of the start tile mostly inside their cities, the board is read
/// again with it as a city colour ([`super::relearn`]).
pub fn read_board(
    frame: &Mat,
    start: &Quad,
    model: &ColourModel,
    table: [[f32; 3]; 2],
    figures: Option<&Enrolment>,
    recognizer: &TileRecognizer,
) -> opencv::Result<Vec<Located>> {
    let found = read_board_as(frame, start, model, table, figures, recognizer)?;
    match city_colours(frame, &found, model)? {
        Some(model) => read_board_as(frame, start, &model, table, figures, recognizer),
        None => Ok(found),
    }
}

/// [`read_board`] under the colours of `model` as they are.
fn read_board_as(
    frame: &Mat,
    start: &Quad,
    model: &ColourModel,
    table: [[f32; 3]; 2],
    figures: Option<&Enrolment>,
    recognizer: &TileRecognizer,
) -> opencv::Result<Vec<Located>> {
    let cat = catalogue();
    let d = cat.tile_id("D").expect("the start tile type");
    // A picture that does not show the start tile where the calibration saw it (no board, a
    // camera moved far, a blurred or washed-out picture) has nothing to read from. Where the
    // camera was bumped since setup, the start tile is found again near there; where what
    // that finds does not show it (relocating fits the catalogue's drawing, which an edition
    // may print thinner), the calibrated corners may.
    let shows_start = |quad: &Quad| -> opencv::Result<Option<Print>> {
        let read = read_cut(
            frame,
            Pos::new(0, 0),
            quad,
            model,
            &table,
            figures.map(|e| (e, [0.0, 0.0])),
            recognizer,
        )?;
        Ok(read.and_then(|CutRead { found_at, tile }| {
            (found_at.fit >= MIN_FIT
                && tile
                    .candidates
                    .iter()
                    .take(START_AMONG)
                    .any(|c| c.tile == d && same_for_the_rules(d, c.rot, Rotation::R0)))
            .then_some(tile.print)
        }))
    };
    let relocated = relocate_start(frame, start, model)?;
    let Some((start, start_print)) = first_showing([relocated, *start], shows_start)? else {
        return Ok(Vec::new());
    };
    let start = &start;
    let mut grey = Mat::default();
    imgproc::cvt_color(frame, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
    let reader = CellReader {
        frame,
        grey,
        // Seen at an angle, the camera's pose from the start tile's foreshortening predicts
        // each cell's shape (a grid fitted to a few tiles a little off their cells can run
        // away).
        pose: Pose::of_oblique_start(start, [frame.cols(), frame.rows()])?,
        viewpoint: Viewpoint::from_cells([(&Pos::new(0, 0), start)], [frame.cols(), frame.rows()])?,
        model,
        table,
        figures,
        recognizer,
        cuts_read: Mutex::new(HashMap::new()),
        snapped: Mutex::new(HashMap::new()),
    };
    let mut located: BTreeMap<Pos, Quad> = BTreeMap::new();
    let mut out = vec![Located {
        pos: Pos::new(0, 0),
        quad: *start,
        candidates: vec![Candidate {
            tile: d,
            rot: Rotation::R0,
            probability: 1.0,
        }],
        print: start_print,
        shows: CellShows::Tile,
    }];
    located.insert(Pos::new(0, 0), *start);
    let mut scores: HashMap<Pos, Match> = HashMap::new();
    // The board grows through the cells that fit surely first, then through the rest: a cell
    // cut a little off (read with a poor fit) would shift the cells predicted from it.
    for min_fit in [SURE_FIT, MIN_FIT] {
        grow(&reader, min_fit, &mut located, &mut out, &mut scores)?;
    }
    for _ in 0..LEAPS {
        if !leap(&reader, &mut located, &mut out, &mut scores)? {
            break;
        }
        grow(&reader, MIN_FIT, &mut located, &mut out, &mut scores)?;
    }
    // A cell left out because no reading of a neighbour's matched its edges is tried again
    // where settling, cutting again or the grid changed a reading (`eval vision` 12300 board
    // 17: a J beside a plain cloister first read with a road towards it).
    let readings = |out: &[Located]| -> Vec<Option<(TileId, Rotation)>> {
        out.iter()
            .map(|l| l.candidates.first().map(|c| (c.tile, c.rot)))
            .collect()
    };
    let before = readings(&out);
    settle(&reader, &mut located, &mut out, &mut scores)?;
    recut_where_found(&reader, &mut located, &mut out, &mut scores)?;
    regrid(&reader, &mut located, &mut out, &scores)?;
    polish(&reader, &mut out)?;
    if readings(&out) != before {
        grow(&reader, MIN_FIT, &mut located, &mut out, &mut scores)?;
    }
    drop_misfits(&mut out, &mut located, &scores);
    drop_table_over_tiles(&mut out, &mut located);
    weigh_by_prints(&mut out, d);
    Ok(out)
}

/// The first of `quads` whose cut `shows` what is looked for, with what it showed; a quad the
/// same as one before it is not cut again.
fn first_showing<T>(
    quads: [Quad; 2],
    mut shows: impl FnMut(&Quad) -> opencv::Result<Option<T>>,
) -> opencv::Result<Option<(Quad, T)>> {
    for (k, quad) in quads.iter().enumerate() {
        if quads[..k].contains(quad) {
            continue;
        }
        if let Some(seen) = shows(quad)? {
            return Ok(Some((*quad, seen)));
        }
    }
    Ok(None)
}

/// Grows the board read so far (`located`, its tiles `out`, their readings' `scores`) through
/// the cells beside it that show a tile fitting at least `min_fit` ([`CellReader::read_cell`]).
fn grow(
    reader: &CellReader,
    min_fit: f64,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut Vec<Located>,
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<()> {
    // Each cell tried: how many tiles lay near it at its last try, and how often it was tried.
    let mut tried: BTreeMap<Pos, (usize, u32)> = BTreeMap::new();
    let mut queue: VecDeque<Pos> = located
        .keys()
        .flat_map(|p| Dir::ALL.map(|d| p.step(d)))
        .collect();
    while !queue.is_empty() {
        // The cells queued now are tried in turn below. Their cuts as the board read so far
        // predicts them are read side by side first: a cell whose neighbours are found before
        // its turn is predicted afresh then, and only that cut is read again.
        reader.read_cells_ahead(&reader.predicted_cuts(queue.iter().copied(), located))?;
        for _ in 0..queue.len() {
            let Some(pos) = queue.pop_front() else {
                break;
            };
            if located.contains_key(&pos) {
                continue;
            }
            let support = support(located, pos);
            let tries = match tried.get(&pos) {
                Some(&(before, tries)) if support <= before || tries >= TRIES => continue,
                Some(&(_, tries)) => tries,
                None if tried.len() >= MAX_CELLS => continue,
                None => 0,
            };
            tried.insert(pos, (support, tries + 1));
            let Some((found_at, found)) = reader.read_cell(pos, min_fit, located, out)? else {
                continue;
            };
            located.insert(pos, found.quad);
            scores.insert(pos, found_at);
            out.push(found);
            for d in Dir::ALL {
                queue.push_back(pos.step(d));
            }
        }
    }
    Ok(())
}

/// Drops the tiles found (all but the start tile, `out[0]`) whose readings fit the catalogue
/// far worse than the board's own tiles do ([`MISFIT`] below their median fit, of
/// [`MISFIT_AMONG`] tiles or more). A cut of bare table fits some type somewhat wherever the
/// table's colours pass for terrain (a red-and-white checked cloth beside cities and white
/// roads, `eval vision` 23300 board 3: two such cells read −0.67, the board's median −0.15);
/// the art of an edition fits worse all over, which its median follows.
fn drop_misfits(
    out: &mut Vec<Located>,
    located: &mut BTreeMap<Pos, Quad>,
    scores: &HashMap<Pos, Match>,
) {
    let mut fits: Vec<f64> = out
        .iter()
        .skip(1)
        .filter_map(|l| scores.get(&l.pos).map(|s| s.fit))
        .collect();
    if fits.len() < MISFIT_AMONG {
        return;
    }
    fits.sort_by(f64::total_cmp);
    let least = fits[fits.len() / 2] - MISFIT;
    let misfit = |l: &Located| scores.get(&l.pos).is_some_and(|s| s.fit < least);
    let dropped: BTreeSet<Pos> = out[1..]
        .iter()
        .filter(|l| misfit(l))
        .map(|l| l.pos)
        .collect();
    located.retain(|p, _| !dropped.contains(p));
    out.retain(|l| !dropped.contains(&l.pos));
}

/// Drops the tiles found in cuts showing the table's colours that lie over a tile found in a
/// cut unlike the table ([`overlaps`], nearer than [`APART_SHOWING_TABLE`]) once the board has
/// settled: each is checked as it is found, against its neighbours as found so far, which
/// settling may move. `eval vision` 27500 board 16: a U found first a fifth of a side north of
/// where it lies, and below it a patch of wooden table read as the brown city of an R, clear
/// of the U as found then; cut again where it lies, the U reached a quarter of a side into it.
fn drop_table_over_tiles(out: &mut Vec<Located>, located: &mut BTreeMap<Pos, Quad>) {
    if out.is_empty() {
        return;
    }
    let tiles: BTreeMap<Pos, Quad> = out
        .iter()
        .filter(|l| l.shows == CellShows::Tile)
        .map(|l| (l.pos, l.quad))
        .collect();
    let dropped: BTreeSet<Pos> = out[1..]
        .iter()
        .filter(|l| l.shows != CellShows::Tile && overlaps(&l.quad, &tiles, APART_SHOWING_TABLE))
        .map(|l| l.pos)
        .collect();
    located.retain(|p, _| !dropped.contains(p));
    out.retain(|l| !dropped.contains(&l.pos));
}

/// How far below the board's median fit a tile's fit may lie ([`drop_misfits`]): tiles lie up
/// to 0.29 below it (22 000 tiles of 13 painted and 8 art `eval vision` sets), bare table cut
/// as a tile 0.5 and more.
const MISFIT: f64 = 0.4;
/// The fewest tiles with a fit for their median to judge by ([`drop_misfits`]).
const MISFIT_AMONG: usize = 8;

/// How often the board read leaps over the cells beside it that showed no tile ([`leap`]): the
/// tiles found beyond one gap may lead to another.
const LEAPS: usize = 2;

/// Reads the cells one beyond each cell beside the board read so far that showed no tile but
/// does not show bare table, each cut where the board's grid puts it ([`board_grid`]), and adds
/// those that show a tile fitting surely ([`SURE_FIT`]) in colours unlike the table's; whether
/// any was added. A tile read wrong beside its only neighbour (or not found) cuts every tile
/// beyond it off the board: on the 2nd-edition art, chains of up to four tiles. Grown on from
/// the tiles beyond, the board tries the missed tile again between two neighbours.
fn leap(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut Vec<Located>,
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<bool> {
    let Some(grid) = board_grid(located)? else {
        return Ok(false);
    };
    // Cells beyond the board, touching no tile found and in view.
    let open = |pos: Pos, located: &BTreeMap<Pos, Quad>| {
        !Dir::ALL.iter().any(|&n| located.contains_key(&pos.step(n)))
            && in_view(&grid_cell(&grid, pos), reader.frame)
    };
    let gaps: BTreeSet<Pos> = located
        .keys()
        .flat_map(|p| Dir::ALL.map(|d| p.step(d)))
        .filter(|p| !located.contains_key(p))
        .collect();
    // The gaps, then the cells beyond those that show more than table, each read side by
    // side (a tile found beyond one gap may close a cell beyond the next: read for nothing).
    let gaps: Vec<Pos> = gaps
        .into_iter()
        .filter(|&gap| {
            Dir::ALL.iter().any(|&d| open(gap.step(d), located))
                && in_view(&grid_cell(&grid, gap), reader.frame)
        })
        .collect();
    let cuts: Vec<(Pos, Quad)> = gaps.iter().map(|&p| (p, grid_cell(&grid, p))).collect();
    reader.read_ahead(&cuts)?;
    let mut beyond: Vec<(Pos, Quad)> = Vec::new();
    for (gap, cut) in &cuts {
        if reader.read(*gap, cut)?.is_some() {
            beyond.extend(
                Dir::ALL
                    .map(|d| gap.step(d))
                    .into_iter()
                    .filter(|&p| open(p, located))
                    .map(|p| (p, grid_cell(&grid, p))),
            );
        }
    }
    reader.read_ahead(&beyond)?;
    let mut added = false;
    for (gap, cut) in cuts {
        if !Dir::ALL.iter().any(|&d| open(gap.step(d), located))
            || reader.read(gap, &cut)?.is_none()
        {
            continue;
        }
        for d in Dir::ALL {
            let beyond = gap.step(d);
            if !open(beyond, located) {
                continue;
            }
            let Some(read) = reader.read(beyond, &grid_cell(&grid, beyond))? else {
                continue;
            };
            if read.found_at.fit < SURE_FIT
                || read.tile.shows != CellShows::Tile
                || overlaps(&read.tile.quad, located, APART)
            {
                continue;
            }
            located.insert(beyond, read.tile.quad);
            scores.insert(beyond, read.found_at);
            out.push(read.tile);
            added = true;
        }
    }
    Ok(added)
}

/// Weighs the doubtful readings of a board read (the start tile, of type `d`, first) by the
/// prints of the tiles read surely.
fn weigh_by_prints(out: &mut [Located], d: TileId) {
    let Some((start, rest)) = out.split_first_mut() else {
        return;
    };
    let prints = LearnedPrints::learn(
        rest.iter().map(|l| (&l.print, &l.candidates[..])),
        [(&start.print, d, Rotation::R0)],
    );
    for l in rest {
        prints.reweigh(&l.print, &mut l.candidates);
    }
}

/// Reads the tiles at `cells` as [`read_board`] reads each cut, but cut exactly where given
/// (the true corners, in evaluation) and not searched for: how well the tiles read where the
/// board read's placing is not in question. The start tile lies at `start`; cells outside the
/// picture, and those showing table, are left out.
pub fn read_at(
    frame: &Mat,
    start: &Quad,
    cells: &[(Pos, Quad)],
    model: &ColourModel,
    table: [[f32; 3]; 2],
    figures: Option<&Enrolment>,
    recognizer: &TileRecognizer,
) -> opencv::Result<Vec<Located>> {
    let d = catalogue().tile_id("D").expect("the start tile type");
    let viewpoint =
        Viewpoint::from_cells([(&Pos::new(0, 0), start)], [frame.cols(), frame.rows()])?;
    let read = |pos: Pos, quad: &Quad| {
        let rise = viewpoint
            .as_ref()
            .map_or([0.0, 0.0], |v| v.rise_at_cell(pos));
        read_cut(
            frame,
            pos,
            quad,
            model,
            &table,
            figures.map(|e| (e, rise)),
            recognizer,
        )
    };
    let Some(CutRead {
        tile: start_cut, ..
    }) = read(Pos::new(0, 0), start)?
    else {
        return Ok(Vec::new());
    };
    let mut out = vec![Located {
        candidates: vec![Candidate {
            tile: d,
            rot: Rotation::R0,
            probability: 1.0,
        }],
        ..start_cut
    }];
    for (pos, quad) in cells {
        if in_view(quad, frame) {
            out.extend(read(*pos, quad)?.map(|cut| cut.tile));
        }
    }
    weigh_by_prints(&mut out, d);
    Ok(out)
}

/// What a board read reads its cells with: the picture (and its grey), the camera's pose
/// where the start tile shows it tilted, the colours and the recogniser.
struct CellReader<'a> {
    frame: &'a Mat,
    grey: Mat,
    pose: Option<Pose>,
    viewpoint: Option<Viewpoint>,
    model: &'a ColourModel,
    table: [[f32; 3]; 2],
    figures: Option<&'a Enrolment>,
    recognizer: &'a TileRecognizer,
    /// Every cut read so far, by cell and corners: the board's second growth pass cuts the
    /// cells the first left again, often at the same corners, and such a cut reads the same.
    /// Locked so that the threads reading cuts side by side ([`Self::read_ahead`]) may share
    /// the reader.
    cuts_read: Mutex<HashMap<CutKey, Option<CutRead>>>,
    /// Every cut snapped onto the picture's edges so far, by its corners' bits: snapping a
    /// cut read ahead ([`Self::read_cells_ahead`]) is not done again when its cell is read.
    snapped: Mutex<HashMap<CornerBits, Quad>>,
}

/// A quad's corners' bits.
type CornerBits = [[u64; 2]; 4];

fn corner_bits(quad: &Quad) -> CornerBits {
    quad.map(|p| p.map(f64::to_bits))
}

/// A cut of a cell: the cell and its corners' bits.
type CutKey = (Pos, CornerBits);

fn cut_key(pos: Pos, quad: &Quad) -> CutKey {
    (pos, corner_bits(quad))
}

impl CellReader<'_> {
    /// The cell at `pos` cut at `quad` read ([`read_cut`]), once for each cut.
    fn read(&self, pos: Pos, quad: &Quad) -> opencv::Result<Option<CutRead>> {
        if let Some(known) = self.known(pos, quad) {
            return Ok(known);
        }
        let cut = self.read_afresh(pos, quad)?;
        self.remember(pos, quad, cut.clone());
        Ok(cut)
    }

    /// Reads those of `cuts` not read yet side by side, on every core, for [`Self::read`] to
    /// find: a cut reads the same whenever it is read.
    fn read_ahead(&self, cuts: &[(Pos, Quad)]) -> opencv::Result<()> {
        let mut fresh: Vec<(Pos, Quad)> = Vec::new();
        for &(pos, quad) in cuts {
            if !self.is_known(pos, &quad) && !fresh.contains(&(pos, quad)) {
                fresh.push((pos, quad));
            }
        }
        if fresh.len() < 2 {
            return fresh
                .iter()
                .try_for_each(|(pos, quad)| self.read(*pos, quad).map(drop));
        }
        let reads: Vec<opencv::Result<Option<CutRead>>> = fresh
            .par_iter()
            .map(|(pos, quad)| self.read_afresh(*pos, quad))
            .collect();
        for ((pos, quad), cut) in fresh.iter().zip(reads) {
            self.remember(*pos, quad, cut?);
        }
        Ok(())
    }

    /// The read of the cell at `pos` cut at `quad`, if it was read.
    fn known(&self, pos: Pos, quad: &Quad) -> Option<Option<CutRead>> {
        self.cuts_read().get(&cut_key(pos, quad)).cloned()
    }

    fn is_known(&self, pos: Pos, quad: &Quad) -> bool {
        self.cuts_read().contains_key(&cut_key(pos, quad))
    }

    fn remember(&self, pos: Pos, quad: &Quad, cut: Option<CutRead>) {
        self.cuts_read().insert(cut_key(pos, quad), cut);
    }

    fn cuts_read(&self) -> std::sync::MutexGuard<'_, HashMap<CutKey, Option<CutRead>>> {
        self.cuts_read.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cell at `pos` cut at `quad` read ([`read_cut`]), whether read before or not.
    fn read_afresh(&self, pos: Pos, quad: &Quad) -> opencv::Result<Option<CutRead>> {
        let rise = self.viewpoint.map_or([0.0, 0.0], |v| v.rise_at_cell(pos));
        read_cut(
            self.frame,
            pos,
            quad,
            self.model,
            &self.table,
            self.figures.map(|e| (e, rise)),
            self.recognizer,
        )
    }

    /// In a view at an angle, cell `pos` cut where the camera's pose bent as the tiles
    /// `located` near it lie puts it ([`predict_in_bent_perspective`]), where that lies at
    /// least [`BENT_APART`] off the cut `predicted`: far from the start tile the pose can
    /// misjudge the cells' size by a sixth, and a cut so far off is found where a tile's print
    /// fits it best, a third of a side off and more (`eval vision` 15300 board 2, oblique, with
    /// a lens bending the rows: a corner of the board read a row off, 16 tiles wrong). A tile
    /// is kept from it only where it fits surely ([`SURE_FIT`]): the bend follows where the
    /// tiles near were found, a few pixels off each, and kept at any fit it moved tiles read
    /// right on the 2nd-edition art (seven of eight art sets lost 0.1 to 0.4 points a tile).
    fn bent(&self, pos: Pos, located: &BTreeMap<Pos, Quad>, predicted: &Quad) -> Option<Quad> {
        let bent = predict_in_bent_perspective(located, pos, self.pose.as_ref()?)?;
        (corners_apart(predicted, &bent) >= BENT_APART).then_some(bent)
    }

    /// `quad` snapped onto the picture's edges ([`snap_to_edges`]), once for each quad.
    fn snapped(&self, quad: &Quad) -> Quad {
        let key = corner_bits(quad);
        let lock = || self.snapped.lock().unwrap_or_else(|e| e.into_inner());
        let known = lock().get(&key).copied();
        known.unwrap_or_else(|| {
            let snapped = snap_to_edges(&self.grey, quad);
            *lock().entry(key).or_insert(snapped)
        })
    }

    /// The cuts [`Self::read_cell`] reads first for those of `cells` not `located` yet: each
    /// where the tiles `located` predict it.
    fn predicted_cuts(
        &self,
        cells: impl Iterator<Item = Pos>,
        located: &BTreeMap<Pos, Quad>,
    ) -> Vec<(Pos, Quad)> {
        cells
            .filter(|pos| !located.contains_key(pos))
            .filter_map(|pos| Some((pos, predict_in_read(located, pos, self.pose.as_ref())?)))
            .collect()
    }

    /// Reads side by side what [`Self::read_cell`] will read of each cell first cut at
    /// `predicted`: that cut, then the same snapped onto the picture's edges where the first
    /// shows no tile fitting surely ([`SURE_FIT`]).
    fn read_cells_ahead(&self, predicted: &[(Pos, Quad)]) -> opencv::Result<()> {
        let cuts: Vec<(Pos, Quad)> = predicted
            .iter()
            .copied()
            .filter(|(_, quad)| in_view(quad, self.frame))
            .collect();
        self.read_ahead(&cuts)?;
        let unsure = |pos: Pos, quad: &Quad| {
            self.known(pos, quad)
                .is_some_and(|cut| cut.is_none_or(|c| c.found_at.fit < SURE_FIT))
        };
        let snapped: Vec<(Pos, Quad)> = predicted
            .par_iter()
            .filter(|(pos, quad)| !in_view(quad, self.frame) || unsure(*pos, quad))
            .map(|&(pos, quad)| (pos, self.snapped(&quad)))
            .filter(|(_, quad)| in_view(quad, self.frame))
            .collect();
        self.read_ahead(&snapped)
    }

    /// The tile at `pos` and how it matched ([`Match`]), from where the tiles `located` so far predict
    /// it, or from that cut snapped onto the picture's edges or bent as the tiles near it lie
    /// ([`Self::bent`]) if it scores higher (each read only where the cuts before it give no
    /// tile to keep that fits at least [`SURE_FIT`]). `None` where none shows a tile fitting at
    /// least `min_fit` whose edges can match its neighbours in `found`, that overlaps none of
    /// them and whose square is not mostly table ([`MOSTLY_TABLE`]).
    fn read_cell(
        &self,
        pos: Pos,
        min_fit: f64,
        located: &BTreeMap<Pos, Quad>,
        found: &[Located],
    ) -> opencv::Result<Option<(Match, Located)>> {
        let Some(predicted) = predict_in_read(located, pos, self.pose.as_ref()) else {
            return Ok(None);
        };
        // Snapped only if the first cut is read and not kept; bent the same. Each cut with the
        // least fit of a tile to keep from it.
        let cuts = std::iter::once((predicted, min_fit))
            .chain(
                std::iter::once_with(|| (self.snapped(&predicted), min_fit))
                    .filter(|(snapped, _)| *snapped != predicted),
            )
            .chain(
                std::iter::once_with(|| self.bent(pos, located, &predicted))
                    .flatten()
                    .map(|bent| (bent, min_fit.max(SURE_FIT))),
            )
            // A cell partly past the picture's edge is read from what shows of it.
            .filter(|(quad, _)| in_view(quad, self.frame));
        // Where the neighbours predict well (on the simulated tiles nearly everywhere), the
        // snapped cut adds nothing but a second read. Of two cuts that both show a tile, the
        // one the shift search scores higher: on the 2nd-edition art, the better fit lay
        // truer in only half the pairs of cuts whose found tiles lay apart.
        let mut best: Option<(Match, Located)> = None;
        for (quad, min_fit) in cuts {
            let Some(cut) = self.read(pos, &quad)? else {
                continue;
            };
            let found_at = cut.found_at;
            if found_at.fit < min_fit
                || found_at.on_table > MOSTLY_TABLE
                || best
                    .as_ref()
                    .is_some_and(|(better, _)| better.score >= found_at.score)
                || !cut.fits_neighbours(found)
                || cut.lies_over(located)
            {
                continue;
            }
            let sure = found_at.fit >= SURE_FIT;
            best = Some((found_at, cut.tile));
            if sure {
                break;
            }
        }
        Ok(best)
    }
}

/// How often a cell is tried in all ([`read_board`]).
const TRIES: u32 = 2;

/// How far (in sides of the cut) the corner of `quad` farthest from its own in `cell` lies.
fn corners_apart(cell: &Quad, quad: &Quad) -> f64 {
    cell.iter()
        .zip(quad)
        .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
        .fold(0.0, f64::max)
        / side_px(cell)
}

/// How far (share of a side, at the farthest corner) the bent cut of a cell must lie from the
/// one its neighbours predict to be read too ([`CellReader::bent`]).
const BENT_APART: f64 = 0.1;

/// Grid cells' worth of the table (of [`super::terrain::GRID`]² in a tile's square) above
/// which a tile found there is no tile: half its square. A cut over the board's edge that fits
/// a straight road well in its tile's half (`eval vision` 14900 board 16, a cut beyond the
/// board); a black figure standing on a tile at the board's edge, seen against a dark table,
/// counts as table for about a quarter (9500 board 27).
const MOSTLY_TABLE: f64 = (super::terrain::GRID * super::terrain::GRID / 2) as f64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::rectify::tests::square;

    #[test]
    fn a_cut_showing_the_table_s_colours_is_dropped_where_it_came_to_lie_over_a_tile() {
        let showing = |x, y, shows, quad| Located {
            shows,
            quad,
            ..cut::tests::read_surely(x, y, "R")
        };
        let mut out = vec![
            cut::tests::read_surely(0, 0, "D"),
            // Found a quarter of a side into the start tile.
            showing(0, 1, CellShows::TableColours, square(0.0, 75.0)),
            // In its cell: beside the start tile, not over it.
            showing(1, 0, CellShows::TableColours, square(100.0, 0.0)),
            showing(0, -1, CellShows::MostlyTable, square(0.0, -95.0)),
            // Two cuts unlike the table a quarter of a side apart are for the rest of the
            // board read to settle ([`APART`]), not for this.
            showing(-1, 0, CellShows::Tile, square(-75.0, 0.0)),
        ];
        let mut located: BTreeMap<Pos, Quad> = out.iter().map(|l| (l.pos, l.quad)).collect();
        drop_table_over_tiles(&mut out, &mut located);
        let left = [
            Pos::new(0, 0),
            Pos::new(1, 0),
            Pos::new(0, -1),
            Pos::new(-1, 0),
        ];
        assert_eq!(out.iter().map(|l| l.pos).collect::<Vec<_>>(), left);
        assert_eq!(
            located.keys().copied().collect::<BTreeSet<_>>(),
            left.into()
        );
        // A patch over a tile showing the table's colours too stays: neither tells.
        let mut out = vec![
            cut::tests::read_surely(0, 0, "D"),
            showing(5, 0, CellShows::TableColours, square(500.0, 0.0)),
            showing(5, 1, CellShows::TableColours, square(500.0, 75.0)),
        ];
        drop_table_over_tiles(&mut out, &mut BTreeMap::new());
        assert_eq!(out.len(), 3);
        drop_table_over_tiles(&mut Vec::new(), &mut BTreeMap::new());
    }

    #[test]
    fn the_start_tile_is_read_as_calibrated_where_relocated_it_does_not_show() {
        let (relocated, calibrated) = (square(0.0, 6.0), square(0.0, 0.0));
        let mut cut = Vec::new();
        let shows_at = |at: Quad| {
            move |quad: &Quad| -> opencv::Result<Option<Quad>> {
                Ok((*quad == at).then_some(*quad))
            }
        };
        // Relocated shows it: kept, the calibrated corners not cut.
        let found = first_showing([relocated, calibrated], |q: &Quad| {
            cut.push(*q);
            shows_at(relocated)(q)
        });
        assert_eq!(found.unwrap().map(|f| f.0), Some(relocated));
        assert_eq!(cut, vec![relocated]);
        // Only as calibrated.
        let found = first_showing([relocated, calibrated], shows_at(calibrated)).unwrap();
        assert_eq!(found.map(|f| f.0), Some(calibrated));
        // Neither; and one quad is cut once.
        assert!(
            first_showing([relocated, calibrated], shows_at(square(50.0, 50.0)))
                .unwrap()
                .is_none()
        );
        cut.clear();
        let once = first_showing([calibrated, calibrated], |q: &Quad| {
            cut.push(*q);
            Ok(None::<()>)
        });
        assert!(once.unwrap().is_none());
        assert_eq!(cut, vec![calibrated]);
    }
}

//! Board localisation: a board read outwards from the start tile ([`super::start`]), each tile
//! cut where the tiles around it predict it ([`super::predict`]) and refined by its own picture,
//! and each cell told to show a tile or the table ([`super::table::what_cell_shows`]).

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Mutex;

use opencv::core::{Mat, Point2f, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use rayon::prelude::*;

use super::edges::edge_kinds;
use super::figures::Enrolment;
use super::predict::{predict_in_bent_perspective, predict_in_read, support};
use super::prints::{LearnedPrints, Print};
use super::rectify::{
    homography_of, middle, quad_patch, shifted_quad, side_px, Quad, MARGIN_PX, PATCH_PX,
};
use super::relearn::city_colours;
use super::snap::snap_to_edges;
use super::standing::Figures;
use super::start::relocate_start;
use super::table::{table_whatever_figures, what_cell_shows, CellShows};
use super::terrain::{same_for_the_rules, ColourModel};
use super::tile::{Candidate, Match, TileRecognizer};
use super::viewpoint::{Pose, Viewpoint};
use crate::rules::{catalogue, Dir, EdgeKind, Pos, Rotation, TileId};
use crate::sim::camera::apply_homography;

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

/// Cuts each tile found again where all its final neighbours predict it, when that lies more
/// than [`SETTLE_OFF`] of a side from where it was found, and keeps the new reading if it
/// scores higher ([`Match::score`]; `scores` holds the first readings'). Tiles are settled in
/// the order they were found, each from its neighbours as settled so far: a tile found early
/// was predicted from one or two neighbours, and the tiles grown from it inherited its error.
fn settle(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<()> {
    // Where each tile's neighbours predict it, read side by side: a tile settled elsewhere
    // moves the cuts of those after it beside it, and only those are read again.
    let cuts: Vec<(Pos, Quad)> = out[1..]
        .iter()
        .filter_map(|tile| Some((tile.pos, settle_cut(reader, located, tile)?)))
        .collect();
    reader.read_cells_ahead(&cuts)?;
    for k in 1..out.len() {
        let pos = out[k].pos;
        let Some(&first) = scores.get(&pos) else {
            continue;
        };
        if settle_cut(reader, located, &out[k]).is_none() {
            continue;
        }
        let mut others = located.clone();
        others.remove(&pos);
        if let Some((found_at, found)) = reader.read_cell(pos, MIN_FIT, &others, out)? {
            if found_at.score > first.score {
                located.insert(pos, found.quad);
                scores.insert(pos, found_at);
                out[k] = found;
            }
        }
    }
    Ok(())
}

/// Where the other tiles `located` predict `tile`'s cell, if that lies more than
/// [`SETTLE_OFF`] of a side from where it was found ([`settle`]).
fn settle_cut(reader: &CellReader, located: &BTreeMap<Pos, Quad>, tile: &Located) -> Option<Quad> {
    let mut others = located.clone();
    others.remove(&tile.pos);
    let predicted = predict_in_read(&others, tile.pos, reader.pose.as_ref())?;
    (sides_apart(&predicted, &tile.quad) >= SETTLE_OFF).then_some(predicted)
}

/// Cuts each tile found again where a grid fitted to the whole board puts its cell
/// ([`board_grid`]), when that lies more than [`REGRID_OFF`] of a side from where it was found,
/// and keeps the new reading if it fits its neighbours' edges, lies over none of them and
/// scores higher ([`Match::score`]) than the reading so far (`scores`) would have, cut at the
/// grid's cell ([`Match::score_if_cut_off`]): the grid, fitted to every tile, tells where a
/// tile lies better than the cut its neighbours predicted, from which the shift search
/// charged the first reading. Settled from its
/// neighbours ([`settle`]), a tile can still lie off with them: on the 2nd-edition art the
/// shift search, aligning its print to the catalogue's drawn tiles, moves a tile cut at its
/// true corners by some 0.035 of a side, and a row of tiles found from each other can drift
/// together.
fn regrid(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &HashMap<Pos, Match>,
) -> opencv::Result<()> {
    let Some(grid) = board_grid(located)? else {
        return Ok(());
    };
    // The cells each read once, where the grid puts them, side by side.
    let cells: Vec<(usize, Quad)> = (1..out.len())
        .filter_map(|k| {
            let cell = grid_cell(&grid, out[k].pos);
            (sides_apart(&cell, &out[k].quad) > REGRID_OFF && in_view(&cell, reader.frame))
                .then_some((k, cell))
        })
        .collect();
    let cuts: Vec<(Pos, Quad)> = cells.iter().map(|&(k, cell)| (out[k].pos, cell)).collect();
    reader.read_ahead(&cuts)?;
    for (k, cell) in cells {
        let pos = out[k].pos;
        let Some(cut) = reader.read(pos, &cell)? else {
            continue;
        };
        // The board's grid is where the tile is likeliest: the reading so far is scored as if
        // it had been cut there.
        let off = sides_apart(&cell, &out[k].quad) * f64::from(PATCH_PX);
        if cut.replaces(scores.get(&pos), off, out, located) {
            located.insert(pos, cut.tile.quad);
            out[k] = cut.tile;
        }
    }
    Ok(())
}

/// Cuts again, where it was found, each tile the shift search found at least [`RECUT_OFF_PX`]
/// off its cut, and keeps the new reading if it scores higher ([`Match::score`]) than the first
/// would have, cut there ([`Match::score_if_cut_off`]): a search near the end of its margin
/// reads a cut with a strip of the neighbour's print in it and may stop short of the tile
/// (`eval vision` 11300 board 13: B read U at 8 pixels each way, B cut again).
fn recut_where_found(
    reader: &CellReader,
    located: &mut BTreeMap<Pos, Quad>,
    out: &mut [Located],
    scores: &mut HashMap<Pos, Match>,
) -> opencv::Result<()> {
    let far_off: Vec<usize> = (1..out.len())
        .filter(|&k| {
            scores
                .get(&out[k].pos)
                .is_some_and(|s| s.off_cut >= RECUT_OFF_PX)
                && in_view(&out[k].quad, reader.frame)
        })
        .collect();
    let cuts: Vec<(Pos, Quad)> = far_off.iter().map(|&k| (out[k].pos, out[k].quad)).collect();
    reader.read_ahead(&cuts)?;
    for (k, (pos, quad)) in far_off.into_iter().zip(cuts) {
        let Some(cut) = reader.read(pos, &quad)? else {
            continue;
        };
        if cut.replaces(scores.get(&pos), 0.0, out, located) {
            located.insert(pos, cut.tile.quad);
            scores.insert(pos, cut.found_at);
            out[k] = cut.tile;
        }
    }
    Ok(())
}

/// Reads each tile read unsurely ([`worth_polishing`]) again at cuts with one side moved a
/// little out or in, or turned a little ([`nudged`]), and takes the mean of its readings over
/// these cuts and its own: where a tile lies is known only to a few hundredths of a side, and
/// a small feature near its side (a road stub a figure stands on) may show in one cut and not
/// in the next (`eval vision` 11100 board 12: A cut 0.05 of a side short in the south read B
/// at 0.5; cut at its true corners, A).
fn polish(reader: &CellReader, out: &mut [Located]) -> opencv::Result<()> {
    let unsure: Vec<usize> = (1..out.len())
        .filter(|&k| worth_polishing(&out[k].candidates))
        .collect();
    let cuts: Vec<(Pos, Quad)> = unsure
        .iter()
        .flat_map(|&k| nudged(&out[k].quad).into_iter().map(move |q| (k, q)))
        .filter(|(_, q)| in_view(q, reader.frame))
        .map(|(k, q)| (out[k].pos, q))
        .collect();
    reader.read_ahead(&cuts)?;
    for k in unsure {
        let pos = out[k].pos;
        let mut sum: HashMap<(TileId, Rotation), f64> = HashMap::new();
        let mut reads = 0usize;
        let mut add = |candidates: &[Candidate]| {
            for c in candidates {
                *sum.entry((c.tile, c.rot)).or_default() += c.probability;
            }
            reads += 1;
        };
        add(&out[k].candidates);
        for (_, quad) in cuts.iter().filter(|(p, _)| *p == pos) {
            if let Some(cut) = reader.read(pos, quad)? {
                add(&cut.tile.candidates);
            }
        }
        let mut mean: Vec<Candidate> = sum
            .into_iter()
            .map(|((tile, rot), p)| Candidate {
                tile,
                rot,
                probability: p / reads as f64,
            })
            .collect();
        mean.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        out[k].candidates = mean;
    }
    Ok(())
}

/// Whether [`polish`] cuts a tile read as `candidates` (most likely first) again: where its
/// likeliest reading is less sure than [`POLISH_BELOW`], or less sure than
/// [`POLISH_LAYOUT_BELOW`] and a reading at least [`RIVAL`] likely lays roads and cities along
/// its sides otherwise (a road stub a figure hides). Most tiles read between the two are
/// only in doubt about a pennant or which way round a symmetric tile lies; cutting all of them
/// again would take a 69-tile board's read past 300 ms (`cargo bench --bench vision -- board`).
fn worth_polishing(candidates: &[Candidate]) -> bool {
    let Some((top, rest)) = candidates.split_first() else {
        return false;
    };
    let layout = |c: &Candidate| edge_kinds(c.tile, c.rot);
    top.probability < POLISH_BELOW
        || (top.probability < POLISH_LAYOUT_BELOW
            && rest
                .iter()
                .take_while(|c| c.probability >= RIVAL)
                .any(|c| layout(c) != layout(top)))
}

/// The probability of a tile's likeliest reading below which [`polish`] cuts it again.
const POLISH_BELOW: f64 = 0.9;
/// [`POLISH_BELOW`] for a tile read with a rival layout of roads and cities.
const POLISH_LAYOUT_BELOW: f64 = 0.99;
/// How likely a reading must be for [`worth_polishing`] to weigh it.
const RIVAL: f64 = 0.005;
/// How far (share of a side) [`nudged`] moves a side.
const NUDGE: f64 = 0.02;
/// How far (degrees) [`nudged`] turns a cut.
const NUDGE_TURN_DEG: f64 = 1.5;

/// `quad` with each side in turn moved [`NUDGE`] of a side out and in, and turned
/// [`NUDGE_TURN_DEG`] either way about its middle.
fn nudged(quad: &Quad) -> Vec<Quad> {
    let mut cuts = Vec::new();
    for side in 0..4 {
        // The side's two corners, each moved along the tile's side that ends in it.
        let (a, b) = (side, (side + 1) % 4);
        let (from_a, from_b) = ((a + 3) % 4, (b + 1) % 4);
        for sign in [1.0, -1.0] {
            let mut q = *quad;
            for (c, from) in [(a, from_a), (b, from_b)] {
                for i in 0..2 {
                    q[c][i] += sign * NUDGE * (quad[c][i] - quad[from][i]);
                }
            }
            cuts.push(q);
        }
    }
    let m = middle(quad);
    for deg in [NUDGE_TURN_DEG, -NUDGE_TURN_DEG] {
        let (sin, cos) = deg.to_radians().sin_cos();
        cuts.push(quad.map(|p| {
            let d = [p[0] - m[0], p[1] - m[1]];
            [
                m[0] + cos * d[0] - sin * d[1],
                m[1] + sin * d[0] + cos * d[1],
            ]
        }));
    }
    cuts
}

/// How far (patch pixels) the shift search must have found a tile off its cut for
/// [`recut_where_found`] to cut it again: three quarters of the margin it searches.
const RECUT_OFF_PX: f64 = 0.75 * MARGIN_PX as f64;

/// How far the middle of `quad` lies from that of the cut `cell`, in sides of the cut.
fn sides_apart(cell: &Quad, quad: &Quad) -> f64 {
    let (there, here) = (middle(cell), middle(quad));
    (there[0] - here[0]).hypot(there[1] - here[1]) / side_px(cell)
}

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

/// How far (share of a side) a tile may lie from where the board's grid puts its cell before
/// [`regrid`] cuts it again: nine in ten tiles lie nearer their cells (3 mm).
const REGRID_OFF: f64 = 0.07;

/// The homography from grid units (cell (x, y) spans x..x+1, y..y+1) to the picture that the
/// corners of the most tiles `found` agree with (RANSAC, a corner counting where it lies within
/// [`GRID_AGREE`] of a side of the fit); `None` for fewer than [`GRID_TILES`] tiles.
fn board_grid(found: &BTreeMap<Pos, Quad>) -> opencv::Result<Option<[[f64; 3]; 3]>> {
    if found.len() < GRID_TILES {
        return Ok(None);
    }
    let mut grid = Vector::<Point2f>::new();
    let mut image = Vector::<Point2f>::new();
    for (pos, quad) in found {
        for (k, (dx, dy)) in [(0, 0), (1, 0), (1, 1), (0, 1)].iter().enumerate() {
            grid.push(Point2f::new((pos.x + dx) as f32, (pos.y + dy) as f32));
            image.push(Point2f::new(quad[k][0] as f32, quad[k][1] as f32));
        }
    }
    let side = found.values().map(side_px).sum::<f64>() / found.len() as f64;
    let m = opencv::calib3d::find_homography(
        &grid,
        &image,
        &mut Mat::default(),
        opencv::calib3d::RANSAC,
        GRID_AGREE * side,
    )?;
    if m.empty() {
        return Ok(None);
    }
    Ok(Some(homography_of(&m)?))
}

/// Cell `pos`'s corners (NW, NE, SE, SW) on a `grid` from [`board_grid`].
fn grid_cell(grid: &[[f64; 3]; 3], pos: Pos) -> Quad {
    [(0, 0), (1, 0), (1, 1), (0, 1)]
        .map(|(dx, dy)| apply_homography(grid, [f64::from(pos.x + dx), f64::from(pos.y + dy)]))
}

/// Fewest tiles (the start tile included) [`board_grid`] fits a grid to.
const GRID_TILES: usize = 6;

/// How near (share of a side) a corner must lie to the board's grid to count for it: tiles lie
/// up to some 0.09 of a side off their cells.
const GRID_AGREE: f64 = 0.08;

/// How far (share of a side) a tile may lie from where its final neighbours predict it before
/// [`settle`] cuts it again: tiles lie a few millimetres off their cells, some 0.05 of a side.
const SETTLE_OFF: f64 = 0.05;

/// A cell's cut read ([`read_cut`]).
#[derive(Clone)]
struct CutRead {
    /// How well its best readings match.
    found_at: Match,
    /// The tile as found (at a quad shifted to where the print lies).
    tile: Located,
}

/// The cell at `pos` cut at `quad` read; `None` where the cut shows table.
fn read_cut(
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
        super::rectify::out_of_view(&to_patch, MARGIN_PX, [frame.cols(), frame.rows()])?;
    // Figures are looked for only where they might matter.
    if table_whatever_figures(&patch, model, table, out_of_view.as_ref())? {
        return Ok(None);
    }
    let (mask, standing) = match figures {
        Some((e, rise)) => {
            let (mask, blobs) = e.find_in_cell(frame, quad, &patch, model)?;
            (Some(mask), Some(Figures::from_blobs(&blobs, rise)))
        }
        None => (None, None),
    };
    let shows = what_cell_shows(&patch, model, table, mask.as_ref(), out_of_view.as_ref())?;
    if shows == CellShows::Table {
        return Ok(None);
    }
    let unseen = super::rectify::unseen(mask.as_ref(), out_of_view.as_ref())?;
    // Where the table shows inside a cut, the cut lies off its tile.
    let on_table = super::table::table_mask(&patch, table, model)?;
    let (candidates, shift, found_at) = recognizer.recognize_in_view(
        &patch,
        MARGIN_PX as usize,
        model,
        (mask.as_ref(), out_of_view.as_ref(), on_table.as_ref()),
        Some(super::rectify::side_px(quad)),
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
fn overlaps(quad: &Quad, found: &BTreeMap<Pos, Quad>, apart: f64) -> bool {
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
const APART: f64 = 0.7;

/// How near (in tile sides) a tile found where its cut shows the table's colours may lie to a
/// tile found ([`CutRead::lies_over`]): a patch of wooden table between three city sides, cut
/// a quarter of a side into the tile below it, fitted a city on three sides with that tile's
/// field as its own (`eval vision` 14700 board 25). Tiles lie some 0.9 of a side apart and
/// more; asked of every cut, 0.8 cost seven of the eight 2nd-edition art sets 0.1 to 0.7
/// points a tile (its busy print fits tiles a quarter of a side off before the board's grid
/// sets them right).
const APART_SHOWING_TABLE: f64 = 0.8;

/// How often a cell is tried in all ([`read_board`]).
const TRIES: u32 = 2;

/// The least probability a reading needs to vouch for a tile in [`fits_neighbours`].
const PLAUSIBLE: f64 = 1e-3;

/// Whether some plausible reading of the cell at `pos` matches the edges of the tiles already
/// found beside it, in some plausible reading of theirs: of every one, or of all but one where
/// it has two or more. A patch of table or clutter that only looks like a tile, or a cut half a
/// tile off, rarely matches two; a neighbour read wrong with confidence (on busy art a city
/// corner taken for a full side) must not shut the cells beyond it off the board: the rules
/// priors settle which of the two is wrong ([`super::board::consistent_board`]).
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
        let with_twins: f64 = fitting
            .iter()
            .filter(|c| c.tile == best.tile && same_for_the_rules(c.tile, c.rot, best.rot))
            .map(|c| c.probability)
            .sum();
        if best.probability > TOLD_ROTATION * with_twins {
            with_twins / total
        } else {
            best.probability / total
        }
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
    /// is read surely as a tile with a road, which no patch of table shows: `eval vision` 15900
    /// board 4, a city tile on three sides on a red-checked cloth, beside one tile), one of
    /// which does not show them: a patch of table, read as a city, matches any city side beside
    /// it, and a row of such patches each other (a wooden table's stripes beside the brown
    /// cities of a simulated style; a red-checked table between three city sides, `eval vision`
    /// 12500 board 8, read C with a poor fit). A city tile not read surely beside its only
    /// neighbour is found once the board leaps over it ([`leap`]).
    fn fits_neighbours(&self, found: &[Located]) -> bool {
        let (candidates, pos) = (&self.tile.candidates, self.tile.pos);
        let least = match self.tile.shows {
            CellShows::Tile => return fits_neighbours(candidates, pos, found),
            CellShows::TableColours if self.is_sure(found) => 1,
            CellShows::TableColours => 2,
            CellShows::MostlyTable | CellShows::Table if self.found_at.fit < SURE_FIT => {
                return false
            }
            CellShows::MostlyTable
                if self.is_sure(found)
                    && plausible_fitting(candidates, pos, found)
                        .first()
                        .is_some_and(|c| has_road(c)) =>
            {
                1
            }
            CellShows::MostlyTable | CellShows::Table => ENCLOSED,
        };
        let unlike_the_table = found
            .iter()
            .any(|l| l.shows == CellShows::Tile && Dir::ALL.iter().any(|&d| l.pos == pos.step(d)));
        let (neighbours, disagreeing) = disagreeing_neighbours(candidates, pos, found);
        unlike_the_table && neighbours >= least && disagreeing == 0
    }

    /// Whether its tile would lie over one of the tiles `located` ([`overlaps`]): nearer than
    /// [`APART`] to one, or [`APART_SHOWING_TABLE`] where the cut shows the table's colours.
    fn lies_over(&self, located: &BTreeMap<Pos, Quad>) -> bool {
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
    fn replaces(
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
mod tests {
    use super::*;
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
        let all_city = CutRead {
            found_at: fitting_surely(),
            tile: Located {
                shows: CellShows::MostlyTable,
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

    /// Tile `name` read surely (at rotation 0) in cell (x, y), 100 pixels a side.
    /// How a cut read surely, where it was cut, matched.
    fn fitting_surely() -> Match {
        Match {
            fit: -0.2,
            score: -20.0,
            off_cut: 0.0,
            on_table: 0.0,
        }
    }

    fn read_surely(x: i32, y: i32, name: &str) -> Located {
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
    fn the_board_s_grid_follows_the_tiles_that_agree_and_not_one_found_far_off() {
        // Twelve tiles of 100 pixels on a grid seen from above; one found 30 pixels off.
        let mut found: BTreeMap<Pos, Quad> = (0..4)
            .flat_map(|x| (0..3).map(move |y| (x, y)))
            .map(|(x, y)| {
                let quad = square(f64::from(x) * 100.0 + 50.0, f64::from(y) * 100.0 + 20.0);
                (Pos::new(x, y), quad)
            })
            .collect();
        found.insert(Pos::new(2, 1), square(280.0, 120.0));
        let grid = board_grid(&found).unwrap().unwrap();
        for (x, y) in [(2, 1), (0, 0), (4, 3)] {
            let at = apply_homography(&grid, [f64::from(x), f64::from(y)]);
            let truth = [f64::from(x) * 100.0 + 50.0, f64::from(y) * 100.0 + 20.0];
            assert!(
                (at[0] - truth[0]).hypot(at[1] - truth[1]) < 0.5,
                "({x}, {y}) at {at:?}"
            );
        }
        // Too few tiles to tell the board's grid.
        let few: BTreeMap<Pos, Quad> = found.into_iter().take(GRID_TILES - 1).collect();
        assert_eq!(board_grid(&few).unwrap(), None);
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

    #[test]
    fn a_tile_is_cut_again_where_unsure_or_a_little_unsure_of_its_roads_and_cities() {
        let reading = |cands: &[(&str, Rotation, f64)]| -> Vec<Candidate> {
            cands
                .iter()
                .map(|&(name, rot, probability)| Candidate {
                    tile: catalogue().tile_id(name).unwrap(),
                    rot,
                    probability,
                })
                .collect()
        };
        // City on three sides with or without a road on the fourth: a road stub a figure hides.
        assert!(worth_polishing(&reading(&[
            ("R", Rotation::R90, 0.95),
            ("T", Rotation::R90, 0.05)
        ])));
        // The same two readings, the likelier sure enough.
        assert!(!worth_polishing(&reading(&[
            ("R", Rotation::R90, 0.995),
            ("T", Rotation::R90, 0.005)
        ])));
        // A pennant, or which way round the city across the tile lies: the sides show the same,
        // so only a reading much less sure is cut again.
        assert!(!worth_polishing(&reading(&[
            ("M", Rotation::R90, 0.95),
            ("N", Rotation::R90, 0.05)
        ])));
        assert!(!worth_polishing(&reading(&[
            ("F", Rotation::R0, 0.95),
            ("F", Rotation::R180, 0.04),
            ("E", Rotation::R0, 0.001)
        ])));
        assert!(worth_polishing(&reading(&[
            ("M", Rotation::R90, 0.52),
            ("N", Rotation::R90, 0.48)
        ])));
        // A third reading counts where it is likely enough.
        assert!(worth_polishing(&reading(&[
            ("M", Rotation::R0, 0.93),
            ("N", Rotation::R0, 0.05),
            ("P", Rotation::R0, 0.02)
        ])));
    }

    #[test]
    fn a_cut_is_nudged_one_side_at_a_time_and_turned_about_its_middle() {
        let square: Quad = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
        let cuts = nudged(&square);
        assert_eq!(cuts.len(), 10);
        let (d, e) = (100.0 * NUDGE, 100.0 - 100.0 * NUDGE);
        let near =
            |a: &Quad, b: Quad| (0..4).all(|k| (0..2).all(|i| (a[k][i] - b[k][i]).abs() < 1e-9));
        // The north side out: its corners move north, the south ones stay.
        assert!(near(
            &cuts[0],
            [[0.0, -d], [100.0, -d], [100.0, 100.0], [0.0, 100.0]]
        ));
        // The east side in; the south side out; the west side in.
        assert!(near(
            &cuts[3],
            [[0.0, 0.0], [e, 0.0], [e, 100.0], [0.0, 100.0]]
        ));
        assert!(near(
            &cuts[4],
            [
                [0.0, 0.0],
                [100.0, 0.0],
                [100.0, 100.0 + d],
                [0.0, 100.0 + d]
            ]
        ));
        assert!(near(
            &cuts[7],
            [[d, 0.0], [100.0, 0.0], [100.0, 100.0], [d, 100.0]]
        ));
        for turned in &cuts[8..] {
            assert!((middle(turned)[0] - 50.0).abs() < 1e-9);
            assert!((side_px(turned) - 100.0).abs() < 1e-6);
            let tilt = (turned[1][1] - turned[0][1]).atan2(turned[1][0] - turned[0][0]);
            assert!((tilt.to_degrees().abs() - NUDGE_TURN_DEG).abs() < 1e-9);
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

//! Tile recognition: the type and rotation of a tile from its rectified picture, as a calibrated
//! probability over every catalogue type × rotation.

use opencv::core::Mat;

use std::sync::{Arc, Mutex};

use super::colours::ColourModel;
use super::edges::{edge_kinds, EdgeEvidence};
use super::pennant::ShieldMap;
use super::standing::Figures;
use super::terrain::{expected_grid, ClassMap, TerrainGrid};
use crate::rules::{catalogue, EdgeKind, FeatureKind, Rotation, TileId, TileSet};

/// Evidence on the window (x, y, side pixels) of a patch.
type Window<T> = (T, usize, usize, usize);

/// Templates as a colour model sees them, with the mix they were made for.
type Looks = ([[f32; 5]; 5], Arc<Vec<TerrainGrid>>);

/// One reading of a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Tile type.
    pub tile: TileId,
    /// Rotation.
    pub rot: Rotation,
    /// Probability (all candidates of a reading sum to 1).
    pub probability: f64,
}

/// Matches terrain grids against every tile type and rotation of the catalogue.
pub struct TileRecognizer {
    templates: Vec<(TileId, Rotation, TerrainGrid)>,
    /// The sides of each template.
    edges: Vec<[EdgeKind; 4]>,
    /// The templates as the last colour model sees them ([`ColourModel::mix`]).
    looks: Mutex<Option<Looks>>,
    /// Log prior of each template: how often the box holds its type, times the share of
    /// rotations that look like it.
    log_prior: Vec<f64>,
    /// How sharply scores turn into probabilities (fitted on simulated data).
    sharpness: f64,
}

impl TileRecognizer {
    /// Templates for the tiles of a tile set; rotations that look the same are kept once.
    pub fn for_set(set: &TileSet) -> TileRecognizer {
        let mut templates: Vec<(TileId, Rotation, TerrainGrid)> = Vec::new();
        let mut prior: Vec<f64> = Vec::new();
        for &(id, count) in &set.counts {
            for rot in Rotation::ALL {
                let grid = expected_grid(id, rot);
                let share = f64::from(count) / 4.0;
                match templates
                    .iter()
                    .position(|(t, _, g)| *t == id && g == &grid)
                {
                    Some(k) => prior[k] += share,
                    None => {
                        templates.push((id, rot, grid));
                        prior.push(share);
                    }
                }
            }
        }
        TileRecognizer {
            edges: templates
                .iter()
                .map(|(t, r, _)| edge_kinds(*t, *r))
                .collect(),
            looks: Mutex::new(None),
            templates,
            log_prior: prior.iter().map(|p| p.max(1e-3).ln()).collect(),
            sharpness: 0.35,
        }
    }

    /// Every candidate for a patch showing one tile (north up), most likely first.
    pub fn recognize(&self, patch: &Mat, model: &ColourModel) -> opencv::Result<Vec<Candidate>> {
        let map = ClassMap::new(patch, model, None)?;
        let side = map.width().min(map.height());
        let shields = || {
            Ok(ShieldMap::new(patch, None, model.light_balance())?
                .with_city_print(model.shield_blob(), model.roof_blue()))
        };
        let edges = EdgeEvidence::observe(&map, 0, 0, side).with_road_full(model.road_full());
        self.rank_with(
            &similarities(&self.looks(model), &map.grid(0, 0, side)),
            &edges,
            (&shields, 0, 0, side),
            None,
        )
        .map(|(ranked, _)| ranked)
    }

    /// Reads a tile that may lie a little off its cell: `patch` shows the cell with `margin`
    /// pixels of surroundings on every side; pixels under `figures` (255) do not count. The
    /// likeliest readings of the centred window are tried at every shift of up to `margin`
    /// pixels, and all candidates are ranked at the best shift (where the likeliest reading
    /// there is unsure, at the best shift of the other types if that ranks higher).
    pub fn recognize_shifted(
        &self,
        patch: &Mat,
        margin: usize,
        model: &ColourModel,
        figures: Option<&Mat>,
    ) -> opencv::Result<Vec<Candidate>> {
        Ok(self.recognize_located(patch, margin, model, figures)?.0)
    }

    /// Like [`TileRecognizer::recognize_shifted`], also giving the shift (x, y pixels from the
    /// centred cut) at which the tile was found, and how well the best reading fits (mean log
    /// overlap per seen grid cell: 0 is perfect, table or clutter scores far below).
    pub fn recognize_located(
        &self,
        patch: &Mat,
        margin: usize,
        model: &ColourModel,
        figures: Option<&Mat>,
    ) -> opencv::Result<(Vec<Candidate>, [f64; 2], f64)> {
        let masks = CutMasks {
            figures,
            ..CutMasks::default()
        };
        let (ranked, shift, found) =
            self.recognize_in_view(patch, margin, model, masks, None, None)?;
        Ok((ranked, shift, found.fit))
    }

    /// [`Self::recognize_located`] with all that `masks` tells of the cut (a cell partly
    /// outside the picture, the table beside it, the ends of figures over its sides). `tile_px`:
    /// how many pixels across the cell was in the picture, if known (small details such as
    /// shields show less surely in a small one). `standing`: where the figures stand, if known
    /// better than the figure mask tells (from their blobs, [`Figures::from_blobs`]).
    pub fn recognize_in_view(
        &self,
        patch: &Mat,
        margin: usize,
        model: &ColourModel,
        masks: CutMasks<'_>,
        tile_px: Option<f64>,
        standing: Option<&Figures>,
    ) -> opencv::Result<(Vec<Candidate>, [f64; 2], Match)> {
        let CutMasks {
            figures,
            out_of_view,
            table,
            with_ends,
        } = masks;
        let unseen = super::rectify::unseen(figures, out_of_view)?;
        let unseen = unseen.as_ref();
        let map = ClassMap::new(patch, model, unseen)?;
        // The sides are read without the ends of figures on the next cells too, and so are
        // shields: a blue figure's top reaching over from the next tile is no shield.
        let unseen_with_ends = match with_ends {
            Some(ends) => super::rectify::unseen(Some(ends), out_of_view)?,
            None => None,
        };
        let sides_map = match &unseen_with_ends {
            Some(unseen) => Some(ClassMap::new(patch, model, Some(unseen))?),
            None => None,
        };
        let sides_map = sides_map.as_ref().unwrap_or(&map);
        let side = map.width().min(map.height()).saturating_sub(2 * margin);
        let centred = map.grid(margin, margin, side);
        let looks = self.looks(model);
        let feet = standing.map(Figures::standing_feet);
        let observe = |x: usize, y: usize| {
            EdgeEvidence::observe_beside(sides_map, x, y, side, feet.as_deref())
                .with_road_full(model.road_full())
        };
        let shortlist = self.shortlist(&looks, &centred, &observe(margin, margin));
        // Coarse steps over the whole range, then the neighbours of the best; shifts cost a
        // little, so that a poor match does not wander onto a neighbour's print. A shift's
        // score (the best of the templates `among`) is exact where it beats `bar` (the best
        // shift's so far), else some value below.
        let score_at = |among: &[usize], dx: usize, dy: usize, bar: f64| {
            let grid = Observed::of(&map.grid(dx, dy, side));
            let edges = observe(dx, dy);
            let off = (dx as f64 - margin as f64).powi(2) + (dy as f64 - margin as f64).powi(2);
            let cost = SHIFT_COST * off;
            let mut best = f64::MIN;
            for &k in among {
                let sides = EDGE_WEIGHT * edges.log_likelihood(&self.edges[k]);
                // A match whose sum falls below this cannot overtake the best so far, at this
                // shift or any other.
                let floor =
                    ((best.max(bar + cost) - sides) / self.sharpness - GIVE_UP_SLACK) as f32;
                let s = similarity_down_to(&grid, &looks[k], floor) * self.sharpness + sides;
                best = best.max(s);
            }
            best - cost
        };
        let search =
            |among: &[usize]| best_shift(margin, |dx, dy, bar| score_at(among, dx, dy, bar));
        let shields = || {
            ShieldMap::new(
                patch,
                unseen_with_ends.as_ref().or(unseen),
                model.light_balance(),
            )?
            .with_city_print(model.shield_blob(), model.roof_blue())
            .seen_at(tile_px)?
            .with_peeks(figures)
        };
        let from_mask = match standing {
            Some(_) => None,
            None => figures.map(Figures::from_mask).transpose()?,
        };
        // Every candidate ranked with the tile found at `at`.
        let read_at = |at: Shift| -> opencv::Result<ShiftedRead> {
            let grid = map.grid(at.x, at.y, side);
            let seen: f32 = grid.iter().map(|c| c.iter().sum::<f32>()).sum();
            let similar = similarities(&looks, &grid);
            let fitted = shortlist
                .iter()
                .map(|&k| similar[k])
                .fold(f64::MIN, f64::max);
            let fit = fitted / f64::from(seen.max(1.0));
            let edges = observe(at.x, at.y);
            let (ranked, best) = self.rank_with(
                &similar,
                &edges,
                (&shields, at.x, at.y, side),
                standing
                    .or(from_mask.as_ref())
                    .map(|f| (f, at.x, at.y, side)),
            )?;
            let shift = [at.x as f64 - margin as f64, at.y as f64 - margin as f64];
            let off_cut = shift[0].hypot(shift[1]);
            let on_table = match table {
                Some(t) => table_cells(t, out_of_view, at.x, at.y, side)?,
                None => 0.0,
            };
            let on_table_cost = TABLE_CELL * self.sharpness * on_table;
            Ok(ShiftedRead {
                ranked,
                shift,
                found: Match {
                    fit,
                    score: at.score - on_table_cost,
                    off_cut,
                    on_table,
                },
                total: best - SHIFT_COST * off_cut.powi(2) - on_table_cost,
            })
        };
        let first = search(&shortlist);
        let mut read = read_at(first)?;
        // Where the likeliest reading is unsure, the best of the other types may lie elsewhere
        // (a tile a few pixels beyond where its neighbours predict it, the table's wood passing
        // for city where the cut overlaps it): found where it fits best, and ranked there with
        // all the evidence (priors, figures, shields), the better of the two is kept.
        if read
            .ranked
            .first()
            .is_some_and(|c| c.probability < ALT_UNSURE)
        {
            let top = read.ranked[0].tile;
            let others: Vec<usize> = shortlist
                .iter()
                .copied()
                .filter(|&k| self.templates[k].0 != top)
                .collect();
            if !others.is_empty() {
                let second = search(&others);
                if second.x.abs_diff(first.x).max(second.y.abs_diff(first.y)) >= ALT_APART {
                    let alt = read_at(second)?;
                    if alt.total > read.total {
                        read = alt;
                    }
                }
            }
        }
        Ok((read.ranked, read.shift, read.found))
    }

    /// The templates as `model` sees them: each catalogue terrain mixed into what the start tile
    /// showed of it ([`ColourModel::mix`]); made once per model.
    fn looks(&self, model: &ColourModel) -> Arc<Vec<TerrainGrid>> {
        let mut cache = self.looks.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((mix, looks)) = cache.as_ref() {
            if mix == model.mix() {
                return looks.clone();
            }
        }
        let mix = model.mix();
        let looks: Arc<Vec<TerrainGrid>> = Arc::new(
            self.templates
                .iter()
                .map(|(_, _, g)| {
                    g.iter()
                        .map(|cell| {
                            let mut out = [0.0f32; 5];
                            for (share, row) in cell.iter().zip(mix) {
                                for (o, m) in out.iter_mut().zip(row) {
                                    *o += share * m;
                                }
                            }
                            out
                        })
                        .collect()
                })
                .collect(),
        );
        *cache = Some((*mix, looks.clone()));
        looks
    }

    /// The [`SHORTLIST`] templates (indices) whose readings [`Self::rank_with`] would rank
    /// first from `observed` and what its `edges` show, most likely first; the others' matches
    /// are given up once they fall behind.
    fn shortlist(
        &self,
        looks: &[TerrainGrid],
        observed: &TerrainGrid,
        edges: &EdgeEvidence,
    ) -> Vec<usize> {
        let observed = Observed::of(observed);
        let mut best: Vec<(f64, usize)> = Vec::with_capacity(SHORTLIST + 1);
        for (k, ((g, sides), p)) in looks
            .iter()
            .zip(&self.edges)
            .zip(&self.log_prior)
            .enumerate()
        {
            let sides = edges.log_likelihood(sides);
            let floor = match best.get(SHORTLIST - 1) {
                Some((last, _)) => {
                    ((last - p - EDGE_WEIGHT * sides) / self.sharpness - GIVE_UP_SLACK) as f32
                }
                None => f32::NEG_INFINITY,
            };
            let score =
                similarity_down_to(&observed, g, floor) * self.sharpness + p + EDGE_WEIGHT * sides;
            // After those that score as well: the first of equals stays first.
            let at = best.partition_point(|(b, _)| *b >= score);
            if at < SHORTLIST {
                best.insert(at, (score, k));
                best.truncate(SHORTLIST);
            }
        }
        best.into_iter().map(|(_, k)| k).collect()
    }

    /// Every candidate for an observed terrain grid (`similar`: its [`similarity`] to each
    /// template as a colour model sees it), most likely first; with what the sides show, and
    /// the pennant detector's evidence and where figures stand ([`Figures`]) on the window (x,
    /// y, side) of the patch, for the readings that are in the running. The pennant detector's
    /// map is made only where a reading in the running has a city. Also gives the likeliest
    /// reading's whole score (log scale, before normalising).
    fn rank_with(
        &self,
        similar: &[f64],
        edges: &EdgeEvidence,
        (shields, x, y, side): Window<&dyn Fn() -> opencv::Result<ShieldMap>>,
        standing: Option<Window<&Figures>>,
    ) -> opencv::Result<(Vec<Candidate>, f64)> {
        let mut scores: Vec<f64> = similar
            .iter()
            .zip(&self.edges)
            .zip(&self.log_prior)
            .map(|((similar, sides), p)| {
                let sides = edges.log_likelihood(sides);
                similar * self.sharpness + p + EDGE_WEIGHT * sides
            })
            .collect();
        let has_city = |t: TileId| {
            let features = &catalogue().tile(t).features;
            features.iter().any(|f| f.kind == FeatureKind::City)
        };
        if self.any_in_running(&scores, has_city) {
            let map = shields()?;
            self.add_in_running(&mut scores, |t, r| map.log_likelihood(t, r, x, y, side));
        }
        if let Some((figures, x, y, side)) = standing {
            self.add_in_running(&mut scores, |t, r| {
                FIGURE_WEIGHT * figures.log_likelihood(t, r, x, y, side)
            });
        }
        let best = scores.iter().copied().fold(f64::MIN, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (s - best).exp()).collect();
        let total: f64 = weights.iter().sum();
        let mut out: Vec<Candidate> = self
            .templates
            .iter()
            .zip(weights)
            .map(|((tile, rot, _), w)| Candidate {
                tile: *tile,
                rot: *rot,
                probability: w / total,
            })
            .collect();
        out.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        Ok((out, best))
    }

    /// Whether some reading in the running (within [`IN_THE_RUNNING`] of the best) is of a
    /// tile `that` holds for.
    fn any_in_running(&self, scores: &[f64], that: impl Fn(TileId) -> bool) -> bool {
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        scores
            .iter()
            .zip(&self.templates)
            .any(|(s, (tile, _, _))| *s > top - IN_THE_RUNNING && that(*tile))
    }

    /// Adds `evidence(tile, rot)` to the scores of the readings in the running (within
    /// [`IN_THE_RUNNING`] of the best).
    fn add_in_running(&self, scores: &mut [f64], evidence: impl Fn(TileId, Rotation) -> f64) {
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        for (s, (tile, rot, _)) in scores.iter_mut().zip(&self.templates) {
            if *s > top - IN_THE_RUNNING {
                *s += evidence(*tile, *rot);
            }
        }
    }
}

/// A shift of the window over a cut (its top-left corner, patch pixels) and the shift search's
/// score there.
#[derive(Clone, Copy)]
struct Shift {
    score: f64,
    x: usize,
    y: usize,
}

/// A cut read with the window at one shift.
struct ShiftedRead {
    ranked: Vec<Candidate>,
    shift: [f64; 2],
    found: Match,
    /// The likeliest reading's whole score there, less the shift's and the table's costs.
    total: f64,
}

/// The best shift of a window over a cut with `margin` pixels on every side, where `score_at`
/// (x, y, bar) scores the window's top-left corner at (x, y), exactly where that beats `bar`.
/// Each shift is scored once: a coarse grid, then steps of half and one pixel around the best
/// so far while that climbs. The bar only rises, so a score kept from a lower one compares with
/// it as the exact score would.
fn best_shift(margin: usize, mut score_at: impl FnMut(usize, usize, f64) -> f64) -> Shift {
    let span = 2 * margin + 1;
    let mut scored: Vec<Option<f64>> = vec![None; span * span];
    let mut score = |dx: usize, dy: usize, bar: f64| {
        *scored[dy * span + dx].get_or_insert_with(|| score_at(dx, dy, bar))
    };
    let mut best = Shift {
        score: score(margin, margin, f64::MIN),
        x: margin,
        y: margin,
    };
    let coarse = (margin / 2).max(1);
    for dy in (0..=2 * margin).step_by(coarse) {
        for dx in (0..=2 * margin).step_by(coarse) {
            let s = score(dx, dy, best.score);
            if s > best.score {
                best = Shift {
                    score: s,
                    x: dx,
                    y: dy,
                };
            }
        }
    }
    let mut step = coarse / 2;
    while step > 0 {
        let (cx, cy) = (best.x, best.y);
        for (ox, oy) in super::AROUND {
            let (dx, dy) = (cx as i64 + ox * step as i64, cy as i64 + oy * step as i64);
            if !(0..span as i64).contains(&dx) || !(0..span as i64).contains(&dy) {
                continue;
            }
            let s = score(dx as usize, dy as usize, best.score);
            if s > best.score {
                best = Shift {
                    score: s,
                    x: dx as usize,
                    y: dy as usize,
                };
            }
        }
        if (best.x, best.y) == (cx, cy) {
            step /= 2;
        }
    }
    best
}

/// Probability below which the likeliest reading of a cut counts as unsure, so that the best
/// of the other types is looked for wherever it fits best ([`TileRecognizer::recognize_in_view`]).
const ALT_UNSURE: f64 = 0.7;
/// How far (patch pixels, either way) the best of the other types must lie from the likeliest
/// reading's shift to be ranked there too.
const ALT_APART: usize = 3;

/// What a cut of a cell shows besides the tile's print ([`TileRecognizer::recognize_in_view`]):
/// each 255 where it holds.
#[derive(Clone, Copy, Default)]
pub struct CutMasks<'a> {
    /// Figures cover the tile there: not seen.
    pub figures: Option<&'a Mat>,
    /// Outside the picture: not seen, and holding nothing.
    pub out_of_view: Option<&'a Mat>,
    /// The table shows ([`super::table::table_mask`]), which costs a cut's score where it
    /// lies inside the tile's square as found.
    pub table: Option<&'a Mat>,
    /// `figures` with the ends of figures on the next cells reaching over the sides
    /// ([`super::figures::CellFigures::with_ends`]): what the sides show, and shields, are read
    /// without them.
    pub with_ends: Option<&'a Mat>,
}

/// How well a cut of a cell matched its best readings where the shift search left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Match {
    /// The best reading's terrain match per seen grid cell ([`TileRecognizer::recognize_located`]).
    pub fit: f64,
    /// The shift search's best score: terrain match, sides and the cost of the shift together,
    /// less the cost of the table inside the tile's square where it was found ([`TABLE_CELL`]).
    /// Of two cuts of one cell, the one scoring higher lies truer more often than the one that
    /// fits better.
    pub score: f64,
    /// How far (patch pixels) the tile was found off the cut: the score paid [`SHIFT_COST`]
    /// per pixel squared for it.
    pub off_cut: f64,
    /// Grid cells' worth of the table inside the tile's square where it was found: the score
    /// paid [`TABLE_CELL`] (before sharpness) for each.
    pub on_table: f64,
}

impl Match {
    /// The score the tile found would have had, had the cut been `off` patch pixels from it.
    pub fn score_if_cut_off(&self, off: f64) -> f64 {
        self.score + SHIFT_COST * (self.off_cut.powi(2) - off.powi(2))
    }
}

/// An observed terrain grid made ready to match against every template: the cells seen enough
/// to count, each with how much of it was seen and its terrain shares of what was.
struct Observed {
    cells: Vec<(usize, f32, [f32; 5])>,
}

impl Observed {
    fn of(grid: &TerrainGrid) -> Observed {
        let cells = grid
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let seen: f32 = o.iter().sum();
                (seen >= 0.2).then(|| (i, seen, o.map(|a| a / seen)))
            })
            .collect();
        Observed { cells }
    }
}

/// How well an observed grid fits a template: the log of the overlap of the two terrain
/// distributions, summed over the grid's cells (0 for a perfect match), each cell weighted by
/// how much of it was seen.
fn similarity(observed: &Observed, template: &TerrainGrid) -> f64 {
    similarity_down_to(observed, template, f32::NEG_INFINITY)
}

/// The [`similarity`] of a terrain grid to each of `looks`.
fn similarities(looks: &[TerrainGrid], grid: &TerrainGrid) -> Vec<f64> {
    let observed = Observed::of(grid);
    looks.iter().map(|g| similarity(&observed, g)).collect()
}

/// [`similarity`], given up once the sum has fallen below `floor` (every cell adds zero or
/// less, so it can only fall further): then some value below `floor`.
fn similarity_down_to(observed: &Observed, template: &TerrainGrid, floor: f32) -> f64 {
    let log = log_overlap_table();
    let mut total = 0.0f32;
    for &(i, seen, o) in &observed.cells {
        let overlap: f32 = o.iter().zip(&template[i]).map(|(a, b)| a.min(*b)).sum();
        // Through i32: a cheaper conversion than straight to usize, for the same whole number.
        let k = (overlap.clamp(0.0, 1.0) * LOG_STEPS as f32) as i32 as usize;
        total += seen * log[k];
        if total < floor {
            break;
        }
    }
    f64::from(total)
}

/// What a grid cell's worth of the table inside a tile's square costs a cut's score, before
/// sharpness: a cell matching nothing (−ln 0.08, [`log_overlap_table`]'s floor), for no tile
/// shows the table.
const TABLE_CELL: f64 = 2.526;

/// Grid cells' worth of the table's pixels (`table`, 255; less those out of view) in the
/// `side`-pixel square window at (x, y) of a patch. Pixels under figures count too: the table
/// beyond the board, as dark as a black figure's paint, may pass for a figure.
fn table_cells(
    table: &Mat,
    out_of_view: Option<&Mat>,
    x: usize,
    y: usize,
    side: usize,
) -> opencv::Result<f64> {
    use opencv::prelude::{MatTraitConst, MatTraitConstManual};
    let (w, h) = (table.cols().max(0) as usize, table.rows().max(0) as usize);
    let on = table.data_bytes()?;
    let hidden = out_of_view.map(|u| u.data_bytes()).transpose()?;
    let n = (y.min(h)..(y + side).min(h))
        .flat_map(|yy| (x.min(w)..(x + side).min(w)).map(move |xx| yy * w + xx))
        .filter(|&k| on[k] != 0 && hidden.is_none_or(|u| u[k] == 0))
        .count();
    let cell = (side as f64 / super::terrain::GRID as f64).powi(2).max(1.0);
    Ok(n as f64 / cell)
}

/// How far (in similarity) below the bound a match must fall before it is given up: more than
/// the bound's rounding, so that a match given up could not have been the best.
const GIVE_UP_SLACK: f64 = 1e-3;

const LOG_STEPS: usize = 1024;

/// Readings the search for where a tile lies off its cut tries ([`TileRecognizer::shortlist`]).
const SHORTLIST: usize = 12;

/// Cost (log-likelihood) of a tile found one patch pixel off its cut, squared: placement errors
/// are a few pixels, a neighbour's print lies at the margin's end.
const SHIFT_COST: f64 = 0.05;

/// Weight of the sides' evidence ([`EdgeEvidence`]) against the whole-tile match.
const EDGE_WEIGHT: f64 = 3.0;

/// Weight of where figures stand ([`Figures`]) against the rest: more than the terrain's own
/// weight now that most figures' poses are told (`eval vision --dataset DIR`, full read: 1.0 →
/// 1.5 mended a tile each at 9400, 10200 and art 6000 and lost none on 15 sets; 2.0 lost a tile
/// each at art 2000 and 12100).
pub(super) const FIGURE_WEIGHT: f64 = 1.5;

/// Readings this far (log) below the best are too unlikely for the pennant detector to matter.
const IN_THE_RUNNING: f64 = 12.0;

/// `ln(max(x, 0.08))` for x in steps of 1/1024: overlaps below 0.08 all cost the same, so one
/// hidden cell (under a figure, say) cannot outweigh the rest.
fn log_overlap_table() -> &'static [f32; LOG_STEPS + 1] {
    static TABLE: std::sync::OnceLock<[f32; LOG_STEPS + 1]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0.0f32; LOG_STEPS + 1];
        for (k, v) in t.iter_mut().enumerate() {
            *v = (k as f32 / LOG_STEPS as f32).max(0.08).ln();
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_scored_as_if_cut_elsewhere_pays_for_lying_off_that_cut_instead() {
        // Found 3 patch pixels off its cut: cut right there, it would have paid nothing.
        let found = Match {
            fit: -0.2,
            score: -10.0,
            off_cut: 3.0,
            on_table: 0.0,
        };
        assert_eq!(found.score_if_cut_off(3.0), -10.0);
        assert!((found.score_if_cut_off(0.0) - (-10.0 + SHIFT_COST * 9.0)).abs() < 1e-12);
        assert!((found.score_if_cut_off(5.0) - (-10.0 - SHIFT_COST * 16.0)).abs() < 1e-12);
    }
    use crate::vision::terrain::GRID;
    use proptest::prelude::*;

    fn terrain_grid() -> impl Strategy<Value = TerrainGrid> {
        prop::collection::vec(prop::array::uniform5(0.0f32..0.4), GRID * GRID)
    }

    proptest! {
        /// A match given up early could not have reached its floor: the sum comes out whole,
        /// or below the floor and no lower than the whole sum.
        #[test]
        fn a_match_is_given_up_only_once_below_its_floor(
            observed in terrain_grid(),
            template in terrain_grid(),
            floor in -700.0f32..0.0,
        ) {
            let observed = Observed::of(&observed);
            let whole = similarity(&observed, &template);
            let given_up = similarity_down_to(&observed, &template, floor);
            prop_assert!(
                given_up == whole || (given_up < f64::from(floor) && whole <= given_up),
                "{given_up} against {whole} with floor {floor}"
            );
        }
    }
}

//! Followers on the tiles, found by the colours the players enrolled: the pixels they cover are
//! kept out of tile recognition.

use opencv::core::{Mat, Scalar};
use opencv::imgproc;
use opencv::prelude::*;

use super::colours::ColourModel;
use super::rectify::{quad_patch, Quad, MARGIN_PX};
use crate::sim::effects::{grow_mask, mask_where};

/// A colour (BGR) with its brightness (channel sum, at least 1) and hue (its channels' shares
/// of that sum).
struct Shade {
    rgb: [f32; 3],
    sum: f32,
    hue: [f32; 3],
}

impl Shade {
    fn of(rgb: [f32; 3]) -> Shade {
        let sum = (rgb[0] + rgb[1] + rgb[2]).max(1.0);
        Shade {
            rgb,
            sum,
            hue: rgb.map(|v| v / sum),
        }
    }
}

/// Whether a figure colour is a coloured paint (matched by hue), not black or grey.
fn saturated(c: [f32; 3]) -> bool {
    let max = c.iter().copied().fold(0.0f32, f32::max).max(1.0);
    let min = c.iter().copied().fold(f32::MAX, f32::min);
    (max - min) / max > 0.35
}

/// Squared distance between two colours (or hues).
fn d2(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>()
}

/// The players' figure colours as the camera sees them under the table's light.
#[derive(Clone, Debug, PartialEq)]
pub struct Enrolment {
    colours: Vec<[f32; 3]>,
    tolerance: f32,
}

impl Enrolment {
    /// Figures of these colours (blue, green, red); a pixel within `tolerance` of one may be a
    /// figure.
    pub fn new(colours: Vec<[f32; 3]>, tolerance: f32) -> Enrolment {
        Enrolment { colours, tolerance }
    }

    /// How close pixel `p` is to enrolled colour `c` (with whether it is [`saturated`]), or
    /// `None` if it is not that figure's paint, and whether it may as well be a terrain in a
    /// figure's shadow. Coloured figures are matched by hue, within `hue_within` (their faces
    /// are lit and shaded differently), and must be nearer the figure's hue than any
    /// terrain's; black and gray ones by plain distance.
    fn closeness(
        &self,
        p: &Shade,
        (c, saturated): &(Shade, bool),
        terrain: &[Shade],
        hue_within: f32,
    ) -> Option<(f32, bool)> {
        if *saturated {
            let ratio = p.sum / c.sum;
            if !(0.35..=1.6).contains(&ratio) {
                return None;
            }
            let d = d2(p.hue, c.hue);
            let nearer = || terrain.iter().all(|t| d < d2(p.hue, t.hue));
            (d < hue_within && nearer()).then_some((d, false))
        } else {
            let d = d2(p.rgb, c.rgb);
            if !(d < self.tolerance * self.tolerance
                && terrain.iter().all(|t| d < d2(p.rgb, t.rgb)))
            {
                return None;
            }
            // A dark pixel of a terrain's own hue is that terrain in a figure's shadow, where
            // the terrain's hue is plainly not the figure's.
            let shadow = |t: &Shade| {
                SHADOW_DEPTH.contains(&(p.sum / t.sum))
                    && d2(t.hue, c.hue) > HUES_APART
                    && d2(p.hue, t.hue) < d2(p.hue, c.hue)
            };
            Some((d / 1e4, terrain.iter().any(shadow)))
        }
    }

    /// The enrolled colours, in player order.
    pub fn colours(&self) -> &[[f32; 3]] {
        &self.colours
    }

    /// 255 where a figure covers the patch: blobs of pixels nearer an enrolled colour than any
    /// terrain of `model`, at least `min_share` of the patch (smaller blobs are print: a shield,
    /// a roof).
    pub fn figure_mask(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
    ) -> opencv::Result<Mat> {
        Ok(self.find(patch, model, min_share)?.0)
    }

    /// The figures in a patch: the covering mask (as [`Enrolment::figure_mask`]) and one blob per
    /// figure.
    pub fn find(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
    ) -> opencv::Result<(Mat, Vec<Blob>)> {
        let found = self.find_with_slivers(patch, model, min_share, false)?;
        Ok((found.mask, found.blobs))
    }

    /// [`Self::find`], with the slivers of figure colours at the patch's border too small for
    /// a figure ([`slivers_at_border`]) if `slivers`.
    fn find_with_slivers(
        &self,
        patch: &Mat,
        model: &ColourModel,
        min_share: f64,
        slivers: bool,
    ) -> opencv::Result<Found> {
        let (w, h) = (patch.cols(), patch.rows());
        let size = (w.max(0) as usize, h.max(0) as usize);
        let patch = patch.try_clone()?;
        let bytes = patch.data_bytes()?;
        let mut nearest = vec![usize::MAX; (w * h) as usize];
        let mut shade = vec![false; (w * h) as usize];
        let terrain: Vec<Shade> = model.means()[..4].iter().map(|&t| Shade::of(t)).collect();
        let colours: Vec<(Shade, bool)> = self
            .colours
            .iter()
            .map(|&c| (Shade::of(c), saturated(c)))
            .collect();
        let mut near_hue = vec![usize::MAX; (w * h) as usize];
        for (k, px) in bytes.chunks_exact(3).enumerate() {
            let p = Shade::of([f32::from(px[0]), f32::from(px[1]), f32::from(px[2])]);
            // The nearest colour whose paint this surely is, and the nearest coloured figure
            // whose hue it is only near.
            let mut sure: Option<(usize, f32, bool)> = None;
            let mut near: Option<(usize, f32)> = None;
            for (i, c) in colours.iter().enumerate() {
                let Some((d, shadow)) = self.closeness(&p, c, &terrain, HUE_BESIDE) else {
                    continue;
                };
                if c.1 && d >= HUE_WITHIN {
                    if near.is_none_or(|n| d < n.1) {
                        near = Some((i, d));
                    }
                } else if sure.is_none_or(|s| d < s.1) {
                    sure = Some((i, d, shadow));
                }
            }
            if let Some((i, _, shadow)) = sure {
                nearest[k] = i;
                shade[k] = shadow;
            } else if let Some((i, _)) = near {
                near_hue[k] = i;
            }
        }
        let min_area = (min_share * f64::from(w * h)) as i32;
        // Figures are found in the paint a little off its hue too, but only the paint matched
        // surely is hidden from the terrain: the print beside a figure may be near its hue.
        let sure = nearest.clone();
        spread_into_near_hues(&mut nearest, &near_hue, size, min_area / 2);
        // Each colour's pixels apart: a figure beside a dark stretch that passes for black, or
        // beside a figure of another colour, stays itself.
        let mut blobs = Vec::new();
        let mut kept = vec![false; (w * h) as usize];
        let parts_of = |nearest: &[usize], colour: usize| -> opencv::Result<_> {
            // Too few pixels of this colour for a figure: nothing to look for.
            let count = nearest.iter().filter(|&&i| i == colour).count();
            if count == 0 || (count as i32) < min_area {
                return Ok(None);
            }
            let own = mask_where(size.0, size.1, nearest.iter().map(|&i| i == colour))?;
            let parts = Parts::of(&own)?;
            let freed = freed_of(&parts, min_area)?;
            Ok(Some((parts, freed)))
        };
        for colour in 0..self.colours.len() {
            let Some((parts, freed)) = parts_of(&nearest, colour)? else {
                continue;
            };
            // Big patches of the colour are kept out of the terrain (figures with their
            // shadows: see `hide_parts`), but only its paint makes figures.
            let shaded = nearest.iter().zip(&shade).any(|(&i, &s)| i == colour && s);
            if shaded {
                let paint = nearest.iter().zip(&shade).map(|(&i, &s)| i == colour && !s);
                let paint = Parts::of(&mask_where(size.0, size.1, paint)?)?;
                let paint_freed = freed_of(&paint, min_area)?;
                figures_among(&paint, &paint_freed, colour, min_area, &mut blobs)?;
            } else {
                figures_among(&parts, &freed, colour, min_area, &mut blobs)?;
            }
            let grew = nearest
                .iter()
                .zip(&sure)
                .any(|(&a, &b)| a == colour && b != colour);
            if !grew {
                hide_parts(&parts, &freed, min_area, &mut kept)?;
            } else if let Some((parts, freed)) = parts_of(&sure, colour)? {
                hide_parts(&parts, &freed, min_area, &mut kept)?;
            }
        }
        let mut found_slivers = Vec::new();
        if slivers {
            for colour in 0..self.colours.len() {
                slivers_at_border(&nearest, colour, size, min_area, &mut found_slivers)?;
            }
        }
        let mask = mask_where(size.0, size.1, kept)?;
        Ok(Found {
            mask: grow_mask(&mask, FIGURE_GROWN)?,
            blobs,
            slivers: found_slivers,
        })
    }
}

/// What [`Enrolment::find_with_slivers`] finds in a patch.
struct Found {
    /// 255 where a figure covers the patch.
    mask: Mat,
    /// One blob per figure.
    blobs: Vec<Blob>,
    /// Parts of a figure colour at the patch's border too small for a figure.
    slivers: Vec<Sliver>,
}

/// A part of an enrolled colour touching a patch's border, too small for a figure: the end of
/// a figure on the next cell that the patch clips, or print.
struct Sliver {
    /// Index of the enrolled colour.
    colour: usize,
    /// Its middle (patch pixels).
    middle: [f64; 2],
    /// 255 on its pixels.
    mask: Mat,
}

/// The least share of [`FIGURE_SHARE`]'s area a part of a figure's colour at the border of a
/// patch covers to be looked at as a figure the patch clips.
const SLIVER_SHARE: i32 = 4;

/// How far (patch pixels) the middle of a figure seen whole lies from the middle of the sliver
/// of it its own cell's patch shows at most: half a figure's length.
const SLIVER_REACH: f64 = 24.0;

/// Adds to `slivers` the parts of enrolled colour `colour` of `nearest` (per pixel of a `size`
/// patch) touching the patch's border, smaller than `min_area` but at least a
/// [`SLIVER_SHARE`] of it.
fn slivers_at_border(
    nearest: &[usize],
    colour: usize,
    size: (usize, usize),
    min_area: i32,
    slivers: &mut Vec<Sliver>,
) -> opencv::Result<()> {
    let least = min_area / SLIVER_SHARE;
    let count = nearest.iter().filter(|&&i| i == colour).count();
    if count == 0 || (count as i32) < least {
        return Ok(());
    }
    let parts = Parts::of(&mask_where(
        size.0,
        size.1,
        nearest.iter().map(|&i| i == colour),
    )?)?;
    for i in 1..parts.len() {
        let area = parts.area(i)?;
        if area < least || area >= min_area {
            continue;
        }
        if parts.clipped(i)? {
            slivers.push(Sliver {
                colour,
                middle: parts.middle(i),
                mask: parts.only(i)?,
            });
        }
    }
    Ok(())
}

/// Hue distance (squared, of [`Shade::hue`]) within which a pixel surely shows a coloured
/// figure's paint.
const HUE_WITHIN: f32 = 0.004;

/// Hue distance within which a pixel shows a coloured figure's paint where it joins paint seen
/// surely ([`spread_into_near_hues`]): a figure's shaded faces, or a light unlike the
/// enrolment's, take its paint a little off the enrolled hue.
const HUE_BESIDE: f32 = 0.006;

/// How far (patch pixels) a figure's paint matched surely spreads into paint only near its hue
/// ([`spread_into_near_hues`]): over a shaded face, not across a field of a like hue.
const SPREAD_PX: usize = 4;

/// Each colour of `nearest` (index per pixel of a `size` patch, `usize::MAX` for none) with
/// at least `seeds` pixels spreads into the pixels beside them (8-connected) whose hue is only
/// near that colour (`near_hue`), and on through those, up to [`SPREAD_PX`] steps: a figure's
/// paint counts a little off its hue where it joins the paint matched surely, but a stretch of
/// print near the hue does not make a figure on its own.
fn spread_into_near_hues(
    nearest: &mut [usize],
    near_hue: &[usize],
    (w, h): (usize, usize),
    seeds: i32,
) {
    let colours = near_hue.iter().filter(|&&i| i != usize::MAX).max();
    let Some(&last) = colours else {
        return;
    };
    for colour in 0..=last {
        let count = nearest.iter().filter(|&&i| i == colour).count();
        if count == 0 || (count as i32) < seeds {
            continue;
        }
        let mut front: Vec<usize> = (0..nearest.len())
            .filter(|&k| nearest[k] == colour)
            .collect();
        for _ in 0..SPREAD_PX {
            let mut next = Vec::new();
            for k in front {
                let (x, y) = ((k % w) as i64, (k / w) as i64);
                for (dx, dy) in super::AROUND {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let n = ny as usize * w + nx as usize;
                    if nearest[n] == usize::MAX && near_hue[n] == colour {
                        nearest[n] = colour;
                        next.push(n);
                    }
                }
            }
            front = next;
        }
    }
}

/// Each of the `parts` of `min_area` pixels or more not shaped like a figure, freed of its long,
/// thin lines ([`Parts::freed`]); `None` for the others.
fn freed_of(parts: &Parts, min_area: i32) -> opencv::Result<Vec<Option<Parts>>> {
    (0..parts.len())
        .map(|i| {
            let other = i > 0 && parts.area(i)? >= min_area && !parts.compact(i)?;
            other.then(|| parts.freed(i)).transpose()
        })
        .collect()
}

/// Marks in `hidden` the pixels of a figure colour's `parts` that the terrain must not see:
/// each part of `min_area` pixels or more shaped like a figure (a figure with its shadow); of
/// any other part (the gaps between tiles, a tile's dark printed rim, with or without a figure
/// touching them), the pieces of that size left once its long, thin lines are taken out
/// (`freed`, from [`freed_of`]), but for a piece reaching across the patch ([`Parts::spans`]:
/// the table beside a tile cut off its place).
fn hide_parts(
    parts: &Parts,
    freed: &[Option<Parts>],
    min_area: i32,
    hidden: &mut [bool],
) -> opencv::Result<()> {
    let big = |p: &Parts, i: usize| -> opencv::Result<bool> { Ok(i > 0 && p.area(i)? >= min_area) };
    let piece = |p: &Parts, i: usize| -> opencv::Result<bool> { Ok(big(p, i)? && !p.spans(i)?) };
    let mark = |p: &Parts, keep: &[bool], hidden: &mut [bool]| -> opencv::Result<()> {
        for (h, &l) in hidden.iter_mut().zip(p.labels.data_typed::<i32>()?) {
            *h |= keep[l.max(0) as usize];
        }
        Ok(())
    };
    let mut whole = vec![false; parts.len()];
    for (i, hide_whole) in whole.iter_mut().enumerate().skip(1) {
        match &freed[i] {
            Some(pieces) => {
                let keep = (0..pieces.len())
                    .map(|j| piece(pieces, j))
                    .collect::<opencv::Result<Vec<bool>>>()?;
                mark(pieces, &keep, hidden)?;
            }
            None => *hide_whole = big(parts, i)?,
        }
    }
    mark(parts, &whole, hidden)
}

/// Adds to `blobs` the figures of enrolled colour `colour` among the `parts` of its paint in a
/// patch: those of `min_area` pixels or more and shaped like a figure. The dark gaps between
/// tiles at a dark table frame a cell like a black figure's paint: a figure touching such a
/// gap is freed from its long, thin lines (`freed`, from [`freed_of`]).
fn figures_among(
    parts: &Parts,
    freed: &[Option<Parts>],
    colour: usize,
    min_area: i32,
    blobs: &mut Vec<Blob>,
) -> opencv::Result<()> {
    for (i, freed) in freed.iter().enumerate().skip(1) {
        if parts.area(i)? < min_area {
            continue;
        }
        let Some(pieces) = freed else {
            blobs.push(parts.blob(i, colour)?);
            continue;
        };
        for j in 1..pieces.len() {
            if pieces.area(j)? >= min_area && pieces.compact(j)? {
                blobs.push(pieces.blob(j, colour)?);
            }
        }
    }
    Ok(())
}

/// The [`Spread`] of each labelled patch of a `w`-pixel wide label image about its `middles`.
fn spreads(labels: &[i32], w: usize, middles: &[[f64; 2]]) -> Vec<Spread> {
    let mut out = vec![Spread::default(); middles.len()];
    let mut counts = vec![0.0; middles.len()];
    for (k, &l) in labels.iter().enumerate() {
        let Some((s, m)) = out
            .get_mut(l.max(0) as usize)
            .zip(middles.get(l.max(0) as usize))
        else {
            continue;
        };
        if l <= 0 {
            continue;
        }
        let (x, y) = ((k % w) as f64 - m[0], (k / w) as f64 - m[1]);
        s.second[0] += x * x;
        s.second[1] += x * y;
        s.second[2] += y * y;
        s.third[0] += x * x * x;
        s.third[1] += x * x * y;
        s.third[2] += x * y * y;
        s.third[3] += y * y * y;
        counts[l as usize] += 1.0;
    }
    for (s, &n) in out.iter_mut().zip(&counts) {
        let n = f64::max(n, 1.0);
        s.second = s.second.map(|v| v / n);
        s.third = s.third.map(|v| v / n);
    }
    out
}

/// The connected patches of a mask, with their sizes, middles and spreads (label 0 is the
/// background).
pub(super) struct Parts {
    labels: Mat,
    stats: Mat,
    middles: Vec<[f64; 2]>,
    spreads: Vec<Spread>,
}

impl Parts {
    /// The 8-connected patches of `mask`'s non-zero pixels.
    pub(super) fn of(mask: &Mat) -> opencv::Result<Parts> {
        let (mut labels, mut stats, mut centroids) =
            (Mat::default(), Mat::default(), Mat::default());
        let n = imgproc::connected_components_with_stats(
            mask,
            &mut labels,
            &mut stats,
            &mut centroids,
            8,
            opencv::core::CV_32S,
        )?;
        let middles = (0..n)
            .map(|i| {
                Ok([
                    *centroids.at_2d::<f64>(i, 0)?,
                    *centroids.at_2d::<f64>(i, 1)?,
                ])
            })
            .collect::<opencv::Result<Vec<_>>>()?;
        let spreads = spreads(
            labels.data_typed::<i32>()?,
            mask.cols().max(1) as usize,
            &middles,
        );
        Ok(Parts {
            labels,
            stats,
            middles,
            spreads,
        })
    }

    /// How many patches there are, counting the background as label 0.
    pub(super) fn len(&self) -> usize {
        self.middles.len()
    }

    /// Patch `i`'s middle (pixels).
    pub(super) fn middle(&self, i: usize) -> [f64; 2] {
        self.middles[i]
    }

    /// One of OpenCV's statistics of patch `i` (`imgproc::CC_STAT_…`).
    pub(super) fn stat(&self, i: usize, which: i32) -> opencv::Result<i32> {
        self.stats.at_2d::<i32>(i as i32, which).copied()
    }

    fn area(&self, i: usize) -> opencv::Result<i32> {
        self.stat(i, imgproc::CC_STAT_AREA)
    }

    /// Part `i` is no more spread out than [`FIGURE_SPREAD`] times a disc of its area, and
    /// does not [`span`](Self::spans) the patch.
    fn compact(&self, i: usize) -> opencv::Result<bool> {
        let [xx, _, yy] = self.spreads[i].second;
        let disc = f64::from(self.area(i)?) / (2.0 * std::f64::consts::PI);
        Ok(xx + yy <= FIGURE_SPREAD * disc && !self.spans(i)?)
    }

    /// Part `i` reaches from one side of the patch to the opposite one: no figure does (one
    /// rising into the patch from the cell below stops well short of the top), while a
    /// dark table beside a tile cut off its place does.
    fn spans(&self, i: usize) -> opencv::Result<bool> {
        let (w, h) = (self.labels.cols(), self.labels.rows());
        let across = self.stat(i, imgproc::CC_STAT_WIDTH)? >= w;
        let down = self.stat(i, imgproc::CC_STAT_HEIGHT)? >= h;
        Ok(across || down)
    }

    /// The parts of part `i` once the long, thin lines of gaps between tiles are taken out of
    /// it ([`without_gap_lines`]).
    fn freed(&self, i: usize) -> opencv::Result<Parts> {
        Parts::of(&without_gap_lines(&self.only(i)?, GAP_LONG, GAP_THIN)?)
    }

    /// A mask of part `i` alone.
    fn only(&self, i: usize) -> opencv::Result<Mat> {
        let mut out = Mat::default();
        opencv::core::compare(
            &self.labels,
            &Scalar::all(i as f64),
            &mut out,
            opencv::core::CMP_EQ,
        )?;
        Ok(out)
    }

    /// Part `i` touches the patch's border: the patch may clip what it shows.
    fn clipped(&self, i: usize) -> opencv::Result<bool> {
        let (w, h) = (self.labels.cols(), self.labels.rows());
        let top = self.stat(i, imgproc::CC_STAT_TOP)?;
        let left = self.stat(i, imgproc::CC_STAT_LEFT)?;
        let bottom = top + self.stat(i, imgproc::CC_STAT_HEIGHT)?;
        let right = left + self.stat(i, imgproc::CC_STAT_WIDTH)?;
        Ok(top <= 0 || left <= 0 || bottom >= h || right >= w)
    }

    /// Part `i` as a figure of enrolled colour `colour`.
    fn blob(&self, i: usize, colour: usize) -> opencv::Result<Blob> {
        let bottom = self.stat(i, imgproc::CC_STAT_TOP)? + self.stat(i, imgproc::CC_STAT_HEIGHT)?;
        Ok(Blob {
            colour,
            centroid: self.middles[i],
            cut_below: bottom >= self.labels.rows(),
            area: self.area(i)? as usize,
            spread: (!self.clipped(i)?).then_some(self.spreads[i]),
        })
    }
}

/// `mask` without its gap lines: pixels in a run of `long` or more along a row or column that
/// cross it in `thin` or fewer. The gaps between tiles run along the patch's sides, long and
/// thin; a figure is shorter, or thicker where a gap runs into it.
fn without_gap_lines(mask: &Mat, long: usize, thin: usize) -> opencv::Result<Mat> {
    let (w, h) = (mask.cols().max(0) as usize, mask.rows().max(0) as usize);
    let on = mask.data_bytes()?;
    // The length of the run each pixel lies in, along rows and along columns.
    let runs = |cells: &mut dyn Iterator<Item = usize>, lengths: &mut [usize]| {
        let mut run = Vec::new();
        for k in cells.chain(std::iter::once(usize::MAX)) {
            if k != usize::MAX && on[k] != 0 {
                run.push(k);
                continue;
            }
            run.iter().for_each(|&r| lengths[r] = run.len());
            run.clear();
        }
    };
    let (mut across, mut down) = (vec![0; on.len()], vec![0; on.len()]);
    for y in 0..h {
        runs(&mut (0..w).map(|x| y * w + x), &mut across);
    }
    for x in 0..w {
        runs(&mut (0..h).map(|y| y * w + x), &mut down);
    }
    let mut result = mask.try_clone()?;
    for ((m, &a), &d) in result.data_bytes_mut()?.iter_mut().zip(&across).zip(&down) {
        if (a >= long && d <= thin) || (d >= long && a <= thin) {
            *m = 0;
        }
    }
    Ok(result)
}

/// How much of a terrain's light its pixels keep in a figure's shadow.
const SHADOW_DEPTH: std::ops::RangeInclusive<f32> = 0.3..=0.9;

/// How far apart (squared distance of colour shares) hues must be to tell a terrain's shadow
/// from a figure's paint.
const HUES_APART: f32 = 0.01;

/// How many times a disc's spread (of the same area) a figure's pixels may spread about their
/// middle: a standing or lying figure is compact, a frame of gaps round a cell is not.
const FIGURE_SPREAD: f64 = 3.0;

/// The shortest run (patch pixels) of a figure's colour along a row or column taken for a gap
/// between tiles: longer than any figure, lying or standing.
const GAP_LONG: usize = 36;

/// The widest (patch pixels) a gap between tiles shows: narrower than a figure.
const GAP_THIN: usize = 10;

/// How far (pixels) a figure's mask reaches beyond its own pixels: figures have soft, shaded
/// edges.
pub const FIGURE_GROWN: i32 = 2;

/// The least share of a cell's patch a figure covers: smaller patches of a player's colour are
/// specks of print or noise.
pub const FIGURE_SHARE: f64 = 0.03;

/// The farthest (patch pixels) the centroid of a figure clipped by its patch lies from where the
/// same figure seen whole has it.
const CLIPPED_SHIFT: f64 = 16.0;

/// Gives each of `blobs` that its patch clips the [`Spread`] and middle of the same figure in
/// `wide`, the blobs of a cut of the same picture `extra` pixels wider each way, where that one
/// is whole: the nearest of its colour, its centroid within [`CLIPPED_SHIFT`].
pub fn complete_outlines(blobs: &mut [Blob], wide: &[Blob], extra: f64) {
    for b in blobs.iter_mut().filter(|b| b.spread.is_none()) {
        let distance = |w: &Blob| {
            (w.centroid[0] - extra - b.centroid[0]).hypot(w.centroid[1] - extra - b.centroid[1])
        };
        let whole = wide
            .iter()
            .filter(|w| w.colour == b.colour && w.spread.is_some() && distance(w) <= CLIPPED_SHIFT)
            .min_by(|v, w| distance(v).total_cmp(&distance(w)));
        if let Some(w) = whole {
            b.spread = w.spread;
            b.centroid = [w.centroid[0] - extra, w.centroid[1] - extra];
        }
    }
}

/// How much wider (pixels each way) a cell is cut again to see a figure reaching past its
/// patch whole: seen at a slant, a standing figure on a far cell shows its top some 0.6 tile
/// beyond its base, and so beyond the side it stands by (cut 24 pixels wider, that top was
/// clipped again on `eval vision --generate 30 --seed 14100`, board 29: the follower's foot,
/// guessed from its clipped outline, fell off its road, and T read R).
const WIDER_PX: i32 = 40;

/// The figures in a cell's patch ([`Enrolment::find_in_cell`]).
pub struct CellFigures {
    /// 255 where a figure covers the patch ([`Enrolment::find`]).
    pub mask: Mat,
    /// `mask` with the ends of figures standing or lying on the next cells that reach over
    /// this cell's sides, too small in its patch to count as figures; `None` where there are
    /// none. What the sides show is read without them: a farmer's end lying over a side
    /// passes for a road crossing it.
    pub with_ends: Option<Mat>,
    /// One blob per figure.
    pub blobs: Vec<Blob>,
}

impl Enrolment {
    /// The figures in `patch`, the cell of `frame` at `quad` cut with [`MARGIN_PX`] around it
    /// ([`Enrolment::find`] with [`FIGURE_SHARE`]). A figure the patch clips is completed
    /// ([`complete_outlines`]) from the cell cut [`WIDER_PX`] wider each way, so that its
    /// outline tells whether it stands or lies; the same wider cut tells which slivers of a
    /// figure's colour at the patch's border are the ends of figures on the next cells.
    pub fn find_in_cell(
        &self,
        frame: &Mat,
        quad: &Quad,
        patch: &Mat,
        model: &ColourModel,
    ) -> opencv::Result<CellFigures> {
        let Found {
            mask,
            mut blobs,
            slivers,
        } = self.find_with_slivers(patch, model, FIGURE_SHARE, true)?;
        let mut found = CellFigures {
            mask,
            with_ends: None,
            blobs: Vec::new(),
        };
        if slivers.is_empty() && blobs.iter().all(|b| b.spread.is_some()) {
            found.blobs = blobs;
            return Ok(found);
        }
        let (wide, _) = quad_patch(frame, quad, MARGIN_PX + WIDER_PX)?;
        let share = FIGURE_SHARE * f64::from(patch.rows() * patch.cols())
            / f64::from((wide.rows() * wide.cols()).max(1));
        let (_, whole) = self.find(&wide, model, share)?;
        complete_outlines(&mut blobs, &whole, f64::from(WIDER_PX));
        found.blobs = blobs;
        // A sliver is a figure's end where the wider cut shows that figure whole beside it,
        // beyond the patch and none of this cell's own (beside those, it is print, or the
        // table).
        let extra = f64::from(WIDER_PX);
        let (w, h) = (f64::from(patch.cols()), f64::from(patch.rows()));
        let own = |colour: usize, [x, y]: [f64; 2]| {
            found.blobs.iter().any(|b| {
                b.colour == colour && (b.centroid[0] - x).hypot(b.centroid[1] - y) <= CLIPPED_SHIFT
            })
        };
        for sliver in &slivers {
            let of_a_figure = whole.iter().any(|b| {
                let [x, y] = [b.centroid[0] - extra, b.centroid[1] - extra];
                let beyond = !((0.0..w).contains(&x) && (0.0..h).contains(&y));
                b.colour == sliver.colour
                    && beyond
                    && !own(b.colour, [x, y])
                    && (x - sliver.middle[0]).hypot(y - sliver.middle[1]) <= SLIVER_REACH
            });
            if of_a_figure {
                let so_far = found.with_ends.as_ref().unwrap_or(&found.mask);
                let end = inside_margin(&grow_mask(&sliver.mask, FIGURE_GROWN)?, MARGIN_PX)?;
                let mut both = Mat::default();
                opencv::core::bitwise_or(so_far, &end, &mut both, &opencv::core::no_array())?;
                found.with_ends = Some(both);
            }
        }
        Ok(found)
    }
}

/// `mask` (of a patch cut with `margin` around its cell) in the cell's square only: where a
/// figure's end lies over the next cell's print, that print is left to tell where the cell
/// lies.
fn inside_margin(mask: &Mat, margin: i32) -> opencv::Result<Mat> {
    let mut out = Mat::zeros(mask.rows(), mask.cols(), mask.typ())?.to_mat()?;
    let (w, h) = (mask.cols() - 2 * margin, mask.rows() - 2 * margin);
    if w > 0 && h > 0 {
        let square = opencv::core::Rect::new(margin, margin, w, h);
        mask.roi(square)?.copy_to(&mut out.roi_mut(square)?)?;
    }
    Ok(out)
}

/// One figure seen in a patch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blob {
    /// Index of the enrolled colour it shows.
    pub colour: usize,
    /// Centre of its pixels (patch pixels): of the whole figure's, where the patch clips it and
    /// a wider cut showed it whole ([`complete_outlines`]).
    pub centroid: [f64; 2],
    /// It reaches the patch's bottom border: the figure goes on below the patch (it stands on
    /// the tile below, and rises into this one's picture).
    pub cut_below: bool,
    /// Pixels.
    pub area: usize,
    /// How its pixels spread about its centroid, if it lies wholly inside the patch.
    pub spread: Option<Spread>,
}

/// How a blob's pixels spread about their centroid: the central moments of second and third
/// order (means over the pixels, in pixels squared and cubed).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// x², xy, y² (about the centroid).
    pub second: [f64; 3],
    /// x³, x²y, xy², y³ (about the centroid).
    pub third: [f64; 4],
}

impl Spread {
    /// The skewness of the pixels along the direction `dir` (need not be unit): positive where
    /// they trail further that way than back, as a standing figure's narrow head trails its
    /// broad base. 0 for a blob with no spread that way.
    pub fn skew_along(&self, dir: [f64; 2]) -> f64 {
        let len = dir[0].hypot(dir[1]);
        if len == 0.0 {
            return 0.0;
        }
        let [x, y] = [dir[0] / len, dir[1] / len];
        let [m30, m21, m12, m03] = self.third;
        let [var, _] = self.variances_along(dir);
        let third =
            x.powi(3) * m30 + 3.0 * x * x * y * m21 + 3.0 * x * y * y * m12 + y.powi(3) * m03;
        if var <= 0.0 {
            return 0.0;
        }
        third / var.powf(1.5)
    }

    /// The variance of the pixels along the direction `dir` (need not be unit; straight down
    /// the patch where it is nought) and across it, in pixels squared.
    pub fn variances_along(&self, dir: [f64; 2]) -> [f64; 2] {
        let len = dir[0].hypot(dir[1]);
        let [x, y] = if len == 0.0 {
            [0.0, 1.0]
        } else {
            [dir[0] / len, dir[1] / len]
        };
        let [m20, m11, m02] = self.second;
        [
            x * x * m20 + 2.0 * x * y * m11 + y * y * m02,
            y * y * m20 - 2.0 * x * y * m11 + x * x * m02,
        ]
    }

    /// How much longer the blob is along its long axis than across (the square root of the
    /// ratio of its principal second moments): 1 for a disc or a square.
    pub fn elongation(&self) -> f64 {
        let [m20, m11, m02] = self.second;
        let half_trace = (m20 + m02) / 2.0;
        let spread = (half_trace * half_trace - (m20 * m02 - m11 * m11))
            .max(0.0)
            .sqrt();
        let (long, short) = (half_trace + spread, half_trace - spread);
        if short <= 0.0 {
            return f64::INFINITY;
        }
        (long / short).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Rect, CV_8UC3};

    const RED: [f32; 3] = [40.0, 35.0, 200.0];
    const BLACK: [f32; 3] = [35.0, 35.0, 38.0];

    #[test]
    fn a_blob_s_variances_along_a_direction_and_across_it_keep_its_whole_spread() {
        // Pixels spread 9 wide east-west, 1 north-south, tilted a little (xy 2).
        let spread = Spread {
            second: [9.0, 2.0, 1.0],
            third: [0.0; 4],
        };
        assert_eq!(spread.variances_along([3.0, 0.0]), [9.0, 1.0]);
        assert_eq!(spread.variances_along([0.0, -1.0]), [1.0, 9.0]);
        let [along, across] = spread.variances_along([1.0, 1.0]);
        assert!((along - 7.0).abs() < 1e-9 && (across - 3.0).abs() < 1e-9);
        // No direction: straight down the patch.
        assert_eq!(spread.variances_along([0.0, 0.0]), [1.0, 9.0]);
    }

    #[test]
    fn paint_a_little_off_its_hue_joins_a_figure_only_beside_paint_matched_surely() {
        // A row of 10 pixels: colour 0 matched surely at 0–2, near its hue at 3–5 (touching)
        // and at 7–8 (apart, past a pixel of print); colour 1 matched surely at 9 alone and
        // near its hue nowhere.
        const NONE: usize = usize::MAX;
        let sure = [0, 0, 0, NONE, NONE, NONE, NONE, NONE, NONE, 1];
        let near = [NONE, NONE, NONE, 0, 0, 0, NONE, 0, 0, NONE];
        let mut nearest = sure.to_vec();
        spread_into_near_hues(&mut nearest, &near, (10, 1), 3);
        assert_eq!(nearest, [0, 0, 0, 0, 0, 0, NONE, NONE, NONE, 1]);
        // Fewer sure pixels than the seeds asked for: nothing spreads.
        let mut nearest = sure.to_vec();
        spread_into_near_hues(&mut nearest, &near, (10, 1), 4);
        assert_eq!(nearest, sure);
        // No further than SPREAD_PX pixels from the paint matched surely.
        let long = SPREAD_PX + 3;
        let mut near = vec![0; long];
        near[0] = NONE;
        let mut nearest = vec![NONE; long];
        nearest[0] = 0;
        spread_into_near_hues(&mut nearest, &near, (long, 1), 1);
        let reached = nearest.iter().filter(|&&i| i == 0).count();
        assert_eq!(reached, 1 + SPREAD_PX);
        // Across rows, diagonally too.
        let sure = [0, NONE, NONE, NONE];
        let mut nearest = sure.to_vec();
        spread_into_near_hues(&mut nearest, &[NONE, NONE, NONE, 0], (2, 2), 1);
        assert_eq!(nearest, [0, NONE, NONE, 0]);
    }

    /// An 80-pixel patch of field with `parts` painted on it (rectangle, blue-green-red).
    fn field_with(parts: &[(Rect, [f64; 3])]) -> Mat {
        let mut patch =
            Mat::new_rows_cols_with_default(80, 80, CV_8UC3, Scalar::new(60.0, 150.0, 80.0, 0.0))
                .unwrap();
        for &(rect, [b, g, r]) in parts {
            let colour = Scalar::new(b, g, r, 0.0);
            imgproc::rectangle(
                &mut patch,
                rect,
                colour,
                imgproc::FILLED,
                imgproc::LINE_8,
                0,
            )
            .unwrap();
        }
        patch
    }

    #[test]
    fn a_bar_twice_as_long_as_it_is_broad_is_twice_as_elongated_as_a_square_either_way_round() {
        let enrolment = Enrolment::new(vec![RED], 55.0);
        let elongation = |rect: Rect| {
            let patch = field_with(&[(rect, [40.0, 35.0, 200.0])]);
            let (_, blobs) = enrolment
                .find(&patch, &ColourModel::default(), 0.03)
                .unwrap();
            assert_eq!(blobs.len(), 1, "{blobs:?}");
            blobs[0].spread.expect("inside the patch").elongation()
        };
        for bar in [Rect::new(20, 30, 32, 16), Rect::new(30, 20, 16, 32)] {
            assert!((elongation(bar) - 2.0).abs() < 0.05, "{bar:?}");
        }
        assert!((elongation(Rect::new(25, 25, 20, 20)) - 1.0).abs() < 0.05);
    }

    #[test]
    fn a_figure_beside_a_dark_stretch_that_passes_for_black_keeps_its_colour() {
        // A red figure against a wide dark stretch (a shadow on a dark print) that is as near
        // the black player's colour as a figure's paint.
        let patch = field_with(&[
            (Rect::new(0, 20, 40, 40), [30.0, 30.0, 32.0]),
            (Rect::new(40, 30, 14, 16), [40.0, 35.0, 200.0]),
        ]);
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        let (_, blobs) = enrolment
            .find(&patch, &ColourModel::default(), 0.03)
            .unwrap();
        assert!(
            blobs
                .iter()
                .any(|b| b.colour == 0 && (b.centroid[0] - 46.5).abs() < 0.5),
            "{blobs:?}"
        );
    }

    #[test]
    fn a_figure_s_shadow_on_a_field_is_no_black_figure_but_a_black_figure_is() {
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        // The default model's field at about half its light, as near black as a figure's
        // paint, beside a red figure; then a black figure in the same place.
        let field = [70.0, 155.0, 115.0];
        let shadow = [35.0, 78.0, 58.0];
        let figure = (Rect::new(30, 30, 14, 16), [40.0, 35.0, 200.0]);
        let beside = Rect::new(44, 34, 18, 16);
        let mut patch = field_with(&[(Rect::new(0, 0, 80, 80), field), figure, (beside, shadow)]);
        let (mask, blobs) = enrolment
            .find(&patch, &ColourModel::default(), 0.03)
            .unwrap();
        assert_eq!(blobs.len(), 1, "{blobs:?}");
        assert_eq!(blobs[0].colour, 0);
        // Shade is no terrain to read either.
        assert_eq!(*mask.at_2d::<u8>(42, 52).unwrap(), 255);
        patch = field_with(&[
            (Rect::new(0, 0, 80, 80), field),
            (beside, [35.0, 35.0, 38.0]),
        ]);
        let (_, blobs) = enrolment
            .find(&patch, &ColourModel::default(), 0.03)
            .unwrap();
        assert_eq!(blobs.len(), 1, "{blobs:?}");
        assert_eq!(blobs[0].colour, 1);
    }

    /// The dark gaps round a cell at a dark table, about as black as the black player's figures:
    /// 5-pixel lines along the patch's sides, where the neighbouring tiles end.
    fn gaps() -> Vec<(Rect, [f64; 3])> {
        let dark = [30.0, 30.0, 33.0];
        vec![
            (Rect::new(0, 3, 80, 5), dark),
            (Rect::new(0, 72, 80, 5), dark),
            (Rect::new(3, 0, 5, 80), dark),
            (Rect::new(72, 0, 5, 80), dark),
        ]
    }

    #[test]
    fn the_gaps_framing_a_cell_at_a_dark_table_are_no_black_figure_and_hide_no_terrain() {
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        let (mask, blobs) = enrolment
            .find(&field_with(&gaps()), &ColourModel::default(), 0.03)
            .unwrap();
        assert!(blobs.is_empty(), "{blobs:?}");
        // The field beside a gap shows, as do the tile's own sides where its print has a dark
        // rim (some editions shade two sides of every tile): a road crossing there is seen.
        for (row, col) in [(40, 9), (40, 5), (70, 40), (74, 40)] {
            assert_eq!(*mask.at_2d::<u8>(row, col).unwrap(), 0, "({row}, {col})");
        }
    }

    #[test]
    fn a_black_figure_touching_the_gaps_round_its_cell_is_found_where_it_stands() {
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        let black = [35.0, 35.0, 38.0];
        // Standing against the west gap, 20 pixels square; lying against the south gap, 14
        // wide and 30 long (its columns run on into the gap for 35 pixels).
        for (figure, middle) in [
            (Rect::new(8, 30, 20, 20), [17.5, 39.5]),
            (Rect::new(30, 42, 14, 30), [36.5, 56.5]),
        ] {
            let mut parts = gaps();
            parts.push((figure, black));
            let (mask, blobs) = enrolment
                .find(&field_with(&parts), &ColourModel::default(), 0.03)
                .unwrap();
            assert_eq!(blobs.len(), 1, "{figure:?}: {blobs:?}");
            // The figure hides the terrain under it; the gaps away from it hide none.
            let at = |x: f64, y: f64| *mask.at_2d::<u8>(y as i32, x as i32).unwrap();
            assert_eq!(at(middle[0], middle[1]), 255, "{figure:?}");
            assert_eq!(at(60.0, 5.0), 0, "{figure:?}");
            // The stretch of gap beside it stays with it: its middle moves a little that way.
            let [x, y] = blobs[0].centroid;
            assert!(
                (x - middle[0]).abs() < 3.0 && (y - middle[1]).abs() < 3.0,
                "{figure:?}: {blobs:?}"
            );
        }
    }

    #[test]
    fn a_dark_table_beside_a_cell_cut_off_its_place_is_no_black_figure_and_hides_no_terrain() {
        let enrolment = Enrolment::new(vec![RED, BLACK], 55.0);
        let dark = [30.0, 30.0, 33.0];
        // Cut a fifth of a tile north-east of a tile at the board's corner: the dark table
        // fills a band 16 pixels deep along the patch's north and east sides.
        let table = [
            (Rect::new(0, 0, 80, 16), dark),
            (Rect::new(64, 0, 16, 80), dark),
        ];
        let (mask, blobs) = enrolment
            .find(&field_with(&table), &ColourModel::default(), 0.03)
            .unwrap();
        assert!(blobs.is_empty(), "{blobs:?}");
        for (row, col) in [(8, 30), (40, 72), (8, 72)] {
            assert_eq!(*mask.at_2d::<u8>(row, col).unwrap(), 0, "({row}, {col})");
        }
        // A black figure standing on the tile, clear of the table, is still found.
        let mut parts = table.to_vec();
        parts.push((Rect::new(24, 36, 20, 20), BLACK.map(f64::from)));
        let (mask, blobs) = enrolment
            .find(&field_with(&parts), &ColourModel::default(), 0.03)
            .unwrap();
        assert_eq!(blobs.len(), 1, "{blobs:?}");
        assert_eq!(*mask.at_2d::<u8>(45, 33).unwrap(), 255);
    }

    /// A red figure standing in an 80-pixel patch, its top `dy` pixels further down than at
    /// 20: a narrow head on broad shoulders and legs (rise up the picture).
    fn standing_figure(dy: i32) -> Mat {
        field_with(&[
            (Rect::new(36, 20 + dy, 8, 8), [40.0, 35.0, 200.0]),
            (Rect::new(30, 28 + dy, 20, 20), [40.0, 35.0, 200.0]),
        ])
    }

    #[test]
    fn a_standing_figure_s_outline_trails_its_head_the_way_tops_rise() {
        let enrolment = Enrolment::new(vec![RED], 55.0);
        let (_, blobs) = enrolment
            .find(&standing_figure(0), &ColourModel::default(), 0.03)
            .unwrap();
        let spread = blobs[0].spread.expect("wholly inside the patch");
        assert!(spread.skew_along([0.0, -0.4]) > 0.2, "{spread:?}");
        assert!(spread.skew_along([0.0, 0.4]) < -0.2, "{spread:?}");
        assert!(spread.skew_along([0.4, 0.0]).abs() < 0.01, "{spread:?}");
    }

    /// A 300-pixel frame of field with red `rects` painted on it, and a cell whose patch shows
    /// it at scale 1 (its inset square 64 pixels), the patch's west border at x = 94.8.
    fn frame_and_cell(rects: &[Rect]) -> (Mat, Quad) {
        let side = 64.0 / (1.0 - 2.0 * crate::vision::rectify::INSET);
        let quad = [
            [100.0, 100.0],
            [100.0 + side, 100.0],
            [100.0 + side, 100.0 + side],
            [100.0, 100.0 + side],
        ];
        let mut frame =
            Mat::new_rows_cols_with_default(300, 300, CV_8UC3, Scalar::new(60.0, 150.0, 80.0, 0.0))
                .unwrap();
        let [b, g, r] = RED.map(f64::from);
        for &rect in rects {
            let paint = Scalar::new(b, g, r, 0.0);
            imgproc::rectangle(&mut frame, rect, paint, imgproc::FILLED, imgproc::LINE_8, 0)
                .unwrap();
        }
        (frame, quad)
    }

    #[test]
    fn the_end_of_a_figure_on_the_next_cell_reaching_over_a_side_is_left_out_of_the_sides() {
        let enrolment = Enrolment::new(vec![RED], 55.0);
        let model = ColourModel::default();
        // A red figure lying on the cell to the west, 28 by 20 pixels, its east end 9 pixels
        // into the patch, 1 into the cell's square.
        let (frame, quad) = frame_and_cell(&[Rect::new(76, 130, 28, 20)]);
        let (patch, _) = quad_patch(&frame, &quad, MARGIN_PX).unwrap();
        let found = enrolment
            .find_in_cell(&frame, &quad, &patch, &model)
            .unwrap();
        // Too small in the patch to count as a figure of this cell.
        assert!(found.blobs.is_empty(), "{:?}", found.blobs);
        assert_eq!(*found.mask.at_2d::<u8>(45, 2).unwrap(), 0);
        // The wider cut sees it whole: an end the sides are read without, in the cell's
        // square; in the margin, the next cell's print is left to tell where the cell lies.
        let with_ends = found.with_ends.expect("the end of a figure");
        assert_eq!(*with_ends.at_2d::<u8>(45, 9).unwrap(), 255);
        assert_eq!(*with_ends.at_2d::<u8>(45, 2).unwrap(), 0);
        assert_eq!(*with_ends.at_2d::<u8>(45, 20).unwrap(), 0);
        // A red mark as small crossing the border with no figure beyond it is print.
        let (frame, quad) = frame_and_cell(&[Rect::new(92, 130, 6, 20)]);
        let (patch, _) = quad_patch(&frame, &quad, MARGIN_PX).unwrap();
        let found = enrolment
            .find_in_cell(&frame, &quad, &patch, &model)
            .unwrap();
        assert!(found.with_ends.is_none());
    }

    #[test]
    fn a_figure_its_patch_clips_takes_its_outline_and_middle_from_a_wider_cut() {
        let enrolment = Enrolment::new(vec![RED], 55.0);
        // Its head cut off by the patch's top: no outline to go by.
        let (_, mut clipped) = enrolment
            .find(&standing_figure(-22), &ColourModel::default(), 0.03)
            .unwrap();
        assert_eq!(clipped.len(), 1, "{clipped:?}");
        assert_eq!(clipped[0].spread, None);
        // The same figure in a cut 10 pixels wider each way (the field's 80 pixels hold it).
        let (_, whole) = enrolment
            .find(&standing_figure(-12), &ColourModel::default(), 0.03)
            .unwrap();
        let shifted: Vec<Blob> = whole
            .iter()
            .map(|b| Blob {
                centroid: [b.centroid[0] + 10.0, b.centroid[1] + 10.0],
                ..*b
            })
            .collect();
        let seen = clipped[0];
        complete_outlines(&mut clipped, &shifted, 10.0);
        assert_eq!(clipped[0].spread, whole[0].spread);
        assert_eq!(clipped[0].centroid, whole[0].centroid);
        // A figure of another colour there lends it nothing.
        let mut again = [seen];
        let other: Vec<Blob> = shifted.iter().map(|b| Blob { colour: 1, ..*b }).collect();
        complete_outlines(&mut again, &other, 10.0);
        assert_eq!(again[0], seen);
    }
}

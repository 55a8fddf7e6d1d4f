//! Prints learned from the board: an edition prints every copy of a tile type alike, so the tiles
//! read surely show what the others of their type look like, in this edition, light and camera.
//! A doubtful reading is then weighed by how much its tile looks like the copies of each
//! candidate type seen elsewhere (a short road under a figure is hidden, but the rest of the print
//! tells S from Q). How much a likeness tells is measured on the same board: the sure copies of a
//! type against each other, and against the other types.

use std::collections::BTreeMap;

use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;
use rayon::prelude::*;

use super::terrain::{differ_by_shields, same_for_the_rules};
use super::tile::Candidate;
use crate::rules::{Rotation, TileId};

/// Cells along a side of a print's grid.
pub const PRINT_SIDE: usize = 16;
/// The least probability of a reading whose tile teaches its type's print (a tile whose shield
/// is in doubt is read at most some 0.98 sure).
const SURE: f64 = 0.95;
/// The least share of a print seen (not under a figure) for it to teach its type.
const WHOLE: f64 = 0.98;
/// The least share of cells two prints must both show to be compared.
const MIN_SHARED: f64 = 0.4;
/// The least sure copies, each beside another copy of its type, that measure how alike copies
/// look.
const MIN_PAIRS: usize = 3;
/// The least gap between how alike copies of a type look and how alike the likeliest other
/// type looks for likeness to count at all.
const MIN_GAP: f64 = 0.1;
/// The least probability of a reading for it to be in contention ([`LearnedPrints::reweigh`]).
const CONTENDING: f64 = 0.01;
/// The most a likeness tells for or against a reading (log-likelihood).
const CAP: f64 = 3.0;
/// [`CAP`] where the board shows one sure copy of the type (and none of a twin's): one print,
/// compared once, where a figure on the tile read may leave little but texture that differs
/// copy to copy. `eval vision --generate 30 --seed 14100`, board 8: an R under a farmer (read
/// 0.83 R) looked unlike the board's one other sure R at the full cap, and T (no sure copy,
/// so likeness cannot count against it) won.
const CAP_ONE_COPY: f64 = 1.5;
/// Standard deviation of a normal distribution per median absolute deviation.
const MAD_TO_SD: f64 = 1.4826;
/// The least spread of likeness assumed (a board with few copies may show less).
const MIN_SD: f64 = 0.05;
/// A cell counts as seen where at most this share of its pixels lie under a figure.
const UNSEEN_SHARE: f64 = 0.1;

/// A tile's print as grey levels on a [`PRINT_SIDE`] grid, with which cells were seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Print {
    grey: Vec<u8>,
    seen: Vec<bool>,
}

impl Print {
    /// The print in the `side`-pixel window at (x, y) of a BGR `patch`; cells under `unseen`
    /// (255: figures, outside the picture) are left out.
    pub fn cut(
        patch: &Mat,
        (x, y): (usize, usize),
        side: usize,
        unseen: Option<&Mat>,
    ) -> opencv::Result<Print> {
        let n = PRINT_SIDE as i32;
        let window = |m: &Mat| -> opencv::Result<Mat> {
            let rect = opencv::core::Rect::new(x as i32, y as i32, side as i32, side as i32);
            let mut small = Mat::default();
            imgproc::resize(
                &Mat::roi(m, rect)?,
                &mut small,
                Size::new(n, n),
                0.0,
                0.0,
                imgproc::INTER_AREA,
            )?;
            Ok(small)
        };
        let fits = |m: &Mat| x + side <= m.cols() as usize && y + side <= m.rows() as usize;
        if side == 0 || !fits(patch) {
            return Ok(Print::unseen());
        }
        let mut grey = Mat::default();
        imgproc::cvt_color(patch, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
        let grey: Vec<u8> = window(&grey)?.data_bytes()?.to_vec();
        let seen = match unseen.filter(|m| fits(m)) {
            Some(m) => window(m)?
                .data_bytes()?
                .iter()
                .map(|&v| f64::from(v) <= UNSEEN_SHARE * 255.0)
                .collect(),
            None => vec![true; grey.len()],
        };
        Ok(Print { grey, seen })
    }

    /// The print of the tile found `shift` pixels (x, y) from the middle of a cell patch cut
    /// with `margin` ([`super::tile::TileRecognizer::recognize_in_view`]).
    pub fn found_in(
        patch: &Mat,
        margin: usize,
        shift: [f64; 2],
        unseen: Option<&Mat>,
    ) -> opencv::Result<Print> {
        let side = (patch.cols().min(patch.rows()) as usize).saturating_sub(2 * margin);
        let at = |s: f64| (margin as f64 + s).round().max(0.0) as usize;
        Print::cut(patch, (at(shift[0]), at(shift[1])), side, unseen)
    }

    /// A print of which nothing was seen.
    fn unseen() -> Print {
        Print {
            grey: vec![0; PRINT_SIDE * PRINT_SIDE],
            seen: vec![false; PRINT_SIDE * PRINT_SIDE],
        }
    }

    /// Share of the cells seen.
    pub fn seen_share(&self) -> f64 {
        self.seen.iter().filter(|&&s| s).count() as f64 / self.seen.len().max(1) as f64
    }

    /// This print (of a tile lying with `rot`) as its type's print in catalogue orientation.
    fn upright(&self, rot: Rotation) -> Print {
        let n = PRINT_SIDE;
        let mut out = Print::unseen();
        for j in 0..n {
            for i in 0..n {
                let centre = [(i as f32 + 0.5) / n as f32, (j as f32 + 0.5) / n as f32];
                let [u, v] = crate::geometry::rotate(centre, rot);
                let (si, sj) = ((u * n as f32) as usize, (v * n as f32) as usize);
                let (from, to) = (sj.min(n - 1) * n + si.min(n - 1), j * n + i);
                out.grey[to] = self.grey[from];
                out.seen[to] = self.seen[from];
            }
        }
        out
    }

    /// How alike two prints look: the correlation of their grey levels over the cells both
    /// show (and `within` holds, if given); `None` where they share too few, or either is flat
    /// there.
    fn likeness(&self, other: &Print, within: Option<&[bool]>) -> Option<f64> {
        let sums = match within {
            Some(within) => Sums::over(self, other, within.iter().copied()),
            None => Sums::over(self, other, std::iter::repeat(true)),
        };
        if f64::from(sums.n) < MIN_SHARED * self.grey.len() as f64 {
            return None;
        }
        let [n, sa, sb, sab, saa, sbb] =
            [sums.n, sums.a, sums.b, sums.ab, sums.aa, sums.bb].map(f64::from);
        let (ab, aa, bb) = (sab - sa * sb / n, saa - sa * sa / n, sbb - sb * sb / n);
        (aa > 1e-6 && bb > 1e-6).then(|| ab / (aa * bb).sqrt())
    }
}

/// Sums over the cells two prints share of their grey levels, their products and squares, and
/// the count: whole numbers (a cell's grey level is one byte), so that they add up exactly in
/// any order and a compiler may add many cells at once.
#[derive(Default)]
struct Sums {
    n: u32,
    a: u32,
    b: u32,
    ab: u32,
    aa: u32,
    bb: u32,
}

impl Sums {
    /// The sums over the cells both `p` and `q` show and `within` holds.
    fn over(p: &Print, q: &Print, within: impl Iterator<Item = bool>) -> Sums {
        let mut s = Sums::default();
        let cells = p.grey.iter().zip(&p.seen).zip(q.grey.iter().zip(&q.seen));
        for (((&a, &seen_a), (&b, &seen_b)), within) in cells.zip(within) {
            let keep = u32::from(seen_a && seen_b && within);
            let (a, b) = (u32::from(a) * keep, u32::from(b) * keep);
            s.n += keep;
            s.a += a;
            s.b += b;
            s.ab += a * b;
            s.aa += a * a;
            s.bb += b * b;
        }
        s
    }
}

/// What each tile type's print looks like on one board, from the tiles read surely, and how
/// much a likeness to them tells.
#[derive(Clone, Debug, Default)]
pub struct LearnedPrints {
    /// Sure copies of each type, in catalogue orientation.
    copies: BTreeMap<TileId, Vec<Print>>,
    /// The likeness half way between a copy's (median) to the other copies of its type and to
    /// the likeliest other type, and the step in likeness worth one unit of log-likelihood
    /// (spread² / gap, as between two normal distributions of one spread); `None` where the
    /// board does not tell them apart.
    scale: Option<(f64, f64)>,
}

impl LearnedPrints {
    /// Learns from a board's `reads` (each tile's print and its readings, most likely first) and
    /// `known` tiles (print, type and rotation known for certain, such as the start tile).
    pub fn learn<'a>(
        reads: impl IntoIterator<Item = (&'a Print, &'a [Candidate])>,
        known: impl IntoIterator<Item = (&'a Print, TileId, Rotation)>,
    ) -> LearnedPrints {
        let mut copies: BTreeMap<TileId, Vec<Print>> = BTreeMap::new();
        let sure = reads
            .into_iter()
            .filter(|(print, ranked)| teaches(print, ranked))
            .filter_map(|(print, ranked)| Some((print, ranked.first()?.tile, ranked.first()?.rot)));
        for (print, tile, rot) in known.into_iter().chain(sure) {
            if print.seen_share() < WHOLE {
                continue;
            }
            // Of rotations the rules cannot tell apart, the one that matches the copies so far.
            let theirs = copies.entry(tile).or_default();
            let upright = equivalents(tile, rot)
                .map(|r| print.upright(r))
                .max_by(|a, b| {
                    let l = |p: &Print| mean_likeness(p, theirs.iter(), None).unwrap_or(-1.0);
                    l(a).total_cmp(&l(b))
                })
                .unwrap_or_else(|| print.upright(rot));
            theirs.push(upright);
        }
        let scale = scale(&copies, None);
        LearnedPrints { copies, scale }
    }

    /// How many sure copies of `tile` the board showed.
    pub fn copies_of(&self, tile: TileId) -> usize {
        self.copies.get(&tile).map_or(0, Vec::len)
    }

    /// Whether likeness tells types apart on this board.
    pub fn tells_apart(&self) -> bool {
        self.scale.is_some()
    }

    /// Log-likelihood that `print` (as the picture shows it) is `tile` lying with `rot`, by
    /// its likeness to the sure copies of that type or of a type printed alike but for its
    /// shields; 0 where there are none, or likeness tells nothing on this board.
    pub fn log_likelihood(&self, print: &Print, tile: TileId, rot: Rotation) -> f64 {
        self.log_likelihood_scaled(print, tile, rot, Some(&mut Scales::default()))
    }

    /// [`Self::log_likelihood`], with `scales`: on the scale of the cells the print shows (a
    /// print partly under a figure is measured against how alike the copies look over those
    /// cells alone); without, on the board's scale.
    fn log_likelihood_scaled(
        &self,
        print: &Print,
        tile: TileId,
        rot: Rotation,
        mut scales: Option<&mut Scales>,
    ) -> f64 {
        if self.scale.is_none() {
            return 0.0;
        }
        let kin: Vec<(TileId, &Vec<Print>)> = self
            .copies
            .iter()
            .filter(|(&kin, _)| printed_alike(kin, tile))
            .map(|(&kin, copies)| (kin, copies))
            .collect();
        let cap = if kin.iter().map(|(_, copies)| copies.len()).sum::<usize>() > 1 {
            CAP
        } else {
            CAP_ONE_COPY
        };
        kin.into_iter()
            .flat_map(|(kin, copies)| equivalents(kin, rot).map(move |r| (r, copies)))
            .filter_map(|(r, copies)| {
                let upright = print.upright(r);
                let (mid, unit) = match scales.as_deref_mut() {
                    Some(scales) => self.scale_over(&upright, scales)?,
                    None => self.scale?,
                };
                let l = mean_likeness(&upright, copies, None)?;
                Some((l - mid) / unit)
            })
            .fold(None, |m: Option<f64>, l| Some(m.map_or(l, |m| m.max(l))))
            .map_or(0.0, |l| l.clamp(-cap, cap))
    }

    /// The likeness scale over the cells `upright` (catalogue orientation) shows: the board's,
    /// where nearly all are.
    fn scale_over(&self, upright: &Print, scales: &mut Scales) -> Option<(f64, f64)> {
        if upright.seen_share() >= WHOLE {
            return self.scale;
        }
        *scales
            .0
            .entry(upright.seen.clone())
            .or_insert_with(|| scale(&self.copies, Some(&upright.seen)))
    }

    /// `ranked` (readings of `print`) weighed by likeness to the copies learned, most likely
    /// first again; unchanged where the reading taught its type.
    pub fn reweigh(&self, print: &Print, ranked: &mut [Candidate]) {
        if self.scale.is_none() || teaches(print, ranked) {
            return;
        }
        // Likeness weighs only the readings whose type (or a twin) the board shows surely, among
        // themselves: the others keep their share. A type with no sure copy cannot be compared
        // with: were the others to gain by likeness, a tile whose telling part a figure hides
        // (A's road) would go to the type the board happened to show (B); were they only to
        // lose by it, a print a figure's rim and shadow made unlike its own type's copies would
        // go to the type never seen (24700 board 16: T to R).
        let learned = |c: &Candidate| self.copies.keys().any(|&kin| printed_alike(kin, c.tile));
        let mut scales = Scales::default();
        let weighed: Vec<(usize, f64)> = ranked
            .iter()
            .enumerate()
            .filter(|(_, c)| learned(c))
            .map(|(k, c)| {
                // Scales over the cells seen cost a measure each: only for contenders.
                let scales = (c.probability >= CONTENDING).then_some(&mut scales);
                let likeness = self.log_likelihood_scaled(print, c.tile, c.rot, scales);
                (k, c.probability.max(1e-300).ln() + likeness)
            })
            .collect();
        let share: f64 = weighed.iter().map(|&(k, _)| ranked[k].probability).sum();
        let best = weighed.iter().map(|&(_, l)| l).fold(f64::MIN, f64::max);
        let total: f64 = weighed.iter().map(|(_, l)| (l - best).exp()).sum();
        for &(k, l) in &weighed {
            ranked[k].probability = share * (l - best).exp() / total;
        }
        ranked.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    }
}

/// Likeness scales over the cells a print shows, by those cells.
#[derive(Default)]
struct Scales(BTreeMap<Vec<bool>, Option<(f64, f64)>>);

/// Whether a tile read as `ranked` teaches its type's print: read surely and seen whole.
fn teaches(print: &Print, ranked: &[Candidate]) -> bool {
    ranked.first().is_some_and(|c| c.probability >= SURE) && print.seen_share() >= WHOLE
}

/// Whether an edition may print types `a` and `b` alike: the same type, or the same but for
/// its shields (M and N, Q and R, …), which likeness cannot tell apart.
fn printed_alike(a: TileId, b: TileId) -> bool {
    a == b || differ_by_shields((a, Rotation::R0), (b, Rotation::R0))
}

/// The rotations of `tile` the rules cannot tell from `rot` (its print may differ).
fn equivalents(tile: TileId, rot: Rotation) -> impl Iterator<Item = Rotation> {
    Rotation::ALL
        .into_iter()
        .filter(move |&r| same_for_the_rules(tile, r, rot))
}

/// The mean likeness of `print` to `copies` (those it shares enough cells with, of those
/// `within` holds).
fn mean_likeness<'a>(
    print: &Print,
    copies: impl IntoIterator<Item = &'a Print>,
    within: Option<&[bool]>,
) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for l in copies.into_iter().filter_map(|c| print.likeness(c, within)) {
        sum += l;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

/// The board's likeness scale (see [`LearnedPrints::scale`]) over the cells `within` holds (all
/// if `None`): each sure copy's likeness to the other copies of its type, and its highest
/// likeness to another type at any rotation.
fn scale(copies: &BTreeMap<TileId, Vec<Print>>, within: Option<&[bool]>) -> Option<(f64, f64)> {
    // Each copy's two likenesses, the copies side by side on every core.
    let each: Vec<(&TileId, &Vec<Print>, usize)> = copies
        .iter()
        .flat_map(|(tile, prints)| (0..prints.len()).map(move |k| (tile, prints, k)))
        .collect();
    let likeness: Vec<(Option<f64>, Option<f64>)> = each
        .par_iter()
        .map(|&(tile, prints, k)| {
            let print = &prints[k];
            let rest = prints.iter().enumerate().filter(|&(j, _)| j != k);
            let own = mean_likeness(print, rest.map(|(_, p)| p), within);
            let turned = Rotation::ALL.map(|r| print.upright(r));
            let closest = copies
                .iter()
                .filter(|(&t, _)| !printed_alike(t, *tile))
                .flat_map(|(_, theirs)| {
                    turned
                        .iter()
                        .filter_map(move |p| mean_likeness(p, theirs, within))
                })
                .fold(None, |m: Option<f64>, l| Some(m.map_or(l, |m| m.max(l))));
            (own, closest)
        })
        .collect();
    let mut own: Vec<f64> = likeness.iter().filter_map(|l| l.0).collect();
    let mut other: Vec<f64> = likeness.iter().filter_map(|l| l.1).collect();
    if own.len() < MIN_PAIRS || other.is_empty() {
        return None;
    }
    let (a, b) = (median(&mut own), median(&mut other));
    let spread = |v: &[f64], m: f64| {
        let mut d: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
        MAD_TO_SD * median(&mut d)
    };
    let sd = ((spread(&own, a).powi(2) + spread(&other, b).powi(2)) / 2.0)
        .sqrt()
        .max(MIN_SD);
    (a - b >= MIN_GAP).then(|| ((a + b) / 2.0, sd * sd / (a - b)))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::catalogue;
    use crate::sim::art::paint_copy;
    use crate::sim::style::Style;
    use opencv::core::{self, Point, Scalar};

    fn id(name: &str) -> TileId {
        catalogue().tile_id(name).expect("a base tile")
    }

    /// `name` as an edition prints it (every copy alike), lying with `rot`.
    fn printed(name: &str, rot: Rotation) -> Mat {
        let seed = u64::from(name.as_bytes()[0]);
        let img = paint_copy(id(name), 0, &Style::preset(1), seed).expect("painted");
        let mut turned = img.clone();
        for _ in 0..rot.quarter_turns() {
            let mut next = Mat::default();
            core::rotate(&turned, &mut next, core::ROTATE_90_CLOCKWISE).expect("turned");
            turned = next;
        }
        turned
    }

    fn print_of(img: &Mat, unseen: Option<&Mat>) -> Print {
        Print::cut(img, (0, 0), img.cols() as usize, unseen).expect("cut")
    }

    fn sure(name: &str, rot: Rotation) -> (Print, Vec<Candidate>) {
        let c = Candidate {
            tile: id(name),
            rot,
            probability: 1.0,
        };
        (print_of(&printed(name, rot), None), vec![c])
    }

    /// A board's sure reads: two copies each of several types, at different rotations.
    fn board(names: &[&str]) -> Vec<(Print, Vec<Candidate>)> {
        names
            .iter()
            .flat_map(|n| [sure(n, Rotation::R0), sure(n, Rotation::R90)])
            .collect()
    }

    fn learn(reads: &[(Print, Vec<Candidate>)]) -> LearnedPrints {
        LearnedPrints::learn(reads.iter().map(|(p, r)| (p, &r[..])), [])
    }

    /// A dark figure over (x, y) (share of the side), and the mask of it.
    fn with_figure(img: &Mat, at: [f64; 2]) -> (Mat, Mat) {
        let side = img.cols();
        let centre = Point::new((at[0] * side as f64) as i32, (at[1] * side as f64) as i32);
        let radius = side / 6;
        let mut covered = img.clone();
        imgproc::circle(
            &mut covered,
            centre,
            radius,
            Scalar::all(20.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .expect("drawn");
        let mut mask = Mat::zeros(side, side, core::CV_8UC1)
            .expect("mask")
            .to_mat()
            .expect("mask");
        imgproc::circle(
            &mut mask,
            centre,
            radius,
            Scalar::all(255.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .expect("drawn");
        (covered, mask)
    }

    fn doubtful(pairs: &[(&str, Rotation, f64)]) -> Vec<Candidate> {
        pairs
            .iter()
            .map(|&(n, rot, probability)| Candidate {
                tile: id(n),
                rot,
                probability,
            })
            .collect()
    }

    #[test]
    fn a_road_under_a_figure_is_told_by_the_rest_of_its_types_print() {
        // S (city on three sides, a road out of the fourth) with a figure over its road, read
        // as Q (no road) more likely: the board's other S and R prints tell it is S.
        let learned = learn(&board(&["S", "R", "D", "E", "U", "K", "L", "B"]));
        assert!(learned.tells_apart());
        assert_eq!(learned.copies_of(id("S")), 2);
        let (covered, mask) = with_figure(&printed("S", Rotation::R270), [0.2, 0.5]);
        let print = print_of(&covered, Some(&mask));
        let mut ranked = doubtful(&[("Q", Rotation::R270, 0.7), ("S", Rotation::R270, 0.3)]);
        learned.reweigh(&print, &mut ranked);
        assert_eq!(ranked[0].tile, id("S"), "{ranked:?}");
        let total: f64 = ranked.iter().map(|c| c.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_type_the_board_shows_no_sure_copy_of_keeps_its_share() {
        // A (a cloister with a road) with a figure over its road looks like B (the cloister
        // alone), whose sure copies the board shows, while it shows none of A: the doubt
        // stays as read.
        let learned = learn(&board(&["B", "D", "E", "U", "K", "L"]));
        assert!(learned.tells_apart());
        let (covered, mask) = with_figure(&printed("A", Rotation::R0), [0.5, 0.8]);
        let print = print_of(&covered, Some(&mask));
        assert!(learned.log_likelihood(&print, id("B"), Rotation::R0) > 0.0);
        let mut ranked = doubtful(&[("A", Rotation::R0, 0.6), ("B", Rotation::R0, 0.4)]);
        learned.reweigh(&print, &mut ranked);
        assert_eq!(ranked[0].tile, id("A"), "{ranked:?}");
        // Nor does a print unlike B's copies (K's) go from B to A, which likeness cannot weigh;
        // it goes to K, whose copies it is like, and A keeps its share.
        let unlike = print_of(&printed("K", Rotation::R0), None);
        assert!(learned.log_likelihood(&unlike, id("B"), Rotation::R0) < 0.0);
        let mut ranked = doubtful(&[("B", Rotation::R0, 0.6), ("A", Rotation::R0, 0.4)]);
        learned.reweigh(&unlike, &mut ranked);
        assert_eq!(ranked[0].tile, id("B"), "{ranked:?}");
        let mut ranked = doubtful(&[
            ("B", Rotation::R0, 0.5),
            ("K", Rotation::R0, 0.3),
            ("A", Rotation::R0, 0.2),
        ]);
        learned.reweigh(&unlike, &mut ranked);
        assert_eq!(ranked[0].tile, id("K"), "{ranked:?}");
        let a = ranked.iter().find(|c| c.tile == id("A")).expect("A");
        assert!((a.probability - 0.2).abs() < 1e-9, "{ranked:?}");
    }

    #[test]
    fn one_sure_copy_of_a_type_counts_against_it_less_than_two() {
        // R once among two copies each of other types: a print unlike R's one copy counts
        // against R at most [`CAP_ONE_COPY`]; one unlike E's two copies, more.
        let mut reads = board(&["E", "K", "D", "U", "B", "L", "J"]);
        reads.push(sure("R", Rotation::R0));
        let learned = learn(&reads);
        assert!(learned.tells_apart());
        assert_eq!(learned.copies_of(id("R")), 1);
        let unlike = print_of(&printed("U", Rotation::R0), None);
        let against_one = learned.log_likelihood(&unlike, id("R"), Rotation::R0);
        let against_two = learned.log_likelihood(&unlike, id("E"), Rotation::R0);
        assert!((-CAP_ONE_COPY..0.0).contains(&against_one), "{against_one}");
        assert!(against_two < -CAP_ONE_COPY, "{against_two}");
    }

    #[test]
    fn a_tile_turned_wrong_does_not_look_like_its_types_copies() {
        let learned = learn(&board(&["E", "K", "D", "U", "B", "L", "J"]));
        let print = print_of(&printed("K", Rotation::R180), None);
        let right = learned.log_likelihood(&print, id("K"), Rotation::R180);
        let turned = learned.log_likelihood(&print, id("K"), Rotation::R0);
        assert!(right > 0.0 && turned < 0.0, "{right} {turned}");
    }

    #[test]
    fn likeness_leaves_a_shield_in_doubt_between_twins() {
        // Only N's copies on the board: M is printed alike but for its shield, so a doubt
        // between them stays as it was.
        let learned = learn(&board(&["N", "D", "E", "U", "K", "B"]));
        let print = print_of(&printed("M", Rotation::R0), None);
        let mut ranked = doubtful(&[("M", Rotation::R0, 0.6), ("N", Rotation::R0, 0.4)]);
        learned.reweigh(&print, &mut ranked);
        assert_eq!(ranked[0].tile, id("M"));
        assert!((ranked[0].probability - 0.6).abs() < 1e-9, "{ranked:?}");
    }

    #[test]
    fn prints_that_differ_copy_to_copy_tell_nothing() {
        let noise = |seed: u64| {
            let mut img = Mat::new_rows_cols_with_default(64, 64, core::CV_8UC3, Scalar::all(0.0))
                .expect("image");
            core::set_rng_seed(seed as i32).expect("seeded");
            core::randu(&mut img, &Scalar::all(0.0), &Scalar::all(255.0)).expect("noise");
            print_of(&img, None)
        };
        let names = ["A", "B", "D", "E", "U", "V"];
        let reads: Vec<(Print, Vec<Candidate>)> = (0..12)
            .map(|k| (noise(k), sure(names[k as usize / 2], Rotation::R0).1))
            .collect();
        let learned = learn(&reads);
        assert!(!learned.tells_apart());
        let mut ranked = doubtful(&[("A", Rotation::R0, 0.55), ("B", Rotation::R0, 0.45)]);
        learned.reweigh(&noise(99), &mut ranked);
        assert!((ranked[0].probability - 0.55).abs() < 1e-12);
    }

    #[test]
    fn a_window_past_the_patch_is_a_print_of_nothing() {
        let img = printed("D", Rotation::R0);
        let print = Print::cut(&img, (100, 100), 200, None).expect("no error");
        assert_eq!(print.seen_share(), 0.0);
        let learned = learn(&board(&["D", "E", "U", "K"]));
        assert_eq!(learned.log_likelihood(&print, id("D"), Rotation::R0), 0.0);
    }

    #[test]
    fn likeness_is_the_correlation_over_the_cells_both_show() {
        let n = PRINT_SIDE * PRINT_SIDE;
        // A grey ramp west to east; the same ramp at half the contrast, whose first hundred
        // cells (unseen in the first print) hold noise; and the ramp turned dark to light.
        let ramp: Vec<u8> = (0..n).map(|k| (k % PRINT_SIDE * 16) as u8).collect();
        let first = Print {
            grey: ramp.clone(),
            seen: (0..n).map(|k| k >= 100).collect(),
        };
        let half = Print {
            grey: (0..n)
                .map(|k| {
                    if k < 100 {
                        (k * 37 % 256) as u8
                    } else {
                        40 + ramp[k] / 2
                    }
                })
                .collect(),
            seen: vec![true; n],
        };
        let turned = Print {
            grey: ramp.iter().map(|g| 255 - g).collect(),
            seen: vec![true; n],
        };
        let near = |l: Option<f64>, want: f64| l.is_some_and(|l| (l - want).abs() < 1e-9);
        assert!(
            near(first.likeness(&half, None), 1.0),
            "{:?}",
            first.likeness(&half, None)
        );
        assert!(near(first.likeness(&turned, None), -1.0));
        // Over the noise alone the two share nothing seen.
        let noise: Vec<bool> = (0..n).map(|k| k < 100).collect();
        assert_eq!(first.likeness(&half, Some(&noise)), None);
        // Too few cells shared (under MIN_SHARED) tell nothing; a flat print neither.
        let few: Vec<bool> = (0..n).map(|k| k >= n - 50).collect();
        assert_eq!(first.likeness(&half, Some(&few)), None);
        let flat = Print {
            grey: vec![128; n],
            seen: vec![true; n],
        };
        assert_eq!(first.likeness(&flat, None), None);
    }
}

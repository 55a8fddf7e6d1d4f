//! The pennant (shield) detector: whether a tile's city shows a coat of arms. Shields are small,
//! strongly blue and printed wherever an edition likes inside the city, so the detector counts
//! shield-blue pixels over the whole city of each candidate reading instead of matching a place.
//! Where blur and a small picture grey a shield's blue, its shape still shows: a small, compact
//! light plate with a bluish mark inside, counted where the edition's cities print no blue of their
//! own (as the start tile tells); on a tile seen so small that the shield's blue loses its hue
//! (cameras sample colour more coarsely than light), a plate of tinted white with a dark mark
//! counts there too. A shield a figure stands on usually leaves some of its white in view just
//! beside the figure, away from the city's light walls: seen, it counts for the pennant; not seen
//! where a figure's rim covers the catalogue's shield spot, it counts a little against (under the
//! figure's body, nothing can show). Editions print the shield where they like, so a figure over
//! the catalogue's spot is taken to hide it only half the time. In a figure's shadow a shield's
//! white dims to grey: there a compact grey plate with shield blue inside counts too.
//! Where an edition's cities print blue roofs as dark as a shield's blue, a shield shows as a
//! small patch of that blue and of a pale, blue-tinted white, about as much of each.

use opencv::core::Mat;
use opencv::prelude::*;

use super::figures::FIGURE_GROWN;
use super::rectify::INSET;
use super::terrain::label_at;
use crate::geometry::TileShape;
use crate::rules::{catalogue, Attr, FeatureKind, Rotation, TileId};
use crate::sim::effects::{grow_mask, mask_where, shrink_mask};

/// Shield-blue pixels (at [`super::rectify::PATCH_PX`] scale) that count as a shield seen.
const SEEN_PX: usize = 3;
/// How far blue must exceed green and red for a shield pixel.
const BLUE_MARGIN: i32 = 15;
/// Extra pixels around figures left out where their paint leans blue ([`BLUE_PAINT`]): their
/// shaded rims may be shield-blue.
const FIGURE_RIM: i32 = 3;
/// Share of the figures' own pixels leaning blue that makes their rims suspect: a blue or
/// black figure's, not a yellow or red one's.
const BLUE_PAINT: f64 = 0.1;
/// How near (distance of balanced colours) a blue patch's mean lies to the roofs' blue for a
/// roof.
const ROOF_NEAR: f32 = 45.0;
/// Chance of seeing no shield-blue where there is no pennant.
const CLEAN: f64 = 0.97;
/// Chance of seeing a shield that lies in plain view.
const SEEN_IF_VISIBLE: f64 = 0.95;
/// Side (pixels in the picture) of a cell whose shield in plain view is seen as surely as
/// [`SEEN_IF_VISIBLE`] says; in a smaller one, ever less surely, down to none at [`BLIND_PX`]
/// (a shield is a tenth of a tile across). `eval vision --generate 100 --seed 8300`: bare
/// tiles with a shield 45 px or more across, all 353 seen; 35 to 45 px, one of 6 missed; a
/// filmed game (eval track's seed 7777, game 9) missed S's shield at 43 px.
const SHARP_PX: f64 = 48.0;
/// Side (pixels in the picture) of a cell whose shield no longer shows.
const BLIND_PX: f64 = 24.0;
/// Half the side of the square around a catalogue shield spot whose visibility is checked.
const SPOT_HALF: f32 = 0.06;
/// How near (pixels) a shield's blue lies to its white.
const WHITE_REACH: i32 = 2;
/// Light pixels of shield plates in a city that count as a shield seen.
const PLATE_SEEN_PX: usize = 4;
/// Pixels of a shield plate's light patch (a shield is about a tenth of a tile across: some 40
/// pixels, less where blurred).
const PLATE_AREA: (usize, usize) = (6, 60);
/// The widest or tallest a shield plate's light patch is (pixels, a sixth of a tile).
const PLATE_SIDE: usize = 11;
/// Share of its bounding box a shield plate's light patch fills at least (a compact shape, not
/// a wall or road).
const PLATE_FILL: f64 = 0.35;

/// How light (darkest channel) a shield's white is in the light.
const WHITE_LIGHT: u8 = 150;
/// How far apart the channels of a small tile's shield white lie at most: a shield a few
/// pixels across takes on the tint of the light and of the city around it.
const TINTED_SPREAD: u8 = 80;
/// How dark a small tile's shield blue is at most, as a share of its plate's lightness (sum of
/// channels): too few pixels across to keep its hue through a camera's coarser colour
/// sampling, the blue shows as a dark mark on the white.
const INK_SHARE: f64 = 0.45;
/// How far (pixels) beyond a figure's mask its shadow may fall.
const SHADE_REACH: i32 = 12;
/// How light (darkest channel) a shield's white stays in a figure's shadow (the simulator's
/// shadows keep 55 % of the light: a white lighter than 150 stays lighter than 82).
const SHADED_LIGHT: u8 = 82;
/// How far a grey pixel's channels lie apart at most (a shield's white, lit or shaded).
const GREY_SPREAD: u8 = 45;

/// Chance that a shield a figure stands on leaves some of its white in view beside it.
const PEEKS: f64 = 0.7;
/// Pixels of shield white beside a figure that count as a shield half hidden by it.
const PEEK_PX: usize = 3;
/// How far (pixels) beyond a figure's mask a hidden shield's rest is looked for.
const PEEK_REACH: i32 = 4;
/// How far (tile units) from the city's edge a shield's rest must lie (walls are light too).
const WALL_CLEAR: f32 = 0.05;
/// How far blue must exceed green and red for a city's faint blue print: an edition's blue
/// roofs on a small or blurred start tile, greyed short of [`BLUE_MARGIN`].
const FAINT_MARGIN: f32 = 5.0;
/// Share of shields printed at the catalogue's spot; editions print the others anywhere in the
/// city (the 2nd edition in its corner), so a figure over the spot hides a shield only so often.
const AT_SPOT: f64 = 0.5;

/// Pixels of shield blue, and as many of pale bluish white, that make a small patch of the two a
/// coat of arms in an edition whose cities print blue roofs (a shield quartered blue and white:
/// some 40 pixels of each at [`super::rectify::PATCH_PX`] scale; roofs and towers beside cream
/// walls show a dozen at most).
const BLAZON_PX: u32 = 20;
/// The most pixels of such a patch.
const BLAZON_AREA: usize = 150;
/// The widest or tallest such a patch is (pixels, a quarter of a tile).
const BLAZON_SIDE: usize = 16;
/// How light (darkest channel) a shield's white is where the blue beside it tints it.
const PALE_LIGHT: i32 = 130;
/// How much bluer than green and red that tinted white is.
const PALE_BLUE: i32 = 8;

/// Which pixels of a patch are shield-blue and which were seen at all (not under a figure).
pub struct ShieldMap {
    w: usize,
    h: usize,
    blue: Vec<bool>,
    seen: Vec<bool>,
    /// Pixels in the blue patch each pixel belongs to (0 off blue).
    blob: Vec<u32>,
    /// Each blue pixel's patch as found ([`components`]'s label) and each patch's mean colour
    /// (balanced).
    blob_label: Vec<i32>,
    blob_colour: Vec<[f32; 3]>,
    /// The smallest blue patch that may be a shield.
    min_blob: u32,
    /// The colour of the edition's blue roofs: patches of about that colour are roofs.
    roof: Option<[f32; 3]>,
    /// Pixels of small, compact light patches with a bluish mark inside: a shield too small or
    /// blurred for its blue to show as such.
    plate: Vec<bool>,
    /// Pixels of small, compact light patches (white, however tinted) with a dark mark inside:
    /// the plate of a shield seen too small for its blue to keep its hue. Counted only on a
    /// tile seen smaller than [`SHARP_PX`], so looked for only there ([`Self::seen_at`]).
    ink_plate: Vec<bool>,
    /// Whether plates count (an edition whose cities show no blue print of their own).
    plates: bool,
    /// How legibly the picture showed the tile: 1 for a cell at least [`SHARP_PX`] across.
    legibility: f64,
    /// Pixels light and grey like a shield's white.
    white: Vec<bool>,
    /// Pixels on or just beside a figure, not its own, that show a shield's white: the part of
    /// a shield a figure standing on it leaves in view.
    peek: Vec<bool>,
    /// Pixels on or beside a figure (where a shield's rest is looked for).
    near_figure: Vec<bool>,
    /// Pixels of the figures themselves (not their grown rims): a shield wholly under one
    /// leaves nothing in view.
    body: Vec<bool>,
    /// Pixels of a compact patch of shield blue and pale bluish white holding at least
    /// [`BLAZON_PX`] of each: a coat of arms however an edition's cities print blue.
    blazon: Vec<bool>,
    /// The patch's colours, balanced (blue, green, red per pixel).
    bytes: Vec<u8>,
}

/// Whether a pixel (blue, green, red) is the blue of a shield: blue above both other channels,
/// which no field, road, city or roof shows under white-ish light.
fn shield_blue(p: [u8; 3]) -> bool {
    let [b, g, r] = p.map(i32::from);
    let other = g.max(r);
    b - other > BLUE_MARGIN
}

/// Whether a pixel is the pale, bluish white that a shield's blue tints beside it.
fn pale_blue(p: [u8; 3]) -> bool {
    let [b, g, r] = p.map(i32::from);
    b.min(g).min(r) > PALE_LIGHT && b - g.max(r) > PALE_BLUE
}

/// Whether a pixel is the white of a small tile's shield: light, its channels no further apart
/// than [`TINTED_SPREAD`].
fn tinted_white(p: [u8; 3]) -> bool {
    light_within(p, WHITE_LIGHT, TINTED_SPREAD)
}

/// Whether a pixel is the white of a shield's other half or rim: light and grey.
fn whitish(p: [u8; 3]) -> bool {
    light_within(p, WHITE_LIGHT, GREY_SPREAD)
}

impl ShieldMap {
    /// Maps a patch; pixels under `figures` (255) are unseen. Colours are first scaled by
    /// `balance` (blue, green, red gains: see [`light_balance`]), so that a
    /// shield's white and blue show as such under warm or cool light.
    ///
    /// [`light_balance`]: super::colours::ColourModel::light_balance
    pub fn new(patch: &Mat, figures: Option<&Mat>, balance: [f32; 3]) -> opencv::Result<ShieldMap> {
        let (w, h, colours) = balanced(patch, balance)?;
        let bytes: Vec<u8> = colours.iter().map(|&v| v.round() as u8).collect();
        let pixel = |k: usize| [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
        let hidden: Option<Vec<u8>> = match figures {
            Some(m) if blue_paint(m, |k| k < w * h && bluish(pixel(k)))? => {
                Some(grow_mask(m, FIGURE_RIM)?.data_bytes()?.to_vec())
            }
            Some(m) => Some(m.try_clone()?.data_bytes()?.to_vec()),
            None => None,
        };
        let seen: Vec<bool> = (0..w * h)
            .map(|k| hidden.as_ref().is_none_or(|m| m[k] == 0))
            .collect();
        // A shield is blue beside white: blue roofs and figures' shaded rims are not.
        let white = mask_where(
            w,
            h,
            bytes.chunks_exact(3).map(|p| whitish([p[0], p[1], p[2]])),
        )?;
        let white_px = white.data_bytes()?.to_vec();
        let near_white = grow_mask(&white, WHITE_REACH)?;
        let near_white = near_white.data_bytes()?;
        let blue: Vec<bool> = (0..w * h)
            .map(|k| seen[k] && near_white[k] != 0 && shield_blue(pixel(k)))
            .collect();
        let (blob_label, stats) = components(&blue, w, h)?;
        let blob = sizes(&blue, &blob_label, &stats);
        let mut sums = vec![[0.0f32; 3]; stats.len()];
        for (k, &l) in blob_label.iter().enumerate() {
            if blue[k] && l > 0 {
                for (c, sum) in sums[l as usize].iter_mut().enumerate() {
                    *sum += f32::from(bytes[3 * k + c]);
                }
            }
        }
        let blob_colour = sums
            .iter()
            .zip(&stats)
            .map(|(sum, st)| sum.map(|v| v / st[4].max(1) as f32))
            .collect();
        let white: Vec<bool> = white_px.iter().map(|&m| m != 0).collect();
        let light: Vec<bool> = (0..w * h).map(|k| seen[k] && white[k]).collect();
        let mut plate = plates(&light, w, h, |k, _| bluish(pixel(k)))?;
        if let Some(figures) = figures {
            let shaded = shaded_plates(&bytes, &seen, &white, figures)?;
            plate.iter_mut().zip(shaded).for_each(|(p, s)| *p |= s);
        }
        let blazon = blazons(w, h, |k| {
            let p = pixel(k);
            (seen[k] && pale_blue(p), seen[k] && shield_blue(p))
        })?;
        Ok(ShieldMap {
            w,
            h,
            blue,
            seen,
            blob,
            blob_label,
            blob_colour,
            min_blob: 1,
            roof: None,
            plate,
            ink_plate: vec![false; w * h],
            plates: true,
            legibility: 1.0,
            white,
            peek: vec![false; w * h],
            near_figure: vec![false; w * h],
            body: vec![false; w * h],
            blazon,
            bytes,
        })
    }

    /// This map also looking beside the `figures` (255, grown as [`Enrolment::find`] grows
    /// them) for the white that a shield under a figure leaves in view around it; not in an
    /// edition whose cities print blue (call [`Self::with_city_print`] first).
    ///
    /// [`Enrolment::find`]: super::figures::Enrolment::find
    pub fn with_peeks(mut self, figures: Option<&Mat>) -> opencv::Result<ShieldMap> {
        let Some(figures) = figures.filter(|_| self.plates) else {
            return Ok(self);
        };
        // The figures' own pixels, without the rim they were grown by: a grey figure's lit
        // top is light too.
        let own = shrink_mask(figures, FIGURE_GROWN)?;
        let near = grow_mask(figures, PEEK_REACH)?;
        let (own, near) = (own.data_bytes()?, near.data_bytes()?);
        if near.len() != self.w * self.h || own.len() != near.len() {
            return Ok(self);
        }
        self.near_figure = near.iter().map(|&m| m != 0).collect();
        self.body = own.iter().map(|&m| m != 0).collect();
        // A shield's white is a small patch; a road, a wall or a sleeve is not.
        let patches = blob_sizes(&self.white, self.w, self.h)?;
        self.peek = (0..self.w * self.h)
            .map(|k| {
                self.white[k]
                    && patches[k] as usize <= PLATE_AREA.1
                    && self.near_figure[k]
                    && !self.body[k]
            })
            .collect();
        Ok(self)
    }

    /// This map counting only blue patches of at least `min_blob` pixels, and not of about the
    /// `roof` colour, as shields (an edition whose cities show blue roofs without pennants, as
    /// its start tile tells; light plates and the white beside figures then do not count
    /// either: its cities' print is busy with blue and light).
    pub fn with_city_print(mut self, min_blob: u32, roof: Option<[f32; 3]>) -> ShieldMap {
        self.min_blob = min_blob.max(1);
        self.plates = self.min_blob <= 1;
        self.roof = roof;
        self
    }

    /// Whether pixel `k` lies in a blue patch that may be a shield: big enough, and not of
    /// the roofs' colour; or, in an edition whose cities print blue, in a coat of arms.
    fn shield_at(&self, k: usize) -> bool {
        if self.min_blob > 1 && self.blazon[k] {
            return true;
        }
        let roofish = |c: [f32; 3]| {
            self.roof.is_some_and(|r| {
                (0..3).map(|i| (c[i] - r[i]).powi(2)).sum::<f32>() < ROOF_NEAR * ROOF_NEAR
            })
        };
        self.blue[k]
            && self.blob[k] >= self.min_blob
            && !self
                .blob_colour
                .get(self.blob_label[k].max(0) as usize)
                .is_some_and(|&c| roofish(c))
    }

    /// The mean colour (balanced as [`Self::new`] was) of the blue pixels where `keep(x, y)`,
    /// if any.
    pub fn mean_blue_where(&self, keep: impl Fn(usize, usize) -> bool) -> Option<[f32; 3]> {
        let (mut sum, mut n) = ([0.0f32; 3], 0usize);
        for (k, &l) in self.blob_label.iter().enumerate() {
            if self.blue[k] && keep(k % self.w.max(1), k / self.w.max(1)) {
                // Each patch's mean, weighted by its pixels there.
                let c = self.blob_colour[l.max(0) as usize];
                (0..3).for_each(|i| sum[i] += c[i]);
                n += 1;
            }
        }
        (n > 0).then(|| sum.map(|v| v / n as f32))
    }

    /// This map for a tile seen `tile_px` pixels across in the picture (if known): a shield in
    /// a small cell shows less surely.
    pub fn seen_at(mut self, tile_px: Option<f64>) -> opencv::Result<ShieldMap> {
        self.legibility = tile_px.map_or(1.0, |px| {
            ((px - BLIND_PX) / (SHARP_PX - BLIND_PX)).clamp(0.0, 1.0)
        });
        if self.legibility < 1.0 {
            let pixel = |k: usize| {
                [
                    self.bytes[3 * k],
                    self.bytes[3 * k + 1],
                    self.bytes[3 * k + 2],
                ]
            };
            let tinted: Vec<bool> = (0..self.w * self.h)
                .map(|k| self.seen[k] && tinted_white(pixel(k)))
                .collect();
            self.ink_plate = ink_plates(&tinted, self.w, self.h, |k| {
                self.seen[k].then(|| pixel(k).iter().map(|&c| u32::from(c)).sum())
            })?;
        }
        Ok(self)
    }

    /// Pixels in the largest blue patch that reaches a pixel (x, y) where `keep(x, y)`.
    pub fn largest_blob_where(&self, keep: impl Fn(usize, usize) -> bool) -> u32 {
        self.blob
            .iter()
            .enumerate()
            .filter(|&(k, _)| keep(k % self.w.max(1), k / self.w.max(1)))
            .map(|(_, &b)| b)
            .max()
            .unwrap_or(0)
    }

    /// Log-likelihood of what the `side`-pixel window at (x, y) shows, if it holds `tile` lying
    /// with `rot`: shields seen in its cities where it has pennants, none where it has none.
    /// Tiles without a city get 0.
    pub fn log_likelihood(
        &self,
        tile: TileId,
        rot: Rotation,
        x: usize,
        y: usize,
        side: usize,
    ) -> f64 {
        let ty = catalogue().tile(tile);
        if !ty.features.iter().any(|f| f.kind == FeatureKind::City) || side == 0 {
            return 0.0;
        }
        let shape = TileShape::of(tile);
        let spots: Vec<[f32; 2]> = shape
            .pennants
            .iter()
            .map(|&p| crate::geometry::rotate(p, rot))
            .collect();
        let scale = (1.0 - 2.0 * INSET as f32) / side as f32;
        let (mut blue, mut plate, mut spot_all, mut spot_seen) = (0usize, 0usize, 0usize, 0usize);
        let (mut peek, mut spot_covered, mut spot_under) = (0usize, 0usize, 0usize);
        let (mut city, mut city_seen) = (0usize, 0usize);
        let inside = |u: [f32; 2]| {
            [
                [-WALL_CLEAR, 0.0],
                [WALL_CLEAR, 0.0],
                [0.0, -WALL_CLEAR],
                [0.0, WALL_CLEAR],
            ]
            .iter()
            .all(|d| {
                let l = usize::from(label_at(&shape.labels, [u[0] + d[0], u[1] + d[1]], rot));
                ty.features
                    .get(l)
                    .is_some_and(|f| f.kind == FeatureKind::City)
            })
        };
        // A small tile's plates of tinted white count away from the city's light walls.
        let small = self.legibility < 1.0;
        for py in y..(y + side).min(self.h) {
            for px in x..(x + side).min(self.w) {
                let u = [
                    INSET as f32 + (px - x) as f32 * scale,
                    INSET as f32 + (py - y) as f32 * scale,
                ];
                let k = py * self.w + px;
                let label = usize::from(label_at(&shape.labels, u, rot));
                let in_city = ty
                    .features
                    .get(label)
                    .is_some_and(|f| f.kind == FeatureKind::City);
                if in_city && self.shield_at(k) {
                    blue += 1;
                }
                plate += usize::from(
                    in_city
                        && self.plates
                        && (self.plate[k] || (small && self.ink_plate[k] && inside(u))),
                );
                city += usize::from(in_city);
                city_seen += usize::from(in_city && self.seen[k]);
                peek += usize::from(in_city && self.plates && self.peek[k] && inside(u));
                if spots
                    .iter()
                    .any(|s| (u[0] - s[0]).abs() < SPOT_HALF && (u[1] - s[1]).abs() < SPOT_HALF)
                {
                    spot_all += 1;
                    spot_seen += usize::from(self.seen[k]);
                    spot_covered += usize::from(!self.seen[k] && self.near_figure[k]);
                    spot_under += usize::from(self.body[k]);
                }
            }
        }
        let shown = blue >= SEEN_PX || plate >= PLATE_SEEN_PX;
        let peeked = peek >= PEEK_PX;
        if ty.count(Attr::Pennant) == 0 {
            let p = if shown || peeked { 1.0 - CLEAN } else { CLEAN };
            return p.ln();
        }
        // A figure may hide the shield: it lies where the catalogue prints it or anywhere in
        // the city.
        let visible = AT_SPOT * spot_seen as f64 / spot_all.max(1) as f64
            + (1.0 - AT_SPOT) * city_seen as f64 / city.max(1) as f64;
        let covered = spot_covered as f64 / spot_all.max(1) as f64;
        let under = spot_under as f64 / spot_all.max(1) as f64;
        let p_seen = (SEEN_IF_VISIBLE * self.legibility * visible).max(1.0 - CLEAN);
        // Peeks are looked for only in a plainly printed edition (see `plates`).
        let p_peeks = if self.plates {
            PEEKS * self.legibility * covered * (1.0 - under)
        } else {
            0.0
        };
        let p = match (shown, peeked) {
            (true, _) => p_seen,
            (false, true) => (1.0 - p_seen) * p_peeks.max(1.0 - CLEAN),
            (false, false) => (1.0 - p_seen) * (1.0 - p_peeks),
        };
        p.ln()
    }
}

/// A patch's width, height and colours (blue, green, red per pixel), each scaled by its gain in
/// `balance` (at most 255).
fn balanced(patch: &Mat, balance: [f32; 3]) -> opencv::Result<(usize, usize, Vec<f32>)> {
    let patch = patch.try_clone()?;
    let (w, h) = (patch.cols().max(0) as usize, patch.rows().max(0) as usize);
    let bytes = patch
        .data_bytes()?
        .iter()
        .enumerate()
        .map(|(k, &v)| (f32::from(v) * balance[k % 3]).min(255.0))
        .collect();
    Ok((w, h, bytes))
}

/// The largest patch of faintly blue pixels (blue above green and red by [`FAINT_MARGIN`])
/// where `keep(x, y)`, in pixels, and its mean colour; colours are first scaled by `balance`
/// as in [`ShieldMap::new`].
pub fn faint_blue_print(
    patch: &Mat,
    balance: [f32; 3],
    keep: impl Fn(usize, usize) -> bool,
) -> opencv::Result<(u32, Option<[f32; 3]>)> {
    let (w, h, colours) = balanced(patch, balance)?;
    let faint: Vec<bool> = colours
        .chunks_exact(3)
        .enumerate()
        .map(|(k, p)| keep(k % w.max(1), k / w.max(1)) && p[0] - p[1].max(p[2]) > FAINT_MARGIN)
        .collect();
    let (labels, stats) = components(&faint, w, h)?;
    let Some(largest) = (1..stats.len()).max_by_key(|&l| stats[l][4]) else {
        return Ok((0, None));
    };
    let mut sum = [0.0f32; 3];
    for (p, _) in colours
        .chunks_exact(3)
        .zip(&labels)
        .filter(|&(_, &l)| l as usize == largest)
    {
        (0..3).for_each(|c| sum[c] += p[c]);
    }
    let area = stats[largest][4];
    Ok((area as u32, Some(sum.map(|v| v / area.max(1) as f32))))
}

/// The pixels of shield plates in the shadow of the `figures` (255) of a patch (`bytes`, blue,
/// green, red per pixel; `seen` and lit `white` pixels as [`ShieldMap::new`] found them): compact
/// patches within [`SHADE_REACH`] of a figure, grey but dimmed below a lit white, with shield
/// blue inside, or a mark darker than [`INK_SHARE`] of the plate's lightness (a camera's coarse
/// colour sampling greys a shaded blue half a few pixels across, beside a figure's paint).
fn shaded_plates(
    bytes: &[u8],
    seen: &[bool],
    white: &[bool],
    figures: &Mat,
) -> opencv::Result<Vec<bool>> {
    let (w, h) = (
        figures.cols().max(0) as usize,
        figures.rows().max(0) as usize,
    );
    if w * h != seen.len() || opencv::core::count_non_zero(figures)? == 0 {
        return Ok(vec![false; seen.len()]);
    }
    let shade = grow_mask(figures, SHADE_REACH)?;
    let shade = shade.data_bytes()?;
    let pixel = |k: usize| [bytes[3 * k], bytes[3 * k + 1], bytes[3 * k + 2]];
    let dim: Vec<bool> = (0..w * h)
        .map(|k| {
            seen[k]
                && shade[k] != 0
                && !white[k]
                && light_within(pixel(k), SHADED_LIGHT, GREY_SPREAD)
        })
        .collect();
    let lightness = |k: usize| pixel(k).iter().map(|&c| f64::from(c)).sum::<f64>();
    let (labels, stats) = components(&dim, w, h)?;
    let mut sums = vec![0.0; stats.len()];
    for (k, &l) in labels.iter().enumerate() {
        sums[l.max(0) as usize] += lightness(k);
    }
    let ink = |l: usize| INK_SHARE * sums[l] / stats[l][4].max(1) as f64;
    plates(&dim, w, h, |k, l| {
        shield_blue(pixel(k)) || (seen[k] && lightness(k) < ink(l))
    })
}

/// Whether at least [`BLUE_PAINT`] of the own pixels of the `figures` (255, grown by
/// [`FIGURE_GROWN`]) are `blue` (by index).
fn blue_paint(figures: &Mat, blue: impl Fn(usize) -> bool) -> opencv::Result<bool> {
    let own = shrink_mask(figures, FIGURE_GROWN)?;
    let own = own.data_bytes()?;
    let body = own.iter().filter(|&&m| m != 0).count();
    let leaning = own
        .iter()
        .enumerate()
        .filter(|&(k, &m)| m != 0 && blue(k))
        .count();
    Ok(body > 0 && leaning as f64 >= BLUE_PAINT * body as f64)
}

/// Whether a pixel is lighter than `light` in its darkest channel, its channels less than
/// `spread` apart.
fn light_within(p: [u8; 3], light: u8, spread: u8) -> bool {
    let (lo, hi) = (
        p.iter().min().copied().unwrap_or(0),
        p.iter().max().copied().unwrap_or(0),
    );
    lo > light && hi - lo < spread
}

/// Whether a pixel leans blue (the blue half of a shield, however blurred or dark), not white.
fn bluish(p: [u8; 3]) -> bool {
    let [b, g, r] = p.map(i32::from);
    b > g.max(r) && !whitish(p)
}

/// The pixels of `light` patches shaped like a shield plate ([`plate_shaped`]) with a `mark`ed
/// pixel inside them: within their bounding box, with their light on both sides. `mark(k, l)`:
/// whether pixel `k` marks the patch labelled `l` (as [`components`] labels `light`).
fn plates(
    light: &[bool],
    w: usize,
    h: usize,
    mark: impl Fn(usize, usize) -> bool,
) -> opencv::Result<Vec<bool>> {
    let (labels, stats) = components(light, w, h)?;
    let shaped: Vec<bool> = stats
        .iter()
        .enumerate()
        .map(|(l, &[x, y, bw, bh, area])| {
            // Inside: the plate's light on both sides of it, across or up and down (the grey
            // edge of a wall's or road's corner lies beside the light, not in it).
            let of_plate = |px: usize, py: usize| labels[py * w + px] == l as i32;
            let inside = |px: usize, py: usize| {
                ((x..px).any(|qx| of_plate(qx, py)) && (px + 1..x + bw).any(|qx| of_plate(qx, py)))
                    || ((y..py).any(|qy| of_plate(px, qy))
                        && (py + 1..y + bh).any(|qy| of_plate(px, qy)))
            };
            plate_shaped([x, y, bw, bh, area])
                && (y..y + bh)
                    .any(|py| (x..x + bw).any(|px| mark(py * w + px, l) && inside(px, py)))
        })
        .collect();
    Ok(labels
        .iter()
        .map(|&l| l > 0 && shaped[l as usize])
        .collect())
}

/// Whether a patch ([`components`]'s left, top, width, height and area) is shaped like a
/// shield plate: between [`PLATE_AREA`] pixels, no wider or taller than [`PLATE_SIDE`], filling
/// at least [`PLATE_FILL`] of its bounding box.
fn plate_shaped([_, _, bw, bh, area]: [usize; 5]) -> bool {
    let fill = area as f64 / (bw * bh).max(1) as f64;
    (PLATE_AREA.0..=PLATE_AREA.1).contains(&area) && bw.max(bh) <= PLATE_SIDE && fill >= PLATE_FILL
}

/// The pixels of `light` patches shaped like a shield plate ([`plate_shaped`]) with a mark inside
/// their bounding box darker than [`INK_SHARE`] of their mean lightness (`lightness(k)`: the sum
/// of pixel `k`'s channels, `None` where unseen).
fn ink_plates(
    light: &[bool],
    w: usize,
    h: usize,
    lightness: impl Fn(usize) -> Option<u32>,
) -> opencv::Result<Vec<bool>> {
    let (labels, stats) = components(light, w, h)?;
    let mut sums = vec![0u32; stats.len()];
    for (k, &l) in labels.iter().enumerate() {
        if l > 0 {
            sums[l as usize] += lightness(k).unwrap_or(0);
        }
    }
    let inked: Vec<bool> = stats
        .iter()
        .zip(&sums)
        .map(|(&[x, y, bw, bh, area], &sum)| {
            let dark = INK_SHARE * f64::from(sum) / area.max(1) as f64;
            plate_shaped([x, y, bw, bh, area])
                && (y..y + bh).any(|py| {
                    (x..x + bw)
                        .any(|px| lightness(py * w + px).is_some_and(|v| f64::from(v) < dark))
                })
        })
        .collect();
    Ok(labels.iter().map(|&l| l > 0 && inked[l as usize]).collect())
}

/// The pixels of compact patches of pale bluish white and shield blue (`pale_deep(k)`: whether
/// pixel `k` is either) holding at least [`BLAZON_PX`] of each.
fn blazons(
    w: usize,
    h: usize,
    pale_deep: impl Fn(usize) -> (bool, bool),
) -> opencv::Result<Vec<bool>> {
    let kinds: Vec<(bool, bool)> = (0..w * h).map(pale_deep).collect();
    let either: Vec<bool> = kinds.iter().map(|&(p, d)| p || d).collect();
    let (labels, stats) = components(&either, w, h)?;
    let mut counts = vec![[0u32; 2]; stats.len()];
    for (&l, &(pale, _)) in labels.iter().zip(&kinds) {
        if l > 0 {
            counts[l as usize][usize::from(pale)] += 1;
        }
    }
    let arms: Vec<bool> = stats
        .iter()
        .zip(&counts)
        .map(|(&[_, _, bw, bh, area], c)| {
            area <= BLAZON_AREA && bw.max(bh) <= BLAZON_SIDE && c[0].min(c[1]) >= BLAZON_PX
        })
        .collect();
    Ok(labels.iter().map(|&l| l > 0 && arms[l as usize]).collect())
}

/// The 8-connected patches of `on` pixels: each pixel's patch label (0 off) and each label's
/// left, top, width, height and area.
fn components(on: &[bool], w: usize, h: usize) -> opencv::Result<(Vec<i32>, Vec<[usize; 5]>)> {
    let mask = mask_where(w, h, on.iter().copied())?;
    let (mut labels, mut stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
    let n = opencv::imgproc::connected_components_with_stats(
        &mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    use opencv::imgproc::{CC_STAT_AREA, CC_STAT_HEIGHT, CC_STAT_LEFT, CC_STAT_TOP, CC_STAT_WIDTH};
    let stats = (0..n.max(0))
        .map(|i| {
            let stat = |k: i32| stats.at_2d::<i32>(i, k).map(|v| (*v).max(0) as usize);
            Ok([
                stat(CC_STAT_LEFT)?,
                stat(CC_STAT_TOP)?,
                stat(CC_STAT_WIDTH)?,
                stat(CC_STAT_HEIGHT)?,
                stat(CC_STAT_AREA)?,
            ])
        })
        .collect::<opencv::Result<_>>()?;
    Ok((labels.data_typed::<i32>()?.to_vec(), stats))
}

/// The size of the 8-connected patch of `on` pixels each pixel lies in (0 where off).
fn blob_sizes(on: &[bool], w: usize, h: usize) -> opencv::Result<Vec<u32>> {
    let (labels, stats) = components(on, w, h)?;
    Ok(sizes(on, &labels, &stats))
}

/// [`blob_sizes`] from the patches' `labels` and `stats` ([`components`]).
fn sizes(on: &[bool], labels: &[i32], stats: &[[usize; 5]]) -> Vec<u32> {
    on.iter()
        .zip(labels)
        .map(|(&b, &l)| {
            if b && l > 0 {
                stats[l as usize][4] as u32
            } else {
                0
            }
        })
        .collect()
}

//! Hand/occlusion mask: which pixels of a frame a hand or arm covers (or something else that
//! stands over the table and is not known, such as a tile held up), so nothing is read there.
//!
//! The frame is compared with the last still picture of the table on a small copy
//! ([`WORK_WIDTH`] pixels wide), once the light's overall change is evened out channel by channel
//! (the median over blocks of the picture, so an arm covering part of it does not sway it). What
//! changed clearly is closed into regions; only regions that reach the picture's border (an arm
//! always comes from outside the picture) or cover much of it are kept, their holes filled, grown
//! by a margin and scaled back up. A tile laid or a follower taken away while no arm touches it
//! is a change of the table, not an occlusion, and is left out. When the camera is bumped, most
//! of the picture changes and is masked as unknown until a new still picture is set.
//!
//! [`evaluate`] measures the mask on filmed games against the simulator's exact arm mask.

use std::time::Instant;

use opencv::core::{Mat, Point, Rect, Scalar, Size, Vector, CV_8UC1, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

use super::rectify::dilated;
use crate::camera::FrameSource;
use crate::sim::artwork::Artwork;
use crate::sim::game::film_game_with_art;
use crate::sim::truth::{FrameTruth, HeldTruth, MeepleTruth, TileTruth};

/// Width of the picture the comparison is made on (narrower frames are used as they are).
pub const WORK_WIDTH: i32 = 320;
/// Blocks across the picture in which the change of the light is measured.
const GAIN_BLOCKS: i32 = 16;
/// Colour change of a small-picture pixel, summed over the channels, that is more than noise.
const LEVEL: i32 = 24;
/// Further change allowed per grey level of the background (summed over channels), in 1/256:
/// light that changed unevenly changes bright pixels more.
const LEVEL_SLOPE: i32 = 8;
/// Share of the picture above which a changed region counts even if it does not reach the
/// border.
const LARGE_SHARE: f64 = 0.05;
/// Side of the closing that joins an arm's pieces, small-picture pixels.
const CLOSE_PX: i32 = 5;
/// Margin grown around what is kept, small-picture pixels.
const MARGIN_PX: i32 = 2;
/// Frames per second of the films [`evaluate`] uses.
const EVAL_FPS: f64 = 5.0;

/// The mask maker: the last still picture of the table, and what is compared with it.
pub struct Occlusion {
    /// Size of the frames (and of the background), full resolution.
    size: Size,
    /// Size of the small pictures compared.
    small_size: Size,
    /// The background, small.
    background: Mat,
    /// The background's mean colour per gain block (blue, green, red).
    blocks: Vec<[f32; 3]>,
}

impl Occlusion {
    /// A mask maker for frames like `background` (8-bit BGR): the last still picture of the table,
    /// with no arm in it. An error if it is empty or not 8-bit BGR.
    pub fn new(background: &Mat) -> opencv::Result<Occlusion> {
        check_bgr(background, "background")?;
        let size = background.size()?;
        let width = WORK_WIDTH.min(size.width);
        let height = ((f64::from(size.height) * f64::from(width) / f64::from(size.width)).round()
            as i32)
            .max(1);
        let small_size = Size::new(width, height);
        let small = shrink(background, small_size)?;
        let blocks = block_means(&small)?;
        Ok(Occlusion {
            size,
            small_size,
            background: small,
            blocks,
        })
    }

    /// The mask of `frame` (8-bit BGR, the background's size): an 8-bit single-channel picture of
    /// the frame's size, 255 where a hand, an arm or something unknown over the table covers it,
    /// 0 elsewhere. An error if the frame is empty, not 8-bit BGR or of another size.
    pub fn mask(&self, frame: &Mat) -> opencv::Result<Mat> {
        check_bgr(frame, "frame")?;
        let size = frame.size()?;
        if size != self.size {
            return Err(opencv::Error::new(
                opencv::core::StsUnmatchedSizes,
                format!(
                    "occlusion mask: the frame is {}×{} but the background {}×{}",
                    size.width, size.height, self.size.width, self.size.height
                ),
            ));
        }
        let small = shrink(frame, self.small_size)?;
        let changed = self.changed(&small)?;
        let kept = keep_arms(&changed)?;
        if opencv::core::count_non_zero(&kept)? == 0 {
            return Mat::zeros(size.height, size.width, CV_8UC1)?.to_mat();
        }
        let kernel = imgproc::get_structuring_element(
            imgproc::MORPH_ELLIPSE,
            Size::new(2 * MARGIN_PX + 1, 2 * MARGIN_PX + 1),
            Point::new(-1, -1),
        )?;
        let grown = dilated(&kept, &kernel)?;
        if self.small_size == size {
            return Ok(grown);
        }
        // Only the part with something in it is scaled up: the rest stays 0.
        let part = imgproc::bounding_rect(&grown)?;
        let (sx, sy) = (
            f64::from(size.width) / f64::from(self.small_size.width),
            f64::from(size.height) / f64::from(self.small_size.height),
        );
        let x0 = (f64::from(part.x) * sx).floor() as i32;
        let y0 = (f64::from(part.y) * sy).floor() as i32;
        let x1 = ((f64::from(part.x + part.width) * sx).ceil() as i32).min(size.width);
        let y1 = ((f64::from(part.y + part.height) * sy).ceil() as i32).min(size.height);
        let mut full = Mat::zeros(size.height, size.width, CV_8UC1)?.to_mat()?;
        let mut roi = Mat::roi_mut(&mut full, Rect::new(x0, y0, x1 - x0, y1 - y0))?;
        imgproc::resize(
            &Mat::roi(&grown, part)?,
            &mut roi,
            Size::new(x1 - x0, y1 - y0),
            0.0,
            0.0,
            imgproc::INTER_NEAREST,
        )?;
        Ok(full)
    }

    /// 255 where the small frame differs clearly from the background once the light's overall
    /// change is evened out.
    fn changed(&self, small: &Mat) -> opencv::Result<Mat> {
        let now = block_means(small)?;
        let mut gain = [256i32; 3];
        for (c, g) in gain.iter_mut().enumerate() {
            let mut ratios: Vec<f32> = self
                .blocks
                .iter()
                .zip(&now)
                .filter(|(_, n)| n[c] >= 8.0)
                .map(|(b, n)| b[c] / n[c])
                .collect();
            if ratios.is_empty() {
                continue;
            }
            let mid = ratios.len() / 2;
            let (_, median, _) = ratios.select_nth_unstable_by(mid, f32::total_cmp);
            *g = (median.clamp(0.5, 2.0) * 256.0).round() as i32;
        }
        let mut out = Mat::zeros(small.rows(), small.cols(), CV_8UC1)?.to_mat()?;
        let (bg, px) = (self.background.data_bytes()?, small.data_bytes()?);
        for ((o, b), f) in out
            .data_bytes_mut()?
            .iter_mut()
            .zip(bg.chunks_exact(3))
            .zip(px.chunks_exact(3))
        {
            let mut diff = 0;
            let mut bright = 0;
            for c in 0..3 {
                let (b, f) = (i32::from(b[c]), i32::from(f[c]));
                diff += ((f * gain[c]) >> 8).min(255).abs_diff(b) as i32;
                bright += b;
            }
            if diff > LEVEL + ((bright * LEVEL_SLOPE) >> 8) {
                *o = 255;
            }
        }
        Ok(out)
    }
}

/// An error unless `m` is a non-empty 8-bit BGR picture.
fn check_bgr(m: &Mat, what: &str) -> opencv::Result<()> {
    if m.empty() || m.cols() < 1 || m.rows() < 1 {
        return Err(opencv::Error::new(
            opencv::core::StsBadArg,
            format!("occlusion mask: the {what} is empty"),
        ));
    }
    if m.typ() != CV_8UC3 {
        return Err(opencv::Error::new(
            opencv::core::StsBadArg,
            format!(
                "occlusion mask: the {what} must be 8-bit BGR (3 channels), not {} channel(s) of depth {}",
                m.channels(),
                m.depth()
            ),
        ));
    }
    Ok(())
}

/// `img` shrunk to `size` (bilinear: a few times faster than averaging every pixel, and the
/// background is shrunk the same way, so the pattern it samples is the same in both).
fn shrink(img: &Mat, size: Size) -> opencv::Result<Mat> {
    let mut small = Mat::default();
    if img.size()? == size {
        img.copy_to(&mut small)?;
    } else {
        imgproc::resize(img, &mut small, size, 0.0, 0.0, imgproc::INTER_LINEAR)?;
    }
    Ok(small)
}

/// Mean colour of each of the [`GAIN_BLOCKS`] blocks across (and as many down as keep them
/// square) of a small picture.
fn block_means(small: &Mat) -> opencv::Result<Vec<[f32; 3]>> {
    let across = GAIN_BLOCKS.min(small.cols());
    let down = ((GAIN_BLOCKS * small.rows()) / small.cols().max(1)).clamp(1, small.rows());
    let mut blocks = Mat::default();
    imgproc::resize(
        small,
        &mut blocks,
        Size::new(across, down),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )?;
    Ok(blocks
        .data_bytes()?
        .chunks_exact(3)
        .map(|p| [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])])
        .collect())
}

/// Of the changed pixels, closed into regions, the regions that reach the border or are large,
/// with their holes filled.
fn keep_arms(changed: &Mat) -> opencv::Result<Mat> {
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_ELLIPSE,
        Size::new(CLOSE_PX, CLOSE_PX),
        Point::new(-1, -1),
    )?;
    let mut closed = Mat::default();
    imgproc::morphology_ex(
        changed,
        &mut closed,
        imgproc::MORPH_CLOSE,
        &kernel,
        Point::new(-1, -1),
        1,
        opencv::core::BORDER_REPLICATE,
        imgproc::morphology_default_border_value()?,
    )?;
    let large = LARGE_SHARE * closed.total() as f64;
    let kept = keep_regions(&closed, |reaches_border, area| {
        reaches_border || area > large
    })?;
    if opencv::core::count_non_zero(&kept)? == 0 {
        return Ok(kept);
    }
    // Holes: unmasked regions enclosed by what is kept.
    let mut open = Mat::default();
    opencv::core::bitwise_not(&kept, &mut open, &opencv::core::no_array())?;
    let holes = keep_regions(&open, |reaches_border, _| !reaches_border)?;
    let mut filled = Mat::default();
    opencv::core::bitwise_or(&kept, &holes, &mut filled, &opencv::core::no_array())?;
    Ok(filled)
}

/// The connected regions (8-connected) of the binary `mask` that `keep` (told whether the region
/// reaches the picture's border, and its area in pixels) accepts, as a binary mask.
pub(super) fn keep_regions(mask: &Mat, keep: impl Fn(bool, f64) -> bool) -> opencv::Result<Mat> {
    let (mut labels, mut stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
    let n = imgproc::connected_components_with_stats(
        mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        8,
        opencv::core::CV_32S,
    )?;
    let (w, h) = (mask.cols(), mask.rows());
    let mut wanted = vec![false; n.max(0) as usize];
    for (i, want) in wanted.iter_mut().enumerate().skip(1) {
        let at = |k| stats.at_2d::<i32>(i as i32, k).copied();
        let (x, y) = (at(imgproc::CC_STAT_LEFT)?, at(imgproc::CC_STAT_TOP)?);
        let (cw, ch) = (at(imgproc::CC_STAT_WIDTH)?, at(imgproc::CC_STAT_HEIGHT)?);
        let border = x == 0 || y == 0 || x + cw == w || y + ch == h;
        *want = keep(border, f64::from(at(imgproc::CC_STAT_AREA)?));
    }
    let mut out = Mat::zeros(h, w, CV_8UC1)?.to_mat()?;
    if !wanted.iter().any(|&k| k) {
        return Ok(out);
    }
    for (o, &l) in out
        .data_bytes_mut()?
        .iter_mut()
        .zip(labels.data_typed::<i32>()?)
    {
        if wanted[l as usize] {
            *o = 255;
        }
    }
    Ok(out)
}

/// What the occlusion mask measured on filmed games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OcclusionReport {
    /// Games filmed.
    pub games: usize,
    /// Frame size (width, height).
    pub size: [i32; 2],
    /// Frames with an arm in view, each compared with the last still picture before it.
    pub arm_frames: usize,
    /// True arm pixels in those frames.
    pub arm_px: u64,
    /// Of those, masked.
    pub arm_masked: u64,
    /// Frames with an arm in view and at least 90 % of it masked.
    pub arm_frames_covered: usize,
    /// Pixels masked in frames with an arm in view.
    pub masked_px: u64,
    /// Of those, on the arm, what it holds, or a change of the table since the background.
    pub masked_rightly: u64,
    /// Pixels on the arm or what it holds and masked, in frames with an arm in view.
    pub cover_and_mask: u64,
    /// Pixels on the arm or what it holds, or masked, in frames with an arm in view.
    pub cover_or_mask: u64,
    /// Pixels in frames with an arm in view off the arm, what it holds and any change of the
    /// table since the background.
    pub free_px: u64,
    /// Of those, masked.
    pub free_masked: u64,
    /// Frames with no arm in view, each compared with the last still picture before it.
    pub still_frames: usize,
    /// Pixels in those frames.
    pub still_px: u64,
    /// Of those, masked.
    pub still_masked: u64,
    /// Frames with no arm in view and more than 1 % of the picture masked.
    pub still_frames_over_1pct: usize,
    /// Frames left out because the camera moved since the background was taken.
    pub camera_moved: usize,
    /// Milliseconds per mask, sorted.
    pub frame_ms: Vec<f64>,
}

impl OcclusionReport {
    /// Median time per mask, ms.
    pub fn median_ms(&self) -> f64 {
        self.frame_ms
            .get(self.frame_ms.len() / 2)
            .copied()
            .unwrap_or(0.0)
    }

    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: u64, d: u64| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| measure | value |\n|---|---|\n\
             | games | {} |\n\
             | frames with an arm in view | {} |\n\
             | true arm pixels masked (recall) | {:.2} % |\n\
             | frames with ≥ 90 % of the arm masked | {:.1} % |\n\
             | masked pixels on the arm, what it holds or a table change (precision) | {:.2} % |\n\
             | IoU with arm ∪ what it holds | {:.2} % |\n\
             | arm-free pixels masked, frames with an arm | {:.3} % |\n\
             | frames with no arm in view | {} |\n\
             | pixels masked, frames with no arm | {:.3} % |\n\
             | frames with no arm and > 1 % masked | {} |\n\
             | frames left out (camera moved since the background) | {} |\n\
             | median time per frame ({}×{}) | {:.2} ms |\n",
            self.games,
            self.arm_frames,
            pct(self.arm_masked, self.arm_px),
            pct(self.arm_frames_covered as u64, self.arm_frames as u64),
            pct(self.masked_rightly, self.masked_px),
            pct(self.cover_and_mask, self.cover_or_mask),
            pct(self.free_masked, self.free_px),
            self.still_frames,
            pct(self.still_masked, self.still_px),
            self.still_frames_over_1pct,
            self.camera_moved,
            self.size[0],
            self.size[1],
            self.median_ms()
        )
    }
}

/// Films `games` random games of at most `turns` turns (seeds `seed`, `seed + 1`, …) and masks
/// every frame against the last still picture before it (the second of two frames in a row with
/// no arm in view, as the tracker would keep), comparing with the simulator's exact arm mask,
/// the outline of what the hand holds and the changes of the table since that picture. Frames
/// after the camera was bumped are left out until a new still picture is taken. The tiles are
/// drawn from `artwork` where given.
pub fn evaluate(
    games: usize,
    turns: usize,
    seed: u64,
    artwork: Option<&Artwork>,
) -> anyhow::Result<OcclusionReport> {
    let mut report = OcclusionReport {
        games,
        ..OcclusionReport::default()
    };
    for g in 0..games {
        let mut source =
            film_game_with_art(seed.wrapping_add(g as u64), turns, EVAL_FPS, artwork)?.source;
        let mut background: Option<(Occlusion, FrameTruth)> = None;
        // The last frame's truth: a background is a frame with no arm after one with none
        // (a still picture, as the tracker would keep), seen by the same camera.
        let mut last: Option<FrameTruth> = None;
        while let Some(frame) = source.next_frame()? {
            let (Some(truth), Some(arm)) = (source.truth(), source.hand_mask()) else {
                anyhow::bail!("the simulated source gave a frame without its truth");
            };
            let truth = truth.clone();
            report.size = [frame.image.cols(), frame.image.rows()];
            if let Some((occlusion, before)) = &background {
                if before.camera != truth.camera {
                    report.camera_moved += 1;
                } else {
                    let start = Instant::now();
                    let mask = occlusion.mask(&frame.image)?;
                    report.frame_ms.push(start.elapsed().as_secs_f64() * 1e3);
                    score(&mut report, &mask, arm, &truth, before)?;
                }
            }
            let still = last
                .as_ref()
                .is_some_and(|l| !l.hand && !truth.hand && l.camera == truth.camera);
            if still {
                background = Some((Occlusion::new(&frame.image)?, truth.clone()));
            }
            last = Some(truth);
        }
    }
    report.frame_ms.sort_by(f64::total_cmp);
    Ok(report)
}

/// Adds one frame's mask, compared with the truth, to the report.
fn score(
    report: &mut OcclusionReport,
    mask: &Mat,
    arm: &Mat,
    truth: &FrameTruth,
    before: &FrameTruth,
) -> opencv::Result<()> {
    let count = |m: &Mat| -> opencv::Result<u64> { Ok(opencv::core::count_non_zero(m)? as u64) };
    let and = |a: &Mat, b: &Mat| -> opencv::Result<Mat> {
        let mut out = Mat::default();
        opencv::core::bitwise_and(a, b, &mut out, &opencv::core::no_array())?;
        Ok(out)
    };
    let or = |a: &Mat, b: &Mat| -> opencv::Result<Mat> {
        let mut out = Mat::default();
        opencv::core::bitwise_or(a, b, &mut out, &opencv::core::no_array())?;
        Ok(out)
    };
    let total = mask.total() as u64;
    if !truth.hand {
        report.still_frames += 1;
        report.still_px += total;
        let masked = count(mask)?;
        report.still_masked += masked;
        if masked * 100 > total {
            report.still_frames_over_1pct += 1;
        }
        return Ok(());
    }
    let side = tile_side_px(truth);
    let mut cover = arm.try_clone()?;
    match &truth.held {
        Some(HeldTruth::Tile(t)) => fill_tile(&mut cover, t)?,
        Some(HeldTruth::Meeple(m)) => fill_meeple(&mut cover, m, side)?,
        None => {}
    }
    let changes = table_changes(truth, before, mask.size()?, side)?;
    let explained = or(&cover, &changes)?;
    report.arm_frames += 1;
    let arm_px = count(arm)?;
    let arm_masked = count(&and(arm, mask)?)?;
    report.arm_px += arm_px;
    report.arm_masked += arm_masked;
    if arm_masked * 10 >= arm_px * 9 {
        report.arm_frames_covered += 1;
    }
    report.masked_px += count(mask)?;
    report.masked_rightly += count(&and(mask, &explained)?)?;
    report.cover_and_mask += count(&and(mask, &cover)?)?;
    report.cover_or_mask += count(&or(mask, &cover)?)?;
    let free_px = total - count(&explained)?;
    report.free_px += free_px;
    let mut free = Mat::default();
    opencv::core::bitwise_not(&explained, &mut free, &opencv::core::no_array())?;
    report.free_masked += count(&and(mask, &free)?)?;
    Ok(())
}

/// A tile's side in pixels, from the first tile of the truth (60 if there is none).
fn tile_side_px(truth: &FrameTruth) -> f64 {
    truth.tiles.first().map_or(60.0, |t| {
        let [a, b, ..] = t.corners_px;
        (a[0] - b[0]).hypot(a[1] - b[1])
    })
}

/// Paints a tile's outline (255) into `mask`.
fn fill_tile(mask: &mut Mat, t: &TileTruth) -> opencv::Result<()> {
    if t.corners_px.iter().flatten().any(|v| !v.is_finite()) {
        return Ok(());
    }
    let poly: Vector<Point> = t
        .corners_px
        .iter()
        .map(|p| Point::new(p[0].round() as i32, p[1].round() as i32))
        .collect();
    imgproc::fill_convex_poly(mask, &poly, Scalar::all(255.0), imgproc::LINE_8, 0)
}

/// Paints the disc a figure may cover (radius half a tile around its base, which holds even a
/// standing figure seen at an angle) into `mask`.
fn fill_meeple(mask: &mut Mat, m: &MeepleTruth, side: f64) -> opencv::Result<()> {
    if !m.base_px.iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    imgproc::circle(
        mask,
        Point::new(m.base_px[0].round() as i32, m.base_px[1].round() as i32),
        (side * 0.5).round() as i32,
        Scalar::all(255.0),
        -1,
        imgproc::LINE_8,
        0,
    )
}

/// Where the table itself changed between `before` and `now`: tiles laid or taken away,
/// followers put down or taken away.
fn table_changes(
    now: &FrameTruth,
    before: &FrameTruth,
    size: Size,
    side: f64,
) -> opencv::Result<Mat> {
    let mut out = Mat::zeros(size.height, size.width, CV_8UC1)?.to_mat()?;
    let tile_key = |t: &TileTruth| t.cell;
    for (a, b) in [(now, before), (before, now)] {
        for t in &a.tiles {
            if !b.tiles.iter().any(|u| tile_key(u) == tile_key(t)) {
                fill_tile(&mut out, t)?;
            }
        }
        for m in &a.meeples {
            let same = |u: &MeepleTruth| {
                u.cell == m.cell && u.port == m.port && u.colour == m.colour && u.figure == m.figure
            };
            if !b.meeples.iter().any(same) {
                fill_meeple(&mut out, m, side)?;
            }
        }
    }
    Ok(out)
}

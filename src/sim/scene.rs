//! A table at one instant — tiles, followers, an arm, the light, the camera — and the renderer
//! that turns it into a camera frame with its exact ground truth.

use std::collections::HashMap;

use opencv::core::{
    Mat, Point2f, Rect, Scalar, Size, Vector, BORDER_TRANSPARENT, CV_8UC1, CV_8UC3,
};
use opencv::imgproc;
use opencv::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::art::{paint_copy, ART_PX};
use super::artwork::Artwork;
use super::camera::{apply_homography as apply, invert_homography, Camera};
use super::effects::{self, Lighting};
use super::figures::{colour_bgr, draw_figure, draw_shadow, Figure as Figure3d, Pose};
use super::hand::{draw_arm, Arm};
use super::style::Style;
use super::table::{paint_surface, Surface};
use super::truth::{FrameTruth, HeldTruth, MeepleTruth, TileTruth};
use super::wheel::board_cell;
use crate::geometry::{rotate, Point as TilePoint, TileShape};
use crate::rules::{catalogue, Colour, FeatureKind, Figure, Port, Pos, Rotation, TileId};

/// Side of a tile in millimetres.
pub const TILE_MM: f64 = 45.0;
/// Distance between neighbouring cell centres (a tile and a hair of gap), mm.
pub const CELL_MM: f64 = 45.5;

/// A tile lying on (or held above) the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileOnTable {
    /// Tile type.
    pub tile: TileId,
    /// Grid cell it belongs to.
    pub cell: Pos,
    /// Rotation.
    pub rot: Rotation,
    /// How far its centre is off the cell centre (mm).
    pub offset_mm: [f64; 2],
    /// How far it is turned off the grid (degrees, clockwise).
    pub angle_deg: f64,
    /// Height above the table (mm): 0 when laid, more while in a hand.
    pub lift_mm: f64,
    /// Seed of this physical tile's print (colour jitter, texture).
    pub print: u64,
    /// Wheel icons printed on this copy (The Wheel of Fortune): 1–3, or 0 for none.
    pub icons: u8,
}

impl TileOnTable {
    /// Table position (mm) of a point given in tile units of the rotated tile.
    pub fn to_table(&self, p: TilePoint) -> [f64; 2] {
        let (s, c) = self.angle_deg.to_radians().sin_cos();
        let (u, v) = (
            (f64::from(p[0]) - 0.5) * TILE_MM,
            (f64::from(p[1]) - 0.5) * TILE_MM,
        );
        let cx = (f64::from(self.cell.x) + 0.5) * CELL_MM + self.offset_mm[0];
        let cy = (f64::from(self.cell.y) + 0.5) * CELL_MM + self.offset_mm[1];
        [cx + u * c - v * s, cy + u * s + v * c]
    }

    /// Corners NW, NE, SE, SW (board frame) in table mm.
    pub fn corners_mm(&self) -> [[f64; 2]; 4] {
        [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]].map(|p| self.to_table(p))
    }

    /// Where a follower on `port` stands, in table mm.
    pub fn anchor_mm(&self, port: Port) -> Option<[f64; 2]> {
        self.spot_mm(port, Figure::Normal)
    }

    /// Where a figure of `kind` on `port` stands, in table mm: a follower on its feature's
    /// anchor, a special figure beside it (still on the feature), so that both can be seen.
    pub fn spot_mm(&self, port: Port, kind: Figure) -> Option<[f64; 2]> {
        let ty = catalogue().tile(self.tile);
        let local = ty.feature_at_rotated(port, self.rot)?;
        let shape = TileShape::of(self.tile);
        let anchor = shape.features[local].anchor;
        let beside = [
            [0.17, 0.0],
            [-0.17, 0.0],
            [0.0, 0.17],
            [0.0, -0.17],
            [0.12, 0.12],
        ]
        .into_iter()
        .map(|[dx, dy]| [anchor[0] + dx, anchor[1] + dy])
        .find(|&p| shape.labels.at(p) == local as u8);
        let at = match (kind.is_follower(), beside) {
            (false, Some(p)) => p,
            _ => anchor,
        };
        Some(self.to_table(rotate(at, self.rot)))
    }
}

/// A figure on the table: a follower or a special figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeepleOnTable {
    /// Owner's colour.
    pub colour: Colour,
    /// The cell of the tile it stands on.
    pub cell: Pos,
    /// A port of its feature (board frame).
    pub port: Port,
    /// The feature's kind.
    pub kind: FeatureKind,
    /// Where and how it stands, and which figure it is.
    pub figure: Figure3d,
}

impl MeepleOnTable {
    /// A figure of `kind` on the feature at `port` of `tile`: farmers lie, the others (special
    /// figures on fields too) stand.
    pub fn on(
        tile: &TileOnTable,
        port: Port,
        colour: Colour,
        kind: Figure,
        yaw: f64,
    ) -> Option<MeepleOnTable> {
        let ty = catalogue().tile(tile.tile);
        let feature = ty.features[ty.feature_at_rotated(port, tile.rot)?].kind;
        let pose = if feature == FeatureKind::Field && kind.is_follower() {
            Pose::Lying
        } else {
            Pose::Standing
        };
        Some(MeepleOnTable {
            colour,
            cell: tile.cell,
            port,
            kind: feature,
            figure: Figure3d {
                kind,
                base: tile.spot_mm(port, kind)?,
                yaw,
                pose,
                colour: colour_bgr(colour),
            },
        })
    }
}

/// Something in the player's hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Held {
    /// A tile, about to be laid.
    Tile(TileOnTable),
    /// A follower, about to be put down (or just picked up).
    Meeple(MeepleOnTable),
}

/// The camera's imperfections for one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sensor {
    /// Noise standard deviation in grey levels.
    pub noise: f64,
    /// JPEG quality, if the webcam compresses.
    pub jpeg_quality: Option<i32>,
    /// Motion blur in pixels (x, y), if something moves fast.
    pub blur: Option<[f64; 2]>,
}

/// Everything in view at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Tiles on the table.
    pub tiles: Vec<TileOnTable>,
    /// Followers on the tiles.
    pub meeples: Vec<MeepleOnTable>,
    /// A player's arm, if one reaches in.
    pub arm: Option<Arm>,
    /// What that hand holds.
    pub held: Option<Held>,
    /// The light.
    pub lighting: Lighting,
    /// The camera.
    pub camera: Camera,
}

/// A rendered frame.
pub struct Frame {
    /// The image (8-bit BGR).
    pub image: Mat,
    /// 255 where the arm covers the image.
    pub hand_mask: Mat,
    /// What is where.
    pub truth: FrameTruth,
}

/// Paints scenes in one art style on one table top, caching what does not change.
pub struct Renderer {
    style: Style,
    surface: Surface,
    seed: u64,
    art: HashMap<(u64, TileId, u8, Rotation), Mat>,
    artwork: Option<Artwork>,
    background: Option<(Camera, Mat, Option<Maps>)>,
    board: Option<(BoardKey, Mat, Option<Maps>)>,
    light: Option<effects::LightMap>,
    noise: Option<effects::NoiseBank>,
}

/// What the board layer depends on.
#[derive(Clone, Debug, PartialEq)]
struct BoardKey {
    camera: Camera,
    tiles: Vec<TileOnTable>,
    meeples: Vec<MeepleOnTable>,
    light: [f64; 3],
}

impl Renderer {
    /// A renderer for a style, a table top and a seed (for tile prints and the table's grain).
    pub fn new(style: Style, surface: Surface, seed: u64) -> Renderer {
        Renderer {
            style,
            surface,
            seed,
            art: HashMap::new(),
            artwork: None,
            background: None,
            board: None,
            light: None,
            noise: None,
        }
    }

    /// This renderer with tiles drawn from `artwork` where it has their picture.
    pub fn with_artwork(mut self, artwork: Artwork) -> Renderer {
        self.artwork = Some(artwork);
        self
    }

    fn tile_art(&mut self, t: &TileOnTable) -> opencv::Result<&Mat> {
        let key = (t.print, t.tile, t.icons, t.rot);
        if !self.art.contains_key(&key) {
            let picture = self.artwork.as_ref().and_then(|a| a.tile(t.tile));
            let art = match picture {
                Some(p) => p.try_clone()?,
                None => {
                    let mut rng = ChaCha8Rng::seed_from_u64(t.print ^ self.seed);
                    let style = self.style.jittered(&mut rng, 0.06);
                    paint_copy(t.tile, t.icons, &style, t.print ^ self.seed)?
                }
            };
            let turned = match t.rot {
                Rotation::R0 => art,
                r => {
                    let code = match r {
                        Rotation::R90 => opencv::core::ROTATE_90_CLOCKWISE,
                        Rotation::R180 => opencv::core::ROTATE_180,
                        _ => opencv::core::ROTATE_90_COUNTERCLOCKWISE,
                    };
                    let mut out = Mat::default();
                    opencv::core::rotate(&art, &mut out, code)?;
                    out
                }
            };
            self.art.insert(key, turned);
        }
        Ok(&self.art[&key])
    }

    /// The table top as this camera sees it (ideal image), and the lens's distortion map.
    fn backdrop(&mut self, cam: &Camera) -> opencv::Result<(Mat, Option<Maps>)> {
        if let Some((c, bg, map)) = &self.background {
            if c == cam {
                return Ok((bg.try_clone()?, map.clone()));
            }
        }
        // Paint the table around the camera's view at 1 px/mm and project it.
        let corners = [
            [0, 0],
            [cam.size[0], 0],
            [cam.size[0], cam.size[1]],
            [0, cam.size[1]],
        ];
        let h = cam.homography();
        let inv = invert_homography(&h);
        let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
        for c in corners {
            let p = apply(&inv, [f64::from(c[0]), f64::from(c[1])]);
            lo = [lo[0].min(p[0]), lo[1].min(p[1])];
            hi = [hi[0].max(p[0]), hi[1].max(p[1])];
        }
        let span = [
            (hi[0] - lo[0]).clamp(10.0, 4000.0),
            (hi[1] - lo[1]).clamp(10.0, 4000.0),
        ];
        let ppm = 1.0;
        let size = Size::new((span[0] * ppm) as i32 + 1, (span[1] * ppm) as i32 + 1);
        let top = paint_surface(self.surface, lo, size, ppm, self.seed)?;
        // Table texture pixel → table mm → ideal image.
        let src: Vector<Point2f> = [
            [0.0, 0.0],
            [span[0], 0.0],
            [span[0], span[1]],
            [0.0, span[1]],
        ]
        .iter()
        .map(|p| Point2f::new((p[0] * ppm) as f32, (p[1] * ppm) as f32))
        .collect();
        let dst: Vector<Point2f> = [
            [0.0, 0.0],
            [span[0], 0.0],
            [span[0], span[1]],
            [0.0, span[1]],
        ]
        .iter()
        .map(|p| {
            let q = apply(&h, [lo[0] + p[0], lo[1] + p[1]]);
            Point2f::new(q[0] as f32, q[1] as f32)
        })
        .collect();
        let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
        let mut bg =
            Mat::new_rows_cols_with_default(cam.size[1], cam.size[0], CV_8UC3, Scalar::all(40.0))?;
        imgproc::warp_perspective(
            &top,
            &mut bg,
            &m,
            Size::new(cam.size[0], cam.size[1]),
            imgproc::INTER_LINEAR,
            opencv::core::BORDER_REPLICATE,
            Scalar::all(0.0),
        )?;
        let map = if cam.distortion.iter().any(|&d| d != 0.0) {
            // Fixed-point maps remap about twice as fast as float ones.
            let mut fixed = Mat::default();
            let mut frac = Mat::default();
            imgproc::convert_maps(
                &cam.distortion_map()?,
                &opencv::core::no_array(),
                &mut fixed,
                &mut frac,
                opencv::core::CV_16SC2,
                false,
            )?;
            Some((fixed, frac))
        } else {
            None
        };
        self.background = Some((cam.clone(), bg.try_clone()?, map.clone()));
        Ok((bg, map))
    }

    fn draw_tile(&mut self, img: &mut Mat, cam: &Camera, t: &TileOnTable) -> opencv::Result<()> {
        let Some(dst) = t
            .corners_mm()
            .iter()
            .map(|c| cam.project_ideal([c[0], c[1], -t.lift_mm]))
            .collect::<Option<Vec<[f64; 2]>>>()
        else {
            return Ok(());
        };
        let full = Rect::new(0, 0, img.cols(), img.rows());
        let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
        for p in &dst {
            lo = [lo[0].min(p[0]), lo[1].min(p[1])];
            hi = [hi[0].max(p[0]), hi[1].max(p[1])];
        }
        if hi[0] - lo[0] > 4.0 * f64::from(img.cols()) {
            return Ok(());
        }
        let bounds = Rect::new(
            lo[0].floor() as i32 - 1,
            lo[1].floor() as i32 - 1,
            (hi[0] - lo[0]).ceil() as i32 + 3,
            (hi[1] - lo[1]).ceil() as i32 + 3,
        ) & full;
        if bounds.width <= 0 || bounds.height <= 0 {
            return Ok(());
        }
        // The art's outer edges lie half a pixel beyond its corner pixels' centres. A cell of the
        // Wheel board bleeds a pixel into its neighbours so that no seam shows between them.
        let bleed = if board_cell(t.tile).is_some() {
            1.0
        } else {
            0.0
        };
        let (a, b) = (bleed - 0.5f32, ART_PX as f32 - 0.5 - bleed);
        let src: Vector<Point2f> =
            Vector::from_iter([(a, a), (b, a), (b, b), (a, b)].map(|(x, y)| Point2f::new(x, y)));
        let dst: Vector<Point2f> = dst
            .iter()
            .map(|p| {
                Point2f::new(
                    (p[0] - f64::from(bounds.x)) as f32,
                    (p[1] - f64::from(bounds.y)) as f32,
                )
            })
            .collect();
        let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
        let art = self.tile_art(t)?.try_clone()?;
        let mut roi = Mat::roi_mut(img, bounds)?;
        imgproc::warp_perspective(
            &art,
            &mut roi,
            &m,
            bounds.size(),
            imgproc::INTER_LINEAR,
            BORDER_TRANSPARENT,
            Scalar::all(0.0),
        )?;
        Ok(())
    }

    /// The table with its tiles and followers (everything but the arm and what it holds),
    /// reused while none of it changes.
    fn board_layer(&mut self, scene: &Scene) -> opencv::Result<(Mat, Option<Maps>)> {
        let key = BoardKey {
            camera: scene.camera.clone(),
            tiles: scene.tiles.clone(),
            meeples: scene.meeples.clone(),
            light: scene.lighting.direction,
        };
        if let Some((k, img, map)) = &self.board {
            if *k == key {
                return Ok((img.try_clone()?, map.clone()));
            }
        }
        let cam = &scene.camera;
        let (mut img, map) = self.backdrop(cam)?;
        for t in &scene.tiles {
            self.draw_tile(&mut img, cam, t)?;
        }
        for m in &scene.meeples {
            draw_shadow(&mut img, cam, &m.figure, key.light)?;
        }
        let mut order: Vec<&MeepleOnTable> = scene.meeples.iter().collect();
        order.sort_by(|a, b| {
            let d = |m: &MeepleOnTable| cam.to_camera([m.figure.base[0], m.figure.base[1], 0.0])[2];
            d(b).total_cmp(&d(a))
        });
        for m in order {
            draw_figure(&mut img, cam, &m.figure)?;
        }
        self.board = Some((key, img.try_clone()?, map.clone()));
        Ok((img, map))
    }

    /// Renders the scene as the camera would deliver it.
    pub fn render(
        &mut self,
        scene: &Scene,
        sensor: &Sensor,
        frame_seed: u64,
    ) -> opencv::Result<Frame> {
        let cam = &scene.camera;
        let (mut img, map) = self.board_layer(scene)?;
        match &scene.held {
            Some(Held::Tile(t)) => self.draw_tile(&mut img, cam, t)?,
            Some(Held::Meeple(m)) => draw_figure(&mut img, cam, &m.figure)?,
            None => {}
        }
        let mut mask = Mat::zeros(img.rows(), img.cols(), CV_8UC1)?.to_mat()?;
        if let Some(arm) = &scene.arm {
            draw_arm(&mut img, &mut mask, arm)?;
        }
        if !self
            .light
            .as_ref()
            .is_some_and(|l| l.is_for(&scene.lighting, cam.size))
        {
            self.light = Some(effects::LightMap::new(&scene.lighting, cam.size));
        }
        if let Some(light) = &self.light {
            light.apply(&mut img)?;
        }
        if let Some(map) = map {
            img = through_lens(&img, &map)?;
            mask = through_lens(&mask, &map)?;
        }
        // Any pixel that blends in some of the arm counts as covered.
        let mut covered = Mat::default();
        imgproc::threshold(&mask, &mut covered, 0.0, 255.0, imgproc::THRESH_BINARY)?;
        let mask = covered;
        if let Some([dx, dy]) = sensor.blur {
            let area = if scene.arm.is_some() {
                imgproc::bounding_rect(&mask)?
            } else {
                Rect::new(0, 0, img.cols(), img.rows())
            };
            let blurred = effects::motion_blur(&img, area, dx, dy)?;
            if scene.arm.is_some() {
                // A moving hand smears; the table under it stays sharp.
                blurred.copy_to_masked(&mut img, &mask)?;
            } else {
                // A bumped camera smears everything.
                img = blurred;
            }
        }
        if sensor.noise > 0.0 {
            let len = img.total() * 3;
            if !self
                .noise
                .as_ref()
                .is_some_and(|n| n.fits(sensor.noise, len))
            {
                self.noise = Some(effects::NoiseBank::new(sensor.noise, len, self.seed));
            }
            if let Some(noise) = &self.noise {
                noise.apply(&mut img, frame_seed)?;
            }
        }
        if let Some(q) = sensor.jpeg_quality {
            img = effects::jpeg(&img, q)?;
        }
        let truth = truth(scene);
        Ok(Frame {
            image: img,
            hand_mask: mask,
            truth,
        })
    }
}

/// The ground truth of a scene.
fn truth(scene: &Scene) -> FrameTruth {
    let cam = &scene.camera;
    let cat = catalogue();
    let px = |p: [f64; 2], z: f64| cam.project([p[0], p[1], z]).unwrap_or([f64::NAN; 2]);
    let tile_truth = |t: &TileOnTable| TileTruth {
        tile: cat.tile(t.tile).name.clone(),
        cell: [t.cell.x, t.cell.y],
        rot: t.rot.degrees(),
        icons: t.icons,
        offset_mm: t.offset_mm,
        angle_deg: t.angle_deg,
        corners_px: t.corners_mm().map(|c| px(c, -t.lift_mm)),
    };
    let meeple_truth = |m: &MeepleOnTable| MeepleTruth {
        colour: m.colour,
        figure: m.figure.kind,
        cell: [m.cell.x, m.cell.y],
        port: m.port.name().to_string(),
        feature: m.kind.name().to_string(),
        pose: match m.figure.pose {
            Pose::Standing => "standing",
            Pose::Lying => "lying",
        }
        .to_string(),
        base_px: px(m.figure.base, 0.0),
    };
    FrameTruth {
        frame: 0,
        time_s: 0.0,
        turn: 0,
        tile_mm: TILE_MM,
        camera: cam.clone(),
        homography: cam.homography(),
        lighting: scene.lighting,
        tiles: scene.tiles.iter().map(tile_truth).collect(),
        meeples: scene.meeples.iter().map(meeple_truth).collect(),
        hand: scene.arm.is_some(),
        held: scene.held.as_ref().map(|h| match h {
            Held::Tile(t) => HeldTruth::Tile(tile_truth(t)),
            Held::Meeple(m) => HeldTruth::Meeple(meeple_truth(m)),
        }),
    }
}

/// What the lens makes of an ideal picture.
fn through_lens(ideal: &Mat, map: &Maps) -> opencv::Result<Mat> {
    let mut bent = Mat::default();
    imgproc::remap(
        ideal,
        &mut bent,
        &map.0,
        &map.1,
        imgproc::INTER_LINEAR,
        opencv::core::BORDER_REPLICATE,
        Scalar::all(0.0),
    )?;
    Ok(bent)
}

/// The two halves of a fixed-point remap.
type Maps = (Mat, Mat);

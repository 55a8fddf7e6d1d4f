//! A table setup saved to disk: where the start tile lies in the camera's view, the table's
//! colours and the terrain colour model learned from the start tile (OpenCV FileStorage YAML).

use std::path::Path;

use anyhow::{bail, Context};
use opencv::core::{FileStorage, FileStorage_Mode, Mat, CV_64F};
use opencv::prelude::*;

use super::colours::ColourModel;
use super::palette::Cluster;
use super::rectify::{quad_patch, Quad};
use super::start::find_start_tile;
use super::table::table_colours_near;
use super::terrain::Terrain;
use crate::rules::Rotation;

/// Everything a board read needs from setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Image size (width, height) the calibration was made at.
    pub size: [i32; 2],
    /// The start tile's corners NW, NE, SE, SW in the image.
    pub start: Quad,
    /// The table's two colours (blue, green, red).
    pub table: [[f32; 3]; 2],
    /// Terrain colours learned from the start tile.
    pub colours: ColourModel,
}

fn matrix(rows: &[Vec<f64>]) -> opencv::Result<Mat> {
    Mat::from_slice_2d(rows)
}

/// The entry `name` of an open file as `rows` × `cols` finite numbers; a clear error if it is
/// missing or of another shape.
pub(super) fn read_matrix(
    fs: &FileStorage,
    name: &str,
    rows: usize,
    cols: usize,
) -> anyhow::Result<Vec<Vec<f64>>> {
    let node = fs.get(name)?;
    if node.empty()? {
        bail!("missing entry {name:?}");
    }
    let m = node.mat()?;
    if m.rows() as usize != rows || m.cols() as usize != cols {
        bail!(
            "entry {name:?} is {}×{}, expected {rows}×{cols}",
            m.rows(),
            m.cols()
        );
    }
    let mut f = Mat::default();
    m.convert_to(&mut f, CV_64F, 1.0, 0.0)?;
    let mut out = Vec::new();
    for r in 0..rows {
        let mut row = Vec::new();
        for c in 0..cols {
            let v = *f.at_2d::<f64>(r as i32, c as i32)?;
            if !v.is_finite() {
                bail!("entry {name:?} holds a non-number");
            }
            row.push(v);
        }
        out.push(row);
    }
    Ok(out)
}

/// An entry of any number of rows of `cols` values, `None` where the file has none.
fn optional_matrix(
    fs: &FileStorage,
    name: &str,
    cols: usize,
) -> anyhow::Result<Option<Vec<Vec<f64>>>> {
    let node = fs.get(name)?;
    if node.empty()? {
        return Ok(None);
    }
    let rows = node.mat()?.rows().max(0) as usize;
    read_matrix(fs, name, rows, cols).map(Some)
}

/// Opens an OpenCV FileStorage YAML file for reading; a clear error naming the file if it is
/// missing, not YAML or unreadable.
pub(super) fn open_yaml(path: &Path) -> anyhow::Result<FileStorage> {
    if !path.is_file() {
        bail!("no calibration file at {}", path.display());
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !text.starts_with("%YAML") {
        bail!("{} is not an OpenCV YAML file", path.display());
    }
    let name = path.to_str().context("path is not UTF-8")?;
    let fs = FileStorage::new(name, FileStorage_Mode::READ as i32, "")
        .with_context(|| format!("{} is not readable as OpenCV YAML", path.display()))?;
    if !fs.is_opened()? {
        bail!("{} is not readable as OpenCV YAML", path.display());
    }
    Ok(fs)
}

/// What a setup frame tells ([`Calibration::from_setup_frame`]).
#[derive(Debug)]
pub enum SetupFrame {
    /// The start tile, found and its colours learned.
    Calibrated(Box<Calibration>),
    /// No tile lies alone on the table.
    NoStartTile,
    /// The start tile shows, but so bright that most of its print is clipped to white (this
    /// share of its pixels): its colours and even which way it lies cannot be told.
    WashedOut { clipped: f64 },
}

/// The share of a start tile's pixels clipped to full brightness above which its picture is
/// washed out. A rendered setup three times too bright clips 99 % of them and the tile is found
/// turned half round; twice too bright, 96 %; 1.5 times, 27 % (and read right).
pub const WASHED_OUT: f64 = 0.5;
/// A channel value that counts as clipped.
const CLIPPED: u8 = 250;

/// The share of the pixels of the tile at `quad` in `frame` with some channel clipped to full
/// brightness.
pub fn clipped_share(frame: &Mat, quad: &Quad) -> opencv::Result<f64> {
    let (patch, _) = quad_patch(frame, quad, 0)?;
    let bytes = patch.data_bytes()?;
    let pixels = bytes.len() / 3;
    let clipped = bytes
        .chunks_exact(3)
        .filter(|p| p.iter().any(|&v| v >= CLIPPED))
        .count();
    Ok(clipped as f64 / pixels.max(1) as f64)
}

impl Calibration {
    /// What a frame of the start tile alone on the table tells: the setup
    /// ([`Self::of_start_tile`]), or why there is none.
    pub fn from_setup_frame(frame: &Mat) -> opencv::Result<SetupFrame> {
        let Some(start) = find_start_tile(frame, &ColourModel::default())? else {
            return Ok(SetupFrame::NoStartTile);
        };
        let clipped = clipped_share(frame, &start)?;
        if clipped > WASHED_OUT {
            return Ok(SetupFrame::WashedOut { clipped });
        }
        Calibration::of_start_tile(frame, start).map(|c| SetupFrame::Calibrated(Box::new(c)))
    }

    /// The setup of a frame showing the start tile at `start`: its corners, the colours of its
    /// print (it is D, unturned) and the table's colours around it.
    pub fn of_start_tile(frame: &Mat, start: Quad) -> opencv::Result<Calibration> {
        let (patch, _) = quad_patch(frame, &start, 0)?;
        let mut colours = ColourModel::default();
        colours.calibrate(&patch, "D", Rotation::R0)?;
        Ok(Calibration {
            size: [frame.cols(), frame.rows()],
            start,
            table: table_colours_near(frame, &start)?,
            colours,
        })
    }

    /// Writes the calibration as OpenCV FileStorage YAML.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let name = path.to_str().context("path is not UTF-8")?;
        let mut fs = FileStorage::new(name, FileStorage_Mode::WRITE as i32, "")?;
        if !fs.is_opened()? {
            bail!("cannot write {}", path.display());
        }
        fs.write_i32("format_version", 1)?;
        fs.write_mat(
            "image_size",
            &matrix(&[vec![f64::from(self.size[0]), f64::from(self.size[1])]])?,
        )?;
        fs.write_mat(
            "start_tile_corners",
            &matrix(&self.start.iter().map(|p| p.to_vec()).collect::<Vec<_>>())?,
        )?;
        fs.write_mat(
            "table_colours_bgr",
            &matrix(
                &self
                    .table
                    .iter()
                    .map(|c| c.iter().map(|&v| f64::from(v)).collect())
                    .collect::<Vec<_>>(),
            )?,
        )?;
        fs.write_mat(
            "terrain_colours_bgr",
            &matrix(
                &self
                    .colours
                    .means()
                    .iter()
                    .map(|c| c.iter().map(|&v| f64::from(v)).collect())
                    .collect::<Vec<_>>(),
            )?,
        )?;
        let c = &self.colours;
        let clusters: Vec<Vec<f64>> = c
            .clusters()
            .iter()
            .map(|(t, k)| {
                let mut row = vec![t.index() as f64];
                row.extend(k.mean.iter().map(|&v| f64::from(v)));
                row.extend([f64::from(k.spread), f64::from(k.weight)]);
                row
            })
            .collect();
        fs.write_mat("terrain_clusters", &matrix(&clusters)?)?;
        let mix: Vec<Vec<f64>> = c
            .mix()
            .iter()
            .map(|r| r.iter().map(|&v| f64::from(v)).collect())
            .collect();
        fs.write_mat("terrain_mix", &matrix(&mix)?)?;
        fs.write_mat(
            "shield_blob_px",
            &matrix(&[vec![f64::from(c.shield_blob())]])?,
        )?;
        if let Some(roof) = c.roof_blue() {
            fs.write_mat("roof_blue_bgr", &matrix(&[roof.map(f64::from).to_vec()])?)?;
        }
        fs.write_mat(
            "road_edge_share",
            &matrix(&[vec![f64::from(c.road_full())]])?,
        )?;
        fs.release()?;
        Ok(())
    }

    /// Reads a calibration; a clear error for a missing, corrupt or incomplete file.
    pub fn load(path: &Path) -> anyhow::Result<Calibration> {
        let fs = open_yaml(path)?;
        let load = || -> anyhow::Result<Calibration> {
            let size = read_matrix(&fs, "image_size", 1, 2)?;
            let start = read_matrix(&fs, "start_tile_corners", 4, 2)?;
            let table = read_matrix(&fs, "table_colours_bgr", 2, 3)?;
            let terrain = read_matrix(&fs, "terrain_colours_bgr", 5, 3)?;
            let f32s = |row: &Vec<f64>| [row[0] as f32, row[1] as f32, row[2] as f32];
            // Files from before colour clusters hold one colour per terrain.
            let colours = match optional_matrix(&fs, "terrain_clusters", 6)? {
                Some(rows) => {
                    let mut clusters = Vec::new();
                    for r in &rows {
                        let Some(&t) = Terrain::ALL.get(r[0] as usize) else {
                            bail!("terrain_clusters names no terrain: {}", r[0]);
                        };
                        let cluster = Cluster {
                            mean: f32s(&r[1..4].to_vec()),
                            spread: r[4] as f32,
                            weight: r[5] as f32,
                        };
                        clusters.push((t, cluster));
                    }
                    let mix = read_matrix(&fs, "terrain_mix", 5, 5)?;
                    let blob = read_matrix(&fs, "shield_blob_px", 1, 1)?;
                    let road = read_matrix(&fs, "road_edge_share", 1, 1)?;
                    // Files from before roof colours hold none.
                    let roof = match optional_matrix(&fs, "roof_blue_bgr", 3)? {
                        Some(rows) if rows.len() == 1 => Some(f32s(&rows[0])),
                        Some(_) => bail!("roof_blue_bgr should be one colour"),
                        None => None,
                    };
                    ColourModel::from_clusters(clusters)
                        .with_mix(
                            [0, 1, 2, 3, 4].map(|t| [0, 1, 2, 3, 4].map(|k| mix[t][k] as f32)),
                        )
                        .with_shield_blob(blob[0][0] as u32)
                        .with_roof_blue(roof)
                        .with_road_full(road[0][0] as f32)
                }
                None => ColourModel::with_means([0, 1, 2, 3, 4].map(|k| f32s(&terrain[k]))),
            };
            Ok(Calibration {
                size: [size[0][0] as i32, size[0][1] as i32],
                start: [0, 1, 2, 3].map(|k| [start[k][0], start[k][1]]),
                table: [f32s(&table[0]), f32s(&table[1])],
                colours,
            })
        };
        load().with_context(|| format!("calibration {}", path.display()))
    }
}

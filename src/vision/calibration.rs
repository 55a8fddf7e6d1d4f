//! A table setup saved to disk: where the start tile lies in the camera's view, the table's
//! colours and the terrain colours learned from the start tile (OpenCV FileStorage YAML).

use std::path::Path;

use anyhow::{bail, Context};
use opencv::core::{FileStorage, FileStorage_Mode, Mat, CV_64F};
use opencv::prelude::*;

use super::rectify::Quad;
use super::terrain::ColourModel;

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

fn read_matrix(
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

impl Calibration {
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
        fs.release()?;
        Ok(())
    }

    /// Reads a calibration; a clear error for a missing, corrupt or incomplete file.
    pub fn load(path: &Path) -> anyhow::Result<Calibration> {
        if !path.is_file() {
            bail!("no calibration file at {}", path.display());
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if !text.starts_with("%YAML") {
            bail!("{} is not an OpenCV YAML file", path.display());
        }
        let name = path.to_str().context("path is not UTF-8")?;
        let fs = FileStorage::new(name, FileStorage_Mode::READ as i32, "")
            .with_context(|| format!("{} is not readable as OpenCV YAML", path.display()))?;
        if !fs.is_opened()? {
            bail!("{} is not readable as OpenCV YAML", path.display());
        }
        let load = || -> anyhow::Result<Calibration> {
            let size = read_matrix(&fs, "image_size", 1, 2)?;
            let start = read_matrix(&fs, "start_tile_corners", 4, 2)?;
            let table = read_matrix(&fs, "table_colours_bgr", 2, 3)?;
            let terrain = read_matrix(&fs, "terrain_colours_bgr", 5, 3)?;
            let f32s = |row: &Vec<f64>| [row[0] as f32, row[1] as f32, row[2] as f32];
            Ok(Calibration {
                size: [size[0][0] as i32, size[0][1] as i32],
                start: [0, 1, 2, 3].map(|k| [start[k][0], start[k][1]]),
                table: [f32s(&table[0]), f32s(&table[1])],
                colours: ColourModel::with_means([0, 1, 2, 3, 4].map(|k| f32s(&terrain[k]))),
            })
        };
        load().with_context(|| format!("calibration {}", path.display()))
    }
}

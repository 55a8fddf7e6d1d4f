//! Tile artwork read from image files (one real edition, for evaluation), painted through the
//! same camera and light as the procedural art. Nothing here ships any artwork: the folder is
//! the user's.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{bail, Context};
use opencv::core::{Mat, Size};
use opencv::prelude::*;
use opencv::{imgcodecs, imgproc};
use serde::Deserialize;

use super::art::ART_PX;
use crate::rules::{catalogue, Rotation, TileId};

/// One image of a folder's `labels.json`: which tile it shows, turned how far clockwise.
#[derive(Deserialize)]
struct Label {
    file: String,
    #[serde(rename = "type")]
    tile: String,
    rotation: u16,
}

#[derive(Deserialize)]
struct Labels {
    labels: Vec<Label>,
}

/// Pictures of tile types in catalogue orientation, [`super::art::ART_PX`] square.
#[derive(Clone, Debug, Default)]
pub struct Artwork {
    tiles: HashMap<TileId, Mat>,
}

impl Artwork {
    /// Reads a folder holding `labels.json` (`{"labels": [{"file", "type", "rotation"}]}`) and
    /// the images it names; a clear error for a missing folder, a bad label or an unreadable
    /// image.
    pub fn load(dir: &Path) -> anyhow::Result<Artwork> {
        let path = dir.join("labels.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let labels: Labels = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a label list", path.display()))?;
        let cat = catalogue();
        let mut tiles = HashMap::new();
        for l in labels.labels {
            let Some(id) = cat.tile_id(&l.tile) else {
                bail!("{}: unknown tile type {:?}", path.display(), l.tile);
            };
            let Some(rot) = Rotation::from_degrees(l.rotation) else {
                bail!(
                    "{}: bad rotation {} for {}",
                    path.display(),
                    l.rotation,
                    l.file
                );
            };
            let file = dir.join(&l.file);
            if !file.is_file() {
                bail!("{}: no image {}", path.display(), file.display());
            }
            let name = file.to_str().context("artwork path is not UTF-8")?;
            let img = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR)?;
            if img.empty() {
                bail!("cannot read {} as an image", file.display());
            }
            tiles.insert(id, upright(&img, rot)?);
        }
        Ok(Artwork { tiles })
    }

    /// The picture of a tile type in catalogue orientation, if the folder has one.
    pub fn tile(&self, tile: TileId) -> Option<&Mat> {
        self.tiles.get(&tile)
    }

    /// How many tile types have a picture.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether no tile type has a picture.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }
}

/// An image of a tile turned `rot` clockwise, turned back and scaled to the art size.
fn upright(img: &Mat, rot: Rotation) -> opencv::Result<Mat> {
    let turned = match rot {
        Rotation::R0 => img.try_clone()?,
        r => {
            let code = match r {
                Rotation::R90 => opencv::core::ROTATE_90_COUNTERCLOCKWISE,
                Rotation::R180 => opencv::core::ROTATE_180,
                _ => opencv::core::ROTATE_90_CLOCKWISE,
            };
            let mut out = Mat::default();
            opencv::core::rotate(img, &mut out, code)?;
            out
        }
    };
    let mut out = Mat::default();
    imgproc::resize(
        &turned,
        &mut out,
        Size::new(ART_PX, ART_PX),
        0.0,
        0.0,
        imgproc::INTER_CUBIC,
    )?;
    Ok(out)
}

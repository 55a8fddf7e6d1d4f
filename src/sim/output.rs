//! Writing a filmed game: a video file or a folder of frames, with ground truth beside it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use opencv::core::{Size, Vector};
use opencv::prelude::*;
use opencv::{imgcodecs, videoio};

use super::scene::{Frame, Renderer};
use super::timeline::Film;

/// Where frames go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sink {
    /// A video file; `.mkv`/`.avi` with FFV1 (pixel-exact) unless `mjpg` asks for webcam-like MJPG.
    Video {
        /// The file.
        path: PathBuf,
        /// Use MJPG instead of FFV1.
        mjpg: bool,
    },
    /// A folder of PNG frames, hand masks under `masks/`, and `truth.jsonl`.
    Folder(PathBuf),
}

impl Sink {
    /// A video for `.avi`/`.mkv`/`.mp4` paths, else a folder.
    pub fn for_path(path: &Path, mjpg: bool) -> Sink {
        match path.extension().and_then(|e| e.to_str()) {
            Some("avi" | "mkv" | "mp4") => Sink::Video {
                path: path.to_path_buf(),
                mjpg,
            },
            _ => Sink::Folder(path.to_path_buf()),
        }
    }

    /// Where the ground truth (one JSON object per frame and line) is written.
    pub fn truth_path(&self) -> PathBuf {
        match self {
            Sink::Video { path, .. } => path.with_extension("truth.jsonl"),
            Sink::Folder(dir) => dir.join("truth.jsonl"),
        }
    }
}

/// Renders every shot of `film` into `sink`; returns the number of frames.
pub fn write_film(
    film: &Film,
    renderer: &mut Renderer,
    sink: &Sink,
    fps: f64,
) -> anyhow::Result<usize> {
    let shots = film.shots();
    let Some(first) = shots.first() else {
        bail!("nothing to film");
    };
    let size = Size::new(first.scene.camera.size[0], first.scene.camera.size[1]);
    let mut video = match sink {
        Sink::Video { path, mjpg } => {
            let code = if *mjpg {
                ['M', 'J', 'P', 'G']
            } else {
                ['F', 'F', 'V', '1']
            };
            let fourcc = videoio::VideoWriter::fourcc(code[0], code[1], code[2], code[3])?;
            let name = path.to_str().context("video path is not UTF-8")?;
            let writer = videoio::VideoWriter::new_with_backend(
                name,
                videoio::CAP_FFMPEG,
                fourcc,
                fps,
                size,
                true,
            )?;
            if !writer.is_opened()? {
                bail!(
                    "cannot open {} for writing (FFmpeg backend)",
                    path.display()
                );
            }
            Some(writer)
        }
        Sink::Folder(dir) => {
            std::fs::create_dir_all(dir.join("masks"))
                .with_context(|| format!("cannot create {}", dir.display()))?;
            None
        }
    };
    let truth_path = sink.truth_path();
    let mut truth = BufWriter::new(
        File::create(&truth_path)
            .with_context(|| format!("cannot write {}", truth_path.display()))?,
    );
    for (i, shot) in shots.iter().enumerate() {
        let mut frame: Frame = renderer.render(&shot.scene, &shot.sensor, i as u64)?;
        frame.truth.frame = i as u64;
        frame.truth.time_s = shot.time_s;
        frame.truth.turn = shot.turn;
        if let Some(w) = &mut video {
            w.write(&frame.image)?;
        } else if let Sink::Folder(dir) = sink {
            write_png(&dir.join(format!("frame_{i:06}.png")), &frame.image)?;
            if frame.truth.hand {
                write_png(
                    &dir.join(format!("masks/frame_{i:06}.png")),
                    &frame.hand_mask,
                )?;
            }
        }
        serde_json::to_writer(&mut truth, &frame.truth)?;
        truth.write_all(b"\n")?;
    }
    if let Some(mut w) = video {
        w.release()?;
    }
    truth.flush()?;
    Ok(shots.len())
}

/// Writes an image; the format follows the extension (`.png`, `.jpg`).
pub fn write_png(path: &Path, img: &opencv::core::Mat) -> anyhow::Result<()> {
    let name = path.to_str().context("path is not UTF-8")?;
    if !imgcodecs::imwrite(name, img, &Vector::new())? {
        bail!("cannot write {}", path.display());
    }
    Ok(())
}

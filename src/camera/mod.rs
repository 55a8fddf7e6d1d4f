//! Frame sources: where the pictures of the table come from — a video file, a folder of
//! images, or the simulated table. (The webcam joins them with the tracker.)

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use opencv::core::Mat;
use opencv::prelude::*;
use opencv::{imgcodecs, videoio};

use crate::sim::scene::Renderer;
use crate::sim::timeline::Film;
use crate::sim::truth::FrameTruth;

/// One picture from a source.
pub struct CameraFrame {
    /// 8-bit BGR image.
    pub image: Mat,
    /// Index from 0.
    pub index: u64,
    /// Seconds since the first frame, as the source knows it.
    pub time_s: f64,
}

/// Anything that delivers frames in order.
pub trait FrameSource {
    /// The next frame, or `None` when the source has ended.
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>>;
    /// What this source is, for messages.
    fn describe(&self) -> String;
}

/// Frames from a video file (OpenCV with FFmpeg).
pub struct VideoFile {
    path: PathBuf,
    capture: videoio::VideoCapture,
    fps: f64,
    index: u64,
}

impl VideoFile {
    /// Opens a video; a clear error if it is missing or unreadable.
    pub fn open(path: &Path) -> anyhow::Result<VideoFile> {
        if !path.is_file() {
            bail!("no video file at {}", path.display());
        }
        let name = path.to_str().context("video path is not UTF-8")?;
        let capture = videoio::VideoCapture::from_file(name, videoio::CAP_FFMPEG)?;
        if !capture.is_opened()? {
            bail!("cannot decode {} as video", path.display());
        }
        let fps = capture.get(videoio::CAP_PROP_FPS)?;
        Ok(VideoFile {
            path: path.to_path_buf(),
            capture,
            fps: if fps > 0.0 { fps } else { 30.0 },
            index: 0,
        })
    }
}

impl FrameSource for VideoFile {
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let mut image = Mat::default();
        if !self.capture.read(&mut image)? || image.empty() {
            return Ok(None);
        }
        let frame = CameraFrame {
            image,
            index: self.index,
            time_s: self.index as f64 / self.fps,
        };
        self.index += 1;
        Ok(Some(frame))
    }

    fn describe(&self) -> String {
        format!("video {}", self.path.display())
    }
}

/// Frames from a folder of images, in file-name order (`.png`, `.jpg`, `.jpeg`, `.bmp`).
pub struct ImageFolder {
    dir: PathBuf,
    files: Vec<PathBuf>,
    fps: f64,
    index: usize,
}

impl ImageFolder {
    /// Lists the images in `dir`, played back at `fps`.
    pub fn open(dir: &Path, fps: f64) -> anyhow::Result<ImageFolder> {
        let entries = std::fs::read_dir(dir)
            .with_context(|| format!("cannot read folder {}", dir.display()))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    matches!(
                        e.to_ascii_lowercase().as_str(),
                        "png" | "jpg" | "jpeg" | "bmp"
                    )
                })
            })
            .collect();
        files.sort();
        if files.is_empty() {
            bail!("no images (.png, .jpg, .bmp) in {}", dir.display());
        }
        Ok(ImageFolder {
            dir: dir.to_path_buf(),
            files,
            fps: if fps > 0.0 { fps } else { 10.0 },
            index: 0,
        })
    }
}

impl FrameSource for ImageFolder {
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let Some(path) = self.files.get(self.index) else {
            return Ok(None);
        };
        let name = path.to_str().context("image path is not UTF-8")?;
        let image = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR)?;
        if image.empty() {
            bail!("cannot decode image {}", path.display());
        }
        let frame = CameraFrame {
            image,
            index: self.index as u64,
            time_s: self.index as f64 / self.fps,
        };
        self.index += 1;
        Ok(Some(frame))
    }

    fn describe(&self) -> String {
        format!("images in {}", self.dir.display())
    }
}

/// Frames of a simulated game, rendered as they are asked for, with their ground truth.
pub struct Simulated {
    film: Film,
    renderer: Renderer,
    index: usize,
    truth: Option<FrameTruth>,
}

impl Simulated {
    /// Plays `film` through `renderer`.
    pub fn new(film: Film, renderer: Renderer) -> Simulated {
        Simulated {
            film,
            renderer,
            index: 0,
            truth: None,
        }
    }

    /// The ground truth of the frame last delivered.
    pub fn truth(&self) -> Option<&FrameTruth> {
        self.truth.as_ref()
    }
}

impl FrameSource for Simulated {
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let Some(shot) = self.film.shots().get(self.index) else {
            return Ok(None);
        };
        let mut frame = self
            .renderer
            .render(&shot.scene, &shot.sensor, self.index as u64)?;
        frame.truth.frame = self.index as u64;
        frame.truth.time_s = shot.time_s;
        frame.truth.turn = shot.turn;
        self.truth = Some(frame.truth);
        let out = CameraFrame {
            image: frame.image,
            index: self.index as u64,
            time_s: shot.time_s,
        };
        self.index += 1;
        Ok(Some(out))
    }

    fn describe(&self) -> String {
        format!("simulated table ({} frames)", self.film.shots().len())
    }
}

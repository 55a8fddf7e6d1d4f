//! Frame sources: where the pictures of the table come from — a video file, a folder of
//! images, the simulated table or a webcam.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use opencv::core::Mat;
use opencv::prelude::*;
use opencv::{imgcodecs, videoio};

use crate::sim::scene::Renderer;
use crate::sim::timeline::Film;
use crate::sim::truth::FrameTruth;

pub mod undistort;
#[cfg(feature = "app")]
pub mod webcam;

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
    /// Whether frames come in real time (a camera), so an error is a passing outage rather
    /// than the end of the source.
    fn is_live(&self) -> bool {
        false
    }
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
        // An image that cannot be read is passed over: the next call goes on with the next.
        let index = self.index;
        self.index += 1;
        let name = path.to_str().context("image path is not UTF-8")?;
        let image = imgcodecs::imread(name, imgcodecs::IMREAD_COLOR)?;
        if image.empty() {
            bail!("cannot decode image {}", path.display());
        }
        Ok(Some(CameraFrame {
            image,
            index: index as u64,
            time_s: index as f64 / self.fps,
        }))
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
    hand_mask: Option<Mat>,
}

impl Simulated {
    /// Plays `film` through `renderer`.
    pub fn new(film: Film, renderer: Renderer) -> Simulated {
        Simulated {
            film,
            renderer,
            index: 0,
            truth: None,
            hand_mask: None,
        }
    }

    /// The ground truth of the frame last delivered.
    pub fn truth(&self) -> Option<&FrameTruth> {
        self.truth.as_ref()
    }

    /// The exact arm mask of the frame last delivered (8-bit, 255 where the arm covers it).
    pub fn hand_mask(&self) -> Option<&Mat> {
        self.hand_mask.as_ref()
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
        self.hand_mask = Some(frame.hand_mask);
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

/// A frame source named on the command line: a video file, an image folder, `sim[:SEED]` (a
/// random game on the simulated table) or `webcam[:NAME]`.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceSpec {
    /// A video file or a folder of images.
    Path(PathBuf),
    /// The simulated table playing the random game `seed` chooses.
    Simulated {
        /// Chooses the game, camera, style and table.
        seed: u64,
    },
    /// A webcam, by (part of) its name; the first one if `None`.
    Webcam {
        /// Part of the camera's name.
        name: Option<String>,
    },
}

impl std::str::FromStr for SourceSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<SourceSpec, String> {
        let (head, tail) = s.split_once(':').map_or((s, None), |(h, t)| (h, Some(t)));
        Ok(match head {
            "sim" => SourceSpec::Simulated {
                seed: match tail {
                    Some(t) => t
                        .parse()
                        .map_err(|_| format!("sim:{t}: the seed must be a whole number"))?,
                    None => 1,
                },
            },
            "webcam" => SourceSpec::Webcam {
                name: tail.map(str::to_string).filter(|t| !t.is_empty()),
            },
            _ => SourceSpec::Path(PathBuf::from(s)),
        })
    }
}

/// A source opened, with what it knows of the game (the simulated table knows everything).
pub struct Opened {
    /// The frames.
    pub source: Box<dyn FrameSource + Send>,
    /// The true game, for the simulated table.
    pub truth: Option<crate::record::Record>,
}

/// Opens the source `spec` names; a clear error if it cannot.
pub fn open(spec: &SourceSpec) -> anyhow::Result<Opened> {
    Ok(match spec {
        SourceSpec::Path(path) if path.is_dir() => Opened {
            source: Box::new(ImageFolder::open(path, 10.0)?),
            truth: None,
        },
        SourceSpec::Path(path) => Opened {
            source: Box::new(VideoFile::open(path)?),
            truth: None,
        },
        SourceSpec::Simulated { seed } => {
            let game = crate::sim::game::film_game(*seed, usize::MAX, 5.0)?;
            Opened {
                source: Box::new(game.source),
                truth: Some(game.record),
            }
        }
        #[cfg(feature = "app")]
        SourceSpec::Webcam { name } => {
            let request = webcam::WebcamRequest {
                name: name.clone(),
                ..webcam::WebcamRequest::default()
            };
            Opened {
                source: Box::new(webcam::Webcam::start(webcam::NokhwaConnector::new(request))),
                truth: None,
            }
        }
        #[cfg(not(feature = "app"))]
        SourceSpec::Webcam { .. } => bail!("this build has no webcam support (feature `app`)"),
    })
}

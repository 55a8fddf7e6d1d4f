//! The webcam: frames read in a thread of their own, the newest one kept, and a lost camera
//! reconnected every couple of seconds (found again by name, not by index) without the game
//! noticing more than a pause.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

use super::{CameraFrame, FrameSource};

/// How long a lost camera waits before the next try.
pub const RECONNECT_EVERY: Duration = Duration::from_millis(1500);
/// How long [`Webcam::next_frame`] waits for a frame before it reports the camera's state.
const WAIT_FOR_FRAME: Duration = Duration::from_millis(500);

/// Something that delivers pictures once connected.
pub trait Grabber {
    /// The next picture (8-bit BGR); an error means the camera is gone.
    fn grab(&mut self) -> anyhow::Result<Mat>;
}

/// Opens a camera. Runs in the webcam's thread, so a camera handle never crosses threads.
pub trait Connector: Send + 'static {
    /// Finds and opens the camera.
    fn connect(&mut self) -> anyhow::Result<Box<dyn Grabber>>;
    /// Which camera this is, for messages.
    fn describe(&self) -> String;
}

/// What the webcam thread is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Opening the camera for the first time.
    Connecting,
    /// Frames are arriving.
    Live,
    /// The camera is gone; the thread retries every [`RECONNECT_EVERY`].
    Lost(String),
}

#[derive(Default)]
struct Slot {
    frame: Option<Mat>,
    frames: u64,
    link: Option<Link>,
}

struct Shared {
    slot: Mutex<Slot>,
    arrived: Condvar,
    stop: AtomicBool,
}

/// A live camera as a [`FrameSource`].
pub struct Webcam {
    what: String,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    started: Instant,
    index: u64,
    seen: u64,
}

impl Webcam {
    /// Starts reading from whatever `connector` opens.
    pub fn start(mut connector: impl Connector) -> Webcam {
        let what = connector.describe();
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot {
                link: Some(Link::Connecting),
                ..Slot::default()
            }),
            arrived: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let inner = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("webcam".into())
            .spawn(move || read_forever(&mut connector, &inner))
            .expect("threads can be started");
        Webcam {
            what,
            shared,
            thread: Some(thread),
            started: Instant::now(),
            index: 0,
            seen: 0,
        }
    }

    /// What the camera is doing now.
    pub fn link(&self) -> Link {
        self.shared
            .slot
            .lock()
            .map(|s| s.link.clone().unwrap_or(Link::Connecting))
            .unwrap_or(Link::Lost("the webcam thread failed".into()))
    }
}

impl FrameSource for Webcam {
    /// The newest frame; while the camera is lost, an error saying so after a short wait
    /// (call again: it reconnects by itself).
    fn next_frame(&mut self) -> anyhow::Result<Option<CameraFrame>> {
        let slot = self
            .shared
            .slot
            .lock()
            .map_err(|_| anyhow!("the webcam thread failed"))?;
        let (mut slot, _) = self
            .shared
            .arrived
            .wait_timeout_while(slot, WAIT_FOR_FRAME, |s| s.frames == self.seen)
            .map_err(|_| anyhow!("the webcam thread failed"))?;
        match slot.frame.take() {
            Some(image) if slot.frames != self.seen => {
                self.seen = slot.frames;
                let frame = CameraFrame {
                    image,
                    index: self.index,
                    time_s: self.started.elapsed().as_secs_f64(),
                };
                self.index += 1;
                Ok(Some(frame))
            }
            _ => Err(match slot.link.clone() {
                Some(Link::Lost(why)) => anyhow!("{} lost ({why}); reconnecting", self.what),
                _ => anyhow!("waiting for {}", self.what),
            }),
        }
    }

    fn describe(&self) -> String {
        self.what.clone()
    }

    fn is_live(&self) -> bool {
        true
    }
}

impl Drop for Webcam {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.arrived.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn read_forever(connector: &mut dyn Connector, shared: &Shared) {
    let set_link = |link: Link| {
        if let Ok(mut s) = shared.slot.lock() {
            s.link = Some(link);
        }
    };
    while !shared.stop.load(Ordering::Relaxed) {
        match connector.connect() {
            Ok(mut grabber) => loop {
                if shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                match grabber.grab() {
                    Ok(image) => {
                        if let Ok(mut s) = shared.slot.lock() {
                            s.frame = Some(image);
                            s.frames += 1;
                            s.link = Some(Link::Live);
                        }
                        shared.arrived.notify_all();
                    }
                    Err(e) => {
                        set_link(Link::Lost(format!("{e:#}")));
                        break;
                    }
                }
            },
            Err(e) => set_link(Link::Lost(format!("{e:#}"))),
        }
        let deadline = Instant::now() + RECONNECT_EVERY;
        while Instant::now() < deadline && !shared.stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// What to ask the camera for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebcamRequest {
    /// Part of the camera's name (case does not matter); the first camera if `None`.
    pub name: Option<String>,
    /// Frame width, height and rate wanted (the closest the camera offers is taken).
    pub width: u32,
    /// Frame height.
    pub height: u32,
    /// Frames per second.
    pub fps: u32,
}

impl Default for WebcamRequest {
    /// MJPEG 1280×720 at 30 frames per second: sharp enough, and every webcam does it.
    fn default() -> WebcamRequest {
        WebcamRequest {
            name: None,
            width: 1280,
            height: 720,
            fps: 30,
        }
    }
}

/// The cameras Video4Linux knows, by name.
pub fn list_cameras() -> anyhow::Result<Vec<String>> {
    let cameras =
        nokhwa::query(nokhwa::utils::ApiBackend::Video4Linux).context("cannot list cameras")?;
    Ok(cameras.iter().map(|c| c.human_name()).collect())
}

/// Real cameras through nokhwa (Video4Linux).
pub struct NokhwaConnector {
    request: WebcamRequest,
}

impl NokhwaConnector {
    /// A connector for the camera `request` names.
    pub fn new(request: WebcamRequest) -> NokhwaConnector {
        NokhwaConnector { request }
    }
}

impl Connector for NokhwaConnector {
    fn connect(&mut self) -> anyhow::Result<Box<dyn Grabber>> {
        use nokhwa::pixel_format::RgbFormat;
        use nokhwa::utils::{
            ApiBackend, CameraFormat, FrameFormat, RequestedFormat, RequestedFormatType, Resolution,
        };
        let cameras = nokhwa::query(ApiBackend::Video4Linux).context("cannot list cameras")?;
        let wanted = self.request.name.as_deref().map(str::to_lowercase);
        let info = cameras
            .iter()
            .find(|c| {
                wanted
                    .as_deref()
                    .is_none_or(|w| c.human_name().to_lowercase().contains(w))
            })
            .ok_or_else(|| anyhow!("no camera found ({} listed)", cameras.len()))?;
        let r = &self.request;
        let format =
            RequestedFormat::new::<RgbFormat>(RequestedFormatType::Closest(CameraFormat::new(
                Resolution::new(r.width, r.height),
                FrameFormat::MJPEG,
                r.fps,
            )));
        let mut camera = nokhwa::Camera::new(info.index().clone(), format)
            .with_context(|| format!("cannot open {}", info.human_name()))?;
        hold_exposure_and_white_balance(&mut camera);
        camera
            .open_stream()
            .with_context(|| format!("cannot start {}", info.human_name()))?;
        Ok(Box::new(NokhwaGrabber { camera }))
    }

    fn describe(&self) -> String {
        match &self.request.name {
            Some(n) => format!("webcam \"{n}\""),
            None => "the first webcam".to_string(),
        }
    }
}

/// Switches automatic exposure and white balance off where the driver allows, so that the
/// colours the start tile taught stay true. Best effort: a camera without these controls
/// simply keeps its automatics.
fn hold_exposure_and_white_balance(camera: &mut nokhwa::Camera) {
    use nokhwa::utils::{ControlValueSetter, KnownCameraControl};
    // Video4Linux control ids: exposure_auto (1 = manual) and white_balance_automatic.
    const EXPOSURE_AUTO: u128 = 0x009a_0901;
    const WHITE_BALANCE_AUTO: u128 = 0x0098_090c;
    let _ = camera.set_camera_control(
        KnownCameraControl::Other(EXPOSURE_AUTO),
        ControlValueSetter::Integer(1),
    );
    let _ = camera.set_camera_control(
        KnownCameraControl::Other(WHITE_BALANCE_AUTO),
        ControlValueSetter::Boolean(false),
    );
}

struct NokhwaGrabber {
    camera: nokhwa::Camera,
}

impl Grabber for NokhwaGrabber {
    fn grab(&mut self) -> anyhow::Result<Mat> {
        use nokhwa::pixel_format::RgbFormat;
        let buffer = self.camera.frame().context("no frame from the camera")?;
        let rgb = buffer
            .decode_image::<RgbFormat>()
            .context("cannot decode the camera's frame")?;
        let (w, h) = (rgb.width() as i32, rgb.height() as i32);
        let flat = Mat::from_slice(rgb.as_raw())?;
        let image = flat.reshape(3, h)?;
        if image.cols() != w {
            anyhow::bail!("the camera's frame has the wrong size");
        }
        let mut bgr = Mat::default();
        imgproc::cvt_color(&image, &mut bgr, imgproc::COLOR_RGB2BGR, 0)?;
        Ok(bgr)
    }
}

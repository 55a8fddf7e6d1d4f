//! The worker thread: reads the camera, runs vision and the tracker, writes the journal, and
//! hands the window only the newest picture and game view. The window never waits for it.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use eframe::egui;
use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

use super::table::TableView;
use crate::camera::FrameSource;
use crate::record::TurnEntry;
use crate::rules::TileId;
use crate::track::session::Session;

/// Widest picture handed to the window (frames are shrunk for display only).
const DISPLAY_WIDTH: i32 = 1280;

/// What the window asks of the worker.
#[derive(Clone, Debug)]
pub enum Command {
    /// Take back the last turn.
    Undo,
    /// Replace turn `index` (0-based).
    Correct {
        /// Which turn.
        index: usize,
        /// What it really was.
        entry: TurnEntry,
    },
    /// The tile the current player holds (to show its legal spots), or none.
    Hand(Option<TileId>),
}

/// The newest state, for the window.
#[derive(Clone, Default)]
pub struct Snapshot {
    /// The latest camera picture, shrunk for display, with its full size in pixels.
    pub picture: Option<(Arc<egui::ColorImage>, [f32; 2])>,
    /// Counts up with each new picture.
    pub picture_seq: u64,
    /// The game.
    pub table: Arc<TableView>,
    /// The source's state: "live", "camera lost; reconnecting", "finished", …
    pub status: String,
    /// The worker's answer to the last command, if it refused it.
    pub refusal: Option<String>,
    /// Things players should read (a damaged journal recovered, …).
    pub notices: Vec<String>,
    /// Tracker time for the last settled frame, in milliseconds.
    pub read_ms: f32,
    /// Frames handled per second.
    pub fps: f32,
    /// The source has no more frames.
    pub finished: bool,
}

/// The running worker, as the window holds it.
pub struct Worker {
    commands: Sender<Command>,
    latest: Arc<Mutex<Snapshot>>,
    thread: Option<JoinHandle<()>>,
}

/// How fast a recorded source plays: in real time (`Some(1.0)`), faster, or as fast as it goes.
pub type Pace = Option<f64>;

impl Worker {
    /// Starts following `session` through `source`; `repaint` is called after each update.
    pub fn start(
        session: Session,
        source: Box<dyn FrameSource + Send>,
        pace: Pace,
        repaint: impl Fn() + Send + 'static,
    ) -> Worker {
        let (commands, inbox) = mpsc::channel();
        let latest = Arc::new(Mutex::new(Snapshot {
            table: Arc::new(TableView::of(session.tracker(), None)),
            notices: session.notices.clone(),
            status: format!("starting {}", source.describe()),
            ..Snapshot::default()
        }));
        let shared = Arc::clone(&latest);
        let thread = std::thread::Builder::new()
            .name("tracker".into())
            .spawn(move || run(session, source, pace, &inbox, &shared, &repaint))
            .expect("threads can be started");
        Worker {
            commands,
            latest,
            thread: Some(thread),
        }
    }

    /// Sends a command; answered in a later snapshot.
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// The newest snapshot (cheap: pictures and views are shared).
    pub fn snapshot(&self) -> Snapshot {
        self.latest.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the channel tells the worker to stop.
        let (dead, _) = mpsc::channel();
        self.commands = dead;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(
    mut session: Session,
    mut source: Box<dyn FrameSource + Send>,
    pace: Pace,
    inbox: &Receiver<Command>,
    latest: &Mutex<Snapshot>,
    repaint: &dyn Fn(),
) {
    let started = Instant::now();
    let mut hand: Option<TileId> = None;
    let mut seq = 0u64;
    let mut fps_window = (Instant::now(), 0u32);
    let publish = |f: &dyn Fn(&mut Snapshot)| {
        if let Ok(mut s) = latest.lock() {
            f(&mut s);
        }
        repaint();
    };
    loop {
        // Commands first: the players' corrections outrank the camera.
        let mut changed = false;
        loop {
            match inbox.try_recv() {
                Ok(command) => {
                    let refusal = apply(&mut session, &mut hand, command).err();
                    changed = true;
                    publish(&|s| s.refusal = refusal.as_ref().map(|e| format!("{e:#}")));
                }
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => return,
            }
        }
        if changed {
            let table = Arc::new(view(&session, hand));
            publish(&|s| s.table = Arc::clone(&table));
        }
        let frame = match source.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => {
                publish(&|s| {
                    s.finished = true;
                    s.status = format!("{}: finished", source.describe());
                });
                // Keep answering corrections after the last frame.
                match inbox.recv_timeout(Duration::from_millis(200)) {
                    Ok(command) => {
                        let refusal = apply(&mut session, &mut hand, command).err();
                        let table = Arc::new(view(&session, hand));
                        publish(&|s| {
                            s.refusal = refusal.as_ref().map(|e| format!("{e:#}"));
                            s.table = Arc::clone(&table);
                        });
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
                continue;
            }
            Err(e) if source.is_live() => {
                let status = format!("{e:#}");
                publish(&|s| s.status = status.clone());
                continue;
            }
            Err(e) => {
                let status = format!("{}: {e:#}", source.describe());
                publish(&|s| {
                    s.status = status.clone();
                    s.finished = true;
                });
                return;
            }
        };
        if let Some(speed) = pace {
            let due = Duration::from_secs_f64(frame.time_s / speed.max(0.01));
            if let Some(wait) = due.checked_sub(started.elapsed()) {
                std::thread::sleep(wait.min(Duration::from_secs(2)));
            }
        }
        let reading = Instant::now();
        let result = session.feed(&frame.image, Some(frame.time_s));
        let read_ms = reading.elapsed().as_secs_f32() * 1000.0;
        let picture = display_picture(&frame.image).ok();
        seq += 1;
        fps_window.1 += 1;
        let fps = fps_window.1 as f32 / fps_window.0.elapsed().as_secs_f32().max(1e-3);
        if fps_window.0.elapsed() > Duration::from_secs(2) {
            fps_window = (Instant::now(), 0);
        }
        let new_events = result.as_ref().is_ok_and(|events| !events.is_empty());
        let table = new_events.then(|| Arc::new(view(&session, hand)));
        let status = match &result {
            Ok(_) => format!("{} — frame {}", source.describe(), frame.index),
            Err(e) => format!("could not read frame {}: {e:#}", frame.index),
        };
        publish(&|s| {
            if let Some(p) = &picture {
                s.picture = Some(p.clone());
                s.picture_seq = seq;
            }
            if let Some(t) = &table {
                s.table = Arc::clone(t);
                s.read_ms = read_ms;
            }
            s.status = status.clone();
            s.fps = fps;
        });
    }
}

/// The game view, with the tile in hand the players picked or else the one the camera sees.
fn view(session: &Session, hand: Option<TileId>) -> TableView {
    let tracker = session.tracker();
    TableView::of(tracker, hand.or(tracker.tile_in_hand()))
}

fn apply(session: &mut Session, hand: &mut Option<TileId>, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Undo => {
            if session.undo()?.is_none() {
                anyhow::bail!("there is no turn to take back");
            }
        }
        Command::Correct { index, entry } => session.correct(index, entry)?,
        Command::Hand(tile) => *hand = tile,
    }
    Ok(())
}

/// The frame shrunk to at most [`DISPLAY_WIDTH`], as an egui image, with the frame's size.
pub(super) fn display_picture(frame: &Mat) -> opencv::Result<(Arc<egui::ColorImage>, [f32; 2])> {
    let size = [frame.cols() as f32, frame.rows() as f32];
    let mut small = Mat::default();
    let source = if frame.cols() > DISPLAY_WIDTH {
        let h = frame.rows() * DISPLAY_WIDTH / frame.cols();
        imgproc::resize(
            frame,
            &mut small,
            Size::new(DISPLAY_WIDTH, h.max(1)),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )?;
        &small
    } else {
        frame
    };
    let mut rgba = Mat::default();
    imgproc::cvt_color(source, &mut rgba, imgproc::COLOR_BGR2RGBA, 0)?;
    let rgba = if rgba.is_continuous() {
        rgba
    } else {
        rgba.try_clone()?
    };
    let image = egui::ColorImage::from_rgba_unmultiplied(
        [rgba.cols() as usize, rgba.rows() as usize],
        rgba.data_bytes()?,
    );
    Ok((Arc::new(image), size))
}

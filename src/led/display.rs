//! The display: a worker thread owns the serial port and shows the latest frame handed to it.
//!
//! Frames are never queued: a new frame replaces one not yet sent. At most one frame goes out
//! per [`Timing::min_interval`]; over Adalight the last frame is sent again every
//! [`Timing::keep_alive`] so that WLED does not fall back to its own effect. When the port fails
//! the worker reopens it with growing delays (the [`Connector`] finds a USB device again by its
//! identity), and sends the wanted frame as soon as it is back. Closing the display turns the LEDs
//! black. [`Display::state`] tells a UI what is going on.

use std::fmt;
use std::io::{self, Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serialport::SerialPort;

use super::discover::Connector;
use super::layout::MAX_LEDS;
use super::probe::{self, quiet, Handshake, Protocol, ProtocolChoice};
use super::rgb::Rgb;
use super::{adalight, wled};

/// The display's clock; the defaults suit real devices, tests shorten them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Least time between two frames (30 ms).
    pub min_interval: Duration,
    /// Adalight frames are re-sent after this long without a change (1 s; WLED gives up on
    /// Adalight after 2.5 s).
    pub keep_alive: Duration,
    /// How long to wait for an Adalight board's greeting after opening the port, which resets
    /// many boards (2 s).
    pub boot_wait: Duration,
    /// How long to wait for each reply from WLED (1 s).
    pub reply_timeout: Duration,
    /// How long a write may block before the device counts as stuck (1 s).
    pub write_timeout: Duration,
    /// How often the port is read (and checked) while there is nothing to send (50 ms).
    pub poll: Duration,
    /// First delay before reopening a failed port (250 ms); it doubles on each failure.
    pub retry_min: Duration,
    /// Longest delay before reopening (5 s).
    pub retry_max: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            min_interval: Duration::from_millis(30),
            keep_alive: Duration::from_secs(1),
            boot_wait: Duration::from_secs(2),
            reply_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(1),
            poll: Duration::from_millis(50),
            retry_min: Duration::from_millis(250),
            retry_max: Duration::from_secs(5),
        }
    }
}

/// How to run a display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Number of LEDs (1 to [`MAX_LEDS`]); every frame is cut or padded with black to this.
    pub leds: usize,
    /// Protocol to speak.
    pub protocol: ProtocolChoice,
    /// Intervals and timeouts.
    pub timing: Timing,
}

/// Where the connection to the device stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Opening the port and finding out what the device speaks.
    Connecting,
    /// Talking to the device.
    Connected {
        /// The port's name.
        port: String,
        /// What the device turned out to be.
        handshake: Handshake,
    },
    /// The port could not be opened or failed; it is tried again after `delay`.
    Retrying {
        /// What went wrong.
        error: String,
        /// Failed attempts in a row.
        attempt: u32,
        /// Wait before the next attempt.
        delay: Duration,
    },
    /// The display was closed.
    Closed,
}

impl fmt::Display for LinkState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkState::Connecting => f.write_str("connecting"),
            LinkState::Connected { port, handshake } => {
                write!(f, "connected to {port}")?;
                match (&handshake.wled, handshake.protocol) {
                    (Some(w), p) => {
                        write!(f, " (WLED {}", w.version)?;
                        if let Some(n) = w.leds {
                            write!(f, ", {n} LEDs")?;
                        }
                        if let Some((mw, mh)) = w.matrix {
                            write!(f, ", {mw}×{mh} matrix")?;
                        }
                        match p {
                            Protocol::WledJson => f.write_str(", JSON API)"),
                            Protocol::Adalight => f.write_str(", Adalight)"),
                        }
                    }
                    (None, _) if handshake.greeted => f.write_str(" (Adalight board)"),
                    (None, _) => f.write_str(" (no greeting; speaking Adalight)"),
                }
            }
            LinkState::Retrying {
                error,
                attempt,
                delay,
            } => write!(
                f,
                "{error}; retry {attempt} in {:.1} s",
                delay.as_secs_f64()
            ),
            LinkState::Closed => f.write_str("closed"),
        }
    }
}

/// Counters since the display started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames written, keep-alives included.
    pub frames: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Successful connections.
    pub connects: u64,
}

struct Inner {
    pending: Option<Vec<Rgb>>,
    stop: bool,
    state: LinkState,
    stats: Stats,
}

struct Shared {
    inner: Mutex<Inner>,
    changed: Condvar,
}

enum Taken {
    Stop,
    Frame(Vec<Rgb>),
    Nothing,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn update(&self, f: impl FnOnce(&mut Inner)) {
        f(&mut self.lock());
        self.changed.notify_all();
    }

    fn stopping(&self) -> bool {
        self.lock().stop
    }

    /// Waits up to `wait` for a new frame or the stop request.
    fn take(&self, wait: Duration) -> Taken {
        let guard = self.lock();
        let (mut inner, _) = self
            .changed
            .wait_timeout_while(guard, wait, |i| i.pending.is_none() && !i.stop)
            .unwrap_or_else(PoisonError::into_inner);
        if inner.stop {
            Taken::Stop
        } else if let Some(frame) = inner.pending.take() {
            Taken::Frame(frame)
        } else {
            Taken::Nothing
        }
    }

    /// Sleeps for `wait` unless stopped first; returns whether stopped.
    fn sleep(&self, wait: Duration) -> bool {
        let guard = self.lock();
        let (inner, _) = self
            .changed
            .wait_timeout_while(guard, wait, |i| !i.stop)
            .unwrap_or_else(PoisonError::into_inner);
        inner.stop
    }
}

/// An LED display on a serial port, driven by a worker thread.
pub struct Display {
    shared: Arc<Shared>,
    leds: usize,
    worker: Option<JoinHandle<()>>,
}

impl Display {
    /// Starts the worker, which opens the port through `connector` and keeps it open.
    pub fn start(connector: Box<dyn Connector>, config: Config) -> Display {
        let config = Config {
            leds: config.leds.clamp(1, MAX_LEDS),
            ..config
        };
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner {
                pending: None,
                stop: false,
                state: LinkState::Connecting,
                stats: Stats::default(),
            }),
            changed: Condvar::new(),
        });
        let worker = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("led-display".into())
                .spawn(move || run(&shared, connector, &config))
                .expect("cannot start the LED display thread")
        };
        Display {
            shared,
            leds: config.leds,
            worker: Some(worker),
        }
    }

    /// The number of LEDs.
    pub fn leds(&self) -> usize {
        self.leds
    }

    /// Shows `frame` (LED 0 first) as soon as the pacing allows, replacing any frame not yet
    /// sent. It is cut or padded with black to the display's length.
    pub fn show(&self, mut frame: Vec<Rgb>) {
        frame.resize(self.leds, Rgb::BLACK);
        self.shared.update(|i| i.pending = Some(frame));
    }

    /// Where the connection stands.
    pub fn state(&self) -> LinkState {
        self.shared.lock().state.clone()
    }

    /// Counters since the start.
    pub fn stats(&self) -> Stats {
        self.shared.lock().stats
    }

    /// Waits until the state satisfies `done` or `timeout` has passed; returns the state then.
    pub fn wait_until(&self, timeout: Duration, done: impl Fn(&LinkState) -> bool) -> LinkState {
        let guard = self.shared.lock();
        let (inner, _) = self
            .shared
            .changed
            .wait_timeout_while(guard, timeout, |i| !done(&i.state))
            .unwrap_or_else(PoisonError::into_inner);
        inner.state.clone()
    }
}

impl Drop for Display {
    /// Turns the LEDs black (when connected) and stops the worker.
    fn drop(&mut self) {
        self.shared.update(|i| i.stop = true);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The worker: connect, run a session until it fails, wait, and again, until stopped.
fn run(shared: &Shared, mut connector: Box<dyn Connector>, config: &Config) {
    let timing = &config.timing;
    let mut wanted = vec![Rgb::BLACK; config.leds];
    let mut delay = timing.retry_min;
    let mut attempt = 0;
    while !shared.stopping() {
        shared.update(|i| i.state = LinkState::Connecting);
        let error = match Session::open(&mut *connector, config, shared) {
            Ok(mut session) => {
                shared.update(|i| {
                    i.state = LinkState::Connected {
                        port: session.name.clone(),
                        handshake: session.handshake.clone(),
                    };
                    i.stats.connects += 1;
                });
                delay = timing.retry_min;
                attempt = 0;
                match session.run(shared, &mut wanted, timing) {
                    Ok(()) => {
                        session.blackout(timing);
                        break;
                    }
                    Err(e) => format!("lost {}: {e}", session.name),
                }
            }
            Err(e) => e,
        };
        if shared.stopping() {
            break;
        }
        attempt += 1;
        shared.update(|i| {
            i.state = LinkState::Retrying {
                error,
                attempt,
                delay,
            }
        });
        if shared.sleep(delay) {
            break;
        }
        delay = (delay * 2).min(timing.retry_max);
    }
    shared.update(|i| i.state = LinkState::Closed);
}

/// One open connection.
struct Session {
    port: Box<dyn SerialPort>,
    name: String,
    handshake: Handshake,
    /// What the device shows, as far as we know.
    shown: Option<Vec<Rgb>>,
    last_sent: Option<Instant>,
    out: Vec<u8>,
}

impl Session {
    fn open(
        connector: &mut dyn Connector,
        config: &Config,
        shared: &Shared,
    ) -> Result<Session, String> {
        let mut port = connector.connect().map_err(|e| e.to_string())?;
        let name = port.name().unwrap_or_else(|| "the serial port".into());
        let t = &config.timing;
        let handshake = probe::handshake(
            &mut *port,
            config.protocol,
            t.boot_wait,
            t.reply_timeout,
            &|| shared.stopping(),
        )
        .map_err(|e| format!("{name}: {e}"))?;
        Ok(Session {
            port,
            name,
            handshake,
            shown: None,
            last_sent: None,
            out: Vec::new(),
        })
    }

    /// Sends frames until stopped (`Ok`) or the port fails.
    fn run(&mut self, shared: &Shared, wanted: &mut Vec<Rgb>, t: &Timing) -> io::Result<()> {
        loop {
            let now = Instant::now();
            let due = match self.last_sent {
                None => Some(now),
                Some(at) if self.shown.as_ref() != Some(wanted) => Some(at + t.min_interval),
                Some(at) if self.handshake.protocol == Protocol::Adalight => {
                    Some(at + t.keep_alive)
                }
                Some(_) => None,
            };
            if due.is_some_and(|d| d <= now) {
                let bytes = self.send(wanted, t)?;
                shared.update(|i| {
                    i.stats.frames += 1;
                    i.stats.bytes += bytes as u64;
                });
                continue;
            }
            let wait = due.map_or(t.poll, |d| (d - now).min(t.poll));
            match shared.take(wait) {
                Taken::Stop => return Ok(()),
                Taken::Frame(frame) => *wanted = frame,
                Taken::Nothing => {}
            }
            self.drain()?;
        }
    }

    /// Writes `frame`; returns the bytes written.
    fn send(&mut self, frame: &[Rgb], t: &Timing) -> io::Result<usize> {
        self.port.set_timeout(t.write_timeout)?;
        let mut written = 0;
        match self.handshake.protocol {
            Protocol::Adalight => {
                self.out.clear();
                adalight::encode_into(&mut self.out, frame);
                self.port.write_all(&self.out)?;
                written += self.out.len();
            }
            Protocol::WledJson => {
                let turn_on = self.shown.is_none();
                for msg in wled::encode_update(self.shown.as_deref(), frame, turn_on) {
                    self.port.write_all(msg.as_bytes())?;
                    written += msg.len();
                }
            }
        }
        self.shown = Some(frame.to_vec());
        self.last_sent = Some(Instant::now());
        Ok(written)
    }

    /// Reads and drops whatever the device sent (greetings, replies, noise); fails when the port
    /// is gone.
    fn drain(&mut self) -> io::Result<()> {
        self.port.set_timeout(Duration::ZERO)?;
        let mut chunk = [0u8; 4096];
        for _ in 0..64 {
            match self.port.read(&mut chunk) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(_) => {}
                Err(e) if quiet(&e) => return Ok(()),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Turns every LED off, as far as the port still works.
    fn blackout(&mut self, t: &Timing) {
        if let Some(n) = self.shown.as_ref().map(Vec::len) {
            let _ = self.send(&vec![Rgb::BLACK; n], t);
        }
    }
}

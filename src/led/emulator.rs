//! Stand-ins for LED devices on a pseudo-terminal pair, for tests and benchmarks.
//!
//! The emulator holds the master side; the program under test opens the other side as its
//! serial port. It decodes Adalight frames (checking the header checksum), and as WLED it
//! answers `v` and `{"v":true}` and keeps per-LED colours set with `{"seg":{"i":[...]}}`.
//! Dropping it closes the master side, which looks like an unplugged device.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use serialport::{SerialPort, TTYPort};

use super::rgb::Rgb;

/// The firmware to imitate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Firmware {
    /// An Adalight board: sends `"Ada\n"` once at start, shows Adalight frames, answers nothing.
    Adalight,
    /// WLED: answers `v` and JSON, shows Adalight frames and keeps colours set through `seg.i`.
    Wled {
        /// LEDs configured.
        leds: usize,
        /// Matrix width and height, if set up as 2D.
        matrix: Option<(usize, usize)>,
    },
    /// Shows Adalight frames and never says anything.
    Silent,
}

/// How the emulator behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// What to imitate.
    pub firmware: Firmware,
    /// Cut every reply after this many bytes (a half-written reply).
    pub reply_limit: Option<usize>,
    /// Send random bytes every few milliseconds, from this seed.
    pub noise: Option<u64>,
}

impl Options {
    /// A well-behaved device running `firmware`.
    pub fn new(firmware: Firmware) -> Options {
        Options {
            firmware,
            reply_limit: None,
            noise: None,
        }
    }
}

/// The version WLED emulators report.
pub const WLED_VERSION: &str = "0.14.0";

/// How many of the latest frames [`Seen::frames`] keeps.
pub const KEPT_FRAMES: usize = 4096;

/// What the emulator has received and shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Adalight frames with a valid header, in order, with their arrival time (older ones are
    /// dropped, but the last [`KEPT_FRAMES`] are always kept).
    pub frames: Vec<(Instant, Vec<Rgb>)>,
    /// All Adalight frames with a valid header.
    pub frame_count: u64,
    /// Adalight headers whose checksum was wrong.
    pub bad_headers: usize,
    /// JSON messages received, as text.
    pub json: Vec<String>,
    /// The LED colours set through WLED's JSON API (empty until the first `seg.i`).
    pub leds: Vec<Rgb>,
    /// Whether WLED was switched on through JSON.
    pub on: bool,
    /// Bytes received.
    pub bytes: usize,
}

/// A running emulator.
pub struct Emulator {
    seen: Arc<Mutex<Seen>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Emulator {
    /// Starts an emulator; returns it and the port for the program under test.
    pub fn start(options: Options) -> io::Result<(Emulator, TTYPort)> {
        let (mut master, slave) = TTYPort::pair().map_err(io::Error::from)?;
        master
            .set_timeout(Duration::from_millis(5))
            .map_err(io::Error::from)?;
        // Holding the other side open too keeps what the program wrote last readable after it
        // closes its port (a pseudo-terminal otherwise hangs up on that close).
        let name = slave.name().ok_or(io::ErrorKind::NotFound)?;
        let hold = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name)?;
        let seen = Arc::new(Mutex::new(Seen::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (seen, stop) = (Arc::clone(&seen), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("led-emulator".into())
                .spawn(move || {
                    Device::new(options, seen).run(&mut master, &stop);
                    drop(hold);
                })?
        };
        Ok((
            Emulator {
                seen,
                stop,
                thread: Some(thread),
            },
            slave,
        ))
    }

    /// What has been received so far.
    pub fn seen(&self) -> MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `done` holds for what has been received, up to `timeout`; returns whether it
    /// did.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&Seen) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if done(&self.seen()) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where the byte parser stands.
enum Parse {
    Idle,
    /// After `A`: the header bytes so far.
    Header(Vec<u8>),
    /// Pixel bytes of a frame of `leds` LEDs.
    Pixels {
        leds: usize,
        data: Vec<u8>,
    },
    /// Inside a JSON object.
    Json {
        text: Vec<u8>,
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
}

struct Device {
    options: Options,
    seen: Arc<Mutex<Seen>>,
    parse: Parse,
    replies: Vec<u8>,
    noise: Option<ChaCha8Rng>,
}

impl Device {
    fn new(options: Options, seen: Arc<Mutex<Seen>>) -> Device {
        let noise = options.noise.map(ChaCha8Rng::seed_from_u64);
        Device {
            options,
            seen,
            parse: Parse::Idle,
            replies: Vec::new(),
            noise,
        }
    }

    fn wled(&self) -> Option<(usize, Option<(usize, usize)>)> {
        match self.options.firmware {
            Firmware::Wled { leds, matrix } => Some((leds, matrix)),
            _ => None,
        }
    }

    fn run(mut self, master: &mut TTYPort, stop: &AtomicBool) {
        if self.options.firmware == Firmware::Adalight {
            let _ = master.write_all(b"Ada\n");
        }
        let mut buf = [0u8; 8192];
        while !stop.load(Ordering::Relaxed) {
            match master.read(&mut buf) {
                Ok(n) => {
                    self.lock().bytes += n;
                    for &b in &buf[..n] {
                        self.byte(b);
                    }
                }
                // Timeouts, or no program has the port open just now.
                Err(_) => std::thread::sleep(Duration::from_millis(1)),
            }
            if !self.replies.is_empty() {
                let _ = master.write_all(&self.replies);
                self.replies.clear();
            }
            if let Some(rng) = &mut self.noise {
                let mut junk = [0u8; 64];
                rng.fill_bytes(&mut junk);
                let _ = master.write(&junk);
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn reply(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let n = self
            .options
            .reply_limit
            .unwrap_or(bytes.len())
            .min(bytes.len());
        self.replies.extend_from_slice(&bytes[..n]);
    }

    fn byte(&mut self, b: u8) {
        let parse = std::mem::replace(&mut self.parse, Parse::Idle);
        self.parse = match parse {
            Parse::Idle => self.idle(b),
            Parse::Header(mut h) => {
                h.push(b);
                match h.len() {
                    1 if b != b'd' => return self.byte(b),
                    2 if b != b'a' => return self.byte(b),
                    5 => {
                        let (hi, lo, check) = (h[2], h[3], h[4]);
                        if check == hi ^ lo ^ 0x55 {
                            let leds = usize::from(u16::from_be_bytes([hi, lo])) + 1;
                            Parse::Pixels {
                                leds,
                                data: Vec::with_capacity(leds * 3),
                            }
                        } else {
                            self.lock().bad_headers += 1;
                            Parse::Idle
                        }
                    }
                    _ => Parse::Header(h),
                }
            }
            Parse::Pixels { leds, mut data } => {
                data.push(b);
                if data.len() == leds * 3 {
                    let frame = data.chunks(3).map(|c| Rgb::new(c[0], c[1], c[2])).collect();
                    let mut seen = self.lock();
                    if seen.frames.len() == 2 * KEPT_FRAMES {
                        seen.frames.drain(..KEPT_FRAMES);
                    }
                    seen.frames.push((Instant::now(), frame));
                    seen.frame_count += 1;
                    Parse::Idle
                } else {
                    Parse::Pixels { leds, data }
                }
            }
            Parse::Json {
                mut text,
                mut depth,
                mut in_string,
                mut escaped,
            } => {
                text.push(b);
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                    }
                } else if b == b'"' {
                    in_string = true;
                } else if b == b'{' {
                    depth += 1;
                } else if b == b'}' {
                    depth -= 1;
                    if depth == 0 {
                        self.json(&String::from_utf8_lossy(&text));
                        return;
                    }
                }
                Parse::Json {
                    text,
                    depth,
                    in_string,
                    escaped,
                }
            }
        };
    }

    fn idle(&mut self, b: u8) -> Parse {
        match b {
            b'A' => Parse::Header(Vec::new()),
            b'{' if self.wled().is_some() => Parse::Json {
                text: vec![b],
                depth: 1,
                in_string: false,
                escaped: false,
            },
            b'v' if self.wled().is_some() => {
                self.reply(&format!("WLED {WLED_VERSION}\r\n"));
                Parse::Idle
            }
            _ => Parse::Idle,
        }
    }

    /// Applies a JSON message as WLED would.
    fn json(&mut self, text: &str) {
        let Some((count, matrix)) = self.wled() else {
            return;
        };
        self.lock().json.push(text.to_string());
        let Ok(msg) = serde_json::from_str::<Value>(text) else {
            return;
        };
        if let Some(on) = msg["on"].as_bool() {
            self.lock().on = on;
        }
        if let Some(items) = msg["seg"]["i"].as_array() {
            let mut seen = self.lock();
            if seen.leds.is_empty() {
                seen.leds = vec![Rgb::BLACK; count];
            }
            set_individual(&mut seen.leds, items);
        }
        if msg["v"] == json!(true) {
            let mut leds = json!({ "count": count });
            if let Some((w, h)) = matrix {
                leds["matrix"] = json!({ "w": w, "h": h });
            }
            let on = self.lock().on;
            let reply = json!({
                "state": { "on": on, "bri": 128, "seg": [{ "id": 0, "start": 0, "stop": count }] },
                "info": { "ver": WLED_VERSION, "leds": leds, "name": "WLED" },
            });
            self.reply(&format!("{reply}\r\n"));
        }
    }
}

/// Applies a `seg.i` list: `index, colour` sets one LED, `start, stop, colour` the LEDs from
/// `start` up to `stop`, and a colour with no index before it the LED after the last one set.
fn set_individual(leds: &mut [Rgb], items: &[Value]) {
    let mut indices: Vec<usize> = Vec::new();
    let mut next = 0;
    for item in items {
        if let Some(i) = item.as_u64() {
            indices.push(i as usize);
            continue;
        }
        let Some(colour) = parse_colour(item) else {
            indices.clear();
            continue;
        };
        let (start, stop) = match indices[..] {
            [] => (next, next + 1),
            [i] => (i, i + 1),
            [a, b, ..] => (a, b.max(a + 1)),
        };
        for led in leds.iter_mut().take(stop).skip(start) {
            *led = colour;
        }
        next = stop;
        indices.clear();
    }
}

/// A colour as `"RRGGBB"` or `[r, g, b]`.
fn parse_colour(v: &Value) -> Option<Rgb> {
    if let Some(s) = v.as_str() {
        let n = u32::from_str_radix(s, 16).ok().filter(|_| s.len() == 6)?;
        let [_, r, g, b] = n.to_be_bytes();
        return Some(Rgb::new(r, g, b));
    }
    let a = v.as_array()?;
    let c = |i: usize| a.get(i)?.as_u64().map(|x| x.min(255) as u8);
    Some(Rgb::new(c(0)?, c(1)?, c(2)?))
}

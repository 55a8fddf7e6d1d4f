//! LED display benchmarks: encoding a 1024-LED frame, and frames per second over a
//! pseudo-terminal to the emulated device (raw link, and through the display's worker).

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use meeplecam::led::discover::Connector;
use meeplecam::led::emulator::{Emulator, Firmware, Options};
use meeplecam::led::{adalight, wled, Config, Display, ProtocolChoice, Rgb, Timing};
use serialport::{SerialPort, TTYPort};

const LEDS: usize = 1024;

fn picture(seed: u8) -> Vec<Rgb> {
    (0..LEDS)
        .map(|i| Rgb::new(i as u8 ^ seed, (i >> 2) as u8, seed))
        .collect()
}

fn encode(c: &mut Criterion) {
    let frame = picture(1);
    let mut out = Vec::new();
    c.bench_function("adalight encode 1024 LEDs", |b| {
        b.iter(|| {
            out.clear();
            adalight::encode_into(&mut out, std::hint::black_box(&frame));
            out.len()
        })
    });
    c.bench_function("wled json encode 1024 LEDs, all new", |b| {
        b.iter(|| wled::encode_update(None, std::hint::black_box(&frame), true))
    });
    let mut few = frame.clone();
    for i in (0..LEDS).step_by(64) {
        few[i] = Rgb::new(1, 2, 3);
    }
    c.bench_function("wled json encode 1024 LEDs, 16 changed", |b| {
        b.iter(|| wled::encode_update(Some(&frame), std::hint::black_box(&few), false))
    });
}

/// Encode, write and have the emulator decode `iters` frames back to back.
fn pty(c: &mut Criterion) {
    let (emu, mut port) = Emulator::start(Options::new(Firmware::Silent)).unwrap();
    port.set_timeout(Duration::from_secs(5)).unwrap();
    let frames = [picture(1), picture(2)];
    let mut out = Vec::new();
    c.bench_function("adalight 1024 LEDs over the pty, per frame", |b| {
        b.iter_custom(|iters| {
            let start_count = emu.seen().frame_count;
            let t = Instant::now();
            for k in 0..iters {
                out.clear();
                adalight::encode_into(&mut out, &frames[(k % 2) as usize]);
                port.write_all(&out).unwrap();
            }
            let done = emu.wait_for(Duration::from_secs(60), |s| {
                s.frame_count >= start_count + iters
            });
            assert!(done, "the emulator fell behind");
            t.elapsed()
        })
    });
    assert_eq!(emu.seen().bad_headers, 0);
}

struct Plug(Arc<Mutex<Option<TTYPort>>>);

impl Connector for Plug {
    fn connect(&mut self) -> Result<Box<dyn SerialPort>, serialport::Error> {
        match self.0.lock().unwrap().take() {
            Some(p) => Ok(Box::new(p)),
            None => Err(serialport::Error::new(
                serialport::ErrorKind::NoDevice,
                "gone",
            )),
        }
    }
}

/// Frames per second arriving at the emulator while a new frame is shown every millisecond.
fn display_rate(min_interval: Duration) -> f64 {
    let (emu, port) = Emulator::start(Options::new(Firmware::Silent)).unwrap();
    let display = Display::start(
        Box::new(Plug(Arc::new(Mutex::new(Some(port))))),
        Config {
            leds: LEDS,
            protocol: ProtocolChoice::Adalight,
            timing: Timing {
                min_interval,
                ..Timing::default()
            },
        },
    );
    display.show(picture(0));
    assert!(emu.wait_for(Duration::from_secs(5), |s| s.frame_count > 0));
    let before = emu.seen().frame_count;
    let t = Instant::now();
    let mut k = 0u8;
    while t.elapsed() < Duration::from_secs(2) {
        k = k.wrapping_add(1);
        display.show(picture(k));
        std::thread::sleep(Duration::from_millis(1));
    }
    let frames = emu.seen().frame_count - before;
    frames as f64 / t.elapsed().as_secs_f64()
}

criterion_group!(benches, encode, pty);

fn main() {
    benches();
    for (what, interval) in [
        ("default 30 ms spacing", Duration::from_millis(30)),
        ("no spacing", Duration::ZERO),
    ] {
        println!(
            "display worker, 1024 LEDs, {what}: {:.1} frames/s",
            display_rate(interval)
        );
    }
    Criterion::default().configure_from_args().final_summary();
}

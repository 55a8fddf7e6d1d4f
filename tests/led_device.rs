//! The display against emulated devices on pseudo-terminals: Adalight frames and their pacing,
//! keep-alive, WLED detection and JSON mode, black on close, reconnecting, and devices that send
//! garbage, stay silent, answer by halves, stall or vanish.
#![cfg(all(feature = "led", unix))]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use meeplecam::led::discover::Connector;
use meeplecam::led::emulator::{Emulator, Firmware, Options, Seen, WLED_VERSION};
use meeplecam::led::{Config, Display, LinkState, Protocol, ProtocolChoice, Rgb, Timing};
use serialport::{SerialPort, TTYPort};

const WAIT: Duration = Duration::from_secs(5);

/// Short intervals so that tests run fast; the 30 ms frame spacing is the real one.
fn timing() -> Timing {
    Timing {
        min_interval: Duration::from_millis(30),
        keep_alive: Duration::from_millis(200),
        boot_wait: Duration::from_millis(150),
        reply_timeout: Duration::from_millis(150),
        write_timeout: Duration::from_millis(200),
        poll: Duration::from_millis(5),
        retry_min: Duration::from_millis(20),
        retry_max: Duration::from_millis(100),
    }
}

/// A socket the test plugs emulated devices into; records when the display tried to connect.
#[derive(Clone, Default)]
struct Socket {
    port: Arc<Mutex<Option<TTYPort>>>,
    attempts: Arc<Mutex<Vec<Instant>>>,
}

impl Socket {
    fn plug(&self, port: TTYPort) {
        *self.port.lock().unwrap() = Some(port);
    }

    fn attempts(&self) -> Vec<Instant> {
        self.attempts.lock().unwrap().clone()
    }
}

impl Connector for Socket {
    fn connect(&mut self) -> Result<Box<dyn SerialPort>, serialport::Error> {
        self.attempts.lock().unwrap().push(Instant::now());
        match self.port.lock().unwrap().take() {
            Some(p) => Ok(Box::new(p)),
            None => Err(serialport::Error::new(
                serialport::ErrorKind::NoDevice,
                "nothing plugged in",
            )),
        }
    }
}

fn start(socket: &Socket, leds: usize, protocol: ProtocolChoice) -> Display {
    Display::start(
        Box::new(socket.clone()),
        Config {
            leds,
            protocol,
            timing: timing(),
        },
    )
}

fn emulator(options: Options) -> (Emulator, TTYPort) {
    Emulator::start(options).expect("a pseudo-terminal pair")
}

fn connected(display: &Display) -> LinkState {
    let state = display.wait_until(WAIT, |s| matches!(s, LinkState::Connected { .. }));
    assert!(matches!(state, LinkState::Connected { .. }), "{state:?}");
    state
}

fn handshake_of(state: &LinkState) -> &meeplecam::led::probe::Handshake {
    match state {
        LinkState::Connected { handshake, .. } => handshake,
        other => panic!("not connected: {other:?}"),
    }
}

fn last_frame(seen: &Seen) -> Option<Vec<Rgb>> {
    seen.frames.last().map(|f| f.1.clone())
}

fn colours(n: usize, seed: u8) -> Vec<Rgb> {
    (0..n)
        .map(|i| Rgb::new(i as u8 ^ seed, (i * 7) as u8, seed))
        .collect()
}

#[test]
fn adalight_board_gets_exact_frames() {
    let (emu, port) = emulator(Options::new(Firmware::Adalight));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 3, ProtocolChoice::Auto);
    let state = connected(&display);
    let hs = handshake_of(&state);
    assert!(hs.greeted, "the board said Ada");
    assert_eq!((hs.protocol, hs.wled.as_ref()), (Protocol::Adalight, None));

    let picture = vec![Rgb::new(255, 0, 0), Rgb::new(0, 255, 0), Rgb::new(1, 2, 3)];
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
    let seen = emu.seen();
    assert_eq!(seen.bad_headers, 0);
    // Before the first frame the display shows black; nothing else was ever sent.
    assert_eq!(seen.frames[0].1, vec![Rgb::BLACK; 3]);
    assert!(seen
        .frames
        .iter()
        .all(|f| f.1 == picture || f.1 == vec![Rgb::BLACK; 3]));
}

#[test]
fn only_the_latest_frame_is_sent_and_frames_are_30ms_apart() {
    let (emu, port) = emulator(Options::new(Firmware::Adalight));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 64, ProtocolChoice::Adalight);
    connected(&display);
    let frames: Vec<Vec<Rgb>> = (0..200u8).map(|k| colours(64, k)).collect();
    let t0 = Instant::now();
    for f in &frames {
        display.show(f.clone());
        std::thread::sleep(Duration::from_millis(1));
    }
    let last = frames.last().unwrap().clone();
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&last)));
    let spent = t0.elapsed();
    let seen = emu.seen();
    let got: Vec<&Vec<Rgb>> = seen.frames.iter().map(|f| &f.1).collect();
    // Everything after the first (black) frame was sent within `spent`, at most one per 30 ms,
    // and each is a frame that was shown.
    let slots = (spent.as_millis() / 30) as usize + 1;
    assert!(got.len() <= slots + 1, "{} frames in {spent:?}", got.len());
    assert!(
        got.len() < frames.len() / 2,
        "frames were queued: {}",
        got.len()
    );
    assert!(got[1..].iter().all(|f| frames.contains(f)));
    // Arrival gaps (the emulator may read two at once when it is held up): typically 30 ms.
    let mut gaps: Vec<Duration> = seen.frames.windows(2).map(|w| w[1].0 - w[0].0).collect();
    gaps.sort();
    let median = gaps[gaps.len() / 2];
    assert!(median >= Duration::from_millis(28), "median gap {median:?}");
}

#[test]
fn adalight_frames_are_resent_every_keep_alive() {
    let (emu, port) = emulator(Options::new(Firmware::Adalight));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 8, ProtocolChoice::Adalight);
    connected(&display);
    let picture = colours(8, 9);
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
    let first = emu.seen().frames.len();
    std::thread::sleep(Duration::from_millis(1100));
    let seen = emu.seen();
    let resent = &seen.frames[first - 1..];
    // 1.1 s at one resend per 200 ms: 5 (4 to 6 with scheduling slack), all the same picture,
    // typically 200 ms apart.
    assert!(
        (4..=6).contains(&(resent.len() - 1)),
        "{} resends",
        resent.len() - 1
    );
    assert!(resent.iter().all(|f| f.1 == picture));
    let mut gaps: Vec<Duration> = resent.windows(2).map(|w| w[1].0 - w[0].0).collect();
    gaps.sort();
    let median = gaps[gaps.len() / 2];
    assert!(
        median >= Duration::from_millis(195) && median <= Duration::from_millis(260),
        "keep-alive every {median:?}"
    );
}

#[test]
fn closing_the_display_turns_the_leds_black() {
    let (emu, port) = emulator(Options::new(Firmware::Adalight));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 5, ProtocolChoice::Auto);
    connected(&display);
    let picture = colours(5, 3);
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
    let t = Instant::now();
    drop(display);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "close took {:?}",
        t.elapsed()
    );
    assert!(emu.wait_for(WAIT, |s| last_frame(s) == Some(vec![Rgb::BLACK; 5])));
}

#[test]
fn wled_is_detected_and_driven_through_json() {
    let firmware = Firmware::Wled {
        leds: 300,
        matrix: Some((20, 15)),
    };
    let (emu, port) = emulator(Options::new(firmware));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 300, ProtocolChoice::Auto);
    let state = connected(&display);
    let hs = handshake_of(&state);
    assert_eq!(hs.protocol, Protocol::WledJson);
    let info = hs.wled.as_ref().unwrap();
    assert_eq!(info.version, WLED_VERSION);
    assert_eq!((info.leds, info.matrix), (Some(300), Some((20, 15))));

    // A picture with runs and single LEDs, spanning more than one 256-LED message.
    let mut picture = vec![Rgb::BLACK; 300];
    for (i, p) in picture.iter_mut().enumerate() {
        if i % 7 == 0 || (100..140).contains(&i) || i >= 250 {
            *p = Rgb::new((i % 256) as u8, 10, 200);
        }
    }
    picture[120] = Rgb::new(0, 255, 0);
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| s.leds == picture));
    let messages = emu.seen().json.len();
    assert!(emu.seen().on, "switched on");

    // One changed LED: one small message with just that LED.
    let mut changed = picture.clone();
    changed[299] = Rgb::new(1, 2, 3);
    display.show(changed.clone());
    assert!(emu.wait_for(WAIT, |s| s.leds == changed));
    let seen = emu.seen();
    assert_eq!(seen.json.len(), messages + 1);
    assert_eq!(seen.json.last().unwrap(), r#"{"seg":{"i":[299,"010203"]}}"#);
    // No Adalight frames, and no keep-alive: colours set through JSON stay.
    assert!(seen.frames.is_empty());
    drop(seen);
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(emu.seen().json.len(), messages + 1);

    drop(display);
    assert!(emu.wait_for(WAIT, |s| s.leds == vec![Rgb::BLACK; 300]));
}

#[test]
fn reconnects_after_the_device_goes_away_and_comes_back() {
    let socket = Socket::default();
    let (first, port) = emulator(Options::new(Firmware::Adalight));
    socket.plug(port);
    let display = start(&socket, 4, ProtocolChoice::Auto);
    connected(&display);
    let picture = colours(4, 77);
    display.show(picture.clone());
    assert!(first.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));

    drop(first); // unplugged
    let state = display.wait_until(WAIT, |s| matches!(s, LinkState::Retrying { .. }));
    match &state {
        LinkState::Retrying { error, .. } => assert!(error.contains("lost"), "{error}"),
        other => panic!("{other:?}"),
    }
    // Tries again with growing delays (20, 40, 80, then 100 ms): a handful of attempts, not a
    // busy loop.
    let before = socket.attempts().len();
    std::thread::sleep(Duration::from_millis(600));
    let tries = socket.attempts()[before..].to_vec();
    assert!((3..=10).contains(&tries.len()), "{} attempts", tries.len());
    for w in tries.windows(2) {
        assert!(
            w[1] - w[0] >= Duration::from_millis(15),
            "retried after {:?}",
            w[1] - w[0]
        );
    }
    let state = display.state();
    assert!(
        matches!(state, LinkState::Retrying { attempt, delay, .. } if attempt >= 3 && delay == Duration::from_millis(100)),
        "{state:?}"
    );

    let (second, port) = emulator(Options::new(Firmware::Adalight));
    socket.plug(port);
    connected(&display);
    // The picture comes back without being shown again.
    assert!(second.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
    assert_eq!(display.stats().connects, 2);
    let next = colours(4, 78);
    display.show(next.clone());
    assert!(second.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&next)));
}

#[test]
fn garbage_from_the_device_is_ignored() {
    for (firmware, protocol) in [
        (Firmware::Adalight, Protocol::Adalight),
        (
            Firmware::Wled {
                leds: 40,
                matrix: None,
            },
            Protocol::WledJson,
        ),
    ] {
        let options = Options {
            noise: Some(7),
            ..Options::new(firmware)
        };
        let (emu, port) = emulator(options);
        let socket = Socket::default();
        socket.plug(port);
        let display = start(&socket, 40, ProtocolChoice::Auto);
        let state = connected(&display);
        assert_eq!(handshake_of(&state).protocol, protocol);
        let mut last = Vec::new();
        for k in 0..20 {
            last = colours(40, k);
            display.show(last.clone());
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&last)
                || s.leds == last),
            "{protocol:?}"
        );
        assert!(matches!(display.state(), LinkState::Connected { .. }));
        assert_eq!(display.stats().connects, 1);
        assert_eq!(emu.seen().bad_headers, 0);
    }
}

#[test]
fn a_silent_device_gets_adalight_after_the_waits() {
    let (emu, port) = emulator(Options::new(Firmware::Silent));
    let socket = Socket::default();
    socket.plug(port);
    let t = Instant::now();
    let display = start(&socket, 2, ProtocolChoice::Auto);
    let state = connected(&display);
    let took = t.elapsed();
    // The greeting wait (150 ms) and the 'v' reply wait (150 ms), then Adalight.
    assert!(
        took >= Duration::from_millis(290) && took < Duration::from_secs(2),
        "{took:?}"
    );
    let hs = handshake_of(&state);
    assert!(!hs.greeted);
    assert_eq!((hs.protocol, hs.wled.as_ref()), (Protocol::Adalight, None));
    let picture = colours(2, 1);
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
}

#[test]
fn half_replies_fall_back_to_adalight() {
    // "WLE": not WLED.
    let options = Options {
        reply_limit: Some(3),
        ..Options::new(Firmware::Wled {
            leds: 10,
            matrix: None,
        })
    };
    let (emu, port) = emulator(options);
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 10, ProtocolChoice::Auto);
    let state = connected(&display);
    let hs = handshake_of(&state);
    assert_eq!((hs.protocol, hs.wled.as_ref()), (Protocol::Adalight, None));
    let picture = colours(10, 5);
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
    drop(display);

    // A whole version line but the info cut short: WLED without a known LED count, so Adalight.
    let options = Options {
        reply_limit: Some(40),
        ..Options::new(Firmware::Wled {
            leds: 10,
            matrix: None,
        })
    };
    let (emu, port) = emulator(options);
    socket.plug(port);
    let display = start(&socket, 10, ProtocolChoice::Auto);
    let state = connected(&display);
    let hs = handshake_of(&state);
    assert_eq!(hs.protocol, Protocol::Adalight);
    let info = hs.wled.as_ref().unwrap();
    assert_eq!((info.version.as_str(), info.leds), (WLED_VERSION, None));
    display.show(picture.clone());
    assert!(emu.wait_for(WAIT, |s| last_frame(s).as_ref() == Some(&picture)));
}

#[test]
fn asking_for_wled_from_a_device_that_is_not_is_an_error() {
    let (_emu, port) = emulator(Options::new(Firmware::Adalight));
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 10, ProtocolChoice::Wled);
    let state = display.wait_until(WAIT, |s| matches!(s, LinkState::Retrying { .. }));
    match state {
        LinkState::Retrying { error, .. } => {
            assert!(error.contains("did not answer as WLED"), "{error}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_device_that_stops_reading_counts_as_lost() {
    // Nobody reads the other end: the pseudo-terminal's buffer fills and writes time out.
    let (_master, port) = TTYPort::pair().unwrap();
    let socket = Socket::default();
    socket.plug(port);
    let display = start(&socket, 1024, ProtocolChoice::Adalight);
    connected(&display);
    let t = Instant::now();
    let mut k = 0u8;
    let state = loop {
        display.show(colours(1024, k));
        k = k.wrapping_add(1);
        let s = display.wait_until(Duration::from_millis(40), |s| {
            matches!(s, LinkState::Retrying { .. })
        });
        if matches!(s, LinkState::Retrying { .. }) || t.elapsed() > WAIT {
            break s;
        }
    };
    match state {
        LinkState::Retrying { error, .. } => {
            assert!(
                error.contains("lost") && error.contains("timed out"),
                "{error}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn nothing_plugged_in_retries_and_closes_at_once() {
    let socket = Socket::default();
    let display = start(&socket, 16, ProtocolChoice::Auto);
    let state = display.wait_until(
        WAIT,
        |s| matches!(s, LinkState::Retrying { attempt, .. } if *attempt >= 2),
    );
    match &state {
        LinkState::Retrying { error, .. } => assert!(error.contains("nothing plugged in")),
        other => panic!("{other:?}"),
    }
    assert!(state.to_string().contains("retry"));
    let t = Instant::now();
    drop(display);
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "close took {:?}",
        t.elapsed()
    );
}

#[test]
fn closing_while_waiting_for_a_greeting_does_not_wait_it_out() {
    let (_emu, port) = emulator(Options::new(Firmware::Silent));
    let socket = Socket::default();
    socket.plug(port);
    let display = Display::start(
        Box::new(socket.clone()),
        Config {
            leds: 4,
            protocol: ProtocolChoice::Auto,
            timing: Timing {
                boot_wait: Duration::from_secs(30),
                ..timing()
            },
        },
    );
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(display.state(), LinkState::Connecting);
    let t = Instant::now();
    drop(display);
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "close took {:?}",
        t.elapsed()
    );
}

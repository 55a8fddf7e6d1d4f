//! `meeplecam led` end to end, against emulated devices on pseudo-terminals.
#![cfg(all(feature = "led", unix))]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use meeplecam::led::emulator::{Emulator, Firmware, Options, Seen};
use meeplecam::led::Rgb;
use serialport::SerialPort;

fn meeplecam(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeplecam"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs")
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeplecam-led-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// An emulated device and the name of the port the binary opens.
fn device(firmware: Firmware) -> (Emulator, String) {
    let (emu, port) = Emulator::start(Options::new(firmware)).unwrap();
    let name = port.name().unwrap();
    (emu, name)
}

const RECORD: &str = r#"{"meeplecam":1,
    "players":[{"name":"Ann","colour":"red"},{"name":"Bob","colour":"blue"}],
    "turns":[{"tile":"E","at":[0,-1],"rot":180,"follower":{"port":"S"}}]}"#;

const LAYOUT: &str =
    "brightness = 255\n[matrix]\nwidth = 5\nheight = 6\nwiring = \"progressive\"\n";

/// The 5×6 picture of RECORD with Bob holding an E (worked out in tests/led_content.rs):
/// legal cells lit on even ticks, dark on odd ones.
fn picture(legal_lit: bool) -> Vec<Rgb> {
    let blue = Rgb::new(0, 0, 255);
    let mut f = vec![Rgb::BLACK; 30];
    f[12] = Rgb::new(40, 40, 40);
    f[7] = Rgb::new(0, 192, 0);
    f[20] = Rgb::new(255, 0, 0);
    f[25] = blue;
    if legal_lit {
        for i in [2, 6, 8, 17] {
            f[i] = blue;
        }
    }
    f
}

fn frames(seen: &Seen) -> Vec<Vec<Rgb>> {
    seen.frames.iter().map(|f| f.1.clone()).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_runs() {
    let out = meeplecam(&["led", "--list"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn shows_a_record_on_an_adalight_board_and_blacks_out() {
    let (emu, port) = device(Firmware::Adalight);
    let record = temp("game.json", RECORD);
    let layout = temp("panel.toml", LAYOUT);
    let out = meeplecam(&[
        "led",
        "--port",
        &port,
        "--record",
        record.to_str().unwrap(),
        "--open",
        "--tile",
        "E",
        "--layout",
        layout.to_str().unwrap(),
        "--seconds",
        "1.2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("Adalight board"), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("sent "));
    let seen = emu.seen();
    let got = frames(&seen);
    assert_eq!(seen.bad_headers, 0);
    assert!(got.contains(&picture(true)), "legal cells lit");
    assert!(got.contains(&picture(false)), "and dark");
    assert_eq!(got.last(), Some(&vec![Rgb::BLACK; 30]), "black at the end");
}

#[test]
fn test_pattern_on_wled() {
    let (emu, port) = device(Firmware::Wled {
        leds: 256,
        matrix: Some((16, 16)),
    });
    let out = meeplecam(&["led", "--port", &port, "--test-pattern", "--seconds", "0.5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("WLED 0.14.0, 256 LEDs, 16×16 matrix, JSON API"),
        "{err}"
    );
    // The default layout zig-zags, WLED's JSON API counts row by row: the user is told.
    assert!(err.contains("wiring = \"progressive\""), "{err}");
    let seen = emu.seen();
    // The default layout (16×16 serpentine from the top left, brightness 64): the top-left
    // corner is LED 0 (red), the top-right LED 15 (green); the pattern went out through JSON.
    assert!(
        seen.json.iter().any(|m| m.contains(r#"0,"400000""#)),
        "{:?}",
        seen.json
    );
    assert!(seen.json.iter().any(|m| m.contains(r#"15,"004000""#)));
    assert!(seen.on);
    assert_eq!(seen.leds, vec![Rgb::BLACK; 256], "black at the end");
}

#[test]
fn bad_input_exits_2_and_a_missing_device_1() {
    let record = temp("game2.json", RECORD);
    let (_emu, port) = device(Firmware::Adalight);
    let bad_layout = temp("bad.toml", "[matrix]\nwidth = 4\n");
    let out = meeplecam(&[
        "led",
        "--port",
        &port,
        "--test-pattern",
        "--layout",
        bad_layout.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("bad layout"), "{}", stderr(&out));

    let out = meeplecam(&[
        "led",
        "--port",
        &port,
        "--record",
        record.to_str().unwrap(),
        "--tile",
        "Z",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown tile"));

    let broken = temp("broken.json", "{\"meeplecam\":1,");
    let out = meeplecam(&["led", "--port", &port, "--record", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));

    let out = meeplecam(&[
        "led",
        "--port",
        "/dev/meeplecam-no-such-port",
        "--test-pattern",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot open the LED device"),
        "{}",
        stderr(&out)
    );

    let out = meeplecam(&["led", "--port", &port]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "needs --test-pattern or --record"
    );
}

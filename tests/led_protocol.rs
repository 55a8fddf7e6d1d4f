//! The wire formats and the layout mapping, checked against the protocols' byte layouts and
//! wiring tables drawn by hand.
#![cfg(feature = "led")]

use meeplecam::led::layout::{Corner, Edge, LayoutError, Matrix, Wiring};
use meeplecam::led::{adalight, wled, Layout, Rgb, Shape};
use meeplecam::rules::Rotation;
use serde_json::Value;

const RED: Rgb = Rgb::new(255, 0, 0);
const GREEN: Rgb = Rgb::new(0, 255, 0);
const BLUE: Rgb = Rgb::new(0, 0, 255);

#[test]
fn adalight_header_is_magic_count_less_one_and_checksum() {
    // 'A' 'd' 'a', hi:lo = N - 1, hi ^ lo ^ 0x55.
    assert_eq!(adalight::header(1), [b'A', b'd', b'a', 0x00, 0x00, 0x55]);
    assert_eq!(adalight::header(2), [b'A', b'd', b'a', 0x00, 0x01, 0x54]);
    assert_eq!(adalight::header(256), [b'A', b'd', b'a', 0x00, 0xFF, 0xAA]);
    assert_eq!(adalight::header(257), [b'A', b'd', b'a', 0x01, 0x00, 0x54]);
    assert_eq!(adalight::header(1024), [b'A', b'd', b'a', 0x03, 0xFF, 0xA9]);
    assert_eq!(
        adalight::header(65536),
        [b'A', b'd', b'a', 0xFF, 0xFF, 0x55]
    );
}

#[test]
fn adalight_frame_is_header_then_rgb_per_led() {
    let bytes = adalight::encode(&[RED, Rgb::new(1, 2, 3)]);
    assert_eq!(
        bytes,
        [b'A', b'd', b'a', 0, 1, 0x54, 255, 0, 0, 1, 2, 3].to_vec()
    );
    assert_eq!(
        adalight::encode(&vec![Rgb::BLACK; 1024]).len(),
        6 + 3 * 1024
    );
}

#[test]
#[should_panic(expected = "1 to 65536 LEDs")]
fn adalight_refuses_an_empty_frame() {
    adalight::header(0);
}

/// The `i` lists of `messages`, as JSON.
fn items(messages: &[String]) -> Vec<Vec<Value>> {
    messages
        .iter()
        .map(|m| {
            let v: Value = serde_json::from_str(m).expect("each message is one JSON object");
            v["seg"]["i"].as_array().expect("seg.i is a list").clone()
        })
        .collect()
}

#[test]
fn wled_update_sends_single_leds_and_runs() {
    let next = [RED, RED, RED, Rgb::BLACK, BLUE];
    let msgs = wled::encode_update(None, &next, true);
    assert_eq!(msgs.len(), 1);
    let v: Value = serde_json::from_str(&msgs[0]).unwrap();
    assert_eq!(v["on"], true);
    // LEDs 0..3 red as a range, 3 black, 4 blue.
    assert_eq!(
        v["seg"]["i"],
        serde_json::json!([0, 3, "FF0000", 3, "000000", 4, "0000FF"])
    );
}

#[test]
fn wled_update_sends_only_changes() {
    let before = [RED, GREEN, BLUE, BLUE];
    let after = [RED, Rgb::new(0x12, 0xAB, 0x0F), BLUE, RED];
    let msgs = wled::encode_update(Some(&before), &after, false);
    assert_eq!(
        items(&msgs),
        vec![serde_json::json!([1, "12AB0F", 3, "FF0000"])
            .as_array()
            .unwrap()
            .clone()]
    );
    assert!(!msgs[0].contains("\"on\""));
    assert!(wled::encode_update(Some(&after), &after, false).is_empty());
}

#[test]
fn wled_update_covers_at_most_256_leds_per_message() {
    // 600 LEDs, every one different from its neighbour: 3 messages, 0..256, 256..512, 512..600.
    let next: Vec<Rgb> = (0..600).map(|i| Rgb::new((i % 2) as u8, 0, 0)).collect();
    let msgs = wled::encode_update(None, &next, true);
    assert_eq!(msgs.len(), 3);
    for (k, list) in items(&msgs).iter().enumerate() {
        let indices: Vec<u64> = list.iter().filter_map(Value::as_u64).collect();
        let lo = 256 * k as u64;
        let hi = (lo + 256).min(600);
        assert_eq!(indices, (lo..hi).collect::<Vec<_>>(), "message {k}");
    }
    // Only the first message switches the light on.
    assert!(msgs[0].contains("\"on\":true"));
    assert!(!msgs[1].contains("\"on\""));
}

#[test]
fn wled_version_and_info_replies() {
    assert_eq!(wled::parse_version("WLED 0.14.0\r"), Some("0.14.0".into()));
    assert_eq!(
        wled::parse_version("\u{fffd}\u{fffd}WLED 0.15.0-b3"),
        Some("0.15.0-b3".into())
    );
    assert_eq!(wled::parse_version("WLE"), None);
    assert_eq!(wled::parse_version("Ada"), None);
    assert_eq!(wled::parse_version("WLED "), None);

    let reply = r#"{"state":{"on":true,"bri":128},"info":{"ver":"0.14.0","leds":{"count":256,"matrix":{"w":16,"h":16},"pwr":0}}}"#;
    assert_eq!(wled::parse_info(reply), Ok((256, Some((16, 16)))));
    let strip = r#"{"state":{},"info":{"leds":{"count":60}}}  trailing"#;
    assert_eq!(wled::parse_info(strip), Ok((60, None)));
    assert!(wled::parse_info(r#"{"state":{},"info":{"leds":{"cou"#).is_err());
    assert!(wled::parse_info(r#"{"info":{}}"#).is_err());
    assert!(wled::parse_info("garbage").is_err());
}

/// The LED index at every view pixel, row by row.
fn wiring_table(layout: &Layout) -> Vec<Vec<usize>> {
    let (w, h) = layout.view_size();
    (0..h)
        .map(|y| (0..w).map(|x| layout.index(x, y)).collect())
        .collect()
}

fn panel(wiring: Wiring, origin: Corner, rotation: Rotation) -> Layout {
    Layout {
        brightness: 255,
        shape: Shape::Matrix(Matrix {
            width: 3,
            height: 2,
            wiring,
            origin,
            rotation,
            scores: Edge::None,
        }),
    }
}

#[test]
fn matrix_wiring_by_corner_and_direction() {
    use Corner::*;
    use Wiring::*;
    let r0 = Rotation::R0;
    assert_eq!(
        wiring_table(&panel(Progressive, TopLeft, r0)),
        [[0, 1, 2], [3, 4, 5]]
    );
    assert_eq!(
        wiring_table(&panel(Serpentine, TopLeft, r0)),
        [[0, 1, 2], [5, 4, 3]]
    );
    assert_eq!(
        wiring_table(&panel(Serpentine, TopRight, r0)),
        [[2, 1, 0], [3, 4, 5]]
    );
    assert_eq!(
        wiring_table(&panel(Serpentine, BottomLeft, r0)),
        [[5, 4, 3], [0, 1, 2]]
    );
    assert_eq!(
        wiring_table(&panel(Progressive, BottomRight, r0)),
        [[5, 4, 3], [2, 1, 0]]
    );
}

#[test]
fn matrix_rotation_turns_the_panel_clockwise() {
    // The 3×2 panel   0 1 2   turned a quarter clockwise shows   3 0
    //                 3 4 5                                      4 1
    //                                                            5 2
    let p = |r| wiring_table(&panel(Wiring::Progressive, Corner::TopLeft, r));
    assert_eq!(p(Rotation::R90), [[3, 0], [4, 1], [5, 2]]);
    assert_eq!(p(Rotation::R180), [[5, 4, 3], [2, 1, 0]]);
    assert_eq!(p(Rotation::R270), [[2, 5], [1, 4], [0, 3]]);
    assert_eq!(
        panel(Wiring::Progressive, Corner::TopLeft, Rotation::R90).view_size(),
        (2, 3)
    );
}

#[test]
fn frame_caps_brightness_and_follows_wiring() {
    let layout = Layout {
        brightness: 128,
        ..panel(Wiring::Serpentine, Corner::TopLeft, Rotation::R0)
    };
    let mut canvas = layout.canvas();
    canvas.set(0, 1, Rgb::new(255, 100, 2)); // LED 5 on this serpentine panel
    canvas.set(2, 0, Rgb::new(10, 0, 0)); // LED 2
    let frame = layout.frame(&canvas);
    // channel × 128 / 255, rounded down: 255 → 128, 100 → 50, 2 → 1, 10 → 5.
    let mut want = vec![Rgb::BLACK; 6];
    want[5] = Rgb::new(128, 50, 1);
    want[2] = Rgb::new(5, 0, 0);
    assert_eq!(frame, want);
}

#[test]
fn layout_files_parse() {
    let text = r#"
        brightness = 40
        [matrix]
        width = 8
        height = 32
        wiring = "progressive"
        origin = "bottom-right"
        rotation = 90
        scores = "left"
    "#;
    let layout = Layout::parse(text).unwrap();
    assert_eq!(layout.brightness, 40);
    assert_eq!(
        layout.shape,
        Shape::Matrix(Matrix {
            width: 8,
            height: 32,
            wiring: Wiring::Progressive,
            origin: Corner::BottomRight,
            rotation: Rotation::R90,
            scores: Edge::Left,
        })
    );
    assert_eq!(layout.view_size(), (32, 8));
    assert_eq!(layout.len(), 256);

    let strip = Layout::parse("[strip]\nleds = 60\n").unwrap();
    assert_eq!(strip.shape, Shape::Strip(60));
    assert_eq!(strip.brightness, 64, "default cap");
}

#[test]
fn bad_layout_files_are_errors() {
    let bad = [
        ("", "exactly one"),
        (
            "[strip]\nleds = 5\n[matrix]\nwidth = 2\nheight = 2\n",
            "exactly one",
        ),
        ("[strip]\nleds = 0\n", "at least one LED"),
        ("[matrix]\nwidth = 0\nheight = 4\n", "at least one row"),
        (
            "[matrix]\nwidth = 4\nheight = 4\nrotation = 45\n",
            "rotation",
        ),
        ("[matrix]\nwidth = 300\nheight = 300\n", "more than 65536"),
        (
            "[matrix]\nwidth = 4\nheight = 4\nwiring = \"diagonal\"\n",
            "diagonal",
        ),
        ("[matrix]\nwidth = 4\nheight = 4\ncolour = 1\n", "colour"),
        ("brightness = 300\n[strip]\nleds = 5\n", "brightness"),
        ("[strip]\nleds = -1\n", "leds"),
        ("[strip\nleds = 5", ""),
    ];
    for (text, needle) in bad {
        let err = Layout::parse(text).expect_err(text).to_string();
        assert!(err.contains(needle), "{text:?} gave {err:?}");
    }
    let missing = Layout::load(std::path::Path::new("/nonexistent/led.toml"));
    assert!(matches!(missing, Err(LayoutError::Read { .. })));
}

#[test]
fn example_layouts_parse_and_the_default_is_the_16x16_example() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration");
    let load = |name: &str| Layout::load(&dir.join(name)).unwrap();
    assert_eq!(load("led-matrix-16x16.toml"), Layout::default());
    let wide = load("led-matrix-8x32.toml");
    assert_eq!(wide.view_size(), (32, 8));
    assert_eq!(load("led-strip-50.toml").shape, Shape::Strip(50));
}

proptest::proptest! {
    /// Replies and layout files of any content are answers or errors, never panics.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}", bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
        let lossy = String::from_utf8_lossy(&bytes);
        for t in [text.as_str(), &lossy] {
            let _ = wled::parse_version(t);
            let _ = wled::parse_info(t);
            let _ = Layout::parse(t);
        }
    }

    /// Any frame survives an Adalight round trip through the header rules.
    #[test]
    fn adalight_length_matches_header(n in 1usize..2000) {
        let bytes = adalight::encode(&vec![Rgb::new(1, 2, 3); n]);
        let count = usize::from(u16::from_be_bytes([bytes[3], bytes[4]])) + 1;
        proptest::prop_assert_eq!(count, n);
        proptest::prop_assert_eq!(bytes[5], bytes[3] ^ bytes[4] ^ 0x55);
        proptest::prop_assert_eq!(bytes.len(), 6 + 3 * n);
    }
}

#[test]
fn devices_are_named_by_usb_identity_or_port() {
    use meeplecam::led::discover::{Target, UsbId};
    let id = UsbId::parse("1a86:7523").unwrap();
    assert_eq!((id.vid, id.pid, id.serial), (0x1a86, 0x7523, None));
    let id = UsbId::parse("303A:1001:F4:12:FA:00").unwrap();
    assert_eq!(
        (id.vid, id.pid, id.serial.as_deref()),
        (0x303a, 0x1001, Some("F4:12:FA:00"))
    );
    assert_eq!(id.to_string(), "303a:1001:F4:12:FA:00");
    for not_usb in ["/dev/ttyUSB0", "COM3", "1a8:7523", "1a86", "1a86:75z3", ""] {
        assert_eq!(UsbId::parse(not_usb), None, "{not_usb}");
    }
    assert!(matches!(Target::resolve("1a86:7523"), Target::Usb(_)));
    assert_eq!(
        Target::resolve("/dev/meeplecam-none"),
        Target::Path("/dev/meeplecam-none".into())
    );
}

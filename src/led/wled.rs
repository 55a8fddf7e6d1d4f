//! WLED's serial JSON API: `v` asks for the version (`WLED 0.14.0`), `{"v":true}` for the state
//! and info objects (LED count, matrix size), and `{"seg":{"i":[...]}}` sets single LEDs, which
//! then keep their colour until changed (no keep-alive needed).
//!
//! In `i`, an index followed by a colour sets one LED; two indices and a colour set the LEDs from
//! the first up to, not including, the second. Colours are `"RRGGBB"` hex strings. Messages are
//! kept to [`MAX_LEDS_PER_MESSAGE`] LEDs so that they fit WLED's JSON buffer.

use std::fmt::Write;

use serde_json::Value;

use super::rgb::Rgb;

/// Asks WLED for its version line.
pub const VERSION_QUERY: &[u8] = b"v";

/// Asks WLED for its state and info objects (one JSON line).
pub const INFO_QUERY: &[u8] = br#"{"v":true}"#;

/// The most LEDs one `seg.i` message covers.
pub const MAX_LEDS_PER_MESSAGE: usize = 256;

/// What a WLED device says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WledInfo {
    /// Firmware version, e.g. `0.14.0`.
    pub version: String,
    /// LEDs configured on the device, once the info object has been read.
    pub leds: Option<usize>,
    /// Width and height when the device is set up as a 2D matrix.
    pub matrix: Option<(usize, usize)>,
}

/// The version in a reply line to [`VERSION_QUERY`] (`WLED 0.14.0` gives `0.14.0`); `None` for
/// any other line.
pub fn parse_version(line: &str) -> Option<String> {
    let rest = &line[line.find("WLED ")? + 5..];
    let version = rest.split_whitespace().next()?;
    Some(version.to_string())
}

/// Reads the LED count and matrix size from a reply to [`INFO_QUERY`]: the JSON object at the
/// start of `reply` (what follows it is ignored).
pub fn parse_info(reply: &str) -> Result<(usize, Option<(usize, usize)>), String> {
    let v: Value = serde_json::Deserializer::from_str(reply)
        .into_iter()
        .next()
        .ok_or("WLED info is empty")?
        .map_err(|e| format!("WLED info is not JSON: {e}"))?;
    let leds = &v["info"]["leds"];
    let count = leds["count"]
        .as_u64()
        .ok_or("WLED info has no info.leds.count")?;
    let matrix = &leds["matrix"];
    let matrix = match (matrix["w"].as_u64(), matrix["h"].as_u64()) {
        (Some(w), Some(h)) if w > 0 && h > 0 => Some((w as usize, h as usize)),
        _ => None,
    };
    Ok((count as usize, matrix))
}

/// The messages that change the device from showing `shown` (`None`: unknown, so every LED is
/// sent) to showing `next`. Runs of LEDs with one colour are sent as ranges. With `turn_on`,
/// the first message also switches the light on.
pub fn encode_update(shown: Option<&[Rgb]>, next: &[Rgb], turn_on: bool) -> Vec<String> {
    let mut messages = Vec::new();
    for (chunk, pixels) in next.chunks(MAX_LEDS_PER_MESSAGE).enumerate() {
        let base = chunk * MAX_LEDS_PER_MESSAGE;
        let changed = |i: usize| shown.and_then(|s| s.get(base + i)) != Some(&pixels[i]);
        let mut items = String::new();
        let mut i = 0;
        while i < pixels.len() {
            if !changed(i) {
                i += 1;
                continue;
            }
            let mut end = i + 1;
            while end < pixels.len() && changed(end) && pixels[end] == pixels[i] {
                end += 1;
            }
            if !items.is_empty() {
                items.push(',');
            }
            let p = pixels[i];
            let colour = format_args!("\"{:02X}{:02X}{:02X}\"", p.r, p.g, p.b);
            if end - i > 1 {
                let _ = write!(items, "{},{},{colour}", base + i, base + end);
            } else {
                let _ = write!(items, "{},{colour}", base + i);
            }
            i = end;
        }
        if !items.is_empty() {
            let on = if turn_on && messages.is_empty() {
                "\"on\":true,"
            } else {
                ""
            };
            messages.push(format!("{{{on}\"seg\":{{\"i\":[{items}]}}}}"));
        }
    }
    messages
}

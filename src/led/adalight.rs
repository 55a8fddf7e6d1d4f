//! The Adalight serial protocol: `'A' 'd' 'a'`, the LED count less one as a big-endian `u16`,
//! a checksum byte (`hi ^ lo ^ 0x55`), then red, green and blue for every LED.
//!
//! Adalight boards announce themselves with `"Ada\n"` after a reset. WLED speaks the same
//! protocol and drops back to its own effect when no frame has come for a while, so frames are
//! sent again as a keep-alive.

use super::layout::MAX_LEDS;
use super::rgb::Rgb;

/// What an Adalight board sends after a reset (and, on many boards, every second while idle).
pub const GREETING: &[u8] = b"Ada\n";

/// The six header bytes for a frame of `leds` LEDs.
///
/// # Panics
/// If `leds` is 0 or more than [`MAX_LEDS`].
pub fn header(leds: usize) -> [u8; 6] {
    assert!(
        (1..=MAX_LEDS).contains(&leds),
        "an Adalight frame holds 1 to {MAX_LEDS} LEDs, not {leds}"
    );
    let [hi, lo] = ((leds - 1) as u16).to_be_bytes();
    [b'A', b'd', b'a', hi, lo, hi ^ lo ^ 0x55]
}

/// Appends the frame showing `pixels` (LED 0 first) to `out`.
///
/// # Panics
/// If `pixels` is empty or longer than [`MAX_LEDS`].
pub fn encode_into(out: &mut Vec<u8>, pixels: &[Rgb]) {
    out.reserve(6 + 3 * pixels.len());
    out.extend_from_slice(&header(pixels.len()));
    for p in pixels {
        out.extend_from_slice(&[p.r, p.g, p.b]);
    }
}

/// The frame showing `pixels` (LED 0 first).
///
/// # Panics
/// If `pixels` is empty or longer than [`MAX_LEDS`].
pub fn encode(pixels: &[Rgb]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(&mut out, pixels);
    out
}

//! Pixel colours, the brightness cap and the colours players and terrain show in.

use crate::rules::Colour;

/// One LED's colour, 8 bits per channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// Off.
    pub const BLACK: Rgb = Rgb::new(0, 0, 0);
    /// Full white.
    pub const WHITE: Rgb = Rgb::new(255, 255, 255);

    /// The colour `(r, g, b)`.
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// Every channel multiplied by `num / den` (rounded down); `num ≤ den`.
    pub fn scaled(self, num: u8, den: u8) -> Rgb {
        let f = |c: u8| (u16::from(c) * u16::from(num) / u16::from(den.max(1))).min(255) as u8;
        Rgb::new(f(self.r), f(self.g), f(self.b))
    }

    /// Whether the LED is off.
    pub fn is_black(self) -> bool {
        self == Rgb::BLACK
    }
}

/// How a player's colour shows on an LED at full brightness. LEDs cannot show black, so black
/// figures show as white, and gray as a dim white.
pub fn player_rgb(colour: Colour) -> Rgb {
    match colour {
        Colour::Black => Rgb::new(255, 255, 255),
        Colour::Red => Rgb::new(255, 0, 0),
        Colour::Green => Rgb::new(0, 255, 0),
        Colour::Blue => Rgb::new(0, 0, 255),
        Colour::Yellow => Rgb::new(255, 160, 0),
        Colour::Gray => Rgb::new(96, 96, 96),
        Colour::Pink => Rgb::new(255, 40, 120),
        Colour::Purple => Rgb::new(128, 0, 255),
    }
}

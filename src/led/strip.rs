//! The picture on an LED strip: the 50-space score track.
//!
//! Space `s` is LED `s × leds / 50`. Each player's marker sits on `score mod 50` in full colour;
//! a player on lap `n = score / 50` trails `n` quarter-bright LEDs on the spaces just behind the
//! marker (wrapping round the track). Markers cover trails; players sharing an LED take turns
//! showing, one per tick, in turn order.

use super::canvas::Canvas;
use super::rgb::player_rgb;
use super::scene::Scene;

/// Spaces on the score track.
pub const TRACK: u32 = 50;

/// Draws `scene`'s score track on a strip of `leds` LEDs.
pub fn render(scene: &Scene, leds: usize, tick: u64) -> Canvas {
    let mut canvas = Canvas::new(leds, 1);
    let led_of = |space: u32| space as usize * leds / TRACK as usize;
    for seat in &scene.seats {
        let (space, laps) = (seat.score % TRACK, seat.score / TRACK);
        for k in 1..=laps.min(TRACK - 1) {
            let behind = (space + TRACK - k) % TRACK;
            canvas.set(led_of(behind), 0, player_rgb(seat.colour).scaled(1, 4));
        }
    }
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); leds];
    for (i, seat) in scene.seats.iter().enumerate() {
        at[led_of(seat.score % TRACK)].push(i);
    }
    for (led, here) in at.iter().enumerate() {
        if !here.is_empty() {
            let seat = scene.seats[here[(tick % here.len() as u64) as usize]];
            canvas.set(led, 0, player_rgb(seat.colour));
        }
    }
    canvas
}

//! Random legal play from a seeded bag, for demos, tests and benchmarks.

use rand::Rng;

use super::board::Placement;
use super::figure::Figure;
use super::game::{Deploy, Game, Turn, TurnReport};
use super::port::Dir;
use super::scoring::ScoreEvent;
use super::tile::TileId;

/// Draws a tile at random among those that may be drawn now (river tiles before the others),
/// weighted by how many remain.
pub fn draw<R: Rng>(game: &Game, rng: &mut R) -> Option<TileId> {
    let left = |id: TileId| match game.remaining(id) {
        0 => 0,
        n if game.can_draw(id).is_ok() => n as usize,
        _ => 0,
    };
    let ids = || (0..game.catalogue().tiles().len()).map(|i| TileId(i as u16));
    let total: usize = ids().map(left).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    ids().find(|&id| {
        let n = left(id);
        if pick < n {
            true
        } else {
            pick -= n;
            false
        }
    })
}

/// Plays one random legal turn (discarding a tile that fits nowhere; sliding a drawn tile under
/// a hill tile); `None` once the bag is empty. Placements touching more tiles are likelier (players keep the board compact); a
/// figure goes on a random spot with probability `deploy_chance`: the first figure that may
/// stand there (a normal follower if any is left), or one time in four another one (the large
/// follower, the builder or the pig).
pub fn random_turn<R: Rng>(
    game: &mut Game,
    rng: &mut R,
    deploy_chance: f64,
) -> Option<(Turn, TurnReport)> {
    let tile = draw(game, rng)?;
    let placements = game.legal_placements(tile);
    if placements.is_empty() {
        let turn = Turn::Discard { tile };
        let report = game
            .play(turn)
            .expect("a tile with no placement may be discarded");
        return Some((turn, report));
    }
    // Players build compact boards: prefer cells with more neighbours.
    let weight = |p: &Placement| -> u32 {
        let n = Dir::ALL
            .iter()
            .filter(|&&d| game.board().is_occupied(p.pos.step(d)))
            .count();
        1 << (2 * n)
    };
    let total: u32 = placements.iter().map(weight).sum();
    let mut pick = rng.random_range(0..total);
    let placement = *placements
        .iter()
        .find(|p| {
            let w = weight(p);
            if pick < w {
                true
            } else {
                pick -= w;
                false
            }
        })
        .expect("the pick falls within the total weight");
    game.place(tile, placement)
        .expect("listed placements are legal");
    if game.tile_under(placement.pos) == Some(None) {
        let under = draw(game, rng).expect("a tile slides under a hill only from a full bag");
        game.slide_under(under)
            .expect("a drawable tile can slide under the hill");
    }
    let spots = game.follower_spots();
    let follower = if !spots.is_empty() && rng.random_bool(deploy_chance) {
        let spot = spots[rng.random_range(0..spots.len())];
        let port = spot.port();
        let figures: Vec<Figure> = spot.figures.iter().collect();
        let (&first, others) = figures.split_first().expect("listed spots hold a figure");
        let figure = match others {
            [] => first,
            _ if !rng.random_bool(0.25) => first,
            [only] => *only,
            _ => others[rng.random_range(0..others.len())],
        };
        game.deploy(port, figure).expect("listed spots are free");
        Some(Deploy { port, figure })
    } else {
        None
    };
    let report = game.end_turn().expect("a laid tile ends the turn");
    let turn = Turn::Place {
        tile,
        placement,
        follower,
    };
    Some((turn, report))
}

/// How often [`play_out`] deploys a figure when it can.
pub const DEPLOY_CHANCE: f64 = 0.5;

/// Plays random turns until the bag is empty, then scores the end of the game.
/// Returns the turns played and every score event.
pub fn play_out<R: Rng>(game: &mut Game, rng: &mut R) -> (Vec<Turn>, Vec<ScoreEvent>) {
    let mut turns = Vec::new();
    let mut events = Vec::new();
    while let Some((turn, report)) = random_turn(game, rng, DEPLOY_CHANCE) {
        turns.push(turn);
        events.extend(report.events);
    }
    events.extend(game.finish().expect("the bag is empty between turns"));
    (turns, events)
}

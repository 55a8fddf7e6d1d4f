//! Random legal play from a seeded bag, for demos, tests and benchmarks.

use rand::Rng;

use super::board::Placement;
use super::expansions::sheep::{token_at, FlockAction, FlockActions};
use super::figure::Figure;
use super::game::{Deploy, FlockDue, Game, Sector, Spin, Turn, TurnReport};
use super::player::PlayerId;
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
/// a hill tile); `None` once the bag is empty. Placements touching more tiles are likelier
/// (players keep the board compact); a figure goes on a random spot with probability
/// `deploy_chance`: the first figure that may stand there (a normal follower if any is left), or
/// one time in four another one (the large follower, the builder, the pig or the shepherd). A
/// shepherd draws a random token from the bag; a flock the tile extended is gathered the more
/// likely the bigger it is, and grown otherwise. With the Wheel of Fortune, a drawn copy shows a
/// wheel icon as often as the bag holds such copies (Pestilence takes a random follower of each
/// player's), and a turn without a figure on the tile puts a follower on a random vacant crown
/// with probability `deploy_chance / 2`.
pub fn random_turn<R: Rng>(
    game: &mut Game,
    rng: &mut R,
    deploy_chance: f64,
) -> Option<(Turn, TurnReport)> {
    let tile = draw(game, rng)?;
    let mut report = TurnReport::default();
    if let Some(spin) = random_spin(game, tile, rng) {
        report = game
            .spin(tile, &spin)
            .expect("a drawn icon turns the wheel");
    }
    let placements = game.legal_placements(tile);
    if placements.is_empty() {
        let turn = Turn::Discard { tile };
        game.play(turn)
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
    let crowns = game.vacant_crowns();
    let has_follower = game.supply(game.current_player()) > 0;
    if follower.is_none()
        && has_follower
        && !crowns.is_empty()
        && rng.random_bool(deploy_chance / 2.0)
    {
        let sector = crowns[rng.random_range(0..crowns.len())];
        game.deploy_crown(sector, Figure::Normal)
            .expect("a vacant crown takes a follower");
    }
    let mut actions = Vec::new();
    while let Some(due) = game.flock_due() {
        let action = match due {
            FlockDue::Tend { sheep } if rng.random_range(0..sheep + 6) >= 6 => FlockAction::Gather,
            _ => {
                let token = token_at(&game.sheep_bag(), rng.random::<f64>());
                FlockAction::Draw(token.expect("wolves always go back to the bag"))
            }
        };
        let part = game.flock(action).expect("a due flock action is legal");
        report.events.extend(part.events);
        report.returned.extend(part.returned);
        actions.push(action);
    }
    let end = game.end_turn().expect("a laid tile ends the turn");
    report.events.extend(end.events);
    report.returned.extend(end.returned);
    report.goods = end.goods;
    report.extra_turn = end.extra_turn;
    report.crown = end.crown;
    let turn = Turn::Place {
        tile,
        placement,
        follower,
        flock: FlockActions::from_slice(&actions).expect("one action per shepherd"),
    };
    Some((turn, report))
}

/// Whether the drawn `tile` shows a wheel icon (as often as the bag's copies of it do) and, if
/// so, the wheel turn with random Pestilence choices.
fn random_spin<R: Rng>(game: &Game, tile: TileId, rng: &mut R) -> Option<Spin> {
    game.pig()?;
    let icons = game.icons_left(tile);
    let with_icon: u32 = icons.iter().map(|&n| u32::from(n)).sum();
    let copies = with_icon.max(u32::from(game.remaining(tile)));
    let mut pick = rng.random_range(0..copies.max(1));
    let icon = (1..=3u8).find(|&v| {
        let n = u32::from(icons[usize::from(v - 1)]);
        pick < n || {
            pick -= n;
            false
        }
    })?;
    let mut pestilence = Vec::new();
    if game.sector_after(icon) == Some(Sector::Pestilence) {
        let seat = game.current_player().index();
        for i in 0..game.players() {
            let player = PlayerId(((seat + i) % game.players()) as u8);
            let choices = game.pestilence_choices(player);
            pestilence.push((!choices.is_empty()).then(|| {
                let m = choices[rng.random_range(0..choices.len())];
                (m.pos, m.ports.iter().next().expect("features have ports"))
            }));
        }
    }
    Some(Spin { icon, pestilence })
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

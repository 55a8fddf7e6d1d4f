//! Import of JCloisterZone saved games and scenario files (`.jcz`).
//!
//! A `.jcz` file lists the tile sets, players, a replay of actions (lay a tile, deploy a
//! follower, pass, commit) and often the forced draw order. JCloisterZone's semantics carry over:
//! a drawn tile that appears in the draw order but was never laid fitted nowhere and was
//! discarded, and once the draw order is used up (or the turn named `endTurn` is played) the game
//! ends with final scoring. An element (farmers, inns, cathedrals) is in play when the setup
//! lists it: FanCloisterZone's files list some as `false` and still score them. Builders and pigs
//! come in the numbers the setup gives, with or without Traders & Builders' tiles; so do
//! shepherds, and JCloisterZone gathers a flock once its field is closed (option
//! `closed_flocks`). JCloisterZone draws sheep tokens from its own random numbers: the import
//! replays the game to name each token drawn (see `jcz_flock`).

use serde_json::Value;

use crate::rules::expansions::sheep::SHEPHERDS;
use crate::rules::{
    catalogue, ClosedFlocks, Colour, Expansion, FeatureKind, Figure, FinalInnsCathedrals,
    HillTiebreak, Port, PortSet, Pos, RuleOptions, TileId,
};

use super::jcz_flock::{self, JczFlock};
use super::{FollowerEntry, PlayerEntry, Record, StartEntry, TurnEntry, FORMAT_VERSION};

/// A `.jcz` file read into our terms.
#[derive(Clone, Debug)]
pub struct JczGame {
    /// The committed turns as a record.
    pub record: Record,
    /// A tile laid (and perhaps a follower) in a turn not yet committed.
    pub pending: Option<TurnEntry>,
    /// A tile drawn from the forced draw order but not yet laid.
    pub drawn: Option<String>,
    /// The test's description, if the file is a scenario.
    pub description: String,
    /// The test's assertions (English sentences), if the file is a scenario.
    pub assertions: Vec<String>,
    /// Whether the file gives the draw order (without one, the next tile is unknown).
    pub forced_draws: bool,
}

impl JczGame {
    /// Whether the game is over after the last committed turn: the draw order is used up, or
    /// the scenario's last turn was played. `None` when the file gives no draw order: then the
    /// game is over once the box is empty, which only a replay tells.
    pub fn is_over(&self) -> Option<bool> {
        if self.pending.is_some() {
            Some(false)
        } else if self.forced_draws {
            Some(self.drawn.is_none())
        } else {
            None
        }
    }
}

/// Why a `.jcz` file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JczError {
    /// Not JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// A field is missing or has the wrong type.
    #[error("malformed .jcz: {0}")]
    Malformed(String),
    /// The file uses an expansion or element we do not support yet.
    #[error("unsupported in .jcz: {0}")]
    Unsupported(String),
}

fn malformed(what: impl Into<String>) -> JczError {
    JczError::Malformed(what.into())
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, JczError> {
    v.get(key)
        .ok_or_else(|| malformed(format!("missing {key:?}")))
}

fn string<'a>(v: &'a Value, key: &str) -> Result<&'a str, JczError> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| malformed(format!("{key:?} is not a string")))
}

fn int(v: &Value, what: &str) -> Result<i64, JczError> {
    v.as_i64()
        .ok_or_else(|| malformed(format!("{what} is not an integer")))
}

fn position(v: &Value) -> Result<Pos, JczError> {
    let arr = v
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| malformed("position is not [x, y]"))?;
    let x = int(&arr[0], "x")?;
    let y = int(&arr[1], "y")?;
    let small = |n: i64| i32::try_from(n).map_err(|_| malformed("position out of range"));
    Ok(Pos::new(small(x)?, small(y)?))
}

fn tile_name(id: &str) -> Result<String, JczError> {
    let cat = catalogue();
    let tile = cat
        .tile_id(id)
        .ok_or_else(|| JczError::Unsupported(format!("tile {id}")))?;
    Ok(cat.tile(tile).name.clone())
}

/// Reads a `.jcz` file's text.
pub fn parse(text: &str) -> Result<JczGame, JczError> {
    let root: Value = serde_json::from_str(text).map_err(|e| JczError::Json(e.to_string()))?;
    let setup = field(&root, "setup")?;
    let (tileset, expansions, options) = sets_and_options(setup)?;
    let start = start_tile(setup)?;
    let players = players(&root)?;
    let draw_order: Option<Vec<String>> = match root.pointer("/gameAnnotations/drawOrder") {
        Some(v) => Some(
            v.as_array()
                .ok_or_else(|| malformed("drawOrder is not a list"))?
                .iter()
                .map(|t| t.as_str().ok_or_else(|| malformed("drawOrder entry")))
                .map(|t| t.and_then(tile_name))
                .collect::<Result<_, _>>()?,
        ),
        None => None,
    };
    let initial = root
        .get("initialRandom")
        .and_then(Value::as_f64)
        .unwrap_or(0.0);
    let (laid, pending) = replay_turns(field(&root, "replay")?, initial)?;
    let (laid, flocks): (Vec<TurnEntry>, Vec<Vec<JczFlock>>) = laid.into_iter().unzip();
    let pending = match pending {
        Some((_, flock)) if !flock.is_empty() => {
            return Err(JczError::Unsupported(
                "flock actions in an uncommitted turn".into(),
            ))
        }
        Some((turn, _)) => Some(turn),
        None => None,
    };
    let ordered = draw_order.is_some();
    let (turns, mut drawn, beyond) = merge_draws(laid, pending.as_ref(), draw_order)?;
    let forced_draws = ordered && !beyond;
    if let Some(end) = root.pointer("/gameAnnotations/endTurn") {
        let end = usize::try_from(int(end, "endTurn")?).map_err(|_| malformed("endTurn"))?;
        let played = turns.iter().filter(|t| !t.discard).count();
        if pending.is_none() && played >= end {
            drawn = None;
        }
    }
    let test = root.get("test");
    let assertions = test
        .and_then(|t| t.get("assertions"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let description = test
        .and_then(|t| t.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let mut record = Record {
        meeplecam: FORMAT_VERSION,
        tileset,
        expansions,
        options,
        players,
        start: Some(start),
        turns,
    };
    if flocks.iter().any(|f| !f.is_empty()) {
        jcz_flock::resolve(&mut record, flocks)?;
    }
    Ok(JczGame {
        record,
        pending,
        drawn,
        description,
        assertions,
        forced_draws,
    })
}

type Setup = (String, Vec<Expansion>, RuleOptions);

fn sets_and_options(setup: &Value) -> Result<Setup, JczError> {
    let sets = field(setup, "sets")?
        .as_object()
        .ok_or_else(|| malformed("sets is not an object"))?;
    let mut tileset = None;
    let mut expansions = Vec::new();
    for (name, count) in sets {
        match (name.as_str(), count.as_i64()) {
            ("basic:1", Some(1)) => tileset = Some("base".to_string()),
            ("river/1:1", Some(1)) => expansions.push(Expansion::River),
            ("river/2:1", Some(1)) => expansions.push(Expansion::RiverIi),
            ("inns-and-cathedrals:1", Some(1)) => expansions.push(Expansion::InnsAndCathedrals),
            ("traders-and-builders:1", Some(1)) => expansions.push(Expansion::TradersAndBuilders),
            ("hills-and-sheep:1", Some(1)) => expansions.push(Expansion::HillsAndSheep),
            _ => return Err(JczError::Unsupported(format!("tile set {name} × {count}"))),
        }
    }
    let tileset = tileset.ok_or_else(|| malformed("no base tile set"))?;
    expansions.sort();
    // With Inns & Cathedrals, inns and cathedrals count only if their elements are listed.
    let inns = expansions.contains(&Expansion::InnsAndCathedrals);
    // With Hills & Sheep, likewise hills and vineyards.
    let hills = expansions.contains(&Expansion::HillsAndSheep);
    let mut options = RuleOptions {
        farmers: false,
        inns: !inns,
        cathedrals: !inns,
        hills: !hills,
        vineyards: !hills,
        ..RuleOptions::default()
    };
    let traders = expansions.contains(&Expansion::TradersAndBuilders);
    let mut shepherds = 0;
    let mut large = 0;
    let (mut goods, mut pig_herds) = (false, false);
    let (mut builders, mut pigs) = (0, 0);
    if let Some(elements) = setup.get("elements").and_then(Value::as_object) {
        for (name, value) in elements {
            let count = || {
                value
                    .as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or_else(|| malformed(format!("{name} count")))
            };
            match name.as_str() {
                "farmers" => options.farmers = true,
                "small-follower" => options.followers = count()?,
                "big-follower" => large = count()?,
                "builder" => builders = count()?,
                "pig" => pigs = count()?,
                "traders" => goods = value.as_bool() != Some(false),
                "pig-herd" => pig_herds = value.as_bool() != Some(false),
                "inn" if inns => options.inns = true,
                "cathedral" if inns => options.cathedrals = true,
                "hill" if hills => options.hills = value.as_bool() != Some(false),
                "vineyard" if hills => options.vineyards = value.as_bool() != Some(false),
                "shepherd" => shepherds = count()?,
                // Abbey tiles in the players' hands (Abbey & Mayor): a game that lays one names
                // tile AM/A, which is refused as unsupported.
                "abbey" => {
                    count()?;
                }
                other => return Err(JczError::Unsupported(format!("element {other}"))),
            }
        }
    }
    if large != u8::from(inns) {
        return Err(JczError::Unsupported(format!(
            "{large} large followers (Inns & Cathedrals gives each player one)"
        )));
    }
    // Goods, and River II's pig-herd, count exactly when Traders & Builders is in play.
    let river_ii = expansions.contains(&Expansion::RiverIi);
    if traders && !goods || traders && river_ii && !pig_herds || !traders && river_ii && pig_herds {
        return Err(JczError::Unsupported(
            "goods or pig-herds apart from Traders & Builders".into(),
        ));
    }
    let each = u8::from(traders);
    options.builders = (builders != each).then_some(builders);
    options.pigs = (pigs != each).then_some(pigs);
    options.shepherds = (shepherds != u8::from(hills) * SHEPHERDS).then_some(shepherds);
    if shepherds > 0 {
        options.closed_flocks = ClosedFlocks::Gather;
    }
    if let Some(rules) = setup.get("rules").and_then(Value::as_object) {
        for (name, value) in rules {
            match (name.as_str(), value.as_str()) {
                ("tiny-city-scoring", Some("2")) => options.tiny_city = true,
                ("tiny-city-scoring", Some("4")) => options.tiny_city = false,
                ("inn-and-cathedral-final-scoring", Some("zero")) => {
                    options.final_inns_cathedrals = FinalInnsCathedrals::Zero;
                }
                ("hill-tiebreaker", Some("at-least-one-follower")) => {
                    options.hill_tiebreak = HillTiebreak::AnyOnHill;
                }
                ("hill-tiebreaker", Some("number-of-followers")) => {
                    options.hill_tiebreak = HillTiebreak::MostOnHills;
                }
                ("inn-and-cathedral-final-scoring", Some("ignore")) => {
                    options.final_inns_cathedrals = FinalInnsCathedrals::Ignore;
                }
                _ => return Err(JczError::Unsupported(format!("rule {name} = {value}"))),
            }
        }
    }
    Ok((tileset, expansions, options))
}

fn start_tile(setup: &Value) -> Result<StartEntry, JczError> {
    let starts = field(setup, "start")?
        .as_array()
        .ok_or_else(|| malformed("start is not a list"))?;
    let [start] = starts.as_slice() else {
        return Err(JczError::Unsupported(format!(
            "{} start tiles",
            starts.len()
        )));
    };
    let x = int(field(start, "x")?, "start x")?;
    let y = int(field(start, "y")?, "start y")?;
    let rot = int(field(start, "rotation")?, "start rotation")?;
    Ok(StartEntry {
        tile: tile_name(string(start, "tile")?)?,
        at: position(&Value::from(vec![x, y]))?,
        rot: u16::try_from(rot).map_err(|_| malformed("start rotation"))?,
    })
}

/// The players in turn order, which is the list's order (replay actions name a player by
/// index in it; the lobby `slot` need not follow it).
fn players(root: &Value) -> Result<Vec<PlayerEntry>, JczError> {
    let list = field(root, "players")?
        .as_array()
        .ok_or_else(|| malformed("players is not a list"))?;
    let seated: Vec<String> = list
        .iter()
        .map(|p| {
            int(field(p, "slot")?, "slot")?;
            Ok(string(p, "name")?.to_string())
        })
        .collect::<Result<_, JczError>>()?;
    if seated.len() > Colour::ALL.len() {
        return Err(JczError::Unsupported(format!("{} players", seated.len())));
    }
    Ok(seated
        .into_iter()
        .zip(Colour::ALL)
        .map(|(name, colour)| PlayerEntry { name, colour })
        .collect())
}

/// A turn of the replay with its flock actions.
type JczTurn = (TurnEntry, Vec<JczFlock>);

/// Splits the replay into committed turns and a last, uncommitted one. JCloisterZone draws the
/// token for a shepherd just placed with the random number of the last message that carried
/// one (`initial` before any), or of FanCloisterZone's `SHEPHERD_CONFIRM`.
fn replay_turns(replay: &Value, initial: f64) -> Result<(Vec<JczTurn>, Option<JczTurn>), JczError> {
    let actions = replay
        .as_array()
        .ok_or_else(|| malformed("replay is not a list"))?;
    let mut done = Vec::new();
    let mut current: Option<JczTurn> = None;
    let mut random = initial;
    for action in actions {
        let payload = field(action, "payload")?;
        let drawn = match payload.get("random") {
            Some(r) => r
                .as_f64()
                .filter(|r| (0.0..1.0).contains(r))
                .ok_or_else(|| malformed("random is not a number in [0, 1)"))?,
            None => random,
        };
        match string(action, "type")? {
            "PLACE_TILE" => {
                if current.is_some() {
                    return Err(malformed("two tiles laid in one turn"));
                }
                let rot = string(payload, "rotation")?;
                let deg = rot
                    .strip_prefix('R')
                    .and_then(|d| d.parse::<u16>().ok())
                    .ok_or_else(|| malformed(format!("rotation {rot}")))?;
                let turn = TurnEntry {
                    player: None,
                    tile: tile_name(string(payload, "tileId")?)?,
                    at: Some(position(field(payload, "position")?)?),
                    rot: Some(deg),
                    follower: None,
                    flock: Vec::new(),
                    extra: None,
                    discard: false,
                    wheel: None,
                };
                current = Some((turn, Vec::new()));
            }
            "DEPLOY_MEEPLE" => {
                let (turn, flock) = current
                    .as_mut()
                    .ok_or_else(|| malformed("a follower before its tile"))?;
                let meeple = string(payload, "meepleId")?;
                let figure = match meeple.split('.').nth(1) {
                    Some("small") => Figure::Normal,
                    Some("big") => Figure::Large,
                    Some("builder") => Figure::Builder,
                    Some("pig") => Figure::Pig,
                    Some("shepherd") => {
                        flock.push(JczFlock::Draw(drawn));
                        Figure::Shepherd
                    }
                    _ => return Err(JczError::Unsupported(format!("figure {meeple}"))),
                };
                let pointer = field(payload, "pointer")?;
                if Some(position(field(pointer, "position")?)?) != turn.at {
                    return Err(malformed("a follower off the tile just laid"));
                }
                let port = follower_port(
                    turn,
                    string(pointer, "feature")?,
                    string(pointer, "location")?,
                )?;
                turn.follower = Some(FollowerEntry { port, figure });
            }
            "SHEPHERD_CONFIRM" => {
                let placed = current.as_mut().and_then(|(_, f)| f.last_mut());
                match placed {
                    Some(JczFlock::Draw(r)) => *r = drawn,
                    _ => return Err(malformed("SHEPHERD_CONFIRM without a shepherd placed")),
                }
            }
            "FLOCK_EXPAND_OR_SCORE" => {
                let (_, flock) = current
                    .as_mut()
                    .ok_or_else(|| malformed("a flock action before its tile"))?;
                flock.push(match string(payload, "value")? {
                    "EXPAND" => JczFlock::Draw(drawn),
                    "SCORE" => JczFlock::Gather,
                    other => return Err(malformed(format!("flock action {other}"))),
                });
            }
            "PASS" => {}
            "COMMIT" => {
                if let Some(turn) = current.take() {
                    done.push(turn);
                }
            }
            other => return Err(JczError::Unsupported(format!("action {other}"))),
        }
        random = drawn;
    }
    Ok((done, current))
}

/// Finds the feature a JCloisterZone pointer names on the tile just laid, as one of our ports.
fn follower_port(turn: &TurnEntry, feature: &str, location: &str) -> Result<String, JczError> {
    let kind = match feature {
        "Road" => FeatureKind::Road,
        "City" => FeatureKind::City,
        "Monastery" => FeatureKind::Cloister,
        "Field" => FeatureKind::Field,
        other => return Err(JczError::Unsupported(format!("feature {other}"))),
    };
    let wanted = location_ports(location)?;
    let cat = catalogue();
    let tile: TileId = cat
        .tile_id(&turn.tile)
        .expect("names come from the catalogue");
    let rot = crate::rules::Rotation::from_degrees(turn.rot.unwrap_or(0))
        .ok_or_else(|| malformed("rotation"))?;
    let best = cat
        .tile(tile)
        .features
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.ports.rotated(rot))
        .max_by_key(|ports| ports.iter().filter(|&p| wanted.contains(p)).count())
        .filter(|ports| ports.intersects(wanted))
        .ok_or_else(|| malformed(format!("no {feature} at {location} on tile {}", turn.tile)))?;
    Ok(best
        .iter()
        .next()
        .expect("features have ports")
        .name()
        .to_string())
}

/// Ports named by a JCloisterZone location: `N`, `NWSE`, `_S` (all edges but south),
/// `NL.NR.EL`, `I` (the centre).
fn location_ports(location: &str) -> Result<PortSet, JczError> {
    let bad = || malformed(format!("location {location:?}"));
    if location == "I" {
        return Ok(PortSet::EMPTY.with(Port::CENTRE));
    }
    if location.contains('.') || location.len() == 2 && location.ends_with(['L', 'R']) {
        return location
            .split('.')
            .map(|p| p.parse::<Port>().map_err(|_| bad()))
            .collect();
    }
    let (negate, edges) = match location.strip_prefix('_') {
        Some(rest) => (true, rest),
        None => (false, location),
    };
    let mut set = PortSet::EMPTY;
    for c in edges.chars() {
        let port: Port = c.to_string().parse().map_err(|_| bad())?;
        if !port.is_edge_centre() {
            return Err(bad());
        }
        set = set.with(port);
    }
    if negate {
        set = ["N", "E", "S", "W"]
            .into_iter()
            .filter_map(|n| n.parse::<Port>().ok())
            .filter(|&p| !set.contains(p))
            .collect();
    }
    Ok(set)
}

/// Interleaves discards from the draw order; returns the turns, a tile drawn but not laid, and
/// whether turns were played after the order was used up (tiles then drawn at random).
fn merge_draws(
    laid: Vec<TurnEntry>,
    pending: Option<&TurnEntry>,
    draw_order: Option<Vec<String>>,
) -> Result<Merged, JczError> {
    let Some(order) = draw_order else {
        return Ok((laid, None, false));
    };
    let mut draws = order.into_iter().peekable();
    let mut turns = Vec::new();
    let mut beyond = false;
    for turn in laid.into_iter().chain(pending.cloned()) {
        // Once the order is used up, JCloisterZone drew at random.
        beyond |= draws.peek().is_none();
        if !beyond {
            loop {
                let drawn = draws.next().ok_or_else(|| {
                    malformed(format!("tile {} laid but not in the draw order", turn.tile))
                })?;
                if drawn == turn.tile {
                    break;
                }
                turns.push(TurnEntry {
                    player: None,
                    tile: drawn,
                    at: None,
                    rot: None,
                    follower: None,
                    flock: Vec::new(),
                    extra: None,
                    discard: true,
                    wheel: None,
                });
            }
        }
        turns.push(turn);
    }
    if pending.is_some() {
        turns.pop();
    }
    Ok((turns, draws.next(), beyond))
}

/// The turns with discards interleaved, a tile drawn but not laid, and whether play went on
/// beyond the draw order.
type Merged = (Vec<TurnEntry>, Option<String>, bool);

#[cfg(test)]
mod tests {
    use super::*;

    fn ports(names: &str) -> PortSet {
        names
            .split(' ')
            .map(|n| n.parse::<Port>().unwrap())
            .collect()
    }

    #[test]
    fn locations_name_port_sets() {
        assert_eq!(location_ports("NWSE").unwrap(), ports("N E S W"));
        assert_eq!(location_ports("_S").unwrap(), ports("N E W"));
        assert_eq!(location_ports("NL.NR.EL").unwrap(), ports("NL NR EL"));
        assert_eq!(location_ports("WR").unwrap(), ports("WR"));
        assert_eq!(location_ports("I").unwrap(), ports("C"));
        assert!(location_ports("Q").is_err());
        assert!(location_ports("NL.XX").is_err());
        assert!(location_ports("").map(PortSet::is_empty).unwrap_or(true));
    }

    #[test]
    fn expansion_sets_elements_and_figures_are_read() {
        let doc = |sets: &str, elements: &str, meeple: &str| {
            format!(
                r#"{{"setup": {{"sets": {{{sets}}}, "elements": {{{elements}}},
                "start": [{{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}}]}},
                "players": [{{"name": "a", "slot": 0}}],
                "replay": [{{"type": "PLACE_TILE", "payload": {{"tileId": "BA/C", "rotation": "R180", "position": [0, -1]}}}},
                {{"type": "DEPLOY_MEEPLE", "payload": {{"pointer": {{"position": [0, -1], "feature": "City", "location": "S"}}, "meepleId": "{meeple}"}}}},
                {{"type": "COMMIT", "payload": {{}}}}]}}"#
            )
        };
        let ic = r#""basic:1": 1, "inns-and-cathedrals:1": 1"#;
        let game = parse(&doc(ic, r#""big-follower": 1, "inn": false"#, "0.big.1")).unwrap();
        assert_eq!(game.record.expansions, [Expansion::InnsAndCathedrals]);
        assert!(game.record.options.inns, "listed elements are in play");
        assert!(!game.record.options.cathedrals);
        let turn = &game.record.turns[0];
        assert_eq!(turn.follower.as_ref().unwrap().figure, Figure::Large);
        assert_eq!(game.is_over(), None, "no draw order: the box tells");
        // Traders & Builders: figures by count, with or without the expansion's tiles.
        let tb = r#""basic:1": 1, "traders-and-builders:1": 1"#;
        let all = r#""builder": 1, "pig": 1, "traders": true, "pig-herd": true"#;
        let game = parse(&doc(tb, all, "0.builder.1")).unwrap();
        assert_eq!(game.record.expansions, [Expansion::TradersAndBuilders]);
        assert_eq!(
            game.record.options.builders, None,
            "the expansion's own count"
        );
        let turn = &game.record.turns[0];
        assert_eq!(turn.follower.as_ref().unwrap().figure, Figure::Builder);
        let pigs = parse(&doc(r#""basic:1": 1"#, r#""pig": 2"#, "0.pig.1")).unwrap();
        assert!(pigs.record.expansions.is_empty());
        assert_eq!(pigs.record.options.pigs, Some(2));
        assert_eq!(
            pigs.record.turns[0].follower.as_ref().unwrap().figure,
            Figure::Pig
        );
        // Hills & Sheep: hills and vineyards count only if listed; shepherds only in supply.
        let hs = r#""basic:1": 1, "hills-and-sheep:1": 1"#;
        let game = parse(&doc(hs, r#""hill": true, "shepherd": 1"#, "0.small.1")).unwrap();
        assert_eq!(game.record.expansions, [Expansion::HillsAndSheep]);
        assert!(game.record.options.hills && !game.record.options.vineyards);
        assert_eq!(
            game.record.options.shepherds, None,
            "the expansion's own count"
        );
        assert_eq!(game.record.options.closed_flocks, ClosedFlocks::Gather);
        let two = parse(&doc(r#""basic:1": 1"#, r#""shepherd": 2"#, "0.small.1")).unwrap();
        assert_eq!(two.record.options.shepherds, Some(2));

        for (sets, elements, meeple) in [
            (r#""basic:1": 1, "hills-and-sheep:2": 1"#, "", "0.small.1"),
            (tb, r#""builder": 1, "pig": 1"#, "0.small.1"),
            (ic, "", "0.small.1"),
            (r#""basic:1": 1"#, r#""big-follower": 1"#, "0.small.1"),
            (ic, r#""big-follower": 1"#, "0.abbot.1"),
            (r#""basic:1": 1, "river/1:2": 1"#, "", "0.small.1"),
        ] {
            let err = parse(&doc(sets, elements, meeple)).unwrap_err();
            assert!(matches!(err, JczError::Unsupported(_)), "{err}");
        }
    }

    #[test]
    fn malformed_files_are_errors_not_panics() {
        for text in [
            "",
            "[]",
            "{}",
            r#"{"setup": {"sets": {"basic:1": 1}, "start": []}}"#,
            r#"{"setup": {"sets": {"basic:1": 1}, "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]}, "players": [{"name": "a", "slot": 0}], "replay": [{"type": "DEPLOY_MEEPLE", "payload": {}}]}"#,
            r#"{"setup": {"sets": {"dragons:1": 1}}}"#,
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}

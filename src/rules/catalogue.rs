//! The tile catalogue: every tile type, base box and expansion, read from the data files in
//! `data/`.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::fields::{add_fields, ListedField};
use super::port::{Port, PortSet};
use super::tile::{Attr, FeatureDef, FeatureKind, RiverDef, TileId, TileType};

/// The built-in data files, in load order.
const DATA: [(&str, &str); 6] = [
    ("base.tiles", include_str!("data/base.tiles")),
    ("river.tiles", include_str!("data/river.tiles")),
    ("inns.tiles", include_str!("data/inns.tiles")),
    ("traders.tiles", include_str!("data/traders.tiles")),
    ("hills.tiles", include_str!("data/hills.tiles")),
    ("wheel.tiles", include_str!("data/wheel.tiles")),
];

/// A box of tiles: how many of each type, and which one starts the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    /// The set's name in records (`"base"`).
    pub name: String,
    /// The tile laid face up before the first turn.
    pub start: TileId,
    /// Number of tiles of each type in the box, the start tile included.
    pub counts: Vec<(TileId, u8)>,
}

impl TileSet {
    /// Number of tiles in the box, the start tile included.
    pub fn total(&self) -> usize {
        self.counts.iter().map(|&(_, n)| n as usize).sum()
    }
}

/// The tiles an expansion adds to a base box, and how they enter the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpansionSet {
    /// The expansion's name in records (`"river"`).
    pub name: String,
    /// A tile laid instead of the base box's start tile (the river's spring).
    pub start: Option<TileId>,
    /// A tile laid in the first turn (River II's fork).
    pub first: Option<TileId>,
    /// A tile laid after all the expansion's other tiles (the lake).
    pub last: Option<TileId>,
    /// Tiles of other expansions this one replaces when both are in play (River II drops River
    /// I's lake).
    pub replaces: Vec<TileId>,
    /// Number of tiles of each type, `start` included.
    pub counts: Vec<(TileId, u8)>,
}

/// All known tile types, base boxes and expansions.
pub struct Catalogue {
    tiles: Vec<TileType>,
    sets: Vec<TileSet>,
    expansions: Vec<ExpansionSet>,
    by_name: FxHashMap<String, TileId>,
}

/// An error in catalogue data, with the file and line it is on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("catalogue {file} line {line}: {message}")]
pub struct CatalogueError {
    /// The data file.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Catalogue({} tiles, {} sets, {} expansions)",
            self.tiles.len(),
            self.sets.len(),
            self.expansions.len()
        )
    }
}

/// The built-in catalogue.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        Catalogue::parse_files(&DATA).expect("built-in tile data is checked by the test suite")
    })
}

/// The words of a `set` or `expansion` line, read.
struct SetLine {
    name: String,
    start: Option<TileId>,
    first: Option<TileId>,
    last: Option<TileId>,
    replaces: Vec<TileId>,
    counts: Vec<(TileId, u8)>,
}

impl Catalogue {
    /// Parses one data file (see `data/base.tiles` for the format).
    pub fn parse(text: &str) -> Result<Catalogue, CatalogueError> {
        Catalogue::parse_files(&[("data", text)])
    }

    /// Parses several data files into one catalogue; later files may use earlier files' tiles.
    pub fn parse_files(files: &[(&str, &str)]) -> Result<Catalogue, CatalogueError> {
        let mut cat = Catalogue {
            tiles: Vec::new(),
            sets: Vec::new(),
            expansions: Vec::new(),
            by_name: FxHashMap::default(),
        };
        for (file, text) in files {
            cat.parse_into(file, text)?;
        }
        Ok(cat)
    }

    fn parse_into(&mut self, file: &str, text: &str) -> Result<(), CatalogueError> {
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let err = |message: String| CatalogueError {
                file: file.to_string(),
                line: n + 1,
                message,
            };
            if let Some(rest) = line.strip_prefix("tile ") {
                let tile = parse_tile(rest).map_err(err)?;
                let id = TileId(self.tiles.len() as u16);
                for name in std::iter::once(&tile.name).chain(&tile.aliases) {
                    if self.by_name.insert(name.clone(), id).is_some() {
                        return Err(err(format!("tile name {name} used twice")));
                    }
                }
                self.tiles.push(tile);
            } else if let Some(rest) = line.strip_prefix("set ") {
                let set = self.parse_set(rest).map_err(err)?;
                let start = set
                    .start
                    .ok_or_else(|| err("set without start=TILE".into()))?;
                if set.first.is_some() || set.last.is_some() || !set.replaces.is_empty() {
                    return Err(err("first, last and replaces are for expansions".into()));
                }
                self.sets.push(TileSet {
                    name: set.name,
                    start,
                    counts: set.counts,
                });
            } else if let Some(rest) = line.strip_prefix("expansion ") {
                let set = self.parse_set(rest).map_err(err)?;
                self.expansions.push(ExpansionSet {
                    name: set.name,
                    start: set.start,
                    first: set.first,
                    last: set.last,
                    replaces: set.replaces,
                    counts: set.counts,
                });
            } else if !line.is_empty() {
                return Err(err(format!(
                    "expected `tile`, `set` or `expansion`, found {line:?}"
                )));
            }
        }
        Ok(())
    }

    fn parse_set(&self, rest: &str) -> Result<SetLine, String> {
        let mut words = rest.split_whitespace();
        let name = words.next().ok_or("set without a name")?.to_string();
        let tile = |value: &str| {
            self.tile_id(value)
                .ok_or_else(|| format!("unknown tile {value}"))
        };
        let mut set = SetLine {
            name,
            start: None,
            first: None,
            last: None,
            replaces: Vec::new(),
            counts: Vec::new(),
        };
        for w in words {
            let (key, value) = w
                .split_once('=')
                .ok_or(format!("expected KEY=VALUE, found {w}"))?;
            match key {
                "start" => set.start = Some(tile(value)?),
                "first" => set.first = Some(tile(value)?),
                "last" => set.last = Some(tile(value)?),
                "replaces" => {
                    set.replaces = value.split(',').map(tile).collect::<Result<_, _>>()?
                }
                _ => {
                    let n: u8 = value.parse().map_err(|_| format!("bad count {value}"))?;
                    set.counts.push((tile(key)?, n));
                }
            }
        }
        for special in [set.start, set.first, set.last].into_iter().flatten() {
            if !set.counts.iter().any(|&(id, n)| id == special && n > 0) {
                return Err("start, first and last tiles must be counted in the set".into());
            }
        }
        Ok(set)
    }

    /// All tile types; a [`TileId`] indexes this slice.
    pub fn tiles(&self) -> &[TileType] {
        &self.tiles
    }

    /// The tile type with the given id.
    pub fn tile(&self, id: TileId) -> &TileType {
        &self.tiles[id.index()]
    }

    /// Looks a tile up by our name (`"D"`) or a JCloisterZone alias (`"BA/RCr"`).
    pub fn tile_id(&self, name: &str) -> Option<TileId> {
        self.by_name.get(name).copied()
    }

    /// All base boxes.
    pub fn sets(&self) -> &[TileSet] {
        &self.sets
    }

    /// The base box with the given name.
    pub fn set(&self, name: &str) -> Option<&TileSet> {
        self.sets.iter().find(|s| s.name == name)
    }

    /// The tiles of the expansion with the given name.
    pub fn expansion(&self, name: &str) -> Option<&ExpansionSet> {
        self.expansions.iter().find(|s| s.name == name)
    }
}

fn parse_tile(rest: &str) -> Result<TileType, String> {
    let mut parts = rest.split('|');
    let head: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
    let (name, aliases) = match head.as_slice() {
        [name] => (name.to_string(), Vec::new()),
        [name, aliases] => (
            name.to_string(),
            aliases.split(',').map(str::to_string).collect(),
        ),
        _ => return Err("expected `tile NAME [ALIASES] | FEATURE ...`".into()),
    };
    let mut features = Vec::new();
    let mut river = None;
    let mut fields = Vec::new();
    let (mut hill, mut vineyard) = (false, false);
    let mut shared: Option<(Port, Port)> = None;
    for part in parts {
        let mut words = part.split_whitespace();
        match words.next() {
            Some(mark @ ("hill" | "vineyard")) => {
                let flag = if mark == "hill" {
                    &mut hill
                } else {
                    &mut vineyard
                };
                if *flag || words.next().is_some() {
                    return Err(format!("tile {name}: `{mark}` stands alone, once"));
                }
                *flag = true;
            }
            Some("river") if river.is_none() => river = Some(parse_river(words)?),
            Some("river") => return Err(format!("tile {name}: two rivers")),
            Some("field") => fields.push(parse_field(words)?),
            Some("shared") if shared.is_none() => {
                shared = Some(parse_shared(&name, words)?);
            }
            Some("shared") => return Err(format!("tile {name}: two shared edges")),
            _ => features.push(parse_feature(part)?),
        }
    }
    let mut used = river.map_or(PortSet::EMPTY, |r| r.ports);
    for f in &features {
        if f.ports.intersects(used) {
            return Err(format!("tile {name}: two features share a port"));
        }
        used = used.union(f.ports);
    }
    for f in &fields {
        if f.ports.intersects(used) {
            return Err(format!("tile {name}: a field overlaps a feature"));
        }
        used = used.union(f.ports);
        for p in f.touches.iter() {
            if !features
                .iter()
                .any(|c| c.kind == FeatureKind::City && c.ports.contains(p))
            {
                return Err(format!("tile {name}: a field touches no city at {p}"));
            }
        }
    }
    if features.iter().any(|f| f.bridge) && river.is_none() {
        return Err(format!("tile {name}: a bridge without a river"));
    }
    let shared_edge = match shared {
        Some((edge, at)) => {
            let city = |p: Port| {
                features
                    .iter()
                    .position(|f| f.kind == FeatureKind::City && f.ports.contains(p))
            };
            match (city(edge), city(at)) {
                (Some(a), Some(b)) if a != b => Some((edge, b)),
                _ => {
                    return Err(format!(
                        "tile {name}: `shared {edge} {at}` needs two cities, at {edge} and {at}"
                    ))
                }
            }
        }
        None => None,
    };
    add_fields(&mut features, river, &fields);
    let mut tile = TileType::new(name, aliases, features, river);
    tile.hill = hill;
    tile.vineyard = vineyard;
    tile.shared_edge = shared_edge;
    Ok(tile)
}

/// `shared N E`: the city at edge centre `E` reaches edge `N` of another city too.
fn parse_shared<'a>(
    name: &str,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<(Port, Port), String> {
    let mut edge = || {
        words
            .next()
            .and_then(|w| w.parse::<Port>().ok())
            .filter(|p| p.is_edge_centre())
    };
    match (edge(), edge(), edge()) {
        (Some(edge), Some(at), None) => Ok((edge, at)),
        _ => Err(format!("tile {name}: expected `shared EDGE CITY_EDGE`")),
    }
}

/// `river N S [*]`
fn parse_river<'a>(words: impl Iterator<Item = &'a str>) -> Result<RiverDef, String> {
    let mut river = RiverDef {
        ports: PortSet::EMPTY,
        reaches_centre: false,
    };
    for w in words {
        match w.parse::<Port>() {
            _ if w == "*" => river.reaches_centre = true,
            Ok(p) if p.is_edge_centre() => river.ports = river.ports.with(p),
            _ => return Err(format!("river word {w:?} is not an edge centre or *")),
        }
    }
    if river.ports.is_empty() {
        return Err("river without ports".into());
    }
    Ok(river)
}

/// `field NL NR [touches N W] [pigherd]`: half-edges (or `C`, a field enclosed in the centre),
/// a port of each city it touches, printed details.
fn parse_field<'a>(words: impl Iterator<Item = &'a str>) -> Result<ListedField, String> {
    let mut field = ListedField {
        ports: PortSet::EMPTY,
        touches: PortSet::EMPTY,
        attrs: Vec::new(),
    };
    let mut touching = false;
    for w in words {
        match (w.parse::<Port>(), Attr::from_name(w)) {
            _ if w == "touches" && !touching => touching = true,
            (Ok(p), _) if touching && p.is_edge_centre() => field.touches = field.touches.with(p),
            (Ok(p), _) if !touching && (p.is_half_edge() || p == Port::CENTRE) => {
                field.ports = field.ports.with(p)
            }
            (_, Some(Attr::PigHerd)) => field.attrs.push(Attr::PigHerd),
            _ => {
                return Err(format!(
                    "field word {w:?} is not a half-edge, C, touches or pigherd"
                ))
            }
        }
    }
    if field.ports.is_empty() {
        return Err("field without ports".into());
    }
    Ok(field)
}

/// Whether `attr` may be printed on a feature of `kind` (fields list theirs on `field` lines).
fn fits(attr: Attr, kind: FeatureKind) -> bool {
    match attr {
        Attr::Pennant | Attr::Cathedral | Attr::Goods(_) => kind == FeatureKind::City,
        Attr::Inn => kind == FeatureKind::Road,
        Attr::PigHerd => false,
    }
}

fn parse_feature(text: &str) -> Result<FeatureDef, String> {
    let mut words = text.split_whitespace();
    let kind_name = words.next().ok_or("empty feature")?;
    let kind = match FeatureKind::from_name(kind_name) {
        Some(FeatureKind::Field) | None => return Err(format!("bad feature kind {kind_name}")),
        Some(k) => k,
    };
    let mut ports = PortSet::EMPTY;
    let mut attrs = Vec::new();
    let mut reaches_centre = false;
    let mut bridge = false;
    for w in words {
        if w == "*" {
            reaches_centre = true;
        } else if w == "bridge" && kind == FeatureKind::City {
            bridge = true;
        } else if let Ok(p) = w.parse::<Port>() {
            if !p.is_edge_centre() {
                return Err(format!("{kind_name} port {w} must be an edge centre"));
            }
            ports = ports.with(p);
        } else if let Some(a) = Attr::from_name(w).filter(|&a| fits(a, kind)) {
            attrs.push(a);
        } else {
            return Err(format!("unknown word {w:?} in feature {text:?}"));
        }
    }
    if kind == FeatureKind::Cloister {
        ports = ports.with(Port::CENTRE);
    } else if ports.is_empty() {
        return Err(format!("{kind_name} without ports"));
    }
    Ok(FeatureDef {
        kind,
        ports,
        attrs,
        reaches_centre,
        cities: Vec::new(),
        bridge,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Dir, EdgeKind, Rotation};

    fn fields_of(name: &str) -> Vec<(String, Vec<String>)> {
        let cat = catalogue();
        let tile = cat.tile(cat.tile_id(name).unwrap());
        let mut out: Vec<(String, Vec<String>)> = tile
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Field)
            .map(|f| {
                let cities = f
                    .cities
                    .iter()
                    .map(|&c| tile.features[c].ports.to_string())
                    .collect();
                (f.ports.to_string(), cities)
            })
            .collect();
        out.sort();
        out
    }

    fn field(ports: &str, cities: &[&str]) -> (String, Vec<String>) {
        (
            ports.to_string(),
            cities.iter().map(|s| s.to_string()).collect(),
        )
    }

    fn sorted(mut v: Vec<(String, Vec<String>)>) -> Vec<(String, Vec<String>)> {
        v.sort();
        v
    }

    #[test]
    fn rivers_inns_and_cathedrals_are_printed_where_the_data_says() {
        let cat = catalogue();
        let tile = |n: &str| cat.tile(cat.tile_id(n).unwrap());
        // A river edge is an edge kind of its own; the river is no feature.
        let fork = tile("RV12");
        let sides: Vec<Dir> = fork.river_sides(Rotation::R0).collect();
        assert_eq!(sides, [Dir::N, Dir::E, Dir::W]);
        assert_eq!(fork.edge(Dir::S, Rotation::R0), EdgeKind::Field);
        assert_eq!(fork.edge(Dir::W, Rotation::R90), EdgeKind::Field);
        assert_eq!(fork.edge(Dir::N, Rotation::R90), EdgeKind::River);
        assert_eq!(fork.feature_at("N".parse().unwrap()), None);
        // The spring's field wraps round it (seed 004, River footnote 2).
        assert_eq!(fields_of("RV0"), [field("NL NR EL ER SL SR WL WR", &[])]);
        // Inns and cathedrals sit on one feature each.
        assert_eq!(tile("IC14").count(Attr::Inn), 1);
        assert_eq!(tile("IC1").count(Attr::Cathedral), 1);
        assert_eq!(tile("RV15").count(Attr::Inn), 1);
        let ext = cat.expansion("river_ii").unwrap();
        assert_eq!(ext.first, cat.tile_id("RV12"));
        assert_eq!(ext.last, cat.tile_id("RV11"));
        assert_eq!(ext.replaces, [cat.tile_id("RV1").unwrap()]);
    }

    #[test]
    fn traders_and_builders_tiles_are_as_the_rulebooks_describe() {
        use crate::rules::Good;
        let cat = catalogue();
        let tile = |n: &str| cat.tile(cat.tile_id(n).unwrap());
        let set = cat.expansion("traders_and_builders").unwrap();
        // Seed 004: 24 tiles, 9 wine, 6 grain, 5 cloth, 4 without goods (one symbol a tile).
        let goods = |g: Good| -> u32 {
            set.counts
                .iter()
                .map(|&(t, n)| u32::from(n) * cat.tile(t).count(Attr::Goods(g)))
                .sum()
        };
        assert_eq!(
            set.counts.iter().map(|&(_, n)| n as usize).sum::<usize>(),
            24
        );
        assert_eq!(Good::ALL.map(goods), [9, 6, 5]);
        let kinds =
            |n: &str, k: FeatureKind| tile(n).features.iter().filter(|f| f.kind == k).count();
        // The bridge is no crossing: two roads through, four fields; three cities on TB6; the
        // cloister splits TB20's road in three; TB23 has three fields.
        assert_eq!(kinds("TB24", FeatureKind::Road), 2);
        assert_eq!(kinds("TB24", FeatureKind::Field), 4);
        assert_eq!(kinds("TB6", FeatureKind::City), 3);
        assert_eq!(kinds("TB20", FeatureKind::Road), 3);
        assert_eq!(kinds("TB23", FeatureKind::Field), 3);
        assert_eq!(tile("RV19").count(Attr::PigHerd), 1);
    }

    #[test]
    fn built_in_data_parses_with_the_rulebook_counts() {
        let cat = catalogue();
        let base = cat.set("base").unwrap();
        assert_eq!(base.total(), 72);
        assert_eq!(cat.tile(base.start).name, "D");
        assert_eq!(cat.set("bigbox").unwrap().total(), 73);
        assert_eq!(cat.tile_id("BA/RCr"), cat.tile_id("D"));
        assert_eq!(cat.tile_id("BA/Rr"), cat.tile_id("V"));
        assert_eq!(cat.tile_id("BA/RFr"), cat.tile_id("U"));
    }

    // Field groups and field→city links, derived from geometry, checked against the rulebook
    // pictures (JCloisterZone's tile definitions list the same facts).
    #[test]
    fn derived_fields_match_the_printed_tiles() {
        assert_eq!(
            fields_of("A"),
            sorted(vec![field("NL NR EL ER SL SR WL WR", &[])])
        );
        assert_eq!(fields_of("C"), sorted(vec![]));
        assert_eq!(
            fields_of("D"),
            sorted(vec![field("EL WR", &["N"]), field("ER SL SR WL", &[])])
        );
        assert_eq!(
            fields_of("F"),
            sorted(vec![field("NL NR", &["E W"]), field("SL SR", &["E W"])])
        );
        assert_eq!(
            fields_of("H"),
            sorted(vec![field("EL ER WL WR", &["N", "S"])])
        );
        assert_eq!(
            fields_of("I"),
            sorted(vec![field("EL ER SL SR", &["N", "W"])])
        );
        assert_eq!(
            fields_of("J"),
            sorted(vec![field("ER SL", &[]), field("EL SR WL WR", &["N"])])
        );
        assert_eq!(
            fields_of("K"),
            sorted(vec![field("EL ER SL WR", &["N"]), field("SR WL", &[])])
        );
        assert_eq!(
            fields_of("L"),
            sorted(vec![
                field("EL WR", &["N"]),
                field("ER SL", &[]),
                field("SR WL", &[])
            ])
        );
        assert_eq!(fields_of("N"), sorted(vec![field("EL ER SL SR", &["N W"])]));
        assert_eq!(
            fields_of("O"),
            sorted(vec![field("EL SR", &["N W"]), field("ER SL", &[])])
        );
        assert_eq!(fields_of("Q"), sorted(vec![field("SL SR", &["N E W"])]));
        assert_eq!(
            fields_of("S"),
            sorted(vec![field("SL", &["N E W"]), field("SR", &["N E W"])])
        );
        assert_eq!(
            fields_of("U"),
            sorted(vec![field("ER SL SR WL", &[]), field("NL NR EL WR", &[])])
        );
        assert_eq!(
            fields_of("V"),
            sorted(vec![field("NL NR EL ER SL WR", &[]), field("SR WL", &[])])
        );
        assert_eq!(
            fields_of("W"),
            sorted(vec![
                field("ER SL", &[]),
                field("NL NR EL WR", &[]),
                field("SR WL", &[])
            ])
        );
        assert_eq!(
            fields_of("X"),
            sorted(vec![
                field("ER SL", &[]),
                field("NL WR", &[]),
                field("NR EL", &[]),
                field("SR WL", &[])
            ])
        );
    }

    #[test]
    fn malformed_data_is_an_error_with_its_line() {
        let bad = [
            ("tile Z | road Q", 1),
            ("\ntile Z | lake N", 2),
            ("tile Z | city N | road N", 1),
            ("tile Z | road NL", 1),
            ("set s start=Z", 1),
            ("tile Z | road N\nset s start=Z Z=0", 2),
            ("tile Z | road N\ntile Z | road S", 2),
            ("bogus", 1),
            ("tile Z | river NL", 1),
            ("tile Z | river", 1),
            ("tile Z | river N | river S", 1),
            ("tile Z | hill | city N | hill", 1),
            ("tile Z | vineyard N | city N", 1),
            ("tile Z | river N | road N", 1),
            ("tile Z | city N bridge", 1),
            ("tile Z | road N | field N", 1),
            ("tile Z | road N | field NL NR | field NR", 1),
            ("tile Z | road N\nexpansion e first=Z", 2),
            ("tile Z | road N\nset s start=Z Z=1 last=Z", 2),
            ("tile Z | road N\nexpansion e replaces=Q Z=1", 2),
            ("tile Z | road N wine", 1),
            ("tile Z | city N pigherd", 1),
            ("tile Z | city N | field EL ER touches S", 1),
            ("tile Z | city N | field EL touches NL", 1),
            ("tile Z | city N | field EL ER touches N touches N", 1),
            ("tile Z | city N | field EL ER cloth", 1),
            ("tile Z | city N | city E | shared N", 1),
            ("tile Z | city N | city E | shared N E S", 1),
            ("tile Z | city N | road E | shared N E", 1),
            ("tile Z | city N E | shared N E", 1),
            ("tile Z | city N | city E | shared N E | shared N E", 1),
        ];
        for (text, line) in bad {
            let err = Catalogue::parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
        }
    }
}

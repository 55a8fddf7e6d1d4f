//! The tile catalogue: every tile type and tile set, read from the data files in `data/`.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::fields::add_fields;
use super::port::{Port, PortSet};
use super::tile::{Attr, FeatureDef, FeatureKind, TileId, TileType};

const BASE_DATA: &str = include_str!("data/base.tiles");

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

/// All known tile types and tile sets.
pub struct Catalogue {
    tiles: Vec<TileType>,
    sets: Vec<TileSet>,
    by_name: FxHashMap<String, TileId>,
}

/// An error in catalogue data, with the line it is on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("catalogue line {line}: {message}")]
pub struct CatalogueError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Catalogue({} tiles, {} sets)",
            self.tiles.len(),
            self.sets.len()
        )
    }
}

/// The built-in catalogue.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        Catalogue::parse(BASE_DATA).expect("built-in tile data is checked by the test suite")
    })
}

impl Catalogue {
    /// Parses catalogue data (see `data/base.tiles` for the format).
    pub fn parse(text: &str) -> Result<Catalogue, CatalogueError> {
        let mut cat = Catalogue {
            tiles: Vec::new(),
            sets: Vec::new(),
            by_name: FxHashMap::default(),
        };
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let err = |message: String| CatalogueError {
                line: n + 1,
                message,
            };
            if let Some(rest) = line.strip_prefix("tile ") {
                let tile = parse_tile(rest).map_err(err)?;
                let id = TileId(cat.tiles.len() as u16);
                for name in std::iter::once(&tile.name).chain(&tile.aliases) {
                    if cat.by_name.insert(name.clone(), id).is_some() {
                        return Err(err(format!("tile name {name} used twice")));
                    }
                }
                cat.tiles.push(tile);
            } else if let Some(rest) = line.strip_prefix("set ") {
                let set = cat.parse_set(rest).map_err(err)?;
                cat.sets.push(set);
            } else if !line.is_empty() {
                return Err(err(format!("expected `tile` or `set`, found {line:?}")));
            }
        }
        Ok(cat)
    }

    fn parse_set(&self, rest: &str) -> Result<TileSet, String> {
        let mut words = rest.split_whitespace();
        let name = words.next().ok_or("set without a name")?.to_string();
        let mut start = None;
        let mut counts = Vec::new();
        for w in words {
            let (key, value) = w
                .split_once('=')
                .ok_or(format!("expected KEY=VALUE, found {w}"))?;
            if key == "start" {
                start = Some(
                    self.tile_id(value)
                        .ok_or(format!("unknown start tile {value}"))?,
                );
            } else {
                let id = self.tile_id(key).ok_or(format!("unknown tile {key}"))?;
                let n: u8 = value.parse().map_err(|_| format!("bad count {value}"))?;
                counts.push((id, n));
            }
        }
        let start = start.ok_or("set without start=TILE")?;
        if !counts.iter().any(|&(id, n)| id == start && n > 0) {
            return Err("the start tile must be counted in the set".into());
        }
        Ok(TileSet {
            name,
            start,
            counts,
        })
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

    /// All tile sets.
    pub fn sets(&self) -> &[TileSet] {
        &self.sets
    }

    /// The tile set with the given name.
    pub fn set(&self, name: &str) -> Option<&TileSet> {
        self.sets.iter().find(|s| s.name == name)
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
    for part in parts {
        features.push(parse_feature(part)?);
    }
    let mut used = PortSet::EMPTY;
    for f in &features {
        if f.ports.intersects(used) {
            return Err(format!("tile {name}: two features share a port"));
        }
        used = used.union(f.ports);
    }
    add_fields(&mut features);
    Ok(TileType::new(name, aliases, features))
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
    for w in words {
        if w == "*" {
            reaches_centre = true;
        } else if let Ok(p) = w.parse::<Port>() {
            if !p.is_edge_centre() {
                return Err(format!("{kind_name} port {w} must be an edge centre"));
            }
            ports = ports.with(p);
        } else if let Some(a) = Attr::from_name(w) {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ];
        for (text, line) in bad {
            let err = Catalogue::parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
        }
    }
}

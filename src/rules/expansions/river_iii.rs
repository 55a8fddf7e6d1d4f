//! River III, the Big Box's print of The River (option `river_iii`): River I's tiles with sheep
//! and vineyards printed in their fields, which count with Hills & Sheep only (000:1115-1132):
//! - a printed sheep is counted with the sheep tokens each time a flock in its field is gathered,
//!   and stays (no wolf or gathering takes it away);
//! - a printed vineyard adds to a completed cloister beside it under the vineyard rule.
//!
//! No source says which tiles carry them: they are data (`data/river_iii.data`) a player with the
//! box can correct.

use std::sync::OnceLock;

use super::super::catalogue::{catalogue, Catalogue};
use super::super::options::RuleOptions;
use super::super::port::{Port, PortSet};
use super::super::tile::{FeatureKind, TileId};
use super::{Expansion, Expansions};

/// Where River III's sheep and vineyards are printed, as the data file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiverIiiData {
    /// One entry per printed sheep: the tile and a half-edge (rotation 0) of the field it is in.
    pub sheep: Vec<(TileId, Port)>,
    /// One entry per printed vineyard: the tile and a half-edge of the field it is in.
    pub vineyards: Vec<(TileId, Port)>,
}

/// An error in the River III data, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("river III data line {line}: {message}")]
pub struct RiverIiiDataError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The built-in River III data (`data/river_iii.data`).
pub fn river_iii_data() -> &'static RiverIiiData {
    static DATA: OnceLock<RiverIiiData> = OnceLock::new();
    DATA.get_or_init(|| {
        RiverIiiData::parse(catalogue(), include_str!("../data/river_iii.data"))
            .expect("built-in River III data is checked by the test suite")
    })
}

impl RiverIiiData {
    /// Parses River III data (see `data/river_iii.data` for the format): each mark lies in a
    /// field of a River I tile.
    pub fn parse(cat: &Catalogue, text: &str) -> Result<RiverIiiData, RiverIiiDataError> {
        let river_i = cat
            .expansion(Expansion::River.name())
            .expect("River I's tiles are in the catalogue");
        let mut data = RiverIiiData {
            sheep: Vec::new(),
            vineyards: Vec::new(),
        };
        for (n, raw) in text.lines().enumerate() {
            let err = |message: String| RiverIiiDataError {
                line: n + 1,
                message,
            };
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let (vineyard, name, port) = match words.as_slice() {
                [] => continue,
                ["sheep", name, port] => (false, name, port),
                ["vineyard", name, port] => (true, name, port),
                _ => {
                    return Err(err(format!(
                        "expected sheep or vineyard TILE PORT: {raw:?}"
                    )))
                }
            };
            let id = cat
                .tile_id(name)
                .filter(|id| river_i.counts.iter().any(|(t, _)| t == id))
                .ok_or_else(|| err(format!("{name} is not a River I tile")))?;
            let port: Port = port
                .parse()
                .ok()
                .filter(|p: &Port| p.is_half_edge())
                .ok_or_else(|| err(format!("{port} is not a half-edge")))?;
            let tile = cat.tile(id);
            if tile
                .feature_at(port)
                .is_none_or(|f| tile.features[f].kind != FeatureKind::Field)
            {
                return Err(err(format!("{name} has no field at {port}")));
            }
            if !vineyard {
                data.sheep.push((id, port));
            } else if data.vineyard(id) {
                return Err(err(format!("{name}: one vineyard a tile")));
            } else {
                data.vineyards.push((id, port));
            }
        }
        Ok(data)
    }

    /// Sheep printed on `tile` in the field that reaches `ports` (rotation 0).
    pub fn sheep_in(&self, tile: TileId, ports: PortSet) -> u32 {
        self.sheep
            .iter()
            .filter(|&&(t, p)| t == tile && ports.contains(p))
            .count() as u32
    }

    /// Whether a vineyard is printed on `tile`.
    pub fn vineyard(&self, tile: TileId) -> bool {
        self.vineyards.iter().any(|&(t, _)| t == tile)
    }
}

/// Whether River III's printed sheep and vineyards count: The River in that print, with Hills &
/// Sheep.
pub(crate) fn in_play(options: &RuleOptions, expansions: Expansions) -> bool {
    options.river_iii
        && expansions.contains(Expansion::River)
        && expansions.contains(Expansion::HillsAndSheep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_data_has_two_sheep_and_two_vineyard_tiles() {
        // 004:445: "2 tiles with a sheep and 2 tiles with a vineyard" (River I's counts: the data
        // names tile types).
        let cat = catalogue();
        let data = river_iii_data();
        let river_i = cat.expansion("river").unwrap();
        let copies = |marks: &[(TileId, Port)]| -> u32 {
            marks
                .iter()
                .map(|(t, _)| river_i.counts.iter().find(|(c, _)| c == t).unwrap().1)
                .map(u32::from)
                .sum()
        };
        assert_eq!((copies(&data.sheep), copies(&data.vineyards)), (2, 2));
    }

    #[test]
    fn bad_data_is_refused_with_its_line() {
        let cat = catalogue();
        for (text, line) in [
            ("sheep RV6", 1),
            ("\nsheep RV12 NL", 2),
            ("sheep D NL", 1),
            ("sheep RV6 N", 1),
            ("sheep RV2 NL", 1),
            ("vineyard RV9 NL\nvineyard RV9 SR", 2),
            ("flock RV6 NL", 1),
        ] {
            let err = RiverIiiData::parse(cat, text).unwrap_err();
            assert_eq!(err.line, line, "{text}: {err}");
        }
        // Two sheep in one field are two lines, named by any of its half-edges.
        let two = RiverIiiData::parse(cat, "sheep RV6 NL\nsheep RV6 EL").unwrap();
        let rv6 = cat.tile_id("RV6").unwrap();
        let field = |p: &str| {
            let tile = cat.tile(rv6);
            tile.features[tile.feature_at(p.parse().unwrap()).unwrap()].ports
        };
        assert_eq!(
            (
                two.sheep_in(rv6, field("WR")),
                two.sheep_in(rv6, field("SL"))
            ),
            (2, 0)
        );
    }
}

//! Points: what a feature is worth, and the events that record who scored it.

use super::board::Pos;
use super::expansions::wheel::Sector;
use super::expansions::{inns, Expansions};
use super::feature::Feature;
use super::options::RuleOptions;
use super::player::PlayerId;
use super::tile::{FeatureKind, Good};

/// Why points were scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A road, city or cloister was completed during the game.
    Completed,
    /// End-of-game scoring of an incomplete feature or a farm.
    Final,
    /// A flock gathered during the game (Hills & Sheep).
    Gathered,
    /// The pig stopped on a sector of the wheel (The Wheel of Fortune).
    Wheel,
}

impl Cause {
    /// The lower-case name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Completed => "completed",
            Cause::Final => "final",
            Cause::Gathered => "gathered",
            Cause::Wheel => "wheel",
        }
    }
}

/// What an event scored: a feature, the majority of a kind of goods (Traders & Builders), a
/// flock (Hills & Sheep), or a sector of the wheel or a crown (The Wheel of Fortune).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scored {
    /// A road, city, cloister or farm.
    Feature(FeatureKind),
    /// The most tokens of one kind of goods, at the end of the game.
    Goods(Good),
    /// A flock of sheep (Hills & Sheep).
    Flock,
    /// A sector's action of the Wheel of Fortune (Fortune, Taxes, Famine, Storm, Inquisition).
    Wheel(Sector),
    /// A follower on a crown space of the Wheel of Fortune.
    Crown,
}

impl Scored {
    /// The lower-case name used in reports: the feature's kind or the goods' kind.
    pub fn name(self) -> &'static str {
        match self {
            Scored::Feature(kind) => kind.name(),
            Scored::Goods(good) => good.name(),
            Scored::Flock => "flock",
            Scored::Wheel(sector) => sector.name(),
            Scored::Crown => "crown",
        }
    }
}

impl std::fmt::Display for Scored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One feature (or goods majority) scored: every player listed gains `points`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreEvent {
    /// 1-based turn in which it happened; `None` for end-of-game scoring.
    pub turn: Option<u32>,
    /// The players who share the majority, in seat order.
    pub players: Vec<PlayerId>,
    /// Points each of them gains.
    pub points: u32,
    /// What was scored.
    pub feature: Scored,
    /// The cells the feature covers (for a farm: its cells; none for goods), sorted.
    pub tiles: Vec<Pos>,
    /// Why.
    pub cause: Cause,
}

/// Points for a completed road or city (`tiles` distinct tiles).
pub fn completed_value(
    f: &Feature,
    tiles: u32,
    options: &RuleOptions,
    expansions: Expansions,
) -> u32 {
    let plain = match f.kind {
        FeatureKind::Road => tiles,
        FeatureKind::City if options.tiny_city && tiles == 2 => tiles + f.pennants,
        FeatureKind::City => 2 * (tiles + f.pennants),
        FeatureKind::Cloister => 9,
        FeatureKind::Field => 0,
    };
    inns::completed(f, tiles, plain, options, expansions)
}

/// Points for an incomplete road or city at the end of the game.
pub fn incomplete_value(
    f: &Feature,
    tiles: u32,
    options: &RuleOptions,
    expansions: Expansions,
) -> u32 {
    let plain = match f.kind {
        FeatureKind::Road => tiles,
        FeatureKind::City => tiles + f.pennants,
        FeatureKind::Cloister | FeatureKind::Field => 0,
    };
    inns::incomplete(f, plain, options, expansions)
}

/// Points for a cloister with `block` tiles in its 3×3 block (itself included).
pub fn cloister_value(block: usize) -> u32 {
    block as u32
}

/// Points a farm earns per completed city it supplies (current rules).
pub const FARM_POINTS_PER_CITY: u32 = 3;

/// Points a completed city gives its farmers' majority under the first-edition rule.
pub const FIRST_EDITION_POINTS_PER_CITY: u32 = 4;

//! Hills & Sheep (seed 000, "Shepherds and sheep"), the shepherd and the sheep/wolf bag:
//! - a player may put their shepherd (no follower: it never counts in a majority) on a field of
//!   the tile just laid instead of a follower, beside farmers but never beside another shepherd;
//!   placing it draws a token from the bag at once: sheep stay with it, a wolf sends it home;
//! - whenever a player's tile extends the field of their own shepherd (placed in an earlier
//!   turn), they must grow the flock (draw a token: sheep join it, a wolf sends every sheep of
//!   the field back to the bag and every shepherd there home) or gather it (every shepherd in
//!   the field scores 1 per sheep there, then the sheep go back to the bag and the shepherds
//!   home);
//! - fields that merge share their sheep; shepherds in play at the end score nothing;
//! - the draw is an input (the table or a record says which token came out); the engine checks
//!   that the bag still holds it: 4 × 1 sheep, 5 × 2, 5 × 3, 2 × 4 and 2 wolves (seed 000's
//!   component list; a wolf always goes back).
//!
//! Option `closed_flocks`: JCloisterZone gathers a flock at once when its field is closed on
//! every side (it can never grow again); the Big Box rulebook has no such rule.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::super::feature::Feature;
use super::super::figure::Figure;
use super::super::options::RuleOptions;
use super::super::tile::FeatureKind;
use super::traders::Refusal;
use super::{Expansion, Expansions};

/// Shepherds each player gets by default with Hills & Sheep.
pub const SHEPHERDS: u8 = 1;

/// The most flock actions one turn carries: the draw for a shepherd just placed, and one for each
/// field of the tile laid (at most four).
pub const MAX_FLOCK_ACTIONS: usize = 5;

/// Tokens in the bag at the start: 1, 2, 3 and 4 sheep, then wolves (seed 000).
pub const BAG: [u8; 5] = [4, 5, 5, 2, 2];

/// Shepherds each player has: the option's count, or one with Hills & Sheep.
pub(crate) fn shepherds(expansions: Expansions, options: &RuleOptions) -> u8 {
    let each = if expansions.contains(Expansion::HillsAndSheep) {
        SHEPHERDS
    } else {
        0
    };
    options.shepherds.unwrap_or(each)
}

/// Whether a shepherd may stand on feature `f` of the tile just laid: a field, farmers or not,
/// but no other shepherd.
pub(crate) fn may_stand(f: &Feature) -> Result<(), Refusal> {
    if f.kind != FeatureKind::Field {
        Err(Refusal::WrongFeature)
    } else if f.occupants.iter().any(|o| o.figure == Figure::Shepherd) {
        Err(Refusal::Shepherded)
    } else {
        Ok(())
    }
}

/// A token drawn from the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Token {
    /// A sheep token showing 1 to 4 sheep.
    Sheep(u8),
    /// A wolf: the flock is lost.
    Wolf,
}

impl Token {
    /// All kinds, in the bag's order (JCloisterZone draws by position in this order).
    pub const ALL: [Token; 5] = [
        Token::Sheep(1),
        Token::Sheep(2),
        Token::Sheep(3),
        Token::Sheep(4),
        Token::Wolf,
    ];

    /// What players call it: "1-sheep token" … "4-sheep token", "wolf".
    pub fn noun(self) -> &'static str {
        match self {
            Token::Sheep(1) => "1-sheep token",
            Token::Sheep(2) => "2-sheep token",
            Token::Sheep(3) => "3-sheep token",
            Token::Sheep(_) => "4-sheep token",
            Token::Wolf => "wolf",
        }
    }

    /// Index into per-kind tables such as [`BAG`].
    pub fn index(self) -> usize {
        match self {
            Token::Sheep(n) => usize::from(n) - 1,
            Token::Wolf => 4,
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Sheep(n) => write!(f, "{n}"),
            Token::Wolf => f.write_str("wolf"),
        }
    }
}

/// What a player does with a flock: draw a token (the draw on placing the shepherd, or growing
/// the flock), or gather it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum FlockAction {
    /// A token came out of the bag: `draw 1` … `draw 4`, `draw wolf`.
    Draw(Token),
    /// The flock is scored: `gather`.
    Gather,
}

impl fmt::Display for FlockAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlockAction::Draw(t) => write!(f, "draw {t}"),
            FlockAction::Gather => f.write_str("gather"),
        }
    }
}

impl FromStr for FlockAction {
    type Err = String;

    fn from_str(s: &str) -> Result<FlockAction, String> {
        let bad =
            || format!("flock action {s:?} is not `draw 1`…`draw 4`, `draw wolf` or `gather`");
        if s == "gather" {
            return Ok(FlockAction::Gather);
        }
        let token = s.strip_prefix("draw ").ok_or_else(bad)?;
        Token::ALL
            .into_iter()
            .find(|t| t.to_string() == token)
            .map(FlockAction::Draw)
            .ok_or_else(bad)
    }
}

impl TryFrom<String> for FlockAction {
    type Error = String;

    fn try_from(s: String) -> Result<FlockAction, String> {
        s.parse()
    }
}

impl From<FlockAction> for String {
    fn from(a: FlockAction) -> String {
        a.to_string()
    }
}

/// The flock actions of one turn, in order: the draw for a shepherd placed this turn first,
/// then one action for each flock the tile extended (oldest shepherd first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlockActions {
    len: u8,
    items: [Option<FlockAction>; MAX_FLOCK_ACTIONS],
}

impl FlockActions {
    /// No flock action.
    pub const NONE: FlockActions = FlockActions {
        len: 0,
        items: [None; MAX_FLOCK_ACTIONS],
    };

    /// The actions, from a list of at most [`MAX_FLOCK_ACTIONS`].
    pub fn from_slice(actions: &[FlockAction]) -> Result<FlockActions, String> {
        if actions.len() > MAX_FLOCK_ACTIONS {
            return Err(format!(
                "{} flock actions in one turn (at most {MAX_FLOCK_ACTIONS})",
                actions.len()
            ));
        }
        let mut out = FlockActions::NONE;
        for &a in actions {
            out.items[out.len as usize] = Some(a);
            out.len += 1;
        }
        Ok(out)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = FlockAction> + '_ {
        self.items.iter().flatten().copied()
    }
}

/// The token at position `r` (a number in [0, 1)) of the bag laid out in [`Token::ALL`] order:
/// how JCloisterZone turns its random number into a draw.
pub fn token_at(bag: &[u8; 5], r: f64) -> Option<Token> {
    let total: usize = bag.iter().map(|&n| usize::from(n)).sum();
    if total == 0 || !(0.0..1.0).contains(&r) {
        return None;
    }
    let mut pick = (r * total as f64) as usize;
    Token::ALL.into_iter().find(|t| {
        let n = usize::from(bag[t.index()]);
        if pick < n {
            true
        } else {
            pick -= n;
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_and_write_as_the_record_notation() {
        for text in ["draw 1", "draw 4", "draw wolf", "gather"] {
            let a: FlockAction = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        for bad in ["draw 0", "draw 5", "grow", "", "draw", "Gather"] {
            assert!(bad.parse::<FlockAction>().is_err(), "{bad}");
        }
        let six = [FlockAction::Gather; 6];
        assert!(FlockActions::from_slice(&six).is_err());
        let two = FlockActions::from_slice(&six[..2]).unwrap();
        assert_eq!(two.iter().count(), 2);
    }

    #[test]
    fn a_turn_never_owes_more_flock_actions_than_fit() {
        // One action per field of the tile laid, after the draw for a shepherd placed.
        let most = crate::rules::catalogue()
            .tiles()
            .iter()
            .map(|t| {
                t.features
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Field)
                    .count()
            })
            .max()
            .unwrap();
        assert!(most < MAX_FLOCK_ACTIONS, "{most} fields on a tile");
    }

    #[test]
    fn the_bag_holds_the_rulebook_mix() {
        // Seed 000: 4 × 1 sheep, 5 × 2, 5 × 3, 2 × 4, 2 wolves: 18 tokens.
        assert_eq!(BAG.iter().map(|&n| u32::from(n)).sum::<u32>(), 18);
        assert_eq!(token_at(&BAG, 0.0), Some(Token::Sheep(1)));
        assert_eq!(token_at(&BAG, 0.3), Some(Token::Sheep(2)));
        assert_eq!(token_at(&BAG, 0.99), Some(Token::Wolf));
        assert_eq!(token_at(&BAG, 1.0), None);
        assert_eq!(token_at(&[0; 5], 0.5), None);
    }
}

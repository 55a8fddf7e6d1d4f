//! Directions, rotations and the ports through which features leave a tile.
//!
//! A tile's boundary is read clockwise from the north-west corner as twelve positions:
//! `NL N NR EL E ER SL S SR WL W WR`. Edge centres (`N E S W`) carry roads, cities and rivers;
//! the half-edges carry fields. `L`/`R` are read from the tile centre looking out through the
//! edge, so `NL` is the west half of the north edge and `EL` the north half of the east edge.
//! A thirteenth port, `C`, is the tile centre (cloisters and other centre features).

use std::fmt;
use std::str::FromStr;

/// One of the four sides of a tile, or a step on the board grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards negative y.
    N,
    /// Towards positive x.
    E,
    /// Towards positive y.
    S,
    /// Towards negative x.
    W,
}

impl Dir {
    /// All directions, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction's index, clockwise from north (0..4).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with the given clockwise index (taken modulo 4).
    pub const fn from_index(i: usize) -> Dir {
        Dir::ALL[i % 4]
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 2)
    }

    /// The grid step `(dx, dy)`; y grows south.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }

    /// This direction turned clockwise by `rot`.
    pub const fn rotated(self, rot: Rotation) -> Dir {
        Dir::from_index(self.index() + rot.quarter_turns())
    }

    /// The edge-centre port of this side.
    pub const fn port(self) -> Port {
        Port(self as u8 * 3 + 1)
    }
}

/// A clockwise rotation by a multiple of 90°.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rotation {
    /// As printed in the catalogue.
    #[default]
    R0,
    /// A quarter turn clockwise.
    R90,
    /// A half turn.
    R180,
    /// Three quarter turns clockwise.
    R270,
}

impl Rotation {
    /// All rotations in increasing order.
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// Number of clockwise quarter turns (0..4).
    pub const fn quarter_turns(self) -> usize {
        self as usize
    }

    /// The rotation by `n` clockwise quarter turns (taken modulo 4).
    pub const fn from_quarter_turns(n: usize) -> Rotation {
        Rotation::ALL[n % 4]
    }

    /// The rotation in degrees: 0, 90, 180 or 270.
    pub const fn degrees(self) -> u16 {
        self as u16 * 90
    }

    /// The rotation for a number of degrees, if it is a multiple of 90 in 0..360.
    pub const fn from_degrees(deg: u16) -> Option<Rotation> {
        match deg {
            0 => Some(Rotation::R0),
            90 => Some(Rotation::R90),
            180 => Some(Rotation::R180),
            270 => Some(Rotation::R270),
            _ => None,
        }
    }

    /// The rotation that undoes this one.
    pub const fn inverse(self) -> Rotation {
        Rotation::from_quarter_turns(4 - self.quarter_turns())
    }
}

/// A place on a tile where a feature reaches the boundary, or the tile centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Port(u8);

const PORT_NAMES: [&str; 13] = [
    "NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR", "C",
];

impl Port {
    /// Number of distinct ports (12 boundary positions and the centre).
    pub const COUNT: usize = 13;
    /// The tile centre.
    pub const CENTRE: Port = Port(12);

    /// The port with the given index (0..13), clockwise from `NL`, `C` last.
    pub const fn from_index(i: usize) -> Option<Port> {
        if i < Self::COUNT {
            Some(Port(i as u8))
        } else {
            None
        }
    }

    /// This port's index (0..13).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is one of the four edge centres.
    pub const fn is_edge_centre(self) -> bool {
        self.0 < 12 && self.0 % 3 == 1
    }

    /// Whether this is one of the eight field half-edges.
    pub const fn is_half_edge(self) -> bool {
        self.0 < 12 && self.0 % 3 != 1
    }

    /// The side this port lies on, or `None` for the centre.
    pub const fn side(self) -> Option<Dir> {
        if self.0 < 12 {
            Some(Dir::from_index(self.0 as usize / 3))
        } else {
            None
        }
    }

    /// The port turned clockwise by `rot`.
    pub const fn rotated(self, rot: Rotation) -> Port {
        if self.0 < 12 {
            Port(((self.0 as usize + 3 * rot.quarter_turns()) % 12) as u8)
        } else {
            self
        }
    }

    /// The port of the neighbouring tile that touches this one across its side
    /// (`N`↔`S`, `NL`↔`SR`, `EL`↔`WR`, …), or `None` for the centre.
    pub const fn facing(self) -> Option<Port> {
        if self.0 < 12 {
            let side = self.0 / 3;
            let offset = self.0 % 3;
            Some(Port(((side + 2) % 4) * 3 + (2 - offset)))
        } else {
            None
        }
    }

    /// The port's name as written in records (`N`, `NL`, …, `C`).
    pub fn name(self) -> &'static str {
        PORT_NAMES[self.index()]
    }

    /// All ports, boundary first (clockwise from `NL`), centre last.
    pub fn all() -> impl Iterator<Item = Port> {
        (0..Self::COUNT as u8).map(Port)
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a string that names no port.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown port {0:?} (expected one of N E S W NL NR EL ER SL SR WL WR C)")]
pub struct UnknownPort(pub String);

impl FromStr for Port {
    type Err = UnknownPort;

    fn from_str(s: &str) -> Result<Port, UnknownPort> {
        PORT_NAMES
            .iter()
            .position(|&n| n == s)
            .map(|i| Port(i as u8))
            .ok_or_else(|| UnknownPort(s.to_string()))
    }
}

/// A set of ports, as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PortSet(u16);

impl PortSet {
    /// The empty set.
    pub const EMPTY: PortSet = PortSet(0);

    /// Whether the set has no ports.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `port` is in the set.
    pub const fn contains(self, port: Port) -> bool {
        self.0 & (1 << port.0) != 0
    }

    /// The set with `port` added.
    pub const fn with(self, port: Port) -> PortSet {
        PortSet(self.0 | (1 << port.0))
    }

    /// Whether the two sets share a port.
    pub const fn intersects(self, other: PortSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Both sets together.
    pub const fn union(self, other: PortSet) -> PortSet {
        PortSet(self.0 | other.0)
    }

    /// Number of ports in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The set turned clockwise by `rot`.
    pub const fn rotated(self, rot: Rotation) -> PortSet {
        let shift = 3 * rot.quarter_turns() as u32;
        let ring = (self.0 & 0x0fff) as u32;
        let turned = ((ring << shift) | (ring >> (12 - shift))) & 0x0fff;
        PortSet(turned as u16 | (self.0 & 0x1000))
    }

    /// The ports in the set, in port order.
    pub fn iter(self) -> impl Iterator<Item = Port> {
        Port::all().filter(move |&p| self.contains(p))
    }
}

impl FromIterator<Port> for PortSet {
    fn from_iter<I: IntoIterator<Item = Port>>(iter: I) -> PortSet {
        iter.into_iter().fold(PortSet::EMPTY, PortSet::with)
    }
}

impl fmt::Display for PortSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Port::name).collect();
        f.write_str(&names.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Port {
        s.parse().unwrap()
    }

    #[test]
    fn facing_ports_touch_across_the_shared_side() {
        // The west half of my north edge touches the west half of the northern tile's south edge.
        assert_eq!(p("NL").facing(), Some(p("SR")));
        assert_eq!(p("NR").facing(), Some(p("SL")));
        assert_eq!(p("EL").facing(), Some(p("WR")));
        assert_eq!(p("ER").facing(), Some(p("WL")));
        assert_eq!(p("N").facing(), Some(p("S")));
        assert_eq!(p("W").facing(), Some(p("E")));
        assert_eq!(Port::CENTRE.facing(), None);
        for port in Port::all().take(12) {
            assert_eq!(port.facing().and_then(Port::facing), Some(port));
        }
    }

    #[test]
    fn clockwise_rotation_keeps_left_and_right() {
        assert_eq!(p("NL").rotated(Rotation::R90), p("EL"));
        assert_eq!(p("WR").rotated(Rotation::R90), p("NR"));
        assert_eq!(p("S").rotated(Rotation::R270), p("E"));
        assert_eq!(Port::CENTRE.rotated(Rotation::R180), Port::CENTRE);
        let set: PortSet = [p("N"), p("WR"), Port::CENTRE].into_iter().collect();
        let turned: PortSet = [p("E"), p("NR"), Port::CENTRE].into_iter().collect();
        assert_eq!(set.rotated(Rotation::R90), turned);
        assert_eq!(set.rotated(Rotation::R0), set);
    }

    #[test]
    fn names_round_trip_and_bad_names_are_errors() {
        for port in Port::all() {
            assert_eq!(port.name().parse::<Port>(), Ok(port));
        }
        assert!("NE".parse::<Port>().is_err());
        assert!("".parse::<Port>().is_err());
    }

    #[test]
    fn directions_and_rotations_compose() {
        assert_eq!(Dir::N.rotated(Rotation::R90), Dir::E);
        assert_eq!(Dir::W.opposite(), Dir::E);
        assert_eq!(Dir::S.port(), p("S"));
        assert_eq!(Rotation::R90.inverse(), Rotation::R270);
        assert_eq!(Rotation::from_degrees(180), Some(Rotation::R180));
        assert_eq!(Rotation::from_degrees(45), None);
    }
}

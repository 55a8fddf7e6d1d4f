//! Tile types: the features printed on a tile and what its edges show.

use std::fmt;

use super::port::{Dir, Port, PortSet, Rotation};

/// What a feature on a tile is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    /// A road segment; a follower on it is a thief.
    Road,
    /// A city segment; a follower on it is a knight.
    City,
    /// A cloister in the tile centre; a follower on it is a monk.
    Cloister,
    /// A field segment; a follower on it is a farmer.
    Field,
}

impl FeatureKind {
    /// The lower-case name used in records and reports.
    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Cloister => "cloister",
            FeatureKind::Field => "field",
        }
    }

    /// The kind with the given lower-case name.
    pub fn from_name(name: &str) -> Option<FeatureKind> {
        match name {
            "road" => Some(FeatureKind::Road),
            "city" => Some(FeatureKind::City),
            "cloister" => Some(FeatureKind::Cloister),
            "field" => Some(FeatureKind::Field),
            _ => None,
        }
    }
}

impl fmt::Display for FeatureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a tile shows along one side; neighbours must agree on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Only field.
    Field,
    /// A road reaches the edge centre.
    Road,
    /// A city covers the edge.
    City,
    /// A river crosses the edge (The River).
    River,
}

/// A kind of trade goods printed in cities (Traders & Builders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Good {
    /// Wine.
    Wine,
    /// Wheat (JCloisterZone: grain).
    Wheat,
    /// Cloth (the Big Box: fabric).
    Cloth,
}

impl Good {
    /// All kinds, in token order.
    pub const ALL: [Good; 3] = [Good::Wine, Good::Wheat, Good::Cloth];

    /// Index into per-kind tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used in the data and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Good::Wine => "wine",
            Good::Wheat => "wheat",
            Good::Cloth => "cloth",
        }
    }
}

impl fmt::Display for Good {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A printed detail that changes scoring. Expansions add variants here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// A coat of arms on a city segment.
    Pennant,
    /// An inn by a lake beside a road segment (Inns & Cathedrals).
    Inn,
    /// A cathedral in a city segment (Inns & Cathedrals).
    Cathedral,
    /// A goods symbol in a city segment (Traders & Builders).
    Goods(Good),
    /// A pig-herd in a field (River II; it scores with Traders & Builders).
    PigHerd,
}

impl Attr {
    /// The attribute with the given name in the catalogue data.
    pub fn from_name(name: &str) -> Option<Attr> {
        match name {
            "pennant" => Some(Attr::Pennant),
            "inn" => Some(Attr::Inn),
            "cathedral" => Some(Attr::Cathedral),
            "pigherd" => Some(Attr::PigHerd),
            _ => Good::ALL
                .into_iter()
                .find(|g| g.name() == name)
                .map(Attr::Goods),
        }
    }
}

/// The river printed on a tile (The River): no feature, no follower, no points, but an edge kind
/// of its own and a barrier between fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverDef {
    /// The edge centres it crosses: one for a spring or lake, two for a stretch, three for a fork.
    pub ports: PortSet,
    /// Whether it joins the features that meet in the tile centre (a road or city ending at the
    /// river bank), so that together they divide the fields.
    pub reaches_centre: bool,
}

/// One feature of a tile type, in the tile's canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// What the feature is.
    pub kind: FeatureKind,
    /// Where it reaches the boundary (edge centres for roads and cities, half-edges for
    /// fields, the centre for cloisters).
    pub ports: PortSet,
    /// Printed details on this feature.
    pub attrs: Vec<Attr>,
    /// Whether the feature reaches the tile centre (a road ending at a junction, a cloister, or a
    /// city whose road ends at its wall); centre-reaching features together divide the fields.
    pub reaches_centre: bool,
    /// For fields: indices (into the tile's features) of the cities this field touches.
    pub cities: Vec<usize>,
    /// For cities: drawn as a bridge over the river, so it does not divide the fields beneath.
    pub bridge: bool,
}

impl FeatureDef {
    /// How many times `attr` is printed on this feature.
    pub fn count(&self, attr: Attr) -> u32 {
        self.attrs.iter().filter(|&&a| a == attr).count() as u32
    }
}

/// Index of a tile type in the [`Catalogue`](super::catalogue::Catalogue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId(pub(crate) u16);

impl TileId {
    /// The index into the catalogue's tile list.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A kind of tile: its features in canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileType {
    /// Our id: the rulebook letter for base tiles (`"D"`).
    pub name: String,
    /// JCloisterZone ids that denote this tile (`"BA/RCr"`).
    pub aliases: Vec<String>,
    /// All features, fields included.
    pub features: Vec<FeatureDef>,
    /// The river, if the tile shows one.
    pub river: Option<RiverDef>,
    /// A hill lies under the whole tile (Hills & Sheep): a tile slides under it, and its
    /// followers break ties.
    pub hill: bool,
    /// A vineyard is printed on the tile (Hills & Sheep): +3 for each completed cloister around.
    pub vineyard: bool,
    /// An edge centre that a second city reaches too (Hills & Sheep's HS2: its small city
    /// touches the big one's edge), and that city's index: a city across that edge joins both.
    pub shared_edge: Option<(Port, usize)>,
    edges: [EdgeKind; 4],
    port_feature: [Option<u8>; Port::COUNT],
}

impl TileType {
    /// Builds a tile type; the features' ports must not overlap.
    pub(crate) fn new(
        name: String,
        aliases: Vec<String>,
        features: Vec<FeatureDef>,
        river: Option<RiverDef>,
    ) -> TileType {
        let mut port_feature = [None; Port::COUNT];
        for (i, f) in features.iter().enumerate() {
            for p in f.ports.iter() {
                port_feature[p.index()] = Some(i as u8);
            }
        }
        let edges = Dir::ALL.map(|d| {
            match port_feature[d.port().index()].map(|i| features[i as usize].kind) {
                Some(FeatureKind::Road) => EdgeKind::Road,
                Some(FeatureKind::City) => EdgeKind::City,
                _ if river.is_some_and(|r| r.ports.contains(d.port())) => EdgeKind::River,
                _ => EdgeKind::Field,
            }
        });
        TileType {
            name,
            aliases,
            features,
            river,
            hill: false,
            vineyard: false,
            shared_edge: None,
            edges,
            port_feature,
        }
    }

    /// What the tile shows on side `dir` when placed with rotation `rot`.
    pub fn edge(&self, dir: Dir, rot: Rotation) -> EdgeKind {
        self.edges[dir.rotated(rot.inverse()).index()]
    }

    /// The index of the feature that owns `port` (canonical orientation), if any.
    pub fn feature_at(&self, port: Port) -> Option<usize> {
        self.port_feature[port.index()].map(usize::from)
    }

    /// The index of the feature that owns `port` when the tile lies with rotation `rot`.
    pub fn feature_at_rotated(&self, port: Port, rot: Rotation) -> Option<usize> {
        self.feature_at(port.rotated(rot.inverse()))
    }

    /// The second feature that reaches `port` (board frame) when the tile lies with rotation
    /// `rot` (see [`TileType::shared_edge`]).
    pub fn also_at_rotated(&self, port: Port, rot: Rotation) -> Option<usize> {
        self.shared_edge
            .filter(|&(p, _)| p == port.rotated(rot.inverse()))
            .map(|(_, f)| f)
    }

    /// Total printed `attr` over all features.
    pub fn count(&self, attr: Attr) -> u32 {
        self.features.iter().map(|f| f.count(attr)).sum()
    }

    /// The sides the river crosses when the tile lies with rotation `rot` (empty without one).
    pub fn river_sides(&self, rot: Rotation) -> impl Iterator<Item = Dir> + '_ {
        Dir::ALL
            .into_iter()
            .filter(move |&d| self.edge(d, rot) == EdgeKind::River)
    }
}

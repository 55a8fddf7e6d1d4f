//! Features that span tiles: roads, cities, cloisters and farms as they grow on the board.
//!
//! Every feature printed on a placed tile is a node; nodes that connect across tile edges are
//! merged (union–find), and each group keeps what scoring needs.

use super::figure::Figure;
use super::player::PlayerId;
use super::tile::FeatureKind;

/// Index of a feature group in the [`FeatureGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub(crate) u32);

/// A follower standing on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupant {
    /// Its owner.
    pub player: PlayerId,
    /// The tile (index in laying order) it stands on.
    pub tile: u32,
    /// The feature node (on that tile) it stands on.
    pub node: u32,
    /// Which figure (a large follower counts twice in a majority).
    pub figure: Figure,
}

/// What is known about one connected feature.
#[derive(Clone, Debug)]
pub struct Feature {
    /// Road, city, cloister or field.
    pub kind: FeatureKind,
    /// Tiles (indices in laying order) the feature covers, possibly with repeats.
    tiles: Vec<u32>,
    /// Boundary ports not yet joined to a neighbour: edge centres of roads and cities,
    /// half-edges of fields.
    open_edges: u32,
    /// Pennants printed on the feature.
    pub pennants: u32,
    /// Inns printed beside the road (Inns & Cathedrals).
    pub inns: u32,
    /// Cathedrals printed in the city (Inns & Cathedrals).
    pub cathedrals: u32,
    /// Goods symbols printed in the city, by [`Good::index`](super::tile::Good::index)
    /// (Traders & Builders).
    pub goods: [u32; 3],
    /// Pig-herds printed in the farm (River II).
    pub pig_herds: u32,
    /// Figures standing on it: followers, builders or pigs beside their owners' followers, and
    /// shepherds on fields.
    pub occupants: Vec<Occupant>,
    /// For fields: the sheep tokens of its flock, by number of sheep (Hills & Sheep).
    pub flock: Vec<u8>,
    /// For fields: sheep printed on its tiles (River III with Hills & Sheep); they never leave.
    pub printed_sheep: u32,
    /// For fields: nodes of the cities the field touches.
    pub(crate) city_nodes: Vec<u32>,
    /// Set once the feature has been scored as completed.
    pub scored: bool,
}

impl Feature {
    /// A feature as printed on one tile, with no marks.
    pub(crate) fn new(kind: FeatureKind, tile: u32, open_edges: u32) -> Feature {
        Feature {
            kind,
            tiles: vec![tile],
            open_edges,
            pennants: 0,
            inns: 0,
            cathedrals: 0,
            goods: [0; 3],
            pig_herds: 0,
            occupants: Vec::new(),
            flock: Vec::new(),
            printed_sheep: 0,
            city_nodes: Vec::new(),
            scored: false,
        }
    }

    /// Whether a road or city has no open edge left (cloisters are checked on the board).
    pub fn is_closed(&self) -> bool {
        matches!(self.kind, FeatureKind::Road | FeatureKind::City) && self.open_edges == 0
    }

    /// Whether a field is closed on every side: no tile can extend it any more.
    pub fn is_closed_field(&self) -> bool {
        self.kind == FeatureKind::Field && self.open_edges == 0
    }

    /// The distinct tiles (indices in laying order) the feature covers, sorted.
    pub fn tiles(&self) -> Vec<u32> {
        let mut t = self.tiles.clone();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Sheep in a field: its flock's tokens and the sheep printed on its tiles.
    pub fn sheep(&self) -> u32 {
        self.flock.iter().map(|&n| u32::from(n)).sum::<u32>() + self.printed_sheep
    }

    /// Whether a follower (not a builder or pig) stands on it.
    pub fn is_occupied(&self) -> bool {
        self.occupants.iter().any(|o| o.figure.is_follower())
    }

    /// Whether one of `player`'s followers stands on it.
    pub fn has_follower_of(&self, player: PlayerId) -> bool {
        self.occupants
            .iter()
            .any(|o| o.player == player && o.figure.is_follower())
    }

    /// Whether one of `player`'s figures of kind `figure` stands on it.
    pub fn has(&self, player: PlayerId, figure: Figure) -> bool {
        self.occupants
            .iter()
            .any(|o| o.player == player && o.figure == figure)
    }

    /// Players holding the majority of followers on the feature (empty if unoccupied).
    pub fn majority(&self, players: usize) -> Vec<PlayerId> {
        let mut strength = vec![0u32; players];
        for o in &self.occupants {
            strength[o.player.index()] += o.figure.strength();
        }
        let best = strength.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return Vec::new();
        }
        (0..players)
            .filter(|&p| strength[p] == best)
            .map(|p| PlayerId(p as u8))
            .collect()
    }

    fn absorb(&mut self, other: Feature) {
        self.tiles.extend(other.tiles);
        self.open_edges += other.open_edges;
        self.pennants += other.pennants;
        self.inns += other.inns;
        self.cathedrals += other.cathedrals;
        for (a, b) in self.goods.iter_mut().zip(other.goods) {
            *a += b;
        }
        self.pig_herds += other.pig_herds;
        self.occupants.extend(other.occupants);
        self.flock.extend(other.flock);
        self.printed_sheep += other.printed_sheep;
        self.city_nodes.extend(other.city_nodes);
        self.scored |= other.scored;
    }
}

/// All feature nodes on the board and the groups they form.
#[derive(Clone, Debug, Default)]
pub struct FeatureGraph {
    parent: Vec<u32>,
    groups: Vec<Option<Feature>>,
}

impl FeatureGraph {
    /// Adds a node of its own group; returns its index.
    pub(crate) fn add(&mut self, feature: Feature) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.groups.push(Some(feature));
        id
    }

    /// Number of nodes.
    pub fn len(&self) -> u32 {
        self.parent.len() as u32
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The group a node belongs to.
    pub fn find(&mut self, node: u32) -> FeatureId {
        let mut root = node;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        let mut n = node;
        while self.parent[n as usize] != root {
            let next = self.parent[n as usize];
            self.parent[n as usize] = root;
            n = next;
        }
        FeatureId(root)
    }

    /// The group a node belongs to, without path compression.
    pub fn root(&self, node: u32) -> FeatureId {
        let mut root = node;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        FeatureId(root)
    }

    /// Joins two nodes across a tile edge; `closes` boundary ports are matched by the join (two:
    /// one on each side; one where a second city reaches a shared edge).
    pub(crate) fn join(&mut self, a: u32, b: u32, closes: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (keep, drop) = if self.size(ra) >= self.size(rb) {
                (ra, rb)
            } else {
                (rb, ra)
            };
            let absorbed = self.groups[drop.0 as usize]
                .take()
                .expect("a root holds its group");
            self.parent[drop.0 as usize] = keep.0;
            self.get_mut(keep).absorb(absorbed);
        }
        let root = self.find(a);
        let f = self.get_mut(root);
        f.open_edges = f.open_edges.saturating_sub(closes);
    }

    fn size(&self, id: FeatureId) -> usize {
        self.get(id).tiles.len()
    }

    /// The group data.
    pub fn get(&self, id: FeatureId) -> &Feature {
        self.groups[id.0 as usize]
            .as_ref()
            .expect("feature ids are roots")
    }

    /// The group data, mutably.
    pub(crate) fn get_mut(&mut self, id: FeatureId) -> &mut Feature {
        self.groups[id.0 as usize]
            .as_mut()
            .expect("feature ids are roots")
    }

    /// Every group, with its id.
    pub fn groups(&self) -> impl Iterator<Item = (FeatureId, &Feature)> {
        self.groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.as_ref().map(|g| (FeatureId(i as u32), g)))
    }
}

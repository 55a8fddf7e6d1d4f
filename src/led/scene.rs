//! What the LEDs show about a game, taken from the rules engine: the placed tiles by terrain,
//! where the tile in hand fits, the scores and whose turn it is.

use crate::rules::{Colour, Dir, EdgeKind, FeatureKind, Game, Pos, Rotation, TileId, TileType};

use super::rgb::Rgb;

/// What a tile mostly shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Mostly field.
    Field,
    /// Mostly road.
    Road,
    /// Mostly city.
    City,
    /// A cloister.
    Cloister,
}

impl Terrain {
    /// A cloister tile is a cloister; otherwise the kind most of its four edges show, ties going
    /// to city, then road.
    pub fn of(tile: &TileType) -> Terrain {
        if tile
            .features
            .iter()
            .any(|f| f.kind == FeatureKind::Cloister)
        {
            return Terrain::Cloister;
        }
        let count = |kind| {
            Dir::ALL
                .iter()
                .filter(|&&d| tile.edge(d, Rotation::R0) == kind)
                .count()
        };
        let (city, road, field) = (
            count(EdgeKind::City),
            count(EdgeKind::Road),
            count(EdgeKind::Field),
        );
        if city >= road && city >= field {
            Terrain::City
        } else if road >= field {
            Terrain::Road
        } else {
            Terrain::Field
        }
    }

    /// The colour marking the tile laid last.
    pub fn bright(self) -> Rgb {
        match self {
            Terrain::Field => Rgb::new(0, 192, 0),
            Terrain::Road => Rgb::new(160, 160, 160),
            Terrain::City => Rgb::new(255, 128, 0),
            Terrain::Cloister => Rgb::new(255, 0, 64),
        }
    }

    /// The colour of other placed tiles: a quarter of [`Terrain::bright`].
    pub fn dim(self) -> Rgb {
        self.bright().scaled(1, 4)
    }
}

/// A player's colour and score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Figure colour.
    pub colour: Colour,
    /// Points so far.
    pub score: u32,
}

/// A game as the LEDs show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// Placed tiles in the order laid, with their terrain.
    pub tiles: Vec<(Pos, Terrain)>,
    /// Empty cells beside the placed tiles.
    pub frontier: Vec<Pos>,
    /// Cells where the tile in hand fits (each once, sorted).
    pub legal: Vec<Pos>,
    /// The players in turn order.
    pub seats: Vec<Seat>,
    /// Whose turn it is (an index into `seats`).
    pub current: usize,
}

impl Scene {
    /// The scene of `game`; `colours` are the players' colours in turn order (missing ones get
    /// the default seat colours), `in_hand` the tile about to be laid, if known.
    pub fn new(game: &Game, colours: &[Colour], in_hand: Option<TileId>) -> Scene {
        let cat = game.catalogue();
        let tiles = game
            .board()
            .tiles()
            .iter()
            .map(|t| (t.placement.pos, Terrain::of(cat.tile(t.tile))))
            .collect();
        let mut legal: Vec<Pos> = in_hand
            .map(|tile| {
                game.legal_placements(tile)
                    .into_iter()
                    .map(|p| p.pos)
                    .collect()
            })
            .unwrap_or_default();
        legal.sort();
        legal.dedup();
        let seats = game
            .scores()
            .iter()
            .enumerate()
            .map(|(i, &score)| Seat {
                colour: colours
                    .get(i)
                    .copied()
                    .unwrap_or(Colour::ALL[i % Colour::ALL.len()]),
                score,
            })
            .collect();
        Scene {
            tiles,
            frontier: game.board().frontier().to_vec(),
            legal,
            seats,
            current: game.current_player().index(),
        }
    }

    /// The tile laid last; none while only the start tile lies.
    pub fn last(&self) -> Option<Pos> {
        (self.tiles.len() > 1).then(|| self.tiles[self.tiles.len() - 1].0)
    }
}

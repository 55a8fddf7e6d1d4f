//! The Wheel of Fortune during a game: a tile drawn with a wheel icon turns the wheel before it
//! is laid (the pig moves, the sector's action, the crowns there score: seed 000, steps 1–3),
//! and a player who puts no follower on their tile may put one on a vacant crown space.

use super::super::board::{Placement, Pos};
use super::super::expansions::traders;
use super::super::expansions::wheel::{
    crown_points, taxes, WheelData, FORTUNE_POINTS, INQUISITION_POINTS,
};
use super::super::feature::{Feature, FeatureId};
use super::super::figure::Figure;
use super::super::player::PlayerId;
use super::super::port::Port;
use super::super::scoring::{Cause, Scored};
use super::super::tile::{FeatureKind, TileId};
use super::{Game, IllegalMove, Meeple, Phase, Turn, TurnReport};

pub use super::super::expansions::wheel::Sector;

/// The wheel's state: where the pig stands, who is on the crowns, which icons are left.
#[derive(Clone, Debug)]
pub(crate) struct WheelState {
    data: &'static WheelData,
    /// Index of the pig's sector in `data.sectors`.
    pig: usize,
    /// Per sector (as `data.sectors`), the followers on its crown spaces.
    crowns: Vec<Vec<(PlayerId, Figure)>>,
    /// Per tile type, copies still in the bag with each icon value.
    icons: Vec<(TileId, [u8; 3])>,
    /// The tile whose icon turned the wheel in this draw, until it is laid or discarded.
    spun: Option<TileId>,
    /// The follower put on a crown this turn, until the turn ends.
    crowned: Option<(Sector, Figure)>,
}

impl WheelState {
    /// The wheel at the start: the pig on the first sector listed (Fortune), no crown taken.
    pub(crate) fn new(data: &'static WheelData, remaining: &[u8]) -> WheelState {
        let icons = data
            .icons
            .iter()
            .map(|&(t, n)| {
                // A box with fewer copies than the data lists keeps the lower values.
                let mut left = remaining[t.index()];
                (
                    t,
                    n.map(|c| {
                        let kept = c.min(left);
                        left -= kept;
                        kept
                    }),
                )
            })
            .collect();
        WheelState {
            data,
            pig: 0,
            crowns: vec![Vec::new(); data.sectors.len()],
            icons,
            spun: None,
            crowned: None,
        }
    }

    fn icons_mut(&mut self, tile: TileId) -> Option<&mut [u8; 3]> {
        self.icons
            .iter_mut()
            .find(|(t, _)| *t == tile)
            .map(|(_, n)| n)
    }

    fn sector_index(&self, sector: Sector) -> usize {
        self.data
            .sectors
            .iter()
            .position(|&(s, _)| s == sector)
            .expect("the data lists every sector")
    }
}

/// The wheel inputs of one turn, as a record or the camera gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spin {
    /// The drawn tile's wheel icon (1–3).
    pub icon: u8,
    /// Pestilence: for each player from the active one clockwise, the follower they return (its
    /// cell and a port of its feature there), or `None` for a player with none on a land tile.
    pub pestilence: Vec<Option<(Pos, Port)>>,
}

/// A follower on a crown space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrownFollower {
    /// The sector.
    pub sector: Sector,
    /// Its owner.
    pub player: PlayerId,
    /// Which follower.
    pub figure: Figure,
}

impl Game {
    /// Where the pig stands (`None` without the Wheel of Fortune).
    pub fn pig(&self) -> Option<Sector> {
        let w = self.wheel.as_ref()?;
        Some(w.data.sectors[w.pig].0)
    }

    /// The followers on crown spaces.
    pub fn crown_followers(&self) -> Vec<CrownFollower> {
        let Some(w) = &self.wheel else {
            return Vec::new();
        };
        w.crowns
            .iter()
            .enumerate()
            .flat_map(|(i, on)| {
                on.iter().map(move |&(player, figure)| CrownFollower {
                    sector: w.data.sectors[i].0,
                    player,
                    figure,
                })
            })
            .collect()
    }

    /// Sectors with a vacant crown space.
    pub fn vacant_crowns(&self) -> Vec<Sector> {
        let Some(w) = &self.wheel else {
            return Vec::new();
        };
        w.data
            .sectors
            .iter()
            .zip(&w.crowns)
            .filter(|((_, spaces), on)| on.len() < usize::from(*spaces))
            .map(|((s, _), _)| *s)
            .collect()
    }

    /// Copies of `tile` left in the bag with a wheel icon of value 1, 2 and 3.
    pub fn icons_left(&self, tile: TileId) -> [u8; 3] {
        self.wheel.as_ref().map_or([0; 3], |w| {
            w.icons
                .iter()
                .find(|(t, _)| *t == tile)
                .map_or([0; 3], |&(_, n)| n)
        })
    }

    /// The followers `player` could return to Pestilence: theirs on land tiles.
    pub fn pestilence_choices(&self, player: PlayerId) -> Vec<Meeple> {
        self.meeples()
            .into_iter()
            .filter(|m| m.player == player && m.figure.is_follower())
            .collect()
    }

    /// Turns the wheel for `tile`, drawn showing a wheel icon, before it is laid: the pig moves
    /// `spin.icon` sectors clockwise, the sector's action is carried out, and the followers on
    /// its crowns score and go home (seed 000, steps 1–3). The event stands even if the tile is
    /// then discarded (seed 004, footnote 4).
    pub fn spin(&mut self, tile: TileId, spin: &Spin) -> Result<TurnReport, IllegalMove> {
        self.expect_place_phase()?;
        self.can_draw(tile)?;
        let name = || self.cat.tile(tile).name.clone();
        let Some(w) = &self.wheel else {
            return Err(IllegalMove::Wheel(
                "the Wheel of Fortune is not in play".into(),
            ));
        };
        if w.spun.is_some() {
            return Err(IllegalMove::Wheel(
                "the wheel already turned for this tile".into(),
            ));
        }
        if !(1..=3).contains(&spin.icon) {
            return Err(IllegalMove::Wheel(format!(
                "a wheel icon shows 1, 2 or 3, not {}",
                spin.icon
            )));
        }
        let left = self.icons_left(tile)[usize::from(spin.icon - 1)];
        if left == 0 {
            return Err(IllegalMove::Wheel(format!(
                "no tile {} with wheel icon {} is left",
                name(),
                spin.icon
            )));
        }
        let sector = self.sector_after(spin.icon).expect("checked above");
        if sector != Sector::Pestilence && !spin.pestilence.is_empty() {
            return Err(IllegalMove::Wheel(format!(
                "the pig stops on {sector}: no follower returns to Pestilence"
            )));
        }
        // Pestilence choices may be refused part-way: carry the turn out on a copy.
        let mut next = self.clone();
        let report = next.turn_wheel(tile, sector, spin)?;
        *self = next;
        Ok(report)
    }

    fn turn_wheel(
        &mut self,
        tile: TileId,
        sector: Sector,
        spin: &Spin,
    ) -> Result<TurnReport, IllegalMove> {
        let w = self.wheel.as_mut().expect("checked by spin");
        w.pig = w.sector_index(sector);
        w.icons_mut(tile).expect("checked by spin")[usize::from(spin.icon - 1)] -= 1;
        w.spun = Some(tile);
        let mut report = TurnReport {
            spin: Some(spin.clone()),
            ..TurnReport::default()
        };
        match sector {
            Sector::Fortune => {
                let shares = [(self.current, FORTUNE_POINTS)];
                self.award(
                    &shares,
                    Scored::Wheel(sector),
                    Vec::new(),
                    Cause::Wheel,
                    &mut report,
                );
            }
            Sector::Taxes => self.per_feature(FeatureKind::City, sector, &mut report, |f, n| {
                taxes(n, f.pennants)
            }),
            Sector::Famine => self.famine(&mut report),
            Sector::Storm => {
                let shares: Vec<(PlayerId, u32)> = (0..self.players())
                    .map(|p| PlayerId(p as u8))
                    .map(|p| {
                        let n = Figure::ALL
                            .into_iter()
                            .filter(|f| f.is_follower())
                            .map(|f| u32::from(self.figures(p, f)))
                            .sum();
                        (p, n)
                    })
                    .filter(|&(_, n)| n > 0)
                    .collect();
                self.award(
                    &shares,
                    Scored::Wheel(sector),
                    Vec::new(),
                    Cause::Wheel,
                    &mut report,
                );
            }
            Sector::Inquisition => {
                self.per_feature(FeatureKind::Cloister, sector, &mut report, |_, n| {
                    INQUISITION_POINTS * n
                })
            }
            Sector::Pestilence => self.pestilence(&spin.pestilence, &mut report)?,
        }
        self.score_crowns(&mut report);
        Ok(report)
    }

    /// Scores every feature of `kind` for each player with followers on it: `points(f, n)` for
    /// `n` followers (a large follower is one follower: seed 000 counts followers, not
    /// strength).
    fn per_feature(
        &mut self,
        kind: FeatureKind,
        sector: Sector,
        report: &mut TurnReport,
        points: impl Fn(&Feature, u32) -> u32,
    ) {
        let features: Vec<FeatureId> = self
            .graph
            .groups()
            .filter(|(_, f)| f.kind == kind && f.occupants.iter().any(|o| o.figure.is_follower()))
            .map(|(id, _)| id)
            .collect();
        for id in features {
            let f = self.graph.get(id);
            let shares = self.followers_per_player(f, |n| points(f, n));
            let tiles = self.cells(f);
            self.award(&shares, Scored::Wheel(sector), tiles, Cause::Wheel, report);
        }
    }

    /// Each player with followers on `f`, with `points(n)` for their `n` followers.
    fn followers_per_player(
        &self,
        f: &Feature,
        points: impl Fn(u32) -> u32,
    ) -> Vec<(PlayerId, u32)> {
        (0..self.players())
            .map(|p| PlayerId(p as u8))
            .filter_map(|p| {
                let n = f
                    .occupants
                    .iter()
                    .filter(|o| o.player == p && o.figure.is_follower())
                    .count() as u32;
                (n > 0).then(|| (p, points(n))).filter(|&(_, pts)| pts > 0)
            })
            .collect()
    }

    /// Famine: each farmer scores 1 per completed city in its farm, no majority needed (seed
    /// 000); the pig and pig-herd add their point per city to a player with a farmer there (seed
    /// 004, footnote 7); with `famine_majority`, only the majority scores, 1 per city.
    fn famine(&mut self, report: &mut TurnReport) {
        let expansions = self.expansions;
        for (farm, cities) in self.farms_and_cities() {
            let cities = cities.len() as u32;
            let f = self.graph.get(farm);
            let shares: Vec<(PlayerId, u32)> = if self.options.famine_majority {
                self.majority(f)
                    .into_iter()
                    .map(|p| {
                        (
                            p,
                            cities * traders::farm_points_per_city(1, f, p, expansions),
                        )
                    })
                    .filter(|&(_, pts)| pts > 0)
                    .collect()
            } else {
                let shares = self.followers_per_player(f, |n| n);
                shares
                    .into_iter()
                    .map(|(p, n)| {
                        let bonus = traders::farm_points_per_city(0, f, p, expansions);
                        (p, cities * (n + bonus))
                    })
                    .filter(|&(_, pts)| pts > 0)
                    .collect()
            };
            let tiles = self.cells(f);
            self.award(
                &shares,
                Scored::Wheel(Sector::Famine),
                tiles,
                Cause::Wheel,
                report,
            );
        }
    }

    /// Pestilence: each player, the active one first, then clockwise, returns the follower they
    /// chose from a land tile (crown followers are safe); a builder or pig left without its
    /// owner's follower goes home too (seed 000, Traders & Builders).
    fn pestilence(
        &mut self,
        choices: &[Option<(Pos, Port)>],
        report: &mut TurnReport,
    ) -> Result<(), IllegalMove> {
        let n = self.players();
        if choices.len() != n {
            return Err(IllegalMove::Wheel(format!(
                "Pestilence needs one choice per player ({n}), active player first; got {}",
                choices.len()
            )));
        }
        for (i, choice) in choices.iter().enumerate() {
            let player = PlayerId(((self.current.index() + i) % n) as u8);
            let has = !self.pestilence_choices(player).is_empty();
            let Some((pos, port)) = *choice else {
                if has {
                    return Err(IllegalMove::Wheel(format!(
                        "player {} must return a follower from a land tile",
                        player.0
                    )));
                }
                continue;
            };
            let node = self
                .board
                .get(pos)
                .and_then(|t| {
                    let ty = self.cat.tile(t.tile);
                    let local = ty.feature_at_rotated(port, t.placement.rot)?;
                    Some(t.first_node + local as u32)
                })
                .ok_or(IllegalMove::NoFeature(port))?;
            let root = self.graph.find(node);
            let f = self.graph.get(root);
            let at = f
                .occupants
                .iter()
                .position(|o| o.node == node && o.player == player && o.figure.is_follower())
                .ok_or_else(|| {
                    IllegalMove::Wheel(format!(
                        "player {} has no follower at {pos} port {port}",
                        player.0
                    ))
                })?;
            let mut gone = vec![f.occupants[at]];
            let f = self.graph.get_mut(root);
            f.occupants.remove(at);
            if !f.has_follower_of(player) {
                let (kept, left): (Vec<_>, Vec<_>) = f.occupants.iter().partition(|o| {
                    o.player != player || !matches!(o.figure, Figure::Builder | Figure::Pig)
                });
                f.occupants = kept;
                gone.extend(left);
            }
            for o in gone {
                report.returned.push(self.meeple(&o));
                self.supply[o.player.index()][o.figure.index()] += 1;
            }
        }
        Ok(())
    }

    /// The followers on the crowns of the pig's sector score and go home (seed 000, step 3).
    fn score_crowns(&mut self, report: &mut TurnReport) {
        let w = self.wheel.as_mut().expect("the wheel is in play");
        let spaces = w.data.sectors[w.pig].1;
        let on = std::mem::take(&mut w.crowns[w.pig]);
        let points = crown_points(spaces, on.len());
        for (player, figure) in on {
            self.award(
                &[(player, points)],
                Scored::Crown,
                Vec::new(),
                Cause::Wheel,
                report,
            );
            self.supply[player.index()][figure.index()] += 1;
        }
    }

    /// Puts one of the current player's followers on a vacant crown space of `sector`, instead
    /// of a figure on the tile just laid (seed 000, "Placing a follower").
    pub fn deploy_crown(&mut self, sector: Sector, figure: Figure) -> Result<(), IllegalMove> {
        let Phase::Deploy {
            tile,
            deployed,
            builder,
        } = self.phase
        else {
            return Err(IllegalMove::OutOfOrder("a follower comes after its tile"));
        };
        if deployed {
            return Err(IllegalMove::OutOfOrder("only one figure per turn"));
        }
        if !figure.is_follower() {
            return Err(IllegalMove::Wheel(format!(
                "only followers go on crowns, not a {}",
                figure.noun()
            )));
        }
        if self.figures(self.current, figure) == 0 {
            return Err(IllegalMove::NoFigureLeft(self.current.0, figure));
        }
        if !self.vacant_crowns().contains(&sector) {
            let why = match &self.wheel {
                Some(_) => format!("no crown space of {sector} is vacant"),
                None => "the Wheel of Fortune is not in play".into(),
            };
            return Err(IllegalMove::Wheel(why));
        }
        let w = self.wheel.as_mut().expect("a vacant crown means a wheel");
        let i = w.sector_index(sector);
        w.crowns[i].push((self.current, figure));
        w.crowned = Some((sector, figure));
        self.supply[self.current.index()][figure.index()] -= 1;
        self.phase = Phase::Deploy {
            tile,
            deployed: true,
            builder,
        };
        Ok(())
    }

    /// Plays a whole turn whose follower goes on a crown of `sector` (the turn names none on
    /// the tile), with `under` slid under a hill tile; a refused turn leaves the game as it was.
    pub fn play_crowned(
        &mut self,
        turn: Turn,
        sector: Sector,
        figure: Figure,
        under: Option<TileId>,
    ) -> Result<TurnReport, IllegalMove> {
        let Turn::Place {
            tile,
            placement,
            follower: None,
            flock,
        } = turn
        else {
            return Err(IllegalMove::Wheel(
                "a follower goes on a crown only from a laid tile with no follower on it".into(),
            ));
        };
        self.expect_place_phase()?;
        let mut next = self.clone();
        next.place(tile, placement)?;
        if let Some(under) = under {
            next.slide_under(under)?;
        }
        next.deploy_crown(sector, figure)?;
        let mut report = TurnReport::default();
        for action in flock.iter() {
            let part = next.flock(action)?;
            report.events.extend(part.events);
            report.returned.extend(part.returned);
        }
        let end = next.end_turn()?;
        report.events.extend(end.events);
        report.returned.extend(end.returned);
        report.goods = end.goods;
        report.extra_turn = end.extra_turn;
        report.crown = end.crown;
        *self = next;
        Ok(report)
    }

    /// Checks a tile about to be laid or discarded against the wheel: after a wheel turn, the
    /// tile it turned for. (Which copy of a tile type shows an icon only the table sees, so a
    /// tile laid without a wheel turn is taken as a copy without one.)
    pub(super) fn check_wheel_draw(&self, tile: TileId) -> Result<(), IllegalMove> {
        match self.wheel.as_ref().and_then(|w| w.spun) {
            Some(t) if t != tile => Err(IllegalMove::Wheel(format!(
                "the wheel turned for tile {}: lay or discard that tile",
                self.cat.tile(t).name
            ))),
            _ => Ok(()),
        }
    }

    /// The sector the pig would stop on if the wheel turned `icon` sectors now.
    pub fn sector_after(&self, icon: u8) -> Option<Sector> {
        let w = self.wheel.as_ref()?;
        let n = w.data.sectors.len();
        Some(w.data.sectors[(w.pig + usize::from(icon)) % n].0)
    }

    /// The tiles a road or city counts when scored: the Wheel of Fortune's board cells only with
    /// `wheel_board_cells` (they are the first 16 tiles laid).
    pub(super) fn scored_tiles(&self, f: &Feature) -> u32 {
        let tiles = f.tiles();
        let board = match &self.wheel {
            Some(w) if !self.options.wheel_board_cells => tiles
                .iter()
                .filter(|&&t| (t as usize) < w.data.board.len())
                .count(),
            _ => 0,
        };
        (tiles.len() - board) as u32
    }

    /// The crown a follower went on this turn, taken as the turn ends.
    pub(super) fn take_crowned(&mut self) -> Option<(Sector, Figure)> {
        self.wheel.as_mut().and_then(|w| w.crowned.take())
    }

    /// The drawn tile is laid or discarded: the next draw may turn the wheel again.
    pub(super) fn wheel_tile_taken(&mut self) {
        if let Some(w) = &mut self.wheel {
            w.spun = None;
        }
    }

    /// The start: the Wheel of Fortune's board cells when it is in play, else the start tile.
    pub(super) fn start_tiles(
        data: Option<&WheelData>,
        start: TileId,
        at: Placement,
    ) -> Vec<(TileId, Placement)> {
        match data {
            Some(data) => data.cells(at),
            None => vec![(start, at)],
        }
    }
}

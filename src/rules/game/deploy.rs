//! Where figures may stand on the tile just laid (or about to be laid), and deploying them.

use super::super::board::Placement;
use super::super::expansions::traders::{self, Refusal};
use super::super::feature::{Feature, FeatureId, Occupant};
use super::super::figure::{Figure, Figures};
use super::super::port::{Dir, Port};
use super::super::tile::{FeatureKind, TileId};
use super::{links, side_ports, Deploy, FollowerSpot, Game, IllegalMove, Phase};

impl Game {
    /// Where the current player may put a figure on the tile just laid, with the figures in
    /// supply that may stand there.
    pub fn follower_spots(&self) -> Vec<FollowerSpot> {
        let Phase::Deploy {
            tile,
            deployed: false,
            ..
        } = self.phase
        else {
            return Vec::new();
        };
        if !self.has_figure() {
            return Vec::new();
        }
        let placed = self.board.tiles()[tile as usize];
        let ty = self.cat.tile(placed.tile);
        ty.features
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let group = self
                    .graph
                    .get(self.graph.root(placed.first_node + i as u32));
                let figures = self.figures_on(group);
                (!figures.is_empty()).then(|| FollowerSpot {
                    kind: f.kind,
                    ports: f.ports.rotated(placed.placement.rot),
                    figures,
                })
            })
            .collect()
    }

    /// Where a figure could stand if `tile` were laid at `placement` now (a preview for showing
    /// the player; the placement itself is not checked).
    pub fn follower_spots_if(&self, tile: TileId, placement: Placement) -> Vec<FollowerSpot> {
        if self.phase != Phase::PlaceTile || !self.has_figure() {
            return Vec::new();
        }
        let ty = self.cat.tile(tile);
        ty.features
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let figures = self.figures_on(&self.joined(tile, placement, i));
                (!figures.is_empty()).then(|| FollowerSpot {
                    kind: f.kind,
                    ports: f.ports.rotated(placement.rot),
                    figures,
                })
            })
            .collect()
    }

    /// Puts one of the current player's figures of kind `figure` on the feature at `port`
    /// (board frame) of the tile just laid.
    pub fn deploy(&mut self, port: Port, figure: Figure) -> Result<(), IllegalMove> {
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
        let placed = self.board.tiles()[tile as usize];
        let ty = self.cat.tile(placed.tile);
        let local = ty
            .feature_at_rotated(port, placed.placement.rot)
            .ok_or(IllegalMove::NoFeature(port))?;
        let node = placed.first_node + local as u32;
        let root = self.graph.find(node);
        self.check_figure(figure, port, self.graph.get(root))?;
        let player = self.current;
        self.supply[player.index()][figure.index()] -= 1;
        if figure == Figure::Shepherd {
            self.flock_draw = Some(node);
        }
        self.graph.get_mut(root).occupants.push(Occupant {
            player,
            tile,
            node,
            figure,
        });
        self.phase = Phase::Deploy {
            tile,
            deployed: true,
            builder,
        };
        Ok(())
    }

    /// The figures in the current player's supply that may join feature `f` (of the tile just
    /// laid, or about to be).
    fn figures_on(&self, f: &Feature) -> Figures {
        Figure::ALL
            .into_iter()
            .filter(|&fig| self.figures(self.current, fig) > 0)
            .filter(|&fig| self.may_stand_on_fields(fig, f.kind))
            .filter(|&fig| traders::may_join(fig, self.current, f).is_ok())
            .collect()
    }

    /// Checks that the current player may put `figure` on feature `f` (named by `port`).
    fn check_figure(&self, figure: Figure, port: Port, f: &Feature) -> Result<(), IllegalMove> {
        let kind = f.kind;
        if !self.may_stand_on_fields(figure, kind) {
            return Err(IllegalMove::NoFarmers);
        }
        if self.figures(self.current, figure) == 0 {
            return Err(IllegalMove::NoFigureLeft(self.current.0, figure));
        }
        traders::may_join(figure, self.current, f).map_err(|why| match why {
            Refusal::WrongFeature => IllegalMove::WrongFeature(figure, kind),
            Refusal::Occupied => IllegalMove::Occupied(kind, port),
            Refusal::NoOwnFollower => IllegalMove::NoOwnFollower(figure, kind, port),
            Refusal::Shepherded => IllegalMove::Shepherded(port),
        })
    }

    /// Whether `figure` may stand on a feature of `kind` as far as the farmers option goes:
    /// without farmers only the shepherd goes into fields.
    fn may_stand_on_fields(&self, figure: Figure, kind: FeatureKind) -> bool {
        kind != FeatureKind::Field || self.options.farmers || figure == Figure::Shepherd
    }

    /// Checks a figure on `port` of a tile about to be laid, so that [`Game::play`] never
    /// leaves a half-played turn behind.
    pub(super) fn check_deploy_before_laying(
        &self,
        tile: TileId,
        placement: Placement,
        deploy: Deploy,
    ) -> Result<(), IllegalMove> {
        let local = self
            .cat
            .tile(tile)
            .feature_at_rotated(deploy.port, placement.rot)
            .ok_or(IllegalMove::NoFeature(deploy.port))?;
        self.check_figure(
            deploy.figure,
            deploy.port,
            &self.joined(tile, placement, local),
        )
    }

    /// Feature `local` of `tile` as it would be if laid at `placement`: its kind and the
    /// figures of every group it would join — directly, or through a neighbour's feature that
    /// links it to another feature of the same tile.
    fn joined(&self, tile: TileId, placement: Placement, local: usize) -> Feature {
        let ty = self.cat.tile(tile);
        let mut found: Vec<(usize, FeatureId)> = Vec::new();
        for side in Dir::ALL {
            let Some(n) = self.board.get(placement.pos.step(side)) else {
                continue;
            };
            let nty = self.cat.tile(n.tile);
            for p in side_ports(side) {
                let facing = p.facing().expect("boundary ports face a neighbour");
                for (a, b, _) in links(ty, placement, nty, n.placement, p, facing) {
                    found.push((a, self.graph.root(n.first_node + b as u32)));
                }
            }
        }
        let mut locals = vec![local];
        let mut groups: Vec<FeatureId> = Vec::new();
        let mut grew = true;
        while grew {
            grew = false;
            for &(a, g) in &found {
                match (locals.contains(&a), groups.contains(&g)) {
                    (true, false) => groups.push(g),
                    (false, true) => locals.push(a),
                    _ => continue,
                }
                grew = true;
            }
        }
        let mut f = Feature::new(ty.features[local].kind, 0, 0);
        for g in groups {
            f.occupants.extend_from_slice(&self.graph.get(g).occupants);
        }
        f
    }
}

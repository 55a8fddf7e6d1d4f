//! End-of-game scoring: incomplete roads, cities and cloisters, farms, then goods.

use super::super::expansions::traders::{self, GOODS_MAJORITY_POINTS};
use super::super::feature::{Feature, FeatureId};
use super::super::options::FarmScoring;
use super::super::scoring::{
    cloister_value, incomplete_value, Cause, ScoreEvent, Scored, FARM_POINTS_PER_CITY,
    FIRST_EDITION_POINTS_PER_CITY,
};
use super::super::tile::FeatureKind;
use super::{Game, IllegalMove, Phase, TurnReport};

impl Game {
    /// End-of-game scoring: incomplete roads, cities and cloisters, then farms, then the
    /// majorities of goods.
    pub fn finish(&mut self) -> Result<Vec<ScoreEvent>, IllegalMove> {
        match self.phase {
            Phase::Over => return Err(IllegalMove::GameOver),
            Phase::Deploy { .. } => {
                return Err(IllegalMove::OutOfOrder("end the turn before final scoring"))
            }
            Phase::PlaceTile => {}
        }
        let mut report = TurnReport::default();
        let open: Vec<FeatureId> = self
            .graph
            .groups()
            .filter(|(_, f)| !f.scored && f.is_occupied() && f.kind != FeatureKind::Field)
            .map(|(id, _)| id)
            .collect();
        for root in open {
            let f = self.graph.get(root);
            let points = match f.kind {
                FeatureKind::Cloister => {
                    let pos = self.board.tiles()[f.occupants[0].tile as usize]
                        .placement
                        .pos;
                    cloister_value(self.board.block_count(pos))
                }
                _ => incomplete_value(f, self.scored_tiles(f), &self.options, self.expansions),
            };
            self.score(root, points, Cause::Final, &mut report);
        }
        let farms = self.farms_and_cities();
        match self.options.farm_scoring {
            FarmScoring::PerFarm => {
                for (farm, cities) in farms {
                    let cities = cities.len() as u32;
                    let expansions = self.expansions;
                    let points = |f: &Feature, p| {
                        let each = FARM_POINTS_PER_CITY;
                        cities * traders::farm_points_per_city(each, f, p, expansions)
                    };
                    self.score_with(farm, points, Cause::Final, &mut report);
                }
            }
            FarmScoring::PerCity => self.score_cities_for_farmers(&farms, &mut report),
        }
        for (good, players) in traders::goods_majorities(&self.goods) {
            let shares: Vec<_> = players
                .into_iter()
                .map(|p| (p, GOODS_MAJORITY_POINTS))
                .collect();
            self.award(
                &shares,
                Scored::Goods(good),
                Vec::new(),
                Cause::Final,
                &mut report,
            );
        }
        self.phase = Phase::Over;
        Ok(report.events)
    }

    /// Every occupied farm with the completed cities it touches.
    pub(super) fn farms_and_cities(&self) -> Vec<(FeatureId, Vec<FeatureId>)> {
        self.graph
            .groups()
            .filter(|(_, f)| f.kind == FeatureKind::Field && f.is_occupied())
            .map(|(id, f)| {
                let mut cities: Vec<FeatureId> = f
                    .city_nodes
                    .iter()
                    .map(|&n| self.graph.root(n))
                    .filter(|&c| self.graph.get(c).is_closed())
                    .collect();
                cities.sort_unstable();
                cities.dedup();
                (id, cities)
            })
            .collect()
    }

    /// First-edition farm scoring: each completed city once, for the farmers on all farms
    /// that touch it (a pig or pig-herd on one of them adds its point as on a farm).
    fn score_cities_for_farmers(
        &mut self,
        farms: &[(FeatureId, Vec<FeatureId>)],
        report: &mut TurnReport,
    ) {
        let mut cities: Vec<FeatureId> = farms.iter().flat_map(|(_, c)| c.clone()).collect();
        cities.sort_unstable();
        cities.dedup();
        for city in cities {
            let mut supply = Feature::new(FeatureKind::Field, 0, 0);
            for (farm, touching) in farms {
                if touching.contains(&city) {
                    let f = self.graph.get(*farm);
                    supply.occupants.extend_from_slice(&f.occupants);
                    supply.pig_herds += f.pig_herds;
                }
            }
            let tiles = self.cells(self.graph.get(city));
            let shares: Vec<_> = self
                .majority(&supply)
                .into_iter()
                .map(|p| {
                    let each = FIRST_EDITION_POINTS_PER_CITY;
                    let points = traders::farm_points_per_city(each, &supply, p, self.expansions);
                    (p, points)
                })
                .collect();
            let field = Scored::Feature(FeatureKind::Field);
            self.award(&shares, field, tiles, Cause::Final, report);
        }
    }
}

//! Colours learned again from a board's surely read tiles. The start tile shows little of some
//! editions' city ground (D's city is a narrow cap of walls and roofs), so a broad grass colour
//! learned from its field (dark grass, shade) may lie nearer that ground than any city colour
//! does: cities then read partly as field, and a tile of much city as a cloister in a field.
//! The tiles a board read reads surely show that ground inside their cities: learned there as
//! city colours, it reads as city on the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use opencv::core::{Mat, Vec3b};
use opencv::prelude::*;
use rayon::prelude::*;

use super::colours::{inner_kind, ColourModel};
use super::locate::Located;
use super::palette::k_means;
use super::rectify::{quad_patch, INSET, PATCH_PX};
use super::table::CellShows;
use super::terrain::Terrain;
use crate::geometry::TileShape;
use crate::rules::{catalogue, FeatureKind, Rotation, TileId};

/// The least probability of a tile's reading for its print to teach colours.
const SURE: f64 = 0.99;
/// The fewest pixels (at [`super::rectify::PATCH_PX`] scale) inside the cities of sure tiles
/// that read as grass for a colour of them to be learned (a tile's city is some 1000).
const MIN_CITY_PX: usize = 400;
/// The share of the sure tiles' inner city pixels read as grass from which the start tile's
/// colours are taken to miss a colour of city print. Print a little off the catalogue's city
/// lines, figures and shade make up to a tenth.
const GRASSY_CITY: f64 = 0.12;
/// At most this many city colours are learned.
const MOST_COLOURS: usize = 2;
/// The least share of those pixels a learned colour is made of.
const MIN_SHARE: f32 = 0.25;
/// The fewest of those pixels a learned colour must claim.
const MIN_COLOUR_PX: usize = 200;
/// How much redder than green a city colour learned there is at least (grass is greener).
const EARTHEN: f32 = 1.2;

/// [`inner_city`]'s masks by tile and rotation.
type CityMasks = HashMap<(TileId, Rotation), Arc<Vec<bool>>>;

/// Which pixels of a patch cut as [`quad_patch`] cuts lie inside the cities of `tile` turned
/// `rot`, row by row (worked out once per tile and rotation).
fn inner_city(tile: TileId, rot: Rotation) -> Arc<Vec<bool>> {
    static KNOWN: OnceLock<Mutex<CityMasks>> = OnceLock::new();
    let known = KNOWN.get_or_init(Mutex::default);
    if let Some(mask) = known.lock().ok().and_then(|k| k.get(&(tile, rot)).cloned()) {
        return mask;
    }
    let mask = Arc::new(inner_city_of(tile, rot));
    if let Ok(mut k) = known.lock() {
        k.insert((tile, rot), mask.clone());
    }
    mask
}

/// [`inner_city`] worked out.
fn inner_city_of(tile: TileId, rot: Rotation) -> Vec<bool> {
    let shape = TileShape::of(tile);
    let ty = catalogue().tile(tile);
    let side = PATCH_PX as usize;
    let scale = 1.0 - 2.0 * INSET as f32;
    let at = |i: usize| INSET as f32 + (i as f32 + 0.5) / side as f32 * scale;
    (0..side * side)
        .map(|i| {
            inner_kind(shape, ty, rot, [at(i % side), at(i / side)]) == Some(FeatureKind::City)
        })
        .collect()
}

/// How many pixels lie inside the cities of the tiles in `found` read surely, and those of them
/// (blue, green, red) whose likeliest colour under `model` is grass.
fn grassy_city(
    frame: &Mat,
    found: &[Located],
    model: &ColourModel,
) -> opencv::Result<(usize, Vec<[f32; 3]>)> {
    let sure: Vec<(&Located, TileId, Rotation)> = found
        .iter()
        .filter(|l| l.shows == CellShows::Tile)
        .filter_map(|l| {
            let best = l.candidates.first()?;
            (best.probability >= SURE).then_some((l, best.tile, best.rot))
        })
        .collect();
    let is_grass = |p: [f32; 3]| {
        model
            .likeliest_cluster(p)
            .is_some_and(|k| model.clusters()[k].0 == Terrain::Field)
    };
    let per_tile: Vec<(usize, Vec<[f32; 3]>)> = sure
        .par_iter()
        .map(|&(l, tile, rot)| {
            let (patch, _) = quad_patch(frame, &l.quad, 0)?;
            let side = PATCH_PX as usize;
            let (mut city, mut grassy) = (0, Vec::new());
            for (i, _) in inner_city(tile, rot)
                .iter()
                .enumerate()
                .filter(|(_, c)| **c)
            {
                let v = patch.at_2d::<Vec3b>((i / side) as i32, (i % side) as i32)?;
                let p = [f32::from(v[0]), f32::from(v[1]), f32::from(v[2])];
                city += 1;
                if is_grass(p) {
                    grassy.push(p);
                }
            }
            Ok((city, grassy))
        })
        .collect::<opencv::Result<_>>()?;
    let city = per_tile.iter().map(|(n, _)| n).sum();
    Ok((city, per_tile.into_iter().flat_map(|(_, g)| g).collect()))
}

/// `model` with city colours learned where the cities of the board's surely read tiles
/// (`found`, read in `frame`, the start tile first) read as grass over more than
/// [`GRASSY_CITY`] of their pixels; `None` where no colour is learned.
pub fn city_colours(
    frame: &Mat,
    found: &[Located],
    model: &ColourModel,
) -> opencv::Result<Option<ColourModel>> {
    let Some(start) = found.first() else {
        return Ok(None);
    };
    let (city_px, grassy) = grassy_city(frame, found, model)?;
    if grassy.len() < MIN_CITY_PX || (grassy.len() as f64) < GRASSY_CITY * city_px as f64 {
        return Ok(None);
    }
    let (start, _) = quad_patch(frame, &start.quad, 0)?;
    // Grass seen inside a city (a figure's green, print a little off the catalogue's city) is
    // no city colour; earth and roofs are redder than green.
    let learned: Vec<_> = k_means(&grassy, MOST_COLOURS, MIN_SHARE)
        .into_iter()
        .filter(|c| c.mean[2] >= EARTHEN * c.mean[1])
        .collect();
    // Each new colour must take over enough of that grassy city from the grass.
    let trial = model.with_city_colours(&learned, &start)?;
    let first_new = model.clusters().len();
    let mut won = vec![0usize; learned.len()];
    for p in &grassy {
        if let Some(k) = trial.likeliest_cluster(*p).filter(|&k| k >= first_new) {
            won[k - first_new] += 1;
        }
    }
    let kept: Vec<_> = learned
        .iter()
        .zip(&won)
        .filter(|&(_, &won)| won >= MIN_COLOUR_PX)
        .map(|(c, _)| *c)
        .collect();
    if kept.is_empty() {
        return Ok(None);
    }
    model.with_city_colours(&kept, &start).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pos;
    use crate::vision::palette::Cluster;
    use crate::vision::prints::Print;
    use crate::vision::terrain::label_at;
    use crate::vision::tile::Candidate;

    const GRASS: [u8; 3] = [35, 224, 133];
    const DARK_GRASS: [u8; 3] = [30, 100, 90];
    const WALL: [u8; 3] = [166, 211, 217];
    const ROAD: [u8; 3] = [231, 246, 225];
    /// The 2nd edition's city ground (a colour learned from `eval vision --art` seed 6000
    /// board 16).
    const EARTH: [u8; 3] = [62, 108, 151];
    /// Cells of the test board: a side of this many pixels each, in a row.
    const SIDE: i32 = 100;

    /// The colours `meeplecam calibrate start-tile` learns from the setup frame of `eval vision
    /// --generate 20 --seed 6000 --art` board 16 (blue, green, red; spread; weight): a broad
    /// dark grass colour lies nearer the city ground than any city colour does.
    fn start_tile_colours() -> ColourModel {
        let cluster = |t, mean: [f32; 3], spread, weight| {
            (
                t,
                Cluster {
                    mean,
                    spread,
                    weight,
                },
            )
        };
        ColourModel::from_clusters(vec![
            cluster(Terrain::Field, [35.0, 224.0, 133.0], 20.0, 0.54),
            cluster(Terrain::Field, [25.0, 107.0, 99.0], 53.6, 0.12),
            cluster(Terrain::Field, [27.0, 181.0, 110.0], 27.7, 0.25),
            cluster(Terrain::City, [166.0, 211.0, 217.0], 41.4, 0.43),
            cluster(Terrain::City, [115.0, 49.0, 57.0], 48.0, 0.14),
            cluster(Terrain::City, [87.0, 105.0, 156.0], 73.0, 0.33),
            cluster(Terrain::City, [181.0, 96.0, 87.0], 59.3, 0.10),
            cluster(Terrain::Road, [231.0, 246.0, 225.0], 27.5, 0.73),
        ])
    }

    /// `tile` (unturned) painted flat into cell `k` of `frame`, its city in `city`.
    fn paint(frame: &mut Mat, k: i32, tile: TileId, city: [u8; 3]) {
        let ty = catalogue().tile(tile);
        let shape = TileShape::of(tile);
        for y in 0..SIDE {
            for x in 0..SIDE {
                let u = [
                    (x as f32 + 0.5) / SIDE as f32,
                    (y as f32 + 0.5) / SIDE as f32,
                ];
                let label = usize::from(label_at(&shape.labels, u, Rotation::R0));
                let colour = match ty.features.get(label).map(|f| f.kind) {
                    Some(FeatureKind::City) => city,
                    Some(FeatureKind::Road) => ROAD,
                    _ => GRASS,
                };
                *frame.at_2d_mut::<Vec3b>(y, k * SIDE + x).unwrap() = Vec3b::from(colour);
            }
        }
    }

    /// A row of the start tile (its city walls) and two tiles of much city painted `city`,
    /// each read surely.
    fn board(city: [u8; 3]) -> (Mat, Vec<Located>) {
        let cat = catalogue();
        let mut frame =
            Mat::new_rows_cols_with_default(SIDE, 3 * SIDE, opencv::core::CV_8UC3, 0.into())
                .unwrap();
        let mut found = Vec::new();
        for (k, (name, city)) in [("D", WALL), ("N", city), ("R", city)]
            .into_iter()
            .enumerate()
        {
            let (k, id) = (k as i32, cat.tile_id(name).unwrap());
            paint(&mut frame, k, id, city);
            let (x0, x1) = (f64::from(k * SIDE), f64::from((k + 1) * SIDE));
            let quad = [
                [x0, 0.0],
                [x1, 0.0],
                [x1, f64::from(SIDE)],
                [x0, f64::from(SIDE)],
            ];
            let (patch, _) = quad_patch(&frame, &quad, 0).unwrap();
            found.push(Located {
                pos: Pos::new(k, 0),
                quad,
                candidates: vec![Candidate {
                    tile: id,
                    rot: Rotation::R0,
                    probability: 1.0,
                }],
                print: Print::cut(&patch, (0, 0), patch.cols() as usize, None).unwrap(),
                shows: CellShows::Tile,
            });
        }
        (frame, found)
    }

    #[test]
    fn city_ground_the_start_tile_did_not_show_is_learned_from_the_cities_read_surely() {
        let model = start_tile_colours();
        assert_eq!(model.classify(EARTH), Terrain::Field, "the premise");
        let (frame, found) = board(EARTH);
        let learned = city_colours(&frame, &found, &model)
            .unwrap()
            .expect("earth inside sure cities is learned as city");
        assert_eq!(learned.classify(EARTH), Terrain::City);
        assert_eq!(learned.classify(GRASS), Terrain::Field);
        assert_eq!(learned.classify(DARK_GRASS), Terrain::Field);
        assert_eq!(learned.classify(WALL), Terrain::City);
        assert_eq!(learned.classify(ROAD), Terrain::Road);
    }

    #[test]
    fn cities_in_the_start_tiles_colours_teach_nothing() {
        let (frame, found) = board(WALL);
        assert!(city_colours(&frame, &found, &start_tile_colours())
            .unwrap()
            .is_none());
    }

    #[test]
    fn grass_inside_cities_is_not_learned_as_city() {
        let model = start_tile_colours();
        assert_eq!(model.classify(DARK_GRASS), Terrain::Field, "the premise");
        let (frame, found) = board(DARK_GRASS);
        assert!(city_colours(&frame, &found, &model).unwrap().is_none());
    }

    #[test]
    fn unsure_readings_teach_nothing() {
        let (frame, mut found) = board(EARTH);
        for tile in &mut found {
            tile.candidates[0].probability = 0.9;
        }
        assert!(city_colours(&frame, &found, &start_tile_colours())
            .unwrap()
            .is_none());
    }
}

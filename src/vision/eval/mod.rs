//! Evaluation of the vision stages on rendered boards with ground truth: each tile read with
//! the true grid registration here, each board read with nothing from the truth in
//! [`whole_board`].

mod whole_board;

use std::time::Instant;

use opencv::prelude::*;

use super::board::consistent_reading;
use super::breakdown::Breakdown;
use super::colours::ColourModel;
use super::dataset::Sample;
use super::figures::Blob;
use super::meeples::{cells_below, pose, read_followers};
use super::prints::{LearnedPrints, Print};
use super::rectify::{
    cell_quad, in_view_share, out_of_view, quad_patch, side_px, unseen, Quad, MARGIN_PX,
};
use super::standing::Figures;
use super::telling::{look_alikes_under_figure, shield_under_figure};
use super::terrain::same_for_the_rules;
use super::tile::{Candidate, CutMasks, TileRecognizer};
use super::viewpoint::Viewpoint;
use crate::rules::{catalogue, Dir, Pos, Rotation, TileId};
use crate::sim::truth::TileTruth;
use whole_board::read_whole_board;
pub use whole_board::{BoardReport, Misread, MissedFollower, PhantomTile, WrongRead};

/// What one evaluation run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileReport {
    /// Images rendered.
    pub images: usize,
    /// Tiles read (the start tile excluded: it calibrates).
    pub tiles: usize,
    /// Tiles not read: less than half their cell lies in the picture.
    pub out_of_picture: usize,
    /// Tiles whose type and rotation were right (rotations the rules cannot tell apart count as
    /// right).
    pub right: usize,
    /// Tiles whose type was right.
    pub type_right: usize,
    /// Tiles whose true reading was among the top three.
    pub top3: usize,
    /// Images with every tile right.
    pub boards_right: usize,
    /// Images whose surely read tiles' prints told types apart ([`LearnedPrints`]).
    pub boards_learned: usize,
    /// Images with a shield wholly under a figure (where the catalogue prints it): no single
    /// picture tells such a tile from its twin without the shield.
    pub boards_hiding_shields: usize,
    /// Images with no shield wholly under a figure whose every tile was right with rules priors.
    pub clear_boards_right_with_rules: usize,
    /// Images where a figure hides all that tells a tile from a look-alike (a shield, a road
    /// stub; [`look_alikes_under_figure`]).
    pub boards_hiding_tells: usize,
    /// Images where no figure hides what tells a tile whose every tile was right with rules
    /// priors.
    pub told_boards_right_with_rules: usize,
    /// Tiles right with the uncalibrated default colours and no figure masking.
    pub right_uncalibrated: usize,
    /// Tiles with no follower on them.
    pub bare: usize,
    /// Of those, tiles whose type and rotation were right.
    pub bare_right: usize,
    /// Tiles right after the board read with rules priors (edges, counts).
    pub right_with_rules: usize,
    /// Images with every tile right after the rules priors.
    pub boards_right_with_rules: usize,
    /// Milliseconds per tile recognition (rectify + classify + match), sorted.
    pub tile_ms: Vec<f64>,
    /// Per tile read: the probability its likeliest reading was given ([`stated`]) and
    /// whether that reading was right.
    pub confidence: Vec<(f64, bool)>,
    /// Followers on the tiles read.
    pub followers: usize,
    /// Of those, seen in the right colour.
    pub followers_found: usize,
    /// Of those, read on the right feature.
    pub followers_on_feature: usize,
    /// Figures read where there is none.
    pub phantom_followers: usize,
    /// Figures told standing or lying by their outline ([`pose`]): by truth (standing,
    /// lying), how many were told standing and how many lying.
    pub poses: [[usize; 2]; 2],
    /// Every follower not seen in its colour on its tile, board by board.
    pub missed_followers: Vec<MissedFollower>,
    /// (true type, read type) of wrong reads, with counts, most frequent first.
    pub confusions: Vec<((String, String), usize)>,
    /// Per-tile reads (calibrated colours, no rules) by condition, and wrong reads by kind.
    pub breakdown: Breakdown,
}

/// The probability a reading gives its likeliest answer, with the rotations of that type the
/// rules cannot tell from it.
pub fn stated(ranked: &[Candidate]) -> f64 {
    let Some(top) = ranked.first() else {
        return 0.0;
    };
    ranked
        .iter()
        .filter(|c| c.tile == top.tile && same_for_the_rules(c.tile, c.rot, top.rot))
        .map(|c| c.probability)
        .sum()
}

/// Upper ends of the bins of stated probability in [`TileReport::reliability_table`].
const CONFIDENCE_BINS: [f64; 6] = [0.5, 0.8, 0.95, 0.99, 0.999, f64::INFINITY];

impl TileReport {
    /// How well the readings' probabilities are calibrated, as a Markdown table: the tile reads
    /// binned by the probability given to their likeliest reading, with the mean of that
    /// probability and the share that was right; then the expected calibration error (the
    /// gap between the two, weighted by the reads in each bin).
    pub fn reliability_table(&self) -> String {
        let mut out = String::from(
            "| probability given to the likeliest reading | reads | mean given | right |\n\
             |---|---|---|---|\n",
        );
        let mut gap = 0.0;
        let mut low = 0.0;
        for high in CONFIDENCE_BINS {
            let bin: Vec<&(f64, bool)> = self
                .confidence
                .iter()
                .filter(|(p, _)| (low..high).contains(p))
                .collect();
            if !bin.is_empty() {
                let n = bin.len() as f64;
                let given = bin.iter().map(|(p, _)| p).sum::<f64>() / n;
                let right = bin.iter().filter(|(_, r)| *r).count() as f64 / n;
                gap += n * (given - right).abs();
                let range = if high.is_finite() {
                    format!("{low} – {high}")
                } else {
                    format!("≥ {low}")
                };
                out += &format!(
                    "| {range} | {} | {:.2} % | {:.2} % |\n",
                    bin.len(),
                    100.0 * given,
                    100.0 * right
                );
            }
            low = high;
        }
        let total = self.confidence.len().max(1) as f64;
        out + &format!(
            "\nexpected calibration error: {:.2} points\n",
            100.0 * gap / total
        )
    }

    /// Median recognition time per tile, ms.
    pub fn median_ms(&self) -> f64 {
        self.tile_ms
            .get(self.tile_ms.len() / 2)
            .copied()
            .unwrap_or(0.0)
    }

    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| measure | value |\n|---|---|\n\
             | images | {} |\n| tiles read | {} |\n\
             | tiles less than half in the picture (not read) | {} |\n\
             | type + rotation right (start-tile calibrated colours) | {:.2} % |\n\
             | type + rotation right, board read with rules priors | {:.2} % |\n\
             | whole board right, with rules priors | {:.1} % |\n\
             | boards with a shield wholly under a figure (at the catalogue's spot) | {} of {} |\n\
             | whole board right, with rules priors, boards hiding no shield | {:.1} % |\n\
             | boards where a figure hides all that tells a tile from a look-alike | {} of {} |\n\
             | whole board right, with rules priors, boards where no figure hides what tells a tile | {:.1} % |\n\
             | type + rotation right (default colours, figures not masked) | {:.2} % |\n\
             | type + rotation right, tiles with no follower on them | {:.2} % |\n\
             | type right | {:.2} % |\n| truth in top 3 | {:.2} % |\n\
             | whole board right | {:.1} % |\n\
             | boards whose sure tiles' prints told types apart | {} of {} |\n\
             | median time per tile | {:.3} ms |\n\
             | followers seen in their colour | {:.2} % of {} |\n\
             | followers on the right feature (of those seen) | {:.2} % |\n\
             | phantom followers per board | {:.2} |\n\
             | standing figures told standing / lying by their outline | {} / {} |\n\
             | lying figures told lying / standing by their outline | {} / {} |\n\n\
             most frequent confusions (true → read): {}\n",
            self.images,
            self.tiles,
            self.out_of_picture,
            pct(self.right, self.tiles),
            pct(self.right_with_rules, self.tiles),
            pct(self.boards_right_with_rules, self.images),
            self.boards_hiding_shields,
            self.images,
            pct(
                self.clear_boards_right_with_rules,
                self.images - self.boards_hiding_shields
            ),
            self.boards_hiding_tells,
            self.images,
            pct(
                self.told_boards_right_with_rules,
                self.images - self.boards_hiding_tells
            ),
            pct(self.right_uncalibrated, self.tiles),
            pct(self.bare_right, self.bare),
            pct(self.type_right, self.tiles),
            pct(self.top3, self.tiles),
            pct(self.boards_right, self.images),
            self.boards_learned,
            self.images,
            self.median_ms(),
            pct(self.followers_found, self.followers),
            self.followers,
            pct(self.followers_on_feature, self.followers_found),
            self.phantom_followers as f64 / self.images.max(1) as f64,
            self.poses[0][0],
            self.poses[0][1],
            self.poses[1][1],
            self.poses[1][0],
            self.confusions
                .iter()
                .take(8)
                .map(|((t, r), n)| format!("{t}→{r} ×{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// Evaluates both stages on every board of `samples`: each tile read with the true grid
/// registration ([`TileReport`]), then each board read with nothing from the truth
/// ([`BoardReport`]).
pub fn evaluate(
    samples: impl IntoIterator<Item = anyhow::Result<Sample>>,
) -> anyhow::Result<(TileReport, BoardReport)> {
    let tileset = catalogue().set("base").expect("the base set");
    let recognizer = TileRecognizer::for_set(tileset);
    let mut tiles = TileReport::default();
    let mut boards = BoardReport::default();
    for sample in samples {
        let sample = sample?;
        let hiding = read_tiles(&sample, &recognizer, &mut tiles)?;
        read_whole_board(&sample, &hiding, &recognizer, &mut boards)?;
    }
    tiles.tile_ms.sort_by(f64::total_cmp);
    tiles.confusions.sort_by_key(|c| std::cmp::Reverse(c.1));
    boards.corner_error.sort_by(f64::total_cmp);
    boards.centre_error.sort_by(f64::total_cmp);
    boards.at_truth_drift.sort_by(f64::total_cmp);
    boards.board_ms.sort_by(f64::total_cmp);
    Ok((tiles, boards))
}

/// One tile of a board read with the true grid registration, before it is scored.
struct TileRead<'a> {
    t: &'a TileTruth,
    id: TileId,
    patch: Mat,
    blobs: Vec<Blob>,
    rise: [f64; 2],
    ranked: Vec<Candidate>,
    shift: [f64; 2],
    print: Print,
    /// Whether a figure covers a shield of the tile wholly.
    hides_shield: bool,
    /// The look-alikes a figure hides all that tells the tile from.
    look_alikes: Vec<(TileId, Rotation)>,
    /// Time the reading took (ms).
    ms: f64,
}

/// Share of a cell that must lie in the picture for the cell to be read.
const HALF: f64 = 0.5;

/// Reads every tile of `sample` but the start tile with the true grid registration.
fn read_tiles(
    sample: &Sample,
    recognizer: &TileRecognizer,
    report: &mut TileReport,
) -> anyhow::Result<Hiding> {
    let cat = catalogue();
    let tileset = cat.set("base").expect("the base set");
    let conditions = &sample.conditions;
    let cam = &sample.truth.camera;
    // Colours from the start tile where it lies (found by its corners in a full read).
    let mut model = ColourModel::default();
    let (start, _) = quad_patch(&sample.image, &sample.truth.tiles[0].corners_px, 0)?;
    model.calibrate(&start, "D", Rotation::R0)?;
    let default_model = ColourModel::default();
    // The players enrolled their figures under this light.
    let enrolment = sample.enrolment();
    let mut all_right = true;
    report.images += 1;
    let mut readings = Vec::new();
    let mut truths = Vec::new();
    let cells: Vec<(Pos, Quad)> = sample
        .truth
        .tiles
        .iter()
        .map(|t| (Pos::new(t.cell[0], t.cell[1]), t.corners_px))
        .collect();
    let size = [sample.image.cols(), sample.image.rows()];
    let viewpoint = Viewpoint::from_cells(cells.iter().map(|(p, q)| (p, q)), size)?;
    // Every tile read first, then the doubtful readings weighed by the prints the sure ones
    // showed.
    let mut reads = Vec::new();
    for t in sample.truth.tiles.iter().skip(1) {
        let Some(id) = cat.tile_id(&t.tile) else {
            continue;
        };
        let started = Instant::now();
        let cell = Pos::new(t.cell[0], t.cell[1]);
        let Some(quad) = cell_quad(cam, cell) else {
            continue;
        };
        if in_view_share(&quad, size) < HALF {
            report.out_of_picture += 1;
            continue;
        }
        let (patch, to_patch) = quad_patch(&sample.image, &quad, MARGIN_PX)?;
        let out_of_view = out_of_view(&to_patch, MARGIN_PX, size)?;
        let found = enrolment.find_in_cell(&sample.image, &quad, &patch, &model)?;
        let (figures, blobs) = (found.mask, found.blobs);
        let rise = viewpoint.map_or([0.0, 0.0], |v| v.rise_at_cell(cell));
        let masks = CutMasks {
            figures: Some(&figures),
            out_of_view: out_of_view.as_ref(),
            table: None,
            with_ends: found.with_ends.as_ref(),
        };
        let (ranked, shift, _) = recognizer.recognize_in_view(
            &patch,
            MARGIN_PX as usize,
            &model,
            masks,
            Some(side_px(&t.corners_px)),
            Some(&Figures::from_blobs(&blobs, rise)),
        )?;
        let unseen = unseen(Some(&figures), out_of_view.as_ref())?;
        let print = Print::found_in(&patch, MARGIN_PX as usize, shift, unseen.as_ref())?;
        let rot = Rotation::from_degrees(t.rot).unwrap_or_default();
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let hides_shield = shield_under_figure(&figures, MARGIN_PX as usize, id, rot)?;
        let neighbours = Dir::ALL.map(|d| cells.iter().any(|(p, _)| *p == cell.step(d)));
        let look_alikes =
            look_alikes_under_figure(&figures, MARGIN_PX as usize, (id, rot), tileset, neighbours)?;
        reads.push(TileRead {
            t,
            id,
            patch,
            blobs,
            rise,
            ranked,
            shift,
            print,
            hides_shield,
            look_alikes,
            ms,
        });
    }
    let (start_print, d) = (
        Print::cut(
            &start,
            (0, 0),
            start.cols().min(start.rows()) as usize,
            None,
        )?,
        cat.tile_id("D").expect("the start tile"),
    );
    let prints = LearnedPrints::learn(
        reads.iter().map(|r| (&r.print, &r.ranked[..])),
        [(&start_print, d, Rotation::R0)],
    );
    report.boards_learned += usize::from(prints.tells_apart());
    let hiding = Hiding {
        shield: reads.iter().any(|r| r.hides_shield),
        look_alikes: reads
            .iter()
            .filter(|r| !r.look_alikes.is_empty())
            .map(|r| (Pos::new(r.t.cell[0], r.t.cell[1]), r.look_alikes.clone()))
            .collect(),
    };
    report.boards_hiding_shields += usize::from(hiding.shield);
    report.boards_hiding_tells += usize::from(!hiding.look_alikes.is_empty());
    for r in &mut reads {
        prints.reweigh(&r.print, &mut r.ranked);
    }
    for TileRead {
        t,
        id,
        patch,
        blobs,
        rise,
        ranked,
        shift,
        ms,
        ..
    } in reads
    {
        let rot = Rotation::from_degrees(t.rot).unwrap_or_default();
        let cell = Pos::new(t.cell[0], t.cell[1]);
        // Followers, read on the true tile so that this stage is measured on its own.
        let tile_below = cells_below(cell)
            .iter()
            .any(|b| cells.iter().any(|(p, _)| p == b));
        let seen = read_followers(&blobs, MARGIN_PX, shift, id, rot, rise, &|_| tile_below);
        let here: Vec<_> = sample
            .truth
            .meeples
            .iter()
            .filter(|m| m.cell == t.cell)
            .collect();
        let mut used = vec![false; seen.len()];
        for m in &here {
            report.followers += 1;
            let seat = sample.players.iter().position(|&c| c == m.colour);
            let told = blobs
                .iter()
                .find(|b| Some(b.colour) == seat)
                .and_then(|b| pose(b, rise));
            if let Some(lying) = told {
                report.poses[usize::from(m.pose == "lying")][usize::from(lying)] += 1;
            }
            let hit = seen
                .iter()
                .enumerate()
                .find(|(k, f)| !used[*k] && Some(f.colour) == seat);
            if hit.is_none() {
                report.missed_followers.push(MissedFollower {
                    board: sample.name.clone(),
                    cell,
                    colour: m.colour,
                    lying: m.pose == "lying",
                    seen: seen
                        .iter()
                        .filter_map(|f| sample.players.get(f.colour).copied())
                        .collect(),
                });
            }
            if let Some((k, f)) = hit {
                used[k] = true;
                report.followers_found += 1;
                let truth_port = m.port.parse().ok();
                let ty = cat.tile(id);
                let feature =
                    |p: Option<crate::rules::Port>| p.and_then(|p| ty.feature_at_rotated(p, rot));
                if feature(Some(f.port)).is_some() && feature(Some(f.port)) == feature(truth_port) {
                    report.followers_on_feature += 1;
                }
            }
        }
        report.phantom_followers += used.iter().filter(|u| !**u).count();
        report.tile_ms.push(ms);
        readings.push((Pos::new(t.cell[0], t.cell[1]), ranked.clone()));
        truths.push((Pos::new(t.cell[0], t.cell[1]), (id, rot)));
        let same = |c: &Candidate| c.tile == id && same_for_the_rules(id, c.rot, rot);
        report
            .confidence
            .push((stated(&ranked), ranked.first().is_some_and(same)));
        report.tiles += 1;
        let bare = !sample.truth.meeples.iter().any(|m| m.cell == t.cell);
        if bare {
            report.bare += 1;
            if ranked.first().is_some_and(same) {
                report.bare_right += 1;
            }
        }
        let placement_error = if t.offset_mm[0].hypot(t.offset_mm[1]) > 2.0 {
            "off-grid: > 2 mm"
        } else {
            "off-grid: ≤ 2 mm"
        };
        let mut tile_conditions = conditions.clone();
        tile_conditions.extend([
            format!("follower on it: {}", if bare { "no" } else { "yes" }),
            placement_error.to_string(),
            format!("true type: {}", t.tile),
        ]);
        report
            .breakdown
            .add(&tile_conditions, ranked.first().is_some_and(same));
        if let Some(c) = ranked.first().filter(|c| !same(c)) {
            report.breakdown.add_error((id, rot), (c.tile, c.rot));
        }
        if ranked.first().is_some_and(same) {
            report.right += 1;
        } else {
            all_right = false;
            let read = ranked
                .first()
                .map(|c| cat.tile(c.tile).name.clone())
                .unwrap_or_default();
            let key = (t.tile.clone(), read);
            match report.confusions.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => report.confusions.push((key, 1)),
            }
        }
        if ranked.first().is_some_and(|c| c.tile == id) {
            report.type_right += 1;
        }
        if ranked.iter().take(3).any(same) {
            report.top3 += 1;
        }
        if recognizer
            .recognize(&patch, &default_model)?
            .first()
            .is_some_and(same)
        {
            report.right_uncalibrated += 1;
        }
    }
    if all_right {
        report.boards_right += 1;
    }
    let start = Candidate {
        tile: cat.tile_id("D").expect("the start tile"),
        rot: Rotation::R0,
        probability: 1.0,
    };
    let read = consistent_reading(&readings, &[(Pos::new(0, 0), start)], tileset);
    let mut board_right = true;
    for (pos, c) in &read {
        let Some((_, (id, rot))) = truths.iter().find(|(p, _)| p == pos) else {
            continue;
        };
        if c.tile == *id && same_for_the_rules(*id, c.rot, *rot) {
            report.right_with_rules += 1;
        } else {
            board_right = false;
        }
    }
    if board_right {
        report.boards_right_with_rules += 1;
        report.clear_boards_right_with_rules += usize::from(!hiding.shield);
        report.told_boards_right_with_rules += usize::from(hiding.look_alikes.is_empty());
    }
    Ok(hiding)
}

/// Whether a figure on a board hides a shield wholly, and the tiles where one hides all that
/// tells the tile from look-alikes (with those look-alikes).
#[derive(Clone, Debug, Default, PartialEq)]
struct Hiding {
    shield: bool,
    look_alikes: Vec<(Pos, Vec<(TileId, Rotation)>)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_states_its_likeliest_answer_with_the_turns_the_rules_cannot_tell_apart() {
        let cat = catalogue();
        let (u, v) = (cat.tile_id("U").unwrap(), cat.tile_id("V").unwrap());
        let c = |tile, rot, probability| Candidate {
            tile,
            rot,
            probability,
        };
        // The straight road is the same road turned half round; the curve is another tile.
        let ranked = [
            c(u, Rotation::R0, 0.5),
            c(u, Rotation::R180, 0.3),
            c(v, Rotation::R0, 0.15),
            c(u, Rotation::R90, 0.05),
        ];
        assert!((stated(&ranked) - 0.8).abs() < 1e-9);
        assert_eq!(stated(&[]), 0.0);
    }

    #[test]
    fn the_reliability_table_bins_reads_by_the_probability_given_and_weighs_the_gaps() {
        let report = TileReport {
            confidence: vec![(0.6, true), (0.6, false), (0.9995, true)],
            ..TileReport::default()
        };
        let table = report.reliability_table();
        assert!(
            table.contains("| 0.5 – 0.8 | 2 | 60.00 % | 50.00 % |"),
            "{table}"
        );
        assert!(
            table.contains("| ≥ 0.999 | 1 | 99.95 % | 100.00 % |"),
            "{table}"
        );
        assert!(!table.contains("| 0 – 0.5 |"), "{table}");
        // (2 × 10 points + 1 × 0.05 points) / 3 reads.
        assert!(
            table.contains("expected calibration error: 6.68 points"),
            "{table}"
        );
    }
}

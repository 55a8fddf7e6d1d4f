//! Where recognition errors come from: tile reads tallied by condition (view, table top, art
//! style, follower, placement error, true type) and wrong reads by kind (pennant only, rotation
//! only, another type).

use std::collections::BTreeMap;

use crate::rules::{catalogue, Attr, EdgeKind, Rotation, TileId};

/// Reads and right reads per condition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Breakdown {
    groups: BTreeMap<String, (usize, usize)>,
    errors: BTreeMap<&'static str, usize>,
}

impl Breakdown {
    /// Counts one read under each of `conditions` (e.g. `"view: oblique"`).
    pub fn add(&mut self, conditions: &[String], right: bool) {
        for c in conditions {
            let e = self.groups.entry(c.clone()).or_default();
            e.0 += 1;
            e.1 += usize::from(right);
        }
    }

    /// Counts one wrong read of `truth` as `read` by its kind.
    pub fn add_error(&mut self, truth: (TileId, Rotation), read: (TileId, Rotation)) {
        *self.errors.entry(error_kind(truth, read)).or_default() += 1;
    }

    /// The tallies as a Markdown table (condition, reads, right), then the error kinds.
    pub fn table(&self) -> String {
        let mut out = String::from("| condition | tiles | right |\n|---|---|---|\n");
        for (name, (n, right)) in &self.groups {
            out += &format!(
                "| {name} | {n} | {:.2} % |\n",
                100.0 * *right as f64 / (*n).max(1) as f64
            );
        }
        let total: usize = self.errors.values().sum();
        out += "\nwrong reads by kind: ";
        out += &self
            .errors
            .iter()
            .map(|(k, n)| format!("{k} {n} of {total}"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push('\n');
        out
    }
}

/// How a wrong read differs from the truth: `"pennant"` when the two tiles have the same edges
/// in the same places and differ in their pennants, `"rotation"` for the right type turned
/// wrong, `"type"` otherwise.
pub fn error_kind(truth: (TileId, Rotation), read: (TileId, Rotation)) -> &'static str {
    let cat = catalogue();
    let edges = |(t, r): (TileId, Rotation)| -> Vec<EdgeKind> {
        crate::rules::Dir::ALL
            .iter()
            .map(|&d| cat.tile(t).edge(d, r))
            .collect()
    };
    if truth.0 == read.0 {
        "rotation"
    } else if edges(truth) == edges(read)
        && cat.tile(truth.0).count(Attr::Pennant) != cat.tile(read.0).count(Attr::Pennant)
    {
        "pennant"
    } else {
        "type"
    }
}

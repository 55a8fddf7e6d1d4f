//! Reading followers: who stands on a tile and on which of its features.

use super::figures::Blob;
use super::rectify::patch_to_tile;
use super::terrain::label_at;
use crate::geometry::TileShape;
use crate::rules::{catalogue, FeatureKind, Port, Rotation, TileId};

/// A follower read off a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowerRead {
    /// Index of the enrolled colour (the player).
    pub colour: usize,
    /// A port (board frame) of the feature it stands on.
    pub port: Port,
    /// That feature's kind.
    pub kind: FeatureKind,
    /// Lying (a farmer) rather than standing.
    pub lying: bool,
}

/// The followers the figure blobs of a cell show, given the tile read there (type, rotation)
/// and where in the patch it was found (`margin`, `shift`, as cut and searched).
pub fn read_followers(
    blobs: &[Blob],
    margin: i32,
    shift: [f64; 2],
    tile: TileId,
    rot: Rotation,
) -> Vec<FollowerRead> {
    let ty = catalogue().tile(tile);
    let labels = &TileShape::of(tile).labels;
    blobs
        .iter()
        .filter_map(|b| {
            let feature = [b.foot, b.centroid].iter().find_map(|&p| {
                let u = patch_to_tile(p, margin, shift);
                let label = usize::from(label_at(labels, u, rot));
                ty.features.get(label)
            })?;
            let port = feature.ports.rotated(rot).iter().next()?;
            Some(FollowerRead {
                colour: b.colour,
                port,
                kind: feature.kind,
                lying: feature.kind == FeatureKind::Field,
            })
        })
        .collect()
}

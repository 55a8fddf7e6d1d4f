//! Colour clusters: a terrain printed in several colours (roofs, walls and towers of a city;
//! light and dark grass) is several clusters, learned by k-means from labelled pixels.

/// One colour of a terrain: its mean (blue, green, red) and how far its pixels spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// Mean colour (blue, green, red).
    pub mean: [f32; 3],
    /// Root mean [`distance2`] of its pixels from the mean.
    pub spread: f32,
    /// Share of the pixels it was learned from.
    pub weight: f32,
}

/// How much a difference along the mean's own direction (lighter or darker, as uneven light and
/// vignetting make it) counts against a difference in hue, squared.
const BRIGHTNESS_WEIGHT2: f32 = 0.3;

/// Squared colour distance from `mean` to `p` that counts brightness changes less than hue.
pub fn distance2(mean: [f32; 3], p: [f32; 3]) -> f32 {
    let d = [p[0] - mean[0], p[1] - mean[1], p[2] - mean[2]];
    let all = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let norm2 = mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2];
    if norm2 < 1.0 {
        return all;
    }
    let along = (d[0] * mean[0] + d[1] * mean[1] + d[2] * mean[2]) / norm2.sqrt();
    all - (1.0 - BRIGHTNESS_WEIGHT2) * along * along
}

/// Rounds of Lloyd's algorithm.
const ROUNDS: usize = 12;

/// At most `k` clusters of `pixels`, seeded at the first pixel and then each at the pixel
/// farthest from the seeds so far (so odd specks get clusters of their own); clusters holding
/// less than `min_weight` of the pixels are dropped. Empty for fewer than `4 k` pixels.
pub fn k_means(pixels: &[[f32; 3]], k: usize, min_weight: f32) -> Vec<Cluster> {
    if k == 0 || pixels.len() < k * 4 {
        return Vec::new();
    }
    let mut means: Vec<[f32; 3]> = vec![pixels[0]];
    let mut gap: Vec<f32> = pixels.iter().map(|p| euclid2(pixels[0], *p)).collect();
    while means.len() < k {
        let far = (0..pixels.len())
            .max_by(|&a, &b| gap[a].total_cmp(&gap[b]))
            .unwrap_or(0);
        means.push(pixels[far]);
        for (g, p) in gap.iter_mut().zip(pixels) {
            *g = g.min(euclid2(pixels[far], *p));
        }
    }
    let mut owner = vec![0usize; pixels.len()];
    for _ in 0..ROUNDS {
        for (o, p) in owner.iter_mut().zip(pixels) {
            *o = nearest(&means, *p);
        }
        let mut sum = vec![[0.0f64; 3]; k];
        let mut n = vec![0usize; k];
        for (&o, p) in owner.iter().zip(pixels) {
            for c in 0..3 {
                sum[o][c] += f64::from(p[c]);
            }
            n[o] += 1;
        }
        for j in 0..k {
            if n[j] > 0 {
                means[j] = sum[j].map(|s| (s / n[j] as f64) as f32);
            }
        }
    }
    let mut out = Vec::new();
    for (j, mean) in means.iter().enumerate() {
        let mine: Vec<&[f32; 3]> = pixels
            .iter()
            .zip(&owner)
            .filter(|(_, &o)| o == j)
            .map(|(p, _)| p)
            .collect();
        let weight = mine.len() as f32 / pixels.len() as f32;
        if mine.is_empty() || weight < min_weight {
            continue;
        }
        let spread2 = mine.iter().map(|p| distance2(*mean, **p)).sum::<f32>() / mine.len() as f32;
        out.push(Cluster {
            mean: *mean,
            spread: spread2.sqrt(),
            weight,
        });
    }
    out
}

fn euclid2(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum()
}

fn nearest(means: &[[f32; 3]], p: [f32; 3]) -> usize {
    (0..means.len())
        .min_by(|&a, &b| euclid2(means[a], p).total_cmp(&euclid2(means[b], p)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_colours_make_two_clusters_and_a_speck_is_dropped() {
        let mut px = vec![[20.0, 150.0, 60.0]; 300];
        px.extend(vec![[60.0, 60.0, 200.0]; 200]);
        px.extend(vec![[255.0, 0.0, 0.0]; 5]);
        let mut c = k_means(&px, 3, 0.05);
        c.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].mean, [20.0, 150.0, 60.0]);
        assert_eq!(c[1].mean, [60.0, 60.0, 200.0]);
    }

    #[test]
    fn brightness_counts_less_than_hue() {
        // Both 52 apart in plain colour distance.
        let grey = [100.0, 100.0, 100.0];
        let lighter = distance2(grey, [130.0, 130.0, 130.0]);
        let greener = distance2(grey, [100.0, 152.0, 100.0]);
        assert!(lighter < greener / 2.0, "{lighter} vs {greener}");
    }
}

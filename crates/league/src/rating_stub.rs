//! Placeholder ratings so the crate builds before `crate::rating` lands.
//! // replaced at merge by crate::rating
//!
//! Same items and signatures as `crate::rating`; the fit is a crude
//! per-bot logistic transform of the score fraction, good enough for
//! ordering in tests and nothing else.

/// One pairwise result: `a` scored `score_a` (0, 0.5 or 1) against `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub score_a: f64,
    /// Results sharing a group are resampled together by the bootstrap.
    pub group: u64,
}

/// How to fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingOptions {
    /// Fix this player's rating at this value.
    pub anchor: Option<(usize, f64)>,
    /// Bootstrap resamples for the interval (unused by the stub).
    pub bootstrap: usize,
    pub seed: u64,
}

/// A rating with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Elo of score fraction `p`, smoothed so 0% and 100% stay finite.
fn elo_of(score: f64, games: f64) -> f64 {
    let p = (score + 0.5) / (games + 1.0);
    400.0 * (p / (1.0 - p)).log10()
}

/// Score-based Elo per player with a binomial interval.
pub fn fit(n: usize, results: &[PairResult], opts: &RatingOptions) -> Vec<Rating> {
    let mut score = vec![0.0; n];
    let mut games = vec![0.0; n];
    for r in results {
        score[r.a] += r.score_a;
        score[r.b] += 1.0 - r.score_a;
        games[r.a] += 1.0;
        games[r.b] += 1.0;
    }
    let mut out: Vec<Rating> = (0..n)
        .map(|i| {
            let (s, g) = (score[i], games[i]);
            let p = (s + 0.5) / (g + 1.0);
            let half = 1.96 * (p * (1.0 - p) / (g + 1.0)).sqrt() * (g + 1.0);
            Rating {
                elo: elo_of(s, g),
                lo: elo_of((s - half).max(-0.49), g),
                hi: elo_of((s + half).min(g + 0.49), g),
            }
        })
        .collect();
    if let Some((i, value)) = opts.anchor
        && i < n
    {
        let shift = value - out[i].elo;
        for r in &mut out {
            r.elo += shift;
            r.lo += shift;
            r.hi += shift;
        }
    }
    out
}

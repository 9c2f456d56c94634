//! The Elo estimate `dojo compare` reports, with its 95% interval.
//!
//! Two ingredients (details and sources in `SPRT.md`):
//!
//! - **A regularising prior.** One pseudo-block is added to the observed
//!   frequencies, spread over the cells as the block total of independent
//!   games that each score 0, ½ or 1 with probabilities ¼, ½, ¼ (a binomial
//!   over half points). A sample where every block has the same total (two
//!   identical deterministic bots mirror every seat-swapped pair), all wins,
//!   all losses or a handful of blocks therefore never has zero variance,
//!   and its interval never collapses. The prior is worth one block: it
//!   moves the mean by at most `1/(N+1)` of the way to ½.
//! - **Median-unbiased estimation after a sequential test.** Stopping when
//!   the LLR crosses a bound biases the plain mean (a test that stops early
//!   at H1 has probably been lucky). The estimate is the Elo at which the
//!   observed outcome is the median outcome of the test, and the interval
//!   the Elos at which it is the 97.5% and 2.5% quantile, with outcomes
//!   ordered stagewise and the LLR's walk approximated by a Brownian motion
//!   (Siegmund; Fishtest's `sprt.py` analytics).

use serde::{Deserialize, Serialize};

use super::brownian::{Brownian, Observed};
use super::{
    Constraint, MAX_ELO, Outcomes, SprtParams, Verdict, Z95, bounds, constraint, llr,
    logistic_score, moments, score_to_elo,
};

/// Weight of the regularising prior, in blocks.
const PRIOR_BLOCKS: f64 = 1.0;
/// Below this many blocks the output says the sample is too small.
pub const MIN_BLOCKS: u64 = 10;

/// Estimated Elo difference (logistic, NEW minus BASE) with a 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
}

/// Why an estimate deserves caution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleNote {
    /// No block was played.
    NoData,
    /// Fewer than [`MIN_BLOCKS`] blocks.
    TooSmall,
    /// Every block had the same total, so the spread comes from the prior.
    SingleOutcome,
}

impl SampleNote {
    /// The note for a sample, if any (the first that applies).
    pub fn of(counts: &Outcomes) -> Option<SampleNote> {
        let n = counts.blocks();
        if n == 0 {
            Some(SampleNote::NoData)
        } else if n < MIN_BLOCKS {
            Some(SampleNote::TooSmall)
        } else if counts.distinct() == 1 {
            Some(SampleNote::SingleOutcome)
        } else {
            None
        }
    }

    /// A sentence for the text output; `unit` names a block (`pair`,
    /// `block`).
    pub fn message(&self, unit: &str) -> String {
        match self {
            SampleNote::NoData => "no games were played; the estimate is meaningless".into(),
            SampleNote::TooSmall => format!(
                "the sample is too small to estimate (fewer than {MIN_BLOCKS} {unit}s): the interval leans on the prior"
            ),
            SampleNote::SingleOutcome => format!(
                "every {unit} gave NEW the same points, so the interval's width comes from the prior alone"
            ),
        }
    }
}

/// The prior's share of each cell: a binomial over the `cells - 1` half
/// points of a block, with probability ½ each.
fn prior(cells: usize) -> Vec<f64> {
    let n = cells.saturating_sub(1);
    let mut row = vec![1.0f64];
    for _ in 0..n {
        let mut next = vec![1.0; row.len() + 1];
        for i in 1..row.len() {
            next[i] = row[i - 1] + row[i];
        }
        row = next;
    }
    let total: f64 = row.iter().sum();
    row.iter().map(|c| c / total).collect()
}

/// Frequencies with the prior's pseudo-block: `(n_k + w π_k) / (N + w)`.
pub(super) fn regularised(counts: &Outcomes) -> Vec<f64> {
    let n = counts.blocks() as f64;
    prior(counts.counts.len())
        .iter()
        .zip(&counts.counts)
        .map(|(pi, &k)| (k as f64 + PRIOR_BLOCKS * pi) / (n + PRIOR_BLOCKS))
        .collect()
}

/// With no data: 0 with the widest interval.
fn widest() -> EloEstimate {
    EloEstimate {
        elo: 0.0,
        lo: -score_to_elo(1.0),
        hi: score_to_elo(1.0),
    }
}

/// The fixed-sample estimate: the logistic Elo of the regularised mean
/// score, with a normal 95% interval from the regularised block variance
/// (`± 1.96 σ_block / √N` in score, carried to Elo by the delta method). It ignores optional
/// stopping; `dojo compare` shows it while the test runs.
pub fn naive_estimate(counts: &Outcomes) -> EloEstimate {
    let n = counts.blocks();
    if n == 0 {
        return widest();
    }
    let (mean, var) = moments(&counts.values(), &regularised(counts));
    // The interval is symmetric in Elo (the delta method through
    // `d elo / d score = 400 / (ln 10 · s (1 - s))`), so it stays finite
    // near scores of 0 and 1.
    let elo = score_to_elo(mean);
    let slope = crate::elo::elo_per_score(mean);
    let half = Z95 * (var / n as f64).sqrt() * slope;
    EloEstimate {
        elo,
        lo: elo - half,
        hi: elo + half,
    }
}

/// The median-unbiased Elo estimate after a sequential test that ended
/// with `verdict` (`Continue`: stopped by the game limit or interrupted),
/// with its 95% interval (see the module documentation and `SPRT.md`).
///
/// The LLR's walk is modelled by its linear form `k · Σ (a_i - m)`: the
/// block scores centred at `m = (s0 + s1) / 2`, the scores of the two
/// hypotheses. Far from degenerate data the GSPRT's LLR is close to this
/// with `k = (s1 - s0) / σ²`; in general `k` is set so that the linear walk
/// is where the real LLR was when the test ended (at the bound it crossed,
/// or at the final LLR), so the stopping time stays the real one. Under a
/// candidate Elo `θ` the walk's drift per block is `k (s(θ) - m)` and its
/// variance `k² σ²`, with `σ²` the regularised sample variance of the block
/// scores. The estimate is the
/// `θ` at which a worse outcome than the observed one has probability ½,
/// the interval where it has 0.975 and 0.025, each found by bisection over
/// `[-2000, 2000]` Elo.
pub fn median_unbiased_estimate(
    counts: &Outcomes,
    p: &SprtParams,
    verdict: Verdict,
) -> EloEstimate {
    let n = counts.blocks();
    if n == 0 {
        return widest();
    }
    let (mean, var) = moments(&counts.values(), &regularised(counts));
    let (s0, s1) = hypothesis_scores(p, var.sqrt(), counts.games_per_block);
    let centre = 0.5 * (s0 + s1);
    let (a, b) = bounds(p);
    let nn = n as f64;
    let sum = nn * (mean - centre);
    let real = llr(counts, p);
    let asymptotic = (s1 - s0) / var;
    let scale = match verdict {
        Verdict::H1 if sum > 0.0 => b / sum,
        Verdict::H0 if sum < 0.0 => a / sum,
        Verdict::Continue if real * sum > 0.0 && real.abs() >= 0.25 * b.min(-a) => real / sum,
        _ => asymptotic,
    };
    let observed = match verdict {
        Verdict::H1 => Observed::Upper { t: nn },
        Verdict::H0 => Observed::Lower { t: nn },
        Verdict::Continue => {
            let margin = 1e-9 * (b - a);
            Observed::Inside {
                t: nn,
                y: (scale * sum).clamp(a + margin, b - margin),
            }
        }
    };
    // Wald-type: the variance per block is the regularised sample variance
    // whatever the candidate Elo (the tilted distributions of a nearly
    // degenerate sample have variances the data rule out).
    let walk_var = (scale * scale * var).max(1e-12 * (b - a) * (b - a));
    let worse = |elo: f64| -> f64 {
        let walk = Brownian {
            a,
            b,
            mu: scale * (logistic_score(elo) - centre),
            var: walk_var,
        };
        walk.p_worse(observed)
    };
    // `worse` falls as the Elo rises; find where it crosses `target`.
    let solve = |target: f64| -> f64 {
        let (mut lo, mut hi) = (-MAX_ELO, MAX_ELO);
        if worse(lo) <= target {
            return lo;
        }
        if worse(hi) >= target {
            return hi;
        }
        for _ in 0..44 {
            let mid = 0.5 * (lo + hi);
            if worse(mid) > target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    // Where the search finds no finite end (the score's normal interval runs
    // past 0 or 1, as after all wins), the fixed-sample interval's end,
    // symmetric in Elo, takes its place.
    let naive = naive_estimate(counts);
    let elo = solve(0.5);
    let lo = match solve(0.975) {
        x if x <= -MAX_ELO => naive.lo,
        x => x,
    };
    let hi = match solve(0.025) {
        x if x >= MAX_ELO => naive.hi,
        x => x,
    };
    EloEstimate {
        elo,
        lo: lo.min(elo),
        hi: hi.max(elo),
    }
}

/// The mean block scores under H0 and H1; for the normalized model through
/// the block standard deviation `sd` (as Fishtest converts normalized Elo
/// to a score).
fn hypothesis_scores(p: &SprtParams, sd: f64, games_per_block: u32) -> (f64, f64) {
    let score = |elo: f64| match constraint(p, elo, games_per_block) {
        Constraint::Mean(s) => s,
        Constraint::TValue { reference, t } => reference + t * sd,
    };
    (score(p.elo0), score(p.elo1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prior_is_a_binomial_worth_one_block() {
        let p = prior(5);
        let expected = [1.0, 4.0, 6.0, 4.0, 1.0].map(|c| c / 16.0);
        for (a, b) in p.iter().zip(expected) {
            assert!((a - b).abs() < 1e-15);
        }
        assert!((prior(13).iter().sum::<f64>() - 1.0).abs() < 1e-15);
        let c = Outcomes::from_counts(2, vec![0, 0, 4, 0, 0]).unwrap();
        let f = regularised(&c);
        assert!((f[2] - (4.0 + 6.0 / 16.0) / 5.0).abs() < 1e-15);
        assert!(f.iter().all(|x| *x > 0.0));
    }

    /// Feeds `cell` repeatedly, as `dojo compare` would, until the test
    /// stops or `limit` blocks.
    fn run(g: u32, cell: usize, limit: u64) -> (super::super::SequentialTest, EloEstimate) {
        let mut t = super::super::SequentialTest::new(SprtParams::default(), g);
        for _ in 0..limit {
            if t.add_cell(cell) != Verdict::Continue {
                break;
            }
        }
        let e = t.estimate();
        (t, e)
    }

    fn sane(e: &EloEstimate) -> bool {
        let width = e.hi - e.lo;
        e.lo <= e.elo && e.elo <= e.hi && width > 1.0 && width < 1500.0 && e.lo.is_finite()
    }

    /// Two identical deterministic bots mirror every seat-swapped pair (one
    /// point each): the variance is regularised, never zero, and the
    /// interval shrinks with the number of pairs but stays centred on 0.
    #[test]
    fn mirrored_pairs_give_a_sane_centred_interval() {
        let mut widths = Vec::new();
        for (g, limit) in [(2, 5), (2, 50), (2, 500), (6, 3), (6, 40)] {
            let (t, e) = run(g, g as usize, limit);
            assert!(sane(&e), "g={g}, {limit} blocks: {e:?}");
            assert!(e.elo.abs() < 1.0 && e.lo < -1.0 && e.hi > 1.0, "{e:?}");
            assert!(
                (e.hi + e.lo).abs() < 0.3 * (e.hi - e.lo),
                "not centred: {e:?}"
            );
            if g == 2 {
                widths.push(e.hi - e.lo);
            }
            let note = SampleNote::of(t.counts());
            if t.counts().blocks() < MIN_BLOCKS {
                assert_eq!(note, Some(SampleNote::TooSmall));
            } else {
                assert_eq!(note, Some(SampleNote::SingleOutcome));
            }
        }
        assert!(widths[0] > widths[1] && widths[1] > widths[2], "{widths:?}");
        // Five pairs (ten games) say little: a wide interval, and the old
        // ±3 Elo is far off.
        assert!(widths[0] > 60.0, "{widths:?}");
    }

    /// All wins, all losses, a single pair: finite, non-degenerate
    /// intervals on the right side of zero.
    #[test]
    fn one_sided_and_tiny_samples_give_sane_intervals() {
        for (cell, limit) in [(4, 500), (4, 3), (0, 500), (0, 3), (3, 1), (1, 1)] {
            let (t, e) = run(2, cell, limit);
            assert!(sane(&e), "cell {cell}, {limit}: {e:?}");
            match cell {
                4 => assert!(e.elo > 200.0 && e.lo > 0.0, "{e:?}"),
                0 => assert!(e.elo < -200.0 && e.hi < 0.0, "{e:?}"),
                _ => assert!(e.lo < 0.0 && e.hi > 0.0, "{e:?}"),
            }
            if limit < MIN_BLOCKS {
                assert_eq!(SampleNote::of(t.counts()), Some(SampleNote::TooSmall));
            }
        }
        let none = median_unbiased_estimate(
            &Outcomes::pairs(),
            &SprtParams::default(),
            Verdict::Continue,
        );
        assert_eq!(none.elo, 0.0);
        assert_eq!(SampleNote::of(&Outcomes::pairs()), Some(SampleNote::NoData));
    }

    /// On ordinary data that did not stop, the estimate agrees with the
    /// fixed-sample one.
    #[test]
    fn without_stopping_the_estimate_is_the_fixed_sample_one() {
        // A narrow test, so that 980 pairs leave the LLR mid-way.
        let p: SprtParams = "elo0=-2,elo1=2".parse().unwrap();
        let c = Outcomes::from_counts(2, vec![30, 200, 500, 215, 35]).unwrap();
        let l = llr(&c, &p);
        assert!(l > 0.5 && l < 2.0, "{l}");
        let m = median_unbiased_estimate(&c, &p, Verdict::Continue);
        let n = naive_estimate(&c);
        for (x, y) in [(m.elo, n.elo), (m.lo, n.lo), (m.hi, n.hi)] {
            assert!((x - y).abs() < 1.5, "{m:?} vs {n:?}");
        }
    }
}

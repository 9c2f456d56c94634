//! Simulation harness for `dojo compare`'s sequential test and the league's
//! rating intervals: in process, no bot processes, deterministic (ChaCha8
//! streams from fixed seeds).
//!
//! Game model. A game gives NEW 1, ½ or 0 with mean `s = 1/(1+10^(-θ/400))`
//! at the true logistic Elo difference `θ`. A seat-swapped pair shares a
//! position bias `±B` (which seat the deal favours, equally likely): NEW's
//! expected score is `s + B` in one leg and `s - B` in the other, so the
//! two games are negatively correlated and the pair's mean is still `s`.
//! Draws take a fixed share `D` of what each leg leaves possible
//! (`2 D min(s', 1 - s')`). From this the pair-score distribution over the
//! five pentanomial cells is computed exactly and sampled by inverse CDF.
//!
//! Royale blocks: six games, three team rotations of a seat-swapped pair,
//! each rotation with its own position bias, and a block-wide draw shock
//! (the board is drawish or not, equally likely). Sampled game by game.
//!
//! Two tiers. The fast tests run in every `cargo test` (a few seconds in a
//! debug build): error rates of tests with wide Elo windows (about a
//! hundred pairs each), royale blocks, rating coverage. The full tests
//! simulate the default bounds (about 2,000 pairs per test, thousands of
//! tests) and the estimate after stopping; they need an optimised build
//! and are ignored in debug builds:
//! `cargo test --release -p dojo-stats --test simulation -- --nocapture`
//! (about a minute). Every test prints its figures; `SPRT.md` and
//! `RATINGS.md` quote them.

use dojo_engine::rng::{self, ChaCha8Rng, derive_seed};
use dojo_stats::rating::{self, PairResult, RatingOptions};
use dojo_stats::sprt::{
    EloModel, Outcomes, SequentialTest, SprtParams, Verdict, logistic_score, naive_estimate,
};
use rand::RngExt;

/// Position bias of a seat-swapped pair.
const BIAS: f64 = 0.15;
/// Draw share of each leg.
const DRAW: f64 = 0.35;
/// A run still undecided after this many blocks counts as undecided.
const CAP: u64 = 40_000;

/// Exact pentanomial distribution of NEW's pair points at Elo `theta`.
fn pentanomial(theta: f64) -> [f64; 5] {
    let s = logistic_score(theta);
    let leg = |m: f64| {
        let m = m.clamp(0.0, 1.0);
        let d = 2.0 * DRAW * m.min(1.0 - m);
        [1.0 - m - d / 2.0, d, m - d / 2.0]
    };
    let mut p = [0.0; 5];
    for bias in [BIAS, -BIAS] {
        let (g1, g2) = (leg(s + bias), leg(s - bias));
        for (i, a) in g1.iter().enumerate() {
            for (j, b) in g2.iter().enumerate() {
                p[i + j] += 0.5 * a * b;
            }
        }
    }
    p
}

/// Normalized Elo of a pentanomial distribution:
/// `(μ - ½) / (√2 σ_pair) · 800 / ln 10`.
fn normalized_elo(p: &[f64; 5]) -> f64 {
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mu: f64 = p.iter().zip(a).map(|(p, a)| p * a).sum();
    let var: f64 = p.iter().zip(a).map(|(p, a)| p * (a - mu) * (a - mu)).sum();
    (mu - 0.5) / (2.0 * var).sqrt() * 800.0 / std::f64::consts::LN_10
}

/// The logistic Elo whose pair distribution has normalized Elo `nelo`.
fn logistic_for_normalized(nelo: f64) -> f64 {
    let (mut lo, mut hi) = (-400.0, 400.0);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if normalized_elo(&pentanomial(mid)) < nelo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn sample(cdf: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let u: f64 = rng.random();
    cdf.iter().position(|c| u < *c).unwrap_or(cdf.len() - 1)
}

fn cumulative(p: &[f64]) -> Vec<f64> {
    p.iter()
        .scan(0.0, |acc, x| {
            *acc += x;
            Some(*acc)
        })
        .collect()
}

/// A royale block: NEW's half points over six games.
fn royale_block(s: f64, rng: &mut ChaCha8Rng) -> usize {
    let drawish = rng.random::<f64>() < 0.5;
    let share = if drawish { 0.6 } else { 0.2 };
    let mut half_points = 0;
    for _ in 0..3 {
        let bias = if rng.random::<f64>() < 0.5 {
            BIAS
        } else {
            -BIAS
        };
        for m in [s + bias, s - bias] {
            let m = m.clamp(0.0, 1.0);
            let d = 2.0 * share * m.min(1.0 - m);
            let u: f64 = rng.random();
            half_points += if u < m - d / 2.0 {
                2
            } else if u < m + d / 2.0 {
                1
            } else {
                0
            };
        }
    }
    half_points
}

/// How one sequential test ended.
struct Run {
    verdict: Verdict,
    blocks: u64,
    test: SequentialTest,
}

#[derive(Clone, Copy)]
enum Model {
    Pairs,
    Royale,
}

fn run_once(p: SprtParams, model: Model, theta: f64, correct: bool, rng: &mut ChaCha8Rng) -> Run {
    let g = match model {
        Model::Pairs => 2,
        Model::Royale => 6,
    };
    let mut test = if correct {
        SequentialTest::new(p, g)
    } else {
        SequentialTest::without_overshoot_correction(p, g)
    };
    let cdf = cumulative(&pentanomial(theta));
    let s = logistic_score(theta);
    for k in 1..=CAP {
        let cell = match model {
            Model::Pairs => sample(&cdf, rng),
            Model::Royale => royale_block(s, rng),
        };
        let v = test.add_cell(cell);
        if v != Verdict::Continue {
            return Run {
                verdict: v,
                blocks: k,
                test,
            };
        }
    }
    Run {
        verdict: Verdict::Continue,
        blocks: CAP,
        test,
    }
}

/// Outcome frequencies over `runs` tests at `theta`.
struct Tally {
    h1: f64,
    h0: f64,
    mean_blocks: f64,
    runs: Vec<Run>,
}

fn tally(p: SprtParams, model: Model, theta: f64, correct: bool, runs: usize, seed: u64) -> Tally {
    // One stream per run, so a run that ends differently does not shift
    // the random numbers of the runs after it.
    let base = derive_seed(seed, &[theta.to_bits()]);
    let all: Vec<Run> = (0..runs)
        .map(|k| run_once(p, model, theta, correct, &mut rng::stream(base, k as u64)))
        .collect();
    let n = runs as f64;
    Tally {
        h1: all.iter().filter(|r| r.verdict == Verdict::H1).count() as f64 / n,
        h0: all.iter().filter(|r| r.verdict == Verdict::H0).count() as f64 / n,
        mean_blocks: all.iter().map(|r| r.blocks as f64).sum::<f64>() / n,
        runs: all,
    }
}

fn params(s: &str) -> SprtParams {
    s.parse().unwrap()
}

/// Type I and II error rates at the hypotheses, with the overshoot
/// correction (and, if `uncorrected`, also without it), and the expected
/// number of blocks.
fn error_rates(
    label: &str,
    p: SprtParams,
    model: Model,
    runs: usize,
    tolerance: f64,
    uncorrected: bool,
) {
    let (at_h0, at_h1) = match p.model {
        EloModel::Logistic => (p.elo0, p.elo1),
        EloModel::Normalized => (
            logistic_for_normalized(p.elo0),
            logistic_for_normalized(p.elo1),
        ),
    };
    let variants: &[bool] = if uncorrected { &[true, false] } else { &[true] };
    for &correct in variants {
        let h0 = tally(p, model, at_h0, correct, runs, 1);
        let h1 = tally(p, model, at_h1, correct, runs, 2);
        let (alpha, beta) = (h0.h1, h1.h0);
        eprintln!(
            "{label} {p} overshoot correction {}: alpha {alpha:.3} (target {}), beta {beta:.3} (target {}), \
             mean blocks {:.0} at H0, {:.0} at H1 ({runs} runs each)",
            if correct { "on " } else { "off" },
            p.alpha,
            p.beta,
            h0.mean_blocks,
            h1.mean_blocks
        );
        if correct {
            assert!(
                (alpha - p.alpha).abs() <= tolerance && (beta - p.beta).abs() <= tolerance,
                "{label}: alpha {alpha}, beta {beta}, tolerance {tolerance}"
            );
        } else {
            // Without the correction the overshoot makes the test
            // conservative: never more errors than designed (beyond noise).
            assert!(alpha <= p.alpha + tolerance && beta <= p.beta + tolerance);
        }
    }
}

#[test]
fn sprt_error_rates_match_their_targets_fast() {
    error_rates(
        "pairs",
        params("elo0=0,elo1=40"),
        Model::Pairs,
        1000,
        0.02,
        false,
    );
    error_rates(
        "royale",
        params("elo0=0,elo1=40"),
        Model::Royale,
        1000,
        0.02,
        false,
    );
    error_rates(
        "pairs",
        params("elo0=0,elo1=60,model=normalized"),
        Model::Pairs,
        1000,
        0.02,
        false,
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "long tier (simulates millions of pairs): run by .ci/run and `just test-long`"
)]
fn sprt_error_rates_match_their_targets() {
    // The default non-regression test, logistic Elo.
    error_rates(
        "pairs",
        SprtParams::default(),
        Model::Pairs,
        1000,
        0.02,
        true,
    );
    // A gainer test with asymmetric error rates.
    error_rates(
        "pairs",
        params("elo0=0,elo1=20,alpha=0.1,beta=0.2"),
        Model::Pairs,
        1000,
        0.03,
        true,
    );
    // Normalized Elo.
    error_rates(
        "pairs",
        params("elo0=0,elo1=25,model=normalized"),
        Model::Pairs,
        1000,
        0.02,
        true,
    );
    // Royale blocks of six games.
    error_rates(
        "royale",
        SprtParams::default(),
        Model::Royale,
        1000,
        0.02,
        true,
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "long tier (simulates millions of pairs): run by .ci/run and `just test-long`"
)]
fn sprt_expected_pairs_and_verdicts_across_true_differences() {
    let p = SprtParams::default();
    for theta in [-20.0, -10.0, -5.0, 0.0, 10.0] {
        let t = tally(p, Model::Pairs, theta, true, 300, 3);
        eprintln!(
            "pairs {p} true elo {theta:+}: pass {:.3}, fail {:.3}, mean pairs {:.0} (300 runs)",
            t.h1, t.h0, t.mean_blocks
        );
        // Every run decides well before the cap.
        assert!(t.h0 + t.h1 == 1.0, "{theta}");
        // The pass rate rises with the true difference.
        match theta {
            x if x <= -10.0 => assert!(t.h1 < 0.08, "{theta}: {}", t.h1),
            x if x >= 0.0 => assert!(t.h1 > 0.92, "{theta}: {}", t.h1),
            _ => assert!(t.h1 > 0.2 && t.h1 < 0.8, "{theta}: {}", t.h1),
        }
    }
}

/// After the test stops, the median-unbiased estimate is on either side of
/// the truth about equally often and its interval covers it about 95% of
/// the time; the naive estimate is biased by the stopping rule.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "long tier (simulates millions of pairs): run by .ci/run and `just test-long`"
)]
fn estimate_after_stopping_is_median_unbiased_and_covers() {
    let p = params("elo0=0,elo1=20");
    let runs = 400;
    for theta in [0.0, 10.0, 20.0] {
        let t = tally(p, Model::Pairs, theta, true, runs, 4);
        let (mut above, mut covered, mut naive_above, mut naive_covered) = (0, 0, 0, 0);
        for r in &t.runs {
            let e = r.test.estimate();
            let n = naive_estimate(r.test.counts());
            above += usize::from(e.elo > theta);
            covered += usize::from(e.lo <= theta && theta <= e.hi);
            naive_above += usize::from(n.elo > theta);
            naive_covered += usize::from(n.lo <= theta && theta <= n.hi);
        }
        let f = |k: usize| k as f64 / runs as f64;
        eprintln!(
            "estimate {p} true elo {theta:+}: median-unbiased above truth {:.3}, covers {:.3}; \
             naive above {:.3}, covers {:.3} ({runs} runs, mean pairs {:.0})",
            f(above),
            f(covered),
            f(naive_above),
            f(naive_covered),
            t.mean_blocks
        );
        assert!((f(above) - 0.5).abs() < 0.08, "{theta}: {}", f(above));
        assert!((f(covered) - 0.95).abs() < 0.035, "{theta}: {}", f(covered));
    }
}

/// Round robins of seat-swapped pairs among bots of known Bradley–Terry
/// strength: how often does each bot's 95% interval contain its true
/// (mean-1500) rating?
#[test]
fn rating_intervals_cover_the_truth() {
    let leagues = 150;
    let bots = 5;
    let pairs_per_matchup = 12;
    let mut covered = [0usize; 2];
    let mut total = 0usize;
    let mut master = rng::stream(6, 0);
    for league in 0..leagues {
        let truth: Vec<f64> = (0..bots)
            .map(|_| 1500.0 + 300.0 * (master.random::<f64>() - 0.5))
            .collect();
        let mean = truth.iter().sum::<f64>() / bots as f64;
        let truth: Vec<f64> = truth.iter().map(|t| t - mean + 1500.0).collect();
        let mut rng = rng::stream(7, league);
        let mut results = Vec::new();
        let mut group = 0;
        for _ in 0..pairs_per_matchup {
            for a in 0..bots {
                for b in (a + 1)..bots {
                    let diff = truth[a] - truth[b];
                    let cdf = cumulative(&pentanomial(diff));
                    // The pair's cell gives a's total; split it into two
                    // legs consistent with that total.
                    let cell = sample(&cdf, &mut rng);
                    let (x, y) = match cell {
                        0 => (0.0, 0.0),
                        1 => (0.0, 0.5),
                        2 if rng.random::<f64>() < 0.5 => (0.5, 0.5),
                        2 => (1.0, 0.0),
                        3 => (1.0, 0.5),
                        _ => (1.0, 1.0),
                    };
                    for score_a in [x, y] {
                        results.push(PairResult {
                            a,
                            b,
                            score_a,
                            group,
                        });
                    }
                    group += 1;
                }
            }
        }
        for (k, bootstrap) in [200usize, 0].into_iter().enumerate() {
            let opts = RatingOptions {
                anchor: None,
                bootstrap,
                seed: league,
            };
            let fitted = rating::fit(bots, &results, &opts);
            covered[k] += fitted
                .iter()
                .zip(&truth)
                .filter(|(r, t)| r.lo <= **t && **t <= r.hi)
                .count();
        }
        total += bots;
    }
    let f = |k: usize| k as f64 / total as f64;
    eprintln!(
        "ratings: {leagues} leagues of {bots} bots, {pairs_per_matchup} pairs per matchup: \
         bootstrap (200) intervals cover {:.3}, covariance intervals cover {:.3} ({total} intervals)",
        f(covered[0]),
        f(covered[1])
    );
    assert!(
        (f(covered[0]) - 0.95).abs() < 0.03,
        "bootstrap {}",
        f(covered[0])
    );
    // The covariance interval treats a draw as half a win and half a loss
    // and ignores the pairs' correlation, so it is conservative here.
    assert!(f(covered[1]) >= 0.93, "covariance {}", f(covered[1]));
}

/// The exact pentanomial used above is a distribution with the intended
/// mean, so the harness's "true Elo" is what it says.
#[test]
fn the_game_model_has_the_intended_mean() {
    for theta in [-200.0, -10.0, 0.0, 35.0] {
        let p = pentanomial(theta);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mean: f64 = p
            .iter()
            .zip([0.0, 0.25, 0.5, 0.75, 1.0])
            .map(|(p, a)| p * a)
            .sum();
        assert!((mean - logistic_score(theta)).abs() < 1e-12);
    }
    let o = Outcomes::pairs();
    assert_eq!(o.values().len(), 5);
    assert!((normalized_elo(&pentanomial(logistic_for_normalized(25.0))) - 25.0).abs() < 1e-6);
}

/// A league like a real one of copies: bots of a few kinds (several copies
/// of each, of equal strength by construction), 5 seat-swapped pairs per
/// matchup (`--games 10`), draws and a position bias. Copies of one kind
/// mirror each other, as two copies of a bot that draws its moves from
/// `DOJO_SEED` do: in a seat-swapped pair each plays the other's game move
/// for move, so the pair always splits (one win each, or two draws) and
/// says nothing about either. Measured: how often each bot's interval
/// (relative to the mean of all bots) covers its true rating, and how often
/// an interval against an anchor (relative to bot 0, a copy: the interval
/// of a difference between two bots) covers the true difference.
#[test]
fn rating_intervals_cover_the_truth_in_a_league_of_copies() {
    let leagues = 100;
    let kinds: [usize; 4] = [4, 3, 3, 2];
    let kind_of: Vec<usize> = kinds
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| std::iter::repeat_n(k, n))
        .collect();
    let bots = kind_of.len();
    let pairs_per_matchup = 5;
    let resamples = 400;
    let (mut covered, mut covered_diff, mut total, mut total_diff) =
        (0usize, 0usize, 0usize, 0usize);
    let mut master = rng::stream(8, 0);
    for league in 0..leagues {
        let strength: Vec<f64> = kinds
            .iter()
            .map(|_| 400.0 * (master.random::<f64>() - 0.5))
            .collect();
        let raw: Vec<f64> = kind_of.iter().map(|&k| strength[k]).collect();
        let mean = raw.iter().sum::<f64>() / bots as f64;
        let truth: Vec<f64> = raw.iter().map(|t| t - mean + 1500.0).collect();
        let mut rng = rng::stream(9, league);
        let mut results = Vec::new();
        let mut group = 0;
        for _ in 0..pairs_per_matchup {
            for a in 0..bots {
                for b in (a + 1)..bots {
                    let (x, y) = if kind_of[a] == kind_of[b] {
                        // Mirrored: the same game twice with the names
                        // swapped (35% of games drawn, as below at 0 Elo).
                        if rng.random::<f64>() < DRAW {
                            (0.5, 0.5)
                        } else {
                            (1.0, 0.0)
                        }
                    } else {
                        let cdf = cumulative(&pentanomial(truth[a] - truth[b]));
                        match sample(&cdf, &mut rng) {
                            0 => (0.0, 0.0),
                            1 => (0.0, 0.5),
                            2 if rng.random::<f64>() < 0.5 => (0.5, 0.5),
                            2 => (1.0, 0.0),
                            3 => (1.0, 0.5),
                            _ => (1.0, 1.0),
                        }
                    };
                    for score_a in [x, y] {
                        results.push(PairResult {
                            a,
                            b,
                            score_a,
                            group,
                        });
                    }
                    group += 1;
                }
            }
        }
        let free = rating::fit(
            bots,
            &results,
            &RatingOptions {
                anchor: None,
                bootstrap: resamples,
                seed: league,
            },
        );
        covered += free
            .iter()
            .zip(&truth)
            .filter(|(r, t)| r.lo <= **t && **t <= r.hi)
            .count();
        total += bots;
        let anchored = rating::fit(
            bots,
            &results,
            &RatingOptions {
                anchor: Some((0, 1500.0)),
                bootstrap: resamples,
                seed: league,
            },
        );
        for i in 1..bots {
            let t = 1500.0 + truth[i] - truth[0];
            covered_diff += usize::from(anchored[i].lo <= t && t <= anchored[i].hi);
            total_diff += 1;
        }
    }
    let (f, fd) = (
        covered as f64 / total as f64,
        covered_diff as f64 / total_diff as f64,
    );
    eprintln!(
        "ratings: {leagues} leagues of {bots} bots in kinds of {kinds:?} (copies mirror), \
         {pairs_per_matchup} pairs per matchup, {resamples} resamples: intervals cover {f:.3} \
         ({total}), intervals against an anchor cover the difference {fd:.3} ({total_diff})"
    );
    assert!((0.90..=0.98).contains(&f), "per bot {f}");
    assert!((0.90..=0.98).contains(&fd), "differences {fd}");
}

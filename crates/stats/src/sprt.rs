//! Sequential probability ratio test for `dojo compare`, on blocks of
//! games: the generalized SPRT on the block-score frequencies, with a
//! dynamic overshoot correction, and the Elo estimate reported after it
//! stops.
//!
//! The formulas and their sources are in `crates/stats/SPRT.md`. In short:
//! a block of `g` games (a seat-swapped pair, `g = 2`, the pentanomial
//! model; a royale board and seed under every team rotation, `g = 6`) gives
//! NEW `k` half points, `k = 0..=2g`; its score as a fraction,
//! `a_k = k / 2g`, takes finitely many values with unknown probabilities
//! `p_k`. Each hypothesis constrains the distribution (its mean for the
//! logistic model, its normalized t-value for the normalized model); the
//! log-likelihood ratio compares the maximum-likelihood distributions
//! under the two constraints: `LLR = N · Σ p̂_k ln(p1_k / p0_k)`.

mod brownian;
mod estimate;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use estimate::{EloEstimate, MIN_BLOCKS, SampleNote, median_unbiased_estimate, naive_estimate};

/// Total weight of the pseudo-count mixed into the LLR's frequencies when a
/// cell is empty (as in Fishtest and Van den Bergh's `LLRcalc`).
const LLR_PRIOR_WEIGHT: f64 = 1e-3;
/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;
/// Normalized-Elo units per unit of t-value per game: `800 / ln 10`.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;
/// Largest |Elo| accepted in [`SprtParams`]; beyond it the logistic score
/// rounds to 0 or 1 and the test is meaningless anyway.
const MAX_ELO: f64 = 2000.0;
/// Most games in one block (royale uses 6).
pub const MAX_GAMES_PER_BLOCK: u32 = 12;

/// How many blocks scored each possible total: `counts[k]` is the number
/// of blocks in which NEW scored `k` half points against BASE
/// (`k = 0..=2 · games_per_block`). With `games_per_block = 2` these are
/// the pentanomial counts of seat-swapped pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcomes {
    /// Games in one block: 2 for a seat-swapped pair, 6 for a royale block.
    pub games_per_block: u32,
    /// Blocks by NEW's points in half points, `2 · games_per_block + 1`
    /// cells.
    pub counts: Vec<u64>,
}

impl Outcomes {
    /// No blocks yet. `games_per_block` is clamped to
    /// `1..=MAX_GAMES_PER_BLOCK`.
    pub fn new(games_per_block: u32) -> Outcomes {
        let g = games_per_block.clamp(1, MAX_GAMES_PER_BLOCK);
        Outcomes {
            games_per_block: g,
            counts: vec![0; 2 * g as usize + 1],
        }
    }

    /// Seat-swapped pairs: the pentanomial model.
    pub fn pairs() -> Outcomes {
        Outcomes::new(2)
    }

    /// From counts by half points; `None` unless there are
    /// `2 · games_per_block + 1` of them (with `games_per_block` in
    /// `1..=MAX_GAMES_PER_BLOCK`).
    pub fn from_counts(games_per_block: u32, counts: Vec<u64>) -> Option<Outcomes> {
        let ok = (1..=MAX_GAMES_PER_BLOCK).contains(&games_per_block)
            && counts.len() == 2 * games_per_block as usize + 1;
        ok.then_some(Outcomes {
            games_per_block,
            counts,
        })
    }

    /// Records a block from NEW's score in each of its games (1, 0.5 or 0
    /// against BASE). Scores are clamped to `[0, 1]` and the block total is
    /// rounded to the nearest half point; a non-finite score counts as 0.
    pub fn add_block(&mut self, new_scores: &[f64]) {
        let total: f64 = new_scores
            .iter()
            .map(|&s| {
                if s.is_finite() {
                    s.clamp(0.0, 1.0)
                } else {
                    0.0
                }
            })
            .sum();
        self.add_cell((total * 2.0).round() as usize);
    }

    /// Records a seat-swapped pair from NEW's scores in its two games.
    pub fn add_pair(&mut self, new_score_game1: f64, new_score_game2: f64) {
        self.add_block(&[new_score_game1, new_score_game2]);
    }

    /// Records a block that scored `cell` half points (clamped to the
    /// largest cell).
    pub fn add_cell(&mut self, cell: usize) {
        let last = self.counts.len().saturating_sub(1);
        if let Some(c) = self.counts.get_mut(cell.min(last)) {
            *c += 1;
        }
    }

    /// Number of blocks recorded.
    pub fn blocks(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The block score of each cell as a fraction: `k / (cells - 1)`.
    pub fn values(&self) -> Vec<f64> {
        let last = self.counts.len().saturating_sub(1).max(1) as f64;
        (0..self.counts.len()).map(|k| k as f64 / last).collect()
    }

    /// NEW's mean score per game (0.5 when there are no blocks).
    pub fn score(&self) -> f64 {
        let n = self.blocks();
        if n == 0 {
            return 0.5;
        }
        let points: f64 = self
            .counts
            .iter()
            .zip(self.values())
            .map(|(&c, a)| c as f64 * a)
            .sum();
        points / n as f64
    }

    /// How many different block totals were observed.
    pub fn distinct(&self) -> usize {
        self.counts.iter().filter(|&&c| c > 0).count()
    }
}

/// How an Elo difference maps to a constraint on the pair distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: the expected score per game is `1 / (1 + 10^(-elo/400))`.
    #[serde(alias = "Logistic")]
    Logistic,
    /// Normalized Elo: `(score - 1/2) / sigma_per_game = elo · ln 10 / 800`.
    #[serde(alias = "Normalized")]
    Normalized,
}

/// Hypotheses and error rates of the test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtParams {
    /// Elo difference (NEW minus BASE) under H0.
    pub elo0: f64,
    /// Elo difference under H1; must exceed `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Elo model the hypotheses are expressed in.
    pub model: EloModel,
}

impl Default for SprtParams {
    /// A non-regression test: H0 "NEW loses 10 Elo" against H1 "NEW is no
    /// worse", 5% error each way, logistic Elo.
    fn default() -> Self {
        Self {
            elo0: -10.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }
}

/// Why a [`SprtParams`] string or value was rejected.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtParamsError {
    /// An item lacked `=`.
    #[error("SPRT parameter `{0}`: expected key=value (keys: elo0, elo1, alpha, beta, model)")]
    MissingValue(String),
    /// An unknown key.
    #[error("SPRT parameter `{0}`: unknown key (expected elo0, elo1, alpha, beta or model)")]
    UnknownKey(String),
    /// A key given twice.
    #[error("SPRT parameter `{0}` given more than once")]
    Duplicate(String),
    /// A value that is not a finite number.
    #[error("SPRT parameter `{key}={value}`: expected a finite number")]
    BadNumber {
        /// The key.
        key: String,
        /// The offending value.
        value: String,
    },
    /// An unknown model name.
    #[error("SPRT parameter `model={0}`: expected `logistic` or `normalized`")]
    BadModel(String),
    /// Values that are individually numbers but do not form a valid test.
    #[error("SPRT parameters: {0}")]
    Invalid(String),
}

impl SprtParams {
    /// Checks that the hypotheses and error rates make a valid test:
    /// finite `elo0 < elo1` with |elo| ≤ 2000, `0 < alpha, beta` and
    /// `alpha + beta < 1`.
    pub fn validate(&self) -> Result<(), SprtParamsError> {
        let all_finite = [self.elo0, self.elo1, self.alpha, self.beta]
            .iter()
            .all(|x| x.is_finite());
        if !all_finite {
            return Err(SprtParamsError::Invalid("values must be finite".into()));
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtParamsError::Invalid(format!(
                "elo0 ({}) must be less than elo1 ({})",
                self.elo0, self.elo1
            )));
        }
        if self.elo0.abs() > MAX_ELO || self.elo1.abs() > MAX_ELO {
            return Err(SprtParamsError::Invalid(format!(
                "elo0 and elo1 must be within ±{MAX_ELO}"
            )));
        }
        if !(self.alpha > 0.0 && self.beta > 0.0 && self.alpha + self.beta < 1.0) {
            return Err(SprtParamsError::Invalid(format!(
                "alpha ({}) and beta ({}) must be positive with alpha + beta < 1",
                self.alpha, self.beta
            )));
        }
        Ok(())
    }
}

impl FromStr for SprtParams {
    type Err = SprtParamsError;

    /// Parses `elo0=-10,elo1=0,alpha=0.05,beta=0.05,model=logistic` or any
    /// subset of it (missing keys keep their [`Default`] values), then
    /// [validates](SprtParams::validate) the result.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut p = SprtParams::default();
        let mut seen: Vec<&str> = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SprtParamsError::MissingValue(item.to_string()));
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(SprtParamsError::Duplicate(key.to_string()));
            }
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| SprtParamsError::BadNumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })
            };
            match key {
                "elo0" => p.elo0 = number()?,
                "elo1" => p.elo1 = number()?,
                "alpha" => p.alpha = number()?,
                "beta" => p.beta = number()?,
                "model" => {
                    p.model = match value.to_ascii_lowercase().as_str() {
                        "logistic" => EloModel::Logistic,
                        "normalized" | "normalised" => EloModel::Normalized,
                        _ => return Err(SprtParamsError::BadModel(value.to_string())),
                    }
                }
                _ => return Err(SprtParamsError::UnknownKey(key.to_string())),
            }
            seen.push(key);
        }
        p.validate()?;
        Ok(p)
    }
}

impl fmt::Display for SprtParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = match self.model {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        };
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={model}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// Outcome of the test so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The LLR reached the lower bound: accept H0.
    H0,
    /// The LLR reached the upper bound: accept H1.
    H1,
    /// Keep playing.
    Continue,
}

/// Wald's stopping bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`,
/// before the overshoot correction.
pub fn bounds(p: &SprtParams) -> (f64, f64) {
    (
        (p.beta / (1.0 - p.alpha)).ln(),
        ((1.0 - p.beta) / p.alpha).ln(),
    )
}

/// Generalized log-likelihood ratio of H1 against H0 for the observed
/// blocks; 0 without data, and 0 when a constrained maximum cannot be found
/// (only for parameters that fail [`SprtParams::validate`]).
pub fn llr(counts: &Outcomes, p: &SprtParams) -> f64 {
    llr_from(counts, p, &mut [0.0; 2])
}

/// [`llr`], with the logistic model's Lagrange multipliers of H0 and H1
/// started from (and updated to) `warm`: after one more block the new
/// multipliers are close to the old ones, so the sequential test needs a
/// Newton step or two instead of a solve from scratch.
fn llr_from(counts: &Outcomes, p: &SprtParams, warm: &mut [f64; 2]) -> f64 {
    let n = counts.blocks();
    if n == 0 {
        return 0.0;
    }
    let phat = frequencies(counts);
    if p.model == EloModel::Logistic {
        let values = counts.values();
        // `Σ p̂ ln q` with `q = p̂ / (1 + λx)` is `Σ p̂ ln p̂ - Σ p̂ ln(1 + λx)`;
        // the first term cancels in the ratio.
        let ll = |elo: f64, start: &mut f64| -> Option<f64> {
            let s = logistic_score(elo);
            let x: Vec<f64> = values.iter().map(|a| a - s).collect();
            let lambda = solve_multiplier_from(&x, &phat, *start)?;
            *start = lambda;
            Some(
                -phat
                    .iter()
                    .zip(&x)
                    .filter(|(f, _)| **f > 0.0)
                    .map(|(f, x)| f * (lambda * x).ln_1p())
                    .sum::<f64>(),
            )
        };
        let [w0, w1] = warm;
        return match (ll(p.elo0, w0), ll(p.elo1, w1)) {
            (Some(l0), Some(l1)) => n as f64 * (l1 - l0),
            _ => 0.0,
        };
    }
    match increments(counts, &phat, p) {
        Some(l) => n as f64 * phat.iter().zip(&l).map(|(f, l)| f * l).sum::<f64>(),
        None => 0.0,
    }
}

/// The LLR contributed by one block of each outcome, `ln(p1_k / p0_k)`,
/// where `p0` and `p1` are the constrained maxima for the frequencies `phat`.
fn increments(counts: &Outcomes, phat: &[f64], p: &SprtParams) -> Option<Vec<f64>> {
    let values = counts.values();
    let q0 = constrained_mle(&values, phat, constraint(p, p.elo0, counts.games_per_block))?;
    let q1 = constrained_mle(&values, phat, constraint(p, p.elo1, counts.games_per_block))?;
    Some(q0.iter().zip(&q1).map(|(a, b)| (b / a).ln()).collect())
}

/// The constraint hypothesis `elo` puts on the block distribution.
fn constraint(p: &SprtParams, elo: f64, games_per_block: u32) -> Constraint {
    match p.model {
        EloModel::Logistic => Constraint::Mean(logistic_score(elo)),
        EloModel::Normalized => Constraint::TValue {
            reference: 0.5,
            // A block's score is the mean of its g games, so its standard
            // deviation is that of a game divided by sqrt(g).
            t: f64::from(games_per_block).sqrt() * elo / NELO_PER_T,
        },
    }
}

/// The sequential test as `dojo compare` runs it: blocks are added one at
/// a time, the LLR is recomputed after each, and the test stops when it
/// crosses a bound moved inward by the estimated overshoot.
///
/// **Dynamic overshoot correction** (Fishtest, after Siegmund): the LLR is
/// checked after every block, so when it crosses a bound it lands beyond it
/// by a random overshoot, which makes the realised error rates smaller
/// than `alpha` and `beta` and the test longer than needed. Each time the
/// LLR reaches a new minimum (a descending ladder epoch) the step `δ` below
/// the previous minimum is recorded; the expected overshoot below the lower
/// bound is estimated as `Σδ² / (2 Σδ)` (the renewal-theory formula
/// `E[H²] / 2E[H]` for ladder heights `H`), and likewise with new maxima
/// for the upper bound. The test stops at `lower + o0` and `upper - o1`.
/// Each correction is capped at half its bound.
#[derive(Debug, Clone)]
pub struct SequentialTest {
    params: SprtParams,
    counts: Outcomes,
    llr: f64,
    correct_overshoot: bool,
    /// The logistic solver's multipliers after the last block.
    warm: [f64; 2],
    /// Running minimum of the LLR and the sums of its ladder steps.
    low: Ladder,
    /// Running maximum and its ladder steps.
    high: Ladder,
}

/// Ladder heights of a running extreme of the LLR.
#[derive(Debug, Clone, Copy, Default)]
struct Ladder {
    extreme: f64,
    sum: f64,
    sum_sq: f64,
}

impl Ladder {
    /// Records `llr` if it goes beyond the extreme in direction `sign`.
    fn update(&mut self, llr: f64, sign: f64) {
        let step = sign * (llr - self.extreme);
        if step > 0.0 {
            self.sum += step;
            self.sum_sq += step * step;
            self.extreme = llr;
        }
    }

    /// Estimated expected overshoot, `Σδ² / (2 Σδ)`.
    fn overshoot(&self) -> f64 {
        if self.sum > 0.0 {
            self.sum_sq / (2.0 * self.sum)
        } else {
            0.0
        }
    }
}

impl SequentialTest {
    /// A test of `params` on blocks of `games_per_block` games, with the
    /// overshoot correction.
    pub fn new(params: SprtParams, games_per_block: u32) -> SequentialTest {
        SequentialTest {
            params,
            counts: Outcomes::new(games_per_block),
            llr: 0.0,
            correct_overshoot: true,
            warm: [0.0; 2],
            low: Ladder::default(),
            high: Ladder::default(),
        }
    }

    /// The same test with Wald's plain bounds (no overshoot correction);
    /// for measuring what the correction changes.
    pub fn without_overshoot_correction(
        params: SprtParams,
        games_per_block: u32,
    ) -> SequentialTest {
        SequentialTest {
            correct_overshoot: false,
            ..SequentialTest::new(params, games_per_block)
        }
    }

    /// Adds a block from NEW's score in each of its games; returns the
    /// verdict after it.
    pub fn add_block(&mut self, new_scores: &[f64]) -> Verdict {
        self.counts.add_block(new_scores);
        self.update()
    }

    /// Adds a block that scored `cell` half points; returns the verdict.
    pub fn add_cell(&mut self, cell: usize) -> Verdict {
        self.counts.add_cell(cell);
        self.update()
    }

    fn update(&mut self) -> Verdict {
        self.llr = llr_from(&self.counts, &self.params, &mut self.warm);
        self.low.update(self.llr, -1.0);
        self.high.update(self.llr, 1.0);
        self.verdict()
    }

    /// The parameters.
    pub fn params(&self) -> &SprtParams {
        &self.params
    }

    /// The blocks so far.
    pub fn counts(&self) -> &Outcomes {
        &self.counts
    }

    /// The current LLR.
    pub fn llr(&self) -> f64 {
        self.llr
    }

    /// Wald's bounds.
    pub fn wald_bounds(&self) -> (f64, f64) {
        bounds(&self.params)
    }

    /// The bounds in force: Wald's, moved inward by the estimated
    /// overshoots (unless the correction is off).
    pub fn bounds(&self) -> (f64, f64) {
        let (lower, upper) = bounds(&self.params);
        if !self.correct_overshoot {
            return (lower, upper);
        }
        let o0 = self.low.overshoot().min(-lower / 2.0);
        let o1 = self.high.overshoot().min(upper / 2.0);
        (lower + o0, upper - o1)
    }

    /// H1 at or above the upper bound, H0 at or below the lower one.
    pub fn verdict(&self) -> Verdict {
        if self.counts.blocks() == 0 {
            return Verdict::Continue;
        }
        let (lower, upper) = self.bounds();
        if self.llr >= upper {
            Verdict::H1
        } else if self.llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The median-unbiased Elo estimate and its 95% interval given how the
    /// test stands now (see [`median_unbiased_estimate`]).
    pub fn estimate(&self) -> EloEstimate {
        median_unbiased_estimate(&self.counts, &self.params, self.verdict())
    }
}

pub use crate::elo::{logistic_score, score_to_elo};

/// Observed frequencies for the LLR. If a cell is empty, every count `k`
/// becomes `k (1 - ε/N) + ε/C` with `ε = 10⁻³` and `C` cells (total still
/// `N`), so each outcome has positive probability and the constrained
/// maxima exist.
fn frequencies(counts: &Outcomes) -> Vec<f64> {
    let n = counts.blocks() as f64;
    let cells = counts.counts.len() as f64;
    let any_empty = counts.counts.contains(&0);
    counts
        .counts
        .iter()
        .map(|&k| {
            let k = k as f64;
            let k = if any_empty {
                k * (1.0 - LLR_PRIOR_WEIGHT / n) + LLR_PRIOR_WEIGHT / cells
            } else {
                k
            };
            k / n
        })
        .collect()
}

/// Mean and variance of a distribution on `values`.
fn moments(values: &[f64], p: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(p).map(|(a, q)| a * q).sum();
    let var: f64 = values
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}

/// `Σ p̂_i ln q_i`, skipping cells with `p̂_i = 0`.
fn log_likelihood(phat: &[f64], q: &[f64]) -> f64 {
    phat.iter()
        .zip(q)
        .filter(|(p, _)| **p > 0.0)
        .map(|(p, q)| p * q.ln())
        .sum()
}

/// The constraint a hypothesis puts on the distribution of pair scores.
#[derive(Debug, Clone, Copy)]
enum Constraint {
    /// The mean equals this value.
    Mean(f64),
    /// `(mean - reference) / standard deviation = t`.
    TValue { reference: f64, t: f64 },
}

/// The distribution on `values` maximising `Σ p̂_i ln q_i` under the
/// constraint, or `None` if the solver finds none.
fn constrained_mle(values: &[f64], phat: &[f64], c: Constraint) -> Option<Vec<f64>> {
    match c {
        Constraint::Mean(s) => {
            let x: Vec<f64> = values.iter().map(|a| a - s).collect();
            let lambda = solve_multiplier(&x, phat)?;
            Some(tilt(phat, &x, lambda))
        }
        Constraint::TValue { reference, t } => mle_t_value(values, phat, reference, t),
    }
}

/// `q_i = p̂_i / (1 + λ x_i)`.
fn tilt(phat: &[f64], x: &[f64], lambda: f64) -> Vec<f64> {
    phat.iter()
        .zip(x)
        .map(|(p, xi)| p / (1.0 + lambda * xi))
        .collect()
}

/// The Lagrange multiplier `λ` solving `Σ p̂_i x_i / (1 + λ x_i) = 0` with
/// every `1 + λ x_i > 0` (over cells with `p̂_i > 0`). The left side is
/// strictly decreasing in `λ` and runs from +∞ to -∞ across the admissible
/// interval when the `x_i` take both signs, so the root is unique; it is
/// found by Newton steps safeguarded by bisection. `None` if the `x_i`
/// (over observed cells) do not take both signs.
fn solve_multiplier(x: &[f64], phat: &[f64]) -> Option<f64> {
    solve_multiplier_from(x, phat, 0.0)
}

/// [`solve_multiplier`] with Newton's first iterate at `start` (0 if it is
/// not admissible).
fn solve_multiplier_from(x: &[f64], phat: &[f64], start: f64) -> Option<f64> {
    let observed = || {
        x.iter()
            .zip(phat)
            .filter(|(_, p)| **p > 0.0)
            .map(|(x, _)| *x)
    };
    let xmin = observed().fold(f64::INFINITY, f64::min);
    let xmax = observed().fold(f64::NEG_INFINITY, f64::max);
    if !(xmin < 0.0 && xmax > 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (-1.0 / xmax, -1.0 / xmin);
    let f = |l: f64| -> (f64, f64) {
        let mut v = 0.0;
        let mut d = 0.0;
        for (xi, p) in x.iter().zip(phat) {
            if *p > 0.0 {
                let den = 1.0 + l * xi;
                v += p * xi / den;
                d -= p * xi * xi / (den * den);
            }
        }
        (v, d)
    };
    let mut l = if start > lo && start < hi { start } else { 0.0 };
    for _ in 0..200 {
        let (v, d) = f(l);
        if v == 0.0 {
            return Some(l);
        }
        if v > 0.0 {
            lo = l;
        } else {
            hi = l;
        }
        let mut next = l - v / d;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - l).abs() <= 1e-15 * (1.0 + l.abs()) {
            return Some(next);
        }
        l = next;
    }
    Some(l)
}

/// Maximum-likelihood distribution with `(mean - reference) / sd = t`.
///
/// Stationarity of the Lagrangian gives `q_i = p̂_i / (1 + λ x_i)` with
/// `x_i = a_i - reference - (t/2) σ (1 + ((a_i - μ)/σ)²)`, where `μ` and `σ`
/// are the mean and standard deviation of `q` itself; any fixed point
/// satisfies the constraint. We iterate: compute `x` from the current `q`,
/// solve for `λ`, update `q`. Starting from `p̂` (where `t` equals the
/// observed t-value) and moving `t` to its target in steps (more steps if
/// a step fails), each solve starts near its answer.
fn mle_t_value(values: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let (mean, var) = moments(values, phat);
    if var.is_nan() || var <= 0.0 {
        return None;
    }
    let t_hat = (mean - reference) / var.sqrt();
    let mut steps = 1;
    while steps <= 1024 {
        let mut q = phat.to_vec();
        let mut ok = true;
        for k in 1..=steps {
            let tk = t_hat + (t - t_hat) * k as f64 / steps as f64;
            match t_value_fixed_point(values, phat, reference, tk, &q) {
                Some(next) => q = next,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return Some(q);
        }
        steps *= 4;
    }
    mle_t_value_scan(values, phat, reference, t)
}

/// Fallback for [`mle_t_value`] when the fixed-point iteration does not
/// settle (large `|t|` with nearly degenerate data). With `b_i = a_i -
/// reference`, `M2 = Σ q b²` and `τ = t / √(1 + t²)`, the constraint reads
/// `Σ q b = τ √M2`. For a trial `w = √M2` the stationarity conditions give
/// `q_i = p̂_i / (1 + κ y_i)` with `y_i = b_i - τ b_i² / (2w) - τ w / 2`,
/// `κ` from the same 1-D solve; the constraint then holds exactly when
/// `F(w) = Σ q b² - w² = 0`. We scan `w` on a geometric grid over
/// `[10⁻⁴, 1]`, bisect every sign change of `F`, and keep the root with the
/// highest likelihood.
fn mle_t_value_scan(values: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let tau = t / (1.0 + t * t).sqrt();
    let b: Vec<f64> = values.iter().map(|a| a - reference).collect();
    let at = |w: f64| -> Option<(f64, Vec<f64>)> {
        let y: Vec<f64> = b
            .iter()
            .map(|bi| bi - tau * bi * bi / (2.0 * w) - tau * w / 2.0)
            .collect();
        let q = tilt(phat, &y, solve_multiplier(&y, phat)?);
        let m2: f64 = q.iter().zip(&b).map(|(qi, bi)| qi * bi * bi).sum();
        Some((m2 - w * w, q))
    };
    let grid = 400;
    let w_of = |k: usize| 1e-4 * 1e4f64.powf(k as f64 / grid as f64);
    let mut best: Option<(f64, Vec<f64>)> = None;
    let mut prev: Option<(f64, f64)> = None;
    for k in 0..=grid {
        let w = w_of(k);
        let Some((fw, _)) = at(w) else {
            prev = None;
            continue;
        };
        let crossing = prev.filter(|&(_, fp)| (fp <= 0.0) != (fw <= 0.0));
        if let Some((wp, fp)) = crossing {
            let (mut lo, mut hi, flo) = (wp, w, fp);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                match at(mid) {
                    Some((fm, _)) if (fm <= 0.0) == (flo <= 0.0) => lo = mid,
                    Some(_) => hi = mid,
                    None => break,
                }
            }
            if let Some((_, q)) = at(0.5 * (lo + hi)) {
                let l = log_likelihood(phat, &q);
                if best.as_ref().is_none_or(|(bl, _)| l > *bl) {
                    best = Some((l, q));
                }
            }
        }
        prev = Some((w, fw));
    }
    best.map(|(_, q)| q)
}

fn t_value_fixed_point(
    values: &[f64],
    phat: &[f64],
    reference: f64,
    t: f64,
    start: &[f64],
) -> Option<Vec<f64>> {
    let mut q = start.to_vec();
    for _ in 0..500 {
        let (mu, var) = moments(values, &q);
        if var.is_nan() || var <= 0.0 {
            return None;
        }
        let sigma = var.sqrt();
        let x: Vec<f64> = values
            .iter()
            .map(|a| {
                let z = (a - mu) / sigma;
                a - reference - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let lambda = solve_multiplier(&x, phat)?;
        let next = tilt(phat, &x, lambda);
        let change = next
            .iter()
            .zip(&q)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        q = next;
        if change < 1e-15 {
            return Some(q);
        }
    }
    // Not settled to the last bits: accept if the constraint holds closely.
    let (mu, var) = moments(values, &q);
    ((mu - reference - t * var.sqrt()).abs() < 1e-10).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V3: [f64; 3] = [0.0, 0.5, 1.0];
    const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    fn penta(c: [u64; 5]) -> Outcomes {
        Outcomes::from_counts(2, c.to_vec()).unwrap()
    }

    /// The verdict of a fixed sample against Wald's bounds.
    fn verdict(counts: &Outcomes, p: &SprtParams) -> Verdict {
        let v = llr(counts, p);
        let (lower, upper) = bounds(p);
        if counts.blocks() > 0 && v >= upper {
            Verdict::H1
        } else if counts.blocks() > 0 && v <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    fn ll(phat: &[f64], q: &[f64]) -> f64 {
        phat.iter().zip(q).map(|(p, q)| p * q.ln()).sum()
    }

    /// Maximises a function of one variable on `[lo, hi]`: a fine grid,
    /// then golden-section search around the best grid point.
    fn brute_max(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
        let n = 20_000;
        let h = (hi - lo) / n as f64;
        let best = (1..n)
            .map(|i| lo + h * i as f64)
            .max_by(|a, b| f(*a).total_cmp(&f(*b)))
            .unwrap();
        let (mut a, mut b) = (best - h, best + h);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..200 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if f(c) > f(d) {
                b = d;
            } else {
                a = c;
            }
        }
        f(0.5 * (a + b))
    }

    /// Independent maximum for three outcomes {0, 1/2, 1} with a fixed
    /// mean: the draw probability `d` is the only free parameter.
    fn brute_mean_3(phat: &[f64; 3], s: f64) -> f64 {
        let f = |d: f64| {
            let q = [1.0 - s - d / 2.0, d, s - d / 2.0];
            if q.iter().any(|x| *x <= 0.0) {
                f64::NEG_INFINITY
            } else {
                ll(phat, &q)
            }
        };
        brute_max(f, 0.0, 2.0 * s.min(1.0 - s))
    }

    /// Independent maximum for three outcomes with a fixed t-value: the
    /// mean `m` fixes `σ = (m - 1/2)/t`, and then `d = 4(m - m² - σ²)`.
    fn brute_t_3(phat: &[f64; 3], t: f64) -> f64 {
        let f = |m: f64| {
            let sigma = (m - 0.5) / t;
            let d = 4.0 * (m - m * m - sigma * sigma);
            let q = [1.0 - m - d / 2.0, d, m - d / 2.0];
            if sigma <= 0.0 || q.iter().any(|x| *x <= 0.0) {
                f64::NEG_INFINITY
            } else {
                ll(phat, &q)
            }
        };
        let (lo, hi) = if t > 0.0 { (0.5, 1.0) } else { (0.0, 0.5) };
        brute_max(f, lo, hi)
    }

    fn freq3(c: [u64; 3]) -> [f64; 3] {
        let n: u64 = c.iter().sum();
        c.map(|k| k as f64 / n as f64)
    }

    #[test]
    fn mean_constrained_mle_matches_brute_force_on_three_outcomes() {
        for (counts, elo0, elo1) in [
            ([3, 10, 7], -10.0, 0.0),
            ([5, 2, 1], 0.0, 20.0),
            ([1, 1, 6], -50.0, 50.0),
        ] {
            let phat = freq3(counts);
            let n: u64 = counts.iter().sum();
            let mine = |elo: f64| {
                let q = constrained_mle(&V3, &phat, Constraint::Mean(logistic_score(elo))).unwrap();
                log_likelihood(&phat, &q)
            };
            let fast = n as f64 * (mine(elo1) - mine(elo0));
            let brute = n as f64
                * (brute_mean_3(&phat, logistic_score(elo1))
                    - brute_mean_3(&phat, logistic_score(elo0)));
            assert!((fast - brute).abs() < 1e-6, "{counts:?}: {fast} vs {brute}");
        }
    }

    #[test]
    fn t_value_constrained_mle_matches_brute_force_on_three_outcomes() {
        for (counts, t0, t1) in [
            ([3, 10, 7], -0.05, 0.05),
            ([5, 2, 1], 0.02, 0.3),
            ([2, 30, 4], -0.4, -0.1),
        ] {
            let phat = freq3(counts);
            let n: u64 = counts.iter().sum();
            let mine = |t: f64| {
                let c = Constraint::TValue { reference: 0.5, t };
                let q = constrained_mle(&V3, &phat, c).unwrap();
                let (mu, var) = moments(&V3, &q);
                assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!((mu - 0.5 - t * var.sqrt()).abs() < 1e-10);
                log_likelihood(&phat, &q)
            };
            let fast = n as f64 * (mine(t1) - mine(t0));
            let brute = n as f64 * (brute_t_3(&phat, t1) - brute_t_3(&phat, t0));
            assert!((fast - brute).abs() < 1e-6, "{counts:?}: {fast} vs {brute}");
        }
    }

    /// Independent five-outcome check of the logistic LLR through the dual:
    /// `max LL = Σ p̂ ln p̂ - max_λ Σ p̂ ln(1 + λ(a - s))`, maximised by
    /// golden-section search (no root finding).
    #[test]
    fn pentanomial_logistic_llr_matches_dual_golden_section() {
        let counts = penta([4, 21, 40, 26, 9]);
        let n = counts.blocks() as f64;
        let phat: Vec<f64> = counts.counts.iter().map(|&k| k as f64 / n).collect();
        let dual = |s: f64| {
            let h = |l: f64| -> f64 {
                let mut v = 0.0;
                for (a, p) in VALUES.iter().zip(&phat) {
                    let den = 1.0 + l * (a - s);
                    if den <= 0.0 {
                        return f64::NEG_INFINITY;
                    }
                    v += p * den.ln();
                }
                v
            };
            let entropy: f64 = phat.iter().map(|p| p * p.ln()).sum();
            entropy - brute_max(h, -1.0 / (1.0 - s), 1.0 / s)
        };
        let p = SprtParams {
            elo0: -10.0,
            elo1: 5.0,
            ..SprtParams::default()
        };
        let expected = n * (dual(logistic_score(5.0)) - dual(logistic_score(-10.0)));
        let got = llr(&counts, &p);
        assert!((got - expected).abs() < 1e-6, "{got} vs {expected}");
    }

    /// A published value: montytest's statistics page for a test with
    /// pentanomial counts [13, 37, 50, 25, 3] and normalized bounds [0, 4]
    /// reports "Normalized (exact) -0.54912".
    #[test]
    fn pentanomial_normalized_llr_matches_published_value() {
        let counts = penta([13, 37, 50, 25, 3]);
        let p = SprtParams {
            elo0: 0.0,
            elo1: 4.0,
            model: EloModel::Normalized,
            ..SprtParams::default()
        };
        let got = llr(&counts, &p);
        assert!((got - -0.54912).abs() < 1e-5, "{got}");
        // The same page: Elo -43.6578 [-75.5244, -15.4045] is the
        // trinomial-free pentanomial estimate.
        let (mean, _) = moments(&VALUES, &frequencies(&counts));
        let elo = score_to_elo(mean);
        assert!((elo - -43.6578).abs() < 1e-3, "{elo}");
    }

    #[test]
    fn t_value_solvers_agree_and_cope_with_extreme_hypotheses() {
        let t_of = |nelo: f64| std::f64::consts::SQRT_2 * nelo / NELO_PER_T;
        let satisfies = |q: &[f64], t: f64| {
            let (mu, var) = moments(&VALUES, q);
            (q.iter().sum::<f64>() - 1.0).abs() < 1e-10 && (mu - 0.5 - t * var.sqrt()).abs() < 1e-9
        };
        // Ordinary cases: the fixed point and the scan find the same maximum.
        for c in [[13, 37, 50, 25, 3], [1, 2, 3, 4, 5], [4, 21, 40, 26, 9]] {
            let phat = frequencies(&penta(c));
            for nelo in [-20.0, 0.5, 10.0] {
                let a = mle_t_value(&VALUES, &phat, 0.5, t_of(nelo)).unwrap();
                let b = mle_t_value_scan(&VALUES, &phat, 0.5, t_of(nelo)).unwrap();
                assert!(satisfies(&a, t_of(nelo)) && satisfies(&b, t_of(nelo)));
                let (la, lb) = (log_likelihood(&phat, &a), log_likelihood(&phat, &b));
                assert!((la - lb).abs() < 1e-9, "{c:?} {nelo}: {la} vs {lb}");
            }
        }
        // Large |t| with nearly degenerate data, where the plain fixed point
        // does not settle: a constrained maximum is still found.
        for c in [[0, 0, 100, 0, 0], [50, 0, 0, 0, 50], [0, 0, 0, 0, 1]] {
            let phat = frequencies(&penta(c));
            for nelo in [-2000.0, 400.0, 1000.0, 2000.0] {
                let q = mle_t_value(&VALUES, &phat, 0.5, t_of(nelo)).unwrap();
                assert!(satisfies(&q, t_of(nelo)), "{c:?} {nelo}");
            }
        }
        // Draws only, hypotheses far above: clearly H0.
        let p = SprtParams {
            elo0: 400.0,
            elo1: 1000.0,
            model: EloModel::Normalized,
            ..SprtParams::default()
        };
        assert_eq!(verdict(&penta([0, 0, 100, 0, 0]), &p), Verdict::H0);
    }

    #[test]
    fn no_data_gives_zero() {
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let p = SprtParams {
                model,
                ..SprtParams::default()
            };
            assert_eq!(llr(&Outcomes::pairs(), &p), 0.0);
            assert_eq!(verdict(&Outcomes::pairs(), &p), Verdict::Continue);
        }
    }

    #[test]
    fn tiny_and_one_sided_samples_stay_finite() {
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let p = SprtParams {
                model,
                elo0: -20.0,
                elo1: 300.0,
                ..SprtParams::default()
            };
            for counts in [
                [0, 0, 0, 0, 1],
                [1, 0, 0, 0, 0],
                [0, 0, 3, 0, 0],
                [0, 5, 0, 7, 0],
            ] {
                let v = llr(&penta(counts), &p);
                assert!(v.is_finite(), "{counts:?} {model:?}");
            }
            // With an empty cell, the regularised counts are used.
            let raw = penta([0, 2, 5, 3, 1]);
            let reg = frequencies(&raw);
            assert!(reg.iter().all(|f| *f > 0.0));
            assert!((reg.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn sign_follows_the_evidence() {
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let p = SprtParams {
                model,
                ..SprtParams::default()
            };
            let (lower, upper) = bounds(&p);
            let winning = penta([1, 10, 30, 20, 5]);
            let losing = penta([5, 20, 30, 10, 1]);
            assert!(llr(&winning, &p) > 0.0);
            assert!(llr(&losing, &p) < 0.0);
            let reached = (1..=50).any(|k| {
                let times = |o: &Outcomes| {
                    Outcomes::from_counts(2, o.counts.iter().map(|c| c * k).collect()).unwrap()
                };
                let (w, l) = (times(&winning), times(&losing));
                let done = verdict(&w, &p) == Verdict::H1 && verdict(&l, &p) == Verdict::H0;
                if done {
                    assert!(llr(&w, &p) >= upper && llr(&l, &p) <= lower);
                }
                done
            });
            assert!(reached, "{model:?}: bounds never reached");
        }
    }

    #[test]
    fn bounds_are_wald_bounds() {
        let (lo, hi) = bounds(&SprtParams::default());
        assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-15);
        assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-15);
    }

    #[test]
    fn pentanomial_counts_pairs_and_score() {
        let mut c = Outcomes::pairs();
        c.add_pair(1.0, 1.0);
        c.add_pair(0.5, 1.0);
        c.add_pair(0.0, 1.0);
        c.add_pair(0.5, 0.5);
        c.add_pair(0.0, 0.0);
        c.add_pair(f64::NAN, 7.0);
        assert_eq!(c.counts, [1, 0, 3, 1, 1]);
        assert_eq!(c.blocks(), 6);
        assert!((c.score() - 6.5 / 12.0).abs() < 1e-15);
        assert_eq!(Outcomes::pairs().score(), 0.5);
        // A royale block: six games, thirteen totals.
        let mut r = Outcomes::new(6);
        r.add_block(&[1.0, 0.5, 0.0, 1.0, 1.0, 0.5]);
        assert_eq!(r.counts.len(), 13);
        assert_eq!(r.counts[8], 1);
        assert!((r.score() - 4.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn params_parse_any_subset_and_reject_bad_input() {
        assert_eq!("".parse::<SprtParams>().unwrap(), SprtParams::default());
        let p: SprtParams = "elo1=5, model=Normalized".parse().unwrap();
        assert_eq!(p.elo1, 5.0);
        assert_eq!(p.elo0, -10.0);
        assert_eq!(p.model, EloModel::Normalized);
        let full: SprtParams = "elo0=0,elo1=2,alpha=0.1,beta=0.2,model=logistic"
            .parse()
            .unwrap();
        assert_eq!(full.to_string().parse::<SprtParams>().unwrap(), full);

        let err = |s: &str| s.parse::<SprtParams>().unwrap_err();
        assert!(matches!(err("elo0"), SprtParamsError::MissingValue(_)));
        assert!(matches!(err("elo2=3"), SprtParamsError::UnknownKey(k) if k == "elo2"));
        assert!(matches!(
            err("elo0=1,elo0=2"),
            SprtParamsError::Duplicate(_)
        ));
        assert!(matches!(err("alpha=x"), SprtParamsError::BadNumber { .. }));
        assert!(matches!(
            err("alpha=inf"),
            SprtParamsError::BadNumber { .. }
        ));
        assert!(matches!(err("model=bayes"), SprtParamsError::BadModel(_)));
        assert!(matches!(err("elo0=5,elo1=0"), SprtParamsError::Invalid(_)));
        assert!(matches!(err("alpha=0"), SprtParamsError::Invalid(_)));
        assert!(matches!(
            err("alpha=0.6,beta=0.5"),
            SprtParamsError::Invalid(_)
        ));
        assert!(err("elo2=3").to_string().contains("elo2"));
    }

    #[test]
    fn balanced_sample_estimates_zero_with_symmetric_interval() {
        let e = naive_estimate(&penta([3, 20, 50, 20, 3]));
        assert!(e.elo.abs() < 1e-9);
        assert!((e.hi + e.lo).abs() < 1e-9);
        assert!(e.lo < -5.0 && e.hi > 5.0);
        // More pairs, narrower interval.
        let f = naive_estimate(&penta([30, 200, 500, 200, 30]));
        assert!(f.hi - f.lo < 0.5 * (e.hi - e.lo));
        let none = naive_estimate(&Outcomes::pairs());
        assert!(none.elo == 0.0 && none.lo.is_finite() && none.hi > 2000.0);
        let all_wins = naive_estimate(&penta([0, 0, 0, 0, 10]));
        assert!(all_wins.elo.is_finite() && all_wins.elo > 400.0 && all_wins.hi < 2000.0);
    }
}

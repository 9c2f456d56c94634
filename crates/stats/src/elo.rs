//! The Elo scale: expected score from an Elo difference and back, and the
//! pairwise score of two seats of one game. Ratings, the SPRT and reports
//! all use these, so the formulas exist once.

/// Scores closer to 0 or 1 than this are clamped before conversion to Elo
/// (about ±2400 Elo), so a perfect score gives a large finite value.
const SCORE_EPS: f64 = 1e-6;

/// Elo points per natural-log unit of strength: `400 / ln 10` (a rating is
/// `400 log10(strength)`, so the logistic score is `σ(elo / ELO_PER_NAT)`).
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Expected score per game at logistic Elo difference `elo`:
/// `1 / (1 + 10^(-elo / 400))`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Expected score of a player rated `elo_a` against one rated `elo_b`.
pub fn expected_score(elo_a: f64, elo_b: f64) -> f64 {
    logistic_score(elo_a - elo_b)
}

/// Logistic Elo difference of a score per game, clamped to about ±2400.
pub fn score_to_elo(s: f64) -> f64 {
    let s = s.clamp(SCORE_EPS, 1.0 - SCORE_EPS);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The slope of [`score_to_elo`] at score `s`, `d elo / d s = 400 /
/// (ln 10 · s (1 - s))`: how an interval in score maps to one in Elo (the
/// delta method).
pub fn elo_per_score(s: f64) -> f64 {
    // Written out rather than as `ELO_PER_NAT / (s (1 - s))`: the two round
    // differently in the last bit, and reports must not change.
    400.0 / (std::f64::consts::LN_10 * s * (1.0 - s))
}

/// Pairwise score of seat `i` against seat `j` of one game, from their
/// seat scores (1 win, 0.5 draw, 0 loss): 1 if `i` scored more than `j`
/// (it won, or drew where `j` lost), 0 if less, 0.5 otherwise (both lost,
/// or a draw). A two-seat game's pairwise score is its seat score.
pub fn pair_score(score_i: f64, score_j: f64) -> f64 {
    match score_i.partial_cmp(&score_j) {
        Some(std::cmp::Ordering::Greater) => 1.0,
        Some(std::cmp::Ordering::Less) => 0.0,
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_score_is_logistic_in_elo() {
        assert!((expected_score(1500.0, 1500.0) - 0.5).abs() < 1e-15);
        assert!((expected_score(1900.0, 1500.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(1500.0, 1900.0) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(expected_score(1700.0, 1500.0), logistic_score(200.0));
    }

    #[test]
    fn score_to_elo_inverts_logistic_score() {
        for elo in [-800.0, -35.5, 0.0, 10.0, 400.0] {
            assert!((score_to_elo(logistic_score(elo)) - elo).abs() < 1e-9);
        }
        assert!(score_to_elo(1.0).is_finite() && score_to_elo(1.0) > 2000.0);
        assert!(score_to_elo(0.0).is_finite() && score_to_elo(0.0) < -2000.0);
    }

    #[test]
    fn elo_per_score_is_the_slope_of_score_to_elo() {
        for s in [0.1, 0.5, 0.8] {
            let h = 1e-6;
            let numeric = (score_to_elo(s + h) - score_to_elo(s - h)) / (2.0 * h);
            assert!((elo_per_score(s) - numeric).abs() < 1e-3 * numeric, "{s}");
        }
        assert!((logistic_score(ELO_PER_NAT) - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-15);
    }

    #[test]
    fn pair_score_of_wins_draws_and_losses() {
        assert_eq!(pair_score(1.0, 0.0), 1.0);
        assert_eq!(pair_score(0.0, 1.0), 0.0);
        assert_eq!(pair_score(0.5, 0.5), 0.5);
        // Two losers of a three-seat game are even.
        assert_eq!(pair_score(0.0, 0.0), 0.5);
        // Two sides that drew each beat a third that lost (a faulty royale
        // side beside two clean ones): a win, not three quarters.
        assert_eq!(pair_score(0.5, 0.0), 1.0);
        assert_eq!(pair_score(0.0, 0.5), 0.0);
    }
}

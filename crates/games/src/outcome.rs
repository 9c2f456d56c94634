//! What one played game gives the tournament above: per-seat scores and
//! fault counts, the record, or why there is none.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How often one seat's answers could not be used in one game: the
/// runner's fault counts, the same type in records, stored lines and
/// reports (the old name, kept because the league's files call it that).
pub type SeatFaults = dojo_runner::FaultCounts;

/// The outcome of one finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Per seat: 1 win, 0.5 draw, 0 loss. A game's `GameDef::play` gives
    /// the board's result; [`crate::BotExecutor::play`] puts it under the
    /// fault policy ([`GameResult::judge`]).
    pub scores: Vec<f64>,
    /// Per seat: whether the seat was faulty ([`FaultPolicy::is_faulty`]);
    /// under [`FaultPolicy::Forfeit`] its side forfeited. Set by
    /// [`GameResult::judge`].
    #[serde(default)]
    pub faulty: Vec<bool>,
    /// Per seat: the prompts it was sent (answered, timed out or crashed
    /// on), what a share of faults is counted against. Empty when the game
    /// does not say (then any fault other than a crash counts against one
    /// prompt).
    #[serde(default)]
    pub prompts: Vec<u64>,
    /// Per seat.
    pub faults: Vec<SeatFaults>,
    /// Per seat: its first fault in the game with the end of its stderr
    /// (`None` for a seat without faults); empty when no seat faulted.
    /// The league keeps it in `games.jsonl` (the record's stderr goes to
    /// the bots' logs) for its report's `first_fault`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_faults: Vec<Option<crate::record::FirstFault>>,
    /// The game record; opaque to the league.
    pub record: serde_json::Value,
    /// Timings; opaque, and not part of a game's identity (a replayed game
    /// may differ here only).
    pub timing: serde_json::Value,
}

impl GameResult {
    /// The seats [`Self::judge`] found faulty, by index (as `games.jsonl`
    /// and compare's blocks store them).
    pub fn faulty_seats(&self) -> Vec<usize> {
        (self.faulty.iter().enumerate())
            .filter_map(|(seat, &f)| f.then_some(seat))
            .collect()
    }

    /// Puts the board's result under `policy`: marks the faulty seats and
    /// scores the game as the policy says, for a game of `shape`. The one
    /// place a fault costs a game (`BotExecutor::play` calls it for every
    /// game of a league or comparison, whatever the game).
    pub fn judge(&mut self, policy: &FaultPolicy, shape: &crate::shape::Shape) {
        self.faulty = self
            .faults
            .iter()
            .enumerate()
            .map(|(seat, f)| policy.is_faulty(f, self.prompts.get(seat).copied().unwrap_or(0)))
            .collect();
        if self.faulty.len() == self.scores.len() && self.scores.len() == shape.seats() {
            self.scores = policy.apply(shape, &self.scores, &self.faulty);
        }
    }
}

/// Why a game produced no result.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecError {
    /// The cancel flag was seen; the game was abandoned.
    #[error("cancelled")]
    Cancelled,
    /// The game could not be played (for example a bot could not be
    /// started at all). Reported, not stored: a resume plays it again.
    #[error("{0}")]
    Failed(String),
}

/// The share of its moves a bot may fault on (timeouts, invalid answers,
/// limits hit) before the forfeit rule takes the game from it: 10%.
pub const DEFAULT_MAX_FAULT_SHARE: f64 = 0.1;

/// What a fault costs: the one rule, a setting of every league and
/// comparison, applied where a game's result becomes scores
/// ([`GameResult::judge`], called by `BotExecutor::play` for every game),
/// so ratings, standings, `dojo compare` and every SPRT count the same
/// scores.
///
/// A seat is *faulty* in a game when it crashed (exited or closed its
/// output without answering; a bot that cannot start crashes on every
/// prompt) or faulted (timed out, answered invalidly, ran into a limit)
/// on more than `max_share` of its prompts. Under [`FaultPolicy::Forfeit`]
/// a faulty seat's side forfeits: when one side is left without a fault,
/// it wins; when several are (royale), the board's result stands if one
/// of them won it, else (a drawn board, or a faulty side's board win)
/// they draw among themselves and every faulty side loses; when every
/// side is faulty, the game is a draw. So beside a side without faults a
/// faulty side always scores 0, as in CardJitsu: a fault never leaves it
/// better off than the board would have without it.
/// Under [`FaultPolicy::Fallback`] the
/// board decides: every fault was already played as the game's default
/// move (a random card, a pass).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "lowercase", deny_unknown_fields)]
pub enum FaultPolicy {
    /// A faulty seat forfeits the game (the default).
    Forfeit {
        /// The share of its prompts a seat may fault on (timeouts, invalid
        /// answers, limits) and still keep its result; any crash forfeits.
        max_share: f64,
    },
    /// Faults are played as the game's default move and the board decides
    /// (the only rule before fault policies existed).
    Fallback,
}

impl Default for FaultPolicy {
    fn default() -> FaultPolicy {
        FaultPolicy::Forfeit {
            max_share: DEFAULT_MAX_FAULT_SHARE,
        }
    }
}

/// A `--faults` value that is not a policy.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "invalid fault policy `{0}`: expected `forfeit`, `forfeit:SHARE` (SHARE from 0 to 1, the share of its moves a bot may fault on; default 0.1) or `fallback`"
)]
pub struct BadFaultPolicy(pub String);

impl std::str::FromStr for FaultPolicy {
    type Err = BadFaultPolicy;
    fn from_str(s: &str) -> Result<FaultPolicy, BadFaultPolicy> {
        let bad = || BadFaultPolicy(s.to_owned());
        match s.split_once(':') {
            None if s == "forfeit" => Ok(FaultPolicy::default()),
            None if s == "fallback" => Ok(FaultPolicy::Fallback),
            Some(("forfeit", share)) => {
                let max_share: f64 = share.trim().parse().map_err(|_| bad())?;
                if !(0.0..=1.0).contains(&max_share) {
                    return Err(bad());
                }
                Ok(FaultPolicy::Forfeit { max_share })
            }
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for FaultPolicy {
    /// The `--faults` value: `forfeit:0.1`, `fallback`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultPolicy::Forfeit { max_share } => write!(f, "forfeit:{max_share}"),
            FaultPolicy::Fallback => f.write_str("fallback"),
        }
    }
}

impl FaultPolicy {
    /// The policy of a league stored before fault policies existed: its
    /// games were scored by the board, faults played as random moves.
    pub fn before_policies() -> FaultPolicy {
        FaultPolicy::Fallback
    }

    /// The share of its prompts a seat may fault on before it is faulty
    /// (the forfeit rule's; [`DEFAULT_MAX_FAULT_SHARE`] under
    /// [`FaultPolicy::Fallback`], which only reports it).
    pub fn max_share(&self) -> f64 {
        match self {
            FaultPolicy::Forfeit { max_share } => *max_share,
            FaultPolicy::Fallback => DEFAULT_MAX_FAULT_SHARE,
        }
    }

    /// One sentence saying what a fault costs, for reports and pages.
    pub fn describe(&self) -> String {
        match self {
            FaultPolicy::Forfeit { max_share } => format!(
                "forfeit: a bot that crashes, cannot start, or faults on more than {}% of its moves loses the game (every side faulty: a draw; in royale the sides without faults keep the board's win or draw among themselves)",
                max_share * 100.0
            ),
            FaultPolicy::Fallback => "fallback: a fault is played as the game's default move (a random card, a pass) and the board decides".to_owned(),
        }
    }

    /// Whether a seat with `faults` over `prompts` prompts is faulty: it
    /// crashed, or timed out, answered invalidly or hit a limit on more
    /// than the policy's share of them.
    pub fn is_faulty(&self, faults: &SeatFaults, prompts: u64) -> bool {
        if faults.crash > 0 {
            return true;
        }
        let other = faults
            .timeout
            .saturating_add(faults.invalid)
            .saturating_add(faults.limit);
        other > 0 && other as f64 > self.max_share() * prompts.max(1) as f64
    }

    /// The scores of a game whose board gave `scores` (one per seat, one
    /// side winning or a draw, for `shape`) when the seats in `faulty` are
    /// faulty (see the type's documentation for the rule).
    pub fn apply(&self, shape: &crate::shape::Shape, scores: &[f64], faulty: &[bool]) -> Vec<f64> {
        if matches!(self, FaultPolicy::Fallback) || !faulty.iter().any(|&f| f) {
            return scores.to_vec();
        }
        let n = shape.seats();
        let side_faulty = |side: usize| (0..n).any(|i| shape.sides[i] == side && faulty[i]);
        let faulty_side = |seat: usize| side_faulty(shape.sides[seat]);
        let clean: Vec<usize> = (0..shape.side_count())
            .filter(|&s| !side_faulty(s))
            .collect();
        let winner = (0..n).find(|&i| scores[i] == 1.0).map(|i| shape.sides[i]);
        let won_by = |side: usize| -> Vec<f64> {
            (0..n)
                .map(|i| if shape.sides[i] == side { 1.0 } else { 0.0 })
                .collect()
        };
        match (clean.as_slice(), winner) {
            ([], _) => vec![0.5; n],
            ([only], _) => won_by(*only),
            (_, Some(w)) if clean.contains(&w) => scores.to_vec(),
            // The board was drawn, or a faulty side won it: the sides
            // without faults draw among themselves and the faulty ones
            // lose, as a faulty CardJitsu side loses a drawn game.
            _ => (0..n)
                .map(|i| if faulty_side(i) { 0.0 } else { 0.5 })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    const TWO: Shape = Shape {
        sides: &[0, 1],
        roles: &[],
        board: false,
    };
    const THREE: Shape = Shape {
        sides: &[0, 1, 2],
        roles: &[],
        board: false,
    };
    const PARTNERS: Shape = Shape {
        sides: &[0, 1, 0, 1],
        roles: &[],
        board: false,
    };

    fn faults(crash: u64, timeout: u64, invalid: u64) -> SeatFaults {
        SeatFaults {
            crash,
            timeout,
            invalid,
            ..Default::default()
        }
    }

    #[test]
    fn the_policy_reads_and_prints_as_the_flag_takes_it() {
        assert_eq!("forfeit".parse(), Ok(FaultPolicy::default()));
        assert_eq!(
            "forfeit:0.25".parse(),
            Ok(FaultPolicy::Forfeit { max_share: 0.25 })
        );
        assert_eq!("fallback".parse(), Ok(FaultPolicy::Fallback));
        for bad in [
            "",
            "forfeit:",
            "forfeit:2",
            "forfeit:-0.1",
            "lose",
            "fallback:1",
        ] {
            assert!(bad.parse::<FaultPolicy>().is_err(), "{bad}");
        }
        for p in [FaultPolicy::default(), FaultPolicy::Fallback] {
            assert_eq!(p.to_string().parse(), Ok(p));
            let json = serde_json::to_value(p).unwrap();
            assert_eq!(serde_json::from_value::<FaultPolicy>(json).unwrap(), p);
        }
        assert_eq!(
            serde_json::to_value(FaultPolicy::default()).unwrap(),
            serde_json::json!({"rule": "forfeit", "max_share": 0.1})
        );
    }

    #[test]
    fn a_crash_or_too_many_faults_make_a_seat_faulty() {
        let p = FaultPolicy::default();
        assert!(!p.is_faulty(&faults(0, 0, 0), 20));
        assert!(p.is_faulty(&faults(1, 0, 0), 20));
        // A bot that never starts crashes on every prompt.
        assert!(p.is_faulty(&faults(5, 0, 0), 5));
        assert!(!p.is_faulty(&faults(0, 1, 1), 20), "10% is allowed");
        assert!(p.is_faulty(&faults(0, 2, 1), 20), "15% is not");
        let limit = SeatFaults {
            limit: 3,
            ..Default::default()
        };
        assert!(p.is_faulty(&limit, 20));
    }

    #[test]
    fn judging_a_result_marks_the_faulty_seats_and_rescores_it() {
        let mut result = GameResult {
            first_faults: Vec::new(),
            scores: vec![1.0, 0.0],
            faulty: Vec::new(),
            prompts: vec![20, 20],
            faults: vec![faults(0, 3, 0), faults(0, 1, 0)],
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
        };
        let mut fallback = result.clone();
        result.judge(&FaultPolicy::default(), &TWO);
        assert_eq!(result.faulty, [true, false]);
        assert_eq!(result.scores, [0.0, 1.0]);
        fallback.judge(&FaultPolicy::Fallback, &TWO);
        assert_eq!(fallback.faulty, [true, false], "reported, not scored");
        assert_eq!(fallback.scores, [1.0, 0.0]);
    }

    /// A royale side that crashes on a board two clean sides draw (or
    /// that wins it) loses, and the clean sides draw: it used to draw
    /// with them, so its crash cost it nothing.
    #[test]
    fn a_faulty_royale_side_loses_beside_two_clean_sides_that_drew() {
        let p = FaultPolicy::default();
        for faulty_seat in 0..3 {
            let mut faulty = [false; 3];
            faulty[faulty_seat] = true;
            let mut expected = [0.5; 3];
            expected[faulty_seat] = 0.0;
            assert_eq!(p.apply(&THREE, &[0.5; 3], &faulty), expected);
            let mut won = [0.0; 3];
            won[faulty_seat] = 1.0;
            assert_eq!(p.apply(&THREE, &won, &faulty), expected);
            assert!(THREE.check_scores(&expected).is_ok());
        }
    }

    #[test]
    fn a_faulty_side_forfeits_and_never_gains() {
        let p = FaultPolicy::default();
        // The faulty seat had won on the board: the other wins.
        assert_eq!(p.apply(&TWO, &[1.0, 0.0], &[true, false]), [0.0, 1.0]);
        assert_eq!(p.apply(&TWO, &[0.5, 0.5], &[false, true]), [1.0, 0.0]);
        // Both faulty: a draw.
        assert_eq!(p.apply(&TWO, &[1.0, 0.0], &[true, true]), [0.5, 0.5]);
        // No fault: the board's result.
        assert_eq!(p.apply(&TWO, &[1.0, 0.0], &[false, false]), [1.0, 0.0]);
        // Fallback: always the board's.
        assert_eq!(
            FaultPolicy::Fallback.apply(&TWO, &[1.0, 0.0], &[true, false]),
            [1.0, 0.0]
        );
        // Royale: a clean winner keeps its win; a faulty winner's win
        // becomes a draw of the clean sides, the faulty side losing; one
        // clean side left wins.
        assert_eq!(
            p.apply(&THREE, &[0.0, 1.0, 0.0], &[true, false, false]),
            [0.0, 1.0, 0.0]
        );
        assert_eq!(
            p.apply(&THREE, &[1.0, 0.0, 0.0], &[true, false, false]),
            [0.0, 0.5, 0.5]
        );
        assert_eq!(
            p.apply(&THREE, &[1.0, 0.0, 0.0], &[true, true, false]),
            [0.0, 0.0, 1.0]
        );
        // Partnerships: one faulty partner forfeits for the side.
        assert_eq!(
            p.apply(
                &PARTNERS,
                &[1.0, 0.0, 1.0, 0.0],
                &[false, false, true, false]
            ),
            [0.0, 1.0, 0.0, 1.0]
        );
        // Against a clean side, a faulty seat never scores above the board.
        let results: [&[f64]; 4] = [
            &[1.0, 0.0, 0.0],
            &[0.0, 1.0, 0.0],
            &[0.0, 0.0, 1.0],
            &[0.5; 3],
        ];
        for scores in results {
            for mask in 1..7u8 {
                let faulty: Vec<bool> = (0..3).map(|i| mask & (1 << i) != 0).collect();
                let out = p.apply(&THREE, scores, &faulty);
                assert!(THREE.check_scores(&out).is_ok(), "{scores:?} {faulty:?}");
                for i in 0..3 {
                    assert!(
                        !faulty[i] || out[i] <= scores[i],
                        "{scores:?} {faulty:?} {out:?}"
                    );
                    // Beside a clean side, a faulty side loses.
                    if faulty[i] && faulty.contains(&false) {
                        assert_eq!(out[i], 0.0, "{scores:?} {faulty:?} {out:?}");
                    }
                }
            }
        }
    }
}

//! `dojo compare`: NEW against BASE in seat-swapped pairs of games until a
//! sequential probability ratio test ([`crate::sprt`], `SPRT.md`) decides
//! or the game limit is reached.
//!
//! The games are [`Fixture`]s played through an [`Executor`] on a rayon
//! pool, as in a league. Seats hold the role names [`NEW`], [`BASE`] and
//! [`THIRD`] (the executor maps them to bots), so two versions of a bot
//! with the same name can be compared.
//!
//! **Pairs.** Pair `k` is two games with the seed
//! `derive_seed(seed, [h("compare"), h(game), k])` (`h` = FNV-1a 64, as in
//! the league schedule), fixture ids `2k` and `2k + 1`:
//!
//! - CardJitsu: leg 0 seats `[new, base]`, leg 1 `[base, new]`.
//! - Royale: seat `i` plays team `R`, `P`, `S`; the third bot takes team
//!   `TEAMS[k % 3]`, NEW and BASE the other two (leg 0: NEW on the first of
//!   them, leg 1 swapped); the board is `boards[(k / 3) % boards.len()]`,
//!   so each board is played with the third bot on every team.
//!
//! **Scores.** In each game NEW scores `(1 + s_new - s_base) / 2` against
//! BASE (`s` = seat score), the league's pairwise result: in CardJitsu this
//! is NEW's score; in royale NEW's team winning counts 1, BASE's 0, and the
//! third bot winning or a draw ½.
//!
//! **Order.** Games run in parallel, but finished pairs are fed to the test
//! strictly in pair order, and the run stops at the first pair after which
//! the test decides; games of later pairs are not started (any already
//! running are ignored). The verdict is therefore the same for any number
//! of jobs when the bots are deterministic.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use dojo_engine::rng::derive_seed;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::executor::{ExecError, Executor, GameResult, SeatFaults, check_result};
use crate::run::NoProgress;
use crate::schedule::{Fixture, TEAMS, fnv1a64};
use crate::settings::GameKind;
use crate::sprt::{
    self, EloEstimate, Pentanomial, SprtParams, SprtParamsError, Verdict, elo_estimate,
};

/// Seat name of the bot under test.
pub const NEW: &str = "new";
/// Seat name of the reference bot.
pub const BASE: &str = "base";
/// Seat name of royale's third bot, on the team neither NEW nor BASE holds.
pub const THIRD: &str = "third";

/// Version of the `dojo compare --json` report format.
pub const COMPARE_FORMAT_VERSION: u32 = 1;

/// What a comparison plays and how it decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareSettings {
    /// The game.
    pub game: GameKind,
    /// Hypotheses and error rates.
    pub sprt: SprtParams,
    /// Most games to play; rounded up to whole pairs.
    pub games: u64,
    /// Game seeds derive from it.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale: boards to rotate through (at least one); ignored for
    /// CardJitsu.
    pub boards: Vec<String>,
}

/// Why a comparison could not be run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CompareError {
    /// `games` is 0.
    #[error("the number of games must be at least 1")]
    ZeroGames,
    /// A royale comparison without boards.
    #[error("a royale comparison needs at least one board")]
    NoBoards,
    /// Invalid SPRT parameters.
    #[error(transparent)]
    Sprt(#[from] SprtParamsError),
    /// The thread pool could not be built.
    #[error("cannot start {jobs} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        jobs: usize,
        /// The pool's error.
        message: String,
    },
    /// A game needed before the test could decide could not be played
    /// (for example a bot that cannot be started).
    #[error("game {id} (pair {pair}) failed: {message}")]
    GameFailed {
        /// Fixture id.
        id: u64,
        /// Pair index.
        pair: u64,
        /// The executor's error.
        message: String,
    },
}

impl CompareSettings {
    /// Checks the settings can be played.
    pub fn validate(&self) -> Result<(), CompareError> {
        if self.games == 0 {
            return Err(CompareError::ZeroGames);
        }
        if self.game == GameKind::Royale && self.boards.is_empty() {
            return Err(CompareError::NoBoards);
        }
        self.sprt.validate()?;
        Ok(())
    }

    /// Most pairs played: `ceil(games / 2)`.
    pub fn max_pairs(&self) -> u64 {
        self.games.div_ceil(2)
    }

    /// The seed of pair `pair`.
    pub fn pair_seed(&self, pair: u64) -> u64 {
        derive_seed(
            self.seed,
            &[fnv1a64("compare"), fnv1a64(self.game.name()), pair],
        )
    }

    /// The two games of pair `pair` (see the module documentation).
    /// Royale settings must have a board ([`CompareSettings::validate`]).
    pub fn pair_fixtures(&self, pair: u64) -> [Fixture; 2] {
        let seed = self.pair_seed(pair);
        let fixture = |leg: u8, seats: [&str; 2]| {
            let (seats, teams, board) = match self.game {
                GameKind::Cardjitsu => (
                    seats.iter().map(|s| s.to_string()).collect(),
                    Vec::new(),
                    None,
                ),
                GameKind::Royale => {
                    let third = (pair % 3) as usize;
                    let mut others = seats.iter();
                    let seats = (0..TEAMS.len())
                        .map(|team| {
                            if team == third {
                                THIRD
                            } else {
                                others.next().copied().unwrap_or(THIRD)
                            }
                        })
                        .map(str::to_string)
                        .collect();
                    let board = (!self.boards.is_empty()).then(|| {
                        let i = (pair / 3) % self.boards.len() as u64;
                        self.boards[i as usize].clone()
                    });
                    (seats, TEAMS.iter().map(|t| t.to_string()).collect(), board)
                }
            };
            Fixture {
                id: 2 * pair + u64::from(leg),
                seats,
                teams,
                board,
                pair,
                leg,
                seed,
            }
        };
        [fixture(0, [NEW, BASE]), fixture(1, [BASE, NEW])]
    }
}

/// How a comparison ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// H1 accepted: NEW is not worse than allowed (it passes).
    H1,
    /// H0 accepted: NEW is worse.
    H0,
    /// The game limit was reached without a decision.
    Inconclusive,
    /// Stopped by the cancel flag before a decision.
    Cancelled,
}

/// One game of a pair, as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegRecord {
    /// Role by seat (`new`, `base`, `third`).
    pub seats: Vec<String>,
    /// Royale: team by seat; empty for CardJitsu.
    pub teams: Vec<String>,
    /// Per seat: 1 win, 0.5 draw, 0 loss.
    pub scores: Vec<f64>,
    /// Per seat.
    pub faults: Vec<SeatFaults>,
    /// NEW's score against BASE in this game (0, 0.5 or 1).
    pub new_score: f64,
}

/// A finished pair, fed to the test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    /// Pair index.
    pub pair: u64,
    /// Seed of both games.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale: the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The two legs, in leg order.
    pub games: Vec<LegRecord>,
    /// NEW's points over the two games (0 to 2 in half points).
    pub new_points: f64,
}

/// The SPRT's stopping bounds on the LLR.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// At or below: accept H0.
    pub lower: f64,
    /// At or above: accept H1.
    pub upper: f64,
}

/// Fault totals of NEW's and BASE's seats over the counted pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleFaults {
    /// NEW's seats.
    pub new: SeatFaults,
    /// BASE's seats.
    pub base: SeatFaults,
}

/// Everything a comparison found; `dojo compare --json` writes it (with
/// the bots added by the CLI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// [`COMPARE_FORMAT_VERSION`].
    pub version: u32,
    /// What was played.
    pub settings: CompareSettings,
    /// How it ended.
    pub verdict: Outcome,
    /// Pairs fed to the test.
    pub pairs_played: u64,
    /// Games of those pairs (twice the pairs).
    pub games_played: u64,
    /// Counts of NEW's pair points 0, 0.5, 1, 1.5, 2.
    pub pentanomial: Pentanomial,
    /// NEW's mean score per game against BASE.
    pub new_score: f64,
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The test's bounds.
    pub bounds: Bounds,
    /// Logistic Elo of NEW minus BASE with a 95% interval.
    pub elo: EloEstimate,
    /// Faults of NEW and BASE.
    pub faults: RoleFaults,
    /// Every counted pair, in pair order.
    pub pairs: Vec<PairRecord>,
}

/// Told about every pair fed to the test, on the calling thread.
pub trait CompareProgress {
    /// `pair` was counted; `counts` and `llr` include it.
    fn pair_done(&mut self, pair: &PairRecord, counts: &Pentanomial, llr: f64);
}

impl CompareProgress for NoProgress {
    fn pair_done(&mut self, _: &PairRecord, _: &Pentanomial, _: f64) {}
}

/// The running test: pairs counted in order.
struct Tally<'a> {
    settings: &'a CompareSettings,
    counts: Pentanomial,
    faults: RoleFaults,
    pairs: Vec<PairRecord>,
    decided: Option<Outcome>,
}

impl Tally<'_> {
    fn count(&mut self, fixtures: &[Fixture; 2], results: [GameResult; 2]) {
        let mut games = Vec::with_capacity(2);
        for (fixture, result) in fixtures.iter().zip(results) {
            let seat_score = |role: &str| {
                fixture
                    .seats
                    .iter()
                    .position(|s| s == role)
                    .map_or(0.5, |i| result.scores[i])
            };
            let new_score = (1.0 + seat_score(NEW) - seat_score(BASE)) / 2.0;
            for (seat, f) in fixture.seats.iter().zip(&result.faults) {
                match seat.as_str() {
                    NEW => self.faults.new.add(f),
                    BASE => self.faults.base.add(f),
                    _ => {}
                }
            }
            games.push(LegRecord {
                seats: fixture.seats.clone(),
                teams: fixture.teams.clone(),
                scores: result.scores,
                faults: result.faults,
                new_score,
            });
        }
        self.counts.add_pair(games[0].new_score, games[1].new_score);
        let new_points = games[0].new_score + games[1].new_score;
        self.decided = match sprt::verdict(&self.counts, &self.settings.sprt) {
            Verdict::H1 => Some(Outcome::H1),
            Verdict::H0 => Some(Outcome::H0),
            Verdict::Continue => None,
        };
        self.pairs.push(PairRecord {
            pair: fixtures[0].pair,
            seed: fixtures[0].seed,
            board: fixtures[0].board.clone(),
            games,
            new_points,
        });
    }

    fn report(self, outcome: Outcome) -> CompareReport {
        let (lower, upper) = sprt::bounds(&self.settings.sprt);
        let pairs = self.counts.pairs();
        CompareReport {
            version: COMPARE_FORMAT_VERSION,
            settings: self.settings.clone(),
            verdict: outcome,
            pairs_played: pairs,
            games_played: 2 * pairs,
            pentanomial: self.counts,
            new_score: self.counts.score(),
            llr: sprt::llr(&self.counts, &self.settings.sprt),
            bounds: Bounds { lower, upper },
            elo: elo_estimate(&self.counts),
            faults: self.faults,
            pairs: self.pairs,
        }
    }
}

/// Plays pairs of NEW against BASE on `jobs` threads until the SPRT
/// decides, `settings.games` is reached, or `cancel` becomes true.
///
/// Cancelling returns the report of the pairs counted so far with
/// [`Outcome::Cancelled`]. A game that fails ([`ExecError::Failed`], or a
/// result of the wrong shape) is an error unless the test decided before
/// its pair.
pub fn run_compare(
    settings: &CompareSettings,
    executor: &impl Executor,
    jobs: usize,
    progress: &mut dyn CompareProgress,
    cancel: &AtomicBool,
) -> Result<CompareReport, CompareError> {
    settings.validate()?;
    let max_pairs = settings.max_pairs();
    let mut tally = Tally {
        settings,
        counts: Pentanomial::default(),
        faults: RoleFaults::default(),
        pairs: Vec::new(),
        decided: None,
    };
    if cancel.load(Ordering::SeqCst) {
        return Ok(tally.report(Outcome::Cancelled));
    }
    let jobs = jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CompareError::Pool {
            jobs,
            message: e.to_string(),
        })?;

    // Games of pairs at or beyond the horizon are not started: it drops to
    // just past the deciding pair, or to the first failed pair.
    let horizon = AtomicU64::new(max_pairs);
    // The earliest failure: (fixture id, pair, message).
    let mut failure: Option<(u64, u64, String)> = None;
    // Games are started a few at a time, in fixture order, so that once the
    // test decides only the games in flight are wasted.
    let window = 2 * jobs as u64;
    let mut started = 0;
    let mut in_flight = 0;
    let (tx, rx) = mpsc::channel::<(Fixture, Result<GameResult, ExecError>)>();
    pool.in_place_scope(|scope| {
        let mut legs: BTreeMap<u64, [Option<GameResult>; 2]> = BTreeMap::new();
        let mut next = 0;
        loop {
            while in_flight < window
                && started < 2 * horizon.load(Ordering::SeqCst)
                && !cancel.load(Ordering::SeqCst)
            {
                let fixture = settings.pair_fixtures(started / 2)[(started % 2) as usize].clone();
                started += 1;
                in_flight += 1;
                let tx = tx.clone();
                let horizon = &horizon;
                scope.spawn(move |_| {
                    let skip = cancel.load(Ordering::SeqCst)
                        || fixture.pair >= horizon.load(Ordering::SeqCst);
                    let result = if skip {
                        Err(ExecError::Cancelled)
                    } else {
                        executor.play(&fixture, cancel).and_then(|r| {
                            check_result(&fixture, &r).map_err(ExecError::Failed)?;
                            Ok(r)
                        })
                    };
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = tx.send((fixture, result));
                });
            }
            if in_flight == 0 {
                break;
            }
            // Every game in flight sends exactly once.
            let Ok((fixture, result)) = rx.recv() else {
                break;
            };
            in_flight -= 1;
            match result {
                Ok(r) => {
                    legs.entry(fixture.pair).or_default()[usize::from(fixture.leg)] = Some(r);
                }
                Err(ExecError::Cancelled) => {}
                Err(ExecError::Failed(message)) => {
                    horizon.fetch_min(fixture.pair, Ordering::SeqCst);
                    if failure.as_ref().is_none_or(|(id, _, _)| fixture.id < *id) {
                        failure = Some((fixture.id, fixture.pair, message));
                    }
                }
            }
            while tally.decided.is_none() {
                let complete = legs
                    .get(&next)
                    .is_some_and(|l| l.iter().all(Option::is_some));
                if !complete {
                    break;
                }
                let Some([Some(a), Some(b)]) = legs.remove(&next) else {
                    break;
                };
                tally.count(&settings.pair_fixtures(next), [a, b]);
                if let Some(record) = tally.pairs.last() {
                    let llr = sprt::llr(&tally.counts, &settings.sprt);
                    progress.pair_done(record, &tally.counts, llr);
                }
                next += 1;
                if tally.decided.is_some() {
                    horizon.fetch_min(next, Ordering::SeqCst);
                }
            }
        }
    });

    if let Some(outcome) = tally.decided {
        return Ok(tally.report(outcome));
    }
    if cancel.load(Ordering::SeqCst) {
        return Ok(tally.report(Outcome::Cancelled));
    }
    if let Some((id, pair, message)) = failure {
        return Err(CompareError::GameFailed { id, pair, message });
    }
    Ok(tally.report(Outcome::Inconclusive))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A synthetic game: NEW wins each game with probability `p_new`
    /// (decided by a hash of the seed and leg, so any run order gives the
    /// same results), else BASE wins; royale's third bot never wins.
    #[derive(Debug)]
    struct Fake {
        p_new: f64,
        /// Fail every game of this pair.
        fail_pair: Option<u64>,
        /// Set `cancel_flag` once this many games have been played.
        cancel_after: Option<(u64, &'static AtomicBool)>,
        played: Mutex<Vec<u64>>,
    }

    impl Fake {
        fn new(p_new: f64) -> Fake {
            Fake {
                p_new,
                fail_pair: None,
                cancel_after: None,
                played: Mutex::new(Vec::new()),
            }
        }
    }

    impl Executor for Fake {
        fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
            if cancel.load(Ordering::SeqCst) {
                return Err(ExecError::Cancelled);
            }
            if self.fail_pair == Some(fixture.pair) {
                return Err(ExecError::Failed("bot would not start".into()));
            }
            let played = {
                let mut p = self.played.lock().unwrap();
                p.push(fixture.id);
                p.len() as u64
            };
            if let Some((n, flag)) = self.cancel_after
                && played >= n
            {
                flag.store(true, Ordering::SeqCst);
            }
            let roll = derive_seed(fixture.seed, &[u64::from(fixture.leg)]);
            let uniform = (roll >> 11) as f64 / (1u64 << 53) as f64;
            let new_wins = uniform < self.p_new;
            let winner = if new_wins { NEW } else { BASE };
            let n = fixture.seats.len();
            Ok(GameResult {
                scores: fixture
                    .seats
                    .iter()
                    .map(|s| if s == winner { 1.0 } else { 0.0 })
                    .collect(),
                faults: vec![
                    SeatFaults {
                        invalid: 1,
                        ..SeatFaults::default()
                    };
                    n
                ],
                record: serde_json::Value::Null,
                timing: serde_json::Value::Null,
            })
        }
    }

    fn settings(game: GameKind, games: u64) -> CompareSettings {
        CompareSettings {
            game,
            sprt: SprtParams::default(),
            games,
            seed: 7,
            boards: vec!["a.txt".into(), "b.txt".into()],
        }
    }

    fn run(s: &CompareSettings, exec: &Fake, jobs: usize) -> CompareReport {
        run_compare(s, exec, jobs, &mut NoProgress, &AtomicBool::new(false)).unwrap()
    }

    #[test]
    fn a_bot_that_always_wins_passes_quickly() {
        for game in [GameKind::Cardjitsu, GameKind::Royale] {
            let r = run(&settings(game, 2000), &Fake::new(1.0), 2);
            assert_eq!(r.verdict, Outcome::H1, "{game}");
            assert!(r.pairs_played < 150, "{game}: {} pairs", r.pairs_played);
            assert_eq!(r.pentanomial.0, [0, 0, 0, 0, r.pairs_played]);
            assert!(r.llr >= r.bounds.upper);
            assert!(r.elo.elo > 400.0);
            assert_eq!(r.games_played, 2 * r.pairs_played);
            assert_eq!(r.faults.new.invalid, r.games_played);
            assert_eq!(r.faults.base.invalid, r.games_played);
        }
    }

    #[test]
    fn a_bot_that_always_loses_fails_quickly() {
        for game in [GameKind::Cardjitsu, GameKind::Royale] {
            let r = run(&settings(game, 2000), &Fake::new(0.0), 3);
            assert_eq!(r.verdict, Outcome::H0, "{game}");
            assert!(r.pairs_played < 150, "{game}: {} pairs", r.pairs_played);
            assert_eq!(r.pentanomial.0, [r.pairs_played, 0, 0, 0, 0]);
            assert!(r.llr <= r.bounds.lower);
            assert!(r.elo.hi < -400.0);
        }
    }

    #[test]
    fn coin_flips_with_a_tight_window_are_inconclusive_at_the_limit() {
        let mut s = settings(GameKind::Cardjitsu, 41);
        s.sprt = "elo0=-2,elo1=2".parse().unwrap();
        let exec = Fake::new(0.5);
        let r = run(&s, &exec, 2);
        assert_eq!(r.verdict, Outcome::Inconclusive);
        assert_eq!(r.pairs_played, 21);
        assert_eq!(r.pairs.len(), 21);
        assert!(r.llr > r.bounds.lower && r.llr < r.bounds.upper);
        assert_eq!(exec.played.lock().unwrap().len(), 42);
        // Every pair's games are its seed twice, seats swapped.
        for p in &r.pairs {
            assert_eq!(p.games[0].seats, [NEW, BASE]);
            assert_eq!(p.games[1].seats, [BASE, NEW]);
            assert_eq!(p.seed, s.pair_seed(p.pair));
        }
    }

    #[test]
    fn the_verdict_does_not_depend_on_the_number_of_jobs() {
        for game in [GameKind::Cardjitsu, GameKind::Royale] {
            let s = settings(game, 2000);
            // About +50 Elo per game: decides, but not in a handful of pairs.
            let reference = run(&s, &Fake::new(0.57), 1);
            assert_ne!(reference.verdict, Outcome::Inconclusive);
            assert!(reference.pairs_played > 10);
            for jobs in [2, 4, 7] {
                let exec = Fake::new(0.57);
                let r = run(&s, &exec, jobs);
                assert_eq!(r, reference, "{game}, {jobs} jobs");
                // Games beyond the deciding pair are not all played.
                let played = exec.played.lock().unwrap().len() as u64;
                assert!(played <= r.games_played + 2 * jobs as u64, "{played}");
            }
        }
    }

    #[test]
    fn royale_pairs_swap_new_and_base_and_rotate_the_third_team_and_board() {
        let s = settings(GameKind::Royale, 20);
        for pair in 0..6 {
            let [a, b] = s.pair_fixtures(pair);
            assert_eq!(a.seed, b.seed);
            assert_eq!(a.board, b.board);
            assert_eq!(a.teams, TEAMS);
            let third = (pair % 3) as usize;
            assert_eq!(a.seats[third], THIRD);
            assert_eq!(b.seats[third], THIRD);
            for (x, y) in a.seats.iter().zip(&b.seats) {
                if x != THIRD {
                    assert_ne!(x, y);
                }
            }
            assert!(a.seats.contains(&NEW.to_string()) && a.seats.contains(&BASE.to_string()));
            let board = if pair < 3 { "a.txt" } else { "b.txt" };
            assert_eq!(a.board.as_deref(), Some(board));
            assert_eq!((a.id, b.id), (2 * pair, 2 * pair + 1));
        }
        assert_ne!(s.pair_seed(0), s.pair_seed(1));
    }

    #[test]
    fn royale_third_bot_wins_count_as_draws_between_new_and_base() {
        #[derive(Debug)]
        struct ThirdWins;
        impl Executor for ThirdWins {
            fn play(&self, f: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
                Ok(GameResult {
                    scores: f
                        .seats
                        .iter()
                        .map(|s| if s == THIRD { 1.0 } else { 0.0 })
                        .collect(),
                    faults: vec![SeatFaults::default(); 3],
                    record: serde_json::Value::Null,
                    timing: serde_json::Value::Null,
                })
            }
        }
        let s = settings(GameKind::Royale, 10);
        let r = run_compare(&s, &ThirdWins, 2, &mut NoProgress, &AtomicBool::new(false));
        let r = r.unwrap();
        assert_eq!(r.verdict, Outcome::Inconclusive);
        assert_eq!(r.pentanomial.0, [0, 0, 5, 0, 0]);
        assert_eq!(r.new_score, 0.5);
    }

    #[test]
    fn a_failed_game_is_an_error_unless_the_test_decided_first() {
        let mut exec = Fake::new(0.5);
        exec.fail_pair = Some(3);
        let err = run_compare(
            &settings(GameKind::Cardjitsu, 100),
            &exec,
            2,
            &mut NoProgress,
            &AtomicBool::new(false),
        )
        .unwrap_err();
        assert!(
            matches!(err, CompareError::GameFailed { id: 6, pair: 3, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("would not start"));

        let mut exec = Fake::new(1.0);
        exec.fail_pair = Some(500);
        let r = run(&settings(GameKind::Cardjitsu, 2000), &exec, 2);
        assert_eq!(r.verdict, Outcome::H1);
    }

    #[test]
    fn cancelling_reports_the_pairs_counted_so_far() {
        static FLAG: AtomicBool = AtomicBool::new(false);
        let mut exec = Fake::new(0.5);
        exec.cancel_after = Some((10, &FLAG));
        let mut s = settings(GameKind::Cardjitsu, 2000);
        s.sprt = "elo0=-2,elo1=2".parse().unwrap();
        let r = run_compare(&s, &exec, 1, &mut NoProgress, &FLAG).unwrap();
        assert_eq!(r.verdict, Outcome::Cancelled);
        // One job: games run in order, the flag is set during the 10th.
        assert_eq!(r.pairs_played, 5);
        assert_eq!(exec.played.lock().unwrap().len(), 10);
    }

    #[test]
    fn bad_settings_are_rejected() {
        let exec = Fake::new(0.5);
        let no = AtomicBool::new(false);
        let mut s = settings(GameKind::Cardjitsu, 0);
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert_eq!(err, CompareError::ZeroGames);
        s = settings(GameKind::Royale, 10);
        s.boards.clear();
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert_eq!(err, CompareError::NoBoards);
        s = settings(GameKind::Cardjitsu, 10);
        s.sprt.alpha = 0.0;
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert!(matches!(err, CompareError::Sprt(_)));
        assert!(exec.played.lock().unwrap().is_empty());
    }

    #[test]
    fn progress_sees_every_counted_pair_in_order() {
        struct Seen(Vec<(u64, u64)>);
        impl CompareProgress for Seen {
            fn pair_done(&mut self, pair: &PairRecord, counts: &Pentanomial, _: f64) {
                self.0.push((pair.pair, counts.pairs()));
            }
        }
        let mut seen = Seen(Vec::new());
        let s = settings(GameKind::Cardjitsu, 30);
        let r = run_compare(&s, &Fake::new(0.5), 3, &mut seen, &AtomicBool::new(false));
        let n = r.unwrap().pairs_played;
        let expected: Vec<(u64, u64)> = (0..n).map(|k| (k, k + 1)).collect();
        assert_eq!(seen.0, expected);
    }
}

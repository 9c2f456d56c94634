//! `dojo compare`: NEW against BASE in blocks of games until a sequential
//! probability ratio test ([`crate::sprt`], `SPRT.md`) decides or the game
//! limit is reached.
//!
//! The games are [`Fixture`]s played through an [`Executor`] by the
//! league's match driver (`driver.rs`), with the SPRT as its stop rule.
//! Seats hold the role names [`NEW`], [`BASE`] and
//! [`THIRD`] (the executor maps them to bots), so two versions of a bot
//! with the same name can be compared.
//!
//! **Blocks.** Block `k` is a set of games sharing the seed
//! `derive_seed(seed, [h("compare"), h(game), k])` (`h` = FNV-1a 64, as in
//! the league schedule) that together are fair to both bots; the block, not
//! the game, is the independent unit the test counts. The blocks come from
//! the league's generic schedule ([`Schedule::comparison`]) over the game's
//! seats (the game's `Shape`): one group of the roles NEW,
//! BASE and, for each further seat, a bot of its own ([`THIRD`]), playing
//! every order of them, so block `k` is fixture ids `g·k .. g·k + g` with
//! `g = seats!` games, in lexicographic order of the seatings.
//!
//! - CardJitsu: a seat-swapped pair, fixture ids `2k` and `2k + 1`; leg 0
//!   seats `[new, base]`, leg 1 `[base, new]`.
//! - Royale: six games on board `boards[k % boards.len()]`, fixture ids
//!   `6k..6k + 6`, seat `i` on team `R`, `P`, `S`: every assignment of the
//!   three bots to the three teams, once each on the same board and seed.
//!   A game limit of fewer blocks than boards is refused
//!   ([`CompareError::BoardsUnplayed`]): it would never reach the last
//!   boards.
//!
//! **Fixed teams.** A bot whose bot.toml fixes its royale team
//! ([`CompareSettings::teams`]) is seated only on it, by the rule of a
//! league's schedule: a block holds the orders that keep it there. Only
//! the third bot may have one (a block is then two games, fixture ids
//! `2k`, `2k + 1`: NEW and BASE swapped between the other two teams). A
//! fixed team for NEW or BASE is refused ([`CompareError::Unfair`],
//! [`CompareError::NoSeating`]): a block must be the same with NEW and
//! BASE swapped, or a team's edge would count as theirs.
//!
//! **Scores.** In each game NEW scores `(1 + s_new - s_base) / 2` against
//! BASE (`s` = seat score), the league's pairwise result: in CardJitsu this
//! is NEW's score; in royale NEW's team winning counts 1, BASE's 0, and the
//! third bot winning or a draw ½.
//!
//! **Order.** Games run in parallel through the league's driver, but
//! finished blocks are fed to the test strictly in block order (the SPRT is
//! the driver's stop rule), and the run stops at the first block after
//! which the test decides; games of later blocks are not started (any
//! already running are ignored). The verdict is therefore the same for any
//! number of jobs when the bots are deterministic.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dojo_engine::rng::derive_seed;
use dojo_games::Role;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::driver::{self, Cutoffs, Drive, Sink};
use crate::executor::{ExecError, Executor, GameResult, SeatFaults};
use crate::run::NoProgress;
use crate::schedule::{Fixture, Schedule, fnv1a64};
use crate::settings::{FaultPolicy, Game};
use crate::sprt::{
    EloEstimate, Outcomes, SampleNote, SequentialTest, SprtParams, SprtParamsError, Verdict,
    naive_estimate,
};
use crate::stop::Blocks;

/// Seat name of the bot under test.
pub const NEW: &str = "new";
/// Seat name of the reference bot.
pub const BASE: &str = "base";
/// Seat name of royale's third bot, on the team neither NEW nor BASE holds.
pub const THIRD: &str = "third";

/// Version of the `dojo compare --json` report format (defined, with its
/// history, in `dojo_games::formats`).
pub use dojo_games::formats::COMPARE_FORMAT_VERSION;

/// What a comparison plays and how it decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareSettings {
    /// The game.
    pub game: Game,
    /// Hypotheses and error rates.
    pub sprt: SprtParams,
    /// Most games to play; rounded up to whole blocks.
    pub games: u64,
    /// Game seeds derive from it.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale: boards to rotate through (at least one); ignored for
    /// CardJitsu.
    pub boards: Vec<String>,
    /// What a fault costs (the league's rule, `dojo_games::FaultPolicy`).
    #[serde(default)]
    pub faults: FaultPolicy,
    /// The team a role's bot insists on (its bot.toml's `team`,
    /// `dojo_games::fixed_role`), by role (`third`): that bot is seated
    /// only there, as a league seats it. Only the third bot may have one
    /// ([`CompareSettings::validate`]). Empty for a game without roles.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub teams: BTreeMap<String, Role>,
}

/// Why a comparison could not be run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CompareError {
    /// `games` is 0.
    #[error("the number of games must be at least 1")]
    ZeroGames,
    /// A block would hold more games than the test's outcome model takes.
    #[error(
        "a {game} block would be {games} games (every order of the seats' bots); the test takes at most {max}"
    )]
    BlockTooLarge {
        /// The game's name.
        game: String,
        /// Games per block.
        games: u32,
        /// [`crate::sprt::MAX_GAMES_PER_BLOCK`].
        max: u32,
    },
    /// A royale comparison without boards.
    #[error("a royale comparison needs at least one board")]
    NoBoards,
    /// Fewer blocks than boards: a block is played on one board, so some
    /// boards would never be played.
    #[error(
        "--games {games} is too few for {boards} boards: each block of {per_block} games is played on one board, so the comparison would play on only {played} of them; give --games {least} or more to play every board, or fewer boards"
    )]
    BoardsUnplayed {
        /// The games asked for.
        games: u64,
        /// The boards given.
        boards: usize,
        /// Games per block.
        per_block: u32,
        /// Blocks, so boards, played at most.
        played: u64,
        /// The fewest games that play every board.
        least: u64,
    },
    /// A game played in partnerships: comparisons seat NEW and BASE in
    /// every order, which would make them partners.
    #[error("{game} is played in partnerships; dojo compare plays only games without them")]
    Partnerships {
        /// The game's name.
        game: String,
    },
    /// A team given for a role the comparison does not have.
    #[error("a team is given for `{role}`, which is not a role of a {game} comparison ({roles})")]
    UnknownRole {
        /// The role named.
        role: String,
        /// The game's name.
        game: String,
        /// The comparison's roles, listed.
        roles: String,
    },
    /// No seating keeps every bot on its fixed team (royale: NEW and BASE
    /// on one team, which seats one bot).
    #[error(
        "{fixed}: no {game} game seats every bot on its team, so NEW and BASE would never play each other"
    )]
    NoSeating {
        /// The game's name.
        game: String,
        /// The fixed teams, in words ([`fixed_in_words`]).
        fixed: String,
    },
    /// Fixed teams would seat NEW on a team BASE never plays, or the
    /// reverse, so a team's edge would count as a difference between
    /// the bots.
    #[error(
        "{fixed}: a block would play NEW on a team BASE never plays (or the reverse), so a team's edge would count as a difference between the bots; dojo compare needs NEW and BASE free to play every team (only the third bot's may be fixed); a league rates them on one scale (`dojo league {game} NEW BASE OTHERS...`)"
    )]
    Unfair {
        /// The game's name.
        game: String,
        /// The fixed teams, in words ([`fixed_in_words`]).
        fixed: String,
    },
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
    #[error("game {id} (block {block}) failed: {message}")]
    GameFailed {
        /// Fixture id.
        id: u64,
        /// Block index.
        block: u64,
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
        let shape = self.game.shape();
        if shape.partnerships() {
            // NEW's score against BASE is only defined when they are on
            // different sides, which every-order blocks do not keep.
            return Err(CompareError::Partnerships {
                game: self.game.name().to_owned(),
            });
        }
        if shape.board && self.boards.is_empty() {
            return Err(CompareError::NoBoards);
        }
        self.check_teams()?;
        let games = self.games_per_block();
        if games > crate::sprt::MAX_GAMES_PER_BLOCK {
            return Err(CompareError::BlockTooLarge {
                game: self.game.name().to_owned(),
                games,
                max: crate::sprt::MAX_GAMES_PER_BLOCK,
            });
        }
        self.sprt.validate()?;
        self.check_boards()
    }

    /// Refuses a game limit that would leave a board unplayed: block `k`
    /// is played on board `k % boards`, so fewer blocks than boards never
    /// reach the last ones. (The test may decide before every board is
    /// played; the limit must not decide that.) Depends on the fixed
    /// teams, which set the games of a block.
    fn check_boards(&self) -> Result<(), CompareError> {
        let boards = self.boards.len();
        let played = self.max_blocks();
        if !self.game.shape().board || played >= boards as u64 {
            return Ok(());
        }
        let per_block = self.games_per_block();
        Err(CompareError::BoardsUnplayed {
            games: self.games,
            boards,
            per_block,
            played,
            least: u64::from(per_block).saturating_mul(boards as u64),
        })
    }

    /// The roles: NEW, BASE, and THIRD for every further seat.
    fn roles(&self) -> &'static [&'static str] {
        let seats = self.game.shape().seats();
        &[NEW, BASE, THIRD][..seats.clamp(2, 3)]
    }

    /// The fixed team of each role, in the order of [`Self::roles`].
    fn fixed(&self) -> Vec<Option<Role>> {
        self.roles()
            .iter()
            .map(|role| self.teams.get(*role).cloned())
            .collect()
    }

    /// The comparison's schedule over `blocks` blocks: one group of the
    /// roles, every block.
    fn schedule_of(&self, blocks: u64, boards: &[String]) -> Schedule {
        Schedule::comparison(
            self.game,
            self.roles(),
            &self.fixed(),
            blocks,
            self.seed,
            boards,
        )
    }

    /// The comparison's schedule: one group of the roles, every block.
    fn schedule(&self) -> Schedule {
        self.schedule_of(self.max_blocks(), &self.boards)
    }

    /// Fixed teams keep a comparison fair only when a block is the same
    /// with NEW and BASE swapped: each then plays every seat (and team)
    /// the other plays, on the same board and seed. In royale that holds
    /// when only the third bot's team is fixed (its block: NEW and BASE
    /// swapped between the two other teams); with NEW's or BASE's fixed it
    /// cannot (NEW would play its team, BASE never), and with both fixed
    /// to one team no game seats them both.
    fn check_teams(&self) -> Result<(), CompareError> {
        if self.teams.is_empty() {
            return Ok(());
        }
        let roles = self.roles();
        if let Some(role) = self.teams.keys().find(|r| !roles.contains(&r.as_str())) {
            return Err(CompareError::UnknownRole {
                role: role.clone(),
                game: self.game.name().to_owned(),
                roles: roles.join(", "),
            });
        }
        let block: Vec<Vec<String>> = self.schedule_of(1, &[]).iter().map(|f| f.seats).collect();
        let fixed = fixed_in_words(&self.teams);
        if block.is_empty() {
            return Err(CompareError::NoSeating {
                game: self.game.name().to_owned(),
                fixed,
            });
        }
        let swap = |role: &String| match role.as_str() {
            NEW => BASE.to_owned(),
            BASE => NEW.to_owned(),
            _ => role.clone(),
        };
        let mirrored = block
            .iter()
            .all(|seats| block.contains(&seats.iter().map(swap).collect()));
        if !mirrored {
            return Err(CompareError::Unfair {
                game: self.game.name().to_owned(),
                fixed,
            });
        }
        Ok(())
    }

    /// Games in one block: every distinct order of the seats' bots that
    /// keeps each on its fixed team: 2 (a seat-swapped pair) for
    /// CardJitsu, 6 (every team rotation) for royale, 2 for royale when
    /// the third bot's team is fixed (NEW and BASE swapped between the
    /// other two). 0 when no order keeps them ([`Self::validate`] refuses
    /// that).
    pub fn games_per_block(&self) -> u32 {
        let legs = self.schedule_of(1, &[]).legs(0);
        u32::try_from(legs).unwrap_or(u32::MAX)
    }

    /// Most blocks played: `ceil(games / games_per_block)`.
    pub fn max_blocks(&self) -> u64 {
        self.games.div_ceil(u64::from(self.games_per_block()))
    }

    /// The seed of every game of block `block`.
    pub fn block_seed(&self, block: u64) -> u64 {
        derive_seed(
            self.seed,
            &[fnv1a64("compare"), fnv1a64(self.game.name()), block],
        )
    }

    /// The games of block `block` (see the module documentation).
    pub fn block_fixtures(&self, block: u64) -> Vec<Fixture> {
        let g = u64::from(self.games_per_block());
        let schedule = self.schedule_of(block.saturating_add(1), &self.boards);
        (g * block..g * (block + 1))
            .filter_map(|id| schedule.fixture(id))
            .collect()
    }

    /// The test's unit: a pair when a block is two games.
    fn unit(&self) -> Unit {
        if self.games_per_block() == 2 {
            Unit::Pair
        } else {
            Unit::Block
        }
    }
}

/// The fixed teams of a comparison in words, for its errors: `NEW is
/// fixed to team P and BASE is not`, `NEW and BASE are both fixed to team
/// P`, `NEW is fixed to team P and BASE to team R`, then the third bot's.
pub fn fixed_in_words(teams: &BTreeMap<String, Role>) -> String {
    let team = |role: &str| teams.get(role);
    let mut words = match (team(NEW), team(BASE)) {
        (None, None) => Vec::new(),
        (Some(t), None) => vec![format!("NEW is fixed to team {t} and BASE is not")],
        (None, Some(t)) => vec![format!("BASE is fixed to team {t} and NEW is not")],
        (Some(a), Some(b)) if a == b => vec![format!("NEW and BASE are both fixed to team {a}")],
        (Some(a), Some(b)) => vec![format!("NEW is fixed to team {a} and BASE to team {b}")],
    };
    words.extend(
        (teams.iter())
            .filter(|(role, _)| ![NEW, BASE].contains(&role.as_str()))
            .map(|(role, t)| format!("{} is fixed to team {t}", role.to_uppercase())),
    );
    words.join("; ")
}

/// How a comparison ended (its `verdict`; a game's end is its own
/// record's `Outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Conclusion {
    /// H1 accepted: NEW is not worse than allowed (it passes).
    H1,
    /// H0 accepted: NEW is worse.
    H0,
    /// The game limit was reached without a decision.
    Inconclusive,
    /// Stopped by the cancel flag before a decision.
    Cancelled,
    /// No verdict: NEW or BASE was faulty in so many games
    /// ([`BROKEN_SHARE`]) that the games measured its faults, not its
    /// play, or NEW faulted where BASE did not ([`TIMEOUT_EXCESS_SHARE`]);
    /// [`CompareReport::broken`] says which and how often.
    Broken,
}

/// A role faulty (`FaultPolicy::is_faulty`: a crash, or faults on more
/// than the policy's share of its moves) in more than this share of its
/// games makes the comparison meaningless: it is refused
/// ([`Conclusion::Broken`]), whatever the fault policy.
pub const BROKEN_SHARE: f64 = 0.5;

/// Games counted before a comparison may be refused as broken ahead of
/// its end (at the end, any number is enough).
pub const BROKEN_MIN_GAMES: u64 = 20;

/// A role faulty in every one of its first this many games is refused at
/// once, before [`BROKEN_MIN_GAMES`]: a bot that crashes or never answers
/// in each of its first games is broken, and a gate must not spend its
/// whole game budget (minutes of timeouts) finding that out. Refusing
/// gives no verdict, never a pass.
pub const BROKEN_FAST_GAMES: u64 = 4;

/// The share of its moves NEW may time out on beyond BASE's share before
/// the comparison is refused as broken (1 point): timeouts depend on the
/// machine's load, so a few are tolerated; crashes, invalid answers and
/// limits hit are bugs, and any beyond BASE's refuse it
/// (see [`Conclusion::Broken`]).
pub const TIMEOUT_EXCESS_SHARE: f64 = 0.01;

/// Why a comparison gave no verdict: a bot faulty in most of its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Broken {
    /// `new` or `base`.
    pub role: String,
    /// Games in which it was faulty.
    pub faulty_games: u64,
    /// Games counted.
    pub games: u64,
    /// Why, in words.
    pub reason: String,
    /// Its first crash, else its first fault, in the counted games (the
    /// game of lowest id): what a league's standings show of a faulty
    /// bot, so the author sees why without playing again. Absent in
    /// reports from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_fault: Option<crate::report::StandingFault>,
}

/// A role's first fault in the counted games (its first crash, else its
/// first fault of any kind, as [`Broken::first_fault`] picks it) and the
/// game it came in, told so that an author can play that one game on its
/// own: its block, leg, seed and seats, and the `dojo match` command that
/// plays it again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaultyGame {
    /// `new` or `base`.
    pub role: String,
    /// The fault: its game (fixture id), round, kind and stderr.
    pub fault: crate::report::StandingFault,
    /// The game's block (0-based) and leg in it.
    pub block: u64,
    pub leg: u8,
    /// The game's seed.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Its roles by seat.
    pub seats: Vec<String>,
    /// Royale: its board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The `dojo match` command that plays the same game (bots, seats,
    /// seed, game settings, limits) on its own. Made by the caller, which
    /// knows the bots and the run's controls ([`run_compare`] leaves it
    /// `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// One game of a block, as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegRecord {
    /// Role by seat (`new`, `base`, `third`).
    pub seats: Vec<String>,
    /// Royale: team by seat; empty for CardJitsu.
    pub teams: Vec<Role>,
    /// Per seat: 1 win, 0.5 draw, 0 loss.
    pub scores: Vec<f64>,
    /// Per seat.
    pub faults: Vec<SeatFaults>,
    /// The seats that were faulty (under `forfeit`, they forfeited).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faulty: Vec<usize>,
    /// NEW's score against BASE in this game (0, 0.5 or 1).
    pub new_score: f64,
}

/// A finished block, fed to the test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockRecord {
    /// Block index.
    pub block: u64,
    /// Seed of all its games.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale: the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// Its games, in leg order.
    pub games: Vec<LegRecord>,
    /// NEW's points over the block's games (in half points).
    pub new_points: f64,
}

/// The SPRT's stopping bounds on the LLR.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// At or below: accept H0 (Wald's bound moved inward by the estimated
    /// overshoot).
    pub lower: f64,
    /// At or above: accept H1 (likewise).
    pub upper: f64,
    /// Wald's lower bound, `ln(beta / (1 - alpha))`.
    pub wald_lower: f64,
    /// Wald's upper bound, `ln((1 - beta) / alpha)`.
    pub wald_upper: f64,
}

/// The statistical model of a comparison, for the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareModel {
    /// `pair` (CardJitsu: a seat-swapped pair, the pentanomial model) or
    /// `block` (royale: one board and seed under all six team rotations).
    pub unit: Unit,
    /// Games per unit: 2 or 6.
    pub games_per_unit: u32,
    /// Elo model of the hypotheses (`logistic` or `normalized`).
    pub elo_model: crate::sprt::EloModel,
    /// Always `gsprt`: the generalized SPRT on the unit-score frequencies.
    pub test: String,
    /// Whether the bounds carry the dynamic overshoot correction (always
    /// true in `dojo compare`).
    pub overshoot_correction: bool,
    /// Always `median_unbiased`: how `elo` was estimated.
    pub estimate: String,
}

/// The independent unit the test counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A seat-swapped pair of games.
    Pair,
    /// A royale block of six games.
    Block,
}

/// The test after one more block, for drawing its course.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TracePoint {
    /// Blocks counted so far.
    pub blocks: u64,
    /// The LLR after them.
    pub llr: f64,
    /// The bounds in force after them.
    pub lower: f64,
    /// Likewise.
    pub upper: f64,
    /// The fixed-sample Elo estimate after them, with its 95% interval.
    pub elo: EloEstimate,
}

/// Fault totals of NEW's and BASE's seats over the counted pairs, and
/// the games in which each was faulty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleFaults {
    /// NEW's seats.
    pub new: SeatFaults,
    /// BASE's seats.
    pub base: SeatFaults,
    /// Games in which NEW was faulty.
    #[serde(default)]
    pub new_faulty_games: u64,
    /// Games in which BASE was faulty.
    #[serde(default)]
    pub base_faulty_games: u64,
    /// Prompts sent to NEW's seats (what its timeouts are a share of).
    /// Absent in reports from before it.
    #[serde(default)]
    pub new_prompts: u64,
    /// Prompts sent to BASE's seats.
    #[serde(default)]
    pub base_prompts: u64,
    /// Royale's third bot's seats: shown beside NEW's and BASE's, never
    /// part of a verdict (its games score as draws between the two when
    /// it wins). Absent in reports from before it, and zero in CardJitsu.
    #[serde(default)]
    pub third: SeatFaults,
    /// Games in which the third bot was faulty.
    #[serde(default)]
    pub third_faulty_games: u64,
}

impl RoleFaults {
    /// The role that was faulty in more than [`BROKEN_SHARE`] of `games`
    /// (NEW first), if any.
    fn broken(&self, games: u64) -> Option<Broken> {
        [
            ("new", self.new_faulty_games),
            ("base", self.base_faulty_games),
        ]
        .into_iter()
        .find(|&(_, faulty)| games > 0 && faulty as f64 > BROKEN_SHARE * games as f64)
        .map(|(role, faulty_games)| Broken {
            role: role.to_owned(),
            faulty_games,
            games,
            reason: if faulty_games == games {
                format!(
                    "{} crashed or faulted too often in every one of its {games} games: the games measure its faults, not its play",
                    role.to_uppercase(),
                )
            } else {
                format!(
                    "{} crashed or faulted too often in {faulty_games} of {games} games (more than {}%): the games measure its faults, not its play",
                    role.to_uppercase(),
                    BROKEN_SHARE * 100.0
                )
            },
            first_fault: None,
        })
    }

    /// Whether NEW or BASE was faulty in every one of the `games` counted,
    /// and they are at least [`BROKEN_FAST_GAMES`]: broken from the start,
    /// refused without waiting for [`BROKEN_MIN_GAMES`].
    fn broken_from_the_start(&self, games: u64) -> bool {
        games >= BROKEN_FAST_GAMES
            && (self.new_faulty_games == games || self.base_faulty_games == games)
    }

    /// NEW, when it faulted where BASE did not: it crashed, answered
    /// invalidly or ran into a limit more often than BASE (bugs, whatever
    /// they cost its score: a stronger NEW absorbs a forfeit now and then,
    /// and a gate must not pass it), or timed out on more than
    /// [`TIMEOUT_EXCESS_SHARE`] of its moves beyond BASE's share. Checked
    /// when the test decides or ends, over the `games` counted.
    fn beyond_base(&self, games: u64) -> Option<Broken> {
        let (new, base) = (&self.new, &self.base);
        let mut beyond = Vec::new();
        for (what, n, b) in [
            ("crashed", new.crash, base.crash),
            ("answered invalidly", new.invalid, base.invalid),
            ("ran into a limit", new.limit, base.limit),
        ] {
            if n > b {
                beyond.push(format!("{what} {n} times (BASE {b})"));
            }
        }
        let share = |timeouts: u64, prompts: u64| timeouts as f64 / prompts.max(1) as f64;
        let (new_share, base_share) = (
            share(new.timeout, self.new_prompts),
            share(base.timeout, self.base_prompts),
        );
        if new_share > base_share + TIMEOUT_EXCESS_SHARE {
            beyond.push(format!(
                "timed out on {:.1}% of its moves (BASE {:.1}%; more than {} point above BASE's share)",
                new_share * 100.0,
                base_share * 100.0,
                TIMEOUT_EXCESS_SHARE * 100.0
            ));
        }
        if beyond.is_empty() {
            return None;
        }
        Some(Broken {
            role: NEW.to_owned(),
            faulty_games: self.new_faulty_games,
            games,
            reason: format!(
                "NEW faulted where BASE did not: it {} (faulty in {} of {games} games): a fault is a bug, whatever the score",
                beyond.join(", "),
                self.new_faulty_games
            ),
            first_fault: None,
        })
    }

    /// Why the comparison gives no verdict, if it gives none: a bot
    /// faulty in most of its games ([`Self::broken`]) or, once `decided`
    /// (the test decided or ended), NEW faulting beyond BASE
    /// ([`Self::beyond_base`]).
    fn refusal(&self, games: u64, decided: bool) -> Option<Broken> {
        self.broken(games)
            .or_else(|| decided.then(|| self.beyond_base(games)).flatten())
    }
}

/// One bot's measured figures in a comparison: its moves' times and its
/// memory peak (as a league's standings give them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BotFigures {
    /// `count`, `wall_ms` and `cpu_ms` (`{p50, p95, max}`); `null` before
    /// any move was timed.
    pub moves: Option<dojo_games::MoveFigures>,
    /// The answers that had the start-up allowance, which `moves` leaves
    /// out (as a league's standings give them); absent where none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_answers: Option<dojo_games::StartupFigures>,
    /// MiB; `null` where not measured.
    pub peak_memory_mib: Option<f64>,
}

/// The measured figures of NEW and BASE over the counted games: they
/// differ between two runs of the same games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleFigures {
    pub new: BotFigures,
    pub base: BotFigures,
}

impl BotFigures {
    fn of(t: &dojo_games::MoveTally) -> BotFigures {
        BotFigures {
            moves: t.moves(),
            startup_answers: t.startup_answers(),
            peak_memory_mib: t.peak_memory_mib(),
        }
    }
}

/// Everything a comparison found; `dojo compare --json` writes it (with
/// the bots added by the CLI). The schema is in `SPRT.md`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// [`COMPARE_FORMAT_VERSION`].
    pub version: u32,
    /// What was played.
    pub settings: CompareSettings,
    /// The statistical model.
    pub model: CompareModel,
    /// How it ended.
    pub verdict: Conclusion,
    /// Blocks fed to the test (pairs for CardJitsu).
    pub blocks_played: u64,
    /// Games of those blocks.
    pub games_played: u64,
    /// Blocks by NEW's points.
    pub outcomes: Outcomes,
    /// NEW's mean score per game against BASE.
    pub new_score: f64,
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The test's bounds.
    pub bounds: Bounds,
    /// Median-unbiased logistic Elo of NEW minus BASE with a 95% interval.
    pub elo: EloEstimate,
    /// The fixed-sample estimate (ignores optional stopping).
    pub elo_naive: EloEstimate,
    /// Set when the sample is too small or degenerate to estimate well.
    pub note: Option<SampleNote>,
    /// Faults of NEW and BASE.
    pub faults: RoleFaults,
    /// Move times and memory peaks of NEW and BASE (absent before
    /// version 4).
    #[serde(default)]
    pub figures: RoleFigures,
    /// With [`Conclusion::Broken`]: which bot, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broken: Option<Broken>,
    /// NEW's, then BASE's, first fault in the counted games and the game
    /// it came in, for each that faulted (whatever the verdict).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_faults: Vec<FaultyGame>,
    /// The LLR and estimate after each block.
    pub trace: Vec<TracePoint>,
    /// Every counted block, in order.
    pub blocks: Vec<BlockRecord>,
    /// Set when the comparison's first game, played again, came out
    /// differently: a bot in it is not deterministic. Found by the caller,
    /// which can play a game again ([`run_compare`] leaves it `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nondeterministic: Option<Nondeterministic>,
}

/// The comparison's first game played again and come out differently
/// (`dojo_games::determinism`, the definition `dojo check` uses): the
/// bots that answered differently are not deterministic, so the games
/// cannot be reproduced and the same seed may end with another verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Nondeterministic {
    /// The roles (`new`, `base`, `third`) that answered differently, in
    /// seat order; empty when the rerun differed in some other way.
    pub roles: Vec<String>,
    /// The game played again: its block (0-based) and leg.
    pub block: u64,
    pub leg: u8,
    /// Its seed.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Its roles by seat.
    pub seats: Vec<String>,
    /// Where the two plays parted, and what each of those roles
    /// answered each time.
    pub parting: dojo_games::determinism::Parting,
}

/// Told about every block fed to the test, on the calling thread.
pub trait CompareProgress {
    /// `block` was counted; `test` includes it.
    fn block_done(&mut self, block: &BlockRecord, test: &SequentialTest);
}

impl CompareProgress for NoProgress {
    fn block_done(&mut self, _: &BlockRecord, _: &SequentialTest) {}
}

/// The running test, the comparison's stop rule: games gathered into
/// blocks, blocks counted in order.
struct Tally<'a> {
    settings: &'a CompareSettings,
    test: SequentialTest,
    faults: RoleFaults,
    /// NEW's and BASE's move times and memory peaks.
    moves: [dojo_games::MoveTally; 2],
    /// NEW's and BASE's first faults in the counted games.
    first_faults: [Option<crate::tally::FirstFaultAt>; 2],
    blocks: Vec<BlockRecord>,
    trace: Vec<TracePoint>,
    decided: Option<Conclusion>,
    pending: Blocks<(Fixture, GameResult)>,
    /// The earliest failure: (fixture id, block, message).
    failure: Option<(u64, u64, String)>,
    progress: &'a mut dyn CompareProgress,
}

impl Sink for Tally<'_> {
    fn finished(
        &mut self,
        fixture: Fixture,
        result: Result<GameResult, ExecError>,
        cutoffs: &Cutoffs,
    ) {
        match result {
            Ok(r) => self.pending.add(fixture.pair, fixture.leg, (fixture, r)),
            Err(ExecError::Cancelled) => {}
            Err(ExecError::Failed(message)) => {
                // The test cannot count past this block.
                cutoffs.cut(0, fixture.pair);
                if self
                    .failure
                    .as_ref()
                    .is_none_or(|(id, _, _)| fixture.id < *id)
                {
                    self.failure = Some((fixture.id, fixture.pair, message));
                }
            }
        }
        while self.decided.is_none() {
            let Some((_, games)) = self.pending.pop() else {
                break;
            };
            self.count(games);
            if let Some(record) = self.blocks.last() {
                self.progress.block_done(record, &self.test);
            }
            if self.decided.is_some() {
                cutoffs.cut(0, self.pending.next_cycle());
            }
        }
    }

    fn held(&self) -> usize {
        self.pending.held()
    }
}

impl Tally<'_> {
    fn count(&mut self, block: Vec<(Fixture, GameResult)>) {
        let mut games = Vec::with_capacity(block.len());
        let Some(first) = block.first().map(|(f, _)| f.clone()) else {
            return;
        };
        for (fixture, result) in block {
            let seat_score = |role: &str| {
                fixture
                    .seats
                    .iter()
                    .position(|s| s == role)
                    .map_or(0.5, |i| result.scores[i])
            };
            let new_score = dojo_stats::elo::pair_score(seat_score(NEW), seat_score(BASE));
            for (i, (seat, f)) in fixture.seats.iter().zip(&result.faults).enumerate() {
                let faulty = u64::from(result.faulty.get(i).copied().unwrap_or(false));
                let role = [NEW, BASE].iter().position(|r| r == seat);
                if let (Some(role), Some(Some(fault))) = (role, result.first_faults.get(i)) {
                    let at = crate::tally::FirstFaultAt {
                        game: fixture.id,
                        seat: i,
                        fault: fault.clone(),
                    };
                    let first = &mut self.first_faults[role];
                    if first.as_ref().is_none_or(|f| at.key() < f.key()) {
                        *first = Some(at);
                    }
                }
                let prompts = result.prompts.get(i).copied().unwrap_or(0);
                match seat.as_str() {
                    NEW => {
                        self.faults.new_prompts += prompts;
                        self.faults.new.add(f);
                        self.faults.new_faulty_games += faulty;
                        self.moves[0].add_stored(&result.timing, i);
                    }
                    BASE => {
                        self.faults.base_prompts += prompts;
                        self.faults.base.add(f);
                        self.faults.base_faulty_games += faulty;
                        self.moves[1].add_stored(&result.timing, i);
                    }
                    THIRD => {
                        self.faults.third.add(f);
                        self.faults.third_faulty_games += faulty;
                    }
                    _ => {}
                }
            }
            let faulty = result.faulty_seats();
            games.push(LegRecord {
                seats: fixture.seats.clone(),
                teams: fixture.teams.clone(),
                scores: result.scores,
                faults: result.faults,
                faulty,
                new_score,
            });
        }
        let scores: Vec<f64> = games.iter().map(|g| g.new_score).collect();
        self.decided = match self.test.add_block(&scores) {
            Verdict::H1 => Some(Conclusion::H1),
            Verdict::H0 => Some(Conclusion::H0),
            Verdict::Continue => None,
        };
        let counted = self.test.counts().blocks() * u64::from(self.settings.games_per_block());
        let may_refuse = self.decided.is_some()
            || counted >= BROKEN_MIN_GAMES
            || self.faults.broken_from_the_start(counted);
        if may_refuse
            && (self.faults)
                .refusal(counted, self.decided.is_some())
                .is_some()
        {
            self.decided = Some(Conclusion::Broken);
        }
        let (lower, upper) = self.test.bounds();
        self.trace.push(TracePoint {
            blocks: self.test.counts().blocks(),
            llr: self.test.llr(),
            lower,
            upper,
            elo: naive_estimate(self.test.counts()),
        });
        self.blocks.push(BlockRecord {
            block: first.pair,
            seed: first.seed,
            board: first.board,
            games,
            new_points: scores.iter().sum(),
        });
    }

    /// `role`'s first fault `at` with the game it came in, from the
    /// counted blocks (`None` if that game is not among them).
    fn faulty_game(&self, role: &str, at: &crate::tally::FirstFaultAt) -> Option<FaultyGame> {
        let g = u64::from(self.settings.games_per_block());
        let (block, leg) = (at.game / g, at.game % g);
        let record = self.blocks.iter().find(|b| b.block == block)?;
        let game = record.games.get(usize::try_from(leg).ok()?)?;
        Some(FaultyGame {
            role: role.to_owned(),
            fault: at.standing(),
            block,
            leg: u8::try_from(leg).ok()?,
            seed: record.seed,
            seats: game.seats.clone(),
            board: record.board.clone(),
            command: None,
        })
    }

    fn report(self, outcome: Conclusion) -> CompareReport {
        let (lower, upper) = self.test.bounds();
        let (wald_lower, wald_upper) = self.test.wald_bounds();
        let counts = self.test.counts().clone();
        let blocks = counts.blocks();
        let g = self.settings.games_per_block();
        let verdict = match outcome {
            Conclusion::H1 => Verdict::H1,
            Conclusion::H0 => Verdict::H0,
            Conclusion::Inconclusive | Conclusion::Cancelled | Conclusion::Broken => {
                Verdict::Continue
            }
        };
        let games_played = u64::from(g) * blocks;
        // A bot faulty in most of its games, or a NEW that faulted where
        // BASE did not, leaves no verdict, however the test ended (the
        // test's own stop included).
        let broken = self.faults.refusal(games_played, true);
        let outcome = match (&broken, outcome) {
            (_, Conclusion::Cancelled) => Conclusion::Cancelled,
            (Some(_), _) => Conclusion::Broken,
            (None, outcome) => outcome,
        };
        let max_games = u64::from(g).saturating_mul(self.settings.max_blocks());
        let broken = broken
            .filter(|_| outcome == Conclusion::Broken)
            .map(|mut b| {
                let role = usize::from(b.role != NEW);
                b.first_fault = self.first_faults[role].as_ref().map(|f| f.standing());
                // Said, so that an author does not wait for the rest or
                // take the short run for a fault of dojo's.
                if games_played < max_games {
                    b.reason.push_str(&format!(
                        "; stopped after {games_played} of at most {max_games} games"
                    ));
                }
                b
            });
        let first_faults = [NEW, BASE]
            .into_iter()
            .zip(&self.first_faults)
            .filter_map(|(role, at)| self.faulty_game(role, at.as_ref()?))
            .collect();
        CompareReport {
            version: COMPARE_FORMAT_VERSION,
            settings: self.settings.clone(),
            model: CompareModel {
                unit: self.settings.unit(),
                games_per_unit: g,
                elo_model: self.settings.sprt.model,
                test: "gsprt".into(),
                overshoot_correction: true,
                estimate: "median_unbiased".into(),
            },
            verdict: outcome,
            blocks_played: blocks,
            games_played,
            new_score: counts.score(),
            llr: self.test.llr(),
            bounds: Bounds {
                lower,
                upper,
                wald_lower,
                wald_upper,
            },
            elo: crate::sprt::median_unbiased_estimate(&counts, &self.settings.sprt, verdict),
            elo_naive: naive_estimate(&counts),
            note: SampleNote::of(&counts),
            outcomes: counts,
            faults: self.faults,
            figures: RoleFigures {
                new: BotFigures::of(&self.moves[0]),
                base: BotFigures::of(&self.moves[1]),
            },
            broken,
            first_faults,
            trace: self.trace,
            blocks: self.blocks,
            nondeterministic: None,
        }
    }
}

/// Plays blocks of NEW against BASE on `jobs` threads until the SPRT
/// decides, `settings.games` is reached, or `cancel` becomes true.
///
/// Cancelling returns the report of the blocks counted so far with
/// [`Conclusion::Cancelled`]. A game that fails ([`ExecError::Failed`], or a
/// result of the wrong shape) is an error unless the test decided before
/// its block.
pub fn run_compare(
    settings: &CompareSettings,
    executor: &impl Executor,
    jobs: usize,
    progress: &mut dyn CompareProgress,
    cancel: &AtomicBool,
) -> Result<CompareReport, CompareError> {
    settings.validate()?;
    let g = settings.games_per_block();
    let mut tally = Tally {
        settings,
        test: SequentialTest::new(settings.sprt, g),
        faults: RoleFaults::default(),
        moves: Default::default(),
        first_faults: Default::default(),
        blocks: Vec::new(),
        trace: Vec::new(),
        decided: None,
        pending: Blocks::new(u64::from(g)),
        failure: None,
        progress,
    };
    if cancel.load(Ordering::SeqCst) {
        return Ok(tally.report(Conclusion::Cancelled));
    }
    let jobs = jobs.max(1);
    let schedule = settings.schedule();
    let cutoffs = Cutoffs::new(schedule.groups());
    let how = Drive {
        jobs,
        // At most this many games are started and not yet counted, so once
        // the test decides only those are wasted; never less than a block.
        window: (2 * jobs).max(g as usize),
        idle: Duration::from_secs(3600),
        cancel,
        stop_grace: driver::STOP_GRACE,
    };
    driver::drive(&how, schedule.iter(), executor, &cutoffs, &mut tally).map_err(|e| {
        CompareError::Pool {
            jobs: e.jobs,
            message: e.message,
        }
    })?;

    if let Some(outcome) = tally.decided {
        return Ok(tally.report(outcome));
    }
    if cancel.load(Ordering::SeqCst) {
        return Ok(tally.report(Conclusion::Cancelled));
    }
    if let Some((id, block, message)) = tally.failure.take() {
        return Err(CompareError::GameFailed { id, block, message });
    }
    Ok(tally.report(Conclusion::Inconclusive))
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
        /// `(k, faults)`: NEW's seat has `faults` more in every game whose
        /// id is a multiple of `k`.
        new_faults: Option<(u64, SeatFaults)>,
        /// The games (by id) in which NEW's seat is faulty (a crash).
        new_faulty: Option<fn(u64) -> bool>,
        played: Mutex<Vec<u64>>,
    }

    impl Fake {
        fn new(p_new: f64) -> Fake {
            Fake {
                p_new,
                fail_pair: None,
                cancel_after: None,
                new_faults: None,
                new_faulty: None,
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
            let mut faults = vec![
                SeatFaults {
                    invalid: 1,
                    ..SeatFaults::default()
                };
                n
            ];
            if let Some((k, extra)) = &self.new_faults
                && fixture.id.is_multiple_of(*k)
                && let Some(seat) = fixture.seats.iter().position(|s| s == NEW)
            {
                faults[seat].add(extra);
            }
            let new_seat = fixture.seats.iter().position(|s| s == NEW);
            let mut faulty = vec![false; n];
            let mut first_faults = Vec::new();
            if let (Some(is_faulty), Some(seat)) = (self.new_faulty, new_seat)
                && is_faulty(fixture.id)
            {
                faulty[seat] = true;
                faults[seat].crash += 1;
                first_faults = vec![None; n];
                first_faults[seat] = Some(dojo_games::record::FirstFault {
                    round: Some(2),
                    kind: dojo_games::record::FaultKind::Crash,
                    invalid: None,
                    stderr_tail: vec![format!("game {}", fixture.id)],
                });
            }
            Ok(GameResult {
                first_faults,
                faulty,
                prompts: vec![10; n],
                scores: fixture
                    .seats
                    .iter()
                    .map(|s| if s == winner { 1.0 } else { 0.0 })
                    .collect(),
                faults,
                record: serde_json::Value::Null,
                timing: serde_json::Value::Null,
            })
        }
    }

    fn settings(game: Game, games: u64) -> CompareSettings {
        CompareSettings {
            game,
            sprt: SprtParams::default(),
            games,
            seed: 7,
            boards: vec!["a.txt".into(), "b.txt".into()],
            faults: FaultPolicy::default(),
            teams: BTreeMap::new(),
        }
    }

    fn s_games(game: Game) -> u32 {
        settings(game, 2).games_per_block()
    }

    fn run(s: &CompareSettings, exec: &Fake, jobs: usize) -> CompareReport {
        run_compare(s, exec, jobs, &mut NoProgress, &AtomicBool::new(false)).unwrap()
    }

    #[test]
    fn a_bot_that_always_wins_passes_quickly() {
        for game in [Game::CARDJITSU, Game::ROYALE] {
            let r = run(&settings(game, 2000), &Fake::new(1.0), 2);
            assert_eq!(r.verdict, Conclusion::H1, "{game}");
            assert!(r.blocks_played < 150, "{game}: {} blocks", r.blocks_played);
            let last = r.outcomes.counts.len() - 1;
            assert_eq!(r.outcomes.counts[last], r.blocks_played);
            assert!(r.llr >= r.bounds.upper);
            assert!(r.elo.elo > 400.0 && r.elo.hi < 2000.0, "{:?}", r.elo);
            let g = u64::from(s_games(game));
            assert_eq!(r.games_played, g * r.blocks_played);
            assert_eq!(r.trace.len() as u64, r.blocks_played);
            assert_eq!(r.faults.new.invalid, r.games_played);
            assert_eq!(r.faults.base.invalid, r.games_played);
        }
    }

    /// A NEW that wins every game but faults now and then where BASE
    /// does not: a crash, an invalid answer or a limit in one game of
    /// seven is no verdict (it passed before: the forfeits only lowered a
    /// score it could spare), and so are timeouts beyond BASE's share by
    /// more than the tolerated point; fewer pass.
    #[test]
    fn a_new_that_faults_where_base_does_not_gets_no_verdict() {
        let fault = |f: fn(&mut SeatFaults)| {
            let mut faults = SeatFaults::default();
            f(&mut faults);
            faults
        };
        let bugs = [
            ("crashed", fault(|f| f.crash = 1)),
            ("answered invalidly", fault(|f| f.invalid = 1)),
            ("ran into a limit", fault(|f| f.limit = 1)),
        ];
        for game in [Game::CARDJITSU, Game::ROYALE] {
            for (said, faults) in &bugs {
                let mut exec = Fake::new(1.0);
                exec.new_faults = Some((7, *faults));
                let r = run(&settings(game, 2000), &exec, 2);
                assert_eq!(r.verdict, Conclusion::Broken, "{game} {said}");
                let broken = r.broken.expect("why");
                assert_eq!(broken.role, "new");
                assert!(broken.reason.contains(said), "{}", broken.reason);
            }
            // Timeouts: one in 10 moves of one game in 7 is about 1.4% of
            // NEW's moves, beyond the point tolerated; one game in 20 is
            // about 0.5%, within it.
            let timeouts = fault(|f| f.timeout = 1);
            let mut exec = Fake::new(1.0);
            exec.new_faults = Some((7, timeouts));
            let r = run(&settings(game, 2000), &exec, 2);
            assert_eq!(r.verdict, Conclusion::Broken, "{game}");
            assert!(r.broken.unwrap().reason.contains("timed out on 1."));
            exec.new_faults = Some((20, timeouts));
            let r = run(&settings(game, 2000), &exec, 2);
            assert_eq!(r.verdict, Conclusion::H1, "{game}: {:?}", r.broken);
            assert!(r.faults.new.timeout > 0);
        }
    }

    /// A NEW faulty in every one of its first games is refused as soon as
    /// they are counted (4 games: two CardJitsu pairs, one royale block),
    /// not after the 20 games that a share of faulty games waits for, and
    /// the reason says it stopped early. It used to play on to 20 games.
    #[test]
    fn a_new_faulty_in_every_one_of_its_first_games_is_refused_at_once() {
        for (game, counted) in [(Game::CARDJITSU, 4), (Game::ROYALE, 6)] {
            let mut exec = Fake::new(0.5);
            exec.new_faulty = Some(|_| true);
            let r = run(&settings(game, 2000), &exec, 1);
            assert_eq!(r.verdict, Conclusion::Broken, "{game}");
            assert_eq!(r.games_played, counted, "{game}");
            let broken = r.broken.expect("why");
            assert_eq!((broken.role.as_str(), broken.games), (NEW, counted));
            assert!(
                broken.reason.contains(&format!(
                    "every one of its {counted} games: the games measure its faults, not its play; stopped after {counted} of at most"
                )),
                "{}",
                broken.reason
            );
            // Every counted game is kept in the report.
            assert_eq!(
                r.blocks.iter().map(|b| b.games.len() as u64).sum::<u64>(),
                counted
            );
        }
        // One sound game among the first four: no early refusal; the
        // share of faulty games (3 in 4) decides once 20 are counted.
        let mut exec = Fake::new(0.5);
        exec.new_faulty = Some(|id| id % 4 != 1);
        let r = run(&settings(Game::CARDJITSU, 2000), &exec, 1);
        assert_eq!(r.verdict, Conclusion::Broken);
        assert_eq!(r.games_played, BROKEN_MIN_GAMES);
        assert!(r.broken.unwrap().reason.contains("in 15 of 20 games"));
    }

    /// The report tells the game of each role's first fault, to be played
    /// on its own: its block, leg, seed and seats (whatever the verdict).
    #[test]
    fn the_game_of_news_first_fault_is_told() {
        let mut exec = Fake::new(1.0);
        exec.new_faulty = Some(|id| id == 5 || id == 9);
        let s = settings(Game::CARDJITSU, 2000);
        let r = run(&s, &exec, 2);
        assert_eq!(r.first_faults.len(), 1, "{:?}", r.first_faults);
        let f = &r.first_faults[0];
        assert_eq!((f.role.as_str(), f.fault.game), (NEW, 5));
        assert_eq!((f.block, f.leg, f.seed), (2, 1, s.block_seed(2)));
        assert_eq!(f.seats, [BASE, NEW]);
        assert_eq!(f.fault.stderr_tail, ["game 5"]);
        assert_eq!(f.command, None);
        assert_eq!(r.broken.unwrap().first_fault.as_ref(), Some(&f.fault));
        // No fault, nothing told.
        let r = run(&s, &Fake::new(1.0), 2);
        assert!(r.first_faults.is_empty());
    }

    #[test]
    fn a_bot_that_always_loses_fails_quickly() {
        for game in [Game::CARDJITSU, Game::ROYALE] {
            let r = run(&settings(game, 2000), &Fake::new(0.0), 3);
            assert_eq!(r.verdict, Conclusion::H0, "{game}");
            assert!(r.blocks_played < 150, "{game}: {} blocks", r.blocks_played);
            assert_eq!(r.outcomes.counts[0], r.blocks_played);
            assert!(r.llr <= r.bounds.lower);
            assert!(r.elo.hi < -400.0);
        }
    }

    #[test]
    fn coin_flips_with_a_tight_window_are_inconclusive_at_the_limit() {
        let mut s = settings(Game::CARDJITSU, 41);
        s.sprt = "elo0=-2,elo1=2".parse().unwrap();
        let exec = Fake::new(0.5);
        let r = run(&s, &exec, 2);
        assert_eq!(r.verdict, Conclusion::Inconclusive);
        assert_eq!(r.blocks_played, 21);
        assert_eq!(r.blocks.len(), 21);
        assert!(r.llr > r.bounds.lower && r.llr < r.bounds.upper);
        assert_eq!(exec.played.lock().unwrap().len(), 42);
        // Every pair's games are its seed twice, seats swapped.
        for p in &r.blocks {
            assert_eq!(p.games[0].seats, [NEW, BASE]);
            assert_eq!(p.games[1].seats, [BASE, NEW]);
            assert_eq!(p.seed, s.block_seed(p.block));
        }
    }

    #[test]
    fn the_verdict_does_not_depend_on_the_number_of_jobs() {
        for game in [Game::CARDJITSU, Game::ROYALE] {
            let s = settings(game, 2000);
            // About +50 Elo per game: decides, but not in a handful of pairs.
            let reference = run(&s, &Fake::new(0.57), 1);
            assert_ne!(reference.verdict, Conclusion::Inconclusive);
            assert!(reference.blocks_played > 10);
            for jobs in [2, 4, 7] {
                let exec = Fake::new(0.57);
                let r = run(&s, &exec, jobs);
                assert_eq!(r, reference, "{game}, {jobs} jobs");
                // Games beyond the deciding pair are not all played.
                let played = exec.played.lock().unwrap().len() as u64;
                assert!(
                    // At most the driver's window of games is started and not
                    // counted (in flight, or held waiting for an earlier game):
                    // 2 per job, and never less than one block.
                    played <= r.games_played + (2 * jobs as u64).max(s.games_per_block().into()),
                    "{game}, {jobs} jobs: {played} played, {} counted",
                    r.games_played
                );
            }
        }
    }

    #[test]
    fn a_royale_block_plays_every_team_rotation_on_one_board_and_seed() {
        let s = settings(Game::ROYALE, 20);
        assert_eq!(s.max_blocks(), 4);
        for block in 0..4 {
            let games = s.block_fixtures(block);
            assert_eq!(games.len(), 6);
            let mut rotations: Vec<Vec<String>> = Vec::new();
            for (j, f) in games.iter().enumerate() {
                assert_eq!(f.seed, s.block_seed(block));
                assert_eq!(f.teams, dojo_games::seat_roles(Game::ROYALE.shape()));
                assert_eq!(
                    (f.id, f.pair, f.leg),
                    (6 * block + j as u64, block, j as u8)
                );
                let board = if block % 2 == 0 { "a.txt" } else { "b.txt" };
                assert_eq!(f.board.as_deref(), Some(board));
                rotations.push(f.seats.clone());
            }
            rotations.sort();
            rotations.dedup();
            assert_eq!(rotations.len(), 6, "all 3! assignments of bots to teams");
        }
        assert_ne!(s.block_seed(0), s.block_seed(1));
    }

    fn with_teams(teams: &[(&str, &str)]) -> CompareSettings {
        let mut s = settings(Game::ROYALE, 20);
        s.teams = (teams.iter())
            .map(|&(role, team)| (role.to_owned(), Role::from(team)))
            .collect();
        s
    }

    #[test]
    fn a_third_bot_with_a_fixed_team_is_seated_only_there() {
        let s = with_teams(&[(THIRD, "P")]);
        s.validate().unwrap();
        assert_eq!((s.games_per_block(), s.unit()), (2, Unit::Pair));
        assert_eq!(s.max_blocks(), 10);
        for block in [0, 3] {
            let games = s.block_fixtures(block);
            let seats: Vec<&[String]> = games.iter().map(|f| f.seats.as_slice()).collect();
            assert_eq!(seats, [[NEW, THIRD, BASE], [BASE, THIRD, NEW]]);
            assert!(games.iter().all(|f| f.seed == s.block_seed(block)));
            assert_eq!(games[0].board, games[1].board);
        }
        let r = run(&CompareSettings { games: 2000, ..s }, &Fake::new(1.0), 2);
        assert_eq!(r.verdict, Conclusion::H1);
        assert_eq!(r.games_played, 2 * r.blocks_played);
        assert!(r.blocks.iter().all(|b| b.games[0].seats[1] == THIRD));
        let json = serde_json::to_value(&r.settings).unwrap();
        assert_eq!(json["teams"], serde_json::json!({"third": "P"}));
        // No fixed team: the field is left out, and read back as none.
        let json = serde_json::to_value(settings(Game::ROYALE, 6)).unwrap();
        assert!(json.get("teams").is_none(), "{json}");
        let back: CompareSettings = serde_json::from_value(json).unwrap();
        assert!(back.teams.is_empty());
    }

    #[test]
    fn new_or_base_with_a_fixed_team_is_refused() {
        let exec = Fake::new(0.5);
        let no = AtomicBool::new(false);
        for (teams, said) in [
            (vec![(NEW, "P")], "NEW is fixed to team P and BASE is not"),
            (vec![(BASE, "S")], "BASE is fixed to team S and NEW is not"),
            (
                vec![(NEW, "P"), (BASE, "R"), (THIRD, "S")],
                "NEW is fixed to team P and BASE to team R; THIRD is fixed to team S",
            ),
        ] {
            let err = with_teams(&teams).validate().unwrap_err();
            assert!(matches!(err, CompareError::Unfair { .. }), "{err}");
            assert!(err.to_string().starts_with(said), "{err}");
            assert!(err.to_string().contains("a team's edge"), "{err}");
            let ran = run_compare(&with_teams(&teams), &exec, 1, &mut NoProgress, &no);
            assert_eq!(ran.unwrap_err(), err);
        }
        for teams in [
            vec![(NEW, "P"), (BASE, "P")],
            vec![(NEW, "R"), (THIRD, "R")],
        ] {
            let err = with_teams(&teams).validate().unwrap_err();
            assert!(matches!(err, CompareError::NoSeating { .. }), "{err}");
            assert!(err.to_string().contains("never play each other"), "{err}");
        }
        let err = with_teams(&[(NEW, "P"), (BASE, "P")])
            .validate()
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("NEW and BASE are both fixed to team P: "),
            "{err}"
        );
        let err = with_teams(&[("fourth", "P")]).validate().unwrap_err();
        assert!(
            err.to_string().contains(
                "`fourth`, which is not a role of a royale comparison (new, base, third)"
            ),
            "{err}"
        );
        assert!(exec.played.lock().unwrap().is_empty());
    }

    #[test]
    fn royale_third_bot_wins_count_as_draws_between_new_and_base() {
        #[derive(Debug)]
        struct ThirdWins;
        impl Executor for ThirdWins {
            fn play(&self, f: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
                Ok(GameResult {
                    first_faults: Vec::new(),
                    faulty: Vec::new(),
                    prompts: Vec::new(),
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
        let s = settings(Game::ROYALE, 10);
        let r = run_compare(&s, &ThirdWins, 2, &mut NoProgress, &AtomicBool::new(false));
        let r = r.unwrap();
        assert_eq!(r.verdict, Conclusion::Inconclusive);
        // 10 games round up to two blocks of six, all drawn between NEW
        // and BASE.
        assert_eq!(r.outcomes.counts[6], 2);
        assert_eq!(r.blocks_played, 2);
        assert_eq!(r.new_score, 0.5);
        assert_eq!(r.note, Some(SampleNote::TooSmall));
    }

    #[test]
    fn a_failed_game_is_an_error_unless_the_test_decided_first() {
        let mut exec = Fake::new(0.5);
        exec.fail_pair = Some(3);
        let err = run_compare(
            &settings(Game::CARDJITSU, 100),
            &exec,
            2,
            &mut NoProgress,
            &AtomicBool::new(false),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                CompareError::GameFailed {
                    id: 6,
                    block: 3,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("would not start"));

        let mut exec = Fake::new(1.0);
        exec.fail_pair = Some(500);
        let r = run(&settings(Game::CARDJITSU, 2000), &exec, 2);
        assert_eq!(r.verdict, Conclusion::H1);
    }

    #[test]
    fn cancelling_reports_the_pairs_counted_so_far() {
        static FLAG: AtomicBool = AtomicBool::new(false);
        let mut exec = Fake::new(0.5);
        exec.cancel_after = Some((10, &FLAG));
        let mut s = settings(Game::CARDJITSU, 2000);
        s.sprt = "elo0=-2,elo1=2".parse().unwrap();
        let r = run_compare(&s, &exec, 1, &mut NoProgress, &FLAG).unwrap();
        assert_eq!(r.verdict, Conclusion::Cancelled);
        // One job: games run in order, the flag is set during the 10th.
        assert_eq!(r.blocks_played, 5);
        assert_eq!(exec.played.lock().unwrap().len(), 10);
    }

    #[test]
    fn bad_settings_are_rejected() {
        let exec = Fake::new(0.5);
        let no = AtomicBool::new(false);
        let mut s = settings(Game::CARDJITSU, 0);
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert_eq!(err, CompareError::ZeroGames);
        s = settings(Game::ROYALE, 10);
        s.boards.clear();
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert_eq!(err, CompareError::NoBoards);
        s = settings(Game::CARDJITSU, 10);
        s.sprt.alpha = 0.0;
        let err = run_compare(&s, &exec, 1, &mut NoProgress, &no).unwrap_err();
        assert!(matches!(err, CompareError::Sprt(_)));
        assert!(exec.played.lock().unwrap().is_empty());
    }

    #[test]
    fn progress_sees_every_counted_pair_in_order() {
        struct Seen(Vec<(u64, u64)>);
        impl CompareProgress for Seen {
            fn block_done(&mut self, block: &BlockRecord, test: &SequentialTest) {
                self.0.push((block.block, test.counts().blocks()));
            }
        }
        let mut seen = Seen(Vec::new());
        let s = settings(Game::CARDJITSU, 30);
        let r = run_compare(&s, &Fake::new(0.5), 3, &mut seen, &AtomicBool::new(false));
        let n = r.unwrap().blocks_played;
        let expected: Vec<(u64, u64)> = (0..n).map(|k| (k, k + 1)).collect();
        assert_eq!(seen.0, expected);
    }
}

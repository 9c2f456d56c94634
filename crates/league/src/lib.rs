//! Leagues: scheduling, ratings and reports.
//!
//! [`run::run_league`] plays a league's [`schedule`] through an
//! [`executor::Executor`] into a directory ([`store`]) and writes its
//! [`report`]; [`merge::merge`] joins the directories of a sharded league.
//! File formats are documented in `FORMATS.md`.

pub mod command;
pub mod compare;
mod driver;
pub mod excluded;
pub mod executor;
pub mod late;
pub mod merge;
pub mod replay;
pub mod report;
pub mod run;
pub mod schedule;
pub mod settings;
pub mod stderr_logs;
pub mod stop;
pub mod store;
pub mod tally;
pub mod verdict;
pub mod view;

// Ratings and the SPRT moved to `dojo-stats`; re-exported so the old paths
// (`dojo_league::rating`, `dojo_league::sprt`) keep compiling while other
// branches merge.
pub use dojo_stats::{rating, sprt};

// The per-game layer moved to `dojo-games`; re-exported so the old paths
// (`dojo_league::game`, `classic`, `smoke`) keep compiling while other
// branches merge. New code should name `dojo_games` directly.
pub use dojo_games::{classic, smoke};
/// The game records and playing one game (now in `dojo_games`).
pub mod game {
    pub use dojo_games::cardjitsu::{CardJitsuRecord, CardJitsuSetup, play_cardjitsu};
    pub use dojo_games::record::{
        RECORD_VERSION, SeatConduct, SeatInfo, Timing, cached_fingerprint,
    };
    pub use dojo_games::royale::{RoyaleError, RoyaleRecord, RoyaleSetup, play_royale};
}

pub use excluded::{EntryStatus, Excluded};
pub use executor::{BotExecutor, ExecError, Executor, GameResult, SeatFaults};
pub use merge::{MergeError, merge};
pub use report::Report;
pub use run::{LeagueError, LeagueRun, NoProgress, Progress, check_stored_games, run_league};
pub use schedule::{Fixture, Schedule};
pub use settings::{
    Entrant, FaultPolicy, Game, Origin, Override, PlayOptions, Provenance, RaiseRefused, Raises,
    Settings, Shard, settle_values,
};

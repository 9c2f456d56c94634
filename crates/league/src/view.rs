//! What the league's HTML pages show, as typed values: a league report
//! with every game's row and how the ratings moved as games were played,
//! and a comparison. The CLI serialises these into its pages, so the
//! page's JavaScript only draws. A game's replay page (the record and what
//! its game derives from it) is the game's own view in `dojo_games`
//! (`Saved::view`), reached through the games registry. The numbers the
//! pages print or scale their charts by are worked out here too (the
//! head-to-head percentages in [`shares`], the comparison's axes in
//! [`axis`]), where they are tested.

pub mod axis;
pub mod shares;

use std::path::Path;

use dojo_games::Role;
pub use dojo_games::view::{Commands, RecordSource, shell_line};
use serde::Serialize;

use crate::compare::CompareReport;
use crate::rating;
use crate::report::{Report, build_report, pair_results, rating_options};
use crate::schedule::{Schedule, ScheduleError};
use crate::settings::Settings;
use crate::store::{self, GameLine, StoreError};

/// One game of a league, as its report lists it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameRow {
    pub id: u64,
    pub seats: Vec<String>,
    /// Royale: each seat's team.
    pub teams: Vec<Role>,
    pub board: Option<String>,
    pub scores: Vec<f64>,
    /// Per seat: all faults (timeouts, crashes, invalid answers, limits
    /// hit; restarts apart), `FaultCounts::total`.
    pub faults: Vec<u64>,
    /// The seats that were faulty under the league's fault policy.
    pub faulty: Vec<usize>,
    /// Rounds played, from the record's outcome.
    pub rounds: Option<u64>,
    /// Why the game ended, from the record's outcome.
    pub reason: Option<String>,
}

impl GameRow {
    fn new(g: &GameLine) -> GameRow {
        let outcome = g.record.get("outcome");
        GameRow {
            id: g.id,
            seats: g.seats.clone(),
            teams: g.teams.clone(),
            board: g.board.clone(),
            scores: g.scores.clone(),
            faults: g.faults.iter().map(|f| f.total()).collect(),
            faulty: g.faulty.clone(),
            rounds: outcome
                .and_then(|o| o.get("rounds"))
                .and_then(|r| r.as_u64()),
            reason: outcome
                .and_then(|o| o.get("reason"))
                .and_then(|r| r.as_str())
                .map(str::to_owned),
        }
    }
}

/// The ratings after the first `games` games (in id order).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RatingPoint {
    pub games: usize,
    /// In the order of [`ReportView::names`].
    pub elo: Vec<f64>,
}

/// A league report and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct ReportView<'a> {
    pub report: &'a Report,
    /// What the page calls the game (`"CardJitsu"`): its `GameDef::title`.
    pub title: &'static str,
    /// The side of each seat (`Shape::sides`): seats on one side are
    /// partners, shown winning together.
    pub sides: &'static [usize],
    /// `dojo league ...` that plays this league.
    pub command: String,
    /// The command that finishes an incomplete league from any directory
    /// (`dojo league --resume DIR`, DIR absolute); empty where the page's
    /// writer did not say (the page then says `--resume` alone).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub resume: String,
    /// The bots directory of the league's command (`--bots-dir`), where a
    /// bot given by name was found: the page shows that bot's directory
    /// rather than its name a second time.
    pub bots_dir: Option<String>,
    /// What a fault costs, in words (`FaultPolicy::describe`).
    pub fault_policy: String,
    /// Bot names in sorted order (the order of [`RatingPoint::elo`]).
    pub names: Vec<String>,
    pub games: Vec<GameRow>,
    pub history: Vec<RatingPoint>,
    /// Each of the report's `pairs` as the head-to-head cells show it:
    /// `a`'s and `b`'s score in whole percent, adding up to 100
    /// ([`shares::pair`]; the report keeps the exact
    /// `score_a_pct`).
    pub head_to_head: Vec<[u32; 2]>,
    /// Whether the league was still being played when the page was written.
    pub status: PageStatus,
}

/// How current a league's page is: written while its league runs, or
/// after.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct PageStatus {
    pub state: PageState,
    /// When the page was written, in milliseconds since the Unix epoch
    /// (the page shows it in the reader's local time).
    pub updated_ms: u64,
    /// Seconds until the league is likely done, from this run's rate so
    /// far; `None` while there is no rate to go by (or no league running).
    pub eta_secs: Option<u64>,
}

/// See [`PageStatus`].
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PageState {
    /// Written by the running league itself, again as games finish: the
    /// page reloads itself.
    Live,
    /// Read from a directory a league is running on (`dojo report`): the
    /// games so far, written once.
    Running,
    /// Written when no league runs on the directory: what it holds, whether
    /// complete or not.
    Final,
}

impl PageStatus {
    /// A page written now in `state`.
    pub fn now(state: PageState, eta_secs: Option<u64>) -> PageStatus {
        let updated_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        PageStatus {
            state,
            updated_ms,
            eta_secs,
        }
    }
}

/// How many points [`rating_history`] computes at most.
pub const HISTORY_POINTS: usize = 40;

/// The ratings after growing prefixes of `games` (sorted by id, which is
/// schedule order, so every prefix covers all pairings about evenly): up
/// to [`HISTORY_POINTS`] fits without bootstrap.
pub fn rating_history(settings: &Settings, games: &[GameLine]) -> Vec<RatingPoint> {
    let names = settings.sorted_names();
    let n = games.len();
    if n == 0 {
        return Vec::new();
    }
    let steps = n.min(HISTORY_POINTS);
    let mut opts = rating_options(settings, &names);
    opts.bootstrap = 0;
    let mut out = Vec::with_capacity(steps);
    let mut results = Vec::new();
    let mut done = 0;
    for k in 1..=steps {
        let upto = n * k / steps;
        results.extend(pair_results(settings.game, &names, &games[done..upto]));
        done = upto;
        let fitted = rating::fit(names.len(), &results, &opts);
        out.push(RatingPoint {
            games: upto,
            elo: fitted.iter().map(|r| r.elo).collect(),
        });
    }
    out
}

/// The page data of a league report; `games` sorted by id.
pub fn report_view<'a>(
    report: &'a Report,
    settings: &Settings,
    games: &[GameLine],
    status: PageStatus,
) -> ReportView<'a> {
    ReportView {
        report,
        title: settings.game.title(),
        sides: settings.game.shape().sides,
        command: shell_line(&report.command),
        resume: String::new(),
        bots_dir: (report.command.iter())
            .position(|a| a == "--bots-dir")
            .and_then(|i| report.command.get(i + 1).cloned()),
        fault_policy: settings.faults.describe(),
        names: settings.sorted_names(),
        games: games.iter().map(GameRow::new).collect(),
        history: rating_history(settings, games),
        head_to_head: report
            .pairs
            .iter()
            .map(|p| shares::pair(p.score_a_pct))
            .collect(),
        status,
    }
}

/// A `dojo compare` result and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct CompareView<'a, B: Serialize> {
    /// Who played and how (as the CLI describes the bots).
    pub bots: B,
    /// The result, with the test's course block by block in its `trace`.
    pub report: &'a CompareReport,
    /// The command line that ran the comparison.
    pub command: String,
    /// What a fault cost, in words (`FaultPolicy::describe`).
    pub fault_policy: String,
    /// The LLR chart's value axis ([`axis::llr_axis`]).
    pub llr_axis: axis::Axis,
    /// The Elo chart's value axis, and the intervals it cuts
    /// ([`axis::elo_axis`]).
    pub elo_axis: axis::EloAxis,
    /// The sentences the text summary prints, so the page words them
    /// the same.
    pub text: CompareText,
}

/// A comparison's sentences, as its text summary words them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CompareText {
    /// What the verdict says NEW is against BASE, with the estimate.
    pub verdict: String,
    /// What to do next, when the test did not decide.
    pub next: Option<String>,
    /// The note on the sample ([`CompareReport::note`]).
    pub note: Option<String>,
    /// What the LLR's bounds are.
    pub bounds: String,
    /// The note on a bot that is not deterministic.
    pub nondeterministic: Option<String>,
}

/// The page data of a comparison.
pub fn compare_view<B: Serialize>(
    report: &CompareReport,
    bots: B,
    command: String,
    text: CompareText,
) -> CompareView<'_, B> {
    CompareView {
        bots,
        report,
        command,
        text,
        fault_policy: report.settings.faults.describe(),
        llr_axis: axis::llr_axis(&report.bounds, &report.trace),
        elo_axis: axis::elo_axis(&report.settings.sprt, &report.elo, &report.trace),
    }
}

/// Why a league directory could not be read for its report.
#[derive(Debug, thiserror::Error)]
pub enum LeagueReadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Sprt(#[from] crate::stop::SprtSetupError),
    /// A stored game that is none of the directory's fixtures.
    #[error("{}: game {id} {problem}", path.display())]
    Foreign {
        path: std::path::PathBuf,
        id: u64,
        problem: &'static str,
    },
}

/// A league directory read for its report: its settings, its games sorted
/// by id, and the report rebuilt from them (the same function `dojo
/// league` uses, so it equals `report.json` apart from `timing`, which is
/// taken from `report.json` when there is one). A directory a league is
/// running on ([`store::is_running`]) gives the games stored so far: the
/// line being written is left out ([`store::read_games_so_far`]). A game
/// that is none of the directory's fixtures, or one stored twice, is an
/// error.
pub fn read_league(dir: &Path) -> Result<(Settings, Vec<GameLine>, Report), LeagueReadError> {
    let league = store::load_league(dir)?;
    let settings = league.settings;
    let mut games = if store::is_running(dir)? {
        store::read_games_so_far(dir, settings.game)?
    } else {
        store::read_games(dir, settings.game, false)?
    };
    games.sort_by_key(|g| g.id);
    let schedule = Schedule::build(&settings)?;
    let scheduled = schedule.selected_len(settings.shard);
    // Each a fixture of the directory, and (the reading refused a game
    // stored twice) each once: never more games played than scheduled.
    for game in &games {
        game.fits(&schedule, settings.shard)
            .map_err(|problem| LeagueReadError::Foreign {
                path: dir.join(store::GAMES_FILE),
                id: game.id,
                problem,
            })?;
    }
    let timing = dojo_runner::input::read_capped(
        &dir.join(store::REPORT_FILE),
        dojo_runner::input::LEAGUE_FILE_CAP,
        "a report.json",
    )
    .ok()
    .and_then(|bytes| serde_json::from_slice::<Report>(&bytes).ok())
    .map(|r| r.timing)
    .unwrap_or_default();
    let mut report = build_report(&settings, &league.origin, &games, scheduled, timing);
    if let Some(rule) = crate::stop::over_stored_games(&settings, &schedule, &games)? {
        report.add_stop_rule(&rule);
    }
    Ok((settings, games, report))
}

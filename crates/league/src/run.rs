//! Playing a league: pending fixtures run on a thread pool; one writer
//! (the calling thread) stores results as they finish.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use thiserror::Error;

use crate::driver::{self, Cutoffs, Drive, Sink};
use crate::executor::{ExecError, Executor, GameResult};
use crate::report::{FailedGame, Report, RunInfo, build_report_from};
use crate::schedule::{Fixture, Schedule, ScheduleError};
use crate::settings::{Origin, Provenance, Settings};
use crate::stderr_logs::StderrLogs;
use crate::stop::{GauntletStop, SprtSetupError};
use crate::store::{GameLine, REPORT_FILE, SYNC_INTERVAL, Store, StoreError, write_json_atomic};
use crate::tally::LeagueTally;

/// How to run (not part of the league's identity).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueRun {
    /// The league directory; created, or continued if it holds the same
    /// league.
    pub out: PathBuf,
    /// Games played at once (at least 1).
    pub jobs: usize,
    /// Each bot's fingerprint by name, recorded as the directory's
    /// provenance (with this dojo's version); a directory whose games were
    /// played by other bots is refused. Empty for executors that run no
    /// bot processes.
    pub fingerprints: BTreeMap<String, String>,
    /// Where the bots were found and how the league was started, stored in
    /// `league.json` (a resume may change it: `--allow-broken`, a moved
    /// bots directory).
    pub origin: Origin,
}

/// Told about every finished game, on the calling thread.
pub trait Progress {
    /// `done` of `total` games of this directory are stored; `leader` is
    /// the bot with the best score percentage so far.
    fn game_done(&mut self, done: u64, total: u64, leader: Option<(&str, f64)>);

    /// A game failed; it is not stored and stays pending.
    fn game_failed(&mut self, _fixture: &Fixture, _error: &str) {}

    /// Before the first game: `done` of `total` games are already stored
    /// (a resumed league).
    fn started(&mut self, _done: u64, _total: u64) {}

    /// A game's line was appended (and flushed) to `games.jsonl`.
    fn game_stored(&mut self, _line: &GameLine) {}

    /// Opening the league cut the torn last line `line` of `games.jsonl`
    /// (an interrupted write) off it, keeping its text in `kept`.
    fn torn_line_cut(&mut self, _line: usize, _kept: &std::path::Path) {}
}

/// Progress that is not shown.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn game_done(&mut self, _: u64, _: u64, _: Option<(&str, f64)>) {}
}

/// Games handed to the thread pool ahead of the one each worker plays,
/// so a worker never waits for the writer to give it the next game.
const QUEUED_PER_WORKER: usize = 2;

/// Why a league could not be run.
#[derive(Debug, Error)]
pub enum LeagueError {
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Sprt(#[from] SprtSetupError),
    #[error("cannot start {jobs} worker threads: {message}")]
    Pool { jobs: usize, message: String },
    #[error("{}: game {id} {problem}", path.display())]
    Foreign {
        path: PathBuf,
        id: u64,
        problem: &'static str,
    },
}

/// Plays every fixture of `settings` (or of its shard) not yet stored in
/// `options.out`, then writes and returns the report. With a stop rule
/// (`settings.sprt`, a gauntlet's SPRT) each pairing stops once its test
/// decides; a resumed league first counts its stored games into the test.
///
/// When `cancel` becomes true, running games are abandoned (the executor
/// sees the flag), no new game starts, and the report of the games stored
/// so far is written and returned (with `timing.cancelled` set).
pub fn run_league(
    settings: &Settings,
    options: &LeagueRun,
    executor: &impl Executor,
    progress: &mut dyn Progress,
    cancel: &AtomicBool,
) -> Result<Report, LeagueError> {
    let started = Instant::now();
    let boxes_before = dojo_runner::boxes_made();
    // The schedule computes each fixture from its id, and stored games are
    // summed as they are read or played (`LeagueTally`), never kept: what
    // grows with the games is a bit per game id and a label per pair.
    let schedule = Schedule::build(settings)?;
    let shard = settings.shard;
    crate::stop::check(settings)?;
    // A shard plays every game of its slice: a test needs a pairing's
    // games in cycle order, which only the merged directory holds (`dojo
    // merge` runs the tests; see docs/distributed.md, "Sequential tests in
    // waves").
    let mut stop_rule = match (&settings.sprt, &settings.gauntlet, shard) {
        (Some(params), Some(new), None) => Some(GauntletStop::new(&schedule, new, *params)?),
        _ => None,
    };
    let cutoffs = Cutoffs::new(schedule.groups());
    let mut done = IdSet::default();
    let mut tally = LeagueTally::new(settings.sorted_names(), settings.game);
    let mut leader = Leader::default();
    let mut stored_games = 0u64;
    let store = Store::open_each(&options.out, settings, |line| {
        check_stored(&options.out, &schedule, shard, &line)?;
        done.insert(line.id);
        leader.add(&line);
        tally.add(&line);
        if let Some(rule) = &mut stop_rule {
            rule.add(line.pair, line.leg, &line.seats, &line.scores, &cutoffs);
        }
        stored_games += 1;
        Ok::<(), LeagueError>(())
    })?;

    // The pending games are found by walking the schedule against the
    // stored ids, not by copying it, in the order that lets the boxes kept
    // idle serve them (`schedule/play_order.rs`).
    let pending = schedule
        .in_play_order(shard, options.jobs.max(1))
        .filter(|f| !done.contains(f.id));
    let total = schedule.selected_len(shard);
    if let Some(line) = store.torn_line() {
        progress.torn_line_cut(line, &options.out.join(crate::store::TORN_FILE));
    }
    let containment = executor.containment();
    let provenance = Provenance::current(options.fingerprints.clone());
    crate::store::record_provenance(&options.out, &provenance, containment.clone())?;
    crate::store::record_origin(&options.out, &options.origin)?;
    let mut sink = Writer {
        leader,
        stored_games,
        tally,
        store,
        stderr_logs: StderrLogs::new(&options.out),
        info: RunInfo {
            containment,
            ..RunInfo::default()
        },
        write_error: None,
        total,
        progress,
        stop_rule,
    };
    sink.progress.started(sink.stored_games, total);

    let jobs = options.jobs.max(1);
    let how = Drive {
        jobs,
        window: jobs * QUEUED_PER_WORKER,
        // Wake up at least once per sync interval, so a stored game waits
        // for its fsync no longer than that even when the next game takes
        // long.
        idle: SYNC_INTERVAL,
        cancel,
        stop_grace: crate::driver::STOP_GRACE,
    };
    driver::drive(&how, pending, executor, &cutoffs, &mut sink).map_err(|e| LeagueError::Pool {
        jobs: e.jobs,
        message: e.message,
    })?;
    let Writer {
        mut store,
        tally,
        mut info,
        write_error,
        stored_games,
        stop_rule,
        ..
    } = sink;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    // The last group, before the report that counts its games.
    store.sync()?;

    let stopped = stop_rule.as_ref().is_some_and(GauntletStop::finished);
    info.failed.sort_by_key(|f| f.id);
    info.cancelled = cancel.load(Ordering::SeqCst) && stored_games < total && !stopped;
    info.wall_ms = started.elapsed().as_millis() as u64;
    info.boxes_made = dojo_runner::boxes_made() - boxes_before;
    let mut report = build_report_from(settings, &options.origin, &tally, total, info);
    if let Some(rule) = &stop_rule {
        report.add_stop_rule(rule);
    }
    write_json_atomic(&store.dir().join(REPORT_FILE), &report)?;
    Ok(report)
}

/// The league's side of the driver: stores each finished game (one
/// writer, the calling thread), keeps its compact outcome, tells the
/// progress and the stop rule.
struct Writer<'a> {
    store: Store,
    stderr_logs: StderrLogs,
    leader: Leader,
    tally: LeagueTally,
    info: RunInfo,
    /// Set when storing fails: no game starts after it, and the league
    /// returns the error (what is stored stays).
    write_error: Option<StoreError>,
    stored_games: u64,
    total: u64,
    progress: &'a mut dyn Progress,
    stop_rule: Option<GauntletStop>,
}

impl Sink for Writer<'_> {
    fn finished(
        &mut self,
        fixture: Fixture,
        result: Result<GameResult, ExecError>,
        cutoffs: &Cutoffs,
    ) {
        let fixture = &fixture;
        match result {
            Ok(mut r) if self.write_error.is_none() => {
                // Stderr goes to the bots' logs, not games.jsonl (which
                // keeps only each faulty seat's tail, in `first_faults`).
                let stderr = r.record.as_object_mut().and_then(|o| o.remove("stderr"));
                let line = GameLine::new(fixture, r);
                if let Err(e) = self.store.append(&line) {
                    cutoffs.stop();
                    self.write_error = Some(e);
                    return;
                }
                if let Some(stderr) = &stderr {
                    self.stderr_logs.add(fixture, stderr);
                }
                if let Some(rule) = &mut self.stop_rule {
                    rule.add(line.pair, line.leg, &line.seats, &line.scores, cutoffs);
                }
                self.leader.add(&line);
                self.progress.game_stored(&line);
                self.tally.add(&line);
                self.stored_games += 1;
                self.info.games_this_run += 1;
                self.progress
                    .game_done(self.stored_games, self.total, self.leader.best());
            }
            Ok(_) | Err(ExecError::Cancelled) => {}
            Err(ExecError::Failed(error)) => {
                if let Some(rule) = &mut self.stop_rule {
                    rule.failed(fixture.pair, cutoffs);
                }
                self.progress.game_failed(fixture, &error);
                self.info.failed.push(FailedGame {
                    id: fixture.id,
                    error,
                });
            }
        }
    }

    fn held(&self) -> usize {
        self.stop_rule.as_ref().map_or(0, GauntletStop::held)
    }

    fn idle(&mut self, cutoffs: &Cutoffs) {
        if self.write_error.is_none()
            && let Err(e) = self.store.sync_if_due()
        {
            cutoffs.stop();
            self.write_error = Some(e);
        }
    }
}

/// Checks the games stored in `dir` as a resume of the league `settings`
/// reads them (each line a game of its fixtures, none stored twice),
/// without changing the file (a torn last line is for the resume to cut):
/// what `dojo league --resume` does before it builds or starts any bot,
/// so a bad line stops it at once, naming the file and the line.
pub fn check_stored_games(dir: &std::path::Path, settings: &Settings) -> Result<(), LeagueError> {
    let schedule = Schedule::build(settings)?;
    crate::store::for_each_game_untouched(dir, settings.game, |line| {
        check_stored(dir, &schedule, settings.shard, &line)
    })
}

/// Checks a stored game belongs to this directory's fixtures (those of
/// `shard`). A game stored twice never gets here: reading `games.jsonl`
/// refuses its second line ([`crate::store::StoreError::StoredTwice`]).
fn check_stored(
    dir: &std::path::Path,
    schedule: &Schedule,
    shard: Option<crate::settings::Shard>,
    line: &GameLine,
) -> Result<(), LeagueError> {
    line.fits(schedule, shard)
        .map_err(|problem| LeagueError::Foreign {
            path: dir.join(crate::store::GAMES_FILE),
            id: line.id,
            problem,
        })
}

/// A set of game ids, a bit each (ids are below the schedule's length).
#[derive(Debug, Default)]
struct IdSet {
    words: Vec<u64>,
}

impl IdSet {
    fn insert(&mut self, id: u64) {
        let word = (id / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (id % 64);
    }

    fn contains(&self, id: u64) -> bool {
        self.words
            .get((id / 64) as usize)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }
}

/// Running score totals per bot, for the progress leader.
#[derive(Default)]
struct Leader {
    tally: BTreeMap<String, (f64, u64)>,
}

impl Leader {
    fn add(&mut self, line: &GameLine) {
        for (name, score) in line.seats.iter().zip(&line.scores) {
            let e = self.tally.entry(name.clone()).or_default();
            e.0 += score;
            e.1 += 1;
        }
    }

    /// Best score percentage; ties go to the first name.
    fn best(&self) -> Option<(&str, f64)> {
        let mut best: Option<(&str, f64)> = None;
        for (name, &(score, games)) in &self.tally {
            let pct = 100.0 * score / games as f64;
            if best.is_none_or(|(_, b)| pct > b) {
                best = Some((name, pct));
            }
        }
        best
    }
}

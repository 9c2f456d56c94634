//! Playing a league: pending fixtures run on a thread pool; one writer
//! (the calling thread) stores results as they finish.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use thiserror::Error;

use crate::driver::{self, Cutoffs, Drive, Sink};
use crate::executor::{ExecError, Executor, GameResult};
use crate::report::{FailedGame, Outcome, Report, RunInfo, build_report_from};
use crate::schedule::{Fixture, Schedule, ScheduleError};
use crate::settings::{Provenance, Settings};
use crate::stderr_logs::StderrLogs;
use crate::stop::{GauntletStop, SprtSetupError};
use crate::store::{GameLine, REPORT_FILE, SYNC_INTERVAL, Store, StoreError, write_json_atomic};

/// How to run (not part of the league's identity).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
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
    options: &RunOptions,
    executor: &impl Executor,
    progress: &mut dyn Progress,
    cancel: &AtomicBool,
) -> Result<Report, LeagueError> {
    let started = Instant::now();
    // The schedule computes each fixture from its id: nothing here grows
    // with the number of games but the compact outcomes below.
    let schedule = Schedule::build(settings)?;
    let shard = settings.shard;
    crate::stop::check(settings)?;
    let mut stop_rule = match (&settings.sprt, &settings.gauntlet) {
        (Some(params), Some(new)) => Some(GauntletStop::new(&schedule, new, *params)?),
        _ => None,
    };
    let (store, stored) = Store::open(&options.out, settings)?;
    let games_path = options.out.join(crate::store::GAMES_FILE);
    let done = check_stored(&games_path, &schedule, shard, stored)?;
    let cutoffs = Cutoffs::new(schedule.groups());
    if let Some(rule) = &mut stop_rule {
        for line in done.values() {
            rule.add(line.pair, line.leg, &line.seats, &line.scores, &cutoffs);
        }
    }

    // Stored ids, sorted: the pending games are found by walking the
    // schedule, not by copying it.
    let done_ids: Vec<u64> = done.keys().copied().collect();
    let pending = schedule
        .selected(shard)
        .filter(|f| done_ids.binary_search(&f.id).is_err());
    let total = schedule.selected_len(shard);
    // Only a compact outcome is kept for the report: a league's memory must
    // not grow with the records (or even the names) of the games it stored.
    let names = settings.sorted_names();
    let containment = executor.containment();
    let provenance = Provenance::current(options.fingerprints.clone());
    crate::store::record_provenance(&options.out, &provenance, containment.clone())?;
    let mut sink = Writer {
        leader: Leader::new(done.values()),
        stored_games: done.len() as u64,
        outcomes: done
            .into_values()
            .filter_map(|l| Outcome::new(&names, &l))
            .collect(),
        names,
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
    };
    driver::drive(&how, pending, executor, &cutoffs, &mut sink).map_err(|e| LeagueError::Pool {
        jobs: e.jobs,
        message: e.message,
    })?;
    let Writer {
        mut store,
        mut outcomes,
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
    outcomes.sort_by_key(|o| o.id);
    info.failed.sort_by_key(|f| f.id);
    info.cancelled = cancel.load(Ordering::SeqCst) && stored_games < total && !stopped;
    info.wall_ms = started.elapsed().as_millis() as u64;
    let mut report = build_report_from(settings, &outcomes, total, info);
    if let Some(rule) = &stop_rule {
        rule.finish_report(&mut report);
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
    names: Vec<String>,
    outcomes: Vec<Outcome>,
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
                // Stderr goes to the bots' logs, not games.jsonl.
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
                self.outcomes.extend(Outcome::new(&self.names, &line));
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

    fn idle(&mut self, cutoffs: &Cutoffs) {
        if self.write_error.is_none()
            && let Err(e) = self.store.sync_if_due()
        {
            cutoffs.stop();
            self.write_error = Some(e);
        }
    }
}

/// Checks stored games belong to this directory's fixtures (those of
/// `shard`); returns them by id (identical duplicates collapse).
fn check_stored(
    path: &std::path::Path,
    schedule: &Schedule,
    shard: Option<crate::settings::Shard>,
    stored: Vec<GameLine>,
) -> Result<BTreeMap<u64, GameLine>, LeagueError> {
    let mut done = BTreeMap::new();
    for line in stored {
        let foreign = |problem| LeagueError::Foreign {
            path: path.to_owned(),
            id: line.id,
            problem,
        };
        let fixture = schedule
            .selects(shard, line.id)
            .then(|| schedule.fixture(line.id))
            .flatten();
        match fixture {
            None => return Err(foreign("is not in this league's schedule")),
            Some(f) if !line.matches(&f) => {
                return Err(foreign("does not match its scheduled seats or seed"));
            }
            Some(_) => {}
        }
        if let Some(prev) = done.get(&line.id)
            && !line.same_game(prev)
        {
            return Err(foreign("is stored twice with different results"));
        }
        done.insert(line.id, line);
    }
    Ok(done)
}

/// Running score totals per bot, for the progress leader.
struct Leader {
    tally: BTreeMap<String, (f64, u64)>,
}

impl Leader {
    fn new<'a>(lines: impl Iterator<Item = &'a GameLine>) -> Leader {
        let mut l = Leader {
            tally: BTreeMap::new(),
        };
        for line in lines {
            l.add(line);
        }
        l
    }

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

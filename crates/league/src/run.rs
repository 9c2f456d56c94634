//! Playing a league: pending fixtures run on a thread pool; one writer
//! (the calling thread) stores results as they finish.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use thiserror::Error;

use crate::executor::{ExecError, Executor, GameResult, check_result};
use crate::report::{FailedGame, Outcome, Report, RunInfo, build_report_from};
use crate::schedule::{Fixture, Schedule, ScheduleError};
use crate::settings::{Provenance, Settings};
use crate::stderr_logs::StderrLogs;
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
/// `options.out`, then writes and returns the report.
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
    let (mut store, stored) = Store::open(&options.out, settings)?;
    let games_path = options.out.join(crate::store::GAMES_FILE);
    let done = check_stored(&games_path, &schedule, shard, stored)?;

    // Stored ids, sorted: the pending games are found by walking the
    // schedule, not by copying it.
    let done_ids: Vec<u64> = done.keys().copied().collect();
    let mut pending = schedule
        .selected(shard)
        .filter(|f| done_ids.binary_search(&f.id).is_err())
        .peekable();
    let total = schedule.selected_len(shard);
    // Only a compact outcome is kept for the report: a league's memory must
    // not grow with the records (or even the names) of the games it stored.
    let names = settings.sorted_names();
    let mut leader = Leader::new(done.values());
    let mut stored_games = done.len() as u64;
    let mut outcomes: Vec<Outcome> = done
        .into_values()
        .filter_map(|l| Outcome::new(&names, &l))
        .collect();
    let containment = executor.containment();
    let provenance = Provenance::current(options.fingerprints.clone());
    crate::store::record_provenance(&options.out, &provenance, containment.clone())?;
    let mut info = RunInfo {
        containment,
        ..RunInfo::default()
    };
    let mut write_error: Option<StoreError> = None;
    let mut stderr_logs = StderrLogs::new(&options.out);
    progress.started(stored_games, total);

    if pending.peek().is_some() && !cancel.load(Ordering::SeqCst) {
        let jobs = options.jobs.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| LeagueError::Pool {
                jobs,
                message: e.to_string(),
            })?;
        // Set when storing fails: stop starting games, keep what is stored.
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(Fixture, Result<GameResult, ExecError>)>();
        pool.in_place_scope(|scope| {
            // Games are handed to the pool a few at a time, not all at once,
            // so the pool's queue stays as small as the number of workers
            // however long the league.
            let queue = &mut pending;
            let mut in_flight = 0usize;
            let start = |fixture: Fixture| {
                let tx = tx.clone();
                let stop = &stop;
                scope.spawn(move |_| {
                    let result = if cancel.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst) {
                        Err(ExecError::Cancelled)
                    } else {
                        executor.play(&fixture, cancel)
                    };
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = tx.send((fixture, result));
                });
            };
            for fixture in queue.by_ref().take(jobs * QUEUED_PER_WORKER) {
                start(fixture);
                in_flight += 1;
            }
            while in_flight > 0 {
                // Wake up at least once per sync interval, so a stored game
                // waits for its fsync no longer than that even when the next
                // game takes long.
                let (fixture, result) = match rx.recv_timeout(SYNC_INTERVAL) {
                    Ok(item) => item,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if write_error.is_none()
                            && let Err(e) = store.sync_if_due()
                        {
                            stop.store(true, Ordering::SeqCst);
                            write_error = Some(e);
                        }
                        continue;
                    }
                    // Unreachable while `tx` is held here; stop waiting.
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
                in_flight -= 1;
                if let Some(next) = queue.next() {
                    start(next);
                    in_flight += 1;
                }
                let fixture = &fixture;
                let result = result.and_then(|r| {
                    check_result(fixture, &r).map_err(ExecError::Failed)?;
                    Ok(r)
                });
                match result {
                    Ok(mut r) if write_error.is_none() => {
                        // Stderr goes to the bots' logs, not games.jsonl.
                        let stderr = r.record.as_object_mut().and_then(|o| o.remove("stderr"));
                        let line = GameLine::new(fixture, r);
                        if let Err(e) = store.append(&line) {
                            stop.store(true, Ordering::SeqCst);
                            write_error = Some(e);
                            continue;
                        }
                        if let Some(stderr) = &stderr {
                            stderr_logs.add(fixture, stderr);
                        }
                        leader.add(&line);
                        progress.game_stored(&line);
                        outcomes.extend(Outcome::new(&names, &line));
                        stored_games += 1;
                        info.games_this_run += 1;
                        progress.game_done(stored_games, total, leader.best());
                    }
                    Ok(_) | Err(ExecError::Cancelled) => {}
                    Err(ExecError::Failed(error)) => {
                        progress.game_failed(fixture, &error);
                        info.failed.push(FailedGame {
                            id: fixture.id,
                            error,
                        });
                    }
                }
            }
        });
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    // The last group, before the report that counts its games.
    store.sync()?;

    outcomes.sort_by_key(|o| o.id);
    info.failed.sort_by_key(|f| f.id);
    info.cancelled = cancel.load(Ordering::SeqCst) && stored_games < total;
    info.wall_ms = started.elapsed().as_millis() as u64;
    let report = build_report_from(settings, &outcomes, total, info);
    write_json_atomic(&store.dir().join(REPORT_FILE), &report)?;
    Ok(report)
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

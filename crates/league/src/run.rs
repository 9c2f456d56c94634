//! Playing a league: pending fixtures run on a thread pool; one writer
//! (the calling thread) stores results as they finish.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use thiserror::Error;

use crate::executor::{ExecError, Executor, GameResult, check_result};
use crate::report::{FailedGame, Report, RunInfo, build_report_from};
use crate::schedule::{Fixture, Schedule, ScheduleError};
use crate::settings::{Provenance, Settings};
use crate::stderr_logs::StderrLogs;
use crate::store::{GameLine, REPORT_FILE, SYNC_INTERVAL, Store, StoreError, write_json_atomic};
use crate::tally::LeagueTally;

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
    // The schedule computes each fixture from its id, and stored games are
    // summed as they are read or played (`LeagueTally`), never kept: what
    // grows with the games is a bit per game id and a label per pair.
    let schedule = Schedule::build(settings)?;
    let shard = settings.shard;
    let mut done = IdSet::default();
    let mut tally = LeagueTally::new(settings.sorted_names());
    let mut leader = Leader::default();
    let mut stored_games = 0u64;
    let mut store = Store::open_each(&options.out, settings, |line| {
        if check_stored(&options.out, &schedule, shard, &done, &line)? {
            done.insert(line.id);
            leader.add(&line);
            tally.add(&line);
            stored_games += 1;
        }
        Ok::<(), LeagueError>(())
    })?;

    // The pending games are found by walking the schedule against the
    // stored ids, not by copying it.
    let mut pending = schedule
        .selected(shard)
        .filter(|f| !done.contains(f.id))
        .peekable();
    let total = schedule.selected_len(shard);
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
                        tally.add(&line);
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

    info.failed.sort_by_key(|f| f.id);
    info.cancelled = cancel.load(Ordering::SeqCst) && stored_games < total;
    info.wall_ms = started.elapsed().as_millis() as u64;
    let report = build_report_from(settings, &tally, total, info);
    write_json_atomic(&store.dir().join(REPORT_FILE), &report)?;
    Ok(report)
}

/// Checks a stored game belongs to this directory's fixtures (those of
/// `shard`). Returns whether it is new: a game stored again identically
/// (`done` holds its id) is not counted twice; stored again with a
/// different result, it is an error (the first copy is read back from
/// `dir` to compare).
fn check_stored(
    dir: &std::path::Path,
    schedule: &Schedule,
    shard: Option<crate::settings::Shard>,
    done: &IdSet,
    line: &GameLine,
) -> Result<bool, LeagueError> {
    let foreign = |problem| LeagueError::Foreign {
        path: dir.join(crate::store::GAMES_FILE),
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
    if !done.contains(line.id) {
        return Ok(true);
    }
    match crate::store::find_game(dir, line.id)? {
        Some(first) if !line.same_game(&first) => {
            Err(foreign("is stored twice with different results"))
        }
        _ => Ok(false),
    }
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

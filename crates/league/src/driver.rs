//! The one match driver behind leagues, gauntlets and `dojo compare`.
//!
//! A tournament is a schedule (fixtures computed on demand, in id order)
//! and a stop rule. The driver starts fixtures on a rayon pool, at most a
//! window of them in flight, and hands every finished game to a [`Sink`]
//! on the calling thread in the order games finish. The sink stores it and
//! applies the stop rule: a fixed count plays the whole schedule; an SPRT
//! feeds whole blocks to its test in order and, once the test decides,
//! cuts its group ([`Cutoffs`]) so no later game of it starts.
//!
//! Fixtures are grouped as the schedule groups them: `pair = cycle ·
//! groups + group` (a league's pairing or trio in one cycle; a
//! comparison's single group, where `pair` is the block). A cut is per
//! group, at a cycle: games of that group from that cycle on are neither
//! started nor, if already handed to the pool, played.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::executor::{ExecError, Executor, GameResult, check_result};
use crate::schedule::Fixture;

/// Per group, the first cycle whose games are no longer wanted. Shared
/// with the workers, which skip a game cut after it was handed out.
#[derive(Debug)]
pub(crate) struct Cutoffs {
    cut: Vec<AtomicU64>,
}

impl Cutoffs {
    /// Nothing cut, for a schedule of `groups` groups (at least 1).
    pub(crate) fn new(groups: u64) -> Cutoffs {
        Cutoffs {
            cut: (0..groups.max(1))
                .map(|_| AtomicU64::new(u64::MAX))
                .collect(),
        }
    }

    fn groups(&self) -> u64 {
        self.cut.len() as u64
    }

    /// The group and cycle of a fixture's `pair`.
    pub(crate) fn locate(&self, pair: u64) -> (u64, u64) {
        (pair % self.groups(), pair / self.groups())
    }

    /// Whether the fixture with this `pair` is still to be played.
    pub(crate) fn wants(&self, pair: u64) -> bool {
        let (group, cycle) = self.locate(pair);
        cycle < self.cut[group as usize].load(Ordering::SeqCst)
    }

    /// No game of `group` from `cycle` on.
    pub(crate) fn cut(&self, group: u64, cycle: u64) {
        if let Some(c) = self.cut.get(group as usize) {
            c.fetch_min(cycle, Ordering::SeqCst);
        }
    }

    /// No further game at all.
    pub(crate) fn stop(&self) {
        for c in &self.cut {
            c.store(0, Ordering::SeqCst);
        }
    }

    /// No fixture of this cycle or later is wanted.
    fn end(&self) -> u64 {
        self.cut
            .iter()
            .map(|c| c.load(Ordering::SeqCst))
            .max()
            .unwrap_or(0)
    }
}

/// What the driver hands finished games to, on the calling thread.
pub(crate) trait Sink {
    /// A game ended: its result (already checked for shape: one score and
    /// fault record per seat), its failure, or [`ExecError::Cancelled`]
    /// when it was cut or cancelled before or while it ran. The stop rule
    /// cuts through `cutoffs`.
    fn finished(
        &mut self,
        fixture: Fixture,
        result: Result<GameResult, ExecError>,
        cutoffs: &Cutoffs,
    );

    /// No game finished for [`Drive::idle`]; called again each time.
    fn idle(&mut self, _cutoffs: &Cutoffs) {}

    /// Finished games the sink holds without having counted them yet (an
    /// SPRT's blocks waiting for an earlier game). They take up the
    /// window like games in flight: otherwise one slow game lets the
    /// other workers play on without bound, and all of it is wasted if
    /// the test decides once the slow game is in.
    ///
    /// A held game should wait only for games in flight or not yet
    /// started. Whatever a sink reports, the driver starts a game when
    /// none is in flight: a miscount costs parallelism, never the
    /// schedule.
    fn held(&self) -> usize {
        0
    }
}

/// How to drive.
pub(crate) struct Drive<'a> {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Most games started and not yet counted (in flight, or held by the
    /// sink): bounds the games played past a stop rule's decision.
    pub window: usize,
    /// How long to wait for a game before calling [`Sink::idle`].
    pub idle: Duration,
    pub cancel: &'a AtomicBool,
    /// How long a game with a crash is held before the sink gets it
    /// ([`STOP_GRACE`]; tests change it).
    pub stop_grace: Duration,
}

/// How long a finished game with a crash is held before it is counted.
/// A scheduler that stops a whole job (Slurm's `scancel --full`, systemd,
/// a container's runtime) sends SIGTERM to dojo and to the bots alike: a
/// bot may die of it, and its game end charged with that crash, before
/// dojo's own signal has set the stop flag. A game with a crash is
/// therefore counted only once this long has passed without a stop; if
/// the stop comes first (or the game ends after it), the game is
/// interrupted instead ([`ExecError::Cancelled`]: not stored, played
/// again on resume). Dojo's signal thread sets the flag within
/// microseconds of the signal, so a second is ample even on a loaded
/// machine. Only games with a crash wait (what a signal does to a bot),
/// and they do not take up the window, so a bot that crashes in every
/// game slows nothing down; a stop rule's decision can come up to this
/// much later after one, and the games started meanwhile are wasted.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(1);

/// Whether any seat of a game crashed.
fn has_crash(result: &Result<GameResult, ExecError>) -> bool {
    result
        .as_ref()
        .is_ok_and(|r| r.faults.iter().any(|f| f.crash > 0))
}

/// The thread pool could not be built.
#[derive(Debug)]
pub(crate) struct PoolError {
    pub jobs: usize,
    pub message: String,
}

/// Plays `fixtures` (in the order given, skipping those cut) through
/// `executor` until they run out, every group is cut, or `cancel` is set;
/// returns when every started game has been handed to `sink`.
pub(crate) fn drive(
    how: &Drive<'_>,
    fixtures: impl Iterator<Item = Fixture>,
    executor: &impl Executor,
    cutoffs: &Cutoffs,
    sink: &mut dyn Sink,
) -> Result<(), PoolError> {
    let jobs = how.jobs.max(1);
    let window = how.window.max(1);
    let cancel = how.cancel;
    // Fixtures come in cycle order, so once a cycle is past every group's
    // cut nothing after it is wanted either.
    let mut fixtures = fixtures
        .take_while(|f| cutoffs.locate(f.pair).1 < cutoffs.end())
        .filter(|f| cutoffs.wants(f.pair))
        .peekable();
    if cancel.load(Ordering::SeqCst) || fixtures.peek().is_none() {
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PoolError {
            jobs,
            message: e.to_string(),
        })?;
    let (tx, rx) = mpsc::channel::<(Fixture, Result<GameResult, ExecError>)>();
    pool.in_place_scope(|scope| {
        let mut in_flight = 0usize;
        // Finished games not yet handed to the sink, in the order they
        // finished, each with the time it may go: a game with a crash
        // waits out `stop_grace` (see [`STOP_GRACE`]), and every game
        // that finishes after it waits behind it, so the sink still gets
        // games in the order they finished.
        let mut held: VecDeque<(Instant, Fixture, Result<GameResult, ExecError>)> = VecDeque::new();
        loop {
            let stopped = cancel.load(Ordering::SeqCst);
            let now = Instant::now();
            while let Some((at, ..)) = held.front()
                && (*at <= now || stopped)
            {
                let Some((_, fixture, result)) = held.pop_front() else {
                    break;
                };
                // A stop before its grace ran out: the crash may be the
                // stop's doing.
                let result = if stopped && has_crash(&result) {
                    Err(ExecError::Cancelled)
                } else {
                    result
                };
                sink.finished(fixture, result, cutoffs);
            }
            // Games are handed to the pool a few at a time, in fixture
            // order: the pool's queue stays as small as the window, and a
            // stop rule's decision wastes only the games in flight or held.
            while (in_flight == 0 || in_flight + sink.held() < window)
                && !cancel.load(Ordering::SeqCst)
            {
                let Some(fixture) = fixtures.next() else {
                    break;
                };
                in_flight += 1;
                let tx = tx.clone();
                scope.spawn(move |_| {
                    let result = if cancel.load(Ordering::SeqCst) || !cutoffs.wants(fixture.pair) {
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
            if in_flight == 0 && held.is_empty() {
                break;
            }
            // Every game in flight sends exactly once; wake up at least
            // once per idle interval (a league syncs its file then), and
            // when the first held game may go.
            let release = held
                .front()
                .map(|(at, ..)| at.saturating_duration_since(Instant::now()));
            let wait = release.map_or(how.idle, |r| r.min(how.idle));
            // (With only held games left nothing comes: `tx` is held
            // here, so this just waits for the first to go.)
            match rx.recv_timeout(wait) {
                Ok((fixture, result)) => {
                    in_flight -= 1;
                    if has_crash(&result) {
                        // Ended after the stop: the crash may be its
                        // doing. Else held for the grace.
                        if cancel.load(Ordering::SeqCst) {
                            held.push_back((Instant::now(), fixture, Err(ExecError::Cancelled)));
                        } else {
                            held.push_back((Instant::now() + how.stop_grace, fixture, result));
                        }
                    } else if held.is_empty() {
                        sink.finished(fixture, result, cutoffs);
                    } else {
                        held.push_back((Instant::now(), fixture, result));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) if release.is_some_and(|r| r < how.idle) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => sink.idle(cutoffs),
                // Unreachable while `tx` is held here; stop waiting.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};

    use super::*;
    use crate::settings::Game;

    fn fixture(id: u64) -> Fixture {
        Fixture {
            id,
            game: Game::CARDJITSU,
            seats: vec!["a".into(), "b".into()],
            teams: Vec::new(),
            board: None,
            pair: id,
            leg: 0,
            seed: id,
        }
    }

    /// Game 0 is slow: it ends only once the driver has gone idle. The
    /// other games end at once.
    #[derive(Default)]
    struct SlowFirst {
        released: Mutex<bool>,
        wake: Condvar,
        played: AtomicU64,
    }

    impl SlowFirst {
        fn release(&self) {
            *self.released.lock().unwrap() = true;
            self.wake.notify_all();
        }
    }

    impl Executor for SlowFirst {
        fn play(&self, fixture: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
            self.played.fetch_add(1, Ordering::SeqCst);
            if fixture.id == 0 {
                let mut released = self.released.lock().unwrap();
                while !*released {
                    released = self.wake.wait(released).unwrap();
                }
            }
            Err(ExecError::Failed("synthetic".into()))
        }
    }

    /// Counts games in id order, like an SPRT's blocks: every game after
    /// a missing one is held. Releases game 0 when the driver goes idle.
    struct InOrder<'a> {
        exec: &'a SlowFirst,
        done: Vec<bool>,
        counted: usize,
        most_played_past_counted: u64,
    }

    impl Sink for InOrder<'_> {
        fn finished(&mut self, f: Fixture, _: Result<GameResult, ExecError>, _: &Cutoffs) {
            self.done[f.id as usize] = true;
            while self.done.get(self.counted) == Some(&true) {
                self.counted += 1;
            }
            let past = self.exec.played.load(Ordering::SeqCst) - self.counted as u64;
            self.most_played_past_counted = self.most_played_past_counted.max(past);
        }

        fn idle(&mut self, _: &Cutoffs) {
            self.exec.release();
        }

        fn held(&self) -> usize {
            self.done[self.counted..].iter().filter(|d| **d).count()
        }
    }

    /// Games 0..n on two workers, one group, with this window and idle.
    fn drive_games(n: u64, window: usize, idle: Duration, exec: &SlowFirst, sink: &mut dyn Sink) {
        let cancel = AtomicBool::new(false);
        let how = Drive {
            jobs: 2,
            window,
            idle,
            cancel: &cancel,
            stop_grace: STOP_GRACE,
        };
        drive(&how, (0..n).map(fixture), exec, &Cutoffs::new(1), sink).unwrap();
    }

    /// Holds every game it is given, forever.
    struct HoldsAll(usize);

    impl Sink for HoldsAll {
        fn finished(&mut self, _: Fixture, _: Result<GameResult, ExecError>, _: &Cutoffs) {
            self.0 += 1;
        }

        fn held(&self) -> usize {
            self.0
        }
    }

    #[test]
    fn a_sink_that_never_releases_its_games_still_gets_the_whole_schedule() {
        let exec = SlowFirst::default();
        exec.release();
        let mut sink = HoldsAll(0);
        drive_games(50, 4, Duration::from_secs(3600), &exec, &mut sink);
        assert_eq!(sink.0, 50);
        assert_eq!(exec.played.load(Ordering::SeqCst), 50);
    }

    #[test]
    fn a_slow_game_stops_the_others_at_the_window_not_at_the_end() {
        let exec = SlowFirst::default();
        let mut sink = InOrder {
            exec: &exec,
            done: vec![false; 200],
            counted: 0,
            most_played_past_counted: 0,
        };
        drive_games(200, 6, Duration::from_millis(20), &exec, &mut sink);
        assert_eq!(sink.counted, 200, "every game is played in the end");
        // Before the fix the other worker played all 199 while game 0 ran.
        assert!(
            sink.most_played_past_counted <= 6,
            "{} games played past the last counted one, window 6",
            sink.most_played_past_counted
        );
    }

    /// Game 0 ends with a crash on seat 1; game 1 then sets the stop
    /// flag (the scheduler's SIGTERM reached the bot of game 0 before
    /// dojo) and ends cleanly, unless `stops` is false.
    struct CrashThenStop<'a> {
        cancel: &'a AtomicBool,
        stops: bool,
    }

    impl Executor for CrashThenStop<'_> {
        fn play(&self, fixture: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
            let mut faults = vec![crate::executor::SeatFaults::default(); 2];
            if fixture.id == 0 {
                faults[1].crash = 1;
            } else if self.stops {
                self.cancel.store(true, Ordering::SeqCst);
            }
            Ok(GameResult {
                scores: vec![1.0, 0.0],
                faulty: vec![false, fixture.id == 0],
                prompts: Vec::new(),
                faults,
                first_faults: Vec::new(),
                record: serde_json::Value::Null,
                timing: serde_json::Value::Null,
            })
        }
    }

    /// What a sink got, in order: each game's id and whether it was a
    /// result to store.
    #[derive(Default)]
    struct Got(Vec<(u64, bool)>);

    impl Sink for Got {
        fn finished(&mut self, f: Fixture, r: Result<GameResult, ExecError>, _: &Cutoffs) {
            self.0.push((f.id, r.is_ok()));
        }
    }

    fn crash_then(stops: bool, stop_grace: Duration) -> Vec<(u64, bool)> {
        let cancel = AtomicBool::new(false);
        let how = Drive {
            jobs: 1,
            window: 1,
            idle: Duration::from_secs(3600),
            cancel: &cancel,
            stop_grace,
        };
        let exec = CrashThenStop {
            cancel: &cancel,
            stops,
        };
        let mut sink = Got::default();
        drive(
            &how,
            (0..2).map(fixture),
            &exec,
            &Cutoffs::new(1),
            &mut sink,
        )
        .unwrap();
        sink.0
    }

    #[test]
    fn a_crash_just_before_a_stop_is_interrupted_not_counted() {
        // The grace is an hour: the stop, not the clock, releases game 0,
        // as interrupted (played again on resume); game 1, clean, counts,
        // after it.
        assert_eq!(
            crash_then(true, Duration::from_secs(3600)),
            [(0, false), (1, true)]
        );
    }

    #[test]
    fn without_a_stop_a_crash_counts_once_its_grace_is_over_in_finishing_order() {
        assert_eq!(
            crash_then(false, Duration::from_millis(50)),
            [(0, true), (1, true)]
        );
    }

    #[test]
    fn a_cut_is_per_group_and_from_a_cycle_on() {
        let c = Cutoffs::new(3);
        // pair = cycle * 3 + group
        assert!(c.wants(0) && c.wants(7));
        c.cut(1, 2);
        assert!(c.wants(1) && c.wants(4), "group 1, cycles 0 and 1");
        assert!(!c.wants(7) && !c.wants(10), "group 1 from cycle 2 on");
        assert!(c.wants(6) && c.wants(8), "other groups go on");
        // A later cut never lifts an earlier one.
        c.cut(1, 5);
        assert!(!c.wants(7));
        assert_eq!(c.end(), u64::MAX);
        c.stop();
        assert!(!c.wants(0) && c.end() == 0);
    }
}

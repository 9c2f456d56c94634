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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

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
}

/// How to drive.
pub(crate) struct Drive<'a> {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Most games started and not yet handed to the sink: bounds the games
    /// played past a stop rule's decision.
    pub window: usize,
    /// How long to wait for a game before calling [`Sink::idle`].
    pub idle: Duration,
    pub cancel: &'a AtomicBool,
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
        loop {
            // Games are handed to the pool a few at a time, in fixture
            // order: the pool's queue stays as small as the window, and a
            // stop rule's decision wastes only the games in flight.
            while in_flight < window && !cancel.load(Ordering::SeqCst) {
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
            if in_flight == 0 {
                break;
            }
            // Every game in flight sends exactly once; wake up at least
            // once per idle interval (a league syncs its file then).
            match rx.recv_timeout(how.idle) {
                Ok((fixture, result)) => {
                    in_flight -= 1;
                    sink.finished(fixture, result, cutoffs);
                }
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
    use super::*;

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

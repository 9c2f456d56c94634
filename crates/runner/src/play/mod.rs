//! The game loop: prompts out, replies in, faults counted.
//!
//! # Design
//!
//! The loop is split by role, like a test runner that separates its
//! dispatcher from the state of each unit it runs:
//!
//! - [`options`]: what the caller chooses ([`RunOptions`], [`Seat`]);
//! - [`outcome`]: what comes back ([`MatchRun`], [`SeatRun`],
//!   [`FaultCounts`], [`RunError`]);
//! - [`seat`]: per-seat state (generation, liveness, what the
//!   process showed of its mode) and the one place a fault is counted;
//! - [`stderr_cut`]: cutting a seat's stderr into one entry per prompt;
//! - [`game_loop`]: the dispatcher, which decides everything and does no
//!   I/O itself;
//! - [`procs`]: the seam to the operating system. The loop asks a
//!   [`procs::Processes`] for the time, to start, feed, wait on and retire
//!   processes; the real one polls pipes and pidfds, the unit tests use a
//!   scripted fake with its own clock.
//!
//! A round goes: take what arrived between rounds (lines are unsolicited
//! and dropped; EOF and exits are remembered), send every prompt of the
//! round (starting processes as needed), wait until each prompt has an
//! answer or its deadline has passed, hand the answers to the referee, send
//! its notices to live processes.
//!
//! **Generations.** Each process a seat starts gets the next generation
//! number, and every batch of events carries the generation of the
//! process that produced it. The loop drops events whose generation is
//! not the seat's current one, or that come after the process was
//! retired: a bot killed for a timeout may still have an answer in flight,
//! and that answer must never be taken for a later prompt.
//!
//! **Arrival-time deadlines.** A wait returns a batch per read, stamped
//! with the time the wait returned. A reply is judged by that stamp, not by
//! when the loop gets round to it, so an answer that was there in time is
//! never late because the loop was busy (or the machine loaded), and one
//! that arrived after the deadline is a timeout however soon it is read.
//! Lines of one read form one batch: an answer and chatter written right
//! after it are seen together, before the next prompt goes out, so the
//! chatter is counted as unsolicited rather than taken as the next
//! answer. (What remains racy: chatter written in a separate write after
//! the answer may reach the pipe only after the next prompt went out.)
//!
//! **The stderr cut.** With `keep_stderr`, each prompt marks where the
//! seat's stderr stream will stand once everything written so far is read
//! (the log plus what waits in the pipe, `FIONREAD`), so stderr is cut
//! exactly at the moment the prompt went out, whenever the loop reads it.
//!
//! **Teardown.** Every exit path (end of game, cancellation, a referee
//! error, a spawn error) goes through `shutdown`: each process group is
//! killed and its leader reaped; stderr pipes that something outside the
//! group still holds open are drained alongside for at most `end_grace`,
//! never waited on. Only then are the stderr logs rendered and cut.

mod game_loop;
mod not_runnable;
mod options;
mod outcome;
mod procs;
mod seat;
mod stderr_cut;

#[cfg(test)]
mod fake;
#[cfg(test)]
mod tests;

use dojo_engine::protocol::Referee;

pub use options::{RunOptions, Seat, TimeMode};
pub use outcome::{
    FaultCounts, INVALID_REASON_CAP_BYTES, LimitHits, MatchRun, ProcessLimit, RunError, SeatRun,
};
pub use stderr_cut::STDERR_ENTRY_CAP_BYTES;

use game_loop::Game;
use procs::{Pipes, Processes};

/// Plays one game to the end. See [`play_with_observer`].
pub fn play<R: Referee>(
    referee: &mut R,
    seats: &[Seat],
    opts: &RunOptions,
) -> Result<MatchRun, RunError> {
    play_with_observer(referee, seats, opts, &mut |_: &R| {})
}

/// Plays one game to the end, calling `observer` after every `apply` (for
/// a live display). Bot misbehaviour never fails the game: it is counted
/// and handed to the referee as a [`Fault`](dojo_engine::protocol::Fault).
/// Every process is killed and reaped before this returns, on success and
/// on error.
pub fn play_with_observer<R: Referee>(
    referee: &mut R,
    seats: &[Seat],
    opts: &RunOptions,
    observer: &mut dyn FnMut(&R),
) -> Result<MatchRun, RunError> {
    check_seats(referee, seats)?;
    opts.controls.containment()?;
    if opts.controls.time == TimeMode::Cpu {
        check_cpu_time()?;
    }
    if opts.controls.pin {
        let opts = RunOptions {
            pin_cpu: Some(cpu_of_this_thread()),
            controls: crate::Controls {
                pin: false,
                ..opts.controls
            },
            ..opts.clone()
        };
        return play_on(referee, seats, &opts, Pipes::new(seats, &opts), observer);
    }
    play_on(referee, seats, opts, Pipes::new(seats, opts), observer)
}

/// The loop over any [`Processes`]: real pipes, or the tests' fake.
fn play_on<R: Referee, P: Processes>(
    referee: &mut R,
    seats: &[Seat],
    opts: &RunOptions,
    procs: P,
    observer: &mut dyn FnMut(&R),
) -> Result<MatchRun, RunError> {
    check_seats(referee, seats)?;
    let mut game = Game::new(seats, opts, procs);
    let result = game.run(referee, observer);
    game.shutdown();
    result?;
    Ok(game.into_run())
}

fn check_seats<R: Referee>(referee: &R, seats: &[Seat]) -> Result<(), RunError> {
    if referee.seats() == seats.len() {
        Ok(())
    } else {
        Err(RunError::SeatCount {
            expected: referee.seats(),
            given: seats.len(),
        })
    }
}

/// Whether CPU time can be measured here: tried on this process.
pub(crate) fn check_cpu_time() -> Result<(), RunError> {
    let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
    match dojo_sandbox::cputime::tree_cpu_time(me) {
        Some(_) => Ok(()),
        None => Err(RunError::NoCpuTime("cannot read /proc".to_string())),
    }
}

/// The CPU the games of this thread run on: threads take the CPUs this
/// process may use in turn, in the order they first ask.
fn cpu_of_this_thread() -> usize {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local!(static CPU: Cell<Option<usize>> = const { Cell::new(None) });
    CPU.with(|cpu| {
        *cpu.get().get_or_insert_with(|| {
            let cpus = dojo_sandbox::sys::allowed_cpus();
            let next = NEXT.fetch_add(1, Ordering::Relaxed);
            cpus.get(next % cpus.len().max(1)).copied().unwrap_or(0)
        })
    })
}

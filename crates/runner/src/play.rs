//! The game loop: prompts out, replies in, faults counted.

use std::process::ChildStderr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dojo_engine::protocol::{Answer, Fault, Prompt, Referee, Reply};
use rustix::event::{PollFd, PollFlags};
use serde::{Deserialize, Serialize};

use crate::lines::DEFAULT_MAX_LINE_BYTES;
use crate::process::{BotProcess, Event, Launch, Source, Tagged};
use crate::spec::{BotSpec, Mode};
use crate::stderr_log::{CappedLog, DEFAULT_STDERR_CAP_BYTES};
use crate::sys::ExitKind;

/// Longest stderr text kept for one prompt with [`RunOptions::keep_stderr`].
pub const STDERR_ENTRY_CAP_BYTES: usize = 4096;

/// How long a wait may last when a cancel flag is given, so a set flag is
/// seen promptly even if no bot does anything.
const CANCEL_CHECK: Duration = Duration::from_millis(100);

/// Longest sleep while a process without a pidfd (old kernels) may exit
/// unseen: its exit is looked for on every wake-up.
const EXIT_CHECK: Duration = Duration::from_millis(10);

/// One player of a game: a bot and extra environment for its processes.
#[derive(Debug, Clone)]
pub struct Seat {
    pub bot: Arc<BotSpec>,
    pub env: Vec<(String, String)>,
}

impl Seat {
    /// A seat with no extra environment.
    pub fn new(bot: Arc<BotSpec>) -> Self {
        Self {
            bot,
            env: Vec::new(),
        }
    }
}

/// Limits and knobs of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Time a bot has to answer a prompt.
    pub move_timeout: Duration,
    /// Extra time for a prompt sent to a process just started.
    pub startup_allowance: Duration,
    /// Longest accepted stdout line (bytes, without the newline).
    pub max_line_bytes: usize,
    /// Stderr kept per seat (the head; the rest is counted).
    pub stderr_cap_bytes: usize,
    /// How long processes get to exit after the farewell.
    pub end_grace: Duration,
    /// When set to true, the game stops at its next wait.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Also split each seat's stderr by prompt into
    /// [`SeatRun::stderr_by_prompt`] (for showing a bot's log beside the
    /// turn it belongs to).
    pub keep_stderr: bool,
    /// Which containment layers to use (see [`crate::SandboxMode`]).
    pub sandbox: crate::SandboxMode,
    /// Resource limits for every bot process.
    pub limits: crate::Limits,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            move_timeout: Duration::from_millis(1000),
            startup_allowance: Duration::from_millis(2000),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            stderr_cap_bytes: DEFAULT_STDERR_CAP_BYTES,
            end_grace: Duration::from_millis(100),
            cancel: None,
            keep_stderr: false,
            sandbox: crate::SandboxMode::Auto,
            limits: crate::Limits::default(),
        }
    }
}

impl SeatRun {
    /// Charges a `limit` fault for a process that ran into `hits`.
    fn note_limits(&mut self, hits: &[&str]) {
        if hits.is_empty() {
            return;
        }
        self.faults.limit += 1;
        for hit in hits {
            if !self.limits.iter().any(|l| l == hit) {
                self.limits.push(hit.to_string());
            }
        }
    }
}

/// How long a faulted process whose exit is not yet known gets to finish
/// dying, so a limit's signal can be told from a crash.
const LIMIT_EXIT_WAIT: Duration = Duration::from_millis(50);

/// Faults of one seat, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultCounts {
    /// No complete answer by the deadline.
    pub timeout: u32,
    /// Exited or closed stdout without answering, or exited non-zero.
    pub crash: u32,
    /// Malformed answer or over-long line.
    pub invalid: u32,
    /// Processes started again after a fault (per-turn respawns excluded).
    pub restart: u32,
    /// Processes that ran into a resource limit (see [`SeatRun::limits`]
    /// for which); one that died of it is charged its crash as well.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub limit: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl FaultCounts {
    /// Timeouts, crashes, invalid answers and limits hit (restarts are
    /// consequences).
    pub fn total(&self) -> u32 {
        self.timeout + self.crash + self.invalid + self.limit
    }
}

/// What happened to one seat during a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRun {
    /// The bot's name.
    pub bot: String,
    pub faults: FaultCounts,
    /// The resource limits its processes ran into, each named once
    /// (`processes`, `memory`, `cpu`, `file-size`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<String>,
    /// Processes started, including the first.
    pub spawns: u32,
    /// Lines written while no prompt was outstanding (discarded).
    pub unsolicited: u32,
    /// The declared mode, or what `Mode::Auto` found out (`Auto` if it
    /// could not tell).
    pub mode: Mode,
    /// Microseconds from sending each prompt to its answer (valid or not)
    /// or its timeout, in order.
    pub latencies_us: Vec<u64>,
    /// The head of everything the seat's processes wrote to stderr.
    pub stderr: String,
    /// With [`RunOptions::keep_stderr`]: entry `k` holds what the seat's
    /// processes wrote to stderr after prompt `k` was sent and before
    /// prompt `k + 1` was (entry 0 also what came before the first prompt,
    /// the last entry until the game ended). The cut is exact: bytes still
    /// in the pipe when the next prompt goes out count for the earlier
    /// entry, so a line written before an answer stays with it. Each entry keeps
    /// at most [`STDERR_ENTRY_CAP_BYTES`]; all entries together come from
    /// the same capped log as `stderr`. Empty without `keep_stderr`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr_by_prompt: Vec<String>,
    /// Process-group ids of every process the seat used.
    pub pgids: Vec<i32>,
}

/// The outcome of driving one game, per seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRun {
    pub seats: Vec<SeatRun>,
}

/// Why a game could not be played to the end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A bot's command could not be started at all: a configuration error.
    #[error("bot {bot}: cannot start {command:?}: {source}")]
    Spawn {
        bot: String,
        command: Vec<String>,
        source: std::io::Error,
    },
    /// The cancel flag was set.
    #[error("game cancelled")]
    Cancelled,
    /// The referee and the seat list disagree.
    #[error("the game has {expected} seats but {given} were given")]
    SeatCount { expected: usize, given: usize },
    /// `--sandbox strict` and a layer is missing.
    #[error(transparent)]
    Sandbox(#[from] crate::SandboxError),
    /// The referee asked for something impossible (a bug in the game).
    #[error("referee error: {0}")]
    Referee(String),
}

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
/// and handed to the referee as a [`Fault`]. Every process is killed and
/// reaped before this returns, on success and on error.
pub fn play_with_observer<R: Referee>(
    referee: &mut R,
    seats: &[Seat],
    opts: &RunOptions,
    observer: &mut dyn FnMut(&R),
) -> Result<MatchRun, RunError> {
    if referee.seats() != seats.len() {
        return Err(RunError::SeatCount {
            expected: referee.seats(),
            given: seats.len(),
        });
    }
    crate::layers_in_force(opts.sandbox)?;
    let mut game = Game::new(seats, opts);
    let result = game.run(referee, observer);
    game.shutdown();
    result?;
    Ok(game.into_run())
}

/// Per-seat state of the game loop.
struct SeatState<'a> {
    seat: &'a Seat,
    process: Option<BotProcess>,
    /// Generation of the current (or last) process; events of others are
    /// stale.
    generation: u64,
    /// Prompts the current process has answered (validly or not).
    answered_in_life: u32,
    eof: bool,
    exit: Option<ExitKind>,
    /// The last process was killed or died by fault.
    needs_restart: bool,
    saw_per_turn: bool,
    saw_reuse: bool,
    log: CappedLog,
    /// With `keep_stderr`: for every prompt after the first, the position
    /// in the seat's stderr stream where that prompt's entry starts.
    stderr_marks: Vec<u64>,
    /// Prompts sent to this seat so far.
    prompts_sent: usize,
    run: SeatRun,
    /// The bot's scratch directory for this game (HOME and TMPDIR, the only
    /// place it may write), made at its first start, removed with the game.
    scratch: Option<tempfile::TempDir>,
}

impl SeatState<'_> {
    /// Notes where the stderr of the prompt about to be sent starts:
    /// everything the process wrote before now (logged, or still in the
    /// pipe) belongs to the prompts before it.
    fn mark_stderr(&mut self) {
        if self.prompts_sent > 0 {
            let at = match &self.process {
                Some(process) => process.stderr_position(&self.log),
                None => self.log.total_bytes(),
            };
            self.stderr_marks.push(at);
        }
        self.prompts_sent += 1;
    }

    /// Cuts the seat's stderr at the marks: entry `k` is what was written
    /// from prompt `k` being sent until prompt `k + 1` was (entry 0 also
    /// holds what came before the first prompt, the last everything after).
    fn split_stderr(&mut self) {
        let log = &self.log;
        let starts = std::iter::once(0).chain(self.stderr_marks.iter().copied());
        let ends = self
            .stderr_marks
            .iter()
            .copied()
            .chain(std::iter::once(u64::MAX));
        self.run.stderr_by_prompt = starts
            .zip(ends)
            .take(self.prompts_sent)
            .map(|(start, end)| {
                let mut entry = String::new();
                push_capped(&mut entry, &log.slice(start, end));
                entry
            })
            .collect();
    }

    fn is_dead(&self) -> bool {
        self.eof && self.exit.is_some()
    }

    fn is_live(&self) -> bool {
        self.process.is_some() && !self.eof && self.exit.is_none()
    }

    /// Whether a process whose stdout closed can be known not to be a
    /// per-turn bot on its way out (whose exit, about to be seen, starts
    /// it again): it never answered, or it promised to stay alive. Such a
    /// process is charged a crash at once; otherwise at the deadline
    /// unless its exit shows up first.
    fn closed_stdout_for_good(&self) -> bool {
        self.answered_in_life == 0 || self.seat.bot.mode == Mode::Persistent
    }

    /// A process that exited 0 after answering is a per-turn bot, unless
    /// it promised to stay alive.
    fn exited_per_turn(&self) -> bool {
        self.exit == Some(ExitKind::Code(0))
            && self.answered_in_life > 0
            && self.seat.bot.mode != Mode::Persistent
    }
}

/// One prompt of the current round and what became of it.
struct Pending<M> {
    seat: usize,
    lines: Vec<String>,
    reply: Vec<String>,
    sent: Instant,
    deadline: Instant,
    answer: Option<Answer<M>>,
}

/// The stderr pipe of a killed process that something outside its group
/// still holds open: read until it closes or `until`.
struct Draining {
    seat: usize,
    stderr: ChildStderr,
    until: Instant,
}

/// What a poll entry stands for.
#[derive(Debug, Clone, Copy)]
enum Interest {
    Process(usize, Source),
    Draining(usize),
}

struct Game<'a> {
    seats: Vec<SeatState<'a>>,
    opts: &'a RunOptions,
    draining: Vec<Draining>,
    /// One read buffer for every pipe of the game.
    buf: Vec<u8>,
}

impl<'a> Game<'a> {
    fn new(seats: &'a [Seat], opts: &'a RunOptions) -> Self {
        let seats = seats
            .iter()
            .map(|seat| SeatState {
                seat,
                process: None,
                generation: 0,
                answered_in_life: 0,
                eof: false,
                exit: None,
                needs_restart: false,
                saw_per_turn: false,
                saw_reuse: false,
                log: CappedLog::new(opts.stderr_cap_bytes),
                stderr_marks: Vec::new(),
                prompts_sent: 0,
                run: SeatRun {
                    bot: seat.bot.name.clone(),
                    faults: FaultCounts::default(),
                    limits: Vec::new(),
                    spawns: 0,
                    unsolicited: 0,
                    mode: seat.bot.mode,
                    latencies_us: Vec::new(),
                    stderr: String::new(),
                    stderr_by_prompt: Vec::new(),
                    pgids: Vec::new(),
                },
                scratch: None,
            })
            .collect();
        Self {
            seats,
            opts,
            draining: Vec::new(),
            buf: crate::process::read_buffer(),
        }
    }

    fn cancelled(&self) -> bool {
        self.opts
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::SeqCst))
    }

    fn run<R: Referee>(
        &mut self,
        referee: &mut R,
        observer: &mut dyn FnMut(&R),
    ) -> Result<(), RunError> {
        loop {
            let prompts = referee.prompts();
            if prompts.is_empty() {
                break;
            }
            if self.cancelled() {
                return Err(RunError::Cancelled);
            }
            self.check_prompts(&prompts)?;
            self.drain_idle();
            let mut pending = Vec::with_capacity(prompts.len());
            for prompt in prompts {
                pending.push(self.send_prompt(referee, prompt)?);
            }
            self.wait_answers(referee, &mut pending)?;
            let answers = pending
                .into_iter()
                .map(|p| p.answer.unwrap_or(Answer::Fault(Fault::Timeout)))
                .collect();
            let notices = referee.apply(answers);
            observer(referee);
            for notice in notices {
                for &seat in &notice.seats {
                    let state = self.seats.get_mut(seat).ok_or_else(|| {
                        RunError::Referee(format!("notice for seat {seat}, which does not exist"))
                    })?;
                    if state.is_live()
                        && let Some(process) = &mut state.process
                    {
                        process.send(&notice.lines);
                    }
                }
            }
        }
        self.farewell(referee);
        Ok(())
    }

    fn check_prompts(&self, prompts: &[Prompt]) -> Result<(), RunError> {
        let mut asked = vec![false; self.seats.len()];
        for prompt in prompts {
            match asked.get_mut(prompt.seat) {
                None => {
                    return Err(RunError::Referee(format!(
                        "prompt for seat {}, which does not exist",
                        prompt.seat
                    )));
                }
                Some(true) => {
                    return Err(RunError::Referee(format!(
                        "two prompts for seat {} at once",
                        prompt.seat
                    )));
                }
                Some(flag) => *flag = true,
            }
        }
        Ok(())
    }

    /// Takes in whatever arrived between rounds: output is unsolicited,
    /// EOF and exits are remembered for the next prompt.
    fn drain_idle(&mut self) {
        for tagged in self.pump(Duration::ZERO) {
            let Some(state) = current(&mut self.seats, tagged.seat, tagged.generation) else {
                continue;
            };
            for event in tagged.events {
                match event {
                    Event::Line(_) | Event::TooLong => state.run.unsolicited += 1,
                    Event::Eof => state.eof = true,
                    Event::Exited(kind) => state.exit = Some(kind),
                }
            }
        }
    }

    /// Starts a new process for `seat` (killing any previous one) and
    /// sends it its greeting.
    fn start<R: Referee>(&mut self, referee: &R, seat: usize) -> Result<(), RunError> {
        let opts = self.opts;
        self.retire(seat);
        let state = &mut self.seats[seat];
        state.generation += 1;
        let bot = &state.seat.bot;
        let spawn_error = |source| RunError::Spawn {
            bot: bot.name.clone(),
            command: bot.command.clone(),
            source,
        };
        if state.scratch.is_none() {
            state.scratch = Some(crate::sandbox::scratch_dir(&bot.name).map_err(spawn_error)?);
        }
        let mut process = BotProcess::spawn(Launch {
            command: &bot.command,
            dir: &bot.dir,
            scratch: state.scratch.as_ref().map(tempfile::TempDir::path),
            extra_read: &[],
            env: &state.seat.env,
            seat,
            generation: state.generation,
            max_line_bytes: opts.max_line_bytes,
            containment: crate::sandbox::plan(opts.sandbox, &opts.limits),
            clean_env: true,
        })
        .map_err(spawn_error)?;
        state.run.spawns += 1;
        if std::mem::take(&mut state.needs_restart) {
            state.run.faults.restart += 1;
        }
        state.run.pgids.push(process.pgid());
        state.answered_in_life = 0;
        state.eof = false;
        state.exit = None;
        process.send(&referee.greeting(seat));
        state.process = Some(process);
        Ok(())
    }

    /// Starts the seat's process for a prompt. A bot that started before
    /// but cannot be started again (it removed its own execute bit, say)
    /// is charged a crash for the prompt and tried again on the next one,
    /// so the game goes on; only a bot that never started is an error.
    fn restart<R: Referee>(&mut self, referee: &R, seat: usize) -> Result<bool, RunError> {
        match self.start(referee, seat) {
            Ok(()) => Ok(true),
            Err(RunError::Spawn { source, .. }) if self.seats[seat].run.spawns > 0 => {
                let state = &mut self.seats[seat];
                state.run.faults.crash += 1;
                state.needs_restart = true;
                let note = format!("[dojo: cannot start the bot again: {source}]\n");
                state.log.push(note.as_bytes());
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Kills the seat's process after a fault; the next prompt restarts it.
    fn kill_after_fault(&mut self, seat: usize) {
        // A fault may be a limit's doing (SIGXCPU, the OOM killer): let a
        // process whose stdout just closed finish dying to tell.
        self.note_limits(seat, LIMIT_EXIT_WAIT);
        self.retire(seat);
        self.seats[seat].needs_restart = true;
    }

    /// Charges the seat a `limit` fault if its process ran into one.
    fn note_limits(&mut self, seat: usize, wait: Duration) {
        let state = &mut self.seats[seat];
        if let Some(process) = &mut state.process {
            let hits = process.limits_hit(wait);
            state.run.note_limits(&hits);
        }
    }

    /// Kills and reaps the seat's process, if any, keeping what its stderr
    /// pipe holds. Never waits for the pipe: if something outside the
    /// group still holds it open, the loop drains it alongside the game
    /// for up to `end_grace`.
    fn retire(&mut self, seat: usize) {
        self.note_limits(seat, Duration::ZERO);
        let state = &mut self.seats[seat];
        if let Some(process) = state.process.take()
            && let Some(stderr) = process.finish(&mut state.log)
        {
            self.draining.push(Draining {
                seat,
                stderr,
                until: Instant::now() + self.opts.end_grace,
            });
        }
    }

    fn send_prompt<R: Referee>(
        &mut self,
        referee: &R,
        prompt: Prompt,
    ) -> Result<Pending<R::Move>, RunError> {
        let seat = prompt.seat;
        if self.opts.keep_stderr {
            self.seats[seat].mark_stderr();
        }
        let mut fresh = false;
        let state = &mut self.seats[seat];
        if state.seat.bot.mode == Mode::PerTurn || state.process.is_none() {
            fresh = true;
        } else if state.is_dead() {
            if state.exited_per_turn() {
                state.saw_per_turn = true;
                fresh = true;
            } else {
                // Died between prompts: charged to this prompt, restarted
                // for the next one, the same as if it had died just after
                // this prompt was sent (so timing cannot change the game).
                state.run.faults.crash += 1;
                self.kill_after_fault(seat);
                let now = Instant::now();
                return Ok(Pending {
                    seat,
                    lines: prompt.lines,
                    reply: Vec::new(),
                    sent: now,
                    deadline: now,
                    answer: Some(Answer::Fault(Fault::Crash)),
                });
            }
        } else if state.answered_in_life > 0 {
            state.saw_reuse = true;
        }
        if fresh && !self.restart(referee, seat)? {
            let now = Instant::now();
            return Ok(Pending {
                seat,
                lines: prompt.lines,
                reply: Vec::new(),
                sent: now,
                deadline: now,
                answer: Some(Answer::Fault(Fault::Crash)),
            });
        }
        let sent = Instant::now();
        let mut deadline = sent + self.opts.move_timeout;
        if fresh {
            deadline += self.opts.startup_allowance;
        }
        let state = &mut self.seats[seat];
        if state.eof && state.closed_stdout_for_good() {
            // Closed stdout between prompts and still running: charged
            // at once by the deadline check.
            deadline = sent;
        }
        if let Some(process) = &mut state.process {
            process.send(&prompt.lines);
        }
        Ok(Pending {
            seat,
            lines: prompt.lines,
            reply: Vec::new(),
            sent,
            deadline,
            answer: None,
        })
    }

    fn wait_answers<R: Referee>(
        &mut self,
        referee: &R,
        pending: &mut [Pending<R::Move>],
    ) -> Result<(), RunError> {
        loop {
            if self.cancelled() {
                return Err(RunError::Cancelled);
            }
            let Some(deadline) = pending
                .iter()
                .filter(|p| p.answer.is_none())
                .map(|p| p.deadline)
                .min()
            else {
                return Ok(());
            };
            let mut wait = deadline.saturating_duration_since(Instant::now());
            if self.opts.cancel.is_some() {
                wait = wait.min(CANCEL_CHECK);
            }
            // Output is stamped with the time the poll returned, so an
            // answer that was there in time is never judged late because
            // the loop was busy.
            for tagged in self.pump(wait) {
                self.on_batch(referee, pending, tagged)?;
            }
            let now = Instant::now();
            for p in pending.iter_mut() {
                if p.answer.is_none() && p.deadline <= now {
                    let state = &mut self.seats[p.seat];
                    if state.eof {
                        // Closed its stdout: it can never answer.
                        p.answer = Some(Answer::Fault(Fault::Crash));
                        state.run.faults.crash += 1;
                    } else {
                        p.answer = Some(Answer::Fault(Fault::Timeout));
                        state.run.faults.timeout += 1;
                        state.run.latencies_us.push(micros(now - p.sent));
                    }
                    self.kill_after_fault(p.seat);
                }
            }
        }
    }

    /// Handles one reader batch, event by event.
    fn on_batch<R: Referee>(
        &mut self,
        referee: &R,
        pending: &mut [Pending<R::Move>],
        tagged: Tagged,
    ) -> Result<(), RunError> {
        for event in tagged.events {
            self.on_event(
                referee,
                pending,
                tagged.seat,
                tagged.generation,
                tagged.at,
                event,
            )?;
        }
        Ok(())
    }

    fn on_event<R: Referee>(
        &mut self,
        referee: &R,
        pending: &mut [Pending<R::Move>],
        seat: usize,
        generation: u64,
        at: Instant,
        event: Event,
    ) -> Result<(), RunError> {
        let Some(state) = current(&mut self.seats, seat, generation) else {
            return Ok(());
        };
        let outstanding = pending
            .iter_mut()
            .find(|p| p.seat == seat && p.answer.is_none());
        if let Some(p) = &outstanding
            && at > p.deadline
            && matches!(event, Event::Line(_) | Event::TooLong)
        {
            // Read after the deadline: the prompt times out (the deadline
            // check that follows kills the process), whenever we look.
            return Ok(());
        }
        match event {
            Event::Line(line) => {
                let Some(p) = outstanding else {
                    state.run.unsolicited += 1;
                    return Ok(());
                };
                p.reply.push(line);
                match referee.parse_reply(seat, &p.reply) {
                    Reply::Incomplete => {}
                    Reply::Complete(m) => {
                        p.answer = Some(Answer::Move(m));
                        state.answered_in_life += 1;
                        state
                            .run
                            .latencies_us
                            .push(micros(at.saturating_duration_since(p.sent)));
                    }
                    Reply::Invalid(_) => {
                        p.answer = Some(Answer::Fault(Fault::Invalid));
                        state.answered_in_life += 1;
                        state.run.faults.invalid += 1;
                        state
                            .run
                            .latencies_us
                            .push(micros(at.saturating_duration_since(p.sent)));
                    }
                }
            }
            Event::TooLong => {
                let Some(p) = outstanding else {
                    state.run.unsolicited += 1;
                    return Ok(());
                };
                p.answer = Some(Answer::Fault(Fault::Invalid));
                state.answered_in_life += 1;
                state.run.faults.invalid += 1;
                state
                    .run
                    .latencies_us
                    .push(micros(at.saturating_duration_since(p.sent)));
            }
            Event::Eof | Event::Exited(_) => {
                match event {
                    Event::Exited(kind) => state.exit = Some(kind),
                    _ => state.eof = true,
                }
                let Some(p) = outstanding else {
                    return Ok(());
                };
                if !state.is_dead() {
                    if state.eof && state.closed_stdout_for_good() {
                        // Still running but cannot answer: a crash now
                        // (the deadline check charges it), not a timeout.
                        p.deadline = p.deadline.min(at);
                    }
                    return Ok(());
                }
                if state.exited_per_turn() && state.seat.bot.mode != Mode::PerTurn {
                    // A per-turn bot that had not yet exited when the
                    // prompt went out: start it again with a fresh clock.
                    state.saw_per_turn = true;
                    if !self.restart(referee, seat)? {
                        p.answer = Some(Answer::Fault(Fault::Crash));
                        return Ok(());
                    }
                    let now = Instant::now();
                    p.reply.clear();
                    p.sent = now;
                    p.deadline = now + self.opts.move_timeout + self.opts.startup_allowance;
                    if let Some(process) = &mut self.seats[seat].process {
                        process.send(&p.lines);
                    }
                } else {
                    p.answer = Some(Answer::Fault(Fault::Crash));
                    state.run.faults.crash += 1;
                    self.kill_after_fault(seat);
                }
            }
        }
        Ok(())
    }

    /// Sends the farewell to live processes, closes their input and gives
    /// them `end_grace` to close their output.
    fn farewell<R: Referee>(&mut self, referee: &R) {
        let farewell = referee.farewell();
        let mut awaited = vec![false; self.seats.len()];
        for (seat, state) in self.seats.iter_mut().enumerate() {
            if !state.is_live() {
                continue;
            }
            if let Some(process) = &mut state.process {
                process.send(&farewell);
                process.close_input();
                awaited[seat] = true;
            }
        }
        let mut waiting = awaited.iter().filter(|&&a| a).count();
        let deadline = Instant::now() + self.opts.end_grace;
        while waiting > 0 {
            let wait = deadline.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                break;
            }
            for tagged in self.pump(wait) {
                let Some(state) = current(&mut self.seats, tagged.seat, tagged.generation) else {
                    continue;
                };
                for event in tagged.events {
                    match event {
                        // Nothing is outstanding any more (the last answer's
                        // trailing chatter, say).
                        Event::Line(_) | Event::TooLong => state.run.unsolicited += 1,
                        Event::Eof => {
                            state.eof = true;
                            if std::mem::take(&mut awaited[tagged.seat]) {
                                waiting -= 1;
                            }
                        }
                        Event::Exited(_) => {}
                    }
                }
            }
        }
    }

    /// Kills and reaps every process and collects the stderr logs.
    fn shutdown(&mut self) {
        for seat in 0..self.seats.len() {
            self.retire(seat);
        }
        // Pipes held open by escaped descendants: up to `end_grace` more.
        while !self.draining.is_empty() {
            let now = Instant::now();
            let Some(until) = self.draining.iter().map(|d| d.until).min() else {
                break;
            };
            self.pump(until.saturating_duration_since(now));
        }
        for state in &mut self.seats {
            if self.opts.keep_stderr {
                state.split_stderr();
            }
            state.run.stderr = state.log.render();
        }
    }

    /// Waits up to `timeout` for any pipe or exit of the game's processes,
    /// handles everything that is ready (stdin takes queued input, stderr
    /// goes to the seat's log) and returns stdout lines and exits, one
    /// batch per read, in the order read.
    fn pump(&mut self, timeout: Duration) -> Vec<Tagged> {
        let mut fds = Vec::new();
        let mut tags = Vec::new();
        let mut exit_polling = false;
        for state in &self.seats {
            if let Some(process) = &state.process {
                process.interests(&mut fds, &mut tags);
                exit_polling |= process.needs_exit_polling();
            }
        }
        let mut interests: Vec<Interest> = tags
            .into_iter()
            .map(|(seat, source)| Interest::Process(seat, source))
            .collect();
        for (i, d) in self.draining.iter().enumerate() {
            fds.push(PollFd::new(&d.stderr, PollFlags::IN));
            interests.push(Interest::Draining(i));
        }
        let timeout = if exit_polling {
            timeout.min(EXIT_CHECK)
        } else {
            timeout
        };
        // An interrupted poll reports nothing; the caller loops.
        let _ = rustix::event::poll(&mut fds, Some(&crate::sys::timespec(timeout)));
        let at = Instant::now();
        let ready: Vec<Interest> = fds
            .iter()
            .zip(&interests)
            .filter(|(fd, _)| !fd.revents().is_empty())
            .map(|(_, &interest)| interest)
            .collect();
        drop(fds);
        let mut batches = Vec::new();
        let mut closed = Vec::new();
        for interest in ready {
            match interest {
                Interest::Process(seat, source) => {
                    let state = &mut self.seats[seat];
                    if let Some(process) = &mut state.process
                        && let Some(batch) =
                            process.on_ready(source, &mut state.log, at, &mut self.buf)
                    {
                        batches.push(batch);
                    }
                }
                Interest::Draining(i) => {
                    let d = &mut self.draining[i];
                    if !crate::process::drain_some(
                        &mut d.stderr,
                        &mut self.seats[d.seat].log,
                        &mut self.buf,
                    ) {
                        closed.push(i);
                    }
                }
            }
        }
        if exit_polling {
            for state in &mut self.seats {
                if let Some(process) = &mut state.process
                    && process.needs_exit_polling()
                    && let Some(batch) =
                        process.on_ready(Source::Exit, &mut state.log, at, &mut self.buf)
                {
                    batches.push(batch);
                }
            }
        }
        let now = Instant::now();
        let mut i = 0;
        self.draining.retain(|d| {
            let keep = !closed.contains(&i) && d.until > now;
            i += 1;
            keep
        });
        batches
    }

    fn into_run(self) -> MatchRun {
        MatchRun {
            seats: self
                .seats
                .into_iter()
                .map(|state| {
                    let mut run = state.run;
                    if run.mode == Mode::Auto {
                        if state.saw_per_turn {
                            run.mode = Mode::PerTurn;
                        } else if state.saw_reuse {
                            run.mode = Mode::Persistent;
                        }
                    }
                    run
                })
                .collect(),
        }
    }
}

/// Appends `text` to `entry`, keeping at most [`STDERR_ENTRY_CAP_BYTES`]
/// and noting (once) that the rest was dropped.
fn push_capped(entry: &mut String, text: &str) {
    const NOTE: &str = "[dojo: more stderr for this prompt not kept]\n";
    if text.is_empty() || entry.ends_with(NOTE) {
        return;
    }
    let room = STDERR_ENTRY_CAP_BYTES.saturating_sub(entry.len());
    if text.len() <= room {
        entry.push_str(text);
        return;
    }
    let mut cut = room;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    entry.push_str(&text[..cut]);
    if !entry.is_empty() && !entry.ends_with('\n') {
        entry.push('\n');
    }
    entry.push_str(NOTE);
}

/// The seat an event is for, if the event comes from the seat's current
/// process. Events of a process already killed are dropped here: a late
/// answer must never be taken for a later prompt.
fn current<'s, 'a>(
    seats: &'s mut [SeatState<'a>],
    seat: usize,
    generation: u64,
) -> Option<&'s mut SeatState<'a>> {
    seats
        .get_mut(seat)
        .filter(|state| state.generation == generation && state.process.is_some())
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_capped_with_a_note() {
        let mut entry = String::new();
        push_capped(&mut entry, "ok\n");
        push_capped(&mut entry, &"y".repeat(STDERR_ENTRY_CAP_BYTES));
        assert!(entry.starts_with("ok\nyyy"));
        assert!(entry.ends_with("not kept]\n"));
        assert!(entry.len() <= STDERR_ENTRY_CAP_BYTES + 60);
        let before = entry.clone();
        push_capped(&mut entry, "more");
        assert_eq!(entry, before);
    }
}

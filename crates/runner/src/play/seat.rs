//! Per-seat state of the game loop, and the prompt outstanding for a seat.
//!
//! Every fault is counted here, in [`SeatState::settle`], so the kinds and
//! the latencies recorded with them are decided in one place.

use std::time::{Duration, Instant};

use dojo_engine::protocol::{Answer, Fault};

use super::options::{RunOptions, Seat, TimeMode};
use super::outcome::SeatRun;
use super::stderr_cut::StderrCut;
use crate::spec::Mode;
use dojo_sandbox::sys::ExitKind;

/// What the loop knows about one seat.
pub(crate) struct SeatState<'a> {
    pub(crate) seat: &'a Seat,
    /// A process of the current generation exists (not yet retired).
    pub(crate) has_process: bool,
    /// Generation of the current (or last) process; events of others are
    /// stale.
    pub(crate) generation: u64,
    /// Prompts the current process has answered (validly or not).
    pub(crate) answered_in_life: u32,
    pub(crate) eof: bool,
    pub(crate) exit: Option<ExitKind>,
    /// The last process was killed or died by fault.
    pub(crate) needs_restart: bool,
    /// The current process's first answer gets the start-up allowance:
    /// it is the seat's first process of the game, or a long-lived bot's
    /// started again after a fault. Every later process of a bot that
    /// exits after its moves gets the move time only: its start is part
    /// of its move, as a long-lived bot pays for its start once a game.
    pub(crate) startup_due: bool,
    /// What is left of the start-up allowance: it is once a game, so a
    /// process started again after a fault gets only what the seat's
    /// earlier first answers left unused (a fault buys no time).
    pub(crate) startup_left: Duration,
    /// The time (on the run's clock) the seat's first answered prompt
    /// took, its start included: the most its start can cost. A process
    /// started again after a fault gets no larger allowance than that,
    /// so a bot cannot move an allowance its start did not need onto a
    /// move of its choosing by faulting before it.
    pub(crate) first_used: Option<Duration>,
    pub(crate) saw_per_turn: bool,
    pub(crate) saw_reuse: bool,
    /// With `keep_stderr`: where each prompt's stderr starts.
    pub(crate) cut: StderrCut,
    /// What is left of the overage bank.
    pub(crate) bank: Duration,
    /// What is left of the game budget, if there is one.
    pub(crate) game_left: Option<Duration>,
    /// CPU time of the current process's tree when its last answer was
    /// read (zero when it started): the next move's CPU counts from here.
    pub(crate) cpu_mark: Duration,
    /// The run's controls with the bot's own values in their place
    /// ([`RunOptions::for_bot`]).
    pub(crate) controls: crate::Controls,
    /// The OOM killer took one of the seat's processes while the bot was
    /// under its memory cap: the game cannot be judged fairly and fails
    /// (see [`RunError::MemoryElsewhere`](super::RunError::MemoryElsewhere)).
    pub(crate) killed_by_memory_elsewhere: bool,
    /// Its box was torn down from outside (see
    /// [`RunError::BoxLost`](super::RunError::BoxLost)).
    pub(crate) box_lost: bool,
    pub(crate) run: SeatRun,
}

impl<'a> SeatState<'a> {
    pub(crate) fn new(seat: &'a Seat, opts: &RunOptions) -> Self {
        let controls = opts.for_bot(&seat.bot);
        Self {
            seat,
            has_process: false,
            generation: 0,
            answered_in_life: 0,
            eof: false,
            exit: None,
            needs_restart: false,
            startup_due: false,
            startup_left: controls.startup,
            first_used: None,
            saw_per_turn: false,
            saw_reuse: false,
            cut: StderrCut::default(),
            bank: controls.overage,
            game_left: controls.game_budget,
            cpu_mark: Duration::ZERO,
            controls,
            killed_by_memory_elsewhere: false,
            box_lost: false,
            run: SeatRun::new(seat.bot.name.clone(), seat.bot.mode),
        }
    }

    /// Notes a freshly started process.
    pub(crate) fn started(&mut self, pgid: i32) {
        self.has_process = true;
        self.run.spawns += 1;
        let after_fault = std::mem::take(&mut self.needs_restart);
        if after_fault {
            self.run.faults.restart += 1;
        }
        let exits_after_moves = self.seat.bot.mode == Mode::PerTurn || self.saw_per_turn;
        self.startup_due = self.run.spawns == 1 || (after_fault && !exits_after_moves);
        self.run.pgids.push(pgid);
        self.answered_in_life = 0;
        self.eof = false;
        self.exit = None;
        self.cpu_mark = Duration::ZERO;
    }

    /// The time a prompt may take: the seat's move time (plus the start-up
    /// allowance for the first answer of a process that is due one, see
    /// `startup_due`), plus what is left in the bank, capped by what is
    /// left of the game budget.
    ///
    /// Only the seat's first process has its allowance outside the game
    /// budget: a process started again after a fault gets what is left of
    /// the allowance (see `startup_left`, `first_used`) inside it, so a
    /// spent budget stays spent.
    pub(crate) fn budget(&self, fresh: bool) -> Budget {
        let first_process = self.run.spawns <= 1;
        let startup = match (fresh && self.startup_due, first_process) {
            (false, _) => Duration::ZERO,
            (true, true) => self.startup_left,
            (true, false) => self
                .startup_left
                .min(self.first_used.unwrap_or(Duration::MAX)),
        };
        let uncounted = if first_process {
            startup
        } else {
            Duration::ZERO
        };
        let allowance = self.controls.timeout + startup;
        let mut total = allowance + self.bank;
        if let Some(left) = self.game_left {
            total = total.min(left + uncounted);
        }
        Budget {
            startup,
            uncounted,
            allowance,
            total,
            time: self.controls.time,
        }
    }

    pub(crate) fn is_dead(&self) -> bool {
        self.eof && self.exit.is_some()
    }

    pub(crate) fn is_live(&self) -> bool {
        self.has_process && !self.eof && self.exit.is_none()
    }

    /// Whether a process whose stdout closed can be known not to be a
    /// per-turn bot on its way out (whose exit, about to be seen, starts
    /// it again): it never answered, or it promised to stay alive. Such a
    /// process is charged a crash at once; otherwise at the deadline
    /// unless its exit shows up first.
    pub(crate) fn closed_stdout_for_good(&self) -> bool {
        self.answered_in_life == 0 || self.seat.bot.mode == Mode::Persistent
    }

    /// A process that exited 0 after answering is a per-turn bot, unless
    /// it promised to stay alive.
    pub(crate) fn exited_per_turn(&self) -> bool {
        self.exit == Some(ExitKind::Code(0))
            && self.answered_in_life > 0
            && self.seat.bot.mode != Mode::Persistent
    }

    /// Settles a prompt: counts the fault, if it is one, and records the
    /// latency, if the prompt has one (a reply or a timeout; a crash has
    /// none).
    pub(crate) fn settle<M>(
        &mut self,
        pending: &mut Pending<M>,
        answer: Answer<M>,
        latency: Option<Duration>,
    ) {
        if let Answer::Fault(fault) = &answer {
            let faults = &mut self.run.faults;
            match fault {
                Fault::Timeout => faults.timeout += 1,
                Fault::Crash => faults.crash += 1,
                Fault::Invalid => faults.invalid += 1,
            }
        }
        if let Some(latency) = latency {
            let budget = &pending.budget;
            if !budget.startup.is_zero() {
                let entry = u32::try_from(self.run.latencies_us.len()).unwrap_or(u32::MAX);
                self.run.startup_answers.push(entry);
            }
            self.run.latencies_us.push(micros(latency));
            self.run.cpu_us.push(pending.prompt_cpu().map(micros));
            let used = match budget.time {
                TimeMode::Wall => latency,
                TimeMode::Cpu => pending.prompt_cpu().unwrap_or(latency),
            }
            .min(budget.total);
            let drawn = used.saturating_sub(budget.allowance);
            self.bank = self.bank.saturating_sub(drawn);
            if let Some(left) = &mut self.game_left {
                *left = left.saturating_sub(used.saturating_sub(budget.uncounted));
            }
            if !budget.startup.is_zero() {
                // Whatever of the allowance the answer used is gone for
                // the rest of the game, a timeout's included.
                let spent = used.saturating_sub(self.controls.timeout);
                self.startup_left = self.startup_left.saturating_sub(spent.min(budget.startup));
                self.first_used.get_or_insert(used);
            }
        }
        if let Some(cpu) = pending.cpu_used {
            self.cpu_mark += cpu;
        }
        pending.answer = Some(answer);
    }

    /// Settles a prompt with what the process replied (a move or an
    /// invalid line), read at `at`.
    pub(crate) fn replied<M>(&mut self, pending: &mut Pending<M>, answer: Answer<M>, at: Instant) {
        self.answered_in_life += 1;
        let latency = at.saturating_duration_since(pending.sent);
        self.settle(pending, answer, Some(latency));
    }

    /// The declared mode, or what the game showed for `Mode::Auto`.
    pub(crate) fn into_run(self) -> SeatRun {
        let mut run = self.run;
        if run.mode == Mode::Auto {
            if self.saw_per_turn {
                run.mode = Mode::PerTurn;
            } else if self.saw_reuse {
                run.mode = Mode::Persistent;
            }
        }
        run
    }
}

/// The time one prompt may take.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Budget {
    /// The start-up allowance included (see `SeatState::startup_due`).
    pub(crate) startup: Duration,
    /// The part of `startup` not counted against the game budget: all of
    /// it for the seat's first process, none after a fault.
    pub(crate) uncounted: Duration,
    /// What the prompt may take without drawing on the bank.
    pub(crate) allowance: Duration,
    /// The most it may take, the bank and the game budget included.
    pub(crate) total: Duration,
    /// What the time counts.
    pub(crate) time: TimeMode,
}

/// One prompt of the current round and what became of it.
pub(crate) struct Pending<M> {
    pub(crate) seat: usize,
    pub(crate) lines: Vec<String>,
    pub(crate) reply: Vec<String>,
    pub(crate) sent: Instant,
    /// On the wall clock: the budget (wall time) or its backstop (CPU time).
    pub(crate) deadline: Instant,
    pub(crate) budget: Budget,
    /// CPU the seat's current process used for this prompt so far, as
    /// last sampled.
    pub(crate) cpu_used: Option<Duration>,
    /// CPU spent on this prompt by earlier processes of the seat, which
    /// exited without answering it (see `Game::on_event`): counted with
    /// `cpu_used`, so a move split over processes is one move.
    pub(crate) cpu_carried: Duration,
    pub(crate) answer: Option<Answer<M>>,
}

impl<M> Pending<M> {
    /// Whether the prompt counts CPU time and its bot has used more than
    /// its budget.
    pub(crate) fn over_cpu_budget(&self) -> bool {
        self.budget.time == TimeMode::Cpu
            && self.prompt_cpu().is_some_and(|u| u > self.budget.total)
    }

    /// CPU spent on this prompt so far, by every process of the seat that
    /// had it.
    pub(crate) fn prompt_cpu(&self) -> Option<Duration> {
        self.cpu_used.map(|used| used + self.cpu_carried)
    }

    /// A prompt just sent at `sent`, due by `deadline`.
    pub(crate) fn new(seat: usize, lines: Vec<String>, sent: Instant, deadline: Instant) -> Self {
        Self {
            seat,
            lines,
            reply: Vec::new(),
            sent,
            deadline,
            budget: Budget::default(),
            cpu_used: None,
            cpu_carried: Duration::ZERO,
            answer: None,
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

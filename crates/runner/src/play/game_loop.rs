//! The loop itself: prompts out, replies in, deadlines judged, faults
//! handed to the referee. See the [module docs](super) for its design.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How long a faulted process whose exit is not yet known gets to finish
/// dying, so a limit's signal can be told from a crash.
const LIMIT_EXIT_WAIT: Duration = Duration::from_millis(50);

use dojo_engine::protocol::{Answer, Fault, Prompt, Referee, Reply};

use super::options::TimeMode;
use super::options::{RunOptions, Seat};
use super::outcome::{MatchRun, ProcessLimit, RunError};
use super::procs::Processes;
use super::seat::{Budget, Pending, SeatState};
use crate::process::{Event, Tagged};
use crate::spec::Mode;

/// How long a wait may last when a cancel flag is given, so a set flag is
/// seen promptly even if no bot does anything.
const CANCEL_CHECK: Duration = Duration::from_millis(100);

/// Shortest wait between two looks at a bot's CPU time when it is close
/// to its budget: a CPU-time move ends at most about this late.
const CPU_CHECK_MIN: Duration = Duration::from_millis(2);

/// One game in progress over the processes `P`.
pub(crate) struct Game<'a, P> {
    seats: Vec<SeatState<'a>>,
    opts: &'a RunOptions,
    procs: P,
    /// How many CPUs a seat's processes can use at once: how fast its CPU
    /// time can grow against the wall clock.
    cpu_rate: u32,
}

impl<'a, P: Processes> Game<'a, P> {
    pub(crate) fn new(seats: &'a [Seat], opts: &'a RunOptions, procs: P) -> Self {
        Self {
            seats: seats.iter().map(|s| SeatState::new(s, opts)).collect(),
            opts,
            procs,
            cpu_rate: match opts.pin_cpu {
                Some(_) => 1,
                None => u32::try_from(dojo_sandbox::sys::allowed_cpus().len().max(1)).unwrap_or(1),
            },
        }
    }

    fn cancelled(&self) -> bool {
        self.opts
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::SeqCst))
    }

    /// Plays rounds until the referee has no prompts left, then says
    /// farewell. Processes are left running: [`shutdown`](Self::shutdown)
    /// ends them, on every path.
    pub(crate) fn run<R: Referee>(
        &mut self,
        referee: &mut R,
        observer: &mut dyn FnMut(&R),
    ) -> Result<(), RunError> {
        loop {
            let prompts = referee.prompts();
            // A round's results go out with each seat's next prompt, in
            // one write; to a seat not asked this round, now.
            for seat in 0..self.seats.len() {
                if !prompts.iter().any(|p| p.seat == seat) {
                    self.procs.flush(seat);
                }
            }
            if prompts.is_empty() {
                break;
            }
            if self.cancelled() {
                return Err(RunError::Cancelled);
            }
            self.check_prompts(&prompts)?;
            self.drain_idle();
            let mut pending: Vec<Pending<R::Move>> = Vec::with_capacity(prompts.len());
            for prompt in prompts {
                let before = self.procs.now();
                let p = self.send_prompt(referee, prompt)?;
                excuse(&mut pending, p.seat, self.procs.now() - before);
                pending.push(p);
            }
            self.wait_answers(referee, &mut pending)?;
            // A bot the OOM killer took for want of memory outside its cap
            // did nothing wrong: its faults this round are not its own, so
            // the game is not judged (it stays to be played again).
            if let Some(state) = self.seats.iter().find(|s| s.killed_by_memory_elsewhere) {
                return Err(RunError::MemoryElsewhere {
                    bot: state.seat.bot.name.clone(),
                });
            }
            // Nor one whose box was torn down from outside (its maker
            // ended): what its process did then was not its doing.
            if let Some(state) = self.seats.iter().find(|s| s.box_lost) {
                return Err(RunError::BoxLost {
                    bot: state.seat.bot.name.clone(),
                });
            }
            let answers = pending
                .into_iter()
                .map(|p| p.answer.unwrap_or(Answer::Fault(Fault::Timeout)))
                .collect();
            let notices = referee.apply(answers);
            observer(referee);
            for notice in notices {
                for &seat in &notice.seats {
                    let state = self.seats.get(seat).ok_or_else(|| {
                        RunError::Referee(format!("notice for seat {seat}, which does not exist"))
                    })?;
                    if state.is_live() {
                        self.procs.defer(seat, &notice.lines);
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
        for tagged in self.procs.wait(Duration::ZERO) {
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
        let state = &mut self.seats[seat];
        state.generation += 1;
        state.has_process = false;
        let pgid = self
            .procs
            .start(seat, state.generation)
            .map_err(|error| RunError::Spawn {
                bot: state.seat.bot.name.clone(),
                command: state.seat.bot.command.clone(),
                process_limit: ProcessLimit::behind(&error, &state.seat.bot, self.opts),
                hint: super::not_runnable::hint(&error, &state.seat.bot),
                error,
            })?;
        state.started(pgid);
        self.procs.send(seat, &referee.greeting(seat));
        Ok(())
    }

    /// Starts the seat's process for a prompt. A bot that started before
    /// but cannot be started again (it removed its own execute bit, say)
    /// gets `false`: the caller charges a crash for the prompt and the
    /// next prompt tries again, so the game goes on; only a bot that
    /// never started is an error.
    fn restart<R: Referee>(&mut self, referee: &R, seat: usize) -> Result<bool, RunError> {
        match self.start(referee, seat) {
            Ok(()) => Ok(true),
            // Or whose box it broke: it ran in that box, in an earlier
            // game too (see `Processes::broke_its_box`).
            Err(RunError::Spawn { error, .. })
                if self.seats[seat].run.spawns > 0 || self.procs.broke_its_box(seat) =>
            {
                self.seats[seat].needs_restart = true;
                let note = format!("[dojo: cannot start the bot again: {error}]\n");
                self.procs.note_stderr(seat, &note);
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

    /// Charges the seat a `limit` fault if its process ran into one, and
    /// notes an OOM kill that was not its doing.
    fn note_limits(&mut self, seat: usize, wait: Duration) {
        let seen = self.procs.limits_hit(seat, wait);
        let lost = self.procs.box_lost(seat);
        let state = &mut self.seats[seat];
        state.killed_by_memory_elsewhere |= seen.memory_elsewhere;
        state.box_lost |= lost;
        state.run.note_limits(&seen.hit);
    }

    fn retire(&mut self, seat: usize) {
        self.note_limits(seat, Duration::ZERO);
        self.procs.retire(seat);
        self.seats[seat].has_process = false;
    }

    fn send_prompt<R: Referee>(
        &mut self,
        referee: &R,
        prompt: Prompt,
    ) -> Result<Pending<R::Move>, RunError> {
        let seat = prompt.seat;
        if self.opts.keep_stderr {
            let procs = &self.procs;
            self.seats[seat].cut.mark(|| procs.stderr_position(seat));
        }
        let mut fresh = false;
        let state = &mut self.seats[seat];
        if state.seat.bot.mode == Mode::PerTurn || !state.has_process {
            fresh = true;
        } else if state.is_dead() {
            if state.exited_per_turn() {
                state.saw_per_turn = true;
                fresh = true;
            } else {
                // Died between prompts: charged to this prompt, restarted
                // for the next one, the same as if it had died just after
                // this prompt was sent (so timing cannot change the game).
                self.kill_after_fault(seat);
                return Ok(self.crashed_at_once(seat, prompt.lines));
            }
        } else if state.answered_in_life > 0 {
            state.saw_reuse = true;
        }
        if fresh && !self.restart(referee, seat)? {
            return Ok(self.crashed_at_once(seat, prompt.lines));
        }
        let sent = self.procs.now();
        let budget = self.seats[seat].budget(fresh);
        let mut deadline = self.deadline(sent, &budget);
        let state = &self.seats[seat];
        if state.eof && state.closed_stdout_for_good() {
            // Closed stdout between prompts and still running: charged
            // at once by the deadline check.
            deadline = sent;
        }
        self.procs.send(seat, &prompt.lines);
        let mut pending = Pending::new(seat, prompt.lines, sent, deadline);
        pending.budget = budget;
        if budget.time == TimeMode::Cpu {
            pending.cpu_used = self.cpu_since_mark(seat);
        }
        Ok(pending)
    }

    /// When a prompt sent at `sent` with `budget` ends on the wall clock.
    fn deadline(&self, sent: Instant, budget: &Budget) -> Instant {
        match budget.time {
            TimeMode::Wall => sent + budget.total,
            TimeMode::Cpu => sent + budget.total.saturating_mul(self.opts.wall_backstop.max(1)),
        }
    }

    /// CPU time the seat's current process tree used since its last
    /// answer was read (or it started).
    fn cpu_since_mark(&self, seat: usize) -> Option<Duration> {
        let total = self.procs.cpu_time(seat)?;
        Some(total.saturating_sub(self.seats[seat].cpu_mark))
    }

    /// A prompt settled as a crash before it went out.
    fn crashed_at_once<M>(&mut self, seat: usize, lines: Vec<String>) -> Pending<M> {
        let now = self.procs.now();
        let mut pending = Pending::new(seat, lines, now, now);
        self.seats[seat].settle(&mut pending, Answer::Fault(Fault::Crash), None);
        pending
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
            let now = self.procs.now();
            let Some(wake) = pending
                .iter()
                .filter(|p| p.answer.is_none())
                .map(|p| self.next_look(p, now))
                .min()
            else {
                return Ok(());
            };
            let mut wait = wake.saturating_duration_since(now);
            if self.opts.cancel.is_some() {
                wait = wait.min(CANCEL_CHECK);
            }
            // Output is stamped with the time the wait returned, so an
            // answer that was there in time is never judged late because
            // the loop was busy.
            for tagged in self.procs.wait(wait) {
                let (seat, before) = (tagged.seat, self.procs.now());
                self.on_batch(referee, pending, tagged)?;
                excuse(pending, seat, self.procs.now() - before);
            }
            let now = self.procs.now();
            for i in 0..pending.len() {
                let p = &mut pending[i];
                if p.answer.is_some() {
                    continue;
                }
                if p.budget.time == TimeMode::Cpu {
                    p.cpu_used = self.cpu_since_mark(p.seat).or(p.cpu_used);
                }
                if p.deadline > now && !p.over_cpu_budget() {
                    continue;
                }
                if self.seats[p.seat].eof {
                    // Closed its stdout: it can never answer.
                    self.seats[p.seat].settle(p, Answer::Fault(Fault::Crash), None);
                } else {
                    if p.budget.time == TimeMode::Wall {
                        p.cpu_used = self.cpu_since_mark(p.seat);
                    }
                    let latency = now.saturating_duration_since(p.sent);
                    self.seats[p.seat].settle(p, Answer::Fault(Fault::Timeout), Some(latency));
                }
                let (seat, before) = (p.seat, self.procs.now());
                self.kill_after_fault(seat);
                excuse(pending, seat, self.procs.now() - before);
            }
        }
    }

    /// When the loop must look again at an outstanding prompt: its
    /// deadline, or with CPU time, the earliest moment its budget could
    /// be spent (its processes using every CPU they may).
    fn next_look<M>(&self, p: &Pending<M>, now: Instant) -> Instant {
        match (p.budget.time, p.prompt_cpu()) {
            (TimeMode::Cpu, Some(used)) => {
                let left = p.budget.total.saturating_sub(used) / self.cpu_rate;
                p.deadline.min(now + left.max(CPU_CHECK_MIN))
            }
            _ => p.deadline,
        }
    }

    /// Handles one batch of a read, event by event.
    fn on_batch<R: Referee>(
        &mut self,
        referee: &R,
        pending: &mut [Pending<R::Move>],
        tagged: Tagged,
    ) -> Result<(), RunError> {
        let has_reply = tagged
            .events
            .iter()
            .any(|e| matches!(e, Event::Line(_) | Event::TooLong));
        let is_current = self
            .seats
            .get(tagged.seat)
            .is_some_and(|s| s.generation == tagged.generation && s.has_process);
        if has_reply
            && is_current
            && let Some(p) = pending
                .iter_mut()
                .find(|p| p.seat == tagged.seat && p.answer.is_none())
        {
            // The bot waits for its next prompt once it has answered, so
            // its CPU time now is its CPU time when it answered.
            p.cpu_used = self.cpu_since_mark(tagged.seat).or(p.cpu_used);
        }
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
        let Some(p) = pending
            .iter_mut()
            .find(|p| p.seat == seat && p.answer.is_none())
        else {
            match event {
                // Nothing outstanding: chatter after an answer.
                Event::Line(_) | Event::TooLong => state.run.unsolicited += 1,
                Event::Eof => state.eof = true,
                Event::Exited(kind) => state.exit = Some(kind),
            }
            return Ok(());
        };
        match event {
            // Read after the deadline: the prompt times out (the deadline
            // check that follows kills the process), whenever we look.
            Event::Line(_) | Event::TooLong if at > p.deadline || p.over_cpu_budget() => {}
            Event::Line(line) => {
                p.reply.push(line);
                match referee.parse_reply(seat, &p.reply) {
                    Reply::Incomplete => {}
                    Reply::Complete(m) => state.replied(p, Answer::Move(m), at),
                    Reply::Invalid(reason) => {
                        state.run.note_invalid(&reason);
                        state.replied(p, Answer::Fault(Fault::Invalid), at);
                    }
                }
            }
            Event::TooLong => {
                state.run.note_invalid(&format!(
                    "a line longer than {} bytes",
                    self.opts.max_line_bytes
                ));
                state.replied(p, Answer::Fault(Fault::Invalid), at);
            }
            Event::Eof | Event::Exited(_) => {
                match event {
                    Event::Exited(kind) => state.exit = Some(kind),
                    _ => state.eof = true,
                }
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
                    // prompt went out: start it again, on the prompt's
                    // clock. Its start is part of its move (as for every
                    // later process of a bot that exits after its moves),
                    // and a bot that read the prompt, thought, and exited
                    // to be started afresh gets no second move time: the
                    // deadline stays, and the CPU its process spent since
                    // its last answer is the move's.
                    state.saw_per_turn = true;
                    let carried = self.cpu_since_mark(seat).or(p.cpu_used);
                    if !self.restart(referee, seat)? {
                        self.seats[seat].settle(p, Answer::Fault(Fault::Crash), None);
                        return Ok(());
                    }
                    p.reply.clear();
                    p.cpu_carried += carried.unwrap_or_default();
                    p.cpu_used = None;
                    self.procs.send(seat, &p.lines);
                } else {
                    state.settle(p, Answer::Fault(Fault::Crash), None);
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
        for (seat, state) in self.seats.iter().enumerate() {
            if state.is_live() {
                self.procs.send(seat, &farewell);
                self.procs.close_input(seat);
                awaited[seat] = true;
            }
        }
        let mut waiting = awaited.iter().filter(|&&a| a).count();
        let deadline = self.procs.now() + self.opts.end_grace;
        while waiting > 0 {
            let wait = deadline.saturating_duration_since(self.procs.now());
            if wait.is_zero() {
                break;
            }
            for tagged in self.procs.wait(wait) {
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
    pub(crate) fn shutdown(&mut self) {
        for seat in 0..self.seats.len() {
            self.note_limits(seat, Duration::ZERO);
        }
        self.procs.shutdown();
        for (seat, state) in self.seats.iter_mut().enumerate() {
            state.has_process = false;
            let log = self.procs.stderr_log(seat);
            if self.opts.keep_stderr {
                state.run.stderr_by_prompt = state.cut.split(log);
            }
            state.run.stderr = log.render();
            state.run.memory_peak_bytes = self.procs.memory_peak(seat);
        }
    }

    pub(crate) fn into_run(self) -> MatchRun {
        MatchRun {
            seats: self.seats.into_iter().map(SeatState::into_run).collect(),
        }
    }
}

/// The seat an event is for, if the event comes from the seat's current
/// process. Events of a process already killed are dropped here: a late
/// answer must never be taken for a later prompt.
/// Excuses every outstanding prompt but `seat`'s for `stalled`, time the
/// loop just spent on `seat`'s processes (starting one, killing one,
/// waiting for its box to be emptied): each is taken as sent that much
/// later. An answer that arrived meanwhile is only read, and stamped,
/// once the loop is back, so without this a bot whose processes take
/// long to die (the kernel tearing down a large address space) would
/// have its opponents' answers judged late. A seat's own starts are its
/// move's time, and are not excused.
fn excuse<M>(pending: &mut [Pending<M>], seat: usize, stalled: std::time::Duration) {
    if stalled.is_zero() {
        return;
    }
    for p in pending
        .iter_mut()
        .filter(|p| p.seat != seat && p.answer.is_none())
    {
        p.sent += stalled;
        p.deadline += stalled;
    }
}

fn current<'s, 'a>(
    seats: &'s mut [SeatState<'a>],
    seat: usize,
    generation: u64,
) -> Option<&'s mut SeatState<'a>> {
    seats
        .get_mut(seat)
        .filter(|state| state.generation == generation && state.has_process)
}

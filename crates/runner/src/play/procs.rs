//! The seam between the game loop and the operating system: the
//! processes of one game, one slot per seat.
//!
//! The loop ([`super::game_loop`]) decides; a [`Processes`] does. The real
//! one, [`Pipes`], spawns [`BotProcess`]es and polls their pipes and
//! pidfds; the unit tests of the loop use a scripted fake with its own
//! clock, so generations, arrival-time deadlines and unsolicited lines are
//! tested without a subprocess or a sleep.

use std::process::ChildStderr;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};

use super::options::{RunOptions, Seat};
use crate::process::{BotProcess, LimitsSeen, Sent, Source, Tagged};
use crate::stderr_log::CappedLog;
use dojo_sandbox::lifecycle::Refusal;
use dojo_sandbox::spawn::Launch;

/// Longest sleep while a process without a pidfd (old kernels) may exit
/// unseen: its exit is looked for on every wake-up.
const EXIT_CHECK: Duration = Duration::from_millis(10);

/// The processes of one game as the loop sees them.
pub(crate) trait Processes {
    /// The loop's clock: every deadline and latency is measured on it.
    fn now(&self) -> Instant;
    /// Retires the seat's process, if any, and starts a new one of
    /// `generation` (its events carry it), returning its process group.
    fn start(&mut self, seat: usize, generation: u64) -> std::io::Result<i32>;
    /// Queues lines for the seat's process; never blocks.
    fn send(&mut self, seat: usize, lines: &[String]);
    /// Holds lines back to go out with the seat's next [`Self::send`] in
    /// one write (one wake-up of the bot), or at [`Self::flush`] or the
    /// process's retirement, whichever comes first.
    fn defer(&mut self, seat: usize, lines: &[String]) {
        self.send(seat, lines);
    }
    /// Sends what [`Self::defer`] holds for the seat, now.
    fn flush(&mut self, _seat: usize) {}
    /// Closes the seat's stdin once everything queued is written.
    fn close_input(&mut self, seat: usize);
    /// Kills and reaps the seat's process, if any, keeping its stderr.
    fn retire(&mut self, seat: usize);
    /// Where the seat's stderr stream stands once everything written so
    /// far is read (see [`super::stderr_cut`]).
    fn stderr_position(&self, seat: usize) -> u64;
    /// Adds a note of dojo's own to the seat's stderr log.
    fn note_stderr(&mut self, seat: usize, text: &str);
    /// Waits up to `timeout` for output or exits and returns stdout lines
    /// and exits, one batch per read, in the order read, each stamped
    /// with the time the wait returned.
    fn wait(&mut self, timeout: Duration) -> Vec<Tagged>;
    /// Retires every process and reads what their stderr pipes still
    /// hold (for at most `end_grace` where something outside a group
    /// holds a pipe open).
    fn shutdown(&mut self);
    /// The seat's stderr log.
    fn stderr_log(&self, seat: usize) -> &CappedLog;
    /// CPU time used so far by the seat's current process tree.
    fn cpu_time(&self, seat: usize) -> Option<Duration>;
    /// The most memory any of the seat's processes in this game used at
    /// once (its tree, from its memory group), in bytes; `None` where
    /// not measured.
    fn memory_peak(&self, _seat: usize) -> Option<u64> {
        None
    }
    /// Whether the seat's box was lost from outside (its maker ended):
    /// its process died of that, not of anything it did.
    fn box_lost(&self, _seat: usize) -> bool {
        false
    }
    /// Whether the seat's box refused to start its bot after it had
    /// started it before (in this game or an earlier one on this thread),
    /// so it was made anew: a start that fails after that is charged to
    /// the bot as a crash, as a restart's is, rather than failing the
    /// game (which would then stay unplayed for what the bot did).
    fn broke_its_box(&self, _seat: usize) -> bool {
        false
    }
    /// The resource limits the seat's current process ran into, asked
    /// once per process; up to `wait` for a dying process's exit status
    /// (see [`BotProcess::limits_hit`]).
    fn limits_hit(&mut self, _seat: usize, _wait: Duration) -> LimitsSeen {
        LimitsSeen::default()
    }
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

/// Real bot processes: each seat's current [`BotProcess`] and stderr log,
/// polled together with one `poll(2)` (no thread per pipe or process).
pub(crate) struct Pipes<'a> {
    seats: &'a [Seat],
    opts: &'a RunOptions,
    processes: Vec<Option<BotProcess>>,
    /// Each seat's box (see [`dojo_sandbox::bot_box`]), taken (or made) at its
    /// first start, where there are PID namespaces; given back for a
    /// later game when the game ends (see the `Drop`).
    boxes: Vec<Option<dojo_sandbox::bot_box::BotBox>>,
    /// Each seat's scratch directory for this game (HOME and TMPDIR, the
    /// only place it may write), made at its first start, removed with
    /// the game (after the processes: field order).
    scratch: Vec<Option<dojo_sandbox::plan::Scratch>>,
    /// Each seat's bot start sent to its box ahead of the loop asking
    /// for it (see [`Pipes::start_others`]), finished when it does.
    starting: Vec<Option<dojo_sandbox::bot_box::Starting>>,
    /// Whether the loop has started a process for the seat in this game.
    started: Vec<bool>,
    /// Whether the seat's box refused a start after it had worked, and
    /// was made anew ([`Processes::broke_its_box`]).
    broke: Vec<bool>,
    logs: Vec<CappedLog>,
    /// Each seat's highest memory peak among its retired processes.
    peaks: Vec<Option<u64>>,
    draining: Vec<Draining>,
    /// One read buffer for every pipe of the game.
    buf: crate::process::ReadBuffer,
}

impl<'a> Pipes<'a> {
    pub(crate) fn new(seats: &'a [Seat], opts: &'a RunOptions) -> Self {
        Self {
            seats,
            opts,
            processes: seats.iter().map(|_| None).collect(),
            boxes: seats.iter().map(|_| None).collect(),
            scratch: seats.iter().map(|_| None).collect(),
            starting: seats.iter().map(|_| None).collect(),
            started: vec![false; seats.len()],
            broke: vec![false; seats.len()],
            logs: seats
                .iter()
                .map(|_| CappedLog::new(opts.stderr_cap_bytes))
                .collect(),
            peaks: vec![None; seats.len()],
            draining: Vec::new(),
            buf: crate::process::read_buffer(),
        }
    }
}

impl Pipes<'_> {
    /// Notes in the seat's stderr log a process whose input was closed for
    /// being left unread (see [`BotProcess::send`]).
    fn note_sent(&mut self, seat: usize, sent: Sent) {
        if let Sent::InputClosed { unread } = sent {
            let note = format!(
                "[dojo: the bot left {unread} bytes of its input unread, more than a bot that \
                 reads its prompts leaves: its stdin is closed and it is sent nothing more]\n"
            );
            self.logs[seat].push(note.as_bytes());
        }
    }

    /// A new box for the seat's bot, with a scratch directory (and seat
    /// user) of its own.
    fn make_box(
        &self,
        key: String,
        seat: usize,
        mut containment: dojo_sandbox::sys::Containment,
    ) -> std::io::Result<dojo_sandbox::bot_box::BotBox> {
        let spec = &self.seats[seat];
        let own_user = dojo_sandbox::plan::seat_users(self.opts.controls.sandbox);
        let scratch = match dojo_sandbox::plan::scratch_dir(&spec.bot.name, own_user) {
            Ok(scratch) => scratch,
            // Idle boxes hold seat users too: free them and try again.
            Err(_) if dojo_sandbox::bot_box::drop_idle() > 0 => {
                dojo_sandbox::plan::scratch_dir(&spec.bot.name, own_user)?
            }
            Err(e) => return Err(e),
        };
        containment.seat_id = scratch.seat_id();
        let path = scratch.path().to_path_buf();
        let manifest_cache = spec.bot.manifest_cache();
        let launch = Launch {
            command: &spec.bot.command,
            dir: &spec.bot.dir,
            scratch: Some(&path),
            extra_read: &[],
            manifest: manifest_cache.as_deref(),
            env: &spec.env,
            containment,
            clean_env: true,
            cpu: self.opts.pin_cpu,
        };
        dojo_sandbox::bot_box::BotBox::create(key, &launch, scratch)
    }

    /// The seat's containment, and the key of its box if it gets one:
    /// everything the box is made of but the seat's variables (sent with
    /// each start).
    fn plan(&self, seat: usize) -> (dojo_sandbox::sys::Containment, Option<String>) {
        let opts = self.opts;
        let spec = &self.seats[seat];
        let limits = crate::Limits::from(&opts.for_bot(&spec.bot));
        let mut containment = dojo_sandbox::plan::plan(opts.controls.sandbox, &limits);
        // Under CPU time the bot's cgroup counts every process it ran. A
        // box's group counts it under wall time too: the CPU time sampled
        // after every answer (each move's `cpu_us`) is then one `pread` of
        // the group's kept-open usage file instead of the bot's `/proc`
        // stat, CPU clock and children list (3-6% of a contained league's
        // profile); the group is made once per box, not per process.
        let boxed = dojo_sandbox::bot_box::wanted(&containment);
        containment.group_limits.account_cpu =
            (opts.controls.time == super::options::TimeMode::Cpu || boxed)
                && dojo_sandbox::plan::layer_available("cgroup-cpu");
        let key = boxed.then(|| {
            format!(
                "{:?} {:?} {:?} {:?} {} {} {:?}",
                spec.bot.name,
                spec.bot.command,
                spec.bot.dir,
                limits,
                opts.controls.sandbox,
                containment.group_limits.account_cpu,
                opts.pin_cpu
            )
        });
        (containment, key)
    }

    /// Gives the seat a working box: its own, an idle one made for the
    /// same, or a new one.
    fn ensure_box(
        &mut self,
        seat: usize,
        containment: &dojo_sandbox::sys::Containment,
        key: &str,
    ) -> std::io::Result<()> {
        // Under `fresh_boxes` no box kept by an earlier game (of this run
        // or another on the thread) is taken.
        let mut slot = self.boxes[seat].take();
        let made = dojo_sandbox::lifecycle::ensure(
            &mut slot,
            self.opts.controls.fresh_boxes,
            || dojo_sandbox::bot_box::take_idle(key),
            || self.make_box(key.to_string(), seat, *containment),
        );
        self.boxes[seat] = slot;
        made
    }

    /// At the first start of a game, sends the start of every other seat
    /// that has not started yet to its box, so that the boxes' inits
    /// start the game's bots at the same time instead of one after the
    /// other (the loop asks for them one by one, each waiting for the
    /// last's exec). Each is finished when the loop asks for it; one
    /// that could not be sent is simply started then (which reports
    /// what is wrong).
    fn start_others(&mut self, seat: usize) {
        for other in 0..self.seats.len() {
            if other == seat
                || self.started[other]
                || self.starting[other].is_some()
                || self.processes[other].is_some()
            {
                continue;
            }
            let (containment, Some(key)) = self.plan(other) else {
                continue;
            };
            if self.ensure_box(other, &containment, &key).is_err() {
                continue;
            }
            let env = &self.seats[other].env;
            if let Some(seat_box) = &mut self.boxes[other]
                && let Ok(starting) = seat_box.begin_start(env)
            {
                self.starting[other] = Some(starting);
            }
        }
    }

    /// Finishes a start sent ahead by [`Self::start_others`] that the
    /// loop never asked for (a game that ended first): the process is
    /// killed at once, its box emptied.
    fn drop_unasked(&mut self, seat: usize) {
        if let Some(starting) = self.starting[seat].take()
            && let Some(seat_box) = &mut self.boxes[seat]
        {
            drop(seat_box.finish_start(starting));
        }
    }

    /// One try of [`Processes::start`].
    fn start_once(&mut self, seat: usize, generation: u64) -> std::io::Result<i32> {
        self.retire(seat);
        let opts = self.opts;
        let first = !std::mem::replace(&mut self.started[seat], true);
        let (mut containment, key) = self.plan(seat);
        let spec = &self.seats[seat];
        let process = if let Some(key) = key {
            let sent_ahead = self.starting[seat].take();
            if sent_ahead.is_none() {
                self.ensure_box(seat, &containment, &key)?;
            }
            let Some(seat_box) = &mut self.boxes[seat] else {
                unreachable!("made above, or before the start was sent")
            };
            let started = match sent_ahead {
                Some(starting) => seat_box.finish_start(starting),
                None if first => match seat_box.begin_start(&spec.env) {
                    Ok(starting) => {
                        self.start_others(seat);
                        let Some(seat_box) = &mut self.boxes[seat] else {
                            unreachable!("kept above")
                        };
                        seat_box.finish_start(starting)
                    }
                    Err(e) => Err(e),
                },
                None => seat_box.start(&spec.env),
            };
            let Some(seat_box) = &mut self.boxes[seat] else {
                unreachable!("kept above")
            };
            let occupant = match started {
                Ok(occupant) => occupant,
                // The box died (an idle box's init goes with the thread
                // that made it, and may go just as it is taken), or its
                // init refuses a start after it has started the bot
                // before (something in the box broke it: a bot of the
                // seat, the only one that ran there): once more in a new
                // one, so that no game fails for what a bot did to its
                // box. A bot that cannot start in a fresh box leaves it
                // working, and that error stands; a busy program file is
                // tried again by `start`.
                Err(e) => match dojo_sandbox::lifecycle::refusal(&*seat_box, &e) {
                    Refusal::Stands => return Err(e),
                    Refusal::Replace { broken_by_bot } => {
                        if broken_by_bot {
                            self.broke[seat] = true;
                            self.logs[seat].push(
                                format!(
                                    "dojo: the bot's box refused to start it ({e}) after it had \
                                 started before: made anew\n"
                                )
                                .as_bytes(),
                            );
                        }
                        self.boxes[seat] = None;
                        let made = self.make_box(key, seat, containment)?;
                        self.boxes[seat].insert(made).start(&spec.env)?
                    }
                },
            };
            BotProcess::boxed(seat, generation, opts.max_line_bytes, occupant)
        } else {
            // As a box's init would (it execs with `execve`).
            super::not_runnable::refuse_text_without_interpreter(&spec.bot.command, &spec.bot.dir)?;
            if self.scratch[seat].is_none() {
                self.scratch[seat] = Some(dojo_sandbox::plan::scratch_dir(
                    &spec.bot.name,
                    dojo_sandbox::plan::seat_users(opts.controls.sandbox),
                )?);
            }
            containment.seat_id = self.scratch[seat]
                .as_ref()
                .map_or(0, dojo_sandbox::plan::Scratch::seat_id);
            let manifest_cache = spec.bot.manifest_cache();
            BotProcess::spawn(
                seat,
                generation,
                opts.max_line_bytes,
                Launch {
                    command: &spec.bot.command,
                    dir: &spec.bot.dir,
                    scratch: self.scratch[seat]
                        .as_ref()
                        .map(dojo_sandbox::plan::Scratch::path),
                    extra_read: &[],
                    manifest: manifest_cache.as_deref(),
                    env: &spec.env,
                    containment,
                    clean_env: true,
                    cpu: opts.pin_cpu,
                },
            )?
        };
        let pgid = process.pgid();
        self.processes[seat] = Some(process);
        Ok(pgid)
    }
}

impl Drop for Pipes<'_> {
    /// The processes go first (each empties its box); the boxes are kept
    /// for the next game of the same bot, readied for it (a new scratch
    /// filesystem, the PID counter set back) at once rather than one
    /// after the other: readying is mostly waiting on the kernel, in each
    /// box's init, so every init is asked before any answer is awaited
    /// (no thread: one was made and ended for every game). Under
    /// `fresh_boxes` they are torn down instead (in parallel).
    fn drop(&mut self) {
        let mut boxes = Vec::new();
        for seat in 0..self.processes.len() {
            self.processes[seat] = None;
            self.drop_unasked(seat);
            boxes.extend(self.boxes[seat].take());
        }
        if !self.opts.controls.fresh_boxes {
            for seat_box in &mut boxes {
                seat_box.begin_reset();
            }
            for seat_box in boxes {
                dojo_sandbox::bot_box::give_back(seat_box);
            }
            return;
        }
        let last = boxes.pop();
        std::thread::scope(|s| {
            for seat_box in boxes {
                s.spawn(move || drop(seat_box));
            }
            drop(last);
        });
    }
}

impl Processes for Pipes<'_> {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn start(&mut self, seat: usize, generation: u64) -> std::io::Result<i32> {
        // A program file some process still holds open for writing cannot
        // be run (ETXTBSY). In a process that writes a program and then
        // runs it (a build's output, an inline bot's script), a child
        // forked by another thread meanwhile keeps the writer's descriptor
        // until its own exec, for moments: a few short tries outlast it.
        const TRIES: u32 = 5;
        let mut tried = 1;
        loop {
            match self.start_once(seat, generation) {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tried < TRIES => {
                    std::thread::sleep(std::time::Duration::from_millis(5 << tried));
                    tried += 1;
                }
                started => return started,
            }
        }
    }

    fn send(&mut self, seat: usize, lines: &[String]) {
        if let Some(process) = &mut self.processes[seat] {
            let sent = process.send(lines);
            self.note_sent(seat, sent);
        }
    }

    fn close_input(&mut self, seat: usize) {
        if let Some(process) = &mut self.processes[seat] {
            process.close_input();
        }
    }

    fn defer(&mut self, seat: usize, lines: &[String]) {
        if let Some(process) = &mut self.processes[seat] {
            process.defer(lines);
        }
    }

    fn flush(&mut self, seat: usize) {
        if let Some(process) = &mut self.processes[seat] {
            let sent = process.flush();
            self.note_sent(seat, sent);
        }
    }

    /// Never waits for the stderr pipe: if something outside the group
    /// still holds it open, [`wait`](Self::wait) drains it alongside the
    /// game for up to `end_grace`.
    fn retire(&mut self, seat: usize) {
        // What was held back goes out first, as it would have before.
        self.flush(seat);
        self.peaks[seat] = self.memory_peak(seat);
        if let Some(process) = self.processes[seat].take()
            && let Some(stderr) = process.finish(&mut self.logs[seat])
        {
            self.draining.push(Draining {
                seat,
                stderr,
                until: Instant::now() + self.opts.end_grace,
            });
        }
    }

    fn limits_hit(&mut self, seat: usize, wait: Duration) -> LimitsSeen {
        match &mut self.processes[seat] {
            Some(process) => process.limits_hit(wait),
            None => LimitsSeen::default(),
        }
    }

    fn stderr_position(&self, seat: usize) -> u64 {
        let log = &self.logs[seat];
        match &self.processes[seat] {
            Some(process) => process.stderr_position(log),
            None => log.total_bytes(),
        }
    }

    fn note_stderr(&mut self, seat: usize, text: &str) {
        self.logs[seat].push(text.as_bytes());
    }

    fn broke_its_box(&self, seat: usize) -> bool {
        self.broke[seat]
    }

    fn box_lost(&self, seat: usize) -> bool {
        self.boxes[seat]
            .as_ref()
            .is_some_and(dojo_sandbox::BotBox::lost_with_its_maker)
    }

    /// Stdin takes queued input and stderr goes to the seat's log as
    /// their pipes become ready; only stdout and exits are returned.
    fn wait(&mut self, timeout: Duration) -> Vec<Tagged> {
        let mut fds = Vec::new();
        let mut tags = Vec::new();
        let mut exit_polling = false;
        for process in self.processes.iter().flatten() {
            process.interests(&mut fds, &mut tags);
            exit_polling |= process.needs_exit_polling();
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
        let _ = rustix::event::poll(&mut fds, Some(&dojo_sandbox::sys::timespec(timeout)));
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
                    if let Some(process) = &mut self.processes[seat]
                        && let Some(batch) =
                            process.on_ready(source, &mut self.logs[seat], at, &mut self.buf)
                    {
                        batches.push(batch);
                    }
                }
                Interest::Draining(i) => {
                    let d = &mut self.draining[i];
                    if !crate::process::drain_some(
                        &mut d.stderr,
                        &mut self.logs[d.seat],
                        &mut self.buf,
                    ) {
                        closed.push(i);
                    }
                }
            }
        }
        if exit_polling {
            for (seat, slot) in self.processes.iter_mut().enumerate() {
                if let Some(process) = slot
                    && process.needs_exit_polling()
                    && let Some(batch) =
                        process.on_ready(Source::Exit, &mut self.logs[seat], at, &mut self.buf)
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

    fn shutdown(&mut self) {
        // Every box starts emptying before the first is waited for.
        for process in self.processes.iter_mut().flatten() {
            process.begin_finish();
        }
        // And its init readies it for the next game right after emptying
        // it, without waiting for dojo to read the first answer and ask
        // (one wake-up of the init and of this thread less per box and
        // game); the `Drop` reads the answer. Not a box with a start sent
        // ahead and never finished (the `Drop` finishes it first), nor one
        // torn down after the game.
        if !self.opts.controls.fresh_boxes {
            for (seat_box, starting) in self.boxes.iter_mut().zip(&self.starting) {
                if let Some(seat_box) = seat_box
                    && starting.is_none()
                {
                    seat_box.begin_reset();
                }
            }
        }
        for seat in 0..self.processes.len() {
            self.retire(seat);
        }
        // Pipes held open by escaped descendants: up to `end_grace` more.
        while let Some(until) = self.draining.iter().map(|d| d.until).min() {
            self.wait(until.saturating_duration_since(Instant::now()));
        }
    }

    fn stderr_log(&self, seat: usize) -> &CappedLog {
        &self.logs[seat]
    }

    fn cpu_time(&self, seat: usize) -> Option<Duration> {
        self.processes[seat].as_ref()?.cpu_time()
    }

    fn memory_peak(&self, seat: usize) -> Option<u64> {
        let current = self.processes[seat].as_ref().and_then(|p| p.memory_peak());
        self.peaks[seat].max(current)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use dojo_engine::protocol::{Answer, Notice, Prompt, Referee, Reply};

    use crate::play::{RunOptions, Seat, play};
    use crate::spec::{BotSpec, Mode};

    /// Two seats, two rounds, each seat answering `go` with a number.
    struct TwoRounds(usize);

    impl Referee for TwoRounds {
        type Move = u8;
        fn seats(&self) -> usize {
            2
        }
        fn greeting(&self, _seat: usize) -> Vec<String> {
            Vec::new()
        }
        fn prompts(&self) -> Vec<Prompt> {
            if self.0 >= 2 {
                return Vec::new();
            }
            (0..2)
                .map(|seat| Prompt {
                    seat,
                    lines: vec!["go".to_string()],
                })
                .collect()
        }
        fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<u8> {
            match lines.last().map(|l| l.parse::<u8>()) {
                Some(Ok(n)) => Reply::Complete(n),
                _ => Reply::Invalid("not a number".to_string()),
            }
        }
        fn apply(&mut self, answers: Vec<Answer<u8>>) -> Vec<Notice> {
            assert_eq!(answers[0], Answer::Move(7), "{answers:?}");
            self.0 += 1;
            Vec::new()
        }
        fn farewell(&self) -> Vec<String> {
            Vec::new()
        }
    }

    /// A seat whose bot is `dir/NAME`, a shell script answering 7 to
    /// every `go`.
    fn seat(name: &str, dir: &std::path::Path) -> Seat {
        use std::os::unix::fs::PermissionsExt;
        let program = dir.join(name);
        std::fs::write(
            &program,
            "#!/bin/sh\nwhile read l; do [ \"$l\" = go ] && echo 7; done\n",
        )
        .expect("the bot's program");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))
            .expect("executable");
        Seat::new(Arc::new(BotSpec {
            name: name.to_string(),
            command: vec![program.to_string_lossy().into_owned()],
            dir: dir.to_path_buf(),
            build: None,
            mode: Mode::Persistent,
            games: Vec::new(),
            team: None,
            description: None,
            values: Default::default(),
        }))
    }

    /// Whether seats get boxes with `opts` on this machine; if not, says
    /// the test is skipped.
    fn boxes_here(opts: &RunOptions) -> bool {
        let limits = crate::Limits::from(&opts.controls);
        let wanted = dojo_sandbox::bot_box::wanted(&dojo_sandbox::plan::plan(
            opts.controls.sandbox,
            &limits,
        ));
        if !wanted {
            eprintln!("skipped: no boxes here");
        }
        wanted
    }

    fn generous() -> RunOptions {
        RunOptions::from(crate::Controls {
            timeout: std::time::Duration::from_secs(10),
            ..crate::Controls::default()
        })
    }

    /// Two seats, `self.0` rounds in which only seat 0 is asked: seat 1's
    /// bot is started with seat 0's (its start sent ahead) and never
    /// asked for, so the game's end finishes its start.
    struct SeatZeroOnly(usize);

    impl Referee for SeatZeroOnly {
        type Move = u8;
        fn seats(&self) -> usize {
            2
        }
        fn greeting(&self, _seat: usize) -> Vec<String> {
            Vec::new()
        }
        fn prompts(&self) -> Vec<Prompt> {
            if self.0 == 0 {
                return Vec::new();
            }
            vec![Prompt {
                seat: 0,
                lines: vec!["go".to_string()],
            }]
        }
        fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<u8> {
            match lines.last().map(|l| l.parse::<u8>()) {
                Some(Ok(n)) => Reply::Complete(n),
                _ => Reply::Invalid("not a number".to_string()),
            }
        }
        fn apply(&mut self, _answers: Vec<Answer<u8>>) -> Vec<Notice> {
            self.0 -= 1;
            Vec::new()
        }
        fn farewell(&self) -> Vec<String> {
            Vec::new()
        }
    }

    /// At a game's end each box's init is asked to empty it and, right
    /// behind, to ready it for the next game, and only then are the
    /// answers read, in order: the boxes are kept and the next games of
    /// the same bots on the thread start in them, also after a game in
    /// which a seat's start was sent ahead and never asked for. Had an
    /// answer been taken for another's, the box would have counted as
    /// broken and been made anew (another init).
    #[test]
    fn boxes_are_readied_at_the_games_end_and_reused_whole() {
        let opts = generous();
        if !boxes_here(&opts) {
            return;
        }
        let tmp = tempfile::tempdir().expect("a bot directory");
        let dir = tmp.path().canonicalize().expect("its real path");
        let seats = [seat("ready-a", &dir), seat("ready-b", &dir)];
        let inits = || {
            let mut inits = dojo_sandbox::bot_box::idle_inits_of_this_thread();
            inits.sort_unstable();
            inits
        };
        play(&mut TwoRounds(0), &seats, &opts).expect("the first game is played");
        let kept = inits();
        assert_eq!(kept.len(), 2, "each seat's box is kept");
        play(&mut TwoRounds(0), &seats, &opts).expect("the second game is played");
        assert_eq!(inits(), kept, "the same boxes, readied");
        let mut one_seat = SeatZeroOnly(2);
        let run = play(&mut one_seat, &seats, &opts).expect("the one-seat game is played");
        assert_eq!(one_seat.0, 0);
        assert_eq!(run.seats[1].spawns, 0, "{:?}", run.seats[1]);
        assert_eq!(inits(), kept, "the unasked seat's box too");
        let run = play(&mut TwoRounds(0), &seats, &opts).expect("the last game is played");
        assert!(run.seats.iter().all(|s| s.faults.total() == 0), "{run:?}");
        assert_eq!(inits(), kept);
    }

    /// Plays a game of two fresh bots (`a` and `b` in a new directory) on
    /// this thread, then breaks both seats' idle boxes from outside, as a
    /// bot that reached its init could: their inits' open-files limit set
    /// to 4, so they can receive no pipe and refuse every start (EBUSY).
    /// `None` where there are no boxes.
    fn broken_boxes() -> Option<(tempfile::TempDir, [Seat; 2])> {
        let opts = generous();
        if !boxes_here(&opts) {
            return None;
        }
        let tmp = tempfile::tempdir().expect("a bot directory");
        let dir = tmp.path().canonicalize().expect("its real path");
        let seats = [seat("box-breaker-a", &dir), seat("box-breaker-b", &dir)];
        play(&mut TwoRounds(0), &seats, &opts).expect("the first game is played");
        let inits = dojo_sandbox::bot_box::idle_inits_of_this_thread();
        assert_eq!(inits.len(), 2, "each seat's box is kept");
        let four = rustix::process::Rlimit {
            current: Some(4),
            maximum: Some(4),
        };
        for pid in inits {
            let pid = rustix::process::Pid::from_raw(pid).expect("a pid");
            rustix::process::prlimit(Some(pid), rustix::process::Resource::Nofile, four)
                .expect("dojo may change its boxes' inits");
        }
        Some((tmp, seats))
    }

    /// A box whose init refuses a start after it has started the bot is
    /// made anew at the next start, and the game is played, rather than
    /// failing and staying unplayed.
    #[test]
    fn a_box_that_refuses_a_start_after_it_worked_is_made_anew() {
        let Some((_tmp, seats)) = broken_boxes() else {
            return;
        };
        let opts = generous();
        let run = play(&mut TwoRounds(0), &seats, &opts).expect("the second game is played");
        for seat in &run.seats {
            assert_eq!(seat.faults.total(), 0, "{seat:?}");
            assert!(seat.stderr.contains("made anew"), "{}", seat.stderr);
        }
        // The new boxes work: a third game starts in them as it is.
        let run = play(&mut TwoRounds(0), &seats, &opts).expect("the third game is played");
        assert!(run.seats.iter().all(|s| !s.stderr.contains("made anew")));
    }

    /// Under `fresh_boxes` a game neither takes a box an earlier game on
    /// its thread kept (here one of the same bots') nor keeps its own.
    #[test]
    fn with_fresh_boxes_no_box_is_taken_or_kept() {
        let opts = generous();
        if !boxes_here(&opts) {
            return;
        }
        let tmp = tempfile::tempdir().expect("a bot directory");
        let dir = tmp.path().canonicalize().expect("its real path");
        let seats = [seat("fresh-a", &dir), seat("fresh-b", &dir)];
        play(&mut TwoRounds(0), &seats, &opts).expect("the first game is played");
        let mut kept = dojo_sandbox::bot_box::idle_inits_of_this_thread();
        kept.sort_unstable();
        assert_eq!(kept.len(), 2, "each seat's box is kept");
        let mut fresh = generous();
        fresh.controls.fresh_boxes = true;
        play(&mut TwoRounds(0), &seats, &fresh).expect("the fresh game is played");
        // Had it taken the kept boxes they would be gone (torn down after
        // it); had it kept its own, they would be here too.
        let mut after = dojo_sandbox::bot_box::idle_inits_of_this_thread();
        after.sort_unstable();
        assert_eq!(after, kept);
    }

    /// A bot that broke its box and cannot start in the new one either
    /// (here it also took its own program's execute bits, as a bot may
    /// where nothing keeps it from its files) is charged a crash for each
    /// prompt, as after a restart that fails: the game is played, not
    /// failed and left unplayed.
    #[test]
    fn a_bot_that_broke_its_box_and_cannot_start_again_is_charged() {
        use std::os::unix::fs::PermissionsExt;
        let Some((tmp, seats)) = broken_boxes() else {
            return;
        };
        let program = tmp.path().join("box-breaker-b");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let mut referee = TwoRounds(0);
        let run = play(&mut referee, &seats, &generous()).expect("the second game is played");
        assert_eq!(referee.0, 2, "every round is played");
        assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
        assert_eq!(run.seats[1].faults.crash, 2, "{:?}", run.seats[1]);
    }
}

//! One bot process: spawned in its own process group, its three pipes
//! non-blocking, its exit observed through a pidfd. It has no threads: the
//! game loop polls every process's descriptors at once (see
//! [`BotProcess::interests`]) and hands back whatever became ready
//! ([`BotProcess::on_ready`]).

use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::time::Instant;

use rustix::event::{PollFd, PollFlags};

use crate::lines::{LineBuffer, LineEvent};
use crate::stderr_log::CappedLog;
use dojo_sandbox::spawn::Launch;
use dojo_sandbox::sys::{self, ExitKind};
use dojo_sandbox::tenant::{Pipes, Tenant, spawn_contained};

/// Bytes taken from a pipe by one read.
const READ_CHUNK: usize = 64 * 1024;

/// Input a process may leave unread in dojo, beyond what its pipe holds,
/// as a multiple of the largest single send it was given: a bot reads a
/// prompt before it answers, so its backlog stays within about one send;
/// one that never reads would make dojo keep every prompt of its game
/// (rounds times the board's size).
const UNREAD_SENDS: usize = 4;
/// The least backlog allowed, whatever the sends' sizes.
const UNREAD_FLOOR: usize = 64 * 1024;

/// Whether a [`BotProcess::send`] found the process reading its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub(crate) enum Sent {
    /// Queued (and written as far as the pipe took it), or nothing to do.
    Queued,
    /// The process had left more unread than [`UNREAD_SENDS`] sends: its
    /// input is dropped and its stdin closed (its answers still count;
    /// it reads nothing more).
    InputClosed { unread: usize },
}

/// What a bot process did, as seen by the game loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// A line on stdout (terminator removed).
    Line(String),
    /// A stdout line over the cap (the rest of it was skipped).
    TooLong,
    /// Stdout closed: every line the process wrote has been delivered.
    Eof,
    /// The process ended (not yet reaped: its owner kills and reaps it).
    Exited(ExitKind),
}

/// Events tagged with the seat and the generation (the how-many-th
/// process of that seat) they came from, so events of a process that has
/// since been killed or replaced can be told apart and dropped.
///
/// Lines that arrived in one read form one batch: an answer and chatter
/// written right after it are then seen together, before the next prompt
/// goes out, so the chatter cannot pass for the next answer.
#[derive(Debug)]
pub(crate) struct Tagged {
    pub(crate) seat: usize,
    pub(crate) generation: u64,
    pub(crate) events: Vec<Event>,
    /// When the poll that found the events returned: deadlines are judged
    /// by this, not by when the game loop gets round to them.
    pub(crate) at: Instant,
}

/// Which descriptor of a process a poll entry stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Stdin,
    Stdout,
    Stderr,
    Exit,
}

/// What a process's end showed of the limits around it (see
/// [`BotProcess::limits_hit`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct LimitsSeen {
    /// The bot's own limits it ran into, by name: each a `limit` fault.
    pub(crate) hit: Vec<&'static str>,
    /// The OOM killer took one of its processes while it was under its
    /// own memory cap: memory ran out for the machine (or a control group
    /// above the bot's), which is not the bot's doing.
    pub(crate) memory_elsewhere: bool,
}

/// A running bot process.
#[derive(Debug)]
pub(crate) struct BotProcess {
    seat: usize,
    generation: u64,
    // Field order matters on drop: close the pipes, then kill and reap.
    stdin: Option<ChildStdin>,
    /// Bytes queued for stdin that the pipe has not taken yet.
    unwritten: Vec<u8>,
    /// Lines held back by [`Self::defer`] to go out with the next
    /// [`Self::send`] (or [`Self::flush`]).
    held: Vec<u8>,
    /// Close stdin once `unwritten` is empty.
    close_when_written: bool,
    /// The largest single send so far, in bytes (what bounds the backlog
    /// of a process that reads its input).
    largest_send: usize,
    stdout: Option<ChildStdout>,
    lines: LineBuffer,
    stderr: Option<ChildStderr>,
    /// Readable once the process has ended; `None` where pidfds are not
    /// available (the loop then asks `waitid` on every wake-up).
    pidfd: Option<OwnedFd>,
    /// Set once the exit has been seen (and reported).
    exit: Option<ExitKind>,
    /// [`Self::limits_hit`] has been asked.
    limits_asked: bool,
    /// Its end, accounting and kill (a box's program or one of dojo's
    /// own: see [`dojo_sandbox::tenant`]).
    tenant: Tenant,
}

impl BotProcess {
    /// Starts the process with non-blocking pipes, as `generation` of
    /// `seat` (its events carry both).
    pub(crate) fn spawn(
        seat: usize,
        generation: u64,
        max_line_bytes: usize,
        launch: Launch<'_>,
    ) -> std::io::Result<Self> {
        let (pipes, tenant) = spawn_contained(&launch)?;
        Ok(Self::wrap(seat, generation, max_line_bytes, pipes, tenant))
    }

    /// A process a box's init started: `exit_fd` is readable when the
    /// init has something to say (its end, see [`dojo_sandbox::bot_box`]).
    pub(crate) fn boxed(
        seat: usize,
        generation: u64,
        max_line_bytes: usize,
        occupant: dojo_sandbox::bot_box::Occupant,
    ) -> Self {
        let (pipes, tenant) = Tenant::boxed(occupant);
        Self::wrap(seat, generation, max_line_bytes, pipes, tenant)
    }

    /// A started program's pipes and tenant as the game loop's process.
    fn wrap(
        seat: usize,
        generation: u64,
        max_line_bytes: usize,
        pipes: Pipes,
        tenant: Tenant,
    ) -> Self {
        Self {
            seat,
            generation,
            stdin: pipes.stdin,
            unwritten: Vec::new(),
            held: Vec::new(),
            close_when_written: false,
            largest_send: 0,
            stdout: pipes.stdout,
            lines: LineBuffer::new(max_line_bytes),
            stderr: pipes.stderr,
            pidfd: pipes.exit,
            exit: None,
            limits_asked: false,
            tenant,
        }
    }

    /// How the process ended, if it has (never reaping it: its owner
    /// does that).
    fn ended(&mut self) -> Option<ExitKind> {
        self.tenant.ended(self.pidfd.as_ref())
    }

    /// CPU time used so far by the process and its descendants: from its
    /// cgroup where it counts CPU (every process it ever ran), else from
    /// its live tree in `/proc` (see [`dojo_sandbox::cputime`]).
    pub(crate) fn cpu_time(&self) -> Option<std::time::Duration> {
        self.tenant.cpu_time()
    }

    /// The most memory the process's tree used at once, in bytes, from
    /// its memory group (its box's, reset when the box started it);
    /// `None` without one.
    pub(crate) fn memory_peak(&self) -> Option<u64> {
        self.tenant.memory_peak()
    }

    /// The limits this process (or anything it started) ran into, by name:
    /// `processes` and `memory` from its control groups, `cpu` and
    /// `file-size` from the signal it died of; and whether the OOM killer
    /// took it though it was under its memory cap. Asked once per process
    /// (nothing after that). A process whose stdout closed may not have
    /// ended yet: up to `wait` is spent waiting for its exit status.
    pub(crate) fn limits_hit(&mut self, wait: std::time::Duration) -> LimitsSeen {
        let mut seen = LimitsSeen::default();
        if std::mem::replace(&mut self.limits_asked, true) {
            return seen;
        }
        for hit in self.tenant.group_hits() {
            seen.hit.push(match hit {
                dojo_sandbox::cgroup::Hit::Processes => "processes",
                dojo_sandbox::cgroup::Hit::Memory => "memory",
                dojo_sandbox::cgroup::Hit::Cpu => "cpu",
                dojo_sandbox::cgroup::Hit::MemoryElsewhere => {
                    seen.memory_elsewhere = true;
                    continue;
                }
            });
        }
        let mut exit = self.exit.or_else(|| self.ended());
        if exit.is_none()
            && !wait.is_zero()
            && let Some(pidfd) = &self.pidfd
        {
            let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
            let _ = rustix::event::poll(&mut fds, Some(&sys::timespec(wait)));
            exit = self.ended();
        }
        match exit {
            Some(ExitKind::Signal(libc::SIGXCPU)) if !seen.hit.contains(&"cpu") => {
                seen.hit.push("cpu");
            }
            Some(ExitKind::Signal(libc::SIGXFSZ)) => seen.hit.push("file-size"),
            _ => {}
        }
        seen
    }

    /// The process group id (equal to the pid; 0 for a process of a box
    /// that ended before dojo could see it).
    pub(crate) fn pgid(&self) -> i32 {
        self.tenant.pgid()
    }

    /// The position in the seat's stderr stream (see
    /// [`CappedLog::total_bytes`]) up to which everything the process has
    /// written to stderr so far will be: what `log` holds plus what still
    /// waits in the pipe.
    pub(crate) fn stderr_position(&self, log: &CappedLog) -> u64 {
        let pending = self
            .stderr
            .as_ref()
            .map_or(0, |fd| rustix::io::ioctl_fionread(fd).unwrap_or(0));
        log.total_bytes() + pending
    }

    /// Queues lines for stdin and writes what the pipe takes now; the rest
    /// goes out as the bot reads. Never blocks. A process that has left
    /// more than [`UNREAD_SENDS`] times its largest send unread (beyond
    /// what its pipe holds) reads nothing more: its input is dropped and
    /// its stdin closed, so dojo keeps no more of it.
    pub(crate) fn send(&mut self, lines: &[String]) -> Sent {
        if self.stdin.is_none() {
            return Sent::Queued;
        }
        let before = self.unwritten.len();
        self.release_held();
        for line in lines {
            self.unwritten.extend_from_slice(line.as_bytes());
            self.unwritten.push(b'\n');
        }
        self.largest_send = self.largest_send.max(self.unwritten.len() - before);
        if !self.unwritten.is_empty() {
            self.write_some();
        }
        let unread = self.unwritten.len();
        if unread > (UNREAD_SENDS * self.largest_send).max(UNREAD_FLOOR) {
            self.unwritten = Vec::new();
            self.stdin = None;
            return Sent::InputClosed { unread };
        }
        Sent::Queued
    }

    /// Holds lines back to go out with the next [`Self::send`], in one
    /// write: a round's result and the next prompt wake the bot once, not
    /// twice. [`Self::flush`] sends them alone.
    pub(crate) fn defer(&mut self, lines: &[String]) {
        if self.stdin.is_none() {
            return;
        }
        for line in lines {
            self.held.extend_from_slice(line.as_bytes());
            self.held.push(b'\n');
        }
    }

    /// Sends what [`Self::defer`] holds, now (as [`Self::send`]).
    pub(crate) fn flush(&mut self) -> Sent {
        if self.held.is_empty() {
            return Sent::Queued;
        }
        self.send(&[])
    }

    fn release_held(&mut self) {
        if self.unwritten.is_empty() {
            std::mem::swap(&mut self.unwritten, &mut self.held);
        } else {
            self.unwritten.append(&mut self.held);
        }
    }

    /// Closes stdin once everything queued has been written.
    pub(crate) fn close_input(&mut self) {
        self.release_held();
        self.close_when_written = true;
        self.write_some();
    }

    fn write_some(&mut self) {
        let Some(stdin) = &mut self.stdin else {
            self.unwritten.clear();
            return;
        };
        while !self.unwritten.is_empty() {
            match stdin.write(&self.unwritten) {
                Ok(n) => {
                    self.unwritten.drain(..n);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                // The bot closed its stdin or died: that shows up on its
                // other descriptors; what it did not read is dropped.
                Err(_) => {
                    self.unwritten.clear();
                    self.stdin = None;
                    return;
                }
            }
        }
        if self.close_when_written {
            self.stdin = None;
        }
    }

    /// Adds the descriptors this process waits on to a poll set, each with
    /// its seat and source in `tags`.
    pub(crate) fn interests<'a>(
        &'a self,
        fds: &mut Vec<PollFd<'a>>,
        tags: &mut Vec<(usize, Source)>,
    ) {
        let mut add = |fd: std::os::fd::BorrowedFd<'a>, flags: PollFlags, source: Source| {
            fds.push(PollFd::from_borrowed_fd(fd, flags));
            tags.push((self.seat, source));
        };
        if let Some(stdin) = &self.stdin
            && !self.unwritten.is_empty()
        {
            add(stdin.as_fd(), PollFlags::OUT, Source::Stdin);
        }
        if let Some(stdout) = &self.stdout {
            add(stdout.as_fd(), PollFlags::IN, Source::Stdout);
        }
        if let Some(stderr) = &self.stderr {
            add(stderr.as_fd(), PollFlags::IN, Source::Stderr);
        }
        if self.exit.is_none()
            && let Some(pidfd) = &self.pidfd
        {
            add(pidfd.as_fd(), PollFlags::IN, Source::Exit);
        }
    }

    /// Whether the loop must look for this process's exit itself (no
    /// pidfd), so it should not sleep long.
    pub(crate) fn needs_exit_polling(&self) -> bool {
        self.exit.is_none() && (self.pidfd.is_none() || self.tenant.end_read())
    }

    /// Handles a ready descriptor (or, for [`Source::Exit`] without a
    /// pidfd, a periodic check): stdout lines and exits become events in
    /// one batch, stderr goes to `log`, queued input is written.
    pub(crate) fn on_ready(
        &mut self,
        source: Source,
        log: &mut CappedLog,
        at: Instant,
        buf: &mut [u8],
    ) -> Option<Tagged> {
        let mut events = Vec::new();
        match source {
            Source::Stdin => self.write_some(),
            Source::Stdout => {
                self.read_stdout(buf, &mut events);
            }
            Source::Stderr => self.read_stderr(log, buf),
            Source::Exit => {
                if self.exit.is_none()
                    && let Some(kind) = self.ended()
                {
                    self.exit = Some(kind);
                    events.push(Event::Exited(kind));
                }
            }
        }
        (!events.is_empty()).then_some(Tagged {
            seat: self.seat,
            generation: self.generation,
            events,
            at,
        })
    }

    /// Reads what stdout holds now, up to 1024 reads (64 MiB): for a
    /// process that has exited, the lines it wrote just before it did,
    /// which one read on readiness may not have reached (a compiler's
    /// errors at the end of a long output).
    pub(crate) fn drain_stdout(&mut self, buf: &mut [u8]) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..1024 {
            if !self.read_stdout(buf, &mut events) {
                break;
            }
        }
        events
    }

    /// One read of stdout into `events`; false when nothing more is there
    /// now (would block) or the pipe is closed.
    fn read_stdout(&mut self, buf: &mut [u8], events: &mut Vec<Event>) -> bool {
        let Some(stdout) = &mut self.stdout else {
            return false;
        };
        let mut push = |e: LineEvent| {
            events.push(match e {
                LineEvent::Line(line) => Event::Line(line),
                LineEvent::TooLong => Event::TooLong,
                LineEvent::Eof => Event::Eof,
            })
        };
        match read_once(stdout, buf) {
            Some(0) => {
                self.lines.finish(&mut push);
                self.stdout = None;
                false
            }
            Some(n) => {
                self.lines.push(&buf[..n], &mut push);
                true
            }
            None => false,
        }
    }

    fn read_stderr(&mut self, log: &mut CappedLog, buf: &mut [u8]) {
        let Some(stderr) = &mut self.stderr else {
            return;
        };
        match read_once(stderr, buf) {
            Some(0) => self.stderr = None,
            Some(n) => log.push(&buf[..n]),
            None => {}
        }
    }

    /// Starts ending a boxed process without waiting (see
    /// [`Tenant::begin_kill`]); [`Self::finish`] completes it. Nothing
    /// for a process of dojo's own.
    pub(crate) fn begin_finish(&mut self) {
        self.tenant.begin_kill();
    }

    /// Kills the group, reaps the child and takes what its stderr pipe
    /// holds into `log`. Returns the pipe if it is still open (a
    /// descendant that escaped the group holds it), for the caller to
    /// drain without blocking on it here.
    pub(crate) fn finish(mut self, log: &mut CappedLog) -> Option<ChildStderr> {
        self.stdin = None;
        self.stdout = None;
        let mut stderr = self.stderr.take();
        drop(self);
        let mut buf = [0u8; 8 * 1024];
        if let Some(pipe) = &mut stderr
            && !drain_some(pipe, log, &mut buf)
        {
            stderr = None;
        }
        stderr
    }
}

/// Moves what a stderr pipe holds into `log` (a bounded amount, so a
/// writer that never stops cannot keep the caller here); false once the
/// pipe is closed.
pub(crate) fn drain_some(stderr: &mut ChildStderr, log: &mut CappedLog, buf: &mut [u8]) -> bool {
    for _ in 0..16 {
        match read_once(stderr, buf) {
            Some(0) => return false,
            Some(n) => log.push(&buf[..n]),
            None => return true,
        }
    }
    true
}

/// One non-blocking read: `Some(0)` at end of file (or on an error, which
/// means the same to us), `None` if nothing was there after all.
fn read_once(source: &mut impl Read, buf: &mut [u8]) -> Option<usize> {
    loop {
        match source.read(buf) {
            Ok(n) => return Some(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => return None,
            Err(_) => return Some(0),
        }
    }
}

/// A read buffer for [`BotProcess::on_ready`]: the last one this thread
/// gave back, or a new one. A game takes one for all its pipes and gives
/// it back when it ends, so a worker allocates (and zeroes) its 64 KiB
/// once, not once per game: sixteen pages written per game, each a
/// copy-on-write fault with a TLB shootdown while a box is being forked.
pub(crate) fn read_buffer() -> ReadBuffer {
    let kept = KEPT_BUFFER.take();
    ReadBuffer(if kept.len() == READ_CHUNK {
        kept
    } else {
        vec![0u8; READ_CHUNK]
    })
}

thread_local! {
    /// The read buffer the thread's last game gave back (empty: none).
    static KEPT_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A read buffer, given back to its thread when dropped (see
/// [`read_buffer`]). What it holds is whatever the last read left: only
/// the bytes a read returns are ever looked at.
pub(crate) struct ReadBuffer(Vec<u8>);

impl std::ops::Deref for ReadBuffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for ReadBuffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl Drop for ReadBuffer {
    fn drop(&mut self) {
        // A thread that is ending drops it instead.
        let buf = std::mem::take(&mut self.0);
        let _ = KEPT_BUFFER.try_with(|kept| kept.set(buf));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A thread's games share one read buffer: the next game takes the
    /// one the last gave back, and two at once on a thread (a game inside
    /// a build's, say) each have their own.
    #[test]
    fn a_read_buffer_is_given_back_and_taken_again_by_its_thread() {
        std::thread::spawn(|| {
            let first = read_buffer();
            assert_eq!(first.len(), READ_CHUNK);
            let at = first.as_ptr();
            let second = read_buffer();
            assert_ne!(second.as_ptr(), at, "one in use is not handed out");
            drop(second);
            drop(first);
            let again = read_buffer();
            assert_eq!(again.as_ptr(), at, "the last one given back is reused");
            assert_eq!(again.len(), READ_CHUNK);
        })
        .join()
        .expect("the thread");
    }

    fn spawn(script: &str) -> BotProcess {
        let command = ["sh".to_string(), "-c".to_string(), script.to_string()];
        BotProcess::spawn(
            0,
            1,
            100,
            Launch {
                command: &command,
                dir: std::path::Path::new("/"),
                scratch: None,
                extra_read: &[],
                manifest: None,
                env: &[],
                containment: dojo_sandbox::plan::plan(
                    dojo_sandbox::plan::SandboxMode::Auto,
                    &crate::Limits::from(&crate::Controls::default()),
                ),
                clean_env: true,
                cpu: None,
            },
        )
        .expect("sh starts")
    }

    #[test]
    fn exit_is_seen_through_the_pidfd_or_by_asking_without_one() {
        for with_pidfd in [true, false] {
            let mut process = spawn("echo hi; echo oops >&2; exit 3");
            if !with_pidfd {
                // As on a kernel without pidfds.
                process.pidfd = None;
            }
            assert_eq!(process.needs_exit_polling(), !with_pidfd);
            let (mut log, mut buf) = (CappedLog::new(100), read_buffer());
            let mut events = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(10);
            while !events.iter().any(|e| matches!(e, Event::Exited(_))) {
                assert!(Instant::now() < deadline, "no exit seen: {events:?}");
                let mut fds = Vec::new();
                let mut tags = Vec::new();
                process.interests(&mut fds, &mut tags);
                let timeout = dojo_sandbox::sys::timespec(Duration::from_millis(10));
                let _ = rustix::event::poll(&mut fds, Some(&timeout));
                let mut ready: Vec<Source> = fds
                    .iter()
                    .zip(&tags)
                    .filter(|(fd, _)| !fd.revents().is_empty())
                    .map(|(_, &(_, source))| source)
                    .collect();
                drop(fds);
                if process.needs_exit_polling() {
                    ready.push(Source::Exit);
                }
                for source in ready {
                    if let Some(batch) =
                        process.on_ready(source, &mut log, Instant::now(), &mut buf)
                    {
                        events.extend(batch.events);
                    }
                }
            }
            assert!(events.contains(&Event::Line("hi".into())), "{events:?}");
            assert!(events.contains(&Event::Exited(ExitKind::Code(3))));
            assert!(!process.needs_exit_polling());
            let pgid = process.pgid();
            // A process another test thread forks at this moment holds a
            // copy of the stderr pipe until its exec, so the pipe may not
            // be at its end yet: drain it as the game loop does.
            if let Some(mut pipe) = process.finish(&mut log) {
                drain_to_end(&mut pipe, &mut log);
            }
            assert_eq!(log.render(), "oops\n");
            assert!(group_gone(pgid));
        }
    }

    #[test]
    fn input_the_bot_does_not_read_is_queued_not_blocking_and_then_dropped() {
        // Sleeps without reading stdin: the pipe fills up, send returns.
        let mut process = spawn("sleep 30");
        let line = vec!["x".repeat(1000)];
        let mut sends = 0;
        let unread = loop {
            sends += 1;
            assert!(sends < 1000, "1 MB queued and still taken");
            match process.send(&line) {
                Sent::Queued => continue,
                Sent::InputClosed { unread } => break unread,
            }
        };
        // Past what its pipe holds, no more than the floor's worth of
        // 1 KB sends waited in dojo, then its input was dropped: dojo
        // keeps none of it, and sends nothing more.
        assert!(
            unread > UNREAD_FLOOR && unread <= UNREAD_FLOOR + 1001,
            "{unread}"
        );
        assert!(sends > UNREAD_FLOOR / 1001, "{sends} sends");
        assert!(process.unwritten.is_empty() && process.stdin.is_none());
        assert_eq!(process.send(&line), Sent::Queued);
        assert!(process.unwritten.is_empty());
        let mut log = CappedLog::new(100);
        let pgid = process.pgid();
        process.finish(&mut log);
        assert!(group_gone(pgid));
    }

    #[test]
    fn deferred_lines_go_out_first_with_the_next_send_or_a_flush() {
        let mut process = spawn(r#"read a; read b; read c; echo "$a|$b|$c""#);
        process.defer(&["one".to_string()]);
        // Held back: nothing written yet, so nothing to wake the bot.
        assert!(process.unwritten.is_empty() && !process.held.is_empty());
        let _ = process.send(&["two".to_string()]);
        assert!(process.held.is_empty());
        process.defer(&["three".to_string()]);
        let _ = process.flush();
        assert!(process.held.is_empty());
        let (mut log, mut buf) = (CappedLog::new(100), read_buffer());
        let mut events = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !events.iter().any(|e| matches!(e, Event::Line(_))) {
            assert!(Instant::now() < deadline, "no line: {events:?}");
            if let Some(stdout) = &process.stdout {
                let mut fds = [PollFd::new(stdout, PollFlags::IN)];
                let timeout = dojo_sandbox::sys::timespec(Duration::from_millis(100));
                let _ = rustix::event::poll(&mut fds, Some(&timeout));
            }
            if let Some(batch) =
                process.on_ready(Source::Stdout, &mut log, Instant::now(), &mut buf)
            {
                events.extend(batch.events);
            }
        }
        assert_eq!(events[0], Event::Line("one|two|three".into()));
        let pgid = process.pgid();
        process.finish(&mut log);
        assert!(group_gone(pgid));
    }

    /// How a process ended, waiting for it on its pidfd.
    fn exit_of(process: &BotProcess) -> ExitKind {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(kind) = dojo_sandbox::sys::exited_no_reap(process.pgid()) {
                return kind;
            }
            assert!(Instant::now() < deadline, "the process never ended");
            if let Some(pidfd) = &process.pidfd {
                let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
                let timeout = dojo_sandbox::sys::timespec(Duration::from_millis(100));
                let _ = rustix::event::poll(&mut fds, Some(&timeout));
            }
        }
    }

    #[test]
    fn a_sweep_never_takes_a_process_being_spawned_or_retired() {
        use std::sync::atomic::{AtomicBool, Ordering};
        // Every spawned process is, before it execs, in a process group
        // of its own and so looks like an escapee until it is tracked:
        // sweeps on another thread, as fast as they go, must still never
        // kill one.
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let sweeper = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut sweeps = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    dojo_sandbox::reaper::sweep();
                    sweeps += 1;
                }
                sweeps
            })
        };
        let workers: Vec<_> = (0..2)
            .map(|_| {
                std::thread::spawn(|| {
                    for _ in 0..25 {
                        let process = spawn("exit 7");
                        assert_eq!(exit_of(&process), ExitKind::Code(7));
                        process.finish(&mut CappedLog::new(100));
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("no process was swept");
        }
        stop.store(true, Ordering::Relaxed);
        assert!(sweeper.join().expect("sweeper") > 0);
    }

    /// Reads `pipe` into `log` until its end, for at most ten seconds.
    fn drain_to_end(pipe: &mut ChildStderr, log: &mut CappedLog) {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut buf = read_buffer();
        while drain_some(pipe, log, &mut buf) {
            assert!(Instant::now() < deadline, "stderr never reached its end");
            let mut fds = [PollFd::new(&*pipe, PollFlags::IN)];
            let _ = rustix::event::poll(
                &mut fds,
                Some(&dojo_sandbox::sys::timespec(Duration::from_millis(50))),
            );
        }
    }

    /// Whether every member of the group `pgid` is dead within ten
    /// seconds. The direct child is reaped by the drop; other members
    /// were sent SIGKILL and die once the kernel schedules them, which
    /// on a loaded machine is not at once. They are not our children, so
    /// there is nothing to wait on but /proc.
    fn group_gone(pgid: i32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while dojo_sandbox::sys::process_group_alive(pgid) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::yield_now();
        }
        true
    }
}

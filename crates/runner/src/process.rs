//! One bot process: spawned in its own process group, with a writer
//! thread, a capped stdout line reader, a stderr drainer and an exit
//! watcher, all reporting into the game's single event channel.

use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::lines::{CappedLines, LineEvent};
use crate::stderr_log::CappedLog;
use crate::sys::{self, ExitKind};

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
/// Lines that arrived in one read are sent as one batch: an answer and
/// chatter written right after it are then seen together, before the next
/// prompt goes out, so the chatter cannot pass for the next answer.
#[derive(Debug)]
pub(crate) struct Tagged {
    pub(crate) seat: usize,
    pub(crate) generation: u64,
    pub(crate) events: Vec<Event>,
    /// When the reader thread had the events: deadlines are judged by this,
    /// not by when the game loop gets round to them.
    pub(crate) at: Instant,
}

/// Everything needed to start one process.
#[derive(Debug)]
pub(crate) struct Launch<'a> {
    pub(crate) command: &'a [String],
    pub(crate) dir: &'a Path,
    pub(crate) env: &'a [(String, String)],
    pub(crate) seat: usize,
    pub(crate) generation: u64,
    pub(crate) max_line_bytes: usize,
    pub(crate) events: SyncSender<Tagged>,
    pub(crate) stderr_log: Arc<Mutex<CappedLog>>,
}

/// Owns a child: dropping it kills the child's whole process group and
/// reaps the child, whatever state it is in.
#[derive(Debug)]
struct GroupGuard {
    child: Child,
    pgid: i32,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        sys::unregister_and_kill_group(self.pgid);
        // The child itself too: it may have left its group (setpgid), and
        // then only a direct kill keeps the reap below from blocking.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running bot process.
#[derive(Debug)]
pub(crate) struct BotProcess {
    // Field order matters on drop: close input, then kill and reap.
    input: Option<Sender<String>>,
    guard: GroupGuard,
    stderr_done: Receiver<()>,
    /// A duplicate of the stderr pipe's read end, to ask how many bytes
    /// wait in it (see [`BotProcess::stderr_position`]).
    stderr_peek: Option<OwnedFd>,
    stderr_log: Arc<Mutex<CappedLog>>,
}

impl BotProcess {
    /// Starts the process and its helper threads.
    pub(crate) fn spawn(launch: Launch<'_>) -> std::io::Result<Self> {
        let (program, args) = launch
            .command
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty command"))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(launch.dir)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        sys::die_with_parent(&mut command);
        let mut child = command.spawn()?;
        let pid = child.id() as i32;
        sys::register_group(pid);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        // From here on the guard kills the group if anything below fails.
        let guard = GroupGuard { child, pgid: pid };

        let (input_tx, input_rx) = mpsc::channel::<String>();
        let (done_tx, stderr_done) = mpsc::channel::<()>();
        let name = |what: &str| format!("bot{}-{}-{what}", launch.seat, launch.generation);
        if let Some(stdin) = stdin {
            thread::Builder::new()
                .name(name("in"))
                .spawn(move || write_input(stdin, input_rx))?;
        }
        if let Some(stdout) = stdout {
            let (events, seat, generation, cap) = (
                launch.events.clone(),
                launch.seat,
                launch.generation,
                launch.max_line_bytes,
            );
            thread::Builder::new()
                .name(name("out"))
                .spawn(move || read_output(stdout, cap, seat, generation, events))?;
        }
        let stderr_peek = stderr
            .as_ref()
            .and_then(|e| e.as_fd().try_clone_to_owned().ok());
        let stderr_log = Arc::clone(&launch.stderr_log);
        if let Some(stderr) = stderr {
            let log = launch.stderr_log;
            thread::Builder::new()
                .name(name("err"))
                .spawn(move || drain_stderr(stderr, log, done_tx))?;
        }
        let (events, seat, generation) = (launch.events, launch.seat, launch.generation);
        thread::Builder::new().name(name("exit")).spawn(move || {
            if let Some(kind) = sys::wait_exit_no_reap(pid) {
                let _ = events.send(Tagged {
                    seat,
                    generation,
                    events: vec![Event::Exited(kind)],
                    at: Instant::now(),
                });
            }
        })?;
        Ok(Self {
            input: Some(input_tx),
            guard,
            stderr_done,
            stderr_peek,
            stderr_log,
        })
    }

    /// The position in the seat's stderr stream (see
    /// [`CappedLog::total_bytes`]) up to which everything the process has
    /// written to stderr so far will be: what the drain has logged plus what
    /// still waits in the pipe. Exact, because the drain only reads while
    /// holding the log's lock.
    pub(crate) fn stderr_position(&self) -> u64 {
        let log = self
            .stderr_log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let pending = self
            .stderr_peek
            .as_ref()
            .map_or(0, |fd| sys::pending_bytes(fd.as_fd()));
        log.total_bytes() + pending
    }

    /// The process group id (equal to the pid).
    pub(crate) fn pgid(&self) -> i32 {
        self.guard.pgid
    }

    /// Queues lines for the process's stdin; never blocks.
    pub(crate) fn send(&self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        if let Some(input) = &self.input {
            let mut text = String::new();
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
            // A send error only means the writer has stopped (the bot
            // closed its stdin or died); that shows up as events anyway.
            let _ = input.send(text);
        }
    }

    /// Closes stdin once everything queued has been written.
    pub(crate) fn close_input(&mut self) {
        self.input = None;
    }

    /// Kills the group, reaps the child and waits up to `stderr_wait` for
    /// the stderr drainer to finish so the log holds everything it wrote.
    pub(crate) fn finish(self, stderr_wait: Duration) {
        let BotProcess {
            input,
            guard,
            stderr_done,
            ..
        } = self;
        drop(input);
        drop(guard);
        let _ = stderr_done.recv_timeout(stderr_wait);
    }
}

fn write_input(mut stdin: ChildStdin, queue: Receiver<String>) {
    for text in queue {
        if stdin.write_all(text.as_bytes()).is_err() || stdin.flush().is_err() {
            return;
        }
    }
}

fn read_output(
    stdout: ChildStdout,
    max_line_bytes: usize,
    seat: usize,
    generation: u64,
    events: SyncSender<Tagged>,
) {
    let mut lines = CappedLines::new(stdout, max_line_bytes);
    loop {
        let mut batch = Vec::new();
        let mut last = false;
        // Everything already read goes out together; only then block.
        while !last && (batch.is_empty() || lines.has_buffered_event()) {
            batch.push(match lines.next_event() {
                LineEvent::Line(line) => Event::Line(line),
                LineEvent::TooLong => Event::TooLong,
                LineEvent::Eof => {
                    last = true;
                    Event::Eof
                }
            });
        }
        let sent = events.send(Tagged {
            seat,
            generation,
            events: batch,
            at: Instant::now(),
        });
        if last || sent.is_err() {
            return;
        }
    }
}

fn drain_stderr(mut stderr: ChildStderr, log: Arc<Mutex<CappedLog>>, done: Sender<()>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        // Wait without the lock, read with it: whoever holds the lock sees
        // every byte that left the pipe already in the log.
        sys::wait_readable(stderr.as_fd());
        let mut log = log.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => log.push(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = done.send(());
}

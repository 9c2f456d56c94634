//! A box: a seat's namespaces, control groups, user and confinement, made
//! once for a bot and kept for all its processes in a game and, emptied,
//! for its next games ([`take_idle`], [`give_back`]),
//! with a small init inside (`crate::sys::init`) that starts each process by
//! clone + exec.
//!
//! Started one by one, each bot process paid for a fresh PID, network,
//! mount, IPC and UTS namespace, a mount of `/proc`, control groups (whose
//! join costs most: see `docs/performance.md`), a Landlock ruleset and
//! seccomp filters: a per-turn bot on every move, every bot once a game.
//! In a box they share the box's: the init, PID 1 of the box, forks and
//! execs the next process when asked, and before that kills everything
//! the previous one left (`kill(-1)` from a namespace's init reaches the
//! namespace and nothing else), reaps it and removes the box's System V
//! IPC objects.
//!
//! What holds the box together on every exit path is what held a single
//! process: the waiter the box maker forked (`crate::box_maker`: in a
//! process group dojo kills, with PDEATHSIG on the maker, whose own is on
//! a thread of dojo's; or forked by dojo, with PDEATHSIG on dojo's
//! thread) and the init (PDEATHSIG on the waiter):
//! when either dies, the kernel kills everything in the box's PID
//! namespace, `kill -9` of dojo included. A box whose init does not answer
//! in time is marked broken and replaced.

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};

use crate::spawn::{GroupGuard, Launch};
use crate::sys::ExitKind;
use crate::sys::init;

/// How long the init has to start a bot, or to kill and reap what is in
/// the box: it answers at once unless the machine is swamped or a process
/// is stuck in the kernel.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Whether the seats of a run with `containment` get boxes: only with a
/// PID namespace (the init's `kill(-1)` must reach nothing outside the
/// box), and unless `DOJO_BOX=0` turns them off ([`crate::lifecycle::boxed`]).
pub fn wanted(containment: &crate::sys::Containment) -> bool {
    static VAR: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let var = VAR.get_or_init(|| std::env::var("DOJO_BOX").ok());
    crate::lifecycle::boxed(
        containment.unshare_flags & crate::sys::NEW_PID != 0,
        var.as_deref(),
    )
}

/// Starts the box makers ([`crate::box_maker`]) now if a run in `mode`
/// gives its seats boxes: before the run's worker threads exist, while
/// dojo is small. A maker is a copy of dojo as it was when forked, and
/// every box it forks copies that: forked by the first box of a league
/// 256 wide, it held the 256 workers' stacks, and each box's fork copied
/// their mappings.
pub fn start_box_makers(mode: crate::plan::SandboxMode) {
    let containment = crate::plan::plan(mode, &crate::plan::Limits::default());
    if wanted(&containment) {
        crate::box_maker::start_makers();
    }
}

/// One seat's box.
#[derive(Debug)]
pub struct BotBox {
    /// What the box was made for (the runner's key of a seat's bot and
    /// its conditions): a box is reused only for the same.
    key: String,
    /// The thread that made it or last kept it idle. A box dojo forked
    /// (`bound`: no box maker) has its waiter's PDEATHSIG on that thread,
    /// so only that thread reuses it (knowing it alive); a box the maker
    /// forked lives as long as dojo, and serves any thread.
    thread: std::thread::ThreadId,
    bound: bool,
    /// dojo's end of the socket pair to the init (non-blocking).
    ctl: OwnedFd,
    /// Set when the init failed to answer: the box is replaced.
    broken: Arc<AtomicBool>,
    /// The waiter, the init's pidfd and the box's groups: dropping it
    /// kills everything in the box and removes the groups.
    guard: GroupGuard,
    /// The box's scratch directory (HOME and TMPDIR; emptied between
    /// games), and its seat user. Removed after the guard has killed
    /// everything (field order).
    scratch: crate::run_dir::Scratch,
    /// The environment the box was made with: each start adds the
    /// seat's own to it.
    base_env: Vec<(String, String)>,
    /// A start was sent and its answer not yet read ([`Self::begin_start`]).
    starting: bool,
    /// A [`init::RENEW`] was sent and its answer not yet read
    /// ([`Self::begin_reset`]).
    renewing: bool,
    /// The init has started a process: a start it refuses later means
    /// something in the box broke it (see [`Self::has_worked`]).
    worked: bool,
    /// The init's children list in `/proc`, opened at the first start and
    /// kept (the init lives as long as the box): each start reads the
    /// bot's pid from it with one `pread` instead of opening, reading and
    /// closing it by path (five system calls a start in strace).
    init_children: Option<std::fs::File>,
    /// The init mounts a new tmpfs over the scratch directory for each
    /// game (the box has a minimal root: [`init::ScratchMount`]); false:
    /// dojo empties the directory itself between games.
    fresh_scratch: bool,
}

/// A bot start sent to a box's init and not yet answered: dojo's ends of
/// the bot's pipes, for [`BotBox::finish_start`].
#[derive(Debug)]
pub struct Starting {
    stdin: std::io::PipeWriter,
    stdout: std::io::PipeReader,
    stderr: std::io::PipeReader,
}

impl BotBox {
    /// Makes the box for `launch`'s bot, whose scratch directory is
    /// `scratch`: everything a process of it would get, once. The init
    /// waits for [`Self::start`].
    pub fn create(
        key: String,
        launch: &Launch<'_>,
        scratch: crate::run_dir::Scratch,
    ) -> std::io::Result<Self> {
        let (ours, theirs) = crate::socket::pair()?;
        let base_env = if launch.clean_env {
            crate::plan::base_env(launch.dir, launch.scratch)
        } else {
            std::env::vars().collect()
        };
        // A box with a minimal root gets a tmpfs over its scratch
        // directory, new for every game; other boxes' directories are
        // emptied between games by dojo.
        let mount = match launch.scratch {
            Some(dir) if launch.containment.minimal_root => {
                Some(scratch_mount(dir, scratch.seat_id())?)
            }
            _ => None,
        };
        let fresh_scratch = mount.is_some();
        let (guard, bound) = fork_box(launch, &theirs, &base_env, mount)?;
        drop(theirs);
        rustix::io::ioctl_fionbio(&ours, true)?;
        // The init's pid may be unknown (a dojo in a PID namespace of its
        // own with the host's /proc): the box works without it, only the
        // bot's pid as dojo sees it is then unknown (0).
        let mut made = Self {
            key,
            thread: std::thread::current().id(),
            bound,
            ctl: ours,
            broken: Arc::new(AtomicBool::new(false)),
            guard,
            scratch,
            base_env,
            starting: false,
            renewing: false,
            worked: false,
            init_children: None,
            fresh_scratch,
        };
        // The first game's box is readied as every later game's is (see
        // `reset`).
        made.renew().map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot ready the box for a game: {e}"))
        })?;
        MADE.fetch_add(1, Ordering::Relaxed);
        Ok(made)
    }

    /// Has the init ready the emptied box for a game as a new box
    /// ([`init::RENEW`]), unless [`Self::begin_reset`] asked already,
    /// and waits for its answer.
    fn renew(&mut self) -> std::io::Result<()> {
        if !std::mem::take(&mut self.renewing) {
            self.send_renew()?;
        }
        match answer(&self.ctl, &[init::RENEWED, init::FAILED])? {
            (init::RENEWED, _, _) => Ok(()),
            (_, _, errno) => Err(std::io::Error::from_raw_os_error(errno)),
        }
    }

    /// Sends the init [`init::RENEW`] with the `tasks` file of a new group
    /// of the CPU controller, into which it moves itself, so that the
    /// next game's processes start on a run queue of their own (see
    /// [`crate::cgroup::BotGroup::next_share_entry`]; each start roots a
    /// new cgroup namespace there, so a bot sees no group's name).
    fn send_renew(&self) -> std::io::Result<()> {
        // An init whose pid is unknown (see `create`) stays in the box's
        // own group.
        let entry = match (&self.guard.cgroup, self.guard.init_pid) {
            (Some(group), Some(_)) => group.next_share_entry()?,
            _ => None,
        };
        let fds: Vec<_> = entry.iter().map(std::os::fd::AsFd::as_fd).collect();
        send(&self.ctl, init::RENEW, &[], &fds)
    }

    /// Whether the box still works: its init answered every request and
    /// is still there (a Ctrl-C kills it; so does the end of the thread
    /// that made it, through PDEATHSIG).
    pub fn usable(&self) -> bool {
        if self.broken.load(Ordering::Relaxed) {
            return false;
        }
        if self.starting || self.renewing {
            // The answer to the start or renewal is what would be
            // readable (an init that is gone shows when it is read).
            return true;
        }
        let mut fds = [PollFd::new(&self.ctl, PollFlags::IN)];
        let ready = rustix::event::poll(&mut fds, Some(&crate::sys::timespec(Duration::ZERO)));
        // Nothing is pending between processes: anything readable is the
        // end of the init (or a message no one waits for).
        if ready.is_ok_and(|n| n > 0) {
            self.broken.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Whether the box was lost from outside: the box maker that forked
    /// it has ended, and with it every box it made (see
    /// `box_maker::ended`). What ran in the box then died of
    /// that, not of anything it did.
    pub fn lost_with_its_maker(&self) -> bool {
        self.guard.maker.is_some_and(crate::box_maker::ended)
    }

    /// Whether the box's init has started a process before: a start it
    /// then refuses is no longer the program's fault (it ran here) but
    /// the box's, which an earlier process may have broken (the
    /// player's box is then made anew: see `play::procs`).
    pub fn has_worked(&self) -> bool {
        self.worked
    }

    /// Sends the init the first half of [`Self::reset`] without waiting
    /// for its answer, so that the boxes of a game's seats are readied at
    /// once, each by its own init, by one thread (they were readied on a
    /// thread each, one thread made and ended a game). The init takes it
    /// after anything sent before (the `init::KILL` of the last process:
    /// its answer is read first); [`give_back`] or [`Self::reset`] reads
    /// the answer. Nothing is sent to a broken box or one starting a
    /// process (finish the start first).
    pub fn begin_reset(&mut self) {
        if self.renewing || self.starting || self.broken.load(Ordering::Relaxed) {
            return;
        }
        if self.send_renew().is_err() {
            self.broken.store(true, Ordering::Relaxed);
            return;
        }
        self.renewing = true;
    }

    /// Readies the box for another game (the processes are gone
    /// already): new IPC namespace and PID counter, and a new scratch
    /// filesystem, or without a minimal root its scratch directory
    /// emptied. False if it cannot be.
    pub fn reset(&mut self) -> bool {
        if !self.usable() || self.renew().is_err() {
            self.broken.store(true, Ordering::Relaxed);
            return false;
        }
        if self.fresh_scratch {
            return true;
        }
        let Ok(entries) = std::fs::read_dir(self.scratch.path()) else {
            return false;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let removed = match entry.file_type() {
                Ok(t) if t.is_dir() => std::fs::remove_dir_all(&path),
                _ => std::fs::remove_file(&path),
            };
            if removed.is_err() {
                return false;
            }
        }
        self.usable()
    }

    /// Has the init start the bot, with fresh pipes, counting its CPU time
    /// and limits from now. The previous process must be gone (dropping
    /// it empties the box).
    pub fn start(&mut self, env: &[(String, String)]) -> std::io::Result<Occupant> {
        let starting = self.begin_start(env)?;
        self.finish_start(starting)
    }

    /// The first half of [`Self::start`]: sends the start to the init
    /// without waiting for its answer, so that the boxes of a game's
    /// seats start their bots at the same time. [`Self::finish_start`]
    /// must follow before anything else is asked of the box.
    pub fn begin_start(&mut self, env: &[(String, String)]) -> std::io::Result<Starting> {
        if !self.usable() || self.starting || self.renewing {
            return Err(std::io::Error::other("the box is broken"));
        }
        let mut all = self.base_env.clone();
        all.extend(env.iter().cloned());
        let payload = init::env_payload(&all)?;
        if let Some(group) = &self.guard.cgroup {
            group.rebase();
        }
        let (stdin_r, stdin_w) = std::io::pipe()?;
        let (stdout_r, stdout_w) = std::io::pipe()?;
        let (stderr_r, stderr_w) = std::io::pipe()?;
        let fds = [stdin_r.as_fd(), stdout_w.as_fd(), stderr_w.as_fd()];
        let sent = send(&self.ctl, init::START, &payload, &fds);
        drop((stdin_r, stdout_w, stderr_w));
        if let Err(e) = sent {
            self.broken.store(true, Ordering::Relaxed);
            return Err(e);
        }
        self.starting = true;
        Ok(Starting {
            stdin: stdin_w,
            stdout: stdout_r,
            stderr: stderr_r,
        })
    }

    /// The second half of [`Self::start`]: the init's answer to
    /// [`Self::begin_start`], and the process.
    pub fn finish_start(&mut self, starting: Starting) -> std::io::Result<Occupant> {
        self.starting = false;
        let answer = answer(&self.ctl, &[init::STARTED, init::FAILED]);
        let pid_in_box = match answer {
            Ok((init::STARTED, pid, _)) => {
                self.worked = true;
                pid
            }
            Ok((_, _, errno)) => return Err(std::io::Error::from_raw_os_error(errno)),
            Err(e) => {
                self.broken.store(true, Ordering::Relaxed);
                return Err(e);
            }
        };
        // The bot as dojo sees it: the init's one child (whatever the
        // previous one left was killed and reaped). 0 if it has already
        // ended and been reaped.
        if self.init_children.is_none() {
            self.init_children = self.guard.init_pid.and_then(|pid| {
                std::fs::File::open(format!("/proc/{pid}/task/{pid}/children")).ok()
            });
        }
        let host_pid = self
            .init_children
            .as_ref()
            .and_then(crate::sys::only_child_in)
            .unwrap_or(0);
        let occupancy = Occupancy {
            ctl: self.ctl.try_clone()?,
            pid_in_box,
            host_pid,
            end: None,
            group: self.guard.cgroup.clone(),
            broken: self.broken.clone(),
            kill_sent: false,
        };
        let Starting {
            stdin,
            stdout,
            stderr,
        } = starting;
        let stdin = ChildStdin::from(OwnedFd::from(stdin));
        let stdout = ChildStdout::from(OwnedFd::from(stdout));
        let stderr = ChildStderr::from(OwnedFd::from(stderr));
        for fd in [stdin.as_fd(), stdout.as_fd(), stderr.as_fd()] {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Occupant {
            stdin,
            stdout,
            stderr,
            exit_fd: self.ctl.try_clone()?,
            occupancy,
        })
    }
}

/// Forks the box's waiter and init, through the box maker
/// ([`crate::box_maker`]) where there is one, else from dojo; and whether
/// the box is bound to this thread (forked by dojo).
fn fork_box(
    launch: &Launch<'_>,
    init_end: &OwnedFd,
    base_env: &[(String, String)],
    mount: Option<init::ScratchMount>,
) -> std::io::Result<(GroupGuard, bool)> {
    let cgroup = crate::cgroup::BotGroup::create(launch.containment.group_limits)?;
    match crate::box_maker::make(launch, init_end, base_env, mount.as_ref(), cgroup) {
        Some(made) => Ok((made?, false)),
        None => {
            let program = init::Program::new(launch.command, base_env, mount)?;
            let started =
                crate::spawn::start_contained(launch, Some((init_end.as_raw_fd(), program)))?;
            Ok((started.guard, true))
        }
    }
}

/// A process the box's init started: dojo's ends of its pipes
/// (non-blocking), a descriptor readable when the init has something to
/// say (its end), and the [`Occupancy`] that accounts for it and empties
/// the box when dropped.
#[derive(Debug)]
pub struct Occupant {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
    pub exit_fd: OwnedFd,
    pub occupancy: Occupancy,
}

impl crate::lifecycle::Reusable for BotBox {
    fn usable(&self) -> bool {
        BotBox::usable(self)
    }

    fn has_worked(&self) -> bool {
        BotBox::has_worked(self)
    }
}

impl crate::lifecycle::Pooled for BotBox {
    fn key(&self) -> &str {
        &self.key
    }

    fn thread(&self) -> std::thread::ThreadId {
        self.thread
    }

    fn bound_to_thread(&self) -> bool {
        self.bound
    }
}

/// The tmpfs a box with a minimal root mounts over its scratch directory
/// `dir` for each game: owned by the seat's user (`seat_id`, 0: dojo's),
/// mode 0700 as the directory is, at most [`crate::plan::SCRATCH_MIB`]
/// and [`crate::plan::SCRATCH_INODES`]. Its pages are charged to the
/// memory group of the bot that writes them.
fn scratch_mount(dir: &std::path::Path, seat_id: u32) -> std::io::Result<init::ScratchMount> {
    let real = std::fs::canonicalize(dir)?;
    let (uid, gid) = if seat_id != 0 {
        (seat_id, seat_id)
    } else {
        (
            rustix::process::geteuid().as_raw(),
            rustix::process::getegid().as_raw(),
        )
    };
    let options = format!(
        "mode=0700,uid={uid},gid={gid},size={}k,nr_inodes={}",
        crate::plan::SCRATCH_MIB * 1024,
        crate::plan::SCRATCH_INODES
    );
    let invalid = || std::io::Error::other(format!("{}: contains a NUL byte", real.display()));
    Ok(init::ScratchMount {
        path: std::ffi::CString::new(real.as_os_str().as_encoded_bytes()).map_err(|_| invalid())?,
        options: std::ffi::CString::new(options).map_err(|_| invalid())?,
    })
}

/// A process of a box, as its owner holds it: dropping it has the
/// init kill everything in the box and waits until it has.
#[derive(Debug)]
pub struct Occupancy {
    ctl: OwnedFd,
    pid_in_box: i32,
    host_pid: i32,
    /// Its end, once the init reported it.
    end: Option<ExitKind>,
    group: Option<Arc<crate::cgroup::BotGroup>>,
    broken: Arc<AtomicBool>,
    /// [`init::KILL`] was sent (by [`Self::begin_emptying`]): the drop
    /// only waits for the init's answer.
    kill_sent: bool,
}

impl Occupancy {
    /// Has the init start emptying the box now, without waiting: the
    /// drop waits for it to finish. A game's seats are emptied at once
    /// this way, each box's init killing and reaping in parallel with
    /// the others', rather than one box after the other.
    pub fn begin_emptying(&mut self) {
        if self.kill_sent {
            return;
        }
        self.kill_sent = true;
        if send(&self.ctl, init::KILL, &[], &[]).is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    /// Its pid in dojo's PID namespace (0 if it ended before dojo saw it).
    pub fn host_pid(&self) -> i32 {
        self.host_pid
    }

    pub fn cgroup(&self) -> Option<&crate::cgroup::BotGroup> {
        self.group.as_deref()
    }

    /// Whether its end was read (so the loop must be told without a
    /// wake-up from the socket).
    pub fn has_seen_end(&self) -> bool {
        self.end.is_some()
    }

    /// How it ended, if the init has said so (reading what the init sent
    /// on `fd` without waiting). An init that is gone took the bot with
    /// it: that reads as SIGKILL.
    pub fn ended(&mut self, fd: Option<&OwnedFd>) -> Option<ExitKind> {
        let fd = fd.unwrap_or(&self.ctl);
        while self.end.is_none() {
            match receive(fd) {
                Ok(Some((init::EXITED, pid, status))) if pid == self.pid_in_box => {
                    self.end = Some(decode(status));
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(_) => {
                    self.broken.store(true, Ordering::Relaxed);
                    self.end = Some(ExitKind::Signal(libc::SIGKILL));
                }
            }
        }
        self.end
    }
}

impl Drop for Occupancy {
    fn drop(&mut self) {
        self.begin_emptying();
        if self.broken.load(Ordering::Relaxed) {
            return;
        }
        if answer(&self.ctl, &[init::CLEAN]).is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }
}

/// A wait status as an [`ExitKind`].
fn decode(status: i32) -> ExitKind {
    if libc::WIFEXITED(status) {
        ExitKind::Code(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        ExitKind::Signal(libc::WTERMSIG(status))
    } else {
        ExitKind::Signal(0)
    }
}

/// Sends `tag` with `fds` to the init (never blocks: the socket takes a
/// message or the box is broken).
fn send(
    ctl: &OwnedFd,
    tag: u8,
    payload: &[u8],
    fds: &[std::os::fd::BorrowedFd<'_>],
) -> std::io::Result<()> {
    use rustix::net::SendFlags;
    let mut message = init::message(tag, 0, 0).to_vec();
    message.extend_from_slice(payload);
    crate::socket::send(
        ctl,
        &message,
        fds,
        SendFlags::DONTWAIT | SendFlags::NOSIGNAL,
        "the box's init",
    )
}

/// One message from the init if one is there: `Ok(None)` if not, an
/// error once its end is closed.
fn receive(ctl: &OwnedFd) -> std::io::Result<Option<(u8, i32, i32)>> {
    let mut buf = [0u8; init::MESSAGE];
    match rustix::io::read(ctl, &mut buf) {
        Ok(0) => Err(std::io::Error::other("the box's init is gone")),
        Ok(n) => Ok(init::parse(&buf[..n])),
        Err(rustix::io::Errno::AGAIN) | Err(rustix::io::Errno::INTR) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Waits (up to [`ANSWER_WAIT`]) for a message with one of `tags`,
/// passing over others (the end of a bot being killed).
fn answer(ctl: &OwnedFd, tags: &[u8]) -> std::io::Result<(u8, i32, i32)> {
    let deadline = Instant::now() + ANSWER_WAIT;
    loop {
        if let Some(message) = receive(ctl)? {
            if tags.contains(&message.0) {
                return Ok(message);
            }
            continue;
        }
        if !crate::socket::readable_by(ctl, deadline) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the box's init did not answer",
            ));
        }
    }
}

/// Boxes between games, kept for the next game of the same bot under the
/// same conditions (on the same thread, for a box dojo forked itself):
/// the box of a league's bot is made once per worker at most, not once
/// per game. Bounded per thread; each thread's
/// oldest go first.
static IDLE: std::sync::Mutex<Vec<BotBox>> = std::sync::Mutex::new(Vec::new());

/// Boxes this process has made (and readied for their first game).
static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many boxes this process has made so far: what a league's report
/// counts (a bot cannot tell its box's number, so this is where the reuse
/// of boxes is seen from).
pub fn boxes_made() -> u64 {
    MADE.load(Ordering::Relaxed)
}

/// Idle boxes kept per worker at the least (each holds two sleeping
/// processes, a few namespaces, its groups, a few descriptors and a seat
/// user): the boxes of a worker's last game, whatever its seats. The
/// bound was 16 for the whole process, so a league more than 8 games
/// wide evicted nearly every box it gave back and made two new ones for
/// each game: at `--jobs 256` a profile of bots that sleep through their
/// moves put a third of dojo's time in the forks of those boxes.
pub const IDLE_PER_THREAD: usize = 3;

/// The bound on idle boxes in force, for the whole process: what
/// [`crate::capacity::keep_idle_boxes`] set (`dojo league` and `compare`
/// set it from their `--jobs`, bots and limits), or, for a program that
/// sets none, room for 8 workers' boxes.
static IDLE_CAP: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(8 * IDLE_PER_THREAD);

/// Sets the bound on idle boxes (never below [`IDLE_PER_THREAD`]).
pub fn set_idle_cap(boxes: usize) {
    IDLE_CAP.store(boxes.max(IDLE_PER_THREAD), Ordering::Relaxed);
}

/// The bound on idle boxes in force.
pub fn idle_cap() -> usize {
    IDLE_CAP.load(Ordering::Relaxed)
}

/// An idle box made for `key` that this thread may use (any the box
/// maker forked, or one this thread forked itself), if one is there and
/// still works.
pub fn take_idle(key: &str) -> Option<BotBox> {
    let thread = std::thread::current().id();
    let found = {
        let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
        crate::lifecycle::take(&mut idle, key, thread)?
    };
    found.usable().then_some(found)
}

/// Keeps `b` for a later game once its processes are gone, if it can be
/// readied for one; else it is dropped (and everything in it killed).
pub fn give_back(mut b: BotBox) {
    if !b.reset() {
        return;
    }
    if !b.bound {
        // Kept idle by this thread now (what `idle_inits_of_this_thread`
        // reports); any thread may take it.
        b.thread = std::thread::current().id();
    }
    // Idle boxes are dropped (their groups and scratch directories
    // removed) when dojo exits normally; after kill -9 their processes
    // die with dojo and `remove_leftovers` takes the rest at the next start.
    static AT_EXIT: std::sync::Once = std::sync::Once::new();
    AT_EXIT.call_once(|| crate::sys::at_exit(drop_idle_at_exit));
    ENDS_NOTED.with(|_| {});
    let ended = std::mem::take(&mut *ENDED.lock().unwrap_or_else(|p| p.into_inner()));
    let evicted = {
        let mut idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
        crate::lifecycle::keep(&mut idle, b, &ended, idle_cap())
    };
    // Killed outside the lock.
    tear_down(evicted);
}

/// The threads that kept idle boxes and have ended since the last
/// [`give_back`]: their boxes are dead.
static ENDED: std::sync::Mutex<Vec<std::thread::ThreadId>> = std::sync::Mutex::new(Vec::new());

/// Notes the end of a thread (its id, in the list it names) when dropped:
/// as a thread-local, when the thread ends.
struct EndNote(
    std::thread::ThreadId,
    &'static std::sync::Mutex<Vec<std::thread::ThreadId>>,
);

impl Drop for EndNote {
    fn drop(&mut self) {
        self.1
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(self.0);
    }
}

thread_local! {
    /// Set by a thread's first [`give_back`].
    static ENDS_NOTED: EndNote = EndNote(std::thread::current().id(), &ENDED);
}

extern "C" fn drop_idle_at_exit() {
    // Never waits for the lock: a thread killed by the exit may hold it.
    let idle = match IDLE.try_lock() {
        Ok(mut idle) => std::mem::take(&mut *idle),
        Err(_) => return,
    };
    tear_down(idle);
}

/// Drops every idle box: when seat users run out (each box holds one),
/// and for `kill_all_bots`.
pub fn drop_idle() -> usize {
    let idle = std::mem::take(&mut *IDLE.lock().unwrap_or_else(|p| p.into_inner()));
    let count = idle.len();
    tear_down(idle);
    count
}

/// Drops `boxes`, every one's processes killed first: the kernel then
/// tears their namespaces down side by side, and each drop finds its
/// box's processes dead (the 768 idle boxes of a league at `--jobs 256`
/// took 0.65 s one after another).
fn tear_down(boxes: Vec<BotBox>) {
    for b in &boxes {
        b.guard.kill_now();
    }
    drop(boxes);
}

/// The pids of the inits of this thread's idle boxes, for tests that
/// break a box from outside as a bot that reached its init would (the
/// runner's tests of its boxes).
#[doc(hidden)]
pub fn idle_inits_of_this_thread() -> Vec<i32> {
    let thread = std::thread::current().id();
    let idle = IDLE.lock().unwrap_or_else(|p| p.into_inner());
    idle.iter()
        .filter(|b| b.thread == thread)
        .filter_map(|b| b.guard.init_pid)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread::ThreadId;

    #[test]
    fn a_thread_notes_its_end_when_it_ends() {
        static NOTED: std::sync::Mutex<Vec<ThreadId>> = std::sync::Mutex::new(Vec::new());
        thread_local! {
            static NOTE: EndNote = EndNote(std::thread::current().id(), &NOTED);
        }
        let worker = std::thread::spawn(|| {
            NOTE.with(|_| {});
            std::thread::current().id()
        });
        let id = worker.join().expect("thread");
        assert_eq!(*NOTED.lock().expect("lock"), vec![id]);
    }
}

//! Starting one contained process: the fork, the namespaces, groups,
//! root and confinement of its plan, and the guard that kills and reaps
//! it and everything it started.

use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};

use rustix::event::{PollFd, PollFlags};
use rustix::process::{WaitId, WaitIdOptions};

use crate::sys;

/// Everything needed to start one process.
#[derive(Debug)]
pub struct Launch<'a> {
    pub command: &'a [String],
    pub dir: &'a Path,
    /// The bot's scratch directory (HOME, TMPDIR, and with Landlock the
    /// only place it may write; a build's Landlock ruleset comes made, in
    /// `containment`).
    pub scratch: Option<&'a Path>,
    pub env: &'a [(String, String)],
    pub containment: sys::Containment,
    /// Paths outside the system and its own directory the bot may read.
    pub extra_read: &'a [std::path::PathBuf],
    /// The bot was loaded from a manifest in `dir`, and this is its build
    /// cache (`$DOJO_CACHE`): its command's words are a stranger's, and
    /// the files they name count only where they lie, links followed, in
    /// `dir`, this cache or the system (see
    /// [`crate::confine::command_files`]); the bot reads this cache whole,
    /// as its own directory (`crate::confine::Reach::cache`). `None`: the
    /// organiser's own words (a bot given on the command line), or no bot
    /// at all.
    pub manifest: Option<&'a Path>,
    /// Start from an empty environment (bots and builds); false keeps dojo's.
    pub clean_env: bool,
    /// Run the process (and all it starts) on this CPU only.
    pub cpu: Option<usize>,
}

/// Owns a child: dropping it kills the child's whole process group and
/// reaps the child, whatever state it is in.
#[derive(Debug)]
pub struct GroupGuard {
    waiter: Waiter,
    pub pgid: i32,
    /// With a PID namespace, the child is the waiter and this is a pidfd
    /// of the bot (or of a box's init), init of the namespace: readable
    /// once it and everything in its namespace are gone.
    init: Option<OwnedFd>,
    /// The pid of that init.
    pub init_pid: Option<i32>,
    /// The process's control groups: dropped after the fields above, so
    /// whatever is still in them is killed and they are removed last
    /// (shared with the processes of a box).
    pub cgroup: Option<std::sync::Arc<crate::cgroup::BotGroup>>,
    /// The pid of the box maker that forked it, if one did
    /// ([`crate::box_maker::ended`]).
    pub(crate) maker: Option<i32>,
}

/// The process a guard owns: dojo's child, or a box's waiter the box
/// maker forked (its child, which it reaps), held by a pidfd.
#[derive(Debug)]
pub(crate) enum Waiter {
    Child(Child),
    Made(OwnedFd),
}

/// How long a drop waits for a killed namespace to be torn down (SIGKILL
/// takes effect at once unless a process is stuck in the kernel).
const TEARDOWN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

impl GroupGuard {
    /// Sends SIGKILL to the waiter and the init (if any) without waiting
    /// for anything: a drop that follows finds them dying or dead. Many
    /// boxes torn down at once (the idle boxes at dojo's end) are then
    /// torn down by the kernel side by side, not one after another.
    pub(crate) fn kill_now(&self) {
        match &self.waiter {
            Waiter::Child(child) => {
                if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
            Waiter::Made(pidfd) => {
                let _ = rustix::process::pidfd_send_signal(pidfd, rustix::process::Signal::KILL);
            }
        }
        if let Some(init) = &self.init {
            let _ = rustix::process::pidfd_send_signal(init, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        {
            // No sweep between untracking the child and reaping it.
            let _hold = crate::reaper::hold();
            sys::unregister_and_kill_group(self.pgid);
            // The child itself too: it may have left its group (setpgid),
            // and then only a direct kill keeps the reap below from
            // blocking.
            match &mut self.waiter {
                Waiter::Child(child) => {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                Waiter::Made(pidfd) => {
                    // The maker reaps it; gone is enough here.
                    let _ =
                        rustix::process::pidfd_send_signal(&*pidfd, rustix::process::Signal::KILL);
                    let mut fds = [PollFd::new(&*pidfd, PollFlags::IN)];
                    let _ = rustix::event::poll(&mut fds, Some(&sys::timespec(TEARDOWN_WAIT)));
                }
            }
        }
        if let Some(init) = &self.init {
            // The bot left the group? SIGKILL through its pidfd (never a
            // recycled pid); then wait until the kernel has killed its
            // namespace, so nothing of it outlives this drop.
            let _ = rustix::process::pidfd_send_signal(init, rustix::process::Signal::KILL);
            let mut fds = [PollFd::new(init, PollFlags::IN)];
            let _ = rustix::event::poll(&mut fds, Some(&sys::timespec(TEARDOWN_WAIT)));
        }
        // The control groups kill what is left in them (escapees adopted
        // by dojo among them, which then stay dojo's zombies) ...
        drop(self.cgroup.take());
        match &self.init {
            // ... and with a PID namespace nothing escaped it: the init
            // reaped every other process of it as it died, and only the
            // init itself may be left, as dojo's zombie, if its waiter
            // died first (dojo, a subreaper, then adopted it). Reaped by
            // its pidfd, which reaps nothing else: the sweep's scan of
            // every thread's children, once per box torn down, took 2.1 s
            // to tear down the idle boxes of a league at `--jobs 256`,
            // and it kills any child of the program embedding the runner
            // that runs in a process group of its own.
            Some(init) => {
                let _ = rustix::process::waitid(
                    WaitId::PidFd(init.as_fd()),
                    WaitIdOptions::EXITED | WaitIdOptions::NOHANG,
                );
            }
            // ... and the sweep kills and reaps whatever else the process
            // left behind.
            None => {
                crate::reaper::sweep();
            }
        }
    }
}

/// The child dojo forked for a launch, with the pipes it kept.
#[derive(Debug)]
pub struct Started {
    pub guard: GroupGuard,
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// Forks a child for `launch`, contained as its plan says: the bot
/// itself, or with `init` a box's init (its stdio then /dev/null).
pub fn start_contained(
    launch: &Launch<'_>,
    init: Option<(i32, crate::sys::init::Program)>,
) -> std::io::Result<Started> {
    let cgroup = crate::cgroup::BotGroup::create(launch.containment.group_limits)?;
    let joins = cgroup.as_ref().map_or(
        [-1; crate::cgroup::MOST_GROUPS],
        crate::cgroup::BotGroup::join_fds,
    );
    let forked = fork_contained(launch, joins, init)?;
    let Forked {
        child,
        init_pid,
        stdin,
        stdout,
        stderr,
    } = forked;
    let pid = child.id() as i32;
    // From here on the guard kills the group if anything below fails.
    let guard = GroupGuard::new(
        Waiter::Child(child),
        pid,
        init_pid.and_then(sys::pidfd),
        init_pid,
        cgroup,
    );
    for fd in [
        stdin.as_ref().map(AsFd::as_fd),
        stdout.as_ref().map(AsFd::as_fd),
        stderr.as_ref().map(AsFd::as_fd),
    ]
    .into_iter()
    .flatten()
    {
        rustix::io::ioctl_fionbio(fd, true)?;
    }
    Ok(Started {
        guard,
        stdin,
        stdout,
        stderr,
    })
}

impl GroupGuard {
    /// Owns `waiter` (group `pgid`, tracked already), the init of its PID
    /// namespace if it has one, and its groups.
    pub(crate) fn new(
        waiter: Waiter,
        pgid: i32,
        init: Option<OwnedFd>,
        init_pid: Option<i32>,
        cgroup: Option<crate::cgroup::BotGroup>,
    ) -> Self {
        Self {
            waiter,
            pgid,
            init,
            init_pid,
            cgroup: cgroup.map(std::sync::Arc::new),
            maker: None,
        }
    }
}

/// A child [`fork_contained`] forked, tracked (its group registered),
/// with the pipes it kept, and the pid of its PID namespace's init.
#[derive(Debug)]
pub(crate) struct Forked {
    pub child: Child,
    pub init_pid: Option<i32>,
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// The fork of [`start_contained`], given the join descriptors
/// of the child's groups to join (-1: none): everything else, the
/// Landlock ruleset and the minimal root included, is made here. The box
/// maker calls it for a box's init with descriptors dojo sent it.
pub(crate) fn fork_contained(
    launch: &Launch<'_>,
    cgroup_fds: [i32; crate::cgroup::MOST_GROUPS],
    init: Option<(i32, crate::sys::init::Program)>,
) -> std::io::Result<Forked> {
    let (program, args) = launch
        .command
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty command"))?;
    let mut command = Command::new(program);
    let stdio = || {
        if init.is_some() {
            Stdio::null()
        } else {
            Stdio::piped()
        }
    };
    command
        .args(args)
        .current_dir(launch.dir)
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(stdio())
        .stdout(stdio())
        .stderr(stdio())
        .process_group(0);
    if launch.clean_env {
        command
            .env_clear()
            .envs(crate::plan::base_env(launch.dir, launch.scratch))
            .envs(launch.env.iter().map(|(k, v)| (k, v)));
    }
    let mut containment = launch.containment;
    if let Some(cpu) = launch.cpu {
        sys::pin(&mut command, cpu);
        // A pinned bot may not undo its pinning.
        if !containment.seccomp.is_empty() {
            containment.seccomp = crate::seccomp::pinned_filters().unwrap_or_default();
        }
    }
    // Owned here until the spawn has returned: the child inherits it
    // across the fork and gives it to Landlock.
    let mut _ruleset = None;
    // Likewise the minimal root, which the child reads before it execs.
    let mut _root = None;
    if (containment.confine_fs || containment.minimal_root)
        && let Some(scratch) = launch.scratch
    {
        // What the bot may read: one definition for Landlock's rules and
        // the root's binds.
        let reach = crate::confine::Reach {
            bot_dir: launch.dir,
            program: crate::confine::command_files(launch.command, launch.dir, launch.manifest),
            cache: launch.manifest,
            scratch,
            extra_read: launch.extra_read,
        };
        if containment.confine_fs {
            _ruleset = crate::confine::ruleset(&reach).map_err(std::io::Error::other)?;
            if let Some(fd) = &_ruleset {
                containment.landlock_fd = std::os::fd::AsRawFd::as_raw_fd(fd);
            }
        }
        if containment.minimal_root {
            let root = _root.insert(crate::root::MinimalRoot::new(
                &reach,
                containment.private_proc,
            )?);
            containment.root = sys::ForChild(root);
        }
    }
    containment.cgroup_fds = cgroup_fds;
    containment.subreaper = crate::reaper::enable(crate::plan::layer_available("subreaper"));
    sys::contain(&mut command, containment, init);
    // No sweep between the fork and the tracking of the child (it is
    // in a process group of its own before it execs).
    let hold = crate::reaper::hold();
    // Held until spawn returns: the child has exec'd or closed what it
    // inherited by then, so no FencedFile closed meanwhile stays open in it.
    let mut child = command.spawn()?;
    let pid = child.id() as i32;
    sys::register_group(pid);
    drop(hold);
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let init_pid = if launch.containment.unshare_flags & sys::NEW_PID != 0 {
        sys::only_child(pid)
    } else {
        None
    };
    Ok(Forked {
        child,
        init_pid,
        stdin,
        stdout,
        stderr,
    })
}

//! The init of a box: PID 1 of the box's namespaces, which starts the
//! seat's bot on request by clone + exec (`start`), so every further
//! process of the seat costs a clone and an exec instead of fresh
//! namespaces, a cgroup, a Landlock ruleset and seccomp filters (see
//! [`crate::bot_box`]).
//!
//! It runs in the child dojo forked (never exec'd), so it may only make
//! async-signal-safe system calls and must not allocate: everything it
//! needs ([`Program`]) is built before the fork, and its buffers are on
//! its stack.
//!
//! The protocol, over a `SOCK_SEQPACKET` socket pair made before the box
//! (one message per datagram, each [`MESSAGE`] bytes: a tag and two
//! 32-bit numbers):
//! - dojo sends [`START`] followed by the bot's environment (`NAME=VALUE`
//!   strings, each ending in a NUL byte; at most [`ENV_BYTES`] bytes and
//!   [`ENV_VARS`] variables) with the bot's stdin, stdout and stderr as
//!   `SCM_RIGHTS`; the init answers [`STARTED`] with the bot's pid in the
//!   box, or [`FAILED`] with the errno of the exec;
//! - when that bot ends the init kills everything else in the box (what
//!   the bot started dies with it, as when it was init of a namespace of
//!   its own) and sends [`EXITED`] with its pid and wait status (what else
//!   ends in the box is reaped and not reported);
//! - dojo sends [`KILL`]: the init kills every other process in the box
//!   (`kill(-1)`, which in a PID namespace reaches only the namespace),
//!   reaps them all, removes every System V IPC object of the box and
//!   answers [`CLEAN`];
//! - dojo sends [`RENEW`] between games (and once when the box is made):
//!   the init empties the box as for [`KILL`], then readies it as a new
//!   box would be (`renew`): a new tmpfs over the scratch directory
//!   (where the box has a minimal root), a new IPC namespace and its PID
//!   counter set back; it answers [`RENEWED`], or [`FAILED`] with the
//!   errno of the step that failed; with it may come the `tasks` file of
//!   a new group of the CPU controller (`cpu_share`), into which the init
//!   first moves itself (each start roots a new cgroup namespace where
//!   the init then is);
//! - when dojo's end closes, the init exits, and the kernel kills what is
//!   left in its namespace.
//!
//! The init is out of its bots' reach: as root it stays root (with only
//! the capabilities its work needs) and each bot becomes the seat's user
//! between its `clone` and its `exec`, so no bot may signal, `prlimit`,
//! renice or trace it (seccomp denies those calls on PID 1 as well, for
//! boxes whose bots share the init's user). It is confined only in part:
//! it has the box's seccomp filters but for the last, which denies the
//! calls that ready the box, and no Landlock domain (that forbids every
//! mount); each bot takes on the rest between its `clone` and its `exec`
//! (`sys::confine_box_bot`), before anything of the bot's runs; every signal disposition
//! dojo left is reset to the default, so the kernel drops every signal a
//! bot sends it (a namespace's init gets only the signals it has a
//! handler for); and dojo's command line and environment are wiped from
//! its memory, so `/proc/1/cmdline` shows nothing of dojo's.

use std::ffi::{CString, c_char};

/// Bytes of one message: the tag, then two native-endian `i32`s.
pub const MESSAGE: usize = 9;
/// Most bytes of the environment a [`START`] carries.
pub const ENV_BYTES: usize = 32 * 1024;
/// Most variables in it.
pub const ENV_VARS: usize = 256;
pub const START: u8 = b'S';
pub const STARTED: u8 = b'P';
pub const FAILED: u8 = b'F';
pub const EXITED: u8 = b'X';
pub const KILL: u8 = b'K';
pub const CLEAN: u8 = b'C';
pub const RENEW: u8 = b'R';
pub const RENEWED: u8 = b'N';

/// One message.
pub fn message(tag: u8, a: i32, b: i32) -> [u8; MESSAGE] {
    let mut m = [0u8; MESSAGE];
    m[0] = tag;
    m[1..5].copy_from_slice(&a.to_ne_bytes());
    m[5..9].copy_from_slice(&b.to_ne_bytes());
    m
}

/// The tag and numbers of a message.
pub fn parse(m: &[u8]) -> Option<(u8, i32, i32)> {
    if m.len() != MESSAGE {
        return None;
    }
    let a = i32::from_ne_bytes(m[1..5].try_into().ok()?);
    let b = i32::from_ne_bytes(m[5..9].try_into().ok()?);
    Some((m[0], a, b))
}

/// What the init execs, built before the fork: the program's path (found
/// in PATH here, as the shell would) and its arguments, NUL-terminated
/// and with their pointer array. The environment comes with each
/// [`START`] (a seat's `DOJO_SEED` differs from game to game).
#[derive(Debug)]
pub struct Program {
    path: CString,
    _strings: Vec<CString>,
    argv: Vec<*const c_char>,
    /// Where dojo's command line and environment are in its memory (from
    /// `/proc/self/stat`), which the forked init shares the layout of:
    /// the init wipes both ([`wipe`]). Empty where unknown.
    dojos: [std::ops::Range<usize>; 2],
    /// The tmpfs each [`RENEW`] mounts over the scratch directory (a box
    /// with a minimal root); `None`: dojo empties the directory itself.
    scratch: Option<ScratchMount>,
}

/// A tmpfs over a box's scratch directory, new for every game.
#[derive(Debug)]
pub struct ScratchMount {
    /// The scratch directory's path (the same in the box's root).
    pub path: CString,
    /// The tmpfs's options: its mode, owner, size and inodes.
    pub options: CString,
}

// SAFETY: the pointers point into `_strings` (heap buffers that do not
// move with the vector) and are only read, in the forked child.
unsafe impl Send for Program {}
// SAFETY: as above; nothing is ever written through them.
unsafe impl Sync for Program {}

impl Program {
    /// `command`, its program looked up in the `PATH` of `env` when it
    /// names no directory (relative paths are the bot directory's, the
    /// init's working directory).
    pub fn new(
        command: &[String],
        env: &[(String, String)],
        scratch: Option<ScratchMount>,
    ) -> std::io::Result<Self> {
        let invalid = |what: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{what} contains a NUL byte"),
            )
        };
        let (program, _) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty command"))?;
        let path = if program.contains('/') {
            std::path::PathBuf::from(program)
        } else {
            let path_var = env
                .iter()
                .rev()
                .find(|(k, _)| k == "PATH")
                .map_or("/usr/local/bin:/usr/bin:/bin", |(_, v)| v.as_str());
            std::env::split_paths(path_var)
                .map(|dir| dir.join(program))
                .find(|p| is_executable(p))
                .ok_or_else(|| {
                    std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("{program}: not found in PATH"),
                    )
                })?
        };
        let path = CString::new(path.into_os_string().into_encoded_bytes())
            .map_err(|_| invalid("the program"))?;
        let mut strings = Vec::new();
        for arg in command {
            strings.push(CString::new(arg.as_bytes()).map_err(|_| invalid("an argument"))?);
        }
        let mut argv: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        argv.push(std::ptr::null());
        Ok(Self {
            path,
            _strings: strings,
            argv,
            dojos: std::fs::read_to_string("/proc/self/stat")
                .ok()
                .and_then(|stat| args_and_env(&stat))
                .unwrap_or_default(),
            scratch,
        })
    }
}

/// The ranges of a process's command line and environment in its memory,
/// from its `/proc/PID/stat` (fields 48 to 51: `arg_start`, `arg_end`,
/// `env_start`, `env_end`); `None` if the line has no such fields or
/// they are zero (a process whose memory may not be looked at).
fn args_and_env(stat: &str) -> Option<[std::ops::Range<usize>; 2]> {
    // The command name is in parentheses and may contain anything: the
    // fields are counted from the last ')', which ends field 2.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<usize> = rest
        .split_whitespace()
        .skip(48 - 3)
        .take(4)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    let [arg_start, arg_end, env_start, env_end] = fields.try_into().ok()?;
    (arg_start > 0 && arg_start <= arg_end && env_start <= env_end)
        .then_some([arg_start..arg_end, env_start..env_end])
}

/// What the init's command line reads as once [`wipe`]d.
const NAME: &[u8] = b"dojo-init";

/// Overwrites dojo's command line (every bot's name, the out directory)
/// and environment in the init's copy of dojo's memory: the first with
/// [`NAME`] and NUL bytes, so `/proc/1/cmdline` of the box shows only
/// that (the kernel reads it from this memory, which every process may
/// do), the second with NUL bytes. Re-executing the init instead would
/// leave none of dojo's memory at all, but needs dojo's program inside
/// every box's minimal root and Landlock domain and a hook in the `main`
/// of every program that embeds the runner (its test binaries among
/// them); this needs neither.
///
/// # Safety
/// In the forked init, whose memory these ranges are (the layout of
/// dojo's, which they were read from before the fork).
unsafe fn wipe(dojos: &[std::ops::Range<usize>; 2]) {
    for (which, range) in dojos.iter().enumerate() {
        for (i, at) in range.clone().enumerate() {
            let byte = if which == 0 {
                NAME.get(i).copied().unwrap_or(0)
            } else {
                0
            };
            // SAFETY: the range is mapped, writable memory of this
            // process (the stack's top, where the kernel put them).
            unsafe { std::ptr::write_volatile(at as *mut u8, byte) };
        }
    }
    // The thread's name too (`/proc/1/comm`): the one of dojo's thread
    // that made the box.
    // SAFETY: prctl with a NUL-terminated literal.
    unsafe { libc::prctl(libc::PR_SET_NAME, c"dojo-init".as_ptr()) };
}

/// `env` as a [`START`]'s payload: later values of a name win, as with
/// `Command::envs`.
pub fn env_payload(env: &[(String, String)]) -> std::io::Result<Vec<u8>> {
    let mut seen = std::collections::BTreeMap::new();
    for (k, v) in env {
        seen.insert(k.as_str(), v.as_str());
    }
    let mut payload = Vec::new();
    for (k, v) in &seen {
        if k.contains(['=', '\0']) || v.contains('\0') {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("environment variable {k:?} cannot be passed"),
            ));
        }
        payload.extend_from_slice(k.as_bytes());
        payload.push(b'=');
        payload.extend_from_slice(v.as_bytes());
        payload.push(0);
    }
    if payload.len() > ENV_BYTES || seen.len() > ENV_VARS {
        return Err(std::io::Error::other("the bot's environment is too large"));
    }
    Ok(payload)
}

fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Sends one message on `fd`; false if it could not.
///
/// # Safety
/// A raw `send` on a plain buffer.
unsafe fn send(fd: i32, m: &[u8; MESSAGE]) -> bool {
    // SAFETY: `m` is a valid buffer of MESSAGE bytes.
    unsafe { libc::send(fd, m.as_ptr().cast(), MESSAGE, libc::MSG_NOSIGNAL) == MESSAGE as isize }
}

/// The errno of the last failed call.
fn errno() -> i32 {
    // SAFETY: reads this thread's errno.
    unsafe { *libc::__errno_location() }
}

/// The init's loop: never returns. `ctl` is the box's end of the socket
/// pair; the process has its namespaces, cgroups and limits already (bots
/// inherit them with the clone), and `plan` is the confinement each bot
/// takes on before its exec (among it the seat user's id, 0 for none:
/// the bots then run as the init's user). Only async-signal-safe system
/// calls, no allocation.
///
/// # Safety
/// To be called only in a forked child that will never return to the
/// code it was forked from; `plan` as `super::confine_self` needs
/// it.
pub unsafe fn run(ctl: i32, program: &Program, plan: &super::Containment) -> ! {
    // SAFETY: raw system calls on stack buffers and on `program`, whose
    // memory this process has its own copy of.
    unsafe {
        wipe(&program.dojos);
        // Every disposition back to the default: the handlers dojo
        // installed (Ctrl-C's, SIGTERM's) would run dojo's code here, and
        // a namespace's init receives from inside it only the signals it
        // has a handler for, so with none the kernel drops every signal
        // a bot sends. (The C library's own two real-time signals cannot
        // be changed, and its handlers ignore signals from other
        // processes.) A bot started later inherits the defaults too.
        for signal in 1..=64 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        // Keep 0-2 (/dev/null) so descriptors received below never take
        // them, the socket and the Landlock ruleset its bots restrict
        // themselves with; close everything else dojo left open (among
        // them the pipe on which the spawn in dojo waits for an exec:
        // closing it tells dojo the box is up).
        close_all_but([ctl, plan.landlock_fd]);
        // SIGCHLD through a descriptor, polled beside the socket.
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        let children = libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
        if children == -1 {
            libc::_exit(1);
        }
        let mut current: i32 = 0;
        let mut mounted = false;
        // Zeroed once: it was for every message (32 KiB, 1% of a wide
        // league's profile), and only the bytes a message brings are read.
        let mut buf = [0u8; MESSAGE + ENV_BYTES];
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: ctl,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: children,
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            if libc::poll(fds.as_mut_ptr(), 2, -1) == -1 {
                if errno() == libc::EINTR {
                    continue;
                }
                libc::_exit(1);
            }
            if fds[1].revents != 0 {
                let mut info = [0u8; 128];
                while libc::read(children, info.as_mut_ptr().cast(), info.len()) > 0 {}
                reap(ctl, &mut current, libc::WNOHANG);
            }
            if fds[0].revents == 0 {
                continue;
            }
            let mut iov = libc::iovec {
                iov_base: buf.as_mut_ptr().cast(),
                iov_len: buf.len(),
            };
            // Room for one SCM_RIGHTS message of three descriptors, aligned.
            let mut control = [0u64; 8];
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = std::mem::size_of_val(&control) as _;
            let n = libc::recvmsg(ctl, &mut msg, libc::MSG_CMSG_CLOEXEC);
            if n == -1 && errno() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                // dojo's end is closed: the box ends with the init.
                libc::_exit(0);
            }
            let mut passed = [-1i32; 3];
            let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
            while !cmsg.is_null() {
                if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                    let data = libc::CMSG_DATA(cmsg).cast::<i32>();
                    let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / 4;
                    for i in 0..count {
                        let fd = std::ptr::read_unaligned(data.add(i));
                        match passed.get_mut(i) {
                            Some(slot) if *slot < 0 => *slot = fd,
                            _ => {
                                libc::close(fd);
                            }
                        }
                    }
                }
                cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
            }
            let reply = match buf[0] {
                START if current == 0 && passed.iter().all(|&fd| fd >= 0) => {
                    let env = &buf[MESSAGE.min(n as usize)..n as usize];
                    match start(program, passed, env, plan) {
                        Ok(pid) => {
                            current = pid;
                            message(STARTED, pid, 0)
                        }
                        Err(e) => message(FAILED, 0, e),
                    }
                }
                START => message(FAILED, 0, libc::EBUSY),
                KILL => {
                    kill_all(&mut current);
                    remove_ipc();
                    message(CLEAN, 0, 0)
                }
                RENEW => {
                    kill_all(&mut current);
                    match join_share(passed[0])
                        .and_then(|()| renew(program.scratch.as_ref(), &mut mounted))
                    {
                        Ok(()) => message(RENEWED, 0, 0),
                        Err(e) => message(FAILED, 0, e),
                    }
                }
                _ => message(FAILED, 0, libc::EINVAL),
            };
            for fd in passed {
                if fd >= 0 {
                    libc::close(fd);
                }
            }
            if !send(ctl, &reply) {
                libc::_exit(1);
            }
        }
    }
}

/// Moves the init into the group whose `tasks` file `tasks` is (`-1`:
/// none came). A thread writing `0` there moves itself, the one move the
/// kernel makes without its global thread-group lock (see `cpu_share`);
/// the init has a single thread.
///
/// # Safety
/// As [`run`].
unsafe fn join_share(tasks: i32) -> Result<(), i32> {
    if tasks < 0 {
        return Ok(());
    }
    // SAFETY: writes one byte from a live buffer.
    if unsafe { libc::write(tasks, b"0".as_ptr().cast(), 1) } == 1 {
        Ok(())
    } else {
        Err(errno())
    }
}

/// Reaps ended children (`flags`: `WNOHANG` or 0), reporting the current
/// bot's end.
///
/// # Safety
/// As [`run`].
unsafe fn reap(ctl: i32, current: &mut i32, flags: i32) -> bool {
    let mut any = false;
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes one int.
        let pid = unsafe { libc::waitpid(-1, &mut status, flags) };
        if pid <= 0 {
            if pid == -1 && errno() == libc::EINTR {
                continue;
            }
            return any;
        }
        any = true;
        if pid == *current {
            *current = 0;
            // As when the bot was init of its own namespace: whatever it
            // started dies with it (and lets go of its pipes, so dojo sees
            // their end); the next SIGCHLD reaps them. Nothing to kill
            // when the init has no child left (see `others_left`).
            // SAFETY: as `others_left`.
            if unsafe { others_left() } {
                // SAFETY: kill(-1) from a namespace's init reaches only it.
                unsafe { libc::kill(-1, libc::SIGKILL) };
            }
            // SAFETY: as `send`.
            if unsafe { !send(ctl, &message(EXITED, pid, status)) } {
                // SAFETY: ends this process.
                unsafe { libc::_exit(1) };
            }
        }
    }
}

/// Kills every process in the box but the init and reaps them all.
///
/// # Safety
/// As [`run`].
unsafe fn kill_all(current: &mut i32) {
    // The bot is gone either way: its end is not reported any more.
    *current = 0;
    // SAFETY: as `others_left`.
    while unsafe { others_left() } {
        // SAFETY: kill(-1) from a namespace's init reaches every other
        // process of the namespace and nothing outside it.
        unsafe { libc::kill(-1, libc::SIGKILL) };
        let mut status = 0;
        // SAFETY: waitpid writes one int.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == -1 && errno() == libc::ECHILD {
            break;
        }
    }
}

/// Whether any process but the init is left in the box: whether the init
/// has a child, live or not yet reaped (looked at, not reaped).
///
/// Every other process of the box descends from the init: the bots are
/// its children, what they start their descendants, and an orphan is
/// reparented to the init or to a subreaper below it; nothing enters the
/// box's PID namespace from outside (no `setns` into it anywhere, and
/// seccomp denies it to bots). So with no child there is nothing to kill.
/// Asking costs one system call; `kill(-1)` walks every process of the
/// machine to find those of the namespace, and was made three or four
/// times a game per box: at 64 games in flight, about 600 processes each
/// time, 2.4% of a league's profile, growing with the width.
///
/// # Safety
/// As [`run`].
unsafe fn others_left() -> bool {
    // SAFETY: waitid writes one siginfo_t; WNOWAIT leaves the child as it is.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        loop {
            let r = libc::waitid(
                libc::P_ALL,
                0,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            if r == 0 {
                return true;
            }
            match errno() {
                libc::EINTR => continue,
                // ECHILD: no child at all. Anything else (never seen):
                // kill as before rather than leave something running.
                libc::ECHILD => return false,
                _ => return true,
            }
        }
    }
}

/// Readies the emptied box for a game as a new box would be, so that
/// nothing of the last game reaches the next (`docs/sandbox.md`, "Fresh
/// for every game"): what a game leaves in its scratch directory (files,
/// extended attributes, the directory's own mode and times), in System V
/// IPC (objects, and the ids, which count on from one object to the
/// next) and in the PID counter. With `scratch`, the last game's tmpfs
/// (if `mounted`) is detached and a new one mounted; the box gets a new
/// IPC namespace (or, where the kernel refuses one, its objects removed);
/// and the counter is set back, so the next process is pid 2 as in a new
/// box. The errno of a step that failed.
///
/// # Safety
/// As [`run`]: raw system calls on NUL-terminated strings and stack
/// values; every other process of the box must be gone.
unsafe fn renew(scratch: Option<&ScratchMount>, mounted: &mut bool) -> Result<(), i32> {
    // SAFETY: as this function.
    unsafe {
        if let Some(scratch) = scratch {
            if *mounted && libc::umount2(scratch.path.as_ptr(), libc::MNT_DETACH) == -1 {
                return Err(errno());
            }
            *mounted = false;
            if libc::mount(
                c"tmpfs".as_ptr(),
                scratch.path.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                scratch.options.as_ptr().cast(),
            ) == -1
            {
                return Err(errno());
            }
            *mounted = true;
        }
        if libc::unshare(libc::CLONE_NEWIPC) == -1 {
            remove_ipc();
        }
        let fd = libc::open(
            c"/proc/sys/kernel/ns_last_pid".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if fd == -1 {
            return Err(errno());
        }
        let written = libc::write(fd, b"1".as_ptr().cast(), 1);
        let error = errno();
        libc::close(fd);
        if written != 1 {
            return Err(error.max(1));
        }
    }
    Ok(())
}

/// Closes every descriptor from 3 up but those in `keep` (negative ones
/// are ignored).
///
/// # Safety
/// As [`run`].
unsafe fn close_all_but(mut keep: [i32; 2]) {
    keep.sort_unstable();
    let mut from = 3u32;
    for fd in keep {
        let Ok(fd) = u32::try_from(fd) else { continue };
        if fd < from {
            continue;
        }
        if fd > from {
            // SAFETY: closes descriptors only.
            unsafe { libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32) };
        }
        from = fd + 1;
    }
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32) };
}

/// Removes every System V shared memory segment, message queue and
/// semaphore set of the box's IPC namespace (the init's CAP_SYS_ADMIN
/// there lets it remove any): the next process finds it empty, and
/// nothing a bot left there holds memory. (The next game gets a new
/// namespace: [`renew`].) Raw system calls (`*_INFO` gives the highest
/// index in use, `*_STAT_ANY` (Linux 4.17) the id at an index whatever
/// its mode, `*_STAT` where that is missing).
///
/// # Safety
/// As [`run`].
unsafe fn remove_ipc() {
    // Larger than any of the kernel's info and stat structures.
    let mut buf = [0u64; 64];
    let out = buf.as_mut_ptr();
    // (system call, INFO, STAT_ANY, STAT, whether the call is semctl's,
    // whose command is the third argument)
    let kinds = [
        (libc::SYS_shmctl, 14, 15, 13, false),
        (libc::SYS_msgctl, 12, 13, 11, false),
        (libc::SYS_semctl, 19, 20, 18, true),
    ];
    for (call, info, stat_any, stat, sem) in kinds {
        // SAFETY: the calls write at most one structure into `buf`.
        unsafe {
            let ctl = |id: i64, cmd: i32| {
                if sem {
                    libc::syscall(call, id, 0, cmd, out)
                } else {
                    libc::syscall(call, id, cmd, out)
                }
            };
            let highest = ctl(0, info).min(32_767);
            for index in 0..=highest {
                let mut id = ctl(index, stat_any);
                if id < 0 && errno() == libc::EINVAL {
                    id = ctl(index, stat);
                }
                if id >= 0 {
                    ctl(id, libc::IPC_RMID);
                }
            }
        }
    }
}

/// Starts the bot with `fds` as its stdin, stdout and stderr, in a process
/// group of its own, as the seat's user and confined by `plan` (see
/// [`run`]), and execs it; its pid, or the errno of the clone, the change
/// of user, the confinement or the exec.
///
/// The init is a copy of dojo (forked, never exec'd), so a `fork` here
/// would copy dojo's page tables only for the exec to throw them away
/// (the profile of a contained league had that copy and its teardown on
/// the path of every bot start: `docs/performance.md`). The child shares
/// the init's memory instead (`CLONE_VM | CLONE_VFORK`, as `posix_spawn`
/// does): the init sleeps until the child has exec'd or exited, and the
/// child runs on a stack of its own in the init's frame, makes only raw
/// system calls, and leaves the errno of a failed step in [`Child`] for
/// the init to read.
///
/// # Safety
/// As [`run`].
unsafe fn start(
    program: &Program,
    fds: [i32; 3],
    env: &[u8],
    plan: &super::Containment,
) -> Result<i32, i32> {
    // The environment's pointers, into `env` (each string ends in a NUL).
    let mut envp = [std::ptr::null::<c_char>(); ENV_VARS + 1];
    let mut count = 0;
    let mut begin = 0;
    for (i, &b) in env.iter().enumerate() {
        if b == 0 {
            if count == ENV_VARS {
                return Err(libc::E2BIG);
            }
            envp[count] = env[begin..].as_ptr().cast();
            count += 1;
            begin = i + 1;
        }
    }
    // A cgroup namespace rooted where the init is now: it moves itself
    // into a new group of the CPU controller for every game
    // (`cpu_share`), as it renews the box, so the bot, cloned into it, sees its
    // groups as `/` in every game whatever their names. (A `clone` flag
    // would do it in the same call, but the box's seccomp filters deny
    // `clone` with namespace flags, the init's too.)
    // SAFETY: a raw system call.
    if unsafe { libc::unshare(libc::CLONE_NEWCGROUP) } == -1 {
        return Err(errno());
    }
    let mut child = Child {
        path: program.path.as_ptr(),
        argv: program.argv.as_ptr(),
        envp: envp.as_ptr(),
        fds,
        plan,
        error: 0,
    };
    // The child's stack: it only makes system calls (16-byte aligned).
    // Not zeroed (a stack needs no initial value).
    let mut stack = std::mem::MaybeUninit::<[u128; CHILD_STACK / 16]>::uninit();
    // SAFETY: `child` and `stack` outlive the child's use of them (the
    // init sleeps until it has exec'd or exited: CLONE_VFORK).
    unsafe {
        // Nothing may interrupt the child in the init's memory (the
        // dispositions are the defaults, but a stop would hold the init):
        // everything blocked until its exec.
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::sigprocmask(libc::SIG_SETMASK, &all, &mut old);
        let top = stack
            .as_mut_ptr()
            .cast::<u128>()
            .add(CHILD_STACK / 16)
            .cast::<libc::c_void>();
        let pid = libc::clone(
            exec_child,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw mut child).cast(),
        );
        let clone_error = errno();
        libc::sigprocmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if pid == -1 {
            return Err(clone_error);
        }
        // Written by the child before it exited (the init slept till then).
        let error = std::ptr::read_volatile(&raw const child.error);
        if error != 0 {
            // The exec failed and the child has exited: reap it here.
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            return Err(error);
        }
        Ok(pid)
    }
}

/// Bytes of the started child's stack.
const CHILD_STACK: usize = 16 * 1024;

/// What the child of [`start`] execs, and where it leaves an errno.
struct Child {
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
    fds: [i32; 3],
    /// The seat's user to become (0: none) and the confinement to take on
    /// (see [`run`]).
    plan: *const super::Containment,
    error: i32,
}

/// The child of [`start`], sharing the init's memory until its exec:
/// raw system calls only; a failure leaves its errno in the [`Child`]
/// and exits.
extern "C" fn exec_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the init's `Child`, which outlives this child's
    // use of it; raw system calls on it and on stack values.
    unsafe {
        let child = arg.cast::<Child>();
        let fail = |child: *mut Child| -> ! {
            std::ptr::write_volatile(&raw mut (*child).error, errno().max(1));
            libc::_exit(127)
        };
        // Descriptors 0-2 are the init's /dev/null and every other is
        // above them, so the dup2s below cannot clobber a source.
        for (target, &fd) in (*child).fds.iter().enumerate() {
            if libc::dup2(fd, target as i32) == -1 {
                fail(child);
            }
        }
        libc::setpgid(0, 0);
        // The init stays root: the bot becomes the seat's user here, so
        // it can reach nothing of the init's.
        let plan = &*(*child).plan;
        if plan.seat_id != 0
            && super::seat_credentials(plan.seat_id, super::init_capabilities(plan)) == -1
        {
            fail(child);
        }
        // Then the rest of its confinement (with the init's ruleset
        // descriptor, which is closed next) and no descriptor of the
        // init's.
        if let Err(e) = super::confine_box_bot(plan) {
            std::ptr::write_volatile(
                &raw mut (*child).error,
                e.raw_os_error().unwrap_or(libc::EPERM),
            );
            libc::_exit(127)
        }
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32);
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::execve((*child).path, (*child).argv, (*child).envp);
        fail(child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_and_environment_are_found_in_a_stat_line() {
        // Fields 48 to 51 of a real line, after a command name holding a
        // parenthesis and spaces.
        let mut stat = "42 (a) b c) S".to_string();
        for field in 4..=47 {
            stat.push_str(&format!(" {field}"));
        }
        stat.push_str(" 1000 1020 1020 1100 0");
        assert_eq!(args_and_env(&stat), Some([1000..1020, 1020..1100]));
        // Zero where the memory may not be looked at, or cut short.
        let hidden = stat.replace(" 1000 1020 1020 1100", " 0 0 0 0");
        assert_eq!(args_and_env(&hidden), None);
        assert_eq!(args_and_env("42 (a) S 1 2"), None);
        // This process's own: its command line is where it says.
        let own = std::fs::read_to_string("/proc/self/stat").expect("stat");
        let [args, _] = args_and_env(&own).expect("own ranges");
        let cmdline = std::fs::read("/proc/self/cmdline").expect("cmdline");
        assert_eq!(args.len(), cmdline.len());
    }

    /// What the init asks before each `kill(-1)`: a live child and a
    /// child not yet reaped are something left; none at all is nothing.
    /// Run in a forked child of its own, which has no other child (this
    /// test binary's other threads start processes of their own).
    #[test]
    fn others_left_sees_a_live_or_unreaped_child_and_nothing_else() {
        // SAFETY: the forked child makes only async-signal-safe system
        // calls and ends with `_exit`.
        unsafe {
            let tester = libc::fork();
            assert!(tester >= 0, "fork");
            if tester == 0 {
                let mut wrong = 0;
                if others_left() {
                    wrong |= 1;
                }
                let child = libc::fork();
                if child == 0 {
                    libc::pause();
                    libc::_exit(0);
                }
                if !others_left() {
                    wrong |= 2;
                }
                libc::kill(child, libc::SIGKILL);
                // Dead, and not yet reaped.
                let mut info: libc::siginfo_t = std::mem::zeroed();
                libc::waitid(
                    libc::P_PID,
                    child as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOWAIT,
                );
                if !others_left() {
                    wrong |= 4;
                }
                libc::waitpid(child, std::ptr::null_mut(), 0);
                if others_left() {
                    wrong |= 8;
                }
                libc::_exit(wrong);
            }
            let mut status = 0;
            libc::waitpid(tester, &mut status, 0);
            assert!(
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                "wrong answers (bits: before a child, with it, dead, reaped): {status:#x}"
            );
        }
    }
}

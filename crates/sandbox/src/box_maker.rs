//! The box maker: a small process of dojo's own that forks every box's
//! waiter (and so its init), so that dojo itself is not forked for a box.
//!
//! A fork costs what the forked process has: every writable page of it
//! is made copy-on-write, in the child and in the parent, and every
//! thread of the parent then faults (with a TLB shootdown to the other
//! cores) on its next write to each. dojo, 64 or 256 workers wide, has
//! many threads and pages: a box's two forks (waiter, init) of it were
//! most of a wide league's CPU (`docs/performance.md`, "Who forks a
//! box"). The maker is forked once, as soon as the first box is wanted;
//! it has one thread and does nothing but read a request, fork and
//! answer, so its forks copy little and fault no one.
//!
//! A request is the box's [`Launch`] (serialized: the maker is a fork of
//! dojo, but what dojo made after the fork is not in its memory), the
//! init's end of the box's socket pair and the join
//! descriptors of the box's groups (`cgroup::open_join`) (dojo makes the groups and keeps them,
//! for the accounting). The maker forks the box as [`crate::spawn`] does
//! for dojo, and answers with the pids of the waiter and init and a pidfd
//! of each. The waiter is the maker's child: the maker reaps it. Its
//! PDEATHSIG is on the maker, whose PDEATHSIG is on a thread of dojo's
//! that never ends: `kill -9` of dojo still takes every box down.
//!
//! Where the maker cannot be started, or has failed, dojo forks boxes
//! itself, as before (`DOJO_BOX_MAKER=0` asks for that).

use std::mem::MaybeUninit;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags};
use rustix::net::{RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendFlags, recvmsg};
use serde::{Deserialize, Serialize};

use crate::spawn::{GroupGuard, Launch, Waiter};
use crate::sys::{self, Containment};

/// How long dojo waits for the maker's answer: it forks at once unless
/// the machine is swamped.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// The largest request (a command and environment of a few KiB; a
/// request that does not fit is made by dojo itself).
const MOST_BYTES: usize = 256 * 1024;

/// What the maker needs to fork a box: everything of [`Launch`] and of
/// the init's program, as owned values.
#[derive(Debug, Serialize, Deserialize)]
struct Request {
    command: Vec<String>,
    dir: PathBuf,
    scratch: Option<PathBuf>,
    env: Vec<(String, String)>,
    extra_read: Vec<PathBuf>,
    manifest: Option<PathBuf>,
    clean_env: bool,
    cpu: Option<usize>,
    containment: Containment,
    /// The plan loads the seccomp filters (the maker's are dojo's: both
    /// were built before the fork).
    seccomp: bool,
    /// The init's environment and scratch mount (path, options).
    base_env: Vec<(String, String)>,
    mount: Option<(Vec<u8>, Vec<u8>)>,
    /// How many descriptors after the init's socket are group joins.
    groups: usize,
}

/// The maker's answer.
#[derive(Debug, Serialize, Deserialize)]
enum Answer {
    /// The waiter's pid, and the init's if it was seen; a pidfd of each
    /// comes with it, in that order.
    Made { waiter: i32, init: Option<i32> },
    /// The fork failed: the OS error, if it was one, and what it said.
    Failed { errno: Option<i32>, text: String },
}

/// dojo's end of the maker.
struct Maker {
    socket: Mutex<OwnedFd>,
    pid: i32,
    /// Set when the maker failed to answer: dojo forks boxes itself.
    dead: AtomicBool,
}

/// The makers: one per CPU dojo may use (at most [`MOST_MAKERS`]), so
/// that the boxes of a wide league's first games are forked on every
/// core at once; empty when boxes are forked by dojo.
static MAKERS: OnceLock<Vec<Maker>> = OnceLock::new();

/// Most makers (each is a sleeping process when no box is being made).
const MOST_MAKERS: usize = 8;

/// Whether boxes are made by the maker (unless `DOJO_BOX_MAKER=0`).
fn wanted(var: Option<&str>) -> bool {
    var != Some("0")
}

/// Starts the makers now, if they are wanted and not started yet: where
/// dojo is still small (a maker is a copy of dojo as it is when forked,
/// and each box it forks copies that). Later calls do nothing; without
/// one, the first box starts them.
pub fn start_makers() {
    let _ = makers();
}

/// The makers, started at the first call.
fn makers() -> &'static [Maker] {
    MAKERS.get_or_init(|| {
        if !wanted(std::env::var("DOJO_BOX_MAKER").ok().as_deref()) {
            return Vec::new();
        }
        let n = sys::allowed_cpus().len().clamp(1, MOST_MAKERS);
        (0..n).map_while(|_| start().ok()).collect()
    })
}

/// A maker that works, locked for one request: a free one if there is
/// one, else this thread's turn on one.
fn maker() -> Option<(&'static Maker, std::sync::MutexGuard<'static, OwnedFd>)> {
    let makers = makers();
    let live = || makers.iter().filter(|m| !m.dead.load(Ordering::Relaxed));
    for m in live() {
        if let Ok(socket) = m.socket.try_lock() {
            return Some((m, socket));
        }
    }
    let n = live().count();
    if n == 0 {
        return None;
    }
    let turn = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::thread::current().id().hash(&mut h);
        h.finish() as usize % n
    };
    let m = live().nth(turn)?;
    Some((m, m.socket.lock().unwrap_or_else(|p| p.into_inner())))
}

/// Forks the maker from a thread of its own that never ends (its
/// PDEATHSIG is on that thread), after everything the maker computes
/// from caches of this process is cached: a cache another thread was
/// filling at the fork would stay locked in the maker.
fn start() -> std::io::Result<Maker> {
    let _ = crate::seccomp::filters();
    let _ = crate::seccomp::pinned_filters();
    let _ = crate::reaper::enable(crate::plan::layer_available("subreaper"));
    crate::root::warm_caches();
    crate::confine::warm_caches();
    let (ours, theirs) = crate::socket::pair()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let ours_for_thread = ours.try_clone()?;
    std::thread::Builder::new()
        .name("dojo-box-maker".into())
        .spawn(move || {
            let alone = crate::reaper::no_spawn_in_flight();
            let forked = sys::fork_server(theirs, &ours_for_thread, alone, serve);
            drop(ours_for_thread);
            let ok = forked.is_ok();
            let _ = tx.send(forked);
            if ok {
                // The maker's PDEATHSIG is on this thread.
                loop {
                    std::thread::park();
                }
            }
        })?;
    let pid = rx
        .recv()
        .map_err(|_| std::io::Error::other("the box maker's thread ended"))??;
    // Tracked, so that dojo's sweep (it is a child in a process group of
    // its own) leaves it alone.
    sys::register_group(pid);
    Ok(Maker {
        socket: Mutex::new(ours),
        pid,
        dead: AtomicBool::new(false),
    })
}

/// Has the maker fork the box of `launch`, whose init talks on `init_end`
/// and runs with `base_env` and the scratch `mount`, into `cgroup`.
/// `None`: there is no maker (the caller forks the box itself).
pub(crate) fn make(
    launch: &Launch<'_>,
    init_end: &OwnedFd,
    base_env: &[(String, String)],
    mount: Option<&sys::init::ScratchMount>,
    cgroup: Option<crate::cgroup::BotGroup>,
) -> Option<std::io::Result<GroupGuard>> {
    let request = Request {
        command: launch.command.to_vec(),
        dir: launch.dir.to_path_buf(),
        scratch: launch.scratch.map(std::path::Path::to_path_buf),
        env: launch.env.to_vec(),
        extra_read: launch.extra_read.to_vec(),
        manifest: launch.manifest.map(std::path::Path::to_path_buf),
        clean_env: launch.clean_env,
        cpu: launch.cpu,
        containment: launch.containment,
        seccomp: !launch.containment.seccomp.is_empty(),
        base_env: base_env.to_vec(),
        mount: mount.map(|m| (m.path.as_bytes().to_vec(), m.options.as_bytes().to_vec())),
        groups: 0,
    };
    let joins: Vec<BorrowedFd<'_>> = cgroup
        .as_ref()
        .map(|g| g.join_fds_borrowed())
        .unwrap_or_default();
    let request = Request {
        groups: joins.len(),
        ..request
    };
    let bytes = match serde_json::to_vec(&request) {
        Ok(bytes) if bytes.len() <= MOST_BYTES => bytes,
        _ => return None,
    };
    let mut fds = vec![init_end.as_fd()];
    fds.extend(joins);
    let (maker, socket) = maker()?;
    if maker.dead.load(Ordering::Relaxed) {
        return None;
    }
    let asked = ask(&socket, &bytes, &fds);
    let (answer, mut got) = match asked {
        Ok(answered) => answered,
        Err(_) => {
            // The maker is gone or stuck: boxes are made by dojo from now
            // on (this one too), and a stuck maker is ended.
            maker.dead.store(true, Ordering::Relaxed);
            sys::unregister_and_kill_group(maker.pid);
            if let Some(pid) = rustix::process::Pid::from_raw(maker.pid) {
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
            }
            return None;
        }
    };
    drop(socket);
    Some(match answer {
        Answer::Made { waiter, init } if !got.is_empty() => {
            let waiter_fd = got.remove(0);
            let init_fd = if init.is_some() && !got.is_empty() {
                Some(got.remove(0))
            } else {
                None
            };
            sys::register_group(waiter);
            let mut guard = GroupGuard::new(Waiter::Made(waiter_fd), waiter, init_fd, init, cgroup);
            guard.maker = Some(maker.pid);
            Ok(guard)
        }
        Answer::Made { .. } => Err(std::io::Error::other(
            "the box maker answered without the box's descriptors",
        )),
        Answer::Failed {
            errno: Some(e),
            text,
        } => Err(std::io::Error::new(
            std::io::Error::from_raw_os_error(e).kind(),
            text,
        )),
        Answer::Failed { errno: None, text } => Err(std::io::Error::other(text)),
    })
}

/// Whether the maker of pid `pid` has ended: every box it made went with
/// it (its waiters' PDEATHSIG is on it). Nothing a bot does reaches it
/// (it is dojo's child, outside every box, in none of their groups), so
/// a box lost with its maker was lost from outside: by an administrator's
/// `kill`, or the OOM killer taking dojo's own processes.
pub(crate) fn ended(pid: i32) -> bool {
    let Some(maker) = makers().iter().find(|m| m.pid == pid) else {
        return false;
    };
    // A maker found stuck or gone by `make` was killed and reaped there.
    maker.dead.load(Ordering::Relaxed) || sys::exited_no_reap(pid).is_some()
}

/// Sends one request and waits for its answer.
fn ask(
    socket: &OwnedFd,
    bytes: &[u8],
    fds: &[BorrowedFd<'_>],
) -> std::io::Result<(Answer, Vec<OwnedFd>)> {
    send(socket, bytes, fds)?;
    if !crate::socket::readable_within(socket, ANSWER_WAIT) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "the box maker did not answer",
        ));
    }
    let (bytes, fds) = receive(socket)?;
    let answer = serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
    Ok((answer, fds))
}

/// One message with up to four descriptors, to or from the maker.
fn send(socket: &OwnedFd, bytes: &[u8], fds: &[BorrowedFd<'_>]) -> std::io::Result<()> {
    crate::socket::send(socket, bytes, fds, SendFlags::NOSIGNAL, "the box maker")
}

/// One message and its descriptors; an error once the other end is gone.
fn receive(socket: &OwnedFd) -> std::io::Result<(Vec<u8>, Vec<OwnedFd>)> {
    let mut buf = vec![0u8; MOST_BYTES];
    let mut space =
        [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(crate::socket::MOST_FDS))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let got = recvmsg(
        socket,
        &mut [std::io::IoSliceMut::new(&mut buf)],
        &mut control,
        RecvFlags::CMSG_CLOEXEC,
    )?;
    let mut fds = Vec::new();
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(rights) = message {
            fds.extend(rights);
        }
    }
    if got.bytes == 0 {
        return Err(std::io::Error::other("the other end is gone"));
    }
    buf.truncate(got.bytes);
    Ok((buf, fds))
}

/// The maker's life: answer each request until dojo's end closes, reaping
/// the waiters that ended meanwhile.
fn serve(socket: OwnedFd) -> ! {
    loop {
        reap();
        let mut poll = [PollFd::new(&socket, PollFlags::IN)];
        match rustix::event::poll(&mut poll, Some(&sys::timespec(Duration::from_millis(500)))) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(_) => std::process::exit(1),
        }
        let Ok((bytes, fds)) = receive(&socket) else {
            std::process::exit(0);
        };
        let (answer, pidfds) = fork_box(&bytes, fds);
        let reply = serde_json::to_vec(&answer).unwrap_or_default();
        let borrowed: Vec<BorrowedFd<'_>> = pidfds.iter().map(AsFd::as_fd).collect();
        if send(&socket, &reply, &borrowed).is_err() {
            std::process::exit(0);
        }
    }
}

/// Reaps every waiter that has ended.
fn reap() {
    use rustix::process::{WaitOptions, wait};
    while let Ok(Some(_)) = wait(WaitOptions::NOHANG) {}
}

/// Forks the box a request asks for (in the maker).
fn fork_box(bytes: &[u8], mut fds: Vec<OwnedFd>) -> (Answer, Vec<OwnedFd>) {
    let failed = |e: std::io::Error| Answer::Failed {
        errno: e.raw_os_error(),
        text: e.to_string(),
    };
    let request: Request = match serde_json::from_slice(bytes) {
        Ok(r) => r,
        Err(e) => return (failed(std::io::Error::other(e)), Vec::new()),
    };
    if fds.len() != 1 + request.groups {
        return (
            failed(std::io::Error::other(
                "a box request came with the wrong descriptors",
            )),
            Vec::new(),
        );
    }
    let mut joins = [-1; crate::cgroup::MOST_GROUPS];
    for (slot, fd) in joins.iter_mut().zip(&fds[1..]) {
        *slot = fd.as_raw_fd();
    }
    let mut containment = request.containment;
    containment.seccomp = if request.seccomp {
        crate::seccomp::filters().unwrap_or_default()
    } else {
        &[]
    };
    let mount = match request.mount {
        Some((path, options)) => match (
            std::ffi::CString::new(path),
            std::ffi::CString::new(options),
        ) {
            (Ok(path), Ok(options)) => Some(sys::init::ScratchMount { path, options }),
            _ => {
                return (
                    failed(std::io::Error::other("a NUL byte in a mount")),
                    Vec::new(),
                );
            }
        },
        None => None,
    };
    let program = match sys::init::Program::new(&request.command, &request.base_env, mount) {
        Ok(p) => p,
        Err(e) => return (failed(e), Vec::new()),
    };
    let launch = Launch {
        command: &request.command,
        dir: &request.dir,
        scratch: request.scratch.as_deref(),
        env: &request.env,
        containment,
        extra_read: &request.extra_read,
        manifest: request.manifest.as_deref(),
        clean_env: request.clean_env,
        cpu: request.cpu,
    };
    let init_end = fds.remove(0);
    let forked =
        crate::spawn::fork_contained(&launch, joins, Some((init_end.as_raw_fd(), program)));
    drop(init_end);
    drop(fds);
    match forked {
        Ok(forked) => {
            let waiter = forked.child.id() as i32;
            let Some(waiter_fd) = sys::pidfd(waiter) else {
                return (
                    failed(std::io::Error::other("no pidfd of the box's waiter")),
                    Vec::new(),
                );
            };
            let init_fd = forked.init_pid.and_then(sys::pidfd);
            let init = forked.init_pid.filter(|_| init_fd.is_some());
            let mut pidfds = vec![waiter_fd];
            pidfds.extend(init_fd);
            // The waiter is reaped by `reap`: its handle is not waited on.
            drop(forked);
            (Answer::Made { waiter, init }, pidfds)
        }
        Err(e) => (failed(e), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_zero_turns_the_maker_off() {
        assert!(wanted(None));
        assert!(wanted(Some("1")));
        assert!(!wanted(Some("0")));
    }

    #[test]
    fn a_request_reads_back_as_it_was_written() {
        let mut containment = Containment {
            unshare_flags: sys::NEW_PID | sys::NEW_NS,
            seat_id: 7,
            minimal_root: true,
            ..Containment::default()
        };
        containment.rlimits[0] = Some((libc::RLIMIT_AS as i32, 1 << 30));
        containment.group_limits.memory_bytes = Some(1 << 28);
        let request = Request {
            command: vec!["python3".into(), "bot.py".into()],
            dir: "/bots/x".into(),
            scratch: Some("/tmp/s".into()),
            env: vec![("A".into(), "1".into())],
            extra_read: vec![],
            manifest: Some("/cache/x".into()),
            clean_env: true,
            cpu: Some(1),
            containment,
            seccomp: true,
            base_env: vec![("HOME".into(), "/tmp/s".into())],
            mount: Some((b"/tmp/s".to_vec(), b"size=1m".to_vec())),
            groups: 2,
        };
        let back: Request = serde_json::from_slice(&serde_json::to_vec(&request).unwrap()).unwrap();
        assert_eq!(format!("{back:?}"), format!("{request:?}"));
    }
}

//! The few raw system calls the runner needs, kept in one place so the
//! rest of the crate stays free of `unsafe`.
#![allow(unsafe_code)]

use std::collections::BTreeSet;
use std::sync::Mutex;

/// How a process ended, as far as the runner cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitKind {
    /// Exited normally with this status code.
    Code(i32),
    /// Killed by a signal (or ended in a way we could not decode).
    Signal,
}

/// Process-group ids of every bot process that is alive (spawned and not
/// yet reaped). A pid cannot be reused before it is reaped, and removal
/// happens before reaping, so a group id in this set always still names
/// one of our bots.
static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live_groups() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Records a freshly spawned bot's process group.
pub(crate) fn register_group(pgid: i32) {
    live_groups().insert(pgid);
}

/// Forgets a process group and sends SIGKILL to all of it. Must be called
/// before the group leader is reaped (see [`LIVE_GROUPS`]).
pub(crate) fn unregister_and_kill_group(pgid: i32) {
    let mut groups = live_groups();
    groups.remove(&pgid);
    kill_group(pgid);
}

fn kill_group(pgid: i32) {
    if pgid <= 1 {
        // killpg(0) would hit our own group and killpg(1) init's: never.
        return;
    }
    // SAFETY: killpg has no memory-safety preconditions; the group id was
    // taken from a child we spawned with its own process group and have
    // not reaped yet, so it cannot name an unrelated group.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Sends SIGKILL to the process group of every bot that any game in this
/// process is running. Meant for a Ctrl-C handler (it takes a mutex, so
/// call it from a normal thread such as the one the `ctrlc` crate uses,
/// not from a raw signal handler). The games notice their bots dying; set
/// their `cancel` flag as well so they stop instead of restarting them.
pub fn kill_all_bots() {
    let groups = live_groups();
    for &pgid in groups.iter() {
        kill_group(pgid);
    }
}

/// Whether any process of group `pgid` is still running.
///
/// Zombies count as dead: a killed grandchild (a bot's own child) is
/// reparented to init, and an init that does not reap (common in
/// containers) leaves it as a zombie that still answers `kill(-pgid, 0)`.
pub fn process_group_alive(pgid: i32) -> bool {
    if pgid <= 1 {
        return false;
    }
    // SAFETY: kill with signal 0 only checks for existence and permission.
    let rc = unsafe { libc::kill(-pgid, 0) };
    if rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
        return false;
    }
    live_members_from_proc(pgid).unwrap_or(true)
}

/// Looks through /proc for non-zombie members of `pgid`; `None` when
/// /proc cannot be read (non-Linux), in which case the caller stays
/// with the answer of `kill`.
fn live_members_from_proc(pgid: i32) -> Option<bool> {
    let entries = std::fs::read_dir("/proc").ok()?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name is in parentheses and may contain anything, so
        // fields are counted from the last ')': state, ppid, pgrp.
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let mut fields = stat[close + 1..].split_whitespace();
        let state = fields.next().unwrap_or("");
        let _ppid = fields.next();
        let pgrp = fields.next().and_then(|f| f.parse::<i32>().ok());
        if pgrp == Some(pgid) && state != "Z" && state != "X" {
            return Some(true);
        }
    }
    Some(false)
}

/// Blocks until process `pid` (our child) has ended, without reaping it,
/// so its pid stays reserved until the owner kills its group and reaps it.
/// Returns `None` if the child is gone already (reaped by its owner).
pub(crate) fn wait_exit_no_reap(pid: i32) -> Option<ExitKind> {
    loop {
        // SAFETY: an all-zero siginfo_t is a valid value of this plain C
        // struct, and waitid only writes into the struct we pass.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable siginfo_t; P_PID with our own
        // child's pid; WNOWAIT leaves the child to be reaped by its owner.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 {
            return Some(if info.si_code == libc::CLD_EXITED {
                // SAFETY: for CLD_EXITED the union holds the child fields.
                ExitKind::Code(unsafe { info.si_status() })
            } else {
                ExitKind::Signal
            });
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return None;
        }
    }
}

/// Asks the kernel to SIGKILL the bot if the thread that started it dies,
/// which covers the one exit path no guard can: the harness itself being
/// killed with SIGKILL. (Only the bot's own process gets the signal; its
/// children still die with their group on every other path.)
#[cfg(target_os = "linux")]
pub(crate) fn die_with_parent(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and only
    // calls prctl, which is async-signal-safe; it touches no memory of the
    // parent.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Elsewhere the guards and the Ctrl-C handler are the only protection.
#[cfg(not(target_os = "linux"))]
pub(crate) fn die_with_parent(_command: &mut std::process::Command) {}

/// Blocks until `fd` has data to read or is at end of file (or in error),
/// without reading: the stderr drain reads only while it holds the log's
/// lock, so the bytes it has taken from the pipe are always in the log.
pub(crate) fn wait_readable(fd: std::os::fd::BorrowedFd<'_>) {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: `poll` points to one valid pollfd for the call's duration,
        // and `fd` is a descriptor the caller keeps open.
        let rc = unsafe { libc::poll(&mut poll, 1, -1) };
        if rc >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Bytes waiting in the pipe behind `fd` (0 if that cannot be told).
pub(crate) fn pending_bytes(fd: std::os::fd::BorrowedFd<'_>) -> u64 {
    use std::os::fd::AsRawFd;
    let mut pending: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int through the pointer, which points
    // to a live local; `fd` is a descriptor the caller keeps open.
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONREAD, &mut pending) };
    if rc == 0 {
        u64::try_from(pending).unwrap_or(0)
    } else {
        0
    }
}

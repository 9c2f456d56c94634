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

/// A pidfd for our child `pid` (readable once it has ended), or `None`
/// where the kernel has none (before Linux 5.3): the game loop then asks
/// [`exited_no_reap`] on every wake-up instead.
pub(crate) fn pidfd(pid: i32) -> Option<std::os::fd::OwnedFd> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

/// How our child `pid` ended, if it has, without reaping it: its pid stays
/// reserved until the owner kills its group and reaps it.
pub(crate) fn exited_no_reap(pid: i32) -> Option<ExitKind> {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let pid = Pid::from_raw(pid)?;
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
    loop {
        match waitid(WaitId::Pid(pid), options) {
            Ok(Some(status)) => {
                return Some(match status.exit_status() {
                    Some(code) if status.exited() => ExitKind::Code(code),
                    _ => ExitKind::Signal,
                });
            }
            Ok(None) => return None,
            Err(rustix::io::Errno::INTR) => {}
            // ECHILD: reaped already; nothing more will be seen of it.
            Err(_) => return None,
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

/// `d` as a poll timeout (saturating: poll's `None` would mean forever).
pub(crate) fn timespec(d: std::time::Duration) -> rustix::event::Timespec {
    rustix::event::Timespec::try_from(d).unwrap_or(rustix::event::Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    })
}

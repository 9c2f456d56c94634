//! The containment that needs no privilege: dojo as a child subreaper.
//!
//! Where a bot process gets neither a PID namespace nor a control group
//! (`--sandbox off`, a kernel or container that allows neither, or both
//! skipped), its process group is all the runner kills, and a descendant
//! that left the group (`setsid`, `setpgid`, a double-forked daemon) would
//! outlive the game. So dojo makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`, once, process-wide), and each bot process
//! without a PID namespace is one too:
//!
//! - while the bot lives, a descendant whose parent dies is adopted by the
//!   bot (not by dojo, not by init), so it stays in the bot's tree (its
//!   CPU time counts for the bot) and no other game's sweep can touch it;
//! - when the bot process ends, what it had adopted or started and left
//!   behind is adopted by dojo, and [`sweep`] (run whenever a bot process
//!   without a PID namespace has been killed and reaped) kills each such
//!   process's whole tree and reaps it. (From a PID namespace nothing
//!   escapes: its init reaps the rest as it dies, and the guard reaps
//!   the init itself if dojo adopted it: `crate::spawn::GroupGuard`.)
//!
//! What the sweep takes for an escapee: a child of dojo that the runner
//! does not track (bots, their waiters and builds are tracked from their
//! spawn until they are reaped) and that is in another process group or
//! session than dojo. Every process the runner starts is in a process group
//! of its own, and so is everything it starts unless it moves, so children
//! that a program embedding the runner starts itself (in its own process
//! group) are never touched. Tracked children are reaped by their owner
//! (`std::process::Child`); the sweep reaps only the escapees, each by its
//! pidfd, never with a wait for any child, which would steal the owner's
//! reap.
//!
//! A spawn on another thread holds [`hold`] from before its fork until its
//! child is tracked, and a retiring process holds it from untracking its
//! child until it has reaped it: the sweep takes the other side of the
//! lock, so it never sees a fresh child (already in its own process
//! group, not yet tracked) or a retired one (untracked, not yet reaped)
//! as an escapee.
//!
//! A bot may turn its own subreaper attribute off: its orphans are then
//! adopted by dojo at once and swept at the next sweep, whichever game's
//! process ends; that harms only the bot itself.
//!
//! Limits: a descendant that moves itself into dojo's own process group
//! (`setpgid` to a group of the same session; dojo's group id is easy to
//! find) is taken for a child of the embedding program and escapes the
//! sweep; the PID namespace and the cgroup have no such hole (bots do not
//! get a session of their own because, where the kernel groups the
//! scheduler by session, that would change how a core is shared). The
//! sweep runs in dojo. After `kill -9` of dojo, the bots die
//! (`PR_SET_PDEATHSIG`) but what they left behind is adopted by init (or
//! the nearest subreaper above dojo, such as a `systemd --user`) and runs
//! on. A PID namespace covers that case (see `crate::sys::contain`), and a
//! control group covers escapes while dojo runs.

use std::os::fd::AsFd;
use std::sync::{OnceLock, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};
use rustix::process::{Signal, WaitId, WaitIdOptions};

/// Read side: spawning (fork to tracked) and retiring (untracked to
/// reaped). Write side: the sweep.
static SPAWN_LOCK: RwLock<()> = RwLock::new(());

/// How long a sweep waits for killed escapees to die before it leaves
/// the rest to the next sweep (SIGKILL takes effect at once unless a
/// process is stuck in the kernel).
const SWEEP_WAIT: Duration = Duration::from_secs(5);

/// Keeps sweeps off while held (see the module documentation).
pub fn hold() -> RwLockReadGuard<'static, ()> {
    SPAWN_LOCK
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Waits until no spawn is between its fork and its tracking (and holds
/// off new ones while held): then no child dojo forked still runs dojo's
/// code with copies of its descriptors (see [`crate::fork_fence::FencedFile`]).
pub fn no_spawn_in_flight() -> std::sync::RwLockWriteGuard<'static, ()> {
    SPAWN_LOCK
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether this kernel has child subreapers (Linux 3.4 and later).
pub fn supported() -> bool {
    rustix::process::child_subreaper().is_ok()
}

/// Whether dojo has made itself a subreaper (set once, by [`enable`]).
static ENABLED: OnceLock<bool> = OnceLock::new();

/// Makes dojo a child subreaper, once; whether it is one. Off when the
/// `subreaper` layer is missing (or skipped): `available`, from
/// `crate::plan::layer_available`.
pub fn enable(available: bool) -> bool {
    *ENABLED.get_or_init(|| {
        available && rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok()
    })
}

/// Whether [`enable`] has made dojo a subreaper (without enabling it).
fn enabled() -> bool {
    ENABLED.get().copied().unwrap_or(false)
}

/// Kills and reaps every escapee (see the module documentation) with its
/// whole tree. Returns how many escapees it reaped.
pub fn sweep() -> usize {
    if !enabled() {
        return 0;
    }
    let _alone = SPAWN_LOCK
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // From `/proc/self/stat`, as the children's ids are read: where dojo's
    // session leader or group leader lives outside dojo's PID namespace
    // (a container, `unshare --pid`), the kernel reports its id as 0, which
    // `getsid`/`getpgrp` wrappers taking ids for non-zero reject.
    let Some(me) = stat("self") else {
        return 0;
    };
    let own = Own {
        session: me.session,
        group: me.pgrp,
    };
    let deadline = Instant::now() + SWEEP_WAIT;
    let mut reaped = 0;
    loop {
        let found = escapees(&own);
        if found.is_empty() {
            break;
        }
        // Their descendants first (SIGKILL stops them forking at once);
        // whatever one of them forked meanwhile is adopted by dojo when
        // its parent dies, and met by the next round.
        let roots: Vec<i32> = found.iter().map(|(pid, _)| *pid).collect();
        for (pid, start) in descendants(&roots) {
            kill_if_same(pid, start);
        }
        for (_, pidfd) in &found {
            let _ = rustix::process::pidfd_send_signal(pidfd, Signal::KILL);
        }
        for (_, pidfd) in &found {
            let left = deadline.saturating_duration_since(Instant::now());
            let mut fds = [PollFd::new(pidfd, PollFlags::IN)];
            let _ = rustix::event::poll(&mut fds, Some(&crate::sys::timespec(left)));
            let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG;
            if let Ok(Some(_)) = rustix::process::waitid(WaitId::PidFd(pidfd.as_fd()), options) {
                reaped += 1;
            }
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    reaped
}

/// The fields of `/proc/PID/stat` the sweep needs.
struct Stat {
    ppid: i32,
    pgrp: i32,
    session: i32,
    start: u64,
}

/// `pid` is a process id or `self`.
fn stat(pid: impl std::fmt::Display) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name (which may hold anything): state (3), ppid
    // (4), pgrp (5), session (6), ..., starttime (22).
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        session: fields.get(3)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// dojo's process group and session.
struct Own {
    group: i32,
    session: i32,
}

/// dojo's untracked children in other process groups or sessions, each
/// with a pidfd taken before it was checked (so the pidfd is of the
/// process checked).
fn escapees(own: &Own) -> Vec<(i32, std::os::fd::OwnedFd)> {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let tracked = crate::sys::live_group_ids();
    let mut found = Vec::new();
    for pid in children_of_self() {
        if tracked.contains(&pid) {
            continue;
        }
        let Some(pidfd) = crate::sys::pidfd(pid) else {
            continue;
        };
        let Some(stat) = stat(pid) else { continue };
        if stat.ppid == me && (stat.pgrp != own.group || stat.session != own.session) {
            found.push((pid, pidfd));
        }
    }
    found
}

/// dojo's children (of every thread: an adopted process is the child of
/// one of dojo's threads), from `/proc/self/task/*/children`, or from a
/// scan of every process's parent where the kernel lacks those files.
fn children_of_self() -> Vec<i32> {
    let mut out = Vec::new();
    let mut listed = false;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                listed = true;
                out.extend(
                    text.split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
    }
    if !listed {
        let me = rustix::process::getpid().as_raw_nonzero().get();
        out = all_processes()
            .into_iter()
            .filter(|(_, stat)| stat.ppid == me)
            .map(|(pid, _)| pid)
            .collect();
    }
    out
}

/// Every process in `/proc` with its stat fields.
fn all_processes() -> Vec<(i32, Stat)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| Some((pid, stat(pid)?)))
        .collect()
}

/// Every descendant of `roots` (pid and start time), from one scan of
/// `/proc`.
fn descendants(roots: &[i32]) -> Vec<(i32, u64)> {
    let all = all_processes();
    let mut children: std::collections::HashMap<i32, Vec<(i32, u64)>> =
        std::collections::HashMap::new();
    for (pid, stat) in &all {
        children
            .entry(stat.ppid)
            .or_default()
            .push((*pid, stat.start));
    }
    let mut out = Vec::new();
    let mut parents: Vec<i32> = roots.to_vec();
    // A tree cannot hold more processes than the machine: the bound only
    // guards against a cycle through a recycled pid.
    let mut budget = all.len();
    while let Some(parent) = parents.pop() {
        for &(pid, start) in children.get(&parent).into_iter().flatten() {
            if budget == 0 {
                return out;
            }
            budget -= 1;
            out.push((pid, start));
            parents.push(pid);
        }
    }
    out
}

/// SIGKILLs `pid` through a pidfd if it is still the process that
/// started at `start` (checked after taking the pidfd, so a recycled pid
/// is never signalled).
fn kill_if_same(pid: i32, start: u64) {
    let Some(pidfd) = crate::sys::pidfd(pid) else {
        return;
    };
    if stat(pid).is_some_and(|now| now.start == start) {
        let _ = rustix::process::pidfd_send_signal(&pidfd, Signal::KILL);
    }
}

/// Sends SIGKILL to the process group of every bot that any game in this
/// process is running. Meant for a Ctrl-C handler (it takes a mutex, so
/// call it from a normal thread such as the CLI's signal-watching one,
/// not from a raw signal handler). The games notice their bots dying; set
/// their `cancel` flag as well so they stop instead of restarting them.
pub fn kill_all_bots() {
    crate::sys::kill_all_groups();
    // And what bots that already ended left behind.
    sweep();
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_child_the_embedding_program_starts_itself_is_never_swept() {
        if !super::enable(crate::plan::layer_available("subreaper")) {
            eprintln!("skipped: no child subreaper here");
            return;
        }
        // In this process's own group and session, like every child a
        // program starts with std::process::Command.
        let mut own = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep starts");
        super::sweep();
        let still_running = matches!(own.try_wait(), Ok(None));
        let _ = own.kill();
        let _ = own.wait();
        assert!(still_running, "the sweep took a child it does not own");
    }
}

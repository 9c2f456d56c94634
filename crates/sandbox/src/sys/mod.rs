//! The few raw system calls the crate needs, kept in one place so the
//! rest of the crate stays free of `unsafe`: the lowest layer, calling
//! nothing of the crate above it. Besides the calls themselves it holds
//! the code that runs where only async-signal-safe calls may: the forked
//! child between fork and exec (`contain`), a box's init (`init`) and
//! the child's half of a minimal root (`root`).
#![allow(unsafe_code)]

pub(crate) mod init;
pub(crate) mod root;

use std::collections::BTreeSet;
use std::sync::Mutex;

/// What a bot's group limits, and whether it counts CPU time.
#[derive(Debug, Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub struct GroupLimits {
    pub processes: Option<u64>,
    pub memory_bytes: Option<u64>,
    /// Count the CPU time of the whole tree (for `--time cpu`).
    pub account_cpu: bool,
    /// Kill the whole tree once it has used this much CPU time
    /// (`--limit-cpu-s`, for every process it ran together).
    pub cpu_seconds: Option<u64>,
    /// Schedule the whole tree as one entity of the default weight (the
    /// CPU controller's group), whatever number of processes or sessions
    /// it runs.
    pub cpu_share: bool,
}

/// Most control groups a bot process joins: one per v1 hierarchy (pids,
/// memory, cpuacct, cpu); fewer on v2 or where hierarchies are mounted
/// together.
pub const MOST_GROUPS: usize = 4;

/// How many of the filters (the first ones) a box's init loads; its bots
/// load the rest (see `crate::seccomp`).
pub fn loaded_by_init(filters: &[seccompiler::BpfProgram]) -> usize {
    filters.len().saturating_sub(1)
}

/// How a process ended, as far as the runner cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitKind {
    /// Exited normally with this status code.
    Code(i32),
    /// Killed by this signal (0: ended in a way we could not decode).
    Signal(i32),
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

/// The pids (equal to their group ids) of every bot process, waiter and
/// build the runner has spawned and not yet reaped: the children the
/// subreaper's sweep leaves alone (see [`crate::reaper`]).
pub fn live_group_ids() -> BTreeSet<i32> {
    live_groups().clone()
}

/// Records a freshly spawned bot's process group.
pub fn register_group(pgid: i32) {
    live_groups().insert(pgid);
}

/// Forgets a process group and sends SIGKILL to all of it. Must be called
/// before the group leader is reaped (see `LIVE_GROUPS`).
pub fn unregister_and_kill_group(pgid: i32) {
    let mut groups = live_groups();
    groups.remove(&pgid);
    kill_group(pgid);
}

/// SIGKILLs `pid` if it is still in the cgroup directory named `group`
/// (checked after taking a pidfd, so a pid recycled in between is never
/// signalled).
pub fn kill_pid_in_group(pid: i32, group: &str) {
    let Some(fd) = pidfd(pid) else { return };
    let cgroups = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).unwrap_or_default();
    if cgroups.lines().any(|l| l.ends_with(&format!("/{group}"))) {
        let _ = rustix::process::pidfd_send_signal(&fd, rustix::process::Signal::KILL);
    }
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
/// process is running (see `crate::reaper::kill_all_bots`, which then
/// sweeps what they left).
pub fn kill_all_groups() {
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

/// A pidfd for `pid` (readable once it has ended), or `None`
/// where the kernel has none (before Linux 5.3): the game loop then asks
/// [`exited_no_reap`] on every wake-up instead.
pub fn pidfd(pid: i32) -> Option<std::os::fd::OwnedFd> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

/// The one child of `pid` (the bot under its waiter), from
/// `/proc/PID/task/PID/children`; `None` if there is not exactly one.
pub fn only_child(pid: i32) -> Option<i32> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    parse_only_child(&text)
}

/// The one child in an open `/proc/PID/task/PID/children` file, read
/// with `pread` (the file is made anew at each read from offset 0);
/// `None` if there is not exactly one.
pub fn only_child_in(file: &std::fs::File) -> Option<i32> {
    use std::os::unix::fs::FileExt;
    // One pid and its space fit with room to spare; a second pid, even
    // cut short, still reads as more than one.
    let mut buf = [0u8; 64];
    let n = file.read_at(&mut buf, 0).ok()?;
    parse_only_child(std::str::from_utf8(&buf[..n]).ok()?)
}

/// The one pid in a children list; `None` if there is not exactly one.
fn parse_only_child(text: &str) -> Option<i32> {
    let mut children = text.split_whitespace().map(str::parse::<i32>);
    match (children.next(), children.next()) {
        (Some(Ok(child)), None) => Some(child),
        _ => None,
    }
}

/// How our child `pid` ended, if it has, without reaping it: its pid stays
/// reserved until the owner kills its group and reaps it.
pub fn exited_no_reap(pid: i32) -> Option<ExitKind> {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let pid = Pid::from_raw(pid)?;
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
    loop {
        match waitid(WaitId::Pid(pid), options) {
            Ok(Some(status)) => {
                return Some(match status.exit_status() {
                    Some(code) if status.exited() => ExitKind::Code(code),
                    _ => ExitKind::Signal(status.terminating_signal().unwrap_or(0)),
                });
            }
            Ok(None) => return None,
            Err(rustix::io::Errno::INTR) => {}
            // ECHILD: reaped already; nothing more will be seen of it.
            Err(_) => return None,
        }
    }
}

/// `d` as a poll timeout (saturating: poll's `None` would mean forever).
pub fn timespec(d: std::time::Duration) -> rustix::event::Timespec {
    rustix::event::Timespec::try_from(d).unwrap_or(rustix::event::Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    })
}

/// What the forked child does before it runs the bot (see [`contain`]).
/// Serialized as a box's request to the box maker (`crate::box_maker`),
/// without what only has a meaning in this process: the filters (sent as
/// whether there are any) and the root (built by the maker).
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub struct Containment {
    /// `CLONE_NEW*` flags to unshare (PID and network namespaces); 0 for none.
    pub unshare_flags: i32,
    /// Resource limits to set, as (resource, soft = hard limit).
    pub rlimits: [Option<(i32, u64)>; 8],
    /// A Landlock ruleset descriptor to restrict the bot with; -1 for
    /// none. Its owner keeps it open until the spawn has returned.
    pub landlock_fd: i32,
    /// Seccomp filters to load, in order (empty: none).
    #[serde(skip)]
    pub seccomp: &'static [seccompiler::BpfProgram],
    /// Build a Landlock ruleset for this process (the spawn fills
    /// `landlock_fd`).
    pub confine_fs: bool,
    /// Mount a `/proc` of the bot's own PID namespace (needs `NEW_PID`
    /// and `NEW_NS` in the flags).
    pub private_proc: bool,
    /// Descriptors of the bot's control groups to join by writing `0`
    /// (-1: none); the owner keeps them open until the spawn returned.
    pub cgroup_fds: [i32; MOST_GROUPS],
    /// Limits for the bot's control groups (the spawn makes them).
    pub group_limits: GroupLimits,
    /// With `CLONE_NEWUSER` in the flags: the lines for the new user
    /// namespace's `uid_map` and `gid_map` (dojo's own ids mapped to
    /// themselves), formatted before the fork.
    pub id_maps: IdMaps,
    /// Without a PID namespace: make the bot a child subreaper, so that
    /// what its descendants leave behind stays in its tree while it lives
    /// and is adopted by dojo (and swept) when it ends (see
    /// [`crate::reaper`]).
    pub subreaper: bool,
    /// As root: the uid and gid (equal) the bot runs as, one of the seat's
    /// own that owns nothing but its scratch directory; 0 for none.
    pub seat_id: u32,
    /// Give the bot a minimal root (needs `NEW_NS` in the flags; the
    /// spawn builds it and fills `root`).
    pub minimal_root: bool,
    /// The minimal root to make and enter (see [`crate::root`]); its
    /// owner keeps it until the spawn has returned.
    #[serde(skip)]
    pub root: ForChild<root::MinimalRoot>,
    /// Without a minimal root (a build): the host's mounts made read-only
    /// but the places it writes (needs `NEW_NS` in the flags); its owner
    /// keeps it until the spawn has returned.
    #[serde(skip)]
    pub sealed_host: ForChild<root::SealedHost>,
}

/// A value for the forked child to read (null: none): a [`root::MinimalRoot`]
/// or a `SealedHost` (a build's). A plain pointer so that [`Containment`]
/// stays a copied value: the spawn that sets it owns the value until the
/// fork is done, and the child reads its own copy of that memory.
#[derive(Debug)]
pub struct ForChild<T>(pub *const T);

impl<T> ForChild<T> {
    /// The value, if one was given.
    ///
    /// # Safety
    /// The owner keeps the value until the fork is done.
    unsafe fn get(&self) -> Option<&T> {
        // SAFETY: as this function.
        unsafe { self.0.as_ref() }
    }
}

impl<T> Clone for ForChild<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ForChild<T> {}

impl<T> Default for ForChild<T> {
    fn default() -> Self {
        Self(std::ptr::null())
    }
}

// SAFETY: only read, in the forked child, while the owner keeps it.
unsafe impl<T> Send for ForChild<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for ForChild<T> {}

/// `uid_map` and `gid_map` contents for an unprivileged user namespace.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub struct IdMaps {
    uid: [u8; 32],
    uid_len: usize,
    gid: [u8; 32],
    gid_len: usize,
}

impl IdMaps {
    /// Maps the current user and group to themselves.
    pub fn current() -> Self {
        let (uid, gid) = (rustix::process::getuid(), rustix::process::getgid());
        let line = |id: u32| {
            let text = format!("{id} {id} 1\n");
            let mut buf = [0u8; 32];
            buf[..text.len()].copy_from_slice(text.as_bytes());
            (buf, text.len())
        };
        let (uid, uid_len) = line(uid.as_raw());
        let (gid, gid_len) = line(gid.as_raw());
        Self {
            uid,
            uid_len,
            gid,
            gid_len,
        }
    }
}

/// Writes `data` to the file at `path` (a NUL-terminated byte string);
/// async-signal-safe.
#[cfg(target_os = "linux")]
fn write_proc_file(path: &[u8], data: &[u8]) -> std::io::Result<()> {
    // SAFETY: `path` is NUL-terminated, `data` is a valid slice; open,
    // write and close are async-signal-safe.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd == -1 {
            return Err(std::io::Error::last_os_error());
        }
        let written = libc::write(fd, data.as_ptr().cast(), data.len());
        let error = std::io::Error::last_os_error();
        libc::close(fd);
        if written != data.len() as isize {
            return Err(error);
        }
    }
    Ok(())
}

impl Default for Containment {
    fn default() -> Self {
        Self {
            unshare_flags: 0,
            rlimits: [None; 8],
            landlock_fd: -1,
            seccomp: &[],
            confine_fs: false,
            private_proc: false,
            cgroup_fds: [-1; MOST_GROUPS],
            group_limits: GroupLimits::default(),
            id_maps: IdMaps {
                uid: [0; 32],
                uid_len: 0,
                gid: [0; 32],
                gid_len: 0,
            },
            subreaper: false,
            seat_id: 0,
            minimal_root: false,
            root: ForChild::default(),
            sealed_host: ForChild::default(),
        }
    }
}

/// The Landlock ABI version the kernel offers; 0 where it has none (or
/// it is disabled at boot).
#[cfg(target_os = "linux")]
pub fn landlock_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
    // SAFETY: with a null attribute pointer, size 0 and the VERSION flag
    // the call only returns a number; it reads and writes no memory.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if rc < 0 { 0 } else { rc as i32 }
}

#[cfg(not(target_os = "linux"))]
pub fn landlock_abi() -> i32 {
    0
}

/// In the bot, PID 1 of a new PID and mount namespace: a `/proc` of its
/// own namespace over the host's, so it sees no other process (not the
/// other bots, whose pipes `/proc/PID/fd` would open, nor dojo, whose
/// environment `/proc/PID/environ` shows). Mount propagation is made
/// private first so nothing reaches the host. With Landlock, the new
/// `/proc` is another mount than the one the ruleset allows: a rule for it
/// is added here. Only async-signal-safe calls.
#[cfg(target_os = "linux")]
fn private_proc(plan: &Containment) -> std::io::Result<()> {
    // SAFETY: raw system calls on NUL-terminated literals and a stack
    // value.
    unsafe {
        root::mounts_private()?;
        root::mount_proc(c"/proc")?;
        if plan.landlock_fd >= 0 {
            landlock_allow(plan.landlock_fd, c"/proc", LANDLOCK_READ)?;
        }
    }
    Ok(())
}

/// Landlock's rights to list a directory, and to read and execute.
pub const LANDLOCK_READ_DIR: u64 = 1 << 3;
pub const LANDLOCK_READ: u64 = 1 | (1 << 2) | LANDLOCK_READ_DIR;

/// Adds a rule to the Landlock ruleset `ruleset`: `access` beneath
/// `path` (a mount made in the child, which dojo's rules, naming the
/// host's inodes, do not cover). Async-signal-safe.
///
/// # Safety
/// In a forked child before exec.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn landlock_allow(
    ruleset: i32,
    path: &std::ffi::CStr,
    access: u64,
) -> std::io::Result<()> {
    // struct landlock_path_beneath_attr { u64 allowed_access; s32
    // parent_fd; } __attribute__((packed))
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    const RULE_PATH_BENEATH: u32 = 1;
    // SAFETY: open, landlock_add_rule and close on a NUL-terminated path
    // and a stack value.
    unsafe {
        let dir = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
        if dir == -1 {
            return Err(std::io::Error::last_os_error());
        }
        let attr = PathBeneath {
            allowed_access: access,
            parent_fd: dir,
        };
        let rc = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            RULE_PATH_BENEATH,
            &attr as *const PathBeneath,
            0u32,
        );
        let error = std::io::Error::last_os_error();
        libc::close(dir);
        if rc == -1 {
            return Err(error);
        }
    }
    Ok(())
}

/// Every capability out of the bounding, ambient and current sets: a bot
/// running as root keeps its uid (it still owns root's files) but loses
/// what lifts it over other processes and the kernel (CAP_SYS_PTRACE, to
/// read non-dumpable processes such as dojo; CAP_DAC_OVERRIDE;
/// CAP_SYS_ADMIN; CAP_SYS_RAWIO for /proc/kcore ...), and, with no
/// new privileges, gains none back at exec. Without privileges the drops
/// fail harmlessly (there is nothing to drop). Async-signal-safe.
#[cfg(target_os = "linux")]
fn drop_capabilities(present: u64) {
    // SAFETY: prctl and capset on plain stack values.
    unsafe {
        for cap in (0..64).filter(|cap| present & (1 << cap) != 0) {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        capset(0);
    }
}

/// Sets this thread's effective, permitted and inheritable capabilities
/// to `low` (a mask of capabilities 0 to 31; none above), with the raw
/// system call: -1 on failure. Async-signal-safe.
///
/// # Safety
/// A system call on plain stack values; in a forked child before exec.
#[cfg(target_os = "linux")]
unsafe fn capset(low: u32) -> libc::c_long {
    // SAFETY: as this function.
    unsafe { capset_sets(low, low, low) }
}

/// [`capset`] with each set of its own (capabilities 0 to 31).
///
/// # Safety
/// As [`capset`].
#[cfg(target_os = "linux")]
unsafe fn capset_sets(effective: u32, permitted: u32, inheritable: u32) -> libc::c_long {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let data = [
        Data {
            effective,
            permitted,
            inheritable,
        },
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
    ];
    // SAFETY: the header and two data words capset(2) reads.
    unsafe { libc::syscall(libc::SYS_capset, &mut header as *mut Header, data.as_ptr()) }
}

/// Capability numbers (`linux/capability.h`).
const CAP_KILL: u32 = 5;
const CAP_SETGID: u32 = 6;
const CAP_SETUID: u32 = 7;
const CAP_SETPCAP: u32 = 8;
const CAP_SYS_ADMIN: u32 = 21;

/// In the forked bot, as root: become the seat's own user and group
/// (`plan.seat_id`) with [`seat_credentials`], and arm PDEATHSIG again
/// (a change of credentials clears it). Only async-signal-safe calls.
///
/// # Safety
/// As [`confine_self`]: called in the forked child before exec.
#[cfg(target_os = "linux")]
unsafe fn become_seat_user(plan: &Containment) -> std::io::Result<()> {
    // SAFETY: prctl, getppid and the calls of `seat_credentials` on plain
    // values.
    unsafe {
        let parent = libc::getppid();
        if seat_credentials(plan.seat_id, ALL_CAPABILITIES) == -1 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::getppid() != parent {
            // The parent died while the signal was not armed.
            libc::_exit(1);
        }
    }
    Ok(())
}

/// As root: become the user and group `id`, with no supplementary
/// groups and no capability. The bounding set is emptied first (that
/// needs CAP_SETPCAP, which the caller still has). No capability is kept
/// for the bot: CAP_DAC_READ_SEARCH (once kept so a bot read its own
/// directory whatever its modes) reads every file Landlock lets a bot
/// name, `/etc/shadow` among them, whatever its mode. Raw system calls
/// only, no allocation: also run by a box's init's child between its
/// `clone` and its `exec` (see `init`). -1 (errno set) on failure.
///
/// # Safety
/// In a forked or cloned child before exec.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn seat_credentials(id: u32, present: u64) -> i32 {
    // SAFETY: prctl, setgroups and setres[ug]id on plain values.
    unsafe {
        for cap in (0..64).filter(|cap| present & (1 << cap) != 0) {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        // The raw calls: the C library's wrappers would signal every
        // thread they believe the process has, and a box's init's child
        // runs in the init's memory.
        let (id, none) = (libc::c_long::from(id), std::ptr::null::<libc::gid_t>());
        if libc::syscall(libc::SYS_setgroups, 0, none) == -1
            || libc::syscall(libc::SYS_setresgid, id, id, id) == -1
            || libc::syscall(libc::SYS_setresuid, id, id, id) == -1
        {
            return -1;
        }
    }
    0
}

/// In a box's init: it keeps only the capabilities its work needs, and
/// stays out of its bots' reach. CAP_SYS_ADMIN in the box's own
/// namespaces, to ready the box for each game (a new scratch filesystem,
/// IPC namespace and PID counter: [`init`]), and CAP_SETPCAP, so
/// that each bot empties its bounding set. As root (`plan.seat_id`) it
/// stays root, so that no bot of the box (each runs as the seat's user,
/// see [`seat_credentials`]) may signal, `prlimit`, renice or trace it,
/// and keeps CAP_KILL (to empty the box of the seat user's processes),
/// and CAP_SETUID and CAP_SETGID (to make each bot the seat user).
/// Everything else leaves its bounding and permitted sets. Only async-signal-safe calls.
///
/// # Safety
/// As [`confine_self`]: called in the forked child before exec.
#[cfg(target_os = "linux")]
unsafe fn keep_init_capabilities(plan: &Containment) -> std::io::Result<()> {
    let kept = init_capabilities(plan) as u32;
    // SAFETY: prctl and capset on plain values.
    unsafe {
        for cap in 0..64u32 {
            if cap >= 32 || kept & (1 << cap) == 0 {
                libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
            }
        }
        if capset_sets(kept, kept, 0) == -1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The capabilities a box's init keeps (see [`keep_init_capabilities`]),
/// as a mask: all that is left in its bounding set, so each bot it
/// starts drops these and no others (dropping each of the 64 costs a
/// system call, through the init's seccomp filters, at every start).
#[cfg(target_os = "linux")]
pub(crate) fn init_capabilities(plan: &Containment) -> u64 {
    let mut kept = (1 << CAP_SYS_ADMIN) | (1 << CAP_SETPCAP);
    if plan.seat_id != 0 {
        kept |= (1 << CAP_KILL) | (1 << CAP_SETUID) | (1 << CAP_SETGID);
    }
    kept
}

/// Every capability: for a process whose bounding set is unknown.
const ALL_CAPABILITIES: u64 = u64::MAX;

/// `setrlimit(resource, value)`, with the CPU limit's hard limit a second
/// later, so the bot gets SIGXCPU (which says why) before the kernel's
/// SIGKILL.
///
/// # Safety
/// As [`confine_self`]: called in the forked child before exec.
#[cfg(target_os = "linux")]
unsafe fn set_rlimit(resource: i32, value: u64) -> std::io::Result<()> {
    let hard = if resource == libc::RLIMIT_CPU as i32 {
        value.saturating_add(1)
    } else {
        value
    };
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: hard,
    };
    // SAFETY: setrlimit reads one rlimit through a valid pointer.
    if unsafe { libc::setrlimit(resource as _, &limit) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The bot's open-files limit, then its confinement. The limit comes after
/// every descriptor the child makes before exec (the waiter's pipe, the
/// private `/proc`'s directory): a forked child starts with copies of all
/// of dojo's descriptors, so with the limit set first, a dojo holding
/// about as many descriptors as the limit (many games at once) made
/// those calls fail with EMFILE and the bot never started. Exec then
/// closes every inherited descriptor (all are close-on-exec), so the bot
/// itself starts well inside its limit.
///
/// # Safety
/// As [`confine_self`]: called in the forked child before exec.
#[cfg(target_os = "linux")]
unsafe fn limit_files_and_confine(plan: &Containment) -> std::io::Result<()> {
    // SAFETY: as this function.
    unsafe {
        limit_files(plan)?;
        confine_self(plan)
    }
}

/// The open-files limit of `plan`, set last before confinement (see
/// [`limit_files_and_confine`]).
///
/// # Safety
/// As [`limit_files_and_confine`].
#[cfg(target_os = "linux")]
unsafe fn limit_files(plan: &Containment) -> std::io::Result<()> {
    for (resource, value) in plan.rlimits.iter().flatten() {
        if *resource == libc::RLIMIT_NOFILE as i32 {
            // Never above dojo's own hard limit, which only a privileged
            // process could raise: the bot gets what there is rather than
            // failing to start (the CLI warns once: `open_files_hard_limit`).
            let value = (*value).min(open_files_hard_limit());
            // SAFETY: as this function.
            unsafe { set_rlimit(*resource, value)? };
        }
    }
    Ok(())
}

/// In the forked child, just before exec: no new privileges (required by
/// both, and setuid programs cannot lift the bot out), then Landlock, then
/// seccomp (last: its filter would not stop the calls above, but nothing
/// after it should need a denied call). Only async-signal-safe calls.
///
/// # Safety
/// To be called only in a forked child before exec; `plan.seccomp` must
/// point at valid BPF programs (it is `'static`).
#[cfg(target_os = "linux")]
unsafe fn confine_self(plan: &Containment) -> std::io::Result<()> {
    if plan.landlock_fd < 0 && plan.seccomp.is_empty() {
        return Ok(());
    }
    if plan.seat_id == 0 {
        drop_capabilities(ALL_CAPABILITIES);
    }
    // SAFETY: as this function.
    unsafe {
        no_new_privileges()?;
        restrict_landlock(plan.landlock_fd)?;
        load_filters(plan.seccomp)
    }
}

/// A box's init's share of [`confine_self`]: no new privileges and the
/// seccomp filters that let through the calls with which it readies its
/// box ([`loaded_by_init`]); its bots inherit them, and
/// take on the rest in [`confine_box_bot`]. Not Landlock: a Landlock
/// domain forbids every mount.
///
/// # Safety
/// As [`confine_self`].
#[cfg(target_os = "linux")]
unsafe fn confine_init(plan: &Containment) -> std::io::Result<()> {
    if plan.landlock_fd < 0 && plan.seccomp.is_empty() {
        return Ok(());
    }
    let init_part = &plan.seccomp[..loaded_by_init(plan.seccomp)];
    // SAFETY: as this function.
    unsafe {
        no_new_privileges()?;
        load_filters(init_part)
    }
}

/// The rest of `confine_self` for a bot of a box, in the init's child
/// between its `clone` and its `exec` (after the change to the seat's
/// user, if any): without a seat user every capability the init kept
/// dropped, then Landlock, then the seccomp filters the init did not load.
/// Raw system calls only, no allocation.
///
/// # Safety
/// In a box's init's child before exec, with `plan` the init's (its
/// Landlock ruleset descriptor still open).
#[cfg(target_os = "linux")]
pub(crate) unsafe fn confine_box_bot(plan: &Containment) -> std::io::Result<()> {
    if plan.seat_id == 0 {
        drop_capabilities(init_capabilities(plan));
    }
    let own_part = &plan.seccomp[loaded_by_init(plan.seccomp)..];
    // SAFETY: as this function.
    unsafe {
        if plan.landlock_fd >= 0 {
            no_new_privileges()?;
            restrict_landlock(plan.landlock_fd)?;
        }
        load_filters(own_part)
    }
}

/// `PR_SET_NO_NEW_PRIVS`.
///
/// # Safety
/// A raw system call; before exec.
#[cfg(target_os = "linux")]
unsafe fn no_new_privileges() -> std::io::Result<()> {
    // SAFETY: prctl on plain values.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Restricts this thread with the Landlock ruleset `fd` (-1: none).
///
/// # Safety
/// A raw system call; before exec.
#[cfg(target_os = "linux")]
unsafe fn restrict_landlock(fd: i32) -> std::io::Result<()> {
    // SAFETY: landlock_restrict_self on a descriptor number.
    if fd >= 0 && unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Loads `programs`, in order.
///
/// # Safety
/// Raw system calls on the programs' memory, which outlives them; before
/// exec.
#[cfg(target_os = "linux")]
unsafe fn load_filters(programs: &[seccompiler::BpfProgram]) -> std::io::Result<()> {
    for program in programs {
        let fprog = libc::sock_fprog {
            len: program.len() as u16,
            // seccompiler's `sock_filter` is the kernel's layout
            // (`#[repr(C)]`, the same four fields as libc's).
            filter: program.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: seccomp reads the program through `fprog`.
        let rc = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0u32,
                &fprog as *const libc::sock_fprog,
            )
        };
        if rc == -1 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Namespace flags, for the sandbox module's probe and plan.
pub const NEW_PID: i32 = libc::CLONE_NEWPID;
pub const NEW_NET: i32 = libc::CLONE_NEWNET;
pub const NEW_USER: i32 = libc::CLONE_NEWUSER;
pub const NEW_NS: i32 = libc::CLONE_NEWNS;
pub const NEW_IPC: i32 = libc::CLONE_NEWIPC;
pub const NEW_UTS: i32 = libc::CLONE_NEWUTS;
pub const NEW_CGROUP: i32 = libc::CLONE_NEWCGROUP;

/// Makes this process non-dumpable: its `/proc/PID` entries (environment,
/// memory, descriptors) then need CAP_SYS_PTRACE, which bots lack (see
/// `drop_capabilities`). The waiters, forked from it, inherit it; bots
/// do not (exec resets it).
pub fn make_undumpable() {
    // SAFETY: prctl with plain values.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// Resource ids, for the sandbox module.
pub mod resource {
    pub const CORE: i32 = libc::RLIMIT_CORE as i32;
    pub const FSIZE: i32 = libc::RLIMIT_FSIZE as i32;
    pub const NOFILE: i32 = libc::RLIMIT_NOFILE as i32;
    pub const AS: i32 = libc::RLIMIT_AS as i32;
    pub const CPU: i32 = libc::RLIMIT_CPU as i32;
}

/// Arranges for the spawned child to run the bot contained.
///
/// In the forked child, before exec: PDEATHSIG (the child dies with the
/// thread that spawned it), then, with namespace flags, `unshare` and a
/// second fork. The first child stays behind as a tiny waiter outside the
/// new namespaces: it closes every descriptor (so it holds none of the
/// bot's pipes), waits for the bot and exits with the bot's status (or
/// dies of the bot's signal), so the runner sees the bot's exit as
/// before. The second child is PID 1 of a fresh PID namespace and execs
/// the bot: when it dies, for whatever reason, the kernel kills every
/// process left in that namespace — `setsid` and double-forked
/// descendants included — and since it has PDEATHSIG on the waiter, which
/// has PDEATHSIG on dojo, even `kill -9` of dojo takes the whole tree
/// down. Both stay in the process group the runner kills.
///
/// With `init` (a box: needs `NEW_PID`), the second child does not return
/// to exec the command: it becomes the box's init (`init::run`)
/// on the given end of its socket pair, and starts the bot on request.
#[cfg(target_os = "linux")]
pub fn contain(
    command: &mut std::process::Command,
    plan: Containment,
    init: Option<(i32, init::Program)>,
) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec. It only
    // makes raw system calls that are async-signal-safe (prctl, setrlimit,
    // write, getrusage, unshare, mount, open, pipe2, fork, close, poll,
    // close_range, waitpid, signal, kill, capset, landlock_*, seccomp,
    // _exit) and touches no memory shared with the parent: `plan`
    // is a plain copied value.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            // Join the control groups first, so that the waiter and
            // everything the bot starts are counted and killed with it.
            for fd in plan.cgroup_fds {
                if fd >= 0 && libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Every limit but open files now, so the waiter and the bot
            // both have them; open files last, just before the bot is
            // confined (see `limit_files_and_confine`).
            for (resource, value) in plan.rlimits.iter().flatten() {
                if *resource != libc::RLIMIT_NOFILE as i32 {
                    set_rlimit(*resource, *value)?;
                }
            }
            if plan.unshare_flags == 0 {
                // Inherited by no child, kept across exec: the bot itself
                // adopts its orphaned descendants.
                if plan.subreaper && libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                if plan.seat_id != 0 {
                    become_seat_user(&plan)?;
                }
                return limit_files_and_confine(&plan);
            }
            if libc::unshare(plan.unshare_flags) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if plan.unshare_flags & libc::CLONE_NEWUSER != 0 {
                // Without root: the new user namespace maps dojo's user
                // and group to themselves (setgroups must be denied
                // before an unprivileged process may write gid_map).
                // (A non-dumpable process's /proc/self files belong to
                // root: dumpable for as long as it takes.)
                let maps = &plan.id_maps;
                libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
                write_proc_file(b"/proc/self/setgroups\0", b"deny")?;
                write_proc_file(b"/proc/self/uid_map\0", &maps.uid[..maps.uid_len])?;
                write_proc_file(b"/proc/self/gid_map\0", &maps.gid[..maps.gid_len])?;
                libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
            }
            // The pipe tells the bot whether the waiter is still there
            // after the bot armed its own PDEATHSIG (closing the race
            // where dojo and the waiter die in between).
            let mut alive = [0i32; 2];
            if libc::pipe2(alive.as_mut_ptr(), libc::O_CLOEXEC) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            let pid = libc::fork();
            if pid == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if pid == 0 {
                // The bot: PID 1 of the new namespace. Its own /proc and
                // user first (a change of user clears PDEATHSIG), then
                // PDEATHSIG and the check that the waiter is still there.
                libc::close(alive[1]);
                if let Some(minimal) = plan.root.get() {
                    root::enter(minimal, plan.landlock_fd)?;
                } else {
                    if let Some(host) = plan.sealed_host.get() {
                        root::seal_host(host, plan.landlock_fd)?;
                    }
                    if plan.private_proc {
                        private_proc(&plan)?;
                    }
                }
                if init.is_some() {
                    // A box's init stays out of its bots' reach: each bot
                    // becomes the seat user when it is started.
                    keep_init_capabilities(&plan)?;
                } else if plan.seat_id != 0 {
                    become_seat_user(&plan)?;
                }
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                let mut fd = libc::pollfd {
                    fd: alive[0],
                    events: libc::POLLIN,
                    revents: 0,
                };
                if libc::poll(&mut fd, 1, 0) != 0 {
                    // The waiter is gone already.
                    libc::_exit(1);
                }
                if let Some((ctl, program)) = &init {
                    // The init is confined only in part: Landlock would
                    // forbid the mounts that ready the box for each game.
                    // Each bot it starts takes on the rest before its
                    // exec (`confine_box_bot`).
                    limit_files(&plan)?;
                    confine_init(&plan)?;
                    init::run(*ctl, program, &plan);
                }
                limit_files_and_confine(&plan)?;
                return Ok(());
            }
            // The waiter: holds nothing but the write end of `alive`, and
            // says what it is in `ps` (not the name of the thread or box
            // maker that forked it).
            libc::prctl(libc::PR_SET_NAME, c"dojo-waiter".as_ptr());
            let keep = alive[1] as u32;
            if keep > 0 {
                libc::syscall(libc::SYS_close_range, 0u32, keep - 1, 0u32);
            }
            libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0u32);
            let mut status = 0;
            loop {
                let rc = libc::waitpid(pid, &mut status, 0);
                if rc == pid {
                    break;
                }
                if rc == -1 && *libc::__errno_location() != libc::EINTR {
                    libc::_exit(1);
                }
            }
            if libc::WIFEXITED(status) {
                libc::_exit(libc::WEXITSTATUS(status));
            }
            let mut signal = libc::WTERMSIG(status);
            // As init of its PID namespace the bot is deaf to SIGXCPU
            // (the kernel drops default-action signals to a namespace's
            // init), so its CPU limit shows as the hard limit's SIGKILL:
            // pass that on as SIGXCPU, which says why.
            if signal == libc::SIGKILL
                && let Some((_, seconds)) = plan
                    .rlimits
                    .iter()
                    .flatten()
                    .find(|(resource, _)| *resource == libc::RLIMIT_CPU as i32)
            {
                let mut usage: libc::rusage = std::mem::zeroed();
                libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
                let used = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec;
                if used >= *seconds as i64 {
                    signal = libc::SIGXCPU;
                }
            }
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        });
    }
}

/// Forks the box maker (`crate::box_maker`): a child of the calling
/// thread, with PDEATHSIG on it, in a process group of its own (a
/// terminal's Ctrl-C is dojo's to handle, and the maker dies with dojo),
/// holding no descriptor of dojo's but `keep` (its end of the socket to
/// dojo) and `/dev/null` as its standard streams, that runs `serve` and
/// never returns. `held` is what the caller holds across the fork (the
/// reaper's spawn lock, exclusively: no other thread between a fork and
/// its tracking, no fenced file being closed), dropped in the child
/// before `serve` and in the parent once the child has closed what it
/// inherited, which it says with one byte, read on `ours` (dojo's end
/// of the socket).
/// The live groups' lock is held across the fork, so the child never
/// inherits it locked by another thread. Returns the child's pid.
#[cfg(target_os = "linux")]
pub fn fork_server<Held>(
    keep: std::os::fd::OwnedFd,
    ours: &std::os::fd::OwnedFd,
    held: Held,
    serve: fn(std::os::fd::OwnedFd) -> !,
) -> std::io::Result<i32> {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    let parent = rustix::process::getpid().as_raw_nonzero().get();
    let groups = live_groups();
    // SAFETY: the child runs only the code below and `serve`, on the one
    // thread a fork leaves: the locks of this crate it uses are held by
    // no other thread (the spawn lock by the caller, the live groups'
    // here), and the allocator's are taken around the fork by the C
    // library.
    let pid = unsafe { libc::fork() };
    if pid == -1 {
        return Err(std::io::Error::last_os_error());
    }
    drop(groups);
    if pid == 0 {
        // SAFETY: raw calls on this process's own descriptors and
        // attributes; `keep` is given up for the one at `fd`.
        let keep = unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != parent {
                libc::_exit(0);
            }
            libc::setpgid(0, 0);
            // Above the standard streams, which become /dev/null.
            let fd = libc::fcntl(keep.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3);
            if fd < 0 {
                libc::_exit(1);
            }
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            if null < 0 {
                libc::_exit(1);
            }
            for stream in 0..3 {
                libc::dup2(null, stream);
            }
            // Every other descriptor of dojo's.
            let fd_u = fd as u32;
            if fd_u > 3 {
                libc::syscall(libc::SYS_close_range, 3u32, fd_u - 1, 0u32);
            }
            libc::syscall(libc::SYS_close_range, fd_u + 1, u32::MAX, 0u32);
            std::mem::forget(keep);
            if libc::write(fd, b"r".as_ptr().cast(), 1) != 1 {
                libc::_exit(1);
            }
            OwnedFd::from_raw_fd(fd)
        };
        // The child's copy of what the caller held is its own to free.
        drop(held);
        serve(keep);
    }
    drop(keep);
    // The child's word that it holds nothing of dojo's any more.
    let mut byte = [0u8; 1];
    let mut fds = [rustix::event::PollFd::new(
        ours,
        rustix::event::PollFlags::IN,
    )];
    let _ = rustix::event::poll(
        &mut fds,
        Some(&timespec(std::time::Duration::from_secs(10))),
    );
    let said = rustix::io::read(ours, &mut byte);
    drop(held);
    match said {
        Ok(1) => Ok(pid),
        _ => {
            let _ = rustix::process::kill_process(
                rustix::process::Pid::from_raw(pid).expect("a forked child's pid is positive"),
                rustix::process::Signal::KILL,
            );
            Err(std::io::Error::other("the box maker did not start"))
        }
    }
}

/// Elsewhere the guards and the Ctrl-C handler are the only protection.
#[cfg(not(target_os = "linux"))]
pub fn contain(
    _command: &mut std::process::Command,
    _plan: Containment,
    _init: Option<(i32, init::Program)>,
) {
}

/// Whether the kernel lets this process create the namespaces in `flags`
/// for a child: tried in a throwaway child that exits before exec.
#[cfg(target_os = "linux")]
pub fn probe_unshare(flags: i32) -> Result<(), std::io::Error> {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new("true");
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: as in `contain`: only unshare and _exit, both
    // async-signal-safe, in the forked child.
    let maps = IdMaps::current();
    unsafe {
        command.pre_exec(move || {
            if libc::unshare(flags) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if flags & libc::CLONE_NEWUSER != 0 {
                libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
                write_proc_file(b"/proc/self/setgroups\0", b"deny")?;
                write_proc_file(b"/proc/self/uid_map\0", &maps.uid[..maps.uid_len])?;
                write_proc_file(b"/proc/self/gid_map\0", &maps.gid[..maps.gid_len])?;
            }
            libc::_exit(0);
        });
    }
    let status = command.spawn()?.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("probe child ended {status}")))
    }
}

/// Whether `true` runs under `plan` (its Landlock ruleset and seccomp
/// filters): a probe that the kernel accepts them and that a contained
/// process can still start.
pub fn probe_exec(plan: Containment) -> Result<(), std::io::Error> {
    let mut command = std::process::Command::new("true");
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    contain(&mut command, plan, None);
    let status = command.spawn()?.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "probe process ended {status}"
        )))
    }
}

#[cfg(not(target_os = "linux"))]
pub fn probe_unshare(_flags: i32) -> Result<(), std::io::Error> {
    Err(std::io::Error::other("namespaces exist only on Linux"))
}

/// CPU time used so far by every thread, live or ended, of process `pid`
/// (its own clock, `CLOCK_PROCESS_CPUTIME` of another process: nanosecond
/// resolution); `None` if it is gone or its clock cannot be read.
#[cfg(target_os = "linux")]
pub fn process_cpu_time(pid: i32) -> Option<std::time::Duration> {
    // The clock id is the kernel's encoding of "the scheduler clock of
    // process PID" (`MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)` in
    // `linux/posix-timers.h`: `(~pid << 3) | 2`), made here because
    // glibc's `clock_getcpuclockid` spends a `clock_getres` call checking
    // it, and the runner reads this clock after every answer. A pid that
    // is gone makes `clock_gettime` fail with EINVAL.
    // Linux pids are at most 2^22; a larger or non-positive id would
    // shift into another clock (such as dojo's own), so it is refused.
    if !(1..=1 << 22).contains(&pid) {
        return None;
    }
    let clock: libc::clockid_t = ((!pid) << 3) | 2;
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(std::time::Duration::new(
        u64::try_from(now.tv_sec).ok()?,
        u32::try_from(now.tv_nsec).ok()?,
    ))
}

#[cfg(not(target_os = "linux"))]
pub fn process_cpu_time(_pid: i32) -> Option<std::time::Duration> {
    None
}

/// Raises this process's soft limit on open descriptors to its hard
/// limit, once, at start: a league of many games at once holds several
/// descriptors per bot process (pipes, pidfds, control groups, the kept
/// `/proc` files of its CPU clock), and the common soft default of 1,024
/// is far below what the system allows. Bots are unaffected: each gets
/// `--limit-files` of its own.
pub fn raise_open_files_limit() {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let _ = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            },
        );
    }
}

/// Descriptors dojo itself holds for each seat of a game in flight: the
/// bot's pipes, its pidfd, its box's control socket and waiter, control
/// group files and the kept `/proc` files of its CPU clock. Measured by
/// counting `/proc/PID/fd` of `dojo league` at 1 to 8 jobs: 14 per seat
/// for CardJitsu in boxes, 12 for royale, 8 with `--sandbox off`; kept
/// above the largest so a league sized by it never runs out.
pub const DESCRIPTORS_PER_SEAT: u64 = 16;

/// This process's soft limit on open descriptors (`ulimit -Sn`, raised
/// to the hard limit at start by [`raise_open_files_limit`]); `u64::MAX`
/// when unlimited.
pub fn open_files_soft_limit() -> u64 {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    limit.current.unwrap_or(u64::MAX)
}

/// How many descriptors this process has open now (those listed in
/// `/proc/self/fd`, less the one reading it); `None` where that cannot be
/// read.
pub fn open_descriptors() -> Option<u64> {
    let entries = std::fs::read_dir("/proc/self/fd").ok()?;
    Some((entries.count() as u64).saturating_sub(1))
}

/// This process's hard limit on open descriptors (what a bot's
/// `--limit-files` is capped at); `u64::MAX` when unlimited. Only a
/// `getrlimit`, so it may be called between fork and exec.
pub fn open_files_hard_limit() -> u64 {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    limit.maximum.unwrap_or(u64::MAX)
}

/// Clock ticks per second of the times in `/proc/PID/stat`.
pub fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|&t| t > 0).unwrap_or(100)
}

/// Arranges for the spawned child, and so everything it starts, to run on
/// CPU `cpu` only. Registered before [`contain`], so the waiter and the bot
/// both inherit it.
#[cfg(target_os = "linux")]
pub fn pin(command: &mut std::process::Command, cpu: usize) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and only
    // fills a cpu_set_t on its stack and calls sched_setaffinity, which
    // is a plain system call (async-signal-safe).
    unsafe {
        command.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_ZERO(&mut set);
            libc::CPU_SET(cpu, &mut set);
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin(_command: &mut std::process::Command, _cpu: usize) {}

/// The CPUs this process may run on, in order (all of `0..n` where the
/// affinity cannot be read).
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity writes one cpu_set_t through a valid
    // pointer to a zeroed local; CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
            return (0..libc::CPU_SETSIZE as usize)
                .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
                .collect();
        }
    }
    (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Vec<usize> {
    (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect()
}

/// Runs `f` when the process exits normally (`exit`, or a return from
/// `main`).
pub fn at_exit(f: extern "C" fn()) {
    // SAFETY: atexit stores a function pointer with no captured state.
    unsafe {
        libc::atexit(f);
    }
}

#[cfg(test)]
mod children_tests {
    use super::*;

    #[test]
    fn a_children_list_names_one_child_only_when_it_has_exactly_one() {
        assert_eq!(parse_only_child("4242 "), Some(4242));
        assert_eq!(parse_only_child(""), None);
        assert_eq!(parse_only_child("12 13 "), None);
        // A second pid cut short by the read still counts.
        assert_eq!(parse_only_child("12 1"), None);
        assert_eq!(parse_only_child("x "), None);
    }

    #[test]
    fn a_kept_children_file_is_read_anew_at_each_read() {
        // This thread's children file, opened before it has any child.
        let file = std::fs::File::open("/proc/thread-self/children").expect("own children file");
        assert_eq!(only_child_in(&file), None);
        let mut child = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("cat");
        let seen = only_child_in(&file);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen, Some(i32::try_from(child.id()).expect("pid")));
        assert_eq!(only_child_in(&file), None, "reaped: gone from the list");
    }
}

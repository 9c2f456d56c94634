//! One control group per bot process (or box), for the limits that must
//! hold for a process tree as a whole (processes/threads, memory), for
//! its CPU time and its share of the CPU, for knowing which limit a bot
//! hit, and for killing everything in it at the end whatever namespace or
//! session it escaped to.
//!
//! Both cgroup versions are handled: v1 (a hierarchy per controller, e.g.
//! `/sys/fs/cgroup/pids`) and v2 (one hierarchy, where dojo's own cgroup
//! must have the controllers enabled for its children: a delegated
//! subtree). Where dojo may not create groups (not root, nothing
//! delegated), the layer is missing and `dojo doctor` says so.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The controllers dojo uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Controller {
    Pids,
    Memory,
    /// CPU time of every process that was ever in the group, reaped or
    /// not (v1's `cpuacct.usage`; v2's `cpu.stat`, there in every group).
    Cpu,
    /// The CPU controller proper: the group's processes are scheduled as
    /// one entity with the default weight (v1 `cpu.shares`, v2
    /// `cpu.weight`), so a bot gets one share of the CPU however many
    /// processes or sessions it runs (each `setsid` would otherwise get an
    /// autogroup, and a share, of its own).
    CpuShare,
}

impl Controller {
    fn name(self) -> &'static str {
        match self {
            Self::Pids => "pids",
            Self::Memory => "memory",
            Self::Cpu => "cpuacct",
            Self::CpuShare => "cpu",
        }
    }
}

/// Where dojo makes a controller's groups: its own cgroup directory in
/// that controller's hierarchy.
#[derive(Debug, Clone)]
struct Base {
    controller: Controller,
    dir: PathBuf,
    v2: bool,
}

/// The directories under which dojo can create groups with each
/// controller, found once per process (and checked by making one).
fn bases() -> &'static [Base] {
    static BASES: OnceLock<Vec<Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        [
            Controller::Pids,
            Controller::Memory,
            Controller::Cpu,
            Controller::CpuShare,
        ]
        .into_iter()
        .filter(|&c| c != Controller::CpuShare || !realtime())
        .filter_map(|c| find_base(c).filter(usable))
        .collect()
    })
}

/// Whether each controller is usable here, with a reason when not.
pub fn probe(controller: Controller) -> Result<PathBuf, String> {
    if let Some(base) = bases().iter().find(|b| b.controller == controller) {
        return Ok(base.dir.clone());
    }
    if controller == Controller::CpuShare && realtime() {
        return Err(
            "dojo runs under a realtime scheduling policy (SCHED_FIFO or \
                    SCHED_RR), which its bots inherit and a new cpu group (with no \
                    realtime runtime of its own) refuses to take in"
                .to_string(),
        );
    }
    Err(match find_base(controller) {
        None => format!(
            "no cgroup hierarchy with the {} controller is mounted for dojo's cgroup",
            controller.name()
        ),
        Some(base) => format!(
            "cannot create a {} cgroup under {} (needs root, or a delegated cgroup v2 \
             subtree with the controller enabled)",
            controller.name(),
            base.dir.display()
        ),
    })
}

/// Whether this process runs under a realtime scheduling policy (the
/// `policy` field of /proc/self/stat: 1 SCHED_FIFO, 2 SCHED_RR). Its bot
/// processes would inherit it, and the kernel refuses a realtime task a
/// place in a group of the cpu controller that has no realtime runtime (a
/// new one has none): every start would fail with EINVAL.
fn realtime() -> bool {
    realtime_in(&std::fs::read_to_string("/proc/self/stat").unwrap_or_default())
}

/// Whether a `/proc/PID/stat` line shows a realtime policy.
fn realtime_in(stat: &str) -> bool {
    // The fields after the command's closing parenthesis start at the
    // third; `policy` is the 41st.
    let policy = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(41 - 3));
    matches!(policy, Some("1" | "2"))
}

/// dojo's cgroup directory for `controller`, from /proc/self/cgroup and
/// /proc/self/mountinfo.
fn find_base(controller: Controller) -> Option<Base> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let name = controller.name();
    // v1: "N:pids:/path"; v2: "0::/path".
    let mut v1_path = None;
    let mut v2_path = None;
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        if controllers.split(',').any(|c| c == name) {
            v1_path = Some(path.to_string());
        } else if controllers.is_empty() {
            v2_path = Some(path.to_string());
        }
    }
    for line in mounts.lines() {
        // id parent dev root mountpoint options [optional...] - fstype source superoptions
        let (left, right) = line.split_once(" - ")?;
        let fields: Vec<&str> = left.split(' ').collect();
        let (root, mountpoint) = (*fields.get(3)?, *fields.get(4)?);
        let mut right = right.split(' ');
        let fstype = right.next()?;
        let superoptions = right.nth(1).unwrap_or("");
        let path = match fstype {
            "cgroup" if superoptions.split(',').any(|o| o == name) => v1_path.as_deref(),
            "cgroup2" if v1_path.is_none() => v2_path.as_deref(),
            _ => None,
        };
        let Some(path) = path else { continue };
        let relative = path
            .strip_prefix(root)
            .unwrap_or(path)
            .trim_start_matches('/');
        let dir = Path::new(mountpoint).join(relative);
        let v2 = fstype == "cgroup2";
        if v2 && controller != Controller::Cpu {
            // The controller must be available to our cgroup's children
            // (cpu.stat's usage is kept without the cpu controller; the
            // weight needs it).
            let enabled =
                std::fs::read_to_string(dir.join("cgroup.subtree_control")).unwrap_or_default();
            if !enabled.split_whitespace().any(|c| c == name) {
                continue;
            }
        }
        return Some(Base {
            controller,
            dir,
            v2,
        });
    }
    None
}

/// Each `pids.max` over the groups this process makes, from its own
/// cgroup up (those that say `max` left out), with the group's
/// `pids.current`: every bot process and thread counts against each.
pub fn pids_limits() -> Vec<(PathBuf, u64, u64)> {
    let read = |dir: &Path, file: &str| -> Option<u64> {
        std::fs::read_to_string(dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let mut found = Vec::new();
    let Some(base) = find_base(Controller::Pids) else {
        return found;
    };
    let mut at = Some(base.dir.as_path());
    while let Some(dir) = at.filter(|d| d.join("pids.current").exists()) {
        if let (Some(max), Some(current)) = (read(dir, "pids.max"), read(dir, "pids.current")) {
            found.push((dir.to_path_buf(), max, current));
        }
        at = dir.parent();
    }
    found
}

/// Each memory limit on dojo's own control group and its ancestors, with
/// what is charged there now: `(limit file, limit, usage)` in bytes (v1
/// `memory.limit_in_bytes` and `memory.usage_in_bytes`, v2 `memory.max`
/// and `memory.current`; a v2 group without a limit, `max`, is left out).
/// The bots' groups are made below dojo's, so each of these bounds what
/// they may hold together.
pub fn memory_limits() -> Vec<(PathBuf, u64, u64)> {
    let mut found = Vec::new();
    let Some(base) = find_base(Controller::Memory) else {
        return found;
    };
    let (limit_file, usage_file) = if base.v2 {
        ("memory.max", "memory.current")
    } else {
        ("memory.limit_in_bytes", "memory.usage_in_bytes")
    };
    let read =
        |path: &Path| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    let mut at = Some(base.dir.as_path());
    while let Some(dir) = at.filter(|d| d.join(usage_file).exists()) {
        let limit = dir.join(limit_file);
        if let (Some(max), Some(usage)) = (read(&limit), read(&dir.join(usage_file))) {
            found.push((limit, max, usage));
        }
        at = dir.parent();
    }
    found
}

/// The start of the name of every group this dojo process makes:
/// `dojo-nsNS-PID-`, with the id of the group after it. Groups are seen
/// machine-wide but a PID only within its PID namespace, so the name
/// carries the namespace: a dojo looking for a dead dojo's groups judges
/// only those of its own namespace (a dojo in another one, such as a
/// container's or a test run's under `unshare --pid`, has PIDs that mean
/// nothing here, and its live groups looked dead: their processes were
/// killed, a build among them).
fn group_prefix() -> String {
    format!("dojo-ns{}-{}-", pid_namespace(), std::process::id())
}

/// This process's PID namespace, as the inode number of
/// `/proc/self/ns/pid` (0 where it cannot be read).
fn pid_namespace() -> u64 {
    static NS: OnceLock<u64> = OnceLock::new();
    *NS.get_or_init(|| {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self/ns/pid").map_or(0, |m| m.ino())
    })
}

/// The PID whose death makes the group `name` stale, when it is a dojo
/// group of the PID namespace `ns`: `dojo-nsNS-PID-ID`, a probe's
/// `dojo-probe-nsNS-PID`, or the names of versions before the namespace
/// was named (`dojo-PID-ID`, `dojo-probe-PID`), taken as this
/// namespace's. `None` for any other name, and for another namespace's
/// group, which is never judged from here.
fn stale_owner(name: &str, ns: u64) -> Option<u32> {
    let rest = name.strip_prefix("dojo-")?;
    let rest = rest.strip_prefix("probe-").unwrap_or(rest);
    let mut fields = rest.split('-');
    let first = fields.next()?;
    let pid = match first.strip_prefix("ns") {
        Some(theirs) => {
            if theirs.parse::<u64>().ok()? != ns {
                return None;
            }
            fields.next()?
        }
        None => first,
    };
    pid.parse().ok()
}

/// The file a process joins the group `dir` by, writing `0`, open for
/// writing: on v1 `tasks`, which moves the writing thread alone (the
/// joiners are just-forked single-threaded children), the one move the
/// kernel makes without the write side of its global thread-group lock,
/// whose writer waits for an RCU grace period and for every `fork`,
/// `exec` and `exit` in flight (see `cpu_share`); on v2, which has no
/// such file for a domain group, `cgroup.procs`.
fn open_join(dir: &Path, v2: bool) -> std::io::Result<OwnedFd> {
    let file = if v2 { "cgroup.procs" } else { "tasks" };
    let join = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join(file))?;
    Ok(join.into())
}

/// Removes the groups of dojo processes that are gone (a `kill -9`): every
/// group of this PID namespace's dojo processes (`stale_owner`) under
/// each base whose PID no longer runs, after killing whatever is still in
/// it. Returns the groups removed.
pub fn remove_stale() -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for base in bases() {
        let Ok(entries) = std::fs::read_dir(&base.dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = stale_owner(&name, pid_namespace()) else {
                continue;
            };
            if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            let dir = entry.path();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            if remove_with_inner(&dir, deadline).is_ok() {
                removed.push(dir);
            }
        }
    }
    removed
}

/// Whether a group can be made (and removed) under `base`.
fn usable(base: &Base) -> bool {
    let dir = base.dir.join(format!(
        "dojo-probe-ns{}-{}",
        pid_namespace(),
        std::process::id()
    ));
    let made = std::fs::create_dir(&dir).is_ok();
    made && std::fs::remove_dir(&dir).is_ok()
}

pub use crate::sys::{GroupLimits, MOST_GROUPS};

/// A bot process's groups (one per controller); removed on drop, after
/// every process still in them has been killed.
#[derive(Debug)]
pub struct BotGroup {
    dirs: Vec<(Controller, PathBuf, bool)>,
    /// The file of each group to join it by (`open_join`), open for the
    /// child to write `0` into.
    procs: Vec<OwnedFd>,
    /// The group's CPU usage, and its limit.
    cpu: Option<std::sync::Arc<CpuCounter>>,
    /// Each count [`Self::hit_counts`] reads (see [`Counter`]) when
    /// [`Self::rebase`] was last called: a box's group serves one bot
    /// process after another, and each is told only its own.
    hit_base: [AtomicU64; Counter::COUNT],
    /// The files [`Self::hit_counts`] reads, opened at its first call and
    /// kept: a box's group is read at every start and end of one of its
    /// processes, and opening the files each time (a path walk through
    /// the cgroup file system) was most of that cost in the profile.
    events: OnceLock<Vec<EventFile>>,
    /// The memory group's high-water mark file (v2 `memory.peak`, v1
    /// `memory.max_usage_in_bytes`), opened read-write at its first use
    /// and kept: on v2 a reset holds only for reads through the
    /// descriptor that wrote it. `None` inside without a memory group.
    peak: OnceLock<Option<std::fs::File>>,
    /// The group of the CPU controller proper where it has a hierarchy
    /// of its own (v1), kept apart from `dirs`: a box's processes get an
    /// inner group of it for every game ([`Self::next_share_entry`]).
    share: Option<std::sync::Arc<crate::cpu_share::Share>>,
}

/// What [`BotGroup::hit_counts`] counts, by its place in the answer.
#[derive(Debug, Clone, Copy)]
enum Counter {
    /// Starts refused at the process limit (`pids.events`, `max`).
    ProcessLimit = 0,
    /// Processes of the group the OOM killer took, whoever ran out of
    /// memory: the group at its own limit, a group above it, or the
    /// machine (`oom_kill` of v1's `memory.oom_control`, v2's
    /// `memory.events`); [`BotGroup::peak_near_limit`] tells which.
    OomKills = 1,
}

impl Counter {
    const COUNT: usize = 2;
}

/// A file of a group that holds one of the counts [`Counter`] names.
#[derive(Debug)]
struct EventFile {
    counter: Counter,
    /// The line's key (`max`, `oom_kill`).
    key: &'static str,
    file: std::fs::File,
}

/// A group's CPU usage file, open (v1: `cpuacct.usage`, in nanoseconds;
/// v2: `cpu.stat`, `usage_usec`), and what the group may use.
#[derive(Debug)]
struct CpuCounter {
    file: std::fs::File,
    v2: bool,
    /// The group's directory (its name, to kill its processes by).
    dir: PathBuf,
    limit: Option<std::time::Duration>,
    /// The limit was reached and the group killed.
    hit: std::sync::atomic::AtomicBool,
    /// Usage (nanoseconds) at the last [`BotGroup::rebase`]: the limit
    /// and the time charged count from there.
    base: AtomicU64,
}

impl CpuCounter {
    fn used(&self) -> Option<std::time::Duration> {
        let total = self.total()?;
        Some(total.saturating_sub(std::time::Duration::from_nanos(
            self.base.load(Ordering::Relaxed),
        )))
    }

    fn total(&self) -> Option<std::time::Duration> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 512];
        let n = self.file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        if self.v2 {
            let usec = text.lines().find_map(|l| l.strip_prefix("usage_usec "))?;
            Some(std::time::Duration::from_micros(usec.trim().parse().ok()?))
        } else {
            Some(std::time::Duration::from_nanos(text.trim().parse().ok()?))
        }
    }

    /// Kills every process of the group if it is over its limit.
    fn enforce(&self) {
        let (Some(limit), Some(used)) = (self.limit, self.used()) else {
            return;
        };
        if used < limit {
            return;
        }
        self.hit.store(true, Ordering::Relaxed);
        let name = self
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let procs = std::fs::read_to_string(self.dir.join("cgroup.procs")).unwrap_or_default();
        for pid in procs.lines().filter_map(|l| l.parse().ok()) {
            crate::sys::kill_pid_in_group(pid, name.as_deref().unwrap_or_default());
        }
    }
}

/// Groups with a CPU limit, looked at every [`CPU_LOOK`] by one thread
/// (started with the first of them): RLIMIT_CPU holds per process, a
/// tree's total only its group knows.
static WATCHED: std::sync::Mutex<Vec<std::sync::Weak<CpuCounter>>> =
    std::sync::Mutex::new(Vec::new());

/// How often a CPU-limited group is looked at: it may overrun its limit
/// by about this much CPU time per CPU.
const CPU_LOOK: std::time::Duration = std::time::Duration::from_millis(50);

fn watch(counter: &std::sync::Arc<CpuCounter>) {
    static WATCHER: OnceLock<std::thread::Thread> = OnceLock::new();
    WATCHED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(std::sync::Arc::downgrade(counter));
    let watcher = WATCHER.get_or_init(|| {
        std::thread::Builder::new()
            .name("dojo-cpu-limits".to_string())
            .spawn(|| {
                loop {
                    let live: Vec<_> = {
                        let mut watched = WATCHED.lock().unwrap_or_else(|p| p.into_inner());
                        watched.retain(|w| w.strong_count() > 0);
                        watched
                            .iter()
                            .filter_map(std::sync::Weak::upgrade)
                            .collect()
                    };
                    if live.is_empty() {
                        // Woken by the next group with a limit.
                        std::thread::park();
                        continue;
                    }
                    for counter in live.iter().filter(|c| !c.hit.load(Ordering::Relaxed)) {
                        counter.enforce();
                    }
                    drop(live);
                    std::thread::park_timeout(CPU_LOOK);
                }
            })
            .expect("a thread")
            .thread()
            .clone()
    });
    watcher.unpark();
}

/// A limit a bot process ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Processes,
    Memory,
    /// The tree's CPU time, all its processes together.
    Cpu,
    /// A process of the group was killed by the OOM killer, but the
    /// group never reached its own memory limit: memory ran out for the
    /// machine, or for a control group above this one (other work, or
    /// more bots' caps than there was memory). Not the bot's doing, so
    /// never charged to it.
    MemoryElsewhere,
}

/// How close to its memory limit a group's high-water mark may come
/// and the limit still count as reached: a charge the kernel refuses at
/// the limit leaves usage below it by that charge (up to a huge page),
/// and a bot this close to its cap has spent it.
fn limit_margin(limit: u64) -> u64 {
    (limit / 64).max(4 << 20)
}

/// What an OOM kill in a group means: the group's own cap, if it was
/// reached since the last look; else memory running out above it.
fn memory_hit(oom_killed: bool, own_limit_reached: bool) -> Option<Hit> {
    match (oom_killed, own_limit_reached) {
        (false, _) => None,
        (true, true) => Some(Hit::Memory),
        (true, false) => Some(Hit::MemoryElsewhere),
    }
}

impl BotGroup {
    /// Makes the groups for one bot process; `None` when no controller is
    /// usable or nothing is limited.
    pub fn create(limits: GroupLimits) -> std::io::Result<Option<Self>> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let mut group = Self {
            dirs: Vec::new(),
            procs: Vec::new(),
            cpu: None,
            hit_base: Default::default(),
            events: OnceLock::new(),
            peak: OnceLock::new(),
            share: None,
        };
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        for base in bases() {
            let value = match base.controller {
                Controller::Pids => limits.processes,
                Controller::Memory => limits.memory_bytes,
                Controller::Cpu => {
                    (limits.account_cpu || limits.cpu_seconds.is_some()).then_some(0)
                }
                Controller::CpuShare => limits.cpu_share.then_some(0),
            };
            let Some(value) = value else { continue };
            let dir = base.dir.join(format!("{}{id}", group_prefix()));
            // On v2 every controller's group is the same directory.
            let made = group.dirs.iter().any(|(_, d, _)| *d == dir);
            if !made {
                std::fs::create_dir(&dir)?;
            }
            if base.controller == Controller::CpuShare && !base.v2 && !made {
                // A hierarchy of its own (not v1's `cpu,cpuacct` mounted
                // together, whose group also counts the CPU time): the
                // group can be replaced. A new group has the default
                // weight: nothing to write.
                group.procs.push(open_join(&dir, base.v2)?);
                group.share = Some(crate::cpu_share::Share::new(dir));
                continue;
            }
            group.dirs.push((base.controller, dir.clone(), base.v2));
            if base.controller == Controller::Cpu {
                let file = if base.v2 { "cpu.stat" } else { "cpuacct.usage" };
                let counter = std::sync::Arc::new(CpuCounter {
                    file: std::fs::File::open(dir.join(file))?,
                    v2: base.v2,
                    dir: dir.clone(),
                    limit: limits.cpu_seconds.map(std::time::Duration::from_secs),
                    hit: std::sync::atomic::AtomicBool::new(false),
                    base: AtomicU64::new(0),
                });
                if counter.limit.is_some() {
                    watch(&counter);
                }
                group.cpu = Some(counter);
                if !made {
                    group.procs.push(open_join(&dir, base.v2)?);
                }
                continue;
            }
            if base.controller == Controller::CpuShare {
                // A new group has the default weight: nothing to write.
                if !made {
                    group.procs.push(open_join(&dir, base.v2)?);
                }
                continue;
            }
            let file = match (base.controller, base.v2) {
                (Controller::Pids, _) => "pids.max",
                (Controller::Memory, true) => "memory.max",
                (Controller::Memory, false) => "memory.limit_in_bytes",
                (Controller::Cpu | Controller::CpuShare, _) => unreachable!("handled above"),
            };
            std::fs::write(dir.join(file), value.to_string())?;
            if base.controller == Controller::Memory {
                // No escape into swap either (the file exists only where
                // swap accounting is on).
                let swap = if base.v2 {
                    "memory.swap.max"
                } else {
                    "memory.memsw.limit_in_bytes"
                };
                let swap_value = if base.v2 { 0 } else { value };
                let _ = std::fs::write(dir.join(swap), swap_value.to_string());
            }
            if !made {
                group.procs.push(open_join(&dir, base.v2)?);
            }
        }
        Ok((!group.dirs.is_empty() || group.share.is_some()).then_some(group))
    }

    /// The `tasks` file of a new inner group of the CPU controller,
    /// open for writing: a box's init writes `0` into it before its next
    /// game, so that the processes it starts from then on run on a queue
    /// of their own (`cpu_share`). `None` on v2 and with v1's
    /// `cpu,cpuacct` mounted together (a known gap, see
    /// `docs/sandbox.md`), or without the controller.
    pub fn next_share_entry(&self) -> std::io::Result<Option<std::fs::File>> {
        self.share
            .as_ref()
            .map(|share| share.next_entry())
            .transpose()
    }

    /// CPU time used so far by every process that was ever in the group,
    /// reaped by its parent, by the kernel (`SIGCHLD` ignored) or not at
    /// all; `None` without CPU accounting.
    pub fn cpu_time(&self) -> Option<std::time::Duration> {
        self.cpu.as_ref()?.used()
    }

    /// The descriptors the child joins its groups by (`open_join`).
    pub fn join_fds(&self) -> [i32; MOST_GROUPS] {
        let mut fds = [-1; MOST_GROUPS];
        for (slot, fd) in fds.iter_mut().zip(&self.procs) {
            *slot = fd.as_raw_fd();
        }
        fds
    }

    /// The same descriptors, to send to the box maker.
    pub(crate) fn join_fds_borrowed(&self) -> Vec<std::os::fd::BorrowedFd<'_>> {
        self.procs.iter().map(std::os::fd::AsFd::as_fd).collect()
    }

    /// Starts counting anew for the next bot process of a box: its CPU
    /// time and limit, and the limits it runs into.
    pub fn rebase(&self) {
        if let Some(cpu) = &self.cpu {
            let total = cpu.total().unwrap_or_default();
            cpu.base.store(
                u64::try_from(total.as_nanos()).unwrap_or(u64::MAX),
                Ordering::Relaxed,
            );
            cpu.hit.store(false, Ordering::Relaxed);
        }
        for (slot, count) in self.hit_base.iter().zip(self.hit_counts()) {
            slot.store(count, Ordering::Relaxed);
        }
        self.reset_memory_peak();
    }

    /// The memory group's high-water mark file, opened once.
    fn peak_file(&self) -> Option<&std::fs::File> {
        self.peak
            .get_or_init(|| {
                let (_, dir, v2) = self
                    .dirs
                    .iter()
                    .find(|(c, _, _)| *c == Controller::Memory)?;
                let name = if *v2 {
                    "memory.peak"
                } else {
                    "memory.max_usage_in_bytes"
                };
                let path = dir.join(name);
                // Read-only where it may not be written: the mark is then
                // never reset (see `memory_peak`).
                std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .or_else(|_| std::fs::File::open(&path))
                    .ok()
            })
            .as_ref()
    }

    /// The most memory the group's processes used together since the
    /// last [`Self::rebase`] (or the group's making, where the kernel
    /// cannot reset the mark: v2 before Linux 6.12), in bytes; `None`
    /// without a memory group.
    pub fn memory_peak(&self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let file = self.peak_file()?;
        let mut buf = [0u8; 32];
        let n = file.read_at(&mut buf, 0).ok()?;
        std::str::from_utf8(&buf[..n]).ok()?.trim().parse().ok()
    }

    /// Starts the memory high-water mark anew (v1: writing 0; v2: any
    /// write, Linux 6.12 and later; best effort: the mark then covers
    /// the box's earlier processes, of the same bot, too).
    fn reset_memory_peak(&self) {
        use std::os::unix::fs::FileExt;
        if let Some(file) = self.peak_file() {
            let _ = file.write_at(b"0\n", 0);
        }
    }

    /// The counts [`Counter`] names, so far.
    fn hit_counts(&self) -> [u64; Counter::COUNT] {
        use std::os::unix::fs::FileExt;
        let files = self.events.get_or_init(|| {
            self.dirs
                .iter()
                .filter_map(|(controller, dir, v2)| {
                    let (name, key, counter) = match (controller, v2) {
                        (Controller::Pids, _) => ("pids.events", "max", Counter::ProcessLimit),
                        (Controller::Memory, true) => {
                            ("memory.events", "oom_kill", Counter::OomKills)
                        }
                        (Controller::Memory, false) => {
                            ("memory.oom_control", "oom_kill", Counter::OomKills)
                        }
                        (Controller::Cpu | Controller::CpuShare, _) => return None,
                    };
                    let file = std::fs::File::open(dir.join(name)).ok()?;
                    Some(EventFile { counter, key, file })
                })
                .collect()
        });
        let mut counts = [0; Counter::COUNT];
        // Each file is a few short lines.
        let mut buf = [0u8; 1024];
        for event in files {
            let Ok(n) = event.file.read_at(&mut buf, 0) else {
                continue;
            };
            counts[event.counter as usize] = std::str::from_utf8(&buf[..n])
                .unwrap_or_default()
                .lines()
                .find_map(|line| {
                    let (k, v) = line.split_once(' ')?;
                    (k == event.key).then(|| v.trim().parse::<u64>().unwrap_or(0))
                })
                .unwrap_or(0);
        }
        counts
    }

    /// The limits the group's processes ran into since the last
    /// [`Self::rebase`] (or its making).
    pub fn hits(&self) -> Vec<Hit> {
        let mut hits = Vec::new();
        if self
            .cpu
            .as_ref()
            .is_some_and(|c| c.hit.load(Ordering::Relaxed))
        {
            hits.push(Hit::Cpu);
        }
        let counts = self.hit_counts();
        let rose = |counter: Counter| {
            counts[counter as usize] > self.hit_base[counter as usize].load(Ordering::Relaxed)
        };
        if rose(Counter::ProcessLimit) {
            hits.push(Hit::Processes);
        }
        let oom_killed = rose(Counter::OomKills);
        // Read only after a kill: a few more files, rarely.
        let at_own_limit = oom_killed && self.peak_near_limit();
        hits.extend(memory_hit(oom_killed, at_own_limit));
        hits
    }

    /// Whether the memory group's high-water mark came within
    /// [`limit_margin`] of its limit (v1: of memory, or of memory and
    /// swap together) since the last [`Self::rebase`] (or the group's
    /// making, where the mark cannot be reset: more, never less); also
    /// when either cannot be read. A charge the kernel refuses at the
    /// limit leaves the mark that close to it. The kernel's own counts of
    /// a limit reached do not do: v1 counts no failure at the limit of
    /// memory and swap together (seen on Linux 6.18), which dojo sets.
    /// In doubt the kill is the bot's own: a hog must never pass its OOM
    /// off as memory running out elsewhere.
    fn peak_near_limit(&self) -> bool {
        let Some((_, dir, v2)) = self.dirs.iter().find(|(c, _, _)| *c == Controller::Memory) else {
            return true;
        };
        let pairs: &[(&str, &str)] = if *v2 {
            &[("memory.peak", "memory.max")]
        } else {
            &[
                ("memory.max_usage_in_bytes", "memory.limit_in_bytes"),
                (
                    "memory.memsw.max_usage_in_bytes",
                    "memory.memsw.limit_in_bytes",
                ),
            ]
        };
        let read = |name: &str| -> Option<u64> {
            std::fs::read_to_string(dir.join(name))
                .ok()?
                .trim()
                .parse()
                .ok()
        };
        pairs.iter().enumerate().any(|(i, (peak, limit))| {
            if i > 0 && !dir.join(limit).exists() {
                // No swap accounting: memory's own pair decides.
                return false;
            }
            match (read(peak), read(limit)) {
                (Some(peak), Some(limit)) => peak.saturating_add(limit_margin(limit)) >= limit,
                _ => true,
            }
        })
    }

    /// SIGKILLs every process in the groups until none is left (a process
    /// forking meanwhile is caught by the next round), within `wait`.
    pub fn kill_all(&self, wait: std::time::Duration) {
        let deadline = std::time::Instant::now() + wait;
        for dir in self.all_dirs() {
            kill_in(&dir, deadline);
        }
    }

    /// Every group's directory, a box's inner `cpu` groups before the
    /// one they are in (the order they are removed in).
    fn all_dirs(&self) -> Vec<PathBuf> {
        let share = self.share.iter().flat_map(|share| {
            let mut dirs = share.inner_dirs();
            dirs.push(share.dir().to_owned());
            dirs
        });
        self.dirs
            .iter()
            .map(|(_, dir, _)| dir.clone())
            .chain(share)
            .collect()
    }
}

/// Removes the group `dir` and any group inside it (a box's inner CPU
/// groups, `cpu_share`: a group with groups inside cannot be removed),
/// killing first whatever is in them.
fn remove_with_inner(dir: &Path, deadline: std::time::Instant) -> std::io::Result<()> {
    let inner = std::fs::read_dir(dir).into_iter().flatten().flatten();
    for group in inner.filter(|e| e.file_type().is_ok_and(|t| t.is_dir())) {
        kill_in(&group.path(), deadline);
        let _ = std::fs::remove_dir(group.path());
    }
    kill_in(dir, deadline);
    std::fs::remove_dir(dir)
}

/// SIGKILLs every process in the group `dir` until none is left, or
/// `deadline`.
pub(crate) fn kill_in(dir: &Path, deadline: std::time::Instant) {
    loop {
        let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
        let pids: Vec<i32> = procs.lines().filter_map(|l| l.parse().ok()).collect();
        if pids.is_empty() || std::time::Instant::now() > deadline {
            break;
        }
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        for pid in pids {
            crate::sys::kill_pid_in_group(pid, name.as_deref().unwrap_or_default());
        }
        std::thread::yield_now();
    }
}

impl Drop for BotGroup {
    fn drop(&mut self) {
        self.procs.clear();
        if let Some(share) = &self.share {
            share.close();
        }
        self.kill_all(std::time::Duration::from_secs(5));
        for dir in self.all_dirs() {
            // Fails only if a process is stuck in the kernel; the empty
            // group is then left behind (harmless, and named by pid).
            let _ = std::fs::remove_dir(dir);
        }
        if let Some(share) = &self.share
            && share.dir().exists()
        {
            // A next game's group the janitor made as the box went.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            let _ = remove_with_inner(share.dir(), deadline);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An OOM kill is the bot's own only where its group reached its
    /// own limit; one without is memory running out above it.
    #[test]
    fn an_oom_kill_is_charged_as_the_bots_memory_only_at_its_own_limit() {
        assert_eq!(memory_hit(false, false), None);
        // Reclaim at the cap that freed enough: no kill, no fault.
        assert_eq!(memory_hit(false, true), None);
        assert_eq!(memory_hit(true, true), Some(Hit::Memory));
        assert_eq!(memory_hit(true, false), Some(Hit::MemoryElsewhere));
    }

    #[test]
    fn a_high_water_mark_this_close_to_the_limit_counts_as_reaching_it() {
        assert_eq!(limit_margin(16 << 20), 4 << 20);
        assert_eq!(limit_margin(1 << 30), 16 << 20);
    }

    #[test]
    fn a_group_is_judged_by_the_pid_of_its_own_namespace_only() {
        assert_eq!(stale_owner("dojo-ns7-1234-3", 7), Some(1234));
        assert_eq!(stale_owner("dojo-probe-ns7-1234", 7), Some(1234));
        // Another namespace's dojo: its PID means nothing here.
        assert_eq!(stale_owner("dojo-ns8-1234-3", 7), None);
        assert_eq!(stale_owner("dojo-probe-ns8-1234", 7), None);
        // Names of earlier versions, taken as this namespace's.
        assert_eq!(stale_owner("dojo-1234-3", 7), Some(1234));
        assert_eq!(stale_owner("dojo-probe-1234", 7), Some(1234));
        // Not dojo's.
        assert_eq!(stale_owner("user.slice", 7), None);
        assert_eq!(stale_owner("dojo-nsx-1-2", 7), None);
    }

    #[test]
    fn a_realtime_policy_is_read_from_proc_stat() {
        // A command with a parenthesis and spaces of its own, then the
        // fields from the third on, `policy` the 41st.
        let line = |policy: u32| {
            let mut fields: Vec<String> = (3..=52).map(|i| i.to_string()).collect();
            fields[41 - 3] = policy.to_string();
            format!("7 (a) b) {}", fields.join(" "))
        };
        assert!(!realtime_in(&line(0)), "SCHED_OTHER");
        assert!(realtime_in(&line(1)), "SCHED_FIFO");
        assert!(realtime_in(&line(2)), "SCHED_RR");
        assert!(!realtime_in(&line(3)), "SCHED_BATCH");
        assert!(!realtime_in(&line(5)), "SCHED_IDLE");
        // And from the kernel, where this process may take a realtime
        // policy (as root).
        let Ok(chrt) = std::process::Command::new("chrt")
            .args(["-f", "1", "cat", "/proc/self/stat"])
            .output()
        else {
            return;
        };
        if !chrt.status.success() {
            // No right to a realtime policy here (not root).
            return;
        }
        let stat = String::from_utf8_lossy(&chrt.stdout);
        assert!(realtime_in(&stat), "{stat}");
    }

    #[test]
    fn this_processs_groups_carry_its_namespace_and_pid() {
        let prefix = group_prefix();
        let name = format!("{prefix}0");
        assert_eq!(
            stale_owner(&name, pid_namespace()),
            Some(std::process::id())
        );
        assert_eq!(stale_owner(&name, pid_namespace() + 1), None);
    }

    /// A CPU group of its own hierarchy, where boxes have inner groups.
    fn share_base() -> Option<&'static Base> {
        let base = bases()
            .iter()
            .find(|b| b.controller == Controller::CpuShare && !b.v2);
        if base.is_none() {
            eprintln!("skipped: no cpu controller of its own hierarchy here");
        }
        base
    }

    #[test]
    fn a_gone_dojos_box_group_is_removed_with_its_inner_groups() {
        // What `kill -9` of dojo leaves of a box: its CPU group with the
        // game's inner group in it, which must go first.
        let Some(base) = share_base() else { return };
        let mut gone = std::process::Command::new("true").spawn().expect("true");
        gone.wait().expect("wait");
        let dir = base
            .dir
            .join(format!("dojo-ns{}-{}-0", pid_namespace(), gone.id()));
        std::fs::create_dir(&dir).expect("group");
        std::fs::create_dir(dir.join("g3")).expect("inner group");
        let removed = remove_stale();
        assert!(removed.contains(&dir), "{removed:?}");
        assert!(!dir.exists());
    }

    #[test]
    fn each_new_share_entry_leaves_one_inner_group_and_the_drop_none() {
        let Some(_) = share_base() else { return };
        let limits = GroupLimits {
            cpu_share: true,
            ..GroupLimits::default()
        };
        let group = BotGroup::create(limits).expect("made").expect("a group");
        let share = group.share.as_ref().expect("a cpu group");
        let mut sleeper = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .expect("sleep");
        let pid = i32::try_from(sleeper.id()).expect("pid");
        let mut seen = Vec::new();
        for _ in 0..3 {
            // The init writes `0` (itself); a pid moves the same thread.
            let mut tasks = group
                .next_share_entry()
                .expect("made")
                .expect("a cpu group");
            std::io::Write::write_all(&mut tasks, pid.to_string().as_bytes()).expect("moved");
            // What the janitor does too, keeping only the group in use.
            share.tidy(1);
            let current = share.inner_dirs().last().cloned().expect("a group");
            let procs = std::fs::read_to_string(current.join("cgroup.procs")).expect("procs");
            assert_eq!(procs.trim(), pid.to_string());
            seen.push(current);
        }
        assert!(!seen[0].exists() && !seen[1].exists() && seen[2].exists());
        // The next game's group is made ahead, empty.
        let spare = share.inner_dirs()[0].clone();
        assert_ne!(spare, seen[2]);
        assert_eq!(
            std::fs::read_to_string(spare.join("cgroup.procs")).unwrap(),
            ""
        );
        let dir = share.dir().to_owned();
        drop(group);
        let _ = sleeper.wait();
        assert!(!dir.exists(), "{dir:?} is left");
    }
}

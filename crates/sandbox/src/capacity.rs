//! What the machine lets this process run at once beside open descriptors
//! (`sys::DESCRIPTORS_PER_SEAT`): tasks (processes and threads) and seat
//! users. A league sizes its games in flight from these before its first
//! game, so a `--jobs` the machine cannot hold is lowered or refused with
//! the reason, never turned into games that fail to start a bot.

use std::path::PathBuf;

use crate::plan::SandboxMode;

/// Tasks each seat of a game in flight takes: the bot's process, and in
/// a box its init and the waiter holding the box together (without
/// boxes, a process contained alone has a waiter where it has a PID
/// namespace). A bot's own children and threads come on top: they are
/// what `--limit-processes` caps, and most bots have none.
pub const TASKS_PER_SEAT: u64 = 3;

/// Tasks each game in flight takes beside its seats: the worker thread
/// that plays it, and the waiter and init of each box it keeps idle
/// between games.
pub const TASKS_PER_GAME: u64 = 1 + 2 * crate::bot_box::IDLE_PER_THREAD as u64;

/// Tasks kept free beside the games: dojo's other threads (the page
/// writer, the smoke start's, the CPU-limit watcher), a restarted bot's
/// process before the old one is reaped, and the bots' own children.
pub const TASKS_RESERVED: u64 = 64;

/// A limit on how many tasks may exist that the bots count against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskLimitKind {
    /// `ulimit -u` (RLIMIT_NPROC) of dojo's user, which its bots run as
    /// when dojo is not root (root is exempt, and seat users each count
    /// apart).
    UserProcesses,
    /// `kernel.threads-max`: tasks on the whole machine.
    ThreadsMax,
    /// `kernel.pid_max`: pids on the whole machine.
    PidMax,
    /// A control group's `pids.max`, this process's own or an ancestor's.
    Cgroup(PathBuf),
}

impl std::fmt::Display for TaskLimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UserProcesses => f.write_str("ulimit -u"),
            Self::ThreadsMax => f.write_str("kernel.threads-max"),
            Self::PidMax => f.write_str("kernel.pid_max"),
            Self::Cgroup(dir) => write!(f, "{}", dir.join("pids.max").display()),
        }
    }
}

/// One limit on tasks and what counts against it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLimit {
    pub kind: TaskLimitKind,
    pub limit: u64,
    pub in_use: u64,
}

impl TaskLimit {
    /// Tasks that may still be started under it.
    pub fn room(&self) -> u64 {
        self.limit.saturating_sub(self.in_use)
    }
}

/// The limit on tasks with the least room now (read from `/proc` and the
/// control groups), if any can be read.
pub fn tightest_task_limit() -> Option<TaskLimit> {
    task_limits().into_iter().min_by_key(TaskLimit::room)
}

/// Every limit on tasks that applies to this process's bots.
fn task_limits() -> Vec<TaskLimit> {
    let mut limits = Vec::new();
    let number =
        |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    // The fourth field of /proc/loadavg is "running/total": the tasks of
    // the whole machine.
    let tasks = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| {
        l.split_whitespace()
            .nth(3)?
            .split_once('/')?
            .1
            .parse::<u64>()
            .ok()
    });
    if let Some(in_use) = tasks {
        for (kind, path) in [
            (TaskLimitKind::ThreadsMax, "/proc/sys/kernel/threads-max"),
            (TaskLimitKind::PidMax, "/proc/sys/kernel/pid_max"),
        ] {
            if let Some(limit) = number(path) {
                limits.push(TaskLimit {
                    kind,
                    limit,
                    in_use,
                });
            }
        }
    }
    if !rustix::process::getuid().is_root() {
        let nproc = rustix::process::getrlimit(rustix::process::Resource::Nproc);
        if let Some(limit) = nproc.current {
            limits.push(TaskLimit {
                kind: TaskLimitKind::UserProcesses,
                limit,
                in_use: user_tasks(rustix::process::getuid().as_raw()),
            });
        }
    }
    for (dir, limit, in_use) in crate::cgroup::pids_limits() {
        limits.push(TaskLimit {
            kind: TaskLimitKind::Cgroup(dir),
            limit,
            in_use,
        });
    }
    limits
}

/// What bounds the memory the bots of this process may hold together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryLimitKind {
    /// The machine: `MemAvailable` of `/proc/meminfo` (what can be had
    /// without swapping, the page cache that can be dropped included).
    Machine,
    /// A control group's memory limit, this process's own or an
    /// ancestor's (the file that sets it): its bots' groups are made
    /// below it.
    Cgroup(PathBuf),
}

impl std::fmt::Display for MemoryLimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Machine => f.write_str("this machine (MemAvailable in /proc/meminfo)"),
            Self::Cgroup(file) => write!(f, "{}", file.display()),
        }
    }
}

/// One bound on the bots' memory and how much of it is free now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryRoom {
    pub kind: MemoryLimitKind,
    /// Bytes that may still be charged under it.
    pub free: u64,
}

/// The bound on memory with the least room now (the machine's available
/// memory, the memory limits of this process's control groups), if any
/// can be read.
pub fn tightest_memory_room() -> Option<MemoryRoom> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_available(&text))
        .map(|free| MemoryRoom {
            kind: MemoryLimitKind::Machine,
            free,
        });
    let groups = crate::cgroup::memory_limits()
        .into_iter()
        .map(|(file, limit, usage)| MemoryRoom {
            kind: MemoryLimitKind::Cgroup(file),
            free: limit.saturating_sub(usage),
        });
    machine.into_iter().chain(groups).min_by_key(|r| r.free)
}

/// The machine's table of open files (`fs.file-max`): a bot's processes
/// may each hold `--limit-files` of them, and when the table is full no
/// process without `CAP_SYS_ADMIN` opens a file, pipe or socket (ENFILE):
/// not the bots of other games, not the machine's other programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileTable {
    /// `fs.file-max`.
    pub max: u64,
    /// Open files on the whole machine now (the first field of
    /// `fs.file-nr`).
    pub open: u64,
}

/// The machine's open-file table now, if it can be read.
pub fn file_table() -> Option<FileTable> {
    let read = |name: &str| std::fs::read_to_string(format!("/proc/sys/fs/{name}")).ok();
    let max = read("file-max")?.trim().parse().ok()?;
    let open = read("file-nr")?.split_whitespace().next()?.parse().ok()?;
    Some(FileTable { max, open })
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let mut words = line.split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// Tasks (threads) of every process whose real uid is `uid`: what the
/// kernel counts against that user's `ulimit -u`.
fn user_tasks(uid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut tasks = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<u64>().ok())
        };
        if field("Uid:") == Some(u64::from(uid)) {
            tasks += field("Threads:").unwrap_or(1);
        }
    }
    tasks
}

/// Descriptors dojo holds for each box a worker keeps idle between games
/// (its init's socket and pidfd, the waiter's, the init's children list,
/// the kept files of its control groups): counted from `/proc/PID/fd` of
/// `dojo league --jobs 1`, about 40 for two bots and 60 with three idle
/// boxes of others beside them; kept above that.
pub const DESCRIPTORS_PER_IDLE_BOX: u64 = 8;

/// Boxes a worker may keep idle while it plays a game of `seats` bots in
/// a league of `bots`: those of other bots, so none when every bot of
/// the league is in each game (their boxes are all in use).
pub fn idle_boxes_per_game(seats: usize, bots: usize) -> u64 {
    if bots > seats {
        crate::bot_box::IDLE_PER_THREAD as u64
    } else {
        0
    }
}

/// Idle boxes a run of `games` at once, of `seats` bots each among
/// `bots` in play (a league's: the bots a stretch of it involves, which
/// its play order keeps to a tile of blocks, `dojo_league::schedule::bots_in_play`),
/// keeps for the whole process, where the limits leave room for
/// `room` more than the games' own (3 per worker, counted in each game's
/// descriptors and tasks when there are more bots than seats):
/// - 3 per worker ([`crate::bot_box::IDLE_PER_THREAD`]): the boxes of its
///   last game, for its next;
/// - with more bots than seats, up to two per bot: one for each bot's
///   next game, and one more for the games where two workers play the
///   same bot at once. Boxes the box makers forked serve any worker, so
///   this is counted for the process, not per worker: a bound of 64 per
///   worker made a league of 80 bots on 2 workers evict, in round-robin
///   order, the box each next game wanted (1,424 boxes for 6,320 games).
pub fn idle_boxes_wanted(games: usize, seats: usize, bots: usize, room: usize) -> usize {
    let base = games.saturating_mul(crate::bot_box::IDLE_PER_THREAD);
    if bots <= seats {
        return base;
    }
    base.max(bots.saturating_mul(2))
        .min(base.saturating_add(room))
}

/// Lets the process keep up to `boxes` idle between games (at least
/// [`crate::bot_box::IDLE_PER_THREAD`]; [`idle_boxes_wanted`] says how
/// many); returns the bound now in force.
pub fn keep_idle_boxes(boxes: usize) -> usize {
    crate::bot_box::set_idle_cap(boxes);
    crate::bot_box::idle_cap()
}

/// Seat users a run of `games` at once, of `seats` bots each, may hold:
/// one per box in a game, and one per box the process keeps idle between
/// games (the bound in force: [`keep_idle_boxes`]).
pub fn seat_users_needed(games: usize, seats: usize) -> usize {
    games * seats + crate::bot_box::idle_cap()
}

/// Before a run of `games` at once with `seats` bots each under `mode`:
/// claims the seat users it needs, where bots get users of their own
/// (see `runner/src/seat_users.rs`); nothing otherwise. Returns how many this
/// process now holds.
pub fn reserve_seat_users(
    mode: SandboxMode,
    games: usize,
    seats: usize,
) -> Result<usize, crate::seat_users::SeatUserError> {
    if !crate::plan::seat_users(mode) {
        return Ok(0);
    }
    crate::seat_users::reserve(seat_users_needed(games, seats))?;
    Ok(crate::seat_users::held())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo_in_bytes() {
        let meminfo = "MemTotal:       24567420 kB\nMemFree:         1000000 kB\n\
                       MemAvailable:   20000000 kB\nBuffers:           1 kB\n";
        assert_eq!(mem_available(meminfo), Some(20_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn the_tightest_memory_room_is_at_most_what_the_machine_has_free() {
        let room = tightest_memory_room().expect("Linux has /proc/meminfo");
        let machine = mem_available(&std::fs::read_to_string("/proc/meminfo").unwrap()).unwrap();
        // Read a moment apart: the machine's figure moves a little.
        assert!(
            room.free <= machine + (64 << 20),
            "{room:?} against {machine}"
        );
    }

    #[test]
    fn the_file_table_counts_the_files_open_now_within_its_size() {
        let table = file_table().expect("Linux has /proc/sys/fs");
        assert!(table.open > 0 && table.open <= table.max, "{table:?}");
    }

    #[test]
    fn idle_boxes_are_three_per_worker_and_with_more_bots_two_per_bot_where_there_is_room() {
        // Every bot in every game: the boxes of each worker's last game.
        assert_eq!(idle_boxes_wanted(2, 2, 2, usize::MAX), 6);
        assert_eq!(idle_boxes_wanted(256, 2, 2, usize::MAX), 768);
        // 80 bots on 2 workers: two per bot for the process (it was at
        // most 64 per worker, and those evicted what the next game
        // wanted), as far as the room goes.
        assert_eq!(idle_boxes_wanted(2, 2, 80, usize::MAX), 160);
        assert_eq!(idle_boxes_wanted(2, 2, 80, 10), 16);
        assert_eq!(idle_boxes_wanted(2, 2, 80, 0), 6);
        // Wide: the workers' own boxes already cover the bots.
        assert_eq!(idle_boxes_wanted(64, 2, 80, usize::MAX), 192);
    }

    #[test]
    fn the_machine_always_limits_tasks_and_counts_this_process() {
        let limits = task_limits();
        let machine = limits
            .iter()
            .find(|l| l.kind == TaskLimitKind::ThreadsMax)
            .expect("kernel.threads-max is readable");
        assert!(machine.in_use >= 1 && machine.limit > machine.in_use);
        assert!(tightest_task_limit().unwrap().room() <= machine.room());
        // This process's threads, at least this one.
        assert!(user_tasks(rustix::process::getuid().as_raw()) >= 1);
    }
}

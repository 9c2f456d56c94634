//! How many games fit at once: the bounds a league, a comparison and a
//! match are sized by before play (this process's open descriptors, the
//! machine's tasks, memory and open-file table), each saying why when it
//! lowers `--jobs`, and the bots' most of each ([`BotNeeds`]).

use anyhow::{Context, Result, bail};

/// Descriptors kept free beside the games in flight: the league's own
/// files (`games.jsonl`, its lock, `report.json` being written, a page),
/// the signal handler's pipe and what a smoke start or restart opens
/// before the descriptors it replaces are closed. What dojo holds when
/// this is asked is counted apart (with `--sandbox auto`, about 26: the
/// smoke start's boxes among them), and one log per bot.
const DESCRIPTORS_RESERVED: u64 = 16;

/// The number of games to play at once: `jobs`, or fewer when the games
/// in flight would not fit what this process and the machine allow, with
/// a note saying which limit and why; a game that cannot get what it
/// needs would fail, or make another game's bot fail. The limits (each a
/// [`Bound`]): open descriptors (each game `seats` bot processes,
/// [`dojo_runner::DESCRIPTORS_PER_SEAT`] descriptors each, within this
/// process's limit, already raised to the hard limit), tasks (processes
/// and threads: `ulimit -u` without root, the kernel's `threads-max` and
/// `pid_max`, the control groups' `pids.max`), memory (each bot's cap
/// within what the machine and this process's control groups have free:
/// a bot that fills its cap must not make the kernel kill another game's
/// bot) and the machine's open-file table (each bot's processes may fill
/// their `--limit-files`: a bot that does must not leave other programs
/// and bots unable to open a file). Refuses when not even one game fits.
/// Then starts the box makers (before any worker thread) and claims the
/// seat users the games need (as root: `docs/sandbox.md`), refusing when
/// they cannot be had.
pub fn jobs_that_fit(
    jobs: usize,
    seats: usize,
    bots: usize,
    needs: &BotNeeds,
    sandbox: dojo_runner::SandboxMode,
) -> Result<usize> {
    let files = Room::now(seats, bots);
    let tasks = TaskRoom::now(seats);
    let memory = MemoryFit::now(seats, needs.memory);
    let table = FileTableFit::now(seats, needs.open_files);
    // The tightest bound says why (on a tie, the first).
    let bounds = [
        Some(&files as &dyn Bound),
        tasks.as_ref().map(|t| t as &dyn Bound),
        memory.as_ref().map(|m| m as &dyn Bound),
        table.as_ref().map(|t| t as &dyn Bound),
    ];
    let tightest = (bounds.into_iter().flatten())
        .min_by_key(|b| b.fit())
        .unwrap_or(&files);
    let fit = tightest.within(jobs, seats)?;
    // More bots than seats: what room the games leave goes to keeping
    // more boxes idle (up to two per bot in play), so the next games find
    // their bots' boxes made.
    let room = if bots > seats {
        let files = files.left(fit) / dojo_runner::DESCRIPTORS_PER_IDLE_BOX;
        let tasks = tasks.map_or(u64::MAX, |t| t.left(fit) / 2);
        usize::try_from(files.min(tasks)).unwrap_or(usize::MAX)
    } else {
        0
    };
    // The bots a stretch of the league involves: its play order keeps
    // to them (`dojo_league::schedule::bots_in_play`).
    let in_play = dojo_league::schedule::bots_in_play(fit, seats, bots);
    dojo_runner::keep_idle_boxes(dojo_runner::idle_boxes_wanted(fit, seats, in_play, room));
    dojo_runner::start_box_makers(sandbox);
    dojo_runner::reserve_seat_users(sandbox, fit, seats).with_context(|| {
        format!(
            "cannot have the {} seat users {} at once need (each bot runs as a user of its own as root; --sandbox off runs them as dojo's)",
            dojo_runner::seat_users_needed(fit, seats),
            crate::output::count(fit, "game"),
        )
    })?;
    Ok(fit)
}

/// How many games of `seats` bots fit at once now: the smoke start's
/// batches.
pub fn games_that_fit_now(seats: usize, needs: &BotNeeds) -> usize {
    let files = Room::now(seats, 0).fit;
    let tasks = TaskRoom::now(seats).map_or(usize::MAX, |t| t.fit);
    let memory = MemoryFit::now(seats, needs.memory).map_or(usize::MAX, |m| m.fit);
    let table = FileTableFit::now(seats, needs.open_files).map_or(usize::MAX, |t| t.fit);
    files.min(tasks).min(memory).min(table)
}

/// What the bots of a run may take of the machine at most, each with its
/// own `[limits]` in place: what games in flight are sized by.
#[derive(Debug, Clone, Copy, Default)]
pub struct BotNeeds {
    /// The largest memory cap among them, in bytes; `None` where a bot
    /// has no cap or no memory group enforces one (then the bots' memory
    /// cannot be bounded, and games in flight are not sized by it).
    pub memory: Option<u64>,
    /// The most files any of them may hold open: `--limit-processes`
    /// processes of `--limit-files` each; `None` where no process group
    /// enforces the first.
    pub open_files: Option<u64>,
}

/// What `bots` may take at most under `run` ([`BotNeeds`]).
pub fn bot_needs<'a>(
    run: &dojo_runner::RunOptions,
    bots: impl Iterator<Item = &'a dojo_runner::BotSpec>,
) -> BotNeeds {
    let enforced =
        |layer: &str| (dojo_runner::probe().iter()).any(|l| l.name == layer && l.available);
    let (memory, processes) = (enforced("cgroup-memory"), enforced("cgroup-pids"));
    let mut needs = BotNeeds {
        memory: memory.then_some(0),
        open_files: processes.then_some(0),
    };
    for bot in bots {
        let controls = run.for_bot(bot);
        needs.memory = needs.memory.and_then(|most| {
            let mib = controls.memory_mib?;
            Some(most.max(dojo_runner::mib_bytes(mib)))
        });
        // Bots get no more open files than dojo's hard limit allows.
        let files = controls.files.min(dojo_runner::open_files_hard_limit());
        needs.open_files =
            (needs.open_files).map(|most| most.max(controls.processes.saturating_mul(files)));
    }
    needs
}

/// Refuses a single game (`dojo match`) whose bots' memory caps or open
/// files do not fit what the machine has, as a league would
/// ([`jobs_that_fit`]).
pub fn one_game_fits(
    run: &dojo_runner::RunOptions,
    bots: &[std::sync::Arc<dojo_runner::BotSpec>],
) -> Result<()> {
    let needs = bot_needs(run, bots.iter().map(AsRef::as_ref));
    if let Some(memory) = MemoryFit::now(bots.len(), needs.memory) {
        memory.within(1, bots.len())?;
    }
    if let Some(table) = FileTableFit::now(bots.len(), needs.open_files) {
        table.within(1, bots.len())?;
    }
    Ok(())
}

/// One bound on the games in flight.
trait Bound {
    /// How many games fit in it.
    fn fit(&self) -> usize;
    /// `jobs`, or what fits with a note saying why; an error when not
    /// even one game does.
    fn within(&self, jobs: usize, seats: usize) -> Result<usize>;
}

/// Memory kept free beside the bots' caps: dojo itself, its boxes' inits
/// and the page cache the bots' programs are read from.
const MEMORY_RESERVED: u64 = 256 << 20;

/// How many games fit at once when every bot may fill its memory cap,
/// within the tightest bound on memory ([`dojo_runner::tightest_memory_room`]).
struct MemoryFit {
    fit: usize,
    room: dojo_runner::MemoryRoom,
    per_bot: u64,
}

impl MemoryFit {
    /// `None` where the bots' memory is not bounded, or no bound on it can
    /// be read.
    fn now(seats: usize, per_bot: Option<u64>) -> Option<MemoryFit> {
        let per_bot = per_bot?;
        let room = dojo_runner::tightest_memory_room()?;
        let per_game = (seats as u64 * per_bot).max(1);
        let fit = room.free.saturating_sub(MEMORY_RESERVED) / per_game;
        Some(MemoryFit {
            fit: usize::try_from(fit).unwrap_or(usize::MAX),
            room,
            per_bot,
        })
    }
}

impl Bound for MemoryFit {
    fn fit(&self) -> usize {
        self.fit
    }

    fn within(&self, jobs: usize, seats: usize) -> Result<usize> {
        let MemoryFit {
            fit,
            ref room,
            per_bot,
        } = *self;
        if fit >= jobs {
            return Ok(jobs);
        }
        let free = room.free.saturating_sub(MEMORY_RESERVED);
        let what = format!(
            "each bot may use up to {} (--limit-memory-mib, or its own [limits]) and {} has {} free, {} of which dojo keeps for itself; the caps of all bots in play must fit in the rest, so that a bot filling its cap never makes the kernel kill another bot",
            mib(per_bot),
            room.kind,
            mib(room.free),
            mib(MEMORY_RESERVED),
        );
        // The largest cap, in MiB, at which `games` fit.
        let cap_for = |games: usize| (free / (seats as u64 * games as u64).max(1)) >> 20;
        if fit == 0 {
            bail!(
                "too little memory for even one game of {seats} bots: {what}; lower --limit-memory-mib to {} or less",
                cap_for(1)
            );
        }
        errln!(
            "note: playing {} at once, not {jobs}: {what}; lower --limit-memory-mib to {} or less to play {jobs} at once",
            crate::output::count(fit, "game"),
            cap_for(jobs)
        );
        Ok(fit)
    }
}

/// Bytes as whole MiB, for messages.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

/// How many games fit at once in this process's limit on open
/// descriptors, beside those it holds now.
#[derive(Clone, Copy)]
struct Room {
    fit: usize,
    /// The soft limit.
    limit: u64,
    /// What one game of the seats asked for needs.
    per_game: u64,
    /// Open now, reserved ([`DESCRIPTORS_RESERVED`]) and one log per bot.
    beside: u64,
    /// Boxes a worker may keep idle beside its game's.
    idle: u64,
}

impl Room {
    fn now(seats: usize, bots: usize) -> Room {
        let limit = dojo_runner::open_files_soft_limit();
        let in_use = dojo_runner::open_descriptors().unwrap_or(0);
        // A league of more bots than seats: the worker may keep boxes of
        // other bots idle beside the game's.
        let idle = dojo_runner::idle_boxes_per_game(seats, bots);
        let per_game = seats as u64 * dojo_runner::DESCRIPTORS_PER_SEAT
            + idle * dojo_runner::DESCRIPTORS_PER_IDLE_BOX;
        let beside = in_use + DESCRIPTORS_RESERVED + bots as u64;
        let room = limit.saturating_sub(beside);
        Room {
            fit: usize::try_from(room / per_game.max(1)).unwrap_or(usize::MAX),
            limit,
            per_game,
            beside,
            idle,
        }
    }

    /// Descriptors left once `games` are in flight.
    fn left(&self, games: usize) -> u64 {
        (self.limit).saturating_sub(self.beside + self.per_game * games as u64)
    }
}

impl Bound for Room {
    fn fit(&self) -> usize {
        self.fit
    }

    fn within(&self, jobs: usize, seats: usize) -> Result<usize> {
        let Room {
            fit,
            limit,
            per_game,
            beside,
            idle,
        } = *self;
        if fit >= jobs {
            return Ok(jobs);
        }
        if fit == 0 {
            bail!(
                "this process may open {limit} files (ulimit -n), too few for even one game: a game of {seats} bots needs about {per_game} beside the {beside} dojo keeps; raise the limit (ulimit -n {})",
                beside + per_game
            );
        }
        errln!(
            "note: playing {} at once, not {jobs}: this process may open {limit} files (ulimit -n) and each game in flight needs about {per_game} ({seats} bots, {} each{}) beside the {beside} dojo keeps; raise the limit (ulimit -n {}) to play {jobs} at once",
            crate::output::count(fit, "game"),
            dojo_runner::DESCRIPTORS_PER_SEAT,
            if idle > 0 {
                format!(
                    ", and {} for each of the {idle} boxes its worker may keep idle",
                    dojo_runner::DESCRIPTORS_PER_IDLE_BOX
                )
            } else {
                String::new()
            },
            beside + per_game * jobs as u64
        );
        Ok(fit)
    }
}

/// How many games fit at once in the tightest limit on tasks (processes
/// and threads) the bots count against; `None` where none can be read.
struct TaskRoom {
    fit: usize,
    limit: dojo_runner::TaskLimit,
    per_game: u64,
}

impl TaskRoom {
    fn now(seats: usize) -> Option<TaskRoom> {
        let limit = dojo_runner::tightest_task_limit()?;
        let per_game = seats as u64 * dojo_runner::TASKS_PER_SEAT + dojo_runner::TASKS_PER_GAME;
        let room = limit.room().saturating_sub(dojo_runner::TASKS_RESERVED);
        Some(TaskRoom {
            fit: usize::try_from(room / per_game).unwrap_or(usize::MAX),
            limit,
            per_game,
        })
    }

    /// Tasks left once `games` are in flight, beside those kept free.
    fn left(&self, games: usize) -> u64 {
        (self.limit.room())
            .saturating_sub(dojo_runner::TASKS_RESERVED + self.per_game * games as u64)
    }
}

impl Bound for TaskRoom {
    fn fit(&self) -> usize {
        self.fit
    }

    fn within(&self, jobs: usize, seats: usize) -> Result<usize> {
        let TaskRoom {
            fit,
            ref limit,
            per_game,
        } = *self;
        if fit >= jobs {
            return Ok(jobs);
        }
        let reserved = dojo_runner::TASKS_RESERVED;
        let what = format!(
            "{} allows {} processes and threads, {} in use, and each game in flight needs about {per_game} ({seats} bots, {} each: the bot and its box's init and waiter; and {} for the thread playing it and the boxes it keeps idle) beside the {reserved} dojo keeps free",
            limit.kind,
            limit.limit,
            limit.in_use,
            dojo_runner::TASKS_PER_SEAT,
            dojo_runner::TASKS_PER_GAME,
        );
        if fit == 0 {
            bail!(
                "too few processes for even one game: {what}; raise {} to at least {}",
                limit.kind,
                limit.in_use + reserved + per_game
            );
        }
        errln!(
            "note: playing {} at once, not {jobs}: {what}; raise {} to {} to play {jobs} at once",
            crate::output::count(fit, "game"),
            limit.kind,
            limit.in_use + reserved + per_game * jobs as u64
        );
        Ok(fit)
    }
}

/// Open files kept free in the machine's table beside the bots' most:
/// a tenth of it, and at least 65,536, for the machine's other programs
/// and dojo.
fn files_reserved(max: u64) -> u64 {
    (max / 10).max(1 << 16)
}

/// How many games fit at once when every bot may fill its processes'
/// open-file limits, within what is free of the machine's open-file
/// table ([`dojo_runner::file_table`]).
struct FileTableFit {
    fit: usize,
    table: dojo_runner::FileTable,
    per_bot: u64,
}

impl FileTableFit {
    /// `None` where the bots' open files are not bounded, or the table
    /// cannot be read.
    fn now(seats: usize, per_bot: Option<u64>) -> Option<FileTableFit> {
        let per_bot = per_bot?;
        let table = dojo_runner::file_table()?;
        let free = (table.max)
            .saturating_sub(table.open)
            .saturating_sub(files_reserved(table.max));
        let fit = free / (seats as u64 * per_bot).max(1);
        Some(FileTableFit {
            fit: usize::try_from(fit).unwrap_or(usize::MAX),
            table,
            per_bot,
        })
    }
}

impl Bound for FileTableFit {
    fn fit(&self) -> usize {
        self.fit
    }

    fn within(&self, jobs: usize, seats: usize) -> Result<usize> {
        let FileTableFit {
            fit,
            table,
            per_bot,
        } = *self;
        if fit >= jobs {
            return Ok(jobs);
        }
        let reserved = files_reserved(table.max);
        let what = format!(
            "each bot may hold up to {per_bot} open files (--limit-processes times --limit-files, or its own [limits]) and the machine's open-file table (fs.file-max) has room for {}, {} open now and {reserved} kept for the machine's other programs; a bot that fills its limits must not leave other bots and programs unable to open a file",
            table.max, table.open,
        );
        // The largest per-bot total at which `games` fit, and the table
        // that holds `games` at today's.
        let free = table.max.saturating_sub(table.open + reserved);
        let per_bot_for = |games: usize| free / (seats as u64 * games as u64).max(1);
        let table_for =
            |games: usize| table.open + reserved + seats as u64 * games as u64 * per_bot;
        if fit == 0 {
            bail!(
                "too few open files for even one game of {seats} bots: {what}; lower --limit-files or --limit-processes so that their product is {} or less, or raise fs.file-max to {}",
                per_bot_for(1),
                table_for(1)
            );
        }
        errln!(
            "note: playing {} at once, not {jobs}: {what}; lower --limit-files or --limit-processes so that their product is {} or less, or raise fs.file-max to {}, to play {jobs} at once",
            crate::output::count(fit, "game"),
            per_bot_for(jobs),
            table_for(jobs)
        );
        Ok(fit)
    }
}

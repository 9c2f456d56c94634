//! One module per subcommand.

pub mod bots;
pub mod check;
pub mod compare;
pub mod doctor;
pub mod league;
pub mod new;
pub mod play;
pub mod replay;
pub mod report;
pub mod rules;

use anyhow::{Context, Result, bail};
use dojo_league::{Game, PlayOptions};

use crate::args::{BoardsArg, ControlArgs, GameOptionsArgs};
use crate::games;

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
/// needs would fail. The limits: open descriptors (each game `seats` bot
/// processes, [`dojo_runner::DESCRIPTORS_PER_SEAT`] descriptors each,
/// within this process's limit, already raised to the hard limit) and
/// tasks (processes and threads: `ulimit -u` without root, the kernel's
/// `threads-max` and `pid_max`, the control groups' `pids.max`) and
/// memory (each bot's cap, `memory_per_bot`, within what the machine and
/// this process's control groups have free: a bot that fills its cap must
/// not make the kernel kill another game's bot). Refuses when not even one
/// game fits. Then starts the box makers (before any worker thread) and
/// claims the seat users the games need (as root: `docs/sandbox.md`),
/// refusing when they cannot be had.
pub fn jobs_that_fit(
    jobs: usize,
    seats: usize,
    bots: usize,
    memory_per_bot: Option<u64>,
    sandbox: dojo_runner::SandboxMode,
) -> Result<usize> {
    let files = Room::now(seats, bots);
    let tasks = TaskRoom::now(seats);
    let memory = MemoryFit::now(seats, memory_per_bot);
    // The tightest limit says why.
    let task_fit = tasks.as_ref().map_or(usize::MAX, |t| t.fit);
    let fit = match &memory {
        Some(memory) if memory.fit < files.fit.min(task_fit) => memory.within(jobs, seats),
        _ => match &tasks {
            Some(tasks) if tasks.fit < files.fit => tasks.within(jobs, seats),
            _ => files.within(jobs, seats),
        },
    }?;
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

/// How many games of `seats` bots fit at once now, at least one: the
/// smoke start's batches.
fn games_that_fit_now(seats: usize, memory_per_bot: Option<u64>) -> usize {
    let files = Room::now(seats, 0).fit;
    let tasks = TaskRoom::now(seats).map_or(files, |t| t.fit.min(files));
    MemoryFit::now(seats, memory_per_bot).map_or(tasks, |m| m.fit.min(tasks))
}

/// The most memory any of `bots` may hold: the largest cap among them
/// (each bot's own `[limits]` in place), in bytes; `None` where a bot has
/// no cap or no memory group enforces one (then the bots' memory cannot
/// be bounded, and games in flight are not sized by it).
pub fn memory_per_bot<'a>(
    run: &dojo_runner::RunOptions,
    mut bots: impl Iterator<Item = &'a dojo_runner::BotSpec>,
) -> Option<u64> {
    let enforced = (dojo_runner::probe().iter()).any(|l| l.name == "cgroup-memory" && l.available);
    if !enforced {
        return None;
    }
    bots.try_fold(0, |most: u64, bot| {
        let mib = run.for_bot(bot).memory_mib?;
        Some(most.max(dojo_runner::mib_bytes(mib)))
    })
}

/// Refuses a single game (`dojo match`) whose bots' memory caps do not
/// fit in the memory there is, as a league would ([`jobs_that_fit`]).
pub fn one_game_fits_memory(
    run: &dojo_runner::RunOptions,
    bots: &[std::sync::Arc<dojo_runner::BotSpec>],
) -> Result<()> {
    let per_bot = memory_per_bot(run, bots.iter().map(AsRef::as_ref));
    match MemoryFit::now(bots.len(), per_bot) {
        Some(memory) => memory.within(1, bots.len()).map(drop),
        None => Ok(()),
    }
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

    /// `jobs`, or what fits with a note; an error when nothing does.
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

    /// `jobs`, or what fits with a note; an error when nothing does.
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

    /// `jobs`, or what fits with a note; an error when nothing does.
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

/// The control flags given that contradict a stored league's (each as
/// `--flag VALUE (the league has STORED)`): a league's time controls,
/// limits and containment are fixed when it starts, for `--resume` and for
/// a rerun of one of its games alike. Flags left out are not conflicts.
pub fn control_conflicts(given: &ControlArgs, settings: &dojo_league::Settings) -> Vec<String> {
    dojo_runner::Controls::resolve(&given.0, Some(&settings.controls))
        .1
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The files the game option flags and `--board` read (decks, boards),
/// as inputs no output may overwrite (`crate::outpaths::check`).
pub fn game_inputs<'a>(
    play: &'a GameOptionsArgs,
    boards: &'a BoardsArg,
) -> Vec<Option<crate::outpaths::Named<'a>>> {
    let mut inputs = play.inputs();
    inputs.extend(boards.inputs());
    inputs
}

/// Refuses the game option flags given that `game` does not take
/// (another game's: they would be silently ignored), naming them and the
/// games they apply to. Cheap: a league checks it before its bots are
/// looked at or built.
pub fn refuse_other_games_flags(game: Game, a: &GameOptionsArgs) -> Result<()> {
    let takes = games::options::flags(Some(game));
    let not_here: Vec<String> = (a.given().iter())
        .filter(|flag| !takes.contains(flag))
        .cloned()
        .collect();
    if not_here.is_empty() {
        return Ok(());
    }
    let verb = if not_here.len() == 1 {
        "applies"
    } else {
        "apply"
    };
    bail!(
        "{} only {verb} to {}, not {game}",
        not_here.join(", "),
        games::games_taking(&not_here, game).join(" or ")
    )
}

/// The stored form of the game option flags for `game`: refuses the flags
/// `game` does not take ([`refuse_other_games_flags`]), then asks the game
/// for the stored form over `base` (`GameCli::play_options`) and checks it
/// resolves (`GameCli::executor_options`: a deck that does not parse is
/// refused here).
pub fn play_options(game: Game, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
    refuse_other_games_flags(game, a)?;
    let play = games::cli(game).play_options(a, base)?;
    // Resolve the game's options now: a bad deck is an error before any
    // game.
    games::cli(game).executor_options(&play)?;
    Ok(play)
}

/// Gives each of `bots` (labelled as messages name them) a smoke start
/// ([`dojo_games::smoke`]), all at once, with `exec`'s run options (and
/// its first board, for royale); prints each failure with the head of the
/// bot's stderr and returns the labels of those that failed. `dojo
/// league` and `dojo compare` both start here.
pub fn smoke_start<'a>(
    game: Game,
    bots: impl IntoIterator<Item = (String, &'a std::sync::Arc<dojo_runner::BotSpec>)>,
    exec: &dojo_games::BotExecutor,
) -> Vec<String> {
    let failures = smoke_failures(game, bots, exec);
    print_smoke_failures(&failures);
    failures.into_iter().map(|(label, _)| label).collect()
}

/// [`smoke_start`] without printing: each failed bot's label and why.
pub fn smoke_failures<'a>(
    game: Game,
    bots: impl IntoIterator<Item = (String, &'a std::sync::Arc<dojo_runner::BotSpec>)>,
    exec: &dojo_games::BotExecutor,
) -> Vec<(String, dojo_games::smoke::SmokeFailure)> {
    let board = exec.boards.values().next().map(String::as_str);
    let bots: Vec<_> = bots.into_iter().collect();
    let mut failures = Vec::new();
    let memory = memory_per_bot(&exec.run, bots.iter().map(|(_, b)| b.as_ref()));
    let mut rest = &bots[..];
    while !rest.is_empty() {
        // As many at once as the limits on open descriptors, tasks and
        // memory take now (a folder of many bots under a low `ulimit -n`
        // would otherwise fail them all with "Too many open files"), and
        // at least one.
        let at_once = games_that_fit_now(game.shape().seats(), memory).clamp(1, rest.len());
        let (batch, later) = rest.split_at(at_once);
        rest = later;
        std::thread::scope(|scope| {
            let checks: Vec<_> = batch
                .iter()
                .map(|(label, bot)| {
                    let check = scope
                        .spawn(move || dojo_games::smoke::smoke_start(game, bot, board, &exec.run));
                    (label, check)
                })
                .collect();
            failures.extend(checks.into_iter().filter_map(|(label, c)| {
                c.join()
                    .ok()
                    .and_then(Result::err)
                    .map(|f| (label.clone(), f))
            }));
        });
        // The batch's boxes go: their descriptors make room for the next
        // batch (those the box maker forked could serve the league's
        // games, but a folder of many bots would keep one box per bot
        // open through the smoke start).
        dojo_runner::drop_idle_boxes();
    }
    // A stop (Ctrl-C, or a scheduler's SIGTERM to the whole job, which
    // reaches the bots too) cancels the smoke games and may kill their
    // bots: that is no bot's failure. The command then stops as it does
    // for a stop at any other time.
    if exec
        .run
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst))
    {
        return Vec::new();
    }
    failures
}

/// Prints each smoke start failure with the head of the bot's stderr
/// (control characters escaped: the bot wrote it).
pub fn print_smoke_failures(failures: &[(String, dojo_games::smoke::SmokeFailure)]) {
    use crate::render::untrusted;
    for (label, f) in failures {
        errln!(
            "bot {label} failed its smoke start: it {}",
            untrusted::line(&f.problem)
        );
        if !f.played {
            // It never ran: there is no stderr to speak of.
        } else if f.stderr_head.is_empty() {
            errln!("  (it wrote nothing to stderr)");
        } else {
            errln!("  head of its stderr:");
            for line in f.stderr_head.lines() {
                errln!("  | {}", untrusted::line(line));
            }
        }
    }
}

pub use crate::output::absolute;

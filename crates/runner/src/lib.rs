//! Bot processes and the loop that connects them to a game.
//!
//! A bot is a command run in its own directory ([`BotSpec`], read from a
//! `bot.toml` by [`load_dir`] or [`resolve`]; a folder of bots, every
//! entry with its bot or its problem, by [`scan`]). [`play()`] spawns one
//! process per seat (each in its own process group), drives any
//! [`Referee`](dojo_engine::protocol::Referee) over their stdin/stdout and
//! counts what each bot did wrong. The runner knows no game's rules.

mod bot_values;
mod controls;
mod fingerprint;
mod folder;
pub mod input;
mod lines;
mod manifest;
mod play;
mod process;
mod script;
mod spec;
mod stderr_log;

pub use bot_values::{BotValues, LimitValues, TimeValues};
pub use controls::{CONTROLS, Conflict, Control, Controls, Given, Kind, Value, as_ms, mib_bytes};
pub use dojo_sandbox::bot_box::{boxes_made, start_box_makers};
pub use dojo_sandbox::build_box::{
    BUILD_MEMORY_MIB, BUILD_PROCESSES, BuildNetwork, TOOLCHAIN_VARS, build_network_off_by,
};
pub use dojo_sandbox::capacity::{
    DESCRIPTORS_PER_IDLE_BOX, FileTable, MemoryLimitKind, MemoryRoom, TASKS_PER_GAME,
    TASKS_PER_SEAT, TASKS_RESERVED, TaskLimit, TaskLimitKind, file_table, idle_boxes_per_game,
    idle_boxes_wanted, keep_idle_boxes, reserve_seat_users, seat_users_needed,
    tightest_memory_room, tightest_task_limit,
};
pub use dojo_sandbox::fork_fence::FencedFile;
pub use dojo_sandbox::plan::{
    DEFAULT_MEMORY_MIB, DEFAULT_PROCESSES, InForce, Layer, Leftovers, Limits, SCRATCH_INODES,
    SCRATCH_MIB, SandboxError, SandboxMode, in_force, layers_in_force, probe, remove_leftovers,
};
pub use dojo_sandbox::reaper::kill_all_bots;
pub use dojo_sandbox::seat_users::SeatUserError;
pub use fingerprint::fingerprint;
pub use folder::{
    Entry, EntryProblem, Folder, IGNORE_FILE, Loaded, SCRIPTS, discover, obvious_script, scan,
};
pub use lines::{CappedLines, DEFAULT_MAX_LINE_BYTES, LineBuffer, LineEvent};
pub use manifest::{
    MAX_NAME_BYTES, ManifestError, ManifestProblem, ManifestTeam, Mode, check_name, is_valid_name,
};
pub use play::{
    FaultCounts, INVALID_REASON_CAP_BYTES, LimitHits, MatchRun, ProcessLimit, RunError, RunOptions,
    STDERR_ENTRY_CAP_BYTES, Seat, SeatRun, TimeMode, play, play_with_observer,
};
pub use spec::{
    BotSpec, BuildError, DEFAULT_BUILD_TIMEOUT, MANIFEST_FILE, SpecError, bot_cache, build_cache,
    hidden_path_hint, load_any, load_dir, named_dir, named_dir_spec, resolve, resolve_in,
};
pub use stderr_log::{CappedLog, DEFAULT_STDERR_CAP_BYTES};
/// Drops every box kept between games for a later game: after a smoke
/// start, whose boxes would hold processes and descriptors the next
/// batch needs (and a box dojo forked itself died with the thread that
/// made it).
pub fn drop_idle_boxes() {
    dojo_sandbox::bot_box::drop_idle();
}

pub use dojo_sandbox::sys::{
    DESCRIPTORS_PER_SEAT, allowed_cpus, open_descriptors, open_files_hard_limit,
    open_files_soft_limit, process_group_alive, raise_open_files_limit,
};

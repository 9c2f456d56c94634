//! Containment of dojo's bot processes: what a bot (or a bot's build)
//! runs in, and nothing of what it plays. The model, layer by layer, is
//! in `docs/sandbox.md`.
//!
//! The crate knows processes, namespaces, control groups, users, limits
//! and files; it knows no game, no prompt or answer, and no bot manifest
//! (what it needs of one, a caller passes in). `dojo-runner` builds on it.
//!
//! # Layers
//!
//! Each module calls only modules of the layers below its own (no import
//! circle), from the bottom up:
//!
//! 1. [`sys`]: the raw system calls, and the code that runs where only
//!    async-signal-safe calls may: the forked child between fork and exec,
//!    a box's init ([`sys::init`]), the child's making of a minimal root
//!    ([`sys::root`]). The crate's only `unsafe` (every other module is
//!    under the workspace's `deny(unsafe_code)`); it calls nothing above.
//! 2. One mechanism each: [`seat_users`] (uids of each seat's own),
//!    [`seccomp`] (the filters), [`confine`] (Landlock rules and what a bot
//!    may read), [`cgroup`] (a process's control groups), [`cputime`] (CPU
//!    clocks of a process tree), [`reaper`] (dojo as a subreaper, the
//!    sweep, `kill_all_bots`) and above it [`fork_fence`].
//! 3. Where a bot writes and sees: [`run_dir`] (the run directory, scratch
//!    directories, leftovers of a killed dojo) and [`root`] (a minimal root,
//!    decided before the fork).
//! 4. [`plan`]: which layers this machine has (the probe behind `dojo
//!    doctor`) and what a process gets of them (`SandboxMode`, `Limits`,
//!    [`plan::plan`]).
//! 5. [`spawn`]: one process contained on its own, and its guard;
//!    [`build_box`]: what a confined build gets.
//! 6. [`bot_box`]: a seat's reusable box.
//! 7. [`capacity`]: how many games fit at once, boxes and seat users
//!    included.

pub mod bot_box;
pub mod build_box;
pub mod capacity;
pub mod cgroup;
pub mod confine;
pub mod cputime;
pub mod fork_fence;
pub mod plan;
pub mod reaper;
pub mod root;
pub mod run_dir;
pub mod seat_users;
pub mod seccomp;
pub mod spawn;
pub mod sys;

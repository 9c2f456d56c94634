//! Containment of dojo's bot processes: what a bot (or a bot's build)
//! runs in, and nothing of what it plays. The model, boundary by boundary
//! and layer by layer, with the attacks each layer stops and the tests
//! that show it, is `docs/sandbox.md`.
//!
//! The crate knows processes, namespaces, control groups, users, limits
//! and files; it knows no game, no prompt or answer, and no bot manifest
//! (what it needs of one, a caller passes in). `dojo-runner` builds on it:
//! it wraps a started program's [`Pipes`] and [`Tenant`] into its own bot
//! process, which speaks the line protocol.
//!
//! # A box's life
//!
//! As isolate's manual puts it for its sandboxes: make the box, run
//! programs in it, reset it between uses, tear it down. Here:
//!
//! 1. **Plan.** [`plan()`] turns a [`SandboxMode`] and [`Limits`] into the
//!    [`Containment`] of one process or box, from the layers this machine
//!    has ([`plan::probe`], shown by `dojo doctor`). A [`Launch`] adds the
//!    command, its directory and its [`Scratch`] directory
//!    ([`scratch_dir`]: HOME and TMPDIR, owned by the seat's user).
//! 2. **Make.** [`BotBox::create`] has the box's waiter and its init
//!    forked into new namespaces, control groups, a minimal root, seccomp
//!    and Landlock, once, and readies it as for a new game. The forks are
//!    the [`box_maker`]'s (a small process of dojo's own), so that dojo,
//!    many threads wide, is never forked for a box. Where boxes are not
//!    [`bot_box::wanted`] (no PID namespace, `DOJO_BOX=0`), and for builds,
//!    [`spawn_contained`] contains each process on its own instead.
//! 3. **Start.** [`BotBox::start`] (or [`BotBox::begin_start`] then
//!    [`BotBox::finish_start`], so a game's boxes start their bots at once)
//!    has the init clone and exec the program with fresh pipes; the
//!    [`Occupant`] becomes the caller's [`Pipes`] and [`Tenant`] by
//!    [`Tenant::boxed`]. The tenant tells the program's end, its CPU time,
//!    memory peak and the limits its groups met, counted from this start;
//!    dropping it has the init kill everything in the box and reap it
//!    before the next start. A box refuses a start once it is no longer
//!    [`BotBox::usable`] (its init gone or silent): make another
//!    ([`lifecycle::ensure`], [`lifecycle::refusal`] decide which).
//! 4. **Reset.** Between games, [`BotBox::reset`] readies the emptied box
//!    as a new one: a new IPC namespace, the PID counter set back, a new
//!    scratch filesystem (or the scratch directory emptied). [`give_back`]
//!    resets a box and keeps it for the next game of the same bot (on any
//!    thread, or on the same thread for a box dojo forked itself), where
//!    [`take_idle`] finds it; `--fresh-boxes` skips both.
//! 5. **Tear down.** Dropping the [`BotBox`] kills everything in it (the
//!    waiter's process group and the init's PID namespace), removes its
//!    groups and its scratch directory. When dojo dies, however it dies,
//!    the kernel tears the box down (parent-death signals from dojo's
//!    thread to the waiter to the init); what a `kill -9` left on disk
//!    [`remove_leftovers`] takes at the next start.
//!
//! # Layers
//!
//! Each module calls only modules of the layers below its own (no import
//! circle), from the bottom up:
//!
//! 1. [`sys`]: the raw system calls, and the code that runs where only
//!    async-signal-safe calls may: the forked child between fork and exec,
//!    a box's init (`sys::init`), the child's making of a minimal root
//!    (`sys::root`). The crate's only `unsafe` (every other module is
//!    under the workspace's `deny(unsafe_code)`); it calls nothing above.
//! 2. One mechanism each: [`seat_users`] (uids of each seat's own),
//!    [`seccomp`] (the filters), [`confine`] (Landlock rules and what a bot
//!    may read), [`cgroup`] (a process's control groups), [`cputime`] (CPU
//!    clocks of a process tree), [`reaper`] (dojo as a subreaper, the
//!    sweep, `kill_all_bots`) and above it [`fork_fence`]; `socket`
//!    (messages with descriptors to an init or a box maker).
//! 3. Where a bot writes and sees: [`run_dir`] (the run directory, scratch
//!    directories, leftovers of a killed dojo) and [`root`] (a minimal root,
//!    decided before the fork).
//! 4. [`plan`](mod@plan): which layers this machine has (the probe behind `dojo
//!    doctor`) and what a process gets of them (`SandboxMode`, `Limits`,
//!    [`plan::plan`]).
//! 5. [`spawn`]: one process contained on its own, and its guard;
//!    [`build_box`]: what a confined build gets.
//! 6. [`box_maker`]: who forks a box (on [`spawn`]);
//!    [`bot_box`]: a seat's reusable box, on [`lifecycle`] (no other
//!    module of the crate below it): the decisions over a box's life
//!    (keep it, take an idle one, make one, replace one that refused a
//!    start, which idle boxes to keep), unit-tested with a fake box.
//! 7. [`tenant`]: a started program as its owner holds it, from a box or
//!    not; [`capacity`]: how many games fit at once, boxes and seat users
//!    included.

pub mod bot_box;
pub mod box_maker;
pub mod build_box;
pub mod capacity;
pub mod cgroup;
pub mod confine;
mod cpu_share;
pub mod cputime;
pub mod fork_fence;
pub mod lifecycle;
pub mod plan;
pub mod reaper;
pub mod root;
pub mod run_dir;
pub mod seat_users;
pub mod seccomp;
mod socket;
pub mod spawn;
pub mod sys;
pub mod tenant;

pub use bot_box::{BotBox, Occupant, Starting, boxes_made, drop_idle, give_back, take_idle};
pub use plan::{Limits, SandboxMode, plan};
pub use run_dir::{Scratch, remove_leftovers, scratch_dir};
pub use spawn::Launch;
pub use sys::{Containment, ExitKind};
pub use tenant::{Pipes, Tenant, spawn_contained};

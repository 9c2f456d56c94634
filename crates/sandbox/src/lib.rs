//! Containment of dojo's bot processes: what a bot (or a bot's build)
//! runs in, and nothing of what it plays. The model, layer by layer, is
//! in `docs/sandbox.md`.
//!
//! The crate knows processes, namespaces, control groups, users, limits
//! and files; it knows no game, no prompt or answer, and no bot manifest
//! (what it needs of one, a caller passes in). `dojo-runner` builds on it.

pub mod bot_box;
pub mod build_box;
pub mod capacity;
pub mod cgroup;
pub mod confine;
pub mod cputime;
pub mod fork_fence;
pub mod init;
pub mod plan;
pub mod reaper;
pub mod root;
pub mod seat_users;
pub mod seccomp;
pub mod spawn;
pub mod sys;

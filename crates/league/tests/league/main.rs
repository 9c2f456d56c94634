//! The league crate's integration tests: one test binary of one module per
//! area (each module's own doc says what it covers), sharing the synthetic
//! games of `common.rs`.
//!
//! One binary rather than one per file because each test binary links the
//! whole dependency graph, and the links were a large part of `cargo
//! test`'s time. No test here changes process-wide state; those that start
//! bot processes tell their own processes apart by their pid files.
//!
//! Run one area with `cargo test -p dojo-league --test league schedule::`.

mod cardjitsu_processes;
mod common;
mod late;
mod league;
mod mutated_inputs;
mod role_game;
mod royale_processes;
mod schedule;
mod team_game;

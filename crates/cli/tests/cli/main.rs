//! The `dojo` command's tests, through the real binary: one test binary of
//! one module per area (each module's own doc says what it covers).
//!
//! One binary rather than one per file: every test binary links the whole
//! dependency graph (headless Chromium's driver included), and linking
//! some thirty of them was a large part of `cargo test`'s time. Tests of
//! different modules now run side by side in the same process, which is
//! safe because none of them changes process-wide state (environment,
//! current directory, limits, signal handlers): each runs `dojo` and its
//! bots as child processes.
//!
//! The exception is `installed.rs`, a binary of its own: it copies the
//! `dojo` binary and executes the copy, which fails ("Text file busy")
//! when a process forked by another test thread still holds the copy's
//! write descriptor.
//!
//! Run one area with `cargo test -p dojo-cli --test cli edges::`.

mod bad_input;
mod bot_values;
#[cfg(feature = "browser-tests")]
mod browser;
mod builds;
mod check;
mod compare;
mod distributed;
mod edges;
mod errors;
mod fresh_boxes;
mod game_options;
mod gauntlet_sprt;
mod html;
mod junit;
mod late;
mod league;
mod league_bots;
mod league_settings;
mod match_cardjitsu;
mod match_royale;
mod new_bot;
mod options;
mod output_flags;
mod play;
mod replay;
mod replay_bots;
mod rules;
mod sandbox;
mod scale;
mod slurm;
mod small_things;
mod start_failures;
mod submissions;
mod terminal_text;

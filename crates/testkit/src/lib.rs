//! What dojo's integration tests share, so no suite carries its own copy:
//! where the workspace and its bots are ([`paths`]), runnable test bots
//! ([`bots`]), processes seen through `/proc` ([`procs`]), one test run
//! again in a child process ([`child`]), a small referee
//! for runner tests ([`referee`]), the `dojo` binary ([`cli`]) and the
//! JSON a league writes ([`json`]), a toy 4-seat partnership game
//! defined only for tests ([`partners`]) and one whose seats have roles
//! ([`compass`]), and a folder of submissions with
//! an entry of every kind ([`submissions`]).
//!
//! A dev-dependency only (`publish = false`): helpers panic on what a test
//! should not meet, with a message saying what was expected.

pub mod bots;
pub mod child;
pub mod cli;
pub mod docs;
pub mod json;
pub mod toy;
pub use toy::{compass, partners};
pub mod paths;
pub mod procs;
pub mod referee;
pub mod submissions;

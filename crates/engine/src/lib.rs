//! Game rules for dojo, free of processes, files, clocks and threads.
//!
//! Every game is deterministic given its seed, so a game record can be
//! replayed exactly. The [`protocol`] module is the one interface between
//! a game and whatever drives it (the `dojo-runner` crate, or a Rust bot
//! that links this crate and simulates games in-process).
//!
//! [`skat`] and [`tichu`] are rule books without a referee (yet): the
//! value of a Skat hand for bidding and whether a Tichu play may follow
//! the previous one.

pub mod cardjitsu;
pub mod protocol;
pub mod rng;
pub mod royale;
pub mod skat;
pub mod tichu;
pub mod verify;

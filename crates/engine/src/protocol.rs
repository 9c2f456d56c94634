//! The contract between a game's rules and the harness that talks to bots.
//!
//! A [`Referee`] knows the game and its wire format; the runner knows
//! processes and pipes. The runner asks the referee what to send, collects
//! reply lines until the referee says a reply is complete, and hands back
//! one [`Answer`] per prompt. Nothing here knows about time or processes:
//! a missed deadline or a crash reaches the referee only as a [`Fault`].

use serde::{Deserialize, Serialize};

/// Why a seat's answer could not be used; the referee substitutes the game's
/// default move (for example a random card) and records the fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// No complete answer before the deadline.
    Timeout,
    /// The process exited or closed its output without answering.
    Crash,
    /// The answer was malformed, out of range, or over the line-length cap.
    Invalid,
}

/// What the runner hands the referee for one prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer<M> {
    Move(M),
    Fault(Fault),
}

/// The referee's reading of the reply lines received so far for one prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply<M> {
    /// Well-formed so far, but more lines are needed (royale's `M` then `U`).
    Incomplete,
    /// A complete, legal answer.
    Complete(M),
    /// Unusable; the string says why, for the bot author.
    Invalid(String),
}

/// Lines to send to one seat, expecting a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub seat: usize,
    pub lines: Vec<String>,
}

/// Lines to send to some seats, expecting no reply (a round result, say).
/// Only processes that are alive get them: a bot that exits after every
/// move starts again with its greeting (which tells it what it missed)
/// and the next prompt instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub seats: Vec<usize>,
    pub lines: Vec<String>,
}

/// A game as the runner drives it.
///
/// The runner's loop is: while `prompts()` is not empty, send every prompt
/// (all of them at once: they are simultaneous decisions), read each reply
/// through `parse_reply`, then pass the answers to `apply` in prompt order
/// and deliver the returned notices. At the end, `farewell()` goes to every
/// live process and their input is closed.
pub trait Referee {
    /// One decision of one seat.
    type Move;

    /// Number of seats (bot processes) in the game.
    fn seats(&self) -> usize;

    /// Lines a freshly started process of `seat` gets before its first
    /// prompt, at the game's start and on every restart: what a process
    /// alive since the start would know (CardJitsu: the player number,
    /// then the result line of every round played so far).
    fn greeting(&self, seat: usize) -> Vec<String>;

    /// The prompts for the next simultaneous decision; empty once the game
    /// is over.
    fn prompts(&self) -> Vec<Prompt>;

    /// Interprets the reply lines received so far for `seat`'s prompt.
    /// Lines have their line terminator (`\n` or `\r\n`) removed.
    fn parse_reply(&self, seat: usize, lines: &[String]) -> Reply<Self::Move>;

    /// Applies one answer per prompt of the last `prompts()`, in the same
    /// order, and returns what the seats are told about it.
    fn apply(&mut self, answers: Vec<Answer<Self::Move>>) -> Vec<Notice>;

    /// Lines every live process is sent when the game is over.
    fn farewell(&self) -> Vec<String>;
}

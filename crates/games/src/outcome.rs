//! What one played game gives the tournament above: per-seat scores and
//! fault counts, the record, or why there is none.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How often one seat's answers could not be used in one game: the
/// runner's fault counts, the same type in records, stored lines and
/// reports (the old name, kept because the league's files call it that).
pub type SeatFaults = dojo_runner::FaultCounts;

/// The outcome of one finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Per seat: 1 win, 0.5 draw, 0 loss.
    pub scores: Vec<f64>,
    /// Per seat.
    pub faults: Vec<SeatFaults>,
    /// The game record; opaque to the league.
    pub record: serde_json::Value,
    /// Timings; opaque, and not part of a game's identity (a replayed game
    /// may differ here only).
    pub timing: serde_json::Value,
}

/// Why a game produced no result.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecError {
    /// The cancel flag was seen; the game was abandoned.
    #[error("cancelled")]
    Cancelled,
    /// The game could not be played (for example a bot could not be
    /// started at all). Reported, not stored: a resume plays it again.
    #[error("{0}")]
    Failed(String),
}

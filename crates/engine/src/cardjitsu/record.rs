//! What a game leaves behind: every round as the bots saw it, and the result.
//!
//! Field order is part of the format: the same seed and the same choices
//! serialize to the same bytes.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::rules::Ruleset;
use crate::protocol::Fault;

/// One played round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// 1-based round number.
    pub round: u32,
    /// Whether Reverse was active in this round.
    pub reverse: bool,
    /// The hands as shown to the bots, by seat.
    pub hands: [Vec<Card>; 2],
    /// The hand index each seat actually played (after any fallback).
    pub choices: [usize; 2],
    /// The cards played, by seat.
    pub cards: [Card; 2],
    /// 0 for a stalemate, else the winning player number (1 or 2).
    pub winner: u8,
    /// Why a seat's card was picked at random instead, if it was.
    pub faults: [Option<Fault>; 2],
}

impl RoundRecord {
    /// The round-result line sent to both bots: `WoA vs. Fr6: 1 wins!`.
    pub fn result_line(&self) -> String {
        format!(
            "{} vs. {}: {} wins!",
            self.cards[0], self.cards[1], self.winner
        )
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeReason {
    /// A player completed a winning triple.
    Triple,
    /// Nobody won within the round cap: a draw.
    RoundCap,
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning player number (1 or 2); `None` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: OutcomeReason,
    /// Rounds played.
    pub rounds: u32,
    /// The winner's triple, in the order they were won.
    pub winning_cards: Option<[Card; 3]>,
}

impl Outcome {
    /// The farewell line: `Player 1 wins!` or `Draw!`.
    pub fn farewell_line(&self) -> String {
        match self.winner {
            Some(n) => format!("Player {n} wins!"),
            None => "Draw!".to_owned(),
        }
    }

    /// The score of `seat` (0 or 1): 1.0 for a win, 0.5 for a draw, 0.0
    /// for a loss.
    pub fn score(&self, seat: usize) -> f64 {
        match self.winner {
            None => 0.5,
            Some(n) if usize::from(n) == seat + 1 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// A whole game, enough to show or check it without replaying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub rules: Ruleset,
    pub seed: u64,
    pub max_rounds: u32,
    pub rounds: Vec<RoundRecord>,
    /// `None` while the game is running.
    pub outcome: Option<Outcome>,
}

//! The serialisable record of one game: enough to audit and replay it.

use serde::{Deserialize, Serialize};

use super::board::TileCounts;
use super::types::{Action, Pos, Team, Tile};
use crate::protocol::Fault;

/// Round limits after defaults are resolved against the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResolvedSettings {
    /// The game is a draw ([`EndReason::RoundCap`]) after this many rounds.
    pub max_rounds: u32,
    /// The game is a draw ([`EndReason::Stalled`]) after this many whole
    /// rounds in a row without any tile changing.
    pub stall_rounds: u32,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// An action left exactly one sign on the board.
    OneSignLeft,
    /// The board started with exactly one sign; no turn was played.
    AlreadyWon,
    /// The board has no sign at all; since instigation only spreads an
    /// existing sign, none can ever appear, so it is a draw before any turn.
    NoSigns,
    /// Draw: the round cap was reached.
    RoundCap,
    /// Draw: no tile changed for `stall_rounds` whole rounds.
    Stalled,
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning team, `None` for a draw.
    pub winner: Option<Team>,
    pub reason: EndReason,
    /// The round the game ended in (1-based); 0 if no turn was played.
    pub rounds: u32,
    /// Tile counts of the final board.
    pub counts: TileCounts,
}

impl Outcome {
    /// League score of a player of `team`: 1 for a win, 0 for a loss,
    /// 0.5 for a draw.
    pub fn score(&self, team: Team) -> f64 {
        match self.winner {
            Some(w) if w == team => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// Why an action was replaced by a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnFault {
    /// No answer in time (from the runner).
    Timeout,
    /// The bot died (from the runner).
    Crash,
    /// A malformed answer (from the runner).
    Invalid,
    /// A well-formed move or instigation off the board or into a wall.
    Illegal,
}

impl From<Fault> for TurnFault {
    fn from(f: Fault) -> TurnFault {
        match f {
            Fault::Timeout => TurnFault::Timeout,
            Fault::Crash => TurnFault::Crash,
            Fault::Invalid => TurnFault::Invalid,
        }
    }
}

/// What an action did to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// A pass, a fault, or an instigation between equal or unclaimed tiles.
    #[default]
    None,
    /// The player now stands at `at`.
    Moved { at: Pos },
    /// The tile at `at` changed from `from` to `to`.
    Converted { at: Pos, from: Tile, to: Tile },
}

impl Effect {
    /// Whether nothing happened.
    pub fn is_none(&self) -> bool {
        matches!(self, Effect::None)
    }
}

/// One turn. `action` is what the bot asked for (a pass for runner faults);
/// with a fault, the turn was played as a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionRecord {
    /// 1-based round.
    pub round: u32,
    pub seat: usize,
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<TurnFault>,
    #[serde(default, skip_serializing_if = "Effect::is_none")]
    pub effect: Effect,
}

/// One player (seat) of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub seat: usize,
    pub team: Team,
    pub start: Pos,
}

/// A whole game. `outcome` is `None` if the game was not finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The initial grid, one string per row.
    pub board: Vec<String>,
    #[serde(with = "crate::rng::seed_json")]
    pub seed: u64,
    pub settings: ResolvedSettings,
    pub players: Vec<PlayerRecord>,
    /// Seats in the order they play every round.
    pub turn_order: Vec<usize>,
    pub actions: Vec<ActionRecord>,
    pub outcome: Option<Outcome>,
}

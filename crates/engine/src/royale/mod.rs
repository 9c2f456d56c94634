//! Rock-paper-scissors royale (seed 004): three teams fill a grid with
//! their hand sign by moving and instigating fights between tiles.
//!
//! Rules as implemented:
//! - Board: `R`, `P`, `S`, `#` (impassable), `.` (unclaimed); `(x, y)` is
//!   (column, row), 0-based, `y` growing downwards. See [`Board`] for the
//!   file format (grid plus an optional `start` section).
//! - Each player starts on a tile of its own sign, or any passable tile if
//!   there is none (or where the board file fixes it); seats then play in a
//!   fixed random order every round. See `game` for the seeded draws.
//! - A turn is a pass, a move to an orthogonal passable neighbour, or an
//!   instigation against one: of the two tiles (own and target) the
//!   unclaimed one or the one beaten at rock-paper-scissors becomes the
//!   other ([`Tile::fight`]); the player's own tile may lose.
//! - A move or instigation off the board or into a wall is played as a
//!   pass and recorded as [`TurnFault::Illegal`]; bot faults are passes too.
//! - Win: after an action, exactly one sign left on the board. A board
//!   that starts with one sign is won before any turn
//!   ([`EndReason::AlreadyWon`]); one with no sign is a draw before any turn
//!   ([`EndReason::NoSigns`]), since no sign can ever appear.
//! - Draw: after `max_rounds` rounds, or `stall_rounds` whole rounds in a
//!   row without a tile changing (see [`Settings`]).

mod board;
mod game;
mod record;
mod types;
mod wire;

pub use board::{Board, BoardError, BoardProblem, FixedStart, TileCounts};
pub use game::{Royale, Settings, SetupError, StepError};
pub use record::{
    ActionRecord, Effect, EndReason, GameRecord, Outcome, PlayerRecord, ResolvedSettings, TurnFault,
};
pub use types::{Action, BadAction, BadTeam, BadTileChar, Dir, Pos, Team, Tile};
pub use wire::{parse_prompt, parse_reply_lines, prompt_lines};

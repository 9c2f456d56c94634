//! The registry: every decision that depends on which game is played, one
//! exhaustive `match` on [`Game`] each. A new game variant makes each of
//! these a compile error until it has its arm (the test at the bottom lists
//! them, so a reader sees the whole surface); the game's own code lives in
//! its module.

use std::sync::Arc;

use dojo_engine::royale::Board;
use dojo_runner::{BotSpec, RunOptions};
use serde_json::Value;

use crate::bots::{BotExecutor, Table};
use crate::cardjitsu::CardJitsuRecord;
use crate::game::Game;
use crate::outcome::{ExecError, GameResult};
use crate::record::SeatConduct;
use crate::replay::{Saved, check_cardjitsu, check_royale};
use crate::royale::RoyaleRecord;

/// How many seats one game has, and what labels them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Seats per game.
    pub seats: usize,
    /// Whether each seat plays for a team (royale's R, P, S: seat `i`
    /// plays the `i`-th).
    pub teams: bool,
    /// Whether games are played on a board file (royale), so leagues and
    /// comparisons rotate through boards.
    pub board: bool,
}

/// Seats per game, whether they have teams, whether there is a board.
pub fn shape(game: Game) -> Shape {
    match game {
        Game::Cardjitsu => Shape {
            seats: 2,
            teams: false,
            board: false,
        },
        Game::Royale => Shape {
            seats: 3,
            teams: true,
            board: true,
        },
    }
}

/// Plays one game with the executor's bots.
pub(crate) fn play(exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
    match table.game {
        Game::Cardjitsu => crate::cardjitsu::play_table(exec, table),
        Game::Royale => crate::royale::play_table(exec, table),
    }
}

/// The smoke start's game for `bot` (royale needs a board; without one
/// there is nothing to check): each seat's conduct and stderr.
#[allow(clippy::type_complexity)]
pub(crate) fn smoke_game(
    game: Game,
    bot: &Arc<BotSpec>,
    board: Option<&Board>,
    opts: &RunOptions,
) -> Result<Option<(Vec<SeatConduct>, Vec<Vec<String>>)>, String> {
    Ok(match (game, board) {
        (Game::Cardjitsu, _) => {
            let rec = crate::cardjitsu::smoke(bot, opts)?;
            Some((rec.conduct, rec.stderr))
        }
        (Game::Royale, None) => None,
        (Game::Royale, Some(board)) => {
            let rec = crate::royale::smoke(bot, board, opts)?;
            Some((rec.conduct, rec.stderr))
        }
    })
}

/// Parses a saved record of `game` (its `"game"` field) and checks it
/// against the rules; `Err` says what is wrong, in words.
pub(crate) fn parse_record(game: Game, value: Value) -> Result<Saved, RecordProblem> {
    match game {
        Game::Cardjitsu => {
            let rec: CardJitsuRecord =
                serde_json::from_value(value).map_err(|e| RecordProblem::Parse("CardJitsu", e))?;
            check_cardjitsu(&rec).map_err(RecordProblem::Corrupt)?;
            Ok(Saved::CardJitsu(Box::new(rec)))
        }
        Game::Royale => {
            let rec: RoyaleRecord =
                serde_json::from_value(value).map_err(|e| RecordProblem::Parse("royale", e))?;
            check_royale(&rec).map_err(RecordProblem::Corrupt)?;
            Ok(Saved::Royale(Box::new(rec)))
        }
    }
}

/// Why [`parse_record`] refused a record.
#[derive(Debug)]
pub(crate) enum RecordProblem {
    /// Not a record of this game (the game's name for messages).
    Parse(&'static str, serde_json::Error),
    /// Parses, but contradicts itself or the rules.
    Corrupt(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails to compile when a game is added without an arm here, and
    /// checks every game has a sensible shape. The other registry arms
    /// (`play`, `smoke_game`, `parse_record` in this file) are exhaustive
    /// matches without a wildcard too: the compiler refuses a missing arm,
    /// so `cargo test` cannot pass with a game left out of the registry.
    #[test]
    fn every_game_is_registered() {
        for game in Game::ALL {
            let expected = match game {
                Game::Cardjitsu => 2,
                Game::Royale => 3,
            };
            assert_eq!(shape(game).seats, expected, "{game}");
        }
    }
}

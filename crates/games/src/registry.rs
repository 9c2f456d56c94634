//! The registry: every decision that depends on which game is played, one
//! exhaustive `match` on [`Game`] each. A new game variant makes each of
//! these a compile error until it has its arm (the test at the bottom lists
//! them, so a reader sees the whole surface); the game's own code lives in
//! its module.

use crate::bots::{BotExecutor, Table};
use crate::game::Game;
use crate::outcome::{ExecError, GameResult};

/// How many seats one game has, and what labels them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Seats per game.
    pub seats: usize,
    /// Whether each seat plays for a team (royale's R, P, S).
    pub teams: bool,
}

/// Seats per game and whether they have teams.
pub fn shape(game: Game) -> Shape {
    match game {
        Game::Cardjitsu => Shape {
            seats: 2,
            teams: false,
        },
        Game::Royale => Shape {
            seats: 3,
            teams: true,
        },
    }
}

/// Plays one game with the executor's bots.
pub(crate) fn play(exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
    match table.game {
        Game::Cardjitsu => exec.cardjitsu(table),
        Game::Royale => exec.royale(table),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails to compile when a game is added without an arm here, and
    /// checks every game has a sensible shape. The other registry arms
    /// (`play`, `crate::smoke::smoke_start`, `crate::replay::parse`) are
    /// exhaustive matches too: the compiler refuses a missing arm.
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

//! The registry: every decision that depends on which game is played, one
//! exhaustive `match` on [`Game`] each. A new game variant makes each of
//! these a compile error until it has its arm (the test at the bottom lists
//! them, so a reader sees the whole surface); the game's own code lives in
//! its module.

use std::ops::Deref;
use std::sync::Arc;

use dojo_engine::royale::Board;
use dojo_runner::{BotSpec, RunOptions};
use serde::Serialize;

use crate::bots::{BotExecutor, Table};
use crate::cardjitsu::CardJitsuRecord;
use crate::cardjitsu::view::CardJitsuView;
use crate::game::Game;
use crate::outcome::{ExecError, GameResult};
use crate::parse::RecordInput;
use crate::record::SeatConduct;
use crate::replay::{Difference, ReplayError, SavedGame};
use crate::royale::RoyaleRecord;
use crate::royale::view::RoyaleView;

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

/// A saved game: one variant per game, holding the game's typed record.
/// What replay does with it is the record's [`SavedGame`] impl (in the
/// game's module), reached through `Deref`.
#[derive(Debug)]
pub enum Saved {
    CardJitsu(Box<CardJitsuRecord>),
    Royale(Box<RoyaleRecord>),
}

impl Deref for Saved {
    type Target = dyn SavedGame;

    fn deref(&self) -> &(dyn SavedGame + 'static) {
        match self {
            Saved::CardJitsu(rec) => rec.as_ref(),
            Saved::Royale(rec) => rec.as_ref(),
        }
    }
}

impl Saved {
    /// Which game it is.
    pub fn game(&self) -> Game {
        match self {
            Saved::CardJitsu(_) => Game::Cardjitsu,
            Saved::Royale(_) => Game::Royale,
        }
    }

    /// How `rerun` (this game played again) differs from it; `None` when
    /// it is the same game (timing and stderr aside).
    pub fn compare(&self, rerun: &Saved) -> Result<Option<Difference>, ReplayError> {
        let other = || ReplayError::OtherGame {
            saved: self.game(),
            rerun: rerun.game(),
        };
        // Exhaustive on the saved game (a new game needs its arm); only the
        // rerun's mismatch is a wildcard.
        match self {
            Saved::CardJitsu(a) => match rerun {
                Saved::CardJitsu(b) => crate::cardjitsu::replay::compare(a, b),
                _ => Err(other()),
            },
            Saved::Royale(a) => match rerun {
                Saved::Royale(b) => crate::royale::replay::compare(a, b),
                _ => Err(other()),
            },
        }
    }
}

/// What a replay page shows: the record and what its game's view derives
/// from it. Serialised as the game's view itself.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ReplayView<'a> {
    CardJitsu(CardJitsuView<'a>),
    Royale(RoyaleView<'a>),
}

/// Reads a saved record of `game` (its `"game"` field) from `input` into
/// the game's typed record. (Checking it is [`SavedGame::check`].)
pub(crate) fn parse_record(game: Game, input: &impl RecordInput) -> Result<Saved, NotARecord> {
    let not = |kind| move |source| NotARecord { kind, source };
    Ok(match game {
        Game::Cardjitsu => Saved::CardJitsu(input.typed().map_err(not("CardJitsu"))?),
        Game::Royale => Saved::Royale(input.typed().map_err(not("royale"))?),
    })
}

/// Why [`parse_record`] refused a record: not a record of the game named
/// `kind` (as messages name it).
#[derive(Debug)]
pub(crate) struct NotARecord {
    pub kind: &'static str,
    pub source: serde_json::Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails to compile when a game is added without an arm here, and
    /// checks every game has a sensible shape. The other registry arms
    /// (`play`, `smoke_game`, `Saved`, `parse_record` in this file) are exhaustive
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

    #[test]
    fn a_saved_game_is_its_games_and_compares_only_with_its_own() {
        let cj = Saved::CardJitsu(Box::new(crate::cardjitsu::replay::tests::record(3)));
        let (royale, _) = crate::royale::replay::tests::record();
        let royale = Saved::Royale(Box::new(royale));
        assert_eq!(cj.game(), Game::Cardjitsu);
        assert_eq!(royale.game(), Game::Royale);
        assert_eq!(cj.seats().len(), 2);
        assert_eq!(royale.seats().len(), 3);
        assert!(cj.check().is_ok() && royale.check().is_ok());
        assert_eq!(cj.compare(&cj).unwrap(), None);
        assert!(matches!(
            cj.compare(&royale),
            Err(ReplayError::OtherGame {
                saved: Game::Cardjitsu,
                rerun: Game::Royale
            })
        ));
    }
}

//! What plays one game for a league or comparison: the [`Executor`] trait
//! (tests implement it with synthetic games) and its real implementation,
//! [`BotExecutor`] (bots and boards resolved once) playing each fixture's
//! game through the games registry.

use std::sync::atomic::{AtomicBool, Ordering};

pub use dojo_games::BotExecutor;
use dojo_games::Table;
pub use dojo_games::{ExecError, GameResult, SeatFaults};

use crate::schedule::Fixture;

/// Plays one fixture. Called from several threads at once.
pub trait Executor: Sync {
    /// Plays `fixture` to the end, or returns [`ExecError::Cancelled`]
    /// soon after `cancel` becomes true.
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError>;

    /// The bot containment games get, recorded in `league.json` and
    /// `report.json`; `None` for executors that run no processes.
    fn containment(&self) -> Option<dojo_runner::InForce> {
        None
    }
}

/// Checks a result has one score and one fault record per seat and
/// scores a game of the fixture's game can have (one side winning or a
/// draw: `Shape::check_scores`); the league relies on that shape.
pub(crate) fn check_result(fixture: &Fixture, result: &GameResult) -> Result<(), String> {
    let seats = fixture.seats.len();
    if result.scores.len() != seats || result.faults.len() != seats {
        return Err(format!(
            "executor returned {} scores and {} fault records for a {seats}-seat game",
            result.scores.len(),
            result.faults.len()
        ));
    }
    fixture
        .game
        .shape()
        .check_scores(&result.scores)
        .map_err(|problem| format!("executor returned {problem}"))
}

impl Executor for BotExecutor {
    fn containment(&self) -> Option<dojo_runner::InForce> {
        BotExecutor::containment(self)
    }

    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        // Once a game runs, the runner watches `self.run.cancel` (give it the
        // league's flag) and stops within a fraction of a second.
        if cancel.load(Ordering::SeqCst) {
            return Err(ExecError::Cancelled);
        }
        BotExecutor::play(
            self,
            &Table {
                id: fixture.id,
                game: fixture.game,
                seats: &fixture.seats,
                roles: &fixture.teams,
                board: fixture.board.as_deref(),
                seed: fixture.seed,
            },
        )
    }
}

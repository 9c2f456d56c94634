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

/// Checks a result has one score and one fault record per seat and only
/// the scores 0, 0.5 and 1; the league relies on that shape.
pub(crate) fn check_result(fixture: &Fixture, result: &GameResult) -> Result<(), String> {
    let seats = fixture.seats.len();
    if result.scores.len() != seats || result.faults.len() != seats {
        return Err(format!(
            "executor returned {} scores and {} fault records for a {seats}-seat game",
            result.scores.len(),
            result.faults.len()
        ));
    }
    if let Some(s) = result.scores.iter().find(|s| ![0.0, 0.5, 1.0].contains(*s)) {
        return Err(format!("executor returned score {s}; expected 0, 0.5 or 1"));
    }
    Ok(())
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
                teams: &fixture.teams,
                board: fixture.board.as_deref(),
                seed: fixture.seed,
            },
        )
    }
}

//! The real [`Executor`]: [`dojo_games::BotExecutor`] (bots and boards
//! resolved once) playing each fixture through the games registry.

use std::sync::atomic::{AtomicBool, Ordering};

use dojo_engine::royale::Team;
pub use dojo_games::BotExecutor;
use dojo_games::Table;

use crate::executor::{ExecError, Executor, GameResult};
use crate::schedule::Fixture;

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
        let teams = fixture
            .teams
            .iter()
            .map(|t| {
                t.parse::<Team>()
                    .map_err(|_| ExecError::Failed(format!("bad team `{t}`")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        BotExecutor::play(
            self,
            &Table {
                id: fixture.id,
                game: fixture.game,
                seats: &fixture.seats,
                teams: &teams,
                board: fixture.board.as_deref(),
                seed: fixture.seed,
            },
        )
    }
}

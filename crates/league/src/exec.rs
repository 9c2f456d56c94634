//! The real [`Executor`]: plays a fixture with bot processes through the
//! runner, using the same setup and record as `dojo match`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use dojo_engine::cardjitsu;
use dojo_engine::royale::{self, Board, Team};
use dojo_runner::{BotSpec, FaultCounts, RunError, RunOptions};
use serde::Serialize;

use crate::executor::{ExecError, Executor, GameResult, SeatFaults};
use crate::game::{
    CardJitsuSetup, RoyaleError, RoyaleSetup, SeatConduct, play_cardjitsu, play_royale,
};
use crate::schedule::Fixture;

/// Bots and boards resolved once, shared by every game of a league.
#[derive(Debug)]
pub struct BotExecutor {
    /// By the name the schedule uses.
    pub bots: BTreeMap<String, Arc<BotSpec>>,
    /// By the name the schedule uses (the board's path as given).
    pub boards: BTreeMap<String, Board>,
    /// Per-move limits; `cancel` is the league's stop flag.
    pub run: RunOptions,
    pub cardjitsu: cardjitsu::Settings,
    /// The names of `cardjitsu`'s decks, for the records.
    pub deck_names: [String; 2],
    pub royale: royale::Settings,
}

fn faults(conduct: &[SeatConduct]) -> Vec<SeatFaults> {
    conduct
        .iter()
        .map(|c| {
            let FaultCounts {
                timeout,
                crash,
                invalid,
                restart,
                // Shown in each game's record; not yet in the league's totals.
                limit: _,
            } = c.faults;
            SeatFaults {
                timeout: timeout.into(),
                crash: crash.into(),
                invalid: invalid.into(),
                restart: restart.into(),
            }
        })
        .collect()
}

/// The league's view of a played game: its record with `timing` split off
/// (the one part that may differ between two plays of the same game).
fn game_result(
    scores: Vec<f64>,
    conduct: &[SeatConduct],
    record: &impl Serialize,
) -> Result<GameResult, ExecError> {
    let mut record =
        serde_json::to_value(record).map_err(|e| ExecError::Failed(format!("record: {e}")))?;
    let timing = record
        .as_object_mut()
        .and_then(|o| o.remove("timing"))
        .unwrap_or_default();
    Ok(GameResult {
        scores,
        faults: faults(conduct),
        record,
        timing,
    })
}

fn run_error(err: RunError) -> ExecError {
    match err {
        RunError::Cancelled => ExecError::Cancelled,
        other => ExecError::Failed(other.to_string()),
    }
}

impl BotExecutor {
    fn bot(&self, name: &str) -> Result<Arc<BotSpec>, ExecError> {
        self.bots
            .get(name)
            .cloned()
            .ok_or_else(|| ExecError::Failed(format!("unknown bot `{name}`")))
    }

    fn cardjitsu(&self, fixture: &Fixture) -> Result<GameResult, ExecError> {
        let [a, b] = fixture.seats.as_slice() else {
            return Err(ExecError::Failed(format!(
                "a CardJitsu game needs 2 seats, fixture {} has {}",
                fixture.id,
                fixture.seats.len()
            )));
        };
        let setup = CardJitsuSetup {
            seed: fixture.seed,
            settings: self.cardjitsu.clone(),
            deck_names: self.deck_names.clone(),
        };
        let record = play_cardjitsu([self.bot(a)?, self.bot(b)?], &setup, &self.run, &mut |_| {})
            .map_err(run_error)?;
        game_result(record.scores(), &record.conduct, &record)
    }

    fn royale(&self, fixture: &Fixture) -> Result<GameResult, ExecError> {
        let board_name = fixture
            .board
            .as_deref()
            .ok_or_else(|| ExecError::Failed(format!("fixture {} has no board", fixture.id)))?;
        let board = self
            .boards
            .get(board_name)
            .ok_or_else(|| ExecError::Failed(format!("unknown board `{board_name}`")))?;
        let mut players = Vec::with_capacity(fixture.seats.len());
        for (name, team) in fixture.seats.iter().zip(&fixture.teams) {
            let team: Team = team
                .parse()
                .map_err(|_| ExecError::Failed(format!("bad team `{team}`")))?;
            players.push((self.bot(name)?, team));
        }
        let setup = RoyaleSetup {
            seed: fixture.seed,
            board: board.clone(),
            board_file: board_name.to_owned(),
            settings: self.royale,
        };
        let record =
            play_royale(&players, &setup, &self.run, &mut |_| {}).map_err(|e| match e {
                RoyaleError::Run(e) => run_error(e),
                RoyaleError::Setup(e) => ExecError::Failed(e.to_string()),
            })?;
        game_result(record.scores(), &record.conduct, &record)
    }
}

impl Executor for BotExecutor {
    fn containment(&self) -> Option<dojo_runner::InForce> {
        dojo_runner::in_force(self.run.sandbox).ok()
    }

    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        // Once a game runs, the runner watches `self.run.cancel` (give it the
        // league's flag) and stops within a fraction of a second.
        if cancel.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ExecError::Cancelled);
        }
        if fixture.teams.is_empty() {
            self.cardjitsu(fixture)
        } else {
            self.royale(fixture)
        }
    }
}

//! Bots and boards resolved once for many games (a league's, a
//! comparison's), and one game played by them through the runner, with the
//! same setup and record as `dojo match`. The league's `Executor` is a thin
//! adapter over [`BotExecutor::play`].

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use dojo_runner::{BotSpec, RunError, RunOptions};
use serde::Serialize;

use crate::game::Game;
use crate::outcome::{ExecError, FaultPolicy, GameResult, SeatFaults};
use crate::record::SeatConduct;
use crate::role::Role;

/// Bots and boards resolved once, shared by every game of a league.
#[derive(Debug)]
pub struct BotExecutor {
    /// By the name the schedule uses.
    pub bots: BTreeMap<String, Arc<BotSpec>>,
    /// The board files' text, by the name the schedule uses (the board's
    /// path as given): read and checked once by the command line, parsed
    /// by the game that plays on boards (royale), opaque here.
    pub boards: BTreeMap<String, String>,
    /// Per-move limits; `cancel` is the league's stop flag.
    pub run: RunOptions,
    /// The game's own options (rules, decks, round limits), resolved once
    /// by the game's side of the command line and read back by its
    /// `GameDef::play`; [`GameOptions::default`] plays with the game's
    /// defaults.
    pub options: GameOptions,
    /// What a fault costs.
    pub faults: FaultPolicy,
}

/// One game's resolved options, opaque to everything but that game: each
/// game defines its own type (`CardJitsuOptions`, royale's `Settings`)
/// and reads it back with [`GameOptions::or_default`]. Shared, not copied,
/// by every game of a league.
#[derive(Clone, Default)]
pub struct GameOptions(Option<Arc<dyn Any + Send + Sync>>);

impl GameOptions {
    /// `options`, for the game whose options type `T` is.
    pub fn new<T: Any + Send + Sync>(options: T) -> GameOptions {
        GameOptions(Some(Arc::new(options)))
    }

    /// The options as the game's type `T`; `T::default()` if none were
    /// given. Options of another type (another game's) are an error, not
    /// silently replaced by defaults.
    pub fn or_default<T: Any + Default + Clone>(&self) -> Result<T, ExecError> {
        match &self.0 {
            None => Ok(T::default()),
            Some(any) => any.downcast_ref::<T>().cloned().ok_or_else(|| {
                ExecError::Failed(format!(
                    "the executor holds another game's options, not {}",
                    std::any::type_name::<T>()
                ))
            }),
        }
    }
}

impl std::fmt::Debug for GameOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            None => "GameOptions(default)",
            Some(_) => "GameOptions(..)",
        })
    }
}

fn faults(conduct: &[SeatConduct]) -> Vec<SeatFaults> {
    conduct.iter().map(|c| c.faults).collect()
}

/// The league's view of a played game: the board's `scores` (the fault
/// policy is applied above, by [`BotExecutor::play`]), each seat's prompts
/// (`latencies` holds its answered or timed-out ones; a crash has none, so
/// its prompts are those plus its crashes), and its record with `timing`
/// split off (the one part that may differ between two plays of the same
/// game).
pub(crate) fn game_result(
    scores: Vec<f64>,
    conduct: &[SeatConduct],
    latencies: &[Vec<u64>],
    first_faults: Vec<Option<crate::record::FirstFault>>,
    record: &impl Serialize,
) -> Result<GameResult, ExecError> {
    let prompts = conduct
        .iter()
        .enumerate()
        .map(|(seat, c)| {
            let answered = latencies.get(seat).map_or(0, Vec::len) as u64;
            answered.saturating_add(c.faults.crash)
        })
        .collect();
    let mut record =
        serde_json::to_value(record).map_err(|e| ExecError::Failed(format!("record: {e}")))?;
    let timing = record
        .as_object_mut()
        .and_then(|o| o.remove("timing"))
        .unwrap_or_default();
    Ok(GameResult {
        scores,
        faulty: Vec::new(),
        prompts,
        faults: faults(conduct),
        first_faults: if first_faults.iter().all(Option::is_none) {
            Vec::new()
        } else {
            first_faults
        },
        record,
        timing,
    })
}

pub(crate) fn run_error(err: RunError) -> ExecError {
    match err {
        RunError::Cancelled => ExecError::Cancelled,
        other => ExecError::Failed(other.to_string()),
    }
}

impl BotExecutor {
    pub(crate) fn bot(&self, name: &str) -> Result<Arc<BotSpec>, ExecError> {
        self.bots
            .get(name)
            .cloned()
            .ok_or_else(|| ExecError::Failed(format!("unknown bot `{name}`")))
    }
}

impl BotExecutor {
    /// The containment bot processes get here, if the machine allows the
    /// configured layers.
    pub fn containment(&self) -> Option<dojo_runner::InForce> {
        self.run.controls.containment().ok()
    }

    /// Plays `table` to the end. Once the game runs, the runner watches
    /// `self.run.cancel` and stops within a fraction of a second.
    /// The board's result is put under the executor's fault policy here,
    /// for every game ([`GameResult::judge`]).
    pub fn play(&self, table: &Table<'_>) -> Result<GameResult, ExecError> {
        let mut result = table.game.play(self, table)?;
        result.judge(&self.faults, &table.game.shape());
        Ok(result)
    }
}

/// One game to play: which game, who sits where, on what, with what seed.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    /// The game's id (for messages).
    pub id: u64,
    pub game: Game,
    /// Bot names by seat, as [`BotExecutor::bots`] knows them.
    pub seats: &'a [String],
    /// Each seat's role (see [`crate::Shape::roles`]); empty for games
    /// without roles.
    pub roles: &'a [Role],
    /// Royale: the board's name in [`BotExecutor::boards`].
    pub board: Option<&'a str>,
    pub seed: u64,
}

#[cfg(test)]
mod options_tests {
    use super::GameOptions;
    use dojo_engine::royale;

    #[test]
    fn a_game_reads_its_own_options_defaults_and_refuses_another_games() {
        let given = royale::Settings {
            max_rounds: Some(7),
            stall_rounds: None,
        };
        let opts = GameOptions::new(given);
        assert_eq!(opts.or_default::<royale::Settings>().unwrap(), given);
        let none = GameOptions::default();
        assert_eq!(
            none.or_default::<royale::Settings>().unwrap(),
            royale::Settings::default()
        );
        assert!(opts.or_default::<crate::CardJitsuOptions>().is_err());
    }
}

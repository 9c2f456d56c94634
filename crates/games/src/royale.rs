//! Royale: its setup, one game played by bot processes, its record.

use std::sync::Arc;
use std::time::Instant;

use dojo_engine::royale::{self, Board, Royale, Team};
use dojo_runner::{BotSpec, RunError, RunOptions, Seat};
use serde::{Deserialize, Serialize};

use crate::record::{
    RECORD_VERSION, SeatConduct, SeatInfo, Timing, conduct_and_timing, seat_env, seat_info,
};

/// A played royale game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoyaleRecord {
    pub version: u32,
    /// Always `"royale"`.
    pub game: String,
    pub seats: Vec<SeatInfo>,
    /// The board file the game was played on.
    pub board_file: String,
    #[serde(flatten)]
    pub play: royale::GameRecord,
    pub conduct: Vec<SeatConduct>,
    /// Per seat, per prompt: what the bot wrote to stderr (see
    /// `dojo_runner::SeatRun::stderr_by_prompt`). Only kept on request
    /// (`dojo match --keep-stderr`), and omitted when no seat wrote
    /// anything, so records without it are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Vec<String>>,
    pub timing: Timing,
}

impl RoyaleRecord {
    /// Per seat: 1 if its team won, 0.5 for a draw, 0 otherwise.
    pub fn scores(&self) -> Vec<f64> {
        self.play
            .players
            .iter()
            .map(|p| self.play.outcome.as_ref().map_or(0.5, |o| o.score(p.team)))
            .collect()
    }
}

/// Everything that fixes a royale game apart from the bots.
#[derive(Debug, Clone)]
pub struct RoyaleSetup {
    pub seed: u64,
    pub board: Board,
    pub board_file: String,
    pub settings: royale::Settings,
}

/// A royale game could not be set up (no players, a zero limit).
#[derive(Debug, thiserror::Error)]
pub enum RoyaleError {
    #[error(transparent)]
    Setup(#[from] royale::SetupError),
    #[error(transparent)]
    Run(#[from] RunError),
}

/// Plays one royale game with one seat per `(bot, team)`; `observer` sees
/// the game after every turn.
pub fn play_royale(
    players: &[(Arc<BotSpec>, Team)],
    setup: &RoyaleSetup,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&Royale),
) -> Result<RoyaleRecord, RoyaleError> {
    let started = Instant::now();
    let teams = players.iter().map(|(_, t)| *t).collect();
    let mut game = Royale::new(setup.board.clone(), teams, setup.seed, setup.settings)?;
    let seats: Vec<Seat> = players
        .iter()
        .enumerate()
        .map(|(i, (bot, team))| {
            let mut env = seat_env("royale", setup.seed, i);
            env.push(("DOJO_TEAM".into(), team.to_string()));
            Seat {
                bot: Arc::clone(bot),
                env,
            }
        })
        .collect();
    let run = dojo_runner::play_with_observer(&mut game, &seats, opts, observer)?;
    let (conduct, stderr, timing) = conduct_and_timing(run, started);
    Ok(RoyaleRecord {
        version: RECORD_VERSION,
        game: "royale".into(),
        seats: players
            .iter()
            .enumerate()
            .map(|(i, (b, t))| seat_info(i, b, Some(*t)))
            .collect(),
        board_file: setup.board_file.clone(),
        play: game.record(),
        conduct,
        stderr,
        timing,
    })
}

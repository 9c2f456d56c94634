//! Royale: its setup, one game played by bot processes, its record.
//!
//! A saved game again (checking, rerun, first difference) is [`replay`];
//! what its replay page shows, [`view`], with the board rebuilt turn
//! by turn ([`rebuild`]).

pub mod rebuild;
pub mod replay;
pub mod view;

use std::sync::Arc;
use std::time::Instant;

use dojo_engine::royale::{self, Board, Royale, Team};
use dojo_runner::{BotSpec, RunError, RunOptions, Seat};
use serde::{Deserialize, Serialize};

use crate::bots::{BotExecutor, Table, game_result, run_error};
use crate::formats::RECORD_VERSION;
use crate::game::{GameDef, Shape, SmokeRun};
use crate::outcome::{ExecError, GameResult};
use crate::parse::{RecordInput, RecordText};
use crate::record::{
    PlacedFault, SeatConduct, SeatInfo, Timing, conduct_and_timing, seat_env, seat_info,
};
use crate::registry::{NotARecord, Saved};
use crate::role::{Role, fixed_role};

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
    /// Optional on reading (absent or `null`: none recorded): timings are
    /// the part of a game that is not deterministic.
    #[serde(default, deserialize_with = "crate::record::optional_timing")]
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

    /// The faults of seat `seat` its actions record, in order (an action
    /// of the seat's is an answer to its prompt: its place among them is
    /// the prompt's). Illegal moves are the rules' business, not a fault
    /// of the bot's process, and are left out.
    pub fn seat_faults(&self, seat: usize) -> impl Iterator<Item = PlacedFault> + '_ {
        use dojo_engine::protocol::Fault;
        use dojo_engine::royale::TurnFault;
        (self.play.actions.iter())
            .filter(move |a| a.seat == seat)
            .enumerate()
            .filter_map(|(prompt, a)| {
                let fault = match a.fault? {
                    TurnFault::Timeout => Fault::Timeout,
                    TurnFault::Crash => Fault::Crash,
                    TurnFault::Invalid => Fault::Invalid,
                    TurnFault::Illegal => return None,
                };
                Some(PlacedFault {
                    round: a.round,
                    prompt,
                    fault,
                })
            })
    }

    /// Per seat: its first fault with its stderr's tail
    /// ([`crate::record::FirstFault`]), `None` for a seat without faults.
    pub fn first_faults(&self) -> Vec<Option<crate::record::FirstFault>> {
        crate::cardjitsu::first_faults(&self.conduct, &self.stderr, |seat| self.seat_faults(seat))
    }
}

/// The role of a seat on `team`: its letter, as records and leagues store
/// it.
pub fn role(team: Team) -> Role {
    Role::new(team.to_string())
}

/// The team a seat of role `role` plays for.
pub fn team(role: &Role) -> Result<Team, royale::BadTeam> {
    role.as_str().parse()
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
            .map(|(i, (b, t))| seat_info(i, b, Some(role(*t))))
            .collect(),
        board_file: setup.board_file.clone(),
        play: game.record(),
        conduct,
        stderr,
        timing,
    })
}

/// Royale's [`GameDef`]: three seats, each its own side and team
/// (R, P, S), on a board.
#[derive(Debug, Clone, Copy)]
pub struct RoyaleGame;

impl GameDef for RoyaleGame {
    fn name(&self) -> &'static str {
        "royale"
    }

    fn title(&self) -> &'static str {
        "Royale"
    }

    fn shape(&self) -> Shape {
        Shape {
            sides: &[0, 1, 2],
            roles: &["R", "P", "S"],
            board: true,
        }
    }

    fn extra_seat_bot(&self) -> Option<&'static str> {
        Some("royale-random-py")
    }

    fn play(&self, exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
        play_table(exec, table)
    }

    fn smoke(
        &self,
        bot: &Arc<BotSpec>,
        board: Option<&str>,
        opts: &RunOptions,
    ) -> Result<Option<SmokeRun>, String> {
        // Without a board there is no royale game to check.
        let Some(text) = board else {
            return Ok(None);
        };
        let board = Board::parse(text, "the smoke start's board").map_err(|e| e.to_string())?;
        let rec = smoke(bot, &board, opts)?;
        Ok(Some((rec.conduct, rec.stderr)))
    }

    fn parse_record(&self, input: &RecordText<'_>) -> Result<Saved, NotARecord> {
        let rec: Box<RoyaleRecord> = input.typed().map_err(|source| NotARecord {
            kind: "royale",
            source,
        })?;
        Ok(Saved::new(rec))
    }
}

/// Plays `table` with `exec`'s bots: its `GameDef::play`.
pub(crate) fn play_table(exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
    let board_name = table
        .board
        .ok_or_else(|| ExecError::Failed(format!("game {} has no board", table.id)))?;
    let text = exec
        .boards
        .get(board_name)
        .ok_or_else(|| ExecError::Failed(format!("unknown board `{board_name}`")))?;
    // Checked when the command line read it; parsed again per game, which
    // costs little beside the game and keeps the executor's boards
    // game-neutral text.
    let board = Board::parse(text, board_name).map_err(|e| ExecError::Failed(e.to_string()))?;
    if table.roles.len() != table.seats.len() {
        return Err(ExecError::Failed(format!(
            "royale game {} has {} seats but {} teams",
            table.id,
            table.seats.len(),
            table.roles.len()
        )));
    }
    let mut players = Vec::with_capacity(table.seats.len());
    for (name, role) in table.seats.iter().zip(table.roles) {
        let team =
            team(role).map_err(|e| ExecError::Failed(format!("royale game {}: {e}", table.id)))?;
        players.push((exec.bot(name)?, team));
    }
    let setup = RoyaleSetup {
        seed: table.seed,
        board,
        board_file: board_name.to_owned(),
        settings: exec.options.or_default::<royale::Settings>()?,
    };
    let record = play_royale(&players, &setup, &exec.run, &mut |_| {}).map_err(|e| match e {
        RoyaleError::Run(e) => run_error(e),
        RoyaleError::Setup(e) => ExecError::Failed(e.to_string()),
    })?;
    game_result(
        record.scores(),
        &record.conduct,
        &record.timing.latency_us,
        record.first_faults(),
        &record,
    )
}

/// The smoke start's game: `bot` in all three seats (its own team first,
/// if it insists on one) for one round on `board`.
pub(crate) fn smoke(
    bot: &Arc<BotSpec>,
    board: &Board,
    opts: &RunOptions,
) -> Result<RoyaleRecord, String> {
    let own = fixed_role(bot, RoyaleGame.shape())
        .map_err(|e| e.to_string())?
        .map_or(Ok(Team::Rock), |r| team(&r))
        .map_err(|e| e.to_string())?;
    let teams = [own].into_iter().chain(
        [Team::Rock, Team::Paper, Team::Scissors]
            .into_iter()
            .filter(|&t| t != own),
    );
    let players: Vec<_> = teams.map(|t| (Arc::clone(bot), t)).collect();
    let setup = RoyaleSetup {
        seed: 1,
        board: board.clone(),
        board_file: "smoke start".into(),
        settings: royale::Settings {
            max_rounds: Some(1),
            stall_rounds: Some(1),
        },
    };
    play_royale(&players, &setup, opts, &mut |_| {}).map_err(|e| match e {
        RoyaleError::Run(e) => crate::smoke::unplayed(e),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_team_is_the_role_of_its_letter_and_back() {
        let roles: Vec<Role> = Team::ALL.into_iter().map(role).collect();
        assert_eq!(roles, crate::role::seat_roles(RoyaleGame.shape()));
        for t in Team::ALL {
            assert_eq!(team(&role(t)), Ok(t));
        }
        assert!(team(&Role::from("Q")).is_err());
    }

    #[test]
    fn the_smoke_start_parses_the_board_text_it_is_given() {
        let bot = Arc::new(BotSpec {
            name: "x".into(),
            command: vec!["/nonexistent/x".into()],
            dir: "/bots/x".into(),
            build: None,
            mode: dojo_runner::Mode::Auto,
            games: Vec::new(),
            team: None,
            description: None,
            values: Default::default(),
        });
        let opts = RunOptions::default();
        assert_eq!(RoyaleGame.smoke(&bot, None, &opts).unwrap(), None);
        let err = RoyaleGame
            .smoke(&bot, Some("not a board"), &opts)
            .unwrap_err();
        assert!(err.contains("the smoke start's board"), "{err}");
    }
}

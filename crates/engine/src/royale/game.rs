//! The game state and its rules, usable directly (`step`) or through the
//! [`Referee`](crate::protocol::Referee) implementation in `wire`.
//!
//! Randomness (all from [`crate::rng::stream`]):
//! - stream 0 of the seed: start tiles. Seats are handled in order 0, 1,
//!   ...; a seat whose team still has an unused fixed start in the board
//!   file takes it (no draw). Otherwise one draw of `random_range(0..n)`
//!   (as `u32`) picks among the `n` tiles of the seat's own sign, row by
//!   row, or among all passable tiles if the board has none of its sign.
//! - stream 1 of the seed: turn order, a Fisher-Yates shuffle of the seats
//!   `0..n`: for `i` from `n-1` down to 1, swap `i` with
//!   `random_range(0..=i)` (as `u32`).

use rand::RngExt;
use thiserror::Error;

use super::board::{Board, TileCounts};
use super::record::{
    ActionRecord, Effect, EndReason, GameRecord, Outcome, PlayerRecord, ResolvedSettings, TurnFault,
};
use super::types::{Action, Pos, Team, Tile};
use crate::protocol::Fault;
use crate::rng;

/// Round limits; `None` takes the default scaled to the board:
/// `max_rounds = 4 * (width + height)`, `stall_rounds = width + height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Settings {
    pub max_rounds: Option<u32>,
    pub stall_rounds: Option<u32>,
}

impl Settings {
    /// The limits for `board`.
    pub fn resolve(&self, board: &Board) -> ResolvedSettings {
        let span = u32::try_from(board.width() + board.height()).unwrap_or(u32::MAX);
        ResolvedSettings {
            max_rounds: self.max_rounds.unwrap_or(span.saturating_mul(4)),
            stall_rounds: self.stall_rounds.unwrap_or(span),
        }
    }
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("expected at least one player")]
    NoPlayers,
    #[error("expected max_rounds of at least 1")]
    ZeroMaxRounds,
    #[error("expected stall_rounds of at least 1")]
    ZeroStallRounds,
}

/// Why [`Royale::step`] refused an action (the game is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StepError {
    #[error("the game is over")]
    GameOver,
    #[error("it is seat {expected}'s turn, not seat {got}'s")]
    NotYourTurn { expected: usize, got: usize },
}

/// A game of rock-paper-scissors royale.
#[derive(Debug, Clone)]
pub struct Royale {
    board: Board,
    initial: Vec<String>,
    seed: u64,
    settings: ResolvedSettings,
    teams: Vec<Team>,
    starts: Vec<Pos>,
    positions: Vec<Pos>,
    order: Vec<usize>,
    /// Index into `order` of the seat to play.
    turn: usize,
    /// Current round, 1-based; 0 before the first turn is played.
    round: u32,
    /// Whole rounds in a row without a tile change, and whether the
    /// current round has changed one.
    quiet_rounds: u32,
    changed_this_round: bool,
    faults: Vec<u32>,
    actions: Vec<ActionRecord>,
    outcome: Option<Outcome>,
}

impl Royale {
    /// Sets up a game: `teams[seat]` is the team of each player.
    pub fn new(
        board: Board,
        teams: Vec<Team>,
        seed: u64,
        settings: Settings,
    ) -> Result<Royale, SetupError> {
        if teams.is_empty() {
            return Err(SetupError::NoPlayers);
        }
        let settings = settings.resolve(&board);
        if settings.max_rounds == 0 {
            return Err(SetupError::ZeroMaxRounds);
        }
        if settings.stall_rounds == 0 {
            return Err(SetupError::ZeroStallRounds);
        }
        let starts = choose_starts(&board, &teams, seed);
        let order = shuffled_seats(teams.len(), seed);
        let n = teams.len();
        let mut game = Royale {
            initial: board.to_lines(),
            board,
            seed,
            settings,
            positions: starts.clone(),
            starts,
            teams,
            order,
            turn: 0,
            round: 0,
            quiet_rounds: 0,
            changed_this_round: false,
            faults: vec![0; n],
            actions: Vec::new(),
            outcome: None,
        };
        let counts = *game.board.counts();
        if let Some(team) = counts.sole_sign() {
            game.finish(Some(team), EndReason::AlreadyWon);
        } else if counts.signs_present().next().is_none() {
            game.finish(None, EndReason::NoSigns);
        }
        Ok(game)
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Current tile counts.
    pub fn counts(&self) -> &TileCounts {
        self.board.counts()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.teams.len()
    }

    /// Team of each seat.
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// Current position of each seat.
    pub fn positions(&self) -> &[Pos] {
        &self.positions
    }

    /// Start position of each seat.
    pub fn starts(&self) -> &[Pos] {
        &self.starts
    }

    /// Seats in playing order (the same every round).
    pub fn turn_order(&self) -> &[usize] {
        &self.order
    }

    /// The current round, 1-based; 0 before the first turn.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The resolved round limits.
    pub fn settings(&self) -> ResolvedSettings {
        self.settings
    }

    /// Faulted turns (runner faults and illegal actions) of each seat.
    pub fn faults(&self) -> &[u32] {
        &self.faults
    }

    /// The seat whose turn it is; `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        if self.is_over() {
            None
        } else {
            Some(self.order[self.turn])
        }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// League score of every seat (1 win, 0 loss, 0.5 draw), once over.
    pub fn scores(&self) -> Option<Vec<f64>> {
        let o = self.outcome.as_ref()?;
        Some(self.teams.iter().map(|&t| o.score(t)).collect())
    }

    /// Plays `seat`'s turn. Moves and instigations off the board or into a
    /// wall are played as a pass and recorded as [`TurnFault::Illegal`].
    pub fn step(&mut self, seat: usize, action: Action) -> Result<ActionRecord, StepError> {
        self.check_turn(seat)?;
        let (fault, effect) = match self.resolve(seat, action) {
            Some(effect) => (None, effect),
            None => (Some(TurnFault::Illegal), Effect::None),
        };
        Ok(self.play(seat, action, fault, effect))
    }

    /// Plays `seat`'s turn as a pass because its bot faulted.
    pub fn step_fault(&mut self, seat: usize, fault: Fault) -> Result<ActionRecord, StepError> {
        self.check_turn(seat)?;
        Ok(self.play(seat, Action::Pass, Some(fault.into()), Effect::None))
    }

    /// The record of the game so far.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            board: self.initial.clone(),
            seed: self.seed,
            settings: self.settings,
            players: (0..self.teams.len())
                .map(|seat| PlayerRecord {
                    seat,
                    team: self.teams[seat],
                    start: self.starts[seat],
                })
                .collect(),
            turn_order: self.order.clone(),
            actions: self.actions.clone(),
            outcome: self.outcome,
        }
    }

    fn check_turn(&self, seat: usize) -> Result<(), StepError> {
        match self.to_move() {
            None => Err(StepError::GameOver),
            Some(expected) if expected != seat => Err(StepError::NotYourTurn {
                expected,
                got: seat,
            }),
            Some(_) => Ok(()),
        }
    }

    /// Applies `action` to the board and positions; `None` if it is
    /// illegal (then nothing changed).
    fn resolve(&mut self, seat: usize, action: Action) -> Option<Effect> {
        let here = self.positions[seat];
        let (dir, instigate) = match action {
            Action::Pass => return Some(Effect::None),
            Action::Move(d) => (d, false),
            Action::Instigate(d) => (d, true),
        };
        let there = self.board.neighbour(here, dir)?;
        let target = self.board.tile(there).filter(|t| t.is_passable())?;
        if !instigate {
            self.positions[seat] = there;
            return Some(Effect::Moved { at: there });
        }
        let own = self.board.tile(here)?;
        let Some(winner) = own.fight(target) else {
            return Some(Effect::None);
        };
        let (at, from) = if winner == own {
            (there, target)
        } else {
            (here, own)
        };
        self.board.set(at, winner);
        Some(Effect::Converted {
            at,
            from,
            to: winner,
        })
    }

    fn play(
        &mut self,
        seat: usize,
        action: Action,
        fault: Option<TurnFault>,
        effect: Effect,
    ) -> ActionRecord {
        if self.turn == 0 {
            self.round += 1;
        }
        if fault.is_some() {
            self.faults[seat] += 1;
        }
        let record = ActionRecord {
            round: self.round,
            seat,
            action,
            fault,
            effect,
        };
        self.actions.push(record);
        if let Effect::Converted { .. } = effect {
            self.changed_this_round = true;
            if let Some(team) = self.board.counts().sole_sign() {
                self.finish(Some(team), EndReason::OneSignLeft);
            }
        }
        if !self.is_over() {
            self.advance();
        }
        record
    }

    fn advance(&mut self) {
        self.turn += 1;
        if self.turn < self.order.len() {
            return;
        }
        self.turn = 0;
        if self.changed_this_round {
            self.quiet_rounds = 0;
        } else {
            self.quiet_rounds += 1;
        }
        self.changed_this_round = false;
        // Stalled takes precedence when both limits hit together: it says more.
        if self.quiet_rounds >= self.settings.stall_rounds {
            self.finish(None, EndReason::Stalled);
        } else if self.round >= self.settings.max_rounds {
            self.finish(None, EndReason::RoundCap);
        }
    }

    fn finish(&mut self, winner: Option<Team>, reason: EndReason) {
        self.outcome = Some(Outcome {
            winner,
            reason,
            rounds: self.round,
            counts: *self.board.counts(),
        });
    }
}

/// Start tiles per seat (see the module docs for the draws).
fn choose_starts(board: &Board, teams: &[Team], seed: u64) -> Vec<Pos> {
    let mut rng = rng::stream(seed, 0);
    let mut fixed = board.starts().to_vec();
    let passable: Vec<Pos> = board
        .positions()
        .filter(|&p| board.tile(p).is_some_and(Tile::is_passable))
        .collect();
    teams
        .iter()
        .map(|&team| {
            if let Some(i) = fixed.iter().position(|s| s.team == team) {
                return fixed.remove(i).pos;
            }
            let own: Vec<Pos> = board.positions_of(team.tile()).collect();
            let pool = if own.is_empty() { &passable } else { &own };
            pool[pick(&mut rng, pool.len())]
        })
        .collect()
}

/// A uniform index below `n` (n >= 1), drawn as a `u32` so the stream
/// use does not depend on the platform's pointer width.
fn pick(rng: &mut rng::ChaCha8Rng, n: usize) -> usize {
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    rng.random_range(0..n) as usize
}

/// The seats `0..n` shuffled by Fisher-Yates from stream 1.
fn shuffled_seats(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = rng::stream(seed, 1);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = pick(&mut rng, i + 1);
        order.swap(i, j);
    }
    order
}

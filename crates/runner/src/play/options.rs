//! What a caller chooses about a game: who sits where and the limits the
//! loop enforces.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lines::DEFAULT_MAX_LINE_BYTES;
use crate::spec::BotSpec;
use crate::stderr_log::DEFAULT_STDERR_CAP_BYTES;

/// One player of a game: a bot and extra environment for its processes.
#[derive(Debug, Clone)]
pub struct Seat {
    pub bot: Arc<BotSpec>,
    pub env: Vec<(String, String)>,
}

impl Seat {
    /// A seat with no extra environment.
    pub fn new(bot: Arc<BotSpec>) -> Self {
        Self {
            bot,
            env: Vec::new(),
        }
    }
}

/// Limits and knobs of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Time a bot has to answer a prompt.
    pub move_timeout: Duration,
    /// Extra time for a prompt sent to a process just started.
    pub startup_allowance: Duration,
    /// Longest accepted stdout line (bytes, without the newline).
    pub max_line_bytes: usize,
    /// Stderr kept per seat (the head; the rest is counted).
    pub stderr_cap_bytes: usize,
    /// How long processes get to exit after the farewell.
    pub end_grace: Duration,
    /// When set to true, the game stops at its next wait.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Also split each seat's stderr by prompt into
    /// [`SeatRun::stderr_by_prompt`](crate::SeatRun::stderr_by_prompt) (for
    /// showing a bot's log beside the turn it belongs to).
    pub keep_stderr: bool,
    /// Which containment layers to use (see [`crate::SandboxMode`]).
    pub sandbox: crate::SandboxMode,
    /// Resource limits for every bot process.
    pub limits: crate::Limits,
    /// What a move's time counts: wall-clock time, or the CPU time of the
    /// bot's process tree (see [`TimeMode`]).
    pub time: TimeMode,
    /// With [`TimeMode::Cpu`]: a move also times out once this many times
    /// its time budget has passed on the wall clock (a bot that sleeps or
    /// waits uses no CPU).
    pub wall_backstop: u32,
    /// A bank of extra time per seat and game: a move that takes longer
    /// than `move_timeout` draws the excess from it, and times out only
    /// once the bank is empty (Kaggle's `remainingOverageTime`).
    pub overage: Duration,
    /// The most time a seat may use over the whole game, start-up
    /// allowances not counted; once it is spent every move times out.
    pub game_budget: Option<Duration>,
    /// Run every bot process of the game on this CPU only
    /// (`sched_setaffinity`, inherited by everything a bot starts).
    pub pin_cpu: Option<usize>,
    /// Run every bot process of the game on the CPU of the thread that
    /// plays it (overrides `pin_cpu`): each thread that plays a game gets
    /// the next CPU this process may use, so with no more game threads
    /// than CPUs no two games share a core.
    pub pin_game_threads: bool,
    /// A new box for every game's seats (see [`dojo_sandbox::bot_box`]): a box
    /// is torn down when its game ends instead of kept for the next game
    /// of its bot, and none kept earlier is taken. Slower, and changes no
    /// record: for organisers who want no state of any kind to outlive a
    /// game.
    pub fresh_boxes: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            move_timeout: Duration::from_millis(1000),
            startup_allowance: Duration::from_millis(2000),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            stderr_cap_bytes: DEFAULT_STDERR_CAP_BYTES,
            end_grace: Duration::from_millis(100),
            cancel: None,
            keep_stderr: false,
            sandbox: crate::SandboxMode::Auto,
            limits: crate::Limits::default(),
            time: TimeMode::Wall,
            wall_backstop: 4,
            overage: Duration::ZERO,
            game_budget: None,
            pin_cpu: None,
            pin_game_threads: false,
            fresh_boxes: false,
        }
    }
}

/// What a move's time limit counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeMode {
    /// Wall-clock time from sending the prompt to the answer (the
    /// protocol's default).
    #[default]
    Wall,
    /// CPU time the bot's whole process tree used since its previous
    /// answer was read (or its process started), so a busy machine or a
    /// CPU-burning neighbour cannot make it time out; with a wall-clock
    /// backstop of [`RunOptions::wall_backstop`] times the budget.
    Cpu,
}

impl TimeMode {
    /// The name used by flags and files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wall => "wall",
            Self::Cpu => "cpu",
        }
    }
}

impl std::str::FromStr for TimeMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "wall" => Ok(Self::Wall),
            "cpu" => Ok(Self::Cpu),
            other => Err(format!("unknown time mode {other:?}: expected wall or cpu")),
        }
    }
}

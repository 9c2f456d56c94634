//! What a caller chooses about a game: who sits where and the limits the
//! loop enforces.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::controls::Controls;
pub use crate::controls::TimeMode;
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
    /// The time controls, resource limits and containment of every bot
    /// process (the resolved flags); each seat plays under these with its
    /// bot's own values in their place ([`RunOptions::for_bot`]).
    pub controls: Controls,
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
    /// With [`TimeMode::Cpu`]: a move also times out once this many times
    /// its time budget has passed on the wall clock (a bot that sleeps or
    /// waits uses no CPU).
    pub wall_backstop: u32,
    /// Run every bot process of the game on this CPU only
    /// (`sched_setaffinity`, inherited by everything a bot starts).
    /// [`Controls::pin`] overrides it: each thread that plays a game gets
    /// the next CPU this process may use, so with no more game threads
    /// than CPUs no two games share a core.
    pub pin_cpu: Option<usize>,
}

impl RunOptions {
    /// The controls `bot`'s processes run under: the run's, with the
    /// values of its `bot.toml` in their place ([`Controls::with_bot`]).
    pub fn for_bot(&self, bot: &BotSpec) -> Controls {
        self.controls.with_bot(&bot.values)
    }
}

impl From<Controls> for RunOptions {
    /// A run under `controls`, the runner's other knobs at their defaults.
    fn from(controls: Controls) -> Self {
        Self {
            controls,
            ..Self::default()
        }
    }
}

impl Default for RunOptions {
    /// The default controls ([`Controls::default`]) with the runner's own
    /// knobs.
    fn default() -> Self {
        Self {
            controls: Controls::default(),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            stderr_cap_bytes: DEFAULT_STDERR_CAP_BYTES,
            end_grace: Duration::from_millis(100),
            cancel: None,
            keep_stderr: false,
            wall_backstop: 4,
            pin_cpu: None,
        }
    }
}

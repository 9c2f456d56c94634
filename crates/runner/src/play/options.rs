//! What a caller chooses about a game: who sits where and the limits the
//! loop enforces.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
        }
    }
}

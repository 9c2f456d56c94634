//! The envelope every game record shares: its format version, who sat
//! where, what each seat's processes did, stderr kept on request, timings.
//! Each game's record (`crate::cardjitsu::CardJitsuRecord`,
//! `crate::royale::RoyaleRecord`) is this envelope around the engine's
//! record of the game (flattened in); `dojo match --json`, `games.jsonl` and
//! `dojo replay` share it.
//!
//! Everything but `timing` is a function of the seed and the bots' answers,
//! so deterministic bots give a byte-identical record apart from `timing`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use dojo_engine::rng::derive_seed;
use dojo_engine::royale::Team;
use dojo_runner::{BotSpec, FaultCounts, MatchRun, Mode};
use serde::{Deserialize, Serialize};

pub use crate::formats::RECORD_VERSION;

/// Who sat in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// 0-based seat index, as in the engine records (CardJitsu: player number - 1).
    pub seat: usize,
    pub bot: String,
    pub command: Vec<String>,
    /// The directory the bot ran in (absolute): where `--rerun` finds it
    /// again. Absent in version 1 records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// [`dojo_runner::fingerprint`] of the bot as it played: `--rerun`
    /// refuses a bot that has changed since. Absent in version 1 records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Royale: the team the seat plays for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<Team>,
}

/// What one seat's processes did, apart from their moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatConduct {
    #[serde(flatten)]
    pub faults: FaultCounts,
    /// Processes started, the first included.
    pub spawns: u32,
    /// Lines written while no prompt was outstanding.
    pub unsolicited: u32,
    /// Declared or detected process mode.
    pub mode: Mode,
}

/// What is said of a bot that timed out without ever writing a line: the
/// usual cause is an answer left in its stdout buffer.
pub const FLUSH_HINT: &str = "it wrote nothing to stdout: a bot must flush stdout after each \
answer (Python: print(..., flush=True) or python3 -u)";

impl SeatConduct {
    /// Whether the seat timed out on every one of the `prompts` it was
    /// sent and wrote not one line (no answer, invalid or unsolicited):
    /// the sign of a bot whose answers wait in its stdout buffer.
    pub fn wrote_nothing(&self, prompts: usize) -> bool {
        prompts > 0
            && usize::try_from(self.faults.timeout).is_ok_and(|t| t >= prompts)
            && self.faults.invalid == 0
            && self.unsolicited == 0
    }
}

/// Timings: the only part of a record that differs between two plays of
/// the same seeded game with the same deterministic bots.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub wall_ms: f64,
    /// Per seat, microseconds from each prompt to its answer or timeout.
    pub latency_us: Vec<Vec<u64>>,
    /// Per seat, beside each entry of `latency_us`: microseconds of CPU
    /// time the bot's process tree used for that move (since its previous
    /// answer was read, or its process started), `null` where it could not
    /// be measured. Absent in records from before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu_us: Vec<Vec<Option<u64>>>,
    /// Per seat: the most memory its processes used at once in the game
    /// (each process tree as a whole, from its box's memory group), in
    /// bytes; `null` where not measured (no memory group). Absent in
    /// records from before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_peak_bytes: Vec<Option<u64>>,
}

/// Reads a record's `timing`, `null` as none (a stored line without its
/// timing is read with `null` in its place).
pub(crate) fn optional_timing<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Timing, D::Error> {
    Ok(Option::<Timing>::deserialize(d)?.unwrap_or_default())
}

/// The environment every bot process gets: the game, its seat and a seed
/// of its own (so a bot that wants randomness can still replay exactly).
pub(crate) fn seat_env(game: &str, seed: u64, seat: usize) -> Vec<(String, String)> {
    vec![
        ("DOJO_GAME".into(), game.into()),
        ("DOJO_SEAT".into(), (seat + 1).to_string()),
        (
            "DOJO_SEED".into(),
            derive_seed(seed, &[seat as u64]).to_string(),
        ),
    ]
}

pub(crate) fn seat_info(seat: usize, bot: &BotSpec, team: Option<Team>) -> SeatInfo {
    SeatInfo {
        seat,
        bot: bot.name.clone(),
        command: bot.command.clone(),
        dir: Some(bot.dir.display().to_string()),
        fingerprint: Some(cached_fingerprint(bot)),
        team,
    }
}

/// [`dojo_runner::fingerprint`], computed once per bot and process: a
/// league plays the same (already built) bots thousands of times, and
/// hashing a bot's files for every game would cost more than its moves.
pub fn cached_fingerprint(bot: &BotSpec) -> String {
    type Cache = Mutex<HashMap<(PathBuf, Vec<String>), String>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (bot.dir.clone(), bot.command.clone());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return found;
    }
    let print = dojo_runner::fingerprint(bot);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, print.clone());
    }
    print
}

/// A run's per-seat results: conduct, stderr by prompt (empty when no seat
/// wrote anything) and timing.
pub(crate) fn conduct_and_timing(
    run: MatchRun,
    started: Instant,
) -> (Vec<SeatConduct>, Vec<Vec<String>>, Timing) {
    let mut timing = Timing {
        wall_ms: started.elapsed().as_secs_f64() * 1000.0,
        latency_us: Vec::new(),
        cpu_us: Vec::new(),
        memory_peak_bytes: Vec::new(),
    };
    let mut stderr = Vec::new();
    let conduct = run
        .seats
        .into_iter()
        .map(|s| {
            timing.latency_us.push(s.latencies_us);
            timing.cpu_us.push(s.cpu_us);
            timing.memory_peak_bytes.push(s.memory_peak_bytes);
            stderr.push(s.stderr_by_prompt);
            SeatConduct {
                faults: s.faults,
                spawns: s.spawns,
                unsolicited: s.unsolicited,
                mode: s.mode,
            }
        })
        .collect();
    if stderr.iter().flatten().all(String::is_empty) {
        stderr.clear();
    }
    (conduct, stderr, timing)
}

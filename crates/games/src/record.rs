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
    /// The seat's role in a game with roles (royale: the team it plays
    /// for); the key is `team` in every record written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<crate::role::Role>,
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
    /// Why its first invalid answer was not a move, as the referee said
    /// it, quoting the answer (cut to
    /// [`dojo_runner::INVALID_REASON_CAP_BYTES`]). Absent without invalid
    /// answers, and in records from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_invalid: Option<String>,
}

/// What is said of a bot whose answer was not a move: the usual cause is
/// a log line written to stdout.
pub const STDOUT_HINT: &str =
    "a bot writes only its answers to stdout: logs and debug output go to stderr";

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
    /// Per seat: the entries of `latency_us` (their indices, in order)
    /// whose prompt had the start-up allowance on top of the move time,
    /// held against that longer limit. Absent in records from before it
    /// existed, which [`crate::MoveTally`] reads as each seat's first
    /// entry (the first answer of the game always has the allowance).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub startup_answers: Vec<Vec<u32>>,
}

/// Reads a record's `timing`, `null` as none (a stored line without its
/// timing is read with `null` in its place).
pub(crate) fn optional_timing<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Timing, D::Error> {
    Ok(Option::<Timing>::deserialize(d)?.unwrap_or_default())
}

/// The environment every bot process gets: the game, its seat and a seed
/// of its own (so a bot that wants randomness can still replay exactly),
/// one-way from the game's seed ([`dojo_engine::rng::bot_seed`]: from a
/// seed it could undo, a bot would deal the game again).
pub(crate) fn seat_env(game: &str, seed: u64, seat: usize) -> Vec<(String, String)> {
    vec![
        ("DOJO_GAME".into(), game.into()),
        ("DOJO_SEAT".into(), (seat + 1).to_string()),
        (
            "DOJO_SEED".into(),
            dojo_engine::rng::bot_seed(seed, seat).to_string(),
        ),
    ]
}

pub(crate) fn seat_info(seat: usize, bot: &BotSpec, team: Option<crate::role::Role>) -> SeatInfo {
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
        startup_answers: Vec::new(),
    };
    let mut stderr = Vec::new();
    let conduct = run
        .seats
        .into_iter()
        .map(|s| {
            timing.latency_us.push(s.latencies_us);
            timing.cpu_us.push(s.cpu_us);
            timing.memory_peak_bytes.push(s.memory_peak_bytes);
            timing.startup_answers.push(s.startup_answers);
            stderr.push(s.stderr_by_prompt);
            SeatConduct {
                faults: s.faults,
                spawns: s.spawns,
                unsolicited: s.unsolicited,
                mode: s.mode,
                first_invalid: s.first_invalid,
            }
        })
        .collect();
    if stderr.iter().flatten().all(String::is_empty) {
        stderr.clear();
    }
    (conduct, stderr, timing)
}

/// Lines of a faulty seat's stderr shown and kept as its tail: its last
/// ones, where a crash's traceback or panic message ends.
pub const STDERR_TAIL_LINES: usize = 12;
/// Longest line of a stderr tail kept, in bytes (a longer one is cut and
/// ends in `…`): a bot writing one huge line must not make `games.jsonl`
/// grow by it.
pub const STDERR_TAIL_LINE_BYTES: usize = 400;

/// What a seat's fault was, as its first fault names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    Crash,
    Timeout,
    Invalid,
    /// A process ran into a resource limit without a crash, timeout or
    /// invalid answer placed in any round.
    Limit,
}

impl FaultKind {
    /// The word for it (`crash`, `timeout`, `invalid`, `limit`).
    pub fn word(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Invalid => "invalid",
            FaultKind::Limit => "limit",
        }
    }
}

impl From<dojo_engine::protocol::Fault> for FaultKind {
    fn from(f: dojo_engine::protocol::Fault) -> FaultKind {
        use dojo_engine::protocol::Fault;
        match f {
            Fault::Crash => FaultKind::Crash,
            Fault::Timeout => FaultKind::Timeout,
            Fault::Invalid => FaultKind::Invalid,
        }
    }
}

/// A seat's first fault in a game, with the end of what it wrote to
/// stderr in that game: what a bot author reads first when a league says
/// the bot is faulty. A crash comes before any other fault (it is the one
/// with a traceback to read); otherwise the first fault of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstFault {
    /// The round it came in (as the game's transcript numbers rounds);
    /// `null` when the record places it in no round (a limit hit only).
    pub round: Option<u32>,
    pub kind: FaultKind,
    /// For an invalid answer: why it was not a move, quoting it
    /// ([`SeatConduct::first_invalid`]). Absent otherwise, and in lines
    /// from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
    /// The last [`STDERR_TAIL_LINES`] lines the seat wrote to stderr in
    /// the game up to the end of the fault's prompt ([`stderr_tail`]):
    /// what came later (a restarted process's, another fault's) is not
    /// this fault's. Empty when it wrote nothing.
    #[serde(default)]
    pub stderr_tail: Vec<String>,
}

/// A fault the record places: the round it came in (as the transcript
/// numbers rounds), the seat's prompt it answered (counted from 0: the
/// index of the seat's stderr entry), and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedFault {
    pub round: u32,
    pub prompt: usize,
    pub fault: dojo_engine::protocol::Fault,
}

impl FirstFault {
    /// The first fault of a seat whose conduct is `conduct`, whose faults
    /// the record places as `faults` (in game order) and which wrote
    /// `stderr` (prompt by prompt); `None` for a seat without faults.
    pub fn of(
        faults: impl IntoIterator<Item = PlacedFault>,
        conduct: &SeatConduct,
        stderr: &[String],
    ) -> Option<FirstFault> {
        let counts = &conduct.faults;
        if counts.total() == 0 {
            return None;
        }
        let mut first: Option<PlacedFault> = None;
        for placed in faults {
            if FaultKind::from(placed.fault) == FaultKind::Crash {
                first = Some(placed);
                break;
            }
            first.get_or_insert(placed);
        }
        // Counted but placed in no round: a limit hit without a crash, or
        // a crash after the last prompt was answered.
        let (round, kind, upto) = match first {
            Some(p) => (Some(p.round), FaultKind::from(p.fault), p.prompt + 1),
            None => {
                let kind = if counts.crash > 0 {
                    FaultKind::Crash
                } else if counts.timeout > 0 {
                    FaultKind::Timeout
                } else if counts.invalid > 0 {
                    FaultKind::Invalid
                } else {
                    FaultKind::Limit
                };
                (None, kind, stderr.len())
            }
        };
        Some(FirstFault {
            round,
            kind,
            invalid: (kind == FaultKind::Invalid)
                .then(|| conduct.first_invalid.clone())
                .flatten(),
            stderr_tail: stderr_tail(&stderr[..upto.min(stderr.len())]),
        })
    }
}

/// The last [`STDERR_TAIL_LINES`] lines of what a seat wrote to stderr
/// in a game (`stderr`, prompt by prompt), each cut to
/// [`STDERR_TAIL_LINE_BYTES`]; trailing blank lines are left out.
pub fn stderr_tail(stderr: &[String]) -> Vec<String> {
    let text: String = stderr.concat();
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..]
        .iter()
        .map(|l| cut_line(l))
        .collect()
}

fn cut_line(line: &str) -> String {
    if line.len() <= STDERR_TAIL_LINE_BYTES {
        return line.to_owned();
    }
    let mut cut = STDERR_TAIL_LINE_BYTES;
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", &line[..cut])
}

#[cfg(test)]
mod first_fault_tests {
    use super::*;
    use dojo_engine::protocol::Fault;

    fn conduct(timeout: u64, crash: u64, limit: u64) -> SeatConduct {
        SeatConduct {
            faults: FaultCounts {
                timeout,
                crash,
                limit,
                ..FaultCounts::default()
            },
            spawns: 1,
            unsolicited: 0,
            mode: Mode::Persistent,
            first_invalid: None,
        }
    }

    /// Faults placed one a round, round `r` on the seat's prompt `r - 1`.
    fn placed(faults: &[(u32, Fault)]) -> Vec<PlacedFault> {
        (faults.iter())
            .map(|&(round, fault)| PlacedFault {
                round,
                prompt: round as usize - 1,
                fault,
            })
            .collect()
    }

    #[test]
    fn a_crash_comes_before_an_earlier_timeout_with_its_own_prompts_stderr() {
        let stderr = ["", "", "boom\n", "again\n"].map(str::to_owned);
        let faults = placed(&[(1, Fault::Timeout), (3, Fault::Crash), (4, Fault::Crash)]);
        let f = FirstFault::of(faults, &conduct(1, 2, 0), &stderr).unwrap();
        assert_eq!((f.round, f.kind), (Some(3), FaultKind::Crash));
        // Not round 4's "again": a later crash's traceback is not the
        // first crash's.
        assert_eq!(f.stderr_tail, ["boom"]);
        let f = FirstFault::of(placed(&[(2, Fault::Timeout)]), &conduct(1, 0, 0), &[]).unwrap();
        assert_eq!((f.round, f.kind), (Some(2), FaultKind::Timeout));
        assert!(f.stderr_tail.is_empty());
    }

    #[test]
    fn an_invalid_answer_keeps_what_the_bot_answered() {
        let mut c = conduct(0, 0, 0);
        c.faults.invalid = 2;
        c.first_invalid = Some("`debug` is not a card index".to_owned());
        let f = FirstFault::of(placed(&[(2, Fault::Invalid), (5, Fault::Invalid)]), &c, &[]);
        let f = f.unwrap();
        assert_eq!((f.round, f.kind), (Some(2), FaultKind::Invalid));
        assert_eq!(f.invalid.as_deref(), Some("`debug` is not a card index"));
        // A crash first: no answer to show.
        c.faults.crash = 1;
        let f = FirstFault::of(placed(&[(2, Fault::Invalid), (3, Fault::Crash)]), &c, &[]);
        assert_eq!(f.unwrap().invalid, None);
    }

    #[test]
    fn a_seat_without_faults_has_none_and_a_limit_hit_has_no_round() {
        assert_eq!(FirstFault::of([], &conduct(0, 0, 0), &[]), None);
        let f = FirstFault::of([], &conduct(0, 0, 1), &[]).unwrap();
        assert_eq!((f.round, f.kind), (None, FaultKind::Limit));
    }

    #[test]
    fn the_tail_keeps_the_last_lines_each_cut_short() {
        let many: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let long = "é".repeat(STDERR_TAIL_LINE_BYTES);
        let tail = stderr_tail(&[many, format!("{long}\n\n")]);
        assert_eq!(tail.len(), STDERR_TAIL_LINES);
        assert_eq!(tail[0], "line 10");
        let last = tail.last().unwrap();
        assert!(last.ends_with('…') && last.len() <= STDERR_TAIL_LINE_BYTES + 3);
    }
}

#[cfg(test)]
mod seat_env_tests {
    use super::*;

    #[test]
    fn a_seats_dojo_seed_is_its_one_way_bot_seed() {
        for seat in 0..3 {
            let env = seat_env("cardjitsu", 29, seat);
            let seed = env
                .iter()
                .find(|(k, _)| k == "DOJO_SEED")
                .expect("DOJO_SEED");
            assert_eq!(seed.1, dojo_engine::rng::bot_seed(29, seat).to_string());
            // Not the seed `derive_seed` gives, whose steps a bot can undo.
            let undoable = dojo_engine::rng::derive_seed(29, &[seat as u64]);
            assert_ne!(seed.1, undoable.to_string());
        }
    }
}

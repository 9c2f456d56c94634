//! What a game run returns: per-seat conduct, or why it could not finish.

use serde::{Deserialize, Serialize};

use crate::spec::Mode;

/// Faults of one seat, by kind: the one fault-count type from the runner
/// to the records, the league's stored lines and its report (which sums
/// them per bot with [`FaultCounts::add`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultCounts {
    /// No complete answer by the deadline.
    pub timeout: u64,
    /// Exited or closed stdout without answering, or exited non-zero.
    pub crash: u64,
    /// Malformed answer or over-long line.
    pub invalid: u64,
    /// Processes started again after a fault (per-turn respawns excluded).
    pub restart: u64,
    /// Processes that ran into a resource limit (see [`SeatRun::limits`]
    /// for which); one that died of it is charged its crash as well.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub limit: u64,
    /// Which limits those were: each limit a process ran into, counted
    /// once per process (one process may run into two).
    #[serde(default, skip_serializing_if = "LimitHits::is_zero")]
    pub limits_hit: LimitHits,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Limit faults by the limit run into (the names of [`SeatRun::limits`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct LimitHits {
    #[serde(skip_serializing_if = "is_zero")]
    pub processes: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub memory: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub cpu: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub file_size: u64,
}

impl LimitHits {
    /// Whether no limit was hit.
    pub fn is_zero(&self) -> bool {
        *self == LimitHits::default()
    }

    /// Each limit's name and count, in a fixed order.
    pub fn entries(&self) -> [(&'static str, u64); 4] {
        [
            ("processes", self.processes),
            ("memory", self.memory),
            ("cpu", self.cpu),
            ("file-size", self.file_size),
        ]
    }

    /// Counts one hit of the limit named `name` (unknown names are not
    /// counted: the runner names only these four).
    fn note(&mut self, name: &str) {
        let slot = match name {
            "processes" => &mut self.processes,
            "memory" => &mut self.memory,
            "cpu" => &mut self.cpu,
            "file-size" => &mut self.file_size,
            _ => return,
        };
        *slot = slot.saturating_add(1);
    }

    fn add(&mut self, other: &LimitHits) {
        self.processes = self.processes.saturating_add(other.processes);
        self.memory = self.memory.saturating_add(other.memory);
        self.cpu = self.cpu.saturating_add(other.cpu);
        self.file_size = self.file_size.saturating_add(other.file_size);
    }
}

impl FaultCounts {
    /// Timeouts, crashes, invalid answers and limits hit (restarts are
    /// consequences).
    pub fn total(&self) -> u64 {
        self.timeout
            .saturating_add(self.crash)
            .saturating_add(self.invalid)
            .saturating_add(self.limit)
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &FaultCounts) {
        // Saturating: stored lines are checked, but a sum must never wrap
        // (or panic) whatever a hand-edited file says.
        self.timeout = self.timeout.saturating_add(other.timeout);
        self.crash = self.crash.saturating_add(other.crash);
        self.invalid = self.invalid.saturating_add(other.invalid);
        self.restart = self.restart.saturating_add(other.restart);
        self.limit = self.limit.saturating_add(other.limit);
        self.limits_hit.add(&other.limits_hit);
    }
}

/// What happened to one seat during a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRun {
    /// The bot's name.
    pub bot: String,
    pub faults: FaultCounts,
    /// The resource limits its processes ran into, each named once
    /// (`processes`, `memory`, `cpu`, `file-size`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<String>,
    /// Processes started, including the first.
    pub spawns: u32,
    /// Lines written while no prompt was outstanding (discarded).
    pub unsolicited: u32,
    /// The declared mode, or what `Mode::Auto` found out (`Auto` if it
    /// could not tell).
    pub mode: Mode,
    /// Microseconds from sending each prompt to its answer (valid or not)
    /// or its timeout, in order.
    pub latencies_us: Vec<u64>,
    /// Beside each entry of `latencies_us`: microseconds of CPU time the
    /// seat's process tree used since its previous answer was read (or
    /// its process started) until this answer or timeout; `None` where it
    /// could not be measured.
    #[serde(default)]
    pub cpu_us: Vec<Option<u64>>,
    /// The entries of `latencies_us` whose prompt had the start-up
    /// allowance on top of the move time (the first answer of the seat's
    /// first process, and of a long-lived bot's process started again
    /// after a fault), in order: they are held against a longer limit
    /// than the other moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub startup_answers: Vec<u32>,
    /// The most memory any of the seat's processes used at once in the
    /// game (the process tree together, from its memory group: what the
    /// memory limit is held against), in bytes; `None` where there is no
    /// memory group to tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_peak_bytes: Option<u64>,
    /// Why the seat's first invalid answer of the game was not a move, as
    /// the referee said it (quoting the answer), cut to
    /// [`INVALID_REASON_CAP_BYTES`]: what a bot author needs to see what
    /// the bot wrote. `None` without invalid answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_invalid: Option<String>,
    /// The head of everything the seat's processes wrote to stderr.
    pub stderr: String,
    /// With [`RunOptions::keep_stderr`](crate::RunOptions::keep_stderr):
    /// entry `k` holds what the seat's
    /// processes wrote to stderr after prompt `k` was sent and before
    /// prompt `k + 1` was (entry 0 also what came before the first prompt,
    /// the last entry until the game ended). The cut is exact: bytes still
    /// in the pipe when the next prompt goes out count for the earlier
    /// entry, so a line written before an answer stays with it. Each entry keeps
    /// at most [`STDERR_ENTRY_CAP_BYTES`](crate::STDERR_ENTRY_CAP_BYTES);
    /// all entries together come from
    /// the same capped log as `stderr`. Empty without `keep_stderr`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr_by_prompt: Vec<String>,
    /// Process-group ids of every process the seat used.
    pub pgids: Vec<i32>,
}

/// The most of an invalid answer's reason kept ([`SeatRun::first_invalid`]):
/// an answer can be a whole line of up to a mebibyte.
pub const INVALID_REASON_CAP_BYTES: usize = 400;

impl SeatRun {
    /// Notes why an answer was invalid, if it is the seat's first.
    pub(crate) fn note_invalid(&mut self, reason: &str) {
        if self.first_invalid.is_some() {
            return;
        }
        let mut cut = reason.len().min(INVALID_REASON_CAP_BYTES);
        while !reason.is_char_boundary(cut) {
            cut -= 1;
        }
        let ellipsis = if cut < reason.len() { "…" } else { "" };
        self.first_invalid = Some(format!("{}{ellipsis}", &reason[..cut]));
    }

    /// Charges a `limit` fault for a process that ran into `hits`.
    pub(crate) fn note_limits(&mut self, hits: &[&str]) {
        if hits.is_empty() {
            return;
        }
        self.faults.limit += 1;
        for hit in hits {
            self.faults.limits_hit.note(hit);
            if !self.limits.iter().any(|l| l == hit) {
                self.limits.push(hit.to_string());
            }
        }
    }

    /// A seat that has not played yet.
    pub(crate) fn new(bot: String, mode: Mode) -> Self {
        Self {
            bot,
            faults: FaultCounts::default(),
            limits: Vec::new(),
            spawns: 0,
            unsolicited: 0,
            mode,
            latencies_us: Vec::new(),
            cpu_us: Vec::new(),
            startup_answers: Vec::new(),
            memory_peak_bytes: None,
            first_invalid: None,
            stderr: String::new(),
            stderr_by_prompt: Vec::new(),
            pgids: Vec::new(),
        }
    }
}

/// The outcome of driving one game, per seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRun {
    pub seats: Vec<SeatRun>,
}

/// The limit on a bot's processes, and who set it: the flag, or the
/// bot's own `bot.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessLimit {
    pub processes: u64,
    pub by_manifest: bool,
}

impl ProcessLimit {
    /// The limit in force for `bot` under `opts` when its start failed
    /// with `err`: `Some` only for a start refused for want of a process
    /// (`EAGAIN`, what a full `pids.max` gives `fork`; from a box, the
    /// error comes back as its kind and text), whose likely cause is that
    /// limit.
    pub(crate) fn behind(
        err: &std::io::Error,
        bot: &crate::BotSpec,
        opts: &super::RunOptions,
    ) -> Option<ProcessLimit> {
        (err.kind() == std::io::ErrorKind::WouldBlock).then(|| ProcessLimit {
            processes: opts.for_bot(bot).processes,
            by_manifest: bot.values.get("limits.processes").is_some(),
        })
    }
}

impl std::fmt::Display for ProcessLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.by_manifest {
            write!(
                f,
                "`[limits] processes = {}` in its bot.toml",
                self.processes
            )
        } else {
            write!(f, "--limit-processes {}", self.processes)
        }
    }
}

/// Why a game could not be played to the end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A bot's command could not be started at all: a configuration error.
    ///
    /// The errno's text is part of the message, not its `source`: a hint
    /// follows it, so a printer that appends each source's text would say
    /// it twice.
    #[error(
        "bot {bot}: cannot start {command:?}{}: {error}{}",
        process_limit.as_ref().map(|l| format!(" (the likely cause: its process limit, {l}, which counts every process and thread of the bot)")).unwrap_or_default(),
        hint.as_ref().map(|h| format!("; {h}")).unwrap_or_default()
    )]
    Spawn {
        bot: String,
        command: Vec<String>,
        error: std::io::Error,
        /// The limit on the bot's processes a start that failed for want
        /// of a process (`EAGAIN`) ran into, as it was given.
        process_limit: Option<ProcessLimit>,
        /// What is wrong with the program file, when it exists, and how
        /// to fix it: `chmod +x` it, give it a `#!` line, or name its
        /// interpreter in the command.
        hint: Option<String>,
    },
    /// The cancel flag was set.
    #[error("game cancelled")]
    Cancelled,
    /// The kernel's OOM killer took a process of `bot` while the bot was
    /// under its own memory cap: memory ran out for the machine or for a
    /// control group above the bots' (other work on the machine, or more
    /// caps in play than there was memory). Its fault would not be its
    /// own, so the game is not judged; a league keeps it to play again.
    #[error(
        "bot {bot}: a process was killed by the kernel's OOM killer while under its memory cap \
         (the machine, or a control group above the bots', ran out of memory): the game is not \
         charged to it and was not finished"
    )]
    MemoryElsewhere { bot: String },
    /// The box of a process of `bot` was torn down from outside while it
    /// played: the box maker that forked it ended (killed by an
    /// administrator, or by the OOM killer among dojo's own processes),
    /// and every box it made with it. The bot's crash would not be its
    /// own, so the game is not judged; a league keeps it to play again.
    #[error(
        "bot {bot}: its box was torn down from outside (dojo's box maker ended): the game is \
         not charged to it and was not finished"
    )]
    BoxLost { bot: String },
    /// The referee and the seat list disagree.
    #[error("the game has {expected} seats but {given} were given")]
    SeatCount { expected: usize, given: usize },
    /// `--sandbox strict` and a layer is missing.
    #[error(transparent)]
    Sandbox(#[from] crate::SandboxError),
    /// `--time cpu` on a machine where a process's CPU time cannot be
    /// read (no `/proc`).
    #[error("CPU time cannot be measured on this machine ({0}): use wall-clock time")]
    NoCpuTime(String),
    /// The referee asked for something impossible (a bug in the game).
    #[error("referee error: {0}")]
    Referee(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start refused for want of a process names the process limit
    /// (the flag, or the bot's own value), not only the bare `EAGAIN`.
    #[test]
    fn a_start_out_of_processes_names_the_process_limit() {
        let mut bot = crate::resolve("b=python3 bot.py", std::path::Path::new("/x")).unwrap();
        let opts = super::super::RunOptions::from(crate::Controls {
            processes: 1,
            ..Default::default()
        });
        // As a box hands it back: the kind and the text of the errno.
        let eagain = || {
            std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                "Resource temporarily unavailable (os error 11)",
            )
        };
        let spawn = |bot: &crate::BotSpec, error: std::io::Error| RunError::Spawn {
            bot: bot.name.clone(),
            command: bot.command.clone(),
            process_limit: ProcessLimit::behind(&error, bot, &opts),
            hint: None,
            error,
        };
        let text = spawn(&bot, eagain()).to_string();
        assert!(text.contains("--limit-processes 1"), "{text}");
        let raw = spawn(&bot, std::io::Error::from_raw_os_error(libc::EAGAIN)).to_string();
        assert!(raw.contains("--limit-processes 1"), "{raw}");
        bot.values.limits.processes = Some(2);
        let own = spawn(&bot, eagain()).to_string();
        assert!(
            own.contains("`[limits] processes = 2` in its bot.toml"),
            "{own}"
        );
        // Any other failure is said as it is.
        let missing = spawn(&bot, std::io::Error::from_raw_os_error(libc::ENOENT)).to_string();
        assert!(!missing.contains("limit"), "{missing}");
    }

    #[test]
    fn each_limit_hit_is_counted_by_kind_and_summed() {
        let mut run = SeatRun::new("hog".into(), Mode::Auto);
        run.note_limits(&["memory"]);
        run.note_limits(&["memory", "processes"]);
        run.note_limits(&[]);
        assert_eq!(run.faults.limit, 2);
        assert_eq!(run.limits, ["memory", "processes"]);
        let hits = run.faults.limits_hit;
        assert_eq!((hits.memory, hits.processes, hits.cpu), (2, 1, 0));
        let mut sum = FaultCounts::default();
        sum.add(&run.faults);
        sum.add(&run.faults);
        assert_eq!(sum.limits_hit.memory, 4);
        // In records: only the kinds hit, by the names the seat's
        // `limits` uses.
        let json = serde_json::to_value(run.faults).unwrap();
        assert_eq!(
            json["limits_hit"],
            serde_json::json!({"processes": 1, "memory": 2})
        );
        let none = serde_json::to_value(FaultCounts::default()).unwrap();
        assert!(none.get("limits_hit").is_none());
    }
}

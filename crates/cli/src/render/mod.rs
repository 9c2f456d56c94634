//! Text renderings for people shared by every game: the league table, the
//! conduct lines of a record, and how `dojo replay` shows a saved game.
//! Each game's own transcript (shown by `dojo match` live and `dojo replay`
//! from a record) lives with the game's part of the command line,
//! `crate::games::GAME::transcript`, which implements [`ReplayText`] for
//! its record; [`crate::games::replay_text`] is the one place that picks it, through
//! the games' registry. Text a bot controls goes through [`untrusted`]
//! on its way to the terminal.

pub mod standings;
pub mod untrusted;

use std::fmt::Write as _;

use anyhow::Result;
use dojo_games::{SeatConduct, SeatInfo};
use dojo_league::verdict::Verdict;

use crate::flags::ReplayArgs;

/// How `dojo replay` shows one game's record as text.
pub trait ReplayText {
    /// Prints the record as `dojo replay` shows it (the whole game, one
    /// turn with `--turn`, stderr beside its turn with `--stderr`,
    /// animated with `--watch` where the game has a board). `forfeit`:
    /// for a league game a forfeit decided, the result the league counted,
    /// shown as the result, the board's end after it.
    fn show(&self, a: &ReplayArgs, forfeit: Option<&Verdict>) -> Result<()>;
    /// The line printed before a rerun's verdict.
    fn rerun_header(&self) -> String;
    /// Step `i` (0-based) as a rerun's verdict shows it, or a line saying
    /// the game ended before it.
    fn show_moment(&self, i: usize) -> String;
    /// Each seat's move times, first answers, CPU and memory as the record
    /// holds them ([`move_lines`], without limits: a record does not
    /// hold them), as `dojo match` prints them after its game.
    fn times(&self) -> Vec<String>;
}

/// The stderr seat `seat` wrote for its prompt `prompt`, as indented lines
/// (nothing when none was kept).
pub fn stderr_beside(stderr: &[Vec<String>], seat: usize, prompt: usize, label: &str) -> String {
    let mut out = String::new();
    if let Some(text) = stderr.get(seat).and_then(|s| s.get(prompt)) {
        for line in text.lines() {
            let _ = writeln!(out, "  {label} stderr| {}", untrusted::line(line));
        }
    }
    out
}

/// The result lines of a replay's summary: the board's `board` result,
/// or for a game a forfeit decided the league's result first and the
/// board's end after it (`on the board: ...`), since the standings count
/// the forfeit.
pub fn result_lines(board: &str, forfeit: Option<&Verdict>) -> String {
    match forfeit {
        None => format!("result: {board}\n"),
        Some(v) => format!("result: {}\non the board: {board}\n", v.text),
    }
}

/// Tells that `--stderr` has nothing to show.
pub fn no_stderr_note() {
    errln!("note: this record holds no stderr (play it with `dojo match --keep-stderr`)");
}

/// One line per seat that had any fault, plus process-mode facts worth
/// knowing (a bot that was restarted per turn). Seats are numbered from 1
/// as players, like the transcript's header and its `P1`/`P2`.
/// `latency_us` (the record's timing) counts the prompts each seat was
/// sent: a seat that timed out on all of them without writing a line gets
/// [`dojo_games::record::FLUSH_HINT`].
pub fn conduct_lines(
    seats: &[SeatInfo],
    conduct: &[SeatConduct],
    latency_us: &[Vec<u64>],
) -> Vec<String> {
    seats
        .iter()
        .zip(conduct)
        .filter(|(_, c)| c.faults.total() > 0 || c.faults.restart > 0 || c.unsolicited > 0)
        .map(|(s, c)| {
            let line = format!(
                "player {} ({}): {} timeout, {} crash, {} invalid, {} restart, {}",
                s.seat + 1,
                s.bot,
                c.faults.timeout,
                c.faults.crash,
                c.faults.invalid,
                c.faults.restart,
                count(u64::from(c.unsolicited), "unsolicited line")
            );
            let prompts = latency_us.get(s.seat).map_or(0, Vec::len);
            if c.wrote_nothing(prompts) {
                format!("{line}; {}", dojo_games::record::FLUSH_HINT)
            } else {
                line
            }
        })
        .collect()
}

/// Lines of a faulty seat's stderr `dojo match` shows (as many as a
/// league's report keeps of a bot's first fault).
pub use dojo_games::record::STDERR_TAIL_LINES;

/// One faulty seat of a played game, as `dojo match` explains it.
pub struct SeatFault<'a> {
    /// How the transcript names the seat (`player 1 (np-bot)`).
    pub label: String,
    pub conduct: &'a SeatConduct,
    /// Prompts the seat answered (well or not) or let time out: its
    /// timing's latencies, which a crash has none of.
    pub prompts: usize,
    /// The seat's first fault: the round it came in and its kind.
    pub first: Option<(u32, String)>,
    /// Everything the seat wrote to stderr, prompt by prompt (a record's
    /// `stderr` entry; empty when nothing was kept).
    pub stderr: &'a [String],
}

/// Why a seat is faulty, and the last [`STDERR_TAIL_LINES`] lines of its
/// stderr: what a bot author needs to see after `dojo match` to know why
/// the bot crashed (a missing module, a panic) without digging.
pub fn fault_forensics(f: &SeatFault<'_>) -> Vec<String> {
    let c = f.conduct;
    let faults = c.faults;
    // Never a line for any prompt: each one met a crash.
    let why = if faults.crash > 0 && f.prompts == 0 {
        format!(
            "could not start: it crashed on every one of its {} without answering",
            count(faults.crash, "prompt")
        )
    } else {
        let mut kinds = Vec::new();
        for (n, what) in [
            (faults.crash, "crash"),
            (faults.timeout, "timeout"),
            (faults.invalid, "invalid answer"),
            (faults.limit, "limit hit"),
        ] {
            if n > 0 {
                kinds.push(count(n, what));
            }
        }
        format!("faulted: {}", kinds.join(", "))
    };
    // Named only where the seat had faults of more than one kind.
    let kinds = [faults.crash, faults.timeout, faults.invalid, faults.limit];
    let one_kind = kinds.iter().filter(|&&n| n > 0).count() == 1;
    let mut lines = vec![match &f.first {
        Some((round, _)) if one_kind => format!("{} {why} (the first in round {round})", f.label),
        Some((round, kind)) => format!(
            "{} {why} (the first, {}, in round {round})",
            f.label,
            a_fault(kind)
        ),
        None => format!("{} {why}", f.label),
    }];
    if let Some(reason) = &c.first_invalid {
        lines.push(format!(
            "  its first invalid answer: {}",
            untrusted::line(reason)
        ));
        lines.push(format!("  ({})", dojo_games::record::STDOUT_HINT));
    }
    if faults.limit > 0 {
        let hits = faults.limits_hit;
        let named: Vec<&str> = [
            (hits.memory, "memory"),
            (hits.processes, "processes"),
            (hits.cpu, "cpu"),
            (hits.file_size, "file-size"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, name)| name)
        .collect();
        lines.push(format!("  limits run into: {}", named.join(", ")));
    }
    if c.wrote_nothing(f.prompts) {
        lines.push(format!("  {}", dojo_games::record::FLUSH_HINT));
    }
    // The last prompt the seat wrote anything after: a bot restarted
    // after each crash writes the same traceback every time, and the
    // last one is the one to read.
    let last = f.stderr.iter().rev().find(|t| !t.trim().is_empty());
    match last {
        None => lines.push("  stderr: nothing".to_owned()),
        Some(text) => {
            let all: Vec<&str> = text.lines().collect();
            let tail = &all[all.len().saturating_sub(STDERR_TAIL_LINES)..];
            lines.push(if tail.len() < all.len() {
                format!(
                    "  stderr, the last {} of the {} lines it wrote last:",
                    tail.len(),
                    all.len()
                )
            } else {
                "  stderr, what it wrote last:".to_owned()
            });
            lines.extend(tail.iter().map(|l| format!("    | {}", untrusted::line(l))));
        }
    }
    lines
}

/// A fault's kind (`FaultKind::word`) as a noun with its article.
fn a_fault(word: &str) -> String {
    match word {
        "invalid" => "an invalid answer".to_owned(),
        "limit" => "a limit hit".to_owned(),
        other => format!("a {other}"),
    }
}

/// The limits a seat played under, as [`move_lines`] shows them.
#[derive(Debug, Clone, Copy)]
pub struct SeatLimits {
    pub move_ms: u64,
    /// The start-up allowance, on top of `move_ms` for the answers that
    /// had it.
    pub startup_ms: u64,
    pub memory_mib: Option<u64>,
    /// What the move time counts (`--time`): under the CPU clock the
    /// limits hold the CPU times, the wall times only a backstop.
    pub clock: dojo_runner::TimeMode,
}

/// The limits of `bot` under `opts` (its own `bot.toml` values in force).
pub fn seat_limits(bot: &dojo_runner::BotSpec, opts: &dojo_runner::RunOptions) -> SeatLimits {
    let theirs = opts.for_bot(bot);
    SeatLimits {
        move_ms: dojo_runner::as_ms(theirs.timeout),
        startup_ms: dojo_runner::as_ms(theirs.startup),
        memory_mib: theirs.memory_mib,
        clock: theirs.time,
    }
}

/// One line per seat of a played game: its moves' wall and CPU times
/// (p50, p95, max) against its move limit, its answers that had the
/// start-up allowance against that longer limit, and its memory peak
/// against its memory limit: how close a bot runs to them.
pub fn move_lines(
    seats: &[SeatInfo],
    timing: &dojo_games::Timing,
    label: impl Fn(&SeatInfo) -> String,
    limits: &[SeatLimits],
) -> Vec<String> {
    use standings::ms;
    let q = |q: &dojo_games::Quantiles| {
        format!("p50 {} p95 {} max {}", ms(q.p50), ms(q.p95), ms(q.max))
    };
    seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let mut t = dojo_games::MoveTally::default();
            let stored = (!timing.startup_answers.is_empty())
                .then(|| timing.startup_answers.get(i).map_or(&[][..], Vec::as_slice));
            t.add_seat(
                timing.latency_us.get(i).map_or(&[], Vec::as_slice),
                timing.cpu_us.get(i).map_or(&[], Vec::as_slice),
                dojo_games::startup_entries(stored),
                timing.memory_peak_bytes.get(i).copied().flatten(),
            );
            let (moves, startup) = (t.moves(), t.startup_answers());
            if moves.is_none() && startup.is_none() {
                return None;
            }
            let limit = limits.get(i);
            let mut line = format!("{}: ", label(s));
            match &moves {
                Some(m) => {
                    let _ = write!(line, "{}, wall {}", count(m.count, "move"), q(&m.wall_ms));
                    if let Some(l) = limit.filter(|l| l.clock == dojo_runner::TimeMode::Wall) {
                        let _ = write!(line, " (limit {})", ms(l.move_ms as f64));
                    }
                }
                None => line.push_str("0 moves"),
            }
            // Held against the move time plus the allowance, apart from
            // the moves (see `dojo_games::MoveTally::startup_answers`).
            if let Some(st) = &startup {
                let _ = write!(
                    line,
                    ", {} max {}",
                    count(st.count, "first answer"),
                    ms(st.wall_ms.max)
                );
                if let Some(l) = limit {
                    let _ = write!(line, " (limit {})", ms((l.move_ms + l.startup_ms) as f64));
                }
            }
            if let Some(cpu) = moves.as_ref().and_then(|m| m.cpu_ms.as_ref()) {
                let _ = write!(line, ", cpu {}", q(cpu));
                // Under the CPU clock the move limit holds the CPU time.
                if let Some(l) = limit.filter(|l| l.clock == dojo_runner::TimeMode::Cpu) {
                    let _ = write!(line, " (limit {})", ms(l.move_ms as f64));
                }
            }
            if let Some(mib) = t.peak_memory_mib() {
                let _ = write!(line, ", memory peak {mib:.1} MiB");
                if let Some(limit_mib) = limit.and_then(|l| l.memory_mib) {
                    let _ = write!(line, " (limit {limit_mib} MiB)");
                }
            }
            Some(line)
        })
        .collect()
}

/// `1 game`, `0 games`, `3 games`: a count with its noun in the right number.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if ["s", "x", "sh", "ch"].iter().any(|end| noun.ends_with(end)) {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conduct(crash: u64, invalid: u64) -> SeatConduct {
        SeatConduct {
            faults: dojo_runner::FaultCounts {
                crash,
                invalid,
                ..Default::default()
            },
            spawns: 1,
            unsolicited: 0,
            mode: dojo_runner::Mode::default(),
            first_invalid: None,
        }
    }

    fn first_line(c: &SeatConduct, prompts: usize, first: (u32, &str)) -> String {
        fault_forensics(&SeatFault {
            label: "player 2 (b)".to_owned(),
            conduct: c,
            prompts,
            first: Some((first.0, first.1.to_owned())),
            stderr: &[],
        })
        .remove(0)
    }

    #[test]
    fn a_seat_that_never_answered_could_not_start_and_one_that_did_faulted() {
        assert_eq!(
            first_line(&conduct(6, 0), 0, (1, "crash")),
            "player 2 (b) could not start: it crashed on every one of its 6 prompts \
             without answering (the first in round 1)"
        );
        // An answer, however bad, and then crashes: it started.
        assert_eq!(
            first_line(&conduct(5, 1), 1, (1, "invalid")),
            "player 2 (b) faulted: 5 crashes, 1 invalid answer \
             (the first, an invalid answer, in round 1)"
        );
        // Two good answers, then crashes.
        assert!(first_line(&conduct(4, 0), 2, (3, "crash")).contains("faulted: 4 crashes"));
    }
}

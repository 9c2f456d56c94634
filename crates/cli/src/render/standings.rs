//! The league standings and head-to-head table as text.

use std::fmt::Write as _;

use dojo_games::Quantiles;
use dojo_league::Report;
use dojo_league::stop::{GauntletSprt, TestState};
use dojo_runner::TimeMode;

/// The standings of the league in `dir`: an incomplete one ends with the
/// command that finishes it, from any directory, or while a league is
/// `running` on `dir` (whose resume would be refused), says so.
pub fn table(report: &Report, dir: &std::path::Path, running: bool) -> String {
    let mut out = String::new();
    let width = report
        .standings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>6}  {:>15}  {:>6}  {:>15}  {:>7}  {:>15}  faults (timeout/crash/invalid/limit/restart)",
        "rank", "bot", "elo", "95% interval", "games", "W/D/L", "score", "slowest/limit"
    );
    for s in &report.standings {
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6.0}  {:>15}  {:>6}  {:>15}  {:>6.1}%  {:>15}  {}/{}/{}/{}/{}{}",
            s.rank,
            s.name,
            s.rating,
            format!("[{:.0}, {:.0}]", s.rating_lo, s.rating_hi),
            s.games,
            format!("{}/{}/{}", s.wins, s.draws, s.losses),
            s.score_pct,
            slowest(
                s.moves.as_ref(),
                clock(report, &s.name),
                move_limit_ms(report, &s.name)
            ),
            s.faults.timeout,
            s.faults.crash,
            s.faults.invalid,
            s.faults.limit,
            s.faults.restart,
            if s.flagged { "  FAULTY" } else { "" }
        );
    }
    cpu_clock_line(&mut out, report);
    head_to_head(&mut out, report, dir, width);
    for s in report.standings.iter().filter(|s| s.flagged) {
        let faults = s.faults.total();
        let faulty = match faulty_games(report, s) {
            Some(words) => format!(", {words}"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "\nwarning: {} faulted {} in {} (timeout/crash/invalid/limit){faulty}; its rating says little (see its stderr log in the out directory)",
            s.name,
            super::count(faults, "time"),
            super::count(s.games, "game")
        );
    }
    // A bot not FAULTY can still lose games by forfeit: say how many.
    for s in report.standings.iter().filter(|s| !s.flagged) {
        if let Some(words) = faulty_games(report, s) {
            let _ = writeln!(out, "\n{}: {words}", s.name);
        }
    }
    for c in &report.concentrated_faults {
        let _ = writeln!(
            out,
            "\nnote: {} was faulty in {} of its {} against {} and in {} of its {} others: faults that fall on one opponent hand it those games (two entries of one author can collude so: docs/guide.md, A folder of submissions)",
            c.bot,
            c.faulty,
            super::count(c.games, "game"),
            c.opponent,
            c.faulty_elsewhere,
            c.games_elsewhere
        );
    }
    for s in &report.standings {
        slow_start_line(&mut out, report, s);
    }
    for s in &report.standings {
        if let Some(f) = &s.first_fault {
            first_fault_lines(&mut out, &s.name, f);
        }
    }
    for s in report.standings.iter().filter(|s| s.faults.limit > 0) {
        let kinds: Vec<String> = s
            .faults
            .limits_hit
            .entries()
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "\n{} ran into a resource limit {}: {}",
            s.name,
            super::count(s.faults.limit, "time"),
            kinds.join(", ")
        );
    }
    if let Some(sprt) = &report.sprt {
        sprt_lines(&mut out, sprt, width);
    }
    for r in &report.replaced {
        let _ = writeln!(
            out,
            "\n{} was replaced by a new version ({}); {} of the old version ({}) are kept in games.jsonl, retired, and count nowhere",
            r.name,
            r.command,
            super::count(r.retired_games, "game"),
            r.old_command.as_deref().unwrap_or("?")
        );
    }
    let t = &report.totals;
    let _ = writeln!(
        out,
        "\n{} games ({} decisive, {} drawn{}) of {} scheduled{}",
        t.games,
        t.decisive,
        t.drawn,
        if t.split > 0 {
            format!(", {} where the others drew and a faulty side lost", t.split)
        } else {
            String::new()
        },
        report.games_scheduled,
        if report.complete {
            String::new()
        } else if running {
            " (incomplete: a league is being played on this directory now)".to_owned()
        } else {
            format!(" (incomplete: `{}` finishes it)", resume_command(dir))
        }
    );
    let _ = writeln!(out, "fault policy: {}", report.conditions.faults.describe());
    out
}

/// `faulty in 95 of 400 games (...)`: the games in which a seat of the
/// bot was faulty under the league's fault policy, and what that cost it;
/// `None` when there were none.
fn faulty_games(report: &Report, s: &dojo_league::report::Standing) -> Option<String> {
    if s.faulty_games == 0 {
        return None;
    }
    let cost = match report.conditions.faults {
        dojo_league::FaultPolicy::Forfeit { .. } => {
            "lost by forfeit under the league's fault policy, or drawn where every side was faulty"
        }
        dojo_league::FaultPolicy::Fallback => {
            "not forfeited: under the league's fallback fault policy the faults were played as default moves and the board decided"
        }
    };
    Some(format!(
        "faulty in {} of {} ({cost})",
        s.faulty_games,
        super::count(s.games, "game")
    ))
}

/// A league of up to this many pairs (a round robin of 8 bots; any
/// gauntlet of up to 29) shows every pair head to head; a larger one,
/// whose pairs grow with the square of its bots (190 for 20), shows each
/// bot against the next in the standings.
pub const ALL_PAIRS_UP_TO: usize = 28;

/// The head-to-head lines: every pair in a small league; in a larger one
/// only the pairs of bots next to each other in the standings (where a
/// head-to-head says most: whether the bot ranked above also beat the one
/// below), saying so, and where the whole table is.
fn head_to_head(out: &mut String, report: &Report, dir: &std::path::Path, width: usize) {
    if report.pairs.is_empty() {
        return;
    }
    let line = |out: &mut String, a: &str, b: &str, pct: f64, games: u64| {
        let _ = writeln!(
            out,
            "  {a:<width$} vs {b:<width$}  {pct:>6.1}%  over {games} games"
        );
    };
    if report.pairs.len() <= ALL_PAIRS_UP_TO {
        let _ = writeln!(out, "\nhead to head (score of the first bot):");
        for p in &report.pairs {
            line(out, &p.a, &p.b, p.score_a_pct, p.games);
        }
        return;
    }
    let abs = crate::output::absolute(dir);
    let page = [
        "dojo",
        "report",
        &abs.display().to_string(),
        "--html",
        "FILE",
    ]
    .map(String::from);
    let _ = writeln!(
        out,
        "\nhead to head (score of the first bot), each bot against the next in the standings: \
         with {} bots the whole table is {}, in {} (`pairs`) and on the report page \
         (`{}`):",
        report.standings.len(),
        super::count(report.pairs.len() as u64, "pair"),
        abs.join(dojo_league::store::REPORT_FILE).display(),
        dojo_league::view::shell_line(&page)
    );
    for next in report.standings.windows(2) {
        let (a, b) = (&next[0].name, &next[1].name);
        let pair = report.pairs.iter().find_map(|p| {
            if (&p.a, &p.b) == (a, b) {
                Some((p.score_a_pct, p.games))
            } else if (&p.a, &p.b) == (b, a) {
                Some((100.0 - p.score_a_pct, p.games))
            } else {
                None
            }
        });
        // Two bots that never met (a gauntlet's opponents) have no line.
        if let Some((pct, games)) = pair {
            line(out, a, b, pct, games);
        }
    }
}

/// `dojo league --resume DIR`, DIR absolute and quoted for a shell.
pub(crate) fn resume_command(dir: &std::path::Path) -> String {
    let dir = crate::output::absolute(dir).display().to_string();
    dojo_league::view::shell_line(&["dojo", "league", "--resume", &dir].map(String::from))
}

/// A bot's first fault (`report.json`'s `first_fault`) as `dojo match`
/// explains a faulty seat: where, and the end of its stderr in that game.
pub(crate) fn first_fault_lines(
    out: &mut String,
    bot: &str,
    f: &dojo_league::report::StandingFault,
) {
    let _ = writeln!(out, "\n{bot}: {}", first_fault_words(f));
    if let Some(reason) = &f.invalid {
        let _ = writeln!(out, "  its answer: {}", super::untrusted::line(reason));
        let _ = writeln!(out, "  ({})", dojo_games::record::STDOUT_HINT);
    }
    if f.stderr_tail.is_empty() {
        let _ = writeln!(out, "  stderr in that game: nothing");
    } else {
        let _ = writeln!(out, "  stderr, the last lines it wrote in that game:");
        for line in &f.stderr_tail {
            let _ = writeln!(out, "    | {}", super::untrusted::line(line));
        }
    }
}

/// `first crash: game 12, round 3`, as the text report and the page say
/// it.
fn first_fault_words(f: &dojo_league::report::StandingFault) -> String {
    match f.round {
        Some(round) => format!("first {}: game {}, round {round}", f.kind.word(), f.game),
        None => format!("first {}: game {}", f.kind.word(), f.game),
    }
}

/// The move time limit `bot` played under, in ms: its own where its
/// `bot.toml` has one, else the league's.
pub fn move_limit_ms(report: &Report, bot: &str) -> u64 {
    let c = &report.conditions;
    c.bots
        .iter()
        .find(|b| b.name == bot)
        .map_or(c.time.timeout_ms, |b| b.time.timeout_ms)
}

/// The clock `bot`'s moves were held to (`--time`, as [`move_limit_ms`]).
fn clock(report: &Report, bot: &str) -> TimeMode {
    let c = &report.conditions;
    c.bots
        .iter()
        .find(|b| b.name == bot)
        .map_or(c.time.mode, |b| b.time.mode)
}

/// The slowest of `figures` on `clock`: under `--time cpu` their CPU
/// time (what the limit held), else, or where no CPU time was measured,
/// their wall time.
fn slowest_on(wall: &Quantiles, cpu: Option<&Quantiles>, clock: TimeMode) -> f64 {
    match (clock, cpu) {
        (TimeMode::Cpu, Some(cpu)) => cpu.max,
        _ => wall.max,
    }
}

/// The start-up allowance `bot` played under, in ms (as
/// [`move_limit_ms`]): its answers that had it were held against the move
/// limit plus this.
fn startup_ms(report: &Report, bot: &str) -> u64 {
    let c = &report.conditions;
    c.bots
        .iter()
        .find(|b| b.name == bot)
        .map_or(c.time.startup_ms, |b| b.time.startup_ms)
}

/// Under the table, a bot whose slowest answer with its start (left out
/// of the `slowest/limit` column, which holds moves against the move
/// limit alone) took over half of what it was allowed, as `dojo check`
/// warns: a slower or busier machine may time its start out.
fn slow_start_line(out: &mut String, report: &Report, s: &dojo_league::report::Standing) {
    let Some(st) = &s.startup_answers else {
        return;
    };
    let allowed = (move_limit_ms(report, &s.name) + startup_ms(report, &s.name)) as f64;
    let clock = clock(report, &s.name);
    let slowest = slowest_on(&st.wall_ms, st.cpu_ms.as_ref(), clock);
    if slowest * 2.0 <= allowed {
        return;
    }
    let cpu = if clock == TimeMode::Cpu && st.cpu_ms.is_some() {
        " of CPU time"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "\n{}: slowest first answer (its start included) {}{cpu} of the {} allowed ({:.0}%; move {} + start-up {}); first answers are not in slowest/limit",
        s.name,
        ms(slowest),
        ms(allowed),
        100.0 * slowest / allowed,
        ms(move_limit_ms(report, &s.name) as f64),
        ms(startup_ms(report, &s.name) as f64),
    );
}

/// A bot's slowest move against its limit, `412ms/1000ms`, on the clock
/// the limit held (`--time cpu`: CPU time; see [`cpu_clock_line`]); `-`
/// before any move was timed, as in a report from before move times.
/// Answers that had the start-up allowance are not moves here (see
/// `dojo_games::MoveTally::startup_answers`).
fn slowest(moves: Option<&dojo_games::MoveFigures>, clock: TimeMode, limit_ms: u64) -> String {
    match moves {
        Some(m) => format!(
            "{}/{}",
            ms(slowest_on(&m.wall_ms, m.cpu_ms.as_ref(), clock)),
            ms(limit_ms as f64)
        ),
        None => "-".to_owned(),
    }
}

/// Under the table of a league played on the CPU clock, what its
/// `slowest/limit` column holds.
fn cpu_clock_line(out: &mut String, report: &Report) {
    if report
        .standings
        .iter()
        .any(|s| clock(report, &s.name) == TimeMode::Cpu)
    {
        let _ = writeln!(
            out,
            "\nslowest/limit: CPU time per move, the clock --time cpu holds (report.json has the wall times too)"
        );
    }
}

/// Milliseconds in as few digits as say it: `0.04ms`, `3.7ms`, `6550ms`.
pub fn ms(ms: f64) -> String {
    if ms < 1.0 {
        format!("{ms:.2}ms")
    } else if ms < 10.0 {
        format!("{ms:.1}ms")
    } else {
        format!("{ms:.0}ms")
    }
}

/// A gauntlet's stop rule: one line per opponent's test.
fn sprt_lines(out: &mut String, sprt: &GauntletSprt, width: usize) {
    let _ = writeln!(
        out,
        "\nsprt {}, one test of {} per opponent (elo: {} minus the opponent):",
        sprt.params, sprt.new, sprt.new
    );
    for t in &sprt.opponents {
        let state = match t.state {
            TestState::H1 => "H1 (passes)",
            TestState::H0 => "H0 (worse)",
            TestState::Inconclusive => "inconclusive at the game limit",
            TestState::Open => "open (--resume to go on)",
        };
        let _ = writeln!(
            out,
            "  vs {:<width$}  {:<30}  elo {:+.1} [{:+.1}, {:+.1}]  llr {:.2} [{:.2}, {:.2}]  {} pairs",
            t.opponent, state, t.elo.elo, t.elo.lo, t.elo.hi, t.llr, t.lower, t.upper, t.pairs
        );
    }
}

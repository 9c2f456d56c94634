//! `dojo compare`'s result and its outputs: the summary and progress on
//! the terminal, `--json`, `--html` and `--junit` (its suite here, its
//! XML by [`super::junit`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use dojo_league::compare::{
    BlockRecord, CompareProgress, CompareReport, CompareSettings, Conclusion, Unit,
};
use dojo_league::sprt::{SequentialTest, naive_estimate};
use dojo_league::view;
use dojo_runner::BotSpec;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::junit::{AsJunit, Case, Junit, Suite, Verdict, VerdictKind};
use super::{Files, Format, Output, Run};

/// A comparison's result: who played and how, and the library's report.
pub struct Compared {
    pub run: RunInfo,
    pub report: CompareReport,
}

/// How the terminal shows a comparison's progress.
pub struct Setup {
    /// Blocks at most.
    pub max_blocks: u64,
    /// "pair" or "block".
    pub unit: &'static str,
    /// A line per block (`--verbose`).
    pub verbose: bool,
}

impl Run for Compared {
    const FORMATS: &'static [Format] = &[Format::Json, Format::Html, Format::Junit];
    type Listener = dyn CompareProgress;
    type Setup = Setup;

    fn outputs(files: &Files, setup: Setup) -> Vec<Box<dyn Output<Self>>> {
        let mut outputs: Vec<Box<dyn Output<Self>>> = vec![Box::new(Terminal(BlockProgress::new(
            setup.max_blocks,
            setup.unit,
            setup.verbose,
        )))];
        for format in Format::ALL {
            let Some(path) = files.path(format).map(Path::to_owned) else {
                continue;
            };
            outputs.push(match format {
                Format::Json => Box::new(Json(path)),
                Format::Html => Box::new(Page(path)),
                Format::Junit => Box::new(Junit::new(path)),
            });
        }
        outputs
    }
}

/// The blocks as they are counted heard by every output that listens.
impl CompareProgress for super::Outputs<Compared> {
    fn block_done(&mut self, block: &BlockRecord, test: &SequentialTest) {
        for listener in self.listeners() {
            listener.block_done(block, test);
        }
    }
}

/// The terminal: progress on stderr, the summary on stdout.
struct Terminal(BlockProgress);

impl Output<Compared> for Terminal {
    fn listener(&mut self) -> Option<&mut (dyn CompareProgress + 'static)> {
        Some(&mut self.0)
    }

    fn finish(&mut self, result: &Compared) -> Result<()> {
        self.0.finish();
        out!("{}", summary(&result.report));
        Ok(())
    }
}

/// `--json`: [`JsonReport`].
struct Json(PathBuf);

impl Output<Compared> for Json {
    fn finish(&mut self, result: &Compared) -> Result<()> {
        let json = JsonReport::new(&result.run, &result.report);
        match crate::output::write_json(&self.0, &json) {
            // A reader of `--json -` that went away is no error, and must
            // not change the verdict's status (a CI gate reads it).
            Err(e) if crate::output::is_broken_pipe(&e) => Ok(()),
            written => {
                written?;
                outln!("report: {}", self.0.display());
                Ok(())
            }
        }
    }
}

/// `--html`: [`write_page`].
struct Page(PathBuf);

impl Output<Compared> for Page {
    fn finish(&mut self, result: &Compared) -> Result<()> {
        write_page(&self.0, &result.run, &result.report)?;
        super::say_written("report page", &self.0);
        Ok(())
    }
}

/// A bot as the JSON report names it.
#[derive(Debug, Serialize)]
pub struct BotInfo {
    /// The argument it was given as.
    spec: String,
    pub name: String,
    command: Vec<String>,
    dir: String,
    /// The bot's own limits and time from its `bot.toml`, applied over
    /// the comparison's (left out when it has none).
    #[serde(skip_serializing_if = "dojo_runner::BotValues::is_empty")]
    values: dojo_runner::BotValues,
}

impl BotInfo {
    /// The bot as a command run from any directory names it
    /// ([`crate::rerun::bot_word`]).
    fn rerun_word(&self) -> String {
        crate::rerun::bot_word(&self.name, Some(Path::new(&self.dir)), &self.command)
    }

    pub fn new(spec: &str, bot: &BotSpec) -> BotInfo {
        BotInfo {
            spec: spec.to_owned(),
            name: bot.name.clone(),
            command: bot.command.clone(),
            dir: bot.dir.display().to_string(),
            values: bot.values,
        }
    }
}

/// The clock and the resource limits every bot ran under (a bot's own
/// values are in its `BotInfo`), spelled out as a league's report does.
pub type Conditions = dojo_league::report::Spelled;

/// `--json`: `version` first, the bots and run options, then the library's
/// report field by field (destructured in [`JsonReport::new`], so a field
/// added to the report cannot be forgotten here). The schema is documented
/// in `crates/stats/SPRT.md`.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    version: u32,
    new: &'a BotInfo,
    base: &'a BotInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    third: Option<&'a BotInfo>,
    jobs: usize,
    timeout_ms: u64,
    startup_ms: u64,
    conditions: &'a Conditions,
    settings: &'a CompareSettings,
    model: &'a dojo_league::compare::CompareModel,
    verdict: Conclusion,
    blocks_played: u64,
    games_played: u64,
    outcomes: &'a dojo_league::sprt::Outcomes,
    new_score: f64,
    llr: f64,
    bounds: dojo_league::compare::Bounds,
    elo: dojo_league::sprt::EloEstimate,
    elo_naive: dojo_league::sprt::EloEstimate,
    note: Option<dojo_league::sprt::SampleNote>,
    faults: dojo_league::compare::RoleFaults,
    figures: dojo_league::compare::RoleFigures,
    #[serde(skip_serializing_if = "Option::is_none")]
    broken: &'a Option<dojo_league::compare::Broken>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    first_faults: &'a [dojo_league::compare::FaultyGame],
    trace: &'a [dojo_league::compare::TracePoint],
    blocks: &'a [BlockRecord],
    #[serde(skip_serializing_if = "Option::is_none")]
    nondeterministic: &'a Option<dojo_league::compare::Nondeterministic>,
}

/// Who played and how, for [`JsonReport`].
#[derive(Debug)]
pub struct RunInfo {
    pub new: BotInfo,
    pub base: BotInfo,
    pub third: Option<BotInfo>,
    pub jobs: usize,
    pub conditions: Conditions,
}

impl<'a> JsonReport<'a> {
    fn new(run: &'a RunInfo, report: &'a CompareReport) -> JsonReport<'a> {
        let CompareReport {
            version,
            settings,
            model,
            verdict,
            blocks_played,
            games_played,
            outcomes,
            new_score,
            llr,
            bounds,
            elo,
            elo_naive,
            note,
            faults,
            figures,
            broken,
            first_faults,
            trace,
            blocks,
            nondeterministic,
        } = report;
        JsonReport {
            version: *version,
            new: &run.new,
            base: &run.base,
            third: run.third.as_ref(),
            jobs: run.jobs,
            timeout_ms: run.conditions.time.timeout_ms,
            startup_ms: run.conditions.time.startup_ms,
            conditions: &run.conditions,
            settings,
            model,
            verdict: *verdict,
            blocks_played: *blocks_played,
            games_played: *games_played,
            outcomes,
            new_score: *new_score,
            llr: *llr,
            bounds: *bounds,
            elo: *elo,
            elo_naive: *elo_naive,
            note: *note,
            faults: *faults,
            figures: *figures,
            broken,
            first_faults,
            trace,
            blocks,
            nondeterministic,
        }
    }
}

/// The comparison's HTML page: who played and how, the library's report
/// (with its trace), and the command line as run, made to work from any
/// directory ([`crate::rerun::command_line`]).
fn write_page(path: &Path, run: &RunInfo, report: &CompareReport) -> Result<()> {
    #[derive(Serialize)]
    struct Who<'a> {
        new: &'a BotInfo,
        base: &'a BotInfo,
        third: Option<&'a BotInfo>,
        jobs: usize,
        timeout_ms: u64,
        startup_ms: u64,
    }
    let who = Who {
        new: &run.new,
        base: &run.base,
        third: run.third.as_ref(),
        jobs: run.jobs,
        timeout_ms: run.conditions.time.timeout_ms,
        startup_ms: run.conditions.time.startup_ms,
    };
    let argv: Vec<String> = std::iter::once("dojo".to_owned())
        .chain(std::env::args().skip(1))
        .collect();
    let bots: Vec<(String, String)> = [Some(&run.new), Some(&run.base), run.third.as_ref()]
        .into_iter()
        .flatten()
        .map(|b| (b.spec.clone(), b.rerun_word()))
        .collect();
    let cli = <crate::args::Cli as clap::CommandFactory>::command();
    let argv = crate::rerun::command_line(&cli, &argv, &bots);
    let words = verdict_words(report);
    let text = view::CompareText {
        verdict: words.claim,
        next: words.next,
        note: (report.note).map(|n| n.message(unit_name(&report.settings))),
        bounds: bounds_gloss(&report.bounds),
        nondeterministic: (report.nondeterministic.as_ref())
            .map(|n| nondeterminism_note(n, unit_name(&report.settings))),
    };
    let page = view::compare_view(report, who, view::shell_line(&argv), text);
    let title = format!("dojo compare: {} vs {}", run.new.name, run.base.name);
    crate::html::write(path, &crate::html::compare(&title, &page)?)
}

/// `--junit`: the comparison is one test case, "NEW is not worse than
/// BASE": it passes when NEW passes (H1), fails when NEW is worse (H0),
/// is skipped when the test was inconclusive at the game limit, and is an
/// error when there is no verdict (a broken bot, an interruption). The
/// terminal's summary is its text, the settings and figures the suite's
/// properties.
impl AsJunit for Compared {
    fn suite(&self) -> Suite {
        let r = &self.report;
        let game = r.settings.game.name();
        let (new, base) = (&self.run.new.name, &self.run.base.name);
        let elo = |e: f64| signed(e, 1);
        let mut properties: Vec<(String, String)> = vec![
            ("new".into(), new.clone()),
            ("base".into(), base.clone()),
            ("sprt".into(), r.settings.sprt.to_string()),
            ("seed".into(), r.settings.seed.to_string()),
            ("games_played".into(), r.games_played.to_string()),
            ("llr".into(), format!("{:.3}", r.llr)),
            (
                "elo".into(),
                format!("{} [{}, {}]", elo(r.elo.elo), elo(r.elo.lo), elo(r.elo.hi)),
            ),
            ("verdict".into(), format!("{:?}", r.verdict).to_lowercase()),
        ];
        if let Some(third) = &self.run.third {
            properties.insert(2, ("third".into(), third.name.clone()));
        }
        Suite {
            name: format!("dojo compare {game}"),
            properties,
            cases: vec![Case {
                classname: format!("dojo.compare.{game}"),
                name: format!("NEW {new} is not worse than BASE {base}"),
                verdict: junit_verdict(r),
                system_out: summary(r),
            }],
        }
    }
}

/// Why the comparison's test case did not pass, if it did not.
fn junit_verdict(r: &CompareReport) -> Option<Verdict> {
    let (kind, reason, message) = match r.verdict {
        Conclusion::H1 => return None,
        Conclusion::H0 => (
            VerdictKind::Failure,
            "H0",
            format!("NEW is worse: H0 accepted: {}", verdict_words(r).claim),
        ),
        Conclusion::Inconclusive => {
            let words = verdict_words(r);
            (
                VerdictKind::Skipped,
                "inconclusive",
                format!(
                    "inconclusive: {}; {}",
                    words.claim,
                    words.next.unwrap_or_default()
                ),
            )
        }
        Conclusion::Cancelled => (
            VerdictKind::Error,
            "interrupted",
            "no verdict: the comparison was interrupted".to_owned(),
        ),
        Conclusion::Broken => (
            VerdictKind::Error,
            "broken",
            match &r.broken {
                Some(b) => format!(
                    "no verdict: {} is broken: {}",
                    b.role.to_uppercase(),
                    b.reason
                ),
                None => "no verdict: a bot is broken".to_owned(),
            },
        ),
    };
    Some(Verdict {
        kind,
        reason,
        message,
    })
}

/// `x` with a sign and `decimals` decimals, never as "-0.0" (a tiny
/// negative estimate of a balanced sample would otherwise print so).
pub(crate) fn signed(x: f64, decimals: usize) -> String {
    let scale = 10f64.powi(decimals as i32);
    let rounded = (x * scale).round() / scale;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    format!("{rounded:+.decimals$}")
}

/// "pair" (CardJitsu) or "block" (royale).
pub fn unit_name(settings: &CompareSettings) -> &'static str {
    match settings.games_per_block() {
        2 => "pair",
        _ => "block",
    }
}

/// The human-readable result.
pub(crate) fn summary(r: &CompareReport) -> String {
    let p = &r.settings.sprt;
    let model = serde_json::to_value(p.model)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        "Elo difference (NEW - BASE): {}, 95% interval [{}, {}] (median-unbiased, logistic)",
        signed(r.elo.elo, 1),
        signed(r.elo.lo, 1),
        signed(r.elo.hi, 1)
    ));
    if let Some(note) = r.note {
        line(format!("note: {}", note.message(unit_name(&r.settings))));
    }
    let counts = r
        .outcomes
        .counts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>();
    match r.model.unit {
        Unit::Pair => {
            line(format!(
                "games: {} in {}, NEW scores {:.1}%",
                r.games_played,
                crate::output::count(
                    usize::try_from(r.blocks_played).unwrap_or(usize::MAX),
                    "seat-swapped pair"
                ),
                100.0 * r.new_score
            ));
            line(format!(
                "pairs by NEW's points (0, 0.5, 1, 1.5, 2): {}",
                counts.join(", ")
            ));
        }
        Unit::Block => {
            line(format!(
                "games: {} in {} blocks of {} (one board and seed, every team rotation), NEW scores {:.1}%",
                r.games_played,
                r.blocks_played,
                r.model.games_per_unit,
                100.0 * r.new_score
            ));
            line(format!(
                "blocks by NEW's points (0, 0.5, ..., {}): {}",
                r.model.games_per_unit,
                counts.join(", ")
            ));
        }
    }
    line(format!(
        "LLR: {:.3}, bounds [{:.3}, {:.3}]: {}",
        r.llr,
        r.bounds.lower,
        r.bounds.upper,
        bounds_gloss(&r.bounds)
    ));
    line(format!(
        "test: GSPRT on {} scores, {model} Elo, H0: elo0={}, H1: elo1={}, alpha={}, beta={}",
        match r.model.unit {
            Unit::Pair => "pair",
            Unit::Block => "block",
        },
        p.elo0,
        p.elo1,
        p.alpha,
        p.beta
    ));
    for (role, f, faulty) in [
        ("NEW", r.faults.new, r.faults.new_faulty_games),
        ("BASE", r.faults.base, r.faults.base_faulty_games),
        ("the third bot", r.faults.third, r.faults.third_faulty_games),
    ] {
        if f.total() + f.restart > 0 {
            line(format!(
                "faults of {role}: {} timeouts, {} crashes, {} invalid answers, {} limits hit ({} restarts); faulty in {faulty} of {} games",
                f.timeout, f.crash, f.invalid, f.limit, f.restart, r.games_played
            ));
        }
    }
    for (role, fig) in [("NEW", r.figures.new), ("BASE", r.figures.base)] {
        if let Some(m) = fig.moves {
            use crate::render::standings::ms;
            let memory = fig
                .peak_memory_mib
                .map(|mib| format!(", memory peak {mib:.1} MiB"))
                .unwrap_or_default();
            // Answers that had the start-up allowance, apart from the
            // moves: they are held against a longer limit.
            let startup = fig
                .startup_answers
                .map(|st| {
                    format!(
                        ", {} max {}",
                        crate::render::count(st.count, "first answer"),
                        ms(st.wall_ms.max)
                    )
                })
                .unwrap_or_default();
            line(format!(
                "times of {role}: {} moves, wall p50 {} p95 {} max {}{startup}{memory}",
                m.count,
                ms(m.wall_ms.p50),
                ms(m.wall_ms.p95),
                ms(m.wall_ms.max)
            ));
        }
    }
    line(format!("fault policy: {}", r.settings.faults.describe()));
    let words = verdict_words(r);
    line(match r.verdict {
        Conclusion::H1 => format!("verdict: H1 accepted, NEW passes: {}", words.claim),
        Conclusion::H0 => format!("verdict: H0 accepted, NEW fails: {}", words.claim),
        Conclusion::Inconclusive => format!("verdict: inconclusive: {}", words.claim),
        Conclusion::Cancelled => "verdict: none, interrupted".to_owned(),
        Conclusion::Broken => match &r.broken {
            Some(b) => format!(
                "verdict: none, {} is broken: {}",
                b.role.to_uppercase(),
                b.reason
            ),
            None => "verdict: none, a bot is broken".to_owned(),
        },
    });
    if let Some(next) = words.next {
        line(next);
    }
    // Why, as a league shows a faulty bot: its first crash (else fault),
    // its answer if invalid, and its stderr up to it; then that game, to
    // be played on its own. Every role that faulted, whatever the
    // verdict: a fault is a bug to fix even in a bot that passes.
    for game in &r.first_faults {
        faulty_game_lines(&mut out, game, unit_name(&r.settings));
    }
    if let Some(b) = &r.broken
        && let Some(f) = &b.first_fault
        && !r.first_faults.iter().any(|g| g.role == b.role)
    {
        crate::render::standings::first_fault_lines(&mut out, &b.role.to_uppercase(), f);
    }
    if let Some(n) = &r.nondeterministic {
        out.push_str(&nondeterminism_note(n, unit_name(&r.settings)));
        out.push('\n');
    }
    out
}

/// A role's first fault, as a league shows it, and the game it came in:
/// its number, place and seed, and the `dojo match` command that plays
/// it again on its own (when there is one).
fn faulty_game_lines(out: &mut String, game: &dojo_league::compare::FaultyGame, unit: &str) {
    use std::fmt::Write as _;
    crate::render::standings::first_fault_lines(out, &game.role.to_uppercase(), &game.fault);
    let board = (game.board.as_deref())
        .map(|b| format!(", board {}", crate::render::untrusted::line(b)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "  game {} is {unit} {}'s game {} (seats: {}), seed {}{board}",
        game.fault.game,
        game.block + 1,
        u32::from(game.leg) + 1,
        game.seats.join(", ").to_uppercase(),
        game.seed
    );
    if let Some(command) = &game.command {
        let _ = writeln!(out, "  play it on its own, from this directory:");
        let _ = writeln!(out, "    {}", crate::render::untrusted::line(command));
    }
}

/// The verdict in the words an author deciding whether to merge NEW reads,
/// shared by the text, the page and the JUnit report.
#[derive(Debug, Clone)]
pub(crate) struct VerdictWords {
    /// What the test found NEW to be against BASE, with the estimate:
    /// "NEW is not worse than BASE by 10 Elo or more; estimate +59.5 Elo
    /// [+40.1, +78.9]".
    pub claim: String,
    /// What to do next, when there is no decision to act on.
    pub next: Option<String>,
}

/// `x` as a bound of the test's window: "10", "2.5".
fn elo_words(x: f64) -> String {
    format!("{}", x.abs())
}

/// "NEW − BASE > `elo`" in words: what accepting H1 says (with error
/// rate alpha when the difference is `elo0` or less).
fn above(elo: f64) -> String {
    if elo < 0.0 {
        format!(
            "NEW is not worse than BASE by {} Elo or more",
            elo_words(elo)
        )
    } else if elo == 0.0 {
        "NEW is better than BASE".to_owned()
    } else {
        format!(
            "NEW is better than BASE by more than {} Elo",
            elo_words(elo)
        )
    }
}

/// "NEW − BASE < `elo`" in words: what accepting H0 says (with error
/// rate beta when the difference is `elo1` or more).
fn below(elo: f64) -> String {
    if elo > 0.0 {
        format!(
            "NEW is not better than BASE by {} Elo or more",
            elo_words(elo)
        )
    } else if elo == 0.0 {
        "NEW is worse than BASE".to_owned()
    } else {
        format!("NEW is worse than BASE by more than {} Elo", elo_words(elo))
    }
}

/// The verdict of `r` in plain words ([`VerdictWords`]).
pub(crate) fn verdict_words(r: &CompareReport) -> VerdictWords {
    let p = &r.settings.sprt;
    let estimate = format!(
        "estimate {} Elo [{}, {}]",
        signed(r.elo.elo, 1),
        signed(r.elo.lo, 1),
        signed(r.elo.hi, 1)
    );
    let limit = u64::from(r.settings.games_per_block()) * r.settings.max_blocks();
    let (claim, next) = match r.verdict {
        Conclusion::H1 => (format!("{}; {estimate}", above(p.elo0)), None),
        Conclusion::H0 => (format!("{}; {estimate}", below(p.elo1)), None),
        Conclusion::Inconclusive => (
            format!(
                "no decision: the game limit ({limit} games) was reached before the test could tell; {estimate}"
            ),
            Some(format!(
                "next: raise --games (now {limit}) for a decision (the closer NEW is to BASE, the more games it takes: within about 10 Elo the default test needs 8000 or more), or widen the test's window (e.g. --sprt elo0={},elo1={}) for a quicker, coarser one; see docs/ci-compare.md",
                p.elo0 - 20.0,
                p.elo1
            )),
        ),
        Conclusion::Cancelled => ("interrupted before a decision".to_owned(), None),
        Conclusion::Broken => (
            match &r.broken {
                Some(b) => format!("{} is broken: {}", b.role.to_uppercase(), b.reason),
                None => "a bot is broken".to_owned(),
            },
            None,
        ),
    };
    VerdictWords { claim, next }
}

/// What the LLR's bounds are, for a reader who does not know Wald's test.
pub(crate) fn bounds_gloss(b: &dojo_league::compare::Bounds) -> String {
    format!(
        "the test stops when the LLR leaves them (Wald's bounds {:.3} and {:.3}, moved inward because the LLR's last step lands past a bound, not on it: the estimated overshoot; see crates/stats/SPRT.md)",
        b.wald_lower, b.wald_upper
    )
}

/// The note on a comparison whose first game came out differently when
/// played again: who is not deterministic, where it showed, and what that
/// means for the verdict.
fn nondeterminism_note(n: &dojo_league::compare::Nondeterministic, unit: &str) -> String {
    let role = |seat: usize| {
        format!(
            "{} (seat {})",
            n.seats.get(seat).map_or("?", String::as_str).to_uppercase(),
            seat + 1
        )
    };
    let who = match n.roles.as_slice() {
        [] => "a bot".to_owned(),
        roles => roles
            .iter()
            .map(|r| r.to_uppercase())
            .collect::<Vec<_>>()
            .join(" and "),
    };
    let verb = if n.roles.len() > 1 { "are" } else { "is" };
    format!(
        "note: {who} {verb} not deterministic: {unit} {}'s game {} (game seed {}), played again, came out differently: {}. \
         Its games cannot be reproduced, and the same command and seed may end with another verdict \
         (the games are still a fair sample of its play: the verdict holds as a statistical one)",
        n.block + 1,
        n.leg + 1,
        n.seed,
        n.parting.words(role)
    )
}

/// Progress on stderr: a bar on a terminal, a line every 10 s elsewhere,
/// or a line per block with `--verbose`.
enum BlockProgress {
    Bar(ProgressBar),
    Plain { last: Instant },
    EveryBlock(&'static str),
}

impl BlockProgress {
    fn new(max_blocks: u64, unit: &'static str, verbose: bool) -> BlockProgress {
        if verbose {
            BlockProgress::EveryBlock(unit)
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(max_blocks);
            let template = format!("{{bar:30.cyan/blue}} {{pos}}/{{len}} {unit}s  {{msg}}");
            bar.set_style(
                ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            BlockProgress::Bar(bar)
        } else {
            BlockProgress::Plain {
                last: Instant::now(),
            }
        }
    }

    fn finish(&self) {
        if let BlockProgress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

impl CompareProgress for BlockProgress {
    fn block_done(&mut self, block: &BlockRecord, test: &SequentialTest) {
        let counts = test.counts();
        let (lower, upper) = test.bounds();
        let e = naive_estimate(counts);
        let status = format!(
            "LLR {:.2} in [{lower:.2}, {upper:.2}], NEW {:.1}%, Elo {} [{}, {}]",
            test.llr(),
            100.0 * counts.score(),
            signed(e.elo, 0),
            signed(e.lo, 0),
            signed(e.hi, 0)
        );
        match self {
            BlockProgress::Bar(bar) => {
                bar.set_position(counts.blocks());
                bar.set_message(status);
            }
            BlockProgress::Plain { last } => {
                if last.elapsed() >= Duration::from_secs(10) {
                    *last = Instant::now();
                    errln!("progress: {} blocks, {status}", counts.blocks());
                }
            }
            BlockProgress::EveryBlock(unit) => errln!(
                "{unit} {}: NEW {} of {} points; {status}",
                block.block,
                block.new_points,
                block.games.len()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_never_print_as_minus_zero() {
        assert_eq!(signed(-1e-10, 1), "+0.0");
        assert_eq!(signed(-0.0, 0), "+0");
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(-0.06, 1), "-0.1");
        assert_eq!(signed(62.839, 1), "+62.8");
    }
}

//! `dojo compare`: NEW against BASE until the SPRT decides.
//!
//! Exit status (see [`crate::exit`]): 0 NEW passes (H1), 1 NEW is worse
//! (H0), 2 inconclusive at the game limit, 3 a usage or bot error, 130
//! interrupted.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use dojo_games::BotExecutor;
use dojo_league::compare::{
    BASE, BlockRecord, CompareProgress, CompareReport, CompareSettings, Conclusion, NEW, THIRD,
    Unit, run_compare,
};
use dojo_league::sprt::{SequentialTest, naive_estimate};
use dojo_league::view;
use dojo_runner::BotSpec;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::args::CompareArgs;
use crate::bots;

use crate::exit::ERROR as EXIT_ERROR;

/// Runs the comparison; errors are printed here and give status 3.
pub fn run(bots_dir: &Path, a: CompareArgs) -> ExitCode {
    match compare(bots_dir, a) {
        Ok(code) => code,
        Err(err) => {
            errln!("error: {err:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// A bot as the JSON report names it.
#[derive(Debug, Serialize)]
struct BotInfo {
    /// The argument it was given as.
    spec: String,
    name: String,
    command: Vec<String>,
    dir: String,
    /// The bot's own limits and time from its `bot.toml`, applied over
    /// the comparison's (left out when it has none).
    #[serde(skip_serializing_if = "dojo_runner::BotValues::is_empty")]
    values: dojo_runner::BotValues,
}

impl BotInfo {
    fn new(spec: &str, bot: &BotSpec) -> BotInfo {
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
type Conditions = dojo_league::report::Spelled;

/// `--json`: `version` first, the bots and run options, then the library's
/// report field by field (destructured in [`JsonReport::new`], so a field
/// added to the report cannot be forgotten here). The schema is documented
/// in `crates/stats/SPRT.md`.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    version: u32,
    new: BotInfo,
    base: BotInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    third: Option<BotInfo>,
    jobs: usize,
    timeout_ms: u64,
    startup_ms: u64,
    conditions: Conditions,
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
    trace: &'a [dojo_league::compare::TracePoint],
    blocks: &'a [BlockRecord],
}

/// Who played and how, for [`JsonReport`].
#[derive(Debug)]
struct RunInfo {
    new: BotInfo,
    base: BotInfo,
    third: Option<BotInfo>,
    jobs: usize,
    conditions: Conditions,
}

impl<'a> JsonReport<'a> {
    fn new(run: RunInfo, report: &'a CompareReport) -> JsonReport<'a> {
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
            trace,
            blocks,
        } = report;
        JsonReport {
            version: *version,
            new: run.new,
            base: run.base,
            third: run.third,
            jobs: run.jobs,
            timeout_ms: run.conditions.time.timeout_ms,
            startup_ms: run.conditions.time.startup_ms,
            conditions: run.conditions,
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
            trace,
            blocks,
        }
    }
}

fn compare(bots_dir: &Path, a: CompareArgs) -> Result<ExitCode> {
    crate::outpaths::check(
        &[a.json.named(), a.html.named()],
        &super::game_inputs(&a.play, &a.board),
    )?;
    let game = a.game;
    // What differs between games comes from the game's shape: a third
    // seat (a bot that is neither NEW nor BASE, by default the game's own)
    // and boards.
    let shape = game.shape();
    let default_third = game.extra_seat_bot();
    let third_seat = shape.seats() > 2;
    if (!third_seat && a.third.is_some()) || (!shape.board && !a.board.is_empty()) {
        bail!("--third and --board only apply to royale");
    }
    let play = super::play_options(game, &a.play, &dojo_league::PlayOptions::default())?;
    let controls = a.controls.controls();
    let options = crate::games::cli(game).executor_options(&play)?;
    let boards = if !shape.board {
        Vec::new()
    } else if a.board.is_empty() {
        crate::home::default_boards()?
    } else {
        a.board.iter().map(|p| p.display().to_string()).collect()
    };
    let settings = CompareSettings {
        game,
        sprt: a.sprt,
        games: a.games,
        seed: a.seed.given.unwrap_or(crate::args::DEFAULT_SERIES_SEED),
        boards,
        faults: a.faults.given.unwrap_or_default(),
    };
    settings.validate()?;

    let mut specs = vec![a.new.clone(), a.base.clone()];
    let third = match (a.third.clone(), default_third) {
        (Some(third), _) => third,
        (None, Some(default)) => default.to_owned(),
        (None, None) if third_seat => {
            bail!("{game} has seats beyond NEW and BASE; name their bot with --third")
        }
        (None, None) => String::new(),
    };
    if third_seat {
        specs.push(third.clone());
    }
    let loaded = bots::load(&specs, bots_dir, game.name())?;
    let mut by_role: BTreeMap<String, Arc<BotSpec>> = BTreeMap::new();
    for (role, bot) in [NEW, BASE, THIRD].into_iter().zip(&loaded) {
        by_role.insert(role.to_owned(), Arc::clone(bot));
    }
    let mut boards = BTreeMap::new();
    for name in &settings.boards {
        boards.insert(name.clone(), crate::home::load_board_text(Path::new(name))?);
    }
    let cancel = bots::on_ctrl_c(true);
    let mut run = crate::flags::warn_open_files(dojo_runner::RunOptions::from(controls));
    run.cancel = Some(Arc::clone(&cancel));
    let exec = BotExecutor {
        bots: by_role,
        boards,
        run,
        options,
        faults: settings.faults,
    };
    // Every bot must start and answer before a verdict can mean anything;
    // not even one game fitting the limit on open descriptors is refused
    // first.
    super::jobs_that_fit(1, shape.seats(), loaded.len(), exec.run.controls.sandbox)?;
    let roles = exec
        .bots
        .iter()
        .map(|(role, bot)| (format!("{} ({})", role.to_uppercase(), bot.name), bot));
    let failed = super::smoke_start(game, roles, &exec);
    if !failed.is_empty() {
        bail!(
            "{} cannot be started: no comparison is made (a bot that cannot answer would lose or win on its faults alone)",
            failed.join(" and ")
        );
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let jobs = super::jobs_that_fit(jobs, shape.seats(), loaded.len(), exec.run.controls.sandbox)?;
    let third_note = match loaded.get(2) {
        Some(third) => format!(" (third: {})", third.name),
        None => String::new(),
    };
    errln!(
        "compare: {game}, NEW {} vs BASE {}{third_note}; sprt {}; at most {} games, seed {}, {}",
        loaded[0].name,
        loaded[1].name,
        settings.sprt,
        u64::from(settings.games_per_block()) * settings.max_blocks(),
        settings.seed,
        crate::output::count(jobs, "job"),
    );

    let unit = unit_name(&settings);
    let mut progress = BlockProgress::new(settings.max_blocks(), unit, a.verbose);
    let report = run_compare(&settings, &exec, jobs, &mut progress, &cancel)?;
    progress.finish();
    out!("{}", summary(&report));

    let run = RunInfo {
        new: BotInfo::new(&a.new, &loaded[0]),
        base: BotInfo::new(&a.base, &loaded[1]),
        third: loaded.get(2).map(|bot| BotInfo::new(&third, bot)),
        jobs,
        conditions: Conditions::of(&controls),
    };
    if let Some(path) = a.html.path() {
        write_page(path, &run, &report)?;
    }
    if let Some(path) = a.json.path() {
        let json = JsonReport::new(run, &report);
        match crate::output::write_json(path, &json) {
            // A reader of `--json -` that went away is no error, and must
            // not change the verdict's status (a CI gate reads it).
            Err(e) if crate::output::is_broken_pipe(&e) => {}
            written => {
                written?;
                outln!("report: {}", path.display());
            }
        }
    }
    if let Some(path) = a.html.path() {
        outln!("report page: {}", path.display());
    }
    Ok(ExitCode::from(match report.verdict {
        Conclusion::H1 => crate::exit::SUCCESS,
        Conclusion::H0 => crate::exit::NEGATIVE,
        Conclusion::Inconclusive => crate::exit::INCONCLUSIVE,
        Conclusion::Cancelled => crate::bots::interrupted_status(),
        Conclusion::Broken => crate::exit::ERROR,
    }))
}

/// The comparison's HTML page: who played and how, the library's report
/// (with its trace), and the command line as run.
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
    let page = view::compare_view(report, who, view::shell_line(&argv));
    let title = format!("dojo compare: {} vs {}", run.new.name, run.base.name);
    crate::html::write(path, &crate::html::compare(&title, &page)?)
}

/// `x` with a sign and `decimals` decimals, never as "-0.0" (a tiny
/// negative estimate of a balanced sample would otherwise print so).
fn signed(x: f64, decimals: usize) -> String {
    let scale = 10f64.powi(decimals as i32);
    let rounded = (x * scale).round() / scale;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    format!("{rounded:+.decimals$}")
}

/// "pair" (CardJitsu) or "block" (royale).
fn unit_name(settings: &CompareSettings) -> &'static str {
    match settings.games_per_block() {
        2 => "pair",
        _ => "block",
    }
}

/// The human-readable result.
fn summary(r: &CompareReport) -> String {
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
                "games: {} in {} seat-swapped pairs, NEW scores {:.1}%",
                r.games_played,
                r.blocks_played,
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
        "LLR: {:.3}, bounds [{:.3}, {:.3}] (Wald [{:.3}, {:.3}] less the estimated overshoot)",
        r.llr, r.bounds.lower, r.bounds.upper, r.bounds.wald_lower, r.bounds.wald_upper
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
            line(format!(
                "times of {role}: {} moves, wall p50 {} p95 {} max {}{memory}",
                m.count,
                ms(m.wall_ms.p50),
                ms(m.wall_ms.p95),
                ms(m.wall_ms.max)
            ));
        }
    }
    line(format!("fault policy: {}", r.settings.faults.describe()));
    line(match r.verdict {
        Conclusion::H1 => format!(
            "verdict: H1 accepted, NEW passes (the data favour {} Elo over {})",
            p.elo1, p.elo0
        ),
        Conclusion::H0 => format!(
            "verdict: H0 accepted, NEW is worse (the data favour {} Elo over {})",
            p.elo0, p.elo1
        ),
        Conclusion::Inconclusive => format!(
            "verdict: inconclusive, the game limit ({}) was reached first",
            u64::from(r.settings.games_per_block()) * r.settings.max_blocks()
        ),
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
    out
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

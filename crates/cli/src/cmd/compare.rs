//! `dojo compare`: NEW against BASE until the SPRT decides.
//!
//! Exit status: 0 NEW passes (H1), 1 NEW is worse (H0), 2 inconclusive at
//! the game limit, 3 a usage or bot error or an interruption. Statuses 1
//! and 2 mean verdicts here, so this command reports its own errors
//! instead of leaving them to `main`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use dojo_league::GameKind;
use dojo_league::compare::{
    BASE, CompareProgress, CompareReport, CompareSettings, NEW, Outcome, PairRecord, THIRD,
    run_compare,
};
use dojo_league::exec::BotExecutor;
use dojo_league::sprt::Pentanomial;
use dojo_runner::BotSpec;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::args::{CompareArgs, GameArg};
use crate::bots;

use crate::exit::ERROR as EXIT_ERROR;

/// The royale third bot when `--third` is not given.
const DEFAULT_THIRD: &str = "royale-random-py";

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
}

impl BotInfo {
    fn new(spec: &str, bot: &BotSpec) -> BotInfo {
        BotInfo {
            spec: spec.to_owned(),
            name: bot.name.clone(),
            command: bot.command.clone(),
            dir: bot.dir.display().to_string(),
        }
    }
}

/// `--json`: the bots and run options, then the library's report.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    new: BotInfo,
    base: BotInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    third: Option<BotInfo>,
    jobs: usize,
    timeout_ms: u64,
    startup_ms: u64,
    #[serde(flatten)]
    report: &'a CompareReport,
}

fn compare(bots_dir: &Path, a: CompareArgs) -> Result<ExitCode> {
    let game = match a.game {
        GameArg::Cardjitsu => GameKind::Cardjitsu,
        GameArg::Royale => GameKind::Royale,
    };
    if game == GameKind::Cardjitsu && (a.third.is_some() || !a.board.is_empty()) {
        bail!("--third and --board only apply to royale");
    }
    let play = super::play_options(game, &a.play, a.time.startup_ms)?;
    let (cardjitsu, deck_names, royale) = super::game_settings(&play)?;
    let boards = match game {
        GameKind::Cardjitsu => Vec::new(),
        GameKind::Royale if a.board.is_empty() => super::league::default_boards()?,
        GameKind::Royale => a.board.iter().map(|p| p.display().to_string()).collect(),
    };
    let settings = CompareSettings {
        game,
        sprt: a.sprt,
        games: a.games,
        seed: a.seed,
        boards,
    };
    settings.validate()?;

    let third = a.third.clone().unwrap_or_else(|| DEFAULT_THIRD.to_owned());
    let mut specs = vec![a.new.clone(), a.base.clone()];
    if game == GameKind::Royale {
        specs.push(third.clone());
    }
    let loaded = bots::load(&specs, bots_dir, game.name())?;
    let mut by_role: BTreeMap<String, Arc<BotSpec>> = BTreeMap::new();
    for (role, bot) in [NEW, BASE, THIRD].into_iter().zip(&loaded) {
        by_role.insert(role.to_owned(), Arc::clone(bot));
    }
    let mut boards = BTreeMap::new();
    for name in &settings.boards {
        boards.insert(
            name.clone(),
            super::match_royale::load_board(Path::new(name))?,
        );
    }
    let cancel = bots::on_ctrl_c(true);
    let mut run = super::run_options(&a.time);
    run.cancel = Some(Arc::clone(&cancel));
    let exec = BotExecutor {
        bots: by_role,
        boards,
        run,
        cardjitsu,
        deck_names,
        royale,
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let third_note = match game {
        GameKind::Royale => format!(" (third: {})", loaded[2].name),
        GameKind::Cardjitsu => String::new(),
    };
    errln!(
        "compare: {game}, NEW {} vs BASE {}{third_note}; sprt {}; at most {} games, seed {}, {}",
        loaded[0].name,
        loaded[1].name,
        settings.sprt,
        2 * settings.max_pairs(),
        settings.seed,
        super::league::count(jobs, "job"),
    );

    let mut progress = PairProgress::new(settings.max_pairs(), a.verbose);
    let report = run_compare(&settings, &exec, jobs, &mut progress, &cancel)?;
    progress.finish();
    out!("{}", summary(&report));

    if let Some(path) = &a.json {
        let json = JsonReport {
            new: BotInfo::new(&a.new, &loaded[0]),
            base: BotInfo::new(&a.base, &loaded[1]),
            third: (game == GameKind::Royale).then(|| BotInfo::new(&third, &loaded[2])),
            jobs,
            timeout_ms: a.time.timeout_ms,
            startup_ms: a.time.startup_ms,
            report: &report,
        };
        super::write_json(path, &json)?;
        outln!("report: {}", path.display());
    }
    Ok(ExitCode::from(match report.verdict {
        Outcome::H1 => crate::exit::SUCCESS,
        Outcome::H0 => crate::exit::NEGATIVE,
        Outcome::Inconclusive => crate::exit::INCONCLUSIVE,
        Outcome::Cancelled => crate::exit::INTERRUPTED,
    }))
}

/// The human-readable result.
fn summary(r: &CompareReport) -> String {
    let p = &r.settings.sprt;
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!(
        "Elo difference (NEW - BASE): {:+.1}, 95% interval [{:+.1}, {:+.1}]",
        r.elo.elo, r.elo.lo, r.elo.hi
    ));
    line(format!(
        "games: {} in {} seat-swapped pairs, NEW scores {:.1}%",
        r.games_played,
        r.pairs_played,
        100.0 * r.new_score
    ));
    let [c0, c1, c2, c3, c4] = r.pentanomial.0;
    line(format!(
        "pairs by NEW's points (0, 0.5, 1, 1.5, 2): {c0}, {c1}, {c2}, {c3}, {c4}"
    ));
    line(format!(
        "LLR: {:.3}, bounds [{:.3}, {:.3}] (H0: elo0={}, H1: elo1={}, alpha={}, beta={})",
        r.llr, r.bounds.lower, r.bounds.upper, p.elo0, p.elo1, p.alpha, p.beta
    ));
    for (role, f) in [("NEW", r.faults.new), ("BASE", r.faults.base)] {
        if f.timeout + f.crash + f.invalid + f.restart > 0 {
            line(format!(
                "faults of {role}: {} timeouts, {} crashes, {} invalid answers, {} restarts",
                f.timeout, f.crash, f.invalid, f.restart
            ));
        }
    }
    line(match r.verdict {
        Outcome::H1 => format!(
            "verdict: H1 accepted, NEW passes (the data favour {} Elo over {})",
            p.elo1, p.elo0
        ),
        Outcome::H0 => format!(
            "verdict: H0 accepted, NEW is worse (the data favour {} Elo over {})",
            p.elo0, p.elo1
        ),
        Outcome::Inconclusive => format!(
            "verdict: inconclusive, the game limit ({}) was reached first",
            2 * r.settings.max_pairs()
        ),
        Outcome::Cancelled => "verdict: none, interrupted".to_owned(),
    });
    out
}

/// Progress on stderr: a bar on a terminal, a line every 10 s elsewhere,
/// or a line per pair with `--verbose`.
enum PairProgress {
    Bar(ProgressBar),
    Plain { last: Instant },
    EveryPair,
}

impl PairProgress {
    fn new(max_pairs: u64, verbose: bool) -> PairProgress {
        if verbose {
            PairProgress::EveryPair
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(max_pairs);
            bar.set_style(
                ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} pairs  {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            PairProgress::Bar(bar)
        } else {
            PairProgress::Plain {
                last: Instant::now(),
            }
        }
    }

    fn finish(&self) {
        if let PairProgress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

impl CompareProgress for PairProgress {
    fn pair_done(&mut self, pair: &PairRecord, counts: &Pentanomial, llr: f64) {
        let status = format!(
            "LLR {llr:.2}, NEW {:.1}%, pentanomial {:?}",
            100.0 * counts.score(),
            counts.0
        );
        match self {
            PairProgress::Bar(bar) => {
                bar.set_position(counts.pairs());
                bar.set_message(status);
            }
            PairProgress::Plain { last } => {
                if last.elapsed() >= Duration::from_secs(10) {
                    *last = Instant::now();
                    errln!("progress: {} pairs, {status}", counts.pairs());
                }
            }
            PairProgress::EveryPair => errln!(
                "pair {}: NEW {} of 2 points; {status}",
                pair.pair,
                pair.new_points
            ),
        }
    }
}

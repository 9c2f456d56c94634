//! `dojo compare`: NEW against BASE until the SPRT decides.
//!
//! Exit status (see [`crate::exit`]): 0 NEW passes (H1), 1 NEW is worse
//! (H0), 2 inconclusive at the game limit, 3 a usage or bot error, 130
//! interrupted.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use dojo_games::BotExecutor;
use dojo_league::compare::{
    BASE, CompareError, CompareSettings, Conclusion, NEW, Nondeterministic, THIRD, run_compare,
};
use dojo_league::{ExecError, Executor, Fixture, GameResult};
use dojo_runner::BotSpec;

use crate::args::CompareArgs;
use crate::bots;
use crate::outputs::compare::{self as shown, BotInfo, Compared, RunInfo};

use crate::exit::ERROR as EXIT_ERROR;

/// Runs the comparison; errors are printed here and give status 3.
pub fn run(bots_dir: &Path, a: CompareArgs) -> ExitCode {
    match compare(bots_dir, a) {
        Ok(code) => code,
        Err(err) => {
            errln!(
                "error: {}",
                crate::render::untrusted::lines(&format!("{err:#}"))
            );
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn compare(bots_dir: &Path, a: CompareArgs) -> Result<ExitCode> {
    let outputs = a
        .output
        .resolve(&[], &super::game_inputs(&a.play, &a.board))?;
    let game = a.game;
    // What differs between games comes from the game's shape: a third
    // seat (a bot that is neither NEW nor BASE, by default the game's own)
    // and boards.
    let shape = game.shape();
    let default_third = game.extra_seat_bot();
    let third_seat = shape.seats() > 2;
    if (!third_seat && a.third.is_some()) || (!shape.board && !a.board.given.is_empty()) {
        bail!("--third and --board only apply to royale");
    }
    let play = super::play_options(game, &a.play, &dojo_league::PlayOptions::default())?;
    let controls = a.controls.controls();
    let options = crate::games::cli(game).executor_options(&play)?;
    let boards = if !shape.board {
        Vec::new()
    } else if a.board.given.is_empty() {
        crate::home::default_boards()?
    } else {
        a.board.names()
    };
    let mut settings = CompareSettings {
        game,
        sprt: a.sprt,
        games: a.games,
        seed: a.seed.value(),
        boards,
        faults: a.faults.given.unwrap_or_default(),
        teams: BTreeMap::new(),
    };
    // Checked once the bots' fixed teams are known (`fix_teams`, before
    // any build): they set a block's games, which the boards need.

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
    let loaded = bots::load_unbuilt(&specs, bots_dir, game.name())?;
    let mut by_role: BTreeMap<String, Arc<BotSpec>> = BTreeMap::new();
    for (role, bot) in [NEW, BASE, THIRD].into_iter().zip(&loaded) {
        by_role.insert(role.to_owned(), Arc::clone(bot));
    }
    // Refused before anything is built: a bot.toml's team is known now.
    fix_teams(&mut settings, &by_role, &a.board)?;
    bots::build_all(&loaded)?;
    let mut boards = BTreeMap::new();
    for name in &settings.boards {
        boards.insert(name.clone(), crate::home::load_board_text(Path::new(name))?);
    }
    let cancel = bots::on_ctrl_c(true);
    // Stderr prompt by prompt: a broken bot's first fault shows what it
    // wrote up to it, as a league's does.
    let mut run = crate::flags::warn_open_files(dojo_runner::RunOptions {
        keep_stderr: true,
        ..dojo_runner::RunOptions::from(controls)
    });
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
    let needs = super::fit::bot_needs(&exec.run, exec.bots.values().map(AsRef::as_ref));
    super::fit::jobs_that_fit(
        1,
        shape.seats(),
        loaded.len(),
        &needs,
        exec.run.controls.sandbox,
    )?;
    let roles = exec
        .bots
        .iter()
        .map(|(role, bot)| (format!("{} ({})", role.to_uppercase(), bot.name), bot));
    let failed = super::smoke_start(game, roles, &exec);
    if !failed.is_empty() {
        bail!(
            "{} failed {} smoke start: no comparison is made (a bot that cannot answer would lose or win on its faults alone)",
            failed.join(" and "),
            if failed.len() == 1 { "its" } else { "their" }
        );
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let jobs = super::fit::jobs_that_fit(
        jobs,
        shape.seats(),
        loaded.len(),
        &needs,
        exec.run.controls.sandbox,
    )?;
    let third_note = match (loaded.get(2), settings.teams.get(THIRD)) {
        (Some(third), Some(team)) => format!(" (third: {}, on team {team} only)", third.name),
        (Some(third), None) => format!(" (third: {})", third.name),
        (None, _) => String::new(),
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

    let mut outputs = outputs.open(shown::Setup {
        max_blocks: settings.max_blocks(),
        unit: shown::unit_name(&settings),
        verbose: a.verbose,
    });
    let kept = KeepFirst {
        exec: &exec,
        first: Mutex::new(None),
        faulty: Mutex::new(FaultyRecords::default()),
    };
    let mut report = run_compare(&settings, &kept, jobs, &mut outputs, &cancel)?;
    let faulty = kept.faulty.into_inner().unwrap_or_else(|e| e.into_inner());
    for game in &mut report.first_faults {
        game.command = (faulty.records.get(&game.fault.game))
            .and_then(|record| match_command(record, &controls));
    }
    if matches!(
        report.verdict,
        Conclusion::H1 | Conclusion::H0 | Conclusion::Inconclusive
    ) && let Some((fixture, first)) = kept.first.into_inner().unwrap_or_else(|e| e.into_inner())
    {
        report.nondeterministic = played_again(&exec, &fixture, &first, &cancel);
    }
    let compared = Compared {
        run: RunInfo {
            new: BotInfo::new(&a.new, &loaded[0]),
            base: BotInfo::new(&a.base, &loaded[1]),
            third: loaded.get(2).map(|bot| BotInfo::new(&third, bot)),
            jobs,
            conditions: shown::Conditions::of(&controls),
        },
        report,
    };
    outputs.finish(&compared)?;
    let report = compared.report;
    Ok(ExitCode::from(match report.verdict {
        Conclusion::H1 => crate::exit::SUCCESS,
        Conclusion::H0 => crate::exit::NEGATIVE,
        Conclusion::Inconclusive => crate::exit::INCONCLUSIVE,
        Conclusion::Cancelled => crate::bots::interrupted_status(),
        Conclusion::Broken => crate::exit::ERROR,
    }))
}

/// The comparison's games, its first (fixture 0) kept to be played again:
/// whether the bots are deterministic is told beside the verdict, since a
/// verdict from bots that are not cannot be reproduced. The records of
/// the games that may hold NEW's or BASE's first fault are kept too
/// ([`FaultyRecords`]), for the command that plays that game on its own.
struct KeepFirst<'a> {
    exec: &'a BotExecutor,
    first: Mutex<Option<(Fixture, GameResult)>>,
    faulty: Mutex<FaultyRecords>,
}

impl Executor for KeepFirst<'_> {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        let result = Executor::play(self.exec, fixture, cancel);
        if let Ok(game) = &result {
            if fixture.id == 0 {
                *self.first.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((fixture.clone(), game.clone()));
            }
            (self.faulty.lock().unwrap_or_else(|e| e.into_inner())).add(fixture, game);
        }
        result
    }

    fn containment(&self) -> Option<dojo_runner::InForce> {
        self.exec.containment()
    }
}

/// The records of the games that may hold NEW's and BASE's first fault,
/// as the report picks it (a first crash, else a first fault of any kind,
/// in the lowest game: `dojo_league::compare::FaultyGame`): for each role
/// the lowest game it crashed in and the lowest it faulted in, at most
/// four records however many games are played. Games beyond the counted
/// ones hold higher ids than any counted one, so the report's pick is
/// always among these.
#[derive(Default)]
struct FaultyRecords {
    /// By role (NEW, BASE): the lowest game id with a crash, and with any
    /// fault.
    lowest: [[Option<u64>; 2]; 2],
    /// The record of each game in `lowest`, by game id.
    records: BTreeMap<u64, GameResult>,
}

impl FaultyRecords {
    fn add(&mut self, fixture: &Fixture, game: &GameResult) {
        let mut kept = false;
        for (seat, fault) in game.first_faults.iter().enumerate() {
            let (Some(fault), Some(role)) = (
                fault,
                fixture
                    .seats
                    .get(seat)
                    .and_then(|s| [NEW, BASE].iter().position(|r| r == s)),
            ) else {
                continue;
            };
            let crash = fault.kind == dojo_games::record::FaultKind::Crash;
            for (kind, applies) in [(0, crash), (1, true)] {
                let lowest = &mut self.lowest[role][kind];
                if applies && lowest.is_none_or(|id| fixture.id < id) {
                    *lowest = Some(fixture.id);
                    kept = true;
                }
            }
        }
        if kept {
            self.records.insert(fixture.id, game.clone());
            let wanted: Vec<u64> = self.lowest.iter().flatten().flatten().copied().collect();
            self.records.retain(|id, _| wanted.contains(id));
        }
    }
}

/// The `dojo match` command that plays the game of `game`'s record again
/// on its own: the command a replay page gives (same bots, named to work
/// from any directory, seats, seed and game settings), with the run's
/// controls (time, limits, sandbox) where they are not the defaults.
/// `None` when the record cannot be read (it is then not told).
fn match_command(game: &GameResult, controls: &dojo_runner::Controls) -> Option<String> {
    let saved = dojo_games::replay::read_stored_values(
        Path::new("the comparison's game"),
        &game.record,
        &game.timing,
    )
    .ok()?;
    let bots = crate::rerun::SeatWords::default().of(saved.seats());
    let view = saved
        .view(&dojo_league::view::RecordSource::Unsaved, &bots)
        .ok()?;
    let view = serde_json::to_value(&view).ok()?;
    let play = view.get("commands")?.get("match")?.as_str()?;
    let controls = controls.to_args();
    if controls.is_empty() {
        return Some(play.to_owned());
    }
    Some(format!(
        "{play} {}",
        dojo_league::view::shell_line(&controls)
    ))
}

/// Plays the comparison's first game again and compares the two plays
/// (`dojo_games::determinism`, as `dojo check` does): `Some` naming the
/// roles that answered differently when it came out otherwise. A rerun
/// that cannot be played or read is said on stderr, and decides nothing.
fn played_again(
    exec: &BotExecutor,
    fixture: &Fixture,
    first: &GameResult,
    cancel: &AtomicBool,
) -> Option<Nondeterministic> {
    let parting = Executor::play(exec, fixture, cancel)
        .map_err(|e| e.to_string())
        .and_then(|again| {
            let read = |g: &GameResult| {
                dojo_games::replay::read_stored_values(
                    Path::new("the comparison's first game"),
                    &g.record,
                    &g.timing,
                )
            };
            let (first, again) = (read(first), read(&again));
            first
                .and_then(|first| dojo_games::determinism::parting(&first, &again?))
                .map_err(|e| e.to_string())
        });
    match parting {
        Ok(parting) => parting.map(|parting| Nondeterministic {
            roles: (parting.seats().into_iter())
                .filter_map(|seat| fixture.seats.get(seat).cloned())
                .collect(),
            block: fixture.pair,
            leg: fixture.leg,
            seed: fixture.seed,
            seats: fixture.seats.clone(),
            parting,
        }),
        Err(err) => {
            errln!(
                "note: the first game could not be played again to see whether the bots are deterministic: {}",
                crate::render::untrusted::line(&err)
            );
            None
        }
    }
}

/// Seats each bot whose bot.toml fixes its team only on that team, as a
/// league does, then checks the settings (`CompareSettings::validate`):
/// fixed teams that make the comparison unfair or impossible (NEW's or
/// BASE's) are refused naming the bots and their bot.toml lines; a game
/// limit too low for the boards (a block's games depend on the teams) says
/// where the boards came from.
fn fix_teams(
    settings: &mut CompareSettings,
    bots: &BTreeMap<String, Arc<BotSpec>>,
    boards: &crate::args::BoardsArg,
) -> Result<()> {
    let mut fixed = Vec::new();
    for (role, bot) in bots {
        if let Some(team) = dojo_games::fixed_role(bot, settings.game.shape())? {
            settings.teams.insert(role.clone(), team);
            let place = crate::bots::team_place(bot);
            fixed.push((role, bot, place));
        }
    }
    settings.validate().map_err(|err| {
        if !matches!(
            err,
            CompareError::UnknownRole { .. }
                | CompareError::NoSeating { .. }
                | CompareError::Unfair { .. }
        ) {
            return match err {
                CompareError::BoardsUnplayed { .. } => super::boards_found(err, boards),
                _ => anyhow::Error::new(err),
            };
        }
        // NEW before BASE before the third bot, as the error lists them.
        fixed.sort_by_key(|(role, _, _)| [NEW, BASE, THIRD].iter().position(|r| r == role));
        let which: Vec<String> = (fixed.iter())
            .map(|(role, bot, place)| {
                format!(
                    "{} {}'s bot.toml fixes its team: team = {:?}{place}",
                    role.to_uppercase(),
                    bot.name,
                    settings.teams[*role].as_str()
                )
            })
            .collect();
        anyhow::Error::new(err).context(which.join("; "))
    })
}

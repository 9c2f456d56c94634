//! `dojo league` and `dojo merge`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use dojo_games::BotExecutor;
use dojo_league::{Game, Origin, Raises, Report, Settings, Shard, store};

use crate::args::{LeagueArgs, MergeArgs};
use crate::progress::LeagueProgress;
use crate::{bots, games, render};

/// The bots of a new league: the ones named, or the entries of the
/// folder `bots_dir` that are ok for the game (`submissions.rs`), with
/// the others and why.
fn league_bots(
    game: Game,
    names: &[String],
    bots_dir: &Path,
) -> Result<(
    Vec<dojo_league::Entrant>,
    Resolved,
    Vec<dojo_league::Excluded>,
)> {
    let mut out = Vec::new();
    let mut resolved = Resolved::new();
    let mut excluded = Vec::new();
    if names.is_empty() {
        if let Some(hint) = crate::home::hint(bots_dir) {
            bail!("{hint}");
        }
        let (found, others) = crate::submissions::for_league(game, bots_dir)?;
        excluded = others;
        for bot in found {
            // Stored as the name under the bots directory, so the
            // league directory means the same on another machine.
            let under = bot.dir.file_name().map_or_else(
                || bot.dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            out.push(dojo_league::Entrant {
                name: bot.name.clone(),
                command: under,
                fixed_team: dojo_games::royale::fixed_team(&bot)?,
                values: Default::default(),
            });
            resolved.insert(bot.name.clone(), bot);
        }
        check_enough(out.len(), &excluded, bots_dir, game)?;
    } else {
        for arg in names {
            let bot = bots::resolve(arg, bots_dir)?;
            // Stored as given, so `--resume` (from the same directory)
            // and shards on other machines resolve it the same way.
            out.push(dojo_league::Entrant {
                name: bot.name.clone(),
                command: stored_spec(arg, &bot),
                fixed_team: dojo_games::royale::fixed_team(&bot)?,
                values: Default::default(),
            });
            resolved.insert(bot.name.clone(), bot);
        }
    }
    Ok((out, resolved, excluded))
}

/// A league of the folder `bots_dir` needs 2 bots that are ok: when
/// fewer are, the entries not played are listed, then the error.
fn check_enough(
    ok: usize,
    excluded: &[dojo_league::Excluded],
    bots_dir: &Path,
    game: Game,
) -> Result<()> {
    if ok >= 2 {
        return Ok(());
    }
    crate::submissions::print_excluded(excluded, bots_dir);
    let others = if excluded.is_empty() {
        String::new()
    } else {
        format!(" ({} not, listed above)", excluded.len())
    };
    bail!(
        "found {} under {} that can play {game}{others}; a league needs at least 2 (fix the entries, or name bots on the command line)",
        crate::output::count(ok, "bot"),
        bots_dir.display()
    );
}

/// Bots already resolved while the league's entrants were listed, by name:
/// the executor uses them rather than resolving each spec a second time.
type Resolved = BTreeMap<String, dojo_runner::BotSpec>;

/// The NEW bot of `--gauntlet NEW`, stored as given (like the other bots).
fn gauntlet_bot(
    arg: &str,
    bots_dir: &Path,
) -> Result<(dojo_league::Entrant, dojo_runner::BotSpec)> {
    let bot = bots::resolve(arg, bots_dir).with_context(|| format!("--gauntlet {arg}"))?;
    let entrant = dojo_league::Entrant {
        name: bot.name.clone(),
        command: stored_spec(arg, &bot),
        fixed_team: dojo_games::royale::fixed_team(&bot)?,
        values: Default::default(),
    };
    Ok((entrant, bot))
}

/// `BOT` or `BOT=ELO`.
fn parse_anchor(arg: &str) -> Result<(String, Option<f64>)> {
    match arg.split_once('=') {
        None => Ok((arg.to_owned(), None)),
        Some((name, elo)) => {
            let elo: f64 = elo
                .parse()
                .ok()
                .filter(|e: &f64| e.is_finite())
                .with_context(|| {
                    format!("--anchor {arg}: expected BOT or BOT=ELO with a number")
                })?;
            Ok((name.to_owned(), Some(elo)))
        }
    }
}

/// `results/<game>-<UTC date and time>`.
fn default_out(game: Game) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    PathBuf::from("results").join(format!(
        "{game}-{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    ))
}

fn new_settings(bots_dir: &Path, a: &LeagueArgs) -> Result<(Settings, Origin, PathBuf, Resolved)> {
    let Some(game) = a.game else {
        let names: Vec<&str> = Game::ALL.map(Game::name).into();
        bail!(
            "name the game: dojo league {} (or --resume DIR)",
            names.join("|")
        );
    };
    let game_cli = games::cli(game);
    if !game_cli.boards() && !a.board.is_empty() {
        bail!(
            "--board only applies to {}, not {game}",
            games::board_games().join(" or ")
        );
    }
    let play = super::play_options(game, &a.play)?;
    let boards = if !game_cli.boards() {
        Vec::new()
    } else if a.board.is_empty() {
        crate::home::default_boards()?
    } else {
        a.board.iter().map(|p| p.display().to_string()).collect()
    };
    let (anchor, anchor_elo) = match &a.anchor {
        Some(arg) => {
            let (name, elo) = parse_anchor(arg)?;
            (Some(name), elo)
        }
        None => (None, None),
    };
    let (mut bots, mut resolved, excluded) = league_bots(game, &a.bots, bots_dir)?;
    let gauntlet = match &a.gauntlet {
        None => None,
        Some(arg) => {
            let (new, spec) = gauntlet_bot(arg, bots_dir)?;
            // A bot of the same name among the others is this one.
            bots.retain(|b| b.name != new.name);
            if bots.is_empty() {
                bail!("--gauntlet {arg}: name at least one other bot for it to play");
            }
            let name = new.name.clone();
            resolved.insert(name.clone(), spec);
            bots.push(new);
            Some(name)
        }
    };
    let controls = a.controls.controls();
    let settings = Settings {
        game,
        bots,
        games: a
            .games
            .unwrap_or_else(|| game_cli.league_games(boards.len())),
        seed: a.seed.unwrap_or(1),
        boards,
        anchor,
        anchor_elo,
        gauntlet,
        sprt: a.sprt,
        shard: a.shard.as_deref().map(str::parse::<Shard>).transpose()?,
        play,
        controls,
        raises: raises(a, controls.sandbox),
        faults: a.faults.unwrap_or_default(),
    };
    dojo_league::stop::check(&settings)?;
    let origin = Origin {
        bots_dir: Some(super::absolute(bots_dir)),
        allow_broken: a.allow_broken,
        pages: Vec::new(),
        excluded,
    };
    let out = a.out.clone().unwrap_or_else(|| default_out(game));
    Ok((settings, origin, out, resolved))
}

/// `--bot-raises`, or its default for the league's containment.
fn raises(a: &LeagueArgs, sandbox: dojo_runner::SandboxMode) -> Raises {
    match a.bot_raises.as_deref() {
        // clap accepts only the three names.
        Some(given) => given.parse().unwrap_or_default(),
        None => Raises::default_for(sandbox),
    }
}

/// How a league stores the BOT argument `arg` that resolved to `bot`: a
/// bot given as a directory path by its absolute directory, so the league
/// resumes and replays from any directory; a name under the bots
/// directory or an inline command as given.
fn stored_spec(arg: &str, bot: &dojo_runner::BotSpec) -> String {
    let by_path = !arg.contains('=') && Path::new(arg).join(dojo_runner::MANIFEST_FILE).is_file();
    if by_path && !dojo_runner::is_valid_name(arg) {
        super::absolute(&bot.dir).display().to_string()
    } else {
        arg.to_owned()
    }
}

/// Settles each bot's own values (its manifest's `[limits]` and `[time]`,
/// as `exec` resolved it) against the league's ([`dojo_league::settle_values`]),
/// prints every override, and hands the bots to the executor with the
/// values in force. A new league stores them; a resumed one must find
/// the values it stored (a changed bot.toml or league value would make
/// one report of two leagues).
fn settle_bot_values(
    settings: &mut Settings,
    exec: &mut BotExecutor,
    resumed: Option<&Path>,
    strict: bool,
) -> Result<()> {
    let mut settled = Vec::new();
    for entrant in &settings.bots {
        let Some(spec) = exec.bots.get(&entrant.name) else {
            continue;
        };
        let (in_force, overrides) =
            dojo_league::settle_values(settings, &entrant.name, &spec.values, strict)?;
        settled.push((entrant.name.clone(), in_force, overrides));
    }
    let mut conflicts = Vec::new();
    for (name, in_force, overrides) in settled {
        for o in &overrides {
            errln!("{o}");
        }
        let Some(entrant) = settings.bots.iter_mut().find(|b| b.name == name) else {
            continue;
        };
        match resumed {
            Some(_) if entrant.values != in_force => conflicts.push(format!(
                "bot {name}: its bot.toml now gives {} (the league has {})",
                show_values(&in_force),
                show_values(&entrant.values)
            )),
            Some(_) => {}
            None => entrant.values = in_force,
        }
        if let Some(spec) = exec.bots.get_mut(&name) {
            // The runner applies what the spec says: the values in force,
            // not what the manifest asked for.
            Arc::make_mut(spec).values = entrant.values;
        }
    }
    if let Some(dir) = resumed
        && !conflicts.is_empty()
    {
        bail!(
            "--resume {}: {}; a league's settings are fixed when it starts (start a new one with --out, or restore the bot.toml)",
            dir.display(),
            conflicts.join("; ")
        );
    }
    Ok(())
}

/// A bot's own values as `limits.memory_mib=4096 time.timeout_ms=900`, or
/// `the league's values`.
fn show_values(values: &dojo_runner::BotValues) -> String {
    let limits = values.limits.entries().map(|(k, v)| ("limits", k, v));
    let time = values.time.entries().map(|(k, v)| ("time", k, v));
    let shown: Vec<String> = limits
        .into_iter()
        .chain(time)
        .filter_map(|(s, k, v)| v.map(|v| format!("{s}.{k}={v}")))
        .collect();
    if shown.is_empty() {
        "the league's values".to_owned()
    } else {
        shown.join(" ")
    }
}

/// The stored league in `dir` with its origin, checked against the flags
/// given beside `--resume`: a flag that would change its results must
/// agree with it (naming the flag when it does not); `--anchor` only
/// changes the report and is applied (and stored); `--allow-broken` and
/// `--bots-dir` (when given) replace the stored origin's.
fn resumed_settings(
    dir: &Path,
    a: &LeagueArgs,
    bots_dir: Option<&Path>,
) -> Result<(Settings, Origin)> {
    // Say what is wrong with DIR rather than only which file is missing.
    if !dir.join(store::LEAGUE_FILE).is_file() {
        bail!(
            "--resume {}: not a league out directory (it has no league.json); \
             expected the --out directory of an earlier `dojo league`",
            dir.display()
        );
    }
    let league = store::load_league(dir)?;
    let (mut settings, mut origin) = (league.settings, league.origin);
    let given = super::play_options(settings.game, &a.play)?;
    let stored = &settings.play;
    // The controls first, as a rerun of one of its games checks them.
    let mut conflicts = super::control_conflicts(&a.controls, &settings);
    let mut check = |flag: &str, value: Option<String>, stored: String| {
        if let Some(value) = value
            && value != stored
        {
            conflicts.push(format!("{flag} {value} (the league has {stored})"));
        }
    };
    let show = |v: Option<u32>| v.map_or_else(|| "the default".to_owned(), |v| v.to_string());
    let given_if = |is_given: bool, value: String| is_given.then_some(value);
    check(
        "--seed",
        a.seed.map(|v| v.to_string()),
        settings.seed.to_string(),
    );
    // A league may grow: its schedule with more games holds every fixture
    // it had, with the same ids, seeds and boards, so `--games` above the
    // stored count extends it (how a sequential test runs in waves); fewer
    // would drop games already played.
    let grow = a.games.filter(|&g| g > settings.games);
    check(
        "--games",
        a.games
            .filter(|&g| g < settings.games)
            .map(|g| format!("{g} (a league's games can grow, not shrink)")),
        settings.games.to_string(),
    );
    check(
        "--rules",
        given_if(a.play.rules.is_some(), given.rules.to_string()),
        stored.rules.to_string(),
    );
    for (i, (flag, deck)) in [("--deck1", &a.play.deck1), ("--deck2", &a.play.deck2)]
        .into_iter()
        .enumerate()
    {
        check(
            flag,
            given_if(deck.is_some(), given.decks[i].clone()),
            stored.decks[i].clone(),
        );
    }
    check(
        "--max-rounds",
        given_if(a.play.max_rounds.is_some(), show(given.max_rounds)),
        show(stored.max_rounds),
    );
    check(
        "--stall-rounds",
        given_if(a.play.stall_rounds.is_some(), show(given.stall_rounds)),
        show(stored.stall_rounds),
    );
    check(
        "--faults",
        a.faults.map(|f| f.to_string()),
        settings.faults.to_string(),
    );
    check(
        "--bot-raises",
        a.bot_raises.clone(),
        settings.raises.name().to_owned(),
    );
    let boards: Vec<String> = a.board.iter().map(|p| p.display().to_string()).collect();
    check(
        "--board",
        given_if(!a.board.is_empty(), boards.join(" ")),
        settings.boards.join(" "),
    );
    let given_shard = a
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()?
        .map(|s| s.to_string());
    check(
        "--shard",
        given_shard,
        settings
            .shard
            .map_or_else(|| "no shard".to_owned(), |s| s.to_string()),
    );
    if !conflicts.is_empty() {
        bail!(
            "--resume {}: {} conflict{} with the stored league; a league's settings are fixed when it starts (start a new one with --out, or drop the flag)",
            dir.display(),
            conflicts.join(", "),
            if conflicts.len() == 1 { "s" } else { "" }
        );
    }
    if let Some(games) = grow {
        // Not while a league runs on the directory.
        let _lock = store::lock_games(dir)?;
        errln!(
            "--resume {}: the league grows from {} to {games} games per {}",
            dir.display(),
            settings.games,
            if settings.game.shape().seats() == 2 {
                "pairing"
            } else {
                "group"
            }
        );
        settings.games = games;
        store::write_settings(dir, &settings)?;
    }
    if let Some(arg) = &a.anchor {
        let (name, elo) = parse_anchor(arg)?;
        if !settings.bots.iter().any(|b| b.name == name) {
            bail!("--anchor {name}: not one of the league's bots");
        }
        if settings.anchor.as_deref() != Some(name.as_str()) || settings.anchor_elo != elo {
            // Not while a league runs on the directory.
            let _lock = store::lock_games(dir)?;
            settings.anchor = Some(name);
            settings.anchor_elo = elo;
            store::write_settings(dir, &settings)?;
        }
    }
    if let Some(given) = bots_dir {
        origin.bots_dir = Some(super::absolute(given));
    }
    origin.allow_broken |= a.allow_broken;
    Ok((settings, origin))
}

/// Resolves (unless `resolved` has it already), builds and loads
/// everything the league's games need.
fn executor(settings: &Settings, bots_dir: &Path, mut resolved: Resolved) -> Result<BotExecutor> {
    let mut loaded = BTreeMap::new();
    for bot in &settings.bots {
        let spec = match resolved.remove(&bot.name) {
            Some(spec) => spec,
            None => bots::resolve(&bot.command, bots_dir)
                .with_context(|| format!("bot {} ({})", bot.name, bot.command))?,
        };
        bots::check_game(&spec, settings.game.name())?;
        bots::build(&spec)?;
        loaded.insert(bot.name.clone(), Arc::new(spec));
    }
    let mut boards = BTreeMap::new();
    for name in &settings.boards {
        boards.insert(name.clone(), crate::home::load_board(Path::new(name))?);
    }
    let options = crate::games::cli(settings.game).executor_options(&settings.play)?;
    // Time controls, limits and containment come from the league's
    // settings alone (the flags were checked against them on --resume).
    let run = super::warn_open_files(settings.run_options(dojo_runner::RunOptions {
        // Each game's stderr goes to the bots' logs (not into games.jsonl).
        keep_stderr: true,
        ..dojo_runner::RunOptions::default()
    }));
    // --sandbox strict on a machine without the namespaces: refuse before
    // any game, rather than fail every game.
    dojo_runner::in_force(run.sandbox)?;
    Ok(BotExecutor {
        bots: loaded,
        boards,
        run,
        options,
        faults: settings.faults,
    })
}

/// `dojo league`. `bots_dir` is where bots are looked up; `given_bots_dir`
/// says whether `--bots-dir` named it (a resumed league otherwise looks
/// where it was started).
pub fn run(bots_dir: &Path, given_bots_dir: bool, a: LeagueArgs) -> Result<ExitCode> {
    super::check_outputs(&[("--html", a.html.as_deref())])?;
    let (mut settings, mut origin, out, resolved) = match &a.resume {
        Some(dir) => {
            let (settings, origin) = resumed_settings(dir, &a, given_bots_dir.then_some(bots_dir))?;
            (settings, origin, dir.clone(), Resolved::new())
        }
        None => new_settings(bots_dir, &a)?,
    };
    let bots_dir = origin.bots_dir.as_deref().unwrap_or(bots_dir);
    let mut exec = executor(&settings, bots_dir, resolved)?;
    // Only to say why: refuse was the default, not asked for.
    let refuse_by_default = a.resume.is_none()
        && a.bot_raises.is_none()
        && settings.controls.sandbox == dojo_runner::SandboxMode::Strict;
    // A league of a whole folder: the entries that cannot play under its
    // values or cannot start are left out, not the league (the named
    // bots, and a resumed league's, stop it as before).
    let folder = a.resume.is_none() && a.bots.is_empty();
    if folder {
        crate::submissions::exclude_refused_raises(
            &mut settings,
            &mut exec,
            &mut origin.excluded,
            refuse_by_default,
        );
    }
    settle_bot_values(
        &mut settings,
        &mut exec,
        a.resume.as_deref(),
        refuse_by_default,
    )?;
    let cancel = bots::on_ctrl_c(true);
    exec.run.cancel = Some(Arc::clone(&cancel));
    let bots = exec.bots.iter().map(|(name, bot)| (name.clone(), bot));
    let mut failures = super::smoke_failures(settings.game, bots, &exec);
    // Unless --allow-broken plays them anyway.
    if folder && !origin.allow_broken {
        failures = crate::submissions::exclude_smoke_failures(
            failures,
            &mut settings,
            &mut exec,
            &mut origin.excluded,
        );
    }
    super::print_smoke_failures(&failures);
    match failures.len() {
        0 => {}
        _ if origin.allow_broken => errln!("--allow-broken: playing the league anyway"),
        1 => bail!("1 bot failed its smoke start; fix it, or pass --allow-broken to play anyway"),
        n => bail!(
            "{n} bots failed their smoke start; fix them, or pass --allow-broken to play anyway"
        ),
    }
    if folder {
        check_enough(
            settings.bots.len(),
            &origin.excluded,
            bots_dir,
            settings.game,
        )?;
        crate::submissions::print_excluded(&origin.excluded, bots_dir);
    }
    // After the builds: the fingerprint covers the programs that will run.
    let fingerprints = exec
        .bots
        .iter()
        .map(|(name, spec)| (name.clone(), dojo_runner::fingerprint(spec)))
        .collect();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // --pin: one game per core, so bots of two games never share one.
    let jobs = if settings.controls.pin {
        jobs.min(dojo_runner::allowed_cpus().len().max(1))
    } else {
        jobs
    };
    let format = match (&settings.gauntlet, &settings.sprt) {
        (Some(new), Some(sprt)) => format!(" gauntlet of {new} (sprt {sprt})"),
        (Some(new), None) => format!(" gauntlet of {new}"),
        (None, _) => String::new(),
    };
    errln!(
        "league: {}{format} with {}, {}, out {}",
        settings.game,
        crate::output::count(settings.bots.len(), "bot"),
        crate::output::count(jobs, "job"),
        out.display()
    );
    // This run's page joins the league's: each is written again below.
    if let Some(path) = &a.html {
        origin.add_page(super::absolute(path));
    }
    let pages = origin.clone();
    let mut progress = LeagueProgress::new(0, a.verbose);
    let report = dojo_league::run_league(
        &settings,
        &dojo_league::LeagueRun {
            out: out.clone(),
            jobs,
            fingerprints,
            origin,
        },
        &exec,
        &mut progress,
        &cancel,
    )?;
    progress.finish();
    out!("{}", render::standings::table(&report));
    if !report.excluded.is_empty() {
        errln!(
            "not played: {} of the bots folder ({}; report.json's `excluded` says why)",
            crate::submissions::entries(report.excluded.len()),
            report
                .excluded
                .iter()
                .map(|e| format!("{} ({})", e.dir, e.status))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    outln!("report: {}", out.join(store::REPORT_FILE).display());
    write_pages(&out, &pages)?;
    Ok(exit_code(&report))
}

/// Writes every page of the league in `out` ([`Origin::pages`]) again.
fn write_pages(out: &Path, origin: &Origin) -> Result<()> {
    for page in &origin.pages {
        super::league_page(out, Some(page))?;
        outln!("report page: {}", page.display());
    }
    Ok(())
}

fn exit_code(report: &Report) -> ExitCode {
    if report.timing.cancelled {
        crate::exit::code(crate::bots::interrupted_status())
    } else if !report.timing.failed.is_empty() {
        errln!(
            "{} failed and stay{} pending; fix the cause and --resume",
            crate::output::count(report.timing.failed.len(), "game"),
            if report.timing.failed.len() == 1 {
                "s"
            } else {
                ""
            }
        );
        crate::exit::code(crate::exit::NEGATIVE)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn merge(a: MergeArgs) -> Result<ExitCode> {
    let report = dojo_league::merge(&a.dirs, &a.out)?;
    out!("{}", render::standings::table(&report));
    outln!("report: {}", a.out.join(store::REPORT_FILE).display());
    if let Some(path) = &a.html {
        super::remember_page(&a.out, path)?;
    }
    write_pages(&a.out, &store::load_league(&a.out)?.origin)?;
    if report.complete || a.partial {
        return Ok(ExitCode::SUCCESS);
    }
    errln!(
        "the merged league is incomplete: {} of {} games; merge the missing shards too, or pass --partial to accept a partial merge",
        report.games_played,
        report.games_scheduled
    );
    Ok(crate::exit::code(crate::exit::NEGATIVE))
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};
    use dojo_league::command::league_argv;

    use super::*;
    use crate::args::{Cli, Command};

    /// The flags of `dojo league` that are not settings of a league: how
    /// this run goes (or which league it resumes), not what it plays.
    const NOT_SETTINGS: &[&str] = &["jobs", "out", "verbose", "html", "resume", "help"];

    /// Two leagues that between them set every setting away from its
    /// default (no one league can: boards are royale's, decks
    /// CardJitsu's, an SPRT a two-seat game's).
    fn everything_set() -> Vec<(Settings, Origin)> {
        let bot = |name: &str| dojo_league::Entrant {
            name: name.into(),
            command: format!("/bots/{name}"),
            fixed_team: None,
            values: Default::default(),
        };
        let default = dojo_runner::Controls::default();
        let mut controls = default;
        for c in dojo_runner::CONTROLS {
            let v = match c.kind {
                dojo_runner::Kind::Number { min } => dojo_runner::Value::Number(Some(min + 7)),
                dojo_runner::Kind::Word(words) => words
                    .iter()
                    .map(|w| dojo_runner::Value::Word(w))
                    .find(|w| *w != c.get(&default))
                    .unwrap(),
                dojo_runner::Kind::Switch => dojo_runner::Value::Switch(true),
            };
            c.set(&mut controls, v);
        }
        let cardjitsu = Settings {
            game: Game::CARDJITSU,
            bots: vec![bot("a"), bot("b"), bot("n")],
            games: 6,
            seed: 9,
            boards: vec![],
            anchor: Some("a".into()),
            anchor_elo: Some(1200.0),
            gauntlet: Some("n".into()),
            sprt: Some("elo0=-5,elo1=5".parse().unwrap()),
            shard: None,
            play: dojo_league::PlayOptions {
                rules: dojo_engine::cardjitsu::Ruleset::Classic,
                decks: ["/d/1.dcfg".into(), "/d/2.dcfg".into()],
                max_rounds: Some(40),
                stall_rounds: None,
            },
            controls,
            raises: Raises::Cap,
            faults: dojo_league::FaultPolicy::Fallback,
        };
        let royale = Settings {
            game: Game::ROYALE,
            boards: vec!["boards/arena.txt".into()],
            gauntlet: None,
            sprt: None,
            shard: Some(Shard::new(1, 2).unwrap()),
            play: dojo_league::PlayOptions {
                stall_rounds: Some(9),
                ..Default::default()
            },
            ..cardjitsu.clone()
        };
        let origin = Origin {
            bots_dir: Some("/bots".into()),
            allow_broken: true,
            pages: Vec::new(),
            ..Default::default()
        };
        vec![(cardjitsu, origin.clone()), (royale, origin)]
    }

    #[test]
    fn the_recorded_command_carries_every_league_flag_and_parses_back() {
        let mut emitted = std::collections::BTreeSet::new();
        for (settings, origin) in everything_set() {
            let argv = league_argv(&settings, &origin);
            emitted.extend(
                argv.iter()
                    .filter_map(|w| w.strip_prefix("--"))
                    .map(str::to_owned),
            );
            let cli = Cli::try_parse_from(&argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
            assert_eq!(cli.bots_dir.as_deref(), origin.bots_dir.as_deref());
            let Command::League(a) = cli.command else {
                panic!("{argv:?} is no league command");
            };
            let (controls, conflicts) =
                dojo_runner::Controls::resolve(&a.controls.0, Some(&settings.controls));
            assert!(conflicts.is_empty(), "{conflicts:?}");
            assert_eq!(controls, settings.controls);
            assert_eq!(a.games, Some(settings.games));
            assert_eq!(a.seed, Some(settings.seed));
            assert_eq!(raises(&a, controls.sandbox), settings.raises);
            assert_eq!(a.faults.unwrap_or_default(), settings.faults);
            assert!(a.allow_broken);
        }
        let cmd = Cli::command();
        let league = cmd.find_subcommand("league").unwrap();
        let flags = cmd
            .get_arguments()
            .chain(league.get_arguments())
            .filter_map(|arg| arg.get_long());
        for flag in flags {
            assert!(
                emitted.contains(flag) || NOT_SETTINGS.contains(&flag),
                "--{flag} is a flag of `dojo league` that the recorded command never carries: \
                 add it to dojo_league::command::league_argv (or to NOT_SETTINGS if it is not \
                 a setting)"
            );
        }
    }
}

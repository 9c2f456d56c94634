//! `dojo league` and `dojo merge`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use dojo_games::BotExecutor;
use dojo_league::late::{self, Late};
use dojo_league::{Game, Origin, Raises, Report, Settings, Shard, store};

use crate::args::{LeagueArgs, MergeArgs};
use crate::outpaths::Named;
use crate::outputs::league::{League, Pages, Setup, Terminal};
use crate::render::untrusted;
use crate::{bots, games};

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
                dir: None,
                fixed_team: dojo_games::fixed_role(&bot, game.shape())?,
                values: Default::default(),
            });
            resolved.insert(bot.name.clone(), bot);
        }
        check_enough(out.len(), &excluded, bots_dir, game)?;
    } else {
        for arg in names {
            let bot = bots::resolve(arg, bots_dir)?;
            // Stored as given, so `--resume` (from any directory: an
            // inline command's with the directory it runs in) and shards
            // on other machines resolve it the same way.
            out.push(dojo_league::Entrant {
                name: bot.name.clone(),
                command: stored_spec(arg, &bot),
                dir: inline_dir(arg, &bot),
                fixed_team: dojo_games::fixed_role(&bot, game.shape())?,
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
    game: Game,
) -> Result<(dojo_league::Entrant, dojo_runner::BotSpec)> {
    let bot = bots::resolve(arg, bots_dir).with_context(|| format!("--gauntlet {arg}"))?;
    let entrant = dojo_league::Entrant {
        name: bot.name.clone(),
        command: stored_spec(arg, &bot),
        dir: inline_dir(arg, &bot),
        fixed_team: dojo_games::fixed_role(&bot, game.shape())?,
        values: Default::default(),
    };
    Ok((entrant, bot))
}

/// The late entries given beside `--resume`: each `--add BOT` and each
/// `--replace NAME=BOT` resolved and stored like a new league's bot (a new
/// version plays under the name it replaces, so it plays the seeds the
/// old one played).
fn late_entries(a: &LeagueArgs, bots_dir: &Path, game: Game) -> Result<(Late, Resolved)> {
    let mut late = Late::default();
    let mut resolved = Resolved::new();
    let entrant = |command: String,
                   dir: Option<PathBuf>,
                   bot: &dojo_runner::BotSpec|
     -> Result<dojo_league::Entrant> {
        Ok(dojo_league::Entrant {
            name: bot.name.clone(),
            command,
            dir,
            fixed_team: dojo_games::fixed_role(bot, game.shape())?,
            values: Default::default(),
        })
    };
    for arg in &a.add {
        let bot = bots::resolve(arg, bots_dir).with_context(|| format!("--add {arg}"))?;
        late.add.push(entrant(
            stored_spec(arg, &bot),
            inline_dir(arg, &bot),
            &bot,
        )?);
        resolved.insert(bot.name.clone(), bot);
    }
    for arg in &a.replace {
        let Some((name, spec)) = arg
            .split_once('=')
            .filter(|(n, s)| !n.is_empty() && !s.is_empty())
        else {
            bail!(
                "--replace {arg}: expected NAME=BOT (the league's bot NAME and the bot that replaces it)"
            );
        };
        let bot = bots::resolve(spec, bots_dir).with_context(|| format!("--replace {arg}"))?;
        let dir = inline_dir(spec, &bot);
        let (command, bot) = stand_in(name, spec, bot);
        late.replace.push(entrant(command, dir, &bot)?);
        resolved.insert(bot.name.clone(), bot);
    }
    Ok((late, resolved))
}

/// `bot`, resolved from `spec`, as the league's bot `name` it replaces,
/// and the spec the league stores for it. The name is the bot's identity
/// in the league (its seeds, its games) and in the command that replays
/// it, and `--replace NAME=BOT` says which bot BOT is, so BOT plays as
/// NAME whatever its bot.toml or directory calls it, as `NAME=DIR` names
/// the bot in DIR. A bot already named NAME keeps its spec as given (a
/// name under the bots directory stays one); another is stored as
/// `NAME=DIR` (its directory), or, given as `OTHER=COMMAND`, as
/// `NAME=COMMAND`: what a later `--resume` resolves to this bot under
/// NAME.
fn stand_in(
    name: &str,
    spec: &str,
    mut bot: dojo_runner::BotSpec,
) -> (String, dojo_runner::BotSpec) {
    if bot.name == name {
        return (stored_spec(spec, &bot), bot);
    }
    let command = match bots::inline_command(spec) {
        Some(command) => format!("{name}={command}"),
        None => dojo_runner::named_dir_spec(name, &bot.dir),
    };
    bot.name = name.to_owned();
    (command, bot)
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
    super::refuse_boards(game, &a.board)?;
    // Before the bots are looked at: a folder of them is built.
    super::refuse_other_games_flags(game, &a.play)?;
    let (mut bots, mut resolved, excluded) = league_bots(game, &a.bots, bots_dir)?;
    let gauntlet = match &a.gauntlet {
        None => None,
        Some(arg) => {
            let (new, spec) = gauntlet_bot(arg, bots_dir, game)?;
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
    let mut settings = Settings {
        bots,
        gauntlet,
        boards: if game_cli.boards() && a.board.given.is_empty() {
            crate::home::default_boards()?
        } else {
            Vec::new()
        },
        ..default_settings(game, a.controls.controls())
    };
    apply_flags(&mut settings, a)?;
    if a.seed.given.is_none() {
        settings.seed = drawn_seed(a)?;
    }
    if a.games.is_none() {
        settings.games = game_cli.league_games(settings.boards.len());
    }
    dojo_league::stop::check(&settings)?;
    // A board given (or found) must be played: a new league is refused
    // rather than leave some out silently.
    let schedule = dojo_league::Schedule::build(&settings)?;
    schedule
        .check_boards(settings.games)
        .map_err(|e| super::boards_found(e, &a.board))?;
    let origin = Origin {
        bots_dir: Some(super::absolute(bots_dir)),
        allow_broken: a.allow_broken,
        pages: Vec::new(),
        pages_of: None,
        late: Vec::new(),
        excluded,
        folder: a.bots.is_empty(),
    };
    let out = a.out.clone().unwrap_or_else(|| default_out(game));
    Ok((settings, origin, out, resolved))
}

/// Says which entries of a resumed folder league's bots directory were
/// added since it started: a resumed league plays only its own bots, so
/// each needs `--add` (`adding`: the names given now).
fn say_new_entries(
    dir: &Path,
    bots_dir: &Path,
    settings: &Settings,
    origin: &Origin,
    adding: &std::collections::BTreeSet<String>,
) -> Result<()> {
    let known: Vec<&str> = settings
        .bots
        .iter()
        .flat_map(|b| [b.name.as_str(), b.command.as_str()])
        .chain(origin.excluded.iter().map(|e| e.dir.as_str()))
        .chain(origin.late.iter().map(|l| l.name.as_str()))
        .chain(adding.iter().map(String::as_str))
        .collect();
    let (ok, not_ok) = crate::submissions::added_since(settings.game, bots_dir, &known)?;
    let folder = bots_dir.display();
    if !ok.is_empty() {
        let mut add = vec!["dojo".to_owned(), "league".into(), "--resume".into()];
        add.push(dir.display().to_string());
        for name in &ok {
            add.push("--add".into());
            add.push(name.clone());
        }
        errln!(
            "note: {folder} has {} added since the league started, which it does not play: {} (a resumed league plays only its own bots); to add {}: {}",
            crate::submissions::entries(ok.len()),
            untrusted::line(&ok.join(", ")),
            if ok.len() == 1 { "it" } else { "them" },
            untrusted::line(&dojo_games::view::shell_line(&add))
        );
    }
    if not_ok > 0 {
        errln!(
            "note: {folder} has {} added since the league started that {} not ok (dojo --bots-dir {folder} bots says why)",
            crate::submissions::entries(not_ok),
            if not_ok == 1 { "is" } else { "are" },
        );
    }
    Ok(())
}

/// A new league's seed when none is given: drawn at random, so that no
/// bot can know the league's deals beforehand (every game's seed follows
/// from the league's by a published rule, `docs/records.md`), and stored
/// in `league.json` for `--resume`. Shards must all play one league, so
/// each is given the seed.
fn drawn_seed(a: &LeagueArgs) -> Result<u64> {
    if let Some(shard) = &a.shard {
        bail!(
            "--shard {shard} needs --seed: every shard must play the same league, and a league without --seed draws its seed at random (pass one number, the same on every machine, and keep it from the bots)"
        );
    }
    Ok(crate::bots::fresh_seed())
}

/// A league of `game` with no bots and every setting but the controls at
/// its default: what the setting flags are laid over.
fn default_settings(game: Game, controls: dojo_runner::Controls) -> Settings {
    Settings {
        game,
        bots: Vec::new(),
        games: games::cli(game).league_games(0),
        seed: crate::args::DEFAULT_SERIES_SEED,
        boards: Vec::new(),
        anchor: None,
        anchor_elo: None,
        gauntlet: None,
        sprt: None,
        shard: None,
        play: dojo_league::PlayOptions::default(),
        controls,
        raises: Raises::default_for(controls.sandbox),
        faults: dojo_league::FaultPolicy::default(),
    }
}

/// Lays the setting flags given in `a` over `settings`: a new league's
/// defaults, or a resumed league's stored settings (which then must not
/// change, `dojo_league::command::SETTING_FLAGS`). The controls are
/// resolved apart (`dojo_runner::Controls::resolve`), and the bots are
/// not flags.
fn apply_flags(settings: &mut Settings, a: &LeagueArgs) -> Result<()> {
    if let Some(games) = a.games {
        settings.games = games;
    }
    if let Some(seed) = a.seed.given {
        settings.seed = seed;
    }
    if !a.board.given.is_empty() {
        // Absolute, so that `--resume` and the stored command work from
        // any directory; a board written as a resumed league stores it
        // (an old league's relative path) is that board.
        let stored = std::mem::take(&mut settings.boards);
        settings.boards = (a.board.given.iter())
            .map(|path| {
                let word = path.display().to_string();
                if stored.contains(&word) {
                    word
                } else {
                    crate::home::stored_board(path)
                }
            })
            .collect();
    }
    if let Some(arg) = &a.anchor {
        let (name, elo) = parse_anchor(arg)?;
        if !settings.bots.iter().any(|b| b.name == name) {
            bail!("--anchor {name}: not one of the league's bots");
        }
        (settings.anchor, settings.anchor_elo) = (Some(name), elo);
    }
    if let Some(sprt) = a.sprt {
        settings.sprt = Some(sprt);
    }
    if let Some(shard) = &a.shard {
        settings.shard = Some(shard.parse::<Shard>()?);
    }
    settings.play = super::play_options(settings.game, &a.play, &settings.play)?;
    if let Some(given) = &a.bot_raises {
        // clap accepts only the three names.
        settings.raises = given.parse().unwrap_or_default();
    }
    if let Some(faults) = a.faults.given {
        settings.faults = faults;
    }
    Ok(())
}

/// How a league stores the BOT argument `arg` that resolved to `bot`: a
/// bot given as a directory path (or as `NAME=DIR`) by its absolute
/// directory, so the league resumes and replays from any directory; a
/// name under the bots directory or an inline command as given.
/// For a bot given as `NAME=COMMAND`, the directory its command runs in,
/// stored with it ([`dojo_league::Entrant::dir`]).
fn inline_dir(arg: &str, bot: &dojo_runner::BotSpec) -> Option<PathBuf> {
    bots::inline_command(arg).map(|_| bot.dir.clone())
}

fn stored_spec(arg: &str, bot: &dojo_runner::BotSpec) -> String {
    if let Some((name, _)) = dojo_runner::named_dir(arg) {
        return dojo_runner::named_dir_spec(name, &bot.dir);
    }
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
/// values in force. A new league stores them, and so does a resumed one
/// for its late entries (`fresh`); for its other bots it must find the
/// values it stored (a changed bot.toml or league value would make one
/// report of two leagues).
fn settle_bot_values(
    settings: &mut Settings,
    exec: &mut BotExecutor,
    resumed: Option<&Path>,
    strict: bool,
    fresh: &std::collections::BTreeSet<String>,
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
        // A late entry's values are settled now, as a new league's are.
        let resumed = resumed.filter(|_| !fresh.contains(&name));
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
    let shown: Vec<String> = values
        .given()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
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
/// changes the report and `--fresh-boxes` no record: they are applied
/// (and stored); `--allow-broken` and `--bots-dir` (when given) replace
/// the stored origin's.
fn resumed_settings(
    dir: &Path,
    a: &LeagueArgs,
    bots_dir: Option<&Path>,
) -> Result<(Settings, Origin)> {
    // Say what is wrong with DIR rather than only which file is missing.
    if let Some(problem) = crate::outputs::league::not_a_league(dir) {
        bail!(
            "--resume {}: {problem}; expected the --out directory of an earlier `dojo league`",
            dir.display()
        );
    }
    let league = store::load_league(dir)?;
    // Its games before anything is built or started (or its settings
    // grown): a bad line is found in a moment, not after the builds.
    dojo_league::check_stored_games(dir, &league.settings)?;
    let (stored, mut origin) = (league.settings, league.origin);
    if let (Some(given), Some(was)) = (bots_dir, origin.bots_dir.as_deref()) {
        other_bots_dir_holds_the_bots(dir, &stored, given, was)?;
    }
    let mut settings = stored.clone();
    apply_flags(&mut settings, a)?;
    // A control that changes no record (`--fresh-boxes`) is applied and
    // stored; the others must agree with the stored ones.
    settings.controls = dojo_runner::Controls::resolve(&a.controls.0, Some(&stored.controls)).0;
    // The controls first, as a rerun of one of its games checks them.
    let mut conflicts = super::control_conflicts(&a.controls, &stored);
    conflicts.extend(dojo_league::command::conflicts(&settings, &stored));
    if !conflicts.is_empty() {
        bail!(
            "--resume {}: {} conflict{} with the stored league; a league's settings are fixed when it starts (start a new one with --out, or drop the flag)",
            dir.display(),
            conflicts.join(", "),
            if conflicts.len() == 1 { "s" } else { "" }
        );
    }
    if settings.games > stored.games {
        errln!(
            "--resume {}: the league grows from {} to {} games per {}",
            dir.display(),
            stored.games,
            settings.games,
            if settings.game.shape().seats() == 2 {
                "pairing"
            } else {
                "group"
            }
        );
    }
    if settings != stored {
        // Only what may change (a grown --games, an --anchor,
        // --fresh-boxes) changed; not while a league runs on the directory.
        let _lock = store::lock_games(dir)?;
        store::write_settings(dir, &settings)?;
    }
    if let Some(given) = bots_dir {
        origin.bots_dir = Some(super::absolute(given));
    }
    origin.allow_broken |= a.allow_broken;
    Ok((settings, origin))
}

/// Refuses a `--bots-dir` given beside `--resume DIR` that is not the
/// stored one (`was`) and lacks a bot the league plays, naming both
/// directories: the league's bots were named in `was`, and a plain "no
/// bot" would not say why they are looked for elsewhere. Another
/// directory that holds them all (the league moved with its bots) is
/// taken, as the stored origin says.
fn other_bots_dir_holds_the_bots(
    dir: &Path,
    stored: &Settings,
    given: &Path,
    was: &Path,
) -> Result<()> {
    if super::absolute(given) == super::absolute(was) {
        return Ok(());
    }
    let missing: Vec<&str> = (stored.bots.iter())
        .filter(|b| dojo_runner::resolve(&b.command, given).is_err())
        .map(|b| b.command.as_str())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let missing: Vec<String> = missing.iter().map(|m| format!("{m:?}")).collect();
    bail!(
        "--resume {}: --bots-dir {} conflicts with the stored league: the league's bots were found in {} (league.json's origin.bots_dir), and {} holds no bot {}; drop --bots-dir to find them there again, or give a bots directory that holds every bot of the league",
        dir.display(),
        given.display(),
        was.display(),
        given.display(),
        missing.join(", ")
    );
}

/// Resolves (unless `resolved` has it already), builds and loads
/// everything the league's games need.
fn executor(
    settings: &Settings,
    bots_dir: &Path,
    mut resolved: Resolved,
    resumed: bool,
) -> Result<BotExecutor> {
    let mut loaded = BTreeMap::new();
    for bot in &settings.bots {
        let spec = match resolved.remove(&bot.name) {
            Some(spec) => spec,
            None => match &bot.dir {
                Some(dir) => bots::resolve_in(&bot.command, bots_dir, dir),
                None => bots::resolve(&bot.command, bots_dir),
            }
            .with_context(|| format!("bot {} ({})", bot.name, bot.command))?,
        };
        bots::check_game(&spec, settings.game.name())?;
        bots::build(&spec)?;
        loaded.insert(bot.name.clone(), Arc::new(spec));
    }
    let mut boards = BTreeMap::new();
    for name in &settings.boards {
        let text = crate::home::load_board_text(Path::new(name)).map_err(|e| {
            if !resumed || Path::new(name).is_absolute() {
                return e;
            }
            // A league started before boards were stored absolute names
            // them relative to the directory it was started in.
            anyhow::anyhow!(
                "{e}; the league's board {name} is a path relative to the directory the league was started in (looked in {}): run the command from that directory",
                crate::home::board_places()
            )
        })?;
        boards.insert(name.clone(), text);
    }
    let game = crate::games::cli(settings.game);
    // A stored option the game does not take (a hand-edited league.json)
    // would be silently ignored.
    let takes = crate::games::options::flags(Some(settings.game));
    if let Some((flag, _)) =
        (settings.play.iter()).find(|(flag, _)| !takes.contains(&format!("--{flag}")))
    {
        bail!(
            "the league's game options (league.json \"play\") have --{flag}, which {} does not take",
            settings.game
        );
    }
    let options = game.executor_options(&settings.play)?;
    // Time controls, limits and containment come from the league's
    // settings alone (the flags were checked against them on --resume).
    let run = crate::flags::warn_open_files(dojo_runner::RunOptions {
        controls: settings.controls,
        // Each game's stderr goes to the bots' logs (not into games.jsonl).
        keep_stderr: true,
        ..dojo_runner::RunOptions::default()
    });
    // --sandbox strict on a machine without the namespaces: refuse before
    // any game, rather than fail every game.
    run.controls.containment()?;
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
    let mut inputs = super::game_inputs(&a.play, &a.board);
    inputs.push(Named::league("--resume", a.resume.as_deref()));
    let outputs = a
        .output
        .resolve(&[Named::league("--out", a.out.as_deref())], &inputs)?;
    if a.resume.is_none() && !(a.add.is_empty() && a.replace.is_empty()) {
        let flag = if a.add.is_empty() {
            "--replace"
        } else {
            "--add"
        };
        bail!(
            "{flag} changes a league that has played: give it with --resume DIR (a new league takes all its bots on the command line)"
        );
    }
    let (mut settings, mut origin, out, resolved) = match &a.resume {
        Some(dir) => {
            let (settings, origin) = resumed_settings(dir, &a, given_bots_dir.then_some(bots_dir))?;
            (settings, origin, dir.clone(), Resolved::new())
        }
        None => new_settings(bots_dir, &a)?,
    };
    // A directory another league is playing on is refused before any
    // build or smoke start; the run takes the lock for itself later.
    drop(dojo_league::store::lock_games(&out)?);
    let bots_dir = origin.bots_dir.as_deref().unwrap_or(bots_dir);
    // Late entries join the stored league's settings now; the directory
    // changes only once they are built and have passed their smoke start.
    let (late, resolved) = if a.add.is_empty() && a.replace.is_empty() {
        (Late::default(), resolved)
    } else {
        late_entries(&a, bots_dir, settings.game)?
    };
    if let Some(dir) = &a.resume
        && origin.folder
    {
        say_new_entries(dir, bots_dir, &settings, &origin, &late.names())?;
    }
    let stored = settings.clone();
    if !late.is_empty() {
        settings = late::settings_with(&settings, &late)
            .with_context(|| format!("--resume {}", out.display()))?;
    }
    let mut exec = executor(&settings, bots_dir, resolved, a.resume.is_some())?;
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
        &late.names(),
    )?;
    let cancel = bots::on_ctrl_c(true);
    exec.run.cancel = Some(Arc::clone(&cancel));
    // Refused here when not even one game fits the limits on open
    // descriptors and tasks, or its seat users cannot be had: the smoke
    // start is a game per bot.
    let needs = super::fit::bot_needs(&exec.run, exec.bots.values().map(AsRef::as_ref));
    super::fit::jobs_that_fit(
        1,
        settings.game.shape().seats(),
        settings.bots.len(),
        &needs,
        exec.run.controls.sandbox,
    )?;
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
    let fingerprints: BTreeMap<String, String> = exec
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
    // No more at once than the league (or its shard) has games: more
    // would only claim seat users and size the games by limits for
    // nothing.
    let games = dojo_league::Schedule::build(&settings)?.selected_len(settings.shard);
    let jobs = jobs.min(usize::try_from(games).unwrap_or(usize::MAX).max(1));
    // The bots left after the smoke start's exclusions.
    let needs = super::fit::bot_needs(&exec.run, exec.bots.values().map(AsRef::as_ref));
    let jobs = super::fit::jobs_that_fit(
        jobs,
        settings.game.shape().seats(),
        settings.bots.len(),
        &needs,
        exec.run.controls.sandbox,
    )?;
    let format = match (&settings.gauntlet, &settings.sprt) {
        (Some(new), Some(sprt)) => format!(" gauntlet of {new} (sprt {sprt})"),
        (Some(new), None) => format!(" gauntlet of {new}"),
        (None, _) => String::new(),
    };
    // The seed too: a new league's is drawn at random unless given.
    errln!(
        "league: {}{format} with {}, {}, seed {}, out {}",
        settings.game,
        crate::output::count(settings.bots.len(), "bot"),
        crate::output::count(jobs, "job"),
        settings.seed,
        out.display()
    );
    if !late.is_empty() {
        let applied = late::apply(&out, &stored, &settings, &late, &fingerprints)?;
        say_late(&late, &applied, &stored, &settings)?;
        origin.late = applied.origin.late;
    }
    // This run's page joins the league's, each written again as its games
    // finish and at its end; but stdout or a FIFO takes this run's final
    // page alone (`remember_page`).
    let html = (outputs.files().path(crate::outputs::Format::Html))
        .filter(|path| crate::output::replaced_atomically(path));
    let here = crate::outputs::league::settle_pages(&out, &mut origin, html.is_some());
    if let Some(path) = html {
        origin.add_page(&here, crate::outpaths::canonical(path));
    }
    let mut outputs = outputs.open(Setup {
        dir: out.clone(),
        pages: Pages::Live(origin.pages.clone()),
        terminal: Terminal::played(a.verbose),
    });
    let report = dojo_league::run_league(
        &settings,
        &dojo_league::LeagueRun {
            out: out.clone(),
            jobs,
            fingerprints,
            origin,
        },
        &exec,
        &mut outputs,
        &cancel,
    );
    let report = match report {
        Ok(report) => report,
        Err(e) => {
            outputs.stopped()?;
            return Err(e.into());
        }
    };
    let league = League {
        dir: out,
        report,
        read: None,
    };
    outputs.finish(&league)?;
    Ok(exit_code(&league.report))
}

/// Says what the late entries changed: the games that will be played
/// for them, the games renumbered and retired.
fn say_late(
    late: &Late,
    applied: &late::Applied,
    before: &Settings,
    after: &Settings,
) -> Result<()> {
    if !late.add.is_empty() {
        let names: Vec<&str> = late.add.iter().map(|b| b.name.as_str()).collect();
        let new_games = dojo_league::Schedule::build(after)?
            .len()
            .saturating_sub(dojo_league::Schedule::build(before)?.len());
        // "Renumbered" alone read as if played games were changed: they
        // are kept, and only their place in the grown schedule moves.
        let renumbered = match applied.renumbered {
            0 => String::new(),
            1 => "; the games already played are kept (1 of them has a new game number in the grown schedule)".to_owned(),
            n => format!("; the games already played are kept ({n} of them have new game numbers in the grown schedule)"),
        };
        errln!(
            "--add: {} join{} the league: {} with {} to play{renumbered}",
            names.join(", "),
            if names.len() == 1 { "s" } else { "" },
            crate::output::count(new_games as usize, "game"),
            if names.len() == 1 { "it" } else { "them" },
        );
    }
    for bot in &late.replace {
        errln!(
            "--replace {}: its new version is {}; the old version's games are kept in games.jsonl, marked retired, and played again",
            bot.name,
            bot.command
        );
    }
    if !late.replace.is_empty() {
        errln!(
            "--replace: {} retired",
            crate::output::count(applied.retired as usize, "game")
        );
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
    let inputs: Vec<_> = (a.dirs.iter())
        .map(|d| Named::league("DIR", Some(d)))
        .collect();
    let outputs = a
        .output
        .resolve(&[Named::league("--out", Some(&a.out))], &inputs)?;
    // A merge into a copy of a merged directory writes the copy's pages,
    // not those of the directory it was copied from.
    if a.out.join(store::LEAGUE_FILE).is_file() {
        let _lock = store::lock_games(&a.out)?;
        let mut origin = store::load_league(&a.out)?.origin;
        let given = outputs.files().path(crate::outputs::Format::Html).is_some();
        crate::outputs::league::settle_pages(&a.out, &mut origin, given);
        store::record_origin(&a.out, &origin)?;
    }
    let report = dojo_league::merge(&a.dirs, &a.out)?;
    let (complete, played, scheduled) =
        (report.complete, report.games_played, report.games_scheduled);
    outputs
        .open(Setup {
            dir: a.out.clone(),
            pages: Pages::Remembered,
            terminal: Terminal::merged(),
        })
        .finish(&League {
            dir: a.out.clone(),
            report,
            read: None,
        })?;
    if complete || a.partial {
        return Ok(ExitCode::SUCCESS);
    }
    errln!(
        "the merged league is incomplete: {played} of {scheduled} games; merge the missing shards too, or pass --partial to accept a partial merge"
    );
    Ok(crate::exit::code(crate::exit::NEGATIVE))
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};
    use dojo_league::command::league_argv;

    use super::*;
    use crate::args::{Cli, Command};

    /// Whether `name` has the shape of a default out directory's name:
    /// `GAME-YYYYMMDD-HHMMSS`.
    fn is_default_out_name(name: &str, game: Game) -> bool {
        let Some(stamp) = name.strip_prefix(&format!("{game}-")) else {
            return false;
        };
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        matches!(stamp.split_once('-'), Some((date, time)) if digits(date, 8) && digits(time, 6))
    }

    /// The guide shows a default out directory named as dojo names it.
    #[test]
    fn the_guides_default_out_directory_is_named_as_dojo_names_it() {
        let made = default_out(Game::CARDJITSU);
        let made = made.file_name().unwrap().to_str().unwrap();
        assert!(is_default_out_name(made, Game::CARDJITSU), "{made}");
        let guide = include_str!("../../../../docs/guide.md");
        let shown = guide
            .split_once(", out results/")
            .and_then(|(_, rest)| rest.lines().next())
            .expect("the guide shows a league's out directory");
        assert!(
            is_default_out_name(shown, Game::CARDJITSU),
            "the guide shows {shown}, dojo makes names like {made}"
        );
    }

    /// The flags of `dojo league` that are not settings of a league: how
    /// this run goes (or which league it resumes), not what it plays.
    /// `--add` and `--replace` are actions on a resumed league: the bots
    /// they bring are in its settings afterwards, so the recorded command
    /// names them among the league's bots.
    /// Flags that do not change what a league plays or scores, so its
    /// recorded command leaves them out (`--build-network` says how the
    /// bots are built, given again with each run that builds).
    const NOT_SETTINGS: &[&str] = &[
        "jobs",
        "out",
        "verbose",
        "html",
        "resume",
        "add",
        "replace",
        "help",
        "build-network",
    ];

    fn data(file: &str) -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/").to_owned() + file
    }

    fn play(flags: &[(&str, &str)]) -> dojo_league::PlayOptions {
        let mut play = dojo_league::PlayOptions::default();
        for (flag, value) in flags {
            play.set(flag, Some((*value).to_owned()));
        }
        play
    }

    /// Two leagues that between them set every setting away from its
    /// default (no one league can: boards are royale's, decks
    /// CardJitsu's, an SPRT a two-seat game's).
    fn everything_set() -> Vec<(Settings, Origin)> {
        let bot = |name: &str| dojo_league::Entrant {
            name: name.into(),
            command: format!("/bots/{name}"),
            dir: None,
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
            play: play(&[
                ("rules", "classic"),
                ("deck1", &data("small.dcfg")),
                ("deck2", &data("power.dcfg")),
                ("max-rounds", "40"),
            ]),
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
            play: play(&[("stall-rounds", "9")]),
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
            // The flags laid over the defaults give the settings back.
            let mut parsed = Settings {
                bots: settings.bots.clone(),
                gauntlet: settings.gauntlet.clone(),
                ..default_settings(settings.game, controls)
            };
            apply_flags(&mut parsed, &a).unwrap();
            assert_eq!(parsed, settings);
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

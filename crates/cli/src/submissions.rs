//! A folder of submissions: the bots directory (`--bots-dir DIR`, or the
//! default `bots/`) as an organiser's folder, every entry of it validated
//! and given a status ([`EntryStatus`]). `dojo bots` lists them; a league
//! of every bot there (`dojo league GAME`, no BOT named) plays the entries
//! that are ok and records the others, with why, as the league's
//! `excluded` (`league.json`'s `origin`, `report.json`, the report page).
//!
//! The statuses, in the order they are found: the folder's scan (the
//! runner: `symlink` for a symbolic link to a directory, which is not
//! followed, `bad name`, `bad manifest` with every error of the
//! `bot.toml`, `no manifest` when no single obvious script could be taken
//! instead;
//! then `wrong game` when its `games` names no game dojo knows, a typo
//! that keeps it out of every league, so `dojo bots` says so too; a typo
//! beside a game it knows leaves it ok, with the typo named under it), then
//! for a league's game `wrong game` (its `games` does not list it and
//! names a game dojo does not know),
//! `build failed` (the end of the build's stdout and stderr) and `failed
//! smoke start` (the head of its stderr). A bot whose `bot.toml` has no
//! `games`, and one taken from a script, enters every league and stays in
//! it if it passes the smoke start: the smoke start, not a missing key,
//! says whether it plays the game.
//!
//! An entry whose `games` names only other games dojo knows (the bundled
//! royale bots in a CardJitsu league) is no submission that failed: it is
//! not for this league, so it is left out quietly, named on one dim line
//! ([`print_other_games`]), and not recorded as `excluded`.
//!
//! Bots named on the command line are not a folder: what is wrong with
//! one stops the command, as before (`--allow-broken` lets a league play
//! one that fails its smoke start). With `--allow-broken` a folder's
//! entries that fail their smoke start are played too (and flagged by
//! their faults), rather than excluded.

use std::path::Path;

use anyhow::Result;
use dojo_league::{EntryStatus, Excluded, Game};
use dojo_runner::{BotSpec, EntryProblem};

use crate::render::untrusted;

/// Lines kept of a failed build's stdout, and of its stderr.
const BUILD_LINES: usize = 20;

/// One entry of the folder, as far as it was checked.
#[derive(Debug)]
pub struct Entry {
    /// Its directory's name in the folder.
    pub dir: String,
    /// Its bot's name, else `dir`.
    pub name: String,
    pub status: EntryStatus,
    /// Why it is not ok, in one line; for an ok entry what to know
    /// about it (the script taken without a `bot.toml`).
    pub reason: String,
    /// What shows the reason (see [`Excluded::details`]).
    pub details: Vec<String>,
    /// An ok entry's bot.
    pub bot: Option<BotSpec>,
}

impl Entry {
    fn excluded(&self) -> Excluded {
        Excluded {
            dir: self.dir.clone(),
            name: self.name.clone(),
            status: self.status,
            reason: self.reason.clone(),
            details: self.details.clone(),
        }
    }

    fn fail(&mut self, status: EntryStatus, reason: String, details: Vec<String>) {
        self.status = status;
        self.reason = reason;
        self.details = details;
        self.bot = None;
    }
}

/// Every entry of the folder with what can be told without a game or
/// running anything (`dojo bots`), and the names of the files in it
/// (which are not entries).
pub fn scan(bots_dir: &Path) -> Result<(Vec<Entry>, Vec<String>, Vec<String>)> {
    let folder = dojo_runner::scan(bots_dir)?;
    let entries = folder
        .entries
        .into_iter()
        .map(|e| {
            let name = e.name;
            let dir = e.dir_name;
            // A `team` no game it may play has: a manifest error, as a
            // bad key is, though only the games know their teams.
            let outcome = e
                .outcome
                .and_then(|loaded| match dojo_games::check_team(&loaded.bot) {
                    Ok(()) => Ok(loaded),
                    Err(err) => Err(EntryProblem::BadManifest(err.manifest_error())),
                });
            let (status, reason, details, bot) = match outcome {
                // A `games` of none dojo knows: every league leaves it out.
                Ok(loaded) if no_known_game(&loaded.bot) => {
                    let (reason, details) = wrong_game(&loaded.bot, None);
                    (EntryStatus::WrongGame, reason, details, None)
                }
                Ok(loaded) => {
                    let note = loaded.script.map_or_else(String::new, |script| {
                        format!(
                            "no bot.toml: runs its {script} (`{}`)",
                            shown_command(&loaded.bot.command, &loaded.bot.dir)
                        )
                    });
                    let details = unknown_games(&loaded.bot).into_iter().collect();
                    (EntryStatus::Ok, note, details, Some(loaded.bot))
                }
                Err(EntryProblem::BadName(why)) => (EntryStatus::BadName, why, Vec::new(), None),
                Err(EntryProblem::NoManifest(why)) => {
                    (EntryStatus::NoManifest, why, Vec::new(), None)
                }
                Err(EntryProblem::Symlink(why)) => (EntryStatus::Symlink, why, Vec::new(), None),
                Err(EntryProblem::BadManifest(err)) => bad_manifest(&err),
            };
            Entry {
                dir,
                name,
                status,
                reason,
                details,
                bot,
            }
        })
        .collect();
    Ok((entries, folder.files, folder.ignored))
}

/// A `bad manifest` entry: how many errors, and each with its line.
fn bad_manifest(
    err: &dojo_runner::ManifestError,
) -> (EntryStatus, String, Vec<String>, Option<BotSpec>) {
    (
        EntryStatus::BadManifest,
        format!(
            "{} in its bot.toml",
            crate::output::count(err.problems.len(), "error")
        ),
        err.lines_as(dojo_runner::MANIFEST_FILE),
        None,
    )
}

/// `command` as the bot author wrote it: a program in the bot's directory
/// relative to it again.
fn shown_command(command: &[String], dir: &Path) -> String {
    let mut words = command.to_vec();
    if let Some(first) = words.first_mut()
        && let Ok(rel) = Path::new(first.as_str()).strip_prefix(dir)
    {
        *first = format!("./{}", rel.display());
    }
    words.join(" ")
}

/// The bots of a league of every entry of the folder: the ok entries,
/// each built, and the others with why. Says first which entries are
/// meant for other games ([`print_other_games`]) and which run without a
/// `bot.toml` (and what). The smoke start comes later, with the league's
/// executor ([`exclude_smoke_failures`]).
pub fn for_league(game: Game, bots_dir: &Path) -> Result<(Vec<BotSpec>, Vec<Excluded>)> {
    let (mut entries, _files, _ignored) = scan(bots_dir)?;
    let mut other_games = Vec::new();
    entries.retain(|e| {
        let other = e.bot.as_ref().is_some_and(|bot| for_other_games(bot, game));
        if other {
            other_games.push(e.dir.clone());
        }
        !other
    });
    print_other_games(&other_games, game);
    for e in &mut entries {
        let Some(bot) = e.bot.clone() else {
            continue;
        };
        if !e.reason.is_empty() {
            errln!(
                "note: {}: {}",
                untrusted::line(&e.dir),
                untrusted::line(&e.reason)
            );
        }
        if !bot.plays(game.name()) {
            let (reason, details) = wrong_game(&bot, Some(game));
            e.fail(EntryStatus::WrongGame, reason, details);
            continue;
        }
        if let Err(err) = dojo_games::fixed_role(&bot, game.shape()) {
            let (status, reason, details, _) = bad_manifest(&err.manifest_error());
            e.fail(status, reason, details);
            continue;
        }
        if let Err(err) = crate::bots::build(&bot) {
            let (reason, details) = build_failure(&err);
            e.fail(EntryStatus::BuildFailed, reason, details);
        }
    }
    let mut ok = Vec::new();
    let mut excluded = Vec::new();
    for e in entries {
        match e.bot {
            Some(bot) if e.status == EntryStatus::Ok => ok.push(bot),
            _ => excluded.push(e.excluded()),
        }
    }
    Ok((ok, excluded))
}

/// The folder's entries that none of `known` names (by directory or bot
/// name: a league's bots, its excluded entries, its late ones): those
/// that could join a `game` league (ok, and not meant for other games),
/// by directory, and how many others are not ok. Nothing is built or run.
pub fn added_since(game: Game, bots_dir: &Path, known: &[&str]) -> Result<(Vec<String>, usize)> {
    let (entries, _files, _ignored) = scan(bots_dir)?;
    let mut ok = Vec::new();
    let mut not_ok = 0;
    for e in entries {
        if known.contains(&e.dir.as_str()) || known.contains(&e.name.as_str()) {
            continue;
        }
        match &e.bot {
            Some(bot) if for_other_games(bot, game) => {}
            Some(_) if e.status == EntryStatus::Ok => ok.push(e.dir),
            _ => not_ok += 1,
        }
    }
    Ok((ok, not_ok))
}

/// Whether `bot` declares games, all of them games dojo knows, and not
/// `game`: it was written for other games. A listed game dojo does not
/// know may be a typo of this one, so such a bot is a `wrong game`
/// entry, shown with the others that cannot play.
fn for_other_games(bot: &BotSpec, game: Game) -> bool {
    !bot.plays(game.name()) && bot.games.iter().all(|g| g.parse::<Game>().is_ok())
}

/// Prints, dim at a terminal, the one line naming the folder's entries
/// meant for other games (by directory) (`not for cardjitsu: general, royale-random-py
/// (their bot.toml names other games)`), to stderr; nothing when there
/// are none.
fn print_other_games(other_games: &[String], game: Game) {
    if other_games.is_empty() {
        return;
    }
    let whose = if other_games.len() == 1 {
        "its bot.toml names"
    } else {
        "their bot.toml names"
    };
    let line = format!(
        "not for {game}: {} ({whose} other games)",
        untrusted::line(&other_games.join(", "))
    );
    if dim_stderr() {
        errln!("\x1b[2m{line}\x1b[0m");
    } else {
        errln!("{line}");
    }
}

/// Whether stderr takes ANSI dim text: a terminal, and no `NO_COLOR`.
fn dim_stderr() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Whether `bot`'s `games` lists games and none of them is one dojo
/// knows (a typo such as `cardjitsuu`): no league would play it, so
/// `dojo bots` and every league alike call it `wrong game` ([`scan`]).
fn no_known_game(bot: &BotSpec) -> bool {
    !bot.games.is_empty() && bot.games.iter().all(|g| g.parse::<Game>().is_err())
}

/// Why `bot` does not play `game` (`None`: any game, its `games` naming
/// none dojo knows): what its `games` lists, and each listed game dojo
/// does not know (a typo there excludes it from every league).
fn wrong_game(bot: &BotSpec, game: Option<Game>) -> (String, Vec<String>) {
    let not = match game {
        Some(game) => format!("not {game}"),
        None => "which no league plays".to_owned(),
    };
    let reason = format!(
        "it plays {}, {not} (its bot.toml's `games`)",
        bot.games.join(", ")
    );
    (reason, unknown_games(bot).into_iter().collect())
}

/// The games `bot`'s `games` lists that dojo does not know, in one line
/// (`cardjitsuu is no game dojo knows (games: cardjitsu, royale)`), if
/// any: beside a game it knows, a typo that keeps the bot out of that
/// game's leagues only, which `dojo bots` tells while the entry is ok.
fn unknown_games(bot: &BotSpec) -> Option<String> {
    let unknown: Vec<&str> = bot
        .games
        .iter()
        .map(String::as_str)
        .filter(|g| g.parse::<Game>().is_err())
        .collect();
    if unknown.is_empty() {
        return None;
    }
    let known: Vec<&str> = Game::ALL.iter().map(|g| g.name()).collect();
    Some(format!(
        "{} {} no game dojo knows (games: {})",
        unknown.join(", "),
        if unknown.len() == 1 { "is" } else { "are" },
        known.join(", ")
    ))
}

/// A failed build: its command and how it ended, and the end of its
/// stdout and stderr (compilers such as `tsc` and `javac` write their
/// errors to stdout).
fn build_failure(err: &anyhow::Error) -> (String, Vec<String>) {
    let Some(build) = err.downcast_ref::<dojo_runner::BuildError>() else {
        return (err.to_string(), Vec::new());
    };
    let reason = match build {
        dojo_runner::BuildError::Spawn {
            command, source, ..
        } => format!(
            "cannot run its build command `{}`: {source}",
            command.join(" ")
        ),
        dojo_runner::BuildError::Confine {
            command, message, ..
        } => format!(
            "cannot run its build command `{}`: {message}",
            command.join(" ")
        ),
        dojo_runner::BuildError::Failed {
            command, status, ..
        } => format!(
            "its build command `{}` failed ({status})",
            command.join(" ")
        ),
        dojo_runner::BuildError::TimedOut { command, limit, .. } => format!(
            "its build command `{}` was still running after {} s",
            command.join(" "),
            limit.as_secs()
        ),
    };
    let mut details = Vec::new();
    if let Some((stdout, stderr)) = build.output() {
        for (label, text) in [("stdout", stdout), ("stderr", stderr)] {
            let lines: Vec<&str> = text.lines().collect();
            let skipped = lines.len().saturating_sub(BUILD_LINES);
            details.push(if skipped > 0 {
                format!("end of its {label} (last {BUILD_LINES} lines):")
            } else {
                format!("its {label}:")
            });
            details.extend(lines[skipped..].iter().map(|l| format!("  {l}")));
        }
    }
    details.extend(build.hint().map(|h| format!("hint: {h}")));
    (reason, details)
}

/// Moves the folder's bots whose `bot.toml` asks for a value above the
/// league's that the league refuses (`--bot-raises refuse`, the default
/// under `--sandbox strict`) out of the league, into `excluded` as `over
/// the limits` (its manifest is valid; this league does not allow it): a bot named on the command line stops
/// the league instead (`settle_bot_values`).
pub fn exclude_refused_raises(
    settings: &mut dojo_league::Settings,
    exec: &mut dojo_games::BotExecutor,
    excluded: &mut Vec<Excluded>,
    strict: bool,
) {
    let refused: Vec<(String, String)> = settings
        .bots
        .iter()
        .filter(|b| settings.gauntlet.as_deref() != Some(b.name.as_str()))
        .filter_map(|b| {
            let spec = exec.bots.get(&b.name)?;
            let err = dojo_league::settle_values(settings, &b.name, &spec.values, strict).err()?;
            Some((b.name.clone(), err.to_string()))
        })
        .collect();
    for (name, why) in refused {
        let Some(bot) = exec.bots.remove(&name) else {
            continue;
        };
        settings.bots.retain(|b| b.name != name);
        excluded.push(Excluded {
            dir: dir_name(&bot),
            name,
            status: EntryStatus::OverLimits,
            reason: "its bot.toml asks for more than this league allows".to_owned(),
            details: vec![why],
        });
    }
    excluded.sort_by(|a, b| a.dir.cmp(&b.dir));
}

/// The name of a folder bot's directory.
fn dir_name(bot: &BotSpec) -> String {
    bot.dir
        .file_name()
        .map_or_else(|| bot.name.clone(), |d| d.to_string_lossy().into_owned())
}

/// Moves the folder's bots among `failures` (every bot of the league but
/// the gauntlet's NEW, which was named) out of the league: out of its
/// settings and executor, into `excluded`. Returns the failures left (a
/// named bot's), which stop the league as before.
pub fn exclude_smoke_failures(
    failures: Vec<(String, dojo_games::smoke::SmokeFailure)>,
    settings: &mut dojo_league::Settings,
    exec: &mut dojo_games::BotExecutor,
    excluded: &mut Vec<Excluded>,
) -> Vec<(String, dojo_games::smoke::SmokeFailure)> {
    let mut left = Vec::new();
    for (name, failure) in failures {
        if settings.gauntlet.as_deref() == Some(name.as_str()) {
            left.push((name, failure));
            continue;
        }
        let Some(bot) = exec.bots.remove(&name) else {
            left.push((name, failure));
            continue;
        };
        settings.bots.retain(|b| b.name != name);
        let dir = dir_name(&bot);
        let mut reason = format!("it {}", failure.problem);
        if bot.games.is_empty() {
            reason.push_str(&format!(
                " (it declares no `games`, so it was tried at {})",
                settings.game
            ));
        }
        let details = if !failure.played {
            Vec::new()
        } else if failure.stderr_head.is_empty() {
            vec!["(it wrote nothing to stderr)".to_owned()]
        } else {
            std::iter::once("head of its stderr:".to_owned())
                .chain(failure.stderr_head.lines().map(|l| format!("  {l}")))
                .collect()
        };
        excluded.push(Excluded {
            dir,
            name,
            status: EntryStatus::SmokeFailed,
            reason,
            details,
        });
    }
    excluded.sort_by(|a, b| a.dir.cmp(&b.dir));
    left
}

/// `1 entry`, `2 entries`.
pub fn entries(n: usize) -> String {
    if n == 1 {
        "1 entry".to_owned()
    } else {
        format!("{n} entries")
    }
}

/// Prints the entries a league does not play, one line each (the
/// directory, its bot's name when another, the status and why) with their
/// details indented below, to stderr. Directory names, reasons and details
/// hold what the submitter wrote (a build's output, its stderr, its
/// `bot.toml`): their control characters are escaped.
pub fn print_excluded(excluded: &[Excluded], bots_dir: &Path) {
    if excluded.is_empty() {
        return;
    }
    errln!(
        "{} under {} {} not played:",
        entries(excluded.len()),
        bots_dir.display(),
        if excluded.len() == 1 { "is" } else { "are" }
    );
    let label = |e: &Excluded| {
        let dir = untrusted::line(&e.dir);
        if e.name == e.dir {
            dir.into_owned()
        } else {
            format!("{dir} ({})", untrusted::line(&e.name))
        }
    };
    let width = excluded.iter().map(|e| label(e).len()).max().unwrap_or(0);
    for e in excluded {
        errln!(
            "  {:<width$}  {:<18}  {}",
            label(e),
            e.status.label(),
            untrusted::line(&e.reason)
        );
        for line in &e.details {
            errln!("  {:<width$}  | {}", "", untrusted::line(line));
        }
    }
}

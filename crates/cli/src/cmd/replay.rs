//! `dojo replay`: a saved game shown again from its record (no bot runs),
//! or played again with `--rerun` to check that its bots are deterministic.
//! Loading, rebuilding, rerunning and comparing records is
//! [`dojo_league::replay`]; this module renders and prints.
//!
//! Exit status (see [`crate::exit`]): 0 when shown, or when a rerun came
//! out identical; 1 when a rerun differs; 3 for any error (an unreadable or
//! corrupt record, a bot that is gone, changed or cannot be started), so a
//! script never mistakes a broken setup for a nondeterministic bot.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use dojo_games::SeatInfo;
use dojo_league::replay::{self, BotSource, Difference, ReplayError, Saved};
use dojo_league::verdict::{self, Verdict};
use dojo_league::view::RecordSource;
use dojo_runner::BotSpec;

use crate::args::ReplayArgs;
use crate::bots;
use crate::outputs::replay::Shown;
use crate::outputs::{Format, Output};

pub fn run(bots_dir: &Path, a: &ReplayArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    // A league's game is read from its directory, a record from its file.
    let record = match a.game {
        Some(_) => Named::league("RECORD", Some(&a.record)),
        None => Named::file("RECORD", Some(&a.record)),
    };
    let outputs = a.output.resolve(&[], &[record])?;
    let (saved, forfeit) = load(&a.record, a.game)?;
    let page = a.output.asks_for(Format::Html);
    // A rerun plays the game again rather than show it (clap refuses it
    // beside --html).
    if a.rerun && !page {
        return rerun(bots_dir, &saved, a);
    }
    // Absolute: the page's commands work from any directory.
    let record = crate::rerun::path_word(&a.record);
    let source = match a.game {
        Some(id) => RecordSource::League { dir: record, id },
        None => RecordSource::File(record),
    };
    // The page is written instead of the text.
    let text = (!page).then(|| Box::new(Text(a.clone())) as Box<dyn Output<Shown>>);
    outputs.open(text).finish(&Shown {
        saved,
        source,
        forfeit,
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The terminal: the game as text, as `--turn`, `--watch` and `--stderr`
/// ask.
struct Text(ReplayArgs);

impl Output<Shown> for Text {
    fn finish(&mut self, shown: &Shown) -> Result<()> {
        let text = crate::games::replay_text(&shown.saved);
        text.show(&self.0, shown.forfeit.as_ref())?;
        // After the whole game, as `dojo match` ends: how near its
        // limits each bot ran is what an author replays a game to see.
        if self.0.turn.is_none() {
            for line in text.times() {
                outln!("times: {line}");
            }
        }
        Ok(())
    }
}

/// [`replay::load`], with the two directory mix-ups told in terms of the
/// `--game` flag, and a league's own file given as a record told with the
/// commands that read it; for a league's game, the result the league
/// counted when a forfeit decided it (its record only knows the board's).
fn load(path: &Path, game: Option<u64>) -> Result<(Saved, Option<Verdict>)> {
    let Some(id) = game else {
        return Ok((
            replay::load(path, None)
                .map_err(|e| compare_report(path, None).unwrap_or_else(|| load_error(e)))?,
            None,
        ));
    };
    let (saved, line) = replay::load_game(path, id)
        .map_err(|e| compare_report(path, Some(id)).unwrap_or_else(|| load_error(e)))?;
    // Only a game with a faulty seat needs the league's fault policy.
    if line.faulty.is_empty() {
        return Ok((saved, None));
    }
    let settings = dojo_league::store::load_settings(path)?;
    let forfeit = verdict::forfeit(&line, settings.game.shape(), &settings.faults);
    Ok((saved, forfeit))
}

/// When `path` is a `dojo compare --json` report rather than a record,
/// the error that says so: the report keeps no game's moves, only how to
/// play again the game of each bot's first fault (`first_faults`, with
/// its `dojo match` command), which is told, for game `id` when it is one
/// of them. `None` for any other file.
fn compare_report(path: &Path, id: Option<u64>) -> Option<anyhow::Error> {
    let text = dojo_runner::input::read_text_capped(
        path,
        dojo_runner::input::RECORD_CAP,
        "a compare report",
    )
    .ok()?;
    let report: serde_json::Value = serde_json::from_str(&text).ok()?;
    let is_report = ["verdict", "blocks", "model", "settings"]
        .iter()
        .all(|key| report.get(key).is_some());
    if !is_report {
        return None;
    }
    let told: Vec<(u64, String, String)> = (report.get("first_faults").and_then(|f| f.as_array()))
        .into_iter()
        .flatten()
        .filter_map(|f| {
            Some((
                f.get("fault")?.get("game")?.as_u64()?,
                f.get("role")?.as_str()?.to_uppercase(),
                f.get("command")?.as_str()?.to_owned(),
            ))
        })
        .collect();
    let head = format!(
        "{} is a `dojo compare` report, not a game record or a league directory: it keeps no game's moves",
        path.display()
    );
    let untrusted = crate::render::untrusted::line;
    if let Some((game, role, command)) = told.iter().find(|(game, ..)| Some(*game) == id) {
        return Some(anyhow!(
            "{head}; game {game} is {role}'s first fault, played again on its own (from the directory compare ran in) by: {}",
            untrusted(command)
        ));
    }
    let commands: Vec<String> = (told.iter())
        .map(|(game, role, command)| {
            format!("{role}'s first fault, game {game}: {}", untrusted(command))
        })
        .collect();
    Some(if commands.is_empty() {
        anyhow!("{head} (and no bot faulted in its games)")
    } else {
        anyhow!(
            "{head}; the games it tells how to play again on its own (from the directory compare ran in): {}",
            commands.join("; ")
        )
    })
}

/// A loading error told in terms of the command line (see [`load`]).
fn load_error(err: ReplayError) -> anyhow::Error {
    match err {
        ReplayError::NotALeague { path } if path.is_dir() => anyhow!(
            "{}: --game expects a league directory, and it holds no games.jsonl",
            path.display()
        ),
        ReplayError::NotALeague { path } => anyhow!(
            "{}: --game expects a league directory (holding games.jsonl)",
            path.display()
        ),
        ReplayError::IsADirectory { path } => anyhow!(
            "{} is a directory: name a game of its games.jsonl with --game ID",
            path.display()
        ),
        ReplayError::LeagueFile {
            path,
            what,
            dir,
            ids,
        } => anyhow!(
            "{} is {what}, not a game record: replay one of the league's games with `dojo replay {} --game ID`{}, or show its standings with `dojo report {}`",
            path.display(),
            dir.display(),
            ids.map_or_else(String::new, |ids| format!(" ({ids})")),
            dir.display()
        ),
        other => other.into(),
    }
}

/// The bot for a recorded seat ([`replay::seat_bot`]), with a note when
/// it was found by name only (a record from an older dojo).
fn seat_bot(seat: &SeatInfo, bots_dir: &Path) -> Result<BotSpec> {
    let (bot, source) = replay::seat_bot(seat, bots_dir)?;
    match source {
        BotSource::RecordedDir => {}
        BotSource::BotsDir { command_changed } => {
            errln!(
                "note: seat {}: the record does not say where {} was; using {}",
                seat.seat + 1,
                seat.bot,
                bot.dir.display()
            );
            if command_changed {
                errln!(
                    "note: seat {}: {} now runs {:?} (recorded: {:?})",
                    seat.seat + 1,
                    bot.name,
                    bot.command,
                    seat.command
                );
            }
        }
    }
    Ok(bot)
}

/// Every seat's bot, each distinct bot built once and checked: it plays
/// `game` and is the bot that played (its fingerprint is unchanged).
fn seat_bots(seats: &[SeatInfo], bots_dir: &Path, game: &str) -> Result<Vec<Arc<BotSpec>>> {
    let mut built: HashMap<(Option<String>, String, Vec<String>), Arc<BotSpec>> = HashMap::new();
    let mut out = Vec::with_capacity(seats.len());
    for seat in seats {
        let key = (seat.dir.clone(), seat.bot.clone(), seat.command.clone());
        if let Some(bot) = built.get(&key) {
            out.push(Arc::clone(bot));
            continue;
        }
        let bot = Arc::new(seat_bot(seat, bots_dir)?);
        bots::check_game(&bot, game)?;
        bots::build(&bot)?;
        replay::check_fingerprint(seat, &bot)?;
        built.insert(key, Arc::clone(&bot));
        out.push(bot);
    }
    Ok(out)
}

/// A league game is played again under the league's time controls and
/// limits (its `league.json`) with each bot's own values as the league
/// applied them, not under the replay's defaults and the bots' manifests
/// as they read now; only the containment mode is the rerun's own. A time
/// or limit flag that differs from the league's is refused, as on
/// `--resume`.
fn league_conditions(
    dir: &Path,
    a: &ReplayArgs,
    seats: &[SeatInfo],
    bots: &mut [Arc<BotSpec>],
) -> Result<dojo_runner::RunOptions> {
    let mut settings = dojo_league::store::load_settings(dir)?;
    // The containment is the rerun's own: it changes no result of an
    // honest bot, and the machine may differ.
    let (sandbox, league_wide): (Vec<_>, Vec<_>) = a
        .controls
        .0
        .0
        .iter()
        .copied()
        .partition(|(c, _)| c.flag == "sandbox");
    for (control, value) in sandbox {
        control.set(&mut settings.controls, value);
    }
    let given = crate::args::ControlArgs(dojo_runner::Given(league_wide));
    let conflicts = super::control_conflicts(&given, &settings);
    if !conflicts.is_empty() {
        bail!(
            "--rerun of a league game plays under the league's time controls and limits; {} differ{} from {} (drop the flag)",
            conflicts.join(", "),
            if conflicts.len() == 1 { "s" } else { "" },
            dir.join(dojo_league::store::LEAGUE_FILE).display()
        );
    }
    for (seat, bot) in seats.iter().zip(bots.iter_mut()) {
        let values = settings
            .bots
            .iter()
            .find(|b| b.name == seat.bot)
            .map(|b| b.values)
            .unwrap_or_default();
        if bot.values != values {
            Arc::make_mut(bot).values = values;
        }
    }
    Ok(crate::flags::warn_open_files(
        dojo_runner::RunOptions::from(settings.controls),
    ))
}

/// Prints the verdict; exit status 0 (identical) or 1 (differs).
fn verdict(saved: &Saved, rerun: &Saved, difference: Option<Difference>) -> ExitCode {
    let (shown_saved, shown_rerun) = (
        crate::games::replay_text(saved),
        crate::games::replay_text(rerun),
    );
    match difference {
        None => {
            outln!("identical: the rerun played the same game (timing and stderr aside)");
            return ExitCode::SUCCESS;
        }
        Some(Difference::At(i)) => {
            outln!("differs: first at {} {}", saved.moment(), i + 1);
            // In words first (who answered what, each time), then the
            // step as each play shows it.
            if let Ok(Some(parting)) = dojo_games::determinism::parting(saved, rerun) {
                let name = |seat: usize| match saved.seats().get(seat) {
                    Some(s) => format!(
                        "seat {} ({})",
                        seat + 1,
                        crate::render::untrusted::line(&s.bot)
                    ),
                    None => format!("seat {}", seat + 1),
                };
                outln!("  {}", parting.words(name));
            }
            out!(
                "saved:\n{}rerun:\n{}",
                shown_saved.show_moment(i),
                shown_rerun.show_moment(i)
            );
        }
        Some(Difference::Fields(fields)) => {
            outln!("differs: the moves are the same, but these fields are not:");
            let value = |v: Option<&serde_json::Value>| {
                v.map_or_else(|| "(absent)".to_owned(), serde_json::Value::to_string)
            };
            for f in fields {
                outln!("  {}:\n    saved: {}", f.field, value(f.saved.as_ref()));
                outln!("    rerun: {}", value(f.rerun.as_ref()));
            }
        }
    }
    crate::exit::code(crate::exit::NEGATIVE)
}

/// Plays the saved game again with the bots that played it and says
/// whether it came out the same. What the record names besides the bots
/// (decks, a board) is read again first, so a missing deck is told before
/// any bot is built.
fn rerun(bots_dir: &Path, saved: &Saved, a: &ReplayArgs) -> Result<ExitCode> {
    let rerun = saved.rerun()?;
    let mut loaded = seat_bots(saved.seats(), bots_dir, saved.game().name())?;
    let options = match a.game {
        Some(_) => league_conditions(&a.record, a, saved.seats(), &mut loaded)?,
        None => a.controls.run_options(),
    };
    for note in &rerun.notes {
        errln!("note: {note}");
    }
    bots::on_ctrl_c(false);
    let shown = crate::games::replay_text(saved);
    outln!("{}", shown.rerun_header());
    let new = rerun.play(loaded, &options)?;
    let difference = saved.compare(&new)?;
    Ok(verdict(saved, &new, difference))
}

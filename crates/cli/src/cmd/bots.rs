//! `dojo bots`: every entry of the bots directory, with its status
//! (`submissions.rs`). What an entry's submitter wrote (its directory's
//! name, its `bot.toml`'s `games` and `description`, the errors quoting
//! it) is shown with its control characters escaped
//! ([`crate::render::untrusted`]).

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use dojo_league::EntryStatus;

use crate::render::untrusted;

pub fn run(bots_dir: &Path) -> Result<ExitCode> {
    if let Some(hint) = crate::home::hint(bots_dir) {
        anyhow::bail!("{hint}");
    }
    let (entries, files, ignored) = crate::submissions::scan(bots_dir)?;
    if entries.is_empty() {
        outln!("no bots under {}", bots_dir.display());
    } else {
        outln!(
            "{:<20} {:<14} {:<18} DESCRIPTION, OR WHY NOT OK",
            "BOT",
            "STATUS",
            "GAMES"
        );
    }
    for e in &entries {
        // The directory too when the bot is named otherwise.
        let shown = if e.name == e.dir {
            e.name.clone()
        } else {
            format!("{} ({}/)", e.name, e.dir)
        };
        let (games, about) = match &e.bot {
            Some(bot) => {
                // No `games`: it enters any league, and its smoke start
                // decides.
                let games = if bot.games.is_empty() {
                    "(any)".to_owned()
                } else {
                    bot.games.join(",")
                };
                let about = [bot.description.as_deref(), Some(e.reason.as_str())]
                    .into_iter()
                    .flatten()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
                (games, about)
            }
            None => ("-".to_owned(), e.reason.clone()),
        };
        outln!(
            "{:<20} {:<14} {:<18} {}",
            untrusted::line(&shown),
            e.status.label(),
            untrusted::line(&games),
            untrusted::line(&about)
        );
        for line in &e.details {
            outln!("{:<20} | {}", "", untrusted::line(line));
        }
    }
    let not_ok = entries
        .iter()
        .filter(|e| e.status != EntryStatus::Ok)
        .count();
    if not_ok > 0 {
        outln!(
            "{not_ok} of {} not ok (a league also leaves out the entries for other games, and those that fail to build or to start)",
            crate::submissions::entries(entries.len()),
        );
    }
    if !files.is_empty() {
        outln!(
            "not entries (a bot is a directory): {}",
            untrusted::line(&files.join(", "))
        );
    }
    if !ignored.is_empty() {
        outln!(
            "not entries ({} lists them): {}",
            dojo_runner::IGNORE_FILE,
            untrusted::line(&ignored.join(", "))
        );
    }
    Ok(ExitCode::SUCCESS)
}

//! `dojo bots`: what is under the bots directory.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

pub fn run(bots_dir: &Path) -> Result<ExitCode> {
    if let Some(hint) = crate::home::hint(bots_dir) {
        anyhow::bail!("{hint}");
    }
    let found = dojo_runner::discover(bots_dir)?;
    if found.is_empty() {
        outln!("no bots under {}", bots_dir.display());
    }
    for bot in found {
        let games = if bot.games.is_empty() {
            "-".to_owned()
        } else {
            bot.games.join(",")
        };
        outln!(
            "{:<20} {:<18} {}",
            bot.name,
            games,
            bot.description.as_deref().unwrap_or("")
        );
    }
    Ok(ExitCode::SUCCESS)
}

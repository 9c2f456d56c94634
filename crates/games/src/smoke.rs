//! A smoke start before a league: each bot plays one short game against
//! itself, and must start and answer its first prompt in time (the
//! start-up allowance applies) without crashing or answering nonsense. A
//! bot that fails would otherwise lose every game of the league to faults,
//! silently.

use std::sync::Arc;

use dojo_runner::{BotSpec, RunError, RunOptions};

use crate::game::Game;
use crate::record::SeatConduct;

/// Lines of a failed bot's stderr shown.
const STDERR_HEAD_LINES: usize = 12;

/// Why a bot failed its smoke start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmokeFailure {
    pub bot: String,
    /// What went wrong, in words.
    pub problem: String,
    /// The first lines the bot wrote to stderr (may be empty).
    pub stderr_head: String,
    /// Whether its game was played: false when the bot could not even be
    /// started, so it had no stderr to show.
    pub played: bool,
}

/// Why a smoke game could not be played, from the runner's error: said of
/// the bot (the messages name it already), so without the `bot NAME: `
/// a spawn error's text starts with.
pub(crate) fn unplayed(err: RunError) -> String {
    let text = err.to_string();
    match &err {
        RunError::Spawn { bot, .. } => text
            .strip_prefix(&format!("bot {bot}: "))
            .map_or_else(|| text.clone(), str::to_owned),
        _ => text,
    }
}

fn head(stderr: &[Vec<String>], seat: usize) -> String {
    let text: String = stderr
        .get(seat)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    text.lines()
        .take(STDERR_HEAD_LINES)
        .collect::<Vec<_>>()
        .join("\n")
}

fn problem(c: &SeatConduct, bot: &BotSpec, opts: &RunOptions) -> Option<String> {
    let f = c.faults;
    let what = if f.timeout > 0 {
        // The bot's own time values, if its bot.toml has some.
        let theirs = opts.for_bot(bot);
        let hint = if c.wrote_nothing(f.timeout as usize) {
            format!("; {}", crate::record::FLUSH_HINT)
        } else {
            String::new()
        };
        format!(
            "did not answer its first prompt within {} ms (move timeout plus start-up allowance){hint}",
            dojo_runner::as_ms(theirs.timeout + theirs.startup)
        )
    } else if f.crash > 0 {
        let hint = dojo_runner::hidden_path_hint(bot, opts.controls.sandbox)
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        format!("exited or closed its output without answering its first prompt{hint}")
    } else if f.invalid > 0 {
        match &c.first_invalid {
            Some(reason) => format!(
                "answered its first prompt with something that is not a move: {reason} ({})",
                crate::record::STDOUT_HINT
            ),
            None => "answered its first prompt with something that is not a move".to_owned(),
        }
    } else {
        return None;
    };
    Some(what)
}

/// Plays one short game of `game` with `bot` in every seat and checks the
/// first seat's conduct. Royale needs a `board` (any of the league's).
pub fn smoke_start(
    game: Game,
    bot: &Arc<BotSpec>,
    board: Option<&str>,
    opts: &RunOptions,
) -> Result<(), SmokeFailure> {
    let opts = RunOptions {
        keep_stderr: true,
        ..opts.clone()
    };
    let fail = |problem: String, stderr_head: String, played: bool| SmokeFailure {
        bot: bot.name.clone(),
        problem,
        stderr_head,
        played,
    };
    let Some((conduct, stderr)) = game.smoke(bot, board, &opts).map_err(|e| {
        fail(
            format!("could not play its smoke game: {e}"),
            String::new(),
            false,
        )
    })?
    else {
        return Ok(());
    };
    match conduct.first().and_then(|c| problem(c, bot, &opts)) {
        None => Ok(()),
        Some(p) => Err(fail(p, head(&stderr, 0), true)),
    }
}

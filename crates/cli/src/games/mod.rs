//! Each game's part of the command line, reached through one registry.
//!
//! A game's CLI pieces live in its own module: the flags of its
//! `dojo match GAME` subcommand and how that runs, its option flags (its
//! `options.rs`, the one place they are declared: [`options`] has the
//! ones every game takes and their union for `dojo league` and `dojo
//! compare`), its transcript and its league defaults. [`CLIS`] is
//! the registry: one entry per game of [`Game::ALL`], in its order (the
//! test `every_game_has_its_command_line` checks they agree, so a game
//! added there fails `cargo test` until it has its module:
//! `docs/adding-a-game.md`). Everything else about a game (its shape, its
//! boards) the commands ask its `dojo_games::GameDef`; they never `match`
//! on a game themselves.

pub mod cardjitsu;
pub mod options;
pub mod royale;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use clap::{ArgMatches, FromArgMatches, Subcommand};
use dojo_games::{Game, GameOptions, Saved};
use dojo_league::PlayOptions;

use crate::games::options::GameOptionsArgs;
use crate::render::ReplayText;
use crate::starter::Starter;

/// What the command line knows about one game.
pub trait GameCli: Sync {
    /// The game this is the command line of.
    fn game(&self) -> Game;
    /// `dojo match GAME`: its flags and its line in `dojo match --help`.
    fn match_command(&self) -> clap::Command;
    /// The flags of `dojo match GAME`, as parsed, ready to run.
    fn match_args(&self, matches: &mut ArgMatches) -> Result<Box<dyn MatchArgs>, clap::Error>;
    /// The game's own option flags (its group in `games/GAME/options.rs`)
    /// added to `cmd`: the flags its `dojo match` flattens beside
    /// [`options::CommonArgs`], and its part of the commands that play
    /// any game ([`GameOptionsArgs`]). A game without options of its own
    /// adds none.
    fn options(&self, cmd: clap::Command) -> clap::Command {
        cmd
    }
    /// The default of `--max-rounds` for this game, as its help says it
    /// (`500`).
    fn max_rounds_default(&self) -> String;
    /// Whether its games are played on a board (`--board`): the game's
    /// own answer (`Shape::board`), not the command line's.
    fn boards(&self) -> bool {
        self.game().shape().board
    }
    /// The stored form (`league.json`'s `play`): `base` with the values
    /// of the game's option flags that were given (only those were: the
    /// common ones and its own, [`GameOptionsArgs::own`]; the others are
    /// refused before). A game without options of its own stores the
    /// common ones.
    fn play_options(&self, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
        let mut play = base.clone();
        a.common.store(&mut play);
        Ok(play)
    }
    /// The game's options for its games, from the stored `play` (the
    /// values of its option flags), read and checked now (a bad deck is an
    /// error before any game); its `GameDef::play` reads them back. A game
    /// without options of its own keeps the default: its own defaults.
    fn executor_options(&self, play: &PlayOptions) -> Result<GameOptions> {
        let _ = play;
        Ok(GameOptions::default())
    }
    /// Games per league when `--games` is not given, with `boards` boards.
    fn league_games(&self, boards: usize) -> u64;
    /// How `dojo replay` shows a saved game of this game (its record's
    /// `ReplayText`); `None` for another game's.
    fn replay_text<'a>(&self, saved: &'a Saved) -> Option<&'a dyn ReplayText>;
    /// What `dojo check` plays a bot under: each of the game's rule sets
    /// (or boards), named, as the `dojo match` flags that choose it, under
    /// the game option flags given (`options`, their other game's flags
    /// refused before) and, for a game on boards, on each of `boards` (the
    /// game's check board when none). An option that picks a rule set
    /// (`--rules`) checks that one only; the others go into every game.
    fn check_variants(
        &self,
        options: &GameOptionsArgs,
        boards: &[String],
    ) -> Result<Vec<(String, Vec<String>)>>;
    /// The round limit of `dojo check`'s games when `--max-rounds` is not
    /// given, where the game's own default would make a check slow;
    /// `None`: the game's default.
    fn check_max_rounds(&self) -> Option<u32> {
        None
    }
    /// The bundled bots `dojo check` plays a bot against (no build needed).
    fn check_opponents(&self) -> &'static [&'static str];
    /// The `dojo match` arguments that put `bot` in seat `seat` (0-based,
    /// below `Shape::seats`) and `opponent` in every other seat.
    fn check_seating(&self, bot: &str, opponent: &str, seat: usize) -> Vec<String>;
    /// The starter bots `dojo new` writes for this game (its files under
    /// `crates/cli/templates/GAME/`), and the match that tries one.
    fn starter(&self) -> &'static Starter;
}

/// The value stored for the game flag `--flag` in `play`, parsed; `None`
/// when the flag was not given (the game's default). A stored value that
/// does not parse (a hand-edited `league.json`) is an error naming it.
pub fn stored<T>(play: &PlayOptions, flag: &str) -> Result<Option<T>>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    play.get(flag)
        .map(|v| {
            v.parse::<T>()
                .map_err(|e| anyhow::anyhow!("the stored game option --{flag} {v}: {e}"))
        })
        .transpose()
}

/// The `dojo match` flags that play under the stored options `play`
/// (each stored under its flag's name: `--max-rounds 40`), as a league's
/// command (`dojo_league::command::league_argv`) passes them on.
pub fn match_flags(play: &PlayOptions) -> Vec<String> {
    (play.iter())
        .flat_map(|(flag, value)| [format!("--{flag}"), value.to_owned()])
        .collect()
}

/// The registry: the command line's part of each game of [`Game::ALL`],
/// in its order.
pub const CLIS: [&dyn GameCli; Game::ALL.len()] = [&cardjitsu::CardJitsuCli, &royale::RoyaleCli];

/// The command line's part of `game`. Every game the binary can name is
/// one of [`Game::ALL`] (nothing in it registers another), and each has
/// its entry in [`CLIS`] (checked by a test), so the lookup cannot fail.
pub fn cli(game: Game) -> &'static dyn GameCli {
    CLIS.into_iter()
        .find(|c| c.game() == game)
        .expect("every game of Game::ALL has its entry in CLIS")
}

/// A game's `dojo match` flags, parsed: running them plays the game.
pub trait MatchArgs: std::fmt::Debug {
    fn run(self: Box<Self>, bots_dir: &Path) -> Result<ExitCode>;
}

/// The subcommand `dojo match GAME` from its flags `A` and the line
/// `dojo match --help` shows for it.
fn match_command<A: clap::Args>(game: Game, about: &'static str) -> clap::Command {
    A::augment_args(clap::Command::new(game.name()))
        .about(about)
        .long_about(None)
        // The common `--max-rounds`, with this game's default (changed
        // in place: `mut_arg` would move it last, and its heading with it).
        .mut_args(|arg| {
            if arg.get_id() == "max_rounds" {
                arg.help(options::max_rounds_help(Some(game)))
            } else {
                arg
            }
        })
}

/// Parses the flags `A` of `dojo match GAME`.
fn match_args<A>(matches: &mut ArgMatches) -> Result<Box<dyn MatchArgs>, clap::Error>
where
    A: FromArgMatches + MatchArgs + 'static,
{
    Ok(Box::new(A::from_arg_matches_mut(matches)?))
}

/// `dojo match GAME ...`: one subcommand per game, each built and parsed
/// by the game's module.
#[derive(Debug)]
pub struct MatchCommand(Box<dyn MatchArgs>);

impl MatchCommand {
    pub fn run(self, bots_dir: &Path) -> Result<ExitCode> {
        self.0.run(bots_dir)
    }
}

impl FromArgMatches for MatchCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, mut sub)) = matches.remove_subcommand() else {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingSubcommand,
                "a game is required",
            ));
        };
        let game: Game = name
            .parse()
            .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidSubcommand, e))?;
        Ok(MatchCommand(cli(game).match_args(&mut sub)?))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for MatchCommand {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        Game::ALL
            .into_iter()
            .fold(cmd, |cmd, game| cmd.subcommand(cli(game).match_command()))
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        name.parse::<Game>().is_ok()
    }
}

/// The games, other than `not`, that take any of `flags` (option flags).
pub fn games_taking(flags: &[String], not: Game) -> Vec<&'static str> {
    Game::ALL
        .into_iter()
        .filter(|&g| g != not && flags.iter().any(|f| options::flags(Some(g)).contains(f)))
        .map(Game::name)
        .collect()
}

/// The games played on boards.
pub fn board_games() -> Vec<&'static str> {
    Game::ALL
        .into_iter()
        .filter(|&g| cli(g).boards())
        .map(Game::name)
        .collect()
}

/// The text rendering of a saved game: its game's command line
/// (`GameCli::replay_text`) knows its record. Every game's CLI renders its
/// own records, so the fallback only says so should one not.
pub fn replay_text(saved: &Saved) -> &dyn ReplayText {
    cli(saved.game()).replay_text(saved).unwrap_or(&NoText)
}

/// A record no game's command line renders.
struct NoText;

impl ReplayText for NoText {
    fn show(
        &self,
        _: &crate::flags::ReplayArgs,
        _: Option<&dojo_league::verdict::Verdict>,
    ) -> Result<()> {
        anyhow::bail!("dojo replay cannot show this record as text")
    }

    fn rerun_header(&self) -> String {
        "rerun:".to_owned()
    }

    fn show_moment(&self, _: usize) -> String {
        String::new()
    }

    fn times(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game missing from [`cli`] does not compile; this checks every
    /// registered game's `dojo match` subcommand is named after it and the
    /// defaults make sense.
    #[test]
    fn every_game_has_its_command_line() {
        for (game, game_cli) in Game::ALL.into_iter().zip(CLIS) {
            assert_eq!(game_cli.game(), game);
            assert_eq!(game_cli.match_command().get_name(), game.name());
            assert!(options::flags(Some(game)).contains(&"--max-rounds".to_owned()));
            assert!(!game_cli.max_rounds_default().is_empty(), "{game}");
            assert!(game_cli.league_games(3) >= 1, "{game}");
        }
    }
}

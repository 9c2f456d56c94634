//! The game option flags, each declared once: the ones every game has
//! ([`CommonArgs`]: `--max-rounds`), each game's own group (in its
//! module's `options.rs`, reached through `GameCli::options`), and their
//! union for the commands that play any game ([`GameOptionsArgs`]:
//! `dojo league`, `dojo compare`), built from the registry. A game's
//! `dojo match` flattens `CommonArgs` and its own group; both paths go
//! through the game's one resolution: the flags' stored form
//! (`GameCli::play_options`, a league's `play`) and the library's settings
//! read from it (`GameCli::executor_options`).

use std::path::PathBuf;

use anyhow::Result;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, FromArgMatches};
use dojo_games::Game;
use dojo_league::PlayOptions;

use crate::outpaths::Named;

/// The help heading of [`CommonArgs`]; each game's group has its own
/// (`CardJitsu options`), so `--help` shows which flags go with which
/// game.
pub const HEADING: &str = "Game options";

/// The option flags every game takes.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = HEADING)]
pub struct CommonArgs {
    #[arg(
        long,
        value_name = "N",
        value_parser = crate::args::at_least_one_u32,
        allow_negative_numbers = true,
        help = max_rounds_help(None)
    )]
    pub max_rounds: Option<u32>,
}

/// The stored name of `--max-rounds` (`league.json`'s `play`).
const MAX_ROUNDS: &str = "max-rounds";

impl CommonArgs {
    /// Lays the flags given over `play` (their stored form; a flag not
    /// given leaves the stored value, none for a new league: the game's
    /// default).
    pub fn store(&self, play: &mut PlayOptions) {
        if let Some(n) = self.max_rounds {
            play.set(MAX_ROUNDS, Some(n.to_string()));
        }
    }

    /// The round limit stored in `play`; `None`: the game's default.
    pub fn max_rounds(play: &PlayOptions) -> Result<Option<u32>> {
        super::stored(play, MAX_ROUNDS)
    }
}

/// The help of `--max-rounds`: with the default of `game` (`dojo match
/// GAME`), or of every game (the commands that play any game).
pub fn max_rounds_help(game: Option<Game>) -> String {
    let default = match game {
        Some(game) => super::cli(game).max_rounds_default(),
        None => every_default(|g| super::cli(g).max_rounds_default()),
    };
    format!("Rounds after which an undecided game is a draw [default: {default}]")
}

/// The help of `--max-rounds` in `dojo check`, whose games of a game
/// with a check cap of its own (`GameCli::check_max_rounds`) stop there.
pub fn check_max_rounds_help() -> String {
    let default = every_default(|g| {
        let cli = super::cli(g);
        cli.check_max_rounds()
            .map_or_else(|| cli.max_rounds_default(), |n| n.to_string())
    });
    format!("Rounds after which an undecided game is a draw [default: {default}]")
}

/// `cardjitsu 500; royale ...`: each game's default by `default`.
fn every_default(default: impl Fn(Game) -> String) -> String {
    (Game::ALL.into_iter())
        .map(|g| format!("{g} {}", default(g)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every game's option flags, for the commands that play any game: one
/// clap group of [`CommonArgs`] and each game's own (`GameCli::options`),
/// each flag declared once. The chosen game reads its own group
/// ([`Self::own`]) into its stored form (`GameCli::play_options`); a flag
/// of another game is refused by name (`crate::cmd::play_options`),
/// never ignored.
#[derive(Debug, Clone)]
pub struct GameOptionsArgs {
    pub common: CommonArgs,
    /// The command line as parsed, which each game's group is read from.
    matches: ArgMatches,
    /// The option flags given (`--deck1`), in declaration order.
    given: Vec<String>,
    /// The files the flags given read (those declared with
    /// `ValueHint::FilePath`), with their flags.
    files: Vec<(String, PathBuf)>,
}

impl GameOptionsArgs {
    /// A game's own group (`games/GAME/options.rs`), as given.
    pub fn own<A: FromArgMatches>(&self) -> Result<A> {
        Ok(A::from_arg_matches(&self.matches)?)
    }

    /// The option flags given, by name (`--deck1`).
    pub fn given(&self) -> &[String] {
        &self.given
    }

    /// The files the flags given read (decks), as inputs no output may
    /// overwrite (`crate::outpaths::check`).
    pub fn inputs(&self) -> Vec<Option<Named<'_>>> {
        (self.files.iter())
            .map(|(flag, path)| Named::file(flag, Some(path)))
            .collect()
    }
}

/// The option flags `game` takes (`--max-rounds`, `--deck1`...), or, with
/// `None`, every game's: declared by [`CommonArgs`] and the games' groups.
pub fn flags(game: Option<Game>) -> Vec<String> {
    let cmd = match game {
        Some(game) => super::cli(game).options(CommonArgs::augment_args(Command::new("options"))),
        None => GameOptionsArgs::augment_args(Command::new("options")),
    };
    cmd.get_arguments()
        .filter_map(clap::Arg::get_long)
        .map(|long| format!("--{long}"))
        .collect()
}

impl Args for GameOptionsArgs {
    /// Each group under its heading; the flags the command declares
    /// after them go back to the default one.
    fn augment_args(cmd: Command) -> Command {
        let cmd = CommonArgs::augment_args(cmd);
        super::CLIS
            .into_iter()
            .fold(cmd, |cmd, game| game.options(cmd))
            .next_help_heading(None::<&'static str>)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for GameOptionsArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let declared = GameOptionsArgs::augment_args(Command::new("options"));
        let mut given = Vec::new();
        let mut files = Vec::new();
        for arg in declared.get_arguments() {
            let id = arg.get_id().as_str();
            if m.value_source(id) != Some(ValueSource::CommandLine) {
                continue;
            }
            let flag = format!("--{}", arg.get_long().unwrap_or(id));
            if arg.get_value_hint() == clap::ValueHint::FilePath {
                let values = m.get_raw(id).into_iter().flatten();
                files.extend(values.map(|v| (flag.clone(), PathBuf::from(v))));
            }
            given.push(flag);
        }
        Ok(GameOptionsArgs {
            common: CommonArgs::from_arg_matches(m)?,
            matches: m.clone(),
            given,
            files,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command as Top};
    use clap::Parser;

    /// `dojo league ARGS...`'s game option flags, as parsed.
    fn league(args: &[&str]) -> GameOptionsArgs {
        let cli = Cli::try_parse_from([&["dojo", "league"], args].concat()).unwrap();
        let Top::League(a) = cli.command else {
            panic!("not a league: {args:?}")
        };
        a.play
    }

    #[test]
    fn the_union_declares_each_games_flags_once() {
        let all = flags(None);
        let mut each: Vec<String> = Game::ALL.into_iter().flat_map(|g| flags(Some(g))).collect();
        each.sort();
        each.dedup();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, each, "the union is every game's flags");
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "a flag declared twice: {all:?}");
        for game in Game::ALL {
            assert!(flags(Some(game)).contains(&"--max-rounds".to_owned()));
        }
    }

    #[test]
    fn the_flags_given_and_the_files_they_read_are_known() {
        let a = league(&["cardjitsu", "--deck1", "d.dcfg", "--max-rounds", "3"]);
        assert_eq!(a.given(), ["--max-rounds", "--deck1"]);
        assert_eq!(a.common.max_rounds, Some(3));
        let inputs: Vec<_> = a.inputs().into_iter().flatten().collect();
        assert_eq!(inputs.len(), 1);
        assert_eq!(
            (inputs[0].flag, inputs[0].path),
            ("--deck1", "d.dcfg".as_ref())
        );
        assert!(league(&["royale"]).given().is_empty());
    }

    #[test]
    fn each_game_reads_its_own_flags_into_its_stored_form() {
        let a = league(&[
            "--rules",
            "classic",
            "--max-rounds",
            "4",
            "--stall-rounds",
            "2",
        ]);
        let base = PlayOptions::default();
        let cardjitsu = crate::games::cli(Game::CARDJITSU)
            .play_options(&a, &base)
            .unwrap();
        assert_eq!(cardjitsu.get("rules"), Some("classic"));
        assert_eq!(cardjitsu.get("max-rounds"), Some("4"));
        assert_eq!(cardjitsu.get("stall-rounds"), None);
        let royale = crate::games::cli(Game::ROYALE)
            .play_options(&a, &base)
            .unwrap();
        assert_eq!(royale.get("stall-rounds"), Some("2"));
        assert_eq!(royale.get("rules"), None);
    }

    /// A flag of another game is refused by name, never ignored.
    #[test]
    fn another_games_flag_is_refused_naming_it_and_the_game() {
        let refused = |game: Game, args: &[&str]| {
            let a = league(args);
            crate::cmd::play_options(game, &a, &PlayOptions::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(Game::ROYALE, &["--deck1", "championship"]),
            "--deck1 only applies to cardjitsu, not royale"
        );
        assert_eq!(
            refused(Game::ROYALE, &["--rules", "classic", "--deck2", "x.dcfg"]),
            "--rules, --deck2 only apply to cardjitsu, not royale"
        );
        assert_eq!(
            refused(Game::CARDJITSU, &["--stall-rounds", "3"]),
            "--stall-rounds only applies to royale, not cardjitsu"
        );
    }

    #[test]
    fn max_rounds_help_says_each_games_default() {
        assert_eq!(
            max_rounds_help(Some(Game::CARDJITSU)),
            "Rounds after which an undecided game is a draw [default: 500]"
        );
        let every = max_rounds_help(None);
        assert!(
            every.contains("cardjitsu 500; royale 10 * (width + height)"),
            "{every}"
        );
    }
}

//! CardJitsu on the command line: `dojo match cardjitsu` (one game between
//! two bots), its transcript and its league defaults; its option flags
//! (rules, decks) are declared in `options.rs`.

pub mod options;
pub mod transcript;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use clap::{ArgMatches, Args, ValueEnum};
use dojo_engine::cardjitsu::{self, Ruleset};
use dojo_games::{CardJitsuSetup, Game, GameOptions, Saved, play_cardjitsu};
use dojo_league::PlayOptions;
use dojo_runner::RunOptions;

use self::options::CardJitsuArgs;
use crate::bots;
use crate::flags::ControlArgs;
use crate::games::options::{CommonArgs, GameOptionsArgs};
use crate::outputs::game::Played;
use crate::render::ReplayText;
use crate::starter::Starter;

/// The game, as the registry (`crate::games::cli`) knows it.
#[derive(Debug)]
pub struct CardJitsuCli;

impl super::GameCli for CardJitsuCli {
    fn game(&self) -> Game {
        Game::CARDJITSU
    }

    fn match_command(&self) -> clap::Command {
        super::match_command::<MatchArgs>(self.game(), "CardJitsu between two bots")
    }

    fn match_args(&self, m: &mut ArgMatches) -> Result<Box<dyn super::MatchArgs>, clap::Error> {
        super::match_args::<MatchArgs>(m)
    }

    fn options(&self, cmd: clap::Command) -> clap::Command {
        CardJitsuArgs::augment_args(cmd)
    }

    fn max_rounds_default(&self) -> String {
        cardjitsu::DEFAULT_MAX_ROUNDS.to_string()
    }

    fn play_options(&self, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
        a.own::<CardJitsuArgs>()?.store(&a.common, base)
    }

    fn executor_options(&self, play: &PlayOptions) -> Result<GameOptions> {
        Ok(GameOptions::new(options::resolve(play)?))
    }

    fn league_games(&self, _boards: usize) -> u64 {
        40
    }

    fn replay_text<'a>(&self, saved: &'a Saved) -> Option<&'a dyn ReplayText> {
        saved
            .record::<dojo_games::CardJitsuRecord>()
            .map(|rec| rec as &dyn ReplayText)
    }

    /// Both rule sets, or the one `--rules` gives; the decks and round
    /// limit given go into each (a deck given is kept under either rule
    /// set, as the league given it would keep it; none: each rule set's
    /// default).
    fn check_variants(
        &self,
        options: &GameOptionsArgs,
        _boards: &[String],
    ) -> Result<Vec<(String, Vec<String>)>> {
        let own = options.own::<CardJitsuArgs>()?;
        let rule_sets = match own.rules.given {
            Some(rules) => vec![rules],
            None => options::RulesArg::value_variants().to_vec(),
        };
        rule_sets
            .into_iter()
            .map(|rules| {
                let name = match Ruleset::from(rules) {
                    Ruleset::Tournament => "tournament rules",
                    Ruleset::Classic => "classic rules",
                };
                let mut own = own.clone();
                own.rules.given = Some(rules);
                let play = own.store(&options.common, &PlayOptions::default())?;
                Ok((name.to_owned(), super::match_flags(&play)))
            })
            .collect()
    }

    fn check_opponents(&self) -> &'static [&'static str] {
        &["random-py", "random-sh"]
    }

    fn check_seating(&self, bot: &str, opponent: &str, seat: usize) -> Vec<String> {
        let mut seats = [opponent.to_owned(), opponent.to_owned()];
        seats[seat.min(1)] = bot.to_owned();
        seats.into()
    }

    fn starter(&self) -> &'static Starter {
        static STARTER: Starter = Starter {
            templates: crate::starter::starters!("cardjitsu"),
            try_it: &["match", "cardjitsu", "{dir}", "random-py"],
        };
        &STARTER
    }
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The bot in seat 1.
    pub bot1: String,
    /// The bot in seat 2.
    pub bot2: String,
    #[command(flatten)]
    pub seed: crate::flags::GameSeedArg,
    #[command(flatten)]
    pub controls: ControlArgs,
    /// `--json`: the game record; `--html`: the game's replay page.
    #[command(flatten)]
    pub output: crate::outputs::OutputArgs<Played<dojo_games::CardJitsuRecord>>,
    /// Keep what each bot writes to stderr, split by turn, in the JSON record (see `dojo replay --stderr`).
    #[arg(long)]
    pub keep_stderr: bool,
    /// Print only the result, not the round-by-round transcript.
    #[arg(long, short)]
    pub quiet: bool,
    // The game's options last: their help headings carry over to the
    // flags declared after them.
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub options: CardJitsuArgs,
}

impl crate::outputs::game::MatchRecord for dojo_games::CardJitsuRecord {
    fn timing(&self) -> &dojo_games::Timing {
        &self.timing
    }

    fn conduct(&self) -> &[dojo_games::SeatConduct] {
        &self.conduct
    }

    fn clear_stderr(&mut self) {
        self.stderr.clear();
    }
}

impl super::MatchArgs for MatchArgs {
    fn run(self: Box<Self>, bots_dir: &Path) -> Result<ExitCode> {
        run(bots_dir, *self)
    }
}

fn run(bots_dir: &Path, a: MatchArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    let inputs = a
        .options
        .inputs()
        .map(|(flag, path)| Named::file(flag, path));
    let outputs = a.output.resolve(&[], &inputs)?;
    // The same resolution as a league's: the flags' stored form, read.
    let play = a.options.store(&a.common, &PlayOptions::default())?;
    let resolved = options::resolve(&play)?;
    let loaded = bots::load(&[a.bot1, a.bot2], bots_dir, Game::CARDJITSU.name())?;
    let seed = a.seed.or_announced_fresh();
    bots::on_ctrl_c(false);
    let setup = CardJitsuSetup {
        seed,
        settings: resolved.settings,
        deck_names: resolved.deck_names,
    };
    // Stderr always kept: a faulty seat's stderr is shown below (and
    // left out of `--json` unless `--keep-stderr` asks for it).
    let opts = RunOptions {
        keep_stderr: true,
        ..a.controls.run_options()
    };
    crate::cmd::fit::one_game_fits(&opts, &loaded)?;
    let limits: Vec<_> = loaded
        .iter()
        .map(|b| crate::render::seat_limits(b, &opts))
        .collect();
    let record = play_cardjitsu(
        [loaded[0].clone(), loaded[1].clone()],
        &setup,
        &opts,
        &mut |_| {},
    )?;
    let mut text = format!("{}\n", transcript::header(&record));
    if !a.quiet {
        text.push_str(&transcript::transcript(&record));
    }
    text.push_str(&format!("result: {}\n", transcript::result(&record)));
    for line in transcript::conduct(&record) {
        text.push_str(&format!("faults: {line}\n"));
    }
    Played {
        label: transcript::player,
        limits,
        forensics: transcript::forensics(&record),
        bots: loaded,
        sandbox: a.controls.controls().sandbox,
        text,
        record,
    }
    .finish(&outputs, a.keep_stderr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use crate::games::GameCli;
    use clap::Parser;

    /// The rule sets `dojo check cardjitsu BOT ARGS...` plays, with their
    /// `dojo match` flags.
    fn variants(args: &[&str]) -> Vec<(String, Vec<String>)> {
        let cli = Cli::try_parse_from([&["dojo", "check", "cardjitsu", "bot"], args].concat());
        let Command::Check(a) = cli.unwrap().command else {
            panic!("not a check: {args:?}")
        };
        CardJitsuCli.check_variants(&a.play, &[]).unwrap()
    }

    /// A deck given is the contest's under either rule set: left out
    /// where it is the rule set's default, passed on where it is not.
    #[test]
    fn a_check_keeps_the_deck_given_under_each_rule_set() {
        let owned = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            variants(&["--deck1", "championship", "--max-rounds", "7"]),
            [
                ("tournament rules".to_owned(), owned(&["--max-rounds", "7"])),
                (
                    "classic rules".to_owned(),
                    owned(&[
                        "--deck1",
                        "championship",
                        "--max-rounds",
                        "7",
                        "--rules",
                        "classic"
                    ])
                ),
            ]
        );
        assert_eq!(
            variants(&["--rules", "tournament"]),
            [("tournament rules".to_owned(), vec![])]
        );
    }
}

//! CardJitsu on the command line: `dojo match cardjitsu` (one game between
//! two bots), its transcript and its league defaults; its option flags
//! (rules, decks) are declared in `options.rs`.

pub mod options;
pub mod transcript;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use clap::{ArgMatches, Args};
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

    /// Both rule sets, each with its default deck.
    fn check_variants(&self) -> Vec<(&'static str, Vec<String>)> {
        Ruleset::ALL
            .into_iter()
            .map(|r| {
                let name = match r {
                    Ruleset::Tournament => "tournament rules",
                    Ruleset::Classic => "classic rules",
                };
                (name, vec!["--rules".to_owned(), r.to_string()])
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
        label: |s| format!("player {} ({})", s.seat + 1, s.bot),
        limits,
        forensics: transcript::forensics(&record),
        bots: loaded,
        sandbox: a.controls.controls().sandbox,
        text,
        record,
    }
    .finish(&outputs, a.keep_stderr)
}

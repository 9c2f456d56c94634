//! CardJitsu on the command line: `dojo match cardjitsu` (one game between
//! two bots), its decks and rules flags, its transcript and its league
//! defaults.

pub mod transcript;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgMatches, Args};
use dojo_engine::cardjitsu::{self, Deck, Ruleset};
use dojo_games::cardjitsu::decks;
use dojo_games::{CardJitsuOptions, CardJitsuSetup, Game, GameOptions, Saved, play_cardjitsu};
use dojo_league::PlayOptions;
use dojo_runner::RunOptions;

use crate::bots;
use crate::flags::{ControlArgs, GameOptionsArgs, RulesArg};
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

    fn game_flags(&self) -> &'static [&'static str] {
        &["--rules", "--deck1", "--deck2", "--max-rounds"]
    }

    fn play_options(&self, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
        let mut play = base.clone();
        if let Some(rules) = a.rules.map(Ruleset::from) {
            play.set(
                "rules",
                (rules != Ruleset::default()).then(|| rules.to_string()),
            );
        }
        for (flag, path) in [("deck1", &a.deck1), ("deck2", &a.deck2)] {
            if let Some(path) = path {
                play.set(flag, Some(deck_name(path)?));
            }
        }
        // A deck that is the rules' own default is left out, as every
        // default is: `--deck1 championship` is the same league as none.
        let rules: Ruleset = super::stored(&play, "rules")?.unwrap_or_default();
        for flag in ["deck1", "deck2"] {
            if play.get(flag).is_some_and(|d| decks::is_default(d, rules)) {
                play.set(flag, None);
            }
        }
        if let Some(n) = a.max_rounds {
            play.set("max-rounds", Some(n.to_string()));
        }
        Ok(play)
    }

    fn executor_options(&self, play: &PlayOptions) -> Result<GameOptions> {
        Ok(GameOptions::new(options(play)?))
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
    /// Which rules to play by.
    #[arg(long, value_enum, default_value_t = RulesArg::Tournament)]
    pub rules: RulesArg,
    /// The deck seat 1 draws from: `championship` (the tournament rules'
    /// default: the championship's 30 cards, dealt without replacement),
    /// `standard` (the classic rules' default: 198 cards, drawn with
    /// replacement) or a .dcfg file.
    #[arg(long, value_name = "DECK")]
    pub deck1: Option<PathBuf>,
    /// The deck seat 2 draws from (as --deck1).
    #[arg(long, value_name = "DECK")]
    pub deck2: Option<PathBuf>,
    /// Rounds after which an undecided game is a draw.
    #[arg(long, default_value_t = 500, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_rounds: u32,
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
}

/// The name a `--deckN` value is recorded under ([`decks::name_of`]).
fn deck_name(given: &Path) -> Result<String> {
    decks::name_of(given).with_context(|| format!("cannot resolve {}", given.display()))
}

/// The rules, decks (read and checked now) and round limit a league or
/// comparison stores in `play`, with the decks' names for the records.
fn options(play: &PlayOptions) -> Result<CardJitsuOptions> {
    let rules: Ruleset = super::stored(play, "rules")?.unwrap_or_default();
    let defaults = decks::default_names(rules);
    let deck_names = [0, 1].map(|seat| {
        play.get(&format!("deck{}", seat + 1))
            .unwrap_or(&defaults[seat])
            .to_owned()
    });
    let settings = cardjitsu::Settings {
        rules,
        max_rounds: super::stored(play, "max-rounds")?.unwrap_or(cardjitsu::DEFAULT_MAX_ROUNDS),
        decks: [decks::load(&deck_names[0])?, decks::load(&deck_names[1])?],
    };
    Ok(CardJitsuOptions {
        settings,
        deck_names,
    })
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

/// The deck a seat of `dojo match` draws from, and its recorded name: the
/// one given, or the rules' default.
fn deck(given: Option<&Path>, rules: Ruleset) -> Result<(Deck, String)> {
    let name = match given {
        Some(given) => deck_name(given)?,
        None => rules.default_deck().to_owned(),
    };
    Ok((decks::load(&name)?, name))
}

fn run(bots_dir: &Path, a: MatchArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    let outputs = a.output.resolve(
        &[],
        &[
            Named::file("--deck1", a.deck1.as_deref()),
            Named::file("--deck2", a.deck2.as_deref()),
        ],
    )?;
    let rules = Ruleset::from(a.rules);
    let (deck1, name1) = deck(a.deck1.as_deref(), rules)?;
    let (deck2, name2) = deck(a.deck2.as_deref(), rules)?;
    let loaded = bots::load(&[a.bot1, a.bot2], bots_dir, Game::CARDJITSU.name())?;
    let seed = a.seed.or_announced_fresh();
    bots::on_ctrl_c(false);
    let setup = CardJitsuSetup {
        seed,
        settings: cardjitsu::Settings {
            rules,
            max_rounds: a.max_rounds,
            decks: [deck1, deck2],
        },
        deck_names: [name1, name2],
    };
    // Stderr always kept: a faulty seat's stderr is shown below (and
    // left out of `--json` unless `--keep-stderr` asks for it).
    let opts = RunOptions {
        keep_stderr: true,
        ..a.controls.run_options()
    };
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

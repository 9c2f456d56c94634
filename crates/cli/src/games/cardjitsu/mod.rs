//! CardJitsu on the command line: `dojo match cardjitsu` (one game between
//! two bots), its decks and rules flags, its transcript and its league
//! defaults.

pub mod transcript;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgMatches, Args, ValueEnum};
use dojo_engine::cardjitsu::{self, Deck, Ruleset};
use dojo_games::{CardJitsuOptions, CardJitsuSetup, Game, GameOptions, Saved, play_cardjitsu};
use dojo_league::PlayOptions;
use dojo_runner::RunOptions;

use crate::args::{ControlArgs, GameOptionsArgs};
use crate::bots;
use crate::render::ReplayText;

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
                play.set(flag, Some(deck_name(Some(path))?));
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// CardJitsu Bot Championship rules: power cards and Reverse.
    Tournament,
    /// The older Card-Jitsu variant: no power cards, no Reverse.
    Classic,
}

impl From<RulesArg> for Ruleset {
    fn from(rules: RulesArg) -> Ruleset {
        match rules {
            RulesArg::Tournament => Ruleset::Tournament,
            RulesArg::Classic => Ruleset::Classic,
        }
    }
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The bot in seat 1.
    pub bot1: String,
    /// The bot in seat 2.
    pub bot2: String,
    /// Seed of the game; without it one is picked and printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Which rules to play by.
    #[arg(long, value_enum, default_value_t = RulesArg::Tournament)]
    pub rules: RulesArg,
    /// Deck file (.dcfg) seat 1 draws from; default: all 198 cards.
    #[arg(long, value_name = "FILE")]
    pub deck1: Option<PathBuf>,
    /// Deck file (.dcfg) seat 2 draws from; default: all 198 cards.
    #[arg(long, value_name = "FILE")]
    pub deck2: Option<PathBuf>,
    /// Rounds after which an undecided game is a draw.
    #[arg(long, default_value_t = 500, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_rounds: u32,
    #[command(flatten)]
    pub controls: ControlArgs,
    /// Write the game record as JSON to this file (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Keep what each bot writes to stderr, split by turn, in the JSON record (see `dojo replay --stderr`).
    #[arg(long)]
    pub keep_stderr: bool,
    /// Also write the game as one self-contained HTML replay page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Print only the result, not the round-by-round transcript.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The name a deck file is recorded under: absolute, so `replay --rerun`
/// and a resumed league read the same file from any directory;
/// `standard` for all 198 cards.
fn deck_name(path: Option<&Path>) -> Result<String> {
    match path {
        None => Ok("standard".to_owned()),
        Some(p) => {
            let abs = std::path::absolute(p)
                .with_context(|| format!("cannot resolve {}", p.display()))?;
            Ok(abs.display().to_string())
        }
    }
}

/// Reads the deck recorded as `name` (see [`deck_name`]).
fn read_deck(name: &str) -> Result<Deck> {
    if name == "standard" {
        return Ok(Deck::standard());
    }
    Ok(Deck::parse_dcfg(
        &crate::cmd::read_deck(Path::new(name))?,
        name,
    )?)
}

/// The rules, decks (read and checked now) and round limit a league or
/// comparison stores in `play`, with the decks' names for the records.
fn options(play: &PlayOptions) -> Result<CardJitsuOptions> {
    let deck_names = ["deck1", "deck2"].map(|flag| play.get(flag).unwrap_or("standard").to_owned());
    let settings = cardjitsu::Settings {
        rules: super::stored(play, "rules")?.unwrap_or_default(),
        max_rounds: super::stored(play, "max-rounds")?.unwrap_or(cardjitsu::DEFAULT_MAX_ROUNDS),
        decks: [read_deck(&deck_names[0])?, read_deck(&deck_names[1])?],
    };
    Ok(CardJitsuOptions {
        settings,
        deck_names,
    })
}

impl super::MatchArgs for MatchArgs {
    fn run(self: Box<Self>, bots_dir: &Path) -> Result<ExitCode> {
        run(bots_dir, *self)
    }
}

fn deck(path: Option<&Path>) -> Result<(Deck, String)> {
    match path {
        None => Ok((Deck::standard(), "standard".to_owned())),
        Some(path) => {
            // Recorded absolute, so `replay --rerun` reads the same file
            // from any directory.
            let name = std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string();
            let deck = Deck::parse_dcfg(&crate::cmd::read_deck(path)?, &name)?;
            Ok((deck, name))
        }
    }
}

fn run(bots_dir: &Path, a: MatchArgs) -> Result<ExitCode> {
    crate::cmd::check_outputs(&[("--json", a.json.as_deref()), ("--html", a.html.as_deref())])?;
    let (deck1, name1) = deck(a.deck1.as_deref())?;
    let (deck2, name2) = deck(a.deck2.as_deref())?;
    let loaded = bots::load(&[a.bot1, a.bot2], bots_dir, Game::CARDJITSU.name())?;
    let seed = a.seed.unwrap_or_else(|| {
        let s = bots::fresh_seed();
        errln!("seed: {s} (replay with --seed {s})");
        s
    });
    bots::on_ctrl_c(false);
    let setup = CardJitsuSetup {
        seed,
        settings: cardjitsu::Settings {
            rules: a.rules.into(),
            max_rounds: a.max_rounds,
            decks: [deck1, deck2],
        },
        deck_names: [name1, name2],
    };
    let record = play_cardjitsu(
        [loaded[0].clone(), loaded[1].clone()],
        &setup,
        &RunOptions {
            keep_stderr: a.keep_stderr,
            ..crate::cmd::run_options(&a.controls)
        },
        &mut |_| {},
    )?;
    outln!("{}", transcript::header(&record));
    if !a.quiet {
        out!("{}", transcript::transcript(&record));
    }
    outln!("result: {}", transcript::result(&record));
    for line in transcript::conduct(&record) {
        outln!("faults: {line}");
    }
    crate::bots::hidden_path_hints(
        loaded.iter().map(|b| &**b).zip(&record.conduct),
        a.controls.controls().sandbox,
    );
    if let Some(path) = &a.json {
        crate::cmd::write_json(path, &record)?;
    }
    if let Some(path) = &a.html {
        let source = crate::cmd::record_source(a.json.as_deref());
        crate::html::write(path, &crate::html::replay(&record, &source)?)?;
        outln!("replay page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

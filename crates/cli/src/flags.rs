//! The flags several commands and every game's `dojo match` share, each
//! declared once here and flattened into every command that takes it, so
//! that its name, value name and help cannot drift apart between
//! commands; with what they resolve to (`ControlArgs::run_options`). The
//! games' command lines build on these; the top of the command line
//! (`args.rs`) builds on both.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use dojo_games::Game;
use dojo_runner::RunOptions;

/// The seed of a series of games (`compare`, `check`) when none is given;
/// a new league draws one at random (`cmd::league`).
pub const DEFAULT_SERIES_SEED: u64 = 1;

// The flags several commands share, each declared once here and
// flattened into every command that takes it, so that its name, value
// name and help cannot drift apart between commands. The output flags
// (`--json`, `--html`, `--junit`) are `crate::outputs::OutputArgs`; each
// game's options are its group in `crate::games` (`GAME/options.rs`).

/// `--seed N` of one game (`match`, `play`).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct GameSeedArg {
    /// Seed of the game; without it one is picked and printed.
    #[arg(id = "seed", long = "seed", value_name = "N", value_parser = crate::args::any_u64, allow_negative_numbers = true)]
    pub given: Option<u64>,
}

impl GameSeedArg {
    /// The seed given, or a fresh one, said on stderr so that the game
    /// can be played again.
    pub fn or_announced_fresh(&self) -> u64 {
        self.given.unwrap_or_else(|| {
            let s = crate::bots::fresh_seed();
            errln!("seed: {s} (replay with --seed {s})");
            s
        })
    }
}

/// `--seed N` of a series of games (`league`, `compare`, `check`).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct SeriesSeedArg {
    /// The seed every game's seed derives from [default: a new league's
    /// is drawn at random and stored with it; compare's and check's is 1].
    #[arg(id = "seed", long = "seed", value_name = "N", value_parser = crate::args::any_u64, allow_negative_numbers = true)]
    pub given: Option<u64>,
}

impl SeriesSeedArg {
    /// The seed given, or [`DEFAULT_SERIES_SEED`].
    pub fn value(&self) -> u64 {
        self.given.unwrap_or(DEFAULT_SERIES_SEED)
    }
}

/// `--faults POLICY` (`league`, `compare`).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct FaultsArg {
    /// What a fault costs: `forfeit` (a bot that crashes, cannot start, or
    /// faults on more than SHARE of its moves loses the game; every side
    /// faulty: a draw), `forfeit:SHARE` (SHARE from 0 to 1), or `fallback`
    /// (a fault is played as a random card or a pass and the board decides)
    /// [default: forfeit:0.1]
    #[arg(id = "faults", long = "faults", value_name = "POLICY")]
    pub given: Option<dojo_league::FaultPolicy>,
}

/// The time controls, limits and containment flags, one per field of
/// [`dojo_runner::Controls`] (built from `dojo_runner::CONTROLS`, where
/// each is declared): only the flags given are held, so a league resumed
/// or a game rerun without a flag keeps the stored value and one given
/// with it is checked against it.
#[derive(Debug, Clone, Default)]
pub struct ControlArgs(pub dojo_runner::Given);

impl ControlArgs {
    /// The controls these flags give over the defaults.
    pub fn controls(&self) -> dojo_runner::Controls {
        dojo_runner::Controls::resolve(&self.0, None).0
    }
}

impl ControlArgs {
    /// Runner options from the control flags (the defaults where not
    /// given).
    pub fn run_options(&self) -> RunOptions {
        warn_open_files(RunOptions::from(self.controls()))
    }
}

/// `run`, after saying (once) when its open-files limit for bots is above
/// dojo's own hard limit (`ulimit -Hn`): bots then get the hard limit,
/// which only a privileged process could raise.
pub fn warn_open_files(run: RunOptions) -> RunOptions {
    static SAID: std::sync::Once = std::sync::Once::new();
    let hard = dojo_runner::open_files_hard_limit();
    let files = run.controls.files;
    if files > hard {
        SAID.call_once(|| {
            errln!(
                "warning: --limit-files {files} is above this process's hard limit on open files ({hard}); bots get {hard}"
            );
        });
    }
    run
}

impl clap::FromArgMatches for ControlArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut given = dojo_runner::Given::default();
        for c in dojo_runner::CONTROLS {
            if m.value_source(c.flag) != Some(clap::parser::ValueSource::CommandLine) {
                continue;
            }
            let value = match c.kind {
                dojo_runner::Kind::Switch => dojo_runner::Value::Switch(m.get_flag(c.flag)),
                _ => {
                    let text = m.get_one::<String>(c.flag).map_or("", String::as_str);
                    c.parse(text)
                        .map_err(|e| clap::Error::raw(clap::error::ErrorKind::ValueValidation, e))?
                }
            };
            given.0.push((c, value));
        }
        Ok(ControlArgs(given))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for ControlArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        dojo_runner::CONTROLS.iter().fold(cmd, |cmd, c| {
            let arg = clap::Arg::new(c.flag).long(c.flag).help(c.help());
            cmd.arg(match c.kind {
                dojo_runner::Kind::Switch => arg.action(clap::ArgAction::SetTrue),
                dojo_runner::Kind::Word(words) => arg
                    .value_name(c.value_name)
                    .value_parser(clap::builder::PossibleValuesParser::new(words)),
                // Checked by the control's own parser as clap reads it,
                // so a bad value is reported with the subcommand's usage
                // (clap names the flag and value: the parser's words
                // without its own naming of them); a negative number is
                // a value, not a flag.
                dojo_runner::Kind::Number { .. } => arg
                    .value_name(c.value_name)
                    .allow_negative_numbers(true)
                    .value_parser(move |text: &str| {
                        c.parse(text).map(|_| text.to_owned()).map_err(|e| {
                            let named = format!("--{} {text}: ", c.flag);
                            e.strip_prefix(&named).map_or(e.clone(), str::to_owned)
                        })
                    }),
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `--board FILE...`: the boards a series of games rotates through
/// (`league`, `compare`; `dojo match royale` plays on one, its own
/// `--board`).
#[derive(Debug, Clone, Default, Args)]
pub struct BoardsArg {
    /// Royale boards to rotate through; default: every board under
    /// boards/ that is not already won.
    #[arg(id = "board", long = "board", value_name = "FILE", num_args = 1..)]
    pub given: Vec<PathBuf>,
}

impl BoardsArg {
    /// The boards given, as a series stores them; empty when none was.
    pub fn names(&self) -> Vec<String> {
        self.given.iter().map(|p| p.display().to_string()).collect()
    }

    /// The board files, as inputs no output may overwrite
    /// (`crate::outpaths::check`).
    pub fn inputs(&self) -> impl Iterator<Item = Option<crate::outpaths::Named<'_>>> {
        (self.given.iter()).map(|b| crate::outpaths::Named::file("--board", Some(b)))
    }
}

#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// A game record (`dojo match --json`), or a league directory with --game.
    #[arg(value_name = "RECORD")]
    pub record: PathBuf,
    /// The game with this id in the league directory's games.jsonl.
    #[arg(long, value_name = "ID", value_parser = crate::args::any_u64, allow_negative_numbers = true)]
    pub game: Option<u64>,
    /// Show only turn N (CardJitsu: round N; royale: the board after turn N, 0 = before any turn).
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["watch", "rerun", "html"],
        value_parser = crate::args::any_usize,
        allow_negative_numbers = true
    )]
    pub turn: Option<usize>,
    /// Royale: animate the boards in the terminal.
    #[arg(long, conflicts_with_all = ["rerun", "html"])]
    pub watch: bool,
    /// Pause between boards with --watch.
    #[arg(long, default_value_t = 200, value_name = "MS", value_parser = crate::args::any_u64, allow_negative_numbers = true)]
    pub delay_ms: u64,
    /// Show what each bot wrote to stderr beside its turn (records made with --keep-stderr).
    #[arg(long)]
    pub stderr: bool,
    /// Play the game again with the same bots, seats, seed and settings and
    /// say whether it comes out the same (exit status 0) or not (1).
    /// Each bot is run from the directory the record names; a bot that is
    /// gone or has changed since (its fingerprint) is an error (status 3).
    /// Records from older dojo versions find bots by name under the bots
    /// directory. A league's game (--game) plays under the league's time
    /// controls and limits and each bot's values as the league applied
    /// them; a record file under the time and limit flags given here.
    #[arg(long, conflicts_with = "html")]
    pub rerun: bool,
    /// `--html`: the game's replay page, written instead of printing the
    /// game.
    #[command(flatten)]
    pub output: crate::outputs::OutputArgs<crate::outputs::replay::Shown>,
    #[command(flatten)]
    pub controls: ControlArgs,
}

/// The GAME argument of `dojo league` and `dojo compare`: one of the
/// games' names.
pub fn game_parser() -> impl TypedValueParser<Value = Game> {
    PossibleValuesParser::new(Game::ALL.map(Game::name)).try_map(|name| name.parse::<Game>())
}

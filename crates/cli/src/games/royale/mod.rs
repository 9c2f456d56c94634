//! Rock-paper-scissors royale on the command line: `dojo match royale`
//! (one game between three teams of bots on a board), its transcript and
//! its league defaults; its option flags are declared in `options.rs`.

pub mod options;
pub mod transcript;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use clap::{ArgMatches, Args};
use dojo_engine::royale::{Royale, Team};
use dojo_games::{Game, GameOptions, RoyaleSetup, Saved, play_royale};
use dojo_league::PlayOptions;
use dojo_runner::RunOptions;

use self::options::RoyaleArgs;
use crate::bots;
use crate::flags::ControlArgs;
use crate::games::options::{CommonArgs, GameOptionsArgs};
use crate::outputs::game::Played;
use crate::render::ReplayText;
use crate::starter::Starter;

/// The board `dojo check` plays on when none is given.
const CHECK_BOARD: &str = "boards/arena.txt";

/// The game, as the registry (`crate::games::cli`) knows it.
#[derive(Debug)]
pub struct RoyaleCli;

impl super::GameCli for RoyaleCli {
    fn game(&self) -> Game {
        Game::ROYALE
    }

    fn match_command(&self) -> clap::Command {
        super::match_command::<MatchArgs>(
            self.game(),
            "Rock-paper-scissors royale between three teams of bots",
        )
    }

    fn match_args(&self, m: &mut ArgMatches) -> Result<Box<dyn super::MatchArgs>, clap::Error> {
        super::match_args::<MatchArgs>(m)
    }

    fn options(&self, cmd: clap::Command) -> clap::Command {
        RoyaleArgs::augment_args(cmd)
    }

    fn max_rounds_default(&self) -> String {
        options::MAX_ROUNDS_DEFAULT.to_owned()
    }

    fn play_options(&self, a: &GameOptionsArgs, base: &PlayOptions) -> Result<PlayOptions> {
        Ok(a.own::<RoyaleArgs>()?.store(&a.common, base))
    }

    fn executor_options(&self, play: &PlayOptions) -> Result<GameOptions> {
        Ok(GameOptions::new(options::resolve(play)?))
    }

    /// Each trio plays every board once in each team rotation.
    fn league_games(&self, boards: usize) -> u64 {
        3 * boards as u64
    }

    fn replay_text<'a>(&self, saved: &'a Saved) -> Option<&'a dyn ReplayText> {
        saved
            .record::<dojo_games::RoyaleRecord>()
            .map(|rec| rec as &dyn ReplayText)
    }

    /// One rule set, on each board given, else on the bundled arena
    /// board (read from the binary when no `boards/` is at hand); unless
    /// `--max-rounds` is given, a round cap keeps a game of per-turn bots
    /// short (the cap is a draw, not a fault).
    fn check_variants(
        &self,
        options: &GameOptionsArgs,
        boards: &[String],
    ) -> Result<Vec<(String, Vec<String>)>> {
        let mut common = options.common.clone();
        common.max_rounds = common.max_rounds.or(self.check_max_rounds());
        let play = options
            .own::<RoyaleArgs>()?
            .store(&common, &PlayOptions::default());
        let arena = [CHECK_BOARD.to_owned()];
        let boards = if boards.is_empty() {
            &arena[..]
        } else {
            boards
        };
        Ok((boards.iter())
            .map(|board| {
                let mut flags = vec!["--board".to_owned(), board.clone()];
                flags.extend(super::match_flags(&play));
                (format!("board {board}"), flags)
            })
            .collect())
    }

    /// A game against per-turn Python bots costs a process start per
    /// move: 40 rounds, not the board's `10 * (width + height)`.
    fn check_max_rounds(&self) -> Option<u32> {
        Some(40)
    }

    fn check_opponents(&self) -> &'static [&'static str] {
        &["royale-random-py"]
    }

    /// The bot on team `seat` (rock, paper, scissors), the opponent on
    /// the other two.
    fn check_seating(&self, bot: &str, opponent: &str, seat: usize) -> Vec<String> {
        ["--rock", "--paper", "--scissors"]
            .into_iter()
            .enumerate()
            .flat_map(|(i, flag)| {
                let who = if i == seat { bot } else { opponent };
                [flag.to_owned(), who.to_owned()]
            })
            .collect()
    }

    fn starter(&self) -> &'static Starter {
        static STARTER: Starter = Starter {
            templates: crate::starter::starters!("royale"),
            try_it: &[
                "match",
                "royale",
                "--board",
                "boards/arena.txt",
                "--rock",
                "{dir}",
                "--paper",
                "royale-random-py",
                "--scissors",
                "royale-random-py",
            ],
        };
        &STARTER
    }
}

impl crate::outputs::game::MatchRecord for dojo_games::RoyaleRecord {
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

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The board file.
    #[arg(long, value_name = "FILE")]
    pub board: PathBuf,
    /// Bots on the Rock team, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        value_name = "BOT[,BOT..]"
    )]
    pub rock: Vec<String>,
    /// Bots on the Paper team, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        value_name = "BOT[,BOT..]"
    )]
    pub paper: Vec<String>,
    /// Bots on the Scissors team, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        value_name = "BOT[,BOT..]"
    )]
    pub scissors: Vec<String>,
    #[command(flatten)]
    pub seed: crate::flags::GameSeedArg,
    #[command(flatten)]
    pub controls: ControlArgs,
    /// `--json`: the game record; `--html`: the game's replay page.
    #[command(flatten)]
    pub output: crate::outputs::OutputArgs<Played<dojo_games::RoyaleRecord>>,
    /// Keep what each bot writes to stderr, split by turn, in the JSON record (see `dojo replay --stderr`).
    #[arg(long)]
    pub keep_stderr: bool,
    /// Show the board in the terminal as the game evolves.
    #[arg(long)]
    pub watch: bool,
    /// Pause between shown turns with --watch.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub delay_ms: u64,
    /// Print only the result, not the rounds, tiles and players (as
    /// `match cardjitsu -q` leaves out its transcript).
    #[arg(long, short, conflicts_with = "watch")]
    pub quiet: bool,
    // The game's options last: their help headings carry over to the
    // flags declared after them.
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub options: RoyaleArgs,
}

impl super::MatchArgs for MatchArgs {
    fn run(self: Box<Self>, bots_dir: &Path) -> Result<ExitCode> {
        run(bots_dir, *self)
    }
}

fn run(bots_dir: &Path, a: MatchArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    let outputs = a
        .output
        .resolve(&[], &[Named::file("--board", Some(&a.board))])?;
    let board = crate::home::load_board(&a.board)?;
    let mut specs = Vec::new();
    let mut teams = Vec::new();
    let flags = [
        (Team::Rock, "--rock", &a.rock),
        (Team::Paper, "--paper", &a.paper),
        (Team::Scissors, "--scissors", &a.scissors),
    ];
    for &(team, flag, names) in &flags {
        // An empty list item would otherwise be reported as `no bot ""`.
        if names.iter().any(|n| n.trim().is_empty()) {
            anyhow::bail!(
                "{flag} {}: an empty bot name; expected BOT[,BOT..] with no empty items",
                names.join(",")
            );
        }
        for name in names {
            specs.push(name.clone());
            teams.push(team);
        }
    }
    let loaded = bots::load(&specs, bots_dir, Game::ROYALE.name())?;
    // A bot whose bot.toml fixes its team plays only that team, as in a
    // league: given to another team's flag, it is refused.
    for (bot, &team) in loaded.iter().zip(&teams) {
        let Some(own) = dojo_games::fixed_role(bot, Game::ROYALE.shape())? else {
            continue;
        };
        if own != dojo_games::royale::role(team) {
            let given = flags.iter().find(|(t, _, _)| *t == team).map(|f| f.1);
            let wanted = flags
                .iter()
                .find(|(t, _, _)| dojo_games::royale::role(*t) == own)
                .map(|f| f.1);
            let place = crate::bots::team_place(bot);
            anyhow::bail!(
                "bot {} is given to {}, but its bot.toml says team = {:?}{place}, the only team a league plays it on; give it to {} or remove its `team`",
                bot.name,
                given.unwrap_or("a team"),
                own.as_str(),
                wanted.unwrap_or("that team's flag"),
            );
        }
    }
    let seed = a.seed.or_announced_fresh();
    bots::on_ctrl_c(false);
    let players: Vec<_> = loaded.into_iter().zip(teams).collect();
    let setup = RoyaleSetup {
        seed,
        board,
        // Absolute, so the replay's command works from any directory.
        board_file: crate::home::stored_board(&a.board),
        // The same resolution as a league's: the flags' stored form, read.
        settings: options::resolve(&a.options.store(&a.common, &PlayOptions::default()))?,
    };
    let ansi = std::io::stdout().is_terminal();
    let delay = Duration::from_millis(a.delay_ms);
    let mut watch = |game: &Royale| {
        if !a.watch {
            return;
        }
        let clear = if ansi { "\x1b[H\x1b[2J" } else { "" };
        out!(
            "{clear}round {}  {}\n{}",
            game.round(),
            transcript::counts(game.counts()),
            transcript::board(game.board(), game.positions(), ansi)
        );
        std::thread::sleep(delay);
    };
    // Stderr always kept: a faulty seat's stderr is shown below (and
    // left out of `--json` unless `--keep-stderr` asks for it).
    let opts = RunOptions {
        keep_stderr: true,
        ..a.controls.run_options()
    };
    let bots: Vec<_> = players.iter().map(|(b, _)| b.clone()).collect();
    crate::cmd::fit::one_game_fits(&opts, &bots)?;
    let limits: Vec<_> = bots
        .iter()
        .map(|b| crate::render::seat_limits(b, &opts))
        .collect();
    let record = play_royale(&players, &setup, &opts, &mut watch)?;
    let mut text = format!(
        "Royale on {} (seed {}), {}x{}\n",
        record.board_file,
        record.play.seed,
        setup.board.width(),
        setup.board.height()
    );
    if a.quiet {
        text.push_str(&format!("result: {}\n", transcript::result(&record)));
    } else {
        text.push_str(&transcript::summary(&record, None));
    }
    Played {
        label: transcript::seat,
        limits,
        forensics: transcript::forensics(&record),
        bots: players.iter().map(|(b, _)| Arc::clone(b)).collect(),
        sandbox: a.controls.controls().sandbox,
        text,
        record,
    }
    .finish(&outputs, a.keep_stderr)
}

//! The command line, as clap sees it. Each subcommand's options live here so
//! `--help` is the single reference; the `cmd` modules only act on them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use dojo_games::Game;

pub use crate::flags::{
    BoardsArg, ControlArgs, DEFAULT_SERIES_SEED, FaultsArg, GameSeedArg, ReplayArgs, SeriesSeedArg,
    game_parser,
};
use crate::games::MatchCommand;
use crate::games::cardjitsu::options::RulesFlag;
pub use crate::games::options::GameOptionsArgs;
use crate::outputs::OutputArgs;
use crate::outputs::compare::Compared;
use crate::outputs::league::League;
use crate::starter::Lang;

/// dojo: a tournament harness for game-playing bots.
///
/// Bots are executables in any language that play over stdin/stdout, one
/// line per message. A BOT argument is a directory holding a `bot.toml`, the
/// name of a bot under `bots/`, `NAME=COMMAND` for a command run as is, or
/// `NAME=DIR` for the bot in the directory DIR under the name NAME. A
/// bare NAME means ./NAME when that holds a `bot.toml`, else the bot
/// under `bots/`.
#[derive(Debug, Parser)]
#[command(name = "dojo", version, about, long_about, after_help = crate::exit::HELP)]
pub struct Cli {
    /// Where bot names are looked up; default: ./bots if it exists, else
    /// $DOJO_HOME/bots, else the bots/ of the checkout dojo was built from.
    #[arg(long, global = true, value_name = "DIR")]
    pub bots_dir: Option<PathBuf>,

    /// Whether bots' build steps (a bot.toml's `build`, run before a
    /// league, match, compare, play or rerun) may use the network: `on`
    /// (they fetch their dependencies) or `off` (a network namespace of
    /// their own, else Landlock's TCP rules; refused where neither can be
    /// had). Either way a build runs confined: a clean environment, writes
    /// only to its own directory, its build cache and cargo's download
    /// caches (see docs/sandbox.md) [default: on].
    #[arg(long, global = true, value_name = "on|off", value_parser = ["on", "off"])]
    pub build_network: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one game between bots and print what happened.
    #[command(subcommand)]
    Match(MatchCommand),
    /// Play a round-robin league and rank the bots.
    League(LeagueArgs),
    /// Combine the out directories of league shards into one report.
    Merge(MergeArgs),
    /// List every entry of the bots directory with its status (ok, bad
    /// manifest with each error, no manifest, bad name, symlink).
    Bots,
    /// Show a saved game again, or play it again to check the bots are deterministic.
    Replay(ReplayArgs),
    /// Play a game yourself against the computer or a bot.
    #[command(subcommand)]
    Play(PlayCommand),
    /// Play NEW against BASE until a sequential test decides whether NEW is worse.
    Compare(CompareArgs),
    /// Show which bot containment layers this machine supports, and why the others are missing.
    Doctor,
    /// Show a league directory's standings again; with --html, write its report page.
    Report(ReportArgs),
    /// Ask a card game's rules: a Skat hand's bid value, whether a Tichu play is legal.
    #[command(subcommand)]
    Rules(RulesCommand),
    /// Check a bot before submitting it: read and built as a league takes
    /// it, a few games against the bundled bots that need no build (or
    /// --against) in every seat and rule set
    /// (or on each board), one replayed for determinism, its move times and
    /// memory against the limits. Exit 0: ready; 1: a fault in some game,
    /// each named.
    ///
    /// Give it the contest's conditions as a league takes them: the time
    /// controls and limits, the game options (`--rules` checks that rule
    /// set only; decks, `--max-rounds`, `--stall-rounds` go into every
    /// game) and royale's boards (`--board`, each played in every seat;
    /// default: boards/arena.txt). Unless `--max-rounds` is given, royale
    /// games stop sooner than a league's (its default below), as a
    /// per-turn opponent makes them slow.
    Check(CheckArgs),
    /// Start a new bot: a directory with its bot.toml and a small, commented bot that plays legal moves.
    ///
    /// Writes ./NAME (or --dir PATH) holding a `bot.toml` and a bot in
    /// --lang that answers every prompt of GAME with a legal move, with
    /// comments explaining the game's protocol where it reads it: a bot
    /// to play at once and to change from there.
    ///
    /// The bot stays alive for the whole game, flushes each answer and seeds
    /// its random choices from DOJO_SEED (a seeded match replays exactly).
    /// A C or Rust bot's bot.toml declares its `build`: dojo compiles it
    /// before its first game, into the bot's build cache ($DOJO_CACHE). A
    /// Rust bot is a crate of its own: standard library only (it builds
    /// offline), in no Cargo workspace around it.
    ///
    /// Refused, writing nothing: a NAME that breaks the bot name rule, a
    /// NAME a bot of the bots directory has (a bare NAME finds ./NAME
    /// first, so that bot could no longer be named), a directory that
    /// exists and is not empty, a directory whose parent does not exist. On success it lists the files it wrote and the
    /// `dojo match` to try the bot with (against the bundled random-py,
    /// royale-random-py for royale). The protocols: docs/protocols.md.
    New(NewArgs),
}

#[derive(Debug, Args)]
#[command(
    mut_arg("board", |arg| arg.help(
        "Royale boards to check on, each in every seat; default: boards/arena.txt"
    )),
    mut_arg("max_rounds", |arg| arg.help(crate::games::options::check_max_rounds_help())),
)]
pub struct CheckArgs {
    /// The game the bot plays.
    #[arg(value_parser = game_parser())]
    pub game: Game,
    /// The bot: a directory with a bot.toml, a name under the bots
    /// directory, NAME=COMMAND, or NAME=DIR.
    pub bot: String,
    /// The bots to play it against; default: the game's bundled bots that
    /// need no build (CardJitsu: random-py, random-sh; royale:
    /// royale-random-py).
    #[arg(long, value_name = "BOT", num_args = 1..)]
    pub against: Vec<String>,
    // The first game's seed; each later game takes the next.
    #[command(flatten)]
    pub seed: SeriesSeedArg,
    /// The time controls and limits to check against (default: a
    /// league's defaults).
    #[command(flatten)]
    pub controls: ControlArgs,
    /// The game options to check under, as a league takes them.
    #[command(flatten)]
    pub play: GameOptionsArgs,
    #[command(flatten)]
    pub board: BoardsArg,
}

/// `dojo new`: a starter bot from `crate::starter`'s templates, written
/// by `cmd::new`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  dojo new cardjitsu my-bot                  # ./my-bot, in Python
  dojo new royale walker --lang rust         # ./walker, a Rust crate
  dojo new cardjitsu fast --lang c --dir bots/fast")]
pub struct NewArgs {
    /// The game the bot plays.
    #[arg(value_parser = game_parser())]
    pub game: Game,
    /// The bot's name (its `name` in bot.toml): 1 to 64 letters, digits,
    /// `_`, `.` and `-`, not starting with `-`.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The language of the bot (also accepted: py, js, javascript, rs, shell).
    #[arg(long, value_enum, default_value_t = Lang::Python)]
    pub lang: Lang,
    /// The directory to create (or an empty one to fill); default: ./NAME.
    #[arg(long, value_name = "PATH")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A league's out directory (holding league.json and games.jsonl).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// `--html`: the report's page (standings, plots, every game's replay).
    #[command(flatten)]
    pub output: OutputArgs<League>,
}

#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// The game to play.
    #[arg(value_parser = game_parser())]
    pub game: Option<Game>,
    /// The bots; default: the bots directory as a folder of submissions,
    /// every entry checked (bot.toml, name, game, build, smoke start): the
    /// good ones play, the others are listed with why and recorded in
    /// report.json's `excluded`.
    pub bots: Vec<String>,
    /// Games per pairing (CardJitsu: rounded up to seat-swapped pairs;
    /// default 40) or per trio of bots (royale: rounded up to the three
    /// team rotations, each on one board; default: 3 per board, so each
    /// trio plays every board in every team rotation; fewer than it takes
    /// for every trio to play every board is refused).
    #[arg(long, value_name = "N", value_parser = at_least_one_u64, allow_negative_numbers = true)]
    pub games: Option<u64>,
    /// Games played at once; default: the number of cores.
    #[arg(long, short, value_name = "N", value_parser = at_least_one_usize, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub seed: SeriesSeedArg,
    /// Where games.jsonl and report.json go; default: results/GAME-YYYYMMDD-HHMMSS/ (UTC).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub controls: ControlArgs,
    /// What a bot's bot.toml (`[limits]`, `[time]`) may do with a value above
    /// the league's: `allow` it, `cap` it at the league's, or `refuse` to
    /// start. Lower values are always taken; every override is printed
    /// [default: allow; refuse under --sandbox strict].
    #[arg(long, value_name = "MODE", value_parser = ["allow", "cap", "refuse"])]
    pub bot_raises: Option<String>,
    #[command(flatten)]
    pub faults: FaultsArg,
    #[command(flatten)]
    pub play: GameOptionsArgs,
    #[command(flatten)]
    pub board: BoardsArg,
    /// Continue an interrupted league in DIR, playing only the missing
    /// games, with its stored settings: a flag that would change them is
    /// refused (--anchor is applied: it only changes the report).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["game", "bots", "out", "gauntlet", "sprt"])]
    pub resume: Option<PathBuf>,
    /// With --resume: late entries join the league. Only the games with
    /// them are played, at the seeds they would have had from the start,
    /// and every game is rated together (not with a shard, a gauntlet's
    /// --sprt, or several royale boards).
    #[arg(long, value_name = "BOT", num_args = 1..)]
    pub add: Vec<String>,
    /// With --resume: BOT is NAME's new version and plays as NAME, whatever
    /// its bot.toml or directory calls it (as NAME=DIR names the bot in
    /// DIR). NAME's games are marked retired in games.jsonl (kept for the
    /// record, counted nowhere) and played again by BOT, at the same seeds.
    #[arg(long, value_name = "NAME=BOT")]
    pub replace: Vec<String>,
    /// A gauntlet instead of a round robin: NEW plays each of the other bots
    /// (royale: each trio it is in) and they do not play each other; all are
    /// rated on the same scale.
    #[arg(long, value_name = "NEW")]
    pub gauntlet: Option<String>,
    /// With --gauntlet: stop each pairing of NEW and an opponent once this
    /// sequential test decides (as `dojo compare` does; H0 "NEW - BOT = E0
    /// Elo" against H1 "= E1", error rates A and B; any subset), with
    /// --games as the limit per pairing.
    #[arg(
        long,
        requires = "gauntlet",
        value_name = "elo0=E0,elo1=E1,alpha=A,beta=B"
    )]
    pub sprt: Option<dojo_league::sprt::SprtParams>,
    /// Play only slice I of N of the schedule (1-based).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Pin this bot's rating instead of centring the mean at 1500: BOT or BOT=ELO.
    #[arg(long, value_name = "BOT[=ELO]")]
    pub anchor: Option<String>,
    /// Print a line to stderr for every game as it is stored, instead of a progress bar.
    #[arg(long, short)]
    pub verbose: bool,
    /// `--html`: the report's page (as `dojo report --html`), written
    /// again as games finish.
    #[command(flatten)]
    pub output: OutputArgs<League>,
    /// Start the league even when a bot fails its smoke start (a short game
    /// against itself before the league: it must start and answer its
    /// first prompt in time). In a league of the bots folder such entries
    /// are otherwise left out; with this flag they play.
    #[arg(long)]
    pub allow_broken: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard out directories to combine.
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
    /// Where the combined games.jsonl and report.json go.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Exit 0 even when the merged league is incomplete (games of missing
    /// shards not played yet); without it an incomplete merge exits 1.
    #[arg(long)]
    pub partial: bool,
    /// `--html`: the merged report's page.
    #[command(flatten)]
    pub output: OutputArgs<League>,
}

#[derive(Debug, Subcommand)]
pub enum PlayCommand {
    /// CardJitsu against the computer or a bot: you are player 1 and type 1 to 5 to play a card. Tournament rules by default (power cards and Reverse, the championship deck); `--rules classic` plays the older variant (no power cards, no Reverse). Ending the input before the game ends exits with status 1.
    #[command(after_help = PLAY_CARDJITSU_HELP)]
    Cardjitsu(PlayCardJitsuArgs),
}

/// What `dojo play cardjitsu --help` adds after the flags: how each
/// ruleset's game goes and what the computer does under it.
const PLAY_CARDJITSU_HELP: &str = "\
Rules:
  tournament (the default, as for every other command): each player is dealt
    from a shuffled copy of the championship's 30-card deck, without
    replacement; winning a round with a power card (a 10) makes the next round
    a Reverse round, in which the lower number wins within an element. The
    computer is dealt a hand from its own championship deck, like a bot, and
    plays a random card of it each round. A Reverse round is announced in the
    labelled display, marked `* ` before the hand in the plain one, and sent
    to a bot opponent as the protocol's `* ` hand line.
  classic: the older Card-Jitsu variant, whose plain display this reproduces
    exactly: cards from all 198 (2 to 12), no power cards, no Reverse; the
    computer has no hand and plays a random card of all 198 each round.

A header naming the rules, the seed and the opponent comes before the first
round: on stdout in the labelled display, on stderr in the plain one (its
stdout keeps the challenge's format, byte for byte: a refused input, the end
of input and the closing line naming the winner's triple go to stderr too).

The time, limit and containment flags (--timeout-ms, --limit-memory-mib,
--sandbox, --pin, ...) apply to the --opponent bot's processes: without
--opponent they are refused (exit 3), as there is no bot to apply them to.";

#[derive(Debug, Args)]
pub struct PlayCardJitsuArgs {
    /// A bot to play against; default: the computer (see Rules below).
    #[arg(long, value_name = "BOT")]
    pub opponent: Option<String>,
    #[command(flatten)]
    pub seed: GameSeedArg,
    #[command(flatten)]
    pub rules: RulesFlag,
    #[command(flatten)]
    pub controls: ControlArgs,
    /// Show the game in the classic challenge's exact format (bare card
    /// lists, no prompt), for scripts; the default when stdin is not a terminal.
    #[arg(long, conflicts_with = "labelled")]
    pub plain: bool,
    /// Show labelled piles, a numbered hand, a prompt and each round's result
    /// in words; the default when stdin is a terminal.
    #[arg(long)]
    pub labelled: bool,
}

/// `dojo compare`: exit status 0 when NEW passes (H1 accepted), 1 when NEW
/// is worse (H0 accepted), 2 when the game limit is reached first, 3 on a
/// usage or bot error, 130 when interrupted (143 by SIGTERM, 129 by SIGHUP).
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 NEW passes (H1 accepted), 1 NEW is worse (H0 accepted), \
                  2 inconclusive at the game limit, 3 usage or bot error, \
                  130 interrupted (143 SIGTERM, 129 SIGHUP)."
)]
pub struct CompareArgs {
    /// The game to play.
    #[arg(value_parser = game_parser())]
    pub game: Game,
    /// The bot under test.
    pub new: String,
    /// The bot it is compared with.
    pub base: String,
    /// Most games to play (rounded up to whole blocks: seat-swapped pairs,
    /// or royale's six team rotations; two games when the third bot's
    /// bot.toml fixes its team). Royale plays each block on one board, in
    /// turn: fewer blocks than boards is refused.
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = at_least_one_u64, allow_negative_numbers = true)]
    pub games: u64,
    /// The sequential test: H0 "NEW - BASE = E0 Elo" against H1 "= E1", with
    /// error rates A and B; any subset (optional model=logistic|normalized).
    #[arg(
        long,
        default_value = "elo0=-10,elo1=0,alpha=0.05,beta=0.05",
        value_name = "elo0=E0,elo1=E1,alpha=A,beta=B"
    )]
    pub sprt: dojo_league::sprt::SprtParams,
    /// Games played at once; default: the number of cores.
    #[arg(long, short, value_name = "N", value_parser = at_least_one_usize, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub seed: SeriesSeedArg,
    /// `--json` (settings, model, counts, LLR and bounds, Elo estimate,
    /// verdict, the LLR's course and every block), `--html` (the LLR's
    /// trace, the Elo estimate and the pentanomial counts) and `--junit`
    /// (the verdict as a test case).
    #[command(flatten)]
    pub output: OutputArgs<Compared>,
    #[command(flatten)]
    pub controls: ControlArgs,
    #[command(flatten)]
    pub play: GameOptionsArgs,
    /// Royale: the bot on the third team; default: royale-random-py. A
    /// bot.toml `team` is kept, as in a league: the third bot plays only
    /// its team, NEW and BASE swap between the others. NEW and BASE may
    /// not fix a team (a block would give one a team the other never
    /// plays).
    #[arg(long, value_name = "BOT")]
    pub third: Option<String>,
    #[command(flatten)]
    pub faults: FaultsArg,
    #[command(flatten)]
    pub board: BoardsArg,
    /// Print a line to stderr for every pair (royale: block) counted, instead of a progress line.
    #[arg(long, short)]
    pub verbose: bool,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// The game value a Skat hand may bid (`36 Clubs`), or `pass`.
    #[command(
        after_help = "Example: `dojo rules skat JC JS JD AC KC 9C AS 7H QD 8D` prints `36 Clubs` \
                            (JC: jack of clubs; 0S: ten of spades).\n\
                            Exit status: 0 a value or pass was printed, 3 a malformed hand \
                            (the message names the card and, with --batch, the line)."
    )]
    Skat(SkatRulesArgs),
    /// Whether a Tichu play is legal after the previous play.
    #[command(
        after_help = "Cards: 2-9, 0 (ten), J Q K A, 1 (Mah Jong), R (dragon), P (phoenix), \
                            D (dog), one character each, in any order: `dojo rules tichu 66 7P`.\n\
                            Exit status: 0 legal, 1 illegal, 3 a malformed play (the message names \
                            the card). With --batch: 0 once every line is judged, 3 at the first \
                            malformed line (the message names the line)."
    )]
    Tichu(TichuRulesArgs),
}

#[derive(Debug, Args)]
pub struct SkatRulesArgs {
    /// The hand: 10 different cards, value (A K Q J 0 9 8 7; 0 is the ten) then suit (C S H D).
    #[arg(
        value_name = "CARD",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub cards: Vec<String>,
    /// Also say why: the jack factor and suit value, or the reason to pass.
    #[arg(long)]
    pub why: bool,
    /// Read hands from stdin, one per line (cards separated by spaces), and
    /// print one answer per line. Empty lines and lines starting with # are skipped.
    #[arg(long)]
    pub batch: bool,
}

#[derive(Debug, Args)]
pub struct TichuRulesArgs {
    /// The previous play, `-` if the player has the lead.
    #[arg(
        value_name = "PREV",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub previous: Option<String>,
    /// The play to judge.
    #[arg(
        value_name = "PLAY",
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub play: Option<String>,
    /// Also say why: the combinations compared, or the rule the play breaks.
    #[arg(long)]
    pub why: bool,
    /// Read cases from stdin, one `PREV PLAY` per line, and print one verdict
    /// per line. Empty lines and lines starting with # are skipped.
    #[arg(long)]
    pub batch: bool,
}

/// Counts of games and parallel jobs must be positive: 0 games would write an
/// empty league and 0 jobs would silently mean 1.
fn at_least_one_u64(text: &str) -> Result<u64, String> {
    whole_number(text, 1, u64::MAX)
}

/// Parallel jobs: at least 1, and at most [`MAX_JOBS`] (each is a thread
/// and a set of bot processes; a typo must not start millions).
fn at_least_one_usize(text: &str) -> Result<usize, String> {
    whole_number(text, 1, MAX_JOBS).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A count of rounds (`--max-rounds`, `--stall-rounds`): at least 1.
pub(crate) fn at_least_one_u32(text: &str) -> Result<u32, String> {
    whole_number(text, 1, u64::from(u32::MAX)).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// A seed, a game id, a turn or a pause: any whole number from 0.
pub(crate) fn any_u64(text: &str) -> Result<u64, String> {
    whole_number(text, 0, u64::MAX)
}

/// [`any_u64`] for a count in memory (a turn).
pub(crate) fn any_usize(text: &str) -> Result<usize, String> {
    whole_number(text, 0, usize::MAX as u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A whole number from `least` to `most`, in words a newcomer reads
/// (clap's own range check says `0 is not in 1..18446744073709551615`,
/// and takes `-1` for a flag, with a tip to write `-- -1`).
fn whole_number(text: &str, least: u64, most: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (least..=most).contains(&n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("too large: the largest value accepted is {most}"))
        }
        _ if most == u64::MAX => Err(format!("expected a whole number of at least {least}")),
        _ => Err(format!("expected a whole number from {least} to {most}")),
    }
}

/// The most games played at once.
pub const MAX_JOBS: u64 = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

//! `dojo check GAME BOT`: what a bot author runs before submitting. The
//! bot is read and built as a league takes it, then plays a few games
//! against the game's bundled bots, in every seat, under every rule set
//! the game has or the one given, on each board given, with the game
//! options given as a league takes them (each game's
//! [`crate::games::GameCli::check_variants`]),
//! one game is played again to see whether the bot is deterministic (as
//! `dojo compare` sees it: `dojo_games::determinism`), and
//! its move times and memory peak are set against the limits in force.
//!
//! Each game is a `dojo match` of this same binary, run as a child and
//! read back from its JSON record and its exit status: the check sees,
//! and shows, exactly what the author would see running those matches by
//! hand (a faulty seat's reason and stderr, its times), and one game's
//! trouble (a bot that hangs dojo's pipes, say) stays in its own process.
//!
//! Ready means: the bot was read, built and started, and in no game did it
//! crash, time out, answer with something that is not a move, run into a
//! limit or (royale) ask for an illegal move, and it played a move in at
//! least one game (the one replayed for determinism). Anything else is
//! named with its evidence, and the exit status is 1. A rerun that
//! differs is a note, not a problem: a bot may be random on purpose.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, Result};
use dojo_games::{MoveTally, Quantiles};
use serde_json::Value;

use crate::args::CheckArgs;
use crate::render::standings::ms;
use crate::render::{SeatLimits, count, seat_limits, untrusted};

/// Games of one rule set against one opponent: one per seat.
struct Played {
    /// `tournament rules, seed 3, player 2 against random-py`.
    label: String,
    /// The match's exit status.
    status: Option<i32>,
    stdout: String,
    stderr: String,
    /// Its record (absent when the match did not get that far).
    record: Option<Value>,
    /// The checked bot's seat.
    seat: usize,
    /// The `dojo match` arguments that played it, to play it again for
    /// determinism.
    args: Vec<String>,
    json: PathBuf,
}

pub fn run(bots_dir: &Path, a: CheckArgs) -> Result<ExitCode> {
    let cli = crate::games::cli(a.game);
    // The contest's conditions, checked before the bot is built as a
    // league checks them: another game's flag, a deck or a board that
    // does not read is an error naming it, not a fault in every game.
    super::refuse_boards(a.game, &a.board)?;
    super::play_options(a.game, &a.play, &dojo_league::PlayOptions::default())?;
    for board in &a.board.given {
        crate::home::load_board(board)?;
    }
    let variants = cli.check_variants(&a.play, &a.board.names())?;
    let exe = std::env::current_exe().context("cannot find the dojo binary to run matches")?;
    let opponents: Vec<String> = if a.against.is_empty() {
        cli.check_opponents()
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    } else {
        a.against.clone()
    };
    // Before anything is built or played: an opponent that cannot be
    // found would fault every game, which is not the bot's doing.
    find_opponents(&opponents, !a.against.is_empty(), bots_dir)?;
    // Read and built as a league takes it: a bad manifest, a failed build
    // or a bot for another game stops here with the usual message.
    let bot = crate::bots::load(std::slice::from_ref(&a.bot), bots_dir, a.game.name())?.remove(0);
    let opts = a.controls.run_options();
    let limits = seat_limits(&bot, &opts);
    let seats = a.game.shape().seats();
    let total = variants.len() * opponents.len() * seats;
    // A `NAME=COMMAND` bot is its command: the directory it runs in is
    // only the current one, which says nothing of what is checked.
    let what = match crate::bots::inline_command(&a.bot) {
        Some(command) => format!("`{}`", untrusted::line(command.trim())),
        None => bot.dir.display().to_string(),
    };
    outln!(
        "checking {} ({}) for {}: {} against {}",
        bot.name,
        what,
        a.game,
        count(total as u64, "game"),
        opponents.join(", ")
    );
    outln!("  ok    read and built as a league takes it");

    let tmp = tempfile::tempdir().context("cannot make a directory for the games' records")?;
    let controls = a.controls.controls().to_args();
    let mut problems = 0usize;
    // Moves against the move limit; first answers (which include the
    // bot's start, with its start-up allowance on top) apart, as the
    // records say which they were.
    let mut tally = MoveTally::default();
    // The bot's timeouts in every game: a slowest time at its limit is
    // then one of them, not an answer that came close.
    let mut timeouts = 0u64;
    let mut first: Option<Played> = None;
    // Whether any game was played to its end (with its record to read).
    let mut any_record = false;
    let mut seed = a.seed.value();
    // A game in which the bot wrote no answer at all, valid or not (it
    // never flushed, or crashed at once): the games left would each say
    // the same after as long (84 s for a silent bot's 8 games), so the
    // check stops there.
    let mut mute = false;
    // Games played so far, of every variant (for the terminal's note).
    let mut played_all = 0usize;
    for (variant, flags) in &variants {
        if mute {
            break;
        }
        let mut played = 0;
        let mut faulty = Vec::new();
        'games: for opponent in &opponents {
            for seat in 0..seats {
                let json = tmp.path().join(format!("game-{seed}.json"));
                let mut args: Vec<String> = vec![
                    "--bots-dir".into(),
                    bots_dir.display().to_string(),
                    "--build-network".into(),
                    crate::bots::build_network_word().into(),
                    "match".into(),
                    a.game.name().into(),
                ];
                args.extend(cli.check_seating(&a.bot, opponent, seat));
                args.extend(flags.iter().cloned());
                args.extend([
                    "--seed".into(),
                    seed.to_string(),
                    "-q".into(),
                    "--keep-stderr".into(),
                ]);
                args.push("--json".into());
                args.push(json.display().to_string());
                args.extend(controls.iter().cloned());
                let label = format!(
                    "{variant}, seed {seed}, seat {} against {opponent}",
                    seat + 1
                );
                let doing = format!("game {} of {total}: {label}", played_all + 1);
                let game = crate::progress::while_doing(doing, || play(&exe, &args, &json, seat))
                    .map(|g| Played { label, ..g })?;
                played_all += 1;
                seed += 1;
                played += 1;
                if let Some(rec) = &game.record {
                    tally.add_stored(&rec["timing"], seat);
                    timeouts += rec["conduct"][seat]["timeout"].as_u64().unwrap_or(0);
                }
                let trouble = trouble(&game);
                if !trouble.is_empty() {
                    faulty.push((game.label.clone(), trouble));
                }
                let stop = game.record.is_none();
                // The game replayed for determinism is the first in which
                // the bot played a move: a bot that never answers leaves
                // the same record every time, which says nothing.
                any_record |= game.record.is_some();
                let answered_none = game.record.as_ref().is_some_and(|r| wrote_nothing(r, seat));
                if first.is_none() && game.record.as_ref().is_some_and(|r| answered(r, seat) > 0) {
                    first = Some(game);
                }
                if stop {
                    break;
                }
                if answered_none && first.is_none() {
                    mute = true;
                    break 'games;
                }
            }
        }
        if faulty.is_empty() {
            outln!(
                "  ok    {variant}: {} without a fault",
                count(played, "game")
            );
        } else {
            problems += faulty.len();
            outln!(
                "  FAIL  {variant}: the bot faulted in {} of {}",
                count(faulty.len() as u64, "game"),
                played
            );
            // The first such game in full; the others by their first line
            // (a bot tends to fail the same way each time).
            for (i, (label, lines)) in faulty.iter().enumerate() {
                outln!("        {label}:");
                let shown = if i == 0 { lines.len() } else { 1 };
                // The match's own lines, the bot's stderr among them
                // (escaped by that `dojo match` already, and again here
                // for what a match that did not play wrote).
                for line in &lines[..shown.min(lines.len())] {
                    outln!("          {}", untrusted::line(line));
                }
            }
        }
    }

    if mute {
        outln!(
            "  note  stopped after that game: the bot wrote no answer to any prompt, \
             and the other games would only say the same"
        );
    }
    // A bot that answered no prompt in any game did not play: a failed
    // check of its own, whatever the faults counted above.
    let silent = first.is_none() && any_record;
    match &first {
        Some(game) => outln!("  {}", determinism(&exe, game)),
        None if silent => outln!(
            "  FAIL  the bot did not play: in every game each of its prompts met a crash, \
             a timeout or an invalid answer, so its determinism was not checked"
        ),
        None => outln!("  note  no game was played to its end, so none was replayed"),
    }
    for line in times(&tally, &limits, timeouts > 0) {
        outln!("  {line}");
    }
    if problems == 0 && !silent {
        outln!("ready to submit");
        Ok(crate::exit::code(crate::exit::SUCCESS))
    } else if problems == 0 {
        outln!("not ready: the bot did not play a move (see above)");
        Ok(crate::exit::code(crate::exit::NEGATIVE))
    } else {
        outln!(
            "not ready: {} with a fault (see above)",
            count(problems as u64, "game")
        );
        Ok(crate::exit::code(crate::exit::NEGATIVE))
    }
}

/// Refuses, as a setup error, opponents that cannot be found: those given
/// (`--against`) with their lookup's error; the bundled ones with where
/// dojo looked for them and how to point it at them (an installed dojo
/// whose checkout has moved finds no bots directory).
fn find_opponents(opponents: &[String], given: bool, bots_dir: &Path) -> Result<()> {
    for opponent in opponents {
        let Err(err) = dojo_runner::resolve(opponent, bots_dir) else {
            continue;
        };
        if given {
            return Err(anyhow::Error::new(err).context(format!("--against {opponent}")));
        }
        let given_dir = "give a --bots-dir that holds them".to_owned();
        let (why, fix) = match crate::home::given_problem(bots_dir) {
            Some(problem) => (problem, given_dir),
            None if crate::home::bots_dir_given() => (
                format!("--bots-dir {} holds no bot {opponent}", bots_dir.display()),
                given_dir,
            ),
            None if !bots_dir.is_dir() => (
                format!("there is no bots directory ({})", crate::home::searched()),
                format!(
                    "set {} to a directory holding dojo's bots/ and boards/ (those of a dojo checkout)",
                    crate::home::HOME_VAR
                ),
            ),
            None => (
                format!("{} holds no bot {opponent}", bots_dir.display()),
                format!(
                    "set {} to a directory holding dojo's bots/ (a bots/ in the current directory comes first)",
                    crate::home::HOME_VAR
                ),
            ),
        };
        anyhow::bail!(
            "dojo check plays the bundled bots {} against the bot, and {opponent} was not found: {why}; {fix}, or name the opponents with --against BOT",
            opponents.join(", ")
        );
    }
    Ok(())
}

/// Runs one `dojo match` and reads back what it left.
fn play(exe: &Path, args: &[String], json: &Path, seat: usize) -> Result<Played> {
    let out = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let record = std::fs::read(json)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok());
    Ok(Played {
        label: String::new(),
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        record,
        seat,
        args: args.to_vec(),
        json: json.to_path_buf(),
    })
}

/// What went wrong for the checked bot in one game, as lines to show;
/// empty when nothing did. An opponent's faults are not the bot's.
fn trouble(game: &Played) -> Vec<String> {
    let Some(rec) = &game.record else {
        // The match stopped before a game (status 3): its own message.
        let mut lines = vec![format!(
            "the match did not play (exit status {})",
            game.status
                .map_or_else(|| "none".to_owned(), |c| c.to_string())
        )];
        lines.extend(game.stderr.lines().map(str::to_owned));
        return lines;
    };
    let conduct = &rec["conduct"][game.seat];
    let n = |key: &str| conduct[key].as_u64().unwrap_or(0);
    let faults = n("timeout") + n("crash") + n("invalid") + n("limit");
    let illegal: Vec<u64> = rec["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["seat"].as_u64() == Some(game.seat as u64) && t["fault"] == "illegal")
        .filter_map(|t| t["round"].as_u64())
        .collect();
    let mut lines = Vec::new();
    if faults > 0 {
        // The match's own account: each faulty seat's reason, first fault
        // and stderr (every line past the header, result, fault counts
        // and times).
        lines.extend(
            game.stdout
                .lines()
                .skip(1)
                .filter(|l| {
                    !["result: ", "faults: ", "times: ", "replay page: "]
                        .iter()
                        .any(|p| l.starts_with(p))
                })
                .map(str::to_owned),
        );
    }
    if let Some(round) = illegal.first() {
        lines.push(format!(
            "asked for {} (off the board or into a wall, played as a pass), the first in round {round}",
            count(illegal.len() as u64, "illegal move")
        ));
    }
    lines
}

/// Prompts the checked seat answered with a move in one record: its
/// latencies (each a reply or a timeout; a crash has none) less its
/// timeouts and invalid answers.
fn answered(rec: &Value, seat: usize) -> u64 {
    let latencies = rec["timing"]["latency_us"][seat]
        .as_array()
        .map_or(0, Vec::len) as u64;
    let conduct = &rec["conduct"][seat];
    let n = |key: &str| conduct[key].as_u64().unwrap_or(0);
    latencies.saturating_sub(n("timeout") + n("invalid"))
}

/// Whether the checked seat wrote no answer at all in one record, valid
/// or not: each of its prompts met a timeout or a crash.
fn wrote_nothing(rec: &Value, seat: usize) -> bool {
    let latencies = rec["timing"]["latency_us"][seat]
        .as_array()
        .map_or(0, Vec::len) as u64;
    latencies <= rec["conduct"][seat]["timeout"].as_u64().unwrap_or(0)
}

/// The first game played again: the same `dojo match`, seed and seats,
/// its record compared with the first's as `dojo compare` compares them
/// (`dojo_games::determinism`); when they part, where, and what the bot
/// answered each time.
fn determinism(exe: &Path, game: &Played) -> String {
    let again = game.json.with_extension("again.json");
    let mut args = game.args.clone();
    // The record's path follows `--json`.
    if let Some(i) = args.iter().position(|a| a == "--json")
        && let Some(path) = args.get_mut(i + 1)
    {
        *path = again.display().to_string();
    }
    let doing = format!("{}: playing it again to check determinism", game.label);
    let parting = crate::progress::while_doing(doing, || play(exe, &args, &again, game.seat))
        .ok()
        .filter(|g| g.record.is_some())
        .and_then(|_| {
            let first = dojo_games::replay::load_file(&game.json).ok()?;
            let second = dojo_games::replay::load_file(&again).ok()?;
            dojo_games::determinism::parting(&first, &second)
                .ok()
                .map(|p| (p, first))
        });
    match parting {
        Some((None, _)) => format!(
            "ok    deterministic: {} played again identically",
            game.label
        ),
        Some((Some(parting), first)) => {
            let name = |seat: usize| match first.seats().get(seat) {
                _ if seat == game.seat => format!("the bot (seat {})", seat + 1),
                Some(s) => format!("{} (seat {})", untrusted::line(&s.bot), seat + 1),
                None => format!("seat {}", seat + 1),
            };
            format!(
                "note  not deterministic: {} played again differently: {}; fine for a bot \
                 that is random on purpose, but a rerun cannot then reproduce a game",
                game.label,
                parting.words(name)
            )
        }
        None => format!(
            "note  {} could not be played again to check determinism",
            game.label
        ),
    }
}

/// The bot's move times and memory peak over every game, against the
/// limits in force, each graded by [`Grade::of`]: a slowest move past half
/// its limit is a warning (a slower or busier machine may time it out),
/// one that reached its limit when the bot `timed_out` is the timeout it
/// was, named as such.
fn times(tally: &MoveTally, limits: &SeatLimits, timed_out: bool) -> Vec<String> {
    let q = |q: &Quantiles| format!("p50 {}, p95 {}", ms(q.p50), ms(q.p95));
    let mut lines = Vec::new();
    if let Some(first) = tally.startup_answers() {
        let allowed = (limits.move_ms + limits.startup_ms) as f64;
        // The clock the allowance holds: under `--time cpu` the CPU time
        // of the bot's start and first answer, the wall time beside it.
        let line = match (&first.cpu_ms, limits.clock) {
            (Some(cpu), dojo_runner::TimeMode::Cpu) => {
                let grade = Grade::of(cpu.max / allowed, timed_out);
                format!(
                    "{}first answers (the bot's start included): slowest {} (the CPU clock); \
                     wall slowest {}",
                    grade.label(),
                    grade.against(cpu.max, allowed, "allowed"),
                    ms(first.wall_ms.max)
                )
            }
            (None, dojo_runner::TimeMode::Cpu) => format!(
                "{:<6}first answers (the bot's start included): slowest {} on the wall clock; \
                 their CPU time was not measured",
                "note",
                ms(first.wall_ms.max)
            ),
            (_, dojo_runner::TimeMode::Wall) => {
                let slowest = first.wall_ms.max;
                let grade = Grade::of(slowest / allowed, timed_out);
                format!(
                    "{}first answers (the bot's start included): slowest {}",
                    grade.label(),
                    grade.against(slowest, allowed, "allowed")
                )
            }
        };
        lines.push(line);
    }
    match tally.moves() {
        None => lines.push(format!("{:<6}no later move was timed", "note")),
        Some(m) => {
            let limit = limits.move_ms.max(1) as f64;
            // The clock the limit holds (`--time`): under the CPU clock
            // a bot that waits is not near its limit, one that computes
            // is, whatever the wall clock says.
            let line = match (&m.cpu_ms, limits.clock) {
                (Some(cpu), dojo_runner::TimeMode::Cpu) => {
                    let grade = Grade::of(cpu.max / limit, timed_out);
                    format!(
                        "{}{}: cpu {}, slowest {} (the CPU clock); wall {}, slowest {}",
                        grade.label(),
                        count(m.count, "later move"),
                        q(cpu),
                        grade.against(cpu.max, limit, "limit"),
                        q(&m.wall_ms),
                        ms(m.wall_ms.max)
                    )
                }
                (cpu, _) => {
                    let grade = Grade::of(m.wall_ms.max / limit, timed_out);
                    format!(
                        "{}{}: wall {}, slowest {}{}",
                        grade.label(),
                        count(m.count, "later move"),
                        q(&m.wall_ms),
                        grade.against(m.wall_ms.max, limit, "limit"),
                        cpu.as_ref().map_or_else(String::new, |c| format!(
                            "; cpu {}, slowest {}",
                            q(c),
                            ms(c.max)
                        ))
                    )
                }
            };
            lines.push(line);
        }
    }
    if lines.iter().any(|l| l.starts_with("warn")) {
        lines.push(format!(
            "{:<6}over half of a limit: a slower or busier machine may time it out",
            ""
        ));
    }
    if let Some(mib) = tally.peak_memory_mib() {
        lines.push(match limits.memory_mib {
            Some(limit) => format!(
                "{}memory peak {mib:.1} MiB of its {limit} MiB limit",
                Grade::of(mib / limit.max(1) as f64, false).label(),
            ),
            None => format!("{:<6}memory peak {mib:.1} MiB (no limit)", "ok"),
        });
    }
    lines
}

/// How a figure stands against its limit: the one grading of the
/// check's times and memory.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Grade {
    /// Up to half of the limit.
    Ok,
    /// Past half of it: a slower or busier machine may reach it.
    Warn,
    /// At the limit, by a bot that timed out: the runner stopped waiting
    /// there, so the figure is a timeout, not an answer.
    Timeout,
}

impl Grade {
    /// `share` of the limit; `timed_out`: whether the bot timed out in the
    /// games (a time at its limit is then one of those timeouts; without
    /// one, an overage bank or CPU time let it run that long).
    fn of(share: f64, timed_out: bool) -> Grade {
        if timed_out && share >= 1.0 {
            Grade::Timeout
        } else if share > 0.5 {
            Grade::Warn
        } else {
            Grade::Ok
        }
    }

    /// The status column, padded.
    fn label(self) -> String {
        let word = match self {
            Grade::Ok => "ok",
            Grade::Warn => "warn",
            Grade::Timeout => "FAIL",
        };
        format!("{word:<6}")
    }

    /// `value` against `limit` (`allowed`, `limit`) in words: `12ms of the
    /// 500ms allowed (2%)`, or for a timeout `501ms: a timeout, the 500ms
    /// allowed ran out`.
    fn against(self, value: f64, limit: f64, what: &str) -> String {
        let the = if what == "limit" { "its" } else { "the" };
        match self {
            Grade::Timeout => format!(
                "{}: a timeout, {the} {} {what} ran out",
                ms(value),
                ms(limit)
            ),
            _ => format!(
                "{} of {the} {} {what} ({:.0}%)",
                ms(value),
                ms(limit),
                100.0 * value / limit
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use dojo_games::Game;

    /// The guide's account of `dojo check` names the bots it plays by
    /// default, each game's, so a reader knows the check is not against
    /// every bundled bot (the Rust ones would need a build).
    #[test]
    fn the_guide_names_the_bots_check_plays() {
        let guide = include_str!("../../../../docs/guide.md");
        let start = guide
            .find("Before submitting, run `dojo check")
            .expect("the guide explains dojo check");
        let paragraph = &guide[start..start + guide[start..].find("\n\n").unwrap()];
        for game in Game::ALL {
            for bot in crate::games::cli(game).check_opponents() {
                assert!(
                    paragraph.contains(&format!("`{bot}`")),
                    "{game}: {bot} not named in: {paragraph}"
                );
            }
        }
    }
}

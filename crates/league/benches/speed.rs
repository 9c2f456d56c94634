//! How close dojo comes to the machine's own cost of running bots.
//!
//! Every figure is printed beside a baseline measured in the same run,
//! interleaved with it repetition by repetition, and the ratio of the two:
//! absolute timings on a shared machine are noise, ratios much less so.
//!
//! * physical cost model: a harness-free loop in this binary spawning the
//!   native C echo bot (`bench/echo.c`, built here with `cc`), sending it a
//!   prompt, reading its answer and reaping it, plus raw pipe round trips
//!   to a persistent one; a league's model cost is 2 spawns per game plus
//!   one round trip per prompt;
//! * a straightforward Python harness (`bench/py_harness.py`) playing the
//!   same games;
//! * dojo's league (`run_league`, what `dojo league` runs) at `--jobs 1`
//!   and `--jobs 2`;
//! * per-move (persistent bot) and per-turn (a process per prompt) overhead
//!   of the runner against the raw steps;
//! * `--jobs 64` with bots that sleep 50 ms per move: timeouts and peak
//!   memory (measured in a child process so nothing else counts);
//! * width: thinking bots (the echo bot sleeping 20 ms a move) at
//!   `--jobs 1`, 64 and 256 (64 must play at least 56 times the games/s of
//!   1; 256 must play every game, none failed, no timeout), and a league
//!   of 40 (and of 80) bots against one of 2 over the same number of games (at least
//!   0.8 times the games/s: boxes are made per bot).
//!
//! * peak memory of a 1,000- and a 20,000-game league (each in a child
//!   process), which must stay flat.
//!
//! The league, per-move and per-turn figures are measured twice, with the
//! containment off (`--sandbox off`: only the process group) and with the
//! default (`--sandbox auto`: every layer the machine has), interleaved.
//!
//! `cargo bench -p dojo-league --bench speed -- [--json FILE] [--games N]
//! [--reps N] [--no-memory] [--sandbox off|auto]
//! [--only per-move|per-turn|round-trip|league|width] [--jobs N] [--bots N]
//! [--think MS]`.
//! `--no-memory` skips the memory run (about 21,000 games); `--only width`
//! runs the width figures (7 to 9) alone; `--sandbox`
//! measures one mode only; `--only` runs nothing but the runner's side of
//! one figure, `--games` times (for `perf` or `strace`: no baseline, no
//! ratio); `--only bare` plays a league of 2 bots, then the harness-free
//! game loop over the same games and rounds at the same width, and prints
//! both; `--only league` plays one league of `--games` games at
//! `--jobs N` (default 1) between `--bots N` bots (default 2), which
//! think `--think MS` milliseconds a move (default 0; figure 7's: 20).
//! Every figure prints its goal and whether this run met it. Numbers only:
//! nothing here fails on a slow machine.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dojo_engine::protocol::{Answer, Notice, Prompt, Referee, Reply};
use dojo_games::BotExecutor;
use dojo_league::{Game, NoProgress, Settings, run_league};
use dojo_runner::{BotSpec, Mode, SandboxMode, Seat};

const HAND: &str = "Fr2,Fb3,Sg4,Wo5,WpA";

/// How long a thinking bot (`bench/echo.c`'s `sleep` mode) sleeps before
/// each answer.
const THINK_MS: u32 = 20;

struct Args {
    json: Option<PathBuf>,
    games: u64,
    reps: usize,
    memory: bool,
    sandboxes: Vec<SandboxMode>,
    only: Option<String>,
    /// `--only league`'s workers.
    jobs: usize,
    /// `--only league`'s bots (figure 9 has 40).
    bots: usize,
    /// `--only league`'s bots think this many milliseconds a move
    /// (figure 7's have [`THINK_MS`]); 0: they answer at once.
    think_ms: u32,
}

fn args() -> Args {
    let mut a = Args {
        json: None,
        games: 400,
        reps: 3,
        memory: true,
        sandboxes: vec![SandboxMode::Off, SandboxMode::Auto],
        only: None,
        jobs: 1,
        bots: 2,
        think_ms: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => a.json = Some(PathBuf::from(value(&arg, it.next()))),
            "--games" => a.games = number(&arg, it.next()),
            "--reps" => a.reps = number(&arg, it.next()),
            // The memory run is on by default; kept for old command lines.
            "--memory" => a.memory = true,
            "--no-memory" => a.memory = false,
            "--sandbox" => a.sandboxes = vec![number(&arg, it.next())],
            "--only" => a.only = Some(value(&arg, it.next())),
            "--jobs" => a.jobs = number(&arg, it.next()),
            "--bots" => a.bots = number(&arg, it.next()),
            "--think" => a.think_ms = number(&arg, it.next()),
            // cargo bench passes it to every bench binary.
            "--bench" => {}
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => usage_error(&format!("unknown argument {other:?}")),
        }
    }
    a
}

/// What `--help` prints (docs/performance.md has the figures).
const USAGE: &str = "speed bench: every figure, or one league or figure alone
  --games N        games per league (400)          --reps N     repetitions (3)
  --sandbox MODE   off, auto or strict (off and auto, interleaved)
  --no-memory      skip the 21,000-game memory run --json FILE  the figures as JSON
  --only WHAT      width (figures 7 to 9), league, bare, per-move, per-turn or round-trip
                   (bare: a league of 2 bots and the harness-free game loop playing its games)
  --jobs N, --bots N, --think MS   --only league's (and bare's) workers, bots and thinking time";

/// Exits with the usage and `why` (status 2), as an unknown or malformed
/// argument would otherwise run a different bench than asked for.
fn usage_error(why: &str) -> ! {
    eprintln!("speed: {why}\n{USAGE}");
    std::process::exit(2)
}

/// The value after `flag`.
fn value(flag: &str, next: Option<String>) -> String {
    next.unwrap_or_else(|| usage_error(&format!("{flag} needs a value")))
}

/// The value after `flag`, parsed.
fn number<T: std::str::FromStr>(flag: &str, next: Option<String>) -> T {
    let text = value(flag, next);
    text.parse()
        .unwrap_or_else(|_| usage_error(&format!("{flag}: {text:?} is not a valid value")))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds the C echo bot into `dir`; `None` (with the reason printed) if
/// there is no C compiler.
fn build_echo(dir: &Path) -> Option<PathBuf> {
    let out = dir.join("echo");
    let src = root().join("bench/echo.c");
    match Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
    {
        Ok(s) if s.success() => Some(out),
        Ok(s) => {
            println!("skipped: cc {} failed ({s})", src.display());
            None
        }
        Err(e) => {
            println!("skipped: no C compiler (cc: {e})");
            None
        }
    }
}

fn spec(name: &str, command: Vec<String>, mode: Mode) -> BotSpec {
    BotSpec {
        name: name.into(),
        command,
        dir: std::env::temp_dir(),
        build: None,
        mode,
        games: Vec::new(),
        team: None,
        description: None,
        values: Default::default(),
    }
}

// ---------------------------------------------------------------- raw steps

/// Seconds per spawn + greeting and prompt + answer + reap of a per-turn
/// echo bot, with nothing but the standard library.
fn raw_spawn(echo: &Path, n: u32) -> f64 {
    raw_spawn_with(echo, n, |_| {})
}

/// [`raw_spawn`] with a `pre_exec` hook that sets PDEATHSIG, as the runner
/// does: a hook forces the standard library to fork instead of using
/// `posix_spawn` (a vfork-style clone).
#[allow(unsafe_code)]
fn raw_spawn_forking(echo: &Path, n: u32) -> f64 {
    use std::os::unix::process::CommandExt;
    raw_spawn_with(echo, n, |command| {
        // SAFETY: the hook only makes one async-signal-safe system call.
        unsafe {
            command.pre_exec(|| {
                rustix::process::set_parent_process_death_signal(Some(
                    rustix::process::Signal::KILL,
                ))
                .map_err(std::io::Error::from)
            });
        }
    })
}

fn raw_spawn_with(echo: &Path, n: u32, setup: impl Fn(&mut Command)) -> f64 {
    let started = Instant::now();
    for _ in 0..n {
        let mut command = Command::new(echo);
        setup(&mut command);
        let mut child = command
            .arg("once")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("echo bot starts");
        let mut stdin = child.stdin.take().expect("piped");
        stdin
            .write_all(format!("1\n{HAND}\n").as_bytes())
            .expect("write");
        let mut answer = [0u8; 2];
        child
            .stdout
            .take()
            .expect("piped")
            .read_exact(&mut answer)
            .expect("answer");
        drop(stdin);
        child.wait().expect("reap");
    }
    started.elapsed().as_secs_f64() / f64::from(n)
}

/// Seconds per prompt + answer over the pipes of a persistent echo bot.
fn raw_round_trip(echo: &Path, n: u32) -> f64 {
    let mut child = Command::new(echo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("echo bot starts");
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = child.stdout.take().expect("piped");
    let prompt = format!("{HAND}\n");
    let mut answer = [0u8; 2];
    stdin.write_all(b"1\n").expect("write");
    // One untimed exchange: the process is running and paged in.
    stdin.write_all(prompt.as_bytes()).expect("write");
    stdout.read_exact(&mut answer).expect("answer");
    let started = Instant::now();
    for _ in 0..n {
        stdin.write_all(prompt.as_bytes()).expect("write");
        stdout.read_exact(&mut answer).expect("answer");
    }
    let secs = started.elapsed().as_secs_f64() / f64::from(n);
    drop(stdin);
    child.wait().expect("reap");
    secs
}

/// Seconds for `games` games played by a harness-free loop in this
/// binary, `threads` at a time: each game starts two echo bots side by
/// side (`args` after the program: none, or `sleep MS`), sends each its
/// seat, then per round a hand line to both, reads both answers and sends
/// a round result, then a winner line, and reaps both. The games share
/// `rounds` rounds as evenly as they can (a league's count, so the loop
/// plays what the league played). No containment, no record, no deadline:
/// what no harness's game loop undercuts on this machine, the floor that
/// figures 1 and 7 are read against.
fn bare_games(echo: &Path, args: &[String], games: u64, rounds: u64, threads: usize) -> f64 {
    let next = std::sync::atomic::AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let its_rounds = rounds * (game + 1) / games - rounds * game / games;
                    bare_game(echo, args, its_rounds);
                }
            });
        }
    });
    started.elapsed().as_secs_f64()
}

/// One game of [`bare_games`].
fn bare_game(echo: &Path, args: &[String], rounds: u64) {
    let mut bots: Vec<_> = (0..2)
        .map(|_| {
            Command::new(echo)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("echo bot starts")
        })
        .collect();
    let mut pipes: Vec<_> = bots
        .iter_mut()
        .map(|b| {
            let stdin = b.stdin.take().expect("piped");
            let stdout = b.stdout.take().expect("piped");
            (stdin, stdout)
        })
        .collect();
    for (seat, (stdin, _)) in pipes.iter_mut().enumerate() {
        stdin
            .write_all(format!("{}\n", seat + 1).as_bytes())
            .expect("write");
    }
    let hand = format!("{HAND}\n");
    let mut answer = [0u8; 2];
    for _ in 0..rounds {
        for (stdin, _) in &mut pipes {
            stdin.write_all(hand.as_bytes()).expect("write");
        }
        for (_, stdout) in &mut pipes {
            stdout.read_exact(&mut answer).expect("answer");
        }
        for (stdin, _) in &mut pipes {
            stdin.write_all(b"Fr2 vs. Fr2: 0 wins!\n").expect("write");
        }
    }
    for (stdin, _) in &mut pipes {
        stdin.write_all(b"Player 1 wins!\n").expect("write");
    }
    drop(pipes);
    for mut bot in bots {
        bot.wait().expect("reap");
    }
}

// ------------------------------------------------------------- through dojo

/// A one-seat referee that sends the same hand line `left` times.
struct Pings {
    left: u32,
}

impl Referee for Pings {
    type Move = ();

    fn seats(&self) -> usize {
        1
    }

    fn greeting(&self, _seat: usize) -> Vec<String> {
        vec!["1".into()]
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.left == 0 {
            return Vec::new();
        }
        vec![Prompt {
            seat: 0,
            lines: vec![HAND.into()],
        }]
    }

    fn parse_reply(&self, _seat: usize, _lines: &[String]) -> Reply<()> {
        Reply::Complete(())
    }

    fn apply(&mut self, _answers: Vec<Answer<()>>) -> Vec<Notice> {
        self.left -= 1;
        Vec::new()
    }

    fn farewell(&self) -> Vec<String> {
        vec!["Player 1 wins!".into()]
    }
}

/// Seconds `dojo_runner::play` takes for `prompts` prompts.
fn runner_game(bot: &Arc<BotSpec>, prompts: u32, sandbox: SandboxMode) -> f64 {
    let seats = [Seat::new(Arc::clone(bot))];
    let options = dojo_runner::RunOptions::from(dojo_runner::Controls {
        sandbox,
        ..Default::default()
    });
    let started = Instant::now();
    let run = dojo_runner::play(&mut Pings { left: prompts }, &seats, &options).expect("runs");
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(run.seats[0].faults.total(), 0, "echo bot faulted: {run:?}");
    secs
}

/// Seconds per prompt beyond the first in a runner game of `n` prompts.
fn runner_per_prompt(bot: &Arc<BotSpec>, n: u32, sandbox: SandboxMode) -> f64 {
    // A game first, unmeasured: contained, it makes the bot's box, which
    // the two measured games then both find kept. Had the one-prompt game
    // paid for the box (several ms), the difference would have come out
    // negative (and been taken as 0) far more often than a few µs a
    // prompt can show.
    runner_game(bot, 1, sandbox);
    let one = runner_game(bot, 1, sandbox);
    let many = runner_game(bot, n + 1, sandbox);
    ((many - one) / f64::from(n)).max(0.0)
}

/// `--only`: the runner's side of one figure and nothing else, for a
/// profiler to look at.
fn profile_only(only: &str, a: &Args, persistent: &Arc<BotSpec>, per_turn: &Arc<BotSpec>) {
    let n = u32::try_from(a.games).unwrap_or(u32::MAX);
    let bot = match only {
        "per-move" => persistent,
        "per-turn" => per_turn,
        "league" => {
            let dir = tempfile::tempdir().expect("temp dir");
            for &mode in &a.sandboxes {
                let mut echo = persistent.command[0].clone();
                if a.think_ms > 0 {
                    echo = format!("{echo} sleep {}", a.think_ms);
                }
                let boxes_before = dojo_runner::boxes_made();
                let run = league_of(&echo, a.bots, a.games, a.jobs, mode, dir.path());
                println!(
                    "league of {} bots --jobs {} [sandbox {}]: {} games in {:.2} s, {:.1} games/s ({} failed, {} timeouts, {} boxes made)",
                    a.bots,
                    a.jobs,
                    sandbox_name(mode),
                    run.games,
                    run.secs,
                    run.games as f64 / run.secs,
                    run.failed,
                    run.timeouts,
                    dojo_runner::boxes_made() - boxes_before
                );
            }
            return;
        }
        "bare" => {
            // The harness-free loop beside each league of the same games
            // (whose rounds it plays), at the same width.
            let dir = tempfile::tempdir().expect("temp dir");
            let echo = Path::new(&persistent.command[0]);
            let mut cmd = persistent.command[0].clone();
            let mut args = Vec::new();
            if a.think_ms > 0 {
                cmd = format!("{cmd} sleep {}", a.think_ms);
                args = vec!["sleep".to_string(), a.think_ms.to_string()];
            }
            for &mode in &a.sandboxes {
                let run = league_of(&cmd, 2, a.games, a.jobs, mode, dir.path());
                let cpu_before = cpu_of_self_and_reaped();
                let bare = bare_games(echo, &args, run.games, run.rounds, a.jobs);
                // The loop's bots are its own children, reaped: this is
                // all of a harness-free game's CPU (its bots' and its own).
                let loop_cpu = cpu_of_self_and_reaped()
                    .zip(cpu_before)
                    .map(|(after, before)| {
                        format!(
                            ", the loop's CPU {:.2} ms a game (its bots' and its own)",
                            (after - before) * 1e3 / run.games as f64
                        )
                    })
                    .unwrap_or_default();
                println!(
                    "--jobs {} [sandbox {}]: league {:.1} games/s, harness-free loop {:.1} games/s, ratio {:.2}{loop_cpu}",
                    a.jobs,
                    sandbox_name(mode),
                    run.games as f64 / run.secs,
                    run.games as f64 / bare,
                    bare / run.secs
                );
            }
            return;
        }
        "round-trip" => {
            let echo = Path::new(&persistent.command[0]);
            println!(
                "round-trip: {n} prompts, {:.1} us each",
                raw_round_trip(echo, n) * 1e6
            );
            return;
        }
        other => {
            eprintln!(
                "--only takes per-move, per-turn, round-trip, league, bare or width, not {other:?}"
            );
            std::process::exit(2);
        }
    };
    for &mode in &a.sandboxes {
        let secs = runner_game(bot, n, mode);
        println!(
            "{only} [sandbox {}]: {n} prompts, {:.1} us each",
            sandbox_name(mode),
            secs / f64::from(n.max(1)) * 1e6
        );
    }
}

struct LeagueRun {
    secs: f64,
    games: u64,
    rounds: u64,
    timeouts: u64,
    /// Games that failed (a bot could not start, say): not played.
    failed: usize,
}

/// The tournament rules with both seats on the standard deck.
fn standard_decks() -> dojo_games::CardJitsuOptions {
    let mut options = dojo_games::CardJitsuOptions::default();
    let standard = dojo_engine::cardjitsu::Deck::standard();
    options.settings.decks = [standard.clone(), standard];
    options.deck_names = ["standard".into(), "standard".into()];
    options
}

fn league(echo_cmd: &str, games: u64, jobs: usize, sandbox: SandboxMode, dir: &Path) -> LeagueRun {
    league_of(echo_cmd, 2, games, jobs, sandbox, dir)
}

/// A league of `bots` bots running `echo_cmd` under names of their own
/// (so each has boxes of its own: none serves another bot's game),
/// `games` per pair.
fn league_of(
    echo_cmd: &str,
    bots: usize,
    games: u64,
    jobs: usize,
    sandbox: SandboxMode,
    dir: &Path,
) -> LeagueRun {
    let out = dir.join(format!("league-{jobs}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let bots: Vec<_> = (0..bots)
        .map(|i| {
            let name = format!("{}{}", ["a", "b"][i % 2], i / 2);
            dojo_league::Entrant {
                command: format!("{name}={echo_cmd}"),
                name,
                dir: None,
                fixed_team: None,
                values: Default::default(),
            }
        })
        .collect();
    let settings = Settings {
        game: Game::CARDJITSU,
        bots: bots.clone(),
        games,
        seed: 1,
        boards: Vec::new(),
        controls: dojo_runner::Controls {
            timeout: std::time::Duration::from_millis(1000),
            ..dojo_runner::Controls::default()
        },
        raises: dojo_league::Raises::Allow,
        faults: Default::default(),
        anchor: None,
        anchor_elo: None,
        gauntlet: None,
        sprt: None,
        shard: None,
        play: Default::default(),
    };
    let bots_dir = root().join("bots");
    let executor = BotExecutor {
        bots: bots
            .iter()
            .map(|b| {
                let spec = dojo_runner::resolve(&b.command, &bots_dir).expect("inline bot");
                (b.name.clone(), Arc::new(spec))
            })
            .collect(),
        boards: Default::default(),
        run: dojo_runner::RunOptions::from(dojo_runner::Controls {
            sandbox,
            ..Default::default()
        }),
        // The standard deck, drawn with replacement, as the Python harness
        // deals: both play games of the same kind and length.
        options: dojo_games::GameOptions::new(standard_decks()),
        faults: Default::default(),
    };
    let options = dojo_league::LeagueRun {
        out: out.clone(),
        jobs,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    // As `dojo league` does where the limits leave room (this bench
    // raised its open-files limit).
    dojo_runner::keep_idle_boxes(dojo_runner::idle_boxes_wanted(
        jobs,
        2,
        dojo_league::schedule::bots_in_play(jobs, 2, bots.len()),
        usize::MAX,
    ));
    // As `dojo league` does before its workers start.
    dojo_runner::start_box_makers(sandbox);
    let started = Instant::now();
    let report = run_league(
        &settings,
        &options,
        &executor,
        &mut NoProgress,
        &AtomicBool::new(false),
    )
    .expect("league runs");
    let secs = started.elapsed().as_secs_f64();
    // Its boxes go now, untimed: the next league (figure 9 runs two in a
    // row) would otherwise pay for tearing them down.
    dojo_runner::drop_idle_boxes();
    if let Some(failed) = report.timing.failed.first() {
        eprintln!(
            "{} games failed; game {}: {}",
            report.timing.failed.len(),
            failed.id,
            failed.error
        );
    }
    let rounds = count_rounds(&out.join(dojo_league::store::GAMES_FILE));
    let _ = std::fs::remove_dir_all(&out);
    LeagueRun {
        secs,
        games: report.games_played,
        rounds,
        timeouts: report.totals.faults.timeout,
        failed: report.timing.failed.len(),
    }
}

fn count_rounds(games_file: &Path) -> u64 {
    let file = std::fs::File::open(games_file).expect("games.jsonl");
    BufReader::new(file)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
            v["record"]["rounds"]
                .as_array()
                .map_or(0, |r| r.len() as u64)
        })
        .sum()
}

fn python_league(echo: &Path, games: u64, dir: &Path) -> Option<(f64, u64)> {
    let out = dir.join("py-games.jsonl");
    let _ = std::fs::remove_file(&out);
    let output = Command::new("python3")
        .arg(root().join("bench/py_harness.py"))
        .arg(games.to_string())
        .arg(&out)
        .arg(echo)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&out);
    if !output.status.success() {
        println!(
            "python harness failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut fields = text.split_whitespace();
    let _games = fields.next()?;
    let rounds: u64 = fields.next()?.parse().ok()?;
    let secs: f64 = fields.next()?.parse().ok()?;
    Some((secs, rounds))
}

// ------------------------------------------------------------------ memory

/// Seconds of CPU this process and its reaped children have used
/// (`/proc/self/stat`'s utime, stime, cutime and cstime, in clock ticks
/// of 10 ms).
fn cpu_of_self_and_reaped() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis: state is the
    // first, utime the 12th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    Some(ticks.iter().sum::<f64>() / 100.0)
}

/// The peak resident memory of this process, from /proc (KiB).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs one league in a child copy of this binary, so its peak memory is
/// the league's alone. Returns (seconds, games, timeouts, peak KiB).
fn league_in_child(
    echo_cmd: &str,
    games: u64,
    jobs: usize,
    sandbox: SandboxMode,
    dir: &Path,
) -> Option<(f64, u64, u64, u64)> {
    let exe = std::env::current_exe().ok()?;
    let output = Command::new(exe)
        .env("DOJO_BENCH_CHILD", format!("{games} {jobs}"))
        .env("DOJO_BENCH_SANDBOX", sandbox_name(sandbox))
        .env("DOJO_BENCH_ECHO", echo_cmd)
        .env("DOJO_BENCH_DIR", dir)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let v: Vec<f64> = text
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    match v[..] {
        [secs, games, timeouts, kib] => Some((secs, games as u64, timeouts as u64, kib as u64)),
        _ => {
            println!(
                "league child failed: {}{}",
                text,
                String::from_utf8_lossy(&output.stderr)
            );
            None
        }
    }
}

fn child_main(spec: &str) {
    let mut it = spec
        .split_whitespace()
        .filter_map(|f| f.parse::<u64>().ok());
    let (Some(games), Some(jobs)) = (it.next(), it.next()) else {
        return;
    };
    let echo_cmd = std::env::var("DOJO_BENCH_ECHO").expect("echo command");
    let dir = PathBuf::from(std::env::var("DOJO_BENCH_DIR").expect("dir"));
    let sandbox = std::env::var("DOJO_BENCH_SANDBOX")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or_default();
    let run = league(&echo_cmd, games, jobs as usize, sandbox, &dir);
    println!(
        "{} {} {} {}",
        run.secs,
        run.games,
        run.timeouts,
        peak_rss_kib().unwrap_or(0)
    );
}

// ------------------------------------------------------------------ report

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn sandbox_name(mode: SandboxMode) -> &'static str {
    match mode {
        SandboxMode::Off => "off",
        SandboxMode::Auto => "auto",
        SandboxMode::Strict => "strict",
    }
}

/// What a figure's ratio is held to.
#[derive(Clone, Copy)]
enum Goal {
    AtLeast(f64),
    AtMost(f64),
    /// Printed for information: no goal.
    Info,
}

impl Goal {
    fn text(self) -> String {
        match self {
            Goal::AtLeast(g) => format!(">= {g}"),
            Goal::AtMost(g) => format!("<= {g}"),
            Goal::Info => "information".into(),
        }
    }

    fn met(self, ratio: f64) -> Option<bool> {
        match self {
            Goal::AtLeast(g) => Some(ratio >= g),
            Goal::AtMost(g) => Some(ratio <= g),
            Goal::Info => None,
        }
    }
}

struct Figure {
    name: String,
    value: f64,
    baseline: f64,
    unit: &'static str,
    /// Ratio value/baseline (or its inverse, so that the goal reads
    /// naturally), compared with the goal.
    ratio: f64,
    goal: Goal,
    note: String,
}

impl Figure {
    /// A figure whose ratio is `value / baseline`, in games/s.
    fn games_per_s(name: String, value: f64, baseline: f64, goal: Goal, note: String) -> Self {
        Figure {
            name,
            value,
            baseline,
            unit: "games/s",
            ratio: value / baseline,
            goal,
            note,
        }
    }
}

/// Per containment mode, the per-repetition measurements.
#[derive(Default)]
struct ModeRuns {
    model: Vec<f64>,
    model_fork: Vec<f64>,
    j1: Vec<f64>,
    j2: Vec<f64>,
    py_ratio: Vec<f64>,
    per_move: Vec<f64>,
    raw_move: Vec<f64>,
    move_ratio: Vec<f64>,
    per_turn: Vec<f64>,
    raw_turn: Vec<f64>,
    turn_ratio: Vec<f64>,
}

fn main() {
    if let Ok(spec) = std::env::var("DOJO_BENCH_CHILD") {
        child_main(&spec);
        return;
    }
    let a = args();
    // 256 games in flight hold about 8,000 descriptors.
    dojo_runner::raise_open_files_limit();
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(echo) = build_echo(dir.path()) else {
        return;
    };
    let echo_cmd = echo.display().to_string();
    let persistent = Arc::new(spec("echo", vec![echo_cmd.clone()], Mode::Persistent));
    let per_turn = Arc::new(spec(
        "echo-once",
        vec![echo_cmd.clone(), "once".into()],
        Mode::PerTurn,
    ));
    // `--only width`: the width figures (7 to 9) alone, with their goals.
    let width_only = a.only.as_deref() == Some("width");
    if let Some(only) = &a.only
        && !width_only
    {
        profile_only(only, &a, &persistent, &per_turn);
        return;
    }
    let mut figures = Vec::new();
    if !width_only {
        let python = Command::new("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !python {
            println!("python3 not found: the Python yardstick is skipped");
        }

        let (spawn_n, rt_n) = (200u32, 5000u32);
        let mut spawn = Vec::new();
        let mut rt = Vec::new();
        let mut py = Vec::new();
        let mut fork_ratio = Vec::new();
        // Seconds a game of the harness-free loop ([`bare_games`]).
        let mut bare = Vec::new();
        let mut modes: Vec<(SandboxMode, ModeRuns)> = a
            .sandboxes
            .iter()
            .map(|&m| (m, ModeRuns::default()))
            .collect();
        let mut rounds_per_game = 0.0;
        println!(
            "interleaving {} repetitions of {} games per league on {} cores, load average {}",
            a.reps,
            a.games,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            load_average()
        );
        for rep in 0..a.reps {
            let s = raw_spawn(&echo, spawn_n);
            let r = raw_round_trip(&echo, rt_n);
            // The Python yardstick once per repetition, beside every mode.
            let py_secs = if python {
                python_league(&echo, a.games, dir.path()).map(|(secs, _)| secs / a.games as f64)
            } else {
                None
            };
            let mut leagues = Vec::new();
            for (mode, _) in &modes {
                let one = league(&echo_cmd, a.games, 1, *mode, dir.path());
                let two = league(&echo_cmd, a.games, 2, *mode, dir.path());
                leagues.push((one, two));
            }
            // The harness-free game loop plays the first league's rounds.
            if let Some((one, _)) = leagues.first() {
                bare.push(bare_games(&echo, &[], one.games, one.rounds, 1) / one.games as f64);
            }
            let s2 = raw_spawn(&echo, spawn_n);
            let r2 = raw_round_trip(&echo, rt_n);
            let (s, r) = ((s + s2) / 2.0, (r + r2) / 2.0);
            let s3 = raw_spawn(&echo, 100);
            let sf = raw_spawn_forking(&echo, 100);
            let s4 = raw_spawn(&echo, 100);
            let fork = 2.0 * sf / (s3 + s4);
            fork_ratio.push(fork);
            spawn.push(s);
            rt.push(r);
            if let Some(p) = py_secs {
                py.push(p);
            }
            for ((mode, runs), (one, two)) in modes.iter_mut().zip(&leagues) {
                // Model: 2 spawns per game, one round trip per prompt (2 per round).
                let games = one.games as f64;
                let m = games * 2.0 * s + one.rounds as f64 * 2.0 * r;
                rounds_per_game = one.rounds as f64 / games;
                runs.model.push(m / games);
                // The same model with the runner's spawn path (fork, for PDEATHSIG).
                runs.model_fork
                    .push((m + games * 2.0 * s * (fork - 1.0)) / games);
                runs.j1.push(one.secs / games);
                runs.j2.push(two.secs / two.games as f64);
                if let Some(p) = py_secs {
                    runs.py_ratio.push(p / (one.secs / games));
                }
                let pm = runner_per_prompt(&persistent, 2000, *mode);
                let r3 = raw_round_trip(&echo, 2000);
                let pt = runner_per_prompt(&per_turn, 100, *mode);
                let s5 = raw_spawn(&echo, 100);
                runs.per_move.push(pm);
                runs.raw_move.push(r3);
                runs.move_ratio.push(pm / r3);
                runs.per_turn.push(pt);
                runs.raw_turn.push(s5);
                runs.turn_ratio.push(pt / s5);
                println!(
                    "rep {rep}, sandbox {}: spawn {:.0} us, round trip {:.1} us, jobs1 {:.2} s, jobs2 {:.2} s, model {:.2} s, per-move {:.1} us vs {:.1} us, per-turn {:.0} us vs {:.0} us",
                    sandbox_name(*mode),
                    s * 1e6,
                    r * 1e6,
                    one.secs,
                    two.secs,
                    m,
                    pm * 1e6,
                    r3 * 1e6,
                    pt * 1e6,
                    s5 * 1e6
                );
            }
        }
        let ratio_of = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| x / y).collect());
        for (mode, runs) in &modes {
            let tag = format!("[sandbox {}]", sandbox_name(*mode));
            figures.push(Figure {
                name: format!("1 league --jobs 1 vs physical cost model {tag}"),
                value: 1.0 / median(runs.j1.clone()),
                baseline: 1.0 / median(runs.model.clone()),
                unit: "games/s",
                ratio: ratio_of(&runs.model, &runs.j1),
                goal: Goal::AtLeast(0.8),
                note: format!(
                    "model = 2 spawns ({:.0} us) + {:.1} prompts x round trip ({:.1} us) per game",
                    median(spawn.clone()) * 1e6,
                    2.0 * rounds_per_game,
                    median(rt.clone()) * 1e6
                ),
            });
            if runs.py_ratio.len() == runs.j1.len() && !py.is_empty() {
                figures.push(Figure {
                    name: format!("1 league --jobs 1 vs Python harness {tag}"),
                    value: 1.0 / median(runs.j1.clone()),
                    baseline: 1.0 / median(py.clone()),
                    unit: "games/s",
                    ratio: median(runs.py_ratio.clone()),
                    goal: Goal::AtLeast(2.0),
                    note: String::new(),
                });
            }
            if runs.j1.len() == bare.len() {
                figures.push(Figure {
                    name: format!("  league --jobs 1 vs the harness-free game loop {tag}"),
                    value: 1.0 / median(runs.j1.clone()),
                    baseline: 1.0 / median(bare.clone()),
                    unit: "games/s",
                    ratio: ratio_of(&bare, &runs.j1),
                    goal: Goal::Info,
                    note: String::new(),
                });
            }
            figures.push(Figure {
                name: format!("1 league --jobs 2 vs --jobs 1 {tag}"),
                value: 1.0 / median(runs.j2.clone()),
                baseline: 1.0 / median(runs.j1.clone()),
                unit: "games/s",
                ratio: ratio_of(&runs.j1, &runs.j2),
                goal: Goal::AtLeast(1.8),
                note: String::new(),
            });
            figures.push(Figure {
                name: format!("2 per-move: runner vs raw pipe round trip {tag}"),
                value: median(runs.per_move.clone()) * 1e6,
                baseline: median(runs.raw_move.clone()) * 1e6,
                unit: "us",
                ratio: median(runs.move_ratio.clone()),
                goal: Goal::AtMost(1.5),
                note: String::new(),
            });
            figures.push(Figure {
                name: format!("3 per-turn: runner spawn+prompt+answer+reap vs raw {tag}"),
                value: median(runs.per_turn.clone()) * 1e6,
                baseline: median(runs.raw_turn.clone()) * 1e6,
                unit: "us",
                ratio: median(runs.turn_ratio.clone()),
                goal: Goal::AtMost(1.2),
                note: String::new(),
            });
            figures.push(Figure {
                name: format!("  league --jobs 1 vs the model with fork spawns {tag}"),
                value: 1.0 / median(runs.j1.clone()),
                baseline: 1.0 / median(runs.model_fork.clone()),
                unit: "games/s",
                ratio: ratio_of(&runs.model_fork, &runs.j1),
                goal: Goal::Info,
                note: "what the runner's spawn path (fork + PDEATHSIG) leaves".into(),
            });
        }
        if !bare.is_empty() && !py.is_empty() {
            figures.push(Figure {
                name: "  the harness-free game loop vs the Python harness".into(),
                value: 1.0 / median(bare.clone()),
                baseline: 1.0 / median(py.clone()),
                unit: "games/s",
                ratio: median(py.iter().zip(&bare).map(|(p, b)| p / b).collect()),
                goal: Goal::Info,
                note:
                    "bots started side by side, no containment: the most any harness reaches here"
                        .into(),
            });
        }
        figures.push(Figure {
            name: "  raw spawn: fork (pre_exec for PDEATHSIG) vs posix_spawn".into(),
            value: median(fork_ratio.clone()),
            baseline: 1.0,
            unit: "x",
            ratio: median(fork_ratio.clone()),
            goal: Goal::Info,
            note: String::new(),
        });

        // Many slow bots at once, with the default containment: every move
        // must still be judged on time.
        let slow = format!("{echo_cmd} sleep 50");
        let slow_games = 256;
        if let Some((secs, games, timeouts, kib)) =
            league_in_child(&slow, slow_games, 64, SandboxMode::Auto, dir.path())
        {
            figures.push(Figure {
                name: "4 --jobs 64, 50 ms bots: timeouts at 1 s [sandbox auto]".into(),
                value: timeouts as f64,
                baseline: 0.0,
                unit: "timeouts",
                ratio: timeouts as f64,
                goal: Goal::AtMost(0.0),
                note: format!("{games} games in {secs:.1} s"),
            });
            figures.push(Figure {
                name: "4 --jobs 64, 50 ms bots: peak memory [sandbox auto]".into(),
                value: kib as f64 / 1024.0,
                baseline: 200.0,
                unit: "MiB",
                ratio: kib as f64 / 1024.0 / 200.0,
                goal: Goal::AtMost(1.0),
                note: "ratio: of 200 MiB".into(),
            });
        }
    }
    // Width: bots that think by sleeping (a bot waiting on a GPU or a
    // remote search) cost the machine nothing, so games in flight should
    // scale with --jobs until dojo's own work fills the cores.
    let thinking = format!("{echo_cmd} sleep {THINK_MS}");
    // 16 games per worker at both widths, so each pays the making of its
    // boxes over as many games.
    let j1 = league(&thinking, 16, 1, SandboxMode::Auto, dir.path());
    let j64 = league(&thinking, 64 * 16, 64, SandboxMode::Auto, dir.path());
    let j256 = league(&thinking, 256 * 4, 256, SandboxMode::Auto, dir.path());
    println!(
        "thinking bots ({THINK_MS} ms a move): --jobs 1 {} games in {:.1} s, --jobs 64 {} in {:.1} s, --jobs 256 {} in {:.1} s ({} failed, {} timeouts)",
        j1.games, j1.secs, j64.games, j64.secs, j256.games, j256.secs, j256.failed, j256.timeouts
    );
    let rate = |r: &LeagueRun| r.games as f64 / r.secs;
    figures.push(Figure::games_per_s(
        format!("7 --jobs 64 vs --jobs 1, {THINK_MS} ms bots [sandbox auto]"),
        rate(&j64),
        rate(&j1),
        Goal::AtLeast(56.0),
        format!("{} and {} timeouts", j64.timeouts, j1.timeouts),
    ));
    // The same games by the harness-free loop, 1 and 64 at a time: how
    // far two cores carry 64 games of these bots with no harness at all.
    let sleeping = ["sleep".to_string(), THINK_MS.to_string()];
    let bare1 = bare_games(&echo, &sleeping, j1.games, j1.rounds, 1);
    let bare64 = bare_games(&echo, &sleeping, j64.games, j64.rounds, 64);
    figures.push(Figure::games_per_s(
        format!("  the harness-free game loop, 64 games at once vs 1, {THINK_MS} ms bots"),
        j64.games as f64 / bare64,
        j1.games as f64 / bare1,
        Goal::Info,
        "no containment: the most figure 7 reaches here".into(),
    ));
    let unplayed = 256 * 4 - j256.games;
    let bad = unplayed + j256.failed as u64 + j256.timeouts;
    figures.push(Figure {
        name: format!(
            "8 --jobs 256, {THINK_MS} ms bots: unplayed + failed + timeouts [sandbox auto]"
        ),
        value: bad as f64,
        baseline: 0.0,
        unit: "games or moves",
        ratio: bad as f64,
        goal: Goal::AtMost(0.0),
        note: format!(
            "{} of {} played, {} failed, {} timeouts, in {:.1} s",
            j256.games,
            256 * 4,
            j256.failed,
            j256.timeouts,
            j256.secs
        ),
    });
    // Many bots: a league of 40 bots (the issue's) and one of 80 (past
    // the 64 idle boxes per worker that made every next game's boxes
    // again) keep a box per bot where 2 bots reuse theirs, each against a
    // league of 2 over the same number of games; and 40 bots at --jobs 64,
    // where the order of play decides whether a bot in many games at once
    // needs a box per game (`schedule/play_order.rs`).
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (bots, jobs) in [(40, cpus), (80, cpus), (40, 64)] {
        let many = league_of(&echo_cmd, bots, 1, jobs, SandboxMode::Auto, dir.path());
        let two = league_of(
            &echo_cmd,
            2,
            many.games,
            jobs,
            SandboxMode::Auto,
            dir.path(),
        );
        figures.push(Figure::games_per_s(
            format!(
                "9 league of {bots} bots vs of 2 bots, same games, --jobs {jobs} [sandbox auto]"
            ),
            rate(&many),
            rate(&two),
            Goal::AtLeast(0.8),
            format!("{} and {} games", many.games, two.games),
        ));
    }
    if a.memory && !width_only {
        // As measured by hand with `--sandbox off`: the league's own memory.
        let small = league_in_child(&echo_cmd, 1000, 2, SandboxMode::Off, dir.path());
        let big = league_in_child(&echo_cmd, 20_000, 2, SandboxMode::Off, dir.path());
        if let (Some(s), Some(b)) = (small, big) {
            figures.push(Figure {
                name: "6 peak memory, 20,000- vs 1,000-game league [sandbox off]".into(),
                value: b.3 as f64 / 1024.0,
                baseline: s.3 as f64 / 1024.0,
                unit: "MiB",
                ratio: b.3 as f64 / s.3 as f64,
                goal: Goal::AtMost(1.1),
                note: format!("{:.0} s and {:.0} s", s.0, b.0),
            });
        }
    }

    println!();
    println!("load average at the end: {}", load_average());
    println!(
        "{:<66} {:>10} {:>10} {:>7}  {:<8} {:<8} unit",
        "goal figure", "dojo", "baseline", "ratio", "goal", "verdict"
    );
    for f in &figures {
        let verdict = match f.goal.met(f.ratio) {
            Some(true) => "met",
            Some(false) => "NOT met",
            None => "",
        };
        println!(
            "{:<66} {:>10.1} {:>10.1} {:>7.2}  {:<8} {:<8} {}{}",
            f.name,
            f.value,
            f.baseline,
            f.ratio,
            f.goal.text(),
            verdict,
            f.unit,
            if f.note.is_empty() {
                String::new()
            } else {
                format!("; {}", f.note)
            }
        );
    }
    if let Some(path) = a.json {
        let json: Vec<serde_json::Value> = figures
            .iter()
            .map(|f| {
                serde_json::json!({
                    "name": f.name.trim(), "value": f.value, "baseline": f.baseline,
                    "unit": f.unit, "ratio": f.ratio, "goal": f.goal.text(),
                    "met": f.goal.met(f.ratio), "note": f.note,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&json).expect("json");
        if let Err(e) = std::fs::write(&path, text) {
            println!("cannot write {}: {e}", path.display());
        }
    }
}

/// The machine's 1-, 5- and 15-minute load averages, as `/proc` has them.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

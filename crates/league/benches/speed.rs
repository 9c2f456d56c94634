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
//!   memory (measured in a child process so nothing else counts).
//!
//! `cargo bench -p dojo-league --bench speed -- [--json FILE] [--games N]
//! [--reps N] [--memory]`. `--memory` adds the peak-memory comparison of a
//! 1,000- and a 20,000-game league (slow: minutes). Numbers only: nothing
//! here fails on a slow machine.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use dojo_engine::protocol::{Answer, Notice, Prompt, Referee, Reply};
use dojo_games::BotExecutor;
use dojo_league::{GameKind, NoProgress, Settings, run_league};
use dojo_runner::{BotSpec, Mode, Seat};

const HAND: &str = "Fr2,Fb3,Sg4,Wo5,WpA";

struct Args {
    json: Option<PathBuf>,
    games: u64,
    reps: usize,
    memory: bool,
}

fn args() -> Args {
    let mut a = Args {
        json: None,
        games: 400,
        reps: 3,
        memory: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--json" => a.json = it.next().map(PathBuf::from),
            "--games" => a.games = it.next().and_then(|n| n.parse().ok()).unwrap_or(a.games),
            "--reps" => a.reps = it.next().and_then(|n| n.parse().ok()).unwrap_or(a.reps),
            "--memory" => a.memory = true,
            // cargo passes --bench; anything else is not ours.
            _ => {}
        }
    }
    a
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
fn runner_game(bot: &Arc<BotSpec>, prompts: u32) -> f64 {
    let seats = [Seat::new(Arc::clone(bot))];
    let started = Instant::now();
    let run = dojo_runner::play(
        &mut Pings { left: prompts },
        &seats,
        &dojo_runner::RunOptions::default(),
    )
    .expect("runs");
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(run.seats[0].faults.total(), 0, "echo bot faulted: {run:?}");
    secs
}

/// Seconds per prompt beyond the first in a runner game of `n` prompts.
fn runner_per_prompt(bot: &Arc<BotSpec>, n: u32) -> f64 {
    let one = runner_game(bot, 1);
    let many = runner_game(bot, n + 1);
    ((many - one) / f64::from(n)).max(0.0)
}

struct LeagueRun {
    secs: f64,
    games: u64,
    rounds: u64,
    timeouts: u64,
}

fn league(echo_cmd: &str, games: u64, jobs: usize, dir: &Path) -> LeagueRun {
    let out = dir.join(format!("league-{jobs}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let bots = ["a", "b"].map(|name| dojo_league::Entrant {
        name: name.into(),
        command: format!("{name}={echo_cmd}"),
        fixed_team: None,
    });
    let settings = Settings {
        game: GameKind::Cardjitsu,
        bots: bots.to_vec(),
        games,
        seed: 1,
        boards: Vec::new(),
        timeout_ms: 1000,
        anchor: None,
        anchor_elo: None,
        gauntlet: None,
        sprt: None,
        shard: None,
        play: Default::default(),
        limits: Default::default(),
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
        run: dojo_runner::RunOptions::default(),
        cardjitsu: Default::default(),
        deck_names: ["standard".into(), "standard".into()],
        royale: Default::default(),
    };
    let options = dojo_league::RunOptions {
        out: out.clone(),
        jobs,
        fingerprints: Default::default(),
    };
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
    let rounds = count_rounds(&out.join(dojo_league::store::GAMES_FILE));
    let _ = std::fs::remove_dir_all(&out);
    LeagueRun {
        secs,
        games: report.games_played,
        rounds,
        timeouts: report.totals.faults.timeout,
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
    dir: &Path,
) -> Option<(f64, u64, u64, u64)> {
    let exe = std::env::current_exe().ok()?;
    let output = Command::new(exe)
        .env("DOJO_BENCH_CHILD", format!("{games} {jobs}"))
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
    let run = league(&echo_cmd, games, jobs as usize, &dir);
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

struct Figure {
    name: &'static str,
    value: f64,
    baseline: f64,
    unit: &'static str,
    /// Ratio value/baseline (or its inverse), and the goal for it.
    ratio: f64,
    goal: &'static str,
    note: String,
}

fn main() {
    if let Ok(spec) = std::env::var("DOJO_BENCH_CHILD") {
        child_main(&spec);
        return;
    }
    let a = args();
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
    let mut model = Vec::new();
    let mut model_fork = Vec::new();
    let mut j1 = Vec::new();
    let mut j2 = Vec::new();
    let mut py = Vec::new();
    let mut move_ratio = Vec::new();
    let mut turn_ratio = Vec::new();
    let mut per_move = Vec::new();
    let mut per_turn_s = Vec::new();
    let mut fork_ratio = Vec::new();
    let mut rounds_per_game = 0.0;
    println!(
        "interleaving {} repetitions of {} games per league on {} cores",
        a.reps,
        a.games,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for rep in 0..a.reps {
        let s = raw_spawn(&echo, spawn_n);
        let r = raw_round_trip(&echo, rt_n);
        let one = league(&echo_cmd, a.games, 1, dir.path());
        let s2 = raw_spawn(&echo, spawn_n);
        let r2 = raw_round_trip(&echo, rt_n);
        let (s, r) = ((s + s2) / 2.0, (r + r2) / 2.0);
        // Model: 2 spawns per game, one round trip per prompt (2 per round).
        let m = one.games as f64 * 2.0 * s + one.rounds as f64 * 2.0 * r;
        rounds_per_game = one.rounds as f64 / one.games as f64;
        let two = league(&echo_cmd, a.games, 2, dir.path());
        if python && let Some((secs, _)) = python_league(&echo, one.games, dir.path()) {
            py.push(secs / one.games as f64);
        }
        let pm = runner_per_prompt(&persistent, 2000);
        let r3 = raw_round_trip(&echo, 2000);
        let pt = runner_per_prompt(&per_turn, 100);
        let s3 = raw_spawn(&echo, 100);
        let sf = raw_spawn_forking(&echo, 100);
        let s4 = raw_spawn(&echo, 100);
        fork_ratio.push(2.0 * sf / (s3 + s4));
        // The same model with the runner's spawn path (fork, for PDEATHSIG).
        model_fork.push(
            (m + one.games as f64 * 2.0 * s * (2.0 * sf / (s3 + s4) - 1.0)) / one.games as f64,
        );
        println!(
            "rep {rep}: spawn {:.0} us, round trip {:.1} us, jobs1 {:.2} s, jobs2 {:.2} s, model {:.2} s, per-move {:.1} us vs {:.1} us, per-turn {:.0} us vs {:.0} us",
            s * 1e6,
            r * 1e6,
            one.secs,
            two.secs,
            m,
            pm * 1e6,
            r3 * 1e6,
            pt * 1e6,
            s3 * 1e6
        );
        spawn.push(s);
        rt.push(r);
        model.push(m / one.games as f64);
        j1.push(one.secs / one.games as f64);
        j2.push(two.secs / two.games as f64);
        per_move.push(pm);
        move_ratio.push(pm / r3);
        per_turn_s.push(pt);
        turn_ratio.push(pt / s3);
    }
    let ratio_of = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| x / y).collect());
    let mut figures = vec![
        Figure {
            name: "league --jobs 1 vs physical cost model",
            value: 1.0 / median(j1.clone()),
            baseline: 1.0 / median(model.clone()),
            unit: "games/s",
            ratio: ratio_of(&model, &j1),
            goal: ">= 0.80",
            note: format!(
                "model = 2 spawns ({:.0} us) + {:.1} prompts x round trip ({:.1} us) per game",
                median(spawn.clone()) * 1e6,
                2.0 * rounds_per_game,
                median(rt.clone()) * 1e6
            ),
        },
        Figure {
            name: "league --jobs 2 vs --jobs 1",
            value: 1.0 / median(j2.clone()),
            baseline: 1.0 / median(j1.clone()),
            unit: "games/s",
            ratio: ratio_of(&j1, &j2),
            goal: ">= 1.8",
            note: String::new(),
        },
        Figure {
            name: "per-move: runner prompt-to-answer vs raw pipe round trip",
            value: median(per_move.clone()) * 1e6,
            baseline: median(per_move.clone()) * 1e6 / median(move_ratio.clone()),
            unit: "us",
            ratio: median(move_ratio.clone()),
            goal: "<= 1.5",
            note: String::new(),
        },
        Figure {
            name: "per-turn: runner spawn+prompt+answer+reap vs raw",
            value: median(per_turn_s.clone()) * 1e6,
            baseline: median(per_turn_s.clone()) * 1e6 / median(turn_ratio.clone()),
            unit: "us",
            ratio: median(turn_ratio.clone()),
            goal: "<= 1.2",
            note: String::new(),
        },
        Figure {
            name: "league --jobs 1 vs the model with fork spawns",
            value: 1.0 / median(j1.clone()),
            baseline: 1.0 / median(model_fork.clone()),
            unit: "games/s",
            ratio: ratio_of(&model_fork, &j1),
            goal: "information",
            note: "what the runner's spawn path (fork + PDEATHSIG) leaves".into(),
        },
        Figure {
            name: "raw spawn: fork (pre_exec for PDEATHSIG) vs posix_spawn",
            value: median(fork_ratio.clone()),
            baseline: 1.0,
            unit: "x",
            ratio: median(fork_ratio.clone()),
            goal: "information",
            note: String::new(),
        },
    ];
    if py.len() == j1.len() {
        figures.insert(
            1,
            Figure {
                name: "league --jobs 1 vs Python harness",
                value: 1.0 / median(j1.clone()),
                baseline: 1.0 / median(py.clone()),
                unit: "games/s",
                ratio: ratio_of(&py, &j1),
                goal: ">= 2",
                note: String::new(),
            },
        );
    }

    // Many slow bots at once: every move must still be judged on time.
    let slow = format!("{echo_cmd} sleep 50");
    let slow_games = 256;
    if let Some((secs, games, timeouts, kib)) = league_in_child(&slow, slow_games, 64, dir.path()) {
        figures.push(Figure {
            name: "--jobs 64, bots sleeping 50 ms a move: timeouts at a 1 s limit",
            value: timeouts as f64,
            baseline: 0.0,
            unit: "timeouts",
            ratio: timeouts as f64,
            goal: "== 0",
            note: format!("{games} games in {secs:.1} s"),
        });
        figures.push(Figure {
            name: "--jobs 64, bots sleeping 50 ms a move: peak memory",
            value: kib as f64 / 1024.0,
            baseline: 200.0,
            unit: "MiB",
            ratio: kib as f64 / 1024.0 / 200.0,
            goal: "<= 1 (of 200 MiB)",
            note: String::new(),
        });
    }
    if a.memory {
        let small = league_in_child(&echo_cmd, 1000, 2, dir.path());
        let big = league_in_child(&echo_cmd, 20_000, 2, dir.path());
        if let (Some(s), Some(b)) = (small, big) {
            figures.push(Figure {
                name: "peak memory, 20,000-game league vs 1,000-game league",
                value: b.3 as f64 / 1024.0,
                baseline: s.3 as f64 / 1024.0,
                unit: "MiB",
                ratio: b.3 as f64 / s.3 as f64,
                goal: "<= 1.1",
                note: format!("{:.0} s and {:.0} s", s.0, b.0),
            });
        }
    }

    println!();
    println!(
        "{:<64} {:>12} {:>12} {:>8}  goal",
        "figure", "dojo", "baseline", "ratio"
    );
    for f in &figures {
        println!(
            "{:<64} {:>12.1} {:>12.1} {:>8.2}  {} ({}){}",
            f.name,
            f.value,
            f.baseline,
            f.ratio,
            f.goal,
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
                    "name": f.name, "value": f.value, "baseline": f.baseline,
                    "unit": f.unit, "ratio": f.ratio, "goal": f.goal, "note": f.note,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&json).expect("json");
        if let Err(e) = std::fs::write(&path, text) {
            println!("cannot write {}: {e}", path.display());
        }
    }
}

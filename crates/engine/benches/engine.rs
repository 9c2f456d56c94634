//! Engine throughput with uniformly random moves, each figure printed
//! beside its goal (issue 9) or a baseline measured in the same run, and
//! the ratio. Run with `just bench` or `cargo bench -p dojo-engine`;
//! arguments (after `--`):
//!
//! - section names to run only those: `huge`, `record`, `search`, `royale`
//!   (default: all);
//! - `--reps N`: repetitions of each timed figure, interleaved so that load
//!   from other processes hits every figure alike; the median is printed
//!   (default 5);
//! - `--json FILE`: also write the figures as JSON;
//! - `--counts`: print the work each timed loop did (for instructions per
//!   round under `valgrind --tool=callgrind
//!   --toggle-collect=engine::cardjitsu_search`, say).
//!
//! Rates are per core: work divided by the CPU time of the thread that did
//! it (`CLOCK_THREAD_CPUTIME_ID`), so that other processes competing for
//! the cores do not count against the engine; the wall-clock rate of the
//! same runs is printed beside it (on an idle machine the two agree).
//!
//! Nothing here asserts a speed.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use dojo_engine::cardjitsu::{CardJitsu, Settings};
use dojo_engine::rng;
use dojo_engine::royale::{Action, Board, Dir, Royale, Team, write_prompt};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// What a figure is held against.
#[derive(Clone, Copy)]
enum Against {
    /// The goal: at least this much.
    AtLeast(f64),
    /// The goal: at most this much.
    AtMost(f64),
    /// No goal: a baseline measured in the same run, for information.
    Baseline(f64, &'static str),
}

struct Figure {
    name: &'static str,
    unit: &'static str,
    /// Per core (CPU time), or the measured amount.
    value: f64,
    /// The same runs by the wall clock, for rates.
    wall: Option<f64>,
    against: Against,
}

impl Figure {
    fn ratio(&self) -> f64 {
        match self.against {
            Against::AtLeast(g) | Against::AtMost(g) | Against::Baseline(g, _) => self.value / g,
        }
    }

    fn verdict(&self) -> &'static str {
        match self.against {
            Against::AtLeast(g) if self.value >= g => "met",
            Against::AtMost(g) if self.value <= g => "met",
            Against::Baseline(..) => "",
            _ => "NOT met",
        }
    }

    fn against_text(&self) -> String {
        match self.against {
            Against::AtLeast(g) => format!("goal >= {}", group(g)),
            Against::AtMost(g) => format!("goal <= {}", group(g)),
            Against::Baseline(b, what) => format!("{} ({what})", group(b)),
        }
    }
}

/// `1234567.8` as `1,234,568`; small values keep one decimal.
fn group(v: f64) -> String {
    if v.abs() < 1000.0 {
        return format!("{v:.1}");
    }
    let digits = format!("{v:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

static COUNTS: AtomicBool = AtomicBool::new(false);

/// The CPU time of this thread, in seconds.
#[allow(unsafe_code)]
fn cpu_now() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration,
    // and CLOCK_THREAD_CPUTIME_ID is a clock every Linux has.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return f64::NAN;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// A timed stretch of work, by the thread's CPU clock and the wall clock.
#[derive(Clone, Copy)]
struct Timer {
    cpu: f64,
    wall: Instant,
}

/// Work done per second of CPU time and of wall-clock time.
#[derive(Clone, Copy, Default)]
struct Rate {
    cpu: f64,
    wall: f64,
}

impl Timer {
    fn start() -> Timer {
        Timer {
            cpu: cpu_now(),
            wall: Instant::now(),
        }
    }

    /// Seconds so far: (CPU, wall).
    fn secs(&self) -> (f64, f64) {
        (cpu_now() - self.cpu, self.wall.elapsed().as_secs_f64())
    }

    /// `work` over the time so far; printed with `--counts`.
    fn rate(&self, work: u64, what: &str) -> Rate {
        let (cpu, wall) = self.secs();
        if COUNTS.load(Ordering::Relaxed) {
            eprintln!("{work} {what} in {cpu:.3} s CPU, {wall:.3} s wall");
        }
        Rate {
            cpu: work as f64 / cpu,
            wall: work as f64 / wall,
        }
    }
}

/// Rounds per second of the record-keeping path (what a referee plays):
/// fresh games with the documented ChaCha8 streams, every round recorded.
#[inline(never)]
fn cardjitsu_record(games: u64) -> Rate {
    let timer = Timer::start();
    let mut rounds = 0u64;
    for seed in 0..games {
        let mut game = CardJitsu::new(seed, Settings::default());
        let mut pick = rng::stream(seed, 99);
        while !game.is_over() {
            let choices = [pick.random_range(0..5usize), pick.random_range(0..5usize)];
            game.play(choices);
            rounds += 1;
        }
        black_box(game.outcome());
    }
    timer.rate(rounds, "rounds (referee path)")
}

/// Rounds per second of a search that plays out exact copies of a
/// position (recording off, the game's own ChaCha8 streams continued, the
/// random moves from ChaCha8 too, each round's record returned): the
/// search loop the previous version of this benchmark timed.
#[inline(never)]
fn cardjitsu_search_exact(roots: u64, playouts: u32) -> Rate {
    let timer = Timer::start();
    let mut rounds = 0u64;
    for seed in 0..roots {
        let root = CardJitsu::new(seed, Settings::default());
        let mut pick = rng::stream(seed, 99);
        let mut game = root.search_copy();
        for _ in 0..playouts {
            root.search_copy_into(&mut game);
            while !game.is_over() {
                let choices = [
                    pick.random_range(0..game.hand(0).len()),
                    pick.random_range(0..game.hand(1).len()),
                ];
                black_box(game.play(choices));
            }
            rounds += u64::from(game.rounds_played());
            black_box(game.outcome());
        }
    }
    timer.rate(rounds, "rounds (exact copies)")
}

/// Rounds per second of the search a bot would run: playouts of a
/// position that each sample the future deals afresh
/// ([`CardJitsu::playout_copy_into`], fast streams, recording off) and
/// step by step ([`CardJitsu::step`]: no round record), with random moves
/// from a fast generator (rand's xoshiro256++ and `random_range`).
#[inline(never)]
fn cardjitsu_search(roots: u64, playouts: u32) -> Rate {
    let timer = Timer::start();
    let mut rounds = 0u64;
    for seed in 0..roots {
        let root = CardJitsu::new(seed, Settings::default());
        let mut pick = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut game = root.playout_copy(0);
        for playout in 0..playouts {
            root.playout_copy_into(&mut game, u64::from(playout));
            while !game.is_over() {
                let choices = [
                    pick.random_range(0..game.hand(0).len()),
                    pick.random_range(0..game.hand(1).len()),
                ];
                black_box(game.step(choices));
            }
            rounds += u64::from(game.rounds_played());
            black_box(game.outcome());
        }
    }
    timer.rate(rounds, "rounds (playout copies)")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Medians of each of the two clocks.
fn median_rate(v: &[Rate]) -> Rate {
    Rate {
        cpu: median(v.iter().map(|r| r.cpu).collect()),
        wall: median(v.iter().map(|r| r.wall).collect()),
    }
}

fn rate_figure(name: &'static str, unit: &'static str, rate: Rate, against: Against) -> Figure {
    Figure {
        name,
        unit,
        value: rate.cpu,
        wall: Some(rate.wall),
        against,
    }
}

fn cardjitsu_figures(reps: usize, record: bool, search: bool) -> Vec<Figure> {
    let (mut rec, mut exact, mut fast) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps {
        if record {
            rec.push(cardjitsu_record(20_000));
        }
        if search {
            fast.push(cardjitsu_search(20, 10_000));
            exact.push(cardjitsu_search_exact(20, 2_000));
        }
    }
    let mut figures = Vec::new();
    let record = (!rec.is_empty()).then(|| median_rate(&rec));
    if let Some(r) = record {
        figures.push(rate_figure(
            "cardjitsu referee path (record kept, ChaCha8)",
            "rounds/s",
            r,
            Against::AtLeast(1e6),
        ));
    }
    if !fast.is_empty() {
        let (fast, exact) = (median_rate(&fast), median_rate(&exact));
        figures.push(rate_figure(
            "cardjitsu search playouts (playout copies, step)",
            "rounds/s",
            fast,
            Against::AtLeast(5e6),
        ));
        figures.push(rate_figure(
            "cardjitsu search, exact copies (ChaCha8, play)",
            "rounds/s",
            exact,
            Against::Baseline(fast.cpu, "playout copies"),
        ));
        if let Some(r) = record {
            figures.push(rate_figure(
                "cardjitsu search playouts vs referee path",
                "rounds/s",
                fast,
                Against::Baseline(r.cpu, "referee path"),
            ));
        }
    }
    figures
}

/// A random action: a direction, and pass, move or instigate (one random
/// number from a fast generator, so that the figure is the engine's).
fn random_action(pick: &mut Xoshiro256PlusPlus) -> Action {
    let r = pick.random_range(0..12u8);
    let dir = Dir::ALL[usize::from(r % 4)];
    match r / 4 {
        0 => Action::Pass,
        1 => Action::Move(dir),
        _ => Action::Instigate(dir),
    }
}

/// Plays `game` out with random actions; returns the turns played.
#[inline(never)]
fn royale_steps(game: &mut Royale, pick: &mut Xoshiro256PlusPlus) -> u64 {
    let mut n = 0;
    while let Some(seat) = game.to_move() {
        let _ = black_box(game.step(seat, random_action(pick)));
        n += 1;
    }
    n
}

/// [`royale_steps`], writing each mover's prompt text into `buf` first.
#[inline(never)]
fn royale_steps_and_prompts(
    game: &mut Royale,
    pick: &mut Xoshiro256PlusPlus,
    buf: &mut String,
) -> u64 {
    let mut n = 0;
    while let Some(seat) = game.to_move() {
        buf.clear();
        write_prompt(game.board(), game.positions()[seat], buf);
        black_box(&buf);
        let _ = black_box(game.step(seat, random_action(pick)));
        n += 1;
    }
    n
}

/// Royale turns per second on `text`'s board with random actions: the
/// steps alone (setup is not timed), and the steps plus writing the
/// mover's prompt text into one reused buffer, as a referee would.
fn royale(name: &str, text: &str, games: u64) -> (Rate, Rate) {
    let board = Board::parse(text, name).expect("bundled board parses");
    let (mut step_secs, mut prompt_secs) = ((0.0, 0.0), (0.0, 0.0));
    let mut turns = 0u64;
    let mut buf = String::new();
    for seed in 0..games {
        for with_prompt in [false, true] {
            let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
            let mut game =
                Royale::new(board.clone(), teams, seed, Default::default()).expect("three players");
            let mut pick = Xoshiro256PlusPlus::seed_from_u64(seed);
            let timer = Timer::start();
            let n = if with_prompt {
                royale_steps_and_prompts(&mut game, &mut pick, &mut buf)
            } else {
                royale_steps(&mut game, &mut pick)
            };
            let (cpu, wall) = timer.secs();
            black_box(game.outcome());
            let total = if with_prompt {
                &mut prompt_secs
            } else {
                turns += n;
                &mut step_secs
            };
            total.0 += cpu;
            total.1 += wall;
        }
    }
    if COUNTS.load(Ordering::Relaxed) {
        eprintln!("{turns} royale turns on {name} (twice: steps, steps and prompts)");
    }
    let rate = |(cpu, wall): (f64, f64)| Rate {
        cpu: turns as f64 / cpu,
        wall: turns as f64 / wall,
    };
    (rate(step_secs), rate(prompt_secs))
}

fn royale_figures(reps: usize) -> Vec<Figure> {
    let large = include_str!("../../../boards/large.txt");
    let arena = include_str!("../../../boards/arena.txt");
    let (mut steps, mut prompts, mut arena_steps) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps {
        let (s, p) = royale("large.txt", large, 20);
        steps.push(s);
        prompts.push(p);
        arena_steps.push(royale("arena.txt", arena, 400).0);
    }
    let steps = median_rate(&steps);
    vec![
        rate_figure(
            "royale large.txt steps",
            "actions/s",
            steps,
            Against::AtLeast(20e6),
        ),
        rate_figure(
            "royale large.txt steps + prompt text in a reused buffer",
            "actions/s",
            median_rate(&prompts),
            Against::Baseline(steps.cpu, "steps alone"),
        ),
        rate_figure(
            "royale arena.txt steps",
            "actions/s",
            median_rate(&arena_steps),
            Against::Baseline(steps.cpu, "large.txt steps"),
        ),
    ]
}

/// Peak resident memory of this process so far (MiB), from /proc.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A royale game with random actions on a 1000x1000 board (columns of
/// rock, paper and scissors), each turn's prompt text written into a
/// reused buffer; run first so the process's peak memory is the game's.
fn royale_huge() -> Vec<Figure> {
    let before = peak_rss_mib().unwrap_or(0.0);
    let mut text = String::with_capacity(1001 * 1000);
    for _ in 0..1000 {
        for x in 0..1000 {
            text.push(['R', 'P', 'S'][x * 3 / 1000]);
        }
        text.push('\n');
    }
    let board = Board::parse(&text, "1000x1000").expect("generated board parses");
    drop(text);
    let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
    let mut game = Royale::new(board, teams, 1, Default::default()).expect("three players");
    let mut pick = rng::stream(1, 99);
    let mut buf = String::new();
    let mut turns = 0u64;
    while let Some(seat) = game.to_move() {
        buf.clear();
        write_prompt(game.board(), game.positions()[seat], &mut buf);
        black_box(&buf);
        let dir = Dir::ALL[pick.random_range(0..4usize)];
        let _ = game.step(seat, Action::Instigate(dir));
        turns += 1;
    }
    black_box(game.record());
    let peak = peak_rss_mib().unwrap_or(f64::NAN);
    println!(
        "royale 1000x1000: {turns} turns with prompts (process before the game: {before:.1} MiB)"
    );
    vec![Figure {
        name: "royale 1000x1000 game with prompts: peak RSS",
        unit: "MiB",
        value: peak,
        wall: None,
        against: Against::AtMost(50.0),
    }]
}

fn print(figures: &[Figure]) {
    println!(
        "{:<56} {:>12} {:>12} {:<9} {:>34} {:>6}  verdict",
        "figure", "per core", "wall clock", "unit", "goal or baseline (per core)", "ratio"
    );
    for f in figures {
        println!(
            "{:<56} {:>12} {:>12} {:<9} {:>34} {:>6.2}  {}",
            f.name,
            group(f.value),
            f.wall.map(group).unwrap_or_default(),
            f.unit,
            f.against_text(),
            f.ratio(),
            f.verdict()
        );
    }
}

fn json(figures: &[Figure]) -> String {
    let rows: Vec<String> = figures
        .iter()
        .map(|f| {
            let (kind, against, baseline) = match f.against {
                Against::AtLeast(g) => ("at_least", g, String::new()),
                Against::AtMost(g) => ("at_most", g, String::new()),
                Against::Baseline(b, what) => ("baseline", b, format!(", \"baseline\": {what:?}")),
            };
            let wall = f.wall.map(|w| format!(", \"wall\": {w}")).unwrap_or_default();
            format!(
                "  {{\"figure\": {:?}, \"unit\": {:?}, \"value\": {}{wall}, \"{kind}\": {against}, \"ratio\": {}, \"verdict\": {:?}{baseline}}}",
                f.name,
                f.unit,
                f.value,
                f.ratio(),
                f.verdict()
            )
        })
        .collect();
    format!("[\n{}\n]\n", rows.join(",\n"))
}

fn main() {
    let mut sections = Vec::new();
    let mut reps = 5usize;
    let mut json_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // cargo bench passes this to every bench binary.
            "--bench" => {}
            "--reps" => {
                reps = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| usage("--reps needs a positive number"));
            }
            "--json" => {
                json_path = Some(args.next().unwrap_or_else(|| usage("--json needs a file")));
            }
            "--counts" => COUNTS.store(true, Ordering::Relaxed),
            "huge" | "record" | "search" | "royale" => sections.push(arg),
            other => usage(&format!("unknown argument `{other}`")),
        }
    }
    let on = |s: &str| sections.is_empty() || sections.iter().any(|x| x == s);
    let mut figures = Vec::new();
    if on("huge") {
        figures.extend(royale_huge());
    }
    if on("record") || on("search") {
        figures.extend(cardjitsu_figures(reps, on("record"), on("search")));
    }
    if on("royale") {
        figures.extend(royale_figures(reps));
    }
    print(&figures);
    if let Some(path) = json_path
        && let Err(e) = std::fs::write(&path, json(&figures))
    {
        eprintln!("engine bench: cannot write {path}: {e}");
        std::process::exit(1);
    }
}

fn usage(why: &str) -> ! {
    eprintln!(
        "engine bench: {why}\nusage: cargo bench -p dojo-engine -- [huge|record|search|royale]... [--reps N] [--json FILE] [--counts]"
    );
    std::process::exit(2);
}

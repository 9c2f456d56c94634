//! Engine throughput: whole games per second with uniformly random moves.
//! Run with `just bench` (or `cargo bench -p dojo-engine`). Numbers only;
//! nothing here asserts a speed. Each figure is printed with the issue's
//! goal and the ratio to it; the record-keeping and the search paths run
//! interleaved, so their ratio is a same-run comparison.

use std::hint::black_box;
use std::time::Instant;

use dojo_engine::cardjitsu::{CardJitsu, Settings};
use dojo_engine::rng;
use dojo_engine::royale::{Action, Board, Dir, Royale, Team, write_prompt};
use rand::RngExt;

/// Rounds per second of the record-keeping path (what a referee plays).
fn cardjitsu(games: u64) -> f64 {
    let started = Instant::now();
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
    rounds as f64 / started.elapsed().as_secs_f64()
}

/// Rounds per second of a search: playouts of copies of a position with
/// recording off, as a bot that simulates would run them.
fn cardjitsu_search(roots: u64, playouts: u32) -> f64 {
    let started = Instant::now();
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
    rounds as f64 / started.elapsed().as_secs_f64()
}

/// Royale turns per second on `text`'s board with random actions: the
/// steps alone (setup is not timed), and the steps plus writing the
/// mover's prompt text into one reused buffer, as a referee would.
fn royale(name: &str, text: &str, games: u64) {
    let board = Board::parse(text, name).expect("bundled board parses");
    let (mut step_secs, mut prompt_secs) = (0.0, 0.0);
    let mut turns = 0u64;
    let mut buf = String::new();
    for seed in 0..games {
        for with_prompt in [false, true] {
            let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
            let mut game =
                Royale::new(board.clone(), teams, seed, Default::default()).expect("three players");
            let mut pick = rng::stream(seed, 99);
            let started = Instant::now();
            let mut n = 0u64;
            while let Some(seat) = game.to_move() {
                if with_prompt {
                    buf.clear();
                    write_prompt(game.board(), game.positions()[seat], &mut buf);
                    black_box(&buf);
                }
                let dir = Dir::ALL[pick.random_range(0..4usize)];
                let action = match pick.random_range(0..3u8) {
                    0 => Action::Pass,
                    1 => Action::Move(dir),
                    _ => Action::Instigate(dir),
                };
                let _ = game.step(seat, action);
                n += 1;
            }
            let secs = started.elapsed().as_secs_f64();
            black_box(game.outcome());
            if with_prompt {
                prompt_secs += secs;
            } else {
                step_secs += secs;
                turns += n;
            }
        }
    }
    println!(
        "royale {name}: {games} games, {turns} turns: {:>12.0} turns/s (goal 20,000,000 on large.txt), {:.0} turns/s writing each prompt into a reused buffer",
        turns as f64 / step_secs,
        turns as f64 / prompt_secs
    );
}

/// Peak resident memory of this process so far (MiB), from /proc.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A royale game with random actions on a 1000x1000 board (columns of
/// rock, paper and scissors), run first so the process's peak memory is
/// the game's.
fn royale_huge() {
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
        let dir = Dir::ALL[pick.random_range(0..4usize)];
        let _ = game.step(seat, Action::Instigate(dir));
        turns += 1;
    }
    black_box(game.record());
    println!(
        "royale 1000x1000: {turns} turns with prompts, peak memory {:.1} MiB (process before: {before:.1} MiB; goal < 50 MiB)",
        peak_rss_mib().unwrap_or(0.0)
    );
}

fn main() {
    royale_huge();
    let (mut record, mut search) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        record.push(cardjitsu(20_000));
        search.push(cardjitsu_search(20, 2_000));
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (record, search) = (median(record), median(search));
    println!(
        "cardjitsu, record kept:      {record:>12.0} rounds/s  goal 1,000,000 (ratio {:.2})",
        record / 1e6
    );
    println!(
        "cardjitsu, search playouts:  {search:>12.0} rounds/s  goal 5,000,000 (ratio {:.2}); {:.1}x the record path",
        search / 5e6,
        search / record
    );
    royale(
        "arena.txt",
        include_str!("../../../boards/arena.txt"),
        2_000,
    );
    royale("large.txt", include_str!("../../../boards/large.txt"), 20);
}

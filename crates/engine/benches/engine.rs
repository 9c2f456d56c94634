//! Engine throughput: whole games per second with uniformly random moves.
//! Run with `just bench` (or `cargo bench -p dojo-engine`). Numbers only;
//! nothing here asserts a speed.

use std::hint::black_box;
use std::time::Instant;

use dojo_engine::cardjitsu::{CardJitsu, Settings};
use dojo_engine::rng;
use dojo_engine::royale::{Action, Board, Dir, Royale, Team};
use rand::RngExt;

fn cardjitsu(games: u64) {
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
    let secs = started.elapsed().as_secs_f64();
    println!(
        "cardjitsu: {games} games, {rounds} rounds in {secs:.3} s: {:.0} games/s, {:.0} rounds/s",
        games as f64 / secs,
        rounds as f64 / secs
    );
}

fn royale(name: &str, text: &str, games: u64) {
    let board = Board::parse(text, name).expect("bundled board parses");
    let started = Instant::now();
    let mut turns = 0u64;
    for seed in 0..games {
        let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
        let mut game =
            Royale::new(board.clone(), teams, seed, Default::default()).expect("three players");
        let mut pick = rng::stream(seed, 99);
        while let Some(seat) = game.to_move() {
            let dir = Dir::ALL[pick.random_range(0..4usize)];
            let action = match pick.random_range(0..3u8) {
                0 => Action::Pass,
                1 => Action::Move(dir),
                _ => Action::Instigate(dir),
            };
            let _ = game.step(seat, action);
            turns += 1;
        }
        black_box(game.outcome());
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "royale {name}: {games} games, {turns} turns in {secs:.3} s: {:.0} turns/s",
        turns as f64 / secs
    );
}

fn main() {
    cardjitsu(20_000);
    royale(
        "arena.txt",
        include_str!("../../../boards/arena.txt"),
        2_000,
    );
    royale("large.txt", include_str!("../../../boards/large.txt"), 20);
}

//! Harness overhead: whole CardJitsu games between two real bot processes
//! (the persistent Python random bot from bots/faulty), so the cost per
//! round is the pipe round trip plus the bots' own time. Run with
//! `just bench` (or `cargo bench -p dojo-league`). Numbers only.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use dojo_games::{CardJitsuOptions, CardJitsuSetup, play_cardjitsu};
use dojo_runner::RunOptions;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bot = root.join("bots/faulty/random_ok.py");
    let spec = format!("ok=python3 {}", bot.display());
    let bot = Arc::new(dojo_runner::resolve(&spec, &root.join("bots")).expect("inline bot"));
    let opts = RunOptions::default();
    let games = 20u64;
    let started = Instant::now();
    let mut rounds = 0usize;
    // Round trips after each process's first answer (which includes
    // Python's start-up).
    let mut warm: Vec<u64> = Vec::new();
    for seed in 0..games {
        let setup = CardJitsuSetup::new(seed, CardJitsuOptions::default());
        let record = play_cardjitsu([bot.clone(), bot.clone()], &setup, &opts, &mut |_| {})
            .expect("game runs");
        rounds += record.play.rounds.len();
        for seat in &record.timing.latency_us {
            warm.extend(seat.iter().skip(1));
        }
    }
    let secs = started.elapsed().as_secs_f64();
    warm.sort_unstable();
    let pct = |p: f64| {
        warm.get(((warm.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "prompt-to-answer round trip with a warm Python bot: median {} us, p90 {} us, max {} us",
        pct(0.5),
        pct(0.9),
        pct(1.0)
    );
    println!(
        "cardjitsu with two Python bots: {games} games, {rounds} rounds in {secs:.2} s: {:.1} games/s, {:.0} us per round",
        games as f64 / secs,
        secs * 1e6 / rounds as f64
    );
}

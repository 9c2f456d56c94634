//! {{name}}: a CardJitsu bot in Rust. It plays a random card; make it
//! smarter in `choose`.
//!
//! The protocol (docs/protocols.md), one line per message on stdin:
//!   1. the player number, `1` or `2`;
//!   2. each round, the hand: cards separated by commas, `FyA,Fr6,WoA,Sg6,Wo5`
//!      (element F/W/S, colour r/b/g/y/o/p, number 2-9 or A=10, B=11, C=12).
//!      When Reverse is active (the previous round was won with a power card,
//!      numbered A) the line starts with a star, `* FyA,...` (or `*FyA,...`):
//!      the lower number then wins within an element. Answer with the index
//!      (0 for the first card) of the card to play, on a line of its own;
//!   3. after both players chose: `P1CARD vs. P2CARD: N wins!` (N = 0: a tie);
//!   4. at the end: `Player N wins!` or `Draw!`, then stdin is closed.
//!
//! A late, malformed or out-of-range answer plays a random card and counts
//! as a fault. stderr is yours for logging.

use std::io::{self, BufRead, Write};

/// xorshift64, seeded from DOJO_SEED (different per game and seat), so a
/// seeded match replays exactly.
struct Rng(u64);

impl Rng {
    fn from_env() -> Rng {
        let seed = std::env::var("DOJO_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(12345);
        Rng((seed ^ 0x9e37_79b9_7f4a_7c15).max(1))
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The index of the card to play from `hand` (cards such as `"FyA"`).
fn choose(hand: &[&str], _reverse: bool, rng: &mut Rng) -> usize {
    rng.below(hand.len())
}

fn main() -> io::Result<()> {
    let mut rng = Rng::from_env();
    let mut me: Option<u8> = None;
    // Rust's stdout sends a line at its newline; the flush after each
    // answer keeps it so should `out` ever become a buffered writer.
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let line = line.trim();
        if me.is_none() {
            me = line.parse().ok(); // our player number, 1 or 2
        } else if line.contains(',') {
            // A hand: the only line that wants an answer.
            let reverse = line.starts_with('*');
            let hand: Vec<&str> = line.trim_start_matches('*').trim().split(',').collect();
            writeln!(out, "{}", choose(&hand, reverse, &mut rng))?;
            out.flush()?;
        } else if line.starts_with("Player ") || line == "Draw!" {
            break; // the game is over
        }
        // Anything else is a round's result (`WoA vs. Fr6: 1 wins!`).
    }
    Ok(())
}

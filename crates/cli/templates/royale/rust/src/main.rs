//! {{name}}: a rock-paper-scissors royale bot in Rust. It plays a random
//! action that changes something; make it smarter in `choose`.
//!
//! The protocol (docs/protocols.md), on stdin, every turn:
//!   - the whole board, one line per row: `R`, `P`, `S` (a tile of that
//!     sign), `#` (a wall) and `.` (unclaimed);
//!   - an empty line;
//!   - our x, then our y, each on a line of its own (0-based, y grows
//!     downwards).
//!
//! Answer `P` (pass), or `M` (move) or `I` (instigate a fight with a
//! neighbouring tile) on one line and the direction `U`, `D`, `L` or `R` on
//! the next. A move or instigation off the board or into `#` is played as a
//! pass and recorded as illegal; a malformed answer is a pass and a fault.
//! After the last turn stdin is closed. Our team (`R`, `P` or `S`) is in
//! DOJO_TEAM; the other players' positions are not shown. stderr is yours
//! for logging.

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

const STEPS: [(char, i64, i64); 4] = [('U', 0, -1), ('D', 0, 1), ('L', -1, 0), ('R', 1, 0)];

/// The tile at (x, y), or `None` off the board.
fn tile(rows: &[Vec<u8>], x: i64, y: i64) -> Option<u8> {
    let row = rows.get(usize::try_from(y).ok()?)?;
    row.get(usize::try_from(x).ok()?).copied()
}

/// The answer's lines for a bot at (x, y).
fn choose(rows: &[Vec<u8>], x: i64, y: i64, _team: &str, rng: &mut Rng) -> String {
    let here = tile(rows, x, y);
    let mut fights = Vec::new();
    let mut moves = Vec::new();
    for (d, dx, dy) in STEPS {
        match tile(rows, x + dx, y + dy) {
            None | Some(b'#') => {} // off the board or a wall: illegal
            there => {
                moves.push(format!("M\n{d}"));
                if there != here {
                    // A fight between equal tiles changes nothing.
                    fights.push(format!("I\n{d}"));
                }
            }
        }
    }
    if !fights.is_empty() && rng.below(3) < 2 {
        fights.swap_remove(rng.below(fights.len()))
    } else if !moves.is_empty() {
        moves.swap_remove(rng.below(moves.len()))
    } else {
        "P".to_string()
    }
}

fn main() -> io::Result<()> {
    let mut rng = Rng::from_env();
    let team = std::env::var("DOJO_TEAM").unwrap_or_default();
    let mut lines = io::stdin().lock().lines();
    let mut out = io::stdout().lock();
    loop {
        // The board, up to the empty line; the game is over when stdin is.
        let mut rows = Vec::new();
        loop {
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line?;
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                break;
            }
            rows.push(line.as_bytes().to_vec());
        }
        let mut number = || -> io::Result<Option<i64>> {
            Ok(match lines.next() {
                Some(line) => line?.trim().parse().ok(),
                None => None,
            })
        };
        let (Some(x), Some(y)) = (number()?, number()?) else {
            return Ok(());
        };
        writeln!(out, "{}", choose(&rows, x, y, &team, &mut rng))?;
        // Rust's stdout sends a line at its newline; the flush keeps it so
        // should `out` ever become a buffered writer.
        out.flush()?;
    }
}

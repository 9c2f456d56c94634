//! Text renderings for people shared by every game: the league table and
//! the conduct lines of a record. Each game's own transcript (shown by
//! `dojo match` live and `dojo replay` from a record) lives with the
//! game's part of the command line, `crate::games::GAME::transcript`.

pub mod standings;

use dojo_games::{SeatConduct, SeatInfo};

/// One line per seat that had any fault, plus process-mode facts worth
/// knowing (a bot that was restarted per turn). Seats are numbered from 1
/// as players, like the transcript's header and its `P1`/`P2`.
pub fn conduct_lines(seats: &[SeatInfo], conduct: &[SeatConduct]) -> Vec<String> {
    seats
        .iter()
        .zip(conduct)
        .filter(|(_, c)| c.faults.total() > 0 || c.faults.restart > 0 || c.unsolicited > 0)
        .map(|(s, c)| {
            format!(
                "player {} ({}): {} timeout, {} crash, {} invalid, {} restart, {}",
                s.seat + 1,
                s.bot,
                c.faults.timeout,
                c.faults.crash,
                c.faults.invalid,
                c.faults.restart,
                count(u64::from(c.unsolicited), "unsolicited line")
            )
        })
        .collect()
}

/// `1 game`, `0 games`, `3 games`: a count with its noun in the right number.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

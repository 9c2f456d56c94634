//! The CardJitsu line protocol, over any reader and writer.
//!
//! Lines sensei understands: its player number (`1` or `2`); a hand
//! (`FyA,Fr6,WoA,Sg6,Wo5`, preceded by `* ` under Reverse; `*` alone is
//! read too), answered with one index line; a round result (`WoA vs. Fr6: 1 wins!`); and the end of a
//! game (`Player 1 wins!`, `Draw!`). Anything else is ignored. A hand that
//! cannot be read is answered with `0`, so the game goes on. Nothing here
//! needs history: a process started mid-game with only the player number
//! and a hand plays that hand with empty piles.

use std::io::{self, BufRead, Read, Write};

use dojo_engine::cardjitsu::Card;

use crate::strategy::{Sensei, Winner};

/// Longest line read; the rest of a longer line is skipped.
pub const MAX_LINE: usize = 4096;

/// One input line, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `1` or `2`: which player sensei is.
    Player(u8),
    /// A hand and whether Reverse is active; `None` if it could not be read.
    Hand(Option<Vec<Card>>, bool),
    /// Player 1's card, player 2's card, and the winner (0 for stalemate).
    Result(Card, Card, u8),
    /// `Player N wins!` or `Draw!`.
    GameOver,
    /// Anything else.
    Unknown,
}

/// Classifies one line (without its terminator).
pub fn parse_line(line: &str) -> Message {
    let text = line.trim();
    match text {
        "1" => return Message::Player(1),
        "2" => return Message::Player(2),
        "Draw!" => return Message::GameOver,
        _ => {}
    }
    if text.starts_with("Player ") && text.ends_with(" wins!") {
        return Message::GameOver;
    }
    if text.contains(" vs. ") {
        return parse_result(text).unwrap_or(Message::Unknown);
    }
    let (reverse, body) = match text.strip_prefix('*') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text),
    };
    if reverse || body.contains(',') {
        let cards: Result<Vec<Card>, _> = body.split(',').map(|c| c.trim().parse()).collect();
        return Message::Hand(cards.ok(), reverse);
    }
    // A one-card hand has no comma; anything else unrecognised is ignored.
    match body.parse::<Card>() {
        Ok(card) => Message::Hand(Some(vec![card]), false),
        Err(_) => Message::Unknown,
    }
}

/// Reads `P1CARD vs. P2CARD: N wins!`.
fn parse_result(text: &str) -> Option<Message> {
    let (first, rest) = text.split_once(" vs. ")?;
    let (second, rest) = rest.split_once(':')?;
    let winner = rest.trim().strip_suffix("wins!")?.trim();
    let winner: u8 = winner.parse().ok().filter(|&n| n <= 2)?;
    Some(Message::Result(
        first.trim().parse().ok()?,
        second.trim().parse().ok()?,
        winner,
    ))
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (terminator
/// removed, invalid UTF-8 replaced), skipping the rest of a longer line.
/// Returns `false` at the end of input.
fn read_line<R: BufRead>(input: &mut R, buf: &mut String) -> io::Result<bool> {
    let mut bytes = Vec::new();
    let n = Read::take(&mut *input, MAX_LINE as u64).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(false);
    }
    if bytes.last() != Some(&b'\n') && n == MAX_LINE {
        // Too long: drop the remainder of the line.
        loop {
            let chunk = input.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(p) => {
                    input.consume(p + 1);
                    break;
                }
                None => {
                    let len = chunk.len();
                    input.consume(len);
                }
            }
        }
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    buf.clear();
    buf.push_str(&String::from_utf8_lossy(&bytes));
    Ok(true)
}

/// Plays games on `input`/`output` until the input ends.
pub fn run<R: BufRead, W: Write>(mut input: R, mut output: W) -> io::Result<()> {
    let mut sensei = Sensei::default();
    // Player number (1 or 2); unknown until greeted.
    let mut me: Option<u8> = None;
    let mut line = String::new();
    while read_line(&mut input, &mut line)? {
        match parse_line(&line) {
            Message::Player(n) => me = Some(n),
            Message::Hand(Some(hand), reverse) => {
                let choice = sensei.choose(&hand, reverse);
                writeln!(output, "{choice}")?;
                output.flush()?;
            }
            Message::Hand(None, _) => {
                eprintln!("sensei: unreadable hand `{}`; playing 0", line.trim());
                writeln!(output, "0")?;
                output.flush()?;
            }
            Message::Result(first, second, winner) => {
                // Without the player number the cards cannot be told apart.
                if let Some(n) = me {
                    let (mine, theirs) = if n == 1 {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    let winner = match winner {
                        0 => Winner::Nobody,
                        w if w == n => Winner::Me,
                        _ => Winner::Opponent,
                    };
                    sensei.observe_result(mine, theirs, winner);
                }
            }
            Message::GameOver => sensei.reset(),
            Message::Unknown => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn classifies_lines() {
        assert_eq!(parse_line("2"), Message::Player(2));
        assert_eq!(parse_line("2\r"), Message::Player(2));
        assert_eq!(
            parse_line("*FyA,Wo5"),
            Message::Hand(Some(vec![card("FyA"), card("Wo5")]), true)
        );
        assert_eq!(
            parse_line("* FyA, Wo5"),
            Message::Hand(Some(vec![card("FyA"), card("Wo5")]), true)
        );
        assert_eq!(parse_line("FyA,Xx5"), Message::Hand(None, false));
        assert_eq!(parse_line("*"), Message::Hand(None, true));
        assert_eq!(
            parse_line("WoA vs. Fr6: 1 wins!"),
            Message::Result(card("WoA"), card("Fr6"), 1)
        );
        assert_eq!(
            parse_line("Fr6 vs. Fp6: 0 wins!"),
            Message::Result(card("Fr6"), card("Fp6"), 0)
        );
        assert_eq!(parse_line("WoA vs. Fr6: 7 wins!"), Message::Unknown);
        assert_eq!(parse_line("Player 2 wins!"), Message::GameOver);
        assert_eq!(parse_line("Draw!"), Message::GameOver);
        assert_eq!(parse_line("hello"), Message::Unknown);
        assert_eq!(parse_line("abc"), Message::Unknown);
        assert_eq!(
            parse_line("Sg7"),
            Message::Hand(Some(vec![card("Sg7")]), false)
        );
        assert_eq!(parse_line(""), Message::Unknown);
    }

    #[test]
    fn long_lines_are_cut_and_skipped() {
        let long = "x".repeat(3 * MAX_LINE + 5);
        let text = format!("{long}\n2\n");
        let mut input = text.as_bytes();
        let mut buf = String::new();
        assert!(read_line(&mut input, &mut buf).unwrap());
        assert_eq!(buf.len(), MAX_LINE);
        assert!(read_line(&mut input, &mut buf).unwrap());
        assert_eq!(buf, "2");
        assert!(!read_line(&mut input, &mut buf).unwrap());
    }
}

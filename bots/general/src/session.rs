//! The bot's conversation with the harness: read a turn (board rows, an
//! empty line, x, y), answer it, flush, repeat until end of input.
//!
//! Odd input never stops the loop: a turn that cannot be read (bad tile,
//! ragged rows, a bad coordinate, an over-long line) is answered `P`.

use std::io::{self, BufRead, Write};

use dojo_engine::royale::{Action, Team, parse_prompt};

use crate::strategy;

/// Longest line kept; longer lines are skipped and spoil their turn.
pub const MAX_LINE: usize = 1 << 20;
/// Most board rows kept per turn (a 4096-row board is far beyond any
/// real one); more rows spoil the turn.
pub const MAX_ROWS: usize = 4096;
/// At most this many diagnostics go to stderr in one run.
const MAX_DIAGNOSTICS: u32 = 5;

/// One line of input, at most [`MAX_LINE`] bytes kept.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Text(String),
    TooLong,
}

/// Reads one line (without its `\n` or `\r\n`), discarding bytes beyond
/// `cap`; `None` at end of input.
fn read_line_capped(input: &mut impl BufRead, cap: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = cap.saturating_sub(kept.len());
        if chunk.len() > room {
            too_long = true;
        }
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&kept).into_owned(),
    )))
}

/// One turn's raw text, or why it is unusable.
enum Turn {
    Text(String),
    Spoilt(&'static str),
}

/// Reads the next turn; `None` when input ends before a whole turn.
fn read_turn(input: &mut impl BufRead) -> io::Result<Option<Turn>> {
    let mut rows: Vec<String> = Vec::new();
    let mut spoilt = None;
    // Rows until the empty line; empty lines before the first row are
    // stray and skipped, so one extra blank line cannot desynchronise us.
    loop {
        match read_line_capped(input, MAX_LINE)? {
            None => return Ok(None),
            Some(Line::TooLong) => spoilt = Some("over-long line"),
            Some(Line::Text(t)) if t.trim().is_empty() => {
                if !rows.is_empty() || spoilt.is_some() {
                    break;
                }
            }
            Some(Line::Text(t)) => {
                if rows.len() < MAX_ROWS {
                    rows.push(t);
                } else {
                    spoilt = Some("too many rows");
                }
            }
        }
    }
    let mut coords = Vec::with_capacity(2);
    for _ in 0..2 {
        match read_line_capped(input, MAX_LINE)? {
            None => return Ok(None),
            Some(Line::TooLong) => spoilt = Some("over-long line"),
            Some(Line::Text(t)) => coords.push(t),
        }
    }
    if let Some(why) = spoilt {
        return Ok(Some(Turn::Spoilt(why)));
    }
    rows.push(String::new());
    rows.extend(coords);
    Ok(Some(Turn::Text(rows.join("\n"))))
}

/// Reads `DOJO_TEAM` (`R`, `P` or `S`, any case, surrounding spaces
/// ignored); `None` when absent or unreadable.
pub fn team_from_env(value: Option<&str>) -> Option<Team> {
    value?.trim().to_ascii_uppercase().parse().ok()
}

/// A bot's state across turns.
#[derive(Debug)]
pub struct Session {
    /// The team, once known (from the environment or the first turn).
    team: Option<Team>,
    diagnostics: u32,
}

impl Session {
    /// A session for `team`, or one that infers its team on its first
    /// readable turn when `team` is `None`.
    pub fn new(team: Option<Team>) -> Session {
        Session {
            team,
            diagnostics: 0,
        }
    }

    /// The answer to one turn's text.
    fn answer(&mut self, text: &str) -> Action {
        match parse_prompt(text, "stdin") {
            Ok((board, me)) => {
                let team = *self.team.get_or_insert_with(|| {
                    board.tile(me).and_then(|t| t.team()).unwrap_or(Team::Rock)
                });
                strategy::choose(&board, me, team)
            }
            Err(e) => {
                self.diagnose(&e.to_string());
                Action::Pass
            }
        }
    }

    fn diagnose(&mut self, what: &str) {
        if self.diagnostics < MAX_DIAGNOSTICS {
            self.diagnostics += 1;
            eprintln!("general: bad turn, passing: {what}");
        }
    }

    /// Plays turns from `input` until it ends, writing and flushing each
    /// answer to `output`.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        while let Some(turn) = read_turn(&mut input)? {
            let action = match turn {
                Turn::Text(text) => self.answer(&text),
                Turn::Spoilt(why) => {
                    self.diagnose(why);
                    Action::Pass
                }
            };
            for line in action.to_lines() {
                writeln!(output, "{line}")?;
            }
            output.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(input: &str, team: Option<Team>) -> (String, Option<Team>) {
        let mut out = Vec::new();
        let mut s = Session::new(team);
        s.run(input.as_bytes(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), s.team)
    }

    #[test]
    fn answers_every_turn_until_eof() {
        // Turn 1: rock at (4, 0) can claim (5, 0). Turn 2: walk right.
        let input = "RRRRR.\n\n4\n0\nRRRRR.\n\n0\n0\n";
        let (out, team) = play(input, Some(Team::Rock));
        assert_eq!(out, "I\nR\nM\nR\n");
        assert_eq!(team, Some(Team::Rock));
    }

    #[test]
    fn infers_team_from_the_first_tile_and_keeps_it() {
        // Starts on scissors: plays scissors, so it eats the paper.
        let input = "SP\n\n0\n0\nSP\n\n1\n0\n";
        let (out, team) = play(input, None);
        assert_eq!(team, Some(Team::Scissors));
        assert_eq!(out, "I\nR\nI\nL\n");
        // Unclaimed start: rock.
        let (_, team) = play("..R\n\n0\n0\n", None);
        assert_eq!(team, Some(Team::Rock));
    }

    #[test]
    fn malformed_turns_are_passed_and_play_goes_on() {
        let good = "RRRRR.\n\n4\n0\n";
        let input =
            format!("RRXRR.\n\n4\n0\n{good}RRR\nRR\n\n0\n0\n{good}RR\n\nx\n0\n{good}\n\n{good}");
        let (out, _) = play(&input, Some(Team::Rock));
        assert_eq!(out, "P\nI\nR\nP\nI\nR\nP\nI\nR\nI\nR\n");
    }

    #[test]
    fn over_long_lines_are_skipped() {
        let long = "R".repeat(MAX_LINE + 10);
        let input = format!("{long}\n\n0\n0\nR.\n\n0\n0\n");
        let (out, _) = play(&input, Some(Team::Rock));
        assert_eq!(out, "P\nI\nR\n");
    }

    #[test]
    fn crlf_and_a_truncated_last_turn() {
        let (out, _) = play("R.\r\n\r\n0\r\n0\r\nR.\n\n0\n", Some(Team::Rock));
        assert_eq!(out, "I\nR\n");
        let (out, _) = play("", None);
        assert_eq!(out, "");
    }

    #[test]
    fn capped_reader_keeps_short_lines_and_flags_long_ones() {
        let mut r = "abc\r\ndefgh\nij".as_bytes();
        assert_eq!(
            read_line_capped(&mut r, 4).unwrap(),
            Some(Line::Text("abc".into()))
        );
        assert_eq!(read_line_capped(&mut r, 4).unwrap(), Some(Line::TooLong));
        assert_eq!(
            read_line_capped(&mut r, 4).unwrap(),
            Some(Line::Text("ij".into()))
        );
        assert_eq!(read_line_capped(&mut r, 4).unwrap(), None);
    }

    #[test]
    fn team_from_env_values() {
        assert_eq!(team_from_env(Some("P")), Some(Team::Paper));
        assert_eq!(team_from_env(Some(" s\n")), Some(Team::Scissors));
        assert_eq!(team_from_env(Some("X")), None);
        assert_eq!(team_from_env(None), None);
    }
}

//! The seed-004 wire protocol, as a [`Referee`].
//!
//! - greeting: nothing.
//! - each turn, one prompt to the seat to play: the board, one line per
//!   row, an empty line, then the seat's x and y on two lines. Bots do not
//!   see other players' positions.
//! - reply: `P`; or `M` or `I` on one line and `U`, `D`, `L` or `R` on the
//!   next. Lines are trimmed; letters are upper case only.
//! - no notices, no farewell.

use super::board::{Board, BoardError, BoardProblem};
use super::game::Royale;
use super::types::{Action, Dir, Pos};
use crate::protocol::{Answer, Notice, Prompt, Referee, Reply};

/// The prompt lines for a player at `pos` on `board`.
pub fn prompt_lines(board: &Board, pos: Pos) -> Vec<String> {
    let mut lines = board.to_lines();
    lines.push(String::new());
    lines.push(pos.x.to_string());
    lines.push(pos.y.to_string());
    lines
}

/// Reads the reply lines received so far.
pub fn parse_reply_lines(lines: &[String]) -> Reply<Action> {
    let Some(first) = lines.first() else {
        return Reply::Incomplete;
    };
    let make: fn(Dir) -> Action = match first.trim() {
        "P" => return Reply::Complete(Action::Pass),
        "M" => Action::Move,
        "I" => Action::Instigate,
        other => {
            return Reply::Invalid(format!(
                "expected P, M or I on the first line, found {other:?}"
            ));
        }
    };
    let Some(second) = lines.get(1) else {
        return Reply::Incomplete;
    };
    let dir = second.trim();
    let mut chars = dir.chars();
    match (chars.next().and_then(Dir::from_letter), chars.next()) {
        (Some(d), None) => Reply::Complete(make(d)),
        _ => Reply::Invalid(format!(
            "expected U, D, L or R after {}, found {dir:?}",
            first.trim()
        )),
    }
}

/// Reads a prompt as a bot receives it (`text` is all its lines): the
/// board and the bot's own position. `name` names the source in errors.
pub fn parse_prompt(text: &str, name: &str) -> Result<(Board, Pos), BoardError> {
    let lines: Vec<&str> = text.lines().collect();
    let blank = lines
        .iter()
        .position(|l| l.trim().is_empty())
        .unwrap_or(lines.len());
    let board = Board::parse(&lines[..blank].join("\n"), name)?;
    let coord = |offset: usize| -> Result<usize, BoardError> {
        let no = blank + offset;
        let line = lines.get(no).copied().unwrap_or("");
        line.trim().parse().map_err(|_| BoardError {
            name: name.to_owned(),
            line: no + 1,
            column: 1,
            problem: BoardProblem::BadCoordinate(line.to_owned()),
        })
    };
    let pos = Pos::new(coord(1)?, coord(2)?);
    Ok((board, pos))
}

impl Referee for Royale {
    type Move = Action;

    fn seats(&self) -> usize {
        self.players()
    }

    fn greeting(&self, _seat: usize) -> Vec<String> {
        Vec::new()
    }

    fn prompts(&self) -> Vec<Prompt> {
        self.to_move()
            .map(|seat| Prompt {
                seat,
                lines: prompt_lines(self.board(), self.positions()[seat]),
            })
            .into_iter()
            .collect()
    }

    fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<Action> {
        parse_reply_lines(lines)
    }

    /// Plays the first answer for the seat to move; extra answers, or
    /// answers once the game is over, are ignored.
    fn apply(&mut self, answers: Vec<Answer<Action>>) -> Vec<Notice> {
        if let (Some(seat), Some(answer)) = (self.to_move(), answers.into_iter().next()) {
            // Neither call can fail: `seat` is the seat to move.
            let _ = match answer {
                Answer::Move(action) => self.step(seat, action),
                Answer::Fault(fault) => self.step_fault(seat, fault),
            };
        }
        Vec::new()
    }

    fn farewell(&self) -> Vec<String> {
        Vec::new()
    }
}

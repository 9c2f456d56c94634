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

/// Appends the prompt for a player at `pos` to `out` as the bot reads it
/// (the lines of [`prompt_lines`], each ending in `\n`): for a caller that
/// keeps one buffer for every turn.
pub fn write_prompt(board: &Board, pos: Pos, out: &mut String) {
    use std::fmt::Write;
    board.write_text(out);
    let _ = write!(out, "\n{}\n{}\n", pos.x, pos.y);
}

/// Reads the reply lines received so far.
pub fn parse_reply_lines(lines: &[String]) -> Reply<Action> {
    let Some(first) = lines.first() else {
        return Reply::Incomplete;
    };
    let make: fn(Dir) -> Action = match crate::cardjitsu::trim_answer(first) {
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
    let dir = crate::cardjitsu::trim_answer(second);
    let mut chars = dir.chars();
    match (chars.next().and_then(Dir::from_letter), chars.next()) {
        (Some(d), None) => Reply::Complete(make(d)),
        _ => Reply::Invalid(format!(
            "expected U, D, L or R after {}, found {dir:?}",
            crate::cardjitsu::trim_answer(first)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Fault;
    use crate::royale::{Settings, Team, TurnFault};

    fn lines(ls: &[&str]) -> Vec<String> {
        ls.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parse_reply_cases() {
        assert_eq!(parse_reply_lines(&[]), Reply::Incomplete);
        assert_eq!(
            parse_reply_lines(&lines(&["P"])),
            Reply::Complete(Action::Pass)
        );
        assert_eq!(
            parse_reply_lines(&lines(&[" P "])),
            Reply::Complete(Action::Pass)
        );
        assert_eq!(parse_reply_lines(&lines(&["M"])), Reply::Incomplete);
        assert_eq!(parse_reply_lines(&lines(&["I"])), Reply::Incomplete);
        for d in Dir::ALL {
            let l = d.to_string();
            assert_eq!(
                parse_reply_lines(&lines(&["M", &l])),
                Reply::Complete(Action::Move(d))
            );
            assert_eq!(
                parse_reply_lines(&lines(&["I", &l])),
                Reply::Complete(Action::Instigate(d))
            );
        }
        for bad in [
            &["X"][..],
            &["\u{a0}P"],
            &["P\t"],
            &["M", "\u{2003}U"],
            &["p"],
            &[""],
            &["PM"],
            &["M", "X"],
            &["I", "UL"],
            &["M", ""],
            &["m", "U"],
        ] {
            assert!(
                matches!(parse_reply_lines(&lines(bad)), Reply::Invalid(_)),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn prompt_is_board_blank_x_y_for_the_seat_to_move() {
        let text = "RRS\n.#P\n\nstart P 2 1\nstart R 1 0\n";
        let board = Board::parse(text, "t").unwrap();
        let g = Royale::new(board, vec![Team::Rock, Team::Paper], 4, Settings::default()).unwrap();
        assert_eq!(g.seats(), 2);
        assert!(g.greeting(0).is_empty());
        assert!(g.farewell().is_empty());
        let prompts = g.prompts();
        assert_eq!(prompts.len(), 1);
        let seat = g.turn_order()[0];
        assert_eq!(prompts[0].seat, seat);
        let want = if seat == 0 {
            ["RRS", ".#P", "", "1", "0"]
        } else {
            ["RRS", ".#P", "", "2", "1"]
        };
        assert_eq!(prompts[0].lines, want);
    }

    #[test]
    fn apply_plays_answers_and_faults_as_passes() {
        let board = Board::parse("R.S\n\nstart R 0 0\n", "t").unwrap();
        let mut g = Royale::new(board, vec![Team::Rock], 4, Settings::default()).unwrap();
        assert!(
            g.apply(vec![Answer::Move(Action::Instigate(Dir::R))])
                .is_empty()
        );
        assert_eq!(g.board().to_lines(), ["RRS"]);
        assert!(g.apply(vec![Answer::Fault(Fault::Invalid)]).is_empty());
        g.apply(vec![Answer::Fault(Fault::Timeout)]);
        g.apply(vec![]);
        let rec = g.record();
        assert_eq!(rec.actions.len(), 3);
        assert_eq!(
            (rec.actions[1].action, rec.actions[1].fault),
            (Action::Pass, Some(TurnFault::Invalid))
        );
        assert_eq!(rec.actions[2].fault, Some(TurnFault::Timeout));
        assert_eq!(g.faults(), [2]);
        assert_eq!(g.positions(), [Pos::new(0, 0)]);
    }

    #[test]
    fn prompts_stop_when_the_game_is_won() {
        let board = Board::parse("RS\n\nstart R 0 0\n", "t").unwrap();
        let mut g = Royale::new(board, vec![Team::Rock], 4, Settings::default()).unwrap();
        g.apply(vec![Answer::Move(Action::Instigate(Dir::R))]);
        assert!(g.prompts().is_empty());
        g.apply(vec![Answer::Move(Action::Pass)]);
        assert_eq!(g.record().actions.len(), 1);
    }

    #[test]
    fn bots_can_read_their_prompt() {
        let board = Board::parse("R.S\n#.P\n", "t").unwrap();
        let text = prompt_lines(&board, Pos::new(2, 1)).join("\n") + "\n";
        let (back, pos) = parse_prompt(&text, "stdin").unwrap();
        assert_eq!((back, pos), (board, Pos::new(2, 1)));
        let e = parse_prompt("R.\n\n3\n", "stdin").unwrap_err();
        assert_eq!(
            (e.line, e.problem),
            (4, BoardProblem::BadCoordinate(String::new()))
        );
        let e = parse_prompt("R.\n\nx\n1\n", "stdin").unwrap_err();
        assert_eq!(e.line, 3);
    }

    #[test]
    fn written_prompt_is_the_prompt_lines() {
        let board = Board::parse("RP.\n#S.\n", "t").unwrap();
        let pos = Pos::new(2, 1);
        let mut out = String::from("old");
        out.clear();
        write_prompt(&board, pos, &mut out);
        let mut lines = prompt_lines(&board, pos).join("\n");
        lines.push('\n');
        assert_eq!(out, lines);
        let capacity = out.capacity();
        out.clear();
        write_prompt(&board, pos, &mut out);
        assert_eq!(out.capacity(), capacity, "the buffer is reused");
    }
}

//! A saved royale game again: checking it on load, the setup that plays it again (the recorded board file
//! when it still holds the recorded grid, else the grid stored in the
//! record, [`rerun_board`]), and where a rerun parts from it (the first
//! differing turn).

use std::sync::Arc;

use dojo_engine::royale::{self, Board, Team};
use dojo_runner::{BotSpec, RunOptions};

use super::{RoyaleRecord, RoyaleSetup, play_royale};
use crate::game::Game;
use crate::record::SeatInfo;
use crate::registry::{ReplayView, Saved, same_record};
use crate::replay::{Difference, ReplayError, Rerun, SavedGame, check_seats, difference};
use crate::view::RecordSource;

/// Everything shown or replayed from a royale record follows from it: one
/// seat per player, with the player's team, and turns that agree with the
/// rules.
pub fn check(rec: &RoyaleRecord) -> Result<(), String> {
    let players = rec.play.players.len();
    check_seats(&rec.seats, rec.conduct.len(), rec.stderr.len(), players)?;
    for (seat, player) in rec.seats.iter().zip(&rec.play.players) {
        if let Some(t) = &seat.team
            && *t != super::role(player.team)
        {
            return Err(format!(
                "seat {} is on two teams ({t} and {})",
                seat.seat, player.team
            ));
        }
    }
    royale::verify_record(&rec.play).map_err(|c| c.to_string())
}

/// What royale's replay finds wrong with a record beyond its shape (a
/// [`ReplayError::Game`]).
#[derive(Debug, thiserror::Error)]
pub enum RoyaleReplayError {
    /// A seat without a team.
    #[error("the record has no team for seat {0}")]
    NoTeam(usize),
}

/// Each seat's team (in seat order) as the record gives it.
pub fn seat_teams(rec: &RoyaleRecord) -> Result<Vec<Team>, ReplayError> {
    (0..rec.seats.len())
        .map(|seat| {
            rec.play
                .players
                .iter()
                .find(|p| p.seat == seat)
                .map(|p| p.team)
                .ok_or(ReplayError::game(RoyaleReplayError::NoTeam(seat)))
        })
        .collect()
}

/// Where [`rerun_board`] took the board from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardSource {
    /// The recorded board file, which still holds the recorded grid.
    File,
    /// The grid stored in the record; `file_changed` when the recorded
    /// file exists but no longer holds that grid (and its `start` lines
    /// are therefore not used).
    Record { file_changed: bool },
}

/// The board to play a royale rerun on: the recorded file if it still
/// holds the recorded grid (its `start` lines matter), else the recorded
/// grid with every seat's recorded start tile fixed (`start` lines of our
/// own), so the rerun starts where the game did even without the file.
pub fn rerun_board(rec: &RoyaleRecord) -> Result<(Board, BoardSource), ReplayError> {
    let mut file_changed = false;
    if let Ok(text) = dojo_runner::input::read_text_capped(
        std::path::Path::new(&rec.board_file),
        dojo_runner::input::BOARD_CAP,
        "a board",
    ) {
        if let Ok(board) = Board::parse(&text, &rec.board_file)
            && board.to_lines() == rec.play.board
        {
            return Ok((board, BoardSource::File));
        }
        file_changed = true;
    }
    let mut text = rec.play.board.join("\n");
    text.push_str("\n\n");
    for p in &rec.play.players {
        text.push_str(&format!("start {} {} {}\n", p.team, p.start.x, p.start.y));
    }
    let board = Board::parse(&text, "the record's board").map_err(ReplayError::game)?;
    Ok((board, BoardSource::Record { file_changed }))
}

/// The record's game made ready to play again: each seat's team, the
/// board of [`rerun_board`] (with a note when the recorded file has
/// changed), the record's seed and limits. The seats' bots in seat order
/// (resolved and built) play it.
pub fn rerun(rec: &RoyaleRecord) -> Result<Rerun, ReplayError> {
    let teams = seat_teams(rec)?;
    let (board, source) = rerun_board(rec)?;
    let mut notes = Vec::new();
    if source == (BoardSource::Record { file_changed: true }) {
        notes.push(format!(
            "{} no longer holds the recorded board; using the board stored in the record",
            rec.board_file
        ));
    }
    let setup = RoyaleSetup {
        seed: rec.play.seed,
        board,
        board_file: rec.board_file.clone(),
        settings: royale::Settings {
            max_rounds: Some(rec.play.settings.max_rounds),
            stall_rounds: Some(rec.play.settings.stall_rounds),
        },
    };
    Ok(Rerun::new(
        notes,
        move |bots: Vec<Arc<BotSpec>>, opts: &RunOptions| {
            let players: Vec<(Arc<BotSpec>, Team)> = bots.into_iter().zip(teams).collect();
            let rec =
                play_royale(&players, &setup, opts, &mut |_| {}).map_err(ReplayError::game)?;
            Ok(Saved::new(Box::new(rec)))
        },
    ))
}

/// The 0-based index of the first turn where two royale records part.
pub fn first_difference(saved: &RoyaleRecord, rerun: &RoyaleRecord) -> Option<usize> {
    crate::replay::first_differing(&saved.play.actions, &rerun.play.actions)
}

/// How a royale rerun differs from the saved game; `None` when it is the
/// same game (timing and stderr aside).
pub fn compare(
    saved: &RoyaleRecord,
    rerun: &RoyaleRecord,
) -> Result<Option<Difference>, ReplayError> {
    difference(saved, rerun, first_difference(saved, rerun))
}

impl SavedGame for RoyaleRecord {
    fn game(&self) -> Game {
        Game::ROYALE
    }

    fn compare(&self, rerun: &dyn SavedGame) -> Result<Option<Difference>, ReplayError> {
        compare(self, same_record(self, rerun)?)
    }

    fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    fn check(&self) -> Result<(), String> {
        check(self)
    }

    fn title(&self) -> String {
        super::view::title(self)
    }

    fn view(&self, source: &RecordSource, bots: &[String]) -> Result<ReplayView, ReplayError> {
        ReplayView::new(&super::view::view(self, source, bots)?)
    }

    fn moment(&self) -> &'static str {
        "turn"
    }

    fn answers(&self, step: usize) -> Vec<(usize, String)> {
        use dojo_engine::royale::TurnFault;
        let Some(a) = self.play.actions.get(step) else {
            return Vec::new();
        };
        let words = match a.fault {
            // A runner fault records a pass that the bot did not write.
            Some(TurnFault::Timeout) => "a timeout (played as a pass)".to_owned(),
            Some(TurnFault::Crash) => "a crash (played as a pass)".to_owned(),
            Some(TurnFault::Invalid) => "an invalid answer (played as a pass)".to_owned(),
            Some(TurnFault::Illegal) => {
                format!("`{}` (an illegal move, played as a pass)", a.action)
            }
            None => format!("`{}`", a.action),
        };
        vec![(a.seat, words)]
    }

    fn rerun(&self) -> Result<Rerun, ReplayError> {
        rerun(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use dojo_engine::royale::{Action, Dir, Effect, Royale};

    use super::*;
    use crate::formats::RECORD_VERSION;
    use crate::replay::test_seats;

    /// A few turns of royale on the seed's example board, and the game.
    pub(crate) fn record() -> (RoyaleRecord, Royale) {
        let text = include_str!("../../../../boards/seed-example.txt");
        let board = Board::parse(text, "seed-example").unwrap();
        let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
        let mut game = Royale::new(board, teams, 7, royale::Settings::default()).unwrap();
        let tries = [
            Action::Instigate(Dir::R),
            Action::Move(Dir::D),
            Action::Instigate(Dir::U),
            Action::Move(Dir::L),
        ];
        for turn in 0..24 {
            let Some(seat) = game.to_move() else { break };
            let step = game.step(seat, tries[turn % tries.len()]);
            if step.is_err() {
                game.step(seat, Action::Pass).unwrap();
            }
        }
        let (seats, conduct) = test_seats(3);
        let rec = RoyaleRecord {
            version: RECORD_VERSION,
            game: "royale".into(),
            seats,
            board_file: "boards/seed-example.txt".into(),
            play: game.record(),
            conduct,
            stderr: Vec::new(),
            timing: Default::default(),
        };
        (rec, game)
    }

    #[test]
    fn rerun_board_falls_back_to_the_recorded_grid() {
        let (mut rec, _) = record();
        rec.board_file = "no/such/board.txt".into();
        let (board, source) = rerun_board(&rec).unwrap();
        assert_eq!(
            source,
            BoardSource::Record {
                file_changed: false
            }
        );
        assert_eq!(board.to_lines(), rec.play.board);
        assert!(rerun(&rec).unwrap().notes.is_empty());
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("board.txt");
        std::fs::write(&other, "RP\nSR\n").unwrap();
        rec.board_file = other.display().to_string();
        let (_, source) = rerun_board(&rec).unwrap();
        assert_eq!(source, BoardSource::Record { file_changed: true });
        let notes = rerun(&rec).unwrap().notes;
        assert!(
            notes[0].ends_with(
                "no longer holds the recorded board; using the board stored in the record"
            ),
            "{notes:?}"
        );
    }

    #[test]
    fn royale_comparison_finds_the_first_turn() {
        let (saved, _) = record();
        let mut rerun = saved.clone();
        rerun.play.actions[3].effect = Effect::None;
        assert_eq!(first_difference(&saved, &rerun), Some(3));
        assert_eq!(first_difference(&saved, &saved), None);
        assert_eq!(compare(&saved, &rerun).unwrap(), Some(Difference::At(3)));
    }
}

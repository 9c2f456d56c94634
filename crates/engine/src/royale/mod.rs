//! Rock-paper-scissors royale: three teams fill a grid with
//! their hand sign by moving and instigating fights between tiles.
//!
//! Rules as implemented:
//! - Board: `R`, `P`, `S`, `#` (impassable), `.` (unclaimed); `(x, y)` is
//!   (column, row), 0-based, `y` growing downwards. See [`Board`] for the
//!   file format (grid plus an optional `start` section).
//! - Each player starts on a tile of its own sign, or any passable tile if
//!   there is none (or where the board file fixes it); seats then play in a
//!   fixed random order every round. See `game` for the seeded draws.
//! - A turn is a pass, a move to an orthogonal passable neighbour, or an
//!   instigation against one: of the two tiles (own and target) the
//!   unclaimed one or the one beaten at rock-paper-scissors becomes the
//!   other ([`Tile::fight`]); the player's own tile may lose.
//! - A move or instigation off the board or into a wall is played as a
//!   pass and recorded as [`TurnFault::Illegal`]; bot faults are passes too.
//! - Win: after an action, exactly one sign left on the board. A board
//!   that starts with one sign is won before any turn
//!   ([`EndReason::AlreadyWon`]); one with no sign is a draw before any turn
//!   ([`EndReason::NoSigns`]), since no sign can ever appear.
//! - Draw: after `max_rounds` rounds, or `stall_rounds` whole rounds in a
//!   row without a tile changing (see [`Settings`]: by default long enough
//!   for any walk to the last tile a player must fight).

mod board;
mod game;
mod record;
mod types;
mod wire;

pub use board::{Board, BoardError, BoardProblem, FixedStart, TileCounts};
pub use game::{Royale, Settings, SetupError, StepError, verify_record};
pub use record::{
    ActionRecord, Effect, EndReason, GameRecord, Outcome, PlayerRecord, ResolvedSettings, TurnFault,
};
pub use types::{Action, BadAction, BadTeam, BadTileChar, Dir, Pos, Team, Tile};
pub use wire::{parse_prompt, parse_reply_lines, prompt_lines, write_prompt};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Referee;

    macro_rules! board_file {
        ($name:literal) => {
            (
                $name,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../boards/", $name)),
            )
        };
    }

    const BOARDS: [(&str, &str); 6] = [
        board_file!("seed-example.txt"),
        board_file!("arena.txt"),
        board_file!("maze.txt"),
        board_file!("large.txt"),
        board_file!("frontier.txt"),
        board_file!("won.txt"),
    ];

    fn board(name: &str) -> Board {
        let (_, text) = BOARDS.iter().find(|(n, _)| *n == name).unwrap();
        Board::parse(text, name).unwrap()
    }

    #[test]
    fn every_board_file_parses_and_sets_up() {
        for (name, text) in BOARDS {
            let b = Board::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
            let g = Royale::new(b, Team::ALL.to_vec(), 1, Settings::default()).unwrap();
            assert_eq!(g.is_over(), name == "won.txt", "{name}");
        }
    }

    #[test]
    fn board_files_have_their_documented_shape() {
        let seed = board("seed-example.txt");
        assert_eq!((seed.width(), seed.height()), (17, 6));
        let large = board("large.txt");
        assert!(large.width() >= 100 && large.height() >= 60);
        assert_eq!(board("frontier.txt").starts().len(), 3);
        let won = Royale::new(board("won.txt"), vec![Team::Rock], 0, Settings::default()).unwrap();
        assert_eq!(
            won.outcome().map(|o| (o.winner, o.reason)),
            Some((Some(Team::Paper), EndReason::AlreadyWon))
        );
        assert!(won.prompts().is_empty());
        let maze = board("maze.txt");
        assert!(maze.counts().wall > maze.counts().empty);
    }

    #[test]
    fn seed_example_prompt_matches_the_seed() {
        // The seed shows a player at (8, 1), a scissors tile.
        let b = board("seed-example.txt");
        assert_eq!(b.get(8, 1), Some(Tile::Scissors));
        let want = "RRRRRRRRRRRSSSSSS\nRRRRRRRRSSSSSSSSS\nRRRRR########SSSS\nRR....######SSPPP\nRRRR....PPPPPPPPP\nRRRRRRRRRRRRRPPPP\n\n8\n1";
        assert_eq!(prompt_lines(&b, Pos::new(8, 1)).join("\n"), want);
    }
}

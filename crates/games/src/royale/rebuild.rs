//! A royale board rebuilt turn by turn from a record's effects, and where
//! each turn's stderr is kept: what the replay page and the terminal's
//! transcript draw.

use std::collections::HashMap;

use dojo_engine::royale::{ActionRecord, Board, Effect, Pos};

use super::RoyaleRecord;
use crate::replay::ReplayError;

/// A royale board being rebuilt from a record: the initial grid and start
/// tiles, then each action's recorded effect.
#[derive(Debug, Clone)]
pub struct RoyaleReplay {
    pub board: Board,
    /// Each seat's position.
    pub positions: Vec<Pos>,
}

impl RoyaleReplay {
    /// The board before any turn.
    pub fn new(rec: &RoyaleRecord) -> Result<RoyaleReplay, ReplayError> {
        let board = Board::parse(&rec.play.board.join("\n"), "the record's board")
            .map_err(ReplayError::game)?;
        let mut positions = vec![Pos::new(0, 0); rec.play.players.len()];
        for p in &rec.play.players {
            if let Some(slot) = positions.get_mut(p.seat) {
                *slot = p.start;
            }
        }
        Ok(RoyaleReplay { board, positions })
    }

    /// Applies one turn's effect.
    pub fn apply(&mut self, action: &ActionRecord) {
        match action.effect {
            Effect::None => {}
            Effect::Moved { at } => {
                if let Some(p) = self.positions.get_mut(action.seat) {
                    *p = at;
                }
            }
            Effect::Converted { at, to, .. } => {
                self.board.set(at, to);
            }
        }
    }
}

/// For each turn, the index of its seat's prompt (its how-manieth turn),
/// which is where that seat's stderr for the turn is kept.
pub fn prompt_indices(actions: &[ActionRecord]) -> Vec<usize> {
    let mut seen: HashMap<usize, usize> = HashMap::new();
    actions
        .iter()
        .map(|a| {
            let n = seen.entry(a.seat).or_insert(0);
            *n += 1;
            *n - 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::royale::replay::tests::record;

    #[test]
    fn royale_replay_reaches_the_engines_board() {
        let (rec, game) = record();
        assert!(rec.play.actions.len() > 6);
        let mut state = RoyaleReplay::new(&rec).unwrap();
        for action in &rec.play.actions {
            state.apply(action);
        }
        assert_eq!(state.board.to_lines(), game.board().to_lines());
        assert_eq!(state.positions, game.positions());
    }

    #[test]
    fn prompt_indices_count_each_seats_turns() {
        let (rec, _) = record();
        let indices = prompt_indices(&rec.play.actions);
        let seats = rec.play.players.len();
        for (i, a) in rec.play.actions.iter().enumerate() {
            let before = rec.play.actions[..i].iter().filter(|b| b.seat == a.seat);
            assert_eq!(indices[i], before.count());
        }
        assert_eq!(indices[..seats].iter().sum::<usize>(), 0);
    }
}

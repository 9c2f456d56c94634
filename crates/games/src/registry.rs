//! What replay holds of a saved game: [`Saved`], one variant per shipped
//! game holding its typed record, and [`ReplayView`], its page's data.
//! Every other per-game decision is the game's [`crate::game::GameDef`]
//! (listed in [`Game::ALL`]); these two stay enums because replay compares
//! two typed records of one game and the CLI renders each game's own.

use std::ops::Deref;

use serde::Serialize;

use crate::cardjitsu::CardJitsuRecord;
use crate::cardjitsu::view::CardJitsuView;
use crate::game::Game;
use crate::replay::{Difference, ReplayError, SavedGame};
use crate::royale::RoyaleRecord;
use crate::royale::view::RoyaleView;

/// A saved game: one variant per game, holding the game's typed record.
/// What replay does with it is the record's [`SavedGame`] impl (in the
/// game's module), reached through `Deref`.
#[derive(Debug)]
pub enum Saved {
    CardJitsu(Box<CardJitsuRecord>),
    Royale(Box<RoyaleRecord>),
}

impl Deref for Saved {
    type Target = dyn SavedGame;

    fn deref(&self) -> &(dyn SavedGame + 'static) {
        match self {
            Saved::CardJitsu(rec) => rec.as_ref(),
            Saved::Royale(rec) => rec.as_ref(),
        }
    }
}

impl Saved {
    /// Which game it is.
    pub fn game(&self) -> Game {
        match self {
            Saved::CardJitsu(_) => Game::CARDJITSU,
            Saved::Royale(_) => Game::ROYALE,
        }
    }

    /// How `rerun` (this game played again) differs from it; `None` when
    /// it is the same game (timing and stderr aside).
    pub fn compare(&self, rerun: &Saved) -> Result<Option<Difference>, ReplayError> {
        let other = || ReplayError::OtherGame {
            saved: self.game(),
            rerun: rerun.game(),
        };
        // Exhaustive on the saved game (a new game needs its arm); only the
        // rerun's mismatch is a wildcard.
        match self {
            Saved::CardJitsu(a) => match rerun {
                Saved::CardJitsu(b) => crate::cardjitsu::replay::compare(a, b),
                _ => Err(other()),
            },
            Saved::Royale(a) => match rerun {
                Saved::Royale(b) => crate::royale::replay::compare(a, b),
                _ => Err(other()),
            },
        }
    }
}

/// What a replay page shows: the record and what its game's view derives
/// from it. Serialised as the game's view itself.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ReplayView<'a> {
    CardJitsu(CardJitsuView<'a>),
    Royale(RoyaleView<'a>),
}

/// Why [`GameDef::parse_record`] refused a record: not a record of the
/// game named `kind` (as messages name it).
#[derive(Debug)]
pub struct NotARecord {
    pub kind: &'static str,
    pub source: serde_json::Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_is_its_games_and_compares_only_with_its_own() {
        let cj = Saved::CardJitsu(Box::new(crate::cardjitsu::replay::tests::record(3)));
        let (royale, _) = crate::royale::replay::tests::record();
        let royale = Saved::Royale(Box::new(royale));
        assert_eq!(cj.game(), Game::CARDJITSU);
        assert_eq!(royale.game(), Game::ROYALE);
        assert_eq!(cj.seats().len(), 2);
        assert_eq!(royale.seats().len(), 3);
        assert!(cj.check().is_ok() && royale.check().is_ok());
        assert_eq!(cj.compare(&cj).unwrap(), None);
        assert!(matches!(
            cj.compare(&royale),
            Err(ReplayError::OtherGame {
                saved,
                rerun
            }) if saved == Game::CARDJITSU && rerun == Game::ROYALE
        ));
    }
}

//! Checking a game record against the rules: a record read from a file may
//! have been edited or damaged, and everything shown from it (transcripts,
//! replays, league results) must follow from the rules, not from whatever
//! the file says.

use thiserror::Error;

/// The first place where a record contradicts the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{at}: {what}")]
pub struct Contradiction {
    /// Where: `round 3`, `turn 17`, `the outcome`, `the players`.
    pub at: String,
    /// What the record says and what the rules give instead.
    pub what: String,
}

impl Contradiction {
    pub(crate) fn new(at: impl Into<String>, what: impl Into<String>) -> Contradiction {
        Contradiction {
            at: at.into(),
            what: what.into(),
        }
    }
}

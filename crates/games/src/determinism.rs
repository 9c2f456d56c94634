//! Whether bots are deterministic, the one definition `dojo check` and
//! `dojo compare` share: a game played again with the same bots, seats,
//! seed and settings must leave the same record, timing and stderr aside
//! ([`Saved::compare`], what `dojo replay --rerun` decides by). A rerun
//! that differs is told as a [`Parting`]: the step where the two plays
//! part and what each seat that answered differently there answered the
//! first time and the second, in words a reader follows (not a transcript
//! line or the record's JSON).

use dojo_engine::protocol::Fault;
use serde::{Deserialize, Serialize};

use crate::registry::Saved;
use crate::replay::{Difference, ReplayError};

/// Where a game played again parted from its first play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parting {
    /// What a step of the game is called: `round`, `turn`.
    pub moment: String,
    /// The first step (1-based) where the plays part; absent when every
    /// move was the same and only other fields differ (`fields`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The seats that answered differently at `step`, in seat order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<SeatAnswers>,
    /// Without a `step`: the record's fields that differ.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
}

/// What one seat answered at the step where two plays part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatAnswers {
    /// 0-based seat.
    pub seat: usize,
    /// Its answer in the first play, in words.
    pub first: String,
    /// Its answer when played again, in words.
    pub second: String,
}

/// How `rerun`, `saved` played again, parted from it; `None` when it is
/// the same game: every bot in it played deterministically.
pub fn parting(saved: &Saved, rerun: &Saved) -> Result<Option<Parting>, ReplayError> {
    let moment = saved.moment().to_owned();
    Ok(saved.compare(rerun)?.map(|difference| match difference {
        Difference::At(step) => {
            let (first, second) = (saved.answers(step), rerun.answers(step));
            let mut seats: Vec<usize> = first.iter().chain(&second).map(|(s, _)| *s).collect();
            seats.sort_unstable();
            seats.dedup();
            let of = |answers: &[(usize, String)], seat: usize| {
                answers.iter().find(|(s, _)| *s == seat).map_or_else(
                    || "nothing (the game had ended)".to_owned(),
                    |(_, w)| w.clone(),
                )
            };
            let answers = seats
                .into_iter()
                .map(|seat| SeatAnswers {
                    seat,
                    first: of(&first, seat),
                    second: of(&second, seat),
                })
                .filter(|a| a.first != a.second)
                .collect();
            Parting {
                moment,
                step: Some(step + 1),
                answers,
                fields: Vec::new(),
            }
        }
        Difference::Fields(fields) => Parting {
            moment,
            step: None,
            answers: Vec::new(),
            fields: fields.into_iter().map(|f| f.field).collect(),
        },
    }))
}

impl Parting {
    /// The seats that answered differently.
    pub fn seats(&self) -> Vec<usize> {
        self.answers.iter().map(|a| a.seat).collect()
    }

    /// The parting in words, each seat named by `name`: `at round 3,
    /// seat 1 (mine) answered `2` (the card Fy2) the first time and `0`
    /// (the card Sb5) the second`.
    pub fn words(&self, name: impl Fn(usize) -> String) -> String {
        let Some(step) = self.step else {
            return format!(
                "every move was the same, but the record's {} differed",
                self.fields.join(", ")
            );
        };
        if self.answers.is_empty() {
            // The answers read the same in words; the step itself did not
            // (a fault's kind, or what followed from it).
            return format!("at {} {step} the game went differently", self.moment);
        }
        let each: Vec<String> = self
            .answers
            .iter()
            .map(|a| {
                format!(
                    "{} answered {} the first time and {} the second",
                    name(a.seat),
                    a.first,
                    a.second
                )
            })
            .collect();
        format!("at {} {step}, {}", self.moment, each.join("; "))
    }
}

/// A runner fault in place of an answer, in words.
pub(crate) fn fault_words(fault: Fault) -> &'static str {
    match fault {
        Fault::Timeout => "a timeout",
        Fault::Crash => "a crash",
        Fault::Invalid => "an invalid answer",
    }
}

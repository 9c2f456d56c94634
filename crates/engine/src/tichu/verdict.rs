//! Whether a play may follow the previous play, and which rule it breaks
//! if not.

use std::fmt;

use thiserror::Error;

use super::card::{Card, Play};
use super::combination::{Combination, Kind, readings};

/// A rule about the dragon, phoenix or dog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialRule {
    /// The dragon is played only alone, as a single.
    DragonAlone,
    /// The dog is played only alone.
    DogAlone,
    /// The dog is played only on lead.
    DogOnlyOnLead,
    /// The phoenix single beats any single but the dragon.
    PhoenixOnDragon,
    /// The phoenix is no wildcard in a bomb.
    PhoenixInBomb,
}

impl fmt::Display for SpecialRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecialRule::DragonAlone => "the dragon is only played alone, as a single",
            SpecialRule::DogAlone => "the dog is only played alone",
            SpecialRule::DogOnlyOnLead => "the dog is only played on lead",
            SpecialRule::PhoenixOnDragon => "the phoenix beats any single but the dragon",
            SpecialRule::PhoenixInBomb => "the phoenix is no wildcard in a bomb",
        })
    }
}

/// Which rule an illegal play breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    /// The cards form no combination (or there are none).
    NotACombination,
    /// A different kind from the previous play, and not a bomb.
    TypeMismatch {
        /// The previous play's kind.
        previous: Kind,
        /// The play's kind.
        play: Kind,
    },
    /// A straight or tractor of a different length.
    LengthMismatch {
        /// The previous play's number of cards.
        previous: usize,
        /// The play's number of cards.
        play: usize,
    },
    /// The same kind and length, but not strictly higher.
    NotHigher {
        /// The previous play.
        previous: Combination,
        /// The play's highest reading.
        play: Combination,
    },
    /// A rule of the dragon, phoenix or dog.
    Special(SpecialRule),
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NotACombination => f.write_str(
                "not a combination: the cards are no single, pair, triple, full house, \
                 straight (5 or more), tractor (2 or more pairs) or bomb",
            ),
            Violation::TypeMismatch {
                previous: Kind::Bomb,
                play,
            } => write!(
                f,
                "type mismatch: a {play} cannot be played on a bomb (only a higher bomb can)"
            ),
            Violation::TypeMismatch { previous, play } => {
                write!(
                    f,
                    "type mismatch: a {play} cannot be played on a {previous}"
                )
            }
            Violation::LengthMismatch { previous, play } => write!(
                f,
                "length mismatch: {play} cards cannot be played on {previous} cards"
            ),
            Violation::NotHigher { previous, play } => {
                write!(f, "not higher: {play} does not beat {previous}")
            }
            Violation::Special(rule) => write!(f, "special-card rule: {rule}"),
        }
    }
}

/// Whether a play is legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Legal.
    Legal {
        /// The reading that makes it legal (the highest one on lead).
        play: Combination,
        /// The previous play it beats; `None` on lead.
        previous: Option<Combination>,
    },
    /// Illegal, breaking this rule.
    Illegal(Violation),
}

impl Verdict {
    /// Whether the play is legal.
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }

    /// The verdict with its reason: `legal: a pair of Qs beats a pair of
    /// Js`, `illegal: not higher: ...`.
    pub fn why(&self) -> String {
        match self {
            Verdict::Legal {
                play,
                previous: None,
            } => format!("legal: {play} on lead"),
            Verdict::Legal {
                play,
                previous: Some(previous),
            } => format!("legal: {play} beats {previous}"),
            Verdict::Illegal(violation) => format!("illegal: {violation}"),
        }
    }
}

impl fmt::Display for Verdict {
    /// `legal` or `illegal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_legal() { "legal" } else { "illegal" })
    }
}

/// Why the previous play cannot be judged against: it must itself have
/// been a legal play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PreviousError {
    /// The previous play forms no combination.
    #[error(
        "the previous play `{0}` is not a combination, so nothing can have been played after it"
    )]
    NotACombination(Play),
    /// The dog: it hands the lead to the partner, who then leads.
    #[error(
        "the previous play cannot be the dog: it passes the lead, so write `-` (the lead) instead"
    )]
    Dog,
}

/// Judges `play` after `previous` (both as cards; the empty previous play
/// is the lead). The previous play counts at its highest reading, and a
/// phoenix single as the previous play as led (1½): use [`judge_after`]
/// when the history says otherwise.
pub fn judge(previous: &Play, play: &Play) -> Result<Verdict, PreviousError> {
    if previous.is_empty() {
        return Ok(judge_after(None, play));
    }
    let Some(prev) = readings(previous).first().copied() else {
        return Err(PreviousError::NotACombination(previous.clone()));
    };
    if prev.kind() == Kind::Dog {
        return Err(PreviousError::Dog);
    }
    Ok(judge_after(Some(&prev), play))
}

/// Judges `play` after the previous play as declared (`None` or the dog:
/// the lead). Legal if some reading of `play` is.
pub fn judge_after(previous: Option<&Combination>, play: &Play) -> Verdict {
    let options = readings(play);
    if options.is_empty() {
        return Verdict::Illegal(why_no_combination(play));
    }
    let previous = previous.filter(|p| p.kind() != Kind::Dog);
    let Some(prev) = previous else {
        return Verdict::Legal {
            play: options[0],
            previous: None,
        };
    };
    let mut first_violation = None;
    for reading in options {
        match beats(prev, &reading) {
            Ok(play) => {
                return Verdict::Legal {
                    play,
                    previous: Some(*prev),
                };
            }
            Err(v) => {
                first_violation.get_or_insert(v);
            }
        }
    }
    Verdict::Illegal(first_violation.expect("at least one reading"))
}

/// `play` on `prev`: the combination as played (a phoenix single takes
/// its height from `prev`), or the rule it breaks.
fn beats(prev: &Combination, play: &Combination) -> Result<Combination, Violation> {
    let higher = || {
        if play.height() > prev.height() {
            Ok(*play)
        } else {
            Err(Violation::NotHigher {
                previous: *prev,
                play: *play,
            })
        }
    };
    match (prev.kind(), play.kind()) {
        (_, Kind::Dog) => Err(Violation::Special(SpecialRule::DogOnlyOnLead)),
        (Kind::Bomb, Kind::Bomb) => higher(),
        (_, Kind::Bomb) => Ok(*play),
        (p, k) if p != k => Err(Violation::TypeMismatch {
            previous: p,
            play: k,
        }),
        (Kind::Single, Kind::Single) if play.is_phoenix() => {
            if prev.is_dragon() {
                return Err(Violation::Special(SpecialRule::PhoenixOnDragon));
            }
            // `None` only on the phoenix itself: there is one phoenix, so
            // it is no higher than itself.
            Combination::phoenix_over(prev).ok_or(Violation::NotHigher {
                previous: *prev,
                play: *play,
            })
        }
        _ if prev.len() != play.len() => Err(Violation::LengthMismatch {
            previous: prev.len(),
            play: play.len(),
        }),
        _ => higher(),
    }
}

/// The most specific reason cards form no combination.
fn why_no_combination(play: &Play) -> Violation {
    let cards = play.cards();
    let n = cards.len();
    if n > 1 && cards.contains(&Card::Dragon) {
        return Violation::Special(SpecialRule::DragonAlone);
    }
    if n > 1 && cards.contains(&Card::Dog) {
        return Violation::Special(SpecialRule::DogAlone);
    }
    // Three of a rank and the phoenix would be a bomb if the phoenix could be one.
    let three_and_phoenix = n == 4
        && cards.contains(&Card::Phoenix)
        && cards
            .iter()
            .any(|c| matches!(c, Card::Number(_)) && cards.iter().filter(|d| *d == c).count() == 3);
    if three_and_phoenix {
        return Violation::Special(SpecialRule::PhoenixInBomb);
    }
    Violation::NotACombination
}

//! Who wins a round, and which rule variant is in play.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::card::Card;

/// The rule variant. Both use the same wire protocol.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Ruleset {
    /// The CardJitsu Bot Championship rules: winning with a power card (10)
    /// activates Reverse for the next round.
    #[default]
    Tournament,
    /// The older Card-Jitsu variant: no power cards, never Reverse.
    Classic,
}

impl Ruleset {
    /// Both rulesets.
    pub const ALL: [Ruleset; 2] = [Ruleset::Tournament, Ruleset::Classic];

    /// The name used in configs and records.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Tournament => "tournament",
            Ruleset::Classic => "classic",
        }
    }

    /// The name of the deck a seat draws from unless told otherwise (see
    /// [`super::Deck::named`]): the championship's tournament deck under
    /// its rules, the standard deck (numbers 2 to 12, the classic game's
    /// cards) under the classic ones.
    pub const fn default_deck(self) -> &'static str {
        match self {
            Ruleset::Tournament => "championship",
            Ruleset::Classic => "standard",
        }
    }

    /// Whether winning a round with `card` makes the next round a Reverse
    /// round.
    #[inline]
    pub const fn activates_reverse(self, winning_card: Card) -> bool {
        matches!(self, Ruleset::Tournament) && winning_card.is_power()
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown ruleset name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown ruleset `{0}` (expected `tournament` or `classic`)")]
pub struct RulesetParseError(pub String);

impl FromStr for Ruleset {
    type Err = RulesetParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| RulesetParseError(s.to_owned()))
    }
}

/// The result of one round, from the point of view of player 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundWinner {
    /// Same element, same number: nobody wins.
    Stalemate,
    /// Player 1 (seat 0) wins.
    First,
    /// Player 2 (seat 1) wins.
    Second,
}

impl RoundWinner {
    /// The number on the wire and in records: 0 (stalemate), 1 or 2.
    #[inline]
    pub const fn player_number(self) -> u8 {
        match self {
            RoundWinner::Stalemate => 0,
            RoundWinner::First => 1,
            RoundWinner::Second => 2,
        }
    }

    /// The winning seat (0 or 1), if any.
    #[inline]
    pub const fn seat(self) -> Option<usize> {
        match self {
            RoundWinner::Stalemate => None,
            RoundWinner::First => Some(0),
            RoundWinner::Second => Some(1),
        }
    }
}

/// Resolves one round: different elements follow Fire > Snow > Water >
/// Fire; the same element goes to the higher number, or the lower one when
/// `reverse` is active; the same element and number is a stalemate
/// (colours never matter).
#[inline]
pub fn round_winner(first: Card, second: Card, reverse: bool) -> RoundWinner {
    let (a, b) = (first.element(), second.element());
    if a != b {
        return if a.beats(b) {
            RoundWinner::First
        } else {
            RoundWinner::Second
        };
    }
    let (x, y) = if reverse {
        (second.number(), first.number())
    } else {
        (first.number(), second.number())
    };
    match x.cmp(&y) {
        std::cmp::Ordering::Greater => RoundWinner::First,
        std::cmp::Ordering::Less => RoundWinner::Second,
        std::cmp::Ordering::Equal => RoundWinner::Stalemate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RoundWinner::*;

    fn w(a: &str, b: &str, reverse: bool) -> RoundWinner {
        round_winner(a.parse().unwrap(), b.parse().unwrap(), reverse)
    }

    #[test]
    fn elements_decide_when_different_regardless_of_numbers_and_reverse() {
        for reverse in [false, true] {
            assert_eq!(w("Fr2", "SbC", reverse), First);
            assert_eq!(w("SbC", "Fr2", reverse), Second);
            assert_eq!(w("Sr2", "WbC", reverse), First);
            assert_eq!(w("WbC", "Sr2", reverse), Second);
            assert_eq!(w("Wr2", "FbC", reverse), First);
            assert_eq!(w("FbC", "Wr2", reverse), Second);
        }
    }

    #[test]
    fn same_element_higher_wins_unless_reversed() {
        assert_eq!(w("Fr9", "Fr3", false), First);
        assert_eq!(w("Fr3", "Fr9", false), Second);
        assert_eq!(w("Fr9", "Fr3", true), Second);
        assert_eq!(w("Fr3", "Fr9", true), First);
        assert_eq!(w("Fb3", "FyA", true), First);
        assert_eq!(w("SoC", "Sp2", false), First);
    }

    #[test]
    fn same_element_and_number_is_a_stalemate_whatever_the_colour() {
        for reverse in [false, true] {
            assert_eq!(w("Fr5", "Fp5", reverse), Stalemate);
            assert_eq!(w("Wg5", "Wg5", reverse), Stalemate);
        }
        assert_eq!(Stalemate.player_number(), 0);
        assert_eq!(First.player_number(), 1);
        assert_eq!(Second.seat(), Some(1));
    }

    #[test]
    fn reverse_activation_depends_on_ruleset() {
        let power: Card = "WoA".parse().unwrap();
        let plain: Card = "Wo9".parse().unwrap();
        assert!(Ruleset::Tournament.activates_reverse(power));
        assert!(!Ruleset::Tournament.activates_reverse(plain));
        assert!(!Ruleset::Classic.activates_reverse(power));
    }

    #[test]
    fn ruleset_names() {
        assert_eq!(Ruleset::default(), Ruleset::Tournament);
        for r in Ruleset::ALL {
            assert_eq!(r.to_string().parse::<Ruleset>().unwrap(), r);
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{r}\""));
        }
        assert!("Classic".parse::<Ruleset>().is_err());
        assert_eq!(
            serde_json::from_str::<Ruleset>("\"classic\"").unwrap(),
            Ruleset::Classic
        );
    }
}

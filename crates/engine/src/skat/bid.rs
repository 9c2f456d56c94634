//! The jack factor, the trump choice and the bid value.

use std::fmt;

use super::card::{Card, Suit, Value};
use super::hand::Hand;

/// Trumps needed to play a suit game.
pub const MIN_TRUMPS: usize = 6;

/// The jack factor: 1 + the number of jacks held in an unbroken run from
/// the jack of clubs down ("with"), or, without the jack of clubs, missing
/// in an unbroken run ("without"). 2 to 5; later trumps are not counted
/// (the seed keeps this simplified rule).
pub fn jack_factor(hand: &Hand) -> u32 {
    let held = |suit| {
        hand.contains(Card {
            value: Value::Jack,
            suit,
        })
    };
    let with = held(Suit::Clubs);
    let run = Suit::ALL
        .into_iter()
        .take_while(|&s| held(s) == with)
        .count();
    run as u32 + 1
}

/// How a playable hand is valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Valuation {
    /// The chosen trump suit.
    pub trump: Suit,
    /// Its trumps: the suit's cards plus all jacks.
    pub trumps: usize,
    /// Whether the hand holds the jack of clubs ("with") or not ("without").
    pub with: bool,
    /// The jack factor (2 to 5).
    pub jack_factor: u32,
}

impl Valuation {
    /// The game value: jack factor x suit value.
    pub fn value(&self) -> u32 {
        self.jack_factor * self.trump.value()
    }
}

/// Why a hand passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassReason {
    /// No suit gives 6 trumps.
    TooFewTrumps {
        /// The suit that gives the most trumps (the highest if tied).
        suit: Suit,
        /// Its trumps.
        trumps: usize,
    },
    /// The trump suit has enough trumps but no ace of another suit is held.
    NoSideAce {
        /// The trump suit that would have been chosen.
        suit: Suit,
        /// Its trumps.
        trumps: usize,
    },
}

impl fmt::Display for PassReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PassReason::TooFewTrumps { suit, trumps } => write!(
                f,
                "too few trumps: at most {trumps} ({suit} and the jacks), {MIN_TRUMPS} needed"
            ),
            PassReason::NoSideAce { suit, trumps } => {
                write!(f, "no ace outside the trump suit ({suit}, {trumps} trumps)")
            }
        }
    }
}

/// What to bid with a hand: a suit game worth `value`, or pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bid {
    /// Playable: the highest value the hand may bid.
    Play(Valuation),
    /// Not playable.
    Pass(PassReason),
}

impl Bid {
    /// The game value, if the hand is playable.
    pub fn value(&self) -> Option<u32> {
        match self {
            Bid::Play(v) => Some(v.value()),
            Bid::Pass(_) => None,
        }
    }

    /// The reasoning, for `--why`: the factors of a value, or the reason
    /// to pass.
    pub fn why(&self) -> String {
        match self {
            Bid::Play(v) => {
                let run = v.jack_factor - 1;
                let jacks = if run == 1 { "jack" } else { "jacks" };
                format!(
                    "{} {run} {jacks} (factor {}) x {} {} = {}; {} trumps and an ace outside them",
                    if v.with { "with" } else { "without" },
                    v.jack_factor,
                    v.trump,
                    v.trump.value(),
                    v.value(),
                    v.trumps
                )
            }
            Bid::Pass(reason) => reason.to_string(),
        }
    }
}

impl fmt::Display for Bid {
    /// The seed's output: `36 Clubs` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Play(v) => write!(f, "{} {}", v.value(), v.trump),
            Bid::Pass(_) => f.write_str("pass"),
        }
    }
}

/// The seed's algorithm: the suit with the most trumps (suit cards plus
/// jacks), the highest suit on a tie; playable with at least 6 trumps and
/// an ace of another suit.
pub fn bid(hand: &Hand) -> Bid {
    let jacks = hand.cards().iter().filter(|c| c.is_jack()).count();
    let trumps = |suit: Suit| {
        jacks
            + hand
                .cards()
                .iter()
                .filter(|c| !c.is_jack() && c.suit == suit)
                .count()
    };
    // Suit::ALL is highest first, so keeping the first maximum breaks ties by suit.
    let mut suit = Suit::Clubs;
    for candidate in Suit::ALL {
        if trumps(candidate) > trumps(suit) {
            suit = candidate;
        }
    }
    let count = trumps(suit);
    if count < MIN_TRUMPS {
        return Bid::Pass(PassReason::TooFewTrumps {
            suit,
            trumps: count,
        });
    }
    let side_ace = hand
        .cards()
        .iter()
        .any(|c| c.value == Value::Ace && c.suit != suit);
    if !side_ace {
        return Bid::Pass(PassReason::NoSideAce {
            suit,
            trumps: count,
        });
    }
    Bid::Play(Valuation {
        trump: suit,
        trumps: count,
        with: hand.contains(Card {
            value: Value::Jack,
            suit: Suit::Clubs,
        }),
        jack_factor: jack_factor(hand),
    })
}

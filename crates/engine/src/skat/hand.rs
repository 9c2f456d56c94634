//! A Skat hand: 10 distinct cards, in any order.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::card::{Card, CardParseError};

/// Cards in a hand (32 cards: 3 hands of 10 and the 2-card skat).
pub const HAND_SIZE: usize = 10;

/// Why a list of cards is not a hand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandError {
    /// One of the cards is not a Skat card.
    #[error(transparent)]
    Card(#[from] CardParseError),
    /// The same card twice.
    #[error("`{0}` appears twice (a hand holds 10 different cards)")]
    Duplicate(Card),
    /// Not 10 cards.
    #[error("expected 10 cards, found {0}")]
    Count(usize),
}

/// Ten distinct Skat cards. The order they were given in is kept (for
/// display) but never affects a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    cards: Vec<Card>,
}

impl Hand {
    /// A hand from cards: exactly [`HAND_SIZE`] of them, all different.
    pub fn new(cards: Vec<Card>) -> Result<Hand, HandError> {
        for (i, card) in cards.iter().enumerate() {
            if cards[..i].contains(card) {
                return Err(HandError::Duplicate(*card));
            }
        }
        if cards.len() != HAND_SIZE {
            return Err(HandError::Count(cards.len()));
        }
        Ok(Hand { cards })
    }

    /// A hand from the cards' spellings (`["JC", "0S", ...]`). The first
    /// unreadable card is the error, before duplicates or the count.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Hand, HandError> {
        let cards = words
            .into_iter()
            .map(str::parse)
            .collect::<Result<Vec<Card>, _>>()?;
        Hand::new(cards)
    }

    /// The cards, in the order given.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Whether the hand holds `card`.
    pub fn contains(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }
}

impl FromStr for Hand {
    type Err = HandError;

    /// Cards separated by whitespace: `JC JS JD AC KC 9C AS 7H QD 8D`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Hand::parse(s.split_whitespace())
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.cards.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

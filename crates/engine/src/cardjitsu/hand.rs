//! A hand: up to [`HAND_SIZE`] cards in a fixed array, so that playing,
//! drawing and copying a hand never touch the heap.

use std::fmt;
use std::ops::Deref;

use super::HAND_SIZE;
use super::card::Card;

/// The cards a seat holds, in the order the seat is shown them (a played
/// card's followers move up one place; a drawn card goes last). Reads as a
/// `&[Card]` (it dereferences to one); compares, hashes and prints as its
/// cards.
#[derive(Clone)]
pub struct Hand {
    cards: [Card; HAND_SIZE],
    len: u8,
}

/// What fills the unused places (never read).
const FILLER: Card = Card::LOWEST;

impl Hand {
    /// An empty hand.
    #[inline]
    pub const fn new() -> Hand {
        Hand {
            cards: [FILLER; HAND_SIZE],
            len: 0,
        }
    }

    /// The cards.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    /// Adds `card` last; a full hand is left as it is (and `false` is
    /// returned).
    #[inline]
    pub(crate) fn push(&mut self, card: Card) -> bool {
        let Some(slot) = self.cards.get_mut(usize::from(self.len)) else {
            return false;
        };
        *slot = card;
        self.len += 1;
        true
    }

    /// Takes out the card at `at` (which must be below the length), moving
    /// the later ones up.
    #[inline]
    pub(crate) fn remove(&mut self, at: usize) -> Card {
        let card = self.cards[at];
        // A fixed number of conditional moves instead of a variable-length
        // `copy_within` (which calls `memmove`): places past the length
        // hold copies nobody reads.
        for i in 0..HAND_SIZE - 1 {
            if i >= at {
                self.cards[i] = self.cards[i + 1];
            }
        }
        self.len -= 1;
        card
    }
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new()
    }
}

impl Deref for Hand {
    type Target = [Card];

    #[inline]
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl AsRef<[Card]> for Hand {
    fn as_ref(&self) -> &[Card] {
        self.as_slice()
    }
}

impl PartialEq for Hand {
    #[inline]
    fn eq(&self, other: &Hand) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Hand {}

impl std::hash::Hash for Hand {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl PartialEq<[Card]> for Hand {
    fn eq(&self, other: &[Card]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<Card>> for Hand {
    fn eq(&self, other: &Vec<Card>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a Hand {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl From<&Hand> for Vec<Card> {
    fn from(hand: &Hand) -> Vec<Card> {
        hand.as_slice().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn keeps_order_when_playing_and_drawing() {
        let mut hand = Hand::new();
        for c in ["Fr2", "Wb3", "Sg4", "Fy5", "Wo6"] {
            assert!(hand.push(card(c)));
        }
        assert!(!hand.push(card("Sp7")), "a full hand takes no more");
        assert_eq!(hand.len(), HAND_SIZE);
        assert_eq!(hand.remove(1), card("Wb3"));
        assert_eq!(hand.remove(3), card("Wo6"));
        assert!(hand.push(card("Sp7")));
        let expected: Vec<Card> = ["Fr2", "Sg4", "Fy5", "Sp7"].map(card).to_vec();
        assert_eq!(hand, expected);
        assert_eq!(hand[3], card("Sp7"));
        assert_eq!(format!("{hand:?}"), format!("{expected:?}"));
        // Places left over by removed cards do not take part in comparing.
        let mut other = Hand::new();
        for c in &expected {
            other.push(*c);
        }
        assert_eq!(hand, other);
        other.remove(0);
        assert_ne!(hand, other);
    }
}

//! Skat cards and their two-character spelling (`JC`, `0S`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A suit, highest first. Its [`Suit::value`] is the trump factor of a
/// suit game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Kreuz, `C`.
    Clubs,
    /// Pik, `S`.
    Spades,
    /// Herz, `H`.
    Hearts,
    /// Karo, `D`.
    Diamonds,
}

impl Suit {
    /// All suits, highest first (the order ties are broken in).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The letter in the card spelling.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
        }
    }

    /// Reads a suit letter (uppercase only).
    pub const fn from_letter(letter: char) -> Option<Suit> {
        match letter {
            'C' => Some(Suit::Clubs),
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            _ => None,
        }
    }

    /// The suit's value in a suit game: clubs 12, spades 11, hearts 10,
    /// diamonds 9.
    pub const fn value(self) -> u32 {
        match self {
            Suit::Clubs => 12,
            Suit::Spades => 11,
            Suit::Hearts => 10,
            Suit::Diamonds => 9,
        }
    }

    /// The English name (`Clubs`), as the seed's output uses.
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "Clubs",
            Suit::Spades => "Spades",
            Suit::Hearts => "Hearts",
            Suit::Diamonds => "Diamonds",
        }
    }

    /// Position in [`Suit::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card's value (its rank within the suit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// `A`.
    Ace,
    /// `K`.
    King,
    /// `Q`.
    Queen,
    /// `J`; every jack is a trump.
    Jack,
    /// `0`.
    Ten,
    /// `9`.
    Nine,
    /// `8`.
    Eight,
    /// `7`.
    Seven,
}

impl Value {
    /// All values, in the seed's order.
    pub const ALL: [Value; 8] = [
        Value::Ace,
        Value::King,
        Value::Queen,
        Value::Jack,
        Value::Ten,
        Value::Nine,
        Value::Eight,
        Value::Seven,
    ];

    /// The character in the card spelling (`0` for the ten).
    pub const fn letter(self) -> char {
        match self {
            Value::Ace => 'A',
            Value::King => 'K',
            Value::Queen => 'Q',
            Value::Jack => 'J',
            Value::Ten => '0',
            Value::Nine => '9',
            Value::Eight => '8',
            Value::Seven => '7',
        }
    }

    /// Reads a value character (uppercase only; `0` is the ten).
    pub const fn from_letter(letter: char) -> Option<Value> {
        match letter {
            'A' => Some(Value::Ace),
            'K' => Some(Value::King),
            'Q' => Some(Value::Queen),
            'J' => Some(Value::Jack),
            '0' => Some(Value::Ten),
            '9' => Some(Value::Nine),
            '8' => Some(Value::Eight),
            '7' => Some(Value::Seven),
            _ => None,
        }
    }
}

/// One of the 32 Skat cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// The card's value.
    pub value: Value,
    /// The card's suit.
    pub suit: Suit,
}

impl Card {
    /// All 32 cards.
    pub fn all() -> impl Iterator<Item = Card> {
        Suit::ALL.into_iter().flat_map(|suit| {
            Value::ALL
                .into_iter()
                .map(move |value| Card { value, suit })
        })
    }

    /// Whether the card is a jack (a trump whatever the trump suit).
    pub fn is_jack(self) -> bool {
        self.value == Value::Jack
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.value.letter(), self.suit.letter())
    }
}

/// Why text is not a Skat card. Each variant names the text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardParseError {
    /// Not exactly two characters.
    #[error(
        "`{0}` is not a Skat card: expected 2 characters, a value (A K Q J 0 9 8 7; 0 is the ten) then a suit (C S H D)"
    )]
    Length(String),
    /// Written suit first (`CJ` for `JC`).
    #[error("`{text}` is not a Skat card: the value comes first, then the suit (`{value}{suit}`)")]
    SuitFirst {
        /// The text as given.
        text: String,
        /// The value character.
        value: char,
        /// The suit character.
        suit: char,
    },
    /// The first character is not a value.
    #[error(
        "`{text}` is not a Skat card: unknown value `{value}` (expected A K Q J 0 9 8 7; 0 is the ten)"
    )]
    Value {
        /// The text as given.
        text: String,
        /// The offending character.
        value: char,
    },
    /// The second character is not a suit.
    #[error("`{text}` is not a Skat card: unknown suit `{suit}` (expected C S H D)")]
    Suit {
        /// The text as given.
        text: String,
        /// The offending character.
        suit: char,
    },
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let (Some(first), Some(second), None) = (chars.next(), chars.next(), chars.next()) else {
            // `10C` is the likeliest three-character card: say how to write the ten.
            return Err(CardParseError::Length(s.to_owned()));
        };
        match (Value::from_letter(first), Suit::from_letter(second)) {
            (Some(value), Some(suit)) => Ok(Card { value, suit }),
            _ if Suit::from_letter(first).is_some() && Value::from_letter(second).is_some() => {
                Err(CardParseError::SuitFirst {
                    text: s.to_owned(),
                    value: second,
                    suit: first,
                })
            }
            (None, _) => Err(CardParseError::Value {
                text: s.to_owned(),
                value: first,
            }),
            (Some(_), None) => Err(CardParseError::Suit {
                text: s.to_owned(),
                suit: second,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_spelling() {
        let all: Vec<Card> = Card::all().collect();
        assert_eq!(all.len(), 32);
        for card in all {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn seed_spelling_value_first() {
        let jc: Card = "JC".parse().unwrap();
        assert_eq!((jc.value, jc.suit), (Value::Jack, Suit::Clubs));
        let ten: Card = "0S".parse().unwrap();
        assert_eq!((ten.value, ten.suit), (Value::Ten, Suit::Spades));
    }

    #[test]
    fn malformed_cards_name_the_text_and_what_was_expected() {
        let err = |s: &str| s.parse::<Card>().unwrap_err().to_string();
        assert!(err("10C").contains("`10C`") && err("10C").contains("0 is the ten"));
        assert!(err("XC").contains("unknown value `X`"), "{}", err("XC"));
        assert!(err("JX").contains("unknown suit `X`"), "{}", err("JX"));
        assert!(err("CJ").contains("`JC`"), "{}", err("CJ"));
        assert!(err("jc").contains("unknown value `j`"), "{}", err("jc"));
        assert!(err("").contains("``"));
    }
}

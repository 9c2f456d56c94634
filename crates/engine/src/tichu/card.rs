//! Tichu cards and plays, spelled as in seed 003 (`58304967`, `-`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The rank of a numbered card: 2 to 14 (ace).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The lowest numbered rank.
    pub const TWO: Rank = Rank(2);
    /// The highest numbered rank.
    pub const ACE: Rank = Rank(14);

    /// `n` as a rank, if it is 2 to 14.
    pub const fn new(n: u8) -> Option<Rank> {
        if n >= 2 && n <= 14 {
            Some(Rank(n))
        } else {
            None
        }
    }

    /// The rank's number (2 to 14).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// All ranks, 2 to ace.
    pub fn all() -> impl Iterator<Item = Rank> {
        (2..=14).map(Rank)
    }
}

/// The name of rank `n` (1 to 14) for people: `10`, `J`, ... (1 is the
/// Mah Jong's rank in a straight).
pub(crate) fn rank_name(n: u8) -> String {
    match n {
        11 => "J".into(),
        12 => "Q".into(),
        13 => "K".into(),
        14 => "A".into(),
        _ => n.to_string(),
    }
}

/// One card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// `1`: rank 1, as a single or the bottom of a straight.
    MahJong,
    /// `2`-`9`, `0` (ten), `J`, `Q`, `K`, `A`.
    Number(Rank),
    /// `R`: the highest single, and only a single.
    Dragon,
    /// `P`: a wildcard, or a single half a rank above the one it beats.
    Phoenix,
    /// `D`: played alone on lead only.
    Dog,
}

impl Card {
    /// The whole deck: four of each rank 2 to ace and the four specials.
    pub fn deck() -> Vec<Card> {
        let mut deck: Vec<Card> = Rank::all().flat_map(|r| [Card::Number(r); 4]).collect();
        deck.extend([Card::MahJong, Card::Dragon, Card::Phoenix, Card::Dog]);
        deck
    }

    /// How many of this card the deck holds.
    pub const fn copies(self) -> usize {
        match self {
            Card::Number(_) => 4,
            _ => 1,
        }
    }

    /// The card's character.
    pub const fn letter(self) -> char {
        match self {
            Card::MahJong => '1',
            Card::Dragon => 'R',
            Card::Phoenix => 'P',
            Card::Dog => 'D',
            Card::Number(Rank(n)) => match n {
                10 => '0',
                11 => 'J',
                12 => 'Q',
                13 => 'K',
                14 => 'A',
                _ => (b'0' + n) as char,
            },
        }
    }

    /// Reads a card character (uppercase only).
    pub const fn from_letter(c: char) -> Option<Card> {
        let rank = match c {
            '1' => return Some(Card::MahJong),
            'R' => return Some(Card::Dragon),
            'P' => return Some(Card::Phoenix),
            'D' => return Some(Card::Dog),
            '2'..='9' => c as u8 - b'0',
            '0' => 10,
            'J' => 11,
            'Q' => 12,
            'K' => 13,
            'A' => 14,
            _ => return None,
        };
        Some(Card::Number(Rank(rank)))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why text is not a play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayParseError {
    /// A character that is no card.
    #[error(
        "`{card}` in `{text}` is not a Tichu card (expected 2-9, 0 for the ten, J Q K A, \
         1 Mah Jong, R dragon, P phoenix, D dog; `-` alone for no play)"
    )]
    Unknown {
        /// The play as given.
        text: String,
        /// The offending character.
        card: char,
    },
    /// More copies of a card than the deck holds.
    #[error("`{card}` appears {count} times in `{text}`, but the deck has {}", card.copies())]
    TooMany {
        /// The play as given.
        text: String,
        /// The card.
        card: Card,
        /// How often it appears.
        count: usize,
    },
}

/// A multiset of cards played at once. The order given is kept for
/// display but never affects a rule. The empty play is no play (on the
/// command line `-`): as the previous play it means the lead.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Play {
    cards: Vec<Card>,
}

impl Play {
    /// A play from cards, each at most as often as the deck holds it.
    pub fn new(cards: Vec<Card>) -> Result<Play, PlayParseError> {
        for card in &cards {
            let count = cards.iter().filter(|c| *c == card).count();
            if count > card.copies() {
                return Err(PlayParseError::TooMany {
                    text: cards.iter().map(|c| c.letter()).collect(),
                    card: *card,
                    count,
                });
            }
        }
        Ok(Play { cards })
    }

    /// The empty play (the lead, as a previous play).
    pub fn empty() -> Play {
        Play::default()
    }

    /// The cards, in the order given.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether this is no play at all.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

impl FromStr for Play {
    type Err = PlayParseError;

    /// One character per card (`6P0594J7`); `-` or the empty string is
    /// the empty play.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "-" {
            return Ok(Play::empty());
        }
        let cards = s
            .chars()
            .map(|c| {
                Card::from_letter(c).ok_or_else(|| PlayParseError::Unknown {
                    text: s.to_owned(),
                    card: c,
                })
            })
            .collect::<Result<Vec<Card>, _>>()?;
        Play::new(cards)
    }
}

impl fmt::Display for Play {
    /// The seed's spelling; `-` for the empty play.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.cards.is_empty() {
            return f.write_str("-");
        }
        self.cards.iter().try_for_each(|c| write!(f, "{c}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_letter() {
        let deck = Card::deck();
        assert_eq!(deck.len(), 56);
        for card in deck {
            assert_eq!(Card::from_letter(card.letter()), Some(card));
        }
        assert_eq!(Card::from_letter('0'), Some(Card::Number(Rank(10))));
    }

    #[test]
    fn plays_parse_in_the_seed_spelling() {
        let p: Play = "6P0594J7".parse().unwrap();
        assert_eq!(p.len(), 8);
        assert_eq!(p.to_string(), "6P0594J7");
        assert!("-".parse::<Play>().unwrap().is_empty());
        assert!("".parse::<Play>().unwrap().is_empty());
    }

    #[test]
    fn malformed_plays_name_the_card() {
        let err = |s: &str| s.parse::<Play>().unwrap_err().to_string();
        assert!(
            err("77X").starts_with("`X` in `77X` is not a Tichu card"),
            "{}",
            err("77X")
        );
        assert!(err("j").starts_with("`j` in `j`"), "{}", err("j"));
        assert_eq!(
            err("77777"),
            "`7` appears 5 times in `77777`, but the deck has 4"
        );
        assert_eq!(err("PP"), "`P` appears 2 times in `PP`, but the deck has 1");
        assert!(err("--").contains("`-` in `--`"));
    }
}

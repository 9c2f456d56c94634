//! Decks: the multiset of cards a seat draws from, and the `.dcfg` format.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::HAND_SIZE;
use super::card::{Card, CardParseError, Colour, Element};

/// What a `.dcfg` line must hold, for error messages.
const DCFG_EXPECTED: &str = "one card per line: element F|W|S, colour r|b|g|y|o|p, \
     one hex digit, like `FpA`; blank lines and `#` comments are allowed";

/// Why a deck could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// A line of a `.dcfg` text is not a card.
    #[error("{source_name}:{line}: `{text}`: {reason}; expected {DCFG_EXPECTED}")]
    BadLine {
        /// The name the text came from (a file path, say).
        source_name: String,
        /// 1-based line number.
        line: usize,
        /// The offending text, comment and surrounding blanks removed.
        text: String,
        /// What is wrong with it.
        reason: CardParseError,
    },
    /// The deck cannot fill a hand of distinct cards.
    #[error(
        "{source_name}: the deck has {distinct} distinct card(s); expected at least {HAND_SIZE} \
         so a hand never holds a duplicate"
    )]
    TooFewDistinct {
        /// The name the deck came from.
        source_name: String,
        /// How many distinct cards it has.
        distinct: usize,
    },
}

impl DeckError {
    /// The name of the text or deck the error is about.
    pub fn source_name(&self) -> &str {
        match self {
            DeckError::BadLine { source_name, .. }
            | DeckError::TooFewDistinct { source_name, .. } => source_name,
        }
    }

    /// The 1-based line the error is on, if it is about one line.
    pub fn line(&self) -> Option<usize> {
        match self {
            DeckError::BadLine { line, .. } => Some(*line),
            DeckError::TooFewDistinct { .. } => None,
        }
    }
}

/// The cards one seat draws from. Entries may repeat: a card listed twice
/// is drawn twice as often. Always holds at least [`HAND_SIZE`] distinct
/// cards, so a hand without duplicates can always be filled.
///
/// Serialized as its list of cards (and checked when deserialized).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<Card>", into = "Vec<Card>")]
pub struct Deck {
    entries: Vec<Card>,
    distinct: usize,
}

impl Deck {
    /// The default deck: every element, colour and number 2 to 12 once
    /// (198 cards), in card order.
    pub fn standard() -> Deck {
        Deck::standard_ref().clone()
    }

    /// The standard deck, built once: every game's default settings start
    /// from it.
    pub(crate) fn standard_ref() -> &'static Deck {
        static STANDARD: std::sync::OnceLock<Deck> = std::sync::OnceLock::new();
        STANDARD.get_or_init(|| {
            let entries: Vec<Card> = Element::ALL
                .into_iter()
                .flat_map(|e| {
                    Colour::ALL
                        .into_iter()
                        .flat_map(move |c| (2..=12).filter_map(move |n| Card::new(e, c, n).ok()))
                })
                .collect();
            let distinct = entries.len();
            Deck { entries, distinct }
        })
    }

    /// A deck of the given entries (in draw order); `source_name` names it
    /// in errors.
    pub fn from_cards(entries: Vec<Card>, source_name: &str) -> Result<Deck, DeckError> {
        let distinct = entries.iter().collect::<BTreeSet<_>>().len();
        if distinct < HAND_SIZE {
            return Err(DeckError::TooFewDistinct {
                source_name: source_name.to_owned(),
                distinct,
            });
        }
        Ok(Deck { entries, distinct })
    }

    /// Reads `.dcfg` text: one card per line; blank lines and `#`
    /// comments (whole-line or trailing) are ignored. `source_name` (a file
    /// path, say) names the text in errors.
    pub fn parse_dcfg(text: &str, source_name: &str) -> Result<Deck, DeckError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut entries = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let content = raw.split_once('#').map_or(raw, |(before, _)| before).trim();
            if content.is_empty() {
                continue;
            }
            let card = content.parse().map_err(|reason| DeckError::BadLine {
                source_name: source_name.to_owned(),
                line: index + 1,
                text: content.to_owned(),
                reason,
            })?;
            entries.push(card);
        }
        Deck::from_cards(entries, source_name)
    }

    /// The entries, in draw order, duplicates included.
    pub fn entries(&self) -> &[Card] {
        &self.entries
    }

    /// Number of distinct cards.
    pub fn distinct_count(&self) -> usize {
        self.distinct
    }

    /// Renders the deck as `.dcfg` text (one card per line).
    pub fn to_dcfg(&self) -> String {
        self.entries.iter().map(|c| format!("{c}\n")).collect()
    }
}

impl Default for Deck {
    fn default() -> Deck {
        Deck::standard()
    }
}

impl TryFrom<Vec<Card>> for Deck {
    type Error = DeckError;

    fn try_from(entries: Vec<Card>) -> Result<Deck, DeckError> {
        Deck::from_cards(entries, "deck")
    }
}

impl From<Deck> for Vec<Card> {
    fn from(deck: Deck) -> Vec<Card> {
        deck.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_deck_has_198_distinct_cards() {
        let d = Deck::standard();
        assert_eq!(d.entries().len(), 198);
        assert_eq!(d.distinct_count(), 198);
        assert!(d.entries().iter().all(|c| (2..=12).contains(&c.number())));
        assert!(d.entries().is_sorted());
        assert_eq!(Deck::default(), d);
    }

    #[test]
    fn parses_dcfg_with_comments_and_blanks() {
        let text = "# my deck\n\nWb8\nSo3   # trailing comment\n  Fr4  \r\nFo5\nSg8\nWb8 #dup";
        let d = Deck::parse_dcfg(text, "my_deck.dcfg").unwrap();
        let names: Vec<String> = d.entries().iter().map(Card::to_string).collect();
        assert_eq!(names, ["Wb8", "So3", "Fr4", "Fo5", "Sg8", "Wb8"]);
        assert_eq!(d.distinct_count(), 5);
        assert_eq!(Deck::parse_dcfg(&d.to_dcfg(), "x").unwrap(), d);
    }

    #[test]
    fn bad_line_names_source_line_and_text() {
        let text = "Wb8\n# ok\n\nSo3\nFr 4 # what\nFo5\n";
        let err = Deck::parse_dcfg(text, "decks/a.dcfg").unwrap_err();
        assert_eq!(
            err,
            DeckError::BadLine {
                source_name: "decks/a.dcfg".into(),
                line: 5,
                text: "Fr 4".into(),
                reason: CardParseError::Length("Fr 4".into()),
            }
        );
        assert_eq!(err.line(), Some(5));
        assert_eq!(err.source_name(), "decks/a.dcfg");
        let msg = err.to_string();
        assert!(msg.starts_with("decks/a.dcfg:5: `Fr 4`"), "{msg}");
        assert!(msg.contains("expected one card per line"), "{msg}");

        let err = Deck::parse_dcfg("Wb8\nwb8\n", "b").unwrap_err();
        assert_eq!(err.line(), Some(2));
        assert!(err.to_string().contains("not an element"), "{err}");

        let err = Deck::parse_dcfg("Wb8\nWB8\n", "b").unwrap_err();
        assert!(err.to_string().contains("not a colour"), "{err}");
    }

    #[test]
    fn too_few_distinct_cards() {
        let err = Deck::parse_dcfg("Wb8\nWb8\nSo3\nFr4\nFo5\n", "small.dcfg").unwrap_err();
        assert_eq!(
            err,
            DeckError::TooFewDistinct {
                source_name: "small.dcfg".into(),
                distinct: 4
            }
        );
        assert!(err.to_string().starts_with("small.dcfg: "), "{err}");
        assert_eq!(err.line(), None);
        assert!(Deck::parse_dcfg("", "empty").is_err());
        assert!(Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nFo6", "ok").is_ok());
    }

    #[test]
    fn serde_checks_the_deck() {
        let d = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nFoA", "x").unwrap();
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, r#"["Wb8","So3","Fr4","Fo5","FoA"]"#);
        assert_eq!(serde_json::from_str::<Deck>(&json).unwrap(), d);
        assert!(serde_json::from_str::<Deck>(r#"["Wb8","Wb8"]"#).is_err());
    }
}

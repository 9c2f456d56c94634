//! Decks: the multiset of cards a seat draws from, how it is drawn, and the
//! `.dcfg` format.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::HAND_SIZE;
use super::card::{Card, CardParseError, Colour, Element};

/// What a `.dcfg` line must hold, for error messages.
const DCFG_EXPECTED: &str = "one card per line: element F|W|S, colour r|b|g|y|o|p, \
     one hex digit, like `FpA`, or `draw: with replacement` / `draw: without replacement`; \
     blank lines and `#` comments are allowed";

/// The CardJitsu Bot Championship's tournament deck, as its server's
/// `deck.dcfg` lists it (in that order): 30 cards, `So3`, `Fb3` and `Fo5`
/// twice, and exactly three power cards (`SgA`, `FyA`, `WoA`), whose
/// power-up is Reverse. The championship's server shuffles a copy for each
/// player and deals it without replacement, so a named deck built from
/// this list is drawn that way ([`Draw::WithoutReplacement`]).
const CHAMPIONSHIP: [&str; 30] = [
    "SgA", "FyA", "WoA", "Fb3", "Fp6", "Fy2", "So3", "Sr2", "Sy7", "Wb5", "Wg2", "Wp4", "Fg8",
    "Sr6", "Wg3", "Wb8", "So3", "Fr4", "Fo5", "Sg8", "Wo5", "Fb3", "Fo5", "Fr6", "Sp4", "Sg5",
    "Sg6", "Wy4", "Wb6", "Wr7",
];

/// How a seat's cards come out of its deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Draw {
    /// Each draw picks one entry uniformly among those whose card is not in
    /// the hand; played cards stay in the deck, so a hand never holds two
    /// equal cards and the deck never runs out (the `standard` deck's way,
    /// and every deck file's unless it says otherwise).
    #[default]
    WithReplacement,
    /// The seat's own copy of the deck is shuffled and dealt card by card,
    /// as the championship's server deals: a card listed twice can be held
    /// twice. When the copy runs out, the cards the seat has played (every
    /// entry not in its hand) are shuffled into a new copy.
    WithoutReplacement,
}

impl Draw {
    /// The words a `.dcfg` file and the docs use: `with replacement` or
    /// `without replacement`.
    pub const fn words(self) -> &'static str {
        match self {
            Draw::WithReplacement => "with replacement",
            Draw::WithoutReplacement => "without replacement",
        }
    }
}

impl fmt::Display for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// One line of a `.dcfg` text that is not a card or a draw line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{source_name}:{line}: `{text}`: {reason}")]
pub struct BadLine {
    /// The name the text came from (a file path, say).
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// The offending text, comment and surrounding blanks removed (bytes
    /// that are not UTF-8 shown as `\xNN`).
    pub text: String,
    /// What is wrong with it.
    pub reason: LineProblem,
}

/// What is wrong with a `.dcfg` line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineProblem {
    /// Not a card.
    #[error(transparent)]
    Card(#[from] CardParseError),
    /// Not UTF-8 text.
    #[error("byte 0x{byte:02x} at column {column} is not UTF-8 text")]
    NotUtf8 {
        /// The first byte that is not part of a UTF-8 character.
        byte: u8,
        /// Its 1-based column (in bytes).
        column: usize,
    },
    /// A `draw:` line with other words.
    #[error("expected `draw: with replacement` or `draw: without replacement`")]
    BadDraw,
    /// A second `draw:` line.
    #[error("the draw was already given on line {0}")]
    SecondDraw(usize),
}

/// Why a deck could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    /// Lines of a `.dcfg` text that are not cards, every one of them in
    /// line order (a file is fixed in one go).
    #[error("{}; expected {DCFG_EXPECTED}", lines_text(.0))]
    BadLines(Vec<BadLine>),
    /// The deck cannot fill a hand.
    #[error(
        "{source_name}: the deck has {distinct} distinct card(s) in {entries} entries; expected at \
         least {HAND_SIZE} distinct cards (drawn with replacement, a hand never holds two equal \
         cards) or {HAND_SIZE} entries (drawn without replacement)"
    )]
    TooSmall {
        /// The name the deck came from.
        source_name: String,
        /// How many distinct cards it has.
        distinct: usize,
        /// How many entries it has.
        entries: usize,
    },
    /// A deck name that is neither a named deck nor a file.
    #[error("`{0}` is not a named deck (expected `championship` or `standard`)")]
    UnknownName(String),
}

fn lines_text(lines: &[BadLine]) -> String {
    lines
        .iter()
        .map(BadLine::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl DeckError {
    /// The name of the text or deck the error is about.
    pub fn source_name(&self) -> &str {
        match self {
            DeckError::BadLines(lines) => lines.first().map_or("", |l| &l.source_name),
            DeckError::TooSmall { source_name, .. } => source_name,
            DeckError::UnknownName(name) => name,
        }
    }

    /// The 1-based line of the first error, if it is about lines.
    pub fn line(&self) -> Option<usize> {
        match self {
            DeckError::BadLines(lines) => lines.first().map(|l| l.line),
            DeckError::TooSmall { .. } | DeckError::UnknownName(_) => None,
        }
    }
}

/// The cards one seat draws from, and how it draws them. Entries may
/// repeat: a card listed twice is drawn twice as often, or (without
/// replacement) twice at most before the deck runs out. Always able to fill
/// a hand: at least [`HAND_SIZE`] distinct cards when drawn with
/// replacement, at least [`HAND_SIZE`] entries without.
///
/// Serialized as `{"cards": [...], "draw": "with-replacement"}` (and
/// checked when deserialized).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "DeckData", into = "DeckData")]
pub struct Deck {
    entries: Vec<Card>,
    distinct: usize,
    draw: Draw,
}

/// A deck as serialized.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckData {
    cards: Vec<Card>,
    #[serde(default)]
    draw: Draw,
}

/// The names a deck can be given by instead of a file, and their decks.
pub const NAMED_DECKS: [&str; 2] = ["championship", "standard"];

impl Deck {
    /// The standard deck: every element, colour and number 2 to 12 once
    /// (198 cards), in card order, drawn with replacement. The default
    /// under the classic rules.
    pub fn standard() -> Deck {
        Deck::standard_ref().clone()
    }

    /// The standard deck, built once.
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
            Deck {
                entries,
                distinct,
                draw: Draw::WithReplacement,
            }
        })
    }

    /// The championship's tournament deck (30 cards, three power cards),
    /// shuffled and dealt without replacement, as the CardJitsu Bot
    /// Championship's server deals it. The default under the tournament
    /// rules.
    pub fn championship() -> Deck {
        let entries: Vec<Card> = CHAMPIONSHIP
            .iter()
            .filter_map(|text| text.parse().ok())
            .collect();
        debug_assert_eq!(entries.len(), CHAMPIONSHIP.len());
        let distinct = entries.iter().collect::<BTreeSet<_>>().len();
        Deck {
            entries,
            distinct,
            draw: Draw::WithoutReplacement,
        }
    }

    /// The deck called `name` ([`NAMED_DECKS`]), if there is one.
    pub fn named(name: &str) -> Option<Deck> {
        match name {
            "championship" => Some(Deck::championship()),
            "standard" => Some(Deck::standard()),
            _ => None,
        }
    }

    /// A deck of the given entries (in listed order) drawn with
    /// replacement; `source_name` names it in errors.
    pub fn from_cards(entries: Vec<Card>, source_name: &str) -> Result<Deck, DeckError> {
        Deck::with_draw(entries, Draw::WithReplacement, source_name)
    }

    /// A deck of the given entries drawn as `draw` says; `source_name`
    /// names it in errors.
    pub fn with_draw(entries: Vec<Card>, draw: Draw, source_name: &str) -> Result<Deck, DeckError> {
        let distinct = entries.iter().collect::<BTreeSet<_>>().len();
        let enough = match draw {
            Draw::WithReplacement => distinct >= HAND_SIZE,
            Draw::WithoutReplacement => entries.len() >= HAND_SIZE,
        };
        if !enough {
            return Err(DeckError::TooSmall {
                source_name: source_name.to_owned(),
                distinct,
                entries: entries.len(),
            });
        }
        Ok(Deck {
            entries,
            distinct,
            draw,
        })
    }

    /// Reads `.dcfg` text (see [`Deck::parse_dcfg_bytes`]).
    pub fn parse_dcfg(text: &str, source_name: &str) -> Result<Deck, DeckError> {
        Deck::parse_dcfg_bytes(text.as_bytes(), source_name)
    }

    /// Reads `.dcfg` bytes: one card per line; blank lines and `#`
    /// comments (whole-line or trailing) are ignored; one optional line
    /// `draw: with replacement` or `draw: without replacement` says how the
    /// deck is drawn (with replacement if none does). Every bad line is
    /// reported, a line that is not UTF-8 among them. `source_name` (a file
    /// path, say) names the text in errors.
    pub fn parse_dcfg_bytes(bytes: &[u8], source_name: &str) -> Result<Deck, DeckError> {
        let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        let mut entries = Vec::new();
        let mut draw: Option<(Draw, usize)> = None;
        let mut bad = Vec::new();
        for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let line = index + 1;
            let mut problem = |text: &str, reason: LineProblem| {
                bad.push(BadLine {
                    source_name: source_name.to_owned(),
                    line,
                    text: text.to_owned(),
                    reason,
                });
            };
            let raw = match std::str::from_utf8(raw) {
                Ok(raw) => raw,
                Err(e) => {
                    let at = e.valid_up_to();
                    let shown = String::from_utf8_lossy(raw);
                    problem(
                        shown.trim(),
                        LineProblem::NotUtf8 {
                            byte: raw[at],
                            column: at + 1,
                        },
                    );
                    continue;
                }
            };
            let content = raw.split_once('#').map_or(raw, |(before, _)| before).trim();
            if content.is_empty() {
                continue;
            }
            if let Some(words) = content.strip_prefix("draw:") {
                let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
                let given = [Draw::WithReplacement, Draw::WithoutReplacement]
                    .into_iter()
                    .find(|d| d.words() == words);
                match (given, draw) {
                    (_, Some((_, first))) => problem(content, LineProblem::SecondDraw(first)),
                    (Some(d), None) => draw = Some((d, line)),
                    (None, None) => problem(content, LineProblem::BadDraw),
                }
                continue;
            }
            match content.parse() {
                Ok(card) => entries.push(card),
                Err(reason) => problem(content, LineProblem::Card(reason)),
            }
        }
        if !bad.is_empty() {
            return Err(DeckError::BadLines(bad));
        }
        let draw = draw.map_or(Draw::default(), |(d, _)| d);
        Deck::with_draw(entries, draw, source_name)
    }

    /// The entries, in listed order, duplicates included.
    pub fn entries(&self) -> &[Card] {
        &self.entries
    }

    /// Number of distinct cards.
    pub fn distinct_count(&self) -> usize {
        self.distinct
    }

    /// How the deck is drawn.
    pub fn draw(&self) -> Draw {
        self.draw
    }

    /// Renders the deck as `.dcfg` text (one card per line, after a draw
    /// line when it is drawn without replacement).
    pub fn to_dcfg(&self) -> String {
        let head = match self.draw {
            Draw::WithReplacement => String::new(),
            Draw::WithoutReplacement => format!("draw: {}\n", self.draw),
        };
        head + &self
            .entries
            .iter()
            .map(|c| format!("{c}\n"))
            .collect::<String>()
    }
}

impl TryFrom<DeckData> for Deck {
    type Error = DeckError;

    fn try_from(data: DeckData) -> Result<Deck, DeckError> {
        Deck::with_draw(data.cards, data.draw, "deck")
    }
}

impl From<Deck> for DeckData {
    fn from(deck: Deck) -> DeckData {
        DeckData {
            cards: deck.entries,
            draw: deck.draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad_lines(err: DeckError) -> Vec<BadLine> {
        match err {
            DeckError::BadLines(lines) => lines,
            other => panic!("not bad lines: {other}"),
        }
    }

    #[test]
    fn standard_deck_has_198_distinct_cards_drawn_with_replacement() {
        let d = Deck::standard();
        assert_eq!(d.entries().len(), 198);
        assert_eq!(d.distinct_count(), 198);
        assert!(d.entries().iter().all(|c| (2..=12).contains(&c.number())));
        assert!(d.entries().is_sorted());
        assert_eq!(d.draw(), Draw::WithReplacement);
        assert_eq!(Deck::named("standard"), Some(d));
    }

    #[test]
    fn the_championship_deck_is_its_thirty_cards_with_three_power_cards() {
        let d = Deck::championship();
        assert_eq!(d.entries().len(), 30);
        assert_eq!(d.draw(), Draw::WithoutReplacement);
        let power: Vec<String> = d
            .entries()
            .iter()
            .filter(|c| c.number() == 10)
            .map(Card::to_string)
            .collect();
        assert_eq!(power, ["SgA", "FyA", "WoA"]);
        let twice: BTreeSet<String> = d
            .entries()
            .iter()
            .filter(|c| d.entries().iter().filter(|o| o == c).count() == 2)
            .map(Card::to_string)
            .collect();
        assert_eq!(
            twice,
            BTreeSet::from(["Fb3".into(), "Fo5".into(), "So3".into()])
        );
        assert_eq!(d.distinct_count(), 27);
        assert_eq!(Deck::named("championship"), Some(d.clone()));
        assert_eq!(Deck::named("mine"), None);
        // Its dcfg text reads back as the same deck, drawn the same way.
        assert_eq!(Deck::parse_dcfg(&d.to_dcfg(), "x").unwrap(), d);
    }

    #[test]
    fn parses_dcfg_with_comments_and_blanks() {
        let text = "# my deck\n\nWb8\nSo3   # trailing comment\n  Fr4  \r\nFo5\nSg8\nWb8 #dup";
        let d = Deck::parse_dcfg(text, "my_deck.dcfg").unwrap();
        let names: Vec<String> = d.entries().iter().map(Card::to_string).collect();
        assert_eq!(names, ["Wb8", "So3", "Fr4", "Fo5", "Sg8", "Wb8"]);
        assert_eq!(d.distinct_count(), 5);
        assert_eq!(d.draw(), Draw::WithReplacement);
        assert_eq!(Deck::parse_dcfg(&d.to_dcfg(), "x").unwrap(), d);
    }

    #[test]
    fn a_draw_line_chooses_how_the_deck_is_drawn() {
        let text = "# dealt like the championship\ndraw:  without   replacement # yes\nWb8\nWb8\nSo3\nFr4\nFo5\n";
        let d = Deck::parse_dcfg(text, "d").unwrap();
        assert_eq!(d.draw(), Draw::WithoutReplacement);
        assert_eq!(d.entries().len(), 5);
        let d = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nFo6\ndraw: with replacement", "d").unwrap();
        assert_eq!(d.draw(), Draw::WithReplacement);

        let lines = bad_lines(Deck::parse_dcfg("draw: sometimes\nWb8\n", "d").unwrap_err());
        assert_eq!(lines[0].reason, LineProblem::BadDraw);
        let lines = bad_lines(
            Deck::parse_dcfg("draw: with replacement\nWb8\ndraw: with replacement\n", "d")
                .unwrap_err(),
        );
        assert_eq!(
            (lines[0].line, &lines[0].reason),
            (3, &LineProblem::SecondDraw(1))
        );
    }

    #[test]
    fn bad_line_names_source_line_and_text() {
        let text = "Wb8\n# ok\n\nSo3\nFr 4 # what\nFo5\n";
        let err = Deck::parse_dcfg(text, "decks/a.dcfg").unwrap_err();
        assert_eq!(err.line(), Some(5));
        assert_eq!(err.source_name(), "decks/a.dcfg");
        let msg = err.to_string();
        assert!(msg.starts_with("decks/a.dcfg:5: `Fr 4`"), "{msg}");
        assert!(msg.contains("expected one card per line"), "{msg}");
        assert_eq!(
            bad_lines(err),
            [BadLine {
                source_name: "decks/a.dcfg".into(),
                line: 5,
                text: "Fr 4".into(),
                reason: LineProblem::Card(CardParseError::Length("Fr 4".into())),
            }]
        );

        let err = Deck::parse_dcfg("Wb8\nwb8\n", "b").unwrap_err();
        assert_eq!(err.line(), Some(2));
        assert!(err.to_string().contains("not an element"), "{err}");

        let err = Deck::parse_dcfg("Wb8\nWB8\n", "b").unwrap_err();
        assert!(err.to_string().contains("not a colour"), "{err}");
    }

    #[test]
    fn every_bad_line_is_reported_in_order_a_non_utf8_one_by_line_and_column() {
        let bytes = b"Wb8\nFx5\nSo3\nF\xffr4\nFo5\nSg8\nzz\n";
        let err = Deck::parse_dcfg_bytes(bytes, "bad.dcfg").unwrap_err();
        let msg = err.to_string();
        let lines = bad_lines(err);
        assert_eq!(lines.iter().map(|l| l.line).collect::<Vec<_>>(), [2, 4, 7]);
        assert_eq!(
            lines[1].reason,
            LineProblem::NotUtf8 {
                byte: 0xff,
                column: 2
            }
        );
        assert!(
            msg.contains("bad.dcfg:2: `Fx5`: `x` is not a colour"),
            "{msg}"
        );
        assert!(
            msg.contains("bad.dcfg:4: `F\u{fffd}r4`: byte 0xff at column 2 is not UTF-8 text"),
            "{msg}"
        );
        assert!(msg.contains("bad.dcfg:7: `zz`"), "{msg}");
    }

    #[test]
    fn too_small_decks() {
        let err = Deck::parse_dcfg("Wb8\nWb8\nSo3\nFr4\nFo5\n", "small.dcfg").unwrap_err();
        assert_eq!(
            err,
            DeckError::TooSmall {
                source_name: "small.dcfg".into(),
                distinct: 4,
                entries: 5,
            }
        );
        assert!(err.to_string().starts_with("small.dcfg: "), "{err}");
        assert_eq!(err.line(), None);
        assert!(Deck::parse_dcfg("", "empty").is_err());
        assert!(Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nFo6", "ok").is_ok());
        // Without replacement, five entries fill a hand, equal ones too.
        assert!(
            Deck::parse_dcfg("draw: without replacement\nWb8\nWb8\nWb8\nWb8\nWb8", "ok").is_ok()
        );
        assert!(Deck::parse_dcfg("draw: without replacement\nWb8\nSo3\nFr4\nFo5", "x").is_err());
    }

    #[test]
    fn serde_keeps_the_draw_and_checks_the_deck() {
        let d = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nFoA", "x").unwrap();
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(
            json,
            r#"{"cards":["Wb8","So3","Fr4","Fo5","FoA"],"draw":"with-replacement"}"#
        );
        assert_eq!(serde_json::from_str::<Deck>(&json).unwrap(), d);
        let c = Deck::championship();
        let back: Deck = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        assert!(serde_json::from_str::<Deck>(r#"{"cards":["Wb8","Wb8"]}"#).is_err());
    }
}

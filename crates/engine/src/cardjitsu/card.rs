//! Cards and their DeckConfig spelling (`FpA`: element, colour, hex number).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A card's element; decides rounds between cards of different elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Element {
    #[serde(rename = "F")]
    Fire,
    #[serde(rename = "W")]
    Water,
    #[serde(rename = "S")]
    Snow,
}

impl Element {
    /// All elements, in their canonical order.
    pub const ALL: [Element; 3] = [Element::Fire, Element::Water, Element::Snow];

    /// Position in [`Element::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The DeckConfig letter (uppercase).
    pub const fn letter(self) -> char {
        match self {
            Element::Fire => 'F',
            Element::Water => 'W',
            Element::Snow => 'S',
        }
    }

    /// Reads a DeckConfig letter; only the uppercase letter is accepted.
    pub const fn from_letter(letter: char) -> Option<Element> {
        match letter {
            'F' => Some(Element::Fire),
            'W' => Some(Element::Water),
            'S' => Some(Element::Snow),
            _ => None,
        }
    }

    /// The English name, for human-readable output.
    pub const fn name(self) -> &'static str {
        match self {
            Element::Fire => "Fire",
            Element::Water => "Water",
            Element::Snow => "Snow",
        }
    }

    /// Whether `self` beats `other` when two different elements meet:
    /// Fire beats Snow, Snow beats Water, Water beats Fire.
    #[inline]
    pub const fn beats(self, other: Element) -> bool {
        matches!(
            (self, other),
            (Element::Fire, Element::Snow)
                | (Element::Snow, Element::Water)
                | (Element::Water, Element::Fire)
        )
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Element {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Element::from_letter(c).ok_or(CardParseError::Element(c)),
            _ => Err(CardParseError::Length(s.to_owned())),
        }
    }
}

/// A card's colour; only matters for the winning triple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    #[serde(rename = "r")]
    Red,
    #[serde(rename = "b")]
    Blue,
    #[serde(rename = "g")]
    Green,
    #[serde(rename = "y")]
    Yellow,
    #[serde(rename = "o")]
    Orange,
    #[serde(rename = "p")]
    Purple,
}

impl Colour {
    /// All colours, in their canonical order.
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Yellow,
        Colour::Orange,
        Colour::Purple,
    ];

    /// Position in [`Colour::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The DeckConfig letter (lowercase).
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
            Colour::Green => 'g',
            Colour::Yellow => 'y',
            Colour::Orange => 'o',
            Colour::Purple => 'p',
        }
    }

    /// Reads a DeckConfig letter; only the lowercase letter is accepted.
    pub const fn from_letter(letter: char) -> Option<Colour> {
        match letter {
            'r' => Some(Colour::Red),
            'b' => Some(Colour::Blue),
            'g' => Some(Colour::Green),
            'y' => Some(Colour::Yellow),
            'o' => Some(Colour::Orange),
            'p' => Some(Colour::Purple),
            _ => None,
        }
    }

    /// The English name, for human-readable output.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Blue => "Blue",
            Colour::Green => "Green",
            Colour::Yellow => "Yellow",
            Colour::Orange => "Orange",
            Colour::Purple => "Purple",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Colour {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Colour::from_letter(c).ok_or(CardParseError::Colour(c)),
            _ => Err(CardParseError::Length(s.to_owned())),
        }
    }
}

/// Why a card (or an element or colour) could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardParseError {
    #[error("`{0}` is not 3 characters long")]
    Length(String),
    #[error("`{0}` is not an element (expected F, W or S)")]
    Element(char),
    #[error("`{0}` is not a colour (expected r, b, g, y, o or p)")]
    Colour(char),
    #[error("`{0}` is not a number (expected one hex digit 0-9 or A-F)")]
    Number(char),
    #[error("{0} is out of range (expected 0 to 15)")]
    NumberOutOfRange(u8),
}

/// One CardJitsu card, written `FpA` (Fire, purple, 10).
///
/// Ordered by element, then colour, then number (the canonical orders of
/// [`Element::ALL`] and [`Colour::ALL`]). Serialized as its 3-character
/// string.
///
/// Held in two bytes (number in bits 0-3, colour in bits 4-6, element in
/// bits 7-8), so that comparing, copying and classifying cards in a
/// searching bot's playouts are single integer operations, and the derived
/// order of the bits is the card order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u16);

/// As the card's parts, the way it printed before it was packed.
impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Card")
            .field("element", &self.element())
            .field("colour", &self.colour())
            .field("number", &self.number())
            .finish()
    }
}

impl Card {
    /// The number of power cards (`A`).
    pub const POWER_NUMBER: u8 = 10;

    /// The first card in card order, `Fr0`.
    pub(crate) const LOWEST: Card = Card(0);

    /// A card; `number` must be a single hex digit (0 to 15).
    pub const fn new(element: Element, colour: Colour, number: u8) -> Result<Card, CardParseError> {
        if number > 15 {
            return Err(CardParseError::NumberOutOfRange(number));
        }
        Ok(Card(
            ((element as u16) << 7) | ((colour as u16) << 4) | number as u16,
        ))
    }

    /// The card's element.
    #[inline]
    pub const fn element(self) -> Element {
        match self.0 >> 7 {
            0 => Element::Fire,
            1 => Element::Water,
            _ => Element::Snow,
        }
    }

    /// The card's colour.
    #[inline]
    pub const fn colour(self) -> Colour {
        match (self.0 >> 4) & 7 {
            0 => Colour::Red,
            1 => Colour::Blue,
            2 => Colour::Green,
            3 => Colour::Yellow,
            4 => Colour::Orange,
            _ => Colour::Purple,
        }
    }

    /// How many values [`Card::index`] takes.
    pub const INDEX_COUNT: usize = 3 * 6 * 16;

    /// A dense index of the card, below [`Card::INDEX_COUNT`], in card
    /// order: for tables indexed by card.
    #[inline]
    pub const fn index(self) -> usize {
        (self.element_index() * 6 + self.colour_index()) * 16 + self.number() as usize
    }

    /// The card's number, 0 to 15.
    #[inline]
    pub const fn number(self) -> u8 {
        (self.0 & 15) as u8
    }

    /// Whether this is a power card (number 10), whose win activates
    /// Reverse under the tournament rules.
    #[inline]
    pub const fn is_power(self) -> bool {
        self.number() == Self::POWER_NUMBER
    }

    /// [`Element::index`] of the card's element, without the enum.
    #[inline]
    pub(crate) const fn element_index(self) -> usize {
        (self.0 >> 7) as usize
    }

    /// [`Colour::index`] of the card's colour, without the enum.
    #[inline]
    pub(crate) const fn colour_index(self) -> usize {
        ((self.0 >> 4) & 7) as usize
    }

    /// The seed's human-readable form:
    /// `Card Element: Fire,   Card Color: Red,     Card Level: 4`.
    pub fn describe(self) -> String {
        format!(
            "Card Element: {:<8}Card Color: {:<9}Card Level: {}",
            format!("{},", self.element().name()),
            format!("{},", self.colour().name()),
            self.number()
        )
    }

    /// The older Card-Jitsu challenge's spelling: element, uppercase colour,
    /// decimal number (`SG10`), as the interactive classic game shows it.
    pub fn classic_name(self) -> String {
        format!(
            "{}{}{}",
            self.element().letter(),
            self.colour().letter().to_ascii_uppercase(),
            self.number()
        )
    }
}

/// A list of cards in the older challenge's spelling: `[FO5,WG6,WY9]`
/// (see [`Card::classic_name`]).
pub fn classic_list(cards: &[Card]) -> String {
    let names: Vec<String> = cards.iter().map(|c| c.classic_name()).collect();
    format!("[{}]", names.join(","))
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{:X}", self.element(), self.colour(), self.number())
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    /// Reads exactly three characters; the element must be uppercase and
    /// the colour lowercase, while the hex digit may be either case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let (Some(e), Some(c), Some(n), None) =
            (chars.next(), chars.next(), chars.next(), chars.next())
        else {
            return Err(CardParseError::Length(s.to_owned()));
        };
        let element = Element::from_letter(e).ok_or(CardParseError::Element(e))?;
        let colour = Colour::from_letter(c).ok_or(CardParseError::Colour(c))?;
        let number = n.to_digit(16).ok_or(CardParseError::Number(n))?;
        // to_digit(16) is at most 15, so the narrowing is lossless.
        Card::new(element, colour, number as u8)
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardVisitor;

        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card like `FpA`")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Card, E> {
                v.parse().map_err(E::custom)
            }
        }

        deserializer.deserialize_str(CardVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_canonically() {
        let c = card("FpA");
        assert_eq!(c.element(), Element::Fire);
        assert_eq!(c.colour(), Colour::Purple);
        assert_eq!(c.number(), 10);
        assert!(c.is_power());
        assert_eq!(c.to_string(), "FpA");
        assert_eq!(card("Fpa"), c);
        assert_eq!(card("Fpa").to_string(), "FpA");
        assert_eq!(card("Wo5").to_string(), "Wo5");
        assert!(!card("Wo5").is_power());
        assert_eq!(card("Sb0").number(), 0);
        assert_eq!(card("Sbf").number(), 15);
    }

    #[test]
    fn classic_names_are_spelt_like_seed_000() {
        assert_eq!(card("SgA").classic_name(), "SG10");
        assert_eq!(card("Fb4").classic_name(), "FB4");
        assert_eq!(card("Wp2").classic_name(), "WP2");
        assert_eq!(
            classic_list(&[card("SgA"), card("Fb4"), card("WyC")]),
            "[SG10,FB4,WY12]"
        );
        assert_eq!(classic_list(&[]), "[]");
    }

    #[test]
    fn every_card_round_trips() {
        for e in Element::ALL {
            for c in Colour::ALL {
                for n in 0..=15 {
                    let card = Card::new(e, c, n).unwrap();
                    assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_cards() {
        assert_eq!("fpA".parse::<Card>(), Err(CardParseError::Element('f')));
        assert_eq!("FPA".parse::<Card>(), Err(CardParseError::Colour('P')));
        assert_eq!("FxA".parse::<Card>(), Err(CardParseError::Colour('x')));
        assert_eq!("Ipa".parse::<Card>(), Err(CardParseError::Element('I')));
        assert_eq!("FpG".parse::<Card>(), Err(CardParseError::Number('G')));
        assert_eq!(
            "Fp10".parse::<Card>(),
            Err(CardParseError::Length("Fp10".into()))
        );
        assert_eq!(
            "Fp".parse::<Card>(),
            Err(CardParseError::Length("Fp".into()))
        );
        assert_eq!("".parse::<Card>(), Err(CardParseError::Length("".into())));
        assert!(" FpA".parse::<Card>().is_err());
        assert_eq!(
            Card::new(Element::Fire, Colour::Red, 16),
            Err(CardParseError::NumberOutOfRange(16))
        );
    }

    #[test]
    fn element_and_colour_letters() {
        for e in Element::ALL {
            assert_eq!(e.to_string().parse::<Element>().unwrap(), e);
            assert_eq!(Element::ALL[e.index()], e);
        }
        for c in Colour::ALL {
            assert_eq!(c.to_string().parse::<Colour>().unwrap(), c);
            assert_eq!(Colour::ALL[c.index()], c);
        }
        assert!("f".parse::<Element>().is_err());
        assert!("R".parse::<Colour>().is_err());
        assert!("rb".parse::<Colour>().is_err());
    }

    #[test]
    fn element_cycle() {
        use Element::*;
        assert!(Fire.beats(Snow) && Snow.beats(Water) && Water.beats(Fire));
        assert!(!Snow.beats(Fire) && !Water.beats(Snow) && !Fire.beats(Water));
        assert!(!Fire.beats(Fire));
    }

    #[test]
    fn serde_uses_the_card_string() {
        let c = card("Sgb");
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"SgB\"");
        assert_eq!(serde_json::from_str::<Card>("\"Sgb\"").unwrap(), c);
        assert!(serde_json::from_str::<Card>("\"sgB\"").is_err());
        assert_eq!(serde_json::to_string(&Element::Snow).unwrap(), "\"S\"");
        assert_eq!(serde_json::to_string(&Colour::Yellow).unwrap(), "\"y\"");
    }

    #[test]
    fn describes_like_the_seed() {
        assert_eq!(
            card("Fr4").describe(),
            "Card Element: Fire,   Card Color: Red,     Card Level: 4"
        );
    }
}

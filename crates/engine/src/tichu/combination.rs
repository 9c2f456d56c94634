//! What a set of cards forms: its kind, length and height.

use std::fmt;

use super::card::{Card, Play, rank_name};

/// The kind of a combination. A play beats another only of the same
/// kind and length, unless it is a bomb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One card.
    Single,
    /// Two of a rank.
    Pair,
    /// Three of a rank.
    Triple,
    /// Three of a rank and two of another.
    FullHouse,
    /// Five or more consecutive ranks.
    Straight,
    /// Two or more pairs of consecutive ranks.
    Tractor,
    /// Four of a rank, without the phoenix.
    Bomb,
    /// The dog, alone, on lead.
    Dog,
}

impl Kind {
    /// The kind's name in prose.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::FullHouse => "full house",
            Kind::Straight => "straight",
            Kind::Tractor => "tractor",
            Kind::Bomb => "bomb",
            Kind::Dog => "dog",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Height of the dragon as a single, in half ranks.
const DRAGON: u8 = 30;
/// Height of the phoenix led alone: 1½.
const PHOENIX_LED: u8 = 3;

/// One reading of a play: kind, number of cards and height.
///
/// The height is counted in half ranks, so that the phoenix single can be
/// half a rank above the single it beats: a single 9 is 18, the phoenix
/// on it 19. The height of a full house is its triple's, of a straight
/// or tractor its top rank's, of a bomb its rank's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combination {
    kind: Kind,
    len: usize,
    height: u8,
}

impl Combination {
    fn new(kind: Kind, len: usize, rank: u8) -> Combination {
        Combination {
            kind,
            len,
            height: rank * 2,
        }
    }

    /// The combination's kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Its number of cards.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no cards (never: every combination has at least one).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its height in half ranks (twice the deciding rank; odd only for a
    /// phoenix single).
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Whether this is the dragon alone.
    pub fn is_dragon(&self) -> bool {
        self.kind == Kind::Single && self.height == DRAGON
    }

    /// Whether this is the phoenix alone.
    pub fn is_phoenix(&self) -> bool {
        self.kind == Kind::Single && self.height % 2 == 1
    }

    /// The phoenix alone, played on the single `below`: half a rank above
    /// it. `None` on the dragon (the phoenix never beats it) and on the
    /// phoenix itself.
    pub fn phoenix_over(below: &Combination) -> Option<Combination> {
        if below.kind != Kind::Single || below.is_dragon() || below.is_phoenix() {
            return None;
        }
        Some(Combination {
            kind: Kind::Single,
            len: 1,
            height: below.height + 1,
        })
    }

    /// The phoenix led alone (worth 1½).
    pub fn phoenix_led() -> Combination {
        Combination {
            kind: Kind::Single,
            len: 1,
            height: PHOENIX_LED,
        }
    }
}

impl fmt::Display for Combination {
    /// In prose: `a pair of 7s`, `a straight of 6 cards from 4 to 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let top = rank_name(self.height / 2);
        let low = |step: usize| rank_name(self.height / 2 + 1 - (self.len / step) as u8);
        match self.kind {
            Kind::Single if self.is_dragon() => f.write_str("the dragon"),
            Kind::Single if self.is_phoenix() => write!(f, "the phoenix (worth {top}½)"),
            Kind::Single if self.height == 2 => f.write_str("the Mah Jong"),
            Kind::Single => write!(f, "a single {top}"),
            Kind::Pair => write!(f, "a pair of {top}s"),
            Kind::Triple => write!(f, "a triple of {top}s"),
            Kind::FullHouse => write!(f, "a full house with three {top}s"),
            Kind::Straight => write!(
                f,
                "a straight of {} cards from {} to {top}",
                self.len,
                low(1)
            ),
            Kind::Tractor => write!(
                f,
                "a tractor of {} pairs from {} to {top}",
                self.len / 2,
                low(2)
            ),
            Kind::Bomb => write!(f, "a bomb of four {top}s"),
            Kind::Dog => f.write_str("the dog"),
        }
    }
}

/// Counts of each rank: index 1 is the Mah Jong, 2 to 14 the numbered
/// ranks.
type Counts = [u8; 15];

/// What the cards form without the dragon, phoenix and dog.
fn plain(counts: &Counts, n: usize) -> Option<Combination> {
    let present: Vec<(u8, u8)> = (1..=14u8)
        .filter(|&r| counts[usize::from(r)] > 0)
        .map(|r| (r, counts[usize::from(r)]))
        .collect();
    let (low, top) = (present.first()?.0, present.last()?.0);
    let span = usize::from(top - low) + 1;
    if n == 1 {
        return Some(Combination::new(Kind::Single, 1, top));
    }
    if n >= 5 && present.iter().all(|&(_, c)| c == 1) && span == n {
        return Some(Combination::new(Kind::Straight, n, top));
    }
    // The Mah Jong plays only alone or in a straight.
    if low == 1 {
        return None;
    }
    let shape: Vec<u8> = present.iter().map(|&(_, c)| c).collect();
    match (n, shape.as_slice()) {
        (2, [2]) => Some(Combination::new(Kind::Pair, 2, top)),
        (3, [3]) => Some(Combination::new(Kind::Triple, 3, top)),
        (4, [4]) => Some(Combination::new(Kind::Bomb, 4, top)),
        (5, [3, 2]) => Some(Combination::new(Kind::FullHouse, 5, low)),
        (5, [2, 3]) => Some(Combination::new(Kind::FullHouse, 5, top)),
        _ if n >= 4 && shape.iter().all(|&c| c == 2) && span * 2 == n => {
            Some(Combination::new(Kind::Tractor, n, top))
        }
        _ => None,
    }
}

/// Every combination `play` can be read as, highest first: more than one
/// only when the phoenix can stand for different ranks. A phoenix single
/// is read as led (1½; see [`Combination::phoenix_over`]). Empty if the
/// cards form no combination.
pub fn readings(play: &Play) -> Vec<Combination> {
    let cards = play.cards();
    let n = cards.len();
    let has = |card| cards.contains(&card);
    if n == 0 {
        return Vec::new();
    }
    if has(Card::Dog) || has(Card::Dragon) {
        return match (n, cards[0]) {
            (1, Card::Dog) => vec![Combination {
                kind: Kind::Dog,
                len: 1,
                height: 0,
            }],
            (1, _) => vec![Combination::new(Kind::Single, 1, DRAGON / 2)],
            _ => Vec::new(),
        };
    }
    let mut counts: Counts = [0; 15];
    for card in cards {
        match card {
            Card::MahJong => counts[1] += 1,
            Card::Number(r) => counts[usize::from(r.get())] += 1,
            _ => {}
        }
    }
    if !has(Card::Phoenix) {
        return plain(&counts, n).into_iter().collect();
    }
    if n == 1 {
        return vec![Combination::phoenix_led()];
    }
    // The phoenix stands for any rank 2 to ace, never in a bomb.
    let mut found: Vec<Combination> = (2..=14)
        .filter_map(|r| {
            let mut with = counts;
            with[r] += 1;
            plain(&with, n).filter(|c| c.kind != Kind::Bomb)
        })
        .collect();
    found.sort_by_key(|c| std::cmp::Reverse(c.height));
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Vec<String> {
        readings(&s.parse().unwrap())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn each_kind_is_recognised_and_described() {
        assert_eq!(read("6"), ["a single 6"]);
        assert_eq!(read("0"), ["a single 10"]);
        assert_eq!(read("1"), ["the Mah Jong"]);
        assert_eq!(read("R"), ["the dragon"]);
        assert_eq!(read("P"), ["the phoenix (worth 1½)"]);
        assert_eq!(read("D"), ["the dog"]);
        assert_eq!(read("JJ"), ["a pair of Js"]);
        assert_eq!(read("555"), ["a triple of 5s"]);
        assert_eq!(read("44499"), ["a full house with three 4s"]);
        assert_eq!(read("72727"), ["a full house with three 7s"]);
        assert_eq!(read("12345"), ["a straight of 5 cards from 1 to 5"]);
        assert_eq!(read("0JQKA"), ["a straight of 5 cards from 10 to A"]);
        assert_eq!(read("223344"), ["a tractor of 3 pairs from 2 to 4"]);
        assert_eq!(read("5555"), ["a bomb of four 5s"]);
    }

    #[test]
    fn non_combinations_have_no_reading() {
        for s in [
            "1234", "223355", "777JJJ", "RP", "R5", "D5", "1P", "12", "777P", "6677889", "AAKK2",
        ] {
            assert!(read(s).is_empty(), "{s}: {:?}", read(s));
        }
    }

    #[test]
    fn the_phoenix_gives_every_reading_highest_first() {
        assert_eq!(read("7P"), ["a pair of 7s"]);
        assert_eq!(
            read("7788P"),
            ["a full house with three 8s", "a full house with three 7s"]
        );
        assert_eq!(
            read("3456P"),
            [
                "a straight of 5 cards from 3 to 7",
                "a straight of 5 cards from 2 to 6"
            ]
        );
        assert_eq!(read("2345P"), ["a straight of 5 cards from 2 to 6"]);
        assert_eq!(
            read("0JQKP"),
            [
                "a straight of 5 cards from 10 to A",
                "a straight of 5 cards from 9 to K"
            ]
        );
        assert_eq!(read("5P304967"), ["a straight of 8 cards from 3 to 10"]);
    }

    #[test]
    fn phoenix_over_a_single_is_half_a_rank_higher() {
        let nine = readings(&"9".parse().unwrap())[0];
        let over = Combination::phoenix_over(&nine).unwrap();
        assert_eq!(over.to_string(), "the phoenix (worth 9½)");
        assert_eq!(over.height(), nine.height() + 1);
        let dragon = readings(&"R".parse().unwrap())[0];
        assert_eq!(Combination::phoenix_over(&dragon), None);
        assert_eq!(Combination::phoenix_over(&Combination::phoenix_led()), None);
    }
}

//! A player's won cards and the winning-triple check.
//!
//! Three cards win when their colours all differ and their elements are
//! either all the same or all different. Numbers never matter, so only
//! which (element, colour) pairs a pile holds counts; and since the game
//! ends at the first triple, a new triple must contain the card just added.
//! So each push looks at the at most 30 ways of completing a triple with
//! the new card instead of at every triple of the pile.

use super::card::Card;

const ELEMENTS: usize = 3;
const COLOURS: usize = 6;

/// Marks an (element, colour) the pile does not hold in [`Pile`]'s `first`.
const NONE: u32 = u32::MAX;

/// The cards one player has won, in the order won (duplicates allowed).
#[derive(Debug, PartialEq, Eq)]
pub struct Pile {
    cards: Vec<Card>,
    /// Position of the first card of each (element, colour) in `cards`, or
    /// [`NONE`].
    first: [[u32; COLOURS]; ELEMENTS],
    /// Per element, a bit per colour the pile holds: the quick test of
    /// whether a card can complete a triple at all.
    colours: [u8; ELEMENTS],
    /// Positions of the first winning triple, in pile order.
    triple: Option<[usize; 3]>,
}

impl Default for Pile {
    fn default() -> Pile {
        Pile {
            cards: Vec::new(),
            first: [[NONE; COLOURS]; ELEMENTS],
            colours: [0; ELEMENTS],
            triple: None,
        }
    }
}

impl Clone for Pile {
    fn clone(&self) -> Pile {
        Pile {
            cards: self.cards.clone(),
            first: self.first,
            colours: self.colours,
            triple: self.triple,
        }
    }

    /// Reuses `self`'s allocation (searches copy piles often).
    fn clone_from(&mut self, source: &Pile) {
        self.cards.clone_from(&source.cards);
        self.first = source.first;
        self.colours = source.colours;
        self.triple = source.triple;
    }
}

/// The colours (0 to 5) whose bits are set in `bits`, lowest first.
fn colours_in(mut bits: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let k = bits.trailing_zeros() as usize;
        bits &= bits.wrapping_sub(1);
        (k < 8).then_some(k)
    })
}

impl Pile {
    /// An empty pile.
    pub fn new() -> Pile {
        Pile::default()
    }

    /// The cards, in the order won.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of cards won.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether no card has been won yet.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Adds a won card. Returns the winning triple (in pile order) if this
    /// card completed the pile's first one.
    #[inline]
    pub fn push(&mut self, card: Card) -> Option<[Card; 3]> {
        let at = self.cards.len();
        self.cards.push(card);
        let (e, k) = (card.element_index(), card.colour_index());
        let mut completed = None;
        if self.triple.is_none()
            && self.may_complete(e, k)
            && let Some((i, j)) = self.best_pair(e, k)
        {
            self.triple = Some([i, j, at]);
            completed = self.winning_triple();
        }
        let first = &mut self.first[e][k];
        if *first == NONE {
            // A pile longer than u32 positions would need more rounds than
            // a game's u32 round cap allows.
            *first = u32::try_from(at).unwrap_or(NONE - 1);
        }
        self.colours[e] |= 1 << k;
        completed
    }

    /// The first winning triple the pile formed, in pile order. When the
    /// card that completed it could complete several, the one using the
    /// earliest cards (by position, lexicographically) is reported.
    pub fn winning_triple(&self) -> Option<[Card; 3]> {
        self.triple.map(|t| t.map(|i| self.cards[i]))
    }

    /// Positions in [`Pile::cards`] of the winning triple.
    pub fn winning_positions(&self) -> Option<[usize; 3]> {
        self.triple
    }

    /// Whether adding `card` would complete a triple (ignoring any triple
    /// the pile already has).
    pub fn completes_triple(&self, card: Card) -> bool {
        self.may_complete(card.element_index(), card.colour_index())
    }

    /// Whether some pair of held cards makes a triple with a card of
    /// element `e` and colour `k`, from the colour bits alone: two other
    /// colours of `e`, or a colour of each other element, the two
    /// different from each other and from `k`.
    #[inline]
    fn may_complete(&self, e: usize, k: usize) -> bool {
        // `x & (x - 1)` clears the lowest bit: non-zero when `x` has at
        // least two (no popcount instruction needed).
        let two_or_more = |x: u8| x & x.wrapping_sub(1) != 0;
        let others = !(1u8 << k);
        if two_or_more(self.colours[e] & others) {
            return true;
        }
        let a = self.colours[(e + 1) % ELEMENTS] & others;
        let b = self.colours[(e + 2) % ELEMENTS] & others;
        // A colour of each, unless both hold only the same one colour.
        a != 0 && b != 0 && (a != b || two_or_more(a))
    }

    /// Among the pairs of earlier cards that make a triple with a card of
    /// element `e` and colour `k`, the one with the earliest positions.
    /// Runs once a game (when the triple forms), over the colours held.
    fn best_pair(&self, e: usize, k: usize) -> Option<(usize, usize)> {
        let others = !(1u8 << k);
        let mut best: Option<(u32, u32)> = None;
        let mut consider = |a: u32, b: u32| {
            let pair = (a.min(b), a.max(b));
            if best.is_none_or(|cur| pair < cur) {
                best = Some(pair);
            }
        };
        // Same element, three different colours.
        let same = self.colours[e] & others;
        for k1 in colours_in(same) {
            for k2 in colours_in(same & !((2u8 << k1) - 1)) {
                consider(self.first[e][k1], self.first[e][k2]);
            }
        }
        // Three different elements, three different colours.
        let (ea, eb) = ((e + 1) % ELEMENTS, (e + 2) % ELEMENTS);
        for k1 in colours_in(self.colours[ea] & others) {
            for k2 in colours_in(self.colours[eb] & others & !(1u8 << k1)) {
                consider(self.first[ea][k1], self.first[eb][k2]);
            }
        }
        best.map(|(a, b)| (a as usize, b as usize))
    }
}

/// Whether three cards form a winning triple: colours all different, and
/// elements all the same or all different.
pub fn is_winning_triple(cards: [Card; 3]) -> bool {
    let [a, b, c] = cards;
    let colours_differ =
        a.colour() != b.colour() && a.colour() != c.colour() && b.colour() != c.colour();
    let same = a.element() == b.element() && b.element() == c.element();
    let all_differ =
        a.element() != b.element() && a.element() != c.element() && b.element() != c.element();
    colours_differ && (same || all_differ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cardjitsu::card::{Colour, Element};
    use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// The reference answer: every triple that ends with the newest card,
    /// earliest pair first.
    fn brute_force(cards: &[Card]) -> Option<[usize; 3]> {
        let n = cards.len().checked_sub(1)?;
        for i in 0..n {
            for j in i + 1..n {
                if is_winning_triple([cards[i], cards[j], cards[n]]) {
                    return Some([i, j, n]);
                }
            }
        }
        None
    }

    fn any_triple(cards: &[Card]) -> bool {
        let n = cards.len();
        (0..n).any(|i| {
            (i + 1..n)
                .any(|j| (j + 1..n).any(|k| is_winning_triple([cards[i], cards[j], cards[k]])))
        })
    }

    #[test]
    fn triple_rule() {
        assert!(is_winning_triple([card("WoA"), card("Fb3"), card("SgA")]));
        assert!(is_winning_triple([card("Wo2"), card("Wb3"), card("Wg4")]));
        assert!(!is_winning_triple([card("Wo2"), card("Wo3"), card("Wg4")]));
        assert!(!is_winning_triple([card("Wo2"), card("Wb3"), card("Fg4")]));
        assert!(!is_winning_triple([card("Wo2"), card("Fb3"), card("So4")]));
    }

    #[test]
    fn matches_brute_force_on_random_piles() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let mut wins = 0;
        for trial in 0..4000 {
            // Few colours in some trials so triples come late or never.
            let colours = 2 + trial % 5;
            let elements = 1 + trial % 3;
            let mut pile = Pile::new();
            let mut cards = Vec::new();
            let mut first: Option<[usize; 3]> = None;
            for _ in 0..rng.random_range(1..25) {
                let c = Card::new(
                    Element::ALL[rng.random_range(0..elements)],
                    Colour::ALL[rng.random_range(0..colours)],
                    rng.random_range(0..16),
                )
                .unwrap();
                cards.push(c);
                let completed = pile.push(c);
                let expected_new = if first.is_none() {
                    brute_force(&cards)
                } else {
                    None
                };
                if let Some(t) = expected_new {
                    first = Some(t);
                    assert_eq!(completed, Some(t.map(|i| cards[i])), "{cards:?}");
                } else {
                    assert_eq!(completed, None, "{cards:?}");
                }
                assert_eq!(pile.winning_positions(), first);
                assert_eq!(pile.winning_triple().is_some(), any_triple(&cards));
                assert_eq!(pile.cards(), &cards[..]);
            }
            wins += usize::from(first.is_some());
        }
        // Both outcomes must be well represented for the test to mean much.
        assert!(wins > 1000 && wins < 3500, "{wins}");
    }

    #[test]
    fn completes_triple_agrees_with_push() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..2000 {
            let mut pile = Pile::new();
            for _ in 0..rng.random_range(0..6) {
                let c = Card::new(
                    Element::ALL[rng.random_range(0..3)],
                    Colour::ALL[rng.random_range(0..6)],
                    5,
                )
                .unwrap();
                pile.push(c);
            }
            if pile.winning_triple().is_some() {
                continue;
            }
            let c = Card::new(
                Element::ALL[rng.random_range(0..3)],
                Colour::ALL[rng.random_range(0..6)],
                5,
            )
            .unwrap();
            let predicted = pile.completes_triple(c);
            assert_eq!(pile.push(c).is_some(), predicted);
        }
    }

    #[test]
    fn reports_cards_in_pile_order_and_keeps_the_first_triple() {
        let mut pile = Pile::new();
        assert_eq!(pile.push(card("WoA")), None);
        assert_eq!(pile.push(card("Wo2")), None);
        assert_eq!(pile.push(card("Fb3")), None);
        assert_eq!(
            pile.push(card("SgA")),
            Some([card("WoA"), card("Fb3"), card("SgA")])
        );
        assert_eq!(pile.push(card("Sr2")), None);
        assert_eq!(
            pile.winning_triple(),
            Some([card("WoA"), card("Fb3"), card("SgA")])
        );
        assert_eq!(pile.winning_positions(), Some([0, 2, 3]));
        assert_eq!(pile.len(), 5);
    }
}

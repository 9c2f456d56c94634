//! Piles as sets of (element, colour) combinations, and the triples.
//!
//! Numbers never matter for a triple, so a pile is an 18-bit mask with one
//! bit per (element, colour). The 180 winning triples (60 of one element,
//! 120 of three elements) are masks of three bits each, so "which cards
//! would complete a triple" is a scan of 180 masks.

use dojo_engine::cardjitsu::Card;

const COLOURS: usize = 6;
const ELEMENTS: usize = 3;

/// Number of (element, colour) combinations.
pub const COMBOS: usize = ELEMENTS * COLOURS;

/// A set of combinations, one bit per [`combo`] index.
pub type ComboSet = u32;

/// The combination index of a card: `element * 6 + colour`.
pub fn combo(card: Card) -> usize {
    card.element().index() * COLOURS + card.colour().index()
}

/// The bit of a card's combination.
pub fn bit(card: Card) -> ComboSet {
    1 << combo(card)
}

const fn bit_of(element: usize, colour: usize) -> ComboSet {
    1 << (element * COLOURS + colour)
}

const TRIPLE_COUNT: usize = 180;

/// Every winning triple as a 3-bit mask.
const TRIPLES: [ComboSet; TRIPLE_COUNT] = build_triples();

const fn build_triples() -> [ComboSet; TRIPLE_COUNT] {
    let mut out = [0; TRIPLE_COUNT];
    let mut n = 0;
    // One element, three different colours.
    let mut e = 0;
    while e < ELEMENTS {
        let mut a = 0;
        while a < COLOURS {
            let mut b = a + 1;
            while b < COLOURS {
                let mut c = b + 1;
                while c < COLOURS {
                    out[n] = bit_of(e, a) | bit_of(e, b) | bit_of(e, c);
                    n += 1;
                    c += 1;
                }
                b += 1;
            }
            a += 1;
        }
        e += 1;
    }
    // Fire, Water and Snow in three different colours.
    let mut a = 0;
    while a < COLOURS {
        let mut b = 0;
        while b < COLOURS {
            let mut c = 0;
            while c < COLOURS {
                if a != b && a != c && b != c {
                    out[n] = bit_of(0, a) | bit_of(1, b) | bit_of(2, c);
                    n += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    assert!(n == TRIPLE_COUNT);
    out
}

/// What a pile offers: which combinations would win at once, and how many
/// triples are half built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Prospects {
    /// Combinations that complete a triple (the pile's "outs").
    pub outs: ComboSet,
    /// Triples with exactly one of their combinations in the pile.
    pub started: u32,
    /// Whether the pile already holds a triple.
    pub won: bool,
}

/// The prospects of a pile.
pub fn prospects(pile: ComboSet) -> Prospects {
    let mut p = Prospects::default();
    for &t in &TRIPLES {
        match (t & pile).count_ones() {
            3 => p.won = true,
            2 => p.outs |= t & !pile,
            1 => p.started += 1,
            _ => {}
        }
    }
    p
}

/// Whether adding `card` to `pile` completes a triple.
pub fn completes(pile: ComboSet, card: Card) -> bool {
    prospects(pile).outs & bit(card) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use dojo_engine::cardjitsu::{Colour, Element, Pile};

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn triples_are_distinct_and_winning() {
        let mut seen = std::collections::BTreeSet::new();
        for t in TRIPLES {
            assert_eq!(t.count_ones(), 3);
            assert!(seen.insert(t));
        }
    }

    #[test]
    fn completes_agrees_with_the_engine_pile() {
        // Walk through a few deterministic piles and compare every card.
        let piles = [
            vec!["WoA", "Fb3"],
            vec!["Wo2", "Wb3"],
            vec!["Fr2", "Fr3", "Sg4"],
            vec!["Sy5"],
            vec![],
        ];
        for pile in piles {
            let mut engine = Pile::new();
            let mut mask = 0;
            for c in &pile {
                engine.push(card(c));
                mask |= bit(card(c));
            }
            for e in Element::ALL {
                for k in Colour::ALL {
                    let c = Card::new(e, k, 5).unwrap();
                    assert_eq!(
                        completes(mask, c),
                        engine.completes_triple(c),
                        "{pile:?} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn prospects_count_outs() {
        let p = prospects(bit(card("Wo2")) | bit(card("Wb3")));
        // Water in the four other colours, plus Fire/Snow pairs do not
        // count (two Waters cannot be in a three-element triple).
        assert_eq!(p.outs.count_ones(), 4);
        assert!(!p.won);
        assert!(prospects(bit(card("WoA")) | bit(card("Fb3")) | bit(card("SgA"))).won);
    }
}

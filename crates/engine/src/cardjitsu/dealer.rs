//! Where new cards come from: the [`Dealer`] trait and the default
//! deck-and-stream dealer.

use rand::RngExt;

use super::card::Card;
use super::deck::Deck;
use super::stream::Stream;

/// Supplies the cards a seat draws. Tests script it; games use
/// [`DeckDealer`].
pub trait Dealer {
    /// A new card for `seat` (0 or 1) that is not in `hand` (the cards
    /// the seat still holds: 0 to 4 of them). The game relies on this:
    /// a hand never holds a duplicate.
    fn draw(&mut self, seat: usize, hand: &[Card]) -> Card;
}

/// The default dealer: each seat draws from its own [`Deck`] with its own
/// random stream (stream 0 for seat 0, stream 1 for seat 1), so what a
/// seat is dealt depends only on the seed, that seat's deck and that
/// seat's own plays.
#[derive(Debug, Clone)]
pub struct DeckDealer {
    decks: [Deck; 2],
    rngs: [Stream; 2],
}

impl DeckDealer {
    /// The random stream id of `seat`'s deck.
    pub const fn stream_id(seat: usize) -> u64 {
        seat as u64
    }

    /// A dealer for the game with this seed.
    pub fn new(seed: u64, decks: [Deck; 2]) -> DeckDealer {
        DeckDealer {
            decks,
            rngs: [
                Stream::new(seed, Self::stream_id(0)),
                Stream::new(seed, Self::stream_id(1)),
            ],
        }
    }

    /// The decks, by seat.
    pub fn decks(&self) -> &[Deck; 2] {
        &self.decks
    }
}

impl Dealer for DeckDealer {
    /// Uniform over the deck's entries (duplicates weigh more) that are not
    /// in the hand, using exactly one random number per draw.
    fn draw(&mut self, seat: usize, hand: &[Card]) -> Card {
        let seat = seat.min(1);
        let entries = self.decks[seat].entries();
        let eligible = |c: &&Card| !hand.contains(c);
        let count = entries.iter().filter(eligible).count();
        // A deck has at least HAND_SIZE distinct cards and a hand being
        // refilled at most HAND_SIZE - 1, so `count` is never 0; the
        // fallback only keeps a broken caller from panicking.
        if count == 0 {
            return entries[0];
        }
        let pick = self.rngs[seat].rng().random_range(0..count);
        *entries
            .iter()
            .filter(eligible)
            .nth(pick)
            .unwrap_or(&entries[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_never_duplicate_the_hand_and_stay_in_the_deck() {
        let small = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSg8\nSg8\nWbA", "t").unwrap();
        for seed in 0..50 {
            let mut dealer = DeckDealer::new(seed, [Deck::standard(), small.clone()]);
            for seat in 0..2 {
                let deck = dealer.decks()[seat].clone();
                let mut hand = Vec::new();
                for _ in 0..5 {
                    let c = dealer.draw(seat, &hand);
                    assert!(!hand.contains(&c));
                    assert!(deck.entries().contains(&c));
                    hand.push(c);
                }
                for round in 0..200 {
                    hand.remove(round % 5);
                    let c = dealer.draw(seat, &hand);
                    assert!(!hand.contains(&c), "{c} already in {hand:?}");
                    assert!(deck.entries().contains(&c));
                    hand.push(c);
                }
            }
        }
    }

    #[test]
    fn duplicates_weigh_more() {
        let deck = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSg8\nSg8\nSg8", "t").unwrap();
        let mut dealer = DeckDealer::new(3, [deck.clone(), deck]);
        let hand: Vec<Card> = ["Wb8", "So3", "Fr4"].map(|s| s.parse().unwrap()).to_vec();
        let sg8: Card = "Sg8".parse().unwrap();
        let hits = (0..5000).filter(|_| dealer.draw(0, &hand) == sg8).count();
        // Fo5 : Sg8 is 1 : 4, so Sg8 comes up about 4000 times.
        assert!((3700..4300).contains(&hits), "{hits}");
    }

    #[test]
    fn each_seat_uses_its_own_stream() {
        let hand: Vec<Card> = Vec::new();
        let mut a = DeckDealer::new(9, [Deck::standard(), Deck::standard()]);
        let mut b = DeckDealer::new(9, [Deck::standard(), Deck::standard()]);
        // Interleaving draws of the other seat must not change a seat's cards.
        let a0: Vec<Card> = (0..20).map(|_| a.draw(0, &hand)).collect();
        let b0: Vec<Card> = (0..20)
            .map(|_| {
                b.draw(1, &hand);
                b.draw(0, &hand)
            })
            .collect();
        assert_eq!(a0, b0);
        let a1: Vec<Card> = (0..20).map(|_| a.draw(1, &hand)).collect();
        assert_ne!(a0, a1);
    }
}

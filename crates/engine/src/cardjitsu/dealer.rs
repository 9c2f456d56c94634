//! Where new cards come from: the [`Dealer`] trait and the default
//! deck-and-stream dealer.

use std::sync::Arc;

use rand::RngExt;

use super::HAND_SIZE;
use super::card::Card;
use super::deck::{Deck, Draw};
use super::hand::Hand;
use super::stream::Stream;

/// Supplies the cards a seat draws. Tests script it; games use
/// [`DeckDealer`].
pub trait Dealer {
    /// A new card for `seat` (0 or 1), given `hand` (the cards the seat
    /// still holds: 0 to 4 of them). A deck drawn with replacement never
    /// deals a card in `hand`; one drawn without replacement may (it deals
    /// its copies of a card listed twice).
    fn draw(&mut self, seat: usize, hand: &[Card]) -> Card;

    /// Makes `target` a copy of this dealer that draws from fast random
    /// streams seeded with `seed` instead of this dealer's own (see
    /// [`crate::cardjitsu::CardJitsu::playout_copy_into`]). The default
    /// copies the dealer as it is: a dealer without random streams (a
    /// scripted one, say) has nothing to reseed.
    fn copy_for_playout(&self, target: &mut Self, seed: u64)
    where
        Self: Clone,
    {
        let _ = seed;
        target.clone_from(self);
    }
}

/// A whole hand for `seat`, dealt card by card from `dealer` (each card
/// drawn against the cards dealt before it).
#[inline]
pub fn deal_hand<D: Dealer + ?Sized>(dealer: &mut D, seat: usize) -> Hand {
    let mut hand = Hand::new();
    for _ in 0..HAND_SIZE {
        let card = dealer.draw(seat, &hand);
        hand.push(card);
    }
    hand
}

/// The default dealer: each seat draws from its own [`Deck`] with its own
/// random stream (stream 0 for seat 0, stream 1 for seat 1), so what a
/// seat is dealt depends only on the seed, that seat's deck and that
/// seat's own plays. A deck drawn with replacement picks one entry per
/// draw; one drawn without replacement is shuffled once into the seat's
/// own copy, which is dealt card by card and, when it runs out, refilled
/// with the seat's played cards shuffled (see [`Draw`]).
///
/// The decks are shared, not copied, between clones (a searching bot
/// clones games often), and each comes with an index of where every card
/// sits in it, so a draw looks at the hand's few cards instead of scanning
/// the whole deck.
#[derive(Debug)]
pub struct DeckDealer {
    shared: Arc<Shared>,
    rngs: [Stream; 2],
    /// Decks drawn without replacement: what is left of each seat's
    /// shuffled copy, dealt from the end. Empty for a deck drawn with
    /// replacement, and before a seat's first draw.
    left: [Vec<Card>; 2],
}

impl Clone for DeckDealer {
    fn clone(&self) -> DeckDealer {
        DeckDealer {
            shared: Arc::clone(&self.shared),
            rngs: self.rngs.clone(),
            left: self.left.clone(),
        }
    }

    /// Keeps `self`'s share of the decks when it is the same (a search
    /// copies into the same target again and again).
    fn clone_from(&mut self, source: &DeckDealer) {
        if !Arc::ptr_eq(&self.shared, &source.shared) {
            self.shared = Arc::clone(&source.shared);
        }
        self.rngs.clone_from(&source.rngs);
        for (left, from) in self.left.iter_mut().zip(&source.left) {
            left.clone_from(from);
        }
    }
}

#[derive(Debug)]
struct Shared {
    decks: [Deck; 2],
    index: [Arc<DeckIndex>; 2],
}

/// Where each card sits in a deck's entries.
#[derive(Debug)]
struct DeckIndex {
    /// `positions[starts[k]..starts[k + 1]]` are the ascending positions of
    /// the card with index `k`.
    starts: Vec<u32>,
    positions: Vec<u32>,
    /// Whether no card is in the deck twice (the standard deck): then a
    /// card has at most one position.
    unique: bool,
}

impl DeckIndex {
    fn new(entries: &[Card]) -> DeckIndex {
        let mut starts = vec![0u32; Card::INDEX_COUNT + 1];
        for card in entries {
            starts[card.index() + 1] += 1;
        }
        for k in 0..Card::INDEX_COUNT {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut positions = vec![0u32; entries.len()];
        for (at, card) in entries.iter().enumerate() {
            let slot = &mut next[card.index()];
            positions[*slot as usize] = at as u32;
            *slot += 1;
        }
        let unique = starts.windows(2).all(|w| w[1] - w[0] <= 1);
        DeckIndex {
            starts,
            positions,
            unique,
        }
    }

    /// The index of `deck`; the standard deck's is built once and shared.
    fn of_deck(deck: &Deck) -> Arc<DeckIndex> {
        static STANDARD: std::sync::OnceLock<Arc<DeckIndex>> = std::sync::OnceLock::new();
        let standard = Deck::standard_ref();
        if deck == standard {
            return Arc::clone(
                STANDARD.get_or_init(|| Arc::new(DeckIndex::new(standard.entries()))),
            );
        }
        Arc::new(DeckIndex::new(deck.entries()))
    }

    fn of(&self, card: Card) -> &[u32] {
        let k = card.index();
        &self.positions[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// Hand positions gathered on the stack; more (a deck with many copies of
/// the cards in hand) take the scanning path.
const FAST_EXCLUDED: usize = 32;

impl DeckDealer {
    /// The random stream id of `seat`'s deck.
    pub const fn stream_id(seat: usize) -> u64 {
        seat as u64
    }

    /// A dealer for the game with this seed.
    pub fn new(seed: u64, decks: [Deck; 2]) -> DeckDealer {
        let index = [DeckIndex::of_deck(&decks[0]), DeckIndex::of_deck(&decks[1])];
        DeckDealer {
            shared: Arc::new(Shared { decks, index }),
            rngs: [
                Stream::new(seed, Self::stream_id(0)),
                Stream::new(seed, Self::stream_id(1)),
            ],
            left: [Vec::new(), Vec::new()],
        }
    }

    /// Deals `seat`'s next card from its shuffled copy, refilling the copy
    /// first if it is used up: the deck's entries less the cards in `hand`
    /// (so, after the first time, the seat's played cards), in listed
    /// order, shuffled by Fisher-Yates with the seat's stream.
    fn deal_without_replacement(&mut self, seat: usize, hand: &[Card]) -> Card {
        let entries = self.shared.decks[seat].entries();
        let left = &mut self.left[seat];
        if left.is_empty() {
            left.extend_from_slice(entries);
            for card in hand {
                if let Some(at) = left.iter().position(|c| c == card) {
                    left.remove(at);
                }
            }
            shuffle(left, &mut self.rngs[seat]);
        }
        // A deck drawn this way has at least HAND_SIZE entries and a hand
        // being refilled at most HAND_SIZE - 1, so the copy is never empty
        // here; the fallback only keeps a broken caller from panicking.
        left.pop().unwrap_or(entries[0])
    }

    /// The decks, by seat.
    pub fn decks(&self) -> &[Deck; 2] {
        &self.shared.decks
    }
}

impl Dealer for DeckDealer {
    /// Uniform over the deck's entries (duplicates weigh more) that are not
    /// in the hand, using exactly one random number per draw from the
    /// seat's ChaCha8 stream (a playout copy's fast stream draws until it
    /// hits such an entry instead: the same distribution).
    fn draw(&mut self, seat: usize, hand: &[Card]) -> Card {
        let seat = seat.min(1);
        if self.shared.decks[seat].draw() == Draw::WithoutReplacement {
            return self.deal_without_replacement(seat, hand);
        }
        let entries = self.shared.decks[seat].entries();
        let stream = &mut self.rngs[seat];
        if stream.is_fast() {
            return draw_by_rejection(entries, hand, stream);
        }
        let index = &self.shared.index[seat];
        // The deck positions of the hand's cards (a hand holds no
        // duplicates, so none is counted twice).
        let mut excluded = [0u32; FAST_EXCLUDED];
        let mut n = 0;
        if index.unique && hand.len() <= FAST_EXCLUDED {
            for &card in hand {
                if let Some(&at) = index.of(card).first() {
                    excluded[n] = at;
                    n += 1;
                }
            }
        } else {
            for &card in hand {
                let at = index.of(card);
                let Some(slots) = excluded.get_mut(n..n + at.len()) else {
                    return draw_by_scanning(entries, hand, stream);
                };
                slots.copy_from_slice(at);
                n += at.len();
            }
        }
        let excluded = &excluded[..n];
        let count = entries.len() - n;
        // A deck has at least HAND_SIZE distinct cards and a hand being
        // refilled at most HAND_SIZE - 1, so `count` is never 0; the
        // fallback only keeps a broken caller from panicking.
        if count == 0 {
            return entries[0];
        }
        let pick = stream.random_range(0..count);
        entries
            .get(skip_excluded(pick, excluded))
            .copied()
            .unwrap_or(entries[0])
    }

    fn copy_for_playout(&self, target: &mut DeckDealer, seed: u64) {
        if !Arc::ptr_eq(&target.shared, &self.shared) {
            target.shared = Arc::clone(&self.shared);
        }
        for (id, rng) in (0..).zip(&mut target.rngs) {
            rng.reseed_fast(seed, DeckDealer::stream_id(id));
        }
        // The order of what is left of a shuffled copy is as unknown to a
        // bot as the future draws: each playout samples it afresh.
        for ((left, from), rng) in target.left.iter_mut().zip(&self.left).zip(&mut target.rngs) {
            left.clone_from(from);
            shuffle(left, rng);
        }
    }
}

/// Shuffles `cards` by Fisher-Yates: for `i` from the last position down
/// to 1, swaps position `i` with a position uniform in `0..=i`, one number
/// from `stream` each (`random_range`, as every documented draw; a fast
/// playout stream's own numbers otherwise).
fn shuffle(cards: &mut [Card], stream: &mut Stream) {
    for i in (1..cards.len()).rev() {
        let j = if stream.is_fast() {
            stream.fast_below(i + 1)
        } else {
            stream.random_range(0..=i)
        };
        cards.swap(i, j);
    }
}

/// The position of the `pick`-th (from 0) entry whose position is not in
/// `excluded` (distinct positions, in any order): the least `at >= pick`
/// with `at == pick + (excluded positions <= at)`, found by counting again
/// until the count stops growing (at most one pass per excluded position,
/// without sorting them).
fn skip_excluded(pick: usize, excluded: &[u32]) -> usize {
    let mut at = pick;
    loop {
        let before = excluded.iter().filter(|&&p| p as usize <= at).count();
        if pick + before == at {
            return at;
        }
        at = pick + before;
    }
}

/// Draws from a playout's fast stream: uniform entries until one is not in
/// the hand (a hand holds at most 4 of a deck's at least 5 distinct cards,
/// so a few tries nearly always do), then the exact way.
fn draw_by_rejection(entries: &[Card], hand: &[Card], stream: &mut Stream) -> Card {
    for _ in 0..16 {
        let card = entries[stream.fast_below(entries.len())];
        if !hand.contains(&card) {
            return card;
        }
    }
    draw_by_scanning(entries, hand, stream)
}

/// The same draw as [`DeckDealer::draw`] by looking at every entry.
fn draw_by_scanning<R: rand::Rng + ?Sized>(entries: &[Card], hand: &[Card], rng: &mut R) -> Card {
    let eligible = |c: &&Card| !hand.contains(c);
    let count = entries.iter().filter(eligible).count();
    if count == 0 {
        return entries[0];
    }
    let pick = rng.random_range(0..count);
    *entries
        .iter()
        .filter(eligible)
        .nth(pick)
        .unwrap_or(&entries[0])
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
    fn indexed_draws_equal_scanning_draws() {
        // Includes a deck with many copies (the scanning path) and hand
        // cards that are not in the deck at all.
        let mut text = "Wb8\nSo3\nFr4\nFo5\nFy2\n".to_string();
        text += &"Sg8\n".repeat(40);
        let heavy = Deck::parse_dcfg(&text, "t").unwrap();
        for deck in [Deck::standard(), heavy] {
            for seed in 0..30 {
                let mut dealer = DeckDealer::new(seed, [deck.clone(), deck.clone()]);
                let mut rng = crate::rng::stream(seed, 0);
                let mut hand: Vec<Card> = Vec::new();
                let stranger: Card = "Wp0".parse().unwrap();
                for round in 0..100 {
                    if hand.len() == 5 {
                        hand.remove(round % 5);
                    }
                    if round == 7 {
                        hand[0] = stranger;
                    }
                    let expected = draw_by_scanning(deck.entries(), &hand, &mut rng);
                    let got = dealer.draw(0, &hand);
                    assert_eq!(got, expected, "seed {seed} round {round}");
                    hand.push(got);
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

//! The tournament default deals as the championship's server deals: each
//! seat its own shuffled copy of the 30-card tournament deck, without
//! replacement; and a copy that runs out is refilled with the seat's played
//! cards (docs/rules.md, "When a deck runs out").

use std::collections::BTreeMap;

use dojo_engine::cardjitsu::{Card, CardJitsu, Deck, GameRecord, Ruleset, Settings};

/// The cards `seat` was dealt, in order: its first hand, then the card
/// each later round's hand gained (a drawn card goes last).
fn dealt(rec: &GameRecord, seat: usize) -> Vec<Card> {
    let mut cards = rec.rounds[0].hands[seat].clone();
    cards.extend(
        rec.rounds[1..]
            .iter()
            .map(|r| *r.hands[seat].last().unwrap()),
    );
    cards
}

fn counts(cards: &[Card]) -> BTreeMap<Card, usize> {
    let mut m = BTreeMap::new();
    for &c in cards {
        *m.entry(c).or_default() += 1;
    }
    m
}

fn play_out(seed: u64, settings: Settings) -> GameRecord {
    let mut game = CardJitsu::new(seed, settings);
    let mut i = 0usize;
    while !game.is_over() {
        game.play([i % 5, (i * 7 + seed as usize) % 5]);
        i += 1;
    }
    game.into_record()
}

#[test]
fn a_thousand_tournament_games_deal_each_seat_from_its_own_championship_deck() {
    let settings = Settings::default();
    assert_eq!(settings.rules, Ruleset::Tournament);
    let deck = counts(Deck::championship().entries());
    let mut doubles = 0;
    for seed in 0..1000 {
        let rec = play_out(seed, settings.clone());
        assert_eq!(rec.verify(), Ok(()), "seed {seed}");
        for seat in 0..2 {
            let dealt = dealt(&rec, seat);
            // Until the copy runs out, no card comes more often than the
            // deck lists it: dealt without replacement.
            let first = counts(&dealt[..dealt.len().min(30)]);
            for (card, n) in &first {
                assert!(
                    *n <= deck.get(card).copied().unwrap_or(0),
                    "seed {seed} seat {seat}: {card} dealt {n} times from the championship deck"
                );
            }
            if dealt.len() >= 30 {
                assert_eq!(
                    first, deck,
                    "seed {seed} seat {seat}: 30 cards are the whole deck"
                );
            }
            doubles += rec
                .rounds
                .iter()
                .filter(|r| counts(&r.hands[seat]).values().any(|&n| n > 1))
                .count();
        }
    }
    // A card listed twice can be held twice, as on the championship's server.
    assert!(doubles > 0, "no hand ever held both copies of a card");
    // Games this short seldom deal a whole deck: running out is tested on
    // its own below.
}

#[test]
fn the_seats_copies_are_shuffled_independently_and_by_the_seed() {
    let a = play_out(5, Settings::default());
    let b = play_out(5, Settings::default());
    assert_eq!(a, b, "the same seed deals the same cards");
    assert_ne!(a.rounds[0].hands[0], a.rounds[0].hands[1]);
    let c = play_out(6, Settings::default());
    assert_ne!(a.rounds[0].hands, c.rounds[0].hands);
}

#[test]
fn a_deck_that_runs_out_is_refilled_with_the_seats_played_cards() {
    // All red: no triple of different colours can ever be won, so the game
    // runs to its cap and each six-card copy runs out many times.
    let deck = Deck::parse_dcfg(
        "draw: without replacement\nFr2\nFr3\nWr4\nSr5\nFr6\nWr7\n",
        "red",
    )
    .unwrap();
    let settings = Settings {
        rules: Ruleset::Tournament,
        max_rounds: 60,
        decks: [deck.clone(), deck.clone()],
    };
    let rec = play_out(11, settings);
    assert_eq!(rec.rounds.len(), 60);
    assert_eq!(rec.verify(), Ok(()));
    let whole = counts(deck.entries());
    for seat in 0..2 {
        let dealt = dealt(&rec, seat);
        // The first six cards are the deck; then each time the copy runs
        // out, the next draws are the deck less the four cards then held,
        // in a new order.
        assert_eq!(counts(&dealt[..6]), whole);
        let mut at = 6;
        let mut refills = 0;
        while at + 2 <= dealt.len() {
            // Round `at - 4` (0-based) showed the hand that held four cards
            // when the copy ran out: the hand before the draw, less the
            // card played.
            let r = &rec.rounds[at - 5];
            let mut held = r.hands[seat].clone();
            held.remove(r.choices[seat]);
            let mut expected = whole.clone();
            for c in &held {
                *expected.get_mut(c).unwrap() -= 1;
            }
            expected.retain(|_, n| *n > 0);
            assert_eq!(
                counts(&dealt[at..at + 2]),
                expected,
                "seat {seat}, refill at card {at}"
            );
            at += 2;
            refills += 1;
        }
        assert!(refills > 20, "{refills}");
    }
}

#[test]
fn the_classic_rules_keep_the_standard_deck() {
    let s = Settings::of_rules(Ruleset::Classic);
    assert_eq!(s.decks, [Deck::standard(), Deck::standard()]);
    assert_eq!(Ruleset::Classic.default_deck(), "standard");
    assert_eq!(Ruleset::Tournament.default_deck(), "championship");
}

//! Seed 001's cases, word for word, and properties over random hands.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::*;
use crate::rng;

fn hand(cards: &[&str]) -> Hand {
    Hand::parse(cards.iter().copied()).unwrap()
}

/// The seed's four test cases ("Testfälle"), input and expected output as
/// written there.
const SEED_CASES: [(&[&str], &str); 4] = [
    (
        &["JC", "JS", "JD", "AC", "KC", "9C", "AS", "7H", "QD", "8D"],
        "36 Clubs",
    ),
    (
        &["JD", "AS", "0S", "KS", "QS", "9S", "8S", "AD", "8C", "9C"],
        "44 Spades",
    ),
    (
        &["JH", "JD", "0S", "KS", "9C", "8C", "QH", "KH", "AD", "9D"],
        "pass",
    ),
    (
        &["JD", "AS", "KS", "QS", "0S", "9S", "8D", "7D", "0C", "QH"],
        "pass",
    ),
];

#[test]
fn seed_test_cases() {
    for (cards, expected) in SEED_CASES {
        assert_eq!(bid(&hand(cards)).to_string(), expected, "{cards:?}");
    }
}

/// The seed's explanations ("Erläuterung") of the four cases.
#[test]
fn seed_explanations() {
    // 1. Two jacks in a row with clubs as trump: 3 x 12 = 36.
    let Bid::Play(v) = bid(&hand(SEED_CASES[0].0)) else {
        panic!("case 1 passes")
    };
    assert_eq!(
        (v.with, v.jack_factor, v.trump, v.value()),
        (true, 3, Suit::Clubs, 36)
    );
    // 2. Three jacks in a row missing, spades as trump: 4 x 11 = 44.
    let Bid::Play(v) = bid(&hand(SEED_CASES[1].0)) else {
        panic!("case 2 passes")
    };
    assert_eq!(
        (v.with, v.jack_factor, v.trump, v.value()),
        (false, 4, Suit::Spades, 44)
    );
    // 3. At most 4 trumps are possible, so pass.
    assert_eq!(
        bid(&hand(SEED_CASES[2].0)),
        Bid::Pass(PassReason::TooFewTrumps {
            suit: Suit::Clubs,
            trumps: 4
        })
    );
    // 4. Six trumps with spades, but no non-trump ace: pass.
    assert_eq!(
        bid(&hand(SEED_CASES[3].0)),
        Bid::Pass(PassReason::NoSideAce {
            suit: Suit::Spades,
            trumps: 6
        })
    );
}

/// The jack's number in the seed's list: 1 clubs (highest) to 4 diamonds.
fn numbered_jack(n: usize) -> Card {
    Card {
        value: Value::Jack,
        suit: Suit::ALL[n - 1],
    }
}

/// A hand with exactly these jacks (by the seed's numbering), filled up
/// with non-jacks.
fn hand_with_jacks(jacks: &[usize]) -> Hand {
    let mut cards: Vec<Card> = jacks.iter().map(|&n| numbered_jack(n)).collect();
    cards.extend(
        Card::all()
            .filter(|c| !c.is_jack())
            .take(HAND_SIZE - jacks.len()),
    );
    Hand::new(cards).unwrap()
}

/// The seed's jack-factor examples: `[1, 4] -> 1 + 1 = 2` and so on.
#[test]
fn seed_jack_factor_examples() {
    let examples: [(&[usize], u32); 5] = [
        (&[1, 4], 2),
        (&[1, 2, 4], 3),
        (&[2, 3, 4], 2),
        (&[1, 2, 3, 4], 5),
        (&[], 5),
    ];
    for (jacks, factor) in examples {
        assert_eq!(jack_factor(&hand_with_jacks(jacks)), factor, "{jacks:?}");
    }
    // The prose: all 4 -> 5; only the first 2 -> 3; missing the first -> 2;
    // missing the first 3 -> 4.
    assert_eq!(jack_factor(&hand_with_jacks(&[1, 2])), 3);
    assert_eq!(jack_factor(&hand_with_jacks(&[2])), 2);
    assert_eq!(jack_factor(&hand_with_jacks(&[4])), 4);
}

#[test]
fn the_factor_is_capped_at_five_without_counting_further_trumps() {
    // All jacks plus the top of clubs: the full rule would say "with 7"
    // (factor 8); the seed keeps the simplified rule: factor 5, 5 x 12 = 60.
    let h = hand(&["JC", "JS", "JH", "JD", "AC", "0C", "KC", "AS", "7H", "8D"]);
    assert_eq!(jack_factor(&h), 5);
    assert_eq!(bid(&h).to_string(), "60 Clubs");
}

#[test]
fn ties_in_trumps_go_to_the_higher_suit() {
    // 2 jacks + 4 hearts = 2 jacks + 4 diamonds = 6: hearts (10) beats
    // diamonds (9); without the jack of clubs, factor 2: 2 x 10 = 20.
    let h = hand(&["JS", "JH", "AH", "KH", "9H", "8H", "0D", "9D", "8D", "AD"]);
    assert_eq!(bid(&h).to_string(), "20 Hearts");
}

#[test]
fn the_trump_suit_is_chosen_before_the_ace_is_checked() {
    // 4 jacks + 2 clubs = 4 jacks + 2 spades = 6: clubs wins the tie, and
    // the only ace is the ace of clubs, so the hand passes although spades
    // would have had it as a side ace (the seed's algorithm).
    let h = hand(&["JC", "JS", "JH", "JD", "AC", "9C", "8S", "7S", "8H", "7D"]);
    assert_eq!(
        bid(&h),
        Bid::Pass(PassReason::NoSideAce {
            suit: Suit::Clubs,
            trumps: 6
        })
    );
}

#[test]
fn malformed_hands_name_the_card() {
    let err = |cards: &[&str]| Hand::parse(cards.iter().copied()).unwrap_err();
    let nine = ["JC", "JS", "JD", "AC", "KC", "9C", "AS", "7H", "QD"];
    assert_eq!(err(&nine), HandError::Count(9));
    assert_eq!(err(&nine).to_string(), "expected 10 cards, found 9");
    let twice = ["JC", "JS", "JD", "AC", "KC", "9C", "AS", "7H", "QD", "JS"];
    assert_eq!(
        err(&twice).to_string(),
        "`JS` appears twice (a hand holds 10 different cards)"
    );
    let unknown = ["JC", "JS", "JD", "AC", "KC", "9C", "AS", "7H", "QD", "6D"];
    assert!(err(&unknown).to_string().contains("`6D`"));
}

/// The seed's sample answer, re-derived independently as a test oracle:
/// sort the jacks' numbers and stop at the first gap.
fn oracle(hand: &Hand) -> String {
    let mut jacks: Vec<usize> = hand
        .cards()
        .iter()
        .filter(|c| c.is_jack())
        .map(|c| c.suit.index() + 1)
        .collect();
    jacks.sort_unstable();
    let mut counts = [0usize; 4];
    for c in hand.cards().iter().filter(|c| !c.is_jack()) {
        counts[c.suit.index()] += 1;
    }
    let mut best = 0;
    for s in 1..4 {
        if counts[s] > counts[best] {
            best = s;
        }
    }
    let side_ace = hand
        .cards()
        .iter()
        .any(|c| c.value == Value::Ace && c.suit.index() != best);
    if counts[best] + jacks.len() < 6 || !side_ace {
        return "pass".into();
    }
    let factor = if jacks.is_empty() {
        5
    } else {
        let mut last = 0;
        for &j in &jacks {
            if j - last >= 2 {
                break;
            }
            last = j;
        }
        if last == 0 { jacks[0] } else { last + 1 }
    };
    let suit = Suit::ALL[best];
    format!("{} {}", factor as u32 * suit.value(), suit)
}

fn random_hand(rng: &mut rng::ChaCha8Rng) -> Vec<Card> {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    // Bias towards jacks and long suits now and then, so playable hands are common.
    if rng.random_bool(0.5) {
        let long = Suit::ALL[rng.random_range(0..4)];
        deck.sort_by_key(|c| !(c.is_jack() || c.suit == long));
        deck[..16].shuffle(rng);
    }
    deck.truncate(HAND_SIZE);
    deck
}

#[test]
fn property_value_is_independent_of_card_order_and_matches_the_seed_algorithm() {
    let mut rng = rng::stream(0x5ca7, 0);
    let mut played = 0;
    for case in 0..4000 {
        let mut cards = random_hand(&mut rng);
        let first = Hand::new(cards.clone()).unwrap();
        let verdict = bid(&first);
        played += usize::from(verdict.value().is_some());
        assert_eq!(verdict.to_string(), oracle(&first), "case {case}: {first}");
        for _ in 0..3 {
            cards.shuffle(&mut rng);
            let shuffled = Hand::new(cards.clone()).unwrap();
            assert_eq!(
                bid(&shuffled),
                verdict,
                "case {case}: {first} vs {shuffled}"
            );
        }
    }
    // The generator must exercise both outcomes for the property to mean anything.
    assert!(played > 400 && played < 3600, "{played} playable of 4000");
}

//! Seed 003's cases, word for word, and properties over random plays.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::*;
use crate::rng;

/// "These plays are legal:", as listed in the seed (previous play, play).
const SEED_LEGAL: &str = "\
6 J
JJ QQ
555 KKK
44499 77722
23456 56789
223344 QQKKAA
49494 72727
A R
A P
P R
66 7P
P6 77
58304967 6P0594J7
5P304967 680594J7
57446765 788657P5
- D
- 1
- 12345
3344556677889900 JJJJ
5555 7777";

/// "And these are not:", as listed in the seed.
const SEED_ILLEGAL: &str = "\
9 3
66 55
888 444
44 888
77722 44499
44499 777
44499 777JJJ
45678 34567
34567 456789
556677 334455
5566 778899
72727 49494
A A
R A
R P
77 RP
77 6P
P7 66
680594J7 5P304967
6P0594J7 58304967
57446765 3645P536
1 D
2 D
2 1
- 1234
7777 5555
- 223355";

fn play(s: &str) -> Play {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn verdict(line: &str) -> Verdict {
    let (prev, p) = line.split_once(' ').expect("two plays");
    judge(&play(prev), &play(p)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn seed_legal_cases() {
    let lines: Vec<&str> = SEED_LEGAL.lines().collect();
    assert_eq!(lines.len(), 20);
    for line in lines {
        let v = verdict(line);
        assert!(v.is_legal(), "{line}: {}", v.why());
    }
}

#[test]
fn seed_illegal_cases() {
    // The seed lists 27 (not 26, as one might count from a summary).
    let lines: Vec<&str> = SEED_ILLEGAL.lines().collect();
    assert_eq!(lines.len(), 27);
    for line in lines {
        let v = verdict(line);
        assert!(!v.is_legal(), "{line}: {}", v.why());
    }
}

/// The comment under the seed: "5555 777P should be an invalid play".
#[test]
fn seed_comment_no_phoenix_in_a_bomb() {
    assert_eq!(
        verdict("5555 777P"),
        Verdict::Illegal(Violation::Special(SpecialRule::PhoenixInBomb))
    );
}

/// Each illegal seed case breaks the rule one would name for it.
#[test]
fn seed_illegal_cases_break_the_expected_rule() {
    use Kind::*;
    use SpecialRule::*;
    let not_higher = [
        "9 3",
        "66 55",
        "888 444",
        "77722 44499",
        "45678 34567",
        "556677 334455",
    ];
    let not_higher_more = [
        "72727 49494",
        "A A",
        "R A",
        "77 6P",
        "P7 66",
        "680594J7 5P304967",
        "6P0594J7 58304967",
        "57446765 3645P536",
        "2 1",
        "7777 5555",
    ];
    for line in not_higher.into_iter().chain(not_higher_more) {
        assert!(
            matches!(verdict(line), Verdict::Illegal(Violation::NotHigher { .. })),
            "{line}: {}",
            verdict(line).why()
        );
    }
    let expected = [
        (
            "44 888",
            Violation::TypeMismatch {
                previous: Pair,
                play: Triple,
            },
        ),
        (
            "44499 777",
            Violation::TypeMismatch {
                previous: FullHouse,
                play: Triple,
            },
        ),
        ("44499 777JJJ", Violation::NotACombination),
        (
            "34567 456789",
            Violation::LengthMismatch {
                previous: 5,
                play: 6,
            },
        ),
        (
            "5566 778899",
            Violation::LengthMismatch {
                previous: 4,
                play: 6,
            },
        ),
        ("R P", Violation::Special(PhoenixOnDragon)),
        ("77 RP", Violation::Special(DragonAlone)),
        ("1 D", Violation::Special(DogOnlyOnLead)),
        ("2 D", Violation::Special(DogOnlyOnLead)),
        ("- 1234", Violation::NotACombination),
        ("- 223355", Violation::NotACombination),
    ];
    for (line, violation) in expected {
        assert_eq!(verdict(line), Verdict::Illegal(violation), "{line}");
    }
}

#[test]
fn why_names_both_plays() {
    assert_eq!(
        verdict("JJ QQ").why(),
        "legal: a pair of Qs beats a pair of Js"
    );
    assert_eq!(
        verdict("A P").why(),
        "legal: the phoenix (worth A½) beats a single A"
    );
    assert_eq!(
        verdict("- 12345").why(),
        "legal: a straight of 5 cards from 1 to 5 on lead"
    );
    assert_eq!(
        verdict("58304967 6P0594J7").why(),
        "legal: a straight of 8 cards from 4 to J beats a straight of 8 cards from 3 to 10"
    );
    assert_eq!(
        verdict("66 55").why(),
        "illegal: not higher: a pair of 5s does not beat a pair of 6s"
    );
    assert_eq!(
        verdict("3344556677889900 JJJJ").why(),
        "legal: a bomb of four Js beats a tractor of 8 pairs from 3 to 10"
    );
    assert_eq!(
        verdict("JJJJ 77").why(),
        "illegal: type mismatch: a pair cannot be played on a bomb (only a higher bomb can)"
    );
}

#[test]
fn the_phoenix_single_is_half_a_rank_above_what_it_beats() {
    // Led, it is worth 1½: the Mah Jong does not beat it, a 2 does.
    assert!(!verdict("P 1").is_legal());
    assert!(verdict("P 2").is_legal());
    // Played on a 9 it is worth 9½: a 9 does not beat it, a 10 does.
    let nine = readings(&play("9"))[0];
    let Verdict::Legal { play: over, .. } = judge_after(Some(&nine), &play("P")) else {
        panic!("P on 9 is legal")
    };
    assert!(!judge_after(Some(&over), &play("9")).is_legal());
    assert!(judge_after(Some(&over), &play("0")).is_legal());
    assert!(judge_after(Some(&over), &play("R")).is_legal());
}

#[test]
fn an_ambiguous_play_is_legal_if_some_reading_is() {
    // 7788P is a full house of 8s or of 7s: after 777 22 only the 8s reading is legal.
    let v = verdict("77722 7788P");
    assert_eq!(
        v.why(),
        "legal: a full house with three 8s beats a full house with three 7s"
    );
    // An ambiguous previous play counts at its highest reading: 3456P is 3-7.
    assert!(!verdict("3456P 23456").is_legal());
    assert!(verdict("3456P 45678").is_legal());
}

#[test]
fn a_previous_play_must_be_a_combination_and_not_the_dog() {
    assert_eq!(
        judge(&play("1234"), &play("5")),
        Err(PreviousError::NotACombination(play("1234")))
    );
    assert_eq!(judge(&play("D"), &play("5")), Err(PreviousError::Dog));
    // After the dog a referee passes the lead: judge_after treats it as the lead.
    let dog = readings(&play("D"))[0];
    assert!(judge_after(Some(&dog), &play("55")).is_legal());
}

#[test]
fn the_empty_play_is_no_combination() {
    assert_eq!(verdict("- -"), Verdict::Illegal(Violation::NotACombination));
    assert_eq!(verdict("5 -"), Verdict::Illegal(Violation::NotACombination));
}

/// A random valid combination (not the dog), sometimes with the phoenix
/// standing in for one of its cards.
fn random_combination(rng: &mut rng::ChaCha8Rng, bomb: bool) -> Vec<Card> {
    let rank = |n: u8| Card::Number(Rank::new(n).unwrap());
    let r = rng.random_range(2..=14u8);
    let mut cards = match if bomb { 6 } else { rng.random_range(0..6) } {
        0 => match rng.random_range(0..4) {
            0 => vec![Card::Dragon],
            1 => vec![Card::MahJong],
            2 => vec![Card::Phoenix],
            _ => vec![rank(r)],
        },
        1 => vec![rank(r); rng.random_range(2..=3)],
        2 => {
            let other = (r - 2 + rng.random_range(1..13u8)) % 13 + 2;
            vec![rank(r), rank(r), rank(r), rank(other), rank(other)]
        }
        3 => {
            let len = rng.random_range(5..=14u8);
            let low = rng.random_range(1..=15 - len);
            (low..low + len)
                .map(|n| if n == 1 { Card::MahJong } else { rank(n) })
                .collect()
        }
        4 | 5 => {
            let pairs = rng.random_range(2..=13u8);
            let low = rng.random_range(2..=15 - pairs);
            (low..low + pairs)
                .flat_map(|n| [rank(n), rank(n)])
                .collect()
        }
        _ => vec![rank(r); 4],
    };
    // The phoenix never stands for the Mah Jong, so it replaces a numbered card.
    let numbered: Vec<usize> = (0..cards.len())
        .filter(|&i| matches!(cards[i], Card::Number(_)))
        .collect();
    if !bomb && cards.len() > 1 && rng.random_bool(0.3) {
        cards[numbered[rng.random_range(0..numbered.len())]] = Card::Phoenix;
    }
    cards.shuffle(rng);
    cards
}

fn as_play(cards: &[Card]) -> Play {
    Play::new(cards.to_vec()).expect("generated plays respect the deck")
}

#[test]
fn generated_combinations_are_combinations() {
    let mut rng = rng::stream(3, 0);
    for _ in 0..2000 {
        let cards = random_combination(&mut rng, false);
        assert!(
            !readings(&as_play(&cards)).is_empty(),
            "{}",
            as_play(&cards)
        );
    }
}

#[test]
fn property_a_play_is_never_legal_on_itself_unless_on_lead() {
    let mut rng = rng::stream(3, 1);
    for _ in 0..3000 {
        let bomb = rng.random_bool(0.1);
        let p = as_play(&random_combination(&mut rng, bomb));
        assert!(
            judge(&Play::empty(), &p).unwrap().is_legal(),
            "on lead: {p}"
        );
        let v = judge(&p, &p).unwrap();
        assert!(!v.is_legal(), "{p} on itself: {}", v.why());
    }
}

#[test]
fn property_a_bomb_beats_every_non_bomb() {
    let mut rng = rng::stream(3, 2);
    for _ in 0..3000 {
        let prev = as_play(&random_combination(&mut rng, false));
        let bomb = as_play(&random_combination(&mut rng, true));
        let v = judge(&prev, &bomb).unwrap();
        assert!(v.is_legal(), "{bomb} on {prev}: {}", v.why());
    }
}

/// Up to 9 cards drawn from the deck: mostly no combination at all.
fn random_cards(rng: &mut rng::ChaCha8Rng) -> Vec<Card> {
    let mut deck = Card::deck();
    deck.shuffle(rng);
    deck.truncate(rng.random_range(0..=9));
    deck
}

#[test]
fn property_shuffling_a_play_never_changes_its_verdict() {
    let mut rng = rng::stream(3, 3);
    let mut legal = 0;
    for _ in 0..4000 {
        let (lead, bombs, arbitrary) = (
            rng.random_bool(0.2),
            [rng.random_bool(0.1), rng.random_bool(0.1)],
            rng.random_bool(0.5),
        );
        let mut prev = if lead {
            Vec::new()
        } else {
            random_combination(&mut rng, bombs[0])
        };
        let mut p = if arbitrary {
            random_cards(&mut rng)
        } else {
            random_combination(&mut rng, bombs[1])
        };
        // An error carries the previous play as given, so compare only its kind.
        let judged = |prev: &[Card], p: &[Card]| {
            judge(&as_play(prev), &as_play(p)).map_err(|e| std::mem::discriminant(&e))
        };
        let before = judged(&prev, &p);
        legal += usize::from(before.is_ok_and(|v| v.is_legal()));
        for _ in 0..3 {
            prev.shuffle(&mut rng);
            p.shuffle(&mut rng);
            let after = judged(&prev, &p);
            assert_eq!(after, before, "{} {}", as_play(&prev), as_play(&p));
        }
    }
    assert!(
        legal > 200,
        "only {legal} legal cases: the property would say little"
    );
}

//! Whole-game tests: the seed's example, the protocol, determinism and the
//! seat-swap property.

use std::collections::VecDeque;

use rand::RngExt;

use super::*;
use crate::protocol::{Answer, Fault, Referee, Reply};
use crate::rng;

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn cards(s: &str) -> Vec<Card> {
    s.split(',').map(card).collect()
}

/// Deals exactly the scripted cards, in order, per seat.
#[derive(Debug, Clone)]
struct ScriptedDealer {
    queues: [VecDeque<Card>; 2],
}

impl ScriptedDealer {
    fn new(seat0: &str, seat1: &str) -> ScriptedDealer {
        ScriptedDealer {
            queues: [cards(seat0).into(), cards(seat1).into()],
        }
    }
}

impl Dealer for ScriptedDealer {
    fn draw(&mut self, seat: usize, hand: &[Card]) -> Card {
        let c = self.queues[seat].pop_front().expect("script ran out");
        assert!(!hand.contains(&c), "script deals a duplicate {c}");
        c
    }
}

fn scripted(rules: Ruleset, seat0: &str, seat1: &str) -> CardJitsu<ScriptedDealer> {
    CardJitsu::with_dealer(1, rules, 500, ScriptedDealer::new(seat0, seat1))
}

/// Plays one protocol round with reply lines; returns the notice lines.
fn round<R: Referee<Move = usize>>(game: &mut R, replies: [&str; 2]) -> Vec<String> {
    let answers = replies
        .iter()
        .enumerate()
        .map(|(seat, r)| match game.parse_reply(seat, &[r.to_string()]) {
            Reply::Complete(i) => Answer::Move(i),
            _ => Answer::Fault(Fault::Invalid),
        })
        .collect();
    let notices = game.apply(answers);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].seats, [0, 1]);
    notices[0].lines.clone()
}

/// A process started during the game (a bot that exits after every
/// answer, or one started again after a fault) gets its player number and
/// then the result of every round so far: what a live process was told
/// (seed 002: a bot has "the cards played in each round"), before its
/// hand.
#[test]
fn a_process_started_during_the_game_is_told_the_rounds_so_far() {
    let mut game = scripted(
        Ruleset::Tournament,
        "FyA,WoA,Wo5,SgA,Fg8,Fb3,Wp4,Sr2",
        "Fr6,FyA,Wo5,Sb2,Sb3,Sp7,Sp8,Sp9",
    );
    assert_eq!(game.greeting(0), ["1"]);
    assert_eq!(game.greeting(1), ["2"]);
    round(&mut game, ["1", "0"]);
    round(&mut game, ["4", "0"]);
    let told = ["WoA vs. Fr6: 1 wins!", "Fb3 vs. FyA: 1 wins!"];
    assert_eq!(game.greeting(0), [&["1"][..], &told].concat());
    assert_eq!(game.greeting(1), [&["2"][..], &told].concat());
}

#[test]
fn seed_example_transcript() {
    let mut game = scripted(
        Ruleset::Tournament,
        "FyA,WoA,Wo5,SgA,Fg8,Fb3,Wp4,Sr2",
        "Fr6,FyA,Wo5,Sb2,Sb3,Sp7,Sp8,Sp9",
    );
    let mut transcript = game.greeting(0);
    while !game.prompts().is_empty() {
        let prompts = game.prompts();
        assert_eq!(prompts.len(), 2);
        assert_eq!(prompts[0].seat, 0);
        transcript.extend(prompts[0].lines.clone());
        let mine = ["1", "4", "2"][game.rounds_played() as usize];
        transcript.push(format!(">{mine}"));
        transcript.extend(round(&mut game, [mine, "0"]));
    }
    transcript.extend(game.farewell());
    // The seed's example prints the Reverse hand as `*FyA,...`; its text
    // ("preceded by a message of `* `") and the championship's server put a
    // space after the star, and so does dojo.
    let expected = "1
FyA,WoA,Wo5,SgA,Fg8
>1
WoA vs. Fr6: 1 wins!
* FyA,Wo5,SgA,Fg8,Fb3
>4
Fb3 vs. FyA: 1 wins!
FyA,Wo5,SgA,Fg8,Wp4
>2
SgA vs. Wo5: 1 wins!
Player 1 wins!";
    assert_eq!(transcript.join("\n"), expected);

    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(1));
    assert_eq!(outcome.reason, OutcomeReason::Triple);
    assert_eq!(outcome.rounds, 3);
    assert_eq!(
        outcome.winning_cards,
        Some([card("WoA"), card("Fb3"), card("SgA")])
    );
    assert_eq!(game.score(0), Some(1.0));
    assert_eq!(game.score(1), Some(0.0));
    // Nobody draws after the last round.
    assert_eq!(game.hand(0), cards("FyA,Wo5,Fg8,Wp4"));
    assert_eq!(game.hand(1), cards("Sb2,Sb3,Sp7,Sp8"));
    let rounds = &game.record().rounds;
    assert_eq!(
        rounds.iter().map(|r| r.reverse).collect::<Vec<_>>(),
        [false, true, false]
    );
    assert_eq!(rounds[1].hands[1], cards("FyA,Wo5,Sb2,Sb3,Sp7"));
    assert_eq!(rounds[1].choices, [4, 0]);
    // Finished games ignore further answers.
    assert!(
        game.apply(vec![Answer::Move(0), Answer::Move(0)])
            .is_empty()
    );
    assert_eq!(game.rounds_played(), 3);
}

#[test]
fn classic_rules_never_reverse() {
    for (rules, expect) in [(Ruleset::Tournament, true), (Ruleset::Classic, false)] {
        let mut game = scripted(rules, "WoA,Wo5,Wo6,Wo7,Wo8,Wo9", "Fr6,Fr2,Fr3,Fr4,Fr5,Fr7");
        let r = game.play([0, 0]).unwrap();
        assert_eq!(r.winner, 1);
        assert_eq!(game.reverse(), expect);
        assert_eq!(game.hand_line(0).starts_with('*'), expect);
    }
}

#[test]
fn reverse_lasts_one_round_even_after_a_stalemate() {
    let mut game = scripted(
        Ruleset::Tournament,
        "WoA,Fb4,Sg2,Sg3,Sg4,Sg5,Sg6,Sg7",
        "Fr6,Fp4,Sy7,Sy8,Sy9,SyB,SyC,SyD",
    );
    game.play([0, 0]);
    assert!(game.reverse());
    let r = game.play([0, 0]).unwrap();
    assert!(r.reverse);
    assert_eq!(r.winner, 0, "Fb4 vs Fp4 is a stalemate");
    assert!(!game.reverse());
    // Sg2 vs Sy7 without Reverse: the higher number wins.
    assert_eq!(game.play([0, 0]).unwrap().winner, 2);
}

#[test]
fn power_card_winning_under_reverse_keeps_reverse() {
    let mut game = scripted(
        Ruleset::Tournament,
        "WoA,FbA,Sg2,Sg3,Sg4,Sg5,Sg6",
        "Fr6,FpC,Sy7,Sy8,Sy9,SyB,SyC",
    );
    game.play([0, 0]);
    let r = game.play([0, 0]).unwrap();
    assert!(r.reverse);
    assert_eq!(r.winner, 1, "under Reverse FbA beats FpC");
    assert!(game.reverse());
}

#[test]
fn parse_reply_accepts_only_indices_0_to_4() {
    let game = CardJitsu::new(5, Settings::default());
    let parse = |s: &str| game.parse_reply(0, &[s.to_owned()]);
    assert_eq!(parse("0"), Reply::Complete(0));
    assert_eq!(parse("  4 "), Reply::Complete(4));
    assert_eq!(parse("3\r"), Reply::Complete(3));
    assert_eq!(parse(" 2 \r"), Reply::Complete(2));
    // Exactly what docs/protocols.md says: one ASCII digit, ASCII spaces
    // and CR around it; no sign, no leading zero, no other whitespace.
    let strict = [
        "+1",
        "01",
        "00",
        "\u{a0}1",
        "1\u{2003}",
        "\u{ff11}",
        "\t4",
        "4\t",
        "\u{b}1",
    ];
    for bad in ["5", "-1", "x", "", "1 2", "1.0", "99999999999999999999999"]
        .into_iter()
        .chain(strict)
    {
        assert!(
            matches!(parse(bad), Reply::Invalid(ref why) if !why.is_empty()),
            "{bad:?}"
        );
    }
    assert!(matches!(game.parse_reply(1, &[]), Reply::Invalid(_)));
}

#[test]
fn prompts_show_both_hands() {
    let game = CardJitsu::new(11, Settings::default());
    let prompts = game.prompts();
    assert_eq!(prompts.len(), 2);
    for (seat, p) in prompts.iter().enumerate() {
        assert_eq!(p.seat, seat);
        assert_eq!(p.lines.len(), 1);
        let shown: Vec<Card> = p.lines[0].split(',').map(card).collect();
        assert_eq!(shown, game.hand(seat));
    }
    assert_eq!(game.seats(), 2);
    assert!(game.farewell().is_empty());
}

#[test]
fn fault_falls_back_on_the_seats_own_stream_and_is_recorded() {
    let seed = 77;
    let mut game = CardJitsu::new(seed, Settings::default());
    let before = game.hands().clone();
    let r = game
        .play_round([Answer::Fault(Fault::Timeout), Answer::Move(9)])
        .unwrap()
        .clone();
    let expect0 = rng::stream(seed, 2).random_range(0..5usize);
    let expect1 = rng::stream(seed, 3).random_range(0..5usize);
    assert_eq!(r.choices, [expect0, expect1]);
    assert_eq!(r.faults, [Some(Fault::Timeout), Some(Fault::Invalid)]);
    assert_eq!(r.cards, [before[0][expect0], before[1][expect1]]);

    // Playing the same indices explicitly deals the same next cards: the
    // fallback streams are separate from the deck streams.
    let mut explicit = CardJitsu::new(seed, Settings::default());
    let e = explicit.play([expect0, expect1]).unwrap();
    assert_eq!(e.faults, [None, None]);
    assert_eq!(explicit.hands(), game.hands());

    // Through the protocol: a missing answer counts as invalid.
    let mut proto = CardJitsu::new(seed, Settings::default());
    let notices = proto.apply(vec![Answer::Fault(Fault::Crash)]);
    assert_eq!(notices[0].lines, [r.result_line()]);
    assert_eq!(
        proto.record().rounds[0].faults,
        [Some(Fault::Crash), Some(Fault::Invalid)]
    );
}

/// Plays a whole game; seat k's choice in round r is `policies[k](r)`,
/// where a `None` is a timeout.
fn play_out(
    seed: u64,
    settings: Settings,
    policies: [&dyn Fn(u32) -> Option<usize>; 2],
) -> CardJitsu {
    let mut game = CardJitsu::new(seed, settings);
    while !game.is_over() {
        let r = game.rounds_played();
        let answers = policies.map(|p| p(r).map_or(Answer::Fault(Fault::Timeout), Answer::Move));
        game.play_round(answers);
        assert!(game.rounds_played() <= game.max_rounds());
    }
    game
}

fn cycle(r: u32) -> Option<usize> {
    Some((r as usize * 3 + 1) % 5)
}

fn faulty(r: u32) -> Option<usize> {
    (!r.is_multiple_of(4)).then_some((r as usize) % 5)
}

fn first(_: u32) -> Option<usize> {
    Some(0)
}

#[test]
fn same_seed_and_choices_give_identical_records() {
    for seed in [0, 1, 2, 0xdead_beef] {
        let a = play_out(seed, Settings::default(), [&cycle, &faulty]);
        let b = play_out(seed, Settings::default(), [&cycle, &faulty]);
        let ja = serde_json::to_string(a.record()).unwrap();
        let jb = serde_json::to_string(b.record()).unwrap();
        assert_eq!(ja, jb);
        let back: GameRecord = serde_json::from_str(&ja).unwrap();
        assert_eq!(&back, a.record());
        let c = play_out(seed + 100, Settings::default(), [&cycle, &faulty]);
        assert_ne!(c.record().rounds, a.record().rounds);
    }
}

#[test]
fn record_json_shape() {
    let mut game = scripted(
        Ruleset::Classic,
        "WoA,Wo5,Wo6,Wo7,Wo8,Wo9",
        "Fr6,Fr2,Fr3,Fr4,Fr5,Fr7",
    );
    game.play_round([Answer::Move(0), Answer::Fault(Fault::Timeout)]);
    let json = serde_json::to_string(&game.record().rounds[0]).unwrap();
    assert!(
        json.starts_with(r#"{"round":1,"reverse":false,"hands":[["WoA","Wo5","Wo6","Wo7","Wo8"],"#),
        "{json}"
    );
    assert!(
        json.ends_with(r#""winner":1,"faults":[null,"timeout"]}"#),
        "{json}"
    );
    let head = serde_json::to_string(game.record()).unwrap();
    assert!(head.starts_with(r#"{"rules":"classic","seed":"1","max_rounds":500,"rounds":["#));
    assert!(head.ends_with(r#""outcome":null}"#), "{head}");
}

#[test]
fn a_seat_is_dealt_the_same_cards_whoever_sits_in_it() {
    for seed in 0..20 {
        // Seat 0 plays the same script; seat 1 is a different bot.
        let a = play_out(seed, Settings::default(), [&cycle, &first]);
        let b = play_out(seed, Settings::default(), [&cycle, &faulty]);
        let common = a.rounds_played().min(b.rounds_played()) as usize;
        assert!(common >= 3);
        for r in 0..common {
            assert_eq!(a.record().rounds[r].hands[0], b.record().rounds[r].hands[0]);
        }
        // And seat 1 likewise, with seat 0 varying.
        let c = play_out(seed, Settings::default(), [&first, &faulty]);
        let common = b.rounds_played().min(c.rounds_played()) as usize;
        for r in 0..common {
            assert_eq!(b.record().rounds[r].hands[1], c.record().rounds[r].hands[1]);
        }
    }
}

#[test]
fn initial_hands_depend_only_on_seed_seat_and_that_seats_deck() {
    let d1 = Deck::standard();
    let d2 = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSgA\nWpA", "d2").unwrap();
    let with = |decks: [Deck; 2]| {
        CardJitsu::new(
            3,
            Settings {
                decks,
                ..Settings::default()
            },
        )
    };
    let g12 = with([d1.clone(), d2.clone()]);
    let g21 = with([d2.clone(), d1.clone()]);
    let g11 = with([d1.clone(), d1.clone()]);
    let g22 = with([d2.clone(), d2.clone()]);
    // Swapping decks moves each deck's cards to the other seat's stream, so
    // seat k's hand follows (seed, k, seat k's deck) and nothing else.
    assert_eq!(g12.hand(0), g11.hand(0));
    assert_eq!(g12.hand(1), g22.hand(1));
    assert_eq!(g21.hand(0), g22.hand(0));
    assert_eq!(g21.hand(1), g11.hand(1));
    // With equal decks, swapping bots between seats changes nothing dealt.
    assert_eq!(g11.hands(), with([d1.clone(), d1.clone()]).hands());
    assert!(g21.hand(0).iter().all(|c| d2.entries().contains(c)));
    assert!(g12.hand(1).iter().all(|c| d2.entries().contains(c)));
}

#[test]
fn hands_never_hold_duplicates_and_come_from_the_seats_deck() {
    let small = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSg8\nWbA", "small").unwrap();
    for seed in 0..30 {
        let settings = Settings {
            max_rounds: 60,
            decks: [Deck::standard(), small.clone()],
            ..Settings::default()
        };
        let game = play_out(seed, settings, [&faulty, &cycle]);
        for r in &game.record().rounds {
            for (seat, hand) in r.hands.iter().enumerate() {
                assert_eq!(hand.len(), HAND_SIZE);
                let mut sorted = hand.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), HAND_SIZE, "duplicate in {hand:?}");
                let deck = if seat == 0 {
                    Deck::standard()
                } else {
                    small.clone()
                };
                assert!(hand.iter().all(|c| deck.entries().contains(c)));
                assert_eq!(hand[r.choices[seat]], r.cards[seat]);
            }
        }
    }
}

#[test]
fn round_cap_is_a_draw() {
    let settings = Settings {
        max_rounds: 2,
        ..Settings::default()
    };
    let mut game = CardJitsu::new(4, settings);
    assert!(game.play([0, 0]).is_some());
    assert!(!game.is_over());
    assert!(game.play([1, 1]).is_some());
    assert!(game.is_over());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, OutcomeReason::RoundCap);
    assert_eq!(outcome.rounds, 2);
    assert_eq!(outcome.winning_cards, None);
    assert_eq!(game.farewell(), ["Draw!"]);
    assert_eq!(game.score(0), Some(0.5));
    assert_eq!(game.score(1), Some(0.5));
    assert!(game.prompts().is_empty());
    assert_eq!(game.hand(0).len(), 4);

    let zero = CardJitsu::new(
        4,
        Settings {
            max_rounds: 0,
            ..Settings::default()
        },
    );
    assert!(zero.is_over() && zero.prompts().is_empty());
    assert_eq!(zero.farewell(), ["Draw!"]);
}

#[test]
fn games_finish_and_winners_hold_their_triple() {
    let mut decided = 0;
    for seed in 0..200 {
        let game = play_out(seed, Settings::default(), [&cycle, &faulty]);
        let outcome = game.outcome().unwrap().clone();
        assert_eq!(outcome.rounds, game.rounds_played());
        if let Some(winner) = outcome.winner {
            decided += 1;
            let seat = usize::from(winner - 1);
            let triple = outcome.winning_cards.unwrap();
            assert!(is_winning_triple(triple));
            assert_eq!(game.pile(seat).winning_triple(), Some(triple));
            assert!(game.pile(1 - seat).winning_triple().is_none());
            assert_eq!(game.record().rounds.last().unwrap().winner, winner);
            assert_eq!(game.farewell(), [format!("Player {winner} wins!")]);
        }
        // Every round's winner is what the rules say.
        for r in &game.record().rounds {
            let w = round_winner(r.cards[0], r.cards[1], r.reverse);
            assert_eq!(w.player_number(), r.winner);
        }
    }
    assert_eq!(decided, 200, "500 rounds is plenty to finish");
}

#[test]
fn cloned_games_replay_identically() {
    let mut a = CardJitsu::new(8, Settings::default());
    a.play([1, 2]);
    let mut b = a.clone();
    for r in 0..5 {
        let x = a
            .play_round([Answer::Fault(Fault::Crash), Answer::Move(r % 5)])
            .cloned();
        let y = b
            .play_round([Answer::Fault(Fault::Crash), Answer::Move(r % 5)])
            .cloned();
        assert_eq!(x, y);
    }
}

#[test]
fn a_search_copy_plays_on_exactly_like_the_game_without_keeping_rounds() {
    for seed in 0..40 {
        let mut game = CardJitsu::new(seed, Settings::default());
        let mut pick = rng::stream(seed, 7);
        // Some rounds first, with a fault, so streams and piles have moved.
        for round in 0..3 {
            if game.is_over() {
                break;
            }
            let first = if round == 1 {
                Answer::Fault(Fault::Timeout)
            } else {
                Answer::Move(pick.random_range(0..5))
            };
            game.play_round([first, Answer::Move(pick.random_range(0..5))]);
        }
        let mut copy = game.search_copy();
        // Copying into a used game gives the same copy.
        let mut reused = CardJitsu::new(seed + 1000, Settings::default());
        reused.play([1, 2]);
        game.search_copy_into(&mut reused);
        assert!(!copy.is_recording() && game.is_recording());
        assert_eq!(copy.rounds_played(), game.rounds_played());
        assert!(copy.record().rounds.is_empty());
        while !game.is_over() {
            let choices = [pick.random_range(0..5), pick.random_range(0..5)];
            let kept = game.play(choices).cloned();
            let seen = copy.play(choices).cloned();
            assert_eq!(kept, seen, "seed {seed}");
            assert_eq!(reused.play(choices).cloned(), seen, "seed {seed}");
            assert_eq!(copy.hand_line(0), game.hand_line(0));
        }
        assert!(copy.is_over());
        assert_eq!(copy.outcome(), game.outcome());
        assert_eq!(reused.outcome(), game.outcome());
        assert!(reused.record().rounds.is_empty() && !reused.is_recording());
        assert_eq!(copy.rounds_played(), game.rounds_played());
        assert!(copy.record().rounds.is_empty());
        let mut line = String::from("x");
        game.write_hand_line(1, &mut line);
        assert_eq!(line, format!("x{}", game.hand_line(1)));
    }
}

#[test]
fn turning_recording_off_keeps_earlier_rounds_only() {
    let mut game = CardJitsu::new(3, Settings::default());
    game.play([0, 0]);
    game.set_recording(false);
    let round = game.play([1, 1]).cloned();
    assert_eq!(round.map(|r| r.round), Some(2));
    assert_eq!(game.record().rounds.len(), 1);
    assert_eq!(game.rounds_played(), 2);
}

#[test]
fn step_plays_the_same_rounds_as_play_and_records_when_recording() {
    for seed in 0..30 {
        let mut played = CardJitsu::new(seed, Settings::default());
        let mut stepped = CardJitsu::new(seed, Settings::default());
        let mut quiet = stepped.search_copy();
        let mut pick = rng::stream(seed, 5);
        while !played.is_over() {
            // Index 7 is out of range: the fallback stream picks, alike.
            let choices = [pick.random_range(0..8), pick.random_range(0..5)];
            let round = played.play(choices).cloned().unwrap();
            let winner = stepped.step(choices).unwrap();
            assert_eq!(winner.player_number(), round.winner);
            assert_eq!(quiet.step(choices), Some(winner));
            assert_eq!(stepped.hands(), played.hands());
            assert_eq!(quiet.hands(), played.hands());
        }
        assert_eq!(stepped.record(), played.record());
        assert_eq!(quiet.outcome(), played.outcome());
        assert!(quiet.record().rounds.is_empty());
        assert_eq!(quiet.step([0, 0]), None);
        assert_eq!(stepped.step([0, 0]), None);
    }
}

#[test]
fn playout_copies_keep_the_position_and_sample_the_future_by_seed() {
    for deck in [Deck::standard(), Deck::championship()] {
        playout_copies_of(deck);
    }
}

/// The playout-copy checks with both seats drawing from `deck`: hands
/// stay within the deck (a card no more often than the deck lists it,
/// without replacement; never twice in a hand, with it).
fn playout_copies_of(deck: Deck) {
    let settings = Settings {
        decks: [deck.clone(), deck.clone()],
        ..Settings::default()
    };
    let listed = |c: &Card| deck.entries().iter().filter(|d| *d == c).count();
    let mut root = CardJitsu::new(12, settings.clone());
    root.play([0, 1]);
    root.play([2, 3]);
    let before = root.clone();
    let play_out = |game: &mut CardJitsu| {
        let mut pick = rng::stream(1, 1);
        let mut winners = Vec::new();
        while let Some(w) = game.step([pick.random_range(0..5), pick.random_range(0..5)]) {
            winners.push((w, game.hand_line(0), game.hand_line(1)));
            for seat in 0..2 {
                let hand = game.hand(seat);
                for c in hand {
                    let held = hand.iter().filter(|h| *h == c).count();
                    match deck.draw() {
                        Draw::WithReplacement => assert!(held == 1 && listed(c) > 0),
                        Draw::WithoutReplacement => assert!(held <= listed(c), "{c} x{held}"),
                    }
                }
            }
        }
        (winners, game.outcome().cloned())
    };
    let mut copy = root.playout_copy(7);
    assert_eq!(copy.hands(), root.hands());
    assert_eq!(copy.pile(0), root.pile(0));
    assert_eq!(copy.pile(1), root.pile(1));
    assert_eq!(copy.reverse(), root.reverse());
    assert_eq!(copy.rounds_played(), 2);
    assert!(!copy.is_recording() && copy.record().rounds.is_empty());
    let seven = play_out(&mut copy);
    // The same seed plays the same future, into a used game too.
    let mut reused = CardJitsu::new(99, settings.clone());
    reused.play([4, 4]);
    root.playout_copy_into(&mut reused, 7);
    assert_eq!(play_out(&mut reused), seven);
    // Other seeds sample other futures (with the same moves).
    let distinct = (0..20u64)
        .map(|seed| play_out(&mut root.playout_copy(seed)))
        .filter(|p| *p != seven)
        .count();
    assert!(distinct >= 18, "{distinct}");
    // The root is untouched: it still deals from its own streams.
    assert_eq!(root.hands(), before.hands());
    let mut exact = root.search_copy();
    let mut again = before.search_copy();
    assert_eq!(play_out(&mut exact), play_out(&mut again));
}

#[test]
fn playout_draws_weigh_duplicates_like_the_documented_draws() {
    let deck = Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSg8\nSg8\nSg8", "t").unwrap();
    let dealer = DeckDealer::new(3, [deck.clone(), deck]);
    let mut fast = dealer.clone();
    dealer.copy_for_playout(&mut fast, 11);
    let hand = cards("Wb8,So3,Fr4");
    let sg8 = card("Sg8");
    let hits = (0..5000).filter(|_| fast.draw(0, &hand) == sg8).count();
    // Fo5 : Sg8 is 1 : 4, so Sg8 comes up about 4000 times, and nothing
    // in the hand ever does.
    assert!((3700..4300).contains(&hits), "{hits}");
    assert!((0..500).all(|_| !hand.contains(&fast.draw(1, &hand))));
}

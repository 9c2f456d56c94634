//! A record is checked against the rules: played games pass, and each kind
//! of edit is caught at the round or turn it makes wrong.

use dojo_engine::cardjitsu::{self, CardJitsu};
use dojo_engine::royale::{self, Action, Board, Dir, Effect, Royale, Team, verify_record};

fn cardjitsu_game(seed: u64) -> cardjitsu::GameRecord {
    let mut game = CardJitsu::new(seed, cardjitsu::Settings::default());
    let mut i = 0;
    while !game.is_over() {
        game.play([i % 5, (i * 3) % 5]);
        i += 1;
    }
    game.into_record()
}

#[test]
fn played_cardjitsu_games_verify() {
    for seed in 0..50 {
        let rec = cardjitsu_game(seed);
        assert_eq!(rec.verify(), Ok(()), "seed {seed}");
    }
    let capped = CardJitsu::new(
        1,
        cardjitsu::Settings {
            max_rounds: 0,
            ..Default::default()
        },
    );
    assert_eq!(capped.into_record().verify(), Ok(()));
}

#[test]
fn cardjitsu_edits_are_caught_at_their_round() {
    let rec = cardjitsu_game(7);
    assert!(rec.rounds.len() > 3);
    let mut winner = rec.clone();
    winner.rounds[2].winner = 3;
    let err = winner.verify().unwrap_err();
    assert_eq!(err.at, "round 3", "{err}");
    assert!(err.to_string().contains("player 3 wins"), "{err}");

    let mut flipped = rec.clone();
    let r = &mut flipped.rounds[1];
    r.winner = if r.winner == 1 { 2 } else { 1 };
    assert_eq!(flipped.verify().unwrap_err().at, "round 2");

    let mut choice = rec.clone();
    choice.rounds[0].choices[1] = 9;
    assert_eq!(choice.verify().unwrap_err().at, "round 1");

    let mut hand = rec.clone();
    hand.rounds[1].hands[0].pop();
    assert_eq!(hand.verify().unwrap_err().at, "round 2");

    let mut outcome = rec.clone();
    outcome.outcome = None;
    assert_eq!(outcome.verify().unwrap_err().at, "the outcome");

    let mut extra = rec.clone();
    let last = extra.rounds.last().unwrap().clone();
    extra.rounds.push(last);
    assert_eq!(
        extra.verify().unwrap_err().at,
        format!("round {}", rec.rounds.len() + 1)
    );
}

fn royale_game() -> royale::GameRecord {
    let text = include_str!("../../../../boards/seed-example.txt");
    let board = Board::parse(text, "seed-example").unwrap();
    let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
    let mut game = Royale::new(board, teams, 7, royale::Settings::default()).unwrap();
    let tries = [
        Action::Instigate(Dir::R),
        Action::Move(Dir::D),
        Action::Instigate(Dir::U),
        Action::Move(Dir::L),
        Action::Move(Dir::U),
    ];
    let mut turn = 0;
    while let Some(seat) = game.to_move() {
        game.step(seat, tries[turn % tries.len()]).unwrap();
        turn += 1;
    }
    game.record()
}

#[test]
fn played_royale_games_verify_and_edits_are_caught() {
    let rec = royale_game();
    assert_eq!(verify_record(&rec), Ok(()));
    assert!(rec.actions.len() > 5);

    let mut effect = rec.clone();
    effect.actions[4].effect = match effect.actions[4].effect {
        Effect::None => Effect::Moved {
            at: rec.players[0].start,
        },
        _ => Effect::None,
    };
    assert_eq!(verify_record(&effect).unwrap_err().at, "turn 5");

    let mut seat = rec.clone();
    seat.actions[0].seat = (seat.actions[0].seat + 1) % 3;
    assert_eq!(verify_record(&seat).unwrap_err().at, "turn 1");

    let mut order = rec.clone();
    order.turn_order = vec![0, 0, 1];
    assert_eq!(verify_record(&order).unwrap_err().at, "the players");

    let mut players = rec.clone();
    players.players.truncate(1);
    assert!(verify_record(&players).is_err());

    let mut outcome = rec.clone();
    outcome.outcome = None;
    assert_eq!(verify_record(&outcome).unwrap_err().at, "the outcome");
}

#[test]
fn a_wrong_outcome_is_named_by_its_field_with_both_values() {
    let rec = (0..50)
        .map(cardjitsu_game)
        .find(|r| {
            r.outcome
                .as_ref()
                .is_some_and(|o| o.winning_cards.is_some())
        })
        .expect("a game won with a triple");
    let won = rec.outcome.clone().unwrap();
    let cards = won.winning_cards.unwrap();
    let show = |c: [cardjitsu::Card; 3]| format!("[{},{},{}]", c[0], c[1], c[2]);
    let message = |edit: &dyn Fn(&mut cardjitsu::Outcome)| {
        let mut bad = rec.clone();
        edit(bad.outcome.as_mut().unwrap());
        let err = bad.verify().unwrap_err();
        assert_eq!(err.at, "the outcome");
        err.what
    };

    let mut other = cards;
    other.swap(0, 1);
    assert_eq!(
        message(&|o| o.winning_cards = Some(other)),
        format!(
            "winning_cards: the record says {}, the rounds give {}",
            show(other),
            show(cards)
        )
    );
    let w = won.winner.unwrap();
    assert_eq!(
        message(&|o| o.winner = Some(3 - w)),
        format!(
            "winner: the record says player {}, the rounds give player {w}",
            3 - w
        )
    );
    assert_eq!(
        message(&|o| o.rounds += 1),
        format!(
            "rounds: the record says {}, the rounds give {}",
            won.rounds + 1,
            won.rounds
        )
    );
    assert_eq!(
        message(&|o| o.reason = cardjitsu::OutcomeReason::RoundCap),
        "reason: the record says round_cap, the rounds give triple"
    );
    let mut none = rec.clone();
    none.outcome = None;
    assert_eq!(
        none.verify().unwrap_err().what,
        format!("outcome: the record says no result yet, the rounds give Player {w} wins!")
    );
}

//! In-process games against a seeded uniformly random opponent, for tests
//! and tuning.

use dojo_engine::cardjitsu::{CardJitsu, Deck, Ruleset, Settings};
use dojo_engine::rng::stream;
use rand::RngExt;

use crate::strategy::{Sensei, Weights, Winner};

/// Random stream id of the random opponent (the game uses 0 to 3).
const OPPONENT_STREAM: u64 = 17;

/// Plays one game with sensei in `seat` (0 or 1) and returns sensei's
/// score: 1 win, 0.5 draw, 0 loss. Both seats draw from the standard deck,
/// the one sensei's model assumes and its weights were tuned on (the
/// README's figures).
pub fn play_vs_random(seed: u64, seat: usize, rules: Ruleset, weights: Weights) -> f64 {
    let settings = Settings {
        rules,
        decks: [Deck::standard(), Deck::standard()],
        ..Settings::default()
    };
    let mut game = CardJitsu::new(seed, settings);
    let mut rng = stream(seed, OPPONENT_STREAM);
    let mut sensei = Sensei::new(weights);
    let other = 1 - seat;
    while game.outcome().is_none() {
        let mine = sensei.choose(game.hand(seat), game.reverse());
        let theirs = rng.random_range(0..game.hand(other).len());
        let mut choices = [0; 2];
        choices[seat] = mine;
        choices[other] = theirs;
        let Some(round) = game.play(choices) else {
            break;
        };
        let winner = match round.winner {
            0 => Winner::Nobody,
            w if usize::from(w) == seat + 1 => Winner::Me,
            _ => Winner::Opponent,
        };
        sensei.observe_result(round.cards[seat], round.cards[other], winner);
    }
    game.score(seat).unwrap_or(0.5)
}

/// Sensei's mean score over `seeds`, in both seats.
pub fn score_vs_random(seeds: std::ops::Range<u64>, rules: Ruleset, weights: Weights) -> f64 {
    let mut total = 0.0;
    let mut games = 0u32;
    for seed in seeds {
        for seat in 0..2 {
            total += play_vs_random(seed, seat, rules, weights);
            games += 1;
        }
    }
    total / f64::from(games.max(1))
}

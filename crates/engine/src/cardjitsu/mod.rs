//! CardJitsu, as played in the CardJitsu Bot Championship.
//!
//! Each round both players pick one of their 5 cards at once. Different
//! elements: Fire beats Snow, Snow beats Water, Water beats Fire. The same
//! element: the higher number wins (the lower one under Reverse); equal
//! numbers are a stalemate. The round's winner keeps the card played, and
//! the first to keep three cards of different colours that are all of one
//! element or all of different elements wins the game. Under the
//! tournament rules, winning with a power card (number 10) makes the next
//! round a Reverse round.
//!
//! Each seat draws from its own deck: by default, under the tournament
//! rules, its own shuffled copy of the championship's 30-card tournament
//! deck, dealt without replacement ([`Deck::championship`]); under the
//! classic rules, the 198-card standard deck, drawn with replacement.
//!
//! Randomness comes from [`crate::rng::stream`]: stream 0 and 1 deal seat
//! 0's and seat 1's cards, stream 2 and 3 pick their fallback moves. A seat
//! is therefore dealt the same cards for the same seed whoever sits in it.
//!
//! Wire protocol (one line per message): the greeting is the player number
//! (`1` or `2`); each round both get their hand (`FyA,Fr6,WoA,Sg6,Wo5`,
//! preceded by `* ` under Reverse) and reply with an index 0 to 4; both are
//! told `WoA vs. Fr6: 1 wins!` (0 for a stalemate); the game ends with
//! `Player 1 wins!` or, at the round cap, `Draw!`.

mod card;
mod dealer;
mod deck;
mod game;
mod hand;
mod pile;
mod record;
mod rules;
mod stream;
pub mod wire;

#[cfg(test)]
mod tests;

pub use card::{Card, CardParseError, Colour, Element, classic_list};
pub use dealer::{Dealer, DeckDealer, deal_hand};
pub use deck::{BadLine, Deck, DeckError, Draw, LineProblem, NAMED_DECKS};
pub use game::{
    CardJitsu, DEFAULT_MAX_ROUNDS, Settings, parse_choice, parse_reply_lines, trim_answer,
};
pub use hand::Hand;
pub use pile::{Pile, is_winning_triple};
pub use record::{GameRecord, Outcome, OutcomeReason, RoundRecord};
pub use rules::{RoundWinner, Ruleset, RulesetParseError, round_winner};

/// Cards in a hand.
pub const HAND_SIZE: usize = 5;

//! What a game leaves behind: every round as the bots saw it, and the result.
//!
//! Field order is part of the format: the same seed and the same choices
//! serialize to the same bytes.

use serde::{Deserialize, Serialize};

use super::HAND_SIZE;
use super::card::Card;
use super::pile::Pile;
use super::rules::{Ruleset, round_winner};
use crate::protocol::Fault;
use crate::verify::Contradiction;

/// One played round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// 1-based round number.
    pub round: u32,
    /// Whether Reverse was active in this round.
    pub reverse: bool,
    /// The hands as shown to the bots, by seat.
    pub hands: [Vec<Card>; 2],
    /// The hand index each seat actually played (after any fallback).
    pub choices: [usize; 2],
    /// The cards played, by seat.
    pub cards: [Card; 2],
    /// 0 for a stalemate, else the winning player number (1 or 2).
    pub winner: u8,
    /// Why a seat's card was picked at random instead, if it was.
    pub faults: [Option<Fault>; 2],
}

impl RoundRecord {
    /// The round-result line sent to both bots: `WoA vs. Fr6: 1 wins!`.
    pub fn result_line(&self) -> String {
        super::wire::result_line(self.cards, self.winner)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeReason {
    /// A player completed a winning triple.
    Triple,
    /// Nobody won within the round cap: a draw.
    RoundCap,
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning player number (1 or 2); `None` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: OutcomeReason,
    /// Rounds played.
    pub rounds: u32,
    /// The winner's triple, in the order they were won.
    pub winning_cards: Option<[Card; 3]>,
}

impl Outcome {
    /// The farewell line: `Player 1 wins!` or `Draw!`.
    pub fn farewell_line(&self) -> String {
        super::wire::farewell_line(self.winner)
    }

    /// The score of `seat` (0 or 1): 1.0 for a win, 0.5 for a draw, 0.0
    /// for a loss.
    pub fn score(&self, seat: usize) -> f64 {
        match self.winner {
            None => 0.5,
            Some(n) if usize::from(n) == seat + 1 => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// A whole game, enough to show or check it without replaying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub rules: Ruleset,
    #[serde(with = "crate::rng::seed_json")]
    pub seed: u64,
    pub max_rounds: u32,
    pub rounds: Vec<RoundRecord>,
    /// `None` while the game is running.
    pub outcome: Option<Outcome>,
}

impl GameRecord {
    /// Re-derives every round from the rules: hands carried over from the
    /// round before (the played card gone, one card drawn), the card
    /// played is the chosen one, Reverse follows from the previous round's
    /// winning card, the winner from the two cards, and the outcome from
    /// the piles and the round cap. The dealing itself (which card was
    /// drawn) depends on the decks and is not checked here.
    pub fn verify(&self) -> Result<(), Contradiction> {
        let mut piles = [Pile::new(), Pile::new()];
        let mut reverse = false;
        let mut ended = (self.max_rounds == 0).then_some(Outcome {
            winner: None,
            reason: OutcomeReason::RoundCap,
            rounds: 0,
            winning_cards: None,
        });
        for (i, r) in self.rounds.iter().enumerate() {
            let at = format!("round {}", i + 1);
            let bad = |what: String| Err(Contradiction::new(at.clone(), what));
            if ended.is_some() {
                return bad("the game had already ended".into());
            }
            if u64::from(r.round) != i as u64 + 1 {
                return bad(format!("numbered {}, expected {}", r.round, i + 1));
            }
            for seat in 0..2 {
                let hand = &r.hands[seat];
                if hand.len() != HAND_SIZE {
                    return bad(format!(
                        "player {} holds {} cards, expected {HAND_SIZE}",
                        seat + 1,
                        hand.len()
                    ));
                }
                if hand.get(r.choices[seat]) != Some(&r.cards[seat]) {
                    return bad(format!(
                        "player {} played {} but card {} of its hand is not that card",
                        seat + 1,
                        r.cards[seat],
                        r.choices[seat]
                    ));
                }
                if let Some(prev) = i.checked_sub(1).map(|p| &self.rounds[p]) {
                    let mut kept = prev.hands[seat].clone();
                    kept.remove(prev.choices[seat]);
                    if hand[..kept.len()] != kept[..] {
                        return bad(format!(
                            "player {}'s hand is not last round's hand without the card played",
                            seat + 1
                        ));
                    }
                }
            }
            if r.reverse != reverse {
                return bad(format!(
                    "the record says Reverse is {}, the rules say {}",
                    on_off(r.reverse),
                    on_off(reverse)
                ));
            }
            let winner = round_winner(r.cards[0], r.cards[1], reverse);
            if r.winner != winner.player_number() {
                return bad(format!(
                    "{} vs. {}: the record says {}, the rules say {}",
                    r.cards[0],
                    r.cards[1],
                    winner_text(r.winner),
                    winner_text(winner.player_number())
                ));
            }
            reverse = false;
            if let Some(seat) = winner.seat() {
                let card = r.cards[seat];
                reverse = self.rules.activates_reverse(card);
                if let Some(triple) = piles[seat].push(card) {
                    ended = Some(Outcome {
                        winner: Some(winner.player_number()),
                        reason: OutcomeReason::Triple,
                        rounds: r.round,
                        winning_cards: Some(triple),
                    });
                }
            }
            if ended.is_none() && r.round >= self.max_rounds {
                ended = Some(Outcome {
                    winner: None,
                    reason: OutcomeReason::RoundCap,
                    rounds: r.round,
                    winning_cards: None,
                });
            }
        }
        if let Some(what) = outcome_difference(self.outcome.as_ref(), ended.as_ref()) {
            return Err(Contradiction::new("the outcome", what));
        }
        Ok(())
    }
}

/// The first field in which the recorded outcome differs from the one the
/// rounds give, named with both values: `winning_cards: the record says
/// [Fr4,Sr6,Wo5], the rounds give [Fb3,Sr6,Wo5]`.
fn outcome_difference(record: Option<&Outcome>, rounds: Option<&Outcome>) -> Option<String> {
    let differ = |field: &str, ours: String, theirs: String| {
        Some(format!(
            "{field}: the record says {ours}, the rounds give {theirs}"
        ))
    };
    match (record, rounds) {
        (None, None) => None,
        (Some(_), None) => differ("outcome", "a result".into(), "no result yet".into()),
        (None, Some(o)) => differ("outcome", "no result yet".into(), o.farewell_line()),
        (Some(r), Some(o)) => {
            let winner =
                |w: Option<u8>| w.map_or("none (a draw)".to_owned(), |n| format!("player {n}"));
            let cards = |c: Option<[Card; 3]>| {
                c.map_or("none".to_owned(), |c| {
                    format!("[{},{},{}]", c[0], c[1], c[2])
                })
            };
            let reason = |r: OutcomeReason| match r {
                OutcomeReason::Triple => "triple",
                OutcomeReason::RoundCap => "round_cap",
            };
            if r.winner != o.winner {
                differ("winner", winner(r.winner), winner(o.winner))
            } else if r.reason != o.reason {
                differ("reason", reason(r.reason).into(), reason(o.reason).into())
            } else if r.rounds != o.rounds {
                differ("rounds", r.rounds.to_string(), o.rounds.to_string())
            } else if r.winning_cards != o.winning_cards {
                differ(
                    "winning_cards",
                    cards(r.winning_cards),
                    cards(o.winning_cards),
                )
            } else {
                None
            }
        }
    }
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn winner_text(winner: u8) -> String {
    match winner {
        0 => "a stalemate".to_owned(),
        n => format!("player {n} wins"),
    }
}

//! Sensei's card choice: a one-round expectation over the opponent's card.
//!
//! The opponent's card is modelled as drawn uniformly from the standard
//! deck (every element, colour and number 2 to 12), which is exact against
//! a random player and a fair prior against anyone else. For each card in
//! hand, every possible opposing card is resolved under the current
//! Reverse flag, and the position after the round is scored:
//!
//! - winning with a card that completes a triple, or losing to one that
//!   completes the opponent's, ends the game (+1 / -1);
//! - otherwise both piles are scored by their outs (combinations that would
//!   complete a triple) and their half-built triples, and the cards kept in
//!   hand by how likely the best of them is to win next round, above all a
//!   card that would complete a triple (under the Reverse flag the round
//!   leaves behind, so winning with a power card values low cards).
//!
//! Blocking falls out of the same sum: a card whose element loses to the
//! elements of the opponent's outs carries their -1s.

use dojo_engine::cardjitsu::{Card, Colour, Element, RoundWinner, round_winner};

use crate::combos::{COMBOS, ComboSet, bit, combo, prospects};

/// Who won a round, from sensei's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// Sensei's card won and joins its pile.
    Me,
    /// The opponent's card won and joins theirs.
    Opponent,
    /// Stalemate: nobody keeps a card.
    Nobody,
}

/// The weights of the position score (terminal positions are +1 / -1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Per out of sensei's pile.
    pub outs: f64,
    /// Per half-built triple of sensei's pile.
    pub started: f64,
    /// Per out of the opponent's pile.
    pub opp_outs: f64,
    /// Per half-built triple of the opponent's pile.
    pub opp_started: f64,
    /// Times the best chance of winning next round with a kept card that
    /// completes a triple.
    pub live: f64,
    /// Times the best chance of winning next round with any kept card.
    pub strength: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            // Tuned by simulation against a random player (see README).
            outs: 0.04,
            started: 0.001,
            opp_outs: 0.05,
            opp_started: 0.001,
            live: 0.35,
            strength: 0.05,
        }
    }
}

/// Value of winning the game.
const WIN: f64 = 1.0;

/// A card of the opponent's model and its weight.
#[derive(Debug, Clone, Copy)]
struct Weighted {
    card: Card,
    weight: f64,
}

/// The CardJitsu player: its knowledge of both piles and its card choice.
#[derive(Debug, Clone)]
pub struct Sensei {
    weights: Weights,
    /// Combinations sensei has won.
    mine: ComboSet,
    /// Combinations the opponent has won.
    theirs: ComboSet,
    /// The opponent's possible cards; weights sum to 1.
    model: Vec<Weighted>,
    /// Whether power cards set Reverse (tournament rules). Assumed until a
    /// power-card win is followed by a normal round.
    power_reverses: bool,
    /// A power card won the last round, so Reverse is due if the rules
    /// have it.
    reverse_due: bool,
}

impl Default for Sensei {
    fn default() -> Sensei {
        Sensei::new(Weights::default())
    }
}

impl Sensei {
    /// A player with empty piles and the given weights.
    pub fn new(weights: Weights) -> Sensei {
        let mut model = Vec::with_capacity(198);
        for e in Element::ALL {
            for c in Colour::ALL {
                for n in 2..=12 {
                    if let Ok(card) = Card::new(e, c, n) {
                        model.push(Weighted { card, weight: 1.0 });
                    }
                }
            }
        }
        let total = model.len() as f64;
        for w in &mut model {
            w.weight /= total;
        }
        Sensei {
            weights,
            mine: 0,
            theirs: 0,
            model,
            power_reverses: true,
            reverse_due: false,
        }
    }

    /// Forgets both piles (a new game).
    pub fn reset(&mut self) {
        *self = Sensei::new(self.weights);
    }

    /// Whether sensei believes power cards set Reverse.
    pub fn power_reverses(&self) -> bool {
        self.power_reverses
    }

    /// The combinations sensei has won.
    pub fn my_pile(&self) -> ComboSet {
        self.mine
    }

    /// The combinations the opponent has won.
    pub fn their_pile(&self) -> ComboSet {
        self.theirs
    }

    /// Records a round's cards and result.
    pub fn observe_result(&mut self, mine: Card, theirs: Card, winner: Winner) {
        let won = match winner {
            Winner::Me => {
                self.mine |= bit(mine);
                Some(mine)
            }
            Winner::Opponent => {
                self.theirs |= bit(theirs);
                Some(theirs)
            }
            Winner::Nobody => None,
        };
        self.reverse_due = won.is_some_and(Card::is_power);
        // A card outside the standard deck shows the opponent's deck is
        // different; give it a share so it is never thought impossible.
        if !self.model.iter().any(|w| w.card == theirs) {
            let share = 1.0 / (self.model.len() + 1) as f64;
            for w in &mut self.model {
                w.weight *= 1.0 - share;
            }
            self.model.push(Weighted {
                card: theirs,
                weight: share,
            });
        }
    }

    /// The index in `hand` of the card to play. `hand` must not be empty
    /// (an empty hand gets 0).
    pub fn choose(&mut self, hand: &[Card], reverse: bool) -> usize {
        if reverse {
            self.power_reverses = true;
        } else if self.reverse_due {
            self.power_reverses = false;
        }
        self.reverse_due = false;
        let scores = self.scores(hand, reverse);
        let mut best = 0;
        for (i, &s) in scores.iter().enumerate() {
            // Ties go to the earlier card; the small epsilon keeps float
            // noise from deciding.
            if s > scores[best] + 1e-12 {
                best = i;
            }
        }
        best
    }

    /// The expected score of playing each card of `hand`.
    pub fn scores(&self, hand: &[Card], reverse: bool) -> Vec<f64> {
        let w = &self.weights;
        // Chance of each hand card winning a round, without and with Reverse.
        let pwin: Vec<[f64; 2]> = hand
            .iter()
            .map(|&c| [self.win_chance(c, false), self.win_chance(c, true)])
            .collect();
        let mine_now = prospects(self.mine);
        let theirs_now = prospects(self.theirs);
        // Opponent's pile score after winning each combination (or a
        // losing game if it completes a triple).
        let mut after_their_win = [0.0; COMBOS];
        for (k, v) in after_their_win.iter_mut().enumerate() {
            *v = if theirs_now.outs & (1 << k) != 0 {
                -WIN
            } else {
                let p = prospects(self.theirs | (1 << k));
                -(w.opp_outs * f64::from(p.outs.count_ones())
                    + w.opp_started * f64::from(p.started))
            };
        }
        let their_base = -(w.opp_outs * f64::from(theirs_now.outs.count_ones())
            + w.opp_started * f64::from(theirs_now.started));
        let my_pile_value = |p: &crate::combos::Prospects| {
            w.outs * f64::from(p.outs.count_ones()) + w.started * f64::from(p.started)
        };
        let my_base = my_pile_value(&mine_now);
        // Value of the cards kept after playing `played`, given the outs
        // the pile will have and whether the next round is reversed.
        let kept_value = |played: usize, outs: ComboSet, next_reverse: bool| {
            let r = usize::from(next_reverse);
            let (mut live, mut strength) = (0.0f64, 0.0f64);
            for (j, &c) in hand.iter().enumerate() {
                if j == played {
                    continue;
                }
                strength = strength.max(pwin[j][r]);
                if outs & bit(c) != 0 {
                    live = live.max(pwin[j][r]);
                }
            }
            w.live * live + w.strength * strength
        };
        let next_reverse = |winning: Card| self.power_reverses && winning.is_power();
        hand.iter()
            .enumerate()
            .map(|(i, &card)| {
                let value_if_won = if mine_now.outs & bit(card) != 0 {
                    WIN
                } else {
                    let p = prospects(self.mine | bit(card));
                    my_pile_value(&p) + their_base + kept_value(i, p.outs, next_reverse(card))
                };
                let kept_plain = kept_value(i, mine_now.outs, false);
                let kept_reversed = kept_value(i, mine_now.outs, true);
                let mut total = 0.0;
                for m in &self.model {
                    let v = match round_winner(card, m.card, reverse) {
                        RoundWinner::First => value_if_won,
                        RoundWinner::Second => {
                            let theirs = after_their_win[combo(m.card)];
                            if theirs <= -WIN {
                                -WIN
                            } else {
                                let kept = if next_reverse(m.card) {
                                    kept_reversed
                                } else {
                                    kept_plain
                                };
                                my_base + theirs + kept
                            }
                        }
                        RoundWinner::Stalemate => my_base + their_base + kept_plain,
                    };
                    total += m.weight * v;
                }
                total
            })
            .collect()
    }

    /// Chance that `card` beats the modelled opponent card.
    fn win_chance(&self, card: Card, reverse: bool) -> f64 {
        self.model
            .iter()
            .filter(|m| round_winner(card, m.card, reverse) == RoundWinner::First)
            .map(|m| m.weight)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split(',').map(|c| c.parse().unwrap()).collect()
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn with_piles(mine: &[&str], theirs: &[&str]) -> Sensei {
        let mut s = Sensei::default();
        // Feed the piles through observe_result, as the protocol would;
        // the other card is one that loses / wins accordingly.
        for m in mine {
            s.observe_result(card(m), card("Fr2"), Winner::Me);
        }
        for t in theirs {
            s.observe_result(card("Fr2"), card(t), Winner::Opponent);
        }
        s.reverse_due = false;
        s
    }

    #[test]
    fn takes_an_immediate_winning_triple() {
        // WoA and Fb3 won: SgA completes (three elements, three colours)
        // and is a likely winner, so it beats the strong but useless FyC.
        let mut s = with_piles(&["WoA", "Fb3"], &[]);
        let hand = cards("FyC,Wo5,SgA,Fg8,Wp4");
        assert_eq!(s.choose(&hand, false), 2);
    }

    #[test]
    fn prefers_high_numbers_normally_and_low_under_reverse() {
        let hand = cards("Fr3,FrB,Fr7,Fr5,Fr9");
        let mut s = Sensei::default();
        assert_eq!(s.choose(&hand, false), 1);
        let mut s = Sensei::default();
        assert_eq!(s.choose(&hand, true), 0);
    }

    #[test]
    fn blocks_an_imminent_opponent_triple() {
        // The opponent holds Water red and Water blue: any Water of another
        // colour wins them the game. Fire loses to all Water, Snow beats
        // it, so with otherwise equal cards sensei plays Snow.
        let mut s = with_piles(&[], &["Wr5", "Wb6"]);
        let hand = cards("Fg9,Fy9,So9,Fp9,Fo9");
        assert_eq!(s.choose(&hand, false), 2);
        // Even a strong Fire card is worse than a middling Snow one.
        let mut s = with_piles(&[], &["Wr5", "Wb6"]);
        let hand = cards("FgC,Sy6,FoB,FpB,FrC");
        assert_eq!(s.choose(&hand, false), 1);
    }

    #[test]
    fn learns_that_power_cards_do_not_reverse_under_classic_rules() {
        let mut s = Sensei::default();
        s.observe_result(card("FrA"), card("Sr2"), Winner::Me);
        s.choose(&cards("Fr3,FrB,Fr7,Fr5,Fr9"), false);
        assert!(!s.power_reverses());
        s.choose(&cards("Fr3,FrB,Fr7,Fr5,Fr9"), true);
        assert!(s.power_reverses());
    }

    #[test]
    fn scores_are_bounded_and_one_per_card() {
        let s = with_piles(&["Wr5", "Fb2"], &["Sg3", "Wg4"]);
        let hand = cards("FyA,Wo5,SgA,Fg8,Wp4");
        let scores = s.scores(&hand, true);
        assert_eq!(scores.len(), 5);
        assert!(
            scores.iter().all(|v| (-1.0..=1.0).contains(v)),
            "{scores:?}"
        );
    }
}

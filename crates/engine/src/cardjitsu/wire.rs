//! The CardJitsu wire lines, written in one place: the referee
//! ([`super::CardJitsu`]) sends them, and the interactive classic game
//! (`dojo play`) sends the same ones to a bot opponent.
//!
//! The greeting is the player number (`1` or `2`); each round a seat is
//! sent its hand (`FyA,Fr6,WoA,Sg6,Wo5`, preceded by `* ` under Reverse) and
//! both are told the round's result (`WoA vs. Fr6: 1 wins!`, 0 for a
//! stalemate); the game ends with `Player 1 wins!` or `Draw!`.

use std::fmt::Write as _;

use super::card::Card;

/// The greeting of `seat` (0 or 1): its player number.
pub fn greeting(seat: usize) -> String {
    (seat + 1).to_string()
}

/// What precedes the hand under Reverse: the championship's "message of
/// `* `" (its server sends `"* "` and then the hand), so a bot written for
/// it that strips two characters reads the first card whole.
pub const REVERSE_MARK: &str = "* ";

/// Appends the hand line of `hand` to `out` (a reused buffer): the cards
/// joined by `,`, preceded by [`REVERSE_MARK`] when Reverse is active.
#[inline]
pub fn write_hand_line(hand: &[Card], reverse: bool, out: &mut String) {
    if reverse {
        out.push_str(REVERSE_MARK);
    }
    for (i, card) in hand.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{card}");
    }
}

/// The hand line of `hand` (see [`write_hand_line`]).
pub fn hand_line(hand: &[Card], reverse: bool) -> String {
    let mut line = String::with_capacity(REVERSE_MARK.len() + 4 * hand.len());
    write_hand_line(hand, reverse, &mut line);
    line
}

/// The round-result line: player 1's card, player 2's card, and the
/// winner's player number (0 for a stalemate).
pub fn result_line(cards: [Card; 2], winner: u8) -> String {
    format!("{} vs. {}: {winner} wins!", cards[0], cards[1])
}

/// The farewell line: `Player N wins!`, or `Draw!` without a winner.
pub fn farewell_line(winner: Option<u8>) -> String {
    match winner {
        Some(n) => format!("Player {n} wins!"),
        None => "Draw!".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_are_the_protocols() {
        let cards: Vec<Card> = ["FyA", "Fr6", "WoA"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(greeting(1), "2");
        assert_eq!(hand_line(&cards, false), "FyA,Fr6,WoA");
        assert_eq!(hand_line(&cards, true), "* FyA,Fr6,WoA");
        assert_eq!(result_line([cards[2], cards[1]], 1), "WoA vs. Fr6: 1 wins!");
        assert_eq!(farewell_line(Some(2)), "Player 2 wins!");
        assert_eq!(farewell_line(None), "Draw!");
    }
}

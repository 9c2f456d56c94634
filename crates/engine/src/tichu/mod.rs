//! Whether a Tichu play is legal after the previous play, as in seed 003.
//!
//! Rules as implemented:
//! - Cards are written `2`-`9`, `0` (ten), `J Q K A`, and the specials `1`
//!   (Mah Jong, rank 1), `R` (dragon), `P` (phoenix), `D` (dog). A [`Play`]
//!   is a multiset of cards in any order; the empty play (`-`) as the
//!   previous play means the player has the lead.
//! - Combinations ([`Kind`]): single; pair; triple; full house (a triple
//!   and a pair of another rank, ranked by the triple); straight (5 or
//!   more consecutive ranks, the Mah Jong counting as 1); tractor (2 or
//!   more pairs of consecutive ranks); bomb (four of a kind; straight-flush
//!   bombs are out of scope because cards have no suits here).
//! - The phoenix is a wildcard for any rank 2 to ace in any combination
//!   but a bomb. Alone it is a single worth half a rank more than the
//!   single it is played on (1½ when led) and beats any single but the
//!   dragon. The dragon is only a single and beats every single. The dog
//!   is played alone, only on lead.
//! - On lead, any combination is legal. After a play, the play must be of
//!   the same kind and length and strictly higher, or a bomb, which beats
//!   anything but an equal or higher bomb.
//! - A play the phoenix makes ambiguous is legal if some reading of it is;
//!   a previous play counts at its highest reading.
//!
//! [`judge`] takes both plays as cards; [`judge_after`] takes the previous
//! play as the [`Combination`] it was declared as, which a referee that
//! knows the history needs for a phoenix single played on a card.

mod card;
mod combination;
mod verdict;

#[cfg(test)]
mod tests;

pub use card::{Card, Play, PlayParseError, Rank};
pub use combination::{Combination, Kind, readings};
pub use verdict::{PreviousError, SpecialRule, Verdict, Violation, judge, judge_after};

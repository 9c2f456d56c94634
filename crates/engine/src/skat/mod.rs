//! The game value of a Skat hand for bidding, as in seed 001 (a suit game
//! with the simplified jack factor).
//!
//! Rules as implemented:
//! - A card is written value then suit: values `A K Q J 0 9 8 7` (`0` is
//!   the ten), suits `C S H D` (clubs/Kreuz, spades/Pik, hearts/Herz,
//!   diamonds/Karo), so `JC` is the jack of clubs and `0S` the ten of
//!   spades. A [`Hand`] is 10 distinct cards in any order.
//! - The jack factor ([`jack_factor`]): the jacks, highest first, are
//!   clubs, spades, hearts, diamonds. Holding the jack of clubs, it is the
//!   length of the unbroken run of jacks held from the top ("with n"),
//!   plus one; without it, the length of the unbroken run of jacks missing
//!   from the top ("without n"), plus one. As the seed says, further
//!   trumps after the jacks do not count, so the factor is 2 to 5.
//! - The trump suit ([`bid`]): a suit's trumps are its cards plus all
//!   jacks. Among the suits with the most trumps, the highest-valued
//!   (clubs 12, spades 11, hearts 10, diamonds 9) is chosen. The hand is
//!   played if that suit gives at least 6 trumps and the hand holds an ace
//!   of another suit; its value is jack factor x suit value. Otherwise the
//!   hand passes ([`PassReason`] says why).
//! - As in the seed's algorithm, the trump suit is chosen first and the
//!   ace checked after: a hand whose best suit has no side ace passes even
//!   if another suit with 6 trumps would have had one.

mod bid;
mod card;
mod hand;

#[cfg(test)]
mod tests;

pub use bid::{Bid, MIN_TRUMPS, PassReason, Valuation, bid, jack_factor};
pub use card::{Card, CardParseError, Suit, Value};
pub use hand::{HAND_SIZE, Hand, HandError};

//! dojo's statistics: Elo ratings fitted to game results ([`rating`]), the
//! sequential test `dojo compare` stops on ([`sprt`]) and the one place the
//! Elo/score formulas are written ([`elo`]).
//!
//! Pure numerics over scores: no games, files or processes, and no other
//! dojo crate. The methods are documented in `RATINGS.md` and `SPRT.md`
//! beside this crate.

pub mod elo;
pub mod rating;
pub mod sprt;

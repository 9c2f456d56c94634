//! Sensei, a CardJitsu bot: probability- and triple-aware card choice.
//!
//! [`strategy`] decides which card to play; [`protocol`] speaks the
//! line protocol over any reader and writer; the binary wires it to
//! stdin and stdout.

pub mod combos;
pub mod protocol;
pub mod sim;
pub mod strategy;

//! A random stream that can be cloned, and the fast streams of playouts.
//!
//! rand 0.10's `ChaCha8Rng` is deliberately not `Clone`; a game's streams
//! must be, so that a bot can copy a game and search ahead. The generator's
//! full position is its serialized state, so copying that copies the
//! stream exactly.
//!
//! A playout that samples unknown future cards does not need the game's
//! own documented streams, only fast independent ones: a stream can instead
//! be a xoshiro256++ generator (rand's `Xoshiro256PlusPlus`, a specified
//! algorithm), several times cheaper to seed, copy and draw from.

use std::convert::Infallible;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng, TryRng};

use crate::rng::ChaCha8Rng;

/// A [`ChaCha8Rng`] that clones by copying its exact position, or a fast
/// xoshiro256++ stream for playouts. Draws from it (it is a [`rand::Rng`])
/// are exactly the draws from the generator inside, so a ChaCha8 stream
/// gives the documented numbers.
#[derive(Debug)]
pub(crate) struct Stream {
    state: State,
}

// The built generator is large, and kept inline on purpose: boxing it
// would allocate each time a copied stream is first used.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum State {
    /// The documented generator, built.
    Live(ChaCha8Rng),
    /// The documented generator's position, to build it from when first
    /// used: rebuilding recomputes its block buffer, which costs more than
    /// a whole CardJitsu round, and a searching bot's copies often never
    /// touch a stream (the fallback streams, unless a fault happens).
    Saved([u8; 49]),
    /// A fast stream for playouts.
    Fast(Xoshiro256PlusPlus),
    /// A fast stream not seeded yet (a playout's fallback streams are
    /// seldom used): stream `id` of `seed`.
    FastSeed { seed: u64, id: u64 },
}

impl Stream {
    /// Stream `id` of `seed`, as [`crate::rng::stream`] defines it.
    pub(crate) fn new(seed: u64, id: u64) -> Stream {
        Stream {
            state: State::Live(crate::rng::stream(seed, id)),
        }
    }

    /// Makes this fast (xoshiro256++) stream `id` of `seed`, in place: not
    /// the documented ChaCha8 stream of any game. It is seeded (with
    /// [`crate::rng::derive_seed`]`(seed, [id])`) when first used.
    pub(crate) fn reseed_fast(&mut self, seed: u64, id: u64) {
        self.state = State::FastSeed { seed, id };
    }

    /// Whether this is a fast playout stream.
    #[inline]
    pub(crate) fn is_fast(&self) -> bool {
        matches!(self.state, State::Fast(_) | State::FastSeed { .. })
    }

    /// A number uniform in `0..n` (`n` > 0) from a fast stream, by
    /// Lemire's multiply-and-reject method: one 64-bit draw nearly always,
    /// cheaper than rand's general range sampling. Only for fast streams,
    /// whose numbers are not documented (a ChaCha8 stream answers with
    /// `random_range`, as the documented draws use).
    #[inline]
    pub(crate) fn fast_below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            // Reject the few low parts that would favour some results.
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as usize
    }

    /// The generator, built (or seeded) first if need be.
    #[cold]
    fn build(&mut self) {
        match &self.state {
            State::Saved(saved) => {
                self.state = State::Live(ChaCha8Rng::deserialize_state(saved));
            }
            &State::FastSeed { seed, id } => {
                let seed = crate::rng::derive_seed(seed, &[id]);
                self.state = State::Fast(Xoshiro256PlusPlus::seed_from_u64(seed));
            }
            State::Live(_) | State::Fast(_) => {}
        }
    }
}

impl TryRng for Stream {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        loop {
            match &mut self.state {
                State::Fast(rng) => return Ok(rng.next_u32()),
                State::Live(rng) => return Ok(rng.next_u32()),
                State::Saved(_) | State::FastSeed { .. } => self.build(),
            }
        }
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        loop {
            match &mut self.state {
                State::Fast(rng) => return Ok(rng.next_u64()),
                State::Live(rng) => return Ok(rng.next_u64()),
                State::Saved(_) | State::FastSeed { .. } => self.build(),
            }
        }
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        loop {
            match &mut self.state {
                State::Fast(rng) => {
                    rng.fill_bytes(dst);
                    return Ok(());
                }
                State::Live(rng) => {
                    rng.fill_bytes(dst);
                    return Ok(());
                }
                State::Saved(_) | State::FastSeed { .. } => self.build(),
            }
        }
    }
}

impl Clone for Stream {
    fn clone(&self) -> Stream {
        let mut copy = Stream {
            state: State::Saved([0; 49]),
        };
        copy.clone_from(self);
        copy
    }

    /// In place: a stream holds a whole ChaCha8 generator (a few hundred
    /// bytes), which a copy of a small state need not move around.
    fn clone_from(&mut self, source: &Stream) {
        match &source.state {
            State::Live(rng) => self.state = State::Saved(rng.serialize_state()),
            State::Saved(saved) => self.state = State::Saved(*saved),
            State::Fast(rng) => self.state = State::Fast(rng.clone()),
            &State::FastSeed { seed, id } => self.state = State::FastSeed { seed, id },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn clones_of_clones_and_unused_clones_continue_from_the_same_position() {
        let mut a = Stream::new(9, 1);
        let _: u64 = a.random();
        let b = a.clone();
        let mut c = b.clone();
        let _: u64 = a.random();
        let mut d = b.clone();
        let x: u64 = c.random();
        let y: u64 = d.random();
        assert_eq!(x, y);
    }

    #[test]
    fn fast_streams_are_seeded_by_seed_and_id_and_cloned_exactly() {
        let draw = |s: &mut Stream| -> Vec<usize> { (0..40).map(|_| s.fast_below(7)).collect() };
        let mut a = Stream::new(1, 0);
        a.reseed_fast(5, 2);
        let mut same = Stream::new(9, 9);
        same.reseed_fast(5, 2);
        let mut other_id = Stream::new(1, 0);
        other_id.reseed_fast(5, 3);
        let unseeded = a.clone();
        let first = draw(&mut a);
        assert!(first.iter().all(|&x| x < 7));
        assert_eq!(first, draw(&mut same));
        assert_ne!(first, draw(&mut other_id));
        assert_eq!(first, draw(&mut unseeded.clone()));
        let mut b = a.clone();
        assert_eq!(draw(&mut a), draw(&mut b));
        assert!(a.is_fast() && !Stream::new(1, 0).is_fast());
    }

    #[test]
    fn fast_below_is_uniform() {
        let mut s = Stream::new(0, 0);
        s.reseed_fast(11, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[s.fast_below(6)] += 1;
        }
        // Each about 10,000; 4.5 standard deviations is about 440.
        assert!(
            counts.iter().all(|&c| (9_560..10_440).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn clone_continues_from_the_same_position() {
        let mut a = Stream::new(5, 3);
        for _ in 0..37 {
            let _: u32 = a.random();
        }
        let mut b = a.clone();
        let xs: Vec<u64> = (0..50).map(|_| a.random()).collect();
        let ys: Vec<u64> = (0..50).map(|_| b.random()).collect();
        assert_eq!(xs, ys);
        let mut fresh = Stream::new(5, 3);
        let zs: Vec<u64> = (0..50).map(|_| fresh.random()).collect();
        assert_ne!(xs, zs);
    }
}

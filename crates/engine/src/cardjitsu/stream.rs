//! A random stream that can be cloned.
//!
//! rand 0.10's `ChaCha8Rng` is deliberately not `Clone`; a game's streams
//! must be, so that a bot can copy a game and search ahead. The generator's
//! full position is its serialized state, so copying that copies the
//! stream exactly.

use crate::rng::ChaCha8Rng;

/// A [`ChaCha8Rng`] that clones by copying its exact position.
#[derive(Debug)]
pub(crate) struct Stream(ChaCha8Rng);

impl Stream {
    /// Stream `id` of `seed`, as [`crate::rng::stream`] defines it.
    pub(crate) fn new(seed: u64, id: u64) -> Stream {
        Stream(crate::rng::stream(seed, id))
    }

    /// The generator.
    pub(crate) fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.0
    }
}

impl Clone for Stream {
    fn clone(&self) -> Stream {
        Stream(ChaCha8Rng::deserialize_state(&self.0.serialize_state()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn clone_continues_from_the_same_position() {
        let mut a = Stream::new(5, 3);
        for _ in 0..37 {
            let _: u32 = a.rng().random();
        }
        let mut b = a.clone();
        let xs: Vec<u64> = (0..50).map(|_| a.rng().random()).collect();
        let ys: Vec<u64> = (0..50).map(|_| b.rng().random()).collect();
        assert_eq!(xs, ys);
        let mut fresh = Stream::new(5, 3);
        let zs: Vec<u64> = (0..50).map(|_| fresh.rng().random()).collect();
        assert_ne!(xs, zs);
    }
}

//! A random stream that can be cloned.
//!
//! rand 0.10's `ChaCha8Rng` is deliberately not `Clone`; a game's streams
//! must be, so that a bot can copy a game and search ahead. The generator's
//! full position is its serialized state, so copying that copies the
//! stream exactly.

use crate::rng::ChaCha8Rng;

/// A [`ChaCha8Rng`] that clones by copying its exact position.
///
/// Rebuilding a generator from its position recomputes its block buffer,
/// which costs more than a whole CardJitsu round; so a clone keeps only the
/// position and rebuilds the generator when it is first used (a searching
/// bot's copies never touch the fallback streams unless a fault happens).
#[derive(Debug)]
pub(crate) struct Stream {
    /// The generator, once built.
    live: Option<ChaCha8Rng>,
    /// The position to build it from when `live` is `None`.
    saved: [u8; 49],
}

impl Stream {
    /// Stream `id` of `seed`, as [`crate::rng::stream`] defines it.
    pub(crate) fn new(seed: u64, id: u64) -> Stream {
        Stream {
            live: Some(crate::rng::stream(seed, id)),
            saved: [0; 49],
        }
    }

    /// The generator.
    pub(crate) fn rng(&mut self) -> &mut ChaCha8Rng {
        let saved = &self.saved;
        self.live
            .get_or_insert_with(|| ChaCha8Rng::deserialize_state(saved))
    }
}

impl Clone for Stream {
    fn clone(&self) -> Stream {
        Stream {
            live: None,
            saved: self
                .live
                .as_ref()
                .map_or(self.saved, ChaCha8Rng::serialize_state),
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
        let _: u64 = a.rng().random();
        let b = a.clone();
        let mut c = b.clone();
        let _: u64 = a.rng().random();
        let mut d = b.clone();
        let x: u64 = c.rng().random();
        let y: u64 = d.rng().random();
        assert_eq!(x, y);
    }

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

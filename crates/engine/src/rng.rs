//! Seeds and random streams.
//!
//! Every random choice in dojo comes from a [`ChaCha8Rng`] (rand's
//! ChaCha with 8 rounds, whose output stream is specified and portable
//! across platforms and rand versions), never from `StdRng`, whose
//! algorithm may change. One game owns its generators; they are never
//! shared between games or threads.
//!
//! A stream is identified by `(seed, stream id)`: the 64-bit seed is
//! expanded to ChaCha's 256-bit key with [`ChaCha8Rng::seed_from_u64`], and
//! the stream id selects ChaCha's 64-bit stream (nonce). Seeds of games in a
//! league are derived from the league seed and the game's coordinates with
//! [`derive_seed`], so they do not depend on the order games run in.

use rand::SeedableRng;
pub use rand::rngs::ChaCha8Rng;

/// The generator for stream `stream` of `seed`.
pub fn stream(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// SplitMix64's finaliser: a bijective 64-bit mix with good avalanche.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Derives a child seed from a base seed and a path of coordinates (a
/// pairing index, a game index, ...). Documented and stable: each step is
/// `h = mix64(h ^ mix64(part + 0x9e3779b97f4a7c15))`, starting from
/// `h = mix64(base)`.
pub fn derive_seed(base: u64, path: &[u64]) -> u64 {
    path.iter().fold(mix64(base), |h, &part| {
        mix64(h ^ mix64(part.wrapping_add(0x9e37_79b9_7f4a_7c15)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u32> = (0..4).map(|_| stream(7, 0).random()).collect();
        let mut r0 = stream(7, 0);
        let mut r1 = stream(7, 1);
        let x: Vec<u32> = (0..4).map(|_| r0.random()).collect();
        let y: Vec<u32> = (0..4).map(|_| r1.random()).collect();
        assert_eq!(a[0], x[0]);
        assert_ne!(x, y);
    }

    #[test]
    fn chacha8_stream_is_pinned() {
        // If this fails, the documented stream changed and every recorded
        // game would replay differently.
        let mut r = stream(42, 0);
        let first: u64 = r.random();
        assert_eq!(first, PINNED_FIRST_U64);
    }

    const PINNED_FIRST_U64: u64 = 12_578_764_544_318_200_737;

    #[test]
    fn derive_seed_depends_on_every_part() {
        let s = derive_seed(1, &[2, 3]);
        assert_ne!(s, derive_seed(1, &[3, 2]));
        assert_ne!(s, derive_seed(2, &[2, 3]));
        assert_ne!(s, derive_seed(1, &[2]));
        assert_eq!(s, derive_seed(1, &[2, 3]));
    }
}

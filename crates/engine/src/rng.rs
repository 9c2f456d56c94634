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

/// Seeds in JSON: written as decimal strings (`"seed": "8250275021143807264"`),
/// read from a string or a number. Seeds use all 64 bits, and JSON numbers
/// above 2^53 are rounded by `jq` and JavaScript (8250275021143807264
/// becomes 8250275021143807000): a seed copied from such a tool would
/// replay a different game. Numbers are still read, for files written
/// before seeds were strings. Use with `#[serde(with = "...::seed_json")]`.
pub mod seed_json {
    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::Serializer;

    /// Writes `seed` as a decimal string.
    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    struct SeedVisitor;

    impl Visitor<'_> for SeedVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(
                "a seed: an integer from 0 to 18446744073709551615, as a string or a number",
            )
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            v.parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }

    /// Reads a seed from a decimal string or a JSON integer.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(SeedVisitor)
    }

    #[cfg(test)]
    mod tests {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct S {
            #[serde(with = "super")]
            seed: u64,
        }

        #[test]
        fn written_as_strings_read_from_either() {
            let big = S {
                seed: 8_250_275_021_143_807_264,
            };
            let text = serde_json::to_string(&big).unwrap();
            assert_eq!(text, r#"{"seed":"8250275021143807264"}"#);
            assert_eq!(serde_json::from_str::<S>(&text).unwrap(), big);
            let old: S = serde_json::from_str(r#"{"seed":8250275021143807264}"#).unwrap();
            assert_eq!(old, big);
            for bad in [
                r#"{"seed":-1}"#,
                r#"{"seed":"x"}"#,
                r#"{"seed":1.5}"#,
                r#"{"seed":"18446744073709551616"}"#,
            ] {
                assert!(serde_json::from_str::<S>(bad).is_err(), "{bad}");
            }
        }
    }
}

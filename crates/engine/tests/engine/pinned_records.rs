//! Seeded games must replay bit for bit across engine versions: a league's
//! records, and every game replayed or verified from them, depend on the
//! documented ChaCha8 streams and the exact order of draws. This pins the
//! records of a few hundred games (faults, out-of-range answers, small and
//! duplicate-heavy decks, both rulesets, the round cap) by a digest taken
//! before the engine was reworked for speed.

use dojo_engine::cardjitsu::{CardJitsu, Deck, Ruleset, Settings};
use dojo_engine::protocol::{Answer, Fault};
use dojo_engine::rng;
use rand::RngExt;

/// FNV-1a, 64-bit: a stable digest (the standard library's hasher may
/// change between Rust versions).
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn seeded_cardjitsu_records_are_unchanged() {
    let heavy = Deck::parse_dcfg(
        &format!("Wb8\nSo3\nFr4\nFo5\nFy2\n{}", "Sg8\n".repeat(40)),
        "heavy",
    )
    .unwrap();
    let small =
        Deck::parse_dcfg("Wb8\nSo3\nFr4\nFo5\nSg8\nSg8\nSg8\nWbA\nFpA\nSpA", "small").unwrap();
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut bytes = 0usize;
    for seed in 0..400u64 {
        let decks = match seed % 4 {
            0 | 1 => [Deck::standard(), Deck::standard()],
            2 => [small.clone(), Deck::standard()],
            _ => [heavy.clone(), small.clone()],
        };
        let rules = if seed % 5 == 0 {
            Ruleset::Classic
        } else {
            Ruleset::Tournament
        };
        let settings = Settings {
            rules,
            max_rounds: 60,
            decks,
        };
        let mut game = CardJitsu::new(seed, settings);
        let mut pick = rng::stream(seed, 99);
        while !game.is_over() {
            let answers = [0, 1].map(|_| match pick.random_range(0..12u32) {
                0 => Answer::Fault(Fault::Timeout),
                1 => Answer::Move(7),
                n => Answer::Move((n % 5) as usize),
            });
            game.play_round(answers);
        }
        let json = serde_json::to_string(game.record()).unwrap();
        bytes += json.len();
        digest = fnv1a(digest, json.as_bytes());
    }
    assert_eq!((digest, bytes), (PINNED_DIGEST, PINNED_BYTES));
}

const PINNED_DIGEST: u64 = 414_820_229_694_933_337;
const PINNED_BYTES: usize = 539_706;

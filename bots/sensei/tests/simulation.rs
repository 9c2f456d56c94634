//! Sensei against a seeded uniformly random player, in-process.

use dojo_bot_sensei::sim::score_vs_random;
use dojo_bot_sensei::strategy::Weights;
use dojo_engine::cardjitsu::Ruleset;

/// 400 seeds, sensei in both seats: 800 games per ruleset.
const SEEDS: std::ops::Range<u64> = 0..400;

#[test]
fn beats_a_random_player() {
    let tournament = score_vs_random(SEEDS, Ruleset::Tournament, Weights::default());
    let classic = score_vs_random(SEEDS, Ruleset::Classic, Weights::default());
    eprintln!("score vs random: tournament {tournament:.4}, classic {classic:.4}");
    assert!(tournament >= 0.65, "tournament score {tournament}");
    assert!(classic >= 0.62, "classic score {classic}");
}

#[test]
fn games_replay_exactly() {
    let a = score_vs_random(0..20, Ruleset::Tournament, Weights::default());
    let b = score_vs_random(0..20, Ruleset::Tournament, Weights::default());
    assert_eq!(a, b);
}

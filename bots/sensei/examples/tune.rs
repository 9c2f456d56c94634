//! Measures sensei against a random player; weights can be overridden
//! with `W_OUTS=... W_STARTED=...` etc. Run in release:
//! `cargo run --release -p dojo-bot-sensei --example tune -- 2000`.

use dojo_bot_sensei::sim::score_vs_random;
use dojo_bot_sensei::strategy::Weights;
use dojo_engine::cardjitsu::Ruleset;

fn env(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let d = Weights::default();
    let w = Weights {
        outs: env("W_OUTS", d.outs),
        started: env("W_STARTED", d.started),
        opp_outs: env("W_OPP_OUTS", d.opp_outs),
        opp_started: env("W_OPP_STARTED", d.opp_started),
        live: env("W_LIVE", d.live),
        strength: env("W_STRENGTH", d.strength),
    };
    let t = score_vs_random(1000..1000 + n, Ruleset::Tournament, w);
    let c = score_vs_random(1000..1000 + n, Ruleset::Classic, w);
    println!("{w:?}\ntournament {t:.4} classic {c:.4}");
}

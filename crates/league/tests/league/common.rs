//! Synthetic games for the league tests: outcomes follow from the fixture's
//! seed and each bot's "strength" (derived from its name), so any run
//! order gives the same results.
#![allow(dead_code)]

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dojo_engine::rng::derive_seed;
use dojo_league::schedule::fnv1a64;
use dojo_league::{Entrant, ExecError, Executor, Fixture, Game, GameResult, SeatFaults, Settings};

/// Strength 1..=10 from the bot name.
pub fn strength(name: &str) -> u64 {
    fnv1a64(name) % 10 + 1
}

/// A deterministic fake game.
#[derive(Debug, Default)]
pub struct FakeGame {
    /// Counts games started, to make `timing` differ between runs.
    started: AtomicU64,
    /// Ids of the fixtures played.
    pub played: Mutex<Vec<u64>>,
}

impl FakeGame {
    pub fn outcome(fixture: &Fixture) -> GameResult {
        let strengths: Vec<u64> = fixture.seats.iter().map(|s| strength(s)).collect();
        let draw_band = 3;
        let total: u64 = strengths.iter().sum::<u64>() + draw_band;
        let roll = derive_seed(fixture.seed, &[u64::from(fixture.leg)]) % total;
        let mut acc = 0;
        let mut winner = None;
        for (seat, s) in strengths.iter().enumerate() {
            acc += s;
            if roll < acc {
                winner = Some(seat);
                break;
            }
        }
        let n = fixture.seats.len();
        let scores = match winner {
            Some(w) => (0..n).map(|i| if i == w { 1.0 } else { 0.0 }).collect(),
            None => vec![0.5; n],
        };
        let faults = (0..n)
            .map(|i| SeatFaults {
                timeout: (roll + i as u64) % 2,
                invalid: u64::from(roll.is_multiple_of(7)),
                ..SeatFaults::default()
            })
            .collect();
        GameResult {
            first_faults: Vec::new(),
            faulty: Vec::new(),
            prompts: Vec::new(),
            scores,
            faults,
            record: serde_json::json!({ "roll": roll, "seed": fixture.seed }),
            timing: serde_json::Value::Null,
        }
    }

    pub fn played_ids(&self) -> Vec<u64> {
        let mut ids = self.played.lock().unwrap().clone();
        ids.sort_unstable();
        ids
    }
}

impl Executor for FakeGame {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        if cancel.load(Ordering::SeqCst) {
            return Err(ExecError::Cancelled);
        }
        let order = self.started.fetch_add(1, Ordering::SeqCst);
        self.played.lock().unwrap().push(fixture.id);
        let mut r = Self::outcome(fixture);
        r.timing = serde_json::json!({ "order": order, "thread": format!("{:?}", std::thread::current().id()) });
        Ok(r)
    }
}

pub fn bots(names: &[&str]) -> Vec<Entrant> {
    names
        .iter()
        .map(|n| Entrant {
            name: n.to_string(),
            command: format!("./bots/{n} --fast"),
            dir: None,
            fixed_team: None,
            values: Default::default(),
        })
        .collect()
}

pub fn settings(game: Game, names: &[&str], games: u64) -> Settings {
    Settings {
        game,
        bots: bots(names),
        games,
        seed: 2026,
        boards: if game == Game::ROYALE {
            vec!["boards/a.txt".into(), "boards/b.txt".into()]
        } else {
            vec![]
        },
        controls: dojo_runner::Controls {
            timeout: std::time::Duration::from_millis(250),
            ..dojo_runner::Controls::default()
        },
        raises: dojo_league::Raises::Allow,
        faults: Default::default(),
        anchor: Some(names[0].to_string()),
        anchor_elo: None,
        gauntlet: None,
        sprt: None,
        shard: None,
        play: Default::default(),
    }
}

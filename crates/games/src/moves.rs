//! A bot's move figures over any number of games: how long its moves took
//! (wall time from prompt to answer, CPU time) and the most memory it used,
//! from the records' `timing` (`crate::record::Timing`). A league sums them
//! per bot for `report.json`'s standings, `dojo match` per seat.
//!
//! Answers that had the start-up allowance (`timing.startup_answers`: the
//! game's first, and a long-lived bot's first after a restart) are held
//! against the move time plus that allowance, so they are tallied apart
//! ([`MoveTally::startup_answers`]): among the moves, a start that took
//! 1.7 s of its 3 s would read as a move past its 1 s limit.
//!
//! Quantiles come from a histogram, so the sums stay small however many
//! moves are added (a league keeps them for the whole run): under 1 ms each
//! microsecond is a bucket of its own, above it buckets are 1% wide, and a
//! quantile is given as its bucket's upper end (never below the true
//! value, at most 1% above it; the maximum is exact).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The median, 95th percentile and maximum of a bot's move times, in
/// milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quantiles {
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
}

/// A bot's moves: how many, and their wall and CPU times.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MoveFigures {
    /// Moves timed (prompts answered, timed out or crashed on).
    pub count: u64,
    /// From prompt to answer (or timeout).
    pub wall_ms: Quantiles,
    /// CPU time of the bot's process tree per move; `null` where it was
    /// never measured.
    pub cpu_ms: Option<Quantiles>,
}

/// A bot's answers that had the start-up allowance (the bot's start
/// included): how many, and their wall times.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StartupFigures {
    pub count: u64,
    /// From prompt to answer (or timeout), the bot's start included.
    pub wall_ms: Quantiles,
    /// The CPU time of the bot's process tree for them, its start
    /// included (what `--time cpu` holds against the allowance); absent
    /// where none was measured, and in reports from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<Quantiles>,
}

/// Microseconds below which each value is a bucket of its own.
const EXACT_BELOW_US: u64 = 1000;
/// The width of a bucket above [`EXACT_BELOW_US`], as a ratio.
const BUCKET_RATIO: f64 = 1.01;

/// A histogram of times in microseconds (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
struct Histogram {
    buckets: BTreeMap<u32, u64>,
    count: u64,
    max: u64,
}

fn bucket(us: u64) -> u32 {
    if us < EXACT_BELOW_US {
        return us as u32;
    }
    let steps = ((us as f64 / EXACT_BELOW_US as f64).ln() / BUCKET_RATIO.ln()).floor();
    let mut b = EXACT_BELOW_US as u32 + steps as u32;
    // Rounding may put a value at a bucket's very end one bucket low.
    while upper_end(b) < us {
        b += 1;
    }
    b
}

/// The largest whole value of bucket `b`.
fn upper_end(b: u32) -> u64 {
    if u64::from(b) < EXACT_BELOW_US {
        return u64::from(b);
    }
    let steps = f64::from(b - EXACT_BELOW_US as u32 + 1);
    (EXACT_BELOW_US as f64 * BUCKET_RATIO.powf(steps)).floor() as u64
}

impl Histogram {
    fn add(&mut self, us: u64) {
        *self.buckets.entry(bucket(us)).or_default() += 1;
        self.count += 1;
        self.max = self.max.max(us);
    }

    /// The nearest-rank `q` quantile: the upper end of the bucket holding
    /// the value of rank ceil(q * count), capped at the maximum.
    fn quantile(&self, q: f64) -> u64 {
        let rank = ((q * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (&b, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return upper_end(b).min(self.max);
            }
        }
        self.max
    }

    fn figures(&self) -> Option<Quantiles> {
        let ms = |us: u64| us as f64 / 1000.0;
        (self.count > 0).then(|| Quantiles {
            p50: ms(self.quantile(0.50)),
            p95: ms(self.quantile(0.95)),
            max: ms(self.max),
        })
    }
}

/// One bot's move times and memory peak, summed over the seats it held.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveTally {
    /// The moves on the move time alone.
    wall: Histogram,
    cpu: Histogram,
    /// The answers that had the start-up allowance.
    startup: Histogram,
    startup_cpu: Histogram,
    memory_peak_bytes: Option<u64>,
}

/// The entries of a seat's `latency_us` that had the start-up allowance,
/// as a record stores them (`timing.startup_answers`), or for a record
/// from before it stored them (`None`): the seat's first entry, the one
/// answer that always had it.
pub fn startup_entries(stored: Option<&[u32]>) -> &[u32] {
    stored.unwrap_or(&[0])
}

impl MoveTally {
    /// Adds one seat of one game: its moves' wall and CPU times (a
    /// record's `latency_us` and `cpu_us` entries), which of them had the
    /// start-up allowance (`startup_answers`, see [`startup_entries`])
    /// and its memory peak.
    pub fn add_seat(
        &mut self,
        latency_us: &[u64],
        cpu_us: &[Option<u64>],
        startup: &[u32],
        peak: Option<u64>,
    ) {
        let had_startup = |k: usize| startup.iter().any(|&s| s as usize == k);
        for (k, &us) in latency_us.iter().enumerate() {
            if had_startup(k) {
                self.startup.add(us);
            } else {
                self.wall.add(us);
            }
        }
        // A start's CPU time is mostly the runtime's own start-up: kept
        // apart from the moves', as the allowance is.
        for (k, us) in cpu_us.iter().enumerate() {
            if let Some(us) = *us {
                if had_startup(k) {
                    self.startup_cpu.add(us);
                } else {
                    self.cpu.add(us);
                }
            }
        }
        self.memory_peak_bytes = self.memory_peak_bytes.max(peak);
    }

    /// Adds seat `seat` of a game whose `timing` is stored as JSON (a
    /// `games.jsonl` line's, a record's); a timing without the seat (or
    /// `null`, or from before a field existed) adds what it has.
    pub fn add_stored(&mut self, timing: &serde_json::Value, seat: usize) {
        let entry = |key: &str| timing.get(key).and_then(|v| v.get(seat));
        let latency: Vec<u64> = entry("latency_us")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_u64)
            .collect();
        let cpu: Vec<Option<u64>> = entry("cpu_us")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .map(serde_json::Value::as_u64)
            .collect();
        let peak = entry("memory_peak_bytes").and_then(serde_json::Value::as_u64);
        let startup: Option<Vec<u32>> = entry("startup_answers")
            .and_then(serde_json::Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(serde_json::Value::as_u64)
                    .filter_map(|k| u32::try_from(k).ok())
                    .collect()
            });
        self.add_seat(&latency, &cpu, startup_entries(startup.as_deref()), peak);
    }

    /// The figures of the moves added that had no start-up allowance
    /// (held against the move time alone); `None` before any.
    pub fn moves(&self) -> Option<MoveFigures> {
        Some(MoveFigures {
            count: self.wall.count,
            wall_ms: self.wall.figures()?,
            cpu_ms: self.cpu.figures(),
        })
    }

    /// The figures of the answers added that had the start-up allowance
    /// (held against the move time plus the allowance); `None` before
    /// any.
    pub fn startup_answers(&self) -> Option<StartupFigures> {
        Some(StartupFigures {
            count: self.startup.count,
            wall_ms: self.startup.figures()?,
            cpu_ms: self.startup_cpu.figures(),
        })
    }

    /// The highest memory peak added, in MiB (to 0.1); `None` where none
    /// was measured.
    pub fn peak_memory_mib(&self) -> Option<f64> {
        self.memory_peak_bytes
            .map(|b| (b as f64 / (1024.0 * 1024.0) * 10.0).round() / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_never_below_the_truth_and_at_most_one_percent_above() {
        let mut t = MoveTally::default();
        let wall: Vec<u64> = (1..=1000).map(|i| i * 1000).collect();
        t.add_seat(
            &wall,
            &[Some(5), None, Some(700)],
            &[],
            Some(3 * 1024 * 1024),
        );
        let m = t.moves().unwrap();
        assert_eq!(m.count, 1000);
        assert!(m.wall_ms.p50 >= 500.0 && m.wall_ms.p50 <= 505.0, "{m:?}");
        assert!(m.wall_ms.p95 >= 950.0 && m.wall_ms.p95 <= 959.5, "{m:?}");
        assert_eq!(m.wall_ms.max, 1000.0);
        let cpu = m.cpu_ms.unwrap();
        assert_eq!((cpu.p50, cpu.max), (0.005, 0.7));
        assert_eq!(t.peak_memory_mib(), Some(3.0));
    }

    #[test]
    fn every_value_falls_in_a_bucket_whose_upper_end_holds_it() {
        for us in [
            0,
            1,
            999,
            1000,
            1001,
            1009,
            1010,
            1011,
            123_456,
            15_000_000,
            u64::MAX / 4,
        ] {
            let end = upper_end(bucket(us));
            assert!(end >= us, "{us} -> {end}");
            assert!(
                end as f64 <= (us as f64 * BUCKET_RATIO).max(us as f64 + 1.0),
                "{us} -> {end}"
            );
        }
    }

    #[test]
    fn stored_timings_old_and_new_read_what_they_hold() {
        let mut t = MoveTally::default();
        t.add_stored(
            &serde_json::json!({"wall_ms": 1.0, "latency_us": [[2000], [4000, 6000]]}),
            1,
        );
        t.add_stored(&serde_json::Value::Null, 0);
        t.add_stored(
            &serde_json::json!({"latency_us": [[8000]], "cpu_us": [[null]], "memory_peak_bytes": [1048576]}),
            0,
        );
        let m = t.moves().unwrap();
        // Without `startup_answers`, each seat's first entry had the
        // allowance: 2 ms and 8 ms are start-ups, 6 ms the one move.
        assert_eq!((m.count, m.wall_ms.max, m.cpu_ms), (1, 6.0, None));
        let s = t.startup_answers().unwrap();
        assert_eq!((s.count, s.wall_ms.max), (2, 8.0));
        assert_eq!(t.peak_memory_mib(), Some(1.0));
        assert_eq!(MoveTally::default().moves(), None);
        assert_eq!(MoveTally::default().startup_answers(), None);
    }

    #[test]
    fn answers_with_the_start_up_allowance_are_not_moves() {
        // A first answer of 1.7 s and one after a restart of 1.2 s, each
        // with the allowance; the moves took at most 0.3 s.
        let mut t = MoveTally::default();
        t.add_stored(
            &serde_json::json!({
                "latency_us": [[1_700_000, 300_000, 1_200_000, 100_000]],
                "cpu_us": [[900_000, 250_000, 800_000, null]],
                "startup_answers": [[0, 2]]
            }),
            0,
        );
        let m = t.moves().unwrap();
        assert_eq!((m.count, m.wall_ms.max), (2, 300.0));
        assert_eq!(m.cpu_ms.unwrap().max, 250.0);
        let s = t.startup_answers().unwrap();
        assert_eq!((s.count, s.wall_ms.max), (2, 1700.0));
        // A seat with no answer that had it (`--startup-ms 0`): all moves.
        let mut t = MoveTally::default();
        t.add_stored(
            &serde_json::json!({"latency_us": [[5000, 7000]], "startup_answers": [[]]}),
            0,
        );
        assert_eq!((t.moves().unwrap().count, t.startup_answers()), (2, None));
    }

    #[test]
    fn first_answers_cpu_times_are_kept_apart_from_the_moves() {
        let mut t = MoveTally::default();
        t.add_seat(
            &[900_000, 2_000, 3_000],
            &[Some(400_000), Some(1_000), None],
            &[0],
            None,
        );
        let first = t.startup_answers().unwrap();
        assert_eq!(first.cpu_ms.unwrap().max, 400.0);
        assert_eq!(t.moves().unwrap().cpu_ms.unwrap().max, 1.0);
        // None measured: left out of the JSON.
        let mut t = MoveTally::default();
        t.add_seat(&[900_000], &[None], &[0], None);
        let json = serde_json::to_value(t.startup_answers().unwrap()).unwrap();
        assert!(json.get("cpu_ms").is_none(), "{json}");
    }
}

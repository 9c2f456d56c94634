//! League progress: a bar on a terminal, a plain line now and then
//! elsewhere (CI logs).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use dojo_league::store::GameLine;
use dojo_league::{Fixture, Progress};
use indicatif::{ProgressBar, ProgressStyle};

/// Shows league progress on stderr.
pub enum LeagueProgress {
    Bar(ProgressBar),
    Plain {
        last: Instant,
        started: Instant,
        /// Games already stored when this run started (they took no time
        /// in it, so the rate and ETA leave them out).
        first: u64,
    },
    /// One line per stored game (`--verbose`).
    EveryGame,
}

impl LeagueProgress {
    pub fn new(total: u64, verbose: bool) -> LeagueProgress {
        if verbose {
            LeagueProgress::EveryGame
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30.cyan/blue} {pos}/{len} games  {rate}  eta {eta}  {msg}",
                )
                .map(|style| {
                    // indicatif's {per_sec} prints `6.3149/s`.
                    style.with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.1}/s", state.per_sec());
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            LeagueProgress::Bar(bar)
        } else {
            let now = Instant::now();
            LeagueProgress::Plain {
                last: now,
                started: now,
                first: 0,
            }
        }
    }

    pub fn finish(&self) {
        if let LeagueProgress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

impl Progress for LeagueProgress {
    fn game_done(&mut self, done: u64, total: u64, leader: Option<(&str, f64)>) {
        let leader = leader
            .map(|(name, pct)| format!("leader {name} ({pct:.1}%)"))
            .unwrap_or_default();
        match self {
            LeagueProgress::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(done);
                bar.set_message(leader);
            }
            LeagueProgress::Plain {
                last,
                started,
                first,
            } => {
                if done == total || last.elapsed() >= Duration::from_secs(10) {
                    *last = Instant::now();
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    let per_sec = done.saturating_sub(*first) as f64 / secs;
                    errln!("{}", plain_line(done, total, per_sec, &leader));
                }
            }
            LeagueProgress::EveryGame => {}
        }
    }

    fn started(&mut self, done: u64, total: u64) {
        if let LeagueProgress::Plain { first, .. } = self {
            *first = done;
        }
        match self {
            LeagueProgress::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(done);
            }
            LeagueProgress::Plain { .. } | LeagueProgress::EveryGame if done > 0 => {
                errln!("{done} of {total} games already stored; playing the rest");
            }
            LeagueProgress::Plain { .. } | LeagueProgress::EveryGame => {
                errln!("playing {total} games");
            }
        }
    }

    fn game_stored(&mut self, line: &GameLine) {
        if let LeagueProgress::EveryGame = self {
            let seats: Vec<String> = line
                .seats
                .iter()
                .zip(&line.scores)
                .map(|(bot, score)| format!("{bot} {score}"))
                .collect();
            errln!("game {} stored: {}", line.id, seats.join(", "));
        }
    }

    fn game_failed(&mut self, fixture: &Fixture, error: &str) {
        let line = format!("game {} failed: {error}", fixture.id);
        match self {
            LeagueProgress::Bar(bar) => bar.println(line),
            LeagueProgress::Plain { .. } | LeagueProgress::EveryGame => errln!("{line}"),
        }
    }
}

/// The non-terminal progress line: `progress: 40/120 games, 12.5 games/min,
/// eta 6m24s, leader sensei (71.0%)`.
fn plain_line(done: u64, total: u64, per_sec: f64, leader: &str) -> String {
    let eta = if done >= total {
        "done".to_owned()
    } else if per_sec > 0.0 {
        format!("eta {}", duration((total - done) as f64 / per_sec))
    } else {
        "eta unknown".to_owned()
    };
    let mut line = format!(
        "progress: {done}/{total} games, {:.1} games/min, {eta}",
        per_sec * 60.0
    );
    if !leader.is_empty() {
        line.push_str(", ");
        line.push_str(leader);
    }
    line
}

/// `45s`, `6m24s`, `2h05m`.
fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_line_has_a_rate_and_an_eta() {
        assert_eq!(
            plain_line(40, 120, 0.2, "leader x (71.0%)"),
            "progress: 40/120 games, 12.0 games/min, eta 6m40s, leader x (71.0%)"
        );
        assert_eq!(
            plain_line(120, 120, 0.2, ""),
            "progress: 120/120 games, 12.0 games/min, done"
        );
        assert_eq!(
            plain_line(0, 10, 0.0, ""),
            "progress: 0/10 games, 0.0 games/min, eta unknown"
        );
        assert_eq!(duration(7300.0), "2h01m");
        assert_eq!(duration(59.4), "59s");
    }
}

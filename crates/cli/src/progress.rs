//! League progress: a bar on a terminal, a plain line now and then
//! elsewhere (CI logs).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use dojo_league::store::GameLine;
use dojo_league::{Fixture, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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
            // Hidden until the league says how many games it has
            // (`started`): drawn at once, it showed a full bar of 0/0.
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
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
                    let eta = eta_secs(done, total, *first, started.elapsed());
                    errln!("{}", plain_line(done, total, per_sec, eta, &leader));
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
                bar.set_draw_target(ProgressDrawTarget::stderr());
                bar.enable_steady_tick(Duration::from_millis(200));
            }
            LeagueProgress::Plain { .. } | LeagueProgress::EveryGame
                if done > 0 && done >= total =>
            {
                errln!("all {total} games already stored: the league is complete, nothing to play");
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

/// Does `work`, saying on a terminal's stderr what is being done while it
/// is (a spinner, `what` and the time so far; gone when it is done), so
/// that a step of many seconds (a game of per-turn Python bots) does not
/// look like a hang. Nothing elsewhere: a log gets the results only.
pub fn while_doing<T>(what: String, work: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.set_message(what);
    spinner.enable_steady_tick(Duration::from_millis(120));
    let done = work();
    spinner.finish_and_clear();
    done
}

/// Games a run stores before its rate says anything about the time left:
/// the first games to finish are the shortest of those started together.
const ETA_AFTER_GAMES: u64 = 3;

/// Seconds until `total` games are stored, at the rate of this run so far
/// (`done - first` games in `elapsed`); `None` (unknown) until this run has
/// stored [`ETA_AFTER_GAMES`] games.
pub fn eta_secs(done: u64, total: u64, first: u64, elapsed: Duration) -> Option<f64> {
    if done >= total {
        return Some(0.0);
    }
    let this_run = done.saturating_sub(first);
    if this_run < ETA_AFTER_GAMES {
        return None;
    }
    let per_sec = this_run as f64 / elapsed.as_secs_f64().max(1e-9);
    Some((total - done) as f64 / per_sec)
}

/// The non-terminal progress line: `progress: 40/120 games, 12.5 games/min,
/// eta 6m24s, leader sensei (71.0%)`.
fn plain_line(done: u64, total: u64, per_sec: f64, eta: Option<f64>, leader: &str) -> String {
    let eta = match eta {
        _ if done >= total => "done".to_owned(),
        Some(secs) => format!("eta {}", duration(secs)),
        None => "eta unknown".to_owned(),
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
        let eta = eta_secs(40, 120, 0, Duration::from_secs(200));
        assert_eq!(eta, Some(400.0));
        assert_eq!(
            plain_line(40, 120, 0.2, eta, "leader x (71.0%)"),
            "progress: 40/120 games, 12.0 games/min, eta 6m40s, leader x (71.0%)"
        );
        assert_eq!(
            plain_line(120, 120, 0.2, Some(0.0), ""),
            "progress: 120/120 games, 12.0 games/min, done"
        );
        assert_eq!(
            plain_line(0, 10, 0.0, None, ""),
            "progress: 0/10 games, 0.0 games/min, eta unknown"
        );
        assert_eq!(duration(7300.0), "2h01m");
    }

    #[test]
    fn the_eta_is_unknown_until_this_run_has_a_rate() {
        let minute = Duration::from_secs(60);
        // Games stored by an earlier run took no time in this one.
        assert_eq!(eta_secs(52, 100, 50, minute), None);
        assert_eq!(eta_secs(53, 100, 50, minute), Some(47.0 * 20.0));
        assert_eq!(eta_secs(100, 100, 100, minute), Some(0.0));
        assert_eq!(duration(59.4), "59s");
    }
}

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
                    "{bar:30.cyan/blue} {pos}/{len} games  {per_sec}  eta {eta}  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            LeagueProgress::Bar(bar)
        } else {
            let now = Instant::now();
            LeagueProgress::Plain {
                last: now,
                started: now,
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
            LeagueProgress::Plain { last, started } => {
                if done == total || last.elapsed() >= Duration::from_secs(10) {
                    *last = Instant::now();
                    let secs = started.elapsed().as_secs_f64();
                    errln!(
                        "progress: {done}/{total} games, {:.1} games/min, {leader}",
                        done as f64 * 60.0 / secs.max(1e-9)
                    );
                }
            }
            LeagueProgress::EveryGame => {}
        }
    }

    fn started(&mut self, done: u64, total: u64) {
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

//! A league's per-bot stderr logs: `stderr/<bot>.log` in the out directory,
//! what each bot wrote to stderr game by game, capped per bot. A bot that
//! crashes on every turn says why here (Python's `can't open file`, a
//! panic), where no one would otherwise see it.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::schedule::Fixture;

/// The directory in a league's out directory holding the logs.
pub const STDERR_DIR: &str = "stderr";
/// Most bytes kept per bot (over all its games, across resumes).
pub const STDERR_LOG_CAP: u64 = 256 * 1024;

/// Appends each game's stderr to its bots' logs.
#[derive(Debug)]
pub struct StderrLogs {
    dir: PathBuf,
    /// Bytes in each bot's log so far.
    sizes: HashMap<String, u64>,
}

/// A bot name as a file name: `NAME.log`, one file per name. A valid name
/// ([`dojo_runner::check_name`]: letters, digits, `_`, `.` and `-`, not
/// starting with `.`) is kept as it is; any other byte is written `%XX`
/// (`%` itself too), so two names never share a log, whatever they hold
/// (a league stored before the rule refused a leading `.` keeps `.alice`
/// apart from `alice`). The cap is kept per name, so a shared file would
/// let one bot write into another's log and fill its room.
pub fn log_name(bot: &str) -> String {
    let mut file = String::with_capacity(bot.len() + 4);
    for b in bot.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
            file.push(char::from(b));
        } else {
            file.push_str(&format!("%{b:02X}"));
        }
    }
    file.push_str(".log");
    file
}

impl StderrLogs {
    pub fn new(out: &Path) -> StderrLogs {
        StderrLogs {
            dir: out.join(STDERR_DIR),
            sizes: HashMap::new(),
        }
    }

    /// Adds `stderr` (a record's per seat, per prompt stderr) of the game
    /// `fixture` to its bots' logs. Best effort: a log that cannot be
    /// written never costs a result.
    pub fn add(&mut self, fixture: &Fixture, stderr: &Value) {
        let Some(seats) = stderr.as_array() else {
            return;
        };
        for (seat, entries) in seats.iter().enumerate() {
            let Some(bot) = fixture.seats.get(seat) else {
                continue;
            };
            let text: String = entries
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if text.trim().is_empty() {
                continue;
            }
            let _ = self.append(bot, fixture.id, seat, &text);
        }
    }

    fn append(&mut self, bot: &str, id: u64, seat: usize, text: &str) -> std::io::Result<()> {
        let path = self.dir.join(log_name(bot));
        let size = match self.sizes.get(bot) {
            Some(&s) => s,
            None => fs::metadata(&path).map_or(0, |m| m.len()),
        };
        if size >= STDERR_LOG_CAP {
            return Ok(());
        }
        // Seats are shown 1-based, as `DOJO_SEAT` gives them to the bot.
        let mut chunk = format!("--- game {id}, seat {} ---\n{text}", seat + 1);
        if !chunk.ends_with('\n') {
            chunk.push('\n');
        }
        let room = (STDERR_LOG_CAP - size) as usize;
        if chunk.len() > room {
            let mut cut = room;
            while !chunk.is_char_boundary(cut) {
                cut -= 1;
            }
            chunk.truncate(cut);
            chunk.push_str(&format!("\n[log capped at {STDERR_LOG_CAP} bytes]\n"));
        }
        fs::create_dir_all(&self.dir)?;
        let mut file = OpenOptions::new().create(true).append(true).open(&path)?;
        file.write_all(chunk.as_bytes())?;
        // A capped log counts as full, so nothing is appended after the note.
        let written =
            if chunk.ends_with("bytes]\n") && size + chunk.len() as u64 >= STDERR_LOG_CAP - 64 {
                STDERR_LOG_CAP
            } else {
                size + chunk.len() as u64
            };
        self.sizes.insert(bot.to_owned(), written);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Fixture {
        Fixture {
            game: crate::Game::CARDJITSU,
            id: 7,
            seats: vec!["a/b".into(), "c".into()],
            teams: Vec::new(),
            board: None,
            pair: 0,
            leg: 0,
            seed: 1,
        }
    }

    #[test]
    fn logs_each_seat_under_its_bot_and_stops_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let mut logs = StderrLogs::new(dir.path());
        logs.add(&fixture(), &serde_json::json!([["oops\n", "again"], [""]]));
        let a = fs::read_to_string(dir.path().join("stderr/a%2Fb.log")).unwrap();
        assert_eq!(a, "--- game 7, seat 1 ---\noops\nagain\n");
        assert!(!dir.path().join("stderr/c.log").exists());

        let big = "x".repeat(STDERR_LOG_CAP as usize);
        for _ in 0..3 {
            logs.add(&fixture(), &serde_json::json!([[big], []]));
        }
        let a = fs::read_to_string(dir.path().join("stderr/a%2Fb.log")).unwrap();
        assert!(a.len() as u64 <= STDERR_LOG_CAP + 64, "{}", a.len());
        assert!(a.ends_with("bytes]\n"));
        // A new run (a resume) counts what is already there.
        let mut again = StderrLogs::new(dir.path());
        again.add(&fixture(), &serde_json::json!([["more"]]));
        assert_eq!(
            fs::read_to_string(dir.path().join("stderr/a%2Fb.log")).unwrap(),
            a
        );
    }

    /// Two bots of a league never share a log: a valid name's log is the
    /// name itself, and names the rule refuses (kept by a league stored
    /// before it) are escaped apart from every other.
    #[test]
    fn distinct_names_never_share_a_log() {
        for name in ["alice", "a.b", "Bot_2.0", "x-", "a.", "n.log"] {
            assert!(dojo_runner::is_valid_name(name), "{name}");
            assert_eq!(log_name(name), format!("{name}.log"));
        }
        let names = [
            "alice", ".alice", "..alice", "...", "..", ".", "", "a/b", "a_b", "a%2Fb", "a.log",
            "a", "é", "%C3%A9", ".log", "-x",
        ];
        let mut seen = std::collections::HashMap::new();
        for name in names {
            let file = log_name(name);
            assert!(!file.contains('/') && file != "." && file != "..", "{file}");
            if let Some(other) = seen.insert(file.clone(), name) {
                panic!("{name:?} and {other:?} share {file}");
            }
        }
    }

    /// The red team's clash: `.alice` beside `alice` wrote into
    /// `alice.log`, and filled its room.
    #[test]
    fn a_dotted_name_does_not_write_into_anothers_log() {
        let dir = tempfile::tempdir().unwrap();
        let mut logs = StderrLogs::new(dir.path());
        let game = Fixture {
            seats: vec!["alice".into(), ".alice".into()],
            ..fixture()
        };
        logs.add(
            &game,
            &serde_json::json!([["mine\n"], ["x".repeat(STDERR_LOG_CAP as usize)]]),
        );
        logs.add(&game, &serde_json::json!([["still mine\n"], []]));
        let alice = fs::read_to_string(dir.path().join("stderr/alice.log")).unwrap();
        // Not shown whole on failure: it would be 256 KiB of `x`.
        assert!(
            alice == "--- game 7, seat 1 ---\nmine\n--- game 7, seat 1 ---\nstill mine\n",
            "alice.log holds {} bytes, starting {:?}",
            alice.len(),
            &alice[..alice.len().min(80)]
        );
    }
}

//! What every game's replay page shares: where the record was read from
//! and the commands that show or play it again. Each game's page data (its
//! view) lives in the game's module (`cardjitsu::view`, `royale::view`)
//! and is reached through [`crate::replay::SavedGame::view`].

use serde::Serialize;

/// Where a record was read from, for the command that replays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSource {
    /// A record file (`dojo match --json`).
    File(String),
    /// Game `id` of the league directory `dir`.
    League { dir: String, id: u64 },
    /// A game just played whose record was not saved (no `--json`):
    /// nothing to rerun from.
    Unsaved,
}

impl RecordSource {
    /// `dojo replay ... --rerun`, when there is a saved record to name.
    pub fn rerun(&self) -> Option<String> {
        let mut words: Vec<String> = vec!["dojo".into(), "replay".into()];
        match self {
            RecordSource::File(path) => words.push(path.clone()),
            RecordSource::League { dir, id } => {
                words.extend([dir.clone(), "--game".into(), id.to_string()]);
            }
            RecordSource::Unsaved => return None,
        }
        words.push("--rerun".into());
        Some(shell_line(&words))
    }
}

/// Commands that show or play a recorded game again.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Commands {
    /// Plays the same game again from the record and says whether it
    /// comes out the same (`dojo replay ... --rerun`); `None` when the
    /// record was not saved.
    pub rerun: Option<String>,
    /// A fresh `dojo match` with the same bots, seats, seed and settings.
    #[serde(rename = "match")]
    pub play: String,
}

impl Commands {
    /// The commands of a record read from `source` that `dojo match`
    /// (the words of `play`) plays afresh.
    pub fn new(source: &RecordSource, play: &[String]) -> Commands {
        Commands {
            rerun: source.rerun(),
            play: shell_line(play),
        }
    }
}

/// Seat `i`'s BOT word in a command that plays the game again: `bots[i]`
/// (a spec that resolves from any directory, which the caller makes from
/// where the bot was found), else the name the record gives it.
pub fn seat_bot(bots: &[String], i: usize, seat: &crate::SeatInfo) -> String {
    bots.get(i).cloned().unwrap_or_else(|| seat.bot.clone())
}

/// Shell words joined with the quoting a POSIX shell needs.
pub fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shlex::try_quote(w).map_or_else(|_| w.clone(), |q| q.into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

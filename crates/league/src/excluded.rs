//! The entries of a folder of submissions that a league does not play, and
//! why: stored with the league (`league.json`'s `origin.excluded`, so a
//! resume and a merge keep them) and shown in `report.json` (`excluded`)
//! and on the report page. Found by `dojo`'s `submissions.rs`.

use serde::{Deserialize, Serialize};

/// What became of one entry of a folder of bots. `dojo bots` shows every
/// entry's; a league plays the [`EntryStatus::Ok`] ones and records the
/// others as [`Excluded`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryStatus {
    /// Loads, plays the game, builds and starts.
    Ok,
    /// Its directory's name breaks the name rule, or its bot's name is
    /// another entry's too.
    BadName,
    /// Its `bot.toml` has errors (every one is listed, with its line).
    BadManifest,
    /// Its `bot.toml` is valid but asks for more time or resources than
    /// the league allows its bots (`--bot-raises refuse`, the default
    /// under `--sandbox strict`): each value it asks for is listed.
    OverLimits,
    /// No `bot.toml`, and no single obvious script to take instead.
    NoManifest,
    /// The entry is a symbolic link to a directory, not a directory of the
    /// folder: it is not followed (it would enter another entry's bot, or
    /// any the organiser can read, as a submission of its own).
    Symlink,
    /// Its `bot.toml`'s `games` does not list the league's game and
    /// names one dojo does not know (likely a typo). An entry whose
    /// `games` names only other games dojo knows is not excluded at all:
    /// it is not meant for the league.
    WrongGame,
    /// Its build step failed (the end of its stdout and stderr is kept).
    BuildFailed,
    /// It failed its smoke start (the head of its stderr is kept).
    SmokeFailed,
}

impl EntryStatus {
    /// In words, as tables show it.
    pub fn label(self) -> &'static str {
        match self {
            EntryStatus::Ok => "ok",
            EntryStatus::BadName => "bad name",
            EntryStatus::BadManifest => "bad manifest",
            EntryStatus::OverLimits => "over the limits",
            EntryStatus::NoManifest => "no manifest",
            // One word, as stored (`symlink`), so a page that does not know
            // the status shows it as the tables do.
            EntryStatus::Symlink => "symlink",
            EntryStatus::WrongGame => "wrong game",
            EntryStatus::BuildFailed => "build failed",
            EntryStatus::SmokeFailed => "failed smoke start",
        }
    }
}

impl std::fmt::Display for EntryStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// An entry of the bots folder that the league does not play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Excluded {
    /// Its directory's name in the folder.
    pub dir: String,
    /// Its bot's name when it has one (from its `bot.toml`), else `dir`.
    pub name: String,
    /// Never [`EntryStatus::Ok`].
    pub status: EntryStatus,
    /// Why, in one line.
    pub reason: String,
    /// What shows it: every error of its `bot.toml` (`bot.toml:LINE:COLUMN:
    /// message`), the end of its build's stdout and stderr, the head of
    /// its stderr at the smoke start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

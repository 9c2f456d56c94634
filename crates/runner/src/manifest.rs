//! The `bot.toml` manifest: its file format and parsing.
//!
//! The format is documented for bot authors in `crates/runner/MANIFEST.md`.
//! This module depends on no other of the runner's: it owns the words a
//! manifest is written in (a [`Mode`], a bot name) and its own error, and
//! `spec.rs` builds a runnable bot on top of it.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// How a bot's process lives across turns (the royale rules allow it: a bot may exit
/// after each move and be started again, or stay alive and be reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Find out: a process that exits with status 0 after answering is
    /// taken as a per-turn bot, one that stays alive is reused.
    #[default]
    Auto,
    /// One process for the whole game; exiting is a crash.
    Persistent,
    /// A fresh process for every prompt; leftovers are killed.
    PerTurn,
}

/// Bot names: letters, digits, `_`, `.` and `-`.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Why a `bot.toml` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not valid TOML, an unknown field, or a value of the wrong type.
    #[error("{}:{line}:{column}: {message}", file.display())]
    Syntax {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// Well-formed, but a value that cannot be used (an empty command, a bad name).
    #[error("{}: {message}", file.display())]
    Value { file: PathBuf, message: String },
}

/// A command line as written in a manifest: one string split shell-like,
/// or an array of words used as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CommandLine(pub(crate) Vec<String>);

impl<'de> Deserialize<'de> for CommandLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CommandVisitor;

        impl<'de> Visitor<'de> for CommandVisitor {
            type Value = CommandLine;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a command string or an array of strings")
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<CommandLine, E> {
                let words = shlex::split(value).ok_or_else(|| {
                    E::custom(format!(
                        "cannot split command {value:?} (unbalanced quotes?)"
                    ))
                })?;
                Ok(CommandLine(words))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CommandLine, A::Error> {
                let mut words = Vec::new();
                while let Some(word) = seq.next_element::<String>()? {
                    words.push(word);
                }
                Ok(CommandLine(words))
            }
        }

        deserializer.deserialize_any(CommandVisitor)
    }
}

/// The fields of `bot.toml`, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Manifest {
    pub(crate) name: Option<String>,
    pub(crate) command: CommandLine,
    pub(crate) build: Option<CommandLine>,
    #[serde(default)]
    pub(crate) mode: Mode,
    #[serde(default)]
    pub(crate) games: Vec<String>,
    pub(crate) team: Option<String>,
    pub(crate) description: Option<String>,
    /// `[limits]` and `[time]`: the bot's own values (`bot_values.rs`).
    #[serde(default)]
    pub(crate) limits: crate::bot_values::LimitValues,
    #[serde(default)]
    pub(crate) time: crate::bot_values::TimeValues,
}

/// 1-based line and column of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Parses and checks the text of a manifest read from `file`.
pub(crate) fn parse_manifest(file: &Path, text: &str) -> Result<Manifest, ManifestError> {
    let manifest: Manifest = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((0, 0), |span| line_col(text, span.start));
        ManifestError::Syntax {
            file: file.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    let invalid = |message: String| ManifestError::Value {
        file: file.to_path_buf(),
        message,
    };
    if manifest.command.0.is_empty() {
        return Err(invalid(
            "`command` is empty; expected a program and its arguments".into(),
        ));
    }
    if manifest.build.as_ref().is_some_and(|b| b.0.is_empty()) {
        return Err(invalid(
            "`build` is empty; expected a program and its arguments, or leave it out".into(),
        ));
    }
    if let Some(name) = &manifest.name
        && !is_valid_name(name)
    {
        return Err(invalid(format!(
            "`name` {name:?} is not a valid bot name; expected letters, digits, '_', '.', '-'"
        )));
    }
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, ManifestError> {
        parse_manifest(Path::new("bots/x/bot.toml"), text)
    }

    #[test]
    fn full_manifest_parses() {
        let m = parse(
            r#"
name = "random-py"
command = "python3 'my bot.py' --fast"
build = ["make", "all"]
mode = "per-turn"
games = ["cardjitsu", "royale"]
team = "P"
description = "plays at random"
"#,
        )
        .unwrap();
        assert_eq!(m.name.as_deref(), Some("random-py"));
        assert_eq!(m.command.0, ["python3", "my bot.py", "--fast"]);
        assert_eq!(m.build.unwrap().0, ["make", "all"]);
        assert_eq!(m.mode, Mode::PerTurn);
        assert_eq!(m.games, ["cardjitsu", "royale"]);
        assert_eq!(m.team.as_deref(), Some("P"));
    }

    #[test]
    fn minimal_manifest_uses_defaults() {
        let m = parse("command = [\"./bot\"]\n").unwrap();
        assert_eq!(m.mode, Mode::Auto);
        assert!(m.name.is_none() && m.games.is_empty() && m.build.is_none());
    }

    #[test]
    fn unknown_field_names_file_line_and_column() {
        let err = parse("command = \"x\"\n\ncolour = \"red\"\n").unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(
                err,
                ManifestError::Syntax {
                    line: 3,
                    column: 1,
                    ..
                }
            ),
            "{text}"
        );
        assert!(text.contains("bots/x/bot.toml:3:1"), "{text}");
        assert!(text.contains("colour"), "{text}");
    }

    #[test]
    fn wrong_command_type_says_what_was_expected() {
        let err = parse("command = 42\n").unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, ManifestError::Syntax { line: 1, .. }),
            "{text}"
        );
        assert!(
            text.contains("a command string or an array of strings"),
            "{text}"
        );
    }

    #[test]
    fn missing_command_is_an_error() {
        let text = parse("name = \"a\"\n").unwrap_err().to_string();
        assert!(text.contains("command"), "{text}");
    }

    #[test]
    fn bad_mode_lists_the_choices() {
        let err = parse("command = \"x\"\nmode = \"sometimes\"\n").unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, ManifestError::Syntax { line: 2, .. }),
            "{text}"
        );
        assert!(
            text.contains("per-turn") && text.contains("persistent"),
            "{text}"
        );
    }

    #[test]
    fn empty_command_and_bad_quotes_are_rejected() {
        // `team` is a game's business (checked by dojo-games), not the
        // runner's: any text passes here.
        let team = parse("command = \"x\"\nteam = \"Q\"\n").unwrap();
        assert_eq!(team.team.as_deref(), Some("Q"));
        let empty = parse("command = []\n").unwrap_err().to_string();
        assert!(empty.contains("`command` is empty"), "{empty}");
        let quotes = parse("command = \"python3 'bot.py\"\n")
            .unwrap_err()
            .to_string();
        assert!(quotes.contains("unbalanced quotes"), "{quotes}");
    }

    #[test]
    fn limits_and_time_sections_parse() {
        let m = parse(
            "command = \"x\"\n[limits]\nmemory_mib = 2048\nprocesses = 64\nfiles = 256\n\
             file_size_mib = 8\ncpu_s = 30\n[time]\ntimeout_ms = 600\nstartup_ms = 0\n\
             overage_ms = 2000\ngame_ms = 60000\n",
        )
        .unwrap();
        assert_eq!(m.limits.memory_mib, Some(2048));
        assert_eq!(m.limits.processes, Some(64));
        assert_eq!(m.limits.files, Some(256));
        assert_eq!(m.limits.file_size_mib, Some(8));
        assert_eq!(m.limits.cpu_s, Some(30));
        assert_eq!(m.time.timeout_ms, Some(600));
        assert_eq!(m.time.startup_ms, Some(0));
        assert_eq!(m.time.overage_ms, Some(2000));
        assert_eq!(m.time.game_ms, Some(60000));
        let none = parse("command = \"x\"\n").unwrap();
        assert!(none.limits.is_empty() && none.time.is_empty());
    }

    /// Each bad value in the sections: its line, and what was expected.
    #[test]
    fn bad_limits_and_time_name_line_and_expectation() {
        let cases: &[(&str, usize, &str)] = &[
            (
                "[limits]\nmemory = 1\n",
                3,
                "unknown field `memory`, expected one of",
            ),
            (
                "[limits]\nmemory_mib = \"2G\"\n",
                3,
                "expected a whole number",
            ),
            (
                "[limits]\nprocesses = 0\n",
                3,
                "expected a whole number of at least 1",
            ),
            ("[limits]\nfiles = -5\n", 3, "expected a whole number"),
            ("[limits]\ncpu_s = 1.5\n", 3, "expected a whole number"),
            (
                "[time]\ntimeout_ms = 0\n",
                3,
                "expected a whole number of at least 1",
            ),
            (
                "[time]\nmove_ms = 500\n",
                3,
                "unknown field `move_ms`, expected one of",
            ),
            ("[time]\ngame_ms = true\n", 3, "expected a whole number"),
            ("limits = 5\n", 2, "expected struct LimitValues"),
        ];
        for (section, line, expected) in cases {
            let text = format!("command = \"x\"\n{section}");
            let err = parse(&text).unwrap_err();
            let shown = err.to_string();
            assert!(
                matches!(err, ManifestError::Syntax { line: l, .. } if l == *line),
                "{section:?}: {shown}"
            );
            assert!(
                shown.starts_with(&format!("bots/x/bot.toml:{line}:")),
                "{shown}"
            );
            assert!(shown.contains(expected), "{section:?}: {shown}");
        }
        // The unknown-key message lists the keys that are known.
        let err = parse("command = \"x\"\n[time]\nmove_ms = 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("timeout_ms") && err.contains("game_ms"),
            "{err}"
        );
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}

//! The `bot.toml` manifest: its file format and parsing.
//!
//! The format is documented for bot authors in `crates/runner/MANIFEST.md`.
//! This module depends on no other of the runner's: it owns the words a
//! manifest is written in (a [`Mode`], a bot name) and its own error, and
//! `spec.rs` builds a runnable bot on top of it.
//!
//! A manifest is checked key by key, so one reading reports every error it
//! holds (each with its line), not only the first: an organiser fixing a
//! folder of submissions should not have to run dojo once per typo.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

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

/// The longest bot name, in bytes: a name becomes a file name
/// (`stderr/NAME.log`) and a column of the standings.
pub const MAX_NAME_BYTES: usize = 64;

/// The one rule for bot names, whatever gives the name (a manifest's
/// `name`, a bot directory's name, the NAME of `NAME=COMMAND`): 1 to
/// [`MAX_NAME_BYTES`] ASCII letters, digits, `_`, `.` and `-`, not
/// starting with `-` (it would read as a flag in a recorded command) nor
/// with `.` (it would read as a hidden file, as `.` and `..` name
/// directories, and `.alice` would pass for `alice` beside it). A name is
/// a file name (`stderr/NAME.log`) and a word on a command line as it
/// is. `Err` says what breaks it.
pub fn check_name(name: &str) -> Result<(), String> {
    const RULE: &str =
        "a bot name is 1 to 64 letters, digits, '_', '.' and '-', not starting with '-' or '.'";
    let problem = if name.is_empty() {
        "it is empty".to_owned()
    } else if name.len() > MAX_NAME_BYTES {
        format!("it is {} bytes long", name.len())
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        format!("it holds {c:?}")
    } else if name.starts_with('-') {
        "it starts with '-'".to_owned()
    } else if name.starts_with('.') {
        "it starts with '.', as a hidden file's name does".to_owned()
    } else {
        return Ok(());
    };
    Err(format!(
        "{name:?} is not a valid bot name: {problem} ({RULE})"
    ))
}

/// Whether `name` follows [`check_name`]'s rule.
pub fn is_valid_name(name: &str) -> bool {
    check_name(name).is_ok()
}

/// One thing wrong with a `bot.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestProblem {
    /// 1-based line and column; 0 when it has no place in the file (a
    /// missing key, a file that cannot be read).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Why a `bot.toml` could not be used: every problem found in it, in the
/// order of the file (at least one). Shown one per line, each as
/// `FILE:LINE:COLUMN: MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ManifestError {
    pub file: PathBuf,
    pub problems: Vec<ManifestProblem>,
}

impl ManifestError {
    /// Each problem as `FILE:LINE:COLUMN: MESSAGE` (`FILE: MESSAGE` when
    /// it has no line), with the file shown as `shown`.
    pub fn lines_as(&self, shown: &str) -> Vec<String> {
        self.problems
            .iter()
            .map(|p| match p.line {
                0 => format!("{shown}: {}", p.message),
                line => format!("{shown}:{line}:{}: {}", p.column, p.message),
            })
            .collect()
    }
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.display().to_string();
        f.write_str(&self.lines_as(&file).join("\n"))
    }
}

/// A manifest's `team`, as written and where (its key's 1-based line and
/// column): the runner knows no game, so it is checked against a game's
/// roles above it (`dojo_games::fixed_role`), whose error names this
/// place as the manifest's own errors do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestTeam {
    pub name: String,
    pub line: usize,
    pub column: usize,
}

/// A command line as written in a manifest: one string split shell-like,
/// or an array of words used as is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
#[derive(Debug, Clone, Default)]
pub(crate) struct Manifest {
    pub(crate) name: Option<String>,
    pub(crate) command: CommandLine,
    pub(crate) build: Option<CommandLine>,
    pub(crate) mode: Mode,
    pub(crate) games: Vec<String>,
    pub(crate) team: Option<ManifestTeam>,
    pub(crate) description: Option<String>,
    /// `[limits]` and `[time]`: the bot's own values (`bot_values.rs`).
    pub(crate) limits: crate::bot_values::LimitValues,
    pub(crate) time: crate::bot_values::TimeValues,
}

/// The keys a manifest may hold, in the order `MANIFEST.md` lists them.
const KEYS: [&str; 9] = [
    "name",
    "command",
    "build",
    "mode",
    "games",
    "team",
    "description",
    "limits",
    "time",
];

/// 1-based line and column of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// The problems of one manifest, as they are found.
struct Problems<'t> {
    text: &'t str,
    found: Vec<ManifestProblem>,
    /// Top-level keys found inside a table ([`Problems::section`]).
    misplaced: Vec<String>,
}

impl Problems<'_> {
    fn at(&mut self, span: Option<std::ops::Range<usize>>, message: impl Into<String>) {
        let (line, column) = span.map_or((0, 0), |s| line_col(self.text, s.start));
        self.found.push(ManifestProblem {
            line,
            column,
            message: message.into(),
        });
    }

    fn toml(&mut self, e: &toml::de::Error) {
        self.at(e.span(), e.message().trim());
    }

    /// `value` as a `T`, or `None` with the problem noted.
    fn take<'i, T: Deserialize<'i>>(&mut self, value: Spanned<DeValue<'i>>) -> Option<T> {
        T::deserialize(ValueDeserializer::from(value))
            .map_err(|e| self.toml(&e))
            .ok()
    }

    /// A section (`[limits]`, `[time]`, named `table`): each of its keys is
    /// checked on its own, so every bad one is reported; the section's
    /// values if all are good. A top-level key among them (`games` after a
    /// `[time]` line, which TOML puts in that table) is told where
    /// top-level keys go.
    fn section<'i, T: Deserialize<'i> + Default>(
        &mut self,
        table: &str,
        value: Spanned<DeValue<'i>>,
    ) -> T {
        if let DeValue::Table(entries) = value.get_ref() {
            let before = self.found.len();
            for (key, item) in entries.clone() {
                let name = key.get_ref().as_ref();
                if let Some(message) = top_level_in_table(table, name) {
                    self.misplaced.push(name.to_owned());
                    self.at(Some(key.span()), message);
                    continue;
                }
                let mut one = DeTable::new();
                one.insert(key, item);
                let one = Spanned::new(value.span(), DeValue::Table(one));
                let _ = self.take::<T>(one);
            }
            if self.found.len() > before {
                return T::default();
            }
        }
        self.take(value).unwrap_or_default()
    }
}

/// `games`, a list of game names. A value that is no list (`games =
/// "cardjitsu"`, the likeliest slip) is told with the list it should be,
/// where serde would say only "expected a sequence".
fn games<'i>(problems: &mut Problems<'_>, value: Spanned<DeValue<'i>>) -> Vec<String> {
    let found = match value.get_ref() {
        DeValue::Array(_) => return problems.take(value).unwrap_or_default(),
        DeValue::String(name) => format!("string {:?}", name.as_ref()),
        DeValue::Integer(_) | DeValue::Float(_) => "number".to_owned(),
        DeValue::Boolean(b) => format!("boolean `{b}`"),
        DeValue::Datetime(_) => "date".to_owned(),
        DeValue::Table(_) => "table".to_owned(),
    };
    problems.at(
        Some(value.span()),
        format!("`games` is a list: invalid type: {found}, expected a list such as games = [\"cardjitsu\"]"),
    );
    Vec::new()
}

/// The tables a manifest may hold and their keys (`bot_values.rs`'s one
/// list of each).
fn tables() -> [(&'static str, Vec<&'static str>); 2] {
    use crate::bot_values::{LimitValues, TimeValues};
    let keys = |entries: &[(&'static str, Option<u64>)]| entries.iter().map(|(k, _)| *k).collect();
    [
        ("limits", keys(&LimitValues::default().entries())),
        ("time", keys(&TimeValues::default().entries())),
    ]
}

/// The message for a key of `table` that is none of its keys but a
/// top-level key of the manifest (the reverse of [`unknown_key`]'s table
/// hint): written after the table's line, TOML reads it as the table's.
fn top_level_in_table(table: &str, key: &str) -> Option<String> {
    let (_, keys) = tables().into_iter().find(|(t, _)| *t == table)?;
    if keys.contains(&key) || !KEYS.contains(&key) {
        return None;
    }
    let known: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    Some(format!(
        "unknown field `{key}`, expected one of {}; `{key}` is a top-level key: write it before the first `[table]` line (after `[{table}]`, TOML reads every key as one of that table)",
        known.join(", ")
    ))
}

/// The message for an unknown key: the keys there are, and the closest
/// one when it looks like a typo of it. A key of one of the tables
/// (`timeout_ms` at the top level) is told with its table: it belongs
/// under that table's `[time]` line.
fn unknown_key(key: &str) -> (String, Option<&'static str>) {
    let near = KEYS
        .iter()
        .map(|k| (strsim::levenshtein(key, k), *k))
        .filter(|&(d, k)| d > 0 && d <= (k.len() / 3).clamp(1, 2))
        .min()
        .map(|(_, k)| k);
    let table = tables()
        .into_iter()
        .find(|(_, keys)| keys.contains(&key))
        .map(|(table, _)| table);
    let known: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
    let hint = match (table, near) {
        (Some(table), _) => format!(
            "; did you mean `[{table}]` `{key}`? (a key of the [{table}] table: write it under a `[{table}]` line, after the top-level keys)"
        ),
        (None, Some(k)) => format!("; did you mean `{k}`?"),
        (None, None) => String::new(),
    };
    (
        format!(
            "unknown field `{key}`, expected one of {}{hint}",
            known.join(", ")
        ),
        near,
    )
}

/// Parses and checks the text of a manifest read from `file`, reporting
/// every problem it holds: TOML syntax errors (the parser recovers and
/// goes on), unknown keys, values of the wrong type or out of range
/// (each key of `[limits]` and `[time]` on its own), a missing or empty
/// `command`, a `name` that breaks [`check_name`]'s rule.
pub(crate) fn parse_manifest(file: &Path, text: &str) -> Result<Manifest, ManifestError> {
    let mut problems = Problems {
        text,
        found: Vec::new(),
        misplaced: Vec::new(),
    };
    let (doc, syntax) = DeTable::parse_recoverable(text);
    for e in &syntax {
        problems.toml(e);
    }
    let mut m = Manifest::default();
    let mut has_command = false;
    let mut meant_command = false;
    for (key, value) in doc.into_inner() {
        let key_span = Some(key.span());
        match key.get_ref().as_ref() {
            "name" => {
                if let Some(name) = problems.take::<String>(value) {
                    match check_name(&name) {
                        Ok(()) => m.name = Some(name),
                        Err(why) => problems.at(key_span, format!("`name`: {why}")),
                    }
                }
            }
            "command" => {
                has_command = true;
                if let Some(command) = problems.take::<CommandLine>(value) {
                    if command.0.is_empty() {
                        problems.at(
                            key_span,
                            "`command` is empty; expected a program and its arguments",
                        );
                    }
                    m.command = command;
                }
            }
            "build" => {
                if let Some(build) = problems.take::<CommandLine>(value) {
                    if build.0.is_empty() {
                        problems.at(
                            key_span,
                            "`build` is empty; expected a program and its arguments, or leave it out",
                        );
                    }
                    m.build = Some(build);
                }
            }
            "mode" => m.mode = problems.take(value).unwrap_or_default(),
            "games" => m.games = games(&mut problems, value),
            "team" => {
                let (line, column) = line_col(text, key.span().start);
                m.team =
                    problems
                        .take::<String>(value)
                        .map(|name| ManifestTeam { name, line, column });
            }
            "description" => m.description = problems.take(value),
            "limits" => m.limits = problems.section("limits", value),
            "time" => m.time = problems.section("time", value),
            other => {
                let (message, near) = unknown_key(other);
                meant_command |= near == Some("command");
                problems.at(key_span, message);
            }
        }
    }
    // A syntax error may have swallowed the line, and a misspelt
    // `command`, or one inside a table, has been reported as such already.
    meant_command |= problems.misplaced.iter().any(|k| k == "command");
    if !has_command && syntax.is_empty() && !meant_command {
        problems.at(
            None,
            "missing field `command`: the program that runs the bot, e.g. command = \"python3 bot.py\"",
        );
    }
    let mut found = problems.found;
    if found.is_empty() {
        return Ok(m);
    }
    // In the order of the file; problems with no line last.
    found.sort_by_key(|p| (p.line == 0, p.line, p.column));
    Err(ManifestError {
        file: file.to_path_buf(),
        problems: found,
    })
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
        let team = m.team.unwrap();
        assert_eq!((team.name.as_str(), team.line, team.column), ("P", 7, 1));
    }

    #[test]
    fn minimal_manifest_uses_defaults() {
        let m = parse("command = [\"./bot\"]\n").unwrap();
        assert_eq!(m.mode, Mode::Auto);
        assert!(m.name.is_none() && m.games.is_empty() && m.build.is_none());
    }

    /// A key of `[time]` or `[limits]` written at the top level is told
    /// with the table it belongs to, on its own line.
    #[test]
    fn a_tables_key_at_the_top_level_names_its_table() {
        for (key, table) in [
            ("timeout_ms", "time"),
            ("startup_ms", "time"),
            ("game_ms", "time"),
            ("memory_mib", "limits"),
            ("cpu_s", "limits"),
        ] {
            let err = parse(&format!("command = \"x\"\n{key} = 500\n")).unwrap_err();
            let text = err.to_string();
            assert_eq!(err.problems.len(), 1, "{text}");
            assert!(
                text.starts_with(&format!("bots/x/bot.toml:2:1: unknown field `{key}`")),
                "{text}"
            );
            assert!(
                text.contains(&format!("did you mean `[{table}]` `{key}`?")),
                "{text}"
            );
        }
    }

    /// A top-level key written after a `[time]` or `[limits]` line, which
    /// TOML reads as a key of that table, is told to go before the first
    /// table line, at its own line and column; a `command` put there is
    /// not also reported missing.
    #[test]
    fn a_top_level_key_after_a_table_line_says_where_top_level_keys_go() {
        for (table, key, value) in [
            ("time", "games", "[\"cardjitsu\"]"),
            ("limits", "description", "\"late\""),
            ("time", "command", "\"python3 bot.py\""),
        ] {
            let text = if key == "command" {
                format!("name = \"x\"\n[{table}]\ntimeout_ms = 500\n  {key} = {value}\n")
            } else {
                format!("command = \"x\"\n[{table}]\n  {key} = {value}\n")
            };
            let err = parse(&text).unwrap_err();
            let shown = err.to_string();
            assert_eq!(err.problems.len(), 1, "{shown}");
            let line = if key == "command" { 4 } else { 3 };
            assert!(
                shown.starts_with(&format!("bots/x/bot.toml:{line}:3: unknown field `{key}`")),
                "{shown}"
            );
            assert!(
                shown.contains(&format!(
                    "`{key}` is a top-level key: write it before the first `[table]` line"
                )) && shown.contains(&format!("after `[{table}]`")),
                "{shown}"
            );
        }
    }

    #[test]
    fn unknown_field_names_file_line_and_column() {
        let err = parse("command = \"x\"\n\ncolour = \"red\"\n").unwrap_err();
        let text = err.to_string();
        assert_eq!(
            (err.problems[0].line, err.problems[0].column),
            (3, 1),
            "{text}"
        );
        assert!(text.contains("bots/x/bot.toml:3:1"), "{text}");
        assert!(text.contains("colour"), "{text}");
    }

    #[test]
    fn wrong_command_type_says_what_was_expected() {
        let err = parse("command = 42\n").unwrap_err();
        let text = err.to_string();
        assert!(err.problems[0].line == 1, "{text}");
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
        assert!(err.problems[0].line == 2, "{text}");
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
        assert_eq!(team.team.map(|t| t.name).as_deref(), Some("Q"));
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
                err.problems.len() == 1 && err.problems[0].line == *line,
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

    /// Every problem of a manifest, each with its line, in file order: an
    /// unknown key (with the key it is likely a typo of), a value of the
    /// wrong type, a bad name, two bad keys of one section, and no
    /// separate "missing `command`" when `comand` was written.
    #[test]
    fn every_problem_is_reported_with_its_line() {
        let text = "comand = \"python3 bot.py\"\nname = \"my bot\"\nmode = \"sometimes\"\n\
                    games = \"cardjitsu\"\n[limits]\nmemory_mib = 0\nprocesses = \"many\"\n\
                    [time]\ntimeout_ms = 5\n";
        let err = parse(text).unwrap_err();
        let lines: Vec<usize> = err.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 6, 7], "{err}");
        let shown = err.to_string();
        let shown: Vec<&str> = shown.lines().collect();
        assert_eq!(shown.len(), 6, "{shown:?}");
        assert!(shown[0].starts_with("bots/x/bot.toml:1:1: unknown field `comand`"));
        assert!(
            shown[0].ends_with("did you mean `command`?"),
            "{}",
            shown[0]
        );
        assert!(shown[1].contains("\"my bot\" is not a valid bot name: it holds ' '"));
        assert!(
            shown[2].contains("unknown variant `sometimes`"),
            "{}",
            shown[2]
        );
        assert!(
            shown[3].contains("expected a list such as games = [\"cardjitsu\"]"),
            "{}",
            shown[3]
        );
        assert!(shown[4].contains("at least 1"), "{}", shown[4]);
        assert!(shown[5].contains("a whole number"), "{}", shown[5]);
        // The same file through `lines_as`, as a folder's table shows it.
        assert!(err.lines_as("bot.toml")[0].starts_with("bot.toml:1:1: "));
    }

    /// `games = "cardjitsu"`, one name without the brackets of a list:
    /// told with its place and the list it should be, not serde's
    /// "expected a sequence".
    #[test]
    fn a_single_game_without_brackets_is_told_to_be_a_list() {
        let err = parse("command = \"x\"\ngames = \"cardjitsu\"\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "bots/x/bot.toml:2:9: `games` is a list: invalid type: string \"cardjitsu\", \
             expected a list such as games = [\"cardjitsu\"]"
        );
        let err = parse("command = \"x\"\ngames = 3\n").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("expected a list such as games = [\"cardjitsu\"]"),
            "{err}"
        );
        // A list holding something else than names: serde says what.
        let err = parse("command = \"x\"\ngames = [1]\n").unwrap_err();
        assert!(err.to_string().contains("bot.toml:2:"), "{err}");
    }

    #[test]
    fn syntax_errors_are_all_reported_and_a_missing_command_too() {
        let err = parse("command = \"x\"\nname = \"a\nmode = [\n").unwrap_err();
        assert!(err.problems.len() >= 2, "{err}");
        assert!(err.problems.iter().all(|p| p.line >= 2), "{err}");
        let err = parse("name = \"a\"\ndescription = \"b\"\n").unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert_eq!(err.problems[0].line, 0);
        assert!(
            err.to_string()
                .starts_with("bots/x/bot.toml: missing field `command`"),
            "{err}"
        );
    }

    #[test]
    fn one_name_rule() {
        for good in [
            "a",
            "random-py",
            "Bot_2.0",
            "_x",
            "a.",
            &"n".repeat(MAX_NAME_BYTES),
        ] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for (bad, why) in [
            ("", "it is empty"),
            ("my bot", "it holds ' '"),
            ("weird:name", "it holds ':'"),
            ("a/b", "it holds '/'"),
            ("élan", "it holds 'é'"),
            (".", "it starts with '.'"),
            ("..", "it starts with '.'"),
            ("...", "it starts with '.'"),
            (".alice", "it starts with '.'"),
            (".tmpA1", "it starts with '.'"),
            ("-x", "it starts with '-'"),
            (&"n".repeat(MAX_NAME_BYTES + 1), "65 bytes long"),
        ] {
            let err = check_name(bad).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
            assert!(!is_valid_name(bad));
        }
    }

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}

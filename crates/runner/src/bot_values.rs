//! Per-bot values: a bot's own resource limits and time controls, written
//! in its manifest's `[limits]` and `[time]` sections, that replace the
//! run's for that bot's processes.
//!
//! The keys are the names of the flags they stand in for (`--limit-memory-mib`
//! is `[limits] memory_mib`, `--timeout-ms` is `[time] timeout_ms`), so an
//! organiser reading a manifest knows which flag a value overrides. Only
//! what is written is stored: an absent key means "the run's value". Whether
//! a value above the run's is allowed is the caller's business (a league
//! caps or refuses raises; `docs/sandbox.md`); the runner applies what it
//! is given, through the controls' table ([`crate::Controls::with_bot`]).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

/// A bot's own values (`bot.toml`'s `[limits]` and `[time]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BotValues {
    #[serde(skip_serializing_if = "LimitValues::is_empty")]
    pub limits: LimitValues,
    #[serde(skip_serializing_if = "TimeValues::is_empty")]
    pub time: TimeValues,
}

/// `[limits]`: the `--limit-*` flags for one bot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitValues {
    /// `--limit-memory-mib`: memory of a process's whole tree, MiB.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub memory_mib: Option<u64>,
    /// `--limit-processes`: processes and threads of a process's tree.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub processes: Option<u64>,
    /// `--limit-files`: open files per process.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub files: Option<u64>,
    /// `--limit-file-size-mib`: largest file written, MiB.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub file_size_mib: Option<u64>,
    /// `--limit-cpu-s`: CPU seconds per process.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub cpu_s: Option<u64>,
}

/// `[time]`: the time flags for one bot (the time mode and pinning stay
/// the run's: they are about the machine, not the bot).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimeValues {
    /// `--timeout-ms`: time per move.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub timeout_ms: Option<u64>,
    /// `--startup-ms`: extra time for a bot's first answer of a game (see
    /// [`crate::Controls::startup`]).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "any_whole"
    )]
    pub startup_ms: Option<u64>,
    /// `--overage-ms`: the bank of extra time per game.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "any_whole"
    )]
    pub overage_ms: Option<u64>,
    /// `--game-ms`: the most time the bot may use in one game.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "at_least_one"
    )]
    pub game_ms: Option<u64>,
}

/// A present key must be a whole number of at least 1 (0 would be no
/// memory, no process, no time: never what an author means).
fn at_least_one<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = any_whole(d)?;
    if v == Some(0) {
        return Err(de::Error::invalid_value(
            de::Unexpected::Unsigned(0),
            &"a whole number of at least 1",
        ));
    }
    Ok(v)
}

/// A present key must be a whole number (0 allowed).
fn any_whole<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct Whole;
    impl de::Visitor<'_> for Whole {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a whole number")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }
    }
    d.deserialize_u64(Whole).map(Some)
}

impl LimitValues {
    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        *self == LimitValues::default()
    }

    /// Every key with its value, in the order of the flags.
    pub fn entries(&self) -> [(&'static str, Option<u64>); 5] {
        [
            ("memory_mib", self.memory_mib),
            ("processes", self.processes),
            ("files", self.files),
            ("file_size_mib", self.file_size_mib),
            ("cpu_s", self.cpu_s),
        ]
    }
}

impl TimeValues {
    /// Whether no key is set.
    pub fn is_empty(&self) -> bool {
        *self == TimeValues::default()
    }

    /// Every key with its value, in the order of the flags.
    pub fn entries(&self) -> [(&'static str, Option<u64>); 4] {
        [
            ("timeout_ms", self.timeout_ms),
            ("startup_ms", self.startup_ms),
            ("overage_ms", self.overage_ms),
            ("game_ms", self.game_ms),
        ]
    }
}

impl BotValues {
    /// Whether no key is set in either section.
    pub fn is_empty(&self) -> bool {
        self.limits.is_empty() && self.time.is_empty()
    }

    /// Each key the bot sets (`limits.memory_mib`), with its value: the
    /// `[limits]` section's in the order of its flags, then `[time]`'s.
    pub fn given(&self) -> Vec<(String, u64)> {
        let limits = self.limits.entries().map(|(k, v)| ("limits", k, v));
        let time = self.time.entries().map(|(k, v)| ("time", k, v));
        limits
            .into_iter()
            .chain(time)
            .filter_map(|(section, k, v)| v.map(|v| (format!("{section}.{k}"), v)))
            .collect()
    }

    /// The value of `key` (`limits.memory_mib`, `time.timeout_ms`: the
    /// `bot_key` of a [`crate::Control`]), if the bot sets it.
    pub fn get(&self, key: &str) -> Option<u64> {
        let (section, name) = key.split_once('.')?;
        let entries: &[(&str, Option<u64>)] = match section {
            "limits" => &self.limits.entries(),
            "time" => &self.time.entries(),
            _ => &[],
        };
        entries
            .iter()
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| *v)
    }

    /// Sets `key` (as [`BotValues::get`] names it) to `v`; an unknown key
    /// is ignored (keys come from [`crate::CONTROLS`]).
    pub fn set(&mut self, key: &str, v: Option<u64>) {
        let (l, t) = (&mut self.limits, &mut self.time);
        let slot = match key {
            "limits.memory_mib" => &mut l.memory_mib,
            "limits.processes" => &mut l.processes,
            "limits.files" => &mut l.files,
            "limits.file_size_mib" => &mut l.file_size_mib,
            "limits.cpu_s" => &mut l.cpu_s,
            "time.timeout_ms" => &mut t.timeout_ms,
            "time.startup_ms" => &mut t.startup_ms,
            "time.overage_ms" => &mut t.overage_ms,
            "time.game_ms" => &mut t.game_ms,
            _ => return,
        };
        *slot = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_sections_are_empty() {
        assert!(toml::from_str::<BotValues>("").unwrap().is_empty());
        let v: BotValues = toml::from_str("[time]\nstartup_ms = 0\n").unwrap();
        assert_eq!(v.time.startup_ms, Some(0));
        assert!(v.limits.is_empty() && !v.is_empty());
    }

    #[test]
    fn given_lists_the_keys_set_limits_first() {
        let v: BotValues =
            toml::from_str("[time]\ntimeout_ms = 900\n[limits]\ncpu_s = 3\nmemory_mib = 64\n")
                .unwrap();
        assert_eq!(
            v.given(),
            [
                ("limits.memory_mib".to_owned(), 64),
                ("limits.cpu_s".to_owned(), 3),
                ("time.timeout_ms".to_owned(), 900)
            ]
        );
        for (key, value) in v.given() {
            assert_eq!(v.get(&key), Some(value));
        }
    }
}

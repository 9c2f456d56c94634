//! What identifies a league: the game, the bots, the number of games, the
//! seed and everything else stored in `league.json`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use dojo_engine::cardjitsu::Ruleset;
use dojo_engine::royale::Team;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Version of the `league.json` format (see FORMATS.md); every format's
/// version is defined in `dojo_games::formats`.
pub use dojo_games::formats::LEAGUE_FORMAT_VERSION;

// The game lives with the per-game registry; the league names it the same.
pub use dojo_games::{Game, UnknownGame};

/// A bot entered in a league, as `league.json` stores it: its name, the
/// spec it was given by (resolved into a runnable `dojo_runner::BotSpec`
/// when games are played) and the team it insists on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    /// Unique name; the schedule, seeds and report refer to bots by it.
    pub name: String,
    /// How to start the bot; opaque to the league (the runner reads it).
    pub command: String,
    /// Royale only: the team (`R`, `P` or `S`) the bot's manifest insists
    /// on; the bot is then only scheduled on that team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_team: Option<Team>,
    /// The bot's own limits and time values in force, from its manifest
    /// after the organiser's `--bot-raises` (only keys that differ from the
    /// league's; see [`settle_values`]). Absent when none.
    #[serde(default, skip_serializing_if = "dojo_runner::BotValues::is_empty")]
    pub values: dojo_runner::BotValues,
}

/// Which part of a league one machine plays: fixtures with
/// `id % count == index - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// 1-based, `1 <= index <= count`.
    pub index: u64,
    pub count: u64,
}

/// A malformed or out-of-range `--shard I/N`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid shard `{given}`: expected I/N with 1 <= I <= N (for example 2/5)")]
pub struct BadShard {
    pub given: String,
}

impl Shard {
    /// Checks `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, BadShard> {
        if index == 0 || count == 0 || index > count {
            return Err(BadShard {
                given: format!("{index}/{count}"),
            });
        }
        Ok(Shard { index, count })
    }
}

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShard {
            given: s.to_owned(),
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Everything that identifies a league; stored as `league.json`.
///
/// Two directories hold the same league exactly when their settings are
/// equal; shards of one league differ only in `shard`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub game: Game,
    pub bots: Vec<Entrant>,
    /// CardJitsu: games per pair of bots (rounded up to whole seat-swapped
    /// seed pairs). Royale: games per triple (rounded up to a multiple of 3).
    pub games: u64,
    /// The league seed every game seed is derived from.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale boards (paths or names, opaque), used in rotation; empty
    /// means the game's default board.
    #[serde(default)]
    pub boards: Vec<String>,
    /// Per-move time limit handed to the executor.
    pub timeout_ms: u64,
    /// The bot whose rating is pinned (instead of centring the mean at
    /// 1500), at `anchor_elo` or else [`crate::report::ANCHOR_ELO`].
    #[serde(default)]
    pub anchor: Option<String>,
    /// The rating the anchor bot is pinned at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_elo: Option<f64>,
    /// A gauntlet: only the games that include this bot are played
    /// (CardJitsu: against each other bot; royale: the trios it is in).
    /// Absent: a round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gauntlet: Option<String>,
    /// A gauntlet's stop rule: each pairing of the gauntlet bot and an
    /// opponent stops once this sequential test decides (`crate::stop`).
    /// Absent: every scheduled game is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<dojo_stats::sprt::SprtParams>,
    /// Set when this directory plays only part of the league.
    #[serde(default)]
    pub shard: Option<Shard>,
    /// How each game is played beyond the bots and seeds: rules, decks,
    /// round limits, start-up allowance. Absent in leagues from before it
    /// existed, which were played with these defaults.
    #[serde(default)]
    pub play: PlayOptions,
    /// The resource limits of every bot process: a bot over one crashes,
    /// so they change results. Absent when they are the defaults (and in
    /// leagues from before they were stored).
    #[serde(default, skip_serializing_if = "BotLimits::is_default")]
    pub limits: BotLimits,
}

/// The resource limits of each bot process (`--limit-*`), as a league
/// stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BotLimits {
    /// Memory of a bot process's whole tree, MiB (its cgroup; where there
    /// is none, each process's address space); `None`: inherited.
    pub memory_mib: Option<u64>,
    /// CPU seconds per process (RLIMIT_CPU); `None`: inherited.
    pub cpu_s: Option<u64>,
    /// Processes and threads of a bot process's whole tree (its cgroup's
    /// `pids.max`); absent in leagues written before this limit existed.
    pub processes: u64,
    /// Open files (RLIMIT_NOFILE).
    pub files: u64,
    /// Largest file written, MiB (RLIMIT_FSIZE).
    pub file_size_mib: u64,
}

impl Default for BotLimits {
    fn default() -> BotLimits {
        BotLimits {
            memory_mib: None,
            cpu_s: None,
            processes: dojo_runner::DEFAULT_PROCESSES,
            files: 1024,
            file_size_mib: 64,
        }
    }
}

impl BotLimits {
    /// Whether these are the defaults (then `league.json` leaves them out).
    pub fn is_default(&self) -> bool {
        *self == BotLimits::default()
    }
}

/// MiB to bytes, saturating (a limit too large to express is no limit).
fn mib(m: u64) -> u64 {
    m.saturating_mul(1 << 20)
}

/// The per-game options `dojo match` takes, as a league or comparison
/// stores them: everything besides bots and seeds that changes results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayOptions {
    /// CardJitsu: the rule variant.
    pub rules: Ruleset,
    /// CardJitsu: each seat's deck, `standard` or the path of a `.dcfg`
    /// file (made absolute, so `--resume` works from any directory).
    pub decks: [String; 2],
    /// Rounds after which an undecided game is a draw; `None`: the game's
    /// default (CardJitsu 500, royale 10 * (width + height)).
    pub max_rounds: Option<u32>,
    /// Royale: whole rounds without a tile changing after which the game is
    /// a draw; `None`: width + height.
    pub stall_rounds: Option<u32>,
    /// Extra time for the first answer of a freshly started bot process.
    pub startup_ms: u64,
    /// What a move's time counts (`wall` or `cpu`); left out when `wall`,
    /// so leagues without it read and write as before.
    #[serde(skip_serializing_if = "is_wall")]
    pub time: dojo_runner::TimeMode,
    /// The bank of extra time per bot and game; left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub overage_ms: u64,
    /// The most time a bot may use in one game; left out when unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_ms: Option<u64>,
    /// Each game's bots on one CPU core, at most one game per core; left
    /// out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pin: bool,
    /// What a bot's manifest may do with a value above the league's; left
    /// out when `allow`.
    #[serde(skip_serializing_if = "Raises::is_allow")]
    pub raises: Raises,
}

/// What becomes of a bot's own value (`bot.toml`'s `[limits]`, `[time]`)
/// that is above the league's: more memory, more time. A value at or
/// below the league's is always taken (a bot may only hurt itself with
/// it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Raises {
    /// Taken, and printed at the start (the default, except under
    /// `--sandbox strict`).
    #[default]
    Allow,
    /// Lowered to the league's value.
    Cap,
    /// The league does not start (the default under `--sandbox strict`).
    Refuse,
}

impl Raises {
    fn is_allow(&self) -> bool {
        *self == Raises::Allow
    }

    /// The name used by the flag and in files.
    pub fn name(self) -> &'static str {
        match self {
            Raises::Allow => "allow",
            Raises::Cap => "cap",
            Raises::Refuse => "refuse",
        }
    }
}

impl FromStr for Raises {
    type Err = String;
    fn from_str(s: &str) -> Result<Raises, String> {
        match s {
            "allow" => Ok(Raises::Allow),
            "cap" => Ok(Raises::Cap),
            "refuse" => Ok(Raises::Refuse),
            other => Err(format!(
                "unknown --bot-raises {other:?}: expected allow, cap or refuse"
            )),
        }
    }
}

/// One of a bot's own values that differs from the league's, as printed
/// at the start of a league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub bot: String,
    /// `limits.memory_mib`, `time.timeout_ms`, ...
    pub key: String,
    /// What the manifest asks for.
    pub asked: u64,
    /// The league's value; `None`: unlimited.
    pub league: Option<u64>,
    /// What the bot gets: `asked`, or the league's value when capped.
    pub applied: Option<u64>,
}

impl Override {
    /// Whether the bot asked for more than the league gives.
    pub fn is_raise(&self) -> bool {
        self.league.is_some_and(|l| self.asked > l)
    }
}

impl fmt::Display for Override {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let league = self
            .league
            .map_or_else(|| "unlimited".to_owned(), |v| v.to_string());
        write!(
            f,
            "bot {}: {} = {} in its bot.toml (the league's: {league})",
            self.bot, self.key, self.asked
        )?;
        match (self.is_raise(), self.applied == Some(self.asked)) {
            (true, true) => f.write_str(", a raise, allowed"),
            (true, false) => write!(f, ", a raise, capped to {league} (--bot-raises cap)"),
            (false, _) => f.write_str(", lower: applied"),
        }
    }
}

/// A bot's value above the league's under `--bot-raises refuse`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "bot {bot}: {key} = {asked} in its bot.toml is above the league's {league}, and the league \
     refuses raises (--bot-raises refuse{strict}); lower it in the bot.toml, raise the \
     league's flag, or pass --bot-raises allow or cap",
    bot = .0.bot, key = .0.key, asked = .0.asked,
    league = .0.league.map_or_else(|| "unlimited".to_owned(), |v| v.to_string()),
    strict = if *.1 { ", the default under --sandbox strict" } else { "" }
)]
pub struct RaiseRefused(pub Override, pub bool);

fn is_wall(time: &dojo_runner::TimeMode) -> bool {
    *time == dojo_runner::TimeMode::Wall
}

fn is_zero(ms: &u64) -> bool {
    *ms == 0
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            rules: Ruleset::Tournament,
            decks: ["standard".into(), "standard".into()],
            max_rounds: None,
            stall_rounds: None,
            startup_ms: 2000,
            time: dojo_runner::TimeMode::Wall,
            overage_ms: 0,
            game_ms: None,
            pin: false,
            raises: Raises::Allow,
        }
    }
}

impl Settings {
    /// The league's value of each per-bot key (`None`: unlimited), as
    /// [`dojo_runner::LimitValues`] and [`dojo_runner::TimeValues`] name
    /// them.
    pub fn league_values(&self) -> Vec<(&'static str, Option<u64>)> {
        let l = &self.limits;
        vec![
            ("limits.memory_mib", l.memory_mib),
            ("limits.processes", Some(l.processes)),
            ("limits.files", Some(l.files)),
            ("limits.file_size_mib", Some(l.file_size_mib)),
            ("limits.cpu_s", l.cpu_s),
            ("time.timeout_ms", Some(self.timeout_ms)),
            ("time.startup_ms", Some(self.play.startup_ms)),
            ("time.overage_ms", Some(self.play.overage_ms)),
            ("time.game_ms", self.play.game_ms),
        ]
    }

    /// The values `bot` plays with: the league's, with the entrant's own
    /// (stored in `values`) in their place. Keys in the order of
    /// [`Settings::league_values`], each with whether it is the bot's own.
    pub fn values_in_force(&self, bot: &Entrant) -> Vec<(&'static str, Option<u64>, bool)> {
        let own = keyed(&bot.values);
        self.league_values()
            .into_iter()
            .map(|(key, league)| match own.iter().find(|(k, _)| *k == key) {
                Some((_, Some(v))) => (key, Some(*v), true),
                _ => (key, league, false),
            })
            .collect()
    }
}

/// The keys of `values` as `section.key`, in the order of the flags.
fn keyed(values: &dojo_runner::BotValues) -> Vec<(&'static str, Option<u64>)> {
    let limits = values.limits.entries().map(|(k, v)| (limits_key(k), v));
    let time = values.time.entries().map(|(k, v)| (time_key(k), v));
    limits.into_iter().chain(time).collect()
}

fn limits_key(k: &str) -> &'static str {
    match k {
        "memory_mib" => "limits.memory_mib",
        "processes" => "limits.processes",
        "files" => "limits.files",
        "file_size_mib" => "limits.file_size_mib",
        _ => "limits.cpu_s",
    }
}

fn time_key(k: &str) -> &'static str {
    match k {
        "timeout_ms" => "time.timeout_ms",
        "startup_ms" => "time.startup_ms",
        "overage_ms" => "time.overage_ms",
        _ => "time.game_ms",
    }
}

/// Sets `key` (`section.name`) of `values` to `v`.
fn set(values: &mut dojo_runner::BotValues, key: &str, v: Option<u64>) {
    let (l, t) = (&mut values.limits, &mut values.time);
    let slot = match key {
        "limits.memory_mib" => &mut l.memory_mib,
        "limits.processes" => &mut l.processes,
        "limits.files" => &mut l.files,
        "limits.file_size_mib" => &mut l.file_size_mib,
        "limits.cpu_s" => &mut l.cpu_s,
        "time.timeout_ms" => &mut t.timeout_ms,
        "time.startup_ms" => &mut t.startup_ms,
        "time.overage_ms" => &mut t.overage_ms,
        _ => &mut t.game_ms,
    };
    *slot = v;
}

/// What a bot gets of the values its manifest asks for (`asked`) in a
/// league with `settings` (its league-wide values and `play.raises`):
/// the values in force (only the keys that differ from the league's) and
/// one [`Override`] per key asked for that differs, to be printed. A value
/// at or below the league's is taken; one above it is taken, capped or
/// refused as `play.raises` says. `strict` only changes the message (the
/// caller chose `refuse` for `--sandbox strict`).
pub fn settle_values(
    settings: &Settings,
    bot: &str,
    asked: &dojo_runner::BotValues,
    strict: bool,
) -> Result<(dojo_runner::BotValues, Vec<Override>), RaiseRefused> {
    let league = settings.league_values();
    let mut in_force = dojo_runner::BotValues::default();
    let mut overrides = Vec::new();
    for (key, value) in keyed(asked) {
        let Some(asked) = value else { continue };
        let league = league.iter().find(|(k, _)| *k == key).and_then(|(_, v)| *v);
        if league == Some(asked) {
            continue;
        }
        let mut o = Override {
            bot: bot.to_owned(),
            key: key.to_owned(),
            asked,
            league,
            applied: Some(asked),
        };
        if o.is_raise() {
            match settings.play.raises {
                Raises::Allow => {}
                Raises::Cap => o.applied = league,
                Raises::Refuse => return Err(RaiseRefused(o, strict)),
            }
        }
        if o.applied != league {
            set(&mut in_force, key, o.applied);
        }
        overrides.push(o);
    }
    Ok((in_force, overrides))
}

/// Where a directory's games came from, stored beside the settings in
/// `league.json`: the dojo that played them and the exact bots. Shards are
/// only merged, and a league only resumed, when this is identical: equal
/// settings with a changed bot (or a dojo that plays differently) would
/// make one report of two different leagues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The version of dojo that played the games.
    pub dojo_version: String,
    /// Each bot's fingerprint (a hash of its manifest and the files its
    /// command names; see `dojo_runner::fingerprint`), by bot name. Empty
    /// for executors that run no bot processes.
    pub fingerprints: BTreeMap<String, String>,
}

impl Provenance {
    /// This dojo, with these bots.
    pub fn current(fingerprints: BTreeMap<String, String>) -> Provenance {
        Provenance {
            dojo_version: env!("CARGO_PKG_VERSION").to_owned(),
            fingerprints,
        }
    }

    /// The first key in which `other` differs from this one, as a path into
    /// `league.json` (`provenance.dojo_version`,
    /// `provenance.fingerprints.NAME`), with both values (`None`: absent).
    pub fn difference(&self, other: &Provenance) -> Option<ProvenanceDiff> {
        if self.dojo_version != other.dojo_version {
            return Some(ProvenanceDiff {
                key: "provenance.dojo_version".into(),
                ours: Some(self.dojo_version.clone()),
                theirs: Some(other.dojo_version.clone()),
            });
        }
        let names = self.fingerprints.keys().chain(other.fingerprints.keys());
        for name in names {
            let (ours, theirs) = (self.fingerprints.get(name), other.fingerprints.get(name));
            if ours != theirs {
                return Some(ProvenanceDiff {
                    key: format!("provenance.fingerprints.{name}"),
                    ours: ours.cloned(),
                    theirs: theirs.cloned(),
                });
            }
        }
        None
    }
}

/// One differing provenance key ([`Provenance::difference`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvenanceDiff {
    /// Path of the key in `league.json`.
    pub key: String,
    /// The value on the first side, `None` when absent.
    pub ours: Option<String>,
    /// The value on the other side.
    pub theirs: Option<String>,
}

impl fmt::Display for ProvenanceDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "absent".into());
        write!(
            f,
            "{} is {} there and {} here",
            self.key,
            show(&self.ours),
            show(&self.theirs)
        )
    }
}

impl Settings {
    /// Bot names in sorted order: a bot's index in ratings is its position
    /// here, so the order bots were given in never matters.
    pub fn sorted_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.bots.iter().map(|b| b.name.clone()).collect();
        names.sort();
        names
    }

    /// How the runner must run this league's bots: `base` (containment,
    /// stderr handling, the cancel flag) with every stored setting that
    /// changes a result applied: the move time limit, the start-up
    /// allowance, the clock (time mode, overage bank, game budget,
    /// pinning) and the resource limits. The league's settings are the
    /// one source of these; nothing else reads them back.
    pub fn run_options(&self, base: dojo_runner::RunOptions) -> dojo_runner::RunOptions {
        let l = self.limits;
        dojo_runner::RunOptions {
            move_timeout: std::time::Duration::from_millis(self.timeout_ms),
            startup_allowance: std::time::Duration::from_millis(self.play.startup_ms),
            time: self.play.time,
            overage: std::time::Duration::from_millis(self.play.overage_ms),
            game_budget: self.play.game_ms.map(std::time::Duration::from_millis),
            pin_game_threads: self.play.pin,
            limits: dojo_runner::Limits {
                memory_bytes: l.memory_mib.map(mib),
                address_space_bytes: None,
                cpu_seconds: l.cpu_s,
                processes: Some(l.processes),
                open_files: Some(l.files),
                file_size_bytes: Some(mib(l.file_size_mib)),
            },
            ..base
        }
    }

    /// The same league without its shard: what shards of one league share.
    pub fn unsharded(&self) -> Settings {
        Settings {
            shard: None,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_and_validates() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("3".parse::<Shard>().is_err());
        assert!("a/b".parse::<Shard>().is_err());
        assert_eq!(Shard::new(3, 3).unwrap().to_string(), "3/3");
    }

    #[test]
    fn provenance_names_the_first_differing_key() {
        let fp = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let a = Provenance::current(fp(&[("ant", "fnv1a64:1"), ("bee", "fnv1a64:2")]));
        assert_eq!(a.difference(&a.clone()), None);
        let b = Provenance::current(fp(&[("ant", "fnv1a64:1"), ("bee", "fnv1a64:3")]));
        let d = a.difference(&b).unwrap();
        assert_eq!(d.key, "provenance.fingerprints.bee");
        assert_eq!(
            d.to_string(),
            "provenance.fingerprints.bee is fnv1a64:2 there and fnv1a64:3 here"
        );
        let c = Provenance::current(fp(&[("ant", "fnv1a64:1")]));
        assert_eq!(a.difference(&c).unwrap().theirs, None);
        let old = Provenance {
            dojo_version: "0.0.1".into(),
            ..a.clone()
        };
        assert_eq!(a.difference(&old).unwrap().key, "provenance.dojo_version");
    }

    #[test]
    fn stored_limits_and_times_are_what_the_runner_gets() {
        let mut s: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu",
            "bots": [],
            "games": 2,
            "seed": "1",
            "timeout_ms": 250,
        }))
        .unwrap();
        // An old league.json without limits: the defaults, and not written.
        assert!(s.limits.is_default());
        assert!(serde_json::to_value(&s).unwrap().get("limits").is_none());
        s.limits.memory_mib = Some(512);
        s.play.startup_ms = 700;
        s.play.overage_ms = 300;
        s.play.pin = true;
        let run = s.run_options(dojo_runner::RunOptions::default());
        assert_eq!(run.overage, std::time::Duration::from_millis(300));
        assert!(run.pin_game_threads);
        assert_eq!(run.move_timeout, std::time::Duration::from_millis(250));
        assert_eq!(run.startup_allowance, std::time::Duration::from_millis(700));
        assert_eq!(run.limits.memory_bytes, Some(512 << 20));
        assert_eq!(run.limits.open_files, Some(1024));
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["limits"]["memory_mib"], 512);
        assert_eq!(serde_json::from_value::<Settings>(v).unwrap(), s);
    }

    fn league(raises: Raises) -> Settings {
        let mut s: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu", "bots": [], "games": 2, "seed": "1", "timeout_ms": 300,
        }))
        .unwrap();
        s.limits.memory_mib = Some(1024);
        s.play.raises = raises;
        s
    }

    fn asked() -> dojo_runner::BotValues {
        toml_values(
            "[limits]\nmemory_mib = 4096\nfiles = 64\n[time]\ntimeout_ms = 900\nstartup_ms = 2000\n",
        )
    }

    fn toml_values(text: &str) -> dojo_runner::BotValues {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bot.toml"),
            format!("command = \"x\"\n{text}"),
        )
        .unwrap();
        dojo_runner::load_dir(dir.path()).unwrap().values
    }

    #[test]
    fn a_bots_own_values_are_allowed_capped_or_refused_and_lower_ones_always_taken() {
        // Allow: raises and lowers taken; a value equal to the league's is
        // no override.
        let (v, o) = settle_values(&league(Raises::Allow), "jit", &asked(), false).unwrap();
        assert_eq!(v.limits.memory_mib, Some(4096));
        assert_eq!(v.limits.files, Some(64));
        assert_eq!(v.time.timeout_ms, Some(900));
        assert_eq!(v.time.startup_ms, None);
        let keys: Vec<&str> = o.iter().map(|o| o.key.as_str()).collect();
        assert_eq!(
            keys,
            ["limits.memory_mib", "limits.files", "time.timeout_ms"]
        );
        assert_eq!(
            o[0].to_string(),
            "bot jit: limits.memory_mib = 4096 in its bot.toml (the league's: 1024), a raise, allowed"
        );
        assert_eq!(
            o[1].to_string(),
            "bot jit: limits.files = 64 in its bot.toml (the league's: 1024), lower: applied"
        );
        // Cap: raises become the league's value (so are not stored), the
        // lower value stays.
        let (v, o) = settle_values(&league(Raises::Cap), "jit", &asked(), false).unwrap();
        assert_eq!(v.limits.memory_mib, None);
        assert_eq!(v.time.timeout_ms, None);
        assert_eq!(v.limits.files, Some(64));
        assert!(
            o[2].to_string()
                .ends_with("a raise, capped to 300 (--bot-raises cap)"),
            "{}",
            o[2]
        );
        // Refuse: the first raise is an error naming bot, key and values.
        let err = settle_values(&league(Raises::Refuse), "jit", &asked(), true).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(
                "bot jit: limits.memory_mib = 4096 in its bot.toml is above the league's 1024"
            ),
            "{text}"
        );
        assert!(
            text.contains("the default under --sandbox strict"),
            "{text}"
        );
        // Refuse lets lower values through; unlimited league values are
        // never raised.
        let lower = toml_values("[limits]\nfiles = 64\ncpu_s = 10\n");
        let (v, _) = settle_values(&league(Raises::Refuse), "jit", &lower, true).unwrap();
        assert_eq!((v.limits.files, v.limits.cpu_s), (Some(64), Some(10)));
    }

    #[test]
    fn values_in_force_mark_the_bots_own() {
        let mut s = league(Raises::Allow);
        let (values, _) = settle_values(&s, "jit", &asked(), false).unwrap();
        s.bots.push(Entrant {
            name: "jit".into(),
            command: "jit".into(),
            fixed_team: None,
            values,
        });
        let v = s.values_in_force(&s.bots[0]);
        assert!(v.contains(&("limits.memory_mib", Some(4096), true)));
        assert!(v.contains(&("limits.processes", Some(256), false)));
        assert!(v.contains(&("time.timeout_ms", Some(900), true)));
        assert!(v.contains(&("time.game_ms", None, false)));
        // Stored only when there are some, and read back the same.
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["bots"][0]["values"]["limits"]["memory_mib"], 4096);
        assert_eq!(json["play"]["raises"], serde_json::Value::Null);
        assert_eq!(serde_json::from_value::<Settings>(json).unwrap(), s);
        s.play.raises = Raises::Cap;
        assert_eq!(serde_json::to_value(&s).unwrap()["play"]["raises"], "cap");
    }

    #[test]
    fn game_kind_round_trips() {
        for g in [Game::CARDJITSU, Game::ROYALE] {
            assert_eq!(g.name().parse::<Game>(), Ok(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{g}\""));
        }
        assert!("chess".parse::<Game>().is_err());
    }
}

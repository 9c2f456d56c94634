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

// The game enum lives with the per-game registry; league code keeps calling
// it `GameKind`.
pub use dojo_games::{Game as GameKind, UnknownGame};

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
    pub game: GameKind,
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
}

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
        }
    }
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

    #[test]
    fn game_kind_round_trips() {
        for g in [GameKind::Cardjitsu, GameKind::Royale] {
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{g}\""));
        }
        assert!("chess".parse::<GameKind>().is_err());
    }
}

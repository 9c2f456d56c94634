//! What identifies a league: the game, the bots, the number of games, the
//! seed and everything else stored in `league.json`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use dojo_engine::cardjitsu::Ruleset;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Version of the `league.json` format (see FORMATS.md).
pub const LEAGUE_FORMAT_VERSION: u32 = 1;

// The game enum lives with the per-game registry; league code keeps calling
// it `GameKind`.
pub use dojo_games::{Game as GameKind, UnknownGame};

/// One bot of a league.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSpec {
    /// Unique name; the schedule, seeds and report refer to bots by it.
    pub name: String,
    /// How to start the bot; opaque to the league (the runner reads it).
    pub command: String,
    /// Royale only: the team (`R`, `P` or `S`) the bot's manifest insists
    /// on; the bot is then only scheduled on that team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_team: Option<String>,
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
    pub bots: Vec<BotSpec>,
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
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            rules: Ruleset::Tournament,
            decks: ["standard".into(), "standard".into()],
            max_rounds: None,
            stall_rounds: None,
            startup_ms: 2000,
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
    fn game_kind_round_trips() {
        for g in [GameKind::Cardjitsu, GameKind::Royale] {
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{g}\""));
        }
        assert!("chess".parse::<GameKind>().is_err());
    }
}

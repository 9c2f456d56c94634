//! What identifies a league: the game, the bots, the number of games, the
//! seed and everything else stored in `league.json`.

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
    fn game_kind_round_trips() {
        for g in [GameKind::Cardjitsu, GameKind::Royale] {
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{g}\""));
        }
        assert!("chess".parse::<GameKind>().is_err());
    }
}

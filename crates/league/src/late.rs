//! Late entries: a bot that joins a league after it started (`dojo league
//! --resume DIR --add BOT`) and a bot's new version that replaces the one
//! that played so far (`--replace NAME=BOT`).
//!
//! A game's seed comes from the league seed and its bots' names
//! (`crate::schedule`), so a bot added late plays exactly the games, with
//! the seeds, it would have played from the start, and the games already
//! played are games of the grown league too. Only their ids (and `pair`,
//! the rating fit's bootstrap group) are positions in the list of groups,
//! which the new bot shifts: [`apply`] renumbers the stored games to the
//! grown schedule, so the league's files are those of a league that had
//! the bot from the start, apart from the order of the lines and their
//! timing.
//!
//! A replaced bot keeps its name (so its new version plays the same seeds
//! as the old one did); the old version's games stay in `games.jsonl`,
//! marked [`Retired`] with the fingerprints of the bots that played them,
//! and count nowhere; the league plays them again with the new version.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::schedule::{Schedule, ScheduleError};
use crate::settings::{Entrant, LateEntry, LateKind, Origin, Provenance, ProvenanceDiff, Settings};
use crate::store::{self, GAMES_FILE, LEAGUE_FILE, Retired, StoreError};

/// The late entries given for one resume.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Late {
    /// Bots joining the league (`--add`).
    pub add: Vec<Entrant>,
    /// New versions, each under the name of the bot it replaces
    /// (`--replace`).
    pub replace: Vec<Entrant>,
}

impl Late {
    /// Whether nothing is added or replaced.
    pub fn is_empty(&self) -> bool {
        self.add.is_empty() && self.replace.is_empty()
    }

    /// The names of the added and the replaced bots: those whose values
    /// and fingerprint are new to the league.
    pub fn names(&self) -> BTreeSet<String> {
        self.add
            .iter()
            .chain(&self.replace)
            .map(|b| b.name.clone())
            .collect()
    }
}

/// Why late entries cannot join a league.
#[derive(Debug, Error)]
pub enum LateError {
    #[error(
        "--add {0}: the league already has a bot named {0} (to play a new version of it, use --replace {0}=BOT)"
    )]
    Present(String),
    #[error("--replace {name}: the league has no bot named {name} (its bots: {bots})")]
    Unknown { name: String, bots: String },
    #[error("bot {0} is given twice among --add and --replace")]
    Twice(String),
    #[error("{flag}: {reason}")]
    Refused { flag: &'static str, reason: String },
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(
        "{}: its games were played by a different dojo or bots: {diff}; only the bots given to --add and --replace may be new",
        path.display()
    )]
    OtherProvenance { path: PathBuf, diff: ProvenanceDiff },
    #[error(
        "{}: game {id} is in neither the league's schedule nor the grown one",
        path.display()
    )]
    Foreign { path: PathBuf, id: u64 },
}

/// `settings` with `late`'s bots: the added ones join, each replaced one
/// takes its new spec and team (its own values are settled again by the
/// caller, as a new league's are). The bots are listed sorted by name, so
/// the league does not depend on the order late entries arrived in.
///
/// Refused where a late entry cannot give the league it would have been
/// with the bot from the start: a shard (its games are a slice of ids the
/// new bot renumbers; merge the shards first), a gauntlet with `--sprt`
/// (its tests stop each pairing on the games so far), and for `--add`
/// several royale boards (they rotate by a group's position) or fewer bots
/// than seats (every group would change).
pub fn settings_with(settings: &Settings, late: &Late) -> Result<Settings, LateError> {
    let flag = if late.add.is_empty() {
        "--replace"
    } else {
        "--add"
    };
    if let Some(shard) = settings.shard {
        return Err(LateError::Refused {
            flag,
            reason: format!(
                "this directory is shard {shard} of a league; a late entry changes the whole league's game ids, so merge the shards first (dojo merge) and resume the merged directory"
            ),
        });
    }
    if let Some(sprt) = &settings.sprt {
        return Err(LateError::Refused {
            flag,
            reason: format!(
                "this is a gauntlet with --sprt {sprt}, whose tests stop each pairing on the games played so far; start a new gauntlet for the new bot"
            ),
        });
    }
    let seats = settings.game.shape().seats();
    if !late.add.is_empty() && settings.boards.len() > 1 {
        return Err(LateError::Refused {
            flag,
            reason: format!(
                "the league rotates {} boards by each group's position among its groups, which a new bot shifts, so the games played would not be those of a league that had it from the start",
                settings.boards.len()
            ),
        });
    }
    if !late.add.is_empty() && settings.bots.len() < seats {
        return Err(LateError::Refused {
            flag,
            reason: format!(
                "the league has {} bots for {seats} seats, so its groups seat a bot twice; a new bot changes every group (start a new league with all the bots)",
                settings.bots.len()
            ),
        });
    }
    let mut seen = BTreeSet::new();
    for bot in late.add.iter().chain(&late.replace) {
        if !seen.insert(bot.name.as_str()) {
            return Err(LateError::Twice(bot.name.clone()));
        }
    }
    let mut bots = settings.bots.clone();
    for new in &late.replace {
        let Some(old) = bots.iter_mut().find(|b| b.name == new.name) else {
            let names: Vec<&str> = settings.bots.iter().map(|b| b.name.as_str()).collect();
            return Err(LateError::Unknown {
                name: new.name.clone(),
                bots: names.join(", "),
            });
        };
        *old = new.clone();
    }
    for new in &late.add {
        if settings.bots.iter().any(|b| b.name == new.name) {
            return Err(LateError::Present(new.name.clone()));
        }
        bots.push(new.clone());
    }
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    let grown = Settings {
        bots,
        ..settings.clone()
    };
    // The grown league must be one (names, fixed teams).
    Schedule::build(&grown)?;
    Ok(grown)
}

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The league's origin with the late entries recorded: pass it to the
    /// run, which stores it again.
    pub origin: Origin,
    /// Stored games whose id changed.
    pub renumbered: u64,
    /// Games marked retired now.
    pub retired: u64,
}

/// Turns the league in `dir` (stored with settings `old`) into `new`
/// ([`settings_with`] of `late`, with its values settled), before any game
/// of it is played: every stored game gets its id in the grown schedule,
/// the games of each replaced bot are marked retired (with the
/// fingerprints that played them), `games.jsonl` is replaced atomically
/// and then `league.json` records the new settings, the new bots'
/// `fingerprints` and the late entries.
///
/// The bots not given in `late` must be the ones that played (their
/// fingerprints, and this dojo, as the league records them), or nothing
/// changes. If dojo dies between writing the two files, running the same
/// command again finishes the change: a game already renumbered is
/// recognised in the grown schedule.
pub fn apply(
    dir: &Path,
    old: &Settings,
    new: &Settings,
    late: &Late,
    fingerprints: &BTreeMap<String, String>,
) -> Result<Applied, LateError> {
    // Not while a league runs on the directory.
    let _lock = store::lock_games(dir)?;
    let mut league = store::load_league(dir)?;
    if league.settings != *old {
        return Err(StoreError::OtherLeague {
            path: dir.join(LEAGUE_FILE),
            fields: store::differing_fields(&league.settings, old),
        }
        .into());
    }
    let fresh = late.names();
    let provenance = match &league.provenance {
        Some(stored) if !fingerprints.is_empty() => {
            let mut expected = stored.clone();
            for name in &fresh {
                match fingerprints.get(name) {
                    Some(f) => expected.fingerprints.insert(name.clone(), f.clone()),
                    None => expected.fingerprints.remove(name),
                };
            }
            let given = Provenance::current(fingerprints.clone());
            if let Some(diff) = expected.difference(&given) {
                return Err(LateError::OtherProvenance {
                    path: dir.join(LEAGUE_FILE),
                    diff,
                });
            }
            Some(given)
        }
        Some(stored) => Some(stored.clone()),
        None if fingerprints.is_empty() => None,
        None => Some(Provenance::current(fingerprints.clone())),
    };
    let played_by = league
        .provenance
        .as_ref()
        .map(|p| p.fingerprints.clone())
        .unwrap_or_default();

    let before = Schedule::build(old)?;
    let after = Schedule::build(new)?;
    let renumbering = after.renumbering(&before);
    let replaced: BTreeSet<&str> = late.replace.iter().map(|b| b.name.as_str()).collect();
    let mut lines = store::read_every_line(dir, old.game, true)?;
    let (mut renumbered, mut retired) = (0, 0);
    let mut retired_of: BTreeMap<&str, u64> = BTreeMap::new();
    for line in &mut lines {
        let retire =
            line.retired.is_none() && line.seats.iter().any(|s| replaced.contains(s.as_str()));
        let in_after = after.fixture(line.id).is_some_and(|f| line.matches(&f));
        let moved = before
            .fixture(line.id)
            .filter(|f| line.matches(f))
            .and_then(|_| renumbering.fixture(line.id));
        match moved {
            _ if in_after => {}
            Some(moved) => {
                line.id = moved.id;
                line.pair = moved.pair;
                line.board = moved.board;
                renumbered += 1;
            }
            // A retired game need not be in the grown schedule (a new
            // version with another fixed team sits elsewhere): kept as it
            // was played, for the record.
            None if retire || line.retired.is_some() => {}
            None => {
                return Err(LateError::Foreign {
                    path: dir.join(GAMES_FILE),
                    id: line.id,
                });
            }
        }
        if retire {
            let mut names: Vec<String> = line
                .seats
                .iter()
                .filter(|s| replaced.contains(s.as_str()))
                .cloned()
                .collect();
            names.sort();
            names.dedup();
            if !names.is_empty() {
                for name in &names {
                    if let Some(n) = replaced.get(name.as_str()) {
                        *retired_of.entry(n).or_default() += 1;
                    }
                }
                line.retired = Some(Retired {
                    replaced: names,
                    fingerprints: line
                        .seats
                        .iter()
                        .filter_map(|s| played_by.get(s).map(|f| (s.clone(), f.clone())))
                        .collect(),
                });
                retired += 1;
            }
        }
    }
    // Games in id order, as a merged directory holds them (a retired game
    // before the game that replaces it).
    lines.sort_by_key(|l| (l.id, l.retired.is_none()));
    store::write_games(dir, &lines)?;

    let fingerprint = |name: &str| fingerprints.get(name).cloned();
    for bot in &late.add {
        league.origin.late.push(LateEntry {
            kind: LateKind::Added,
            name: bot.name.clone(),
            command: bot.command.clone(),
            fingerprint: fingerprint(&bot.name),
            old_command: None,
            old_fingerprint: None,
            retired_games: 0,
        });
    }
    for bot in &late.replace {
        league.origin.late.push(LateEntry {
            kind: LateKind::Replaced,
            name: bot.name.clone(),
            command: bot.command.clone(),
            fingerprint: fingerprint(&bot.name),
            old_command: old
                .bots
                .iter()
                .find(|b| b.name == bot.name)
                .map(|b| b.command.clone()),
            old_fingerprint: played_by.get(&bot.name).cloned(),
            retired_games: retired_of.get(bot.name.as_str()).copied().unwrap_or(0),
        });
    }
    league.settings = new.clone();
    league.provenance = provenance;
    store::write_league(dir, &league)?;
    Ok(Applied {
        origin: league.origin,
        renumbered,
        retired,
    })
}

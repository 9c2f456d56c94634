//! The league directory: `league.json`, `games.jsonl` and `report.json`.
//!
//! Durability rules: `league.json` and `report.json` are replaced
//! atomically (temp file, fsync, rename); `games.jsonl` is only appended,
//! one line per finished game written to the file (the kernel) before the
//! game counts as stored, so killing dojo loses only games in flight. The
//! file is fsync'd in groups ([`SYNC_EVERY_GAMES`] games or
//! [`SYNC_INTERVAL`], whichever comes first, and when the store closes), so
//! a machine crash or power cut loses at most the games of the last sync
//! window as well. The only thing ever removed is a torn last line of
//! `games.jsonl` (a game whose line was cut short by a crash), which is not
//! a finished game.

use dojo_runner::FencedFile;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dojo_games::Role;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::executor::{GameResult, SeatFaults};
use crate::schedule::Fixture;
use crate::settings::{
    Game, LEAGUE_FORMAT_VERSION, Origin, Provenance, ProvenanceDiff, Settings, Shard,
};
use dojo_games::record::FirstFault;

/// Version of a `games.jsonl` line (defined with the others in
/// `dojo_games::formats`).
pub use dojo_games::formats::GAMES_FORMAT_VERSION;
/// File names inside a league directory.
pub const LEAGUE_FILE: &str = "league.json";
pub const GAMES_FILE: &str = "games.jsonl";

/// Where a resume keeps the torn last lines it cut off `games.jsonl`,
/// appended as they were (each followed by a newline): the file of
/// results is repaired, and nothing once written is thrown away unseen.
pub const TORN_FILE: &str = "games.jsonl.torn";
pub const REPORT_FILE: &str = "report.json";

/// `games.jsonl` is fsync'd at least once every this many stored games...
pub const SYNC_EVERY_GAMES: u64 = 64;
/// ... and no stored game stays unsynced longer than this (given that the
/// writer calls [`Store::sync_if_due`] while it waits for games).
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// One finished game: a line of `games.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    pub version: u32,
    pub id: u64,
    pub seats: Vec<String>,
    pub teams: Vec<Role>,
    pub board: Option<String>,
    pub pair: u64,
    pub leg: u8,
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    pub scores: Vec<f64>,
    pub faults: Vec<SeatFaults>,
    /// The seats that were faulty under the league's fault policy (under
    /// `forfeit`, their side forfeited: `scores` are after it). Absent
    /// when none was, and in lines from before fault policies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faulty: Vec<usize>,
    /// Per seat: its first fault in the game with the last lines it wrote
    /// to stderr (`null` for a seat without faults): the evidence the
    /// report's `first_fault` shows, kept here because the record's stderr
    /// goes to the bots' logs, which are capped. Absent when no seat
    /// faulted, and in lines from before it. Like `timing`, not part of a
    /// game's identity (a bot's stderr may differ between two plays).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_faults: Vec<Option<FirstFault>>,
    pub record: serde_json::Value,
    /// Optional: the part of a game that is not deterministic.
    #[serde(default)]
    pub timing: serde_json::Value,
    /// Set on a game played by a version of a bot that `--replace` has
    /// since retired: kept in the file for the record, skipped by every
    /// reader of the league's games (standings, ratings, resume, replay,
    /// merge). Absent on the league's current games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired: Option<Retired>,
}

/// Why a stored game no longer counts, and who played it
/// ([`GameLine::retired`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retired {
    /// The bots of the game whose version was replaced.
    pub replaced: Vec<String>,
    /// The fingerprint of each of the game's bots when it was played (from
    /// `league.json`'s provenance; empty if the league recorded none).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub fingerprints: std::collections::BTreeMap<String, String>,
}

impl GameLine {
    /// The stored form of `fixture`'s result.
    pub fn new(fixture: &Fixture, result: GameResult) -> GameLine {
        let faulty = result.faulty_seats();
        GameLine {
            version: GAMES_FORMAT_VERSION,
            id: fixture.id,
            seats: fixture.seats.clone(),
            teams: fixture.teams.clone(),
            board: fixture.board.clone(),
            pair: fixture.pair,
            leg: fixture.leg,
            seed: fixture.seed,
            scores: result.scores,
            faults: result.faults,
            faulty,
            first_faults: result.first_faults,
            record: result.record,
            timing: result.timing,
            retired: None,
        }
    }

    /// Whether this line is a result of `fixture` (same seats, seed, ...).
    pub fn matches(&self, fixture: &Fixture) -> bool {
        self.id == fixture.id
            && self.seats == fixture.seats
            && self.teams == fixture.teams
            && self.board == fixture.board
            && self.pair == fixture.pair
            && self.leg == fixture.leg
            && self.seed == fixture.seed
    }

    /// Whether this line is a game of the directory's fixtures (those of
    /// `shard` in `schedule`): `Err` says why not, after "game ID".
    pub fn fits(
        &self,
        schedule: &crate::schedule::Schedule,
        shard: Option<Shard>,
    ) -> Result<(), &'static str> {
        let fixture = schedule
            .selects(shard, self.id)
            .then(|| schedule.fixture(self.id))
            .flatten();
        match fixture {
            None => Err("is not in this league's schedule"),
            // The one way dojo itself leaves such a line: an `--add` killed
            // between rewriting games.jsonl and league.json (`crate::late`).
            Some(f) if !self.matches(&f) => Err(
                "does not match its scheduled seats or seed (if an --add or --replace was interrupted, run it again)",
            ),
            Some(_) => Ok(()),
        }
    }

    /// Checks the line is a result a game of `game` can have: its number
    /// of seats, a team per seat or none, one score and one fault record
    /// per seat, scores that are one side winning or a draw (the game's
    /// `Shape::check_scores`), and fault counts no game can exceed (the
    /// runner counts in 32 bits), so sums over a league cannot overflow.
    pub fn check(&self, game: Game) -> Result<(), String> {
        let n = self.seats.len();
        let seats = game.shape().seats();
        if n != seats {
            return Err(format!("expected {seats} seats for {game}, found {n}"));
        }
        if !self.teams.is_empty() && self.teams.len() != n {
            return Err(format!("{} teams for {n} seats", self.teams.len()));
        }
        // Roles are plain labels in the file: the game says which exist.
        let roles = game.shape().roles;
        if let Some(t) = self.teams.iter().find(|t| !roles.contains(&t.as_str())) {
            return Err(format!(
                "team {:?} is not one of {game}'s ({roles:?})",
                t.as_str()
            ));
        }
        if self.scores.len() != n || self.faults.len() != n {
            return Err(format!(
                "{} scores and {} fault records for {n} seats",
                self.scores.len(),
                self.faults.len()
            ));
        }
        game.shape().check_scores(&self.scores)?;
        if let Some(seat) = self.faulty.iter().find(|&&s| s >= n) {
            return Err(format!("faulty seat {seat} of {n} seats"));
        }
        if !self.first_faults.is_empty() && self.first_faults.len() != n {
            return Err(format!(
                "{} first faults for {n} seats",
                self.first_faults.len()
            ));
        }
        let limit = u64::from(u32::MAX);
        for (seat, f) in self.faults.iter().enumerate() {
            if [f.timeout, f.crash, f.invalid, f.restart]
                .iter()
                .any(|&c| c > limit)
            {
                return Err(format!(
                    "seat {seat}: a fault count above {limit}, more than one game can have"
                ));
            }
        }
        Ok(())
    }

    /// Equal apart from `timing` and `first_faults` (whose stderr may
    /// differ between two plays): the same game result.
    pub fn same_game(&self, other: &GameLine) -> bool {
        GameLine {
            timing: serde_json::Value::Null,
            first_faults: Vec::new(),
            ..self.clone()
        } == GameLine {
            timing: serde_json::Value::Null,
            first_faults: Vec::new(),
            ..other.clone()
        }
    }
}

/// A problem with a league directory.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(
        "{}: holds a different league (differs in: {}); use another --out directory or --resume it with its own settings",
        path.display(), fields.join(", ")
    )]
    OtherLeague { path: PathBuf, fields: Vec<String> },
    /// A second line of a league game already stored (a retired game's
    /// line aside): each game is stored once, so a copy would count twice.
    #[error(
        "{}:{line}: game {id} is stored a second time (first on line {first}, {}); a league stores each game once: remove one of the two lines (copies of one league's games are joined with `dojo merge`)",
        path.display(),
        if *same { "the same game" } else { "with another result" }
    )]
    StoredTwice {
        path: PathBuf,
        id: u64,
        /// The line of its first copy.
        first: usize,
        /// The line of the second.
        line: usize,
        /// Whether both copies hold the same game ([`GameLine::same_game`]).
        same: bool,
    },
    #[error("{}: has games but no league.json; refusing to reuse it", path.display())]
    NoLeague { path: PathBuf },
    #[error(
        "{}:{line}: the last line is torn (an interrupted write); resume this directory first to repair it",
        path.display()
    )]
    Torn { path: PathBuf, line: usize },
    /// The directory's games were played by another dojo or other bots.
    #[error(
        "{}: its games were played by a different dojo or bots: {diff}; a league's bots are fixed when it starts (start a new league with --out)",
        path.display()
    )]
    OtherProvenance { path: PathBuf, diff: ProvenanceDiff },
    /// Another process has the directory open for a run.
    #[error(
        "{}: another `dojo league` is running on this directory; wait for it or use another --out",
        path.display()
    )]
    InUse { path: PathBuf },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

#[derive(Serialize)]
struct LeagueFile {
    version: u32,
    #[serde(flatten)]
    settings: Settings,
    /// The bot containment of the latest run (not part of the league's
    /// identity: a league may be resumed on another machine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    containment: Option<dojo_runner::InForce>,
    /// Which dojo and bots played the games (absent in directories from
    /// before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provenance: Option<Provenance>,
    /// Where the bots were found and how the league was started.
    #[serde(default, skip_serializing_if = "is_default_origin")]
    origin: Origin,
}

fn is_default_origin(origin: &Origin) -> bool {
    *origin == Origin::default()
}

/// Everything `league.json` holds.
#[derive(Debug, Clone, PartialEq)]
pub struct LeagueJson {
    /// What identifies the league.
    pub settings: Settings,
    /// The containment of the latest run.
    pub containment: Option<dojo_runner::InForce>,
    /// Which dojo and bots played its games.
    pub provenance: Option<Provenance>,
    /// Where its bots were found and how it was started.
    pub origin: Origin,
}

/// An open league directory that finished games are appended to.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    games_path: PathBuf,
    games: FencedFile,
    /// Games written since the last fsync.
    unsynced: u64,
    /// When the oldest of them was written.
    unsynced_since: Option<Instant>,
    /// fsyncs of `games.jsonl` so far (for tests of the policy).
    syncs: u64,
    /// The number of the torn last line opening the store cut off (kept
    /// in [`TORN_FILE`]).
    torn: Option<usize>,
}

impl Store {
    /// Opens `dir` for `settings`: creates it and writes `league.json` if
    /// new; otherwise checks it holds the same league and repairs a torn
    /// last line. Returns the games already played, in file order (a
    /// league resumes with [`Store::open_each`], which does not hold them
    /// all at once).
    pub fn open(dir: &Path, settings: &Settings) -> Result<(Store, Vec<GameLine>), StoreError> {
        let mut lines = Vec::new();
        let store = Store::open_each(dir, settings, |line| {
            lines.push(line);
            Ok::<(), StoreError>(())
        })?;
        Ok((store, lines))
    }

    /// [`Store::open`] that hands the games already played to `visit` one
    /// at a time, in file order, reading `games.jsonl` line by line.
    pub fn open_each<E: From<StoreError>>(
        dir: &Path,
        settings: &Settings,
        visit: impl FnMut(GameLine) -> Result<(), E>,
    ) -> Result<Store, E> {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        let league_path = dir.join(LEAGUE_FILE);
        let games_path = dir.join(GAMES_FILE);
        if league_path.exists() {
            let stored = load_settings(dir)?;
            if &stored != settings {
                return Err(StoreError::OtherLeague {
                    path: league_path,
                    fields: differing_fields(&stored, settings),
                }
                .into());
            }
        } else if games_path.exists() {
            return Err(StoreError::NoLeague {
                path: dir.to_owned(),
            }
            .into());
        } else {
            write_settings(dir, settings)?;
        }
        // Fenced: no box a worker is making at the moment the store is
        // dropped keeps a copy of the locked descriptor (and the lock).
        let games = FencedFile::new(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&games_path)
                .map_err(io_err(&games_path))?,
        );
        // Held until the store is dropped (the kernel releases it if the
        // process dies): a second run would append the same games again
        // and its torn-tail repair could cut a line this one is writing.
        if !lock::try_exclusive(&games).map_err(io_err(&games_path))? {
            return Err(StoreError::InUse { path: games_path }.into());
        }
        let torn = for_each_game(dir, settings.game, true, visit)?;
        Ok(Store {
            dir: dir.to_owned(),
            games_path,
            games,
            unsynced: 0,
            unsynced_since: None,
            syncs: 0,
            torn,
        })
    }

    /// The number of the torn last line of `games.jsonl` (an interrupted
    /// write) that opening the store cut off and kept in [`TORN_FILE`].
    pub fn torn_line(&self) -> Option<usize> {
        self.torn
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends one finished game. When this returns the line is in the
    /// file (it survives dojo being killed); it is fsync'd with its group
    /// (see the module docs), at the latest when the store is closed.
    pub fn append(&mut self, line: &GameLine) -> Result<(), StoreError> {
        let mut bytes = serde_json::to_vec(line).map_err(|e| StoreError::Io {
            path: self.games_path.clone(),
            source: e.into(),
        })?;
        bytes.push(b'\n');
        // One write call per line keeps lines whole unless the process dies
        // mid-write, which the torn-tail repair handles.
        self.games
            .write_all(&bytes)
            .and_then(|()| self.games.flush())
            .map_err(io_err(&self.games_path))?;
        self.unsynced += 1;
        self.unsynced_since.get_or_insert_with(Instant::now);
        self.sync_if_due()
    }

    /// Fsyncs if [`SYNC_EVERY_GAMES`] games are unsynced or the oldest
    /// has waited [`SYNC_INTERVAL`].
    pub fn sync_if_due(&mut self) -> Result<(), StoreError> {
        let due = self.unsynced >= SYNC_EVERY_GAMES
            || self
                .unsynced_since
                .is_some_and(|t| t.elapsed() >= SYNC_INTERVAL);
        if due { self.sync() } else { Ok(()) }
    }

    /// Makes every appended game durable now.
    pub fn sync(&mut self) -> Result<(), StoreError> {
        if self.unsynced == 0 {
            return Ok(());
        }
        self.games.sync_data().map_err(io_err(&self.games_path))?;
        self.unsynced = 0;
        self.unsynced_since = None;
        self.syncs += 1;
        Ok(())
    }

    /// Games appended but not yet fsync'd.
    pub fn unsynced_games(&self) -> u64 {
        self.unsynced
    }

    /// How many times `games.jsonl` has been fsync'd by this store.
    pub fn sync_count(&self) -> u64 {
        self.syncs
    }
}

impl Drop for Store {
    /// The last group: a store closed on any path leaves nothing unsynced
    /// (an error here has nowhere to go; the lines are written already).
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

/// Locks `dir`'s games file, if there is one, the way a running league
/// holds it, for as long as the returned file is kept: a directory that a
/// league is running on fails with [`StoreError::InUse`].
pub fn lock_games(dir: &Path) -> Result<Option<FencedFile>, StoreError> {
    let path = dir.join(GAMES_FILE);
    let file = match OpenOptions::new().append(true).open(&path) {
        Ok(f) => FencedFile::new(f),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&path)(e)),
    };
    if !lock::try_exclusive(&file).map_err(io_err(&path))? {
        return Err(StoreError::InUse { path });
    }
    Ok(Some(file))
}

/// Whether a league is running on `dir` now: another open file holds
/// its games file's lock ([`lock_games`], taken and let go at once).
pub fn is_running(dir: &Path) -> Result<bool, StoreError> {
    match lock_games(dir) {
        Ok(_) => Ok(false),
        Err(StoreError::InUse { .. }) => Ok(true),
        Err(e) => Err(e),
    }
}

mod lock {
    use std::fs::{File, TryLockError};
    use std::io;

    /// Takes an exclusive advisory lock (`flock` on Unix) on `file`
    /// without waiting: `Ok(false)` if another open file description holds
    /// it. The kernel drops it when the process dies, so no lock is stale.
    pub(super) fn try_exclusive(file: &File) -> io::Result<bool> {
        match file.try_lock() {
            Ok(()) => Ok(true),
            Err(TryLockError::WouldBlock) => Ok(false),
            Err(TryLockError::Error(err)) => Err(err),
        }
    }
}

/// Top-level `league.json` keys whose values differ.
pub fn differing_fields(a: &Settings, b: &Settings) -> Vec<String> {
    let (serde_json::Value::Object(a), serde_json::Value::Object(b)) = (
        serde_json::to_value(a).unwrap_or_default(),
        serde_json::to_value(b).unwrap_or_default(),
    ) else {
        return Vec::new();
    };
    let mut keys: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    keys.retain(|k| a.get(k) != b.get(k));
    // Within `controls`, name the control (`controls.timeout_ms`).
    keys.into_iter()
        .flat_map(|k| match (a.get(&k), b.get(&k)) {
            (Some(serde_json::Value::Object(x)), Some(serde_json::Value::Object(y)))
                if k == "controls" =>
            {
                let mut inner: Vec<String> = x
                    .iter()
                    .filter(|(name, v)| y.get(*name) != Some(*v))
                    .map(|(name, _)| format!("{k}.{name}"))
                    .collect();
                inner.sort();
                inner
            }
            _ => vec![k],
        })
        .collect()
}

/// Reads `dir/league.json`'s settings (see [`load_league`]).
pub fn load_settings(dir: &Path) -> Result<Settings, StoreError> {
    Ok(load_league(dir)?.settings)
}

/// Reads `dir/league.json`. Unknown keys are refused (as in `bot.toml`):
/// a misspelt setting must not silently fall back to its default.
pub fn load_league(dir: &Path) -> Result<LeagueJson, StoreError> {
    let path = dir.join(LEAGUE_FILE);
    let text = dojo_runner::input::read_text_capped(
        &path,
        dojo_runner::input::LEAGUE_FILE_CAP,
        "a league.json",
    )
    .map_err(io_err(&path))?;
    let malformed = |line: usize, message: String| StoreError::Malformed {
        path: path.clone(),
        line,
        message,
    };
    let mut value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| malformed(e.line(), format!("expected a league.json object: {e}")))?;
    let version = value
        .as_object_mut()
        .and_then(|o| o.remove("version"))
        .ok_or_else(|| malformed(1, "expected a league.json object with a \"version\"".into()))?;
    let version = version.as_u64();
    if !(Some(1)..=Some(u64::from(LEAGUE_FORMAT_VERSION))).contains(&version) {
        return Err(malformed(
            1,
            format!(
                "league.json version {} is not supported (expected 1 to {LEAGUE_FORMAT_VERSION})",
                version.map_or_else(|| "(not a number)".to_owned(), |v| v.to_string())
            ),
        ));
    }
    // The containment of the latest run, the provenance and the origin sit
    // beside the settings and are not part of them (a league resumes on
    // another machine; shards of one league share their settings).
    let mut containment = None;
    let mut provenance = None;
    let mut origin = Origin::default();
    if version == Some(1) {
        let mode = value
            .pointer("/containment/mode")
            .and_then(|m| m.as_str())
            .map(str::to_owned);
        crate::settings::upgrade_v1(&mut value, mode.as_deref());
    }
    if version < Some(3) {
        crate::settings::upgrade_v2_play(&mut value);
    }
    if version < Some(4) {
        crate::settings::upgrade_v3_decks(&mut value);
    }
    if let Some(o) = value.as_object_mut() {
        if let Some(c) = o.remove("origin") {
            origin = serde_json::from_value::<Origin>(c)
                .map_err(|e| malformed(1, format!("league.json \"origin\": {e}")))?;
        }
        if let Some(c) = o.remove("containment") {
            containment = Some(
                serde_json::from_value::<dojo_runner::InForce>(c)
                    .map_err(|e| malformed(1, format!("league.json \"containment\": {e}")))?,
            );
        }
        if let Some(p) = o.remove("provenance") {
            provenance = Some(
                serde_json::from_value::<Provenance>(p)
                    .map_err(|e| malformed(1, format!("league.json \"provenance\": {e}")))?,
            );
        }
    }
    let settings: Settings = serde_json::from_value(value)
        .map_err(|e| malformed(1, format!("expected a league.json object: {e}")))?;
    if let Some(shard) = settings.shard {
        Shard::new(shard.index, shard.count).map_err(|e| malformed(1, e.to_string()))?;
    }
    Ok(LeagueJson {
        settings,
        containment,
        provenance,
        origin,
    })
}

/// Replaces `dir/league.json`'s settings atomically, keeping the
/// containment and provenance it holds.
pub fn write_settings(dir: &Path, settings: &Settings) -> Result<(), StoreError> {
    let (containment, provenance, origin) = if dir.join(LEAGUE_FILE).exists() {
        let old = load_league(dir)?;
        (old.containment, old.provenance, old.origin)
    } else {
        (None, None, Origin::default())
    };
    write_league(
        dir,
        &LeagueJson {
            settings: settings.clone(),
            containment,
            provenance,
            origin,
        },
    )
}

/// Writes `dir/league.json` atomically.
pub fn write_league(dir: &Path, league: &LeagueJson) -> Result<(), StoreError> {
    let file = LeagueFile {
        version: LEAGUE_FORMAT_VERSION,
        settings: league.settings.clone(),
        containment: league.containment.clone(),
        provenance: league.provenance.clone(),
        origin: league.origin.clone(),
    };
    write_json_atomic(&dir.join(LEAGUE_FILE), &file)
}

/// Records how the league in `dir` was started (its bots directory,
/// `--allow-broken`), keeping everything else `league.json` holds.
pub fn record_origin(dir: &Path, origin: &Origin) -> Result<(), StoreError> {
    let mut league = load_league(dir)?;
    if league.origin == *origin {
        return Ok(());
    }
    league.origin = origin.clone();
    write_league(dir, &league)
}

/// Records `given` as `dir`'s provenance, unless it holds a different one
/// (then [`StoreError::OtherProvenance`], naming the first differing key).
/// A directory from before provenance was recorded takes `given`.
pub fn record_provenance(
    dir: &Path,
    given: &Provenance,
    containment: Option<dojo_runner::InForce>,
) -> Result<(), StoreError> {
    let mut league = load_league(dir)?;
    if let Some(stored) = &league.provenance
        && let Some(diff) = stored.difference(given)
    {
        return Err(StoreError::OtherProvenance {
            path: dir.join(LEAGUE_FILE),
            diff,
        });
    }
    if league.provenance.as_ref() == Some(given)
        && (containment.is_none() || league.containment == containment)
    {
        return Ok(());
    }
    league.provenance = Some(given.clone());
    if containment.is_some() {
        league.containment = containment;
    }
    write_league(dir, &league)
}

/// Reads `dir/games.jsonl` (missing means empty), each line checked as a
/// game of `game` ([`GameLine::check`]). A torn last line (no
/// trailing newline, or not a valid game line) is cut off the file when
/// `repair` is set, and is an error otherwise. Any other bad line is an
/// error: it is never silently dropped. So is a second line of a league
/// game ([`StoredIds`]: a retired game's line aside), which would count
/// the game twice.
pub fn read_games(dir: &Path, game: Game, repair: bool) -> Result<Vec<GameLine>, StoreError> {
    read_games_with(dir, game, Tail::repairing(repair))
}

/// The games of a league that may be running (see [`lock_games`]): a
/// last line without its newline yet is the game being written (the
/// writer appends each line whole, but a reader can see it half there),
/// so it is left out, not an error, and the file is not touched.
pub fn read_games_so_far(dir: &Path, game: Game) -> Result<Vec<GameLine>, StoreError> {
    read_games_with(dir, game, Tail::Skip)
}

/// The league games (retired ones left out) of `dir/games.jsonl`.
fn read_games_with(dir: &Path, game: Game, tail: Tail) -> Result<Vec<GameLine>, StoreError> {
    let mut lines = Vec::new();
    scan_games(dir, Some(game), tail, |_, line| {
        if line.retired.is_none() {
            lines.push(line);
        }
        Ok::<_, StoreError>(ControlFlow::Continue(()))
    })?;
    Ok(lines)
}

/// What a read does with a torn last line of `games.jsonl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// An error ([`StoreError::Torn`]): resume the league to repair it.
    Refuse,
    /// Cut off the file (a resume, which holds the lock).
    Cut,
    /// Left out, the file untouched: a running league is writing it.
    Skip,
    /// Left for the store to cut when a resume opens it ([`Tail::Cut`]):
    /// neither an error nor touched now.
    Leave,
}

impl Tail {
    /// A reader's `repair` flag: cut a torn line (the lock held), or refuse it.
    fn repairing(repair: bool) -> Tail {
        if repair { Tail::Cut } else { Tail::Refuse }
    }
}

/// [`for_each_game`] as a resume will read the file once it holds the
/// lock, without changing it now: a torn last line, which the resume cuts
/// off then, is left out and left alone; every other line is checked as
/// [`read_games`] checks it. What `dojo league --resume` reads before any
/// bot is built or started ([`crate::run::check_stored_games`]).
pub fn for_each_game_untouched<E: From<StoreError>>(
    dir: &Path,
    game: Game,
    mut visit: impl FnMut(GameLine) -> Result<(), E>,
) -> Result<(), E> {
    scan_games(dir, Some(game), Tail::Leave, |_, line| {
        if line.retired.is_none() {
            visit(line)?;
        }
        Ok(ControlFlow::Continue(()))
    })
    .map(drop)
}

/// Every league game of `dir/games.jsonl` (retired ones left out) with
/// its line number, read as [`read_games_so_far`] reads it (a last line
/// without its newline is left out, the file untouched), each line
/// checked as the result of a game of `game`, or, with `None`, not: what
/// `dojo replay --game` reads, in a directory it only reads, checking
/// the record it picks itself.
pub fn for_each_game_so_far<E: From<StoreError>>(
    dir: &Path,
    game: Option<Game>,
    mut visit: impl FnMut(usize, GameLine) -> Result<(), E>,
) -> Result<(), E> {
    scan_games(dir, game, Tail::Skip, |number, line| {
        if line.retired.is_none() {
            visit(number, line)?;
        }
        Ok(ControlFlow::Continue(()))
    })
    .map(drop)
}

/// [`read_games`] one game at a time: `visit` gets each line as it is
/// read, so the file is never held whole. Lines before a bad one have
/// been visited when the error is returned. Returns the number of the
/// torn last line `repair` cut off (and kept in [`TORN_FILE`]).
pub fn for_each_game<E: From<StoreError>>(
    dir: &Path,
    game: Game,
    repair: bool,
    mut visit: impl FnMut(GameLine) -> Result<(), E>,
) -> Result<Option<usize>, E> {
    scan_games(dir, Some(game), Tail::repairing(repair), |_, line| {
        if line.retired.is_none() {
            visit(line)?;
        }
        Ok(ControlFlow::Continue(()))
    })
}

/// Every line of `dir/games.jsonl`, retired games too ([`GameLine::retired`]):
/// what `--add` and `--replace` rewrite, and the record of a replaced
/// bot's games. Otherwise as [`read_games`].
pub fn read_every_line(dir: &Path, game: Game, repair: bool) -> Result<Vec<GameLine>, StoreError> {
    let mut lines = Vec::new();
    scan_games(dir, Some(game), Tail::repairing(repair), |_, line| {
        lines.push(line);
        Ok::<_, StoreError>(ControlFlow::Continue(()))
    })?;
    Ok(lines)
}

/// The ids of the league games met so far in one reading of a
/// `games.jsonl`, a bit each (in blocks of 64 ids, so a stray huge id
/// costs a block, not a bitmap up to it). A league stores each game once:
/// a second line of an id is an error ([`stored_twice`]). Retired lines
/// ([`GameLine::retired`]) are no league game and are not noted: a
/// replaced bot's old game and the game that replaced it share an id.
#[derive(Debug, Default)]
pub struct StoredIds {
    blocks: std::collections::BTreeMap<u64, u64>,
}

impl StoredIds {
    /// Notes `id`; false if it was noted before.
    pub fn insert(&mut self, id: u64) -> bool {
        let block = self.blocks.entry(id / 64).or_default();
        let bit = 1 << (id % 64);
        let new = *block & bit == 0;
        *block |= bit;
        new
    }
}

/// The error for line `line` of the games file `path`, `text`, a league
/// game whose id `id` an earlier line already holds: it names both lines
/// (the file is read again up to the first copy) and says whether the
/// two are the same game.
pub fn stored_twice(path: &Path, line: usize, id: u64, text: &[u8]) -> StoreError {
    match first_copy(path, id) {
        Ok(Some((first, copy))) if first < line => StoreError::StoredTwice {
            path: path.to_owned(),
            id,
            first,
            line,
            same: serde_json::from_slice::<GameLine>(text).is_ok_and(|l| l.same_game(&copy)),
        },
        Ok(_) => StoreError::Malformed {
            path: path.to_owned(),
            line,
            message: format!("game {id} is stored a second time (the file changed while read)"),
        },
        Err(e) => e,
    }
}

/// The first league line (retired ones left out) of game `id` in the
/// games file `path`: its number and the line.
fn first_copy(path: &Path, id: u64) -> Result<Option<(usize, GameLine)>, StoreError> {
    /// What a line is looked at for, without reading its record.
    #[derive(Deserialize)]
    struct Head {
        id: u64,
        #[serde(default)]
        retired: Option<serde::de::IgnoredAny>,
    }
    let mut reader = BufReader::new(File::open(path).map_err(io_err(path))?);
    let mut text = Vec::new();
    for number in 1.. {
        text.clear();
        let read = dojo_runner::input::read_line_capped(
            &mut reader,
            &mut text,
            dojo_runner::input::RECORD_CAP,
            "a game line",
        )
        .map_err(io_err(path))?;
        if read == 0 {
            break;
        }
        let Ok(head) = serde_json::from_slice::<Head>(&text) else {
            continue;
        };
        if head.id == id && head.retired.is_none() {
            let line =
                serde_json::from_slice::<GameLine>(&text).map_err(|e| StoreError::Malformed {
                    path: path.to_owned(),
                    line: number,
                    message: format!("expected a game line (JSON object): {e}"),
                })?;
            return Ok(Some((number, line)));
        }
    }
    Ok(None)
}

/// The one reader of `dir/games.jsonl`: each line read capped, parsed as
/// a [`GameLine`] of the supported version, checked as a result of `game`
/// (unless `None`), no league game twice ([`StoredIds`]), a torn last
/// line handled as `tail` says; `visit` gets each line with its number.
/// Returns the number of the torn line [`Tail::Cut`] cut off.
fn scan_games<E: From<StoreError>>(
    dir: &Path,
    game: Option<Game>,
    tail: Tail,
    mut visit: impl FnMut(usize, GameLine) -> Result<ControlFlow<()>, E>,
) -> Result<Option<usize>, E> {
    let path = dir.join(GAMES_FILE);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&path)(e).into()),
    };
    let mut reader = BufReader::new(file);
    let mut text = Vec::new();
    // Byte offset of the line being read, where a torn tail is cut.
    let mut start = 0u64;
    let mut number = 0;
    let mut ids = StoredIds::default();
    loop {
        text.clear();
        let read = dojo_runner::input::read_line_capped(
            &mut reader,
            &mut text,
            dojo_runner::input::RECORD_CAP,
            "a game line",
        )
        .map_err(io_err(&path))?;
        if read == 0 {
            return Ok(None);
        }
        number += 1;
        let newline = text.last() == Some(&b'\n');
        if newline {
            text.pop();
        }
        let is_last = !newline || reader.fill_buf().map_err(io_err(&path))?.is_empty();
        let parsed = serde_json::from_slice::<GameLine>(&text);
        match (newline, parsed) {
            (true, Ok(line)) => {
                if line.version != GAMES_FORMAT_VERSION {
                    return Err(StoreError::Malformed {
                        path,
                        line: number,
                        message: format!(
                            "game line version {} is not supported (expected {GAMES_FORMAT_VERSION})",
                            line.version
                        ),
                    }
                    .into());
                }
                if let Some(Err(problem)) = game.map(|game| line.check(game)) {
                    return Err(StoreError::Malformed {
                        path,
                        line: number,
                        message: format!("not a possible game result: {problem}"),
                    }
                    .into());
                }
                if line.retired.is_none() && !ids.insert(line.id) {
                    return Err(stored_twice(&path, number, line.id, &text).into());
                }
                if visit(number, line)?.is_break() {
                    return Ok(None);
                }
                start += read as u64;
            }
            // No newline (always the last line), or not a game line.
            (_, parsed) if is_last => {
                match tail {
                    Tail::Refuse => return Err(StoreError::Torn { path, line: number }.into()),
                    Tail::Cut => {
                        keep_torn(dir, &text)?;
                        truncate(&path, start)?;
                        return Ok(Some(number));
                    }
                    // A line the writer has finished ends with its
                    // newline: only the unfinished one is left out.
                    Tail::Skip if newline => {
                        return Err(not_a_game_line(path, number, &text, parsed.err()).into());
                    }
                    Tail::Skip | Tail::Leave => {}
                }
                return Ok(None);
            }
            (_, parsed) => return Err(not_a_game_line(path, number, &text, parsed.err()).into()),
        }
    }
}

/// The error for line `line` of the games file `path`, `text`, which
/// did not parse as a game line (`error`): text that is not UTF-8 is
/// named so (the parser's "invalid unicode code point" does not say it).
fn not_a_game_line(
    path: PathBuf,
    line: usize,
    text: &[u8],
    error: Option<serde_json::Error>,
) -> StoreError {
    let message = match (std::str::from_utf8(text), error) {
        (Err(e), _) => format!("not UTF-8 text: {e}"),
        (Ok(_), Some(e)) => format!("expected a game line (JSON object): {e}"),
        (Ok(_), None) => "expected a game line (JSON object)".to_owned(),
    };
    StoreError::Malformed {
        path,
        line,
        message,
    }
}

/// Appends a torn line (`text`, a newline added) to [`TORN_FILE`],
/// synced before the line is cut from `games.jsonl`.
fn keep_torn(dir: &Path, text: &[u8]) -> Result<(), StoreError> {
    let path = dir.join(TORN_FILE);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io_err(&path))?;
    let mut bytes = text.to_vec();
    if bytes.last() != Some(&b'\n') {
        bytes.push(b'\n');
    }
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_err(&path))
}

fn truncate(path: &Path, len: u64) -> Result<(), StoreError> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_err(path))?;
    file.set_len(len)
        .and_then(|()| file.sync_all())
        .map_err(io_err(path))
}

/// Replaces `dir/games.jsonl` atomically with `lines` (for merging).
pub fn write_games(dir: &Path, lines: &[GameLine]) -> Result<(), StoreError> {
    let path = dir.join(GAMES_FILE);
    let mut bytes = Vec::new();
    for line in lines {
        serde_json::to_writer(&mut bytes, line).map_err(|e| StoreError::Io {
            path: path.clone(),
            source: e.into(),
        })?;
        bytes.push(b'\n');
    }
    write_atomic(&path, &bytes)
}

/// Writes `value` as pretty JSON plus a newline, atomically.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Io {
        path: path.to_owned(),
        source: e.into(),
    })?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Temp file in the same directory, fsync, rename over `path`, then fsync
/// the directory so the rename itself survives a crash.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    let mut file = File::create(&tmp).map_err(io_err(&tmp))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_err(&tmp))?;
    drop(file);
    fs::rename(&tmp, path).map_err(io_err(path))?;
    // Directories cannot be opened for syncing everywhere; the rename is
    // already done, so a failure here only weakens crash durability.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Entrant, Game, Raises};

    fn settings() -> Settings {
        Settings {
            game: Game::CARDJITSU,
            bots: vec![
                Entrant {
                    name: "a".into(),
                    command: "./a".into(),
                    dir: None,
                    fixed_team: None,
                    values: Default::default(),
                },
                Entrant {
                    name: "b".into(),
                    command: "./b".into(),
                    dir: None,
                    fixed_team: None,
                    values: Default::default(),
                },
            ],
            games: 2,
            seed: 7,
            boards: vec![],
            controls: dojo_runner::Controls {
                timeout: std::time::Duration::from_millis(100),
                ..dojo_runner::Controls::default()
            },
            raises: Raises::Allow,
            faults: Default::default(),
            anchor: None,
            anchor_elo: None,
            gauntlet: None,
            sprt: None,
            shard: None,
            play: Default::default(),
        }
    }

    #[test]
    fn a_version_1_league_loads_with_its_last_containment_and_is_rewritten_as_the_current_version()
    {
        let dir = tempfile::tempdir().unwrap();
        let v1 = r#"{"version":1,"game":"cardjitsu","bots":[],"games":2,"seed":"7",
            "timeout_ms":100,"play":{"startup_ms":900,"raises":"cap","rules":"classic",
            "decks":["standard","standard"],"max_rounds":null,"stall_rounds":null},
            "limits":{"memory_mib":64,"processes":256,"files":1024,"file_size_mib":64},
            "containment":{"mode":"off","layers":[]}}"#;
        fs::write(dir.path().join(LEAGUE_FILE), v1).unwrap();
        let league = load_league(dir.path()).unwrap();
        let c = &league.settings.controls;
        assert_eq!(c.sandbox, dojo_runner::SandboxMode::Off);
        assert_eq!(c.startup, std::time::Duration::from_millis(900));
        assert_eq!(c.memory_mib, Some(64));
        assert_eq!(league.settings.raises, Raises::Cap);
        // The game options as the flag values they stand for.
        assert_eq!(
            league.settings.play.iter().collect::<Vec<_>>(),
            [("rules", "classic")]
        );
        // Played before fault policies: under the random fallback.
        assert_eq!(league.settings.faults, crate::FaultPolicy::Fallback);
        record_origin(
            dir.path(),
            &Origin {
                bots_dir: Some("/b".into()),
                allow_broken: false,
                pages: Vec::new(),
                ..Default::default()
            },
        )
        .unwrap();
        let text = fs::read_to_string(dir.path().join(LEAGUE_FILE)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["version"], LEAGUE_FORMAT_VERSION);
        assert_eq!(v["origin"]["bots_dir"], "/b");
        assert_eq!(load_league(dir.path()).unwrap().settings, league.settings);
        // A version from the future is refused, naming what is read.
        let future = LEAGUE_FORMAT_VERSION + 1;
        fs::write(
            dir.path().join(LEAGUE_FILE),
            format!(r#"{{"version":{future}}}"#),
        )
        .unwrap();
        let err = load_league(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "version {future} is not supported (expected 1 to {LEAGUE_FORMAT_VERSION})"
            )),
            "{err}"
        );
    }

    #[test]
    fn a_league_stored_before_fault_policies_reads_as_fallback_and_a_new_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let league = LeagueJson {
            settings: settings(),
            containment: None,
            provenance: None,
            origin: Origin::default(),
        };
        write_league(dir.path(), &league).unwrap();
        let path = dir.path().join(LEAGUE_FILE);
        let mut json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(json["faults"]["rule"], "forfeit");
        json.as_object_mut().unwrap().remove("faults");
        fs::write(&path, json.to_string()).unwrap();
        let old = load_league(dir.path()).unwrap();
        assert_eq!(old.settings.faults, crate::FaultPolicy::Fallback);
        write_league(dir.path(), &old).unwrap();
        let back = load_league(dir.path()).unwrap();
        assert_eq!(back.settings.faults, crate::FaultPolicy::Fallback);
    }

    fn line(id: u64) -> GameLine {
        GameLine {
            version: 1,
            id,
            seats: vec!["a".into(), "b".into()],
            teams: vec![],
            board: None,
            pair: id / 2,
            leg: (id % 2) as u8,
            seed: 3,
            scores: vec![1.0, 0.0],
            faults: vec![SeatFaults::default(); 2],
            faulty: Vec::new(),
            first_faults: Vec::new(),
            record: serde_json::json!({"moves": [1, 2]}),
            timing: serde_json::json!({"ms": id}),
            retired: None,
        }
    }

    #[test]
    fn settings_round_trip_and_other_league_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let s = settings();
        let (mut store, lines) = Store::open(dir.path(), &s).unwrap();
        assert!(lines.is_empty());
        store.append(&line(0)).unwrap();
        drop(store);
        assert_eq!(load_settings(dir.path()).unwrap(), s);
        let (_, lines) = Store::open(dir.path(), &s).unwrap();
        assert_eq!(lines, vec![line(0)]);
        let other = Settings { seed: 8, ..s };
        let err = Store::open(dir.path(), &other).unwrap_err();
        assert!(matches!(&err, StoreError::OtherLeague { fields, .. } if fields == &["seed"]));
        // The refused open touched nothing.
        assert_eq!(
            read_games(dir.path(), Game::CARDJITSU, false).unwrap(),
            vec![line(0)]
        );
    }

    #[test]
    fn games_are_in_the_file_at_once_and_synced_in_groups() {
        let dir = tempfile::tempdir().unwrap();
        let (mut store, _) = Store::open(dir.path(), &settings()).unwrap();
        store.append(&line(0)).unwrap();
        // Written, so a killed dojo keeps it, but not yet fsync'd.
        assert_eq!(
            read_games(dir.path(), Game::CARDJITSU, false).unwrap(),
            vec![line(0)]
        );
        assert_eq!((store.unsynced_games(), store.sync_count()), (1, 0));
        for id in 1..SYNC_EVERY_GAMES {
            store.append(&line(id)).unwrap();
        }
        assert_eq!((store.unsynced_games(), store.sync_count()), (0, 1));
        store.append(&line(SYNC_EVERY_GAMES)).unwrap();
        store.sync().unwrap();
        assert_eq!((store.unsynced_games(), store.sync_count()), (0, 2));
        // Nothing new: no fsync.
        store.sync().unwrap();
        assert_eq!(store.sync_count(), 2);
        assert_eq!(
            read_games(dir.path(), Game::CARDJITSU, false)
                .unwrap()
                .len() as u64,
            SYNC_EVERY_GAMES + 1
        );
    }

    #[test]
    fn a_game_waits_at_most_the_sync_interval() {
        let dir = tempfile::tempdir().unwrap();
        let (mut store, _) = Store::open(dir.path(), &settings()).unwrap();
        store.append(&line(0)).unwrap();
        store.sync_if_due().unwrap();
        assert_eq!(store.unsynced_games(), 1);
        // Pretend the game was written an interval ago.
        store.unsynced_since = Some(Instant::now() - SYNC_INTERVAL);
        store.sync_if_due().unwrap();
        assert_eq!((store.unsynced_games(), store.sync_count()), (0, 1));
    }

    #[test]
    fn a_line_being_written_is_left_out_of_a_running_leagues_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let mut text = serde_json::to_string(&line(0)).unwrap() + "\n";
        let whole = serde_json::to_string(&line(1)).unwrap();
        // Every cut of the next line, down to the byte before its newline.
        for cut in [0, 1, whole.len() / 2, whole.len()] {
            fs::write(&path, format!("{text}{}", &whole[..cut])).unwrap();
            let ids: Vec<u64> = read_games_so_far(dir.path(), Game::CARDJITSU)
                .unwrap()
                .iter()
                .map(|g| g.id)
                .collect();
            assert_eq!(ids, [0], "cut at {cut}");
        }
        // Untouched: the writer goes on appending to it.
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            (text.len() + whole.len()) as u64
        );
        // A finished line that is not a game is no line being written.
        text += "{\"version\":1}\n";
        fs::write(&path, &text).unwrap();
        assert!(matches!(
            read_games_so_far(dir.path(), Game::CARDJITSU),
            Err(StoreError::Malformed { line: 2, .. })
        ));
    }

    #[test]
    fn torn_tail_is_cut_only_when_repairing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let mut text = String::new();
        for id in 0..2 {
            text += &serde_json::to_string(&line(id)).unwrap();
            text.push('\n');
        }
        let good = text.len() as u64;
        text += "{\"version\":1,\"id\":2,\"sea";
        fs::write(&path, &text).unwrap();
        assert!(matches!(
            read_games(dir.path(), Game::CARDJITSU, false),
            Err(StoreError::Torn { line: 3, .. })
        ));
        assert_eq!(fs::metadata(&path).unwrap().len(), text.len() as u64);
        assert_eq!(
            read_games(dir.path(), Game::CARDJITSU, true).unwrap().len(),
            2
        );
        assert_eq!(fs::metadata(&path).unwrap().len(), good);
        // What was cut is kept, not thrown away.
        assert_eq!(
            fs::read_to_string(dir.path().join(TORN_FILE)).unwrap(),
            "{\"version\":1,\"id\":2,\"sea\n"
        );
    }

    #[test]
    fn bad_line_in_the_middle_is_an_error_not_a_repair() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let text = format!(
            "{}\nnot json\n{}\n",
            serde_json::to_string(&line(0)).unwrap(),
            serde_json::to_string(&line(1)).unwrap()
        );
        fs::write(&path, &text).unwrap();
        let err = read_games(dir.path(), Game::CARDJITSU, true).unwrap_err();
        assert!(
            matches!(err, StoreError::Malformed { line: 2, .. }),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    /// What a resume reads before building anything: every line but a
    /// torn last one, which it lets through for the store to cut and does
    /// not touch; a bad line elsewhere and a game stored twice are errors.
    #[test]
    fn reading_untouched_passes_a_torn_tail_and_refuses_the_rest() {
        let untouched =
            |dir: &Path| for_each_game_untouched(dir, Game::CARDJITSU, |_| Ok::<_, StoreError>(()));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let whole = |ids: &[u64]| -> String {
            ids.iter()
                .map(|&id| serde_json::to_string(&line(id)).unwrap() + "\n")
                .collect()
        };
        let torn = whole(&[0, 1]) + "{\"version\":1,\"id\":2,\"sea";
        fs::write(&path, &torn).unwrap();
        untouched(dir.path()).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), torn);

        fs::write(&path, whole(&[0]) + "not json\n" + &whole(&[1])).unwrap();
        let err = untouched(dir.path()).unwrap_err();
        assert!(
            matches!(err, StoreError::Malformed { line: 2, .. }),
            "{err}"
        );

        fs::write(&path, whole(&[0, 1, 0])).unwrap();
        let err = untouched(dir.path()).unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::StoredTwice {
                    first: 1,
                    line: 3,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn complete_but_invalid_last_line_is_torn() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let first = serde_json::to_string(&line(0)).unwrap() + "\n";
        fs::write(&path, format!("{first}{{\"id\":\n")).unwrap();
        assert_eq!(
            read_games(dir.path(), Game::CARDJITSU, true).unwrap(),
            vec![line(0)]
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), first);
    }

    #[test]
    fn a_line_needs_a_first_fault_entry_per_seat_or_none() {
        let mut l = line(0);
        assert_eq!(l.check(Game::CARDJITSU), Ok(()));
        l.first_faults = vec![None];
        let err = l.check(Game::CARDJITSU).unwrap_err();
        assert!(err.contains("1 first faults for 2 seats"), "{err}");
        l.first_faults = vec![None, None];
        assert_eq!(l.check(Game::CARDJITSU), Ok(()));
    }

    #[test]
    fn a_royale_line_keeps_its_teams_as_written_and_refuses_one_royale_lacks() {
        // Teams are written as royale's own type always wrote them, and a
        // line read back writes the same bytes.
        let mut l = line(4);
        l.seats = vec!["a".into(), "b".into(), "c".into()];
        l.teams = ["R", "P", "S"].map(Role::from).to_vec();
        l.scores = vec![1.0, 0.0, 0.0];
        l.faults = vec![SeatFaults::default(); 3];
        assert_eq!(l.check(Game::ROYALE), Ok(()));
        let old = serde_json::to_string(&l).unwrap();
        assert!(old.contains(r#""teams":["R","P","S"]"#), "{old}");
        let back: GameLine = serde_json::from_str(&old).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), old);
        let bad: GameLine = serde_json::from_str(&old.replace(r#""S"]"#, r#""Q"]"#)).unwrap();
        let err = bad.check(Game::ROYALE).unwrap_err();
        assert!(err.contains(r#"team "Q" is not one of royale's"#), "{err}");
    }

    #[test]
    fn same_game_ignores_timing_and_first_faults_only() {
        let mut other = line(0);
        other.timing = serde_json::json!({"ms": 999});
        assert!(line(0).same_game(&other));
        // A bot's stderr may differ between two plays of the same game.
        other.first_faults = vec![
            None,
            Some(FirstFault {
                round: Some(2),
                kind: dojo_games::record::FaultKind::Crash,
                invalid: None,
                stderr_tail: vec!["boom".into()],
            }),
        ];
        assert!(line(0).same_game(&other));
        other.scores = vec![0.0, 1.0];
        assert!(!line(0).same_game(&other));
    }

    #[test]
    fn a_game_stored_twice_is_refused_but_a_retired_line_shares_its_id() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let json = |l: &GameLine| serde_json::to_string(l).unwrap() + "\n";
        let retired = GameLine {
            retired: Some(Retired {
                replaced: vec!["a".into()],
                fingerprints: Default::default(),
            }),
            ..line(1)
        };
        // A replaced bot's old game, then the game that replaced it.
        let text = json(&retired) + &json(&line(0)) + &json(&retired) + &json(&line(1));
        fs::write(&path, &text).unwrap();
        let ids = |games: Vec<GameLine>| games.iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(
            ids(read_games(dir.path(), Game::CARDJITSU, false).unwrap()),
            [0, 1]
        );
        assert_eq!(
            read_every_line(dir.path(), Game::CARDJITSU, false)
                .unwrap()
                .len(),
            4
        );
        // The game of id 1 again, its timing aside the same game.
        let again = GameLine {
            timing: serde_json::json!({"ms": 5}),
            ..line(1)
        };
        fs::write(&path, text + &json(&again)).unwrap();
        for repair in [false, true] {
            let err = read_games(dir.path(), Game::CARDJITSU, repair).unwrap_err();
            assert!(
                matches!(
                    err,
                    StoreError::StoredTwice {
                        id: 1,
                        first: 4,
                        line: 5,
                        same: true,
                        ..
                    }
                ),
                "{err}"
            );
        }
        assert!(matches!(
            read_games_so_far(dir.path(), Game::CARDJITSU),
            Err(StoreError::StoredTwice { line: 5, .. })
        ));
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 5);
    }

    #[test]
    fn stored_ids_take_a_bit_each_and_a_stray_huge_id_one_block() {
        let mut ids = StoredIds::default();
        for id in 0..128 {
            assert!(ids.insert(id));
        }
        assert!(!ids.insert(70));
        assert!(ids.insert(u64::MAX));
        assert!(!ids.insert(u64::MAX));
        assert_eq!(ids.blocks.len(), 3);
    }

    #[test]
    fn a_second_open_of_a_directory_in_use_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let s = settings();
        let (mut first, _) = Store::open(dir.path(), &s).unwrap();
        first.append(&line(0)).unwrap();
        // A second league on the same directory would play and append the
        // same games again, and its torn-tail repair could cut a line the
        // first is writing.
        let err = Store::open(dir.path(), &s).unwrap_err();
        assert!(matches!(err, StoreError::InUse { .. }), "{err}");
        drop(first);
        let (_, lines) = Store::open(dir.path(), &s).unwrap();
        assert_eq!(lines, vec![line(0)]);
    }
}

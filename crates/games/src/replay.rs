//! Saved games again: loading a record, rebuilding a royale board from it,
//! playing it again with the same bots, seed and settings, and comparing
//! the two records (what `dojo replay` and `dojo replay --rerun` show).
//!
//! A rerun finds each seat's bot where the record says it ran
//! ([`seat_bot`]) and refuses one that has changed since
//! ([`check_fingerprint`]); only records from before dojo kept that
//! (version 1) fall back to a bot of the recorded name under the bots
//! directory. Decks are re-read from the
//! recorded names (`standard`, or a file path relative to the current
//! directory); royale boards from the recorded board file when it still
//! holds the recorded grid (keeping its `start` lines), else from the grid
//! stored in the record ([`rerun_board`]).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dojo_engine::cardjitsu::{self, Deck, DeckError};
use dojo_engine::royale::{self, ActionRecord, Board, BoardError, Effect, Pos, Team};
use dojo_runner::{BotSpec, MANIFEST_FILE, Mode, RunError, RunOptions, SpecError};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cardjitsu::{CardJitsuRecord, CardJitsuSetup, play_cardjitsu};
use crate::game::Game;
use crate::record::{RECORD_VERSION, SeatInfo};
use crate::registry::RecordProblem;
use crate::royale::{RoyaleError, RoyaleRecord, RoyaleSetup, play_royale};

/// A saved game of either kind.
#[derive(Debug)]
pub enum Saved {
    CardJitsu(Box<CardJitsuRecord>),
    Royale(Box<RoyaleRecord>),
}

/// Why a record could not be loaded, rebuilt, played again or compared.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A game id was given but `path` is not a league directory.
    #[error("{}: expected a league directory (holding games.jsonl) to pick a game from", path.display())]
    NotALeague { path: PathBuf },
    /// No game id was given but `path` is a directory.
    #[error("{} is a directory: expected a game record file, or a game id", path.display())]
    IsADirectory { path: PathBuf },
    /// The league's games could not be read (the league's store error).
    #[error(transparent)]
    Store(Box<dyn std::error::Error + Send + Sync>),
    /// `games` (a league's games.jsonl) holds no game `id`.
    #[error("{}: no game with id {id} ({count} stored{})", games.display(), if *count == 1 { " game" } else { " games" })]
    NoGame {
        games: PathBuf,
        id: u64,
        count: usize,
    },
    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// The file is not one JSON object.
    #[error("{}: expected a game record (one JSON object)", path.display())]
    NotJson {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// The record says it is a `kind` game but does not parse as one.
    #[error("{}: not a {kind} game record", path.display())]
    BadRecord {
        path: PathBuf,
        kind: &'static str,
        source: serde_json::Error,
    },
    /// The record's format version is not one this dojo reads.
    #[error(
        "{}: record version {found} is not supported (this dojo reads versions 1 to {})",
        path.display(), RECORD_VERSION
    )]
    UnknownVersion { path: PathBuf, found: u64 },
    /// The record parses but contradicts itself or the rules.
    #[error("{}: corrupt record: {problem}", path.display())]
    Corrupt { path: PathBuf, problem: String },
    /// The record's `game` field names no game dojo knows.
    #[error(
        "{}: expected a game record with \"game\": \"cardjitsu\" or \"royale\", found {found:?}",
        path.display()
    )]
    UnknownGame { path: PathBuf, found: String },
    /// A CardJitsu record or rerun without exactly two seats.
    #[error("a CardJitsu record needs 2 seats, this one has {0}")]
    SeatCount(usize),
    /// A royale record without a team for a seat.
    #[error("the record has no team for seat {0}")]
    NoTeam(usize),
    /// A recorded deck file could not be read again.
    #[error("re-reading a recorded deck: cannot read {}", path.display())]
    DeckRead { path: PathBuf, source: io::Error },
    /// A recorded deck file no longer parses.
    #[error(transparent)]
    Deck(#[from] DeckError),
    /// The record's board does not parse.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A bot directory's manifest is broken.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A version 1 record's bot is not under the bots directory.
    #[error(
        "seat {seat}: no bot {bot:?} under {} (this record is from an older dojo and does not say where the bot was; point --bots-dir at the directory holding it)",
        bots_dir.display()
    )]
    NoBot {
        seat: usize,
        bot: String,
        bots_dir: PathBuf,
    },
    /// The directory a seat's bot ran in is gone.
    #[error("seat {seat}: bot {bot:?} is gone: {} no longer exists", dir.display())]
    BotGone {
        seat: usize,
        bot: String,
        dir: PathBuf,
    },
    /// A seat's bot has changed since the game was recorded.
    #[error(
        "seat {seat}: bot {bot:?} in {} has changed since the game was recorded (fingerprint {recorded}, now {now}): a rerun would not test the bot that played",
        dir.display()
    )]
    BotChanged {
        seat: usize,
        bot: String,
        dir: PathBuf,
        recorded: String,
        now: String,
    },
    /// The CardJitsu rerun failed to run.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The royale rerun failed to set up or run.
    #[error(transparent)]
    Royale(#[from] RoyaleError),
    /// A record could not be turned into JSON to compare it.
    #[error("serialising a record")]
    Serialise(#[source] serde_json::Error),
    /// A record did not serialise to a JSON object.
    #[error("a record is not a JSON object")]
    NotAnObject,
}

/// Reads a record file: the JSON file `dojo match --json` wrote, or a line
/// copied out of a league's games.jsonl. (A game picked by id from a league
/// directory is read by the league, which knows its files, and then parsed
/// with [`parse`].)
pub fn load_file(path: &Path) -> Result<Saved, ReplayError> {
    if path.is_dir() {
        return Err(ReplayError::IsADirectory { path: path.into() });
    }
    let text = std::fs::read_to_string(path).map_err(|source| ReplayError::Read {
        path: path.into(),
        source,
    })?;
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|source| ReplayError::NotJson {
            path: path.into(),
            source,
        })?;
    // A line copied out of games.jsonl works too.
    let value = match (value.get("record"), value.get("timing")) {
        (Some(rec), Some(timing)) => with_timing(rec.clone(), timing.clone()),
        _ => value,
    };
    parse(path, value)
}

/// A stored game (a games.jsonl line's `record` and `timing`) as a record.
pub fn from_stored(path: &Path, record: Value, timing: Value) -> Result<Saved, ReplayError> {
    parse(path, with_timing(record, timing))
}

/// Parses and checks a record read from `path` (named in errors).
pub fn parse(path: &Path, value: Value) -> Result<Saved, ReplayError> {
    let bad = |kind| {
        move |source| ReplayError::BadRecord {
            path: path.into(),
            kind,
            source,
        }
    };
    let game = value.get("game").and_then(|g| g.as_str()).unwrap_or("");
    // (A record without a version is refused by the parse below.)
    if game.parse::<Game>().is_ok() && value.get("version").is_some() {
        check_version(path, &value)?;
    }
    let corrupt = |problem: String| ReplayError::Corrupt {
        path: path.into(),
        problem,
    };
    let Ok(game) = game.parse::<Game>() else {
        return Err(ReplayError::UnknownGame {
            path: path.into(),
            found: game.to_owned(),
        });
    };
    crate::registry::parse_record(game, value).map_err(|problem| match problem {
        RecordProblem::Parse(kind, source) => bad(kind)(source),
        RecordProblem::Corrupt(problem) => corrupt(problem),
    })
}

/// Refuses a record from a newer (or a nonsensical) format version: its
/// fields may mean something this dojo does not know.
fn check_version(path: &Path, value: &Value) -> Result<(), ReplayError> {
    let found = value.get("version").and_then(Value::as_u64).unwrap_or(0);
    if !(1..=u64::from(RECORD_VERSION)).contains(&found) {
        return Err(ReplayError::UnknownVersion {
            path: path.into(),
            found,
        });
    }
    Ok(())
}

/// The seats of a record: `count` of them, numbered in order, with one
/// conduct entry each and stderr (if kept) for no other seat.
fn check_seats(
    seats: &[SeatInfo],
    conduct_len: usize,
    stderr_len: usize,
    count: usize,
) -> Result<(), String> {
    if seats.len() != count {
        return Err(format!(
            "expected {count} seats, the record has {}",
            seats.len()
        ));
    }
    if let Some((i, s)) = seats.iter().enumerate().find(|(i, s)| s.seat != *i) {
        return Err(format!("seat {i} is recorded as seat {}", s.seat));
    }
    if conduct_len != count {
        return Err(format!(
            "expected conduct for {count} seats, the record has {conduct_len}"
        ));
    }
    if stderr_len > count {
        return Err(format!(
            "stderr for {stderr_len} seats in a game of {count}"
        ));
    }
    Ok(())
}

/// Everything shown or replayed from a CardJitsu record follows from it:
/// two seats, and rounds that agree with the rules.
pub fn check_cardjitsu(rec: &CardJitsuRecord) -> Result<(), String> {
    check_seats(&rec.seats, rec.conduct.len(), rec.stderr.len(), 2)?;
    rec.play.verify().map_err(|c| c.to_string())
}

/// Everything shown or replayed from a royale record follows from it: one
/// seat per player, with the player's team, and turns that agree with the
/// rules.
pub fn check_royale(rec: &RoyaleRecord) -> Result<(), String> {
    let players = rec.play.players.len();
    check_seats(&rec.seats, rec.conduct.len(), rec.stderr.len(), players)?;
    for (seat, player) in rec.seats.iter().zip(&rec.play.players) {
        if seat.team.is_some_and(|t| t != player.team) {
            return Err(format!(
                "seat {} is on two teams ({} and {})",
                seat.seat,
                seat.team.map_or_else(String::new, |t| t.to_string()),
                player.team
            ));
        }
    }
    royale::verify_record(&rec.play).map_err(|c| c.to_string())
}

/// The league stores `timing` beside the record; put it back inside.
fn with_timing(mut record: Value, timing: Value) -> Value {
    if let Some(obj) = record.as_object_mut() {
        obj.insert("timing".into(), timing);
    }
    record
}

/// A royale board being rebuilt from a record: the initial grid and start
/// tiles, then each action's recorded effect.
#[derive(Debug, Clone)]
pub struct RoyaleReplay {
    pub board: Board,
    /// Each seat's position.
    pub positions: Vec<Pos>,
}

impl RoyaleReplay {
    /// The board before any turn.
    pub fn new(rec: &RoyaleRecord) -> Result<RoyaleReplay, ReplayError> {
        let board = Board::parse(&rec.play.board.join("\n"), "the record's board")?;
        let mut positions = vec![Pos::new(0, 0); rec.play.players.len()];
        for p in &rec.play.players {
            if let Some(slot) = positions.get_mut(p.seat) {
                *slot = p.start;
            }
        }
        Ok(RoyaleReplay { board, positions })
    }

    /// Applies one turn's effect.
    pub fn apply(&mut self, action: &ActionRecord) {
        match action.effect {
            Effect::None => {}
            Effect::Moved { at } => {
                if let Some(p) = self.positions.get_mut(action.seat) {
                    *p = at;
                }
            }
            Effect::Converted { at, to, .. } => {
                self.board.set(at, to);
            }
        }
    }
}

/// For each turn, the index of its seat's prompt (its how-manieth turn),
/// which is where that seat's stderr for the turn is kept.
pub fn prompt_indices(actions: &[ActionRecord]) -> Vec<usize> {
    let mut seen: HashMap<usize, usize> = HashMap::new();
    actions
        .iter()
        .map(|a| {
            let n = seen.entry(a.seat).or_insert(0);
            *n += 1;
            *n - 1
        })
        .collect()
}

/// Where [`seat_bot`] found a recorded seat's bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotSource {
    /// In the directory the record names (version 2 records).
    RecordedDir,
    /// Under the bots directory by its recorded name (version 1 records,
    /// which do not say where the bot was); `command_changed` when it no
    /// longer runs the recorded command.
    BotsDir { command_changed: bool },
}

/// The bot for a recorded seat, and where it was found.
///
/// A version 2 record names the bot's directory: the bot there (its
/// `bot.toml`, or the recorded command run in that directory for a bot
/// given as `NAME=COMMAND`) is the one, and a directory that is gone is
/// an error. A version 1 record only has a name, looked up under
/// `bots_dir`. A recorded command is never run in the current directory:
/// that would run whatever file of the same name happens to be there.
/// Check the bot with [`check_fingerprint`] once it is built.
pub fn seat_bot(seat: &SeatInfo, bots_dir: &Path) -> Result<(BotSpec, BotSource), ReplayError> {
    if let Some(dir) = &seat.dir {
        let dir = PathBuf::from(dir);
        if !dir.is_dir() {
            return Err(ReplayError::BotGone {
                seat: seat.seat,
                bot: seat.bot.clone(),
                dir,
            });
        }
        // The manifest there, if it still runs the recorded command (it
        // brings the build step and mode); else the recorded command, as
        // for a bot given as NAME=COMMAND. The fingerprint check decides
        // whether either is still the bot that played.
        if dir.join(MANIFEST_FILE).is_file() {
            let bot = dojo_runner::load_dir(&dir)?;
            if bot.command == seat.command {
                return Ok((
                    BotSpec {
                        name: seat.bot.clone(),
                        ..bot
                    },
                    BotSource::RecordedDir,
                ));
            }
        }
        let bot = BotSpec {
            name: seat.bot.clone(),
            command: seat.command.clone(),
            dir,
            build: None,
            mode: Mode::Auto,
            games: Vec::new(),
            team: None,
            description: None,
            values: Default::default(),
        };
        return Ok((bot, BotSource::RecordedDir));
    }
    let by_manifest = dojo_runner::discover(bots_dir)
        .ok()
        .and_then(|found| found.into_iter().find(|b| b.name == seat.bot));
    let by_dir = || {
        let dir = bots_dir.join(&seat.bot);
        (dojo_runner::is_valid_name(&seat.bot) && dir.join(MANIFEST_FILE).is_file())
            .then(|| dojo_runner::load_dir(&dir))
    };
    let found = match by_manifest {
        Some(bot) => Some(bot),
        None => by_dir().transpose()?,
    };
    match found {
        Some(bot) => {
            let command_changed = bot.command != seat.command;
            Ok((bot, BotSource::BotsDir { command_changed }))
        }
        None => Err(ReplayError::NoBot {
            seat: seat.seat,
            bot: seat.bot.clone(),
            bots_dir: bots_dir.into(),
        }),
    }
}

/// Refuses a bot that is not what played the recorded seat: its
/// fingerprint (manifest, command and the files the command names) has
/// changed, so a different game would say nothing about determinism.
/// Records without a fingerprint (version 1) pass.
pub fn check_fingerprint(seat: &SeatInfo, bot: &BotSpec) -> Result<(), ReplayError> {
    let Some(recorded) = &seat.fingerprint else {
        return Ok(());
    };
    let now = dojo_runner::fingerprint(bot);
    if &now != recorded {
        return Err(ReplayError::BotChanged {
            seat: seat.seat,
            bot: seat.bot.clone(),
            dir: bot.dir.clone(),
            recorded: recorded.clone(),
            now,
        });
    }
    Ok(())
}

/// A recorded deck read again: `standard`, or a DeckConfig file.
pub fn recorded_deck(name: &str) -> Result<Deck, ReplayError> {
    if name == "standard" {
        return Ok(Deck::standard());
    }
    let text = std::fs::read_to_string(name).map_err(|source| ReplayError::DeckRead {
        path: name.into(),
        source,
    })?;
    Ok(Deck::parse_dcfg(&text, name)?)
}

/// The setup that plays a CardJitsu record's game again: its seed, rules,
/// round cap and re-read decks.
pub fn cardjitsu_setup(rec: &CardJitsuRecord) -> Result<CardJitsuSetup, ReplayError> {
    if rec.seats.len() != 2 {
        return Err(ReplayError::SeatCount(rec.seats.len()));
    }
    Ok(CardJitsuSetup {
        seed: rec.play.seed,
        settings: cardjitsu::Settings {
            rules: rec.play.rules,
            max_rounds: rec.play.max_rounds,
            decks: [recorded_deck(&rec.decks[0])?, recorded_deck(&rec.decks[1])?],
        },
        deck_names: rec.decks.clone(),
    })
}

/// Plays a CardJitsu game again: `setup` from [`cardjitsu_setup`], `bots`
/// the two seats' bots in seat order (already resolved and built).
pub fn rerun_cardjitsu(
    setup: &CardJitsuSetup,
    bots: Vec<Arc<BotSpec>>,
    opts: &RunOptions,
) -> Result<CardJitsuRecord, ReplayError> {
    let count = bots.len();
    let bots: [Arc<BotSpec>; 2] = bots.try_into().map_err(|_| ReplayError::SeatCount(count))?;
    Ok(play_cardjitsu(bots, setup, opts, &mut |_| {})?)
}

/// Each royale seat's bot (in seat order) with the team the record gives
/// that seat.
pub fn royale_players(
    rec: &RoyaleRecord,
    bots: Vec<Arc<BotSpec>>,
) -> Result<Vec<(Arc<BotSpec>, Team)>, ReplayError> {
    bots.into_iter()
        .enumerate()
        .map(|(seat, bot)| {
            let team = rec
                .play
                .players
                .iter()
                .find(|p| p.seat == seat)
                .map(|p| p.team)
                .ok_or(ReplayError::NoTeam(seat))?;
            Ok((bot, team))
        })
        .collect()
}

/// Where [`rerun_board`] took the board from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardSource {
    /// The recorded board file, which still holds the recorded grid.
    File,
    /// The grid stored in the record; `file_changed` when the recorded
    /// file exists but no longer holds that grid (and its `start` lines
    /// are therefore not used).
    Record { file_changed: bool },
}

/// The board to play a royale rerun on: the recorded file if it still
/// holds the recorded grid (its `start` lines matter), else the recorded
/// grid with every seat's recorded start tile fixed (`start` lines of our
/// own), so the rerun starts where the game did even without the file.
pub fn rerun_board(rec: &RoyaleRecord) -> Result<(Board, BoardSource), ReplayError> {
    let mut file_changed = false;
    if let Ok(text) = std::fs::read_to_string(&rec.board_file) {
        if let Ok(board) = Board::parse(&text, &rec.board_file)
            && board.to_lines() == rec.play.board
        {
            return Ok((board, BoardSource::File));
        }
        file_changed = true;
    }
    let mut text = rec.play.board.join("\n");
    text.push_str("\n\n");
    for p in &rec.play.players {
        text.push_str(&format!("start {} {} {}\n", p.team, p.start.x, p.start.y));
    }
    let board = Board::parse(&text, "the record's board")?;
    Ok((board, BoardSource::Record { file_changed }))
}

/// Plays a royale game again with `players` from [`royale_players`] on
/// `board` from [`rerun_board`], with the record's seed and limits.
pub fn rerun_royale(
    rec: &RoyaleRecord,
    players: &[(Arc<BotSpec>, Team)],
    board: Board,
    opts: &RunOptions,
) -> Result<RoyaleRecord, ReplayError> {
    let setup = RoyaleSetup {
        seed: rec.play.seed,
        board,
        board_file: rec.board_file.clone(),
        settings: royale::Settings {
            max_rounds: Some(rec.play.settings.max_rounds),
            stall_rounds: Some(rec.play.settings.stall_rounds),
        },
    };
    Ok(play_royale(players, &setup, opts, &mut |_| {})?)
}

/// A top-level record field whose values differ between two plays.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDifference {
    pub field: String,
    /// The saved record's value (`None`: absent).
    pub saved: Option<Value>,
    /// The rerun's value (`None`: absent).
    pub rerun: Option<Value>,
}

/// How a rerun differs from the saved game.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// The plays part at this 0-based index: a CardJitsu round, or a
    /// royale turn (one of the two records may have ended before it).
    At(usize),
    /// The moves are the same, but these fields are not.
    Fields(Vec<FieldDifference>),
}

/// A record as JSON without the parts that may differ between two plays
/// of the same game: `timing`, and the bots' stderr.
fn comparable(rec: &impl Serialize) -> Result<Map<String, Value>, ReplayError> {
    let value = serde_json::to_value(rec).map_err(ReplayError::Serialise)?;
    let Value::Object(mut map) = value else {
        return Err(ReplayError::NotAnObject);
    };
    map.remove("timing");
    map.remove("stderr");
    Ok(map)
}

/// Top-level fields whose values differ (timing and stderr aside), sorted
/// by name.
pub fn differing_fields(
    saved: &impl Serialize,
    rerun: &impl Serialize,
) -> Result<Vec<FieldDifference>, ReplayError> {
    let (a, b) = (comparable(saved)?, comparable(rerun)?);
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    Ok(keys
        .into_iter()
        .filter(|key| a.get(*key) != b.get(*key))
        .map(|key| FieldDifference {
            field: key.clone(),
            saved: a.get(key).cloned(),
            rerun: b.get(key).cloned(),
        })
        .collect())
}

/// The first difference given where the plays part, if anywhere.
fn difference(
    saved: &impl Serialize,
    rerun: &impl Serialize,
    first: Option<usize>,
) -> Result<Option<Difference>, ReplayError> {
    if comparable(saved)? == comparable(rerun)? {
        return Ok(None);
    }
    Ok(Some(match first {
        Some(i) => Difference::At(i),
        None => Difference::Fields(differing_fields(saved, rerun)?),
    }))
}

/// The 0-based index of the first round where two CardJitsu records part.
pub fn first_difference_cardjitsu(
    saved: &CardJitsuRecord,
    rerun: &CardJitsuRecord,
) -> Option<usize> {
    let (a, b) = (&saved.play.rounds, &rerun.play.rounds);
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// The 0-based index of the first turn where two royale records part.
pub fn first_difference_royale(saved: &RoyaleRecord, rerun: &RoyaleRecord) -> Option<usize> {
    let (a, b) = (&saved.play.actions, &rerun.play.actions);
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// How a CardJitsu rerun differs from the saved game; `None` when it is
/// the same game (timing and stderr aside).
pub fn compare_cardjitsu(
    saved: &CardJitsuRecord,
    rerun: &CardJitsuRecord,
) -> Result<Option<Difference>, ReplayError> {
    difference(saved, rerun, first_difference_cardjitsu(saved, rerun))
}

/// How a royale rerun differs from the saved game; `None` when it is the
/// same game (timing and stderr aside).
pub fn compare_royale(
    saved: &RoyaleRecord,
    rerun: &RoyaleRecord,
) -> Result<Option<Difference>, ReplayError> {
    difference(saved, rerun, first_difference_royale(saved, rerun))
}

#[cfg(test)]
mod tests {
    use dojo_engine::cardjitsu::CardJitsu;
    use dojo_engine::royale::{Action, Dir, Royale};

    use super::*;
    use crate::record::{SeatConduct, Timing};

    fn seats(n: usize) -> (Vec<SeatInfo>, Vec<SeatConduct>) {
        let info = (0..n)
            .map(|seat| SeatInfo {
                seat,
                bot: format!("bot{seat}"),
                command: vec!["./bot".into()],
                dir: None,
                fingerprint: None,
                team: None,
            })
            .collect();
        let conduct = (0..n)
            .map(|_| SeatConduct {
                faults: Default::default(),
                spawns: 1,
                unsolicited: 0,
                mode: Mode::Auto,
            })
            .collect();
        (info, conduct)
    }

    fn cardjitsu(seed: u64) -> CardJitsuRecord {
        let mut game = CardJitsu::new(seed, cardjitsu::Settings::default());
        for _ in 0..4 {
            game.play([0, 1]);
        }
        let (seats, conduct) = seats(2);
        CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats,
            decks: ["standard".into(), "standard".into()],
            play: game.into_record(),
            conduct,
            stderr: Vec::new(),
            timing: Timing::default(),
        }
    }

    /// A few turns of royale on the seed's example board, and the game.
    fn royale() -> (RoyaleRecord, Royale) {
        let text = include_str!("../../../boards/seed-example.txt");
        let board = Board::parse(text, "seed-example").unwrap();
        let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
        let mut game = Royale::new(board, teams, 7, royale::Settings::default()).unwrap();
        let tries = [
            Action::Instigate(Dir::R),
            Action::Move(Dir::D),
            Action::Instigate(Dir::U),
            Action::Move(Dir::L),
        ];
        for turn in 0..24 {
            let Some(seat) = game.to_move() else { break };
            let step = game.step(seat, tries[turn % tries.len()]);
            if step.is_err() {
                game.step(seat, Action::Pass).unwrap();
            }
        }
        let (seats, conduct) = seats(3);
        let rec = RoyaleRecord {
            version: RECORD_VERSION,
            game: "royale".into(),
            seats,
            board_file: "boards/seed-example.txt".into(),
            play: game.record(),
            conduct,
            stderr: Vec::new(),
            timing: Timing::default(),
        };
        (rec, game)
    }

    #[test]
    fn loads_a_match_file_and_a_copied_games_line() {
        let dir = tempfile::tempdir().unwrap();
        let rec = cardjitsu(3);
        let file = dir.path().join("game.json");
        std::fs::write(&file, serde_json::to_string(&rec).unwrap()).unwrap();
        match load_file(&file).unwrap() {
            Saved::CardJitsu(back) => assert_eq!(*back, rec),
            Saved::Royale(_) => panic!("read a CardJitsu record as royale"),
        }
        let mut record = serde_json::to_value(&rec).unwrap();
        let timing = record.as_object_mut().unwrap().remove("timing").unwrap();
        let line = serde_json::json!({ "id": 4, "record": record, "timing": timing });
        std::fs::write(&file, line.to_string()).unwrap();
        assert!(matches!(load_file(&file).unwrap(), Saved::CardJitsu(back) if *back == rec));
    }

    #[test]
    fn bad_records_name_the_file_and_what_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.json");
        let err = |text: &str, _game: Option<u64>| {
            std::fs::write(&file, text).unwrap();
            load_file(&file).unwrap_err()
        };
        assert!(matches!(err("{", None), ReplayError::NotJson { .. }));
        let unknown = err(r#"{"game": "chess"}"#, None);
        assert!(unknown.to_string().contains("game.json"), "{unknown}");
        assert!(
            unknown.to_string().ends_with("found \"chess\""),
            "{unknown}"
        );
        let bad = err(r#"{"game": "royale"}"#, None);
        assert_eq!(
            bad.to_string(),
            format!("{}: not a royale game record", file.display())
        );
        assert!(matches!(
            load_file(dir.path()),
            Err(ReplayError::IsADirectory { .. })
        ));
        assert!(matches!(
            load_file(&dir.path().join("missing.json")),
            Err(ReplayError::Read { .. })
        ));
    }

    #[test]
    fn royale_replay_reaches_the_engines_board() {
        let (rec, game) = royale();
        assert!(rec.play.actions.len() > 6);
        let mut state = RoyaleReplay::new(&rec).unwrap();
        for action in &rec.play.actions {
            state.apply(action);
        }
        assert_eq!(state.board.to_lines(), game.board().to_lines());
        assert_eq!(state.positions, game.positions());
    }

    #[test]
    fn prompt_indices_count_each_seats_turns() {
        let (rec, _) = royale();
        let indices = prompt_indices(&rec.play.actions);
        let seats = rec.play.players.len();
        for (i, a) in rec.play.actions.iter().enumerate() {
            let before = rec.play.actions[..i].iter().filter(|b| b.seat == a.seat);
            assert_eq!(indices[i], before.count());
        }
        assert_eq!(indices[..seats].iter().sum::<usize>(), 0);
    }

    #[test]
    fn rerun_board_falls_back_to_the_recorded_grid() {
        let (mut rec, _) = royale();
        rec.board_file = "no/such/board.txt".into();
        let (board, source) = rerun_board(&rec).unwrap();
        assert_eq!(
            source,
            BoardSource::Record {
                file_changed: false
            }
        );
        assert_eq!(board.to_lines(), rec.play.board);
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("board.txt");
        std::fs::write(&other, "RP\nSR\n").unwrap();
        rec.board_file = other.display().to_string();
        let (_, source) = rerun_board(&rec).unwrap();
        assert_eq!(source, BoardSource::Record { file_changed: true });
    }

    #[test]
    fn comparison_ignores_timing_and_stderr_and_finds_the_first_round() {
        let saved = cardjitsu(3);
        let mut same = saved.clone();
        same.timing.wall_ms = 12.0;
        same.stderr = vec![vec!["hi".into()]];
        assert_eq!(compare_cardjitsu(&saved, &same).unwrap(), None);

        let mut later = saved.clone();
        later.play.rounds.truncate(2);
        assert_eq!(first_difference_cardjitsu(&saved, &later), Some(2));
        assert_eq!(
            compare_cardjitsu(&saved, &later).unwrap(),
            Some(Difference::At(2))
        );

        let mut decks = saved.clone();
        decks.decks[1] = "mine.dcfg".into();
        let Some(Difference::Fields(fields)) = compare_cardjitsu(&saved, &decks).unwrap() else {
            panic!("the decks differ");
        };
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].field, "decks");
        assert_eq!(fields[0].rerun.as_ref().unwrap()[1], "mine.dcfg");
    }

    #[test]
    fn royale_comparison_finds_the_first_turn() {
        let (saved, _) = royale();
        let mut rerun = saved.clone();
        rerun.play.actions[3].effect = Effect::None;
        assert_eq!(first_difference_royale(&saved, &rerun), Some(3));
        assert_eq!(first_difference_royale(&saved, &saved), None);
    }

    #[test]
    fn cardjitsu_setup_needs_two_seats() {
        let mut rec = cardjitsu(3);
        rec.seats.truncate(1);
        assert!(matches!(
            cardjitsu_setup(&rec),
            Err(ReplayError::SeatCount(1))
        ));
    }

    #[test]
    fn records_that_contradict_themselves_or_the_rules_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.json");
        let load_edited = |edit: &dyn Fn(&mut Value)| {
            let mut value = serde_json::to_value(cardjitsu(3)).unwrap();
            edit(&mut value);
            std::fs::write(&file, value.to_string()).unwrap();
            load_file(&file)
        };
        assert!(load_edited(&|_| {}).is_ok());
        let winner = load_edited(&|v| v["rounds"][1]["winner"] = 3.into()).unwrap_err();
        assert!(matches!(winner, ReplayError::Corrupt { .. }), "{winner}");
        assert!(winner.to_string().contains("round 2"), "{winner}");
        let one_seat = load_edited(&|v| {
            v["seats"].as_array_mut().unwrap().pop();
        })
        .unwrap_err();
        assert!(
            one_seat.to_string().contains("expected 2 seats"),
            "{one_seat}"
        );
        let version = load_edited(&|v| v["version"] = 99.into()).unwrap_err();
        assert!(
            matches!(version, ReplayError::UnknownVersion { found: 99, .. }),
            "{version}"
        );

        let (rec, _) = royale();
        let mut value = serde_json::to_value(&rec).unwrap();
        value["actions"][2]["seat"] = 7.into();
        std::fs::write(&file, value.to_string()).unwrap();
        let err = load_file(&file).unwrap_err();
        assert!(err.to_string().contains("turn 3"), "{err}");
    }
}

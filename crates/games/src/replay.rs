//! Saved games again: reading a record into its game's typed record
//! (once, from its text: [`crate::parse`]), checking it, finding the bots
//! that played it, and comparing a rerun with it (what `dojo replay` and
//! `dojo replay --rerun` show).
//!
//! What differs per game (checking a record against the rules, the setup
//! that plays it again, where two plays part, what its page shows) is each
//! game's [`SavedGame`] impl, in the game's module (`cardjitsu::replay`,
//! `royale::replay`), reached through [`Saved`] (the registry).
//!
//! A rerun finds each seat's bot where the record says it ran
//! ([`seat_bot`]) and refuses one that has changed since
//! ([`check_fingerprint`]); only records from before dojo kept that
//! (version 1) fall back to a bot of the recorded name under the bots
//! directory.

use std::any::Any;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dojo_runner::{BotSpec, MANIFEST_FILE, Mode, RunOptions, SpecError};
use serde::Serialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::formats::RECORD_VERSION;
use crate::game::Game;
use crate::parse::{FileTop, Head, RecordText, Stored, StoredValues, Whole, without_position};
use crate::record::SeatInfo;
use crate::registry::ReplayView;
use crate::view::RecordSource;

pub use crate::registry::Saved;

/// A record as [`Any`], for [`Saved::record`] and [`SavedGame::compare`]
/// (which downcast to the game's own record type); every type has it.
pub trait AsAny {
    /// The record, borrowed.
    fn as_any(&self) -> &dyn Any;
    /// The record, owned.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// What replay does with a saved game of one kind: each game's record
/// implements it in the game's module, and [`Saved`] (the record read,
/// whatever its game) hands it out.
pub trait SavedGame: AsAny + fmt::Debug + Send + Sync + 'static {
    /// Which game's record it is.
    fn game(&self) -> Game;
    /// How `rerun` (this game played again) differs from it; `None` when
    /// it is the same game (timing and stderr aside);
    /// [`ReplayError::OtherGame`] when it is another game's
    /// ([`crate::registry::same_record`]).
    fn compare(&self, rerun: &dyn SavedGame) -> Result<Option<Difference>, ReplayError>;
    /// Who sat where.
    fn seats(&self) -> &[SeatInfo];
    /// Whether the record agrees with itself and the rules; what is wrong,
    /// in words.
    fn check(&self) -> Result<(), String>;
    /// The replay page's title.
    fn title(&self) -> String;
    /// The replay page's data: the record and what the page shows beside
    /// it; its commands name seat `i`'s bot by `bots[i]`
    /// ([`crate::view::seat_bot`]).
    fn view(&self, source: &RecordSource, bots: &[String]) -> Result<ReplayView, ReplayError>;
    /// The game made ready to play again: what the record names (decks, a
    /// board) read again now.
    fn rerun(&self) -> Result<Rerun, ReplayError>;
    /// What one step of the game is called (`round`, `turn`).
    fn moment(&self) -> &'static str;
    /// The answers given at step `step` (0-based, as in
    /// [`Difference::At`]), by seat, each in words (what the bot wrote and
    /// what it meant, or the fault in its place); empty past the game's
    /// end. What [`crate::determinism`] shows of a bot that answered
    /// differently when the game was played again.
    fn answers(&self, step: usize) -> Vec<(usize, String)>;
}

/// A saved game made ready to play again ([`SavedGame::rerun`]): notes
/// worth telling (a board taken from the record because its file has
/// changed), and the game, played by the seats' bots.
pub struct Rerun {
    pub notes: Vec<String>,
    #[allow(clippy::type_complexity)]
    play: Box<dyn FnOnce(Vec<Arc<BotSpec>>, &RunOptions) -> Result<Saved, ReplayError> + Send>,
}

impl fmt::Debug for Rerun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rerun").field("notes", &self.notes).finish()
    }
}

impl Rerun {
    /// A rerun that `play` plays.
    pub(crate) fn new(
        notes: Vec<String>,
        play: impl FnOnce(Vec<Arc<BotSpec>>, &RunOptions) -> Result<Saved, ReplayError> + Send + 'static,
    ) -> Rerun {
        Rerun {
            notes,
            play: Box::new(play),
        }
    }

    /// Plays the game again: `bots` are the seats' bots in seat order
    /// (resolved, built and checked with [`check_fingerprint`]).
    pub fn play(self, bots: Vec<Arc<BotSpec>>, opts: &RunOptions) -> Result<Saved, ReplayError> {
        (self.play)(bots, opts)
    }
}

/// Why a record could not be loaded, rebuilt, played again or compared.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A game id was given but `path` is not a league directory: a file,
    /// or a directory holding neither games.jsonl nor league.json.
    #[error("{}: expected a league directory (holding games.jsonl) to pick a game from", path.display())]
    NotALeague { path: PathBuf },
    /// No game id was given but `path` is a directory.
    #[error("{} is a directory: expected a game record file, or a game id", path.display())]
    IsADirectory { path: PathBuf },
    /// The league's games could not be read (the league's store error).
    #[error(transparent)]
    Store(Box<dyn std::error::Error + Send + Sync>),
    /// `games` (a league's games.jsonl) holds no game `id`; `ids` are
    /// those it holds.
    #[error("{}: no game with id {id} ({ids})", games.display())]
    NoGame {
        games: PathBuf,
        id: u64,
        ids: GameIds,
    },
    /// A file of a league's directory `dir` (its settings, games or
    /// report: `what`) was given as a record; `ids` are the ids of its
    /// stored games, when they could be read.
    #[error(
        "{} is {what}, not a game record: pick a game of the league directory {} by id{}",
        path.display(), dir.display(), ids.map_or_else(String::new, |ids| format!(" ({ids})"))
    )]
    LeagueFile {
        path: PathBuf,
        what: &'static str,
        dir: PathBuf,
        ids: Option<GameIds>,
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
    /// `line` is the line of `path` the record is on when it was read
    /// from a `games.jsonl` line (whose record and timing are read from
    /// their slices of it, so the source's message carries no position);
    /// for a record file, the source's message says where.
    #[error("{}{}: not a {kind} game record", path.display(), line.map_or_else(String::new, |n| format!(": line {n}")))]
    BadRecord {
        path: PathBuf,
        line: Option<usize>,
        kind: &'static str,
        source: Box<dyn std::error::Error + Send + Sync>,
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
    /// The record's `game` field names no game dojo knows (`known`: the
    /// names it knows, as the message lists them).
    #[error(
        "{}: expected a game record with \"game\": {known}, found {found:?}",
        path.display()
    )]
    UnknownGame {
        path: PathBuf,
        found: String,
        known: String,
    },
    /// A replay page's data could not be written as JSON.
    #[error("the replay page's data: {0}")]
    View(#[source] serde_json::Error),
    /// A rerun came out as another game than the saved one.
    #[error("a {saved} record was compared with a {rerun} game")]
    OtherGame { saved: Game, rerun: Game },
    /// What a game's own replay code found wrong (its record's seats,
    /// decks or board, or its rerun): each game's error type, so a new
    /// game adds none here ([`ReplayError::game`]).
    #[error(transparent)]
    Game(Box<dyn std::error::Error + Send + Sync>),
    /// A bot directory's manifest is broken.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A version 1 record's bot is not under the bots directory.
    #[error(
        "seat {}: no bot {bot:?} under {} (this record is from an older dojo and does not say where the bot was; point --bots-dir at the directory holding it)",
        seat + 1, bots_dir.display()
    )]
    NoBot {
        seat: usize,
        bot: String,
        bots_dir: PathBuf,
    },
    /// The directory a seat's bot ran in is gone.
    #[error("seat {}: bot {bot:?} is gone: {} no longer exists", seat + 1, dir.display())]
    BotGone {
        seat: usize,
        bot: String,
        dir: PathBuf,
    },
    /// A seat's bot has changed since the game was recorded.
    #[error(
        "seat {}: bot {bot:?} in {} has changed since the game was recorded (fingerprint {recorded}, now {now}): a rerun would not test the bot that played",
        seat + 1, dir.display()
    )]
    BotChanged {
        seat: usize,
        bot: String,
        dir: PathBuf,
        recorded: String,
        now: String,
    },
    /// A league's `games.jsonl` line is not a stored game.
    #[error("{}: line {line}: {problem}", path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    /// A record could not be turned into JSON to compare it.
    #[error("serialising a record")]
    Serialise(#[source] serde_json::Error),
    /// A record did not serialise to a JSON object.
    #[error("a record is not a JSON object")]
    NotAnObject,
}

/// The ids of a league's stored games, as an error tells them: how many,
/// the lowest and the highest ("ids 0 to 9" when they are contiguous).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameIds {
    pub count: usize,
    /// The lowest and highest id; `None` when there is no game.
    pub span: Option<(u64, u64)>,
}

impl GameIds {
    /// Notes a stored game's id (each id once).
    pub fn insert(&mut self, id: u64) {
        self.count += 1;
        self.span = Some(
            self.span
                .map_or((id, id), |(lo, hi)| (lo.min(id), hi.max(id))),
        );
    }
}

impl fmt::Display for GameIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            None => write!(f, "no stored games"),
            Some((lo, hi)) if lo == hi => write!(f, "the one stored game has id {lo}"),
            // Each id is stored once, so as many games as the span is
            // long are every id in it.
            Some((lo, hi))
                if u64::try_from(self.count).is_ok_and(|n| n.checked_sub(1) == Some(hi - lo)) =>
            {
                write!(f, "ids {lo} to {hi}")
            }
            Some((lo, hi)) => write!(
                f,
                "{} stored games, ids between {lo} and {hi} with gaps",
                self.count
            ),
        }
    }
}

/// Reads a record file: the JSON file `dojo match --json` wrote, or a line
/// copied out of a league's games.jsonl. (A game picked by id from a league
/// directory is read by the league, which knows its files, and then parsed
/// with [`parse_stored`].)
pub fn load_file(path: &Path) -> Result<Saved, ReplayError> {
    if path.is_dir() {
        return Err(ReplayError::IsADirectory { path: path.into() });
    }
    let text =
        dojo_runner::input::read_text_capped(path, dojo_runner::input::RECORD_CAP, "a game record")
            .map_err(|source| ReplayError::Read {
                path: path.into(),
                source,
            })?;
    parse_file(path, &text)
}

/// Parses and checks the text of a record file read from `path` (named in
/// errors).
pub fn parse_file(path: &Path, text: &str) -> Result<Saved, ReplayError> {
    let top = match serde_json::from_str::<FileTop<'_>>(text) {
        Ok(top) => top,
        // JSON, but not an object: there is no game to name (said below).
        Err(_) if serde_json::from_str::<IgnoredAny>(text).is_ok() => FileTop {
            record: None,
            timing: None,
        },
        Err(source) => {
            return Err(ReplayError::NotJson {
                path: path.into(),
                source,
            });
        }
    };
    // A line copied out of games.jsonl works too.
    match (top.record, top.timing) {
        (Some(record), timing) => {
            // The record is a slice of `text` (borrowed, not copied): the
            // line it starts on is one more than the newlines before it.
            let before = (record.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            let line = 1 + text.get(..before).unwrap_or("").matches('\n').count();
            let stored = Stored {
                record: record.get(),
                // Without its timing (not part of a game's identity).
                timing: timing.map_or("null", |t| t.get()),
            };
            parse(path, Some(line), record.get(), &RecordText::Stored(stored))
        }
        _ => parse(path, None, text, &RecordText::Whole(Whole(text))),
    }
}

/// Parses and checks a stored game: the `record` and `timing` texts of
/// line `line` of the league's `games` file.
pub fn parse_stored(
    games: &Path,
    line: usize,
    record: &str,
    timing: &str,
) -> Result<Saved, ReplayError> {
    parse(
        games,
        Some(line),
        record,
        &RecordText::Stored(Stored { record, timing }),
    )
}

/// A stored game already read as JSON values (a league's games as its
/// report holds them), as its typed record: read, not checked against
/// the rules (a report shows what was stored).
pub fn read_stored_values(
    games: &Path,
    record: &Value,
    timing: &Value,
) -> Result<Saved, ReplayError> {
    let name = record.get("game").and_then(Value::as_str).unwrap_or("");
    let game = known_game(games, name)?;
    game.parse_record(&RecordText::Values(StoredValues { record, timing }))
        .map_err(|e| ReplayError::BadRecord {
            path: games.into(),
            line: None,
            kind: e.kind,
            source: Box::new(e.source),
        })
}

fn known_game(path: &Path, name: &str) -> Result<Game, ReplayError> {
    name.parse::<Game>().map_err(|_| ReplayError::UnknownGame {
        path: path.into(),
        found: name.to_owned(),
        known: known_names(),
    })
}

/// The games a record may name, as `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
fn known_names() -> String {
    let names: Vec<String> = Game::ALL
        .iter()
        .map(|g| format!("\"{}\"", g.name()))
        .collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl ReplayError {
    /// A game's own error, for [`ReplayError::Game`].
    pub fn game(e: impl std::error::Error + Send + Sync + 'static) -> ReplayError {
        ReplayError::Game(Box::new(e))
    }
}

/// Reads the record of `text` (its `game` and `version` first, to know
/// its type) from `input` into its game's typed record (its
/// `GameDef::parse_record`) and checks it. `line`: the line of
/// `path` a stored record is on.
fn parse(
    path: &Path,
    line: Option<usize>,
    text: &str,
    input: &RecordText<'_>,
) -> Result<Saved, ReplayError> {
    let head = Head::of(text);
    let game = known_game(path, &head.game())?;
    // (A record without a version is refused by the typed parse.)
    if let Some(found) = head.version()
        && !(1..=u64::from(RECORD_VERSION)).contains(&found)
    {
        // Its fields may mean something this dojo does not know.
        return Err(ReplayError::UnknownVersion {
            path: path.into(),
            found,
        });
    }
    let saved = game
        .parse_record(input)
        .map_err(|e| ReplayError::BadRecord {
            path: path.into(),
            line,
            kind: e.kind,
            source: match line {
                Some(_) => without_position(&e.source).into(),
                None => Box::new(e.source),
            },
        })?;
    saved.check().map_err(|problem| ReplayError::Corrupt {
        path: path.into(),
        problem,
    })?;
    Ok(saved)
}

/// The seats of a record: `count` of them, numbered in order, with one
/// conduct entry each and stderr (if kept) for no other seat.
pub(crate) fn check_seats(
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

/// The first index where two plays' steps (rounds, turns) part, counting
/// a step one play has and the other lacks.
pub(crate) fn first_differing<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// The first difference given where the plays part, if anywhere.
pub(crate) fn difference(
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

#[cfg(test)]
pub(crate) use tests::seats as test_seats;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cardjitsu::CardJitsuRecord;
    use crate::cardjitsu::replay::tests::record as cardjitsu;
    use crate::record::SeatConduct;
    use crate::royale::replay::tests::record as royale;

    #[test]
    fn stored_ids_are_told_as_a_range_and_gaps_are_said() {
        let ids = |list: &[u64]| {
            let mut ids = GameIds::default();
            list.iter().for_each(|&id| ids.insert(id));
            ids.to_string()
        };
        assert_eq!(ids(&[]), "no stored games");
        assert_eq!(ids(&[3]), "the one stored game has id 3");
        assert_eq!(ids(&[2, 0, 1, 3]), "ids 0 to 3");
        assert_eq!(
            ids(&[5, 1, 9]),
            "3 stored games, ids between 1 and 9 with gaps"
        );
    }

    /// `n` seats of made-up bots with clean conduct.
    pub(crate) fn seats(n: usize) -> (Vec<SeatInfo>, Vec<SeatConduct>) {
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
                first_invalid: None,
            })
            .collect();
        (info, conduct)
    }

    fn as_cardjitsu(saved: Saved) -> CardJitsuRecord {
        *saved
            .into_record::<CardJitsuRecord>()
            .expect("a CardJitsu record")
    }

    #[test]
    fn loads_a_match_file_and_a_copied_games_line() {
        let dir = tempfile::tempdir().unwrap();
        let rec = cardjitsu(3);
        let file = dir.path().join("game.json");
        std::fs::write(&file, serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(as_cardjitsu(load_file(&file).unwrap()), rec);
        let mut record = serde_json::to_value(&rec).unwrap();
        let timing = record.as_object_mut().unwrap().remove("timing").unwrap();
        let line = serde_json::json!({ "id": 4, "record": record, "timing": timing });
        std::fs::write(&file, line.to_string()).unwrap();
        assert_eq!(as_cardjitsu(load_file(&file).unwrap()), rec);
        // The report's values read the same record.
        let games = Path::new("games.jsonl");
        let back = read_stored_values(games, &line["record"], &line["timing"]).unwrap();
        assert_eq!(as_cardjitsu(back), rec);
    }

    #[test]
    fn a_stored_record_is_read_with_its_timing_put_back() {
        let mut rec = cardjitsu(3);
        rec.timing.wall_ms = 7.5;
        rec.timing.latency_us = vec![vec![1, 2], vec![3, 4]];
        let mut record = serde_json::to_value(&rec).unwrap();
        let timing = record.as_object_mut().unwrap().remove("timing").unwrap();
        let (record, timing) = (record.to_string(), timing.to_string());
        let games = Path::new("league/games.jsonl");
        let back = parse_stored(games, 9, &record, &timing).unwrap();
        assert_eq!(as_cardjitsu(back), rec);
        // A record that holds its own timing as well has it twice.
        let full = serde_json::to_string(&rec).unwrap();
        let err = parse_stored(games, 9, &full, &timing).unwrap_err();
        assert!(matches!(err, ReplayError::BadRecord { .. }), "{err}");
    }

    /// The error's message with its sources, as the binary prints it.
    fn chain(err: &ReplayError) -> String {
        let mut text = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(s) = source {
            text += &format!(": {s}");
            source = s.source();
        }
        text
    }

    #[test]
    fn a_field_of_the_wrong_type_names_the_file_the_line_and_what_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.json");
        let mut value = serde_json::to_value(cardjitsu(3)).unwrap();
        value["seats"][1]["bot"] = 3.into();
        // Pretty-printed: the position is a line of the file.
        let text = serde_json::to_string_pretty(&value).unwrap();
        std::fs::write(&file, &text).unwrap();
        let line = 1 + text[..text.find("\"bot\": 3").unwrap()]
            .matches('\n')
            .count();
        let err = chain(&load_file(&file).unwrap_err());
        let expected = format!(
            "{}: not a CardJitsu game record: invalid type: integer `3`, expected a string at line {line} column ",
            file.display()
        );
        assert!(err.starts_with(&expected), "{err}");
        // Inside a part read as a whole (the engine's record, flattened
        // in), the position is where that part ends.
        let mut value = serde_json::to_value(cardjitsu(3)).unwrap();
        value["rounds"][1]["choices"] = "x".into();
        std::fs::write(&file, value.to_string()).unwrap();
        let err = chain(&load_file(&file).unwrap_err());
        assert!(
            err.contains(
                "invalid type: string \"x\", expected an array of length 2 at line 1 column "
            ),
            "{err}"
        );

        // A stored record names the line of games.jsonl, whatever field
        // (the record's own, or the timing kept beside it) is wrong.
        let games = dir.path().join("games.jsonl");
        let mut record = serde_json::to_value(cardjitsu(3)).unwrap();
        let timing = record.as_object_mut().unwrap().remove("timing").unwrap();
        record["rounds"][0]["choices"] = "x".into();
        let err = parse_stored(&games, 12, &record.to_string(), &timing.to_string()).unwrap_err();
        assert_eq!(
            chain(&err),
            format!(
                "{}: line 12: not a CardJitsu game record: invalid type: string \"x\", expected an array of length 2",
                games.display()
            )
        );
        // A games.jsonl line copied into a file: its line of that file.
        let copied = serde_json::json!({ "id": 12, "record": record, "timing": timing });
        std::fs::write(&file, format!("\n{copied}\n")).unwrap();
        let err = load_file(&file).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}: line 2: not a CardJitsu game record", file.display())
        );
        let record = serde_json::to_value(cardjitsu(3)).unwrap();
        let mut record = record.as_object().unwrap().clone();
        record.remove("timing");
        let record = Value::Object(record).to_string();
        let err = parse_stored(&games, 3, &record, r#"{"wall_ms":"slow"}"#).unwrap_err();
        assert_eq!(
            chain(&err),
            format!(
                "{}: line 3: not a CardJitsu game record: timing: invalid type: string \"slow\", expected f64",
                games.display()
            )
        );
    }

    #[test]
    fn bad_records_name_the_file_and_what_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.json");
        let err = |text: &str| {
            std::fs::write(&file, text).unwrap();
            load_file(&file).unwrap_err()
        };
        assert!(matches!(err("{"), ReplayError::NotJson { .. }));
        let unknown = err(r#"{"game": "chess"}"#);
        assert!(unknown.to_string().contains("game.json"), "{unknown}");
        assert!(
            unknown.to_string().ends_with("found \"chess\""),
            "{unknown}"
        );
        assert!(
            matches!(err("[1, 2]"), ReplayError::UnknownGame { found, .. } if found.is_empty())
        );
        assert!(
            matches!(err(r#"{"game": 5}"#), ReplayError::UnknownGame { found, .. } if found.is_empty())
        );
        let bad = err(r#"{"game": "royale"}"#);
        assert_eq!(
            bad.to_string(),
            format!("{}: not a royale game record", file.display())
        );
        assert!(
            chain(&bad).ends_with("missing field `version` at line 1 column 18"),
            "{}",
            chain(&bad)
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

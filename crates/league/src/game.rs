//! One game: the referee built from a setup, played through the runner, and
//! the JSON game record that `dojo match --json`, `games.jsonl` and
//! `dojo replay` share.
//!
//! A record is the engine's record of the game (flattened in), who sat
//! where, what each bot did wrong, and timings. Everything but `timing` is a
//! function of the seed and the bots' answers, so deterministic bots give a
//! byte-identical record apart from `timing`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use dojo_engine::cardjitsu::{self, CardJitsu};
use dojo_engine::rng::derive_seed;
use dojo_engine::royale::{self, Board, Royale, Team};
use dojo_runner::{BotSpec, FaultCounts, MatchRun, Mode, RunError, RunOptions, Seat};
use serde::{Deserialize, Serialize};

/// Version of the game-record format (see FORMATS.md and docs/records.md).
/// Version 2 added each seat's `dir` and `fingerprint`; version 1 records
/// still load (their seats are found by name under the bots directory).
pub const RECORD_VERSION: u32 = 2;

/// Who sat in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// 0-based seat index, as in the engine records (CardJitsu: player number - 1).
    pub seat: usize,
    pub bot: String,
    pub command: Vec<String>,
    /// The directory the bot ran in (absolute): where `--rerun` finds it
    /// again. Absent in version 1 records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// [`dojo_runner::fingerprint`] of the bot as it played: `--rerun`
    /// refuses a bot that has changed since. Absent in version 1 records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Royale: the team the seat plays for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<Team>,
}

/// What one seat's processes did, apart from their moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatConduct {
    #[serde(flatten)]
    pub faults: FaultCounts,
    /// Processes started, the first included.
    pub spawns: u32,
    /// Lines written while no prompt was outstanding.
    pub unsolicited: u32,
    /// Declared or detected process mode.
    pub mode: Mode,
}

/// Timings: the only part of a record that differs between two plays of
/// the same seeded game with the same deterministic bots.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub wall_ms: f64,
    /// Per seat, microseconds from each prompt to its answer or timeout.
    pub latency_us: Vec<Vec<u64>>,
}

/// A played CardJitsu game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardJitsuRecord {
    pub version: u32,
    /// Always `"cardjitsu"`.
    pub game: String,
    pub seats: Vec<SeatInfo>,
    /// Where each seat's deck came from (`standard` or a file path).
    pub decks: [String; 2],
    #[serde(flatten)]
    pub play: cardjitsu::GameRecord,
    pub conduct: Vec<SeatConduct>,
    /// Per seat, per prompt: what the bot wrote to stderr (see
    /// `dojo_runner::SeatRun::stderr_by_prompt`). Only kept on request
    /// (`dojo match --keep-stderr`), and omitted when no seat wrote
    /// anything, so records without it are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Vec<String>>,
    pub timing: Timing,
}

/// A played royale game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoyaleRecord {
    pub version: u32,
    /// Always `"royale"`.
    pub game: String,
    pub seats: Vec<SeatInfo>,
    /// The board file the game was played on.
    pub board_file: String,
    #[serde(flatten)]
    pub play: royale::GameRecord,
    pub conduct: Vec<SeatConduct>,
    /// Per seat, per prompt: what the bot wrote to stderr (see
    /// `dojo_runner::SeatRun::stderr_by_prompt`). Only kept on request
    /// (`dojo match --keep-stderr`), and omitted when no seat wrote
    /// anything, so records without it are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Vec<String>>,
    pub timing: Timing,
}

impl CardJitsuRecord {
    /// Per seat: 1 win, 0.5 draw, 0 loss (a draw until the game is over).
    pub fn scores(&self) -> Vec<f64> {
        (0..2)
            .map(|s| self.play.outcome.as_ref().map_or(0.5, |o| o.score(s)))
            .collect()
    }
}

impl RoyaleRecord {
    /// Per seat: 1 if its team won, 0.5 for a draw, 0 otherwise.
    pub fn scores(&self) -> Vec<f64> {
        self.play
            .players
            .iter()
            .map(|p| self.play.outcome.as_ref().map_or(0.5, |o| o.score(p.team)))
            .collect()
    }
}

/// Everything that fixes a CardJitsu game apart from the bots.
#[derive(Debug, Clone)]
pub struct CardJitsuSetup {
    pub seed: u64,
    pub settings: cardjitsu::Settings,
    /// Names of the decks in `settings`, for the record.
    pub deck_names: [String; 2],
}

/// Everything that fixes a royale game apart from the bots.
#[derive(Debug, Clone)]
pub struct RoyaleSetup {
    pub seed: u64,
    pub board: Board,
    pub board_file: String,
    pub settings: royale::Settings,
}

/// The environment every bot process gets: the game, its seat and a seed
/// of its own (so a bot that wants randomness can still replay exactly).
fn seat_env(game: &str, seed: u64, seat: usize) -> Vec<(String, String)> {
    vec![
        ("DOJO_GAME".into(), game.into()),
        ("DOJO_SEAT".into(), (seat + 1).to_string()),
        (
            "DOJO_SEED".into(),
            derive_seed(seed, &[seat as u64]).to_string(),
        ),
    ]
}

fn seat_info(seat: usize, bot: &BotSpec, team: Option<Team>) -> SeatInfo {
    SeatInfo {
        seat,
        bot: bot.name.clone(),
        command: bot.command.clone(),
        dir: Some(bot.dir.display().to_string()),
        fingerprint: Some(cached_fingerprint(bot)),
        team,
    }
}

/// [`dojo_runner::fingerprint`], computed once per bot and process: a
/// league plays the same (already built) bots thousands of times, and
/// hashing a bot's files for every game would cost more than its moves.
pub fn cached_fingerprint(bot: &BotSpec) -> String {
    type Cache = Mutex<HashMap<(PathBuf, Vec<String>), String>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (bot.dir.clone(), bot.command.clone());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return found;
    }
    let print = dojo_runner::fingerprint(bot);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, print.clone());
    }
    print
}

/// A run's per-seat results: conduct, stderr by prompt (empty when no seat
/// wrote anything) and timing.
fn conduct_and_timing(
    run: MatchRun,
    started: Instant,
) -> (Vec<SeatConduct>, Vec<Vec<String>>, Timing) {
    let mut timing = Timing {
        wall_ms: started.elapsed().as_secs_f64() * 1000.0,
        latency_us: Vec::new(),
    };
    let mut stderr = Vec::new();
    let conduct = run
        .seats
        .into_iter()
        .map(|s| {
            timing.latency_us.push(s.latencies_us);
            stderr.push(s.stderr_by_prompt);
            SeatConduct {
                faults: s.faults,
                spawns: s.spawns,
                unsolicited: s.unsolicited,
                mode: s.mode,
            }
        })
        .collect();
    if stderr.iter().flatten().all(String::is_empty) {
        stderr.clear();
    }
    (conduct, stderr, timing)
}

/// Plays one CardJitsu game; `observer` sees the game after every round.
pub fn play_cardjitsu(
    bots: [Arc<BotSpec>; 2],
    setup: &CardJitsuSetup,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&CardJitsu),
) -> Result<CardJitsuRecord, RunError> {
    let started = Instant::now();
    let mut game = CardJitsu::new(setup.seed, setup.settings.clone());
    let seats: Vec<Seat> = bots
        .iter()
        .enumerate()
        .map(|(i, bot)| Seat {
            bot: Arc::clone(bot),
            env: seat_env("cardjitsu", setup.seed, i),
        })
        .collect();
    let run = dojo_runner::play_with_observer(&mut game, &seats, opts, observer)?;
    let (conduct, stderr, timing) = conduct_and_timing(run, started);
    Ok(CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats: bots
            .iter()
            .enumerate()
            .map(|(i, b)| seat_info(i, b, None))
            .collect(),
        decks: setup.deck_names.clone(),
        play: game.into_record(),
        conduct,
        stderr,
        timing,
    })
}

/// A royale game could not be set up (no players, a zero limit).
#[derive(Debug, thiserror::Error)]
pub enum RoyaleError {
    #[error(transparent)]
    Setup(#[from] royale::SetupError),
    #[error(transparent)]
    Run(#[from] RunError),
}

/// Plays one royale game with one seat per `(bot, team)`; `observer` sees
/// the game after every turn.
pub fn play_royale(
    players: &[(Arc<BotSpec>, Team)],
    setup: &RoyaleSetup,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&Royale),
) -> Result<RoyaleRecord, RoyaleError> {
    let started = Instant::now();
    let teams = players.iter().map(|(_, t)| *t).collect();
    let mut game = Royale::new(setup.board.clone(), teams, setup.seed, setup.settings)?;
    let seats: Vec<Seat> = players
        .iter()
        .enumerate()
        .map(|(i, (bot, team))| {
            let mut env = seat_env("royale", setup.seed, i);
            env.push(("DOJO_TEAM".into(), team.to_string()));
            Seat {
                bot: Arc::clone(bot),
                env,
            }
        })
        .collect();
    let run = dojo_runner::play_with_observer(&mut game, &seats, opts, observer)?;
    let (conduct, stderr, timing) = conduct_and_timing(run, started);
    Ok(RoyaleRecord {
        version: RECORD_VERSION,
        game: "royale".into(),
        seats: players
            .iter()
            .enumerate()
            .map(|(i, (b, t))| seat_info(i, b, Some(*t)))
            .collect(),
        board_file: setup.board_file.clone(),
        play: game.record(),
        conduct,
        stderr,
        timing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(stderr: Vec<Vec<String>>) -> CardJitsuRecord {
        let mut game = CardJitsu::new(3, cardjitsu::Settings::default());
        game.play([0, 0]);
        CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats: Vec::new(),
            decks: ["standard".into(), "standard".into()],
            play: game.into_record(),
            conduct: Vec::new(),
            stderr,
            timing: Timing::default(),
        }
    }

    #[test]
    fn stderr_is_omitted_when_empty_and_round_trips_when_kept() {
        let plain = serde_json::to_value(record(Vec::new())).unwrap();
        assert!(plain.get("stderr").is_none());
        let back: CardJitsuRecord = serde_json::from_value(plain).unwrap();
        assert!(back.stderr.is_empty());

        let kept = record(vec![vec!["hi\n".into()], vec![String::new()]]);
        let value = serde_json::to_value(&kept).unwrap();
        assert_eq!(value["stderr"][0][0], "hi\n");
        assert_eq!(
            serde_json::from_value::<CardJitsuRecord>(value).unwrap(),
            kept
        );
    }
}

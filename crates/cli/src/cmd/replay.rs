//! `dojo replay`: a saved game shown again from its record (no bot runs),
//! or played again with `--rerun` to check that its bots are deterministic.
//!
//! Exit status: 0 when shown, or when a rerun came out identical; 1 when a
//! rerun differs; 2 for usage errors (clap); [`ERROR_EXIT`] for any other
//! error (an unreadable record, a bot that cannot be found or started), so
//! a script never mistakes a broken setup for a nondeterministic bot.
//!
//! `--rerun` finds each seat's bot by its recorded name: first a bot under
//! the bots directory whose manifest name (or directory name) is that
//! name; failing that, an inline bot running the recorded command in the
//! current directory (bots given as `NAME=COMMAND` are recorded with their
//! program made absolute, so this works from anywhere unless their
//! arguments were relative paths). Decks are re-read from the recorded
//! names (`standard`, or a file path relative to the current directory);
//! royale boards from the recorded board file when it still holds the
//! recorded grid (keeping its `start` lines), else from the grid stored in
//! the record.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dojo_engine::cardjitsu::{self, Deck};
use dojo_engine::royale::{self, ActionRecord, Board, Effect, Pos};
use dojo_league::game::{
    CardJitsuRecord, CardJitsuSetup, RoyaleRecord, RoyaleSetup, SeatInfo, play_cardjitsu,
    play_royale,
};
use dojo_league::store;
use dojo_runner::{BotSpec, MANIFEST_FILE, Mode};
use serde::Serialize;

use crate::args::ReplayArgs;
use crate::{bots, render};

/// Exit status for errors other than usage errors; distinct from 1, which
/// means "the rerun differs".
pub const ERROR_EXIT: u8 = 3;

/// A saved game of either kind.
#[derive(Debug)]
pub enum Saved {
    CardJitsu(Box<CardJitsuRecord>),
    Royale(Box<RoyaleRecord>),
}

pub fn run(bots_dir: &Path, a: ReplayArgs) -> ExitCode {
    match replay(bots_dir, &a) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(ERROR_EXIT)
        }
    }
}

fn replay(bots_dir: &Path, a: &ReplayArgs) -> Result<ExitCode> {
    let saved = load(&a.record, a.game)?;
    match (saved, a.rerun) {
        (Saved::CardJitsu(rec), false) => {
            print!("{}", show_cardjitsu(&rec, a.turn, a.stderr)?);
            Ok(ExitCode::SUCCESS)
        }
        (Saved::Royale(rec), false) => {
            show_royale(&rec, a)?;
            Ok(ExitCode::SUCCESS)
        }
        (Saved::CardJitsu(rec), true) => rerun_cardjitsu(bots_dir, &rec, a),
        (Saved::Royale(rec), true) => rerun_royale(bots_dir, &rec, a),
    }
}

/// Reads a record: the JSON file `dojo match --json` wrote, or with
/// `game`, the game with that id in the league directory `path`.
pub fn load(path: &Path, game: Option<u64>) -> Result<Saved> {
    let name = path.display().to_string();
    let value = match game {
        Some(id) => {
            if !path.is_dir() {
                bail!("{name}: --game expects a league directory (holding games.jsonl)");
            }
            let lines = store::read_games(path, false)?;
            let count = lines.len();
            let line = lines.into_iter().find(|l| l.id == id).with_context(|| {
                format!(
                    "{}: no game with id {id} ({count} game(s) stored)",
                    path.join(store::GAMES_FILE).display()
                )
            })?;
            with_timing(line.record, line.timing)
        }
        None => {
            if path.is_dir() {
                bail!("{name} is a directory: name a game of its games.jsonl with --game ID");
            }
            let text = super::read_text(path)?;
            let value: serde_json::Value = serde_json::from_str(text.trim())
                .with_context(|| format!("{name}: expected a game record (one JSON object)"))?;
            // A line copied out of games.jsonl works too.
            match (value.get("record"), value.get("timing")) {
                (Some(rec), Some(timing)) => with_timing(rec.clone(), timing.clone()),
                _ => value,
            }
        }
    };
    let kind = value.get("game").and_then(|g| g.as_str()).unwrap_or("");
    match kind {
        "cardjitsu" => Ok(Saved::CardJitsu(Box::new(
            serde_json::from_value(value)
                .with_context(|| format!("{name}: not a CardJitsu game record"))?,
        ))),
        "royale" => Ok(Saved::Royale(Box::new(
            serde_json::from_value(value)
                .with_context(|| format!("{name}: not a royale game record"))?,
        ))),
        other => bail!(
            "{name}: expected a game record with \"game\": \"cardjitsu\" or \"royale\", found {other:?}"
        ),
    }
}

/// The league stores `timing` beside the record; put it back inside.
fn with_timing(mut record: serde_json::Value, timing: serde_json::Value) -> serde_json::Value {
    if let Some(obj) = record.as_object_mut() {
        obj.insert("timing".into(), timing);
    }
    record
}

/// The stderr seat `seat` wrote for its prompt `prompt`, as indented lines
/// (nothing when none was kept).
fn stderr_beside(stderr: &[Vec<String>], seat: usize, prompt: usize, label: &str) -> String {
    let mut out = String::new();
    if let Some(text) = stderr.get(seat).and_then(|s| s.get(prompt)) {
        for line in text.lines() {
            let _ = writeln!(out, "  {label} stderr| {line}");
        }
    }
    out
}

/// The CardJitsu transcript, as `dojo match` prints it; with `turn`, only
/// that round; with `stderr`, each bot's stderr under its round.
pub fn show_cardjitsu(rec: &CardJitsuRecord, turn: Option<usize>, stderr: bool) -> Result<String> {
    let blocks = render::cardjitsu::rounds(rec);
    let beside = |i: usize| {
        if !stderr {
            return String::new();
        }
        (0..2)
            .map(|seat| stderr_beside(&rec.stderr, seat, i, &format!("P{}", seat + 1)))
            .collect()
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", render::cardjitsu::header(rec));
    if let Some(n) = turn {
        let block = n
            .checked_sub(1)
            .and_then(|i| blocks.get(i))
            .with_context(|| format!("no round {n}: the game has rounds 1 to {}", blocks.len()))?;
        out.push_str(block);
        out.push_str(&beside(n - 1));
        return Ok(out);
    }
    if stderr && rec.stderr.is_empty() {
        eprintln!("note: this record holds no stderr (play it with `dojo match --keep-stderr`)");
    }
    for (i, block) in blocks.iter().enumerate() {
        out.push_str(block);
        out.push_str(&beside(i));
    }
    let _ = writeln!(out, "result: {}", render::cardjitsu::result(rec));
    for line in render::cardjitsu::conduct(rec) {
        let _ = writeln!(out, "faults: {line}");
    }
    Ok(out)
}

/// A royale board being rebuilt from a record: the initial grid and start
/// tiles, then each action's recorded effect.
#[derive(Debug, Clone)]
pub struct RoyaleReplay {
    pub board: Board,
    pub positions: Vec<Pos>,
}

impl RoyaleReplay {
    /// The board before any turn.
    pub fn new(rec: &RoyaleRecord) -> Result<RoyaleReplay> {
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

    fn show(&self, ansi: bool) -> String {
        format!(
            "{}\n{}",
            render::royale::counts(self.board.counts()),
            render::royale::board(&self.board, &self.positions, ansi)
        )
    }
}

/// For each turn, the index of its seat's prompt (its how-manieth turn).
fn prompt_indices(actions: &[ActionRecord]) -> Vec<usize> {
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

fn royale_header(rec: &RoyaleRecord, state: &RoyaleReplay) -> String {
    format!(
        "Royale on {} (seed {}), {}x{}",
        rec.board_file,
        rec.play.seed,
        state.board.width(),
        state.board.height()
    )
}

/// The royale boards: all of them after each turn, one (`--turn`), or
/// animated (`--watch`).
fn show_royale(rec: &RoyaleRecord, a: &ReplayArgs) -> Result<()> {
    let mut state = RoyaleReplay::new(rec)?;
    let actions = &rec.play.actions;
    let prompts = prompt_indices(actions);
    let beside = |i: usize| {
        if !a.stderr {
            return String::new();
        }
        let seat = actions[i].seat;
        stderr_beside(&rec.stderr, seat, prompts[i], &format!("seat {seat}"))
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{}", royale_header(rec, &state))?;
    if let Some(n) = a.turn {
        if n > actions.len() {
            bail!("no turn {n}: the game has turns 0 to {}", actions.len());
        }
        for action in &actions[..n] {
            state.apply(action);
        }
        if n == 0 {
            writeln!(out, "turn 0: before any turn")?;
        } else {
            writeln!(out, "{}", render::royale::turn_line(rec, n - 1))?;
            write!(out, "{}", beside(n - 1))?;
        }
        write!(out, "{}", state.show(false))?;
        return Ok(());
    }
    if a.stderr && rec.stderr.is_empty() {
        eprintln!("note: this record holds no stderr (play it with `dojo match --keep-stderr`)");
    }
    let ansi = a.watch && stdout.is_terminal();
    let clear = if ansi { "\x1b[H\x1b[2J" } else { "" };
    let delay = Duration::from_millis(a.delay_ms);
    let header = royale_header(rec, &state);
    if a.watch {
        write!(out, "{clear}{header}\nturn 0: before any turn\n")?;
    } else {
        writeln!(out, "turn 0: before any turn")?;
    }
    write!(out, "{}", state.show(ansi))?;
    for (i, action) in actions.iter().enumerate() {
        state.apply(action);
        if a.watch {
            out.flush()?;
            std::thread::sleep(delay);
            writeln!(out, "{clear}{header}")?;
        } else {
            writeln!(out)?;
        }
        writeln!(out, "{}", render::royale::turn_line(rec, i))?;
        write!(out, "{}", beside(i))?;
        write!(out, "{}", state.show(ansi))?;
    }
    writeln!(out)?;
    write!(out, "{}", render::royale::summary(rec))?;
    Ok(())
}

/// The bot for a recorded seat (see the module docs for the order).
fn seat_bot(seat: &SeatInfo, bots_dir: &Path) -> Result<BotSpec> {
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
    if let Some(bot) = found {
        if bot.command != seat.command {
            eprintln!(
                "note: seat {}: {} now runs {:?} (recorded: {:?})",
                seat.seat, bot.name, bot.command, seat.command
            );
        }
        return Ok(bot);
    }
    if seat.command.is_empty() {
        bail!(
            "seat {}: no bot {:?} under {} and no recorded command to run",
            seat.seat,
            seat.bot,
            bots_dir.display()
        );
    }
    eprintln!(
        "note: seat {}: no bot {:?} under {}; running its recorded command {:?} in the current directory",
        seat.seat,
        seat.bot,
        bots_dir.display(),
        seat.command
    );
    Ok(BotSpec {
        name: seat.bot.clone(),
        command: seat.command.clone(),
        dir: std::env::current_dir().context("reading the current directory")?,
        build: None,
        mode: Mode::Auto,
        games: Vec::new(),
        team: None,
        description: None,
    })
}

/// Every seat's bot, each distinct bot built once.
fn seat_bots(seats: &[SeatInfo], bots_dir: &Path) -> Result<Vec<Arc<BotSpec>>> {
    let mut built: HashMap<(String, Vec<String>), Arc<BotSpec>> = HashMap::new();
    let mut out = Vec::with_capacity(seats.len());
    for seat in seats {
        let key = (seat.bot.clone(), seat.command.clone());
        if let Some(bot) = built.get(&key) {
            out.push(Arc::clone(bot));
            continue;
        }
        let bot = Arc::new(seat_bot(seat, bots_dir)?);
        bots::build(&bot)?;
        built.insert(key, Arc::clone(&bot));
        out.push(bot);
    }
    Ok(out)
}

fn recorded_deck(name: &str) -> Result<Deck> {
    if name == "standard" {
        return Ok(Deck::standard());
    }
    let text = super::read_text(Path::new(name)).context("re-reading a recorded deck")?;
    Ok(Deck::parse_dcfg(&text, name)?)
}

/// A record as JSON without the parts that may differ between two plays
/// of the same game: `timing`, and the bots' stderr.
fn comparable(rec: &impl Serialize) -> Result<serde_json::Map<String, serde_json::Value>> {
    let value = serde_json::to_value(rec).context("serialising a record")?;
    let mut map = match value {
        serde_json::Value::Object(map) => map,
        _ => bail!("a record is not a JSON object"),
    };
    map.remove("timing");
    map.remove("stderr");
    Ok(map)
}

/// Top-level fields whose values differ, with both values.
fn differing_fields(saved: &impl Serialize, rerun: &impl Serialize) -> Result<String> {
    let (a, b) = (comparable(saved)?, comparable(rerun)?);
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = String::new();
    for key in keys {
        if a.get(key) != b.get(key) {
            let show = |v: Option<&serde_json::Value>| {
                v.map_or_else(|| "(absent)".to_owned(), serde_json::Value::to_string)
            };
            let _ = writeln!(out, "  {key}:\n    saved: {}", show(a.get(key)));
            let _ = writeln!(out, "    rerun: {}", show(b.get(key)));
        }
    }
    Ok(out)
}

/// Prints the verdict; exit status 0 (identical) or 1 (differs).
fn verdict(
    saved: &impl Serialize,
    rerun: &impl Serialize,
    first: Option<(String, String, String)>,
) -> Result<ExitCode> {
    if comparable(saved)? == comparable(rerun)? {
        println!("identical: the rerun played the same game (timing and stderr aside)");
        return Ok(ExitCode::SUCCESS);
    }
    match first {
        Some((what, a, b)) => {
            println!("differs: first at {what}");
            print!("saved:\n{a}rerun:\n{b}");
        }
        None => {
            println!("differs: the moves are the same, but these fields are not:");
            print!("{}", differing_fields(saved, rerun)?);
        }
    }
    Ok(ExitCode::from(1))
}

/// The first round where two CardJitsu records part: its name and both
/// versions of it.
pub fn first_difference_cardjitsu(
    saved: &CardJitsuRecord,
    rerun: &CardJitsuRecord,
) -> Option<(String, String, String)> {
    let (a, b) = (&saved.play.rounds, &rerun.play.rounds);
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let show = |rec: &CardJitsuRecord| {
        render::cardjitsu::rounds(rec)
            .get(i)
            .cloned()
            .unwrap_or_else(|| {
                format!(
                    "  (no round {}: the game ended after {} rounds)\n",
                    i + 1,
                    rec.play.rounds.len()
                )
            })
    };
    Some((format!("round {}", i + 1), show(saved), show(rerun)))
}

/// The first turn where two royale records part (or their setup, if the
/// start tiles or turn order already differ).
pub fn first_difference_royale(
    saved: &RoyaleRecord,
    rerun: &RoyaleRecord,
) -> Option<(String, String, String)> {
    let (a, b) = (&saved.play.actions, &rerun.play.actions);
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let show = |rec: &RoyaleRecord| {
        if i < rec.play.actions.len() {
            format!("  {}\n", render::royale::turn_line(rec, i))
        } else {
            format!(
                "  (no turn {}: the game ended after {} turns)\n",
                i + 1,
                rec.play.actions.len()
            )
        }
    };
    Some((format!("turn {}", i + 1), show(saved), show(rerun)))
}

fn rerun_cardjitsu(bots_dir: &Path, rec: &CardJitsuRecord, a: &ReplayArgs) -> Result<ExitCode> {
    if rec.seats.len() != 2 {
        bail!(
            "a CardJitsu record needs 2 seats, this one has {}",
            rec.seats.len()
        );
    }
    let loaded = seat_bots(&rec.seats, bots_dir)?;
    let setup = CardJitsuSetup {
        seed: rec.play.seed,
        settings: cardjitsu::Settings {
            rules: rec.play.rules,
            max_rounds: rec.play.max_rounds,
            decks: [recorded_deck(&rec.decks[0])?, recorded_deck(&rec.decks[1])?],
        },
        deck_names: rec.decks.clone(),
    };
    bots::on_ctrl_c(false);
    println!("{}", render::cardjitsu::header(rec));
    let new = play_cardjitsu(
        [Arc::clone(&loaded[0]), Arc::clone(&loaded[1])],
        &setup,
        &super::run_options(&a.time),
        &mut |_| {},
    )?;
    verdict(rec, &new, first_difference_cardjitsu(rec, &new))
}

/// The board to play a rerun on: the recorded file if it still holds the
/// recorded grid (its `start` lines matter), else the recorded grid.
fn rerun_board(rec: &RoyaleRecord) -> Result<Board> {
    let path = Path::new(&rec.board_file);
    if let Ok(text) = std::fs::read_to_string(path) {
        if let Ok(board) = Board::parse(&text, &rec.board_file)
            && board.to_lines() == rec.play.board
        {
            return Ok(board);
        }
        eprintln!(
            "note: {} no longer holds the recorded board; using the board stored in the record",
            rec.board_file
        );
    }
    Ok(Board::parse(
        &rec.play.board.join("\n"),
        "the record's board",
    )?)
}

fn rerun_royale(bots_dir: &Path, rec: &RoyaleRecord, a: &ReplayArgs) -> Result<ExitCode> {
    let loaded = seat_bots(&rec.seats, bots_dir)?;
    let mut players = Vec::with_capacity(loaded.len());
    for (seat, bot) in loaded.into_iter().enumerate() {
        let team = rec
            .play
            .players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.team)
            .with_context(|| format!("the record has no team for seat {seat}"))?;
        players.push((bot, team));
    }
    let board = rerun_board(rec)?;
    let setup = RoyaleSetup {
        seed: rec.play.seed,
        board,
        board_file: rec.board_file.clone(),
        settings: royale::Settings {
            max_rounds: Some(rec.play.settings.max_rounds),
            stall_rounds: Some(rec.play.settings.stall_rounds),
        },
    };
    bots::on_ctrl_c(false);
    let new = play_royale(&players, &setup, &super::run_options(&a.time), &mut |_| {})?;
    println!("Royale on {} (seed {})", rec.board_file, rec.play.seed);
    verdict(rec, &new, first_difference_royale(rec, &new))
}

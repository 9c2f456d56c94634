//! `dojo replay`: a saved game shown again from its record (no bot runs),
//! or played again with `--rerun` to check that its bots are deterministic.
//! Loading, rebuilding, rerunning and comparing records is
//! [`dojo_league::replay`]; this module renders and prints.
//!
//! Exit status (see [`crate::exit`]): 0 when shown, or when a rerun came
//! out identical; 1 when a rerun differs; 3 for any error (an unreadable or
//! corrupt record, a bot that is gone, changed or cannot be started), so a
//! script never mistakes a broken setup for a nondeterministic bot.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use dojo_games::{CardJitsuRecord, RoyaleRecord, SeatInfo};
use dojo_league::replay::{
    self, BoardSource, BotSource, Difference, ReplayError, RoyaleReplay, Saved,
};
use dojo_league::view::RecordSource;
use dojo_runner::BotSpec;

use crate::args::ReplayArgs;
use crate::{bots, games};

pub fn run(bots_dir: &Path, a: &ReplayArgs) -> Result<ExitCode> {
    let saved = load(&a.record, a.game)?;
    if a.watch && matches!(saved, Saved::CardJitsu(_)) {
        bail!(
            "--watch only applies to royale records; {} holds a CardJitsu game",
            a.record.display()
        );
    }
    if let Some(path) = &a.html {
        let record = a.record.display().to_string();
        let source = match a.game {
            Some(id) => RecordSource::League { dir: record, id },
            None => RecordSource::File(record),
        };
        crate::html::write(path, &crate::html::replay(&saved, &source)?)?;
        outln!("replay page: {}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    match (saved, a.rerun) {
        (Saved::CardJitsu(rec), false) => {
            out!("{}", show_cardjitsu(&rec, a.turn, a.stderr)?);
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

/// [`replay::load`], with the two directory mix-ups told in terms of the
/// `--game` flag.
fn load(path: &Path, game: Option<u64>) -> Result<Saved> {
    replay::load(path, game).map_err(|err| match err {
        ReplayError::NotALeague { path } => anyhow!(
            "{}: --game expects a league directory (holding games.jsonl)",
            path.display()
        ),
        ReplayError::IsADirectory { path } => anyhow!(
            "{} is a directory: name a game of its games.jsonl with --game ID",
            path.display()
        ),
        other => other.into(),
    })
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
    let blocks = games::cardjitsu::transcript::rounds(rec);
    let beside = |i: usize| {
        if !stderr {
            return String::new();
        }
        (0..2)
            .map(|seat| stderr_beside(&rec.stderr, seat, i, &format!("P{}", seat + 1)))
            .collect()
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", games::cardjitsu::transcript::header(rec));
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
        errln!("note: this record holds no stderr (play it with `dojo match --keep-stderr`)");
    }
    for (i, block) in blocks.iter().enumerate() {
        out.push_str(block);
        out.push_str(&beside(i));
    }
    let _ = writeln!(out, "result: {}", games::cardjitsu::transcript::result(rec));
    for line in games::cardjitsu::transcript::conduct(rec) {
        let _ = writeln!(out, "faults: {line}");
    }
    Ok(out)
}

/// A rebuilt board with its tile counts above it.
fn show_state(state: &RoyaleReplay, ansi: bool) -> String {
    format!(
        "{}\n{}",
        games::royale::transcript::counts(state.board.counts()),
        games::royale::transcript::board(&state.board, &state.positions, ansi)
    )
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
    let prompts = replay::prompt_indices(actions);
    let beside = |i: usize| {
        if !a.stderr {
            return String::new();
        }
        let seat = actions[i].seat;
        stderr_beside(&rec.stderr, seat, prompts[i], &format!("seat {seat}"))
    };
    outln!("{}", royale_header(rec, &state));
    if let Some(n) = a.turn {
        if n > actions.len() {
            bail!("no turn {n}: the game has turns 0 to {}", actions.len());
        }
        for action in &actions[..n] {
            state.apply(action);
        }
        if n == 0 {
            outln!("turn 0: before any turn");
        } else {
            outln!("{}", games::royale::transcript::turn_line(rec, n - 1));
            out!("{}", beside(n - 1));
        }
        out!("{}", show_state(&state, false));
        return Ok(());
    }
    if a.stderr && rec.stderr.is_empty() {
        errln!("note: this record holds no stderr (play it with `dojo match --keep-stderr`)");
    }
    let ansi = a.watch && std::io::stdout().is_terminal();
    let clear = if ansi { "\x1b[H\x1b[2J" } else { "" };
    let delay = Duration::from_millis(a.delay_ms);
    let header = royale_header(rec, &state);
    if a.watch {
        out!("{clear}{header}\nturn 0: before any turn\n");
    } else {
        outln!("turn 0: before any turn");
    }
    out!("{}", show_state(&state, ansi));
    for (i, action) in actions.iter().enumerate() {
        state.apply(action);
        if crate::output::stdout_closed() {
            // Nobody reads any more (`| head`): stop showing.
            return Ok(());
        }
        if a.watch {
            std::thread::sleep(delay);
            outln!("{clear}{header}");
        } else {
            outln!();
        }
        outln!("{}", games::royale::transcript::turn_line(rec, i));
        out!("{}", beside(i));
        out!("{}", show_state(&state, ansi));
    }
    outln!();
    out!("{}", games::royale::transcript::summary(rec));
    Ok(())
}

/// The bot for a recorded seat ([`replay::seat_bot`]), with a note when
/// it was found by name only (a record from an older dojo).
fn seat_bot(seat: &SeatInfo, bots_dir: &Path) -> Result<BotSpec> {
    let (bot, source) = replay::seat_bot(seat, bots_dir)?;
    match source {
        BotSource::RecordedDir => {}
        BotSource::BotsDir { command_changed } => {
            errln!(
                "note: seat {}: the record does not say where {} was; using {}",
                seat.seat,
                seat.bot,
                bot.dir.display()
            );
            if command_changed {
                errln!(
                    "note: seat {}: {} now runs {:?} (recorded: {:?})",
                    seat.seat,
                    bot.name,
                    bot.command,
                    seat.command
                );
            }
        }
    }
    Ok(bot)
}

/// Every seat's bot, each distinct bot built once and checked: it plays
/// `game` and is the bot that played (its fingerprint is unchanged).
fn seat_bots(seats: &[SeatInfo], bots_dir: &Path, game: &str) -> Result<Vec<Arc<BotSpec>>> {
    let mut built: HashMap<(Option<String>, String, Vec<String>), Arc<BotSpec>> = HashMap::new();
    let mut out = Vec::with_capacity(seats.len());
    for seat in seats {
        let key = (seat.dir.clone(), seat.bot.clone(), seat.command.clone());
        if let Some(bot) = built.get(&key) {
            out.push(Arc::clone(bot));
            continue;
        }
        let bot = Arc::new(seat_bot(seat, bots_dir)?);
        bots::check_game(&bot, game)?;
        bots::build(&bot)?;
        replay::check_fingerprint(seat, &bot)?;
        built.insert(key, Arc::clone(&bot));
        out.push(bot);
    }
    Ok(out)
}

/// Prints the verdict; exit status 0 (identical) or 1 (differs).
/// `moment` names a round or turn from its 0-based index; `show` renders
/// it in one record.
fn verdict<R>(
    saved: &R,
    rerun: &R,
    difference: Option<Difference>,
    moment: &str,
    show: impl Fn(&R, usize) -> String,
) -> ExitCode {
    match difference {
        None => {
            outln!("identical: the rerun played the same game (timing and stderr aside)");
            return ExitCode::SUCCESS;
        }
        Some(Difference::At(i)) => {
            outln!("differs: first at {moment} {}", i + 1);
            out!("saved:\n{}rerun:\n{}", show(saved, i), show(rerun, i));
        }
        Some(Difference::Fields(fields)) => {
            outln!("differs: the moves are the same, but these fields are not:");
            let value = |v: Option<&serde_json::Value>| {
                v.map_or_else(|| "(absent)".to_owned(), serde_json::Value::to_string)
            };
            for f in fields {
                outln!("  {}:\n    saved: {}", f.field, value(f.saved.as_ref()));
                outln!("    rerun: {}", value(f.rerun.as_ref()));
            }
        }
    }
    crate::exit::code(crate::exit::NEGATIVE)
}

/// Round `i` (0-based) of a CardJitsu record as the transcript shows it.
fn cardjitsu_round(rec: &CardJitsuRecord, i: usize) -> String {
    games::cardjitsu::transcript::rounds(rec)
        .get(i)
        .cloned()
        .unwrap_or_else(|| {
            format!(
                "  (no round {}: the game ended after {} rounds)\n",
                i + 1,
                rec.play.rounds.len()
            )
        })
}

/// Turn `i` (0-based) of a royale record as one line.
fn royale_turn(rec: &RoyaleRecord, i: usize) -> String {
    if i < rec.play.actions.len() {
        format!("  {}\n", games::royale::transcript::turn_line(rec, i))
    } else {
        format!(
            "  (no turn {}: the game ended after {} turns)\n",
            i + 1,
            rec.play.actions.len()
        )
    }
}

fn rerun_cardjitsu(bots_dir: &Path, rec: &CardJitsuRecord, a: &ReplayArgs) -> Result<ExitCode> {
    let setup = replay::cardjitsu_setup(rec)?;
    let loaded = seat_bots(&rec.seats, bots_dir, "cardjitsu")?;
    bots::on_ctrl_c(false);
    outln!("{}", games::cardjitsu::transcript::header(rec));
    let new = replay::rerun_cardjitsu(&setup, loaded, &super::run_options(&a.time))?;
    let difference = replay::compare_cardjitsu(rec, &new)?;
    Ok(verdict(rec, &new, difference, "round", cardjitsu_round))
}

fn rerun_royale(bots_dir: &Path, rec: &RoyaleRecord, a: &ReplayArgs) -> Result<ExitCode> {
    let loaded = seat_bots(&rec.seats, bots_dir, "royale")?;
    let players = replay::royale_players(rec, loaded)?;
    let (board, source) = replay::rerun_board(rec)?;
    if source == (BoardSource::Record { file_changed: true }) {
        errln!(
            "note: {} no longer holds the recorded board; using the board stored in the record",
            rec.board_file
        );
    }
    bots::on_ctrl_c(false);
    let new = replay::rerun_royale(rec, &players, board, &super::run_options(&a.time))?;
    outln!("Royale on {} (seed {})", rec.board_file, rec.play.seed);
    let difference = replay::compare_royale(rec, &new)?;
    Ok(verdict(rec, &new, difference, "turn", royale_turn))
}

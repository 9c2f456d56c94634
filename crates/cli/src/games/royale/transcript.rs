//! Royale as text: the board (coloured on a terminal) and the summary.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Result, bail};
use dojo_engine::royale::{Board, EndReason, Pos, Team, Tile, TileCounts};
use dojo_games::RoyaleRecord;
use dojo_games::royale::rebuild::{RoyaleReplay, prompt_indices};
use dojo_league::verdict::Verdict;

use crate::flags::ReplayArgs;
use crate::render::{ReplayText, no_stderr_note, stderr_beside};

const RESET: &str = "\x1b[0m";

fn colour(tile: Tile) -> &'static str {
    match tile {
        Tile::Rock => "\x1b[41;97m",
        Tile::Paper => "\x1b[44;97m",
        Tile::Scissors => "\x1b[42;30m",
        Tile::Wall => "\x1b[90m",
        Tile::Empty => "\x1b[37m",
    }
}

/// The board, one line per row; players are shown as `@` (or their count
/// when several share a tile). With `ansi`, tiles are coloured.
pub fn board(board: &Board, players: &[Pos], ansi: bool) -> String {
    let mut out = String::new();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let tile = board.get(x, y).unwrap_or(Tile::Wall);
            let here = players.iter().filter(|p| p.x == x && p.y == y).count();
            let ch = match here {
                0 => tile.to_char(),
                1 => '@',
                n => char::from_digit(n.min(9) as u32, 10).unwrap_or('@'),
            };
            if ansi {
                let _ = write!(out, "{}{ch}{RESET}", colour(tile));
            } else {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

/// `R 12  P 30  S 7  . 4`.
pub fn counts(c: &TileCounts) -> String {
    format!(
        "R {}  P {}  S {}  . {}",
        c.rock, c.paper, c.scissors, c.empty
    )
}

/// A seat's team from its role in the record; `?` for none (or one royale
/// does not have).
fn seat_team(role: Option<&dojo_games::Role>) -> &'static str {
    role.and_then(|r| dojo_games::royale::team(r).ok())
        .map_or("?", team_name)
}

fn team_name(t: Team) -> &'static str {
    match t {
        Team::Rock => "Rock",
        Team::Paper => "Paper",
        Team::Scissors => "Scissors",
    }
}

/// Winner or draw and why.
pub fn result(rec: &RoyaleRecord) -> String {
    let Some(o) = &rec.play.outcome else {
        return "unfinished".to_owned();
    };
    match (o.winner, o.reason) {
        (Some(t), EndReason::AlreadyWon) => {
            format!(
                "{} wins: the board held only its sign before any turn",
                team_name(t)
            )
        }
        (Some(t), _) => format!("{} wins in round {}", team_name(t), o.rounds),
        (None, EndReason::RoundCap) => format!(
            "draw: round cap of {} reached",
            rec.play.settings.max_rounds
        ),
        (None, EndReason::Stalled) => format!(
            "draw: no tile changed for {} whole rounds (after round {})",
            rec.play.settings.stall_rounds, o.rounds
        ),
        (None, EndReason::NoSigns) => "draw: the board holds no sign".to_owned(),
        (None, r) => format!("draw ({r:?})"),
    }
}

/// The summary `dojo match royale` prints at the end (and `dojo replay`,
/// with the league's result first when a forfeit decided the game).
pub fn summary(rec: &RoyaleRecord, forfeit: Option<&Verdict>) -> String {
    let mut out = crate::render::result_lines(&result(rec), forfeit);
    if let Some(o) = &rec.play.outcome {
        let _ = writeln!(out, "rounds played: {}", o.rounds);
        let _ = writeln!(out, "final tiles: {}", counts(&o.counts));
    }
    let _ = writeln!(out, "players:");
    for (seat, c) in rec.seats.iter().zip(&rec.conduct) {
        let team = seat_team(seat.team.as_ref());
        let illegal = rec
            .play
            .actions
            .iter()
            .filter(|a| {
                a.seat == seat.seat && a.fault == Some(dojo_engine::royale::TurnFault::Illegal)
            })
            .count();
        let _ = writeln!(
            out,
            "  seat {} {:<8} {:<20} faults: {} timeout, {} crash, {} invalid, {} illegal, {} restart",
            seat.seat + 1,
            team,
            seat.bot,
            c.faults.timeout,
            c.faults.crash,
            c.faults.invalid,
            illegal,
            c.faults.restart
        );
        if c.wrote_nothing(rec.timing.latency_us.get(seat.seat).map_or(0, Vec::len)) {
            let _ = writeln!(out, "    {}", dojo_games::record::FLUSH_HINT);
        }
    }
    out
}

/// For each seat that faulted: why, where first, and the end of its
/// stderr (see [`crate::render::fault_forensics`]). Illegal moves are the
/// rules' business, not a fault of the bot's process, and are left out.
pub fn forensics(rec: &RoyaleRecord) -> Vec<String> {
    rec.seats
        .iter()
        .zip(&rec.conduct)
        .filter(|(_, c)| c.faults.total() > 0)
        .flat_map(|(s, c)| {
            let first = rec.seat_faults(s.seat).next().map(|p| {
                (
                    p.round,
                    dojo_games::record::FaultKind::from(p.fault)
                        .word()
                        .to_owned(),
                )
            });
            let team = seat_team(s.team.as_ref());
            crate::render::fault_forensics(&crate::render::SeatFault {
                label: format!("seat {} {team} ({})", s.seat + 1, s.bot),
                conduct: c,
                prompts: rec.timing.latency_us.get(s.seat).map_or(0, Vec::len),
                first,
                stderr: rec.stderr.get(s.seat).map_or(&[], Vec::as_slice),
            })
        })
        .collect()
}

/// One line about turn `index` (0-based) of `rec`: who played what, and
/// what it did (its seat shown 1-based, as `DOJO_SEAT`). E.g.
/// `turn 4 (round 2): seat 2 Paper (bot) I L: converted (3,4) R -> P`.
pub fn turn_line(rec: &RoyaleRecord, index: usize) -> String {
    let Some(a) = rec.play.actions.get(index) else {
        return format!("turn {}: not played", index + 1);
    };
    let seat = rec.seats.get(a.seat);
    let team = rec
        .play
        .players
        .get(a.seat)
        .map(|p| team_name(p.team))
        .unwrap_or("?");
    let bot = seat.map_or("?", |s| s.bot.as_str());
    let fault = a
        .fault
        .map(|f| format!(" ({f:?} fault: played as a pass)").to_lowercase())
        .unwrap_or_default();
    let effect = match a.effect {
        dojo_engine::royale::Effect::None => "nothing changed".to_owned(),
        dojo_engine::royale::Effect::Moved { at } => format!("moved to {at}"),
        dojo_engine::royale::Effect::Converted { at, from, to } => {
            format!("converted {at} {from} -> {to}")
        }
    };
    format!(
        "turn {} (round {}): seat {} {team} ({bot}) {}{fault}: {effect}",
        index + 1,
        a.round,
        a.seat + 1,
        a.action
    )
}
/// A rebuilt board with its tile counts above it.
fn show_state(state: &RoyaleReplay, ansi: bool) -> String {
    format!(
        "{}\n{}",
        counts(state.board.counts()),
        board(&state.board, &state.positions, ansi)
    )
}

fn replay_header(rec: &RoyaleRecord, state: &RoyaleReplay) -> String {
    format!(
        "Royale on {} (seed {}), {}x{}",
        rec.board_file,
        rec.play.seed,
        state.board.width(),
        state.board.height()
    )
}

impl ReplayText for RoyaleRecord {
    /// The boards: all of them after each turn, one (`--turn`), or
    /// animated (`--watch`).
    fn show(&self, a: &ReplayArgs, forfeit: Option<&Verdict>) -> Result<()> {
        let rec = self;
        let mut state = RoyaleReplay::new(rec)?;
        let actions = &rec.play.actions;
        let prompts = prompt_indices(actions);
        let beside = |i: usize| {
            if !a.stderr {
                return String::new();
            }
            let seat = actions[i].seat;
            stderr_beside(&rec.stderr, seat, prompts[i], &format!("seat {}", seat + 1))
        };
        outln!("{}", replay_header(rec, &state));
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
                outln!("{}", turn_line(rec, n - 1));
                out!("{}", beside(n - 1));
            }
            out!("{}", show_state(&state, false));
            return Ok(());
        }
        if a.stderr && rec.stderr.is_empty() {
            no_stderr_note();
        }
        let ansi = a.watch && std::io::stdout().is_terminal();
        let clear = if ansi { "\x1b[H\x1b[2J" } else { "" };
        let delay = Duration::from_millis(a.delay_ms);
        let header = replay_header(rec, &state);
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
            outln!("{}", turn_line(rec, i));
            out!("{}", beside(i));
            out!("{}", show_state(&state, ansi));
        }
        outln!();
        out!("{}", summary(rec, forfeit));
        Ok(())
    }

    fn rerun_header(&self) -> String {
        format!("Royale on {} (seed {})", self.board_file, self.play.seed)
    }

    fn show_moment(&self, i: usize) -> String {
        if i < self.play.actions.len() {
            format!("  {}\n", turn_line(self, i))
        } else {
            format!(
                "  (no turn {}: the game ended after {} turns)\n",
                i + 1,
                self.play.actions.len()
            )
        }
    }

    fn times(&self) -> Vec<String> {
        crate::render::move_lines(&self.seats, &self.timing, seat, &[])
    }
}

/// How a seat is named beside its times and faults: `seat 1 (general)`.
pub fn seat(s: &dojo_games::SeatInfo) -> String {
    format!("seat {} ({})", s.seat + 1, s.bot)
}

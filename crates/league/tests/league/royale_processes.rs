//! Full royale games through real bot processes: the engine's referee,
//! the runner and the league's one-game glue (`play_royale`) together.
//!
//! Bots of both process modes (bots/royale-random-py exits after every
//! move, bots/faulty/royale_persistent.py stays alive) play every board in
//! boards/ to the end; misbehaving royale bots are counted and the game
//! goes on; no process outlives its game.
//!
//! As in cardjitsu_processes.rs, every bot is started through
//! `sh -c 'echo $$ >> PIDFILE; exec BOT'` to learn its process groups
//! (pgid = pid, kept by `exec`), since `play_royale` does not return them;
//! `pidfile_lists_the_runners_process_groups` checks that against the
//! runner's own `pgids`.

use std::path::PathBuf;
use std::sync::Arc;

use dojo_engine::royale::{Board, EndReason, Royale, Settings, Team, TurnFault};
use dojo_games::{RoyaleRecord, RoyaleSetup, play_royale};
use dojo_runner::{BotSpec, FaultCounts, Mode, RunOptions, Seat, process_group_alive};

use dojo_testkit::bots::{
    faulty_inline as faulty, pid_recording_options, read_pids, recording_pids,
};
use dojo_testkit::paths::{bots_dir, root as repo};

const SEED: u64 = 4_004;

/// The per-turn random bot, from its manifest.
fn per_turn() -> BotSpec {
    let bot = dojo_runner::load_dir(&bots_dir().join("royale-random-py")).unwrap();
    assert_eq!(bot.mode, Mode::PerTurn);
    bot
}

fn persistent() -> BotSpec {
    faulty("royale_persistent.py")
}

/// A persistent bot that passes when `DOJO_TEAM` is `expected` and answers
/// the invalid `X` otherwise, so the seat's faults show what it was told.
fn team_checker(expected: Team) -> BotSpec {
    const CHECK: &str = r#"
import os, sys
want = sys.argv[1]
for line in sys.stdin:
    if line.strip() == "":
        sys.stdin.readline()
        sys.stdin.readline()
        print("P" if os.environ.get("DOJO_TEAM") == want else "X", flush=True)
"#;
    let mut bot = persistent();
    bot.name = format!("expects-{expected}");
    bot.command = vec![
        "python3".into(),
        "-c".into(),
        CHECK.into(),
        expected.to_string(),
    ];
    bot
}

/// Every board file in boards/, by file name.
fn board_files() -> Vec<(String, Board)> {
    let dir = repo().join("boards");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let board = Board::parse(&text, &name).unwrap_or_else(|e| panic!("{e}"));
            (name, board)
        })
        .collect()
}

fn board(name: &str) -> Board {
    board_files()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no board {name}"))
        .1
}

fn setup(name: &str, board: Board, max_rounds: u32) -> RoyaleSetup {
    RoyaleSetup {
        seed: SEED,
        board,
        board_file: format!("boards/{name}"),
        settings: Settings {
            max_rounds: Some(max_rounds),
            stall_rounds: None,
        },
    }
}

/// For games where every bot should answer: generous, so a loaded machine
/// does not turn a slow answer into a timeout.
fn generous() -> RunOptions {
    pid_recording_options(10_000, 10_000)
}

/// For a bot that times out: short move timeout, enough startup allowance
/// for a slow interpreter.
fn quick() -> RunOptions {
    pid_recording_options(350, 1000)
}

/// A finished game and the pids (= process groups) of each seat.
struct Played {
    record: RoyaleRecord,
    pids: Vec<Vec<i32>>,
}

impl Played {
    /// Turns `seat` was asked to play.
    fn turns(&self, seat: usize) -> u64 {
        self.record
            .play
            .actions
            .iter()
            .filter(|a| a.seat == seat)
            .count() as u64
    }

    /// The engine's faults of `seat`'s turns.
    fn turn_faults(&self, seat: usize) -> Vec<Option<TurnFault>> {
        self.record
            .play
            .actions
            .iter()
            .filter(|a| a.seat == seat)
            .map(|a| a.fault)
            .collect()
    }
}

/// Plays `players` through `play_royale`, then checks what must hold for
/// any bots.
fn play(players: Vec<(BotSpec, Team)>, setup: &RoyaleSetup, opts: &RunOptions) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let pidfiles: Vec<PathBuf> = (0..players.len())
        .map(|s| tmp.path().join(format!("seat{s}.pids")))
        .collect();
    let players: Vec<(Arc<BotSpec>, Team)> = players
        .into_iter()
        .zip(&pidfiles)
        .map(|((bot, team), file)| (Arc::new(recording_pids(bot, file)), team))
        .collect();
    let mut observed = 0;
    let record = play_royale(&players, setup, opts, &mut |_: &Royale| observed += 1)
        .unwrap_or_else(|e| panic!("{}: {e}", setup.board_file));
    let played = Played {
        record,
        pids: pidfiles.iter().map(|f| read_pids(f)).collect(),
    };
    let name = &setup.board_file;
    assert_eq!(
        observed,
        played.record.play.actions.len(),
        "{name}: one observer call per turn"
    );
    check_finished(&played, name);
    for seat in 0..players.len() {
        check_conduct_matches_turns(&played, seat, name);
        check_no_survivors(&played, seat, name);
    }
    played
}

fn check_finished(played: &Played, name: &str) {
    let play = &played.record.play;
    let outcome = play.outcome.as_ref().expect("the game has an outcome");
    let max_rounds = play.settings.max_rounds;
    assert!(outcome.rounds <= max_rounds, "{name}: {outcome:?}");
    match outcome.reason {
        EndReason::AlreadyWon | EndReason::NoSigns => {
            assert_eq!(outcome.rounds, 0, "{name}");
            assert!(play.actions.is_empty(), "{name}");
        }
        EndReason::RoundCap => {
            assert_eq!(outcome.rounds, max_rounds, "{name}");
            assert_eq!(outcome.winner, None, "{name}");
        }
        EndReason::Stalled => assert_eq!(outcome.winner, None, "{name}"),
        EndReason::OneSignLeft => {
            let winner = outcome.winner.expect("a one-sign board has a winner");
            assert_eq!(outcome.counts.sole_sign(), Some(winner), "{name}");
        }
    }
    // Every round gives each seat one turn, in the fixed order.
    let order = &play.turn_order;
    for (i, action) in play.actions.iter().enumerate() {
        assert_eq!(action.seat, order[i % order.len()], "{name}: turn {i}");
        assert_eq!(action.round as usize, i / order.len() + 1, "{name}");
    }
    if let Some(last) = play.actions.last() {
        assert_eq!(last.round, outcome.rounds, "{name}");
    }
}

/// The runner's counts and the engine's per-turn faults tell one story
/// (`illegal` is the engine's own verdict on a well-formed answer).
fn check_conduct_matches_turns(played: &Played, seat: usize, name: &str) {
    let conduct = &played.record.conduct[seat];
    let faults = played.turn_faults(seat);
    let count = |kind: TurnFault| faults.iter().filter(|f| **f == Some(kind)).count() as u64;
    assert_eq!(
        (
            count(TurnFault::Timeout),
            count(TurnFault::Crash),
            count(TurnFault::Invalid)
        ),
        (
            conduct.faults.timeout,
            conduct.faults.crash,
            conduct.faults.invalid
        ),
        "{name}: seat {seat}: {conduct:?}"
    );
    assert!(
        conduct.faults.restart < u64::from(conduct.spawns.max(1)),
        "{name}: {conduct:?}"
    );
}

fn check_no_survivors(played: &Played, seat: usize, name: &str) {
    let conduct = &played.record.conduct[seat];
    assert_eq!(
        played.pids[seat].len() as u32,
        conduct.spawns,
        "{name}: seat {seat}: one pid per process started"
    );
    for &pid in &played.pids[seat] {
        assert!(
            !process_group_alive(pid),
            "{name}: seat {seat}: process group {pid} survived the game"
        );
    }
}

/// Plays one board with a per-turn seat (0) and two persistent ones and
/// checks each seat's conduct; returns how the game ended.
fn play_board(name: &str, board: Board) -> EndReason {
    let single_sign = board.counts().sole_sign().is_some();
    let setup = setup(name, board, 10);
    let players = vec![
        (per_turn(), Team::Rock),
        (persistent(), Team::Paper),
        (persistent(), Team::Scissors),
    ];
    let p = play(players, &setup, &generous());
    let outcome = p.record.play.outcome.unwrap();
    if single_sign {
        assert_eq!(outcome.reason, EndReason::AlreadyWon, "{name}");
    }
    for (seat, conduct) in p.record.conduct.iter().enumerate() {
        let turns = p.turns(seat);
        assert_eq!(
            conduct.faults,
            FaultCounts::default(),
            "{name}: {conduct:?}"
        );
        assert_eq!(conduct.unsolicited, 0, "{name}: {conduct:?}");
        if seat == 0 {
            // Exits after every move: a fresh process per turn.
            assert_eq!(u64::from(conduct.spawns), turns, "{name}: seat {seat}");
            assert_eq!(conduct.mode, Mode::PerTurn, "{name}");
        } else {
            assert_eq!(
                u64::from(conduct.spawns),
                turns.min(1),
                "{name}: seat {seat}"
            );
            if turns >= 2 {
                assert_eq!(conduct.mode, Mode::Persistent, "{name}");
            }
        }
    }
    outcome.reason
}

#[test]
fn both_process_modes_play_every_board_to_the_end() {
    let boards = board_files();
    assert!(boards.len() >= 6, "boards/ holds the documented boards");
    // One thread per board: the games mostly wait for processes to start.
    let reasons: Vec<(String, EndReason)> = std::thread::scope(|scope| {
        let games: Vec<_> = boards
            .into_iter()
            .map(|(name, board)| scope.spawn(move || (name.clone(), play_board(&name, board))))
            .collect();
        games.into_iter().map(|g| g.join().unwrap()).collect()
    });
    assert!(
        reasons.contains(&("won.txt".to_string(), EndReason::AlreadyWon)),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|(_, r)| *r == EndReason::RoundCap),
        "some board ran to the round cap: {reasons:?}"
    );
}

#[test]
fn every_seat_is_told_its_team() {
    let setup = setup("arena.txt", board("arena.txt"), 3);
    let players = vec![
        (team_checker(Team::Rock), Team::Rock),
        (team_checker(Team::Paper), Team::Paper),
        (team_checker(Team::Scissors), Team::Scissors),
        // Told Rock but expects Scissors: shows the check can fail.
        (team_checker(Team::Scissors), Team::Rock),
    ];
    let p = play(players, &setup, &generous());
    for seat in 0..3 {
        let c = &p.record.conduct[seat];
        assert_eq!(c.faults, FaultCounts::default(), "seat {seat}: {c:?}");
        assert_eq!(c.spawns, 1);
    }
    let c = &p.record.conduct[3];
    assert_eq!(c.faults.invalid, p.turns(3), "{c:?}");
    assert_eq!(p.turns(3), 3);
}

#[test]
fn half_reply_times_out_every_turn_and_the_game_goes_on() {
    let setup = setup("arena.txt", board("arena.txt"), 3);
    let players = vec![
        (faulty("royale_half_reply.py"), Team::Rock),
        (persistent(), Team::Paper),
        (persistent(), Team::Scissors),
    ];
    let p = play(players, &setup, &quick());
    let turns = p.turns(0);
    assert_eq!(turns, 3, "a turn every round until the cap");
    let c = &p.record.conduct[0];
    assert_eq!(
        c.faults,
        FaultCounts {
            timeout: turns,
            restart: turns - 1,
            ..FaultCounts::default()
        },
        "{c:?}"
    );
    assert_eq!(u64::from(c.spawns), turns);
    let actions = &p.record.play.actions;
    let first_fault = actions.iter().position(|a| a.seat == 0).unwrap();
    assert!(
        actions[first_fault + 1..].iter().any(|a| a.seat != 0),
        "others played after the timeout"
    );
    for a in actions.iter().filter(|a| a.seat == 0) {
        assert_eq!(a.fault, Some(TurnFault::Timeout));
        assert!(a.effect.is_none(), "a timed-out turn is a pass: {a:?}");
    }
}

#[test]
fn invalid_answers_are_counted_and_the_bot_stays_alive() {
    let setup = setup("frontier.txt", board("frontier.txt"), 5);
    let players = vec![
        (persistent(), Team::Rock),
        (faulty("royale_invalid.py"), Team::Paper),
        (persistent(), Team::Scissors),
    ];
    let p = play(players, &setup, &generous());
    let turns = p.turns(1);
    assert_eq!(turns, 5);
    let c = &p.record.conduct[1];
    assert_eq!(
        c.faults,
        FaultCounts {
            invalid: turns,
            ..FaultCounts::default()
        },
        "{c:?}"
    );
    assert_eq!(c.spawns, 1);
    assert!(
        p.turn_faults(1)
            .iter()
            .all(|f| *f == Some(TurnFault::Invalid))
    );
    for seat in [0, 2] {
        assert_eq!(p.record.conduct[seat].faults, FaultCounts::default());
    }
}

#[test]
fn pidfile_lists_the_runners_process_groups() {
    let tmp = tempfile::tempdir().unwrap();
    let pidfile = tmp.path().join("pids");
    let seats = vec![
        Seat::new(Arc::new(recording_pids(per_turn(), &pidfile))),
        Seat::new(Arc::new(persistent())),
    ];
    let settings = Settings {
        max_rounds: Some(3),
        stall_rounds: None,
    };
    let mut game = Royale::new(
        board("arena.txt"),
        vec![Team::Rock, Team::Scissors],
        SEED,
        settings,
    )
    .unwrap();
    let run = dojo_runner::play(&mut game, &seats, &generous()).unwrap();
    assert!(game.is_over());
    assert_eq!(run.seats[0].pgids.len(), 3, "one process per turn");
    assert_eq!(read_pids(&pidfile), run.seats[0].pgids);
    for seat in &run.seats {
        for &pgid in &seat.pgids {
            assert!(!process_group_alive(pgid), "{}: {pgid} survived", seat.bot);
        }
    }
}

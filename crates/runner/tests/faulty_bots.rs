//! Drives real subprocess bots (bots/faulty/) through a small referee
//! shaped like CardJitsu's wire protocol and checks how each kind of
//! misbehaviour is counted and contained.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dojo_engine::protocol::{Answer, Fault};
use dojo_runner::{
    BotSpec, FaultCounts, MatchRun, Mode, RunError, RunOptions, Seat, SeatRun, play,
    play_with_observer, process_group_alive,
};
use dojo_testkit::bots::{faults, run_options};
use dojo_testkit::referee::Cards;

const ROUNDS: usize = 8;

fn faulty_dir() -> PathBuf {
    dojo_testkit::paths::bots_dir().join("faulty")
}

fn bot(file: &str, mode: Mode) -> Arc<BotSpec> {
    dojo_testkit::bots::script("faulty", file, &[], mode)
}

/// For bots expected to answer: generous, so a loaded machine does not
/// turn a slow answer into a timeout (it costs time only when a bot does
/// time out).
fn options() -> RunOptions {
    run_options(1500, 3000)
}

/// For a bot that exits after each move and must never time out: its
/// every later start is part of its move time, so the move time is as
/// generous as a start-up allowance.
fn per_turn_options() -> RunOptions {
    run_options(10_000, 10_000)
}

/// For bots that never answer in time: a short move timeout, and fewer
/// rounds, to keep the suite fast; the startup allowance still lets a
/// slow interpreter start. The opponent may time out on a loaded machine,
/// so tests using these options check only the misbehaving seat.
fn quick_options() -> RunOptions {
    run_options(300, 1500)
}

const QUICK_ROUNDS: usize = 3;

/// Plays `file` (seat 1) against random_ok.py (seat 0) for `ROUNDS`.
fn versus(file: &str, mode: Mode, opts: &RunOptions) -> (Cards, MatchRun) {
    versus_with(Seat::new(bot(file, mode)), opts, ROUNDS)
}

fn versus_with(seat: Seat, opts: &RunOptions, rounds: usize) -> (Cards, MatchRun) {
    let seats = [Seat::new(bot("random_ok.py", Mode::Auto)), seat];
    let mut referee = Cards::new(rounds);
    let run = play(&mut referee, &seats, opts).expect("game runs to the end");
    assert_eq!(referee.history.len(), rounds, "every round was played");
    assert_all_dead(&run);
    (referee, run)
}

fn assert_all_dead(run: &MatchRun) {
    for seat in &run.seats {
        assert!(!seat.pgids.is_empty(), "{}: no process recorded", seat.bot);
        for &pgid in &seat.pgids {
            assert!(
                !process_group_alive(pgid),
                "{}: process group {pgid} survived the game",
                seat.bot
            );
        }
    }
}

fn assert_clean(seat: &SeatRun) {
    assert_eq!(
        seat.faults,
        FaultCounts::default(),
        "{}: {seat:?}",
        seat.bot
    );
    assert_eq!(seat.latencies_us.len(), ROUNDS, "{}", seat.bot);
}

#[test]
fn well_behaved_bots_are_reused_without_faults() {
    let (referee, run) = versus("random_ok.py", Mode::Auto, &options());
    for seat in &run.seats {
        assert_clean(seat);
        assert_eq!(seat.spawns, 1);
        assert_eq!(seat.mode, Mode::Persistent);
        assert_eq!(seat.unsolicited, 0);
    }
    for seat in 0..2 {
        assert!(
            referee
                .answers(seat)
                .iter()
                .all(|a| matches!(a, Answer::Move(m) if *m <= 4))
        );
    }
}

#[test]
fn crash_midgame_is_charged_and_restarted() {
    let (referee, run) = versus("crash_midgame.py", Mode::Auto, &options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    // Rounds 1-3 answered, 4 crash, 5-7 answered after a restart, 8 crash.
    assert_eq!(seat.faults, faults(0, 2, 0, 1), "{seat:?}");
    assert_eq!(seat.spawns, 2);
    let answers = referee.answers(1);
    assert_eq!(answers[3], Answer::Fault(Fault::Crash));
    assert_eq!(answers[7], Answer::Fault(Fault::Crash));
    assert_eq!(answers[4], Answer::Move(0));
    assert!(
        seat.stderr.contains("crash_midgame: giving up"),
        "{}",
        seat.stderr
    );
}

#[test]
fn hang_times_out_is_killed_and_restarted() {
    let (referee, run) = versus("hang.py", Mode::Auto, &options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    // Answers 1-2, hangs on 3; restarted for 4: answers 4-5, hangs on 6; ...
    assert_eq!(seat.faults, faults(2, 0, 0, 2), "{seat:?}");
    assert_eq!(seat.spawns, 3);
    assert_eq!(seat.pgids.len(), 3);
    assert_eq!(seat.latencies_us.len(), ROUNDS);
    let answers = referee.answers(1);
    assert_eq!(answers[2], Answer::Fault(Fault::Timeout));
    assert_eq!(answers[5], Answer::Fault(Fault::Timeout));
}

#[test]
fn garbage_answers_are_invalid_and_the_bot_stays_alive() {
    let (referee, run) = versus("garbage.py", Mode::Auto, &options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    assert_eq!(seat.faults, faults(0, 0, ROUNDS as u32, 0), "{seat:?}");
    assert_eq!(seat.spawns, 1);
    assert!(
        referee
            .answers(1)
            .iter()
            .all(|a| *a == Answer::Fault(Fault::Invalid))
    );
}

#[test]
fn huge_line_is_invalid_and_the_game_goes_on() {
    let (referee, run) = versus("huge_line.py", Mode::Auto, &options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    assert_eq!(seat.faults, faults(0, 0, 1, 0), "{seat:?}");
    assert_eq!(seat.spawns, 1);
    assert_eq!(seat.unsolicited, 0, "the rest of the huge line is skipped");
    let answers = referee.answers(1);
    assert_eq!(answers[0], Answer::Fault(Fault::Invalid));
    assert!(answers[1..].iter().all(|a| *a == Answer::Move(2)));
}

#[test]
fn exit_immediately_crashes_every_prompt() {
    let (_, run) = versus("exit_immediately.py", Mode::Auto, &options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    let n = ROUNDS as u32;
    // Exit 0 without ever answering is a crash, not per-turn behaviour.
    // Every other prompt gets a fresh process: a crash noticed between
    // prompts is charged to the next prompt, and the restart follows.
    assert_eq!(seat.faults.crash, u64::from(n), "{seat:?}");
    assert_eq!(seat.faults.timeout + seat.faults.invalid, 0);
    assert_eq!(seat.faults.restart + 1, u64::from(seat.spawns));
    assert!(seat.latencies_us.is_empty());
}

#[test]
fn per_turn_bot_is_respawned_without_faults() {
    let (referee, run) = versus("per_turn.py", Mode::Auto, &per_turn_options());
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    assert_clean(seat);
    assert_eq!(seat.spawns, ROUNDS as u32);
    assert_eq!(seat.mode, Mode::PerTurn);
    assert!(
        referee
            .answers(1)
            .iter()
            .all(|a| matches!(a, Answer::Move(_)))
    );
}

#[test]
fn per_turn_mode_starts_fresh_every_prompt() {
    let (_, run) = versus("random_ok.py", Mode::PerTurn, &per_turn_options());
    let seat = &run.seats[1];
    assert_clean(seat);
    assert_eq!(seat.spawns, ROUNDS as u32);
    assert_eq!(seat.mode, Mode::PerTurn);
}

#[test]
fn persistent_mode_treats_exit_as_crash() {
    let (_, run) = versus("per_turn.py", Mode::Persistent, &options());
    let seat = &run.seats[1];
    // Answer, crash, restart + answer, crash, ...
    assert_eq!(seat.faults, faults(0, 4, 0, 3), "{seat:?}");
    assert_eq!(seat.spawns, 4);
}

#[test]
fn stderr_flood_is_drained_and_capped() {
    let opts = RunOptions {
        stderr_cap_bytes: 10_000,
        ..options()
    };
    let (_, run) = versus("flood_stderr.py", Mode::Auto, &opts);
    assert_clean(&run.seats[0]);
    let seat = &run.seats[1];
    assert_clean(seat);
    assert!(
        seat.stderr.starts_with("debug debug"),
        "{}",
        &seat.stderr[..40]
    );
    assert!(seat.stderr.contains("stderr truncated"));
    assert!(seat.stderr.len() < 10_200, "{}", seat.stderr.len());
}

#[test]
fn fork_sleeper_dies_with_its_whole_group() {
    // Without namespaces, so the pids the sleepers report are ours and
    // the process-group kill (the layer every machine has) is what is
    // tested; bots/hostile covers the PID namespace.
    let sleeper = Seat::new(bot("fork_sleeper.py", Mode::Auto));
    let mut opts = quick_options();
    opts.controls.sandbox = dojo_runner::SandboxMode::Off;
    let (_, run) = versus_with(sleeper, &opts, QUICK_ROUNDS);
    let seat = &run.seats[1];
    let n = QUICK_ROUNDS as u32;
    assert_eq!(seat.faults, faults(n, 0, 0, n - 1), "{seat:?}");
    // assert_all_dead (in `versus`) checked the groups; also check the
    // sleepers themselves, by the pids they reported.
    let sleepers: Vec<i32> = seat
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("sleeper pid "))
        .map(|p| p.trim().parse().unwrap())
        .collect();
    assert!(!sleepers.is_empty(), "stderr: {}", seat.stderr);
    for pid in sleepers {
        assert!(
            !dojo_testkit::procs::is_running(pid),
            "sleeper {pid} still running"
        );
    }
}

#[test]
fn late_answers_are_timeouts_and_never_reused() {
    let late = Seat {
        bot: bot("late.py", Mode::Auto),
        // Later than move timeout + startup allowance of a fresh process.
        env: vec![("LATE_DELAY_MS".into(), "2500".into())],
    };
    let (referee, run) = versus_with(late, &quick_options(), QUICK_ROUNDS);
    let seat = &run.seats[1];
    let n = QUICK_ROUNDS as u32;
    assert_eq!(seat.faults, faults(n, 0, 0, n - 1), "{seat:?}");
    assert_eq!(seat.unsolicited, 0);
    // late.py always answers 4: it must never reach the referee.
    assert!(
        referee
            .answers(1)
            .iter()
            .all(|a| *a == Answer::Fault(Fault::Timeout))
    );
}

#[test]
fn unsolicited_lines_are_counted_and_discarded() {
    let (referee, run) = versus("extra_lines.py", Mode::Auto, &options());
    let seat = &run.seats[1];
    assert_clean(seat);
    assert_eq!(seat.unsolicited, ROUNDS as u32);
    assert!(referee.answers(1).iter().all(|a| *a == Answer::Move(1)));
}

#[test]
fn missing_program_is_a_spawn_error_and_nothing_survives() {
    let tmp = tempfile::tempdir().unwrap();
    let pidfile = tmp.path().join("pid");
    let random = faulty_dir().join("random_ok.py");
    let mut first = (*bot("random_ok.py", Mode::Auto)).clone();
    // Records its pid (= its process group) before becoming random_ok.
    first.command = vec![
        "sh".into(),
        "-c".into(),
        format!(
            "echo $$ > '{}'; exec '{}'",
            pidfile.display(),
            random.display()
        ),
    ];
    let mut missing = first.clone();
    missing.name = "missing".into();
    missing.command = vec!["/nonexistent/dojo-bot".into()];
    let seats = [Seat::new(Arc::new(first)), Seat::new(Arc::new(missing))];
    // Without namespaces, so the recorded `$$` is the group dojo kills.
    let mut opts = options();
    opts.controls.sandbox = dojo_runner::SandboxMode::Off;
    let err = play(&mut Cards::new(ROUNDS), &seats, &opts).unwrap_err();
    match &err {
        RunError::Spawn { bot, command, .. } => {
            assert_eq!(bot, "missing");
            assert_eq!(command, &["/nonexistent/dojo-bot"]);
        }
        other => panic!("expected a spawn error, got {other}"),
    }
    // The first seat was running when the second failed. The group is
    // killed either way; if sh had not written its pid yet there is
    // nothing left to check.
    if let Ok(pid) = std::fs::read_to_string(&pidfile)
        && let Ok(pid) = pid.trim().parse::<i32>()
    {
        assert!(!process_group_alive(pid), "group {pid} survived");
    }
}

#[test]
fn cancel_stops_the_game_and_kills_the_bots() {
    let cancel = Arc::new(AtomicBool::new(false));
    let opts = RunOptions {
        cancel: Some(Arc::clone(&cancel)),
        ..options()
    };
    let seats = [
        Seat::new(bot("random_ok.py", Mode::Auto)),
        Seat::new(bot("random_ok.py", Mode::Auto)),
    ];
    let mut referee = Cards::new(ROUNDS);
    let mut applied = 0;
    let err = play_with_observer(&mut referee, &seats, &opts, &mut |r: &Cards| {
        applied = r.round();
        if r.round() == 2 {
            cancel.store(true, Ordering::SeqCst);
        }
    })
    .unwrap_err();
    assert!(matches!(err, RunError::Cancelled), "{err}");
    assert_eq!(applied, 2);
    assert_eq!(referee.history.len(), 2);
}

#[test]
fn seat_count_mismatch_is_rejected() {
    let seats = [Seat::new(bot("random_ok.py", Mode::Auto))];
    // Without namespaces, so the recorded `$$` is the group dojo kills.
    let mut opts = options();
    opts.controls.sandbox = dojo_runner::SandboxMode::Off;
    let err = play(&mut Cards::new(ROUNDS), &seats, &opts).unwrap_err();
    assert!(
        matches!(
            err,
            RunError::SeatCount {
                expected: 2,
                given: 1
            }
        ),
        "{err}"
    );
}

#[test]
fn seat_environment_reaches_the_bot() {
    let opts = options();
    let seats = [
        Seat::new(bot("random_ok.py", Mode::Auto)),
        Seat {
            bot: bot("late.py", Mode::Auto),
            // Fast enough to answer in time: the env var is honoured.
            env: vec![("LATE_DELAY_MS".into(), "0".into())],
        },
    ];
    let mut referee = Cards::new(ROUNDS);
    let run = play(&mut referee, &seats, &opts).unwrap();
    assert_clean(&run.seats[1]);
    assert!(referee.answers(1).iter().all(|a| *a == Answer::Move(4)));
    assert_all_dead(&run);
}

#[test]
fn bot_that_leaves_its_process_group_is_still_killed() {
    // The bot moves itself into the harness's process group, so killing
    // its own group no longer reaches it, then never answers. Killing
    // only the group would leave reaping it blocked until it exits.
    let mut hopper = (*bot("random_ok.py", Mode::Auto)).clone();
    hopper.name = "group_hopper".into();
    hopper.command = vec![
        "python3".into(),
        "-c".into(),
        "import os, time\n\
         os.setpgid(0, os.getpgid(os.getppid()))\n\
         time.sleep(60)\n"
            .into(),
    ];
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let seats = [
            Seat::new(bot("random_ok.py", Mode::Auto)),
            Seat::new(Arc::new(hopper)),
        ];
        let run = play(&mut Cards::new(1), &seats, &quick_options());
        let _ = done_tx.send(run.map(|run| run.seats[1].faults));
    });
    // A hang guard, not a speed check: the game takes about two seconds,
    // the stuck version a full minute.
    let faults_seen = done_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the game ends without waiting for the bot to exit")
        .expect("game runs to the end");
    assert_eq!(faults_seen, faults(1, 0, 0, 0));
}

#[test]
fn stdout_flood_after_each_answer_neither_blocks_nor_stops_the_game() {
    // Answers, then writes far more lines than the event channel holds:
    // the reader waits on the channel (and the bot on its pipe) instead of
    // the harness buffering without bound. The flood breaks the protocol,
    // so a leftover line may be read as the next answer (invalid); the
    // game must still reach its end with every process gone.
    let mut flood = (*bot("random_ok.py", Mode::Auto)).clone();
    flood.name = "stdout_flood".into();
    flood.command = vec![
        "python3".into(),
        "-c".into(),
        "import sys\n\
         for line in sys.stdin:\n\
         \x20   if ',' in line:\n\
         \x20       sys.stdout.write('1\\n' + 'x\\n' * 20000)\n\
         \x20       sys.stdout.flush()\n"
            .into(),
    ];
    let (referee, run) = versus_with(Seat::new(Arc::new(flood)), &options(), QUICK_ROUNDS);
    let seat = &run.seats[1];
    assert_eq!((seat.faults.timeout, seat.faults.crash), (0, 0), "{seat:?}");
    let answers = referee.answers(1);
    assert!(
        answers
            .iter()
            .all(|a| *a == Answer::Move(1) || *a == Answer::Fault(Fault::Invalid)),
        "{answers:?}"
    );
    assert_eq!(
        answers[0],
        Answer::Move(1),
        "the first answer comes before any flood"
    );
    assert!(
        u64::from(seat.unsolicited) + seat.faults.invalid > 0,
        "the flood was seen: {seat:?}"
    );
}

#[test]
fn closing_stdout_while_running_is_a_crash_at_once() {
    // A minute per move: a timeout would take minutes; a crash is
    // charged as soon as stdout closes.
    let mut opts = options();
    opts.controls.timeout = Duration::from_secs(60);
    let started = std::time::Instant::now();
    let (_, run) = versus("close_stdout.py", Mode::Auto, &opts);
    let seat = &run.seats[1];
    let n = ROUNDS as u32;
    assert_eq!(seat.faults, faults(0, n, 0, n - 1), "{seat:?}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

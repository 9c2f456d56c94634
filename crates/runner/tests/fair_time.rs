//! Fair time: an honest bot that thinks beside a bot whose children burn
//! the CPU, both pinned to the same core. Under wall-clock time the honest
//! bot loses moves to its neighbour; under CPU time it loses none. (Each
//! bot's box is one entity to the scheduler, `cgroup-cpu-share`, so the
//! burner takes about half the core however many children it has; the
//! honest bot's thinking is sized so that half a core is too little under
//! wall time.)

use std::sync::Arc;
use std::time::Duration;

use dojo_engine::protocol::Answer;
use dojo_runner::{BotSpec, MatchRun, Mode, RunOptions, Seat, TimeMode, allowed_cpus, play};
use dojo_testkit::referee::Cards;

fn bot(file: &str, args: &[&str]) -> Arc<BotSpec> {
    dojo_testkit::bots::script("hostile", file, args, Mode::Persistent)
}

const ROUNDS: usize = 5;

/// thinker.py (0.2 s of CPU a move) against cpu_burner.py (4 busy
/// children), both on the first CPU this process may use, 0.3 s a move.
fn thinker_beside_burner(time: TimeMode) -> (Cards, MatchRun) {
    let seats = [
        Seat::new(bot("thinker.py", &["0.2"])),
        Seat::new(bot("cpu_burner.py", &["4"])),
    ];
    let opts = RunOptions {
        controls: dojo_runner::Controls {
            timeout: Duration::from_millis(300),
            startup: Duration::from_millis(3000),
            time,
            ..dojo_runner::Controls::default()
        },
        // Generous: the machine running the tests may be loaded too; the
        // honest bot needs about twice its CPU time in wall time (five
        // times where the burner's children each got a share).
        wall_backstop: 40,
        pin_cpu: allowed_cpus().first().copied(),
        ..RunOptions::default()
    };
    let mut referee = Cards {
        rounds: ROUNDS,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, &opts).expect("the game is played");
    for seat in &run.seats {
        eprintln!(
            "{time:?} {}: faults {:?}, wall µs {:?}, cpu µs {:?}",
            seat.bot, seat.faults, seat.latencies_us, seat.cpu_us
        );
    }
    (referee, run)
}

#[test]
fn under_cpu_time_a_burning_neighbour_costs_the_honest_bot_nothing() {
    let (referee, run) = thinker_beside_burner(TimeMode::Cpu);
    let honest = &run.seats[0];
    assert_eq!(honest.faults.total(), 0, "{honest:?}");
    assert!(
        referee
            .history
            .iter()
            .all(|round| matches!(round[0], Answer::Move(_)))
    );
    // Its CPU time per move is its own thinking, whatever its wall time.
    for (&wall, cpu) in honest.latencies_us.iter().zip(&honest.cpu_us).skip(1) {
        let cpu = cpu.expect("CPU time is measured on Linux");
        assert!(
            (190_000..300_000).contains(&cpu),
            "cpu {cpu} µs, wall {wall} µs"
        );
    }
    // The burner's children count for it: each move it is charged what
    // they burnt meanwhile, about the thinker's own time (the core's
    // other half), though it answers at once.
    let burner = &run.seats[1];
    for cpu in burner.cpu_us.iter().skip(1) {
        let cpu = cpu.expect("CPU time is measured on Linux");
        assert!(cpu >= 50_000, "{burner:?}");
    }
}

#[test]
fn under_wall_time_the_same_neighbour_makes_the_honest_bot_time_out() {
    // The control: without CPU time, sharing a core with four busy loops
    // (half of it, with the box's CPU share) makes 0.2 s of thinking take
    // about 0.4 s.
    let (_, run) = thinker_beside_burner(TimeMode::Wall);
    assert!(run.seats[0].faults.timeout > 0, "{:?}", run.seats[0]);
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
}

/// A bot that exits after each move has the start-up allowance for its
/// first process only: thinking 0.5 s of CPU on a 0.3 s move is in time on
/// the first move (3 s to start) and a timeout on every later one, where
/// its start is part of the move, the same as for a bot that stays.
/// Which of `ROUNDS` hands `player` answered (in time, as a move) against a
/// quick honest thinker, with `timeout_ms` a move, a start-up allowance
/// of 3 s and CPU time (a loaded machine changes nothing), and the run.
fn moves_against_a_quick_thinker(player: Arc<BotSpec>, timeout_ms: u64) -> (Vec<bool>, MatchRun) {
    let seats = [Seat::new(player), Seat::new(bot("thinker.py", &["0.01"]))];
    let opts = RunOptions {
        controls: dojo_runner::Controls {
            timeout: Duration::from_millis(timeout_ms),
            startup: Duration::from_millis(3000),
            time: TimeMode::Cpu,
            ..dojo_runner::Controls::default()
        },
        // CPU time and a generous backstop: a loaded machine changes
        // nothing here.
        wall_backstop: 40,
        ..RunOptions::default()
    };
    let mut referee = Cards {
        rounds: ROUNDS,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, &opts).expect("the game is played");
    let moves = (referee.history.iter())
        .map(|round| matches!(round[0], Answer::Move(_)))
        .collect();
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
    (moves, run)
}

#[test]
fn a_bot_that_exits_after_each_move_thinks_on_its_start_up_allowance_once() {
    let per_turn =
        dojo_testkit::bots::script("hostile", "thinker.py", &["0.5", "exit"], Mode::Auto);
    let (moves, run) = moves_against_a_quick_thinker(per_turn, 300);
    let seat = &run.seats[0];
    assert_eq!(moves, [true, false, false, false, false], "{seat:?}");
    assert_eq!(seat.faults.timeout, ROUNDS as u64 - 1, "{seat:?}");
}

/// A bot that reads a prompt, thinks, and exits 0 without answering is
/// started again on the same move's clock: the CPU of both processes is
/// the move's. split_thinker.py needs 0.8 s a hand against 0.6 s, and
/// thinks 0.4 s of it in a process that then exits: before, the new
/// process answered after 0.4 s (and its start) on a fresh clock, every
/// hand in time.
#[test]
fn a_bot_that_exits_mid_move_to_be_started_again_thinks_on_one_clock() {
    let splitter =
        dojo_testkit::bots::script("hostile", "split_thinker.py", &["0.8", "0.4"], Mode::Auto);
    let (moves, run) = moves_against_a_quick_thinker(splitter, 600);
    // The first hand on the start-up allowance; none after.
    assert_eq!(
        moves,
        [true, false, false, false, false],
        "{:?}",
        run.seats[0]
    );
}

/// A timeout buys no time: time_banker.py lets its first hand time out on
/// purpose and, started again, thinks 1 s of CPU on the next hand against
/// a move time of 0.3 s. Its first process spent the whole start-up
/// allowance on the timeout, so the second has the move time only: that
/// hand times out too. Before, every process started again after a fault
/// had the allowance anew, and the long move was in time.
#[test]
fn a_timeout_buys_the_next_move_no_start_up_allowance() {
    let banker =
        dojo_testkit::bots::script("hostile", "time_banker.py", &["1.0"], Mode::Persistent);
    let (moves, run) = moves_against_a_quick_thinker(banker, 300);
    let seat = &run.seats[0];
    // Its second process's long move times out too; the third answers
    // every hand left at once.
    assert_eq!(moves, [false, false, true, true, true], "{seat:?}");
    assert_eq!(
        (seat.faults.timeout, seat.faults.restart),
        (2, 2),
        "{seat:?}"
    );
}

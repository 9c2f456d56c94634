//! Unit tests of the loop against the fake processes.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use dojo_engine::protocol::{Answer, Fault, Notice, Prompt, Referee, Reply};

use super::fake::{Call, Fake, Script};
use super::{MatchRun, RunError, RunOptions, Seat, TimeMode, play_on};
use crate::process::{Event, LimitsSeen};
use crate::spec::{BotSpec, Mode};
use dojo_sandbox::sys::ExitKind;

/// `rounds` rounds in which every seat picks a number 0..=9.
struct Numbers {
    seats: usize,
    rounds: usize,
    history: Vec<Vec<Answer<u8>>>,
}

impl Numbers {
    fn new(seats: usize, rounds: usize) -> Self {
        Self {
            seats,
            rounds,
            history: Vec::new(),
        }
    }

    /// What seat `seat` played in each round.
    fn played(&self, seat: usize) -> Vec<Answer<u8>> {
        self.history
            .iter()
            .map(|round| round[seat].clone())
            .collect()
    }
}

impl Referee for Numbers {
    type Move = u8;

    fn seats(&self) -> usize {
        self.seats
    }

    fn greeting(&self, seat: usize) -> Vec<String> {
        vec![format!("hello {seat}")]
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.history.len() >= self.rounds {
            return Vec::new();
        }
        (0..self.seats)
            .map(|seat| Prompt {
                seat,
                lines: vec![format!("round {}", self.history.len())],
            })
            .collect()
    }

    fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<u8> {
        match lines.last().map(|l| l.parse::<u8>()) {
            Some(Ok(n)) if n <= 9 => Reply::Complete(n),
            _ => Reply::Invalid("not a number".to_string()),
        }
    }

    fn apply(&mut self, answers: Vec<Answer<u8>>) -> Vec<Notice> {
        self.history.push(answers);
        Vec::new()
    }

    fn farewell(&self) -> Vec<String> {
        vec!["bye".to_string()]
    }
}

fn seat(mode: Mode) -> Seat {
    Seat::new(Arc::new(BotSpec {
        name: "fake".to_string(),
        command: vec!["fake".to_string()],
        dir: PathBuf::from("/"),
        build: None,
        mode,
        games: Vec::new(),
        team: None,
        description: None,
        values: Default::default(),
    }))
}

fn options() -> RunOptions {
    RunOptions {
        controls: crate::Controls {
            timeout: Duration::from_millis(1000),
            startup: Duration::ZERO,
            ..crate::Controls::default()
        },
        end_grace: Duration::from_millis(100),
        ..RunOptions::default()
    }
}

/// A script answering each prompt (`round N`) with `answer(generation,
/// round)`: lines after so many milliseconds.
fn answering(mut answer: impl FnMut(u64, usize) -> Vec<(u64, Event)> + 'static) -> Script {
    Box::new(move |call: Call<'_>| {
        let Some(round) = call
            .lines
            .first()
            .and_then(|l| l.strip_prefix("round "))
            .and_then(|n| n.parse::<usize>().ok())
        else {
            return Vec::new();
        };
        answer(call.generation, round)
    })
}

fn line(text: &str) -> Event {
    Event::Line(text.to_string())
}

fn play_fake(referee: &mut Numbers, fake: Fake, mode: Mode) -> MatchRun {
    play_fake_with(referee, fake, mode, &options())
}

fn play_fake_with(referee: &mut Numbers, fake: Fake, mode: Mode, opts: &RunOptions) -> MatchRun {
    let seats: Vec<Seat> = (0..referee.seats()).map(|_| seat(mode)).collect();
    play_on(referee, &seats, opts, fake, &mut |_| {}).expect("the game is played")
}

#[test]
fn a_late_answer_of_a_killed_process_never_answers_a_later_prompt() {
    // The first process answers round 0 only after 1.5 s (the limit is
    // 1 s): it is killed, and its answer, already in flight, arrives while
    // the second process is thinking about round 1.
    let script = answering(|generation, round| match (generation, round) {
        (1, 0) => vec![(1500, line("1"))],
        (2, 1) => vec![(900, line("2"))],
        _ => vec![(10, line("3"))],
    });
    let mut referee = Numbers::new(1, 3);
    let run = play_fake(&mut referee, Fake::new(vec![script]), Mode::Persistent);
    assert_eq!(
        referee.played(0),
        [
            Answer::Fault(Fault::Timeout),
            Answer::Move(2),
            Answer::Move(3)
        ]
    );
    let seat = &run.seats[0];
    assert_eq!(seat.faults.timeout, 1);
    assert_eq!((seat.spawns, seat.faults.restart), (2, 1));
    assert_eq!(seat.unsolicited, 0, "a stale line is dropped, not counted");
    assert_eq!(seat.latencies_us, [1_000_000, 900_000, 10_000]);
}

#[test]
fn an_answer_in_time_counts_however_late_the_loop_reads_it() {
    let script = answering(|_, round| match round {
        0 => vec![(990, line("4"))],
        _ => vec![(1010, line("5"))],
    });
    let mut fake = Fake::new(vec![script]);
    // The loop looks at each batch 300 ms after it arrived, and wakes up
    // 50 ms later than it asked.
    fake.busy = Duration::from_millis(300);
    fake.oversleep = Duration::from_millis(50);
    let mut referee = Numbers::new(1, 2);
    let run = play_fake(&mut referee, fake, Mode::Persistent);
    assert_eq!(
        referee.played(0),
        [Answer::Move(4), Answer::Fault(Fault::Timeout)],
        "arrived at 990 ms: in time; at 1010 ms: late, though read at once"
    );
    assert_eq!(run.seats[0].latencies_us[0], 990_000);
    assert_eq!(run.seats[0].faults.timeout, 1);
}

#[test]
fn lines_nobody_asked_for_are_counted_and_dropped() {
    let script = answering(|_, round| match round {
        // An answer and chatter in one read, then more chatter in a read
        // of its own that is there before the next prompt goes out.
        0 => vec![(10, line("1")), (10, line("7")), (20, line("8"))],
        _ => vec![(30, line("2"))],
    });
    let mut fake = Fake::new(vec![script]);
    fake.busy = Duration::from_millis(15);
    let mut referee = Numbers::new(1, 2);
    let run = play_fake(&mut referee, fake, Mode::Persistent);
    assert_eq!(referee.played(0), [Answer::Move(1), Answer::Move(2)]);
    assert_eq!(run.seats[0].unsolicited, 2);
    assert_eq!(run.seats[0].faults.total(), 0);
}

#[test]
fn simultaneous_prompts_are_judged_per_seat() {
    let fast = answering(|_, _| vec![(5, line("6"))]);
    let silent = answering(|_, _| Vec::new());
    let mut referee = Numbers::new(2, 2);
    let run = play_fake(
        &mut referee,
        Fake::new(vec![fast, silent]),
        Mode::Persistent,
    );
    assert_eq!(referee.played(0), [Answer::Move(6), Answer::Move(6)]);
    assert_eq!(
        referee.played(1),
        [Answer::Fault(Fault::Timeout), Answer::Fault(Fault::Timeout)]
    );
    assert_eq!(run.seats[0].faults.total(), 0);
    assert_eq!(run.seats[1].faults.timeout, 2);
    assert_eq!(run.seats[1].spawns, 2, "restarted after its timeout");
}

#[test]
fn a_process_that_closes_stdout_without_answering_is_a_crash_at_once() {
    let script = answering(|generation, _| match generation {
        1 => vec![(20, Event::Eof)],
        _ => vec![(20, line("9"))],
    });
    let mut referee = Numbers::new(1, 2);
    let run = play_fake(&mut referee, Fake::new(vec![script]), Mode::Persistent);
    assert_eq!(
        referee.played(0),
        [Answer::Fault(Fault::Crash), Answer::Move(9)]
    );
    assert_eq!(run.seats[0].faults.crash, 1);
    assert!(
        run.seats[0].latencies_us.len() == 1,
        "a crash has no latency"
    );
}

/// A persistent bot whose first process dies of SIGKILL in round 1, its
/// end showing `limits`.
fn killed_in_round_one(limits: LimitsSeen) -> (Numbers, Result<MatchRun, RunError>) {
    let script = answering(|generation, round| match (generation, round) {
        (1, 1) => vec![(20, Event::Eof), (20, Event::Exited(ExitKind::Signal(9)))],
        _ => vec![(10, line("4"))],
    });
    let mut fake = Fake::new(vec![script]);
    fake.limits[0].push((1, limits));
    let mut referee = Numbers::new(1, 3);
    let seats = [seat(Mode::Persistent)];
    let result = play_on(&mut referee, &seats, &options(), fake, &mut |_| {});
    (referee, result)
}

#[test]
fn an_oom_kill_at_the_bots_own_cap_is_its_memory_fault() {
    let (referee, result) = killed_in_round_one(LimitsSeen {
        hit: vec!["memory"],
        memory_elsewhere: false,
    });
    let run = result.expect("the game is played");
    assert_eq!(
        referee.played(0),
        [
            Answer::Move(4),
            Answer::Fault(Fault::Crash),
            Answer::Move(4)
        ]
    );
    assert_eq!(run.seats[0].faults.limit, 1);
    assert_eq!(run.seats[0].faults.limits_hit.memory, 1);
}

/// Memory running out above the bot's cap is not the bot's doing: the
/// round is not judged, and the game fails (a league plays it again)
/// rather than charge the bot a crash it did not make.
#[test]
fn an_oom_kill_under_the_bots_own_cap_fails_the_game_instead_of_charging_it() {
    let (referee, result) = killed_in_round_one(LimitsSeen {
        hit: Vec::new(),
        memory_elsewhere: true,
    });
    match result {
        Err(RunError::MemoryElsewhere { bot }) => assert_eq!(bot, "fake"),
        other => panic!("expected the game to fail, got {other:?}"),
    }
    assert_eq!(
        referee.played(0),
        [Answer::Move(4)],
        "the round of the kill is not applied"
    );
}

#[test]
fn the_first_invalid_answer_is_kept_with_the_referees_reason() {
    let script = answering(|_, round| match round {
        0 => vec![(10, line("4"))],
        1 => vec![(10, line("debug: thinking"))],
        _ => vec![(10, line("later"))],
    });
    let mut referee = Numbers::new(1, 3);
    let run = play_fake(&mut referee, Fake::new(vec![script]), Mode::Persistent);
    assert_eq!(run.seats[0].faults.invalid, 2);
    assert_eq!(run.seats[0].first_invalid.as_deref(), Some("not a number"));
}

/// A script answering round `r` after `delays[r]` milliseconds.
fn slow_by(delays: &'static [u64]) -> Script {
    answering(move |_, round| vec![(delays[round], line("1"))])
}

#[test]
fn moves_over_the_limit_draw_on_the_bank_until_it_is_empty() {
    let mut opts = options();
    opts.controls.overage = Duration::from_millis(500);
    // 1 s per move and 0.5 s in the bank: 1.3 s draws 0.3 s, 1.1 s draws
    // 0.1 s, then 1.2 s is 0.1 s too many.
    let mut referee = Numbers::new(1, 4);
    let fake = Fake::new(vec![slow_by(&[1300, 1100, 1200, 900])]);
    let run = play_fake_with(&mut referee, fake, Mode::Persistent, &opts);
    assert_eq!(
        referee.played(0),
        [
            Answer::Move(1),
            Answer::Move(1),
            Answer::Fault(Fault::Timeout),
            Answer::Move(1)
        ]
    );
    assert_eq!(
        run.seats[0].latencies_us,
        [1_300_000, 1_100_000, 1_100_000, 900_000],
        "the third move ended when the bank ran dry"
    );
}

#[test]
fn a_spent_game_budget_times_out_every_later_move() {
    let mut opts = options();
    opts.controls.game_budget = Some(Duration::from_millis(1500));
    let mut referee = Numbers::new(1, 3);
    let fake = Fake::new(vec![slow_by(&[800, 800, 10])]);
    let run = play_fake_with(&mut referee, fake, Mode::Persistent, &opts);
    assert_eq!(
        referee.played(0),
        [
            Answer::Move(1),
            Answer::Fault(Fault::Timeout),
            Answer::Fault(Fault::Timeout)
        ],
        "0.8 s of 1.5 s left 0.7 s; then nothing"
    );
    assert_eq!(run.seats[0].latencies_us[1], 700_000);
}

#[test]
fn cpu_time_ignores_a_busy_machine_but_catches_a_busy_bot() {
    let mut opts = options();
    opts.controls.time = TimeMode::Cpu;
    // Seat 0 gets a quarter of a CPU (a loaded machine) and answers after
    // 2 s of wall time: 0.5 s of CPU, in time. Seat 1 burns a whole CPU
    // and never answers: out of time after 1 s of CPU, not at the
    // backstop.
    let mut fake = Fake::new(vec![slow_by(&[2000, 2000]), answering(|_, _| Vec::new())]);
    fake.cpu_share = vec![Some(0.25), Some(1.0)];
    let mut referee = Numbers::new(2, 2);
    let run = play_fake_with(&mut referee, fake, Mode::Persistent, &opts);
    assert_eq!(referee.played(0), [Answer::Move(1), Answer::Move(1)]);
    assert_eq!(run.seats[0].cpu_us, [Some(500_000), Some(500_000)]);
    assert_eq!(
        referee.played(1),
        [Answer::Fault(Fault::Timeout), Answer::Fault(Fault::Timeout)]
    );
    for (&wall, &cpu) in run.seats[1].latencies_us.iter().zip(&run.seats[1].cpu_us) {
        let cpu = cpu.expect("measured");
        assert!((1_000_000..1_010_000).contains(&cpu), "cpu {cpu}");
        assert!(
            wall < 1_100_000,
            "ended by its CPU, not the backstop: {wall}"
        );
    }
    // Under wall time the slow seat would have timed out.
    let mut fake = Fake::new(vec![slow_by(&[2000, 2000]), answering(|_, _| Vec::new())]);
    fake.cpu_share = vec![Some(0.25), Some(1.0)];
    let mut referee = Numbers::new(2, 2);
    play_fake(&mut referee, fake, Mode::Persistent);
    assert_eq!(referee.played(0)[0], Answer::Fault(Fault::Timeout));
}

#[test]
fn cpu_time_has_a_wall_clock_backstop() {
    let mut opts = RunOptions {
        wall_backstop: 3,
        ..options()
    };
    opts.controls.time = TimeMode::Cpu;
    // Sleeps (no CPU) and never answers.
    let mut fake = Fake::new(vec![answering(|_, _| Vec::new())]);
    fake.cpu_share = vec![Some(0.0)];
    let mut referee = Numbers::new(1, 1);
    let run = play_fake_with(&mut referee, fake, Mode::Persistent, &opts);
    assert_eq!(referee.played(0), [Answer::Fault(Fault::Timeout)]);
    assert_eq!(run.seats[0].latencies_us, [3_000_000]);
}

#[test]
fn a_bots_own_time_values_apply_to_its_seat_only() {
    // Both seats answer every move after 1.5 s; the run gives 1 s. The
    // bot in seat 0 has 2 s of its own and a bank of 0.2 s: in time.
    let mut referee = Numbers::new(2, 2);
    let fake = Fake::new(vec![slow_by(&[1500, 1500]), slow_by(&[1500, 1500])]);
    let mut patient = seat(Mode::Persistent);
    Arc::make_mut(&mut patient.bot).values.time = crate::TimeValues {
        timeout_ms: Some(2000),
        overage_ms: Some(200),
        ..crate::TimeValues::default()
    };
    let seats = [patient, seat(Mode::Persistent)];
    let run = play_on(&mut referee, &seats, &options(), fake, &mut |_| {}).unwrap();
    assert_eq!(referee.played(0), [Answer::Move(1), Answer::Move(1)]);
    assert_eq!(
        referee.played(1),
        [Answer::Fault(Fault::Timeout), Answer::Fault(Fault::Timeout)]
    );
    assert_eq!(run.seats[0].faults.timeout, 0);
    // The other seat's timeouts were judged at the run's 1 s.
    assert_eq!(run.seats[1].latencies_us, [1_000_000, 1_000_000]);
}

/// A bot that takes `ms` to answer each prompt and then exits, as a bot
/// that exits after each move does.
fn answers_and_exits(ms: u64) -> Script {
    answering(move |_, _| {
        vec![
            (ms, line("1")),
            (ms, Event::Eof),
            (ms, Event::Exited(ExitKind::Code(0))),
        ]
    })
}

fn with_startup(ms: u64) -> RunOptions {
    let mut opts = options();
    opts.controls.startup = Duration::from_millis(ms);
    opts
}

#[test]
fn a_bot_that_exits_after_each_move_gets_the_start_up_allowance_once_a_game() {
    // 1 s a move and 2 s to start: 1.5 s is in time for the first move
    // only; every later process's start is part of its move, also the
    // one started again after the second move's timeout.
    for mode in [Mode::PerTurn, Mode::Auto] {
        let mut referee = Numbers::new(1, 3);
        let fake = Fake::new(vec![answers_and_exits(1500)]);
        let run = play_fake_with(&mut referee, fake, mode, &with_startup(2000));
        assert_eq!(
            referee.played(0),
            [
                Answer::Move(1),
                Answer::Fault(Fault::Timeout),
                Answer::Fault(Fault::Timeout)
            ],
            "{mode:?}"
        );
        assert_eq!(
            run.seats[0].latencies_us,
            [1_500_000, 1_000_000, 1_000_000],
            "{mode:?}"
        );
        assert_eq!(run.seats[0].startup_answers, [0], "{mode:?}");
    }
}

#[test]
fn a_bot_slow_to_die_never_makes_its_opponent_late() {
    // Seat 1 exits after each move, and each of its processes takes 3 s
    // to be killed and its box emptied (a large address space: the red
    // team's `slow_death`) while the loop starts the next one, after
    // seat 0's prompt went out. Seat 0 answers every prompt in 100 ms,
    // which the loop reads only once it is back.
    for time in [TimeMode::Wall, TimeMode::Cpu] {
        let mut opts = options();
        opts.controls.time = time;
        let fast = answering(|_, _| vec![(100, line("4"))]);
        let mut fake = Fake::new(vec![fast, answers_and_exits(10)]);
        fake.restart_cost[1] = Duration::from_millis(3000);
        fake.cpu_share = vec![Some(0.01), Some(0.01)];
        let mut referee = Numbers::new(2, 4);
        let run = play_fake_with(&mut referee, fake, Mode::Auto, &opts);
        assert_eq!(referee.played(0), vec![Answer::Move(4); 4], "{time:?}");
        assert_eq!(referee.played(1), vec![Answer::Move(1); 4], "{time:?}");
        let seat = &run.seats[0];
        assert_eq!(seat.faults.timeout, 0, "{time:?}");
        assert!(
            seat.latencies_us.iter().all(|&us| us <= 100_000),
            "{time:?}: {:?}",
            seat.latencies_us
        );
        assert_eq!(run.seats[1].mode, Mode::PerTurn, "{time:?}");
    }
}

/// A bot that answers round 0, then on round 1 thinks for 600 ms, exits
/// 0 without answering (as a bot that exits after its moves would, had it
/// not read the prompt) and, started again, thinks 600 ms more and
/// answers: 1.2 s for a move of 1 s.
fn thinks_across_two_processes() -> Script {
    answering(|generation, round| match (generation, round) {
        (1, 1) => vec![(600, Event::Eof), (600, Event::Exited(ExitKind::Code(0)))],
        (2, 1) => vec![(600, line("2"))],
        _ => vec![(10, line("1"))],
    })
}

#[test]
fn a_bot_that_exits_mid_move_to_be_started_again_gets_no_second_move_time() {
    for time in [TimeMode::Wall, TimeMode::Cpu] {
        let mut opts = options();
        opts.controls.time = time;
        let mut fake = Fake::new(vec![thinks_across_two_processes()]);
        fake.cpu_share = vec![Some(1.0)];
        let mut referee = Numbers::new(1, 2);
        let run = play_fake_with(&mut referee, fake, Mode::Auto, &opts);
        assert_eq!(
            referee.played(0),
            [Answer::Move(1), Answer::Fault(Fault::Timeout)],
            "{time:?}: the move's clock went on through the restart"
        );
        assert_eq!(run.seats[0].faults.timeout, 1, "{time:?}");
    }
}

#[test]
fn a_bot_that_exits_after_each_move_in_time_is_never_charged() {
    let mut referee = Numbers::new(1, 4);
    let fake = Fake::new(vec![answers_and_exits(900)]);
    let run = play_fake_with(&mut referee, fake, Mode::Auto, &with_startup(2000));
    assert_eq!(referee.played(0), vec![Answer::Move(1); 4]);
    let seat = &run.seats[0];
    assert_eq!((seat.spawns, seat.faults.restart), (4, 0));
    assert_eq!(seat.mode, Mode::PerTurn, "seen to exit after its moves");
}

/// A long-lived bot whose first process answers round 0 after
/// `first_ms` and crashes on round 1; started again, it answers each
/// later round after `restarted_ms`.
fn crashes_in_round_one(first_ms: u64, restarted_ms: u64) -> Script {
    answering(move |generation, round| match (generation, round) {
        (1, 0) => vec![(first_ms, line("1"))],
        (1, _) => vec![(5, Event::Eof), (5, Event::Exited(ExitKind::Code(1)))],
        _ => vec![(restarted_ms, line("2"))],
    })
}

#[test]
fn a_process_started_again_after_a_fault_gets_at_most_what_its_first_start_took() {
    // 1 s a move and 2 s to start. The first answer took 300 ms, its start
    // included: the process started again after the crash gets those
    // 300 ms again (1.3 s in all) for its first answer, its second 1 s.
    let mut referee = Numbers::new(1, 4);
    let fake = Fake::new(vec![crashes_in_round_one(300, 1200)]);
    let run = play_fake_with(&mut referee, fake, Mode::Persistent, &with_startup(2000));
    assert_eq!(
        referee.played(0),
        [
            Answer::Move(1),
            Answer::Fault(Fault::Crash),
            Answer::Move(2),
            Answer::Fault(Fault::Timeout)
        ],
    );
    assert_eq!(run.seats[0].faults.restart, 1);
    // The record says which answers had an allowance: a report holds
    // them against it, not against the bare move time (the crash has no
    // time: the restarted process's answer is the second timed one).
    assert_eq!(run.seats[0].startup_answers, [0, 1]);
    // 1.4 s is more than the start it showed plus the move time.
    let mut referee = Numbers::new(1, 3);
    let fake = Fake::new(vec![crashes_in_round_one(300, 1400)]);
    play_fake_with(&mut referee, fake, Mode::Persistent, &with_startup(2000));
    assert_eq!(referee.played(0)[2], Answer::Fault(Fault::Timeout));
}

#[test]
fn a_timeout_buys_the_next_move_no_start_up_allowance() {
    // The first process thinks through round 0 and is killed at its
    // deadline (3 s: it spent the whole allowance); the next one, started
    // for round 1, gets the move time only, on either clock. Before, it
    // had 3 s again: a bot could buy a long move with a deliberate
    // timeout.
    for time in [TimeMode::Wall, TimeMode::Cpu] {
        let script = answering(|generation, _| match generation {
            1 => Vec::new(),
            _ => vec![(2500, line("2"))],
        });
        let mut opts = with_startup(2000);
        opts.controls.time = time;
        let mut fake = Fake::new(vec![script]);
        fake.cpu_share = vec![Some(1.0)];
        let mut referee = Numbers::new(1, 2);
        let run = play_fake_with(&mut referee, fake, Mode::Persistent, &opts);
        assert_eq!(
            referee.played(0),
            [Answer::Fault(Fault::Timeout), Answer::Fault(Fault::Timeout)],
            "{time:?}"
        );
        assert_eq!(run.seats[0].faults.restart, 1, "{time:?}");
        assert_eq!(run.seats[0].startup_answers, [0], "{time:?}");
    }
}

#[test]
fn a_spent_game_budget_stays_spent_after_a_timeout() {
    // 1 s a move, 0.5 s to start, 1.2 s a game. The first move takes its
    // start's 0.5 s and 0.6 s (the start is not counted); the second
    // times out when the 0.6 s left are spent and its process is killed;
    // the next process, whose first answer comes after 200 ms, has no
    // budget left.
    let mut opts = with_startup(500);
    opts.controls.game_budget = Some(Duration::from_millis(1200));
    let script = answering(|generation, round| match (generation, round) {
        (1, 0) => vec![(1100, line("1"))],
        (1, _) => vec![(900, line("1"))],
        _ => vec![(200, line("2"))],
    });
    let mut referee = Numbers::new(1, 3);
    let run = play_fake_with(
        &mut referee,
        Fake::new(vec![script]),
        Mode::Persistent,
        &opts,
    );
    assert_eq!(
        referee.played(0),
        [
            Answer::Move(1),
            Answer::Fault(Fault::Timeout),
            Answer::Fault(Fault::Timeout)
        ],
    );
    assert_eq!(run.seats[0].latencies_us[1], 600_000);
}

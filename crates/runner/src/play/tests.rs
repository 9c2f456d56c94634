//! Unit tests of the loop against the fake processes.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use dojo_engine::protocol::{Answer, Fault, Notice, Prompt, Referee, Reply};

use super::fake::{Call, Fake, Script};
use super::{MatchRun, RunOptions, Seat, play_on};
use crate::process::Event;
use crate::spec::{BotSpec, Mode};

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
    }))
}

fn options() -> RunOptions {
    RunOptions {
        move_timeout: Duration::from_millis(1000),
        startup_allowance: Duration::ZERO,
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
    let seats: Vec<Seat> = (0..referee.seats()).map(|_| seat(mode)).collect();
    play_on(referee, &seats, &options(), fake, &mut |_| {}).expect("the game is played")
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

//! Full CardJitsu games through real bot processes: the engine's referee,
//! the runner and the league's one-game glue (`play_cardjitsu`) together.
//!
//! Every misbehaving bot of bots/faulty/ plays a whole game against
//! bots/random-py; the game must end with an outcome, the faults in the
//! record's `conduct` must be the ones the bot deserves and agree with the
//! engine's per-round `faults`, and no process may outlive the game.
//!
//! `play_cardjitsu` does not hand out process-group ids, so every bot is
//! started through `sh -c 'echo $$ >> PIDFILE; exec BOT'`: the runner puts
//! each process in a group of its own (pgid = pid) and `exec` keeps the
//! pid, so the file lists the group of every process the seat used.
//! `pidfile_lists_the_runners_process_groups` checks that claim against
//! the runner's own `pgids`.

use std::sync::Arc;

use dojo_engine::cardjitsu::{CardJitsu, OutcomeReason};
use dojo_engine::protocol::Fault;
use dojo_games::{CardJitsuOptions, CardJitsuRecord, CardJitsuSetup, play_cardjitsu};
use dojo_runner::{BotSpec, FaultCounts, Mode, RunOptions, Seat, process_group_alive};

use dojo_testkit::bots::{
    faults, faulty_inline as faulty, pid_recording_options, read_pids, recording_pids,
};

/// A deal (with random-py's moves, drawn from its `DOJO_SEED`) under which
/// `crash_midgame.py`'s game outlasts its first restart.
const SEED: u64 = 20_240_612;

/// A tournament bot from its directory under bots/.
fn tournament(name: &str) -> BotSpec {
    dojo_testkit::bots::bundled(name)
}

fn setup(max_rounds: u32) -> CardJitsuSetup {
    let mut setup = CardJitsuSetup::new(SEED, CardJitsuOptions::default());
    setup.settings.max_rounds = max_rounds;
    setup
}

/// For games where every bot should answer: generous, so a loaded machine
/// does not turn a slow answer into a timeout (it costs time only when a
/// bot does time out).
fn generous() -> RunOptions {
    // A bot that exits after each move starts a process within its move
    // time: 10 s covers a Python start on any machine.
    pid_recording_options(10_000, 10_000)
}

/// For bots that time out: a short move timeout, but enough startup
/// allowance for a slow interpreter. The opponent could time out on a very
/// loaded machine, so games with these options check only the culprit.
fn quick() -> RunOptions {
    pid_recording_options(350, 1000)
}

/// A finished game and the pids (= process groups) of each seat.
struct Played {
    record: CardJitsuRecord,
    pids: [Vec<i32>; 2],
}

impl Played {
    fn rounds(&self) -> u32 {
        self.record.play.rounds.len() as u32
    }

    /// The engine's fault of `seat` in every round.
    fn round_faults(&self, seat: usize) -> Vec<Option<Fault>> {
        self.record
            .play
            .rounds
            .iter()
            .map(|r| r.faults[seat])
            .collect()
    }

    fn choices(&self, seat: usize) -> Vec<usize> {
        self.record
            .play
            .rounds
            .iter()
            .map(|r| r.choices[seat])
            .collect()
    }
}

/// Plays `bots` (already wrapped or not) through `play_cardjitsu`, then
/// checks what must hold for any pair of bots.
fn play(bots: [BotSpec; 2], max_rounds: u32, opts: &RunOptions) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let pidfiles = [0, 1].map(|s| tmp.path().join(format!("seat{s}.pids")));
    let [a, b] = bots;
    let bots = [
        Arc::new(recording_pids(a, &pidfiles[0])),
        Arc::new(recording_pids(b, &pidfiles[1])),
    ];
    let mut observed = 0;
    let record = play_cardjitsu(bots, &setup(max_rounds), opts, &mut |g: &CardJitsu| {
        observed = g.rounds_played();
    })
    .expect("the game runs to the end");
    let played = Played {
        record,
        pids: [0, 1].map(|s| read_pids(&pidfiles[s])),
    };
    check_finished(&played, max_rounds);
    assert_eq!(observed, played.rounds(), "the observer saw every round");
    for seat in 0..2 {
        check_conduct_matches_rounds(&played, seat);
        check_no_survivors(&played, seat);
    }
    played
}

fn check_finished(played: &Played, max_rounds: u32) {
    let play = &played.record.play;
    let outcome = play.outcome.as_ref().expect("the game has an outcome");
    assert_eq!(outcome.rounds, played.rounds());
    assert!(played.rounds() >= 1 && played.rounds() <= max_rounds);
    match outcome.winner {
        Some(w) => {
            assert_eq!(outcome.reason, OutcomeReason::Triple);
            assert!(w == 1 || w == 2);
            assert_eq!(played.record.scores()[usize::from(w) - 1], 1.0);
        }
        None => {
            assert_eq!(outcome.reason, OutcomeReason::RoundCap);
            assert_eq!(played.rounds(), max_rounds);
        }
    }
    for (i, round) in play.rounds.iter().enumerate() {
        assert_eq!(round.round as usize, i + 1);
        for seat in 0..2 {
            assert_eq!(round.cards[seat], round.hands[seat][round.choices[seat]]);
        }
    }
}

/// The runner's counts and the engine's per-round faults tell one story.
fn check_conduct_matches_rounds(played: &Played, seat: usize) {
    let conduct = &played.record.conduct[seat];
    let count = |kind: Fault| {
        played
            .round_faults(seat)
            .iter()
            .filter(|f| **f == Some(kind))
            .count() as u64
    };
    assert_eq!(
        (
            count(Fault::Timeout),
            count(Fault::Crash),
            count(Fault::Invalid)
        ),
        (
            conduct.faults.timeout,
            conduct.faults.crash,
            conduct.faults.invalid
        ),
        "seat {seat}: {conduct:?}"
    );
    // Restarts follow faults that killed the process; never more of them
    // than processes started after the first.
    assert!(
        conduct.faults.restart < u64::from(conduct.spawns.max(1)),
        "{conduct:?}"
    );
}

fn check_no_survivors(played: &Played, seat: usize) {
    let conduct = &played.record.conduct[seat];
    assert_eq!(
        played.pids[seat].len() as u32,
        conduct.spawns,
        "seat {seat}: one pid per process started"
    );
    for &pid in &played.pids[seat] {
        assert!(
            !process_group_alive(pid),
            "seat {seat}: process group {pid} survived the game"
        );
    }
}

/// `file` in seat 1 against random-py in seat 0.
fn versus(file: &str, max_rounds: u32, opts: &RunOptions) -> Played {
    versus_spec(faulty(file), max_rounds, opts)
}

fn versus_spec(bot: BotSpec, max_rounds: u32, opts: &RunOptions) -> Played {
    let played = play([tournament("random-py"), bot], max_rounds, opts);
    assert_eq!(played.record.seats[0].bot, "random-py");
    played
}

/// Seat 0 (random-py) played cleanly in one process.
fn assert_opponent_clean(played: &Played) {
    let c = &played.record.conduct[0];
    assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    assert_eq!(c.spawns, 1);
    assert_eq!(c.unsolicited, 0);
    if played.rounds() > 1 {
        assert_eq!(c.mode, Mode::Persistent);
    }
}

#[test]
fn crash_midgame_crashes_every_fourth_round_and_is_restarted() {
    let p = versus("crash_midgame.py", 40, &generous());
    assert_opponent_clean(&p);
    let n = p.rounds();
    // Fixed by the seed (random-py is seeded, crash_midgame deterministic).
    assert!(
        n >= 5,
        "the game should outlast the first restart: {n} rounds"
    );
    let c = &p.record.conduct[1];
    // Rounds 1-3 answered, 4 crash; restarted for 5: 5-7 answered, 8 crash...
    assert_eq!(c.faults, faults(0, n / 4, 0, (n - 1) / 4), "{c:?} in {n}");
    assert_eq!(c.spawns, (n - 1) / 4 + 1);
    for (i, f) in p.round_faults(1).iter().enumerate() {
        let round = i + 1;
        let want = (round % 4 == 0).then_some(Fault::Crash);
        assert_eq!(*f, want, "round {round}");
    }
    // Each life answers 0, 1, 2 for its first three hands.
    for (i, choice) in p.choices(1).iter().enumerate() {
        if (i + 1) % 4 != 0 {
            assert_eq!(*choice, i % 4, "round {}", i + 1);
        }
    }
}

#[test]
fn hang_times_out_is_killed_and_restarted() {
    let p = versus("hang.py", 40, &quick());
    let n = p.rounds();
    let c = &p.record.conduct[1];
    // Answers 1-2, hangs on 3; restarted for 4: answers 4-5, hangs on 6...
    assert_eq!(c.faults, faults(n / 3, 0, 0, (n - 1) / 3), "{c:?} in {n}");
    assert_eq!(c.spawns, (n - 1) / 3 + 1);
    for (i, f) in p.round_faults(1).iter().enumerate() {
        let round = i + 1;
        assert_eq!(
            *f,
            (round % 3 == 0).then_some(Fault::Timeout),
            "round {round}"
        );
        if f.is_none() {
            assert_eq!(p.choices(1)[i], 0, "round {round}");
        }
    }
}

#[test]
fn garbage_is_invalid_every_round_and_stays_alive() {
    let p = versus("garbage.py", 40, &generous());
    assert_opponent_clean(&p);
    let n = p.rounds();
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, faults(0, 0, n, 0), "{c:?}");
    assert_eq!(c.spawns, 1);
    assert!(p.round_faults(1).iter().all(|f| *f == Some(Fault::Invalid)));
}

#[test]
fn huge_line_is_one_invalid_answer_and_the_game_goes_on() {
    let p = versus("huge_line.py", 40, &generous());
    assert_opponent_clean(&p);
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, faults(0, 0, 1, 0), "{c:?}");
    assert_eq!(c.spawns, 1);
    assert_eq!(c.unsolicited, 0, "the rest of the huge line is skipped");
    let f = p.round_faults(1);
    assert_eq!(f[0], Some(Fault::Invalid));
    assert!(f[1..].iter().all(Option::is_none));
    assert!(p.choices(1)[1..].iter().all(|&c| c == 2));
}

#[test]
fn exit_immediately_crashes_every_round() {
    let p = versus("exit_immediately.py", 40, &generous());
    assert_opponent_clean(&p);
    let n = p.rounds();
    let c = &p.record.conduct[1];
    // Exiting 0 without ever answering is a crash, not per-turn play.
    assert_eq!(c.faults, faults(0, n, 0, n - 1), "{c:?}");
    assert_eq!(c.spawns, n);
    assert!(p.round_faults(1).iter().all(|f| *f == Some(Fault::Crash)));
    assert!(p.record.timing.latency_us[1].is_empty());
}

#[test]
fn per_turn_bot_is_started_every_round_without_faults() {
    let p = versus("per_turn.py", 40, &generous());
    assert_opponent_clean(&p);
    let n = p.rounds();
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    assert_eq!(c.spawns, n);
    if n > 1 {
        assert_eq!(c.mode, Mode::PerTurn);
    }
    assert!(p.round_faults(1).iter().all(Option::is_none));
}

#[test]
fn stderr_flood_costs_nothing() {
    let p = versus("flood_stderr.py", 20, &generous());
    assert_opponent_clean(&p);
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    assert_eq!(c.spawns, 1);
    assert!(p.choices(1).iter().all(|&c| c == 3));
}

#[test]
fn fork_sleeper_times_out_and_its_children_die_with_it() {
    let rounds = 3;
    let p = versus("fork_sleeper.py", rounds, &quick());
    // Never answers: every round times out, each with a fresh process.
    let n = p.rounds();
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, faults(n, 0, 0, n - 1), "{c:?}");
    assert_eq!(c.spawns, n);
    // `play` checked every group; the sleepers were in them.
}

#[test]
fn late_answers_are_timeouts_and_never_used() {
    // Later than move timeout + startup allowance: every prompt goes to a
    // fresh process (the last one was killed) and every one is missed.
    let mut late = faulty("late.py");
    late.command
        .splice(0..0, ["env".to_string(), "LATE_DELAY_MS=2500".to_string()]);
    let p = versus_spec(late, 3, &quick());
    let n = p.rounds();
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, faults(n, 0, 0, n - 1), "{c:?}");
    assert_eq!(c.unsolicited, 0, "a killed process's answer is not read");
    assert!(p.round_faults(1).iter().all(|f| *f == Some(Fault::Timeout)));
}

#[test]
fn extra_lines_are_unsolicited_not_faults() {
    let p = versus("extra_lines.py", 40, &generous());
    assert_opponent_clean(&p);
    let n = p.rounds();
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    assert_eq!(c.unsolicited, n, "one chatter line per answer");
    assert!(p.choices(1).iter().all(|&c| c == 1));
}

#[test]
fn random_ok_plays_cleanly() {
    let p = versus("random_ok.py", 40, &generous());
    assert_opponent_clean(&p);
    let c = &p.record.conduct[1];
    assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    assert_eq!(c.spawns, 1);
    assert_eq!(c.unsolicited, 0);
}

#[test]
fn pidfile_lists_the_runners_process_groups() {
    // The runner directly, to compare the wrapper's pids with its pgids.
    let tmp = tempfile::tempdir().unwrap();
    let pidfile = tmp.path().join("pids");
    let bots = [
        tournament("random-py"),
        recording_pids(faulty("hang.py"), &pidfile),
    ];
    let seats: Vec<Seat> = bots.into_iter().map(|b| Seat::new(Arc::new(b))).collect();
    let mut game = CardJitsu::new(SEED, setup(7).settings);
    let run = dojo_runner::play(&mut game, &seats, &quick()).unwrap();
    assert!(game.is_over());
    let hang = &run.seats[1];
    assert!(hang.faults.timeout >= 1, "{hang:?}");
    assert_eq!(read_pids(&pidfile), hang.pgids);
    for seat in &run.seats {
        for &pgid in &seat.pgids {
            assert!(!process_group_alive(pgid), "{}: {pgid} survived", seat.bot);
        }
    }
}

/// A record as JSON without its timings, the one part allowed to differ.
fn sans_timing(record: &CardJitsuRecord) -> serde_json::Value {
    let mut value = serde_json::to_value(record).unwrap();
    value.as_object_mut().unwrap().remove("timing");
    value
}

/// Plays two tournament bots without the pid wrapper (so their command
/// lines are the same in every game).
fn plain(names: [&str; 2]) -> CardJitsuRecord {
    let bots = names.map(|n| Arc::new(tournament(n)));
    let record = play_cardjitsu(bots, &setup(40), &generous(), &mut |_| {}).unwrap();
    for c in &record.conduct {
        assert_eq!(c.faults, FaultCounts::default(), "{c:?}");
    }
    record
}

#[test]
fn seeded_bots_replay_exactly_through_processes() {
    let first = plain(["random-py", "random-sh"]);
    let second = plain(["random-py", "random-sh"]);
    assert!(first.play.outcome.is_some());
    assert_eq!(sans_timing(&first), sans_timing(&second));
    assert_ne!(first.timing.latency_us, Vec::<Vec<u64>>::new());
}

#[test]
fn swapping_seats_keeps_each_seats_first_hand() {
    let ab = plain(["random-py", "random-sh"]);
    let ba = plain(["random-sh", "random-py"]);
    assert_eq!(ab.seats[0].bot, "random-py");
    assert_eq!(ba.seats[0].bot, "random-sh");
    for seat in 0..2 {
        assert_eq!(ab.play.rounds[0].hands[seat], ba.play.rounds[0].hands[seat]);
    }
    // The seats are dealt differently, so the check above can fail.
    assert_ne!(ab.play.rounds[0].hands[0], ab.play.rounds[0].hands[1]);
}

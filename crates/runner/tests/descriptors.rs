//! A dojo holding more descriptors than a bot may open (many games at
//! once) still starts its bots: the bot's open-files limit must not apply
//! to what the runner's forked child does before exec.
//!
//! Its own test binary, because it opens over a thousand descriptors.

use std::sync::Arc;

use dojo_engine::protocol::Answer;
use dojo_runner::{Mode, SandboxMode, Seat, play, probe};
use dojo_testkit::referee::Cards;

/// The default `--limit-files`.
const BOT_FILES: u64 = 1024;

#[test]
fn bots_start_while_dojo_holds_more_descriptors_than_a_bot_may() {
    let pid_namespace = probe()
        .iter()
        .any(|l| l.name == "pid-namespace" && l.available);
    if !pid_namespace {
        // Without a PID namespace the child opens nothing after its
        // limits are set, so there is nothing to show.
        eprintln!("skipped: no PID namespaces here (see dojo doctor)");
        return;
    }
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let want = BOT_FILES + 200;
    if limit.maximum.is_some_and(|hard| hard < want) {
        eprintln!("skipped: this process may not open {want} descriptors");
        return;
    }
    if limit.current.is_some_and(|soft| soft < want) {
        setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(want),
                maximum: limit.maximum,
            },
        )
        .expect("raise the soft limit");
    }
    // Fill the descriptor table past the bots' limit.
    let null = std::fs::File::open("/dev/null").expect("/dev/null");
    let held: Vec<std::fs::File> = (0..BOT_FILES + 50)
        .map(|_| null.try_clone().expect("dup"))
        .collect();
    let bot = dojo_testkit::bots::script("faulty", "random_ok.py", &[], Mode::Persistent);
    let seats = [Seat::new(Arc::clone(&bot)), Seat::new(bot)];
    let mut options = dojo_testkit::bots::run_options(3000, 5000);
    options.controls.sandbox = SandboxMode::Auto;
    let mut referee = Cards::new(3);
    let run = play(&mut referee, &seats, &options).expect("game runs");
    drop(held);
    for (seat, s) in run.seats.iter().enumerate() {
        assert_eq!(s.faults.total(), 0, "seat {seat}: {s:?}");
    }
    for round in &referee.history {
        assert!(
            round.iter().all(|a| matches!(a, Answer::Move(_))),
            "{:?}",
            referee.history
        );
    }
}

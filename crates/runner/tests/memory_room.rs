//! Why games in flight are sized by memory: a bot that fills its memory
//! cap in many small processes, with more games in flight than the memory
//! there holds, gets an honest bot of another game killed by the OOM
//! killer (the largest single process when memory runs out), though that
//! bot stayed well under its own cap. `dojo league` and `dojo compare`
//! play no more games at once than their bots' caps fit
//! (`crates/cli/tests/cli/scale.rs` tests that sizing); the runner plays
//! what it is given, so this test plays the games itself: two at once,
//! then one after the other, in a memory control group of 1 GiB. And
//! where memory runs out all the same (other work on the machine), the
//! honest bot is not charged: its game fails, to be played again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dojo_runner::{BotSpec, FaultCounts, Mode, RunError, RunOptions, Seat, play};
use dojo_testkit::referee::Cards;

/// Set in the child process this test runs itself in: the control group
/// it moves into first.
const GROUP: &str = "DOJO_TEST_MEMORY_GROUP";

fn bot(file: &str, args: &[&str]) -> Arc<BotSpec> {
    dojo_testkit::bots::script("hostile", file, args, Mode::Persistent)
}

/// 400 MiB caps: the hog holds about 335 (five children of 60 MiB, and
/// the interpreters), the honest bot about 310. One game fits in 1 GiB;
/// two do not.
fn options() -> RunOptions {
    let mut opts = dojo_testkit::bots::run_options(5000, 10_000);
    opts.controls.memory_mib = Some(400);
    opts
}

/// The honest bot's faults in one game against the hog, or why the game
/// failed.
fn honest_faults() -> Result<FaultCounts, RunError> {
    let seats = [
        Seat::new(bot("big_table.py", &["300"])),
        Seat::new(bot("spread_hog.py", &["5", "60"])),
    ];
    let mut referee = Cards {
        rounds: 6,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, &options())?;
    eprintln!(
        "honest: {:?}; hog: {:?}",
        run.seats[0].faults, run.seats[1].faults
    );
    Ok(run.seats[0].faults)
}

#[test]
fn games_whose_caps_overfill_the_memory_let_a_hog_get_an_honest_bot_killed() {
    let Some(group) = std::env::var_os(GROUP) else {
        run_in_a_group_of_one_gib();
        return;
    };
    std::fs::write(
        Path::new(&group).join("cgroup.procs"),
        std::process::id().to_string(),
    )
    .expect("the child joins its group");
    // One at a time, as the sizing plays them: the honest bot is never
    // touched.
    for _ in 0..2 {
        let faults = honest_faults().expect("one game at a time is played");
        assert_eq!(faults.total(), 0, "one game at a time");
    }
    // Two at once: 1.3 GiB of bots in 1 GiB. The OOM killer takes an
    // honest bot, which is under its cap: that game fails, and no game
    // charges the honest bot anything.
    let results: Vec<Result<FaultCounts, RunError>> = std::thread::scope(|scope| {
        let games: Vec<_> = (0..2).map(|_| scope.spawn(honest_faults)).collect();
        games.into_iter().map(|g| g.join().unwrap()).collect()
    });
    eprintln!("two at once: {results:?}");
    assert!(
        results
            .iter()
            .any(|r| matches!(r, Err(RunError::MemoryElsewhere { bot }) if bot == "big_table")),
        "the OOM killer took the honest bot, and its game failed: {results:?}"
    );
    for result in &results {
        match result {
            Ok(faults) => assert_eq!(faults.total(), 0, "{results:?}"),
            Err(RunError::MemoryElsewhere { .. }) => {}
            Err(other) => panic!("{other}"),
        }
    }
}

/// Makes a memory group of 1 GiB and runs this test again in a child
/// process that joins it (the bots' groups are made below the group of
/// the process that plays them); removes the group after. Skips, saying
/// why, where no memory group can be made.
fn run_in_a_group_of_one_gib() {
    let place = [
        ("/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
        ("/sys/fs/cgroup", "memory.max"),
    ]
    .into_iter()
    .map(|(base, file)| (PathBuf::from(base), file))
    .find(|(base, _)| base.join("cgroup.procs").exists());
    let Some((base, file)) = place else {
        eprintln!("skipped: no control group hierarchy");
        return;
    };
    let dir = base.join(format!("dojo-memory-room-test-{}", std::process::id()));
    if std::fs::create_dir(&dir).is_err()
        || std::fs::write(dir.join(file), (1u64 << 30).to_string()).is_err()
    {
        let _ = std::fs::remove_dir(&dir);
        eprintln!(
            "skipped: cannot make a memory control group under {}",
            base.display()
        );
        return;
    }
    let name = "games_whose_caps_overfill_the_memory_let_a_hog_get_an_honest_bot_killed";
    let group = Removed(dir);
    dojo_testkit::child::rerun_in_child(name, &[(GROUP, group.0.as_os_str())]);
}

/// A control group removed when dropped (the child has left it by then:
/// it exited), also when the child's test failed.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        dojo_testkit::procs::remove_cgroup(&self.0);
    }
}

//! Hostile bots (bots/hostile/) against the containment layers: each plays
//! full games against an honest bot, and afterwards nothing it started is
//! left running and it could not reach what it attacked. A layer this
//! machine lacks (see `dojo_runner::probe`) skips its test with a printed
//! reason.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use dojo_engine::protocol::Answer;
use dojo_runner::{BotSpec, Controls, MatchRun, Mode, RunOptions, SandboxMode, Seat, play, probe};
use dojo_testkit::paths::bots_dir;
use dojo_testkit::procs::{tagged_processes, unique_tag};
use dojo_testkit::referee::Cards;

fn bot(folder: &str, file: &str, args: &[&str]) -> Arc<BotSpec> {
    dojo_testkit::bots::script(folder, file, args, Mode::Auto)
}

fn options() -> RunOptions {
    dojo_testkit::bots::run_options(1500, 3000)
}

/// `hostile` (seat 1) against the honest random_ok.py (seat 0).
fn versus(hostile: Arc<BotSpec>, opts: &RunOptions, rounds: usize) -> (Cards, MatchRun) {
    let seats = [
        Seat::new(bot("faulty", "random_ok.py", &[])),
        Seat::new(hostile),
    ];
    let mut referee = Cards {
        rounds,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, opts).expect("game runs to the end");
    assert_eq!(referee.history.len(), rounds, "every round was played");
    (referee, run)
}

/// Whether this machine has the layer; prints why a test is skipped if not.
fn have(layer: &str) -> bool {
    let found = probe()
        .iter()
        .find(|l| l.name == layer)
        .expect("known layer");
    if !found.available {
        eprintln!("skipped: no {layer} here: {}", found.detail);
    }
    found.available
}

#[test]
fn escaped_descendants_die_with_their_game() {
    // Any one of the three does it (CI runs this suite with the first two
    // skipped too).
    if !have("pid-namespace") && !have("cgroup-pids") && !have("subreaper") {
        return;
    }
    let tag = unique_tag("escaper");
    let (referee, run) = versus(bot("hostile", "escaper.py", &[&tag]), &options(), 3);
    let seat = &run.seats[1];
    assert_eq!(seat.faults.total(), 0, "{seat:?}");
    assert!(referee.history.iter().all(|r| r[1] == Answer::Move(0)));
    // play() returns only once the bot's namespace is gone, its cgroup
    // emptied and the sweep done: no waiting.
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the game: {left:?}");
}

/// Two seats, `rounds` rounds in which only seat 0 is asked.
struct OnlySeatZero {
    rounds: usize,
    played: usize,
}

impl dojo_engine::protocol::Referee for OnlySeatZero {
    type Move = u8;

    fn seats(&self) -> usize {
        2
    }

    fn greeting(&self, seat: usize) -> Vec<String> {
        vec![(seat + 1).to_string()]
    }

    fn prompts(&self) -> Vec<dojo_engine::protocol::Prompt> {
        if self.played >= self.rounds {
            return Vec::new();
        }
        vec![dojo_engine::protocol::Prompt {
            seat: 0,
            lines: vec!["AAA,BBB,CCC,DDD,EEE".to_string()],
        }]
    }

    fn parse_reply(&self, _seat: usize, _lines: &[String]) -> dojo_engine::protocol::Reply<u8> {
        dojo_engine::protocol::Reply::Complete(0)
    }

    fn apply(&mut self, _answers: Vec<Answer<u8>>) -> Vec<dojo_engine::protocol::Notice> {
        self.played += 1;
        Vec::new()
    }

    fn farewell(&self) -> Vec<String> {
        vec!["Draw!".to_string()]
    }
}

/// A game's boxes start every seat's bot when the first is asked for (so
/// they start at once, see `play/procs.rs`): a seat the game then never
/// asks still had a process, which must be gone with the game, with
/// everything it left, and which is not counted as a spawn.
#[test]
fn a_seat_never_asked_leaves_nothing_behind() {
    if !have("pid-namespace") && !have("cgroup-pids") && !have("subreaper") {
        return;
    }
    let tag = unique_tag("escaper-unasked");
    let seats = [
        Seat::new(bot("faulty", "random_ok.py", &[])),
        Seat::new(bot("hostile", "escaper.py", &[&tag])),
    ];
    let mut referee = OnlySeatZero {
        rounds: 3,
        played: 0,
    };
    let run = play(&mut referee, &seats, &options()).expect("game runs");
    assert_eq!(referee.played, 3);
    assert_eq!(run.seats[1].spawns, 0, "{:?}", run.seats[1]);
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the game: {left:?}");
}

/// Runs the test `name` of this binary again in a child process with
/// `layer` added to `DOJO_SANDBOX_SKIP` (layers are probed once per
/// process, so this is the only way to turn one off for one test). True
/// in the child, where the test's body then runs; false in the parent,
/// once the child has passed.
fn in_a_process_without(name: &str, layer: &str) -> bool {
    in_a_child_process(name, Some(layer), &[])
}

/// [`in_a_process_without`], with `layer` skipped in the child if given,
/// and `env` set in the child's environment (which dojo reads, such as
/// `CARGO_HOME`).
fn in_a_child_process(name: &str, layer: Option<&str>, env: &[(&str, &std::path::Path)]) -> bool {
    const CHILD: &str = "DOJO_TEST_CHILD_PROCESS";
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let skip = layer.map(|layer| match std::env::var("DOJO_SANDBOX_SKIP") {
        Ok(s) if !s.trim().is_empty() => format!("{s},{layer}"),
        _ => layer.to_string(),
    });
    let mut vars: Vec<(&str, &std::ffi::OsStr)> =
        env.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
    if let Some(skip) = &skip {
        vars.push(("DOJO_SANDBOX_SKIP", skip.as_ref()));
    }
    vars.push((CHILD, "1".as_ref()));
    dojo_testkit::child::rerun_in_child(name, &vars);
    false
}

/// Options with no namespace, no Landlock or seccomp and no memory cap.
/// The process cap and the CPU share always hold (no flag lifts them): a
/// test that needs no cgroup at all runs in a process without
/// `cgroup-pids` and `cgroup-cpu-share` (either group kills what is left
/// in it when the process ends).
fn nothing_but_the_process_group() -> RunOptions {
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    opts.controls.memory_mib = None;
    opts
}

#[test]
fn without_namespaces_or_cgroups_the_subreaper_still_sweeps_escapers() {
    if !have("subreaper") {
        return;
    }
    let tag = unique_tag("escaper-subreaper");
    let (referee, run) = versus(
        bot("hostile", "escaper.py", &[&tag]),
        &nothing_but_the_process_group(),
        2,
    );
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
    assert!(referee.history.iter().all(|r| r[1] == Answer::Move(0)));
    // The sweep ran before play() returned: no waiting.
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the game: {left:?}");
}

#[test]
fn without_the_subreaper_escapers_do_survive() {
    // The counterpart of the test above: shows the test can fail (the
    // escaper does escape the process group), and cleans up after itself.
    if !in_a_process_without(
        "without_the_subreaper_escapers_do_survive",
        "subreaper,cgroup-pids,cgroup-cpu-share",
    ) {
        return;
    }
    // This process adopts the escapees itself (it never sweeps: the layer
    // is skipped), so that a subreaper above it, such as the parent test
    // process, cannot sweep them before they are counted.
    rustix::process::set_child_subreaper(Some(rustix::process::getpid())).expect("prctl");
    let tag = unique_tag("escaper-off");
    versus(
        bot("hostile", "escaper.py", &[&tag]),
        &nothing_but_the_process_group(),
        1,
    );
    let left = tagged_processes(&tag);
    for &pid in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(
        !left.is_empty(),
        "escapers are expected to survive with no namespace, cgroup or subreaper"
    );
}

#[test]
fn without_namespaces_the_cgroup_still_sweeps_escapers() {
    // Without the subreaper, which would sweep them too.
    if !in_a_process_without(
        "without_namespaces_the_cgroup_still_sweeps_escapers",
        "subreaper",
    ) || !have("cgroup-pids")
    {
        return;
    }
    let tag = unique_tag("escaper-cgroup");
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (_, run) = versus(bot("hostile", "escaper.py", &[&tag]), &opts, 2);
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the game: {left:?}");
}

#[test]
fn a_bot_sees_only_the_documented_environment() {
    let mut seat = Seat::new(bot("hostile", "env_reader.py", &[]));
    seat.env.push(("DOJO_SEED".to_string(), "7".to_string()));
    let seats = [Seat::new(bot("faulty", "random_ok.py", &[])), seat];
    let mut referee = Cards {
        rounds: 2,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, &options()).expect("game runs");
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{}",
        run.seats[1].stderr
    );
}

/// A box's init blocks every signal while it starts a bot (so no handler
/// dojo left it runs in the child that shares its memory): the bot must
/// start with none blocked, its first process and every later one.
#[test]
fn a_bot_starts_with_no_signal_blocked() {
    for mode in [Mode::Persistent, Mode::PerTurn] {
        let spec = dojo_testkit::bots::script("hostile", "signal_state.py", &[], mode);
        let (referee, run) = versus(spec, &options(), 3);
        assert!(
            referee.history.iter().all(|r| r[1] == Answer::Move(0)),
            "{mode:?}: {}",
            run.seats[1].stderr
        );
    }
}

#[test]
fn no_connection_leaves_the_bot() {
    // A network namespace or Landlock's network rules (CI runs this suite
    // again with the namespaces skipped, for the latter alone).
    if !have("network-namespace") && !have("landlock-network") {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port().to_string();
    let (referee, run) = versus(bot("hostile", "connect.py", &[&port]), &options(), 2);
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{}",
        run.seats[1].stderr
    );
    assert!(listener.accept().is_err(), "a connection was made");
}

#[test]
fn a_bot_cannot_kill_its_opponent_or_stop_dojo() {
    // A PID namespace hides the others; Landlock (ABI 6) scopes signals.
    let scoped = probe()
        .iter()
        .any(|l| l.name == "landlock" && l.available && l.detail.contains("cannot signal"));
    if !scoped && !have("pid-namespace") {
        return;
    }
    let (_, run) = versus(
        bot("hostile", "killer.py", &["random_ok.py"]),
        &options(),
        4,
    );
    let victim = &run.seats[0];
    assert_eq!(victim.faults.total(), 0, "{victim:?}");
    assert_eq!(victim.spawns, 1, "{victim:?}");
}

#[test]
fn a_bot_that_cannot_be_restarted_is_charged_crashes_and_the_game_goes_on() {
    // As dojo's own user, in the host's tree: a seat user could not chmod
    // the copy, and in a minimal root its directory is read-only.
    if !in_a_process_without(
        "a_bot_that_cannot_be_restarted_is_charged_crashes_and_the_game_goes_on",
        "seat-user,minimal-root",
    ) {
        return;
    }
    // A copy, since the bot removes its own execute bit.
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("unexec.py");
    std::fs::copy(bots_dir().join("hostile/unexec.py"), &script).expect("copy");
    let spec = Arc::new(BotSpec {
        name: "unexec".to_string(),
        command: vec![script.to_string_lossy().into_owned()],
        dir: dir.path().to_path_buf(),
        ..(*bot("hostile", "unexec.py", &[])).clone()
    });
    let (referee, run) = versus(spec, &options(), 6);
    let seat = &run.seats[1];
    // Rounds 3..=6: the crash, then three failed restarts.
    assert_eq!(seat.faults.crash, 4, "{seat:?}");
    assert_eq!(seat.spawns, 1, "{seat:?}");
    assert!(
        seat.stderr.contains("cannot start the bot again"),
        "{}",
        seat.stderr
    );
    assert!(referee.history[..2].iter().all(|r| r[1] == Answer::Move(0)));
    assert!(
        referee.history[2..]
            .iter()
            .all(|r| r[1] == Answer::Fault(dojo_engine::protocol::Fault::Crash))
    );
}

/// A league-like layout in a temporary directory: `bots/snoop/` (a copy of
/// snoop.py), `bots/other/bot.py`, `results/` with a file, and a canary
/// file beside them. Returns the root and the snoop bot.
fn snoop_layout() -> (tempfile::TempDir, Arc<BotSpec>, Vec<PathBuf>) {
    let root = tempfile::tempdir().expect("tempdir");
    let path = |p: &str| root.path().join(p);
    for dir in ["bots/snoop", "bots/other", "results"] {
        std::fs::create_dir_all(path(dir)).expect("mkdir");
    }
    std::fs::copy(
        bots_dir().join("hostile/snoop.py"),
        path("bots/snoop/snoop.py"),
    )
    .expect("copy");
    std::fs::write(path("bots/other/bot.py"), "print('secret strategy')\n").expect("write");
    std::fs::write(path("results/league.json"), "{}\n").expect("write");
    std::fs::write(path("canary.txt"), "canary\n").expect("write");
    let dir = path("bots/snoop");
    // Relative to the bot's directory, as a submission would write them.
    let targets = ["../other/bot.py", "../../results", "../../canary.txt"];
    let mut command = vec![dir.join("snoop.py").to_string_lossy().into_owned()];
    command.extend(targets.iter().map(|t| t.to_string()));
    let spec = Arc::new(BotSpec {
        name: "snoop".to_string(),
        command,
        dir,
        ..(*bot("hostile", "snoop.py", &[])).clone()
    });
    let watched = vec![
        path("canary.txt"),
        path("bots/other/bot.py"),
        path("results/league.json"),
    ];
    (root, spec, watched)
}

#[test]
fn a_confined_bot_reads_and_writes_nothing_outside_its_scratch_directory() {
    if !have("landlock") {
        return;
    }
    let (root, spec, watched) = snoop_layout();
    let before: Vec<_> = watched.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let (referee, run) = versus(spec, &options(), 2);
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    let after: Vec<_> = watched.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert_eq!(before, after, "a watched file changed");
    for dir in [".", "bots/other", "bots/snoop", "results"] {
        assert!(
            !root.path().join(dir).join("snooped.txt").exists(),
            "written in {dir}"
        );
    }
    // The honest opponent, confined the same way, still played.
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

#[test]
fn without_a_sandbox_the_snoop_does_reach_other_files() {
    // The counterpart of the test above: the bot and the checks can fail.
    let (root, spec, _) = snoop_layout();
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run) = versus(spec, &opts, 1);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
    assert!(root.path().join("snooped.txt").exists());
}

#[test]
fn the_scratch_directory_is_writable_and_emptied_after_the_game() {
    let (_root, spec, _) = snoop_layout();
    let name = unique_tag("scratch");
    let spec = Arc::new(BotSpec {
        name: name.clone(),
        command: spec.command[..1].to_vec(),
        ..(*spec).clone()
    });
    let (referee, run) = versus(spec, &options(), 1);
    // 0: it wrote $TMPDIR/mine.txt (2 if it could not).
    assert_eq!(
        referee.history[0][1],
        Answer::Move(0),
        "{}",
        run.seats[1].stderr
    );
    // Scratch directories are made in this process's run directory.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("dojo-run-"))
        .flat_map(|run| {
            std::fs::read_dir(run.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{name}-"))
        })
        .collect();
    // The bot's box, kept for its next game, keeps its directory, empty.
    let full: Vec<_> = left
        .iter()
        .filter(|e| std::fs::read_dir(e.path()).is_ok_and(|mut d| d.next().is_some()))
        .collect();
    assert!(full.is_empty(), "scratch directories not emptied: {full:?}");
}

#[test]
fn system_calls_no_bot_needs_fail_with_eperm_or_enosys() {
    if !have("seccomp") {
        return;
    }
    let (referee, run) = versus(bot("hostile", "syscalls.py", &[]), &options(), 2);
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{}",
        run.seats[1].stderr
    );
    // Not killed: one process played the whole game.
    assert_eq!(run.seats[1].spawns, 1, "{:?}", run.seats[1]);
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
}

#[test]
fn without_a_sandbox_those_calls_reach_the_kernel() {
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run) = versus(bot("hostile", "syscalls.py", &[]), &opts, 1);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

fn limited(limits: impl FnOnce(&mut Controls)) -> RunOptions {
    let mut opts = options();
    limits(&mut opts.controls);
    opts
}

#[test]
fn a_fork_bomb_meets_the_process_cap_and_leaves_nothing_behind() {
    if !have("cgroup-pids") {
        return;
    }
    let tag = unique_tag("forkbomb");
    let opts = limited(|c| c.processes = 24);
    let (referee, run) = versus(bot("hostile", "hog.py", &["fork", &tag]), &opts, 2);
    let seat = &run.seats[1];
    assert!(seat.stderr.contains("fork failed after"), "{seat:?}");
    // Capped, it plays on: one limit fault, no crash, every hand answered.
    assert_eq!(seat.faults.limit, 1, "{seat:?}");
    assert_eq!(seat.limits, ["processes"], "{seat:?}");
    assert!(referee.history.iter().all(|r| r[1] == Answer::Move(0)));
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
    // Every child of the bomb carries the tag in its command line.
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the game: {left:?}");
}

#[test]
fn a_memory_hog_is_stopped_charged_a_limit_and_the_game_goes_on() {
    if !have("cgroup-memory") {
        return;
    }
    let tag = unique_tag("memhog");
    let opts = limited(|c| c.memory_mib = Some(64));
    let (referee, run) = versus(bot("hostile", "hog.py", &["memory", &tag]), &opts, 2);
    let seat = &run.seats[1];
    assert!(seat.faults.limit >= 1, "{seat:?}");
    assert_eq!(seat.limits, ["memory"], "{seat:?}");
    assert!(seat.faults.crash >= 1, "{seat:?}");
    assert_eq!(referee.history.len(), 2);
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
    assert!(tagged_processes(&tag).is_empty());
}

#[test]
fn each_seats_memory_peak_is_its_memory_groups_high_water_mark() {
    // The hog touches 16 MiB blocks until the 64 MiB limit stops it, is
    // restarted and does it again: its peak, over the game's processes,
    // is the limit's neighbourhood; the honest bot's is far below.
    if !have("cgroup-memory") {
        return;
    }
    let tag = unique_tag("mempeak");
    let opts = limited(|c| c.memory_mib = Some(64));
    let (_, run) = versus(bot("hostile", "hog.py", &["memory", &tag]), &opts, 2);
    let hog = run.seats[1].memory_peak_bytes.expect("measured");
    assert!((48 << 20..=(64 << 20) + (1 << 20)).contains(&hog), "{hog}");
    let honest = run.seats[0].memory_peak_bytes.expect("measured");
    assert!(honest < 48 << 20, "{honest}");
}

#[test]
fn a_cpu_hog_gets_sigxcpu_and_is_charged_a_cpu_limit() {
    let tag = unique_tag("cpuhog");
    let opts = limited(|c| {
        c.cpu_s = Some(1);
        // One CPU second can take many wall seconds on a loaded machine.
        c.startup = Duration::from_secs(120);
    });
    let (_, run) = versus(bot("hostile", "hog.py", &["cpu", &tag]), &opts, 1);
    let seat = &run.seats[1];
    assert_eq!(seat.limits, ["cpu"], "{seat:?}");
    assert_eq!(seat.faults.limit, 1, "{seat:?}");
    assert_eq!(seat.faults.crash, 1, "{seat:?}");
}

#[test]
fn a_bot_sees_no_other_process_in_proc() {
    if !have("private-proc") {
        return;
    }
    let (referee, run) = versus(bot("hostile", "proc_snoop.py", &[]), &options(), 2);
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{}",
        run.seats[1].stderr
    );
}

#[test]
fn without_a_sandbox_proc_shows_dojo_and_the_opponent() {
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run) = versus(bot("hostile", "proc_snoop.py", &[]), &opts, 1);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

/// Options pinning every bot to the second CPU this process may use; `None`
/// (with the reason printed) on a machine with one.
fn pinned(sandbox: SandboxMode) -> Option<(RunOptions, usize)> {
    let cpus = dojo_runner::allowed_cpus();
    let Some(&cpu) = cpus.get(1) else {
        eprintln!("skipped: one CPU only, no wider affinity to take");
        return None;
    };
    let mut opts = RunOptions {
        pin_cpu: Some(cpu),
        ..options()
    };
    opts.controls.sandbox = sandbox;
    Some((opts, cpu))
}

#[test]
fn a_pinned_bot_cannot_widen_its_affinity() {
    if !have("seccomp") {
        return;
    }
    let Some((opts, cpu)) = pinned(SandboxMode::Auto) else {
        return;
    };
    let (referee, run) = versus(bot("hostile", "unpin.py", &[]), &opts, 2);
    let stderr = &run.seats[1].stderr;
    assert!(
        stderr.contains(&format!("after [{cpu}] (refused: Operation not permitted)")),
        "{stderr}"
    );
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
}

#[test]
fn without_a_sandbox_a_pinned_bot_does_widen_its_affinity() {
    // The counterpart of the test above: the bot and its check can fail.
    let Some((opts, cpu)) = pinned(SandboxMode::Off) else {
        return;
    };
    let (referee, run) = versus(bot("hostile", "unpin.py", &[]), &opts, 1);
    let stderr = &run.seats[1].stderr;
    assert!(stderr.contains(&format!("before [{cpu}]")), "{stderr}");
    assert_eq!(referee.history[0][1], Answer::Move(1), "{stderr}");
}

#[test]
fn with_pin_each_game_thread_runs_its_bots_on_a_core_of_its_own() {
    let cpus = dojo_runner::allowed_cpus();
    if cpus.len() < 2 {
        eprintln!("skipped: one CPU only");
        return;
    }
    let mut opts = options();
    opts.controls.pin = true;
    // Two games at once, each on its own thread: both bots of a game on
    // one CPU (unpin.py reports where it started), the games on two.
    let games: Vec<_> = (0..2)
        .map(|_| {
            let opts = opts.clone();
            std::thread::spawn(move || {
                let seats = [
                    Seat::new(bot("hostile", "unpin.py", &[])),
                    Seat::new(bot("hostile", "unpin.py", &[])),
                ];
                let mut referee = Cards {
                    rounds: 1,
                    ..Cards::default()
                };
                let run = play(&mut referee, &seats, &opts).expect("game runs");
                run.seats
                    .iter()
                    .map(|seat| {
                        let from = seat.stderr.find("before [").expect("reported") + 8;
                        let to = from + seat.stderr[from..].find(']').expect("list");
                        seat.stderr[from..to].to_string()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let started: Vec<Vec<String>> = games.into_iter().map(|g| g.join().unwrap()).collect();
    for game in &started {
        assert_eq!(game[0], game[1], "the seats of one game: {started:?}");
        assert!(game[0].parse::<usize>().is_ok(), "one CPU: {started:?}");
    }
    assert_ne!(started[0][0], started[1][0], "two games, two CPUs");
}

#[test]
fn rlimits_reach_the_bot_and_a_file_over_the_size_limit_is_a_limit_fault() {
    // Without namespaces (the next test: the same in a box).
    let opts = limited(|c| {
        c.sandbox = SandboxMode::Off;
        c.files = 64;
        c.file_size_mib = 1;
    });
    let spec = Arc::new(BotSpec {
        command: vec!["sh".to_string(), "limits.sh".to_string()],
        ..(*bot("hostile", "limits.sh", &[])).clone()
    });
    let (_, run) = versus(spec, &opts, 2);
    let seat = &run.seats[1];
    assert!(
        seat.stderr.contains("limits: core 0 files 64"),
        "{}",
        seat.stderr
    );
    assert_eq!(seat.limits, ["file-size"], "{seat:?}");
    assert_eq!(seat.faults.limit, 2, "{seat:?}");
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

#[test]
fn in_a_box_a_file_over_the_size_limit_is_a_limit_fault_too() {
    // The bot is not init of its PID namespace (the box's init is), so
    // it gets SIGXFSZ as it would without namespaces. (A bot that was
    // init of its own namespace was deaf to it: its write failed.)
    if !have("pid-namespace") {
        return;
    }
    let opts = limited(|c| c.file_size_mib = 1);
    let spec = Arc::new(BotSpec {
        command: vec!["sh".to_string(), "limits.sh".to_string()],
        ..(*bot("hostile", "limits.sh", &[])).clone()
    });
    let (_, run) = versus(spec, &opts, 2);
    let seat = &run.seats[1];
    if std::env::var("DOJO_BOX").is_ok_and(|v| v == "0") {
        // Boxes off: the bot is init of its own namespace and deaf to
        // the signal; its write is capped at the limit and fails.
        assert!(
            seat.stderr.contains(&format!("wrote {} bytes", 1 << 20)),
            "{}",
            seat.stderr
        );
        assert_eq!(seat.faults.total(), 0, "{seat:?}");
        return;
    }
    assert_eq!(seat.limits, ["file-size"], "{seat:?}");
    assert_eq!(seat.faults.limit, 2, "{seat:?}");
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

#[test]
fn strict_refuses_to_play_when_a_layer_is_missing() {
    if !in_a_process_without("strict_refuses_to_play_when_a_layer_is_missing", "seccomp") {
        return;
    }
    let mut strict = options();
    strict.controls.sandbox = SandboxMode::Strict;
    let seats = [
        Seat::new(bot("faulty", "random_ok.py", &[])),
        Seat::new(bot("faulty", "random_ok.py", &[])),
    ];
    let error = play(&mut Cards::default(), &seats, &strict).expect_err("refused");
    assert!(error.to_string().contains("seccomp"), "{error}");
    assert!(
        dojo_runner::layers_in_force(SandboxMode::Strict).is_err(),
        "doctor's verdict agrees"
    );
    // Auto plays on with what there is, and says what that was.
    let layers = dojo_runner::layers_in_force(SandboxMode::Auto).expect("auto");
    assert!(!layers.iter().any(|l| l == "seccomp"), "{layers:?}");
    play(&mut Cards::default(), &seats, &options()).expect("auto plays");
}

/// Descriptors this process has open.
fn open_descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd").expect("/proc").count()
}

#[test]
fn a_league_of_escapers_leaks_no_descriptor_and_no_process() {
    // Alone in a process of its own (other tests would open descriptors
    // meanwhile), and with nothing but the process group and the
    // subreaper: the worst case, where a grandchild holding a bot's pipes
    // once leaked two threads and two descriptors per game.
    if !in_a_process_without(
        "a_league_of_escapers_leaks_no_descriptor_and_no_process",
        "cgroup-pids,cgroup-cpu-share",
    ) {
        return;
    }
    let tag = unique_tag("escaper-league");
    let opts = nothing_but_the_process_group();
    // The first game opens what stays open (probes, the read buffer...).
    versus(bot("hostile", "escaper.py", &[&tag]), &opts, 1);
    let before = open_descriptors();
    for _ in 0..10 {
        versus(bot("hostile", "escaper.py", &[&tag]), &opts, 1);
    }
    assert_eq!(open_descriptors(), before, "descriptors leaked");
    let left = tagged_processes(&tag);
    assert!(left.is_empty(), "processes left after the games: {left:?}");
}

/// A System V IPC key no other test uses.
fn unique_ipc_key() -> i32 {
    use std::sync::atomic::{AtomicI32, Ordering};
    static NEXT: AtomicI32 = AtomicI32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    (((std::process::id() as i32) & 0x3f_ffff) << 8 | (n & 0xff)) + 0x4000_0000
}

/// Whether the host's IPC namespace (this process's) has any object of
/// `key`: its `/proc/sysvipc` tables list the key in decimal first.
fn ipc_objects_of(key: i32) -> Vec<String> {
    let mut found = Vec::new();
    for table in ["shm", "msg", "sem"] {
        let text = std::fs::read_to_string(format!("/proc/sysvipc/{table}")).unwrap_or_default();
        if text
            .lines()
            .any(|l| l.split_whitespace().next() == Some(&key.to_string()))
        {
            found.push(table.to_string());
        }
    }
    found
}

/// Two sysv_shm.py bots with `key`, one game.
fn two_colluders(key: i32, opts: &RunOptions) -> (Cards, MatchRun) {
    let key = key.to_string();
    let seats = [
        Seat::new(bot("hostile", "sysv_shm.py", &[&key])),
        Seat::new(bot("hostile", "sysv_shm.py", &[&key])),
    ];
    let mut referee = Cards {
        rounds: 3,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, opts).expect("game runs");
    (referee, run)
}

#[test]
fn bots_cannot_meet_in_system_v_ipc_and_leave_none_of_it_behind() {
    if !have("ipc-namespace") {
        return;
    }
    let key = unique_ipc_key();
    let (referee, run) = two_colluders(key, &options());
    for (seat, result) in run.seats.iter().enumerate() {
        assert!(
            referee.history.iter().all(|r| r[seat] == Answer::Move(0)),
            "seat {seat} met the other: {}",
            result.stderr
        );
    }
    let left = ipc_objects_of(key);
    assert!(left.is_empty(), "left in the host's IPC: {left:?}");
}

#[test]
fn without_a_sandbox_the_colluders_do_meet_and_leave_segments() {
    // The counterpart of the test above: the bots and the checks can fail.
    let key = unique_ipc_key();
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run) = two_colluders(key, &opts);
    let left = ipc_objects_of(key);
    for (flag, kind) in [("-M", "shm"), ("-Q", "msg"), ("-S", "sem")] {
        if left.iter().any(|l| l == kind) {
            let _ = std::process::Command::new("ipcrm")
                .args([flag, &key.to_string()])
                .status();
        }
    }
    assert!(
        referee.history.iter().any(|r| r.contains(&Answer::Move(1))),
        "{} / {}",
        run.seats[0].stderr,
        run.seats[1].stderr
    );
    assert_eq!(left, ["shm", "msg", "sem"]);
}

/// A host service on a pathname Unix socket, and kernel_surface.py
/// against it.
fn reach_for_the_kernel(opts: &RunOptions) -> (Cards, MatchRun, bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("service.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let path = path.to_string_lossy().into_owned();
    let (referee, run) = versus(bot("hostile", "kernel_surface.py", &[&path]), opts, 2);
    let connected = listener.accept().is_ok();
    (referee, run, connected)
}

#[test]
fn inotify_io_uring_odd_sockets_and_host_unix_sockets_are_denied() {
    if !have("seccomp") {
        return;
    }
    let (referee, run, connected) = reach_for_the_kernel(&options());
    assert!(!connected, "the bot reached the host's socket");
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{}",
        run.seats[1].stderr
    );
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
}

#[test]
fn without_a_sandbox_the_kernel_and_the_host_socket_are_reached() {
    // The counterpart of the test above: the bot and its checks can fail.
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run, connected) = reach_for_the_kernel(&opts);
    assert!(connected, "{}", run.seats[1].stderr);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

/// lock_channel.py's `probe` lines of `kind` (`lock`, `needs`): each
/// line's fields after the kind.
fn probed<'a>(stderr: &'a str, kind: &str) -> Vec<Vec<&'a str>> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix(kind)?.strip_prefix('\t'))
        .map(|l| l.split('\t').collect())
        .collect()
}

#[test]
fn file_locks_leases_and_dnotify_fail_with_eperm_on_system_and_own_files() {
    if !have("seccomp") {
        return;
    }
    let (referee, run) = versus(bot("hostile", "lock_channel.py", &["probe"]), &options(), 1);
    let stderr = &run.seats[1].stderr;
    let locks = probed(stderr, "lock");
    // flock, 6 lock commands, 2 lease ones, dnotify; on each file.
    assert_eq!(locks.len(), 20, "{stderr}");
    for line in &locks {
        assert_eq!(line[2], "EPERM", "{line:?}: {stderr}");
    }
    assert_eq!(referee.history[0][1], Answer::Move(0), "{stderr}");
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
}

#[test]
fn the_fcntl_commands_a_bot_needs_work_where_its_locks_fail() {
    // The filter tells fcntl's commands apart: the same call that may not
    // lock still sets flags, duplicates, sizes pipes and seals.
    if !have("seccomp") {
        return;
    }
    let (_, run) = versus(bot("hostile", "lock_channel.py", &["probe"]), &options(), 1);
    let stderr = &run.seats[1].stderr;
    let needs = probed(stderr, "needs");
    let names: Vec<&str> = needs.iter().map(|l| l[0]).collect();
    assert_eq!(
        names,
        [
            "F_GETFL",
            "F_SETFL O_NONBLOCK",
            "F_SETFD FD_CLOEXEC",
            "F_DUPFD",
            "F_DUPFD_CLOEXEC",
            "F_SETPIPE_SZ",
            "F_ADD_SEALS"
        ],
        "{stderr}"
    );
    for line in &needs {
        assert_eq!(line[1], "ok", "{line:?}: {stderr}");
    }
    let scratch_lock = probed(stderr, "lock")
        .into_iter()
        .find(|l| l[0] == "scratch" && l[1] == "F_SETLK");
    assert_eq!(scratch_lock.map(|l| l[2]), Some("EPERM"), "{stderr}");
}

/// Two lock_channel.py bots (`channel`, files chosen by a tag of their
/// own), a game of 3 rounds; per seat, per round, its secret and what it
/// read of the other's (`None`: nothing).
#[allow(clippy::type_complexity)]
fn lock_talkers(opts: &RunOptions) -> (Cards, MatchRun, [Vec<(String, Option<String>)>; 2]) {
    let tag = unique_tag("locks");
    let talker = bot("hostile", "lock_channel.py", &["channel", &tag]);
    let seats = [Seat::new(talker.clone()), Seat::new(talker)];
    let mut referee = Cards {
        rounds: 3,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, opts).expect("game runs");
    let rounds = |stderr: &str| -> Vec<(String, Option<String>)> {
        stderr
            .lines()
            .filter_map(|l| l.strip_prefix("round\t"))
            .map(|l| {
                let fields: Vec<&str> = l.split('\t').collect();
                let mine = fields[1].trim_start_matches("mine ").to_string();
                let theirs = fields[2].trim_start_matches("theirs ");
                let theirs = (!theirs.starts_with('?')).then(|| theirs.to_string());
                (mine, theirs)
            })
            .collect()
    };
    let seen = [rounds(&run.seats[0].stderr), rounds(&run.seats[1].stderr)];
    (referee, run, seen)
}

#[test]
fn bots_cannot_talk_through_locks_on_the_system_files_every_box_binds() {
    if !have("seccomp") {
        return;
    }
    let (referee, run, seen) = lock_talkers(&options());
    for (seat, rounds) in seen.iter().enumerate() {
        let stderr = &run.seats[seat].stderr;
        assert_eq!(rounds.len(), 3, "{stderr}");
        assert!(
            rounds.iter().all(|(_, theirs)| theirs.is_none()),
            "seat {seat} read: {stderr}"
        );
        assert!(stderr.contains("(flock: EPERM)"), "{stderr}");
        assert!(referee.answers(seat).iter().all(|a| *a == Answer::Move(0)));
    }
}

#[test]
fn without_seccomp_bots_read_each_others_secrets_through_locks() {
    // The counterpart of the test above: whatever else holds (boxes,
    // minimal roots, seat users, Landlock), the locks carry every secret.
    if !in_a_process_without(
        "without_seccomp_bots_read_each_others_secrets_through_locks",
        "seccomp",
    ) {
        return;
    }
    // Each bot waits for the other's secret: a loaded machine's startup
    // gets time.
    let (referee, run, seen) = lock_talkers(&dojo_testkit::bots::run_options(20_000, 20_000));
    let stderr = format!("{} / {}", run.seats[0].stderr, run.seats[1].stderr);
    assert_eq!(seen[0].len(), 3, "{stderr}");
    assert_eq!(seen[1].len(), 3, "{stderr}");
    for (me, other) in [(0, 1), (1, 0)] {
        for (round, ((_, theirs), (secret, _))) in seen[me].iter().zip(&seen[other]).enumerate() {
            assert_eq!(
                theirs.as_deref(),
                Some(secret.as_str()),
                "round {}, seat {me}: {stderr}",
                round + 1
            );
        }
    }
    assert!(
        referee
            .history
            .iter()
            .all(|r| r == &[Answer::Move(1), Answer::Move(1)])
    );
}

/// `bots/sneaky/` (manifest_reader.py with a bot.toml naming
/// `../victim/secret.txt` as its script) beside `bots/victim/secret.txt`.
fn manifest_reader_layout() -> (tempfile::TempDir, Arc<BotSpec>) {
    let root = tempfile::tempdir().expect("tempdir");
    let path = |p: &str| root.path().join(p);
    for dir in ["bots/sneaky", "bots/victim"] {
        std::fs::create_dir_all(path(dir)).expect("mkdir");
    }
    std::fs::copy(
        bots_dir().join("hostile/manifest_reader.py"),
        path("bots/sneaky/manifest_reader.py"),
    )
    .expect("copy");
    std::fs::write(path("bots/victim/secret.txt"), "the victim's secret\n").expect("write");
    std::fs::write(
        path("bots/sneaky/bot.toml"),
        "command = [\"python3\", \"-cexec(open('manifest_reader.py').read())\", \
         \"../victim/secret.txt\"]\ngames = [\"cardjitsu\"]\n",
    )
    .expect("write");
    let spec = dojo_runner::load_dir(&path("bots/sneaky")).expect("the manifest loads");
    (root, Arc::new(spec))
}

#[test]
fn a_manifest_cannot_make_a_file_outside_its_directory_readable() {
    if !have("landlock") && !have("minimal-root") {
        return;
    }
    let (_root, spec) = manifest_reader_layout();
    let (referee, run) = versus(spec, &options(), 2);
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    // Landlock refuses it; in a minimal root it is not there at all.
    let refused = if have("minimal-root") {
        "No such file"
    } else {
        "Permission denied"
    };
    assert!(stderr.contains(refused), "{stderr}");
}

#[test]
fn without_a_sandbox_the_manifest_reader_does_read_the_file() {
    // The counterpart of the test above: the bot and its check can fail.
    let (_root, spec) = manifest_reader_layout();
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run) = versus(spec, &opts, 1);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

/// A file of the system only root may read (`/etc/shadow`'s password
/// hashes), if this machine has one: a bot is never given a capability
/// that reads past file modes, so its seat user reads no such file,
/// although Landlock and the minimal root let every bot read `/etc`.
fn root_only_system_file() -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let file = PathBuf::from("/etc/shadow");
    let meta = std::fs::metadata(&file).ok()?;
    (meta.uid() == 0 && meta.mode() & 0o004 == 0).then_some(file)
}

#[test]
fn a_seat_user_cannot_read_a_root_only_file_of_the_system() {
    if !have("seat-user") {
        return;
    }
    let Some(file) = root_only_system_file() else {
        eprintln!("skipped: no root-only /etc/shadow here");
        return;
    };
    // manifest_reader.py answers 1 if it read the file it is given.
    let spec = bot("hostile", "manifest_reader.py", &[file.to_str().unwrap()]);
    let (referee, run) = versus(spec, &options(), 2);
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    assert!(stderr.contains("Permission denied"), "{stderr}");
}

#[test]
fn without_a_seat_user_a_bot_of_roots_reads_that_file() {
    // The counterpart of the test above: as root without seat users the
    // bot runs as root's uid (with no capability), which owns the file.
    if !rustix::process::geteuid().is_root()
        || !in_a_process_without(
            "without_a_seat_user_a_bot_of_roots_reads_that_file",
            "seat-user",
        )
    {
        return;
    }
    let Some(file) = root_only_system_file() else {
        eprintln!("skipped: no root-only /etc/shadow here");
        return;
    };
    let spec = bot("hostile", "manifest_reader.py", &[file.to_str().unwrap()]);
    let (referee, run) = versus(spec, &options(), 1);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

#[test]
fn without_a_memory_flag_the_default_cap_still_stops_a_hog() {
    if !have("cgroup-memory") {
        return;
    }
    assert_eq!(
        dojo_runner::Limits::from(&dojo_runner::Controls::default()).memory_bytes,
        Some(dojo_runner::DEFAULT_MEMORY_MIB << 20)
    );
    let tag = unique_tag("memhog-default");
    // hog.py touches up to 4 GiB: past the default 1 GiB.
    let mut opts = options();
    opts.controls.startup = Duration::from_secs(60);
    let (referee, run) = versus(bot("hostile", "hog.py", &["memory", &tag]), &opts, 1);
    let seat = &run.seats[1];
    assert_eq!(seat.limits, ["memory"], "{seat:?}");
    assert!(!seat.stderr.contains("allocated 4096 MiB"), "{seat:?}");
    assert_eq!(referee.history.len(), 1);
    assert!(tagged_processes(&tag).is_empty());
}

/// hidden_workers.py (1.5 s of CPU a move in short kernel-reaped workers)
/// against random_ok.py, under CPU time with 0.3 s a move (and 1 s more
/// for a fresh process).
fn hidden_workers_under_cpu_time() -> MatchRun {
    let opts = RunOptions {
        controls: Controls {
            time: dojo_runner::TimeMode::Cpu,
            timeout: Duration::from_millis(300),
            startup: Duration::from_millis(1000),
            ..Controls::default()
        },
        wall_backstop: 40,
        ..RunOptions::default()
    };
    let (_, run) = versus(
        bot("hostile", "hidden_workers.py", &["60", "0.025"]),
        &opts,
        3,
    );
    run
}

#[test]
fn cpu_time_in_workers_the_kernel_reaped_is_charged() {
    if !have("cgroup-cpu") {
        return;
    }
    let run = hidden_workers_under_cpu_time();
    let seat = &run.seats[1];
    assert_eq!(seat.faults.timeout, 3, "{seat:?}");
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

#[test]
fn without_the_cpu_cgroup_those_workers_go_uncharged() {
    // The counterpart of the test above: the tree in /proc misses them.
    if !in_a_process_without(
        "without_the_cpu_cgroup_those_workers_go_uncharged",
        "cgroup-cpu",
    ) {
        return;
    }
    let run = hidden_workers_under_cpu_time();
    let seat = &run.seats[1];
    assert_eq!(seat.faults.timeout, 0, "{seat:?}");
}

#[test]
fn a_boxed_bots_cpu_time_under_wall_time_counts_its_hidden_workers() {
    // Each move's reported CPU time (`cpu_us`) of a bot in a box comes
    // from the box's CPU cgroup under wall time too, so the workers the
    // kernel reaped are in it; the tree in /proc (what it was read from
    // before) misses them (see the counterpart above).
    if !have("cgroup-cpu") || !have("pid-namespace") {
        return;
    }
    if std::env::var("DOJO_BOX").is_ok_and(|v| v == "0") {
        eprintln!("skipped: boxes are off (DOJO_BOX=0)");
        return;
    }
    // 8 workers of 50 ms: 400 ms of CPU a move, under a wall clock
    // generous enough for a loaded machine.
    let opts = dojo_testkit::bots::run_options(60_000, 60_000);
    let (_, run) = versus(
        bot("hostile", "hidden_workers.py", &["8", "0.05"]),
        &opts,
        2,
    );
    let seat = &run.seats[1];
    assert_eq!(seat.faults.total(), 0, "{seat:?}");
    assert_eq!(seat.cpu_us.len(), 2, "{seat:?}");
    for cpu in &seat.cpu_us {
        assert!(cpu.is_some_and(|us| us >= 300_000), "{seat:?}");
    }
}

/// Held by each test of session_spinner.py while it plays: its spinners
/// would crowd the other test's thinker off their shared CPU.
static SESSION_SPINNERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// thinker.py (100 ms of CPU a hand, seat 0) against session_spinner.py
/// (120 children in sessions of their own, spinning while the thinker
/// thinks; 30 s a move of its own, as its `bot.toml` may ask), both on the
/// first CPU this process may use, under CPU time with 200 ms a move and a
/// wall-clock backstop of 2 s: the thinker's slowest answer and its
/// timeouts.
fn thinker_beside_session_spinners(rounds: usize) -> (Duration, u64) {
    let mut spinner = (*bot("hostile", "session_spinner.py", &["120", "5"])).clone();
    spinner.values.time.timeout_ms = Some(30_000);
    let seats = [
        Seat::new(dojo_testkit::bots::script(
            "hostile",
            "thinker.py",
            &["0.1"],
            Mode::Persistent,
        )),
        Seat::new(Arc::new(spinner)),
    ];
    let opts = RunOptions {
        controls: Controls {
            time: dojo_runner::TimeMode::Cpu,
            timeout: Duration::from_millis(200),
            startup: Duration::from_millis(3000),
            ..Controls::default()
        },
        wall_backstop: 10,
        // One CPU: what the spinners take does not depend on the number
        // of CPUs of the machine running the test.
        pin_cpu: dojo_runner::allowed_cpus().first().copied(),
        ..RunOptions::default()
    };
    let mut referee = Cards {
        rounds,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, &opts).expect("the game is played");
    let honest = &run.seats[0];
    eprintln!(
        "thinker: faults {:?}, wall µs {:?}, cpu µs {:?}",
        honest.faults, honest.latencies_us, honest.cpu_us
    );
    let slowest = honest.latencies_us.iter().copied().max().unwrap_or(0);
    (Duration::from_micros(slowest), honest.faults.timeout)
}

#[test]
fn a_bot_in_many_sessions_gets_one_share_of_the_cpu() {
    // Each setsid child would get an autogroup, and a share, of its own
    // (see the counterpart below). The box's group of the cpu controller
    // makes them one entity of the same weight as the thinker's box.
    if !have("cgroup-cpu-share") {
        return;
    }
    let _turn = SESSION_SPINNERS.lock().unwrap_or_else(|p| p.into_inner());
    let (slowest, timeouts) = thinker_beside_session_spinners(3);
    assert_eq!(timeouts, 0, "slowest answer {slowest:?}");
    // Half a CPU is about 100 ms; the rest is room for a loaded machine.
    assert!(slowest < Duration::from_millis(1500), "{slowest:?}");
}

#[test]
fn without_the_cpu_share_the_session_spinners_make_the_thinker_time_out() {
    // The counterpart of the test above: the attack works without the
    // layer (two rounds: the spinners start spinning after the first
    // answer, and each timeout costs the 2 s backstop).
    let _turn = SESSION_SPINNERS.lock().unwrap_or_else(|p| p.into_inner());
    if !in_a_process_without(
        "without_the_cpu_share_the_session_spinners_make_the_thinker_time_out",
        "cgroup-cpu-share",
    ) {
        return;
    }
    let (slowest, timeouts) = thinker_beside_session_spinners(2);
    assert!(timeouts >= 1, "slowest answer {slowest:?}");
}

/// A pid no process has now: a child's that has been reaped.
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().expect("true");
    child.wait().expect("reaped");
    child.id()
}

#[test]
fn what_a_killed_dojo_left_behind_is_removed_at_the_next_start() {
    // A dead dojo's run directory of scratch directories: its lock file is
    // no longer held.
    let run = std::env::temp_dir().join(format!("dojo-run-{}-test", dead_pid()));
    std::fs::create_dir_all(run.join("bot-x1/deep")).expect("mkdir");
    std::fs::write(run.join("lock"), "").expect("lock");
    std::fs::write(run.join("bot-x1/deep/state.bin"), "left").expect("write");
    // One killed before it made its lock file (a minute ago), and one
    // being made now (no lock yet), which is kept.
    let lockless = std::env::temp_dir().join(format!("dojo-run-{}-nolock", dead_pid()));
    std::fs::create_dir_all(lockless.join("bot-x2")).expect("mkdir");
    let a_minute_ago = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::open(&lockless)
        .and_then(|d| d.set_modified(a_minute_ago))
        .expect("an old mtime");
    let starting = std::env::temp_dir().join(format!("dojo-run-{}-starting", dead_pid()));
    std::fs::create_dir_all(&starting).expect("mkdir");
    // And its control group, where this machine has them.
    let base = probe()
        .iter()
        .find(|l| l.name == "cgroup-pids" && l.available)
        .and_then(|l| l.detail.split("(groups under ").nth(1))
        .map(|rest| PathBuf::from(rest.trim_end_matches(')')));
    let group = base.map(|b| b.join(format!("dojo-{}-0", dead_pid())));
    if let Some(group) = &group {
        std::fs::create_dir(group).expect("a cgroup");
    } else {
        eprintln!("no cgroup-pids here: only the scratch part is tested");
    }
    // A live dojo's (this process's) run directory is kept.
    let (_, run_now) = versus(bot("faulty", "random_ok.py", &[]), &options(), 1);
    assert_eq!(run_now.seats[1].faults.total(), 0);
    let found = dojo_runner::remove_leftovers();
    assert!(!run.exists(), "{found:?}");
    assert!(!lockless.exists(), "{found:?}");
    assert!(starting.exists(), "{found:?}");
    std::fs::remove_dir(&starting).expect("rmdir");
    if let Some(group) = &group {
        assert!(!group.exists(), "{found:?}");
    }
    let ours = std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("dojo-run-{}-", std::process::id()))
        });
    assert!(ours, "this live process's run directory was kept");
}

/// What a contained chmodder leaves: it reported every attempt failed
/// (0), the program's mode is not 0, and its owner played without a fault.
fn the_opponent_kept_its_program(referee: &Cards, run: &MatchRun, mode: u32) {
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    assert_ne!(mode, 0, "{stderr}");
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

/// chmodder.py against a copy of random_ok.py (its target) in a
/// directory of its own; the copy's mode after the game.
fn chmod_the_opponent(opts: &RunOptions) -> (Cards, MatchRun, u32) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let victim = dir.path().join("random_ok.py");
    std::fs::copy(bots_dir().join("faulty/random_ok.py"), &victim).expect("copy");
    let victim_spec = Arc::new(BotSpec {
        name: "victim".to_string(),
        command: vec![victim.to_string_lossy().into_owned()],
        dir: dir.path().to_path_buf(),
        // Started again for every hand.
        mode: Mode::PerTurn,
        ..(*bot("faulty", "random_ok.py", &[])).clone()
    });
    let target = victim.to_string_lossy().into_owned();
    let seats = [
        Seat::new(victim_spec),
        Seat::new(bot("hostile", "chmodder.py", &[&target])),
    ];
    let mut referee = Cards {
        rounds: 3,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, opts).expect("game runs");
    let mode = std::fs::metadata(&victim)
        .expect("still there")
        .permissions()
        .mode()
        & 0o7777;
    (referee, run, mode)
}

#[test]
fn a_bot_cannot_chmod_its_opponents_program() {
    // Either keeps it: a seat user owns nothing of the opponent's, and in
    // a minimal root the opponent's program is not there at all.
    if !have("seat-user") && !have("minimal-root") {
        return;
    }
    let (referee, run, mode) = chmod_the_opponent(&options());
    the_opponent_kept_its_program(&referee, &run, mode);
}

#[test]
fn without_a_seat_user_the_minimal_root_alone_keeps_the_opponents_program() {
    // As in a user namespace or without root: the bot runs as the user
    // that owns the opponent's program.
    if !in_a_process_without(
        "without_a_seat_user_the_minimal_root_alone_keeps_the_opponents_program",
        "seat-user",
    ) || !have("minimal-root")
    {
        return;
    }
    let (referee, run, mode) = chmod_the_opponent(&options());
    let stderr = &run.seats[1].stderr;
    assert!(stderr.contains("No such file"), "{stderr}");
    the_opponent_kept_its_program(&referee, &run, mode);
}

#[test]
fn without_a_seat_user_or_the_minimal_root_the_opponents_program_is_chmod_ed_away() {
    // The counterpart of the test above, with every other layer on:
    // Landlock does not cover a file's mode (metadata, not content).
    if !in_a_process_without(
        "without_a_seat_user_or_the_minimal_root_the_opponents_program_is_chmod_ed_away",
        "seat-user,minimal-root",
    ) {
        return;
    }
    let (referee, run, mode) = chmod_the_opponent(&options());
    assert_eq!(mode, 0, "{}", run.seats[1].stderr);
    assert_eq!(referee.history[0][1], Answer::Move(1));
    assert!(run.seats[0].faults.crash > 0, "{:?}", run.seats[0]);
}

#[test]
fn without_a_sandbox_the_opponents_program_is_chmod_ed_away() {
    // The counterpart of the test above (as root the bot owns the file).
    if !rustix::process::geteuid().is_root() {
        eprintln!("skipped: not root, the copy is the bot's own either way");
        return;
    }
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (referee, run, mode) = chmod_the_opponent(&opts);
    assert_eq!(mode, 0, "{}", run.seats[1].stderr);
    assert_eq!(referee.history[0][1], Answer::Move(1));
    assert!(run.seats[0].faults.crash > 0, "{:?}", run.seats[0]);
}

/// hidden_workers.py with 4 workers of 0.4 s a move (none near the
/// per-process limit) under `--limit-cpu-s 1`, one move.
fn workers_under_a_cpu_limit() -> MatchRun {
    let opts = limited(|c| {
        c.cpu_s = Some(1);
        // Over a second of CPU can take many wall seconds when loaded.
        c.startup = Duration::from_secs(120);
    });
    let (_, run) = versus(bot("hostile", "hidden_workers.py", &["4", "0.4"]), &opts, 1);
    run
}

#[test]
fn the_cpu_limit_holds_for_the_whole_tree() {
    if !have("cgroup-cpu") {
        return;
    }
    let run = workers_under_a_cpu_limit();
    let seat = &run.seats[1];
    assert_eq!(seat.limits, ["cpu"], "{seat:?}");
    assert_eq!(seat.faults.limit, 1, "{seat:?}");
    assert_eq!(seat.faults.crash, 1, "{seat:?}");
}

#[test]
fn without_the_cpu_cgroup_the_cpu_limit_is_per_process() {
    // The counterpart of the test above: forking spreads the work.
    if !in_a_process_without(
        "without_the_cpu_cgroup_the_cpu_limit_is_per_process",
        "cgroup-cpu",
    ) {
        return;
    }
    let run = workers_under_a_cpu_limit();
    let seat = &run.seats[1];
    assert_eq!(seat.faults.total(), 0, "{seat:?}");
}

/// `spec` again, started afresh for every hand.
fn per_turn(spec: Arc<BotSpec>) -> Arc<BotSpec> {
    Arc::new(BotSpec {
        mode: Mode::PerTurn,
        ..(*spec).clone()
    })
}

#[test]
fn a_per_turn_bots_leftovers_never_reach_its_next_turn() {
    // Its processes share a box when there is a PID namespace: the box
    // is emptied between them. Without one each process's own cleanup
    // (cgroup, subreaper sweep) does it.
    let tag = unique_tag("lingerer");
    let (referee, run) = versus(
        per_turn(bot("hostile", "lingerer.py", &[&tag])),
        &options(),
        6,
    );
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "a leftover lived on: {:?} {stderr}",
        referee.history
    );
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
    assert_eq!(run.seats[1].pgids.len(), 6, "one process a hand");
    let (gone, left) = dojo_testkit::procs::tagged_gone_within(&tag, Duration::from_secs(10));
    assert!(gone, "left running: {left:?}");
}

#[test]
fn what_a_bot_process_started_dies_with_it_so_its_pipes_close() {
    // Found to be per-turn (mode auto), the bot's exit is taken as its
    // turn's end only once its stdout closes: the leftover holding it must
    // die with the process, not at the box's next emptying. (Without a
    // PID namespace nothing kills it at once: the counterpart is
    // `--sandbox off`, where it times out.)
    if !have("pid-namespace") {
        return;
    }
    let tag = unique_tag("lingerer-auto");
    let (referee, run) = versus(bot("hostile", "lingerer.py", &[&tag]), &options(), 4);
    assert_eq!(run.seats[1].faults.total(), 0, "{:?}", run.seats[1]);
    assert!(referee.history.iter().all(|r| r[1] == Answer::Move(0)));
}

#[test]
fn a_per_turn_bot_is_charged_each_processs_own_cpu_time() {
    // With a box the seat's processes share its cgroup: each must be
    // charged from its own start, not the box's.
    if !have("cgroup-cpu") {
        return;
    }
    const BURN: &str = "import sys, time\n\
        for line in sys.stdin:\n\
        \x20   if ',' in line and ' vs. ' not in line:\n\
        \x20       t = time.process_time()\n\
        \x20       while time.process_time() - t < 0.3:\n\
        \x20           pass\n\
        \x20       print(0, flush=True)\n\
        \x20       break\n";
    let spec = Arc::new(BotSpec {
        name: "burner".to_string(),
        command: vec!["python3".to_string(), "-c".to_string(), BURN.to_string()],
        ..(*bot("hostile", "thinker.py", &[])).clone()
    });
    let opts = RunOptions {
        controls: Controls {
            time: dojo_runner::TimeMode::Cpu,
            timeout: Duration::from_millis(700),
            startup: Duration::from_millis(1000),
            ..Controls::default()
        },
        wall_backstop: 40,
        ..RunOptions::default()
    };
    // 8 hands of 0.3 s: 2.4 s in all, over any one hand's 1.7 s.
    let (referee, run) = versus(per_turn(spec), &opts, 8);
    let seat = &run.seats[1];
    assert_eq!(seat.faults.total(), 0, "{seat:?}");
    assert!(referee.history.iter().all(|r| r[1] == Answer::Move(0)));
}

#[test]
fn a_per_turn_program_that_cannot_be_run_is_a_spawn_error() {
    let spec = Arc::new(BotSpec {
        name: "missing".to_string(),
        command: vec!["/nonexistent/dojo-bot".to_string()],
        ..(*bot("hostile", "thinker.py", &[])).clone()
    });
    let seats = [
        Seat::new(bot("faulty", "random_ok.py", &[])),
        Seat::new(per_turn(spec)),
    ];
    let err = play(&mut Cards::new(2), &seats, &options()).unwrap_err();
    assert!(
        matches!(&err, dojo_runner::RunError::Spawn { bot, .. } if bot == "missing"),
        "{err}"
    );
}

#[test]
fn system_v_ipc_a_bot_left_is_gone_by_its_next_game_and_its_next_process() {
    // Its games on one thread reuse its box, and a per-turn bot's
    // processes share it: the box's IPC namespace is emptied between them.
    if !have("ipc-namespace") {
        return;
    }
    let key = (std::process::id() % 100_000 + 300_000).to_string();
    let shm = bot("hostile", "sysv_shm.py", &[&key]);
    for game in 0..2 {
        let (referee, run) = versus(shm.clone(), &options(), 2);
        assert!(
            referee.history.iter().all(|r| r[1] == Answer::Move(0)),
            "game {game} met an earlier one: {}",
            run.seats[1].stderr
        );
    }
    let (referee, run) = versus(per_turn(shm), &options(), 3);
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "a process met an earlier one: {}",
        run.seats[1].stderr
    );
}

/// Whether bots play in boxes here (a PID namespace, and not
/// `DOJO_BOX=0`); prints why a test is skipped if not.
fn boxes() -> bool {
    if std::env::var("DOJO_BOX").is_ok_and(|v| v == "0") {
        eprintln!("skipped: no boxes (DOJO_BOX=0)");
        return false;
    }
    have("pid-namespace")
}

/// What init_prodder.py reported for `what` (`init\tWHAT\tRESULT`), each
/// time.
fn prodded<'a>(stderr: &'a str, what: &str) -> Vec<&'a str> {
    stderr
        .lines()
        .filter_map(|l| {
            l.strip_prefix("init\t")?
                .strip_prefix(what)?
                .strip_prefix('\t')
        })
        .collect()
}

#[test]
fn a_boxs_init_is_out_of_its_bots_reach() {
    // Every hand the bot goes for PID 1, its box's init: its open-files
    // limit, its priority, its scheduling, signals, its command line.
    // Its games on this thread reuse the box, and a per-turn bot has
    // every hand started by it: each start after the first attack shows
    // the init untouched.
    if !boxes() {
        return;
    }
    let own_name = std::env::current_exe()
        .expect("test binary")
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let prodder = bot("hostile", "init_prodder.py", &[]);
    for (game, spec) in [prodder.clone(), prodder.clone(), per_turn(prodder)]
        .into_iter()
        .enumerate()
    {
        let (referee, run) = versus(spec, &options(), 3);
        let seat = &run.seats[1];
        assert!(
            referee.history.iter().all(|r| r[1] == Answer::Move(0)),
            "game {game}: {}",
            seat.stderr
        );
        assert_eq!(seat.faults.total(), 0, "game {game}: {seat:?}");
        assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
        for what in ["prlimit", "setpriority", "sched_setscheduler"] {
            let got = prodded(&seat.stderr, what);
            assert!(
                !got.is_empty() && got.iter().all(|r| *r == "EPERM"),
                "game {game}: {what}: {got:?}"
            );
        }
        // No handler of dojo's is left in it (the test binary's own:
        // the standard library's for SIGSEGV and SIGBUS): a namespace's
        // init gets from inside it only the signals it handles. The C
        // library's two real-time signals (32, 33) may stay.
        for mask in prodded(&seat.stderr, "caught") {
            let mask = u64::from_str_radix(mask, 16).expect("a hex mask");
            assert_eq!(mask & 0x7fff_ffff, 0, "game {game}: SigCgt {mask:x}");
        }
        // What the init keeps for readying the box (CAP_SYS_ADMIN there
        // among it) reaches no bot: at most CAP_DAC_READ_SEARCH (a seat
        // user's, to read its own directory) in any of its sets, and it
        // is confined as a bot started without a box would be.
        let own = prodded(&seat.stderr, "self");
        assert!(!own.is_empty(), "game {game}: {}", seat.stderr);
        for line in own {
            for field in line.split(' ') {
                let (name, value) = field.split_once('=').expect("NAME=VALUE");
                if name.starts_with("Cap") {
                    let set = u64::from_str_radix(value, 16).expect("a hex set");
                    assert_eq!(set & !(1 << 2), 0, "game {game}: {line}");
                }
            }
            if have("seccomp") {
                assert!(line.contains("NoNewPrivs=1"), "game {game}: {line}");
                assert!(line.contains("Seccomp=2"), "game {game}: {line}");
            }
        }
        // Read or not, it shows nothing of dojo's command line (here the
        // test binary's).
        for line in prodded(&seat.stderr, "cmdline") {
            assert!(
                !line.contains(&own_name) && !line.contains("random_ok"),
                "game {game}: /proc/1/cmdline: {line}"
            );
        }
    }
}

/// looker.py in `bots/looker/` of a fresh directory, against a copy of
/// random_ok.py in `bots/other/`; what it reported, by what it did and
/// the path: `(what, path) -> result`.
fn look_around(opts: &RunOptions) -> (tempfile::TempDir, MatchRun, Vec<(String, String, String)>) {
    let root = tempfile::tempdir().expect("tempdir");
    let real = std::fs::canonicalize(root.path()).expect("real path");
    let (own, other) = (real.join("bots/looker"), real.join("bots/other"));
    for dir in [&own, &other] {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    let looker = own.join("looker.py");
    std::fs::copy(bots_dir().join("hostile/looker.py"), &looker).expect("copy");
    let victim = other.join("random_ok.py");
    std::fs::copy(bots_dir().join("faulty/random_ok.py"), &victim).expect("copy");
    let seats = [
        Seat::new(Arc::new(BotSpec {
            name: "other".to_string(),
            command: vec![victim.to_string_lossy().into_owned()],
            dir: other.clone(),
            ..(*bot("faulty", "random_ok.py", &[])).clone()
        })),
        Seat::new(Arc::new(BotSpec {
            name: "looker".to_string(),
            command: vec![
                looker.to_string_lossy().into_owned(),
                other.to_string_lossy().into_owned(),
            ],
            dir: own,
            ..(*bot("hostile", "looker.py", &[])).clone()
        })),
    ];
    let mut referee = Cards {
        rounds: 2,
        ..Cards::default()
    };
    let run = play(&mut referee, &seats, opts).expect("game runs");
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    assert!(stderr.contains("looker\tdone"), "{stderr}");
    let seen = stderr
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            (f.next() == Some("looker")).then(|| {
                let mut next = || f.next().unwrap_or_default().to_string();
                (next(), next(), next())
            })
        })
        .collect();
    (root, run, seen)
}

/// What looker.py reported for `what` on `path`.
fn saw<'a>(seen: &'a [(String, String, String)], what: &str, path: &std::path::Path) -> &'a str {
    let path = path.to_string_lossy();
    seen.iter()
        .find(|(w, p, _)| w == what && *p == path)
        .map(|(_, _, r)| r.as_str())
        .unwrap_or_else(|| panic!("no {what} {path} in {seen:?}"))
}

#[test]
fn in_a_minimal_root_a_bot_sees_only_the_system_and_its_own_files() {
    if !have("minimal-root") {
        return;
    }
    let (root, run, seen) = look_around(&options());
    let real = std::fs::canonicalize(root.path()).unwrap();
    let (own, other) = (real.join("bots/looker"), real.join("bots/other"));
    let path = std::path::Path::new;
    // `/`: the system, its mount points and the first directory of each
    // toolchain on PATH and of the bots' and scratch directories.
    let mut allowed: Vec<String> = [
        "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt", "nix", "dev",
        "proc", "tmp",
    ]
    .map(String::from)
    .to_vec();
    let first = |p: &std::path::Path| {
        p.components()
            .nth(1)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
    };
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    allowed.extend(std::env::split_paths(&path_var).filter_map(|p| first(&p)));
    allowed.extend(first(&real));
    allowed.extend(first(&std::fs::canonicalize(std::env::temp_dir()).unwrap()));
    let top: Vec<&str> = saw(&seen, "ls", path("/")).split(',').collect();
    assert!(top.contains(&"usr") && top.contains(&"dev"), "{top:?}");
    for entry in &top {
        assert!(
            allowed.iter().any(|a| a == entry),
            "/{entry} in the root: {top:?}"
        );
    }
    assert_eq!(
        saw(&seen, "ls", path("/dev")),
        "fd,full,null,random,shm,stderr,stdin,stdout,urandom,zero"
    );
    // No host /tmp: only the way to its own directories.
    let tmp_root = first(
        &real
            .strip_prefix("/tmp")
            .map_or(PathBuf::new(), |r| std::path::Path::new("/").join(r)),
    );
    for entry in saw(&seen, "ls", path("/tmp"))
        .split(',')
        .filter(|e| !e.is_empty())
    {
        assert!(
            entry.starts_with("dojo-run-") || Some(entry.to_string()) == tmp_root,
            "/tmp/{entry} in the root: {seen:?}"
        );
    }
    assert_eq!(saw(&seen, "ls", path("/run")), "!ENOENT");
    // Its parent holds itself only: not the opponent beside it.
    assert_eq!(saw(&seen, "ls", own.parent().unwrap()), "looker");
    for gone in [
        other.as_path(),
        path("/run"),
        path("/home"),
        path("/var/run"),
    ] {
        assert_eq!(saw(&seen, "exists", gone), "no", "{gone:?}");
    }
    // Its own directory and program are read-only.
    assert_eq!(saw(&seen, "write", &own), "!EROFS");
    assert_eq!(saw(&seen, "chmod", &own.join("looker.py")), "!EROFS");
    assert!(!own.join("looker-was-here.txt").exists());
    assert_eq!(run.seats[0].faults.total(), 0, "{:?}", run.seats[0]);
}

#[test]
fn without_the_minimal_root_the_same_bot_sees_the_host() {
    // The counterpart of the test above: the bot and its checks can fail.
    if !in_a_process_without(
        "without_the_minimal_root_the_same_bot_sees_the_host",
        "minimal-root",
    ) {
        return;
    }
    let (root, _run, seen) = look_around(&options());
    let real = std::fs::canonicalize(root.path()).unwrap();
    let own = real.join("bots/looker");
    assert_eq!(saw(&seen, "exists", &real.join("bots/other")), "yes");
    if std::path::Path::new("/run").exists() {
        assert_eq!(saw(&seen, "exists", std::path::Path::new("/run")), "yes");
    }
    assert_ne!(saw(&seen, "write", &own), "!EROFS");
    assert_ne!(saw(&seen, "chmod", &own.join("looker.py")), "!EROFS");
}

/// The build caches of a temporary bots directory's bots, removed when
/// the test ends (they lie in the user's cache directory, not in the
/// temporary directory).
struct Caches(PathBuf);

impl Drop for Caches {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `bots/peeker/`, whose build left `cache_peeker.py` and a class file in
/// its cache (made here as its build would), beside `bots/victim/`, whose
/// build left its program in its own. The peeker runs its script from its
/// cache and reads the victim's program and lists the cache root. What it
/// reported, `(what, path) -> result`, with the victim's program and the
/// cache root.
fn peek_at_caches(opts: &RunOptions) -> (Vec<(String, String, String)>, PathBuf, PathBuf) {
    let root = tempfile::tempdir().expect("tempdir");
    let bots = std::fs::canonicalize(root.path()).unwrap().join("bots");
    let (peeker, victim) = (bots.join("peeker"), bots.join("victim"));
    for dir in [&peeker, &victim] {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    let (own_cache, victim_cache) = (
        dojo_runner::bot_cache(&peeker),
        dojo_runner::bot_cache(&victim),
    );
    let shared = own_cache.parent().unwrap().to_path_buf();
    assert_eq!(Some(shared.as_path()), victim_cache.parent());
    let _caches = Caches(shared.clone());
    std::fs::create_dir_all(own_cache.join("classes")).unwrap();
    std::fs::copy(
        bots_dir().join("hostile/cache_peeker.py"),
        own_cache.join("cache_peeker.py"),
    )
    .unwrap();
    std::fs::write(own_cache.join("classes/Own.class"), "its own build\n").unwrap();
    std::fs::create_dir_all(&victim_cache).unwrap();
    let program = victim_cache.join("program");
    std::fs::write(&program, "the victim's build\n").unwrap();
    std::fs::write(
        peeker.join("bot.toml"),
        format!(
            "command = [\"python3\", \"$DOJO_CACHE/cache_peeker.py\", \"{}\", \"--ls\", \"{}\"]\n",
            program.display(),
            shared.display()
        ),
    )
    .unwrap();
    let spec = dojo_runner::load_dir(&peeker).expect("the manifest loads");
    let (referee, run) = versus(Arc::new(spec), opts, 2);
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "it ran from its cache: {stderr}"
    );
    assert!(stderr.contains("peeker\tdone"), "{stderr}");
    let seen = stderr
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            (f.next() == Some("peeker")).then(|| {
                let mut next = || f.next().unwrap_or_default().to_string();
                (next(), next(), next())
            })
        })
        .collect();
    (seen, program, shared)
}

/// What the peeker reported for `what` on `path`.
fn peeked<'a>(seen: &'a [(String, String, String)], what: &str, path: &std::path::Path) -> &'a str {
    let path = path.to_string_lossy();
    seen.iter()
        .find(|(w, p, _)| w == what && (*p == path || p.ends_with(&*path)))
        .map(|(_, _, r)| r.as_str())
        .unwrap_or_else(|| panic!("no {what} {path} in {seen:?}"))
}

/// A bot runs what its build left in its own cache (a Java bot's
/// `java -cp $DOJO_CACHE/classes Bot` crashed on every move when only
/// the program a command names was shown), and sees neither another
/// bot's cache nor, in a minimal root, the cache root beside its own.
#[test]
fn a_bot_reads_its_own_build_cache_and_never_another_bots() {
    if !have("landlock") && !have("minimal-root") {
        return;
    }
    let (seen, program, shared) = peek_at_caches(&options());
    let own = "classes/Own.class";
    assert_eq!(
        peeked(&seen, "read", std::path::Path::new(own)),
        "its own build"
    );
    let other = peeked(&seen, "read", &program);
    assert!(other.starts_with('!'), "it read {program:?}: {other}");
    let listed = peeked(&seen, "ls", &shared);
    if have("minimal-root") {
        // Its own directory of the cache root only: the way to it.
        assert_eq!(listed, "peeker", "{seen:?}");
        assert_eq!(other, "!ENOENT");
    } else {
        assert!(listed.starts_with('!'), "{seen:?}");
    }
}

#[test]
fn without_a_sandbox_the_peeker_does_read_another_bots_cache() {
    // The counterpart of the test above: the bot and its checks can fail.
    let mut opts = options();
    opts.controls.sandbox = SandboxMode::Off;
    let (seen, program, shared) = peek_at_caches(&opts);
    assert_eq!(peeked(&seen, "read", &program), "the victim's build");
    assert_eq!(peeked(&seen, "ls", &shared), "peeker,victim");
}

/// A submission whose `build` runs `bots/hostile/build_attack.py` against
/// a canary (its neighbour's program), a listener on `port` and the
/// variable `variable`; with the canaries' paths (the neighbour's
/// program, and the program its build left in its own cache). The attacker reports
/// what it reached in `reached.txt` in its own directory.
fn attacking_build(
    root: &std::path::Path,
    port: u16,
    variable: &str,
) -> (BotSpec, PathBuf, PathBuf) {
    let folder = root.join("submissions");
    let attacker = folder.join("attacker");
    let victim = folder.join("victim");
    std::fs::create_dir_all(&attacker).unwrap();
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::copy(
        bots_dir().join("hostile/build_attack.py"),
        attacker.join("build_attack.py"),
    )
    .unwrap();
    let canary = victim.join("program");
    std::fs::write(&canary, "original\n").unwrap();
    // What the victim's build left in its cache: its program too.
    let victim_cache = dojo_runner::bot_cache(&victim.canonicalize().unwrap());
    std::fs::create_dir_all(&victim_cache).unwrap();
    let built = victim_cache.join("program");
    std::fs::write(&built, "original\n").unwrap();
    std::fs::write(
        attacker.join("bot.toml"),
        format!(
            "command = \"true\"\nbuild = [\"python3\", \"build_attack.py\", \"{}:{}\", \"{port}\", \"{variable}\"]\n",
            canary.display(),
            built.display()
        ),
    )
    .unwrap();
    (dojo_runner::load_dir(&attacker).unwrap(), canary, built)
}

fn reached(bot: &BotSpec) -> Vec<String> {
    std::fs::read_to_string(bot.dir.join("reached.txt"))
        .expect("the build wrote its report")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A variable of this test process's environment (cargo sets it for
/// tests) that stands for a secret of dojo's.
const DOJOS_VARIABLE: &str = "CARGO_MANIFEST_DIR";

/// A build is a stranger's program: it writes its own directory and its
/// cache (an honest build still works) and reaches the network (on by
/// default), but not its neighbour's program nor dojo's environment. The
/// same script run outside dojo, with the variable set, reaches all
/// three, so each check can fail.
#[test]
fn a_build_writes_only_its_own_places_and_sees_none_of_dojos_environment() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let (bot, canary, built) = attacking_build(tmp.path(), port, DOJOS_VARIABLE);
    let cache = tmp.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    // Unconfined: the same command, dojo's environment and the variable.
    let build = bot.build.clone().unwrap();
    let status = std::process::Command::new(&build[0])
        .args(&build[1..])
        .current_dir(&bot.dir)
        .env(DOJOS_VARIABLE, "a secret")
        .env("DOJO_CACHE", &cache)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        reached(&bot),
        [
            "canary",
            "metadata",
            "secret",
            "network",
            "own-directory",
            "cache"
        ]
    );
    assert!(
        listener.accept().is_ok(),
        "the listener saw the unconfined build"
    );
    assert_ne!(std::fs::read_to_string(&built).unwrap(), "original\n");
    std::fs::write(&canary, "original\n").unwrap();
    std::fs::write(&built, "original\n").unwrap();
    std::fs::remove_file(bot.dir.join("reached.txt")).unwrap();

    if std::env::var_os(DOJOS_VARIABLE).is_none() {
        eprintln!("note: {DOJOS_VARIABLE} is not set here: the environment check proves nothing");
    }
    bot.build().expect("the build runs");
    let got = reached(&bot);
    assert!(!got.contains(&"secret".to_owned()), "{got:?}");
    assert!(got.contains(&"own-directory".to_owned()), "{got:?}");
    assert!(got.contains(&"cache".to_owned()), "{got:?}");
    assert!(
        got.contains(&"network".to_owned()),
        "the network is on: {got:?}"
    );
    assert!(listener.accept().is_ok(), "the listener saw the build");
    if have("landlock") {
        assert!(!got.contains(&"canary".to_owned()), "{got:?}");
        assert_eq!(std::fs::read_to_string(&canary).unwrap(), "original\n");
        assert_eq!(std::fs::read_to_string(&built).unwrap(), "original\n");
    }
    // Its mode and times: the host's mounts are read-only to a build.
    if have("minimal-root") {
        assert!(!got.contains(&"metadata".to_owned()), "{got:?}");
    }
    let _ = std::fs::remove_dir_all(built.parent().unwrap().parent().unwrap());
}

/// The counterpart of the metadata check above: without the sealed host
/// (the `minimal-root` layer off) Landlock alone keeps the build from
/// writing the neighbour's program but not from changing its mode and
/// times, which it owns as dojo's user.
#[test]
fn without_the_sealed_host_a_build_changes_a_neighbours_metadata() {
    if !in_a_process_without(
        "without_the_sealed_host_a_build_changes_a_neighbours_metadata",
        "minimal-root",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (bot, _, built) = attacking_build(tmp.path(), port, DOJOS_VARIABLE);
    bot.build().expect("the build runs");
    let got = reached(&bot);
    assert!(got.contains(&"metadata".to_owned()), "{got:?}");
    let _ = std::fs::remove_dir_all(built.parent().unwrap().parent().unwrap());
}

/// A submission whose `build` runs `bots/hostile/build_secrets.py`, in
/// `root`, with this process's `CARGO_HOME` (set by the parent of a child
/// process: a cargo home of the test's own) holding
/// `registry/src/dojo-test/lib.rs`; returns what the build reached and
/// that file's text afterwards.
fn secrets_build(root: &std::path::Path) -> (Vec<String>, String) {
    let cargo = PathBuf::from(std::env::var_os("CARGO_HOME").expect("set by the parent"));
    let source = cargo.join("registry/src/dojo-test/lib.rs");
    std::fs::create_dir_all(source.parent().unwrap()).unwrap();
    std::fs::write(&source, "original\n").unwrap();
    let bot_dir = root.join("secrets");
    std::fs::create_dir_all(&bot_dir).unwrap();
    std::fs::copy(
        bots_dir().join("hostile/build_secrets.py"),
        bot_dir.join("build_secrets.py"),
    )
    .unwrap();
    std::fs::write(
        bot_dir.join("bot.toml"),
        "command = \"true\"\nbuild = [\"python3\", \"build_secrets.py\"]\n",
    )
    .unwrap();
    let bot = dojo_runner::load_dir(&bot_dir).unwrap();
    bot.build().expect("the build runs");
    let _ = std::fs::remove_dir_all(dojo_runner::bot_cache(&bot.dir));
    (reached(&bot), std::fs::read_to_string(&source).unwrap())
}

/// Runs the test `name` again in a child process (without `layer`, if
/// given) whose `CARGO_HOME` is a directory of this one's; true in the
/// child.
fn with_a_cargo_home_of_its_own(name: &str, layer: Option<&str>) -> bool {
    if std::env::var_os("DOJO_TEST_CHILD_PROCESS").is_some() {
        return true;
    }
    let cargo = tempfile::tempdir().unwrap();
    in_a_child_process(name, layer, &[("CARGO_HOME", cargo.path())])
}

/// Whether this process can read a non-empty `/etc/shadow` that others
/// may not read: what a build running as dojo's user would reach.
fn shadow_is_roots_only() -> bool {
    use std::os::unix::fs::PermissionsExt;
    let private =
        std::fs::metadata("/etc/shadow").is_ok_and(|m| m.permissions().mode() & 0o004 == 0);
    let readable = std::fs::read_to_string("/etc/shadow").is_ok_and(|t| !t.trim().is_empty());
    if !(private && readable) {
        eprintln!("note: no root-only /etc/shadow this process reads: its check proves nothing");
    }
    private && readable
}

/// A build runs as dojo's user, which as root owns the host's files: it
/// read `/etc/shadow` by its owner's bits (its capabilities dropped), and
/// it changed the sources in cargo's shared download cache that every
/// later build compiles (the host's own too). In its sealed view what
/// others may not read is hidden, and cargo's `registry` is an overlay of
/// its own: its write works there (a build still downloads and unpacks)
/// and never reaches the host's cache.
#[test]
fn a_build_reads_no_root_only_file_and_changes_no_shared_cargo_cache() {
    let name = "a_build_reads_no_root_only_file_and_changes_no_shared_cargo_cache";
    if !with_a_cargo_home_of_its_own(name, None) || !have("minimal-root") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    shadow_is_roots_only();
    let (got, source) = secrets_build(tmp.path());
    assert!(!got.contains(&"shadow".to_owned()), "{got:?}");
    assert!(
        got.contains(&"cargo-cache".to_owned()),
        "its own view: {got:?}"
    );
    assert_eq!(source, "original\n", "the host's cargo cache is unchanged");
}

/// The counterpart: without the sealed host the same build reads
/// `/etc/shadow` (as root) and changes the host's cargo cache.
#[test]
fn without_the_sealed_host_a_build_reads_shadow_and_changes_the_cargo_cache() {
    let name = "without_the_sealed_host_a_build_reads_shadow_and_changes_the_cargo_cache";
    if !with_a_cargo_home_of_its_own(name, Some("minimal-root")) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let shadow = shadow_is_roots_only();
    let (got, source) = secrets_build(tmp.path());
    if shadow {
        assert!(got.contains(&"shadow".to_owned()), "{got:?}");
    }
    assert!(got.contains(&"cargo-cache".to_owned()), "{got:?}");
    assert!(source.contains("changed by a build"), "{source}");
}

/// `--build-network off`: the build reaches no listener on the host's
/// loopback (a network namespace of its own, else Landlock's TCP rules);
/// where neither can be had, the build is refused rather than run with
/// the network.
#[test]
fn a_build_without_the_network_reaches_no_listener_or_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let (bot, _, built) = attacking_build(tmp.path(), port, DOJOS_VARIABLE);
    let off = dojo_runner::BuildNetwork::Off;
    let result = bot.build_with(off, dojo_runner::DEFAULT_BUILD_TIMEOUT);
    let can_cut = probe()
        .iter()
        .any(|l| (l.name == "network-namespace" || l.name == "landlock-network") && l.available);
    if !can_cut {
        let err = result.expect_err("refused without a way to cut the network");
        assert!(
            matches!(err, dojo_runner::BuildError::Confine { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("--build-network off"), "{err}");
        eprintln!("skipped the build: {err}");
        return;
    }
    result.expect("the build runs");
    let got = reached(&bot);
    assert!(!got.contains(&"network".to_owned()), "{got:?}");
    assert!(got.contains(&"own-directory".to_owned()), "{got:?}");
    assert!(listener.accept().is_err(), "the listener saw a connection");
    let _ = std::fs::remove_dir_all(built.parent().unwrap().parent().unwrap());
}

/// What note_keeper.py reported at its start: the `notes` line of its
/// stderr (the notes it found and its pid; not its `ipc` line: System V
/// ids go on counting in a reused box, see docs/sandbox.md).
fn notes_line(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.starts_with("notes\t"))
        .unwrap_or_else(|| panic!("no notes line: {stderr}"))
}

/// Two note keepers (deterministic) play `games` games, each game on the
/// thread `thread_per_game` says: one thread for all (their boxes reused,
/// emptied between games) or a new thread per game (a fresh box each).
/// Each game's record (see below).
fn note_keepers(games: usize, thread_per_game: bool) -> Vec<String> {
    let keeper = bot("hostile", "note_keeper.py", &[]);
    let game = move || {
        let seats = [Seat::new(keeper.clone()), Seat::new(keeper.clone())];
        let mut referee = Cards {
            rounds: 2,
            ..Cards::default()
        };
        let run = play(&mut referee, &seats, &options()).expect("game runs");
        // The game's record as far as the bots made it: the moves, and each
        // seat's faults, starts and whole stderr (among it the System V id
        // its new segment got: each game has an IPC namespace of its own)
        // but, without a PID namespace, its pid (the host's, any number).
        let pid_ns = have("pid-namespace");
        let seats: Vec<String> = run
            .seats
            .iter()
            .map(|s| {
                assert!(notes_line(&s.stderr).starts_with("notes\t"));
                let stderr: Vec<&str> = s
                    .stderr
                    .lines()
                    .map(|l| {
                        if pid_ns {
                            l
                        } else if l.starts_with("cgroup\t") {
                            // Nor, without a box's cgroup namespace, the
                            // names of its process's own groups.
                            "cgroup"
                        } else {
                            l.split("\tpid").next().unwrap_or(l)
                        }
                    })
                    .collect();
                format!("{:?} spawns {} {stderr:?}", s.faults, s.spawns)
            })
            .collect();
        format!("{:?} {seats:?}", referee.history)
    };
    if thread_per_game {
        (0..games)
            .map(|_| {
                let game = game.clone();
                std::thread::spawn(game).join().expect("game thread")
            })
            .collect()
    } else {
        std::thread::spawn(move || (0..games).map(|_| game()).collect())
            .join()
            .expect("games thread")
    }
}

#[test]
fn a_bot_finds_no_note_of_its_last_game_in_its_reused_box() {
    // Its two games on one thread reuse its box: the second must find
    // nothing the first left (an xattr, a file, the mode and time of its
    // scratch directory), and the PID counter as a fresh box has it.
    let keeper = bot("hostile", "note_keeper.py", &[]);
    let mut lines = Vec::new();
    for game in 0..2 {
        let (referee, run) = versus(keeper.clone(), &options(), 2);
        let stderr = &run.seats[1].stderr;
        assert!(
            referee.history.iter().all(|r| r[1] == Answer::Move(0)),
            "game {game} found a note: {stderr}"
        );
        let line = notes_line(stderr).to_string();
        assert!(line.starts_with("notes\tnone\t"), "game {game}: {line}");
        lines.push(line);
    }
    // Without a PID namespace the counter is the host's, which every
    // process on it moves.
    if have("pid-namespace") {
        assert_eq!(lines[0], lines[1], "the PID counter differs");
    }
}

#[test]
fn a_bot_that_spins_leaves_no_note_in_its_reused_boxs_scheduler() {
    // A new process starts at its run queue's virtual runtime, which in a
    // CPU group the box kept would grow with the CPU of its last game: a
    // second of spinning read as about 1,000 ms in the next game. Each
    // game's processes get a CPU group of their own.
    if !boxes() || !have("cgroup-cpu-share") {
        return;
    }
    let keeper = bot("hostile", "sched_note.py", &["1.0"]);
    // Generous: the spin is on the start-up allowance.
    let opts = dojo_testkit::bots::run_options(5_000, 30_000);
    // Its two games on one thread reuse its box.
    let (_, first) = versus(keeper.clone(), &opts, 1);
    let (referee, second) = versus(keeper, &opts, 1);
    let seen = |run: &MatchRun| -> f64 {
        let stderr = &run.seats[1].stderr;
        stderr
            .lines()
            .find_map(|l| l.strip_prefix("vruntime\t"))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no vruntime line: {stderr}"))
    };
    assert!(seen(&first) >= 0.0, "{}", first.seats[1].stderr);
    assert_eq!(
        referee.history[0][1],
        Answer::Move(0),
        "the next game read {} ms",
        seen(&second)
    );
}

/// manifest_reader.py on the box's init's `/proc/1/status`: its context
/// switches and (in `/proc/1/stat`) its start time grow with every game
/// a reused box serves, which tells a bot whether its box is fresh.
fn read_the_inits_status() -> (Cards, MatchRun) {
    versus(
        bot("hostile", "manifest_reader.py", &["/proc/1/status"]),
        &options(),
        1,
    )
}

#[test]
fn a_seat_user_does_not_see_its_boxs_init_in_proc() {
    if !boxes() || !have("private-proc") || !have("seat-user") {
        return;
    }
    let (referee, run) = read_the_inits_status();
    let stderr = &run.seats[1].stderr;
    assert_eq!(referee.history[0][1], Answer::Move(0), "{stderr}");
    assert!(stderr.contains("No such file"), "{stderr}");
}

#[test]
fn without_a_seat_user_a_bot_sees_its_boxs_init() {
    // The counterpart: `hidepid` hides another user's processes only.
    if !in_a_process_without("without_a_seat_user_a_bot_sees_its_boxs_init", "seat-user")
        || !boxes()
        || !have("private-proc")
    {
        return;
    }
    let (referee, run) = read_the_inits_status();
    assert_eq!(
        referee.history[0][1],
        Answer::Move(1),
        "{}",
        run.seats[1].stderr
    );
}

#[test]
fn a_boxed_bots_control_groups_show_no_name() {
    // Their names hold dojo's pid and the box's number: a deterministic
    // bot that played by them would play differently in a fresh box and
    // a reused one. The box's cgroup namespace shows each as `/`, in a
    // reused box too (where the CPU controller has a hierarchy of its
    // own, each game has a new group of it).
    if !have("pid-namespace") {
        return;
    }
    // Two games: the second in the reused box.
    let keeper = bot("hostile", "note_keeper.py", &[]);
    for game in 0..2 {
        let (_, run) = versus(keeper.clone(), &options(), 1);
        let stderr = &run.seats[1].stderr;
        let line = stderr
            .lines()
            .find_map(|l| l.strip_prefix("cgroup\t"))
            .unwrap_or_else(|| panic!("no cgroup line: {stderr}"));
        assert_eq!(line, "/", "game {game}: {stderr}");
    }
}

#[test]
fn without_seccomp_the_network_counters_carry_a_note_to_the_next_game() {
    // The counterpart of the network note above: a box keeps its network
    // namespace from game to game, and only seccomp (no socket for a bot)
    // keeps a bot from moving its counters.
    if !in_a_process_without(
        "without_seccomp_the_network_counters_carry_a_note_to_the_next_game",
        "seccomp",
    ) {
        return;
    }
    if !boxes() || !have("network-namespace") {
        return;
    }
    let keeper = bot("hostile", "note_keeper.py", &[]);
    let (_, first) = versus(keeper.clone(), &options(), 1);
    assert!(
        notes_line(&first.seats[1].stderr).starts_with("notes\tnone\t"),
        "{}",
        first.seats[1].stderr
    );
    let (referee, second) = versus(keeper, &options(), 1);
    let line = notes_line(&second.seats[1].stderr);
    assert!(line.starts_with("notes\tnetns\t"), "{line}");
    assert_eq!(referee.history[0][1], Answer::Move(1));
}

#[test]
fn a_games_record_is_the_same_in_a_reused_box_and_a_fresh_one() {
    let reused = note_keepers(3, false);
    let fresh = note_keepers(3, true);
    assert_eq!(reused, fresh);
    // And every game as the first.
    assert!(reused.iter().all(|g| g == &reused[0]), "{reused:#?}");
}

/// What scratch_filler.py reported: (count, errno, size of its
/// filesystem in MiB).
fn filled(stderr: &str) -> (u64, i32, u64) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("filled\t"))
        .unwrap_or_else(|| panic!("no filled line: {stderr}"));
    let f: Vec<&str> = line.split('\t').collect();
    let number = |i: usize| f[i].parse::<u64>().expect("a number");
    (number(2), number(3) as i32, number(4))
}

/// Options for the filler, which writes before its first answer: time
/// enough for that on a busy machine.
fn filler_options(mut opts: RunOptions) -> RunOptions {
    opts.controls.startup = Duration::from_secs(120);
    opts
}

/// Whether this process's bots get boxes with a minimal root (and so a
/// tmpfs scratch directory); prints why a test is skipped if not.
fn boxes_with_a_root() -> bool {
    if std::env::var("DOJO_BOX").is_ok_and(|v| v == "0") {
        eprintln!("skipped: DOJO_BOX=0, no boxes");
        return false;
    }
    have("pid-namespace") && have("minimal-root")
}

#[test]
fn a_bot_filling_its_scratch_directory_meets_its_cap_not_the_disk() {
    if !boxes_with_a_root() {
        return;
    }
    let cap = dojo_runner::SCRATCH_MIB;
    let (referee, run) = versus(
        bot(
            "hostile",
            "scratch_filler.py",
            &["bytes", &(cap + 100).to_string()],
        ),
        &filler_options(options()),
        2,
    );
    let stderr = &run.seats[1].stderr;
    assert!(
        referee.history.iter().all(|r| r[1] == Answer::Move(0)),
        "{stderr}"
    );
    let (written, errno, size) = filled(stderr);
    assert_eq!(errno, libc_enospc(), "{stderr}");
    assert!(written <= cap, "{stderr}");
    // Its own filesystem, not the one the results are on.
    assert_eq!(size, cap, "{stderr}");
    let files = dojo_runner::SCRATCH_INODES;
    let (stderr, (made, errno, _)) = fill_inodes(options());
    assert_eq!(errno, libc_enospc(), "{stderr}");
    assert!(made < files, "{stderr}");
}

/// The filler making 1,000 files more than a box's scratch filesystem
/// holds, under `opts`: its stderr, and what it reported (files made, the
/// errno that stopped it, the filesystem's size in MiB).
fn fill_inodes(opts: RunOptions) -> (String, (u64, i32, u64)) {
    let files = dojo_runner::SCRATCH_INODES;
    let (_, run) = versus(
        bot(
            "hostile",
            "scratch_filler.py",
            &["inodes", &(files + 1000).to_string()],
        ),
        &filler_options(opts),
        2,
    );
    let stderr = run.seats[1].stderr.clone();
    let figures = filled(&stderr);
    (stderr, figures)
}

#[test]
fn without_a_box_the_filler_writes_past_the_cap_on_the_hosts_disk() {
    let files = dojo_runner::SCRATCH_INODES;
    let (stderr, (made, errno, size)) = fill_inodes(nothing_but_the_process_group());
    assert_eq!((made, errno), (files + 1000, 0), "{stderr}");
    let host = rustix::fs::statvfs(std::env::temp_dir()).expect("statvfs");
    assert_eq!(size, (host.f_blocks * host.f_frsize) >> 20, "{stderr}");
}

fn libc_enospc() -> i32 {
    rustix::io::Errno::NOSPC.raw_os_error()
}

/// CardJitsu that never ends after its first round: it prints `READY`
/// on stdout (the bots have answered once, so the filler has written)
/// and waits to be killed.
struct StopsAfterARound(Cards);

impl dojo_engine::protocol::Referee for StopsAfterARound {
    type Move = <Cards as dojo_engine::protocol::Referee>::Move;

    fn seats(&self) -> usize {
        self.0.seats()
    }

    fn greeting(&self, seat: usize) -> Vec<String> {
        self.0.greeting(seat)
    }

    fn prompts(&self) -> Vec<dojo_engine::protocol::Prompt> {
        self.0.prompts()
    }

    fn parse_reply(
        &self,
        seat: usize,
        lines: &[String],
    ) -> dojo_engine::protocol::Reply<Self::Move> {
        self.0.parse_reply(seat, lines)
    }

    fn apply(&mut self, answers: Vec<Answer<Self::Move>>) -> Vec<dojo_engine::protocol::Notice> {
        self.0.apply(answers);
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "READY");
        let _ = out.flush();
        loop {
            std::thread::park();
        }
    }

    fn farewell(&self) -> Vec<String> {
        self.0.farewell()
    }
}

/// Runs `name` again in a child process, whose game (the filler writing
/// 8 MiB, against random_ok.py, `opts` by `sandbox_off`) is killed with
/// SIGKILL mid-game; the regular files the child's run directory then
/// holds, but its lock (paths and sizes). True in the child.
fn files_a_killed_dojo_left(name: &str, sandbox_off: bool) -> Option<Vec<(PathBuf, u64)>> {
    const CHILD: &str = "DOJO_TEST_KILLED_CHILD";
    if std::env::var_os(CHILD).is_some() {
        let seats = [
            Seat::new(bot("faulty", "random_ok.py", &[])),
            Seat::new(bot("hostile", "scratch_filler.py", &["bytes", "8"])),
        ];
        let opts = filler_options(if sandbox_off {
            nothing_but_the_process_group()
        } else {
            options()
        });
        let mut referee = StopsAfterARound(Cards {
            rounds: 3,
            ..Cards::default()
        });
        let _ = play(&mut referee, &seats, &opts);
        unreachable!("the referee waits to be killed");
    }
    use std::io::BufRead;
    let mut child = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the test binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let ready = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .any(|l| l.ends_with("READY"));
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    assert!(ready, "the child's game never got through a round");
    let prefix = format!("dojo-run-{}-", child.id());
    let run = std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .expect("the killed child's run directory")
        .path();
    let mut files = Vec::new();
    let mut dirs = vec![run];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                dirs.push(entry.path());
            } else if entry.file_name() != "lock" {
                files.push((entry.path(), meta.len()));
            }
        }
    }
    // The next start (a resumed league's) removes the rest.
    dojo_runner::remove_leftovers();
    assert!(
        !std::fs::read_dir(std::env::temp_dir())
            .expect("temp dir")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(&prefix)),
        "the run directory outlived the next start"
    );
    Some(files)
}

#[test]
fn nothing_a_boxed_bot_wrote_is_on_disk_after_kill_9_of_dojo() {
    if !boxes_with_a_root() {
        return;
    }
    let Some(files) = files_a_killed_dojo_left(
        "nothing_a_boxed_bot_wrote_is_on_disk_after_kill_9_of_dojo",
        false,
    ) else {
        return;
    };
    assert!(files.is_empty(), "{files:?}");
}

#[test]
fn without_a_box_the_bots_files_stay_on_disk_till_the_next_start() {
    let Some(files) = files_a_killed_dojo_left(
        "without_a_box_the_bots_files_stay_on_disk_till_the_next_start",
        true,
    ) else {
        return;
    };
    assert_eq!(
        files.iter().map(|(_, len)| len).sum::<u64>(),
        8 << 20,
        "{files:?}"
    );
}

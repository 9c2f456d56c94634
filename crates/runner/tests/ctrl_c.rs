//! What the CLI's Ctrl-C handler relies on: `kill_all_bots` stops a build
//! in progress, with everything it started. In a test binary of its own,
//! since it kills every bot process of the test process.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dojo_runner::{BotSpec, Mode, kill_all_bots};
use dojo_testkit::procs::{eventually, tagged_gone_within, tagged_processes};

#[test]
fn kill_all_bots_stops_a_build_in_progress_and_what_it_started() {
    let tag = format!("dojo-test-build-{}", std::process::id());
    // A build that would take ten minutes, with a background process of
    // its own session (so outside the build's process group): three shells
    // with the tag in their command lines.
    let sleeper = format!("sh -c 'sleep 600; true' {tag}");
    let script = format!("setsid {sleeper} & {sleeper}; true");
    let spec = BotSpec {
        name: "slow-build".to_string(),
        command: vec!["true".to_string()],
        dir: PathBuf::from("/"),
        build: Some(vec!["sh".to_string(), "-c".to_string(), script]),
        mode: Mode::Auto,
        games: Vec::new(),
        team: None,
        description: None,
        values: Default::default(),
    };
    let build = std::thread::spawn(move || spec.build());
    assert!(
        eventually(Duration::from_secs(60), || tagged_processes(&tag).len()
            >= 3),
        "the build never started"
    );
    let asked = Instant::now();
    kill_all_bots();
    let result = build.join().expect("build thread");
    assert!(result.is_err(), "a killed build is a failed build");
    assert!(
        asked.elapsed() < Duration::from_secs(30),
        "the build went on for {:?}",
        asked.elapsed()
    );
    let (gone, left) = tagged_gone_within(&tag, Duration::from_secs(60));
    assert!(gone, "left running after the build was stopped: {left:?}");
}

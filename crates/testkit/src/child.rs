//! One test run again in a child process of its own: for a test that
//! needs a process-wide setting its siblings must not share (a layer
//! skipped, an environment variable dojo reads, a control group joined).

use std::ffi::OsStr;
use std::process::Command;

/// Runs the test `name` of this test binary alone in a child process with
/// `env` added to its environment, and checks that it ran and passed.
/// The child's stderr (skip reasons, failures) shows in this test's.
pub fn rerun_in_child(name: &str, env: &[(&str, &OsStr)]) {
    let out = Command::new(std::env::current_exe().expect("test binary"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .envs(env.iter().copied())
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("1 passed"),
        "the child ran no test: {stdout}"
    );
}

//! The `dojo` binary, run the way a user runs it: from the workspace root,
//! so `bots/` and `boards/` resolve as they do for a user.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::paths::root;

/// `dojo` run from the workspace root.
pub fn dojo() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("dojo").expect("the dojo binary is built");
    cmd.current_dir(root());
    cmd
}

/// Runs `cmd`, which must succeed, and returns its stdout.
pub fn stdout_ok(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().expect("dojo runs");
    assert!(out.status.success(), "{cmd:?} failed:\n{}", stderr_of(&out));
    stdout_of(&out)
}

/// Standard output of a finished command, as text.
pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error of a finished command, as text.
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Move and start-up deadlines no bot misses on a loaded machine, for the
/// tests that are not about time: a timeout there would change a result
/// the test checks (a verdict, a league that must equal another).
pub const GENEROUS: [&str; 4] = ["--timeout-ms", "20000", "--startup-ms", "20000"];

/// [`GENEROUS`], unless `args` set a time control of their own: the
/// leagues the tests compare (one run against another, a resume, shards)
/// must not depend on a Python bot answering within the default second
/// on a loaded machine.
pub fn generous_unless_timed(args: &[&str]) -> &'static [&'static str] {
    if args
        .iter()
        .any(|a| matches!(*a, "--timeout-ms" | "--startup-ms" | "--resume"))
    {
        &[]
    } else {
        &GENEROUS
    }
}

/// `--seed 1`, unless `args` give a seed or resume a league: a new league
/// draws its seed at random, and the leagues the tests compare (one run
/// against another, a resume, shards, a late entry against a league that
/// had it from the start) must play the same games.
pub fn seeded_unless_given(args: &[&str]) -> &'static [&'static str] {
    if args.iter().any(|a| matches!(*a, "--seed" | "--resume")) {
        &[]
    } else {
        &["--seed", "1"]
    }
}

/// Plays a CardJitsu league of the two bundled random bots into `out`
/// (`games` per pair, `extra` flags after it) and returns its stdout.
pub fn random_league(out: &Path, games: u32, extra: &[&str]) -> String {
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu", "random-py", "random-sh", "--games"])
            .arg(games.to_string())
            .args(generous_unless_timed(extra))
            .args(seeded_unless_given(extra))
            .args(extra)
            .arg("--out")
            .arg(out),
    )
}

/// The debug binary of a workspace bot, next to the `dojo` binary under
/// test, built (or found up to date) by cargo first: a stale binary from an
/// older checkout would test the wrong bot. (The bots' manifests build with
/// `--release`, too slow for the test suite.)
pub fn debug_bot(package: &str, bin: &str) -> PathBuf {
    let dojo = assert_cmd::cargo::cargo_bin("dojo");
    let dir = dojo.parent().expect("dojo binary has a directory");
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet", "-p", package])
        .current_dir(root())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p {package} failed");
    let path = dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// What `dojo ARGS` writes to a terminal (a pseudo-terminal of util-linux's
/// `script`, run from the workspace root), or `None`, with the reason
/// printed, where there is no `script` to give it one.
pub fn on_a_terminal(args: &str) -> Option<String> {
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        eprintln!("skipped: no `script` (util-linux) to give dojo a terminal");
        return None;
    }
    let dojo = assert_cmd::cargo::cargo_bin("dojo");
    let command = format!("{} {args}", dojo.display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(root())
        .output()
        .expect("script runs");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

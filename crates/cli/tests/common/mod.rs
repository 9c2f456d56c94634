//! Helpers shared by the `dojo` integration tests: the binary, run from the
//! workspace root so `bots/` and `boards/` resolve as they do for a user.

#![allow(dead_code)] // each test file uses a different subset

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The workspace root (where `bots/` and `boards/` live).
pub fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .canonicalize()
        .expect("workspace root exists")
}

/// A fixture under `crates/cli/tests/data/`, as an absolute path string.
pub fn data(name: &str) -> String {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"))
        .join(name)
        .display()
        .to_string()
}

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

/// Reads a JSON file (a record or a report).
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// `value` serialized without its top-level `timing` key, which is the only
/// part allowed to differ between two runs of the same game or league.
pub fn without_timing(mut value: Value) -> String {
    let removed = value
        .as_object_mut()
        .expect("a JSON object")
        .remove("timing");
    assert!(removed.is_some(), "no timing key in {value}");
    serde_json::to_string(&value).expect("serializable")
}

/// Reads a JSON file and drops its `timing` (see [`without_timing`]).
pub fn json_without_timing(path: &Path) -> String {
    without_timing(read_json(path))
}

/// Standard output of a finished command, as text.
pub fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error of a finished command, as text.
pub fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
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

/// Plays a CardJitsu league of the two bundled random bots into `out`
/// (`games` per pair, `extra` flags after it) and returns its stdout.
pub fn random_league(out: &Path, games: u32, extra: &[&str]) -> String {
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu", "random-py", "random-sh", "--games"])
            .arg(games.to_string())
            .args(extra)
            .arg("--out")
            .arg(out),
    )
}

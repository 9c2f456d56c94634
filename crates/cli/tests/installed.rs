//! The installed binary works outside the repository: a copy of the built
//! `dojo` (as `cargo install` would put it), run from a temporary
//! directory, finds the bundled bots and boards; `DOJO_HOME` points it at
//! other ones; and a missing bots directory says where it looked and how
//! to point dojo at bots.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use dojo_testkit::cli::{stderr_of, stdout_of};
use dojo_testkit::paths::root;

/// Held while a copy of the binary is written and while a process is
/// started. A process forked by another test thread while the copy's
/// write descriptor is open keeps it until its exec, and executing the
/// copy meanwhile fails with "Text file busy" (ETXTBSY).
static SPAWN: Mutex<()> = Mutex::new(());

/// A copy of the built binary in `dir/bin`.
fn installed(dir: &Path) -> PathBuf {
    let _spawning = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let to = bin.join("dojo");
    std::fs::copy(assert_cmd::cargo::cargo_bin("dojo"), &to).unwrap();
    to
}

fn run(dojo: &Path, cwd: &Path, args: &[&str]) -> std::process::Output {
    let _spawning = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    Command::new(dojo)
        .args(args)
        .current_dir(cwd)
        .env_remove("DOJO_HOME")
        .output()
        .unwrap()
}

#[test]
fn the_installed_binary_finds_bots_and_boards_from_any_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dojo = installed(tmp.path());
    let elsewhere = tmp.path().join("work");
    std::fs::create_dir_all(&elsewhere).unwrap();

    let out = run(&dojo, &elsewhere, &["bots"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("random-py"), "{}", stdout_of(&out));

    let out = run(
        &dojo,
        &elsewhere,
        &[
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--seed",
            "1",
            "--quiet",
        ],
    );
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("result:"));

    let out = run(
        &dojo,
        &elsewhere,
        &[
            "match",
            "royale",
            "--board",
            "boards/arena.txt",
            "--seed",
            "1",
            "--max-rounds",
            "2",
            "--rock",
            "royale-random-py",
            "--paper",
            "royale-random-py",
            "--scissors",
            "royale-random-py",
        ],
    );
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("Royale on boards/arena.txt"));
}

#[test]
fn dojo_home_points_at_other_bots_and_a_missing_directory_says_how_to_fix_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dojo = installed(tmp.path());
    let home = tmp.path().join("home");
    let bot = home.join("bots/home-bot");
    std::fs::create_dir_all(&bot).unwrap();
    for file in ["bot.toml", "bot.py"] {
        std::fs::copy(root().join("bots/random-py").join(file), bot.join(file)).unwrap();
    }
    let text = std::fs::read_to_string(bot.join("bot.toml"))
        .unwrap()
        .replace("name = \"random-py\"", "name = \"home-bot\"");
    std::fs::write(bot.join("bot.toml"), text).unwrap();
    let spawning = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    let out = Command::new(&dojo)
        .arg("bots")
        .current_dir(tmp.path())
        .env("DOJO_HOME", &home)
        .output()
        .unwrap();
    drop(spawning);
    let listed = stdout_of(&out);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(listed.contains("home-bot"), "{listed}");
    assert!(!listed.contains("sensei"), "{listed}");

    let out = run(&dojo, tmp.path(), &["--bots-dir", "nowhere", "bots"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    // The directory given is named as missing (not the default places the
    // flag replaces).
    assert!(err.contains("--bots-dir nowhere: does not exist"), "{err}");
    let out = run(
        &dojo,
        tmp.path(),
        &[
            "--bots-dir",
            "nowhere",
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
        ],
    );
    assert!(
        stderr_of(&out).contains("--bots-dir nowhere: does not exist"),
        "{}",
        stderr_of(&out)
    );
}

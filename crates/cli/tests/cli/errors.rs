//! What `dojo` says when it is called wrongly: clap's usage errors, `--help`
//! for every subcommand, and bot manifests that do not parse.

use dojo_testkit::cli::{dojo, stderr_of};
use dojo_testkit::paths::data;
use predicates::prelude::*;

/// Usage errors: each invocation exits 3 and its message says what was
/// wrong and what was expected.
#[test]
fn usage_errors_exit_3_and_say_what_was_expected() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--frobnicate"],
            &["unexpected argument '--frobnicate'", "Usage: dojo"],
        ),
        (
            &[
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--sede",
                "1",
            ],
            &["unexpected argument '--sede'", "--seed"],
        ),
        (&["tournament"], &["unrecognized subcommand 'tournament'"]),
        (
            &["match", "chess", "a", "b"],
            &["unrecognized subcommand 'chess'"],
        ),
        (
            &[
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--rules",
                "nope",
            ],
            &["invalid value 'nope'", "tournament, classic"],
        ),
        (&["match", "cardjitsu", "random-py"], &["<BOT2>"]),
        (
            &[
                "match",
                "royale",
                "--board",
                "boards/arena.txt",
                "--rock",
                "a",
            ],
            &["--paper"],
        ),
        (
            &["league", "cardjitsu", "--games", "many"],
            &["invalid value 'many'"],
        ),
        // The control flags are built from the runner's list: their values
        // are checked there, naming the flag and what it takes.
        (
            &["league", "cardjitsu", "--timeout-ms", "0"],
            &["invalid value '0' for '--timeout-ms <MS>': expected a whole number of at least 1"],
        ),
        // A negative number is a value to refuse in words, not an
        // unknown flag; and clap's own range words are not shown.
        (
            &["league", "cardjitsu", "--games", "-1"],
            &["invalid value '-1' for '--games <N>': expected a whole number of at least 1"],
        ),
        (
            &["league", "cardjitsu", "--games", "0"],
            &["invalid value '0' for '--games <N>': expected a whole number of at least 1"],
        ),
        (
            &["league", "cardjitsu", "--jobs", "5000"],
            &["expected a whole number from 1 to 1024"],
        ),
        (
            &["match", "cardjitsu", "a", "b", "--timeout-ms", "-5"],
            &["invalid value '-5' for '--timeout-ms <MS>'"],
        ),
        // Every number flag, also those that take 0 (a seed, a game id,
        // a turn) and the games' round counts.
        (
            &["match", "cardjitsu", "a", "b", "--seed", "-5"],
            &["invalid value '-5' for '--seed <N>': expected a whole number of at least 0"],
        ),
        (
            &["league", "cardjitsu", "a", "b", "--max-rounds", "0"],
            &[
                "invalid value '0' for '--max-rounds <N>': expected a whole number from 1 to 4294967295",
            ],
        ),
        (
            &["league", "royale", "a", "b", "c", "--stall-rounds", "-2"],
            &["invalid value '-2' for '--stall-rounds <N>': expected a whole number from 1"],
        ),
        (
            &["replay", "results", "--game", "-2"],
            &["invalid value '-2' for '--game <ID>': expected a whole number of at least 0"],
        ),
        (
            &["replay", "x.json", "--turn", "-1"],
            &["invalid value '-1' for '--turn <N>': expected a whole number of at least 0"],
        ),
        (
            &["league", "cardjitsu", "--sandbox", "maybe"],
            &["invalid value 'maybe'", "off, auto, strict"],
        ),
        (
            &["match", "cardjitsu", "a", "b", "--limit-files", "many"],
            &[
                "invalid value 'many' for '--limit-files <N>': expected a whole number of at least 1",
            ],
        ),
        (
            &[
                "match",
                "cardjitsu",
                "a",
                "b",
                "--timeout-ms",
                "99999999999999999999",
            ],
            &[
                "invalid value '99999999999999999999' for '--timeout-ms <MS>': too large: the largest value accepted is 18446744073709551615",
            ],
        ),
    ];
    for (args, expected) in cases {
        let out = dojo().args(*args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(3), "dojo {args:?}: {err}");
        for e in *expected {
            assert!(err.contains(e), "dojo {args:?} does not say {e:?}:\n{err}");
        }
        assert!(
            !err.contains("Usage: dojo [OPTIONS] <COMMAND>") || args.len() < 2,
            "dojo {args:?} shows the top-level usage for a subcommand's flag:\n{err}"
        );
    }
}

#[test]
fn every_subcommand_has_help() {
    let cases: [(&[&str], &str, &str); 7] = [
        (&[], "Usage: dojo", "league"),
        (&["match"], "Usage: dojo match", "royale"),
        (
            &["match", "cardjitsu"],
            "Usage: dojo match cardjitsu",
            "--deck1",
        ),
        (
            &["match", "royale"],
            "Usage: dojo match royale",
            "--scissors",
        ),
        (&["league"], "Usage: dojo league", "--resume"),
        (&["merge"], "Usage: dojo merge", "--out"),
        (&["bots"], "Usage: dojo bots", "--bots-dir"),
    ];
    for (words, usage, option) in cases {
        dojo()
            .args(words)
            .arg("--help")
            .assert()
            .success()
            .stdout(predicate::str::contains(usage))
            .stdout(predicate::str::contains(option));
    }
}

#[test]
fn a_manifest_with_an_unknown_key_is_refused_with_file_and_line() {
    let dir = data("bad-manifest");
    let file = format!("{dir}/bot.toml");
    dojo()
        .args(["match", "cardjitsu", &dir, "random-py", "--seed", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!("{file}:4:")))
        .stderr(predicate::str::contains("unknown field `comand`"));
    // The same through a bots directory and a bot name.
    dojo()
        .args(["--bots-dir", &data(""), "match", "cardjitsu"])
        .args(["bad-manifest", "random-py", "--seed", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad-manifest/bot.toml:4:"))
        .stderr(predicate::str::contains("unknown field `comand`"));
}

#[test]
fn bots_lists_the_bundled_bots_and_their_games() {
    let out = dojo().arg("bots").assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{stdout}"))
            .to_owned()
    };
    assert!(line("random-py").contains("cardjitsu"));
    assert!(line("random-sh").contains("cardjitsu"));
    assert!(line("royale-random-py").contains("royale"));
    assert!(line("random-py").contains(" ok "));
    // bots/faulty and bots/hostile hold test bots: the folder's
    // .dojoignore takes them out, and says so.
    assert!(
        stdout.contains("not entries (.dojoignore lists them): faulty, hostile"),
        "{stdout}"
    );
    assert!(
        !stdout.lines().any(|l| l.starts_with("faulty ")),
        "{stdout}"
    );
}

#[test]
fn an_io_error_names_the_file_and_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    // A deck that is there but cannot be read (a missing one is told
    // with the named decks instead: a_missing_deck_file_lists_the_named_decks).
    let missing = dir.path().join("deck-dir.dcfg");
    std::fs::create_dir(&missing).unwrap();
    let out = dojo()
        .args(["match", "cardjitsu", "random-py", "random-sh", "--deck1"])
        .arg(&missing)
        .assert()
        .failure()
        .get_output()
        .clone();
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains(&format!("{}: ", missing.display())),
        "{stderr}"
    );
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");

    let out = dojo()
        .args(["match", "cardjitsu", "x=/nonexistent/program", "random-py"])
        .args(["--seed", "1"])
        .assert()
        .failure()
        .get_output()
        .clone();
    let stderr = stderr_of(&out);
    assert!(stderr.contains("/nonexistent/program"), "{stderr}");
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
}

#[test]
fn zero_games_or_zero_jobs_is_a_usage_error_before_anything_is_written() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("league");
    let out_arg = out.display().to_string();
    for flag in ["--games", "--jobs"] {
        dojo()
            .args(["league", "cardjitsu", "random-py", "random-sh", "--out"])
            .arg(&out_arg)
            .args([flag, "0"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "invalid value '0' for '{flag}"
            )));
        assert!(!out.exists(), "{flag} 0 created {}", out.display());
    }
    // compare maps usage errors to its own status 3 (2 means inconclusive).
    for flag in ["--games", "--jobs"] {
        dojo()
            .args(["compare", "cardjitsu", "random-py", "random-sh", flag, "0"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "invalid value '0' for '{flag}"
            )));
    }
}

#[test]
fn a_round_limit_of_zero_is_a_usage_error_and_royale_help_shows_the_defaults() {
    dojo()
        .args(["match", "cardjitsu", "random-py", "random-sh"])
        .args(["--max-rounds", "0"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "invalid value '0' for '--max-rounds",
        ));
    for flag in ["--max-rounds", "--stall-rounds"] {
        dojo()
            .args(["match", "royale", "--board", "boards/arena.txt"])
            .args(["--rock", "a=x", "--paper", "b=x", "--scissors", "c=x"])
            .args([flag, "0"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "invalid value '0' for '{flag}"
            )));
    }
    dojo()
        .args(["match", "royale", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("default: 10 * (width + height)"))
        .stdout(predicate::str::contains("default: width + height"));
}

#[test]
fn a_failing_build_is_reported_once_with_the_bot_and_its_command() {
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        tmp.path().join("bot.toml"),
        "name = \"broken\"\ncommand = \"./bot\"\nbuild = [\"sh\", \"-c\", \"echo no compiler >&2; exit 3\"]\n",
    )
    .expect("write manifest");
    let out = dojo()
        .args(["match", "cardjitsu", "random-py", "--seed", "1"])
        .arg(tmp.path())
        .output()
        .expect("dojo runs");
    assert_eq!(out.status.code(), Some(3));
    let err = stderr_of(&out);
    assert!(err.contains("no compiler"), "{err}");
    assert!(err.contains("exit status: 3"), "{err}");
    assert_eq!(err.matches("bot broken").count(), 1, "{err}");
}

#[test]
fn a_bot_for_another_game_is_refused_before_anything_runs() {
    let out = dojo()
        .args(["match", "cardjitsu", "royale-random-py", "random-py"])
        .output()
        .expect("dojo runs");
    assert_eq!(out.status.code(), Some(3));
    let err = stderr_of(&out);
    assert!(
        err.contains("bot royale-random-py plays royale, not cardjitsu"),
        "{err}"
    );
    // Refused before a seed is picked or any process starts.
    assert!(!err.contains("seed:"), "{err}");
}

#[test]
fn a_zero_move_timeout_is_a_usage_error() {
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--timeout-ms",
            "0",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("--timeout-ms"));
}

/// A `--bots-dir` that does not exist, or is a file, is named as given:
/// not as a failed search of the default places, which the flag replaces.
#[test]
fn a_missing_bots_dir_given_is_named_not_the_default_places() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nonexist");
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap();
    for (dir, problem) in [(&missing, "does not exist"), (&file, "is not a directory")] {
        let out = dojo()
            .arg("--bots-dir")
            .arg(dir)
            .arg("bots")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(
            stderr_of(&out).trim_end(),
            format!("error: --bots-dir {}: {problem}", dir.display())
        );
    }
    let out = dojo()
        .arg("--bots-dir")
        .arg(&missing)
        .args(["match", "cardjitsu", "random-py", "random-sh"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    // One message: the bot not found, and why (not the files tried
    // under a directory that is not there, nor the default places).
    assert_eq!(
        err.trim_end(),
        format!(
            "error: no bot \"random-py\": --bots-dir {}: does not exist",
            missing.display()
        )
    );
}

/// A `--deckN` that is neither a file nor a named deck lists the named
/// decks it could have been.
#[test]
fn a_missing_deck_file_lists_the_named_decks() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--deck1",
            "nosuch",
        ])
        .arg("--bots-dir")
        .arg(dojo_testkit::paths::root().join("bots"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stderr_of(&out).trim_end(),
        format!(
            "error: no deck file {}; a deck is a .dcfg file or a named deck: championship, standard",
            tmp.path().join("nosuch").display()
        )
    );
}

/// Two seats named differently that are one bot (`./random-py`, a copy in
/// the current directory, is what a bare `random-py` finds first) are
/// played, with a note that both run the same program; the same spec
/// twice (self-play, asked for) gets no note.
#[test]
fn a_match_says_when_both_seats_are_one_bot() {
    let tmp = tempfile::tempdir().unwrap();
    dojo_testkit::bots::copy_bundled("random-py", &tmp.path().join("random-py"));
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "./random-py",
            "random-py",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("./random-py and random-py are one bot")
            && err.contains("both seats run the same program"),
        "{err}"
    );
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-py",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(!stderr_of(&out).contains("one bot"), "{}", stderr_of(&out));
}

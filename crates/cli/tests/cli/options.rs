//! The same options in every command: rules, decks and round limits in
//! leagues and comparisons (stored, and honoured by `--resume`), flags that
//! conflict with a stored league or do not apply refused by name, and one
//! set of exit statuses.

use dojo_testkit::cli::{dojo, random_league, stderr_of, stdout_ok};
use dojo_testkit::json::{games, read_json};
use dojo_testkit::paths::{data, root};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn league_options_are_stored_and_honoured_by_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    let deck = data("small.dcfg");
    stdout_ok(
        dojo()
            .args([
                "league",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--games",
                "4",
            ])
            .args([
                "--rules",
                "classic",
                "--max-rounds",
                "3",
                "--startup-ms",
                "3000",
            ])
            .args(["--deck1", &deck, "--out"])
            .arg(&out),
    );
    let league = read_json(&out.join("league.json"));
    // The game's options as its flags' values; the standard deck2 is the
    // default, left out.
    assert_eq!(
        league["play"],
        serde_json::json!({"rules": "classic", "max-rounds": "3", "deck1": deck})
    );
    assert_eq!(league["controls"]["startup_ms"], 3000);
    let check = |g: &Value| {
        let rec = &g["record"];
        assert_eq!(rec["rules"], "classic", "{rec}");
        assert_eq!(rec["max_rounds"], 3);
        assert_eq!(rec["decks"][0], deck.as_str());
        assert!(rec["rounds"].as_array().unwrap().len() <= 3);
    };
    games(&out).iter().for_each(check);

    // Lose the last two games, then resume with no flags: the stored
    // options play them again.
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(out.join("games.jsonl"), kept).unwrap();
    stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
    let again = games(&out);
    assert_eq!(again.len(), 4);
    again.iter().for_each(check);
}

#[test]
fn resume_refuses_conflicting_flags_by_name_and_applies_the_anchor() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    random_league(&out, 4, &[]);
    for (flag, value, says) in [
        ("--seed", "5", "--seed 5 (the league has 1)"),
        // More games grow a league; fewer are refused.
        (
            "--games",
            "2",
            "--games 2 (a league's games can grow, not shrink) (the league has 4)",
        ),
        (
            "--timeout-ms",
            "50",
            "--timeout-ms 50 (the league has 20000)",
        ),
        (
            "--startup-ms",
            "10",
            "--startup-ms 10 (the league has 20000)",
        ),
        (
            "--rules",
            "classic",
            "--rules classic (the league has the default)",
        ),
        (
            "--max-rounds",
            "7",
            "--max-rounds 7 (the league has the default)",
        ),
        (
            "--faults",
            "fallback",
            "--faults fallback (the league has forfeit:0.1)",
        ),
        ("--shard", "2/3", "--shard 2/3 (the league has the default)"),
    ] {
        dojo()
            .args(["league", "--resume"])
            .arg(&out)
            .args([flag, value])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(says));
    }
    // The same values are no conflict.
    stdout_ok(
        dojo()
            .args(["league", "--seed", "1", "--games", "4", "--resume"])
            .arg(&out),
    );
    let run = stdout_ok(
        dojo()
            .args(["league", "--anchor", "random-sh=1200", "--resume"])
            .arg(&out),
    );
    assert!(run.contains("random-sh"), "{run}");
    assert_eq!(read_json(&out.join("league.json"))["anchor"], "random-sh");
    let report = read_json(&out.join("report.json"));
    assert_eq!(report["anchor"], "random-sh");
    let sh = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "random-sh")
        .unwrap();
    assert_eq!(sh["rating"], 1200.0);
}

#[test]
fn flags_that_do_not_apply_are_refused_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    dojo()
        .args([
            "league",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--board",
            "boards/arena.txt",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("--board only applies to royale"));
    dojo()
        .args(["league", "royale", "--rules", "classic"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--rules only applies to cardjitsu",
        ));
    dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--stall-rounds",
            "4",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--stall-rounds only applies to royale",
        ));
    dojo()
        .args([
            "compare",
            "royale",
            "royale-random-py",
            "royale-random-py",
            "--deck1",
        ])
        .arg(data("small.dcfg"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--deck1 only applies to cardjitsu",
        ));
    let json = tmp.path().join("g.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--seed",
                "1",
                "--json",
            ])
            .arg(&json),
    );
    dojo()
        .arg("replay")
        .arg(&json)
        .arg("--watch")
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--watch only applies to royale records",
        ));
}

#[test]
fn compare_takes_the_match_options() {
    dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "2",
        ])
        .args(["--rules", "classic", "--max-rounds", "4", "--deck2"])
        .arg(data("bad-line3.dcfg"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains("bad-line3.dcfg:3"));
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "2",
        ])
        .args(["--rules", "classic", "--max-rounds", "4", "--json", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // `--json -` writes the JSON to stdout beside the summary.
    let json = stdout
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON in {stdout}"));
    let v: Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["verdict"], "inconclusive");
}

#[test]
fn exit_statuses_are_listed_in_the_help() {
    dojo()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit status (every command)"))
        .stdout(predicate::str::contains("3    usage error"));
    // A usage error is 3 in every command.
    dojo().args(["match", "cardjitsu"]).assert().code(3);
    dojo().args(["replay"]).assert().code(3);
}

#[test]
fn json_dash_writes_the_record_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "--quiet",
            "--seed",
            "2",
            "--json",
            "-",
        ])
        .arg(root().join("bots/random-py"))
        .arg(root().join("bots/random-sh"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(!tmp.path().join("-").exists());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["game"], "cardjitsu");
}

/// A league's stored game options are read by its game: a value that does
/// not parse, or a flag the game does not take (a hand-edited
/// `league.json`), stops `--resume` with what is wrong, never a silent
/// default.
#[test]
fn a_stored_game_option_the_game_cannot_read_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    random_league(&out, 2, &[]);
    let file = out.join("league.json");
    let league = read_json(&file);
    for (play, says) in [
        (
            serde_json::json!({"stall-rounds": "3"}),
            "have --stall-rounds, which cardjitsu does not take",
        ),
        (
            serde_json::json!({"max-rounds": "many"}),
            "the stored game option --max-rounds many",
        ),
    ] {
        let mut edited = league.clone();
        edited["play"] = play;
        std::fs::write(&file, edited.to_string()).unwrap();
        dojo()
            .args(["league", "--resume"])
            .arg(&out)
            .assert()
            .code(3)
            .stderr(predicate::str::contains(says));
    }
}

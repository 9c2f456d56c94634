//! A league refuses what `dojo match` refuses (a bot for another game),
//! gives every bot a smoke start, flags bots that fault a lot and keeps
//! their stderr in the out directory.

use dojo_testkit::cli::{dojo, stderr_of, stdout_of};
use dojo_testkit::json::read_json;
use predicates::prelude::*;

#[test]
fn a_bot_for_another_game_is_refused_everywhere_it_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    dojo()
        .args(["league", "cardjitsu", "general", "random-py", "--out"])
        .arg(tmp.path().join("l"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "bot general plays royale, not cardjitsu",
        ));
    assert!(!tmp.path().join("l").exists());
    dojo()
        .args(["compare", "cardjitsu", "royale-random-py", "random-py"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("plays royale, not cardjitsu"));
}

#[test]
fn a_bot_that_never_answers_stops_the_league_before_it_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    let run = dojo()
        .args([
            "league",
            "cardjitsu",
            "x=python3 nosuchfile.py",
            "random-py",
        ])
        .args(["--games", "4", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(3), "{err}");
    assert!(err.contains("bot x failed its smoke start"), "{err}");
    assert!(err.contains("can't open file"), "{err}");
    assert!(err.contains("--allow-broken"), "{err}");
    assert!(!out.join("games.jsonl").exists());

    let run = dojo()
        .args([
            "league",
            "cardjitsu",
            "x=python3 nosuchfile.py",
            "random-py",
        ])
        .args(["--games", "4", "--allow-broken", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let table = stdout_of(&run);
    assert!(table.contains("FAULTY"), "{table}");
    assert!(table.contains("warning: x faulted"), "{table}");
    let report = read_json(&out.join("report.json"));
    let x = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "x")
        .unwrap();
    assert_eq!(x["flagged"], true);
    let log = std::fs::read_to_string(out.join("stderr/x.log")).unwrap();
    assert!(log.contains("can't open file"), "{log}");
    assert!(!out.join("stderr/random-py.log").exists());
}

//! `dojo league --gauntlet NEW --sprt ...` with real bots: each pairing
//! stops once its own test decides, the stop rule is stored in
//! `league.json`, and `--resume` continues the tests from the stored games.

use std::path::Path;

use dojo_testkit::cli::{debug_bot, dojo, stderr_of, stdout_of};
use dojo_testkit::json::read_json;
use serde_json::Value;

/// A wide margin, as in the compare tests: the strong bot decides in a
/// handful of pairs against a random one.
const SPRT: &str = "elo0=-100,elo1=0";

fn sensei() -> String {
    format!(
        "sensei={}",
        debug_bot("dojo-bot-sensei", "sensei").display()
    )
}

/// Runs a league that must succeed; returns stdout.
fn league(args: &[&str], out: &Path) -> String {
    let o = dojo()
        .arg("league")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    stdout_of(&o)
}

/// The opponents' tests of a report, by name: (state, pairs).
fn tests(report: &Value) -> Vec<(String, String, u64)> {
    report["sprt"]["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["opponent"].as_str().unwrap().to_owned(),
                t["state"].as_str().unwrap().to_owned(),
                t["pairs"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Games in `games.jsonl` that `bot` played.
fn games_with(dir: &Path, bot: &str) -> u64 {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| {
            let g: Value = serde_json::from_str(l).unwrap();
            g["seats"].as_array().unwrap().iter().any(|s| s == bot)
        })
        .count() as u64
}

#[test]
fn each_pairing_stops_once_its_own_test_decides() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    // NEW is a random bot: the strong bot beats it quickly (H0), the other
    // random bot is its equal and takes longer or reaches the limit. On the
    // standard deck, the one sensei's model is made for: the test is of the
    // stopping rule, and sensei's edge is widest there.
    let stdout = league(
        &[
            "cardjitsu",
            &sensei(),
            "random-sh",
            "--gauntlet",
            "random-py",
            "--sprt",
            SPRT,
            "--games",
            "48",
            "--seed",
            "1",
            "--jobs",
            "2",
            "--deck1",
            "standard",
            "--deck2",
            "standard",
        ],
        &out,
    );
    assert!(stdout.contains("vs sensei"), "{stdout}");
    let report = read_json(&out.join("report.json"));
    let t = tests(&report);
    assert_eq!(t.len(), 2, "{t:?}");
    let (_, state, pairs) = t.iter().find(|t| t.0 == "sensei").unwrap();
    assert_eq!(state, "h0", "{t:?}");
    assert!(*pairs < 24, "stopped early: {pairs} pairs of 24");
    // No game of a decided pairing starts after its deciding pair: at most
    // the driver's window (2 per job) was started and not yet counted.
    let played = games_with(&out, "sensei");
    assert!(played <= 2 * pairs + 4, "{played} games, {pairs} pairs");
    let (_, state, pairs) = t.iter().find(|t| t.0 == "random-sh").unwrap();
    assert_ne!(state, "open", "{t:?}");
    assert!(*pairs <= 24);
    assert_eq!(report["sprt"]["new"], "random-py");
    assert_eq!(report["complete"], true);
    // The stop rule is part of the league.
    let stored = read_json(&out.join("league.json"));
    assert_eq!(stored["sprt"]["elo0"], -100.0);
    assert_eq!(stored["sprt"]["elo1"], 0.0);
}

#[test]
fn resume_continues_the_tests_from_the_stored_games() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let args = [
        "cardjitsu",
        "random-py",
        "random-sh",
        "--gauntlet",
        &sensei(),
        "--sprt",
        SPRT,
        "--games",
        "400",
        "--seed",
        "4",
        "--jobs",
        "2",
    ];
    league(&args, &whole);
    let reference = read_json(&whole.join("report.json"));
    let t = tests(&reference);
    assert!(t.iter().all(|(_, s, _)| s == "h1"), "{t:?}");
    assert!(
        reference["games_played"].as_u64().unwrap() < 200,
        "stops long before the 800 scheduled games"
    );

    // As if killed after six games: the stored games count into the
    // tests, the rest is played, and the tests end where they did.
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(whole.join("league.json"), cut.join("league.json")).unwrap();
    let games = std::fs::read_to_string(whole.join("games.jsonl")).unwrap();
    let first: String = games.lines().take(6).map(|l| format!("{l}\n")).collect();
    std::fs::write(cut.join("games.jsonl"), first).unwrap();
    let o = dojo()
        .args(["league", "--resume"])
        .arg(&cut)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let resumed = read_json(&cut.join("report.json"));
    assert_eq!(resumed["sprt"], reference["sprt"]);
    let this_run = resumed["timing"]["games_this_run"].as_u64().unwrap();
    assert!(this_run > 0 && this_run < resumed["games_played"].as_u64().unwrap());

    // A decided gauntlet resumes to itself without playing.
    let o = dojo()
        .args(["league", "--resume"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let again = read_json(&whole.join("report.json"));
    assert_eq!(again["timing"]["games_this_run"], 0);
    assert_eq!(again["sprt"], reference["sprt"]);

    // `dojo report` rebuilds the tests from the stored games.
    let o = dojo().arg("report").arg(&whole).output().unwrap();
    assert!(o.status.success(), "{}", stderr_of(&o));
    let text = stdout_of(&o);
    assert!(text.contains("one test of sensei per opponent"), "{text}");
    assert_eq!(text.matches("H1 (passes)").count(), 2, "{text}");
    assert!(!text.contains("incomplete"), "{text}");
}

#[test]
fn sprt_needs_a_two_seat_gauntlet() {
    let dir = tempfile::tempdir().unwrap();
    let o = dojo()
        .args(["league", "cardjitsu", "random-py", "random-sh"])
        .args(["--sprt", SPRT, "--out"])
        .arg(dir.path().join("a"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr_of(&o).contains("--gauntlet"), "{}", stderr_of(&o));
    let o = dojo()
        .args(["league", "royale", "royale-random-py", "--gauntlet"])
        .args(["twin=python3 bots/royale-random-py/bot.py", "--sprt", SPRT])
        .arg("--out")
        .arg(dir.path().join("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    let err = stderr_of(&o);
    assert!(err.contains("two-seat game"), "{err}");
    assert!(!dir.path().join("b").exists(), "refused before any game");
}

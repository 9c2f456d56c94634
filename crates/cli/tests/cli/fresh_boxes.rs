//! `--fresh-boxes`: a league's records are byte for byte the same with its
//! bots' boxes reused from game to game (the default) and with a new box
//! for every game. A box is an optimisation, never an input to a game
//! (`docs/sandbox.md`, "a game ↔ the next game in the same box").
//!
//! The bots are note tellers (`bots/hostile/note_teller.py`): each leaves
//! itself notes in what its box keeps and plays by what it finds, so a
//! note that reached a later game would change that game's cards. What
//! may differ between two runs of the same league, and is left out of the
//! comparison: `timing` (each `games.jsonl` line's and the report's,
//! measured, as in every comparison of runs: docs/records.md), each
//! standing's measured figures (the report's `moves` and
//! `peak_memory_mib`), and the report saying how the run was played:
//! `settings.controls.fresh_boxes` and the `--fresh-boxes` of its
//! `command`.

use std::path::Path;

use dojo_testkit::cli::{GENEROUS, dojo, random_league, stderr_of, stdout_ok};
use dojo_testkit::json::{read_json, report_sans_timing};

const TELLER: &str = "bots/hostile/note_teller.py";

/// Whether this machine gives bots boxes with a minimal root (whose
/// scratch directory is a new tmpfs for every game); says why not.
fn boxes_here() -> bool {
    if std::env::var("DOJO_BOX").is_ok_and(|v| v == "0") {
        eprintln!("skipped: DOJO_BOX=0, no boxes");
        return false;
    }
    let doctor = stdout_ok(dojo().arg("doctor"));
    let has = |layer: &str| {
        doctor.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(layer) && words.next() == Some("yes")
        })
    };
    if !(has("pid-namespace") && has("minimal-root")) {
        eprintln!("skipped: no boxes with a minimal root here:\n{doctor}");
        return false;
    }
    true
}

/// Plays a CardJitsu league of two note tellers (`words[i]` after the
/// script of teller i) into `out`: 6 games of at most 12 rounds, one
/// after the other on one worker (`--jobs 1`), so that with boxes
/// reused each bot's box serves all its games; `extra` flags after.
fn teller_league(out: &Path, words: [&str; 2], extra: &[&str]) {
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu"])
            .arg(format!("teller-a=python3 {TELLER} {}", words[0]))
            .arg(format!("teller-b=python3 {TELLER} {}", words[1]))
            .args(["--games", "6", "--seed", "11", "--max-rounds", "12"])
            .args(["--jobs", "1"])
            .args(GENEROUS)
            .args(extra)
            .arg("--out")
            .arg(out),
    );
}

/// Each line of `dir/games.jsonl` as written, cut before its `timing`
/// (the line's last member: measured, it differs between any two runs).
fn games_sans_timing(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).expect("games.jsonl");
    text.lines()
        .map(|line| {
            let at = line.find(",\"timing\":").expect("a timing member");
            assert_eq!(line.rfind(",\"timing\":"), Some(at), "{line}");
            let timing = &line[at + ",\"timing\":".len()..line.len() - 1];
            assert!(
                serde_json::from_str::<serde_json::Value>(timing).is_ok_and(|t| t.is_object()),
                "timing is not the line's last member: {line}"
            );
            format!("{}}}", &line[..at])
        })
        .collect()
}

/// A fresh-boxes league's report (see [`report_sans_timing`]) as the same
/// league with its boxes reused would write it: its two mentions of
/// `--fresh-boxes` (the stored control, the command's last flag) put
/// back to the default, each found exactly once.
fn as_if_reused(report: &str) -> String {
    let stored = "\"fresh_boxes\": true";
    assert_eq!(report.matches(stored).count(), 1, "{report}");
    let flag = ",\n    \"--fresh-boxes\"\n";
    assert_eq!(report.matches(flag).count(), 1, "{report}");
    report
        .replace(stored, "\"fresh_boxes\": false")
        .replace(flag, "\n")
}

#[test]
fn a_leagues_records_are_the_same_with_boxes_reused_and_a_fresh_box_per_game() {
    if !boxes_here() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (reused, fresh) = (tmp.path().join("reused"), tmp.path().join("fresh"));
    // With the pids and the System V ids the tellers get: both start
    // where a new box's do in every game.
    let words = ["pid ipc", "pid ipc"];
    teller_league(&reused, words, &[]);
    teller_league(&fresh, words, &["--fresh-boxes"]);
    assert_eq!(
        read_json(&fresh.join("league.json"))["controls"]["fresh_boxes"],
        true
    );
    let games = games_sans_timing(&reused);
    assert_eq!(games.len(), 6);
    assert_eq!(games, games_sans_timing(&fresh));
    assert_eq!(
        report_sans_timing(&reused),
        as_if_reused(&report_sans_timing(&fresh))
    );
}

/// The flag reaches every game of a league: with `--fresh-boxes` each
/// game's tellers make the first System V segments of a new IPC namespace
/// (a reused box's ids go on from its last game, until each game gets a
/// namespace of its own).
#[test]
fn with_fresh_boxes_every_game_of_a_league_has_new_boxes() {
    if !boxes_here() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("fresh");
    teller_league(&out, ["ipc", "ipc"], &["--fresh-boxes"]);
    for bot in ["teller-a", "teller-b"] {
        let log = std::fs::read_to_string(out.join("stderr").join(format!("{bot}.log")))
            .expect("the bot's stderr log");
        let notes: Vec<&str> = log.lines().filter(|l| l.starts_with("notes\t")).collect();
        assert_eq!(notes.len(), 6, "{log}");
        assert!(notes.iter().all(|l| *l == "notes\tshm 0 1"), "{log}");
    }
}

/// The comparison above can fail: the same two leagues without boxes,
/// each teller keeping its notes in a directory of its own that nothing
/// empties (the leak turned on), differ from their first game: the note
/// file counts the games (smoke starts included) that left it, and the
/// second league's tellers find the first's count.
#[test]
fn notes_that_outlive_a_game_change_the_leagues_records() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let notes = |name: &str| {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).expect("a notes directory");
        format!("keep-in:{}", dir.display())
    };
    let words = [notes("a"), notes("b")];
    let words = [words[0].as_str(), words[1].as_str()];
    let (first, second) = (tmp.path().join("first"), tmp.path().join("second"));
    teller_league(&first, words, &["--sandbox", "off"]);
    teller_league(&second, words, &["--sandbox", "off", "--fresh-boxes"]);
    let (first, second) = (games_sans_timing(&first), games_sans_timing(&second));
    assert_eq!(first.len(), second.len());
    assert_ne!(first[0], second[0], "the notes changed no card");
}

#[test]
fn fresh_boxes_given_on_resume_is_applied_and_stored_not_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("league");
    random_league(&out, 2, &["--sandbox", "off"]);
    let before = read_json(&out.join("league.json"));
    assert_eq!(before["controls"]["fresh_boxes"], false, "{before}");
    let resumed = dojo()
        .args(["league", "--resume"])
        .arg(&out)
        .arg("--fresh-boxes")
        .output()
        .expect("dojo runs");
    assert!(resumed.status.success(), "{}", stderr_of(&resumed));
    let after = read_json(&out.join("league.json"));
    assert_eq!(after["controls"]["fresh_boxes"], true, "{after}");
    let report = read_json(&out.join("report.json"));
    let command: Vec<&str> = report["command"]
        .as_array()
        .expect("a command")
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    assert!(command.contains(&"--fresh-boxes"), "{command:?}");
    // A control that does change records is still fixed.
    let refused = dojo()
        .args(["league", "--resume"])
        .arg(&out)
        .args(["--timeout-ms", "7"])
        .output()
        .expect("dojo runs");
    assert!(!refused.status.success());
    assert!(
        stderr_of(&refused).contains("--timeout-ms 7 (the league has"),
        "{}",
        stderr_of(&refused)
    );
}

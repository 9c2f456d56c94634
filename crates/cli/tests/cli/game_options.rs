//! Each game's option flags, declared once (the game's `options.rs` in the
//! binary, and `--max-rounds` for every game): `dojo match GAME` lists its
//! game's under a heading of their own, the commands that play any game
//! list every game's once, each with one help; a match reads them as a
//! league does; a flag of another game is refused by name, never ignored.

use dojo_testkit::cli::{GENEROUS, dojo, stderr_of, stdout_of, stdout_ok};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::data;
use predicates::prelude::*;

/// Each game's option flags, under the heading `--help` shows them.
const CARDJITSU: [&str; 3] = ["--rules", "--deck1", "--deck2"];
const ROYALE: [&str; 1] = ["--stall-rounds"];

/// `dojo COMMAND --help` on one line per paragraph, however clap wraps.
fn help(command: &[&str]) -> String {
    let out = dojo().args(command).arg("--help").output().unwrap();
    assert!(out.status.success(), "{command:?}: {}", stderr_of(&out));
    stdout_of(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How often `flag` is offered in `help` (`--rules <RULES>`).
fn offered(help: &str, flag: &str) -> usize {
    help.matches(&format!("{flag} <")).count()
}

#[test]
fn every_command_lists_each_game_option_once_under_its_games_heading() {
    let commands: [(&[&str], &[&str]); 4] = [
        (&["match", "cardjitsu"], &["CardJitsu"]),
        (&["match", "royale"], &["Royale"]),
        (&["league"], &["CardJitsu", "Royale"]),
        (&["compare"], &["CardJitsu", "Royale"]),
    ];
    for (command, games) in commands {
        let help = help(command);
        assert_eq!(offered(&help, "--max-rounds"), 1, "{command:?}: {help}");
        assert_eq!(help.matches("Game options:").count(), 1, "{command:?}");
        for (game, flags) in [("CardJitsu", &CARDJITSU[..]), ("Royale", &ROYALE[..])] {
            let heading = format!("{game} options:");
            let takes = games.contains(&game);
            assert_eq!(help.contains(&heading), takes, "{command:?} {heading}");
            for flag in flags {
                let n = offered(&help, flag);
                assert_eq!(n, usize::from(takes), "{command:?} {flag}: {help}");
            }
        }
    }
    // The per-game default where one game is played, every game's where
    // any is.
    let default = |command: &[&str]| {
        let help = help(command);
        let at = help.find("--max-rounds <N>").unwrap();
        help[at..].split(']').next().unwrap().to_owned()
    };
    assert!(default(&["match", "cardjitsu"]).ends_with("[default: 500"));
    assert!(default(&["match", "royale"]).ends_with("[default: 10 * (width + height)"));
    assert!(
        default(&["league"]).ends_with("[default: cardjitsu 500; royale 10 * (width + height)")
    );
    // One text for `--rules` wherever it is offered, `dojo play` too.
    let rules = "Which rules to play by: `tournament` (power cards and Reverse, the championship deck) or `classic`";
    for command in [
        &["match", "cardjitsu"][..],
        &["league"],
        &["play", "cardjitsu"],
    ] {
        assert!(help(command).contains(rules), "{command:?}");
    }
    // The flags of series of games, once each.
    for command in [&["league"][..], &["compare"]] {
        let help = help(command);
        for flag in ["--board", "--seed", "--faults"] {
            assert_eq!(offered(&help, flag), 1, "{command:?} {flag}");
        }
    }
}

/// `dojo match cardjitsu` reads its options as a league does: every flag
/// lands in the record, a deck given by name as that name.
#[test]
fn match_cardjitsu_plays_with_its_options() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let small = data("small.dcfg");
    stdout_ok(
        dojo()
            .args(["match", "cardjitsu", "random-py", "random-sh", "-q"])
            .args(["--seed", "4", "--rules", "classic", "--max-rounds", "6"])
            .args(["--deck1", &small, "--deck2", "championship"])
            .args(GENEROUS)
            .arg("--json")
            .arg(&json),
    );
    let record = read_json(&json);
    assert_eq!(record["rules"], "classic");
    assert_eq!(record["max_rounds"], 6);
    assert_eq!(record["decks"], serde_json::json!([small, "championship"]));
    assert!(record["rounds"].as_array().unwrap().len() <= 6);
}

/// A CardJitsu option with `dojo league royale`: refused before anything
/// is built or written, naming the flag and the game it applies to;
/// `dojo match royale` does not offer it at all.
#[test]
fn a_cardjitsu_option_in_a_royale_league_is_refused_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("league");
    dojo()
        .args(["league", "royale", "royale-random-py", "royale-random-py"])
        .args(["royale-random-py", "--deck1"])
        .arg(data("small.dcfg"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--deck1 only applies to cardjitsu, not royale",
        ));
    assert!(!out.exists(), "a refused league wrote {}", out.display());
    // A league of the bots folder: refused before any entry is checked
    // or built.
    dojo()
        .args([
            "league", "royale", "--rules", "classic", "--deck2", "standard",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "--rules, --deck2 only apply to cardjitsu, not royale",
        ))
        .stderr(predicate::str::contains("building").not());
    dojo()
        .args(["match", "royale", "--board", "boards/arena.txt"])
        .args([
            "--rock",
            "a",
            "--paper",
            "b",
            "--scissors",
            "c",
            "--deck1",
            "x",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("unexpected argument '--deck1'"));
}

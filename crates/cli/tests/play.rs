//! `dojo play cardjitsu` driven through stdin. The exact seed-000 example
//! is a unit test of `cmd::play` (it needs scripted cards); these check the
//! real command: its display format, bad input and end of input.

use dojo_testkit::cli::dojo;
use dojo_testkit::paths::root;

/// Whether `s` is a card in seed 000's style: `SG10`, `FB4`.
fn is_card(s: &str) -> bool {
    let mut chars = s.chars();
    let (Some(e), Some(c)) = (chars.next(), chars.next()) else {
        return false;
    };
    let value: String = chars.collect();
    "FWS".contains(e)
        && "YORBGP".contains(c)
        && value.parse::<u8>().is_ok_and(|v| (2..=12).contains(&v))
}

/// Whether `s` is a list of cards: `[FO5,WG6,WY9]` or `[]`.
fn is_list(s: &str, len: Option<usize>) -> bool {
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return false;
    };
    let cards: Vec<&str> = if inner.is_empty() {
        Vec::new()
    } else {
        inner.split(',').collect()
    };
    cards.iter().all(|c| is_card(c)) && len.is_none_or(|n| n == cards.len())
}

/// Checks a whole game of piped `1`s: rounds of 7 lines, then the winner.
fn check_game(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let (last, rounds) = lines.split_last().unwrap();
    assert!(
        last.starts_with("Player 1 wins the game with [")
            || last.starts_with("Player 2 wins the game with ["),
        "{text}"
    );
    assert!(!rounds.is_empty() && rounds.len() % 7 == 0, "{text}");
    for round in rounds.chunks(7) {
        assert!(is_list(round[0], None), "{round:?}");
        assert!(is_list(round[1], None), "{round:?}");
        assert!(is_list(round[2], Some(5)), "{round:?}");
        assert_eq!(round[3], "1", "the echoed input");
        // The card played is the first of the hand.
        let first = round[2][1..].split([',', ']']).next().unwrap();
        assert_eq!(round[4], first, "{round:?}");
        assert!(is_card(round[5]), "{round:?}");
        assert!(["0", "1", "2"].contains(&round[6]), "{round:?}");
    }
    assert_eq!(rounds[0], "[]");
    assert_eq!(rounds[1], "[]");
}

#[test]
fn plays_a_whole_game_in_the_seed_format() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_game(&String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn garbage_is_asked_again_and_end_of_input_is_not_a_normal_end() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1"])
        .write_stdin("x\n9\n")
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["[]", "[]"]);
    assert!(is_list(lines[2], Some(5)), "{text}");
    assert_eq!(lines[3], "x");
    assert!(
        lines[4].starts_with("expected a number from 1 to 5"),
        "{text}"
    );
    assert_eq!(lines[5], "9");
    assert!(
        lines[6].starts_with("expected a number from 1 to 5"),
        "{text}"
    );
    assert_eq!(lines[7..], ["end of input: game abandoned"]);
}

#[test]
fn labelled_by_default_at_a_terminal_or_on_request() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--labelled"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.starts_with(
            "round 1\n  your pile:  (none)\n  the computer's pile:  (none)\n  your hand:  1:"
        ),
        "{text}"
    );
    assert!(text.contains("play which card (1-5)? 1\n"), "{text}");
    assert!(text.contains("  you play "), "{text}");
    assert!(
        text.contains(" wins the round") || text.contains("nobody wins"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(
        (last.starts_with("You win the game with ")
            || last.starts_with("the computer wins the game with "))
            && last.contains("different colours"),
        "{last}"
    );
    // --plain (or a pipe, as above) keeps the classic format.
    let plain = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--plain"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_game(&String::from_utf8_lossy(&plain.get_output().stdout));
}

#[test]
fn plays_against_a_bot() {
    let out = dojo()
        .args([
            "play",
            "cardjitsu",
            "--seed",
            "3",
            "--opponent",
            "random-py",
        ])
        .args(["--timeout-ms", "5000", "--startup-ms", "5000"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_game(&String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn an_unknown_opponent_is_an_error() {
    dojo()
        .args([
            "play",
            "cardjitsu",
            "--seed",
            "3",
            "--opponent",
            "no-such-bot",
        ])
        .write_stdin("1\n")
        .assert()
        .failure();
}

#[test]
fn play_help_names_the_rules_not_a_source_document_that_reads_like_a_seed() {
    let out = dojo().args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(help.contains("no power cards, no Reverse"), "{help}");
    // "(seed 000)" named the rules' source but read like a game seed.
    assert!(!help.contains("seed 000"), "{help}");
}

/// At a real terminal (a pty from `script`, when it is installed) the game
/// is labelled without asking.
#[test]
fn a_terminal_gets_the_labelled_game_by_default() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed, no pty to test with");
        return;
    }
    let dojo = assert_cmd::cargo::cargo_bin("dojo");
    let mut child = Command::new("script")
        .args([
            "-qec",
            &format!("{} play cardjitsu --seed 1", dojo.display()),
            "/dev/null",
        ])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("1\n".repeat(400).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    // The pty echoes the typed lines too, wherever they fall.
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(
        text.contains("round 1\n  your pile:  (none)\n  the computer's pile:  (none)\n"),
        "{text}"
    );
    assert!(text.contains("play which card (1-5)? "), "{text}");
}

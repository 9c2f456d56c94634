//! `dojo play cardjitsu` driven through stdin. The exact seed-000 example
//! is a unit test of `dojo_games::classic` (it needs scripted cards); these
//! check the real command: its display format under both rulesets, the
//! header, bad input and end of input.

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

/// Checks a whole game of piped `1`s: stdout (`text`) holds rounds of 7
/// lines and nothing else, as the seed's format has it (its example ends
/// with the winning round's `1`); the line naming the winner and the
/// triple is on stderr (`err`), its last line.
fn check_game(text: &str, err: &str) {
    let rounds: Vec<&str> = text.lines().collect();
    assert!(
        !rounds.is_empty() && rounds.len().is_multiple_of(7),
        "{text}"
    );
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
    let winner = rounds[rounds.len() - 1];
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("Player {winner} wins the game with [")),
        "stderr:\n{err}"
    );
}

/// `check_game` of an assert's output.
fn check_output(out: &assert_cmd::assert::Assert) {
    let output = out.get_output();
    check_game(
        &String::from_utf8_lossy(&output.stdout),
        &String::from_utf8_lossy(&output.stderr),
    );
}

#[test]
fn plays_a_whole_game_in_the_seed_format() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--rules", "classic"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_output(&out);
}

#[test]
fn garbage_is_asked_again_and_end_of_input_is_not_a_normal_end() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--rules", "classic"])
        .write_stdin("x\n9\n")
        .assert()
        .code(1);
    // Stdout is the seed's format and nothing else: the round's three
    // lists, no answer having been taken.
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["[]", "[]"]);
    assert!(is_list(lines[2], Some(5)), "{text}");
    assert_eq!(lines.len(), 3, "{text}");
    // What the format has no place for is on stderr, after the header.
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("CardJitsu, classic rules"), "{err}");
    assert_eq!(
        lines[1..],
        [
            "expected a number from 1 to 5, not \"x\": the card of your hand to play",
            "expected a number from 1 to 5, not \"9\": the card of your hand to play",
            "end of input: game abandoned",
        ]
    );
}

#[test]
fn labelled_by_default_at_a_terminal_or_on_request() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--labelled"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    // After the header (see `the_header_names_the_rules_the_seed_and_the_opponent`).
    let (_, text) = text.split_once("\n\n").unwrap();
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
        .args([
            "play",
            "cardjitsu",
            "--seed",
            "1",
            "--plain",
            "--rules",
            "classic",
        ])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_output(&plain);
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
            "--rules",
            "classic",
        ])
        .args(["--timeout-ms", "5000", "--startup-ms", "5000"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    check_output(&out);
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
    assert!(help.contains("Tournament rules by default"), "{help}");
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

/// The rounds of a plain tournament game of piped `1`s, each as its seven
/// lines with the Reverse mark taken off the hand line, and whether the
/// round was a Reverse round; checks the shape as `check_game` does.
fn tournament_rounds(text: &str) -> Vec<(Vec<String>, bool)> {
    let rounds: Vec<&str> = text.lines().collect();
    assert!(
        !rounds.is_empty() && rounds.len().is_multiple_of(7),
        "{text}"
    );
    rounds
        .chunks(7)
        .map(|round| {
            let (hand, reverse) = match round[2].strip_prefix("* ") {
                Some(hand) => (hand, true),
                None => (round[2], false),
            };
            let mut round: Vec<String> = round.iter().map(|l| l.to_string()).collect();
            round[2] = hand.to_owned();
            assert!(is_list(&round[2], Some(5)), "{round:?}");
            // Only the championship deck's numbers: 2 to 8 and the 10s.
            assert!(
                round[2][1..round[2].len() - 1]
                    .split(',')
                    .all(|c| !["9", "11", "12"].contains(&&c[2..])),
                "{round:?}"
            );
            (round, reverse)
        })
        .collect()
}

/// (element letter, number) of a card in seed 000's spelling.
fn element_and_number(card: &str) -> (char, u8) {
    (card.chars().next().unwrap(), card[2..].parse().unwrap())
}

#[test]
fn tournament_rules_are_the_default_with_reverse_rounds_won_by_the_lower_number() {
    let play = |rules: &[&str]| {
        dojo()
            .args(["play", "cardjitsu", "--seed", "3", "--plain"])
            .args(rules)
            .write_stdin("1\n".repeat(400))
            .assert()
            .code(0)
            .get_output()
            .clone()
    };
    let default = play(&[]);
    let named = play(&["--rules", "tournament"]);
    assert_eq!(
        default.stdout, named.stdout,
        "--rules tournament is the default"
    );
    let text = String::from_utf8_lossy(&default.stdout).into_owned();
    let rounds = tournament_rounds(&text);
    let mut decided_by_lower = 0;
    for (i, (round, reverse)) in rounds.iter().enumerate() {
        let (me, mine) = element_and_number(&round[4]);
        let (they, theirs) = element_and_number(&round[5]);
        // A round follows a round won with a 10 exactly when it is marked.
        let after_power = i > 0 && {
            let (previous, _) = &rounds[i - 1];
            match previous[6].as_str() {
                "1" => previous[4].ends_with("10"),
                "2" => previous[5].ends_with("10"),
                _ => false,
            }
        };
        assert_eq!(*reverse, after_power, "round {}: {round:?}\n{text}", i + 1);
        if *reverse && me == they && mine != theirs {
            let lower = if mine < theirs { "1" } else { "2" };
            assert_eq!(round[6], lower, "{round:?}");
            decided_by_lower += 1;
        }
    }
    assert!(
        decided_by_lower > 0,
        "seed 3 has a Reverse round of one element\n{text}"
    );
    // The plain display's header goes to stderr: stdout is only the game.
    let err = String::from_utf8_lossy(&default.stderr);
    assert!(err.contains("CardJitsu, tournament rules: "), "{err}");
    assert!(err.contains("; seed 3; you against the computer"), "{err}");
}

#[test]
fn the_classic_plain_game_keeps_stdout_exact_and_puts_the_header_on_stderr() {
    let out = dojo()
        .args([
            "play",
            "cardjitsu",
            "--rules",
            "classic",
            "--plain",
            "--seed",
            "1",
        ])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    let output = out.get_output();
    let text = String::from_utf8_lossy(&output.stdout);
    check_output(&out);
    assert!(!text.contains('*') && !text.contains("rules"), "{text}");
    let err = String::from_utf8_lossy(&output.stderr);
    let (header, winner) = err.split_once('\n').unwrap();
    assert_eq!(
        header,
        "CardJitsu, classic rules: cards drawn from all 198 (2 to 12), no power cards, \
         no Reverse; seed 1; you against the computer"
    );
    assert!(
        winner.starts_with("Player ") && winner.ends_with("]\n"),
        "{err}"
    );
    assert_eq!(winner.lines().count(), 1, "{err}");
}

#[test]
fn the_header_names_the_rules_the_seed_and_the_opponent() {
    let out = dojo()
        .args(["play", "cardjitsu", "--labelled", "--seed", "3"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let (header, game) = text.split_once("\n\n").unwrap();
    assert!(
        header.starts_with("CardJitsu, tournament rules: "),
        "{header}"
    );
    assert!(header.contains("championship deck"), "{header}");
    assert!(
        header.ends_with("; seed 3; you against the computer"),
        "{header}"
    );
    assert!(game.starts_with("round 1\n"), "{game}");
    assert!(
        game.contains("with a power card: the next round is a Reverse round\n"),
        "{game}"
    );
    assert!(
        game.contains(": Reverse! Within an element the lower number wins this round\n"),
        "{game}"
    );
    assert!(
        game.contains(", and Reverse: 4 beats 6; you win the round"),
        "{game}"
    );

    // A picked seed is named with how to play the game again.
    let picked = dojo()
        .args(["play", "cardjitsu", "--labelled", "--rules", "classic"])
        .write_stdin("")
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&picked.get_output().stdout).into_owned();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("CardJitsu, classic rules: "), "{first}");
    assert!(first.contains("(replay with --seed "), "{first}");
}

#[test]
fn an_unknown_ruleset_is_a_usage_error() {
    let out = dojo()
        .args(["play", "cardjitsu", "--rules", "royal", "--seed", "1"])
        .write_stdin("1\n")
        .assert()
        .code(3);
    let err = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        err.contains("--rules") && err.contains("tournament"),
        "{err}"
    );
}

#[test]
fn plays_a_bot_under_tournament_rules() {
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
    let output = out.get_output();
    let rounds = tournament_rounds(&String::from_utf8_lossy(&output.stdout));
    assert!(!rounds.is_empty());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("tournament rules") && err.contains("you against random-py"),
        "{err}"
    );
}

/// A bot opponent that crashes in its third round (after a line on
/// stderr), started again by the runner for the next.
const CRASHER: &str = r#"crasher=sh -c 'read p; n=0; while read l; do case "$l" in *,*) n=$((n+1)); if [ $n -ge 3 ]; then echo "boom in hand $n" >&2; exit 1; fi; echo 0;; Player*|Draw!) exit 0;; esac; done'"#;

/// A bot opponent that is too slow in its second round, and one that
/// answers garbage in every round.
const HANG: &str = r#"hang=sh -c 'read p; n=0; while read l; do case "$l" in *,*) n=$((n+1)); if [ $n -eq 2 ]; then sleep 2; fi; echo 0;; Player*|Draw!) exit 0;; esac; done'"#;
/// A bot opponent too slow for its first answer, start-up allowance
/// included.
const SLOW_START: &str = r#"slow=sh -c 'read p; n=0; while read l; do case "$l" in *,*) n=$((n+1)); if [ $n -eq 1 ]; then sleep 3; fi; echo 0;; Player*|Draw!) exit 0;; esac; done'"#;
const GARBAGE: &str = r#"garbage=sh -c 'read p; while read l; do case "$l" in *,*) echo x;; Player*|Draw!) exit 0;; esac; done'"#;

/// `dojo play cardjitsu --opponent BOT`, `display` one of `--labelled` or
/// `--plain`, the person playing card 1 every round: (stdout, stderr).
fn play_against(bot: &str, display: &str, timeout_ms: &str) -> (String, String) {
    play_against_timed(bot, display, timeout_ms, "5000")
}

/// [`play_against`] with the start-up allowance `startup_ms`.
fn play_against_timed(
    bot: &str,
    display: &str,
    timeout_ms: &str,
    startup_ms: &str,
) -> (String, String) {
    let out = dojo()
        .args([
            "play",
            "cardjitsu",
            "--seed",
            "5",
            display,
            "--opponent",
            bot,
        ])
        .args(["--timeout-ms", timeout_ms, "--startup-ms", startup_ms])
        .write_stdin("1\n".repeat(400))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The labelled round `n`'s text (from `round n` to the next round).
fn labelled_round(text: &str, n: u32) -> &str {
    let start = text
        .find(&format!("\nround {n}"))
        .unwrap_or_else(|| panic!("no round {n}:\n{text}"));
    let rest = &text[start + 1..];
    let end = rest[1..].find("\nround ").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

/// A bot opponent that crashes, times out or answers garbage is said to,
/// in the round it does, with the card dojo played for it; its stderr is
/// shown after the game.
#[test]
fn a_bot_opponents_faults_are_told_in_their_round() {
    let played_for = "dojo played a random card of its hand for it";
    let (text, err) = play_against(CRASHER, "--labelled", "5000");
    assert!(
        !labelled_round(&text, 2).contains("crasher crashed"),
        "{text}"
    );
    let third = labelled_round(&text, 3);
    assert!(
        third.contains("  crasher crashed (its process ended without answering): ")
            && third.contains(played_for),
        "{third}"
    );
    // Where its stderr is: after the game, on stderr.
    assert!(
        third.contains("its stderr is shown after the game"),
        "{third}"
    );
    assert!(err.contains("crasher's stderr, its last lines:"), "{err}");
    assert!(err.contains("  boom in hand 3"), "{err}");

    let (text, _) = play_against(HANG, "--labelled", "300");
    assert!(!labelled_round(&text, 1).contains("timed out"), "{text}");
    let second = labelled_round(&text, 2);
    assert!(
        second.contains("  hang timed out (no answer within 300 ms): ")
            && second.contains(played_for),
        "{second}"
    );

    // A first answer had the start-up allowance too, and the line says so.
    let (text, _) = play_against_timed(SLOW_START, "--labelled", "300", "500");
    let first = labelled_round(&text, 1);
    assert!(
        first.contains(
            "  slow timed out (no answer within 300 ms plus the 500 ms start-up allowance of a first answer): "
        ),
        "{first}"
    );

    let (text, _) = play_against(GARBAGE, "--labelled", "5000");
    let first = labelled_round(&text, 1);
    assert!(
        first.contains("  garbage answered `x`, not a card of its hand (")
            && first.contains(played_for),
        "{first}"
    );

    // The plain display says it on stderr, its stdout the seed's format.
    let (text, err) = play_against(CRASHER, "--plain", "5000");
    assert!(!text.contains("crash"), "{text}");
    assert!(
        err.contains("round 3: crasher crashed (its process ended without answering): ")
            && err.contains(played_for),
        "{err}"
    );
}

/// The time, limit and containment flags apply to a bot: without
/// `--opponent` there is none, and they are a usage error naming each
/// flag given (nothing is played).
#[test]
fn bot_flags_without_an_opponent_are_a_usage_error() {
    let out = dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--plain"])
        .args(["--timeout-ms", "5", "--limit-memory-mib", "1"])
        .args(["--sandbox", "strict", "--pin"])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(3);
    let output = out.get_output();
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let err = String::from_utf8_lossy(&output.stderr);
    for flag in ["--timeout-ms", "--limit-memory-mib", "--sandbox", "--pin"] {
        assert!(err.contains(flag), "{flag}: {err}");
    }
    assert!(err.contains("no bot to apply them to"), "{err}");
    assert!(err.contains("--opponent BOT"), "{err}");
    // With a bot they are taken.
    dojo()
        .args(["play", "cardjitsu", "--seed", "1", "--plain"])
        .args([
            "--opponent",
            "random-py",
            "--timeout-ms",
            "5000",
            "--startup-ms",
            "5000",
        ])
        .write_stdin("1\n".repeat(400))
        .assert()
        .code(0);
}

//! `dojo rules skat` and `dojo rules tichu`: answers, `--why`, `--batch`,
//! exit statuses and the messages for malformed input.

use dojo_testkit::cli::{dojo, stderr_of, stdout_of};

/// Runs `dojo rules ARGS` with `stdin`; returns (status, stdout, stderr).
fn rules(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = dojo()
        .arg("rules")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("dojo runs");
    let code = out.status.code().expect("exited, not killed");
    (code, stdout_of(&out), stderr_of(&out))
}

fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

#[test]
fn skat_prints_the_seeds_answers() {
    let cases = [
        ("JC JS JD AC KC 9C AS 7H QD 8D", "36 Clubs\n"),
        ("JD AS 0S KS QS 9S 8S AD 8C 9C", "44 Spades\n"),
        ("JH JD 0S KS 9C 8C QH KH AD 9D", "pass\n"),
        ("JD AS KS QS 0S 9S 8D 7D 0C QH", "pass\n"),
    ];
    for (hand, expected) in cases {
        let mut args = vec!["skat"];
        args.extend(words(hand));
        assert_eq!(
            rules(&args, ""),
            (0, expected.to_owned(), String::new()),
            "{hand}"
        );
    }
}

#[test]
fn skat_why_gives_the_factors_or_the_reason_to_pass() {
    let (code, out, _) = rules(&words("skat --why JD AS 0S KS QS 9S 8S AD 8C 9C"), "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "44 Spades: without 3 jacks (factor 4) x Spades 11 = 44; 7 trumps and an ace outside them\n"
    );
    let (_, out, _) = rules(&words("skat --why JH JD 0S KS 9C 8C QH KH AD 9D"), "");
    assert_eq!(
        out,
        "pass: too few trumps: at most 4 (Clubs and the jacks), 6 needed\n"
    );
    let (_, out, _) = rules(&words("skat JD AS KS QS 0S 9S 8D 7D 0C QH --why"), "");
    assert_eq!(
        out,
        "pass: no ace outside the trump suit (Spades, 6 trumps)\n"
    );
}

#[test]
fn skat_malformed_hands_exit_2_naming_the_card() {
    let cases = [
        (
            "JC JS JD AC KC 9C AS 7H QD",
            "error: expected 10 cards, found 9\n",
        ),
        (
            "JC JS JD AC KC 9C AS 7H QD 8D 7D",
            "error: expected 10 cards, found 11\n",
        ),
        (
            "JC JS JD AC KC 9C AS 7H QD JS",
            "error: `JS` appears twice (a hand holds 10 different cards)\n",
        ),
        (
            "JC JS JD AC KC 9C AS 7H QD 6D",
            "error: `6D` is not a Skat card: unknown value `6` (expected A K Q J 0 9 8 7; 0 is the ten)\n",
        ),
        (
            "JC JS JD AC KC 9C AS 7H QD 8X",
            "error: `8X` is not a Skat card: unknown suit `X` (expected C S H D)\n",
        ),
        (
            "JC JS JD AC KC 9C AS 7H QD 10D",
            "error: `10D` is not a Skat card: expected 2 characters, a value (A K Q J 0 9 8 7; 0 is the ten) then a suit (C S H D)\n",
        ),
        (
            "CJ JS JD AC KC 9C AS 7H QD 8D",
            "error: `CJ` is not a Skat card: the value comes first, then the suit (`JC`)\n",
        ),
    ];
    for (hand, message) in cases {
        let mut args = vec!["skat"];
        args.extend(words(hand));
        assert_eq!(
            rules(&args, ""),
            (3, String::new(), message.to_owned()),
            "{hand}"
        );
    }
}

#[test]
fn skat_batch_answers_each_line_and_stops_at_a_malformed_one() {
    let input = "# the seed's first two cases\n\
                 JC JS JD AC KC 9C AS 7H QD 8D\n\
                 \n\
                 JD AS 0S KS QS 9S 8S AD 8C 9C\n";
    assert_eq!(
        rules(&["skat", "--batch"], input),
        (0, "36 Clubs\n44 Spades\n".to_owned(), String::new())
    );
    let input = "JC JS JD AC KC 9C AS 7H QD 8D\nJC JS\nJD AS 0S KS QS 9S 8S AD 8C 9C\n";
    assert_eq!(
        rules(&["skat", "--batch"], input),
        (
            3,
            "36 Clubs\n".to_owned(),
            "error: stdin line 2: expected 10 cards, found 2\n".to_owned()
        )
    );
}

/// Seed 003's legal cases, then its illegal ones, as `PREV PLAY` lines.
const SEED_LEGAL: &str = "6 J\nJJ QQ\n555 KKK\n44499 77722\n23456 56789\n223344 QQKKAA\n\
    49494 72727\nA R\nA P\nP R\n66 7P\nP6 77\n58304967 6P0594J7\n5P304967 680594J7\n\
    57446765 788657P5\n- D\n- 1\n- 12345\n3344556677889900 JJJJ\n5555 7777\n";
const SEED_ILLEGAL: &str = "9 3\n66 55\n888 444\n44 888\n77722 44499\n44499 777\n\
    44499 777JJJ\n45678 34567\n34567 456789\n556677 334455\n5566 778899\n72727 49494\nA A\n\
    R A\nR P\n77 RP\n77 6P\nP7 66\n680594J7 5P304967\n6P0594J7 58304967\n57446765 3645P536\n\
    1 D\n2 D\n2 1\n- 1234\n7777 5555\n- 223355\n5555 777P\n";

#[test]
fn tichu_batch_judges_every_seed_case() {
    let (code, out, err) = rules(
        &["tichu", "--batch"],
        &format!("{SEED_LEGAL}{SEED_ILLEGAL}"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let legal = SEED_LEGAL.lines().count();
    let illegal = SEED_ILLEGAL.lines().count();
    assert_eq!((legal, illegal), (20, 28));
    let expected = "legal\n".repeat(legal) + &"illegal\n".repeat(illegal);
    assert_eq!(out, expected);
}

#[test]
fn tichu_exit_status_is_the_verdict() {
    assert_eq!(
        rules(&["tichu", "6", "J"], ""),
        (0, "legal\n".into(), String::new())
    );
    assert_eq!(
        rules(&["tichu", "9", "3"], ""),
        (1, "illegal\n".into(), String::new())
    );
    assert_eq!(
        rules(&["tichu", "-", "12345"], ""),
        (0, "legal\n".into(), String::new())
    );
    assert_eq!(
        rules(&["tichu", "-", "1234"], ""),
        (1, "illegal\n".into(), String::new())
    );
}

#[test]
fn tichu_why_names_the_rule() {
    let cases = [
        (
            ["tichu", "58304967", "6P0594J7"],
            0,
            "legal: a straight of 8 cards from 4 to J beats a straight of 8 cards from 3 to 10",
        ),
        (
            ["tichu", "3344556677889900", "JJJJ"],
            0,
            "legal: a bomb of four Js beats a tractor of 8 pairs from 3 to 10",
        ),
        (["tichu", "-", "D"], 0, "legal: the dog on lead"),
        (
            ["tichu", "66", "55"],
            1,
            "illegal: not higher: a pair of 5s does not beat a pair of 6s",
        ),
        (
            ["tichu", "44", "888"],
            1,
            "illegal: type mismatch: a triple cannot be played on a pair",
        ),
        (
            ["tichu", "34567", "456789"],
            1,
            "illegal: length mismatch: 6 cards cannot be played on 5 cards",
        ),
        (
            ["tichu", "-", "223355"],
            1,
            "illegal: not a combination: the cards are no single, pair, triple, full house, straight (5 or more), tractor (2 or more pairs) or bomb",
        ),
        (
            ["tichu", "R", "P"],
            1,
            "illegal: special-card rule: the phoenix beats any single but the dragon",
        ),
        (
            ["tichu", "77", "RP"],
            1,
            "illegal: special-card rule: the dragon is only played alone, as a single",
        ),
        (
            ["tichu", "1", "D"],
            1,
            "illegal: special-card rule: the dog is only played on lead",
        ),
        (
            ["tichu", "5555", "777P"],
            1,
            "illegal: special-card rule: the phoenix is no wildcard in a bomb",
        ),
    ];
    for (args, code, line) in cases {
        let mut args = args.to_vec();
        args.push("--why");
        assert_eq!(
            rules(&args, ""),
            (code, format!("{line}\n"), String::new()),
            "{args:?}"
        );
    }
}

#[test]
fn tichu_malformed_plays_exit_2_naming_the_card() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["tichu", "77", "7X"],
            "error: PLAY: `X` in `7X` is not a Tichu card (expected 2-9, 0 for the ten, J Q K A, 1 Mah Jong, R dragon, P phoenix, D dog; `-` alone for no play)\n",
        ),
        (
            &["tichu", "1O", "5"],
            "error: PREV: `O` in `1O` is not a Tichu card (expected 2-9, 0 for the ten, J Q K A, 1 Mah Jong, R dragon, P phoenix, D dog; `-` alone for no play)\n",
        ),
        (
            &["tichu", "-", "77777"],
            "error: PLAY: `7` appears 5 times in `77777`, but the deck has 4\n",
        ),
        (
            &["tichu", "-", "RR"],
            "error: PLAY: `R` appears 2 times in `RR`, but the deck has 1\n",
        ),
        (
            &["tichu", "1234", "5"],
            "error: the previous play `1234` is not a combination, so nothing can have been played after it\n",
        ),
        (
            &["tichu", "D", "5"],
            "error: the previous play cannot be the dog: it passes the lead, so write `-` (the lead) instead\n",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(
            rules(args, ""),
            (3, String::new(), message.to_owned()),
            "{args:?}"
        );
    }
}

#[test]
fn tichu_batch_stops_at_a_malformed_line_naming_it() {
    let (code, out, err) = rules(&["tichu", "--batch"], "6 J\n9 3\n77 7X\n- D\n");
    assert_eq!(code, 3);
    assert_eq!(out, "legal\nillegal\n");
    assert!(
        err.starts_with("error: stdin line 3: PLAY: `X` in `7X`"),
        "{err}"
    );
    let (code, out, err) = rules(&["tichu", "--batch", "--why"], "6 J\n6 J 7\n");
    assert_eq!(code, 3);
    assert_eq!(out, "legal: a single J beats a single 6\n");
    assert_eq!(
        err,
        "error: stdin line 2: expected two plays, `PREV PLAY` (`-` for no previous play), found 3\n"
    );
}

#[test]
fn batch_and_cases_on_the_command_line_do_not_mix() {
    let (code, out, err) = rules(&["tichu", "--batch", "6", "J"], "");
    assert_eq!((code, out.as_str()), (3, ""));
    assert!(err.contains("'--batch' cannot be used with"), "{err}");
    let (code, _, err) = rules(&["skat"], "");
    assert_eq!(code, 3);
    assert!(err.contains("<CARD>"), "{err}");
}

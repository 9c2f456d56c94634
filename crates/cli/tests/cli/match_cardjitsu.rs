//! `dojo match cardjitsu`: transcripts, JSON records, seeds, rules, decks,
//! bad input and misbehaving bots, through the real binary.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::Path;

use dojo_testkit::cli::{dojo, stderr_of, stdout_ok};
use dojo_testkit::json::{json_without_timing, read_json};
use dojo_testkit::paths::data;
use predicates::prelude::*;
use serde_json::Value;

/// Runs a match that must succeed, writing its record to `json`, and
/// returns its stdout.
fn play<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S], json: &Path) -> String {
    stdout_ok(
        dojo()
            .args(["match", "cardjitsu"])
            .args(args)
            .arg("--json")
            .arg(json),
    )
}

/// Runs a match in which a bot faults, so it exits with the fault
/// status (4), writing its record to `json`; returns its stdout.
fn play_faulty<S: AsRef<OsStr> + std::fmt::Debug>(args: &[S], json: &Path) -> String {
    let out = dojo()
        .args(["match", "cardjitsu"])
        .args(args)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr_of(&out));
    dojo_testkit::cli::stdout_of(&out)
}

/// The cards of one seat's hands over every round of a record.
fn hands_of(record: &Value, seat: usize) -> Vec<String> {
    record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["hands"][seat].as_array().unwrap().clone())
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

fn reverse_flags(record: &Value) -> Vec<bool> {
    record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reverse"].as_bool().unwrap())
        .collect()
}

#[test]
fn seeded_match_prints_header_rounds_and_result() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let stdout = play(&["random-py", "random-sh", "--seed", "7"], &json);
    let record = read_json(&json);
    let rounds = record["rounds"].as_array().unwrap().len();
    assert!(rounds >= 3, "a game needs at least 3 won rounds: {stdout}");

    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "CardJitsu (tournament rules, seed 7): player 1 = random-py, player 2 = random-sh"
    );
    let round_lines: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("round "))
        .collect();
    assert_eq!(round_lines.len(), rounds, "one `round N` line per round");
    assert_eq!(round_lines[0], "round 1");
    assert!(stdout.contains("  P1 hand ") && stdout.contains("  P2 hand "));
    let result = lines
        .iter()
        .find(|l| l.starts_with("result: "))
        .expect("a result line");
    assert!(
        result.contains(&format!(" in {rounds} rounds")),
        "result line disagrees with the record: {result}"
    );
    let winner = record["outcome"]["winner"].as_u64().expect("decided game");
    let name = ["random-py", "random-sh"][winner as usize - 1];
    assert!(
        result.starts_with(&format!("result: player {winner} ({name}) wins")),
        "{result}"
    );

    // -q keeps the header and result but drops the transcript.
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--seed",
            "7",
        ])
        .arg("-q")
        .assert()
        .success()
        .stdout(predicate::str::contains(*result))
        .stdout(predicate::str::contains("round 1").not());
}

#[test]
fn same_seed_gives_the_same_record_apart_from_timing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    play(&["random-py", "random-sh", "--seed", "11", "-q"], &a);
    play(&["random-py", "random-sh", "--seed", "11", "-q"], &b);
    let record = read_json(&a);
    assert_eq!(record["seed"], "11", "seeds are written as strings");
    assert_eq!(record["game"], "cardjitsu");
    assert_eq!(record["seats"][0]["bot"], "random-py");
    assert_eq!(record["seats"][1]["bot"], "random-sh");
    assert_eq!(json_without_timing(&a), json_without_timing(&b));
}

/// `NAME=DIR` (the guide's `dojo compare cardjitsu new=./bot-new
/// base=./bot-old`) plays the bot in DIR under the name NAME; DIR was run
/// as a program and failed with "Permission denied".
#[test]
fn a_bot_directory_given_as_name_equals_dir_plays_under_that_name() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    play(
        &[
            "mine=./bots/random-py",
            "base=bots/random-sh",
            "--seed",
            "3",
            "-q",
        ],
        &json,
    );
    let record = read_json(&json);
    assert_eq!(record["seats"][0]["bot"], "mine");
    assert_eq!(record["seats"][1]["bot"], "base");
    let dir_of = |seat: usize| record["seats"][seat]["dir"].as_str().unwrap().to_owned();
    assert!(dir_of(0).ends_with("bots/random-py"), "{record}");
    assert!(dir_of(1).ends_with("bots/random-sh"), "{record}");
    // A directory with nothing to run is refused by name, exit 3.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = dojo()
        .args(["match", "cardjitsu", "random-py"])
        .arg(format!("mine={}", empty.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains(&empty.display().to_string()), "{err}");
    assert!(!err.contains("Permission denied"), "{err}");
}

#[test]
fn unseeded_match_prints_a_seed_that_replays_it() {
    let dir = tempfile::tempdir().unwrap();
    let (first, replay) = (
        dir.path().join("first.json"),
        dir.path().join("replay.json"),
    );
    let out = dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "-q",
            "--json",
        ])
        .arg(&first)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let stderr = stderr_of(&out);
    let seed: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no `seed: N` line on stderr: {stderr}"));
    assert_eq!(read_json(&first)["seed"], seed.to_string());

    let seed = seed.to_string();
    play(&["random-py", "random-sh", "--seed", &seed, "-q"], &replay);
    assert_eq!(json_without_timing(&first), json_without_timing(&replay));
}

#[test]
fn swapping_seats_deals_each_seat_the_same_first_hand() {
    let dir = tempfile::tempdir().unwrap();
    let (ab, ba) = (dir.path().join("ab.json"), dir.path().join("ba.json"));
    play(&["random-py", "random-sh", "--seed", "21", "-q"], &ab);
    play(&["random-sh", "random-py", "--seed", "21", "-q"], &ba);
    let (ab, ba) = (read_json(&ab), read_json(&ba));
    assert_eq!(ab["seats"][0]["bot"], "random-py");
    assert_eq!(ba["seats"][0]["bot"], "random-sh");
    for seat in 0..2 {
        let hand = &ab["rounds"][0]["hands"][seat];
        assert_eq!(hand.as_array().unwrap().len(), 5);
        assert_eq!(hand, &ba["rounds"][0]["hands"][seat], "seat {seat}");
    }
    assert_ne!(ab["rounds"][0]["hands"][0], ab["rounds"][0]["hands"][1]);
}

#[test]
fn classic_rules_never_reverse() {
    // With only power cards, every decisive round of a tournament game turns
    // Reverse on, so the classic game below is a real test of the rules flag.
    let power = data("power.dcfg");
    let dir = tempfile::tempdir().unwrap();
    let (tournament, classic) = (dir.path().join("t.json"), dir.path().join("c.json"));
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "random-py",
            "random-sh",
            "--seed",
            "5",
            "--max-rounds",
            "40",
        ]
        .map(String::from)
        .to_vec();
        v.extend(["--deck1", &power, "--deck2", &power].map(String::from));
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    play(&args(&["-q"]), &tournament);
    let tournament = read_json(&tournament);
    assert_eq!(tournament["rules"], "tournament");
    assert!(reverse_flags(&tournament).contains(&true));

    let stdout = play(&args(&["--rules", "classic"]), &classic);
    let classic = read_json(&classic);
    assert_eq!(classic["rules"], "classic");
    let flags = reverse_flags(&classic);
    assert!(!flags.is_empty());
    assert!(
        flags.iter().all(|r| !r),
        "classic game with Reverse: {flags:?}"
    );
    assert!(stdout.starts_with("CardJitsu (classic rules, seed 5)"));
    assert!(!stdout.contains("Reverse"), "{stdout}");
}

#[test]
fn deck1_restricts_seat_1_to_its_cards() {
    let small = data("small.dcfg");
    let allowed: BTreeSet<&str> = ["Fr4", "Wb8", "So3", "Fo5", "Sg8", "WyA", "Sp2"].into();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    play(
        &[
            "random-py",
            "random-sh",
            "--seed",
            "3",
            "-q",
            "--deck1",
            &small,
            "--max-rounds",
            "40",
        ],
        &json,
    );
    let record = read_json(&json);
    assert_eq!(record["decks"][0], small.as_str());
    assert_eq!(record["decks"][1], "championship");
    assert_eq!(
        record["draws"],
        serde_json::json!(["with-replacement", "without-replacement"])
    );
    let seat1 = hands_of(&record, 0);
    assert!(!seat1.is_empty());
    for card in &seat1 {
        assert!(allowed.contains(card.as_str()), "{card} is not in {small}");
    }
    // Seat 2 draws from the full deck, so it must see cards outside it.
    assert!(
        hands_of(&record, 1)
            .iter()
            .any(|c| !allowed.contains(c.as_str()))
    );
}

/// The championship's tournament deck, as its `deck.dcfg` lists it.
const CHAMPIONSHIP: &str = "SgA FyA WoA Fb3 Fp6 Fy2 So3 Sr2 Sy7 Wb5 Wg2 Wp4 Fg8 Sr6 Wg3 Wb8 So3 \
                            Fr4 Fo5 Sg8 Wo5 Fb3 Fo5 Fr6 Sp4 Sg5 Sg6 Wy4 Wb6 Wr7";

#[test]
fn tournament_games_deal_the_championship_deck_and_classic_ones_the_standard() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("t.json");
    let base = ["random-py", "random-sh", "--seed", "8", "-q"];
    play(&base, &json);
    let record = read_json(&json);
    assert_eq!(
        record["decks"],
        serde_json::json!(["championship", "championship"])
    );
    assert_eq!(
        record["draws"],
        serde_json::json!(["without-replacement", "without-replacement"])
    );
    let deck: Vec<&str> = CHAMPIONSHIP.split_whitespace().collect();
    for seat in 0..2 {
        // The first hand and each card drawn after it (the last of each
        // later hand): dealt without replacement, none more often than
        // the deck lists it until 30 are dealt.
        let rounds = record["rounds"].as_array().unwrap();
        let mut dealt: Vec<String> = rounds[0]["hands"][seat]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect();
        for r in &rounds[1..] {
            let hand = r["hands"][seat].as_array().unwrap();
            dealt.push(hand.last().unwrap().as_str().unwrap().to_owned());
        }
        dealt.truncate(30);
        for card in &dealt {
            let listed = deck.iter().filter(|d| *d == card).count();
            let seen = dealt.iter().filter(|d| *d == card).count();
            assert!(seen <= listed, "seat {seat}: {card} dealt {seen} times");
        }
    }

    // Classic rules default to the standard deck; a deck can be named.
    let classic = dir.path().join("c.json");
    play(&[&base[..], &["--rules", "classic"]].concat(), &classic);
    let classic = read_json(&classic);
    assert_eq!(
        classic["decks"],
        serde_json::json!(["standard", "standard"])
    );
    assert_eq!(
        classic["draws"],
        serde_json::json!(["with-replacement", "with-replacement"])
    );
    let named = dir.path().join("n.json");
    play(&[&base[..], &["--deck2", "standard"]].concat(), &named);
    assert_eq!(
        read_json(&named)["decks"],
        serde_json::json!(["championship", "standard"])
    );
}

#[test]
fn every_bad_deck_line_is_reported_a_non_utf8_one_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.dcfg");
    std::fs::write(&bad, b"Wb8\nFx5\nSo3\nF\xffr4\nFo5\nSg8\n").unwrap();
    let bad = bad.display().to_string();
    let stderr = stderr_of(
        dojo()
            .args(["match", "cardjitsu", "random-py", "random-sh", "--deck1"])
            .arg(&bad)
            .assert()
            .code(3)
            .get_output(),
    );
    assert!(stderr.contains(&format!("{bad}:2: `Fx5`")), "{stderr}");
    assert!(
        stderr.contains(&format!("{bad}:4: ")) && stderr.contains("0xff at column 2"),
        "{stderr}"
    );
}

#[test]
fn a_bad_deck_line_is_reported_with_file_and_line() {
    let bad = data("bad-line3.dcfg");
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--deck2",
            &bad,
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!("{bad}:3:")))
        .stderr(predicate::str::contains("Fr 4x"));
}

#[test]
fn a_deck_with_fewer_than_5_distinct_cards_is_refused() {
    let few = data("four-distinct.dcfg");
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--deck1",
            &few,
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(&few))
        .stderr(predicate::str::contains("4 distinct card"))
        .stderr(predicate::str::contains("at least 5"));
}

#[test]
fn an_unknown_bot_is_refused_with_the_available_bots() {
    dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "no-such-bot",
            "--seed",
            "1",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no-such-bot"))
        .stderr(predicate::str::contains("available bots"))
        .stderr(predicate::str::contains("random-py"))
        .stderr(predicate::str::contains("random-sh"));
}

#[test]
fn a_bot_answering_garbage_loses_turns_but_the_game_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let stdout = play_faulty(
        &[
            "garb=python3 bots/faulty/garbage.py",
            "random-py",
            "--seed",
            "4",
            "--max-rounds",
            "40",
        ],
        &json,
    );
    let record = read_json(&json);
    assert!(record["outcome"].is_object(), "{record}");
    let rounds = record["rounds"].as_array().unwrap();
    let garb = &record["conduct"][0];
    assert_eq!(garb["invalid"].as_u64().unwrap(), rounds.len() as u64);
    assert_eq!(record["conduct"][1]["invalid"], 0);
    assert!(rounds.iter().all(|r| r["faults"][0] == "invalid"));
    // Numbered like the header's "player 1 = garb", not from 0.
    assert!(stdout.contains("player 1 = garb"), "{stdout}");
    assert!(stdout.contains("faults: player 1 (garb)"), "{stdout}");
    assert!(stdout.contains("result: "));
}

/// What a bot answered that was not a move is shown (it used to be
/// said only that the answer was invalid): in the match's fault lines,
/// in its record, and in a league's first fault and its smoke start.
#[test]
fn a_bots_invalid_answer_is_shown_as_it_wrote_it() {
    const GARBAGE: &str = "garb=python3 bots/faulty/garbage.py";
    const WHY: &str =
        "`I choose the fire card, obviously` is not a card index; expected one ASCII digit 0 to 4";
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    // Generous limits: a timeout on a busy machine would be a second kind
    // of fault, and change the lines asserted.
    let args = [
        &[GARBAGE, "random-py", "--seed", "4"][..],
        &dojo_testkit::cli::GENEROUS[..],
    ]
    .concat();
    let stdout = play_faulty(&args, &json);
    assert!(
        stdout.contains(&format!("  its first invalid answer: {WHY}")),
        "{stdout}"
    );
    assert!(
        stdout.contains("logs and debug output go to stderr"),
        "{stdout}"
    );
    // One kind of fault: not named twice.
    assert!(
        stdout.contains("faulted: 9 invalid answers (the first in round 1)")
            || stdout.contains("invalid answers (the first in round 1)"),
        "{stdout}"
    );
    assert_eq!(read_json(&json)["conduct"][0]["first_invalid"], WHY);

    // A league (its smoke start refuses the bot first, saying why).
    let out = dir.path().join("league");
    let refused = dojo()
        .args(["league", "cardjitsu", GARBAGE, "random-py", "--games", "2"])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&refused);
    assert!(!refused.status.success(), "{err}");
    assert!(
        err.contains(&format!("something that is not a move: {WHY}")),
        "{err}"
    );
    let played = dojo()
        .args(["league", "cardjitsu", GARBAGE, "random-py", "--games", "2"])
        .args(dojo_testkit::cli::GENEROUS)
        .args(["--allow-broken", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = dojo_testkit::cli::stdout_of(&played);
    assert!(text.contains(&format!("  its answer: {WHY}")), "{text}");
    let report = read_json(&out.join("report.json"));
    let garb = (report["standings"].as_array().unwrap().iter())
        .find(|s| s["name"] == "garb")
        .unwrap();
    assert_eq!(garb["first_fault"]["invalid"], WHY, "{garb}");
}

#[test]
fn a_hanging_bot_times_out_and_is_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    play_faulty(
        &[
            "random-py",
            "hang=python3 bots/faulty/hang.py",
            "--seed",
            "4",
            "-q",
            "--timeout-ms",
            "300",
            "--max-rounds",
            "12",
        ],
        &json,
    );
    let record = read_json(&json);
    assert!(record["outcome"].is_object(), "{record}");
    // hang.py answers two hands and then sleeps; a game lasts at least
    // three rounds, so the third hand always times out.
    let hang = &record["conduct"][1];
    assert!(hang["timeout"].as_u64().unwrap() >= 1, "{hang}");
    assert!(hang["restart"].as_u64().unwrap() >= 1, "{hang}");
    assert_eq!(record["rounds"][2]["faults"][1], "timeout");
    assert_eq!(record["conduct"][0]["timeout"], 0);
}

/// A bot that cannot start (a Python bot importing a module the machine
/// lacks) is explained after the game: why, and the end of its stderr,
/// where the ModuleNotFoundError is; the status says a bot faulted. The
/// record keeps no stderr unless `--keep-stderr` asks.
#[test]
fn a_crashing_bot_shows_its_stderr_and_the_match_exits_with_the_fault_status() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.py");
    std::fs::write(
        &bot,
        "import sys\nprint('starting up', file=sys.stderr)\nimport no_such_module_dojo\n",
    )
    .unwrap();
    let json = dir.path().join("game.json");
    let out = dojo()
        .args(["match", "cardjitsu", "random-py"])
        .arg(format!("np=python3 {}", bot.display()))
        .args(["--seed", "3", "-q", "--json"])
        .arg(&json)
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(4), "{stdout}{}", stderr_of(&out));
    assert!(
        stdout.contains("player 2 (np) could not start: it crashed on every one of its"),
        "{stdout}"
    );
    assert!(stdout.contains("in round 1)"), "{stdout}");
    assert!(
        stdout.contains("| ModuleNotFoundError: No module named 'no_such_module_dojo'"),
        "{stdout}"
    );
    assert!(stdout.contains("| starting up"), "{stdout}");
    // Only the faulty seat is explained (the result line may name either).
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with("player 1 (random-py) ")),
        "{stdout}"
    );
    let record = read_json(&json);
    assert!(record.get("stderr").is_none(), "{record}");
}

/// A bot that answers for a while and then crashes is "faulted", with its
/// first crash's round; a sound match exits 0 and explains nothing.
#[test]
fn a_bot_crashing_midgame_is_named_with_its_first_crash_and_a_sound_match_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let out = dojo()
        .args(["match", "cardjitsu", "random-py"])
        .args([
            "mid=python3 bots/faulty/crash_midgame.py",
            "--seed",
            "5",
            "-q",
        ])
        .arg("--json")
        .arg(&json)
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    let record = read_json(&json);
    let crash = record["conduct"][1]["crash"].as_u64().unwrap();
    assert!(crash >= 1, "{record}");
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    let first = record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["faults"][1] == "crash")
        .unwrap()["round"]
        .clone();
    assert!(
        stdout.contains(&format!("player 2 (mid) faulted: {crash} crash")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("(the first in round {first})")),
        "{stdout}"
    );
    assert!(
        stdout.contains("a league (under `--faults forfeit`, its default) scores a game a side faulted in as lost by that side"),
        "a faulty match says its result is the board's, not a league's: {stdout}"
    );

    let sound = dojo()
        .args([
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--seed",
            "5",
            "-q",
        ])
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    assert_eq!(sound.status.code(), Some(0), "{}", stderr_of(&sound));
    assert!(!dojo_testkit::cli::stdout_of(&sound).contains("stderr"));
    assert!(!dojo_testkit::cli::stdout_of(&sound).contains("note: the result above"));
}

/// Every move of every seat has its time in the record: the wall time
/// from prompt to answer and the CPU time the bot used meanwhile, one per
/// round; and each seat's memory peak, where measured.
/// A bot that exits after every answer is started again with its player
/// number and the result of every round so far (then its hand): what a
/// live process was told. This one answers with how many results it was
/// told (at most 4), so the record's choices show it; before, a new
/// process was told none.
#[test]
fn a_bot_started_again_is_told_the_rounds_so_far() {
    let counter = r#"counter=sh -c 'n=0; while read l; do case "$l" in *vs.*) n=$((n+1));; *,*) [ $n -gt 4 ] && n=4; echo $n; exit 0;; esac; done'"#;
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("game.json");
    play(&[counter, "random-sh", "--seed", "3", "-q"], &json);
    let record = read_json(&json);
    let rounds = record["rounds"].as_array().unwrap();
    assert!(rounds.len() >= 3, "{record}");
    for (i, round) in rounds.iter().enumerate() {
        assert_eq!(round["faults"][0], Value::Null, "round {}: {round}", i + 1);
        assert_eq!(round["choices"][0], i.min(4), "round {}: {round}", i + 1);
    }
    assert_eq!(record["conduct"][0]["spawns"], rounds.len(), "{record}");
}

#[test]
fn the_record_holds_each_moves_times() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    play(
        &["random-py", "random-sh", "--seed", "6", "-q"]
            .into_iter()
            .chain(dojo_testkit::cli::GENEROUS)
            .collect::<Vec<_>>(),
        &json,
    );
    let record = read_json(&json);
    let rounds = record["rounds"].as_array().unwrap().len();
    let timing = &record["timing"];
    for seat in 0..2 {
        let wall = timing["latency_us"][seat].as_array().unwrap();
        let cpu = timing["cpu_us"][seat].as_array().unwrap();
        assert_eq!((wall.len(), cpu.len()), (rounds, rounds), "{timing}");
        assert!(wall.iter().all(|t| t.as_u64().is_some()), "{timing}");
        let peak = &timing["memory_peak_bytes"][seat];
        assert!(
            peak.is_null() || peak.as_u64().is_some_and(|b| b > 0),
            "{timing}"
        );
    }
}

//! `dojo match royale`: summary output, JSON records, decided boards, bad
//! boards and teams of several bots, through the real binary.

use std::path::Path;

use dojo_testkit::cli::{dojo, generous_unless_timed, stdout_ok};
use dojo_testkit::json::{json_without_timing, read_json};
use dojo_testkit::paths::{data, root};
use predicates::prelude::*;
use serde_json::Value;

const BOT: &str = "royale-random-py";
/// A second, differently named bot with the same program.
const INLINE: &str = "r2=python3 bots/royale-random-py/bot.py";

/// Runs a royale match on `board` (one bot per team unless `rock` says
/// otherwise) that must succeed, writing the record to `json`; returns stdout.
/// Generous times unless `extra` sets its own: the per-turn Python bot
/// starts a process within every move's time.
fn play(board: &str, rock: &str, extra: &[&str], json: &Path) -> String {
    stdout_ok(
        dojo()
            .args(["match", "royale", "--board", board, "--rock", rock])
            .args(["--paper", BOT, "--scissors", BOT])
            .args(generous_unless_timed(extra))
            .args(extra)
            .arg("--json")
            .arg(json),
    )
}

fn count(record: &Value, key: &str) -> u64 {
    record["outcome"]["counts"][key].as_u64().unwrap()
}

#[test]
fn seeded_match_prints_result_rounds_tiles_and_faults() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let stdout = play(
        "boards/arena.txt",
        BOT,
        &["--seed", "3", "--max-rounds", "3"],
        &json,
    );
    let record = read_json(&json);
    assert_eq!(record["game"], "royale");
    assert_eq!(record["seed"], "3");
    assert_eq!(record["board_file"], "boards/arena.txt");

    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "Royale on boards/arena.txt (seed 3), 12x8");
    let line = |prefix: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{stdout}"))
            .to_string()
    };
    // Nobody can conquer the arena in 3 rounds: the cap ends the game.
    assert_eq!(record["outcome"]["rounds"], 3);
    assert!(record["outcome"]["winner"].is_null());
    assert!(line("result: ").starts_with("result: draw"));
    assert_eq!(line("rounds played: "), "rounds played: 3");
    assert_eq!(
        line("final tiles: "),
        format!(
            "final tiles: R {}  P {}  S {}  . {}",
            count(&record, "rock"),
            count(&record, "paper"),
            count(&record, "scissors"),
            count(&record, "empty")
        )
    );
    for (seat, team) in ["Rock", "Paper", "Scissors"].iter().enumerate() {
        // Seats are shown 1-based, as `DOJO_SEAT` gives them.
        let player = line(&format!("  seat {} {team} ", seat + 1));
        assert!(player.contains(BOT), "{player}");
        assert!(player.contains("faults: "), "{player}");
        assert!(player.contains(" timeout"), "{player}");
    }
    // The replay's turns name the seat the same way: the record's seat 0
    // is seat 1.
    let first = record["actions"][0]["seat"].as_u64().unwrap();
    let team = ["Rock", "Paper", "Scissors"][first as usize];
    let turn = stdout_ok(dojo().arg("replay").arg(&json).args(["--turn", "1"]));
    assert!(
        turn.contains(&format!("turn 1 (round 1): seat {} {team} ", first + 1)),
        "{turn}"
    );
    // Every seat played every round.
    assert_eq!(record["actions"].as_array().unwrap().len(), 9);
}

#[test]
fn same_seed_gives_the_same_record_apart_from_timing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    let extra = ["--seed", "9", "--max-rounds", "3"];
    play("boards/arena.txt", BOT, &extra, &a);
    play("boards/arena.txt", BOT, &extra, &b);
    assert_eq!(read_json(&a)["actions"].as_array().unwrap().len(), 9);
    assert_eq!(json_without_timing(&a), json_without_timing(&b));
}

#[test]
fn a_board_with_one_sign_is_won_by_it_before_any_turn() {
    let text = std::fs::read_to_string(root().join("boards/won.txt")).unwrap();
    let present: Vec<char> = ['R', 'P', 'S']
        .into_iter()
        .filter(|&c| text.contains(c))
        .collect();
    assert_eq!(present.len(), 1, "boards/won.txt should hold one sign");
    let sign = present[0];
    let team = match sign {
        'R' => "Rock",
        'P' => "Paper",
        _ => "Scissors",
    };

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let stdout = play("boards/won.txt", BOT, &["--seed", "1"], &json);
    let record = read_json(&json);
    assert_eq!(record["outcome"]["winner"], sign.to_string());
    assert_eq!(record["outcome"]["rounds"], 0);
    assert!(record["actions"].as_array().unwrap().is_empty());
    for seat in record["conduct"].as_array().unwrap() {
        assert_eq!(seat["spawns"], 0, "no bot needs to start: {seat}");
    }
    assert!(stdout.contains(&format!("result: {team} wins")), "{stdout}");
    assert!(stdout.contains("rounds played: 0"), "{stdout}");
}

#[test]
fn a_ragged_board_is_refused_with_file_line_and_column() {
    let board = data("ragged.txt");
    dojo()
        .args(["match", "royale", "--board", &board])
        .args(["--rock", BOT, "--paper", BOT, "--scissors", BOT])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!("{board}:3:3:")))
        .stderr(predicate::str::contains("found 2"));
}

#[test]
fn a_team_can_have_several_bots() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let rock = format!("{BOT},{INLINE}");
    let stdout = play(
        "boards/arena.txt",
        &rock,
        &["--seed", "2", "--max-rounds", "2"],
        &json,
    );
    let record = read_json(&json);
    let seats: Vec<(&str, &str)> = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["bot"].as_str().unwrap(), s["team"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seats,
        [(BOT, "R"), ("r2", "R"), (BOT, "P"), (BOT, "S")],
        "{record}"
    );
    // Both Rock players take a turn every round.
    for seat in 0..4u64 {
        let turns = record["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["seat"] == seat)
            .count();
        assert_eq!(turns, 2, "seat {seat}");
    }
    assert!(stdout.contains("  seat 2 Rock     r2 "), "{stdout}");
    assert!(stdout.contains("  seat 4 Scissors "), "{stdout}");
}

#[test]
fn an_empty_name_in_a_team_list_names_the_flag() {
    for rock in ["", "r=true,", "r=true,,r2=true"] {
        dojo()
            .args(["match", "royale", "--board", "boards/arena.txt"])
            .args(["--rock", rock, "--paper", BOT, "--scissors", BOT])
            .assert()
            .code(3)
            .stderr(predicate::str::contains("--rock"))
            .stderr(predicate::str::contains("an empty bot name"))
            .stderr(predicate::str::contains("no bot").not());
    }
}

/// A shell bot that writes to stderr and exits 1 without answering: the
/// summary names its seat as unable to start with the end of its stderr,
/// and the match exits with the fault status (4).
#[test]
fn a_crashing_bot_shows_its_stderr_and_the_match_exits_with_the_fault_status() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot.sh");
    std::fs::write(
        &bot,
        "read line\necho \"cannot parse: $line\" >&2\necho 'giving up' >&2\nexit 1\n",
    )
    .unwrap();
    let out = dojo()
        .args([
            "match",
            "royale",
            "--board",
            "boards/arena.txt",
            "--rock",
            BOT,
        ])
        .arg("--paper")
        .arg(format!("quitter=sh {}", bot.display()))
        .args(["--scissors", BOT, "--seed", "3", "--max-rounds", "3"])
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(
        stdout.contains(
            "seat 2 Paper (quitter) could not start: it crashed on every one of its 3 prompts"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("    | giving up"), "{stdout}");
    assert!(stdout.contains("    | cannot parse: "), "{stdout}");
}

/// Every turn of every seat has its times in the record: one wall and one
/// CPU time per action the seat took, in the order of `actions`.
#[test]
fn the_record_holds_each_turns_times() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    play(
        "boards/arena.txt",
        BOT,
        &[
            "--seed",
            "4",
            "--max-rounds",
            "4",
            "--timeout-ms",
            "20000",
            "--startup-ms",
            "20000",
        ],
        &json,
    );
    let record = read_json(&json);
    let timing = &record["timing"];
    for seat in 0..3 {
        let turns = record["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["seat"] == seat)
            .count();
        assert!(turns > 0);
        assert_eq!(
            timing["latency_us"][seat].as_array().unwrap().len(),
            turns,
            "{timing}"
        );
        assert_eq!(
            timing["cpu_us"][seat].as_array().unwrap().len(),
            turns,
            "{timing}"
        );
    }
    assert_eq!(
        timing["memory_peak_bytes"].as_array().unwrap().len(),
        3,
        "{timing}"
    );
}

/// The bundled random bot picks among the actions that change something,
/// so a game of three of them goes on to a result instead of stalling:
/// before, it chose from the board alone, and on an unchanged board it
/// repeated the same pass or illegal move (this game stalled in round 8).
#[test]
fn three_bundled_random_bots_play_a_game_out_without_stalling() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("game.json");
    let board = data("mixed.txt");
    // Generous time: a per-turn Python bot starts a process every move.
    play(
        &board,
        BOT,
        &[
            "--seed",
            "1",
            "--max-rounds",
            "20",
            "--timeout-ms",
            "10000",
            "--startup-ms",
            "10000",
        ],
        &json,
    );
    let record = read_json(&json);
    let outcome = &record["outcome"];
    assert_ne!(outcome["reason"], "stalled", "{outcome}");
    for action in record["actions"].as_array().unwrap() {
        assert!(action.get("fault").is_none(), "{action}");
    }
}

#[test]
fn quiet_prints_only_the_result_as_cardjitsus_does() {
    let dir = tempfile::tempdir().unwrap();
    let flags = ["--seed", "3", "--max-rounds", "3"];
    let full = play("boards/arena.txt", BOT, &flags, &dir.path().join("a.json"));
    for quiet in ["-q", "--quiet"] {
        let short = play(
            "boards/arena.txt",
            BOT,
            &[&flags[..], &[quiet]].concat(),
            &dir.path().join("b.json"),
        );
        // The header and the result; then only the times lines, which
        // -q keeps as match cardjitsu does.
        let lines: Vec<&str> = short
            .lines()
            .filter(|l| !l.starts_with("times: "))
            .collect();
        assert_eq!(lines.len(), 2, "{quiet}: {short}");
        assert!(lines[0].starts_with("Royale on boards/arena.txt (seed 3)"));
        assert!(lines[1].starts_with("result: "), "{short}");
        assert!(full.contains(lines[1]), "the same result: {full}");
    }
}

/// A copy of the bundled royale bot named `name` in `parent`, its
/// bot.toml ending with `team = "TEAM"` (on line `.1`).
fn bot_of_team(parent: &Path, name: &str, team: &str) -> (std::path::PathBuf, usize) {
    let bot = dojo_testkit::bots::copy_bundled(BOT, &parent.join(name));
    let manifest = bot.join("bot.toml");
    let toml = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("name = \"royale-random-py\"", &format!("name = \"{name}\""));
    std::fs::write(&manifest, format!("{toml}team = \"{team}\"\n")).unwrap();
    (bot, toml.lines().count() + 1)
}

/// A `team` royale lacks was checked by `dojo league` only: `dojo bots`
/// listed the bot as ok and `dojo match` played it. It is a manifest
/// error wherever the manifest is read, with its line and column.
#[test]
fn a_team_no_game_has_is_a_manifest_error_in_the_listing_and_in_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, line) = bot_of_team(dir.path(), "r1", "X");
    let what = "`team` \"X\" is not a team; expected \"R\", \"P\" or \"S\"";
    let listing = stdout_ok(dojo().arg("--bots-dir").arg(dir.path()).arg("bots"));
    let row = listing.lines().find(|l| l.starts_with("r1 ")).unwrap();
    assert!(row.contains("bad manifest"), "{listing}");
    assert!(
        listing.contains(&format!("| bot.toml:{line}:1: {what}")),
        "{listing}"
    );
    let out = dojo()
        .args(["match", "royale", "--board", "boards/arena.txt", "--rock"])
        .arg(&bot)
        .args(["--paper", BOT, "--scissors", BOT])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let want = format!("{}:{line}:1: {what}", bot.join("bot.toml").display());
    assert!(err.contains(&want), "{err}");
}

/// A bot whose bot.toml fixes its team plays only that team in a league;
/// given to another team's flag in a match, it is refused, with the flag
/// to give it to.
#[test]
fn a_bot_given_to_another_team_than_its_own_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, line) = bot_of_team(dir.path(), "paper", "P");
    let out = dojo()
        .args(["match", "royale", "--board", "boards/arena.txt", "--rock"])
        .arg(&bot)
        .args(["--paper", BOT, "--scissors", BOT])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("bot paper is given to --rock")
            && err.contains(&format!("bot.toml:{line}:1"))
            && err.contains("give it to --paper"),
        "{err}"
    );
    // On its own team it plays.
    let json = dir.path().join("game.json");
    stdout_ok(
        dojo()
            .args(["match", "royale", "--board", "boards/arena.txt", "--paper"])
            .arg(&bot)
            .args(["--rock", BOT, "--scissors", BOT, "--max-rounds", "2", "-q"])
            .arg("--json")
            .arg(&json),
    );
    assert_eq!(read_json(&json)["seats"][1]["bot"], "paper");
}

/// A bot that answers without ever reading its input: dojo keeps no more
/// of its prompts than a bot that reads them would leave (on the large
/// board, rounds times 7.7 KB grew in dojo's memory without bound); past
/// that its stdin is closed, its stderr log says why, and the game goes
/// on with its answers.
#[test]
fn a_bot_that_never_reads_its_input_is_closed_off_and_the_game_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("game.json");
    let blind = "blind=sh -c 'while :; do echo P; sleep 0.002; done'";
    let general = format!(
        "general={}",
        dojo_testkit::cli::debug_bot("dojo-bot-general", "general").display()
    );
    stdout_ok(
        dojo()
            .args(["match", "royale", "--board", "boards/large.txt"])
            .args(["--rock", blind, "--paper", &general, "--scissors", &general])
            .args(["--max-rounds", "40", "--keep-stderr", "--seed", "2"])
            .args(dojo_testkit::cli::GENEROUS)
            .arg("--json")
            .arg(&json),
    );
    let record = read_json(&json);
    assert_eq!(record["outcome"]["rounds"], 40, "{}", record["outcome"]);
    assert_eq!(record["conduct"][0]["crash"], 0, "{}", record["conduct"]);
    let said: String = record["stderr"][0]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        said.contains("bytes of its input unread") && said.contains("its stdin is closed"),
        "{said}"
    );
}

//! `dojo replay`: showing saved games, `--turn`, `--stderr`, `--game` on a
//! league directory, and `--rerun`'s verdict. Python and shell bots only.

use std::path::{Path, PathBuf};

use dojo_engine::protocol::Fault;
use dojo_engine::royale::{Board, Royale, Settings, TurnFault};
use dojo_games::RoyaleRecord;
use dojo_testkit::cli::stdout_ok as stdout;
use dojo_testkit::cli::{dojo, random_league, stderr_of};
use dojo_testkit::paths::root;

const SLOW_OK: [&str; 4] = ["--timeout-ms", "5000", "--startup-ms", "5000"];

/// Plays a match into `dir/game-SEED.json`; returns the record and the
/// match's transcript, without its `times:` lines: those are the
/// measurements of that run against its limits, which a replay shows
/// without the limits (see [`without_times`]).
fn cardjitsu_match(dir: &Path, bots: [&str; 2], seed: u64, extra: &[&str]) -> (PathBuf, String) {
    let json = dir.join(format!("game-{seed}.json"));
    let shown = stdout(
        dojo()
            .args(["match", "cardjitsu", bots[0], bots[1], "--seed"])
            .arg(seed.to_string())
            .args(SLOW_OK)
            .args(extra)
            .arg("--json")
            .arg(&json),
    );
    (json, without_times(&shown))
}

/// `text` without its `times:` lines.
fn without_times(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("times: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn replay_prints_the_same_transcript_as_the_match() {
    let tmp = tempfile::tempdir().unwrap();
    let (json, shown) = cardjitsu_match(tmp.path(), ["random-py", "random-sh"], 5, &[]);
    assert!(shown.contains("round 1\n"), "{shown}");
    let replayed = stdout(dojo().arg("replay").arg(&json));
    assert_eq!(without_times(&replayed), shown);
    // Each seat's times follow the game, as after the match.
    let times: Vec<&str> = replayed
        .lines()
        .filter(|l| l.starts_with("times: "))
        .collect();
    assert_eq!(times.len(), 2, "{replayed}");
    assert!(
        times[0].starts_with("times: player 1 (random-py): "),
        "{replayed}"
    );
    assert!(
        times[1].starts_with("times: player 2 (random-sh): "),
        "{replayed}"
    );
    assert!(
        times.iter().all(|t| t.contains(" moves, wall p50 ")),
        "{replayed}"
    );
    // Without --keep-stderr the record has no stderr field at all.
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(!text.contains("\"stderr\""), "{text}");
}

#[test]
fn turn_shows_one_round_and_bad_turns_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let (json, shown) = cardjitsu_match(tmp.path(), ["random-py", "random-sh"], 8, &[]);
    let one = stdout(dojo().arg("replay").arg(&json).args(["--turn", "2"]));
    // A round's header is `round N`, or `round N * Reverse`.
    let header = |n: u32| {
        shown
            .find(&format!("round {n}\n"))
            .or_else(|| shown.find(&format!("round {n} * Reverse\n")))
    };
    let start = header(2).unwrap();
    let end = header(3).unwrap_or(shown.find("result:").unwrap());
    assert!(one.ends_with(&shown[start..end]), "{one}");
    assert!(!one.contains("round 1\n"));
    dojo()
        .arg("replay")
        .arg(&json)
        .args(["--turn", "9999"])
        .assert()
        .code(3);
    dojo()
        .arg("replay")
        .arg(tmp.path().join("missing.json"))
        .assert()
        .code(3);
}

#[test]
fn game_id_picks_a_game_of_a_league_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    stdout(
        dojo()
            .args(["league", "cardjitsu", "random-py", "random-sh"])
            .args(["--games", "2", "--seed", "3", "--jobs", "1"])
            .args(SLOW_OK)
            .arg("--out")
            .arg(&out),
    );
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let line: serde_json::Value = serde_json::from_str(games.lines().nth(1).unwrap()).unwrap();
    let id = line["id"].as_u64().unwrap();
    let seats: Vec<&str> = line["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let seed: u64 = line["seed"].as_str().unwrap().parse().unwrap();
    // The same game played as a match prints the same transcript.
    let (_, shown) = cardjitsu_match(tmp.path(), [seats[0], seats[1]], seed, &[]);
    let replayed = stdout(
        dojo()
            .arg("replay")
            .arg(&out)
            .args(["--game", &id.to_string()]),
    );
    assert_eq!(without_times(&replayed), shown);
    // The league game's times, as a match's follow its game.
    assert!(
        replayed.contains(&format!("\ntimes: player 1 ({}): ", seats[0])),
        "{replayed}"
    );
    dojo()
        .arg("replay")
        .arg(&out)
        .args(["--game", "999"])
        .assert()
        .code(3);
}

/// A league's own files given as a record are named for what they are,
/// with the commands that read them; an id the league does not hold is
/// told with the ids it does.
#[test]
fn a_league_file_as_a_record_is_told_with_the_commands_to_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    random_league(&out, 2, &["--seed", "3", "--jobs", "1"]);
    let dir = out.display();
    for (file, what) in [
        ("report.json", "a league's report (report.json)"),
        ("league.json", "a league's settings (league.json)"),
        (
            "games.jsonl",
            "a league's games (games.jsonl, one line per game)",
        ),
    ] {
        let run = dojo().arg("replay").arg(out.join(file)).output().unwrap();
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(3), "{err}");
        assert_eq!(
            err.trim_end(),
            format!(
                "error: {dir}/{file} is {what}, not a game record: replay one of the league's games with `dojo replay {dir} --game ID` (ids 0 to 1), or show its standings with `dojo report {dir}`"
            )
        );
    }
    let run = dojo()
        .arg("replay")
        .arg(&out)
        .args(["--game", "10"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3));
    assert_eq!(
        stderr_of(&run).trim_end(),
        format!("error: {dir}/games.jsonl: no game with id 10 (ids 0 to 1)")
    );
}

/// `--game` on a directory that is not a league's (no `games.jsonl`, no
/// `league.json`) says so, as it does for a file, rather than that a
/// missing games.jsonl holds no such game.
#[test]
fn a_game_id_in_a_directory_that_is_no_league_is_told_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("results");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let file = dir.join("notes.txt");
    for (path, expected) in [
        (
            &dir,
            format!(
                "error: {}: --game expects a league directory, and it holds no games.jsonl",
                dir.display()
            ),
        ),
        (
            &file,
            format!(
                "error: {}: --game expects a league directory (holding games.jsonl)",
                file.display()
            ),
        ),
    ] {
        let run = dojo()
            .arg("replay")
            .arg(path)
            .args(["--game", "3"])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(3));
        assert_eq!(stderr_of(&run).trim_end(), expected);
    }
}

/// The board as `dojo replay` prints it without colours.
fn plain_board(game: &Royale) -> String {
    let board = game.board();
    let mut out = String::new();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let here = game
                .positions()
                .iter()
                .filter(|p| p.x == x && p.y == y)
                .count();
            out.push(match here {
                0 => board.get(x, y).unwrap().to_char(),
                1 => '@',
                n => char::from_digit(n as u32, 10).unwrap(),
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn royale_turn_shows_the_board_the_engine_reaches() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("royale.json");
    stdout(
        dojo()
            .args(["match", "royale", "--board", "boards/seed-example.txt"])
            .args(["--rock", "royale-random-py", "--paper", "royale-random-py"])
            .args(["--scissors", "royale-random-py", "--seed", "11"])
            .args(["--max-rounds", "4"])
            .args(SLOW_OK)
            .arg("--json")
            .arg(&json),
    );
    let rec: RoyaleRecord = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let text = std::fs::read_to_string(root().join("boards/seed-example.txt")).unwrap();
    let board = Board::parse(&text, "seed-example").unwrap();
    let teams = rec.play.players.iter().map(|p| p.team).collect();
    let settings = Settings {
        max_rounds: Some(rec.play.settings.max_rounds),
        stall_rounds: Some(rec.play.settings.stall_rounds),
    };
    let mut game = Royale::new(board, teams, rec.play.seed, settings).unwrap();
    assert!(rec.play.actions.len() >= 6);
    for (turn, a) in rec.play.actions.iter().enumerate() {
        let fault = match a.fault {
            Some(TurnFault::Timeout) => Some(Fault::Timeout),
            Some(TurnFault::Crash) => Some(Fault::Crash),
            Some(TurnFault::Invalid) => Some(Fault::Invalid),
            Some(TurnFault::Illegal) | None => None,
        };
        let step = match fault {
            Some(f) => game.step_fault(a.seat, f).unwrap(),
            None => game.step(a.seat, a.action).unwrap(),
        };
        assert_eq!(&step, a);
        if turn % 3 != 2 && turn + 1 != rec.play.actions.len() {
            continue;
        }
        let n = (turn + 1).to_string();
        let shown = stdout(dojo().arg("replay").arg(&json).args(["--turn", &n]));
        assert!(shown.contains(&format!("turn {n} (round")), "{shown}");
        assert!(
            shown.ends_with(&plain_board(&game)),
            "turn {n}:\n{shown}\nexpected:\n{}",
            plain_board(&game)
        );
    }
}

#[test]
fn rerun_of_seeded_bots_is_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let (json, _) = cardjitsu_match(tmp.path(), ["random-py", "random-sh"], 21, &[]);
    let out = dojo()
        .arg("replay")
        .arg(&json)
        .arg("--rerun")
        .args(SLOW_OK)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("identical"), "{text}");
}

#[test]
fn rerun_of_a_clock_reading_bot_names_the_first_differing_round() {
    let tmp = tempfile::tempdir().unwrap();
    let clock = "clock=bots/faulty/clock.py";
    let (json, _) = cardjitsu_match(tmp.path(), [clock, clock], 4, &[]);
    let out = dojo()
        .arg("replay")
        .arg(&json)
        .arg("--rerun")
        .args(SLOW_OK)
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let at = text.find("differs: first at round ").expect(&text);
    let round: String = text[at + "differs: first at round ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    // In words: who answered what, the first time and the second.
    assert!(
        text.contains(&format!("  at round {round}, seat "))
            && text.contains(" the first time and "),
        "{text}"
    );
    // Both versions of that round follow.
    let saved = text.find("saved:\n").expect(&text);
    let rerun = text.find("rerun:\n").expect(&text);
    assert!(saved < rerun);
    // A round's header is `round N`, or `round N * Reverse` when a
    // Reverse card was in force.
    let has_round = |part: &str| {
        part.contains(&format!("round {round}\n")) || part.contains(&format!("round {round} * "))
    };
    assert!(has_round(&text[saved..rerun]), "{text}");
    assert!(has_round(&text[rerun..]), "{text}");
}

#[test]
fn stderr_is_shown_beside_its_round() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("talker.py");
    std::fs::write(
        &bot,
        "import sys\n\
         n = 0\n\
         for line in sys.stdin:\n\
         \x20   line = line.strip()\n\
         \x20   if line.startswith('Player') or line == 'Draw!':\n\
         \x20       break\n\
         \x20   if ',' in line and ' vs. ' not in line:\n\
         \x20       n += 1\n\
         \x20       if n == 2:\n\
         \x20           sys.stderr.write('hello from round 2\\n')\n\
         \x20           sys.stderr.flush()\n\
         \x20       print(0, flush=True)\n",
    )
    .unwrap();
    let talker = format!("talker=python3 {}", bot.display());
    let (json, _) = cardjitsu_match(
        tmp.path(),
        [talker.as_str(), "random-py"],
        9,
        &["--keep-stderr"],
    );
    let record = std::fs::read_to_string(&json).unwrap();
    assert!(record.contains("hello from round 2"), "{record}");
    let shown = stdout(dojo().arg("replay").arg(&json).arg("--stderr"));
    let line = shown
        .find("  P1 stderr| hello from round 2\n")
        .expect(&shown);
    // Written before the bot's answer in round 2, so shown with round 2
    // (the runner counts what still waits in the pipe when it cuts).
    assert!(shown.find("round 2\n").unwrap() < line, "{shown}");
    if let Some(r3) = shown.find("round 3\n") {
        assert!(line < r3, "{shown}");
    }
    assert!(!shown.contains("P2 stderr|"), "{shown}");
    // Without --stderr the replay is the plain transcript.
    let plain = stdout(dojo().arg("replay").arg(&json));
    assert!(!plain.contains("stderr|"));
}

/// A record whose seed was edited deals other hands than it shows: it is
/// refused as corrupt (exit 3, naming the first round that differs) by
/// `dojo replay` and by `--rerun`, which used to play the edited seed and
/// blame the bots ("differs", exit 1). A record without its `timing` (the
/// part documented as not deterministic) still loads and reruns identical.
#[test]
fn an_edited_seed_is_refused_and_a_missing_timing_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let (json, shown) = cardjitsu_match(tmp.path(), ["random-py", "random-sh"], 5, &[]);
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();

    record.as_object_mut().unwrap().remove("timing");
    let untimed = tmp.path().join("untimed.json");
    std::fs::write(&untimed, record.to_string()).unwrap();
    // No times to show: the transcript alone.
    assert_eq!(stdout(dojo().arg("replay").arg(&untimed)), shown);
    dojo()
        .args(["replay", "--rerun"])
        .arg(&untimed)
        .args(SLOW_OK)
        .assert()
        .code(0);

    record["seed"] = serde_json::json!("6");
    let edited = tmp.path().join("edited.json");
    std::fs::write(&edited, record.to_string()).unwrap();
    for rerun in [false, true] {
        let mut cmd = dojo();
        cmd.arg("replay").arg(&edited);
        if rerun {
            cmd.arg("--rerun").args(SLOW_OK);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "rerun {rerun}: {stderr}");
        assert!(
            stderr.contains("round 1: player 1 holds") && stderr.contains("seed 6"),
            "{stderr}"
        );
    }
}

/// Move times are measurements, not rules: a record whose times were
/// edited, or that has only the times of older versions (no CPU time, no
/// memory peak), shows the same game and reruns identical.
#[test]
fn times_are_ignored_by_replay_and_rerun_and_old_times_still_read() {
    let tmp = tempfile::tempdir().unwrap();
    let (json, shown) = cardjitsu_match(tmp.path(), ["random-py", "random-sh"], 8, &[]);
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let timing = &mut record["timing"];
    assert!(
        timing["cpu_us"].is_array() && timing["memory_peak_bytes"].is_array(),
        "{timing}"
    );
    for seat in timing["latency_us"].as_array_mut().unwrap() {
        for t in seat.as_array_mut().unwrap() {
            *t = serde_json::json!(123_456_789);
        }
    }
    let edited = tmp.path().join("edited-times.json");
    std::fs::write(&edited, record.to_string()).unwrap();
    timing_free_rerun(&edited, &shown);

    let timing = record["timing"].as_object_mut().unwrap();
    timing.remove("cpu_us");
    timing.remove("memory_peak_bytes");
    let old = tmp.path().join("old-times.json");
    std::fs::write(&old, record.to_string()).unwrap();
    timing_free_rerun(&old, &shown);
}

/// `record` shows as `shown` and reruns identical (exit 0).
fn timing_free_rerun(record: &Path, shown: &str) {
    assert_eq!(
        without_times(&stdout(dojo().arg("replay").arg(record))),
        shown
    );
    dojo()
        .args(["replay", "--rerun"])
        .arg(record)
        .args(SLOW_OK)
        .assert()
        .code(0);
}

/// A league game a forfeit decided replays with the result the league
/// counted (the standings' and the games list's), the board's end after
/// it: its record alone only knows the board's, which may name the
/// faulty bot as the winner. Both in text and on the replay page.
#[test]
fn a_forfeited_league_game_replays_with_the_leagues_result() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    stdout(
        dojo()
            .args([
                "league",
                "cardjitsu",
                "half=python3 bots/faulty/crash_half.py",
            ])
            .args(["random-py", "--games", "2", "--jobs", "1"])
            .args(dojo_testkit::cli::GENEROUS)
            .arg("--out")
            .arg(&out)
            .current_dir(root()),
    );
    let games = out.join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let forfeited = lines
        .iter()
        .find(|g| g["faulty"].as_array().is_some_and(|f| !f.is_empty()))
        .expect("half crashes in every game");
    let id = forfeited["id"].as_u64().unwrap().to_string();
    let replay = |extra: &[&str]| {
        stdout(
            dojo()
                .arg("replay")
                .arg(&out)
                .args(["--game", &id])
                .args(extra),
        )
    };
    let shown = replay(&[]);
    let result = shown
        .lines()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        result.starts_with("result: random-py wins by forfeit: half (")
            && result.ends_with(") was faulty"),
        "{shown}"
    );
    let board = shown
        .lines()
        .find(|l| l.starts_with("on the board: "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        board.starts_with("on the board: player ") || board.starts_with("on the board: draw"),
        "{board}"
    );
    let page = tmp.path().join("game.html");
    replay(&["--html", page.to_str().unwrap()]);
    let data = dojo_testkit::json::data_block(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(
        data["forfeit"]["text"].as_str(),
        Some(&result["result: ".len()..])
    );
    assert_eq!(data["forfeit"]["win"], true);

    // Both seats faulty: the league drew the game, whoever the board
    // favoured.
    let mut both = forfeited.clone();
    both["scores"] = serde_json::json!([0.5, 0.5]);
    both["faulty"] = serde_json::json!([0, 1]);
    let edited: String = lines
        .iter()
        .map(|g| if g["id"] == both["id"] { &both } else { g })
        .map(|g| format!("{g}\n"))
        .collect();
    std::fs::write(&games, edited).unwrap();
    let shown = replay(&[]);
    assert!(
        shown.contains("result: draw by forfeit: every side was faulty: "),
        "{shown}"
    );
    assert!(shown.contains("\non the board: "), "{shown}");

    // A game without a faulty seat shows the board's result alone.
    if let Some(clean) = lines.iter().find(|g| g.get("faulty").is_none()) {
        let id = clean["id"].as_u64().unwrap().to_string();
        let shown = stdout(dojo().arg("replay").arg(&out).args(["--game", &id]));
        assert!(!shown.contains("on the board"), "{shown}");
    }
}

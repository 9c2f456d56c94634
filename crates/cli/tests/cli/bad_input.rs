//! Bad input and closed pipes: edited records, game lines and league files
//! are refused with the file and what is wrong (never a panic, exit 101),
//! huge counts are refused before anything is allocated, and a reader that
//! goes away (`| head`, `| true`) never stops a league or loses a result.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use dojo_testkit::cli::{GENEROUS, dojo, random_league, stderr_of, stdout_of, stdout_ok};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::root;
use predicates::prelude::*;
use serde_json::Value;

/// A CardJitsu record of two deterministic bots, written to `dir`.
fn record(dir: &Path) -> PathBuf {
    let json = dir.join("game.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--seed",
                "3",
            ])
            .arg("--json")
            .arg(&json),
    );
    json
}

/// `dojo replay FILE` on `value` written to `dir/edited.json`.
fn replay_edited(dir: &Path, value: &Value) -> std::process::Output {
    let file = dir.join("edited.json");
    std::fs::write(&file, value.to_string()).unwrap();
    dojo().arg("replay").arg(&file).output().unwrap()
}

#[test]
fn edited_records_are_refused_not_panicked_on() {
    let tmp = tempfile::tempdir().unwrap();
    let rec = read_json(&record(tmp.path()));

    let mut winner = rec.clone();
    winner["rounds"][0]["winner"] = 3.into();
    let out = replay_edited(tmp.path(), &winner);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("edited.json: corrupt record: round 1"),
        "{err}"
    );

    let mut seats = rec.clone();
    seats["seats"].as_array_mut().unwrap().pop();
    let out = replay_edited(tmp.path(), &seats);
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("expected 2 seats"),
        "{}",
        stderr_of(&out)
    );

    let mut version = rec.clone();
    version["version"] = 7.into();
    let out = replay_edited(tmp.path(), &version);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_of(&out).contains("record version 7 is not supported"));

    // A winner that the rules contradict, though a possible player number.
    let mut flipped = rec.clone();
    let w = flipped["rounds"][1]["winner"].as_u64().unwrap();
    flipped["rounds"][1]["winner"] = (if w == 1 { 2 } else { 1 }).into();
    let out = replay_edited(tmp.path(), &flipped);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_of(&out).contains("round 2"), "{}", stderr_of(&out));
}

/// Spawns `dojo args` from the workspace root with stdout (or stderr) piped.
fn spawn(args: &[&str], pipe_stderr: bool) -> std::process::Child {
    let mut cmd = StdCommand::new(assert_cmd::cargo::cargo_bin("dojo"));
    cmd.args(args).current_dir(root()).stdin(Stdio::null());
    if pipe_stderr {
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    }
    cmd.spawn().unwrap()
}

#[test]
fn a_closed_stdout_neither_panics_nor_loses_the_record() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("r.json");
    let json_arg = json.display().to_string();
    // `dojo match ... | true`: the reader is gone before anything is written.
    let mut child = spawn(
        &[
            "match",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--seed",
            "4",
            "--json",
            &json_arg,
        ],
        false,
    );
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(json.is_file());

    // `dojo replay r.json | head -1`.
    let mut child = spawn(&["replay", &json_arg], false);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("CardJitsu"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn a_closed_stderr_does_not_stop_a_league() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("league");
    let out_arg = out_dir.display().to_string();
    // `dojo league ... -v 2>&1 | head -3`
    let mut child = spawn(
        &[
            "league",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "16",
            "-j",
            "1",
            "-v",
            "--out",
            &out_arg,
        ],
        true,
    );
    let mut reader = BufReader::new(child.stderr.take().unwrap());
    for _ in 0..3 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    drop(reader);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let report = read_json(&out_dir.join("report.json"));
    assert_eq!(report["games_played"], 16, "{report}");
}

#[test]
fn huge_game_counts_are_refused_before_allocating() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    dojo()
        .args(["league", "cardjitsu", "random-py", "random-sh"])
        .args(["--games", "18446744073709551615", "--out"])
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("at most 2000000 are allowed"));

    // The same count in a hand-edited league.json.
    random_league(&out, 2, &[]);
    let file = out.join("league.json");
    let mut league = read_json(&file);
    league["games"] = Value::from(u64::MAX);
    std::fs::write(&file, league.to_string()).unwrap();
    dojo()
        .args(["league", "--resume"])
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("at most 2000000 are allowed"));

    dojo()
        .args(["league", "cardjitsu", "-j", "99999999999"])
        .assert()
        .code(3);
}

/// A finished two-game league in `dir`.
fn small_league(dir: &Path) {
    random_league(dir, 2, &[]);
}

#[test]
fn impossible_game_lines_are_refused_with_file_and_line() {
    for (field, value, expected) in [
        ("scores", "[]", "0 scores"),
        ("scores", "[1.0,1.0]", "neither a win"),
        ("scores", "[5.0,-3.0]", "neither a win"),
        ("scores", "[1e308,-1e308]", "neither a win"),
        (
            "faults",
            r#"[{"timeout":18446744073709551615,"crash":0,"invalid":0,"restart":0},{"timeout":0,"crash":0,"invalid":0,"restart":0}]"#,
            "fault count",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        small_league(tmp.path());
        let games = tmp.path().join("games.jsonl");
        let text = std::fs::read_to_string(&games).unwrap();
        let mut lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        lines[1][field] = serde_json::from_str(value).unwrap();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&games, text).unwrap();
        dojo()
            .args(["league", "--resume"])
            .arg(tmp.path())
            .assert()
            .code(3)
            .stderr(predicate::str::contains(
                "games.jsonl:2: not a possible game result",
            ))
            .stderr(predicate::str::contains(expected));
    }
}

/// A resumed league reads its stored games before anything else: a bad
/// line, or one that is not a game of the league's schedule, stops it
/// with the file and the line or game before any bot is built (the bot's
/// build step leaves a marker) or started.
#[test]
fn a_bad_game_line_stops_a_resume_before_any_bot_is_built() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("marker");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::copy(root().join("bots/faulty/random_ok.py"), bot.join("bot.py")).unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "command = \"python3 bot.py\"\nbuild = \"touch built\"\ngames = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let marker = bot.join("built");
    let out = tmp.path().join("league");
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu"])
            .arg(&bot)
            .args(["random-sh", "--games", "2", "--out"])
            .arg(&out)
            .args(GENEROUS),
    );
    assert!(marker.exists(), "the build step leaves its marker");
    let games = out.join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    // The first of the two lines: not a torn last line, which a resume
    // cuts off.
    let (first, rest) = text.split_once('\n').unwrap();
    let mut other_seed: Value = serde_json::from_str(first).unwrap();
    let id = other_seed["id"].clone();
    other_seed["seed"] = "12345".into();
    for (line, expected) in [
        (
            "{\"not a game\":1}".to_owned(),
            format!("{}:1: expected a game line", games.display()),
        ),
        (
            other_seed.to_string(),
            format!(
                "{}: game {id} does not match its scheduled seats or seed",
                games.display()
            ),
        ),
    ] {
        std::fs::remove_file(&marker).unwrap_or_default();
        std::fs::write(&games, format!("{line}\n{rest}")).unwrap();
        let resumed = dojo()
            .args(["league", "--resume"])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = stderr_of(&resumed);
        assert_eq!(resumed.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains(&expected), "no `{expected}` in:\n{stderr}");
        assert!(!marker.exists(), "the bot was built:\n{stderr}");
        assert!(
            !stderr.contains("league: "),
            "the league started:\n{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(dojo_runner::bot_cache(&bot.canonicalize().unwrap()));
}

#[test]
fn league_json_refuses_unknown_keys() {
    let tmp = tempfile::tempdir().unwrap();
    small_league(tmp.path());
    let file = tmp.path().join("league.json");
    let mut league = read_json(&file);
    league["gmaes"] = 4.into();
    std::fs::write(&file, league.to_string()).unwrap();
    dojo()
        .args(["league", "--resume"])
        .arg(tmp.path())
        .assert()
        .code(3)
        .stderr(predicate::str::contains("league.json"))
        .stderr(predicate::str::contains("unknown field `gmaes`"));
}

/// Every number leaf of `value`, as JSON pointers.
fn number_paths(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Number(_) => out.push(at),
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                number_paths(v, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                number_paths(v, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn no_edited_number_in_a_record_makes_replay_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let cardjitsu = read_json(&record(tmp.path()));
    let royale_json = tmp.path().join("royale.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "royale",
                "--board",
                "boards/arena.txt",
                "--seed",
                "2",
            ])
            .args(["--max-rounds", "2", "--rock", "royale-random-py", "--paper"])
            .args([
                "royale-random-py",
                "--scissors",
                "royale-random-py",
                "--json",
            ])
            .arg(&royale_json),
    );
    let royale = read_json(&royale_json);
    let values = [0i64, 1, 2, 3, 5, 7, -1, 99, 4_294_967_296];
    let mut runs = 0;
    for rec in [cardjitsu, royale] {
        let mut paths = Vec::new();
        number_paths(&rec, String::new(), &mut paths);
        paths.retain(|p| !p.starts_with("/timing"));
        // About 40 edits per record, spread over all its numbers.
        let step = (paths.len() / 40).max(1);
        for (i, path) in paths.iter().enumerate().step_by(step) {
            let mut edited = rec.clone();
            *edited.pointer_mut(path).unwrap() = values[i % values.len()].into();
            for extra in [&[][..], &["--turn", "2"][..]] {
                let file = tmp.path().join("edited.json");
                std::fs::write(&file, edited.to_string()).unwrap();
                let out = dojo()
                    .arg("replay")
                    .arg(&file)
                    .args(extra)
                    .output()
                    .unwrap();
                let err = stderr_of(&out);
                assert!(
                    out.status.code().is_some_and(|c| c == 0 || c == 3)
                        && !err.contains("panicked"),
                    "{path} = {}: status {:?}\n{err}",
                    values[i % values.len()],
                    out.status.code()
                );
                runs += 1;
            }
        }
    }
    assert!(runs > 100, "{runs}");
}

#[test]
fn a_bot_toml_that_is_no_regular_file_is_named_as_such_not_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("bots");
    // Each has a script a bot without a manifest would be run from.
    let dir_toml = folder.join("dirtoml");
    std::fs::create_dir_all(dir_toml.join("bot.toml")).unwrap();
    let zero_toml = folder.join("zerotoml");
    std::fs::create_dir_all(&zero_toml).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero_toml.join("bot.toml")).unwrap();
    for dir in [&dir_toml, &zero_toml] {
        std::fs::copy(root().join("bots/random-py/bot.py"), dir.join("bot.py")).unwrap();
    }
    for (dir, kind) in [
        (&dir_toml, "a directory"),
        (&zero_toml, "a character device"),
    ] {
        let out = dojo()
            .args(["match", "cardjitsu"])
            .arg(dir)
            .args(["random-sh", "-q"])
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        let want = format!(
            "{}: {kind}, not a regular file",
            dir.join("bot.toml").display()
        );
        assert!(err.contains(&want), "{err}");
        assert!(!err.contains("has no bot.toml"), "{err}");
    }
    // A folder's listing calls them bad manifests, not bots without one.
    let listing = dojo()
        .arg("bots")
        .arg("--bots-dir")
        .arg(&folder)
        .output()
        .unwrap();
    let text = stdout_of(&listing);
    for name in ["dirtoml", "zerotoml"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} listed: {text}"));
        assert!(line.contains("bad manifest"), "{line}");
    }
    for kind in ["a directory", "a character device"] {
        let why = format!("| bot.toml: {kind}, not a regular file");
        assert!(text.contains(&why), "{text}");
    }
}

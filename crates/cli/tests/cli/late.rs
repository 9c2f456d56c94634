//! `dojo league --resume DIR --add BOT` and `--replace NAME=BOT` with the
//! bundled deterministic bots: only the new games are played, the report
//! is the report of a league that had the bot from the start, and a
//! replaced bot's old games stay in `games.jsonl`, marked retired.

use std::collections::BTreeMap;
use std::path::Path;

use dojo_testkit::cli::{GENEROUS, dojo, random_league, stderr_of, stdout_of, stdout_ok};
use dojo_testkit::json::{data_block, games, read_json, report_sans_timing};
use dojo_testkit::paths::root;
use serde_json::Value;

/// A third deterministic CardJitsu bot (random-py's program under another
/// name), so three-bot leagues replay exactly.
const PY2: &str = "py2=python3 bots/random-py/bot.py";

/// The games of `dir` that count, by id, without their timing.
fn current_games(dir: &Path) -> BTreeMap<u64, Value> {
    games(dir)
        .into_iter()
        .filter(|g| g.get("retired").is_none())
        .map(|mut g| {
            g.as_object_mut().unwrap().remove("timing");
            (g["id"].as_u64().unwrap(), g)
        })
        .collect()
}

fn resume(dir: &Path, args: &[&str]) -> std::process::Output {
    dojo()
        .args(["league", "--resume"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_added_bot_plays_only_its_games_and_the_report_equals_a_league_that_had_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (late, full) = (tmp.path().join("late"), tmp.path().join("full"));
    let start = [
        "league",
        "cardjitsu",
        "random-py",
        "random-sh",
        "--games",
        "4",
        "--seed",
        "1",
    ];
    stdout_ok(dojo().args(start).args(GENEROUS).arg("--out").arg(&late));
    assert_eq!(games(&late).len(), 4);

    let out = resume(&late, &["--add", PY2]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("--add: py2 joins the league: 8 games with it to play"),
        "{err}"
    );
    // It says the played games are kept, not a bare "renumbered".
    let said = err.lines().find(|l| l.starts_with("--add: ")).unwrap();
    assert!(!said.contains("already played renumbered"), "{said}");
    let report = read_json(&late.join("report.json"));
    // Exactly the 8 games of py2's two pairings were played.
    assert_eq!(report["timing"]["games_this_run"], 8);
    assert_eq!(games(&late).len(), 12);
    let command: Vec<&str> = report["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(command.contains(&PY2), "{command:?}");

    stdout_ok(
        dojo()
            .args(["league", "cardjitsu", PY2, "random-py", "random-sh"])
            .args(GENEROUS)
            .args(["--games", "4", "--seed", "1", "--out"])
            .arg(&full),
    );
    assert_eq!(report_sans_timing(&late), report_sans_timing(&full));
    assert_eq!(current_games(&late), current_games(&full));
    let league = read_json(&late.join("league.json"));
    assert_eq!(league["origin"]["late"][0]["kind"], "added");
    assert_eq!(league["origin"]["late"][0]["name"], "py2");
    // The recorded command plays the grown league from the start.
    let replay = tmp.path().join("replay");
    let mut argv: Vec<String> = command[1..].iter().map(|w| w.to_string()).collect();
    argv.extend(["--out".into(), replay.display().to_string()]);
    stdout_ok(dojo().args(&argv));
    assert_eq!(current_games(&replay), current_games(&full));
}

/// A copy of `bots/random-sh` in `dir` whose program differs by a
/// comment: the same play, another fingerprint (a resubmission).
fn new_version(dir: &Path) -> std::path::PathBuf {
    let bot = dir.join("random-sh-v2");
    std::fs::create_dir_all(&bot).unwrap();
    let from = root().join("bots/random-sh");
    std::fs::copy(from.join("bot.toml"), bot.join("bot.toml")).unwrap();
    let script = std::fs::read_to_string(from.join("bot.sh")).unwrap();
    std::fs::write(bot.join("bot.sh"), format!("{script}\n# version 2\n")).unwrap();
    bot
}

/// A league of random-py, random-sh and py2, 2 games per pair, into `dir`:
/// the league the `--replace` tests replace a bot of.
fn three_bot_league(dir: &Path) {
    let start = [
        "league",
        "cardjitsu",
        "random-py",
        "random-sh",
        PY2,
        "--games",
        "2",
    ];
    stdout_ok(dojo().args(start).args(GENEROUS).arg("--out").arg(dir));
}

#[test]
fn a_replaced_bot_plays_again_and_its_old_games_stay_marked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("league");
    three_bot_league(&dir);
    let before = read_json(&dir.join("league.json"));
    let old_print = before["provenance"]["fingerprints"]["random-sh"].clone();
    let old_games = current_games(&dir);
    assert_eq!(old_games.len(), 6);

    let bot = new_version(tmp.path());
    let arg = format!("random-sh={}", bot.display());
    let out = resume(&dir, &["--replace", &arg]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("--replace: 4 games retired"));
    let shown = format!(
        "random-sh was replaced by a new version ({}); 4 games of the old version (random-sh) are kept in games.jsonl, retired, and count nowhere",
        bot.display()
    );
    assert!(stdout_of(&out).contains(&shown), "{}", stdout_of(&out));

    let report = read_json(&dir.join("report.json"));
    assert_eq!(report["timing"]["games_this_run"], 4);
    assert_eq!(report["games_played"], 6);
    let replaced = &report["replaced"][0];
    assert_eq!(replaced["name"], "random-sh");
    assert_eq!(replaced["old_command"], "random-sh");
    assert_eq!(replaced["old_fingerprint"], old_print);
    assert_eq!(replaced["retired_games"], 4);
    let league = read_json(&dir.join("league.json"));
    let new_print = &league["provenance"]["fingerprints"]["random-sh"];
    assert_ne!(*new_print, old_print);
    assert_eq!(replaced["fingerprint"], *new_print);

    // Every old game is still there; random-sh's are marked with the
    // fingerprint that played them, and played again at the same seeds.
    let lines = games(&dir);
    assert_eq!(lines.len(), 10);
    let retired: Vec<&Value> = lines
        .iter()
        .filter(|g| g.get("retired").is_some())
        .collect();
    assert_eq!(retired.len(), 4);
    let now = current_games(&dir);
    for g in retired {
        assert_eq!(g["retired"]["replaced"][0], "random-sh");
        assert_eq!(g["retired"]["fingerprints"]["random-sh"], old_print);
        let id = g["id"].as_u64().unwrap();
        assert_eq!(now[&id]["seed"], g["seed"]);
        assert_eq!(now[&id]["seats"], g["seats"]);
    }
    // The games without random-sh were not played again.
    for (id, g) in &old_games {
        if !g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "random-sh")
        {
            assert_eq!(now[id], *g);
        }
    }
    // `dojo report` shows the replacement too, and so does its page, whose
    // games are the league's current ones.
    let page = tmp.path().join("page.html");
    let shown_again = stdout_ok(dojo().args(["report"]).arg(&dir).arg("--html").arg(&page));
    assert!(shown_again.contains(&shown), "{shown_again}");
    let data = data_block(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(data["report"]["replaced"][0]["name"], "random-sh");
    assert_eq!(data["games"].as_array().unwrap().len(), 6);
}

/// `--replace NAME=BOT` says which bot BOT replaces: a new version whose
/// bot.toml names it otherwise (`random-sh-v2`), or a bot found by
/// another name, plays as NAME, at NAME's seeds, as `NAME=DIR` names the
/// bot in DIR elsewhere; the league stores it so that a later `--resume`
/// finds it under NAME again. It used to be refused.
#[test]
fn a_new_version_named_otherwise_plays_under_the_name_it_replaces() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("league");
    three_bot_league(&dir);
    let bot = new_version(tmp.path());
    let manifest = bot.join("bot.toml");
    let toml = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        toml.replace("name = \"random-sh\"", "name = \"random-sh-v2\""),
    )
    .unwrap();

    let arg = format!("random-sh={}", bot.display());
    let out = resume(&dir, &["--replace", &arg]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("--replace: 4 games retired"), "{err}");
    let report = read_json(&dir.join("report.json"));
    assert_eq!(report["timing"]["games_this_run"], 4);
    assert_eq!(report["replaced"][0]["name"], "random-sh");
    let names: Vec<&str> = (report["standings"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"random-sh") && !names.contains(&"random-sh-v2"),
        "{names:?}"
    );
    let league = read_json(&dir.join("league.json"));
    let stored = (league["bots"].as_array().unwrap().iter())
        .find(|b| b["name"] == "random-sh")
        .unwrap()["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(stored, format!("random-sh={}", bot.display()));
    for g in current_games(&dir).values() {
        let seats = g["seats"].as_array().unwrap();
        assert!(!seats.iter().any(|s| s == "random-sh-v2"), "{g}");
    }
    // A plain resume finds the new version under its league name.
    let again = resume(&dir, &[]);
    assert!(again.status.success(), "{}", stderr_of(&again));
    assert_eq!(read_json(&dir.join("report.json"))["games_played"], 6);

    // A bot of the bots directory, by its own name, stands in as well.
    let out = resume(&dir, &["--replace", "py2=random-py"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let report = read_json(&dir.join("report.json"));
    assert_eq!(report["replaced"][1]["name"], "py2");
    assert_eq!(report["timing"]["games_this_run"], 4);
    let again = resume(&dir, &[]);
    assert!(again.status.success(), "{}", stderr_of(&again));
}

#[test]
fn late_entries_that_cannot_join_are_refused_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("league");
    random_league(&dir, 2, &[]);
    let snapshot = || {
        (
            std::fs::read(dir.join("league.json")).unwrap(),
            std::fs::read(dir.join("games.jsonl")).unwrap(),
        )
    };
    let before = snapshot();
    let bot = new_version(tmp.path());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--add".into(), "random-py".into()],
            "--add random-py: the league already has a bot named random-py",
        ),
        (
            vec!["--replace".into(), format!("nobody={}", bot.display())],
            "--replace nobody: the league has no bot named nobody (its bots: random-py, random-sh)",
        ),
        (
            vec!["--replace".into(), "random-sh".into()],
            "--replace random-sh: expected NAME=BOT",
        ),
        (
            vec![
                "--add".into(),
                PY2.into(),
                "--replace".into(),
                "py2=py2=python3 bots/random-py/bot.py".into(),
            ],
            "bot py2 is given twice among --add and --replace",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = resume(&dir, &args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr_of(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(snapshot(), before, "{args:?} changed the directory");
    }
    // A name the league does not have, given a bot of that name.
    let out = resume(
        &dir,
        &["--replace", PY2.replacen("py2=", "py2=py2=", 1).as_str()],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains(
            "--replace py2: the league has no bot named py2 (its bots: random-py, random-sh)"
        ),
        "{}",
        stderr_of(&out)
    );
    // Without --resume, --add is not a league's flag.
    let out = dojo()
        .args([
            "league",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--add",
            PY2,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("--resume"), "{}", stderr_of(&out));
    // A shard cannot take a late entry; it is told to merge first.
    let shard = tmp.path().join("shard");
    random_league(&shard, 2, &["--shard", "1/2"]);
    let out = resume(&shard, &["--add", PY2]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("dojo merge"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(snapshot(), before);
}

/// A bot given as `NAME=COMMAND` with a relative path runs where it was
/// given when the league is resumed from another directory (the guide's
/// "works from any directory"): before, its command ran in the resuming
/// shell's directory, and the script was not found there.
#[test]
fn an_inline_bots_relative_command_runs_where_it_was_given_on_a_resume_from_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("rel")).unwrap();
    std::fs::copy(
        root().join("bots/random-py/bot.py"),
        tmp.path().join("rel/bot.py"),
    )
    .unwrap();
    let out = tmp.path().join("league");
    stdout_ok(
        dojo()
            .current_dir(tmp.path())
            .arg("--bots-dir")
            .arg(root().join("bots"))
            .args(["league", "cardjitsu", "x=python3 rel/bot.py", "random-sh"])
            .args(["--games", "2", "--seed", "4"])
            .args(GENEROUS)
            .arg("--out")
            .arg(&out),
    );
    let resumed = dojo()
        .current_dir(root())
        .args(["league", "--resume"])
        .arg(&out)
        .args(["--add", "random-py"])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", stderr_of(&resumed));
    let report = read_json(&out.join("report.json"));
    let x = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "x")
        .unwrap()
        .clone();
    assert_eq!(x["games"], 4, "{x}");
    assert_eq!(x["faults"]["crash"], 0, "{x}");
}

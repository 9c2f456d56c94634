//! `dojo replay --rerun` runs the bots that played, from where they ran,
//! whatever the current directory; a bot that is gone or has changed is
//! an error (status 3), never a "differs" verdict.

use std::path::{Path, PathBuf};

use dojo_testkit::bots::copy_bundled;
use dojo_testkit::cli::{dojo, stderr_of, stdout_of};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::{data, root};

/// A copy of the bundled random-py bot in `dir/name`.
fn my_bot(dir: &Path, name: &str) -> PathBuf {
    copy_bundled("random-py", &dir.join(name))
}

/// A directory holding a `bot.py` that is not the bot: a rerun that ran
/// the recorded command here would crash on every turn.
fn decoy(dir: &Path) -> PathBuf {
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("bot.py"), "import sys\nsys.exit(1)\n").unwrap();
    other
}

fn rerun(record: &[&std::ffi::OsStr], cwd: &Path) -> std::process::Output {
    dojo()
        .current_dir(cwd)
        .arg("replay")
        .args(record)
        .arg("--rerun")
        .output()
        .unwrap()
}

#[test]
fn a_match_reruns_its_own_bot_from_any_directory_and_refuses_a_changed_or_gone_one() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = my_bot(tmp.path(), "my-bot");
    let json = tmp.path().join("r.json");
    let out = dojo()
        .args(["match", "cardjitsu", "--seed", "9"])
        .arg(&bot)
        .arg("random-sh")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let record = read_json(&json);
    assert_eq!(record["version"], 3);
    let seat = &record["seats"][0];
    assert_eq!(
        seat["dir"],
        bot.canonicalize().unwrap().display().to_string()
    );
    assert!(
        seat["fingerprint"]
            .as_str()
            .unwrap()
            .starts_with("fnv1a64:")
    );

    let elsewhere = decoy(tmp.path());
    let out = rerun(&[json.as_os_str()], &elsewhere);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
    assert!(stdout_of(&out).contains("identical"));

    // The author edits the bot: not the bot that played.
    let script = bot.join("bot.py");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("# changed\n");
    std::fs::write(&script, text).unwrap();
    let out = rerun(&[json.as_os_str()], &elsewhere);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("has changed since the game was recorded"),
        "{err}"
    );
    assert!(!stdout_of(&out).contains("differs"));

    std::fs::remove_dir_all(&bot).unwrap();
    let out = rerun(&[json.as_os_str()], &elsewhere);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("is gone"), "{err}");
    assert!(!stdout_of(&out).contains("differs"));
}

#[test]
fn an_inline_bot_reruns_in_the_directory_it_ran_in() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = my_bot(tmp.path(), "inline");
    let json = tmp.path().join("r.json");
    let random_sh = root().join("bots/random-sh").display().to_string();
    let out = dojo()
        .current_dir(&bot)
        .args(["match", "cardjitsu", "--seed", "2", "mine=python3 bot.py"])
        .arg(&random_sh)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = rerun(&[json.as_os_str()], &decoy(tmp.path()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
}

#[test]
fn a_league_game_reruns_its_bots_from_any_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = my_bot(tmp.path(), "league-bot");
    let league = tmp.path().join("league");
    let out = dojo()
        .args(["league", "cardjitsu", "--games", "2", "--out"])
        .arg(&league)
        .arg(&bot)
        .arg("random-sh")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let elsewhere = decoy(tmp.path());
    let out = dojo()
        .current_dir(&elsewhere)
        .arg("replay")
        .arg(&league)
        .args(["--game", "1", "--rerun"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
    assert!(stdout_of(&out).contains("identical"));
}

#[test]
fn an_old_record_never_runs_its_command_in_the_current_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = my_bot(tmp.path(), "old-bot");
    let json = tmp.path().join("r.json");
    let out = dojo()
        .args(["match", "cardjitsu", "--seed", "4"])
        .arg(&bot)
        .arg("random-sh")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    // As a version 1 record: no directory, no fingerprint, a name that is
    // not under bots/.
    let mut record = read_json(&json);
    record["version"] = 1.into();
    for seat in record["seats"].as_array_mut().unwrap() {
        let seat = seat.as_object_mut().unwrap();
        seat.remove("dir");
        seat.remove("fingerprint");
    }
    record["seats"][0]["bot"] = "old-bot".into();
    std::fs::write(&json, record.to_string()).unwrap();
    let out = rerun(&[json.as_os_str()], &decoy(tmp.path()));
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("does not say where the bot was"), "{err}");
}

#[test]
fn a_deck_given_by_a_relative_path_is_found_again_from_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(data("small.dcfg"), tmp.path().join("mine.dcfg")).unwrap();
    let json = tmp.path().join("r.json");
    let out = dojo()
        .current_dir(tmp.path())
        .args([
            "match",
            "cardjitsu",
            "--seed",
            "3",
            "--deck1",
            "mine.dcfg",
            "--json",
            "r.json",
        ])
        .arg(root().join("bots/random-py"))
        .arg(root().join("bots/random-sh"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let record = read_json(&json);
    let deck = record["decks"][0].as_str().unwrap();
    assert!(Path::new(deck).is_absolute(), "{deck}");
    let out = rerun(&[json.as_os_str()], &decoy(tmp.path()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
}

#[test]
fn a_royale_rerun_starts_where_the_game_did_without_the_board_file() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("r.json");
    // frontier.txt fixes start tiles in `start` lines, which the record's
    // grid does not hold.
    let out = dojo()
        .args([
            "match",
            "royale",
            "--board",
            "boards/frontier.txt",
            "--seed",
            "6",
        ])
        .args(["--max-rounds", "3", "--rock", "royale-random-py", "--paper"])
        .args([
            "royale-random-py",
            "--scissors",
            "royale-random-py",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = rerun(&[json.as_os_str()], &decoy(tmp.path()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
    assert!(stdout_of(&out).contains("identical"));
}

/// A bot whose command names no file of its own (`python3 -m play`: the
/// module is found by Python) is still known by its code: after its
/// author edits `play.py`, a rerun is refused as another bot (status 3),
/// not reported as a nondeterministic one that "differs".
#[test]
fn a_bot_whose_command_names_no_file_is_refused_once_its_code_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("mod-bot");
    std::fs::create_dir_all(&bot).unwrap();
    let play = |card: u8| {
        format!(
            "import sys\nfor line in sys.stdin:\n    if ',' in line and ' vs. ' not in line:\n        \
             print({card}, flush=True)\n"
        )
    };
    std::fs::write(bot.join("play.py"), play(0)).unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "command = \"python3 -m play\"\ngames = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let cache = tmp.path().join("cache");
    let json = tmp.path().join("r.json");
    let out = dojo()
        .env("XDG_CACHE_HOME", &cache)
        .args(["match", "cardjitsu", "--seed", "9", "--max-rounds", "5"])
        .arg(&bot)
        .arg("random-sh")
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));

    // It plays another card now: the same command, another bot.
    std::fs::write(bot.join("play.py"), play(1)).unwrap();
    let out = dojo()
        .env("XDG_CACHE_HOME", &cache)
        .current_dir(tmp.path())
        .arg("replay")
        .arg(&json)
        .arg("--rerun")
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{}{err}", stdout_of(&out));
    assert!(
        err.contains("has changed since the game was recorded"),
        "{err}"
    );
    assert!(!stdout_of(&out).contains("differs"));
}

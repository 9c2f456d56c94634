//! `--html` without a browser: the pages are written as one file with the
//! data block safe to embed, and the errors name what is wrong. What the
//! pages show is tested in a real browser in `browser.rs`.

use dojo_testkit::cli::{dojo, random_league, stdout_ok};
use dojo_testkit::json::data_block;
use dojo_testkit::paths::root;
use serde_json::Value;

#[test]
fn match_and_replay_write_one_self_contained_page() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("game.json");
    let from_match = tmp.path().join("match.html");
    let out = stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--seed",
                "3",
                "-q",
                "--json",
            ])
            .arg(&json)
            .arg("--html")
            .arg(&from_match),
    );
    assert!(out.contains("replay page: "), "{out}");
    let page = tmp.path().join("replay.html");
    let out = stdout_ok(dojo().arg("replay").arg(&json).arg("--html").arg(&page));
    assert_eq!(out.trim(), format!("replay page: {}", page.display()));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html, std::fs::read_to_string(&from_match).unwrap());
    // Nothing is loaded from anywhere: no src or href attribute, and a
    // policy that forbids fetching.
    assert!(html.contains("default-src 'none'"));
    for attr in [" src=", " href=", "@import", "url("] {
        assert!(!html.contains(attr), "the page contains {attr}");
    }
    let data = data_block(&html);
    assert_eq!(data["page"], "replay");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(data["record"], record);
    let rerun = data["commands"]["rerun"].as_str().unwrap();
    assert!(
        rerun.starts_with("dojo replay ") && rerun.ends_with(" --rerun"),
        "{rerun}"
    );
}

#[test]
fn a_record_with_script_tags_in_its_stderr_stays_inside_the_block() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("game.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--seed",
                "3",
                "-q",
                "--json",
            ])
            .arg(&json),
    );
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rounds = record["rounds"].as_array().unwrap().len();
    let evil = "</script><script>alert(1)</script><!--";
    record["stderr"] = serde_json::json!([vec![evil; rounds], vec![""; rounds]]);
    // A field dojo does not know is carried along, not refused.
    record["future_field"] = serde_json::json!({"x": 1});
    std::fs::write(&json, record.to_string()).unwrap();
    let page = tmp.path().join("page.html");
    stdout_ok(dojo().arg("replay").arg(&json).arg("--html").arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the two blocks' own ends"
    );
    assert_eq!(data_block(&html)["record"]["stderr"][0][0], evil);
}

#[test]
fn html_cannot_be_combined_with_rerun_or_turn() {
    for extra in [&["--rerun"][..], &["--turn", "2"]] {
        dojo()
            .args(["replay", "game.json", "--html", "x.html"])
            .args(extra)
            .assert()
            .code(3)
            .stderr(predicates::str::contains("cannot be used with"));
    }
}

#[test]
fn report_needs_a_league_directory() {
    let tmp = tempfile::tempdir().unwrap();
    dojo()
        .arg("report")
        .arg(tmp.path())
        .args(["--html", "x.html"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "not a league out directory (it has no league.json)",
        ));
}

#[test]
fn report_prints_the_standings_and_writes_a_page_with_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    random_league(&out, 4, &[]);
    let page = tmp.path().join("report.html");
    let shown = stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page));
    assert!(
        shown.contains("random-py") && shown.contains("random-sh"),
        "{shown}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let data = data_block(&html);
    assert_eq!(data["page"], "report");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(data["report"]["standings"], report["standings"]);
    assert_eq!(data["games"].as_array().unwrap().len(), 4);
    // Each game's replay is packed in the second block, by id.
    let open = "<script type=\"application/json\" id=\"dojo-games\">";
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let packed: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(packed.as_object().unwrap().len(), 4);
    // The page shows the command report.json records: with the bots
    // directory, so it replays from anywhere.
    let command = data["command"].as_str().unwrap();
    assert!(command.starts_with("dojo --bots-dir /"), "{command}");
    assert!(
        command.contains(" league cardjitsu random-py random-sh --games 4"),
        "{command}"
    );
}

/// An incomplete league's page says the command that finishes it, its
/// directory absolute, as the text report does (it said "resume with
/// --resume", naming no directory).
#[test]
fn an_incomplete_leagues_page_names_the_command_that_finishes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    random_league(&out, 4, &[]);
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let first = games.lines().next().unwrap();
    std::fs::write(out.join("games.jsonl"), format!("{first}\n")).unwrap();
    let page = tmp.path().join("report.html");
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page));
    let data = data_block(&std::fs::read_to_string(&page).unwrap());
    let dir = out.canonicalize().unwrap();
    assert_eq!(
        data["resume"],
        format!("dojo league --resume {}", dir.display()),
        "{data}"
    );
}

#[test]
fn report_on_a_running_league_writes_the_games_so_far_marked_in_progress() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("league");
    random_league(&out, 4, &[]);
    let page = tmp.path().join("report.html");
    let games = out.join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    // A league running on the directory: it holds the games file's lock,
    // two of its games are stored and the third is half written.
    let lines: Vec<&str> = text.lines().collect();
    let third = lines[2];
    let so_far = format!("{}\n{}\n{}", lines[0], lines[1], &third[..third.len() / 2]);
    std::fs::write(&games, &so_far).unwrap();
    let running = std::fs::File::open(&games).unwrap();
    running.lock().unwrap();
    let shown = stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page));
    assert!(shown.contains("random-py"), "{shown}");
    // Its text says it is being played, not that a resume (which would be
    // refused) finishes it.
    assert!(
        shown.contains(
            " of 4 scheduled (incomplete: a league is being played on this directory now)"
        ),
        "{shown}"
    );
    assert!(!shown.contains("--resume"), "{shown}");
    let html = std::fs::read_to_string(&page).unwrap();
    let data = data_block(&html);
    assert_eq!(data["status"]["state"], "running");
    assert_eq!(data["report"]["games_played"], 2);
    assert_eq!(data["games"].as_array().unwrap().len(), 2);
    // Written once: nothing will write it again, so it does not reload.
    assert!(!html.contains("<meta http-equiv=\"refresh\""));
    // The running league's file is left as it was.
    assert_eq!(std::fs::read_to_string(&games).unwrap(), so_far);

    // Once no league runs on it, a torn line is an error again (a resume
    // repairs it), and a whole directory's page is final.
    drop(running);
    let failed = dojo()
        .arg("report")
        .arg(&out)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.contains("games.jsonl:3: the last line is torn"),
        "{err}"
    );
    std::fs::write(&games, &text).unwrap();
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(data_block(&html)["status"]["state"], "final");
    assert!(!html.contains("<meta http-equiv=\"refresh\""));
}

/// `--html -` writes a league's page to stdout, once: it is not a page of
/// the league (a resume does not write to stdout again) and no file named
/// `-` appears.
#[test]
fn a_leagues_page_on_stdout_is_written_once_and_not_remembered() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("l");
    let page = random_league(&out, 2, &["--html", "-"]);
    assert!(
        page.trim_start().starts_with("<!doctype html>"),
        "{page:.200}"
    );
    assert!(page.contains("random-sh"));
    // Only the page on stdout: the standings went to stderr.
    assert!(page.trim_end().ends_with("</html>"), "{page}");
    assert!(!root().join("-").exists(), "a file named - was written");
    let league: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("league.json")).unwrap()).unwrap();
    assert!(
        league["origin"]["pages"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{league}"
    );
    let again = stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
    assert!(!again.contains("<html"), "{again:.200}");
}

/// A bot given by a relative path whose `bot.toml` names it otherwise
/// than its directory (`./cbot`, name "highcard"): every command a page
/// shows for playing again names it by `NAME=DIR`, DIR absolute, and
/// names files absolute, so each one, run as shown from another
/// directory, works (a bare `highcard` is no bot anywhere).
#[test]
fn the_commands_on_pages_work_from_any_directory_for_a_bot_given_by_path() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("work")).unwrap();
    let work = tmp.path().join("work").canonicalize().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let cbot = work.join("cbot");
    std::fs::create_dir(&cbot).unwrap();
    std::fs::copy(root().join("bots/random-py/bot.py"), cbot.join("bot.py")).unwrap();
    std::fs::write(
        cbot.join("bot.toml"),
        "name = \"highcard\"\ncommand = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let spec = format!("highcard={}", cbot.display());
    // Runs `command` as shown, from `elsewhere`: it must not fail.
    let run = |command: &str| {
        let words = shlex::split(command).unwrap();
        assert_eq!(words[0], "dojo", "{command}");
        let out = dojo()
            .current_dir(&elsewhere)
            .args(&words[1..])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(matches!(out.status.code(), Some(0..=2)), "{command}: {err}");
    };

    // `dojo match --html`: the page's match and rerun commands.
    stdout_ok(dojo().current_dir(&work).args([
        "match",
        "cardjitsu",
        "./cbot",
        "random-sh",
        "--seed",
        "3",
        "-q",
        "--json",
        "g.json",
        "--html",
        "m.html",
    ]));
    let data = data_block(&std::fs::read_to_string(work.join("m.html")).unwrap());
    let play = data["commands"]["match"].as_str().unwrap();
    let words = shlex::split(play).unwrap();
    assert_eq!(
        words[..6],
        ["dojo", "match", "cardjitsu", &spec, "random-sh", "--seed"],
        "{play}"
    );
    let rerun = data["commands"]["rerun"].as_str().unwrap();
    assert_eq!(
        rerun,
        format!("dojo replay {} --rerun", work.join("g.json").display())
    );
    run(play);
    run(rerun);

    // A league's page: each game's replay, packed.
    stdout_ok(dojo().current_dir(&work).args([
        "league",
        "cardjitsu",
        "./cbot",
        "random-sh",
        "--games",
        "2",
        "--out",
        "l",
        "--html",
        "r.html",
    ]));
    let html = std::fs::read_to_string(work.join("r.html")).unwrap();
    let open = "<script type=\"application/json\" id=\"dojo-games\">";
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let packed: Value = serde_json::from_str(&html[start..end]).unwrap();
    let (id, game) = packed.as_object().unwrap().iter().next().unwrap();
    let game = {
        use base64::Engine as _;
        use std::io::Read as _;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(game.as_str().unwrap())
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        serde_json::from_str::<Value>(&json).unwrap()
    };
    let play = game["commands"]["match"].as_str().unwrap();
    assert!(shlex::split(play).unwrap().contains(&spec), "{play}");
    let rerun = game["commands"]["rerun"].as_str().unwrap();
    assert_eq!(
        rerun,
        format!(
            "dojo replay {} --game {id} --rerun",
            work.join("l").display()
        )
    );
    run(play);
    run(rerun);

    // The compare page's command: bots and files absolute.
    let out = dojo()
        .current_dir(&work)
        .args([
            "compare",
            "cardjitsu",
            "./cbot",
            "random-sh",
            "--games",
            "2",
            "--html",
            "c.html",
        ])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0..=2)), "{out:?}");
    let data = data_block(&std::fs::read_to_string(work.join("c.html")).unwrap());
    let command = data["command"].as_str().unwrap();
    let page = work.join("c.html").display().to_string();
    assert_eq!(
        shlex::split(command).unwrap(),
        [
            "dojo",
            "compare",
            "cardjitsu",
            &spec,
            "random-sh",
            "--games",
            "2",
            "--html",
            &page
        ],
        "{command}"
    );
    run(command);
}

/// A copy of a league directory is a league of its own: resuming it does
/// not write the page of the league it was copied from (it rewrote
/// `killed.html` without a word), a page inside the directory follows the
/// copy, and `--html` on the resume gives the copy its page in place of
/// the other league's.
#[test]
fn resuming_a_copy_of_a_league_writes_its_own_pages_not_the_originals() {
    let tmp = tempfile::tempdir().unwrap();
    let killed = tmp.path().join("killed");
    let page = tmp.path().join("killed.html");
    random_league(&killed, 2, &["--html", page.to_str().unwrap()]);
    let inside = killed.join("inside.html");
    stdout_ok(dojo().arg("report").arg(&killed).arg("--html").arg(&inside));
    let late = tmp.path().join("late");
    dojo_testkit::paths::copy_files(&killed, &late);
    std::fs::remove_file(&page).unwrap();
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&late)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !page.exists(),
        "the original league's page was written again"
    );
    assert!(late.join("inside.html").is_file(), "{err}");
    assert!(
        err.contains(&format!("{} is the page of the league", page.display()))
            && err.contains("--html FILE gives this one a page"),
        "{err}"
    );
    let pages = |dir: &std::path::Path| {
        let league: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("league.json")).unwrap())
                .unwrap();
        league["origin"]["pages"].clone()
    };
    let canonical = |p: std::path::PathBuf| p.canonicalize().unwrap().display().to_string();
    assert_eq!(
        pages(&late),
        serde_json::json!([canonical(late.join("inside.html"))])
    );

    // Copied again, resumed with --html: that page is the copy's, the
    // original's is still not written.
    let again = tmp.path().join("again");
    dojo_testkit::paths::copy_files(&killed, &again);
    let again_page = tmp.path().join("again.html");
    stdout_ok(
        dojo()
            .args(["league", "--resume"])
            .arg(&again)
            .arg("--html")
            .arg(&again_page),
    );
    assert!(
        !page.exists(),
        "the original league's page was written again"
    );
    assert!(again_page.is_file());
    assert_eq!(
        pages(&again),
        serde_json::json!([
            canonical(again.join("inside.html")),
            canonical(again_page.clone())
        ])
    );
    // The original keeps its pages.
    assert_eq!(
        pages(&killed),
        serde_json::json!([page.display().to_string(), canonical(inside)])
    );

    // A league.json from before pages named their directory resumes, its
    // pages taken as its own.
    let file = killed.join("league.json");
    let mut league: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    league["origin"].as_object_mut().unwrap().remove("pages_of");
    std::fs::write(&file, league.to_string()).unwrap();
    stdout_ok(dojo().args(["league", "--resume"]).arg(&killed));
    assert!(page.is_file());
}

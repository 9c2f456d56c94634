//! `dojo league --gauntlet`, and the settings a league stores: every one
//! that changes a result, applied from `league.json` on resume.

use dojo_testkit::cli::{dojo, random_league, stderr_of};
use dojo_testkit::json::{games, read_json};

#[test]
fn a_gauntlet_plays_new_against_each_other_bot_only() {
    let dir = tempfile::tempdir().unwrap();
    let (gauntlet, full) = (dir.path().join("g"), dir.path().join("rr"));
    let bots = ["random-sh", "twin=sh bots/random-sh/bot.sh"];
    let out = dojo()
        .args(["league", "cardjitsu"])
        .args(bots)
        .args([
            "--gauntlet",
            "random-py",
            "--games",
            "4",
            "--seed",
            "3",
            "--out",
        ])
        .arg(&gauntlet)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("gauntlet of random-py"));
    let played = games(&gauntlet);
    assert_eq!(played.len(), 8, "4 games against each of the 2 others");
    for g in &played {
        let seats: Vec<&str> = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(seats.contains(&"random-py"), "{seats:?}");
    }
    let report = read_json(&gauntlet.join("report.json"));
    assert_eq!(report["settings"]["gauntlet"], "random-py");
    assert_eq!(
        report["standings"].as_array().unwrap().len(),
        3,
        "one scale"
    );
    assert_eq!(report["pairs"].as_array().unwrap().len(), 2);

    // The same games, seeds and results as the round robin's games of
    // random-py (the bundled bots are deterministic given the seed).
    let out = dojo()
        .args(["league", "cardjitsu", "random-py"])
        .args(bots)
        .args(["--games", "4", "--seed", "3", "--out"])
        .arg(&full)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let key = |g: &serde_json::Value| {
        (
            g["seats"].to_string(),
            g["seed"].to_string(),
            g["scores"].to_string(),
        )
    };
    let mut from_rr: Vec<_> = games(&full)
        .iter()
        .filter(|g| g["seats"].to_string().contains("random-py"))
        .map(key)
        .collect();
    let mut from_g: Vec<_> = played.iter().map(key).collect();
    from_rr.sort();
    from_g.sort();
    assert_eq!(from_g, from_rr);

    // The gauntlet is part of the league: not changed on resume.
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&gauntlet)
        .args(["--gauntlet", "random-sh"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn an_unknown_gauntlet_bot_is_an_error_naming_it() {
    let out = dojo()
        .args([
            "league",
            "cardjitsu",
            "random-sh",
            "--gauntlet",
            "no-such-bot",
        ])
        .args(["--out", "/nonexistent/never"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("--gauntlet no-such-bot"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn resource_limits_are_stored_and_a_resume_cannot_change_them() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("l");
    random_league(
        &out_dir,
        2,
        &["--limit-files", "512", "--limit-memory-mib", "4096"],
    );
    let league = read_json(&out_dir.join("league.json"));
    assert_eq!(league["controls"]["files"], 512);
    assert_eq!(league["controls"]["memory_mib"], 4096);
    assert_eq!(league["controls"]["file_size_mib"], 64);
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&out_dir)
        .args(["--limit-files", "256"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("--limit-files 256 (the league has 512)"),
        "{err}"
    );
    // Without the flags (or with the stored values) it resumes.
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&out_dir)
        .args(["--limit-files", "512"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    // Default limits are not written, so older leagues read the same.
    let plain = dir.path().join("plain");
    random_league(&plain, 2, &[]);
    assert!(
        read_json(&plain.join("league.json"))
            .get("limits")
            .is_none()
    );
}

/// `--resume --games M` above the stored count grows a league: only the
/// new games are played, and the result is the league that had M games
/// from the start; fewer games are refused.
#[test]
fn a_resumed_league_grows_to_more_games_and_never_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let (grown, whole) = (dir.path().join("grown"), dir.path().join("whole"));
    random_league(&grown, 4, &[]);
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&grown)
        .args(["--games", "8"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("grows from 4 to 8 games"));
    let report = read_json(&grown.join("report.json"));
    assert_eq!(report["timing"]["games_this_run"], 4);
    random_league(&whole, 8, &[]);
    assert_eq!(
        dojo_testkit::json::json_without_timing(&grown.join("report.json")),
        dojo_testkit::json::json_without_timing(&whole.join("report.json"))
    );
    let out = dojo()
        .args(["league", "--resume"])
        .arg(&grown)
        .args(["--games", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr_of(&out).contains("--games 2 (a league's games can grow, not shrink)"),
        "{}",
        stderr_of(&out)
    );
}

/// Shards of an SPRT gauntlet play their slices whole; `dojo merge` runs
/// the tests on the merged games, with one machine's verdicts.
#[test]
fn shards_of_an_sprt_gauntlet_merge_into_one_machines_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let league = [
        "league",
        "cardjitsu",
        "random-sh",
        "--gauntlet",
        "random-py",
        "--sprt",
        "elo0=-400,elo1=-300,alpha=0.2,beta=0.2",
        "--games",
        "24",
        "--seed",
        "1",
        // The shards and the single run must not differ by a timeout.
        "--timeout-ms",
        "20000",
        "--startup-ms",
        "20000",
    ];
    for i in 1..=2 {
        let out = dojo()
            .args(league)
            .args(["--shard", &format!("{i}/2"), "--out"])
            .arg(dir.path().join(format!("s{i}")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        let shard = read_json(&dir.path().join(format!("s{i}/report.json")));
        assert!(shard.get("sprt").is_none(), "a shard decides nothing");
    }
    let out = dojo()
        .arg("merge")
        .args([dir.path().join("s1"), dir.path().join("s2")])
        .arg("--out")
        .arg(dir.path().join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = dojo()
        .args(league)
        .arg("--out")
        .arg(dir.path().join("one"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let merged = read_json(&dir.path().join("m/report.json"));
    let one = read_json(&dir.path().join("one/report.json"));
    assert!(
        merged["sprt"]["opponents"][0]["state"].is_string(),
        "{merged}"
    );
    assert_eq!(merged["sprt"], one["sprt"]);
}

/// A league stores the bots directory its bots were named in: `--resume`
/// with a `--bots-dir` that lacks one of them is refused before any game,
/// naming both directories and the bot (not only "no bot"); one that
/// holds them all (the league moved with its bots) is taken.
#[test]
fn a_resume_with_a_bots_dir_lacking_the_leagues_bots_names_both_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let root = dojo_testkit::paths::root();
    let copy = |from: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(root.join("bots").join(from)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    };
    let (first, other, moved) = (
        tmp.path().join("first"),
        tmp.path().join("other"),
        tmp.path().join("moved"),
    );
    for dir in [&first, &moved] {
        copy("random-py", &dir.join("random-py"));
        copy("random-sh", &dir.join("random-sh"));
    }
    copy("random-sh", &other.join("random-sh"));
    let league = tmp.path().join("l");
    let out = dojo()
        .arg("--bots-dir")
        .arg(&first)
        .args([
            "league",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "2",
        ])
        .arg("--out")
        .arg(&league)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let resume = |bots_dir: &std::path::Path| {
        dojo()
            .arg("--bots-dir")
            .arg(bots_dir)
            .args(["league", "--resume"])
            .arg(&league)
            .args(["--games", "4"])
            .output()
            .unwrap()
    };
    let out = resume(&other);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let first = first.canonicalize().unwrap();
    for said in [
        format!("--bots-dir {}", other.display()),
        format!("{}", first.display()),
        "random-py".to_owned(),
    ] {
        assert!(err.contains(&said), "{said:?} not in {err}");
    }
    assert!(!err.contains("grows"), "refused before it changes: {err}");
    assert_eq!(read_json(&league.join("league.json"))["games"], 2);
    let out = resume(&moved);
    assert!(out.status.success(), "{}", stderr_of(&out));
}

//! `dojo compare` with real bots: the strong CardJitsu bot passes against
//! the random one and fails the other way round; a royale smoke test; usage
//! errors exit 3.

use dojo_testkit::cli::{GENEROUS, debug_bot, dojo};
use dojo_testkit::json::read_json;
use predicates::str::contains;

/// A non-regression test with a 100 Elo margin. The default 10 Elo margin
/// needs about 145 pairs even for sensei against random (about +150 Elo),
/// too slow for a test; the decision logic is the same.
const SPRT: &str = "elo0=-100,elo1=0";

fn sensei() -> String {
    format!(
        "sensei={}",
        debug_bot("dojo-bot-sensei", "sensei").display()
    )
}

/// Blocks (pairs for CardJitsu) recorded in a report, checked against its
/// outcome counts, trace and games.
fn blocks(report: &serde_json::Value) -> u64 {
    let counts: u64 = report["outcomes"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    let per_block = report["model"]["games_per_unit"].as_u64().unwrap();
    assert_eq!(report["blocks_played"], counts);
    assert_eq!(report["blocks"].as_array().unwrap().len() as u64, counts);
    assert_eq!(report["trace"].as_array().unwrap().len() as u64, counts);
    assert_eq!(report["games_played"], per_block * counts);
    counts
}

#[test]
fn the_strong_bot_passes_against_the_random_bot() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let junit = dir.path().join("compare.xml");
    dojo()
        .args(["compare", "cardjitsu", &sensei(), "random-py"])
        .args(["--sprt", SPRT, "--games", "400", "--jobs", "2", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(0)
        .stdout(contains("verdict: H1 accepted"))
        // In plain words for an author deciding to merge (it said "the
        // data favour 0 Elo over -100"), with the estimate.
        .stdout(contains(
            "NEW passes: NEW is not worse than BASE by 100 Elo or more; estimate +",
        ))
        .stdout(contains("Elo difference (NEW - BASE): +"))
        // The bounds glossed (it said "Wald [..] less the estimated
        // overshoot" and no more).
        .stdout(contains(
            "]: the test stops when the LLR leaves them (Wald's bounds",
        ));
    let report = read_json(&json);
    // The schema's version comes first.
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.starts_with("{\"version\":5,"), "{}", &text[..40]);
    assert_eq!(report["verdict"], "h1");
    assert_eq!(report["model"]["unit"], "pair");
    assert_eq!(report["model"]["elo_model"], "logistic");
    assert_eq!(report["settings"]["sprt"]["model"], "logistic");
    assert_eq!(report["model"]["estimate"], "median_unbiased");
    assert_eq!(report["new"]["name"], "sensei");
    assert_eq!(report["base"]["name"], "random-py");
    assert_eq!(report["settings"]["sprt"]["elo0"], -100.0);
    let llr = report["llr"].as_f64().unwrap();
    assert!(llr >= report["bounds"]["upper"].as_f64().unwrap());
    // H1 says NEW is not 100 Elo worse; after the few pairs it takes,
    // the interval may still reach below 0, so only the estimate must be
    // above it (and the interval above elo0).
    let elo = &report["elo"];
    assert!(elo["elo"].as_f64().unwrap() > 0.0, "{elo}");
    assert!(elo["lo"].as_f64().unwrap() > -100.0, "{elo}");
    let n = blocks(&report);
    eprintln!("sensei vs random-py: H1 after {n} pairs");
    assert!(n < 200);
    // A passed test case: no verdict element.
    let starts = crate::junit::well_formed(&std::fs::read_to_string(&junit).unwrap());
    let suite = crate::junit::element(&starts, "testsuite").unwrap();
    assert!(
        suite.contains("failures=\"0\" errors=\"0\" skipped=\"0\""),
        "{suite}"
    );
    for verdict in ["failure", "error", "skipped"] {
        assert!(
            crate::junit::element(&starts, verdict).is_none(),
            "{starts:?}"
        );
    }
}

#[test]
fn the_random_bot_fails_against_the_strong_bot() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let junit = dir.path().join("compare.xml");
    dojo()
        .args(["compare", "cardjitsu", "random-py", &sensei()])
        .args(["--sprt", SPRT, "--games", "400", "--jobs", "2", "--json"])
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(1)
        .stdout(contains("verdict: H0 accepted"))
        .stdout(contains("NEW fails: NEW is worse than BASE; estimate -"))
        .stdout(contains("Elo difference (NEW - BASE): -"));
    let report = read_json(&json);
    assert_eq!(report["verdict"], "h0");
    let llr = report["llr"].as_f64().unwrap();
    assert!(llr <= report["bounds"]["lower"].as_f64().unwrap());
    let n = blocks(&report);
    eprintln!("random-py vs sensei: H0 after {n} pairs");
    // A CI system shows it as a failed test.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let starts = crate::junit::well_formed(&xml);
    let suite = crate::junit::element(&starts, "testsuite").unwrap();
    assert!(suite.contains("tests=\"1\" failures=\"1\""), "{suite}");
    let failure = crate::junit::element(&starts, "failure").unwrap();
    assert!(failure.contains("type=\"H0\""), "{failure}");
    assert!(
        failure.contains("message=\"NEW is worse: H0 accepted"),
        "{failure}"
    );
    let case = crate::junit::element(&starts, "testcase").unwrap();
    assert!(
        case.contains("name=\"NEW random-py is not worse than BASE sensei\""),
        "{case}"
    );
    assert!(
        xml.contains("<property name=\"new\" value=\"random-py\"/>"),
        "{xml}"
    );
}

/// Two copies of a deterministic bot mirror every seat-swapped pair, so
/// every pair scores exactly one point. The interval used to collapse to
/// [-3.0, +3.0] after ten games; now it is regularised, centred and wide,
/// and the output says the sample is too small.
#[test]
fn a_bot_against_itself_is_inconclusive_with_an_honest_interval() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-py",
            "--games",
            "10",
        ])
        // A timeout on a loaded machine would make one side faulty.
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .assert()
        .code(2)
        .stdout(contains("verdict: inconclusive"))
        // The next step for an author with no decision.
        .stdout(contains("\nnext: raise --games (now 10) for a decision"))
        .stdout(contains("note: the sample is too small"))
        .get_output()
        .stdout
        .clone();
    let report = read_json(&json);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(blocks(&report), 5);
    assert_eq!(
        report["outcomes"]["counts"],
        serde_json::json!([0, 0, 5, 0, 0])
    );
    assert_eq!(report["note"], "too_small");
    let elo = &report["elo"];
    let (lo, hi) = (elo["lo"].as_f64().unwrap(), elo["hi"].as_f64().unwrap());
    assert!(elo["elo"].as_f64().unwrap().abs() < 1.0, "{elo}");
    assert!(lo < -30.0 && hi > 30.0 && hi - lo < 1000.0, "{elo}");
    assert!((lo + hi).abs() < 1.0, "{elo}");
    let stdout = String::from_utf8_lossy(&out);
    assert!(!stdout.contains("[-3.0, +3.0]"), "{stdout}");
    // The first game played again came out the same.
    assert!(!stdout.contains("not deterministic"), "{stdout}");
    assert!(report.get("nondeterministic").is_none(), "{report}");
}

/// A NEW that plays the same seed differently from run to run is named in
/// the output beside the verdict (exit 2 here: inconclusive), with the
/// game and round that showed it and what it answered each time, and in
/// the `--json` report.
#[test]
fn a_nondeterministic_new_bot_is_named_beside_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let new = dojo_testkit::bots::forgetful(dir.path());
    let out = dojo()
        .args(["compare", "cardjitsu", &new, "random-py", "--games", "2"])
        // One job: the bot's memory of the hands it saw is one file, in
        // its own directory, which a sandboxed bot may not write.
        .args(["--jobs", "1", "--sandbox", "off"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    for part in [
        "note: NEW is not deterministic: pair 1's game 1 (game seed ",
        "), played again, came out differently: at round 1, NEW (seat 1) answered `0` (the card ",
        ") the first time and `1` (the card ",
        "the same command and seed may end with another verdict",
    ] {
        assert!(stdout.contains(part), "no `{part}` in:\n{stdout}");
    }
    let report = read_json(&json);
    let n = &report["nondeterministic"];
    assert_eq!(n["roles"], serde_json::json!(["new"]), "{n}");
    assert_eq!(n["block"], 0, "{n}");
    assert_eq!(n["parting"]["step"], 1, "{n}");
    assert_eq!(n["parting"]["answers"][0]["seat"], 0, "{n}");
}

/// All three teams are the persistent Rust bot: royale-random-py starts a
/// Python process per move, which makes a game take tens of seconds. Six
/// games are one block: one board and seed under all six assignments of
/// the three bots to the teams.
#[test]
fn royale_compare_plays_blocks_of_every_team_rotation() {
    let general = format!(
        "general={}",
        debug_bot("dojo-bot-general", "general").display()
    );
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let out = dojo()
        .args(["compare", "royale", &general, &general, "--third", &general])
        .args(["--board", "boards/arena.txt", "--games", "6", "--jobs", "2"])
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    // One block cannot reach the default test's bounds.
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("in 1 blocks of 6"), "{stdout}");
    let report = read_json(&json);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["third"]["name"], "general");
    assert_eq!(report["model"]["unit"], "block");
    assert_eq!(report["model"]["games_per_unit"], 6);
    assert_eq!(report["outcomes"]["counts"].as_array().unwrap().len(), 13);
    assert_eq!(blocks(&report), 1);
    let block = &report["blocks"][0];
    assert_eq!(block["board"], "boards/arena.txt");
    let games = block["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    let mut rotations: Vec<String> = games.iter().map(|g| g["seats"].to_string()).collect();
    rotations.sort();
    rotations.dedup();
    assert_eq!(rotations.len(), 6, "{rotations:?}");
    for g in games {
        assert_eq!(g["teams"], serde_json::json!(["R", "P", "S"]));
    }
    // Interval sane for a single block.
    let (lo, hi) = (
        report["elo"]["lo"].as_f64().unwrap(),
        report["elo"]["hi"].as_f64().unwrap(),
    );
    assert!(
        lo < hi && hi - lo < 1500.0 && lo > -1500.0,
        "{}",
        report["elo"]
    );
}

/// A third bot's faults are counted and shown beside NEW's and BASE's
/// (the page's Faults column was blank for it), and stay out of the
/// verdict's fault checks: here it answers nothing royale knows after
/// its first move.
#[test]
fn a_third_bots_faults_are_counted_and_shown() {
    let general = format!(
        "general={}",
        debug_bot("dojo-bot-general", "general").display()
    );
    // Its first answer passes (the smoke start), every later one is not
    // a move.
    let babbler = r#"babbler=sh -c 'a=P; while :; do while read l && [ -n "$l" ]; do :; done; read x || exit 0; read y; echo $a; a=NOPE; done'"#;
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let out = dojo()
        .args(["compare", "royale", &general, &general, "--third", babbler])
        .args(["--board", "boards/arena.txt", "--games", "6", "--jobs", "2"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = read_json(&json);
    let faults = &report["faults"];
    assert_eq!(faults["third_faulty_games"], 6, "{faults}");
    assert!(faults["third"]["invalid"].as_u64().unwrap() > 0, "{faults}");
    assert_eq!(faults["new_faulty_games"], 0, "{faults}");
    assert!(
        stdout.contains("faults of the third bot: 0 timeouts, 0 crashes,"),
        "{stdout}"
    );
}

/// A copy of the bundled royale bot named `name` in `parent` whose
/// bot.toml fixes its team.
fn royale_bot_of_team(parent: &std::path::Path, name: &str, team: &str) -> std::path::PathBuf {
    let bot = dojo_testkit::bots::copy_bundled("royale-random-py", &parent.join(name));
    let manifest = bot.join("bot.toml");
    let toml = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("name = \"royale-random-py\"", &format!("name = \"{name}\""));
    std::fs::write(&manifest, format!("{toml}team = \"{team}\"\n")).unwrap();
    bot
}

/// A third bot whose bot.toml fixes its team plays only that team, as in
/// a league: a block is then the two games that swap NEW and BASE between
/// the other teams, on one board and seed. It used to play every team.
#[test]
fn a_third_bot_with_a_fixed_team_plays_only_that_team() {
    let dir = tempfile::tempdir().unwrap();
    let paper = royale_bot_of_team(dir.path(), "paper", "P");
    let json = dir.path().join("compare.json");
    let out = dojo()
        .args(["compare", "royale", "royale-random-py", "royale-random-py"])
        .arg("--third")
        .arg(&paper)
        .args(["--board", "boards/arena.txt", "--games", "4", "--jobs", "2"])
        .args(["--max-rounds", "3"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("games: 4 in 2 seat-swapped pairs"),
        "{stdout}"
    );
    let report = read_json(&json);
    assert_eq!(
        report["settings"]["teams"],
        serde_json::json!({"third": "P"})
    );
    assert_eq!(report["model"]["games_per_unit"], 2);
    assert_eq!(blocks(&report), 2);
    for block in report["blocks"].as_array().unwrap() {
        let seats: Vec<&serde_json::Value> = block["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| &g["seats"])
            .collect();
        assert_eq!(
            seats,
            [
                &serde_json::json!(["new", "third", "base"]),
                &serde_json::json!(["base", "third", "new"])
            ],
            "{block}"
        );
        for g in block["games"].as_array().unwrap() {
            assert_eq!(g["teams"], serde_json::json!(["R", "P", "S"]));
        }
    }
}

/// Block `k` is played on board `k % boards`: a game limit of fewer
/// blocks than boards would never play the last ones, so it is refused,
/// naming the limit that plays every board. A block is six games, or two
/// with the third bot's team fixed, which the limit is reckoned in.
#[test]
fn a_royale_game_limit_too_low_for_its_boards_is_refused_naming_the_games_needed() {
    let dir = tempfile::tempdir().unwrap();
    let paper = royale_bot_of_team(dir.path(), "paper", "P");
    let paper = paper.display().to_string();
    let tiny = dojo_testkit::paths::data("tiny.txt");
    let boards = ["--board", "boards/arena.txt", "--board", &tiny];
    let json = dir.path().join("compare.json");
    for (third, games, least, per_block) in [
        ("royale-random-py", "6", "12", "6"),
        (paper.as_str(), "2", "4", "2"),
    ] {
        let out = dojo()
            .args(["compare", "royale", "royale-random-py", "royale-random-py"])
            .args(["--third", third, "--games", games, "--max-rounds", "3"])
            .args(boards)
            .args(GENEROUS)
            .arg("--json")
            .arg(&json)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{third}: {stderr}");
        let expected = format!(
            "--games {games} is too few for 2 boards: each block of {per_block} games is played on one board, so the comparison would play on only 1 of them; give --games {least} or more to play every board, or fewer boards"
        );
        assert!(stderr.contains(&expected), "{third}: {stderr}");
        assert!(!json.exists(), "{third}: no games, no report");
    }
    // Two blocks of the fixed third bot's two games: both boards.
    let out = dojo()
        .args(["compare", "royale", "royale-random-py", "royale-random-py"])
        .args(["--third", &paper, "--games", "4", "--max-rounds", "3"])
        .args(boards)
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let report = read_json(&json);
    let played: Vec<&str> = (report["blocks"].as_array().unwrap().iter())
        .map(|b| b["board"].as_str().unwrap())
        .collect();
    assert_eq!(played, ["boards/arena.txt", tiny.as_str()]);
}

/// NEW or BASE with a fixed team cannot be compared fairly: a block would
/// play NEW on a team BASE never plays (both on one team: they never
/// meet). Refused before any game or build, naming the bot and its
/// bot.toml.
#[test]
fn new_or_base_with_a_fixed_team_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let paper = royale_bot_of_team(dir.path(), "paper", "P");
    let paper2 = royale_bot_of_team(dir.path(), "paper2", "P");
    let rock = royale_bot_of_team(dir.path(), "rock", "R");
    // A build that fails: the refusal comes before any build.
    let toml = std::fs::read_to_string(paper.join("bot.toml")).unwrap();
    std::fs::write(
        paper.join("bot.toml"),
        format!("build = \"sh -c 'exit 7'\"\n{toml}"),
    )
    .unwrap();
    let line = std::fs::read_to_string(paper.join("bot.toml"))
        .unwrap()
        .lines()
        .count();
    let manifest = format!("{}:{line}:1", paper.join("bot.toml").display());
    let cases = [
        (
            vec![paper.clone(), "royale-random-py".into()],
            vec![
                format!("NEW paper's bot.toml fixes its team: team = \"P\" ({manifest})"),
                "NEW is fixed to team P and BASE is not".into(),
                "a team's edge would count as a difference between the bots".into(),
            ],
        ),
        (
            vec!["royale-random-py".into(), paper.clone()],
            vec!["BASE is fixed to team P and NEW is not".into()],
        ),
        (
            vec![paper.clone(), rock],
            vec!["NEW is fixed to team P and BASE to team R".into()],
        ),
        (
            vec![paper, paper2],
            vec![
                "NEW and BASE are both fixed to team P: no royale game seats every bot on its team, so NEW and BASE would never play each other".into(),
            ],
        ),
    ];
    for (bots, expected) in cases {
        let json = dir.path().join("compare.json");
        let out = dojo()
            .args(["compare", "royale"])
            .args(&bots)
            .args(["--board", "boards/arena.txt", "--games", "6", "--json"])
            .arg(&json)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{bots:?}: {stderr}");
        for text in expected {
            assert!(stderr.contains(&text), "{bots:?}: {text:?} in {stderr}");
        }
        assert!(!json.exists(), "{bots:?}: no games, no report");
        assert!(
            !stderr.contains("build"),
            "{bots:?}: nothing built: {stderr}"
        );
    }
}

#[test]
fn usage_errors_exit_3() {
    dojo()
        .args(["compare", "cardjitsu", "random-py"])
        .assert()
        .code(3);
    dojo()
        .args(["compare", "cardjitsu", "random-py", "random-sh"])
        .args(["--sprt", "elo0=5,elo1=0"])
        .assert()
        .code(3)
        .stderr(contains("elo0"));
    dojo()
        .args(["--bots-dir", "bots", "compare", "chess", "a", "b"])
        .assert()
        .code(3);
    dojo()
        .args(["compare", "cardjitsu", "random-py", "no-such-bot"])
        .assert()
        .code(3)
        .stderr(contains("no-such-bot"));
    dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "0",
        ])
        .assert()
        .code(3);
    // Every subcommand gives usage errors the same status.
    dojo().args(["league", "--bogus"]).assert().code(3);
    dojo().args(["compare", "--help"]).assert().code(0);
}

/// A NEW that dies before answering (as a segfaulting binary does) is
/// refused by the smoke start before any game: exit 3, naming it and
/// showing the head of its stderr. It used to play on random fallback
/// cards and could pass.
#[test]
fn a_new_bot_that_never_starts_is_refused_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("dead.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho 'Segmentation fault (core dumped)' >&2\nexit 139\n",
    )
    .unwrap();
    let json = dir.path().join("compare.json");
    dojo()
        .args(["compare", "cardjitsu"])
        .arg(format!("dead=sh {}", script.display()))
        .args(["random-py", "--games", "40", "--json"])
        .arg(&json)
        .assert()
        .code(3)
        .stderr(contains("bot NEW (dead) failed its smoke start"))
        .stderr(contains("| Segmentation fault (core dumped)"))
        .stderr(contains("NEW (dead) failed its smoke start"));
    assert!(!json.exists(), "no verdict, no report");
}

/// A broken NEW's verdict comes with its evidence, as a league shows a
/// faulty bot: its first crash (game, round) and what it wrote to stderr
/// up to it, in the summary (so in JUnit's output too) and the JSON.
/// It used to give the share of faulty games alone.
#[test]
fn a_broken_verdict_shows_the_bots_first_crash_and_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "half=python3 bots/faulty/crash_half.py",
        ])
        .args(["random-py", "--games", "2", "--jobs", "2"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("verdict: none, NEW is broken"), "{stdout}");
    let report = read_json(&json);
    let first = &report["broken"]["first_fault"];
    assert_eq!(first["kind"], "crash", "{report}");
    assert_eq!(first["round"], 2, "{report}");
    assert_eq!(
        first["stderr_tail"],
        serde_json::json!(["crash_half: giving up"])
    );
    assert!(
        stdout.contains(&format!(
            "NEW: first crash: game {}, round 2",
            first["game"]
        )),
        "{stdout}"
    );
    assert!(stdout.contains("    | crash_half: giving up"), "{stdout}");
}

/// A NEW faulty in every one of its first games (crash_half crashes on
/// every other move) fails the gate at once: no verdict (exit 3, as any
/// broken bot) after its first two pairs, not after the game budget's
/// worth of them, naming its first crash, with the games played kept in
/// the JSON. It used to play on to 20 games before refusing it (and a NEW
/// that never answers in time, minutes of timeouts).
#[test]
fn a_new_bot_faulty_in_each_of_its_first_games_fails_fast() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "half=python3 bots/faulty/crash_half.py",
        ])
        .args(["random-py", "--jobs", "2"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains(
            "verdict: none, NEW is broken: NEW crashed or faulted too often in every one of its 4 games: the games measure its faults, not its play; stopped after 4 of at most 2000 games"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("NEW: first crash: game 0, round 2"),
        "{stdout}"
    );
    let report = read_json(&json);
    assert_eq!(report["verdict"], "broken");
    assert_eq!(blocks(&report), 2, "{report}");
    assert_eq!(report["faults"]["new_faulty_games"], 4);
    assert_eq!(report["broken"]["first_fault"]["game"], 0);
}

/// A bot that faulted is told with the game of its first fault: its
/// number, place and seed, and the `dojo match` command that plays it on
/// its own, which, run as printed, plays the same game (same seats, seed,
/// time limits: the same crash in the same round and the same faults).
/// Here BASE is the faulty one, seated second in that game. Compare used
/// to give the game's number alone, and no record of it to replay.
#[test]
fn the_game_of_a_bots_first_fault_is_told_with_the_command_that_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let out = dojo()
        .args(["compare", "cardjitsu", "random-py"])
        .arg("half=python3 bots/faulty/crash_half.py")
        .args(["--jobs", "2"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let report = read_json(&json);
    let told = &report["first_faults"];
    assert_eq!(told.as_array().map(Vec::len), Some(1), "{report}");
    let told = &told[0];
    assert_eq!(told["role"], "base");
    assert_eq!(told["fault"]["game"], 0);
    assert_eq!(told["fault"]["kind"], "crash");
    assert_eq!(
        (told["block"].as_u64(), told["leg"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(told["seats"], serde_json::json!(["new", "base"]));
    let seed = told["seed"].as_str().unwrap().to_owned();
    assert_eq!(report["blocks"][0]["seed"].as_str(), Some(seed.as_str()));
    let command = told["command"].as_str().unwrap();
    assert!(
        stdout.contains(&format!(
            "BASE: first crash: game 0, round 2\n  stderr, the last lines it wrote in that game:\n    | crash_half: giving up\n  game 0 is pair 1's game 1 (seats: NEW, BASE), seed {seed}\n  play it on its own, from this directory:\n    {command}\n"
        )),
        "{stdout}"
    );
    assert!(
        command.starts_with(
            "dojo match cardjitsu random-py 'half=python3 bots/faulty/crash_half.py' "
        ) && command.contains(&format!(" --seed {seed} "))
            && command.contains("--timeout-ms 20000 --startup-ms 20000"),
        "{command}"
    );
    // `dojo replay` of the report, which keeps no game's moves, says so
    // and gives the command for the game asked for.
    dojo()
        .arg("replay")
        .arg(&json)
        .args(["--game", "0"])
        .assert()
        .code(3)
        .stderr(contains("is a `dojo compare` report, not a game record"))
        .stderr(contains(format!(
            "game 0 is BASE's first fault, played again on its own (from the directory compare ran in) by: {command}"
        )));
    // Run as printed (by this build of dojo), from the same directory.
    let game = dir.path().join("game.json");
    let dojo_bin = assert_cmd::cargo::cargo_bin("dojo");
    let line = format!(
        "'{}'{} -q --json '{}'",
        dojo_bin.display(),
        command.strip_prefix("dojo").unwrap(),
        game.display()
    );
    let played = std::process::Command::new("sh")
        .args(["-c", &line])
        .current_dir(dojo_testkit::paths::root())
        .output()
        .unwrap();
    // Exit 4: the game was played and a bot faulted in it.
    assert_eq!(played.status.code(), Some(4), "{line}: {played:?}");
    let record = read_json(&game);
    // A seed is written as a number or a string, as it fits.
    assert_eq!(record["seed"].to_string().trim_matches('"'), seed);
    assert_eq!(record["seats"][1]["bot"], "half");
    let leg = &report["blocks"][0]["games"][0];
    for seat in 0..2 {
        for kind in ["timeout", "crash", "invalid", "restart"] {
            assert_eq!(
                record["conduct"][seat][kind], leg["faults"][seat][kind],
                "seat {seat}'s {kind}: {record}"
            );
        }
    }
    assert!(
        dojo_testkit::cli::stdout_of(&played).contains("(the first in round 2)"),
        "{played:?}"
    );
}

/// A NEW much stronger than BASE that crashes in about one game in four
/// (sensei relayed by crash_some.py) is refused as broken, exit 3, with
/// its first crash as evidence, in the summary, the JSON and JUnit. It
/// used to pass (exit 0): its forfeits only lowered a score it could
/// spare, and only a bot faulty in more than half its games was broken.
#[test]
fn a_strong_new_bot_that_crashes_now_and_then_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let junit = dir.path().join("c.xml");
    // A bot directory of its own holding both programs: a sandboxed bot
    // sees only its own directory.
    let crashy = dir.path().join("crashy");
    std::fs::create_dir(&crashy).unwrap();
    std::fs::copy(
        debug_bot("dojo-bot-sensei", "sensei"),
        crashy.join("sensei"),
    )
    .unwrap();
    let relay = dojo_testkit::paths::bots_dir().join("faulty/crash_some.py");
    std::fs::copy(relay, crashy.join("crash_some.py")).unwrap();
    std::fs::write(
        crashy.join("bot.toml"),
        "name = \"crashy\"\ncommand = \"python3 crash_some.py sensei\"\ngames = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let out = dojo()
        .args(["compare", "cardjitsu"])
        .arg(&crashy)
        .args(["random-py", "--sprt", SPRT, "--games", "400", "--jobs", "2"])
        .args(GENEROUS)
        .arg("--json")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    let stdout = dojo_testkit::cli::stdout_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("verdict: none, NEW is broken"), "{stdout}");
    assert!(
        stdout.contains("NEW faulted where BASE did not"),
        "{stdout}"
    );
    assert!(stdout.contains("    | crash_some: the bug"), "{stdout}");
    let report = read_json(&json);
    assert_eq!(report["verdict"], "broken");
    assert_eq!(report["broken"]["role"], "new");
    assert_eq!(report["broken"]["first_fault"]["kind"], "crash");
    assert_eq!(report["broken"]["first_fault"]["round"], 5);
    assert_eq!(report["faults"]["base"]["crash"], 0);
    let crashes = report["faults"]["new"]["crash"].as_u64().unwrap();
    let games = report["games_played"].as_u64().unwrap();
    assert!(crashes > 0 && 2 * crashes < games, "{crashes} in {games}");
    assert!(report["faults"]["new_prompts"].as_u64().unwrap() > games);
    let starts = crate::junit::well_formed(&std::fs::read_to_string(&junit).unwrap());
    let error = crate::junit::element(&starts, "error").expect("an error case");
    assert!(error.contains("type=\"broken\""), "{error}");
}

/// A NEW that crashes on every other move is faulty in every game: no
/// verdict ("broken", exit 3), under the default forfeit rule and under
/// the random fallback alike, and the JSON says why.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_new_bot_crashing_on_half_its_moves_gets_no_verdict() {
    let dir = tempfile::tempdir().unwrap();
    for policy in ["forfeit", "fallback"] {
        let json = dir.path().join(format!("{policy}.json"));
        dojo()
            .args([
                "compare",
                "cardjitsu",
                "half=python3 bots/faulty/crash_half.py",
            ])
            .args([
                "random-py",
                "--games",
                "60",
                "--jobs",
                "2",
                "--faults",
                policy,
            ])
            // Only NEW's crashes may make a side faulty.
            .args(GENEROUS)
            .arg("--json")
            .arg(&json)
            .assert()
            .code(3)
            .stdout(contains("verdict: none, NEW is broken"));
        let report = read_json(&json);
        assert_eq!(report["verdict"], "broken", "{policy}");
        assert_eq!(report["broken"]["role"], "new");
        let games = report["games_played"].as_u64().unwrap();
        assert!(games >= 2, "{report}");
        assert_eq!(report["broken"]["games"], games);
        assert_eq!(report["faults"]["new_faulty_games"], games);
        assert_eq!(report["faults"]["base_faulty_games"], 0);
        let rule = if policy == "forfeit" {
            "forfeit"
        } else {
            "fallback"
        };
        assert_eq!(report["settings"]["faults"]["rule"], rule);
        if policy == "forfeit" {
            // Every game forfeited: NEW scored nothing.
            assert_eq!(report["new_score"], 0.0, "{report}");
        }
    }
}

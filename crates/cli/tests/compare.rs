//! `dojo compare` with real bots: the strong CardJitsu bot passes against
//! the random one and fails the other way round; a royale smoke test; usage
//! errors exit 3.

mod common;
use common::{debug_bot, dojo, read_json};
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

/// Pairs recorded in a report, checked against its pentanomial counts.
fn pairs(report: &serde_json::Value) -> u64 {
    let counts: u64 = report["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(report["pairs_played"], counts);
    assert_eq!(report["pairs"].as_array().unwrap().len() as u64, counts);
    assert_eq!(report["games_played"], 2 * counts);
    counts
}

#[test]
fn the_strong_bot_passes_against_the_random_bot() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    dojo()
        .args(["compare", "cardjitsu", &sensei(), "random-py"])
        .args(["--sprt", SPRT, "--games", "400", "--jobs", "2", "--json"])
        .arg(&json)
        .assert()
        .code(0)
        .stdout(contains("verdict: H1 accepted"))
        .stdout(contains("Elo difference (NEW - BASE): +"))
        .stdout(contains("LLR: "));
    let report = read_json(&json);
    assert_eq!(report["verdict"], "h1");
    assert_eq!(report["new"]["name"], "sensei");
    assert_eq!(report["base"]["name"], "random-py");
    assert_eq!(report["settings"]["sprt"]["elo0"], -100.0);
    let llr = report["llr"].as_f64().unwrap();
    assert!(llr >= report["bounds"]["upper"].as_f64().unwrap());
    assert!(report["elo"]["lo"].as_f64().unwrap() > 0.0);
    let n = pairs(&report);
    eprintln!("sensei vs random-py: H1 after {n} pairs");
    assert!(n < 200);
}

#[test]
fn the_random_bot_fails_against_the_strong_bot() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    dojo()
        .args(["compare", "cardjitsu", "random-py", &sensei()])
        .args(["--sprt", SPRT, "--games", "400", "--jobs", "2", "--json"])
        .arg(&json)
        .assert()
        .code(1)
        .stdout(contains("verdict: H0 accepted"))
        .stdout(contains("Elo difference (NEW - BASE): -"));
    let report = read_json(&json);
    assert_eq!(report["verdict"], "h0");
    let llr = report["llr"].as_f64().unwrap();
    assert!(llr <= report["bounds"]["lower"].as_f64().unwrap());
    let n = pairs(&report);
    eprintln!("random-py vs sensei: H0 after {n} pairs");
}

#[test]
fn a_bot_against_itself_is_inconclusive_at_the_game_limit() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-py",
            "--games",
            "6",
        ])
        .arg("--json")
        .arg(&json)
        .assert()
        .code(2)
        .stdout(contains("verdict: inconclusive"));
    let report = read_json(&json);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(pairs(&report), 3);
}

/// All three teams are the persistent Rust bot: royale-random-py starts a
/// Python process per move, which makes a game take tens of seconds.
#[test]
fn royale_compare_plays_pairs_against_the_third_bot() {
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
    // Six games cannot reach the default test's bounds.
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = read_json(&json);
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["third"]["name"], "general");
    assert_eq!(pairs(&report), 3);
    for (k, pair) in report["pairs"].as_array().unwrap().iter().enumerate() {
        assert_eq!(pair["board"], "boards/arena.txt");
        let games = pair["games"].as_array().unwrap();
        let seats: Vec<&serde_json::Value> = games.iter().map(|g| &g["seats"]).collect();
        assert_eq!(seats[0][k % 3], "third");
        assert_eq!(seats[1][k % 3], "third");
        assert_ne!(seats[0], seats[1]);
        for g in games {
            assert_eq!(g["teams"], serde_json::json!(["R", "P", "S"]));
        }
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

//! A bot's own limits and time values (`bot.toml`'s `[limits]` and
//! `[time]`) in a league: printed at the start, applied to that bot only,
//! stored, checked on `--resume`, capped or refused by the organiser, and
//! shown in the report.

use std::path::{Path, PathBuf};

use dojo_testkit::cli::{debug_bot, dojo, stderr_of, stdout_of};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::root;

/// The late bot of `bots/faulty` in its own directory (the sandbox lets a
/// bot read only its own), answering every hand after 300 ms, with
/// `sections` appended to its manifest.
fn late_bot(parent: &Path, name: &str, sections: &str) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join("bots/faulty/late.py"), dir.join("late.py")).unwrap();
    std::fs::write(
        dir.join("bot.toml"),
        format!(
            "name = \"{name}\"\ncommand = [\"sh\", \"-c\", \"LATE_DELAY_MS=300 exec python3 late.py\"]\n\
             games = [\"cardjitsu\"]\n{sections}"
        ),
    )
    .unwrap();
    dir
}

/// A league of `bots` with a 100 ms move time and no start-up allowance
/// (so a bot that answers after 300 ms times out every move), 2 games of
/// 3 rounds.
fn league(bots: &[&Path], out: &Path, extra: &[&str]) -> std::process::Output {
    dojo()
        .args(["league", "cardjitsu"])
        .args(bots)
        .args([
            "--games",
            "2",
            "--timeout-ms",
            "100",
            "--startup-ms",
            "0",
            "--max-rounds",
            "3",
            "--allow-broken",
            "--jobs",
            "2",
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The bundled native CardJitsu bot as an inline BOT (`sensei=PATH`): it
/// answers within any deadline these tests give, however loaded the
/// machine, so only the late bots' timeouts are counted.
fn native_sensei() -> String {
    format!(
        "sensei={}",
        debug_bot("dojo-bot-sensei", "sensei").display()
    )
}

fn standing<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no standing for {name}"))
}

#[test]
fn a_bots_own_move_time_applies_to_it_alone_is_printed_stored_and_fixed_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let patient = late_bot(
        dir.path(),
        "patient",
        "[time]\ntimeout_ms = 10000\n[limits]\nfiles = 128\n",
    );
    let hasty = late_bot(dir.path(), "hasty", "");
    let out = dir.path().join("out");
    let run = league(&[&patient, &hasty], &out, &[]);
    let err = stderr_of(&run);
    assert!(run.status.success(), "{err}");
    // Every override is printed at the start: bot, key, value, the league's.
    assert!(
        err.contains(
            "bot patient: time.timeout_ms = 10000 in its bot.toml (the league's: 100), a raise, allowed"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "bot patient: limits.files = 128 in its bot.toml (the league's: 1024), lower: applied"
        ),
        "{err}"
    );
    assert!(!err.contains("bot hasty: "), "{err}");

    // The same program: the bot with the longer move time never times out,
    // the other times out on every move.
    let report = read_json(&out.join("report.json"));
    let (p, h) = (standing(&report, "patient"), standing(&report, "hasty"));
    assert_eq!(p["faults"]["timeout"], 0, "{p}");
    assert_eq!(h["faults"]["timeout"], 6, "{h}");

    // league.json stores what each bot plays with; the report spells out
    // the conditions with the bot's own values marked.
    let stored = read_json(&out.join("league.json"));
    let bots = stored["bots"].as_array().unwrap();
    let values = |name: &str| bots.iter().find(|b| b["name"] == name).unwrap()["values"].clone();
    assert_eq!(
        values("patient"),
        serde_json::json!({"limits": {"files": 128}, "time": {"timeout_ms": 10000}})
    );
    assert!(values("hasty").is_null());
    let c = &report["conditions"];
    assert_eq!(c["time"]["mode"], "wall");
    assert_eq!(c["time"]["timeout_ms"], 100);
    assert_eq!(c["time"]["startup_ms"], 0);
    assert_eq!(c["time"]["game_ms"], serde_json::Value::Null);
    assert_eq!(c["time"]["pin"], false);
    assert_eq!(c["raises"], "allow");
    let bot = |name: &str| {
        c["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(bot("patient")["time"]["timeout_ms"], 10000);
    assert_eq!(bot("patient")["limits"]["files"], 128);
    assert_eq!(
        bot("patient")["own"],
        serde_json::json!(["time.timeout_ms", "limits.files"])
    );
    assert_eq!(bot("hasty")["time"]["timeout_ms"], 100);
    assert_eq!(bot("hasty")["own"], serde_json::json!([]));
    assert!(report["timing"]["containment"]["mode"].is_string());

    // A changed bot.toml is refused on --resume, naming the bot and values.
    let toml = patient.join("bot.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("10000", "9000")).unwrap();
    let resumed = dojo()
        .arg("league")
        .arg("--resume")
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&resumed);
    assert!(!resumed.status.success(), "{err}");
    assert!(
        err.contains("bot patient: its bot.toml now gives limits.files=128 time.timeout_ms=9000 (the league has limits.files=128 time.timeout_ms=10000)"),
        "{err}"
    );
    // So is a different --bot-raises.
    std::fs::write(&toml, text).unwrap();
    let resumed = dojo()
        .arg("league")
        .arg("--resume")
        .arg(&out)
        .args(["--bot-raises", "cap"])
        .output()
        .unwrap();
    let err = stderr_of(&resumed);
    assert!(!resumed.status.success(), "{err}");
    assert!(
        err.contains("--bot-raises cap (the league has allow)"),
        "{err}"
    );
    // Restored, the league resumes (nothing left to play; the hasty bot
    // still fails its smoke start).
    let resumed = dojo()
        .arg("league")
        .arg("--resume")
        .arg(&out)
        .arg("--allow-broken")
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", stderr_of(&resumed));
}

#[test]
fn the_organiser_caps_or_refuses_raises_and_strict_refuses_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let patient = late_bot(dir.path(), "patient", "[time]\ntimeout_ms = 3000\n");
    let hasty = late_bot(dir.path(), "hasty", "");

    // Refused: no league starts, the message names bot, key and values.
    let out = dir.path().join("refused");
    let run = league(&[&patient, &hasty], &out, &["--bot-raises", "refuse"]);
    let err = stderr_of(&run);
    assert!(!run.status.success(), "{err}");
    assert!(
        err.contains("bot patient: time.timeout_ms = 3000 in its bot.toml is above the league's 100, and the league refuses raises (--bot-raises refuse)"),
        "{err}"
    );
    assert!(!out.join("games.jsonl").exists());

    // Capped: the raise is printed as capped and not applied, so the
    // patient bot times out like the other.
    let out = dir.path().join("capped");
    let run = league(&[&patient, &hasty], &out, &["--bot-raises", "cap"]);
    let err = stderr_of(&run);
    assert!(run.status.success(), "{err}");
    assert!(
        err.contains("a raise, capped to 100 (--bot-raises cap)"),
        "{err}"
    );
    let stored = read_json(&out.join("league.json"));
    assert_eq!(stored["raises"], "cap");
    assert!(stored["bots"][0]["values"].is_null(), "{stored}");
    let report = read_json(&out.join("report.json"));
    assert_eq!(standing(&report, "patient")["faults"]["timeout"], 6);

    // --sandbox strict refuses raises unless --bot-raises says otherwise.
    let doctor = dojo().arg("doctor").output().unwrap();
    if !stdout_of(&doctor).contains("--sandbox strict: can run here") {
        eprintln!(
            "skipping the --sandbox strict half: this machine cannot run it (see dojo doctor)"
        );
        return;
    }
    let out = dir.path().join("strict");
    let run = league(&[&patient, &hasty], &out, &["--sandbox", "strict"]);
    let err = stderr_of(&run);
    assert!(!run.status.success(), "{err}");
    assert!(
        err.contains("(--bot-raises refuse, the default under --sandbox strict)"),
        "{err}"
    );
    let out = dir.path().join("strict-allowed");
    let run = league(
        &[&patient, &hasty],
        &out,
        &["--sandbox", "strict", "--bot-raises", "allow"],
    );
    assert!(run.status.success(), "{}", stderr_of(&run));
}

#[test]
fn a_bad_value_in_a_bots_toml_names_file_line_and_expectation() {
    let dir = tempfile::tempdir().unwrap();
    let bad = late_bot(dir.path(), "bad", "[limits]\nmemory_mib = \"lots\"\n");
    let ok = late_bot(dir.path(), "ok", "");
    let run = league(&[&bad, &ok], &dir.path().join("out"), &[]);
    let err = stderr_of(&run);
    assert!(!run.status.success(), "{err}");
    let file = bad.join("bot.toml");
    assert!(
        err.contains(&format!("{}:5:", file.display())) && err.contains("expected a whole number"),
        "{err}"
    );
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn compare_applies_and_records_each_bots_own_values_and_the_conditions() {
    let dir = tempfile::tempdir().unwrap();
    // Its own 3,000 ms a move leaves its 300 ms answers far from late on a
    // loaded machine; the league's 100 ms would make every one late.
    let patient = late_bot(dir.path(), "patient", "[time]\ntimeout_ms = 3000\n");
    let json = dir.path().join("compare.json");
    let out = dojo()
        .arg("compare")
        .arg("cardjitsu")
        .arg(&patient)
        // The base plays under the league's 100 ms a move, smoke start
        // included: a native bot, which answers in microseconds, not a
        // Python one, which a loaded machine can make late.
        .arg(native_sensei())
        // A start-up allowance: compare smoke-starts both bots, and the
        // patient bot's Python must start in time for its first prompt.
        .args([
            "--games",
            "4",
            "--timeout-ms",
            "100",
            "--startup-ms",
            "2000",
            "--max-rounds",
            "3",
            "--limit-processes",
            "64",
            "--jobs",
            "2",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{}",
        stderr_of(&out)
    );
    let report = read_json(&json);
    // Its own move time applied: the 300 ms answers are in time.
    assert_eq!(report["faults"]["new"]["timeout"], 0, "{report}");
    assert_eq!(report["new"]["values"]["time"]["timeout_ms"], 3000);
    assert!(report["new"]["values"].get("limits").is_none(), "{report}");
    assert!(report["base"].get("values").is_none(), "{report}");
    let c = &report["conditions"];
    assert_eq!(c["time"]["mode"], "wall");
    assert_eq!(c["time"]["timeout_ms"], 100);
    assert_eq!(c["time"]["startup_ms"], 2000);
    assert_eq!(c["time"]["game_ms"], serde_json::Value::Null);
    assert_eq!(c["limits"]["processes"], 64);
    assert_eq!(c["limits"]["files"], 1024);
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_games_rerun_plays_under_the_leagues_time_and_applied_values() {
    let dir = tempfile::tempdir().unwrap();
    // Its manifest asks for 1,000 ms a move; the league caps it at 100, so
    // its 300 ms answers time out in the league's games.
    let capped = late_bot(dir.path(), "capped", "[time]\ntimeout_ms = 1000\n");
    // The opponent must answer every move within the league's 100 ms, with
    // no start-up allowance, in the league and in the rerun alike: a
    // native bot does on a loaded machine, where a Python one starting up
    // can be charged a timeout in one run and not the other.
    let sensei = native_sensei();
    let out = dir.path().join("league");
    let o = league(
        &[&capped, Path::new(&sensei)],
        &out,
        &["--bot-raises", "cap"],
    );
    assert!(o.status.success(), "{}", stderr_of(&o));
    let report = read_json(&out.join("report.json"));
    assert!(
        standing(&report, "capped")["faults"]["timeout"]
            .as_u64()
            .unwrap()
            > 0,
        "{report}"
    );
    // Rerun with the replay's defaults (1,000 ms a move): the league's
    // 100 ms and the capped value still apply, so the game comes out the
    // same, timeouts and all.
    let rerun = dojo()
        .arg("replay")
        .arg(&out)
        .args(["--game", "0", "--rerun"])
        .output()
        .unwrap();
    assert_eq!(
        rerun.status.code(),
        Some(0),
        "{}{}",
        stdout_of(&rerun),
        stderr_of(&rerun)
    );
    // A time flag that differs from the league's is refused, naming it.
    let refused = dojo()
        .arg("replay")
        .arg(&out)
        .args(["--game", "0", "--rerun", "--timeout-ms", "500"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(3));
    let err = stderr_of(&refused);
    assert!(
        err.contains("--timeout-ms 500 (the league has 100)") && err.contains("league.json"),
        "{err}"
    );
    // The league's own value given again is no conflict.
    let same = dojo()
        .arg("replay")
        .arg(&out)
        .args(["--game", "0", "--rerun", "--timeout-ms", "100"])
        .output()
        .unwrap();
    assert_eq!(same.status.code(), Some(0), "{}", stderr_of(&same));
}

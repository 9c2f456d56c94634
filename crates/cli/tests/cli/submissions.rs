//! A folder of submissions (`--bots-dir DIR`): every entry gets a status,
//! `dojo bots` lists them, a league of the folder plays the entries that
//! are ok, prints the others, exits 0 and records them as `excluded` in
//! `league.json`, `report.json` and the report page; a resume keeps them.
//! An entry meant for other games is left out quietly: one line, not
//! `excluded`.

use std::collections::BTreeMap;
use std::path::Path;

use dojo_testkit::cli::{dojo, stderr_of, stdout_of};
use dojo_testkit::json::read_json;
use dojo_testkit::submissions::{BUILD_ERROR, CRASH_LINE, ENTRIES, OTHER_GAME, write_folder};
use serde_json::Value;

fn folder() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    write_folder(tmp.path());
    tmp
}

/// `dojo league cardjitsu` of the folder `bots`, 2 games a pair, into
/// `out`. A generous start-up allowance: on a loaded machine a good entry
/// must not fail its smoke start (the bad one exits at once).
fn league(bots: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    dojo()
        .arg("--bots-dir")
        .arg(bots)
        .args(["league", "cardjitsu", "--games", "2", "--seed", "3"])
        .args(["--startup-ms", "20000"])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The `excluded` of a report or an origin, by directory: (status, entry).
fn excluded(list: &Value) -> BTreeMap<String, (String, Value)> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list of excluded entries: {list}"))
        .iter()
        .map(|e| {
            (
                e["dir"].as_str().unwrap().to_owned(),
                (e["status"].as_str().unwrap().to_owned(), e.clone()),
            )
        })
        .collect()
}

fn details(entry: &Value) -> Vec<String> {
    entry["details"]
        .as_array()
        .map(|d| d.iter().map(|l| l.as_str().unwrap().to_owned()).collect())
        .unwrap_or_default()
}

#[test]
fn bots_lists_every_entry_with_its_status() {
    let tmp = folder();
    let out = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .arg("bots")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    let line = |dir: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{dir} ")) || l.contains(&format!("({dir}/)")))
            .unwrap_or_else(|| panic!("{dir} is not listed:\n{text}"))
    };
    // Without a game nothing is built or started: what the folder's scan
    // can tell, a `games` that names no game dojo knows among it (no
    // league would play it: the verdict a league gives it).
    for (dir, status) in [
        ("alice", "ok"),
        ("carol", "ok"),
        ("dave", "ok"),
        ("royale-only", "ok"),
        ("typo-game", "wrong game"),
        ("tsc-like", "ok"),
        ("crashy", "ok"),
        ("bad-toml", "bad manifest"),
        ("loose", "no manifest"),
        ("my bot", "bad name"),
        ("weird:name", "bad name"),
        ("zz-twin-2", "bad name"),
        ("zz-link", "symlink"),
    ] {
        assert!(line(dir).contains(status), "{dir}: {}", line(dir));
    }
    assert!(
        line("zz-link").contains("it is a symbolic link to "),
        "{}",
        line("zz-link")
    );
    assert!(line("carol").contains("no bot.toml: runs its bot.py (`python3 bot.py`)"));
    assert!(line("dave").contains("(any)"), "{}", line("dave"));
    assert!(line("loose").contains("2 candidates (a.py, b.py)"));
    assert!(line("weird:name").contains("it holds ':'"));
    assert!(
        text.contains("| cardjitsuu is no game dojo knows (games: "),
        "{text}"
    );
    // Every error of the bad manifest, each with its line.
    assert!(
        text.contains("| bot.toml:1:1: unknown field `comand`"),
        "{text}"
    );
    assert!(text.contains("did you mean `command`?"), "{text}");
    assert!(
        text.contains("| bot.toml:2:8: unknown variant `sometimes`"),
        "{text}"
    );
    assert!(
        text.contains("not entries (a bot is a directory): README.md"),
        "{text}"
    );
}

/// A `games` with a typo beside a game dojo knows: the entry is ok (it
/// plays the known game) and `dojo bots` names the typo under it, which
/// keeps it out of that other game's leagues (it was listed ok in
/// silence).
#[test]
fn bots_names_a_games_typo_beside_a_known_game() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("half-typo");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), "").unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "command = \"python3 bot.py\"\ngames = [\"cardjitsu\", \"royalle\"]\n",
    )
    .unwrap();
    let out = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .arg("bots")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("half-typo "))
        .unwrap_or_else(|| panic!("not listed:\n{text}"));
    assert!(line.contains(" ok "), "{line}");
    assert!(
        text.contains("| royalle is no game dojo knows (games: cardjitsu, royale)"),
        "{text}"
    );
}

#[test]
fn a_league_of_the_folder_plays_the_good_entries_and_records_the_others() {
    let tmp = folder();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let page = out_dir.path().join("league.html");
    let run = league(tmp.path(), &out, &["--html", page.to_str().unwrap()]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");

    // The played subset.
    let report = read_json(&out.join("report.json"));
    let played = played(&report);
    let ok: Vec<&str> = ENTRIES
        .iter()
        .filter(|(_, s)| *s == "ok")
        .map(|(d, _)| *d)
        .collect();
    assert_eq!(played, ok);
    assert_eq!(report["games_played"], 6);

    // Every other entry, with its status and why.
    let left_out = excluded(&report["excluded"]);
    let expected: BTreeMap<String, String> = ENTRIES
        .iter()
        .filter(|(_, s)| *s != "ok" && *s != OTHER_GAME)
        .map(|(d, s)| (d.to_string(), s.to_string()))
        .collect();
    let got: BTreeMap<String, String> = left_out
        .iter()
        .map(|(d, (s, _))| (d.clone(), s.clone()))
        .collect();
    assert_eq!(got, expected);
    let manifest = details(&left_out["bad-toml"].1);
    assert_eq!(manifest.len(), 2, "{manifest:?}");
    assert!(manifest[0].starts_with("bot.toml:1:1: unknown field `comand`"));
    assert!(manifest[1].starts_with("bot.toml:2:8: "));
    let build = details(&left_out["tsc-like"].1);
    assert!(build.iter().any(|l| l.contains(BUILD_ERROR)), "{build:?}");
    assert!(build.iter().any(|l| l.contains("compiling")), "{build:?}");
    assert!(
        left_out["tsc-like"].1["reason"]
            .as_str()
            .unwrap()
            .contains("exit status: 2")
    );
    let smoke = details(&left_out["crashy"].1);
    assert!(smoke.iter().any(|l| l.contains(CRASH_LINE)), "{smoke:?}");
    assert!(!left_out.contains_key("royale-only"));
    let typo = &left_out["typo-game"].1;
    assert!(
        typo["reason"]
            .as_str()
            .unwrap()
            .contains("it plays cardjitsuu, which no league plays"),
        "{typo}"
    );
    assert!(
        details(typo)[0].contains("cardjitsuu is no game dojo knows"),
        "{typo}"
    );
    assert!(
        left_out["zz-twin"].1["reason"]
            .as_str()
            .unwrap()
            .contains("like the bot of zz-twin-2")
    );

    // The table on stderr, and the note about the script taken.
    assert!(
        err.contains("note: carol: no bot.toml: runs its bot.py"),
        "{err}"
    );
    assert!(err.contains("10 entries under"), "{err}");
    for (dir, status) in [
        ("bad-toml", "bad manifest"),
        ("crashy", "failed smoke start"),
        ("loose", "no manifest"),
        ("my bot", "bad name"),
        ("typo-game", "wrong game"),
        ("tsc-like", "build failed"),
        ("zz-link", "symlink"),
    ] {
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("  {dir} ")))
            .unwrap_or_else(|| panic!("{dir} is not in the table:\n{err}"));
        assert!(line.contains(status), "{line}");
    }
    // The entry for another game: one quiet line, not in the table.
    assert!(
        err.lines()
            .any(|l| l == "not for cardjitsu: royale-only (its bot.toml names other games)"),
        "{err}"
    );
    assert!(!err.contains("  royale-only "), "{err}");
    assert!(err.contains(&format!("|   {BUILD_ERROR}")), "{err}");
    assert!(err.contains(&format!("|   {CRASH_LINE}")), "{err}");

    // Stored with the league, and on the page.
    let league_json = read_json(&out.join("league.json"));
    assert_eq!(league_json["origin"]["excluded"], report["excluded"]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"excluded\":[{\"dir\":\"bad-toml\""),
        "no excluded in the page"
    );
    assert!(html.contains("function excludedPanel"));
    assert!(!html.contains("royale-only"), "the page lists royale-only");

    // A resume (here growing the league) keeps them, from another directory
    // and with the script bot found again without its bot.toml.
    let resumed = dojo()
        .current_dir(out_dir.path())
        .args(["league", "--resume"])
        .arg(&out)
        .args(["--games", "4"])
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr_of(&resumed));
    assert!(stderr_of(&resumed).contains("carol has no bot.toml: running `python3 bot.py`"));
    let again = read_json(&out.join("report.json"));
    assert_eq!(again["games_played"], 12);
    assert_eq!(again["excluded"], report["excluded"]);
    // `dojo report` reads them from the league too.
    let page2 = out_dir.path().join("again.html");
    let shown = dojo()
        .args(["report"])
        .arg(&out)
        .arg("--html")
        .arg(&page2)
        .output()
        .unwrap();
    assert!(shown.status.success(), "{}", stderr_of(&shown));
    assert!(
        std::fs::read_to_string(&page2)
            .unwrap()
            .contains("\"status\":\"smoke-failed\"")
    );
}

#[test]
fn allow_broken_plays_the_entries_that_fail_their_smoke_start() {
    let tmp = folder();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let run = league(tmp.path(), &out, &["--allow-broken"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let report = read_json(&out.join("report.json"));
    let crashy = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "crashy")
        .expect("crashy is played");
    assert_eq!(crashy["flagged"], true);
    let left_out = excluded(&report["excluded"]);
    assert!(!left_out.contains_key("crashy"));
    // What cannot run at all stays out.
    assert_eq!(left_out["tsc-like"].0, "build-failed");
}

#[test]
fn fewer_than_two_good_entries_is_an_error_after_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    write_folder(tmp.path());
    for dir in ["carol", "dave"] {
        std::fs::remove_dir_all(tmp.path().join(dir)).unwrap();
    }
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let run = league(tmp.path(), &out, &[]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(3), "{err}");
    assert!(err.contains("  crashy "), "{err}");
    assert!(err.contains("found 1 bot under"), "{err}");
    assert!(err.contains("a league needs at least 2"), "{err}");
    assert!(!out.join("games.jsonl").exists());
}

#[test]
fn a_directory_name_that_breaks_the_name_rule_is_refused_on_the_command_line_too() {
    let tmp = folder();
    let run = dojo()
        .args(["match", "cardjitsu", "random-py"])
        .arg(tmp.path().join("my bot"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3));
    let err = stderr_of(&run);
    assert!(
        err.contains("\"my bot\" is not a valid bot name: it holds ' '"),
        "{err}"
    );
    // A NAME=COMMAND whose NAME breaks it says so.
    let run = dojo()
        .args(["match", "cardjitsu", "random-py", "x y=python3 bot.py"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3));
    let err = stderr_of(&run);
    assert!(err.contains("\"x y\" is not a valid bot name"), "{err}");
    // A directory without a bot.toml runs its single script, saying so.
    let run = dojo()
        .args(["match", "cardjitsu", "random-py", "--seed", "1", "--quiet"])
        .arg(tmp.path().join("carol"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr_of(&run));
    assert!(stderr_of(&run).contains("has no bot.toml: running `python3 bot.py` there"));
}

#[test]
fn an_entry_asking_for_more_than_the_league_allows_is_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    write_folder(tmp.path());
    let keep = ["alice", "carol", "dave"];
    for (dir, _) in ENTRIES.iter().filter(|(d, _)| !keep.contains(d)) {
        std::fs::remove_dir_all(tmp.path().join(dir)).unwrap();
    }
    let manifest = tmp.path().join("dave/bot.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}[limits]\nmemory_mib = 999999\n")).unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let run = league(tmp.path(), &out, &["--bot-raises", "refuse"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let report = read_json(&out.join("report.json"));
    let left_out = excluded(&report["excluded"]);
    assert_eq!(left_out.len(), 1);
    // Its manifest is valid: the status says what is wrong instead.
    assert_eq!(left_out["dave"].0, "over-limits");
    let why = details(&left_out["dave"].1).join("\n");
    assert!(why.contains("memory_mib"), "{why}");
    assert_eq!(report["standings"].as_array().unwrap().len(), 2);
}

/// The bundled royale bots in a CardJitsu league of the folder are not
/// submissions that failed: one quiet line names them, the league exits 0,
/// and neither `report.json`, `league.json` nor the page lists them as
/// excluded. Named on the command line, such a bot stays an error
/// (`league_bots.rs`).
#[test]
fn a_bot_for_another_game_in_the_folder_is_left_out_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    write_folder(tmp.path());
    let keep = ["alice", "carol", "royale-only"];
    for (dir, _) in ENTRIES.iter().filter(|(d, _)| !keep.contains(d)) {
        std::fs::remove_dir_all(tmp.path().join(dir)).unwrap();
    }
    // A second bot for another game, named by its bot.toml.
    let general = tmp.path().join("general");
    std::fs::create_dir(&general).unwrap();
    std::fs::write(
        general.join("bot.toml"),
        "name = \"general\"\ncommand = \"python3 bot.py\"\ngames = [\"royale\"]\n",
    )
    .unwrap();
    std::fs::write(general.join("bot.py"), "print('P')\n").unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let page = out_dir.path().join("league.html");
    let run = league(tmp.path(), &out, &["--html", page.to_str().unwrap()]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.lines()
            .any(|l| l
                == "not for cardjitsu: general, royale-only (their bot.toml names other games)"),
        "{err}"
    );
    assert!(!err.contains("not played"), "{err}");
    assert!(!err.contains("wrong game"), "{err}");
    let report = read_json(&out.join("report.json"));
    assert!(report.get("excluded").is_none(), "{}", report["excluded"]);
    let league_json = read_json(&out.join("league.json"));
    assert!(league_json["origin"].get("excluded").is_none());
    assert_eq!(report["standings"].as_array().unwrap().len(), 2);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("royale-only"), "the page lists royale-only");
    assert!(
        !html.contains("\"excluded\":"),
        "the page has an excluded list"
    );
}

/// The name squat: `mallory-x/`'s bot.toml names its bot `alice`, the name
/// of the entry `alice/`. The honest `alice/` plays under its name (and is
/// stored as its directory, which `--resume` finds again); only the entry
/// that took another's name is left out, and says whose.
#[test]
fn a_bot_named_after_another_entry_cannot_knock_it_out_of_the_league() {
    let tmp = tempfile::tempdir().unwrap();
    let random =
        std::fs::read_to_string(dojo_testkit::paths::bots_dir().join("random-py/bot.py")).unwrap();
    for (dir, name) in [
        ("alice", None),
        ("bob", None),
        ("mallory", None),
        ("mallory-x", Some("alice")),
    ] {
        let dir = tmp.path().join(dir);
        std::fs::create_dir(&dir).unwrap();
        let name = name.map_or_else(String::new, |n| format!("name = \"{n}\"\n"));
        std::fs::write(
            dir.join("bot.toml"),
            format!("{name}command = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n"),
        )
        .unwrap();
        std::fs::write(dir.join("bot.py"), &random).unwrap();
    }
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("l");
    let run = league(tmp.path(), &out, &[]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");

    let report = read_json(&out.join("report.json"));
    let played = played(&report);
    assert_eq!(played, ["alice", "bob", "mallory"]);
    let left_out = excluded(&report["excluded"]);
    assert_eq!(
        left_out.keys().map(String::as_str).collect::<Vec<_>>(),
        ["mallory-x"]
    );
    let (status, entry) = &left_out["mallory-x"];
    assert_eq!(status, "bad-name");
    assert_eq!(entry["name"], "alice");
    let reason = entry["reason"].as_str().unwrap();
    assert!(
        reason.contains("its bot.toml names it \"alice\", which is the name of the entry alice/"),
        "{reason}"
    );
    // The table names both.
    let line = err
        .lines()
        .find(|l| l.starts_with("  mallory-x (alice) "))
        .unwrap_or_else(|| panic!("mallory-x is not in the table:\n{err}"));
    assert!(
        line.contains("bad name") && line.contains("entry alice/"),
        "{line}"
    );
    // The league's alice is the entry alice/.
    let league_json = read_json(&out.join("league.json"));
    let alice = league_json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "alice")
        .unwrap_or_else(|| panic!("no alice in {league_json}"));
    assert_eq!(alice["command"], "alice");

    // `dojo bots` says the same without playing.
    let listing = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .arg("bots")
        .output()
        .unwrap();
    let text = stdout_of(&listing);
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?}:\n{text}"))
    };
    assert!(line("alice ").contains(" ok "), "{text}");
    assert!(line("alice (mallory-x/) ").contains("bad name"), "{text}");
}

/// The names of the bots a league's report ranks, sorted.
fn played(report: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    names
}

/// A copy of the bundled random Python bot named `name`, in `folder`.
fn random_entry(folder: &Path, name: &str) {
    let dir = dojo_testkit::bots::copy_bundled("random-py", &folder.join(name));
    let manifest = std::fs::read_to_string(dir.join("bot.toml")).unwrap();
    let manifest = manifest.replace("name = \"random-py\"", &format!("name = \"{name}\""));
    std::fs::write(dir.join("bot.toml"), manifest).unwrap();
}

/// `--resume` of a league of a whole folder plays only the league's own
/// bots; an entry added to the folder since is named, with the `--add`
/// that plays it (one meant for another game is not). A league with
/// nothing left to play says it is complete, not that it plays the rest.
#[test]
fn a_resumed_folder_league_names_the_entries_added_since_and_says_when_it_is_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = tmp.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    random_entry(&bots, "alice");
    random_entry(&bots, "bob");
    let out = tmp.path().join("league");
    let first = league(&bots, &out, &[]);
    assert!(first.status.success(), "{}", stderr_of(&first));

    random_entry(&bots, "carol");
    dojo_testkit::bots::copy_bundled("royale-random-py", &bots.join("walker"));
    let resumed = dojo()
        .args(["league", "--resume"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&resumed);
    assert!(resumed.status.success(), "{err}");
    assert!(
        err.contains("1 entry added since the league started, which it does not play: carol"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "dojo league --resume {} --add carol",
            out.display()
        )),
        "{err}"
    );
    assert!(!err.contains("walker"), "{err}");
    assert!(!err.contains("playing the rest"), "{err}");
    assert!(
        err.contains("all 2 games already stored: the league is complete"),
        "{err}"
    );
}

/// A copy of the bundled random Python bot in `folder/dir` whose bot.toml
/// names it `name`.
fn renamed_entry(folder: &Path, dir: &str, name: &str) {
    random_entry(folder, dir);
    let manifest = folder.join(dir).join("bot.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace(&format!("name = \"{dir}\""), &format!("name = \"{name}\""));
    std::fs::write(&manifest, text).unwrap();
}

/// A bot named `.alice` beside `alice` (it passed for her in the
/// standings, and shared her stderr log, where it wrote forged entries
/// and used up her room): the name rule refuses a leading `.`, so the
/// entry is left out, as any bot.toml whose `name` breaks the rule is
/// (`bad manifest`, the error on its line). Given inline, `.x=COMMAND` is
/// a usage error naming the rule.
#[test]
fn a_bot_name_starting_with_a_dot_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = tmp.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    random_entry(&bots, "alice");
    random_entry(&bots, "bob");
    renamed_entry(&bots, "mallory", ".alice");
    renamed_entry(&bots, "mallory-2", "...");
    let out = tmp.path().join("league");
    let run = league(&bots, &out, &[]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    let report = read_json(&out.join("report.json"));
    assert_eq!(played(&report), ["alice", "bob"]);
    let left_out = excluded(&report["excluded"]);
    for (dir, name) in [("mallory", ".alice"), ("mallory-2", "...")] {
        let (status, entry) = &left_out[dir];
        assert_eq!(status, "bad-manifest", "{entry}");
        let why = details(entry).join("\n");
        assert!(
            why.contains(&format!(
                "bot.toml:4:1: `name`: {name:?} is not a valid bot name: it starts with '.'"
            )),
            "{why}"
        );
    }

    let inline = dojo()
        .current_dir(tmp.path())
        .arg("--bots-dir")
        .arg(&bots)
        .args(["league", "cardjitsu", "alice", ".x=python3 bot.py"])
        .output()
        .unwrap();
    assert_eq!(inline.status.code(), Some(3));
    let err = stderr_of(&inline);
    assert!(
        err.contains("\".x\" is not a valid bot name: it starts with '.'")
            && err.contains("not starting with '-' or '.'"),
        "{err}"
    );
}

/// A league stored before the name rule refused a leading `.` (here one
/// stopped before its first game) whose bot is named `.mal`: its resume
/// stops with the rule's error, naming the bot and its bot.toml's line,
/// rather than playing under a name that no longer loads (or panicking).
#[test]
fn resuming_a_league_whose_bot_name_starts_with_a_dot_says_why_it_cannot() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = tmp.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    random_entry(&bots, "alice");
    random_entry(&bots, "bob");
    random_entry(&bots, "mal");
    let out = tmp.path().join("league");
    let first = league(&bots, &out, &[]);
    assert!(first.status.success(), "{}", stderr_of(&first));
    // As an older dojo stored it: `mal/` names its bot `.mal`.
    let file = out.join("league.json");
    let mut stored = read_json(&file);
    for bot in stored["bots"].as_array_mut().unwrap() {
        if bot["name"] == "mal" {
            bot["name"] = ".mal".into();
        }
    }
    let prints = stored["provenance"]["fingerprints"]
        .as_object_mut()
        .unwrap();
    let print = prints.remove("mal").unwrap();
    prints.insert(".mal".into(), print);
    std::fs::write(&file, serde_json::to_string_pretty(&stored).unwrap()).unwrap();
    std::fs::write(out.join("games.jsonl"), "").unwrap();
    std::fs::remove_file(out.join("report.json")).unwrap();
    renamed_entry(&bots, "mal", ".mal");

    let resumed = dojo()
        .args(["league", "--resume"])
        .arg(&out)
        .output()
        .unwrap();
    let err = stderr_of(&resumed);
    assert_eq!(resumed.status.code(), Some(3), "{err}");
    assert!(
        err.contains("error: bot .mal (mal): ")
            && err.contains(
                "bot.toml:4:1: `name`: \".mal\" is not a valid bot name: it starts with '.'"
            ),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

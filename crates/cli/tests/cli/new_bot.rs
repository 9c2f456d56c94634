//! `dojo new`: every starter bot whose toolchain this machine has is
//! written out and plays a real game, run as the command `dojo new`
//! prints, against the bundled bots, without a single fault; and what it
//! refuses (a used directory, a bad name, an unknown language, a missing
//! parent) it refuses writing nothing.

use std::path::{Path, PathBuf};

use dojo_testkit::cli::{GENEROUS, dojo, stderr_of, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

/// Whether `program` is on PATH; if not, says the test is skipped.
fn have(program: &str, what: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()));
    if !found {
        eprintln!("skipped {what}: no `{program}` on PATH");
    }
    found
}

/// `dojo new GAME NAME --lang LANG --dir ROOT/NAME`, which must succeed;
/// the `dojo` command it says to run next, as words (the temporary
/// directories hold no spaces).
fn new_bot(root: &Path, game: &str, name: &str, lang: &str) -> Vec<String> {
    let dir = root.join(name);
    let out = dojo()
        .args(["new", game, name, "--lang", lang, "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = stdout_of(&out);
    assert!(
        out.status.success(),
        "dojo new failed:\n{}",
        stderr_of(&out)
    );
    assert!(dir.join("bot.toml").is_file(), "{stdout}");
    let next = stdout
        .lines()
        .find_map(|l| l.strip_prefix("next: dojo "))
        .unwrap_or_else(|| panic!("no next command in:\n{stdout}"));
    assert!(next.contains(&dir.display().to_string()), "{next}");
    next.split_whitespace().map(str::to_owned).collect()
}

/// Plays `next` (a `dojo match` as `dojo new` printed it) from `root`, with
/// generous time limits, a build cache in `root` and no network for
/// builds (a starter bot builds offline), and returns its record. The
/// match must exit 0: no seat faulted.
fn play(root: &Path, next: &[String], extra: &[&str]) -> Value {
    let json = root.join("game.json");
    let out = dojo()
        .current_dir(root)
        .env("XDG_CACHE_HOME", root.join("cache"))
        .args(["--build-network", "off"])
        .args(next)
        .args(GENEROUS)
        .args(["--seed", "7"])
        .args(extra)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{next:?} exited with {:?}:\n{}\n{}",
        out.status.code(),
        stdout_of(&out),
        stderr_of(&out)
    );
    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
}

/// The seat of `name` in `record` answered every prompt in time, legally
/// and once, in one process that stayed alive.
fn assert_clean(record: &Value, name: &str) {
    let seat = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["bot"] == name)
        .unwrap_or_else(|| panic!("{name} played no seat"));
    let conduct = &record["conduct"][seat];
    for key in ["timeout", "crash", "invalid", "restart", "unsolicited"] {
        assert_eq!(conduct[key], 0, "{name}: {key} in {conduct}");
    }
    assert_eq!(conduct["spawns"], 1, "{name}: {conduct}");
    assert_eq!(conduct["mode"], "persistent", "{name}: {conduct}");
    // Royale: no move off the board or into a wall either.
    if let Some(actions) = record["actions"].as_array() {
        let mine: Vec<_> = actions.iter().filter(|a| a["seat"] == seat).collect();
        assert!(!mine.is_empty(), "{name} never played");
        for a in mine {
            assert!(a.get("fault").is_none(), "{name}: {a}");
        }
    }
}

/// Both games' starter bots in `lang` (which needs `tool`) play a clean
/// game each, which they play again exactly.
fn starters_play_clean_games(lang: &str, tool: &str) {
    // The opponents the printed commands name are Python bots.
    if !have(tool, lang) || !have("python3", lang) {
        return;
    }
    for game in ["cardjitsu", "royale"] {
        let tmp = tempfile::tempdir().unwrap();
        // An unrelated Cargo workspace above the bot, as a bot made inside
        // a checkout of dojo has.
        std::fs::write(tmp.path().join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        let name = format!("my-{game}-{lang}");
        let next = new_bot(tmp.path(), game, &name, lang);
        // A royale game of per-turn Python opponents is kept short.
        let extra: &[&str] = if game == "royale" {
            &["--max-rounds", "40"]
        } else {
            &[]
        };
        let record = play(tmp.path(), &next, extra);
        assert_clean(&record, &name);
        // Seeded from DOJO_SEED: the game plays again exactly.
        let rerun = dojo()
            .current_dir(tmp.path())
            .env("XDG_CACHE_HOME", tmp.path().join("cache"))
            .args(["--build-network", "off", "replay", "game.json", "--rerun"])
            .args(GENEROUS)
            .output()
            .unwrap();
        assert!(
            rerun.status.success(),
            "{name}: the rerun exited with {:?}:\n{}\n{}",
            rerun.status.code(),
            stdout_of(&rerun),
            stderr_of(&rerun)
        );
        // And `dojo check` finds it ready to submit (royale against a
        // passer in sh: per-turn Python opponents would make it long).
        let against: &[&str] = if game == "royale" {
            &["--against", PASSER]
        } else {
            &[]
        };
        let check = dojo()
            .current_dir(tmp.path())
            .env("XDG_CACHE_HOME", tmp.path().join("cache"))
            .args(["--build-network", "off", "check", game])
            .arg(tmp.path().join(&name))
            .args(against)
            .args(GENEROUS)
            .output()
            .unwrap();
        let said = stdout_of(&check);
        assert_eq!(
            check.status.code(),
            Some(0),
            "{name}:\n{said}\n{}",
            stderr_of(&check)
        );
        assert!(said.ends_with("ready to submit\n"), "{name}:\n{said}");
    }
}

/// A royale bot in sh that passes every turn, and exits after each.
const PASSER: &str =
    r#"passer=sh -c 'while read l && [ -n "$l" ]; do :; done; read x; read y; echo P'"#;

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn python_starters_play_clean_games() {
    starters_play_clean_games("python", "python3");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn sh_starters_play_clean_games() {
    starters_play_clean_games("sh", "sh");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn node_starters_play_clean_games() {
    starters_play_clean_games("node", "node");
}

/// Built by their `build` line, into the build cache.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn c_starters_play_clean_games() {
    starters_play_clean_games("c", "cc");
}

/// Each a crate of its own, built with cargo from a cold cache (standard
/// library only, so offline); with the bot inside a directory that is
/// itself a Cargo workspace, which it must not join.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn rust_starters_play_clean_games() {
    starters_play_clean_games("rust", "cargo");
}

/// Every starter that needs no cargo build reads the Reverse hand line
/// both ways the protocol allows (`* FyA,...` as sent, `*FyA,...` as the
/// championship's example prints it) and answers a legal index to each,
/// fed by hand. (The Rust starter's parsing is the same `trim_start_matches`
/// and `trim`; its build is left to `rust_starters_play_clean_games`.)
#[test]
fn cardjitsu_starters_read_both_forms_of_the_reverse_hand() {
    for (lang, tool, program) in [
        ("python", "python3", &["python3", "bot.py"][..]),
        ("sh", "sh", &["sh", "bot.sh"]),
        ("node", "node", &["node", "bot.js"]),
        ("c", "cc", &["./bot"]),
    ] {
        if !have(tool, lang) {
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        new_bot(tmp.path(), "cardjitsu", "rev", lang);
        let dir = tmp.path().join("rev");
        if lang == "c" {
            let built = std::process::Command::new("cc")
                .args(["-O2", "-Wall", "-Werror", "-o", "bot", "bot.c"])
                .current_dir(&dir)
                .status()
                .unwrap();
            assert!(built.success(), "bot.c does not compile cleanly");
        }
        let out = std::process::Command::new(program[0])
            .args(&program[1..])
            .current_dir(&dir)
            .env("DOJO_SEED", "18446744073709551615")
            .stdin(std::fs::File::open(write_input(tmp.path())).unwrap())
            .output()
            .unwrap();
        assert!(out.status.success(), "{lang}: {}", stderr_of(&out));
        let answers: Vec<u32> = stdout_of(&out)
            .lines()
            .map(|l| l.trim().parse().unwrap())
            .collect();
        assert_eq!(answers.len(), 3, "{lang}: {answers:?}");
        assert!(answers.iter().all(|&i| i < 5), "{lang}: {answers:?}");
    }
}

/// A game's input with a plain hand and both forms of the Reverse hand.
fn write_input(root: &Path) -> PathBuf {
    let path = root.join("input.txt");
    std::fs::write(
        &path,
        "1\nFyA,WoA,Wo5,SgA,Fg8\nWoA vs. Fr6: 1 wins!\n* FyA,Wo5,SgA,Fg8,Fb3\n\
         Fb3 vs. FyA: 1 wins!\n*FyA,Wo5,SgA,Fg8,Wp4\nSgA vs. Wo5: 1 wins!\nPlayer 1 wins!\n",
    )
    .unwrap();
    path
}

/// Every entry of `dir`, hidden ones too, as names.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_used_directory_a_bad_name_an_unknown_language_or_a_missing_parent_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let new = |args: &[&str]| {
        let mut cmd = dojo();
        cmd.current_dir(root).arg("new").args(args);
        cmd
    };

    // A directory with something in it is not written into.
    std::fs::create_dir(root.join("taken")).unwrap();
    std::fs::write(root.join("taken/notes.txt"), "mine\n").unwrap();
    new(&["cardjitsu", "taken"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "taken already exists and is not empty",
        ));
    assert_eq!(listing(&root.join("taken")), ["notes.txt"]);
    // Nor is a file replaced.
    std::fs::write(root.join("file"), "mine\n").unwrap();
    new(&["cardjitsu", "file"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "file already exists and is not a directory",
        ));
    assert_eq!(
        std::fs::read_to_string(root.join("file")).unwrap(),
        "mine\n"
    );

    // A name that breaks the bot name rule, with the rule.
    new(&["cardjitsu", "my bot"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "\"my bot\" is not a valid bot name",
        ))
        .stderr(predicate::str::contains("letters, digits"));
    // An unknown language, with the known ones.
    new(&["royale", "walker", "--lang", "cobol"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("cobol"))
        .stderr(predicate::str::contains("python, c, node, rust, sh"));
    // A parent that does not exist is not made.
    new(&["royale", "walker", "--dir", "no/such/walker"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("no/such does not exist"));
    assert_eq!(listing(root), ["file", "taken"], "nothing was written");

    // An empty directory is filled, and nothing is left beside it.
    std::fs::create_dir(root.join("empty")).unwrap();
    new(&["royale", "walker", "--dir", "empty", "--lang", "sh"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "created royale bot `walker` (sh) in ./empty/",
        ))
        .stdout(predicate::str::contains("./empty/bot.sh"));
    assert_eq!(listing(&root.join("empty")), ["bot.sh", "bot.toml"]);
    assert!(
        std::fs::read_to_string(root.join("empty/bot.toml"))
            .unwrap()
            .contains("name = \"walker\"")
    );
    assert_eq!(listing(root), ["empty", "file", "taken"]);

    // The default language is Python, the default directory ./NAME.
    new(&["cardjitsu", "pybot"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "next: dojo match cardjitsu ./pybot random-py",
        ));
    assert_eq!(listing(&root.join("pybot")), ["bot.py", "bot.toml"]);
    // A language by another of its names.
    new(&["cardjitsu", "jsbot", "--lang", "js"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(node)"));
    assert_eq!(listing(&root.join("jsbot")), ["bot.js", "bot.toml"]);
}

/// `dojo new --help` is enough on its own: every language, the defaults,
/// what is refused and an example.
#[test]
fn the_help_names_every_language_the_defaults_and_the_refusals() {
    let out = dojo().args(["new", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = stdout_of(&out);
    for needle in [
        "Usage: dojo new [OPTIONS] <GAME> <NAME>",
        "cardjitsu, royale",
        "python:",
        "c:",
        "node:",
        "rust:",
        "sh:",
        "[default: python]",
        "default: ./NAME",
        "is not empty",
        "bot name rule",
        "dojo new royale walker --lang rust",
    ] {
        assert!(help.contains(needle), "no {needle:?} in:\n{help}");
    }
}

/// Every starter's `bot.toml` is a sound manifest, whatever toolchains
/// this machine has: a folder of all of them lists each as ok (`dojo bots`
/// builds and runs nothing), for the game it names.
#[test]
fn every_starter_is_an_ok_entry_of_a_folder_of_submissions() {
    let tmp = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for game in ["cardjitsu", "royale"] {
        for lang in ["python", "c", "node", "rust", "sh"] {
            let name = format!("{game}-{lang}");
            new_bot(tmp.path(), game, &name, lang);
            names.push((name, game));
        }
    }
    let out = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .arg("bots")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let listing = stdout_of(&out);
    for (name, game) in names {
        let line = listing
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name.as_str()))
            .unwrap_or_else(|| panic!("{name} not listed:\n{listing}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1..3], ["ok", game], "{line}");
    }
}

/// The sh starters of both games, run by `sh` (dash here, whose arithmetic
/// saturates above 2^63 - 1), play different games for different seeds,
/// the large ones too: seeds are uniform over 64 bits, so half of them are
/// above 2^63.
#[test]
fn sh_starters_play_different_games_for_seeds_above_two_to_the_63() {
    if !have("sh", "sh starters") {
        return;
    }
    let seeds = ["12345", "9300000000000000000", "12000000000000000000"];
    for (game, input) in [
        ("cardjitsu", cardjitsu_hands(8)),
        ("royale", royale_turns(8)),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        new_bot(tmp.path(), game, "seeded", "sh");
        let dir = tmp.path().join("seeded");
        let input_file = tmp.path().join("input.txt");
        std::fs::write(&input_file, input).unwrap();
        let games: Vec<String> = seeds
            .iter()
            .map(|seed| {
                let out = std::process::Command::new("sh")
                    .arg("bot.sh")
                    .current_dir(&dir)
                    .env("DOJO_SEED", seed)
                    .stdin(std::fs::File::open(&input_file).unwrap())
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{game} {seed}: {}", stderr_of(&out));
                stdout_of(&out)
            })
            .collect();
        for (i, a) in games.iter().enumerate() {
            for (j, b) in games.iter().enumerate().skip(i + 1) {
                assert_ne!(
                    a, b,
                    "{game}: seeds {} and {} play the same moves",
                    seeds[i], seeds[j]
                );
            }
        }
    }
}

/// A CardJitsu game's input as player 1 with `n` hands of five cards.
fn cardjitsu_hands(n: usize) -> String {
    let mut text = String::from("1\n");
    for _ in 0..n {
        text.push_str("FyA,Wo5,SgA,Fg8,Wp4\nFyA vs. Wo5: 1 wins!\n");
    }
    text.push_str("Player 1 wins!\n");
    text
}

/// `n` royale turns on a board where the bot, in the middle, can move or
/// fight in every direction.
fn royale_turns(n: usize) -> String {
    "RPS\nSRP\nPSR\n\n1\n1\n".repeat(n)
}

/// A bundled bot's name is refused: `./random-py` would then be found
/// first for a bare `random-py`, so the match `dojo new` suggests would
/// play the new bot against itself. Nothing is written.
#[test]
fn a_bundled_bots_name_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    dojo()
        .current_dir(tmp.path())
        .args(["new", "cardjitsu", "random-py", "--lang", "sh"])
        .assert()
        .code(3)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "random-py is the name of a bot in the bots directory",
        ))
        .stderr(predicate::str::contains("against itself"))
        .stderr(predicate::str::contains("such as my-random-py"));
    assert!(listing(tmp.path()).is_empty(), "{:?}", listing(tmp.path()));
}

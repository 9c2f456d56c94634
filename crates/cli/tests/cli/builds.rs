//! Builds seen from the command line: a hostile `build` line run by
//! `dojo match` reads none of dojo's environment (a fake `SECRET_TOKEN`),
//! cannot change its neighbour's program, and with `--build-network off`
//! reaches no listener on the host's loopback. The attack is
//! `bots/hostile/build_attack.py`; run outside dojo it reaches all three
//! (the first test shows it), so each check can fail. And a build step,
//! run on every `dojo match`, says it built only when it changed the bot.

use std::path::{Path, PathBuf};

use dojo_testkit::cli::{GENEROUS, dojo, stderr_of};
use dojo_testkit::paths::bots_dir;

/// What the machine offers, from `dojo doctor` (`name  yes|no ...`).
fn have(layer: &str) -> bool {
    let out = dojo().arg("doctor").output().expect("dojo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let found = text.lines().any(|l| {
        let mut words = l.split_whitespace();
        words.next() == Some(layer) && words.next() == Some("yes")
    });
    if !found {
        eprintln!("skipped: no {layer} here");
    }
    found
}

/// A folder with an attacker (its build is the attack, its command an
/// honest random bot) and a victim whose program is the canary; the
/// attacker's directory and the canary.
fn folder(root: &Path, port: u16) -> (PathBuf, PathBuf) {
    let attacker = root.join("attacker");
    let victim = root.join("victim");
    std::fs::create_dir_all(&attacker).unwrap();
    std::fs::create_dir_all(&victim).unwrap();
    for (from, to) in [
        ("hostile/build_attack.py", "build_attack.py"),
        ("faulty/random_ok.py", "random_ok.py"),
    ] {
        std::fs::copy(bots_dir().join(from), attacker.join(to)).unwrap();
    }
    let canary = victim.join("program");
    std::fs::write(&canary, "original\n").unwrap();
    std::fs::write(
        attacker.join("bot.toml"),
        format!(
            "command = \"python3 random_ok.py\"\n\
             build = [\"python3\", \"build_attack.py\", {:?}, \"{port}\", \"SECRET_TOKEN\"]\n",
            canary.display().to_string()
        ),
    )
    .unwrap();
    (attacker, canary)
}

fn reached(attacker: &Path) -> Vec<String> {
    std::fs::read_to_string(attacker.join("reached.txt"))
        .expect("the build wrote its report")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// `dojo match cardjitsu attacker random-py` with SECRET_TOKEN in dojo's
/// environment and `extra` flags.
fn match_with(attacker: &Path, extra: &[&str]) -> std::process::Output {
    dojo()
        .env("SECRET_TOKEN", "hunter2")
        .args(["match", "cardjitsu"])
        .arg(attacker)
        .arg(format!(
            "rnd=python3 {}",
            bots_dir().join("faulty/random_ok.py").display()
        ))
        .args(GENEROUS)
        .args(extra)
        .output()
        .expect("dojo runs")
}

#[test]
fn a_build_sees_no_secret_and_cannot_change_another_bot() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let (attacker, canary) = folder(tmp.path(), listener.local_addr().unwrap().port());
    // Outside dojo, with the secret in its environment, it reaches all.
    let status = std::process::Command::new("python3")
        .args(["build_attack.py", &canary.display().to_string()])
        .arg(listener.local_addr().unwrap().port().to_string())
        .arg("SECRET_TOKEN")
        .current_dir(&attacker)
        .env("SECRET_TOKEN", "hunter2")
        .env("DOJO_CACHE", tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    let got = reached(&attacker);
    assert!(
        ["canary", "secret", "network"]
            .iter()
            .all(|r| got.contains(&r.to_string())),
        "{got:?}"
    );
    assert!(listener.accept().is_ok());
    std::fs::write(&canary, "original\n").unwrap();

    let out = match_with(&attacker, &[]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let got = reached(&attacker);
    assert!(!got.contains(&"secret".to_owned()), "{got:?}");
    assert!(got.contains(&"own-directory".to_owned()), "{got:?}");
    assert!(got.contains(&"cache".to_owned()), "{got:?}");
    // The network is on unless --build-network off.
    assert!(got.contains(&"network".to_owned()), "{got:?}");
    if have("landlock") {
        assert!(!got.contains(&"canary".to_owned()), "{got:?}");
        assert_eq!(std::fs::read_to_string(&canary).unwrap(), "original\n");
    }
    let _ = std::fs::remove_dir_all(dojo_runner::bot_cache(&attacker.canonicalize().unwrap()));
}

#[test]
fn build_network_off_reaches_no_listener_or_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let (attacker, _) = folder(tmp.path(), listener.local_addr().unwrap().port());
    let out = match_with(&attacker, &["--build-network", "off"]);
    let stderr = stderr_of(&out);
    if !have("network-namespace") && !have("landlock-network") {
        assert!(!out.status.success());
        assert!(stderr.contains("--build-network off"), "{stderr}");
        // The failed step is named with how it ran.
        assert!(stderr.contains("without the network"), "{stderr}");
        return;
    }
    assert!(out.status.success(), "{stderr}");
    let got = reached(&attacker);
    assert!(!got.contains(&"network".to_owned()), "{got:?}");
    assert!(listener.accept().is_err(), "the listener saw the build");
    let _ = std::fs::remove_dir_all(dojo_runner::bot_cache(&attacker.canonicalize().unwrap()));
}

#[test]
fn an_unknown_build_network_setting_is_refused() {
    let out = dojo()
        .args([
            "match",
            "cardjitsu",
            "sensei",
            "random-py",
            "--build-network",
            "maybe",
        ])
        .output()
        .expect("dojo runs");
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("maybe"), "{}", stderr_of(&out));
}

#[test]
fn doctor_says_how_builds_are_confined_and_how_the_network_is_cut() {
    let out = dojo().arg("doctor").output().expect("dojo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("builds (a bot.toml's `build`)"))
        .unwrap_or_else(|| panic!("no builds line:\n{text}"));
    assert!(line.contains("--build-network off"), "{line}");
}

/// A CardJitsu bot whose build step copies its script into its build
/// cache as its program: a build that does the same work every time, but
/// changes the bot only when the script changed.
fn copying_bot(root: &Path) -> PathBuf {
    let bot = root.join("copier");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(
        bot.join("bot.sh"),
        "#!/bin/sh\nwhile IFS= read -r line; do case \"$line\" in *,*) echo 0 ;; esac; done\n",
    )
    .unwrap();
    std::fs::write(
        bot.join("build.sh"),
        "cp bot.sh \"$DOJO_CACHE/bot\" && chmod +x \"$DOJO_CACHE/bot\"\n",
    )
    .unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "command = \"$DOJO_CACHE/bot\"\n\
         build = \"sh build.sh\"\n\
         games = [\"cardjitsu\"]\n",
    )
    .unwrap();
    bot
}

/// `dojo match cardjitsu BOT random-sh`, which must succeed: its stderr.
fn match_stderr(bot: &Path) -> String {
    let out = dojo()
        .args(["match", "cardjitsu", "-q"])
        .arg(bot)
        .arg("random-sh")
        .args(GENEROUS)
        .output()
        .expect("dojo runs");
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// A build step runs on every `dojo match`, but only one that changed
/// the bot says it built it: a second run with nothing changed claims no
/// build, and a changed script is built (and said to be) again.
#[test]
fn only_a_build_that_changed_the_bot_says_it_built() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = copying_bot(tmp.path());
    let cache = dojo_runner::bot_cache(&bot.canonicalize().unwrap());
    let _ = std::fs::remove_dir_all(&cache);

    let first = match_stderr(&bot);
    let again = match_stderr(&bot);
    let mut script = std::fs::read_to_string(bot.join("bot.sh")).unwrap();
    script.push_str("# a change\n");
    std::fs::write(bot.join("bot.sh"), script).unwrap();
    let changed = match_stderr(&bot);
    for claim in ["building", "built"] {
        assert!(!again.contains(claim), "nothing changed, yet:\n{again}");
    }
    assert!(first.contains("built copier in "), "{first}");
    assert!(changed.contains("built copier in "), "{changed}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// A bot in `parent/NAME` whose build step is `build` and whose command
/// never runs (the build fails first).
fn failing_bot(parent: &Path, name: &str, build: &str) -> PathBuf {
    let bot = parent.join(name);
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.sh"), "read line\n").unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        format!("name = \"{name}\"\ncommand = \"sh bot.sh\"\nbuild = {build:?}\n"),
    )
    .unwrap();
    bot
}

/// `dojo match cardjitsu BOT random-py`, which must fail: its stderr.
fn failed_match(bot: &Path) -> String {
    let out = dojo()
        .args(["match", "cardjitsu"])
        .arg(bot)
        .arg("random-py")
        .output()
        .expect("dojo runs");
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    stderr
}

/// A failed build's first line says it failed, with how it was run: not
/// "ran NAME's build step", which reads as a success before the error.
#[test]
fn a_failed_build_says_it_failed_first() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = failing_bot(tmp.path(), "breaks", "sh -c 'echo oops >&2; exit 1'");
    let stderr = failed_match(&bot);
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first, "breaks's build step failed (sh -c echo oops >&2; exit 1)",
        "{stderr}"
    );
    assert!(!stderr.contains("ran breaks"), "{stderr}");
    assert!(stderr.contains("oops"), "{stderr}");
}

/// A build that fails reading a file outside what a confined build may
/// read (a path dependency outside the bot's directory, here a file `cat`
/// reads) gets "Permission denied" from the confinement: the error then
/// says what a build may read and how to give it the file.
#[test]
fn a_build_denied_a_file_outside_its_reach_is_told_what_a_build_may_read() {
    if !have("landlock") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("engine");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("Cargo.toml"), "[package]\n").unwrap();
    let read = format!("cat {}", outside.join("Cargo.toml").display());
    let bot = failing_bot(&tmp.path().join("bots"), "reader", &read);
    let stderr = failed_match(&bot);
    assert!(stderr.contains("Permission denied"), "{stderr}");
    let hint = stderr
        .lines()
        .find(|l| l.starts_with("hint: "))
        .unwrap_or_else(|| panic!("no hint: {stderr}"));
    for said in [
        "a build runs confined",
        "the bot's own directory",
        "copy it into the bot's directory",
        "git",
        "docs/sandbox.md",
    ] {
        assert!(hint.contains(said), "{said:?} not in {hint}");
    }
    // A build that fails otherwise gets no such hint.
    let bot = failing_bot(tmp.path(), "breaks", "sh -c 'exit 1'");
    assert!(!failed_match(&bot).contains("hint:"));
}

/// A build step that runs over a second (so it is named) and changes only
/// what the bot's build cache holds, not a file its command names (the
/// command runs `$DOJO_CACHE/lib/play.sh` through `sh -c`): it said "the
/// program it runs is unchanged" of a bot it had just changed. Now it
/// says it built the bot, and says "unchanged" only of a step that
/// changed none of the bot's files.
#[test]
fn a_slow_build_that_changed_only_its_cache_says_it_built() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = tmp.path().join("slow");
    std::fs::create_dir_all(&bot).unwrap();
    let play = |card: u8| {
        format!("while IFS= read -r line; do case \"$line\" in *,*) echo {card} ;; esac; done\n")
    };
    std::fs::write(bot.join("play.sh"), play(0)).unwrap();
    std::fs::write(
        bot.join("build.sh"),
        "sleep 1.5\nmkdir -p \"$DOJO_CACHE/lib\"\ncp play.sh \"$DOJO_CACHE/lib/play.sh\"\n",
    )
    .unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "command = [\"sh\", \"-c\", \". \\\"$0/lib/play.sh\\\"\", \"$DOJO_CACHE\"]\n\
         build = \"sh build.sh\"\n\
         games = [\"cardjitsu\"]\n",
    )
    .unwrap();
    let cache = tmp.path().join("cache");
    let run = || {
        let out = dojo()
            .env("XDG_CACHE_HOME", &cache)
            .args(["match", "cardjitsu", "-q", "--max-rounds", "3"])
            .arg(&bot)
            .arg("random-sh")
            .args(GENEROUS)
            .output()
            .expect("dojo runs");
        let stderr = stderr_of(&out);
        assert!(out.status.success(), "{stderr}");
        stderr
    };
    let first = run();
    assert!(first.contains("built slow in "), "{first}");
    std::fs::write(bot.join("play.sh"), play(1)).unwrap();
    let changed = run();
    assert!(changed.contains("built slow in "), "{changed}");
    assert!(!changed.contains("unchanged"), "{changed}");
    let again = run();
    assert!(
        again.contains("slow's build step finished in ")
            && again.contains("changed none of the bot's files"),
        "{again}"
    );
    assert!(!again.contains("built slow"), "{again}");
}

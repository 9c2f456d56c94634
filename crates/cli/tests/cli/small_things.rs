//! The smaller things a new user trips over: exact 64-bit seeds in JSON,
//! a merge that would overwrite a shard, counts in words, and a typo in a
//! bot name.

use dojo_testkit::cli::{dojo, random_league, stderr_of, stdout_of, stdout_ok};
use dojo_testkit::paths::root;
use predicates::prelude::*;

const BIG: &str = "8250275021143807264";

#[test]
fn seeds_are_written_as_exact_strings_in_every_json_file() {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("g.json");
    stdout_ok(
        dojo()
            .args([
                "match",
                "cardjitsu",
                "random-py",
                "random-sh",
                "--quiet",
                "--seed",
                BIG,
            ])
            .arg("--json")
            .arg(&json),
    );
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains(&format!("\"seed\":\"{BIG}\"")), "{text}");
    // And it replays: the string is read back exactly.
    stdout_ok(dojo().arg("replay").arg(&json));

    let out = tmp.path().join("l");
    random_league(&out, 2, &["--seed", BIG]);
    for file in ["league.json", "report.json"] {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(
            text.contains(&format!("\"seed\": \"{BIG}\"")),
            "{file}: {text}"
        );
    }
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    for line in games.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let seed = v["seed"].as_str().unwrap();
        assert_eq!(v["record"]["seed"].as_str(), Some(seed));
        seed.parse::<u64>().unwrap();
    }
    // A resume reads the strings back.
    stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
}

#[test]
fn merge_refuses_an_output_that_is_also_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (dir, shard) in [(&a, "1/2"), (&b, "2/2")] {
        stdout_ok(
            dojo()
                .args([
                    "league",
                    "cardjitsu",
                    "random-py",
                    "random-sh",
                    "--games",
                    "2",
                    "--seed",
                    "1",
                ])
                .args(["--shard", shard, "--out"])
                .arg(dir),
        );
    }
    let before = std::fs::read(a.join("games.jsonl")).unwrap();
    dojo()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&a)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("is also an input"));
    assert_eq!(std::fs::read(a.join("games.jsonl")).unwrap(), before);
}

#[test]
fn counts_read_as_words_and_a_typo_gets_a_suggestion() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = tmp.path().join("bots");
    std::fs::create_dir_all(&bots).unwrap();
    let from = root().join("bots/random-py");
    std::fs::create_dir_all(bots.join("random-py")).unwrap();
    for f in ["bot.toml", "bot.py"] {
        std::fs::copy(from.join(f), bots.join("random-py").join(f)).unwrap();
    }
    dojo()
        .arg("--bots-dir")
        .arg(&bots)
        .args(["league", "cardjitsu"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("found 1 bot under"));

    let out = dojo()
        .args(["match", "cardjitsu", "radnom-py", "random-sh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr_of(&out).contains("did you mean \"random-py\"?"),
        "{}",
        stderr_of(&out)
    );
}

/// `.ci/run` with `cargo` (and `id`, so no package is installed) replaced
/// by stubs: each `cargo test` prints two `test result:` lines, the last
/// run's (`DOJO_BOX_MAKER=0`) fails when `fail` is set. Returns the exit status
/// and stdout.
fn ci_run_with_stub_cargo(fail: bool) -> (Option<i32>, String) {
    use std::os::unix::fs::PermissionsExt;
    let stubs = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = stubs.path().join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write("id", "#!/bin/sh\necho 1000\n");
    write(
        "cargo",
        "#!/bin/sh\n[ \"$1\" = test ] || exit 0\n\
         case \" $* \" in *\" --ignored \"*)\n\
         echo 'test slow_one ... ok'\n\
         echo 'test page_only_the_long_tier_builds ... ok'\n\
         echo 'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 11 filtered out; finished in 0.01s'\n\
         exit 0;; esac\n\
         echo 'running 5 tests'\n\
         echo 'test slow_one ... ignored, long tier'\n\
         echo 'test debugging_aid ... ignored, does nothing unless asked'\n\
         echo 'test result: ok. 3 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.01s'\n\
         if [ \"${DOJO_BOX_MAKER:-}\" = 0 ] && [ -n \"${STUB_FAIL:-}\" ]; then\n\
         echo 'test result: FAILED. 10 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'\n\
         exit 101\nfi\n\
         echo 'test result: ok. 10 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s'\n",
    );
    let path = format!(
        "{}:{}",
        stubs.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = std::process::Command::new(root().join(".ci/run"));
    cmd.env("PATH", path).env_remove("CI");
    if fail {
        cmd.env("STUB_FAIL", "1");
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_ci_script_ends_with_one_overall_line_and_keeps_a_failures_status() {
    // Six cargo test runs of two binaries each (78 passed), each
    // ignoring `slow_one` and `debugging_aid`, and the long tier, which
    // runs `slow_one` and a test the fast tier does not build: 80 passed,
    // and one test ran in no tier.
    let (status, stdout) = ci_run_with_stub_cargo(false);
    assert_eq!(status, Some(0), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("80 passed, 0 failed, 1 ignored"),
        "{stdout}"
    );
    // cargo's own lines pass through.
    assert_eq!(stdout.matches("test result: ok.").count(), 13, "{stdout}");
    let (status, stdout) = ci_run_with_stub_cargo(true);
    assert_eq!(status, Some(101), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("80 passed, 1 failed, 1 ignored"),
        "{stdout}"
    );
}

#[test]
fn a_bot_that_cannot_start_is_named_once_in_its_smoke_start_message() {
    let tmp = tempfile::tempdir().unwrap();
    let out = dojo()
        .args([
            "league",
            "cardjitsu",
            "cj=/nonexistent/bot",
            "random-sh",
            "--games",
            "2",
            "--out",
        ])
        .arg(tmp.path().join("l"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(
            "bot cj failed its smoke start: it could not play its smoke game: \
             cannot start [\"/nonexistent/bot\"]: No such file or directory"
        ),
        "{err}"
    );
    // It never ran: nothing is said of its stderr.
    assert!(!err.contains("wrote nothing to stderr"), "{err}");
}

#[test]
fn a_bot_lookup_shows_clean_paths_hints_name_command_and_checks_scripts() {
    let tmp = tempfile::tempdir().unwrap();
    // Run where there is no ./bots: the checkout's bots/ is searched, and
    // shown without `..` in its path.
    let out = dojo()
        .current_dir(tmp.path())
        .env_remove("DOJO_HOME")
        .args(["match", "cardjitsu", "nosuchbot", "random-sh"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("/bots/nosuchbot/bot.toml"), "{err}");
    assert!(!err.contains("/../"), "{err}");

    // A script given as the BOT: the NAME=COMMAND that runs it.
    let script = root().join("bots/random-py/bot.py");
    let out = dojo()
        .args(["match", "cardjitsu"])
        .arg(&script)
        .arg("random-sh")
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&format!(
            "{} is a file: to run a program as a bot, give NAME=COMMAND: `bot=python3 {}`",
            script.display(),
            script.display()
        )),
        "{err}"
    );

    // A manifest whose script is not there is not ok.
    let bots = tmp.path().join("bots");
    for (name, command) in [("noscript", "python3 bot.py"), ("noprogram", "./bot")] {
        std::fs::create_dir_all(bots.join(name)).unwrap();
        std::fs::write(
            bots.join(name).join("bot.toml"),
            format!("command = \"{command}\"\n"),
        )
        .unwrap();
    }
    let listing = stdout_ok(dojo().arg("bots").arg("--bots-dir").arg(&bots));
    for name in ["noscript", "noprogram"] {
        let line = listing
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} listed: {listing}"));
        assert!(line.contains("bad manifest"), "{listing}");
    }
    assert!(
        listing.contains("| bot.toml: its command (python3 bot.py) runs bot.py, which is not in"),
        "{listing}"
    );
    let program = format!(
        "| bot.toml: its command's program {} does not exist",
        bots.join("noprogram/bot").display()
    );
    assert!(listing.contains(&program), "{listing}");
}

#[test]
fn a_crash_on_a_script_the_sandbox_hid_says_so_and_how_to_run_it() {
    let scripts = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let script = scripts.path().join("bot.py");
    std::fs::copy(root().join("bots/random-py/bot.py"), &script).unwrap();
    let spec = format!("n=sh -c 'python3 {}'", script.display());
    let out = dojo()
        .current_dir(cwd.path())
        .args([
            "match",
            "cardjitsu",
            &spec,
            "random-sh",
            "--max-rounds",
            "3",
            "-q",
        ])
        .output()
        .unwrap();
    let (text, err) = (stdout_of(&out), stderr_of(&out));
    if !text.contains("faults: player 1 (n)") {
        assert!(out.status.success(), "{err}");
        eprintln!("skipped: no sandbox hides files here (see dojo doctor)");
        return;
    }
    // The game was played; the bot faulted in it (exit status 4).
    assert_eq!(out.status.code(), Some(4), "{err}");
    let hint = format!(
        "hint: the sandbox hid {} from bot n: a bot sees only its own directory",
        script.display()
    );
    assert!(err.contains(&hint), "{err}");
    let fix = format!("`n=python3 {}`", script.display());
    assert!(err.contains(&fix), "{err}");
    // A league's smoke start says the same.
    let out = dojo()
        .current_dir(cwd.path())
        .args(["league", "cardjitsu", &spec, "random-sh", "--games", "2"])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--out")
        .arg(cwd.path().join("l"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("failed its smoke start") && err.contains(&fix),
        "{err}"
    );
    // The script given to its interpreter is shown to the bot: no crash.
    let direct = format!("n=python3 {}", script.display());
    let out = dojo()
        .current_dir(cwd.path())
        .args([
            "match",
            "cardjitsu",
            &direct,
            "random-sh",
            "--max-rounds",
            "3",
            "-q",
        ])
        .args(dojo_testkit::cli::GENEROUS)
        .output()
        .unwrap();
    assert!(!stdout_of(&out).contains("crash"), "{}", stdout_of(&out));
}

/// random-sh's answers to eight hands under `seed`.
fn random_sh_answers(seed: &str) -> String {
    use std::io::Write;
    let mut bot = std::process::Command::new("sh")
        .arg(dojo_testkit::paths::root().join("bots/random-sh/bot.sh"))
        .env("DOJO_SEED", seed)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = bot.stdin.take().unwrap();
    stdin.write_all("1,2,3\n".repeat(8).as_bytes()).unwrap();
    drop(stdin);
    let out = bot.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_bundled_shell_bot_draws_from_all_of_its_seed() {
    // DOJO_SEED uses all 64 bits; sh's arithmetic saturates above 2^63 - 1
    // (dash), so every seed up there played one and the same game.
    let high = [
        "18446744073709551615",
        "18446744073709551614",
        "9223372036854775808",
    ];
    let answers: Vec<String> = high.iter().map(|s| random_sh_answers(s)).collect();
    assert_ne!(answers[0], answers[1], "{answers:?}");
    assert_ne!(answers[1], answers[2], "{answers:?}");
    // And small seeds, leading zeros among their last nine digits, still
    // differ from each other.
    assert_ne!(random_sh_answers("7"), random_sh_answers("12345"));
    assert_ne!(
        random_sh_answers("1000000007"),
        random_sh_answers("1000000008")
    );
    // Nor do seeds whose last nine digits are the same: the digits before
    // them count too.
    assert_ne!(
        random_sh_answers("9300000000000000000"),
        random_sh_answers("12000000000000000000")
    );
}

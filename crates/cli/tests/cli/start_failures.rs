//! A bot whose program file is there but cannot be run: the error says
//! what is wrong with the file (no execute bit, no `#!` line, a `#!` line
//! naming an interpreter that is not there) and how to fix it, the same
//! with and without the sandbox, and gives the errno's text once.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use dojo_testkit::cli::{dojo, stderr_of};

/// A bot directory whose `bot.toml` runs `./bot.py` (the bundled
/// random-py's program, which plays), its first line replaced by
/// `first_line` (none: removed), with file mode `mode`; the program file.
fn python_bot(dir: &Path, first_line: Option<&str>, mode: u32) -> PathBuf {
    let bot = dojo_testkit::bots::copy_bundled("random-py", dir);
    let file = bot.join("bot.py");
    let text = std::fs::read_to_string(&file).unwrap();
    let (hashbang, rest) = text.split_once('\n').unwrap();
    assert!(hashbang.starts_with("#!"), "{hashbang}");
    let text = match first_line {
        Some(line) => format!("{line}\n{rest}"),
        None => rest.to_owned(),
    };
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
    std::fs::write(
        bot.join("bot.toml"),
        "name = \"plain\"\ncommand = \"./bot.py\"\ngames = [\"cardjitsu\"]\n",
    )
    .unwrap();
    file
}

/// `dojo match cardjitsu BOT random-py` under `--sandbox SANDBOX`, from
/// `cwd`: it must fail as a bot that cannot start (exit 3); its stderr.
fn failed_match(cwd: &Path, bot: &str, sandbox: &str) -> String {
    let out = dojo()
        .current_dir(cwd)
        .args(["match", "cardjitsu", bot, "random-py", "--sandbox", sandbox])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(3), "--sandbox {sandbox}: {err}");
    assert!(err.contains("cannot start"), "--sandbox {sandbox}: {err}");
    err
}

/// `err` holds `errno`'s text exactly once, and `hint`.
fn says_once(err: &str, errno: &str, hint: &str) {
    assert_eq!(err.matches(errno).count(), 1, "{errno} once: {err}");
    assert!(err.contains(hint), "{hint}: {err}");
}

/// A bot whose program file is not executable cannot start: the error
/// says how to fix it, not only "Permission denied", and says that once.
#[test]
fn a_bot_file_that_is_not_executable_is_told_how_to_run_it() {
    let tmp = tempfile::tempdir().unwrap();
    let file = python_bot(
        &tmp.path().join("plain"),
        Some("#!/usr/bin/env python3"),
        0o644,
    );
    let shown = file.display();
    let hint = format!(
        "{shown} is not executable: make it so with `chmod +x {shown}`, or name its \
         interpreter in the bot's command: `python3 bot.py`"
    );
    for sandbox in ["auto", "off"] {
        let err = failed_match(tmp.path(), "./plain", sandbox);
        says_once(&err, "Permission denied", &hint);
    }
}

/// The same for an inline bot (`NAME=./bot.py`), which runs in the
/// current directory.
#[test]
fn an_inline_bot_file_that_is_not_executable_is_told_how_to_run_it() {
    let tmp = tempfile::tempdir().unwrap();
    let file = python_bot(
        &tmp.path().join("plain"),
        Some("#!/usr/bin/env python3"),
        0o644,
    );
    let dir = file.parent().unwrap();
    let shown = file.display();
    let err = failed_match(dir, "x=./bot.py", "auto");
    says_once(
        &err,
        "Permission denied",
        &format!("{shown} is not executable: make it so with `chmod +x {shown}`"),
    );
    // Given by its path from another directory, the command suggested
    // names it from where the bot runs (it said `python3 bot.py`, which
    // finds no such file there).
    let err = failed_match(tmp.path(), &format!("x={shown}"), "auto");
    says_once(
        &err,
        "Permission denied",
        "interpreter in the bot's command: `python3 plain/bot.py`",
    );
}

/// An executable script without a `#!` line is refused with that said,
/// with and without the sandbox: without it, dojo does not hand the file
/// to `/bin/sh` (which would run the Python file as a shell script and
/// crash on its first line), as `execve` in a box does not.
#[test]
fn a_script_without_a_hashbang_line_is_told_it_needs_one() {
    let tmp = tempfile::tempdir().unwrap();
    let file = python_bot(&tmp.path().join("plain"), None, 0o755);
    let shown = file.display();
    let hint = format!(
        "{shown} has no `#!` line and is not a binary, so it cannot be run by itself: make its \
         first line `#!/usr/bin/env python3`, or name its interpreter in the bot's command: \
         `python3 bot.py`"
    );
    for sandbox in ["auto", "off"] {
        let err = failed_match(tmp.path(), "./plain", sandbox);
        says_once(&err, "Exec format error", &hint);
    }
}

/// A `#!` line naming an interpreter that does not exist fails with "No
/// such file or directory", which is said of the interpreter, not of the
/// bot's file; one ending in a carriage return (a file saved with Windows
/// line endings) is told so.
#[test]
fn a_hashbang_naming_a_missing_interpreter_is_not_taken_for_a_missing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let file = python_bot(
        &tmp.path().join("plain"),
        Some("#!/nonexistent/python9"),
        0o755,
    );
    let shown = file.display();
    for sandbox in ["auto", "off"] {
        let err = failed_match(tmp.path(), "./plain", sandbox);
        says_once(
            &err,
            "No such file or directory",
            &format!(
                "{shown} exists, but the interpreter its `#!` line names, `/nonexistent/python9`, \
                 does not: make its first line `#!/usr/bin/env python3`"
            ),
        );
    }
    let crlf = python_bot(&tmp.path().join("crlf"), Some("#!/bin/sh\r"), 0o755);
    let err = failed_match(tmp.path(), "./crlf", "auto");
    says_once(
        &err,
        "No such file or directory",
        &format!(
            "its `#!` line ends in a carriage return (Windows line endings), so the interpreter \
             it names is `/bin/sh\\r`, which does not exist: save it with Unix line endings \
             (`sed -i 's/\\r$//' {}`)",
            crlf.display()
        ),
    );
}

/// `dojo check` shows the same: the bot's games fail with what is wrong
/// with its file.
#[test]
fn check_says_what_is_wrong_with_a_bot_file_that_cannot_start() {
    let tmp = tempfile::tempdir().unwrap();
    let file = python_bot(&tmp.path().join("plain"), None, 0o755);
    let out = dojo()
        .current_dir(tmp.path())
        .args(["check", "cardjitsu", "./plain"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr_of(&out)
    );
    assert!(!out.status.success(), "{text}");
    let hint = format!("{} has no `#!` line", file.display());
    assert!(text.contains(&hint), "{text}");
    for line in text.lines().filter(|l| l.contains(&hint)) {
        assert_eq!(line.matches("Exec format error").count(), 1, "{line}");
    }
}

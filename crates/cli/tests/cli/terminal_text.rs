//! Text a bot controls reaches the organiser's terminal with its control
//! characters escaped: a hostile bot's stderr (before a crash, in its
//! smoke start, from its build) and its `bot.toml`'s `description` cannot
//! retitle the window, write the clipboard or move the cursor to erase
//! the standings, and its bidirectional formatting characters cannot
//! make a name or a file read as another. `dojo bots`, a league of the
//! folder, `dojo match` and `dojo replay --stderr` show the escapes
//! instead.

use std::path::Path;

use dojo_testkit::cli::{GENEROUS, dojo, stderr_of, stdout_of};
use dojo_testkit::paths::bots_dir;

/// What the hostile bots write: a window title (OSC 0), the clipboard
/// (OSC 52), the cursor up and the screen below erased (CSI), a C1 CSI
/// (U+009B, in UTF-8), a lone carriage return and a right-to-left
/// override (U+202E) that makes `gnp.exe` read as `exe.png`.
const HOSTILE: &str = "\x1b]0;PWNED\x07\x1b]52;c;SGVsbG8=\x07\x1b[30A\x1b[J\u{9b}2Jforged  1  winner\rover \u{202e}gnp.exe";
/// [`HOSTILE`] as dojo shows it.
const SHOWN: &str = "\\x1b]0;PWNED\\x07\\x1b]52;c;SGVsbG8=\\x07\\x1b[30A\\x1b[J\\u{9b}2Jforged  1  winner\\x0dover \\u{202e}gnp.exe";
/// A folder entry whose name reads as `random-py` where the right-to-left
/// override is obeyed (its name is not a valid bot name: it is listed,
/// not played).
const REVERSED_DIR: &str = "\u{202e}yp-modnar";
/// [`REVERSED_DIR`] as dojo shows it.
const REVERSED_SHOWN: &str = "\\u{202e}yp-modnar";

/// A folder of two bots that play (`alice`, and `shouty`, which writes
/// [`HOSTILE`] to stderr before it crashes on its third move and has it in
/// its description), one that writes it and exits at once (`dud`, which
/// fails its smoke start), one whose build writes it and fails
/// (`badbuild`) and [`REVERSED_DIR`].
fn hostile_folder(root: &Path) {
    let random = std::fs::read_to_string(bots_dir().join("random-py/bot.py")).unwrap();
    let entry = |dir: &str, files: &[(&str, &str)]| {
        let dir = root.join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
    };
    // HOSTILE as the body of a string literal, in Python and in TOML
    // alike (`\u001b`): the files hold no control character themselves.
    let literal = HOSTILE
        .chars()
        .map(|c| match c {
            c if c.is_ascii_graphic() || c == ' ' => c.to_string(),
            c => format!("\\u{:04x}", u32::from(c)),
        })
        .collect::<String>();
    let write_hostile =
        format!("sys.stderr.buffer.write(\"{literal}\\n\".encode()); sys.stderr.flush()");
    let cardjitsu = "command = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n";
    entry("alice", &[("bot.toml", cardjitsu), ("bot.py", &random)]);
    // Answers two hands and crashes on the third (as
    // `bots/faulty/crash_third.py` does), so it passes its smoke start.
    let shouty = format!(
        r#"import sys
answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered == 2:
            {write_hostile}
            sys.exit(1)
        print(answered, flush=True)
        answered += 1
"#
    );
    entry(
        "shouty",
        &[
            (
                "bot.toml",
                &format!("{cardjitsu}description = \"hi {literal}\"\n"),
            ),
            ("bot.py", &shouty),
        ],
    );
    entry(
        "dud",
        &[
            ("bot.toml", cardjitsu),
            (
                "bot.py",
                &format!("import sys\n{write_hostile}\nsys.exit(1)\n"),
            ),
        ],
    );
    // `printf` reads the escapes itself: the bot.toml holds none.
    let build = format!(
        "{cardjitsu}build = [\"sh\", \"-c\", \"printf '\\\\033]0;BUILD-TITLE\\\\007\\\\033[2J oops\\\\n' >&2; exit 1\"]\n"
    );
    entry("badbuild", &[("bot.toml", &build), ("bot.py", &random)]);
    entry(
        REVERSED_DIR,
        &[("bot.toml", cardjitsu), ("bot.py", &random)],
    );
}

/// Asserts that `bytes` (a stream of `what`) hold no ESC, BEL, C1 CSI,
/// carriage return or right-to-left override: nothing of the bots'
/// reached the terminal raw.
fn assert_clean(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    for (bad, name) in [
        ('\x1b', "ESC"),
        ('\x07', "BEL"),
        ('\u{9b}', "CSI"),
        ('\r', "CR"),
        ('\u{202e}', "RLO"),
    ] {
        assert!(!text.contains(bad), "{what} holds a raw {name}:\n{text:?}");
    }
}

#[test]
fn bots_shows_a_description_with_its_control_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let out = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .arg("bots")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_clean(&out.stdout, "stdout");
    assert_clean(&out.stderr, "stderr");
    let text = stdout_of(&out);
    assert!(text.contains(&format!("hi {SHOWN}")), "{text}");
    assert!(text.contains(&format!("{REVERSED_SHOWN} ")), "{text}");
}

#[test]
fn a_league_shows_the_bots_stderr_with_its_control_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let out_dir = tempfile::tempdir().unwrap();
    let run = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .args(["league", "cardjitsu", "--games", "2", "-j", "1"])
        .args(GENEROUS)
        .arg("--out")
        .arg(out_dir.path().join("l"))
        .output()
        .unwrap();
    let (out, err) = (stdout_of(&run), stderr_of(&run));
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert_clean(&run.stdout, "stdout");
    assert_clean(&run.stderr, "stderr");
    // shouty's first crash, with what it wrote before it.
    assert!(out.contains("shouty: first crash"), "{out}");
    assert!(out.contains(&format!("    | {SHOWN}")), "{out}");
    // dud's smoke start and badbuild's build, among the entries not played.
    assert!(err.contains(&format!("|   {SHOWN}")), "{err}");
    assert!(
        err.contains("|   \\x1b]0;BUILD-TITLE\\x07\\x1b[2J oops"),
        "{err}"
    );
    // The entry named to read as `random-py`, among the entries not played.
    assert!(err.contains(&format!("{REVERSED_SHOWN} ")), "{err}");
}

#[test]
fn match_and_replay_show_the_bots_stderr_with_its_control_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let record = tmp.path().join("game.json");
    let played = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .args(["match", "cardjitsu", "shouty", "alice", "--seed", "1"])
        .args(["--keep-stderr", "--json"])
        .arg(&record)
        .args(GENEROUS)
        .output()
        .unwrap();
    assert!(record.is_file(), "{}", stderr_of(&played));
    assert_clean(&played.stdout, "match stdout");
    assert_clean(&played.stderr, "match stderr");
    let text = stdout_of(&played);
    assert!(text.contains(&format!("    | {SHOWN}")), "{text}");

    let replayed = dojo()
        .arg("replay")
        .arg(&record)
        .arg("--stderr")
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{}", stderr_of(&replayed));
    assert_clean(&replayed.stdout, "replay stdout");
    let text = stdout_of(&replayed);
    assert!(text.contains(&format!("P1 stderr| {SHOWN}")), "{text}");
}

/// Named on the command line, a bot that fails its smoke start stops the
/// league, and one whose build fails stops the match: their messages
/// quote the bot's stderr escaped too.
#[test]
fn a_named_bots_smoke_start_and_build_are_shown_with_control_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    hostile_folder(tmp.path());
    let out_dir = tempfile::tempdir().unwrap();
    let league = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .args(["league", "cardjitsu", "dud", "alice", "--games", "2"])
        .args(GENEROUS)
        .arg("--out")
        .arg(out_dir.path().join("l"))
        .output()
        .unwrap();
    let err = stderr_of(&league);
    assert_eq!(league.status.code(), Some(3), "{err}");
    assert_clean(&league.stdout, "league stdout");
    assert_clean(&league.stderr, "league stderr");
    assert!(err.contains("bot dud failed its smoke start"), "{err}");
    assert!(err.contains(&format!("  | {SHOWN}")), "{err}");

    let built = dojo()
        .arg("--bots-dir")
        .arg(tmp.path())
        .args(["match", "cardjitsu", "badbuild", "alice"])
        .output()
        .unwrap();
    let err = stderr_of(&built);
    assert_eq!(built.status.code(), Some(3), "{err}");
    assert_clean(&built.stdout, "match stdout");
    assert_clean(&built.stderr, "match stderr");
    assert!(
        err.contains("\\x1b]0;BUILD-TITLE\\x07\\x1b[2J oops"),
        "{err}"
    );
}

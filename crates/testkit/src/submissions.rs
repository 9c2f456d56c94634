//! A folder of CardJitsu submissions with one entry of every kind a folder
//! can hold (`dojo bots --bots-dir`, `dojo league GAME --bots-dir`): three
//! that play and one of each way an entry is left out.

use std::path::Path;

use crate::paths::bots_dir;

/// The entries [`write_folder`] writes, by directory name, with the
/// status a CardJitsu league gives each (`report.json`'s `excluded`
/// statuses; `ok` for the ones it plays; [`OTHER_GAME`] for the one it
/// leaves out quietly, as meant for another game, and does not record).
pub const ENTRIES: [(&str, &str); 14] = [
    // A bot.toml and the bundled random Python bot.
    ("alice", "ok"),
    // No bot.toml: its single bot.py is taken.
    ("carol", "ok"),
    // A bot.toml without `games`: it plays, as it passes the smoke start.
    ("dave", "ok"),
    // `comand` and a bad `mode`: two errors, on lines 1 and 2.
    ("bad-toml", "bad-manifest"),
    // No bot.toml and two scripts: nothing obvious to run.
    ("loose", "no-manifest"),
    // A royale bot: not for a CardJitsu league, and no failure.
    ("royale-only", OTHER_GAME),
    // A game dojo does not know (a typo of `cardjitsu`).
    ("typo-game", "wrong-game"),
    // A build that writes its error to stdout (as `tsc` does) and fails.
    ("tsc-like", "build-failed"),
    // Exits at once with a Python traceback on stderr.
    ("crashy", "smoke-failed"),
    // Directory names that break the name rule.
    ("my bot", "bad-name"),
    ("weird:name", "bad-name"),
    // Two entries whose bot.toml give them one name.
    ("zz-twin", "bad-name"),
    ("zz-twin-2", "bad-name"),
    // A symbolic link to the bundled random Python bot, outside the
    // folder: not followed, so not played as a submission.
    ("zz-link", "symlink"),
];

/// The status in [`ENTRIES`] of an entry a league leaves out quietly
/// because its `bot.toml` names only other games: not one of
/// `report.json`'s statuses, as it is not recorded there.
pub const OTHER_GAME: &str = "other-game";

/// The error line the build of `tsc-like` writes to its stdout.
pub const BUILD_ERROR: &str = "src/bot.ts(3,5): error TS2322: Type 'string' is not assignable";
/// The line `crashy` writes to its stderr.
pub const CRASH_LINE: &str = "ImportError: No module named 'numpy'";

/// Writes the folder of [`ENTRIES`] into `root` (and a `README.md`,
/// which is not an entry).
pub fn write_folder(root: &Path) {
    let random = std::fs::read_to_string(bots_dir().join("random-py/bot.py"))
        .expect("the bundled random bot");
    let entry = |dir: &str, files: &[(&str, &str)]| {
        let dir = root.join(dir);
        std::fs::create_dir_all(&dir).expect("create an entry");
        for (name, text) in files {
            std::fs::write(dir.join(name), text).expect("write an entry's file");
        }
    };
    let cardjitsu = "command = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n";
    entry("alice", &[("bot.toml", cardjitsu), ("bot.py", &random)]);
    entry("carol", &[("bot.py", &random), ("NOTES.txt", "mine")]);
    entry(
        "dave",
        &[
            ("bot.toml", "command = \"python3 bot.py\"\n"),
            ("bot.py", &random),
        ],
    );
    entry(
        "bad-toml",
        &[
            (
                "bot.toml",
                "comand = \"python3 bot.py\"\nmode = \"sometimes\"\ngames = [\"cardjitsu\"]\n",
            ),
            ("bot.py", &random),
        ],
    );
    entry("loose", &[("a.py", &random), ("b.py", &random)]);
    entry(
        "royale-only",
        &[
            (
                "bot.toml",
                "command = \"python3 bot.py\"\ngames = [\"royale\"]\n",
            ),
            ("bot.py", &random),
        ],
    );
    entry(
        "typo-game",
        &[
            (
                "bot.toml",
                "command = \"python3 bot.py\"\ngames = [\"cardjitsuu\"]\n",
            ),
            ("bot.py", &random),
        ],
    );
    let build = format!(
        "command = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n\
         build = [\"sh\", \"-c\", \"echo compiling >&2; echo \\\"{BUILD_ERROR}\\\"; exit 2\"]\n"
    );
    entry("tsc-like", &[("bot.toml", &build), ("bot.py", &random)]);
    let crash = format!("import sys\nsys.stderr.write(\"{CRASH_LINE}\\n\")\nsys.exit(1)\n");
    entry("crashy", &[("bot.toml", cardjitsu), ("bot.py", &crash)]);
    entry("my bot", &[("bot.py", &random)]);
    entry(
        "weird:name",
        &[("bot.toml", cardjitsu), ("bot.py", &random)],
    );
    let twin = "name = \"twin\"\ncommand = \"python3 bot.py\"\n";
    entry("zz-twin", &[("bot.toml", twin), ("bot.py", &random)]);
    entry("zz-twin-2", &[("bot.toml", twin), ("bot.py", &random)]);
    std::os::unix::fs::symlink(bots_dir().join("random-py"), root.join("zz-link"))
        .expect("link an entry");
    std::fs::write(root.join("README.md"), "submissions\n").expect("write the README");
}

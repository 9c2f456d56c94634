//! A folder of bots (a bots directory, or an organiser's folder of
//! submissions): every entry in it, each loaded or with the reason it
//! cannot be. The runner knows no game: whether a bot plays the game, builds
//! and starts is found out above it (`dojo`'s `submissions.rs`).
//!
//! An entry is a directory directly in the folder (a symbolic link to one
//! is an entry that does not load: [`EntryProblem::Symlink`]); hidden
//! entries (`.git`) are not entries, nor are the names the folder's
//! [`IGNORE_FILE`] lists ([`Folder::ignored`]: test bots kept
//! beside the real ones, an archive), and files are listed apart
//! ([`Folder::files`]). A directory is loaded from its `bot.toml`;
//! without one, a single obvious script is taken ([`obvious_script`]).

use std::path::{Path, PathBuf};

use crate::manifest::{ManifestError, ManifestProblem, check_name};
pub use crate::script::{SCRIPTS, obvious_script};
use crate::spec::{BotSpec, MANIFEST_FILE, SpecError, load_any};

/// The file in a folder of bots that names directories which are not
/// entries: one name per line, `#` starting a comment.
pub const IGNORE_FILE: &str = ".dojoignore";

/// Everything in a folder of bots.
#[derive(Debug, Default)]
pub struct Folder {
    /// Its directories, by name.
    pub entries: Vec<Entry>,
    /// The names of the files directly in it (not entries), sorted.
    pub files: Vec<String>,
    /// The names its [`IGNORE_FILE`] lists, sorted (whether or not they
    /// are there).
    pub ignored: Vec<String>,
}

/// One directory of the folder.
#[derive(Debug)]
pub struct Entry {
    /// Its name in the folder.
    pub dir_name: String,
    /// Its path: the folder's joined with `dir_name`.
    pub dir: PathBuf,
    /// Its bot's name when it has one (also when another entry's bot
    /// has it too), else `dir_name`.
    pub name: String,
    /// The bot, or why there is none.
    pub outcome: Result<Loaded, EntryProblem>,
}

/// An entry that loaded.
#[derive(Debug)]
pub struct Loaded {
    pub bot: BotSpec,
    /// Without a `bot.toml`: the file taken as the bot (`bot.py`).
    pub script: Option<String>,
}

/// Why an entry holds no bot.
#[derive(Debug)]
pub enum EntryProblem {
    /// The directory's name breaks the name rule ([`check_name`]), or the
    /// bot's name is another entry's too ([`scan`] says which keeps it).
    BadName(String),
    /// Its `bot.toml` has errors (every one of them) or cannot be read.
    BadManifest(ManifestError),
    /// No `bot.toml` and no single obvious script: why none was taken.
    NoManifest(String),
    /// The entry is a symbolic link to a directory, not a directory of the
    /// folder: what it points to. It is not followed: a link would enter
    /// (and build) a bot from anywhere the organiser's account can read,
    /// another entry or a bundled bot, as a submission of its own.
    Symlink(String),
}

/// Every entry of `folder`, sorted by directory name, each loaded or with
/// its problem. A directory's name is a bot's name (the league stores it,
/// `--resume` and the recorded command look the bot up by it), so it must
/// follow the name rule even when its `bot.toml` names the bot. Of the
/// entries that claim one name (a bot that loaded its bot's name, an entry
/// that did not its directory's), the one whose directory has the name
/// keeps it and the others get [`EntryProblem::BadName`]; when none has,
/// all the bots claiming it do (neither is more right than the other). An
/// error only when the folder cannot be read.
pub fn scan(folder: &Path) -> Result<Folder, SpecError> {
    let read = std::fs::read_dir(folder).map_err(|source| SpecError::Read {
        file: folder.to_path_buf(),
        source,
    })?;
    let mut out = Folder {
        ignored: ignored(folder)?,
        ..Folder::default()
    };
    for item in read.flatten() {
        let dir_name = item.file_name().to_string_lossy().into_owned();
        if dir_name.starts_with('.') || out.ignored.contains(&dir_name) {
            continue;
        }
        let dir = item.path();
        // `is_dir` follows a link; the entry's own type does not.
        let link = item.file_type().is_ok_and(|t| t.is_symlink());
        if !dir.is_dir() {
            out.files.push(dir_name);
            continue;
        }
        let outcome = if link {
            Err(EntryProblem::Symlink(symlink_reason(&dir)))
        } else {
            match check_name(&dir_name) {
                Err(why) => Err(EntryProblem::BadName(format!(
                    "the directory's name {why}; rename the directory"
                ))),
                Ok(()) => load(&dir),
            }
        };
        let name = match &outcome {
            Ok(loaded) => loaded.bot.name.clone(),
            Err(_) => dir_name.clone(),
        };
        out.entries.push(Entry {
            dir_name,
            dir,
            name,
            outcome,
        });
    }
    out.files.sort();
    out.entries.sort_by(|a, b| a.dir_name.cmp(&b.dir_name));
    mark_duplicates(&mut out.entries);
    Ok(out)
}

/// Why the symbolic link `path` is no entry, naming what it points to.
fn symlink_reason(path: &Path) -> String {
    let target = std::fs::read_link(path)
        .map_or_else(|_| "a directory".to_owned(), |t| t.display().to_string());
    format!(
        "it is a symbolic link to {target}, not a directory of the folder; a submission is a directory in the folder (copy it in, or remove the link)"
    )
}

/// The names `folder`'s [`IGNORE_FILE`] lists (none without one), read
/// up to the manifest cap.
fn ignored(folder: &Path) -> Result<Vec<String>, SpecError> {
    let file = folder.join(IGNORE_FILE);
    if !file.is_file() {
        return Ok(Vec::new());
    }
    let text = crate::input::read_text_capped(&file, crate::input::MANIFEST_CAP, "an ignore file")
        .map_err(|source| SpecError::Read { file, source })?;
    let mut names: Vec<String> = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_owned())
        .filter(|name| !name.is_empty())
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// One entry's bot, or its problem.
fn load(dir: &Path) -> Result<Loaded, EntryProblem> {
    match load_any(dir) {
        Ok((bot, script)) => match script.is_none().then(|| missing_file(&bot)).flatten() {
            // A manifest whose command cannot run is not an ok entry.
            Some(why) => Err(EntryProblem::BadManifest(ManifestError {
                file: dir.join(MANIFEST_FILE),
                problems: vec![ManifestProblem {
                    line: 0,
                    column: 0,
                    message: why,
                }],
            })),
            None => Ok(Loaded { bot, script }),
        },
        Err(SpecError::Manifest(e)) => Err(EntryProblem::BadManifest(e)),
        Err(SpecError::NoManifest { reason, .. }) => Err(EntryProblem::NoManifest(reason)),
        Err(SpecError::BadName { message, .. }) => Err(EntryProblem::BadName(message)),
        // Shown under the manifest's name: the message need not repeat it.
        Err(SpecError::NotRegular { file, kind }) => {
            Err(EntryProblem::BadManifest(ManifestError {
                file,
                problems: vec![ManifestProblem {
                    line: 0,
                    column: 0,
                    message: format!("{kind}, not a regular file"),
                }],
            }))
        }
        Err(other) => Err(EntryProblem::BadManifest(ManifestError {
            file: dir.join(MANIFEST_FILE),
            problems: vec![ManifestProblem {
                line: 0,
                column: 0,
                message: other.to_string(),
            }],
        })),
    }
}

/// The interpreters whose first word that is not an option is the script
/// they run (as in [`SCRIPTS`], and their usual other names).
const INTERPRETERS: [&str; 7] = ["python3", "python", "node", "sh", "bash", "ruby", "perl"];

/// Why the command of `bot`, loaded from its manifest, cannot run: its
/// program given as a path that does not exist, or the script an
/// interpreter is told to run missing from the bot's directory. `None`
/// when it may run, and for a bot with a build step, which may make
/// either. Code given to the interpreter (`-c`, `-m`, `-e`) is not looked
/// into.
pub fn missing_file(bot: &BotSpec) -> Option<String> {
    if bot.build.is_some() {
        return None;
    }
    let (program, args) = bot.command.split_first()?;
    if program.contains('/') {
        // Shown without the `./` its anchoring may have kept.
        let shown: std::path::PathBuf = Path::new(program).components().collect();
        return (!Path::new(program).exists())
            .then(|| format!("its command's program {} does not exist", shown.display()));
    }
    if !INTERPRETERS.contains(&program.as_str())
        || args
            .iter()
            .any(|w| ["-c", "-m", "-e"].contains(&w.as_str()))
    {
        return None;
    }
    let script = args.iter().find(|w| !w.starts_with('-'))?;
    (!bot.dir.join(script).exists()).then(|| {
        format!(
            "its command ({}) runs {script}, which is not in {}",
            bot.command.join(" "),
            bot.dir.display()
        )
    })
}

/// Entries that claim one name: the bots that loaded claim their bots'
/// names, and an entry that did not load its directory's (it is listed,
/// and recorded as left out, under it). On a clash the entry whose
/// directory has the name keeps it: directory names are unique in a
/// folder, and the organiser's `--resume`, the recorded command and `dojo
/// match NAME` look a name up as a directory. The others get a
/// [`EntryProblem::BadName`] naming it, so an entry cannot knock another
/// out by taking its name. When no claimant's directory has the name,
/// every bot claiming it gets one (neither is more right than the
/// other). A directory's name counts for its own entry only: `bob/` may
/// name its bot `carol` when `carol/`'s bot is named otherwise.
fn mark_duplicates(entries: &mut [Entry]) {
    let mut by_name: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, e) in entries.iter().enumerate() {
        let claim = match &e.outcome {
            Ok(loaded) => &loaded.bot.name,
            Err(_) => &e.dir_name,
        };
        by_name.entry(claim.clone()).or_default().push(i);
    }
    for (name, at) in by_name.into_iter().filter(|(_, at)| at.len() > 1) {
        let owner = at.iter().find(|&&i| entries[i].dir_name == name).copied();
        let dirs: Vec<String> = at.iter().map(|&i| entries[i].dir_name.clone()).collect();
        for &i in at.iter().filter(|&&i| Some(i) != owner) {
            let why = match owner {
                Some(o) => format!(
                    "its bot.toml names it {name:?}, which is the name of the entry {}/ (that entry keeps it; change `name` in this bot.toml)",
                    entries[o].dir_name
                ),
                None => {
                    let others: Vec<&str> = dirs
                        .iter()
                        .filter(|d| **d != entries[i].dir_name)
                        .map(String::as_str)
                        .collect();
                    format!(
                        "its bot is named {name:?}, like the bot of {}, and no entry's directory is named {name}; bot names must be unique (change `name` in a bot.toml, or rename a directory)",
                        others.join(", ")
                    )
                }
            };
            entries[i].outcome = Err(EntryProblem::BadName(why));
        }
    }
}

/// Every bot of the folder `bots_dir` that loads ([`scan`]
/// says why the others do not), sorted by name.
pub fn discover(bots_dir: &Path) -> Result<Vec<BotSpec>, SpecError> {
    let mut bots: Vec<BotSpec> = scan(bots_dir)?
        .entries
        .into_iter()
        .filter_map(|e| e.outcome.ok())
        .map(|loaded| loaded.bot)
        .collect();
    bots.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.dir.cmp(&b.dir)));
    Ok(bots)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, files: &[(&str, &str)]) {
        std::fs::create_dir_all(dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }

    /// Each entry of the folder at `root` as `dir: ok NAME` or `dir: bad
    /// name` (the other problems as `dir: other`).
    fn outcomes(root: &Path) -> Vec<String> {
        scan(root)
            .unwrap()
            .entries
            .iter()
            .map(|e| match &e.outcome {
                Ok(l) => format!("{}: ok {}", e.dir_name, l.bot.name),
                Err(EntryProblem::BadName(_)) => format!("{}: bad name", e.dir_name),
                Err(EntryProblem::Symlink(_)) => format!("{}: link", e.dir_name),
                Err(_) => format!("{}: other", e.dir_name),
            })
            .collect()
    }

    /// The reason of the entry `dir` of the folder at `root`, which has a
    /// bad name.
    fn bad_name(root: &Path, dir: &str) -> String {
        let folder = scan(root).unwrap();
        let entry = folder.entries.iter().find(|e| e.dir_name == dir).unwrap();
        match &entry.outcome {
            Err(EntryProblem::BadName(why)) => why.clone(),
            other => panic!("{dir}: {other:?}"),
        }
    }

    /// An entry named as it is in `bot.toml` (`None`: after its
    /// directory).
    fn named(root: &Path, dir: &str, name: Option<&str>) {
        let toml = match name {
            Some(name) => format!("name = \"{name}\"\ncommand = \"python3 bot.py\"\n"),
            None => "command = \"python3 bot.py\"\n".to_owned(),
        };
        write(&root.join(dir), &[("bot.toml", &toml), ("bot.py", "")]);
    }

    /// A link in the folder to a directory, inside it or out, is listed
    /// but not followed: its bot is not loaded (nor built, nor played) as
    /// an entry of its own, and it claims no bot's name. A link to a file
    /// is a file, as before.
    #[test]
    fn a_symbolic_link_entry_is_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("subs");
        named(&root, "alice", None);
        named(&tmp.path().join("sensei"), "sensei", None);
        std::os::unix::fs::symlink("../sensei", root.join("zz-sensei-link")).unwrap();
        std::os::unix::fs::symlink("alice", root.join("alice-link")).unwrap();
        std::os::unix::fs::symlink("alice/bot.py", root.join("file-link")).unwrap();
        assert_eq!(
            outcomes(&root),
            [
                "alice: ok alice",
                "alice-link: link",
                "zz-sensei-link: link"
            ]
        );
        let folder = scan(&root).unwrap();
        assert_eq!(folder.files, ["file-link"]);
        let Err(EntryProblem::Symlink(why)) = &folder.entries[2].outcome else {
            panic!("{:?}", folder.entries[2].outcome)
        };
        assert!(
            why.contains("a symbolic link to ../sensei, not a directory of the folder"),
            "{why}"
        );
        assert_eq!(discover(&root).unwrap().len(), 1);
    }

    /// The name squat: an entry whose bot.toml takes the name of another
    /// entry's directory does not knock that entry out with it.
    #[test]
    fn a_bot_named_after_another_entrys_directory_gives_way_to_that_entry() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        named(root, "alice", None);
        named(root, "bob", None);
        named(root, "mallory-x", Some("alice"));
        // Named after its own directory in its bot.toml: the same claim.
        named(root, "zed", Some("zed"));
        named(root, "zed-copy", Some("zed"));
        assert_eq!(
            outcomes(root),
            [
                "alice: ok alice",
                "bob: ok bob",
                "mallory-x: bad name",
                "zed: ok zed",
                "zed-copy: bad name",
            ]
        );
        let why = bad_name(root, "mallory-x");
        assert!(
            why.contains("its bot.toml names it \"alice\", which is the name of the entry alice/"),
            "{why}"
        );
        assert!(bad_name(root, "zed-copy").contains("the entry zed/"));
    }

    /// An entry that does not load is still listed under its directory's
    /// name: another entry's bot cannot take that name while it is out.
    #[test]
    fn an_entry_that_does_not_load_keeps_its_directorys_name() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(&root.join("alice"), &[("bot.toml", "comand = \"x\"\n")]);
        write(&root.join("carol"), &[("a.py", ""), ("b.py", "")]);
        named(root, "bob", None);
        named(root, "mallory-x", Some("alice"));
        named(root, "mallory-y", Some("carol"));
        assert_eq!(
            outcomes(root),
            [
                "alice: other",
                "bob: ok bob",
                "carol: other",
                "mallory-x: bad name",
                "mallory-y: bad name",
            ]
        );
        assert!(bad_name(root, "mallory-y").contains("the entry carol/"));
    }

    /// A directory's name counts for its own entry only: `bob/` may name
    /// its bot `carol` when `carol/`'s bot is named otherwise, and when no
    /// entry of a clash is named after its directory, all of them are
    /// left out (neither is more right than the other).
    #[test]
    fn a_directorys_name_counts_only_for_its_own_entry() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        named(root, "alice", None);
        named(root, "bob", Some("carol"));
        named(root, "carol", Some("alice"));
        named(root, "twin-a", Some("twin"));
        named(root, "twin-b", Some("twin"));
        assert_eq!(
            outcomes(root),
            [
                "alice: ok alice",
                "bob: ok carol",
                "carol: bad name",
                "twin-a: bad name",
                "twin-b: bad name",
            ]
        );
        assert!(bad_name(root, "carol").contains("the entry alice/"));
        let why = bad_name(root, "twin-a");
        assert!(why.contains("like the bot of twin-b"), "{why}");
        assert!(why.contains("no entry's directory is named twin"), "{why}");
    }

    #[test]
    fn the_ignore_file_takes_directories_out_of_the_folder() {
        let folder = tempfile::tempdir().unwrap();
        for dir in ["tests", "old", "real"] {
            write(&folder.path().join(dir), &[("bot.py", "print(0)\n")]);
        }
        std::fs::write(
            folder.path().join(IGNORE_FILE),
            "# test bots\ntests\n  old  # an archive\n\nmissing\n",
        )
        .unwrap();
        let scanned = scan(folder.path()).unwrap();
        let names: Vec<&str> = scanned
            .entries
            .iter()
            .map(|e| e.dir_name.as_str())
            .collect();
        assert_eq!(names, ["real"]);
        assert_eq!(scanned.ignored, ["missing", "old", "tests"]);
    }

    #[test]
    fn a_manifest_whose_script_or_program_is_missing_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::write(dir.join("here.py"), "").unwrap();
        let bot = |command: &[&str], build: bool| BotSpec {
            name: "x".into(),
            command: command.iter().map(|w| (*w).to_owned()).collect(),
            dir: dir.to_path_buf(),
            build: build.then(|| vec!["make".to_owned()]),
            mode: crate::Mode::Auto,
            games: Vec::new(),
            team: None,
            description: None,
            values: crate::BotValues::default(),
        };
        let missing = |command: &[&str]| missing_file(&bot(command, false));
        assert_eq!(missing(&["python3", "-u", "here.py"]), None);
        assert!(
            missing(&["python3", "-u", "gone.py"])
                .unwrap()
                .contains("runs gone.py")
        );
        let absent = dir.join("gone").display().to_string();
        assert!(missing(&[&absent]).unwrap().contains("does not exist"));
        // Code given inline, a program on PATH, or a build that may make
        // the file: nothing to check.
        assert_eq!(missing(&["python3", "-m", "gone"]), None);
        assert_eq!(missing(&["sh", "-c", "exec gone"]), None);
        assert_eq!(missing(&["java", "Gone"]), None);
        assert_eq!(missing_file(&bot(&["python3", "gone.py"], true)), None);
    }

    #[test]
    fn scan_gives_every_directory_a_bot_or_a_problem() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        write(
            &root.join("good"),
            &[
                ("bot.toml", "command = \"python3 bot.py\"\n"),
                ("bot.py", ""),
            ],
        );
        write(&root.join("script"), &[("bot.py", "")]);
        write(
            &root.join("broken"),
            &[("bot.toml", "comand = \"x\"\nmode = 3\n")],
        );
        write(&root.join("empty"), &[]);
        write(&root.join("my bot"), &[("bot.py", "")]);
        write(
            &root.join("twin-a"),
            &[("bot.toml", "name = \"twin\"\ncommand = \"x\"\n")],
        );
        write(
            &root.join("twin-b"),
            &[("bot.toml", "name = \"twin\"\ncommand = \"y\"\n")],
        );
        write(&root.join(".git"), &[]);
        std::fs::write(root.join("README.md"), "").unwrap();

        let folder = scan(root).unwrap();
        assert_eq!(folder.files, ["README.md"]);
        let show: Vec<(String, String)> = folder
            .entries
            .iter()
            .map(|e| {
                let what = match &e.outcome {
                    Ok(l) => format!("ok {} {:?}", l.bot.name, l.script),
                    Err(EntryProblem::BadName(_)) => "bad name".into(),
                    Err(EntryProblem::BadManifest(m)) => {
                        format!("bad manifest {}", m.problems.len())
                    }
                    Err(EntryProblem::NoManifest(_)) => "no manifest".into(),
                    Err(EntryProblem::Symlink(_)) => "link".into(),
                };
                (e.dir_name.clone(), what)
            })
            .collect();
        let expected = [
            ("broken", "bad manifest 2"),
            ("empty", "no manifest"),
            ("good", "ok good None"),
            ("my bot", "bad name"),
            ("script", "ok script Some(\"bot.py\")"),
            ("twin-a", "bad name"),
            ("twin-b", "bad name"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(show, expected);
        let Err(EntryProblem::BadName(why)) = &folder.entries[5].outcome else {
            unreachable!()
        };
        assert!(why.contains("like the bot of twin-b"), "{why}");
        let Err(EntryProblem::BadName(why)) = &folder.entries[3].outcome else {
            unreachable!()
        };
        assert!(why.contains("\"my bot\" is not a valid bot name"), "{why}");
        // The script's bot runs it from its directory.
        let Ok(script) = &folder.entries[4].outcome else {
            unreachable!()
        };
        assert_eq!(script.bot.command, ["python3", "bot.py"]);
        assert!(script.bot.games.is_empty());
    }
}

//! The words of the commands dojo prints or writes for playing again (a
//! replay page's `dojo match`, the compare page's command): one
//! definition of how such a command names a bot and a file, so that it
//! works when pasted in any directory. (A league's own command, in its
//! `report.json`, is `dojo_league::command`'s, from the specs the league
//! stored the same way: `crate::cmd::league`'s `stored_spec`.)

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dojo_games::SeatInfo;

/// The BOT word that names, from any directory, the bot `name` that ran
/// `command` in `dir`:
/// - its name, when it is the bot of that name in the bots directory
///   dojo finds from any directory (`$DOJO_HOME/bots`, else the
///   checkout's: [`crate::home::everywhere_bots_dir`]), as the bundled
///   bots are;
/// - else `NAME=DIR`, DIR absolute ([`dojo_runner::named_dir_spec`]),
///   for a bot directory (one with a `bot.toml`, or one run from its
///   single obvious script): a bot given by a relative path, or found in
///   a `--bots-dir` of its own, or whose directory is not named as it is;
/// - else (an inline `NAME=COMMAND` bot, its program made absolute when
///   it was resolved) `NAME=COMMAND`.
///
/// A record that does not say where its bot ran (`dir` is `None`, from an
/// older dojo) gives only its name.
pub fn bot_word(name: &str, dir: Option<&Path>, command: &[String]) -> String {
    let Some(dir) = dir else {
        return name.to_owned();
    };
    let dir = crate::output::absolute(dir);
    let everywhere = crate::home::everywhere_bots_dir()
        .filter(|_| dojo_runner::is_valid_name(name))
        .map(|bots| crate::output::absolute(&bots.join(name)));
    if everywhere.as_deref() == Some(dir.as_path()) {
        return name.to_owned();
    }
    let named = dojo_runner::named_dir_spec(name, &dir);
    let is_bot_dir = dir.join(dojo_runner::MANIFEST_FILE).is_file()
        || dojo_runner::resolve(&named, &dir).is_ok_and(|bot| bot.command == command);
    if is_bot_dir {
        named
    } else {
        format!("{name}={}", dojo_league::view::shell_line(command))
    }
}

/// [`bot_word`] of each seat of games that share their bots (a league's),
/// each distinct bot worked out once.
#[derive(Default)]
pub struct SeatWords(RefCell<HashMap<BotKey, String>>);

/// A seat's bot as [`bot_word`] tells bots apart: its name, directory and
/// command.
type BotKey = (String, Option<String>, Vec<String>);

impl SeatWords {
    /// The BOT word of each seat, in seat order.
    pub fn of(&self, seats: &[SeatInfo]) -> Vec<String> {
        seats.iter().map(|s| self.one(s)).collect()
    }

    fn one(&self, seat: &SeatInfo) -> String {
        let key = (seat.bot.clone(), seat.dir.clone(), seat.command.clone());
        if let Some(word) = self.0.borrow().get(&key) {
            return word.clone();
        }
        let word = bot_word(&seat.bot, seat.dir.as_deref().map(Path::new), &seat.command);
        self.0.borrow_mut().insert(key, word.clone());
        word
    }
}

/// `path` as a command run from any directory names it: absolute, but
/// for stdout (`-`).
pub fn path_word(path: &Path) -> String {
    if crate::output::is_stdout(path) {
        return path.display().to_string();
    }
    crate::output::absolute(path).display().to_string()
}

/// The command line `argv` (`dojo compare ...`, as run; `cli` its
/// parser) made to work from any directory: each BOT argument that
/// `bots` maps (the spec as given, to its [`bot_word`]) replaced, and each
/// value of a flag that names a path (a `PathBuf` flag: `--bots-dir`,
/// `--deck1`, `--board`, `--json`...) absolute when it exists or is an
/// output ([`path_word`]).
pub fn command_line(
    cli: &clap::Command,
    argv: &[String],
    bots: &[(String, String)],
) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(argv.len());
    let mut scope: Vec<&clap::Command> = vec![cli];
    // The flag whose values come next, and whether it takes several.
    let mut pending: Option<(&clap::Arg, bool)> = None;
    let mut positional_only = false;
    let mut words = argv.iter();
    out.extend(words.next().cloned());
    for word in words {
        let flag_like = !positional_only && word.starts_with('-') && word != "-";
        if let Some((arg, many)) = pending {
            if !flag_like {
                out.push(value_word(arg, word, bots));
                pending = many.then_some((arg, true));
                continue;
            }
            pending = None;
        }
        if flag_like && word == "--" {
            positional_only = true;
            out.push(word.clone());
        } else if flag_like {
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) => (flag, Some(value)),
                None => (word.as_str(), None),
            };
            match (find_arg(&scope, flag), inline) {
                (Some(arg), Some(value)) => {
                    out.push(format!("{flag}={}", value_word(arg, value, bots)));
                }
                // `-j4`, a short flag with its value attached, names no
                // path; `--flag VALUE` and `-j VALUE` take the next words.
                (Some(arg), None)
                    if arg.get_action().takes_values()
                        && (flag.starts_with("--") || flag.len() == 2) =>
                {
                    let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
                    pending = Some((arg, many));
                    out.push(word.clone());
                }
                _ => out.push(word.clone()),
            }
        } else if let Some(sub) = scope.last().and_then(|c| c.find_subcommand(word)) {
            // A subcommand's name: its own flags from here on.
            scope.push(sub);
            out.push(word.clone());
        } else {
            out.push(bot_or_word(word, bots));
        }
    }
    out
}

/// The flag `flag` (`--json`, `-j`; a run of short flags by its first)
/// of the innermost command of `scope` that has it (global flags are the
/// outermost's).
fn find_arg<'c>(scope: &[&'c clap::Command], flag: &str) -> Option<&'c clap::Arg> {
    let found = |cmd: &'c clap::Command| -> Option<&'c clap::Arg> {
        if let Some(long) = flag.strip_prefix("--") {
            return cmd.get_arguments().find(|a| a.get_long() == Some(long));
        }
        let short = flag.strip_prefix('-')?.chars().next()?;
        cmd.get_arguments().find(|a| a.get_short() == Some(short))
    };
    scope.iter().rev().find_map(|cmd| found(cmd))
}

/// A flag's value `word`, as a command run from any directory gives it:
/// a path absolute ([`path_word`]) when the flag takes a path and the
/// path exists or is an output (a deck or board given by name stays as
/// it is); a bot of `bots` by its word.
fn value_word(arg: &clap::Arg, word: &str, bots: &[(String, String)]) -> String {
    let is_path = arg.get_value_parser().type_id() == std::any::TypeId::of::<PathBuf>();
    let is_output = (crate::outputs::Format::ALL.iter()).any(|f| f.id() == arg.get_id().as_str());
    if is_path && (is_output || Path::new(word).exists()) {
        return path_word(Path::new(word));
    }
    bot_or_word(word, bots)
}

/// `word`, or its BOT word when it is one of `bots`' specs.
fn bot_or_word(word: &str, bots: &[(String, String)]) -> String {
    bots.iter()
        .find(|(spec, _)| spec == word)
        .map_or_else(|| word.to_owned(), |(_, replaced)| replaced.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(argv: &[&str], bots: &[(&str, &str)]) -> Vec<String> {
        let cli = <crate::args::Cli as clap::CommandFactory>::command();
        let argv: Vec<String> = argv.iter().map(|w| w.to_string()).collect();
        let bots: Vec<(String, String)> = (bots.iter())
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        command_line(&cli, &argv, &bots)
    }

    #[test]
    fn a_command_line_names_its_bots_and_paths_from_anywhere() {
        let tmp = tempfile::tempdir().unwrap();
        let deck = tmp.path().join("d.dcfg");
        std::fs::write(&deck, "").unwrap();
        let deck = deck.display().to_string();
        let here = crate::output::absolute(Path::new("."));
        let at = |name: &str| here.join(name).display().to_string();
        let got = line(
            &[
                "dojo",
                "--bots-dir",
                ".",
                "compare",
                "cardjitsu",
                "./a",
                "b",
                "--deck1",
                &deck,
                "--deck2",
                "standard",
                "--json=out.json",
                "--junit",
                "-",
                "-j4",
                "--third",
                "./c",
                "--board",
                "x.txt",
                "Cargo.toml",
            ],
            &[("./a", "a=/abs/a"), ("./c", "c=/abs/c")],
        );
        let want = [
            "dojo",
            "--bots-dir",
            &here.display().to_string(),
            "compare",
            "cardjitsu",
            "a=/abs/a",
            "b",
            "--deck1",
            &deck,
            "--deck2",
            "standard",
            &format!("--json={}", at("out.json")),
            "--junit",
            "-",
            "-j4",
            "--third",
            "c=/abs/c",
            // A board that is not here stays as given (dojo looks for it
            // elsewhere too); one that is, absolute.
            "--board",
            "x.txt",
            &at("Cargo.toml"),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn a_bot_is_named_by_name_only_where_dojo_finds_it_from_anywhere() {
        let bundled = crate::home::everywhere_bots_dir()
            .unwrap()
            .join("random-py");
        let command = ["python3".to_owned(), "bot.py".to_owned()];
        assert_eq!(bot_word("random-py", Some(&bundled), &command), "random-py");
        // The same directory under another name: NAME=DIR.
        let other = bot_word("other", Some(&bundled), &command);
        assert_eq!(other, dojo_runner::named_dir_spec("other", &bundled));
        // An inline bot, run in a directory that is no bot's: its command.
        let tmp = tempfile::tempdir().unwrap();
        let inline = ["/bin/echo".to_owned(), "a b".to_owned()];
        assert_eq!(
            bot_word("e", Some(tmp.path()), &inline),
            "e=/bin/echo 'a b'"
        );
        // A record that does not say where its bot ran: its name.
        assert_eq!(bot_word("x", None, &command), "x");
    }
}

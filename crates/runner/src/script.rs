//! The script a directory without a `bot.toml` is run as, when one is
//! obvious, and the interpreters of scripts by extension: shared by a
//! single bot's resolution (`spec.rs`) and a folder's scan (`folder.rs`).

use std::path::Path;

/// The scripts a directory without a `bot.toml` may be run as: by file
/// extension, the interpreter that runs it.
pub const SCRIPTS: [(&str, &str); 3] = [("py", "python3"), ("js", "node"), ("sh", "sh")];

/// The file a directory without a `bot.toml` is run as, when one is
/// obvious: its only `bot.py`, `bot.js` or `bot.sh`; else its only script
/// (a file ending in `.py`, `.js` or `.sh`, run by its interpreter of
/// [`SCRIPTS`]) or executable file, if it holds exactly one of those.
/// Hidden files are not looked at. Returns the command (a program with
/// `/` is relative to the directory) and the file's name, or why nothing
/// was taken.
pub fn obvious_script(dir: &Path) -> Result<(Vec<String>, String), String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read it: {e}"))?;
    let mut scripts: Vec<(String, &str)> = Vec::new();
    let mut programs: Vec<String> = Vec::new();
    for item in read.flatten() {
        let Some(name) = item.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        // Following a symbolic link: a link to a script is that script.
        let Ok(meta) = std::fs::metadata(item.path()) else {
            continue;
        };
        if name.starts_with('.') || !meta.is_file() {
            continue;
        }
        let ext = Path::new(&name).extension().and_then(|x| x.to_str());
        match SCRIPTS.iter().find(|(x, _)| Some(*x) == ext) {
            Some(&(_, interpreter)) => scripts.push((name, interpreter)),
            None if is_executable(&meta) => programs.push(name),
            None => {}
        }
    }
    scripts.sort();
    programs.sort();
    let command = |(file, interpreter): &(String, &str)| {
        (vec![(*interpreter).to_owned(), file.clone()], file.clone())
    };
    let named_bot: Vec<&(String, &str)> = scripts
        .iter()
        .filter(|(f, _)| Path::new(f).file_stem().is_some_and(|s| s == "bot"))
        .collect();
    match named_bot.as_slice() {
        [one] => return Ok(command(one)),
        [] => {}
        several => {
            let names: Vec<&str> = several.iter().map(|(f, _)| f.as_str()).collect();
            return Err(format!(
                "no bot.toml, and {} are all there: add a bot.toml whose `command` says which runs the bot",
                names.join(", ")
            ));
        }
    }
    match (scripts.as_slice(), programs.as_slice()) {
        ([one], []) => Ok(command(one)),
        ([], [one]) => Ok((vec![format!("./{one}")], one.clone())),
        ([], []) => Err(
            "no bot.toml, and nothing to run: no bot.py, bot.js or bot.sh, no other script, no executable file; add a bot.toml with the bot's `command`"
                .to_owned(),
        ),
        _ => {
            let all: Vec<&str> = scripts
                .iter()
                .map(|(f, _)| f.as_str())
                .chain(programs.iter().map(String::as_str))
                .collect();
            const SHOWN: usize = 6;
            let more = if all.len() > SHOWN {
                format!(", and {} more", all.len() - SHOWN)
            } else {
                String::new()
            };
            Err(format!(
                "no bot.toml, and no single obvious script: {} candidates ({}{more}); add a bot.toml with the bot's `command`, or name the script bot.py, bot.js or bot.sh",
                all.len(),
                all[..all.len().min(SHOWN)].join(", ")
            ))
        }
    }
}

fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
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

    fn executable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn an_obvious_script_is_taken_and_anything_else_explained() {
        let tmp = tempfile::tempdir().unwrap();
        let case = |name: &str, files: &[(&str, &str)]| {
            let dir = tmp.path().join(name);
            write(&dir, files);
            dir
        };
        let bot_py = case("a", &[("bot.py", ""), ("helper.py", ""), ("README.md", "")]);
        assert_eq!(
            obvious_script(&bot_py).unwrap(),
            (vec!["python3".into(), "bot.py".into()], "bot.py".into())
        );
        let only_js = case("b", &[("player.js", ""), ("notes.txt", "")]);
        assert_eq!(obvious_script(&only_js).unwrap().0, ["node", "player.js"]);
        let program = case("c", &[("run", ""), ("data.bin", "")]);
        executable(&program.join("run"));
        assert_eq!(
            obvious_script(&program).unwrap(),
            (vec!["./run".into()], "run".into())
        );

        let two_bots = case("d", &[("bot.py", ""), ("bot.sh", "")]);
        let why = obvious_script(&two_bots).unwrap_err();
        assert!(why.contains("bot.py, bot.sh are all there"), "{why}");
        let many = case("e", &[("a.py", ""), ("b.py", ""), ("c.sh", "")]);
        let why = obvious_script(&many).unwrap_err();
        assert!(why.contains("3 candidates (a.py, b.py, c.sh)"), "{why}");
        let nothing = case("f", &[("README.md", ""), (".bot.py", "")]);
        let why = obvious_script(&nothing).unwrap_err();
        assert!(why.contains("nothing to run"), "{why}");
    }
}

//! Why a bot's program file would not start, told from the file itself.
//!
//! A start that fails comes back as a bare errno, which for a file that is
//! right there misleads: a script whose `#!` line names a missing
//! interpreter gives "No such file or directory", one without a `#!` line
//! "Exec format error", one without its execute bit "Permission denied".
//! [`hint`] looks at the file (its mode, its first bytes) and says what is
//! wrong with it and how to fix it. It runs on dojo's side after the start
//! failed, so it says the same whether a box's init or dojo itself made
//! the `exec`.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Bytes of a program file read to tell what it is: enough for a `#!`
/// line of any usual length.
const HEAD_BYTES: u64 = 256;

/// What a program file's first bytes show it to be.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    /// A script: the interpreter its `#!` line names (the line's first
    /// word, a carriage return at its end kept).
    Script(String),
    /// An ELF binary.
    Binary,
    /// Text without a `#!` line (or an empty file): `execve` refuses it
    /// (`ENOEXEC`); only a shell would run it, as a shell script.
    Text,
    /// Anything else: some other binary format.
    Other,
}

fn head_of(bytes: &[u8]) -> Head {
    if let Some(line) = bytes.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = String::from_utf8_lossy(line);
        // The kernel splits the line at spaces and tabs only: a carriage
        // return stays part of the interpreter's name.
        let interpreter = line
            .trim_start_matches([' ', '\t'])
            .split([' ', '\t'])
            .next()
            .unwrap_or_default();
        return Head::Script(interpreter.to_owned());
    }
    if bytes.starts_with(b"\x7fELF") {
        Head::Binary
    } else if bytes.contains(&0) {
        Head::Other
    } else {
        Head::Text
    }
}

/// The file `command`'s program names, when it names one by path (a bare
/// name is looked up on PATH: a system program, not a file of the bot's);
/// a relative path is the bot directory's, where it runs. Shown without
/// the `/./` of a manifest's `./bot.sh` made absolute.
fn program_file(command: &[String], dir: &Path) -> Option<PathBuf> {
    let program = command.first()?;
    program
        .contains('/')
        .then(|| dir.join(program).components().collect())
}

/// The first bytes of `file`, if it is a regular file that can be read.
fn read_head(file: &Path) -> Option<Vec<u8>> {
    let mut head = Vec::new();
    std::fs::File::open(file)
        .ok()?
        .take(HEAD_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    Some(head)
}

/// Refuses, as `execve` would (`ENOEXEC`), a program file that is text
/// without a `#!` line. A box's init starts a bot with `execve`, which
/// refuses such a file; dojo's own start goes through the C library's
/// `execvp`, which would hand it to `/bin/sh` instead, so a Python file
/// without its `#!` line would run as a shell script and crash on its
/// first line. Refusing it here gives one answer with or without boxes.
pub(crate) fn refuse_text_without_interpreter(
    command: &[String],
    dir: &Path,
) -> std::io::Result<()> {
    let Some(file) = program_file(command, dir) else {
        return Ok(());
    };
    let Ok(meta) = std::fs::metadata(&file) else {
        return Ok(());
    };
    // A file the kernel would refuse anyway keeps the kernel's errno.
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Ok(());
    }
    match read_head(&file).map(|bytes| head_of(&bytes)) {
        Some(Head::Text) => Err(std::io::Error::from_raw_os_error(libc::ENOEXEC)),
        _ => Ok(()),
    }
}

/// How to fix a start of `bot` that failed with `err`, when the program
/// its command names is a file that exists: a script without its execute
/// bit, or without a `#!` line, or whose `#!` line names an interpreter
/// that is not there. `None` when the file tells nothing more than the
/// errno does (a file that does not exist, a program found on PATH).
pub(crate) fn hint(err: &std::io::Error, bot: &crate::BotSpec) -> Option<String> {
    let file = program_file(&bot.command, &bot.dir)?;
    let meta = std::fs::metadata(&file).ok()?;
    if !meta.is_file() {
        return None;
    }
    // The program as the bot's command would name it where the bot runs
    // (its directory): relative to that directory when it lies in it, else
    // by its whole path, so the suggested command runs as is.
    let name = file.strip_prefix(&bot.dir).unwrap_or(&file).display();
    let interpreter = match file.extension().and_then(|e| e.to_str()) {
        Some("py") => "python3",
        Some("sh") => "sh",
        Some("rb") => "ruby",
        Some("js") => "node",
        Some("pl") => "perl",
        _ => "INTERPRETER",
    };
    let shown = file.display();
    let rerun = format!("or name its interpreter in the bot's command: `{interpreter} {name}`");
    let mode = meta.permissions().mode() & 0o7777;
    match err.raw_os_error() {
        Some(libc::EACCES) => Some(if mode & 0o111 == 0 {
            format!("{shown} is not executable: make it so with `chmod +x {shown}`, {rerun}")
        } else if mode & 0o001 == 0 {
            // Under a seat user the bot is neither the file's owner nor
            // in its group.
            format!(
                "{shown} is executable by its owner only (mode {mode:04o}), and a bot may run \
                 as a user of its own: make it executable by all with `chmod a+x {shown}`, {rerun}"
            )
        } else {
            // Executable, yet refused: a file system mounted `noexec`, say.
            format!("{shown} is executable but was refused: {rerun}")
        }),
        Some(libc::ENOEXEC) => Some(match head_of(&read_head(&file)?) {
            Head::Text => format!(
                "{shown} has no `#!` line and is not a binary, so it cannot be run by itself: \
                 make its first line `#!/usr/bin/env {interpreter}`, {rerun}"
            ),
            Head::Binary | Head::Other => format!(
                "{shown} is not a program this machine can run (a binary built for another \
                 machine or system?)"
            ),
            Head::Script(_) => return None,
        }),
        Some(libc::ENOENT) => match head_of(&read_head(&file)?) {
            Head::Script(named) if named.ends_with('\r') => Some(format!(
                "{shown} exists, but its `#!` line ends in a carriage return (Windows line \
                 endings), so the interpreter it names is `{}\\r`, which does not exist: save it \
                 with Unix line endings (`sed -i 's/\\r$//' {shown}`)",
                named.trim_end_matches('\r')
            )),
            Head::Script(named) if Path::new(&named).exists() => Some(format!(
                "{shown} exists, but the interpreter its `#!` line names, `{named}`, is not \
                 where the bot runs (its sandbox holds the system directories and the \
                 toolchains on PATH): make its first line `#!/usr/bin/env {interpreter}`, {rerun}"
            )),
            Head::Script(named) => Some(format!(
                "{shown} exists, but the interpreter its `#!` line names, `{named}`, does not: \
                 make its first line `#!/usr/bin/env {interpreter}`, {rerun}"
            )),
            Head::Binary => Some(format!(
                "{shown} exists, but the loader it needs (its dynamic linker) does not: a binary \
                 built for another system?"
            )),
            Head::Text | Head::Other => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_first_bytes_tell_script_binary_and_text_apart() {
        assert_eq!(
            head_of(b"#!/usr/bin/env python3\nprint()\n"),
            Head::Script("/usr/bin/env".into())
        );
        assert_eq!(head_of(b"#! /bin/sh -e\n"), Head::Script("/bin/sh".into()));
        assert_eq!(head_of(b"#!/bin/sh\r\n"), Head::Script("/bin/sh\r".into()));
        assert_eq!(head_of(b"\x7fELF\x02\x01\x01\0"), Head::Binary);
        assert_eq!(head_of(b"import sys\n"), Head::Text);
        assert_eq!(head_of(b""), Head::Text);
        assert_eq!(head_of(b"PK\x03\x04\0\0"), Head::Other);
    }

    #[test]
    fn only_a_program_given_by_path_is_a_file_of_the_bot() {
        let dir = Path::new("/bots/b");
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(program_file(&words(&["python3", "bot.py"]), dir), None);
        assert_eq!(
            program_file(&words(&["./bot.py"]), dir),
            Some(PathBuf::from("/bots/b/bot.py"))
        );
        assert_eq!(
            program_file(&words(&["/opt/x/run"]), dir),
            Some(PathBuf::from("/opt/x/run"))
        );
    }

    /// What `execve` refuses is refused the same way before dojo's own
    /// start, which would otherwise run it with `/bin/sh`.
    #[test]
    fn text_without_a_hashbang_is_refused_as_execve_would() {
        let tmp = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str, mode: u32| {
            let path = tmp.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            vec![format!("./{name}")]
        };
        let plain = write("plain.py", "import sys\n", 0o755);
        let err = refuse_text_without_interpreter(&plain, tmp.path()).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOEXEC));
        let script = write("script.py", "#!/usr/bin/env python3\n", 0o755);
        assert!(refuse_text_without_interpreter(&script, tmp.path()).is_ok());
        // Not executable: the kernel's own refusal (EACCES) stands.
        let off = write("off.py", "import sys\n", 0o644);
        assert!(refuse_text_without_interpreter(&off, tmp.path()).is_ok());
        let missing = vec!["./missing.py".to_owned()];
        assert!(refuse_text_without_interpreter(&missing, tmp.path()).is_ok());
        let on_path = vec!["python3".to_owned()];
        assert!(refuse_text_without_interpreter(&on_path, tmp.path()).is_ok());
    }
}

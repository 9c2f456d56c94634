//! Every command's output paths, checked before any work is done: a
//! league of hours must not be lost at its end because its page could not
//! be written, and an output must never overwrite what the command reads
//! or another of its outputs.
//!
//! [`check`] takes the command's outputs and inputs, each named by its
//! flag ([`Named`]), and refuses with a usage error:
//! - an output that cannot be written ([`writable`]): its directory
//!   takes no file or cannot be made (a missing directory is made, as
//!   `--out` makes a league's: `--html results/page.html` works in a
//!   fresh directory), it is a directory, a file another user owns
//!   in a sticky directory (it cannot be replaced), a `/proc` file or a
//!   device that takes no write, a FIFO with no reader (the write would
//!   block for ever; a FIFO with a reader is held open from here on, so
//!   the reader waits for the output rather than seeing an empty one);
//! - an output naming the same file as another output (stdout twice
//!   included) or as an input, or one of a league directory's own files;
//! - an out directory (`--out` of `dojo league` and `dojo merge`) that
//!   cannot be made (its path runs through a file), is a file, or a directory holding anything but no `league.json`
//!   ([`league_dir`]): a league is written into a new or empty directory
//!   or a league's, never beside someone's files.
//!
//! Paths are compared after canonicalising what exists (a missing file by
//! its directory's canonical path). A character device (`/dev/null`) may be
//! named twice: it keeps nothing to overwrite.

use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::output::{self, Target};

/// What a path given on the command line is to the command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A file written or read whole (`--json`, `--html`, a record, a deck).
    File,
    /// A league's out directory (`--out`, `--resume`, `dojo report DIR`):
    /// its own files are its, and no other output may take their place.
    League,
}

/// A path given on the command line, with the flag (or argument name)
/// that gave it, for the messages.
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    pub flag: &'a str,
    pub path: &'a Path,
    pub kind: Kind,
}

impl<'a> Named<'a> {
    /// A file given with `flag`, if it was given.
    pub fn file(flag: &'a str, path: Option<&'a Path>) -> Option<Self> {
        path.map(|path| Named {
            flag,
            path,
            kind: Kind::File,
        })
    }

    /// A league directory given with `flag`, if it was given.
    pub fn league(flag: &'a str, path: Option<&'a Path>) -> Option<Self> {
        path.map(|path| Named {
            flag,
            path,
            kind: Kind::League,
        })
    }

    /// `--html page.html`, as the messages name it.
    fn shown(&self) -> String {
        format!("{} {}", self.flag, self.path.display())
    }
}

/// A league directory's own files: what it reads and writes there.
const LEAGUE_FILES: [&str; 3] = [
    dojo_league::store::LEAGUE_FILE,
    dojo_league::store::GAMES_FILE,
    dojo_league::store::REPORT_FILE,
];

/// Checks `outputs` and `inputs` (see the module docs); `None`s (flags not
/// given) are skipped. When one of the outputs is stdout (`--json -`), what
/// the command prints goes to stderr instead.
pub fn check(outputs: &[Option<Named<'_>>], inputs: &[Option<Named<'_>>]) -> Result<()> {
    let outputs: Vec<Named<'_>> = outputs.iter().flatten().copied().collect();
    let inputs: Vec<Named<'_>> = inputs.iter().flatten().copied().collect();
    conflicts(&outputs, &inputs)?;
    // A league's out directory is made when it starts: a page may go
    // into it.
    let made: Vec<PathBuf> = (outputs.iter())
        .filter(|o| o.kind == Kind::League)
        .map(|o| canonical(o.path))
        .collect();
    let mut to_make = Vec::new();
    for out in &outputs {
        match out.kind {
            Kind::File => to_make.extend(writable(out, &made)?),
            Kind::League => league_dir(out)?,
        }
    }
    // Made only once every output has passed, so a refused command
    // leaves no empty directory behind.
    for (out, dir) in to_make {
        std::fs::create_dir_all(&dir).with_context(|| {
            format!(
                "{}: cannot make the directory {}",
                out.shown(),
                dir.display()
            )
        })?;
    }
    let files: Vec<Option<&Path>> = outputs
        .iter()
        .filter(|o| o.kind == Kind::File)
        .map(|o| Some(o.path))
        .collect();
    output::data_on_stdout(&files);
    Ok(())
}

/// Refuses an output file that [`output::write_file`] could not write;
/// its directory may be one of `made`, made before it is written. A
/// directory of its that is missing is handed back, with the output, to
/// be made: its nearest existing ancestor must be a directory that takes
/// a new entry.
fn writable<'a>(out: &Named<'a>, made: &[PathBuf]) -> Result<Option<(Named<'a>, PathBuf)>> {
    let shown = out.shown();
    match output::target(out.path) {
        Target::Stdout => Ok(None),
        Target::Through(at) => {
            let meta =
                std::fs::metadata(&at).with_context(|| format!("{shown}: cannot be read"))?;
            if meta.is_dir() {
                bail!("{shown}: is a directory; expected a file");
            }
            if meta.file_type().is_fifo() {
                return hold_fifo(out, &at).map(|()| None);
            }
            // A device or a `/proc` file: opened for writing and given an
            // empty write, which a file that takes no write refuses
            // (`/proc/version`: EIO, even for root).
            let probe = std::fs::OpenOptions::new()
                .append(true)
                .open(&at)
                .and_then(|f| empty_write(&f));
            if let Err(e) = probe {
                bail!("{shown}: cannot be written: {e}");
            }
            Ok(None)
        }
        Target::File(file) => {
            let dir = output::parent(&file);
            if !dir.exists() && made.contains(&canonical(dir)) {
                return Ok(None);
            }
            if !dir.is_dir() {
                let base = missing_dir(out, dir)?;
                probe_dir(out, &base)?;
                return Ok(Some((*out, dir.to_owned())));
            }
            probe_dir(out, dir)?;
            if let Some(why) = not_replaceable(&file, dir) {
                bail!("{shown}: cannot be replaced: {why}");
            }
            Ok(None)
        }
    }
}

/// The nearest existing ancestor of `dir`, a missing directory of the
/// output `out`; refused when that is no directory (a file where a
/// directory of the path should be).
fn missing_dir(out: &Named<'_>, dir: &Path) -> Result<PathBuf> {
    use std::io::ErrorKind::{NotADirectory, NotFound};
    let mut at = dir;
    loop {
        match std::fs::metadata(at) {
            Ok(meta) if meta.is_dir() => return Ok(at.to_owned()),
            Ok(_) => bail!(
                "{}: cannot make the directory {}: {} is not a directory",
                out.shown(),
                dir.display(),
                at.display()
            ),
            // Missing, or under a file (ENOTDIR): the ancestor tells.
            Err(e) if !matches!(e.kind(), NotFound | NotADirectory) => bail!(
                "{}: cannot make the directory {}: {}: {e}",
                out.shown(),
                dir.display(),
                at.display()
            ),
            Err(_) => {}
        }
        at = output::parent(at);
    }
}

/// Refuses `dir` when a new file cannot be made in it (tried with a file
/// of its own, removed at once).
fn probe_dir(out: &Named<'_>, dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".dojo-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => bail!("{}: cannot write in {}: {e}", out.shown(), dir.display()),
    }
}

/// An empty write: refused by a file that takes no write at all.
fn empty_write(file: &std::fs::File) -> std::io::Result<()> {
    // `write_all` would skip an empty write; this one is made.
    rustix::io::write(file, &[])?;
    Ok(())
}

/// Why the existing regular file `file` cannot be replaced by a rename in
/// `dir` ([`output::write_file`] writes a new file and renames it over the
/// old one): in a sticky directory (`/tmp`), only the file's owner, the
/// directory's owner or root may.
fn not_replaceable(file: &Path, dir: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    let dir_meta = std::fs::metadata(dir).ok()?;
    let me = rustix::process::geteuid().as_raw();
    sticky_refuses(dir_meta.mode(), dir_meta.uid(), meta.uid(), me).then(|| {
        format!(
            "it belongs to another user (uid {}) in the sticky directory {}",
            meta.uid(),
            dir.display()
        )
    })
}

/// Whether a sticky directory (`mode`, owned by `dir_owner`) keeps the
/// user `me` from replacing a file owned by `file_owner` in it.
fn sticky_refuses(mode: u32, dir_owner: u32, file_owner: u32, me: u32) -> bool {
    const STICKY: u32 = 0o1000;
    mode & STICKY != 0 && me != 0 && file_owner != me && dir_owner != me
}

/// A FIFO output: refused when nobody reads it (opening it to write would
/// block until someone does, for ever after a league's last game); with a
/// reader, held open until the output is written ([`output::hold`]).
fn hold_fifo(out: &Named<'_>, at: &Path) -> Result<()> {
    match std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(at)
    {
        Ok(probe) => {
            output::hold(at, probe);
            Ok(())
        }
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) => bail!(
            "{}: a FIFO that nobody reads (writing it would wait for a reader for ever); start its reader first, or write to a file",
            out.shown()
        ),
        Err(e) => bail!("{}: cannot be written: {e}", out.shown()),
    }
}

/// Refuses an out directory that cannot be made (under a file, or in a
/// directory that takes no new entry), or that exists and is not one a
/// league may be written into: a file, or a directory that holds something but no
/// `league.json` (a folder of submissions, someone's notes). A new or
/// empty directory takes a new league; one holding `league.json` is a
/// league's, whose command decides what to do with it (`dojo league`
/// continues the same league and refuses another one, `dojo merge` adds
/// to an earlier merge of the same league).
fn league_dir(out: &Named<'_>) -> Result<()> {
    if !out.path.exists() {
        // Made when the league starts: its nearest existing ancestor must
        // be a directory that takes a new entry, as for a file's.
        let base = missing_dir(out, out.path)?;
        return probe_dir(out, &base);
    }
    if !out.path.is_dir() {
        bail!(
            "{}: is a file; expected a directory (a new one, or an existing league's)",
            out.shown()
        );
    }
    if out.path.join(dojo_league::store::LEAGUE_FILE).exists() {
        return Ok(());
    }
    let mut names = std::fs::read_dir(out.path)
        .and_then(|dir| {
            dir.map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect::<std::io::Result<Vec<String>>>()
        })
        .with_context(|| format!("{}: cannot be read", out.shown()))?;
    names.retain(|name| !leftover(name));
    if names.is_empty() {
        return Ok(());
    }
    names.sort();
    let names = names.iter().map(|n| format!("{n:?}")).collect();
    bail!(
        "{}: the directory holds {} but no league.json, so it is no league's; expected a new or empty directory, or a league's (one holding league.json, which `dojo league --resume DIR` continues)",
        out.shown(),
        listed(names, 3)
    );
}

/// What a dojo killed while it made an out directory may have left in
/// it before its `league.json`: the file that was to become it
/// (`store::write_atomic`), or this check's own probe. Running the same
/// command again continues.
fn leftover(name: &str) -> bool {
    name == format!(".{}.tmp", dojo_league::store::LEAGUE_FILE) || name.starts_with(".dojo-check-")
}

/// `names` joined, the first `shown` of them and how many more.
fn listed(mut names: Vec<String>, shown: usize) -> String {
    let more = names.len().saturating_sub(shown);
    names.truncate(shown);
    let mut text = names.join(", ");
    if more > 0 {
        text += &format!(" and {more} more");
    }
    text
}

/// Where a path leads, for comparing two of them.
#[derive(PartialEq, Eq, Debug)]
enum Identity {
    Stdout,
    /// A character device (`/dev/null`): any number of outputs may share it.
    Device,
    At(PathBuf),
}

fn identity(path: &Path) -> Identity {
    if output::is_stdout(path) || is_stdout_fd(path) {
        return Identity::Stdout;
    }
    if std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device()) {
        return Identity::Device;
    }
    Identity::At(canonical(path))
}

/// `/dev/fd/1` and `/proc/self/fd/1`: stdout by another name.
fn is_stdout_fd(path: &Path) -> bool {
    path == Path::new("/dev/fd/1") || path == Path::new("/proc/self/fd/1")
}

/// `path` canonicalised where it exists; else its nearest existing
/// ancestor canonicalised, with the rest of the path after it.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut rest = Vec::new();
    let mut at = path.as_path();
    while let Some(parent) = at.parent() {
        if let Some(name) = at.file_name() {
            rest.push(name.to_owned());
        }
        if let Ok(base) = parent.canonicalize() {
            return rest.iter().rev().fold(base, |p, n| p.join(n));
        }
        at = parent;
    }
    path
}

/// The league file of the directory `dir` that `file` is, if it is one
/// (`report.json`, or a log under `stderr/`), or the directory itself.
fn league_file(file: &Path, dir: &Path) -> Option<String> {
    let inside = file.strip_prefix(dir).ok()?;
    let first = inside.components().next();
    match first {
        None => Some("directory itself".to_owned()),
        Some(c) if inside.components().count() == 1 => {
            let name = c.as_os_str().to_string_lossy().into_owned();
            (LEAGUE_FILES.contains(&name.as_str()) || name == dojo_league::stderr_logs::STDERR_DIR)
                .then_some(name)
        }
        Some(c) if c.as_os_str() == dojo_league::stderr_logs::STDERR_DIR => {
            Some(inside.display().to_string())
        }
        Some(_) => None,
    }
}

/// Refuses two outputs that name the same file, an output that names an
/// input, and an output that is one of a league directory's own files.
fn conflicts(outputs: &[Named<'_>], inputs: &[Named<'_>]) -> Result<()> {
    let ids: Vec<Identity> = outputs.iter().map(|o| identity(o.path)).collect();
    for (i, out) in outputs.iter().enumerate() {
        if out.kind != Kind::File {
            continue;
        }
        for (j, other) in outputs.iter().enumerate() {
            if j <= i && other.kind == Kind::File {
                continue;
            }
            match (&ids[i], &ids[j], other.kind) {
                (Identity::Stdout, Identity::Stdout, Kind::File) => bail!(
                    "{} and {} both write to stdout; send one of them to a file",
                    out.shown(),
                    other.shown()
                ),
                (Identity::At(a), Identity::At(b), Kind::File) if a == b => bail!(
                    "{} and {} are the same file; give each output a path of its own",
                    out.shown(),
                    other.shown()
                ),
                (Identity::At(a), Identity::At(dir), Kind::League) => {
                    if let Some(name) = league_file(a, dir) {
                        bail!(
                            "{} is the league's {name} in {}; write it outside the league's own files",
                            out.shown(),
                            other.shown()
                        );
                    }
                }
                _ => {}
            }
        }
        let Identity::At(written) = &ids[i] else {
            continue;
        };
        for input in inputs {
            let Identity::At(read) = identity(input.path) else {
                continue;
            };
            match input.kind {
                Kind::File if *written == read => bail!(
                    "{} is {}, which this command reads; it would be overwritten: write to another file",
                    out.shown(),
                    input.shown()
                ),
                Kind::League => {
                    if let Some(name) = league_file(written, &read) {
                        bail!(
                            "{} is the league's {name} in {}; write it outside the league's own files",
                            out.shown(),
                            input.shown()
                        );
                    }
                }
                Kind::File => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sticky_directory_keeps_others_files_from_being_replaced() {
        let sticky = 0o1777;
        // Another user's file, another user's directory: refused.
        assert!(sticky_refuses(sticky, 0, 1000, 1001));
        // One's own file, or one's own directory, or root: replaced.
        assert!(!sticky_refuses(sticky, 0, 1001, 1001));
        assert!(!sticky_refuses(sticky, 1001, 1000, 1001));
        assert!(!sticky_refuses(sticky, 0, 1000, 0));
        // Not sticky: the directory's write permission decides.
        assert!(!sticky_refuses(0o777, 0, 1000, 1001));
    }

    #[test]
    fn a_league_directorys_own_files_are_its() {
        let dir = Path::new("/l");
        assert_eq!(
            league_file(Path::new("/l/report.json"), dir).as_deref(),
            Some("report.json")
        );
        assert_eq!(
            league_file(Path::new("/l/stderr/a.log"), dir).as_deref(),
            Some("stderr/a.log")
        );
        assert!(league_file(Path::new("/l"), dir).is_some());
        assert_eq!(league_file(Path::new("/l/page.html"), dir), None);
        assert_eq!(league_file(Path::new("/m/report.json"), dir), None);
    }

    #[test]
    fn an_out_directory_is_new_empty_or_a_leagues() {
        let tmp = tempfile::tempdir().unwrap();
        let check = |path: &Path| {
            league_dir(&Named {
                flag: "--out",
                path,
                kind: Kind::League,
            })
        };
        check(&tmp.path().join("new")).unwrap();
        let dir = tmp.path().join("dir");
        std::fs::create_dir(&dir).unwrap();
        check(&dir).unwrap();
        // What a dojo killed before its league.json leaves: run again, it
        // continues.
        std::fs::write(dir.join(".league.json.tmp"), "{").unwrap();
        check(&dir).unwrap();
        // Someone's files: refused, naming them.
        for name in ["notes.txt", "b", "c", "d", "e"] {
            std::fs::write(dir.join(name), "mine").unwrap();
        }
        let err = check(&dir).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "--out {}: the directory holds \"b\", \"c\", \"d\" and 2 more but no league.json",
                dir.display()
            )),
            "{err}"
        );
        assert!(err.contains("expected a new or empty directory, or a league's"));
        // A league's: its command decides (the same league continues).
        std::fs::write(dir.join("league.json"), "{}").unwrap();
        check(&dir).unwrap();
        let file = dir.join("notes.txt");
        let err = check(&file).unwrap_err().to_string();
        assert!(err.contains("is a file; expected a directory"), "{err}");
    }

    #[test]
    fn a_missing_path_is_compared_through_its_existing_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let missing = tmp.path().join("a/../b/c.json");
        std::fs::create_dir(tmp.path().join("a")).unwrap();
        assert_eq!(canonical(&missing), base.join("b/c.json"));
    }
}

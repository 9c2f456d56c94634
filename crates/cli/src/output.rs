//! Writing to stdout, stderr and output files.
//!
//! `println!` panics when stdout is a closed pipe (`dojo doctor | head -1`)
//! or a full disk (`> /dev/full`), and `eprintln!` likewise for stderr,
//! which would abort a league in the middle and lose its report. What dojo
//! prints is only a view of results that are also written to files, so a
//! failed write never stops a command: a closed pipe (the reader went
//! away) is remembered quietly, and any other failure (a full disk, an I/O
//! error) is remembered and reported when the command ends, with exit
//! status 3 ([`finish`]). The first failure on stdout also lets long
//! displays (`replay --watch`) stop early.
//!
//! Output files (`--json FILE`, `--html FILE`) are written by
//! [`write_file`]: a regular file atomically, anything else (`-`,
//! `/dev/stdout`, a FIFO, a process substitution) written through;
//! `crate::outpaths` refuses a path that cannot be written before any game
//! is played.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set by [`data_on_stdout`]: stdout carries only data (`--json -`), so
/// what would be printed there goes to stderr.
static STDOUT_TO_STDERR: AtomicBool = AtomicBool::new(false);
/// The first failed write that was not a closed pipe: the stream and why.
static FAILURE: Mutex<Option<(&'static str, String)>> = Mutex::new(None);

/// Remembers a failed write to `stream` (see the module docs).
fn failed(stream: &'static str, err: &io::Error) {
    if stream == "stdout" {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
    if err.kind() == io::ErrorKind::BrokenPipe {
        return;
    }
    let mut failure = FAILURE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if failure.is_none() {
        *failure = Some((stream, err.to_string()));
    }
}

/// Writes to stdout (to stderr after [`data_on_stdout`]), flushed; a
/// failure is remembered (see the module docs) and returned.
pub fn try_out(args: fmt::Arguments<'_>) -> io::Result<()> {
    if STDOUT_TO_STDERR.load(Ordering::Relaxed) {
        return try_err(args);
    }
    let mut stdout = io::stdout().lock();
    let result = stdout.write_fmt(args).and_then(|()| stdout.flush());
    if let Err(e) = &result {
        failed("stdout", e);
    }
    result
}

/// Writes to stdout; a failure is remembered, not raised.
pub fn out(args: fmt::Arguments<'_>) {
    let _ = try_out(args);
}

fn try_err(args: fmt::Arguments<'_>) -> io::Result<()> {
    let result = io::stderr().lock().write_fmt(args);
    if let Err(e) = &result {
        failed("stderr", e);
    }
    result
}

/// Writes to stderr; a failure is remembered, not raised.
pub fn err(args: fmt::Arguments<'_>) {
    let _ = try_err(args);
}

/// Whether a write to stdout has failed (nobody reads it any more).
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// The command's exit status, or 3 after a write to stdout or stderr that
/// failed other than by a closed pipe (said on stderr if it still can be).
pub fn finish(code: ExitCode) -> ExitCode {
    if let Err(e) = io::stdout().lock().flush() {
        failed("stdout", &e);
    }
    let failure = FAILURE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    match failure {
        None => code,
        Some((stream, why)) => {
            let _ = writeln!(io::stderr(), "error: cannot write to {stream}: {why}");
            crate::exit::code(crate::exit::ERROR)
        }
    }
}

/// `print!` that never panics (see the module docs).
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::out(format_args!($($arg)*)) };
}

/// `println!` that never panics (see the module docs).
macro_rules! outln {
    () => { $crate::output::out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` that never panics (see the module docs).
macro_rules! errln {
    () => { $crate::output::err(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::err(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Where an output path really leads.
pub(crate) enum Target {
    /// Stdout (`-`).
    Stdout,
    /// Something that is not a regular file (a FIFO, a device, a pipe
    /// behind `/dev/stdout` or `/dev/fd/N`): written through.
    Through(PathBuf),
    /// A regular file, existing or not, at this path (symlinks followed):
    /// written atomically.
    File(PathBuf),
}

/// Whether `path` names stdout: `-` or `/dev/stdout`.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || path == Path::new("/dev/stdout")
}

/// Makes stdout carry only the data when one of `outputs` is stdout
/// (`--json -`): the transcript and messages go to stderr.
pub fn data_on_stdout(outputs: &[Option<&Path>]) {
    if outputs.iter().flatten().any(|p| is_stdout(p)) {
        STDOUT_TO_STDERR.store(true, Ordering::Relaxed);
    }
}

/// Follows `path`'s symlinks (a dangling one to the file it names).
pub(crate) fn target(path: &Path) -> Target {
    if is_stdout(path) {
        return Target::Stdout;
    }
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Target::Through(path.to_owned()),
        // `/dev/stdout` redirected to a file, `/dev/fd/N`: the descriptor's
        // file is what the caller holds open, so it is written in place.
        Ok(_) if through_proc(path) => Target::Through(path.to_owned()),
        Ok(_) => Target::File(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())),
        Err(_) => Target::File(follow_dangling(path)),
    }
}

/// Whether `path` leads through `/proc` (`/dev/stdout`, `/dev/fd/N`).
fn through_proc(path: &Path) -> bool {
    let mut at = path.to_owned();
    for _ in 0..40 {
        if at.starts_with("/proc") || at.starts_with("/dev/fd") {
            return true;
        }
        match std::fs::read_link(&at) {
            Ok(next) => at = at.parent().unwrap_or(Path::new("/")).join(next),
            Err(_) => return false,
        }
    }
    false
}

/// A missing file's path, through a dangling symlink to what it names.
fn follow_dangling(path: &Path) -> PathBuf {
    let mut at = path.to_owned();
    for _ in 0..40 {
        match std::fs::read_link(&at) {
            Ok(next) => at = at.parent().unwrap_or(Path::new("/")).join(next),
            Err(_) => break,
        }
    }
    at
}

/// The directory a regular output file goes into.
pub(crate) fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// FIFOs opened when their output was checked (`crate::outpaths`), each
/// held until its output is written: closing one would tell its reader
/// the output ended, empty.
static HELD: Mutex<Vec<(PathBuf, std::fs::File)>> = Mutex::new(Vec::new());

/// Keeps `file`, open on the FIFO at `at`, for [`write_file`].
pub fn hold(at: &Path, file: std::fs::File) {
    HELD.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push((at.to_owned(), file));
}

/// Opens `at`, not a regular file, to write through: the FIFO held for it,
/// else opened without waiting for a reader (a FIFO that nobody reads is
/// an error, not a wait without end); then made blocking again, so a
/// reader slower than dojo gets the whole output.
fn open_through(at: &Path) -> io::Result<std::fs::File> {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    use std::os::unix::fs::OpenOptionsExt;
    let held = {
        let mut held = HELD
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        held.iter()
            .position(|(p, _)| p == at)
            .map(|i| held.remove(i).1)
    };
    let file = match held {
        Some(file) => file,
        // Appending: a `/dev/fd/N` open on a regular file keeps what the
        // caller's descriptor already wrote.
        None => std::fs::OpenOptions::new()
            .append(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32)
            .open(at)
            .map_err(|e| {
                if e.raw_os_error() == Some(rustix::io::Errno::NXIO.raw_os_error()) {
                    io::Error::other("a FIFO that nobody reads")
                } else {
                    e
                }
            })?,
    };
    let flags = fcntl_getfl(&file)?;
    fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
    Ok(file)
}

/// Writes `bytes` to `path`: a regular file atomically (a temporary file
/// in the same directory, then a rename, so a reader never sees half of
/// it; a symlink's target is replaced, not the link), `-` to stdout, and
/// anything else (a FIFO, a device, `/dev/stdout`) written through.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    match target(path) {
        Target::Stdout => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|()| stdout.flush())
                .context("writing to stdout")
        }
        Target::Through(at) => open_through(&at)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
            .with_context(|| format!("writing {}", path.display())),
        Target::File(file) => {
            let name = file
                .file_name()
                .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
            let tmp = parent(&file).join(format!(".{name}.tmp-{}", std::process::id()));
            let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, &file));
            if let Err(e) = written {
                let _ = std::fs::remove_file(&tmp);
                return Err(e).with_context(|| format!("writing {}", path.display()));
            }
            Ok(())
        }
    }
}

/// Whether [`write_file`] replaces `path` atomically (a regular file, or
/// none yet): only such a file can be written again and again while a
/// reader may open it at any moment (a FIFO or stdout would get every
/// version in a row).
pub fn replaced_atomically(path: &Path) -> bool {
    matches!(target(path), Target::File(_))
}

/// Whether `err` comes from writing to a closed pipe (the reader went
/// away: `| head`), which is no error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `1 bot`, `3 bots`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Writes `value` as one line of JSON (see [`crate::output::write_file`]:
/// a regular file atomically, `-` to stdout, a FIFO or device through).
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    let mut text = serde_json::to_string(value).context("serialising the record")?;
    text.push('\n');
    crate::output::write_file(path, text.as_bytes())
}

/// `path` made absolute (through the current directory when it cannot be
/// canonicalised), so it means the same from any directory.
pub fn absolute(path: &Path) -> PathBuf {
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_owned())
}

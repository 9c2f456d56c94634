//! Writing to stdout and stderr without panicking when the reader has gone.
//!
//! `println!` panics when stdout is a closed pipe (`dojo replay r.json |
//! head -1`), and `eprintln!` likewise for stderr (`dojo league -v 2>&1 |
//! head -5`), which would abort a league in the middle and lose its report.
//! What dojo prints is only a view of results that are also written to
//! files, so a write that fails is dropped and the command carries on; the
//! first failure on stdout is remembered so that long displays (`replay
//! --watch`) can stop early.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout; a failed write (a closed pipe) is remembered, not raised.
pub fn out(args: fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_fmt(args)
        .and_then(|()| stdout.flush())
        .is_err()
    {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes to stderr; a failed write is dropped.
pub fn err(args: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// Whether a write to stdout has failed (nobody reads it any more).
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
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

/// `1 bot`, `3 bots`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

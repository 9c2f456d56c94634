//! The files of a bot's directory and of its build cache, as its
//! fingerprint covers them: a bot's code is more than the files its
//! command names (`java -cp classes Bot` names none; a script imports
//! modules beside it; a build leaves classes or a jar in `$DOJO_CACHE`).
//!
//! Every regular file and symbolic link counts by its path in the tree
//! (a directory by what it holds: an empty one not at all);
//! a file by its bytes too, a link by where it points (never followed: a
//! link may lead out of the bot's own places, or to the kernel's views).
//! Left out, as no part of what a bot runs: version control's metadata
//! and Python's byte code caches (which a bot under `--sandbox off`
//! writes beside its modules as it plays), and any directory holding a
//! `CACHEDIR.TAG` (a build tool's cache of what it can make again, such
//! as Cargo's `target/`: only the program the command names in it
//! counts). Bounded: [`BUDGET_BYTES`] of contents in all, then sizes
//! only, and at most [`MAX_ENTRIES`] entries.

use std::io::Read;
use std::path::Path;

use super::Fnv;

/// Directories left out wherever they are.
const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "__pycache__"];

/// A directory holding this file is a cache by the Cache Directory
/// Tagging convention (Cargo writes one into every `target/`).
const CACHE_TAG: &str = "CACHEDIR.TAG";

/// The bytes of files hashed for one bot, in path order (its directory's
/// first, then its cache's); past them, a file counts by its path and
/// size. Reading a GiB takes about a second: a fingerprint is taken a few
/// times per run, never per game.
pub(super) const BUDGET_BYTES: u64 = 1 << 30;

/// Entries walked for one bot; past them, the rest of its trees counts as
/// one mark (a directory of millions of files is no bot's code).
pub(super) const MAX_ENTRIES: usize = 200_000;

/// What is left to spend on one bot's trees.
#[derive(Debug)]
pub(super) struct Budget {
    pub(super) bytes: u64,
    pub(super) entries: usize,
}

impl Budget {
    pub(super) fn new() -> Budget {
        Budget {
            bytes: BUDGET_BYTES,
            entries: MAX_ENTRIES,
        }
    }
}

/// Hashes the tree at `root` into `h` under `label`, leaving out the
/// entries at its top named in `skip_top` (the cache's overlays of
/// cargo's downloads). A root that is missing counts as such.
pub(super) fn tree(h: &mut Fnv, label: &str, root: &Path, skip_top: &[&str], budget: &mut Budget) {
    h.field(label.as_bytes());
    if !std::fs::symlink_metadata(root).is_ok_and(|m| m.is_dir()) {
        h.field(b"absent");
        return;
    }
    walk(h, root, "", skip_top, budget);
}

fn walk(h: &mut Fnv, dir: &Path, rel: &str, skip: &[&str], budget: &mut Budget) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        h.field(b"unreadable");
        return;
    };
    let mut names: Vec<std::ffi::OsString> = entries.flatten().map(|e| e.file_name()).collect();
    if names.iter().any(|n| n == CACHE_TAG) {
        // A build tool's cache: only the files the command names in it.
        h.field(b"cache");
        return;
    }
    names.sort();
    for name in names {
        let shown = name.to_string_lossy();
        if skip.iter().any(|s| *s == shown) {
            continue;
        }
        if budget.entries == 0 {
            h.field(b"past the entries");
            return;
        }
        budget.entries -= 1;
        let path = dir.join(&name);
        let rel = if rel.is_empty() {
            shown.into_owned()
        } else {
            format!("{rel}/{shown}")
        };
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = meta.file_type();
        if kind.is_dir() {
            if SKIPPED_DIRS.iter().any(|s| name == *s) {
                continue;
            }
            // By its files alone: an empty directory is no code.
            walk(h, &path, &rel, &[], budget);
        } else if kind.is_symlink() {
            h.field(b"l");
            h.field(rel.as_bytes());
            let target = std::fs::read_link(&path).unwrap_or_default();
            h.field(target.as_os_str().as_encoded_bytes());
        } else if kind.is_file() {
            h.field(b"f");
            h.field(rel.as_bytes());
            h.field(&meta.len().to_le_bytes());
            contents(h, &path, meta.len(), budget);
        }
        // Pipes, sockets and devices: no code, and a pipe's reader would
        // wait for a writer.
    }
}

/// The bytes of the file at `path` (`len` long), if the budget has them.
fn contents(h: &mut Fnv, path: &Path, len: u64, budget: &mut Budget) {
    if len > budget.bytes || len > super::MAX_HASHED_BYTES {
        return;
    }
    budget.bytes -= len;
    let Ok(file) = std::fs::File::open(path) else {
        h.field(b"unreadable");
        return;
    };
    let mut file = file.take(len);
    let mut buf = vec![0; 64 * 1024];
    loop {
        match file.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => h.write(&buf[..n]),
        }
    }
}

//! Reading input files with a size cap. Every file dojo reads whole (a
//! `bot.toml`, a deck, a board, a game record, a league's files) goes
//! through here, so a wrong path (`--deck1 /dev/zero`, a huge sparse file)
//! is an error naming the file and the cap instead of memory growing until
//! the machine gives out. Special files are read like regular ones, up to
//! the same cap.
//!
//! Errors are `io::Error`s (kind `FileTooLarge` for a file over its cap,
//! `InvalidData` for text that is not UTF-8), so the callers' typed errors
//! that name the file wrap them as they wrap any failed read.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// A `bot.toml`.
pub const MANIFEST_CAP: u64 = 1 << 20;
/// A CardJitsu deck file (`.dcfg`).
pub const DECK_CAP: u64 = 1 << 20;
/// A royale board file.
pub const BOARD_CAP: u64 = 16 << 20;
/// One game record: a `dojo match --json` file, or one line of a
/// league's `games.jsonl`.
pub const RECORD_CAP: u64 = 256 << 20;
/// A league's `league.json` or `report.json`.
pub const LEAGUE_FILE_CAP: u64 = 64 << 20;

/// `bytes` as people write sizes: `1 MiB`, `256 MiB`, `1000 bytes`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

fn too_large(cap: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than {}, the most dojo reads of {what}", size(cap)),
    )
}

/// The bytes of `path`, refused beyond `cap` bytes (`what` names the kind
/// of file in the error: "a deck"). The error does not repeat the path:
/// the caller's error names it.
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let expected = file.metadata().map_or(0, |m| m.len());
    if expected > cap {
        return Err(too_large(cap, what));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap, what));
    }
    Ok(bytes)
}

/// The text of `path` ([`read_capped`]), which must be UTF-8.
pub fn read_text_capped(path: &Path, cap: u64, what: &str) -> io::Result<String> {
    String::from_utf8(read_capped(path, cap, what)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Reads one line (up to and including `\n`) into `line`, as
/// `BufRead::read_until`, refusing a line longer than `cap` bytes
/// (`what` names it in the error). Returns the bytes read, 0 at the end.
pub fn read_line_capped(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: u64,
    what: &str,
) -> io::Result<usize> {
    let read = reader.take(cap.saturating_add(1)).read_until(b'\n', line)?;
    if read as u64 > cap {
        return Err(too_large(cap, what));
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_its_cap_is_refused_and_one_at_it_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_capped(&path, 5, "a test").unwrap(), b"12345");
        let err = read_capped(&path, 4, "a test").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            err.to_string(),
            "larger than 4 bytes, the most dojo reads of a test"
        );
    }

    #[test]
    fn an_endless_special_file_stops_at_the_cap() {
        let err = read_capped(Path::new("/dev/zero"), 1 << 10, "a deck").unwrap_err();
        assert_eq!(
            err.to_string(),
            "larger than 1 KiB, the most dojo reads of a deck"
        );
    }

    #[test]
    fn a_long_line_is_refused() {
        let mut line = Vec::new();
        let mut text: &[u8] = b"abc\nabcdef\n";
        assert_eq!(
            read_line_capped(&mut text, &mut line, 4, "a line").unwrap(),
            4
        );
        line.clear();
        assert!(read_line_capped(&mut text, &mut line, 4, "a line").is_err());
    }
}

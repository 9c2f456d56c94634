//! Where dojo finds its bundled bots and boards, so that an installed
//! binary (`cargo install --path crates/cli`) works from any directory.
//!
//! Bots: `--bots-dir DIR` when given; else `./bots` when the current
//! directory has one (a checkout, or a project of one's own); else
//! `$DOJO_HOME/bots`; else the `bots/` of the checkout the binary was built
//! from, if it is still there. Boards are looked up the same way (`./`,
//! then `$DOJO_HOME/`, then the checkout, for a relative `--board` path),
//! and the bundled boards are also compiled into the binary, so
//! `--board boards/arena.txt` works even with no checkout at all.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use dojo_engine::royale::Board;

/// The environment variable naming a directory that holds `bots/` and
/// `boards/`.
pub const HOME_VAR: &str = "DOJO_HOME";

/// The checkout this binary was built from (it may have moved since).
fn checkout() -> PathBuf {
    // Two levels up from crates/cli, without `..` in the paths it shows.
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.ancestors().nth(2).unwrap_or(cli).to_path_buf()
}

/// The places searched, in order ([`searched`] names them for messages).
fn roots() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from(".")];
    if let Some(home) = std::env::var_os(HOME_VAR).filter(|h| !h.is_empty()) {
        out.push(PathBuf::from(&home));
    }
    out.push(checkout());
    out
}

/// Whether the bots directory was given (`--bots-dir`), set once by
/// [`bots_dir`]: [`hint`] then names it rather than the places searched.
static GIVEN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// The bots directory: `given`, or the first of `./bots`, `$DOJO_HOME/bots`
/// and the checkout's `bots/` that exists; `bots` when none does (a bot
/// looked up there then fails with [`hint`]).
pub fn bots_dir(given: Option<PathBuf>) -> PathBuf {
    let _ = GIVEN.set(given.is_some());
    if let Some(dir) = given {
        return dir;
    }
    roots()
        .into_iter()
        .map(|root| root.join("bots"))
        .find(|dir| dir.is_dir())
        .map_or_else(
            || PathBuf::from("bots"),
            |d| d.strip_prefix(".").map(Path::to_path_buf).unwrap_or(d),
        )
}

/// The bots directory dojo finds from any directory (when no `./bots` is
/// there): `$DOJO_HOME/bots`, else the checkout's `bots/`, whichever
/// exists first. A bot in it is named by its name alone in a command
/// meant to run anywhere (`crate::rerun`).
pub fn everywhere_bots_dir() -> Option<PathBuf> {
    roots()
        .into_iter()
        .skip(1)
        .map(|root| root.join("bots"))
        .find(|dir| dir.is_dir())
}

/// When `bots_dir` does not exist: where dojo looked and how to point it
/// at bots, to add to the error of a failed lookup; when it was given
/// (`--bots-dir`), that it does not exist or is not a directory.
pub fn hint(bots_dir: &Path) -> Option<String> {
    if bots_dir.is_dir() {
        return None;
    }
    if let Some(problem) = given_problem(bots_dir) {
        return Some(problem);
    }
    Some(format!(
        "found no bots directory ({}); set {HOME_VAR} to a directory holding bots/ and boards/, or pass --bots-dir DIR",
        searched()
    ))
}

/// When the bots directory was given (`--bots-dir`) and is not a
/// directory: `--bots-dir DIR: does not exist` (or what else is wrong).
pub fn given_problem(bots_dir: &Path) -> Option<String> {
    if !bots_dir_given() || bots_dir.is_dir() {
        return None;
    }
    let problem = match std::fs::metadata(bots_dir) {
        Ok(_) => "is not a directory".to_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist".to_owned(),
        Err(e) => format!("cannot be read: {e}"),
    };
    Some(format!("--bots-dir {}: {problem}", bots_dir.display()))
}

/// Whether the bots directory was given (`--bots-dir`).
pub fn bots_dir_given() -> bool {
    GIVEN.get() == Some(&true)
}

/// Where dojo looked for a bots directory, in order, for messages:
/// `looked for bots/ in the current directory, in $DOJO_HOME (not set)
/// and in /src/dojo (the checkout dojo was built from)`.
pub fn searched() -> String {
    let home = std::env::var_os(HOME_VAR).filter(|h| !h.is_empty());
    searched_in(home.as_deref().map(Path::new), &checkout())
}

/// [`searched`], for a given `$DOJO_HOME` and checkout.
fn searched_in(home: Option<&Path>, checkout: &Path) -> String {
    let home = match home {
        Some(home) => format!("{} (${HOME_VAR})", home.display()),
        None => format!("${HOME_VAR} (not set)"),
    };
    format!(
        "looked for bots/ in the current directory, in {home} and in {} (the checkout dojo was built from)",
        checkout.display()
    )
}

/// The bundled boards, compiled in: (file name, text).
const EMBEDDED_BOARDS: [(&str, &str); 6] = [
    ("arena.txt", include_str!("../../../boards/arena.txt")),
    ("frontier.txt", include_str!("../../../boards/frontier.txt")),
    ("large.txt", include_str!("../../../boards/large.txt")),
    ("maze.txt", include_str!("../../../boards/maze.txt")),
    (
        "seed-example.txt",
        include_str!("../../../boards/seed-example.txt"),
    ),
    ("won.txt", include_str!("../../../boards/won.txt")),
];

/// The text of the board file `path`: the file itself, or for a relative
/// path missing here, the same path under `$DOJO_HOME` or the checkout,
/// or a bundled board of that name (`boards/arena.txt`, `arena.txt`).
pub fn board_text(path: &Path) -> Result<String> {
    let read = |path: &Path| {
        dojo_runner::input::read_text_capped(path, dojo_runner::input::BOARD_CAP, "a board")
    };
    match read(path) {
        Ok(text) => return Ok(text),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound || path.is_absolute() => {
            bail!("cannot read {}: {e}", path.display())
        }
        Err(_) => {}
    }
    for root in roots().iter().skip(1) {
        if let Ok(text) = read(&root.join(path)) {
            return Ok(text);
        }
    }
    let bundled = path.strip_prefix("boards").unwrap_or(path);
    if let Some((_, text)) = EMBEDDED_BOARDS
        .iter()
        .find(|(name, _)| Path::new(name) == bundled)
    {
        return Ok((*text).to_owned());
    }
    let names: Vec<&str> = EMBEDDED_BOARDS.iter().map(|(n, _)| *n).collect();
    bail!(
        "cannot read {}: no such file (bundled boards: boards/{})",
        path.display(),
        names.join(", boards/")
    )
}

/// The royale boards a league or comparison rotates through by default:
/// every `*.txt` in the first boards directory found (as for bots), else
/// the bundled ones; as paths that [`board_text`] reads back.
pub fn default_board_paths() -> Vec<PathBuf> {
    for root in roots() {
        let dir = root.join("boards");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        if found.is_empty() {
            continue;
        }
        found.sort();
        // `./boards/x.txt` is shown as `boards/x.txt`, as before.
        return found
            .into_iter()
            .map(|p| p.strip_prefix(".").map(Path::to_path_buf).unwrap_or(p))
            .collect();
    }
    EMBEDDED_BOARDS
        .iter()
        .map(|(name, _)| Path::new("boards").join(name))
        .collect()
}

/// Every default board ([`crate::home::default_board_paths`]) that is not
/// already decided, as a league stores it ([`stored_board`]).
pub fn default_boards() -> Result<Vec<String>> {
    let mut found = Vec::new();
    for path in crate::home::default_board_paths() {
        let board = load_board(&path)?;
        if board.counts().signs_present().count() >= 2 {
            found.push(stored_board(&path));
        }
    }
    if found.is_empty() {
        bail!("no playable board found (pass --board FILE)");
    }
    Ok(found)
}

/// A board as a league, a record or a command meant to run anywhere names
/// it: a file given by a relative path is named absolute (a league resumed
/// from another directory, or a command pasted there, finds it), unless it
/// is a copy of a bundled board under that board's name (`boards/arena.txt`
/// in a checkout, `arena.txt`), which dojo finds from any directory; a
/// name that is no file here stays as given ([`board_text`] looks for it
/// in dojo's home).
pub fn stored_board(path: &Path) -> String {
    if path.is_relative() && path.is_file() && !is_bundled_copy(path) {
        return crate::rerun::path_word(path);
    }
    path.display().to_string()
}

/// Whether `path` (`boards/NAME` or `NAME`) holds the bundled board `NAME`
/// word for word.
fn is_bundled_copy(path: &Path) -> bool {
    let bundled = path.strip_prefix("boards").unwrap_or(path);
    EMBEDDED_BOARDS
        .iter()
        .find(|(name, _)| Path::new(name) == bundled)
        .is_some_and(|(_, text)| std::fs::read_to_string(path).is_ok_and(|t| t == *text))
}

/// Where [`board_text`] looks for a relative board, for messages.
pub fn board_places() -> String {
    let here = crate::output::absolute(Path::new("."));
    let mut places = vec![format!("{} (the current directory)", here.display())];
    if let Some(home) = std::env::var_os(HOME_VAR).filter(|h| !h.is_empty()) {
        places.push(format!("{} (${HOME_VAR})", Path::new(&home).display()));
    }
    places.push(format!(
        "{} (the checkout dojo was built from)",
        checkout().display()
    ));
    places.join(", ")
}

/// Reads and checks a board file.
pub fn load_board(path: &Path) -> Result<Board> {
    let text = board_text(path)?;
    Ok(Board::parse(&text, &path.display().to_string())?)
}

/// Reads and checks a board file, keeping its text: what a league's or
/// comparison's executor holds (the game parses it).
pub fn load_board_text(path: &Path) -> Result<String> {
    let text = board_text(path)?;
    Board::parse(&text, &path.display().to_string())?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_boards_are_compiled_in_and_parse() {
        for (name, text) in EMBEDDED_BOARDS {
            dojo_engine::royale::Board::parse(text, name).unwrap();
            let on_disk = checkout().join("boards").join(name);
            assert_eq!(std::fs::read_to_string(on_disk).unwrap(), text, "{name}");
        }
        let mut files: Vec<String> = std::fs::read_dir(checkout().join("boards"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        files.sort();
        let embedded: Vec<&str> = EMBEDDED_BOARDS.iter().map(|(n, _)| *n).collect();
        assert_eq!(files, embedded, "every bundled board is compiled in");
        // Not a file anywhere it looks, but a bundled board's name.
        assert_eq!(
            board_text(Path::new("won.txt")).unwrap(),
            EMBEDDED_BOARDS[5].1
        );
        let err = board_text(Path::new("boards/nope.txt")).unwrap_err();
        assert!(
            err.to_string().contains("bundled boards: boards/arena.txt"),
            "{err}"
        );
    }

    /// Where dojo looked, as a missing bots directory's message says it:
    /// every place in order, `$DOJO_HOME` said to be unset when it is.
    #[test]
    fn the_places_searched_are_named_in_order() {
        let checkout = Path::new("/gone/dojo");
        assert_eq!(
            searched_in(None, checkout),
            "looked for bots/ in the current directory, in $DOJO_HOME (not set) and in /gone/dojo (the checkout dojo was built from)"
        );
        assert_eq!(
            searched_in(Some(Path::new("/opt/dojo")), checkout),
            "looked for bots/ in the current directory, in /opt/dojo ($DOJO_HOME) and in /gone/dojo (the checkout dojo was built from)"
        );
    }
}

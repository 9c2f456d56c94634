//! Replaying a saved game: everything is in `dojo_games::replay`; the league
//! adds picking a game by id out of a league directory's `games.jsonl`.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;

pub use dojo_games::replay::*;

use dojo_games::formats::GAMES_FORMAT_VERSION;

use crate::store;

/// Reads a record: the JSON file `dojo match --json` wrote (or a line
/// copied out of games.jsonl), or with `game`, the game with that id in
/// the league directory `path`.
pub fn load(path: &Path, game: Option<u64>) -> Result<Saved, ReplayError> {
    let Some(id) = game else {
        return load_file(path).map_err(|err| match league_file(path) {
            Some((what, dir)) => {
                let ids = stored_ids(&dir.join(store::GAMES_FILE)).ok();
                ReplayError::LeagueFile {
                    path: path.into(),
                    what,
                    dir,
                    ids,
                }
            }
            None => err,
        });
    };
    if !path.is_dir() {
        return Err(ReplayError::NotALeague { path: path.into() });
    }
    let games = path.join(store::GAMES_FILE);
    let read_error = |source| ReplayError::Read {
        path: games.clone(),
        source,
    };
    let file = match std::fs::File::open(&games) {
        Ok(file) => Some(file),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => return Err(read_error(source)),
    };
    let (found, ids) = match file {
        Some(file) => find_line(&games, std::io::BufReader::new(file), Some(id))?,
        None => (None, GameIds::default()),
    };
    let Some((number, line)) = found else {
        return Err(ReplayError::NoGame { games, id, ids });
    };
    let parts = parse_line(&games, number, &line)?;
    parse_stored(
        &games,
        number,
        parts.record.get(),
        parts.timing.map_or("null", |t| t.get()),
    )
}

/// What `path` is when it is one of a league directory's own files (a
/// directory holding `league.json`), and that directory: a record that
/// did not load under one of those names was not meant as a record.
fn league_file(path: &Path) -> Option<(&'static str, PathBuf)> {
    let what = match path.file_name()?.to_str()? {
        store::LEAGUE_FILE => "a league's settings (league.json)",
        store::GAMES_FILE => "a league's games (games.jsonl, one line per game)",
        store::REPORT_FILE => "a league's report (report.json)",
        _ => return None,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    dir.join(store::LEAGUE_FILE)
        .is_file()
        .then_some((what, dir))
}

/// The ids of the games stored in the league's `games` file (none when it
/// does not exist).
fn stored_ids(games: &Path) -> Result<GameIds, ReplayError> {
    match std::fs::File::open(games) {
        Ok(file) => Ok(find_line(games, std::io::BufReader::new(file), None)?.1),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(GameIds::default()),
        Err(source) => Err(ReplayError::Read {
            path: games.into(),
            source,
        }),
    }
}

/// A `games.jsonl` line with its record and timing left as text: the
/// record is read once, into its game's typed record, by
/// [`parse_stored`].
#[derive(Deserialize)]
struct LineParts<'a> {
    version: u32,
    id: u64,
    #[serde(borrow)]
    record: &'a RawValue,
    /// Optional: `timing` is the part of a game that is not deterministic.
    #[serde(borrow, default)]
    timing: Option<&'a RawValue>,
    /// Set on a game of a replaced bot's old version (`store::Retired`):
    /// kept for the record, not one of the league's games.
    #[serde(borrow, default)]
    retired: Option<&'a RawValue>,
}

/// `line` (number `number` of `games`) as a stored game's parts.
fn parse_line<'a>(
    games: &Path,
    number: usize,
    line: &'a str,
) -> Result<LineParts<'a>, ReplayError> {
    let parts = serde_json::from_str::<LineParts<'_>>(line).map_err(|e| ReplayError::BadLine {
        path: games.into(),
        line: number,
        problem: format!("expected a game line (JSON object): {e}"),
    })?;
    if parts.version != GAMES_FORMAT_VERSION {
        return Err(ReplayError::BadLine {
            path: games.into(),
            line: number,
            problem: format!(
                "game line version {} is not supported (expected {GAMES_FORMAT_VERSION})",
                parts.version
            ),
        });
    }
    Ok(parts)
}

/// The line (1-based number and text) of game `id` in the league's
/// `games` file, read a line at a time (each up to
/// [`dojo_runner::input::RECORD_CAP`]), and the ids of the games it holds. A
/// last line without its newline is a write cut short by a crash, not a
/// finished game; any other line that is not a stored game, or a second
/// line of a game, is an error naming it.
fn find_line(
    games: &Path,
    mut reader: impl std::io::BufRead,
    id: Option<u64>,
) -> Result<(Option<(usize, String)>, GameIds), ReplayError> {
    let mut found = None;
    let mut stored = GameIds::default();
    let mut ids = store::StoredIds::default();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        dojo_runner::input::read_line_capped(
            &mut reader,
            &mut bytes,
            dojo_runner::input::RECORD_CAP,
            "a game line",
        )
        .map_err(|source| ReplayError::Read {
            path: games.into(),
            source,
        })?;
        if bytes.last() != Some(&b'\n') {
            break;
        }
        let line = std::str::from_utf8(&bytes).map_err(|e| ReplayError::BadLine {
            path: games.into(),
            line: number,
            problem: format!("not UTF-8 text: {e}"),
        })?;
        let parts = parse_line(games, number, line)?;
        if parts.retired.is_some() {
            continue;
        }
        // Which of two copies would be the game? Neither: refused.
        if !ids.insert(parts.id) {
            let err = store::stored_twice(games, number, parts.id, line.as_bytes());
            return Err(ReplayError::Store(Box::new(err)));
        }
        stored.insert(parts.id);
        if Some(parts.id) == id && found.is_none() {
            found = Some((number, line.to_owned()));
        }
    }
    Ok((found, stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_id_needs_a_league_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("game.json");
        std::fs::write(&file, "{}").unwrap();
        assert!(matches!(
            load(&file, Some(1)),
            Err(ReplayError::NotALeague { .. })
        ));
        assert!(matches!(
            load(dir.path(), Some(1)),
            Err(ReplayError::NoGame {
                id: 1,
                ids: GameIds { count: 0, .. },
                ..
            })
        ));
    }

    #[test]
    fn a_bad_stored_game_names_its_line_of_games_jsonl() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join(store::GAMES_FILE);
        let line = |id: u64, record: &str| {
            format!(
                "{{\"version\":1,\"id\":{id},\"seats\":[],\"teams\":[],\"board\":null,\"pair\":0,\"leg\":0,\"seed\":\"1\",\"scores\":[],\"faults\":[],\"record\":{record},\"timing\":{{}}}}\n"
            )
        };
        let bad = r#"{"version":2,"game":"cardjitsu","seats":"none"}"#;
        let text = line(1, "{}") + &line(2, bad) + "{\"version\":1,\"id\":3";
        std::fs::write(&games, text).unwrap();
        let err = load(dir.path(), Some(2)).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("{}: line 2: not a CardJitsu game record", games.display())
        );
        // The torn last line is not a game.
        assert!(matches!(
            load(dir.path(), Some(3)),
            Err(ReplayError::NoGame {
                id: 3,
                ids: GameIds { count: 2, .. },
                ..
            })
        ));
        // A retired game (a replaced bot's old version) is not the game of
        // its id: the league's current game is.
        let retired = line(1, "{\"old\":1}").replace(
            "\"timing\"",
            "\"retired\":{\"replaced\":[\"a\"]},\"timing\"",
        );
        std::fs::write(&games, retired + &line(1, bad)).unwrap();
        let err = load(dir.path(), Some(1)).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("{}: line 2: not a CardJitsu game record", games.display())
        );
        std::fs::write(&games, line(1, "{}") + "not json\n").unwrap();
        let err = load(dir.path(), Some(1)).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{}: line 2: expected a game line",
                games.display()
            )),
            "{err}"
        );
    }
}

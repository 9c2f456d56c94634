//! Replaying a saved game: everything is in `dojo_games::replay`; the league
//! adds picking a game by id out of a league directory's `games.jsonl`.

use std::path::Path;

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
        return load_file(path);
    };
    if !path.is_dir() {
        return Err(ReplayError::NotALeague { path: path.into() });
    }
    let games = path.join(store::GAMES_FILE);
    let text = match std::fs::read_to_string(&games) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(ReplayError::Read {
                path: games,
                source,
            });
        }
    };
    let (found, count) = find_line(&games, &text, id)?;
    let Some((number, line)) = found else {
        return Err(ReplayError::NoGame { games, id, count });
    };
    parse_stored(
        &games,
        number,
        line.record.get(),
        line.timing.map_or("null", |t| t.get()),
    )
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
}

/// The line (1-based number and parts) of game `id` in `text` (the league's
/// `games` file), and how many games it holds. A last line without its
/// newline is a write cut short by a crash, not a finished game; any other
/// line that is not a stored game is an error naming it.
fn find_line<'a>(
    games: &Path,
    text: &'a str,
    id: u64,
) -> Result<(Option<(usize, LineParts<'a>)>, usize), ReplayError> {
    let mut found = None;
    let mut count = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let number = i + 1;
        if !line.ends_with('\n') {
            break;
        }
        let parts =
            serde_json::from_str::<LineParts<'_>>(line).map_err(|e| ReplayError::BadLine {
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
        count += 1;
        if parts.id == id && found.is_none() {
            found = Some((number, parts));
        }
    }
    Ok((found, count))
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
                count: 0,
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
                count: 2,
                ..
            })
        ));
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

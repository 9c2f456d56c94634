//! Replaying a saved game: everything is in `dojo_games::replay`; the league
//! adds picking a game by id out of a league directory's `games.jsonl`.

use std::path::{Path, PathBuf};

pub use dojo_games::replay::*;

use crate::store;

/// Reads a record: the JSON file `dojo match --json` wrote (or a line
/// copied out of games.jsonl), or with `game`, the game with that id in
/// the league directory `path`.
pub fn load(path: &Path, game: Option<u64>) -> Result<Saved, ReplayError> {
    let Some(id) = game else {
        return load_file(path).map_err(|err| match league_file(path) {
            Some((what, dir)) => {
                let ids = find_game(&dir, None).ok().map(|(_, ids)| ids);
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
    load_game(path, id).map(|(saved, _)| saved)
}

/// The game with id `id` of the league directory `dir`: its record, and
/// its stored line (the scores the league counted, its faulty seats).
pub fn load_game(dir: &Path, id: u64) -> Result<(Saved, store::GameLine), ReplayError> {
    let games = dir.join(store::GAMES_FILE);
    // A directory with neither games.jsonl nor league.json is no league's
    // (a league that has stored no game yet holds league.json).
    let no_league = !games.exists() && !dir.join(store::LEAGUE_FILE).exists();
    if !dir.is_dir() || no_league {
        return Err(ReplayError::NotALeague { path: dir.into() });
    }
    let (found, ids) = find_game(dir, Some(id))?;
    let Some((number, line)) = found else {
        return Err(ReplayError::NoGame { games, id, ids });
    };
    let saved = parse_stored(
        &games,
        number,
        &line.record.to_string(),
        &line.timing.to_string(),
    )?;
    Ok((saved, line))
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

/// The line (1-based number) and game `id` of the league directory
/// `dir`'s `games.jsonl`, and the ids of the games it holds (none when
/// the file does not exist), read by the league's one reader of the file
/// ([`store::for_each_game_so_far`]): a last line without its newline is
/// a write cut short, not a finished game; any other line that is not a
/// stored game, or a second line of a game, is an error naming it. A
/// line's result is not checked against a game: the record picked is
/// checked as its game's ([`parse_stored`]).
fn find_game(
    dir: &Path,
    id: Option<u64>,
) -> Result<(Option<(usize, store::GameLine)>, GameIds), ReplayError> {
    let mut found = None;
    let mut stored = GameIds::default();
    store::for_each_game_so_far(dir, None, |number, line| {
        stored.insert(line.id);
        if Some(line.id) == id {
            found = Some((number, line));
        }
        Ok::<_, store::StoreError>(())
    })
    .map_err(replay_error)?;
    Ok((found, stored))
}

/// A reading error of `games.jsonl` as replay's own: a bad line by its
/// number, an unreadable file as such, the rest (a game stored twice) as
/// the store says it.
fn replay_error(err: store::StoreError) -> ReplayError {
    match err {
        store::StoreError::Malformed {
            path,
            line,
            message,
        } => ReplayError::BadLine {
            path,
            line,
            problem: message,
        },
        store::StoreError::Io { path, source } => ReplayError::Read { path, source },
        other => ReplayError::Store(Box::new(other)),
    }
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
        // A directory with no games.jsonl and no league.json: no league's.
        assert!(matches!(
            load(dir.path(), Some(1)),
            Err(ReplayError::NotALeague { .. })
        ));
        // A league that has stored no game yet holds no such game.
        std::fs::write(dir.path().join(store::LEAGUE_FILE), "{}").unwrap();
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

    /// Replay reads `games.jsonl` as every reader of a league does: a line
    /// that is not a whole game line (no `seats`) is refused, even though
    /// its record alone would replay, and text that is not UTF-8 is named.
    #[test]
    fn a_line_that_is_not_a_whole_game_line_is_refused_by_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join(store::GAMES_FILE);
        let whole = "{\"version\":1,\"id\":0,\"seats\":[],\"teams\":[],\"board\":null,\"pair\":0,\"leg\":0,\"seed\":\"1\",\"scores\":[],\"faults\":[],\"record\":{},\"timing\":{}}\n";
        let no_seats = "{\"version\":1,\"id\":1,\"record\":{},\"timing\":{}}\n";
        std::fs::write(&games, format!("{whole}{no_seats}")).unwrap();
        let err = load(dir.path(), Some(1)).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{}: line 2: expected a game line (JSON object): missing field `seats`",
                games.display()
            )),
            "{err}"
        );
        let mut bytes = whole.as_bytes().to_vec();
        bytes.extend_from_slice(b"{\"version\":1,\"id\":1,\"seats\":[\"\xff\"]}\n");
        std::fs::write(&games, bytes).unwrap();
        let err = load(dir.path(), Some(0)).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{}: line 2: not UTF-8 text", games.display())),
            "{err}"
        );
    }
}

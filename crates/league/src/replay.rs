//! Replaying a saved game: everything is in `dojo_games::replay`; the league
//! adds picking a game by id out of a league directory's `games.jsonl`.

use std::path::Path;

pub use dojo_games::replay::*;

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
    let lines = store::read_games(path, false).map_err(|e| ReplayError::Store(Box::new(e)))?;
    let count = lines.len();
    let line = lines
        .into_iter()
        .find(|l| l.id == id)
        .ok_or_else(|| ReplayError::NoGame {
            games: path.join(store::GAMES_FILE),
            id,
            count,
        })?;
    from_stored(path, line.record, line.timing)
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
}

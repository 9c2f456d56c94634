//! Where a seat's deck comes from, under the one name that flags, leagues,
//! records and replay commands carry: a named deck (`championship`,
//! `standard`) or the absolute path of a `.dcfg` file.

use std::io;
use std::path::{Path, PathBuf};

use dojo_engine::cardjitsu::{Deck, DeckError, NAMED_DECKS, Ruleset};
use thiserror::Error;

/// Why the deck of a name could not be had.
#[derive(Debug, Error)]
pub enum DeckLoadError {
    /// There is no deck file at `path` (and no named deck of that name).
    #[error(
        "no deck file {}; a deck is a .dcfg file or a named deck: {}",
        path.display(), NAMED_DECKS.join(", ")
    )]
    NotFound { path: PathBuf },
    /// The deck file could not be read.
    #[error("cannot read deck file {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The deck file is not a deck.
    #[error(transparent)]
    Deck(#[from] DeckError),
}

/// The deck names both seats draw from under `rules` unless told
/// otherwise ([`Ruleset::default_deck`]).
pub fn default_names(rules: Ruleset) -> [String; 2] {
    [0, 1].map(|_| rules.default_deck().to_owned())
}

/// Whether `name` is what a seat draws from under `rules` untold (a flag
/// that gives it is left out of stored options and commands).
pub fn is_default(name: &str, rules: Ruleset) -> bool {
    name == rules.default_deck()
}

/// The name a `--deckN` value is kept under: a named deck as it is, a file
/// as its absolute path, so a rerun or a resumed league reads the same file
/// from any directory (`./standard` names a file called `standard`).
pub fn name_of(given: &Path) -> io::Result<String> {
    if let Some(named) = given.to_str().filter(|g| NAMED_DECKS.contains(g)) {
        return Ok(named.to_owned());
    }
    Ok(std::path::absolute(given)?.display().to_string())
}

/// The deck `name` stands for: a named deck, or the `.dcfg` file at that
/// path (read up to [`dojo_runner::input::DECK_CAP`] bytes).
pub fn load(name: &str) -> Result<Deck, DeckLoadError> {
    if let Some(deck) = Deck::named(name) {
        return Ok(deck);
    }
    let path = Path::new(name);
    let bytes = dojo_runner::input::read_capped(path, dojo_runner::input::DECK_CAP, "a deck")
        .map_err(|source| match source.kind() {
            io::ErrorKind::NotFound => DeckLoadError::NotFound {
                path: path.to_owned(),
            },
            _ => DeckLoadError::Read {
                path: path.to_owned(),
                source,
            },
        })?;
    Ok(Deck::parse_dcfg_bytes(&bytes, name)?)
}

#[cfg(test)]
mod tests {
    use dojo_engine::cardjitsu::Draw;

    use super::*;

    #[test]
    fn names_stand_for_named_decks_or_absolute_files() {
        assert_eq!(name_of(Path::new("championship")).unwrap(), "championship");
        assert_eq!(name_of(Path::new("standard")).unwrap(), "standard");
        let file = name_of(Path::new("./standard")).unwrap();
        assert!(
            Path::new(&file).is_absolute() && file.ends_with("standard"),
            "{file}"
        );
        assert_eq!(
            load("championship").unwrap().draw(),
            Draw::WithoutReplacement
        );
        assert_eq!(load("standard").unwrap(), Deck::standard());
        assert!(is_default("championship", Ruleset::Tournament));
        assert!(is_default("standard", Ruleset::Classic));
        assert!(!is_default("standard", Ruleset::Tournament));
    }

    #[test]
    fn a_deck_file_is_read_as_bytes_and_named_in_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.dcfg");
        std::fs::write(&path, b"Wb8\nS\xffo3\n").unwrap();
        let name = path.display().to_string();
        let err = load(&name).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{name}:2: ")), "{err}");
        assert!(err.contains("not UTF-8"), "{err}");
        let gone = dir.path().join("gone.dcfg");
        let err = load(&gone.display().to_string()).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "no deck file {}; a deck is a .dcfg file or a named deck: championship, standard",
                gone.display()
            )
        );
    }
}

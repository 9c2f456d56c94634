//! Where the workspace, its bots and the CLI's test data are.

use std::path::{Path, PathBuf};

/// The workspace root (where `bots/` and `boards/` live), absolute.
pub fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .canonicalize()
        .expect("workspace root exists")
}

/// The bundled bots, `bots/` (the faulty and hostile ones in `bots/faulty`
/// and `bots/hostile`).
pub fn bots_dir() -> PathBuf {
    root().join("bots")
}

/// A file of the CLI's test data (`crates/cli/tests/data/`: decks, a bad
/// manifest), as an absolute path string.
pub fn data(name: &str) -> String {
    root()
        .join("crates/cli/tests/data")
        .join(name)
        .display()
        .to_string()
}

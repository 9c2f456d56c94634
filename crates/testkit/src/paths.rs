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

/// Copies the regular files of directory `from` into `to` (created if
/// missing; subdirectories are not copied).
pub fn copy_files(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy's directory");
    for entry in std::fs::read_dir(from).expect("read the directory to copy") {
        let entry = entry.expect("a directory entry");
        if entry.file_type().expect("a file type").is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy a file");
        }
    }
}

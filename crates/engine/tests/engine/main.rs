//! The engine's integration tests: one test binary of one module per area
//! (each module's own doc says what it covers), rather than one per file,
//! since each test binary links the whole dependency graph.
//!
//! Run one area with `cargo test -p dojo-engine --test engine verify::`.

mod championship_deck;
mod docs_decks;
mod pinned_records;
mod verify;

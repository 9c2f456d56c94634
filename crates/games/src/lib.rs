//! dojo's per-game layer, between the runner (processes, no game) and the
//! tournaments above (leagues, comparisons, which know no game's rules).
//!
//! Each game is a [`GameDef`] (its shape and partnerships, what a valid
//! result is, its play, smoke game and record reading), implemented once
//! in its own module and listed once in [`Game::ALL`]; [`Game`] is the
//! handle the layers above ask. Each game's setup, play through the runner
//! and record live in its module ([`cardjitsu`], [`royale`]) around the
//! one record envelope ([`record`]), with what replay does with a saved
//! game of it (checking, rerun setup, first difference, the replay page's
//! data). [`replay`] reads records (typed, once: [`parse`]), finds the bots
//! that played and compares a rerun ([`determinism`]: whether a bot played a game again
//! the same way, and what it answered each time), through [`registry`]'s `Saved` (any
//! game's record behind its `SavedGame`); [`view`] holds what every replay page shares; [`classic`] is the interactive classic game;
//! [`smoke`] the smoke start before a league; [`bots`] the bots and boards
//! resolved once and used for many games. Adding a game: see
//! `docs/adding-a-game.md`.

pub mod bots;
pub mod cardjitsu;
mod catalog;
pub mod classic;
pub mod determinism;
pub mod formats;
pub mod game;
pub mod moves;
pub mod outcome;
pub mod parse;
pub mod record;
pub mod registry;
pub mod replay;
pub mod role;
pub mod royale;
pub mod shape;
pub mod smoke;
pub mod view;

pub use bots::{BotExecutor, GameOptions, Table};
pub use cardjitsu::{CardJitsuOptions, CardJitsuRecord, CardJitsuSetup, play_cardjitsu};
pub use formats::RECORD_VERSION;
pub use game::{Game, GameDef, NameTaken, Shape, SmokeRun, UnknownGame};
pub use moves::{MoveFigures, MoveTally, Quantiles, StartupFigures, startup_entries};
pub use outcome::{BadFaultPolicy, ExecError, FaultPolicy, GameResult, SeatFaults};
pub use record::{SeatConduct, SeatInfo, Timing};
pub use registry::Saved;
pub use role::{BadFixedRole, Role, check_team, fixed_role, seat_roles};
pub use royale::{RoyaleError, RoyaleRecord, RoyaleSetup, play_royale};

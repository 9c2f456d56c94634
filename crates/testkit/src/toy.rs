//! Toy games that exist only in tests: no board, no bot processes and no
//! replayable records, each only a name and a [`Shape`]. The league and the
//! report page take every fact about a game from its `GameDef`, so a game
//! the shipped crates do not know plays like theirs
//! (`docs/adding-a-game.md`); the suites that check this share these
//! definitions:
//! - [`PARTNERS`]: four seats in two partnerships (seats 0 and 2 against
//!   1 and 3);
//! - [`COMPASS`]: four seats, each its own side, labelled `N`, `E`, `S`,
//!   `W` (as royale's seats are R, P, S). Its roles are declared in its
//!   `Shape` alone: the schedule, a bot's fixed role, the store and the
//!   report take them from there, so a game with teams of its own needs
//!   no shared-code edit.

use std::sync::Arc;

use dojo_games::game::SmokeRun;
use dojo_games::parse::RecordText;
use dojo_games::registry::NotARecord;
use dojo_games::{BotExecutor, ExecError, Game, GameDef, GameResult, Saved, Shape, Table};
use dojo_runner::{BotSpec, RunOptions};
use serde::de::Error as _;

/// A toy game's definition: its name, its title and its shape.
#[derive(Debug)]
pub struct Toy {
    pub name: &'static str,
    pub title: &'static str,
    pub shape: Shape,
}

/// Four seats in two partnerships.
pub static PARTNERS: Toy = Toy {
    name: "partners",
    title: "Partners",
    shape: Shape {
        sides: &[0, 1, 0, 1],
        roles: &[],
        board: false,
    },
};

/// Four seats with roles N, E, S, W.
pub static COMPASS: Toy = Toy {
    name: "compass",
    title: "Compass",
    shape: Shape {
        sides: &[0, 1, 2, 3],
        roles: &["N", "E", "S", "W"],
        board: false,
    },
};

impl Toy {
    /// The game, registered so a league of it reads back (`league.json`,
    /// `games.jsonl`, reports, merges).
    pub fn game(&'static self) -> Game {
        let game = Game::new(self);
        game.register()
            .unwrap_or_else(|_| panic!("no shipped game is called `{}`", self.name));
        game
    }
}

impl GameDef for Toy {
    fn name(&self) -> &'static str {
        self.name
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn shape(&self) -> Shape {
        self.shape
    }

    fn play(&self, _exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
        Err(ExecError::Failed(format!(
            "game {}: the toy game has no bot processes",
            table.id
        )))
    }

    fn smoke(
        &self,
        _bot: &Arc<BotSpec>,
        _board: Option<&str>,
        _opts: &RunOptions,
    ) -> Result<Option<SmokeRun>, String> {
        Ok(None)
    }

    fn parse_record(&self, _input: &RecordText<'_>) -> Result<Saved, NotARecord> {
        Err(NotARecord {
            kind: self.name,
            source: serde_json::Error::custom("the toy game keeps no replayable records"),
        })
    }
}

/// The partnership game, registered.
pub mod partners {
    pub use super::PARTNERS;

    /// [`PARTNERS`], registered.
    pub fn game() -> dojo_games::Game {
        PARTNERS.game()
    }
}

/// The game with roles, registered.
pub mod compass {
    pub use super::COMPASS;

    /// [`COMPASS`], registered.
    pub fn game() -> dojo_games::Game {
        COMPASS.game()
    }
}

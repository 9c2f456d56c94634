//! A toy game that exists only in tests: four seats in two partnerships
//! (seats 0 and 2 against 1 and 3), no board, no bot processes and no
//! replayable records. The league and the report page take every fact
//! about a game from its `GameDef`, so a game the shipped crates do not
//! know plays like theirs (`docs/adding-a-game.md`); the suites that check
//! this share this one definition.

use std::sync::Arc;

use dojo_games::game::SmokeRun;
use dojo_games::parse::RecordText;
use dojo_games::registry::NotARecord;
use dojo_games::{BotExecutor, ExecError, Game, GameDef, GameResult, Saved, Shape, Table};
use dojo_runner::{BotSpec, RunOptions};
use serde::de::Error as _;

/// The toy game's definition.
#[derive(Debug)]
pub struct Partners;

impl GameDef for Partners {
    fn name(&self) -> &'static str {
        "partners"
    }

    fn title(&self) -> &'static str {
        "Partners"
    }

    fn shape(&self) -> Shape {
        Shape {
            sides: &[0, 1, 0, 1],
            roles: &[],
            board: false,
        }
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
            kind: "partners",
            source: serde_json::Error::custom("the toy game keeps no replayable records"),
        })
    }
}

/// The one instance.
pub static PARTNERS: Partners = Partners;

/// The toy game, registered so a league of it reads back (`league.json`,
/// reports, merges).
pub fn game() -> Game {
    let game = Game::new(&PARTNERS);
    game.register()
        .expect("no shipped game is called `partners`");
    game
}

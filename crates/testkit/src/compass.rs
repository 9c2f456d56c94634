//! A toy game with seat roles that exists only in tests: four seats, each
//! its own side, labelled `N`, `E`, `S`, `W` (as royale's seats are R, P,
//! S), no board and no bot processes. Its roles are declared in its
//! `Shape` alone: the schedule, a bot's fixed role, the store and the
//! report take them from there, so a game with teams of its own needs no
//! shared-code edit (`docs/adding-a-game.md`).

use std::sync::Arc;

use dojo_games::game::SmokeRun;
use dojo_games::parse::RecordText;
use dojo_games::registry::NotARecord;
use dojo_games::{BotExecutor, ExecError, Game, GameDef, GameResult, Saved, Shape, Table};
use dojo_runner::{BotSpec, RunOptions};
use serde::de::Error as _;

/// The toy game's definition.
#[derive(Debug)]
pub struct Compass;

impl GameDef for Compass {
    fn name(&self) -> &'static str {
        "compass"
    }

    fn title(&self) -> &'static str {
        "Compass"
    }

    fn shape(&self) -> Shape {
        Shape {
            sides: &[0, 1, 2, 3],
            roles: &["N", "E", "S", "W"],
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
            kind: "compass",
            source: serde_json::Error::custom("the toy game keeps no replayable records"),
        })
    }
}

/// The one instance.
pub static COMPASS: Compass = Compass;

/// The toy game, registered so a league of it reads back (`league.json`,
/// `games.jsonl`).
pub fn game() -> Game {
    let game = Game::new(&COMPASS);
    game.register()
        .expect("no shipped game is called `compass`");
    game
}

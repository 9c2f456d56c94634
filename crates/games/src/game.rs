//! The games dojo plays: each is a [`GameDef`] (its shape, seating and
//! partnerships, what a valid result is, how it is played, smoke started
//! and its record read), implemented once in the game's module and listed
//! once, in [`Game::ALL`]. [`Game`] is the handle everything above passes
//! around (a fixture's game, `league.json`'s `game`); the tournaments ask
//! it instead of `match`ing on a game, so a game defined elsewhere (a
//! test's toy game, see [`Game::register`]) plays leagues like the shipped
//! ones.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::str::FromStr;
use std::sync::{Arc, RwLock};

use dojo_runner::{BotSpec, RunOptions};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::bots::{BotExecutor, Table};
use crate::outcome::{ExecError, GameResult};
use crate::parse::RecordText;
use crate::record::SeatConduct;
use crate::registry::{NotARecord, Saved};
pub use crate::shape::Shape;

/// What one short game of the smoke start shows: each seat's conduct and
/// stderr.
pub type SmokeRun = (Vec<SeatConduct>, Vec<Vec<String>>);

/// Everything dojo needs to know about one game above its rules,
/// implemented once per game (in its module) and listed in [`Game::ALL`].
pub trait GameDef: Send + Sync + 'static {
    /// The name used on the command line and in every file
    /// (`"cardjitsu"`); unique among games.
    fn name(&self) -> &'static str;
    /// What pages call it (`"CardJitsu"`).
    fn title(&self) -> &'static str;
    /// Seats, partnerships, team labels, boards.
    fn shape(&self) -> Shape;
    /// `dojo compare`'s bot for the seats beyond NEW and BASE when none is
    /// named (royale's third team); `None` for a game without such seats.
    fn extra_seat_bot(&self) -> Option<&'static str> {
        None
    }
    /// Plays one game of a league or comparison with `exec`'s bots.
    fn play(&self, exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError>;
    /// The smoke start's short game with `bot` in every seat, on `board`
    /// (the text of one of the league's board files, for a game played on
    /// boards); `None` when there is nothing to check (royale without a
    /// board).
    fn smoke(
        &self,
        bot: &Arc<BotSpec>,
        board: Option<&str>,
        opts: &RunOptions,
    ) -> Result<Option<SmokeRun>, String>;
    /// Reads a saved record of this game (its `"game"` field names it)
    /// into the game's typed record. (Checking it is
    /// [`crate::replay::SavedGame::check`].)
    fn parse_record(&self, input: &RecordText<'_>) -> Result<Saved, NotARecord>;
}

/// A game: a handle on its [`GameDef`], copied freely. Equal, ordered and
/// hashed by name; serialised as its name (`"cardjitsu"`, `"royale"`) in
/// `league.json`, reports and records.
#[derive(Clone, Copy)]
pub struct Game(&'static dyn GameDef);

impl Game {
    /// The game `def` defines (for games outside [`Game::ALL`]).
    pub const fn new(def: &'static dyn GameDef) -> Game {
        Game(def)
    }

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// Makes names resolve to a game defined outside this crate (a test's
    /// toy game), so its `league.json` and reports read back. Registering
    /// the same game again is harmless; a name already taken by another
    /// game is refused.
    pub fn register(self) -> Result<(), NameTaken> {
        let mut extra = EXTRA.write().unwrap_or_else(|e| e.into_inner());
        match Game::lookup(self.name(), &extra) {
            Some(g) if std::ptr::addr_eq(g.0, self.0) => Ok(()),
            Some(_) => Err(NameTaken(self.name())),
            None => {
                extra.push(self);
                Ok(())
            }
        }
    }

    fn lookup(name: &str, extra: &[Game]) -> Option<Game> {
        Game::ALL
            .iter()
            .chain(extra)
            .find(|g| g.name() == name)
            .copied()
    }
}

/// Games registered with [`Game::register`]: none in the shipped binary.
static EXTRA: RwLock<Vec<Game>> = RwLock::new(Vec::new());

/// [`Game::register`] with a name another game has.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a game named `{0}` is already registered")]
pub struct NameTaken(pub &'static str);

impl Deref for Game {
    type Target = dyn GameDef;

    fn deref(&self) -> &(dyn GameDef + 'static) {
        self.0
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Game {}

impl PartialOrd for Game {
    fn partial_cmp(&self, other: &Game) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Game {
    fn cmp(&self, other: &Game) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl Hash for Game {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({})", self.name())
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// An unknown game name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game `{0}`: expected `cardjitsu` or `royale`")]
pub struct UnknownGame(pub String);

impl FromStr for Game {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let extra = EXTRA.read().unwrap_or_else(|e| e.into_inner());
        Game::lookup(s, &extra).ok_or_else(|| UnknownGame(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for game in Game::ALL {
            assert_eq!(game.name().parse::<Game>(), Ok(game));
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(json, format!("\"{}\"", game.name()));
            assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
        }
        assert_eq!(
            "chess".parse::<Game>(),
            Err(UnknownGame("chess".to_owned()))
        );
        assert!(serde_json::from_str::<Game>("\"chess\"").is_err());
    }

    #[test]
    fn every_shipped_game_has_a_unique_name_and_a_sane_shape() {
        let expected = [("cardjitsu", 2), ("royale", 3)];
        assert_eq!(Game::ALL.len(), expected.len());
        for (game, (name, seats)) in Game::ALL.into_iter().zip(expected) {
            assert_eq!(game.name(), name);
            let shape = game.shape();
            assert_eq!(shape.seats(), seats, "{game}");
            assert!(!shape.partnerships(), "{game}");
            // Sides are numbered from 0 without gaps.
            for side in 0..shape.side_count() {
                assert!(shape.sides.contains(&side), "{game}");
            }
            assert_eq!(shape.board, game.extra_seat_bot().is_some(), "{game}");
            // Roles: none, or one distinct label per seat.
            let roles: std::collections::BTreeSet<_> = shape.roles.iter().collect();
            assert!(roles.is_empty() || roles.len() == seats, "{game}");
            assert!(shape.roles.len() == roles.len(), "{game}");
        }
        assert_eq!(Game::ROYALE.shape().roles, ["R", "P", "S"]);
        assert!(Game::CARDJITSU.shape().roles.is_empty());
        assert_eq!(Game::ALL[0], Game::CARDJITSU);
        assert!(Game::CARDJITSU < Game::ROYALE);
        assert_eq!(Game::ROYALE.title(), "Royale");
        assert_eq!(Game::CARDJITSU.title(), "CardJitsu");
    }

    #[test]
    fn a_result_is_one_side_winning_or_a_draw() {
        let royale = Game::ROYALE.shape();
        assert!(royale.check_scores(&[0.0, 1.0, 0.0]).is_ok());
        assert!(royale.check_scores(&[0.5; 3]).is_ok());
        assert!(royale.check_scores(&[1.0, 1.0, 0.0]).is_err());
        assert!(royale.check_scores(&[0.0; 3]).is_err());
        assert!(royale.check_scores(&[1.0, 0.0]).is_err());
        // Two sides drew, the third (faulty) lost; one side at 0.5 alone
        // would be a win, not a draw.
        assert!(royale.check_scores(&[0.0, 0.5, 0.5]).is_ok());
        assert!(royale.check_scores(&[0.0, 0.0, 0.5]).is_err());
        assert!(royale.check_scores(&[1.0, 0.5, 0.0]).is_err());
        assert!(Game::CARDJITSU.shape().check_scores(&[0.5, 0.0]).is_err());
        let teams = Shape {
            sides: &[0, 1, 0, 1],
            roles: &[],
            board: false,
        };
        assert!(teams.partnerships() && teams.partners(1, 3) && !teams.partners(0, 1));
        assert!(teams.check_scores(&[0.0, 1.0, 0.0, 1.0]).is_ok());
        assert!(teams.check_scores(&[0.5; 4]).is_ok());
        assert!(teams.check_scores(&[1.0, 0.0, 0.0, 0.0]).is_err());
        assert!(teams.check_scores(&[1.0, 1.0, 0.0, 0.0]).is_err());
        assert!(teams.check_scores(&[0.5, 0.0, 0.5, 0.0]).is_err());
        assert!(teams.check_scores(&[0.5, 0.5, 0.0, 0.5]).is_err());
    }
}

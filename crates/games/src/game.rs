//! The games dojo plays, as one enum: every per-game decision above the
//! engine is an exhaustive `match` on [`Game`] (most of them in
//! `crate::registry`), so a game added here is a compile error everywhere
//! it still needs an arm.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A game dojo can play. Serialised as its name (`"cardjitsu"`, `"royale"`)
/// in `league.json`, reports and records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Game {
    /// Two seats; pairs of bots play seat-swapped seed pairs.
    Cardjitsu,
    /// Three teams R, P, S; one bot per team per game.
    Royale,
}

impl Game {
    /// Every game, in the order help texts list them.
    pub const ALL: [Game; 2] = [Game::Cardjitsu, Game::Royale];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Game::Cardjitsu => "cardjitsu",
            Game::Royale => "royale",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown game name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game `{0}`: expected `cardjitsu` or `royale`")]
pub struct UnknownGame(pub String);

impl FromStr for Game {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Game::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGame(s.to_owned()))
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
    }
}

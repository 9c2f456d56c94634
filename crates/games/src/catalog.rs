//! The shipped games: each a [`Game`] of its own module's [`GameDef`],
//! and [`Game::ALL`], the registry every list of games is built from. The
//! shared code (`game.rs` and what builds on it) names no game; this file
//! is where a new game is added (one line, and its `GameDef`).

use crate::game::Game;

impl Game {
    /// CardJitsu: two seats; pairs of bots play seat-swapped seed pairs.
    pub const CARDJITSU: Game = Game::new(&crate::cardjitsu::CardJitsuGame);
    /// Royale: three teams R, P, S; one bot per team per game.
    pub const ROYALE: Game = Game::new(&crate::royale::RoyaleGame);

    /// The registry: every shipped game, in the order help texts list
    /// them. A new game is one line here (and its `GameDef`).
    pub const ALL: [Game; 2] = [Game::CARDJITSU, Game::ROYALE];
}

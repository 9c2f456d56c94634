//! Bot processes and the loop that connects them to a game.

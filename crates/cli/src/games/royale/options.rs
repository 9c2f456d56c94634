//! Royale's option flags, declared once: `--stall-rounds`
//! ([`RoyaleArgs`], with `--max-rounds` from the common group), taken by
//! `dojo match royale` and by every command that plays any game. Their
//! stored form ([`RoyaleArgs::store`], a league's `play`) and the
//! library's settings read from it ([`resolve`]) are the one path from
//! the flags to a game. The board is not an option: a match is played on
//! one (`--board FILE`), a league rotates through several.

use anyhow::Result;
use clap::Args;
use dojo_engine::royale;
use dojo_league::PlayOptions;

use crate::games::options::CommonArgs;

/// The help heading of royale's options.
pub const HEADING: &str = "Royale options";

/// The default of `--max-rounds`, as help says it (the engine's
/// `royale::Settings` applies it).
pub const MAX_ROUNDS_DEFAULT: &str = "10 * (width + height)";

/// Royale's own option flags.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = HEADING)]
pub struct RoyaleArgs {
    /// Whole rounds without any tile changing after which the game is a
    /// draw [default: width + height, or longer where walls make walks
    /// longer (boards/README.md)].
    #[arg(long, value_name = "N", value_parser = crate::args::at_least_one_u32, allow_negative_numbers = true)]
    pub stall_rounds: Option<u32>,
}

/// The stored name of `--stall-rounds`.
const STALL_ROUNDS: &str = "stall-rounds";

impl RoyaleArgs {
    /// The stored form (a league's `play`): `base` with the values of the
    /// flags given, `common`'s among them.
    pub fn store(&self, common: &CommonArgs, base: &PlayOptions) -> PlayOptions {
        let mut play = base.clone();
        common.store(&mut play);
        if let Some(n) = self.stall_rounds {
            play.set(STALL_ROUNDS, Some(n.to_string()));
        }
        play
    }
}

/// The round limits stored in `play`: what a game is played with (a
/// limit not given is the board's default, applied by the engine).
pub fn resolve(play: &PlayOptions) -> Result<royale::Settings> {
    Ok(royale::Settings {
        max_rounds: CommonArgs::max_rounds(play)?,
        stall_rounds: crate::games::stored(play, STALL_ROUNDS)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Command, FromArgMatches};

    fn settings(args: &[&str]) -> (PlayOptions, royale::Settings) {
        let cmd = RoyaleArgs::augment_args(CommonArgs::augment_args(Command::new("match")));
        let m = cmd.try_get_matches_from(args).unwrap();
        let common = CommonArgs::from_arg_matches(&m).unwrap();
        let own = RoyaleArgs::from_arg_matches(&m).unwrap();
        let play = own.store(&common, &PlayOptions::default());
        let resolved = resolve(&play).unwrap();
        (play, resolved)
    }

    #[test]
    fn no_flags_leave_the_limits_to_the_board() {
        let (play, s) = settings(&["match"]);
        assert_eq!(play, PlayOptions::default());
        assert_eq!((s.max_rounds, s.stall_rounds), (None, None));
    }

    #[test]
    fn the_flags_resolve_to_the_settings() {
        let (play, s) = settings(&["match", "--max-rounds", "9", "--stall-rounds", "4"]);
        assert_eq!(play.get("max-rounds"), Some("9"));
        assert_eq!(play.get("stall-rounds"), Some("4"));
        assert_eq!((s.max_rounds, s.stall_rounds), (Some(9), Some(4)));
    }
}

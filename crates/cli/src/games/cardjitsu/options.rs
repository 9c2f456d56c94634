//! CardJitsu's option flags, declared once: `--rules`, `--deck1`,
//! `--deck2` ([`CardJitsuArgs`], with `--max-rounds` from the common
//! group), taken by `dojo match cardjitsu` and by every command that
//! plays any game; `--rules` alone ([`RulesFlag`]) by `dojo play
//! cardjitsu`. Their stored form ([`CardJitsuArgs::store`], a league's
//! `play`) and the library's settings read from it ([`resolve`]) are the
//! one path from the flags to a game, for a match as for a league.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use dojo_engine::cardjitsu::{self, Ruleset};
use dojo_games::CardJitsuOptions;
use dojo_games::cardjitsu::decks;
use dojo_league::PlayOptions;

use crate::games::options::CommonArgs;

/// The help heading of CardJitsu's options.
pub const HEADING: &str = "CardJitsu options";

/// `--rules`: which CardJitsu rules to play by.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RulesFlag {
    /// Which rules to play by: `tournament` (power cards and Reverse, the
    /// championship deck) or `classic` (the older variant: no power
    /// cards, no Reverse, the standard deck) [default: tournament].
    #[arg(id = "rules", long = "rules", value_enum, value_name = "RULES")]
    pub given: Option<RulesArg>,
}

impl RulesFlag {
    /// The rules given, or the default (tournament).
    pub fn rules(&self) -> Ruleset {
        self.given.map(Ruleset::from).unwrap_or_default()
    }
}

/// CardJitsu's own option flags.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = HEADING)]
pub struct CardJitsuArgs {
    #[command(flatten)]
    pub rules: RulesFlag,
    /// The deck seat 1 draws from: `championship` (the tournament rules'
    /// default: the championship's 30 cards, dealt without replacement),
    /// `standard` (the classic rules' default: 198 cards, drawn with
    /// replacement) or a .dcfg file (see docs/decks.md).
    #[arg(long, value_name = "DECK", value_hint = clap::ValueHint::FilePath)]
    pub deck1: Option<PathBuf>,
    /// The deck seat 2 draws from (as --deck1).
    #[arg(long, value_name = "DECK", value_hint = clap::ValueHint::FilePath)]
    pub deck2: Option<PathBuf>,
}

impl CardJitsuArgs {
    /// The stored form (a league's `play`): `base` with the values of the
    /// flags given, `common`'s among them; a value that is the default is
    /// left out (`--deck1 championship` is the same league as none).
    pub fn store(&self, common: &CommonArgs, base: &PlayOptions) -> Result<PlayOptions> {
        let mut play = base.clone();
        common.store(&mut play);
        if let Some(rules) = self.rules.given.map(Ruleset::from) {
            play.set(
                "rules",
                (rules != Ruleset::default()).then(|| rules.to_string()),
            );
        }
        for (flag, path) in [("deck1", &self.deck1), ("deck2", &self.deck2)] {
            if let Some(path) = path {
                play.set(flag, Some(deck_name(path)?));
            }
        }
        let rules: Ruleset = crate::games::stored(&play, "rules")?.unwrap_or_default();
        for flag in ["deck1", "deck2"] {
            if play.get(flag).is_some_and(|d| decks::is_default(d, rules)) {
                play.set(flag, None);
            }
        }
        Ok(play)
    }

    /// The files the flags read, with their flags (inputs no output of
    /// `dojo match` may overwrite).
    pub fn inputs(&self) -> [(&'static str, Option<&Path>); 2] {
        [
            ("--deck1", self.deck1.as_deref()),
            ("--deck2", self.deck2.as_deref()),
        ]
    }
}

/// The name a `--deckN` value is recorded under ([`decks::name_of`]).
fn deck_name(given: &Path) -> Result<String> {
    decks::name_of(given).with_context(|| format!("cannot resolve {}", given.display()))
}

/// The rules, decks (read and checked now) and round limit stored in
/// `play`, with the decks' names for the records: what a game is played
/// with.
pub fn resolve(play: &PlayOptions) -> Result<CardJitsuOptions> {
    let rules: Ruleset = crate::games::stored(play, "rules")?.unwrap_or_default();
    let defaults = decks::default_names(rules);
    let deck_names = [0, 1].map(|seat| {
        play.get(&format!("deck{}", seat + 1))
            .unwrap_or(&defaults[seat])
            .to_owned()
    });
    let settings = cardjitsu::Settings {
        rules,
        max_rounds: CommonArgs::max_rounds(play)?.unwrap_or(cardjitsu::DEFAULT_MAX_ROUNDS),
        decks: [decks::load(&deck_names[0])?, decks::load(&deck_names[1])?],
    };
    Ok(CardJitsuOptions {
        settings,
        deck_names,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// CardJitsu Bot Championship rules: power cards and Reverse.
    Tournament,
    /// The older Card-Jitsu variant: no power cards, no Reverse.
    Classic,
}

impl From<RulesArg> for Ruleset {
    fn from(rules: RulesArg) -> Ruleset {
        match rules {
            RulesArg::Tournament => Ruleset::Tournament,
            RulesArg::Classic => Ruleset::Classic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Command, FromArgMatches};

    /// The flags as `dojo match cardjitsu` takes them, parsed from `args`.
    fn parse(args: &[&str]) -> (CommonArgs, CardJitsuArgs) {
        let cmd = CardJitsuArgs::augment_args(CommonArgs::augment_args(Command::new("match")));
        let m = cmd.try_get_matches_from(args).unwrap();
        (
            CommonArgs::from_arg_matches(&m).unwrap(),
            CardJitsuArgs::from_arg_matches(&m).unwrap(),
        )
    }

    fn settings(args: &[&str]) -> (PlayOptions, CardJitsuOptions) {
        let (common, own) = parse(args);
        let play = own.store(&common, &PlayOptions::default()).unwrap();
        let resolved = resolve(&play).unwrap();
        (play, resolved)
    }

    #[test]
    fn no_flags_are_the_tournament_defaults_and_store_nothing() {
        let (play, o) = settings(&["match"]);
        assert_eq!(play, PlayOptions::default());
        assert_eq!(o.settings.rules, Ruleset::Tournament);
        assert_eq!(o.settings.max_rounds, cardjitsu::DEFAULT_MAX_ROUNDS);
        assert_eq!(o.deck_names, ["championship", "championship"]);
    }

    #[test]
    fn the_flags_resolve_to_the_settings() {
        let (play, o) = settings(&[
            "match",
            "--rules",
            "classic",
            "--deck2",
            "championship",
            "--max-rounds",
            "7",
        ]);
        assert_eq!(play.get("rules"), Some("classic"));
        assert_eq!(play.get("max-rounds"), Some("7"));
        assert_eq!(o.settings.rules, Ruleset::Classic);
        assert_eq!(o.settings.max_rounds, 7);
        assert_eq!(o.deck_names, ["standard", "championship"]);
    }

    #[test]
    fn a_deck_that_is_the_rules_default_is_not_stored() {
        let (play, o) = settings(&["match", "--rules", "tournament", "--deck1", "championship"]);
        assert_eq!(play, PlayOptions::default());
        assert_eq!(o.deck_names[0], "championship");
    }

    #[test]
    fn a_deck_file_is_stored_by_its_absolute_path() {
        let (common, own) = parse(&["match", "--deck1", "some/deck.dcfg"]);
        let play = own.store(&common, &PlayOptions::default()).unwrap();
        let stored = play.get("deck1").unwrap();
        assert!(Path::new(stored).is_absolute(), "{stored}");
        assert!(stored.ends_with("some/deck.dcfg"), "{stored}");
    }

    #[test]
    fn rules_alone_default_to_tournament() {
        assert_eq!(RulesFlag::default().rules(), Ruleset::Tournament);
        let classic = RulesFlag {
            given: Some(RulesArg::Classic),
        };
        assert_eq!(classic.rules(), Ruleset::Classic);
    }
}

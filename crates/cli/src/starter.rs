//! Starter bots for `dojo new`: per game and language, the files of a
//! small bot that plays legal moves, as written in
//! `crates/cli/templates/GAME/LANG/` (real files, so they can be read,
//! run and linted as they are) and compiled into the binary. Each game
//! lists its own in its module (`GameCli::starter`); `cmd::new` writes one
//! out.

use clap::ValueEnum;

/// A language a starter bot is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// Python 3 (`python3 bot.py`)
    #[value(alias = "py")]
    Python,
    /// C (built with `cc`)
    C,
    /// JavaScript for Node.js (`node bot.js`)
    #[value(alias = "js", alias = "javascript")]
    Node,
    /// Rust (built with `cargo`, standard library only)
    #[value(alias = "rs")]
    Rust,
    /// POSIX sh (`sh bot.sh`)
    #[value(alias = "shell")]
    Sh,
}

impl Lang {
    /// Every language, in `--help`'s order.
    #[cfg(test)]
    pub const ALL: [Lang; 5] = [Lang::Python, Lang::C, Lang::Node, Lang::Rust, Lang::Sh];

    /// Its name on the command line (`--lang`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::C => "c",
            Lang::Node => "node",
            Lang::Rust => "rust",
            Lang::Sh => "sh",
        }
    }

    /// The program a bot in it needs on PATH to build or run.
    pub fn tool(self) -> &'static str {
        match self {
            Lang::Python => "python3",
            Lang::C => "cc",
            Lang::Node => "node",
            Lang::Rust => "cargo",
            Lang::Sh => "sh",
        }
    }
}

/// One starter bot: its files, each a path relative to the bot's
/// directory and its text, where `{{name}}` stands for the bot's name.
#[derive(Debug)]
pub struct Template {
    pub lang: Lang,
    pub files: &'static [(&'static str, &'static str)],
}

/// A game's starter bots, one per language (`Lang`).
#[derive(Debug)]
pub struct Starter {
    pub templates: &'static [Template],
    /// The arguments of a `dojo match` that tries the new bot against a
    /// bundled one, `{dir}` standing for the bot's directory.
    pub try_it: &'static [&'static str],
}

impl Starter {
    pub fn template(&self, lang: Lang) -> Option<&'static Template> {
        self.templates.iter().find(|t| t.lang == lang)
    }
}

/// The placeholder a template's files hold for the bot's name.
const NAME: &str = "{{name}}";

/// The text of a template's file for the bot `name`.
pub fn fill(text: &str, name: &str) -> String {
    text.replace(NAME, name)
}

/// A [`Template`] of the files `templates/GAME/DIR/FILE..`.
macro_rules! template {
    ($game:literal, $dir:literal, $lang:expr, [$($file:literal),+ $(,)?]) => {
        $crate::starter::Template {
            lang: $lang,
            files: &[$((
                $file,
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/templates/",
                    $game,
                    "/",
                    $dir,
                    "/",
                    $file
                )),
            )),+],
        }
    };
}

/// The starter bots of `$game` (a literal: its directory under
/// `templates/`), one per language, with their usual files.
macro_rules! starters {
    ($game:literal) => {
        &[
            $crate::starter::template!(
                $game,
                "python",
                $crate::starter::Lang::Python,
                ["bot.toml", "bot.py"]
            ),
            $crate::starter::template!($game, "c", $crate::starter::Lang::C, ["bot.toml", "bot.c"]),
            $crate::starter::template!(
                $game,
                "node",
                $crate::starter::Lang::Node,
                ["bot.toml", "bot.js"]
            ),
            $crate::starter::template!(
                $game,
                "rust",
                $crate::starter::Lang::Rust,
                ["bot.toml", "Cargo.toml", "src/main.rs"]
            ),
            $crate::starter::template!(
                $game,
                "sh",
                $crate::starter::Lang::Sh,
                ["bot.toml", "bot.sh"]
            ),
        ]
    };
}

pub(crate) use {starters, template};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::CLIS;

    /// Every game has a starter in every language, each with a
    /// `bot.toml` that names the bot and lists the game, and no file
    /// left with a placeholder other than the name's.
    #[test]
    fn every_game_has_a_starter_bot_in_every_language() {
        for game_cli in CLIS {
            let game = game_cli.game();
            let starter = game_cli.starter();
            for lang in Lang::ALL {
                let t = starter
                    .template(lang)
                    .unwrap_or_else(|| panic!("{game}: no {} starter", lang.name()));
                let (_, manifest) = t
                    .files
                    .iter()
                    .find(|(path, _)| *path == "bot.toml")
                    .unwrap_or_else(|| panic!("{game}/{}: no bot.toml", lang.name()));
                let manifest = fill(manifest, "x");
                assert!(manifest.contains("name = \"x\""), "{game}/{}", lang.name());
                assert!(
                    manifest.contains(&format!("games = [\"{game}\"]")),
                    "{game}/{}",
                    lang.name()
                );
                for (path, text) in t.files {
                    assert!(
                        !fill(text, "x").contains("{{"),
                        "{game}/{}/{path}: a placeholder other than {NAME}",
                        lang.name()
                    );
                }
            }
            assert!(starter.try_it.contains(&"{dir}"), "{game}");
        }
    }

    /// The bundled shell bot, whose seed lines the sh starters share.
    const RANDOM_SH: &str = include_str!("../../../bots/random-sh/bot.sh");

    /// The last of the seed lines.
    const STATE_LINE: &str =
        "state=$(( ((${high:-0} % 2147483648) * 1103515245 + ${low:-0}) % 2147483648 ))\n";

    /// The lines of a shell bot that derive its generator's state from
    /// DOJO_SEED: from the comment that explains them to [`STATE_LINE`].
    fn seed_lines(script: &str) -> &str {
        let start = script
            .find("# The LCG starts from all of DOJO_SEED")
            .expect("no seed lines");
        let end =
            start + script[start..].find(STATE_LINE).expect("no state line") + STATE_LINE.len();
        &script[start..end]
    }

    /// Every sh starter derives its seed exactly as the bundled shell bot
    /// does, in the same words: one way that holds in dash, whose
    /// arithmetic saturates above 2^63 - 1 (half of all seeds).
    #[test]
    fn sh_starters_derive_the_seed_as_the_bundled_shell_bot_does() {
        let bundled = seed_lines(RANDOM_SH);
        for game_cli in CLIS {
            let t = game_cli.starter().template(Lang::Sh).unwrap();
            let (_, script) = t.files.iter().find(|(p, _)| *p == "bot.sh").unwrap();
            assert_eq!(seed_lines(script), bundled, "{}", game_cli.game());
        }
    }

    #[test]
    fn lang_names_are_the_command_lines() {
        for lang in Lang::ALL {
            let parsed = Lang::from_str(lang.name(), false).unwrap();
            assert_eq!(parsed, lang);
        }
    }
}

//! The `dojo league` command that plays a league again: derived from its
//! settings (every field that changes a result) and its origin (where its
//! bots were found, `--allow-broken`), as an argv list. Run from any
//! directory it plays the same league: bots named under a bots directory
//! come with that directory, absolute; bots given as paths were stored
//! absolute when the league started.

use dojo_engine::cardjitsu::Ruleset;

use crate::settings::{FaultPolicy, Origin, PlayOptions, Raises, Settings};

/// The words of the command, `dojo` first.
pub fn league_argv(settings: &Settings, origin: &Origin) -> Vec<String> {
    let mut words: Vec<String> = vec!["dojo".into()];
    if let Some(dir) = &origin.bots_dir {
        words.extend(["--bots-dir".into(), dir.display().to_string()]);
    }
    words.extend(["league".into(), settings.game.to_string()]);
    let new = settings.gauntlet.as_deref();
    let entrant = |name: &str| settings.bots.iter().find(|b| b.name == name);
    words.extend(
        settings
            .bots
            .iter()
            .filter(|b| Some(b.name.as_str()) != new)
            .map(|b| b.command.clone()),
    );
    if let Some(new) = new {
        let command = entrant(new).map_or_else(|| new.to_owned(), |b| b.command.clone());
        words.extend(["--gauntlet".into(), command]);
    }
    if let Some(sprt) = &settings.sprt {
        words.extend(["--sprt".into(), sprt.to_string()]);
    }
    words.extend([
        "--games".into(),
        settings.games.to_string(),
        "--seed".into(),
        settings.seed.to_string(),
    ]);
    if !settings.boards.is_empty() {
        words.push("--board".into());
        words.extend(settings.boards.iter().cloned());
    }
    if let Some(anchor) = &settings.anchor {
        words.push("--anchor".into());
        words.push(match settings.anchor_elo {
            Some(elo) => format!("{anchor}={elo}"),
            None => anchor.clone(),
        });
    }
    words.extend(play_args(&settings.play));
    words.extend(settings.controls.to_args());
    if settings.raises != Raises::default_for(settings.controls.sandbox) {
        words.extend(["--bot-raises".into(), settings.raises.name().into()]);
    }
    if settings.faults != FaultPolicy::default() {
        words.extend(["--faults".into(), settings.faults.to_string()]);
    }
    if let Some(shard) = settings.shard {
        words.extend(["--shard".into(), shard.to_string()]);
    }
    if origin.allow_broken {
        words.push("--allow-broken".into());
    }
    words
}

/// The game flags that give `play` (those that differ from the defaults).
fn play_args(play: &PlayOptions) -> Vec<String> {
    let mut words = Vec::new();
    if play.rules == Ruleset::Classic {
        words.extend(["--rules".into(), "classic".into()]);
    }
    let default = PlayOptions::default();
    for ((flag, deck), standard) in ["--deck1", "--deck2"]
        .into_iter()
        .zip(&play.decks)
        .zip(&default.decks)
    {
        if deck != standard {
            words.extend([flag.into(), deck.clone()]);
        }
    }
    for (flag, limit) in [
        ("--max-rounds", play.max_rounds),
        ("--stall-rounds", play.stall_rounds),
    ] {
        if let Some(n) = limit {
            words.extend([flag.into(), n.to_string()]);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Entrant;

    #[test]
    fn the_command_carries_every_setting_and_the_origin() {
        let bot = |name: &str, command: &str| Entrant {
            name: name.into(),
            command: command.into(),
            fixed_team: None,
            values: Default::default(),
        };
        let mut settings: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu", "bots": [], "games": 4, "seed": "7",
            "controls": dojo_runner::Controls::default(),
        }))
        .unwrap();
        settings.bots = vec![bot("a", "a"), bot("b", "/abs/b"), bot("n", "new-bot")];
        settings.gauntlet = Some("n".into());
        settings.play.rules = Ruleset::Classic;
        settings.play.decks[1] = "/decks/x.dcfg".into();
        settings.play.max_rounds = Some(40);
        settings.controls.sandbox = dojo_runner::SandboxMode::Off;
        settings.controls.time = dojo_runner::TimeMode::Cpu;
        settings.raises = Raises::Cap;
        settings.faults = FaultPolicy::Fallback;
        let origin = Origin {
            bots_dir: Some("/home/me/bots".into()),
            allow_broken: true,
            pages: Vec::new(),
            ..Default::default()
        };
        assert_eq!(
            league_argv(&settings, &origin).join(" "),
            "dojo --bots-dir /home/me/bots league cardjitsu a /abs/b --gauntlet new-bot \
             --games 4 --seed 7 --rules classic --deck2 /decks/x.dcfg --max-rounds 40 \
             --time cpu --sandbox off --bot-raises cap --faults fallback --allow-broken"
        );
    }
}

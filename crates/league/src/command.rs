//! The `dojo league` command that plays a league again: derived from its
//! settings (every field that changes a result) and its origin (where its
//! bots were found, `--allow-broken`), as an argv list. Run from any
//! directory it plays the same league: bots named under a bots directory
//! come with that directory, absolute; bots given as paths were stored
//! absolute when the league started.

use crate::settings::{FaultPolicy, Origin, Raises, Settings};

/// What `--resume` does with a setting's flag given beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnResume {
    /// Fixed when the league starts: another value is a conflict.
    Fixed,
    /// May grow, never shrink (`--games`: the schedule with more games
    /// holds every fixture it had, with the same ids and seeds).
    Grows,
    /// Applied and stored: it changes only the report (`--anchor`).
    Applied,
}

/// One league setting that is not a control (those are
/// `dojo_runner::CONTROLS`), a game option (the game's, stored as its flag
/// values: [`crate::PlayOptions`]) nor a bot: its `dojo league` flag, what
/// `--resume` does with it, and its value as the words after the flag.
#[derive(Debug)]
pub struct SettingFlag {
    pub flag: &'static str,
    pub on_resume: OnResume,
    /// The words after the flag; `None` when the setting is unset (its
    /// game's default, no shard...), and the command leaves the flag out.
    pub words: fn(&Settings) -> Option<Vec<String>>,
    /// Whether its value is the one the flag's absence gives, so the
    /// command leaves it out too.
    pub is_default: fn(&Settings) -> bool,
}

impl SettingFlag {
    const fn new(
        flag: &'static str,
        on_resume: OnResume,
        words: fn(&Settings) -> Option<Vec<String>>,
        is_default: fn(&Settings) -> bool,
    ) -> SettingFlag {
        SettingFlag {
            flag,
            on_resume,
            words,
            is_default,
        }
    }

    /// The value as a conflict message shows it.
    pub fn shown(&self, settings: &Settings) -> String {
        (self.words)(settings).map_or_else(|| "the default".to_owned(), |w| w.join(" "))
    }

    /// The words the command gives it: none when it is unset or at its
    /// default.
    pub fn argv(&self, settings: &Settings) -> Option<Vec<String>> {
        (self.words)(settings).filter(|_| !(self.is_default)(settings))
    }
}

/// For the settings always written out (or absent when unset).
fn written(_: &Settings) -> bool {
    false
}

fn one(word: impl ToString) -> Option<Vec<String>> {
    Some(vec![word.to_string()])
}

/// Every such setting, in the order the recorded command gives them. The
/// command ([`league_argv`]) and `--resume`'s check of the flags given
/// beside it ([`conflicts`]) are both derived from this list and the
/// game's stored flag values.
pub const SETTING_FLAGS: &[SettingFlag] = &[
    SettingFlag::new(
        "--sprt",
        OnResume::Fixed,
        |s| s.sprt.as_ref().and_then(one),
        written,
    ),
    SettingFlag::new("--games", OnResume::Grows, |s| one(s.games), written),
    SettingFlag::new("--seed", OnResume::Fixed, |s| one(s.seed), written),
    SettingFlag::new(
        "--board",
        OnResume::Fixed,
        |s| (!s.boards.is_empty()).then(|| s.boards.clone()),
        written,
    ),
    SettingFlag::new(
        "--anchor",
        OnResume::Applied,
        |s| {
            let anchor = s.anchor.as_ref()?;
            one(match s.anchor_elo {
                Some(elo) => format!("{anchor}={elo}"),
                None => anchor.clone(),
            })
        },
        written,
    ),
    SettingFlag::new(
        "--bot-raises",
        OnResume::Fixed,
        |s| one(s.raises.name()),
        |s| s.raises == Raises::default_for(s.controls.sandbox),
    ),
    SettingFlag::new(
        "--faults",
        OnResume::Fixed,
        |s| one(s.faults),
        |s| s.faults == FaultPolicy::default(),
    ),
    SettingFlag::new(
        "--shard",
        OnResume::Fixed,
        |s| s.shard.and_then(one),
        written,
    ),
];

/// The flags given beside `--resume` that would change a fixed setting of
/// the `stored` league: `given` is the stored settings with those flags laid
/// over them. Each as `--flag value (the league has value)`.
pub fn conflicts(given: &Settings, stored: &Settings) -> Vec<String> {
    let mut found = Vec::new();
    for flag in SETTING_FLAGS {
        let grows = flag.on_resume == OnResume::Grows && given.games > stored.games;
        if (flag.words)(given) == (flag.words)(stored)
            || grows
            || flag.on_resume == OnResume::Applied
        {
            continue;
        }
        let why = match flag.on_resume {
            OnResume::Grows => " (a league's games can grow, not shrink)",
            _ => "",
        };
        found.push(format!(
            "{} {}{why} (the league has {})",
            flag.flag,
            flag.shown(given),
            flag.shown(stored)
        ));
    }
    // The game's options are all fixed.
    let flags: std::collections::BTreeSet<&str> = given
        .play
        .iter()
        .chain(stored.play.iter())
        .map(|(f, _)| f)
        .collect();
    for flag in flags {
        let (now, had) = (given.play.get(flag), stored.play.get(flag));
        if now != had {
            let shown = |v: Option<&str>| v.unwrap_or("the default").to_owned();
            found.push(format!(
                "--{flag} {} (the league has {})",
                shown(now),
                shown(had)
            ));
        }
    }
    found
}

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
    for setting in SETTING_FLAGS {
        if let Some(value) = setting.argv(settings) {
            words.push(setting.flag.into());
            words.extend(value);
        }
    }
    for (flag, value) in settings.play.iter() {
        words.extend([format!("--{flag}"), value.to_owned()]);
    }
    words.extend(settings.controls.to_args());
    if origin.allow_broken {
        words.push("--allow-broken".into());
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
            dir: None,
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
        settings.play.set("rules", Some("classic".into()));
        settings.play.set("deck2", Some("/decks/x.dcfg".into()));
        settings.play.set("max-rounds", Some("40".into()));
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
             --games 4 --seed 7 --bot-raises cap --faults fallback --deck2 /decks/x.dcfg \
             --max-rounds 40 --rules classic --time cpu --sandbox off --allow-broken"
        );
    }
}

//! What identifies a league: the game, the bots, the number of games, the
//! seed and everything else stored in `league.json`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use dojo_games::Role;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Version of the `league.json` format (see FORMATS.md); every format's
/// version is defined in `dojo_games::formats`.
pub use dojo_games::formats::LEAGUE_FORMAT_VERSION;

// The game lives with the per-game registry; the league names it the same.
pub use dojo_games::{FaultPolicy, Game, UnknownGame};

/// A bot entered in a league, as `league.json` stores it: its name, the
/// spec it was given by (resolved into a runnable `dojo_runner::BotSpec`
/// when games are played) and the team it insists on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    /// Unique name; the schedule, seeds and report refer to bots by it.
    pub name: String,
    /// How to start the bot; opaque to the league (the runner reads it).
    pub command: String,
    /// For a bot given as `NAME=COMMAND`: the directory it was given in,
    /// where its command runs on a resume from any directory (its
    /// relative paths mean what they meant). Absent for other bots, and
    /// in leagues from before it (run from the current directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<std::path::PathBuf>,
    /// In a game with roles (royale's teams `R`, `P`, `S`): the role the
    /// bot's manifest insists on (its `team` key,
    /// [`dojo_games::fixed_role`]); the bot is then only scheduled in that
    /// role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_team: Option<Role>,
    /// The bot's own limits and time values in force, from its manifest
    /// after the organiser's `--bot-raises` (only keys that differ from the
    /// league's; see [`settle_values`]). Absent when none.
    #[serde(default, skip_serializing_if = "dojo_runner::BotValues::is_empty")]
    pub values: dojo_runner::BotValues,
}

/// Which part of a league one machine plays: fixtures with
/// `id % count == index - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// 1-based, `1 <= index <= count`.
    pub index: u64,
    pub count: u64,
}

/// A malformed or out-of-range `--shard I/N`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid shard `{given}`: expected I/N with 1 <= I <= N (for example 2/5)")]
pub struct BadShard {
    pub given: String,
}

impl Shard {
    /// Checks `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, BadShard> {
        if index == 0 || count == 0 || index > count {
            return Err(BadShard {
                given: format!("{index}/{count}"),
            });
        }
        Ok(Shard { index, count })
    }
}

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShard {
            given: s.to_owned(),
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Everything that identifies a league; stored as `league.json`.
///
/// Two directories hold the same league exactly when their settings are
/// equal; shards of one league differ only in `shard`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub game: Game,
    pub bots: Vec<Entrant>,
    /// CardJitsu: games per pair of bots (rounded up to whole seat-swapped
    /// seed pairs). Royale: games per triple (rounded up to a multiple of 3).
    pub games: u64,
    /// The league seed every game seed is derived from.
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    /// Royale boards (paths or names, opaque), used in rotation; empty
    /// means the game's default board.
    #[serde(default)]
    pub boards: Vec<String>,
    /// The bot whose rating is pinned (instead of centring the mean at
    /// 1500), at `anchor_elo` or else [`crate::report::ANCHOR_ELO`].
    #[serde(default)]
    pub anchor: Option<String>,
    /// The rating the anchor bot is pinned at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_elo: Option<f64>,
    /// A gauntlet: only the games that include this bot are played
    /// (CardJitsu: against each other bot; royale: the trios it is in).
    /// Absent: a round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gauntlet: Option<String>,
    /// A gauntlet's stop rule: each pairing of the gauntlet bot and an
    /// opponent stops once this sequential test decides (`crate::stop`).
    /// Absent: every scheduled game is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<dojo_stats::sprt::SprtParams>,
    /// Set when this directory plays only part of the league.
    #[serde(default)]
    pub shard: Option<Shard>,
    /// How each game is played beyond the bots and seeds: rules, decks,
    /// round limits.
    #[serde(default)]
    pub play: PlayOptions,
    /// The time controls, resource limits and containment every bot runs
    /// under (each defined once, in `dojo_runner::CONTROLS`).
    pub controls: dojo_runner::Controls,
    /// What a bot's manifest may do with a value above the league's.
    #[serde(default)]
    pub raises: Raises,
    /// What a fault costs (`dojo_games::FaultPolicy`). Absent in a
    /// `league.json` from before fault policies: such a league was played
    /// under the random fallback, so it reads (and resumes) as `fallback`.
    #[serde(default = "FaultPolicy::before_policies")]
    pub faults: FaultPolicy,
}

/// A game's own options, as `league.json`'s `play` stores them: the
/// values of the game flags the league was started with (`--rules`,
/// `--deck1`, `--max-rounds`...), keyed by the flag's name without its
/// dashes, as the game's side of the command line normalised them (a
/// deck's path made absolute, a value that is the game's default left
/// out). Only the game reads them back (`GameCli::executor_options` in the
/// CLI): the league copies them into the command that replays it and
/// compares them on `--resume` without looking inside, so a game's new
/// option is the game's alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayOptions(BTreeMap<String, String>);

impl PlayOptions {
    /// The value stored for `--flag`, if any.
    pub fn get(&self, flag: &str) -> Option<&str> {
        self.0.get(flag).map(String::as_str)
    }

    /// Stores `value` for `--flag`; `None` removes it (the default).
    pub fn set(&mut self, flag: &str, value: Option<String>) {
        match value {
            Some(value) => self.0.insert(flag.to_owned(), value),
            None => self.0.remove(flag),
        };
    }

    /// Each flag's name (without dashes) and value, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// `league.json` before version 3 (and version 1, once upgraded) stored
/// `play` as one struct for every game (`rules`, `decks`, `max_rounds`,
/// `stall_rounds`, each always present): rewritten as the flag values it
/// stands for, the defaults (tournament rules, standard decks, no limit)
/// left out.
pub fn upgrade_v2_play(league: &mut serde_json::Value) {
    use serde_json::Value;
    let Some(Value::Object(old)) = league.get_mut("play").map(Value::take) else {
        return;
    };
    let mut play = PlayOptions::default();
    let word = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    for (key, value) in &old {
        match key.as_str() {
            "rules" => play.set("rules", word(value).filter(|r| r != "tournament")),
            "decks" => {
                for (seat, deck) in value.as_array().into_iter().flatten().enumerate() {
                    let deck = word(deck).filter(|d| d != "standard");
                    play.set(&format!("deck{}", seat + 1), deck);
                }
            }
            "max_rounds" => play.set("max-rounds", word(value)),
            "stall_rounds" => play.set("stall-rounds", word(value)),
            // Anything else is kept to be refused by the game that reads
            // it, naming the key.
            other => play.set(other, word(value).or_else(|| Some(value.to_string()))),
        }
    }
    if let (Some(o), Ok(play)) = (league.as_object_mut(), serde_json::to_value(play)) {
        o.insert("play".into(), play);
    }
}

/// `league.json` before version 4: a CardJitsu league under the tournament
/// rules that named no deck drew from `standard`, which is no longer the
/// default (`championship` is): written out, so the league resumes and
/// replays with the deck it was played with.
pub fn upgrade_v3_decks(league: &mut serde_json::Value) {
    use serde_json::Value;
    if league.get("game").and_then(Value::as_str) != Some("cardjitsu") {
        return;
    }
    let Some(Value::Object(play)) = league.get_mut("play") else {
        return;
    };
    if play.get("rules").and_then(Value::as_str) == Some("classic") {
        return;
    }
    for flag in ["deck1", "deck2"] {
        play.entry(flag)
            .or_insert_with(|| Value::String("standard".into()));
    }
}

/// What becomes of a bot's own value (`bot.toml`'s `[limits]`, `[time]`)
/// that is above the league's: more memory, more time. A value at or
/// below the league's is always taken (a bot may only hurt itself with
/// it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Raises {
    /// Taken, and printed at the start (the default, except under
    /// `--sandbox strict`).
    #[default]
    Allow,
    /// Lowered to the league's value.
    Cap,
    /// The league does not start (the default under `--sandbox strict`).
    Refuse,
}

impl Raises {
    /// What a league does with raises unless told: refuse them under
    /// `--sandbox strict` (nothing beyond the organiser's flags may run
    /// unasked), allow them otherwise.
    pub fn default_for(sandbox: dojo_runner::SandboxMode) -> Raises {
        match sandbox {
            dojo_runner::SandboxMode::Strict => Raises::Refuse,
            _ => Raises::Allow,
        }
    }

    /// The name used by the flag and in files.
    pub fn name(self) -> &'static str {
        match self {
            Raises::Allow => "allow",
            Raises::Cap => "cap",
            Raises::Refuse => "refuse",
        }
    }
}

impl FromStr for Raises {
    type Err = String;
    fn from_str(s: &str) -> Result<Raises, String> {
        match s {
            "allow" => Ok(Raises::Allow),
            "cap" => Ok(Raises::Cap),
            "refuse" => Ok(Raises::Refuse),
            other => Err(format!(
                "unknown --bot-raises {other:?}: expected allow, cap or refuse"
            )),
        }
    }
}

/// One of a bot's own values that differs from the league's, as printed
/// at the start of a league.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub bot: String,
    /// `limits.memory_mib`, `time.timeout_ms`, ...
    pub key: String,
    /// What the manifest asks for.
    pub asked: u64,
    /// The league's value; `None`: unlimited.
    pub league: Option<u64>,
    /// What the bot gets: `asked`, or the league's value when capped.
    pub applied: Option<u64>,
}

impl Override {
    /// Whether the bot asked for more than the league gives.
    pub fn is_raise(&self) -> bool {
        self.league.is_some_and(|l| self.asked > l)
    }
}

impl fmt::Display for Override {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let league = self
            .league
            .map_or_else(|| "unlimited".to_owned(), |v| v.to_string());
        write!(
            f,
            "bot {}: {} = {} in its bot.toml (the league's: {league})",
            self.bot, self.key, self.asked
        )?;
        match (self.is_raise(), self.applied == Some(self.asked)) {
            (true, true) => f.write_str(", a raise, allowed"),
            (true, false) => write!(f, ", a raise, capped to {league} (--bot-raises cap)"),
            (false, _) => f.write_str(", lower: applied"),
        }
    }
}

/// A bot's value above the league's under `--bot-raises refuse`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "bot {bot}: {key} = {asked} in its bot.toml is above the league's {league}, and the league \
     refuses raises (--bot-raises refuse{strict}); lower it in the bot.toml, raise the \
     league's flag, or pass --bot-raises allow or cap",
    bot = .0.bot, key = .0.key, asked = .0.asked,
    league = .0.league.map_or_else(|| "unlimited".to_owned(), |v| v.to_string()),
    strict = if *.1 { ", the default under --sandbox strict" } else { "" }
)]
pub struct RaiseRefused(pub Override, pub bool);

impl Settings {
    /// The controls `bot` plays under: the league's, with the entrant's
    /// own values (stored in `values`) in their place.
    pub fn bot_controls(&self, bot: &Entrant) -> dojo_runner::Controls {
        self.controls.with_bot(&bot.values)
    }
}

/// What a bot gets of the values its manifest asks for (`asked`) in a
/// league with `settings` (its league-wide values and `play.raises`):
/// the values in force (only the keys that differ from the league's) and
/// one [`Override`] per key asked for that differs, to be printed. A value
/// at or below the league's is taken; one above it is taken, capped or
/// refused as `play.raises` says. `strict` only changes the message (the
/// caller chose `refuse` for `--sandbox strict`).
pub fn settle_values(
    settings: &Settings,
    bot: &str,
    asked: &dojo_runner::BotValues,
    strict: bool,
) -> Result<(dojo_runner::BotValues, Vec<Override>), RaiseRefused> {
    let mut in_force = dojo_runner::BotValues::default();
    let mut overrides = Vec::new();
    for control in dojo_runner::CONTROLS {
        let Some(key) = control.bot_key else { continue };
        let Some(asked) = asked.get(key) else {
            continue;
        };
        let dojo_runner::Value::Number(league) = control.get(&settings.controls) else {
            continue;
        };
        if league == Some(asked) {
            continue;
        }
        let mut o = Override {
            bot: bot.to_owned(),
            key: key.to_owned(),
            asked,
            league,
            applied: Some(asked),
        };
        if o.is_raise() {
            match settings.raises {
                Raises::Allow => {}
                Raises::Cap => o.applied = league,
                Raises::Refuse => return Err(RaiseRefused(o, strict)),
            }
        }
        if o.applied != league {
            in_force.set(key, o.applied);
        }
        overrides.push(o);
    }
    Ok((in_force, overrides))
}

/// Rewrites a version 1 `league.json` object in place into the current
/// layout: the move time (`timeout_ms`), the clock fields of `play` and
/// `limits` gather into `controls`, `play.raises` becomes `raises`.
/// Version 1 did not store the containment mode: it is the one the latest
/// run recorded (`containment.mode`), else the default.
pub fn upgrade_v1(league: &mut serde_json::Value, sandbox: Option<&str>) {
    use serde_json::{Map, Value};
    let Some(o) = league.as_object_mut() else {
        return;
    };
    let mut controls = match serde_json::to_value(dojo_runner::Controls::default()) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    if let Some(t) = o.remove("timeout_ms") {
        controls.insert("timeout_ms".into(), t);
    }
    if let Some(Value::Object(play)) = o.get_mut("play") {
        for key in ["startup_ms", "time", "overage_ms", "game_ms", "pin"] {
            if let Some(v) = play.remove(key) {
                controls.insert(key.into(), v);
            }
        }
        if let Some(r) = play.remove("raises") {
            o.insert("raises".into(), r);
        }
    }
    if let Some(Value::Object(limits)) = o.remove("limits") {
        controls.extend(limits);
    }
    if let Some(mode) = sandbox {
        controls.insert("sandbox".into(), Value::String(mode.to_owned()));
    }
    o.insert("controls".into(), Value::Object(controls));
}

/// How a league was started beyond its settings: where its bots were
/// found and whether it plays despite a failed smoke start. Stored in
/// `league.json` beside the settings and not part of the league's identity
/// (shards on other machines find their bots elsewhere); `--resume` and
/// the replay command (`crate::command`) use it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    /// The bots directory names were looked up in, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots_dir: Option<std::path::PathBuf>,
    /// `--allow-broken`: play even when a bot fails its smoke start.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_broken: bool,
    /// The league's HTML pages (`--html`), absolute: every run that adds
    /// games (a resume, a merge into the directory) writes them again, so
    /// no page shows an old count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<std::path::PathBuf>,
    /// The league directory (canonical) `pages` are the pages of: a copy
    /// of the directory (or the directory moved) finds another here, and
    /// must not write the pages of the league it came from
    /// ([`Origin::settle_pages`]). Absent in a league.json from before it,
    /// whose pages are taken as the directory's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages_of: Option<std::path::PathBuf>,
    /// The bots that joined the league after it started (`--add`) and the
    /// new versions that replaced a bot (`--replace`), in the order they
    /// came: which version played which game (`crate::late`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub late: Vec<LateEntry>,
    /// The entries of the bots folder that a league of every bot there
    /// (no BOT named) does not play, with why (`report.json`'s
    /// `excluded`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<crate::Excluded>,
    /// A league of every bot of its bots directory (no BOT named): a
    /// resume names the entries added to the folder since, which it does
    /// not play unless `--add`ed. Absent (false) in leagues from before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub folder: bool,
}

/// A bot that joined a league late, or a bot's new version
/// ([`Origin::late`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LateEntry {
    /// `added` (`--add`) or `replaced` (`--replace`).
    pub kind: LateKind,
    /// The bot's name.
    pub name: String,
    /// Its spec as stored in the settings.
    pub command: String,
    /// Its fingerprint (absent for executors that run no bot processes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Replaced: the old version's spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_command: Option<String>,
    /// Replaced: the old version's fingerprint, as the retired games
    /// record it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_fingerprint: Option<String>,
    /// Replaced: the old version's games marked retired in `games.jsonl`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retired_games: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How a bot came late ([`LateEntry::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LateKind {
    Added,
    Replaced,
}

impl Origin {
    /// Adds `page` (made absolute by the caller) to [`Origin::pages`]
    /// unless it is there; the pages are those of `dir`, canonical, on
    /// which [`Origin::settle_pages`] has been called.
    pub fn add_page(&mut self, dir: &std::path::Path, page: std::path::PathBuf) {
        if !self.pages.contains(&page) {
            self.pages.push(page);
        }
        self.pages_of = Some(dir.to_owned());
    }

    /// Makes the pages those of the league now in `dir` (canonical).
    /// When they were recorded for another directory ([`Origin::pages_of`]),
    /// this league.json was copied or moved from there: a page inside that
    /// directory follows to the same place in `dir`; a page outside it
    /// (`results/killed.html` beside `results/killed`) is the other
    /// league's page, not this one's, and is dropped and returned, for the
    /// caller to say.
    pub fn settle_pages(&mut self, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut dropped = Vec::new();
        if let Some(was) = self.pages_of.take()
            && was != dir
        {
            let pages = std::mem::take(&mut self.pages);
            for page in pages {
                match page.strip_prefix(&was) {
                    Ok(inside) => self.pages.push(dir.join(inside)),
                    Err(_) => dropped.push(page),
                }
            }
        }
        self.pages_of = (!self.pages.is_empty()).then(|| dir.to_owned());
        dropped
    }
}

/// Where a directory's games came from, stored beside the settings in
/// `league.json`: the dojo that played them and the exact bots. Shards are
/// only merged, and a league only resumed, when this is identical: equal
/// settings with a changed bot (or a dojo that plays differently) would
/// make one report of two different leagues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The version of dojo that played the games.
    pub dojo_version: String,
    /// Each bot's fingerprint (a hash of its manifest and the files its
    /// command names; see `dojo_runner::fingerprint`), by bot name. Empty
    /// for executors that run no bot processes.
    pub fingerprints: BTreeMap<String, String>,
}

impl Provenance {
    /// This dojo, with these bots.
    pub fn current(fingerprints: BTreeMap<String, String>) -> Provenance {
        Provenance {
            dojo_version: env!("CARGO_PKG_VERSION").to_owned(),
            fingerprints,
        }
    }

    /// The first key in which `other` differs from this one, as a path into
    /// `league.json` (`provenance.dojo_version`,
    /// `provenance.fingerprints.NAME`), with both values (`None`: absent).
    pub fn difference(&self, other: &Provenance) -> Option<ProvenanceDiff> {
        if self.dojo_version != other.dojo_version {
            return Some(ProvenanceDiff {
                key: "provenance.dojo_version".into(),
                ours: Some(self.dojo_version.clone()),
                theirs: Some(other.dojo_version.clone()),
            });
        }
        let names = self.fingerprints.keys().chain(other.fingerprints.keys());
        for name in names {
            let (ours, theirs) = (self.fingerprints.get(name), other.fingerprints.get(name));
            if ours != theirs {
                return Some(ProvenanceDiff {
                    key: format!("provenance.fingerprints.{name}"),
                    ours: ours.cloned(),
                    theirs: theirs.cloned(),
                });
            }
        }
        None
    }
}

/// One differing provenance key ([`Provenance::difference`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvenanceDiff {
    /// Path of the key in `league.json`.
    pub key: String,
    /// The value on the first side, `None` when absent.
    pub ours: Option<String>,
    /// The value on the other side.
    pub theirs: Option<String>,
}

impl fmt::Display for ProvenanceDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "absent".into());
        write!(
            f,
            "{} is {} there and {} here",
            self.key,
            show(&self.ours),
            show(&self.theirs)
        )
    }
}

impl Settings {
    /// Bot names in sorted order: a bot's index in ratings is its position
    /// here, so the order bots were given in never matters.
    pub fn sorted_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.bots.iter().map(|b| b.name.clone()).collect();
        names.sort();
        names
    }

    /// The same league without its shard: what shards of one league share.
    pub fn unsharded(&self) -> Settings {
        Settings {
            shard: None,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A league.json copied to another directory leaves the pages outside
    /// its old directory to the league there, and takes those inside it
    /// along; one from before `pages_of` keeps its pages.
    #[test]
    fn pages_follow_their_directory_and_are_left_to_the_one_copied_from() {
        use std::path::{Path, PathBuf};
        let pages = |p: &[&str]| p.iter().map(PathBuf::from).collect::<Vec<_>>();
        let mut origin = Origin::default();
        origin.add_page(Path::new("/r/killed"), "/r/killed.html".into());
        origin.add_page(Path::new("/r/killed"), "/r/killed/in/p.html".into());
        assert_eq!(origin.settle_pages(Path::new("/r/killed")), pages(&[]));
        assert_eq!(
            origin.pages,
            pages(&["/r/killed.html", "/r/killed/in/p.html"])
        );
        assert_eq!(
            origin.settle_pages(Path::new("/r/late")),
            pages(&["/r/killed.html"])
        );
        assert_eq!(origin.pages, pages(&["/r/late/in/p.html"]));
        assert_eq!(origin.pages_of.as_deref(), Some(Path::new("/r/late")));

        let mut old = Origin {
            pages: pages(&["/r/old.html"]),
            ..Origin::default()
        };
        assert_eq!(old.settle_pages(Path::new("/r/old")), pages(&[]));
        assert_eq!(old.pages, pages(&["/r/old.html"]));
        assert_eq!(old.pages_of.as_deref(), Some(Path::new("/r/old")));
    }

    #[test]
    fn shard_parses_and_validates() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("3".parse::<Shard>().is_err());
        assert!("a/b".parse::<Shard>().is_err());
        assert_eq!(Shard::new(3, 3).unwrap().to_string(), "3/3");
    }

    #[test]
    fn provenance_names_the_first_differing_key() {
        let fp = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let a = Provenance::current(fp(&[("ant", "fnv1a64:1"), ("bee", "fnv1a64:2")]));
        assert_eq!(a.difference(&a.clone()), None);
        let b = Provenance::current(fp(&[("ant", "fnv1a64:1"), ("bee", "fnv1a64:3")]));
        let d = a.difference(&b).unwrap();
        assert_eq!(d.key, "provenance.fingerprints.bee");
        assert_eq!(
            d.to_string(),
            "provenance.fingerprints.bee is fnv1a64:2 there and fnv1a64:3 here"
        );
        let c = Provenance::current(fp(&[("ant", "fnv1a64:1")]));
        assert_eq!(a.difference(&c).unwrap().theirs, None);
        let old = Provenance {
            dojo_version: "0.0.1".into(),
            ..a.clone()
        };
        assert_eq!(a.difference(&old).unwrap().key, "provenance.dojo_version");
    }

    #[test]
    fn a_version_3_tournament_league_keeps_the_standard_deck_it_was_played_with() {
        let upgraded = |league: serde_json::Value| {
            let mut league = league;
            upgrade_v3_decks(&mut league);
            league["play"].clone()
        };
        assert_eq!(
            upgraded(serde_json::json!({"game": "cardjitsu", "play": {"deck2": "/d/x.dcfg"}})),
            serde_json::json!({"deck1": "standard", "deck2": "/d/x.dcfg"})
        );
        assert_eq!(
            upgraded(serde_json::json!({"game": "cardjitsu", "play": {}})),
            serde_json::json!({"deck1": "standard", "deck2": "standard"})
        );
        // Classic rules still default to the standard deck; royale has none.
        let classic = serde_json::json!({"rules": "classic"});
        assert_eq!(
            upgraded(serde_json::json!({"game": "cardjitsu", "play": classic})),
            classic
        );
        assert_eq!(
            upgraded(serde_json::json!({"game": "royale", "play": {}})),
            serde_json::json!({})
        );
    }

    #[test]
    fn a_version_2_play_becomes_the_flag_values_it_stands_for() {
        let mut league = serde_json::json!({"play": {
            "rules": "classic", "decks": ["standard", "/d/x.dcfg"],
            "max_rounds": 40, "stall_rounds": null,
        }});
        upgrade_v2_play(&mut league);
        assert_eq!(
            league["play"],
            serde_json::json!({"rules": "classic", "deck2": "/d/x.dcfg", "max-rounds": "40"})
        );
        // Every default left out; a key no game knows kept, to be refused.
        let mut league = serde_json::json!({"play": {
            "rules": "tournament", "decks": ["standard", "standard"],
            "max_rounds": null, "stall_rounds": 9, "odd": true,
        }});
        upgrade_v2_play(&mut league);
        assert_eq!(
            league["play"],
            serde_json::json!({"stall-rounds": "9", "odd": "true"})
        );
    }

    #[test]
    fn a_version_1_league_reads_with_its_controls_gathered() {
        let mut v1 = serde_json::json!({
            "game": "cardjitsu", "bots": [], "games": 2, "seed": "1", "timeout_ms": 250,
            "play": {"rules": "tournament", "startup_ms": 700, "overage_ms": 300,
                     "pin": true, "time": "cpu", "raises": "cap"},
            "limits": {"memory_mib": 512, "processes": 256, "files": 1024, "file_size_mib": 64},
        });
        upgrade_v1(&mut v1, Some("off"));
        let s: Settings = serde_json::from_value(v1).unwrap();
        let c = &s.controls;
        assert_eq!(c.timeout, std::time::Duration::from_millis(250));
        assert_eq!(c.startup, std::time::Duration::from_millis(700));
        assert_eq!(c.overage, std::time::Duration::from_millis(300));
        assert!(c.pin);
        assert_eq!(c.time, dojo_runner::TimeMode::Cpu);
        assert_eq!(c.memory_mib, Some(512));
        assert_eq!(c.sandbox, dojo_runner::SandboxMode::Off);
        assert_eq!(s.raises, Raises::Cap);
        // Without limits or a containment record: the defaults.
        let mut bare = serde_json::json!({
            "game": "cardjitsu", "bots": [], "games": 2, "seed": "1", "timeout_ms": 1000,
        });
        upgrade_v1(&mut bare, None);
        let s: Settings = serde_json::from_value(bare).unwrap();
        assert_eq!(s.controls, dojo_runner::Controls::default());
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(serde_json::from_value::<Settings>(v).unwrap(), s);
    }

    fn league(raises: Raises) -> Settings {
        let mut s: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu", "bots": [], "games": 2, "seed": "1",
            "controls": dojo_runner::Controls::default(),
        }))
        .unwrap();
        s.controls.timeout = std::time::Duration::from_millis(300);
        s.controls.memory_mib = Some(1024);
        s.raises = raises;
        s
    }

    fn asked() -> dojo_runner::BotValues {
        toml_values(
            "[limits]\nmemory_mib = 4096\nfiles = 64\n[time]\ntimeout_ms = 900\nstartup_ms = 2000\n",
        )
    }

    fn toml_values(text: &str) -> dojo_runner::BotValues {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bot.toml"),
            format!("name = \"x\"\ncommand = \"x\"\n{text}"),
        )
        .unwrap();
        dojo_runner::load_dir(dir.path()).unwrap().values
    }

    #[test]
    fn a_bots_own_values_are_allowed_capped_or_refused_and_lower_ones_always_taken() {
        // Allow: raises and lowers taken; a value equal to the league's is
        // no override.
        let (v, o) = settle_values(&league(Raises::Allow), "jit", &asked(), false).unwrap();
        assert_eq!(v.limits.memory_mib, Some(4096));
        assert_eq!(v.limits.files, Some(64));
        assert_eq!(v.time.timeout_ms, Some(900));
        assert_eq!(v.time.startup_ms, None);
        let keys: Vec<&str> = o.iter().map(|o| o.key.as_str()).collect();
        assert_eq!(
            keys,
            ["time.timeout_ms", "limits.memory_mib", "limits.files"]
        );
        assert!(o[0].to_string().ends_with("a raise, allowed"), "{}", o[0]);
        let o = &o[1..];
        assert_eq!(
            o[0].to_string(),
            "bot jit: limits.memory_mib = 4096 in its bot.toml (the league's: 1024), a raise, allowed"
        );
        assert_eq!(
            o[1].to_string(),
            "bot jit: limits.files = 64 in its bot.toml (the league's: 1024), lower: applied"
        );
        // Cap: raises become the league's value (so are not stored), the
        // lower value stays.
        let (v, o) = settle_values(&league(Raises::Cap), "jit", &asked(), false).unwrap();
        assert_eq!(v.limits.memory_mib, None);
        assert_eq!(v.time.timeout_ms, None);
        assert_eq!(v.limits.files, Some(64));
        assert!(
            o[0].to_string()
                .ends_with("a raise, capped to 300 (--bot-raises cap)"),
            "{}",
            o[0]
        );
        // Refuse: the first raise is an error naming bot, key and values.
        let err = settle_values(&league(Raises::Refuse), "jit", &asked(), true).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(
                "bot jit: time.timeout_ms = 900 in its bot.toml is above the league's 300"
            ),
            "{text}"
        );
        assert!(
            text.contains("the default under --sandbox strict"),
            "{text}"
        );
        // Refuse lets lower values through; unlimited league values are
        // never raised.
        let lower = toml_values("[limits]\nfiles = 64\ncpu_s = 10\n");
        let (v, _) = settle_values(&league(Raises::Refuse), "jit", &lower, true).unwrap();
        assert_eq!((v.limits.files, v.limits.cpu_s), (Some(64), Some(10)));
    }

    #[test]
    fn a_bots_controls_are_the_leagues_with_its_own_values() {
        let mut s = league(Raises::Allow);
        let (values, _) = settle_values(&s, "jit", &asked(), false).unwrap();
        s.bots.push(Entrant {
            name: "jit".into(),
            command: "jit".into(),
            dir: None,
            fixed_team: None,
            values,
        });
        let c = s.bot_controls(&s.bots[0]);
        assert_eq!(c.memory_mib, Some(4096));
        assert_eq!(c.processes, 256);
        assert_eq!(c.timeout, std::time::Duration::from_millis(900));
        assert_eq!(c.game_budget, None);
        // Stored only when there are some, and read back the same.
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["bots"][0]["values"]["limits"]["memory_mib"], 4096);
        assert_eq!(json["raises"], "allow");
        assert_eq!(serde_json::from_value::<Settings>(json).unwrap(), s);
    }

    #[test]
    fn game_kind_round_trips() {
        for g in [Game::CARDJITSU, Game::ROYALE] {
            assert_eq!(g.name().parse::<Game>(), Ok(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{g}\""));
        }
        assert!("chess".parse::<Game>().is_err());
    }
}

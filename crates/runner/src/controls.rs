//! The time controls, resource limits and containment a bot runs under,
//! declared once.
//!
//! [`Controls`] is the resolved value (every field set, times as
//! [`Duration`]s); [`CONTROLS`] lists each field once with its flag, its
//! `bot.toml` key (for the values a bot may set for itself) and how to
//! read and write it. Everything that spells these values out elsewhere
//! derives from that list: the command-line flags (built from it by the
//! CLI, each help with its default from [`Controls::default`]), the
//! conflicts of a resumed league, the command that replays a league
//! ([`Controls::to_args`]), a bot's values in force
//! ([`Controls::with_bot`]) and the runner, which takes the resolved
//! value whole ([`crate::RunOptions::controls`]) and applies each bot's
//! values over it with [`Controls::with_bot`] too.
//!
//! Each default is written once, in [`Controls::default`] (the runner's
//! [`crate::RunOptions::default`] and [`Limits::default`] are those controls),
//! and each unit conversion once: [`mib_bytes`] (MiB to bytes, for the
//! kernel's limits) and [`as_ms`] (a duration in the flags' whole
//! milliseconds).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::bot_values::BotValues;
use dojo_sandbox::plan::{
    DEFAULT_MEMORY_MIB, DEFAULT_PROCESSES, InForce, Limits, SandboxError, SandboxMode,
};

/// What a move's time limit counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeMode {
    /// Wall-clock time from sending the prompt to the answer (the
    /// protocol's default).
    #[default]
    Wall,
    /// CPU time the bot's whole process tree used since its previous
    /// answer was read (or its process started), so a busy machine or a
    /// CPU-burning neighbour cannot make it time out; with a wall-clock
    /// backstop of [`crate::RunOptions::wall_backstop`] times the budget.
    Cpu,
}

impl TimeMode {
    /// The name used by flags and files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wall => "wall",
            Self::Cpu => "cpu",
        }
    }
}

impl std::str::FromStr for TimeMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "wall" => Ok(Self::Wall),
            "cpu" => Ok(Self::Cpu),
            other => Err(format!("unknown time mode {other:?}: expected wall or cpu")),
        }
    }
}

/// Every time control, limit and the containment mode of a run, resolved.
/// Stored whole (every key explicit) in `league.json` as `controls`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Controls {
    /// `--timeout-ms`: time per move, from the prompt to the whole answer.
    #[serde(rename = "timeout_ms", with = "millis")]
    pub timeout: Duration,
    /// `--startup-ms`: extra time for a bot's first answer of a game, and
    /// for the first answer of a process of a bot that stays alive started
    /// again after a fault (a bot that exits after its moves pays for every
    /// later start from its move time).
    #[serde(rename = "startup_ms", with = "millis")]
    pub startup: Duration,
    /// `--time`: what a move's time counts.
    pub time: TimeMode,
    /// `--overage-ms`: a bank of extra time per bot and game.
    #[serde(rename = "overage_ms", with = "millis")]
    pub overage: Duration,
    /// `--game-ms`: the most time a bot may use in one game; `None`: no
    /// budget.
    #[serde(rename = "game_ms", with = "opt_millis")]
    pub game_budget: Option<Duration>,
    /// `--pin`: each game's bots on one core of their own.
    pub pin: bool,
    /// `--sandbox`: which containment layers are used.
    pub sandbox: SandboxMode,
    /// `--limit-memory-mib`: memory of a bot process's whole tree; `None`:
    /// inherited.
    pub memory_mib: Option<u64>,
    /// `--limit-processes`: processes and threads of a bot process's tree.
    pub processes: u64,
    /// `--limit-files`: open files per process.
    pub files: u64,
    /// `--limit-file-size-mib`: largest file a process may write.
    pub file_size_mib: u64,
    /// `--limit-cpu-s`: CPU seconds per process; `None`: inherited.
    pub cpu_s: Option<u64>,
    /// `--fresh-boxes`: a new box for every game, never one kept from an
    /// earlier game. Absent in `league.json` files from before it: those
    /// leagues reused boxes.
    #[serde(default)]
    pub fresh_boxes: bool,
}

impl Default for Controls {
    fn default() -> Controls {
        Controls {
            timeout: Duration::from_millis(1000),
            startup: Duration::from_millis(2000),
            time: TimeMode::Wall,
            overage: Duration::ZERO,
            game_budget: None,
            pin: false,
            sandbox: SandboxMode::Auto,
            memory_mib: Some(DEFAULT_MEMORY_MIB),
            processes: DEFAULT_PROCESSES,
            files: 1024,
            file_size_mib: 64,
            cpu_s: None,
            fresh_boxes: false,
        }
    }
}

/// One field's value as flags and files spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// A whole number in the field's unit; `None`: unlimited.
    Number(Option<u64>),
    /// One of the field's words (`wall`, `off`, ...).
    Word(&'static str),
    /// A switch.
    Switch(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Number(Some(n)) => write!(f, "{n}"),
            Value::Number(None) => f.write_str("unlimited"),
            Value::Word(w) => f.write_str(w),
            Value::Switch(b) => write!(f, "{b}"),
        }
    }
}

/// What values a field takes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number of at least `min`.
    Number { min: u64 },
    /// One of these words.
    Word(&'static [&'static str]),
    /// Present or not.
    Switch,
}

/// One field of [`Controls`]: its flag and `bot.toml` key, and how to read
/// and set it.
#[derive(Debug)]
pub struct Control {
    /// The long flag without its dashes (`timeout-ms`).
    pub flag: &'static str,
    /// The flag's value name in help (`MS`).
    pub value_name: &'static str,
    /// The flag's help, without its default (see [`Control::help`]).
    pub about: &'static str,
    pub kind: Kind,
    /// Where a bot sets its own value in `bot.toml` (`time.timeout_ms`);
    /// `None`: the run's alone (the clock's mode, pinning, containment).
    pub bot_key: Option<&'static str>,
    /// Whether a league fixes it when it starts: another value given
    /// with `--resume` (or a rerun of one of its games) is a conflict.
    /// Only a control that can change no game's record is not fixed: it
    /// is applied instead (`--fresh-boxes`).
    pub fixed: bool,
    get: fn(&Controls) -> Value,
    set: fn(&mut Controls, Value),
}

impl Control {
    /// The flag's help: what it does and, for a value, its default (from
    /// [`Controls::default`], so help and behaviour cannot disagree).
    pub fn help(&self) -> String {
        match self.kind {
            Kind::Switch => self.about.to_owned(),
            _ => format!(
                "{} [default: {}].",
                self.about.trim_end_matches('.'),
                self.get(&Controls::default())
            ),
        }
    }

    /// This field's value in `c`.
    pub fn get(&self, c: &Controls) -> Value {
        (self.get)(c)
    }

    /// `c` with this field set to `v` (a value of this field's kind).
    pub fn set(&self, c: &mut Controls, v: Value) {
        (self.set)(c, v);
    }

    /// Reads a flag's text into a value of this field, or says what was
    /// expected.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        match self.kind {
            Kind::Number { min } => match text.parse::<u64>() {
                Ok(n) if n >= min => Ok(Value::Number(Some(n))),
                Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(format!(
                    "--{} {text}: too large: the largest value accepted is {}",
                    self.flag,
                    u64::MAX
                )),
                _ => Err(format!(
                    "--{} {text}: expected a whole number of at least {min}",
                    self.flag
                )),
            },
            Kind::Word(words) => words
                .iter()
                .find(|w| **w == text)
                .map(|w| Value::Word(w))
                .ok_or_else(|| {
                    format!(
                        "--{} {text}: expected one of {}",
                        self.flag,
                        words.join(", ")
                    )
                }),
            Kind::Switch => match text {
                "true" => Ok(Value::Switch(true)),
                "false" => Ok(Value::Switch(false)),
                _ => Err(format!("--{}: a switch takes no value", self.flag)),
            },
        }
    }
}

/// `d` in whole milliseconds, the unit of every time flag, `bot.toml`
/// key and report field.
pub fn as_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

pub use dojo_sandbox::plan::mib_bytes;

/// Sets a field that has no "unlimited" to `v`'s number; a `Value` without
/// one (no flag's parser makes it) leaves the field as it is.
fn whole(slot: &mut u64, v: Value) {
    if let Some(n) = number(v) {
        *slot = n;
    }
}

/// As [`whole`], for a time in milliseconds.
fn millis_of(slot: &mut Duration, v: Value) {
    if let Some(n) = number(v) {
        *slot = Duration::from_millis(n);
    }
}

fn number(v: Value) -> Option<u64> {
    match v {
        Value::Number(n) => n,
        _ => None,
    }
}

fn word(v: Value) -> &'static str {
    match v {
        Value::Word(w) => w,
        _ => "",
    }
}

const TIME_MODES: &[&str] = &["wall", "cpu"];
const SANDBOX_MODES: &[&str] = &["off", "auto", "strict"];

/// Every field of [`Controls`], in the order flags and reports list them.
/// A field missing here is caught by the test below (its JSON keys must be
/// these), and the CLI's flags, a resumed league's checks and the replay
/// command all come from this list.
pub static CONTROLS: &[Control] = &[
    Control {
        flag: "timeout-ms",
        value_name: "MS",
        about: "Time allowed per move, from sending the prompt to the whole answer.",
        kind: Kind::Number { min: 1 },
        bot_key: Some("time.timeout_ms"),
        fixed: true,
        get: |c| Value::Number(Some(as_ms(c.timeout))),
        set: |c, v| millis_of(&mut c.timeout, v),
    },
    Control {
        flag: "startup-ms",
        value_name: "MS",
        about: "Extra time for a bot's first answer of a game (and a staying bot's first after a restart).",
        kind: Kind::Number { min: 0 },
        bot_key: Some("time.startup_ms"),
        fixed: true,
        get: |c| Value::Number(Some(as_ms(c.startup))),
        set: |c, v| millis_of(&mut c.startup, v),
    },
    Control {
        flag: "time",
        value_name: "MODE",
        about: "What the move time counts: `wall` (wall-clock time) or `cpu` (CPU time of the \
               bot's whole process tree, with a wall-clock backstop of 4 times the budget).",
        kind: Kind::Word(TIME_MODES),
        bot_key: None,
        fixed: true,
        get: |c| Value::Word(c.time.name()),
        set: |c, v| c.time = word(v).parse().unwrap_or_default(),
    },
    Control {
        flag: "overage-ms",
        value_name: "MS",
        about: "A bank of extra time per bot and game that moves over the move time draw on.",
        kind: Kind::Number { min: 0 },
        bot_key: Some("time.overage_ms"),
        fixed: true,
        get: |c| Value::Number(Some(as_ms(c.overage))),
        set: |c, v| millis_of(&mut c.overage, v),
    },
    Control {
        flag: "game-ms",
        value_name: "MS",
        about: "The most time a bot may use in one game, start-up allowances not counted.",
        kind: Kind::Number { min: 1 },
        bot_key: Some("time.game_ms"),
        fixed: true,
        get: |c| Value::Number(c.game_budget.map(as_ms)),
        set: |c, v| c.game_budget = number(v).map(Duration::from_millis),
    },
    Control {
        flag: "pin",
        value_name: "",
        about: "Run each game's bots on one CPU core of their own (a league then runs at most \
               one game per core).",
        kind: Kind::Switch,
        bot_key: None,
        fixed: true,
        get: |c| Value::Switch(c.pin),
        set: |c, v| c.pin = v == Value::Switch(true),
    },
    Control {
        flag: "sandbox",
        value_name: "MODE",
        about: "Bot containment: `auto` uses every layer this machine has (see `dojo doctor`), \
               `strict` refuses to run without them, `off` only kills each bot's process \
               group.",
        kind: Kind::Word(SANDBOX_MODES),
        bot_key: None,
        fixed: true,
        get: |c| {
            Value::Word(match c.sandbox {
                SandboxMode::Off => "off",
                SandboxMode::Auto => "auto",
                SandboxMode::Strict => "strict",
            })
        },
        set: |c, v| c.sandbox = word(v).parse().unwrap_or_default(),
    },
    Control {
        flag: "limit-memory-mib",
        value_name: "MIB",
        about: "Memory of each bot process with everything it starts (its cgroup; where there \
               is none, each process's address space, RLIMIT_AS, except for the default).",
        kind: Kind::Number { min: 1 },
        bot_key: Some("limits.memory_mib"),
        fixed: true,
        get: |c| Value::Number(c.memory_mib),
        set: |c, v| c.memory_mib = number(v),
    },
    Control {
        flag: "limit-processes",
        value_name: "N",
        about: "Processes and threads of each bot process with everything it starts (its \
               cgroup's pids.max; not enforced without one, see `dojo doctor`).",
        kind: Kind::Number { min: 1 },
        bot_key: Some("limits.processes"),
        fixed: true,
        get: |c| Value::Number(Some(c.processes)),
        set: |c, v| whole(&mut c.processes, v),
    },
    Control {
        flag: "limit-files",
        value_name: "N",
        about: "Open files of each bot process (RLIMIT_NOFILE).",
        kind: Kind::Number { min: 1 },
        bot_key: Some("limits.files"),
        fixed: true,
        get: |c| Value::Number(Some(c.files)),
        set: |c, v| whole(&mut c.files, v),
    },
    Control {
        flag: "limit-file-size-mib",
        value_name: "MIB",
        about: "Largest file a bot process may write (RLIMIT_FSIZE).",
        kind: Kind::Number { min: 1 },
        bot_key: Some("limits.file_size_mib"),
        fixed: true,
        get: |c| Value::Number(Some(c.file_size_mib)),
        set: |c, v| whole(&mut c.file_size_mib, v),
    },
    Control {
        flag: "limit-cpu-s",
        value_name: "SECONDS",
        about: "CPU seconds each bot process may use in all (RLIMIT_CPU).",
        kind: Kind::Number { min: 1 },
        bot_key: Some("limits.cpu_s"),
        fixed: true,
        get: |c| Value::Number(c.cpu_s),
        set: |c, v| c.cpu_s = number(v),
    },
    Control {
        flag: "fresh-boxes",
        value_name: "",
        about: "Give every game's bots new boxes, never ones kept from an earlier game: the \
               strongest isolation between games, at the cost of making each box anew (a \
               game's record is the same either way).",
        kind: Kind::Switch,
        bot_key: None,
        // A box is never an input to a game (docs/sandbox.md): a league
        // may turn it on when it resumes.
        fixed: false,
        get: |c| Value::Switch(c.fresh_boxes),
        set: |c, v| c.fresh_boxes = v == Value::Switch(true),
    },
];

/// A flag given beside stored controls that contradicts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// `--timeout-ms`.
    pub flag: String,
    pub given: String,
    pub stored: String,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} (the league has {})",
            self.flag, self.given, self.stored
        )
    }
}

/// The control flags given on a command line: each field's value where
/// its flag was given.
#[derive(Debug, Clone, Default)]
pub struct Given(pub Vec<(&'static Control, Value)>);

impl Controls {
    /// `given` over `stored` (a resumed league's, or a league's whose game
    /// is rerun) or over the defaults: the controls in force, and each
    /// given flag of a [fixed](Control::fixed) control that contradicts a
    /// stored value (then the stored one is kept).
    pub fn resolve(given: &Given, stored: Option<&Controls>) -> (Controls, Vec<Conflict>) {
        let mut out = stored.copied().unwrap_or_default();
        let mut conflicts = Vec::new();
        for (control, value) in &given.0 {
            match stored {
                Some(s) if control.fixed && control.get(s) != *value => conflicts.push(Conflict {
                    flag: format!("--{}", control.flag),
                    given: value.to_string(),
                    stored: control.get(s).to_string(),
                }),
                _ => control.set(&mut out, *value),
            }
        }
        (out, conflicts)
    }

    /// The flags that set these controls from the defaults: each field
    /// that differs from its default, in [`CONTROLS`] order.
    pub fn to_args(&self) -> Vec<String> {
        let default = Controls::default();
        let mut args = Vec::new();
        for c in CONTROLS {
            let value = c.get(self);
            if value == c.get(&default) {
                continue;
            }
            match value {
                Value::Switch(true) => args.push(format!("--{}", c.flag)),
                Value::Switch(false) | Value::Number(None) => {}
                other => args.extend([format!("--{}", c.flag), other.to_string()]),
            }
        }
        args
    }

    /// These controls with a bot's own values (its `bot.toml`'s `[limits]`
    /// and `[time]`) in place of the run's.
    pub fn with_bot(&self, values: &BotValues) -> Controls {
        let mut out = *self;
        for c in CONTROLS {
            if let Some(v) = c.bot_key.and_then(|k| values.get(k)) {
                c.set(&mut out, Value::Number(Some(v)));
            }
        }
        out
    }

    /// The containment a run under these controls gets on this machine:
    /// the one check of the sandbox mode (an error under `--sandbox
    /// strict` when a layer is missing), made by every game before it
    /// starts and by a league before its first.
    pub fn containment(&self) -> Result<InForce, SandboxError> {
        dojo_sandbox::plan::in_force(self.sandbox)
    }
}

impl From<&Controls> for Limits {
    /// The kernel's limits for each bot process under `c`, in bytes where
    /// the flags say MiB.
    fn from(c: &Controls) -> Limits {
        Limits {
            memory_bytes: c.memory_mib.map(mib_bytes),
            address_space_bytes: None,
            cpu_seconds: c.cpu_s,
            processes: Some(c.processes),
            open_files: Some(c.files),
            file_size_bytes: Some(mib_bytes(c.file_size_mib)),
        }
    }
}

/// A [`Duration`] as whole milliseconds.
mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(super::as_ms(*d))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

/// An optional [`Duration`] as whole milliseconds or `null`.
mod opt_millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_some(&super::as_ms(*d)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Option::<u64>::deserialize(d).map(|v| v.map(Duration::from_millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Controls with every field away from its default.
    fn everything_set() -> Controls {
        let mut c = Controls::default();
        for control in CONTROLS {
            let v = match control.kind {
                Kind::Number { min } => Value::Number(Some(min.max(1) + 6)),
                Kind::Word(words) => Value::Word(words[words.len() - 1]),
                Kind::Switch => Value::Switch(true),
            };
            control.set(&mut c, v);
            assert_eq!(
                control.get(&c),
                v,
                "--{} does not set its field",
                control.flag
            );
        }
        c
    }

    #[test]
    fn the_list_covers_every_field_once() {
        // Every JSON key of Controls is a listed flag's, and each listed
        // flag moves its own field only.
        let json = serde_json::to_value(Controls::default()).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), CONTROLS.len(), "{keys:?}");
        let all = everything_set();
        assert_ne!(all, Controls::default());
        let json_all = serde_json::to_value(all).unwrap();
        for key in keys {
            assert_ne!(json[key], json_all[key], "{key} is set by no listed flag");
        }
    }

    #[test]
    fn to_args_round_trips_through_resolve() {
        let all = everything_set();
        let args = all.to_args();
        let mut given = Given::default();
        let mut words = args.iter().peekable();
        while let Some(flag) = words.next() {
            let control = CONTROLS
                .iter()
                .find(|c| format!("--{}", c.flag) == *flag)
                .unwrap();
            let value = match control.kind {
                Kind::Switch => Value::Switch(true),
                _ => control.parse(words.next().unwrap()).unwrap(),
            };
            given.0.push((control, value));
        }
        assert_eq!(given.0.len(), CONTROLS.len());
        assert_eq!(Controls::resolve(&given, None), (all, vec![]));
        assert!(Controls::default().to_args().is_empty());
    }

    #[test]
    fn given_flags_that_contradict_stored_ones_are_conflicts() {
        let stored = Controls {
            sandbox: SandboxMode::Off,
            ..Controls::default()
        };
        let sandbox = CONTROLS.iter().find(|c| c.flag == "sandbox").unwrap();
        let timeout = CONTROLS.iter().find(|c| c.flag == "timeout-ms").unwrap();
        let given = Given(vec![
            (sandbox, Value::Word("auto")),
            (timeout, Value::Number(Some(1000))),
        ]);
        let (resolved, conflicts) = Controls::resolve(&given, Some(&stored));
        assert_eq!(resolved, stored);
        assert_eq!(conflicts.len(), 1);
        assert_eq!(
            conflicts[0].to_string(),
            "--sandbox auto (the league has off)"
        );
    }

    #[test]
    fn fresh_boxes_given_over_a_stored_league_is_applied_not_a_conflict() {
        // A box is never an input to a game, so a league may turn fresh
        // boxes on when it resumes.
        let stored = Controls::default();
        let fresh = CONTROLS.iter().find(|c| c.flag == "fresh-boxes").unwrap();
        assert!(!fresh.fixed);
        let given = Given(vec![(fresh, Value::Switch(true))]);
        let (resolved, conflicts) = Controls::resolve(&given, Some(&stored));
        assert_eq!(conflicts, vec![]);
        assert!(resolved.fresh_boxes);
        assert!(crate::RunOptions::from(resolved).controls.fresh_boxes);
        // Every other control is fixed.
        assert!(
            CONTROLS
                .iter()
                .filter(|c| c.flag != "fresh-boxes")
                .all(|c| c.fixed)
        );
    }

    #[test]
    fn controls_stored_before_fresh_boxes_load_as_reused_boxes() {
        let mut json = serde_json::to_value(Controls::default()).unwrap();
        json.as_object_mut().unwrap().remove("fresh_boxes");
        let c: Controls = serde_json::from_value(json).unwrap();
        assert_eq!(c, Controls::default());
    }

    #[test]
    fn parse_names_the_flag_and_what_it_expects() {
        let timeout = CONTROLS.iter().find(|c| c.flag == "timeout-ms").unwrap();
        assert_eq!(timeout.parse("5"), Ok(Value::Number(Some(5))));
        assert_eq!(
            timeout.parse("0").unwrap_err(),
            "--timeout-ms 0: expected a whole number of at least 1"
        );
        assert_eq!(
            timeout.parse("99999999999999999999").unwrap_err(),
            "--timeout-ms 99999999999999999999: too large: the largest value accepted is 18446744073709551615"
        );
        assert_eq!(
            timeout.parse(&u64::MAX.to_string()),
            Ok(Value::Number(Some(u64::MAX)))
        );
        let time = CONTROLS.iter().find(|c| c.flag == "time").unwrap();
        assert_eq!(
            time.parse("sun").unwrap_err(),
            "--time sun: expected one of wall, cpu"
        );
    }

    #[test]
    fn the_bot_toml_keys_are_exactly_the_listed_bot_keys() {
        // `bot.toml`'s `[limits]` and `[time]` (BotValues) hold one key per
        // control a bot may set, no more, no fewer.
        let listed: Vec<&str> = CONTROLS.iter().filter_map(|c| c.bot_key).collect();
        let v = BotValues::default();
        let mut in_toml: Vec<String> = v
            .limits
            .entries()
            .iter()
            .map(|(k, _)| format!("limits.{k}"))
            .chain(v.time.entries().iter().map(|(k, _)| format!("time.{k}")))
            .collect();
        in_toml.sort();
        let mut sorted = listed.clone();
        sorted.sort();
        assert_eq!(in_toml, sorted);
        for key in listed {
            let mut v = BotValues::default();
            v.set(key, Some(5));
            assert_eq!(v.get(key), Some(5), "{key}");
        }
    }

    #[test]
    fn the_runners_defaults_are_the_controls_defaults() {
        let c = Controls::default();
        assert_eq!(crate::RunOptions::default().controls, c);
        assert_eq!(
            Limits::from(&c).memory_bytes,
            Some(mib_bytes(DEFAULT_MEMORY_MIB))
        );
        assert_eq!(Limits::from(&c).processes, Some(DEFAULT_PROCESSES));
    }

    #[test]
    fn each_help_states_its_default_from_the_defaults() {
        let help = |flag: &str| CONTROLS.iter().find(|c| c.flag == flag).unwrap().help();
        assert_eq!(
            help("timeout-ms"),
            "Time allowed per move, from sending the prompt to the whole answer \
             [default: 1000]."
        );
        assert!(help("limit-memory-mib").ends_with(&format!("[default: {DEFAULT_MEMORY_MIB}].")));
        assert!(help("game-ms").ends_with("[default: unlimited]."));
        assert!(help("sandbox").ends_with("[default: auto]."));
        assert!(!help("pin").contains("default"));
        // The backstop is the runner's knob, named in the flag's prose.
        let backstop = crate::RunOptions::default().wall_backstop;
        assert!(help("time").contains(&format!("backstop of {backstop} times")));
    }

    #[test]
    fn mib_become_bytes_and_durations_whole_milliseconds() {
        assert_eq!(mib_bytes(64), 64 << 20);
        assert_eq!(mib_bytes(u64::MAX), u64::MAX);
        assert_eq!(as_ms(Duration::from_micros(1_999)), 1);
        assert_eq!(as_ms(Duration::MAX), u64::MAX);
    }

    #[test]
    fn a_bots_values_replace_the_runs_only_where_given_and_reach_the_kernel_in_bytes() {
        let run = Controls {
            timeout: Duration::from_millis(100),
            game_budget: Some(Duration::from_secs(5)),
            ..Controls::default()
        };
        assert_eq!(run.with_bot(&BotValues::default()), run);
        let toml = "[limits]\nmemory_mib = 2048\nfiles = 64\n[time]\ntimeout_ms = 600\n\
                    overage_ms = 0\n";
        let values: BotValues = toml::from_str(toml).unwrap();
        let c = run.with_bot(&values);
        assert_eq!(
            c,
            Controls {
                timeout: Duration::from_millis(600),
                overage: Duration::ZERO,
                memory_mib: Some(2048),
                files: 64,
                ..run
            }
        );
        let limits = Limits::from(&c);
        assert_eq!(limits.memory_bytes, Some(2048 << 20));
        assert_eq!(limits.open_files, Some(64));
        assert_eq!(limits.processes, Some(DEFAULT_PROCESSES));
    }

    #[test]
    fn the_runner_plays_each_seat_under_the_tables_overlay() {
        // What the runner gives a bot's processes is `Controls::with_bot`,
        // nothing spelled apart: every key a bot may set reaches it.
        let mut spec = crate::BotSpec {
            name: "b".into(),
            command: vec!["b".into()],
            dir: std::path::PathBuf::from("/"),
            build: None,
            mode: crate::Mode::Persistent,
            games: Vec::new(),
            team: None,
            description: None,
            values: BotValues::default(),
        };
        for key in CONTROLS.iter().filter_map(|c| c.bot_key) {
            spec.values.set(key, Some(7));
        }
        let run = crate::RunOptions::default();
        let theirs = run.for_bot(&spec);
        assert_eq!(theirs, run.controls.with_bot(&spec.values));
        for c in CONTROLS.iter().filter(|c| c.bot_key.is_some()) {
            assert_eq!(c.get(&theirs), Value::Number(Some(7)), "--{}", c.flag);
        }
    }
}

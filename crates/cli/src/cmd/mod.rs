//! One module per subcommand.

pub mod bots;
pub mod compare;
pub mod doctor;
pub mod league;
pub mod play;
pub mod replay;
pub mod report;
pub mod rules;

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dojo_engine::cardjitsu::{self, Ruleset};
use dojo_engine::royale;
use dojo_league::{Game, PlayOptions};
use dojo_runner::RunOptions;
use serde::Serialize;

use crate::args::{GameOptionsArgs, TimeArgs};
use crate::games;

/// Runner options from the time flags.
pub fn run_options(time: &TimeArgs) -> RunOptions {
    RunOptions {
        move_timeout: Duration::from_millis(time.timeout_ms()),
        startup_allowance: Duration::from_millis(time.startup_ms()),
        time: clock_mode(&time.clock),
        overage: Duration::from_millis(time.clock.overage_ms.unwrap_or(0)),
        game_budget: time.clock.game_ms.map(Duration::from_millis),
        pin_game_threads: time.clock.pin,
        ..sandboxed(&time.sandbox)
    }
}

/// `--time`: clap accepts only the two names.
pub fn clock_mode(clock: &crate::args::ClockArgs) -> dojo_runner::TimeMode {
    clock
        .time
        .as_deref()
        .and_then(|t| t.parse().ok())
        .unwrap_or_default()
}

/// The stored form of the clock flags, over `base` (unset flags keep it).
pub fn apply_clock(base: &PlayOptions, clock: &crate::args::ClockArgs) -> PlayOptions {
    PlayOptions {
        time: clock.time.as_ref().map_or(base.time, |_| clock_mode(clock)),
        overage_ms: clock.overage_ms.unwrap_or(base.overage_ms),
        game_ms: clock.game_ms.or(base.game_ms),
        pin: clock.pin || base.pin,
        ..base.clone()
    }
}

/// The time and limit flags given that differ from a stored league's
/// (each as `--flag VALUE (the league has STORED)`): a league's time
/// controls and limits are fixed when it starts, for `--resume` and for a
/// rerun of one of its games alike. Flags left out are not conflicts.
pub fn time_conflicts(
    timeout_ms: Option<u64>,
    startup_ms: Option<u64>,
    clock: &crate::args::ClockArgs,
    sandbox: &crate::args::SandboxArgs,
    settings: &dojo_league::Settings,
) -> Vec<String> {
    let mut conflicts = Vec::new();
    let mut check = |flag: &str, is_given: bool, value: String, stored: String| {
        if is_given && value != stored {
            conflicts.push(format!("{flag} {value} (the league has {stored})"));
        }
    };
    let stored = &settings.play;
    let given = apply_clock(stored, clock);
    let ms = |v: Option<u64>| v.map_or_else(|| "unlimited".to_owned(), |ms| ms.to_string());
    check(
        "--timeout-ms",
        timeout_ms.is_some(),
        timeout_ms.unwrap_or_default().to_string(),
        settings.timeout_ms.to_string(),
    );
    check(
        "--startup-ms",
        startup_ms.is_some(),
        startup_ms.unwrap_or_default().to_string(),
        stored.startup_ms.to_string(),
    );
    check(
        "--time",
        clock.time.is_some(),
        given.time.name().to_owned(),
        stored.time.name().to_owned(),
    );
    check(
        "--overage-ms",
        clock.overage_ms.is_some(),
        given.overage_ms.to_string(),
        stored.overage_ms.to_string(),
    );
    check(
        "--game-ms",
        clock.game_ms.is_some(),
        ms(given.game_ms),
        ms(stored.game_ms),
    );
    check(
        "--pin",
        clock.pin,
        given.pin.to_string(),
        stored.pin.to_string(),
    );
    let limits = limits(sandbox, settings.limits);
    let limit = |v: Option<u64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
    check(
        "--limit-memory-mib",
        sandbox.limit_memory_mib.is_some(),
        limit(limits.memory_mib),
        limit(settings.limits.memory_mib),
    );
    check(
        "--limit-cpu-s",
        sandbox.limit_cpu_s.is_some(),
        limit(limits.cpu_s),
        limit(settings.limits.cpu_s),
    );
    check(
        "--limit-processes",
        sandbox.limit_processes.is_some(),
        limits.processes.to_string(),
        settings.limits.processes.to_string(),
    );
    check(
        "--limit-files",
        sandbox.limit_files.is_some(),
        limits.files.to_string(),
        settings.limits.files.to_string(),
    );
    check(
        "--limit-file-size-mib",
        sandbox.limit_file_size_mib.is_some(),
        limits.file_size_mib.to_string(),
        settings.limits.file_size_mib.to_string(),
    );
    conflicts
}

/// Runner options with the sandbox flags applied, the rest default.
pub fn sandboxed(flags: &crate::args::SandboxArgs) -> RunOptions {
    let l = limits(flags, dojo_league::BotLimits::default());
    let mib = |m: u64| m.saturating_mul(1 << 20);
    RunOptions {
        // clap accepts only the three names.
        sandbox: flags.sandbox.parse().unwrap_or_default(),
        limits: dojo_runner::Limits {
            memory_bytes: l.memory_mib.map(mib),
            address_space_bytes: None,
            cpu_seconds: l.cpu_s,
            processes: Some(l.processes),
            open_files: Some(l.files),
            file_size_bytes: Some(mib(l.file_size_mib)),
        },
        ..RunOptions::default()
    }
}

/// The `--limit-*` flags given, the rest from `unset` (the defaults, or a
/// resumed league's stored limits).
pub fn limits(
    flags: &crate::args::SandboxArgs,
    unset: dojo_league::BotLimits,
) -> dojo_league::BotLimits {
    dojo_league::BotLimits {
        memory_mib: flags.limit_memory_mib.or(unset.memory_mib),
        cpu_s: flags.limit_cpu_s.or(unset.cpu_s),
        processes: flags.limit_processes.unwrap_or(unset.processes),
        files: flags.limit_files.unwrap_or(unset.files),
        file_size_mib: flags.limit_file_size_mib.unwrap_or(unset.file_size_mib),
    }
}

/// Writes `value` as one line of JSON, atomically (a temporary file in the
/// same directory, then a rename), so a reader never sees half a record;
/// `-` writes it to stdout.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<()> {
    let mut text = serde_json::to_string(value).context("serialising the record")?;
    text.push('\n');
    if path.as_os_str() == "-" {
        out!("{text}");
        return Ok(());
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(
        || "record.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// What a replay page of a game just played can say about its record:
/// the `--json` file it was saved to, if any.
pub fn record_source(json: Option<&Path>) -> dojo_league::view::RecordSource {
    json.map_or(dojo_league::view::RecordSource::Unsaved, |p| {
        dojo_league::view::RecordSource::File(p.display().to_string())
    })
}

/// The rules, decks (with their names for the record) and round limits of
/// `play`, decks read and checked now.
pub fn game_settings(
    play: &PlayOptions,
) -> Result<(cardjitsu::Settings, [String; 2], royale::Settings)> {
    let (cardjitsu, deck_names) = games::cardjitsu::settings(play)?;
    Ok((cardjitsu, deck_names, games::royale::settings(play)))
}

/// The stored form of the game flags for `game`: refuses flags the game
/// does not take (they would be silently ignored, `GameCli::game_flags`),
/// makes deck paths absolute and checks the decks parse.
pub fn play_options(game: Game, a: &GameOptionsArgs, startup_ms: u64) -> Result<PlayOptions> {
    let takes = games::cli(game).game_flags();
    let not_here: Vec<&str> = a
        .given()
        .into_iter()
        .filter(|(flag, given)| *given && !takes.contains(flag))
        .map(|(flag, _)| flag)
        .collect();
    if !not_here.is_empty() {
        let verb = if not_here.len() == 1 {
            "applies"
        } else {
            "apply"
        };
        bail!(
            "{} only {verb} to {}, not {game}",
            not_here.join(", "),
            games::games_taking(&not_here, game).join(" or ")
        );
    }
    let play = PlayOptions {
        rules: a.rules.map_or(Ruleset::Tournament, Ruleset::from),
        decks: [
            games::cardjitsu::deck_name(a.deck1.as_deref())?,
            games::cardjitsu::deck_name(a.deck2.as_deref())?,
        ],
        max_rounds: a.max_rounds,
        stall_rounds: a.stall_rounds,
        startup_ms,
        ..PlayOptions::default()
    };
    // Read the decks now: a bad deck is an error before any game.
    game_settings(&play)?;
    Ok(play)
}

/// Reads a text file, naming it in the error.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads the league in `dir` and, with `html`, writes its report page
/// there (every game's replay packed inside it).
pub fn league_page(
    dir: &Path,
    html: Option<&Path>,
) -> Result<(
    dojo_league::Settings,
    Vec<dojo_league::store::GameLine>,
    dojo_league::Report,
)> {
    if !dir.join(dojo_league::store::LEAGUE_FILE).is_file() {
        anyhow::bail!(
            "{}: not a league out directory (it has no league.json); expected the --out directory of a `dojo league`",
            dir.display()
        );
    }
    let (settings, games, report) = dojo_league::view::read_league(dir)
        .with_context(|| format!("reading the league in {}", dir.display()))?;
    if let Some(path) = html {
        crate::html::write(path, &crate::html::report(&report, &settings, &games, dir)?)?;
    }
    Ok((settings, games, report))
}

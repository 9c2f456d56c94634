//! One module per subcommand.

pub mod bots;
pub mod compare;
pub mod doctor;
pub mod league;
pub mod match_cardjitsu;
pub mod match_royale;
pub mod play;
pub mod replay;
pub mod report;
pub mod rules;

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use dojo_runner::RunOptions;
use serde::Serialize;

use crate::args::TimeArgs;

/// Runner options from the time flags.
pub fn run_options(time: &TimeArgs) -> RunOptions {
    RunOptions {
        move_timeout: Duration::from_millis(time.timeout_ms),
        startup_allowance: Duration::from_millis(time.startup_ms),
        // clap accepts only the three names.
        sandbox: time.sandbox.parse().unwrap_or_default(),
        limits: dojo_runner::Limits {
            address_space_bytes: time.limit_memory_mib.map(|m| m << 20),
            cpu_seconds: time.limit_cpu_s,
            processes: None,
            open_files: Some(time.limit_files),
            file_size_bytes: Some(time.limit_file_size_mib << 20),
        },
        ..RunOptions::default()
    }
}

/// Writes `value` as one line of JSON, atomically (a temporary file in the
/// same directory, then a rename), so a reader never sees half a record.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<()> {
    let mut text = serde_json::to_string(value).context("serialising the record")?;
    text.push('\n');
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

/// Reads a text file, naming it in the error.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

//! Joining the directories of one league's shards (or partial runs) into
//! one directory with the report a single machine would have written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use thiserror::Error;

use crate::report::{Report, RunInfo, build_report};
use crate::schedule::{Schedule, ScheduleError};
use crate::settings::{Provenance, ProvenanceDiff};
use crate::stderr_logs::STDERR_DIR;
use crate::store::{
    self, GAMES_FILE, GameLine, LEAGUE_FILE, REPORT_FILE, StoreError, write_json_atomic,
};

/// Why directories cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    #[error("nothing to merge: give at least one league directory")]
    NoInput,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Sprt(#[from] crate::stop::SprtSetupError),
    #[error(
        "{} is a different league from {} (differs in: {}; apart from the shard, league.json must be identical)",
        other.display(), first.display(), fields.join(", ")
    )]
    OtherLeague {
        first: PathBuf,
        other: PathBuf,
        /// The differing `league.json` keys.
        fields: Vec<String>,
    },
    /// Same settings, but played by another dojo or other bots.
    #[error(
        "{} was played by a different dojo or bots than {}: {diff}; shards must be played by the same dojo version with identical bots",
        other.display(), first.display()
    )]
    OtherProvenance {
        first: PathBuf,
        other: PathBuf,
        diff: ProvenanceDiff,
    },
    #[error("game {id} has different results in {} and {}", a.display(), b.display())]
    Conflict { id: u64, a: PathBuf, b: PathBuf },
    #[error("{}: game {id} is not in the league's schedule or does not match it", path.display())]
    Foreign { path: PathBuf, id: u64 },
    /// The output is one of the inputs: merging would overwrite a shard.
    #[error(
        "--out {} is also an input; merge into a new directory (the shards are only read)",
        out.display()
    )]
    OutIsInput { out: PathBuf },
}

/// Merges `dirs` into `out`: `out/league.json` (without shard),
/// `out/games.jsonl` (sorted by id) and `out/report.json`. Games already in
/// `out` (from an earlier merge of the same league) are kept. Input
/// directories are only read; a torn last line in one is an error (resume
/// that directory first).
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Report, MergeError> {
    let started = Instant::now();
    let Some(first) = dirs.first() else {
        return Err(MergeError::NoInput);
    };
    if dirs.iter().any(|d| same_dir(d, out)) {
        return Err(MergeError::OutIsInput {
            out: out.to_owned(),
        });
    }
    let first_league = store::load_league(first)?;
    let settings = first_league.settings.unsharded();
    let mut sources: Vec<PathBuf> = dirs.to_vec();
    if out.join(LEAGUE_FILE).exists() {
        sources.push(out.to_owned());
    } else if out.join(GAMES_FILE).exists() {
        return Err(StoreError::NoLeague {
            path: out.to_owned(),
        }
        .into());
    }

    // Held to the end: games.jsonl is replaced below, and a league still
    // appending to the old file would lose every game it adds.
    let _out_lock = store::lock_games(out)?;

    let schedule = Schedule::build(&settings)?;
    let mut games: BTreeMap<u64, (GameLine, &Path)> = BTreeMap::new();
    // The provenance of the first directory with games, and where from:
    // every other directory with games must have the same (one without
    // games contributes nothing to mix up).
    let mut provenance: Option<(Option<Provenance>, &Path)> = None;
    for dir in &sources {
        let league = store::load_league(dir)?;
        let mut theirs = league.settings.unsharded();
        // Fresh boxes or reused ones change no record (docs/sandbox.md's
        // rule), so shards may differ in them, as a resume may.
        theirs.controls.fresh_boxes = settings.controls.fresh_boxes;
        if theirs != settings {
            return Err(MergeError::OtherLeague {
                first: first.clone(),
                other: dir.clone(),
                fields: store::differing_fields(&settings, &theirs),
            });
        }
        let lines = store::read_games(dir, settings.game, false)?;
        if lines.is_empty() {
            continue;
        }
        match &provenance {
            None => provenance = Some((league.provenance, dir)),
            Some((ours, from)) => {
                if let Some(diff) = provenance_difference(ours.as_ref(), league.provenance.as_ref())
                {
                    return Err(MergeError::OtherProvenance {
                        first: from.to_path_buf(),
                        other: dir.clone(),
                        diff,
                    });
                }
            }
        }
        for line in lines {
            let fits = schedule.fixture(line.id).is_some_and(|f| line.matches(&f));
            if !fits {
                return Err(MergeError::Foreign {
                    path: dir.join(GAMES_FILE),
                    id: line.id,
                });
            }
            match games.get(&line.id) {
                Some((prev, from)) if !prev.same_game(&line) => {
                    return Err(MergeError::Conflict {
                        id: line.id,
                        a: from.to_path_buf(),
                        b: dir.clone(),
                    });
                }
                Some(_) => {}
                None => {
                    games.insert(line.id, (line, dir));
                }
            }
        }
    }

    let lines: Vec<GameLine> = games.into_values().map(|(l, _)| l).collect();
    // The retired games of a replaced bot's old version in `out` (from a
    // `--replace` on the merged league) stay in the file, for the record.
    let mut kept: Vec<GameLine> = if out.join(GAMES_FILE).exists() {
        store::read_every_line(out, settings.game, false)?
            .into_iter()
            .filter(|l| l.retired.is_some())
            .collect()
    } else {
        Vec::new()
    };
    // Where the first shard found its bots: the merged report's command
    // replays the league from there. Its pages are the merged directory's
    // own (from an earlier merge), not the shard's.
    let mut origin = first_league.origin.clone();
    (origin.pages, origin.pages_of) = match store::load_league(out) {
        Ok(league) if out.join(LEAGUE_FILE).exists() => {
            (league.origin.pages, league.origin.pages_of)
        }
        _ => (Vec::new(), None),
    };
    std::fs::create_dir_all(out).map_err(|source| StoreError::Io {
        path: out.to_owned(),
        source,
    })?;
    store::write_league(
        out,
        &store::LeagueJson {
            settings: settings.clone(),
            containment: None,
            provenance: provenance.and_then(|(p, _)| p),
            origin: origin.clone(),
        },
    )?;
    if kept.is_empty() {
        store::write_games(out, &lines)?;
    } else {
        kept.extend(lines.iter().cloned());
        kept.sort_by_key(|l| (l.id, l.retired.is_none()));
        store::write_games(out, &kept)?;
    }
    let info = RunInfo {
        wall_ms: started.elapsed().as_millis() as u64,
        ..RunInfo::default()
    };
    let mut report = build_report(&settings, &origin, &lines, schedule.len(), info);
    // A gauntlet's tests, on the merged games (shards play without them).
    if let Some(rule) = crate::stop::over_stored_games(&settings, &schedule, &lines)? {
        report.add_stop_rule(&rule);
    }
    write_json_atomic(&out.join(REPORT_FILE), &report)?;
    merge_stderr_logs(dirs, out)?;
    Ok(report)
}

/// Writes each bot's `stderr/<bot>.log` in `out` as the logs of `dirs`
/// one after another, each headed by the directory it came from (so the
/// merged report's pointer to a faulty bot's log leads somewhere). Logs of
/// an earlier merge into `out` are replaced.
fn merge_stderr_logs(dirs: &[PathBuf], out: &Path) -> Result<(), MergeError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| MergeError::Store(StoreError::Io { path, source })
    };
    let mut logs: BTreeMap<std::ffi::OsString, Vec<u8>> = BTreeMap::new();
    for dir in dirs {
        let from = dir.join(STDERR_DIR);
        let Ok(entries) = std::fs::read_dir(&from) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for file in files {
            let Some(name) = file.file_name() else {
                continue;
            };
            let text = std::fs::read(&file).map_err(io(&file))?;
            let log = logs.entry(name.to_owned()).or_default();
            log.extend_from_slice(format!("=== from {} ===\n", dir.display()).as_bytes());
            log.extend_from_slice(&text);
            if !text.ends_with(b"\n") {
                log.push(b'\n');
            }
        }
    }
    if logs.is_empty() {
        return Ok(());
    }
    let to = out.join(STDERR_DIR);
    std::fs::create_dir_all(&to).map_err(io(&to))?;
    for (name, text) in logs {
        let path = to.join(name);
        std::fs::write(&path, text).map_err(io(&path))?;
    }
    Ok(())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// How two directories' provenance differs; a directory from before
/// provenance was recorded only merges with others like it.
fn provenance_difference(
    first: Option<&Provenance>,
    other: Option<&Provenance>,
) -> Option<ProvenanceDiff> {
    match (first, other) {
        (Some(a), Some(b)) => a.difference(b),
        (None, None) => None,
        (a, b) => Some(ProvenanceDiff {
            key: "provenance".into(),
            ours: a.map(|_| "recorded".into()),
            theirs: b.map(|_| "recorded".into()),
        }),
    }
}

//! Helpers shared by the tests that play real bot processes.
//!
//! `play_cardjitsu` and `play_royale` do not hand out process-group ids,
//! so a bot is started through `sh -c 'echo $$ >> PIDFILE; exec BOT'`: the
//! runner puts each process in a group of its own (pgid = pid) and `exec`
//! keeps the pid, so the file lists the group of every process a seat used.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use dojo_runner::BotSpec;

pub fn repo() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap()
}

pub fn bots_dir() -> PathBuf {
    repo().join("bots")
}

/// A bots/faulty/ script as an inline bot, the way `dojo match` takes one.
pub fn faulty(file: &str) -> BotSpec {
    let path = bots_dir().join("faulty").join(file);
    let name = file.trim_end_matches(".py");
    dojo_runner::resolve(&format!("{name}=python3 {}", path.display()), &bots_dir()).unwrap()
}

/// `bot`, started through a shell that first appends its pid to `pidfile`.
pub fn recording_pids(mut bot: BotSpec, pidfile: &Path) -> BotSpec {
    let mut command = vec![
        "sh".to_string(),
        "-c".to_string(),
        r#"echo $$ >> "$0"; exec "$@""#.to_string(),
        pidfile.to_string_lossy().into_owned(),
    ];
    command.append(&mut bot.command);
    bot.command = command;
    bot
}

pub fn read_pids(pidfile: &Path) -> Vec<i32> {
    std::fs::read_to_string(pidfile)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

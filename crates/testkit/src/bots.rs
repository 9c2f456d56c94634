//! Runnable test bots: a script of `bots/faulty` or `bots/hostile` as a
//! [`BotSpec`], and bots started through a shell that records their pids.

use std::path::Path;
use std::sync::Arc;

use dojo_runner::{BotSpec, Mode};

use crate::paths::bots_dir;

/// The executable script `bots/FOLDER/FILE` with `args`, run in its folder,
/// as a CardJitsu bot named after the file (without `.py`).
pub fn script(folder: &str, file: &str, args: &[&str], mode: Mode) -> Arc<BotSpec> {
    let dir = bots_dir().join(folder);
    assert!(dir.is_dir(), "{} exists", dir.display());
    let mut command = vec![dir.join(file).to_string_lossy().into_owned()];
    command.extend(args.iter().map(|a| a.to_string()));
    Arc::new(BotSpec {
        name: file.trim_end_matches(".py").to_string(),
        command,
        dir,
        build: None,
        mode,
        games: vec!["cardjitsu".to_string()],
        team: None,
        description: None,
        values: Default::default(),
    })
}

/// A `bots/faulty/` script as an inline bot (`NAME=python3 PATH`), the way
/// `dojo match` takes one.
pub fn faulty_inline(file: &str) -> BotSpec {
    let path = bots_dir().join("faulty").join(file);
    let name = file.trim_end_matches(".py");
    dojo_runner::resolve(&format!("{name}=python3 {}", path.display()), &bots_dir())
        .expect("an inline bot resolves")
}

/// A bundled bot from its directory under `bots/`.
pub fn bundled(name: &str) -> BotSpec {
    dojo_runner::load_dir(&bots_dir().join(name)).expect("a bundled bot loads")
}

/// `bot`, started through `sh -c 'echo $$ >> PIDFILE; exec BOT'`: the
/// runner puts each process in a group of its own (pgid = pid) and `exec`
/// keeps the pid, so `pidfile` lists the group of every process the bot
/// was started as (read it with [`read_pids`]). Inside a PID namespace `$$`
/// is 1: use it with the sandbox off.
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

/// The pids [`recording_pids`] wrote to `pidfile` (none if it is missing).
pub fn read_pids(pidfile: &Path) -> Vec<i32> {
    std::fs::read_to_string(pidfile)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().expect("a pid per line"))
        .collect()
}

/// Run options with `move_ms` a move and `startup_ms` more for a fresh
/// process, the rest default.
pub fn run_options(move_ms: u64, startup_ms: u64) -> dojo_runner::RunOptions {
    dojo_runner::RunOptions::from(dojo_runner::Controls {
        timeout: std::time::Duration::from_millis(move_ms),
        startup: std::time::Duration::from_millis(startup_ms),
        ..dojo_runner::Controls::default()
    })
}

/// [`run_options`] for bots wrapped by [`recording_pids`]: no sandbox,
/// because the pid files record `$$`, which is 1 inside a PID namespace
/// (the runner's hostile-bot suite covers the namespaces).
pub fn pid_recording_options(move_ms: u64, startup_ms: u64) -> dojo_runner::RunOptions {
    let mut options = run_options(move_ms, startup_ms);
    options.controls.sandbox = dojo_runner::SandboxMode::Off;
    options
}

/// The fault counts a test expects of a seat (no `limit` hits).
pub fn faults(timeout: u32, crash: u32, invalid: u32, restart: u32) -> dojo_runner::FaultCounts {
    dojo_runner::FaultCounts {
        timeout: timeout.into(),
        crash: crash.into(),
        invalid: invalid.into(),
        restart: restart.into(),
        limit: 0,
        limits_hit: Default::default(),
    }
}

/// A copy of the bundled bot `bots/NAME` in `to` (a bot of its own, for a
/// test that changes, moves or deletes it); returns `to`.
pub fn copy_bundled(name: &str, to: &Path) -> std::path::PathBuf {
    crate::paths::copy_files(&bots_dir().join(name), to);
    to.to_path_buf()
}

/// An inline CardJitsu bot (`forgetful=python3 DIR/forgetful.py`) that
/// never plays a game the same way twice: it remembers (in `seen`, beside
/// it) what it answered to each game's first hand, `0` the first time,
/// and answers the next card each time that hand comes again. It writes
/// its own directory, so it runs with `--sandbox off`, one game at a
/// time.
pub fn forgetful(dir: &Path) -> String {
    let script = dir.join("forgetful.py");
    std::fs::write(
        &script,
        r#"import json, os, sys
seen_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seen")
key = None
for line in sys.stdin:
    line = line.strip()
    if "," in line:
        answer = 0
        if key is None:
            key = line
            seen = json.load(open(seen_file)) if os.path.exists(seen_file) else {}
            if key in seen:
                answer = (seen[key] + 1) % 5
            seen[key] = answer
            json.dump(seen, open(seen_file, "w"))
        print(answer, flush=True)
    elif line.startswith("Player") or line == "Draw!":
        break
"#,
    )
    .unwrap();
    format!("forgetful=python3 {}", script.display())
}

/// How long [`slow_starter`] sleeps before its first answer, in ms.
pub const SLOW_START_MS: u64 = 2500;
/// [`slow_starter`]'s move limit and start-up allowance, in ms: its start
/// takes over half of the 4.5 s its first answer may take (and over its
/// move limit), with 2 s to spare for a loaded machine.
pub const SLOW_START_LIMITS: (u64, u64) = (1000, 3500);

/// A CardJitsu bot in `dir/slow-start` (named `slow-start`) that starts
/// slowly (it sleeps [`SLOW_START_MS`] before it reads anything) and then
/// answers at once, with its own move limit and start-up allowance
/// ([`SLOW_START_LIMITS`]) in its `bot.toml`: each game's first answer
/// takes longer than its move limit, within its start-up allowance.
pub fn slow_starter(dir: &Path) -> std::path::PathBuf {
    let bot = dir.join("slow-start");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(
        bot.join("bot.py"),
        format!(
            "import sys, time\n\
             time.sleep({})\n\
             for line in sys.stdin:\n\
             \x20   if ',' in line and ' vs. ' not in line:\n\
             \x20       print(0, flush=True)\n",
            SLOW_START_MS as f64 / 1000.0
        ),
    )
    .unwrap();
    let (move_ms, startup_ms) = SLOW_START_LIMITS;
    std::fs::write(
        bot.join("bot.toml"),
        format!(
            "name = \"slow-start\"\ncommand = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n\
             [time]\ntimeout_ms = {move_ms}\nstartup_ms = {startup_ms}\n"
        ),
    )
    .unwrap();
    bot
}

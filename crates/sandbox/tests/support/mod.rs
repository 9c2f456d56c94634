//! What the sandbox crate's integration tests share: a real box with a
//! minimal root around a one-line command, and reading what it prints.

use std::io::Read;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dojo_sandbox::plan::{Limits, SandboxMode};

/// A box made for a test, with what it was made of.
// Each test binary compiles this module and reads the fields it needs.
#[allow(dead_code)]
pub struct TestBox {
    pub made: dojo_sandbox::BotBox,
    /// The bot's directory (symlink-resolved, as the box binds it).
    pub bot: PathBuf,
    /// The scratch directory as the box sees it (symlink-resolved).
    pub scratch: PathBuf,
    /// The scratch directory as it was made (removed with the box).
    pub scratch_made: PathBuf,
    /// Holds the bot's directory.
    _bots: tempfile::TempDir,
}

/// A box with a minimal root (the default containment's, with its default
/// memory and process limits) for a bot named `name` running the command
/// `command` makes from the scratch directory's real path; `None`, with
/// the reason printed, where this machine makes no such box.
pub fn minimal_root_box(name: &str, command: impl FnOnce(&Path) -> Vec<String>) -> Option<TestBox> {
    let layer = dojo_sandbox::plan::probe()
        .iter()
        .find(|l| l.name == "minimal-root")
        .expect("a known layer");
    if !layer.available {
        eprintln!("skipped: no minimal root here: {}", layer.detail);
        return None;
    }
    let limits = Limits {
        memory_bytes: Some(dojo_sandbox::plan::DEFAULT_MEMORY_MIB << 20),
        processes: Some(dojo_sandbox::plan::DEFAULT_PROCESSES),
        ..Limits::default()
    };
    let mut containment = dojo_sandbox::plan::plan(SandboxMode::Auto, &limits);
    if !dojo_sandbox::bot_box::wanted(&containment) || !containment.minimal_root {
        eprintln!("skipped: no boxes with a minimal root here");
        return None;
    }
    let bots = tempfile::tempdir().expect("a temporary directory");
    let bot = std::fs::canonicalize(bots.path()).unwrap().join(name);
    std::fs::create_dir(&bot).unwrap();
    let own_user = dojo_sandbox::plan::seat_users(SandboxMode::Auto);
    let scratch = dojo_sandbox::plan::scratch_dir(name, own_user).expect("scratch");
    containment.seat_id = scratch.seat_id();
    let scratch_made = scratch.path().to_path_buf();
    let real = std::fs::canonicalize(&scratch_made).unwrap();
    let command = command(&real);
    let launch = dojo_sandbox::Launch {
        command: &command,
        dir: &bot,
        scratch: Some(&scratch_made),
        env: &[],
        containment,
        extra_read: &[],
        manifest: None,
        clean_env: true,
        cpu: None,
    };
    let made = dojo_sandbox::BotBox::create(name.to_owned(), &launch, scratch).expect("a box");
    Some(TestBox {
        made,
        bot,
        scratch: real,
        scratch_made,
        _bots: bots,
    })
}

/// Everything the program writes to stdout (a non-blocking pipe) until
/// it closes it, as text; a generous limit, as the tests' bots print a
/// little and end.
// Not every test binary that compiles this module reads a bot's output.
#[allow(dead_code)]
pub fn read_all(stdout: &mut std::process::ChildStdout) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                assert!(!left.is_zero(), "no end of the output: {out:?}");
                let fd = stdout.as_fd();
                let mut fds = [rustix::event::PollFd::new(
                    &fd,
                    rustix::event::PollFlags::IN,
                )];
                let timeout = rustix::event::Timespec::try_from(left).unwrap();
                rustix::event::poll(&mut fds, Some(&timeout)).expect("poll");
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => panic!("reading the bot's output: {e}"),
        }
    }
    String::from_utf8(out).expect("the output is text")
}

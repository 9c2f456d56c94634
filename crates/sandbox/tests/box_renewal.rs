//! A box's renewal between games as its next bot sees it: whether the
//! game's thread waited for the init's answer itself (`BotBox::reset`)
//! or gave the box back (`give_back`, then `take_idle`), the bot finds a
//! new scratch filesystem and the box's PID counter set back, as in a new
//! box: what a bot can see of its box never depends on how it was readied
//! (`docs/sandbox.md`, "Fresh for every game").

use std::io::Read;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use dojo_sandbox::plan::{Limits, SandboxMode};

/// Everything the program writes to stdout (a non-blocking pipe) until
/// it closes it; a generous limit, as the bot only lists a directory.
fn read_all(stdout: &mut std::process::ChildStdout) -> String {
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
    String::from_utf8(out).expect("the listing is text")
}

#[test]
fn a_bot_finds_its_box_renewed_whether_reset_or_given_back_and_taken() {
    let layer = dojo_sandbox::plan::probe()
        .iter()
        .find(|l| l.name == "minimal-root")
        .expect("a known layer");
    if !layer.available {
        eprintln!("skipped: no minimal root here: {}", layer.detail);
        return;
    }
    let limits = Limits {
        memory_bytes: Some(dojo_sandbox::plan::DEFAULT_MEMORY_MIB << 20),
        processes: Some(dojo_sandbox::plan::DEFAULT_PROCESSES),
        ..Limits::default()
    };
    let mut containment = dojo_sandbox::plan::plan(SandboxMode::Auto, &limits);
    if !dojo_sandbox::bot_box::wanted(&containment) || !containment.minimal_root {
        eprintln!("skipped: no boxes with a minimal root here");
        return;
    }
    let bots = tempfile::tempdir().expect("a temporary directory");
    let bot = std::fs::canonicalize(bots.path()).unwrap().join("noter");
    std::fs::create_dir(&bot).unwrap();
    let own_user = dojo_sandbox::plan::seat_users(SandboxMode::Auto);
    let scratch = dojo_sandbox::plan::scratch_dir("renewal", own_user).expect("scratch");
    containment.seat_id = scratch.seat_id();
    let path = scratch.path().to_path_buf();
    let real = std::fs::canonicalize(&path).unwrap();
    // Lists what the scratch directory holds, leaves a note in it, and
    // says its pid in the box.
    let command = [
        "sh".to_string(),
        "-c".to_string(),
        format!(
            "ls -A {dir}; echo seen > {dir}/note; echo pid $$",
            dir = real.display()
        ),
    ];
    let launch = dojo_sandbox::Launch {
        command: &command,
        dir: &bot,
        scratch: Some(&path),
        env: &[],
        containment,
        extra_read: &[],
        manifest: false,
        clean_env: true,
        cpu: None,
    };
    let key = "renewal-test".to_string();
    let mut made = dojo_sandbox::BotBox::create(key.clone(), &launch, scratch).expect("a box");

    // The first game, in the new box.
    let mut occupant = made.start(&[]).expect("the bot starts");
    let first = read_all(&mut occupant.stdout);
    assert!(
        first.starts_with("pid "),
        "a new box's scratch is empty: {first:?}"
    );
    drop(occupant);

    // The renewal awaited before the start.
    made.begin_reset();
    assert!(made.reset(), "the box is readied");
    let mut occupant = made.start(&[]).expect("the bot starts again");
    assert_eq!(read_all(&mut occupant.stdout), first);
    drop(occupant);

    // Given back, and taken again.
    made.begin_reset();
    dojo_sandbox::give_back(made);
    let mut made = dojo_sandbox::take_idle(&key).expect("the box was kept");
    let mut occupant = made.start(&[]).expect("the bot starts in the kept box");
    assert_eq!(read_all(&mut occupant.stdout), first);
    drop(occupant);

    drop(made);
}

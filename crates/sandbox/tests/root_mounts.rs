//! A box's minimal root as its bot sees it: every mount in it, read from
//! the bot's own `/proc/self/mountinfo`, has the attributes the root
//! promises (`docs/sandbox.md`, the minimal root). The root's read-only
//! parts are sealed together by one recursive `mount_setattr` over the
//! root (`crate::sys::root`): this checks that the seal reached every
//! one of them, the mounts below the bound system directories included,
//! and that what is mounted after it kept its own attributes.

use std::io::Read;
use std::os::fd::AsFd;
use std::path::Path;
use std::time::{Duration, Instant};

use dojo_sandbox::plan::{Limits, SandboxMode};

/// One line of `mountinfo`: the mount point and its per-mount options.
struct Mount {
    point: String,
    options: Vec<String>,
}

impl Mount {
    fn has(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }
}

fn parse(mountinfo: &str) -> Vec<Mount> {
    mountinfo
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            // The kernel escapes spaces in paths as \040.
            Mount {
                point: fields[4].replace("\\040", " "),
                options: fields[5].split(',').map(str::to_owned).collect(),
            }
        })
        .collect()
}

/// Everything the program writes to stdout (a non-blocking pipe) until
/// it closes it; a generous limit, as the bot only prints a file.
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
    String::from_utf8(out).expect("mountinfo is text")
}

#[test]
fn every_mount_of_a_boxs_root_is_read_only_but_its_scratch_proc_and_devices() {
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
    let bot = std::fs::canonicalize(bots.path()).unwrap().join("reader");
    std::fs::create_dir(&bot).unwrap();
    let own_user = dojo_sandbox::plan::seat_users(SandboxMode::Auto);
    let scratch = dojo_sandbox::plan::scratch_dir("mounts", own_user).expect("scratch");
    containment.seat_id = scratch.seat_id();
    let scratch_path = std::fs::canonicalize(scratch.path()).unwrap();
    let path = scratch.path().to_path_buf();
    let command = ["cat".to_string(), "/proc/self/mountinfo".to_string()];
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
    let mut made = dojo_sandbox::BotBox::create("mounts".into(), &launch, scratch).expect("a box");
    let mut occupant = made.start(&[]).expect("cat starts");
    let text = read_all(&mut occupant.stdout);
    let mounts = parse(&text);
    let present = |point: &str| mounts.iter().any(|m| m.point == point);
    // The root itself, the system and the bot's directory are there.
    for point in ["/", "/usr", "/dev", "/proc"] {
        assert!(present(point), "no {point}: {text}");
    }
    assert!(present(bot.to_str().unwrap()), "{text}");
    let scratch_point = scratch_path.to_str().unwrap();
    let devices = [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
    ];
    let mut sealed = 0;
    for mount in &mounts {
        let point = mount.point.as_str();
        let shown = || format!("{point} {:?}\n{text}", mount.options);
        if point == "/proc" || point.starts_with("/proc/") {
            // Its own /proc, mounted after the seal: writable as it was.
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
        } else if point == scratch_point {
            // The scratch directory and each game's tmpfs over it.
            assert!(mount.has("rw"), "{}", shown());
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
        } else if devices.contains(&point) {
            assert!(mount.has("nosuid") && mount.has("noexec"), "{}", shown());
            assert!(!mount.has("nodev"), "{}", shown());
        } else {
            assert!(mount.has("ro"), "writable: {}", shown());
            assert!(mount.has("nosuid") && mount.has("nodev"), "{}", shown());
            sealed += 1;
        }
    }
    // The root, /dev and at least the system directories bound.
    assert!(sealed >= 3, "{text}");
    drop(occupant);
    drop(made);
    assert!(
        !Path::new(&path).exists(),
        "the scratch directory is removed"
    );
}

//! Processes seen through `/proc`: whether one still runs, and finding the
//! ones a test's bots started by a tag on their command line or a variable
//! in their environment.

/// Whether `pid` is a running process (not gone, not a zombie).
pub fn is_running(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The state follows the command name, which may hold spaces and `)`.
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next();
    !matches!(state, None | Some("Z") | Some("X"))
}

/// Pids of the processes in `/proc` (they come and go while we look).
fn pids() -> impl Iterator<Item = i32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse().ok()))
}

/// Running (non-zombie) processes whose command line contains `tag`.
pub fn tagged_processes(tag: &str) -> Vec<i32> {
    pids()
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(tag)
        })
        .filter(|&pid| is_running(pid))
        .collect()
}

/// Live processes whose environment holds `KEY=VALUE` (zombies have no
/// environment).
pub fn marked_processes(key: &str, value: &str) -> Vec<i32> {
    let wanted = format!("{key}={value}");
    pids()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == wanted.as_bytes()))
        })
        .collect()
}

/// A tag no other test run uses, to find the processes of this one
/// ([`tagged_processes`]).
pub fn unique_tag(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("dojo-test-{name}-{}-{nanos}", std::process::id())
}

/// Polls `done` every 20 ms for up to `within` and says whether it came
/// true: for processes a test cannot wait on (not its children, or ones
/// it only finds in `/proc`).
pub fn eventually(within: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + within;
    while std::time::Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    done()
}

/// Waits up to `within` for every process tagged `tag` to be gone; whether
/// they were, and those still running then (killed, so a failing test
/// leaves nothing behind).
pub fn tagged_gone_within(tag: &str, within: std::time::Duration) -> (bool, Vec<i32>) {
    let gone = eventually(within, || tagged_processes(tag).is_empty());
    let left = tagged_processes(tag);
    for &pid in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    (gone, left)
}

/// Removes the control group `dir` a test made, waiting up to 10 s for
/// it to empty: the groups its processes' dojo made inside it and the
/// kernel's last references to them go some time after those processes
/// exit (`rmdir` says EBUSY until then). Leaves it if it never empties.
pub fn remove_cgroup(dir: &std::path::Path) {
    eventually(std::time::Duration::from_secs(10), || {
        std::fs::remove_dir(dir).is_ok() || !dir.exists()
    });
}

//! CPU time of a bot's whole process tree.
//!
//! A sample sums, over the bot's process and every live descendant (found
//! through `/proc/PID/task/TID/children`), the process's own CPU clock
//! (every thread, live or ended: nanosecond resolution) plus the
//! `cutime + cstime` of `/proc/PID/stat` (descendants it has already
//! reaped, in clock ticks: 10 ms on most systems). A descendant that died
//! and was not yet reaped still counts through its own clock until its
//! parent reaps it.
//!
//! The runner samples a bot after every answer, so a [`TreeClock`] keeps
//! the two `/proc` files of the first few processes of its tree open and
//! reads them with `pread`: a single-threaded bot costs three system calls
//! a sample (its stat, its CPU clock, its children), where opening and
//! closing the files each time made it seven and most of the cost (path
//! lookups; see docs/performance.md). An open `/proc` file stays tied to
//! its process: once that process is gone it reads nothing, so a recycled
//! pid is never read through it.

use std::cell::RefCell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::sys;

/// Processes of one tree whose files a [`TreeClock`] keeps open: the bot
/// (or, in a PID namespace, its init) and the next one (the bot).
const KEPT_PER_TREE: usize = 2;

/// Files kept open by every clock together, and the most there may be: a
/// quarter of dojo's descriptor limit, so that many games at once can
/// never run dojo out of descriptors for pipes (past the budget, samples
/// open and close the files as they go).
static KEPT_FILES: AtomicUsize = AtomicUsize::new(0);

fn kept_files_budget() -> usize {
    static BUDGET: OnceLock<usize> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
            .current
            .unwrap_or(1 << 20);
        usize::try_from(soft / 4).unwrap_or(usize::MAX)
    })
}

/// CPU used so far by `root` and its live descendants; `None` when
/// `root` is gone or `/proc` cannot be read. Opens and closes every file
/// (see [`TreeClock`] for repeated samples).
pub fn tree_cpu_time(root: i32) -> Option<Duration> {
    walk(root, stat_by_path)
}

/// A process's stat, read by path (its children are then listed by path
/// too).
fn stat_by_path(pid: i32) -> Option<(Stat, Option<Vec<i32>>)> {
    let mut buf = [0u8; 1024];
    let stat = read_whole(format!("/proc/{pid}/stat"), &mut buf)?;
    Some((Stat::parse(stat)?, None))
}

/// Repeated samples of one bot process's tree (see the module
/// documentation).
#[derive(Debug)]
pub struct TreeClock {
    root: i32,
    kept: RefCell<Vec<KeptFiles>>,
}

/// A process's stat and main-thread children files, open.
#[derive(Debug)]
struct KeptFiles {
    pid: i32,
    stat: File,
    children: File,
}

impl KeptFiles {
    /// Opens both files, within the budget.
    fn open(pid: i32) -> Option<KeptFiles> {
        if KEPT_FILES.fetch_add(2, Ordering::Relaxed) + 2 > kept_files_budget() {
            KEPT_FILES.fetch_sub(2, Ordering::Relaxed);
            return None;
        }
        let opened = (|| {
            Some(KeptFiles {
                pid,
                stat: File::open(format!("/proc/{pid}/stat")).ok()?,
                children: File::open(format!("/proc/{pid}/task/{pid}/children")).ok()?,
            })
        })();
        if opened.is_none() {
            KEPT_FILES.fetch_sub(2, Ordering::Relaxed);
        }
        opened
    }
}

impl Drop for KeptFiles {
    fn drop(&mut self) {
        KEPT_FILES.fetch_sub(2, Ordering::Relaxed);
    }
}

impl TreeClock {
    pub fn new(root: i32) -> TreeClock {
        TreeClock {
            root,
            kept: RefCell::new(Vec::new()),
        }
    }

    /// CPU used so far by the tree; `None` when its root is gone.
    pub fn sample(&self) -> Option<Duration> {
        let mut kept = self.kept.borrow_mut();
        let mut visited: Vec<i32> = Vec::new();
        let total = walk(self.root, |pid| {
            visited.push(pid);
            let at = match kept.iter().position(|k| k.pid == pid) {
                Some(at) => Some(at),
                None if kept.len() < KEPT_PER_TREE => KeptFiles::open(pid).map(|k| {
                    kept.push(k);
                    kept.len() - 1
                }),
                None => None,
            };
            if let Some(at) = at {
                match read_kept(&kept[at]) {
                    Some(found) => return Some(found),
                    // Gone: forget it. Its pid may already be another
                    // process's, so it is not read by path either.
                    None => {
                        kept.swap_remove(at);
                        return None;
                    }
                }
            }
            stat_by_path(pid)
        });
        // Processes that left the tree free their place.
        kept.retain(|k| visited.contains(&k.pid));
        total
    }
}

/// A kept process's stat, and its children when it has one thread.
fn read_kept(k: &KeptFiles) -> Option<(Stat, Option<Vec<i32>>)> {
    let mut buf = [0u8; 1024];
    let n = k.stat.read_at(&mut buf, 0).ok()?;
    if n == 0 || n == buf.len() {
        return None;
    }
    let stat = Stat::parse(std::str::from_utf8(&buf[..n]).ok()?)?;
    if stat.threads != 1 {
        return Some((stat, None));
    }
    let mut list = [0u8; 4096];
    let n = k.children.read_at(&mut list, 0).ok()?;
    if n == list.len() {
        // More children than fit: listed by path instead.
        return Some((stat, None));
    }
    let text = std::str::from_utf8(&list[..n]).ok()?;
    let kids = text
        .split_whitespace()
        .filter_map(|c| c.parse::<i32>().ok())
        .collect();
    Some((stat, Some(kids)))
}

/// The fields of `/proc/PID/stat` a sample needs.
struct Stat {
    /// utime + stime, clock ticks.
    own_ticks: u64,
    /// cutime + cstime: reaped descendants, clock ticks.
    reaped_ticks: u64,
    threads: u64,
}

impl Stat {
    fn parse(stat: &str) -> Option<Stat> {
        // Fields after the command name (which may hold anything) start at
        // the last ')': state is field 3, utime 14, stime 15, cutime 16,
        // cstime 17, num_threads 20.
        let rest = &stat[stat.rfind(')')? + 1..];
        let mut fields = rest.split_whitespace().skip(11).map(|f| {
            f.parse::<i64>()
                .map_or(0, |v| u64::try_from(v).unwrap_or(0))
        });
        let mut next = || fields.next();
        let (utime, stime, cutime, cstime) = (next()?, next()?, next()?, next()?);
        let threads = fields.nth(2)?;
        Some(Stat {
            own_ticks: utime + stime,
            reaped_ticks: cutime + cstime,
            threads,
        })
    }
}

/// The tree walk: `read(pid)` gives a process's stat and, if it knows
/// them, its children (else they are listed by path). Each process counts
/// its own CPU clock (its stat's ticks if the clock cannot be read) and
/// its reaped descendants' ticks.
fn walk(
    root: i32,
    mut read: impl FnMut(i32) -> Option<(Stat, Option<Vec<i32>>)>,
) -> Option<Duration> {
    let ticks = sys::clock_ticks_per_second();
    let of_ticks = |t: u64| Duration::from_nanos(t.saturating_mul(1_000_000_000 / ticks.max(1)));
    let mut one = |pid: i32| -> Option<(Duration, Vec<i32>)> {
        let (stat, kids) = read(pid)?;
        let own = sys::process_cpu_time(pid).unwrap_or_else(|| of_ticks(stat.own_ticks));
        let kids = kids.unwrap_or_else(|| children(pid, stat.threads));
        Some((own + of_ticks(stat.reaped_ticks), kids))
    };
    let (mut total, mut stack) = one(root)?;
    // A process tree cannot hold more processes than the machine; the cap
    // only guards against a cycle from recycled pids.
    let mut budget = 100_000;
    while let Some(pid) = stack.pop() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        if let Some((cpu, kids)) = one(pid) {
            total += cpu;
            stack.extend(kids);
        }
    }
    Some(total)
}

/// The live children of every thread of `pid`, which has `threads`
/// threads. A single-threaded process (most bots) has its children in
/// one file, so the thread directory is listed only for the others.
fn children(pid: i32, threads: u64) -> Vec<i32> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let mut read_children = |path: std::path::PathBuf| {
        let text = match read_small(&path, &mut buf) {
            Some(text) => std::borrow::Cow::Borrowed(text),
            // More children than the buffer holds: read it all.
            None => match std::fs::read_to_string(&path) {
                Ok(text) => std::borrow::Cow::Owned(text),
                Err(_) => return,
            },
        };
        out.extend(
            text.split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok()),
        );
    };
    if threads == 1 {
        read_children(format!("/proc/{pid}/task/{pid}/children").into());
        return out;
    }
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for task in tasks.flatten() {
        read_children(task.path().join("children"));
    }
    out
}

/// A small `/proc` file read into `buf` with plain `read` calls: `None`
/// if it cannot be read or does not fit. The runner samples a bot's CPU
/// time after every answer, and `fs::read_to_string` spends a `statx` and
/// a read per doubling of its buffer on every file (the profile of a
/// per-move benchmark showed twenty system calls per sample).
fn read_small(path: impl AsRef<std::path::Path>, buf: &mut [u8]) -> Option<&str> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut len = 0;
    loop {
        if len == buf.len() {
            return None;
        }
        match file.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    std::str::from_utf8(&buf[..len]).ok()
}

/// A `/proc` file that the kernel makes whole on open (`single_open`, such
/// as `/proc/PID/stat`) read with one `read`: the first read returns all
/// of it when the buffer is larger, so no second read is spent finding
/// the end. `None` if it cannot be read or fills the buffer.
fn read_whole(path: impl AsRef<std::path::Path>, buf: &mut [u8]) -> Option<&str> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let len = loop {
        match file.read(buf) {
            Ok(n) => break n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    };
    if len == buf.len() {
        return None;
    }
    std::str::from_utf8(&buf[..len]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sample` every 10 ms until it reads at least `wanted` (for 20 s at
    /// most); its last reading.
    fn sample_until(wanted: Duration, mut sample: impl FnMut() -> Option<Duration>) -> Duration {
        let start = std::time::Instant::now();
        let mut seen = Duration::ZERO;
        while start.elapsed() < Duration::from_secs(20) && seen < wanted {
            std::thread::sleep(Duration::from_millis(10));
            seen = sample().unwrap_or_default();
        }
        seen
    }

    /// Kills a test child's whole process group (it was started in one of
    /// its own) and reaps the child.
    fn kill_group(child: &mut std::process::Child) {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status();
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn a_busy_grandchild_counts_for_the_tree() {
        // sh starts a child sh that burns CPU in a loop; the tree's time
        // grows although the root only waits.
        use std::os::unix::process::CommandExt;
        // The child is in a process group of its own and untracked: to a
        // sweep run by another test in this process it is an escapee, so
        // sweeps are held off until it is gone.
        let _no_sweep = crate::reaper::hold();
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sh -c 'while :; do :; done' & wait"])
            .process_group(0)
            .spawn()
            .expect("sh starts");
        let pid = child.id() as i32;
        let seen = sample_until(Duration::from_millis(50), || tree_cpu_time(pid));
        let own = sys::process_cpu_time(pid).unwrap_or_default();
        kill_group(&mut child);
        assert!(seen >= Duration::from_millis(50), "tree time {seen:?}");
        assert!(
            own < Duration::from_millis(50),
            "the root itself idles: {own:?}"
        );
    }

    #[test]
    fn a_kept_clock_sees_children_born_after_its_first_sample_and_its_root_go() {
        // The root waits 0.3 s (in `sleep`) before it starts a busy child:
        // the first sample keeps the root's files open before that child
        // exists, and later samples must still find it through them.
        use std::os::unix::process::CommandExt;
        let _no_sweep = crate::reaper::hold();
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 0.3; sh -c 'while :; do :; done' & wait"])
            .process_group(0)
            .spawn()
            .expect("sh starts");
        let pid = child.id() as i32;
        let clock = TreeClock::new(pid);
        let first = clock.sample().expect("the root is there");
        assert!(first < Duration::from_millis(50), "{first:?}");
        // (The root's `sleep` may be kept beside it.)
        assert!(
            clock.kept.borrow().iter().any(|k| k.pid == pid),
            "the root's files are kept"
        );
        let seen = sample_until(Duration::from_millis(100), || clock.sample());
        let kept_while_busy = clock.kept.borrow().len();
        kill_group(&mut child);
        assert!(seen >= Duration::from_millis(100), "tree time {seen:?}");
        assert_eq!(kept_while_busy, 2, "the root's and the child's files");
        // Reaped: the kept files read nothing, so the tree is gone (even
        // if its pid were already another process's).
        assert_eq!(clock.sample(), None);
        assert!(clock.kept.borrow().is_empty());
    }

    #[test]
    fn the_clock_read_for_a_pid_is_that_process_s_cpu_clock() {
        // Burn 40 ms of CPU on this test thread (not the main thread, so
        // a clock of the main thread alone would read far less), measured
        // by the thread's own ticks so a busy machine does not matter.
        let ticks = sys::clock_ticks_per_second();
        let ticks_of = |path: &str| -> u64 {
            let text = std::fs::read_to_string(path).expect("stat");
            let rest = &text[text.rfind(')').expect("comm") + 1..];
            rest.split_whitespace()
                .skip(11)
                .take(2)
                .map(|f| f.parse::<u64>().expect("a number"))
                .sum()
        };
        let wanted = ticks_of("/proc/thread-self/stat") + ticks * 40 / 1000;
        while ticks_of("/proc/thread-self/stat") < wanted {
            std::hint::black_box(0u64);
        }
        let me = std::process::id() as i32;
        let ours = sys::process_cpu_time(me).expect("own clock");
        assert!(ours >= Duration::from_millis(30), "{ours:?}");
        let in_ticks = Duration::from_millis(ticks_of("/proc/self/stat") * 1000 / ticks);
        let gap = ours.abs_diff(in_ticks);
        assert!(gap < Duration::from_millis(50), "{ours:?} vs {in_ticks:?}");
        // Ids no process can have are refused, not folded into another clock.
        assert_eq!(sys::process_cpu_time(i32::MAX), None);
        assert_eq!(sys::process_cpu_time(0), None);
        assert_eq!(sys::process_cpu_time(-1), None);
    }

    #[test]
    fn a_child_started_by_a_second_thread_counts() {
        // The child of a non-main thread is listed under that thread's
        // task directory only: the walk must look there for a process
        // with more than one thread.
        use std::os::unix::process::CommandExt;
        let _no_sweep = crate::reaper::hold();
        let script = "import subprocess, threading, time\n\
                      def start():\n    \
                          subprocess.Popen(['sh', '-c', 'while :; do :; done'])\n    \
                          time.sleep(60)\n\
                      threading.Thread(target=start, daemon=True).start()\n\
                      time.sleep(60)\n";
        let Ok(mut child) = std::process::Command::new("python3")
            .args(["-c", script])
            .process_group(0)
            .spawn()
        else {
            eprintln!("skipped: python3 is not installed");
            return;
        };
        let pid = child.id() as i32;
        let seen = sample_until(Duration::from_millis(100), || tree_cpu_time(pid));
        let own = sys::process_cpu_time(pid).unwrap_or_default();
        kill_group(&mut child);
        assert!(seen >= Duration::from_millis(100), "tree time {seen:?}");
        assert!(
            own < Duration::from_millis(100),
            "python itself idles: {own:?}"
        );
    }

    #[test]
    fn a_gone_process_has_no_time() {
        assert_eq!(tree_cpu_time(i32::MAX), None);
    }
}

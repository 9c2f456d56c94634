//! A box's inner groups of the v1 `cpu` controller, one for every game.
//!
//! The scheduler starts a new process at its run queue's virtual runtime,
//! which a process reads in `/proc/self/sched` (`se.vruntime`): in a group
//! that lives on, that grows with all the CPU the group's earlier
//! processes used, a note one game of a box would leave the next. So a
//! box's init (and every bot it starts) lives in a group inside the box's
//! (`g1`, `g2`, ...), a new one for every game ([`Share::next_entry`]): a
//! new group's queue starts at zero. The box's own group stays one entity
//! of the default weight (only its waiter is left in it, asleep). The init
//! roots a new cgroup namespace where it is for each bot it starts, so a
//! bot sees no name.
//!
//! The init moves itself: dojo hands it the new group's `tasks` file,
//! opened here, with its renewal, and it writes `0` there. A thread that
//! moves itself is the one move the kernel makes without the write side
//! of its global thread-group lock (a per-CPU semaphore whose writer
//! waits for an RCU grace period, and for every `fork`, `exec` and `exit`
//! in flight on the machine); dojo writing the init's pid into
//! `cgroup.procs` took that lock, and every so often a game's path waited
//! 10 to 23 ms for it (`perf trace` of the speed bench's `--jobs 1`
//! league: 15 such writes in 1,500 games).
//!
//! Making and removing a group costs about 50 µs (wall, timed from
//! Python): a thread of its own (the janitor) makes each box's next group
//! ahead and removes the groups of games before the last behind, so a
//! game's path holds none of it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, mpsc};

/// One box's `cpu` group and its inner groups.
#[derive(Debug)]
pub(crate) struct Share {
    /// The group the box's processes joined.
    dir: PathBuf,
    state: Mutex<State>,
    /// Inner groups made so far (their names: `g1`, `g2`, ...).
    made: AtomicU64,
}

#[derive(Debug, Default)]
struct State {
    /// The inner groups used and not yet removed, the one in use last.
    used: Vec<PathBuf>,
    /// The next game's group, made ahead, with its `tasks` open.
    spare: Option<(PathBuf, File)>,
    /// The box is gone: the janitor makes nothing more for it.
    closed: bool,
}

/// How many used groups the janitor keeps: the one handed out last (the
/// init may not have moved there yet) and the game's before it, where the
/// init may still be, killing its processes.
const KEEP: usize = 2;

impl Share {
    pub(crate) fn new(dir: PathBuf) -> Arc<Self> {
        Arc::new(Self {
            dir,
            state: Mutex::default(),
            made: AtomicU64::new(0),
        })
    }

    /// The box's own group.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new inner group, its `tasks` open for writing (`tasks`, not
    /// `cgroup.procs`: only a thread's own move into `tasks` goes without
    /// the kernel's global lock; a box's init has a single thread).
    fn make(&self) -> std::io::Result<(PathBuf, File)> {
        let n = self.made.fetch_add(1, Ordering::Relaxed) + 1;
        let dir = self.dir.join(format!("g{n}"));
        std::fs::create_dir(&dir)?;
        match std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("tasks"))
        {
            Ok(tasks) => Ok((dir, tasks)),
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                Err(e)
            }
        }
    }

    /// The next game's group (the one the janitor made ahead, else one
    /// made now), counted as in use: its `tasks` file, open for writing,
    /// into which the box's init writes `0` to move itself there. The
    /// janitor is then asked to remove the groups of games before the
    /// last and to make the next.
    pub(crate) fn next_entry(self: &Arc<Self>) -> std::io::Result<File> {
        let spare = self.state().spare.take();
        let (dir, tasks) = match spare {
            Some(spare) => spare,
            None => self.make()?,
        };
        self.state().used.push(dir);
        if janitor().send(Arc::clone(self)).is_err() {
            // No janitor (its thread could not start): tidy here.
            self.tidy(KEEP);
        }
        Ok(tasks)
    }

    /// The janitor's work for this box: remove the used groups but the
    /// last `keep`, and make the next game's.
    pub(crate) fn tidy(&self, keep: usize) {
        let old: Vec<PathBuf> = {
            let mut state = self.state();
            if state.closed {
                return;
            }
            let upto = state.used.len().saturating_sub(keep);
            state.used.drain(..upto).collect()
        };
        let left: Vec<PathBuf> = old.into_iter().filter(|d| remove(d).is_err()).collect();
        {
            let mut state = self.state();
            if !left.is_empty() {
                let rest = std::mem::replace(&mut state.used, left);
                state.used.extend(rest);
            }
            if state.closed || state.spare.is_some() {
                return;
            }
        }
        let Ok(made) = self.make() else { return };
        let mut state = self.state();
        if state.closed || state.spare.is_some() {
            drop(state);
            let _ = std::fs::remove_dir(&made.0);
            return;
        }
        state.spare = Some(made);
    }

    /// Every inner group (the spare, the used), innermost first.
    pub(crate) fn inner_dirs(&self) -> Vec<PathBuf> {
        let state = self.state();
        let spare = state.spare.as_ref().map(|(dir, _)| dir.clone());
        spare
            .into_iter()
            .chain(state.used.iter().cloned())
            .collect()
    }

    /// Closes the share to the janitor (the box is going), dropping the
    /// spare's descriptor; [`Self::inner_dirs`] then lists what is left.
    pub(crate) fn close(&self) {
        let mut state = self.state();
        state.closed = true;
        if let Some((dir, procs)) = state.spare.take() {
            drop(procs);
            state.used.insert(0, dir);
        }
    }
}

/// Removes the group `dir`, killing first whatever is left in it.
fn remove(dir: &Path) -> std::io::Result<()> {
    if std::fs::remove_dir(dir).is_ok() {
        return Ok(());
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    crate::cgroup::kill_in(dir, deadline);
    std::fs::remove_dir(dir)
}

/// The janitor's queue: a thread, started with the first move, tidies
/// each box sent to it.
fn janitor() -> &'static mpsc::Sender<Arc<Share>> {
    static QUEUE: OnceLock<mpsc::Sender<Arc<Share>>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (send, receive) = mpsc::channel::<Arc<Share>>();
        let started = std::thread::Builder::new()
            .name("dojo-cpu-groups".into())
            .spawn(move || {
                for share in receive {
                    share.tidy(KEEP);
                }
            });
        // Without the thread the queue is closed, and each move tidies
        // its box itself.
        drop(started);
        send
    })
}

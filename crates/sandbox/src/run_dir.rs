//! Where a bot writes and where its root is staged: this dojo process's
//! locked run directory in the temporary directory, a scratch directory
//! per seat inside it (with its seat user), and what a killed dojo left
//! behind there and in the control groups.

use std::sync::OnceLock;

use crate::seat_users::SeatUser;

/// A fresh scratch directory for `bot` in one game (removed when dropped),
/// inside this dojo process's run directory (see `run_dir`); with
/// `own_user` (the `seat-user` layer), owned by a user of the seat's own.
pub fn scratch_dir(bot: &str, own_user: bool) -> std::io::Result<Scratch> {
    let parent = run_dir()?;
    let dir = tempfile::Builder::new()
        .prefix(&format!("{bot}-"))
        .tempdir_in(parent)?;
    let user = if own_user {
        let user = SeatUser::take()?;
        let id = user.id();
        std::os::unix::fs::chown(dir.path(), Some(id), Some(id))?;
        Some(user)
    } else {
        None
    };
    Ok(Scratch(dir.keep(), user))
}

/// The start of the name of a run directory in the temporary directory.
const RUN_DIR_PREFIX: &str = "dojo-run-";

/// This dojo process's directory of scratch directories,
/// `$TMPDIR/dojo-run-PID-XXXX/`, made once. It holds a `lock` file that
/// this process keeps locked (`flock`) for as long as it lives: a run
/// directory whose lock can be taken is a dead dojo's, and
/// [`remove_leftovers`] (run first) removes it.
fn run_dir() -> std::io::Result<&'static std::path::Path> {
    static DIR: OnceLock<Result<(std::path::PathBuf, std::fs::File), String>> = OnceLock::new();
    let made = DIR.get_or_init(|| {
        remove_leftovers();
        let dir = tempfile::Builder::new()
            .prefix(&format!("{RUN_DIR_PREFIX}{}-", std::process::id()))
            .tempdir()
            .map_err(|e| e.to_string())?
            .keep();
        // Seat users pass through to their own scratch directories.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))
            .map_err(|e| e.to_string())?;
        // Locked before it is named `lock`: another dojo starting now
        // skips a run directory without one, and would take an unlocked
        // one for a dead dojo's and remove it (as it did, under load).
        let unnamed = dir.join("lock.new");
        let lock = std::fs::File::create(&unnamed).map_err(|e| e.to_string())?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive)
            .map_err(|e| e.to_string())?;
        std::fs::rename(&unnamed, dir.join("lock")).map_err(|e| e.to_string())?;
        Ok((dir, lock))
    });
    match made {
        Ok((dir, _)) => Ok(dir),
        Err(e) => Err(std::io::Error::other(format!(
            "cannot make the scratch directories' run directory: {e}"
        ))),
    }
}

/// An empty directory of this dojo process's (`root` in its run
/// directory) on which each bot's mount namespace builds its minimal
/// root before moving into it (see [`crate::root`]): the host never sees
/// what is mounted there.
pub fn stage_dir() -> std::io::Result<&'static std::path::Path> {
    static DIR: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();
    let made = DIR.get_or_init(|| {
        let dir = run_dir().map_err(|e| e.to_string())?.join("root");
        std::fs::create_dir(&dir).map_err(|e| e.to_string())?;
        Ok(dir)
    });
    match made {
        Ok(dir) => Ok(dir),
        Err(e) => Err(std::io::Error::other(format!(
            "cannot make the minimal roots' staging directory: {e}"
        ))),
    }
}

/// What a dojo killed with `kill -9` left behind, found and removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leftovers {
    /// Run directories of scratch directories whose dojo is gone.
    pub scratch: Vec<std::path::PathBuf>,
    /// Control groups whose dojo is gone (anything still in them killed).
    pub groups: Vec<std::path::PathBuf>,
}

/// How old a run directory without a lock file must be to be taken for a
/// dead dojo's (a live one makes its lock right after the directory).
const LOCKLESS_AGE: std::time::Duration = std::time::Duration::from_secs(10);

/// Removes what dead dojo processes left behind: their run directories
/// (whose `lock` file no live dojo holds locked) and their control groups
/// (named after a pid that no longer runs). Done once per process before its first
/// scratch directory; `dojo doctor` calls it too and says what it found.
pub fn remove_leftovers() -> Leftovers {
    Leftovers {
        scratch: remove_dead_run_dirs(&std::env::temp_dir()),
        groups: crate::cgroup::remove_stale(),
    }
}

/// The dead dojos' run directories in `tmp`, removed. A dojo removing
/// one holds its lock meanwhile, so a second call at the same time would
/// take it for a live dojo's and return while it is still there: in this
/// process, calls are made one at a time. (Another dojo process sweeping
/// at the same moment can still be mid-removal when this returns; it
/// finishes what it started.)
fn remove_dead_run_dirs(tmp: &std::path::Path) -> Vec<std::path::PathBuf> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let mut removed = Vec::new();
    if let Ok(entries) = std::fs::read_dir(tmp) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name.to_string_lossy().starts_with(RUN_DIR_PREFIX) {
                continue;
            }
            let path = entry.path();
            // Our own is locked by us; a live dojo's by it.
            let lock = match std::fs::File::open(path.join("lock")) {
                Ok(lock) => lock,
                // A dojo killed between making its run directory and its
                // lock: no dojo is that slow to make one.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let old = entry
                        .metadata()
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > LOCKLESS_AGE));
                    if old && std::fs::remove_dir_all(&path).is_ok() {
                        removed.push(path);
                    }
                    continue;
                }
                Err(_) => continue,
            };
            let free =
                rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                    .is_ok();
            if free && std::fs::remove_dir_all(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    removed
}

/// A bot's scratch directory, removed with everything in it when dropped.
/// Most bots leave it empty, so removal first tries one `rmdir` (a league
/// profile put about 3% of dojo's time in the walk of `remove_dir_all`,
/// which opens and lists even an empty directory), and walks the tree
/// only when that fails.
#[derive(Debug)]
pub struct Scratch(std::path::PathBuf, Option<SeatUser>);

impl Scratch {
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// The uid and gid the seat's bot runs as; 0: dojo's own.
    pub fn seat_id(&self) -> u32 {
        self.1.as_ref().map_or(0, SeatUser::id)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::fs::remove_dir(&self.0).is_err() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dead dojo's run directory is gone once any call returns, though
    /// another thread's call is removing it at the same moment (the
    /// hostile suite's check of leftovers failed so beside other tests).
    #[test]
    fn leftovers_are_gone_when_the_call_returns_whoever_else_removes_them() {
        // A temporary directory of the test's own: the machine's is swept
        // by every dojo on it, and another process's sweep in progress is
        // not this process's to wait for.
        let tmp = tempfile::tempdir().expect("a temporary directory");
        for round in 0..20 {
            let dead = tmp.path().join(format!(
                "{RUN_DIR_PREFIX}{}-race{round}",
                u32::MAX - std::process::id()
            ));
            std::fs::create_dir_all(dead.join("bot")).expect("mkdir");
            std::fs::write(dead.join("lock"), "").expect("lock");
            for i in 0..300 {
                std::fs::write(dead.join(format!("bot/{i}")), "left").expect("write");
            }
            let swept = tmp.path().to_path_buf();
            let other = std::thread::spawn(move || remove_dead_run_dirs(&swept));
            let found = remove_dead_run_dirs(tmp.path());
            let theirs = other.join().expect("the other call");
            assert!(!dead.exists(), "round {round}: {found:?} {theirs:?}");
        }
    }

    /// This process's run directory holds a `lock` file from the moment
    /// it has one, and that file is locked: another dojo starting at the
    /// same time never finds it free (it did, between the file's creation
    /// and its `flock`, and removed a live dojo's scratch directories).
    #[test]
    fn the_run_directorys_lock_is_locked_whenever_it_exists() {
        let dir = run_dir().expect("a run directory");
        let lock = std::fs::File::open(dir.join("lock")).expect("its lock file");
        let taken = rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive);
        assert!(taken.is_err(), "a live run directory's lock was free");
        assert!(!dir.join("lock.new").exists());
    }

    #[test]
    fn a_scratch_directory_goes_empty_or_full() {
        let empty = scratch_dir("unit-empty", false).unwrap();
        let empty_path = empty.path().to_path_buf();
        assert!(empty_path.is_dir());
        drop(empty);
        assert!(!empty_path.exists());
        let full = scratch_dir("unit-full", false).unwrap();
        let full_path = full.path().to_path_buf();
        std::fs::create_dir_all(full_path.join("a/b")).unwrap();
        std::fs::write(full_path.join("a/b/c.txt"), "x").unwrap();
        drop(full);
        assert!(!full_path.exists());
    }
}

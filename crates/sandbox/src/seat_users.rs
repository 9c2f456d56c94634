//! The seat users of this dojo process (the `seat-user` layer): uids (and
//! gids) of their own for bots, from 2^30 up, a range no distribution hands
//! out.
//!
//! The range is cut into blocks of [`BLOCK`] ids. A dojo process claims a
//! block by locking its file in [`LOCK_DIR`] (`flock`, held until the
//! process ends, so a killed dojo frees its blocks with no clean-up) and
//! hands out ids of the blocks it holds; it claims the blocks a league
//! needs before the first game ([`reserve`], sized from `--jobs`) and more
//! only if it ever needs more. Two dojo processes on one machine so never
//! share an id, and neither can starve the other: each takes only what
//! its own games need, out of about twelve million blocks. (A uid taken
//! from the pid, as before, gave each process a fixed 255 ids: a league
//! of 128 games of two bots in flight already ran out of them.)

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The first seat uid.
const FIRST_ID: u32 = 1 << 30;

/// Ids per block: a block's lock file is the unit two processes share
/// out.
pub const BLOCK: u32 = 256;

/// Blocks in the range: ids up to `u32::MAX - 1` (`-1` means "no change"
/// to `setresuid`).
const BLOCKS: u32 = (u32::MAX - 1 - FIRST_ID) / BLOCK;

/// Where the blocks' lock files are: a directory only root may write
/// (seat users need root), shared by every dojo process of the machine.
pub const LOCK_DIR: &str = "/run/dojo/seat-users";

/// Why no seat user could be had.
#[derive(Debug, thiserror::Error)]
pub enum SeatUserError {
    #[error("cannot use {dir} for the seat users' lock files: {why}")]
    LockDir { dir: PathBuf, why: String },
    #[error("every block of seat users in {dir} is locked by another process")]
    Exhausted { dir: PathBuf },
}

impl From<SeatUserError> for std::io::Error {
    fn from(e: SeatUserError) -> Self {
        std::io::Error::other(e.to_string())
    }
}

/// The blocks a process holds and its ids not in use.
#[derive(Debug, Default)]
struct Pool {
    /// Each held block and its locked file.
    held: Vec<(u32, File)>,
    /// Ids of held blocks not in use, the lowest last.
    free: Vec<u32>,
}

impl Pool {
    /// Locks the lowest block no process holds: a process that starts
    /// after others have ended reuses their lock files.
    fn claim(&mut self, dir: &Path) -> Result<(), SeatUserError> {
        let lock_dir_error = |why: String| SeatUserError::LockDir {
            dir: dir.to_path_buf(),
            why,
        };
        for block in 0..BLOCKS {
            if self.held.iter().any(|(b, _)| *b == block) {
                continue;
            }
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(dir.join(block.to_string()))
                .map_err(|e| lock_dir_error(e.to_string()))?;
            if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                .is_err()
            {
                continue;
            }
            let first = FIRST_ID + block * BLOCK;
            self.free.extend(first..first + BLOCK);
            self.free.sort_unstable_by(|a, b| b.cmp(a));
            self.held.push((block, file));
            return Ok(());
        }
        Err(SeatUserError::Exhausted {
            dir: dir.to_path_buf(),
        })
    }

    /// Claims blocks until at least `ids` are held.
    fn reserve(&mut self, ids: usize, dir: &Path) -> Result<(), SeatUserError> {
        while self.held.len() * (BLOCK as usize) < ids {
            self.claim(dir)?;
        }
        Ok(())
    }

    fn take(&mut self, dir: &Path) -> Result<u32, SeatUserError> {
        if self.free.is_empty() {
            self.claim(dir)?;
        }
        Ok(self.free.pop().expect("a claimed block has free ids"))
    }
}

/// This process's pool.
static POOL: Mutex<Pool> = Mutex::new(Pool {
    held: Vec::new(),
    free: Vec::new(),
});

/// [`LOCK_DIR`], made if missing, and checked to be root's and written by
/// no one else (a directory another user could write would let it hold
/// every block, or plant links where root creates files).
fn lock_dir() -> Result<&'static Path, SeatUserError> {
    static CHECKED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let dir = Path::new(LOCK_DIR);
    let checked = CHECKED.get_or_init(|| {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(dir)
            .map_err(|e| e.to_string())?;
        let mut at = Some(dir);
        while let Some(d) = at {
            let meta = std::fs::symlink_metadata(d).map_err(|e| e.to_string())?;
            if meta.uid() != 0 || meta.mode() & 0o022 != 0 || meta.file_type().is_symlink() {
                return Err(format!(
                    "{} must be a directory of root's that no other user may write",
                    d.display()
                ));
            }
            at = d.parent().filter(|p| *p != Path::new("/"));
        }
        Ok(())
    });
    match checked {
        Ok(()) => Ok(dir),
        Err(why) => Err(SeatUserError::LockDir {
            dir: dir.to_path_buf(),
            why: why.clone(),
        }),
    }
}

/// Claims blocks until this process holds at least `ids` seat users (in
/// use or free): done before a league's first game, so a machine where
/// they cannot be had says so before any game rather than failing games.
pub fn reserve(ids: usize) -> Result<(), SeatUserError> {
    let dir = lock_dir()?;
    POOL.lock()
        .unwrap_or_else(|p| p.into_inner())
        .reserve(ids, dir)
}

/// Seat users this process holds now (in use or free).
pub fn held() -> usize {
    POOL.lock().unwrap_or_else(|p| p.into_inner()).held.len() * BLOCK as usize
}

/// A seat's own uid and gid, free again when dropped.
#[derive(Debug)]
pub struct SeatUser(u32);

impl SeatUser {
    pub fn take() -> std::io::Result<SeatUser> {
        let dir = lock_dir()?;
        let id = POOL.lock().unwrap_or_else(|p| p.into_inner()).take(dir)?;
        Ok(SeatUser(id))
    }

    /// The uid, also the gid.
    pub fn id(&self) -> u32 {
        self.0
    }
}

impl Drop for SeatUser {
    fn drop(&mut self) {
        POOL.lock()
            .unwrap_or_else(|p| p.into_inner())
            .free
            .push(self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A lock is held by an open file description, so two pools in one
    // process contend for blocks exactly as two processes do.
    #[test]
    fn two_pools_on_one_directory_never_share_an_id_and_take_what_they_need() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Pool::default();
        let mut b = Pool::default();
        a.reserve(300, dir.path()).unwrap();
        assert_eq!(a.held.len(), 2, "300 ids take two blocks of {BLOCK}");
        b.reserve(1, dir.path()).unwrap();
        let a_ids: Vec<u32> = a.free.clone();
        assert!(b.free.iter().all(|id| !a_ids.contains(id)));
        assert_eq!(b.held[0].0, 2, "b skips a's locked blocks");
        // Ids are handed out lowest first, and a pool grows past its
        // reservation when it must.
        assert_eq!(a.take(dir.path()).unwrap(), FIRST_ID);
        for _ in 0..(2 * BLOCK - 1) {
            a.take(dir.path()).unwrap();
        }
        let next = a.take(dir.path()).unwrap();
        assert_eq!(
            next,
            FIRST_ID + 3 * BLOCK,
            "a's third block is the next free one"
        );
        // A process's end (its files closed) frees its blocks for others.
        drop(a);
        let mut c = Pool::default();
        c.reserve(1, dir.path()).unwrap();
        assert_eq!(c.held[0].0, 0);
    }

    #[test]
    fn the_last_block_stays_below_the_invalid_id() {
        let last = FIRST_ID as u64 + u64::from(BLOCKS) * u64::from(BLOCK) - 1;
        assert!(last < u64::from(u32::MAX));
    }
}

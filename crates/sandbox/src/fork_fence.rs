//! Files whose close must not be outlived by a child forked a moment
//! before it.
//!
//! A fork copies every descriptor, and a contained child runs dojo's code
//! (joining its control groups, making its namespaces and root) before it
//! execs or, as a box's init, closes what it inherited; so does the child
//! that readies a box's scratch filesystem. A lock held through such a
//! copy outlives the close of the original: a league's `games.jsonl` lock
//! did, and the same directory opened again at once by the same process
//! (a resume, a late entry) was "in use" when another thread had just
//! made a box.
//!
//! Those forks hold the reaper's spawn lock shared from before the fork
//! until the child has exec'd (its descriptors are close-on-exec), closed
//! everything it inherited (a box's init closes the pipe `spawn` waits on
//! only then) or exited. A [`FencedFile`] is closed with that lock held
//! exclusively: after every such fork in flight, before any that has not
//! forked yet.

use std::fs::File;
use std::ops::{Deref, DerefMut};

/// A file (a lock, typically) that no child forked while it was open
/// keeps open once it is dropped; otherwise used as the [`File`] it holds.
#[derive(Debug)]
pub struct FencedFile(Option<File>);

impl FencedFile {
    pub fn new(file: File) -> FencedFile {
        FencedFile(Some(file))
    }
}

impl Deref for FencedFile {
    type Target = File;

    fn deref(&self) -> &File {
        self.0
            .as_ref()
            .expect("a FencedFile holds its file until dropped")
    }
}

impl DerefMut for FencedFile {
    fn deref_mut(&mut self) -> &mut File {
        self.0
            .as_mut()
            .expect("a FencedFile holds its file until dropped")
    }
}

impl Drop for FencedFile {
    fn drop(&mut self) {
        let _closing = crate::reaper::no_spawn_in_flight();
        drop(self.0.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file dropped while a spawn is in flight closes once that spawn
    /// is done, not before.
    #[test]
    fn a_fenced_file_closes_after_the_spawns_in_flight() {
        let tmp = tempfile::tempdir().unwrap();
        let file = FencedFile::new(File::create(tmp.path().join("f")).unwrap());
        let spawn = crate::reaper::hold();
        let (tx, rx) = std::sync::mpsc::channel();
        let closer = std::thread::spawn(move || {
            drop(file);
            tx.send(()).unwrap();
        });
        // The drop waits for the spawn.
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(200))
                .is_err()
        );
        drop(spawn);
        rx.recv().unwrap();
        closer.join().unwrap();
    }
}

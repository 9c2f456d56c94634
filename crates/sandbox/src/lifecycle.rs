//! The decisions of a seat's box over its life, apart from the kernel:
//! whether a seat gets a box at all ([`boxed`]), which box a start uses (the seat's own while it works, an idle one
//! made for the same, or a new one) and what a refused start means (the
//! error stands, or the box is replaced, and whether a bot broke it).
//! and which idle boxes are kept between games ([`take`], [`keep`]).
//! [`crate::bot_box::BotBox`] is the real [`Pooled`] box; the unit tests
//! below use a fake, as `runner/src/play/fake.rs` does for the game loop,
//! so every branch is tested without a namespace or a process.

use std::thread::ThreadId;

/// What the decisions need to know of a box.
pub trait Reusable {
    /// Its init is there and answered every request.
    fn usable(&self) -> bool;
    /// It has started a program before.
    fn has_worked(&self) -> bool;
}

/// What the idle boxes kept between games need to know of a box.
pub trait Pooled: Reusable {
    /// What it was made for: it is reused only for the same.
    fn key(&self) -> &str;
    /// The thread that made it or last kept it idle.
    fn thread(&self) -> ThreadId;
    /// Its waiter dies with the thread that made it (dojo forked it: see
    /// `crate::box_maker`), so only that thread reuses it; else any
    /// thread may.
    fn bound_to_thread(&self) -> bool;
}

/// Whether a seat gets a box, or each of its processes is contained on
/// its own (the fallback): only with a PID namespace (`pid_namespace`: a
/// box's init empties it with `kill(-1)`, which must reach nothing
/// outside), and unless `DOJO_BOX=0` (`box_var`, the variable's value)
/// turns boxes off.
pub fn boxed(pid_namespace: bool, box_var: Option<&str>) -> bool {
    pid_namespace && box_var != Some("0")
}

/// Gives a seat a working box in `slot`: the one it holds while that is
/// usable; else an idle one (`take_idle`, never asked under `fresh`, the
/// `--fresh-boxes` of a run); else a new one (`make`). On an error the
/// slot is left empty.
pub fn ensure<B: Reusable>(
    slot: &mut Option<B>,
    fresh: bool,
    take_idle: impl FnOnce() -> Option<B>,
    make: impl FnOnce() -> std::io::Result<B>,
) -> std::io::Result<()> {
    if slot.as_ref().is_some_and(B::usable) {
        return Ok(());
    }
    *slot = None;
    let idle = if fresh { None } else { take_idle() };
    *slot = Some(match idle {
        Some(idle) => idle,
        None => make()?,
    });
    Ok(())
}

/// Takes out of `idle` a box made for `key` that `thread` may use (one
/// not bound to another thread), if one is there (the caller asks whether
/// it still works, outside its lock).
pub fn take<B: Pooled>(idle: &mut Vec<B>, key: &str, thread: ThreadId) -> Option<B> {
    let at = idle
        .iter()
        .position(|b| b.key() == key && (!b.bound_to_thread() || b.thread() == thread))?;
    Some(idle.remove(at))
}

/// Keeps the readied box `b` in `idle` (its newest) and returns the
/// boxes to tear down: every one bound to a thread in `ended` (its init
/// died with the thread), and the oldest while more than `cap` are kept,
/// whichever thread kept them (the bound is the process's: a box the box
/// maker forked serves any thread, and one bound to a thread it outlived
/// is gone anyway). Knowing which threads ended costs nothing; asking
/// each idle box whether it still works is a system call, and with a box
/// per bot in a league of many bots (80 idle boxes for 40 bots on 2
/// workers) that was 160 of them, under the lock, at every game's end
/// (2.3% of a profile). A box broken in a live thread is found by the
/// check when it is next wanted.
pub fn keep<B: Pooled>(idle: &mut Vec<B>, b: B, ended: &[ThreadId], cap: usize) -> Vec<B> {
    let mut dead = Vec::new();
    if !ended.is_empty() {
        let (live, gone): (Vec<_>, Vec<_>) = std::mem::take(idle)
            .into_iter()
            .partition(|x| !(x.bound_to_thread() && ended.contains(&x.thread())));
        *idle = live;
        dead = gone;
    }
    idle.push(b);
    let over = idle.len().saturating_sub(cap);
    dead.extend(idle.drain(..over));
    dead
}

/// What to do with a box that refused a start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The error is the program's (it cannot start in a box that works):
    /// it stands.
    Stands,
    /// Start once more in a new box. `broken_by_bot`: the box still
    /// answers but refuses what it started before, so something in it (a
    /// program of the seat, the only one that ran there) broke it, and
    /// the caller charges the bot for it; otherwise the box died (an idle
    /// box's init goes with the thread that made it, and may go just as
    /// it is taken), which is no one's fault.
    Replace { broken_by_bot: bool },
}

/// Judges a start `b` refused with `error`. A busy program file
/// (`ETXTBSY`) is not the box's fault: the caller tries it again.
pub fn refusal(b: &impl Reusable, error: &std::io::Error) -> Refusal {
    if !b.usable() {
        Refusal::Replace {
            broken_by_bot: false,
        }
    } else if b.has_worked() && error.kind() != std::io::ErrorKind::ExecutableFileBusy {
        Refusal::Replace {
            broken_by_bot: true,
        }
    } else {
        Refusal::Stands
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    /// A box as the decisions see it, and which it is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Fake {
        id: u32,
        usable: bool,
        worked: bool,
        key: &'static str,
        thread: ThreadId,
        bound: bool,
    }

    impl Reusable for Fake {
        fn usable(&self) -> bool {
            self.usable
        }
        fn has_worked(&self) -> bool {
            self.worked
        }
    }

    impl Pooled for Fake {
        fn key(&self) -> &str {
            self.key
        }
        fn thread(&self) -> ThreadId {
            self.thread
        }
        fn bound_to_thread(&self) -> bool {
            self.bound
        }
    }

    fn fake(id: u32, usable: bool) -> Fake {
        Fake {
            id,
            usable,
            worked: true,
            key: "bot",
            thread: std::thread::current().id(),
            bound: true,
        }
    }

    fn other_thread() -> ThreadId {
        std::thread::spawn(|| std::thread::current().id())
            .join()
            .unwrap()
    }

    fn ids(boxes: &[Fake]) -> Vec<u32> {
        boxes.iter().map(|b| b.id).collect()
    }

    fn never<B>() -> Option<B> {
        panic!("no idle box may be asked for")
    }

    #[test]
    fn a_seat_keeps_its_box_while_it_works() {
        let mut slot = Some(fake(1, true));
        ensure(&mut slot, false, never, || panic!("nothing to make")).unwrap();
        assert_eq!(slot.map(|b| b.id), Some(1));
    }

    #[test]
    fn a_dead_box_is_replaced_by_an_idle_one_and_else_by_a_new_one() {
        let mut slot = Some(fake(1, false));
        ensure(
            &mut slot,
            false,
            || Some(fake(2, true)),
            || Ok(fake(3, true)),
        )
        .unwrap();
        assert_eq!(slot.map(|b| b.id), Some(2));
        let mut slot = None;
        ensure(&mut slot, false, || None, || Ok(fake(3, true))).unwrap();
        assert_eq!(slot.map(|b| b.id), Some(3));
    }

    #[test]
    fn fresh_boxes_never_take_an_idle_one() {
        let mut slot = None;
        ensure(&mut slot, true, never, || Ok(fake(3, true))).unwrap();
        assert_eq!(slot.map(|b| b.id), Some(3));
    }

    #[test]
    fn a_box_that_cannot_be_made_leaves_the_seat_without_one() {
        let mut slot = Some(fake(1, false));
        let made = ensure(
            &mut slot,
            false,
            || None,
            || Err(Error::other("no seat user")),
        );
        assert_eq!(made.unwrap_err().to_string(), "no seat user");
        assert_eq!(slot, None);
    }

    #[test]
    fn a_refused_start_stands_replaces_the_box_or_charges_the_bot() {
        let refused = Error::from(ErrorKind::PermissionDenied);
        let busy = Error::from(ErrorKind::ExecutableFileBusy);
        // A dead box: replaced, nobody charged, whatever the error.
        for error in [&refused, &busy] {
            assert_eq!(
                refusal(&fake(1, false), error),
                Refusal::Replace {
                    broken_by_bot: false
                }
            );
        }
        // A working box that never started the program: the program's
        // own error.
        let new = Fake {
            worked: false,
            ..fake(1, true)
        };
        assert_eq!(refusal(&new, &refused), Refusal::Stands);
        // One that started it before and now refuses: a bot broke it.
        assert_eq!(
            refusal(&fake(1, true), &refused),
            Refusal::Replace {
                broken_by_bot: true
            }
        );
        // A busy program file is tried again by the caller, in the box.
        assert_eq!(refusal(&fake(1, true), &busy), Refusal::Stands);
    }

    #[test]
    fn an_idle_box_serves_only_the_same_bot_on_the_same_thread() {
        let elsewhere = other_thread();
        let mut idle = vec![
            Fake {
                key: "other",
                ..fake(1, true)
            },
            Fake {
                thread: elsewhere,
                ..fake(2, true)
            },
            fake(3, true),
        ];
        let here = std::thread::current().id();
        assert_eq!(take(&mut idle, "bot", here).map(|b| b.id), Some(3));
        assert_eq!(take(&mut idle, "bot", here), None);
        assert_eq!(ids(&idle), [1, 2]);
        assert_eq!(take(&mut idle, "bot", elsewhere).map(|b| b.id), Some(2));
    }

    #[test]
    fn a_box_bound_to_no_thread_serves_the_same_bot_on_any_thread() {
        let elsewhere = other_thread();
        let free = |id| Fake {
            thread: elsewhere,
            bound: false,
            ..fake(id, true)
        };
        let mut idle = vec![
            Fake {
                key: "other",
                ..free(1)
            },
            free(2),
        ];
        let here = std::thread::current().id();
        assert_eq!(take(&mut idle, "bot", here).map(|b| b.id), Some(2));
        assert_eq!(take(&mut idle, "bot", here), None);
        // Its thread's end does not end it.
        let mut idle = vec![free(3)];
        assert!(keep(&mut idle, fake(4, true), &[elsewhere], 4).is_empty());
        assert_eq!(ids(&idle), [3, 4]);
    }

    #[test]
    fn keeping_a_box_drops_an_ended_threads_and_the_oldest_over_the_bound() {
        let elsewhere = other_thread();
        let theirs = |id| Fake {
            thread: elsewhere,
            ..fake(id, true)
        };
        // A box found broken is not asked about here (no system call at
        // every game's end): it goes when it is next wanted.
        let mut idle = vec![fake(1, true), fake(2, false), theirs(3), fake(4, true)];
        assert!(keep(&mut idle, fake(5, true), &[], 5).is_empty());
        assert_eq!(ids(&idle), [1, 2, 3, 4, 5]);
        // Every box of an ended thread goes, and no other.
        assert_eq!(ids(&keep(&mut idle, theirs(6), &[elsewhere], 5)), [3]);
        assert_eq!(ids(&idle), [1, 2, 4, 5, 6]);
        // Over the bound: the oldest.
        assert_eq!(ids(&keep(&mut idle, fake(7, true), &[], 5)), [1]);
        assert_eq!(ids(&idle), [2, 4, 5, 6, 7]);
    }

    #[test]
    fn the_bound_is_the_processs_whichever_thread_kept_the_boxes() {
        // Boxes the box maker forked serve any worker, so the bound counts
        // them all: over it the oldest goes, though another thread kept
        // it and this one keeps only the box it gives back (a bound per
        // thread kept all four, and with 64 per worker a league of 80
        // bots evicted the box its next game wanted).
        let (here, elsewhere) = (std::thread::current().id(), other_thread());
        let free = |id, key, thread| Fake {
            key,
            thread,
            bound: false,
            ..fake(id, true)
        };
        let mut idle = vec![
            free(1, "a", elsewhere),
            free(2, "b", elsewhere),
            free(3, "c", elsewhere),
        ];
        assert_eq!(ids(&keep(&mut idle, free(4, "d", here), &[], 3)), [1]);
        assert_eq!(ids(&idle), [2, 3, 4]);
        // A thread may keep more than its share, and a bound lowered
        // since is held at once.
        assert_eq!(ids(&keep(&mut idle, free(5, "e", here), &[], 2)), [2, 3]);
        assert_eq!(ids(&idle), [4, 5]);
    }

    #[test]
    fn a_seat_gets_a_box_only_with_a_pid_namespace_and_unless_dojo_box_is_0() {
        assert!(boxed(true, None));
        assert!(boxed(true, Some("1")));
        assert!(!boxed(true, Some("0")));
        assert!(!boxed(false, None));
    }
}

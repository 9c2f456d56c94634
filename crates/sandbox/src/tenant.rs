//! A started program as its owner holds it, whoever started it: its
//! descriptors ([`Pipes`]) and its [`Tenant`], the handle that tells its
//! end, accounts for it (CPU time, memory peak, the limits it met) and,
//! dropped, kills it and everything it started. A program contained on
//! its own ([`spawn_contained`]) and one a box's init started
//! ([`Tenant::boxed`]) look the same to the caller, which wraps the
//! pipes in whatever protocol it speaks.

use std::os::fd::OwnedFd;
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::time::Duration;

use crate::bot_box::{Occupancy, Occupant};
use crate::cgroup::{BotGroup, Hit};
use crate::cputime::TreeClock;
use crate::spawn::{GroupGuard, Launch, start_contained};
use crate::sys::{self, ExitKind};

/// dojo's ends of a started program's pipes (non-blocking), and the
/// descriptor that becomes readable when it ends (for a box's program:
/// when its init has something to say). `None` where the launch asked for
/// no pipe, or (`exit`) where the kernel has no pidfds.
#[derive(Debug)]
pub struct Pipes {
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
    pub exit: Option<OwnedFd>,
}

/// A started program: its end, its accounting, and (on drop) its kill.
#[derive(Debug)]
pub struct Tenant {
    /// Samples the tree's CPU time where no group counts it (its `/proc`
    /// files kept open).
    clock: TreeClock,
    owner: Owner,
}

/// Who started the program, and so who kills it.
#[derive(Debug)]
enum Owner {
    /// dojo, with its own namespaces and groups (gone with it).
    Own(GroupGuard),
    /// A box's init (see [`crate::bot_box`]).
    Boxed(Occupancy),
}

/// Starts `launch`'s program contained on its own, as its plan says (no
/// box: the fallback where there is no PID namespace or `DOJO_BOX=0`,
/// and builds).
pub fn spawn_contained(launch: &Launch<'_>) -> std::io::Result<(Pipes, Tenant)> {
    let started = start_contained(launch, None)?;
    let pid = started.guard.pgid;
    let pipes = Pipes {
        stdin: started.stdin,
        stdout: started.stdout,
        stderr: started.stderr,
        exit: sys::pidfd(pid),
    };
    let tenant = Tenant {
        clock: TreeClock::new(pid),
        owner: Owner::Own(started.guard),
    };
    Ok((pipes, tenant))
}

impl Tenant {
    /// The program a box's init started ([`crate::bot_box::BotBox::start`]).
    pub fn boxed(occupant: Occupant) -> (Pipes, Tenant) {
        let Occupant {
            stdin,
            stdout,
            stderr,
            exit_fd,
            occupancy,
        } = occupant;
        let pipes = Pipes {
            stdin: Some(stdin),
            stdout: Some(stdout),
            stderr: Some(stderr),
            exit: Some(exit_fd),
        };
        let tenant = Tenant {
            clock: TreeClock::new(occupancy.host_pid()),
            owner: Owner::Boxed(occupancy),
        };
        (pipes, tenant)
    }

    fn cgroup(&self) -> Option<&BotGroup> {
        match &self.owner {
            Owner::Own(guard) => guard.cgroup.as_deref(),
            Owner::Boxed(occupancy) => occupancy.cgroup(),
        }
    }

    /// How the program ended, if it has (never reaping it: the tenant
    /// does that when dropped). `exit` is [`Pipes::exit`], read without
    /// waiting for a box's program.
    pub fn ended(&mut self, exit: Option<&OwnedFd>) -> Option<ExitKind> {
        match &mut self.owner {
            Owner::Own(guard) => sys::exited_no_reap(guard.pgid),
            Owner::Boxed(occupancy) => occupancy.ended(exit),
        }
    }

    /// Whether a box's init has already reported the end (so no wake-up
    /// will come from [`Pipes::exit`] for it).
    pub fn end_read(&self) -> bool {
        matches!(&self.owner, Owner::Boxed(o) if o.has_seen_end())
    }

    /// The process group id (equal to the pid; 0 for a program of a box
    /// that ended before dojo could see it).
    pub fn pgid(&self) -> i32 {
        match &self.owner {
            Owner::Own(guard) => guard.pgid,
            Owner::Boxed(occupancy) => occupancy.host_pid(),
        }
    }

    /// CPU time used so far by the program and its descendants: from its
    /// cgroup where it counts CPU (every process it ever ran), else from
    /// its live tree in `/proc` (see [`crate::cputime`]).
    pub fn cpu_time(&self) -> Option<Duration> {
        if let Some(used) = self.cgroup().and_then(BotGroup::cpu_time) {
            return Some(used);
        }
        self.clock.sample()
    }

    /// The most memory the program's tree used at once, in bytes, from
    /// its memory group (its box's, reset when the box started it);
    /// `None` without one.
    pub fn memory_peak(&self) -> Option<u64> {
        self.cgroup()?.memory_peak()
    }

    /// The limits of its control groups it ran into (nothing without
    /// groups).
    pub fn group_hits(&self) -> Vec<Hit> {
        self.cgroup().map(BotGroup::hits).unwrap_or_default()
    }

    /// Starts ending a box's program without waiting (see
    /// [`Occupancy::begin_emptying`]); the drop completes it. Nothing
    /// for a program contained on its own.
    pub fn begin_kill(&mut self) {
        if let Owner::Boxed(occupancy) = &mut self.owner {
            occupancy.begin_emptying();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::event::{PollFd, PollFlags};

    /// What the runner needs of a program contained on its own, without
    /// the runner: its pipes, its end through the exit descriptor, its
    /// CPU time while it runs, and nothing left of it after the drop.
    #[test]
    fn a_program_of_its_own_is_seen_to_end_and_gone_after_the_drop() {
        let command = [
            "sh".to_string(),
            "-c".to_string(),
            "read x; exit 3".to_string(),
        ];
        let launch = Launch {
            command: &command,
            dir: std::path::Path::new("/"),
            scratch: None,
            env: &[],
            containment: crate::plan(crate::SandboxMode::Auto, &crate::Limits::default()),
            extra_read: &[],
            manifest: None,
            clean_env: true,
            cpu: None,
        };
        let (mut pipes, mut tenant) = spawn_contained(&launch).expect("sh starts");
        let pgid = tenant.pgid();
        assert!(pgid > 0);
        assert!(
            tenant.cpu_time().is_some(),
            "a running program has a CPU time"
        );
        assert_eq!(tenant.ended(pipes.exit.as_ref()), None);
        drop(pipes.stdin.take());
        match &pipes.exit {
            Some(exit) => {
                let mut fds = [PollFd::new(exit, PollFlags::IN)];
                let wait = sys::timespec(Duration::from_secs(60));
                rustix::event::poll(&mut fds, Some(&wait)).expect("poll");
            }
            None => {
                while sys::process_group_alive(pgid) {
                    std::thread::yield_now();
                }
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let end = loop {
            if let Some(end) = tenant.ended(pipes.exit.as_ref()) {
                break end;
            }
            assert!(std::time::Instant::now() < deadline, "no end seen");
            std::thread::yield_now();
        };
        assert_eq!(end, ExitKind::Code(3));
        assert!(!tenant.end_read());
        drop(tenant);
        assert!(!sys::process_group_alive(pgid));
    }
}

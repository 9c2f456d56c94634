//! The bots' seccomp filters: an allowlist of the system calls bots need,
//! every other call answered ENOSYS (a runtime that probes for a call it
//! does not get falls back, as on an older kernel), and on top a list of
//! calls denied with EPERM, some only for some arguments (the bot is not
//! killed: a runtime that probes for, say, `perf_event_open` carries on).
//!
//! The filters are compiled once, in dojo, with `seccompiler` (the
//! rust-vmm project's BPF compiler, used by Firecracker); the forked
//! child only loads them (see [`crate::sys::contain`]). When several
//! filters answer a call with an error, the kernel returns the error of
//! the filter loaded last, so the EPERM list is loaded after the
//! allowlist.
//!
//! A box's init readies its box for each game with calls no bot may make
//! (`mount`, `umount2`, `unshare`: `READYING`), and loads the filters
//! once for all its bots, which inherit them: attaching a filter costs
//! the kernel an emulation of it for every system call number (its cache
//! of allowed calls), about a tenth of a contained league's CPU when each
//! bot loaded the two large filters itself. So the allowlist and the
//! EPERM list let those calls through, and a third, small filter, which
//! each bot of a box loads between its `clone` and its `exec` (and any
//! other process with the other two), denies them with EPERM again: a
//! bot is filtered exactly as if the first two denied them. A call of another ABI than the native one (x86-64's 32-bit
//! `int 0x80` calls) fails seccompiler's architecture check, which kills
//! the process; x32 calls (numbers with bit 30 set) are in no list.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls a bot may make, by what they are for; the other calls of
/// the architecture answer ENOSYS. Chosen from what Python, Node, Java,
/// C, Rust and shell bots were seen to call (`strace -f` of each playing a
/// game) and from the calls of the same families they may reach for, less
/// the calls that reach beyond the bot's own processes and files:
/// machine-wide state (`sync`, `syslog`, `acct`, NUMA placement of pages,
/// I/O priorities, asynchronous I/O contexts), other processes' memory or
/// descriptors (`kcmp`, `pidfd_getfd`, `process_madvise`), old or
/// unimplemented calls (`uselib`, `sysfs`, `_sysctl`, `modify_ldt`,
/// `remap_file_pages`, `personality`), and secret memory. Some allowed
/// calls are narrowed again by the EPERM filter below (`clone`, `socket`,
/// `socketpair`, `sched_setaffinity` when pinned).
const ALLOWED: &[i64] = &[
    // Files and directories (the `*at` forms; the old ones below).
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_openat,
    libc::SYS_openat2,
    libc::SYS_close,
    libc::SYS_close_range,
    libc::SYS_fstat,
    libc::SYS_newfstatat,
    libc::SYS_statx,
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    libc::SYS_lseek,
    libc::SYS_pread64,
    libc::SYS_pwrite64,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_preadv,
    libc::SYS_pwritev,
    libc::SYS_preadv2,
    libc::SYS_pwritev2,
    libc::SYS_sendfile,
    libc::SYS_splice,
    libc::SYS_tee,
    libc::SYS_vmsplice,
    libc::SYS_copy_file_range,
    libc::SYS_ioctl,
    libc::SYS_fcntl,
    libc::SYS_flock,
    libc::SYS_fsync,
    libc::SYS_fdatasync,
    libc::SYS_syncfs,
    libc::SYS_truncate,
    libc::SYS_ftruncate,
    libc::SYS_fallocate,
    libc::SYS_fadvise64,
    libc::SYS_readahead,
    libc::SYS_getdents64,
    libc::SYS_getcwd,
    libc::SYS_chdir,
    libc::SYS_fchdir,
    libc::SYS_mkdirat,
    libc::SYS_mknodat,
    libc::SYS_unlinkat,
    libc::SYS_renameat2,
    libc::SYS_linkat,
    libc::SYS_symlinkat,
    libc::SYS_readlinkat,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchown,
    libc::SYS_fchownat,
    libc::SYS_utimensat,
    libc::SYS_umask,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_getxattr,
    libc::SYS_lgetxattr,
    libc::SYS_fgetxattr,
    libc::SYS_listxattr,
    libc::SYS_llistxattr,
    libc::SYS_flistxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    libc::SYS_dup,
    libc::SYS_dup3,
    libc::SYS_pipe2,
    libc::SYS_memfd_create,
    // Memory.
    libc::SYS_brk,
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_mprotect,
    libc::SYS_madvise,
    libc::SYS_msync,
    libc::SYS_mincore,
    libc::SYS_mlock,
    libc::SYS_mlock2,
    libc::SYS_munlock,
    libc::SYS_mlockall,
    libc::SYS_munlockall,
    libc::SYS_mseal,
    libc::SYS_pkey_alloc,
    libc::SYS_pkey_free,
    libc::SYS_pkey_mprotect,
    libc::SYS_get_mempolicy,
    libc::SYS_membarrier,
    // Processes and threads (in the box's PID namespace).
    libc::SYS_clone,
    libc::SYS_execve,
    libc::SYS_execveat,
    libc::SYS_exit,
    libc::SYS_exit_group,
    libc::SYS_wait4,
    libc::SYS_waitid,
    libc::SYS_getpid,
    libc::SYS_getppid,
    libc::SYS_gettid,
    libc::SYS_set_tid_address,
    libc::SYS_set_robust_list,
    libc::SYS_get_robust_list,
    libc::SYS_rseq,
    libc::SYS_futex,
    libc::SYS_futex_waitv,
    libc::SYS_setpgid,
    libc::SYS_getpgid,
    libc::SYS_setsid,
    libc::SYS_getsid,
    libc::SYS_prctl,
    libc::SYS_prlimit64,
    libc::SYS_getrusage,
    libc::SYS_times,
    libc::SYS_sched_yield,
    libc::SYS_sched_getaffinity,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_getparam,
    libc::SYS_sched_setparam,
    libc::SYS_sched_getscheduler,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_getattr,
    libc::SYS_sched_setattr,
    libc::SYS_sched_get_priority_max,
    libc::SYS_sched_get_priority_min,
    libc::SYS_sched_rr_get_interval,
    libc::SYS_getpriority,
    libc::SYS_setpriority,
    libc::SYS_ioprio_get,
    libc::SYS_getcpu,
    libc::SYS_pidfd_open,
    libc::SYS_pidfd_send_signal,
    libc::SYS_seccomp,
    libc::SYS_landlock_create_ruleset,
    libc::SYS_landlock_add_rule,
    libc::SYS_landlock_restrict_self,
    // Users and capabilities (without privileges a process can only
    // keep or drop what it has).
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_getresuid,
    libc::SYS_getresgid,
    libc::SYS_getgroups,
    libc::SYS_setuid,
    libc::SYS_setgid,
    libc::SYS_setreuid,
    libc::SYS_setregid,
    libc::SYS_setresuid,
    libc::SYS_setresgid,
    libc::SYS_setfsuid,
    libc::SYS_setfsgid,
    libc::SYS_setgroups,
    libc::SYS_capget,
    libc::SYS_capset,
    // Signals.
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_rt_sigpending,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_rt_sigsuspend,
    libc::SYS_rt_sigqueueinfo,
    libc::SYS_rt_tgsigqueueinfo,
    libc::SYS_sigaltstack,
    libc::SYS_kill,
    libc::SYS_tkill,
    libc::SYS_tgkill,
    libc::SYS_restart_syscall,
    // Time and timers.
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
    libc::SYS_gettimeofday,
    libc::SYS_nanosleep,
    libc::SYS_getitimer,
    libc::SYS_setitimer,
    libc::SYS_timer_create,
    libc::SYS_timer_settime,
    libc::SYS_timer_gettime,
    libc::SYS_timer_getoverrun,
    libc::SYS_timer_delete,
    libc::SYS_timerfd_create,
    libc::SYS_timerfd_settime,
    libc::SYS_timerfd_gettime,
    // Waiting on descriptors.
    libc::SYS_ppoll,
    libc::SYS_pselect6,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_pwait,
    libc::SYS_epoll_pwait2,
    libc::SYS_eventfd2,
    libc::SYS_signalfd4,
    // Sockets (the network namespace has only a loopback that is down;
    // the EPERM filter narrows the families).
    libc::SYS_socket,
    libc::SYS_socketpair,
    libc::SYS_bind,
    libc::SYS_listen,
    libc::SYS_accept,
    libc::SYS_accept4,
    libc::SYS_connect,
    libc::SYS_shutdown,
    libc::SYS_getsockname,
    libc::SYS_getpeername,
    libc::SYS_getsockopt,
    libc::SYS_setsockopt,
    libc::SYS_sendto,
    libc::SYS_recvfrom,
    libc::SYS_sendmsg,
    libc::SYS_recvmsg,
    libc::SYS_sendmmsg,
    libc::SYS_recvmmsg,
    // System V and POSIX IPC (the box's own IPC namespace).
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmdt,
    libc::SYS_shmctl,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semtimedop,
    libc::SYS_semctl,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_mq_open,
    libc::SYS_mq_unlink,
    libc::SYS_mq_timedsend,
    libc::SYS_mq_timedreceive,
    libc::SYS_mq_notify,
    libc::SYS_mq_getsetattr,
    // What the machine is.
    libc::SYS_uname,
    libc::SYS_sysinfo,
    libc::SYS_getrandom,
];

/// x86-64's older calls, which later architectures replaced by the `*at`
/// and `*2` forms above (C libraries and static binaries still use them).
#[cfg(target_arch = "x86_64")]
const ALLOWED_OLD: &[i64] = &[
    libc::SYS_open,
    libc::SYS_creat,
    libc::SYS_stat,
    libc::SYS_lstat,
    libc::SYS_access,
    libc::SYS_mkdir,
    libc::SYS_rmdir,
    libc::SYS_mknod,
    libc::SYS_unlink,
    libc::SYS_rename,
    libc::SYS_renameat,
    libc::SYS_link,
    libc::SYS_symlink,
    libc::SYS_readlink,
    libc::SYS_chmod,
    libc::SYS_fchmodat2,
    libc::SYS_chown,
    libc::SYS_lchown,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_getdents,
    libc::SYS_sync_file_range,
    libc::SYS_pipe,
    libc::SYS_dup2,
    libc::SYS_poll,
    libc::SYS_select,
    libc::SYS_epoll_create,
    libc::SYS_epoll_wait,
    libc::SYS_eventfd,
    libc::SYS_signalfd,
    libc::SYS_fork,
    libc::SYS_vfork,
    libc::SYS_pause,
    libc::SYS_alarm,
    libc::SYS_time,
    libc::SYS_getpgrp,
    libc::SYS_getrlimit,
    libc::SYS_setrlimit,
    libc::SYS_arch_prctl,
    libc::SYS_set_thread_area,
    libc::SYS_get_thread_area,
];
#[cfg(not(target_arch = "x86_64"))]
const ALLOWED_OLD: &[i64] = &[];

/// Calls denied whatever their arguments: debugging other processes,
/// changing the machine (mounts, modules, kexec, reboot, swap, clock),
/// kernel attack surface bots have no use for (BPF, perf, keyrings,
/// userfaultfd), and entering or creating namespaces.
const DENIED: &[i64] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_fsconfig,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_bpf,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_perf_event_open,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_userfaultfd,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_acct,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_adjtimex,
    libc::SYS_clock_adjtime,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_iopl,
    libc::SYS_ioperm,
    libc::SYS_quotactl,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
    libc::SYS_lookup_dcookie,
    // Watches count against the user's machine-wide limits (root's too)
    // and report names in directories the bot may not read.
    #[cfg(target_arch = "x86_64")]
    libc::SYS_inotify_init,
    libc::SYS_inotify_init1,
    libc::SYS_fanotify_init,
    // Asynchronous I/O contexts are counted machine-wide
    // (`/proc/sys/fs/aio-nr`, readable in every box): one bot can signal
    // another through the count, and spend every context of the host.
    libc::SYS_io_setup,
    // A second way into the kernel, past this very filter.
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

/// Socket families no bot gets: Unix sockets (a pathname socket of the
/// host, such as a container daemon's, is reachable by `connect` whatever
/// Landlock allows), the host's virtual-machine sockets, netlink (the
/// kernel's configuration interface) and raw packets.
const DENIED_FAMILIES: &[i32] = &[
    libc::AF_UNIX,
    libc::AF_VSOCK,
    libc::AF_NETLINK,
    libc::AF_PACKET,
];

/// `clone` flags that create namespaces: `clone` with any of them is
/// denied like `unshare`.
const NAMESPACE_FLAGS: &[i32] = &[
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

/// Denied as well for a bot pinned to one CPU (`--pin`), so that it cannot
/// undo its pinning: it keeps the affinity it was started with, and so
/// does everything it starts.
const DENIED_WHEN_PINNED: &[i64] = &[libc::SYS_sched_setaffinity];

/// Calls that change another process by its pid (its limits, its
/// scheduling), denied when aimed at PID 1: in a box that is the box's
/// init, which a bot that shares its user (a box made inside a user
/// namespace, without a seat user) could otherwise `prlimit` (an
/// open-files limit of 4 and it starts no bot again) or slow down. As
/// root the init is another user, out of reach anyway.
const DENIED_ON_PID_ONE: &[i64] = &[
    libc::SYS_prlimit64,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_sched_setaffinity,
];

/// The calls with which a box's init readies its box for a game (a new
/// scratch tmpfs, a new IPC namespace): allowed by the first two filters
/// and denied by the last (see the module's doc).
const READYING: &[i64] = &[libc::SYS_mount, libc::SYS_umount2, libc::SYS_unshare];

pub use crate::sys::loaded_by_init;

/// The compiled filters, in the order to load them: the allowlist (every
/// other call ENOSYS; `clone3` among those, as its flags sit in memory,
/// out of a filter's reach, and C libraries then fall back to `clone`,
/// whose flags the EPERM filter checks), then the EPERM list, then the
/// `READYING` calls' EPERM. `None` where the architecture is not
/// supported.
pub fn filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS.get_or_init(|| build(&[]).ok()).as_deref()
}

/// [`filters`] for a pinned bot: `sched_setaffinity` fails with EPERM too.
pub fn pinned_filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS
        .get_or_init(|| build(DENIED_WHEN_PINNED).ok())
        .as_deref()
}

fn build(also_denied: &[i64]) -> Result<Vec<BpfProgram>, seccompiler::BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> = DENIED
        .iter()
        .chain(also_denied)
        .filter(|call| !READYING.contains(call))
        .map(|&call| (call, Vec::new()))
        .collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            // clone's first argument is the flags on every architecture
            // dojo runs on (x86-64 and arm64).
            let condition = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag as u64),
                flag as u64,
            )?;
            SeccompRule::new(vec![condition])
        })
        .collect::<Result<Vec<_>, _>>()?;
    denied.insert(libc::SYS_clone, clone_rules);
    // socket(family, type, protocol): the families above, and raw
    // sockets of any family (the type's low bits; the rest are flags).
    let arg = |index, op, value| SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value);
    let mut socket_rules = DENIED_FAMILIES
        .iter()
        .map(|&family| SeccompRule::new(vec![arg(0, SeccompCmpOp::Eq, family as u64)?]))
        .collect::<Result<Vec<_>, _>>()?;
    socket_rules.push(SeccompRule::new(vec![arg(
        1,
        SeccompCmpOp::MaskedEq(0xf),
        libc::SOCK_RAW as u64,
    )?])?);
    denied.insert(libc::SYS_socket, socket_rules);
    // A connected pair stays allowed (pipes between a bot's own
    // processes), but not a datagram one: it could `sendto` a host socket.
    denied.insert(
        libc::SYS_socketpair,
        vec![SeccompRule::new(vec![arg(
            1,
            SeccompCmpOp::MaskedEq(0xf),
            libc::SOCK_DGRAM as u64,
        )?])?],
    );
    // The calls on PID 1 (their first argument is the pid); a call denied
    // whatever its arguments stays so (`sched_setaffinity` when pinned).
    for &call in DENIED_ON_PID_ONE {
        if let std::collections::btree_map::Entry::Vacant(entry) = denied.entry(call) {
            entry.insert(vec![SeccompRule::new(vec![arg(0, SeccompCmpOp::Eq, 1)?])?]);
        }
    }
    // setpriority(which, who, prio) and ioprio_set(which, who, ioprio):
    // on PID 1, or on every process of the caller's user (the init's,
    // without a seat user).
    let (prio_process, prio_user) = (libc::PRIO_PROCESS as u64, libc::PRIO_USER as u64);
    let (ioprio_process, ioprio_user) = (1, 3);
    for (call, process, user) in [
        (libc::SYS_setpriority, prio_process, prio_user),
        (libc::SYS_ioprio_set, ioprio_process, ioprio_user),
    ] {
        denied.insert(
            call,
            vec![
                SeccompRule::new(vec![
                    arg(0, SeccompCmpOp::Eq, process)?,
                    arg(1, SeccompCmpOp::Eq, 1)?,
                ])?,
                SeccompRule::new(vec![arg(0, SeccompCmpOp::Eq, user)?])?,
            ],
        );
    }
    let eperm = SeccompFilter::new(
        denied,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let allowed = SeccompFilter::new(
        ALLOWED
            .iter()
            .chain(ALLOWED_OLD)
            .chain(READYING)
            .map(|&call| (call, Vec::new()))
            .collect(),
        SeccompAction::Errno(libc::ENOSYS as u32),
        SeccompAction::Allow,
        arch,
    )?;
    let readying = SeccompFilter::new(
        READYING.iter().map(|&call| (call, Vec::new())).collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    Ok(vec![
        allowed.try_into()?,
        eperm.try_into()?,
        readying.try_into()?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_architecture() {
        match std::env::consts::ARCH {
            "x86_64" | "aarch64" | "riscv64" => {
                let filters = filters().expect("compiled");
                assert_eq!(filters.len(), 3);
                assert_eq!(loaded_by_init(filters), 2);
                assert!(filters.iter().all(|f| !f.is_empty()));
                let pinned = pinned_filters().expect("compiled");
                // `sched_setaffinity` denied whatever its arguments, not
                // only on PID 1.
                assert_ne!(pinned[1], filters[1]);
            }
            other => eprintln!("skipped: seccomp filters not built for {other}"),
        }
    }

    #[test]
    fn no_call_is_both_allowed_and_denied_outright_and_none_is_listed_twice() {
        let allowed: Vec<i64> = ALLOWED.iter().chain(ALLOWED_OLD).copied().collect();
        let unique: std::collections::BTreeSet<i64> = allowed.iter().copied().collect();
        assert_eq!(unique.len(), allowed.len(), "a call is listed twice");
        for call in DENIED {
            assert!(!unique.contains(call), "call {call} is allowed and denied");
        }
        // clone3 stays out: its flags cannot be checked.
        assert!(!unique.contains(&libc::SYS_clone3));
    }

    /// Every call `strace -f` saw a Python, Node, Java (a single-file
    /// source program), C, Rust and shell (dash, bash) bot make while
    /// playing, but `clone3` (ENOSYS: the C library falls back to
    /// `clone`): dropping one of them from the list breaks a language.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_calls_bots_of_each_language_were_seen_making_are_allowed() {
        let seen = [
            libc::SYS_access,
            libc::SYS_arch_prctl,
            libc::SYS_brk,
            libc::SYS_capget,
            libc::SYS_chdir,
            libc::SYS_clock_getres,
            libc::SYS_clock_nanosleep,
            libc::SYS_clone,
            libc::SYS_close,
            libc::SYS_connect,
            libc::SYS_dup,
            libc::SYS_dup2,
            libc::SYS_epoll_create1,
            libc::SYS_epoll_ctl,
            libc::SYS_epoll_pwait,
            libc::SYS_eventfd2,
            libc::SYS_execve,
            libc::SYS_exit,
            libc::SYS_exit_group,
            libc::SYS_faccessat2,
            libc::SYS_fchdir,
            libc::SYS_fcntl,
            libc::SYS_flock,
            libc::SYS_fstat,
            libc::SYS_ftruncate,
            libc::SYS_futex,
            libc::SYS_getcwd,
            libc::SYS_getdents64,
            libc::SYS_getegid,
            libc::SYS_geteuid,
            libc::SYS_getgid,
            libc::SYS_getpeername,
            libc::SYS_getpgrp,
            libc::SYS_getpid,
            libc::SYS_getppid,
            libc::SYS_getrandom,
            libc::SYS_getrusage,
            libc::SYS_getsockname,
            libc::SYS_gettid,
            libc::SYS_getuid,
            libc::SYS_ioctl,
            libc::SYS_lseek,
            libc::SYS_madvise,
            libc::SYS_mkdir,
            libc::SYS_mmap,
            libc::SYS_mprotect,
            libc::SYS_munmap,
            libc::SYS_newfstatat,
            libc::SYS_openat,
            libc::SYS_pipe2,
            libc::SYS_pkey_alloc,
            libc::SYS_poll,
            libc::SYS_prctl,
            libc::SYS_pread64,
            libc::SYS_prlimit64,
            libc::SYS_read,
            libc::SYS_readlink,
            libc::SYS_rseq,
            libc::SYS_rt_sigaction,
            libc::SYS_rt_sigprocmask,
            libc::SYS_rt_sigreturn,
            libc::SYS_sched_getaffinity,
            libc::SYS_sched_yield,
            libc::SYS_set_robust_list,
            libc::SYS_set_tid_address,
            libc::SYS_setsockopt,
            libc::SYS_sigaltstack,
            libc::SYS_socket,
            libc::SYS_socketpair,
            libc::SYS_statx,
            libc::SYS_sysinfo,
            libc::SYS_uname,
            libc::SYS_unlink,
            libc::SYS_wait4,
            libc::SYS_write,
        ];
        let allowed: std::collections::BTreeSet<i64> =
            ALLOWED.iter().chain(ALLOWED_OLD).copied().collect();
        let missing: Vec<i64> = seen.into_iter().filter(|c| !allowed.contains(c)).collect();
        assert!(missing.is_empty(), "not allowed: {missing:?}");
    }
}

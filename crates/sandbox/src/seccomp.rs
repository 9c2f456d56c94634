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
//!
//! Each filter finds the call's number by a binary search rather than
//! seccompiler's comparison with every listed call in turn
//! (`Spec::dispatched`): the kernel's emulation of a filter for every
//! call number at its attaching, which a box's init pays for the two
//! large filters, runs about 14,000 instructions instead of 270,000.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch, sock_filter,
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
/// `socketpair`, `sched_setaffinity` when pinned; for a bot, not a build,
/// `flock` and `fcntl`'s lock commands: [`Locks`]).
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

/// Which sockets a process may open with `socket`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sockets {
    /// None (a bot). Its network namespace has no interface up, so an
    /// Internet socket serves it nothing, but it moves the namespace's
    /// counters (`/proc/net/snmp`: a `sendto` that finds no route counts
    /// in `OutNoRoutes`), which a box keeps from one game to the next: a
    /// note to its next game that no renewal clears (a network namespace
    /// costs about 0.4 ms to make, too much to make per game).
    None,
    /// Internet sockets, but not the [`DENIED_FAMILIES`] nor raw ones (a
    /// build, which fetches its dependencies).
    Internet,
}

/// Socket families no build gets (and no bot, which gets none): Unix
/// sockets (a pathname socket of the host, such as a container daemon's,
/// is reachable by `connect` whatever Landlock allows), the host's
/// virtual-machine sockets, netlink (the kernel's configuration
/// interface) and raw packets.
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

/// Whether a process may lock files: a build may (cargo, package
/// managers and compilers lock their caches and outputs), a bot may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Locks {
    /// `flock`, and `fcntl` with [`LOCK_COMMANDS`], fail with EPERM (a
    /// bot). A lock belongs to the file's inode, and every box binds the
    /// same host files read-only: two bots (of one game, of concurrent
    /// games, of two dojo processes) that lock and probe the same system
    /// files talk through them, whatever their boxes, Landlock or users
    /// (a lock needs only a descriptor open for reading). A lock on a
    /// file of the bot's own would be harmless, but the filter cannot tell
    /// the files apart, so those fail too.
    Denied,
    /// Every lock (a build).
    Allowed,
}

/// `fcntl` commands denied to a bot ([`Locks::Denied`]), as ranges of
/// consecutive numbers (a rule each: three rules rather than nine, in a
/// filter the kernel runs on every `fcntl`): record locks (`F_GETLK`,
/// `F_SETLK`, `F_SETLKW`; `F_GETLK` tells whether another process holds
/// one, as good as taking it), open file description locks
/// (`F_OFD_GETLK`, `F_OFD_SETLK`, `F_OFD_SETLKW`), leases and dnotify
/// (`F_SETLEASE`, `F_GETLEASE`, `F_NOTIFY`: a lease is broken by another
/// process's open of the file, and tells its holder so; dnotify reports
/// events other processes make in a directory, such as a system one
/// every box binds). The 64-bit ABIs have no separate `F_*LK64`
/// numbers (12 to 14 are the 32-bit ABIs', whose calls the architecture
/// check kills; the 64-bit `fcntl` answers EINVAL to them). Every other
/// command (descriptor and status flags, `F_DUPFD*`, pipe sizes, seals,
/// owners and signals) stays allowed.
const LOCK_COMMANDS: &[(i32, i32)] = &[
    (libc::F_GETLK, libc::F_SETLKW),
    (libc::F_OFD_GETLK, libc::F_OFD_SETLKW),
    (libc::F_SETLEASE, libc::F_NOTIFY),
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

/// The bots' compiled filters, in the order to load them: the allowlist
/// (every other call ENOSYS; `clone3` among those, as its flags sit in
/// memory, out of a filter's reach, and C libraries then fall back to
/// `clone`, whose flags the EPERM filter checks), then the EPERM list,
/// then the `READYING` calls' EPERM. `None` where the architecture is not
/// supported.
pub fn filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS
        .get_or_init(|| build(&[], Sockets::None, Locks::Denied).ok())
        .as_deref()
}

/// [`filters`] for a pinned bot: `sched_setaffinity` fails with EPERM too.
pub fn pinned_filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS
        .get_or_init(|| build(DENIED_WHEN_PINNED, Sockets::None, Locks::Denied).ok())
        .as_deref()
}

/// [`filters`] for a build: Internet sockets are allowed (it fetches its
/// dependencies, unless `--build-network off` takes the network away), and
/// file locks (cargo locks its caches and target directory).
pub fn build_filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS
        .get_or_init(|| build(&[], Sockets::Internet, Locks::Allowed).ok())
        .as_deref()
}

fn build(
    also_denied: &[i64],
    sockets: Sockets,
    locks: Locks,
) -> Result<Vec<BpfProgram>, seccompiler::BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    build_specs(also_denied, sockets, locks)?
        .iter()
        .map(|spec| spec.dispatched(arch))
        .collect()
}

/// The three filters' calls and actions, in the order to load them (see
/// [`filters`]).
fn build_specs(
    also_denied: &[i64],
    sockets: Sockets,
    locks: Locks,
) -> Result<Vec<Spec>, seccompiler::BackendError> {
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
    if sockets == Sockets::None {
        // No rule: every `socket` fails.
        socket_rules.clear();
    }
    denied.insert(libc::SYS_socket, socket_rules);
    // The page cache's ways to tell or clear whether a file's page is
    // cached, which host state keeps from one game to the next whatever
    // the box (a bot's own read-only file, or a system file two bots
    // read): a read that fails rather than wait for the disk
    // (`preadv2`'s `RWF_NOWAIT`, its sixth argument), and eviction
    // (`fadvise64`'s `POSIX_FADV_DONTNEED`, its fourth; `madvise`'s
    // `MADV_COLD` and `MADV_PAGEOUT`, its third). All are advice or a
    // choice not to wait: an honest program does without them.
    const RWF_NOWAIT: u64 = 0x8;
    for call in [libc::SYS_preadv2, libc::SYS_pwritev2] {
        denied.insert(
            call,
            vec![SeccompRule::new(vec![arg(
                5,
                SeccompCmpOp::MaskedEq(RWF_NOWAIT),
                RWF_NOWAIT,
            )?])?],
        );
    }
    denied.insert(
        libc::SYS_fadvise64,
        vec![SeccompRule::new(vec![arg(
            3,
            SeccompCmpOp::Eq,
            libc::POSIX_FADV_DONTNEED as u64,
        )?])?],
    );
    denied.insert(
        libc::SYS_madvise,
        [libc::MADV_COLD, libc::MADV_PAGEOUT]
            .into_iter()
            .map(|advice| SeccompRule::new(vec![arg(2, SeccompCmpOp::Eq, advice as u64)?]))
            .collect::<Result<Vec<_>, _>>()?,
    );
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
    if locks == Locks::Denied {
        // flock(fd, operation): every operation (no rule). fcntl(fd, cmd,
        // arg): the lock commands; the kernel reads cmd as an unsigned
        // int, so its low 32 bits.
        denied.insert(libc::SYS_flock, Vec::new());
        denied.insert(
            libc::SYS_fcntl,
            LOCK_COMMANDS
                .iter()
                .map(|&(first, last)| {
                    SeccompRule::new(vec![
                        arg(1, SeccompCmpOp::Ge, first as u64)?,
                        arg(1, SeccompCmpOp::Le, last as u64)?,
                    ])
                })
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
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
    let eperm = Spec {
        calls: denied,
        mismatch: SeccompAction::Allow,
        matched: SeccompAction::Errno(libc::EPERM as u32),
    };
    let allowed = Spec {
        calls: ALLOWED
            .iter()
            .chain(ALLOWED_OLD)
            .chain(READYING)
            .map(|&call| (call, Vec::new()))
            .collect(),
        mismatch: SeccompAction::Errno(libc::ENOSYS as u32),
        matched: SeccompAction::Allow,
    };
    let readying = Spec {
        calls: READYING.iter().map(|&call| (call, Vec::new())).collect(),
        mismatch: SeccompAction::Allow,
        matched: SeccompAction::Errno(libc::EPERM as u32),
    };
    Ok(vec![allowed, eperm, readying])
}

/// One filter's calls, what a listed call gets (when its rules match, or
/// it has none) and what every other call gets: a `SeccompFilter`'s
/// parts, kept so that the filter can be laid out as [`Self::dispatched`]
/// does.
#[derive(Debug, Clone)]
struct Spec {
    calls: BTreeMap<i64, Vec<SeccompRule>>,
    mismatch: SeccompAction,
    matched: SeccompAction,
}

/// Classic BPF opcodes (`linux/bpf_common.h`) of the instructions
/// [`Spec::dispatched`] adds: `BPF_LD | BPF_W | BPF_ABS`, `BPF_JMP |
/// BPF_JA`, `BPF_JMP | BPF_JGE | BPF_K` and `BPF_RET | BPF_K`.
const BPF_LD_W_ABS: u16 = 0x20;
const BPF_JMP_JA: u16 = 0x05;
const BPF_JMP_JGE_K: u16 = 0x35;
const BPF_RET_K: u16 = 0x06;

/// What a range of call numbers gets in [`Spec::dispatched`]'s search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// This return value, whatever the arguments.
    Returns(u32),
    /// The call's own rules: the block of that index.
    Rules(usize),
}

impl Spec {
    /// The filter as seccompiler compiles it: its architecture check, then
    /// each listed call in turn (a comparison of the call number, then the
    /// call's rules), then the default. Kept for the tests, which compare
    /// [`Self::dispatched`] with it.
    #[cfg(test)]
    fn linear(&self, arch: TargetArch) -> Result<BpfProgram, seccompiler::BackendError> {
        SeccompFilter::new(
            self.calls.clone(),
            self.mismatch.clone(),
            self.matched.clone(),
            arch,
        )?
        .try_into()
    }

    /// The same filter, its call number found by a binary search over the
    /// listed numbers instead of a comparison with each in turn. Every
    /// process that attaches a filter pays for the kernel's emulation of
    /// it for every call number of the architecture (the cache of calls it
    /// allows whatever their arguments), and a box's init attaches two
    /// large ones: for call numbers 0 to 511, seccompiler's layout of
    /// the allowlist runs 207,822 instructions and that of the EPERM list
    /// 66,504 (16% of a box's making in a profile), this one 7,081 and
    /// 7,350. The decision for every call is the
    /// same (the tests run both on every call number); the calls that
    /// have rules keep seccompiler's code for them.
    ///
    /// Layout: the architecture check and the load of the call number
    /// (seccompiler's), then the search: a tree of `JGE` over the starts
    /// of the ranges of call numbers that get the same outcome, whose
    /// leaves return that outcome or jump to the call's block of rules;
    /// then the blocks, each the call's own compiled chain less its
    /// opening comparison of the call number (a block is entered only with
    /// its call's number: see [`without_opening`]), ending in the
    /// default's return.
    fn dispatched(&self, arch: TargetArch) -> Result<BpfProgram, seccompiler::BackendError> {
        let matched = u32::from(self.matched.clone());
        let mismatch = u32::from(self.mismatch.clone());
        // The architecture check: seccompiler's, from a filter with no
        // call listed (the check, then the default's return).
        let mut program: BpfProgram = SeccompFilter::new(
            BTreeMap::new(),
            self.mismatch.clone(),
            self.matched.clone(),
            arch,
        )?
        .try_into()?;
        program.pop();
        program.push(stmt(BPF_LD_W_ABS, 0));
        // Each call's block of rules: seccompiler's for a filter of that
        // call alone, less the check and the load before it and the
        // opening comparison of the call number.
        let mut blocks: Vec<BpfProgram> = Vec::new();
        let mut ranges: Vec<(u32, Outcome)> = vec![(0, Outcome::Returns(mismatch))];
        for (&call, rules) in &self.calls {
            // Call numbers are small and positive (seccompiler converts
            // them likewise).
            let number = u32::try_from(call)
                .map_err(|_| seccompiler::BackendError::InvalidArgumentNumber)?;
            let outcome = if rules.is_empty() {
                Outcome::Returns(matched)
            } else {
                let alone: BpfProgram = SeccompFilter::new(
                    BTreeMap::from([(call, rules.clone())]),
                    self.mismatch.clone(),
                    self.matched.clone(),
                    arch,
                )?
                .try_into()?;
                blocks.push(without_opening(&alone[program.len()..], number).to_vec());
                Outcome::Rules(blocks.len() - 1)
            };
            ranges.push((number, outcome));
            ranges.push((number.saturating_add(1), Outcome::Returns(mismatch)));
        }
        // A later start at the same number replaces the range before it
        // (a call right after another); neighbours with the same outcome
        // are one range.
        let mut merged: Vec<(u32, Outcome)> = Vec::new();
        for (start, outcome) in ranges {
            if merged.last().is_some_and(|(s, _)| *s == start) {
                merged.pop();
            }
            if merged.last().is_some_and(|(_, o)| *o == outcome) {
                continue;
            }
            merged.push((start, outcome));
        }
        let search_start = program.len();
        let search_len = tree_len(merged.len());
        let total = search_start + search_len + blocks.iter().map(Vec::len).sum::<usize>();
        // The kernel's limit (BPF_MAXINSNS), which also keeps every jump
        // offset below within a u32.
        if total >= 4096 {
            return Err(seccompiler::BackendError::FilterTooLarge(total));
        }
        let mut block_starts = Vec::new();
        let mut at = search_start + search_len;
        for block in &blocks {
            block_starts.push(at);
            at += block.len();
        }
        emit_tree(&merged, &block_starts, &mut program);
        debug_assert_eq!(program.len(), search_start + search_len);
        for mut block in blocks {
            program.append(&mut block);
        }
        Ok(program)
    }
}

/// A call's chain as seccompiler compiles it, less its opening when that
/// has seccompiler's shape: `JEQ call` (on a match on to the next
/// instruction, else to the one after), `JA 1` (the match: over the
/// next), `JA` past the chain (the mismatch). The search enters a block
/// only with its call's number, so the opening decides nothing, and
/// every jump after it is forward, to an instruction after it: dropped,
/// three instructions fewer for each call with rules (the EPERM filter is
/// mostly such chains). Another shape is kept whole.
fn without_opening(chain: &[sock_filter], number: u32) -> &[sock_filter] {
    const BPF_JMP_JEQ_K: u16 = 0x15;
    match chain {
        [jeq, skip, past, rest @ ..]
            if jeq.code == BPF_JMP_JEQ_K
                && jeq.k == number
                && (jeq.jt, jeq.jf) == (0, 1)
                && skip.code == BPF_JMP_JA
                && skip.k == 1
                && past.code == BPF_JMP_JA =>
        {
            rest
        }
        _ => chain,
    }
}

fn stmt(code: u16, k: u32) -> sock_filter {
    sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

/// Instructions of the search over `n` ranges: a leaf is one instruction
/// (a return, or a jump to a block), a node two (`JGE`, then a jump to
/// its upper half; its lower half follows).
fn tree_len(n: usize) -> usize {
    if n <= 1 {
        1
    } else {
        let half = n / 2;
        2 + tree_len(half) + tree_len(n - half)
    }
}

/// Appends the search over `ranges` (their starts ascending, the first
/// 0) to `program`; a leaf of a call with rules jumps to its block, at
/// `block_starts`. Every jump is forward, as classic BPF requires.
fn emit_tree(ranges: &[(u32, Outcome)], block_starts: &[usize], program: &mut BpfProgram) {
    // JA's offset counts from the instruction after it; the whole filter
    // is shorter than 4096 instructions (checked before).
    let jump_to = |from: usize, to: usize| (to - from - 1) as u32;
    if let [(_, outcome)] = ranges {
        let pc = program.len();
        program.push(match *outcome {
            Outcome::Returns(value) => stmt(BPF_RET_K, value),
            Outcome::Rules(block) => stmt(BPF_JMP_JA, jump_to(pc, block_starts[block])),
        });
        return;
    }
    let half = ranges.len() / 2;
    let (lower, upper) = ranges.split_at(half);
    let pc = program.len();
    // Number >= the upper half's first start: the next instruction, a
    // jump over the lower half; else past it, into the lower half.
    program.push(sock_filter {
        code: BPF_JMP_JGE_K,
        jt: 0,
        jf: 1,
        k: upper[0].0,
    });
    let upper_start = pc + 2 + tree_len(lower.len());
    program.push(stmt(BPF_JMP_JA, jump_to(pc + 1, upper_start)));
    emit_tree(lower, block_starts, program);
    emit_tree(upper, block_starts, program);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `struct seccomp_data` as the kernel lays it out: the call number,
    /// the architecture, the instruction pointer, six arguments.
    fn seccomp_data(nr: u32, arch: u32, args: [u64; 6]) -> [u8; 64] {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&nr.to_ne_bytes());
        data[4..8].copy_from_slice(&arch.to_ne_bytes());
        for (i, arg) in args.iter().enumerate() {
            data[16 + 8 * i..24 + 8 * i].copy_from_slice(&arg.to_ne_bytes());
        }
        data
    }

    /// Runs a classic BPF program as the kernel does, for the
    /// instructions seccompiler and `Spec::dispatched` emit (any other
    /// fails the test); the value returned.
    fn run(program: &[sock_filter], data: &[u8; 64]) -> u32 {
        run_counting(program, data).0
    }

    /// [`run`], and how many instructions it ran.
    fn run_counting(program: &[sock_filter], data: &[u8; 64]) -> (u32, usize) {
        let mut acc: u32 = 0;
        let mut pc = 0usize;
        let mut steps = 0;
        loop {
            steps += 1;
            let insn = &program[pc];
            let k = insn.k;
            let jump = |taken: bool| pc + 1 + usize::from(if taken { insn.jt } else { insn.jf });
            pc = match insn.code {
                // BPF_LD | BPF_W | BPF_ABS
                0x20 => {
                    let at = k as usize;
                    acc = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
                    pc + 1
                }
                // BPF_ALU | BPF_AND | BPF_K
                0x54 => {
                    acc &= k;
                    pc + 1
                }
                0x05 => pc + 1 + k as usize,
                0x15 => jump(acc == k),
                0x25 => jump(acc > k),
                0x35 => jump(acc >= k),
                0x45 => jump(acc & k != 0),
                0x06 => return (k, steps),
                code => panic!("instruction {code:#x} at {pc}"),
            };
            assert!(pc < program.len(), "ran off the end");
        }
    }

    /// Argument values that make the rules' comparisons come out both
    /// ways: the flags, families and types the rules name, around them,
    /// and the extremes.
    fn argument_values() -> Vec<u64> {
        let mut values: Vec<u64> = vec![
            0,
            1,
            2,
            3,
            4,
            5,
            8,
            9,
            10,
            16,
            17,
            20,
            21,
            u64::from(u32::MAX),
            u64::MAX,
        ];
        values.push(1 << 32 | 1);
        for flag in NAMESPACE_FLAGS {
            let flag = *flag as u32 as u64;
            values.extend([flag, flag | 0x11, flag | libc::CLONE_VM as u64]);
        }
        for family in DENIED_FAMILIES {
            values.push(*family as u64);
        }
        for kind in [libc::SOCK_RAW, libc::SOCK_DGRAM, libc::SOCK_STREAM] {
            values.extend([kind as u64, (kind | libc::SOCK_CLOEXEC) as u64]);
        }
        for &(first, last) in LOCK_COMMANDS {
            let (first, last) = (first as u64, last as u64);
            values.extend([first - 1, first, last, last + 1, 1 << 32 | first]);
        }
        values.extend([
            libc::SIGCHLD as u64,
            libc::AF_INET as u64,
            libc::AF_INET6 as u64,
        ]);
        values
    }

    fn specs(also_denied: &[i64]) -> Vec<Spec> {
        // As `build` makes them: the same code, with the specs kept.
        build_specs(also_denied, Sockets::None, Locks::Denied).expect("the specs build")
    }

    #[test]
    fn the_dispatched_filters_decide_every_call_as_seccompilers_do() {
        let Ok(arch) = TargetArch::try_from(std::env::consts::ARCH) else {
            eprintln!("skipped: seccomp filters not built for this architecture");
            return;
        };
        let native = {
            // The value the architecture check compares with.
            let linear = specs(&[])[2].linear(arch).unwrap();
            linear[1].k
        };
        let values = argument_values();
        for (also, sockets, locks) in [
            (&[][..], Sockets::None, Locks::Denied),
            (DENIED_WHEN_PINNED, Sockets::None, Locks::Denied),
            (&[][..], Sockets::Internet, Locks::Allowed),
        ] {
            for spec in build_specs(also, sockets, locks).unwrap() {
                let linear = spec.linear(arch).unwrap();
                let dispatched = spec.dispatched(arch).unwrap();
                assert!(dispatched.len() < 4096);
                let check = |nr: u32, arch: u32, args: [u64; 6]| {
                    let data = seccomp_data(nr, arch, args);
                    assert_eq!(
                        run(&dispatched, &data),
                        run(&linear, &data),
                        "call {nr:#x}, arch {arch:#x}, arguments {args:?}"
                    );
                };
                let numbers = (0..1100).chain(0x4000_0000..0x4000_0000 + 1100).chain([
                    u32::MAX - 1,
                    u32::MAX,
                    0x7fff_ffff,
                    0x8000_0000,
                ]);
                for nr in numbers {
                    check(nr, native, [0; 6]);
                    check(nr, native, [u64::MAX, 7, 1, 0, 0, 0]);
                    check(nr, 0x4000_0003, [0; 6]);
                }
                // The calls with rules, on every pair of interesting
                // first and second arguments.
                for (&call, rules) in &spec.calls {
                    if rules.is_empty() {
                        continue;
                    }
                    for &a in &values {
                        for &b in &values {
                            check(call as u32, native, [a, b, 0, 0, 0, 0]);
                        }
                        // The rules on later arguments (advice, flags).
                        check(call as u32, native, [0, 0, a, a, 0, a]);
                    }
                }
            }
        }
    }

    #[test]
    fn a_dispatched_filter_is_smaller_and_its_search_short() {
        let Ok(arch) = TargetArch::try_from(std::env::consts::ARCH) else {
            return;
        };
        // What the kernel emulates when a filter is attached: the filter
        // run for every call number (up to the first argument it loads).
        let native = specs(&[])[2].linear(arch).unwrap()[1].k;
        let emulated = |program: &[sock_filter]| -> usize {
            (0..512)
                .map(|nr| run_counting(program, &seccomp_data(nr, native, [0; 6])).1)
                .sum()
        };
        for spec in &specs(&[])[..2] {
            let linear = spec.linear(arch).unwrap();
            let dispatched = spec.dispatched(arch).unwrap();
            let (before, after) = (emulated(&linear), emulated(&dispatched));
            eprintln!(
                "{} instructions ({after} run for calls 0 to 511) against seccompiler's {} ({before})",
                dispatched.len(),
                linear.len()
            );
            assert!(dispatched.len() < linear.len());
            assert!(after * 5 < before, "{after} against {before}");
        }
    }

    /// What the kernel answers a call with `filters` loaded in this
    /// order: the action of highest precedence (the lowest as a signed
    /// number) among the filters' answers, the last loaded's on a tie.
    fn kernel_answer(filters: &[BpfProgram], data: &[u8; 64]) -> u32 {
        let action = |ret: u32| (ret & 0xffff_0000) as i32;
        let mut answer = 0x7fff_0000; // SECCOMP_RET_ALLOW
        for filter in filters.iter().rev() {
            let ret = run(filter, data);
            if action(ret) < action(answer) {
                answer = ret;
            }
        }
        answer
    }

    #[test]
    fn a_bots_file_locks_fail_with_eperm_and_its_other_fcntl_commands_pass() {
        let Ok(arch) = TargetArch::try_from(std::env::consts::ARCH) else {
            eprintln!("skipped: seccomp filters not built for this architecture");
            return;
        };
        let native = specs(&[])[2].linear(arch).unwrap()[1].k;
        let (eperm, allow) = (0x0005_0000 | libc::EPERM as u32, 0x7fff_0000);
        let call = |filters: &[BpfProgram], nr: i64, args: [u64; 6]| {
            kernel_answer(filters, &seccomp_data(nr as u32, native, args))
        };
        let fcntl = |cmd: u64| [3, cmd, 0, 0, 0, 0];
        let locks = [
            libc::F_GETLK,
            libc::F_SETLK,
            libc::F_SETLKW,
            libc::F_OFD_GETLK,
            libc::F_OFD_SETLK,
            libc::F_OFD_SETLKW,
            libc::F_SETLEASE,
            libc::F_GETLEASE,
            libc::F_NOTIFY,
        ];
        let others = [
            libc::F_DUPFD,
            libc::F_DUPFD_CLOEXEC,
            libc::F_GETFD,
            libc::F_SETFD,
            libc::F_GETFL,
            libc::F_SETFL,
            libc::F_SETOWN,
            libc::F_GETOWN,
            libc::F_SETPIPE_SZ,
            libc::F_GETPIPE_SZ,
            libc::F_ADD_SEALS,
            libc::F_GET_SEALS,
        ];
        let operations = [libc::LOCK_SH, libc::LOCK_EX, libc::LOCK_UN];
        for bot in [filters().unwrap(), pinned_filters().unwrap()] {
            for op in operations {
                for op in [op, op | libc::LOCK_NB] {
                    let answer = call(bot, libc::SYS_flock, [3, op as u64, 0, 0, 0, 0]);
                    assert_eq!(answer, eperm, "flock({op:#x})");
                }
            }
            for cmd in locks {
                let cmd = cmd as u64;
                assert_eq!(call(bot, libc::SYS_fcntl, fcntl(cmd)), eperm, "fcntl {cmd}");
                // The kernel reads only the low 32 bits of the command.
                let high = fcntl(1 << 32 | cmd);
                assert_eq!(
                    call(bot, libc::SYS_fcntl, high),
                    eperm,
                    "fcntl {cmd} | 1 << 32"
                );
            }
            // And the numbers next to the denied ones, commands or not.
            for cmd in others.into_iter().chain([35, 39, 1023, 1027]) {
                let answer = call(bot, libc::SYS_fcntl, fcntl(cmd as u64));
                assert_eq!(answer, allow, "fcntl {cmd}");
            }
        }
        // A build keeps every lock: cargo locks its caches.
        let build = build_filters().unwrap();
        for op in operations {
            let answer = call(build, libc::SYS_flock, [3, op as u64, 0, 0, 0, 0]);
            assert_eq!(answer, allow, "a build's flock({op:#x})");
        }
        for cmd in locks.into_iter().chain(others) {
            let answer = call(build, libc::SYS_fcntl, fcntl(cmd as u64));
            assert_eq!(answer, allow, "a build's fcntl {cmd}");
        }
    }

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
    /// (`flock`, the JVM's on its performance-data file, stays allowed
    /// for builds; a bot's fails with EPERM, and the JVM goes on without
    /// that file, with a warning where it could make it: docs/sandbox.md.)
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

//! A small seccomp filter: the system calls no bot needs fail with EPERM
//! (the bot is not killed: a runtime that probes for, say, `perf_event_open`
//! carries on).
//!
//! The filters are compiled once, in dojo, with `seccompiler` (the
//! rust-vmm project's BPF compiler, used by Firecracker); the forked
//! child only loads them (see [`crate::sys::contain`]).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

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

/// The compiled filters, in the order to load them: the EPERM list, then
/// `clone3` answered with ENOSYS (its flags sit in memory, out of a
/// filter's reach; C libraries then fall back to `clone`, whose flags the
/// first filter checks). `None` where the architecture is not supported.
pub(crate) fn filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS.get_or_init(|| build(&[]).ok()).as_deref()
}

/// [`filters`] for a pinned bot: `sched_setaffinity` fails with EPERM too.
pub(crate) fn pinned_filters() -> Option<&'static [BpfProgram]> {
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
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )?;
    Ok(vec![eperm.try_into()?, clone3.try_into()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_architecture() {
        match std::env::consts::ARCH {
            "x86_64" | "aarch64" | "riscv64" => {
                let filters = filters().expect("compiled");
                assert_eq!(filters.len(), 2);
                assert!(filters.iter().all(|f| !f.is_empty()));
                let pinned = pinned_filters().expect("compiled");
                // `sched_setaffinity` denied whatever its arguments, not
                // only on PID 1.
                assert_ne!(pinned[0], filters[0]);
            }
            other => eprintln!("skipped: seccomp filters not built for {other}"),
        }
    }
}

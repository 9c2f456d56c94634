//! Which containment layers this machine offers and which a bot process
//! gets. Probed once per process; `dojo doctor` shows the result and a
//! league records the layers that were in force.
//!
//! The layers (see `docs/sandbox.md` for what each stops and what not):
//! - a PID namespace per box (see `crate::bot_box`: made once for a
//!   bot's seat and kept for its next games), whose init starts each of
//!   the bot's processes and kills what one leaves; when the init dies
//!   the kernel kills everything in it, and a bot cannot see or signal
//!   any process outside (other bots, dojo);
//! - a network namespace per bot process: no interface but a down
//!   loopback, so no connection anywhere;
//! - an IPC and a UTS namespace per bot process: System V shared memory,
//!   queues and semaphores of its own, gone with it;
//! - dojo as a child subreaper, sweeping what a bot process leaves behind
//!   when it ends (see `crate::reaper`; needs no privilege);
//! - a minimal root per box (see `crate::root`): a tmpfs `/` holding
//!   only the system, the toolchains, the bot's own directory, build
//!   cache and program (read-only), its scratch directory, its `/proc`
//!   and five devices;
//! - as root, a user and group of each seat's own, owning nothing but its
//!   scratch directory;
//! - resource limits (rlimits) per bot process;
//! - a minimal environment (only `DOJO_*` and PATH/HOME/LANG).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

pub use crate::run_dir::{Leftovers, Scratch, remove_leftovers, scratch_dir, stage_dir};
use crate::seat_users::SeatUser;
use crate::sys::{self, Containment};

/// How much containment a run asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// No namespaces (limits and the clean environment still apply).
    Off,
    /// Every layer this machine supports; the missing ones are reported.
    #[default]
    Auto,
    /// Refuse to run unless every layer is available.
    Strict,
}

impl std::str::FromStr for SandboxMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "off" => Ok(Self::Off),
            "auto" => Ok(Self::Auto),
            "strict" => Ok(Self::Strict),
            other => Err(format!(
                "unknown sandbox mode {other:?}: expected off, auto or strict"
            )),
        }
    }
}

impl std::fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Off => "off",
            Self::Auto => "auto",
            Self::Strict => "strict",
        })
    }
}

/// One layer and whether this machine has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layer {
    /// Short name (`pid-namespace`, `network-namespace`, ...).
    pub name: String,
    /// Whether it can be used here.
    pub available: bool,
    /// What it does, or why it is missing.
    pub detail: String,
}

/// Every layer, probed (once per process) on this machine.
pub fn probe() -> &'static [Layer] {
    static LAYERS: OnceLock<Vec<Layer>> = OnceLock::new();
    LAYERS.get_or_init(|| {
        let mut layers = probe_all();
        skip_layers(
            &mut layers,
            std::env::var("DOJO_SANDBOX_SKIP").ok().as_deref(),
        );
        layers
    })
}

/// Marks the layers named in `skip` (comma-separated, from
/// `DOJO_SANDBOX_SKIP`) as missing: to test the others alone, or to run a
/// bot a layer breaks. `dojo doctor` shows them as skipped.
fn skip_layers(layers: &mut Vec<Layer>, skip: Option<&str>) {
    let Some(skip) = skip else { return };
    let mut unknown = Vec::new();
    for name in skip.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match layers.iter_mut().find(|l| l.name == name) {
            Some(layer) => {
                layer.available = false;
                layer.detail = format!("skipped: DOJO_SANDBOX_SKIP names it ({})", layer.detail);
            }
            None => unknown.push(name.to_string()),
        }
    }
    if !unknown.is_empty() {
        // Not silently ignored: doctor lists it like a missing layer.
        layers.push(Layer {
            name: "DOJO_SANDBOX_SKIP".to_string(),
            available: false,
            detail: format!("names no layer: {}", unknown.join(", ")),
        });
    }
}

fn probe_all() -> Vec<Layer> {
    let user = *USER_NAMESPACE.get_or_init(user_namespace_needed);
    let ns = |name: &str, flag: i32, what: &str| match namespace_probe(flag, user) {
        Ok(how) => Layer {
            name: name.to_string(),
            available: true,
            detail: format!("{what}{how}"),
        },
        Err(e) => Layer {
            name: name.to_string(),
            available: false,
            detail: format!(
                "cannot create one ({e}), neither directly (needs root or CAP_SYS_ADMIN) \
                     nor inside an unprivileged user namespace (the kernel or a security \
                     module forbids them here)"
            ),
        },
    };
    vec![
            ns(
                "pid-namespace",
                sys::NEW_PID,
                "each bot runs in a box of its own, a PID namespace made once for its \
                 seat and kept for its next games, whose init starts each of its \
                 processes and kills everything one leaves before the next starts \
                 (DOJO_BOX=0: a namespace per process, whose init is the bot); a bot \
                 cannot see or signal other processes",
            ),
            ns(
                "network-namespace",
                sys::NEW_NET,
                "each bot process has its own network namespace with no interface up",
            ),
            ns(
                "ipc-namespace",
                sys::NEW_IPC | sys::NEW_UTS,
                "each bot's box has its own System V IPC (shared memory, queues, \
                 semaphores: no meeting another bot there, and the init removes \
                 everything in it when a process ends) and host name",
            ),
            Layer {
                name: "rlimits".to_string(),
                available: cfg!(target_os = "linux"),
                detail: "core dumps off; file size (SIGXFSZ), open files, CPU seconds per \
                         process (SIGXCPU); memory as address space where there is no memory cgroup"
                    .to_string(),
            },
            Layer {
                name: "clean-environment".to_string(),
                available: true,
                detail: "a bot sees only the DOJO_* variables of its seat and PATH, HOME and TMPDIR (its scratch directory), LANG".to_string(),
            },
            subreaper_layer(),
            private_proc_layer(user),
            minimal_root_layer(user),
            seat_user_layer(user),
            cgroup_layer(crate::cgroup::Controller::Pids),
            cgroup_layer(crate::cgroup::Controller::Memory),
            cgroup_layer(crate::cgroup::Controller::Cpu),
            cgroup_layer(crate::cgroup::Controller::CpuShare),
            landlock_layer(),
            landlock_network_layer(),
            seccomp_layer(),
        ]
}

/// Whether namespaces are made inside a new user namespace: when dojo
/// cannot make them directly (not root), or when `DOJO_SANDBOX_USERNS=1`
/// asks for it (to test that path as root).
fn user_namespace_needed() -> bool {
    if std::env::var("DOJO_SANDBOX_USERNS").is_ok_and(|v| v == "1") {
        return true;
    }
    sys::probe_unshare(sys::NEW_PID | sys::NEW_NET).is_err()
}

/// Whether a namespace of kind `flag` can be made, directly or (with
/// `user`) inside a new user namespace; what that adds to the detail.
fn namespace_probe(flag: i32, user: bool) -> std::io::Result<&'static str> {
    if user {
        sys::probe_unshare(flag | sys::NEW_USER)
            .map(|()| " (inside an unprivileged user namespace)")
    } else {
        sys::probe_unshare(flag).map(|()| "")
    }
}

/// Whether bot processes get their namespaces inside a user namespace
/// (decided by [`probe`]).
static USER_NAMESPACE: OnceLock<bool> = OnceLock::new();

fn uses_user_namespace() -> bool {
    probe();
    USER_NAMESPACE.get().copied().unwrap_or(false)
}

/// dojo as a child subreaper, with a sweep when each bot process ends
/// (see [`crate::reaper`]): needs no privilege, so it is on in every mode.
fn subreaper_layer() -> Layer {
    let name = "subreaper".to_string();
    if crate::reaper::supported() {
        Layer {
            name,
            available: true,
            detail: "what a bot leaves behind (setsid, setpgid, double-forked daemons) is \
                     adopted by dojo and killed when the bot process ends, also without \
                     namespaces or cgroups; not after kill -9 of dojo (a PID namespace covers that)"
                .to_string(),
        }
    } else {
        Layer {
            name,
            available: false,
            detail: "the kernel has no child subreapers (Linux 3.4 or later): without a PID \
                     namespace or a cgroup, a bot's escaped descendants outlive its game"
                .to_string(),
        }
    }
}

/// A `/proc` of the bot's own PID namespace (probed by running `true`
/// with it): without it, the host's `/proc` shows every process.
fn private_proc_layer(user: bool) -> Layer {
    let mut plan = Containment {
        unshare_flags: sys::NEW_PID | sys::NEW_NS,
        private_proc: true,
        ..Containment::default()
    };
    if user {
        plan.unshare_flags |= sys::NEW_USER;
        plan.id_maps = sys::IdMaps::current();
    }
    let name = "private-proc".to_string();
    match sys::probe_exec(plan) {
        Ok(()) => Layer {
            name,
            available: true,
            detail: "each bot's /proc shows only its own PID namespace: not the other bots \
                     (their pipes under /proc/PID/fd) nor dojo"
                .to_string(),
        },
        Err(e) => Layer {
            name,
            available: false,
            detail: format!(
                "cannot mount a /proc for a bot's PID namespace ({e}): bots see every \
                 process in the host's /proc (command lines; the environment and pipes of \
                 processes of the same user unless dojo runs as root)"
            ),
        },
    }
}

/// A minimal root per box (probed by running `true` in one, made for a
/// temporary bot directory): see [`crate::root`].
fn minimal_root_layer(user: bool) -> Layer {
    let name = "minimal-root".to_string();
    let tried = (|| {
        let dir = tempfile::tempdir()?;
        let (bot, scratch) = (dir.path().join("bot"), dir.path().join("scratch"));
        std::fs::create_dir(&bot)?;
        std::fs::create_dir(&scratch)?;
        let reach = crate::confine::Reach {
            bot_dir: &bot,
            program: Vec::new(),
            cache: None,
            scratch: &scratch,
            extra_read: &[],
        };
        let root = crate::root::MinimalRoot::new(&reach, true)?;
        let mut plan = Containment {
            unshare_flags: sys::NEW_PID | sys::NEW_NS,
            private_proc: true,
            minimal_root: true,
            root: sys::ForChild(&root),
            ..Containment::default()
        };
        if user {
            plan.unshare_flags |= sys::NEW_USER;
            plan.id_maps = sys::IdMaps::current();
        }
        sys::probe_exec(plan)
    })();
    match tried {
        Ok(()) => Layer {
            name,
            available: true,
            detail: "each box's root is a read-only tmpfs holding only the system \
                     directories, the toolchains on PATH, the bot's own directory, build \
                     cache and program (read-only), its scratch directory, its own /proc and a /dev \
                     of null, zero, full, random and urandom: no host /tmp, /run or \
                     /home, no other bot's files, nothing of its own to chmod"
                .to_string(),
        },
        Err(e) => Layer {
            name,
            available: false,
            detail: format!(
                "cannot pivot a bot into a root of its own ({e}): bots see the host's \
                 tree (Landlock still decides what they may open), and own and may chmod \
                 their files without a seat user"
            ),
        },
    }
}

/// As root: each seat's bot runs as a user of its own (probed by running
/// `true` as one).
fn seat_user_layer(user: bool) -> Layer {
    let name = "seat-user".to_string();
    let missing = |why: String| Layer {
        name: "seat-user".to_string(),
        available: false,
        detail: format!(
            "{why}: bots run as dojo's user, and own (and may chmod) what it owns that \
             Landlock lets them reach"
        ),
    };
    if !rustix::process::geteuid().is_root() {
        return missing("dojo does not run as root".to_string());
    }
    if user {
        return missing("namespaces are made inside a user namespace".to_string());
    }
    let user = match SeatUser::take() {
        Ok(user) => user,
        Err(e) => return missing(format!("no seat user can be had ({e})")),
    };
    let plan = Containment {
        seat_id: user.id(),
        ..Containment::default()
    };
    match sys::probe_exec(plan) {
        Ok(()) => Layer {
            name,
            available: true,
            detail: format!(
                "each seat's bot runs as a user and group of its own (from 2^30 up, none \
                 with a name, blocks of {} locked per dojo process in {}), which owns \
                 nothing but its scratch directory: no chmod, utime or chown of another \
                 bot's files or dojo's",
                crate::seat_users::BLOCK,
                crate::seat_users::LOCK_DIR,
            ),
        },
        Err(e) => missing(format!("a process cannot switch to one ({e})")),
    }
}

/// A control group per bot process with `controller`.
fn cgroup_layer(controller: crate::cgroup::Controller) -> Layer {
    let (name, what) = match controller {
        crate::cgroup::Controller::Pids => (
            "cgroup-pids",
            "--limit-processes caps the processes and threads of each bot process's tree \
             (a fork bomb meets it), and everything in the group is killed at its end",
        ),
        crate::cgroup::Controller::Memory => (
            "cgroup-memory",
            "--limit-memory-mib (default 1024) caps the memory of each bot process's tree \
             as a whole",
        ),
        crate::cgroup::Controller::Cpu => (
            "cgroup-cpu",
            "under --time cpu a bot is charged the CPU time of every process it ever ran, \
             also workers the kernel reaped (SIGCHLD ignored), and a boxed bot's recorded \
             CPU time counts them under --time wall too; --limit-cpu-s holds for the \
             whole tree",
        ),
        crate::cgroup::Controller::CpuShare => (
            "cgroup-cpu-share",
            "each box (each bot process without one) is scheduled as one entity of the \
             default weight, so it gets its share of the CPU however many processes or \
             sessions (setsid) it runs: a bot cannot crowd its opponent out",
        ),
    };
    match crate::cgroup::probe(controller) {
        Ok(dir) => Layer {
            name: name.to_string(),
            available: true,
            detail: format!("{what} (groups under {})", dir.display()),
        },
        Err(why) => Layer {
            name: name.to_string(),
            available: false,
            detail: match controller {
                crate::cgroup::Controller::Pids => {
                    format!("{why}: --limit-processes is not enforced")
                }
                crate::cgroup::Controller::Memory => format!(
                    "{why}: --limit-memory-mib falls back to each process's address space \
                     (RLIMIT_AS); the default cap is not applied"
                ),
                crate::cgroup::Controller::Cpu => format!(
                    "{why}: --time cpu reads each bot's process tree in /proc, which misses \
                     descendants the kernel reaped without their parent waiting; \
                     --limit-cpu-s holds per process only"
                ),
                crate::cgroup::Controller::CpuShare => format!(
                    "{why}: a bot's processes compete for the CPU one by one (each of its \
                     sessions as an autogroup of its own), so one that starts many can starve \
                     its opponent into timeouts, also under --time cpu (whose wall-clock \
                     backstop still ends a move)"
                ),
            },
        },
    }
}

pub fn layer_available(name: &str) -> bool {
    probe().iter().any(|l| l.name == name && l.available)
}

/// Filesystem confinement: probed by running `true` under a ruleset like a
/// bot's (so a kernel that has Landlock but refuses it, for example under a
/// container's seccomp profile, shows as missing).
fn landlock_layer() -> Layer {
    let name = "landlock".to_string();
    let abi = crate::confine::probe_abi();
    if abi <= 0 {
        return Layer {
            name,
            available: false,
            detail: "the kernel has no Landlock (Linux 5.13 or later, with landlock in the \
                     lsm= boot list): bots can read and write whatever the user dojo runs as can"
                .to_string(),
        };
    }
    match probe_confined(true, &[]) {
        Ok(()) => Layer {
            name,
            available: true,
            detail: format!(
                "Landlock ABI {abi}: each bot reads only the system and its own directory and \
                 build cache and writes only its scratch directory{}",
                if abi >= 6 {
                    "; it cannot signal processes outside its sandbox"
                } else {
                    ""
                }
            ),
        },
        Err(e) => Layer {
            name,
            available: false,
            detail: format!("Landlock ABI {abi}, but a confined test process failed: {e}"),
        },
    }
}

/// TCP `bind`/`connect` denied (Landlock ABI 4, Linux 6.7).
fn landlock_network_layer() -> Layer {
    let abi = crate::confine::probe_abi();
    let fs = landlock_layer_available();
    Layer {
        name: "landlock-network".to_string(),
        available: fs && abi >= 4,
        detail: if !fs {
            "needs the landlock layer".to_string()
        } else if abi >= 4 {
            "no TCP bind or connect, also where no network namespace can be made".to_string()
        } else {
            format!("Landlock ABI {abi} has no network rules (ABI 4, Linux 6.7, needed)")
        },
    }
}

fn landlock_layer_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| crate::confine::probe_abi() > 0 && probe_confined(true, &[]).is_ok())
}

/// The system-call filter: probed by running `true` under it.
fn seccomp_layer() -> Layer {
    let name = "seccomp".to_string();
    let Some(filters) = crate::seccomp::filters() else {
        return Layer {
            name,
            available: false,
            detail: format!(
                "no filter for this architecture ({})",
                std::env::consts::ARCH
            ),
        };
    };
    match probe_confined(false, filters) {
        Ok(()) => Layer {
            name,
            available: true,
            detail: "only the calls bots need are allowed, any other answers ENOSYS; \
                     ptrace, mount, kexec, bpf, modules, reboot, swap, perf, keyrings, new \
                     namespaces, inotify, io_uring, AIO contexts (io_setup), every socket \
                     (a build may open Internet ones), the page cache's no-wait reads \
                     and evictions, and file locks, leases and dnotify (flock, fcntl's lock \
                     commands; a build may lock) fail with EPERM; with --pin, \
                     sched_setaffinity too"
                .to_string(),
        },
        Err(e) => Layer {
            name,
            available: false,
            detail: format!("a filtered test process failed: {e}"),
        },
    }
}

/// Runs `true` with a Landlock ruleset (when `landlock`) and `filters`.
fn probe_confined(
    landlock: bool,
    filters: &'static [seccompiler::BpfProgram],
) -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let ruleset = if landlock {
        let reach = crate::confine::Reach {
            bot_dir: dir.path(),
            program: Vec::new(),
            cache: None,
            scratch: dir.path(),
            extra_read: &[],
        };
        crate::confine::ruleset(&reach).map_err(std::io::Error::other)?
    } else {
        None
    };
    let plan = Containment {
        landlock_fd: ruleset.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd),
        seccomp: filters,
        ..Containment::default()
    };
    sys::probe_exec(plan)
}

/// Whether a bot process in a run with `mode` runs as its seat's own user.
pub fn seat_users(mode: SandboxMode) -> bool {
    mode != SandboxMode::Off && layer_available("seat-user")
}

/// Why a run cannot have the containment it asked for.
#[derive(Debug, Clone, thiserror::Error)]
#[error("--sandbox strict: {missing} not available on this machine (see `dojo doctor`)")]
pub struct SandboxError {
    pub missing: String,
}

/// The containment a run had: recorded in a league's `league.json` and
/// `report.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InForce {
    /// `--sandbox` as given.
    pub mode: SandboxMode,
    /// The layers every bot process got (see [`probe`]).
    pub layers: Vec<String>,
}

/// What a run in `mode` gets on this machine (an error in strict mode
/// when a layer is missing).
pub fn in_force(mode: SandboxMode) -> Result<InForce, SandboxError> {
    Ok(InForce {
        mode,
        layers: layers_in_force(mode)?,
    })
}

/// The layers `--sandbox off` turns off (the clean environment, the
/// rlimits, the cgroups and the subreaper always apply).
const SWITCHABLE: &[&str] = &[
    "seat-user",
    "pid-namespace",
    "private-proc",
    "minimal-root",
    "network-namespace",
    "ipc-namespace",
    "landlock",
    "landlock-network",
    "seccomp",
];

/// The names of the layers a run in `mode` has, or an error in strict
/// mode when one is missing. Strict mode needs every layer, except that
/// either a network namespace or Landlock's network rules will do for the
/// network, and the memory cgroup (which falls back to RLIMIT_AS).
pub fn layers_in_force(mode: SandboxMode) -> Result<Vec<String>, SandboxError> {
    let mut on = Vec::new();
    let mut missing = Vec::new();
    for layer in probe() {
        let switchable = SWITCHABLE.contains(&layer.name.as_str());
        if switchable && mode == SandboxMode::Off {
            continue;
        }
        if layer.available {
            on.push(layer.name.clone());
        } else if switchable {
            missing.push(layer.name.clone());
        }
    }
    let network = on
        .iter()
        .any(|l| l == "network-namespace" || l == "landlock-network");
    if network {
        missing.retain(|l| l != "network-namespace" && l != "landlock-network");
    }
    // Seat users need root: without it bots run as dojo's own user,
    // which is not root.
    if !rustix::process::geteuid().is_root() {
        missing.retain(|l| l != "seat-user");
    }
    // The process cap has no fallback (memory falls back to RLIMIT_AS).
    if !layer_available("cgroup-pids") {
        missing.push("cgroup-pids".to_string());
    }
    if mode == SandboxMode::Strict && !missing.is_empty() {
        return Err(SandboxError {
            missing: missing.join(", "),
        });
    }
    Ok(on)
}

/// The containment for one bot process in a run with `mode`.
pub fn plan(mode: SandboxMode, limits: &Limits) -> Containment {
    let mut flags = 0;
    let mut confine_fs = false;
    let mut private_proc = false;
    let mut minimal_root = false;
    let mut seccomp: &'static [seccompiler::BpfProgram] = &[];
    if mode != SandboxMode::Off {
        for layer in probe() {
            match layer.name.as_str() {
                // With a cgroup namespace too, made after the bot joined its
                // groups: its /proc/self/cgroup shows `/`, not the group's
                // name (dojo's pid and the box's number, which differ
                // between a fresh box and a reused one).
                "pid-namespace" if layer.available => flags |= sys::NEW_PID | sys::NEW_CGROUP,
                "private-proc" if layer.available => private_proc = true,
                "minimal-root" if layer.available => minimal_root = true,
                "network-namespace" if layer.available => flags |= sys::NEW_NET,
                "ipc-namespace" if layer.available => flags |= sys::NEW_IPC | sys::NEW_UTS,
                "landlock" if layer.available => confine_fs = true,
                "seccomp" if layer.available => {
                    seccomp = crate::seccomp::filters().unwrap_or_default();
                }
                _ => {}
            }
        }
    }
    let mut rlimits = [None; 8];
    // Memory: for the whole tree through its cgroup where there is one,
    // else per process as address space.
    let memory_group = limits
        .memory_bytes
        .filter(|_| layer_available("cgroup-memory"));
    // The default cap has no address-space fallback (see
    // DEFAULT_MEMORY_MIB).
    let address_space = match (limits.address_space_bytes, memory_group) {
        (Some(bytes), _) => Some(bytes),
        (None, None) => limits
            .memory_bytes
            .filter(|&b| b != mib_bytes(DEFAULT_MEMORY_MIB)),
        (None, Some(_)) => None,
    };
    let group_limits = crate::cgroup::GroupLimits {
        processes: limits.processes.filter(|_| layer_available("cgroup-pids")),
        memory_bytes: memory_group,
        account_cpu: false,
        // The tree's total, besides each process's RLIMIT_CPU.
        cpu_seconds: limits.cpu_seconds.filter(|_| layer_available("cgroup-cpu")),
        // One share of the CPU for the whole tree, in every mode.
        cpu_share: layer_available("cgroup-cpu-share"),
    };
    let values = [
        Some((sys::resource::CORE, 0)),
        limits.file_size_bytes.map(|v| (sys::resource::FSIZE, v)),
        limits.open_files.map(|v| (sys::resource::NOFILE, v)),
        address_space.map(|v| (sys::resource::AS, v)),
        limits.cpu_seconds.map(|v| (sys::resource::CPU, v)),
    ];
    for (slot, value) in rlimits.iter_mut().zip(values) {
        *slot = value;
    }
    // The private /proc needs the PID namespace and a mount namespace.
    private_proc &= flags & sys::NEW_PID != 0;
    // The minimal root needs a mount namespace, which comes only with
    // others (a process with no namespace at all keeps the host's tree).
    minimal_root &= flags != 0;
    if private_proc || minimal_root {
        flags |= sys::NEW_NS;
    }
    if mode != SandboxMode::Off {
        static UNDUMPABLE: std::sync::Once = std::sync::Once::new();
        UNDUMPABLE.call_once(sys::make_undumpable);
    }
    let mut id_maps = Containment::default().id_maps;
    if flags != 0 && uses_user_namespace() {
        flags |= sys::NEW_USER;
        id_maps = sys::IdMaps::current();
    }
    Containment {
        unshare_flags: flags,
        id_maps,
        rlimits,
        confine_fs,
        private_proc,
        minimal_root,
        seccomp,
        group_limits,
        ..Containment::default()
    }
}

/// Resource limits for each bot process (`None`: inherited from dojo;
/// the default sets none). The runner's are its controls' (`dojo_runner`'s
/// `Limits::from(&Controls)`), whose defaults are generous ones no honest
/// bot meets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Bytes of memory of the bot process's whole tree (its cgroup's
    /// limit; where there is none, each process's address space).
    #[serde(default)]
    pub memory_bytes: Option<u64>,
    /// RLIMIT_AS: bytes of address space of each process.
    pub address_space_bytes: Option<u64>,
    /// RLIMIT_CPU: CPU seconds per process (a process over it gets SIGXCPU, then SIGKILL).
    pub cpu_seconds: Option<u64>,
    /// Processes and threads of the bot process's whole tree (its cgroup's
    /// `pids.max`; not enforced where there is no such cgroup).
    pub processes: Option<u64>,
    /// RLIMIT_NOFILE: open descriptors.
    pub open_files: Option<u64>,
    /// RLIMIT_FSIZE: largest file a bot may write (SIGXFSZ beyond).
    pub file_size_bytes: Option<u64>,
}

/// Processes and threads a bot's tree may have unless the organiser says
/// otherwise: far above what a bot needs, far below a fork bomb's reach.
pub const DEFAULT_PROCESSES: u64 = 256;

/// Most MiB a boxed bot may write into its scratch directory: the size
/// of the tmpfs its box mounts there for each game. Its pages count
/// towards the bot's memory cap too (they are charged to its memory
/// group), and no bot's writing reaches the disk the results are on.
pub const SCRATCH_MIB: u64 = 256;

/// Most files and directories in a boxed bot's scratch directory (the
/// tmpfs's inodes).
pub const SCRATCH_INODES: u64 = 16_384;

/// Memory of a bot's tree unless the organiser says otherwise (MiB):
/// without a cap one bot could take the machine's memory from everything
/// else. Applied through the bot's memory cgroup only: as an address-space
/// limit (the fallback for a value the organiser gives) it would stop
/// runtimes that reserve more than they use (V8, the JVM) from starting.
pub const DEFAULT_MEMORY_MIB: u64 = 1024;

/// `mib` MiB in bytes, the unit of the kernel's limits: the flags, a
/// bot's `bot.toml` and reports say MiB.
pub const fn mib_bytes(mib: u64) -> u64 {
    mib.saturating_mul(1 << 20)
}

/// The environment a bot process gets: a minimal PATH/HOME/TMPDIR/LANG
/// plus the seat's `DOJO_*` variables; nothing of dojo's own environment.
/// HOME and TMPDIR are the scratch directory (the bot's directory for a
/// process without one).
pub fn base_env(dir: &std::path::Path, scratch: Option<&std::path::Path>) -> Vec<(String, String)> {
    let home = scratch.unwrap_or(dir);
    let mut env = vec![
        // dojo's own PATH (not a secret, and the bot's interpreter must be
        // found where the organiser's shell finds it).
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".to_string()),
        ),
        ("HOME".to_string(), home.display().to_string()),
        ("LANG".to_string(), "C.UTF-8".to_string()),
    ];
    if let Some(scratch) = scratch {
        env.push(("TMPDIR".to_string(), scratch.display().to_string()));
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/protocols.md`, "Environment", names every variable a bot
    /// gets besides the seat's `DOJO_*` ones, and says HOME and TMPDIR
    /// are its scratch directory (it said HOME was its directory, and
    /// left TMPDIR out).
    #[test]
    fn the_protocols_environment_is_the_one_a_bot_gets() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocols.md");
        let text = std::fs::read_to_string(file).expect("docs/protocols.md");
        let section = text
            .split("## Environment")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("an Environment section");
        let besides = section
            .split("and besides these only")
            .nth(1)
            .and_then(|s| s.split("nothing else").next())
            .expect("the variables besides DOJO_*");
        let mut named: Vec<&str> = besides
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| w.chars().all(|c| c.is_ascii_uppercase()))
            .collect();
        named.sort_unstable();
        let scratch = std::path::Path::new("/scratch");
        let env = base_env(std::path::Path::new("/bot"), Some(scratch));
        let mut given: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        given.sort_unstable();
        assert_eq!(named, given, "{besides}");
        for (key, value) in &env {
            if key == "HOME" || key == "TMPDIR" {
                assert_eq!(value, "/scratch");
            }
        }
        let said = besides.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            said.contains("`HOME` and `TMPDIR` (both the bot's scratch directory"),
            "{said}"
        );
    }

    fn layer(name: &str) -> Layer {
        Layer {
            name: name.to_string(),
            available: true,
            detail: "what it does".to_string(),
        }
    }

    #[test]
    fn skipped_layers_are_named_missing_and_an_unknown_name_is_listed() {
        let mut layers = vec![layer("seccomp"), layer("subreaper"), layer("landlock")];
        skip_layers(&mut layers, Some(" subreaper,seccomp,, nonsense "));
        let available: Vec<bool> = layers.iter().map(|l| l.available).collect();
        assert_eq!(available, [false, false, true, false]);
        assert!(
            layers[0]
                .detail
                .starts_with("skipped: DOJO_SANDBOX_SKIP names it")
        );
        assert_eq!(layers[3].name, "DOJO_SANDBOX_SKIP");
        assert_eq!(layers[3].detail, "names no layer: nonsense");
    }

    #[test]
    fn every_mode_keeps_the_subreaper() {
        for mode in [SandboxMode::Off, SandboxMode::Auto] {
            let on = layers_in_force(mode).expect("off and auto never refuse");
            assert_eq!(
                on.iter().any(|l| l == "subreaper"),
                layer_available("subreaper"),
                "{mode}: {on:?}"
            );
        }
    }
}

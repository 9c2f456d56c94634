//! Which containment layers this machine offers and which a bot process
//! gets. Probed once per process; `dojo doctor` shows the result and a
//! league records the layers that were in force.
//!
//! The layers (see `docs/sandbox.md` for what each stops and what not):
//! - a PID namespace per bot process, whose init is the bot: when it dies
//!   the kernel kills everything it started, and it cannot see or signal
//!   any process outside (other bots, dojo);
//! - a network namespace per bot process: no interface but a down
//!   loopback, so no connection anywhere;
//! - resource limits (rlimits) per bot process;
//! - a minimal environment (only `DOJO_*` and PATH/HOME/LANG).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

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
        let ns = |name: &str, flag: i32, what: &str| match sys::probe_unshare(flag) {
            Ok(()) => Layer {
                name: name.to_string(),
                available: true,
                detail: what.to_string(),
            },
            Err(e) => Layer {
                name: name.to_string(),
                available: false,
                detail: format!(
                    "cannot create one ({e}); needs root or CAP_SYS_ADMIN \
                     (dojo does not yet fall back to an unprivileged user namespace)"
                ),
            },
        };
        vec![
            ns(
                "pid-namespace",
                sys::NEW_PID,
                "each bot process is init of its own PID namespace: everything it \
                 starts dies with it, and it cannot see or signal other processes",
            ),
            ns(
                "network-namespace",
                sys::NEW_NET,
                "each bot process has its own network namespace with no interface up",
            ),
            Layer {
                name: "rlimits".to_string(),
                available: cfg!(target_os = "linux"),
                detail: "core dumps off, file size, open files, and the memory and CPU limits \
                         the organiser sets with --limit-* (not yet per bot in bot.toml)"
                    .to_string(),
            },
            Layer {
                name: "clean-environment".to_string(),
                available: true,
                detail: "a bot sees only the DOJO_* variables of its seat and PATH, HOME (its directory), LANG".to_string(),
            },
            Layer {
                name: "landlock".to_string(),
                available: false,
                detail: "filesystem confinement is not implemented yet".to_string(),
            },
            Layer {
                name: "seccomp".to_string(),
                available: false,
                detail: "the system-call filter is not implemented yet".to_string(),
            },
        ]
    })
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

/// The layers that are implemented and enforced when available; strict
/// mode insists on these (not on the ones not yet built).
const ENFORCEABLE: &[&str] = &["pid-namespace", "network-namespace"];

/// The names of the layers a run in `mode` has, or an error in strict
/// mode when one is missing.
pub fn layers_in_force(mode: SandboxMode) -> Result<Vec<String>, SandboxError> {
    let mut on = Vec::new();
    for layer in probe() {
        let namespace = ENFORCEABLE.contains(&layer.name.as_str());
        if namespace && mode == SandboxMode::Off {
            continue;
        }
        if layer.available {
            on.push(layer.name.clone());
        } else if namespace && mode == SandboxMode::Strict {
            return Err(SandboxError {
                missing: layer.name.clone(),
            });
        }
    }
    Ok(on)
}

/// The containment for one bot process in a run with `mode`.
pub(crate) fn plan(mode: SandboxMode, limits: &Limits) -> Containment {
    let mut flags = 0;
    if mode != SandboxMode::Off {
        for layer in probe() {
            match layer.name.as_str() {
                "pid-namespace" if layer.available => flags |= sys::NEW_PID,
                "network-namespace" if layer.available => flags |= sys::NEW_NET,
                _ => {}
            }
        }
    }
    let mut rlimits = [None; 8];
    let values = [
        Some((sys::resource::CORE, 0)),
        limits.file_size_bytes.map(|v| (sys::resource::FSIZE, v)),
        limits.open_files.map(|v| (sys::resource::NOFILE, v)),
        limits.address_space_bytes.map(|v| (sys::resource::AS, v)),
        limits.cpu_seconds.map(|v| (sys::resource::CPU, v)),
        limits.processes.map(|v| (sys::resource::NPROC, v)),
    ];
    for (slot, value) in rlimits.iter_mut().zip(values) {
        *slot = value;
    }
    Containment {
        unshare_flags: flags,
        rlimits,
    }
}

/// Resource limits for each bot process (`None`: inherited from dojo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// RLIMIT_AS: bytes of address space.
    pub address_space_bytes: Option<u64>,
    /// RLIMIT_CPU: CPU seconds per process (a process over it gets SIGXCPU, then SIGKILL).
    pub cpu_seconds: Option<u64>,
    /// RLIMIT_NPROC: processes/threads of the user (not enforced for root).
    pub processes: Option<u64>,
    /// RLIMIT_NOFILE: open descriptors.
    pub open_files: Option<u64>,
    /// RLIMIT_FSIZE: largest file a bot may write (SIGXFSZ beyond).
    pub file_size_bytes: Option<u64>,
}

impl Default for Limits {
    /// Generous defaults that no honest bot meets: 1024 descriptors, 64 MiB
    /// files. Memory, CPU and processes stay inherited unless set.
    fn default() -> Self {
        Self {
            address_space_bytes: None,
            cpu_seconds: None,
            processes: None,
            open_files: Some(1024),
            file_size_bytes: Some(64 << 20),
        }
    }
}

/// The environment a bot process gets: a minimal PATH/HOME/LANG plus the
/// seat's `DOJO_*` variables; nothing of dojo's own environment.
pub(crate) fn base_env(home: &std::path::Path) -> Vec<(String, String)> {
    vec![
        // dojo's own PATH (not a secret, and the bot's interpreter must be
        // found where the organiser's shell finds it).
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".to_string()),
        ),
        ("HOME".to_string(), home.display().to_string()),
        ("LANG".to_string(), "C.UTF-8".to_string()),
    ]
}

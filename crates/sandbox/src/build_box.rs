//! The confinement of a bot's build step: what `BotSpec::build_with`
//! runs it under. A build is a stranger's program too (a `bot.toml`'s
//! `build` line), run once before the games, so it gets the bot
//! processes' layers where a build can live with them:
//!
//! - its own PID, IPC and UTS namespaces (and a `/proc` of its own), as
//!   before: nothing it starts outlives it;
//! - a clean environment: PATH, HOME and TMPDIR (a scratch directory of
//!   its own, removed after it), LANG, `DOJO_CACHE`, and the toolchain
//!   variables of [`TOOLCHAIN_VARS`]; nothing else of dojo's;
//! - Landlock: it writes only its own directory, its build cache, its
//!   scratch directory and the download caches of cargo's home; it reads
//!   the system, the toolchains, those, and (the one read gap) the Cargo
//!   workspace its directory lies in, if any;
//! - where the `minimal-root` layer is on, the host's mounts read-only
//!   but those places (as dojo's user, root as root, it owns the host's
//!   files, and Landlock does not cover their modes, times or owners:
//!   `chmod` of `/etc/shadow` or of a neighbour's program meets `EROFS`);
//!   what others may not read under `/etc`, `/opt` and `/usr/local/etc`
//!   hidden (it would read `/etc/shadow` by its owner's bits); and cargo's
//!   `registry` and `git` seen through overlays of its own, the host's
//!   read-only below them (a build that changed an unpacked crate there
//!   changed what every later build compiles, the host's own included);
//! - the bot processes' seccomp filter, but for Internet sockets, which
//!   a build may open ([`crate::seccomp::build_filters`]);
//! - control groups with build-sized limits ([`BUILD_PROCESSES`],
//!   [`BUILD_MEMORY_MIB`]);
//! - the network unless `--build-network off`, which gives it a network
//!   namespace of its own (only a loopback, down), else Landlock's TCP
//!   rules, else refuses to run it.
//!
//! Every layer is used where the machine has it (as `--sandbox auto`;
//! `DOJO_SANDBOX_SKIP` skips layers for builds too), whatever the run's
//! `--sandbox`: a build is confined before the games' mode matters.

use std::path::{Path, PathBuf};

use crate::plan::{Limits, SandboxMode, layer_available};
use crate::sys::{self, Containment};

/// Whether a build may use the network (`--build-network`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BuildNetwork {
    /// The host's network: builds fetch their dependencies.
    #[default]
    On,
    /// No network at all: a network namespace of the build's own, else
    /// Landlock's TCP rules, else the build is refused.
    Off,
}

impl std::str::FromStr for BuildNetwork {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "on" => Ok(Self::On),
            "off" => Ok(Self::Off),
            other => Err(format!(
                "unknown build network setting {other:?}: expected on or off"
            )),
        }
    }
}

impl std::fmt::Display for BuildNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::On => "on",
            Self::Off => "off",
        })
    }
}

/// What a confined build may read, in words for its users: a build's
/// error quotes it when the build was denied a file
/// (`dojo_runner::BuildError`). It must say what the Landlock rules and
/// the sealed view above give a build.
pub const READS: &str = "the system (what others may read), the toolchains on PATH and in \
CARGO_HOME and RUSTUP_HOME, the bot's own directory and build cache, and the Cargo workspace \
its directory lies in, if any";

/// Processes and threads of a build's whole tree: `cargo` runs a `rustc`
/// per core, each with its threads, and a linker.
pub const BUILD_PROCESSES: u64 = 1024;

/// Memory of a build's whole tree (MiB), through its memory cgroup only
/// (as an address-space limit it would stop compilers that reserve more
/// than they use).
pub const BUILD_MEMORY_MIB: u64 = 8192;

/// Variables of dojo's environment a build gets as they are: where the
/// toolchains live and which one to use (paths and names, no secrets).
/// `CARGO_HOME` and `RUSTUP_HOME` are set to dojo's defaults
/// (`$HOME/.cargo`, `$HOME/.rustup`) when dojo's environment does not
/// name them, since the build's HOME is its scratch directory.
pub const TOOLCHAIN_VARS: &[&str] = &[
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "JAVA_HOME",
    "GOROOT",
];

/// How `--build-network off` takes the network away on this machine: by
/// a network namespace, else by Landlock's TCP rules; `None`: it cannot,
/// and a build without the network is refused.
pub fn build_network_off_by() -> Option<&'static str> {
    if layer_available("network-namespace") {
        Some("a network namespace of the build's own")
    } else if layer_available("landlock-network") {
        Some("Landlock's TCP rules")
    } else {
        None
    }
}

/// What confining one build needs, made before its spawn: kept until the
/// build has ended (the scratch directory is removed when this is
/// dropped; the ruleset's descriptor must outlive the spawn).
#[derive(Debug)]
pub struct BuildBox {
    pub containment: Containment,
    pub env: Vec<(String, String)>,
    scratch: crate::plan::Scratch,
    _ruleset: Option<std::os::fd::OwnedFd>,
    /// What `containment.sealed_host` points to (boxed, so it stays put).
    _sealed: Option<Box<crate::sys::root::SealedHost>>,
    /// The work directories of its cargo overlays (see [`Drop`]).
    overlay_works: Vec<PathBuf>,
}

impl Drop for BuildBox {
    /// overlayfs leaves a `work` directory of mode 000 in each work
    /// directory: opened to its owner again, so that the user who runs
    /// dojo can remove a build cache without root.
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        for work in &self.overlay_works {
            let inner = work.join("work");
            let _ = std::fs::set_permissions(inner, std::fs::Permissions::from_mode(0o700));
        }
    }
}

impl BuildBox {
    /// The build's HOME and TMPDIR.
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }
}

/// The limits of a build's tree (see [`BUILD_PROCESSES`],
/// [`BUILD_MEMORY_MIB`]); files, file sizes and CPU time are left as
/// dojo's (the build's time limit bounds it).
fn build_limits() -> Limits {
    Limits {
        memory_bytes: layer_available("cgroup-memory")
            .then_some(crate::plan::mib_bytes(BUILD_MEMORY_MIB)),
        address_space_bytes: None,
        cpu_seconds: None,
        processes: Some(BUILD_PROCESSES),
        open_files: None,
        file_size_bytes: None,
    }
}

/// The confinement of the build of the bot in `dir` named `bot`, whose
/// cache is `cache` (made here if missing). An error says why the build
/// cannot run as asked (`--build-network off` with no way to enforce it,
/// a cache or scratch directory that cannot be made).
pub fn prepare(
    bot: &str,
    dir: &Path,
    cache: &Path,
    network: BuildNetwork,
) -> Result<BuildBox, String> {
    let mut containment = crate::plan::plan(SandboxMode::Auto, &build_limits());
    // The bot processes' namespaces, but the network's only when asked:
    // `plan` adds it wherever it can be made.
    let keep =
        sys::NEW_PID | sys::NEW_USER | sys::NEW_IPC | sys::NEW_UTS | sys::NEW_NS | sys::NEW_CGROUP;
    let net_namespace = containment.unshare_flags & sys::NEW_NET != 0;
    containment.unshare_flags &= keep;
    let deny_tcp = match network {
        BuildNetwork::On => false,
        BuildNetwork::Off if net_namespace => {
            containment.unshare_flags |= sys::NEW_NET;
            false
        }
        BuildNetwork::Off if layer_available("landlock-network") => true,
        BuildNetwork::Off => {
            return Err(
                "--build-network off: this machine can make neither a network namespace nor \
                 Landlock's network rules (see `dojo doctor`), so the build would have the \
                 network; refusing to run it"
                    .to_string(),
            );
        }
    };
    // The ruleset is made here, not by the spawn (which makes a bot's);
    // and no minimal root: a build writes into its cache and reads its
    // workspace, which a bot's root does not hold. Where the layer is on,
    // the host is sealed instead (below).
    let seal = containment.minimal_root && containment.unshare_flags & sys::NEW_NS != 0;
    if !containment.seccomp.is_empty() {
        containment.seccomp = crate::seccomp::build_filters().unwrap_or_default();
    }
    containment.confine_fs = false;
    containment.minimal_root = false;
    std::fs::create_dir_all(cache)
        .map_err(|e| format!("cannot make its build cache {}: {e}", cache.display()))?;
    let scratch = crate::plan::scratch_dir(&format!("build-{bot}"), false)
        .map_err(|e| format!("cannot make its build scratch directory: {e}"))?;
    let env = environment(dir, scratch.path(), cache);
    let reach = reach(dir, scratch.path(), cache, &env);
    // In its mount namespace every mount is read-only but where it
    // writes: as dojo's user (root, as root) it owns the host's files, and
    // Landlock does not cover their modes, times or owners. What others
    // may not read is hidden (it would read it by its owner's bits), and
    // cargo's download caches are its own overlays (a build that wrote
    // into the shared ones changed the sources every later build
    // compiles, the host's own included).
    let overlays = if seal {
        cargo_overlays(&reach.cargo_caches, cache)
    } else {
        Vec::new()
    };
    let sealed = seal
        .then(|| {
            for o in &overlays {
                std::fs::create_dir_all(&o.upper)?;
                std::fs::create_dir_all(&o.work)?;
            }
            let writable: Vec<PathBuf> = (reach.write.iter())
                .filter(|p| !reach.cargo_caches.contains(p))
                .cloned()
                .collect();
            let hidden = crate::sys::root::unreadable_by_others(&HIDDEN_UNDER.map(Path::new));
            crate::sys::root::SealedHost::new(&writable, dir, &hidden, &overlays).map(Box::new)
        })
        .transpose()
        .map_err(|e| format!("cannot seal the host for its build: {e}"))?;
    if let Some(host) = &sealed {
        containment.sealed_host = sys::ForChild(&**host);
    }
    let ruleset = if layer_available("landlock") {
        let made = crate::confine::build_ruleset(&crate::confine::BuildReach {
            read: &reach.read,
            write: &reach.write,
            deny_tcp,
        })
        .map_err(|e| e.to_string())?;
        if let Some(fd) = &made {
            containment.landlock_fd = std::os::fd::AsRawFd::as_raw_fd(fd);
        }
        made
    } else {
        None
    };
    Ok(BuildBox {
        containment,
        env,
        scratch,
        _ruleset: ruleset,
        _sealed: sealed,
        overlay_works: overlays.into_iter().map(|o| o.work).collect(),
    })
}

/// The build's whole environment: the bot processes' base (PATH, HOME and
/// TMPDIR its scratch directory, LANG), `DOJO_CACHE`, and the toolchain
/// variables.
fn environment(dir: &Path, scratch: &Path, cache: &Path) -> Vec<(String, String)> {
    let mut env = crate::plan::base_env(dir, Some(scratch));
    env.push(("DOJO_CACHE".to_string(), cache.display().to_string()));
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    for name in TOOLCHAIN_VARS {
        let value = std::env::var_os(name).map(PathBuf::from).or_else(|| {
            // The toolchains' default homes, under dojo's HOME (the
            // build's HOME is elsewhere).
            let default = match *name {
                "CARGO_HOME" => ".cargo",
                "RUSTUP_HOME" => ".rustup",
                _ => return None,
            };
            home.as_ref()
                .map(|h| h.join(default))
                .filter(|p| p.is_dir())
        });
        if let Some(value) = value {
            env.push((name.to_string(), value.display().to_string()));
        }
    }
    env
}

/// What a build reads and writes beyond the system and the toolchains on
/// PATH.
#[derive(Debug, Default, PartialEq, Eq)]
struct Reach {
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    /// Of `write`: cargo's download caches (`registry`, `git`), which a
    /// sealed build sees through overlays of its own.
    cargo_caches: Vec<PathBuf>,
}

/// Where a sealed build's view hides what others may not read: the system
/// directories that hold configuration and secrets. (`/usr` holds nearly
/// none and takes seconds to walk; `/etc` takes milliseconds.)
const HIDDEN_UNDER: [&str; 3] = ["/etc", "/opt", "/usr/local/etc"];

/// Cargo's download caches that a build sees as overlays of its own: the
/// host's, read-only, under directories in the bot's build cache, where
/// what it downloads or unpacks (or changes) stays.
const CARGO_OVERLAID: &[&str] = &["registry", "git"];

/// The directory of a bot's build cache that holds the upper layers of its
/// overlays over cargo's download caches (`cargo_overlays`): what its
/// builds downloaded, not what they built.
pub const CARGO_OVERLAYS: &str = ".cargo-home";

/// The overlays over `caches` (cargo's `registry` and `git`) for the build
/// whose cache is `cache`: upper and work directories under
/// `cache/.cargo-home/NAME/`.
fn cargo_overlays(caches: &[PathBuf], cache: &Path) -> Vec<crate::sys::root::Overlay> {
    caches
        .iter()
        .filter_map(|lower| {
            let name = lower.file_name()?;
            let own = cache.join(CARGO_OVERLAYS).join(name);
            Some(crate::sys::root::Overlay {
                lower: lower.clone(),
                upper: own.join("upper"),
                work: own.join("work"),
            })
        })
        .collect()
}

/// Cargo's download caches under `CARGO_HOME` (the crates and git
/// checkouts a build fetches) and the lock and index files cargo keeps at
/// its top: writable. The rest of `CARGO_HOME` (its `bin`, where `cargo`
/// itself lives; `config.toml`) is read only, and `credentials*` not even
/// that.
const CARGO_WRITES: &[&str] = &[
    "registry",
    "git",
    ".package-cache",
    ".package-cache-mutate",
    ".global-cache",
];

fn reach(dir: &Path, scratch: &Path, cache: &Path, env: &[(String, String)]) -> Reach {
    let var = |name: &str| {
        env.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| PathBuf::from(v))
    };
    let mut reach = Reach {
        read: Vec::new(),
        write: vec![
            dir.to_path_buf(),
            cache.to_path_buf(),
            scratch.to_path_buf(),
        ],
        cargo_caches: Vec::new(),
    };
    if let Some(cargo) = var("CARGO_HOME") {
        for entry in std::fs::read_dir(&cargo).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if CARGO_WRITES.contains(&name.as_ref()) {
                reach.write.push(entry.path());
                if CARGO_OVERLAID.contains(&name.as_ref()) && entry.path().is_dir() {
                    reach.cargo_caches.push(entry.path());
                }
            } else if !name.starts_with("credentials") {
                reach.read.push(entry.path());
            }
        }
    }
    for name in ["RUSTUP_HOME", "JAVA_HOME", "GOROOT"] {
        reach.read.extend(var(name).filter(|p| p.exists()));
    }
    reach.read.extend(workspace_above(dir));
    reach
}

/// The Cargo workspace `dir` lies in, when its root is above `dir`: the
/// nearest directory above it whose `Cargo.toml` declares `[workspace]`.
/// A member of a workspace (the bundled Rust bots are members of dojo's)
/// builds against the workspace's manifest, lock file and other members,
/// so it must read them. That tree is the organiser's, never a
/// submission's (a submission writes nothing above its own directory), but
/// it holds whatever else lies there (other bots, `results/`): read only.
fn workspace_above(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().skip(1).find_map(|above| {
        let text = std::fs::read_to_string(above.join("Cargo.toml")).ok()?;
        text.lines()
            .any(|line| line.trim() == "[workspace]")
            .then(|| above.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_setting_reads_on_and_off_only() {
        assert_eq!("on".parse(), Ok(BuildNetwork::On));
        assert_eq!("off".parse(), Ok(BuildNetwork::Off));
        let err = "no".parse::<BuildNetwork>().unwrap_err();
        assert!(err.contains("expected on or off"), "{err}");
        assert_eq!(BuildNetwork::Off.to_string(), "off");
    }

    #[test]
    fn a_workspace_member_reads_its_workspace_and_nothing_else_above() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nmembers = [\"bots/a\"]\n",
        )
        .unwrap();
        let member = root.join("bots/a");
        std::fs::create_dir_all(&member).unwrap();
        std::fs::write(member.join("Cargo.toml"), "[package]\nname = \"a\"\n").unwrap();
        assert_eq!(workspace_above(&member), Some(root.to_path_buf()));
        // A directory whose own Cargo.toml is a workspace does not open
        // anything above it.
        let alone = tempfile::tempdir().unwrap();
        std::fs::write(alone.path().join("Cargo.toml"), "[workspace]\n").unwrap();
        assert_eq!(workspace_above(alone.path()), None);
    }

    #[test]
    fn cargo_homes_caches_are_writable_its_programs_and_credentials_not() {
        let tmp = tempfile::tempdir().unwrap();
        let cargo = tmp.path().join("cargo");
        for d in ["bin", "registry", "git"] {
            std::fs::create_dir_all(cargo.join(d)).unwrap();
        }
        for f in ["credentials.toml", ".package-cache", "config.toml"] {
            std::fs::write(cargo.join(f), "").unwrap();
        }
        let env = vec![("CARGO_HOME".to_string(), cargo.display().to_string())];
        let dir = tmp.path().join("bot");
        let got = reach(&dir, Path::new("/s"), Path::new("/c"), &env);
        let mut write = got.write.clone();
        write.sort();
        let mut expected = vec![
            dir.clone(),
            PathBuf::from("/c"),
            PathBuf::from("/s"),
            cargo.join(".package-cache"),
            cargo.join("git"),
            cargo.join("registry"),
        ];
        expected.sort();
        assert_eq!(write, expected);
        assert!(got.read.contains(&cargo.join("bin")));
        assert!(got.read.contains(&cargo.join("config.toml")));
        assert!(!got.read.iter().any(|p| p.ends_with("credentials.toml")));
        // Its download caches, seen through overlays of its own where
        // the host is sealed: their upper layers in the bot's cache.
        let mut caches = got.cargo_caches.clone();
        caches.sort();
        assert_eq!(caches, [cargo.join("git"), cargo.join("registry")]);
        let overlays = cargo_overlays(&caches, Path::new("/c"));
        assert_eq!(overlays[1].lower, cargo.join("registry"));
        assert_eq!(
            overlays[1].upper,
            Path::new("/c/.cargo-home/registry/upper")
        );
        assert_eq!(overlays[1].work, Path::new("/c/.cargo-home/registry/work"));
    }

    #[test]
    fn a_build_gets_its_cgroup_caps_and_no_address_space_or_file_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bot");
        std::fs::create_dir(&dir).unwrap();
        let cache = tmp.path().join("cache");
        let made = prepare("unit", &dir, &cache, BuildNetwork::On).expect("prepared");
        assert!(cache.is_dir(), "the cache is made before the build");
        let c = made.containment;
        // An address-space limit would stop compilers that reserve more
        // than they use; a file-size limit, large artefacts.
        let limited: Vec<i32> = c.rlimits.iter().flatten().map(|(r, _)| *r).collect();
        assert!(!limited.contains(&sys::resource::AS), "{limited:?}");
        assert!(!limited.contains(&sys::resource::FSIZE), "{limited:?}");
        assert_eq!(
            c.group_limits.processes,
            layer_available("cgroup-pids").then_some(BUILD_PROCESSES)
        );
        // The network stays unless asked: no network namespace.
        assert_eq!(c.unshare_flags & sys::NEW_NET, 0);
        assert!(!c.confine_fs, "the build's own ruleset, not a bot's");
        assert!(
            !c.minimal_root,
            "a build reads its workspace and writes its cache"
        );
        assert_eq!(c.landlock_fd >= 0, layer_available("landlock"));
        let scratch = made.scratch().to_path_buf();
        assert!(scratch.is_dir());
        drop(made);
        assert!(
            !scratch.exists(),
            "the scratch directory goes with the build"
        );
    }

    #[test]
    fn the_environment_is_the_base_the_cache_and_the_toolchains_only() {
        let env = environment(Path::new("/b"), Path::new("/s"), Path::new("/c"));
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        for name in &names {
            assert!(
                ["PATH", "HOME", "LANG", "TMPDIR", "DOJO_CACHE"].contains(name)
                    || TOOLCHAIN_VARS.contains(name),
                "{name}"
            );
        }
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("HOME"), Some("/s"));
        assert_eq!(get("TMPDIR"), Some("/s"));
        assert_eq!(get("DOJO_CACHE"), Some("/c"));
    }
}

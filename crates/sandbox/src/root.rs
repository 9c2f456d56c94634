//! A bot's minimal root: in the bot's own mount namespace, a tmpfs that
//! becomes its `/` (by `pivot_root`, the host's root detached), holding
//! only what the Landlock rules let it read ([`crate::confine::Reach`],
//! one definition for both):
//! - the system directories ([`crate::confine::SYSTEM_DIRS`]) and the
//!   toolchains on PATH, bound read-only at their own paths (a symbolic
//!   link such as `/bin -> usr/bin` is made again as a link);
//! - the bot's own directory, its own build cache (a bot with a
//!   manifest) and the files its command names outside them, read-only,
//!   at their real (symlink-resolved) paths;
//! - its scratch directory, writable, at its own path (HOME and TMPDIR);
//! - a `/proc` of its own PID namespace (the host's, bound, without one);
//! - a read-only `/dev` holding `null`, `zero`, `full`, `random` and
//!   `urandom` (the host's nodes, bound), the `fd`, `stdin`, `stdout` and
//!   `stderr` links, and an empty `shm`;
//! - an empty `/tmp`.
//!
//! Nothing else of the host exists there: no `/run` or `/var/run` (no
//! host socket to connect to), no host `/tmp`, no `/home`, no other bot's
//! directory, no results. Everything but the scratch directory is
//! read-only, so a bot owning its files (no seat user: dojo's user, or a
//! user namespace) still cannot chmod, rename or write them, nor anything
//! of another bot, which is not there at all. The root itself, `/dev`
//! and `/tmp` are read-only too: what a bot writes goes to its scratch
//! directory, which is emptied between games (a writable tmpfs would
//! carry files from one game to the next in a box that is kept).
//!
//! Built in dojo before the fork ([`MinimalRoot::new`]: every path as a
//! C string, every step decided), then made in the forked child by
//! `enter` (in `sys::root`, with the crate's other raw calls) with
//! async-signal-safe system calls only. A box makes it
//! once, for all its processes and games. What every root of a dojo
//! process holds alike (the system directories, the toolchains at their
//! real paths) is resolved once per process (`SystemPart`). The child
//! makes every directory, file and link first, then binds the read-only
//! parts and seals them all with one recursive `mount_setattr` over the
//! root (read-only, no set-uid, no devices), and mounts what must stay
//! otherwise after that: the devices, the private `/proc`, the scratch
//! directory.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::path::{Path, PathBuf};

pub use crate::sys::root::MinimalRoot;
use crate::sys::root::{Bind, Step};

/// Why a root cannot be built.
fn invalid(path: &Path, why: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("minimal root: {}: {why}", path.display()),
    )
}

fn c_path(path: &Path) -> std::io::Result<CString> {
    CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| invalid(path, "contains a NUL byte"))
}

/// What every root this process makes holds alike, resolved once (see
/// [`SystemPart::get`]): the system directories ([`SYSTEM_DIRS`]) that
/// are symbolic links, with their targets, and what is bound read-only
/// at its real path: the system directories that are directories and the
/// toolchains on PATH ([`crate::confine::toolchains`]), each with whether
/// it is a directory.
///
/// [`SYSTEM_DIRS`]: crate::confine::SYSTEM_DIRS
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SystemPart {
    links: Vec<(PathBuf, PathBuf)>,
    binds: Vec<(PathBuf, bool)>,
}

impl SystemPart {
    /// Resolved now: a `readlink` and a `stat` for each system directory,
    /// and a `canonicalize` (a `readlink` for every component) and a
    /// `stat` for each toolchain entry. One that is gone is left out, as
    /// Landlock leaves it out.
    pub(crate) fn resolve() -> Self {
        let mut links = Vec::new();
        let mut binds = Vec::new();
        for dir in crate::confine::SYSTEM_DIRS {
            let path = Path::new(dir);
            match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    if let Ok(target) = std::fs::read_link(path) {
                        links.push((path.to_path_buf(), target));
                    }
                }
                Ok(meta) if meta.is_dir() => binds.push((path.to_path_buf(), true)),
                _ => {}
            }
        }
        for path in crate::confine::toolchains() {
            if let Ok(real) = std::fs::canonicalize(path)
                && let Ok(meta) = std::fs::metadata(&real)
            {
                binds.push((real, meta.is_dir()));
            }
        }
        Self { links, binds }
    }

    /// [`Self::resolve`], once per process: it was done again for every
    /// box (170 `readlink` and 180 `statx` a box with a Python toolchain
    /// under `~/.pyenv`), and what it reads is the same for every bot:
    /// the system directories, and the toolchains of dojo's own PATH and
    /// HOME, which [`crate::confine::toolchains`] reads once (a bot's
    /// environment does not change them). As for those, a toolchain
    /// moved while dojo runs is seen at the next start.
    pub(crate) fn get() -> &'static Self {
        static PART: std::sync::OnceLock<SystemPart> = std::sync::OnceLock::new();
        PART.get_or_init(Self::resolve)
    }
}

/// Fills the cache of what every root holds alike now (before the box
/// maker is forked: see `crate::box_maker`).
pub(crate) fn warm_caches() {
    let _ = SystemPart::get();
}

/// The steps, gathered with what has been made so far: the making of
/// directories, files, links and `/dev`'s tmpfs first (`steps`), then
/// the read-only binds (`sealed`), sealed together by one
/// [`Step::SealRoot`], then the mounts that must not be sealed with them
/// (`after`: devices, the private `/proc`, the scratch directory and
/// anything bound inside it).
struct Builder {
    stage: PathBuf,
    steps: Vec<Step>,
    sealed: Vec<Step>,
    after: Vec<Step>,
    /// Directories made (their paths in the root).
    made: BTreeSet<PathBuf>,
    /// Paths bound so far, read-only or not.
    bound: Vec<(PathBuf, Bind)>,
}

impl Builder {
    /// `path` (absolute, in the root) inside the staging directory.
    fn staged(&self, path: &Path) -> std::io::Result<CString> {
        let relative = path
            .strip_prefix("/")
            .map_err(|_| invalid(path, "not an absolute path"))?;
        c_path(&self.stage.join(relative))
    }

    /// The directories above `path`, and `path` itself when `itself`.
    fn dirs(&mut self, path: &Path, itself: bool) -> std::io::Result<()> {
        let mut ancestors: Vec<&Path> = path.ancestors().skip(usize::from(!itself)).collect();
        ancestors.reverse();
        for dir in ancestors {
            if dir == Path::new("/") || self.made.contains(dir) {
                continue;
            }
            self.steps.push(Step::Dir(self.staged(dir)?));
            self.made.insert(dir.to_path_buf());
        }
        Ok(())
    }

    /// `path` of the host bound at the same path in the root (`is_dir`:
    /// whether it is a directory, if known; else it is looked up).
    /// `how` is `ReadOnly` or `Writable`: a read-only bind is sealed with
    /// the root, unless it is inside a writable one (bound after it).
    fn bind(&mut self, path: &Path, how: Bind, is_dir: Option<bool>) -> std::io::Result<()> {
        let inside = self
            .bound
            .iter()
            .rev()
            .find(|(outer, _)| path.starts_with(outer))
            .map(|(_, outer_how)| *outer_how);
        match inside {
            // Visible already, at least as read-only as asked.
            Some(Bind::ReadOnly) if how == Bind::ReadOnly => return Ok(()),
            Some(outer) if outer == how => return Ok(()),
            // Inside another bind the mount point exists: the host's own
            // directory, seen through it.
            Some(_) => {}
            None => {
                let is_dir = match is_dir {
                    Some(is_dir) => is_dir,
                    None => std::fs::metadata(path)
                        .map_err(|e| invalid(path, &e.to_string()))?
                        .is_dir(),
                };
                self.dirs(path, is_dir)?;
                if !is_dir {
                    self.steps.push(Step::File(self.staged(path)?));
                }
            }
        }
        let sealed = how == Bind::ReadOnly && inside != Some(Bind::Writable);
        let step = Step::Bind {
            from: c_path(path)?,
            at: self.staged(path)?,
            how: if sealed { Bind::Sealed } else { how },
        };
        if sealed {
            self.sealed.push(step);
        } else {
            self.after.push(step);
        }
        self.bound.push((path.to_path_buf(), how));
        Ok(())
    }
}

impl MinimalRoot {
    /// The root for a bot that may reach `reach`; `private_proc`: mount a
    /// `/proc` of its PID namespace (else the host's is bound, read-only).
    /// What every root holds alike is resolved once per process
    /// (`SystemPart::get`).
    pub fn new(reach: &crate::confine::Reach<'_>, private_proc: bool) -> std::io::Result<Self> {
        Self::with_system(reach, private_proc, SystemPart::get())
    }

    /// [`Self::new`] with the system's part given.
    pub(crate) fn with_system(
        reach: &crate::confine::Reach<'_>,
        private_proc: bool,
        system: &SystemPart,
    ) -> std::io::Result<Self> {
        let stage = crate::run_dir::stage_dir()?.to_path_buf();
        let mut b = Builder {
            stage: stage.clone(),
            steps: Vec::new(),
            sealed: Vec::new(),
            after: Vec::new(),
            made: BTreeSet::new(),
            bound: Vec::new(),
        };
        // /dev first, so that a scratch directory under /dev/shm has its
        // mount point in its tmpfs; read-only with the rest of the root,
        // its devices bound (writable, no set-uid, nothing executed)
        // after the seal.
        let dev = Path::new("/dev");
        b.dirs(dev, true)?;
        b.steps.push(Step::Tmpfs {
            at: b.staged(dev)?,
            options: c"mode=0755,size=64k,nr_inodes=64".to_owned(),
        });
        for node in crate::confine::DEVICES_RW
            .iter()
            .chain(crate::confine::DEVICES_READ)
        {
            let node = Path::new(node);
            if node.exists() {
                b.steps.push(Step::File(b.staged(node)?));
                b.after.push(Step::Bind {
                    from: c_path(node)?,
                    at: b.staged(node)?,
                    how: Bind::Device,
                });
            }
        }
        for (name, target) in [
            ("fd", c"/proc/self/fd"),
            ("stdin", c"/proc/self/fd/0"),
            ("stdout", c"/proc/self/fd/1"),
            ("stderr", c"/proc/self/fd/2"),
        ] {
            b.steps.push(Step::Link {
                target: target.to_owned(),
                at: b.staged(&dev.join(name))?,
            });
        }
        b.dirs(&dev.join("shm"), true)?;
        let proc = Path::new("/proc");
        b.dirs(proc, true)?;
        if private_proc {
            // Mounted after the seal: writable as before (a bot may write
            // its own `/proc/self` files).
            b.after.push(Step::Proc(b.staged(proc)?));
        } else {
            b.sealed.push(Step::Bind {
                from: c_path(proc)?,
                at: b.staged(proc)?,
                how: Bind::Sealed,
            });
        }
        b.dirs(Path::new("/tmp"), true)?;
        // The system: links as links, directories bound.
        for (path, target) in &system.links {
            b.steps.push(Step::Link {
                target: c_path(target)?,
                at: b.staged(path)?,
            });
        }
        let mut binds: Vec<(PathBuf, Bind, Option<bool>)> = system
            .binds
            .iter()
            .map(|(path, is_dir)| (path.clone(), Bind::ReadOnly, Some(*is_dir)))
            .collect();
        // The bot's own directory and files, extras: at their real paths
        // (so `..` from the bot's directory leads where it does on the
        // host). One that is gone is left out, as Landlock leaves it out.
        let real = |p: &Path| std::fs::canonicalize(p).ok();
        let bot_dir = std::fs::canonicalize(reach.bot_dir)
            .map_err(|e| invalid(reach.bot_dir, &e.to_string()))?;
        binds.push((bot_dir.clone(), Bind::ReadOnly, None));
        for path in reach.program.iter().chain(reach.extra_read) {
            binds.extend(real(path).map(|p| (p, Bind::ReadOnly, None)));
        }
        // Its own build cache: what its build left beside its program (a
        // Java bot's classes). Bound alone, so its parent, the cache root
        // of every bot, holds only the way to it.
        if let Some(path) = reach.cache {
            binds.extend(real(path).map(|p| (p, Bind::ReadOnly, None)));
        }
        let scratch = std::fs::canonicalize(reach.scratch)
            .map_err(|e| invalid(reach.scratch, &e.to_string()))?;
        let scratch_parent = c_path(scratch.parent().unwrap_or(Path::new("/")))?;
        binds.push((scratch, Bind::Writable, None));
        // Outer paths before inner ones; the writable one last among
        // equals (it must not be hidden by a read-only bind of the same).
        binds.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then((a.1 == Bind::Writable).cmp(&(b.1 == Bind::Writable)))
        });
        binds.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        for (path, how, is_dir) in &binds {
            if path == Path::new("/") {
                return Err(invalid(path, "the whole host cannot be bound"));
            }
            b.bind(path, *how, *is_dir)?;
        }
        let mut steps = b.steps;
        steps.append(&mut b.sealed);
        steps.push(Step::SealRoot);
        steps.append(&mut b.after);
        Ok(Self {
            stage: c_path(&stage)?,
            steps,
            cwd: c_path(&bot_dir)?,
            scratch_parent,
            scratch_access: crate::confine::scratch_access(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(root: &MinimalRoot) -> Vec<String> {
        let stage = root.stage.to_string_lossy().into_owned();
        root.steps
            .iter()
            .map(|s| {
                let show = |c: &CString| c.to_string_lossy().replacen(&stage, "", 1);
                match s {
                    Step::Dir(at) => format!("dir {}", show(at)),
                    Step::File(at) => format!("file {}", show(at)),
                    Step::Link { target, at } => format!("link {} {}", show(at), show(target)),
                    Step::Bind { at, how, .. } => format!("bind {} {how:?}", show(at)),
                    Step::Tmpfs { at, .. } => format!("tmpfs {}", show(at)),
                    Step::Proc(at) => format!("proc {}", show(at)),
                    Step::SealRoot => "seal /".to_string(),
                }
            })
            .collect()
    }

    #[test]
    fn the_root_holds_the_bot_its_scratch_and_the_system_and_nothing_of_its_parent() {
        let tmp = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        let bot = top.join("bots/me");
        let other = top.join("bots/other");
        let scratch = top.join("scratch");
        for d in [&bot, &other, &scratch] {
            std::fs::create_dir_all(d).unwrap();
        }
        let program = top.join("target/bot");
        std::fs::create_dir_all(program.parent().unwrap()).unwrap();
        std::fs::write(&program, "").unwrap();
        let reach = crate::confine::Reach {
            bot_dir: &bot,
            program: vec![bot.join("../../target/bot")],
            cache: None,
            scratch: &scratch,
            extra_read: &[],
        };
        let root = MinimalRoot::new(&reach, true).unwrap();
        let steps = strings(&root);
        let has = |s: &str| steps.iter().any(|x| x == s);
        assert!(has(&format!("bind {} Sealed", bot.display())), "{steps:?}");
        assert!(has(&format!("bind {} Writable", scratch.display())));
        // The program at its real path, onto a file.
        assert!(has(&format!("file {}", program.display())), "{steps:?}");
        assert!(has(&format!("bind {} Sealed", program.display())));
        assert!(has("bind /dev/null Device"));
        assert!(has("proc /proc"));
        assert!(has("dir /tmp"));
        assert!(has("seal /"));
        // Its parent is a directory of the root's own, its sibling absent.
        assert!(has(&format!("dir {}", top.join("bots").display())));
        assert!(!steps.iter().any(|s| s.contains(other.to_str().unwrap())));
        // No host /run, /home or /var.
        for host in ["/run", "/home", "/var", "/sys"] {
            assert!(
                !steps.iter().any(|s| s.split(' ').nth(1) == Some(host)),
                "{host}: {steps:?}"
            );
        }
        assert_eq!(root.cwd.to_str().unwrap(), bot.to_str().unwrap());
    }

    /// A bot's own build cache is bound read-only; the cache root every
    /// bot's cache lies in is only the way to it, holding no other's.
    #[test]
    fn the_root_holds_the_bots_own_build_cache_and_no_other() {
        let tmp = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        let (bot, scratch) = (top.join("bots/me"), top.join("scratch"));
        let (cache, other) = (top.join("cache/me"), top.join("cache/other"));
        for d in [&bot, &scratch, &cache, &other] {
            std::fs::create_dir_all(d).unwrap();
        }
        let reach = crate::confine::Reach {
            bot_dir: &bot,
            program: Vec::new(),
            cache: Some(&cache),
            scratch: &scratch,
            extra_read: &[],
        };
        let steps = strings(&MinimalRoot::new(&reach, true).unwrap());
        assert!(
            steps.contains(&format!("bind {} Sealed", cache.display())),
            "{steps:?}"
        );
        assert!(steps.contains(&format!("dir {}", top.join("cache").display())));
        assert!(!steps.iter().any(|s| s.contains(other.to_str().unwrap())));
    }

    #[test]
    fn a_path_inside_a_bound_directory_is_not_bound_again_unless_writable() {
        let tmp = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        let inner = top.join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        let reach = crate::confine::Reach {
            bot_dir: &top,
            program: vec![inner.clone()],
            cache: None,
            scratch: &inner,
            extra_read: &[],
        };
        let steps = strings(&MinimalRoot::new(&reach, false).unwrap());
        let binds: Vec<_> = steps
            .iter()
            .filter(|s| s.contains(top.to_str().unwrap()))
            .collect();
        assert_eq!(
            binds,
            [
                &format!("dir {}", top.display()),
                &format!("bind {} Sealed", top.display()),
                &format!("bind {} Writable", inner.display())
            ],
            "{steps:?}"
        );
        // Without a PID namespace the host's /proc is bound.
        assert!(steps.iter().any(|s| s == "bind /proc Sealed"));
    }

    /// The steps of a root for a bot's directory, its scratch directory
    /// and, inside that, a directory it may read (with `private_proc`),
    /// their temporary directory shown as `TOP`.
    fn sample_root(system: Option<&SystemPart>) -> Vec<String> {
        let tmp = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        let bot = top.join("bot");
        let scratch = top.join("scratch");
        let inside = scratch.join("given");
        for d in [&bot, &inside] {
            std::fs::create_dir_all(d).unwrap();
        }
        let extra = [inside];
        let reach = crate::confine::Reach {
            bot_dir: &bot,
            program: Vec::new(),
            cache: None,
            scratch: &scratch,
            extra_read: &extra,
        };
        let root = match system {
            Some(system) => MinimalRoot::with_system(&reach, true, system),
            None => MinimalRoot::new(&reach, true),
        };
        let top = top.display().to_string();
        strings(&root.unwrap())
            .into_iter()
            .map(|s| s.replace(&top, "TOP"))
            .collect()
    }

    #[test]
    fn the_system_part_resolved_once_gives_the_steps_of_one_resolved_anew() {
        let fresh = SystemPart::resolve();
        assert_eq!(SystemPart::get(), &fresh);
        assert_eq!(sample_root(None), sample_root(Some(&fresh)));
        // Every toolchain entry that exists is bound, at its real path.
        for path in crate::confine::toolchains() {
            if let Ok(real) = std::fs::canonicalize(path) {
                assert!(fresh.binds.iter().any(|(p, _)| *p == real), "{real:?}");
            }
        }
    }

    #[test]
    fn the_read_only_binds_are_sealed_together_and_the_rest_mounted_after() {
        let steps = sample_root(None);
        let at = |s: &str| {
            steps
                .iter()
                .position(|x| x == s)
                .unwrap_or_else(|| panic!("{s}: {steps:?}"))
        };
        let seal = at("seal /");
        assert_eq!(steps.iter().filter(|s| *s == "seal /").count(), 1);
        for (i, step) in steps.iter().enumerate() {
            let kind = step.split(' ').next().unwrap();
            let sealed = step.ends_with(" Sealed");
            if matches!(kind, "dir" | "file" | "link" | "tmpfs") || sealed {
                assert!(i < seal, "{step} after the seal: {steps:?}");
            } else if step != "seal /" {
                assert!(i > seal, "{step} before the seal: {steps:?}");
            }
        }
        // After it: the devices, the private /proc, the scratch directory
        // and the directory given inside it, read-only on its own.
        assert!(at("bind /dev/null Device") > seal);
        assert!(at("proc /proc") > seal);
        let writable = at("bind TOP/scratch Writable");
        let given = at("bind TOP/scratch/given ReadOnly");
        assert!(seal < writable && writable < given, "{steps:?}");
        assert!(at("bind TOP/bot Sealed") < seal);
    }
}

//! A bot's minimal root: in the bot's own mount namespace, a tmpfs that
//! becomes its `/` (by `pivot_root`, the host's root detached), holding
//! only what the Landlock rules let it read ([`crate::confine::Reach`],
//! one definition for both):
//! - the system directories ([`crate::confine::SYSTEM_DIRS`]) and the
//!   toolchains on PATH, bound read-only at their own paths (a symbolic
//!   link such as `/bin -> usr/bin` is made again as a link);
//! - the bot's own directory and the files its command names outside it,
//!   read-only, at their real (symlink-resolved) paths;
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
//! once, for all its processes and games.

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

/// The steps, gathered with what has been made so far.
struct Builder {
    stage: PathBuf,
    steps: Vec<Step>,
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

    /// `path` of the host bound at the same path in the root.
    fn bind(&mut self, path: &Path, how: Bind) -> std::io::Result<()> {
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
                let meta = std::fs::metadata(path).map_err(|e| invalid(path, &e.to_string()))?;
                self.dirs(path, meta.is_dir())?;
                if !meta.is_dir() {
                    self.steps.push(Step::File(self.staged(path)?));
                }
            }
        }
        self.steps.push(Step::Bind {
            from: c_path(path)?,
            at: self.staged(path)?,
            how,
        });
        self.bound.push((path.to_path_buf(), how));
        Ok(())
    }
}

impl MinimalRoot {
    /// The root for a bot that may reach `reach`; `private_proc`: mount a
    /// `/proc` of its PID namespace (else the host's is bound, read-only).
    pub fn new(reach: &crate::confine::Reach<'_>, private_proc: bool) -> std::io::Result<Self> {
        let stage = crate::run_dir::stage_dir()?.to_path_buf();
        let mut b = Builder {
            stage: stage.clone(),
            steps: Vec::new(),
            made: BTreeSet::new(),
            bound: Vec::new(),
        };
        // /dev first, so that a bind below it (a scratch directory under
        // /dev/shm) lands in its tmpfs; sealed read-only at the end.
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
                b.steps.push(Step::Bind {
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
            b.steps.push(Step::Proc(b.staged(proc)?));
        } else {
            b.steps.push(Step::Bind {
                from: c_path(proc)?,
                at: b.staged(proc)?,
                how: Bind::ReadOnly,
            });
        }
        b.dirs(Path::new("/tmp"), true)?;
        // The system: links as links, directories bound.
        let mut binds: Vec<(PathBuf, Bind)> = Vec::new();
        for dir in crate::confine::SYSTEM_DIRS {
            let path = Path::new(dir);
            match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = std::fs::read_link(path)?;
                    b.steps.push(Step::Link {
                        target: c_path(&target)?,
                        at: b.staged(path)?,
                    });
                }
                Ok(meta) if meta.is_dir() => binds.push((path.to_path_buf(), Bind::ReadOnly)),
                _ => {}
            }
        }
        // Toolchains, the bot's own directory and files, extras: at
        // their real paths (so `..` from the bot's directory leads where
        // it does on the host). One that is gone is left out, as Landlock
        // leaves it out.
        let real = |p: &Path| std::fs::canonicalize(p).ok();
        for path in crate::confine::toolchains() {
            binds.extend(real(path).map(|p| (p, Bind::ReadOnly)));
        }
        let bot_dir = std::fs::canonicalize(reach.bot_dir)
            .map_err(|e| invalid(reach.bot_dir, &e.to_string()))?;
        binds.push((bot_dir.clone(), Bind::ReadOnly));
        for path in reach.program.iter().chain(reach.extra_read) {
            binds.extend(real(path).map(|p| (p, Bind::ReadOnly)));
        }
        let scratch = std::fs::canonicalize(reach.scratch)
            .map_err(|e| invalid(reach.scratch, &e.to_string()))?;
        let scratch_parent = c_path(scratch.parent().unwrap_or(Path::new("/")))?;
        binds.push((scratch, Bind::Writable));
        // Outer paths before inner ones; the writable one last among
        // equals (it must not be hidden by a read-only bind of the same).
        binds.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then((a.1 == Bind::Writable).cmp(&(b.1 == Bind::Writable)))
        });
        binds.dedup();
        for (path, how) in &binds {
            if path == Path::new("/") {
                return Err(invalid(path, "the whole host cannot be bound"));
            }
            b.bind(path, *how)?;
        }
        b.steps.push(Step::Seal(b.staged(dev)?));
        Ok(Self {
            stage: c_path(&stage)?,
            steps: b.steps,
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
                    Step::Seal(at) => format!("seal {}", show(at)),
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
            scratch: &scratch,
            extra_read: &[],
        };
        let root = MinimalRoot::new(&reach, true).unwrap();
        let steps = strings(&root);
        let has = |s: &str| steps.iter().any(|x| x == s);
        assert!(
            has(&format!("bind {} ReadOnly", bot.display())),
            "{steps:?}"
        );
        assert!(has(&format!("bind {} Writable", scratch.display())));
        // The program at its real path, onto a file.
        assert!(has(&format!("file {}", program.display())), "{steps:?}");
        assert!(has(&format!("bind {} ReadOnly", program.display())));
        assert!(has("bind /dev/null Device"));
        assert!(has("proc /proc"));
        assert!(has("dir /tmp"));
        assert!(has("seal /dev"));
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

    #[test]
    fn a_path_inside_a_bound_directory_is_not_bound_again_unless_writable() {
        let tmp = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(tmp.path()).unwrap();
        let inner = top.join("inner");
        std::fs::create_dir_all(&inner).unwrap();
        let reach = crate::confine::Reach {
            bot_dir: &top,
            program: vec![inner.clone()],
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
                &format!("bind {} ReadOnly", top.display()),
                &format!("bind {} Writable", inner.display())
            ],
            "{steps:?}"
        );
        // Without a PID namespace the host's /proc is bound.
        assert!(steps.iter().any(|s| s == "bind /proc ReadOnly"));
    }
}

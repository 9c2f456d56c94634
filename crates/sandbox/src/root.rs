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
//! [`enter`] with async-signal-safe system calls only. A box makes it
//! once, for all its processes and games.
#![allow(unsafe_code)]

use std::collections::BTreeSet;
use std::ffi::CString;
use std::path::{Path, PathBuf};

/// How a directory or file is bound into the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bind {
    /// Read-only, no set-uid, no devices (recursively).
    ReadOnly,
    /// Writable, no set-uid, no devices (the scratch directory).
    Writable,
    /// A device node: writable, no set-uid, nothing executed.
    Device,
}

/// One step of making the root, its paths inside the staging directory.
#[derive(Debug)]
enum Step {
    /// A directory (mode 0755).
    Dir(CString),
    /// An empty file, to bind a file onto.
    File(CString),
    /// A symbolic link at `at` to `target`.
    Link { target: CString, at: CString },
    /// `from` bound (recursively) at `at`.
    Bind {
        from: CString,
        at: CString,
        how: Bind,
    },
    /// A small tmpfs (for `/dev`), with these mount options.
    Tmpfs { at: CString, options: CString },
    /// A `/proc` of the process's PID namespace.
    Proc(CString),
    /// A tmpfs made read-only once filled (`/dev`).
    Seal(CString),
}

/// A bot's root, decided: what [`enter`] makes in the child.
#[derive(Debug)]
pub struct MinimalRoot {
    /// Where the root is built before it becomes `/`: an empty directory
    /// of dojo's (see [`crate::plan::stage_dir`]), over which the
    /// child's own mount namespace puts its tmpfs.
    stage: CString,
    steps: Vec<Step>,
    /// The bot's directory, its working directory in the root.
    cwd: CString,
    /// The directory the scratch directory is in, and the scratch
    /// directory's Landlock rights, given to it: a box mounts a new tmpfs
    /// over the scratch directory for every game, and Landlock, which
    /// passes over the mount points between a file and the root, finds
    /// this rule above them all (the directory is the root's own,
    /// read-only, holding only the scratch directory).
    scratch_parent: CString,
    scratch_access: u64,
}

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
        let stage = crate::plan::stage_dir()?.to_path_buf();
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

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const ATTR_RDONLY: u64 = 0x1;
const ATTR_NOSUID: u64 = 0x2;
const ATTR_NODEV: u64 = 0x4;
const ATTR_NOEXEC: u64 = 0x8;
/// `AT_RECURSIVE`: the mount and every mount below it.
const AT_RECURSIVE: u32 = 0x8000;

fn last_error() -> std::io::Error {
    std::io::Error::last_os_error()
}

/// Sets `attrs` on the mount at `at` (and those below it if `recursive`).
/// Where the kernel has no `mount_setattr` (before 5.12), a remount of
/// the top mount only: inside a user namespace that fails when the mount
/// has flags the remount would clear (the probe then reports the layer
/// missing). Async-signal-safe.
///
/// # Safety
/// In a forked child before exec; `at` NUL-terminated.
unsafe fn set_attrs(at: &CString, attrs: u64, recursive: bool) -> std::io::Result<()> {
    let attr = MountAttr {
        attr_set: attrs,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: the call reads `attr` and the path.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            at.as_ptr(),
            if recursive { AT_RECURSIVE } else { 0 },
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc == 0 {
        return Ok(());
    }
    let error = last_error();
    if error.raw_os_error() != Some(libc::ENOSYS) {
        return Err(error);
    }
    // SAFETY: mount reads NUL-terminated strings.
    unsafe {
        let mut flags = libc::MS_REMOUNT | libc::MS_BIND;
        for (attr, ms_flag) in [
            (ATTR_RDONLY, libc::MS_RDONLY),
            (ATTR_NOSUID, libc::MS_NOSUID),
            (ATTR_NODEV, libc::MS_NODEV),
            (ATTR_NOEXEC, libc::MS_NOEXEC),
        ] {
            if attrs & attr != 0 {
                flags |= ms_flag;
            }
        }
        let none = std::ptr::null::<libc::c_char>();
        if libc::mount(none, at.as_ptr(), none, flags, std::ptr::null()) == -1 {
            return Err(last_error());
        }
    }
    Ok(())
}

/// Makes `root` and moves into it: this process's `/` becomes the new
/// tmpfs, the host's root is detached, and the working directory is the
/// bot's. With Landlock (`landlock_fd`), the root's directories may be
/// listed and the new `/proc` read (Landlock's rules name the host's
/// inodes: the binds are the same, the new mounts are not). Needs a mount
/// namespace of its own. Only async-signal-safe calls, no allocation.
///
/// # Safety
/// In a forked child before exec (or before it becomes a box's init).
pub unsafe fn enter(root: &MinimalRoot, landlock_fd: i32) -> std::io::Result<()> {
    let none = std::ptr::null::<libc::c_char>();
    let check = |rc: libc::c_int| if rc == -1 { Err(last_error()) } else { Ok(()) };
    // SAFETY: raw system calls on NUL-terminated strings `root` owns.
    unsafe {
        // Nothing done here reaches the host's mounts.
        check(libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
        check(libc::mount(
            c"tmpfs".as_ptr(),
            root.stage.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"mode=0755,size=1m".as_ptr().cast(),
        ))?;
        for step in &root.steps {
            match step {
                Step::Dir(at) => {
                    if libc::mkdir(at.as_ptr(), 0o755) == -1
                        && *libc::__errno_location() != libc::EEXIST
                    {
                        return Err(last_error());
                    }
                }
                Step::File(at) => {
                    let fd = libc::open(
                        at.as_ptr(),
                        libc::O_WRONLY | libc::O_CREAT | libc::O_CLOEXEC,
                        0o644,
                    );
                    check(fd)?;
                    libc::close(fd);
                }
                Step::Link { target, at } => check(libc::symlink(target.as_ptr(), at.as_ptr()))?,
                Step::Bind { from, at, how } => {
                    check(libc::mount(
                        from.as_ptr(),
                        at.as_ptr(),
                        none,
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ))?;
                    match how {
                        Bind::ReadOnly => {
                            set_attrs(at, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, true)?
                        }
                        Bind::Writable => set_attrs(at, ATTR_NOSUID | ATTR_NODEV, true)?,
                        Bind::Device => set_attrs(at, ATTR_NOSUID | ATTR_NOEXEC, false)?,
                    }
                }
                Step::Tmpfs { at, options } => check(libc::mount(
                    c"tmpfs".as_ptr(),
                    at.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    options.as_ptr().cast(),
                ))?,
                Step::Proc(at) => check(libc::mount(
                    c"proc".as_ptr(),
                    at.as_ptr(),
                    c"proc".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    std::ptr::null(),
                ))?,
                Step::Seal(at) => set_attrs(at, ATTR_RDONLY, false)?,
            }
        }
        // The root's own tmpfs holds only mount points: read-only too.
        set_attrs(&root.stage, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, false)?;
        // pivot_root(".", "."): the host's root ends up stacked on the
        // new one, and is detached (with everything below it).
        check(libc::chdir(root.stage.as_ptr()))?;
        if libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) == -1 {
            return Err(last_error());
        }
        check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
        check(libc::chdir(root.cwd.as_ptr()))?;
        if landlock_fd >= 0 {
            crate::sys::landlock_allow(landlock_fd, c"/", crate::sys::LANDLOCK_READ_DIR)?;
            crate::sys::landlock_allow(landlock_fd, c"/proc", crate::sys::LANDLOCK_READ)?;
            crate::sys::landlock_allow(landlock_fd, &root.scratch_parent, root.scratch_access)?;
        }
    }
    Ok(())
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

//! The forked child's half of a bot's minimal root (see `crate::root`,
//! which decides it in dojo before the fork): the steps, and [`enter`],
//! which makes them with async-signal-safe system calls only.

use std::ffi::CString;

/// How a directory or file is bound into the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bind {
    /// Read-only, no set-uid, no devices (recursively), by the one
    /// [`Step::SealRoot`] that follows every such bind: no call of its own.
    Sealed,
    /// Read-only, no set-uid, no devices (recursively), by a call of its
    /// own: a read-only bind made after the seal (inside a writable one).
    ReadOnly,
    /// Writable, no set-uid, no devices (the scratch directory).
    Writable,
    /// A device node: writable, no set-uid, nothing executed.
    Device,
}

/// One step of making the root, its paths inside the staging directory.
#[derive(Debug)]
pub(crate) enum Step {
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
    /// The whole root made read-only, no set-uid and no devices,
    /// recursively, in one call (`mount_setattr` with `AT_RECURSIVE`):
    /// its own tmpfs, `/dev`'s and every [`Bind::Sealed`] bind made before
    /// it, with the mounts below them. What must stay otherwise (the
    /// devices, the private `/proc`, the scratch directory) is mounted
    /// after it, on mount points made before it.
    SealRoot,
}

/// A bot's root, decided: what `enter` makes in the child.
#[derive(Debug)]
pub struct MinimalRoot {
    /// Where the root is built before it becomes `/`: an empty directory
    /// of dojo's (see [`crate::run_dir::stage_dir`]), over which the
    /// child's own mount namespace puts its tmpfs.
    pub(crate) stage: CString,
    pub(crate) steps: Vec<Step>,
    /// The bot's directory, its working directory in the root.
    pub(crate) cwd: CString,
    /// The directory the scratch directory is in, and the scratch
    /// directory's Landlock rights, given to it: a box mounts a new tmpfs
    /// over the scratch directory for every game, and Landlock, which
    /// passes over the mount points between a file and the root, finds
    /// this rule above them all (the directory is the root's own,
    /// read-only, holding only the scratch directory).
    pub(crate) scratch_parent: CString,
    pub(crate) scratch_access: u64,
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

/// `mount_setattr(2)`: `attrs` set on the mount at `at` (and on those
/// below it if `recursive`), with no fallback. Async-signal-safe.
///
/// # Safety
/// In a forked child before exec; `at` NUL-terminated.
unsafe fn mount_setattr(at: &CString, attrs: u64, recursive: bool) -> std::io::Result<()> {
    // SAFETY: as this function.
    unsafe { change_mount_attrs(at, attrs, 0, recursive) }
}

/// `mount_setattr(2)`: `set` set and `clear` cleared on the mount at `at`
/// (and on those below it if `recursive`), with no fallback.
/// Async-signal-safe.
///
/// # Safety
/// As [`mount_setattr`].
unsafe fn change_mount_attrs(
    at: &CString,
    set: u64,
    clear: u64,
    recursive: bool,
) -> std::io::Result<()> {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
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
    if rc == 0 { Ok(()) } else { Err(last_error()) }
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
    // SAFETY: as this function.
    let error = match unsafe { mount_setattr(at, attrs, recursive) } {
        Ok(()) => return Ok(()),
        Err(error) => error,
    };
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

/// [`Step::SealRoot`]: the root (its own tmpfs, which holds only mount
/// points, `/dev`'s tmpfs and every sealed bind, with the mounts below
/// them) read-only, no set-uid, no devices, in one recursive call. Where
/// the kernel has no `mount_setattr` (before 5.12), whose fallback in
/// [`set_attrs`] remounts one mount only, each of them separately, as
/// before the seal was one call. Async-signal-safe.
///
/// # Safety
/// As [`set_attrs`].
unsafe fn seal_root(root: &MinimalRoot) -> std::io::Result<()> {
    let sealed = ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV;
    // SAFETY: as this function.
    unsafe {
        match mount_setattr(&root.stage, sealed, true) {
            Err(e) if e.raw_os_error() == Some(libc::ENOSYS) => {}
            done => return done,
        }
        for step in &root.steps {
            match step {
                Step::Bind {
                    at,
                    how: Bind::Sealed,
                    ..
                } => set_attrs(at, sealed, true)?,
                Step::Tmpfs { at, .. } => set_attrs(at, ATTR_RDONLY, false)?,
                Step::SealRoot => break,
                _ => {}
            }
        }
        set_attrs(&root.stage, sealed, false)
    }
}

/// Makes every mount of this process's own mount namespace private, so
/// that nothing mounted or changed in it afterwards reaches the host's.
/// Async-signal-safe.
///
/// # Safety
/// In a forked child before exec, in a mount namespace of its own.
pub(crate) unsafe fn mounts_private() -> std::io::Result<()> {
    let none = std::ptr::null::<libc::c_char>();
    // SAFETY: mount on a NUL-terminated literal.
    let rc = unsafe {
        libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        )
    };
    if rc == -1 { Err(last_error()) } else { Ok(()) }
}

/// Mounts a `/proc` of this process's PID namespace at `at`, with
/// `hidepid=2`: a process sees only the processes of its own user. A bot
/// (a seat user, as root) then does not see its box's init, whose
/// counters (`/proc/1/status`'s context switches, `/proc/1/stat`'s start
/// time) tell a reused box from a fresh one. Async-signal-safe.
///
/// # Safety
/// In a forked child before exec; `at` NUL-terminated.
pub(crate) unsafe fn mount_proc(at: &std::ffi::CStr) -> std::io::Result<()> {
    // SAFETY: mount on NUL-terminated strings.
    let rc = unsafe {
        libc::mount(
            c"proc".as_ptr(),
            at.as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            c"hidepid=2".as_ptr().cast(),
        )
    };
    if rc == -1 { Err(last_error()) } else { Ok(()) }
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
        mounts_private()?;
        check(libc::mount(
            c"tmpfs".as_ptr(),
            root.stage.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"mode=0755,size=1m".as_ptr().cast(),
        ))?;
        for step in &root.steps {
            match step {
                Step::SealRoot => seal_root(root)?,
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
                        Bind::Sealed => {}
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
                Step::Proc(at) => mount_proc(at)?,
            }
        }
        // pivot_root(".", "."): the host's root ends up stacked on the
        // new one, and is detached (with everything below it).
        check(libc::chdir(root.stage.as_ptr()))?;
        if libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) == -1 {
            return Err(last_error());
        }
        check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
        check(libc::chdir(root.cwd.as_ptr()))?;
        if landlock_fd >= 0 {
            super::landlock_allow(landlock_fd, c"/", super::LANDLOCK_READ_DIR)?;
            super::landlock_allow(landlock_fd, c"/proc", super::LANDLOCK_READ)?;
            super::landlock_allow(landlock_fd, &root.scratch_parent, root.scratch_access)?;
        }
    }
    Ok(())
}

/// A build's view of the host: every mount read-only but the places it
/// writes (its directory, its cache, its scratch directory, cargo's
/// download caches), in a mount namespace of its own. A build runs as
/// dojo's user (root, as root), which owns every file of the host: Landlock
/// keeps its writes to those places, but not a `chmod`, `chown`, `utime`
/// or extended attribute of any other file it can name (metadata, not
/// content). A read-only mount refuses those (`EROFS`).
#[derive(Debug)]
pub struct SealedHost {
    /// The places it writes, bound onto themselves before the seal and
    /// made writable again after it.
    pub(crate) writable: Vec<CString>,
    /// The working directory, entered again once sealed: the one entered
    /// before is the read-only mount's, under the bind.
    pub(crate) cwd: CString,
    /// Files hidden under `/dev/null`, and directories under an empty
    /// read-only tmpfs: what others may not read (see [`Hidden`]).
    pub(crate) hidden_files: Vec<CString>,
    pub(crate) hidden_dirs: Vec<CString>,
    /// Overlays mounted once sealed: where, and the mount's options (see
    /// [`Overlay`]).
    pub(crate) overlays: Vec<(CString, CString)>,
    /// Landlock's rights in each overlay: a new mount, which the rules
    /// made before it (naming the host's directory under it) do not cover.
    pub(crate) overlay_access: u64,
}

/// What a sealed host hides: files and directories of the host that
/// others may not read. As dojo's user (root, as root) the sealed process
/// owns them and would read them by their owner's bits (`/etc/shadow`,
/// private keys); hidden, it sees what a seat user would.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Hidden {
    pub files: Vec<std::path::PathBuf>,
    pub dirs: Vec<std::path::PathBuf>,
}

/// A directory seen through an overlay: the host's `lower`, read-only,
/// under the sealed process's own `upper` (with overlayfs's `work`
/// directory beside it, on the same filesystem): what it writes there
/// lands in `upper` only, and no other process sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    pub lower: std::path::PathBuf,
    pub upper: std::path::PathBuf,
    pub work: std::path::PathBuf,
}

impl SealedHost {
    /// A sealed host with `writable` left writable (paths that exist),
    /// working in `cwd`, with `hidden` hidden and `overlays` over their
    /// lower directories. An overlay whose paths overlayfs's options
    /// cannot carry (a comma, a colon or a backslash) is refused.
    pub fn new(
        writable: &[std::path::PathBuf],
        cwd: &std::path::Path,
        hidden: &Hidden,
        overlays: &[Overlay],
    ) -> std::io::Result<SealedHost> {
        use std::os::unix::ffi::OsStrExt;
        let c_path = |p: &std::path::Path| {
            CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other)
        };
        let c_paths = |ps: &[std::path::PathBuf]| {
            ps.iter()
                .map(|p| c_path(p))
                .collect::<std::io::Result<Vec<_>>>()
        };
        let overlays = overlays
            .iter()
            .map(|o| {
                let plain = |p: &std::path::Path| {
                    let bytes = p.as_os_str().as_bytes();
                    if bytes.iter().any(|b| matches!(b, b',' | b':' | b'\\')) {
                        Err(std::io::Error::other(format!(
                            "{}: a comma, colon or backslash in a path overlayfs cannot take",
                            p.display()
                        )))
                    } else {
                        Ok(p.display().to_string())
                    }
                };
                let options = format!(
                    "lowerdir={},upperdir={},workdir={}",
                    plain(&o.lower)?,
                    plain(&o.upper)?,
                    plain(&o.work)?
                );
                Ok((
                    c_path(&o.lower)?,
                    CString::new(options).map_err(std::io::Error::other)?,
                ))
            })
            .collect::<std::io::Result<_>>()?;
        Ok(SealedHost {
            writable: c_paths(writable)?,
            cwd: c_path(cwd)?,
            hidden_files: c_paths(&hidden.files)?,
            hidden_dirs: c_paths(&hidden.dirs)?,
            overlays,
            overlay_access: crate::confine::scratch_access(),
        })
    }
}

/// What under `roots` others may not read, found by walking each (without
/// following links, and not into what it hides): the files and
/// directories a sealed host hides ([`Hidden`]). Where a directory cannot
/// be listed it is hidden whole.
pub fn unreadable_by_others(roots: &[&std::path::Path]) -> Hidden {
    use std::os::unix::fs::PermissionsExt;
    let mut hidden = Hidden::default();
    let mut stack: Vec<std::path::PathBuf> = roots.iter().map(|r| r.to_path_buf()).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            let mode = meta.permissions().mode();
            if meta.is_dir() {
                // Others need to list and enter it.
                if mode & 0o005 != 0o005 {
                    hidden.dirs.push(entry.path());
                } else {
                    stack.push(entry.path());
                }
            } else if meta.is_file() && mode & 0o004 == 0 {
                hidden.files.push(entry.path());
            }
        }
    }
    hidden.files.sort();
    hidden.dirs.sort();
    hidden
}

/// Seals the host as `host` says, in this process's own mount namespace:
/// mounts made private (nothing here reaches the host's), each writable
/// place bound onto itself, every mount made read-only in one recursive
/// call, and the writable binds (with what is mounted below them)
/// writable again; what it hides hidden, its overlays mounted; then its
/// working directory entered anew (through the bind). Needs `mount_setattr` (Linux 5.12). Only
/// async-signal-safe calls, no allocation.
///
/// With `landlock_fd` (the ruleset the child is about to take on, or -1)
/// each overlay gets the rights the build has in its writable places.
///
/// # Safety
/// In a forked child before exec, in a mount namespace of its own.
pub unsafe fn seal_host(host: &SealedHost, landlock_fd: i32) -> std::io::Result<()> {
    let none = std::ptr::null::<libc::c_char>();
    let check = |rc: libc::c_int| if rc == -1 { Err(last_error()) } else { Ok(()) };
    // SAFETY: raw system calls on NUL-terminated strings `host` owns.
    unsafe {
        mounts_private()?;
        for at in &host.writable {
            check(libc::mount(
                at.as_ptr(),
                at.as_ptr(),
                none,
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            ))?;
        }
        change_mount_attrs(&CString::from(c"/"), ATTR_RDONLY, 0, true)?;
        for at in &host.writable {
            change_mount_attrs(at, 0, ATTR_RDONLY, true)?;
        }
        for at in &host.hidden_files {
            check(libc::mount(
                c"/dev/null".as_ptr(),
                at.as_ptr(),
                none,
                libc::MS_BIND,
                std::ptr::null(),
            ))?;
            change_mount_attrs(at, ATTR_RDONLY, 0, false)?;
        }
        for at in &host.hidden_dirs {
            check(libc::mount(
                c"tmpfs".as_ptr(),
                at.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                c"size=4k,mode=0755".as_ptr().cast(),
            ))?;
        }
        for (at, options) in &host.overlays {
            check(libc::mount(
                c"overlay".as_ptr(),
                at.as_ptr(),
                c"overlay".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                options.as_ptr().cast(),
            ))?;
            if landlock_fd >= 0 {
                super::landlock_allow(landlock_fd, at, host.overlay_access)?;
            }
        }
        check(libc::chdir(host.cwd.as_ptr()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn what_others_may_not_read_is_found_and_not_walked_into() {
        let tmp = tempfile::tempdir().unwrap();
        let at = tmp.path();
        let mode = |p: &std::path::Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        std::fs::create_dir_all(at.join("open/deeper")).unwrap();
        std::fs::create_dir_all(at.join("private/inside")).unwrap();
        for (file, m) in [
            ("open/shared.conf", 0o644),
            ("open/shadow", 0o640),
            ("open/deeper/key", 0o600),
            ("private/inside/x", 0o644),
        ] {
            std::fs::write(at.join(file), "x").unwrap();
            mode(&at.join(file), m);
        }
        mode(&at.join("private"), 0o700);
        std::os::unix::fs::symlink("/etc/shadow", at.join("open/link")).unwrap();
        let hidden = unreadable_by_others(&[at]);
        assert_eq!(
            hidden.files,
            [at.join("open/deeper/key"), at.join("open/shadow")]
        );
        // Hidden whole, not walked into; a link is not followed.
        assert_eq!(hidden.dirs, [at.join("private")]);
    }

    #[test]
    fn an_overlay_path_overlayfs_cannot_take_is_refused() {
        let overlay = |lower: &str| Overlay {
            lower: lower.into(),
            upper: "/c/upper".into(),
            work: "/c/work".into(),
        };
        let host = SealedHost::new(&[], "/".as_ref(), &Hidden::default(), &[overlay("/r")])
            .expect("a plain path");
        assert_eq!(
            host.overlays[0].1.to_str().unwrap(),
            "lowerdir=/r,upperdir=/c/upper,workdir=/c/work"
        );
        for bad in ["/a,b", "/a:b", "/a\\b"] {
            let err = SealedHost::new(&[], "/".as_ref(), &Hidden::default(), &[overlay(bad)])
                .unwrap_err();
            assert!(err.to_string().contains("overlayfs cannot take"), "{err}");
        }
    }
}

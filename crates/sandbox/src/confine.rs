//! Filesystem and network confinement of a bot process with Landlock.
//!
//! The ruleset is built here, in dojo, before the spawn (it opens the
//! directories it names, which allocates and may fail: not something to do
//! between `fork` and `exec`); the forked child only calls
//! `landlock_restrict_self` on the ruleset's descriptor (see
//! [`crate::sys::contain`]).
//!
//! What a confined bot may do:
//! - read and execute the system: the usual program and library
//!   directories, `/etc`, `/proc`, `/sys`, the directories on `PATH`, a
//!   few harmless devices;
//! - read and execute its own directory and its program file (a Rust bot's
//!   binary under `target/` lies outside its directory), and, for a bot
//!   with a manifest, its own build cache (`$DOJO_CACHE`: what its build
//!   left there, a Java bot's classes or jar beside its program), never
//!   another bot's or the cache root they share;
//! - anything in its scratch directory (fresh per bot per game);
//! - nothing else: not another bot's directory, not `results/`, not
//!   dojo's files; no TCP `bind`/`connect`; no signals to, and no abstract
//!   Unix sockets of, processes outside its own sandbox.

use std::ops::Not;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, Scope,
    path_beneath_rules,
};

/// The newest ABI this crate version knows; older kernels get what they
/// support (best effort), and [`probe_abi`] says which that is.
const WANTED: ABI = ABI::V10;

/// Directories every program needs to read (interpreters, libraries,
/// configuration). Missing ones are skipped. The minimal root
/// ([`crate::root`]) binds these, read-only, and nothing else of the
/// system.
pub const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix",
];

/// The kernel's views a program may read besides: a minimal root has a
/// `/proc` of its own and no `/sys`.
const KERNEL_DIRS: &[&str] = &["/proc", "/sys"];

/// Devices a program may read and write (not the disks: `/dev` as a whole
/// would let a bot running as root read them). A minimal root's `/dev`
/// holds these and no other node.
pub const DEVICES_RW: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];
pub const DEVICES_READ: &[&str] = &["/dev/random", "/dev/urandom"];

/// The Landlock ABI the kernel offers (0: none, or disabled).
pub fn probe_abi() -> i32 {
    crate::sys::landlock_abi()
}

/// Where interpreters outside the system directories live: the
/// directories on dojo's PATH and, for one in a toolchain's home such as
/// `~/.pyenv/shims` or `~/.cargo/bin`, the rest of that home (a version
/// manager's shim runs programs from beside it), except files named
/// `credentials*` (cargo's registry token). A home directory itself and
/// `/` are never opened up this way.
pub fn toolchains() -> &'static [PathBuf] {
    static PATHS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    PATHS.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut out: Vec<PathBuf> = Vec::new();
        for dir in std::env::split_paths(&path).filter(|p| p.is_absolute()) {
            if SYSTEM_DIRS
                .iter()
                .chain(KERNEL_DIRS)
                .any(|s| dir.starts_with(s))
            {
                continue;
            }
            // A toolchain's home: a hidden directory (`.pyenv`, `.cargo`,
            // `.local`) that is not the home directory or `/` itself.
            let toolchain_home = dir.parent().filter(|parent| {
                parent.parent().is_some()
                    && home.as_deref() != Some(*parent)
                    && parent
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            });
            let entries = toolchain_home.and_then(|parent| std::fs::read_dir(parent).ok());
            match entries {
                Some(entries) => {
                    for entry in entries.flatten() {
                        if !entry
                            .file_name()
                            .to_string_lossy()
                            .starts_with("credentials")
                        {
                            out.push(entry.path());
                        }
                    }
                }
                None => out.push(dir),
            }
        }
        out.sort();
        out.dedup();
        out
    })
}

/// What one bot process may reach.
#[derive(Debug, Clone)]
pub struct Reach<'a> {
    /// The bot's own directory (read and execute).
    pub bot_dir: &'a Path,
    /// Its program and what its command names by path (read and
    /// execute): `command_files`.
    pub program: Vec<PathBuf>,
    /// Its own build cache, for a bot loaded from a manifest (read and
    /// execute): a build's outputs are more than the program its command
    /// names (`java -cp $DOJO_CACHE/classes Bot` names no file at all).
    /// Only this bot's directory of the cache: never the root every bot's
    /// cache lies in.
    pub cache: Option<&'a Path>,
    /// Read, write, execute.
    pub scratch: &'a Path,
    /// Extra read-only paths the organiser allowed.
    pub extra_read: &'a [PathBuf],
}

/// Why a ruleset could not be made.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the Landlock ruleset: {0}")]
pub struct ConfineError(#[from] landlock::RulesetError);

/// The program of `command` as a path, when it is one (`./bot`,
/// `../../target/release/x`), resolved against `dir`; `None` for a bare
/// name found on PATH.
pub fn program_path(command: &[String], dir: &Path) -> Option<PathBuf> {
    let program = command.first()?;
    program.contains('/').then(|| dir.join(program))
}

/// The files of `command` outside `dir` the bot may read: its program
/// when given as a path (a Rust bot's binary under a workspace's
/// `target/`), and only if that is an executable file; for a bot given on
/// the command line (`NAME=COMMAND`, the organiser's own words), also the
/// directory of that program when it is a script (a `#!` line), and the
/// directory of the script an interpreter found on PATH runs (the first
/// word that is not an option, resolved against `dir`: `python3
/// /elsewhere/bot.py`), so the script's own modules beside it are readable
/// too. `env [-OPTIONS] [NAME=VALUE...] COMMAND` is read as the COMMAND it
/// runs. A manifest's words are a stranger's: a `bot.toml` naming
/// `../victim/secret.txt` as its script gets nothing outside its directory
/// (which it reads anyway): `manifest` says the bot was loaded from one
/// (its directory holds `bot.toml`), and names its build cache. A
/// manifest's file counts only where it lies, links followed, in `dir`,
/// that cache or the system ([`lies_in_its_own`]): a link of the bot's
/// own (`./stolen -> ../victim/bot`, or one its build made in its cache)
/// would otherwise be bound into its box at the real path and opened to
/// Landlock. Read-only for the bot.
pub fn command_files(command: &[String], dir: &Path, manifest: Option<&Path>) -> Vec<PathBuf> {
    let is_env = command
        .first()
        .is_some_and(|p| Path::new(p).file_name() == Some("env".as_ref()));
    if is_env {
        let rest: Vec<String> = command
            .iter()
            .skip(1)
            .skip_while(|w| w.starts_with('-') || w.contains('='))
            .cloned()
            .collect();
        let mut files = command_files(&rest, dir, manifest);
        files.extend(
            program_path(command, dir)
                .filter(|env| manifest.is_none_or(|cache| lies_in_its_own(env, dir, cache))),
        );
        return files;
    }
    if let Some(program) = program_path(command, dir) {
        let executable = std::fs::metadata(&program).is_ok_and(|m| {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        });
        let own = manifest.is_none_or(|cache| lies_in_its_own(&program, dir, cache));
        if !(executable && own) {
            return Vec::new();
        }
        // An organiser's script run by its `#!` line gets its directory,
        // as the same script run by its interpreter does (below): its
        // modules beside it are part of it. A binary gets itself alone
        // (a Rust bot's `target/release/` holds the whole build).
        let script_dir = program
            .parent()
            .filter(|parent| manifest.is_none() && !parent.starts_with(dir) && is_script(&program))
            .map(Path::to_path_buf);
        return script_dir.into_iter().chain([program]).collect();
    }
    if manifest.is_some() {
        return Vec::new();
    }
    command
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-'))
        .map(|w| dir.join(w))
        .filter(|p| p.is_file())
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .into_iter()
        .collect()
}

/// Whether `file` starts with a `#!` line: a script the kernel runs by
/// the interpreter the line names.
fn is_script(file: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(file)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"#!")
}

/// Whether `file`, every link on its path followed, lies in a bot's
/// directory `dir`, its build cache `cache` or a system directory: the
/// only places a file its manifest names may be. A file that does not
/// exist lies nowhere.
pub fn lies_in_its_own(file: &Path, dir: &Path, cache: &Path) -> bool {
    let Ok(real) = file.canonicalize() else {
        return false;
    };
    let real_of = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    [dir, cache]
        .into_iter()
        .chain(SYSTEM_DIRS.iter().map(Path::new))
        .any(|place| real.starts_with(real_of(place)))
}

/// The paths `command` names, run by a bot in `dir` (absolute), that
/// exist on the host but that the bot cannot see: every word, every word
/// of a word holding spaces (a shell's `-c` script) and every part of a
/// word holding colons (a Java class path), that is an absolute path
/// outside its directory, the files of [`command_files`],
/// the system, the kernel's views, the toolchains and the devices a bot
/// gets, and the build cache `manifest` names. Such a bot crashes with
/// "no such file" of a file that is there. `manifest` as for
/// [`command_files`].
pub fn hidden_paths(command: &[String], dir: &Path, manifest: Option<&Path>) -> Vec<PathBuf> {
    let mut seen: Vec<PathBuf> = command_files(command, dir, manifest);
    seen.push(dir.to_path_buf());
    seen.extend(manifest.map(Path::to_path_buf));
    seen.extend(
        SYSTEM_DIRS
            .iter()
            .chain(KERNEL_DIRS)
            .chain(DEVICES_RW)
            .chain(DEVICES_READ)
            .map(PathBuf::from),
    );
    seen.extend(toolchains().iter().cloned());
    let visible = |p: &Path| {
        let real = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        seen.iter().any(|v| {
            let v_real = v.canonicalize().unwrap_or_else(|_| v.clone());
            p.starts_with(v) || real.starts_with(&v_real)
        })
    };
    let mut hidden: Vec<PathBuf> = command
        .iter()
        .flat_map(|w| {
            if w.contains(char::is_whitespace) {
                shlex::split(w).unwrap_or_else(|| w.split_whitespace().map(str::to_owned).collect())
            } else {
                vec![w.clone()]
            }
        })
        .flat_map(|w| {
            let mut parts: Vec<String> = w.split(':').map(str::to_owned).collect();
            if parts.len() > 1 {
                parts.push(w);
            }
            parts
        })
        .filter(|w| w.starts_with('/'))
        .map(PathBuf::from)
        .filter(|p| p.exists() && !visible(p))
        .collect();
    // Each once, in the order named (a class path may repeat a part).
    let mut once = std::collections::HashSet::new();
    hidden.retain(|p| once.insert(p.clone()));
    hidden
}

/// One rule of [`system_rules`]: the path, and the rights it gives there
/// (a file's: those a file can have).
#[derive(Debug)]
struct SystemRule {
    path: PathBuf,
    access: BitFlags<AccessFs>,
}

/// What every ruleset allows, bot's and build's alike: reading the
/// system, the kernel's views and the toolchains, and the safe devices;
/// a path that cannot be opened is left out (as `path_beneath_rules`
/// leaves it out).
fn resolve_system_rules() -> Vec<SystemRule> {
    let read = AccessFs::from_read(WANTED);
    let all = AccessFs::from_all(WANTED);
    let file_rights = AccessFs::from_file(WANTED);
    let paths = SYSTEM_DIRS
        .iter()
        .chain(KERNEL_DIRS)
        .map(|p| (PathBuf::from(p), read))
        .chain(toolchains().iter().map(|p| (p.clone(), read)))
        .chain(DEVICES_READ.iter().map(|p| (PathBuf::from(p), read)))
        .chain(DEVICES_RW.iter().map(|p| (PathBuf::from(p), all)));
    paths
        .filter_map(|(path, access)| {
            let fd = PathFd::new(&path).ok()?;
            // As `path_beneath_rules`: a file gets a file's rights only
            // (the kernel refuses directory rights on a file).
            let is_file = rustix::fs::fstat(&fd).is_ok_and(|st| {
                rustix::fs::FileType::from_raw_mode(st.st_mode)
                    .is_dir()
                    .not()
            });
            let access = if is_file {
                access & file_rights
            } else {
                access
            };
            Some(SystemRule { path, access })
        })
        .collect()
}

/// [`resolve_system_rules`], once per process: the paths are the same for
/// every ruleset (the toolchains are dojo's, read once by [`toolchains`]),
/// and resolving and `stat`ing each again (about 55 paths) for every box
/// and every build was most of a ruleset's making. Only the paths and
/// rights are kept: each ruleset opens the paths again (`O_PATH`), as
/// descriptors kept for the process's life would take about 55 of the
/// open files a low `ulimit -n` leaves for games (with 64, none would be
/// left for even one game).
/// Fills this module's caches now (before the box maker is forked: see
/// `crate::box_maker`).
pub(crate) fn warm_caches() {
    let _ = toolchains();
    let _ = system_rules();
    let _ = probe_abi();
}

fn system_rules() -> &'static [SystemRule] {
    static RULES: std::sync::OnceLock<Vec<SystemRule>> = std::sync::OnceLock::new();
    RULES.get_or_init(resolve_system_rules)
}

/// Adds [`system_rules`] to `created`.
fn with_system(created: RulesetCreated) -> Result<RulesetCreated, ConfineError> {
    let rules = system_rules()
        .iter()
        // A path gone since it was resolved is left out, as
        // `path_beneath_rules` leaves out one it cannot open.
        .filter_map(|rule| PathFd::new(&rule.path).ok().map(|fd| (fd, rule.access)))
        .map(|(fd, access)| Ok::<_, RulesetError>(PathBeneath::new(fd, access)));
    Ok(created.add_rules(rules)?)
}

/// The Landlock rights of a bot in its scratch directory (every right
/// dojo asks for that this kernel has), as a rule's bit mask: given to
/// the directory its box's scratch filesystems are mounted in (see
/// `crate::root`).
pub fn scratch_access() -> u64 {
    let kernel = AccessFs::from_all(ABI::from(crate::sys::landlock_abi()));
    (AccessFs::from_all(WANTED) & kernel).bits()
}

/// A Landlock ruleset for one bot process, as the descriptor the child
/// hands to `landlock_restrict_self`; `None` where the kernel has no
/// Landlock.
pub fn ruleset(reach: &Reach<'_>) -> Result<Option<OwnedFd>, ConfineError> {
    let read = AccessFs::from_read(WANTED);
    let all = AccessFs::from_all(WANTED);
    let created = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?
        .handle_access(AccessNet::from_all(WANTED))?
        .scope(Scope::from_all(WANTED))?
        .create()?;
    let created = with_system(created)?
        .add_rules(path_beneath_rules([reach.bot_dir], read))?
        .add_rules(path_beneath_rules(reach.program.iter(), read))?
        .add_rules(path_beneath_rules(reach.cache, read))?
        .add_rules(path_beneath_rules(reach.extra_read, read))?
        .add_rules(path_beneath_rules([reach.scratch], all))?;
    Ok(created.into())
}

/// What a build step may reach (see `crate::build_box`): read and
/// execute the system, the toolchains on PATH and `read`; read, write and
/// execute `write` (its own directory, its cache, its scratch directory,
/// the toolchain caches it fills). Writable files may be named too (a
/// lock file at the top of `CARGO_HOME`): they get the file rights only.
#[derive(Debug)]
pub struct BuildReach<'a> {
    pub read: &'a [PathBuf],
    pub write: &'a [PathBuf],
    /// Deny TCP `bind` and `connect` (`--build-network off` where no
    /// network namespace can be made).
    pub deny_tcp: bool,
}

/// A Landlock ruleset for a build step, as [`ruleset`] makes one for a
/// bot process; its network rules only with `deny_tcp` (a build fetches
/// its dependencies otherwise).
pub fn build_ruleset(reach: &BuildReach<'_>) -> Result<Option<OwnedFd>, ConfineError> {
    let read = AccessFs::from_read(WANTED);
    let all = AccessFs::from_all(WANTED);
    let handled = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?;
    let handled = if reach.deny_tcp {
        handled.handle_access(AccessNet::from_all(WANTED))?
    } else {
        handled
    };
    let created = handled.scope(Scope::from_all(WANTED))?.create()?;
    let created = with_system(created)?
        .add_rules(path_beneath_rules(reach.read, read))?
        .add_rules(path_beneath_rules(reach.write, all))?;
    Ok(created.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_a_shell_runs_from_elsewhere_is_hidden_and_an_interpreters_is_not() {
        let scripts = tempfile::tempdir().unwrap();
        let cwd = tempfile::tempdir().unwrap();
        let script = scripts.path().join("bot.py");
        std::fs::write(&script, "").unwrap();
        let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let shown = script.display().to_string();
        let in_shell = format!("python3 {shown}");
        assert_eq!(
            hidden_paths(&words(&["sh", "-c", &in_shell]), cwd.path(), None),
            [script]
        );
        // The interpreter's script: its directory is shown to the bot.
        assert!(hidden_paths(&words(&["python3", &shown]), cwd.path(), None).is_empty());
        // Under the bot's directory, in the system, or not there at all.
        assert!(hidden_paths(&words(&["sh", "-c", &in_shell]), scripts.path(), None).is_empty());
        assert!(
            hidden_paths(
                &words(&["sh", "-c", "/usr/bin/env python3 x"]),
                cwd.path(),
                None
            )
            .is_empty()
        );
        assert!(
            hidden_paths(
                &words(&["sh", "-c", "python3 /nonexistent/b.py"]),
                cwd.path(),
                None
            )
            .is_empty()
        );
    }

    #[test]
    fn a_program_given_as_a_path_is_resolved_against_the_bot_directory() {
        let dir = Path::new("/bots/x");
        let cmd = |s: &str| vec![s.to_string(), "arg".to_string()];
        assert_eq!(
            program_path(&cmd("../../target/release/x"), dir),
            Some(PathBuf::from("/bots/x/../../target/release/x"))
        );
        assert_eq!(program_path(&cmd("python3"), dir), None);
        assert_eq!(program_path(&[], dir), None);
    }

    #[test]
    fn a_script_named_by_path_opens_its_directory_also_behind_env() {
        let tmp = tempfile::tempdir().unwrap();
        let script = tmp.path().join("bot.py");
        std::fs::write(&script, "").unwrap();
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let here = Path::new("/elsewhere");
        let script = script.display();
        for command in [
            format!("python3 {script}"),
            format!("python3 -u {script} --fast"),
            format!("env VAR=1 python3 {script}"),
            format!("/usr/bin/env -i A=1 B=2 python3 {script}"),
        ] {
            let files = command_files(&words(&command), here, None);
            assert!(
                files.contains(&tmp.path().to_path_buf()),
                "{command}: {files:?}"
            );
        }
        // A program behind env: the program itself, when executable.
        let program = tmp.path().join("bot");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(
            command_files(&words("env VAR=1 ./bot"), tmp.path(), None),
            [tmp.path().join("./bot")]
        );
        assert!(command_files(&words("python3 missing.py"), here, None).is_empty());
        // The same script run by its `#!` line from elsewhere: its
        // directory too (it had the file alone, and its imports failed);
        // a binary, itself alone.
        let by_path = program.display().to_string();
        assert_eq!(
            command_files(&words(&by_path), here, None),
            [tmp.path().to_path_buf(), program.clone()]
        );
        let binary = tmp.path().join("binary");
        std::fs::write(&binary, b"\x7fELF").unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
        let by_path = binary.display().to_string();
        assert_eq!(command_files(&words(&by_path), here, None), [binary]);
    }

    /// A manifest's program counts only where its links lead into its
    /// own directory, its build cache or the system: a link to another
    /// bot's binary (in its directory, or one a build made in its cache)
    /// is not bound into its box or opened to Landlock.
    #[test]
    fn a_manifests_link_out_of_its_own_places_is_not_its_program() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (dir, cache, other) = (root.join("bot"), root.join("cache"), root.join("other"));
        for d in [&dir, &cache, &other] {
            std::fs::create_dir(d).unwrap();
        }
        for file in [other.join("bot"), dir.join("own"), cache.join("built")] {
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        symlink(other.join("bot"), dir.join("stolen")).unwrap();
        symlink("../other/bot", cache.join("copied")).unwrap();
        symlink("own", dir.join("alias")).unwrap();
        let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let files = |command: &[&str], manifest| command_files(&words(command), &dir, manifest);
        let manifest = Some(cache.as_path());
        assert!(files(&["./stolen"], manifest).is_empty());
        assert!(files(&["env", "-Spython3 bot.py", "./stolen"], manifest).is_empty());
        let copied = cache.join("copied");
        assert!(files(&[copied.to_str().unwrap()], manifest).is_empty());
        assert_eq!(files(&["./alias"], manifest), [dir.join("./alias")]);
        let built = cache.join("built");
        assert_eq!(files(&[built.to_str().unwrap()], manifest), [built]);
        // The organiser's own words are taken as they are.
        assert_eq!(files(&["./stolen"], None), [dir.join("./stolen")]);
        assert!(lies_in_its_own(&dir.join("own"), &dir, &cache));
        assert!(lies_in_its_own(Path::new("/bin/sh"), &dir, &cache));
        assert!(!lies_in_its_own(&dir.join("stolen"), &dir, &cache));
        assert!(!lies_in_its_own(&dir.join("missing"), &dir, &cache));
    }

    /// A rule as the test compares it: path, rights, and the inode
    /// opened.
    fn shown(rule: &SystemRule) -> (PathBuf, BitFlags<AccessFs>, (u64, u64)) {
        let st = rustix::fs::stat(&rule.path).expect("stat of a rule's path");
        (rule.path.clone(), rule.access, (st.st_dev, st.st_ino))
    }

    #[test]
    fn the_cached_system_rules_are_those_resolved_anew() {
        let cached: Vec<_> = system_rules().iter().map(shown).collect();
        let fresh: Vec<_> = resolve_system_rules().iter().map(shown).collect();
        assert_eq!(cached, fresh);
        // The same paths `path_beneath_rules` opens, each with the rights
        // it gives: a directory's, or a file's for a file.
        let read = AccessFs::from_read(WANTED);
        let rule = |p: &str| cached.iter().find(|(path, ..)| path == Path::new(p));
        if let Some((_, access, _)) = rule("/usr") {
            assert_eq!(*access, read);
        }
        let null = rule("/dev/null").expect("/dev/null is opened");
        assert_eq!(
            null.1,
            AccessFs::from_all(WANTED) & AccessFs::from_file(WANTED)
        );
        assert!(rule("/nonexistent").is_none());
        let expected = SYSTEM_DIRS
            .iter()
            .chain(KERNEL_DIRS)
            .chain(DEVICES_READ)
            .chain(DEVICES_RW)
            .map(PathBuf::from)
            .chain(toolchains().iter().cloned())
            .filter(|p| PathFd::new(p).is_ok())
            .count();
        assert_eq!(cached.len(), expected);
    }

    #[test]
    fn a_ruleset_is_built_where_the_kernel_has_landlock() {
        let scratch = tempfile::tempdir().unwrap();
        let reach = Reach {
            bot_dir: Path::new("/"),
            program: Vec::new(),
            cache: None,
            scratch: scratch.path(),
            extra_read: &[],
        };
        let fd = ruleset(&reach).expect("a ruleset");
        if probe_abi() > 0 {
            assert!(fd.is_some());
        } else {
            eprintln!("skipped: this kernel has no Landlock");
        }
    }
}

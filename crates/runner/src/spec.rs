//! What a bot is: a command run in its own directory, and how to find one
//! from a command-line string.

use std::path::{Path, PathBuf};

use crate::manifest::{ManifestError, check_name, parse_manifest};
pub(crate) use crate::manifest::{Mode, is_valid_name};

/// File name of a bot's manifest inside its directory.
pub const MANIFEST_FILE: &str = "bot.toml";

/// A runnable bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpec {
    /// Display name (manifest `name`, else the directory name).
    pub name: String,
    /// Program and arguments; a program containing `/` is absolute.
    pub command: Vec<String>,
    /// Working directory of the bot's processes (absolute).
    pub dir: PathBuf,
    /// Build step run once in `dir` before games, if any.
    pub build: Option<Vec<String>>,
    /// How its processes live across turns.
    pub mode: Mode,
    /// Games it declares it plays; empty means not declared.
    pub games: Vec<String>,
    /// The team the manifest declares, as written and where; the runner
    /// knows no game, so it is checked where a game uses it
    /// (`dojo_games::fixed_role`, `dojo_games::check_team`).
    pub team: Option<crate::ManifestTeam>,
    /// Free text from the manifest.
    pub description: Option<String>,
    /// The manifest's `[limits]` and `[time]`: values that replace the
    /// run's for this bot's processes. A league may lower or refuse them
    /// before play (`docs/sandbox.md`); the runner applies what is here.
    pub values: crate::BotValues,
}

/// Why a bot could not be resolved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error(
        "no bot {spec:?}: tried {}; available bots: {}{}{}",
        show_paths(tried),
        show_names(available),
        suggestion.as_ref().map(|s| format!("; did you mean {s:?}?")).unwrap_or_default(),
        inline.as_ref().map(|s| format!("; {spec} is a file: to run a program as a bot, give NAME=COMMAND: `{s}`")).unwrap_or_default()
    )]
    NotFound {
        spec: String,
        tried: Vec<PathBuf>,
        available: Vec<String>,
        /// The available name closest to `spec`, if close enough to be a typo.
        suggestion: Option<String>,
        /// When `spec` is a file (a script given where a BOT goes): the
        /// `NAME=COMMAND` that runs it.
        inline: Option<String>,
    },
    #[error("inline bot {spec:?}: {message}")]
    Inline { spec: String, message: String },
    #[error("cannot read {}: {source}", file.display())]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// The bot's name would be its directory's, which breaks the name
    /// rule.
    #[error("{}: {message}", dir.display())]
    BadName { dir: PathBuf, message: String },
    /// A `bot.toml` that is there but is no regular file (a directory, a
    /// device, a FIFO, or a link to one): not read, and not taken for a
    /// missing manifest either.
    #[error("{}: {kind}, not a regular file; a bot's manifest is a file named bot.toml", file.display())]
    NotRegular { file: PathBuf, kind: &'static str },
    /// A `bot.toml` that is a link out of the bot's directory: dojo (root,
    /// as root) would read a file the submitter cannot, and quote it in
    /// its errors and reports.
    #[error(
        "{}: a link to {}, outside the bot's directory; a bot's manifest is its own file",
        file.display(),
        target.display()
    )]
    ManifestOutside { file: PathBuf, target: PathBuf },
    /// A directory without a `bot.toml` and without a single obvious
    /// script to run ([`crate::script::obvious_script`]).
    #[error("{}: {reason}", dir.display())]
    NoManifest { dir: PathBuf, reason: String },
    /// A `bot.toml` whose command runs a program outside the bot's own
    /// directory and build cache (another bot's binary, a file of the
    /// host), named or reached through a link of its own (`through`): its
    /// box would have to show that file to it.
    #[error(
        "{}: its command runs {}{}, outside the bot's directory and its build cache ($DOJO_CACHE); \
         a bot runs its own files, or a program on PATH named without a `/` (`python3`)",
        file.display(),
        program.display(),
        through.as_ref().map(|l| format!(" (through the link {})", l.display())).unwrap_or_default()
    )]
    OutsideProgram {
        file: PathBuf,
        program: PathBuf,
        through: Option<PathBuf>,
    },
}

fn show_paths(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
}

fn show_names(names: &[String]) -> String {
    if names.is_empty() {
        "(none)".to_string()
    } else {
        names.join(", ")
    }
}

/// Why a bot's build step failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("bot {bot}: cannot run build command {command:?}: {source}")]
    Spawn {
        bot: String,
        command: Vec<String>,
        source: std::io::Error,
    },
    #[error(
        "bot {bot}: build command {command:?} failed ({status}); {}{}",
        show_output(stdout_tail, stderr_tail),
        denied_hint(stdout_tail, stderr_tail).map(|h| format!("\nhint: {h}")).unwrap_or_default()
    )]
    Failed {
        bot: String,
        command: Vec<String>,
        /// How it ended (`exit status 3`, `killed by signal 9 (SIGKILL)`).
        status: String,
        /// The end of its stdout (`tsc`, Maven and `javac` print their
        /// errors there) and of its stderr; `(nothing)` when it wrote
        /// nothing.
        stdout_tail: String,
        stderr_tail: String,
    },
    /// The build cannot run with the confinement asked for
    /// (`--build-network off` on a machine that cannot take the network
    /// away, a cache directory that cannot be made).
    #[error("bot {bot}: cannot run build command {command:?}: {message}")]
    Confine {
        bot: String,
        command: Vec<String>,
        message: String,
    },
    #[error(
        "bot {bot}: build command {command:?} still running after {} s (killed with everything it started); {}",
        limit.as_secs(),
        show_output(stdout_tail, stderr_tail)
    )]
    TimedOut {
        bot: String,
        command: Vec<String>,
        limit: std::time::Duration,
        stdout_tail: String,
        stderr_tail: String,
    },
}

impl BuildError {
    /// A failed build's hint when its output says "Permission denied"
    /// (what a confined build may read, and how to give it a file from
    /// elsewhere), as its message ends with it.
    pub fn hint(&self) -> Option<String> {
        match self {
            BuildError::Failed {
                stdout_tail,
                stderr_tail,
                ..
            } => denied_hint(stdout_tail, stderr_tail),
            _ => None,
        }
    }

    /// The end of the build's stdout and of its stderr.
    pub fn output(&self) -> Option<(&str, &str)> {
        match self {
            BuildError::Spawn { .. } | BuildError::Confine { .. } => None,
            BuildError::Failed {
                stdout_tail,
                stderr_tail,
                ..
            }
            | BuildError::TimedOut {
                stdout_tail,
                stderr_tail,
                ..
            } => Some((stdout_tail, stderr_tail)),
        }
    }
}

fn show_output(stdout: &str, stderr: &str) -> String {
    format!("end of its stdout:\n{stdout}\nend of its stderr:\n{stderr}")
}

/// When a failed build's output says "Permission denied": what a build
/// may read, and how to give it a file from elsewhere. The likeliest
/// cause is the build's confinement, which nothing else in cargo's (or
/// any tool's) message mentions: a path dependency outside the bot's
/// directory (`dojo-engine = { path = "/checkout/crates/engine" }`).
fn denied_hint(stdout: &str, stderr: &str) -> Option<String> {
    const DENIED: &str = "Permission denied";
    (stdout.contains(DENIED) || stderr.contains(DENIED)).then(|| {
        format!(
            "a build runs confined (docs/sandbox.md, \"confined builds\") and reads only {}; \
             a file elsewhere, such as a path dependency outside the bot's directory, is denied: \
             copy it into the bot's directory and point to the copy (for dojo-engine, see \
             docs/guide.md, \"Rust bots\"), or make it a git or registry dependency",
            dojo_sandbox::build_box::READS
        )
    })
}

/// `killed by signal 9 (SIGKILL)`: which signal says who ended a build
/// (the OOM killer or a sweep: KILL; a compiler's crash: SEGV, ABRT).
fn signal_status(n: i32) -> String {
    let name = match n {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("killed by signal {n}"),
    };
    format!("killed by signal {n} ({name})")
}

/// How long a build step may run unless the caller says otherwise.
pub const DEFAULT_BUILD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// Stderr of a build kept in memory (the head; the message shows its end).
const BUILD_LOG_CAP_BYTES: usize = 1 << 20;

/// Makes a program given with a `/` absolute against the bot directory:
/// how `Command` resolves relative paths together with `current_dir`
/// differs between platforms.
fn anchor_program(mut command: Vec<String>, dir: &Path) -> Vec<String> {
    if let Some(program) = command.first_mut()
        && program.contains('/')
        && Path::new(program.as_str()).is_relative()
    {
        *program = dir.join(program.as_str()).to_string_lossy().into_owned();
    }
    command
}

/// The word a manifest's `command` and `build` may start a word with to
/// name the bot's build cache ([`bot_cache`]).
pub const CACHE_WORD: &str = "$DOJO_CACHE";

/// Where the bots of one bots directory (`bots_parent`, absolute) put what
/// they build: `$XDG_CACHE_HOME/dojo/build/NAME-HASH`, else under
/// `~/.cache`, NAME and HASH of that directory. Per user, outside any
/// source tree (an installed dojo never builds into the checkout it came
/// from), and one per bots directory, so two checkouts never replace each
/// other's programs.
pub fn build_cache(bots_parent: &Path) -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir);
    // FNV-1a: the same directory gives the same cache with any build of dojo.
    let hash = bots_parent
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    let name = bots_parent
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "bots".into(), |n| n.to_string_lossy().into_owned());
    base.join("dojo/build").join(format!("{name}-{hash:016x}"))
}

/// The build cache of the bot in `dir` (absolute): its own directory,
/// named after its directory, in the cache of its bots directory
/// ([`build_cache`]). One per bot, not one per bots directory: its build
/// may write there, and a cache shared with the folder's other bots would
/// let one submission's build replace another's program.
pub fn bot_cache(dir: &Path) -> PathBuf {
    let own = dir
        .file_name()
        .map_or_else(|| "bot".into(), |n| n.to_string_lossy().into_owned());
    build_cache(dir.parent().unwrap_or(dir)).join(own)
}

/// `words` with a leading [`CACHE_WORD`] in any word replaced by `cache`.
fn expand_cache(words: Vec<String>, cache: &Path) -> Vec<String> {
    words
        .into_iter()
        .map(|w| match w.strip_prefix(CACHE_WORD) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                format!("{}{rest}", cache.display())
            }
            _ => w,
        })
        .collect()
}

/// Whether `dir` has a `bot.toml` of any kind: a directory, a device or
/// a dangling link there is a manifest that [`load_dir`] refuses by name,
/// not a bot without one.
fn has_manifest(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(MANIFEST_FILE)).is_ok()
}

/// What kind of file `meta` is, for a message saying it is not a regular
/// one.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Resolves a bot given on the command line: `NAME=COMMAND` (run in the
/// current directory), `NAME=DIR` (the bot in DIR, named NAME:
/// [`named_dir`]), a directory holding `bot.toml`, or a name under
/// `bots_dir`.
pub fn resolve(spec: &str, bots_dir: &Path) -> Result<BotSpec, SpecError> {
    resolve_from(spec, bots_dir, None)
}

/// [`resolve`], a `NAME=COMMAND` run in `cwd` rather than the current
/// directory: the directory it was first given in (a league resumed from
/// elsewhere runs its bots where they were given, so a command's relative
/// paths mean what they meant).
pub fn resolve_in(spec: &str, bots_dir: &Path, cwd: &Path) -> Result<BotSpec, SpecError> {
    resolve_from(spec, bots_dir, Some(cwd))
}

fn resolve_from(spec: &str, bots_dir: &Path, cwd: Option<&Path>) -> Result<BotSpec, SpecError> {
    if let Some((name, dir)) = named_dir(spec) {
        return load_named(&dir, Some(name)).map(|(bot, _)| bot);
    }
    if let Some((name, command)) = spec.split_once('=')
        && is_valid_name(name)
    {
        return inline(spec, name, command, cwd);
    }
    let as_dir = Path::new(spec);
    let mut tried = vec![as_dir.join(MANIFEST_FILE)];
    if has_manifest(as_dir) {
        return load_dir(as_dir);
    }
    let named = is_valid_name(spec).then(|| bots_dir.join(spec));
    if let Some(named) = &named {
        if has_manifest(named) {
            return load_dir(named);
        }
        tried.push(named.join(MANIFEST_FILE));
    }
    // A directory without a manifest: its single obvious script, if it
    // has one (else why not).
    if let Some(dir) = [Some(as_dir), named.as_deref()]
        .into_iter()
        .flatten()
        .find(|d| d.is_dir())
    {
        return load_any(dir).map(|(bot, _)| bot);
    }
    // `NAME=COMMAND` whose NAME breaks the rule: say so, rather than that
    // no such file exists.
    if let Some((name, _)) = spec.split_once('=')
        && !name.contains('/')
        && let Err(why) = check_name(name)
    {
        return Err(SpecError::Inline {
            spec: spec.to_string(),
            message: why,
        });
    }
    let available = available_names(bots_dir);
    Err(SpecError::NotFound {
        spec: spec.to_string(),
        tried,
        suggestion: closest(spec, &available),
        available,
        inline: as_dir.is_file().then(|| inline_for(as_dir)),
    })
}

/// The `NAME=COMMAND` that runs the file `path` as a bot: its script
/// extension's interpreter ([`crate::script::SCRIPTS`]) and the file, or
/// the file itself; NAME is its stem when that is a valid name.
fn inline_for(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| is_valid_name(s))
        .unwrap_or_else(|| "mybot".to_owned());
    let file = shlex::try_quote(&path.to_string_lossy())
        .map_or_else(|_| path.display().to_string(), |q| q.into_owned());
    let ext = path.extension().and_then(|x| x.to_str());
    match crate::script::SCRIPTS.iter().find(|(x, _)| Some(*x) == ext) {
        Some((_, interpreter)) => format!("{stem}={interpreter} {file}"),
        // A program: given with a `/`, so it is not looked up on PATH.
        None if path.components().count() == 1 => format!("{stem}=./{file}"),
        None => format!("{stem}={file}"),
    }
}

/// The name in `names` closest to `spec` by edit distance, when it is
/// within a third of the name's length (at least 1, at most 3 edits): a
/// likely typo, not just any bot.
fn closest(spec: &str, names: &[String]) -> Option<String> {
    names
        .iter()
        .map(|n| (strsim::levenshtein(spec, n), n))
        .filter(|(d, n)| *d > 0 && *d <= (n.chars().count() / 3).clamp(1, 3))
        .min()
        .map(|(_, n)| n.clone())
}

/// The NAME and directory of a `NAME=DIR` spec: a valid NAME and a
/// command of one word that names a directory (relative to the current
/// one). A directory is no program, so such a command could only fail to
/// start: it means the bot in that directory (its `bot.toml`, or its
/// single obvious script), under the name NAME (`dojo compare cardjitsu
/// new=./bot-new base=./bot-old`).
pub fn named_dir(spec: &str) -> Option<(&str, PathBuf)> {
    let (name, command) = spec.split_once('=')?;
    if !is_valid_name(name) {
        return None;
    }
    match shlex::split(command)?.as_slice() {
        [word] if Path::new(word).is_dir() => Some((name, PathBuf::from(word))),
        _ => None,
    }
}

/// The spec `NAME=DIR` of the bot in `dir` under the name `name`, DIR
/// absolute and quoted as a shell word when it needs to be: what
/// [`named_dir`] reads back, from any directory.
pub fn named_dir_spec(name: &str, dir: &Path) -> String {
    let dir = absolute(dir).to_string_lossy().into_owned();
    match shlex::try_quote(&dir) {
        Ok(quoted) => format!("{name}={quoted}"),
        Err(_) => format!("{name}={dir}"),
    }
}

fn inline(spec: &str, name: &str, command: &str, cwd: Option<&Path>) -> Result<BotSpec, SpecError> {
    let err = |message: &str| SpecError::Inline {
        spec: spec.to_string(),
        message: message.to_string(),
    };
    let words = shlex::split(command)
        .ok_or_else(|| err("cannot split the command (unbalanced quotes?)"))?;
    if words.is_empty() {
        return Err(err("the command is empty; expected NAME=PROGRAM [ARGS...]"));
    }
    let dir = match cwd {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir()
            .map_err(|e| err(&format!("cannot read the current directory: {e}")))?,
    };
    Ok(BotSpec::bare(name.to_string(), words, dir))
}

impl BotSpec {
    /// A bot that is only its command, run in `dir` (its program anchored
    /// there): no manifest, so no build, games, team or values of its own.
    fn bare(name: String, command: Vec<String>, dir: PathBuf) -> BotSpec {
        BotSpec {
            name,
            command: anchor_program(command, &dir),
            dir,
            build: None,
            mode: Mode::Auto,
            games: Vec::new(),
            team: None,
            description: None,
            values: crate::BotValues::default(),
        }
    }
}

/// For a bot that crashed: when its sandbox hid a path its command names
/// (a bot given as `NAME=COMMAND` naming a script outside the current
/// directory inside a shell's `-c`; a `bot.toml` naming a class path or a
/// library outside its directory and build cache), what happened and how
/// to run it so the path is seen. `None` under `--sandbox off` and when
/// every path named is visible.
pub fn hidden_path_hint(bot: &BotSpec, sandbox: crate::SandboxMode) -> Option<String> {
    if sandbox == crate::SandboxMode::Off {
        return None;
    }
    let cache = bot.manifest_cache();
    let hidden = dojo_sandbox::confine::hidden_paths(&bot.command, &bot.dir, cache.as_deref());
    let first = hidden.first()?;
    let shown: Vec<String> = hidden.iter().map(|p| p.display().to_string()).collect();
    if let Some(cache) = cache {
        // A manifest's command may run only what is the bot's own: what
        // it needs goes where the box shows it.
        return Some(format!(
            "the sandbox hid {} from bot {}: a bot with a bot.toml sees only its own directory \
             ({}), its build cache ($DOJO_CACHE, {}) and the system; copy what it needs into its \
             directory, or have its build put it in $DOJO_CACHE",
            shown.join(", "),
            bot.name,
            bot.dir.display(),
            cache.display()
        ));
    }
    let ext = first.extension().and_then(|x| x.to_str());
    let example = match crate::script::SCRIPTS.iter().find(|(x, _)| Some(*x) == ext) {
        Some((_, interpreter)) => format!("{}={interpreter} {}", bot.name, first.display()),
        None => format!("{}={}", bot.name, first.display()),
    };
    Some(format!(
        "the sandbox hid {} from bot {}: a bot sees only its own directory ({}) and the system; \
         give the bot a directory with a bot.toml, or name the script as the program or as its \
         interpreter's script, which the bot is then shown: `{example}`",
        shown.join(", "),
        bot.name,
        bot.dir.display()
    ))
}

/// Loads the bot whose `bot.toml` is in `dir`.
pub fn load_dir(dir: &Path) -> Result<BotSpec, SpecError> {
    load_manifest(dir, None)
}

/// [`load_dir`], the bot named `given` when given (over its manifest's
/// `name` and its directory's).
fn load_manifest(dir: &Path, given: Option<&str>) -> Result<BotSpec, SpecError> {
    let file = dir.join(MANIFEST_FILE);
    // Only a regular file (or a link to one) is read: a directory would
    // fail with a bare "Is a directory", a device would be read up to the
    // cap and parsed.
    match std::fs::metadata(&file) {
        Ok(meta) if !meta.is_file() => {
            return Err(SpecError::NotRegular {
                kind: file_kind(&meta),
                file,
            });
        }
        _ => {}
    }
    if let (Ok(target), Ok(own)) = (file.canonicalize(), dir.canonicalize())
        && !target.starts_with(&own)
    {
        return Err(SpecError::ManifestOutside { file, target });
    }
    let text = crate::input::read_text_capped(&file, crate::input::MANIFEST_CAP, "a bot.toml")
        .map_err(|source| SpecError::Read {
            file: file.clone(),
            source,
        })?;
    let manifest = parse_manifest(&file, &text)?;
    let dir = absolute(dir);
    let cache = bot_cache(&dir);
    let command = anchor_program(expand_cache(manifest.command.0, &cache), &dir);
    if let Some((program, through)) = outside_program(&command, &dir, &cache) {
        return Err(SpecError::OutsideProgram {
            file,
            program,
            through,
        });
    }
    let name = match given.map(str::to_owned).or(manifest.name) {
        Some(name) => name,
        None => name_of_dir(
            &dir,
            "add `name = \"...\"` to its bot.toml, or rename the directory",
        )?,
    };
    Ok(BotSpec {
        name,
        command,
        build: manifest
            .build
            .map(|b| anchor_program(expand_cache(b.0, &cache), &dir)),
        dir,
        mode: manifest.mode,
        games: manifest.games,
        team: manifest.team,
        description: manifest.description,
        values: crate::BotValues {
            limits: manifest.limits,
            time: manifest.time,
        },
    })
}

/// The program a manifest's `command` (made absolute) runs by path outside
/// the bot's directory `dir` and its build cache `cache`, if it does: the
/// command's first word, or for `env [OPTIONS] [NAME=VALUE...] COMMAND`
/// (even one that runs a script of the bot's own through `-S`) the first
/// word of COMMAND as well. A box shows a bot the program it runs, so
/// such a manifest could read another bot's binary through its own
/// command: refused when the manifest is read. `..` is resolved by the
/// words, not by following links, so `./../other/bot` is outside too; and
/// a program that is there is followed through its links too, so a link
/// of the bot's own to another bot's binary is outside (the box would not
/// show it: [`dojo_sandbox::confine::lies_in_its_own`]).
/// The second value is the link it was named by, for one reached through
/// a link.
fn outside_program(
    command: &[String],
    dir: &Path,
    cache: &Path,
) -> Option<(PathBuf, Option<PathBuf>)> {
    let first = command.first()?;
    let mut programs = vec![first.clone()];
    if Path::new(first).file_name() == Some("env".as_ref()) {
        programs.extend(
            command
                .iter()
                .skip(1)
                .find(|w| !w.starts_with('-') && !w.contains('='))
                .cloned(),
        );
    }
    programs
        .into_iter()
        .filter(|p| p.contains('/'))
        .map(|p| normal(&dir.join(p)))
        .find_map(|p| {
            let named_outside = !p.starts_with(dir)
                && !p.starts_with(cache)
                && !dojo_sandbox::confine::SYSTEM_DIRS
                    .iter()
                    .any(|system| p.starts_with(system));
            if named_outside {
                return Some((p, None));
            }
            // Named inside, but a link out: the file it leads to.
            let real = p.canonicalize().ok()?;
            (!dojo_sandbox::confine::lies_in_its_own(&real, dir, cache)).then_some((real, Some(p)))
        })
}

/// `path` with `.` and `..` resolved by its words alone.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The name of the bot in `dir` (absolute) when its directory names it:
/// the directory's name, if it follows the name rule; `fix` says what to
/// do when it does not.
fn name_of_dir(dir: &Path, fix: &str) -> Result<String, SpecError> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    check_name(&name).map_err(|why| SpecError::BadName {
        dir: dir.to_path_buf(),
        message: format!("the bot takes its name from the directory, and {why}; {fix}"),
    })?;
    Ok(name)
}

/// Loads the bot in `dir`: from its `bot.toml`, or without one from its
/// single obvious script ([`crate::script::obvious_script`]), named after
/// the directory, run in mode `auto`, declaring no games. The second
/// value is the file taken as the bot when there was no `bot.toml`.
pub fn load_any(dir: &Path) -> Result<(BotSpec, Option<String>), SpecError> {
    load_named(dir, None)
}

/// [`load_any`], the bot named `given` when given.
fn load_named(dir: &Path, given: Option<&str>) -> Result<(BotSpec, Option<String>), SpecError> {
    if has_manifest(dir) {
        return Ok((load_manifest(dir, given)?, None));
    }
    let (command, script) =
        crate::script::obvious_script(dir).map_err(|reason| SpecError::NoManifest {
            dir: dir.to_path_buf(),
            reason,
        })?;
    let dir = absolute(dir);
    let name = match given {
        Some(name) => name.to_owned(),
        None => name_of_dir(
            &dir,
            "rename the directory, or give it a bot.toml with a `name`",
        )?,
    };
    Ok((BotSpec::bare(name, command, dir), Some(script)))
}

/// Names of the directories under `bots_dir` that hold a manifest.
fn available_names(bots_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(bots_dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().join(MANIFEST_FILE).is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Bytes of the end of a build's stdout, and of its stderr, shown when it
/// fails.
const OUTPUT_TAIL_BYTES: usize = 4000;

/// The last [`OUTPUT_TAIL_BYTES`] of `text` (whole characters), or
/// `(nothing)`.
fn tail(text: &str) -> String {
    let start = text
        .char_indices()
        .map(|(i, _)| i)
        .find(|&i| text.len() - i <= OUTPUT_TAIL_BYTES)
        .unwrap_or(text.len());
    match text[start..].trim_end() {
        "" => "(nothing)".to_owned(),
        shown => shown.to_owned(),
    }
}

/// The last lines of a build's stdout, about [`OUTPUT_TAIL_BYTES`] of
/// them: the rest is read and dropped.
#[derive(Debug, Default)]
struct OutputTail {
    lines: std::collections::VecDeque<String>,
    bytes: usize,
}

impl OutputTail {
    fn push(&mut self, event: crate::process::Event) {
        let line = match event {
            crate::process::Event::Line(line) => line,
            crate::process::Event::TooLong => "(a line too long to keep)".to_owned(),
            _ => return,
        };
        self.bytes += line.len() + 1;
        self.lines.push_back(line);
        while self.bytes > OUTPUT_TAIL_BYTES && self.lines.len() > 1 {
            let dropped = self.lines.pop_front().map_or(0, |l| l.len() + 1);
            self.bytes -= dropped;
        }
    }
}

impl BotSpec {
    /// For a bot loaded from its `bot.toml`: its build cache, the one
    /// place outside its directory and the system a manifest's command may
    /// name (what [`dojo_sandbox::Launch::manifest`] holds). `None` for a
    /// bot given by the organiser's command line.
    pub fn manifest_cache(&self) -> Option<PathBuf> {
        self.dir
            .join(MANIFEST_FILE)
            .is_file()
            .then(|| bot_cache(&self.dir))
    }

    /// Whether the bot declares `game` (or declares no games at all).
    pub fn plays(&self, game: &str) -> bool {
        self.games.is_empty() || self.games.iter().any(|g| g == game)
    }

    /// Runs the build step, if any, in the bot's directory with no input,
    /// for at most [`DEFAULT_BUILD_TIMEOUT`]. See [`BotSpec::build_within`].
    pub fn build(&self) -> Result<(), BuildError> {
        self.build_within(DEFAULT_BUILD_TIMEOUT)
    }

    /// [`BotSpec::build_with`] with the network (builds fetch their
    /// dependencies).
    pub fn build_within(&self, limit: std::time::Duration) -> Result<(), BuildError> {
        self.build_with(crate::BuildNetwork::On, limit)
    }

    /// Runs the build step like a bot process, in a box of its own (see
    /// `dojo_sandbox::build_box`: its own PID, IPC and UTS namespaces, a clean
    /// environment with `DOJO_CACHE` and the toolchain variables, Landlock
    /// letting it write only its directory, its cache, a scratch directory
    /// and cargo's download caches, seccomp, build-sized control groups;
    /// the network only with `network` on), in its own process group,
    /// known to [`crate::kill_all_bots`] for Ctrl-C, with the end of
    /// stdout kept (the rest read and dropped) and stderr capped; a
    /// failure shows the end of both. Killed with its process tree after
    /// `limit`.
    pub fn build_with(
        &self,
        network: crate::BuildNetwork,
        limit: std::time::Duration,
    ) -> Result<(), BuildError> {
        use crate::process::{BotProcess, Event, Source};
        use dojo_sandbox::spawn::Launch;
        let Some(command) = &self.build else {
            return Ok(());
        };
        if command.is_empty() {
            return Ok(());
        }
        let cache = bot_cache(&self.dir);
        let confined = dojo_sandbox::build_box::prepare(&self.name, &self.dir, &cache, network)
            .map_err(|message| BuildError::Confine {
                bot: self.name.clone(),
                command: command.clone(),
                message,
            })?;
        let manifest_cache = self.manifest_cache();
        let mut process = BotProcess::spawn(
            0,
            0,
            4096,
            Launch {
                command,
                dir: &self.dir,
                scratch: Some(confined.scratch()),
                extra_read: &[],
                manifest: manifest_cache.as_deref(),
                env: &confined.env,
                containment: confined.containment,
                clean_env: true,
                cpu: None,
            },
        )
        .map_err(|source| BuildError::Spawn {
            bot: self.name.clone(),
            command: command.clone(),
            source,
        })?;
        process.close_input();
        let mut log = crate::CappedLog::new(BUILD_LOG_CAP_BYTES);
        let mut stdout = OutputTail::default();
        let mut buf = crate::process::read_buffer();
        let deadline = std::time::Instant::now() + limit;
        let exit = loop {
            let now = std::time::Instant::now();
            if now >= deadline {
                break None;
            }
            let mut wait = deadline - now;
            if process.needs_exit_polling() {
                wait = wait.min(std::time::Duration::from_millis(10));
            }
            let mut fds = Vec::new();
            let mut tags = Vec::new();
            process.interests(&mut fds, &mut tags);
            let _ = rustix::event::poll(&mut fds, Some(&dojo_sandbox::sys::timespec(wait)));
            let mut ready: Vec<Source> = fds
                .iter()
                .zip(&tags)
                .filter(|(fd, _)| !fd.revents().is_empty())
                .map(|(_, &(_, source))| source)
                .collect();
            drop(fds);
            if process.needs_exit_polling() {
                ready.push(Source::Exit);
            }
            let at = std::time::Instant::now();
            let mut ended = None;
            for source in ready {
                if let Some(batch) = process.on_ready(source, &mut log, at, &mut buf) {
                    for event in batch.events {
                        match event {
                            Event::Exited(kind) => ended = Some(kind),
                            other => stdout.push(other),
                        }
                    }
                }
            }
            if ended.is_some() {
                break ended;
            }
        };
        // What it wrote just before it ended (a compiler's errors come
        // last).
        for event in process.drain_stdout(&mut buf) {
            stdout.push(event);
        }
        // Kills whatever is left of the group; a pipe still held open by
        // an escaped process is dropped, not waited for.
        drop(process.finish(&mut log));
        let stderr_tail = tail(&log.render());
        let stdout_tail = tail(&stdout.lines.into_iter().collect::<Vec<_>>().join("\n"));
        match exit {
            Some(dojo_sandbox::sys::ExitKind::Code(0)) => Ok(()),
            Some(kind) => Err(BuildError::Failed {
                bot: self.name.clone(),
                command: command.clone(),
                status: match kind {
                    dojo_sandbox::sys::ExitKind::Code(code) => format!("exit status: {code}"),
                    dojo_sandbox::sys::ExitKind::Signal(n) => signal_status(n),
                },
                stdout_tail,
                stderr_tail,
            }),
            None => Err(BuildError::TimedOut {
                bot: self.name.clone(),
                command: command.clone(),
                limit,
                stdout_tail,
                stderr_tail,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dojo_cache_starts_a_word_only() {
        let cache = Path::new("/c/dojo/build/x-1");
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            expand_cache(
                words("$DOJO_CACHE/target/release/b --dir $DOJO_CACHE x$DOJO_CACHE $DOJO_CACHEX"),
                cache
            ),
            words(
                "/c/dojo/build/x-1/target/release/b --dir /c/dojo/build/x-1 x$DOJO_CACHE $DOJO_CACHEX"
            )
        );
        let one = build_cache(Path::new("/a/bots"));
        assert_eq!(one, build_cache(Path::new("/a/bots")));
        assert_ne!(one, build_cache(Path::new("/b/bots")));
        // Each bot of a folder has its own.
        assert_eq!(bot_cache(Path::new("/a/bots/x")), one.join("x"));
        assert_ne!(
            bot_cache(Path::new("/a/bots/x")),
            bot_cache(Path::new("/a/bots/y"))
        );
        assert!(
            one.ends_with(one.file_name().unwrap())
                && one.to_string_lossy().contains("dojo/build/a-")
        );
    }

    fn write_bot(root: &Path, dir: &str, manifest: &str) -> PathBuf {
        let dir = root.join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MANIFEST_FILE), manifest).unwrap();
        dir
    }

    /// A manifest's class path naming a library outside the bot's own
    /// places crashes the bot in its box: the hint says what was hidden
    /// and where to put it; what its build left in its cache is shown to
    /// it, and gets none.
    #[test]
    fn a_manifests_path_outside_its_own_places_gets_a_hint_and_its_cache_none() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let lib = root.join("elsewhere/lib.jar");
        std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
        std::fs::write(&lib, "").unwrap();
        let dir = write_bot(
            &root,
            "bots/j",
            &format!(
                "command = [\"java\", \"-cp\", \"{}:classes\", \"Bot\"]\n",
                lib.display()
            ),
        );
        let bot = load_dir(&dir).unwrap();
        let hint = hidden_path_hint(&bot, crate::SandboxMode::Auto).expect("a hint");
        assert!(
            hint.contains(&format!("the sandbox hid {} from bot j", lib.display()))
                && hint.contains("its build cache ($DOJO_CACHE")
                && hint.contains("copy what it needs into its directory"),
            "{hint}"
        );
        assert_eq!(hidden_path_hint(&bot, crate::SandboxMode::Off), None);

        let cache = bot_cache(&dir);
        std::fs::create_dir_all(cache.join("classes")).unwrap();
        std::fs::write(
            dir.join(MANIFEST_FILE),
            "command = \"java -cp $DOJO_CACHE/classes Bot\"\n",
        )
        .unwrap();
        let bot = load_dir(&dir).unwrap();
        let hint = hidden_path_hint(&bot, crate::SandboxMode::Auto);
        let _ = std::fs::remove_dir_all(cache.parent().unwrap());
        assert_eq!(hint, None);
    }

    #[test]
    fn inline_spec_splits_like_a_shell() {
        let bot = resolve("rnd=python3 'my bot.py' -v", Path::new("/nonexistent")).unwrap();
        assert_eq!(bot.name, "rnd");
        assert_eq!(bot.command, ["python3", "my bot.py", "-v"]);
        assert_eq!(bot.dir, std::env::current_dir().unwrap());
        assert_eq!(bot.mode, Mode::Auto);
    }

    #[test]
    fn inline_relative_program_is_made_absolute() {
        let bot = resolve("b=./bots/x/run --flag", Path::new("/nonexistent")).unwrap();
        let expected = std::env::current_dir().unwrap().join("./bots/x/run");
        assert_eq!(bot.command[0], expected.to_string_lossy());
        assert_eq!(bot.command[1], "--flag");
    }

    /// `NAME=DIR` (the guide's `new=./bot-new base=./bot-old`) is the bot
    /// in DIR under the name NAME, not DIR run as a program (which fails
    /// with a bare "Permission denied").
    #[test]
    fn a_named_directory_is_the_bot_in_it_under_that_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(
            tmp.path(),
            "bad name",
            "name = \"my-bot\"\ncommand = \"python3 bot.py\"\nteam = \"P\"\n",
        );
        let spec = format!("new='{}'", dir.display());
        let bot = resolve(&spec, Path::new("/nonexistent")).unwrap();
        assert_eq!(bot.name, "new");
        assert_eq!(bot.dir, std::fs::canonicalize(&dir).unwrap());
        assert_eq!(bot.command, ["python3", "bot.py"]);
        assert_eq!(bot.team.map(|t| t.name).as_deref(), Some("P"));
        // Quoted like a shell word; a directory without a bot.toml runs
        // its obvious script, and names nothing.
        let solo = tmp.path().join("solo dir");
        std::fs::create_dir(&solo).unwrap();
        std::fs::write(solo.join("bot.sh"), "").unwrap();
        let spec = format!("base='{}'", solo.display());
        let bot = resolve(&spec, Path::new("/nonexistent")).unwrap();
        assert_eq!(
            (bot.name.as_str(), bot.command.as_slice()),
            ("base", &["sh".to_owned(), "bot.sh".to_owned()][..])
        );
        // A directory with nothing to run says why, naming it.
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let err = resolve(&format!("b={}", empty.display()), Path::new("/x")).unwrap_err();
        assert!(matches!(err, SpecError::NoManifest { .. }), "{err}");
        // More than one word is a command, run as is.
        let bot = resolve(&format!("c=sh {}", dir.display()), Path::new("/x")).unwrap();
        assert_eq!(bot.command[0], "sh");
        assert_eq!(named_dir(&format!("c=sh {}", dir.display())), None);
    }

    #[test]
    fn inline_errors() {
        let empty = resolve("b=", Path::new("/x")).unwrap_err();
        assert!(matches!(empty, SpecError::Inline { .. }), "{empty}");
        let quotes = resolve("b=echo 'oops", Path::new("/x")).unwrap_err();
        assert!(quotes.to_string().contains("unbalanced"), "{quotes}");
    }

    #[test]
    fn directory_spec_loads_manifest_and_defaults_name() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(tmp.path(), "alpha", "command = \"./run.sh fast\"\n");
        let bot = resolve(dir.to_str().unwrap(), Path::new("/nonexistent")).unwrap();
        assert_eq!(bot.name, "alpha");
        let dir = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(bot.dir, dir);
        assert_eq!(
            bot.command,
            [dir.join("./run.sh").to_string_lossy().as_ref(), "fast"]
        );
    }

    #[test]
    fn name_under_bots_dir_and_program_without_slash_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        write_bot(
            tmp.path(),
            "beta",
            "name = \"Beta\"\ncommand = [\"python3\", \"bot.py\"]\ngames = [\"cardjitsu\"]\n",
        );
        let bot = resolve("beta", tmp.path()).unwrap();
        assert_eq!(bot.name, "Beta");
        assert_eq!(bot.command, ["python3", "bot.py"]);
        assert!(bot.plays("cardjitsu") && !bot.plays("royale"));
    }

    #[test]
    fn unknown_spec_names_what_was_tried_and_lists_bots() {
        let tmp = tempfile::tempdir().unwrap();
        write_bot(tmp.path(), "one", "command = \"a\"\n");
        write_bot(tmp.path(), "two", "command = \"b\"\n");
        std::fs::create_dir(tmp.path().join("not-a-bot")).unwrap();
        let err = resolve("three", tmp.path()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("three/bot.toml"), "{text}");
        assert!(
            text.contains(&tmp.path().join("three").display().to_string()),
            "{text}"
        );
        assert!(text.contains("available bots: one, two"), "{text}");
    }

    /// A `bot.toml` linked to a file outside its directory (one only root
    /// may read) is not read, so none of it reaches an error or a report.
    #[test]
    fn a_manifest_linked_out_of_its_directory_is_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        let secret = tmp.path().join("secret.toml");
        std::fs::write(&secret, "name = \"the secret\"\n").unwrap();
        let dir = tmp.path().join("thief");
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&secret, dir.join(MANIFEST_FILE)).unwrap();
        let err = load_dir(&dir).unwrap_err();
        assert!(matches!(err, SpecError::ManifestOutside { .. }), "{err}");
        assert!(!err.to_string().contains("the secret"), "{err}");
        // A link within the directory is its own file.
        std::fs::remove_file(dir.join(MANIFEST_FILE)).unwrap();
        std::fs::write(dir.join("real.toml"), "command = \"./bot\"\n").unwrap();
        std::os::unix::fs::symlink("real.toml", dir.join(MANIFEST_FILE)).unwrap();
        assert!(load_dir(&dir).is_ok());
    }

    #[test]
    fn a_manifest_running_a_program_outside_its_directory_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let other = write_bot(tmp.path(), "other", "command = \"./bot\"\n");
        std::fs::write(other.join("bot"), "#!/bin/sh\n").unwrap();
        let refused = |command: &str| {
            write_bot(tmp.path(), "thief", &format!("command = {command}\n"));
            match resolve("thief", tmp.path()) {
                Err(SpecError::OutsideProgram { file, program, .. }) => {
                    assert!(file.ends_with("thief/bot.toml"), "{}", file.display());
                    Some(program)
                }
                Err(other) => panic!("{command}: {other}"),
                Ok(_) => None,
            }
        };
        let other_bot = std::fs::canonicalize(&other).unwrap().join("bot");
        // env -S runs the bot's own script; the word after is another
        // bot's binary, which the box would have shown it.
        assert_eq!(
            refused(r#"["env", "-Spython3 bot.py", "../other/bot"]"#),
            Some(other_bot.clone())
        );
        assert_eq!(refused(r#""../other/bot""#), Some(other_bot.clone()));
        assert_eq!(refused(r#""./../other/bot""#), Some(other_bot.clone()));
        // A link of the bot's own to that binary, named as its program
        // or behind `env -S`: the box would bind its target.
        let thief = tmp.path().join("thief");
        std::os::unix::fs::symlink("../other/bot", thief.join("stolen")).unwrap();
        assert_eq!(refused(r#""./stolen""#), Some(other_bot.clone()));
        assert_eq!(
            refused(r#"["env", "-Spython3 bot.py", "./stolen"]"#),
            Some(other_bot.clone())
        );
        // A link that stays inside is the bot's own file.
        std::fs::write(thief.join("real"), "#!/bin/sh\n").unwrap();
        std::os::unix::fs::symlink("real", thief.join("alias")).unwrap();
        assert_eq!(refused(r#""./alias""#), None);
        assert_eq!(
            refused(r#""/root/secret-tool""#),
            Some(PathBuf::from("/root/secret-tool"))
        );
        // Its own files, its build cache, the system and PATH are fine.
        for ok in [
            r#""./bot.sh""#,
            r#""python3 bot.py""#,
            r#""$DOJO_CACHE/target/release/thief""#,
            r#""/usr/bin/env python3 bot.py""#,
            r#"["env", "A=1", "python3", "bot.py"]"#,
        ] {
            assert_eq!(refused(ok), None, "{ok}");
        }
        let text = resolve("thief", tmp.path())
            .map(|_| ())
            .and_then(|()| {
                write_bot(tmp.path(), "thief", "command = \"../other/bot\"\n");
                resolve("thief", tmp.path()).map(|_| ())
            })
            .unwrap_err()
            .to_string();
        assert!(text.contains("outside the bot's directory"), "{text}");
    }

    #[test]
    fn broken_manifest_error_names_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        write_bot(tmp.path(), "bad", "command = \"a\"\nmode = 3\n");
        let err = resolve("bad", tmp.path()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("bad/bot.toml:2:"), "{text}");
    }

    #[test]
    fn discover_sorts_by_name_and_skips_plain_dirs() {
        let tmp = tempfile::tempdir().unwrap();
        write_bot(tmp.path(), "zeta", "command = \"a\"\n");
        write_bot(tmp.path(), "b", "name = \"alpha\"\ncommand = \"a\"\n");
        std::fs::create_dir(tmp.path().join("faulty")).unwrap();
        let names: Vec<String> = crate::folder::discover(tmp.path())
            .unwrap()
            .into_iter()
            .map(|b| b.name)
            .collect();
        assert_eq!(names, ["alpha", "zeta"]);
    }

    /// `tsc`, Maven and `javac` print their errors on stdout: a failed
    /// build shows the end of its stdout as well as of its stderr, even
    /// after a long output written just before it exits.
    #[test]
    fn a_failed_build_shows_the_end_of_its_stdout_and_stderr() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(
            tmp.path(),
            "b",
            "command = \"true\"\nbuild = [\"sh\", \"-c\", \"echo compiling >&2; \
             seq 1 100000; echo 'Main.java:3: error: cannot find symbol'; exit 1\"]\n",
        );
        let err = load_dir(&dir).unwrap().build().unwrap_err();
        let (stdout, stderr) = err.output().unwrap();
        assert!(
            stdout.ends_with("99999\n100000\nMain.java:3: error: cannot find symbol"),
            "{stdout}"
        );
        assert!(stdout.len() <= OUTPUT_TAIL_BYTES, "{}", stdout.len());
        assert_eq!(stderr, "compiling");
        let text = err.to_string();
        assert!(
            text.contains("end of its stdout:\n") && text.contains("end of its stderr:\ncompiling"),
            "{text}"
        );
    }

    #[test]
    fn a_directory_without_a_manifest_runs_its_obvious_script() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("solo");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("bot.sh"), "").unwrap();
        let bot = resolve("solo", tmp.path()).unwrap();
        assert_eq!(
            (bot.name.as_str(), bot.command.as_slice()),
            ("solo", &["sh".to_owned(), "bot.sh".to_owned()][..])
        );
        let (_, script) = load_any(&dir).unwrap();
        assert_eq!(script.as_deref(), Some("bot.sh"));
        // Nothing obvious: why, naming the directory.
        std::fs::write(dir.join("other.py"), "").unwrap();
        std::fs::remove_file(dir.join("bot.sh")).unwrap();
        std::fs::write(dir.join("more.py"), "").unwrap();
        let err = resolve(dir.to_str().unwrap(), tmp.path()).unwrap_err();
        assert!(matches!(err, SpecError::NoManifest { .. }), "{err}");
        assert!(
            err.to_string().contains("2 candidates (more.py, other.py)"),
            "{err}"
        );
        // A bot named by a directory whose name breaks the rule.
        let bad = write_bot(tmp.path(), "bad name", "command = \"x\"\n");
        let err = load_dir(&bad).unwrap_err();
        assert!(matches!(err, SpecError::BadName { .. }), "{err}");
        // ... unless its bot.toml names it.
        std::fs::write(
            bad.join(MANIFEST_FILE),
            "name = \"good\"\ncommand = \"x\"\n",
        )
        .unwrap();
        assert_eq!(load_dir(&bad).unwrap().name, "good");
    }

    #[test]
    fn a_hanging_build_is_killed_at_its_time_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(
            tmp.path(),
            "b",
            "command = \"true\"\nbuild = [\"sh\", \"-c\", \"echo compiling >&2; sleep 1000\"]\n",
        );
        let err = load_dir(&dir)
            .unwrap()
            .build_within(std::time::Duration::from_millis(300))
            .unwrap_err();
        assert!(matches!(err, BuildError::TimedOut { .. }), "{err}");
        assert!(err.to_string().contains("compiling"), "{err}");
    }

    #[test]
    fn a_build_that_leaves_a_process_holding_its_stdout_does_not_hang() {
        let tmp = tempfile::tempdir().unwrap();
        // The background sleeper keeps stdout and stderr open after the
        // build itself has exited successfully.
        let dir = write_bot(
            tmp.path(),
            "b",
            "command = \"true\"\nbuild = [\"sh\", \"-c\", \"setsid sleep 1000 & echo done\"]\n",
        );
        let started = std::time::Instant::now();
        load_dir(&dir)
            .unwrap()
            .build_within(std::time::Duration::from_secs(60))
            .unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }

    #[test]
    fn a_build_flooding_stdout_is_read_and_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(
            tmp.path(),
            "b",
            "command = \"true\"\nbuild = [\"sh\", \"-c\", \"head -c 50000000 /dev/zero; exit 0\"]\n",
        );
        load_dir(&dir).unwrap().build().unwrap();
    }

    #[test]
    fn build_runs_in_bot_dir_and_reports_failures() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_bot(
            tmp.path(),
            "ok",
            "command = \"true\"\nbuild = \"sh -c 'echo built > marker'\"\n",
        );
        load_dir(&dir).unwrap().build().unwrap();
        assert!(dir.join("marker").is_file());

        let dir = write_bot(
            tmp.path(),
            "fails",
            "command = \"true\"\nbuild = [\"sh\", \"-c\", \"echo broken >&2; exit 3\"]\n",
        );
        let err = load_dir(&dir).unwrap().build().unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, BuildError::Failed { .. }), "{text}");
        assert!(text.contains("broken") && text.contains('3'), "{text}");

        let dir = write_bot(
            tmp.path(),
            "killed",
            // A fault the kernel forces: the build may be init of its PID
            // namespace, which no signal it sends itself ends.
            "command = \"true\"\nbuild = [\"python3\", \"-c\", \"import ctypes; ctypes.string_at(0)\"]\n",
        );
        let text = load_dir(&dir).unwrap().build().unwrap_err().to_string();
        assert!(text.contains("killed by signal 11 (SIGSEGV)"), "{text}");
    }
}

//! Turning BOT arguments into runnable bots: resolve each spec, build each
//! distinct bot once, and make Ctrl-C (SIGTERM, SIGHUP) kill every bot
//! process.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use anyhow::{Result, bail};
use dojo_runner::{BotSpec, BuildNetwork};

use crate::render::untrusted;

/// Resolves `specs` (see `dojo --help` for the forms) for `game` and runs
/// each distinct bot's build step once, in order. Equal specs share one
/// bot. A bot whose manifest lists its games must list `game`.
pub fn load(specs: &[String], bots_dir: &Path, game: &str) -> Result<Vec<Arc<BotSpec>>> {
    let bots = load_unbuilt(specs, bots_dir, game)?;
    build_all(&bots)?;
    Ok(bots)
}

/// [`load`] without the builds: what can be refused before anything is
/// built ([`build_all`] builds them after), in the same order, a spec
/// given twice loaded once.
pub fn load_unbuilt(specs: &[String], bots_dir: &Path, game: &str) -> Result<Vec<Arc<BotSpec>>> {
    let mut seen: HashMap<&str, Arc<BotSpec>> = HashMap::new();
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        if let Some(bot) = seen.get(spec.as_str()) {
            out.push(Arc::clone(bot));
            continue;
        }
        let bot = Arc::new(resolve(spec, bots_dir)?);
        check_game(&bot, game)?;
        say_own_values(&bot);
        seen.insert(spec, Arc::clone(&bot));
        out.push(bot);
    }
    say_one_program(specs, &out);
    Ok(out)
}

/// Says when two specs written differently are one bot (the same
/// directory and command: `./random-py` and `random-py`, which finds
/// `./random-py` first): the seats named as if different run the same
/// program. The same spec twice is self-play asked for, and says nothing.
fn say_one_program(specs: &[String], bots: &[Arc<BotSpec>]) {
    let mut said: Vec<(&str, &str)> = Vec::new();
    for (i, (a, bot_a)) in specs.iter().zip(bots).enumerate() {
        for (b, bot_b) in specs.iter().zip(bots).skip(i + 1) {
            let one = bot_a.dir == bot_b.dir && bot_a.command == bot_b.command;
            if a == b || !one || said.contains(&(a, b)) {
                continue;
            }
            said.push((a, b));
            errln!(
                "note: {} and {} are one bot ({}, `{}`): both seats run the same program",
                untrusted::line(a),
                untrusted::line(b),
                bot_a.dir.display(),
                untrusted::line(&bot_a.command.join(" "))
            );
        }
    }
}

/// Builds each of `bots` once, in order (a bot given twice is one).
pub fn build_all(bots: &[Arc<BotSpec>]) -> Result<()> {
    for (i, bot) in bots.iter().enumerate() {
        if !bots[..i].iter().any(|b| Arc::ptr_eq(b, bot)) {
            build(bot)?;
        }
    }
    Ok(())
}

/// Says which of the flags' values a bot's manifest replaces for it
/// (`[limits]`, `[time]`): outside a league they apply as written, and
/// never silently. (A league settles them against its own values.)
fn say_own_values(bot: &BotSpec) {
    let own: Vec<String> = bot
        .values
        .given()
        .into_iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    if !own.is_empty() {
        errln!(
            "bot {}: its bot.toml sets {} (in place of the flags' values, for this bot only)",
            bot.name,
            own.join(", ")
        );
    }
}

/// COMMAND of a spec `NAME=COMMAND` that runs a command (in the current
/// directory); `None` for the other specs, `NAME=DIR` among them (the
/// bot in DIR), as [`dojo_runner::resolve`] tells them apart.
pub fn inline_command(spec: &str) -> Option<&str> {
    if dojo_runner::named_dir(spec).is_some() {
        return None;
    }
    spec.split_once('=')
        .filter(|(name, _)| dojo_runner::is_valid_name(name))
        .map(|(_, command)| command)
}

/// [`dojo_runner::resolve`], with a hint when the bots directory itself
/// is missing (an installed dojo run outside a checkout), saying so when
/// a directory without a `bot.toml` is run from its single obvious
/// script; a `team` that no game the bot may play has is refused
/// ([`dojo_games::check_team`]).
pub fn resolve(spec: &str, bots_dir: &Path) -> Result<BotSpec> {
    checked(spec, bots_dir, dojo_runner::resolve(spec, bots_dir))
}

/// [`resolve`], a `NAME=COMMAND` run in `cwd` ([`dojo_runner::resolve_in`]:
/// a stored league's inline bot, where it was given).
pub fn resolve_in(spec: &str, bots_dir: &Path, cwd: &Path) -> Result<BotSpec> {
    checked(spec, bots_dir, dojo_runner::resolve_in(spec, bots_dir, cwd))
}

fn checked(
    spec: &str,
    bots_dir: &Path,
    resolved: Result<BotSpec, dojo_runner::SpecError>,
) -> Result<BotSpec> {
    let bot = resolved.map_err(|err| not_found(spec, bots_dir, err))?;
    // Its `team` is a manifest error if no game it may play has it.
    dojo_games::check_team(&bot)?;
    let inline = inline_command(spec).is_some();
    if !inline && !bot.dir.join(dojo_runner::MANIFEST_FILE).exists() {
        errln!(
            "note: {} has no bot.toml: running `{}` there",
            bot.dir.display(),
            untrusted::line(&bot.command.join(" "))
        );
    }
    Ok(bot)
}

/// The error for a spec that did not resolve: when it is a bot's name and
/// the bots directory itself is missing, one message saying so, where
/// dojo looked and how to point it at bots (the files tried under a
/// missing directory say nothing more); else the lookup's own error.
fn not_found(spec: &str, bots_dir: &Path, err: dojo_runner::SpecError) -> anyhow::Error {
    let by_name =
        matches!(err, dojo_runner::SpecError::NotFound { .. }) && dojo_runner::is_valid_name(spec);
    match crate::home::hint(bots_dir) {
        Some(hint) if by_name => anyhow::anyhow!("no bot {spec:?}: {hint}"),
        _ => err.into(),
    }
}

/// Where `bot`'s `bot.toml` fixes its team, for messages: ` (FILE:LINE:COL)`,
/// or nothing when it fixes none.
pub fn team_place(bot: &BotSpec) -> String {
    bot.team.as_ref().map_or_else(String::new, |t| {
        format!(
            " ({}:{}:{})",
            bot.dir.join(dojo_runner::MANIFEST_FILE).display(),
            t.line,
            t.column
        )
    })
}

/// Refuses a bot whose manifest says it plays other games: it would only
/// time out or answer nonsense. Bots that declare no games (inline ones)
/// are taken on trust.
pub fn check_game(bot: &BotSpec, game: &str) -> Result<()> {
    if !bot.games.is_empty() && !bot.games.iter().any(|g| g == game) {
        bail!(
            "bot {} plays {}, not {game} (its bot.toml in {} says games = {:?})",
            bot.name,
            bot.games.join(", "),
            bot.dir.display(),
            bot.games
        );
    }
    Ok(())
}

/// Runs `bot`'s build step, if it has one ([`crate::build_step::run`]
/// says on stderr what it did): once per dojo run for each directory and
/// build command (a folder's entries are built while they are checked,
/// before the league's executor asks again). A failed build is tried
/// again when asked again.
pub fn build(bot: &BotSpec) -> Result<()> {
    static BUILT: std::sync::Mutex<Vec<(std::path::PathBuf, Vec<String>)>> =
        std::sync::Mutex::new(Vec::new());
    let Some(cmd) = &bot.build else {
        return Ok(());
    };
    let key = (bot.dir.clone(), cmd.clone());
    let built = || BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if built().contains(&key) {
        return Ok(());
    }
    crate::build_step::run(bot, cmd, build_network())?;
    built().push(key);
    Ok(())
}

/// `--build-network`, set once by `main` before any command runs.
static BUILD_NETWORK: std::sync::OnceLock<BuildNetwork> = std::sync::OnceLock::new();

/// Sets `--build-network` for every build of this run (the first call
/// wins; `main` makes it once, from the parsed flag).
pub fn set_build_network(network: BuildNetwork) {
    let _ = BUILD_NETWORK.set(network);
}

/// Whether builds may use the network (`on` unless `--build-network off`).
fn build_network() -> BuildNetwork {
    BUILD_NETWORK.get().copied().unwrap_or_default()
}

/// `--build-network` as its flag's word, for a child `dojo` of this run
/// (`dojo check`'s matches).
pub fn build_network_word() -> &'static str {
    match build_network() {
        BuildNetwork::On => "on",
        BuildNetwork::Off => "off",
    }
}

/// The signal that interrupted the command (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The exit status of a command stopped by a signal: 128 + its number
/// (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP), as a shell reports a process
/// the signal killed.
pub fn interrupted_status() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => crate::exit::INTERRUPTED,
        n => u8::try_from(128 + n).unwrap_or(crate::exit::INTERRUPTED),
    }
}

/// Installs the handler of Ctrl-C (SIGINT) and of SIGTERM and SIGHUP
/// (what Slurm, Kubernetes and systemd send a job they stop, and a closed
/// terminal), all alike. The first signal sets the returned flag
/// (long-running commands stop starting games, abandon those in flight
/// and write what they have, then exit with [`interrupted_status`]); a
/// second one, or the first when nobody watches the flag, kills every bot
/// process group and exits at once with 128 + the signal's number.
///
/// signal-hook rather than the `ctrlc` crate: it says which signal came
/// (the exit status must), and its handler only writes to a pipe that a
/// thread of ours reads, so everything here runs outside the handler.
pub fn on_ctrl_c(graceful: bool) -> Arc<AtomicBool> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&flag);
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(err) => {
            errln!("warning: cannot install the Ctrl-C/SIGTERM handler: {err}");
            return flag;
        }
    };
    let watcher = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
                if graceful && !seen.swap(true, Ordering::SeqCst) {
                    let name = match signal {
                        SIGTERM => "SIGTERM",
                        SIGHUP => "SIGHUP",
                        _ => "Ctrl-C",
                    };
                    errln!(
                        "\ninterrupted ({name}): stopping after abandoning the games in flight (a second signal quits now)"
                    );
                    continue;
                }
                dojo_runner::kill_all_bots();
                std::process::exit(128 + signal);
            }
        });
    if let Err(err) = watcher {
        errln!("warning: cannot install the Ctrl-C/SIGTERM handler: {err}");
    }
    flag
}

/// A seed for a game or league the user did not seed: the kernel's
/// random numbers, which no bot can guess (a league's deals follow from
/// its seed), or where they cannot be read the clock mixed with the
/// process id. Printed or stored, so the games can be played again.
pub fn fresh_seed() -> u64 {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_ok() {
        return u64::from_le_bytes(bytes);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    dojo_engine::rng::derive_seed(nanos, &[u64::from(std::process::id())])
}

/// After a game: for each seat's bot that crashed, the hint when the
/// sandbox hid a path its command names ([`dojo_runner::hidden_path_hint`]),
/// once per bot.
pub fn hidden_path_hints<'a>(
    seats: impl IntoIterator<Item = (&'a BotSpec, &'a dojo_games::SeatConduct)>,
    sandbox: dojo_runner::SandboxMode,
) {
    let mut told: Vec<&str> = Vec::new();
    for (bot, conduct) in seats {
        if conduct.faults.crash == 0 || told.contains(&bot.name.as_str()) {
            continue;
        }
        told.push(&bot.name);
        if let Some(hint) = dojo_runner::hidden_path_hint(bot, sandbox) {
            errln!("hint: {}", untrusted::line(&hint));
        }
    }
}

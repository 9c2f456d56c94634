//! Running a bot's build step and saying only what is true about it.
//!
//! A build step is an arbitrary command: dojo cannot know beforehand
//! whether it will do any work (`cargo build` of an unchanged bot does
//! none), so announcing "building" on every run would be untrue most of
//! the time. What dojo does know is the bot's fingerprint (its command,
//! `bot.toml`, the files its command names and those of its directory and
//! build cache: a compiled bot's program, a Java bot's classes):
//! taken before and after the step, it tells whether the step changed
//! what will run. So the step is run silently; it is named while it runs
//! only when it lasts long enough to be noticed (a first build, minutes
//! long, must not look like a hang), and afterwards only when it changed
//! the bot or failed (then first of all that it failed).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Result;
use dojo_runner::{BotSpec, BuildNetwork};

use crate::render::untrusted;

/// How long a build step runs before it is named on stderr: more than an
/// up-to-date `cargo build` takes, short enough that a real build is
/// never left unexplained.
const NAMED_AFTER: Duration = Duration::from_secs(1);

/// Runs `bot`'s build step `command` with `network`, within the default
/// build time limit. Says `built NAME in 3.2s (COMMAND)` when the bot's
/// fingerprint changed, nothing when it did not and the step was quick.
pub fn run(bot: &BotSpec, command: &[String], network: BuildNetwork) -> Result<()> {
    // `(cargo build ...), without the network`
    let how = format!(
        "({}){}",
        untrusted::line(&command.join(" ")),
        if network == BuildNetwork::Off {
            ", without the network"
        } else {
            ""
        }
    );
    let before = dojo_runner::fingerprint(bot);
    let started = Instant::now();
    let (done, finished) = mpsc::channel::<()>();
    let running = format!("running {}'s build step {how}", bot.name);
    // Names the step once it has run for NAMED_AFTER; says whether it did.
    let namer = std::thread::Builder::new()
        .name("build-step".into())
        .spawn(move || {
            let slow = matches!(
                finished.recv_timeout(NAMED_AFTER),
                Err(mpsc::RecvTimeoutError::Timeout)
            );
            if slow {
                errln!("{running}");
            }
            slow
        });
    let outcome = bot.build_with(network, dojo_runner::DEFAULT_BUILD_TIMEOUT);
    drop(done);
    // Without the thread (none could be made) the step was never named.
    let named = namer.is_ok_and(|t| t.join().unwrap_or(false));
    let secs = started.elapsed().as_secs_f64();
    if let Err(err) = outcome {
        // The error names the bot and its command and shows its output;
        // this line says first that the step failed, and how it was run
        // (without the network, say).
        if !named {
            errln!("{}'s build step failed {how}", bot.name);
        }
        return Err(err.into());
    }
    match (dojo_runner::fingerprint(bot) != before, named) {
        (true, true) => errln!("built {} in {secs:.1}s", bot.name),
        (true, false) => errln!("built {} in {secs:.1}s {how}", bot.name),
        // Of the files its fingerprint covers (its directory's, its build
        // cache's, what its command names): not only the program a command
        // names, which a build may leave as it was while it changes the
        // classes beside it.
        (false, true) => errln!(
            "{}'s build step finished in {secs:.1}s; it changed none of the bot's files",
            bot.name
        ),
        // Up to date, and quick: nothing worth a line.
        (false, false) => {}
    }
    Ok(())
}

//! `dojo play cardjitsu`: a person against the computer or a bot, under
//! the tournament rules (the default, as for every other command) or the
//! classic ones (`--rules classic`, the older Card-Jitsu variant); labelled
//! for a person at a terminal, in the classic challenge's format for
//! scripts (`--plain`, or stdin not a terminal); the game itself is
//! [`dojo_games::classic`]. Without a bot, player 2 is the computer of the
//! rules ([`dojo_games::classic::computer`]): under the classic rules a
//! uniformly random card of all 198 every round (as in the seed); under the
//! tournament rules a random card of a hand dealt from its own
//! championship deck. A header naming the rules, the seed and the opponent
//! opens the game: on stdout when labelled, on stderr when plain, so the
//! plain stdout stays the seed's format byte for byte (what that format
//! has no line for, a refused input, the end of input and the line naming
//! the winner's triple, goes to stderr too).

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use dojo_games::classic::{self, Display, Ending, Screen, play_game, with_bot};

use crate::args::PlayCardJitsuArgs;
use crate::bots;

pub fn run(bots_dir: &Path, a: PlayCardJitsuArgs) -> Result<ExitCode> {
    refuse_bot_flags(&a)?;
    let rules = a.rules.rules();
    let seed = a.seed.given.unwrap_or_else(bots::fresh_seed);
    let stdin = io::stdin();
    // A terminal already shows what the person typed.
    let echo = !stdin.is_terminal();
    let labelled = a.labelled || (!a.plain && stdin.is_terminal());
    let display = |opponent: &str| {
        if labelled {
            Display::Labelled {
                opponent: opponent.to_owned(),
            }
        } else {
            Display::Plain
        }
    };
    // The header names the seed, and how to replay it when it was picked.
    let header = |opponent: &str| -> io::Result<()> {
        let line = classic::header(rules, seed, a.seed.given.is_none(), opponent);
        if labelled {
            let mut out = io::stdout().lock();
            writeln!(out, "{line}")?;
            writeln!(out)
        } else {
            errln!("{line}");
            Ok(())
        }
    };
    let mut dealer = classic::dealer(rules, seed);
    let input = stdin.lock();
    // The plain display's notes (a refused input, the end of input, the
    // winner's triple) go to stderr: stdout stays the seed's format.
    let screen = Screen {
        out: io::stdout().lock(),
        notes: io::stderr().lock(),
    };
    let outcome = match &a.opponent {
        None => {
            let name = "the computer";
            header(name)?;
            play_game(
                input,
                screen,
                echo,
                &display(name),
                rules,
                &mut dealer,
                &mut classic::computer(rules, seed),
            )?
        }
        Some(spec) => {
            let bot = bots::load(std::slice::from_ref(spec), bots_dir, "cardjitsu")?.remove(0);
            bots::on_ctrl_c(false);
            let opts = a.controls.run_options();
            let name = bot.name.clone();
            let shown = display(&name);
            header(&name)?;
            let game = with_bot(bot, seed, rules, &opts, |opponent| {
                play_game(input, screen, echo, &shown, rules, &mut dealer, opponent)
            })?;
            if game.faults > 0 {
                show_stderr(&name, &game.stderr);
            }
            game.ending
        }
    };
    // An input that ends mid-game is not a finished game (a script that
    // ran out of moves should notice).
    Ok(match outcome {
        Ending::Won { .. } => ExitCode::SUCCESS,
        Ending::Abandoned => crate::exit::code(crate::exit::NEGATIVE),
    })
}

/// Refuses the time, limit and containment flags without `--opponent`:
/// they apply to a bot's processes, and the computer is none, so taking
/// them would say they did something (a flag a command does not offer is
/// a usage error).
fn refuse_bot_flags(a: &PlayCardJitsuArgs) -> Result<()> {
    if a.opponent.is_some() || a.controls.0.0.is_empty() {
        return Ok(());
    }
    let flags: Vec<String> = a
        .controls
        .0
        .0
        .iter()
        .map(|(c, _)| format!("--{}", c.flag))
        .collect();
    let (what, them) = match flags.len() {
        1 => ("a bot flag", "it"),
        _ => ("bot flags", "them"),
    };
    let named = match flags.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => flags.join(""),
    };
    anyhow::bail!(
        "{named}: {what}, and without --opponent there is no bot to apply {them} to (the computer is dojo itself); give --opponent BOT, or leave {them} out"
    )
}

/// The end of what a bot opponent that faulted wrote to stderr, on stderr:
/// each round it faulted in said its stderr would be shown here.
fn show_stderr(name: &str, stderr: &str) {
    let tail = dojo_games::record::stderr_tail(&[stderr.to_owned()]);
    if tail.is_empty() {
        errln!("{name} wrote nothing to stderr");
        return;
    }
    errln!("{name}'s stderr, its last lines:");
    for line in tail {
        errln!("  {}", crate::render::untrusted::line(&line));
    }
}

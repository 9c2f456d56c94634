//! The `dojo` command. It parses arguments and calls the library crates;
//! anything a library can do without a terminal lives there.

// `println!` and friends panic on a closed or full stdout: every write goes
// through `output` (`out!`, `outln!`, `errln!`), which never does.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod output;

mod args;
mod bots;
mod build_step;
mod cmd;
mod exit;
mod flags;
mod games;
mod home;
mod html;
mod live;
mod outpaths;
mod outputs;
mod progress;
mod render;
mod rerun;
mod starter;
mod submissions;
mod usage;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, PlayCommand};

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|err| exit::on_usage_error(err));
    dojo_runner::raise_open_files_limit();
    // Checked by clap: `on` or `off`.
    bots::set_build_network(
        cli.build_network
            .as_deref()
            .and_then(|w| w.parse().ok())
            .unwrap_or_default(),
    );
    let given_bots_dir = cli.bots_dir.is_some();
    let bots_dir = home::bots_dir(cli.bots_dir);
    let outcome = match cli.command {
        Command::Match(game) => game.run(&bots_dir),
        Command::League(a) => cmd::league::run(&bots_dir, given_bots_dir, a),
        Command::Merge(a) => cmd::league::merge(a),
        Command::Bots => cmd::bots::run(&bots_dir),
        Command::Replay(a) => cmd::replay::run(&bots_dir, &a),
        Command::Play(PlayCommand::Cardjitsu(a)) => cmd::play::run(&bots_dir, a),
        Command::Compare(a) => Ok(cmd::compare::run(&bots_dir, a)),
        Command::Doctor => Ok(cmd::doctor::run()),
        Command::Report(a) => cmd::report::run(a),
        Command::Rules(a) => Ok(cmd::rules::run(a)),
        Command::Check(a) => cmd::check::run(&bots_dir, a),
        Command::New(a) => cmd::new::run(&bots_dir, &a),
    };
    let code = match outcome {
        Ok(code) => code,
        // The reader of stdout went away (`| head`): nothing to report.
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // A bot's build output, its bot.toml's values: an error may
            // quote what a bot's author wrote.
            errln!("error: {}", render::untrusted::lines(&error_chain(&err)));
            exit::code(exit::ERROR)
        }
    };
    output::finish(code)
}

/// `err` and its causes, joined by `: `. A cause whose text already ends
/// its parent's message (library errors that print their `source`) is not
/// repeated, which `{err:#}` would do.
fn error_chain(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

//! The `dojo` command. It parses arguments and calls the library crates;
//! anything a library can do without a terminal lives there.

mod args;
mod bots;
mod cmd;
mod html;
mod progress;
mod render;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, MatchCommand, PlayCommand};

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|err| cmd::compare::exit_on_usage_error(err));
    let outcome = match cli.command {
        Command::Match(MatchCommand::Cardjitsu(a)) => cmd::match_cardjitsu::run(&cli.bots_dir, a),
        Command::Match(MatchCommand::Royale(a)) => cmd::match_royale::run(&cli.bots_dir, a),
        Command::League(a) => cmd::league::run(&cli.bots_dir, a),
        Command::Merge(a) => cmd::league::merge(a),
        Command::Bots => cmd::bots::run(&cli.bots_dir),
        Command::Replay(a) => Ok(cmd::replay::run(&cli.bots_dir, a)),
        Command::Play(PlayCommand::Cardjitsu(a)) => cmd::play::run(&cli.bots_dir, a),
        Command::Compare(a) => Ok(cmd::compare::run(&cli.bots_dir, a)),
        Command::Doctor => Ok(cmd::doctor::run()),
        Command::Report(a) => cmd::report::run(a),
        Command::Rules(a) => Ok(cmd::rules::run(a)),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", error_chain(&err));
            ExitCode::FAILURE
        }
    }
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

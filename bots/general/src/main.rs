//! `general`: a royale bot that stays alive for the whole game. Its team
//! comes from `DOJO_TEAM` (R, P or S), or else from the tile it starts on.
//! See `README.md` for the strategy.

mod session;
mod strategy;

#[cfg(test)]
mod simulation;

use std::io::{self, BufWriter};
use std::process::ExitCode;

fn main() -> ExitCode {
    let env = std::env::var("DOJO_TEAM").ok();
    let team = session::team_from_env(env.as_deref());
    if env.is_some() && team.is_none() {
        eprintln!("general: ignoring DOJO_TEAM={env:?} (expected R, P or S)");
    }
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match session::Session::new(team).run(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        // The harness closed our output: the game is over for us.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("general: {e}");
            ExitCode::FAILURE
        }
    }
}

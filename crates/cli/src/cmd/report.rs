//! `dojo report`: a league directory's standings again, and its HTML page.

use std::process::ExitCode;

use anyhow::Result;

use crate::args::ReportArgs;
use crate::outputs::league::{League, Pages, Setup, Terminal, read_league};

pub fn run(a: ReportArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    let outputs = a
        .output
        .resolve(&[], &[Named::league("DIR", Some(&a.dir))])?;
    let (settings, games, report) = read_league(&a.dir)?;
    // Asked as a resume asks it: a league holding the games file's lock.
    let running = dojo_league::store::is_running(&a.dir)?;
    outputs
        .open(Setup {
            dir: a.dir.clone(),
            pages: Pages::Given,
            terminal: Terminal::standings(running),
        })
        .finish(&League {
            dir: a.dir,
            report,
            read: Some((settings, games)),
        })?;
    Ok(ExitCode::SUCCESS)
}

//! `dojo league` and `dojo merge`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, bail};

use crate::args::{LeagueArgs, MergeArgs};

pub fn run(_bots_dir: &Path, _a: LeagueArgs) -> Result<ExitCode> {
    bail!("dojo league is not implemented yet")
}

pub fn merge(_a: MergeArgs) -> Result<ExitCode> {
    bail!("dojo merge is not implemented yet")
}

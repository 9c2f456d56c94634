//! `dojo report`: a league directory's standings again, and its HTML page.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use dojo_league::view;

use crate::args::ReportArgs;
use crate::{html, render};

pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let (_, _, report) = write_page(&a.dir, a.html.as_deref())?;
    print!("{}", render::standings::table(&report));
    if let Some(path) = &a.html {
        outln!("report page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the league in `dir` and, with `html`, writes its report page
/// there (every game's replay packed inside it).
pub fn write_page(
    dir: &Path,
    html: Option<&Path>,
) -> Result<(
    dojo_league::Settings,
    Vec<dojo_league::store::GameLine>,
    dojo_league::Report,
)> {
    if !dir.join(dojo_league::store::LEAGUE_FILE).is_file() {
        anyhow::bail!(
            "{}: not a league out directory (it has no league.json); expected the --out directory of a `dojo league`",
            dir.display()
        );
    }
    let (settings, games, report) = view::read_league(dir)
        .with_context(|| format!("reading the league in {}", dir.display()))?;
    if let Some(path) = html {
        html::write(path, &html::report(&report, &settings, &games, dir)?)?;
    }
    Ok((settings, games, report))
}

//! `dojo report`: a league directory's standings again, and its HTML page.

use std::process::ExitCode;

use anyhow::Result;

use crate::args::ReportArgs;
use crate::render;

pub fn run(a: ReportArgs) -> Result<ExitCode> {
    use crate::outpaths::Named;
    crate::outpaths::check(&[a.html.named()], &[Named::league("DIR", Some(&a.dir))])?;
    let (_, _, report) = super::league_page(&a.dir, a.html.path(), None)?;
    out!("{}", render::standings::table(&report));
    if let Some(path) = a.html.path() {
        // The page is the league's from now on: a resume or merge of the
        // league writes it again.
        super::remember_page(&a.dir, path)?;
        outln!("report page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

//! A saved game shown again and its outputs (`dojo replay`): its text on
//! the terminal or, with `--html`, its replay page.

use std::path::{Path, PathBuf};

use anyhow::Result;
use dojo_games::Saved;
use dojo_league::verdict::Verdict;
use dojo_league::view::RecordSource;

use super::{Files, Format, Output, Run};

/// A saved game `dojo replay` shows again, and where it was read from.
pub struct Shown {
    pub saved: Saved,
    pub source: RecordSource,
    /// A league game a forfeit decided: the result the league counted.
    pub forfeit: Option<Verdict>,
}

impl Run for Shown {
    const FORMATS: &'static [Format] = &[Format::Html];
    type Listener = ();
    /// The terminal's showing of the game, which `dojo replay` makes from
    /// its text flags (`--turn`, `--watch`, `--stderr`); none when the
    /// page is written instead.
    type Setup = Option<Box<dyn Output<Shown>>>;

    fn outputs(files: &Files, text: Self::Setup) -> Vec<Box<dyn Output<Self>>> {
        let mut outputs: Vec<Box<dyn Output<Self>>> = text.into_iter().collect();
        if let Some(path) = files.path(Format::Html) {
            outputs.push(Box::new(ReplayPage(path.to_owned())));
        }
        outputs
    }
}

/// `--html`: the game's replay page, naming where its record was read.
struct ReplayPage(PathBuf);

impl Output<Shown> for ReplayPage {
    fn finish(&mut self, shown: &Shown) -> Result<()> {
        write_page(
            &self.0,
            &*shown.saved,
            &shown.source,
            shown.forfeit.as_ref(),
        )
    }
}

/// Writes the replay page of `rec` (a game played now or saved; with the
/// league's result when a forfeit decided it) to `path`, and says so.
pub(crate) fn write_page(
    path: &Path,
    rec: &dyn dojo_games::replay::SavedGame,
    source: &RecordSource,
    forfeit: Option<&Verdict>,
) -> Result<()> {
    crate::html::write(path, &crate::html::replay(rec, source, forfeit)?)?;
    outln!("replay page: {}", path.display());
    Ok(())
}

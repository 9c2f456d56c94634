//! A game just played and its outputs (`dojo match GAME`): its lines,
//! times and faults on the terminal, `--json` its record, `--html` its
//! replay page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use dojo_games::SeatInfo;
use dojo_league::view::RecordSource;
use dojo_runner::BotSpec;

use super::{Files, Format, Output, Resolved, Run};
use crate::render::SeatLimits;

/// A game record as `dojo match` finishes it ([`Played`]).
pub(crate) trait MatchRecord:
    dojo_games::replay::SavedGame + serde::Serialize + 'static
{
    fn timing(&self) -> &dojo_games::Timing;
    fn conduct(&self) -> &[dojo_games::SeatConduct];
    /// Drops the per-prompt stderr kept for the faulty seats' account.
    fn clear_stderr(&mut self);
}

/// A game `dojo match` played, with what its terminal output shows
/// beside the record: each seat's times against its limits, each faulty
/// seat's account (why, its first fault, the end of its stderr), a hint
/// for a bot whose script the sandbox hid.
pub(crate) struct Played<Rec> {
    pub record: Rec,
    /// The game's own lines: its header, transcript (or summary) and
    /// result.
    pub text: String,
    /// How a seat is named in the times lines (`player 1 (a)`).
    pub label: fn(&SeatInfo) -> String,
    /// Each seat's limits, by seat.
    pub limits: Vec<SeatLimits>,
    /// The game's account of its faulty seats.
    pub forensics: Vec<String>,
    /// Each seat's bot, by seat.
    pub bots: Vec<Arc<BotSpec>>,
    pub sandbox: dojo_runner::SandboxMode,
}

impl<Rec: MatchRecord> Played<Rec> {
    /// Hands the game to its outputs, the record's per-prompt stderr left
    /// out unless `keep_stderr` (`--keep-stderr`); the exit status says
    /// whether a seat faulted.
    pub fn finish(mut self, outputs: &Resolved<Self>, keep_stderr: bool) -> Result<ExitCode> {
        if !keep_stderr {
            self.record.clear_stderr();
        }
        outputs.open(()).finish(&self)?;
        Ok(crate::exit::code(if self.forensics.is_empty() {
            crate::exit::SUCCESS
        } else {
            crate::exit::FAULTED
        }))
    }
}

impl<Rec: MatchRecord> Run for Played<Rec> {
    const FORMATS: &'static [Format] = &[Format::Json, Format::Html];
    type Listener = ();
    type Setup = ();

    fn outputs(files: &Files, (): ()) -> Vec<Box<dyn Output<Self>>> {
        let mut outputs: Vec<Box<dyn Output<Self>>> = vec![Box::new(MatchText)];
        if let Some(path) = files.path(Format::Json) {
            outputs.push(Box::new(Record(path.to_owned())));
        }
        if let Some(path) = files.path(Format::Html) {
            outputs.push(Box::new(ReplayPage {
                path: path.to_owned(),
                source: record_source(files.path(Format::Json)),
            }));
        }
        outputs
    }
}

/// What a replay page of a game just played can say about its record:
/// the `--json` file it was saved to, if any.
fn record_source(json: Option<&Path>) -> RecordSource {
    // Absolute: the page's commands work from any directory.
    json.map_or(RecordSource::Unsaved, |p| {
        RecordSource::File(crate::rerun::path_word(p))
    })
}

/// The terminal: the game's lines, then what every match adds.
struct MatchText;

impl<Rec: MatchRecord> Output<Played<Rec>> for MatchText {
    fn finish(&mut self, p: &Played<Rec>) -> Result<()> {
        out!("{}", p.text);
        let record = &p.record;
        for line in crate::render::move_lines(record.seats(), record.timing(), p.label, &p.limits) {
            outln!("times: {line}");
        }
        for line in &p.forensics {
            outln!("{line}");
        }
        if !p.forensics.is_empty() {
            // The result line is the board's: a league would not have
            // let the faulty side win it.
            outln!(
                "note: the result above is the board's; a league (under `--faults forfeit`, \
                 its default) scores a game a side faulted in as lost by that side"
            );
        }
        crate::bots::hidden_path_hints(
            p.bots.iter().map(|b| &**b).zip(record.conduct()),
            p.sandbox,
        );
        Ok(())
    }
}

/// `--json`: the record.
struct Record(PathBuf);

impl<Rec: MatchRecord> Output<Played<Rec>> for Record {
    fn finish(&mut self, p: &Played<Rec>) -> Result<()> {
        crate::output::write_json(&self.0, &p.record)
    }
}

/// `--html`: the game's replay page, naming the file its record was
/// saved to.
struct ReplayPage {
    path: PathBuf,
    source: RecordSource,
}

impl<Rec: MatchRecord> Output<Played<Rec>> for ReplayPage {
    fn finish(&mut self, p: &Played<Rec>) -> Result<()> {
        super::replay::write_page(&self.path, &p.record, &self.source, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type CardJitsu = Played<dojo_games::CardJitsuRecord>;

    #[test]
    fn a_match_has_its_terminal_and_one_output_per_file_and_its_page_names_the_record() {
        let mut files = Files::default();
        assert_eq!(CardJitsu::outputs(&files, ()).len(), 1);
        files.0.insert(Format::Html, PathBuf::from("g.html"));
        assert_eq!(CardJitsu::outputs(&files, ()).len(), 2);
        files.0.insert(Format::Json, PathBuf::from("g.json"));
        assert_eq!(CardJitsu::outputs(&files, ()).len(), 3);
        // The page says where the record was saved (absolute), or that
        // it was not.
        let saved = crate::output::absolute(Path::new("g.json"));
        assert_eq!(
            record_source(files.path(Format::Json)),
            RecordSource::File(saved.display().to_string())
        );
        assert_eq!(record_source(None), RecordSource::Unsaved);
    }
}

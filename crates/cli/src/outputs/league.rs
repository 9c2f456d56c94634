//! A league's outputs (`dojo league`, `merge`, `report`): the standings
//! on the terminal (with the progress of a league being played), and its
//! report pages, the one `--html` asks for and those the league
//! remembers (`Origin::pages`), kept current while it runs.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use dojo_league::store::{self, GameLine};
use dojo_league::view::{PageState, PageStatus};
use dojo_league::{Fixture, Progress, Report};

use super::{Files, Format, Output, Run};
use crate::live::LivePages;
use crate::progress::LeagueProgress;

/// A league's result: its out directory and its report.
pub struct League {
    pub dir: PathBuf,
    pub report: Report,
    /// The league's settings and games, when the command has read them
    /// with the report (`dojo report`): its page is then made from them,
    /// not read again.
    pub read: Option<(dojo_league::Settings, Vec<GameLine>)>,
}

/// What a league's outputs need to know before it runs.
pub struct Setup {
    /// The league's out directory.
    pub dir: PathBuf,
    pub pages: Pages,
    pub terminal: Terminal,
}

/// Which report pages a command writes.
pub enum Pages {
    /// `dojo report`: the page `--html` asks for, which the league
    /// remembers from then on.
    Given,
    /// `dojo merge`: the page `--html` asks for joins the league's pages,
    /// then every one of them is written.
    Remembered,
    /// `dojo league`: these pages (the league's, `--html`'s among them
    /// when it can be written again), kept current while it runs, then
    /// written final with `--html`'s if it is not among them (stdout, a
    /// FIFO).
    Live(Vec<PathBuf>),
}

/// What the terminal shows of a league.
pub struct Terminal {
    /// The progress of a league being played (its games stored, then
    /// the entries not played are said too).
    progress: Option<LeagueProgress>,
    /// Whether the report file's path is said.
    report_file: bool,
    /// Whether another league is playing on the directory (`dojo report`
    /// on a running league): an incomplete one is then said to be played,
    /// not to be finished by a resume, which would be refused.
    running: bool,
}

impl Terminal {
    /// `dojo report`: the standings, of a league `running` on its
    /// directory now or not ([`store::is_running`]).
    pub fn standings(running: bool) -> Terminal {
        Terminal {
            progress: None,
            report_file: false,
            running,
        }
    }

    /// `dojo merge`: the standings and where the report is.
    pub fn merged() -> Terminal {
        Terminal {
            progress: None,
            report_file: true,
            running: false,
        }
    }

    /// `dojo league`: its progress (a line per game with `verbose`), the
    /// standings, the entries not played and where the report is.
    pub fn played(verbose: bool) -> Terminal {
        Terminal {
            progress: Some(LeagueProgress::new(0, verbose)),
            report_file: true,
            running: false,
        }
    }
}

impl Run for League {
    const FORMATS: &'static [Format] = &[Format::Html];
    type Listener = dyn Progress;
    type Setup = Setup;

    fn outputs(files: &Files, setup: Setup) -> Vec<Box<dyn Output<Self>>> {
        let Setup {
            dir,
            pages,
            terminal,
        } = setup;
        let mut outputs: Vec<Box<dyn Output<Self>>> = vec![Box::new(terminal)];
        let given = files.path(Format::Html).map(Path::to_owned);
        if given.is_some() || !matches!(pages, Pages::Given) {
            outputs.push(Box::new(ReportPages::new(dir, given, pages)));
        }
        outputs
    }
}

/// The league's events heard by every output that listens.
impl Progress for super::Outputs<League> {
    fn game_done(&mut self, done: u64, total: u64, leader: Option<(&str, f64)>) {
        for l in self.listeners() {
            l.game_done(done, total, leader);
        }
    }

    fn game_failed(&mut self, fixture: &Fixture, error: &str) {
        for l in self.listeners() {
            l.game_failed(fixture, error);
        }
    }

    fn started(&mut self, done: u64, total: u64) {
        for l in self.listeners() {
            l.started(done, total);
        }
    }

    fn game_stored(&mut self, line: &GameLine) {
        for l in self.listeners() {
            l.game_stored(line);
        }
    }

    /// Said whatever the progress shown: a line of the results file was
    /// changed.
    fn torn_line_cut(&mut self, line: usize, kept: &std::path::Path) {
        errln!(
            "note: line {line} of {} was torn (a write cut short when dojo was stopped): cut off and kept in {}; a game it held is played again",
            dojo_league::store::GAMES_FILE,
            kept.display()
        );
    }
}

impl Output<League> for Terminal {
    fn listener(&mut self) -> Option<&mut (dyn Progress + 'static)> {
        self.progress.as_mut().map(|p| p as &mut dyn Progress)
    }

    fn finish(&mut self, league: &League) -> Result<()> {
        let report = &league.report;
        if let Some(progress) = &self.progress {
            progress.finish();
        }
        out!(
            "{}",
            crate::render::standings::table(report, &league.dir, self.running)
        );
        if self.progress.is_some() && !report.excluded.is_empty() {
            errln!(
                "not played: {} of the bots folder ({}; report.json's `excluded` says why)",
                crate::submissions::entries(report.excluded.len()),
                report
                    .excluded
                    .iter()
                    .map(|e| format!("{} ({})", crate::render::untrusted::line(&e.dir), e.status))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if self.report_file {
            outln!("report: {}", league.dir.join(store::REPORT_FILE).display());
        }
        Ok(())
    }
}

/// `--html` and the league's remembered pages ([`Pages`]).
struct ReportPages {
    dir: PathBuf,
    /// The page `--html` asks for.
    given: Option<PathBuf>,
    pages: Pages,
    /// While a league runs: its pages kept current.
    live: Option<LivePages>,
}

impl ReportPages {
    fn new(dir: PathBuf, given: Option<PathBuf>, pages: Pages) -> ReportPages {
        let live = match &pages {
            // Only a file can be written again and again (a FIFO or
            // stdout would get every version in a row): the others get
            // the final page alone.
            Pages::Live(pages) => {
                let live_pages = (pages.iter())
                    .filter(|p| crate::output::replaced_atomically(p))
                    .cloned()
                    .collect();
                let live_dir = dir.clone();
                Some(LivePages::new(
                    live_pages,
                    Box::new(move |page, status| write_page(&live_dir, page, Some(status))),
                ))
            }
            _ => None,
        };
        ReportPages {
            dir,
            given,
            pages,
            live,
        }
    }

    /// `--html`'s page when it is not among the league's (stdout, a
    /// FIFO: written once, never remembered).
    fn once(&self) -> Option<&Path> {
        (self.given.as_deref()).filter(|p| !crate::output::replaced_atomically(p))
    }

    /// Every page of [`Pages::Live`] and [`Self::once`], as the league is
    /// now.
    fn write_live_pages(&self, pages: &[PathBuf]) -> Result<()> {
        write_pages(&self.dir, pages, self.once())
    }
}

impl Output<League> for ReportPages {
    fn listener(&mut self) -> Option<&mut (dyn Progress + 'static)> {
        self.live.as_mut().map(|l| l as &mut dyn Progress)
    }

    fn finish(&mut self, league: &League) -> Result<()> {
        // The live pages stop first: no live page may land after a final
        // one.
        drop(self.live.take());
        match &self.pages {
            Pages::Given => {
                if let Some(path) = &self.given {
                    match &league.read {
                        Some((settings, games)) => {
                            let status = status_now(&self.dir)?;
                            let page = crate::html::report(
                                &league.report,
                                settings,
                                games,
                                &self.dir,
                                status,
                            )?;
                            crate::html::write(path, &page)?;
                        }
                        None => write_page(&self.dir, path, None)?,
                    }
                    // The page is the league's from now on: a resume or
                    // merge of the league writes it again.
                    remember_page(&self.dir, path)?;
                    super::say_written("report page", path);
                }
                Ok(())
            }
            Pages::Remembered => {
                if let Some(path) = &self.given {
                    remember_page(&self.dir, path)?;
                }
                let pages = store::load_league(&self.dir)?.origin.pages;
                write_pages(&self.dir, &pages, self.once())
            }
            Pages::Live(pages) => self.write_live_pages(pages),
        }
    }

    /// The pages said "live": they say where the league stopped, and
    /// reload no more; one that cannot be written is a warning beside
    /// the league's own error.
    fn stopped(&mut self) -> Result<()> {
        let started = self.live.take().is_some_and(LivePages::finish);
        if let Pages::Live(pages) = &self.pages
            && started
            && let Err(e) = self.write_live_pages(pages)
        {
            errln!("warning: {e:#}");
        }
        Ok(())
    }
}

/// Writes every page of `pages` and `once` as the league in `dir` is now,
/// each said but the one on stdout.
fn write_pages(dir: &Path, pages: &[PathBuf], once: Option<&Path>) -> Result<()> {
    for page in pages.iter().map(PathBuf::as_path).chain(once) {
        write_page(dir, page, None)?;
        super::say_written("report page", page);
    }
    Ok(())
}

/// What is wrong with `dir` as a league's out directory, in words (it does
/// not exist, is a file, has no league.json); `None` when it holds a
/// league.json.
pub fn not_a_league(dir: &Path) -> Option<String> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("does not exist".into()),
        Err(e) => Some(format!("cannot be read: {e}")),
        Ok(meta) if !meta.is_dir() => {
            let holder = dir
                .parent()
                .filter(|p| p.join(store::LEAGUE_FILE).is_file())
                .map(|p| {
                    if p.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        p
                    }
                });
            Some(match holder {
                Some(league) => format!(
                    "is a file, not a league directory (it is in the league directory {})",
                    league.display()
                ),
                None => "is a file, not a league directory".into(),
            })
        }
        Ok(_) if !dir.join(store::LEAGUE_FILE).is_file() => {
            Some("not a league out directory (it has no league.json)".into())
        }
        Ok(_) => None,
    }
}

/// Reads the league in `dir` (refused, saying what is wrong, when it is
/// none).
pub fn read_league(
    dir: &Path,
) -> Result<(dojo_league::Settings, Vec<GameLine>, dojo_league::Report)> {
    if let Some(problem) = not_a_league(dir) {
        anyhow::bail!(
            "{}: {problem}; expected the --out directory of a `dojo league`",
            dir.display()
        );
    }
    dojo_league::view::read_league(dir)
        .with_context(|| format!("reading the league in {}", dir.display()))
}

/// Writes the report page of the league in `dir` to `path` (every game's
/// replay packed inside it), saying how current it is: `status`, or
/// without one, as the directory is now (a league running on it: the
/// games so far; otherwise final).
pub fn write_page(dir: &Path, path: &Path, status: Option<PageStatus>) -> Result<()> {
    let (settings, games, report) = read_league(dir)?;
    let status = match status {
        Some(status) => status,
        None => status_now(dir)?,
    };
    let page = crate::html::report(&report, &settings, &games, dir, status)?;
    crate::html::write(path, &page)
}

/// How current a page of the league in `dir` is, as the directory is
/// now: a league running on it has played the games so far; otherwise
/// it is final.
fn status_now(dir: &Path) -> Result<PageStatus> {
    Ok(if store::is_running(dir)? {
        PageStatus::now(PageState::Running, None)
    } else {
        PageStatus::now(PageState::Final, None)
    })
}

/// Adds `page` to the pages of the league in `dir` (`Origin::pages`), so
/// a resume or merge writes it again. Not while a league runs on the
/// directory: that league keeps its own pages, and this one is left out.
pub fn remember_page(dir: &Path, page: &Path) -> Result<()> {
    // Stdout or a FIFO takes this one page: written again, it would get
    // every later version in a row, or block a resume with no reader.
    if !crate::output::replaced_atomically(page) {
        return Ok(());
    }
    let Ok(_lock) = store::lock_games(dir) else {
        return Ok(());
    };
    let mut origin = store::load_league(dir)?.origin;
    let here = settle_pages(dir, &mut origin, true);
    origin.add_page(&here, crate::outpaths::canonical(page));
    store::record_origin(dir, &origin)?;
    Ok(())
}

/// Makes the pages in `origin` those of the league in `dir`
/// (`Origin::settle_pages`), saying each page it leaves to the league
/// the directory was copied or moved from: written, it would overwrite
/// that league's page with this one's. `given`: this run gives the league
/// a page (`--html`). Returns `dir`, canonical, for `Origin::add_page`.
pub fn settle_pages(dir: &Path, origin: &mut dojo_league::Origin, given: bool) -> PathBuf {
    let here = crate::outpaths::canonical(dir);
    let was = origin.pages_of.clone().unwrap_or_default();
    for page in origin.settle_pages(&here) {
        errln!(
            "{}: {} is the page of the league in {}, which this directory was copied or moved from: not written; {}",
            dir.display(),
            page.display(),
            was.display(),
            if given {
                "this league's page is --html's"
            } else {
                "--html FILE gives this one a page"
            }
        );
    }
    here
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;

    /// Notes every event it hears, under its name.
    struct Ear(&'static str, Rc<RefCell<Vec<String>>>);

    impl Progress for Ear {
        fn game_done(&mut self, done: u64, total: u64, _: Option<(&str, f64)>) {
            self.1
                .borrow_mut()
                .push(format!("{} done {done}/{total}", self.0));
        }

        fn started(&mut self, done: u64, total: u64) {
            self.1
                .borrow_mut()
                .push(format!("{} started {done}/{total}", self.0));
        }
    }

    impl Output<League> for Ear {
        fn listener(&mut self) -> Option<&mut (dyn Progress + 'static)> {
            Some(self)
        }

        fn finish(&mut self, _: &League) -> Result<()> {
            Ok(())
        }
    }

    /// Renders the end only.
    struct Deaf;

    impl Output<League> for Deaf {
        fn finish(&mut self, _: &League) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_listening_output_hears_each_event_of_the_league_in_turn() {
        let heard = Rc::new(RefCell::new(Vec::new()));
        let mut outputs = super::super::Outputs::<League> {
            outputs: vec![
                Box::new(Ear("terminal", Rc::clone(&heard))),
                Box::new(Deaf),
                Box::new(Ear("pages", Rc::clone(&heard))),
            ],
        };
        let progress: &mut dyn Progress = &mut outputs;
        progress.started(2, 10);
        progress.game_done(3, 10, Some(("a", 50.0)));
        assert_eq!(
            *heard.borrow(),
            [
                "terminal started 2/10",
                "pages started 2/10",
                "terminal done 3/10",
                "pages done 3/10"
            ]
        );
    }

    #[test]
    fn a_report_without_html_has_only_the_terminal_and_a_league_always_its_pages() {
        let dir = PathBuf::from("/nonexistent");
        let setup = |pages| Setup {
            dir: dir.clone(),
            pages,
            terminal: Terminal::standings(false),
        };
        let none = Files::default();
        assert_eq!(League::outputs(&none, setup(Pages::Given)).len(), 1);
        assert_eq!(League::outputs(&none, setup(Pages::Remembered)).len(), 2);
        assert_eq!(
            League::outputs(&none, setup(Pages::Live(Vec::new()))).len(),
            2
        );
        let mut html = Files::default();
        html.0.insert(Format::Html, PathBuf::from("p.html"));
        assert_eq!(League::outputs(&html, setup(Pages::Given)).len(), 2);
    }
}

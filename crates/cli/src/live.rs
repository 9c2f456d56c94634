//! A running league's pages, written again as its games finish.
//!
//! The league tells its progress on the thread that stores the games (the
//! driver's sink, which hands the workers their next games). Writing a
//! page reads the league directory and packs every game's replay, which
//! takes a while for a big league, so [`LivePages`] only notes that there
//! is something new (a mutex and a condition variable) and one thread of
//! its own writes the pages: once when the league starts, then at most
//! every [`PAGE_INTERVAL`] while games keep finishing (less often when
//! writing them takes long: [`PAUSE_PER_WRITE`]). A page that cannot
//! be written is a warning: the league goes on and every result is stored
//! as always. The final pages are the command's to write, after
//! [`LivePages::finish`].

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use dojo_league::Progress;
use dojo_league::view::{PageState, PageStatus};

/// How often at most a running league's pages are written again, and how
/// often a live page reloads itself in the browser.
pub const PAGE_INTERVAL: Duration = Duration::from_secs(3);

/// How long a running league's pages go unwritten at most while no game
/// finishes (a slow royale game can take minutes): a live page older than
/// ten reloads says its league may have stopped (`report.js`), so the
/// pages are written again before that, with the ETA they last had.
pub const PAGE_HEARTBEAT: Duration = Duration::from_secs(15);

/// Between two writings of the pages, at least this many times as long as
/// the last one took: a big league's pages (every game's replay packed)
/// take seconds to write, and the bots need the cores more (at most a
/// fifth of one core goes to pages).
const PAUSE_PER_WRITE: u32 = 4;

/// Writes one page of the league: its path and how current it is.
pub type WritePage = dyn Fn(&std::path::Path, PageStatus) -> anyhow::Result<()> + Send;

/// [`Progress`] that keeps the league's pages current (see the module
/// docs): one listener of the league's events beside the terminal's
/// (`crate::outputs::league`).
pub struct LivePages {
    shared: Arc<Shared>,
    writer: Option<JoinHandle<()>>,
    /// When this run started and how many games were stored before it
    /// (they took no time in it, so the rate leaves them out).
    started: Instant,
    first: u64,
    league_started: bool,
}

/// What the writer thread is asked to do.
#[derive(Default)]
struct Shared {
    asked: Mutex<Asked>,
    wake: Condvar,
}

#[derive(Default)]
struct Asked {
    /// The newest state not yet on the pages: the ETA in seconds, if any.
    news: Option<Option<u64>>,
    stop: bool,
}

impl LivePages {
    /// Keeps `pages` current with `write`; without pages, only notes
    /// whether the league started.
    pub fn new(pages: Vec<PathBuf>, write: Box<WritePage>) -> Self {
        let shared = Arc::new(Shared::default());
        let writer = (!pages.is_empty()).then(|| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                write_while_running(&shared, &pages, &*write, PAGE_HEARTBEAT)
            })
        });
        LivePages {
            shared,
            writer,
            started: Instant::now(),
            first: 0,
            league_started: false,
        }
    }

    /// Asks for the pages to be written with this ETA.
    fn news(&self, eta_secs: Option<u64>) {
        if self.writer.is_none() {
            return;
        }
        let mut asked = self
            .shared
            .asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        asked.news = Some(eta_secs);
        self.shared.wake.notify_one();
    }

    /// Stops the writer thread, after the page it is writing: the final
    /// pages come next, and no live one may land after them. Returns
    /// whether the league started (and its pages were written live).
    pub fn finish(self) -> bool {
        self.league_started
    }
}

impl Drop for LivePages {
    /// Stops the writer (see [`LivePages::finish`]), also when the league
    /// ended in an error.
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            self.shared
                .asked
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .stop = true;
            self.shared.wake.notify_one();
            let _ = writer.join();
        }
    }
}

/// The writer thread: waits for news (or `heartbeat` without any, once
/// the pages were written: they are written again as they were), writes
/// every page, then lets at least [`PAGE_INTERVAL`] pass before the next
/// writing.
fn write_while_running(shared: &Shared, pages: &[PathBuf], write: &WritePage, heartbeat: Duration) {
    let mut failing = vec![false; pages.len()];
    // When the last writing ended, and how long it took.
    let mut last: Option<(Instant, Duration)> = None;
    // The ETA the pages were last written with.
    let mut last_eta = None;
    loop {
        let eta = {
            let lock = shared.asked.lock().unwrap_or_else(PoisonError::into_inner);
            let idle = |a: &mut Asked| a.news.is_none() && !a.stop;
            let mut asked = match last {
                None => {
                    (shared.wake.wait_while(lock, idle)).unwrap_or_else(PoisonError::into_inner)
                }
                Some(_) => {
                    (shared.wake.wait_timeout_while(lock, heartbeat, idle))
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
            if asked.news.is_none() && !asked.stop {
                asked.news = Some(last_eta);
            }
            if let Some((at, took)) = last {
                let pause = PAGE_INTERVAL.max(took * PAUSE_PER_WRITE);
                let rest = pause.saturating_sub(at.elapsed());
                asked = shared
                    .wake
                    .wait_timeout_while(asked, rest, |a| !a.stop)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            if asked.stop {
                return;
            }
            let Some(eta) = asked.news.take() else {
                continue;
            };
            eta
        };
        last_eta = eta;
        let writing = Instant::now();
        for (page, failing) in pages.iter().zip(&mut failing) {
            match write(page, PageStatus::now(PageState::Live, eta)) {
                Ok(()) if *failing => {
                    *failing = false;
                    errln!("the page {} is written again", page.display());
                }
                Ok(()) => {}
                // Said once, not at every game: the games are stored
                // either way, and the final page is tried again.
                Err(e) if !*failing => {
                    *failing = true;
                    errln!(
                        "warning: cannot write the page {} while the league runs: {e:#}; the league goes on",
                        page.display()
                    );
                }
                Err(_) => {}
            }
        }
        last = Some((Instant::now(), writing.elapsed()));
    }
}

impl Progress for LivePages {
    fn game_done(&mut self, done: u64, total: u64, _leader: Option<(&str, f64)>) {
        let eta = crate::progress::eta_secs(done, total, self.first, self.started.elapsed());
        self.news(eta.map(|s| s.round() as u64));
    }

    fn started(&mut self, done: u64, _total: u64) {
        self.started = Instant::now();
        self.first = done;
        self.league_started = true;
        self.news(None);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    #[test]
    fn a_slow_page_holds_up_no_game_and_is_written_live_at_most_once_an_interval() {
        let (wrote, writes) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        let released = Mutex::new(released);
        let write = move |page: &std::path::Path, status: PageStatus| {
            wrote.send((page.to_owned(), status)).unwrap();
            // The page takes until the test lets it go.
            let _ = released.lock().unwrap().recv();
            Ok(())
        };
        let mut live = LivePages::new(vec!["p.html".into()], Box::new(write));
        live.started(0, 100);
        let deadline = Duration::from_secs(60);
        let (page, first) = writes.recv_timeout(deadline).expect("the start's page");
        assert_eq!(page, PathBuf::from("p.html"));
        assert_eq!((first.state, first.eta_secs), (PageState::Live, None));
        // The page is being written: the games go on regardless.
        for done in 1..=50 {
            live.game_done(done, 100, None);
        }
        release.send(()).unwrap();
        assert!(live.finish(), "the league started");
        // Stopped within the interval that follows a page: no second one.
        assert!(writes.try_recv().is_err());
    }

    /// A game that takes longer than a live page's staleness (ten
    /// reloads) must not make the page say its league may have stopped:
    /// with no game finishing, the pages are written again, as they were.
    #[test]
    fn with_no_game_finishing_the_pages_are_written_again_as_they_were() {
        let (wrote, writes) = mpsc::channel();
        let write = move |_: &std::path::Path, status: PageStatus| {
            let _ = wrote.send(status);
            Ok(())
        };
        let shared = Arc::new(Shared::default());
        let writer = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                let heartbeat = Duration::from_millis(50);
                write_while_running(&shared, &["p.html".into()], &write, heartbeat);
            })
        };
        let tell = |news: Option<Option<u64>>, stop: bool| {
            let mut asked = shared.asked.lock().unwrap();
            asked.news = news;
            asked.stop = stop;
            shared.wake.notify_one();
        };
        tell(Some(Some(42)), false);
        let deadline = Duration::from_secs(60);
        let first = writes.recv_timeout(deadline).expect("the page");
        // Nothing more is told: written again, with the same ETA.
        let again = writes.recv_timeout(deadline).expect("written again");
        assert_eq!((first.eta_secs, again.eta_secs), (Some(42), Some(42)));
        assert!(again.updated_ms >= first.updated_ms);
        tell(None, true);
        writer.join().unwrap();
    }

    #[test]
    fn without_pages_no_thread_writes() {
        let write = |_: &std::path::Path, _: PageStatus| -> anyhow::Result<()> {
            panic!("no page to write")
        };
        let mut live = LivePages::new(Vec::new(), Box::new(write));
        live.started(3, 10);
        live.game_done(4, 10, None);
        assert!(live.finish());
    }
}

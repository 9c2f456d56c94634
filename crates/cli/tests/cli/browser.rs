//! The HTML pages opened in headless Chromium, driven over the DevTools
//! protocol: each page must load with no console error, no exception and no
//! network request, and show what the engine says.
//!
//! Without Chromium these tests print why and pass, so `cargo test` works on
//! a machine with only the Rust toolchain; CI installs Chromium and sets
//! `DOJO_REQUIRE_BROWSER=1`, which turns a missing browser into a failure.
//! `DOJO_CHROMIUM` names the browser binary if it is not on the PATH.

use std::ffi::OsStr;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dojo_engine::cardjitsu::{self, CardJitsu};
use dojo_engine::protocol::Fault;
use dojo_engine::royale::{self, Action, Board, Dir, Royale, Team, TurnFault};
use dojo_games::{CardJitsuRecord, RECORD_VERSION, RoyaleRecord, SeatConduct, SeatInfo, Timing};
use dojo_testkit::cli::{dojo, stdout_ok};
use dojo_testkit::json::read_json;
use dojo_testkit::paths::root;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::protocol::cdp::{Emulation, Network, Page};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;

/// The Chromium binary, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DOJO_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|p| p.is_file())
}

/// Chromium, or `None` after saying why the test is skipped (a failure
/// instead when `DOJO_REQUIRE_BROWSER` is set, as in CI).
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("DOJO_REQUIRE_BROWSER").is_none(),
            "{test}: DOJO_REQUIRE_BROWSER is set but no Chromium was found (apt-get install chromium, or set DOJO_CHROMIUM)"
        );
        // Straight to the stderr handle: the test harness captures
        // eprintln! of passing tests, and this reason must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "skipping {test}: no Chromium found (apt-get install chromium, or set DOJO_CHROMIUM); the HTML pages are not tested in a browser"
        );
    }
    found
}

/// A page open in headless Chromium, with every console error, exception
/// and network request it caused.
struct Opened {
    _browser: Browser,
    _profile: tempfile::TempDir,
    tab: Arc<Tab>,
    url: String,
    errors: Arc<Mutex<Vec<String>>>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Opened {
    fn open(chrome: &Path, file: &Path) -> Opened {
        Opened::open_until(chrome, file, "#result")
    }

    /// Opens `file` and waits until `selector` is drawn.
    fn open_until(chrome: &Path, file: &Path, selector: &str) -> Opened {
        let profile = tempfile::tempdir().unwrap();
        // The flags keep Chromium from phoning home, which on a closed
        // network only makes noise (and would count as requests here).
        let args: Vec<&OsStr> = [
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ]
        .iter()
        .map(OsStr::new)
        .collect();
        let options = LaunchOptions::default_builder()
            .path(Some(chrome.to_owned()))
            .headless(true)
            .sandbox(false)
            .user_data_dir(Some(profile.path().to_owned()))
            .window_size(Some((1366, 1000)))
            .idle_browser_timeout(Duration::from_secs(120))
            .args(args)
            .build()
            .unwrap();
        let browser = Browser::new(options).expect("Chromium starts");
        let tab = browser.new_tab().unwrap();
        tab.set_default_timeout(Duration::from_secs(30));
        let errors = Arc::new(Mutex::new(Vec::new()));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (e, r) = (Arc::clone(&errors), Arc::clone(&requests));
        tab.add_event_listener(Arc::new(move |event: &Event| match event {
            Event::RuntimeExceptionThrown(ev) => {
                let d = &ev.params.exception_details;
                let what = d.exception.as_ref().and_then(|x| x.description.clone());
                e.lock()
                    .unwrap()
                    .push(format!("exception: {} {what:?}", d.text));
            }
            Event::RuntimeConsoleAPICalled(ev) => {
                let kind = format!("{:?}", ev.params.Type);
                if kind == "Error" || kind == "Assert" || kind == "Warning" {
                    let args: Vec<String> = ev
                        .params
                        .args
                        .iter()
                        .map(|a| {
                            format!(
                                "{:?}",
                                a.value
                                    .as_ref()
                                    .or(a.description.as_ref().map(|_| &Value::Null))
                            )
                        })
                        .collect();
                    e.lock().unwrap().push(format!("console.{kind}: {args:?}"));
                }
            }
            Event::LogEntryAdded(ev) => {
                let entry = &ev.params.entry;
                // Errors only: the tests' own canvas read-back draws a
                // performance warning.
                if format!("{:?}", entry.level) == "Error" {
                    e.lock()
                        .unwrap()
                        .push(format!("log {:?}: {}", entry.level, entry.text));
                }
            }
            Event::NetworkRequestWillBeSent(ev) => {
                r.lock().unwrap().push(ev.params.request.url.clone());
            }
            _ => {}
        }))
        .unwrap();
        tab.enable_runtime().unwrap();
        tab.enable_log().unwrap();
        let enable: Network::Enable = serde_json::from_str("{}").unwrap();
        tab.call_method(enable).unwrap();
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        tab.navigate_to(&url)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        tab.wait_for_element(selector)
            .expect("the page draws its content");
        Opened {
            _browser: browser,
            _profile: profile,
            tab,
            url,
            errors,
            requests,
        }
    }

    /// Evaluates `expr` in the page; its value comes back through
    /// `JSON.stringify`.
    fn eval(&self, expr: &str) -> Value {
        let wrapped = format!("JSON.stringify((() => {{ return {expr}; }})() ?? null)");
        let out = self.tab.evaluate(&wrapped, false).unwrap();
        match out.value {
            Some(Value::String(text)) => serde_json::from_str(&text).unwrap(),
            other => panic!("{expr}: no value ({other:?}, {:?})", out.description),
        }
    }

    fn text(&self, selector: &str) -> String {
        let v = self.eval(&format!("document.querySelector({selector:?}).textContent"));
        v.as_str().unwrap_or_default().to_owned()
    }

    fn key(&self, key: &str) {
        self.tab.press_key(key).unwrap();
    }

    /// The stepper's position (turn or round).
    fn turn(&self) -> u64 {
        self.eval("Number(document.getElementById('turn').dataset.turn)")
            .as_u64()
            .unwrap()
    }

    /// No console error or exception, and no request but the page itself.
    fn assert_clean(&self) {
        // A round trip to the page, so events sent before it have arrived.
        self.eval("1");
        let errors = self.errors.lock().unwrap();
        assert!(errors.is_empty(), "the page logged errors: {errors:#?}");
        // No value the script failed to find shows up as text.
        let text = self.eval("document.body.innerText");
        let text = text.as_str().unwrap_or_default();
        for word in ["undefined", "NaN", "null", "[object Object]"] {
            let whole = text
                .split(|c: char| !c.is_alphanumeric() && c != '[' && c != ']')
                .any(|w| w == word);
            assert!(
                !whole && !text.contains("[object Object]"),
                "the page shows {word:?}"
            );
        }
        let requests = self.requests.lock().unwrap();
        let others: Vec<&String> = requests.iter().filter(|u| **u != self.url).collect();
        assert!(others.is_empty(), "the page made requests: {others:?}");
    }

    /// Lays the page out as a phone shows it: 420 CSS pixels wide, the
    /// page's own viewport meta in force.
    fn on_a_phone(&self) {
        self.on_a_phone_of(420);
    }

    /// Lays the page out as a phone `width` CSS pixels wide shows it.
    fn on_a_phone_of(&self, width: u32) {
        let phone: Emulation::SetDeviceMetricsOverride = serde_json::from_str(&format!(
            r#"{{"width": {width}, "height": 900, "deviceScaleFactor": 1, "mobile": true}}"#
        ))
        .unwrap();
        self.tab.call_method(phone).unwrap();
        // The layout's width; `innerWidth` is the phone's zoomed-out view,
        // as wide as whatever sticks out.
        assert_eq!(
            self.eval("document.documentElement.clientWidth"),
            width,
            "the phone's width took"
        );
    }

    /// The page does not scroll sideways: whatever is wider than the
    /// screen scrolls in a box of its own. The message names what sticks
    /// out of the screen.
    fn assert_no_sideways_scroll(&self, what: &str) {
        let seen = self.eval(
            "(() => { const w = document.documentElement.clientWidth, out = [];
                 const boxed = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
                     if (getComputedStyle(p).overflowX !== 'visible' && p.getBoundingClientRect().right <= w + 0.5) return true; } return false; };
                 for (const e of document.querySelectorAll('main *')) {
                   const r = e.getBoundingClientRect();
                   if (r.width > 0 && r.right > w + 0.5 && !boxed(e)) out.push(`${e.tagName}.${e.className} to ${Math.round(r.right)}: ${(e.textContent || '').slice(0, 40)}`);
                 }
                 return { scroll: document.documentElement.scrollWidth, width: w, out: out.slice(0, 12) }; })()",
        );
        assert!(
            seen["scroll"].as_f64().unwrap() <= seen["width"].as_f64().unwrap(),
            "{what}: the page scrolls sideways on a phone: {seen:#}"
        );
        // Nor does anything stick out past the screen's edge outside a
        // box of its own (a phone's browser may lay a page out wider than
        // its screen rather than scroll it: a large board stuck out so).
        assert_eq!(
            seen["out"],
            serde_json::json!([]),
            "{what}: sticks out of the screen on a phone: {seen:#}"
        );
    }

    /// Loads the page again (as a phone that opens it, after
    /// [`Opened::on_a_phone`]) and waits until `selector` is drawn.
    fn reload_until(&self, selector: &str) {
        self.tab.reload(true, None).unwrap();
        self.tab.wait_until_navigated().unwrap();
        self.tab
            .wait_for_element(selector)
            .expect("the page draws its content");
    }

    /// Every chart's labels stay readable: drawn at 8 CSS pixels or more
    /// (a chart scaled down to a phone's width drew them at about 4).
    fn assert_readable_charts(&self, what: &str) {
        let seen = self.eval(
            "(() => [...document.querySelectorAll('svg.chart')].map((svg) => {
                 const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                 const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
                 return { id: svg.id || svg.parentElement.id, smallest: Math.min(...sizes) };
             }))()",
        );
        let charts = seen.as_array().unwrap();
        assert!(!charts.is_empty(), "{what}: no chart");
        for c in charts {
            assert!(
                c["smallest"].as_f64().unwrap() >= 8.0,
                "{what}: a chart's labels are too small to read: {seen}"
            );
        }
    }

    /// A screenshot named `name` in the directory `DOJO_SCREENSHOTS`
    /// names, when it names one (to look at the pages a run drew).
    fn screenshot_if_asked(&self, name: &str) {
        if let Some(shots) = std::env::var_os("DOJO_SCREENSHOTS") {
            self.screenshot(&Path::new(&shots).join(name));
        }
    }

    fn screenshot(&self, path: &Path) {
        let png = self
            .tab
            .capture_screenshot(Page::CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

/// A tiny deterministic generator for test moves.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// One conduct entry per seat, as the runner reports a clean game (the
/// records here are made by the engine, not played by processes).
fn conduct(seats: usize) -> Vec<SeatConduct> {
    (0..seats)
        .map(|_| SeatConduct {
            faults: Default::default(),
            spawns: 1,
            unsolicited: 0,
            mode: dojo_runner::Mode::Auto,
            first_invalid: None,
        })
        .collect()
}

fn seat(i: usize, bot: &str, team: Option<Team>) -> SeatInfo {
    SeatInfo {
        seat: i,
        bot: bot.into(),
        command: vec!["python3".into(), format!("{bot}.py")],
        team: team.map(dojo_games::royale::role),
        dir: None,
        fingerprint: None,
    }
}

/// A royale game on `board_file` played by the engine with made-up moves
/// (some of them illegal, every 29th a timeout), and the engine's board
/// lines and positions after each turn in `checkpoints`.
#[allow(clippy::type_complexity)]
fn royale_game(
    board_file: &str,
    turns: usize,
    checkpoints: &[usize],
) -> (RoyaleRecord, Vec<(usize, Vec<String>, Vec<(usize, usize)>)>) {
    let text = std::fs::read_to_string(root().join(board_file)).unwrap();
    let board = Board::parse(&text, board_file).unwrap();
    let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
    let settings = royale::Settings {
        max_rounds: Some(100_000),
        stall_rounds: Some(100_000),
    };
    let mut game = Royale::new(board, teams.clone(), 7, settings).unwrap();
    let mut rng = Lcg(42);
    let mut seen = Vec::new();
    let dirs = [Dir::U, Dir::D, Dir::L, Dir::R];
    let snapshot = |game: &Royale, n: usize| {
        let pos = game.positions().iter().map(|p| (p.x, p.y)).collect();
        (n, game.board().to_lines(), pos)
    };
    if checkpoints.contains(&0) {
        seen.push(snapshot(&game, 0));
    }
    let mut played = 0;
    while played < turns {
        let Some(seat) = game.to_move() else { break };
        if played % 29 == 28 {
            game.step_fault(seat, Fault::Timeout).unwrap();
        } else {
            let dir = dirs[rng.next(4) as usize];
            let action = match rng.next(10) {
                0 => Action::Pass,
                1..=3 => Action::Move(dir),
                _ => Action::Instigate(dir),
            };
            game.step(seat, action).unwrap();
        }
        played += 1;
        if checkpoints.contains(&played) {
            seen.push(snapshot(&game, played));
        }
    }
    let mut latency = vec![Vec::new(); 3];
    for a in &game.record().actions {
        let n = latency[a.seat].len() as u64;
        latency[a.seat].push(200 + 37 * n % 900);
    }
    let rec = RoyaleRecord {
        version: RECORD_VERSION,
        game: "royale".into(),
        seats: teams
            .iter()
            .enumerate()
            .map(|(i, t)| seat(i, &format!("bot-{t}"), Some(*t)))
            .collect(),
        board_file: board_file.into(),
        play: game.record(),
        conduct: conduct(3),
        stderr: Vec::new(),
        timing: Timing {
            wall_ms: 1.0,
            latency_us: latency,
            ..Timing::default()
        },
    };
    (rec, seen)
}

/// Writes `record` and its replay page into `dir`; returns the page.
fn replay_page(dir: &Path, name: &str, record: &impl serde::Serialize) -> PathBuf {
    let json = dir.join(format!("{name}.json"));
    std::fs::write(&json, serde_json::to_string(record).unwrap()).unwrap();
    let html = dir.join(format!("{name}.html"));
    stdout_ok(dojo().arg("replay").arg(&json).arg("--html").arg(&html));
    html
}

/// Each tile's letter as the board canvas shows it (the colour inside its
/// cell), `?` for a colour that is no tile's.
fn canvas_tiles(page: &Opened, width: usize, height: usize) -> Vec<String> {
    let js = format!(
        "(() => {{
          const c = document.getElementById('board'), cell = Number(c.dataset.cell);
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          const fills = {{ '233,230,222': '.', '59,64,73': '#', '213,94,0': 'R', '0,114,178': 'P', '0,158,115': 'S' }};
          const rows = [];
          for (let y = 0; y < {height}; y++) {{
            let row = '';
            for (let x = 0; x < {width}; x++) {{
              const i = (Math.floor(y * cell + 1) * c.width + Math.floor(x * cell + 1)) * 4;
              row += fills[d[i] + ',' + d[i + 1] + ',' + d[i + 2]] || '?';
            }}
            rows.push(row);
          }}
          return rows;
        }})()"
    );
    serde_json::from_value(page.eval(&js)).unwrap()
}

/// Where the players layer draws a marker: the cells whose centre pixel on
/// that canvas is the markers' white.
fn canvas_players(page: &Opened, width: usize, height: usize) -> Vec<(usize, usize)> {
    let js = format!(
        "(() => {{
          const c = document.getElementById('players'), cell = Number(document.getElementById('board').dataset.cell);
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          const found = [];
          for (let y = 0; y < {height}; y++) for (let x = 0; x < {width}; x++) {{
            const px = Math.floor(x * cell + cell / 2 - 0.5), py = Math.floor(y * cell + cell / 2 - 0.5);
            const i = (py * c.width + px) * 4;
            if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 255 && d[i + 3] === 255) found.push([x, y]);
          }}
          return found;
        }})()"
    );
    serde_json::from_value(page.eval(&js)).unwrap()
}

/// Asserts the page shows the engine's board and players.
fn assert_board(
    page: &Opened,
    seen: &(usize, Vec<String>, Vec<(usize, usize)>),
    w: usize,
    h: usize,
) {
    assert_eq!(
        canvas_tiles(page, w, h),
        seen.1,
        "tiles after turn {}",
        seen.0
    );
    let mut want = seen.2.clone();
    want.sort_by_key(|&(x, y)| (y, x));
    want.dedup();
    assert_eq!(
        canvas_players(page, w, h),
        want,
        "players after turn {}",
        seen.0
    );
}

/// A royale game over before its first turn (a board holding one sign)
/// says so where a turn's action goes, with no order of play and no chart
/// of tile counts over turns it does not have.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_royale_game_over_before_any_turn_says_so_without_a_chart() {
    let Some(chrome) =
        browser_or_skip("a_royale_game_over_before_any_turn_says_so_without_a_chart")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("won.html");
    let bot = "royale-random-py";
    stdout_ok(
        dojo()
            .args([
                "match",
                "royale",
                "--board",
                "boards/won.txt",
                "--seed",
                "1",
            ])
            .args(["--rock", bot, "--paper", bot, "--scissors", bot])
            .arg("--html")
            .arg(&html),
    );
    let page = Opened::open_until(&chrome, &html, "#action");
    assert_eq!(page.turn(), 0);
    assert_eq!(
        page.text("#action"),
        "No turn was played: the game was over before the first."
    );
    let text = page.text("main");
    assert!(!text.contains("Tiles per team"), "{text}");
    assert!(page.text("#result").contains("before any turn"));
    page.assert_clean();
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn royale_replay_shows_the_engines_board_and_steps_with_the_keys() {
    let Some(chrome) =
        browser_or_skip("royale_replay_shows_the_engines_board_and_steps_with_the_keys")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let checks = [0, 1, 2, 37, 120, 121];
    let (mut rec, seen) = royale_game("boards/arena.txt", 121, &checks);
    // Each seat's stderr, per prompt (its how-manieth turn).
    rec.stderr = (0..3)
        .map(|s| {
            let turns = rec.play.actions.iter().filter(|a| a.seat == s).count();
            (0..turns)
                .map(|i| format!("seat {s} prompt {i} </script>"))
                .collect()
        })
        .collect();
    let page = Opened::open(&chrome, &replay_page(dir.path(), "arena", &rec));
    let (w, h) = (12, 8);

    // The page opens before any turn; Right steps, End and Home jump.
    assert_eq!(page.turn(), 0);
    assert_board(&page, &seen[0], w, h);
    // Seats are shown 1-based, as `DOJO_SEAT` gives them (the record's
    // seat 0 is seat 1).
    let order: Vec<String> = (rec.play.turn_order.iter())
        .map(|s| (s + 1).to_string())
        .collect();
    let before = page.text("#action");
    assert!(
        before.contains(&format!("Seats play in the order {} ", order.join(", "))),
        "{before}"
    );
    page.key("ArrowRight");
    assert_eq!(page.turn(), 1);
    assert_board(&page, &seen[1], w, h);
    let first = rec.play.actions[0].seat;
    let action = page.text("#action");
    assert!(
        action.starts_with(&format!("seat {} · ", first + 1)),
        "{action}"
    );
    page.key("ArrowRight");
    page.key("ArrowLeft");
    page.key("ArrowRight");
    assert_eq!(page.turn(), 2);
    // The stderr shown is that of turn 2's seat, for its own prompt.
    let second = rec.play.actions[1].seat;
    let earlier = rec.play.actions[..1]
        .iter()
        .filter(|a| a.seat == second)
        .count();
    let text = page.text("main");
    assert!(
        text.contains(&format!("seat {second} prompt {earlier} </script>")),
        "{text}"
    );
    assert!(
        text.contains(&format!("stderr of seat {} this turn", second + 1)),
        "{text}"
    );
    assert_board(&page, &seen[2], w, h);
    page.key("End");
    assert_eq!(page.turn(), 121);
    assert_board(&page, &seen[5], w, h);
    // Back one turn at a time undoes exactly one turn.
    page.key("ArrowLeft");
    assert_eq!(page.turn(), 120);
    assert_board(&page, &seen[4], w, h);
    page.key("Home");
    assert_eq!(page.turn(), 0);
    assert_board(&page, &seen[0], w, h);
    // Jump through the turn box.
    page.eval("(() => { const i = document.querySelector('input[type=number]'); i.value = 37; i.dispatchEvent(new Event('change')); })()");
    assert_eq!(page.turn(), 37);
    assert_board(&page, &seen[3], w, h);
    // Space plays: the turn moves on by itself.
    page.key(" ");
    let before = page.turn();
    page.eval("new Promise(r => setTimeout(r, 400))");
    let waited = page.tab.evaluate("new Promise(r => setTimeout(() => r(Number(document.getElementById('turn').dataset.turn)), 600))", true).unwrap();
    let after = waited.value.and_then(|v| v.as_u64()).unwrap();
    assert!(
        after > before,
        "playing did not advance ({before} -> {after})"
    );

    // Every fault is listed, with its kind: the bots' faults, which the
    // standings count, apart from the illegal moves, which they do not.
    let count = |illegal: bool| {
        rec.play
            .actions
            .iter()
            .filter(|a| {
                a.fault
                    .is_some_and(|f| (f == TurnFault::Illegal) == illegal)
            })
            .count()
    };
    let (faults, illegal) = (count(false), count(true));
    assert!(faults >= 4, "the test game has faults");
    assert!(illegal >= 1, "the test game has illegal moves");
    let items = page.eval("document.querySelectorAll('#faults li').length");
    assert_eq!(items.as_u64().unwrap() as usize, faults);
    assert_eq!(page.text("#faults-title"), format!("Faults ({faults})"));
    assert!(page.text("#faults").contains("timeout"));
    assert!(!page.text("#faults").contains("illegal"));
    let items = page.eval("document.querySelectorAll('#illegal li').length");
    assert_eq!(items.as_u64().unwrap() as usize, illegal);
    assert_eq!(
        page.text("#illegal-title"),
        format!("Illegal moves ({illegal})")
    );
    assert!(page.text("#result").contains("Draw") || page.text("#result").contains("wins"));
    page.assert_clean();
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_large_royale_board_replays_to_the_engines_board() {
    let Some(chrome) = browser_or_skip("a_large_royale_board_replays_to_the_engines_board") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let turns = 3 * 1_840;
    let (rec, seen) = royale_game("boards/large.txt", turns, &[turns / 2, turns]);
    assert_eq!(rec.play.actions.len(), turns);
    let page = Opened::open(&chrome, &replay_page(dir.path(), "large", &rec));
    page.key("End");
    assert_eq!(page.turn(), turns as u64);
    assert_board(&page, &seen[1], 120, 64);
    // Stepping back from the end one turn at a time, as far as the middle.
    page.eval(&format!(
        "(() => {{ for (let i = 0; i < {}; i++) document.dispatchEvent(new KeyboardEvent('keydown', {{ key: 'ArrowLeft' }})); }})()",
        turns / 2
    ));
    assert_eq!(page.turn(), (turns / 2) as u64);
    assert_board(&page, &seen[0], 120, 64);
    page.assert_clean();
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn cardjitsu_replay_shows_the_winning_triple() {
    let Some(chrome) = browser_or_skip("cardjitsu_replay_shows_the_winning_triple") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut game = CardJitsu::new(21, cardjitsu::Settings::default());
    let mut rng = Lcg(9);
    while game.outcome().is_none() {
        game.play([rng.next(5) as usize, rng.next(5) as usize]);
    }
    let play = game.into_record();
    let outcome = play.outcome.clone().unwrap();
    let triple = outcome.winning_cards.expect("this seed ends in a triple");
    let rounds = play.rounds.len();
    let rec = CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats: vec![
            // A built bot's command: a long path with no space to wrap at.
            SeatInfo {
                command: vec!["/home/someone/.cache/dojo/build/walk-7c1e0ef90dea49efecc4b/alpha/target/release/alpha".into()],
                ..seat(0, "alpha", None)
            },
            seat(1, "beta", None),
        ],
        decks: dojo_games::cardjitsu::decks::default_names(Default::default()),
        draws: [dojo_engine::cardjitsu::Draw::WithoutReplacement; 2],
        play,
        conduct: conduct(2),
        stderr: vec![
            vec!["thinking </script> hard".into(); rounds],
            vec![String::new(); rounds],
        ],
        timing: Timing::default(),
    };
    let page = Opened::open(&chrome, &replay_page(dir.path(), "cj", &rec));
    // The page opens on the last round, with the triple outlined in the
    // winner's pile, in pile order.
    assert_eq!(page.turn(), rounds as u64);
    let winner = outcome.winner.unwrap();
    let shown = page.eval(&format!(
        "[...document.querySelectorAll('#pile{winner} .card.win')].map(c => c.dataset.code)"
    ));
    let mut shown: Vec<String> = serde_json::from_value(shown).unwrap();
    let mut want: Vec<String> = triple.iter().map(|c| c.to_string()).collect();
    let in_order: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#triple .card')].map(c => c.dataset.code)"),
    )
    .unwrap();
    assert_eq!(in_order, want);
    shown.sort();
    want.sort();
    assert_eq!(shown, want);
    let loser = 3 - winner;
    assert_eq!(
        page.eval(&format!(
            "document.querySelectorAll('#pile{loser} .card.win').length"
        )),
        0
    );
    assert!(page.text("#result").contains(&format!("Player {winner} (")));
    // The stderr of the round is shown as text (the `</script>` in it did
    // not end the data block).
    assert!(page.text("main").contains("thinking </script> hard"));
    // Home goes to round 1; the played cards and hands are that round's.
    page.key("Home");
    assert_eq!(page.turn(), 1);
    let chosen: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#round .card.chosen')].map(c => c.dataset.code)"),
    )
    .unwrap();
    let first = &rec.play.rounds[0];
    assert_eq!(chosen, first.cards.map(|c| c.to_string()));
    page.key("ArrowRight");
    assert_eq!(page.turn(), 2.min(rounds as u64));
    page.assert_clean();
    // On a phone the seats' commands wrap rather than run off the screen.
    page.on_a_phone();
    page.assert_no_sideways_scroll("a cardjitsu replay");
    if let Some(out) = std::env::var_os("DOJO_SCREENSHOTS") {
        page.key("End");
        page.screenshot(&Path::new(&out).join("replay-cardjitsu.png"));
    }
}

/// The answer-time chart of a CardJitsu replay numbers rounds from 1, as
/// the page does; marks each start-up answer (a restarted process's first
/// too); and, in a game with a move timeout, draws the move limit where
/// the timed-out answer gave up.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_cardjitsu_replays_time_chart_numbers_rounds_marks_start_ups_and_the_limit() {
    let Some(chrome) = browser_or_skip(
        "a_cardjitsu_replays_time_chart_numbers_rounds_marks_start_ups_and_the_limit",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut game = CardJitsu::new(21, cardjitsu::Settings::default());
    let mut rng = Lcg(9);
    while game.outcome().is_none() {
        game.play([rng.next(5) as usize, rng.next(5) as usize]);
    }
    let play = game.into_record();
    let rounds = play.rounds.len();
    assert!(rounds >= 4, "{rounds} rounds");
    let rec = CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats: vec![seat(0, "alpha", None), seat(1, "beta", None)],
        decks: dojo_games::cardjitsu::decks::default_names(Default::default()),
        draws: [dojo_engine::cardjitsu::Draw::WithoutReplacement; 2],
        play,
        conduct: conduct(2),
        stderr: Vec::new(),
        timing: Timing {
            latency_us: vec![vec![2_000; rounds], vec![3_000; rounds]],
            ..Timing::default()
        },
    };
    let page_file = replay_page(dir.path(), "cj", &rec);
    // Beta times out in round 3 (at its 250 ms limit), is restarted, and
    // answers round 4 with the start-up allowance.
    edit_page_data(&page_file, |data| {
        let record = &mut data["record"];
        record["rounds"][2]["faults"][1] = "timeout".into();
        record["timing"]["latency_us"][1][2] = 250_000.into();
        record["timing"]["latency_us"][1][3] = 400_000.into();
        record["timing"]["startup_answers"] = serde_json::json!([[0], [0, 3]]);
    });
    let page = Opened::open_until(&chrome, &page_file, "svg.chart");
    let chart = page.eval(
        "(() => { const svg = [...document.querySelectorAll('svg.chart')].pop();
            return { texts: [...svg.querySelectorAll('text')].map((t) => t.textContent),
                     marks: [...svg.querySelectorAll('path title')].map((t) => t.textContent) }; })()",
    );
    let texts: Vec<String> = serde_json::from_value(chart["texts"].clone()).unwrap();
    assert!(texts.contains(&"round 1".to_owned()), "{chart}");
    assert!(!texts.iter().any(|t| t == "round 0"), "{chart}");
    assert!(texts.contains(&format!("round {rounds}")), "{chart}");
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("move limit (a timeout at 250")),
        "{chart}"
    );
    let marks: Vec<String> = serde_json::from_value(chart["marks"].clone()).unwrap();
    assert!(
        marks
            .iter()
            .any(|m| m.starts_with("player 2, round 4: a start-up answer")),
        "{chart}"
    );
    assert_eq!(
        marks
            .iter()
            .filter(|m| m.contains("start-up answer"))
            .count(),
        3,
        "{chart}"
    );
    page.assert_clean();
    page.eval("[...document.querySelectorAll('svg.chart')].pop().scrollIntoView(), 0");
    page.screenshot_if_asked("replay-cardjitsu-times.png");
}

/// A CardJitsu league of the testkit's folder of submissions (good and
/// broken entries) under `dir`, two games a pairing: its directory and
/// page, as [`league_page`].
fn folder_league_page(dir: &Path) -> (PathBuf, PathBuf) {
    let folder = dir.join("submissions");
    dojo_testkit::submissions::write_folder(&folder);
    let folder = folder.display().to_string();
    league_page(
        dir,
        &[
            "cardjitsu",
            "--bots-dir",
            &folder,
            "--games",
            "2",
            // No good entry may fail its smoke start on a loaded machine.
            "--startup-ms",
            "20000",
        ],
    )
}

/// Runs `dojo league ARGS` into `dir/league` with its report page; the
/// out directory and the page.
fn league_page(dir: &Path, args: &[&str]) -> (PathBuf, PathBuf) {
    let out = dir.join("league");
    let page_file = dir.join("report.html");
    stdout_ok(
        dojo()
            .arg("league")
            .args(dojo_testkit::cli::seeded_unless_given(args))
            .args(args)
            .arg("--out")
            .arg(&out)
            .arg("--html")
            .arg(&page_file),
    );
    (out, page_file)
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn league_report_shows_every_bot_with_its_interval_and_opens_replays() {
    let Some(chrome) =
        browser_or_skip("league_report_shows_every_bot_with_its_interval_and_opens_replays")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "random-py",
            "random-sh",
            "sensei",
            "--games",
            "2",
        ],
    );
    let report = read_json(&out.join("report.json"));
    let page = Opened::open_until(&chrome, &page_file, "#standings");
    // A round robin has no stop rule to show.
    assert_eq!(page.eval("document.getElementById('sprt') === null"), true);
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    for s in standings {
        let name = s["name"].as_str().unwrap();
        let row = page.eval(&format!(
            "(() => {{ const r = document.querySelector('#standings tr[data-bot=\"{name}\"]');
                 return r && {{ interval: r.querySelector('.interval').textContent,
                               bar: r.querySelector('.bar .rng').style.width }}; }})()"
        ));
        assert!(!row.is_null(), "no standings row for {name}");
        let lo = s["rating_lo"].as_f64().unwrap().round();
        let hi = s["rating_hi"].as_f64().unwrap().round();
        assert_eq!(row["interval"], format!("{lo} – {hi}"), "{name}");
        assert!(
            row["bar"].as_str().unwrap().starts_with("calc("),
            "{name}: {row}"
        );
    }
    // Every game is listed; the bot filter keeps only that bot's games.
    let games = report["games_played"].as_u64().unwrap();
    assert_eq!(
        page.eval("document.querySelectorAll('#games tbody tr').length")
            .as_u64(),
        Some(games)
    );
    page.eval("(() => { const s = document.getElementById('filter-bot'); s.value = 'sensei'; s.dispatchEvent(new Event('change')); })()");
    let rows: Vec<String> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('#games tbody tr')].map(r => r.children[1].textContent)",
    ))
    .unwrap();
    assert_eq!(rows.len() as u64, games * 2 / 3);
    assert!(rows.iter().all(|r| r.contains("sensei")), "{rows:?}");
    page.assert_clean();

    // A game's link opens its replay in the page; the triple is the record's.
    let line = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let first: Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let id = first["id"].as_u64().unwrap();
    page.eval(&format!("(() => {{ location.hash = '#game-{id}'; }})()"));
    page.tab.wait_for_element("#replay-view #result").unwrap();
    let triple: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#triple .card')].map(c => c.dataset.code)"),
    )
    .unwrap();
    let want: Vec<String> =
        serde_json::from_value(first["record"]["outcome"]["winning_cards"].clone()).unwrap();
    assert_eq!(triple, want);
    assert!(
        page.eval("document.getElementById('report').hidden")
            .as_bool()
            .unwrap()
    );
    page.key("Home");
    assert_eq!(page.turn(), 1);
    page.eval("(() => { location.hash = ''; })()");
    page.eval("new Promise(r => setTimeout(r, 50))");
    assert!(
        !page
            .eval("document.getElementById('report').hidden")
            .as_bool()
            .unwrap()
    );
    page.assert_clean();
    // On a phone the standings (nine columns) scroll in their own box.
    page.on_a_phone();
    page.assert_no_sideways_scroll("the league report");
    page.screenshot_if_asked("report.png");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn compare_page_shows_the_llr_bounds_and_pentanomial_counts() {
    let Some(chrome) = browser_or_skip("compare_page_shows_the_llr_bounds_and_pentanomial_counts")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let html = dir.path().join("compare.html");
    // 4 pairs end inconclusive (exit status 2); the page is written anyway.
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "8",
            "--json",
        ])
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(html.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = read_json(&json);
    let page = Opened::open(&chrome, &html);
    assert_eq!(
        page.text("#llr"),
        format!("{:.3}", report["llr"].as_f64().unwrap())
    );
    let counts: Vec<u64> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('#outcomes [data-count]')].map(d => Number(d.dataset.count))",
    ))
    .unwrap();
    let want: Vec<u64> = serde_json::from_value(report["outcomes"]["counts"].clone()).unwrap();
    assert_eq!(want.len(), 5, "pairs: the pentanomial counts");
    assert_eq!(counts, want);
    let lower = format!(
        "accept H0 ({:.2})",
        report["bounds"]["lower"].as_f64().unwrap()
    );
    assert!(page.text("main").contains(&lower), "no {lower}");
    let verdict = page.text("#verdict");
    assert_eq!(verdict, "Inconclusive", "{verdict}");
    assert_round_ticks(&page, "#llr-chart");
    let elo = assert_round_ticks(&page, "#elo-chart");
    assert_shows_every_interval(&page, &elo, &report);
    page.assert_clean();
}

/// The compare page words the verdict, the next step, the sample's note
/// and the nondeterminism note as the text summary does (its headline said
/// "H1 accepted: the data favour elo1 over elo0", its note "every block had
/// the same total" where the text said "every pair had the same result",
/// and it showed no nondeterminism note), and its Bots table labels every
/// column (the faults' had none).
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn compare_page_says_what_the_text_says() {
    let Some(chrome) = browser_or_skip("compare_page_says_what_the_text_says") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("compare.html");
    let new = dojo_testkit::bots::forgetful(dir.path());
    let out = dojo()
        .args(["compare", "cardjitsu", &new, "random-py", "--games", "2"])
        .args(["--jobs", "1", "--sandbox", "off"])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let line = |start: &str| {
        (stdout.lines())
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in:\n{stdout}"))
            .to_owned()
    };
    let page = Opened::open(&chrome, &html);
    let claim = page.text("#claim");
    assert_eq!(format!("verdict: inconclusive: {claim}"), line("verdict: "));
    assert_eq!(page.text("#next"), line("next: "));
    assert_eq!(
        page.text("#note"),
        format!("Note: {}.", &line("note: the sample")["note: ".len()..])
    );
    assert_eq!(
        page.text("#nondeterministic"),
        format!(
            "Note: {}",
            &line("note: NEW is not deterministic")["note: ".len()..]
        )
    );
    let heads = page.eval("[...document.querySelectorAll('#bots th')].map(t => t.textContent)");
    assert_eq!(
        heads,
        serde_json::json!(["Role", "Bot", "Command", "Faults"])
    );
    page.assert_clean();
    page.screenshot_if_asked("compare-words.png");
}

/// A comparison whose NEW faulted gives on its page, as in its text, the
/// game of NEW's first fault and the `dojo match` command that plays it
/// (the page had the command nowhere).
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn compare_page_gives_the_command_that_plays_a_faulty_game_again() {
    let Some(chrome) =
        browser_or_skip("compare_page_gives_the_command_that_plays_a_faulty_game_again")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("compare.html");
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "crashy=python3 bots/faulty/crash_midgame.py",
            "random-py",
            "--games",
            "4",
            "--jobs",
            "1",
        ])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let said = (stdout.lines())
        .find(|l| l.trim_start().starts_with("dojo match "))
        .unwrap_or_else(|| panic!("no command in:\n{stdout}"))
        .trim();
    let page = Opened::open(&chrome, &html);
    assert_eq!(
        page.text("#first-faults .first-fault[data-role=new] code"),
        said
    );
    page.assert_clean();
    page.screenshot_if_asked("compare-first-faults.png");
}

/// The labels of a chart clear what is drawn: a comparison's Elo chart
/// has its elo0 and elo1 labels in the margin (its estimate line often
/// ends on those lines), and the label of the furthest cut interval
/// stands past the other arrows close to it (they covered `+758.7`).
/// Drawn with the page's own chart code, on data shaped like those.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_charts_labels_clear_its_line_and_its_arrows() {
    let Some(chrome) = browser_or_skip("a_charts_labels_clear_its_line_and_its_arrows") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("compare.html");
    let out = dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "2",
        ])
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(html.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = Opened::open(&chrome, &html);
    // The chart as the compare page draws it: an estimate ending about
    // elo1 (0) and elo0 (-10), crossing where their labels stood, and the
    // first runs of cut intervals a few pairs apart, the furthest
    // labelled.
    let seen = page.eval(
        "(() => {
           const xs = [...Array(101).keys()];
           const el = lineChart({
             series: [{ name: 'estimate', colour: '#3d5a80', xs, ys: xs.map((x) => (x < 3 ? 150 : x < 96 ? 10 : -25)) }],
             clips: [{ x: 0, above: true, label: '+758.7' }, { x: 1, above: true }, { x: 2, above: true },
                     { x: 0, above: false, label: '-365.2' }, { x: 2, above: false }],
             xMax: 100, yMin: -200, yMax: 200, width: 720, height: 240, labelsOutside: true,
             hlines: [{ y: 0, colour: '#2f7d5b', label: 'elo1 0' }, { y: -10, colour: '#c0392b', label: 'elo0 -10', below: true }],
           });
           document.getElementById('app').append(el);
           const box = (e) => { const b = e.getBBox(); return { x0: b.x, x1: b.x + b.width, y0: b.y, y1: b.y + b.height }; };
           const hit = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
           const line = el.querySelector('polyline').getAttribute('points').trim().split(' ').map((p) => p.split(',').map(Number));
           const onLine = (b) => line.some(([x, y], i) => {
             const [x2, y2] = line[Math.min(i + 1, line.length - 1)];
             for (let t = 0; t <= 1; t += 0.05) { const px = x + (x2 - x) * t, py = y + (y2 - y) * t;
               if (px > b.x0 && px < b.x1 && py > b.y0 && py < b.y1) return true; }
             return false; });
           const arrows = [...el.querySelectorAll('.clip path')].map(box);
           const labels = [...el.querySelectorAll('text')].filter((t) => !t.classList.contains('tick')
               && !/pairs?$|^[0-9,]+$/.test(t.textContent)).map((t) => ({ text: t.textContent, b: box(t) }));
           return labels.map((l) => ({ text: l.text, on_line: onLine(l.b), on_arrow: arrows.some((a) => hit(a, l.b)),
               on_label: labels.some((m) => m !== l && hit(m.b, l.b)) }));
         })()",
    );
    let labels = seen.as_array().unwrap();
    let texts: Vec<&str> = labels.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        ["elo1 0", "elo0 -10", "+758.7", "-365.2"],
        "{seen:#}"
    );
    for l in labels {
        assert_eq!(
            (&l["on_line"], &l["on_arrow"], &l["on_label"]),
            (
                &Value::Bool(false),
                &Value::Bool(false),
                &Value::Bool(false)
            ),
            "a label covers or is covered: {l}"
        );
    }
    page.assert_clean();
}

/// A broken comparison's page says why: the broken bot's first crash and
/// its stderr up to it, in a panel; and one pair is "1 pair" (it was
/// "1 pairs" on the axes and in the heading).
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_broken_comparisons_page_shows_the_bots_first_crash() {
    let Some(chrome) = browser_or_skip("a_broken_comparisons_page_shows_the_bots_first_crash")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("compare.html");
    // By its whole path, as a new user names a bot elsewhere: a long
    // command beside a long faults text.
    let bot = root().join("bots/faulty/crash_half.py");
    let out = dojo()
        .args(["compare", "cardjitsu"])
        .arg(format!("half=python3 {}", bot.display()))
        .args(["random-py", "--games", "2"])
        .args(dojo_testkit::cli::GENEROUS)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = Opened::open(&chrome, &html);
    let panel = page.text("#broken-fault");
    assert!(panel.contains("first crash, game"), "{panel}");
    assert!(panel.contains("crash_half: giving up"), "{panel}");
    let text = page.text("main");
    assert!(text.contains("in 1 seat-swapped pair "), "{text}");
    assert!(
        text.contains("1 pair") && !text.contains("1 pairs"),
        "{text}"
    );
    page.assert_clean();
    page.on_a_phone();
    page.assert_no_sideways_scroll("a broken comparison's page");
}

/// The value axis labels of the chart `chart`: round numbers evenly
/// spaced (1, 2 or 5 times a power of ten), zero among them as "0" (not
/// the "0.00" or "0.01" of a range's middle); their values.
fn assert_round_ticks(page: &Opened, chart: &str) -> Vec<f64> {
    let labels: Vec<String> = serde_json::from_value(page.eval(&format!(
        "[...document.querySelectorAll('{chart} text.tick')].map(t => t.textContent)"
    )))
    .unwrap();
    assert!(labels.len() >= 3, "{chart}: ticks {labels:?}");
    assert!(
        labels.iter().any(|l| l == "0"),
        "{chart}: no 0 in {labels:?}"
    );
    let values: Vec<f64> = labels.iter().map(|l| l.parse().unwrap()).collect();
    let step = values[1] - values[0];
    let mantissa = step.abs() / 10f64.powf(step.abs().log10().floor());
    assert!(
        [1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-9),
        "{chart}: step {step} in {labels:?}"
    );
    for pair in values.windows(2) {
        assert!(
            ((pair[1] - pair[0]) - step).abs() < 1e-9,
            "{chart}: {labels:?}"
        );
    }
    let mut values = values;
    values.sort_by(f64::total_cmp);
    values
}

/// Each interval of the Elo trace lies within the chart's axis (its
/// lowest and highest ticks), or the page says it is cut and prints the
/// furthest bound on that side.
fn assert_shows_every_interval(page: &Opened, ticks: &[f64], report: &Value) {
    let (min, max) = (ticks[0], ticks[ticks.len() - 1]);
    let note = page.eval("document.getElementById('elo-clipped')?.textContent ?? ''");
    let note = note.as_str().unwrap();
    let elo = |t: &Value, end: &str| t["elo"][end].as_f64().unwrap();
    let trace = report["trace"].as_array().unwrap();
    // The JSON's number to one decimal, as the page prints it.
    let shown = |v: f64| format!("{:+.1}", (v * 10.0).round() / 10.0);
    if let Some(top) = trace
        .iter()
        .map(|t| elo(t, "hi"))
        .filter(|v| *v > max)
        .reduce(f64::max)
    {
        assert!(
            note.contains(&format!("up to {}", shown(top))),
            "{max}: {note:?}"
        );
    }
    if let Some(bottom) = trace
        .iter()
        .map(|t| elo(t, "lo"))
        .filter(|v| *v < min)
        .reduce(f64::min)
    {
        assert!(
            note.contains(&format!("down to {}", shown(bottom))),
            "{min}: {note:?}"
        );
    }
}

/// The two head-to-head cells of a pair show whole percentages that add
/// up to 100, where rounding each on its own would not: random-sh scores
/// 32.5% against sensei over these 40 games at seed 3 (33% and 68%
/// before). The seed is chosen for that share: a change to either bot's
/// play may need another (the test first checks the share is a half).
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn league_head_to_head_cells_of_a_pair_add_up_to_100() {
    let Some(chrome) = browser_or_skip("league_head_to_head_cells_of_a_pair_add_up_to_100") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "random-sh",
            "sensei",
            "--games",
            "40",
            "--seed",
            "3",
        ],
    );
    let report = read_json(&out.join("report.json"));
    let pair = &report["pairs"][0];
    let a_pct = pair["score_a_pct"].as_f64().unwrap();
    assert_eq!(
        a_pct.fract().abs(),
        0.5,
        "the report keeps the exact share: {pair}"
    );
    let page = Opened::open_until(&chrome, &page_file, "#heat");
    // The cell of (row, column) by the table's header row.
    let cell = |row: &str, col: &str| -> String {
        page.eval(&format!(
            "(() => {{ const t = document.getElementById('heat');
                 const cols = [...t.rows[0].cells].map(c => c.textContent);
                 const r = [...t.rows].find(r => r.cells[0].textContent === {row:?});
                 return r.cells[cols.indexOf({col:?})].textContent; }})()"
        ))
        .as_str()
        .unwrap()
        .to_owned()
    };
    let (a, b) = (pair["a"].as_str().unwrap(), pair["b"].as_str().unwrap());
    let percent = |text: String| -> u32 { text.strip_suffix('%').unwrap().parse().unwrap() };
    let (ab, ba) = (percent(cell(a, b)), percent(cell(b, a)));
    assert_eq!(ab + ba, 100, "{a} vs {b}: {ab}% and {ba}%");
    assert!((f64::from(ab) - a_pct).abs() <= 0.5, "{ab}% for {a_pct}%");
    page.assert_clean();
}

/// The checks above can fail: a page that logs an error and loads an image
/// (from a closed port on this machine) is caught by both.
/// A league of 16 bots (copies of random-sh under other names): the head
/// to head gets the page's width and shows every column without a
/// scrollbar, the rating lines never share a colour (the leaders keep one
/// each, the others are grey, the picker brings one out), the limits that
/// no bot changes are one line, and the faults are spelled out. The names
/// are long and alike but for their ends, as in a class's league: every
/// column and every move-times row still says which bot it is.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_many_bot_leagues_page_shows_every_column_and_tells_the_lines_apart() {
    let Some(chrome) =
        browser_or_skip("a_many_bot_leagues_page_shows_every_column_and_tells_the_lines_apart")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    let names: Vec<String> = (0..16)
        .map(|i| format!("contestant-with-a-long-name-{i:02}"))
        .collect();
    for name in &names {
        let d = bots.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(root().join("bots/random-sh/bot.sh"), d.join("bot.sh")).unwrap();
        std::fs::write(
            d.join("bot.toml"),
            format!("name = \"{name}\"\ncommand = \"sh bot.sh\"\ngames = [\"cardjitsu\"]\n"),
        )
        .unwrap();
    }
    let out = dir.path().join("league");
    let page_file = dir.path().join("report.html");
    stdout_ok(
        dojo()
            .arg("--bots-dir")
            .arg(&bots)
            .args(["league", "cardjitsu", "--games", "2", "--out"])
            .arg(&out)
            .arg("--html")
            .arg(&page_file),
    );
    let page = Opened::open_until(&chrome, &page_file, "#heat");
    // As wide as the standings, every column inside it.
    let layout = page.eval(
        "(() => { const p = document.getElementById('head-to-head'), t = document.getElementById('heat');
             return { panel: p.getBoundingClientRect().width,
                      standings: document.querySelector('.panel.stand').getBoundingClientRect().width,
                      table: t.getBoundingClientRect().right, inside: p.getBoundingClientRect().right,
                      columns: t.rows[0].cells.length - 1, in_row: !!p.closest('.row') }; })()",
    );
    assert_eq!(layout["columns"], 16, "{layout}");
    assert_eq!(layout["in_row"], false, "{layout}");
    let f = |k: &str| layout[k].as_f64().unwrap();
    assert!((f("panel") - f("standings")).abs() < 1.0, "{layout}");
    assert!(f("table") <= f("inside"), "the table overflows: {layout}");
    // Each column's label is whole in its header (cut in the middle where
    // it must be, the ends that tell the bots apart kept), the full name
    // its tooltip; no two labels alike.
    let heads = page.eval(
        "[...document.querySelectorAll('#heat th.col')].map(t =>
             ({ title: t.title, label: t.textContent, fits: t.scrollHeight <= t.clientHeight + 1 }))",
    );
    let heads = heads.as_array().unwrap();
    let mut titles: Vec<&str> = heads.iter().map(|t| t["title"].as_str().unwrap()).collect();
    titles.sort();
    assert_eq!(titles, names, "the headers' tooltips: {heads:?}");
    let labels: std::collections::BTreeSet<&str> =
        heads.iter().map(|t| t["label"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), names.len(), "alike labels: {heads:?}");
    for t in heads {
        assert_eq!(t["fits"], true, "a label cut by its header: {t}");
    }
    // The move-times rows: each name inside the chart (not cut on the
    // left), told apart, whole in the row's tooltip.
    let rows = page.eval(
        "[...document.querySelectorAll('#move-times .move-row')].map(g => { const t = g.querySelector('text');
             return { bot: g.dataset.bot, label: t.textContent, left: t.getBBox().x, tip: g.querySelector('title').textContent }; })",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), names.len(), "{rows:?}");
    let labels: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), names.len(), "alike labels: {rows:?}");
    for r in rows {
        assert!(r["left"].as_f64().unwrap() >= 0.0, "cut on the left: {r}");
        let bot = r["bot"].as_str().unwrap();
        assert!(
            r["tip"].as_str().unwrap().starts_with(&format!("{bot}: ")),
            "{r}"
        );
    }
    // Every coloured line has a colour of its own; the rest are grey.
    let strokes: Vec<String> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('#rating-history polyline')].map(l => l.getAttribute('stroke'))",
    ))
    .unwrap();
    assert_eq!(strokes.len(), 16);
    let mut counts = std::collections::BTreeMap::new();
    for s in &strokes {
        *counts.entry(s.as_str()).or_insert(0) += 1;
    }
    let (grey, coloured): (Vec<_>, Vec<_>) = counts.iter().partition(|(_, n)| **n > 1);
    assert_eq!(grey.len(), 1, "one grey for the others: {counts:?}");
    assert_eq!(coloured.len(), 8, "the leaders' colours: {counts:?}");
    // The picker brings out any bot's line, drawn last and bold.
    let last = names.last().unwrap();
    page.eval(&format!(
        "(() => {{ const s = document.getElementById('history-pick'); s.value = {last:?}; s.dispatchEvent(new Event('change')); }})()"
    ));
    let picked = page.eval(
        "(() => { const l = [...document.querySelectorAll('#rating-history polyline')].pop();
             return [l.textContent, l.getAttribute('stroke-width')]; })()",
    );
    assert_eq!(picked, serde_json::json!([last, "3"]));
    // No bot changes a limit: one line, not 16 equal rows.
    assert_eq!(
        page.eval("document.getElementById('bot-limits') === null"),
        true
    );
    let every = page.text("#bot-limits-all");
    assert!(every.starts_with("every bot: memory "), "{every}");
    assert!(every.contains("move 1,000 ms"), "{every}");
    // Faults spelled out.
    let faults =
        page.eval("[...document.querySelectorAll('#standings td.faults')].map(e => e.textContent)");
    assert_eq!(faults, serde_json::json!(vec!["none"; 16]));
    page.assert_clean();
    page.on_a_phone();
    page.assert_no_sideways_scroll("a 16-bot league's report");
    page.screenshot_if_asked("report-many-bots.png");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn the_harness_sees_console_errors_and_requests() {
    let Some(chrome) = browser_or_skip("the_harness_sees_console_errors_and_requests") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.html");
    std::fs::write(
        &file,
        "<!doctype html><img src=\"http://127.0.0.1:9/none.png\"><div id=\"result\"></div>\
         <script>console.error('boom')</script>",
    )
    .unwrap();
    let page = Opened::open(&chrome, &file);
    page.eval("new Promise(r => setTimeout(r, 200))");
    assert!(
        page.errors
            .lock()
            .unwrap()
            .iter()
            .any(|e| e.contains("boom")),
        "{:?}",
        page.errors.lock().unwrap()
    );
    assert!(
        page.requests
            .lock()
            .unwrap()
            .iter()
            .any(|u| u.contains("127.0.0.1:9")),
        "{:?}",
        page.requests.lock().unwrap()
    );
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn league_report_shows_time_controls_each_bots_limits_and_the_limits_hit() {
    let Some(chrome) =
        browser_or_skip("league_report_shows_time_controls_each_bots_limits_and_the_limits_hit")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // random-py with values of its own.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::copy(root().join("bots/random-py/bot.py"), mine.join("bot.py")).unwrap();
    std::fs::write(
        mine.join("bot.toml"),
        "name = \"mine\"\ncommand = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n\
         [time]\ntimeout_ms = 1500\n[limits]\nmemory_mib = 2048\n",
    )
    .unwrap();
    let out = dir.path().join("league");
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu", "random-sh", "--games", "2", "--out"])
            .arg(&out)
            .arg(&mine),
    );
    // Mark a memory limit hit of `mine` in the first stored game, as the
    // runner would have recorded it (a real hit needs a memory cgroup).
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut lines: Vec<Value> = games
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seat = lines[0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s == "mine")
        .unwrap();
    lines[0]["faults"][seat]["limit"] = 1.into();
    lines[0]["faults"][seat]["limits_hit"] = serde_json::json!({"memory": 1});
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(out.join("games.jsonl"), text).unwrap();
    let page_file = dir.path().join("report.html");
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page_file));
    let page = Opened::open_until(&chrome, &page_file, "#bot-limits");
    let faults = page
        .eval("document.querySelector('#standings tr[data-bot=\"mine\"]').lastChild.textContent");
    assert_eq!(faults, "1 limit");
    let hit = page
        .eval("[...document.querySelectorAll('.limits-hit')].map(e => e.textContent).join('|')");
    assert!(hit.as_str().unwrap().contains("limits: memory 1"), "{hit}");
    // The bot's own values are marked, the other bot's are the league's.
    let own = |bot: &str| {
        page.eval(&format!(
            "[...document.querySelectorAll('#bot-limits tr[data-bot=\"{bot}\"] td.own')].map(e => e.textContent)"
        ))
    };
    assert_eq!(
        own("mine"),
        serde_json::json!(["2,048 MiB ✱", "1,500 ms ✱"])
    );
    assert_eq!(own("random-sh"), serde_json::json!([]));
    let conditions = page.eval("document.getElementById('conditions').textContent");
    let conditions = conditions.as_str().unwrap();
    for shown in [
        "wall-clock time",
        "per move1,000 ms",
        "pinningoff",
        "--sandbox auto",
    ] {
        assert!(conditions.contains(shown), "{shown:?} not in {conditions}");
    }
    page.assert_clean();
    page.screenshot_if_asked("report-conditions.png");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn gauntlet_report_shows_each_opponents_sprt_verdict() {
    let Some(chrome) = browser_or_skip("gauntlet_report_shows_each_opponents_sprt_verdict") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // NEW is a random bot: sensei beats it within a few pairs (H0), on the
    // standard deck its model is made for.
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "sensei",
            "random-sh",
            "--gauntlet",
            "random-py",
            "--sprt",
            "elo0=-100,elo1=0",
            "--games",
            "24",
            "--seed",
            "1",
            "--deck1",
            "standard",
            "--deck2",
            "standard",
        ],
    );
    let report = read_json(&out.join("report.json"));
    let page = Opened::open_until(&chrome, &page_file, "#sprt-tests");
    let title = page.text("#sprt h2");
    assert!(title.contains("random-py"), "{title}");
    let tests = report["sprt"]["opponents"].as_array().unwrap();
    assert_eq!(tests.len(), 2);
    for t in tests {
        let name = t["opponent"].as_str().unwrap();
        let row = page.eval(&format!(
            "(() => {{ const r = document.querySelector('#sprt-tests tr[data-bot=\"{name}\"]');
                 return r && {{ state: r.dataset.state, verdict: r.querySelector('.badge').textContent,
                               cells: [...r.cells].map(c => c.textContent) }}; }})()"
        ));
        assert!(!row.is_null(), "no SPRT row for {name}");
        assert_eq!(row["state"], t["state"], "{name}: {row}");
        let llr = format!("{:.2} [", t["llr"].as_f64().unwrap());
        let cells = row["cells"].as_array().unwrap();
        assert!(
            cells.iter().any(|c| c.as_str().unwrap().starts_with(&llr)),
            "{name}: {llr} not in {row}"
        );
        assert_eq!(
            cells.last().unwrap(),
            &Value::from(format!("{:.1}%", 100.0 * t["new_score"].as_f64().unwrap()))
        );
        if t["state"] == "h0" {
            assert_eq!(row["verdict"], "worse");
        }
    }
    let sensei = tests.iter().find(|t| t["opponent"] == "sensei").unwrap();
    assert_eq!(sensei["state"], "h0", "{sensei}");
    page.assert_clean();
    page.screenshot_if_asked("report-sprt.png");
}

/// The pages on a phone (420 CSS pixels): a folder league's Excluded
/// panel gives its Why column the panel's width (it had about 5
/// characters a line, and its text was clipped), a large board's replay
/// does not run past the page's edge, and no chart shrinks its labels
/// below readable (they were about 4 px): a chart keeps a minimum
/// drawing width and scrolls inside its own box.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn the_pages_stay_readable_on_a_phone() {
    let Some(chrome) = browser_or_skip("the_pages_stay_readable_on_a_phone") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (_, page_file) = folder_league_page(dir.path());
    let page = Opened::open_until(&chrome, &page_file, "#excluded");
    page.on_a_phone();
    page.reload_until("#excluded");
    let why = page.eval(
        "(() => { const panel = document.getElementById('excluded').getBoundingClientRect().width;
            return [...document.querySelectorAll('#excluded tr[data-dir]')].map((tr) => { const td = tr.lastElementChild;
              return { dir: tr.dataset.dir, share: td.getBoundingClientRect().width / panel,
                       clipped: [td, ...td.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1) }; }); })()",
    );
    for row in why.as_array().unwrap() {
        assert!(row["share"].as_f64().unwrap() > 0.8, "{why:#}");
        assert_eq!(row["clipped"], false, "{why:#}");
    }
    // No number of the standings wraps: squeezed, a rating's range stood
    // on three lines (the table scrolls in its box instead).
    let wrapped = page.eval(
        "[...document.querySelectorAll('#standings td.num:not(.faults)')].filter((td) => {
            const r = document.createRange(); r.selectNodeContents(td);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1; })
          .map((td) => td.textContent)",
    );
    assert_eq!(wrapped, serde_json::json!([]), "wrapped in the standings");
    page.assert_no_sideways_scroll("a folder league's page");
    page.assert_readable_charts("a folder league's page");
    page.assert_clean();
    page.screenshot_if_asked("phone-league.png");

    let compare = dir.path().join("compare.html");
    dojo()
        .args([
            "compare",
            "cardjitsu",
            "random-py",
            "random-sh",
            "--games",
            "8",
        ])
        .arg("--html")
        .arg(&compare)
        .output()
        .unwrap();
    let page = Opened::open(&chrome, &compare);
    page.on_a_phone();
    page.reload_until("#result");
    page.assert_no_sideways_scroll("a comparison's page");
    page.assert_readable_charts("a comparison's page");
    page.assert_clean();
    page.screenshot_if_asked("phone-compare.png");

    let (rec, _) = royale_game("boards/large.txt", 300, &[]);
    let page = Opened::open(&chrome, &replay_page(dir.path(), "large", &rec));
    // 390: a common phone, and a 420 px window less its scroll bar's
    // width is about as narrow.
    page.on_a_phone_of(390);
    page.reload_until("#result");
    page.assert_no_sideways_scroll("a large board's replay");
    page.assert_readable_charts("a large board's replay");
    page.assert_clean();
    page.screenshot_if_asked("phone-replay-large.png");
}

/// `page_file`'s data block changed by `change`, written back in place.
fn edit_page_data(page_file: &Path, change: impl FnOnce(&mut Value)) {
    let html = std::fs::read_to_string(page_file).unwrap();
    let open = "<script type=\"application/json\" id=\"dojo-data\">";
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let mut data = dojo_testkit::json::data_block(&html);
    change(&mut data);
    let json = serde_json::to_string(&data)
        .unwrap()
        .replace('<', "\\u003c");
    std::fs::write(
        page_file,
        format!("{}{json}{}", &html[..start], &html[end..]),
    )
    .unwrap();
}

/// The league page stays readable around a faulty bot and a bot named by
/// name: the standings' interval axis is scaled to the bots that are not
/// FAULTY, so a faulty bot far below (549 to 609 beside 1648 to 1721)
/// no longer shrinks the others' bars to ticks, and its own bar is cut
/// at the axis's edge, marked; the head-to-head map's column names stand
/// right above its cells (a fixed 140 px header left a tall empty area
/// above short names); and the Bots table shows where a bot named by
/// name was found, not its name a second time.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_page_keeps_the_bars_the_map_and_the_bots_readable() {
    let Some(chrome) =
        browser_or_skip("a_league_page_keeps_the_bars_the_map_and_the_bots_readable")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (_, page_file) = league_page(
        dir.path(),
        &["cardjitsu", "random-py", "random-sh", "--games", "2"],
    );
    // The shape of the walk's league: a faulty bot whose interval lies
    // far below the others'.
    edit_page_data(&page_file, |data| {
        for s in data["report"]["standings"].as_array_mut().unwrap() {
            let faulty = s["name"] == "random-sh";
            let (elo, lo, hi) = if faulty {
                (579.0, 549.0, 609.0)
            } else {
                (1682.0, 1648.0, 1721.0)
            };
            s["rating"] = elo.into();
            s["rating_lo"] = lo.into();
            s["rating_hi"] = hi.into();
            s["flagged"] = faulty.into();
        }
    });
    let page = Opened::open_until(&chrome, &page_file, "#standings");
    let bar = |bot: &str| {
        page.eval(&format!(
            "(() => {{ const row = document.querySelector('#standings tr[data-bot=\"{bot}\"]');
                const bar = row.querySelector('.bar').getBoundingClientRect(), rng = row.querySelector('.rng').getBoundingClientRect();
                return {{ share: rng.width / bar.width, cut: row.querySelectorAll('.bar .cut').length, inside: rng.left >= bar.left - 1 && rng.right <= bar.right + 1 }}; }})()"
        ))
    };
    let good = bar("random-py");
    assert!(good["share"].as_f64().unwrap() > 0.5, "{good}");
    assert_eq!(good["cut"], 0, "{good}");
    let faulty = bar("random-sh");
    assert!(faulty["cut"].as_u64().unwrap() >= 1, "{faulty}");
    assert_eq!(faulty["inside"], true, "{faulty}");
    assert!(
        page.text("#standings-cut").contains("random-sh"),
        "{}",
        page.text("main")
    );
    // The map's column names: no more than a few pixels between the top
    // of their header and the top of the longest name.
    let gap = page.eval(
        "(() => { const ths = [...document.querySelectorAll('#heat th.col')];
            return Math.min(...ths.map((th) => th.querySelector('span').getBoundingClientRect().top - th.getBoundingClientRect().top)); })()",
    );
    assert!(gap.as_f64().unwrap() < 12.0, "{gap}");
    // The Bots table: where each bot was found.
    let cells = page.eval(
        "[...document.querySelectorAll('#settings-bots tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))",
    );
    assert_eq!(cells.as_array().unwrap().len(), 2, "{cells}");
    for row in cells.as_array().unwrap() {
        let (name, command) = (row[0].as_str().unwrap(), row[1].as_str().unwrap());
        assert!(
            command != name && command.ends_with(&format!("bots/{name}")),
            "{cells}"
        );
    }
    page.assert_clean();
    page.screenshot_if_asked("report-faulty.png");
}

/// A league's page before a bot has played (a live page) shows `–` for
/// its rating, interval and score, with no bar; each bot's Faults cell
/// says the games it was faulty in; and a live page left by a stopped
/// league names the command that goes on with it, directory and all.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_league_page_shows_no_score_before_a_bot_plays_and_names_its_resume() {
    let Some(chrome) =
        browser_or_skip("a_league_page_shows_no_score_before_a_bot_plays_and_names_its_resume")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, page_file) = league_page(
        dir.path(),
        &["cardjitsu", "random-py", "random-sh", "--games", "2"],
    );
    let resume =
        dojo_testkit::json::data_block(&std::fs::read_to_string(&page_file).unwrap())["resume"]
            .as_str()
            .unwrap()
            .to_owned();
    assert!(
        resume.contains(&out.canonicalize().unwrap().display().to_string()),
        "{resume}"
    );
    edit_page_data(&page_file, |data| {
        for s in data["report"]["standings"].as_array_mut().unwrap() {
            if s["name"] == "random-sh" {
                for key in ["games", "wins", "draws", "losses"] {
                    s[key] = 0.into();
                }
                s["score_pct"] = 0.0.into();
                s["rating_lo"] = (-900.0).into();
                s["rating_hi"] = 3900.0.into();
            } else {
                s["faulty_games"] = 1.into();
            }
        }
        // Live, last written ten minutes ago: its league has stopped.
        let status = &mut data["status"];
        status["state"] = "live".into();
        let at = status["updated_ms"].as_u64().unwrap();
        status["updated_ms"] = (at - 10 * 60 * 1000).into();
    });
    let page = Opened::open_until(&chrome, &page_file, "#standings");
    let row = |bot: &str| {
        page.eval(&format!(
            "(() => {{ const row = document.querySelector('#standings tr[data-bot=\"{bot}\"]');
                return {{ cells: [...row.querySelectorAll('td')].map((td) => td.textContent), bars: row.querySelectorAll('.bar').length }}; }})()"
        ))
    };
    let waiting = row("random-sh");
    let cells = waiting["cells"].as_array().unwrap();
    assert_eq!(waiting["bars"], 0, "{waiting}");
    assert_eq!(cells[2], "–", "elo: {waiting}");
    assert_eq!(cells[4], "–", "interval: {waiting}");
    assert_eq!(cells[7], "–", "score: {waiting}");
    let played = row("random-py");
    assert_eq!(played["bars"], 1, "{played}");
    assert!(
        played["cells"][8]
            .as_str()
            .unwrap()
            .contains("faulty in 1 of 2 games, lost by forfeit"),
        "{played}"
    );
    // Nor is a bot yet to play said to be cut off the interval axis.
    let cut = page.eval("document.querySelectorAll('#standings-cut').length");
    assert_eq!(cut, 0, "{}", page.text("main"));
    let (state, stale, text) = status_of(&page);
    assert_eq!((state.as_str(), stale), ("live", true), "{text}");
    assert!(text.contains(&format!("goes on with {resume})")), "{text}");
    page.assert_clean();
    page.screenshot_if_asked("report-waiting-and-stale.png");
}

/// A league's page is the league's: a resume (here without `--html`)
/// writes it again, so it shows the final count, not the count when it
/// was written; it marks the FAULTY bot and says what a fault costs.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_resumed_leagues_page_shows_its_final_count_and_its_faulty_bot() {
    let Some(chrome) =
        browser_or_skip("a_resumed_leagues_page_shows_its_final_count_and_its_faulty_bot")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let half = "half=python3 bots/faulty/crash_half.py";
    let (out, page_file) = league_page(
        dir.path(),
        &["cardjitsu", half, "random-py", "random-sh", "--games", "2"],
    );
    // Games lost (as by a kill), and the page written at that count.
    let games = out.join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&games, kept).unwrap();
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&page_file));
    let early = std::fs::read_to_string(&page_file).unwrap();

    stdout_ok(dojo().args(["league", "--resume"]).arg(&out));
    assert_ne!(
        std::fs::read_to_string(&page_file).unwrap(),
        early,
        "the page was written again"
    );
    let report = read_json(&out.join("report.json"));
    assert_eq!(report["games_played"], 6);
    let page = Opened::open_until(&chrome, &page_file, "#standings");
    let sub = page.text("#report .sub");
    assert!(
        sub.contains("6 games") && !sub.contains("incomplete"),
        "{sub}"
    );
    let faulty = page.text("#standings tr[data-bot=\"half\"]");
    assert!(faulty.contains("FAULTY"), "{faulty}");
    for bot in ["random-py", "random-sh"] {
        let row = page.text(&format!("#standings tr[data-bot=\"{bot}\"]"));
        assert!(!row.contains("FAULTY"), "{row}");
    }
    assert!(page.text("#fault-policy").contains("forfeit"));
    assert!(page.text("#faulty-bots").contains("half"));
    // Its first crash, with what it wrote to stderr in that game: each
    // process of half answers one hand and crashes on the next.
    let first = &report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "half")
        .unwrap()["first_fault"];
    assert_eq!(
        (&first["kind"], &first["round"]),
        (&"crash".into(), &2.into())
    );
    let panel = page.text("#first-faults .first-fault[data-bot=\"half\"]");
    assert!(
        panel.contains(&format!("first crash game {}, round 2", first["game"])),
        "{panel}"
    );
    assert_eq!(
        page.text("#first-faults .first-fault[data-bot=\"half\"] pre.stderr")
            .lines()
            .last(),
        Some("crash_half: giving up")
    );
    for bot in ["random-py", "random-sh"] {
        let shown = page.eval(&format!(
            "document.querySelector('#first-faults [data-bot=\"{bot}\"]') === null"
        ));
        assert_eq!(shown, Value::Bool(true), "{bot} never faulted");
    }
    // Faults per bot as the text report counts them: restarts apart.
    let half = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "half")
        .unwrap();
    let f = &half["faults"];
    let total = ["timeout", "crash", "invalid", "limit"]
        .iter()
        .map(|k| f[k].as_u64().unwrap_or(0))
        .sum::<u64>();
    assert!(f["restart"].as_u64().unwrap() > 0);
    let shown = page.eval(
        "[...document.querySelectorAll('#faults-per-bot tr')].find(r => r.textContent.startsWith('half')).lastChild.textContent",
    );
    assert!(
        shown.as_str().unwrap().starts_with(&total.to_string()),
        "{shown} vs {total}"
    );
    // Its FAULTY mark stands beside its name, as in the standings (beside
    // the count, it wrapped under it).
    let marked = page.eval(
        "[...document.querySelectorAll('#faults-per-bot td.name')].filter((td) => td.querySelector('.faulty')).map((td) => td.firstChild.textContent)",
    );
    assert_eq!(marked, serde_json::json!(["half"]));
    // A forfeited game says so where the game's end is shown, not the
    // board's end the forfeit overruled.
    let forfeits = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .filter(|l| {
            let game: serde_json::Value = serde_json::from_str(l).unwrap();
            game["faulty"].as_array().is_some_and(|f| !f.is_empty())
        })
        .count();
    assert!(forfeits > 0, "the crashing bot forfeited no game");
    let shown = page.eval(
        "[...document.querySelectorAll('#games tbody tr')].filter(r => r.children[3].textContent === 'forfeit (half)').length",
    );
    assert_eq!(shown.as_u64(), Some(forfeits as u64));
    // Its replay gives the same result, the board's end below it.
    let forfeited: Value = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|g| g["faulty"].as_array().is_some_and(|f| !f.is_empty()))
        .unwrap();
    let winner = (0..2)
        .find(|&i| forfeited["scores"][i] == 1.0)
        .map(|i| forfeited["seats"][i].as_str().unwrap().to_owned())
        .expect("the other side won");
    page.eval(&format!(
        "(() => {{ location.hash = '#game-{}'; }})()",
        forfeited["id"]
    ));
    page.tab
        .wait_for_element("#replay-view #board-result")
        .unwrap();
    let result = page.text("#replay-view #result");
    assert!(
        result.starts_with(&format!("Win {winner} wins by forfeit: half (")),
        "{result}"
    );
    let board = page.text("#replay-view #board-result");
    assert!(board.starts_with("on the board: "), "{board}");
    page.screenshot_if_asked("replay-forfeit.png");
    page.eval("(() => { location.hash = ''; })()");
    page.assert_clean();
    if let Some(shots) = std::env::var_os("DOJO_SCREENSHOTS") {
        page.screenshot(&Path::new(&shots).join("report-faulty.png"));
        page.eval("document.getElementById('faults-per-bot').scrollIntoView()");
        page.screenshot(&Path::new(&shots).join("report-first-faults.png"));
    }
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_replaced_bots_page_says_its_old_games_are_retired() {
    let Some(chrome) = browser_or_skip("a_replaced_bots_page_says_its_old_games_are_retired")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "random-py",
            "rs=sh bots/random-sh/bot.sh",
            "--games",
            "2",
        ],
    );
    // A new version of rs (the same program, given another way).
    stdout_ok(
        dojo()
            .args(["league", "--resume"])
            .arg(&out)
            .args(["--replace", "rs=rs=sh ./bots/random-sh/bot.sh"]),
    );
    let page = Opened::open_until(&chrome, &page_file, "#standings");
    let replaced = page.text("#replaced-bots");
    assert!(
        replaced.contains("rs was replaced by a new version; 2 games of the old one are kept"),
        "{replaced}"
    );
    let row = page.text("#standings tr[data-bot=\"rs\"]");
    assert!(!row.is_empty(), "{row}");
}

impl Opened {
    /// [`Opened::eval`] that gives `None` rather than failing while the
    /// page is between two loads (a live page reloads itself).
    fn try_eval(&self, expr: &str) -> Option<Value> {
        let wrapped = format!("JSON.stringify((() => {{ return {expr}; }})() ?? null)");
        match self.tab.evaluate(&wrapped, false).ok()?.value {
            Some(Value::String(text)) => serde_json::from_str(&text).ok(),
            _ => None,
        }
    }
}

/// The live page's state and played count, as drawn (`None` between two
/// loads, or before the status is drawn).
fn live_state(page: &Opened) -> Option<(String, u64, bool)> {
    let v = page.try_eval(
        "(() => { const s = document.getElementById('status');
                  return s && { state: s.dataset.state,
                                played: Number(document.getElementById('status-played').textContent.replace(/,/g, '')),
                                refresh: document.querySelector('meta[http-equiv=refresh]') !== null }; })()",
    )?;
    Some((
        v.get("state")?.as_str()?.to_owned(),
        v.get("played")?.as_u64()?,
        v.get("refresh")?.as_bool()?,
    ))
}

/// When the page in `file` was written (its status's `updated_ms`).
fn written_at(file: &Path) -> Option<u64> {
    let html = std::fs::read_to_string(file).ok()?;
    let at = html.find("\"updated_ms\":")? + "\"updated_ms\":".len();
    let digits: String = html[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The live page's state, noting each new played count of a live page
/// in `counts`.
fn observe(page: &Opened, counts: &mut Vec<u64>) -> Option<(String, u64, bool)> {
    let (state, played, refresh) = live_state(page)?;
    if state == "live" {
        assert!(refresh, "a live page reloads itself");
        if counts.last() != Some(&played) {
            counts.push(played);
        }
    }
    Some((state, played, refresh))
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_running_leagues_page_reloads_itself_as_games_finish_and_ends_final() {
    let Some(chrome) =
        browser_or_skip("a_running_leagues_page_reloads_itself_as_games_finish_and_ends_final")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("league");
    let page_file = dir.path().join("report.html");
    // Each game waits for its slow bot to start: the league lasts long
    // enough (about 20 s) for the page to be written many times.
    let slow = "slow=sh -c 'sleep 0.4; exec python3 bots/random-py/bot.py'";
    let games = 40;
    let league = std::process::Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args(["league", "cardjitsu", "random-py", slow, "--jobs", "1"])
        .args(["--games", &games.to_string()])
        .arg("--out")
        .arg(&out)
        .arg("--html")
        .arg(&page_file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    let poll = |what: &str| {
        assert!(
            std::time::Instant::now() < deadline,
            "gave up waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    // Written when the league starts, before the first game ends.
    while !page_file.exists() {
        poll("the page to be written at the start");
    }
    let page = Opened::open_until(&chrome, &page_file, "#status");
    // Opened once: the page reloads itself, and its count rises.
    let mut counts = Vec::new();
    while counts.len() < 2 {
        observe(&page, &mut counts);
        poll("the live page's count to rise");
    }
    // A reload keeps the reader where they were.
    page.eval("window.scrollTo(0, 500)");
    let before = counts.len();
    while counts.len() == before {
        observe(&page, &mut counts);
        poll("the next reload");
    }
    while page
        .try_eval("document.readyState")
        .as_ref()
        .and_then(Value::as_str)
        != Some("complete")
    {
        poll("the reloaded page");
    }
    assert_eq!(page.eval("window.scrollY"), 500);

    // An open replay is not reloaded away, however often the page is
    // written meanwhile.
    page.eval("(window.kept = 'here', location.hash = '#game-0')");
    while page.try_eval("document.querySelector('#replay-view .back') !== null")
        != Some(Value::Bool(true))
    {
        poll("the replay to open");
    }
    let opened = written_at(&page_file).unwrap();
    let mut writes = 0;
    let mut last = opened;
    while writes < 2 {
        if let Some(at) = written_at(&page_file).filter(|&at| at != last) {
            writes += 1;
            last = at;
        }
        poll("two more writes of the page");
    }
    assert_eq!(
        page.eval("[window.kept, location.hash]"),
        serde_json::json!(["here", "#game-0"])
    );
    // Back to the report: it reloads again, up to the final page.
    page.eval("(location.hash = '', 0)");
    let last = loop {
        match observe(&page, &mut counts) {
            Some((state, played, refresh)) if state != "live" => break (state, played, refresh),
            _ => {}
        }
        poll("the page to say the league is final");
    };
    let ended = league.wait_with_output().unwrap();
    assert!(
        ended.status.success(),
        "{}",
        String::from_utf8_lossy(&ended.stderr)
    );
    assert!(
        counts.len() >= 3 && counts.windows(2).all(|w| w[0] < w[1]),
        "the played count seen rising: {counts:?}"
    );
    assert!(counts[0] < games, "{counts:?}");
    // The final page: every game, and no more reloading.
    assert_eq!(last, ("final".to_owned(), games, false));
    let report = read_json(&out.join("report.json"));
    assert_eq!(report["games_played"], games);
    let status = page.text("#status");
    assert!(
        status.contains(&format!("{games} of {games} games played")),
        "{status}"
    );
    page.assert_clean();
    page.screenshot_if_asked("league-final.png");
}

/// `file` with its status's `updated_ms` moved `back_ms` into the past, as
/// a page written that long ago reads.
fn written_earlier(file: &Path, back_ms: u64) {
    let html = std::fs::read_to_string(file).unwrap();
    let at = written_at(file).expect("the page says when it was written");
    let was = format!("\"updated_ms\":{at}");
    assert_eq!(html.matches(&was).count(), 1, "one status in the page");
    let now = format!("\"updated_ms\":{}", at - back_ms);
    std::fs::write(file, html.replace(&was, &now)).unwrap();
}

/// The status panel of `page` (which may be reloading itself): its state,
/// whether it says it is stale, and its text.
fn status_of(page: &Opened) -> (String, bool, String) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let v = page.try_eval(
            "(() => { const s = document.getElementById('status');
                      return s && [s.dataset.state, s.dataset.stale === 'yes', s.textContent]; })()",
        );
        if let Some(Value::Array(v)) = v {
            return (
                v[0].as_str().unwrap().to_owned(),
                v[1].as_bool().unwrap(),
                v[2].as_str().unwrap().to_owned(),
            );
        }
        assert!(
            std::time::Instant::now() < deadline,
            "gave up waiting for the status panel"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A league whose dojo is killed leaves its live page behind: read soon
/// after, it is live with its ETA; read minutes later (its written time
/// moved back, which is what the reader's clock sees then), it says it is
/// no longer updated and gives no ETA. A final page is never stale.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_live_page_left_by_a_killed_league_says_it_is_no_longer_updated() {
    let Some(chrome) =
        browser_or_skip("a_live_page_left_by_a_killed_league_says_it_is_no_longer_updated")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("league");
    let page_file = dir.path().join("report.html");
    let slow = "slow=sh -c 'sleep 0.4; exec python3 bots/random-py/bot.py'";
    let mut league = std::process::Command::new(assert_cmd::cargo::cargo_bin("dojo"))
        .current_dir(root())
        .args(["league", "cardjitsu", "random-py", slow, "--jobs", "1"])
        .args(["--games", "40", "--out"])
        .arg(&out)
        .arg("--html")
        .arg(&page_file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    while written_at(&page_file).is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "gave up waiting for the live page"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // SIGKILL: no final page is written.
    league.kill().unwrap();
    league.wait().unwrap();
    let html = std::fs::read_to_string(&page_file).unwrap();
    assert!(html.contains("\"state\":\"live\""), "the page left is live");

    let fresh = dir.path().join("fresh.html");
    std::fs::write(&fresh, &html).unwrap();
    let page = Opened::open_until(&chrome, &fresh, "#status");
    let (state, stale, text) = status_of(&page);
    assert_eq!((state.as_str(), stale), ("live", false), "{text}");
    assert!(text.contains("ETA"), "{text}");
    page.assert_clean();
    drop(page);

    let old = dir.path().join("old.html");
    std::fs::write(&old, &html).unwrap();
    written_earlier(&old, 10 * 60 * 1000);
    let page = Opened::open_until(&chrome, &old, "#status");
    let (state, stale, text) = status_of(&page);
    assert_eq!((state.as_str(), stale), ("live", true), "{text}");
    assert!(
        text.contains("not updated for 10m") && text.contains("the league may have stopped"),
        "{text}"
    );
    assert!(!text.contains("ETA"), "{text}");
    page.assert_clean();
    page.screenshot_if_asked("league-stale.png");
    drop(page);

    // The killed league's directory read afterwards: a final page, as old
    // as it may be, says only when it was written.
    let last = dir.path().join("final.html");
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&last));
    written_earlier(&last, 10 * 60 * 1000);
    let page = Opened::open_until(&chrome, &last, "#status");
    let (state, stale, text) = status_of(&page);
    assert_eq!((state.as_str(), stale), ("final", false), "{text}");
    assert!(!text.contains("not updated"), "{text}");
    page.assert_clean();
}

/// A league of a folder of submissions: the page's Excluded panel lists
/// every entry it did not play, with its status, why, and what shows it
/// (each error of a bot.toml, the head of a smoke start's stderr).
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_folder_leagues_page_lists_the_entries_it_did_not_play() {
    let Some(chrome) = browser_or_skip("a_folder_leagues_page_lists_the_entries_it_did_not_play")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (out, page_file) = folder_league_page(dir.path());
    let report = read_json(&out.join("report.json"));
    let page = Opened::open_until(&chrome, &page_file, "#excluded");
    let rows = page.eval("document.querySelectorAll('#excluded tr[data-dir]').length");
    assert_eq!(rows, report["excluded"].as_array().unwrap().len());
    let row = |dir: &str| page.text(&format!("#excluded tr[data-dir=\"{dir}\"]"));
    let bad = row("bad-toml");
    assert!(
        bad.contains("bad manifest") && bad.contains("bot.toml:1:1: unknown field `comand`"),
        "{bad}"
    );
    assert!(bad.contains("bot.toml:2:8:"), "{bad}");
    let crashy = row("crashy");
    assert!(crashy.contains("failed smoke start"), "{crashy}");
    assert!(
        crashy.contains(dojo_testkit::submissions::CRASH_LINE),
        "{crashy}"
    );
    assert!(row("tsc-like").contains(dojo_testkit::submissions::BUILD_ERROR));
    assert!(row("zz-twin").contains("(bot twin)"), "{}", row("zz-twin"));
    // An entry meant for another game is not an excluded one.
    let panel = page.text("#excluded");
    assert!(!panel.contains("royale-only"), "{panel}");
    page.assert_clean();
    page.screenshot_if_asked("report-excluded.png");
}

#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn league_report_plots_each_bots_move_times_against_its_limit() {
    let Some(chrome) =
        browser_or_skip("league_report_plots_each_bots_move_times_against_its_limit")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // random-py with a move limit of its own.
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::copy(root().join("bots/random-py/bot.py"), mine.join("bot.py")).unwrap();
    std::fs::write(
        mine.join("bot.toml"),
        "name = \"mine\"\ncommand = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n\
         [time]\ntimeout_ms = 20000\n",
    )
    .unwrap();
    let out = dir.path().join("league");
    let page_file = dir.path().join("report.html");
    stdout_ok(
        dojo()
            .args(["league", "cardjitsu", "random-sh", "--games", "2"])
            .args(["--timeout-ms", "10000", "--out"])
            .arg(&out)
            .arg(&mine)
            .arg("--html")
            .arg(&page_file),
    );
    let report = read_json(&out.join("report.json"));
    let page = Opened::open_until(&chrome, &page_file, "#move-times");
    // One row per bot, each with its moves drawn and its own limit.
    let rows = page.eval(
        "[...document.querySelectorAll('#move-times .move-row')].map(g => [g.dataset.bot, g.querySelectorAll('circle').length, g.querySelectorAll('line.limit').length, g.querySelector('.move-max').textContent])",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in rows {
        let bot = row[0].as_str().unwrap();
        assert_eq!(
            (row[1].as_u64(), row[2].as_u64()),
            (Some(1), Some(1)),
            "{row}"
        );
        let limit = if bot == "mine" { "/ 20 s" } else { "/ 10 s" };
        assert!(row[3].as_str().unwrap().contains(limit), "{row}");
        let s = report["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == bot)
            .unwrap();
        assert!(s["moves"]["count"].as_u64().unwrap() > 0, "{s}");
    }
    // The limit tick sits right of every move: it is far off.
    let right_of_max = page.eval(
        "[...document.querySelectorAll('#move-times .move-row')].every(g => +g.querySelector('line.limit').getAttribute('x1') > +g.querySelector('circle').getAttribute('cx'))",
    );
    assert_eq!(right_of_max, true);
    page.assert_clean();
    page.screenshot_if_asked("report-move-times.png");

    // A league stored before move times has no figures: no plot, no error.
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let old: String = games
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["timing"] = Value::Null;
            format!("{v}\n")
        })
        .collect();
    std::fs::write(out.join("games.jsonl"), old).unwrap();
    let old_page = dir.path().join("old.html");
    stdout_ok(dojo().arg("report").arg(&out).arg("--html").arg(&old_page));
    let page = Opened::open_until(&chrome, &old_page, "#standings");
    assert_eq!(
        page.eval("document.getElementById('move-times') === null"),
        true
    );
    page.assert_clean();
}

/// A bot that starts slowly (its first answer each game past its move
/// limit, within its start-up allowance): the page's move times hold its
/// moves against the move limit, well under it and not marked, and say
/// its first answers apart against the move limit plus the allowance.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn league_report_holds_a_slow_start_against_its_allowance_not_the_move_limit() {
    use dojo_testkit::bots::{SLOW_START_LIMITS, SLOW_START_MS, slow_starter};
    let Some(chrome) = browser_or_skip(
        "league_report_holds_a_slow_start_against_its_allowance_not_the_move_limit",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bot = slow_starter(dir.path());
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "random-sh",
            bot.to_str().unwrap(),
            "--games",
            "2",
            "--timeout-ms",
            "20000",
            "--startup-ms",
            "20000",
        ],
    );
    let report = read_json(&out.join("report.json"));
    let page = Opened::open_until(&chrome, &page_file, "#move-times");
    let row = page.eval(
        "(() => { const g = document.querySelector('#move-times .move-row[data-bot=\"slow-start\"]');
                  const texts = [...g.querySelectorAll('text')];
                  const m = texts.find(t => t.textContent.startsWith('max ')), s = texts.find(t => t.textContent.startsWith('first answers'));
                  return { moves: m.textContent, marked: m.getAttribute('style') !== null,
                           starts: s && s.textContent,
                           tick: +g.querySelector('line.limit').getAttribute('x1'),
                           slowest: Math.max(...[...g.querySelectorAll('line')].filter(l => !l.classList.contains('limit') && !l.classList.contains('cpu-max')).map(l => +l.getAttribute('x2'))) }; })()",
    );
    let moves = row["moves"].as_str().unwrap();
    assert!(moves.contains("/ 1.00 s ("), "{row}");
    assert_eq!(row["marked"], false, "far under its move limit: {row}");
    // The slowest move drawn sits left of the move limit's tick.
    assert!(
        row["slowest"].as_f64().unwrap() < row["tick"].as_f64().unwrap(),
        "{row}"
    );
    let (move_ms, startup_ms) = SLOW_START_LIMITS;
    let allowed = (move_ms + startup_ms) as f64 / 1000.0;
    let starts = row["starts"].as_str().unwrap_or_default();
    assert!(
        starts.starts_with("first answers: max ")
            && starts.contains(&format!(" / {allowed:.2} s (")),
        "{row}"
    );
    let s = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "slow-start")
        .unwrap();
    let shown = s["startup_answers"]["wall_ms"]["max"]
        .as_f64()
        .unwrap_or(0.0);
    assert!(shown >= SLOW_START_MS as f64, "{s}");
    page.assert_clean();
    page.screenshot_if_asked("report-slow-start.png");
}

/// A folder entry named with a right-to-left override (U+202E) that
/// would read as `random-py`, and a bot whose stderr line would end in
/// `exe.png`: the page shows the override as the terminal does,
/// `\u{202e}`, so neither reads as what it is not.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_leagues_page_shows_bidi_overrides_in_the_bots_text_as_escapes() {
    let Some(chrome) =
        browser_or_skip("a_leagues_page_shows_bidi_overrides_in_the_bots_text_as_escapes")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("submissions");
    let random =
        std::fs::read_to_string(dojo_testkit::paths::bots_dir().join("random-py/bot.py")).unwrap();
    let cardjitsu = "command = \"python3 bot.py\"\ngames = [\"cardjitsu\"]\n";
    // Answers two hands; on the third writes the line and crashes.
    let shouty = r#"import sys
answered = 0
while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    if "," in line and " vs. " not in line:
        if answered == 2:
            sys.stderr.write("saved to photo\u202egnp.exe\n"); sys.stderr.flush()
            sys.exit(1)
        print(answered, flush=True)
        answered += 1
"#;
    for (entry, bot) in [
        ("alice", random.as_str()),
        ("shouty", shouty),
        ("\u{202e}yp-modnar", random.as_str()),
    ] {
        let entry = folder.join(entry);
        std::fs::create_dir_all(&entry).unwrap();
        std::fs::write(entry.join("bot.toml"), cardjitsu).unwrap();
        std::fs::write(entry.join("bot.py"), bot).unwrap();
    }
    let folder = folder.display().to_string();
    let (out, page_file) = league_page(
        dir.path(),
        &[
            "cardjitsu",
            "--bots-dir",
            &folder,
            "--games",
            "2",
            "--startup-ms",
            "20000",
        ],
    );
    let report = read_json(&out.join("report.json"));
    // The record keeps the name as it is.
    assert_eq!(
        report["excluded"][0]["dir"], "\u{202e}yp-modnar",
        "{report:#}"
    );
    let page = Opened::open_until(&chrome, &page_file, "#excluded");
    let names = page.eval(
        "[...document.querySelectorAll('#excluded tr[data-dir]')].map((tr) => tr.querySelector('td.name').textContent)",
    );
    assert_eq!(names, serde_json::json!(["\\u{202e}yp-modnar"]));
    let stderr = page.text("#first-faults .first-fault[data-bot=\"shouty\"] pre.stderr");
    assert_eq!(stderr, "saved to photo\\u{202e}gnp.exe");
    // No bidirectional formatting character anywhere in what the page
    // shows: its text and its tooltips.
    let raw = page.eval(
        "(() => { const bidi = /[\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]/;
             const app = document.getElementById('app');
             const titles = [...app.querySelectorAll('[title]')].map((e) => e.getAttribute('title'));
             return [app.textContent, document.title, ...titles].filter((t) => bidi.test(t)); })()",
    );
    assert_eq!(raw, serde_json::json!([]));
    page.assert_clean();
    page.screenshot_if_asked("report-bidi.png");
    page.eval("(document.getElementById('first-faults').scrollIntoView(), 1)");
    page.screenshot_if_asked("report-bidi-first-faults.png");
}

/// A replay of a record whose bot is named with a right-to-left override
/// (a record is a file anyone can write) and whose stderr holds one: the
/// page, its title too, shows the override as an escape.
#[test]
#[ignore = "long tier: run by .ci/run and `just test-long`"]
fn a_replay_page_shows_bidi_overrides_in_the_bots_text_as_escapes() {
    let Some(chrome) =
        browser_or_skip("a_replay_page_shows_bidi_overrides_in_the_bots_text_as_escapes")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut game = CardJitsu::new(21, cardjitsu::Settings::default());
    let mut rng = Lcg(9);
    while game.outcome().is_none() {
        game.play([rng.next(5) as usize, rng.next(5) as usize]);
    }
    let play = game.into_record();
    let rounds = play.rounds.len();
    let rec = CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats: vec![seat(0, "\u{202e}ahpla", None), seat(1, "beta", None)],
        decks: dojo_games::cardjitsu::decks::default_names(Default::default()),
        draws: [dojo_engine::cardjitsu::Draw::WithoutReplacement; 2],
        play,
        conduct: conduct(2),
        stderr: vec![
            vec!["saved to photo\u{202e}gnp.exe".into(); rounds],
            vec![String::new(); rounds],
        ],
        timing: Timing::default(),
    };
    let page = Opened::open(&chrome, &replay_page(dir.path(), "cj", &rec));
    let title = page.eval("document.title");
    assert!(
        title.as_str().unwrap().contains("\\u{202e}ahpla vs beta"),
        "{title}"
    );
    let app = page.text("#app");
    assert!(app.contains("\\u{202e}ahpla"), "{app}");
    assert!(app.contains("saved to photo\\u{202e}gnp.exe"), "{app}");
    assert!(!app.contains('\u{202e}'), "{app}");
    page.assert_clean();
    page.screenshot_if_asked("replay-bidi.png");
}

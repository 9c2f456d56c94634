//! Self-contained HTML pages: a game's replay, a league report, a
//! comparison. Each page is one file: the data as JSON in a
//! `<script type="application/json">` block, and the CSS and JavaScript
//! inline, all compiled into the binary (`include_str!`), so the installed
//! `dojo` needs no other file and the page works offline. A
//! Content-Security-Policy of `default-src 'none'` makes sure the page
//! cannot fetch anything even by mistake.
//!
//! The values come typed: a replay page's from its game's view in
//! `dojo_games` (`SavedGame::view`, through the games registry), a
//! report's and a comparison's from [`dojo_league::view`]; this module
//! only serialises them into the template. Each game's replay drawing is
//! its own script (`replay_<game>.js`), listed once in [`SCRIPTS`].

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use base64::Engine as _;
use dojo_games::registry::ReplayView;
use dojo_games::replay::{SavedGame, read_stored_values};
use dojo_league::store::{self, GameLine};
use dojo_league::verdict::{self, Verdict};
use dojo_league::view::{self, PageState, PageStatus, RecordSource};
use serde::Serialize;

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("style.css");
/// The page's script, in this order: the shared helpers, the replay
/// stepper and panels every game shares, each game's replay page (one
/// line per game: the script defines its page and adds it to
/// `REPLAY_PAGES` under the game's name, where `replay.js` finds it by the
/// record's `game`), the report and the comparison.
const SCRIPTS: [&str; 6] = [
    include_str!("common.js"),
    include_str!("replay.js"),
    include_str!("replay_royale.js"),
    include_str!("replay_cardjitsu.js"),
    include_str!("report.js"),
    include_str!("compare.js"),
];

/// JSON safe to put inside a `<script>` element: every `<` is written as
/// `\u003c` (only possible inside JSON strings), so neither `</script>`
/// nor `<!--` can end or change the block.
pub fn script_json(value: &impl Serialize) -> Result<String> {
    let text = serde_json::to_string(value).context("serialising the page data")?;
    Ok(text.replace('<', "\\u003c"))
}

/// Text safe inside HTML element content.
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The page template with `{{name}}` placeholders filled in one pass (so
/// nothing inside a filled-in value is ever taken for a placeholder).
fn fill(template: &str, values: &BTreeMap<&str, &str>) -> String {
    let mut out =
        String::with_capacity(template.len() + values.values().map(|v| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) if values.contains_key(&after[..end]) => {
                out.push_str(values[&after[..end]]);
                rest = &after[end + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A whole page: `kind` picks what the script draws (`replay`, `report`,
/// `compare`); `head` is more markup in the head (a live page's refresh),
/// `extra` more before the script (the lazily read games of a report).
fn page(title: &str, kind: &str, data: &impl Serialize, head: &str, extra: &str) -> Result<String> {
    #[derive(Serialize)]
    struct Data<'a, T> {
        page: &'a str,
        #[serde(flatten)]
        data: &'a T,
    }
    let json = script_json(&Data { page: kind, data })?;
    let script = SCRIPTS.join("\n");
    let title = escape_text(title);
    let values = BTreeMap::from([
        ("version", env!("CARGO_PKG_VERSION")),
        ("title", title.as_str()),
        ("style", STYLE),
        ("data", json.as_str()),
        ("head", head),
        ("extra", extra),
        ("script", script.as_str()),
    ]);
    Ok(fill(PAGE, &values))
}

/// The replay page of a saved game (of any kind), its commands naming
/// each seat's bot so that they work from any directory
/// ([`crate::rerun`]); `forfeit`, for a league game a forfeit decided,
/// the result the league counted.
pub fn replay(
    rec: &dyn SavedGame,
    source: &RecordSource,
    forfeit: Option<&Verdict>,
) -> Result<String> {
    let bots = crate::rerun::SeatWords::default().of(rec.seats());
    let view = Counted {
        view: rec.view(source, &bots)?,
        forfeit,
    };
    page(&rec.title(), "replay", &view, "", "")
}

/// A replay page's data: its game's view, and beside it the result the
/// league counted when a forfeit decided the game (the page shows it as
/// the result and the board's end below it, as `forfeit.text`,
/// `forfeit.win`).
#[derive(Serialize)]
struct Counted<'a> {
    #[serde(flatten)]
    view: ReplayView,
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<&'a Verdict>,
}

/// One game's replay data as the report embeds it: its view's JSON,
/// gzip-compressed and base64-encoded, unpacked by the page only when the
/// game is opened (so 10,000 games cost the report no parsing up front).
fn packed_game(
    line: &GameLine,
    settings: &dojo_league::Settings,
    dir: &Path,
    words: &crate::rerun::SeatWords,
) -> Result<Option<String>> {
    // Absolute, as the bots: the page's commands work from anywhere.
    let source = RecordSource::League {
        dir: crate::rerun::path_word(dir),
        id: line.id,
    };
    // A game whose record cannot be read or shown is listed without its
    // replay (the report is still written).
    let games = dir.join(store::GAMES_FILE);
    let Ok(saved) = read_stored_values(&games, &line.record, &line.timing) else {
        return Ok(None);
    };
    let Ok(view) = saved.view(&source, &words.of(saved.seats())) else {
        return Ok(None);
    };
    let forfeit = verdict::forfeit(line, settings.game.shape(), &settings.faults);
    let json = serde_json::to_vec(&Counted {
        view,
        forfeit: forfeit.as_ref(),
    })?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&json)?;
    Ok(Some(
        base64::engine::general_purpose::STANDARD.encode(gz.finish()?),
    ))
}

/// The head markup of a league's page in `status`: a live page reloads
/// itself every [`crate::live::PAGE_INTERVAL`] (a `file://` page too: no
/// server, no script needed); any other page stays as it is.
fn refresh(status: &PageStatus) -> String {
    match status.state {
        PageState::Live => format!(
            "<meta http-equiv=\"refresh\" content=\"{}\">\n",
            crate::live::PAGE_INTERVAL.as_secs()
        ),
        PageState::Running | PageState::Final => String::new(),
    }
}

/// The report page of a league: its report, every game listed, and each
/// game's replay embedded (packed, see [`packed_game`]), with how current
/// it is (`status`). `dir` is the league directory (named absolute in
/// the replay commands shown).
pub fn report(
    report: &dojo_league::Report,
    settings: &dojo_league::Settings,
    games: &[GameLine],
    dir: &Path,
    status: PageStatus,
) -> Result<String> {
    let mut data = view::report_view(report, settings, games, status);
    data.resume = crate::render::standings::resume_command(dir);
    let mut packed = BTreeMap::new();
    let words = crate::rerun::SeatWords::default();
    for line in games {
        if let Some(text) = packed_game(line, settings, dir, &words)? {
            packed.insert(line.id, text);
        }
    }
    let extra = format!(
        "<script type=\"application/json\" id=\"dojo-games\">{}</script>\n",
        script_json(&packed)?
    );
    let title = format!(
        "{} league: {} bots, {} games",
        settings.game,
        settings.bots.len(),
        games.len()
    );
    page(&title, "report", &data, &refresh(&status), &extra)
}

/// The page of a `dojo compare` result.
pub fn compare(title: &str, data: &impl Serialize) -> Result<String> {
    page(title, "compare", data, "", "")
}

/// Writes a page ([`crate::output::write_file`]).
pub fn write(path: &Path, html: &str) -> Result<()> {
    crate::output::write_file(path, html.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_block() {
        let text = script_json(&["</script><script>alert(1)</script>", "<!--"]).unwrap();
        assert!(!text.contains('<'), "{text}");
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back[0], "</script><script>alert(1)</script>");
    }

    /// A 4-seat game of two partnerships that exists only here: its report
    /// page renders with the game's title and sides (its records have no
    /// replay, so none is packed).
    #[test]
    fn a_partnership_games_report_page_renders() {
        use dojo_league::report::{RunInfo, build_report};

        let game = dojo_testkit::partners::game();
        let names = ["ant", "bee", "cat", "dog"];
        let settings = dojo_league::Settings {
            game,
            bots: names
                .iter()
                .map(|n| dojo_league::Entrant {
                    name: (*n).into(),
                    command: (*n).into(),
                    dir: None,
                    fixed_team: None,
                    values: Default::default(),
                })
                .collect(),
            games: 12,
            seed: 1,
            boards: Vec::new(),
            controls: Default::default(),
            raises: Default::default(),
            faults: Default::default(),
            anchor: None,
            anchor_elo: None,
            gauntlet: None,
            sprt: None,
            shard: None,
            play: Default::default(),
        };
        let schedule = dojo_league::Schedule::build(&settings).unwrap();
        let games: Vec<GameLine> = schedule
            .iter()
            .map(|f| {
                let scores = if f.id % 3 == 0 {
                    vec![0.5; 4]
                } else {
                    let w = (f.id % 2) as usize;
                    (0..4).map(|s| if s % 2 == w { 1.0 } else { 0.0 }).collect()
                };
                let result = dojo_league::GameResult {
                    first_faults: Vec::new(),
                    faulty: Vec::new(),
                    prompts: Vec::new(),
                    scores,
                    faults: vec![Default::default(); 4],
                    record: serde_json::json!({ "game": "partners" }),
                    timing: serde_json::Value::Null,
                };
                GameLine::new(&f, result)
            })
            .collect();
        assert!(games.iter().all(|g| g.check(game).is_ok()));
        let report = build_report(
            &settings,
            &Default::default(),
            &games,
            schedule.len(),
            RunInfo::default(),
        );
        let status = PageStatus::now(PageState::Final, None);
        let html =
            super::report(&report, &settings, &games, Path::new("results/x"), status).unwrap();
        assert!(
            html.contains("partners league: 4 bots, 12 games"),
            "page title"
        );
        assert!(html.contains(r#""title":"Partners""#));
        assert!(html.contains(r#""sides":[0,1,0,1]"#));
        assert!(html.contains(r#""status":{"state":"final""#));
        // Only a live page reloads itself.
        let refresh = format!(
            "<meta http-equiv=\"refresh\" content=\"{}\">",
            crate::live::PAGE_INTERVAL.as_secs()
        );
        assert!(!html.contains(&refresh));
        for (state, reloads) in [(PageState::Live, true), (PageState::Running, false)] {
            let status = PageStatus::now(state, Some(40));
            let html = super::report(&report, &settings, &games, Path::new("x"), status).unwrap();
            assert_eq!(html.contains(&refresh), reloads, "{state:?}");
        }
    }

    #[test]
    fn fill_does_not_expand_placeholders_inside_values() {
        let values = BTreeMap::from([("a", "{{b}}"), ("b", "B")]);
        assert_eq!(fill("<{{a}}|{{b}}|{{c}}>", &values), "<{{b}}|B|{{c}}>");
    }
}

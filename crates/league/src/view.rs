//! What the HTML pages show, as typed values: a game record with what its
//! replay page derives from it (tile counts after every turn, the piles
//! and the winning triple's positions, the commands that play it again),
//! and a league report with every game's row and how the ratings moved as
//! games were played. The CLI serialises these into its pages; the rules
//! (what a turn changed, which cards form the triple) stay here and in the
//! engine, so the page's JavaScript only draws.

use std::path::Path;

use dojo_engine::cardjitsu::{Pile, Ruleset};
use dojo_engine::royale::{Effect, Team, Tile};
use serde::Serialize;

use crate::compare::CompareReport;
use crate::game::{CardJitsuRecord, RoyaleRecord};
use crate::rating;
use crate::replay::{ReplayError, RoyaleReplay, prompt_indices};
use crate::report::{Report, build_report, pair_results, rating_options};
use crate::schedule::{Schedule, ScheduleError};
use crate::settings::{GameKind, PlayOptions, Settings};
use crate::store::{self, GameLine, StoreError};

/// Where a record was read from, for the command that replays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSource {
    /// A record file (`dojo match --json`).
    File(String),
    /// Game `id` of the league directory `dir`.
    League { dir: String, id: u64 },
    /// A game just played whose record was not saved (no `--json`):
    /// nothing to rerun from.
    Unsaved,
}

impl RecordSource {
    /// `dojo replay ... --rerun`, when there is a saved record to name.
    fn rerun(&self) -> Option<String> {
        let mut words: Vec<String> = vec!["dojo".into(), "replay".into()];
        match self {
            RecordSource::File(path) => words.push(path.clone()),
            RecordSource::League { dir, id } => {
                words.extend([dir.clone(), "--game".into(), id.to_string()]);
            }
            RecordSource::Unsaved => return None,
        }
        words.push("--rerun".into());
        Some(shell_line(&words))
    }
}

/// Commands that show or play a recorded game again.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Commands {
    /// Plays the same game again from the record and says whether it
    /// comes out the same (`dojo replay ... --rerun`); `None` when the
    /// record was not saved.
    pub rerun: Option<String>,
    /// A fresh `dojo match` with the same bots, seats, seed and settings.
    #[serde(rename = "match")]
    pub play: String,
}

/// Shell words joined with the quoting a POSIX shell needs.
pub fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shlex::try_quote(w).map_or_else(|_| w.clone(), |q| q.into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One won card of a CardJitsu pile.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PileCard {
    /// The card's 3-character code (`FyA`).
    pub card: String,
    /// 0-based index of the round that won it.
    pub round: usize,
}

/// A CardJitsu record and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct CardJitsuView<'a> {
    pub record: &'a CardJitsuRecord,
    pub commands: Commands,
    /// Each player's won cards in the order they were won.
    pub piles: [Vec<PileCard>; 2],
    /// The winner's seat (0 or 1) and the positions of the winning triple
    /// in its pile, when the game was won by a triple.
    pub triple: Option<(usize, [usize; 3])>,
}

/// A royale record and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct RoyaleView<'a> {
    pub record: &'a RoyaleRecord,
    pub commands: Commands,
    pub width: usize,
    pub height: usize,
    /// Rock, paper and scissors tiles before any turn (`counts[0]`) and
    /// after each turn (`counts[i]` after turn `i`).
    pub counts: Vec<[u32; 3]>,
    /// For each turn, the index of its seat's prompt (where its latency
    /// and stderr are kept).
    pub prompts: Vec<usize>,
}

/// The page data of a CardJitsu record.
pub fn cardjitsu_view<'a>(rec: &'a CardJitsuRecord, source: &RecordSource) -> CardJitsuView<'a> {
    let mut piles = [Pile::default(), Pile::default()];
    let mut won: [Vec<PileCard>; 2] = [Vec::new(), Vec::new()];
    for (i, r) in rec.play.rounds.iter().enumerate() {
        if let Some(seat) = usize::from(r.winner).checked_sub(1).filter(|&s| s < 2) {
            piles[seat].push(r.cards[seat]);
            won[seat].push(PileCard {
                card: r.cards[seat].to_string(),
                round: i,
            });
        }
    }
    let triple = rec
        .play
        .outcome
        .as_ref()
        .and_then(|o| o.winner)
        .and_then(|n| usize::from(n).checked_sub(1).filter(|&s| s < 2))
        .and_then(|seat| piles[seat].winning_positions().map(|p| (seat, p)));
    CardJitsuView {
        record: rec,
        commands: cardjitsu_commands(rec, source),
        piles: won,
        triple,
    }
}

fn cardjitsu_commands(rec: &CardJitsuRecord, source: &RecordSource) -> Commands {
    let mut play: Vec<String> = ["dojo", "match", "cardjitsu"].map(String::from).into();
    play.extend(rec.seats.iter().map(|s| s.bot.clone()));
    play.extend([
        "--seed".into(),
        rec.play.seed.to_string(),
        "--rules".into(),
        rec.play.rules.to_string(),
        "--max-rounds".into(),
        rec.play.max_rounds.to_string(),
    ]);
    for (i, deck) in rec.decks.iter().enumerate() {
        if deck != "standard" {
            play.extend([format!("--deck{}", i + 1), deck.clone()]);
        }
    }
    Commands {
        rerun: source.rerun(),
        play: shell_line(&play),
    }
}

/// The page data of a royale record: the board is rebuilt turn by turn
/// from the recorded effects to count the tiles after every turn.
pub fn royale_view<'a>(
    rec: &'a RoyaleRecord,
    source: &RecordSource,
) -> Result<RoyaleView<'a>, ReplayError> {
    let state = RoyaleReplay::new(rec)?;
    let c = state.board.counts();
    let mut now = [c.rock, c.paper, c.scissors].map(|n| n as u32);
    let mut counts = Vec::with_capacity(rec.play.actions.len() + 1);
    counts.push(now);
    let slot = |t: Tile| match t {
        Tile::Rock => Some(0),
        Tile::Paper => Some(1),
        Tile::Scissors => Some(2),
        Tile::Wall | Tile::Empty => None,
    };
    for a in &rec.play.actions {
        if let Effect::Converted { from, to, .. } = a.effect {
            if let Some(i) = slot(from) {
                now[i] = now[i].saturating_sub(1);
            }
            if let Some(i) = slot(to) {
                now[i] += 1;
            }
        }
        counts.push(now);
    }
    Ok(RoyaleView {
        record: rec,
        commands: royale_commands(rec, source),
        width: state.board.width(),
        height: state.board.height(),
        counts,
        prompts: prompt_indices(&rec.play.actions),
    })
}

fn royale_commands(rec: &RoyaleRecord, source: &RecordSource) -> Commands {
    let mut play: Vec<String> = ["dojo", "match", "royale", "--board"]
        .map(String::from)
        .into();
    play.push(rec.board_file.clone());
    for (flag, team) in [("--rock", 'R'), ("--paper", 'P'), ("--scissors", 'S')] {
        let bots: Vec<&str> = rec
            .seats
            .iter()
            .filter(|s| s.team.map(|t| t.to_string()) == Some(team.to_string()))
            .map(|s| s.bot.as_str())
            .collect();
        play.extend([flag.to_owned(), bots.join(",")]);
    }
    play.extend([
        "--seed".into(),
        rec.play.seed.to_string(),
        "--max-rounds".into(),
        rec.play.settings.max_rounds.to_string(),
        "--stall-rounds".into(),
        rec.play.settings.stall_rounds.to_string(),
    ]);
    Commands {
        rerun: source.rerun(),
        play: shell_line(&play),
    }
}

/// One game of a league, as its report lists it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameRow {
    pub id: u64,
    pub seats: Vec<String>,
    /// Royale: each seat's team.
    pub teams: Vec<Team>,
    pub board: Option<String>,
    pub scores: Vec<f64>,
    /// Per seat: all faults (timeouts, crashes, invalid answers).
    pub faults: Vec<u64>,
    /// Rounds played, from the record's outcome.
    pub rounds: Option<u64>,
    /// Why the game ended, from the record's outcome.
    pub reason: Option<String>,
}

impl GameRow {
    fn new(g: &GameLine) -> GameRow {
        let outcome = g.record.get("outcome");
        GameRow {
            id: g.id,
            seats: g.seats.clone(),
            teams: g.teams.clone(),
            board: g.board.clone(),
            scores: g.scores.clone(),
            faults: g
                .faults
                .iter()
                .map(|f| f.timeout + f.crash + f.invalid)
                .collect(),
            rounds: outcome
                .and_then(|o| o.get("rounds"))
                .and_then(|r| r.as_u64()),
            reason: outcome
                .and_then(|o| o.get("reason"))
                .and_then(|r| r.as_str())
                .map(str::to_owned),
        }
    }
}

/// The ratings after the first `games` games (in id order).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RatingPoint {
    pub games: usize,
    /// In the order of [`ReportView::names`].
    pub elo: Vec<f64>,
}

/// A league report and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct ReportView<'a> {
    pub report: &'a Report,
    /// `dojo league ...` that plays this league.
    pub command: String,
    /// Bot names in sorted order (the order of [`RatingPoint::elo`]).
    pub names: Vec<String>,
    pub games: Vec<GameRow>,
    pub history: Vec<RatingPoint>,
}

/// How many points [`rating_history`] computes at most.
pub const HISTORY_POINTS: usize = 40;

/// The ratings after growing prefixes of `games` (sorted by id, which is
/// schedule order, so every prefix covers all pairings about evenly): up
/// to [`HISTORY_POINTS`] fits without bootstrap.
pub fn rating_history(settings: &Settings, games: &[GameLine]) -> Vec<RatingPoint> {
    let names = settings.sorted_names();
    let n = games.len();
    if n == 0 {
        return Vec::new();
    }
    let steps = n.min(HISTORY_POINTS);
    let mut opts = rating_options(settings, &names);
    opts.bootstrap = 0;
    let mut out = Vec::with_capacity(steps);
    let mut results = Vec::new();
    let mut done = 0;
    for k in 1..=steps {
        let upto = n * k / steps;
        results.extend(pair_results(&names, &games[done..upto]));
        done = upto;
        let fitted = rating::fit(names.len(), &results, &opts);
        out.push(RatingPoint {
            games: upto,
            elo: fitted.iter().map(|r| r.elo).collect(),
        });
    }
    out
}

/// The `dojo league` command line that plays the league of `settings`.
pub fn league_command(settings: &Settings) -> String {
    let mut words: Vec<String> = vec!["dojo".into(), "league".into(), settings.game.to_string()];
    words.extend(settings.bots.iter().map(|b| b.command.clone()));
    words.extend([
        "--games".into(),
        settings.games.to_string(),
        "--seed".into(),
        settings.seed.to_string(),
        "--timeout-ms".into(),
        settings.timeout_ms.to_string(),
    ]);
    if settings.game == GameKind::Royale && !settings.boards.is_empty() {
        words.push("--board".into());
        words.extend(settings.boards.iter().cloned());
    }
    if let Some(anchor) = &settings.anchor {
        words.push("--anchor".into());
        words.push(match settings.anchor_elo {
            Some(elo) => format!("{anchor}={elo}"),
            None => anchor.clone(),
        });
    }
    let (play, defaults) = (&settings.play, PlayOptions::default());
    if play.rules == Ruleset::Classic {
        words.extend(["--rules".into(), "classic".into()]);
    }
    for (flag, deck) in ["--deck1", "--deck2"].into_iter().zip(&play.decks) {
        if deck != "standard" {
            words.extend([flag.into(), deck.clone()]);
        }
    }
    for (flag, limit) in [
        ("--max-rounds", play.max_rounds),
        ("--stall-rounds", play.stall_rounds),
    ] {
        if let Some(n) = limit {
            words.extend([flag.into(), n.to_string()]);
        }
    }
    if play.startup_ms != defaults.startup_ms {
        words.extend(["--startup-ms".into(), play.startup_ms.to_string()]);
    }
    if play.time != defaults.time {
        words.extend(["--time".into(), play.time.name().into()]);
    }
    if play.overage_ms != defaults.overage_ms {
        words.extend(["--overage-ms".into(), play.overage_ms.to_string()]);
    }
    if let Some(ms) = play.game_ms {
        words.extend(["--game-ms".into(), ms.to_string()]);
    }
    if play.pin {
        words.push("--pin".into());
    }
    if let Some(shard) = settings.shard {
        words.extend(["--shard".into(), shard.to_string()]);
    }
    shell_line(&words)
}

/// The page data of a league report; `games` sorted by id.
pub fn report_view<'a>(
    report: &'a Report,
    settings: &Settings,
    games: &[GameLine],
) -> ReportView<'a> {
    ReportView {
        report,
        command: league_command(settings),
        names: settings.sorted_names(),
        games: games.iter().map(GameRow::new).collect(),
        history: rating_history(settings, games),
    }
}

/// A `dojo compare` result and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct CompareView<'a, B: Serialize> {
    /// Who played and how (as the CLI describes the bots).
    pub bots: B,
    /// The result, with the test's course block by block in its `trace`.
    pub report: &'a CompareReport,
    /// The command line that ran the comparison.
    pub command: String,
}

/// The page data of a comparison.
pub fn compare_view<B: Serialize>(
    report: &CompareReport,
    bots: B,
    command: String,
) -> CompareView<'_, B> {
    CompareView {
        bots,
        report,
        command,
    }
}

/// Why a league directory could not be read for its report.
#[derive(Debug, thiserror::Error)]
pub enum LeagueReadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Sprt(#[from] crate::stop::SprtSetupError),
}

/// A league directory read for its report: its settings, its games sorted
/// by id, and the report rebuilt from them (the same function `dojo
/// league` uses, so it equals `report.json` apart from `timing`, which is
/// taken from `report.json` when there is one).
pub fn read_league(dir: &Path) -> Result<(Settings, Vec<GameLine>, Report), LeagueReadError> {
    let settings = store::load_settings(dir)?;
    let mut games = store::read_games(dir, false)?;
    games.sort_by_key(|g| g.id);
    let schedule = Schedule::build(&settings)?;
    let scheduled = schedule.selected_len(settings.shard);
    let timing = std::fs::read(dir.join(store::REPORT_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Report>(&bytes).ok())
        .map(|r| r.timing)
        .unwrap_or_default();
    let mut report = build_report(&settings, &games, scheduled, timing);
    crate::stop::add_to_report(&mut report, &settings, &schedule, &games)?;
    Ok((settings, games, report))
}

#[cfg(test)]
mod tests {
    use dojo_engine::cardjitsu::{self, CardJitsu};

    use super::*;
    use crate::game::{RECORD_VERSION, SeatInfo, Timing};

    fn seat(i: usize, bot: &str) -> SeatInfo {
        SeatInfo {
            seat: i,
            bot: bot.into(),
            command: vec!["python3".into(), "bot.py".into()],
            team: None,
            dir: None,
            fingerprint: None,
        }
    }

    #[test]
    fn cardjitsu_view_finds_the_engines_triple_in_the_pile() {
        // Play until someone wins, always the first card.
        let mut game = CardJitsu::new(11, cardjitsu::Settings::default());
        while game.outcome().is_none() {
            game.play([0, 0]);
        }
        let rec = CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats: vec![seat(0, "a"), seat(1, "b b")],
            decks: ["standard".into(), "my deck.dcfg".into()],
            play: game.into_record(),
            conduct: Vec::new(),
            stderr: Vec::new(),
            timing: Timing::default(),
        };
        let view = cardjitsu_view(&rec, &RecordSource::File("g.json".into()));
        let outcome = rec.play.outcome.as_ref().unwrap();
        if let Some(cards) = outcome.winning_cards {
            let (seat, at) = view.triple.expect("a won game has a triple");
            assert_eq!(usize::from(outcome.winner.unwrap()), seat + 1);
            let shown: Vec<String> = at
                .iter()
                .map(|&i| view.piles[seat][i].card.clone())
                .collect();
            assert_eq!(shown, cards.map(|c| c.to_string()));
        }
        let won: usize = rec.play.rounds.iter().filter(|r| r.winner != 0).count();
        assert_eq!(view.piles[0].len() + view.piles[1].len(), won);
        assert_eq!(
            view.commands.rerun.as_deref(),
            Some("dojo replay g.json --rerun")
        );
        assert!(
            view.commands
                .play
                .starts_with("dojo match cardjitsu a 'b b' --seed 11")
        );
        assert!(view.commands.play.ends_with("--deck2 'my deck.dcfg'"));
    }

    #[test]
    fn the_league_command_carries_the_play_options() {
        let bot = |name: &str| crate::settings::Entrant {
            name: name.into(),
            command: name.into(),
            fixed_team: None,
            values: Default::default(),
        };
        let mut settings = Settings {
            game: GameKind::Cardjitsu,
            bots: vec![bot("a"), bot("b")],
            games: 4,
            seed: 7,
            boards: Vec::new(),
            timeout_ms: 500,
            anchor: None,
            anchor_elo: None,
            gauntlet: None,
            sprt: None,
            shard: None,
            play: PlayOptions::default(),
            limits: Default::default(),
        };
        assert_eq!(
            league_command(&settings),
            "dojo league cardjitsu a b --games 4 --seed 7 --timeout-ms 500"
        );
        settings.play = PlayOptions {
            rules: Ruleset::Classic,
            decks: ["standard".into(), "/decks/x.dcfg".into()],
            max_rounds: Some(40),
            stall_rounds: None,
            startup_ms: 3000,
            time: dojo_runner::TimeMode::Cpu,
            overage_ms: 2000,
            pin: true,
            ..PlayOptions::default()
        };
        assert_eq!(
            league_command(&settings),
            "dojo league cardjitsu a b --games 4 --seed 7 --timeout-ms 500 --rules classic \
             --deck2 /decks/x.dcfg --max-rounds 40 --startup-ms 3000 --time cpu \
             --overage-ms 2000 --pin"
        );
    }
}

//! The league report: a pure function of the settings and the stored
//! games, so every way of playing the same games (any `--jobs`, resumed,
//! sharded and merged) yields the same report apart from `timing` and
//! the measured figures of each standing (`moves`, `startup_answers`,
//! `peak_memory_mib`).

use dojo_engine::rng::derive_seed;
use serde::{Deserialize, Serialize};

use crate::executor::SeatFaults;
use crate::schedule::fnv1a64;
use crate::settings::{FaultPolicy, Game, Origin, Raises, Settings};
use crate::stop::{GauntletSprt, GauntletStop};
use crate::store::GameLine;
use crate::tally::LeagueTally;
use dojo_stats::rating;

/// Version of the `report.json` format (defined with the others in
/// `dojo_games::formats`).
pub use dojo_games::formats::REPORT_FORMAT_VERSION;
/// The rating the `--anchor` bot is pinned at unless another is given.
pub const ANCHOR_ELO: f64 = 1500.0;
/// A bot with at least this many faults (timeouts, crashes and invalid
/// answers) per game it played is flagged in the standings: its results say
/// more about a broken bot than about its play.
pub const FLAG_FAULTS_PER_GAME: f64 = 1.0;
/// Bootstrap resamples for the rating intervals.
pub const BOOTSTRAP_SAMPLES: usize = 200;

/// `report.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub version: u32,
    pub game: Game,
    #[serde(with = "dojo_engine::rng::seed_json")]
    pub seed: u64,
    pub anchor: Option<String>,
    /// The league as `league.json` holds it: bots with their commands,
    /// games per pairing, boards, time limit (the shard is left out, so a
    /// merged report equals a single run's).
    pub settings: Settings,
    /// Fixtures this directory plays (all of them unless sharded).
    pub games_scheduled: u64,
    pub games_played: u64,
    /// Every scheduled game has been played.
    pub complete: bool,
    /// Sorted by rating (descending), then name.
    pub standings: Vec<Standing>,
    /// Every pair of bots that met, by names (`a` < `b`).
    pub pairs: Vec<HeadToHead>,
    pub totals: Totals,
    /// What every game was played under: the clock, the league-wide
    /// limits and each bot's values in force (the same facts as
    /// `settings`, spelled out with the defaults filled in). Absent in
    /// reports from before it existed.
    #[serde(default)]
    pub conditions: Conditions,
    /// The `dojo league` command that plays this league again from any
    /// directory, as an argv list (`crate::command`).
    #[serde(default)]
    pub command: Vec<String>,
    /// About this run only; the one section that may differ between runs
    /// of the same games.
    pub timing: RunInfo,
    /// A gauntlet with a stop rule: each opponent's sequential test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<GauntletSprt>,
    /// The bots whose new version replaced the one that started
    /// (`--replace`): the standings count only the new version's games;
    /// the old one's stay in `games.jsonl`, marked retired.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<crate::settings::LateEntry>,
    /// The entries of the bots folder the league does not play, with why
    /// (`league.json`'s `origin.excluded`); absent when none was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<crate::Excluded>,
    /// Bots whose faulty games fall on one opponent ([`Concentrated`]);
    /// absent when none did, and in reports from before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concentrated_faults: Vec<Concentrated>,
}

/// A bot faulty in most of its games against one opponent and seldom in
/// its others: each such fault handed that opponent the game (under
/// `forfeit`), which is how one author's second entry can carry the first
/// (`concentrated` says when).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concentrated {
    pub bot: String,
    pub opponent: String,
    /// Games against `opponent` in which `bot` was faulty, of `games`.
    pub faulty: u64,
    pub games: u64,
    /// The same in its other games.
    pub faulty_elsewhere: u64,
    pub games_elsewhere: u64,
}

/// The least faulty games against one opponent that `concentrated`
/// reads as a pattern rather than chance.
pub const CONCENTRATED_LEAST: u64 = 3;

/// Whether `bot`'s `faulty` games of `games` against one opponent stand
/// out from its `faulty_elsewhere` of `games_elsewhere` against the rest:
/// at least [`CONCENTRATED_LEAST`], at least half of their meetings, and
/// at most one in ten of its other games (a bot that crashes everywhere is
/// `FAULTY`, not this).
fn concentrated(faulty: u64, games: u64, faulty_elsewhere: u64, games_elsewhere: u64) -> bool {
    faulty >= CONCENTRATED_LEAST
        && 2 * faulty >= games
        && games_elsewhere > 0
        && 10 * faulty_elsewhere <= games_elsewhere
}

impl Report {
    /// Puts a gauntlet's stop rule into the report: its tests, and
    /// `complete` once they have all ended.
    pub(crate) fn add_stop_rule(&mut self, rule: &GauntletStop) {
        self.complete |= rule.finished();
        self.sprt = Some(rule.report());
    }
}

/// The time controls and limits of a league, every value explicit: the
/// league's [`dojo_runner::Controls`] spelled out for readers of the report
/// (and `dojo compare --json`), with each bot's values in force.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    pub time: TimeControls,
    /// The league-wide resource limits of each bot process (`null`:
    /// unlimited).
    pub limits: SpelledLimits,
    /// What a bot's manifest may do with a value above the league's.
    pub raises: Raises,
    /// What a fault costs (`rule` `forfeit` with its `max_share`, or
    /// `fallback`). Absent in reports from before fault policies, which
    /// were all `fallback`.
    #[serde(default = "FaultPolicy::before_policies")]
    pub faults: FaultPolicy,
    /// Each bot's limits and time values in force, by name.
    pub bots: Vec<BotConditions>,
}

/// One set of resolved controls as reports spell them: the clock and the
/// resource limits in the flags' units (`dojo compare --json`'s
/// `conditions`; a league report's [`Conditions`] and each of its
/// [`BotConditions`] hold the same two parts). [`TimeControls::of`] and
/// [`SpelledLimits::of`] are the one mapping from [`dojo_runner::Controls`]
/// into this spelling; the JSON keys of every value a bot may set are the
/// names of its `bot.toml` key (checked against [`dojo_runner::CONTROLS`]
/// by a test).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Spelled {
    pub time: TimeControls,
    pub limits: SpelledLimits,
}

impl Spelled {
    /// `c` as reports spell it.
    pub fn of(c: &dojo_runner::Controls) -> Spelled {
        Spelled {
            time: TimeControls::of(c),
            limits: SpelledLimits::of(c),
        }
    }
}

/// The clock of a league (`docs/protocols.md`, "Time").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeControls {
    /// `wall` or `cpu`.
    pub mode: dojo_runner::TimeMode,
    /// With `cpu`: a move also ends after this many times its budget on
    /// the wall clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_backstop: Option<u32>,
    pub timeout_ms: u64,
    pub startup_ms: u64,
    pub overage_ms: u64,
    /// `null`: no per-game budget.
    pub game_ms: Option<u64>,
    /// Each game's bots on one core.
    pub pin: bool,
}

/// The resource limits of each bot process, in the flags' units.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpelledLimits {
    pub memory_mib: Option<u64>,
    pub cpu_s: Option<u64>,
    pub processes: u64,
    pub files: u64,
    pub file_size_mib: u64,
}

/// One bot's values in force.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BotConditions {
    pub name: String,
    pub limits: SpelledLimits,
    pub time: TimeControls,
    /// The keys (`limits.memory_mib`, `time.timeout_ms`, ...) that are the
    /// bot's own, from its `bot.toml`, rather than the league's.
    pub own: Vec<String>,
}

impl TimeControls {
    /// The clock of `c`.
    pub fn of(c: &dojo_runner::Controls) -> TimeControls {
        let ms = dojo_runner::as_ms;
        TimeControls {
            mode: c.time,
            wall_backstop: (c.time == dojo_runner::TimeMode::Cpu)
                .then_some(dojo_runner::RunOptions::default().wall_backstop),
            timeout_ms: ms(c.timeout),
            startup_ms: ms(c.startup),
            overage_ms: ms(c.overage),
            game_ms: c.game_budget.map(ms),
            pin: c.pin,
        }
    }
}

impl SpelledLimits {
    /// The limits of `c`.
    pub fn of(c: &dojo_runner::Controls) -> SpelledLimits {
        SpelledLimits {
            memory_mib: c.memory_mib,
            cpu_s: c.cpu_s,
            processes: c.processes,
            files: c.files,
            file_size_mib: c.file_size_mib,
        }
    }
}

impl Conditions {
    /// The conditions of a run under `controls` and `raises`, whose bots
    /// (by name) have their own `values`.
    pub fn new<'a>(
        controls: &dojo_runner::Controls,
        raises: Raises,
        faults: FaultPolicy,
        bots: impl IntoIterator<Item = (&'a str, &'a dojo_runner::BotValues)>,
    ) -> Conditions {
        let mut bots: Vec<BotConditions> = bots
            .into_iter()
            .map(|(name, values)| {
                let Spelled { time, limits } = Spelled::of(&controls.with_bot(values));
                BotConditions {
                    name: name.to_owned(),
                    limits,
                    time,
                    own: dojo_runner::CONTROLS
                        .iter()
                        .filter_map(|c| c.bot_key)
                        .filter(|k| values.get(k).is_some())
                        .map(str::to_owned)
                        .collect(),
                }
            })
            .collect();
        bots.sort_by(|a, b| a.name.cmp(&b.name));
        let Spelled { time, limits } = Spelled::of(controls);
        Conditions {
            time,
            limits,
            raises,
            faults,
            bots,
        }
    }

    /// The conditions `settings` describe.
    pub fn of(settings: &Settings) -> Conditions {
        Conditions::new(
            &settings.controls,
            settings.raises,
            settings.faults,
            settings.bots.iter().map(|b| (b.name.as_str(), &b.values)),
        )
    }
}

/// One bot's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// 1-based position in the standings.
    pub rank: u64,
    pub name: String,
    /// Games played: a royale bot seated twice in one game counts it once,
    /// with its best seat's result (a win when either of its teams won).
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// 100 * (wins + draws / 2) / games, to one decimal (`pct`).
    pub score_pct: f64,
    pub faults: SeatFaults,
    pub rating: f64,
    /// 95% interval of the rating.
    pub rating_lo: f64,
    pub rating_hi: f64,
    /// Faults reached [`FLAG_FAULTS_PER_GAME`] per game: look at the bot's
    /// stderr log before trusting its rating.
    #[serde(default)]
    pub flagged: bool,
    /// Games in which a seat of the bot was faulty under the league's
    /// fault policy (a stored game's `faulty`): under `forfeit`, games it
    /// lost by forfeit (or drew, where every side was faulty); under
    /// `fallback`, games whose faults the board decided. Absent (0) in
    /// reports written before it was counted.
    #[serde(default)]
    pub faulty_games: u64,
    /// How many moves the bot was timed on, and their wall and CPU times
    /// (p50, p95, max, in ms): measurements, which differ between runs
    /// of the same games (with `peak_memory_mib`, the only part of the
    /// standings that does). `null` where no move was timed; absent in
    /// reports before version 4.
    #[serde(default)]
    pub moves: Option<dojo_games::MoveFigures>,
    /// The answers that had the start-up allowance (each game's first,
    /// and a long-lived bot's first after a restart), which `moves`
    /// leaves out: `count` and `wall_ms`, the bot's start included, held
    /// against the move timeout plus the start-up allowance. Absent where
    /// there were none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_answers: Option<dojo_games::StartupFigures>,
    /// The most memory the bot's processes used at once in any of its
    /// games (its box's memory group), in MiB; `null` where not measured.
    #[serde(default)]
    pub peak_memory_mib: Option<f64>,
    /// The bot's first crash (else its first fault of another kind) with
    /// the last lines it wrote to stderr in that game; absent for a bot
    /// without faults, and where its faults came only in games stored
    /// before `games.jsonl` kept first faults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_fault: Option<StandingFault>,
}

/// A bot's first fault in the league ([`Standing::first_fault`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingFault {
    /// The game's id (`games.jsonl`, `dojo replay DIR --game ID`).
    pub game: u64,
    /// The round it came in; `null` where the record places it in none.
    pub round: Option<u32>,
    pub kind: dojo_games::record::FaultKind,
    /// For an invalid answer: why it was not a move, quoting it. Absent
    /// otherwise, and for games stored before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
    /// The last lines (at most 12) the bot wrote to stderr in that game,
    /// up to the end of the fault's prompt.
    pub stderr_tail: Vec<String>,
}

/// Results between two bots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    pub a: String,
    pub b: String,
    /// Games in which both played (on different seats/teams).
    pub games: u64,
    /// Pairwise results between them (royale AAB games give two).
    pub results: u64,
    /// `a`'s score in those results, in percent, to one decimal (`pct`).
    pub score_a_pct: f64,
}

/// Whole-league counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub games: u64,
    /// Games some seat won.
    pub decisive: u64,
    /// Games every side drew.
    pub drawn: u64,
    /// Games where some sides drew and a faulty side lost by forfeit (a
    /// royale game under `forfeit`): neither decisive nor drawn. Absent
    /// (0) in reports written before it was counted, which counted such
    /// games as drawn.
    #[serde(default)]
    pub split: u64,
    pub faults: SeatFaults,
}

/// What happened in the run that wrote the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub wall_ms: u64,
    /// Games finished by this run (not loaded from an earlier one).
    pub games_this_run: u64,
    /// Games that failed in this run; they stay pending for a resume.
    pub failed: Vec<FailedGame>,
    /// The run was cancelled before the schedule was done.
    pub cancelled: bool,
    /// The bot containment this run's games had (`dojo doctor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containment: Option<dojo_runner::InForce>,
    /// Bot boxes this run's games made: each serves later games of its
    /// bot, so a league that reuses them well makes few (0: none, or no
    /// boxes at all).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub boxes_made: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A game that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedGame {
    pub id: u64,
    pub error: String,
}

pub use dojo_stats::elo::pair_score;

/// The pairwise results the ratings are fitted to, in game order; bots are
/// indices into `names` (sorted). Seats are compared when they are on
/// different sides of `game` (partners are not compared with each other).
/// Games naming unknown bots, or not of the game's shape, are skipped.
pub fn pair_results(game: Game, names: &[String], games: &[GameLine]) -> Vec<rating::PairResult> {
    let shape = game.shape();
    let mut out = Vec::new();
    for g in games {
        let Some(idx) = seat_indices(names, g).filter(|idx| idx.len() == shape.seats()) else {
            continue;
        };
        out.extend(
            crate::tally::pairwise(shape, &idx, &g.scores).map(|(i, j, score_a)| {
                rating::PairResult {
                    a: idx[i],
                    b: idx[j],
                    score_a,
                    group: g.pair,
                }
            }),
        );
    }
    out
}

fn seat_indices(names: &[String], g: &GameLine) -> Option<Vec<usize>> {
    if g.scores.len() != g.seats.len() {
        return None;
    }
    g.seats
        .iter()
        .map(|s| names.binary_search(s).ok())
        .collect()
}

/// All rating fits go through here, so swapping the implementation is one
/// line (the `use` above).
fn fit_ratings(
    settings: &Settings,
    names: &[String],
    results: &rating::GroupedResults,
) -> Vec<rating::Rating> {
    rating::fit_grouped(results, &rating_options(settings, names))
}

/// The options every league rating fit uses: the anchor, the bootstrap
/// and its seed (also used by the report page's rating history).
pub(crate) fn rating_options(settings: &Settings, names: &[String]) -> rating::RatingOptions {
    let anchor = settings
        .anchor
        .as_ref()
        .and_then(|a| names.binary_search(a).ok())
        .map(|i| (i, settings.anchor_elo.unwrap_or(ANCHOR_ELO)));
    rating::RatingOptions {
        anchor,
        bootstrap: BOOTSTRAP_SAMPLES,
        seed: derive_seed(settings.seed, &[fnv1a64("ratings")]),
    }
}

/// Builds the report. `games` may come in any order (the result does
/// not depend on it); `scheduled` is the number of fixtures the directory
/// plays; `timing` is copied as is.
pub fn build_report(
    settings: &Settings,
    origin: &Origin,
    games: &[GameLine],
    scheduled: u64,
    timing: RunInfo,
) -> Report {
    let mut tally = LeagueTally::new(settings.sorted_names(), settings.game);
    for g in games {
        tally.add(g);
    }
    build_report_from(settings, origin, &tally, scheduled, timing)
}

/// [`build_report`] from the games' sums ([`LeagueTally`], made with
/// `settings.sorted_names()`), which a running league keeps instead of
/// its games.
pub fn build_report_from(
    settings: &Settings,
    origin: &Origin,
    tally: &LeagueTally,
    scheduled: u64,
    timing: RunInfo,
) -> Report {
    let names = tally.names();
    let totals = Totals {
        games: tally.games,
        decisive: tally.decisive,
        drawn: tally.drawn,
        split: tally.split,
        faults: tally.faults,
    };
    let tallies = &tally.bots;
    let ratings = fit_ratings(settings, names, &tally.ratings);

    let mut standings: Vec<Standing> = names
        .iter()
        .zip(tallies)
        .zip(&ratings)
        .map(|((name, t), r)| Standing {
            rank: 0,
            name: name.clone(),
            games: t.games,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score_pct: pct(t.score, t.games),
            faults: t.faults,
            rating: r.elo,
            rating_lo: r.lo,
            rating_hi: r.hi,
            flagged: t.games > 0
                && t.faults.total() as f64 >= FLAG_FAULTS_PER_GAME * t.games as f64,
            faulty_games: t.faulty_games,
            moves: t.moves.moves(),
            startup_answers: t.moves.startup_answers(),
            peak_memory_mib: t.moves.peak_memory_mib(),
            first_fault: t
                .first_fault
                .as_ref()
                .map(crate::tally::FirstFaultAt::standing),
        })
        .collect();
    standings.sort_by(|x, y| {
        y.rating
            .total_cmp(&x.rating)
            .then_with(|| x.name.cmp(&y.name))
    });
    for (i, s) in standings.iter_mut().enumerate() {
        s.rank = i as u64 + 1;
    }

    let pairs = head_to_head(names, tally);
    let played = totals.games;
    Report {
        version: REPORT_FORMAT_VERSION,
        game: settings.game,
        seed: settings.seed,
        anchor: settings.anchor.clone(),
        settings: Settings {
            shard: None,
            ..settings.clone()
        },
        games_scheduled: scheduled,
        games_played: played,
        complete: played >= scheduled,
        standings,
        pairs,
        totals,
        conditions: Conditions::of(settings),
        command: crate::command::league_argv(settings, origin),
        timing,
        sprt: None,
        replaced: origin
            .late
            .iter()
            .filter(|l| l.kind == crate::settings::LateKind::Replaced)
            .cloned()
            .collect(),
        excluded: origin.excluded.clone(),
        concentrated_faults: concentrations(names, tally),
    }
}

/// Every (bot, opponent) whose faults are [`concentrated`], by bot and
/// opponent name.
fn concentrations(names: &[String], tally: &LeagueTally) -> Vec<Concentrated> {
    let mut found = Vec::new();
    for (&(a, b), p) in &tally.pairs {
        for (side, (bot, opponent)) in [(a, b), (b, a)].into_iter().enumerate() {
            let faulty = p.faulty[side];
            let t = &tally.bots[bot];
            let (faulty_elsewhere, games_elsewhere) = (
                t.faulty_games.saturating_sub(faulty),
                t.games.saturating_sub(p.games),
            );
            if concentrated(faulty, p.games, faulty_elsewhere, games_elsewhere) {
                found.push(Concentrated {
                    bot: names[bot].clone(),
                    opponent: names[opponent].clone(),
                    faulty,
                    games: p.games,
                    faulty_elsewhere,
                    games_elsewhere,
                });
            }
        }
    }
    found.sort_by(|x, y| (&x.bot, &x.opponent).cmp(&(&y.bot, &y.opponent)));
    found
}

/// `score` of `games` in percent, rounded to one decimal, half away from
/// zero (61 of 80: 76.3). Rounded here, once, so every renderer shows the
/// same figure: the terminal's `{:.1}` and the page's `toLocaleString`
/// round a tie differently (76.25: 76.2 and 76.3), but both print a
/// value already at one decimal as it is.
fn pct(score: f64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        (1000.0 * score / games as f64).round() / 10.0
    }
}

fn head_to_head(names: &[String], tally: &LeagueTally) -> Vec<HeadToHead> {
    tally
        .pairs
        .iter()
        .map(|(&(a, b), p)| HeadToHead {
            a: names[a].clone(),
            b: names[b].clone(),
            games: p.games,
            results: p.results,
            score_a_pct: pct(p.score, p.results),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Entrant;

    fn line(id: u64, seats: &[&str], scores: &[f64]) -> GameLine {
        GameLine {
            version: 1,
            id,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            teams: dojo_games::seat_roles(Game::ROYALE.shape()),
            board: None,
            pair: id,
            leg: 0,
            seed: 0,
            scores: scores.to_vec(),
            faults: vec![SeatFaults::default(); seats.len()],
            faulty: Vec::new(),
            first_faults: Vec::new(),
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
            retired: None,
        }
    }

    #[test]
    fn royale_pairwise_model() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // a wins: a beats b and c, b and c draw.
        let win = pair_results(
            Game::ROYALE,
            &names,
            &[line(0, &["a", "b", "c"], &[1.0, 0.0, 0.0])],
        );
        let got: Vec<_> = win.iter().map(|r| (r.a, r.b, r.score_a)).collect();
        assert_eq!(got, vec![(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]);
        // A drawn game is a draw for each pair.
        let draw = pair_results(
            Game::ROYALE,
            &names,
            &[line(1, &["c", "a", "b"], &[0.5; 3])],
        );
        assert!(draw.iter().all(|r| r.score_a == 0.5));
        assert_eq!(draw.len(), 3);
        // A bot never scores against itself: AAB gives two results.
        let aab = pair_results(
            Game::ROYALE,
            &names,
            &[line(2, &["a", "a", "b"], &[0.0, 0.0, 1.0])],
        );
        let got: Vec<_> = aab.iter().map(|r| (r.a, r.b, r.score_a)).collect();
        assert_eq!(got, vec![(0, 1, 0.0), (0, 1, 0.0)]);
    }

    /// A bot faulty in most of its games against one opponent and in
    /// none of its others is named with that opponent; one faulty
    /// everywhere, or against an opponent only twice, is not.
    #[test]
    fn faults_that_fall_on_one_opponent_are_named() {
        let names: Vec<String> = ["m", "o", "p", "s", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut id = 0;
        let mut game = |a: &str, b: &str, faulty: Vec<usize>| {
            id += 1;
            let mut g = line(id, &[a, b], &[0.5, 0.5]);
            g.teams = dojo_games::seat_roles(Game::CARDJITSU.shape());
            g.faulty = faulty;
            g
        };
        let mut games = Vec::new();
        for _ in 0..4 {
            // s forfeits every game against m, none against o and p.
            games.push(game("s", "m", vec![0]));
            games.push(game("s", "o", vec![]));
            games.push(game("p", "s", vec![]));
            // x is faulty everywhere; p only twice against o.
            games.push(game("x", "m", vec![0]));
            games.push(game("o", "x", vec![1]));
        }
        games.push(game("p", "o", vec![0]));
        games.push(game("p", "o", vec![0]));
        games.push(game("p", "m", vec![]));
        let mut tally = LeagueTally::new(names.clone(), Game::CARDJITSU);
        for g in &games {
            assert!(tally.add(g));
        }
        assert_eq!(
            concentrations(&names, &tally),
            [Concentrated {
                bot: "s".into(),
                opponent: "m".into(),
                faulty: 4,
                games: 4,
                faulty_elsewhere: 0,
                games_elsewhere: 8,
            }]
        );
    }

    #[test]
    fn tallies_and_standings() {
        let bots = ["a", "b", "c"]
            .iter()
            .map(|n| Entrant {
                name: n.to_string(),
                command: String::new(),
                dir: None,
                fixed_team: None,
                values: Default::default(),
            })
            .collect();
        let settings = Settings {
            game: Game::ROYALE,
            bots,
            games: 3,
            seed: 1,
            boards: vec![],
            controls: dojo_runner::Controls {
                timeout: std::time::Duration::from_millis(10),
                ..dojo_runner::Controls::default()
            },
            raises: Raises::Allow,
            faults: Default::default(),
            anchor: Some("b".into()),
            anchor_elo: None,
            gauntlet: None,
            sprt: None,
            shard: None,
            play: Default::default(),
        };
        let games = vec![
            line(0, &["a", "b", "c"], &[1.0, 0.0, 0.0]),
            line(1, &["b", "c", "a"], &[0.0, 0.0, 1.0]),
            line(2, &["c", "a", "b"], &[0.5, 0.5, 0.5]),
        ];
        let r = build_report(&settings, &Origin::default(), &games, 3, RunInfo::default());
        assert!(r.complete);
        assert_eq!(r.standings[0].name, "a");
        assert_eq!(
            (
                r.standings[0].wins,
                r.standings[0].draws,
                r.standings[0].losses
            ),
            (2, 1, 0)
        );
        assert_eq!(r.standings[0].score_pct, 83.3);
        let b = r.standings.iter().find(|s| s.name == "b").unwrap();
        assert_eq!(b.rating, ANCHOR_ELO);
        assert_eq!((r.totals.decisive, r.totals.drawn), (2, 1));
        let ab = &r.pairs[0];
        assert_eq!((ab.a.as_str(), ab.b.as_str(), ab.games), ("a", "b", 3));
        assert_eq!(ab.score_a_pct, 83.3);
    }

    #[test]
    fn a_percentage_is_rounded_once_so_every_renderer_shows_the_same() {
        // 61 of 80 is 76.25: the terminal's `{:.1}` printed 76.2, the
        // page 76.3.
        assert_eq!(pct(61.0, 80), 76.3);
        assert_eq!(format!("{:.1}", pct(61.0, 80)), "76.3");
        assert_eq!(pct(1.0, 8), 12.5);
        assert_eq!(pct(1.0, 3), 33.3);
        assert_eq!(pct(2.0, 3), 66.7);
        assert_eq!(pct(0.0, 0), 0.0);
    }

    #[test]
    fn conditions_spell_out_the_clock_and_each_bots_values() {
        let mut settings: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu",
            "bots": [
                {"name": "slow", "command": "slow",
                 "values": {"time": {"timeout_ms": 900}, "limits": {"memory_mib": 4096}}},
                {"name": "fast", "command": "fast"},
            ],
            "games": 2, "seed": "1", "raises": "cap",
            "controls": dojo_runner::Controls {
                timeout: std::time::Duration::from_millis(300),
                time: dojo_runner::TimeMode::Cpu,
                overage: std::time::Duration::from_millis(500),
                pin: true,
                memory_mib: Some(1024),
                ..dojo_runner::Controls::default()
            },
        }))
        .unwrap();
        settings.controls.processes = 256;
        let mut hog = line(0, &["slow", "fast"], &[0.0, 1.0]);
        hog.faults[0].limit = 2;
        hog.faults[0].limits_hit.memory = 2;
        let r = build_report(&settings, &Origin::default(), &[hog], 1, RunInfo::default());
        let c = &r.conditions;
        assert_eq!(c.time.mode, dojo_runner::TimeMode::Cpu);
        assert_eq!(c.time.wall_backstop, Some(4));
        assert_eq!(
            (c.time.timeout_ms, c.time.overage_ms, c.time.pin),
            (300, 500, true)
        );
        assert_eq!(c.raises, Raises::Cap);
        assert_eq!(c.limits.memory_mib, Some(1024));
        let names: Vec<&str> = c.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["fast", "slow"]);
        let (fast, slow) = (&c.bots[0], &c.bots[1]);
        assert_eq!(fast.time.timeout_ms, 300);
        assert_eq!(fast.limits.memory_mib, Some(1024));
        assert!(fast.own.is_empty());
        assert_eq!(slow.time.timeout_ms, 900);
        assert_eq!(slow.limits.memory_mib, Some(4096));
        assert_eq!(slow.limits.files, dojo_runner::Controls::default().files);
        assert_eq!(slow.own, ["time.timeout_ms", "limits.memory_mib"]);
        // Which limit: summed per bot from the stored fault counts.
        let s = r.standings.iter().find(|s| s.name == "slow").unwrap();
        assert_eq!((s.faults.limit, s.faults.limits_hit.memory), (2, 2));
        assert_eq!(r.totals.faults.limits_hit.memory, 2);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["conditions"]["bots"][1]["own"][0], "time.timeout_ms");
        assert_eq!(json["standings"][1]["faults"]["limits_hit"]["memory"], 2);
    }

    #[test]
    fn the_reports_values_are_the_tables_under_the_bot_toml_keys() {
        // Every value a bot may set is written under its `bot.toml` key
        // (`time.timeout_ms` at `conditions.time.timeout_ms`), as the
        // controls' table reads it from the resolved controls: league-wide
        // and for a bot that sets every key.
        let mut settings: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu",
            "bots": [{"name": "own", "command": "own"}, {"name": "plain", "command": "plain"}],
            "games": 2, "seed": "1",
            "controls": dojo_runner::Controls {
                game_budget: Some(std::time::Duration::from_secs(9)),
                cpu_s: Some(30),
                ..dojo_runner::Controls::default()
            },
        }))
        .unwrap();
        let keyed = || dojo_runner::CONTROLS.iter().filter(|c| c.bot_key.is_some());
        for (i, c) in keyed().enumerate() {
            settings.bots[0]
                .values
                .set(c.bot_key.unwrap(), Some(100 + i as u64));
        }
        let r = build_report(&settings, &Origin::default(), &[], 1, RunInfo::default());
        let json = serde_json::to_value(&r).unwrap();
        let own = settings.bot_controls(&settings.bots[0]);
        let sides = [
            (&json["conditions"], settings.controls),
            (&json["conditions"]["bots"][0], own),
            (&json["conditions"]["bots"][1], settings.controls),
        ];
        for (at, controls) in sides {
            for c in keyed() {
                let (section, key) = c.bot_key.unwrap().split_once('.').unwrap();
                let dojo_runner::Value::Number(n) = c.get(&controls) else {
                    panic!("--{} is a number", c.flag);
                };
                assert_eq!(at[section][key], serde_json::json!(n), "--{}", c.flag);
            }
        }
        assert_eq!(r.conditions.bots[0].own.len(), keyed().count());
        // `dojo compare --json` spells its controls the same way.
        let spelled = serde_json::to_value(Spelled::of(&own)).unwrap();
        assert_eq!(spelled["time"], json["conditions"]["bots"][0]["time"]);
        assert_eq!(spelled["limits"], json["conditions"]["bots"][0]["limits"]);
    }

    #[test]
    fn standings_sum_each_bots_move_times_from_the_games_timing() {
        let settings: Settings = serde_json::from_value(serde_json::json!({
            "game": "cardjitsu",
            "bots": [{"name": "a", "command": "a"}, {"name": "b", "command": "b"}],
            "games": 2, "seed": "1", "raises": "allow",
            "controls": dojo_runner::Controls::default(),
        }))
        .unwrap();
        let mut timed = line(0, &["a", "b"], &[1.0, 0.0]);
        timed.timing = serde_json::json!({
            "wall_ms": 9.0,
            "latency_us": [[1000, 3000, 700], [500]],
            "cpu_us": [[200, null, 90], [100]],
            "memory_peak_bytes": [5242880, null],
            "startup_answers": [[1], []],
        });
        // A game stored before move times counts for the results only.
        let untimed = line(1, &["b", "a"], &[0.0, 1.0]);
        let r = build_report(
            &settings,
            &Origin::default(),
            &[timed, untimed],
            2,
            RunInfo::default(),
        );
        let a = r.standings.iter().find(|s| s.name == "a").unwrap();
        let m = a.moves.unwrap();
        // The median is its bucket's upper end: at most 1% above.
        assert_eq!((m.count, m.wall_ms.p50, m.wall_ms.max), (2, 0.7, 1.0));
        assert_eq!(m.cpu_ms.unwrap().max, 0.2);
        // The answer that had the start-up allowance is apart.
        let st = a.startup_answers.unwrap();
        assert_eq!((st.count, st.wall_ms.max), (1, 3.0));
        assert_eq!(a.peak_memory_mib, Some(5.0));
        let b = r.standings.iter().find(|s| s.name == "b").unwrap();
        assert_eq!((b.moves.unwrap().count, b.peak_memory_mib), (1, None));
        // A report from before version 4 reads, its figures null.
        let mut old = serde_json::to_value(&r).unwrap();
        for s in old["standings"].as_array_mut().unwrap() {
            let s = s.as_object_mut().unwrap();
            s.remove("moves");
            s.remove("peak_memory_mib");
        }
        let back: Report = serde_json::from_value(old).unwrap();
        assert!(
            back.standings
                .iter()
                .all(|s| s.moves.is_none() && s.peak_memory_mib.is_none())
        );
    }
}

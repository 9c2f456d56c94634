//! The league report: a pure function of the settings and the stored
//! games, so every way of playing the same games (any `--jobs`, resumed,
//! sharded and merged) yields the same report apart from `timing`.

use std::collections::BTreeMap;

use dojo_engine::rng::derive_seed;
use serde::{Deserialize, Serialize};

use crate::executor::SeatFaults;
use crate::schedule::fnv1a64;
use crate::settings::{GameKind, Settings};
use crate::store::GameLine;
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
    pub game: GameKind,
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
    /// About this run only; the one section that may differ between runs
    /// of the same games.
    pub timing: RunInfo,
}

/// One bot's line in the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// 1-based position in the standings.
    pub rank: u64,
    pub name: String,
    /// Seats played (a royale bot seated twice in one game counts twice).
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// 100 * (wins + draws / 2) / games.
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
    /// `a`'s score in those results, in percent.
    pub score_a_pct: f64,
}

/// Whole-league counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub games: u64,
    /// Games some seat won.
    pub decisive: u64,
    pub drawn: u64,
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
}

/// A game that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedGame {
    pub id: u64,
    pub error: String,
}

pub use dojo_stats::elo::pair_score;

/// The pairwise results the ratings are fitted to, in game order; bots are
/// indices into `names` (sorted). Games naming unknown bots are skipped.
pub fn pair_results(names: &[String], games: &[GameLine]) -> Vec<rating::PairResult> {
    let outcomes: Vec<Outcome> = games
        .iter()
        .filter_map(|g| Outcome::new(names, g))
        .collect();
    outcome_pair_results(&outcomes)
}

fn outcome_pair_results(games: &[Outcome]) -> Vec<rating::PairResult> {
    let mut out = Vec::new();
    for g in games {
        let idx = g.seats();
        for i in 0..idx.len() {
            for j in i + 1..idx.len() {
                if idx[i] == idx[j] {
                    continue;
                }
                out.push(rating::PairResult {
                    a: idx[i],
                    b: idx[j],
                    score_a: pair_score(g.scores[i], g.scores[j]),
                    group: g.pair,
                });
            }
        }
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

/// Most seats a game has (royale: 3).
const MAX_SEATS: usize = 3;

/// What the report reads of one stored game, kept compact so that a
/// running league's memory does not grow with the games it has played:
/// the bots by index into the sorted names, the scores, the bootstrap group
/// and the faults only when there were any.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The game's id.
    pub id: u64,
    /// Bootstrap group (the fixture's `pair`).
    pair: u64,
    seats: [u16; MAX_SEATS],
    len: u8,
    scores: [f64; MAX_SEATS],
    /// Per seat, as stored; empty when every count is zero (adding zero
    /// counts changes nothing).
    faults: Box<[SeatFaults]>,
}

impl Outcome {
    /// The outcome of `g` among `names` (sorted), or `None` when the report
    /// skips the game (a seat not among `names`, scores not one per seat).
    pub fn new(names: &[String], g: &GameLine) -> Option<Outcome> {
        let idx = seat_indices(names, g)?;
        if idx.len() > MAX_SEATS || idx.iter().any(|&i| i > usize::from(u16::MAX)) {
            return None;
        }
        let mut seats = [0; MAX_SEATS];
        let mut scores = [0.0; MAX_SEATS];
        for (k, &i) in idx.iter().enumerate() {
            seats[k] = i as u16;
            scores[k] = g.scores[k];
        }
        let faults = if g.faults.iter().all(|f| *f == SeatFaults::default()) {
            Box::default()
        } else {
            g.faults.clone().into_boxed_slice()
        };
        Some(Outcome {
            id: g.id,
            pair: g.pair,
            seats,
            len: idx.len() as u8,
            scores,
            faults,
        })
    }

    fn seats(&self) -> Vec<usize> {
        self.seats[..usize::from(self.len)]
            .iter()
            .map(|&i| usize::from(i))
            .collect()
    }
}

/// All rating fits go through here, so swapping the implementation is one
/// line (the `use` above).
fn fit_ratings(
    settings: &Settings,
    names: &[String],
    results: &[rating::PairResult],
) -> Vec<rating::Rating> {
    rating::fit(names.len(), results, &rating_options(settings, names))
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

#[derive(Default)]
struct Tally {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    faults: SeatFaults,
}

/// Builds the report. `games` must be sorted by id (the result does not
/// depend on any other order); `scheduled` is the number of fixtures the
/// directory plays; `timing` is copied as is.
pub fn build_report(
    settings: &Settings,
    games: &[GameLine],
    scheduled: u64,
    timing: RunInfo,
) -> Report {
    let names = settings.sorted_names();
    let outcomes: Vec<Outcome> = games
        .iter()
        .filter_map(|g| Outcome::new(&names, g))
        .collect();
    build_report_from(settings, &outcomes, scheduled, timing)
}

/// [`build_report`] from the games' compact outcomes ([`Outcome::new`]
/// with `settings.sorted_names()`), in game id order.
pub fn build_report_from(
    settings: &Settings,
    games: &[Outcome],
    scheduled: u64,
    timing: RunInfo,
) -> Report {
    let names = settings.sorted_names();
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    let mut totals = Totals {
        games: 0,
        decisive: 0,
        drawn: 0,
        faults: SeatFaults::default(),
    };
    for g in games {
        let idx = g.seats();
        totals.games += 1;
        if g.scores[..usize::from(g.len)].contains(&1.0) {
            totals.decisive += 1;
        } else {
            totals.drawn += 1;
        }
        for (seat, &bot) in idx.iter().enumerate() {
            let t = &mut tallies[bot];
            let s = g.scores[seat];
            t.games += 1;
            t.score += s;
            if s == 1.0 {
                t.wins += 1;
            } else if s == 0.5 {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
            if let Some(f) = g.faults.get(seat) {
                t.faults.add(f);
                totals.faults.add(f);
            }
        }
    }

    let results = outcome_pair_results(games);
    let ratings = fit_ratings(settings, &names, &results);

    let mut standings: Vec<Standing> = names
        .iter()
        .zip(&tallies)
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

    let pairs = head_to_head(&names, games, &results);
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
        timing,
    }
}

fn pct(score: f64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        100.0 * score / games as f64
    }
}

fn head_to_head(
    names: &[String],
    games: &[Outcome],
    results: &[rating::PairResult],
) -> Vec<HeadToHead> {
    // (lower index, higher index) -> (games, results, score of lower)
    let mut map: BTreeMap<(usize, usize), (u64, u64, f64)> = BTreeMap::new();
    for r in results {
        let (key, s) = if r.a < r.b {
            ((r.a, r.b), r.score_a)
        } else {
            ((r.b, r.a), 1.0 - r.score_a)
        };
        let e = map.entry(key).or_default();
        e.1 += 1;
        e.2 += s;
    }
    for g in games {
        let mut idx = g.seats();
        idx.sort_unstable();
        idx.dedup();
        for i in 0..idx.len() {
            for j in i + 1..idx.len() {
                if let Some(e) = map.get_mut(&(idx[i], idx[j])) {
                    e.0 += 1;
                }
            }
        }
    }
    map.into_iter()
        .map(|((a, b), (games, results, score))| HeadToHead {
            a: names[a].clone(),
            b: names[b].clone(),
            games,
            results,
            score_a_pct: pct(score, results),
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
            teams: crate::schedule::TEAMS.to_vec(),
            board: None,
            pair: id,
            leg: 0,
            seed: 0,
            scores: scores.to_vec(),
            faults: vec![SeatFaults::default(); seats.len()],
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
        }
    }

    #[test]
    fn royale_pairwise_model() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // a wins: a beats b and c, b and c draw.
        let win = pair_results(&names, &[line(0, &["a", "b", "c"], &[1.0, 0.0, 0.0])]);
        let got: Vec<_> = win.iter().map(|r| (r.a, r.b, r.score_a)).collect();
        assert_eq!(got, vec![(0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.5)]);
        // A drawn game is a draw for each pair.
        let draw = pair_results(&names, &[line(1, &["c", "a", "b"], &[0.5; 3])]);
        assert!(draw.iter().all(|r| r.score_a == 0.5));
        assert_eq!(draw.len(), 3);
        // A bot never scores against itself: AAB gives two results.
        let aab = pair_results(&names, &[line(2, &["a", "a", "b"], &[0.0, 0.0, 1.0])]);
        let got: Vec<_> = aab.iter().map(|r| (r.a, r.b, r.score_a)).collect();
        assert_eq!(got, vec![(0, 1, 0.0), (0, 1, 0.0)]);
    }

    #[test]
    fn tallies_and_standings() {
        let bots = ["a", "b", "c"]
            .iter()
            .map(|n| Entrant {
                name: n.to_string(),
                command: String::new(),
                fixed_team: None,
            })
            .collect();
        let settings = Settings {
            game: GameKind::Royale,
            bots,
            games: 3,
            seed: 1,
            boards: vec![],
            timeout_ms: 10,
            anchor: Some("b".into()),
            anchor_elo: None,
            gauntlet: None,
            shard: None,
            play: Default::default(),
            limits: Default::default(),
        };
        let games = vec![
            line(0, &["a", "b", "c"], &[1.0, 0.0, 0.0]),
            line(1, &["b", "c", "a"], &[0.0, 0.0, 1.0]),
            line(2, &["c", "a", "b"], &[0.5, 0.5, 0.5]),
        ];
        let r = build_report(&settings, &games, 3, RunInfo::default());
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
        assert_eq!(r.standings[0].score_pct, 100.0 * 2.5 / 3.0);
        let b = r.standings.iter().find(|s| s.name == "b").unwrap();
        assert_eq!(b.rating, ANCHOR_ELO);
        assert_eq!((r.totals.decisive, r.totals.drawn), (2, 1));
        let ab = &r.pairs[0];
        assert_eq!((ab.a.as_str(), ab.b.as_str(), ab.games), ("a", "b", 3));
        assert_eq!(ab.score_a_pct, 100.0 * 2.5 / 3.0);
    }
}

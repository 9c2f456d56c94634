//! A toy 4-seat game of two partnerships (seats 0 and 2 against 1 and 3),
//! defined only here, played by a synthetic executor through a league, a
//! resume, a merge of shards and the report's data: the league takes every
//! fact about a game from its `GameDef`, so a game the shipped crates do
//! not know plays like theirs (`docs/adding-a-game.md`).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dojo_engine::rng::derive_seed;
use dojo_games::game::SmokeRun;
use dojo_games::parse::RecordText;
use dojo_games::registry::NotARecord;
use dojo_games::{BotExecutor, GameDef, Saved, Shape, Table};
use dojo_league::report::pair_results;
use dojo_league::store::{self, GAMES_FILE, GameLine};
use dojo_league::{
    ExecError, Executor, Fixture, Game, GameResult, LeagueRun, NoProgress, Schedule, SeatFaults,
    Settings, Shard, merge, run_league,
};
use dojo_runner::{BotSpec, RunOptions as BotRunOptions};
use dojo_testkit::json::report_sans_timing;

use common::{settings, strength};

use dojo_testkit::partners::{PARTNERS, game as toy};

/// Plays the toy game: the side whose bots are stronger (by name) is
/// likelier to win, from the fixture's seed alone, so any order of play
/// gives the same results.
#[derive(Default)]
struct ToyPlay {
    /// Games started.
    started: AtomicU64,
}

impl ToyPlay {
    fn outcome(fixture: &Fixture) -> GameResult {
        let sides = fixture.game.shape().sides;
        let mut strengths = [0u64; 2];
        for (seat, bot) in fixture.seats.iter().enumerate() {
            strengths[sides[seat]] += strength(bot);
        }
        let draw_band = 2;
        let roll = derive_seed(fixture.seed, &[u64::from(fixture.leg)])
            % (strengths[0] + strengths[1] + draw_band);
        let side_scores = if roll < strengths[0] {
            [1.0, 0.0]
        } else if roll < strengths[0] + strengths[1] {
            [0.0, 1.0]
        } else {
            [0.5, 0.5]
        };
        GameResult {
            first_faults: Vec::new(),
            faulty: Vec::new(),
            prompts: Vec::new(),
            scores: sides.iter().map(|&s| side_scores[s]).collect(),
            faults: (0..sides.len() as u64)
                .map(|seat| SeatFaults {
                    timeout: (roll + seat) % 3 / 2,
                    ..SeatFaults::default()
                })
                .collect(),
            record: serde_json::json!({ "game": "partners", "roll": roll }),
            timing: serde_json::Value::Null,
        }
    }
}

impl Executor for ToyPlay {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        if cancel.load(Ordering::SeqCst) {
            return Err(ExecError::Cancelled);
        }
        let order = self.started.fetch_add(1, Ordering::SeqCst);
        let mut r = Self::outcome(fixture);
        r.timing = serde_json::json!({ "order": order });
        Ok(r)
    }
}

/// [`ToyPlay`] that raises the league's cancel flag once `after` games
/// have been played (a league stopped mid-way).
struct StopAfter<'a> {
    cancel: &'a AtomicBool,
    after: u64,
    played: AtomicU64,
}

impl Executor for StopAfter<'_> {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        if cancel.load(Ordering::SeqCst) || self.played.fetch_add(1, Ordering::SeqCst) >= self.after
        {
            self.cancel.store(true, Ordering::SeqCst);
            return Err(ExecError::Cancelled);
        }
        Ok(ToyPlay::outcome(fixture))
    }
}

const NAMES: [&str; 5] = ["ant", "bee", "cat", "dog", "eel"];

fn toy_settings(names: &[&str], games: u64) -> Settings {
    settings(toy(), names, games)
}

fn run_with(
    s: &Settings,
    out: &Path,
    jobs: usize,
    exec: &impl Executor,
    cancel: &AtomicBool,
) -> dojo_league::Report {
    let opts = LeagueRun {
        out: out.to_owned(),
        jobs,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    run_league(s, &opts, exec, &mut NoProgress, cancel).unwrap()
}

fn run(s: &Settings, out: &Path, jobs: usize) -> dojo_league::Report {
    run_with(s, out, jobs, &ToyPlay::default(), &AtomicBool::new(false))
}

/// Which bots play together in a seating: the two partnerships, each
/// sorted, the pair of them sorted.
fn split(seats: &[String]) -> [[String; 2]; 2] {
    let mut a = [seats[0].clone(), seats[2].clone()];
    let mut b = [seats[1].clone(), seats[3].clone()];
    a.sort();
    b.sort();
    let mut s = [a, b];
    s.sort();
    s
}

#[test]
fn four_bots_play_every_partnership_split_in_every_rotation() {
    let s = Schedule::build(&toy_settings(&NAMES[..4], 12)).unwrap();
    assert_eq!(s.groups(), 1);
    assert_eq!(s.legs(0), 12);
    let fixtures = s.fixtures();
    assert_eq!(fixtures.len(), 12, "12 games per group: one cycle");
    let mut splits: BTreeMap<[[String; 2]; 2], Vec<&Fixture>> = BTreeMap::new();
    for f in &fixtures {
        assert_eq!(f.seats.len(), 4);
        assert!(f.teams.is_empty() && f.board.is_none());
        splits.entry(split(&f.seats)).or_default().push(f);
    }
    // A+C v B+D, A+D v B+C, A+B v C+D: each in four rotations, every bot
    // in every seat once, all on one seed.
    assert_eq!(splits.len(), 3);
    for games in splits.values() {
        assert_eq!(games.len(), 4);
        for bot in &NAMES[..4] {
            let mut seats: Vec<usize> = games
                .iter()
                .map(|f| f.seats.iter().position(|s| s == bot).unwrap())
                .collect();
            seats.sort_unstable();
            assert_eq!(seats, [0, 1, 2, 3], "{bot}");
        }
    }
    assert!(fixtures.iter().all(|f| f.seed == fixtures[0].seed));

    // Five bots: every four of them is a group.
    let five = Schedule::build(&toy_settings(&NAMES, 12)).unwrap();
    assert_eq!(five.groups(), 5);
    assert_eq!(five.len(), 60);
}

#[test]
fn a_toy_team_league_rates_partners_together_and_jobs_do_not_change_it() {
    let s = toy_settings(&NAMES, 12);
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let r1 = run(&s, &one, 1);
    let r2 = run(&s, &two, 2);
    assert!(r1.complete && r2.complete);
    assert_eq!(r1.game, toy());
    assert_eq!(r1.games_played, 60);
    assert_eq!(report_sans_timing(&one), report_sans_timing(&two));
    // Every seat counts for its bot.
    let seats: u64 = r1.standings.iter().map(|b| b.games).sum();
    assert_eq!(seats, 4 * r1.games_played);

    let mut games = store::read_games(&one, s.game, false).unwrap();
    games.sort_by_key(|g| g.id);
    assert_eq!(games.len(), 60);
    // Partners share their result; a side winning beats each bot of the
    // other side, and partners are never rated against each other.
    let names = s.sorted_names();
    for g in &games {
        assert_eq!(g.scores[0], g.scores[2]);
        assert_eq!(g.scores[1], g.scores[3]);
        let results = pair_results(s.game, &names, std::slice::from_ref(g));
        assert_eq!(results.len(), 4, "game {}", g.id);
        for r in &results {
            let (a, b) = (&names[r.a], &names[r.b]);
            let seat = |n: &str| g.seats.iter().position(|s| s == n).unwrap();
            let (sa, sb) = (seat(a), seat(b));
            assert_ne!(sa % 2, sb % 2, "{a} and {b} are partners in game {}", g.id);
            assert_eq!(r.score_a, (1.0 + g.scores[sa] - g.scores[sb]) / 2.0);
        }
    }
    // The head-to-head table: every two bots met as opponents (in some
    // split) and each pairwise result is counted once.
    let results: u64 = r1.pairs.iter().map(|p| p.results).sum();
    assert_eq!(results, 4 * r1.games_played);
    assert_eq!(r1.pairs.len(), 10);
    assert_eq!(
        r1.totals.decisive + r1.totals.drawn,
        r1.games_played,
        "every game is a side's win or a draw"
    );
}

#[test]
fn a_toy_team_league_stopped_mid_way_resumes_to_the_same_report() {
    let s = toy_settings(&NAMES, 12);
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (tmp.path().join("full"), tmp.path().join("cut"));
    run(&s, &full, 1);

    let cancel = AtomicBool::new(false);
    let stopped = run_with(
        &s,
        &cut,
        2,
        &StopAfter {
            cancel: &cancel,
            after: 17,
            played: AtomicU64::new(0),
        },
        &cancel,
    );
    assert!(stopped.timing.cancelled && !stopped.complete);
    assert!(stopped.games_played > 0 && stopped.games_played < 60);

    // The resumed league reads its own league.json (the toy game by name)
    // and its stored games, and plays only the rest.
    let resumed_settings = store::load_settings(&cut).unwrap();
    assert_eq!(resumed_settings, s);
    let resumed = run(&resumed_settings, &cut, 2);
    assert!(resumed.complete);
    assert_eq!(
        resumed.timing.games_this_run,
        60 - stopped.games_played,
        "only the missing games are played"
    );
    assert_eq!(report_sans_timing(&full), report_sans_timing(&cut));
}

#[test]
fn toy_team_shards_merge_into_the_single_machine_report() {
    let s = toy_settings(&NAMES, 12);
    let tmp = tempfile::tempdir().unwrap();
    let single = tmp.path().join("single");
    run(&s, &single, 2);
    let shards: Vec<_> = (1..=3)
        .map(|i| {
            let dir = tmp.path().join(format!("shard-{i}"));
            let sharded = Settings {
                shard: Some(Shard::new(i, 3).unwrap()),
                ..s.clone()
            };
            assert!(run(&sharded, &dir, 1).complete);
            dir
        })
        .collect();
    let all = tmp.path().join("all");
    let merged = merge(&shards, &all).unwrap();
    assert!(merged.complete);
    assert_eq!(merged.games_played, 60);
    assert_eq!(report_sans_timing(&single), report_sans_timing(&all));
    assert_eq!(store::load_settings(&all).unwrap(), s);
}

#[test]
fn a_toy_team_league_renders_its_report_data() {
    let s = toy_settings(&NAMES, 12);
    let tmp = tempfile::tempdir().unwrap();
    let played = run(&s, tmp.path(), 2);

    let (settings, games, report) = dojo_league::view::read_league(tmp.path()).unwrap();
    assert_eq!(settings, s);
    assert_eq!(games.len(), 60);
    assert_eq!(report.standings, played.standings);
    let status = dojo_league::view::PageStatus::now(dojo_league::view::PageState::Final, None);
    let view = dojo_league::view::report_view(&report, &settings, &games, status);
    assert_eq!(view.title, "Partners");
    assert_eq!(view.sides, [0, 1, 0, 1]);
    assert_eq!(view.games.len(), 60);
    assert_eq!(view.history.last().map(|p| p.games), Some(60));
    assert!(view.command.starts_with("dojo league partners "));
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["report"]["game"], "partners");
    assert_eq!(json["title"], "Partners");
    assert_eq!(json["status"]["state"], "final");
    assert_eq!(json["games"][0]["seats"].as_array().unwrap().len(), 4);
}

#[test]
fn impossible_toy_team_lines_are_refused() {
    let game = toy();
    let line = |seats: &[&str], scores: &[f64]| GameLine {
        version: store::GAMES_FORMAT_VERSION,
        id: 0,
        seats: seats.iter().map(|s| s.to_string()).collect(),
        teams: Vec::new(),
        board: None,
        pair: 0,
        leg: 0,
        seed: 1,
        scores: scores.to_vec(),
        faults: vec![SeatFaults::default(); seats.len()],
        faulty: Vec::new(),
        first_faults: Vec::new(),
        record: serde_json::Value::Null,
        timing: serde_json::Value::Null,
        retired: None,
    };
    let four = ["a", "b", "c", "d"];
    assert!(line(&four, &[1.0, 0.0, 1.0, 0.0]).check(game).is_ok());
    assert!(line(&four, &[0.5; 4]).check(game).is_ok());
    // One partner winning alone, or three seats: not a game of this shape.
    let alone = line(&four, &[1.0, 0.0, 0.0, 0.0]).check(game).unwrap_err();
    assert!(alone.contains("neither a win"), "{alone}");
    let three = line(&four[..3], &[1.0, 0.0, 0.0]).check(game).unwrap_err();
    assert!(three.contains("expected 4 seats"), "{three}");
    // A 4-seat line is not a CardJitsu game either.
    assert!(
        line(&four, &[1.0, 0.0, 1.0, 0.0])
            .check(Game::CARDJITSU)
            .is_err()
    );

    // A stored line edited to break a partnership is refused on resume.
    let s = toy_settings(&NAMES[..4], 4);
    let tmp = tempfile::tempdir().unwrap();
    run(&s, tmp.path(), 1);
    let path = tmp.path().join(GAMES_FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[1]["scores"] = serde_json::json!([1.0, 0.0, 0.0, 1.0]);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let err = store::read_games(tmp.path(), s.game, false).unwrap_err();
    assert!(
        err.to_string().contains("not a possible game result"),
        "{err}"
    );
}

#[test]
fn the_toy_game_resolves_by_name_and_cannot_take_a_shipped_name() {
    let game = toy();
    assert_eq!("partners".parse::<Game>(), Ok(game));
    assert_eq!(serde_json::from_str::<Game>("\"partners\"").unwrap(), game);
    struct Impostor;
    impl GameDef for Impostor {
        fn name(&self) -> &'static str {
            "royale"
        }
        fn title(&self) -> &'static str {
            "Impostor"
        }
        fn shape(&self) -> Shape {
            PARTNERS.shape()
        }
        fn play(&self, e: &BotExecutor, t: &Table<'_>) -> Result<GameResult, ExecError> {
            PARTNERS.play(e, t)
        }
        fn smoke(
            &self,
            b: &Arc<BotSpec>,
            board: Option<&str>,
            o: &BotRunOptions,
        ) -> Result<Option<SmokeRun>, String> {
            PARTNERS.smoke(b, board, o)
        }
        fn parse_record(&self, i: &RecordText<'_>) -> Result<Saved, NotARecord> {
            PARTNERS.parse_record(i)
        }
    }
    static IMPOSTOR: Impostor = Impostor;
    assert!(Game::new(&IMPOSTOR).register().is_err());
    assert_eq!("royale".parse::<Game>().unwrap().title(), "Royale");
    // A comparison seats NEW and BASE in every order, which would make
    // them partners: refused.
    let compare = dojo_league::compare::CompareSettings {
        game,
        sprt: "elo0=0,elo1=10".parse().unwrap(),
        games: 10,
        seed: 1,
        boards: Vec::new(),
        faults: Default::default(),
        teams: Default::default(),
    };
    assert!(matches!(
        compare.validate(),
        Err(dojo_league::compare::CompareError::Partnerships { .. })
    ));
}

#[test]
fn fewer_bots_than_seats_still_play_a_toy_team_league() {
    // Two bots in four seats: the multisets that seat both (AAAB, AABB,
    // ABBB), each in every split and rotation; a bot is never rated
    // against itself or its partner.
    let s = toy_settings(&NAMES[..2], 4);
    let tmp = tempfile::tempdir().unwrap();
    let report = run(&s, tmp.path(), 1);
    assert!(report.complete && report.games_played > 0);
    let games = store::read_games(tmp.path(), s.game, false).unwrap();
    let names = s.sorted_names();
    for r in pair_results(s.game, &names, &games) {
        assert_ne!(r.a, r.b);
    }
    let results: u64 = report.pairs.iter().map(|p| p.results).sum();
    assert_eq!(
        results,
        pair_results(s.game, &names, &games).len() as u64,
        "the head-to-head table counts what the ratings are fitted to"
    );
}

#[test]
fn a_toy_team_gauntlet_plays_the_round_robins_games_of_its_bot() {
    let s = toy_settings(&NAMES, 12);
    let robin = Schedule::build(&s).unwrap();
    let gauntlet =
        Schedule::with_gauntlet(s.game, &s.bots, s.games, s.seed, &[], Some("ant")).unwrap();
    let with_ant: Vec<(Vec<String>, u64)> = robin
        .iter()
        .filter(|f| f.seats.iter().any(|b| b == "ant"))
        .map(|f| (f.seats, f.seed))
        .collect();
    let played: Vec<(Vec<String>, u64)> = gauntlet.iter().map(|f| (f.seats, f.seed)).collect();
    assert_eq!(gauntlet.groups(), 4);
    assert_eq!(played, with_ant);
}

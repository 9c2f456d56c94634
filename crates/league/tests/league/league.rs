//! Running, resuming, cancelling, sharding and merging leagues with
//! synthetic games.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dojo_league::store::{self, GAMES_FILE, StoreError};
use dojo_league::{
    ExecError, Executor, Fixture, Game, GameResult, LeagueError, LeagueRun, MergeError, NoProgress,
    Progress, Schedule, Settings, Shard, merge, run_league,
};

use common::{FakeGame, settings};
use dojo_testkit::json::report_sans_timing;

const NAMES: [&str; 4] = ["ant", "bee", "cat", "dog"];

fn run(settings: &Settings, out: &Path, jobs: usize, exec: &impl Executor) -> dojo_league::Report {
    let opts = LeagueRun {
        out: out.to_owned(),
        jobs,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    run_league(
        settings,
        &opts,
        exec,
        &mut NoProgress,
        &AtomicBool::new(false),
    )
    .unwrap()
}

#[test]
fn jobs_do_not_change_the_report() {
    for game in [Game::CARDJITSU, Game::ROYALE] {
        let s = settings(game, &NAMES, 6);
        let tmp = tempfile::tempdir().unwrap();
        let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
        let r1 = run(&s, &one, 1, &FakeGame::default());
        let r2 = run(&s, &two, 2, &FakeGame::default());
        assert!(r1.complete && r2.complete);
        assert_eq!(
            r1.games_played,
            Schedule::build(&s).unwrap().fixtures().len() as u64
        );
        assert_eq!(report_sans_timing(&one), report_sans_timing(&two));
        // The executor's timing is stored but is the only thing allowed to differ.
        let g1 = store::read_games(&one, game, false).unwrap();
        let mut g2 = store::read_games(&two, game, false).unwrap();
        g2.sort_by_key(|g| g.id);
        let mut g1s = g1.clone();
        g1s.sort_by_key(|g| g.id);
        assert!(g1s.iter().zip(&g2).all(|(a, b)| a.same_game(b)));
        // Standings are sorted by rating, and account for every seat played.
        assert!(r1.standings.windows(2).all(|w| w[0].rating >= w[1].rating));
        let seats: u64 = r1.standings.iter().map(|b| b.games).sum();
        let per_game = if game == Game::ROYALE { 3 } else { 2 };
        assert_eq!(seats, r1.games_played * per_game);
        for b in &r1.standings {
            assert_eq!(b.wins + b.draws + b.losses, b.games);
        }
    }
}

#[test]
fn rerunning_a_finished_league_plays_nothing() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let tmp = tempfile::tempdir().unwrap();
    let first = run(&s, tmp.path(), 2, &FakeGame::default());
    let again = FakeGame::default();
    let second = run(&s, tmp.path(), 2, &again);
    assert!(again.played_ids().is_empty());
    assert_eq!(first.standings, second.standings);
    assert_eq!(second.timing.games_this_run, 0);
}

#[test]
fn resume_after_a_torn_line_matches_an_uninterrupted_run() {
    let s = settings(Game::ROYALE, &NAMES, 3);
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (tmp.path().join("full"), tmp.path().join("cut"));
    run(&s, &full, 1, &FakeGame::default());

    // A crashed run: league.json, 5 whole lines and half of the 6th.
    let text = fs::read_to_string(full.join(GAMES_FILE)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut partial: String = lines[..5].iter().map(|l| format!("{l}\n")).collect();
    let kept = partial.clone();
    partial += &lines[5][..lines[5].len() / 2];
    fs::create_dir_all(&cut).unwrap();
    fs::copy(full.join("league.json"), cut.join("league.json")).unwrap();
    fs::write(cut.join(GAMES_FILE), partial).unwrap();

    let resumed_settings = store::load_settings(&cut).unwrap();
    assert_eq!(resumed_settings, s);
    let exec = FakeGame::default();
    let report = run(&resumed_settings, &cut, 2, &exec);
    assert!(report.complete);
    assert_eq!(report.timing.games_this_run, lines.len() as u64 - 5);

    // Only the missing games were played, and stored lines were kept as is.
    let stored_ids: Vec<u64> = store::read_games(&full, Game::ROYALE, false).unwrap()[..5]
        .iter()
        .map(|g| g.id)
        .collect();
    let all: Vec<u64> = (0..lines.len() as u64).collect();
    let missing: Vec<u64> = all
        .into_iter()
        .filter(|i| !stored_ids.contains(i))
        .collect();
    assert_eq!(exec.played_ids(), missing);
    let after = fs::read_to_string(cut.join(GAMES_FILE)).unwrap();
    assert!(after.starts_with(&kept));
    assert_eq!(after.lines().count(), lines.len());
    assert_eq!(report_sans_timing(&full), report_sans_timing(&cut));
}

#[test]
fn a_game_stored_twice_is_refused_by_every_reader_naming_both_lines() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let tmp = tempfile::tempdir().unwrap();
    let first = run(&s, tmp.path(), 1, &FakeGame::default());
    let path = tmp.path().join(GAMES_FILE);
    let text = fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    let third = text.lines().nth(2).unwrap().to_owned();
    let mut copy: serde_json::Value = serde_json::from_str(&third).unwrap();
    let id = copy["id"].as_u64().unwrap();
    let opts = LeagueRun {
        out: tmp.path().to_owned(),
        jobs: 1,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let resume = || {
        run_league(
            &s,
            &opts,
            &FakeGame::default(),
            &mut NoProgress,
            &AtomicBool::new(false),
        )
    };
    let stored_twice = |err: &StoreError, same: bool| {
        let want = (id, 3, lines + 1, same);
        assert!(
            matches!(err, StoreError::StoredTwice { id, first, line, same, .. }
                if (*id, *first, *line, *same) == want),
            "{err}"
        );
        let said = err.to_string();
        assert!(
            said.starts_with(&format!(
                "{}:{}: game {id} is stored a second time (first on line 3",
                path.display(),
                lines + 1
            )),
            "{said}"
        );
    };

    // The same game again, further down (a line copied by hand): each
    // reader refuses it, rather than count the game twice (a report of
    // more games played than scheduled) or once here and twice there.
    for (copy, same) in [(third.clone(), true), {
        // A copy with another result.
        let scores = copy["scores"].as_array().unwrap().clone();
        copy["scores"] = serde_json::Value::Array(scores.into_iter().rev().collect());
        (copy.to_string(), false)
    }] {
        let with_copy = format!("{text}{copy}\n");
        fs::write(&path, &with_copy).unwrap();
        match resume().unwrap_err() {
            LeagueError::Store(e) => stored_twice(&e, same),
            e => panic!("{e}"),
        }
        stored_twice(
            &store::read_games(tmp.path(), Game::CARDJITSU, true).unwrap_err(),
            same,
        );
        match dojo_league::view::read_league(tmp.path()).unwrap_err() {
            dojo_league::view::LeagueReadError::Store(e) => stored_twice(&e, same),
            e => panic!("{e}"),
        }
        let merged = tmp.path().join("merged");
        match merge(&[tmp.path().to_owned()], &merged).unwrap_err() {
            MergeError::Store(e) => stored_twice(&e, same),
            e => panic!("{e}"),
        }
        assert!(!merged.exists());
        let err = dojo_league::replay::load(tmp.path(), Some(id)).unwrap_err();
        assert!(
            err.to_string().contains(&format!(
                ":{}: game {id} is stored a second time (first on line 3",
                lines + 1
            )),
            "{err}"
        );
        // Nothing was repaired away: the file is as it was.
        assert_eq!(fs::read_to_string(&path).unwrap(), with_copy);
    }

    // A retired copy (a replaced bot's old game, kept for the record) is
    // no league game: the league reads as before.
    let mut retired: serde_json::Value = serde_json::from_str(&third).unwrap();
    retired["retired"] = serde_json::json!({"replaced": ["ant"]});
    fs::write(&path, format!("{text}{retired}\n")).unwrap();
    let again = resume().unwrap();
    assert_eq!(again.standings, first.standings);
    assert_eq!(again.games_played, first.games_played);
    let (_, games, report) = dojo_league::view::read_league(tmp.path()).unwrap();
    assert_eq!(games.len() as u64, report.games_played);
    assert_eq!(report.games_played, report.games_scheduled);
}

/// `dojo report` counts what the directory plays, never more: a stored
/// game that is none of its fixtures is refused, naming it.
#[test]
fn a_report_refuses_a_game_that_is_not_one_of_the_leagues() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let tmp = tempfile::tempdir().unwrap();
    let report = run(&s, tmp.path(), 1, &FakeGame::default());
    let path = tmp.path().join(GAMES_FILE);
    let text = fs::read_to_string(&path).unwrap();
    let mut line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let beyond = report.games_scheduled;
    line["id"] = beyond.into();
    fs::write(&path, format!("{text}{line}\n")).unwrap();
    let err = dojo_league::view::read_league(tmp.path()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: game {beyond} is not in this league's schedule",
            path.display()
        )
    );
}

#[test]
fn a_directory_of_another_league_is_refused() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let tmp = tempfile::tempdir().unwrap();
    run(&s, tmp.path(), 1, &FakeGame::default());
    let before = fs::read(tmp.path().join(GAMES_FILE)).unwrap();
    let other = Settings { games: 4, ..s };
    let err = run_league(
        &other,
        &LeagueRun {
            out: tmp.path().to_owned(),
            jobs: 1,
            fingerprints: Default::default(),
            origin: Default::default(),
        },
        &FakeGame::default(),
        &mut NoProgress,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(
        matches!(&err, LeagueError::Store(StoreError::OtherLeague { fields, .. }) if fields == &["games"]),
        "{err}"
    );
    assert_eq!(fs::read(tmp.path().join(GAMES_FILE)).unwrap(), before);
}

/// Sets the cancel flag itself once `after` games have been played.
struct CancelAfter {
    inner: FakeGame,
    after: u64,
    played: AtomicU64,
}

impl Executor for CancelAfter {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        let r = self.inner.play(fixture, cancel)?;
        if self.played.fetch_add(1, Ordering::SeqCst) + 1 >= self.after {
            cancel.store(true, Ordering::SeqCst);
        }
        Ok(r)
    }
}

type ProgressCall = (u64, u64, Option<(String, f64)>);

#[derive(Default)]
struct Recorder {
    calls: Vec<ProgressCall>,
    failed: Vec<u64>,
}

impl Progress for Recorder {
    fn game_done(&mut self, done: u64, total: u64, leader: Option<(&str, f64)>) {
        self.calls
            .push((done, total, leader.map(|(n, p)| (n.to_string(), p))));
    }
    fn game_failed(&mut self, fixture: &Fixture, _error: &str) {
        self.failed.push(fixture.id);
    }
}

#[test]
fn cancelling_stops_early_writes_a_report_and_resumes() {
    let s = settings(Game::CARDJITSU, &NAMES, 4);
    let total = Schedule::build(&s).unwrap().fixtures().len() as u64;
    let tmp = tempfile::tempdir().unwrap();
    let (full, cut) = (tmp.path().join("full"), tmp.path().join("cut"));
    run(&s, &full, 1, &FakeGame::default());

    let exec = CancelAfter {
        inner: FakeGame::default(),
        after: 3,
        played: AtomicU64::new(0),
    };
    let cancel = AtomicBool::new(false);
    let mut progress = Recorder::default();
    let opts = LeagueRun {
        out: cut.clone(),
        jobs: 1,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let report = run_league(&s, &opts, &exec, &mut progress, &cancel).unwrap();
    assert_eq!(report.games_played, 3);
    assert!(!report.complete && report.timing.cancelled);
    let written = fs::read_to_string(cut.join("report.json")).unwrap();
    assert_eq!(
        written,
        serde_json::to_string_pretty(&report).unwrap() + "\n"
    );
    let dones: Vec<(u64, u64)> = progress.calls.iter().map(|c| (c.0, c.1)).collect();
    assert_eq!(dones, vec![(1, total), (2, total), (3, total)]);
    assert!(progress.calls.iter().all(|c| c.2.is_some()));

    let report = run(&s, &cut, 2, &FakeGame::default());
    assert!(report.complete && !report.timing.cancelled);
    assert_eq!(report_sans_timing(&full), report_sans_timing(&cut));
}

/// Game 0 runs until it sees the cancel flag; any other game sets it.
struct Hang;

impl Executor for Hang {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        if fixture.id == 0 {
            while !cancel.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            return Err(ExecError::Cancelled);
        }
        let r = FakeGame::outcome(fixture);
        cancel.store(true, Ordering::SeqCst);
        Ok(r)
    }
}

#[test]
fn cancelling_abandons_games_in_flight() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let tmp = tempfile::tempdir().unwrap();
    let cancel = AtomicBool::new(false);
    let opts = LeagueRun {
        out: tmp.path().to_owned(),
        jobs: 2,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let report = run_league(&s, &opts, &Hang, &mut NoProgress, &cancel).unwrap();
    assert!(report.timing.cancelled);
    let ids: Vec<u64> = store::read_games(tmp.path(), Game::CARDJITSU, false)
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert!(!ids.contains(&0), "the abandoned game is not stored");
    assert!(!ids.is_empty() && (ids.len() as u64) < report.games_scheduled);
    assert!(tmp.path().join("report.json").exists());
}

/// Fails every game with an odd id.
struct FailOdd;

impl Executor for FailOdd {
    fn play(&self, fixture: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
        if fixture.id % 2 == 1 {
            return Err(ExecError::Failed(format!(
                "bot crashed at start of {}",
                fixture.id
            )));
        }
        Ok(FakeGame::outcome(fixture))
    }
}

/// Returns a result of the wrong shape.
struct Misshapen;

impl Executor for Misshapen {
    fn play(&self, fixture: &Fixture, _: &AtomicBool) -> Result<GameResult, ExecError> {
        let mut r = FakeGame::outcome(fixture);
        r.scores.push(0.25);
        Ok(r)
    }
}

#[test]
fn failed_games_are_reported_not_stored_and_retried() {
    let s = settings(Game::CARDJITSU, &NAMES[..3], 2);
    let tmp = tempfile::tempdir().unwrap();
    let (full, dir) = (tmp.path().join("full"), tmp.path().join("dir"));
    run(&s, &full, 1, &FakeGame::default());
    let mut progress = Recorder::default();
    let opts = LeagueRun {
        out: dir.clone(),
        jobs: 2,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let report = run_league(&s, &opts, &FailOdd, &mut progress, &AtomicBool::new(false)).unwrap();
    progress.failed.sort_unstable();
    assert_eq!(progress.failed, vec![1, 3, 5]);
    let failed: Vec<u64> = report.timing.failed.iter().map(|f| f.id).collect();
    assert_eq!(failed, vec![1, 3, 5]);
    assert!(report.timing.failed[0].error.contains("bot crashed"));
    assert_eq!(report.games_played, 3);
    assert!(!report.complete);

    let bad = run(&s, &dir, 1, &Misshapen);
    assert_eq!(bad.timing.failed.len(), 3);
    assert!(
        bad.timing.failed[0].error.contains("scores"),
        "{:?}",
        bad.timing.failed
    );

    let report = run(&s, &dir, 1, &FakeGame::default());
    assert!(report.complete);
    assert_eq!(report_sans_timing(&full), report_sans_timing(&dir));
}

#[test]
fn shards_merge_into_the_single_machine_report() {
    for game in [Game::CARDJITSU, Game::ROYALE] {
        let s = settings(game, &NAMES, 3);
        let tmp = tempfile::tempdir().unwrap();
        let single = tmp.path().join("single");
        run(&s, &single, 2, &FakeGame::default());
        let mut shards: Vec<PathBuf> = Vec::new();
        for i in 1..=3 {
            let dir = tmp.path().join(format!("shard-{i}"));
            let sharded = Settings {
                shard: Some(Shard::new(i, 3).unwrap()),
                ..s.clone()
            };
            let r = run(&sharded, &dir, 1, &FakeGame::default());
            assert!(r.complete);
            shards.push(dir);
        }
        let all = tmp.path().join("all");
        let merged = merge(&shards, &all).unwrap();
        assert!(merged.complete);
        assert_eq!(report_sans_timing(&single), report_sans_timing(&all));
        assert_eq!(store::load_settings(&all).unwrap(), s);
        let ids: Vec<u64> = store::read_games(&all, game, false)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, (0..ids.len() as u64).collect::<Vec<_>>());

        // Merging again (with the output among the inputs) changes nothing.
        let before = fs::read(all.join(GAMES_FILE)).unwrap();
        merge(&shards[..1], &all).unwrap();
        assert_eq!(fs::read(all.join(GAMES_FILE)).unwrap(), before);
        assert_eq!(report_sans_timing(&single), report_sans_timing(&all));
    }
}

/// The entries of a folder a league does not play are stored with it
/// (`origin.excluded`) and reach its report, `dojo report`'s view of it and
/// a merge of its shards.
#[test]
fn the_excluded_entries_reach_the_report_and_a_merge() {
    let s = settings(Game::CARDJITSU, &NAMES, 2);
    let origin = dojo_league::Origin {
        excluded: vec![dojo_league::Excluded {
            dir: "carl".into(),
            name: "carl".into(),
            status: dojo_league::EntryStatus::BadManifest,
            reason: "1 error in its bot.toml".into(),
            details: vec!["bot.toml:1:1: unknown field `comand`".into()],
        }],
        ..Default::default()
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for i in 1..=2 {
        let dir = tmp.path().join(format!("shard-{i}"));
        let sharded = Settings {
            shard: Some(Shard::new(i, 2).unwrap()),
            ..s.clone()
        };
        let opts = LeagueRun {
            out: dir.clone(),
            jobs: 1,
            fingerprints: Default::default(),
            origin: origin.clone(),
        };
        let report = run_league(
            &sharded,
            &opts,
            &FakeGame::default(),
            &mut NoProgress,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(report.excluded, origin.excluded);
        assert_eq!(store::load_league(&dir).unwrap().origin, origin);
        let (_, _, view) = dojo_league::view::read_league(&dir).unwrap();
        assert_eq!(view.excluded, origin.excluded);
        shards.push(dir);
    }
    let merged = merge(&shards, &tmp.path().join("all")).unwrap();
    assert_eq!(merged.excluded, origin.excluded);
    let json = dojo_testkit::json::read_json(&tmp.path().join("all/report.json"));
    assert_eq!(json["excluded"][0]["status"], "bad-manifest");
    // A league without any leaves the key out.
    let plain = run(&s, &tmp.path().join("plain"), 1, &FakeGame::default());
    assert!(plain.excluded.is_empty());
    let json = dojo_testkit::json::read_json(&tmp.path().join("plain/report.json"));
    assert!(json.get("excluded").is_none());
}

#[test]
fn merge_refuses_other_leagues_and_conflicting_results() {
    let s = settings(Game::CARDJITSU, &NAMES[..3], 2);
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    run(&s, &a, 1, &FakeGame::default());
    run(
        &Settings {
            seed: 1,
            ..s.clone()
        },
        &b,
        1,
        &FakeGame::default(),
    );
    let err = merge(&[a.clone(), b], &tmp.path().join("out1")).unwrap_err();
    assert!(matches!(err, MergeError::OtherLeague { .. }), "{err}");

    // A shard where one bot played with its own move time is another
    // league too: per-bot values are settings like the rest.
    let mut own = s.clone();
    own.bots[0].values.time.timeout_ms = Some(5000);
    let d = tmp.path().join("d");
    run(&own, &d, 1, &FakeGame::default());
    let err = merge(&[a.clone(), d], &tmp.path().join("out4")).unwrap_err();
    assert!(matches!(err, MergeError::OtherLeague { .. }), "{err}");

    // Same league, but game 0 was recorded with a different result.
    run(&s, &c, 1, &FakeGame::default());
    let text = fs::read_to_string(c.join(GAMES_FILE)).unwrap();
    let mut games = store::read_games(&c, Game::CARDJITSU, false).unwrap();
    let g0 = games.iter_mut().find(|g| g.id == 0).unwrap();
    g0.scores.reverse();
    if g0.scores[0] == g0.scores[1] {
        g0.scores = vec![1.0, 0.0];
        g0.record = serde_json::json!("changed");
    }
    store::write_games(&c, &games).unwrap();
    assert_ne!(fs::read_to_string(c.join(GAMES_FILE)).unwrap(), text);
    let err = merge(&[a, c], &tmp.path().join("out2")).unwrap_err();
    assert!(matches!(err, MergeError::Conflict { id: 0, .. }), "{err}");
    assert!(matches!(
        merge(&[], &tmp.path().join("out3")),
        Err(MergeError::NoInput)
    ));
}

#[test]
fn shards_that_differ_only_in_fresh_boxes_merge() {
    // Whether a box served one game or many changes no record (the rule
    // docs/sandbox.md holds), so it is not a setting shards must share,
    // as `--resume` already takes it.
    let s = settings(Game::CARDJITSU, &NAMES[..3], 2);
    let tmp = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for i in 1..=2u64 {
        let mut sharded = Settings {
            shard: Some(Shard::new(i, 2).unwrap()),
            ..s.clone()
        };
        sharded.controls.fresh_boxes = i == 1;
        let dir = tmp.path().join(format!("shard-{i}"));
        run(&sharded, &dir, 1, &FakeGame::default());
        shards.push(dir);
    }
    let merged = merge(&shards, &tmp.path().join("all")).unwrap();
    let whole = run(&s, &tmp.path().join("whole"), 1, &FakeGame::default());
    assert_eq!(merged.standings, whole.standings);
}

#[test]
fn merge_refuses_a_torn_shard() {
    let s = settings(Game::CARDJITSU, &NAMES[..3], 2);
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    run(&s, &a, 1, &FakeGame::default());
    let mut text = fs::read_to_string(a.join(GAMES_FILE)).unwrap();
    text.truncate(text.len() - 10);
    fs::write(a.join(GAMES_FILE), &text).unwrap();
    let err = merge(std::slice::from_ref(&a), &tmp.path().join("out")).unwrap_err();
    assert!(err.to_string().contains("torn"), "{err}");
    assert_eq!(fs::read_to_string(a.join(GAMES_FILE)).unwrap(), text);
}

#[test]
fn merge_refuses_an_output_directory_a_league_is_running_on() {
    let s = settings(Game::CARDJITSU, &NAMES[..3], 2);
    let tmp = tempfile::tempdir().unwrap();
    let (a, out) = (tmp.path().join("a"), tmp.path().join("out"));
    run(&s, &a, 1, &FakeGame::default());
    // A league still running on `out`: merge would replace games.jsonl
    // under it, and every game it appends afterwards would be lost.
    let (running, _) = store::Store::open(&out, &s).unwrap();
    let err = merge(std::slice::from_ref(&a), &out).unwrap_err();
    assert!(
        matches!(err, MergeError::Store(StoreError::InUse { .. })),
        "{err}"
    );
    drop(running);
    assert!(merge(&[a], &out).unwrap().complete);
}

/// A gauntlet with an SPRT stop rule decides the same for any number of
/// jobs and after an interruption: blocks are counted in round order.
#[test]
fn an_sprt_gauntlet_decides_the_same_for_any_jobs_and_after_resume() {
    let mut s = settings(Game::CARDJITSU, &NAMES, 400);
    s.gauntlet = Some("ant".into());
    s.sprt = Some("elo0=-20,elo1=20".parse().unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let reference = run(&s, &tmp.path().join("one"), 1, &FakeGame::default());
    let tests = reference.sprt.clone().expect("the report holds the tests");
    assert_eq!(tests.opponents.len(), 3);
    assert!(reference.complete);
    assert!(
        reference.games_played < reference.games_scheduled,
        "stopped early: {} of {}",
        reference.games_played,
        reference.games_scheduled
    );
    for jobs in [2, 4] {
        let r = run(
            &s,
            &tmp.path().join(format!("j{jobs}")),
            jobs,
            &FakeGame::default(),
        );
        assert_eq!(r.sprt, reference.sprt, "{jobs} jobs");
    }

    // Interrupted after 10 games, then resumed.
    let dir = tmp.path().join("cut");
    let cancel = AtomicBool::new(false);
    struct CancelAfter<'a>(&'a AtomicBool, AtomicU64);
    impl Executor for CancelAfter<'_> {
        fn play(&self, f: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
            if cancel.load(Ordering::SeqCst) || self.1.fetch_add(1, Ordering::SeqCst) >= 10 {
                self.0.store(true, Ordering::SeqCst);
                return Err(ExecError::Cancelled);
            }
            Ok(FakeGame::outcome(f))
        }
    }
    let opts = LeagueRun {
        out: dir.clone(),
        jobs: 2,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let cut = run_league(
        &s,
        &opts,
        &CancelAfter(&cancel, AtomicU64::new(0)),
        &mut NoProgress,
        &cancel,
    )
    .unwrap();
    assert!(cut.timing.cancelled && !cut.complete);
    let open = cut.sprt.unwrap();
    assert!(
        open.opponents
            .iter()
            .all(|t| t.state == dojo_league::stop::TestState::Open)
    );
    let resumed = run(&s, &dir, 2, &FakeGame::default());
    assert_eq!(resumed.sprt, reference.sprt);
    assert!(resumed.timing.games_this_run < resumed.games_played);
}

//! Late entries with synthetic games: a bot added to a played league plays
//! only its own games and the league ends as if it had been there from the
//! start; a replaced bot's games are kept, marked retired, and played again.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use dojo_league::late::{self, Late, LateError};
use dojo_league::settings::LateKind;
use dojo_league::store::{self, GameLine};
use dojo_league::{
    ExecError, Executor, Fixture, Game, GameResult, LeagueRun, NoProgress, Report, Schedule,
    Settings, Shard, run_league,
};

use common::{FakeGame, bots, settings};
use dojo_testkit::json::report_sans_timing;

fn run(settings: &Settings, out: &Path, exec: &impl Executor) -> Report {
    let origin = store::load_league(out)
        .map(|l| l.origin)
        .unwrap_or_default();
    let opts = LeagueRun {
        out: out.to_owned(),
        jobs: 2,
        fingerprints: Default::default(),
        origin,
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

/// `settings` of the common module with one board for royale (several
/// boards refuse `--add`: see `several_boards_refuse_an_add`).
fn league(game: Game, names: &[&str], games: u64) -> Settings {
    let mut s = settings(game, names, games);
    s.boards.truncate(1);
    s
}

/// Applies `late` to the league in `dir`, returning its new settings.
fn grow(dir: &Path, late: &Late) -> Settings {
    let old = store::load_settings(dir).unwrap();
    let new = late::settings_with(&old, late).unwrap();
    late::apply(dir, &old, &new, late, &BTreeMap::new()).unwrap();
    new
}

fn add(names: &[&str]) -> Late {
    Late {
        add: bots(names),
        replace: Vec::new(),
    }
}

/// The stored games, by id, that count (retired ones left out).
fn games_by_id(dir: &Path, game: Game) -> Vec<GameLine> {
    let mut lines = store::read_games(dir, game, false).unwrap();
    lines.sort_by_key(|l| l.id);
    lines
}

fn same_games(a: &Path, b: &Path, game: Game) {
    let (a, b) = (games_by_id(a, game), games_by_id(b, game));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!(x.same_game(y), "{x:?}\n!=\n{y:?}");
    }
}

#[test]
fn an_added_bot_plays_only_its_games_and_the_league_equals_one_that_had_it_from_the_start() {
    for game in [Game::CARDJITSU, Game::ROYALE] {
        let tmp = tempfile::tempdir().unwrap();
        let (late_dir, full_dir) = (tmp.path().join("late"), tmp.path().join("full"));
        let small = league(game, &["ant", "bee", "cat", "dog"], 4);
        run(&small, &late_dir, &FakeGame::default());

        let grown = grow(&late_dir, &add(&["eel"]));
        let exec = FakeGame::default();
        let report = run(&grown, &late_dir, &exec);

        // Exactly the games with eel were played: the others were
        // recognised under their new ids.
        let schedule = Schedule::build(&grown).unwrap();
        let with_eel: Vec<u64> = schedule
            .iter()
            .filter(|f| f.seats.iter().any(|s| s == "eel"))
            .map(|f| f.id)
            .collect();
        let before = Schedule::build(&small).unwrap().len();
        assert_eq!(with_eel.len() as u64, schedule.len() - before, "{game}");
        assert_eq!(exec.played_ids(), with_eel, "{game}");
        assert!(report.complete);

        let full = league(game, &["ant", "bee", "cat", "dog", "eel"], 4);
        assert_eq!(full, grown);
        run(&full, &full_dir, &FakeGame::default());
        assert_eq!(
            report_sans_timing(&late_dir),
            report_sans_timing(&full_dir),
            "{game}"
        );
        same_games(&late_dir, &full_dir, game);
    }
}

#[test]
fn late_entries_give_the_same_league_in_any_order_of_arrival() {
    let game = Game::CARDJITSU;
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = ["one-by-one", "other-order", "together"]
        .iter()
        .map(|d| tmp.path().join(d))
        .collect();
    let start = league(game, &["cat", "ant", "bee"], 2);
    for dir in &dirs {
        run(&start, dir, &FakeGame::default());
    }
    for step in [&["eel"][..], &["dog"]] {
        let s = grow(&dirs[0], &add(step));
        run(&s, &dirs[0], &FakeGame::default());
    }
    for step in [&["dog"][..], &["eel"]] {
        let s = grow(&dirs[1], &add(step));
        run(&s, &dirs[1], &FakeGame::default());
    }
    let s = grow(&dirs[2], &add(&["eel", "dog"]));
    run(&s, &dirs[2], &FakeGame::default());
    for dir in &dirs[1..] {
        assert_eq!(report_sans_timing(&dirs[0]), report_sans_timing(dir));
        same_games(&dirs[0], dir, game);
    }
}

#[test]
fn an_added_opponent_of_a_gauntlet_plays_the_gauntlet_bot_only() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = league(Game::CARDJITSU, &["ant", "bee", "cat"], 2);
    s.gauntlet = Some("ant".into());
    run(&s, tmp.path(), &FakeGame::default());
    let grown = grow(tmp.path(), &add(&["dog"]));
    let exec = FakeGame::default();
    run(&grown, tmp.path(), &exec);
    let played: Vec<Fixture> = Schedule::build(&grown)
        .unwrap()
        .iter()
        .filter(|f| exec.played_ids().contains(&f.id))
        .collect();
    assert_eq!(played.len(), 2);
    for f in played {
        let mut seats = f.seats.clone();
        seats.sort();
        assert_eq!(seats, ["ant", "dog"]);
    }
}

/// A synthetic game in which the bot `winner` wins every game it plays:
/// stands for a new version of that bot.
struct Wins {
    winner: &'static str,
    played: FakeGame,
}

impl Executor for Wins {
    fn play(&self, fixture: &Fixture, cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        let mut r = self.played.play(fixture, cancel)?;
        if let Some(seat) = fixture.seats.iter().position(|s| s == self.winner) {
            r.scores = (0..fixture.seats.len())
                .map(|i| if i == seat { 1.0 } else { 0.0 })
                .collect();
        }
        Ok(r)
    }
}

#[test]
fn a_replaced_bot_plays_again_and_its_old_games_stay_marked() {
    let game = Game::CARDJITSU;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let start = league(game, &["ant", "bee", "cat"], 4);
    run(&start, dir, &FakeGame::default());
    let old_lines = store::read_games(dir, game, false).unwrap();
    let bee_games: Vec<u64> = old_lines
        .iter()
        .filter(|l| l.seats.iter().any(|s| s == "bee"))
        .map(|l| l.id)
        .collect();
    assert!(!bee_games.is_empty());

    let mut new_bee = bots(&["bee"]).remove(0);
    new_bee.command = "./bots/bee-v2".into();
    let replace = Late {
        add: Vec::new(),
        replace: vec![new_bee.clone()],
    };
    let new = grow(dir, &replace);
    assert!(new.bots.contains(&new_bee));
    let exec = Wins {
        winner: "bee",
        played: FakeGame::default(),
    };
    let report = run(&new, dir, &exec);
    // Only the old version's games were played again, with the same ids
    // and seeds.
    let mut replayed = bee_games.clone();
    replayed.sort_unstable();
    assert_eq!(exec.played.played_ids(), replayed);
    // The standings are the new version's: it won every game it played.
    let bee = report.standings.iter().find(|s| s.name == "bee").unwrap();
    assert_eq!(
        (bee.games, bee.wins),
        (bee_games.len() as u64, bee_games.len() as u64)
    );
    assert_eq!(report.games_played, old_lines.len() as u64);
    assert_eq!(report.replaced.len(), 1);
    assert_eq!(report.replaced[0].kind, LateKind::Replaced);
    assert_eq!(
        report.replaced[0].old_command.as_deref(),
        Some("./bots/bee --fast")
    );
    assert_eq!(report.replaced[0].retired_games, bee_games.len() as u64);
    // The old games are all still in the file, marked.
    let every = store::read_every_line(dir, game, false).unwrap();
    let retired: Vec<&GameLine> = every.iter().filter(|l| l.retired.is_some()).collect();
    assert_eq!(retired.len(), bee_games.len());
    for line in retired {
        assert_eq!(line.retired.as_ref().unwrap().replaced, ["bee"]);
        let first = old_lines.iter().find(|l| l.id == line.id).unwrap();
        assert!(first.same_game(&GameLine {
            retired: None,
            ..line.clone()
        }));
    }
    // A resume counts the current games only, and plays nothing.
    let again = FakeGame::default();
    let resumed = run(&new, dir, &again);
    assert!(again.played_ids().is_empty());
    assert_eq!(resumed.standings, report.standings);
}

#[test]
fn an_interrupted_change_is_finished_by_the_same_command() {
    let game = Game::ROYALE;
    let tmp = tempfile::tempdir().unwrap();
    let (dir, clean) = (tmp.path().join("cut"), tmp.path().join("clean"));
    let start = league(game, &["ant", "bee", "cat"], 6);
    run(&start, &dir, &FakeGame::default());
    run(&start, &clean, &FakeGame::default());
    let before = std::fs::read(dir.join(store::LEAGUE_FILE)).unwrap();
    grow(&dir, &add(&["dog"]));
    // Killed after games.jsonl was rewritten, before league.json.
    std::fs::write(dir.join(store::LEAGUE_FILE), before).unwrap();
    let grown = grow(&dir, &add(&["dog"]));
    grow(&clean, &add(&["dog"]));
    same_games(&dir, &clean, game);
    let exec = FakeGame::default();
    run(&grown, &dir, &exec);
    assert_eq!(
        exec.played_ids().len() as u64,
        Schedule::build(&grown).unwrap().len() - Schedule::build(&start).unwrap().len()
    );
}

#[test]
fn late_entries_that_cannot_join_are_refused_with_the_reason() {
    let s = league(Game::CARDJITSU, &["ant", "bee", "cat"], 2);
    let refused = |s: &Settings, late: &Late| late::settings_with(s, late).unwrap_err().to_string();

    let e = refused(&s, &add(&["bee"]));
    assert!(
        e.contains("--add bee: the league already has a bot named bee"),
        "{e}"
    );
    assert!(e.contains("--replace bee=BOT"), "{e}");
    let unknown = Late {
        add: Vec::new(),
        replace: bots(&["zed"]),
    };
    let e = refused(&s, &unknown);
    assert!(
        e.contains("--replace zed: the league has no bot named zed (its bots: ant, bee, cat)"),
        "{e}"
    );
    let twice = Late {
        add: bots(&["dog"]),
        replace: bots(&["dog"]),
    };
    assert!(matches!(late::settings_with(&s, &twice), Err(LateError::Twice(n)) if n == "dog"));

    let sharded = Settings {
        shard: Some(Shard::new(1, 2).unwrap()),
        ..s.clone()
    };
    let e = refused(&sharded, &add(&["dog"]));
    assert!(e.contains("shard 1/2") && e.contains("dojo merge"), "{e}");

    let mut sprt = s.clone();
    sprt.gauntlet = Some("ant".into());
    sprt.sprt = Some("elo0=-20,elo1=20".parse().unwrap());
    let e = refused(&sprt, &add(&["dog"]));
    assert!(e.contains("--add: this is a gauntlet with --sprt"), "{e}");

    // Several royale boards: only --add is refused (a replacement keeps
    // every group where it was).
    let boards = settings(Game::ROYALE, &["ant", "bee", "cat"], 6);
    assert_eq!(boards.boards.len(), 2);
    let e = refused(&boards, &add(&["dog"]));
    assert!(e.contains("rotates 2 boards"), "{e}");
    let replace = Late {
        add: Vec::new(),
        replace: bots(&["bee"]),
    };
    assert!(late::settings_with(&boards, &replace).is_ok());

    let two = league(Game::ROYALE, &["ant", "bee"], 6);
    let e = refused(&two, &add(&["cat"]));
    assert!(e.contains("2 bots for 3 seats"), "{e}");
}

#[test]
fn bots_other_than_the_late_ones_must_be_those_that_played() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let s = league(Game::CARDJITSU, &["ant", "bee"], 2);
    let prints = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(n, f)| (n.to_string(), f.to_string()))
            .collect()
    };
    let opts = LeagueRun {
        out: dir.to_owned(),
        jobs: 1,
        fingerprints: prints(&[("ant", "a1"), ("bee", "b1")]),
        origin: Default::default(),
    };
    run_league(
        &s,
        &opts,
        &FakeGame::default(),
        &mut NoProgress,
        &AtomicBool::new(false),
    )
    .unwrap();
    let late = add(&["cat"]);
    let new = late::settings_with(&s, &late).unwrap();
    let games = std::fs::read(dir.join(store::GAMES_FILE)).unwrap();
    let e = late::apply(
        dir,
        &s,
        &new,
        &late,
        &prints(&[("ant", "a2"), ("bee", "b1"), ("cat", "c1")]),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("provenance.fingerprints.ant"), "{e}");
    // Nothing changed.
    assert_eq!(std::fs::read(dir.join(store::GAMES_FILE)).unwrap(), games);
    assert_eq!(store::load_settings(dir).unwrap(), s);
    let applied = late::apply(
        dir,
        &s,
        &new,
        &late,
        &prints(&[("ant", "a1"), ("bee", "b1"), ("cat", "c1")]),
    )
    .unwrap();
    assert_eq!(applied.origin.late.len(), 1);
    assert_eq!(applied.origin.late[0].fingerprint.as_deref(), Some("c1"));
    let league = store::load_league(dir).unwrap();
    assert_eq!(league.provenance.unwrap().fingerprints["cat"], "c1");
    assert_eq!(league.settings, new);
}

#[test]
fn a_merged_league_takes_late_entries_and_a_merge_into_it_keeps_retired_games() {
    let game = Game::CARDJITSU;
    let tmp = tempfile::tempdir().unwrap();
    let s = league(game, &["ant", "bee", "cat"], 4);
    let mut shards = Vec::new();
    for i in 1..=2 {
        let dir = tmp.path().join(format!("shard-{i}"));
        let sharded = Settings {
            shard: Some(Shard::new(i, 2).unwrap()),
            ..s.clone()
        };
        run(&sharded, &dir, &FakeGame::default());
        shards.push(dir);
    }
    // A shard refuses: its slice of ids is the whole league's.
    let sharded = store::load_settings(&shards[0]).unwrap();
    assert!(matches!(
        late::settings_with(&sharded, &add(&["dog"])),
        Err(LateError::Refused { .. })
    ));

    let merged = tmp.path().join("merged");
    dojo_league::merge(&shards, &merged).unwrap();
    // The same bot again (same results): its games are retired and played
    // again; a later merge of the shards into the directory keeps them.
    let replace = Late {
        add: Vec::new(),
        replace: bots(&["bee"]),
    };
    let same = grow(&merged, &replace);
    run(&same, &merged, &FakeGame::default());
    let retired = |dir: &Path| {
        store::read_every_line(dir, game, false)
            .unwrap()
            .into_iter()
            .filter(|l| l.retired.is_some())
            .count()
    };
    let bee_games = 8;
    assert_eq!(retired(&merged), bee_games);
    dojo_league::merge(&shards, &merged).unwrap();
    assert_eq!(retired(&merged), bee_games);

    let grown = grow(&merged, &add(&["dog"]));
    let exec = FakeGame::default();
    run(&grown, &merged, &exec);
    let full = tmp.path().join("full");
    run(
        &league(game, &["ant", "bee", "cat", "dog"], 4),
        &full,
        &FakeGame::default(),
    );
    same_games(&merged, &full, game);
    assert_eq!(retired(&merged), bee_games);
}

#[test]
fn a_new_version_with_a_fixed_team_plays_its_own_seatings() {
    let game = Game::ROYALE;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let start = league(game, &["ant", "bee", "cat", "dog"], 3);
    run(&start, dir, &FakeGame::default());
    let mut bee = bots(&["bee"]).remove(0);
    bee.fixed_team = Some(dojo_games::Role::from("R"));
    let new = grow(
        dir,
        &Late {
            add: Vec::new(),
            replace: vec![bee],
        },
    );
    let exec = FakeGame::default();
    let report = run(&new, dir, &exec);
    assert!(report.complete);
    let schedule = Schedule::build(&new).unwrap();
    let bee_games: Vec<Fixture> = schedule
        .iter()
        .filter(|f| f.seats.iter().any(|s| s == "bee"))
        .collect();
    assert_eq!(
        exec.played_ids(),
        bee_games.iter().map(|f| f.id).collect::<Vec<_>>()
    );
    // Seated on rock (seat 0) in every game now.
    assert!(bee_games.iter().all(|f| f.seats[0] == "bee"));
    let every = store::read_every_line(dir, game, false).unwrap();
    let old_bee = every.iter().filter(|l| l.retired.is_some()).count();
    assert_eq!(
        old_bee,
        3 * 3,
        "three trios with bee, one cycle of three rotations"
    );
}

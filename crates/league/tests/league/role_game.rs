//! A toy 4-seat game whose seats have roles (`N`, `E`, `S`, `W`), defined
//! only in the testkit: a bot's fixed role, the fixtures' roles, the
//! stored games and `league.json` all follow its `Shape`, as royale's
//! teams do, with no shared-code edit (`docs/adding-a-game.md`).

use crate::common;

use std::sync::atomic::AtomicBool;

use dojo_games::{Role, fixed_role};
use dojo_league::schedule::ScheduleError;
use dojo_league::store::{self, GameLine};
use dojo_league::{
    ExecError, Executor, Fixture, GameResult, LeagueRun, NoProgress, Schedule, SeatFaults,
    Settings, run_league,
};
use dojo_testkit::compass::game as compass;

/// The seat playing `N` wins every game.
struct NorthWins;

impl Executor for NorthWins {
    fn play(&self, fixture: &Fixture, _cancel: &AtomicBool) -> Result<GameResult, ExecError> {
        let n = fixture.seats.len();
        Ok(GameResult {
            first_faults: Vec::new(),
            faulty: Vec::new(),
            prompts: Vec::new(),
            scores: (0..n)
                .map(|s| {
                    if fixture.teams[s].as_str() == "N" {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect(),
            faults: vec![SeatFaults::default(); n],
            record: serde_json::json!({ "game": "compass" }),
            timing: serde_json::Value::Null,
        })
    }
}

fn settings_with_west(names: &[&str]) -> Settings {
    let mut s = common::settings(compass(), names, 4);
    s.bots[0].fixed_team = Some(Role::from("W"));
    s
}

#[test]
fn a_bot_fixed_to_a_role_of_a_toy_game_only_plays_that_seat() {
    let s = settings_with_west(&["ant", "bee", "cat", "dog", "eel"]);
    let fixtures = Schedule::build(&s).unwrap().fixtures();
    assert!(!fixtures.is_empty());
    let roles = ["N", "E", "S", "W"].map(Role::from);
    for f in &fixtures {
        assert_eq!(f.teams, roles);
        if let Some(seat) = f.seats.iter().position(|b| b == "ant") {
            assert_eq!(seat, 3, "{f:?}");
        }
    }
    assert!(fixtures.iter().any(|f| f.seats.iter().any(|b| b == "ant")));
    // Free bots still take every role.
    for role in 0..4 {
        assert!(fixtures.iter().any(|f| f.seats[role] == "bee"));
    }
}

#[test]
fn a_toy_role_league_stores_its_roles_and_reads_them_back() {
    let s = settings_with_west(&["ant", "bee", "cat", "dog"]);
    let tmp = tempfile::tempdir().unwrap();
    let opts = LeagueRun {
        out: tmp.path().to_owned(),
        jobs: 1,
        fingerprints: Default::default(),
        origin: Default::default(),
    };
    let report = run_league(
        &s,
        &opts,
        &NorthWins,
        &mut NoProgress,
        &AtomicBool::new(false),
    )
    .unwrap();
    assert!(report.complete && report.games_played > 0);
    let text = std::fs::read_to_string(tmp.path().join(store::GAMES_FILE)).unwrap();
    assert!(text.contains(r#""teams":["N","E","S","W"]"#), "{text}");
    let games = store::read_games(tmp.path(), s.game, false).unwrap();
    assert_eq!(games.len() as u64, report.games_played);
    let league = std::fs::read_to_string(tmp.path().join(store::LEAGUE_FILE)).unwrap();
    assert!(league.contains(r#""fixed_team": "W""#), "{league}");
    assert_eq!(store::load_settings(tmp.path()).unwrap(), s);
    // A role the game lacks is refused on reading a line ...
    let mut line: GameLine = games[0].clone();
    line.teams[0] = Role::from("R");
    let err = line.check(s.game).unwrap_err();
    assert!(err.contains(r#"team "R" is not one of compass's"#), "{err}");
    // ... and on scheduling a bot fixed to it.
    let mut bad = s.clone();
    bad.bots[0].fixed_team = Some(Role::from("R"));
    assert!(matches!(
        Schedule::build(&bad),
        Err(ScheduleError::UnknownRole { .. })
    ));
}

/// A manifest's `team` as if written on its second line.
fn team(name: &str) -> dojo_runner::ManifestTeam {
    dojo_runner::ManifestTeam {
        name: name.into(),
        line: 2,
        column: 1,
    }
}

#[test]
fn a_manifest_team_is_checked_against_the_toy_games_roles() {
    let mut bot = dojo_runner::BotSpec {
        name: "x".into(),
        command: vec!["x".into()],
        dir: "/bots/x".into(),
        build: None,
        mode: dojo_runner::Mode::Auto,
        games: Vec::new(),
        team: Some(team("W")),
        description: None,
        values: Default::default(),
    };
    let shape = compass().shape();
    assert_eq!(fixed_role(&bot, shape), Ok(Some(Role::from("W"))));
    bot.team = Some(team("R"));
    assert_eq!(
        fixed_role(&bot, shape).unwrap_err().to_string(),
        "/bots/x/bot.toml:2:1: `team` \"R\" is not a team; expected \"N\", \"E\", \"S\" or \"W\""
    );
}

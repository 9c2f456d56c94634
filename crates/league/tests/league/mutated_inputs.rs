//! Every parser of user files against mutated copies of valid files: decks,
//! boards, bot manifests, game records, `games.jsonl` lines and
//! `league.json`. No input may make dojo panic; each must parse or be
//! refused with an error. Mutations are seeded, so a failure reproduces.
//!
//! (Unbounded allocation shows up here too: the huge numbers the mutator
//! writes into counts would exhaust memory before the test could finish.)

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use dojo_engine::cardjitsu::{self, CardJitsu, Deck};
use dojo_engine::rng;
use dojo_engine::royale::{self, Board, Royale, Team};
use dojo_games::{CardJitsuRecord, RECORD_VERSION, RoyaleRecord, SeatConduct, SeatInfo, Timing};
use dojo_league::store::{self, GameLine};
use dojo_league::{Entrant, Fixture, Game, GameResult, Schedule, SeatFaults, Settings};
use rand::RngExt;

/// Values the mutator writes over numbers: edges of every integer width,
/// negatives, fractions and floats too large for anything.
const NUMBERS: [&str; 12] = [
    "0",
    "-1",
    "3",
    "255",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "-0.5",
    "NaN",
    "99999999999999999999999999",
];

/// Bytes that matter to one format or another.
const BYTES: &[u8] = b"\"{}[],:\n\r\t\0#=*/\\ \xff0aZ";

/// `input` with one to three seeded edits.
fn mutate(input: &[u8], rng: &mut rng::ChaCha8Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.random_range(1..=3u32) {
        let len = out.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..len)
        };
        let span = rng.random_range(1..=8usize).min(len - at.min(len));
        match rng.random_range(0..6u32) {
            0 => {
                out.drain(at..at + span);
            }
            1 => {
                let copy: Vec<u8> = out[at..at + span].to_vec();
                out.splice(at..at, copy);
            }
            2 => {
                // Overwrite the number starting at or after `at`.
                let Some(start) = out[at..].iter().position(u8::is_ascii_digit) else {
                    continue;
                };
                let start = at + start;
                let end = out[start..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(out.len(), |e| start + e);
                let n = NUMBERS[rng.random_range(0..NUMBERS.len())];
                out.splice(start..end, n.bytes());
            }
            3 => out.insert(at, BYTES[rng.random_range(0..BYTES.len())]),
            4 => out.truncate(at),
            _ => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&out).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let a = rng.random_range(0..lines.len());
                    let b = rng.random_range(0..lines.len());
                    lines.swap(a, b);
                    out = lines.join("\n").into_bytes();
                }
            }
        }
    }
    out
}

/// Runs `parse` on `cases` mutations of each of `valid`; fails naming every
/// input that panicked.
fn no_panics(name: &str, valid: &[Vec<u8>], cases: u64, parse: impl Fn(&[u8])) {
    let mut panicked = Vec::new();
    for (v, input) in valid.iter().enumerate() {
        for case in 0..cases {
            let mut rng = rng::stream(v as u64, case);
            let mutated = mutate(input, &mut rng);
            if catch_unwind(AssertUnwindSafe(|| parse(&mutated))).is_err() {
                panicked.push(String::from_utf8_lossy(&mutated).into_owned());
            }
        }
    }
    assert!(
        panicked.is_empty(),
        "{name}: {} input(s) panicked, the first:\n{}",
        panicked.len(),
        panicked[0]
    );
}

fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == ext) {
            out.push(std::fs::read(&path).unwrap());
        }
    }
    assert!(!out.is_empty(), "no .{ext} files under {}", root.display());
    out
}

#[test]
fn decks() {
    no_panics(
        "deck",
        &files("crates/cli/tests/data", "dcfg"),
        400,
        |bytes| {
            let _ = Deck::parse_dcfg(&String::from_utf8_lossy(bytes), "mutated.dcfg");
        },
    );
}

#[test]
fn boards() {
    no_panics("board", &files("boards", "txt"), 300, |bytes| {
        let _ = Board::parse(&String::from_utf8_lossy(bytes), "mutated.txt");
    });
}

#[test]
fn manifests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots");
    let valid: Vec<Vec<u8>> = ["random-py", "sensei", "general", "random-sh"]
        .iter()
        .map(|b| std::fs::read(root.join(b).join("bot.toml")).unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    no_panics("manifest", &valid, 200, |bytes| {
        std::fs::write(dir.path().join("bot.toml"), bytes).unwrap();
        let _ = dojo_runner::load_dir(dir.path());
    });
}

fn seats(n: usize) -> (Vec<SeatInfo>, Vec<SeatConduct>) {
    let info = (0..n)
        .map(|seat| SeatInfo {
            seat,
            bot: format!("bot{seat}"),
            command: vec!["./bot".into()],
            dir: Some("/nowhere/bot".into()),
            fingerprint: Some("fnv1a64:0000000000000000".into()),
            team: None,
        })
        .collect();
    let conduct = (0..n)
        .map(|_| SeatConduct {
            faults: Default::default(),
            spawns: 1,
            unsolicited: 0,
            mode: dojo_runner::Mode::Auto,
            first_invalid: None,
        })
        .collect();
    (info, conduct)
}

fn cardjitsu_record() -> Vec<u8> {
    let mut game = CardJitsu::new(5, cardjitsu::Settings::default());
    let mut i = 0;
    while !game.is_over() {
        game.play([i % 5, (i + 2) % 5]);
        i += 1;
    }
    let (seats, conduct) = seats(2);
    serde_json::to_vec(&CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats,
        decks: dojo_games::cardjitsu::decks::default_names(Default::default()),
        draws: [dojo_engine::cardjitsu::Draw::WithoutReplacement; 2],
        play: game.into_record(),
        conduct,
        stderr: Vec::new(),
        timing: Timing::default(),
    })
    .unwrap()
}

fn royale_record() -> Vec<u8> {
    let text = include_str!("../../../../boards/seed-example.txt");
    let board = Board::parse(text, "seed-example").unwrap();
    let teams = vec![Team::Rock, Team::Paper, Team::Scissors];
    let mut game = Royale::new(board, teams, 7, royale::Settings::default()).unwrap();
    let tries = [
        royale::Action::Instigate(royale::Dir::R),
        royale::Action::Move(royale::Dir::D),
        royale::Action::Move(royale::Dir::L),
    ];
    for turn in 0..30 {
        let Some(seat) = game.to_move() else { break };
        game.step(seat, tries[turn % tries.len()]).unwrap();
    }
    let (seats, conduct) = seats(3);
    serde_json::to_vec(&RoyaleRecord {
        version: RECORD_VERSION,
        game: "royale".into(),
        seats,
        board_file: "boards/seed-example.txt".into(),
        play: game.record(),
        conduct,
        stderr: Vec::new(),
        timing: Timing::default(),
    })
    .unwrap()
}

#[test]
fn records() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("record.json");
    no_panics(
        "record",
        &[cardjitsu_record(), royale_record()],
        400,
        |bytes| {
            std::fs::write(&file, bytes).unwrap();
            let _ = dojo_league::replay::load(&file, None);
        },
    );
}

fn settings() -> Settings {
    let bot = |name: &str| Entrant {
        name: name.into(),
        command: name.into(),
        dir: None,
        fixed_team: None,
        values: Default::default(),
    };
    Settings {
        game: Game::CARDJITSU,
        bots: vec![bot("a"), bot("b")],
        games: 4,
        seed: 1,
        boards: Vec::new(),
        controls: dojo_runner::Controls {
            timeout: std::time::Duration::from_millis(1000),
            ..dojo_runner::Controls::default()
        },
        raises: dojo_league::Raises::Allow,
        faults: Default::default(),
        anchor: Some("a".into()),
        anchor_elo: None,
        gauntlet: None,
        sprt: None,
        shard: Some(dojo_league::Shard::new(1, 2).unwrap()),
        play: Default::default(),
    }
}

#[test]
fn league_files() {
    let dir = tempfile::tempdir().unwrap();
    store::write_settings(dir.path(), &settings()).unwrap();
    let valid = std::fs::read(dir.path().join(store::LEAGUE_FILE)).unwrap();
    no_panics("league.json", &[valid], 400, |bytes| {
        std::fs::write(dir.path().join(store::LEAGUE_FILE), bytes).unwrap();
        if let Ok(settings) = store::load_settings(dir.path())
            && let Ok(schedule) = Schedule::build(&settings)
        {
            let _ = schedule.select(settings.shard);
        }
    });
}

#[test]
fn game_lines() {
    let settings = settings();
    let schedule = Schedule::build(&settings).unwrap();
    let mut text = Vec::new();
    for (i, fixture) in schedule.fixtures().iter().take(2).enumerate() {
        let fixture: &Fixture = fixture;
        let result = GameResult {
            first_faults: Vec::new(),
            faulty: Vec::new(),
            prompts: Vec::new(),
            scores: if i == 0 {
                vec![1.0, 0.0]
            } else {
                vec![0.5, 0.5]
            },
            faults: vec![SeatFaults::default(); 2],
            record: serde_json::from_slice(&cardjitsu_record()).unwrap(),
            timing: serde_json::json!({"wall_ms": 1.0}),
        };
        serde_json::to_writer(&mut text, &GameLine::new(fixture, result)).unwrap();
        text.push(b'\n');
    }
    let dir = tempfile::tempdir().unwrap();
    no_panics("games.jsonl", &[text], 300, |bytes| {
        std::fs::write(dir.path().join(store::GAMES_FILE), bytes).unwrap();
        if let Ok(lines) = store::read_games(dir.path(), Game::CARDJITSU, false) {
            // What a report does with them must not panic either.
            let _ = dojo_league::report::build_report(
                &settings,
                &Default::default(),
                &lines,
                lines.len() as u64,
                Default::default(),
            );
        }
    });
}

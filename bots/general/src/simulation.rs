//! In-process games: a team of `general` bots against two teams of seeded
//! random bots on the repository's boards. Every seed is fixed, so the
//! results (and the thresholds asserted on them) are deterministic.

use dojo_engine::rng;
use dojo_engine::royale::{Action, Board, Dir, Royale, Settings, Team};
use rand::RngExt;

use crate::strategy::choose;

macro_rules! board_file {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../boards/", $name)),
        )
    };
}

const PER_TEAM: usize = 3;
/// Round cap of the small-board games: enough for three bots to clear the
/// frontier board, and still fast in a debug build.
const MAX_ROUNDS: u32 = 200;

/// Wins of the `general` team and of each random team (the one it beats,
/// the one that beats it), and draws.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    general: u32,
    random_prey: u32,
    random_pred: u32,
    draws: u32,
}

impl Tally {
    fn games(&self) -> u32 {
        self.general + self.random_prey + self.random_pred + self.draws
    }
}

/// A random bot's action, like `bots/royale-random-py`: pass, move or
/// instigate with weights 1:2:2, then a uniform direction.
fn random_action(rng: &mut rng::ChaCha8Rng) -> Action {
    let dir = Dir::ALL[rng.random_range(0..4usize)];
    match rng.random_range(0..5u32) {
        0 => Action::Pass,
        1 | 2 => Action::Move(dir),
        _ => Action::Instigate(dir),
    }
}

/// Plays one game, the seats of team `general` (if any) played by
/// [`choose`], all others by random bots; returns the game at its end.
fn play(board: &Board, general: Option<Team>, seed: u64, max_rounds: u32) -> Royale {
    let teams: Vec<Team> = (0..PER_TEAM).flat_map(|_| Team::ALL).collect();
    let settings = Settings {
        max_rounds: Some(max_rounds),
        stall_rounds: None,
    };
    let mut game = Royale::new(board.clone(), teams.clone(), seed, settings).unwrap();
    let mut rngs: Vec<_> = (0..teams.len())
        .map(|seat| rng::stream(seed, 1000 + seat as u64))
        .collect();
    while let Some(seat) = game.to_move() {
        let action = if Some(teams[seat]) == general {
            choose(game.board(), game.positions()[seat], teams[seat])
        } else {
            random_action(&mut rngs[seat])
        };
        game.step(seat, action).unwrap();
    }
    game
}

/// Plays `seeds` games on `board`, the `general` team rotating through
/// Rock, Paper and Scissors.
fn tally(text: &str, name: &str, seeds: u64, max_rounds: u32) -> Tally {
    let board = Board::parse(text, name).unwrap();
    let mut t = Tally::default();
    for seed in 0..seeds {
        let ours = Team::ALL[(seed % 3) as usize];
        let game = play(&board, Some(ours), seed, max_rounds);
        match game.outcome().and_then(|o| o.winner) {
            None => t.draws += 1,
            Some(w) if w == ours => t.general += 1,
            Some(w) if ours.beats(w) => t.random_prey += 1,
            Some(_) => t.random_pred += 1,
        }
    }
    eprintln!("{name}: {t:?}");
    t
}

#[test]
fn general_team_beats_random_teams_on_small_boards() {
    let boards = [
        board_file!("seed-example.txt"),
        board_file!("arena.txt"),
        board_file!("maze.txt"),
        board_file!("frontier.txt"),
    ];
    let tallies: Vec<(&str, Tally)> = boards
        .into_iter()
        .map(|(name, text)| (name, tally(text, name, 12, MAX_ROUNDS)))
        .collect();
    for (name, t) in tallies {
        assert_eq!(t.games(), 12);
        let best_random = t.random_prey.max(t.random_pred);
        assert!(
            t.general >= 5 && t.general >= 3 * best_random + 3,
            "{name}: {t:?}"
        );
    }
}

/// The work left before `team` can win: every predator tile must become
/// prey and every prey tile must then be eaten.
fn work_left(board: &Board, team: Team) -> usize {
    let sign = |f: &dyn Fn(Team) -> bool| {
        Team::ALL
            .into_iter()
            .find(|&t| f(t))
            .map_or(0, |t| board.counts().get(t.tile()))
    };
    2 * sign(&|t| t.beats(team)) + sign(&|t| team.beats(t))
}

#[test]
fn general_team_makes_progress_on_the_large_board() {
    // Thousands of sign tiles cannot be cleared in a short test game, so
    // compare the work left for the team after 150 rounds with what a
    // random team in the same seat leaves.
    let (name, text) = board_file!("large.txt");
    let board = Board::parse(text, name).unwrap();
    for seed in 0..3 {
        let ours = Team::ALL[seed as usize % 3];
        let general = play(&board, Some(ours), seed, 150);
        let baseline = play(&board, None, seed, 150);
        let (g, r) = (
            work_left(general.board(), ours),
            work_left(baseline.board(), ours),
        );
        eprintln!("{name} seed {seed} ({ours}): work left general {g}, random {r}");
        assert!(g + 100 < r, "seed {seed}: {g} vs {r}");
    }
}

#[test]
#[ignore = "debugging aid: DEBUG_BOARD=arena.txt cargo test show_games -- --ignored --nocapture"]
fn show_games() {
    let boards = [
        board_file!("seed-example.txt"),
        board_file!("arena.txt"),
        board_file!("maze.txt"),
        board_file!("frontier.txt"),
    ];
    let want = std::env::var("DEBUG_BOARD").unwrap_or_default();
    for (name, text) in boards.into_iter().filter(|(n, _)| *n == want) {
        let board = Board::parse(text, name).unwrap();
        for seed in 0..6 {
            let ours = Team::ALL[seed as usize % 3];
            let game = play(&board, Some(ours), seed, MAX_ROUNDS);
            let mut kinds = std::collections::BTreeMap::new();
            for a in &game.record().actions {
                if game.teams()[a.seat] == ours {
                    let k = format!("{:?}", a.effect);
                    let k = k.split([' ', '(']).next().unwrap_or("").to_owned();
                    let kind =
                        format!("{}:{k}", a.action.to_string().chars().next().unwrap_or('?'));
                    *kinds.entry(kind).or_insert(0) += 1;
                }
            }
            eprintln!(
                "ours {ours} {kinds:?} {:?}\n{}",
                game.outcome(),
                game.board().to_lines().join("\n")
            );
        }
    }
}

//! The deterministic list of games (fixtures) a league plays.
//!
//! The schedule depends only on the settings, never on the order bots were
//! listed in (bots are sorted by name) or on the order games run in. Game
//! seeds come from the league seed and stable hashes of the bot names, so
//! adding a bot leaves every existing pairing's seeds unchanged. See
//! FORMATS.md for the exact derivation.

use dojo_engine::rng::derive_seed;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::settings::{BadShard, BotSpec, GameKind, Settings, Shard};

/// Royale teams, in seat order: seat `i` plays `TEAMS[i]`.
pub const TEAMS: [&str; 3] = ["R", "P", "S"];

/// One scheduled game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    /// Index in the full (unsharded) schedule.
    pub id: u64,
    /// The game played (what the executor dispatches on).
    pub game: GameKind,
    /// Bot names by seat.
    pub seats: Vec<String>,
    /// Royale: the team of each seat (`R`, `P`, `S`); empty for CardJitsu.
    pub teams: Vec<String>,
    /// Royale: the board, if boards were given.
    pub board: Option<String>,
    /// Index of the group of games sharing one seed (CardJitsu: the two
    /// seat-swapped legs; royale: the team rotations of one triple).
    pub pair: u64,
    /// Position within the group (CardJitsu: 0 or 1; royale: 0..=5).
    pub leg: u8,
    /// The game seed.
    pub seed: u64,
}

/// Why a schedule cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScheduleError {
    #[error("a league needs at least 2 bots, got {0}")]
    TooFewBots(usize),
    #[error("bot name `{0}` is given twice; bot names must be unique")]
    DuplicateBot(String),
    #[error("bot name {0:?} is invalid: names must be non-empty and contain no control characters")]
    BadName(String),
    #[error("bot `{bot}` has fixed team `{team}`: expected R, P or S")]
    BadTeam { bot: String, team: String },
    #[error("the number of games must be at least 1")]
    ZeroGames,
    #[error(
        "the fixed teams leave no valid royale seating: every game would need two bots on one team"
    )]
    Empty,
    #[error(
        "this league would schedule up to {games} games; at most {MAX_FIXTURES} are allowed (use fewer --games or bots, or split it into several leagues)"
    )]
    TooManyGames { games: u128 },
    #[error("anchor `{0}` is not one of the league's bots")]
    UnknownAnchor(String),
    #[error(transparent)]
    BadShard(#[from] BadShard),
}

/// Most fixtures one schedule may hold. The schedule is built in memory
/// (about 200 bytes a fixture), so a mistyped `--games` or a hand-edited
/// `league.json` must be refused before it is built, not run out of memory.
pub const MAX_FIXTURES: u128 = 2_000_000;

/// An upper bound on the fixtures of `bots` bots playing `games` games per
/// pairing (CardJitsu) or trio (royale), computed without overflow.
fn fixture_bound(game: GameKind, bots: usize, games: u64) -> u128 {
    let n = bots as u128;
    let (groups, legs, cycles) = match game {
        GameKind::Cardjitsu => (n * n.saturating_sub(1) / 2, 2, games.div_ceil(2)),
        GameKind::Royale => (
            (n * n.saturating_sub(1) * n.saturating_sub(2) / 6).max(2),
            6,
            games.div_ceil(3),
        ),
    };
    groups * legs * u128::from(cycles)
}

/// FNV-1a, 64 bit, over the UTF-8 bytes of `s`: the stable name hash that
/// game seeds are derived from.
pub fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// All fixtures of a league, in id order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    fixtures: Vec<Fixture>,
}

impl Schedule {
    /// The full schedule of a league (its shard setting is not applied; see
    /// [`Schedule::select`]).
    pub fn build(settings: &Settings) -> Result<Schedule, ScheduleError> {
        let schedule = Schedule::new(
            settings.game,
            &settings.bots,
            settings.games,
            settings.seed,
            &settings.boards,
        )?;
        if let Some(anchor) = &settings.anchor
            && !settings.bots.iter().any(|b| &b.name == anchor)
        {
            return Err(ScheduleError::UnknownAnchor(anchor.clone()));
        }
        Ok(schedule)
    }

    /// The schedule for `bots` playing `game`. `boards` only matter for
    /// royale; `fixed_team` is ignored for CardJitsu.
    pub fn new(
        game: GameKind,
        bots: &[BotSpec],
        games: u64,
        seed: u64,
        boards: &[String],
    ) -> Result<Schedule, ScheduleError> {
        if bots.len() < 2 {
            return Err(ScheduleError::TooFewBots(bots.len()));
        }
        if games == 0 {
            return Err(ScheduleError::ZeroGames);
        }
        let bound = fixture_bound(game, bots.len(), games);
        if bound > MAX_FIXTURES {
            return Err(ScheduleError::TooManyGames { games: bound });
        }
        let mut sorted: Vec<&BotSpec> = bots.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        for w in sorted.windows(2) {
            if w[0].name == w[1].name {
                return Err(ScheduleError::DuplicateBot(w[0].name.clone()));
            }
        }
        for b in &sorted {
            if b.name.is_empty() || b.name.chars().any(char::is_control) {
                return Err(ScheduleError::BadName(b.name.clone()));
            }
        }
        let fixtures = match game {
            GameKind::Cardjitsu => cardjitsu(&sorted, games, seed),
            GameKind::Royale => royale(&sorted, games, seed, boards)?,
        };
        if fixtures.is_empty() {
            return Err(ScheduleError::Empty);
        }
        Ok(Schedule { fixtures })
    }

    /// Every fixture, in id order (`fixtures()[i].id == i`).
    pub fn fixtures(&self) -> &[Fixture] {
        &self.fixtures
    }

    /// The fixtures of shard `index` of `count` (1-based): those with
    /// `id % count == index - 1`.
    pub fn shard(&self, index: u64, count: u64) -> Result<Vec<Fixture>, ScheduleError> {
        let shard = Shard::new(index, count)?;
        Ok(self.select(Some(shard)))
    }

    /// [`Schedule::select`] without copying the schedule: a league holds
    /// only one copy of its fixtures at a time.
    pub fn into_selected(self, shard: Option<Shard>) -> Vec<Fixture> {
        let mut fixtures = self.fixtures;
        if let Some(s) = shard {
            fixtures.retain(|f| f.id % s.count == s.index - 1);
            fixtures.shrink_to_fit();
        }
        fixtures
    }

    /// The fixtures a directory with this shard setting plays.
    pub fn select(&self, shard: Option<Shard>) -> Vec<Fixture> {
        match shard {
            None => self.fixtures.clone(),
            Some(s) => self
                .fixtures
                .iter()
                .filter(|f| f.id % s.count == s.index - 1)
                .cloned()
                .collect(),
        }
    }
}

/// Every unordered pair plays `ceil(games / 2)` seeds, each twice with the
/// seats swapped. Rounds are outermost so that any prefix of the schedule
/// (a cancelled league, a shard) covers every pair about equally.
fn cardjitsu(bots: &[&BotSpec], games: u64, league_seed: u64) -> Vec<Fixture> {
    let tag = fnv1a64("cardjitsu");
    let mut pairs = Vec::new();
    for (i, a) in bots.iter().enumerate() {
        for b in &bots[i + 1..] {
            pairs.push((a.name.as_str(), b.name.as_str()));
        }
    }
    let mut fixtures = Vec::new();
    let mut pair = 0;
    for round in 0..games.div_ceil(2) {
        for &(a, b) in &pairs {
            let seed = derive_seed(league_seed, &[tag, fnv1a64(a), fnv1a64(b), round]);
            for (leg, seats) in [[a, b], [b, a]].into_iter().enumerate() {
                fixtures.push(Fixture {
                    id: fixtures.len() as u64,
                    game: GameKind::Cardjitsu,
                    seats: seats.iter().map(|s| s.to_string()).collect(),
                    teams: Vec::new(),
                    board: None,
                    pair,
                    leg: leg as u8,
                    seed,
                });
            }
            pair += 1;
        }
    }
    fixtures
}

/// Every triple (3-combination of distinct bots; with 2 bots A < B, the
/// multisets AAB and ABB) plays `ceil(games / 3)` seeds. Each seed is
/// played once per valid seating: the 3 cyclic rotations when no bot of
/// the triple has a fixed team, otherwise every distinct permutation that
/// honours the fixed teams.
fn royale(
    bots: &[&BotSpec],
    games: u64,
    league_seed: u64,
    boards: &[String],
) -> Result<Vec<Fixture>, ScheduleError> {
    for b in bots {
        if let Some(team) = &b.fixed_team
            && !TEAMS.contains(&team.as_str())
        {
            return Err(ScheduleError::BadTeam {
                bot: b.name.clone(),
                team: team.clone(),
            });
        }
    }
    let triples: Vec<[&BotSpec; 3]> = if bots.len() == 2 {
        vec![[bots[0], bots[0], bots[1]], [bots[0], bots[1], bots[1]]]
    } else {
        let mut t = Vec::new();
        for i in 0..bots.len() {
            for j in i + 1..bots.len() {
                for k in j + 1..bots.len() {
                    t.push([bots[i], bots[j], bots[k]]);
                }
            }
        }
        t
    };
    let seatings: Vec<Vec<[&BotSpec; 3]>> = triples.iter().map(|t| seatings_of(*t)).collect();

    let tag = fnv1a64("royale");
    let mut fixtures = Vec::new();
    let mut pair = 0;
    for cycle in 0..games.div_ceil(3) {
        for (t, (triple, seatings)) in triples.iter().zip(&seatings).enumerate() {
            if seatings.is_empty() {
                continue;
            }
            let path = [
                tag,
                fnv1a64(&triple[0].name),
                fnv1a64(&triple[1].name),
                fnv1a64(&triple[2].name),
                cycle,
            ];
            let seed = derive_seed(league_seed, &path);
            // Offsetting by the triple spreads boards over triples even
            // when there are more boards than cycles.
            let board = (!boards.is_empty())
                .then(|| boards[((cycle + t as u64) % boards.len() as u64) as usize].clone());
            for (leg, seating) in seatings.iter().enumerate() {
                fixtures.push(Fixture {
                    id: fixtures.len() as u64,
                    game: GameKind::Royale,
                    seats: seating.iter().map(|b| b.name.clone()).collect(),
                    teams: TEAMS.iter().map(|t| t.to_string()).collect(),
                    board: board.clone(),
                    pair,
                    leg: leg as u8,
                    seed,
                });
            }
            pair += 1;
        }
    }
    Ok(fixtures)
}

/// The seatings (bot per team R, P, S) one seed of a triple is played in.
fn seatings_of(t: [&BotSpec; 3]) -> Vec<[&BotSpec; 3]> {
    let any_fixed = t.iter().any(|b| b.fixed_team.is_some());
    let candidates: Vec<[usize; 3]> = if any_fixed {
        vec![
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ]
    } else {
        vec![[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    };
    let mut out: Vec<[&BotSpec; 3]> = Vec::new();
    for c in candidates {
        let seating = [t[c[0]], t[c[1]], t[c[2]]];
        let honours = seating
            .iter()
            .zip(TEAMS)
            .all(|(b, team)| b.fixed_team.as_deref().is_none_or(|fixed| fixed == team));
        let fresh = !out
            .iter()
            .any(|s| s.iter().zip(&seating).all(|(x, y)| x.name == y.name));
        if honours && fresh {
            out.push(seating);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(name: &str) -> BotSpec {
        BotSpec {
            name: name.into(),
            command: format!("./{name}"),
            fixed_team: None,
        }
    }

    #[test]
    fn fnv_matches_reference_values() {
        // Reference values of FNV-1a 64 (Fowler/Noll/Vo test suite).
        assert_eq!(fnv1a64(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn odd_cardjitsu_games_round_up_to_pairs() {
        let s = Schedule::new(GameKind::Cardjitsu, &[bot("a"), bot("b")], 3, 1, &[]).unwrap();
        assert_eq!(s.fixtures().len(), 4);
        assert_eq!(s.fixtures()[0].seed, s.fixtures()[1].seed);
        assert_ne!(s.fixtures()[0].seed, s.fixtures()[2].seed);
        assert_eq!(s.fixtures()[1].seats, vec!["b", "a"]);
    }

    #[test]
    fn bad_input_is_rejected() {
        let one = Schedule::new(GameKind::Cardjitsu, &[bot("a")], 2, 1, &[]);
        assert_eq!(one, Err(ScheduleError::TooFewBots(1)));
        let dup = Schedule::new(GameKind::Cardjitsu, &[bot("a"), bot("a")], 2, 1, &[]);
        assert_eq!(dup, Err(ScheduleError::DuplicateBot("a".into())));
        let zero = Schedule::new(GameKind::Cardjitsu, &[bot("a"), bot("b")], 0, 1, &[]);
        assert_eq!(zero, Err(ScheduleError::ZeroGames));
        let mut x = bot("x");
        x.fixed_team = Some("Q".into());
        let team = Schedule::new(GameKind::Royale, &[x, bot("b"), bot("c")], 3, 1, &[]);
        assert!(matches!(team, Err(ScheduleError::BadTeam { .. })));
        let mut r1 = bot("r1");
        r1.fixed_team = Some("R".into());
        let mut r2 = bot("r2");
        r2.fixed_team = Some("R".into());
        let none = Schedule::new(GameKind::Royale, &[r1, r2], 3, 1, &[]);
        assert_eq!(none, Err(ScheduleError::Empty));
    }

    #[test]
    fn shard_index_is_validated() {
        let s = Schedule::new(GameKind::Cardjitsu, &[bot("a"), bot("b")], 4, 1, &[]).unwrap();
        assert!(s.shard(0, 2).is_err());
        assert!(s.shard(3, 2).is_err());
        let one = s.shard(1, 2).unwrap();
        assert!(one.iter().all(|f| f.id % 2 == 0));
        assert_eq!(one.len() + s.shard(2, 2).unwrap().len(), 4);
    }

    #[test]
    fn royale_boards_rotate() {
        let boards = vec!["x.txt".to_string(), "y.txt".to_string()];
        let bots = [bot("a"), bot("b"), bot("c")];
        let s = Schedule::new(GameKind::Royale, &bots, 6, 1, &boards).unwrap();
        let used: Vec<_> = s
            .fixtures()
            .iter()
            .map(|f| f.board.clone().unwrap())
            .collect();
        assert_eq!(used, ["x.txt", "x.txt", "x.txt", "y.txt", "y.txt", "y.txt"]);
    }
}

//! The deterministic list of games (fixtures) a league plays.
//!
//! The schedule depends only on the settings, never on the order bots were
//! listed in (bots are sorted by name) or on the order games run in. Game
//! seeds come from the league seed and stable hashes of the bot names, so
//! adding a bot leaves every existing pairing's seeds unchanged. See
//! FORMATS.md for the exact derivation.

use dojo_engine::rng::derive_seed;
use dojo_engine::royale::Team;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::settings::{BadShard, Entrant, GameKind, Settings, Shard};

/// Royale teams, in seat order: seat `i` plays `TEAMS[i]`.
pub const TEAMS: [Team; 3] = [Team::Rock, Team::Paper, Team::Scissors];

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
    pub teams: Vec<Team>,
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
    #[error("gauntlet bot `{0}` is not one of the league's bots")]
    UnknownGauntlet(String),
    #[error(transparent)]
    BadShard(#[from] BadShard),
}

/// Most fixtures one schedule may hold. The schedule itself is computed on
/// demand, but a league keeps a compact outcome per stored game, so a
/// mistyped `--games` or a hand-edited `league.json` is refused before it
/// starts rather than running for weeks.
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

/// Bots that play together, and the seatings they play every cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Group {
    /// Position among all groups of the format (before groups without a
    /// valid seating were dropped): boards rotate by it.
    index: u64,
    /// The members' name hashes, in member order: with the cycle, they
    /// make the group's seed.
    hashes: Vec<u64>,
    /// Per leg, the bot (index into the sorted names) in each seat.
    seatings: Vec<Vec<u16>>,
}

/// A league's fixtures, computed on demand from their id: every cycle,
/// every group plays each of its seatings once, with one seed per group
/// and cycle. Only the groups are held (a few per pairing of bots), never
/// the fixtures, so a schedule's memory does not grow with `--games`.
///
/// The layout is generic over the number of seats and their role labels
/// (royale's teams); the games differ only in how groups and seatings are
/// formed ([`Schedule::new`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    game: GameKind,
    /// Sorted bot names.
    names: Vec<String>,
    /// Role label of each seat (royale: `R`, `P`, `S`); empty for none.
    roles: Vec<Team>,
    boards: Vec<String>,
    seed: u64,
    /// Hash of the game's name, the first word of every seed path.
    tag: u64,
    groups: Vec<Group>,
    /// `offsets[g]`: the legs of the groups before `g` within a cycle;
    /// one more entry, the legs of a whole cycle.
    offsets: Vec<u64>,
    cycles: u64,
}

impl Schedule {
    /// The full schedule of a league (its shard setting is not applied; see
    /// [`Schedule::selected`]).
    pub fn build(settings: &Settings) -> Result<Schedule, ScheduleError> {
        let schedule = Schedule::with_gauntlet(
            settings.game,
            &settings.bots,
            settings.games,
            settings.seed,
            &settings.boards,
            settings.gauntlet.as_deref(),
        )?;
        if let Some(anchor) = &settings.anchor
            && !settings.bots.iter().any(|b| &b.name == anchor)
        {
            return Err(ScheduleError::UnknownAnchor(anchor.clone()));
        }
        Ok(schedule)
    }

    /// The round-robin schedule for `bots` playing `game`. `boards` only
    /// matter for royale; `fixed_team` is ignored for CardJitsu.
    pub fn new(
        game: GameKind,
        bots: &[Entrant],
        games: u64,
        seed: u64,
        boards: &[String],
    ) -> Result<Schedule, ScheduleError> {
        Schedule::with_gauntlet(game, bots, games, seed, boards, None)
    }

    /// [`Schedule::new`], or with `gauntlet` set, a gauntlet: only the
    /// groups that include that bot are played (CardJitsu: its pairings with
    /// each other bot; royale: the trios that include it). A gauntlet's
    /// games are the round robin's games of those groups, with the same
    /// seeds.
    pub fn with_gauntlet(
        game: GameKind,
        bots: &[Entrant],
        games: u64,
        seed: u64,
        boards: &[String],
        gauntlet: Option<&str>,
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
        let mut sorted: Vec<&Entrant> = bots.iter().collect();
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
        let focus = match gauntlet {
            None => None,
            Some(name) => Some(
                sorted
                    .iter()
                    .position(|b| b.name == name)
                    .ok_or_else(|| ScheduleError::UnknownGauntlet(name.to_owned()))?,
            ),
        };
        let (groups, roles, cycles) = match game {
            GameKind::Cardjitsu => (cardjitsu_groups(&sorted), Vec::new(), games.div_ceil(2)),
            GameKind::Royale => (royale_groups(&sorted)?, TEAMS.to_vec(), games.div_ceil(3)),
        };
        let groups: Vec<Group> = groups
            .into_iter()
            .filter(|g| !g.seatings.is_empty())
            .filter(|g| focus.is_none_or(|f| g.seatings[0].iter().any(|&b| usize::from(b) == f)))
            .collect();
        if groups.is_empty() {
            return Err(ScheduleError::Empty);
        }
        let mut offsets = Vec::with_capacity(groups.len() + 1);
        let mut legs = 0;
        for g in &groups {
            offsets.push(legs);
            legs += g.seatings.len() as u64;
        }
        offsets.push(legs);
        Ok(Schedule {
            game,
            names: sorted.iter().map(|b| b.name.clone()).collect(),
            roles,
            boards: if game == GameKind::Royale {
                boards.to_vec()
            } else {
                Vec::new()
            },
            seed,
            tag: fnv1a64(game.name()),
            groups,
            offsets,
            cycles,
        })
    }

    /// Fixtures in the whole schedule.
    pub fn len(&self) -> u64 {
        self.cycles * self.per_cycle()
    }

    /// Whether the schedule has no fixtures (never, once built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn per_cycle(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// The fixture with this id, computed from it; `None` past the end.
    pub fn fixture(&self, id: u64) -> Option<Fixture> {
        if id >= self.len() {
            return None;
        }
        let per_cycle = self.per_cycle();
        let (cycle, rest) = (id / per_cycle, id % per_cycle);
        let g = self.offsets.partition_point(|&o| o <= rest) - 1;
        let group = &self.groups[g];
        let leg = rest - self.offsets[g];
        let mut path = Vec::with_capacity(group.hashes.len() + 2);
        path.push(self.tag);
        path.extend_from_slice(&group.hashes);
        path.push(cycle);
        let board = (!self.boards.is_empty()).then(|| {
            let n = self.boards.len() as u64;
            self.boards[((cycle + group.index) % n) as usize].clone()
        });
        Some(Fixture {
            id,
            game: self.game,
            seats: group.seatings[leg as usize]
                .iter()
                .map(|&b| self.names[usize::from(b)].clone())
                .collect(),
            teams: self.roles.clone(),
            board,
            pair: cycle * self.groups.len() as u64 + g as u64,
            leg: leg as u8,
            seed: derive_seed(self.seed, &path),
        })
    }

    /// Every fixture, in id order, one at a time.
    pub fn iter(&self) -> impl Iterator<Item = Fixture> + '_ {
        self.selected(None)
    }

    /// The fixtures a directory with this shard setting plays, in id
    /// order: all, or those of shard `index` of `count` (1-based), whose
    /// `id % count == index - 1`.
    pub fn selected(&self, shard: Option<Shard>) -> impl Iterator<Item = Fixture> + '_ {
        let (first, step) = shard.map_or((0, 1), |s| (s.index - 1, s.count));
        (0..)
            .map(move |k| first + k * step)
            .map_while(move |id| self.fixture(id))
    }

    /// How many fixtures [`Schedule::selected`] yields.
    pub fn selected_len(&self, shard: Option<Shard>) -> u64 {
        match shard {
            None => self.len(),
            Some(s) => self.len().saturating_sub(s.index - 1).div_ceil(s.count),
        }
    }

    /// Whether `id` is one of the fixtures of `shard`.
    pub fn selects(&self, shard: Option<Shard>, id: u64) -> bool {
        id < self.len() && shard.is_none_or(|s| id % s.count == s.index - 1)
    }

    /// Every fixture, in id order (`fixtures()[i].id == i`), collected:
    /// for tests and small schedules; a league walks [`Schedule::selected`].
    pub fn fixtures(&self) -> Vec<Fixture> {
        self.iter().collect()
    }

    /// The fixtures of shard `index` of `count` (1-based): those with
    /// `id % count == index - 1`.
    pub fn shard(&self, index: u64, count: u64) -> Result<Vec<Fixture>, ScheduleError> {
        let shard = Shard::new(index, count)?;
        Ok(self.selected(Some(shard)).collect())
    }

    /// [`Schedule::selected`], collected.
    pub fn select(&self, shard: Option<Shard>) -> Vec<Fixture> {
        self.selected(shard).collect()
    }
}

/// Every unordered pair plays `ceil(games / 2)` seeds, each twice with the
/// seats swapped. Cycles are outermost so that any prefix of the schedule
/// (a cancelled league, a shard) covers every pair about equally.
fn cardjitsu_groups(bots: &[&Entrant]) -> Vec<Group> {
    let mut groups = Vec::new();
    for i in 0..bots.len() {
        for j in i + 1..bots.len() {
            let (a, b) = (i as u16, j as u16);
            groups.push(Group {
                index: groups.len() as u64,
                hashes: vec![fnv1a64(&bots[i].name), fnv1a64(&bots[j].name)],
                seatings: vec![vec![a, b], vec![b, a]],
            });
        }
    }
    groups
}

/// Every triple (3-combination of distinct bots; with 2 bots A < B, the
/// multisets AAB and ABB) plays `ceil(games / 3)` seeds. Each seed is
/// played once per valid seating: the 3 cyclic rotations when no bot of
/// the triple has a fixed team, otherwise every distinct permutation that
/// honours the fixed teams.
fn royale_groups(bots: &[&Entrant]) -> Result<Vec<Group>, ScheduleError> {
    let triples: Vec<[usize; 3]> = if bots.len() == 2 {
        vec![[0, 0, 1], [0, 1, 1]]
    } else {
        let mut t = Vec::new();
        for i in 0..bots.len() {
            for j in i + 1..bots.len() {
                for k in j + 1..bots.len() {
                    t.push([i, j, k]);
                }
            }
        }
        t
    };
    Ok(triples
        .iter()
        .enumerate()
        .map(|(index, &t)| Group {
            index: index as u64,
            hashes: t.iter().map(|&b| fnv1a64(&bots[b].name)).collect(),
            seatings: seatings_of(bots, t)
                .into_iter()
                .map(|s| s.iter().map(|&b| b as u16).collect())
                .collect(),
        })
        .collect())
}

/// The seatings (bot per team R, P, S) one seed of a triple is played in.
fn seatings_of(bots: &[&Entrant], t: [usize; 3]) -> Vec<[usize; 3]> {
    let any_fixed = t.iter().any(|&b| bots[b].fixed_team.is_some());
    let candidates: &[[usize; 3]] = if any_fixed {
        &[
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ]
    } else {
        &[[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    };
    let mut out: Vec<[usize; 3]> = Vec::new();
    for c in candidates {
        let seating = [t[c[0]], t[c[1]], t[c[2]]];
        let honours = seating
            .iter()
            .zip(TEAMS)
            .all(|(&b, team)| bots[b].fixed_team.is_none_or(|fixed| fixed == team));
        if honours && !out.contains(&seating) {
            out.push(seating);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(name: &str) -> Entrant {
        Entrant {
            name: name.into(),
            command: format!("./{name}"),
            fixed_team: None,
            values: Default::default(),
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
        let mut r1 = bot("r1");
        r1.fixed_team = Some(Team::Rock);
        let mut r2 = bot("r2");
        r2.fixed_team = Some(Team::Rock);
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
    fn fixtures_are_computed_from_their_id_alone() {
        let bots = [bot("a"), bot("b"), bot("c"), bot("d")];
        for game in [GameKind::Cardjitsu, GameKind::Royale] {
            let s = Schedule::new(game, &bots, 7, 5, &["x".into(), "y".into()]).unwrap();
            let all = s.fixtures();
            assert_eq!(all.len() as u64, s.len());
            // Out of order, one at a time: the same fixtures.
            for id in (0..s.len()).rev() {
                assert_eq!(s.fixture(id).as_ref(), Some(&all[id as usize]));
            }
            assert_eq!(s.fixture(s.len()), None);
            for count in 1..=5 {
                for index in 1..=count {
                    let shard = Some(Shard::new(index, count).unwrap());
                    let picked: Vec<Fixture> = s.selected(shard).collect();
                    assert_eq!(picked.len() as u64, s.selected_len(shard));
                    assert!(picked.iter().all(|f| s.selects(shard, f.id)));
                }
            }
        }
    }

    #[test]
    fn a_gauntlet_plays_the_round_robin_games_of_its_bot_only() {
        let bots = [bot("new"), bot("b"), bot("c"), bot("d")];
        for game in [GameKind::Cardjitsu, GameKind::Royale] {
            let all = Schedule::new(game, &bots, 4, 5, &[]).unwrap();
            let g = Schedule::with_gauntlet(game, &bots, 4, 5, &[], Some("new")).unwrap();
            let with_new: Vec<_> = all
                .iter()
                .filter(|f| f.seats.iter().any(|s| s == "new"))
                .map(|f| (f.seats, f.seed, f.leg))
                .collect();
            let played: Vec<_> = g.iter().map(|f| (f.seats, f.seed, f.leg)).collect();
            assert_eq!(played, with_new, "{game}");
            assert!(g.iter().enumerate().all(|(i, f)| f.id == i as u64));
        }
        let unknown = Schedule::with_gauntlet(GameKind::Cardjitsu, &bots, 4, 5, &[], Some("x"));
        assert_eq!(unknown, Err(ScheduleError::UnknownGauntlet("x".into())));
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

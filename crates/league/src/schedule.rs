//! The deterministic list of games (fixtures) a league plays.
//!
//! The schedule depends only on the settings, never on the order bots were
//! listed in (bots are sorted by name) or on the order games run in. Game
//! seeds come from the league seed and stable hashes of the bot names, so
//! adding a bot leaves every existing pairing's seeds unchanged. See
//! FORMATS.md for the exact derivation.

use dojo_engine::rng::derive_seed;
use dojo_games::Role;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::settings::{BadShard, Entrant, Game, Settings, Shard};
use dojo_games::Shape;

mod play_order;
pub use play_order::bots_in_play;

/// One scheduled game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    /// Index in the full (unsharded) schedule.
    pub id: u64,
    /// The game played (what the executor dispatches on).
    pub game: Game,
    /// Bot names by seat.
    pub seats: Vec<String>,
    /// The role of each seat (royale's teams `R`, `P`, `S`; see
    /// [`Shape::roles`]); empty for a game without roles.
    pub teams: Vec<Role>,
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
    #[error(
        "bot `{bot}` is fixed to team {team:?}, which {game} does not have (its teams: {roles:?})"
    )]
    UnknownRole {
        bot: String,
        team: String,
        game: Game,
        roles: &'static [&'static str],
    },
    /// Fewer cycles than boards: each group plays one board per cycle,
    /// so some would never play some boards (with one group, never at
    /// all).
    #[error(
        "--games {games} is too few for {boards} boards: each {group} plays {per_cycle} games on a board (one in each rotation of the seats) before it moves to the next, so it would play on only {played} of them; give --games {least} or more to play every board, or fewer boards"
    )]
    BoardsUnplayed {
        games: u64,
        boards: usize,
        group: &'static str,
        per_cycle: u64,
        played: u64,
        least: u64,
    },
    #[error(transparent)]
    BadShard(#[from] BadShard),
}

/// Most fixtures one schedule may hold. The schedule itself is computed on
/// demand, but a league keeps a compact outcome per stored game, so a
/// mistyped `--games` or a hand-edited `league.json` is refused before it
/// starts rather than running for weeks.
pub const MAX_FIXTURES: u128 = 2_000_000;

/// An upper bound on the fixtures of `bots` bots playing `games` games per
/// group of `seats` bots, computed without overflow: every group plays at
/// most every order of its members (`seats!` seatings) each of
/// `ceil(games / seats)` cycles.
fn fixture_bound(seats: usize, bots: usize, games: u64) -> u128 {
    let groups = choose(bots as u128, seats as u128).max(if bots < seats {
        // Fewer bots than seats: the multisets that seat every bot.
        choose(seats as u128 - 1, (bots as u128).saturating_sub(1))
    } else {
        0
    });
    let legs = (1..=seats as u128).fold(1u128, |f, k| f.saturating_mul(k));
    let cycles = u128::from(games.div_ceil(seats.max(1) as u64));
    groups.saturating_mul(legs).saturating_mul(cycles)
}

/// `n` choose `k`, saturating.
fn choose(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| c.saturating_mul(n - i) / (i + 1))
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
    game: Game,
    /// Sorted bot names.
    names: Vec<String>,
    /// Role label of each seat (royale: `R`, `P`, `S`); empty for none.
    roles: Vec<Role>,
    boards: Vec<String>,
    seed: u64,
    /// Hash of the game's name, the first word of every seed path.
    tag: u64,
    groups: Vec<Group>,
    /// `offsets[g]`: the legs of the groups before `g` within a cycle;
    /// one more entry, the legs of a whole cycle.
    offsets: Vec<u64>,
    cycles: u64,
    /// The games one cycle stands for, as `--games` counts them (a
    /// cycle's seat rotations; a comparison's block).
    cycle_games: u64,
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
    /// matter for royale; `fixed_team` is ignored for a game without roles.
    pub fn new(
        game: Game,
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
        game: Game,
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
        let shape = game.shape();
        let bound = fixture_bound(shape.seats(), bots.len(), games);
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
        // A fixed role the game does not have could never be seated (a
        // hand-edited league.json; manifests are checked when read).
        if !shape.roles.is_empty()
            && let Some((b, r)) = sorted.iter().find_map(|b| {
                b.fixed_team
                    .as_ref()
                    .filter(|r| !shape.roles.contains(&r.as_str()))
                    .map(|r| (b, r))
            })
        {
            return Err(ScheduleError::UnknownRole {
                bot: b.name.clone(),
                team: r.to_string(),
                game,
                roles: shape.roles,
            });
        }
        let fixed: Vec<Option<&Role>> = sorted.iter().map(|b| b.fixed_team.as_ref()).collect();
        let groups: Vec<Group> = member_sets(sorted.len(), shape.seats())
            .into_iter()
            .enumerate()
            .map(|(index, members)| Group {
                index: index as u64,
                hashes: members
                    .iter()
                    .map(|&b| fnv1a64(&sorted[usize::from(b)].name))
                    .collect(),
                seatings: group_seatings(shape, &members, false, &fixed),
            })
            .filter(|g| !g.seatings.is_empty())
            .collect();
        // `games` per group, rounded up to whole cycles: a cycle is the
        // seats' rotations (a partnership game's: the most seatings a group
        // has, every partnership split in every rotation), counted over
        // the round robin's groups so a gauntlet plays the same cycles.
        let legs_per_cycle = if shape.partnerships() {
            groups.iter().map(|g| g.seatings.len()).max().unwrap_or(1) as u64
        } else {
            shape.seats() as u64
        };
        let groups: Vec<Group> = groups
            .into_iter()
            .filter(|g| focus.is_none_or(|f| g.seatings[0].iter().any(|&b| usize::from(b) == f)))
            .collect();
        if groups.is_empty() {
            return Err(ScheduleError::Empty);
        }
        Ok(Schedule {
            cycle_games: legs_per_cycle,
            ..Schedule::from_groups(
                game,
                sorted.iter().map(|b| b.name.clone()).collect(),
                boards,
                seed,
                fnv1a64(game.name()),
                groups,
                games.div_ceil(legs_per_cycle),
            )
        })
    }

    /// Refuses a schedule, asked for `games` per group, in which a group
    /// would not play on every board: a group plays one board per cycle,
    /// so with fewer cycles than boards it misses some (a league of three
    /// royale bots, one trio, would never play them). Not part of
    /// [`Schedule::build`]: a league stored before this was refused must
    /// still resume, report and merge.
    pub fn check_boards(&self, games: u64) -> Result<(), ScheduleError> {
        let boards = self.boards.len();
        if self.cycles >= boards as u64 {
            return Ok(());
        }
        Err(ScheduleError::BoardsUnplayed {
            games,
            boards,
            group: match self.game.shape().seats() {
                2 => "pairing of bots",
                3 => "trio of bots",
                _ => "group of bots",
            },
            per_cycle: self.cycle_games,
            played: self.cycles,
            least: self.cycle_games.saturating_mul(boards as u64),
        })
    }

    /// The blocks of `dojo compare`: one group of the role names `roles`
    /// (NEW, BASE, then the bot of the further seats, which the last role
    /// fills however many there are) that plays every distinct order of
    /// its members each cycle, `blocks` cycles, with the seed of cycle `k`
    /// derived from `[h("compare"), h(game), k]` and the boards in
    /// rotation. A block is then one cycle: fixture ids `g·k .. g·k + g`
    /// (`g` = [`Schedule::legs`]: 2 for two seats, `3! = 6` for three),
    /// `pair` = `k`.
    ///
    /// `fixed[i]`, when given, is the role (royale's team) the bot of
    /// `roles[i]` insists on: it is seated only there, by the rule a
    /// league's groups follow, so a block holds only the orders that keep
    /// it (royale with the third bot's team fixed: 2 games). With no order
    /// left the schedule is empty ([`Schedule::legs`] 0).
    pub fn comparison(
        game: Game,
        roles: &[&str],
        fixed: &[Option<Role>],
        blocks: u64,
        seed: u64,
        boards: &[String],
    ) -> Schedule {
        let last = roles.len().saturating_sub(1) as u16;
        let members: Vec<u16> = (0..game.shape().seats() as u16)
            .map(|seat| seat.min(last))
            .collect();
        let fixed: Vec<Option<&Role>> = (0..roles.len())
            .map(|i| fixed.get(i).and_then(Option::as_ref))
            .collect();
        let group = Group {
            index: 0,
            hashes: vec![fnv1a64(game.name())],
            seatings: group_seatings(game.shape(), &members, true, &fixed),
        };
        Schedule::from_groups(
            game,
            roles.iter().map(|r| (*r).to_owned()).collect(),
            boards,
            seed,
            fnv1a64("compare"),
            vec![group],
            blocks,
        )
    }

    fn from_groups(
        game: Game,
        names: Vec<String>,
        boards: &[String],
        seed: u64,
        tag: u64,
        groups: Vec<Group>,
        cycles: u64,
    ) -> Schedule {
        let shape = game.shape();
        let mut offsets = Vec::with_capacity(groups.len() + 1);
        let mut legs = 0;
        for g in &groups {
            offsets.push(legs);
            legs += g.seatings.len() as u64;
        }
        offsets.push(legs);
        Schedule {
            game,
            names,
            roles: seat_roles(shape),
            boards: if shape.board {
                boards.to_vec()
            } else {
                Vec::new()
            },
            seed,
            tag,
            groups,
            offsets,
            cycles,
            cycle_games: legs,
        }
    }

    /// Groups of bots that play together (CardJitsu: pairings; royale:
    /// trios), each with its own SPRT in a gauntlet with a stop rule.
    pub fn groups(&self) -> u64 {
        self.groups.len() as u64
    }

    /// Games each group plays per cycle (one seed in every seating): the
    /// block an SPRT counts.
    pub fn legs(&self, group: u64) -> u64 {
        let g = group as usize;
        self.offsets[g + 1] - self.offsets[g]
    }

    /// The bots of a group, by name, in member order.
    pub fn members(&self, group: u64) -> Vec<&str> {
        self.member_indices(group as usize)
            .iter()
            .map(|&b| self.names[usize::from(b)].as_str())
            .collect()
    }

    /// The bots of group `g`, as indices into the sorted names, ascending.
    fn member_indices(&self, g: usize) -> Vec<u16> {
        let mut m: Vec<u16> = self.groups[g].seatings[0].clone();
        m.sort_unstable();
        m.dedup();
        m
    }

    /// The game played.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Cycles: every group plays each of its seatings once per cycle.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Fixtures in the whole schedule.
    pub fn len(&self) -> u64 {
        self.cycles.saturating_mul(self.per_cycle())
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

    /// The group of the bots `members` (names, any order, a bot held
    /// twice listed twice), if this schedule forms it.
    fn group_named(&self, members: &[&str]) -> Option<usize> {
        let mut wanted: Vec<&str> = members.to_vec();
        wanted.sort_unstable();
        self.groups.iter().position(|g| {
            let mut names: Vec<&str> = g.seatings[0]
                .iter()
                .map(|&b| self.names[usize::from(b)].as_str())
                .collect();
            names.sort_unstable();
            names == wanted
        })
    }

    /// How the ids of `from` (the same league with fewer bots) map onto
    /// this schedule's: a game keeps its group (by its bots' names), cycle
    /// and leg, and so its seats and seed, while its id, `pair` and (with
    /// several boards) board are positions in the list of groups, which
    /// another bot shifts. See [`Renumbering`].
    pub fn renumbering<'a>(&'a self, from: &'a Schedule) -> Renumbering<'a> {
        let groups = (0..from.groups.len())
            .map(|g| {
                let names: Vec<&str> = from.groups[g].seatings[0]
                    .iter()
                    .map(|&b| from.names[usize::from(b)].as_str())
                    .collect();
                self.group_named(&names)
            })
            .collect();
        Renumbering {
            from,
            to: self,
            groups,
        }
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

/// The map from one schedule's fixture ids to another's
/// ([`Schedule::renumbering`]): the group of each game of `from` in `to`,
/// found once by its bots' names.
#[derive(Debug)]
pub struct Renumbering<'a> {
    from: &'a Schedule,
    to: &'a Schedule,
    groups: Vec<Option<usize>>,
}

impl Renumbering<'_> {
    /// The fixture of `to` that is game `id` of `from` (same bots in the
    /// same seats, same seed), or `None` when `to` does not play it.
    pub fn fixture(&self, id: u64) -> Option<Fixture> {
        let old = self.from.fixture(id)?;
        let per_cycle = self.from.per_cycle();
        let (cycle, rest) = (id / per_cycle, id % per_cycle);
        let g = self.from.offsets.partition_point(|&o| o <= rest) - 1;
        let leg = rest - self.from.offsets[g];
        let g2 = self.groups[g]?;
        if cycle >= self.to.cycles || leg >= self.to.legs(g2 as u64) {
            return None;
        }
        let new = self
            .to
            .fixture(cycle * self.to.per_cycle() + self.to.offsets[g2] + leg)?;
        // The seatings of a group depend only on its members, so this holds
        // by construction; checked, since a game stored under the wrong id
        // would be counted as another.
        (new.seats == old.seats && new.seed == old.seed && new.teams == old.teams).then_some(new)
    }
}

/// Role label of each seat: seat `i` plays the game's `i`-th role
/// ([`Shape::roles`]); none for a game without roles.
fn seat_roles(shape: Shape) -> Vec<Role> {
    dojo_games::seat_roles(shape)
}

/// The groups of `seats` bots out of `bots` (indices into the sorted
/// names), in lexicographic order: every combination of distinct bots, or
/// with fewer bots than seats the multisets that seat every bot (two bots
/// A < B in three seats: AAB, ABB).
fn member_sets(bots: usize, seats: usize) -> Vec<Vec<u16>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(seats);
    // Distinct and increasing when there are bots enough; else
    // non-decreasing, keeping only those that use every bot.
    let distinct = bots >= seats;
    fn walk(
        bots: usize,
        seats: usize,
        distinct: bool,
        current: &mut Vec<u16>,
        out: &mut Vec<Vec<u16>>,
    ) {
        if current.len() == seats {
            if distinct || (0..bots as u16).all(|b| current.contains(&b)) {
                out.push(current.clone());
            }
            return;
        }
        let from = match current.last() {
            None => 0,
            Some(&last) if distinct => last + 1,
            Some(&last) => last,
        };
        for b in from..bots as u16 {
            current.push(b);
            walk(bots, seats, distinct, current, out);
            current.pop();
        }
    }
    walk(bots, seats, distinct, &mut current, &mut out);
    out
}

/// The seatings of a group of `members` (indices into `fixed`) in a game
/// of `shape`: the cyclic rotations of its members (with `every_order`,
/// every order; a game with partnerships: [`partnership_seatings`]). A
/// bot whose role is fixed (`fixed[b]`, royale's `team` in its bot.toml)
/// sits only in that role's seats; a group with one tries every order of
/// its members, not only rotations, since a fixed role narrows them. A
/// game without roles fixes none. The one rule for a league's groups and
/// for `dojo compare`'s blocks.
fn group_seatings(
    shape: Shape,
    members: &[u16],
    every_order: bool,
    fixed: &[Option<&Role>],
) -> Vec<Vec<u16>> {
    if shape.partnerships() {
        return partnership_seatings(members, shape.sides);
    }
    let fixed = |b: u16| {
        fixed
            .get(usize::from(b))
            .copied()
            .flatten()
            .filter(|_| !shape.roles.is_empty())
    };
    let every_order = every_order || members.iter().any(|&b| fixed(b).is_some());
    seatings(members, every_order, |seat, b| {
        fixed(b).is_none_or(|team| shape.roles.get(seat) == Some(&team.as_str()))
    })
}

/// The seatings one seed of a group is played in: the cyclic rotations of
/// `members` (seat `s` of rotation `r` gets member `(s + r) mod n`; with two
/// seats, the seat-swapped pair), or with `every_order` every permutation
/// in lexicographic order; each kept once, and only if `allowed(seat,
/// member)` holds for every seat.
fn seatings(
    members: &[u16],
    every_order: bool,
    allowed: impl Fn(usize, u16) -> bool,
) -> Vec<Vec<u16>> {
    let n = members.len();
    let orders: Vec<Vec<usize>> = if every_order {
        permutations(n)
    } else {
        (0..n)
            .map(|r| (0..n).map(|s| (s + r) % n).collect())
            .collect()
    };
    let mut out: Vec<Vec<u16>> = Vec::new();
    for order in orders {
        let seating: Vec<u16> = order.iter().map(|&i| members[i]).collect();
        let ok = seating
            .iter()
            .enumerate()
            .all(|(seat, &b)| allowed(seat, b));
        if ok && !out.contains(&seating) {
            out.push(seating);
        }
    }
    out
}

/// The seatings of a group in a game with partnerships (`sides`: the side
/// of each seat): each distinct partnership split of `members` (which
/// bots play together), in every cyclic rotation of the seats. Splits are
/// taken in the lexicographic order of the first seating that makes them,
/// so four bots A < B < C < D on sides `[0, 1, 0, 1]` play A+C against
/// B+D, A+D against B+C and A+B against C+D, each in four rotations
/// (every bot in every seat): 12 seatings per cycle. Seatings that repeat
/// (a bot seated twice) are kept once.
fn partnership_seatings(members: &[u16], sides: &[usize]) -> Vec<Vec<u16>> {
    let n = members.len();
    // A split: per side, its members sorted; the sides sorted, so which
    // side number a partnership has does not matter.
    let split = |seating: &[u16]| {
        let mut by_side: Vec<Vec<u16>> = Vec::new();
        for (seat, &b) in seating.iter().enumerate() {
            let side = sides[seat];
            if by_side.len() <= side {
                by_side.resize(side + 1, Vec::new());
            }
            by_side[side].push(b);
        }
        for side in &mut by_side {
            side.sort_unstable();
        }
        by_side.sort();
        by_side
    };
    let mut seen = Vec::new();
    let mut out: Vec<Vec<u16>> = Vec::new();
    for order in permutations(n) {
        let seating: Vec<u16> = order.iter().map(|&i| members[i]).collect();
        if seen.contains(&split(&seating)) {
            continue;
        }
        for r in 0..n {
            let rotated: Vec<u16> = (0..n).map(|s| seating[(s + r) % n]).collect();
            let s = split(&rotated);
            if !seen.contains(&s) {
                seen.push(s);
            }
            if !out.contains(&rotated) {
                out.push(rotated);
            }
        }
    }
    out
}

/// Every permutation of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        out.push(p.clone());
        // The next permutation: the longest non-increasing suffix, the
        // element before it swapped with the smallest larger one in it,
        // then the suffix reversed.
        let Some(i) = (1..n).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let Some(j) = (i..n).rev().find(|&j| p[j] > p[i - 1]) else {
            return out;
        };
        p.swap(i - 1, j);
        p[i..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(name: &str) -> Entrant {
        Entrant {
            name: name.into(),
            command: format!("./{name}"),
            dir: None,
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
        let s = Schedule::new(Game::CARDJITSU, &[bot("a"), bot("b")], 3, 1, &[]).unwrap();
        assert_eq!(s.fixtures().len(), 4);
        assert_eq!(s.fixtures()[0].seed, s.fixtures()[1].seed);
        assert_ne!(s.fixtures()[0].seed, s.fixtures()[2].seed);
        assert_eq!(s.fixtures()[1].seats, vec!["b", "a"]);
    }

    #[test]
    fn bad_input_is_rejected() {
        let one = Schedule::new(Game::CARDJITSU, &[bot("a")], 2, 1, &[]);
        assert_eq!(one, Err(ScheduleError::TooFewBots(1)));
        let dup = Schedule::new(Game::CARDJITSU, &[bot("a"), bot("a")], 2, 1, &[]);
        assert_eq!(dup, Err(ScheduleError::DuplicateBot("a".into())));
        let zero = Schedule::new(Game::CARDJITSU, &[bot("a"), bot("b")], 0, 1, &[]);
        assert_eq!(zero, Err(ScheduleError::ZeroGames));
        let mut r1 = bot("r1");
        r1.fixed_team = Some(Role::from("R"));
        let mut r2 = bot("r2");
        r2.fixed_team = Some(Role::from("R"));
        let none = Schedule::new(Game::ROYALE, &[r1, r2], 3, 1, &[]);
        assert_eq!(none, Err(ScheduleError::Empty));
        // A role royale lacks (a hand-edited league.json) is named, not
        // silently never seated.
        let mut q = bot("q");
        q.fixed_team = Some(Role::from("Q"));
        let err = Schedule::new(Game::ROYALE, &[q.clone(), bot("b")], 3, 1, &[]).unwrap_err();
        assert!(matches!(&err, ScheduleError::UnknownRole { bot, .. } if bot == "q"));
        assert!(err.to_string().contains("team \"Q\""), "{err}");
        // A game without roles ignores the key, as it always has.
        assert!(Schedule::new(Game::CARDJITSU, &[q, bot("b")], 2, 1, &[]).is_ok());
    }

    #[test]
    fn shard_index_is_validated() {
        let s = Schedule::new(Game::CARDJITSU, &[bot("a"), bot("b")], 4, 1, &[]).unwrap();
        assert!(s.shard(0, 2).is_err());
        assert!(s.shard(3, 2).is_err());
        let one = s.shard(1, 2).unwrap();
        assert!(one.iter().all(|f| f.id % 2 == 0));
        assert_eq!(one.len() + s.shard(2, 2).unwrap().len(), 4);
    }

    #[test]
    fn fixtures_are_computed_from_their_id_alone() {
        let bots = [bot("a"), bot("b"), bot("c"), bot("d")];
        for game in [Game::CARDJITSU, Game::ROYALE] {
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
        for game in [Game::CARDJITSU, Game::ROYALE] {
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
        let unknown = Schedule::with_gauntlet(Game::CARDJITSU, &bots, 4, 5, &[], Some("x"));
        assert_eq!(unknown, Err(ScheduleError::UnknownGauntlet("x".into())));
    }

    #[test]
    fn groups_are_combinations_or_multisets_that_seat_every_bot() {
        assert_eq!(
            member_sets(4, 2),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(member_sets(4, 3).len(), 4);
        assert_eq!(member_sets(2, 3), [[0, 0, 1], [0, 1, 1]]);
        // Generic in the seats: four seats, two or six bots.
        assert_eq!(
            member_sets(2, 4),
            [[0, 0, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1]]
        );
        assert_eq!(member_sets(6, 4).len(), 15);
        for seats in 2..=4 {
            for bots in 2..=6 {
                let bound = fixture_bound(seats, bots, seats as u64);
                let legs = (1..=seats as u128).product::<u128>();
                assert_eq!(bound, member_sets(bots, seats).len() as u128 * legs);
            }
        }
    }

    #[test]
    fn seatings_are_rotations_or_every_order_filtered_and_distinct() {
        assert_eq!(seatings(&[3, 5], false, |_, _| true), [[3, 5], [5, 3]]);
        assert_eq!(
            seatings(&[0, 1, 2], false, |_, _| true),
            [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
        );
        assert_eq!(
            seatings(&[0, 1, 2], true, |_, _| true),
            [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0]
            ]
        );
        // A repeated member: each distinct seating once.
        assert_eq!(seatings(&[0, 0, 1], true, |_, _| true).len(), 3);
        // Member 1 must sit in seat 0.
        assert_eq!(
            seatings(&[0, 1, 2], true, |seat, b| b != 1 || seat == 0),
            [[1, 0, 2], [1, 2, 0]]
        );
        assert_eq!(permutations(4).len(), 24);
        assert_eq!(permutations(1), [[0]]);
        // Four seats rotate like the others.
        assert_eq!(seatings(&[0, 1, 2, 3], false, |_, _| true)[3], [3, 0, 1, 2]);
    }

    #[test]
    fn a_comparison_is_one_group_of_roles_in_every_order() {
        let s = Schedule::comparison(Game::CARDJITSU, &["new", "base"], &[], 3, 7, &[]);
        assert_eq!((s.groups(), s.legs(0), s.len()), (1, 2, 6));
        let f = s.fixtures();
        assert_eq!(f[2].seats, ["new", "base"]);
        assert_eq!(f[3].seats, ["base", "new"]);
        assert_eq!((f[3].pair, f[3].leg, f[2].seed), (1, 1, f[3].seed));
        assert_eq!(
            f[2].seed,
            derive_seed(7, &[fnv1a64("compare"), fnv1a64("cardjitsu"), 1])
        );
        let boards = ["a".to_string(), "b".to_string()];
        let roles = ["new", "base", "third"];
        let r = Schedule::comparison(Game::ROYALE, &roles, &[], 2, 7, &boards);
        assert_eq!(r.legs(0), 6);
        assert_eq!(r.fixture(6).unwrap().board.as_deref(), Some("b"));
        assert_eq!(
            r.fixture(6).unwrap().teams,
            seat_roles(Game::ROYALE.shape())
        );
    }

    /// A fixed role keeps its bot on its team in a comparison's block by
    /// the league's rule: the block is the orders of the others.
    #[test]
    fn a_comparison_seats_a_fixed_role_only_on_its_team() {
        let roles = ["new", "base", "third"];
        let paper = [None, None, Some(Role::from("P"))];
        let r = Schedule::comparison(Game::ROYALE, &roles, &paper, 2, 7, &[]);
        assert_eq!(r.legs(0), 2);
        let seats: Vec<Vec<String>> = r.fixtures().into_iter().map(|f| f.seats).collect();
        assert_eq!(seats[0], ["new", "third", "base"]);
        assert_eq!(seats[1], ["base", "third", "new"]);
        assert_eq!(seats[2..], seats[..2]);
        // The same bots in a league: the same seatings.
        let mut third = bot("third");
        third.fixed_team = Some(Role::from("P"));
        let league = Schedule::new(Game::ROYALE, &[bot("base"), bot("new"), third], 3, 7, &[]);
        let league: Vec<Vec<String>> = league.unwrap().iter().map(|f| f.seats).collect();
        let mut compared = seats[..2].to_vec();
        compared.sort();
        let mut played = league.clone();
        played.sort();
        assert_eq!(compared, played);
        // No order keeps two bots on one team: an empty schedule.
        let both = [Some(Role::from("R")), Some(Role::from("R"))];
        let none = Schedule::comparison(Game::ROYALE, &roles, &both, 2, 7, &[]);
        assert_eq!((none.legs(0), none.len()), (0, 0));
        // A game without roles fixes none.
        let cj = Schedule::comparison(Game::CARDJITSU, &roles[..2], &both, 1, 7, &[]);
        assert_eq!(cj.legs(0), 2);
    }

    #[test]
    fn renumbering_keeps_each_game_and_a_new_bot_only_adds_games() {
        for game in [Game::CARDJITSU, Game::ROYALE] {
            let names = ["ant", "bee", "cat", "dog"];
            let small: Vec<Entrant> = names.iter().map(|n| bot(n)).collect();
            let mut big = small.clone();
            big.insert(1, bot("bat"));
            let from = Schedule::new(game, &small, 6, 3, &[]).unwrap();
            let to = Schedule::new(game, &big, 6, 3, &[]).unwrap();
            let map = to.renumbering(&from);
            let mut seen = std::collections::BTreeSet::new();
            for f in from.iter() {
                let g = map.fixture(f.id).expect("every game of the small league");
                assert_eq!((&g.seats, g.seed, g.leg), (&f.seats, f.seed, f.leg));
                assert!(seen.insert(g.id), "two games on id {}", g.id);
            }
            // The rest of the grown schedule is the new bot's games.
            let new: Vec<Fixture> = to.iter().filter(|f| !seen.contains(&f.id)).collect();
            assert_eq!(new.len() as u64, to.len() - from.len());
            assert!(new.iter().all(|f| f.seats.iter().any(|s| s == "bat")));
            // A schedule without a game's group does not place it.
            let fewer = Schedule::new(game, &small[..3], 6, 3, &[]).unwrap();
            let back = fewer.renumbering(&from);
            assert!(from.iter().any(|f| back.fixture(f.id).is_none()));
        }
    }

    #[test]
    fn royale_boards_rotate() {
        let boards = vec!["x.txt".to_string(), "y.txt".to_string()];
        let bots = [bot("a"), bot("b"), bot("c")];
        let s = Schedule::new(Game::ROYALE, &bots, 6, 1, &boards).unwrap();
        let used: Vec<_> = s
            .fixtures()
            .iter()
            .map(|f| f.board.clone().unwrap())
            .collect();
        assert_eq!(used, ["x.txt", "x.txt", "x.txt", "y.txt", "y.txt", "y.txt"]);
    }
}

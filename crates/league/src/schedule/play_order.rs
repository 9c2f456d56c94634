//! The order a league plays its fixtures in: not their ids' order, so that
//! the boxes kept idle between games serve it.
//!
//! A bot runs in a box made for it, and a box is kept idle after a game
//! for that bot's next one (`crates/sandbox/src/lifecycle.rs`), up to a
//! bound for the process ([`dojo_runner::idle_boxes_wanted`]). In id order
//! a cycle is every pairing in turn, `(0,1) (0,2) … (0,n-1) (1,2) …`: one
//! bot is in every game of a stretch, so with many games at once it needs
//! a box per game in flight (a 40-bot league at `--jobs 64` made a box
//! for every other game), and the other bots come back only a whole row
//! later, so the bound must hold boxes for every bot of the league or
//! each game makes one (`docs/performance.md`, "The play order").
//!
//! So within each cycle (the order stays cycle by cycle: every cycle is a
//! whole round robin, which the stop rules and interim standings count
//! on):
//! - the bots are cut into blocks of [`bots_per_block`], and the groups
//!   are taken tile by tile, a tile being the groups whose members fall in
//!   the same blocks: a stretch of the league involves the bots of one
//!   tile only ([`bots_in_play`]), and two tiles in a row share blocks;
//! - a tile's groups are played in rounds in which no bot plays twice (as
//!   a round robin's rounds), each round's first legs before its second:
//!   the games in flight at once have different bots.
//!
//! Nothing of a game depends on this order: its id, seats and seed are
//! the schedule's, and a league's record is the same in any order.

use super::{Fixture, Schedule};
use crate::settings::Shard;

/// The bots of one block: at least as many as games are played at once,
/// so that a round of a tile (as many groups as a block has bots) spreads
/// the games in flight over different bots; and at least 32, so that a
/// league of up to 32 bots is a single tile, played in rounds.
fn bots_per_block(jobs: usize) -> usize {
    jobs.max(32)
}

/// How many bots a stretch of a league of `bots` bots and `seats` seats
/// a game involves when `jobs` games are played at once: the bots of one
/// tile (a block per seat), or all of them. This is what the bound on idle
/// boxes must cover ([`dojo_runner::idle_boxes_wanted`]).
pub fn bots_in_play(jobs: usize, seats: usize, bots: usize) -> usize {
    bots.min(seats.saturating_mul(bots_per_block(jobs)))
}

/// A cycle's groups in play order, cut into rounds.
#[derive(Debug)]
struct Rounds {
    /// Group indices, round after round.
    groups: Vec<u32>,
    /// Where each round starts in `groups`, and one more: its end.
    starts: Vec<u32>,
}

impl Rounds {
    /// The rounds of `schedule`'s groups with blocks of `block` bots.
    fn new(schedule: &Schedule, block: usize) -> Rounds {
        let block = block.max(1);
        let members: Vec<Vec<u16>> = (0..schedule.groups.len())
            .map(|g| schedule.member_indices(g))
            .collect();
        // Each group's tile: the blocks of its members.
        let tiles: Vec<Vec<usize>> = members
            .iter()
            .map(|m| m.iter().map(|&b| usize::from(b) / block).collect())
            .collect();
        // Stable: within a tile, groups keep their order (lexicographic).
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by(|&a, &b| tiles[a].cmp(&tiles[b]));
        let mut rounds = Rounds {
            groups: Vec::with_capacity(order.len()),
            starts: vec![0],
        };
        let mut busy = vec![false; schedule.names.len()];
        let mut at = 0;
        while at < order.len() {
            let tile = &tiles[order[at]];
            let end = at + order[at..].partition_point(|&g| &tiles[g] == tile);
            // Greedy rounds: each pass takes, in order, every group none
            // of whose bots the round has yet, and leaves the rest for the
            // next.
            let mut left: Vec<usize> = order[at..end].to_vec();
            while !left.is_empty() {
                let mut next = Vec::new();
                let mut taken: Vec<u16> = Vec::new();
                for g in left {
                    if members[g].iter().any(|&b| busy[usize::from(b)]) {
                        next.push(g);
                        continue;
                    }
                    for &b in &members[g] {
                        busy[usize::from(b)] = true;
                        taken.push(b);
                    }
                    rounds.groups.push(g as u32);
                }
                for b in taken {
                    busy[usize::from(b)] = false;
                }
                rounds.starts.push(rounds.groups.len() as u32);
                left = next;
            }
            at = end;
        }
        rounds
    }

    /// Each round's groups.
    fn each(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.starts
            .windows(2)
            .map(|w| &self.groups[w[0] as usize..w[1] as usize])
    }
}

impl Schedule {
    /// The fixtures of `shard` ([`Schedule::selected`]) in the order a
    /// league of `jobs` games at once plays them (see the module
    /// documentation): cycle by cycle; within one, tile by tile, round
    /// by round, and within a round each leg of every group before the
    /// next leg.
    pub fn in_play_order(
        &self,
        shard: Option<Shard>,
        jobs: usize,
    ) -> impl Iterator<Item = Fixture> + '_ {
        let rounds = Rounds::new(self, bots_per_block(jobs));
        let most_legs = (0..self.groups()).map(|g| self.legs(g)).max().unwrap_or(0);
        let per_cycle = self.per_cycle();
        let ids: Vec<u64> = rounds
            .each()
            .flat_map(|round| {
                (0..most_legs).flat_map(move |leg| {
                    round
                        .iter()
                        .filter(move |&&g| leg < self.legs(u64::from(g)))
                        .map(move |&g| self.offsets[g as usize] + leg)
                })
            })
            .collect();
        // One cycle's order serves every cycle.
        let ids = std::rc::Rc::new(ids);
        (0..self.cycles).flat_map(move |cycle| {
            let ids = std::rc::Rc::clone(&ids);
            (0..ids.len())
                .map(move |k| cycle * per_cycle + ids[k])
                .filter(move |&id| self.selects(shard, id))
                .filter_map(move |id| self.fixture(id))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Entrant, Game};
    use std::collections::{BTreeSet, VecDeque};

    fn league(bots: usize, games: u64, game: Game) -> Schedule {
        gauntlet(bots, games, game, None)
    }

    /// A round robin of `bots` (`bot000`, …), or a gauntlet of `focus`.
    fn gauntlet(bots: usize, games: u64, game: Game, focus: Option<&str>) -> Schedule {
        let bots: Vec<Entrant> = (0..bots)
            .map(|i| Entrant {
                name: format!("bot{i:03}"),
                command: "./bot".into(),
                dir: None,
                fixed_team: None,
                values: Default::default(),
            })
            .collect();
        Schedule::with_gauntlet(game, &bots, games, 7, &[], focus).unwrap()
    }

    #[test]
    fn every_fixture_is_played_once_cycle_by_cycle_and_as_the_schedule_has_it() {
        // (bots, games, game, games at once, a gauntlet's bot): fewer bots
        // than royale's seats, one block and several, gauntlets.
        for (bots, games, game, jobs, focus) in [
            (2, 4, Game::CARDJITSU, 1, None),
            (9, 2, Game::CARDJITSU, 2, None),
            (70, 4, Game::CARDJITSU, 2, None),
            (40, 1, Game::CARDJITSU, 64, None),
            (70, 2, Game::CARDJITSU, 2, Some("bot040")),
            (2, 6, Game::ROYALE, 2, None),
            (7, 6, Game::ROYALE, 2, None),
            (40, 6, Game::ROYALE, 4, None),
            (40, 6, Game::ROYALE, 4, Some("bot007")),
        ] {
            let schedule = gauntlet(bots, games, game, focus);
            let played: Vec<Fixture> = schedule.in_play_order(None, jobs).collect();
            let per_cycle = schedule.len() / schedule.cycles();
            assert!(
                played
                    .windows(2)
                    .all(|w| w[0].id / per_cycle <= w[1].id / per_cycle),
                "not cycle by cycle: {bots} bots of {game:?}"
            );
            let mut sorted = played.clone();
            sorted.sort_by_key(|f| f.id);
            assert_eq!(sorted, schedule.fixtures(), "{bots} bots of {game:?}");
            for shard in [Shard::new(1, 3).unwrap(), Shard::new(3, 3).unwrap()] {
                let mut ids: Vec<u64> = schedule
                    .in_play_order(Some(shard), jobs)
                    .map(|f| f.id)
                    .collect();
                ids.sort_unstable();
                let want: Vec<u64> = schedule.selected(Some(shard)).map(|f| f.id).collect();
                assert_eq!(ids, want);
            }
        }
    }

    #[test]
    fn in_a_round_no_bot_plays_twice_and_first_legs_come_first() {
        // 32 bots are one tile (a block): rounds of up to 16 pairings,
        // each round's 16 first legs then its 16 second legs. The first
        // round is whole.
        let schedule = league(32, 2, Game::CARDJITSU);
        let played: Vec<Fixture> = schedule.in_play_order(None, 2).collect();
        let first = &played[..16];
        assert!(first.iter().all(|f| f.leg == 0), "{first:?}");
        assert_eq!(bots_of(first).len(), 32, "{first:?}");
        assert!(played[16..32].iter().all(|f| f.leg == 1));
        assert_eq!(
            played[16..32].iter().map(|f| f.pair).collect::<Vec<_>>(),
            first.iter().map(|f| f.pair).collect::<Vec<_>>()
        );
        // 40 bots are two blocks, three tiles: the first is the first
        // block's pairings, and the first 16 games have 32 bots.
        let schedule = league(40, 2, Game::CARDJITSU);
        let played: Vec<Fixture> = schedule.in_play_order(None, 2).collect();
        let first = bots_of(&played[..16]);
        assert_eq!(first.len(), 32);
        assert_eq!(bots_of(&played[..32 * 31]), first);
        // At 64 games at once a block is 64 bots: 40 bots are one tile,
        // in rounds of 20 pairings.
        let played: Vec<Fixture> = schedule.in_play_order(None, 64).collect();
        assert_eq!(bots_of(&played[..20]).len(), 40);
    }

    /// The bots that play in `games`.
    fn bots_of(games: &[Fixture]) -> BTreeSet<&str> {
        games
            .iter()
            .flat_map(|f| f.seats.iter().map(String::as_str))
            .collect()
    }

    /// Boxes made for `order` when a pool keeps at most `cap` idle, the
    /// oldest going first, as `crates/sandbox/src/lifecycle.rs` does;
    /// `jobs` games at once, each ending in turn (the oldest in flight).
    fn boxes_made(order: &[Fixture], jobs: usize, cap: usize) -> usize {
        let mut idle: VecDeque<&str> = VecDeque::new();
        let mut flight: VecDeque<&Fixture> = VecDeque::new();
        let mut made = 0;
        for f in order {
            if flight.len() == jobs {
                let done = flight.pop_front().unwrap();
                for bot in &done.seats {
                    idle.push_back(bot);
                    if idle.len() > cap {
                        idle.pop_front();
                    }
                }
            }
            for bot in &f.seats {
                match idle.iter().position(|b| b == bot) {
                    Some(at) => {
                        idle.remove(at);
                    }
                    None => made += 1,
                }
            }
            flight.push_back(f);
        }
        made
    }

    #[test]
    fn the_boxes_the_bound_keeps_serve_a_league_of_many_bots_in_play_order() {
        // The bound `dojo league` sets: three boxes per worker and two per
        // bot in play.
        // (bots, games at once, how many games per box made at least: a
        // round of 40 bots is 40 games, and 64 at once hold some bots in
        // three or four games at a time)
        for (bots, jobs, per_box) in [(200, 2, 10), (120, 16, 10), (40, 64, 4)] {
            let schedule = league(bots, 2, Game::CARDJITSU);
            let games = schedule.len() as usize;
            let cap =
                dojo_runner::idle_boxes_wanted(jobs, 2, bots_in_play(jobs, 2, bots), usize::MAX);
            let by_id = boxes_made(&schedule.fixtures(), jobs, cap);
            let in_play: Vec<Fixture> = schedule.in_play_order(None, jobs).collect();
            let played = boxes_made(&in_play, jobs, cap);
            assert!(
                played * per_box < games,
                "{bots} bots, --jobs {jobs}: {played} boxes for {games} games (by id {by_id})"
            );
            assert!(
                by_id > played * 3,
                "{bots} bots, --jobs {jobs}: by id {by_id}, in play order {played}"
            );
        }
    }
}

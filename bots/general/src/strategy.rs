//! One turn's decision for the royale, as a pure function of the board,
//! the bot's position and its team.
//!
//! How the royale is won shapes everything here: a team wins when the two
//! other signs are gone, and a sign only disappears through the sign that
//! beats it. So for team `T` with prey `Y` (beaten by `T`) and predator `X`
//! (beats `T`), every `X` tile must first become `Y` (only `Y` beats `X`),
//! and only then may `T` eat the last `Y`. Eating all of `Y` while `X` is
//! alive makes the game unwinnable for `T`. The bot therefore values:
//! - turning `X` into `Y` highest (a bot may stand on an `X` tile beside a
//!   `Y` tile, or on a `Y` tile beside `X`, and instigate);
//! - eating `Y` (turning it into `T`) next, but only while `Y` stays
//!   plentiful as long as `X` is alive, and less when that `Y` tile touches
//!   `X` (it is the tile that would convert `X`);
//! - claiming unclaimed tiles for `T` a little, more beside prey (denying
//!   it room), never beside the predator (own tiles there would wall the
//!   predator off from the prey), and freely while `T` is nearly gone;
//! - turning unclaimed tiles into `Y` only where they then touch `X`, or
//!   to build a bridge of `Y` towards `X` when the two touch nowhere;
//! - never a change that creates `X` or costs a `T` tile.
//!
//! Each turn it scores the best instigation from every reachable tile,
//! divides by the distance plus a patience constant, and
//! either instigates from where it stands or takes one step along a
//! shortest path towards the best spot. With nothing worth doing it passes.
//! There is no randomness: the same input gives the same answer.

use std::collections::VecDeque;

use dojo_engine::royale::{Action, Board, Dir, Pos, Team, Tile};

/// Value of a change that must never be made.
const FORBIDDEN: i64 = -1_000;
/// Claiming an unclaimed tile for the own sign while the own sign has
/// fewer than `SURVIVAL` tiles.
const CLAIM: i64 = 25;
const SURVIVAL: usize = 4;
/// Otherwise claims are filler: own tiles do not count towards winning,
/// but a claimed tile is one the prey cannot spread to (`CLAIM_PER_PREY`
/// per prey neighbour). Tiles beside the predator are never claimed: own
/// tiles there wall the predator off from the prey (a rock tile never
/// becomes scissors), which can make the game unwinnable.
const CLAIM_BASE: i64 = 10;
const CLAIM_PER_PREY: i64 = 20;
/// Turning a predator tile into prey: the step only prey can take.
const PRED_TO_PREY: i64 = 150;
/// Extra per predator neighbour of a converted predator tile (the wave of
/// conversions can go on from it).
const WAVE: i64 = 10;
/// Eating prey while the predator is alive, and once it is gone.
const EAT_PREY: i64 = 75;
const EAT_LAST_SIGN: i64 = 125;
/// Less for eating a prey tile per predator tile it touches.
const EAT_CONTACT_PENALTY: i64 = 40;
/// While the predator is alive, prey is only eaten when it outnumbers the
/// predator by more than this margin.
const PREY_RESERVE: usize = 4;
/// Turning an unclaimed tile into prey: a cost, made up for by contact
/// with the predator or by bridging a gap.
const MAKE_PREY: i64 = -50;
const MAKE_PREY_CONTACT: i64 = 60;
const BRIDGE: i64 = 100;

/// Spots are ranked by value / (distance + PATIENCE): 1 would be value
/// per turn spent; more makes the bot walk further for bigger work (a
/// conversion often opens the next one at the same spot).
const PATIENCE: u32 = 4;

/// The three signs as seen by one team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Roles {
    own: Tile,
    prey: Tile,
    pred: Tile,
}

impl Roles {
    fn of(team: Team) -> Roles {
        let other = |f: &dyn Fn(Team) -> bool| {
            Team::ALL
                .into_iter()
                .find(|&t| f(t))
                .map_or(Tile::Empty, Team::tile)
        };
        Roles {
            own: team.tile(),
            prey: other(&|t| team.beats(t)),
            pred: other(&|t| t.beats(team)),
        }
    }
}

/// Whole-board facts computed once per turn.
#[derive(Debug)]
struct Context<'a> {
    board: &'a Board,
    roles: Roles,
    pred_alive: bool,
    /// Whether claiming unclaimed tiles is worth anything this turn.
    may_claim: bool,
    /// Whether eating prey is allowed at all this turn.
    may_eat_prey: bool,
    /// Distance from the predator through unclaimed tiles, per tile, for
    /// bridging; `None` when prey and predator already touch (or either is
    /// absent) and no bridge is wanted.
    bridge: Option<Bridge>,
}

/// Where a bridge of prey towards the predator should grow.
#[derive(Debug)]
struct Bridge {
    /// BFS distance from the nearest predator tile through unclaimed
    /// tiles (`u32::MAX` when unreachable).
    dist: Vec<u32>,
    /// The smallest `dist` among unclaimed tiles touching prey.
    best: u32,
}

impl<'a> Context<'a> {
    fn new(board: &'a Board, team: Team) -> Context<'a> {
        let roles = Roles::of(team);
        let counts = board.counts();
        let prey = counts.get(roles.prey);
        let pred = counts.get(roles.pred);
        let pred_alive = pred > 0;
        let may_claim = counts.get(roles.own) < SURVIVAL;
        let may_eat_prey = !pred_alive || prey > pred + PREY_RESERVE;
        let bridge = (pred_alive && prey > 0 && !touching(board, roles.prey, roles.pred))
            .then(|| Bridge::new(board, roles))
            .flatten();
        Context {
            board,
            roles,
            pred_alive,
            may_claim,
            may_eat_prey,
            bridge,
        }
    }

    fn index(&self, p: Pos) -> usize {
        p.y * self.board.width() + p.x
    }

    fn count_neighbours(&self, p: Pos, tile: Tile) -> i64 {
        let n = neighbours(self.board, p)
            .filter(|&(_, q)| self.board.tile(q) == Some(tile))
            .count();
        i64::try_from(n).unwrap_or(i64::MAX)
    }

    /// The value for the team of tile `at` changing from `from` to `to`.
    fn change_value(&self, at: Pos, from: Tile, to: Tile) -> i64 {
        let r = self.roles;
        if to == r.pred || from == r.own {
            return FORBIDDEN;
        }
        if from == r.pred && to == r.prey {
            return PRED_TO_PREY + WAVE * self.count_neighbours(at, r.pred);
        }
        if from == r.prey && to == r.own {
            if !self.may_eat_prey {
                return FORBIDDEN;
            }
            if !self.pred_alive {
                return EAT_LAST_SIGN;
            }
            return EAT_PREY - EAT_CONTACT_PENALTY * self.count_neighbours(at, r.pred);
        }
        if from == Tile::Empty && to == r.own {
            if self.may_claim {
                return CLAIM;
            }
            if self.count_neighbours(at, r.pred) > 0 {
                return FORBIDDEN;
            }
            return CLAIM_BASE + CLAIM_PER_PREY * self.count_neighbours(at, r.prey);
        }
        if from == Tile::Empty && to == r.prey && self.pred_alive {
            let mut v = MAKE_PREY + MAKE_PREY_CONTACT * self.count_neighbours(at, r.pred);
            if let Some(b) = &self.bridge
                && b.dist[self.index(at)] == b.best
            {
                v += BRIDGE;
            }
            return v;
        }
        FORBIDDEN
    }

    /// The best instigation from `here`: its value and direction.
    fn best_instigation(&self, here: Pos) -> Option<(i64, Dir)> {
        let own = self.board.tile(here).filter(|t| t.is_passable())?;
        let mut best: Option<(i64, Dir)> = None;
        for (dir, there) in neighbours(self.board, here) {
            let Some(target) = self.board.tile(there) else {
                continue;
            };
            let Some(winner) = own.fight(target) else {
                continue;
            };
            let value = if winner == own {
                self.change_value(there, target, winner)
            } else {
                self.change_value(here, own, winner)
            };
            if value > 0 && best.is_none_or(|(v, _)| value > v) {
                best = Some((value, dir));
            }
        }
        best
    }
}

impl Bridge {
    fn new(board: &Board, roles: Roles) -> Option<Bridge> {
        let w = board.width();
        let mut dist = vec![u32::MAX; w * board.height()];
        let mut queue = VecDeque::new();
        for p in board.positions_of(roles.pred) {
            dist[p.y * w + p.x] = 0;
            queue.push_back(p);
        }
        while let Some(p) = queue.pop_front() {
            let d = dist[p.y * w + p.x];
            for (_, q) in neighbours(board, p) {
                let i = q.y * w + q.x;
                if board.tile(q) == Some(Tile::Empty) && dist[i] == u32::MAX {
                    dist[i] = d + 1;
                    queue.push_back(q);
                }
            }
        }
        let best = board
            .positions_of(Tile::Empty)
            .filter(|&p| neighbours(board, p).any(|(_, q)| board.tile(q) == Some(roles.prey)))
            .map(|p| dist[p.y * w + p.x])
            .min()
            .filter(|&d| d != u32::MAX)?;
        Some(Bridge { dist, best })
    }
}

/// The on-board neighbours of `p` with their directions, in `Dir::ALL`
/// order.
fn neighbours(board: &Board, p: Pos) -> impl Iterator<Item = (Dir, Pos)> + '_ {
    Dir::ALL
        .into_iter()
        .filter_map(move |d| board.neighbour(p, d).map(|q| (d, q)))
}

/// Whether some tile of `a` is orthogonally next to a tile of `b`.
fn touching(board: &Board, a: Tile, b: Tile) -> bool {
    board
        .positions_of(a)
        .any(|p| neighbours(board, p).any(|(_, q)| board.tile(q) == Some(b)))
}

/// Chooses the action of a `team` player standing at `me` on `board`.
///
/// Instigates where that is worth most per turn spent, otherwise steps
/// towards the best spot to instigate from; passes when standing off the
/// board or on a wall, or when nothing reachable is worth doing.
pub fn choose(board: &Board, me: Pos, team: Team) -> Action {
    if !board.tile(me).is_some_and(Tile::is_passable) {
        return Action::Pass;
    }
    let ctx = Context::new(board, team);
    let w = board.width();
    // BFS over passable tiles; `first[i]` is the first step from `me`.
    let mut dist = vec![u32::MAX; w * board.height()];
    let mut first: Vec<Option<Dir>> = vec![None; dist.len()];
    dist[ctx.index(me)] = 0;
    let mut queue = VecDeque::from([me]);
    // Best so far: (value, distance, first step or instigation direction).
    let mut best: Option<(i64, u32, Action)> = None;
    while let Some(p) = queue.pop_front() {
        let i = ctx.index(p);
        let d = dist[i];
        if let Some((value, dir)) = ctx.best_instigation(p) {
            let action = match first[i] {
                None => Action::Instigate(dir),
                Some(step) => Action::Move(step),
            };
            // Compare value / (d + PATIENCE) by cross-multiplying; ties
            // keep the earlier (nearer) spot.
            let better = best.is_none_or(|(bv, bd, _)| {
                i128::from(value) * i128::from(bd + PATIENCE)
                    > i128::from(bv) * i128::from(d + PATIENCE)
            });
            if better {
                best = Some((value, d, action));
            }
        }
        for (dir, q) in neighbours(board, p) {
            let j = ctx.index(q);
            if dist[j] == u32::MAX && board.tile(q).is_some_and(Tile::is_passable) {
                dist[j] = d + 1;
                first[j] = Some(first[i].unwrap_or(dir));
                queue.push_back(q);
            }
        }
    }
    best.map_or(Action::Pass, |(_, _, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::parse(text, "test").unwrap()
    }

    #[test]
    fn roles_follow_the_rps_cycle() {
        let r = Roles::of(Team::Rock);
        assert_eq!(
            (r.own, r.prey, r.pred),
            (Tile::Rock, Tile::Scissors, Tile::Paper)
        );
        let p = Roles::of(Team::Paper);
        assert_eq!((p.prey, p.pred), (Tile::Rock, Tile::Scissors));
        let s = Roles::of(Team::Scissors);
        assert_eq!((s.prey, s.pred), (Tile::Paper, Tile::Rock));
    }

    #[test]
    fn instigates_a_convertible_neighbour() {
        // Only rock and paper: claiming unclaimed land is all rock can do.
        let b = board("P..\n.R.\n...");
        assert_eq!(
            choose(&b, Pos::new(1, 1), Team::Rock),
            Action::Instigate(Dir::U)
        );
        // Scissors (prey) touch paper (predator): rock walks onto the
        // scissors to turn the paper below into scissors, rather than
        // claiming the unclaimed tile beside it.
        let b = board("RS\n.P");
        assert_eq!(choose(&b, Pos::new(0, 0), Team::Rock), Action::Move(Dir::R));
        assert_eq!(
            choose(&b, Pos::new(1, 0), Team::Rock),
            Action::Instigate(Dir::D)
        );
    }

    #[test]
    fn prefers_turning_the_predator_into_prey() {
        // Paper player on a rock tile (its prey) next to scissors (its
        // predator): instigating turns the scissors into rock.
        let b = board("RS.\nPP.");
        assert_eq!(
            choose(&b, Pos::new(0, 0), Team::Paper),
            Action::Instigate(Dir::R)
        );
    }

    #[test]
    fn never_instigates_where_its_own_tile_would_lose() {
        // Rock on rock between paper tiles, nothing else to do: pass.
        let b = board("PRP");
        assert_eq!(choose(&b, Pos::new(1, 0), Team::Rock), Action::Pass);
        // With an unclaimed tile below it claims that, not the paper.
        let b = board("PRP\n#.#");
        assert_eq!(
            choose(&b, Pos::new(1, 0), Team::Rock),
            Action::Instigate(Dir::D)
        );
    }

    #[test]
    fn eats_the_last_enemy_once_the_predator_is_gone() {
        let b = board("RS");
        assert_eq!(
            choose(&b, Pos::new(0, 0), Team::Rock),
            Action::Instigate(Dir::R)
        );
        // From the scissors tile, instigating left loses it to rock.
        assert_eq!(
            choose(&b, Pos::new(1, 0), Team::Rock),
            Action::Instigate(Dir::L)
        );
    }

    #[test]
    fn keeps_scarce_prey_alive_while_the_predator_lives() {
        // Rock could eat the only scissors, but paper would then be
        // unbeatable; it converts paper into scissors instead... which it
        // can only do from the paper tile: it walks there.
        let b = board("RSP\n###");
        let a = choose(&b, Pos::new(0, 0), Team::Rock);
        assert_eq!(a, Action::Move(Dir::R));
        assert_eq!(
            choose(&b, Pos::new(1, 0), Team::Rock),
            Action::Instigate(Dir::R)
        );
    }

    #[test]
    fn walks_towards_the_frontier() {
        // The only work is at the far end of a corridor.
        let b = board("RRRRR.");
        assert_eq!(choose(&b, Pos::new(0, 0), Team::Rock), Action::Move(Dir::R));
        assert_eq!(
            choose(&b, Pos::new(4, 0), Team::Rock),
            Action::Instigate(Dir::R)
        );
        // Around a wall: the shortest path starts downwards.
        let b = board("R#.\nRRR");
        assert_eq!(choose(&b, Pos::new(0, 0), Team::Rock), Action::Move(Dir::D));
        assert_eq!(
            choose(&b, Pos::new(2, 1), Team::Rock),
            Action::Instigate(Dir::U)
        );
    }

    #[test]
    fn boxed_in_by_walls_passes_or_acts_locally() {
        // Nowhere to go, nothing to convert.
        let b = board("###\n#R#\n###\n.SP");
        assert_eq!(choose(&b, Pos::new(1, 1), Team::Rock), Action::Pass);
        // Boxed in but with an unclaimed neighbour: claims it.
        let b = board("###\n#R.\n###\n.SP");
        assert_eq!(
            choose(&b, Pos::new(1, 1), Team::Rock),
            Action::Instigate(Dir::R)
        );
        // Standing on a wall or off the board is malformed: pass.
        assert_eq!(choose(&b, Pos::new(0, 0), Team::Rock), Action::Pass);
        assert_eq!(choose(&b, Pos::new(9, 9), Team::Rock), Action::Pass);
    }

    #[test]
    fn builds_a_bridge_of_prey_towards_a_distant_predator() {
        // Scissors (rock's prey) and paper do not touch; rock grows
        // scissors across the gap rather than idling.
        let b = board("S..P\n####\nR...");
        let a = choose(&b, Pos::new(1, 0), Team::Rock);
        assert_eq!(a, Action::Instigate(Dir::L));
    }

    #[test]
    fn does_not_claim_beside_the_predator() {
        // The unclaimed tile between rock and paper stays open for a
        // scissors bridge; nothing else is worth doing.
        let b = board("RRRR.P\nS#####");
        assert_eq!(choose(&b, Pos::new(3, 0), Team::Rock), Action::Pass);
        // Beside scissors (prey) and away from paper it is claimed.
        let b = board("RRRR.S\nP#####");
        assert_eq!(
            choose(&b, Pos::new(3, 0), Team::Rock),
            Action::Instigate(Dir::R)
        );
    }

    #[test]
    fn never_creates_the_predator() {
        // On unclaimed land beside paper, with no rock anywhere: pass.
        assert_eq!(
            choose(&board(".P"), Pos::new(0, 0), Team::Rock),
            Action::Pass
        );
        // With rock below it claims its own tile for rock instead.
        let b = board(".P\nR#");
        assert_eq!(
            choose(&b, Pos::new(0, 0), Team::Rock),
            Action::Instigate(Dir::D)
        );
    }
}

//! Stop rules: when a schedule's driver stops starting games.
//!
//! A league without one plays its whole schedule (a fixed count). With an
//! SPRT, whole blocks (one group's games of one cycle: every seating at
//! one seed) go to a sequential test strictly in cycle order, and the
//! group's games stop once it decides. `dojo compare` is one such test on
//! its single group; a gauntlet with `--sprt` runs one per opponent.
//!
//! **Why one test per opponent in a gauntlet.** The chess tools run one
//! SPRT of NEW against the field pooled. Pooling answers a question about
//! the field's mix rather than about any bot in it: NEW can pass against
//! a field of weak bots while it loses to the one that matters, and the
//! pooled blocks are not identically distributed, which the test assumes.
//! A gauntlet's user (a bot author checking a new version against the old
//! ones and a reference) asks "is NEW better than each of them", so each
//! pairing of NEW and an opponent is its own `dojo compare`: the same
//! seat-swapped pairs, bounds, estimate and verdict. A decided pairing
//! stops playing, so the games go where the answer is still open; the
//! gauntlet ends when every pairing has decided or reached the game limit.
//! Each test keeps its own error rates (alpha, beta); with k opponents the
//! chance that some verdict is wrong is up to k times larger.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::driver::Cutoffs;
use crate::schedule::Schedule;
use crate::settings::Settings;
use crate::sprt::{EloEstimate, SequentialTest, SprtParams, Verdict, naive_estimate};
use crate::store::GameLine;

/// One group's results gathered into blocks (one cycle: every seating at
/// one seed) and handed on strictly in cycle order, so what a test sees
/// does not depend on the order games finish in.
#[derive(Debug, Clone)]
pub struct Blocks<T> {
    legs: usize,
    next: u64,
    pending: BTreeMap<u64, Vec<Option<T>>>,
}

impl<T> Blocks<T> {
    /// Blocks of `legs` games each, from cycle 0.
    pub fn new(legs: u64) -> Blocks<T> {
        Blocks {
            legs: legs as usize,
            next: 0,
            pending: BTreeMap::new(),
        }
    }

    /// The result of leg `leg` of cycle `cycle` (a repeat replaces it; a
    /// leg out of range or a cycle already handed on is ignored).
    pub fn add(&mut self, cycle: u64, leg: u8, item: T) {
        if cycle < self.next || usize::from(leg) >= self.legs {
            return;
        }
        let legs = self.legs;
        let block = self
            .pending
            .entry(cycle)
            .or_insert_with(|| (0..legs).map(|_| None).collect());
        block[usize::from(leg)] = Some(item);
    }

    /// The next block in cycle order, once all its legs are in.
    pub fn pop(&mut self) -> Option<(u64, Vec<T>)> {
        let complete = self
            .pending
            .get(&self.next)
            .is_some_and(|b| b.iter().all(Option::is_some));
        if !complete {
            return None;
        }
        let block = self.pending.remove(&self.next)?;
        let cycle = self.next;
        self.next += 1;
        Some((cycle, block.into_iter().flatten().collect()))
    }

    /// The cycle the next block handed on will be.
    pub fn next_cycle(&self) -> u64 {
        self.next
    }

    /// Results added and not yet handed on (waiting for an earlier leg).
    pub fn held(&self) -> usize {
        self.pending
            .values()
            .map(|b| b.iter().filter(|leg| leg.is_some()).count())
            .sum()
    }
}

/// Where a gauntlet's test of one opponent stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestState {
    /// H1 accepted: NEW is better than allowed by `elo0` (it passes).
    H1,
    /// H0 accepted: NEW is worse.
    H0,
    /// Every scheduled game of the pairing was counted without a decision.
    Inconclusive,
    /// Not decided yet: games remain (an interrupted gauntlet, or one with
    /// failed games; `--resume` continues it).
    Open,
}

/// A gauntlet's test of NEW against one opponent, as `report.json` holds
/// it (`sprt.opponents`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpponentTest {
    pub opponent: String,
    pub state: TestState,
    /// Seat-swapped pairs counted (the test's blocks).
    pub pairs: u64,
    /// NEW's mean score per game against the opponent in them.
    pub new_score: f64,
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The bounds in force (overshoot-corrected, as in `dojo compare`).
    pub lower: f64,
    pub upper: f64,
    /// Logistic Elo of NEW minus the opponent with a 95% interval:
    /// median-unbiased once decided, the fixed-sample estimate before.
    pub elo: EloEstimate,
}

/// The stop rule of a gauntlet with `--sprt`, as `report.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GauntletSprt {
    /// The hypotheses and error rates every opponent's test uses.
    pub params: SprtParams,
    /// The bot under test.
    pub new: String,
    /// One test per opponent, by name.
    pub opponents: Vec<OpponentTest>,
}

/// Why an SPRT cannot stop this league.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SprtSetupError {
    #[error("--sprt stops a gauntlet: give --gauntlet NEW too")]
    NotGauntlet,
    #[error(
        "--sprt in a gauntlet needs a two-seat game ({game} seats {seats}): a {game} game counts against two opponents at once; use `dojo compare {game}` for one opponent"
    )]
    Seats { game: String, seats: usize },
}

/// Checks a league's stop rule can run: an SPRT needs a gauntlet of a
/// two-seat game, unsharded.
pub fn check(settings: &Settings) -> Result<(), SprtSetupError> {
    if settings.sprt.is_none() {
        return Ok(());
    }
    if settings.gauntlet.is_none() {
        return Err(SprtSetupError::NotGauntlet);
    }
    let seats = settings.game.shape().seats();
    if seats != 2 {
        return Err(SprtSetupError::Seats {
            game: settings.game.name().to_owned(),
            seats,
        });
    }
    Ok(())
}

/// A league's stop rule re-run over its stored games (as `--resume`
/// counts them), for a report rebuilt from its directory (`dojo report`,
/// `dojo merge`): `None` for a league without one, or for a shard (a
/// slice of the pairings' games decides nothing: the tests are run on the
/// merged games).
pub(crate) fn over_stored_games(
    settings: &Settings,
    schedule: &Schedule,
    games: &[GameLine],
) -> Result<Option<GauntletStop>, SprtSetupError> {
    let (Some(params), Some(new)) = (&settings.sprt, &settings.gauntlet) else {
        return Ok(None);
    };
    check(settings)?;
    if settings.shard.is_some() {
        return Ok(None);
    }
    let mut rule = GauntletStop::new(schedule, new, *params)?;
    let cutoffs = Cutoffs::new(schedule.groups());
    for g in games {
        rule.add(g.pair, g.leg, &g.seats, &g.scores, &cutoffs);
    }
    Ok(Some(rule))
}

/// The running tests of a gauntlet: one per group (a pairing of NEW and
/// one opponent).
#[derive(Debug)]
pub(crate) struct GauntletStop {
    params: SprtParams,
    new: String,
    groups: Vec<GroupTest>,
}

#[derive(Debug)]
struct GroupTest {
    opponent: String,
    test: SequentialTest,
    blocks: Blocks<f64>,
    verdict: Verdict,
    /// Cycles in the schedule: all counted without a decision is
    /// inconclusive.
    cycles: u64,
    /// A game failed in this run: games held after it wait for `--resume`.
    stuck: bool,
}

impl GauntletStop {
    /// The tests of `schedule`, a gauntlet of `new` in a two-seat game.
    pub(crate) fn new(
        schedule: &Schedule,
        new: &str,
        params: SprtParams,
    ) -> Result<GauntletStop, SprtSetupError> {
        let groups = (0..schedule.groups())
            .map(|g| {
                let members = schedule.members(g);
                if members.len() != 2 || schedule.legs(g) != 2 {
                    return Err(SprtSetupError::Seats {
                        game: schedule.game().name().to_owned(),
                        seats: members.len().max(schedule.game().shape().seats()),
                    });
                }
                let opponent = members.iter().find(|m| **m != new).copied().unwrap_or(new);
                Ok(GroupTest {
                    opponent: opponent.to_owned(),
                    test: SequentialTest::new(params, 2),
                    blocks: Blocks::new(2),
                    verdict: Verdict::Continue,
                    cycles: schedule.cycles(),
                    stuck: false,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GauntletStop {
            params,
            new: new.to_owned(),
            groups,
        })
    }

    /// A game of the pair `pair`, leg `leg`, was stored with these seats
    /// and scores: counts NEW's score against the opponent, feeds whole
    /// pairs to the test in order, and cuts the pairing once it decides.
    pub(crate) fn add(
        &mut self,
        pair: u64,
        leg: u8,
        seats: &[String],
        scores: &[f64],
        cutoffs: &Cutoffs,
    ) {
        let (group, cycle) = cutoffs.locate(pair);
        let Some(g) = self.groups.get_mut(group as usize) else {
            return;
        };
        let score_of = |name: &str| {
            seats
                .iter()
                .position(|s| s == name)
                .and_then(|i| scores.get(i))
                .copied()
                .unwrap_or(0.5)
        };
        let score = dojo_stats::elo::pair_score(score_of(&self.new), score_of(&g.opponent));
        g.blocks.add(cycle, leg, score);
        while g.verdict == Verdict::Continue {
            let Some((_, scores)) = g.blocks.pop() else {
                break;
            };
            g.verdict = g.test.add_block(&scores);
        }
        if g.verdict != Verdict::Continue {
            cutoffs.cut(group, g.blocks.next_cycle());
        }
    }

    /// A game of `pair` failed: the pairing's test cannot count past it,
    /// so its later games wait for `--resume` too.
    pub(crate) fn failed(&mut self, pair: u64, cutoffs: &Cutoffs) {
        let (group, cycle) = cutoffs.locate(pair);
        cutoffs.cut(group, cycle + 1);
        if let Some(g) = self.groups.get_mut(group as usize) {
            g.stuck = true;
        }
    }

    /// Stored games the open tests hold until an earlier game of their
    /// pairing is in ([`crate::driver::Sink::held`]). A decided or stuck
    /// pairing's are not counted: no game in flight will release them.
    pub(crate) fn held(&self) -> usize {
        self.groups
            .iter()
            .filter(|g| g.verdict == Verdict::Continue && !g.stuck)
            .map(|g| g.blocks.held())
            .sum()
    }

    /// Every pairing decided or played out.
    pub(crate) fn finished(&self) -> bool {
        self.groups.iter().all(|g| g.state() != TestState::Open)
    }

    /// The tests as the report shows them.
    pub(crate) fn report(&self) -> GauntletSprt {
        let opponents = self
            .groups
            .iter()
            .map(|g| {
                let (lower, upper) = g.test.bounds();
                let state = g.state();
                OpponentTest {
                    opponent: g.opponent.clone(),
                    state,
                    pairs: g.test.counts().blocks(),
                    new_score: g.test.counts().score(),
                    llr: g.test.llr(),
                    lower,
                    upper,
                    elo: match state {
                        TestState::Open => naive_estimate(g.test.counts()),
                        _ => g.test.estimate(),
                    },
                }
            })
            .collect();
        GauntletSprt {
            params: self.params,
            new: self.new.clone(),
            opponents,
        }
    }
}

impl GroupTest {
    fn state(&self) -> TestState {
        match self.verdict {
            Verdict::H1 => TestState::H1,
            Verdict::H0 => TestState::H0,
            Verdict::Continue if self.blocks.next_cycle() >= self.cycles => TestState::Inconclusive,
            Verdict::Continue => TestState::Open,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::Fixture;
    use crate::settings::{Entrant, Game};

    #[test]
    fn blocks_are_handed_on_in_cycle_order_once_complete() {
        let mut b = Blocks::new(2);
        b.add(1, 0, "1a");
        b.add(1, 1, "1b");
        assert_eq!(b.pop(), None, "cycle 0 is still missing");
        b.add(0, 1, "0b");
        assert_eq!(b.pop(), None, "cycle 0 has one leg");
        b.add(0, 0, "0a");
        b.add(0, 7, "out of range");
        assert_eq!(b.pop(), Some((0, vec!["0a", "0b"])));
        assert_eq!(b.pop(), Some((1, vec!["1a", "1b"])));
        assert_eq!(b.pop(), None);
        b.add(0, 0, "late");
        assert_eq!(b.pop(), None, "a cycle handed on is not reopened");
        assert_eq!(b.next_cycle(), 2);
    }

    fn bot(name: &str) -> Entrant {
        Entrant {
            name: name.into(),
            command: format!("./{name}"),
            dir: None,
            fixed_team: None,
            values: Default::default(),
        }
    }

    fn gauntlet(games: u64) -> Schedule {
        let bots = [bot("new"), bot("strong"), bot("weak")];
        Schedule::with_gauntlet(Game::CARDJITSU, &bots, games, 3, &[], Some("new")).unwrap()
    }

    /// Feeds every fixture NEW's result from `wins` (by opponent) until
    /// the cutoffs stop it; returns games played per opponent.
    fn play(stop: &mut GauntletStop, s: &Schedule, wins: impl Fn(&str) -> bool) -> Vec<u64> {
        let cutoffs = Cutoffs::new(s.groups());
        let mut played = vec![0; s.groups() as usize];
        for f in s.iter().filter(|f| cutoffs.wants(f.pair)) {
            let (g, _) = cutoffs.locate(f.pair);
            played[g as usize] += 1;
            let opponent = f.seats.iter().find(|n| *n != "new").unwrap();
            let new_wins = wins(opponent);
            let scores: Vec<f64> = f
                .seats
                .iter()
                .map(|n| f64::from(u8::from((n == "new") == new_wins)))
                .collect();
            stop.add(f.pair, f.leg, &f.seats, &scores, &cutoffs);
        }
        played
    }

    #[test]
    fn each_opponent_stops_when_its_own_test_decides() {
        let s = gauntlet(400);
        let params: SprtParams = "elo0=0,elo1=20".parse().unwrap();
        let mut stop = GauntletStop::new(&s, "new", params).unwrap();
        // NEW beats "weak" always and loses to "strong" always.
        let played = play(&mut stop, &s, |o| o == "weak");
        let report = stop.report();
        assert!(stop.finished());
        let by_name: BTreeMap<&str, &OpponentTest> = report
            .opponents
            .iter()
            .map(|t| (t.opponent.as_str(), t))
            .collect();
        assert_eq!(by_name["weak"].state, TestState::H1);
        assert_eq!(by_name["strong"].state, TestState::H0);
        for (g, &n) in played.iter().enumerate() {
            let t = &report.opponents[g];
            assert!(n < 400, "{}: stopped early, {n} games", t.opponent);
            assert_eq!(n, 2 * t.pairs, "no game past the deciding pair");
        }
        assert!(by_name["weak"].elo.lo > 0.0 && by_name["strong"].elo.hi < 0.0);
    }

    #[test]
    fn an_undecided_pairing_is_inconclusive_at_the_limit() {
        let s = gauntlet(8);
        let params: SprtParams = "elo0=-2,elo1=2".parse().unwrap();
        let mut stop = GauntletStop::new(&s, "new", params).unwrap();
        let cutoffs = Cutoffs::new(s.groups());
        assert!(!stop.finished());
        // The first seat always wins: NEW wins one leg of each pair and
        // loses the other.
        for f in s.iter() {
            let scores = [1.0, 0.0];
            stop.add(f.pair, f.leg, &f.seats, &scores, &cutoffs);
        }
        assert!(stop.finished());
        for t in stop.report().opponents {
            assert_eq!(
                (t.state, t.pairs, t.new_score),
                (TestState::Inconclusive, 4, 0.5)
            );
        }
    }

    #[test]
    fn held_games_are_those_an_open_pairing_can_still_count() {
        let s = gauntlet(400);
        let mut stop = GauntletStop::new(&s, "new", SprtParams::default()).unwrap();
        let cutoffs = Cutoffs::new(s.groups());
        let fixtures: Vec<Fixture> = s.iter().take(12).collect();
        // Every game but the very first one (cycle 0, group 0, leg 0).
        for f in &fixtures[1..] {
            stop.add(f.pair, f.leg, &f.seats, &[1.0, 0.0], &cutoffs);
        }
        let group_0 = |f: &&Fixture| cutoffs.locate(f.pair).0 == 0;
        let waiting = fixtures[1..].iter().filter(group_0).count();
        assert!(waiting > 1);
        assert_eq!(stop.held(), waiting, "group 1 counted all of its own");
        // The missing game failed: group 0 is stuck until a resume.
        stop.failed(fixtures[0].pair, &cutoffs);
        assert_eq!(stop.held(), 0);
    }

    #[test]
    fn a_game_with_more_seats_is_refused() {
        let bots = [bot("new"), bot("b"), bot("c")];
        let s = Schedule::with_gauntlet(Game::ROYALE, &bots, 3, 1, &[], Some("new")).unwrap();
        let err = GauntletStop::new(&s, "new", SprtParams::default()).unwrap_err();
        assert!(
            matches!(err, SprtSetupError::Seats { seats: 3, .. }),
            "{err}"
        );
    }
}

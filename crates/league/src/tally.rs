//! Everything a league's report needs, summed as games are stored: per
//! bot, per pair of bots and for the whole league, plus the rating fit's
//! input gathered by bootstrap group ([`rating::GroupedResults`]).
//!
//! A running league adds each game here and forgets it, so its memory does
//! not grow with the games it plays: what is held is a few counters per bot
//! and per pair of bots, one kind per distinct group result and a 4-byte
//! label per bootstrap group (two games), and per bot a histogram of its
//! move times (`dojo_games::MoveTally`) and its first fault (one game's
//! stderr tail, chosen by game id). The sums are of scores 0, 1/2 and
//! 1 (and integer counts), which are exact in any order, so the report
//! does not depend on the order games were added in.

use std::collections::BTreeMap;

use dojo_stats::elo::pair_score;
use dojo_stats::rating;

use dojo_games::record::{FaultKind, FirstFault};
use dojo_games::{Game, Shape};

use crate::executor::SeatFaults;
use crate::store::GameLine;

/// One bot's sums.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct BotTally {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    pub faults: SeatFaults,
    /// Games in which a seat of it was faulty (a stored line's `faulty`).
    pub faulty_games: u64,
    /// Its moves' times and memory peak, from the games' `timing`.
    pub moves: dojo_games::MoveTally,
    /// Its first fault ([`FirstFaultAt`]): one entry, however many games.
    pub first_fault: Option<FirstFaultAt>,
}

/// A bot's first fault in a league: its crash in the game of lowest id,
/// else its fault of any kind in the game of lowest id (a seat's own
/// first fault in a game is already its crash if it had one:
/// [`FirstFault`]). Chosen by game id, not by the order games were
/// stored in, so it is the same for any `--jobs`, after a resume and after
/// a merge.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FirstFaultAt {
    pub game: u64,
    pub seat: usize,
    pub fault: FirstFault,
}

impl FirstFaultAt {
    /// What comes first: a crash, then the lower game id, then the lower
    /// seat (a royale bot seated twice in one game).
    pub(crate) fn key(&self) -> (bool, u64, usize) {
        (self.fault.kind != FaultKind::Crash, self.game, self.seat)
    }

    /// As a report shows it.
    pub(crate) fn standing(&self) -> crate::report::StandingFault {
        crate::report::StandingFault {
            game: self.game,
            round: self.fault.round,
            kind: self.fault.kind,
            invalid: self.fault.invalid.clone(),
            stderr_tail: self.fault.stderr_tail.clone(),
        }
    }
}

/// One pair of bots' sums (`a` < `b` by index).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PairTally {
    /// Games in which both played.
    pub games: u64,
    /// Pairwise results between them (royale AAB games give two).
    pub results: u64,
    /// The lower index's score in those results.
    pub score: f64,
    /// Of `games`, those in which the lower index (`[0]`) and the higher
    /// (`[1]`) was faulty: where one bot's faults fall on one opponent.
    pub faulty: [u64; 2],
}

/// The sums of a league's stored games (see the module docs).
#[derive(Debug, Clone)]
pub struct LeagueTally {
    /// Bot names, sorted; games naming another bot are not counted.
    names: Vec<String>,
    pub(crate) bots: Vec<BotTally>,
    pub(crate) games: u64,
    pub(crate) decisive: u64,
    pub(crate) drawn: u64,
    pub(crate) split: u64,
    pub(crate) faults: SeatFaults,
    pub(crate) pairs: BTreeMap<(usize, usize), PairTally>,
    pub(crate) ratings: rating::GroupedResults,
    /// The game's seats and sides: which seats are opponents.
    shape: Shape,
}

impl LeagueTally {
    /// Nothing counted yet, for the bots `names` (sorted) playing `game`.
    pub fn new(names: Vec<String>, game: Game) -> LeagueTally {
        LeagueTally {
            bots: vec![BotTally::default(); names.len()],
            ratings: rating::GroupedResults::new(names.len()),
            names,
            games: 0,
            decisive: 0,
            drawn: 0,
            split: 0,
            faults: SeatFaults::default(),
            pairs: BTreeMap::new(),
            shape: game.shape(),
        }
    }

    /// The bots, sorted.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Counts `g`; returns false (counting nothing) when the report skips
    /// it: a seat not among the names, or not one score per seat of the
    /// game's shape.
    pub fn add(&mut self, g: &GameLine) -> bool {
        if g.scores.len() != g.seats.len() || g.seats.len() != self.shape.seats() {
            return false;
        }
        let Some(idx) = g
            .seats
            .iter()
            .map(|seat| self.names.binary_search(seat).ok())
            .collect::<Option<Vec<usize>>>()
        else {
            return false;
        };
        self.games += 1;
        // A royale forfeit beside two sides that drew (0, 0.5, 0.5) is
        // neither won nor drawn by all.
        if g.scores.contains(&1.0) {
            self.decisive += 1;
        } else if g.scores.iter().all(|&s| s == g.scores[0]) {
            self.drawn += 1;
        } else {
            self.split += 1;
        }
        // Each bot's result in the game: its best seat's score (a royale
        // bot seated on two teams wins when either team wins). A game
        // counts once per bot however many seats it holds; faults and move
        // times are counted per seat.
        for (seat, &bot) in idx.iter().enumerate() {
            let first = idx.iter().position(|&b| b == bot) == Some(seat);
            if first {
                let s = idx
                    .iter()
                    .zip(&g.scores)
                    .filter(|&(&b, _)| b == bot)
                    .map(|(_, &s)| s)
                    .fold(0.0, f64::max);
                let t = &mut self.bots[bot];
                t.games += 1;
                t.score += s;
                if s == 1.0 {
                    t.wins += 1;
                } else if s == 0.5 {
                    t.draws += 1;
                } else {
                    t.losses += 1;
                }
            }
            let t = &mut self.bots[bot];
            if let Some(f) = g.faults.get(seat) {
                t.faults.add(f);
                self.faults.add(f);
            }
            // Moves are each seat's, however many a bot holds.
            t.moves.add_stored(&g.timing, seat);
            if let Some(Some(fault)) = g.first_faults.get(seat) {
                let at = FirstFaultAt {
                    game: g.id,
                    seat,
                    fault: fault.clone(),
                };
                if t.first_fault.as_ref().is_none_or(|f| at.key() < f.key()) {
                    t.first_fault = Some(at);
                }
            }
        }
        // Every pair of opposing seats (different sides) held by different
        // bots is a pairwise result (for the ratings and the head-to-head
        // table); partners are not compared with each other.
        let mut met = Vec::new();
        for (i, j, score_a) in pairwise(self.shape, &idx, &g.scores) {
            self.ratings.add(&rating::PairResult {
                a: idx[i],
                b: idx[j],
                score_a,
                group: g.pair,
            });
            let (key, s) = if idx[i] < idx[j] {
                ((idx[i], idx[j]), score_a)
            } else {
                ((idx[j], idx[i]), 1.0 - score_a)
            };
            let e = self.pairs.entry(key).or_default();
            e.results += 1;
            e.score += s;
            if !met.contains(&key) {
                met.push(key);
            }
        }
        // A game counts once for each pair of bots that met in it, however
        // many seats each holds; so does a bot's fault in it.
        let faulty = |bot: usize| g.faulty.iter().any(|&seat| idx.get(seat) == Some(&bot));
        let mut bots: Vec<usize> = idx.clone();
        bots.sort_unstable();
        bots.dedup();
        for &bot in &bots {
            if faulty(bot) {
                self.bots[bot].faulty_games += 1;
            }
        }
        for key in met {
            let e = self.pairs.entry(key).or_default();
            e.games += 1;
            for (side, bot) in [key.0, key.1].into_iter().enumerate() {
                if faulty(bot) {
                    e.faulty[side] += 1;
                }
            }
        }
        true
    }
}

/// The pairwise results of one game: for each pair of seats `i < j` on
/// different sides (the game's `shape`) held by different bots (`idx`:
/// the bot of each seat), `(i, j, seat i's score against seat j)`. A side
/// winning is a win of each of its bots over each bot of the other sides;
/// a draw is a draw between every such pair.
pub(crate) fn pairwise<'a>(
    shape: Shape,
    idx: &'a [usize],
    scores: &'a [f64],
) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
    let n = idx.len();
    (0..n)
        .flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
        .filter(move |&(i, j)| idx[i] != idx[j] && !shape.partners(i, j))
        .map(move |(i, j)| (i, j, pair_score(scores[i], scores[j])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: u64, pair: u64, seats: &[&str], scores: &[f64]) -> GameLine {
        GameLine {
            version: 1,
            id,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            teams: Vec::new(),
            board: None,
            pair,
            leg: 0,
            seed: 0,
            scores: scores.to_vec(),
            faults: vec![SeatFaults::default(); seats.len()],
            faulty: Vec::new(),
            first_faults: Vec::new(),
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
            retired: None,
        }
    }

    fn names() -> Vec<String> {
        ["a", "b", "c"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_game_counts_once_per_pair_of_bots_and_once_per_pairwise_result() {
        let mut t = LeagueTally::new(names(), Game::ROYALE);
        // AAB: a holds two seats; b wins.
        assert!(t.add(&line(0, 0, &["a", "a", "b"], &[0.0, 0.0, 1.0])));
        assert!(t.add(&line(1, 0, &["a", "b", "c"], &[0.5, 0.5, 0.5])));
        let ab = &t.pairs[&(0, 1)];
        assert_eq!((ab.games, ab.results), (2, 3));
        assert_eq!(ab.score, 0.5);
        assert_eq!(t.pairs[&(1, 2)].games, 1);
        assert_eq!((t.games, t.decisive, t.drawn), (2, 1, 1));
        // Games, not seats: a lost once, drew once.
        let a = &t.bots[0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (2, 0, 1, 1));
        assert_eq!(t.ratings.groups(), 1);
    }

    /// The forfeit rule's royale result beside two clean sides that drew:
    /// the faulty side loses to each of them (the old pairwise formula,
    /// `(1 + 0 - 0.5) / 2`, gave it a quarter of a point against each),
    /// and they draw.
    #[test]
    fn a_faulty_side_beside_two_that_drew_loses_to_both() {
        let mut t = LeagueTally::new(names(), Game::ROYALE);
        assert!(t.add(&line(0, 0, &["a", "b", "c"], &[0.0, 0.5, 0.5])));
        assert_eq!(t.pairs[&(0, 1)].score, 0.0);
        assert_eq!(t.pairs[&(0, 2)].score, 0.0);
        assert_eq!(t.pairs[&(1, 2)].score, 0.5);
        let (a, b) = (&t.bots[0], &t.bots[1]);
        assert_eq!((a.wins, a.draws, a.losses), (0, 0, 1));
        assert_eq!((b.wins, b.draws, b.losses), (0, 1, 0));
        // Neither decisive nor drawn: the others drew, a lost.
        assert_eq!((t.decisive, t.drawn, t.split), (0, 0, 1));
    }

    #[test]
    fn a_bot_on_two_teams_wins_the_game_when_either_team_wins() {
        let mut t = LeagueTally::new(names(), Game::ROYALE);
        // Two entries, three seats: a holds two teams in every game.
        for (id, scores) in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
            .into_iter()
            .enumerate()
        {
            assert!(t.add(&line(id as u64, 0, &["a", "a", "b"], &scores)));
        }
        assert!(t.add(&line(3, 1, &["a", "b", "a"], &[0.5, 0.5, 0.5])));
        let (a, b) = (&t.bots[0], &t.bots[1]);
        assert_eq!((a.games, a.wins, a.draws, a.losses), (4, 2, 1, 1));
        assert_eq!((b.games, b.wins, b.draws, b.losses), (4, 1, 1, 2));
        assert_eq!((a.score, b.score), (2.5, 1.5));
    }

    fn faulted(id: u64, seat: usize, kind: FaultKind, text: &str) -> GameLine {
        let mut g = line(id, id / 2, &["a", "b"], &[0.0, 1.0]);
        g.first_faults = vec![None, None];
        g.first_faults[seat] = Some(FirstFault {
            round: Some(id as u32 + 1),
            kind,
            invalid: None,
            stderr_tail: vec![text.to_owned()],
        });
        g
    }

    #[test]
    fn a_bots_first_fault_is_its_crash_of_lowest_id_in_any_order() {
        let games = [
            faulted(2, 0, FaultKind::Timeout, "slow"),
            faulted(7, 0, FaultKind::Crash, "late crash"),
            faulted(5, 0, FaultKind::Crash, "crash"),
            faulted(1, 1, FaultKind::Invalid, "bad"),
            faulted(0, 1, FaultKind::Invalid, "worse"),
        ];
        let mut orders = vec![games.to_vec()];
        orders.push(games.iter().rev().cloned().collect());
        for order in orders {
            let mut t = LeagueTally::new(vec!["a".into(), "b".into()], Game::CARDJITSU);
            for g in &order {
                assert!(t.add(g));
            }
            let a = t.bots[0].first_fault.as_ref().unwrap();
            assert_eq!((a.game, a.fault.round), (5, Some(6)));
            assert_eq!(a.fault.stderr_tail, ["crash"]);
            // Without a crash: its fault of lowest id.
            let b = t.bots[1].first_fault.as_ref().unwrap();
            assert_eq!((b.game, b.fault.kind), (0, FaultKind::Invalid));
        }
        let mut t = LeagueTally::new(vec!["a".into(), "b".into()], Game::CARDJITSU);
        assert!(t.add(&line(0, 0, &["a", "b"], &[0.0, 1.0])));
        assert_eq!(t.bots[0].first_fault, None);
    }

    #[test]
    fn games_naming_other_bots_are_not_counted() {
        let mut t = LeagueTally::new(names(), Game::ROYALE);
        assert!(!t.add(&line(0, 0, &["a", "zed"], &[1.0, 0.0])));
        assert!(!t.add(&line(1, 0, &["a", "b"], &[1.0])));
        assert_eq!(t.games, 0);
        assert!(t.pairs.is_empty());
        assert_eq!(t.ratings.groups(), 0);
    }
}

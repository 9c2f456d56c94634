//! Everything a league's report needs, summed as games are stored: per
//! bot, per pair of bots and for the whole league, plus the rating fit's
//! input gathered by bootstrap group ([`rating::GroupedResults`]).
//!
//! A running league adds each game here and forgets it, so its memory does
//! not grow with the games it plays: what is held is a few counters per bot
//! and per pair of bots, one kind per distinct group result and a 4-byte
//! label per bootstrap group (two games). The sums are of scores 0, 1/2 and
//! 1 (and integer counts), which are exact in any order, so the report
//! does not depend on the order games were added in.

use std::collections::BTreeMap;

use dojo_stats::elo::pair_score;
use dojo_stats::rating;

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
    pub(crate) faults: SeatFaults,
    pub(crate) pairs: BTreeMap<(usize, usize), PairTally>,
    pub(crate) ratings: rating::GroupedResults,
}

/// Most seats a game has (royale: 3).
const MAX_SEATS: usize = 3;

impl LeagueTally {
    /// Nothing counted yet, for the bots `names` (sorted).
    pub fn new(names: Vec<String>) -> LeagueTally {
        LeagueTally {
            bots: vec![BotTally::default(); names.len()],
            ratings: rating::GroupedResults::new(names.len()),
            names,
            games: 0,
            decisive: 0,
            drawn: 0,
            faults: SeatFaults::default(),
            pairs: BTreeMap::new(),
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
    /// it: a seat not among the names, or not one score per seat.
    pub fn add(&mut self, g: &GameLine) -> bool {
        if g.scores.len() != g.seats.len() || g.seats.len() > MAX_SEATS {
            return false;
        }
        let mut idx = [0usize; MAX_SEATS];
        for (k, seat) in g.seats.iter().enumerate() {
            match self.names.binary_search(seat) {
                Ok(i) => idx[k] = i,
                Err(_) => return false,
            }
        }
        let idx = &idx[..g.seats.len()];
        self.games += 1;
        if g.scores.contains(&1.0) {
            self.decisive += 1;
        } else {
            self.drawn += 1;
        }
        for (seat, &bot) in idx.iter().enumerate() {
            let t = &mut self.bots[bot];
            let s = g.scores[seat];
            t.games += 1;
            t.score += s;
            if s == 1.0 {
                t.wins += 1;
            } else if s == 0.5 {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
            if let Some(f) = g.faults.get(seat) {
                t.faults.add(f);
                self.faults.add(f);
            }
        }
        // Every pair of seats held by different bots is a pairwise result
        // (for the ratings and the head-to-head table).
        for i in 0..idx.len() {
            for j in i + 1..idx.len() {
                if idx[i] == idx[j] {
                    continue;
                }
                let score_a = pair_score(g.scores[i], g.scores[j]);
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
            }
        }
        // A game counts once for each pair of bots in it, however many
        // seats each holds.
        let mut sorted = [0usize; MAX_SEATS];
        sorted[..idx.len()].copy_from_slice(idx);
        sorted[..idx.len()].sort_unstable();
        let mut distinct = [0usize; MAX_SEATS];
        let mut k = 0;
        for &b in &sorted[..idx.len()] {
            if k == 0 || distinct[k - 1] != b {
                distinct[k] = b;
                k += 1;
            }
        }
        for i in 0..k {
            for j in i + 1..k {
                self.pairs
                    .entry((distinct[i], distinct[j]))
                    .or_default()
                    .games += 1;
            }
        }
        true
    }
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
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
        }
    }

    fn names() -> Vec<String> {
        ["a", "b", "c"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_game_counts_once_per_pair_of_bots_and_once_per_pairwise_result() {
        let mut t = LeagueTally::new(names());
        // AAB: a holds two seats; b wins.
        assert!(t.add(&line(0, 0, &["a", "a", "b"], &[0.0, 0.0, 1.0])));
        assert!(t.add(&line(1, 0, &["a", "b", "c"], &[0.5, 0.5, 0.5])));
        let ab = &t.pairs[&(0, 1)];
        assert_eq!((ab.games, ab.results), (2, 3));
        assert_eq!(ab.score, 0.5);
        assert_eq!(t.pairs[&(1, 2)].games, 1);
        assert_eq!((t.games, t.decisive, t.drawn), (2, 1, 1));
        assert_eq!(t.bots[0].games, 3);
        assert_eq!(t.ratings.groups(), 1);
    }

    #[test]
    fn games_naming_other_bots_are_not_counted() {
        let mut t = LeagueTally::new(names());
        assert!(!t.add(&line(0, 0, &["a", "zed"], &[1.0, 0.0])));
        assert!(!t.add(&line(1, 0, &["a", "b"], &[1.0])));
        assert_eq!(t.games, 0);
        assert!(t.pairs.is_empty());
        assert_eq!(t.ratings.groups(), 0);
    }
}

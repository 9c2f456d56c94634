//! A game's [`Shape`]: its seats, sides and what labels them, and the
//! results a game of that shape can have. Plain data that the outcome of a
//! game, the schedules and the reports read; below every other module of
//! the crate.

/// Who sits where in one game: how many seats, which of them are
/// partners, and what labels them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The side of each seat, one entry per seat: seats on one side are
    /// partners and win, draw or lose together (CardJitsu `[0, 1]`,
    /// royale `[0, 1, 2]`, a 4-seat partnership game `[0, 1, 0, 1]`).
    /// Sides are numbered from 0 without gaps.
    pub sides: &'static [usize],
    /// The role label of each seat, in seat order (royale's teams
    /// `["R", "P", "S"]`: seat `i` plays the `i`-th), which a bot's
    /// manifest may fix (its `team` key, [`crate::role::fixed_role`]);
    /// empty for a game whose seats have no roles. One per seat when not
    /// empty.
    pub roles: &'static [&'static str],
    /// Whether games are played on a board file (royale), so leagues and
    /// comparisons rotate through boards. The one place this is answered.
    pub board: bool,
}

impl Shape {
    /// Seats per game.
    pub fn seats(&self) -> usize {
        self.sides.len()
    }

    /// Sides per game.
    pub fn side_count(&self) -> usize {
        self.sides.iter().max().map_or(0, |&s| s + 1)
    }

    /// Whether some side has more than one seat (bots play in
    /// partnerships).
    pub fn partnerships(&self) -> bool {
        self.side_count() < self.seats()
    }

    /// Whether seats `a` and `b` play on one side.
    pub fn partners(&self, a: usize, b: usize) -> bool {
        self.sides
            .get(a)
            .is_some_and(|s| self.sides.get(b) == Some(s))
    }

    /// Checks `scores` (one per seat) are a result a game of this shape
    /// can have: one side won (its seats score 1, every other seat 0), the
    /// game was drawn (every seat 0.5), or two or more sides drew and the
    /// rest lost (their seats 0.5 and 0: the forfeit rule's result when
    /// faulty sides lose beside clean ones that drew,
    /// `FaultPolicy::apply`). What is wrong, in words.
    pub fn check_scores(&self, scores: &[f64]) -> Result<(), String> {
        let n = self.seats();
        if scores.len() != n {
            return Err(format!("{} scores for {n} seats", scores.len()));
        }
        if scores.iter().all(|&s| s == 0.5) {
            return Ok(());
        }
        let winners: Vec<usize> = (0..n).filter(|&i| scores[i] == 1.0).collect();
        let side_won = winners.first().is_some_and(|&w| {
            (0..n).all(|i| {
                let expected = if self.partners(i, w) { 1.0 } else { 0.0 };
                scores[i] == expected
            })
        });
        if side_won {
            return Ok(());
        }
        let side_score = |side: usize| {
            let mut of_side = (0..n).filter(|&i| self.sides[i] == side).map(|i| scores[i]);
            let first = of_side.next()?;
            of_side.all(|s| s == first).then_some(first)
        };
        let by_side: Option<Vec<f64>> = (0..self.side_count()).map(side_score).collect();
        if let Some(by_side) = by_side
            && by_side.iter().all(|&s| s == 0.0 || s == 0.5)
            && by_side.iter().filter(|&&s| s == 0.5).count() >= 2
        {
            return Ok(());
        }
        let win = if self.partnerships() {
            "one side's seats 1, the rest 0"
        } else {
            "one 1, the rest 0"
        };
        Err(format!(
            "scores {scores:?} are neither a win ({win}), a draw (all 0.5) nor a draw of some sides (0.5, two sides or more) with the rest lost (0)"
        ))
    }
}

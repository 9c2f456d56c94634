//! A stored game's result as the league counts it, in words, where a
//! forfeit made it differ from the board's: the replay of a league game
//! (its page and its text) shows this first, since its record alone only
//! knows how the board ended, not that the fault policy overruled it.

use dojo_games::Shape;
use serde::Serialize;

use crate::settings::FaultPolicy;
use crate::store::GameLine;

/// The result the standings count for a game a forfeit decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// `alice wins by forfeit: crashy (1 crash) was faulty`.
    pub text: String,
    /// Whether one side won (else the game was drawn, by every side or by
    /// the sides without faults).
    pub win: bool,
}

/// What the league counted for `line`, a game of `shape` scored under
/// `policy`, when a forfeit decided it: some seat was faulty and the
/// policy forfeits (under `fallback`, or with no faulty seat, the board's
/// result is the league's, and there is nothing to add: `None`).
pub fn forfeit(line: &GameLine, shape: Shape, policy: &FaultPolicy) -> Option<Verdict> {
    if line.faulty.is_empty() || matches!(policy, FaultPolicy::Fallback) {
        return None;
    }
    let name = |seat: usize| line.seats.get(seat).map_or("?", String::as_str);
    let winners: Vec<&str> = (0..line.scores.len())
        .filter(|&i| line.scores[i] == 1.0)
        .map(name)
        .collect();
    let win = !winners.is_empty();
    // No winner, but not every side drew: the sides without faults drew
    // and the faulty side lost (royale), which the words say as the
    // scores do.
    let losers: Vec<&str> = (0..line.scores.len())
        .filter(|&i| line.scores[i] == 0.0)
        .map(name)
        .collect();
    let result = match winners.as_slice() {
        [] if !losers.is_empty() => {
            let drew: Vec<&str> = (0..line.scores.len())
                .filter(|&i| line.scores[i] > 0.0)
                .map(name)
                .collect();
            let loses = if losers.len() == 1 { "loses" } else { "lose" };
            format!("{} draw; {} {loses}", drew.join(" + "), losers.join(" + "))
        }
        [] => "draw".to_owned(),
        [one] => format!("{one} wins"),
        many => format!("{} win", many.join(" + ")),
    };
    let faulty: Vec<String> = (line.faulty.iter())
        .map(|&seat| {
            let why = line.faults.get(seat).map(fault_words).unwrap_or_default();
            if why.is_empty() {
                name(seat).to_owned()
            } else {
                format!("{} ({why})", name(seat))
            }
        })
        .collect();
    let every_side = (0..shape.side_count())
        .all(|side| (line.faulty.iter()).any(|&seat| shape.sides.get(seat) == Some(&side)));
    let who = if every_side {
        format!("every side was faulty: {}", faulty.join(", "))
    } else {
        let was = if faulty.len() == 1 { "was" } else { "were" };
        format!("{} {was} faulty", faulty.join(", "))
    };
    Some(Verdict {
        text: format!("{result} by forfeit: {who}"),
        win,
    })
}

/// A seat's faults in the game, the kinds that make it faulty:
/// `1 crash, 3 timeouts`.
fn fault_words(f: &crate::SeatFaults) -> String {
    let kinds = [
        (f.crash, "crash", "crashes"),
        (f.timeout, "timeout", "timeouts"),
        (f.invalid, "invalid answer", "invalid answers"),
        (f.limit, "limit hit", "limits hit"),
    ];
    (kinds.iter())
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeatFaults;

    fn line(scores: &[f64], faulty: &[usize], crashes: &[u64]) -> GameLine {
        let seats = ["alice", "crashy", "carol"];
        GameLine {
            version: 1,
            id: 11,
            seats: seats[..scores.len()].iter().map(|s| (*s).into()).collect(),
            teams: Vec::new(),
            board: None,
            pair: 0,
            leg: 0,
            seed: 1,
            scores: scores.to_vec(),
            faults: (crashes.iter())
                .map(|&crash| SeatFaults {
                    crash,
                    ..Default::default()
                })
                .collect(),
            faulty: faulty.to_vec(),
            first_faults: Vec::new(),
            record: serde_json::Value::Null,
            timing: serde_json::Value::Null,
            retired: None,
        }
    }

    const TWO: Shape = Shape {
        sides: &[0, 1],
        roles: &[],
        board: false,
    };
    const THREE: Shape = Shape {
        sides: &[0, 1, 2],
        roles: &[],
        board: false,
    };

    #[test]
    fn a_forfeit_names_the_winner_and_the_faulty_seat() {
        let forfeit = |l: &GameLine, shape| forfeit(l, shape, &FaultPolicy::default());
        let one = line(&[1.0, 0.0], &[1], &[0, 1]);
        assert_eq!(
            forfeit(&one, TWO),
            Some(Verdict {
                text: "alice wins by forfeit: crashy (1 crash) was faulty".into(),
                win: true
            })
        );
        let both = line(&[0.5, 0.5], &[0, 1], &[2, 1]);
        assert_eq!(
            forfeit(&both, TWO),
            Some(Verdict {
                text: "draw by forfeit: every side was faulty: alice (2 crashes), crashy (1 crash)"
                    .into(),
                win: false
            })
        );
        // Two sides of three faulty: the clean one wins.
        let royale = line(&[0.0, 0.0, 1.0], &[0, 1], &[1, 1, 0]);
        assert_eq!(
            forfeit(&royale, THREE).unwrap().text,
            "carol wins by forfeit: alice (1 crash), crashy (1 crash) were faulty"
        );
        // One side faulty, the other two drew: not a draw for it.
        let split = line(&[0.5, 0.0, 0.5], &[1], &[0, 1, 0]);
        assert_eq!(
            forfeit(&split, THREE),
            Some(Verdict {
                text: "alice + carol draw; crashy loses by forfeit: crashy (1 crash) was faulty"
                    .into(),
                win: false
            })
        );
        // No faulty seat, or the board decides: nothing to add.
        assert_eq!(forfeit(&line(&[1.0, 0.0], &[], &[0, 0]), TWO), None);
        assert_eq!(
            super::forfeit(&one, TWO, &FaultPolicy::Fallback),
            None,
            "under fallback the board's result is the league's"
        );
    }
}

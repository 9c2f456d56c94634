//! A small referee shaped like CardJitsu's wire protocol, for tests of the
//! runner that need a game but not its rules.

use dojo_engine::protocol::{Answer, Notice, Prompt, Referee, Reply};

/// Two seats, `rounds` simultaneous rounds of "pick a card 0..=4"; every
/// answer the runner handed over is kept, per round, in seat order.
#[derive(Debug, Default)]
pub struct Cards {
    pub rounds: usize,
    pub history: Vec<Vec<Answer<u8>>>,
}

impl Cards {
    /// A game of `rounds` rounds.
    pub fn new(rounds: usize) -> Cards {
        Cards {
            rounds,
            history: Vec::new(),
        }
    }

    /// Rounds played so far.
    pub fn round(&self) -> usize {
        self.history.len()
    }

    /// What seat `seat` answered, round by round.
    pub fn answers(&self, seat: usize) -> Vec<Answer<u8>> {
        self.history.iter().map(|r| r[seat].clone()).collect()
    }
}

impl Referee for Cards {
    type Move = u8;

    fn seats(&self) -> usize {
        2
    }

    fn greeting(&self, seat: usize) -> Vec<String> {
        vec![(seat + 1).to_string()]
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.history.len() >= self.rounds {
            return Vec::new();
        }
        (0..2)
            .map(|seat| Prompt {
                seat,
                lines: vec!["AAA,BBB,CCC,DDD,EEE".to_string()],
            })
            .collect()
    }

    fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<u8> {
        match lines.last().map(|l| l.trim().parse::<u8>()) {
            Some(Ok(i)) if i <= 4 => Reply::Complete(i),
            _ => Reply::Invalid(format!("not a card index: {:?}", lines.last())),
        }
    }

    fn apply(&mut self, answers: Vec<Answer<u8>>) -> Vec<Notice> {
        assert_eq!(answers.len(), 2, "one answer per prompt");
        self.history.push(answers);
        vec![Notice {
            seats: vec![0, 1],
            lines: vec!["AAA vs. BBB: 0 wins!".to_string()],
        }]
    }

    fn farewell(&self) -> Vec<String> {
        vec!["Draw!".to_string()]
    }
}

//! What the runner's integration tests share: a small referee shaped like
//! CardJitsu's wire protocol.

use dojo_engine::protocol::{Answer, Notice, Prompt, Referee, Reply};

/// Two seats, `rounds` rounds of "pick a card 0..=4", answers recorded.
#[derive(Debug, Default)]
pub struct Cards {
    pub rounds: usize,
    pub history: Vec<Vec<Answer<u8>>>,
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

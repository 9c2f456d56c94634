//! One game of CardJitsu: its state, its rounds, and its wire protocol.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::HAND_SIZE;
use super::card::Card;
use super::dealer::{Dealer, DeckDealer, deal_hand};
use super::deck::Deck;
use super::hand::Hand;
use super::pile::Pile;
use super::record::{GameRecord, Outcome, OutcomeReason, RoundRecord};
use super::rules::{RoundWinner, Ruleset, round_winner};
use super::stream::Stream;
use super::wire;
use crate::protocol::{Answer, Fault, Notice, Prompt, Referee, Reply};

/// The default round cap.
pub const DEFAULT_MAX_ROUNDS: u32 = 500;

/// How a game is set up, apart from its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The rule variant.
    pub rules: Ruleset,
    /// A game nobody has won after this many rounds is a draw (0 ends the
    /// game before it starts, as a draw).
    pub max_rounds: u32,
    /// The deck each seat draws from, by seat.
    pub decks: [Deck; 2],
}

impl Settings {
    /// The settings of `rules` with its default deck for both seats
    /// ([`Ruleset::default_deck`]) and the default round cap.
    pub fn of_rules(rules: Ruleset) -> Settings {
        let deck = Deck::named(rules.default_deck()).unwrap_or_else(Deck::standard);
        Settings {
            rules,
            max_rounds: DEFAULT_MAX_ROUNDS,
            decks: [deck.clone(), deck],
        }
    }
}

/// The tournament rules with the championship's deck.
impl Default for Settings {
    fn default() -> Settings {
        Settings::of_rules(Ruleset::default())
    }
}

/// A game of CardJitsu between seat 0 (player 1) and seat 1 (player 2).
///
/// Drive it through [`Referee`] (the wire protocol) or directly with
/// [`CardJitsu::play_round`]. Cloning a game clones its random streams, so
/// a clone replays exactly like the original: handy for bots that search.
/// A search that plays many games out should use
/// [`CardJitsu::search_copy`] (or [`CardJitsu::set_recording`]): rounds
/// are then not kept in the record, and a round allocates nothing; and
/// [`CardJitsu::playout_copy_into`] when the playouts should sample the
/// unknown future cards afresh, from fast random streams.
#[derive(Debug, Clone)]
pub struct CardJitsu<D = DeckDealer> {
    dealer: D,
    fallback: [Stream; 2],
    hands: [Hand; 2],
    piles: [Pile; 2],
    reverse: bool,
    record: GameRecord,
    /// Rounds played (the record holds them only while recording).
    rounds: u32,
    /// Whether rounds go into the record.
    recording: bool,
    /// The last round, when not recording (reused: no allocation).
    last: RoundRecord,
}

impl CardJitsu<DeckDealer> {
    /// A new game dealt from `settings.decks` with the seed's streams.
    pub fn new(seed: u64, settings: Settings) -> CardJitsu<DeckDealer> {
        let dealer = DeckDealer::new(seed, settings.decks);
        CardJitsu::with_dealer(seed, settings.rules, settings.max_rounds, dealer)
    }
}

impl<D: Dealer> CardJitsu<D> {
    /// The random stream id of `seat`'s fallback moves.
    pub const fn fallback_stream_id(seat: usize) -> u64 {
        2 + seat as u64
    }

    /// A new game whose cards come from `dealer`; the seed still drives
    /// the fallback moves. Each seat's initial hand is dealt card by card,
    /// seat 0 first.
    pub fn with_dealer(seed: u64, rules: Ruleset, max_rounds: u32, mut dealer: D) -> CardJitsu<D> {
        let hands = [0, 1].map(|seat| deal_hand(&mut dealer, seat));
        // Any card: the reused round slot is overwritten before it is read.
        let placeholder = hands[0][0];
        let outcome = (max_rounds == 0).then_some(Outcome {
            winner: None,
            reason: OutcomeReason::RoundCap,
            rounds: 0,
            winning_cards: None,
        });
        CardJitsu {
            dealer,
            fallback: [0, 1].map(|seat| Stream::new(seed, Self::fallback_stream_id(seat))),
            hands,
            piles: [Pile::new(), Pile::new()],
            reverse: false,
            record: GameRecord {
                rules,
                seed,
                max_rounds,
                rounds: Vec::new(),
                outcome,
            },
            rounds: 0,
            recording: true,
            last: RoundRecord {
                round: 0,
                reverse: false,
                hands: [Vec::with_capacity(HAND_SIZE), Vec::with_capacity(HAND_SIZE)],
                choices: [0; 2],
                cards: [placeholder; 2],
                winner: 0,
                faults: [None; 2],
            },
        }
    }

    /// Whether rounds are kept in [`CardJitsu::record`] (they are unless
    /// turned off).
    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// Turns keeping rounds in the record on or off (for the rounds played
    /// from now on). Without it, [`CardJitsu::play_round`] still returns
    /// the round just played, and a round allocates nothing.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// A copy to play out in a search: the same position, hands, piles and
    /// random streams (so it continues exactly like this game would), with
    /// no round history and recording off.
    pub fn search_copy(&self) -> CardJitsu<D>
    where
        D: Clone,
    {
        let mut copy = self.clone_shallow();
        copy.recording = false;
        copy
    }

    /// Makes `target` a [`CardJitsu::search_copy`] of this game, reusing
    /// its allocations: a search that plays out many copies of one
    /// position allocates nothing per playout.
    pub fn search_copy_into(&self, target: &mut CardJitsu<D>)
    where
        D: Clone,
    {
        target.dealer.clone_from(&self.dealer);
        target.fallback.clone_from(&self.fallback);
        self.copy_position_into(target);
    }

    /// Makes `target` a copy of this game for a playout that samples the
    /// unknown: like [`CardJitsu::search_copy_into`] (same position, no
    /// round history, recording off, no allocation), except that the
    /// cards dealt from now on and any fallback moves come from fast
    /// xoshiro256++ streams seeded with `seed` instead of this game's own
    /// ChaCha8 streams. Each seed is a different sample of the future
    /// deals (a bot does not know the referee's streams anyway), and such
    /// a copy costs a fraction of an exact one to make and to play. A
    /// dealer without random streams is copied as it is (see
    /// [`Dealer::copy_for_playout`]). Not for refereeing: the copy no
    /// longer follows the documented streams of its seed.
    pub fn playout_copy_into(&self, target: &mut CardJitsu<D>, seed: u64)
    where
        D: Clone,
    {
        self.dealer.copy_for_playout(&mut target.dealer, seed);
        for (seat, stream) in target.fallback.iter_mut().enumerate() {
            stream.reseed_fast(seed, Self::fallback_stream_id(seat));
        }
        self.copy_position_into(target);
    }

    /// A [`CardJitsu::playout_copy_into`] copy in a new game.
    pub fn playout_copy(&self, seed: u64) -> CardJitsu<D>
    where
        D: Clone,
    {
        let mut copy = self.clone_shallow();
        self.playout_copy_into(&mut copy, seed);
        copy
    }

    /// Everything of a search copy but the dealer and the fallback streams.
    fn copy_position_into(&self, target: &mut CardJitsu<D>) {
        target.hands.clone_from(&self.hands);
        for seat in 0..2 {
            target.piles[seat].clone_from(&self.piles[seat]);
        }
        target.reverse = self.reverse;
        target.record.rules = self.record.rules;
        target.record.seed = self.record.seed;
        target.record.max_rounds = self.record.max_rounds;
        target.record.rounds.clear();
        target.record.outcome.clone_from(&self.record.outcome);
        target.rounds = self.rounds;
        target.recording = false;
        let (last, from) = (&mut target.last, &self.last);
        last.round = from.round;
        last.reverse = from.reverse;
        for seat in 0..2 {
            last.hands[seat].clone_from(&from.hands[seat]);
        }
        last.choices = from.choices;
        last.cards = from.cards;
        last.winner = from.winner;
        last.faults = from.faults;
    }

    /// Everything but the round history.
    fn clone_shallow(&self) -> CardJitsu<D>
    where
        D: Clone,
    {
        CardJitsu {
            dealer: self.dealer.clone(),
            fallback: self.fallback.clone(),
            hands: self.hands.clone(),
            piles: self.piles.clone(),
            reverse: self.reverse,
            record: GameRecord {
                rules: self.record.rules,
                seed: self.record.seed,
                max_rounds: self.record.max_rounds,
                rounds: Vec::new(),
                outcome: self.record.outcome.clone(),
            },
            rounds: self.rounds,
            recording: self.recording,
            last: self.last.clone(),
        }
    }

    /// The rule variant.
    pub fn rules(&self) -> Ruleset {
        self.record.rules
    }

    /// The game's seed.
    pub fn seed(&self) -> u64 {
        self.record.seed
    }

    /// The round cap.
    pub fn max_rounds(&self) -> u32 {
        self.record.max_rounds
    }

    /// `seat`'s hand: 5 cards while the game runs (4 after the last round,
    /// since nobody draws then).
    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.hands[seat]
    }

    /// Both hands, by seat.
    pub fn hands(&self) -> &[Hand; 2] {
        &self.hands
    }

    /// `seat`'s won cards.
    pub fn pile(&self, seat: usize) -> &Pile {
        &self.piles[seat]
    }

    /// Whether Reverse is active for the next round.
    pub fn reverse(&self) -> bool {
        self.reverse
    }

    /// Rounds played so far.
    pub fn rounds_played(&self) -> u32 {
        self.rounds
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.record.outcome.is_some()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.record.outcome.as_ref()
    }

    /// `seat`'s score once the game is over: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn score(&self, seat: usize) -> Option<f64> {
        self.outcome().map(|o| o.score(seat))
    }

    /// The record so far (its `rounds` hold only the rounds played while
    /// recording).
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The record, consuming the game.
    pub fn into_record(self) -> GameRecord {
        self.record
    }

    /// The dealer.
    pub fn dealer(&self) -> &D {
        &self.dealer
    }

    /// The hand line `seat` is sent: `FyA,Fr6,WoA,Sg6,Wo5`, preceded by
    /// `* ` when Reverse is active.
    pub fn hand_line(&self, seat: usize) -> String {
        wire::hand_line(&self.hands[seat], self.reverse)
    }

    /// Appends [`CardJitsu::hand_line`] to `out` (a reused buffer).
    pub fn write_hand_line(&self, seat: usize, out: &mut String) {
        wire::write_hand_line(&self.hands[seat], self.reverse, out);
    }

    /// Plays one round with these hand indices (see [`CardJitsu::play_round`]).
    pub fn play(&mut self, choices: [usize; 2]) -> Option<&RoundRecord> {
        self.play_round(choices.map(Answer::Move))
    }

    /// Plays one round with these hand indices like [`CardJitsu::play`],
    /// but returns only who won it, or `None` if the game was already
    /// over. With recording off nothing of the round is kept (`play` keeps
    /// it to return it): the cheapest step through a playout. With
    /// recording on, the round is recorded as `play` records it.
    pub fn step(&mut self, choices: [usize; 2]) -> Option<RoundWinner> {
        if self.recording {
            let round = self.play(choices)?;
            return Some(match round.winner {
                0 => RoundWinner::Stalemate,
                1 => RoundWinner::First,
                _ => RoundWinner::Second,
            });
        }
        if self.is_over() {
            return None;
        }
        let mut valid = [0; 2];
        for seat in 0..2 {
            let hand = self.hands[seat].len();
            valid[seat] = if choices[seat] < hand {
                choices[seat]
            } else {
                self.fallback[seat].random_range(0..hand)
            };
        }
        Some(self.resolve(valid).1)
    }

    /// Plays one round. A fault, or an index outside the hand, plays a
    /// uniformly random card of that seat's hand from the seat's fallback
    /// stream, and the fault is recorded. Returns the round's record, or
    /// `None` if the game was already over.
    pub fn play_round(&mut self, answers: [Answer<usize>; 2]) -> Option<&RoundRecord> {
        if self.is_over() {
            return None;
        }
        let mut choices = [0; 2];
        let mut faults = [None; 2];
        for (seat, answer) in answers.into_iter().enumerate() {
            let fault = match answer {
                Answer::Move(i) if i < self.hands[seat].len() => {
                    choices[seat] = i;
                    continue;
                }
                Answer::Move(_) => Fault::Invalid,
                Answer::Fault(f) => f,
            };
            choices[seat] = self.fallback[seat].random_range(0..self.hands[seat].len());
            faults[seat] = Some(fault);
        }
        let shown = if self.recording {
            Some(self.hands.each_ref().map(|hand| hand.to_vec()))
        } else {
            // Into the reused slot: no allocation.
            for (shown, hand) in self.last.hands.iter_mut().zip(&self.hands) {
                shown.clear();
                shown.extend_from_slice(hand);
            }
            None
        };
        let reverse_now = self.reverse;
        let (cards, winner) = self.resolve(choices);
        let round = self.rounds;
        if !self.recording {
            let last = &mut self.last;
            last.round = round;
            last.reverse = reverse_now;
            last.choices = choices;
            last.cards = cards;
            last.winner = winner.player_number();
            last.faults = faults;
            return Some(&self.last);
        }
        self.record.rounds.push(RoundRecord {
            round,
            reverse: reverse_now,
            hands: shown.unwrap_or_default(),
            choices,
            cards,
            winner: winner.player_number(),
            faults,
        });
        self.record.rounds.last()
    }

    /// The rules of a round whose (valid) hand indices are known: the cards
    /// leave the hands, the winner keeps theirs, the game may end, and
    /// otherwise both seats draw. Returns the cards played and the winner.
    #[inline]
    fn resolve(&mut self, choices: [usize; 2]) -> ([Card; 2], RoundWinner) {
        let round = self.rounds + 1;
        self.rounds = round;
        let cards = [
            self.hands[0].remove(choices[0]),
            self.hands[1].remove(choices[1]),
        ];
        let winner = round_winner(cards[0], cards[1], self.reverse);
        self.reverse = false;
        if let Some(seat) = winner.seat() {
            let card = cards[seat];
            self.reverse = self.record.rules.activates_reverse(card);
            if let Some(triple) = self.piles[seat].push(card) {
                self.record.outcome = Some(Outcome {
                    winner: Some(winner.player_number()),
                    reason: OutcomeReason::Triple,
                    rounds: round,
                    winning_cards: Some(triple),
                });
                return (cards, winner);
            }
        }
        if round >= self.record.max_rounds {
            self.record.outcome = Some(Outcome {
                winner: None,
                reason: OutcomeReason::RoundCap,
                rounds: round,
                winning_cards: None,
            });
            return (cards, winner);
        }
        for seat in 0..2 {
            let card = self.dealer.draw(seat, &self.hands[seat]);
            self.hands[seat].push(card);
        }
        (cards, winner)
    }
}

/// What surrounds an answer and is ignored: ASCII spaces, and the CR of a
/// CRLF line ending. Nothing else (no tabs, no Unicode spaces).
pub fn trim_answer(line: &str) -> &str {
    line.trim_matches(|c| c == ' ' || c == '\r')
}

/// Reads a reply line: a hand index 0 to 4 written as exactly one ASCII
/// digit (no sign, no leading zero), with optional ASCII spaces and CR
/// around it (see `docs/protocols.md`).
pub fn parse_choice(line: &str) -> Result<usize, String> {
    let text = trim_answer(line);
    let digits = text.len() == 1 || !text.starts_with('0');
    let parsed = if digits && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<usize>().ok()
    } else {
        None
    };
    match parsed {
        Some(i) if i < HAND_SIZE => Ok(i),
        _ if text.is_empty() => Err(format!(
            "empty reply; expected a card index 0 to {}",
            HAND_SIZE - 1
        )),
        _ => Err(format!(
            "`{text}` is not a card index; expected one ASCII digit 0 to {}",
            HAND_SIZE - 1
        )),
    }
}

/// Reads a whole reply as the protocol does: one line decides, complete if
/// it is an index 0 to 4, else invalid.
pub fn parse_reply_lines(lines: &[String]) -> Reply<usize> {
    match lines.first().map(|l| parse_choice(l)) {
        Some(Ok(i)) => Reply::Complete(i),
        Some(Err(why)) => Reply::Invalid(why),
        None => Reply::Invalid("no reply line".to_owned()),
    }
}

impl<D: Dealer> Referee for CardJitsu<D> {
    type Move = usize;

    fn seats(&self) -> usize {
        2
    }

    /// The player number (`1` or `2`), then the result line of every
    /// round played so far: a process started during the game (a bot that
    /// exits after every answer, one started again after a fault) is told
    /// what a live process was, as seed 002 has it ("the cards played in
    /// each round"). A game that does not record its rounds (a search
    /// copy, which no process plays) has none to tell.
    fn greeting(&self, seat: usize) -> Vec<String> {
        std::iter::once(wire::greeting(seat))
            .chain(self.record.rounds.iter().map(RoundRecord::result_line))
            .collect()
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.is_over() {
            return Vec::new();
        }
        (0..2)
            .map(|seat| Prompt {
                seat,
                lines: vec![self.hand_line(seat)],
            })
            .collect()
    }

    fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<usize> {
        parse_reply_lines(lines)
    }

    /// Answers are taken in seat order; a missing one counts as invalid.
    fn apply(&mut self, answers: Vec<Answer<usize>>) -> Vec<Notice> {
        let mut answers = answers.into_iter();
        let mut next = || answers.next().unwrap_or(Answer::Fault(Fault::Invalid));
        let pair = [next(), next()];
        match self.play_round(pair) {
            Some(round) => vec![Notice {
                seats: vec![0, 1],
                lines: vec![round.result_line()],
            }],
            None => Vec::new(),
        }
    }

    /// `Player N wins!` or `Draw!`; nothing while the game runs.
    fn farewell(&self) -> Vec<String> {
        self.outcome()
            .map(|o| vec![o.farewell_line()])
            .unwrap_or_default()
    }
}

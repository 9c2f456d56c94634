//! The interactive CardJitsu game (`dojo play cardjitsu`): a person
//! against the computer or a bot, under either ruleset, in the display
//! format of seed 000 (the older Card-Jitsu variant) or labelled for a
//! person.
//!
//! Each round prints player 1's won cards, player 2's won cards and the
//! person's hand (`[SG10,FB4,SP9,WY7,FO8]`: element, uppercase colour,
//! decimal value), reads a number 1 to 5, then prints the card played, the
//! opponent's card and the round's winner (`1`, `2`, or `0` for a tie). The
//! game ends after the round that completes a winning triple, with a line
//! saying who won: in the plain display a note ([`Screen::notes`]), as are
//! a refused input and the end of input, since the seed's format has no
//! line for them (its example ends with the winning round's `1`).
//!
//! Under the classic rules ([`play_classic`]) there are no power cards and
//! no Reverse, both seats draw from the 198-card standard deck, and the
//! plain display is the seed's format byte for byte. Under the tournament
//! rules ([`play_game`] with [`Ruleset::Tournament`]) each seat is dealt
//! from its own shuffled copy of the championship's 30-card deck, without
//! replacement ([`Ruleset::default_deck`]), and winning a round with a
//! power card (a 10) makes the next round a Reverse round, in which the
//! lower number wins within an element (the engine's [`round_winner`] and
//! [`Ruleset::activates_reverse`] decide, as in a match). The labelled
//! display announces a Reverse round and explains it; the plain display
//! marks that round's hand line with the wire's `* ` (`* [SG10,FB4,...]`),
//! a mark the classic rules never print.
//!
//! The person is player 1. The computer depends on the rules: under the
//! classic rules it is the seed's ([`RandomOpponent`]: no hand, a uniformly
//! random card of all 198 every round, repeats allowed); under the
//! tournament rules a card of all 198 would ignore the deck and its power
//! cards, so the computer ([`DealtOpponent`]) is dealt a hand from its own
//! championship deck like any seat and plays a uniformly random card of it
//! (as a bot's fault is played in a match), drawing a replacement after each
//! round. [`with_bot`] makes player 2 a bot speaking the usual CardJitsu
//! protocol: it is dealt a hand from its deck like any seat, is sent the
//! `* `-marked hand line in a Reverse round, and is driven by the runner on
//! a thread of its own, which hands each card it plays to the game loop.
//! A bot that crashes, times out or answers no card has a random card of
//! its hand played for it, as in a match, and the round says so
//! ([`Opponent::stood_in`]): the card shown is then not the bot's choice.
//!
//! The wire lines a bot opponent is sent (greeting, hand, round result,
//! farewell) and the dealing of hands are the engine's
//! (`dojo_engine::cardjitsu::wire`, `deal_hand`, `DeckDealer`, the seat's
//! fallback stream), so a bot sees exactly what it sees in a match. The
//! round loop itself is this module's, not the engine's referee
//! (`CardJitsu`), because the seed's variant differs where the referee
//! cannot follow: the seed's computer has no hand and plays any of the 198
//! cards each round, repeats allowed, while the referee deals both seats a
//! hand; the person's card is read between showing the hand and learning
//! the opponent's; and the game has no round cap (it runs until a triple),
//! so it never ends in the referee's `Draw!`. The tournament rules use the
//! same loop so that both rulesets look and end the same way to a person.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};

use dojo_engine::cardjitsu::{
    Card, CardJitsu, Dealer, Deck, DeckDealer, Pile, Ruleset, classic_list, deal_hand,
    parse_reply_lines, round_winner, wire,
};
use dojo_engine::protocol::{Answer, Fault, Notice, Prompt, Referee, Reply};
use dojo_engine::rng::{ChaCha8Rng, stream};
use dojo_runner::{BotSpec, Controls, RunError, RunOptions, Seat, TimeMode};
use rand::RngExt;

use crate::record::seat_env;

/// Why a game against a bot ([`with_bot`]) failed.
#[derive(Debug, thiserror::Error)]
pub enum ClassicError {
    /// The bot could not be started or run.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Reading the person's input or writing the game failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The runner's thread panicked.
    #[error("the opponent bot's thread panicked")]
    Panicked,
}

/// How a game of [`play_classic`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `player` (1 or 2) completed a winning triple.
    Won { player: u8, cards: [Card; 3] },
    /// The input ended before the game did.
    Abandoned,
}

/// Player 2 of [`play_classic`].
pub trait Opponent {
    /// Player 2's card for round `round` (1-based).
    fn card(&mut self, round: u32) -> io::Result<Card>;

    /// How the round went: both cards, the winner (0, 1 or 2), and whether
    /// it ended the game.
    fn result(&mut self, mine: Card, theirs: Card, winner: u8, over: bool) -> io::Result<()>;

    /// Why the last [`Opponent::card`] was not the opponent's own choice,
    /// as a sentence naming it (`hang timed out (...): dojo played a random
    /// card of its hand for it`); `None` when it was (the computer's
    /// always is).
    fn stood_in(&mut self) -> Option<String> {
        None
    }
}

/// How [`play_classic`] shows the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Display {
    /// Seed 000's exact format: three bare card lists per round, the
    /// choice, both cards and the winner's number, one per line (the
    /// format scripts and the seed's example expect).
    Plain,
    /// For a person: labelled piles, a numbered hand, a prompt, the round's
    /// result in words and the winning triple at the end. `opponent` names
    /// player 2 (`the computer`, or the bot).
    Labelled { opponent: String },
}

/// Where a game is shown: `out` holds the display; `notes` what the plain
/// display has no line for (a refused input, the end of input, the
/// closing line naming the winner and its triple), so that the plain
/// `out` stays the seed's format byte for byte. The labelled display
/// shows everything on `out`.
#[derive(Debug)]
pub struct Screen<O, N> {
    pub out: O,
    pub notes: N,
}

impl<O: Write, N: Write> Screen<O, N> {
    /// Where a line outside the display's format goes under `display`.
    fn aside(&mut self, display: &Display) -> &mut dyn Write {
        match display {
            Display::Plain => &mut self.notes,
            Display::Labelled { .. } => &mut self.out,
        }
    }
}

/// A card for a person: `Fire blue 4 (Fb4)`, with dojo's spelling.
fn spoken(card: Card) -> String {
    format!(
        "{} {} {} ({card})",
        card.element().name(),
        card.colour().name().to_lowercase(),
        card.number()
    )
}

/// Cards in dojo's spelling, or `(none)`.
fn pile_text(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "(none)".to_owned();
    }
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a round went as it did, in words (`reverse`: the round was a
/// Reverse round, so the lower number won within an element).
fn why(mine: Card, theirs: Card, reverse: bool) -> String {
    let (a, b) = (mine.element(), theirs.element());
    if a != b {
        let (w, l) = if a.beats(b) { (a, b) } else { (b, a) };
        return format!("{} beats {}", w.name(), l.name());
    }
    if mine.number() == theirs.number() {
        return format!("both {} {}: a stalemate", a.name(), mine.number());
    }
    let (hi, lo) = (
        mine.number().max(theirs.number()),
        mine.number().min(theirs.number()),
    );
    if reverse {
        format!("both {}, and Reverse: {lo} beats {hi}", a.name())
    } else {
        format!("both {}: {hi} beats {lo}", a.name())
    }
}

/// The line that opens a game, naming the rules, the seed and the
/// opponent: `dojo play` prints it before the first round (on stdout in the
/// labelled display, on stderr in the plain one, whose stdout is the seed's
/// format). `picked`: the seed was picked, not given, so the line says how
/// to play the same game again.
pub fn header(rules: Ruleset, seed: u64, picked: bool, opponent: &str) -> String {
    let rules_text = match rules {
        Ruleset::Tournament => {
            "tournament rules: each player draws from a shuffled championship deck \
             (30 cards); winning with a power card (10) makes the next round a Reverse \
             round, where the lower number wins"
        }
        Ruleset::Classic => {
            "classic rules: cards drawn from all 198 (2 to 12), no power cards, no Reverse"
        }
    };
    let again = if picked {
        format!(" (replay with --seed {seed})")
    } else {
        String::new()
    };
    format!("CardJitsu, {rules_text}; seed {seed}{again}; you against {opponent}")
}

/// Why three cards win: all one element or all different, colours all different.
fn why_triple(cards: &[Card; 3]) -> &'static str {
    if cards[0].element() == cards[1].element() {
        "one element in three different colours"
    } else {
        "three different elements in three different colours"
    }
}

/// Plays one game under the classic rules (see [`play_game`]).
pub fn play_classic(
    input: impl BufRead,
    screen: Screen<impl Write, impl Write>,
    echo: bool,
    display: &Display,
    dealer: &mut impl Dealer,
    opponent: &mut impl Opponent,
) -> io::Result<Ending> {
    play_game(
        input,
        screen,
        echo,
        display,
        Ruleset::Classic,
        dealer,
        opponent,
    )
}

/// Plays one game under `rules`: player 1's hand comes from `dealer` (seat
/// 0), its moves from `input` (one number per line); player 2 is
/// `opponent`; `display` says how it is shown, on `screen`. With `echo`,
/// each input line taken is written to the display too, so a transcript
/// of piped input reads like a terminal session. Bad input is asked again;
/// the end of `input` ends the game as [`Ending::Abandoned`].
pub fn play_game(
    mut input: impl BufRead,
    mut screen: Screen<impl Write, impl Write>,
    echo: bool,
    display: &Display,
    rules: Ruleset,
    dealer: &mut impl Dealer,
    opponent: &mut impl Opponent,
) -> io::Result<Ending> {
    let mut hand = deal_hand(dealer, 0).to_vec();
    let mut piles = [Pile::new(), Pile::new()];
    let mut line = Vec::new();
    // Whether this round is a Reverse round (never under classic rules).
    let mut reverse = false;
    for round in 1.. {
        match display {
            Display::Plain => {
                writeln!(screen.out, "{}", classic_list(piles[0].cards()))?;
                writeln!(screen.out, "{}", classic_list(piles[1].cards()))?;
                // The wire's Reverse mark: a script that reads the hand
                // line learns the round's rule where a bot does.
                let mark = if reverse { wire::REVERSE_MARK } else { "" };
                writeln!(screen.out, "{mark}{}", classic_list(&hand))?;
            }
            Display::Labelled { opponent } => {
                let numbered: Vec<String> = hand
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{}:{c}", i + 1))
                    .collect();
                if reverse {
                    writeln!(
                        screen.out,
                        "round {round}: Reverse! Within an element the lower number wins this round"
                    )?;
                } else {
                    writeln!(screen.out, "round {round}")?;
                }
                writeln!(screen.out, "  your pile:  {}", pile_text(piles[0].cards()))?;
                writeln!(
                    screen.out,
                    "  {opponent}'s pile:  {}",
                    pile_text(piles[1].cards())
                )?;
                writeln!(screen.out, "  your hand:  {}", numbered.join("  "))?;
            }
        }
        let choice = loop {
            if let Display::Labelled { .. } = display {
                write!(screen.out, "play which card (1-{})? ", hand.len())?;
            }
            screen.out.flush()?;
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                if let Display::Labelled { .. } = display {
                    writeln!(screen.out)?;
                }
                let aside = screen.aside(display);
                writeln!(aside, "end of input: game abandoned")?;
                aside.flush()?;
                screen.out.flush()?;
                return Ok(Ending::Abandoned);
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            let taken = text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=hand.len()).contains(n));
            match (taken, display) {
                (Some(n), _) => {
                    if echo {
                        writeln!(screen.out, "{text}")?;
                    }
                    break n - 1;
                }
                // The seed's format has no line for a refused input: the
                // input and why it was refused go to the notes.
                (None, Display::Plain) => writeln!(
                    screen.notes,
                    "expected a number from 1 to {}, not {text:?}: the card of your hand to play",
                    hand.len()
                )?,
                (None, Display::Labelled { .. }) => {
                    if echo {
                        writeln!(screen.out, "{text}")?;
                    }
                    writeln!(
                        screen.out,
                        "expected a number from 1 to {}: the card of your hand to play",
                        hand.len()
                    )?;
                }
            }
        };
        let mine = hand.remove(choice);
        let theirs = opponent.card(round)?;
        // Said in the round it happens: the card shown as the opponent's
        // is then dojo's choice, not the bot's.
        if let Some(why) = opponent.stood_in() {
            match display {
                Display::Plain => writeln!(screen.notes, "round {round}: {why}")?,
                Display::Labelled { .. } => writeln!(screen.out, "  {why}")?,
            }
        }
        let winner = round_winner(mine, theirs, reverse);
        let won_with = match winner.seat() {
            Some(0) => Some(mine),
            Some(_) => Some(theirs),
            None => None,
        };
        let next_reverse = won_with.is_some_and(|card| rules.activates_reverse(card));
        match display {
            Display::Plain => {
                writeln!(screen.out, "{}", mine.classic_name())?;
                writeln!(screen.out, "{}", theirs.classic_name())?;
                writeln!(screen.out, "{}", winner.player_number())?;
            }
            Display::Labelled { opponent } => {
                let result = match winner.seat() {
                    Some(0) => "you win the round".to_owned(),
                    Some(_) => format!("{opponent} wins the round"),
                    None => "nobody wins the round".to_owned(),
                };
                let power = if next_reverse {
                    " with a power card: the next round is a Reverse round"
                } else {
                    ""
                };
                writeln!(
                    screen.out,
                    "  you play {}, {opponent} plays {}: {}; {result}{power}",
                    spoken(mine),
                    spoken(theirs),
                    why(mine, theirs, reverse)
                )?;
            }
        }
        let triple = match (winner.seat(), won_with) {
            (Some(seat), Some(card)) => piles[seat.min(1)].push(card),
            _ => None,
        };
        reverse = next_reverse;
        opponent.result(mine, theirs, winner.player_number(), triple.is_some())?;
        if let Some(cards) = triple {
            let player = winner.player_number();
            match display {
                // The seed's format ends with the winning round's result:
                // the line naming the triple is a note.
                Display::Plain => writeln!(
                    screen.notes,
                    "Player {player} wins the game with {}",
                    classic_list(&cards)
                )?,
                Display::Labelled { opponent } => {
                    let who = if player == 1 {
                        "You win".to_owned()
                    } else {
                        format!("{opponent} wins")
                    };
                    let list: Vec<String> = cards.iter().map(|c| spoken(*c)).collect();
                    writeln!(
                        screen.out,
                        "{who} the game with {}: {}",
                        list.join(", "),
                        why_triple(&cards)
                    )?;
                }
            }
            screen.out.flush()?;
            screen.notes.flush()?;
            return Ok(Ending::Won { player, cards });
        }
        let card = dealer.draw(0, &hand);
        hand.push(card);
    }
    unreachable!("the rounds never run out")
}

/// The seed's computer: a uniformly random card of the standard deck each
/// round, no hand (seat 1's deck stream of the seed).
#[derive(Debug)]
pub struct RandomOpponent {
    deck: Deck,
    rng: ChaCha8Rng,
}

impl RandomOpponent {
    /// The computer for a game of seed `seed`.
    pub fn new(seed: u64) -> RandomOpponent {
        RandomOpponent {
            deck: Deck::standard(),
            rng: stream(seed, DeckDealer::stream_id(1)),
        }
    }
}

impl Opponent for RandomOpponent {
    fn card(&mut self, _round: u32) -> io::Result<Card> {
        let entries = self.deck.entries();
        Ok(entries[self.rng.random_range(0..entries.len())])
    }

    fn result(&mut self, _: Card, _: Card, _: u8, _: bool) -> io::Result<()> {
        Ok(())
    }
}

/// The tournament rules' computer: dealt a hand from its own deck (seat 2
/// of the seed's deal, as a bot seat is) and playing a uniformly random
/// card of it each round (seat 2's fallback stream, the one a bot's fault
/// is played from in a match), then drawing a replacement.
#[derive(Debug)]
pub struct DealtOpponent {
    hand: Vec<Card>,
    dealer: DeckDealer,
    rng: ChaCha8Rng,
}

impl DealtOpponent {
    /// The computer for a game of seed `seed` drawing from `deck`.
    pub fn new(seed: u64, deck: Deck) -> DealtOpponent {
        let mut dealer = DeckDealer::new(seed, [deck.clone(), deck]);
        DealtOpponent {
            hand: deal_hand(&mut dealer, 1).to_vec(),
            dealer,
            rng: stream(seed, CardJitsu::<DeckDealer>::fallback_stream_id(1)),
        }
    }

    /// The cards it holds.
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }
}

impl Opponent for DealtOpponent {
    fn card(&mut self, _round: u32) -> io::Result<Card> {
        let card = self.hand.remove(self.rng.random_range(0..self.hand.len()));
        let next = self.dealer.draw(1, &self.hand);
        self.hand.push(next);
        Ok(card)
    }

    fn result(&mut self, _: Card, _: Card, _: u8, _: bool) -> io::Result<()> {
        Ok(())
    }
}

/// The computer of `dojo play` under `rules` for a game of seed `seed`:
/// the seed's [`RandomOpponent`] under the classic rules, a
/// [`DealtOpponent`] drawing from the championship deck under the
/// tournament rules.
pub fn computer(rules: Ruleset, seed: u64) -> Box<dyn Opponent> {
    match rules {
        Ruleset::Classic => Box::new(RandomOpponent::new(seed)),
        Ruleset::Tournament => Box::new(DealtOpponent::new(seed, default_deck(rules))),
    }
}

/// The deck each seat draws from under `rules` ([`Ruleset::default_deck`]).
pub fn default_deck(rules: Ruleset) -> Deck {
    Deck::named(rules.default_deck()).unwrap_or_else(Deck::standard)
}

/// A dealer for a game of seed `seed` under `rules`: both seats draw from
/// the rules' deck.
pub fn dealer(rules: Ruleset, seed: u64) -> DeckDealer {
    let deck = default_deck(rules);
    DeckDealer::new(seed, [deck.clone(), deck])
}

impl<O: Opponent + ?Sized> Opponent for Box<O> {
    fn card(&mut self, round: u32) -> io::Result<Card> {
        (**self).card(round)
    }

    fn result(&mut self, mine: Card, theirs: Card, winner: u8, over: bool) -> io::Result<()> {
        (**self).result(mine, theirs, winner, over)
    }

    fn stood_in(&mut self) -> Option<String> {
        (**self).stood_in()
    }
}

/// What the game loop tells the bot's thread after a round.
#[derive(Debug)]
struct RoundEnd {
    line: String,
    farewell: Option<String>,
    /// Whether the next round is a Reverse round.
    reverse: bool,
}

/// Player 2 as a bot: the runner's side. A one-seat referee holding the
/// bot's hand; each answer is handed to the game loop, which replies with
/// the round's result.
struct BotSide {
    hand: Vec<Card>,
    /// Whether this round is a Reverse round.
    reverse: bool,
    dealer: DeckDealer,
    fallback: ChaCha8Rng,
    /// Each card played, with the fault it was played for (`None`: the
    /// bot's own choice).
    cards: Sender<(Card, Option<StandIn>)>,
    results: Receiver<RoundEnd>,
    /// The result lines of the rounds so far: a process started during the
    /// game is told them (as the tournament referee's greeting does).
    told: Vec<String>,
    farewell: Option<Vec<String>>,
    /// Why the last reply was refused, as the protocol's parser said.
    refused: std::cell::RefCell<Option<String>>,
}

/// Why dojo chose a bot's card for it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum StandIn {
    Timeout,
    Crash,
    /// The answer was no card index; the parser's reason.
    Invalid(Option<String>),
}

impl Referee for BotSide {
    type Move = usize;

    fn seats(&self) -> usize {
        1
    }

    /// The bot is player 2; a process started during the game is told the
    /// rounds so far.
    fn greeting(&self, _seat: usize) -> Vec<String> {
        std::iter::once(wire::greeting(1))
            .chain(self.told.iter().cloned())
            .collect()
    }

    fn prompts(&self) -> Vec<Prompt> {
        if self.farewell.is_some() {
            return Vec::new();
        }
        // Classic rules have no Reverse: there the hand is never marked.
        vec![Prompt {
            seat: 0,
            lines: vec![wire::hand_line(&self.hand, self.reverse)],
        }]
    }

    fn parse_reply(&self, _seat: usize, lines: &[String]) -> Reply<usize> {
        let reply = parse_reply_lines(lines);
        if let Reply::Invalid(why) = &reply {
            *self.refused.borrow_mut() = Some(why.clone());
        }
        reply
    }

    fn apply(&mut self, answers: Vec<Answer<usize>>) -> Vec<Notice> {
        let refused = self.refused.borrow_mut().take();
        // A fault plays a random card of the hand, as in a match.
        let (index, stand_in) = match answers.first() {
            Some(Answer::Move(i)) if *i < self.hand.len() => (*i, None),
            answer => {
                let why = match answer {
                    Some(Answer::Fault(Fault::Timeout)) => StandIn::Timeout,
                    Some(Answer::Fault(Fault::Crash)) => StandIn::Crash,
                    _ => StandIn::Invalid(refused),
                };
                (self.fallback.random_range(0..self.hand.len()), Some(why))
            }
        };
        let card = self.hand.remove(index);
        let end = match self.cards.send((card, stand_in)) {
            Ok(()) => self.results.recv().ok(),
            Err(_) => None,
        };
        let Some(end) = end else {
            // The game loop stopped (end of input): end quietly.
            self.farewell = Some(Vec::new());
            return Vec::new();
        };
        self.reverse = end.reverse;
        match end.farewell {
            Some(line) => self.farewell = Some(vec![line]),
            None => {
                let card = self.dealer.draw(1, &self.hand);
                self.hand.push(card);
            }
        }
        self.told.push(end.line.clone());
        vec![Notice {
            seats: vec![0],
            lines: vec![end.line],
        }]
    }

    fn farewell(&self) -> Vec<String> {
        self.farewell.clone().unwrap_or_default()
    }
}

/// Player 2 as a bot: the game loop's side (made by [`with_bot`]).
#[derive(Debug)]
pub struct BotOpponent {
    cards: Receiver<(Card, Option<StandIn>)>,
    results: Sender<RoundEnd>,
    rules: Ruleset,
    /// The bot's name, for [`Opponent::stood_in`].
    name: String,
    /// Its time controls (its bot.toml's, or the run's), for the words of
    /// a timeout.
    controls: Controls,
    /// The round of the last card asked for (1-based).
    round: u32,
    /// Why dojo chose the last card, if it did.
    last: Option<StandIn>,
    /// Rounds in which dojo chose its card.
    stood_in: u32,
}

impl BotOpponent {
    /// Rounds in which dojo played the bot's card for it (it crashed, timed
    /// out or answered no card).
    pub fn faults(&self) -> u32 {
        self.stood_in
    }
}

impl Opponent for BotOpponent {
    fn card(&mut self, round: u32) -> io::Result<Card> {
        self.round = round;
        let (card, stand_in) = self
            .cards
            .recv()
            .map_err(|_| io::Error::other("the opponent bot's game stopped"))?;
        self.last = stand_in;
        Ok(card)
    }

    fn stood_in(&mut self) -> Option<String> {
        let why = match self.last.take()? {
            StandIn::Timeout => format!(
                "timed out (no answer within {})",
                time_allowed(&self.controls, self.round)
            ),
            StandIn::Crash => "crashed (its process ended without answering)".to_owned(),
            StandIn::Invalid(Some(reason)) => {
                // The parser's reason quotes the answer: `x` is not ...
                match reason.split_once(" is not a card index") {
                    Some((answer, _)) => {
                        format!("answered {answer}, not a card of its hand ({reason})")
                    }
                    None => format!("answered no card of its hand ({reason})"),
                }
            }
            StandIn::Invalid(None) => "answered no card of its hand".to_owned(),
        };
        self.stood_in += 1;
        // Its stderr is kept and shown when the game ends ([`with_bot`]).
        let stderr = if self.stood_in == 1 {
            "; its stderr is shown after the game"
        } else {
            ""
        };
        Some(format!(
            "{} {why}: dojo played a random card of its hand for it{stderr}",
            self.name
        ))
    }

    fn result(&mut self, mine: Card, theirs: Card, winner: u8, over: bool) -> io::Result<()> {
        // The game only ends with a triple: there is always a winner.
        let won_with = match winner {
            1 => Some(mine),
            2 => Some(theirs),
            _ => None,
        };
        let end = RoundEnd {
            line: wire::result_line([mine, theirs], winner),
            farewell: over.then(|| wire::farewell_line(Some(winner))),
            reverse: won_with.is_some_and(|card| self.rules.activates_reverse(card)),
        };
        self.results
            .send(end)
            .map_err(|_| io::Error::other("the opponent bot's game stopped"))
    }
}

/// The time a bot had for its answer in round `round` under `controls`,
/// in words: its first answer has the start-up allowance on top of the
/// move time (the runner's rule, docs/protocols.md "Time"); an overage
/// bank or a game budget are named, as what was left of them counted.
fn time_allowed(controls: &Controls, round: u32) -> String {
    let ms = |d: std::time::Duration| d.as_millis();
    let clock = match controls.time {
        TimeMode::Wall => "",
        TimeMode::Cpu => " of CPU time",
    };
    let mut words = format!("{} ms{clock}", ms(controls.timeout));
    if round <= 1 && !controls.startup.is_zero() {
        words += &format!(
            " plus the {} ms start-up allowance of a first answer",
            ms(controls.startup)
        );
    }
    if !controls.overage.is_zero() {
        words += &format!(
            " and what was left of its {} ms overage bank",
            ms(controls.overage)
        );
    }
    if let Some(budget) = controls.game_budget {
        words += &format!(", or its {} ms for the game ran out", ms(budget));
    }
    words
}

/// A game against a bot ([`with_bot`]): how it ended, and what the
/// person needs to know about the bot's faults.
#[derive(Debug)]
pub struct BotGame {
    pub ending: Ending,
    /// Rounds in which dojo played the bot's card for it.
    pub faults: u32,
    /// The head of what the bot wrote to stderr (capped as in a match).
    pub stderr: String,
}

/// Runs `game` with a [`BotOpponent`] backed by `bot` played through the
/// runner on another thread (seat 2 of seed `seed`'s deal under `rules`:
/// the rules' deck, the `* ` hand line in a Reverse round). A runner error
/// (the bot cannot start) wins over the game loop's error it causes.
pub fn with_bot(
    bot: Arc<BotSpec>,
    seed: u64,
    rules: Ruleset,
    opts: &RunOptions,
    game: impl FnOnce(&mut BotOpponent) -> io::Result<Ending>,
) -> Result<BotGame, ClassicError> {
    let (cards_tx, cards_rx) = mpsc::channel();
    let (results_tx, results_rx) = mpsc::channel();
    let name = bot.name.clone();
    let controls = opts.for_bot(&bot);
    let seat = Seat {
        bot,
        env: seat_env("cardjitsu", seed, 1),
    };
    let mut dealer = dealer(rules, seed);
    let mut side = BotSide {
        hand: deal_hand(&mut dealer, 1).to_vec(),
        reverse: false,
        dealer,
        fallback: stream(seed, CardJitsu::<DeckDealer>::fallback_stream_id(1)),
        cards: cards_tx,
        results: results_rx,
        told: Vec::new(),
        farewell: None,
        refused: Default::default(),
    };
    std::thread::scope(|scope| {
        let runner = scope.spawn(move || -> Result<String, RunError> {
            let run = dojo_runner::play(&mut side, &[seat], opts)?;
            Ok(run
                .seats
                .into_iter()
                .next()
                .map(|s| s.stderr)
                .unwrap_or_default())
        });
        let mut opponent = BotOpponent {
            cards: cards_rx,
            results: results_tx,
            rules,
            name,
            controls,
            round: 0,
            last: None,
            stood_in: 0,
        };
        let played = game(&mut opponent);
        let faults = opponent.faults();
        drop(opponent);
        let ran = runner.join().map_err(|_| ClassicError::Panicked)?;
        let stderr = ran?;
        Ok(BotGame {
            ending: played?,
            faults,
            stderr,
        })
    })
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    fn cards(list: &str) -> VecDeque<Card> {
        // Seed 000 spelling (`SG10`) to the engine's (`Sga`).
        list.split(',')
            .map(|s| {
                let (ec, value) = s.split_at(2);
                let mut chars = ec.chars();
                let e = chars.next().unwrap();
                let c = chars.next().unwrap().to_ascii_lowercase();
                let n: u8 = value.parse().unwrap();
                format!("{e}{c}{n:X}").parse().unwrap()
            })
            .collect()
    }

    /// A screen of two buffers: the display and the notes.
    fn screen<'a>(
        out: &'a mut Vec<u8>,
        notes: &'a mut Vec<u8>,
    ) -> Screen<&'a mut Vec<u8>, &'a mut Vec<u8>> {
        Screen { out, notes }
    }

    /// Deals scripted cards to seat 0.
    struct Scripted(VecDeque<Card>);

    impl Dealer for Scripted {
        fn draw(&mut self, seat: usize, hand: &[Card]) -> Card {
            assert_eq!(seat, 0);
            let card = self.0.pop_front().expect("script ran out");
            assert!(!hand.contains(&card));
            card
        }
    }

    /// Plays scripted cards and remembers what it was told.
    struct ScriptedOpponent {
        cards: VecDeque<Card>,
        told: Vec<(u8, bool)>,
    }

    impl Opponent for ScriptedOpponent {
        fn card(&mut self, _round: u32) -> io::Result<Card> {
            Ok(self.cards.pop_front().expect("script ran out"))
        }
        fn result(&mut self, _: Card, _: Card, winner: u8, over: bool) -> io::Result<()> {
            self.told.push((winner, over));
            Ok(())
        }
    }

    /// The seed's example game, with its two typos fixed: player 2's first
    /// card `IY6` (no such element) is `SY6`, the card the rules section
    /// shows for the same round; and the last card played, shown as `SR9`
    /// although the hand holds `SP9` (input 1), is `SP9`.
    const SEED_EXAMPLE: &str = "\
[]
[]
[SG10,FB4,SP9,WY7,FO8]
2
FB4
SY6
1
[FB4]
[]
[SG10,SP9,WY7,FO8,WR2]
3
WY7
WB8
2
[FB4]
[WB8]
[SG10,SP9,FO8,WR2,FY5]
1
SG10
WG10
1
[FB4,SG10]
[WB8]
[SP9,FO8,WR2,FY5,WG7]
5
WG7
WY4
1
[FB4,SG10,WG7]
[WB8]
[SP9,FO8,WR2,FY5,FB3]
3
WR2
WG2
0
[FB4,SG10,WG7]
[WB8]
[SP9,FO8,FY5,FB3,WR7]
1
SP9
WO10
1
";

    #[test]
    fn plays_the_seed_example_exactly() {
        let mut dealer = Scripted(cards("SG10,FB4,SP9,WY7,FO8,WR2,FY5,WG7,FB3,WR7"));
        let mut opponent = ScriptedOpponent {
            cards: cards("SY6,WB8,WG10,WY4,WG2,WO10"),
            told: Vec::new(),
        };
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let outcome = play_classic(
            "2\n3\n1\n5\n3\n1\n".as_bytes(),
            screen(&mut out, &mut notes),
            true,
            &Display::Plain,
            &mut dealer,
            &mut opponent,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), SEED_EXAMPLE);
        // The seed's example has no line naming the triple: a note.
        assert_eq!(
            String::from_utf8(notes).unwrap(),
            "Player 1 wins the game with [FB4,WG7,SP9]\n"
        );
        let triple: Vec<Card> = cards("FB4,WG7,SP9").into();
        assert_eq!(
            outcome,
            Ending::Won {
                player: 1,
                cards: [triple[0], triple[1], triple[2]]
            }
        );
        assert_eq!(
            opponent.told,
            [
                (1, false),
                (2, false),
                (1, false),
                (1, false),
                (0, false),
                (1, true)
            ]
        );
    }

    #[test]
    fn bad_input_is_asked_again_and_end_of_input_abandons() {
        let mut dealer = Scripted(cards("SG10,FB4,SP9,WY7,FO8,WR2"));
        let mut opponent = ScriptedOpponent {
            cards: cards("SY6"),
            told: Vec::new(),
        };
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let outcome = play_classic(
            "x\n9\n\n0\n2\n".as_bytes(),
            screen(&mut out, &mut notes),
            true,
            &Display::Plain,
            &mut dealer,
            &mut opponent,
        )
        .unwrap();
        assert_eq!(outcome, Ending::Abandoned);
        // The display is the seed's format: the input taken, nothing else.
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[]\n[]\n[SG10,FB4,SP9,WY7,FO8]\n2\nFB4\nSY6\n1\n[FB4]\n[]\n[SG10,SP9,WY7,FO8,WR2]\n"
        );
        let notes = String::from_utf8(notes).unwrap();
        assert_eq!(
            notes.lines().collect::<Vec<_>>(),
            [
                "expected a number from 1 to 5, not \"x\": the card of your hand to play",
                "expected a number from 1 to 5, not \"9\": the card of your hand to play",
                "expected a number from 1 to 5, not \"\": the card of your hand to play",
                "expected a number from 1 to 5, not \"0\": the card of your hand to play",
                "end of input: game abandoned",
            ]
        );
    }

    #[test]
    fn the_labelled_display_explains_each_round_and_the_win() {
        let mut dealer = Scripted(cards("SG10,FB4,SP9,WY7,FO8,WR2,FY5,WG7,FB3,WR7"));
        let mut opponent = ScriptedOpponent {
            cards: cards("SY6,WB8,WG10,WY4,WG2,WO10"),
            told: Vec::new(),
        };
        let mut out = Vec::new();
        let display = Display::Labelled {
            opponent: "the computer".into(),
        };
        play_classic(
            "2\n3\n1\n5\n3\n1\n".as_bytes(),
            screen(&mut out, &mut Vec::new()),
            false,
            &display,
            &mut dealer,
            &mut opponent,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with(
            "round 1\n  your pile:  (none)\n  the computer's pile:  (none)\n  your hand:  1:SgA  2:Fb4  3:Sp9  4:Wy7  5:Fo8\nplay which card (1-5)? "
        ), "{text}");
        assert!(text.contains(
            "you play Fire blue 4 (Fb4), the computer plays Snow yellow 6 (Sy6): Fire beats Snow; you win the round"
        ), "{text}");
        assert!(
            text.contains("Water green 2 (Wg2): both Water 2: a stalemate; nobody wins the round"),
            "{text}"
        );
        assert!(text.contains("round 2\n  your pile:  Fb4\n"), "{text}");
        assert!(text.ends_with(
            "You win the game with Fire blue 4 (Fb4), Water green 7 (Wg7), Snow purple 9 (Sp9): three different elements in three different colours\n"
        ), "{text}");
    }

    #[test]
    fn random_opponent_is_seeded_and_uses_the_whole_deck() {
        let play = |seed| {
            let mut o = RandomOpponent::new(seed);
            (0..300).map(|r| o.card(r).unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(play(4), play(4));
        assert_ne!(play(4), play(5));
        let seen: std::collections::BTreeSet<Card> = play(4).into_iter().collect();
        assert!(seen.len() > 150, "{}", seen.len());
        assert!(seen.iter().all(|c| (2..=12).contains(&c.number())));
    }

    /// A tournament game whose first round the person wins with a power
    /// card, so the second is a Reverse round: there the lower number wins
    /// (`Fb4` over `Fr9`), and the third is not.
    fn play_reverse_game(display: &Display) -> (String, Vec<(u8, bool)>) {
        let mut dealer = Scripted(cards("SG10,FB4,SP9,WY7,FO8,WR2,FY5,WG7"));
        let mut opponent = ScriptedOpponent {
            cards: cards("SY6,FR9,WB8"),
            told: Vec::new(),
        };
        let mut out = Vec::new();
        let outcome = play_game(
            "1\n1\n3\n".as_bytes(),
            screen(&mut out, &mut Vec::new()),
            true,
            display,
            Ruleset::Tournament,
            &mut dealer,
            &mut opponent,
        )
        .unwrap();
        assert_eq!(outcome, Ending::Abandoned);
        (String::from_utf8(out).unwrap(), opponent.told)
    }

    #[test]
    fn a_power_card_win_makes_the_next_round_reverse_where_the_lower_number_wins() {
        let (plain, told) = play_reverse_game(&Display::Plain);
        assert_eq!(
            plain,
            "\
[]
[]
[SG10,FB4,SP9,WY7,FO8]
1
SG10
SY6
1
[SG10]
[]
* [FB4,SP9,WY7,FO8,WR2]
1
FB4
FR9
1
[SG10,FB4]
[]
[SP9,WY7,FO8,WR2,FY5]
3
FO8
WB8
2
[SG10,FB4]
[WB8]
[SP9,WY7,WR2,FY5,WG7]
"
        );
        assert_eq!(told, [(1, false), (1, false), (2, false)]);

        let (labelled, _) = play_reverse_game(&Display::Labelled {
            opponent: "the computer".into(),
        });
        assert!(
            labelled.contains(
                "both Snow: 10 beats 6; you win the round with a power card: \
                 the next round is a Reverse round\nround 2: Reverse! Within an element \
                 the lower number wins this round\n"
            ),
            "{labelled}"
        );
        assert!(
            labelled.contains(
                "you play Fire blue 4 (Fb4), the computer plays Fire red 9 (Fr9): \
                 both Fire, and Reverse: 4 beats 9; you win the round\nround 3\n"
            ),
            "{labelled}"
        );
    }

    #[test]
    fn the_same_cards_under_classic_rules_have_no_reverse() {
        let mut dealer = Scripted(cards("SG10,FB4,SP9,WY7,FO8,WR2,FY5"));
        let mut opponent = ScriptedOpponent {
            cards: cards("SY6,FR9"),
            told: Vec::new(),
        };
        let mut out = Vec::new();
        play_classic(
            "1\n1\n".as_bytes(),
            screen(&mut out, &mut Vec::new()),
            true,
            &Display::Plain,
            &mut dealer,
            &mut opponent,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains('*'), "{text}");
        assert_eq!(opponent.told, [(1, false), (2, false)]);
    }

    #[test]
    fn the_tournament_computer_plays_from_a_hand_of_its_championship_deck() {
        let deck = Deck::championship();
        let play = |seed| {
            let mut o = DealtOpponent::new(seed, Deck::championship());
            let mut played = Vec::new();
            for round in 1..=60 {
                let before = o.hand().to_vec();
                let card = o.card(round).unwrap();
                assert!(before.contains(&card), "{card} not in {before:?}");
                assert_eq!(o.hand().len(), 5);
                played.push(card);
            }
            played
        };
        assert_eq!(play(4), play(4));
        assert_ne!(play(4), play(5));
        assert!(play(4).iter().all(|c| deck.entries().contains(c)));
        assert!(play(4).iter().any(|c| c.is_power()));
        assert!(matches!(
            computer(Ruleset::Classic, 4).card(1),
            Ok(c) if (2..=12).contains(&c.number())
        ));
    }

    #[test]
    fn the_header_names_the_rules_the_seed_and_the_opponent() {
        let t = header(Ruleset::Tournament, 7, false, "the computer");
        assert!(t.starts_with("CardJitsu, tournament rules: "), "{t}");
        assert!(
            t.contains("championship deck") && t.contains("Reverse"),
            "{t}"
        );
        assert!(t.ends_with("; seed 7; you against the computer"), "{t}");
        let c = header(Ruleset::Classic, 9, true, "sensei");
        assert!(
            c.contains("classic rules: ") && c.contains("no Reverse"),
            "{c}"
        );
        assert!(
            c.ends_with("; seed 9 (replay with --seed 9); you against sensei"),
            "{c}"
        );
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn a_bot_opponent_is_sent_the_reverse_mark_after_a_power_card_wins() {
        let (cards_tx, cards_rx) = mpsc::channel();
        let (results_tx, results_rx) = mpsc::channel();
        let mut dealer = dealer(Ruleset::Tournament, 5);
        let mut side = BotSide {
            hand: deal_hand(&mut dealer, 1).to_vec(),
            reverse: false,
            dealer,
            fallback: stream(5, 0),
            cards: cards_tx,
            results: results_rx,
            told: Vec::new(),
            farewell: None,
            refused: Default::default(),
        };
        let mut opponent = BotOpponent {
            cards: cards_rx,
            results: results_tx,
            rules: Ruleset::Tournament,
            name: "bot".into(),
            controls: Controls::default(),
            round: 0,
            last: None,
            stood_in: 0,
        };
        let hand_line = |side: &BotSide| side.prompts()[0].lines[0].clone();
        assert!(!hand_line(&side).starts_with('*'));
        // The game loop's answer is queued before the bot's side asks for
        // it: the channels do not block, so one thread plays both sides.
        assert_eq!(side.greeting(0), ["2"]);
        opponent.result(card("WoA"), card("Wb6"), 1, false).unwrap();
        side.apply(vec![Answer::Move(0)]);
        opponent.card(1).unwrap();
        // A process started now is told the round so far.
        assert_eq!(side.greeting(0), ["2", "WoA vs. Wb6: 1 wins!"]);
        assert_eq!(hand_line(&side), wire::hand_line(&side.hand, true));
        assert!(hand_line(&side).starts_with("* "));
        opponent.result(card("Fb4"), card("Sy6"), 1, false).unwrap();
        side.apply(vec![Answer::Move(0)]);
        opponent.card(2).unwrap();
        assert!(!hand_line(&side).starts_with('*'));
        // Under the classic rules a 10 is no power card.
        opponent.rules = Ruleset::Classic;
        opponent.result(card("WoA"), card("Wb6"), 1, false).unwrap();
        side.apply(vec![Answer::Move(0)]);
        assert!(!hand_line(&side).starts_with('*'));
    }

    #[test]
    fn a_timeouts_words_name_the_time_the_answer_had() {
        use std::time::Duration;
        let mut c = Controls {
            timeout: Duration::from_millis(300),
            startup: Duration::from_millis(500),
            ..Controls::default()
        };
        assert_eq!(
            time_allowed(&c, 1),
            "300 ms plus the 500 ms start-up allowance of a first answer"
        );
        assert_eq!(time_allowed(&c, 2), "300 ms");
        c.time = TimeMode::Cpu;
        c.overage = Duration::from_millis(900);
        c.game_budget = Some(Duration::from_millis(4000));
        assert_eq!(
            time_allowed(&c, 7),
            "300 ms of CPU time and what was left of its 900 ms overage bank, or its 4000 ms for the game ran out"
        );
        c.startup = Duration::ZERO;
        assert!(!time_allowed(&c, 1).contains("start-up"));
    }
}

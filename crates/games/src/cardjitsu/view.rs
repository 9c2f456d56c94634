//! What a CardJitsu replay page shows beside the record: each player's
//! won cards and where the winning triple sits in the winner's pile (the
//! rules decide that here, so the page's script only draws), and the
//! commands that play the game again.

use dojo_engine::cardjitsu::Pile;
use serde::Serialize;

use super::CardJitsuRecord;
use crate::view::{Commands, RecordSource};

/// One won card of a CardJitsu pile.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PileCard {
    /// The card's 3-character code (`FyA`).
    pub card: String,
    /// 0-based index of the round that won it.
    pub round: usize,
}

/// A CardJitsu record and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct CardJitsuView<'a> {
    pub record: &'a CardJitsuRecord,
    pub commands: Commands,
    /// Each player's won cards in the order they were won.
    pub piles: [Vec<PileCard>; 2],
    /// The winner's seat (0 or 1) and the positions of the winning triple
    /// in its pile, when the game was won by a triple.
    pub triple: Option<(usize, [usize; 3])>,
}

/// The replay page's title.
pub fn title(rec: &CardJitsuRecord) -> String {
    format!(
        "CardJitsu: {} vs {} (seed {})",
        rec.seats.first().map_or("?", |s| s.bot.as_str()),
        rec.seats.get(1).map_or("?", |s| s.bot.as_str()),
        rec.play.seed
    )
}

/// The page data of a CardJitsu record; its commands name seat `i`'s bot
/// by `bots[i]` ([`crate::view::seat_bot`]).
pub fn view<'a>(
    rec: &'a CardJitsuRecord,
    source: &RecordSource,
    bots: &[String],
) -> CardJitsuView<'a> {
    let mut piles = [Pile::default(), Pile::default()];
    let mut won: [Vec<PileCard>; 2] = [Vec::new(), Vec::new()];
    for (i, r) in rec.play.rounds.iter().enumerate() {
        if let Some(seat) = usize::from(r.winner).checked_sub(1).filter(|&s| s < 2) {
            piles[seat].push(r.cards[seat]);
            won[seat].push(PileCard {
                card: r.cards[seat].to_string(),
                round: i,
            });
        }
    }
    let triple = rec
        .play
        .outcome
        .as_ref()
        .and_then(|o| o.winner)
        .and_then(|n| usize::from(n).checked_sub(1).filter(|&s| s < 2))
        .and_then(|seat| piles[seat].winning_positions().map(|p| (seat, p)));
    CardJitsuView {
        record: rec,
        commands: commands(rec, source, bots),
        piles: won,
        triple,
    }
}

fn commands(rec: &CardJitsuRecord, source: &RecordSource, bots: &[String]) -> Commands {
    let mut play: Vec<String> = ["dojo", "match", "cardjitsu"].map(String::from).into();
    play.extend((rec.seats.iter().enumerate()).map(|(i, s)| crate::view::seat_bot(bots, i, s)));
    play.extend([
        "--seed".into(),
        rec.play.seed.to_string(),
        "--rules".into(),
        rec.play.rules.to_string(),
        "--max-rounds".into(),
        rec.play.max_rounds.to_string(),
    ]);
    for (i, deck) in rec.decks.iter().enumerate() {
        if !super::decks::is_default(deck, rec.play.rules) {
            play.extend([format!("--deck{}", i + 1), deck.clone()]);
        }
    }
    Commands::new(source, &play)
}

#[cfg(test)]
mod tests {
    use dojo_engine::cardjitsu::{self, CardJitsu};

    use super::*;
    use crate::formats::RECORD_VERSION;
    use crate::record::{SeatInfo, Timing};

    fn seat(i: usize, bot: &str) -> SeatInfo {
        SeatInfo {
            seat: i,
            bot: bot.into(),
            command: vec!["python3".into(), "bot.py".into()],
            team: None,
            dir: None,
            fingerprint: None,
        }
    }

    #[test]
    fn cardjitsu_view_finds_the_engines_triple_in_the_pile() {
        // Play until someone wins, always the first card.
        let mut game = CardJitsu::new(11, cardjitsu::Settings::default());
        while game.outcome().is_none() {
            game.play([0, 0]);
        }
        let rec = CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats: vec![seat(0, "a"), seat(1, "b b")],
            decks: ["standard".into(), "my deck.dcfg".into()],
            draws: [cardjitsu::Draw::WithReplacement; 2],
            play: game.into_record(),
            conduct: Vec::new(),
            stderr: Vec::new(),
            timing: Timing::default(),
        };
        let view = view(&rec, &RecordSource::File("g.json".into()), &[]);
        let outcome = rec.play.outcome.as_ref().unwrap();
        if let Some(cards) = outcome.winning_cards {
            let (seat, at) = view.triple.expect("a won game has a triple");
            assert_eq!(usize::from(outcome.winner.unwrap()), seat + 1);
            let shown: Vec<String> = at
                .iter()
                .map(|&i| view.piles[seat][i].card.clone())
                .collect();
            assert_eq!(shown, cards.map(|c| c.to_string()));
        }
        let won: usize = rec.play.rounds.iter().filter(|r| r.winner != 0).count();
        assert_eq!(view.piles[0].len() + view.piles[1].len(), won);
        assert_eq!(
            view.commands.rerun.as_deref(),
            Some("dojo replay g.json --rerun")
        );
        assert!(
            view.commands
                .play
                .starts_with("dojo match cardjitsu a 'b b' --seed 11")
        );
        // The standard deck is not the tournament rules' default: named.
        assert!(
            view.commands
                .play
                .ends_with("--deck1 standard --deck2 'my deck.dcfg'"),
            "{}",
            view.commands.play
        );
    }
}

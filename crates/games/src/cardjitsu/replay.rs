//! A saved CardJitsu game again: checking it on load, the setup that plays
//! it again (its seed, rules, round cap and decks read again), and where a
//! rerun parts from it (the first differing round).

use std::sync::Arc;

use dojo_engine::cardjitsu::{self, Deck};
use dojo_engine::protocol::Answer;
use dojo_runner::{BotSpec, RunOptions};

use super::decks::DeckLoadError;
use super::{CardJitsuRecord, CardJitsuSetup, play_cardjitsu};
use crate::game::Game;
use crate::record::SeatInfo;
use crate::registry::{ReplayView, Saved, same_record};
use crate::replay::{Difference, ReplayError, Rerun, SavedGame, check_seats, difference};
use crate::view::RecordSource;

/// Everything shown or replayed from a CardJitsu record follows from it:
/// two seats, rounds that agree with the rules, and deals that are the
/// ones its seed and settings give ([`check_deals`]).
pub fn check(rec: &CardJitsuRecord) -> Result<(), String> {
    check_seats(&rec.seats, rec.conduct.len(), rec.stderr.len(), 2)?;
    rec.play.verify().map_err(|c| c.to_string())?;
    check_deals(rec)
}

/// Plays the record's choices again from its seed, rules, round cap and
/// decks: every hand must be the one dealt, and every card played after a
/// fault the one the seat's fallback stream picks. A record whose seed or
/// settings were edited fails here, naming the first round that differs,
/// instead of replaying as a game that never happened (and a rerun then
/// blaming the bots). A deck file that can no longer be read is not
/// checked here (a rerun needs it and says so).
pub fn check_deals(rec: &CardJitsuRecord) -> Result<(), String> {
    let Ok(setup) = setup(rec) else {
        return Ok(());
    };
    for (seat, deck) in setup.settings.decks.iter().enumerate() {
        if deck.draw() != rec.draws[seat] {
            return Err(format!(
                "draws: player {}'s deck {} is drawn {}, the record says {}",
                seat + 1,
                rec.decks[seat],
                deck.draw(),
                rec.draws[seat]
            ));
        }
    }
    let mut game = cardjitsu::CardJitsu::new(setup.seed, setup.settings);
    let show = |cards: &[cardjitsu::Card]| {
        cards
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    for r in &rec.play.rounds {
        for seat in 0..2 {
            if game.hand(seat) != &r.hands[seat][..] {
                return Err(format!(
                    "round {}: player {} holds {}, but seed {} with these settings deals {}",
                    r.round,
                    seat + 1,
                    show(&r.hands[seat]),
                    rec.play.seed,
                    show(game.hand(seat))
                ));
            }
        }
        let answers = [0, 1].map(|seat| match r.faults[seat] {
            Some(fault) => Answer::Fault(fault),
            None => Answer::Move(r.choices[seat]),
        });
        let Some(played) = game.play_round(answers) else {
            return Err(format!(
                "round {}: the game dealt by seed {} was already over",
                r.round, rec.play.seed
            ));
        };
        if let Some(seat) = (0..2).find(|&s| played.choices[s] != r.choices[s]) {
            return Err(format!(
                "round {}: player {}'s card after its fault is card {}, but seed {} picks card {}",
                r.round,
                seat + 1,
                r.choices[seat],
                rec.play.seed,
                played.choices[seat]
            ));
        }
    }
    Ok(())
}

/// A recorded deck read again: a named deck, or a DeckConfig file
/// ([`super::decks::load`]).
/// What CardJitsu's replay finds wrong with a record beyond its shape
/// (a [`ReplayError::Game`]).
#[derive(Debug, thiserror::Error)]
pub enum CardJitsuReplayError {
    /// A record or rerun without exactly two seats.
    #[error("a CardJitsu record needs 2 seats, this one has {0}")]
    SeatCount(usize),
    /// A recorded deck file could not be read again.
    #[error("re-reading a recorded deck: cannot read {}", path.display())]
    DeckRead {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

pub fn recorded_deck(name: &str) -> Result<Deck, ReplayError> {
    super::decks::load(name).map_err(|e| match e {
        DeckLoadError::Read { path, source } => {
            ReplayError::game(CardJitsuReplayError::DeckRead { path, source })
        }
        DeckLoadError::NotFound { path } => ReplayError::game(CardJitsuReplayError::DeckRead {
            path,
            source: std::io::ErrorKind::NotFound.into(),
        }),
        DeckLoadError::Deck(e) => ReplayError::game(e),
    })
}

/// The setup that plays a CardJitsu record's game again: its seed, rules,
/// round cap and re-read decks.
pub fn setup(rec: &CardJitsuRecord) -> Result<CardJitsuSetup, ReplayError> {
    if rec.seats.len() != 2 {
        return Err(ReplayError::game(CardJitsuReplayError::SeatCount(
            rec.seats.len(),
        )));
    }
    Ok(CardJitsuSetup {
        seed: rec.play.seed,
        settings: cardjitsu::Settings {
            rules: rec.play.rules,
            max_rounds: rec.play.max_rounds,
            decks: [recorded_deck(&rec.decks[0])?, recorded_deck(&rec.decks[1])?],
        },
        deck_names: rec.decks.clone(),
    })
}

/// The record's game made ready to play again ([`setup`]): the two
/// seats' bots in seat order (resolved and built) play it.
pub fn rerun(rec: &CardJitsuRecord) -> Result<Rerun, ReplayError> {
    let setup = setup(rec)?;
    Ok(Rerun::new(
        Vec::new(),
        move |bots: Vec<Arc<BotSpec>>, opts: &RunOptions| {
            let count = bots.len();
            let bots: [Arc<BotSpec>; 2] = bots
                .try_into()
                .map_err(|_| ReplayError::game(CardJitsuReplayError::SeatCount(count)))?;
            let rec = play_cardjitsu(bots, &setup, opts, &mut |_| {}).map_err(ReplayError::game)?;
            Ok(Saved::new(Box::new(rec)))
        },
    ))
}

/// The 0-based index of the first round where two CardJitsu records part.
pub fn first_difference(saved: &CardJitsuRecord, rerun: &CardJitsuRecord) -> Option<usize> {
    crate::replay::first_differing(&saved.play.rounds, &rerun.play.rounds)
}

/// How a CardJitsu rerun differs from the saved game; `None` when it is
/// the same game (timing and stderr aside).
pub fn compare(
    saved: &CardJitsuRecord,
    rerun: &CardJitsuRecord,
) -> Result<Option<Difference>, ReplayError> {
    difference(saved, rerun, first_difference(saved, rerun))
}

impl SavedGame for CardJitsuRecord {
    fn game(&self) -> Game {
        Game::CARDJITSU
    }

    fn compare(&self, rerun: &dyn SavedGame) -> Result<Option<Difference>, ReplayError> {
        compare(self, same_record(self, rerun)?)
    }

    fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    fn check(&self) -> Result<(), String> {
        check(self)
    }

    fn title(&self) -> String {
        super::view::title(self)
    }

    fn view(&self, source: &RecordSource, bots: &[String]) -> Result<ReplayView, ReplayError> {
        ReplayView::new(&super::view::view(self, source, bots))
    }

    fn moment(&self) -> &'static str {
        "round"
    }

    fn answers(&self, step: usize) -> Vec<(usize, String)> {
        let Some(r) = self.play.rounds.get(step) else {
            return Vec::new();
        };
        (0..2)
            .map(|seat| {
                let card = r.cards[seat];
                let words = match r.faults[seat] {
                    // The fallback's card is dojo's, not the bot's answer.
                    Some(fault) => format!(
                        "{} (a random card, {card}, was played for it)",
                        crate::determinism::fault_words(fault)
                    ),
                    None => format!("`{}` (the card {card})", r.choices[seat]),
                };
                (seat, words)
            })
            .collect()
    }

    fn rerun(&self) -> Result<Rerun, ReplayError> {
        rerun(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use dojo_engine::cardjitsu::CardJitsu;

    use super::*;
    use crate::formats::RECORD_VERSION;
    use crate::replay::test_seats;

    pub(crate) fn record(seed: u64) -> CardJitsuRecord {
        let mut game = CardJitsu::new(seed, cardjitsu::Settings::default());
        for _ in 0..4 {
            game.play([0, 1]);
        }
        let (seats, conduct) = test_seats(2);
        CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats,
            decks: super::super::decks::default_names(cardjitsu::Ruleset::default()),
            draws: [cardjitsu::Draw::WithoutReplacement; 2],
            play: game.into_record(),
            conduct,
            stderr: Vec::new(),
            timing: Default::default(),
        }
    }

    #[test]
    fn comparison_ignores_timing_and_stderr_and_finds_the_first_round() {
        let saved = record(3);
        let mut same = saved.clone();
        same.timing.wall_ms = 12.0;
        same.stderr = vec![vec!["hi".into()]];
        assert_eq!(compare(&saved, &same).unwrap(), None);

        let mut later = saved.clone();
        later.play.rounds.truncate(2);
        assert_eq!(first_difference(&saved, &later), Some(2));
        assert_eq!(compare(&saved, &later).unwrap(), Some(Difference::At(2)));

        let mut decks = saved.clone();
        decks.decks[1] = "mine.dcfg".into();
        let Some(Difference::Fields(fields)) = compare(&saved, &decks).unwrap() else {
            panic!("the decks differ");
        };
        assert_eq!(fields.len(), 1);
        assert_eq!(fields[0].field, "decks");
        assert_eq!(fields[0].rerun.as_ref().unwrap()[1], "mine.dcfg");
    }

    /// A game played on the standard deck with every field a record has
    /// held since version 1, as a version 2 record wrote it (no `draws`).
    fn version_2_json(seed: u64) -> serde_json::Value {
        let standard = cardjitsu::Deck::standard();
        let mut game = CardJitsu::new(
            seed,
            cardjitsu::Settings {
                decks: [standard.clone(), standard],
                ..Default::default()
            },
        );
        for i in 0..6 {
            game.play([i % 5, (i + 1) % 5]);
        }
        let mut rec = record(seed);
        rec.play = game.into_record();
        rec.decks = ["standard".into(), "standard".into()];
        let mut json = serde_json::to_value(&rec).unwrap();
        json["version"] = 2.into();
        json.as_object_mut().unwrap().remove("draws");
        json
    }

    #[test]
    fn a_version_2_record_reads_as_drawn_with_replacement_and_checks_out() {
        let old: CardJitsuRecord = serde_json::from_value(version_2_json(4)).unwrap();
        assert_eq!(old.draws, [cardjitsu::Draw::WithReplacement; 2]);
        assert_eq!(check(&old), Ok(()));
        // The current record of the same game says so in `draws`.
        let now = serde_json::to_value(&old).unwrap();
        assert_eq!(
            now["draws"],
            serde_json::json!(["with-replacement", "with-replacement"])
        );
    }

    #[test]
    fn each_field_of_a_corrupt_record_is_named_in_the_check() {
        let rec = record(5);
        assert_eq!(check(&rec), Ok(()));
        let refused = |edit: &dyn Fn(&mut CardJitsuRecord)| {
            let mut bad = rec.clone();
            edit(&mut bad);
            check(&bad).unwrap_err()
        };
        assert_eq!(
            refused(&|r| r.draws[1] = cardjitsu::Draw::WithReplacement),
            "draws: player 2's deck championship is drawn without replacement, the record says \
             with replacement"
        );
        let err = refused(&|r| r.decks[0] = "standard".into());
        assert!(err.starts_with("draws: player 1's deck standard"), "{err}");
        let err = refused(&|r| r.play.seed += 1);
        assert!(err.starts_with("round 1: player 1 holds "), "{err}");
        let err = refused(&|r| r.play.rounds[1].winner = 3);
        assert!(err.starts_with("round 2: "), "{err}");
        let err = refused(&|r| r.play.rounds[2].reverse = !r.play.rounds[2].reverse);
        assert!(
            err.starts_with("round 3: the record says Reverse is "),
            "{err}"
        );
        let err = refused(&|r| r.play.rounds[0].choices[0] = (r.play.rounds[0].choices[0] + 1) % 5);
        assert!(err.starts_with("round 1: player 1 played "), "{err}");
        // Whether or not these four rounds ended the game, claiming the
        // other is named as the outcome that differs.
        let err = refused(&|r| {
            r.play.outcome = match r.play.outcome {
                Some(_) => None,
                None => Some(cardjitsu::Outcome {
                    winner: Some(1),
                    reason: cardjitsu::OutcomeReason::Triple,
                    rounds: 4,
                    winning_cards: None,
                }),
            }
        });
        assert!(
            err.starts_with("the outcome: outcome: the record says "),
            "{err}"
        );
        let err = refused(&|r| {
            r.conduct.pop();
        });
        assert!(err.contains("conduct"), "{err}");
    }

    #[test]
    fn cardjitsu_setup_needs_two_seats() {
        let mut rec = record(3);
        rec.seats.truncate(1);
        let seat_count = |r: Result<_, ReplayError>| match r {
            Err(ReplayError::Game(e)) => e
                .downcast_ref::<CardJitsuReplayError>()
                .map(|e| matches!(e, CardJitsuReplayError::SeatCount(1))),
            _ => None,
        };
        assert_eq!(seat_count(setup(&rec).map(|_| ())), Some(true));
        assert_eq!(seat_count(rerun(&rec).map(|_| ())), Some(true));
    }
}

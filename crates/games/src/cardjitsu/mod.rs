//! CardJitsu: its setup, one game played by bot processes, its record.
//!
//! A saved game again (checking, rerun, first difference) is [`replay`];
//! what its replay page shows, [`view`].

pub mod decks;
pub mod replay;
pub mod view;

use std::sync::Arc;
use std::time::Instant;

use dojo_engine::cardjitsu::{self, CardJitsu};
use dojo_runner::{BotSpec, RunError, RunOptions, Seat};
use serde::{Deserialize, Serialize};

use crate::bots::{BotExecutor, Table, game_result, run_error};
use crate::formats::RECORD_VERSION;
use crate::game::{GameDef, Shape, SmokeRun};
use crate::outcome::{ExecError, GameResult};
use crate::parse::{RecordInput, RecordText};
use crate::record::{
    PlacedFault, SeatConduct, SeatInfo, Timing, conduct_and_timing, seat_env, seat_info,
};
use crate::registry::{NotARecord, Saved};

/// A played CardJitsu game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardJitsuRecord {
    pub version: u32,
    /// Always `"cardjitsu"`.
    pub game: String,
    pub seats: Vec<SeatInfo>,
    /// Where each seat's deck came from: a named deck (`championship`,
    /// `standard`) or a file path (see [`decks`]).
    pub decks: [String; 2],
    /// How each seat's deck was drawn. Absent in records from before decks
    /// could be drawn without replacement: with replacement, as all were.
    #[serde(default)]
    pub draws: [cardjitsu::Draw; 2],
    #[serde(flatten)]
    pub play: cardjitsu::GameRecord,
    pub conduct: Vec<SeatConduct>,
    /// Per seat, per prompt: what the bot wrote to stderr (see
    /// `dojo_runner::SeatRun::stderr_by_prompt`). Only kept on request
    /// (`dojo match --keep-stderr`), and omitted when no seat wrote
    /// anything, so records without it are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Vec<String>>,
    /// Optional on reading (absent or `null`: none recorded): timings are
    /// the part of a game that is not deterministic.
    #[serde(default, deserialize_with = "crate::record::optional_timing")]
    pub timing: Timing,
}

impl CardJitsuRecord {
    /// Per seat: 1 win, 0.5 draw, 0 loss (a draw until the game is over).
    pub fn scores(&self) -> Vec<f64> {
        (0..2)
            .map(|s| self.play.outcome.as_ref().map_or(0.5, |o| o.score(s)))
            .collect()
    }

    /// The faults of seat `seat` the rounds record, in order; every
    /// round prompts both seats, so its prompt is the round's place.
    pub fn seat_faults(&self, seat: usize) -> impl Iterator<Item = PlacedFault> + '_ {
        (self.play.rounds.iter().enumerate()).filter_map(move |(prompt, r)| {
            Some(PlacedFault {
                round: r.round,
                prompt,
                fault: r.faults.get(seat).copied().flatten()?,
            })
        })
    }

    /// Per seat: its first fault with its stderr's tail
    /// ([`crate::record::FirstFault`]), `None` for a seat without faults.
    pub fn first_faults(&self) -> Vec<Option<crate::record::FirstFault>> {
        first_faults(&self.conduct, &self.stderr, |seat| self.seat_faults(seat))
    }
}

/// Per seat of `conduct`: its first fault, from its faults in the
/// rounds (`placed`) and its `stderr`.
pub(crate) fn first_faults<I: IntoIterator<Item = PlacedFault>>(
    conduct: &[SeatConduct],
    stderr: &[Vec<String>],
    placed: impl Fn(usize) -> I,
) -> Vec<Option<crate::record::FirstFault>> {
    conduct
        .iter()
        .enumerate()
        .map(|(seat, c)| {
            crate::record::FirstFault::of(
                placed(seat),
                c,
                stderr.get(seat).map_or(&[], Vec::as_slice),
            )
        })
        .collect()
}

/// Everything that fixes a CardJitsu game apart from the bots.
#[derive(Debug, Clone)]
pub struct CardJitsuSetup {
    pub seed: u64,
    pub settings: cardjitsu::Settings,
    /// Names of the decks in `settings`, for the record.
    pub deck_names: [String; 2],
}

impl CardJitsuSetup {
    /// The game of `seed` under `options`.
    pub fn new(seed: u64, options: CardJitsuOptions) -> CardJitsuSetup {
        CardJitsuSetup {
            seed,
            settings: options.settings,
            deck_names: options.deck_names,
        }
    }
}

/// CardJitsu's options in a league or comparison (its
/// [`crate::GameOptions`]): the settings and the decks' names for the
/// records.
#[derive(Debug, Clone)]
pub struct CardJitsuOptions {
    pub settings: cardjitsu::Settings,
    /// Names of the decks in `settings`, for the records.
    pub deck_names: [String; 2],
}

impl CardJitsuOptions {
    /// `rules` with its default decks and round cap.
    pub fn of_rules(rules: cardjitsu::Ruleset) -> CardJitsuOptions {
        CardJitsuOptions {
            settings: cardjitsu::Settings::of_rules(rules),
            deck_names: decks::default_names(rules),
        }
    }
}

/// The tournament rules with the championship's deck.
impl Default for CardJitsuOptions {
    fn default() -> CardJitsuOptions {
        CardJitsuOptions::of_rules(cardjitsu::Ruleset::default())
    }
}

/// Plays one CardJitsu game; `observer` sees the game after every round.
pub fn play_cardjitsu(
    bots: [Arc<BotSpec>; 2],
    setup: &CardJitsuSetup,
    opts: &RunOptions,
    observer: &mut dyn FnMut(&CardJitsu),
) -> Result<CardJitsuRecord, RunError> {
    let started = Instant::now();
    let mut game = CardJitsu::new(setup.seed, setup.settings.clone());
    let seats: Vec<Seat> = bots
        .iter()
        .enumerate()
        .map(|(i, bot)| Seat {
            bot: Arc::clone(bot),
            env: seat_env("cardjitsu", setup.seed, i),
        })
        .collect();
    let run = dojo_runner::play_with_observer(&mut game, &seats, opts, observer)?;
    let (conduct, stderr, timing) = conduct_and_timing(run, started);
    Ok(CardJitsuRecord {
        version: RECORD_VERSION,
        game: "cardjitsu".into(),
        seats: bots
            .iter()
            .enumerate()
            .map(|(i, b)| seat_info(i, b, None))
            .collect(),
        decks: setup.deck_names.clone(),
        draws: setup.settings.decks.each_ref().map(cardjitsu::Deck::draw),
        play: game.into_record(),
        conduct,
        stderr,
        timing,
    })
}

/// CardJitsu's [`GameDef`]: two seats, one a side, no board.
#[derive(Debug, Clone, Copy)]
pub struct CardJitsuGame;

impl GameDef for CardJitsuGame {
    fn name(&self) -> &'static str {
        "cardjitsu"
    }

    fn title(&self) -> &'static str {
        "CardJitsu"
    }

    fn shape(&self) -> Shape {
        Shape {
            sides: &[0, 1],
            roles: &[],
            board: false,
        }
    }

    fn play(&self, exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
        play_table(exec, table)
    }

    fn smoke(
        &self,
        bot: &Arc<BotSpec>,
        _board: Option<&str>,
        opts: &RunOptions,
    ) -> Result<Option<SmokeRun>, String> {
        let rec = smoke(bot, opts)?;
        Ok(Some((rec.conduct, rec.stderr)))
    }

    fn parse_record(&self, input: &RecordText<'_>) -> Result<Saved, NotARecord> {
        let rec: Box<CardJitsuRecord> = input.typed().map_err(|source| NotARecord {
            kind: "CardJitsu",
            source,
        })?;
        Ok(Saved::new(rec))
    }
}

/// Plays `table` with `exec`'s bots: its `GameDef::play`.
pub(crate) fn play_table(exec: &BotExecutor, table: &Table<'_>) -> Result<GameResult, ExecError> {
    let [a, b] = table.seats else {
        return Err(ExecError::Failed(format!(
            "a CardJitsu game needs 2 seats, game {} has {}",
            table.id,
            table.seats.len()
        )));
    };
    let setup = CardJitsuSetup::new(table.seed, exec.options.or_default()?);
    let record = play_cardjitsu([exec.bot(a)?, exec.bot(b)?], &setup, &exec.run, &mut |_| {})
        .map_err(run_error)?;
    game_result(
        record.scores(),
        &record.conduct,
        &record.timing.latency_us,
        record.first_faults(),
        &record,
    )
}

/// The smoke start's game: `bot` against itself for one round.
pub(crate) fn smoke(bot: &Arc<BotSpec>, opts: &RunOptions) -> Result<CardJitsuRecord, String> {
    let mut setup = CardJitsuSetup::new(1, CardJitsuOptions::default());
    setup.settings.max_rounds = 1;
    play_cardjitsu(
        [Arc::clone(bot), Arc::clone(bot)],
        &setup,
        opts,
        &mut |_| {},
    )
    .map_err(crate::smoke::unplayed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::RECORD_VERSION;
    use crate::record::Timing;

    fn record(stderr: Vec<Vec<String>>) -> CardJitsuRecord {
        let mut game = CardJitsu::new(3, cardjitsu::Settings::default());
        game.play([0, 0]);
        CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats: Vec::new(),
            decks: decks::default_names(cardjitsu::Ruleset::default()),
            draws: [cardjitsu::Draw::WithoutReplacement; 2],
            play: game.into_record(),
            conduct: Vec::new(),
            stderr,
            timing: Timing::default(),
        }
    }

    #[test]
    fn stderr_is_omitted_when_empty_and_round_trips_when_kept() {
        let plain = serde_json::to_value(record(Vec::new())).unwrap();
        assert!(plain.get("stderr").is_none());
        let back: CardJitsuRecord = serde_json::from_value(plain).unwrap();
        assert!(back.stderr.is_empty());

        let kept = record(vec![vec!["hi\n".into()], vec![String::new()]]);
        let value = serde_json::to_value(&kept).unwrap();
        assert_eq!(value["stderr"][0][0], "hi\n");
        assert_eq!(
            serde_json::from_value::<CardJitsuRecord>(value).unwrap(),
            kept
        );
    }
}

//! What a royale replay page shows beside the record: the board's size,
//! the tiles of each team after every turn (the board rebuilt from the
//! recorded effects, so the page's script only draws), where each turn's
//! latency and stderr are kept, and the commands that play the game again.

use dojo_engine::royale::{Effect, Tile};
use serde::Serialize;

use super::RoyaleRecord;
use super::rebuild::{RoyaleReplay, prompt_indices};
use crate::replay::ReplayError;
use crate::view::{Commands, RecordSource};

/// A royale record and what its page shows beside it.
#[derive(Debug, Serialize)]
pub struct RoyaleView<'a> {
    pub record: &'a RoyaleRecord,
    pub commands: Commands,
    pub width: usize,
    pub height: usize,
    /// Rock, paper and scissors tiles before any turn (`counts[0]`) and
    /// after each turn (`counts[i]` after turn `i`).
    pub counts: Vec<[u32; 3]>,
    /// For each turn, the index of its seat's prompt (where its latency
    /// and stderr are kept).
    pub prompts: Vec<usize>,
}

/// The replay page's title.
pub fn title(rec: &RoyaleRecord) -> String {
    format!("Royale on {} (seed {})", rec.board_file, rec.play.seed)
}

/// The page data of a royale record: the board is rebuilt turn by turn
/// from the recorded effects to count the tiles after every turn.
pub fn view<'a>(
    rec: &'a RoyaleRecord,
    source: &RecordSource,
    bots: &[String],
) -> Result<RoyaleView<'a>, ReplayError> {
    let state = RoyaleReplay::new(rec)?;
    let c = state.board.counts();
    let mut now = [c.rock, c.paper, c.scissors].map(|n| n as u32);
    let mut counts = Vec::with_capacity(rec.play.actions.len() + 1);
    counts.push(now);
    let slot = |t: Tile| match t {
        Tile::Rock => Some(0),
        Tile::Paper => Some(1),
        Tile::Scissors => Some(2),
        Tile::Wall | Tile::Empty => None,
    };
    for a in &rec.play.actions {
        if let Effect::Converted { from, to, .. } = a.effect {
            if let Some(i) = slot(from) {
                now[i] = now[i].saturating_sub(1);
            }
            if let Some(i) = slot(to) {
                now[i] += 1;
            }
        }
        counts.push(now);
    }
    Ok(RoyaleView {
        record: rec,
        commands: commands(rec, source, bots),
        width: state.board.width(),
        height: state.board.height(),
        counts,
        prompts: prompt_indices(&rec.play.actions),
    })
}

fn commands(rec: &RoyaleRecord, source: &RecordSource, bots: &[String]) -> Commands {
    let mut play: Vec<String> = ["dojo", "match", "royale", "--board"]
        .map(String::from)
        .into();
    play.push(rec.board_file.clone());
    for (flag, team) in [("--rock", 'R'), ("--paper", 'P'), ("--scissors", 'S')] {
        let on_team: Vec<String> = (rec.seats.iter().enumerate())
            .filter(|(_, s)| s.team.as_ref().map(|t| t.to_string()) == Some(team.to_string()))
            .map(|(i, s)| crate::view::seat_bot(bots, i, s))
            .collect();
        play.extend([flag.to_owned(), on_team.join(",")]);
    }
    play.extend([
        "--seed".into(),
        rec.play.seed.to_string(),
        "--max-rounds".into(),
        rec.play.settings.max_rounds.to_string(),
        "--stall-rounds".into(),
        rec.play.settings.stall_rounds.to_string(),
    ]);
    Commands::new(source, &play)
}

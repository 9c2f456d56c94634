//! CardJitsu as text: the round-by-round transcript and the result.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use dojo_engine::cardjitsu::{Card, OutcomeReason, Pile};
use dojo_games::{CardJitsuRecord, SeatInfo};
use dojo_league::verdict::Verdict;

use crate::flags::ReplayArgs;
use crate::render::{ReplayText, no_stderr_note, stderr_beside};

fn cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// How a seat is named beside its times and faults: `player 1 (sensei)`.
pub fn player(s: &SeatInfo) -> String {
    format!("player {} ({})", s.seat + 1, s.bot)
}

/// The header line naming the seats, rules and seed.
pub fn header(rec: &CardJitsuRecord) -> String {
    format!(
        "CardJitsu ({} rules, seed {}): player 1 = {}, player 2 = {}",
        rec.play.rules, rec.play.seed, rec.seats[0].bot, rec.seats[1].bot
    )
}

/// One block per round: both hands (with the played card marked), the
/// Reverse marker, faults, the result line and both won piles after it.
pub fn transcript(rec: &CardJitsuRecord) -> String {
    rounds(rec).concat()
}

/// The blocks of [`transcript`], one per round, in order (for showing one
/// round, or something beside each).
pub fn rounds(rec: &CardJitsuRecord) -> Vec<String> {
    let mut blocks = Vec::with_capacity(rec.play.rounds.len());
    let mut piles = [Pile::default(), Pile::default()];
    for r in &rec.play.rounds {
        let mut out = String::new();
        let marker = if r.reverse { " * Reverse" } else { "" };
        let _ = writeln!(out, "round {}{marker}", r.round);
        for seat in 0..2 {
            let hand: Vec<String> = r.hands[seat]
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i == r.choices[seat] {
                        format!("[{c}]")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let fault = r.faults[seat]
                .map(|f| format!("  ({f:?} fault: random card)").to_lowercase())
                .unwrap_or_default();
            let _ = writeln!(out, "  P{} hand {}{fault}", seat + 1, hand.join(" "));
        }
        if r.winner != 0 {
            let w = usize::from(r.winner - 1);
            piles[w].push(r.cards[w]);
        }
        // The wire line says `0 wins!` for a stalemate (the protocol's
        // words); a person reads "stalemate".
        let result = if r.winner == 0 {
            format!("{} vs. {}: stalemate", r.cards[0], r.cards[1])
        } else {
            r.result_line()
        };
        let _ = writeln!(out, "  {result}");
        let _ = writeln!(
            out,
            "  piles  P1 [{}]  P2 [{}]",
            cards(piles[0].cards()),
            cards(piles[1].cards())
        );
        blocks.push(out);
    }
    blocks
}

/// The result in one line, e.g. `player 1 (sensei) wins in 12 rounds with WoA,Fb3,SgA`.
pub fn result(rec: &CardJitsuRecord) -> String {
    match &rec.play.outcome {
        None => "unfinished".to_owned(),
        Some(o) => match (o.winner, o.reason) {
            (Some(n), _) => {
                let with = o
                    .winning_cards
                    .map(|c| format!(" with {}", cards(&c)))
                    .unwrap_or_default();
                format!(
                    "player {n} ({}) wins in {}{with}",
                    rec.seats[usize::from(n) - 1].bot,
                    rounds_text(o.rounds)
                )
            }
            (None, OutcomeReason::RoundCap) => {
                format!("draw: nobody won in {}", rounds_text(o.rounds))
            }
            (None, OutcomeReason::Triple) => format!("draw after {}", rounds_text(o.rounds)),
        },
    }
}

/// `1 round`, `7 rounds`.
fn rounds_text(n: u32) -> String {
    if n == 1 {
        "1 round".to_owned()
    } else {
        format!("{n} rounds")
    }
}

/// One line per seat with fault counts, only for seats that had any.
pub fn conduct(rec: &CardJitsuRecord) -> Vec<String> {
    crate::render::conduct_lines(&rec.seats, &rec.conduct, &rec.timing.latency_us)
}

/// For each seat that faulted: why, where first, and the end of its
/// stderr (see [`crate::render::fault_forensics`]).
pub fn forensics(rec: &CardJitsuRecord) -> Vec<String> {
    rec.seats
        .iter()
        .zip(&rec.conduct)
        .filter(|(_, c)| c.faults.total() > 0)
        .flat_map(|(s, c)| {
            let first = rec.seat_faults(s.seat).next().map(|p| {
                (
                    p.round,
                    dojo_games::record::FaultKind::from(p.fault)
                        .word()
                        .to_owned(),
                )
            });
            crate::render::fault_forensics(&crate::render::SeatFault {
                label: player(s),
                conduct: c,
                prompts: rec.timing.latency_us.get(s.seat).map_or(0, Vec::len),
                first,
                stderr: rec.stderr.get(s.seat).map_or(&[], Vec::as_slice),
            })
        })
        .collect()
}

/// The CardJitsu transcript, as `dojo match` prints it; with `turn`, only
/// that round; with `stderr`, each bot's stderr under its round.
/// `forfeit`: the league's result when a forfeit decided the game.
pub fn replayed(
    rec: &CardJitsuRecord,
    turn: Option<usize>,
    stderr: bool,
    forfeit: Option<&Verdict>,
) -> Result<String> {
    let blocks = rounds(rec);
    let beside = |i: usize| {
        if !stderr {
            return String::new();
        }
        (0..2)
            .map(|seat| stderr_beside(&rec.stderr, seat, i, &format!("P{}", seat + 1)))
            .collect()
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(rec));
    if let Some(n) = turn {
        let block = n
            .checked_sub(1)
            .and_then(|i| blocks.get(i))
            .with_context(|| format!("no round {n}: the game has rounds 1 to {}", blocks.len()))?;
        out.push_str(block);
        out.push_str(&beside(n - 1));
        return Ok(out);
    }
    if stderr && rec.stderr.is_empty() {
        no_stderr_note();
    }
    for (i, block) in blocks.iter().enumerate() {
        out.push_str(block);
        out.push_str(&beside(i));
    }
    out.push_str(&crate::render::result_lines(&result(rec), forfeit));
    for line in conduct(rec) {
        let _ = writeln!(out, "faults: {line}");
    }
    Ok(out)
}

impl ReplayText for CardJitsuRecord {
    fn show(&self, a: &ReplayArgs, forfeit: Option<&Verdict>) -> Result<()> {
        if a.watch {
            bail!(
                "--watch only applies to royale records; {} holds a CardJitsu game",
                a.record.display()
            );
        }
        out!("{}", replayed(self, a.turn, a.stderr, forfeit)?);
        Ok(())
    }

    fn rerun_header(&self) -> String {
        header(self)
    }

    fn show_moment(&self, i: usize) -> String {
        rounds(self).get(i).cloned().unwrap_or_else(|| {
            format!(
                "  (no round {}: the game ended after {} rounds)\n",
                i + 1,
                self.play.rounds.len()
            )
        })
    }

    fn times(&self) -> Vec<String> {
        crate::render::move_lines(&self.seats, &self.timing, player, &[])
    }
}

#[cfg(test)]
mod tests {
    use dojo_engine::cardjitsu::{self, CardJitsu};
    use dojo_games::{CardJitsuRecord, RECORD_VERSION, Timing};

    use super::*;

    #[test]
    fn a_stalemate_reads_as_a_stalemate() {
        // The first seed whose first round, both playing card 0, is a stalemate.
        let (game, _) = (0..10_000)
            .map(|seed| {
                let mut g = CardJitsu::new(seed, cardjitsu::Settings::default());
                let w = g.play([0, 0]).map(|r| r.winner);
                (g, w)
            })
            .find(|(_, w)| *w == Some(0))
            .expect("some seed starts with a stalemate");
        let rec = CardJitsuRecord {
            version: RECORD_VERSION,
            game: "cardjitsu".into(),
            seats: Vec::new(),
            decks: dojo_games::cardjitsu::decks::default_names(Default::default()),
            draws: [dojo_engine::cardjitsu::Draw::WithoutReplacement; 2],
            play: game.into_record(),
            conduct: Vec::new(),
            stderr: Vec::new(),
            timing: Timing::default(),
        };
        let text = transcript(&rec);
        assert!(text.contains(": stalemate\n"), "{text}");
        assert!(!text.contains("0 wins!"), "{text}");
    }
}

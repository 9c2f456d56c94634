//! `dojo rules`: the Skat bid value of a hand and the legality of a Tichu
//! play, from the engine's rule books. One case from the arguments, or
//! one per line from stdin with `--batch`.

use std::io::{self, BufRead};
use std::process::ExitCode;

use dojo_engine::{skat, tichu};

use crate::args::{RulesCommand, SkatRulesArgs, TichuRulesArgs};

/// A Tichu play is illegal (single case): a negative answer.
const EXIT_ILLEGAL: u8 = crate::exit::NEGATIVE;
/// A malformed hand, play or input line: bad input, never a verdict.
const EXIT_MALFORMED: u8 = crate::exit::ERROR;

/// Runs `dojo rules ...`; errors are printed here and give status 3.
pub fn run(command: RulesCommand) -> ExitCode {
    let outcome = match command {
        RulesCommand::Skat(a) => skat_cmd(&a),
        RulesCommand::Tichu(a) => tichu_cmd(&a),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            errln!("error: {message}");
            ExitCode::from(EXIT_MALFORMED)
        }
    }
}

fn skat_cmd(a: &SkatRulesArgs) -> Result<ExitCode, String> {
    let answer = |words: &mut dyn Iterator<Item = &str>| {
        let hand = skat::Hand::parse(words).map_err(|e| e.to_string())?;
        let bid = skat::bid(&hand);
        Ok(if a.why {
            format!("{bid}: {}", bid.why())
        } else {
            bid.to_string()
        })
    };
    if a.batch {
        batch(|line| answer(&mut line.split_whitespace()))?;
    } else {
        let line = answer(&mut a.cards.iter().map(String::as_str))?;
        print_line(&line)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads both plays (naming the one that is malformed) and judges.
fn judge(previous: &str, play: &str) -> Result<tichu::Verdict, String> {
    let previous: tichu::Play = previous.parse().map_err(|e| format!("PREV: {e}"))?;
    let play: tichu::Play = play.parse().map_err(|e| format!("PLAY: {e}"))?;
    tichu::judge(&previous, &play).map_err(|e| e.to_string())
}

/// `legal`/`illegal`, or with `why` the reason too.
fn render(verdict: &tichu::Verdict, why: bool) -> String {
    if why {
        verdict.why()
    } else {
        verdict.to_string()
    }
}

fn tichu_cmd(a: &TichuRulesArgs) -> Result<ExitCode, String> {
    if a.batch {
        batch(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [previous, play] = words[..] else {
                return Err(format!(
                    "expected two plays, `PREV PLAY` (`-` for no previous play), found {}",
                    words.len()
                ));
            };
            Ok(render(&judge(previous, play)?, a.why))
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(previous), Some(play)) = (&a.previous, &a.play) else {
        unreachable!("clap requires PREV and PLAY without --batch");
    };
    let verdict = judge(previous, play)?;
    print_line(&render(&verdict, a.why))?;
    Ok(if verdict.is_legal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_ILLEGAL)
    })
}

/// Prints one answer. A failed write is remembered by [`crate::output`]
/// (a closed pipe quietly, any other failure with status 3 at the end)
/// and stops a batch.
fn print_line(line: &str) -> Result<(), String> {
    outln!("{line}");
    Ok(())
}

/// Answers each non-empty, non-comment line of stdin with one line of
/// output, flushed as it goes (so a program can feed cases one at a time
/// and read each answer). Stops at the first malformed line, naming it;
/// the answers before it stay printed.
fn batch(mut answer: impl FnMut(&str) -> Result<String, String>) -> Result<(), String> {
    let stdin = io::stdin().lock();
    for (index, line) in stdin.lines().enumerate() {
        let number = index + 1;
        let line = line.map_err(|e| format!("stdin line {number}: cannot read: {e}"))?;
        let case = line.trim();
        if case.is_empty() || case.starts_with('#') {
            continue;
        }
        let out = answer(case).map_err(|e| format!("stdin line {number}: {e}"))?;
        print_line(&out)?;
        if crate::output::stdout_closed() {
            break;
        }
    }
    Ok(())
}

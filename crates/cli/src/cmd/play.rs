//! `dojo play cardjitsu`: a person against the computer or a bot, the
//! older Card-Jitsu variant; labelled for a person at a terminal, in the
//! classic challenge's exact format for scripts (`--plain`, or stdin not a
//! terminal); the game itself is [`dojo_games::classic`]. Without a bot, player 2 plays a
//! uniformly random card of all 198 every round (as in the seed).

use std::io::{self, IsTerminal};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use dojo_engine::cardjitsu::{Deck, DeckDealer};
use dojo_games::classic::{Display, Ending, RandomOpponent, play_classic, with_bot};

use crate::args::PlayCardJitsuArgs;
use crate::bots;

pub fn run(bots_dir: &Path, a: PlayCardJitsuArgs) -> Result<ExitCode> {
    let seed = a.seed.unwrap_or_else(|| {
        let s = bots::fresh_seed();
        errln!("seed: {s} (replay with --seed {s})");
        s
    });
    let stdin = io::stdin();
    // A terminal already shows what the person typed.
    let echo = !stdin.is_terminal();
    let labelled = a.labelled || (!a.plain && stdin.is_terminal());
    let display = |opponent: &str| {
        if labelled {
            Display::Labelled {
                opponent: opponent.to_owned(),
            }
        } else {
            Display::Plain
        }
    };
    let mut dealer = DeckDealer::new(seed, [Deck::standard(), Deck::standard()]);
    let input = stdin.lock();
    let output = io::stdout().lock();
    let outcome = match &a.opponent {
        None => play_classic(
            input,
            output,
            echo,
            &display("the computer"),
            &mut dealer,
            &mut RandomOpponent::new(seed),
        )?,
        Some(spec) => {
            let bot = bots::load(std::slice::from_ref(spec), bots_dir, "cardjitsu")?.remove(0);
            bots::on_ctrl_c(false);
            let opts = super::run_options(&a.controls);
            let shown = display(&bot.name);
            with_bot(bot, seed, &opts, |opponent| {
                play_classic(input, output, echo, &shown, &mut dealer, opponent)
            })?
        }
    };
    // An input that ends mid-game is not a finished game (a script that
    // ran out of moves should notice).
    Ok(match outcome {
        Ending::Won { .. } => ExitCode::SUCCESS,
        Ending::Abandoned => crate::exit::code(crate::exit::NEGATIVE),
    })
}

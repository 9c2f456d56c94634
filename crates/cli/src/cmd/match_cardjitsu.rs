//! `dojo match cardjitsu`: one game between two bots.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use dojo_engine::cardjitsu::{Deck, Ruleset, Settings};
use dojo_games::{CardJitsuSetup, play_cardjitsu};

use dojo_runner::RunOptions;

use crate::args::{CardJitsuMatchArgs, RulesArg};
use crate::{bots, render};

fn deck(path: Option<&Path>) -> Result<(Deck, String)> {
    match path {
        None => Ok((Deck::standard(), "standard".to_owned())),
        Some(path) => {
            // Recorded absolute, so `replay --rerun` reads the same file
            // from any directory.
            let name = std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .display()
                .to_string();
            let deck = Deck::parse_dcfg(&super::read_text(path)?, &name)?;
            Ok((deck, name))
        }
    }
}

pub fn run(bots_dir: &Path, a: CardJitsuMatchArgs) -> Result<ExitCode> {
    let (deck1, name1) = deck(a.deck1.as_deref())?;
    let (deck2, name2) = deck(a.deck2.as_deref())?;
    let rules = match a.rules {
        RulesArg::Tournament => Ruleset::Tournament,
        RulesArg::Classic => Ruleset::Classic,
    };
    let loaded = bots::load(&[a.bot1, a.bot2], bots_dir, "cardjitsu")?;
    let seed = a.seed.unwrap_or_else(|| {
        let s = bots::fresh_seed();
        errln!("seed: {s} (replay with --seed {s})");
        s
    });
    bots::on_ctrl_c(false);
    let setup = CardJitsuSetup {
        seed,
        settings: Settings {
            rules,
            max_rounds: a.max_rounds,
            decks: [deck1, deck2],
        },
        deck_names: [name1, name2],
    };
    let record = play_cardjitsu(
        [loaded[0].clone(), loaded[1].clone()],
        &setup,
        &RunOptions {
            keep_stderr: a.keep_stderr,
            ..super::run_options(&a.time)
        },
        &mut |_| {},
    )?;
    outln!("{}", render::cardjitsu::header(&record));
    if !a.quiet {
        out!("{}", render::cardjitsu::transcript(&record));
    }
    outln!("result: {}", render::cardjitsu::result(&record));
    for line in render::cardjitsu::conduct(&record) {
        outln!("faults: {line}");
    }
    if let Some(path) = &a.json {
        super::write_json(path, &record)?;
    }
    if let Some(path) = &a.html {
        let source = super::record_source(a.json.as_deref());
        crate::html::write(path, &crate::html::replay(&record, &source)?)?;
        outln!("replay page: {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
